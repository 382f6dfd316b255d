//! Scenario games for replays and tests: racers on set spaces, scripted dice.

use super::decide::How;
use super::race::{Race, Racer};
use super::racers::{self, Kind};
use super::track::Track;
use super::{Event, MagicalAthlete, Options, Phase, Player};
use crate::engine::{GameRng, Seat};

impl MagicalAthlete {
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
                asked: Vec::new(),
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
            stop_after: None,
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

    /// Sets the players' chips from earlier races (gold, silver, bronze), in seat order.
    pub fn set_chips(&mut self, chips: &[(Vec<u8>, Vec<u8>, i32)]) {
        for (p, (gold, silver, bronze)) in self.players.iter_mut().zip(chips) {
            p.gold = gold.clone();
            p.silver = silver.clone();
            p.bronze = *bronze;
        }
        let bronze: Vec<i32> = self.players.iter().map(|p| p.bronze).collect();
        if let Some(r) = self.race.as_mut() {
            r.bronze = bronze;
        }
    }

    /// Stops the race once this many racer turns have been played (the turn in progress
    /// is finished first). Replays only.
    pub fn stop_after(&mut self, turns: u32) {
        self.stop_after = Some(turns);
    }

    /// Answers the waiting question as nobody was asked: the owner's standing policy, else
    /// the documented default (replays whose scripted answers ran out).
    pub fn answer_by_default(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        let Some(w) = self.waiting.take() else {
            return events;
        };
        let seat = w.base.asker(&w.question);
        let has_policy = w
            .question
            .topic()
            .and_then(|t| self.players.get(seat.index()).and_then(|p| p.policy(t)))
            .is_some();
        let how = if has_policy {
            How::Policy
        } else {
            How::Default
        };
        let given = self.fallback(&w, how);
        self.run(Some((*w, given)), &mut events);
        events
    }
}

#[cfg(test)]
impl MagicalAthlete {
    /// Every public view of a game `names` play on default orders, from setup to the end:
    /// what the renderers' tests draw.
    pub(crate) fn played_views(
        options: &Options,
        names: &[&str],
        seed: u64,
    ) -> Vec<super::PublicView> {
        use crate::engine::{Game, SeatSetup, Seed, Submitted};
        let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
        let Ok(mut g) = MagicalAthlete::setup(options, &seats, Seed::from_u64(seed)) else {
            return Vec::new();
        };
        let mut views = vec![g.public_view()];
        for _ in 0..20_000 {
            if g.outcome().is_some() {
                break;
            }
            let orders: Vec<_> = g
                .pending()
                .seats
                .iter()
                .map(|&s| Submitted::new(s, g.default_order(s)))
                .collect();
            g.apply(&orders);
            views.push(g.public_view());
        }
        views
    }
}
