//! A resolved turn's channel post, or a whole round's in the sequential games: the
//! narration (a round's steps one compact line each), missed orders, the orders revealed
//! with their receipts, the track with one picture, and what comes next.

use super::message::{Picture, Post, Style};
use super::text::track_text;
use crate::games::AnyPublicView;
use crate::referee::announce::{MissedOrder, NextStep, RevealedOrder, RoundStep};
use crate::referee::work::short_receipt;

/// A resolved turn, borrowed from [`Announcement::TurnResolved`].
pub(super) struct Turn<'a> {
    pub labels: &'a [String],
    pub narration: &'a [String],
    /// A round's steps, one compact line each; empty for a simultaneous game's turn.
    pub steps: &'a [RoundStep],
    pub missed: &'a [MissedOrder],
    pub revealed: &'a [RevealedOrder],
    pub view: &'a AnyPublicView,
    pub late: bool,
    pub next: Option<&'a NextStep>,
}

/// A turn's channel post: the narration, missed orders, receipts, the track and what is
/// next.
pub(super) fn turn_resolved(head: &str, turn: Turn<'_>, style: &Style) -> Post {
    // A step's label may name a player ("Round 1: Alice to play").
    let labels: Vec<String> = turn.labels.iter().map(|l| style.user(l)).collect();
    let title = match (labels.first(), labels.last()) {
        (Some(first), Some(last)) if labels.len() > 1 && first != last => {
            format!("{head}: {first} to {last}")
        }
        (Some(first), _) => format!("{head}: {first}"),
        _ => head.to_string(),
    };
    let mut body = if turn.steps.is_empty() {
        style.user(&turn.narration.join("\n"))
    } else {
        // A Magical Athlete step is a chain of powers: one event a line reads, a
        // paragraph does not.
        let per_event = matches!(turn.view, AnyPublicView::MagicalAthlete(_));
        round_lines(turn.steps, style, per_event)
    };
    if turn.late {
        body.push_str("\n(Resolved late: the bot was offline when the deadline passed.)");
    }
    let mut p = Post::new(title, body);
    if !turn.missed.is_empty() {
        let lines: Vec<String> = turn
            .missed
            .iter()
            .map(|m| {
                format!(
                    "{}: played {} for them",
                    style.user(&m.name),
                    style.user(&m.played)
                )
            })
            .collect();
        p.fields.push(("Missed orders".into(), lines.join("\n")));
    }
    if !turn.revealed.is_empty() {
        let lines: Vec<String> = turn
            .revealed
            .iter()
            .map(|o| {
                format!(
                    "{} `{}` nonce {} -> {}",
                    style.user(&o.name),
                    style.code(&o.order),
                    o.nonce,
                    short_receipt(&o.receipt)
                )
            })
            .collect();
        p.fields
            .push(("Orders and receipts".into(), lines.join("\n")));
    }
    p.track = Some(track_text(turn.view));
    p.view = Some(turn.view.clone());
    p.picture = Picture::Track;
    p.footer = turn.next.map(|n| match n.deadline {
        Some(d) => format!(
            "Next: {}; orders due {}",
            style.user(&n.label),
            style.when(d)
        ),
        None => format!("Next: {}", style.user(&n.label)),
    });
    p
}

/// A round's steps, one line each (or one line an event, `per_event`, under the step's
/// bullet): what the game told of it, or its label when it told nothing.
fn round_lines(steps: &[RoundStep], style: &Style, per_event: bool) -> String {
    let sep = if per_event { "\n  " } else { " " };
    steps
        .iter()
        .map(|s| {
            let said = if s.lines.is_empty() {
                s.label.clone()
            } else {
                s.lines.join(sep)
            };
            format!("• {}", style.user(&said))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_one_line_per_step() {
        let steps = vec![
            RoundStep {
                step: 4,
                label: "Round 1: Ann to play".into(),
                lines: vec!["Ann plays 100 km.".into(), "Ann reaches 300 km.".into()],
            },
            RoundStep {
                step: 5,
                label: "Round 1: Bo to play".into(),
                lines: vec![],
            },
        ];
        let plain = Style::plain(crate::referee::when::Zone::UTC);
        assert_eq!(
            round_lines(&steps, &plain, false),
            "• Ann plays 100 km. Ann reaches 300 km.\n• Round 1: Bo to play"
        );
        // Magical Athlete: one event a line, under the step's bullet.
        assert_eq!(
            round_lines(&steps, &plain, true),
            "• Ann plays 100 km.\n  Ann reaches 300 km.\n• Round 1: Bo to play"
        );
    }
}
