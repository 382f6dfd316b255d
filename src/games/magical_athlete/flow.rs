//! The game's flow: a race started from the picks, run slot by slot (answering from the
//! record, policies and defaults), scored, and the next race's first player rolled off.

use super::decide::{Given, How, Question};
use super::race::{Decider, Halt, Race, RaceEvent, Racer, Rid, TURN_QUESTION};
use super::racers::Kind;
use super::{Event, GOLD, MagicalAthlete, Options, Phase, Player, RACES, SILVER, Waiting};
use crate::engine::{DecisionWindow, GameRng, Seat, Seed};

/// Answers a slot's questions from the record, policies, defaults, or waits.
struct GameDecider<'a> {
    given: &'a [Given],
    next: usize,
    record: Vec<Given>,
    players: &'a [Player],
    options: &'a Options,
}

impl Decider for GameDecider<'_> {
    fn decide(&mut self, race: &Race, q: &Question) -> Option<Given> {
        let g = if let Some(g) = self.given.get(self.next) {
            self.next += 1;
            *g
        } else {
            let seat = race.asker(q);
            let policy = q
                .topic()
                .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)));
            let live = if q.is_turn() {
                let choices = q.answers().len();
                !(self.options.auto_roll && (choices <= 1 || policy.is_some()))
            } else {
                policy.is_none() && self.options.decision_timeout != DecisionWindow::Seconds(0)
            };
            if live {
                return None;
            }
            match policy {
                Some(p) => Given {
                    answer: race.policy_answer(q, Some(p)),
                    how: How::Policy,
                },
                None => Given {
                    answer: race.default_answer(q),
                    how: How::Default,
                },
            }
        };
        self.record.push(g);
        Some(g)
    }
}

impl MagicalAthlete {
    pub(super) fn start_race(
        &mut self,
        picks: Vec<(Seat, Vec<Kind>)>,
        first: Seat,
        events: &mut Vec<Event>,
    ) {
        let number = self.races_done + 1;
        let track = self.options.track_of(number);
        let n = self.players.len();
        let mut racers = Vec::new();
        for step in 0..n {
            let seat = Seat::from_index((first.index() + step) % n).unwrap_or(first);
            if let Some((_, ks)) = picks.iter().find(|(s, _)| *s == seat) {
                for &k in ks {
                    racers.push(Racer::new(k, seat));
                }
            }
        }
        for (seat, ks) in &picks {
            if let Some(p) = self.players.get_mut(seat.index()) {
                p.used.extend(ks.iter().copied());
            }
        }
        events.push(Event::Revealed {
            race: number,
            track,
            picks,
            first,
        });
        let mut seed = [0u8; 32];
        for chunk in seed.chunks_mut(8) {
            chunk.copy_from_slice(&self.rng.next_u64().to_le_bytes());
        }
        let mut race = Race::new(
            number,
            track,
            n,
            racers,
            first,
            GameRng::from_seed(Seed(seed)),
        );
        race.deck = self.deck.clone();
        race.winners = self.winners.clone();
        race.bronze = self.players.iter().map(|p| p.bronze).collect();
        race.two_player = n == 2;
        self.race = Some(Box::new(race));
        self.phase = Phase::Racing;
        self.waiting = None;
    }

    /// Runs slots until a live question or the end of the race; `resume` continues a slot
    /// that waited, with the answer just given.
    pub(super) fn run(&mut self, resume: Option<(Waiting, Given)>, events: &mut Vec<Event>) {
        let mut resume = resume;
        loop {
            let (mut race, given, emitted) = match resume.take() {
                Some((w, g)) => {
                    let mut given = w.given;
                    given.push(g);
                    (*w.base, given, w.emitted)
                }
                None => match self.race.clone() {
                    Some(r) => (*r, Vec::new(), 0),
                    None => return,
                },
            };
            let base = race.clone();
            let mut decider = GameDecider {
                given: &given,
                next: 0,
                record: Vec::new(),
                players: &self.players,
                options: &self.options,
            };
            let result = race.run_slot(&mut decider);
            let record = decider.record;
            for e in race.events.iter().skip(emitted) {
                events.push(Event::Race { event: e.clone() });
            }
            match result {
                Ok(()) => {
                    let stop = self.stop_after.is_some_and(|n| race.turns_played >= n);
                    self.race = Some(Box::new(race));
                    if stop {
                        self.waiting = None;
                        return;
                    }
                }
                Err(Halt::Ask(question)) => {
                    let emitted = race.events.len();
                    self.race = Some(Box::new(race));
                    self.waiting = Some(Box::new(Waiting {
                        base: Box::new(base),
                        given: record,
                        question,
                        emitted,
                    }));
                    return;
                }
                Err(Halt::Over) => {
                    self.race = Some(Box::new(race));
                    self.end_race(events);
                    return;
                }
                Err(Halt::OutOfDice) => {
                    // Only scripted dice run out (replays, tests): stop where the race is.
                    self.race = Some(Box::new(race));
                    self.waiting = None;
                    return;
                }
            }
        }
    }

