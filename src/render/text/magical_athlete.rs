//! Magical Athlete in text: the 30 spaces with their special spaces and the racers on them
//! (owner, tripped marks), the finish order, the chips; and a seat's hand, policies and
//! pending question for its DM.
//!
//! The rules: docs/rules/magical-athlete.md.

use crate::games::magical_athlete::race::Status;
use crate::games::magical_athlete::racers::Kind;
use crate::games::magical_athlete::track::{FINISH, Special, Track};
use crate::games::magical_athlete::{PrivateView, PublicView, RacerView};
use crate::games::words::ordinal;

fn special_mark(s: Special) -> String {
    match s {
        Special::Arrow(n) if n > 0 => format!("+{n}"),
        Special::Arrow(n) => format!("{n}"),
        Special::Rock => "rock".into(),
        Special::Star => "star".into(),
    }
}

fn racer_tag(r: &RacerView) -> String {
    let mut t = format!("{} ({})", r.name, r.owner);
    if r.tripped {
        t.push_str(" [tripped]");
    }
    if let (Some(p), true) = (r.power, r.power.map(Kind::name) != Some(r.name.as_str())) {
        t.push_str(&format!(" as {}", p.name()));
    }
    t
}

fn heading(v: &PublicView) -> String {
    match v.phase.as_str() {
        "draft" => format!("Magical Athlete: the draft, round {}", v.draft_round),
        "pick" if v.races() == 1 => "Magical Athlete: choosing racers for the race".into(),
        "pick" => format!(
            "Magical Athlete: choosing racers for race {} of {}",
            v.race,
            v.races()
        ),
        "race" => {
            let on = v.track.map(Track::name).unwrap_or("the track");
            if v.races() == 1 {
                format!("Magical Athlete: the race on {on}")
            } else {
                format!("Magical Athlete: race {} of {} on {on}", v.race, v.races())
            }
        }
        _ => "Magical Athlete: final scores".into(),
    }
}

fn chips_lines(v: &PublicView) -> Vec<String> {
    let width = v
        .players
        .iter()
        .map(|p| super::columns::columns(&p.name))
        .max()
        .unwrap_or(4)
        .max(6);
    let mut out = vec![format!(
        "{} {:>5} {:>6} {:>6} {:>5}",
        super::columns::pad("player", width),
        "gold",
        "silver",
        "bronze",
        "total"
    )];
    for p in &v.players {
        let sum = |xs: &[u8]| xs.iter().map(|&x| u32::from(x)).sum::<u32>();
        out.push(format!(
            "{} {:>5} {:>6} {:>6} {:>5}",
            super::columns::pad(&p.name, width),
            sum(&p.gold),
            sum(&p.silver),
            p.bronze,
            p.score
        ));
    }
    out
}

/// The track, space by space from the finish back to the Start, then the chips.
pub fn track(v: &PublicView) -> String {
    let mut out = vec![heading(v)];
    match v.phase.as_str() {
        "draft" => {
            let line: Vec<&str> = v.draft_line.iter().map(|k| k.name()).collect();
            out.push(format!("Face up: {}", line.join(", ")));
            for p in &v.players {
                let hand: Vec<&str> = p.hand.iter().map(|k| k.name()).collect();
                out.push(format!(
                    "{}: {}",
                    p.name,
                    if hand.is_empty() {
                        "-".to_string()
                    } else {
                        hand.join(", ")
                    }
                ));
            }
        }
        "race" => {
            let finished: Vec<String> = v
                .placings
                .iter()
                .enumerate()
                .map(|(i, k)| format!("{} {}", ordinal(i as u32 + 1), k.name()))
                .collect();
            out.push(format!(
                "FINISH (30){}",
                if finished.is_empty() {
                    String::new()
                } else {
                    format!(": {}", finished.join(", "))
                }
            ));
            for space in (0..FINISH).rev() {
                let here: Vec<String> = v
                    .racers
                    .iter()
                    .filter(|r| r.status == Status::Racing && r.space == space)
                    .map(racer_tag)
                    .collect();
                let special = v
                    .specials
                    .iter()
                    .find(|(s, _)| *s == space)
                    .map(|(_, sp)| special_mark(*sp));
                let corner = if space == 15 { "corner" } else { "" };
                if here.is_empty() && special.is_none() && space != 0 && space != 15 {
                    continue;
                }
                let label = if space == 0 {
                    "Start".to_string()
                } else {
                    format!("{space:>5}")
                };
                let mark = special.unwrap_or_else(|| corner.to_string());
                out.push(format!("{label:>5} {mark:<6} {}", here.join(", ")));
            }
            let gone: Vec<&str> = v.eliminated.iter().map(|k| k.name()).collect();
            if !gone.is_empty() {
                out.push(format!("Eliminated: {}", gone.join(", ")));
            }
        }
        _ => {}
    }
    out.extend(chips_lines(v));
    if let Some(w) = &v.waiting {
        out.push(format!("Waiting: {w}."));
    }
    out.join("\n")
}

/// One sentence: who leads, who finished, who is waited for.
pub fn alt(v: &PublicView) -> String {
    let mut s = heading(v);
    if v.phase == "race" {
        let mut racing: Vec<&RacerView> = v
            .racers
            .iter()
            .filter(|r| r.status == Status::Racing)
            .collect();
        racing.sort_by_key(|r| std::cmp::Reverse(r.space));
        let parts: Vec<String> = racing
            .iter()
            .map(|r| {
                format!(
                    "{} on {}{}",
                    r.name,
                    if r.space == 0 {
                        "the Start".to_string()
                    } else {
                        format!("space {}", r.space)
                    },
                    if r.tripped { " (tripped)" } else { "" }
                )
            })
            .collect();
        s.push_str(&format!(": {}", parts.join(", ")));
        if !v.placings.is_empty() {
            let f: Vec<&str> = v.placings.iter().map(|k| k.name()).collect();
            s.push_str(&format!("; finished: {}", f.join(", then ")));
        }
    } else {
        let scores: Vec<String> = v
            .players
            .iter()
            .map(|p| format!("{} {}", p.name, p.score))
            .collect();
        s.push_str(&format!(": {}", scores.join(", ")));
    }
    s.push('.');
    s
}

