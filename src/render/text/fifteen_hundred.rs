//! 1500m in text: the field by position with lane, space, progress, mental strength, pace,
//! cards left and medals; and a player's hand, bid cards and last order.
//!
//! The rules: docs/rules/1500m.md.

use crate::games::fifteen_hundred::{PrivateView, PublicView, RunnerView};
use crate::games::words::ordinal;

fn medal(place: Option<u8>) -> String {
    match place {
        Some(1) => "GOLD".into(),
        Some(2) => "SILVER".into(),
        Some(3) => "BRONZE".into(),
        Some(p) => format!("{} home", ordinal(u32::from(p))),
        None => String::new(),
    }
}

fn laps(view: &PublicView) -> String {
    if view.finished {
        "race over".into()
    } else if view.bell {
        "last lap".into()
    } else {
        format!(
            "lap counter {} ({} to go after this one)",
            view.laps_left, view.laps_left
        )
    }
}

fn cards(r: &RunnerView) -> String {
    if r.robot {
        "robot".into()
    } else {
        r.cards_left
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The standings, best placed first: three short lines a runner, to fit a phone
/// (the name, lane and progress; where it stands; its tracks and cards).
pub fn track(view: &PublicView) -> String {
    // Names pad to line the lanes up, up to a phone's share; a longer name pushes its
    // line out (and [`super::fit_phone`] breaks it).
    let width = view
        .runners
        .iter()
        .map(|r| super::columns::columns(&r.name))
        .max()
        .unwrap_or(6)
        .clamp(6, 12);
    let mut out = vec![format!(
        "1500m ({}{}) on {}:",
        match view.distance {
            crate::games::fifteen_hundred::board::Distance::M1500 => "1500 m",
            crate::games::fifteen_hundred::board::Distance::M800 => "800 m",
        },
        if view.advanced { ", advanced" } else { "" },
        view.board,
    )];
    // Once the race is over the step and the laps say the same thing: say it once.
    if !view.finished {
        out.push(format!("{},", view.step));
    }
    out.push(laps(view));
    for r in &view.runners {
        out.push(
            format!(
                "{:<4} {} lane {} {:>7} {}",
                ordinal(r.position),
                super::columns::pad(&r.name, width),
                r.lane,
                format!("{}/{}", r.progress.min(view.length), view.length),
                medal(r.place)
            )
            .trim_end()
            .to_string(),
        );
        out.push(format!("     at {} {}", r.section, r.section_space));
        let penalty = if r.penalty > 0 {
            format!(", penalty {}", r.penalty)
        } else {
            String::new()
        };
        out.push(format!(
            "     MS {}, pace {}{penalty}, {}",
            r.strength.map_or("-".into(), |s| s.to_string()),
            r.pace,
            if r.robot {
                cards(r)
            } else if r.cards_left.is_empty() {
                "no cards left".into()
            } else {
                format!("cards {}", cards(r))
            }
        ));
    }
    if !view.robot_cards_left.is_empty() && view.runners.iter().any(|r| r.robot) {
        out.push(format!(
            "robot movement cards left: {}",
            view.robot_cards_left
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.join("\n")
}

/// "1500m, round 3, last lap: 1st Red (lane 1), 2nd Blue (lane 2)..."
pub fn alt(view: &PublicView) -> String {
    let parts: Vec<String> = view
        .runners
        .iter()
        .map(|r| match r.place {
            Some(p) if p <= 3 => format!(
                "{} {} ({})",
                ordinal(r.position),
                r.name,
                medal(r.place).to_lowercase()
            ),
            Some(_) => format!("{} {} (finished)", ordinal(r.position), r.name),
            None => format!("{} {} (lane {})", ordinal(r.position), r.name, r.lane),
        })
        .collect();
    // Once the race is over the step and the laps say the same thing.
    if view.finished {
        return format!("1500m, race over: {}.", parts.join(", "));
    }
    format!(
        "1500m, {}, {}: {}.",
        view.step,
        laps(view),
        parts.join(", ")
    )
}

/// The DM: where you are, your cards, and your last order.
pub fn private(view: &PrivateView, user: super::columns::User<'_>) -> String {
    let mut out = format!(
        "{}: {}, {} in the race. Mental strength {}, pace {}",
        user(&view.name),
        view.space,
        ordinal(view.position),
        view.strength,
        view.pace
    );
    if view.penalty > 0 {
        out.push_str(&format!(
            ", {} movement points to lose next cards phase",
            view.penalty
        ));
    }
    out.push('.');
    if let Some(p) = view.place {
        out.push_str(&format!(" You finished {}.", ordinal(u32::from(p))));
        return out;
    }
    let hand: Vec<String> = view.hand.iter().map(u8::to_string).collect();
    out.push_str(&format!(" Movement cards: {}.", hand.join(", ")));
    match (view.bid_cards.first(), view.bid_cards.last()) {
        (Some(lo), Some(hi)) => out.push_str(&format!(" Bid cards: {lo} to {hi}.")),
        _ => out.push_str(" You cannot bid (no mental strength left)."),
    }
    if let Some(c) = view.chosen_card {
        out.push_str(&format!(" Card chosen this round: {c}."));
    }
    if let Some(o) = &view.last_order {
        out.push_str(&format!(" Your last order: {}.", user(o)));
    }
    if let Some(a) = &view.asked {
        out.push_str(&format!(" Now: {a}."));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Seat, SeatSetup, Seed, Submitted};
    use crate::games::fifteen_hundred::{FifteenHundred, Options};
    use unicode_width::UnicodeWidthStr;

    fn race() -> FifteenHundred {
        let seats: Vec<SeatSetup> = ["Red", "Blue"]
            .iter()
            .map(|n| SeatSetup::named(*n))
            .collect();
        let options = Options {
            robots: 1,
            ..Options::default()
        };
        let mut g = FifteenHundred::setup(&options, &seats, Seed::from_u64(3)).unwrap();
        let orders: Vec<_> = [Seat(0), Seat(1)]
            .iter()
            .map(|&s| {
                let o = g.parse_order(s, "card 11 bid 2 pace +1").unwrap();
                Submitted::new(s, o)
            })
            .collect();
        g.apply(&orders);
        g
    }

    #[test]
    fn track_lists_every_runner_with_strength_pace_and_cards() {
        let t = track(&race().public_view());
        assert!(
            t.starts_with("1500m (1500 m) on Standard 8-lane oval:\nRound 2: orders,\n"),
            "{t}"
        );
        assert!(t.contains("lap counter 3"), "{t}");
        assert!(t.contains("Robot 1"), "{t}");
        assert!(t.contains("8,9,10"), "{t}");
        assert!(t.contains("robot movement cards left"), "{t}");
        assert!(t.contains("3rd  Robot 1 lane 1  15/150\n"), "{t}");
        // A heading of three lines, three lines a runner, and the robots' cards.
        assert_eq!(t.lines().count(), 13, "{t}");
    }

    /// A name in Chinese or with an emoji pads by its display width: every runner's
    /// lane starts in the same column.
    #[test]
    fn wide_names_keep_the_lanes_in_line() {
        let seats: Vec<SeatSetup> = ["李小龍", "🏃 Ana", "Bob"]
            .iter()
            .map(|n| SeatSetup::named(*n))
            .collect();
        let g = FifteenHundred::setup(&Options::default(), &seats, Seed::from_u64(3)).unwrap();
        let t = track(&g.public_view());
        let lanes: Vec<usize> = t
            .lines()
            .filter_map(|l| l.find(" lane ").map(|i| l[..i].width()))
            .collect();
        assert_eq!(lanes.len(), 3, "{t}");
        assert!(lanes.iter().all(|c| *c == lanes[0]), "{lanes:?} in\n{t}");
    }

    #[test]
    fn alt_text_and_private_text() {
        let g = race();
        let a = alt(&g.public_view());
        assert!(
            a.starts_with("1500m, Round 2: orders, lap counter 3"),
            "{a}"
        );
        let p = private(&g.private_view(Seat(0)), &|s: &str| s.to_string());
        assert!(p.starts_with("Red: lane "), "{p}");
        assert!(p.contains("Movement cards: 8, 9, 10."), "{p}");
        assert!(p.contains("Bid cards: 1 to 8."), "{p}");
        assert!(
            p.contains("Your last order: card 11 bid 2 actions move3,first,move2,safe4,safe3,pace2,pace1 pace +1 move farthest then farthest."),
            "{p}"
        );
    }

    #[test]
    fn a_finished_race_says_race_over_once() {
        let mut v = race().public_view();
        v.finished = true;
        v.step = "Race over".into();
        let t = track(&v);
        let top: Vec<&str> = t.lines().take(2).collect();
        assert_eq!(
            top,
            ["1500m (1500 m) on Standard 8-lane oval:", "race over"]
        );
    }
}
