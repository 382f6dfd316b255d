//! One channel post per round in the sequential games (1000 miles, 1000 Yards, Magical
//! Athlete): each step's lines are gathered into the open round (`Work::gather_round`, in
//! work.rs), stored on the campaign row in the same commit as the step (so a restart
//! mid-round loses none and posts none twice), and the round is posted once, with one
//! picture, when it is over. The status message and the next seat's DM still follow every
//! step. Simultaneous games (Dream Mile, 1500m) post every resolved turn, as before.
//!
//! A round is over when the race ends or stops, or when the next turn waits only on
//! seats that have had their turn in this round already. A short decision window (a
//! dirty trick, a power) is told in the round but does not count as a seat's turn.

use serde::{Deserialize, Serialize};

use super::announce::{MissedOrder, RevealedOrder, RoundStep};
use crate::engine::{Seat, Window};
use crate::games::{AnyGame, GameKind};
use crate::vocab::Phase;

/// Whether `kind` is told one post per round: its seats act in turn
/// ([`GameKind::sequential`]).
pub fn by_round(kind: GameKind) -> bool {
    kind.sequential()
}

/// The steps told so far in the open round (stored as JSON on the campaign row).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundSoFar {
    pub steps: Vec<RoundStep>,
    #[serde(default)]
    pub missed: Vec<MissedOrder>,
    #[serde(default)]
    pub revealed: Vec<RevealedOrder>,
    #[serde(default)]
    pub late: bool,
    /// The seats that had their turn in this round.
    #[serde(default)]
    pub acted: Vec<Seat>,
}

impl RoundSoFar {
    /// Adds the steps of a later decision.
    pub fn extend(&mut self, later: RoundSoFar) {
        self.steps.extend(later.steps);
        self.missed.extend(later.missed);
        self.revealed.extend(later.revealed);
        self.late |= later.late;
        for seat in later.acted {
            if !self.acted.contains(&seat) {
                self.acted.push(seat);
            }
        }
    }

    /// Whether the round is over in `game`, as it stands now.
    pub fn complete(&self, game: &AnyGame, phase: Phase) -> bool {
        if game.outcome().is_some() || phase != Phase::Running {
            return true;
        }
        let next = game.pending();
        next.seats.is_empty()
            || (next.window == Window::Turn && next.seats.iter().all(|s| self.acted.contains(s)))
    }

    pub fn labels(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.label.clone()).collect()
    }

    pub fn narration(&self) -> Vec<String> {
        self.steps.iter().flat_map(|s| s.lines.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_sequential_games_post_by_round() {
        assert!(by_round(GameKind::MilleBornes));
        assert!(by_round(GameKind::ThousandYards));
        assert!(by_round(GameKind::MagicalAthlete));
        assert!(!by_round(GameKind::DreamMile));
        assert!(!by_round(GameKind::FifteenHundred));
    }

    #[test]
    fn a_round_gathers_steps_and_seats_once() {
        let step = |n: u32, who: &str| RoundStep {
            step: n,
            label: format!("{who} to play"),
            lines: vec![format!("{who} plays.")],
        };
        let mut r = RoundSoFar {
            steps: vec![step(0, "Ann")],
            acted: vec![Seat(0)],
            ..RoundSoFar::default()
        };
        r.extend(RoundSoFar {
            steps: vec![step(1, "Bo")],
            acted: vec![Seat(1), Seat(0)],
            late: true,
            ..RoundSoFar::default()
        });
        assert_eq!(r.acted, vec![Seat(0), Seat(1)]);
        assert!(r.late);
        assert_eq!(r.labels(), vec!["Ann to play", "Bo to play"]);
        assert_eq!(r.narration(), vec!["Ann plays.", "Bo plays."]);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(serde_json::from_value::<RoundSoFar>(json).unwrap(), r);
    }
}
