//! Dream Mile in text: the field strung out along the home straight, and the standings.
//!
//! The rules: docs/rules/dream-mile.md.

use super::ordinal;
use crate::games::dream_mile::{PrivateView, PublicView, Standing, join_and};

fn position(s: &Standing) -> String {
    format!("{}{}", if s.tied { "=" } else { "" }, ordinal(s.rank))
}

fn heading(view: &PublicView) -> String {
    if view.finished {
        format!("Dream Mile: final result after {} turns", view.total_turns)
    } else if view.turn == 0 {
        format!("Dream Mile: on the start line ({} turns)", view.total_turns)
    } else {
        format!(
            "Dream Mile: after turn {} of {}",
            view.turn, view.total_turns
        )
    }
}

/// The standings table, then the field along the straight (leader at the finish end).
pub fn track(view: &PublicView) -> String {
    let width = view
        .standings
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = vec![heading(view)];
    out.push(format!(
        "{:<5} {:<width$} {:>6} {:>5} {:>4}",
        "pos", "runner", "played", "left", "max"
    ));
    for s in &view.standings {
        let played = match (s.played, s.missed) {
            (Some(p), true) => format!("{p}*"),
            (Some(p), false) => p.to_string(),
            (None, _) => "-".to_string(),
        };
        out.push(format!(
            "{:<5} {:<width$} {:>6} {:>5} {:>4}",
            position(s),
            s.name,
            played,
            s.remaining,
            s.max_speed
        ));
    }
    if view.standings.iter().any(|s| s.missed) {
        out.push("* missed the deadline: played one more than the turn before".into());
    }
    let field: Vec<String> = view
        .groups()
        .iter()
        .map(|g| {
            g.iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect();
    out.push(format!("FINISH <= {}", field.join(" | ")));
    out.join("\n")
}

/// "After turn 2 of 8: 1st Alice; 2nd Carol; joint 3rd Dave and Emily; ..."
pub fn alt(view: &PublicView) -> String {
    let parts: Vec<String> = view
        .groups()
        .iter()
        .map(|g| {
            let names: Vec<&str> = g.iter().map(|s| s.name.as_str()).collect();
            let rank = g.first().map(|s| s.rank).unwrap_or(1);
            let joint = if g.len() > 1 { "joint " } else { "" };
            format!("{joint}{} {}", ordinal(rank), join_and(&names))
        })
        .collect();
    format!("{}: {}.", heading(view), parts.join("; "))
}

/// The DM: your runner, your points, and what you may play.
pub fn private(view: &PrivateView, user: super::User<'_>) -> String {
    let pos = format!(
        "{}{}",
        if view.tied { "joint " } else { "" },
        ordinal(view.rank)
    );
    let mut out = format!(
        "{}: maximum speed {}, {} speed points left, {pos} in the race.",
        user(&view.name),
        view.max_speed,
        view.remaining
    );
    if let Some(turn) = view.next_turn {
        out.push_str(&format!(" Turn {turn}: you may play 0 to {}.", view.cap));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Seat, SeatSetup, Seed, Submitted};
    use crate::games::dream_mile::{DreamMile, Options, Speed};

    fn race() -> DreamMile {
        let seats: Vec<SeatSetup> = ["Alice", "Bill", "Carol"]
            .iter()
            .map(|n| SeatSetup::named(*n))
            .collect();
        let mut g = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap();
        g.apply(&[
            Submitted::new(Seat(0), Speed(5)),
            Submitted::new(Seat(1), Speed(5)),
            Submitted::missed(Seat(2), Speed(1)),
        ]);
        g
    }

    #[test]
    fn track_lists_every_runner_with_ties_marked() {
        let t = track(&race().public_view());
        assert!(t.starts_with("Dream Mile: after turn 1 of 8"), "{t}");
        assert!(t.contains("=1st  Alice"), "{t}");
        assert!(t.contains("3rd   Carol     1*    44"), "{t}");
        assert!(t.contains("FINISH <= Alice + Bill | Carol"), "{t}");
    }

    #[test]
    fn alt_text_reads_as_a_sentence() {
        let a = alt(&race().public_view());
        assert_eq!(
            a,
            "Dream Mile: after turn 1 of 8: joint 1st Alice and Bill; 3rd Carol."
        );
    }

    #[test]
    fn private_view_says_what_may_be_played() {
        let p = private(&race().private_view(Seat(2)), &|s: &str| s.to_string());
        assert_eq!(
            p,
            "Carol: maximum speed 10, 44 speed points left, 3rd in the race. Turn 2: you may play 0 to 10."
        );
    }
}
