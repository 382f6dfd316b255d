//! Magical Athlete's invariants ([`Game::check`]): what every state of a game holds, so a
//! stored state that decodes but lies is refused before it is played on.

use crate::engine::{Game, StateError};

use super::race::{Race, Status};
use super::racers::Kind;
use super::track::FINISH;
use super::{GOLD, MagicalAthlete, Phase, RACES, SILVER};

/// The most racers a player drafts (two players, or three with two racers each).
const MOST_IN_HAND: usize = 8;

impl MagicalAthlete {
    pub(super) fn check_state(&self) -> Result<(), StateError> {
        MagicalAthlete::check_options(&self.options)?;
        let n = self.players.len();
        let (min, max) = MagicalAthlete::seat_limits(&self.options);
        StateError::range("the number of players", n, min, max)?;
        let races = self.options.races.clamp(1, RACES);
        StateError::range("the races run", self.races_done, 0, races)?;
        StateError::ensure(
            self.season.is_empty() || self.season.len() == usize::from(self.races_done),
            format_args!(
                "{} races run, but {} season records",
                self.races_done,
                self.season.len()
            ),
        )?;
        self.check_players()?;
        self.check_cards()?;
        match &self.phase {
            Phase::Draft(d) => {
                StateError::ensure(d.players == n, "the draft is for another table")?;
                for seat in d.order.iter().chain([&d.start]) {
                    StateError::range("a seat of the draft", seat.index(), 0, n.saturating_sub(1))?;
                }
            }
            Phase::Pick { race, first } => {
                StateError::range("the race to pick for", *race, 1, races)?;
                StateError::range("the first player", first.index(), 0, n.saturating_sub(1))?;
            }
            Phase::Racing => {
                let race = self.race.as_deref().ok_or_else(|| {
                    StateError::Inconsistent("the phase is a race, but there is none".into())
                })?;
                check_race(race, n, races)?;
            }
            Phase::Over => StateError::ensure(
                self.races_done == races,
                format_args!(
                    "the game is over after {} of {races} races",
                    self.races_done
                ),
            )?,
        }
        Ok(())
    }

    /// Medals are the rulebook's, one per race run at most; bronze chips are never below 0.
    fn check_players(&self) -> Result<(), StateError> {
        for (i, p) in self.players.iter().enumerate() {
            let who = format!("player {} ({})", i + 1, p.name);
            let done = usize::from(self.races_done);
            StateError::range(format_args!("{who}'s gold medals"), p.gold.len(), 0, done)?;
            StateError::range(
                format_args!("{who}'s silver medals"),
                p.silver.len(),
                0,
                done,
            )?;
            StateError::ensure(
                p.gold.iter().all(|g| GOLD.contains(g))
                    && p.silver.iter().all(|s| SILVER.contains(s)),
                format_args!("{who} holds a medal of a value no race gives"),
            )?;
            StateError::range(format_args!("{who}'s bronze chips"), p.bronze, 0, i32::MAX)?;
            StateError::range(format_args!("{who}'s hand"), p.hand.len(), 0, MOST_IN_HAND)?;
            StateError::cards(
                p.used.iter().all(|k| p.hand.contains(k)),
                format_args!("{who} has used a racer it never drafted"),
            )?;
        }
        Ok(())
    }

    /// No racer card is in two places: the deck, the draft's line, a hand, set aside.
    fn check_cards(&self) -> Result<(), StateError> {
        // In a race, the race's deck is the current one.
        let (deck, set_aside) = match (&self.phase, self.race.as_deref()) {
            (Phase::Racing, Some(r)) => (&r.deck, &r.set_aside),
            _ => (&self.deck, &self.set_aside),
        };
        let mut cards: Vec<Kind> = deck.clone();
        cards.extend(set_aside.iter().map(|(_, k)| *k));
        cards.extend(self.players.iter().flat_map(|p| p.hand.iter().copied()));
        if let Phase::Draft(d) = &self.phase {
            cards.extend(&d.line);
        }
        let mut unique = cards.clone();
        unique.sort_unstable();
        unique.dedup();
        StateError::cards(
            unique.len() == cards.len(),
            "a racer card is in two places at once",
        )?;
        for (seat, _) in set_aside {
            StateError::range(
                "a seat setting a card aside",
                seat.index(),
                0,
                self.players.len().saturating_sub(1),
            )?;
        }
        Ok(())
    }
}

