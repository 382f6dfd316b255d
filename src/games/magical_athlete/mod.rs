//! Magical Athlete: a roll-and-move race of 36 racers with powers
//! (../shared/rules/magical-athlete.md, with the project's rulings in
//! docs/rules/magical-athlete.md).
//!
//! A game is a snake draft, then four races. This module owns the game: the draft
//! ([`draft`]), the secret simultaneous racer picks, the chips, and the bridge between the
//! engine contract and a race ([`race`]), which owns the track and every power.
//!
//! # Waiting for decisions
//! A race runs in slots (the "before my race" powers, then one player's turn at a time).
//! Each slot starts from a copy of the race kept in [`Waiting::base`]; every question the slot
//! asks is answered by a recorded answer, a standing policy, the default, or (when the owner
//! must be asked live) stops the slot. The answer then joins the record and the slot runs
//! again from its start: the dice come from the race's own RNG, so it reaches the same
//! question with the same dice and goes on. Events already told are not told twice.
//!
//! Turns wait for the mover's "roll" (or a power's alternative) unless `auto-roll` is on
//! and the turn has no choice; other decisions wait `decision-timeout` seconds, or are never
//! asked when it is 0.

pub mod decide;
pub mod draft;
pub mod race;
pub mod racers;
pub mod replay;
pub mod sim;
pub mod track;

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{
    Choice, Game, GameRng, Narration, OptionDoc, OptionsError, Outcome, Pending, PreferenceError,
    Prompt, Seat, SeatSetup, Seed, SetupError, Submitted, Window,
};
use decide::{Answer, Given, How, Policy, Question, Topic, TurnChoice};
use draft::Draft;
use race::{Decider, Halt, Race, RaceEvent, Racer, Rid, Status, Who};
use racers::Kind;
use track::{Special, Track};

/// Gold chips for races 1 to 4.
pub const GOLD: [u8; 4] = [3, 4, 4, 5];
/// Silver chips for races 1 to 4.
pub const SILVER: [u8; 4] = [1, 2, 2, 3];
/// Races in a game.
pub const RACES: u8 = 4;

/// Race options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The track of each race: one name for all four races, or four names.
    pub track: Vec<String>,
    /// `printed` (the board, the default) or `rulebook` (the older layout in the rules text).
    pub wild_layout: String,
    /// The 3-player double-racer variant (two racers each).
    pub double: bool,
    /// Seconds a player has to answer a power's question; 0 never asks (policy or default).
    pub decision_timeout: u64,
    /// Play turns that hold no choice without waiting for the mover's "roll".
    pub auto_roll: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            track: vec!["mild".into(), "wild".into(), "mild".into(), "wild".into()],
            wild_layout: "printed".into(),
            double: false,
            decision_timeout: 600,
            auto_roll: false,
        }
    }
}

impl Options {
    /// The track of race `n` (1-based).
    pub fn track_of(&self, n: u8) -> Track {
        let i = usize::from(n.saturating_sub(1));
        let name = if self.track.len() == 1 {
            self.track.first()
        } else {
            self.track.get(i)
        };
        match name.map(|s| s.as_str()) {
            Some("wild") => {
                if self.wild_layout == "rulebook" {
                    Track::WildRulebook
                } else {
                    Track::Wild
                }
            }
            _ => Track::Mild,
        }
    }

    fn schedule(&self) -> Vec<Track> {
        (1..=RACES).map(|n| self.track_of(n)).collect()
    }
}

const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "track",
        help: "the tracks, mild or wild: one for every race, or four (mild,wild,mild,wild)",
    },
    OptionDoc {
        key: "wild-layout",
        help: "printed (the board, default) or rulebook (the older layout in the rules text)",
    },
    OptionDoc {
        key: "double",
        help: "3 players race two racers each (no)",
    },
    OptionDoc {
        key: "decision-timeout",
        help: "seconds to answer a power's question; 0 never asks (600)",
    },
    OptionDoc {
        key: "auto-roll",
        help: "turns with no choice play without waiting for `roll` (no)",
    },
];

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    /// Drafted racers, in draft order.
    pub hand: Vec<Kind>,
    pub used: Vec<Kind>,
    pub gold: Vec<u8>,
    pub silver: Vec<u8>,
    pub bronze: i32,
    pub policies: Vec<Policy>,
}

impl Player {
    pub fn score(&self) -> i64 {
        let g: i64 = self.gold.iter().map(|&v| i64::from(v)).sum();
        let s: i64 = self.silver.iter().map(|&v| i64::from(v)).sum();
        g + s + i64::from(self.bronze)
    }

    fn unused(&self) -> Vec<Kind> {
        self.hand
            .iter()
            .copied()
            .filter(|k| !self.used.contains(k))
            .collect()
    }

    fn policy(&self, topic: Topic) -> Option<&Policy> {
        self.policies.iter().find(|p| p.topic() == topic)
    }
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "phase")]
pub enum Phase {
    Draft(Draft),
    /// Everyone picks the racer(s) for race `race`, in secret.
    Pick {
        race: u8,
        first: Seat,
    },
    Racing,
    Over,
}

/// A slot stopped on a live question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    /// The race at the start of the slot.
    pub base: Box<Race>,
    /// Every answer the slot has read so far, in order.
    pub given: Vec<Given>,
    pub question: Question,
    /// Events of this slot already returned.
    pub emitted: usize,
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MagicalAthlete {
    options: Options,
    players: Vec<Player>,
    phase: Phase,
    /// The undrawn deck (hidden order).
    deck: Vec<Kind>,
    /// Cards Egg drew and did not take (known to their owner only).
    set_aside: Vec<(Seat, Kind)>,
    /// The race in progress, or the last one run (boxed: it is most of the state).
    race: Option<Box<Race>>,
    waiting: Option<Box<Waiting>>,
    /// Racers that won earlier races.
    winners: Vec<Kind>,
    races_done: u8,
    /// Every player's points after each race run, for the season's race chart.
    #[serde(default)]
    season: Vec<Vec<i64>>,
    rng: GameRng,
}

/// A typed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order", content = "value")]
pub enum Order {
    /// Draft this racer from the line.
    Draft(Kind),
    /// Race with these racers (one, or two in the double-racer variants).
    Race(Vec<Kind>),
    Roll,
    Legs,
    Cheer,
    Flip(Kind),
    Hypnotize(Kind),
    Guess(u8),
    Warp(u8),
    Yes,
    No,
    /// A racer named in answer (order, prediction, Copycat, Egg, Twin).
    Racer(Kind),
    /// Twin takes no power.
    NoPower,
}

/// Order text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("the order is empty; {0}")]
    Empty(String),
    #[error("`{0}` is not a racer's name")]
    UnknownRacer(String),
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("I don't understand `{got}`; {hint}")]
    Unreadable { got: String, hint: String },
}