    pub(super) fn end_race(&mut self, events: &mut Vec<Event>) {
        let Some(race) = self.race.as_mut() else {
            return;
        };
        race.events.clear();
        let i = usize::from(race.number.saturating_sub(1)).min(3);
        let before: Vec<i32> = self.players.iter().map(|p| p.bronze).collect();
        for (p, &b) in self.players.iter_mut().zip(race.bronze.iter()) {
            p.bronze = b;
        }
        self.deck = race.deck.clone();
        for c in &race.set_aside {
            if !self.set_aside.contains(c) {
                self.set_aside.push(*c);
            }
        }
        let who = |r: Rid| race.racers.get(r).map(|x| (x.seat, x.kind));
        let gold = race.placings.first().and_then(|&r| who(r));
        let silver = race.placings.get(1).and_then(|&r| who(r));
        let mut race_points = vec![0i64; self.players.len()];
        for (i2, p) in self.players.iter().enumerate() {
            race_points[i2] = i64::from(p.bronze - before.get(i2).copied().unwrap_or(0));
        }
        if let Some((s, k)) = gold {
            if let Some(p) = self.players.get_mut(s.index()) {
                p.gold.push(GOLD[i]);
            }
            race_points[s.index()] += i64::from(GOLD[i]);
            self.winners.push(k);
        }
        if let Some((s, _)) = silver {
            if let Some(p) = self.players.get_mut(s.index()) {
                p.silver.push(SILVER[i]);
            }
            race_points[s.index()] += i64::from(SILVER[i]);
        }
        let number = race.number;
        events.push(Event::Awarded {
            race: number,
            gold: gold.map(|(s, k)| (s, k, GOLD[i])),
            silver: silver.map(|(s, k)| (s, k, SILVER[i])),
        });
        self.races_done = number;
        self.season
            .push(self.players.iter().map(Player::score).collect());
        self.waiting = None;
        if self.races_done >= self.options.races.clamp(1, RACES) {
            self.phase = Phase::Over;
            let scores = self
                .players
                .iter()
                .enumerate()
                .filter_map(|(i, p)| Seat::from_index(i).map(|s| (s, p.score())))
                .collect();
            events.push(Event::GameOver { scores });
        } else {
            // Who goes first next race (after the last race nobody does: no roll-off).
            let first = self.next_first(&race_points, events);
            self.phase = Phase::Pick {
                race: number + 1,
                first,
            };
        }
    }

    pub(super) fn next_first(&mut self, race_points: &[i64], events: &mut Vec<Event>) -> Seat {
        let seats = self.seats();
        let candidates: Vec<Seat> = if self.players.len() == 2 {
            let low = race_points.iter().copied().min().unwrap_or(0);
            seats
                .iter()
                .copied()
                .filter(|s| race_points.get(s.index()) == Some(&low))
                .collect()
        } else if let Some(race) = &self.race {
            if let Some(&r) = race.eliminated.first() {
                race.racers.get(r).map(|x| vec![x.seat]).unwrap_or_default()
            } else {
                let left: Vec<&Racer> = race.racers.iter().filter(|x| x.racing()).collect();
                match left.iter().map(|x| x.pos).min() {
                    Some(m) => {
                        let mut v: Vec<Seat> =
                            left.iter().filter(|x| x.pos == m).map(|x| x.seat).collect();
                        v.sort();
                        v.dedup();
                        v
                    }
                    None => seats.clone(),
                }
            }
        } else {
            seats.clone()
        };
        match candidates.as_slice() {
            [one] => *one,
            [] => self.roll_off(&seats, "who goes first", events),
            many => {
                let many = many.to_vec();
                self.roll_off(&many, "who goes first", events)
            }
        }
    }

    /// Everyone rolls; the highest roll nobody else rolled wins; if there is none (every
    /// roll shared), the roll-off is told as a tie and everyone rolls again.
    pub(super) fn roll_off(
        &mut self,
        seats: &[Seat],
        purpose: &str,
        events: &mut Vec<Event>,
    ) -> Seat {
        let fallback = seats.first().copied().unwrap_or(Seat(0));
        if seats.len() < 2 {
            return fallback;
        }
        for _ in 0..1000 {
            let rolls: Vec<(Seat, u8)> = seats.iter().map(|&s| (s, self.rng.die(6))).collect();
            let winner = roll_off_winner(&rolls);
            events.push(Event::RollOff {
                purpose: purpose.to_string(),
                rolls,
                winner,
            });
            if let Some(w) = winner {
                return w;
            }
        }
        fallback
    }

    /// The answer a missed question gets: the owner's policy, else the default.
    pub(super) fn fallback(&self, w: &Waiting, how: How) -> Given {
        let seat = w.base.asker(&w.question);
        let policy = w
            .question
            .topic()
            .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)));
        let race = self.race.as_ref().unwrap_or(&w.base);
        Given {
            answer: race.policy_answer(&w.question, policy),
            how,
        }
    }
}

/// The highest roll nobody else rolled, and who rolled it; `None`: every roll was shared.
fn roll_off_winner(rolls: &[(Seat, u8)]) -> Option<Seat> {
    (1..=6u8)
        .rev()
        .find(|v| rolls.iter().filter(|(_, r)| r == v).count() == 1)
        .and_then(|v| rolls.iter().find(|(_, r)| *r == v).map(|(s, _)| *s))
}

/// The turn prompt's question as the first release recorded it.
const OLD_TURN_QUESTION: &str = "the turn";

impl Event {
    /// This event as the log records it today, from the form an older release wrote: a
    /// tied roll-off once named a winner, and the turn prompt was once "the turn". Only
    /// the record's form changes here, never what happened.
    pub(super) fn in_todays_form(self) -> Event {
        match self {
            // Only a tie is rewritten: any other winner stays as recorded, so a changed
            // one differs from the replay.
            Event::RollOff {
                purpose,
                rolls,
                winner,
            } => Event::RollOff {
                winner: roll_off_winner(&rolls).and(winner),
                purpose,
                rolls,
            },
            Event::Race {
                event:
                    RaceEvent::Decided {
                        racer,
                        question,
                        answer,
                        how,
                    },
            } if question == OLD_TURN_QUESTION => Event::Race {
                event: RaceEvent::Decided {
                    racer,
                    question: TURN_QUESTION.into(),
                    answer,
                    how,
                },
            },
            other => other,
        }
    }
}