/// The race in progress: its number, its table, and every racer on the track.
fn check_race(race: &Race, n: usize, races: u8) -> Result<(), StateError> {
    StateError::range("the race's number", race.number, 1, races)?;
    StateError::ensure(
        race.players == n && race.bronze.len() == n,
        format_args!("the race is for {} players, not {n}", race.players),
    )?;
    for (i, r) in race.racers.iter().enumerate() {
        let who = format!("racer {} ({:?})", i + 1, r.kind);
        StateError::range(
            format_args!("{who}'s player"),
            r.seat.index(),
            0,
            n.saturating_sub(1),
        )?;
        match r.status {
            Status::Racing => {
                StateError::range(
                    format_args!("{who}'s space"),
                    r.pos,
                    0,
                    FINISH.saturating_sub(1),
                )?;
            }
            Status::Finished(place) => {
                StateError::range(format_args!("{who}'s place"), place, 1, 2)?;
            }
            Status::Eliminated(_) => {}
        }
    }
    let last = race.racers.len().saturating_sub(1);
    for &r in race.placings.iter().chain(&race.eliminated) {
        StateError::range("a racer placed or eliminated", r, 0, last)?;
    }
    for b in &race.bronze {
        StateError::range("a player's bronze chips in the race", *b, 0, i32::MAX)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::conformance::play_defaults;
    use crate::engine::{Seat, SeatSetup, Seed};
    use crate::games::magical_athlete::Options;

    fn fresh() -> MagicalAthlete {
        let seats: Vec<SeatSetup> = ["Ann", "Bob", "Cy"].map(SeatSetup::named).into();
        MagicalAthlete::setup(&Options::default(), &seats, Seed::from_u64(4)).unwrap()
    }

    /// Drafted, picked, and a few turns into the first race.
    fn mid() -> MagicalAthlete {
        let mut g = fresh();
        for _ in 0..200 {
            if g.phase == Phase::Racing && g.race.as_ref().is_some_and(|r| r.turns_played > 3) {
                return g;
            }
            play_defaults(&mut g, 1);
        }
        panic!("the first race did not get going: {:?}", g.phase);
    }

    fn lie(change: impl FnOnce(&mut MagicalAthlete)) -> StateError {
        let mut g = mid();
        change(&mut g);
        g.check().unwrap_err()
    }

    fn race(g: &mut MagicalAthlete) -> &mut Race {
        g.race.as_deref_mut().unwrap()
    }

    #[test]
    fn a_fresh_and_a_mid_game_pass() {
        assert_eq!(fresh().check(), Ok(()));
        assert_eq!(mid().check(), Ok(()));
    }

    #[test]
    fn each_broken_invariant_fails() {
        let e = lie(|g| g.players.truncate(1));
        assert!(e.to_string().contains("number of players is 1"), "{e}");
        let e = lie(|g| g.races_done = 9);
        assert!(e.to_string().contains("races run is 9"), "{e}");
        let e = lie(|g| g.players[0].gold.push(3));
        assert!(e.to_string().contains("gold medals is 1"), "{e}");
        let e = lie(|g| g.players[1].bronze = -2);
        assert!(e.to_string().contains("bronze chips is -2"), "{e}");
        // A racer used but never drafted; a racer in two hands; one both drafted and undrawn.
        for change in [
            |g: &mut MagicalAthlete| {
                let k = race(g).deck[0];
                g.players[0].used.push(k);
            },
            |g: &mut MagicalAthlete| {
                let k = g.players[0].hand[0];
                g.players[1].hand.push(k);
            },
            |g: &mut MagicalAthlete| {
                let k = g.players[2].hand[0];
                race(g).deck.push(k);
            },
        ] {
            assert!(matches!(lie(change), StateError::Cards(_)));
        }
        let e = lie(|g| {
            let r = race(g);
            r.racers[0].status = Status::Racing;
            r.racers[0].pos = 45;
        });
        assert!(e.to_string().contains("space is 45"), "{e}");
        let e = lie(|g| race(g).racers[1].seat = Seat(7));
        assert!(e.to_string().contains("player is 7"), "{e}");
        let e = lie(|g| race(g).racers[1].status = Status::Finished(5));
        assert!(e.to_string().contains("place is 5"), "{e}");
        let e = lie(|g| race(g).number = 0);
        assert!(e.to_string().contains("race's number is 0"), "{e}");
        let e = lie(|g| race(g).placings.push(12));
        assert!(e.to_string().contains("placed or eliminated is 12"), "{e}");
        let e = lie(|g| g.race = None);
        assert!(e.to_string().contains("there is none"), "{e}");
        let e = lie(|g| g.phase = Phase::Over);
        assert!(e.to_string().contains("over after 0 of 4 races"), "{e}");
        assert!(matches!(
            lie(|g| g.options.track.clear()),
            StateError::Options(_)
        ));
    }
}