/// An order that is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalOrder {
    #[error("there is nothing for you to decide right now")]
    NotAsked,
    #[error("{0} isn't in the draft line")]
    NotInLine(String),
    #[error("{0} isn't in your hand, or has raced already")]
    NotInHand(String),
    #[error("pick {want} different racer(s) from your hand")]
    WrongCount { want: usize },
    #[error("that isn't one of the choices: {0}")]
    NotAChoice(String),
    #[error("{0} isn't in this race")]
    NotRacing(String),
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "type")]
pub enum Event {
    RollOff {
        purpose: String,
        rolls: Vec<(Seat, u8)>,
        winner: Seat,
    },
    DraftLine {
        round: u8,
        cards: Vec<Kind>,
    },
    Drafted {
        seat: Seat,
        racer: Kind,
        missed: bool,
    },
    Revealed {
        race: u8,
        track: Track,
        picks: Vec<(Seat, Vec<Kind>)>,
        first: Seat,
    },
    Race {
        event: RaceEvent,
    },
    Awarded {
        race: u8,
        gold: Option<(Seat, Kind, u8)>,
        silver: Option<(Seat, Kind, u8)>,
    },
    GameOver {
        scores: Vec<(Seat, i64)>,
    },
}

/// One racer on the track, for views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RacerView {
    pub racer: Kind,
    pub name: String,
    pub seat: Seat,
    pub owner: String,
    pub space: u8,
    pub tripped: bool,
    pub status: Status,
    /// The power it has now (Egg's and Twin's pick, Copycat's copy).
    pub power: Option<Kind>,
    pub copying: Option<Kind>,
    pub prediction: Option<Kind>,
}

/// One player's line, for views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub name: String,
    pub hand: Vec<Kind>,
    pub used: Vec<Kind>,
    pub gold: Vec<u8>,
    pub silver: Vec<u8>,
    pub bronze: i32,
    pub score: i64,
}

/// All the channel sees. Hands are public (the draft is face up); the deck order and the
/// cards Egg set aside are not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub phase: String,
    /// The race being run or picked (1-4), 0 during the draft.
    pub race: u8,
    pub schedule: Vec<Track>,
    pub track: Option<Track>,
    pub specials: Vec<(u8, Special)>,
    pub players: Vec<PlayerView>,
    pub draft_line: Vec<Kind>,
    pub draft_round: u8,
    pub racers: Vec<RacerView>,
    /// Racers in finishing order.
    pub placings: Vec<Kind>,
    pub eliminated: Vec<Kind>,
    pub mover: Option<Kind>,
    /// Who must act, in words.
    pub waiting: Option<String>,
    pub deck_size: usize,
    pub winners: Vec<Kind>,
    pub finished: bool,
    /// Every player's points after each race run (the race chart's columns).
    #[serde(default)]
    pub season: Vec<Vec<i64>>,
}

/// A question as one seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionView {
    pub text: String,
    pub choices: Vec<String>,
}

/// All one seat sees in its DM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub hand: Vec<Kind>,
    pub unused: Vec<Kind>,
    /// Your racers in the race now.
    pub racing: Vec<Kind>,
    /// Your standing policies, as the text that sets them.
    pub policies: Vec<String>,
    pub question: Option<QuestionView>,
    /// Cards your Egg set aside (or is choosing from).
    pub egg_cards: Vec<Kind>,
    pub score: i64,
}

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
            let seat = q.seat(race);
            let policy = q
                .topic()
                .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)));
            let live = if q.is_turn() {
                let choices = q.answers().len();
                !(self.options.auto_roll && (choices <= 1 || policy.is_some()))
            } else {
                policy.is_none() && self.options.decision_timeout > 0
            };
            if live {
                return None;
            }
            match policy {
                Some(p) => Given {
                    answer: decide::policy_answer(race, q, Some(p)),
                    how: How::Policy,
                },
                None => Given {
                    answer: decide::default_answer(race, q),
                    how: How::Default,
                },
            }
        };
        self.record.push(g);
        Some(g)
    }
}

impl MagicalAthlete {
    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The race in progress (or the last one).
    pub fn race(&self) -> Option<&Race> {
        self.race.as_deref()
    }

    pub fn waiting(&self) -> Option<&Waiting> {
        self.waiting.as_deref()
    }

    fn name(&self, seat: Seat) -> &str {
        self.players
            .get(seat.index())
            .map(|p| p.name.as_str())
            .unwrap_or("?")
    }

    fn per_race(&self) -> usize {
        if self.players.len() == 2 || self.options.double {
            2
        } else {
            1
        }
    }

    fn seats(&self) -> Vec<Seat> {
        Seat::all(self.players.len()).collect()
    }

    /// "Alice's Legs".
    pub fn who_text(&self, w: &Who) -> String {
        format!("{}'s {}", self.name(w.seat), w.kind.name())
    }

    fn racer_name(&self, r: Rid) -> String {
        self.race
            .as_ref()
            .and_then(|race| race.racers.get(r))
            .map(|x| x.kind.name().to_string())
            .unwrap_or_else(|| "?".into())
    }

    // ----- Game flow -----

