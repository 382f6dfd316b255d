//! The card race's invariants ([`Game::check`](crate::engine::Game::check)): what every
//! state of a game of 1000 miles or 1000 Yards holds, so a stored state that decodes but
//! lies is refused before it is played on.

use crate::engine::{Seat, StateError};

use super::cards::Card;
use super::state::{CardRace, HAND, Phase};

impl CardRace {
    pub(super) fn check_state(&self) -> Result<(), StateError> {
        self.options.check()?;
        let n = self.players();
        let teams = self.options.team_count(n)?;
        for (what, len) in [
            ("seats' teams", self.team_of.len()),
            ("hands", self.hands.len()),
            ("seats' dirty-trick settings", self.prefs.len()),
        ] {
            StateError::ensure(len == n, format_args!("{n} players, but {len} {what}"))?;
        }
        StateError::ensure(
            self.teams.len() == teams,
            format_args!("{} teams, where {n} players make {teams}", self.teams.len()),
        )?;
        self.check_teams(n)?;
        self.check_cards(n)?;
        self.check_rounds()?;
        self.check_phase(n)
    }

    /// Each seat sits in the team its `team_of` names, and each tableau is a possible one.
    fn check_teams(&self, n: usize) -> Result<(), StateError> {
        for (t, team) in self.teams.iter().enumerate() {
            let members: Vec<Seat> = Seat::all(n)
                .filter(|s| usize::from(self.team_index(*s)) == t)
                .collect();
            StateError::ensure(
                team.members == members,
                format_args!("team {} holds {:?}, not {members:?}", t + 1, team.members),
            )?;
            // Counterflow takes distance back, so there a team may be short of its cards.
            let miles = team
                .miles
                .iter()
                .filter_map(|c| c.distance())
                .fold(0u32, u32::saturating_add);
            let adds_up = if self.options.counterflow {
                team.distance <= miles
            } else {
                team.distance == miles
            };
            StateError::ensure(
                team.miles.iter().all(|c| c.distance().is_some()) && adds_up,
                format_args!(
                    "team {} is at {}, but its distance cards add up to {miles}",
                    t + 1,
                    team.distance
                ),
            )?;
            StateError::range(
                format_args!("team {}'s distance", t + 1),
                team.distance,
                0,
                self.target,
            )?;
            StateError::cards(
                team.battle.problems.iter().all(|c| c.is_attack())
                    && team.safeties.iter().all(|s| s.card.is_safety()),
                format_args!("team {}'s tableau holds a card out of its place", t + 1),
            )?;
        }
        Ok(())
    }

    /// Once dealt, the draw pile, the hands, the junk pile and the tableaux hold the
    /// whole deck, each card once; no hand holds more than a full hand.
    fn check_cards(&self, n: usize) -> Result<(), StateError> {
        for (i, hand) in self.hands.iter().enumerate() {
            StateError::range(format_args!("seat {}'s hand", i + 1), hand.len(), 0, HAND)?;
        }
        if self.round == 0 {
            return StateError::cards(self.card_count() == 0, "cards before the first deal");
        }
        let mut found: Vec<Card> = self.deck.clone();
        found.extend(&self.discard);
        found.extend(self.hands.iter().flatten());
        for t in &self.teams {
            found.extend(&t.miles);
            found.extend(&t.battle.problems);
            found.extend(t.safeties.iter().map(|s| s.card));
            found.extend(&t.pile);
        }
        found.sort();
        let mut deck = self.options.deck(n);
        deck.sort();
        StateError::cards(
            found == deck,
            format_args!(
                "{} cards in play where the deck has {}, or not the deck's cards",
                found.len(),
                deck.len()
            ),
        )
    }

    /// One result per finished round, in order, and each team's total is the sum of its
    /// rounds' scores.
    fn check_rounds(&self) -> Result<(), StateError> {
        let over = *self.phase == Phase::Over;
        let finished = usize::try_from(self.round).unwrap_or(usize::MAX);
        let expected = if over {
            finished
        } else {
            finished.saturating_sub(1)
        };
        StateError::ensure(
            self.history.len() == expected,
            format_args!(
                "round {}, but {} round results",
                self.round,
                self.history.len()
            ),
        )?;
        for (i, r) in self.history.iter().enumerate() {
            StateError::ensure(
                usize::try_from(r.round).is_ok_and(|round| round == i + 1),
                format_args!("round result {} is of round {}", i + 1, r.round),
            )?;
        }
        for (t, team) in self.teams.iter().enumerate() {
            let scored: i64 = self
                .history
                .iter()
                .flat_map(|r| &r.scores)
                .filter(|s| usize::from(s.team) == t)
                .map(|s| s.total)
                .fold(0, i64::saturating_add);
            StateError::ensure(
                scored == team.total,
                format_args!(
                    "team {} has {} points, but its rounds scored {scored}",
                    t + 1,
                    team.total
                ),
            )?;
        }
        Ok(())
    }

