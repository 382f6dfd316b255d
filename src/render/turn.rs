//! A resolved turn's channel post, or a whole round's in the sequential games: the
//! narration (a round's steps one compact line each), missed orders, the orders revealed
//! with their receipts, the track with one picture, and what comes next.

use super::message::{Picture, Post, Style};
use super::text::track_text;
use crate::games::AnyPublicView;
use crate::games::words::possessive;
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
    /// Part `.0` of `.1` of a long round; only the last carries the board and the orders.
    pub part: Option<(u32, u32)>,
}

/// A turn's channel post: the narration, missed orders, receipts, the track and what is
/// next.
pub(super) fn turn_resolved(head: &str, turn: Turn<'_>, style: &Style) -> Post {
    // A step's label may name a player ("Round 1: Alice to play").
    let labels: Vec<String> = turn.labels.iter().map(|l| style.user(l)).collect();
    let mut title = match title_of(&labels) {
        Some(what) => format!("{head}: {what}"),
        None => head.to_string(),
    };
    if let Some((i, n)) = turn.part {
        title.push_str(&format!(" ({i} of {n})"));
    }
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
    if let Some((i, n)) = turn.part
        && i < n
    {
        // The round goes on in the next post, which shows the board and the orders.
        return Post::new(title, body);
    }
    let mut p = Post::new(title, body);
    if !turn.missed.is_empty() {
        let lines: Vec<String> = turn
            .missed
            .iter()
            .map(|m| {
                format!(
                    "{}: {} (played for {})",
                    style.user(&m.name),
                    style.user(&m.played),
                    if crate::games::words::is_you(&m.name) {
                        "you"
                    } else {
                        "them"
                    }
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

/// What a turn's post is about, from its steps' labels. One label is told as it is; a
/// round of several is named by the scope they share ("Round 1: Ann to play" and "Round
/// 1: Bo to play" are "Round 1"), or as a span of scopes, never by running one label onto
/// another ("Ann to play to Bo to play").
fn title_of(labels: &[String]) -> Option<String> {
    let first = labels.first()?;
    if labels.iter().all(|l| l == first) {
        // The post tells a play made: "Ann's turn", not the prompt's "Ann to play".
        return Some(match first.strip_suffix(" to play") {
            Some(head) => match head.rsplit_once(": ") {
                Some((round, name)) => format!("{round}: {} turn", possessive(name)),
                None => format!("{} turn", possessive(head)),
            },
            None => first.clone(),
        });
    }
    // "Round 1" from "Round 1: Ann to play"; `None` for a label with no round.
    let round = |l: &str| {
        l.split_once(": ")
            .and_then(|(s, _)| s.strip_prefix("Round "))
            .map(str::to_string)
    };
    let rounds: Option<Vec<String>> = labels.iter().map(|l| round(l)).collect();
    Some(match rounds.as_deref() {
        Some([a, .., b]) if a != b => format!("Rounds {a} to {b}"),
        Some([a, ..]) => format!("Round {a}"),
        _ => "a round of turns".to_string(),
    })
}

/// A round's steps, one line each (or one line an event, `per_event`, under the step's
/// bullet): what the game told of it, or its label when it told nothing. A step with a
/// line of several lines (a round's end and its scores) is told a line each, so the
/// winner is never run onto the last score.
fn round_lines(steps: &[RoundStep], style: &Style, per_event: bool) -> String {
    steps
        .iter()
        .map(|s| {
            let tall = s.lines.iter().any(|l| l.contains('\n'));
            let sep = if per_event || tall { "\n  " } else { " " };
            let said = if s.lines.is_empty() {
                s.label.clone()
            } else {
                s.lines
                    .iter()
                    .map(|l| l.replace('\n', "\n  "))
                    .collect::<Vec<_>>()
                    .join(sep)
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
        // A round's post is named by its round, never label onto label.
        let l = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(
            title_of(&l(&["Round 1: Ann to play", "Round 1: Bo to play"])).as_deref(),
            Some("Round 1")
        );
        assert_eq!(
            title_of(&l(&["Round 1: Ann to play", "Round 2: Ann to play"])).as_deref(),
            Some("Rounds 1 to 2")
        );
        assert_eq!(
            title_of(&l(&["Ann to play", "Bo to play"])).as_deref(),
            Some("a round of turns")
        );
        assert_eq!(
            title_of(&l(&[
                "Ann decides: Banana's turn",
                "Bo decides: Cat's turn"
            ]))
            .as_deref(),
            Some("a round of turns")
        );
        assert_eq!(
            title_of(&l(&["Turn 1 of 5"])).as_deref(),
            Some("Turn 1 of 5")
        );
        assert_eq!(
            title_of(&l(&["Ann to play", "Ann to play"])).as_deref(),
            Some("Ann's turn")
        );
        assert_eq!(
            title_of(&l(&["Round 2: You to play"])).as_deref(),
            Some("Round 2: Your turn")
        );
        assert_eq!(title_of(&[]), None);
        // A round's end with its scores: the winner is its own line, not run on.
        let end = vec![RoundStep {
            step: 9,
            label: "Round 1: Bo to play".into(),
            lines: vec![
                "Bo junks gas.".into(),
                "The race ends: a player has no card left.\nAl: 975 miles + 300 immunities = 1275\nBo: 200 miles = 200".into(),
                "Al wins with 1275 points!".into(),
            ],
        }];
        assert_eq!(
            round_lines(&end, &plain, false),
            "• Bo junks gas.\n  The race ends: a player has no card left.\n  \
             Al: 975 miles + 300 immunities = 1275\n  Bo: 200 miles = 200\n  \
             Al wins with 1275 points!"
        );
        // Magical Athlete: one event a line, under the step's bullet.
        assert_eq!(
            round_lines(&steps, &plain, true),
            "• Ann plays 100 km.\n  Ann reaches 300 km.\n• Round 1: Bo to play"
        );
    }
}