    fn start_race(&mut self, picks: Vec<(Seat, Vec<Kind>)>, first: Seat, events: &mut Vec<Event>) {
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
    fn run(&mut self, resume: Option<(Waiting, Given)>, events: &mut Vec<Event>) {
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
                    self.race = Some(Box::new(race));
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

    fn end_race(&mut self, events: &mut Vec<Event>) {
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
        // Who goes first next race.
        let first = self.next_first(&race_points, events);
        self.races_done = number;
        self.season
            .push(self.players.iter().map(Player::score).collect());
        self.waiting = None;
        if self.races_done >= RACES {
            self.phase = Phase::Over;
            let scores = self
                .players
                .iter()
                .enumerate()
                .filter_map(|(i, p)| Seat::from_index(i).map(|s| (s, p.score())))
                .collect();
            events.push(Event::GameOver { scores });
        } else {
            self.phase = Phase::Pick {
                race: number + 1,
                first,
            };
        }
    }

    fn next_first(&mut self, race_points: &[i64], events: &mut Vec<Event>) -> Seat {
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

    /// Everyone rolls; the highest roll nobody else rolled wins; if there is none, roll again.
    fn roll_off(&mut self, seats: &[Seat], purpose: &str, events: &mut Vec<Event>) -> Seat {
        for _ in 0..1000 {
            let rolls: Vec<(Seat, u8)> = seats.iter().map(|&s| (s, self.rng.die(6))).collect();
            let winner = (1..=6u8)
                .rev()
                .find(|v| rolls.iter().filter(|(_, r)| r == v).count() == 1)
                .and_then(|v| rolls.iter().find(|(_, r)| *r == v).map(|(s, _)| *s));
            let done = winner.is_some() || seats.len() < 2;
            events.push(Event::RollOff {
                purpose: purpose.to_string(),
                rolls,
                winner: winner.unwrap_or(seats.first().copied().unwrap_or(Seat(0))),
            });
            if done {
                return winner.unwrap_or(seats.first().copied().unwrap_or(Seat(0)));
            }
        }
        seats.first().copied().unwrap_or(Seat(0))
    }

    // ----- Orders -----

    fn question(&self) -> Option<&Question> {
        self.waiting.as_ref().map(|w| &w.question)
    }

    fn waiting_seat(&self) -> Option<Seat> {
        let w = self.waiting.as_ref()?;
        Some(w.question.seat(&w.base))
    }

    /// The race the waiting question is about (the state where it stopped).
    fn question_race(&self) -> Option<&Race> {
        self.race.as_deref()
    }

    /// Turns an answer into the order a player would send.
    fn order_of(&self, _q: &Question, a: &Answer) -> Order {
        let k = |r: Rid| {
            self.question_race()
                .and_then(|race| race.racers.get(r))
                .map(|x| x.kind)
                .unwrap_or(Kind::Legs)
        };
        match a {
            Answer::Yes => Order::Yes,
            Answer::No => Order::No,
            Answer::NoPower => Order::NoPower,
            Answer::Power(p) => Order::Racer(*p),
            Answer::Racer(r) => Order::Racer(k(*r)),
            Answer::Turn(c) => match c {
                TurnChoice::Roll => Order::Roll,
                TurnChoice::Legs => Order::Legs,
                TurnChoice::Cheer => Order::Cheer,
                TurnChoice::Flip(r) => Order::Flip(k(*r)),
                TurnChoice::Hypnotize(r) => Order::Hypnotize(k(*r)),
                TurnChoice::Guess(g) => Order::Guess(*g),
                TurnChoice::Warp(s) => Order::Warp(*s),
            },
        }
    }

    /// The answer an order gives to the waiting question, if it is one of its choices.
    fn answer_of(&self, q: &Question, o: &Order) -> Option<Answer> {
        q.answers().into_iter().find(|a| &self.order_of(q, a) == o)
    }

    /// Every legal order for `seat` now.
    fn legal_orders(&self, seat: Seat) -> Vec<Order> {
        match &self.phase {
            Phase::Draft(d) if d.current() == Some(seat) => {
                d.line.iter().map(|&k| Order::Draft(k)).collect()
            }
            Phase::Pick { .. } => {
                let unused = self
                    .players
                    .get(seat.index())
                    .map(|p| p.unused())
                    .unwrap_or_default();
                if self.per_race() == 1 {
                    unused.into_iter().map(|k| Order::Race(vec![k])).collect()
                } else {
                    let mut v = Vec::new();
                    for (i, a) in unused.iter().enumerate() {
                        for b in unused.iter().skip(i + 1) {
                            v.push(Order::Race(vec![*a, *b]));
                        }
                    }
                    v
                }
            }
            Phase::Racing if self.waiting_seat() == Some(seat) => match self.question() {
                Some(q) => q.answers().iter().map(|a| self.order_of(q, a)).collect(),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    fn pending_seats(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::Draft(d) => d.current().into_iter().collect(),
            Phase::Pick { .. } => self.seats(),
            Phase::Racing => self.waiting_seat().into_iter().collect(),
            Phase::Over => Vec::new(),
        }
    }

    fn policy_order(&self, seat: Seat) -> Option<Order> {
        let q = self.question()?;
        let race = self.question_race()?;
        let policy = q
            .topic()
            .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)));
        let a = decide::policy_answer(race, q, policy);
        Some(self.order_of(q, &a))
    }

    fn read_kinds(text: &str) -> Result<Vec<Kind>, SyntaxError> {
        let mut out = Vec::new();
        for part in text.split(&[',', '+', '&', ';'][..]).map(str::trim) {
            if part.is_empty() {
                continue;
            }
            match Kind::parse(part) {
                Some(k) => out.push(k),
                None => {
                    // "legs magician": try word by word.
                    let words: Vec<&str> = part.split_whitespace().collect();
                    let mut i = 0;
                    while i < words.len() {
                        let two = words.get(i + 1).map(|w| format!("{} {w}", words[i]));
                        if let Some(k) = two.as_deref().and_then(Kind::parse) {
                            out.push(k);
                            i += 2;
                        } else if let Some(k) = Kind::parse(words[i]) {
                            out.push(k);
                            i += 1;
                        } else {
                            return Err(SyntaxError::UnknownRacer(part.chars().take(40).collect()));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    fn question_prompt(&self, seat: Seat) -> Prompt {
        let Some(q) = self.question() else {
            return nothing();
        };
        let Some(race) = self.question_race() else {
            return nothing();
        };
        let racer = q.racer().map(|r| self.racer_name(r)).unwrap_or_default();
        let text = match q {
            Question::Order { only_one, .. } => {
                if *only_one {
                    "Your first turn: which racer moves?".to_string()
                } else {
                    "Your turn: which racer goes first?".to_string()
                }
            }
            Question::Turn { racer: r, .. } => {
                let pos = race.racers.get(*r).map(|x| x.pos).unwrap_or(0);
                format!("Your turn: {racer} is on space {pos}. Roll, or use its power?")
            }
            Question::Predict { .. } => format!("{racer}: predict which racer will win."),
            Question::Reroll { roll, power, .. } => {
                if *power == Kind::Magician {
                    format!("{racer} rolled {roll}. Reroll (Magician)?")
                } else {
                    format!("{racer} rolled {roll}. Reroll with the Dicemonger's offer?")
                }
            }
            Question::Double { roll, .. } => {
                format!("{racer} rolled {roll}. Double it to {} and trip?", roll * 2)
            }
            Question::Transmute { roll, .. } => format!("{racer} rolled {roll}. Move 4 instead?"),
            Question::Ride { with, to, .. } => format!(
                "{} is moving off your space to space {to}. Should {racer} ride along?",
                self.racer_name(*with)
            ),
            Question::Duel { with, .. } => format!(
                "{} shares {racer}'s space. Duel? (both roll; the higher moves 2; you win ties)",
                self.racer_name(*with)
            ),
            Question::Copy { .. } => format!("{racer}: the lead is tied. Whom do you copy?"),
            Question::Egg { drawn, .. } => {
                let names: Vec<&str> = drawn.iter().map(|k| k.name()).collect();
                format!("Egg drew {}. Which power do you take?", names.join(" and "))
            }
            Question::Twin { .. } => "Twin: race with the power of a previous winner?".to_string(),
        };
        let choices = self
            .legal_orders(seat)
            .iter()
            .map(|o| Choice::new(self.format(o), self.label(o)))
            .collect();
        Prompt {
            text,
            choices,
            complete: true,
            hint: "Reply with one of the choices, e.g. `roll`, `yes`, `no` or a racer's name."
                .into(),
        }
    }

    fn format(&self, o: &Order) -> String {
        match o {
            Order::Draft(k) => format!("pick {}", k.slug()),
            Order::Race(ks) => format!(
                "race {}",
                ks.iter().map(|k| k.slug()).collect::<Vec<_>>().join(", ")
            ),
            Order::Roll => "roll".into(),
            Order::Legs => "legs".into(),
            Order::Cheer => "cheer".into(),
            Order::Flip(k) => format!("flip {}", k.slug()),
            Order::Hypnotize(k) => format!("hypnotize {}", k.slug()),
            Order::Guess(g) => format!("guess {g}"),
            Order::Warp(s) => format!("warp {s}"),
            Order::Yes => "yes".into(),
            Order::No => "no".into(),
            Order::Racer(k) => k.slug(),
            Order::NoPower => "none".into(),
        }
    }

    fn label(&self, o: &Order) -> String {
        match o {
            Order::Draft(k) => k.name().into(),
            Order::Race(ks) => ks.iter().map(|k| k.name()).collect::<Vec<_>>().join(" + "),
            Order::Roll => "Roll".into(),
            Order::Legs => "Move 5".into(),
            Order::Cheer => "Cheer, then roll".into(),
            Order::Flip(k) => format!("Swap with {}", k.name()),
            Order::Hypnotize(k) => format!("Warp {} here", k.name()),
            Order::Guess(g) => format!("Guess {g}"),
            Order::Warp(s) => format!("Warp to {s}"),
            Order::Yes => "Yes".into(),
            Order::No => "No".into(),
            Order::Racer(k) => k.name().into(),
            Order::NoPower => "No power".into(),
        }
    }

    // ----- Views -----

    fn racer_views(&self) -> Vec<RacerView> {
        let Some(race) = &self.race else {
            return Vec::new();
        };
        if self.phase != Phase::Racing {
            return Vec::new();
        }
        race.racers
            .iter()
            .enumerate()
            .map(|(i, x)| RacerView {
                racer: x.kind,
                name: x.kind.name().to_string(),
                seat: x.seat,
                owner: self.name(x.seat).to_string(),
                space: x.pos.min(track::FINISH),
                tripped: x.tripped,
                status: x.status,
                power: race.power(i),
                copying: x.copying.and_then(|t| race.racers.get(t)).map(|t| t.kind),
                prediction: x
                    .prediction
                    .and_then(|t| race.racers.get(t))
                    .map(|t| t.kind),
            })
            .collect()
    }

    fn waiting_text(&self) -> Option<String> {
        match &self.phase {
            Phase::Draft(d) => d
                .current()
                .map(|s| format!("{} drafts a racer", self.name(s))),
            Phase::Pick { race, .. } => Some(format!("everyone picks a racer for race {race}")),
            Phase::Racing => {
                let w = self.waiting.as_ref()?;
                let seat = w.question.seat(&w.base);
                let racer = w
                    .question
                    .racer()
                    .map(|r| self.racer_name(r))
                    .unwrap_or_default();
                let what = match &w.question {
                    Question::Turn { .. } => format!("{racer}'s turn"),
                    Question::Order { .. } => "which racer goes first".into(),
                    Question::Egg { .. } => "Egg's pick".into(),
                    q => self
                        .question_race()
                        .map(|race| format!("{racer}: {}", race.question_words(q)))
                        .unwrap_or_default(),
                };
                Some(format!("{} decides: {what}", self.name(seat)))
            }
            Phase::Over => None,
        }
    }

    fn player_views(&self) -> Vec<PlayerView> {
        self.players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                Seat::from_index(i).map(|seat| PlayerView {
                    seat,
                    name: p.name.clone(),
                    hand: p.hand.clone(),
                    used: p.used.clone(),
                    gold: p.gold.clone(),
                    silver: p.silver.clone(),
                    bronze: self
                        .race
                        .as_ref()
                        .filter(|_| self.phase == Phase::Racing)
                        .and_then(|r| r.bronze.get(i).copied())
                        .unwrap_or(p.bronze),
                    score: p.score()
                        + self
                            .race
                            .as_ref()
                            .filter(|_| self.phase == Phase::Racing)
                            .and_then(|r| r.bronze.get(i).copied())
                            .map(|b| i64::from(b - p.bronze))
                            .unwrap_or(0),
                })
            })
            .collect()
    }

    /// A scenario game: one race with these racers `(card, seat, space)`, race 1 on `track`,
    /// `first` to move. Used by replays and tests.
    pub fn scenario(
        names: &[&str],
        track: Track,
        racers: &[(Kind, Seat, u8)],
        first: Seat,
        options: Options,
    ) -> MagicalAthlete {
        let players: Vec<Player> = names
            .iter()
            .map(|n| Player {
                name: n.to_string(),
                hand: Vec::new(),
                used: Vec::new(),
                gold: Vec::new(),
                silver: Vec::new(),
                bronze: 0,
                policies: Vec::new(),
            })
            .collect();
        let mut deck: Vec<Kind> = racers::ALL
            .iter()
            .copied()
            .filter(|k| !racers.iter().any(|(r, _, _)| r == k))
            .collect();
        let mut rng = GameRng::seeded(0);
        rng.shuffle(&mut deck);
        let mut rs: Vec<Racer> = Vec::new();
        let n = players.len();
        for step in 0..n {
            let seat = Seat::from_index((first.index() + step) % n.max(1)).unwrap_or(first);
            for &(k, s, pos) in racers {
                if s == seat {
                    let mut x = Racer::new(k, s);
                    x.pos = pos;
                    rs.push(x);
                }
            }
        }
        let mut race = Race::new(1, track, n, rs, first, GameRng::seeded(1));
        race.deck = deck.clone();
        race.two_player = false;
        MagicalAthlete {
            options,
            players,
            phase: Phase::Racing,
            deck,
            set_aside: Vec::new(),
            race: Some(Box::new(race)),
            waiting: None,
            winners: Vec::new(),
            races_done: 3,
            season: Vec::new(),
            rng,
        }
    }

    /// Scripted dice for the race in progress: every die comes from this list, in order.
    pub fn set_dice(&mut self, dice: &[u8]) {
        if let Some(r) = self.race.as_mut() {
            r.dice = Some(dice.iter().copied().collect());
        }
        // A waiting slot runs again from its start: it must read the same dice.
        if let Some(w) = self.waiting.as_mut() {
            w.base.dice = Some(dice.iter().copied().collect());
        }
    }

    /// Gives mutable access to the race in progress (scenario set-up).
    pub fn race_mut(&mut self) -> Option<&mut Race> {
        self.race.as_deref_mut()
    }

    /// Starts a scenario race (after set-up) until its first live question.
    pub fn begin(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        self.run(None, &mut events);
        events
    }
}

fn nothing() -> Prompt {
    Prompt {
        text: "There is nothing for you to decide right now.".into(),
        choices: Vec::new(),
        complete: false,
        hint: String::new(),
    }
}

impl Game for MagicalAthlete {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type PublicView = PublicView;
    type PrivateView = PrivateView;
    type SyntaxError = SyntaxError;
    type IllegalOrder = IllegalOrder;

    fn option_docs() -> &'static [OptionDoc] {
        OPTION_DOCS
    }

    fn check_options(o: &Options) -> Result<(), OptionsError> {
        if o.track.len() != 1 && o.track.len() != usize::from(RACES) {
            return Err(OptionsError::Invalid(
                "track takes one name for every race, or four names (mild,wild,mild,wild)".into(),
            ));
        }
        if let Some(bad) = o.track.iter().find(|t| *t != "mild" && *t != "wild") {
            return Err(OptionsError::BadValue {
                key: "track".into(),
                reason: format!("`{bad}` is not a track; the tracks are mild and wild"),
            });
        }
        if o.wild_layout != "printed" && o.wild_layout != "rulebook" {
            return Err(OptionsError::BadValue {
                key: "wild-layout".into(),
                reason: "expected printed or rulebook".into(),
            });
        }
        if o.decision_timeout > 7 * 24 * 3600 {
            return Err(OptionsError::BadValue {
                key: "decision-timeout".into(),
                reason: "at most a week (604800 seconds)".into(),
            });
        }
        Ok(())
    }

    fn seat_limits(o: &Options) -> (usize, usize) {
        if o.double { (3, 3) } else { (2, 6) }
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        let mut rng = GameRng::from_seed(seed);
        let mut deck = racers::ALL.to_vec();
        rng.shuffle(&mut deck);
        let players = seats
            .iter()
            .map(|s| Player {
                name: s.name.clone(),
                hand: Vec::new(),
                used: Vec::new(),
                gold: Vec::new(),
                silver: Vec::new(),
                bronze: 0,
                policies: Vec::new(),
            })
            .collect::<Vec<_>>();
        let mut game = MagicalAthlete {
            options: options.clone(),
            players,
            phase: Phase::Over,
            deck,
            set_aside: Vec::new(),
            race: None,
            waiting: None,
            winners: Vec::new(),
            races_done: 0,
            season: Vec::new(),
            rng,
        };
        let mut events = Vec::new();
        let seats_all = game.seats();
        let start = game.roll_off(&seats_all, "who drafts first", &mut events);
        let mut d = Draft::new(seats_all.len(), options.double, start);
        d.deal(&mut game.deck);
        game.phase = Phase::Draft(d);
        Ok(game)
    }

    fn pending(&self) -> Pending {
        let seats = self.pending_seats();
        if seats.is_empty() {
            return Pending::none();
        }
        let label = self.waiting_text().unwrap_or_default();
        match &self.phase {
            Phase::Racing => {
                let turn = self.question().is_some_and(Question::is_turn);
                let p = Pending::all(seats, label);
                if turn {
                    p
                } else {
                    p.with_window(Window::Seconds(self.options.decision_timeout))
                }
            }
            _ => Pending::all(seats, label),
        }
    }

    fn prompt(&self, seat: Seat) -> Prompt {
        if !self.pending_seats().contains(&seat) {
            return nothing();
        }
        match &self.phase {
            Phase::Draft(d) => {
                let line: Vec<&str> = d.line.iter().map(|k| k.name()).collect();
                Prompt {
                    text: format!("Draft a racer from the line: {}.", line.join(", ")),
                    choices: self
                        .legal_orders(seat)
                        .iter()
                        .map(|o| Choice::new(self.format(o), self.label(o)))
                        .collect(),
                    complete: true,
                    hint: "Reply `pick <racer>`, e.g. `pick legs`.".into(),
                }
            }
            Phase::Pick { race, .. } => {
                let n = self.per_race();
                Prompt {
                    text: format!(
                        "Race {race} on {}: choose {} from your hand, in secret.",
                        self.options.track_of(*race).name(),
                        if n == 1 { "a racer" } else { "two racers" }
                    ),
                    choices: self
                        .legal_orders(seat)
                        .iter()
                        .map(|o| Choice::new(self.format(o), self.label(o)))
                        .collect(),
                    complete: true,
                    hint: if n == 1 {
                        "Reply `race <racer>`, e.g. `race legs`.".into()
                    } else {
                        "Reply `race <racer>, <racer>`, e.g. `race legs, banana`.".into()
                    },
                }
            }
            Phase::Racing => self.question_prompt(seat),
            Phase::Over => nothing(),
        }
    }

    fn parse_order(&self, _seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        let t = text.trim().to_ascii_lowercase();
        let t = t.trim_start_matches('/').trim();
        if t.is_empty() {
            return Err(SyntaxError::Empty(
                "send `roll`, `yes`, `no`, or a racer's name".into(),
            ));
        }
        let (verb, rest) = match t.split_once(char::is_whitespace) {
            Some((v, r)) => (v, r.trim()),
            None => (t, ""),
        };
        let one = |rest: &str| -> Result<Kind, SyntaxError> {
            Kind::parse(rest)
                .ok_or_else(|| SyntaxError::UnknownRacer(rest.chars().take(40).collect()))
        };
        let number = |rest: &str| -> Result<u8, SyntaxError> {
            rest.parse::<u8>()
                .map_err(|_| SyntaxError::NotANumber(rest.chars().take(20).collect()))
        };
        match &self.phase {
            Phase::Draft(_) => {
                let name = if matches!(verb, "pick" | "draft" | "take") {
                    rest
                } else {
                    t
                };
                return one(name).map(Order::Draft);
            }
            Phase::Pick { .. } => {
                let names = if matches!(verb, "race" | "pick" | "play") {
                    rest
                } else {
                    t
                };
                return Self::read_kinds(names).map(Order::Race);
            }
            _ => {}
        }
        match (verb, rest) {
            ("roll", "") | ("r", "") => Ok(Order::Roll),
            ("legs", "") | ("jog", "") => match self.question() {
                Some(Question::Turn { .. }) | None => Ok(Order::Legs),
                Some(_) => Ok(Order::Racer(Kind::Legs)),
            },
            ("cheer", "") => Ok(Order::Cheer),
            ("yes", "")
            | ("y", "")
            | ("reroll", "")
            | ("double", "")
            | ("ride", "")
            | ("duel", "")
            | ("transmute", "")
            | ("ok", "") => Ok(Order::Yes),
            ("no", "") | ("n", "") | ("keep", "") | ("stay", "") | ("pass", "") => Ok(Order::No),
            ("none", "") | ("nothing", "") => Ok(Order::NoPower),
            ("flip", r) | ("swap", r) if !r.is_empty() => {
                one(r.trim_start_matches("with ")).map(Order::Flip)
            }
            ("hypnotize", r) | ("hypnotise", r) if !r.is_empty() => one(r).map(Order::Hypnotize),
            ("guess", r) => number(r).map(Order::Guess),
            ("warp", r) => number(r.trim_start_matches("to ")).map(Order::Warp),
            ("predict", r) | ("copy", r) | ("take", r) | ("pick", r) | ("first", r)
                if !r.is_empty() =>
            {
                one(r).map(Order::Racer)
            }
            _ => match Kind::parse(t) {
                Some(k) => Ok(Order::Racer(k)),
                None => Err(SyntaxError::Unreadable {
                    got: text.trim().chars().take(40).collect(),
                    hint: "send `roll`, `yes`, `no`, or a racer's name".into(),
                }),
            },
        }
    }

    fn validate(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        if !self.pending_seats().contains(&seat) {
            return Err(IllegalOrder::NotAsked);
        }
        match (&self.phase, order) {
            (Phase::Draft(d), Order::Draft(k)) => {
                if d.line.contains(k) {
                    Ok(())
                } else {
                    Err(IllegalOrder::NotInLine(k.name().into()))
                }
            }
            (Phase::Pick { .. }, Order::Race(ks)) => {
                let want = self.per_race();
                let unused = self
                    .players
                    .get(seat.index())
                    .map(|p| p.unused())
                    .unwrap_or_default();
                if let Some(k) = ks.iter().find(|k| !unused.contains(k)) {
                    return Err(IllegalOrder::NotInHand(k.name().into()));
                }
                let mut d = ks.clone();
                d.sort();
                d.dedup();
                if d.len() != want || ks.len() != want {
                    return Err(IllegalOrder::WrongCount { want });
                }
                Ok(())
            }
            (Phase::Racing, o) => {
                let Some(q) = self.question() else {
                    return Err(IllegalOrder::NotAsked);
                };
                if self.answer_of(q, o).is_some() {
                    return Ok(());
                }
                let in_race = |k: &Kind| {
                    self.question_race()
                        .is_some_and(|r| r.racers.iter().any(|x| x.kind == *k))
                };
                match o {
                    Order::Flip(k) | Order::Hypnotize(k) if !in_race(k) => {
                        Err(IllegalOrder::NotRacing(k.name().into()))
                    }
                    _ => {
                        let choices: Vec<String> = self
                            .legal_orders(seat)
                            .iter()
                            .map(|o| self.format(o))
                            .collect();
                        Err(IllegalOrder::NotAChoice(choices.join(", ")))
                    }
                }
            }
            _ => Err(IllegalOrder::NotAChoice(
                self.legal_orders(seat)
                    .iter()
                    .map(|o| self.format(o))
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }

    fn format_order(&self, _seat: Seat, order: &Order) -> String {
        self.format(order)
    }

    fn default_order(&self, seat: Seat) -> Order {
        match &self.phase {
            Phase::Draft(d) => Order::Draft(d.line.first().copied().unwrap_or(Kind::Legs)),
            Phase::Pick { .. } => {
                let unused = self
                    .players
                    .get(seat.index())
                    .map(|p| p.unused())
                    .unwrap_or_default();
                Order::Race(unused.into_iter().take(self.per_race()).collect())
            }
            Phase::Racing => self.policy_order(seat).unwrap_or(Order::Roll),
            Phase::Over => Order::Roll,
        }
    }

    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        let v = self.legal_orders(seat);
        rng.choose(&v)
            .cloned()
            .unwrap_or_else(|| self.default_order(seat))
    }

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        let mut events = Vec::new();
        let pending = self.pending_seats();
        let valid: Vec<Submitted<Order>> = orders
            .iter()
            .filter(|o| pending.contains(&o.seat) && self.validate(o.seat, &o.order).is_ok())
            .cloned()
            .collect();
        let order_for =
            |seat: Seat| -> Option<&Submitted<Order>> { valid.iter().find(|o| o.seat == seat) };
        match self.phase.clone() {
            Phase::Draft(mut d) => {
                let Some(seat) = d.current() else {
                    return events;
                };
                let (k, missed) = match order_for(seat) {
                    Some(Submitted {
                        order: Order::Draft(k),
                        missed,
                        ..
                    }) => (*k, *missed),
                    _ => (d.line.first().copied().unwrap_or(Kind::Legs), true),
                };
                d.take(k);
                if let Some(p) = self.players.get_mut(seat.index()) {
                    p.hand.push(k);
                }
                events.push(Event::Drafted {
                    seat,
                    racer: k,
                    missed,
                });
                if d.current().is_some() {
                    self.phase = Phase::Draft(d);
                } else if d.next_round(&mut self.deck) {
                    events.push(Event::DraftLine {
                        round: d.round + 1,
                        cards: d.line.clone(),
                    });
                    self.phase = Phase::Draft(d);
                } else {
                    // The draft is over: roll off for the first race.
                    let seats = self.seats();
                    let first = self.roll_off(&seats, "who goes first in race 1", &mut events);
                    self.phase = Phase::Pick { race: 1, first };
                }
            }
            Phase::Pick { first, .. } => {
                let mut picks = Vec::new();
                for seat in pending {
                    let ks = match order_for(seat) {
                        Some(Submitted {
                            order: Order::Race(ks),
                            ..
                        }) => ks.clone(),
                        _ => match self.default_order(seat) {
                            Order::Race(ks) => ks,
                            _ => Vec::new(),
                        },
                    };
                    picks.push((seat, ks));
                }
                self.start_race(picks, first, &mut events);
                self.run(None, &mut events);
            }
            Phase::Racing => {
                let Some(w) = self.waiting.take() else {
                    return events;
                };
                let seat = w.question.seat(&w.base);
                let given = match order_for(seat) {
                    Some(s) => match self.answer_of(&w.question, &s.order) {
                        Some(a) => Given {
                            answer: a,
                            how: if s.missed { How::TimedOut } else { How::Live },
                        },
                        None => self.fallback(&w, How::TimedOut),
                    },
                    None => self.fallback(&w, How::TimedOut),
                };
                self.run(Some((*w, given)), &mut events);
            }
            Phase::Over => {}
        }
        events
    }

    fn narrate(&self, event: &Event) -> Narration {
        narrate(self, event)
    }

    fn public_view(&self) -> PublicView {
        let (draft_line, draft_round) = match &self.phase {
            Phase::Draft(d) => (d.line.clone(), d.round + 1),
            _ => (Vec::new(), 0),
        };
        let racing = self.phase == Phase::Racing;
        let race = self.race.as_ref().filter(|_| racing);
        let race_no = match &self.phase {
            Phase::Draft(_) => 0,
            Phase::Pick { race, .. } => *race,
            Phase::Racing => race.map(|r| r.number).unwrap_or(0),
            Phase::Over => RACES,
        };
        let track = race.map(|r| r.track);
        PublicView {
            phase: match &self.phase {
                Phase::Draft(_) => "draft",
                Phase::Pick { .. } => "pick",
                Phase::Racing => "race",
                Phase::Over => "over",
            }
            .into(),
            race: race_no,
            schedule: self.options.schedule(),
            track,
            specials: track.map(|t| t.specials().to_vec()).unwrap_or_default(),
            players: self.player_views(),
            draft_line,
            draft_round,
            racers: self.racer_views(),
            placings: race
                .map(|r| {
                    r.placings
                        .iter()
                        .filter_map(|&i| r.racers.get(i).map(|x| x.kind))
                        .collect()
                })
                .unwrap_or_default(),
            eliminated: race
                .map(|r| {
                    r.eliminated
                        .iter()
                        .filter_map(|&i| r.racers.get(i).map(|x| x.kind))
                        .collect()
                })
                .unwrap_or_default(),
            mover: race.and_then(|r| r.mover).map(|m| self.racer_name_kind(m)),
            waiting: self.waiting_text(),
            season: self.season.clone(),
            deck_size: race.map(|r| r.deck.len()).unwrap_or(self.deck.len()),
            winners: self.winners.clone(),
            finished: self.phase == Phase::Over,
        }
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        let p = self.players.get(seat.index());
        let question = if self.pending_seats().contains(&seat) {
            let pr = self.prompt(seat);
            Some(QuestionView {
                text: pr.text,
                choices: pr.choices.into_iter().map(|c| c.order).collect(),
            })
        } else {
            None
        };
        let racing = if self.phase == Phase::Racing {
            self.race
                .as_ref()
                .map(|r| {
                    r.racers
                        .iter()
                        .filter(|x| x.seat == seat)
                        .map(|x| x.kind)
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut egg_cards: Vec<Kind> = self
            .set_aside
            .iter()
            .chain(self.race.iter().flat_map(|r| r.set_aside.iter()))
            .filter(|(s, _)| *s == seat)
            .map(|(_, k)| *k)
            .collect();
        egg_cards.dedup();
        if let (Some(Question::Egg { drawn, .. }), Some(s)) = (self.question(), self.waiting_seat())
            && s == seat
        {
            egg_cards.extend(drawn.iter().copied());
        }
        PrivateView {
            seat,
            name: self.name(seat).to_string(),
            hand: p.map(|p| p.hand.clone()).unwrap_or_default(),
            unused: p.map(|p| p.unused()).unwrap_or_default(),
            racing,
            policies: p
                .map(|p| p.policies.iter().map(Policy::text).collect())
                .unwrap_or_default(),
            question,
            egg_cards,
            score: p.map(|p| p.score()).unwrap_or(0),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores: Vec<(Seat, i64)> = self
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Seat::from_index(i).map(|s| (s, p.score())))
            .collect();
        Some(Outcome::from_scores(&scores))
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        let hidden_from = |s: Seat| viewer != Some(s);
        // The pool of cards the viewer cannot place: the deck, and others' set-aside cards.
        let mut pool: Vec<Kind> = g.deck.clone();
        for (s, k) in &g.set_aside {
            if hidden_from(*s) {
                pool.push(*k);
            }
        }
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for c in g.deck.iter_mut() {
            if let Some(k) = it.next() {
                *c = k;
            }
        }
        for (s, k) in g.set_aside.iter_mut() {
            if hidden_from(*s)
                && let Some(n) = it.next()
            {
                *k = n;
            }
        }
        if let Some(race) = g.race.as_mut() {
            let mut pool: Vec<Kind> = race.deck.clone();
            for (s, k) in &race.set_aside {
                if hidden_from(*s) {
                    pool.push(*k);
                }
            }
            rng.shuffle(&mut pool);
            let mut it = pool.into_iter();
            for c in race.deck.iter_mut() {
                if let Some(k) = it.next() {
                    *c = k;
                }
            }
            for (s, k) in race.set_aside.iter_mut() {
                if hidden_from(*s)
                    && let Some(n) = it.next()
                {
                    *k = n;
                }
            }
        }
        g
    }

    fn set_preference(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
        let Some(p) = self.players.get_mut(seat.index()) else {
            return Err(PreferenceError::Invalid(
                "you have no seat in this game".into(),
            ));
        };
        let mut said = Vec::new();
        for part in text
            .split(&[';', '\n'][..])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let lower = part.to_ascii_lowercase();
            if lower == "clear" || lower == "clear all" || lower == "policies clear" {
                p.policies.clear();
                said.push("all your policies are cleared: you will be asked".to_string());
                continue;
            }
            let (topic, policy) = decide::parse_policy(part).map_err(PreferenceError::Invalid)?;
            p.policies.retain(|x| x.topic() != topic);
            match policy {
                Some(pol) => {
                    said.push(pol.explain());
                    p.policies.push(pol);
                }
                None => said.push(format!("you will be asked about {}", topic.word())),
            }
        }
        if said.is_empty() {
            return Err(PreferenceError::Invalid(
                "write a policy, like `magician reroll below 3`".into(),
            ));
        }
        let mut out = String::new();
        for s in said {
            let _ = writeln!(out, "Policy set: {s}.");
        }
        Ok(out.trim_end().to_string())
    }

    fn preference_help() -> Option<&'static str> {
        Some(
            "Standing policies answer a power's question for you (you are not asked): \
             `magician reroll below 3`, `dicemonger reroll below 3`, `rocket at least 4` / \
             `rocket never`, `alchemist always`, `genius guess 4`, `legs always`, \
             `flipflop leader` / `flipflop gain 4` / `flipflop <racer>`, `hypnotist leader`, \
             `thirdwheel always`, `cheerleader when last`, `suckerfish forward`, \
             `duelist always`, `copycat prefer legs, magician`, `egg prefer legs`, \
             `twin prefer legs` / `twin never`, `mastermind predict me`, `order back`. \
             `<topic> ask` removes one; `clear` removes all.",
        )
    }

    fn rules_summary() -> &'static str {
        "Magical Athlete: draft a team of racers, then run four races (Mild, Wild, Mild, Wild). \
         Each race, everyone picks a racer in secret; on your turn roll a die and move (your \
         main move), and racers' powers go off all over the track. The first two across the \
         finish (space 30) take gold (3/4/4/5) and silver (1/2/2/3); stars and some powers give \
         bronze points. Most points after four races wins. Reply `roll` on your turn, or a \
         power's choice; set standing policies by DM so you need not be asked."
    }
}

impl MagicalAthlete {
    fn racer_name_kind(&self, r: Rid) -> Kind {
        self.race
            .as_ref()
            .and_then(|race| race.racers.get(r))
            .map(|x| x.kind)
            .unwrap_or(Kind::Legs)
    }

    /// The answer a missed question gets: the owner's policy, else the default.
    fn fallback(&self, w: &Waiting, how: How) -> Given {
        let seat = w.question.seat(&w.base);
        let policy = w
            .question
            .topic()
            .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)));
        let race = self.race.as_ref().unwrap_or(&w.base);
        Given {
            answer: decide::policy_answer(race, &w.question, policy),
            how,
        }
    }
}

/// Tells one event in words.
pub fn narrate(game: &MagicalAthlete, event: &Event) -> Narration {
    let name = |s: &Seat| game.name(*s).to_string();
    match event {
        Event::RollOff {
            purpose,
            rolls,
            winner,
        } => {
            let parts: Vec<String> = rolls
                .iter()
                .map(|(s, r)| format!("{} {r}", name(s)))
                .collect();
            Narration::public(format!(
                "Roll-off for {purpose}: {}. {} wins.",
                parts.join(", "),
                name(winner)
            ))
        }
        Event::DraftLine { round, cards } => {
            let names: Vec<&str> = cards.iter().map(|k| k.name()).collect();
            Narration::public(format!(
                "Draft round {round}: the line is {}.",
                names.join(", ")
            ))
        }
        Event::Drafted {
            seat,
            racer,
            missed,
        } => Narration::public(format!(
            "{} drafts {}{}.",
            name(seat),
            racer.name(),
            if *missed {
                " (missed: the first in line)"
            } else {
                ""
            }
        )),
        Event::Revealed {
            race,
            track,
            picks,
            first,
        } => {
            let parts: Vec<String> = picks
                .iter()
                .map(|(s, ks)| {
                    format!(
                        "{} races {}",
                        name(s),
                        ks.iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    )
                })
                .collect();
            Narration::public(format!(
                "Race {race} on {}: {}. {} goes first.",
                track.name(),
                parts.join("; "),
                name(first)
            ))
        }
        Event::Race { event } => narrate_race(game, event),
        Event::Awarded { race, gold, silver } => {
            let mut s = format!("Race {race} is over.");
            if let Some((seat, k, v)) = gold {
                let _ = write!(s, " Gold ({v}) to {} ({}).", name(seat), k.name());
            }
            match silver {
                Some((seat, k, v)) => {
                    let _ = write!(s, " Silver ({v}) to {} ({}).", name(seat), k.name());
                }
                None => s.push_str(" Nobody crossed second: the silver chip is discarded."),
            }
            Narration::public(s)
        }
        Event::GameOver { scores } => {
            let mut sorted = scores.clone();
            sorted.sort_by_key(|(s, v)| (std::cmp::Reverse(*v), *s));
            let parts: Vec<String> = sorted
                .iter()
                .map(|(s, v)| format!("{} {v}", name(s)))
                .collect();
            let top = sorted.first().map(|(_, v)| *v).unwrap_or(0);
            let best: Vec<String> = sorted
                .iter()
                .filter(|(_, v)| *v == top)
                .map(|(s, _)| name(s))
                .collect();
            let verdict = if best.len() > 1 {
                format!("{} tie for the win!", best.join(" and "))
            } else {
                format!("{} wins!", best.join(""))
            };
            Narration::public(format!("Final scores: {}. {verdict}", parts.join(", ")))
        }
    }
}

fn narrate_race(game: &MagicalAthlete, e: &RaceEvent) -> Narration {
    let who = |w: &Who| game.who_text(w);
    let why_text = |w: &race::Why| match w {
        race::Why::MainMove => "main move".to_string(),
        race::Why::Arrow => "arrow".to_string(),
        race::Why::Power { racer, power } => {
            if racer.kind == *power {
                format!("{}'s power", racer.kind.name())
            } else {
                format!("{}'s power ({})", racer.kind.name(), power.name())
            }
        }
        race::Why::Baby { .. } => "Huge Baby".to_string(),
    };
    let text = match e {
        RaceEvent::TurnStarted {
            racer,
            space,
            extra,
        } => match extra {
            Some(Kind::Genius) => {
                format!("{}'s extra turn (Genius), from space {space}.", who(racer))
            }
            Some(Kind::Skipper) => format!(
                "{} goes next (The Skipper), from space {space}.",
                who(racer)
            ),
            _ => format!("{}'s turn, from space {space}.", who(racer)),
        },
        RaceEvent::Recovered { racer } => {
            format!(
                "{} gets up from a trip and skips the main move.",
                who(racer)
            )
        }
        RaceEvent::Rolled {
            racer,
            value,
            reroll,
        } => match reroll {
            Some(p) => format!("{} rerolls ({}): {value}.", who(racer), p.name()),
            None => format!("{} rolls {value}.", who(racer)),
        },
        RaceEvent::Decided {
            racer,
            question,
            answer,
            how,
        } => {
            let how = match how {
                How::Live => "",
                How::Policy => " (standing policy)",
                How::Default => " (default)",
                How::TimedOut => " (no answer in time: default)",
            };
            if matches!(answer.as_str(), "roll") && how == " (default)" {
                return Narration::nobody();
            }
            format!("{}: {question}? {answer}{how}.", who(racer))
        }
        RaceEvent::Power {
            racer,
            power,
            detail,
        } => {
            if racer.kind == *power {
                format!("{} {detail}.", who(racer))
            } else {
                format!("{} ({}) {detail}.", who(racer), power.name())
            }
        }
        RaceEvent::Moved {
            racer,
            from,
            to,
            why,
        } => format!("{} moves {from} → {to} ({}).", who(racer), why_text(why)),
        RaceEvent::Warped {
            racer,
            from,
            to,
            why,
        } => match why {
            race::Why::Baby { .. } => {
                format!("{} is put on space {to}, behind Huge Baby.", who(racer))
            }
            _ => format!("{} warps {from} → {to} ({}).", who(racer), why_text(why)),
        },
        RaceEvent::Tripped { racer, why } => match why {
            race::TripWhy::Rock => format!("{} trips on a rock.", who(racer)),
            race::TripWhy::Power { racer: by, power } => {
                if by.kind == *power {
                    format!("{} trips ({}).", who(racer), power.name())
                } else {
                    format!(
                        "{} trips ({} as {}).",
                        who(racer),
                        by.kind.name(),
                        power.name()
                    )
                }
            }
        },
        RaceEvent::Chips {
            racer,
            points,
            reason,
        } => {
            if *points >= 0 {
                format!(
                    "{} takes {points} bronze point(s): {reason}.",
                    game.name(racer.seat)
                )
            } else {
                format!(
                    "{} loses {} bronze point(s): {reason}.",
                    game.name(racer.seat),
                    -points
                )
            }
        }
        RaceEvent::DuelRolls {
            duelist,
            duelist_roll,
            other,
            other_roll,
        } => format!(
            "Duel! {} rolls {duelist_roll}, {} rolls {other_roll}.",
            who(duelist),
            who(other)
        ),
        RaceEvent::Finished { racer, place } => {
            format!(
                "{} crosses the finish line: {}!",
                who(racer),
                crate::render::ordinal(u32::from(*place))
            )
        }
        RaceEvent::Eliminated { racer, by } => {
            format!("{} is eliminated by {}.", who(racer), who(by))
        }
        RaceEvent::EggDrew { racer, cards } => {
            let names: Vec<&str> = cards.iter().map(|k| k.name()).collect();
            return Narration::to_seat(
                racer.seat,
                format!("Your Egg drew {}.", names.join(" and ")),
            );
        }
        RaceEvent::LoopEnded { task } => format!("That's a loop: it ends here ({task})."),
        RaceEvent::RaceOver { placings, capped } => {
            let names: Vec<String> = placings.iter().map(who).collect();
            format!(
                "The race ends{}: {}.",
                if *capped {
                    " (turn limit: places by position)"
                } else {
                    ""
                },
                if names.is_empty() {
                    "nobody finished".to_string()
                } else {
                    names.join(", then ")
                }
            )
        }
    };
    Narration::public(text)
}

#[cfg(test)]
mod tests;