    /// Whoever the phase names sits at the table, and a window's team is a team.
    fn check_phase(&self, n: usize) -> Result<(), StateError> {
        let last = n.saturating_sub(1);
        let seats: Vec<Seat> = match self.phase.as_ref() {
            Phase::Turn { seat } | Phase::Extension { seat } => vec![*seat],
            Phase::Window(w) => {
                StateError::range(
                    "the attacked team",
                    usize::from(w.team),
                    0,
                    self.teams.len().saturating_sub(1),
                )?;
                let mut seats = vec![w.attacker, w.resume];
                seats.extend(&w.victims);
                seats.extend(w.next);
                seats
            }
            Phase::Over => Vec::new(),
        };
        for seat in seats {
            StateError::range("a seat the phase names", seat.index(), 0, last)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::conformance::play_defaults;
    use crate::engine::{Game, SeatSetup, Seed};
    use crate::games::card_race::{Options, Ruleset};

    fn fresh(ruleset: Ruleset) -> CardRace {
        let options = Options {
            ruleset,
            ..Options::default()
        };
        let seats: Vec<SeatSetup> = ["Ann", "Bob", "Cy", "Di"].map(SeatSetup::named).into();
        CardRace::setup(&options, &seats, Seed::from_u64(5)).unwrap()
    }

    /// Forty plays into the first round: distance on the tableaux, cards junked.
    fn mid() -> CardRace {
        let mut g = fresh(Ruleset::default());
        play_defaults(&mut g, 40);
        assert!(!g.pending().is_empty() && g.teams.iter().any(|t| t.distance > 0));
        g
    }

    fn lie(change: impl FnOnce(&mut CardRace)) -> StateError {
        let mut g = mid();
        change(&mut g);
        Game::check(&g).unwrap_err()
    }

    #[test]
    fn a_fresh_and_a_mid_game_pass() {
        for ruleset in [Ruleset::default(), Ruleset::Yards] {
            assert_eq!(Game::check(&fresh(ruleset)), Ok(()));
        }
        assert_eq!(Game::check(&mid()), Ok(()));
    }

    #[test]
    fn each_broken_invariant_fails() {
        let e = lie(|g| {
            g.hands.pop();
        });
        assert!(e.to_string().contains("4 players, but 3 hands"), "{e}");
        let e = lie(|g| g.team_of[0] = 1);
        assert!(e.to_string().contains("team 1 holds"), "{e}");
        let e = lie(|g| g.teams[1].distance += 25);
        assert!(e.to_string().contains("distance cards add up"), "{e}");
        let e = lie(|g| g.teams[0].distance = 5_000);
        assert!(e.to_string().contains("distance"), "{e}");
        // A card that is not in this game's deck, one lost, a hand of more than seven.
        assert!(matches!(
            lie(|g| g.hands[0][0] = Card::Counterflow),
            StateError::Cards(_)
        ));
        assert!(matches!(
            lie(|g| {
                g.deck.pop();
            }),
            StateError::Cards(_)
        ));
        let e = lie(|g| {
            let moved: Vec<Card> = g.deck.drain(..4).collect();
            g.hands[2].extend(moved);
        });
        assert!(e.to_string().contains("seat 3's hand"), "{e}");
        let e = lie(|g| g.teams[0].total = 1_200);
        assert!(e.to_string().contains("has 1200 points"), "{e}");
        let e = lie(|g| *g.phase = Phase::Turn { seat: Seat(7) });
        assert!(e.to_string().contains("a seat the phase names is 7"), "{e}");
        let e = lie(|g| g.round = 3);
        assert!(
            e.to_string().contains("round 3, but 0 round results"),
            "{e}"
        );
        assert!(matches!(
            lie(|g| {
                g.options.rounds = 0;
                g.options.target_score = 0;
            }),
            StateError::Options(_)
        ));
    }
}