/// The DM: your hand, your racers, your policies and what you are asked.
pub fn private(v: &PrivateView, user: super::columns::User<'_>) -> String {
    let names = |ks: &[crate::games::magical_athlete::racers::Kind]| {
        if ks.is_empty() {
            "-".to_string()
        } else {
            ks.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
        }
    };
    // Racers still to race are worth saying only while races are left for them.
    let still = if v.unused.is_empty() {
        String::new()
    } else {
        format!(" Still to race: {}.", names(&v.unused))
    };
    let mut out = vec![format!(
        "{}: {}. Hand: {}.{still}",
        user(&v.name),
        crate::games::words::count(v.score, "point"),
        names(&v.hand),
    )];
    if !v.racing.is_empty() {
        out.push(format!("Racing now: {}.", names(&v.racing)));
    }
    if !v.egg_cards.is_empty() {
        out.push(format!(
            "Egg's cards (only you know): {}.",
            names(&v.egg_cards)
        ));
    }
    // "None set", not "you are asked each time": autopilot still plays forced and
    // obvious answers, and says so.
    if v.policies.is_empty() {
        out.push("Policies: none set.".into());
    } else {
        out.push(format!("Policies: {}.", v.policies.join("; ")));
    }
    // The pending question is the prompt's, which the DM shows beside this: said once.
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Seat};
    use crate::games::magical_athlete::racers::Kind;
    use crate::games::magical_athlete::track::Track;
    use crate::games::magical_athlete::{MagicalAthlete, Options};
    use unicode_width::UnicodeWidthStr;

    fn game() -> MagicalAthlete {
        let mut g = MagicalAthlete::scenario(
            &["Alice", "Bob"],
            Track::Wild,
            &[(Kind::Legs, Seat(0), 3), (Kind::Banana, Seat(1), 12)],
            Seat(0),
            Options::default(),
        );
        if let Some(r) = g.race_mut() {
            r.racers[1].tripped = true;
        }
        g.begin();
        g
    }

    /// A one-race game never speaks of a season: no "of 4" in any heading.
    #[test]
    fn one_race_is_not_called_race_1_of_4() {
        use crate::engine::apply_option_text;
        let o = apply_option_text(&Options::default(), "races=1").unwrap();
        let views = MagicalAthlete::played_views(&o, &["Ann", "Ben", "Cat"], 4);
        let headings: Vec<String> = views.iter().map(heading).collect();
        assert!(headings.contains(&"Magical Athlete: choosing racers for the race".into()));
        assert!(
            headings
                .iter()
                .any(|h| h.starts_with("Magical Athlete: the race on "))
        );
        for v in &views {
            let (t, a) = (track(v), alt(v));
            assert!(!t.contains(" of 4") && !a.contains(" of 4"), "{t}\n{a}");
        }
        let four = MagicalAthlete::played_views(&Options::default(), &["Ann", "Ben"], 4);
        assert!(
            four.iter()
                .any(|v| heading(v) == "Magical Athlete: choosing racers for race 2 of 4")
        );
    }

    #[test]
    fn the_track_shows_spaces_racers_owners_trips_and_chips() {
        let t = track(&game().public_view());
        assert!(
            t.starts_with("Magical Athlete: race 1 of 4 on Wild Wilds"),
            "{t}"
        );
        assert!(t.contains("   12        Banana (Bob) [tripped]"), "{t}");
        assert!(t.contains("    3        Legs (Alice)"), "{t}");
        assert!(t.contains("    7 +3"), "{t}");
        assert!(t.contains("   16 -4"), "{t}");
        assert!(t.contains("    5 rock"), "{t}");
        assert!(t.contains("    1 star"), "{t}");
        assert!(t.contains("FINISH (30)"), "{t}");
        assert!(t.contains("Waiting: Alice decides: Legs' turn."), "{t}");
    }

    /// The chips table pads a Chinese or emoji name by its display width.
    #[test]
    fn wide_names_keep_the_chips_in_line() {
        let mut g = MagicalAthlete::scenario(
            &["李小龍", "🏃 Ana"],
            Track::Wild,
            &[(Kind::Legs, Seat(0), 3), (Kind::Banana, Seat(1), 12)],
            Seat(0),
            Options::default(),
        );
        g.begin();
        let t = track(&g.public_view());
        let table: Vec<&str> = t
            .lines()
            .skip_while(|l| !l.starts_with("player"))
            .take(3)
            .collect();
        assert_eq!(table.len(), 3, "{t}");
        let widths: Vec<usize> = table.iter().map(|l| l.width()).collect();
        assert!(widths.iter().all(|w| *w == widths[0]), "{widths:?} in\n{t}");
    }

    #[test]
    fn alt_text_and_private_text() {
        let g = game();
        let a = alt(&g.public_view());
        assert_eq!(
            a,
            "Magical Athlete: race 1 of 4 on Wild Wilds: Banana on space 12 (tripped), Legs on space 3."
        );
        let p = private(&g.private_view(Seat(0)), &|s: &str| s.to_string());
        assert!(p.contains("Racing now: Legs."), "{p}");
        assert!(p.contains("Policies: none set."), "{p}");
        assert!(!p.contains("Choices"), "the prompt asks, once: {p}");
    }
}
