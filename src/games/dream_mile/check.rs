//! Dream Mile's invariants ([`Game::check`]): what every state of a race holds, so a
//! stored state that decodes but lies is refused before it is played on.

use crate::engine::{Game, Seat, StateError};

use super::{DreamMile, MAX_RUNNERS};

impl DreamMile {
    pub(super) fn check_state(&self) -> Result<(), StateError> {
        DreamMile::check_options(&self.options)?;
        let n = self.runners.len();
        StateError::range("the number of runners", n, 2, MAX_RUNNERS)?;
        let o = &self.options;
        self.check_field(n)?;
        StateError::range("the turns played", self.turns_done, 0, o.total_turns())?;
        StateError::ensure(
            self.history.len() == usize::from(self.turns_done),
            format_args!(
                "{} turns played, but {} turn records",
                self.turns_done,
                self.history.len()
            ),
        )?;
        for (i, t) in self.history.iter().enumerate() {
            StateError::ensure(
                usize::from(t.turn) == i + 1 && t.ranks.len() == n && t.remaining.len() == n,
                format_args!("turn record {} does not fit the race", i + 1),
            )?;
        }
        for (i, r) in self.runners.iter().enumerate() {
            let who = format!("runner {} ({})", i + 1, r.name);
            StateError::range(
                format_args!("{who}'s maximum speed"),
                r.max_speed,
                o.base_max_speed,
                o.top_max_speed,
            )?;
            let start = o.points_for(r.max_speed);
            StateError::range(format_args!("{who}'s points left"), r.remaining, 0, start)?;
            if let Some(played) = r.last_played {
                StateError::range(format_args!("{who}'s last speed"), played, 0, r.max_speed)?;
            }
            // The points a runner spent are the speeds the records say it played.
            let spent: Option<u32> = self
                .history
                .iter()
                .map(|t| t.played.get(i).map(|&v| u32::from(v)))
                .sum();
            if let Some(spent) = spent {
                StateError::ensure(
                    spent.checked_add(r.remaining) == Some(start),
                    format_args!(
                        "{who} started with {start} points, played {spent} and has {} left",
                        r.remaining
                    ),
                )?;
            }
        }
        Ok(())
    }

    /// The field holds every runner exactly once, in groups that are not empty.
    fn check_field(&self, n: usize) -> Result<(), StateError> {
        StateError::ensure(
            self.field.iter().all(|g| !g.is_empty()),
            "the field has an empty position",
        )?;
        let mut seen: Vec<Seat> = self.field.iter().flatten().copied().collect();
        seen.sort_unstable();
        StateError::ensure(
            seen == Seat::all(n).collect::<Vec<_>>(),
            format_args!("the field holds {seen:?}, not each of the {n} runners once"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{SeatSetup, Seed, Submitted};
    use crate::games::dream_mile::{Options, Speed};

    fn fresh() -> DreamMile {
        let seats: Vec<SeatSetup> = ["Ann", "Bob", "Cy"].map(SeatSetup::named).into();
        DreamMile::setup(&Options::default(), &seats, Seed::from_u64(3)).unwrap()
    }

    /// Two turns in, the runners split up.
    fn mid() -> DreamMile {
        let mut g = fresh();
        for speeds in [[5, 7, 6], [8, 4, 6]] {
            let orders: Vec<Submitted<Speed>> = Seat::all(3)
                .zip(speeds)
                .map(|(s, v)| Submitted::new(s, Speed(v)))
                .collect();
            g.apply(&orders);
        }
        assert_eq!(g.turns_done, 2);
        g
    }

    fn lie(change: impl FnOnce(&mut DreamMile)) -> StateError {
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
        assert!(matches!(
            lie(|g| g.runners.truncate(1)),
            StateError::OutOfRange { value: 1, .. }
        ));
        let e = lie(|g| g.runners[0].remaining = 400);
        assert!(e.to_string().contains("points left is 400"), "{e}");
        let e = lie(|g| g.runners[1].max_speed = 16);
        assert!(e.to_string().contains("maximum speed is 16"), "{e}");
        let e = lie(|g| g.runners[2].last_played = Some(99));
        assert!(e.to_string().contains("last speed is 99"), "{e}");
        // Points that do not add up to what the records say was played.
        let e = lie(|g| g.runners[0].remaining -= 1);
        assert!(e.to_string().contains("played 13"), "{e}");
        // The field: a runner out of range, a runner twice, one missing, an empty place.
        for change in [
            |g: &mut DreamMile| g.field[0].push(Seat(7)),
            |g: &mut DreamMile| g.field[0].push(Seat(1)),
            |g: &mut DreamMile| g.field.truncate(1),
        ] {
            let e = lie(change);
            assert!(e.to_string().contains("the field holds"), "{e}");
        }
        let e = lie(|g| g.field.push(Vec::new()));
        assert!(e.to_string().contains("empty position"), "{e}");
        let e = lie(|g| g.turns_done = 9);
        assert!(e.to_string().contains("turns played is 9"), "{e}");
        let e = lie(|g| {
            g.history.pop();
        });
        assert!(e.to_string().contains("1 turn records"), "{e}");
        let e = lie(|g| g.history[1].turn = 5);
        assert!(e.to_string().contains("turn record 2"), "{e}");
        assert!(matches!(
            lie(|g| g.options.ordered_turns = 0),
            StateError::Options(_)
        ));
    }
}
