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

/// The most characters of narration one post carries: a round or a step that tells more
/// (a long chain of powers) is told in several posts, in order, and nothing is cut.
pub const POST_NARRATION_CHARS: usize = 2_500;

/// Splits what a round's post tells into parts of at most `budget` characters: the
/// steps (a round's post), or else the narration (a simultaneous game's turn). A step or
/// a line longer than the budget is split between its lines; one line stays whole.
pub fn split_for_posts(
    narration: Vec<String>,
    steps: Vec<RoundStep>,
    budget: usize,
) -> Vec<(Vec<String>, Vec<RoundStep>)> {
    let size = |lines: &[String]| lines.iter().map(|l| l.chars().count() + 1).sum::<usize>();
    if steps.is_empty() {
        let lines: Vec<String> = narration
            .iter()
            .flat_map(|n| n.split('\n').map(str::to_string))
            .collect();
        if size(&lines) <= budget {
            return vec![(narration, steps)];
        }
        return chunk(lines, budget)
            .into_iter()
            .map(|c| (c, Vec::new()))
            .collect();
    }
    let total: usize = steps.iter().map(|s| size(&s.lines)).sum();
    if total <= budget {
        return vec![(narration, steps)];
    }
    let mut parts: Vec<Vec<RoundStep>> = vec![Vec::new()];
    let mut used = 0;
    for s in steps {
        for piece in chunk(s.lines.clone(), budget) {
            let n = size(&piece);
            if used + n > budget && parts.last().is_some_and(|p| !p.is_empty()) {
                parts.push(Vec::new());
                used = 0;
            }
            used += n;
            if let Some(last) = parts.last_mut() {
                last.push(RoundStep {
                    step: s.step,
                    label: s.label.clone(),
                    lines: piece,
                });
            }
        }
    }
    parts
        .into_iter()
        .map(|p| (p.iter().flat_map(|s| s.lines.clone()).collect(), p))
        .collect()
}

/// `lines` in runs of at most `budget` characters (a longer line alone).
fn chunk(lines: Vec<String>, budget: usize) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    let mut used = 0;
    for l in lines {
        let n = l.chars().count() + 1;
        if used + n > budget && out.last().is_some_and(|c| !c.is_empty()) {
            out.push(Vec::new());
            used = 0;
        }
        used += n;
        if let Some(last) = out.last_mut() {
            last.push(l);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_round_is_split_between_lines_and_nothing_is_lost() {
        let step = |n: u32, lines: usize| RoundStep {
            step: n,
            label: format!("Round 1: P{n} to play"),
            lines: (0..lines)
                .map(|i| format!("line {n}.{i} {}", "x".repeat(40)))
                .collect(),
        };
        let steps = vec![step(1, 30), step(2, 80), step(3, 5)];
        let all: Vec<String> = steps.iter().flat_map(|s| s.lines.clone()).collect();
        let parts = split_for_posts(all.clone(), steps, 1_000);
        assert!(parts.len() > 4, "{}", parts.len());
        for (narration, steps) in &parts {
            let chars: usize = narration.iter().map(|l| l.chars().count() + 1).sum();
            assert!(chars <= 1_000, "{chars}");
            assert_eq!(
                narration,
                &steps
                    .iter()
                    .flat_map(|s| s.lines.clone())
                    .collect::<Vec<_>>()
            );
        }
        let told: Vec<String> = parts.into_iter().flat_map(|(n, _)| n).collect();
        assert_eq!(told, all, "every line, once, in order");
        // Short enough: one part, as it was.
        let one = split_for_posts(vec!["a".into()], vec![step(1, 2)], 1_000);
        assert_eq!(one.len(), 1);
        // A simultaneous game's narration splits by its lines too.
        let long = vec![
            (0..100)
                .map(|i| format!("{i} {}", "y".repeat(30)))
                .collect::<Vec<_>>()
                .join("\n"),
        ];
        let parts = split_for_posts(long.clone(), Vec::new(), 1_000);
        assert!(parts.len() > 2);
        let joined: Vec<String> = parts.into_iter().flat_map(|(n, _)| n).collect();
        assert_eq!(joined.join("\n"), long[0]);
    }

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
