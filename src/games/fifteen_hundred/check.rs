//! 1500m's invariants ([`Game::check`](crate::engine::Game::check)): what every state of a
//! race holds, so a stored state that decodes but lies is refused before it is played on.

use crate::engine::StateError;

use super::rules::{BASE_PACE, MOVEMENT_CARDS};
use super::state::FifteenHundred;

/// Cards drawn from `cards` without repeats: each a movement card, none twice.
fn movement_cards(cards: &[u8]) -> bool {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len() == cards.len() && cards.iter().all(|c| MOVEMENT_CARDS.contains(c))
}

impl FifteenHundred {
    pub(super) fn check_state(&self) -> Result<(), StateError> {
        self.options.check()?;
        let (min, max) = self.options.seat_limits();
        StateError::range("the number of players", self.seats, min, max)?;
        let n = self.runners.len();
        let robots = usize::from(self.options.robots);
        StateError::ensure(
            self.seats.checked_add(robots) == Some(n),
            format_args!(
                "{} players and {robots} robots, but {n} runners",
                self.seats
            ),
        )?;
        let strength = self.options.start_strength();
        let top = self.options.top_pace();
        for (i, r) in self.runners.iter().enumerate() {
            let who = format!("runner {} ({})", i + 1, r.name);
            StateError::ensure(
                r.robot == (i >= self.seats),
                format_args!("{who} is a robot where a player runs, or the other way"),
            )?;
            StateError::range(format_args!("{who}'s pace"), r.pace, BASE_PACE, top)?;
            StateError::range(
                format_args!("{who}'s mental strength"),
                r.strength,
                0,
                strength,
            )?;
            StateError::cards(
                movement_cards(&r.hand) && (!r.robot || r.hand.is_empty()),
                format_args!("{who} holds {:?}", r.hand),
            )?;
            if r.place.is_none() {
                StateError::ensure(
                    self.course.is_valid(r.spot),
                    format_args!("{who} stands at {:?}, which is not on the track", r.spot),
                )?;
                let taken = self.occupied(i);
                StateError::ensure(
                    !taken.iter().any(|&s| self.course.same_space(s, r.spot)),
                    format_args!("{who} shares its space with another runner"),
                )?;
            }
        }
        StateError::cards(
            movement_cards(&self.robot_deck),
            format_args!("the robots' deck holds {:?}", self.robot_deck),
        )?;
        StateError::range("the laps left", self.laps_left, 0, self.course.start().laps)?;
        self.check_places(n)?;
        self.check_round(n)
    }

    /// The finish order lists each finished runner once, by place.
    fn check_places(&self, n: usize) -> Result<(), StateError> {
        for (k, &i) in self.finish_order.iter().enumerate() {
            let place = self.runners.get(i).and_then(|r| r.place);
            StateError::ensure(
                place.is_some_and(|p| usize::from(p) == k + 1),
                format_args!("runner {} is listed as finishing {}", i + 1, k + 1),
            )?;
        }
        let finished = self.runners.iter().filter(|r| r.place.is_some()).count();
        StateError::ensure(
            finished == self.finish_order.len(),
            format_args!(
                "{finished} of {n} runners have a place, but {} are in the finish order",
                self.finish_order.len()
            ),
        )
    }

    /// The round in progress names only runners of the race, and no more rounds are on
    /// record than were played.
    fn check_round(&self, n: usize) -> Result<(), StateError> {
        let t = &self.turn;
        let by_runner = [t.bids.len(), t.cards.len(), t.actions.len(), t.moved.len()];
        StateError::ensure(
            by_runner.iter().all(|&len| len == 0 || len == n),
            format_args!("the round in progress lists {by_runner:?} runners, not {n}"),
        )?;
        let named = t.choosers.iter().chain(&t.order).chain(&t.left_out);
        for &i in named {
            StateError::range("a runner the round names", i, 0, n.saturating_sub(1))?;
        }
        StateError::range(
            "the rounds on record",
            self.history.len(),
            0,
            usize::from(self.round),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::conformance::play_defaults;
    use crate::engine::{Game, SeatSetup, Seed};
    use crate::games::fifteen_hundred::Options;

    fn fresh() -> FifteenHundred {
        let options = Options {
            robots: 1,
            ..Options::default()
        };
        let seats: Vec<SeatSetup> = ["Ann", "Bob", "Cy"].map(SeatSetup::named).into();
        FifteenHundred::setup(&options, &seats, Seed::from_u64(8)).unwrap()
    }

    /// Three rounds run: runners spread out, cards played, strength spent.
    fn mid() -> FifteenHundred {
        let mut g = fresh();
        play_defaults(&mut g, 3);
        assert!(g.round > 1 && g.history.len() > 1);
        g
    }

    fn lie(change: impl FnOnce(&mut FifteenHundred)) -> StateError {
        let mut g = mid();
        change(&mut g);
        g.check().unwrap_err()
    }

    #[test]
    fn a_fresh_and_a_mid_race_pass() {
        assert_eq!(fresh().check(), Ok(()));
        assert_eq!(mid().check(), Ok(()));
    }

    #[test]
    fn each_broken_invariant_fails() {
        let e = lie(|g| {
            g.runners.pop();
        });
        assert!(e.to_string().contains("but 3 runners"), "{e}");
        let e = lie(|g| g.seats = 9);
        assert!(e.to_string().contains("number of players is 9"), "{e}");
        let e = lie(|g| g.runners[0].robot = true);
        assert!(e.to_string().contains("is a robot"), "{e}");
        let e = lie(|g| g.runners[0].pace = 99);
        assert!(e.to_string().contains("pace is 99"), "{e}");
        let e = lie(|g| g.runners[1].strength = 5_000);
        assert!(e.to_string().contains("mental strength is 5000"), "{e}");
        // A card held twice, a card no runner has, a robot holding cards.
        for change in [
            |g: &mut FifteenHundred| g.runners[0].hand = vec![9, 9],
            |g: &mut FifteenHundred| g.runners[2].hand.push(12),
            |g: &mut FifteenHundred| g.runners[3].hand = vec![8],
            |g: &mut FifteenHundred| g.robot_deck = vec![10, 10],
        ] {
            assert!(matches!(lie(change), StateError::Cards(_)));
        }
        let e = lie(|g| g.runners[0].spot.lane = 99);
        assert!(e.to_string().contains("not on the track"), "{e}");
        let e = lie(|g| g.runners[1].spot = g.runners[0].spot);
        assert!(e.to_string().contains("shares its space"), "{e}");
        let e = lie(|g| g.laps_left = 50);
        assert!(e.to_string().contains("laps left is 50"), "{e}");
        let e = lie(|g| g.finish_order.push(2));
        assert!(e.to_string().contains("runner 3 is listed"), "{e}");
        let e = lie(|g| g.runners[1].place = Some(1));
        assert!(e.to_string().contains("1 of 4 runners have a place"), "{e}");
        let e = lie(|g| g.turn.choosers.push(40));
        assert!(
            e.to_string().contains("a runner the round names is 40"),
            "{e}"
        );
        let e = lie(|g| g.round = 1);
        assert!(e.to_string().contains("rounds on record"), "{e}");
        assert!(matches!(
            lie(|g| g.options.pace_costs.clear()),
            StateError::Options(_)
        ));
    }
}
