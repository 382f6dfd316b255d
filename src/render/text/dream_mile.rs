//! Dream Mile in text: the field strung out along the home straight, and the standings.
//!
//! The rules: docs/rules/dream-mile.md.

use super::columns::{columns, pad};
use crate::games::dream_mile::{PrivateView, PublicView, Standing, join_and};
use crate::games::words::ordinal;

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
        .map(|s| columns(&s.name))
        .max()
        .unwrap_or(4)
        .clamp(4, NAME_COLUMNS);
    let mut out = vec![heading(view)];
    out.push(format!(
        "{:<5} {} {:>6} {:>5} {:>4}",
        "pos",
        pad("runner", width),
        "played",
        "left",
        "max"
    ));
    for s in &view.standings {
        let played = match (s.played, s.missed) {
            (Some(p), true) => format!("{p}*"),
            (Some(p), false) => p.to_string(),
            (None, _) => "-".to_string(),
        };
        // A name wider than its column gets a line of its own, the numbers under it.
        let name = if columns(&s.name) > width {
            out.push(format!("{:<5} {}", position(s), s.name));
            ""
        } else {
            s.name.as_str()
        };
        out.push(format!(
            "{:<5} {} {:>6} {:>5} {:>4}",
            if name.is_empty() {
                String::new()
            } else {
                position(s)
            },
            pad(name, width),
            played,
            s.remaining,
            s.max_speed
        ));
    }
    if view.standings.iter().any(|s| s.missed) {
        // Within a phone's 40 columns.
        out.push("* missed: played last turn's plus one".into());
    }
    let groups = view.groups();
    let field: Vec<Vec<&str>> = groups
        .iter()
        .map(|g| g.iter().map(|s| s.name.as_str()).collect())
        .collect();
    out.extend(wrap_field(&field));
    out.join("\n")
}

/// A phone shows about 40 characters of a code block's line.
pub const PHONE_COLUMNS: usize = 40;

/// The widest name column that keeps a standings row within [`PHONE_COLUMNS`].
const NAME_COLUMNS: usize = 16;

/// `FINISH <= A + B | C | ...`, broken before [`PHONE_COLUMNS`] between runners (a
/// further line starts with its `|` or `+`, indented under the first runner).
fn wrap_field(groups: &[Vec<&str>]) -> Vec<String> {
    const LEAD: &str = "FINISH <= ";
    let indent = " ".repeat(LEAD.len());
    let mut lines = Vec::new();
    let mut line = LEAD.to_string();
    let mut first = true;
    for (i, g) in groups.iter().enumerate() {
        for (j, name) in g.iter().enumerate() {
            let sep = match (i, j) {
                (0, 0) => "",
                (_, 0) => " | ",
                _ => " + ",
            };
            let wide = columns(&line)
                .saturating_add(sep.len())
                .saturating_add(columns(name));
            if !first && wide > PHONE_COLUMNS {
                lines.push(std::mem::take(&mut line));
                line = format!("{indent}{} {name}", sep.trim());
            } else {
                line.push_str(sep);
                line.push_str(name);
            }
            first = false;
        }
    }
    lines.push(line);
    lines
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
pub fn private(view: &PrivateView, user: super::columns::User<'_>) -> String {
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
    use unicode_width::UnicodeWidthStr;

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
    fn twelve_runners_fit_a_phone() {
        let names: Vec<String> = (1..=12).map(|i| format!("Runner {i}")).collect();
        let seats: Vec<SeatSetup> = names.iter().map(SeatSetup::named).collect();
        let mut g = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap();
        let orders: Vec<Submitted<Speed>> = (0..12u8)
            .map(|i| {
                if i == 11 {
                    Submitted::missed(Seat(i), Speed(1))
                } else {
                    Submitted::new(Seat(i), Speed(i % 6))
                }
            })
            .collect();
        g.apply(&orders);
        let t = track(&g.public_view());
        for line in t.lines() {
            assert!(columns(line) <= PHONE_COLUMNS, "{line:?} in\n{t}");
        }
        // Every runner is still on the finish line, in order, across its lines.
        let field: String = t
            .lines()
            .skip_while(|l| !l.starts_with("FINISH"))
            .collect::<Vec<_>>()
            .join(" ");
        for n in &names {
            assert!(field.contains(n.as_str()), "{n} in {field}");
        }
    }

    /// Names in Chinese or with an emoji take two columns a character: the standings
    /// still line up, and the finish line still breaks within a phone's width.
    #[test]
    fn wide_names_line_up_and_fit_a_phone() {
        let mut names: Vec<String> = vec!["李小龍".into(), "🏃 Ana".into(), "Bob".into()];
        names.extend((1..=9).map(|i| format!("短跑選手{i}")));
        let seats: Vec<SeatSetup> = names.iter().map(SeatSetup::named).collect();
        let mut g = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap();
        let orders: Vec<Submitted<Speed>> = (0..12u8)
            .map(|i| Submitted::new(Seat(i), Speed(i % 6)))
            .collect();
        g.apply(&orders);
        let t = track(&g.public_view());
        // The header and each runner's row: the last column is right-aligned, so an
        // aligned table has rows of one width.
        let rows: Vec<usize> = t.lines().skip(1).take(13).map(str::width).collect();
        assert!(rows.iter().all(|w| *w == rows[0]), "{rows:?} in\n{t}");
        for line in t.lines() {
            assert!(line.width() <= PHONE_COLUMNS, "{line:?} in\n{t}");
        }
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
