//! 1000 miles and 1000 Yards in text: each team's distance against the trip, its status,
//! speed limit, immunities and score, the cards left in the pile; and a seat's hand with
//! its team's tableau for the DM. The public text never holds a hand.
//!
//! The rules: docs/rules/1000-miles.md and docs/rules/1000-yards.md.

use crate::games::card_race::Card;
use crate::games::card_race::game_views::{PrivateView, PublicView, TeamView};

fn name(yards: bool, card: Card) -> &'static str {
    card.name(yards)
}

/// What the game calls its safeties: 1000 Yards' rulebook says "protections".
fn immunities_word(yards: bool) -> &'static str {
    if yards { "protections" } else { "immunities" }
}

/// What the game calls a safety played at once against an attack (1000 Yards: a
/// "counter"; the published Mille Bornes rules: a "coup fourré").
fn trick_word(yards: bool, title: &str) -> &'static str {
    if yards {
        "counter"
    } else if title.contains("published") {
        "coup fourré"
    } else {
        "dirty trick"
    }
}

/// "rolling", or "stopped: flat tire", or "stopped: needs a green light".
fn status(yards: bool, t: &TeamView) -> String {
    if t.rolling {
        return "rolling".into();
    }
    let problems: Vec<&str> = t
        .problems
        .iter()
        .filter(|p| p.is_battle_attack())
        .map(|&p| name(yards, p))
        .collect();
    if problems.is_empty() {
        format!("stopped: needs a {}", name(yards, Card::Go))
    } else {
        format!("stopped: {}", problems.join(" + "))
    }
}

fn flags(yards: bool, t: &TeamView) -> Vec<String> {
    let mut out = Vec::new();
    if t.limited {
        out.push(name(yards, Card::Limit).to_string());
    }
    if t.counterflow {
        out.push(name(yards, Card::Counterflow).to_string());
    }
    out
}

fn immunities(yards: bool, t: &TeamView) -> String {
    if t.safeties.is_empty() {
        return "-".into();
    }
    t.safeties
        .iter()
        .map(|s| {
            if s.dirty_trick {
                format!("{}*", name(yards, s.card))
            } else {
                name(yards, s.card).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A team's points in all. Once the game is over the last round is already in the total
/// (the tableau is kept for the view, and counting it again would double it).
fn points(v: &PublicView, t: &TeamView) -> i64 {
    if v.finished {
        t.total
    } else {
        t.total + t.round_score
    }
}

/// A bar of 20 cells for the distance against the trip.
fn bar(distance: u32, target: u32) -> String {
    let cells = 20u32;
    let filled = (distance.min(target) * cells)
        .checked_div(target)
        .unwrap_or(0) as usize;
    format!(
        "[{}{}]",
        "=".repeat(filled),
        ".".repeat(cells as usize - filled)
    )
}

fn heading(v: &PublicView) -> String {
    if v.finished {
        let rounds = if v.round == 1 { "round" } else { "rounds" };
        format!("{}: final scores after {} {rounds}", v.title, v.round)
    } else {
        let mut h = format!(
            "{}: round {}, trip {} {}",
            v.title, v.round, v.target, v.unit
        );
        if v.extended_by.is_some() {
            h.push_str(" (extended)");
        }
        if v.target_score > 0 {
            h.push_str(&format!(", game to {}", v.target_score));
        }
        h
    }
}

fn team_lines(v: &PublicView, t: &TeamView) -> Vec<String> {
    let yards = v.yards_names;
    // The bar under the name: side by side they are wider than a phone.
    let mut lines = vec![t.label.clone()];
    lines.push(format!(
        "  {} {:>4}/{} {}",
        bar(t.distance, v.target),
        t.distance,
        v.target,
        v.unit
    ));
    let mut status_line = format!("  {}", status(yards, t));
    for f in flags(yards, t) {
        status_line.push_str(&format!("; {f}"));
    }
    if t.two_hundreds > 0 {
        status_line.push_str(&format!("; 200s played: {}/2", t.two_hundreds));
    }
    lines.push(status_line);
    lines.push(format!(
        "  {}: {}",
        immunities_word(yards),
        immunities(yards, t)
    ));
    lines.push(format!("  score: {}", score_words(v, t)));
    lines
}

/// A team's score in words. A one-round game has one figure: while it is played, the points
/// so far (the bonuses for the round's end come at its end); after it, the final score.
/// Over several rounds, this round's part and the total: once the game is over, the last
/// round's part as scored, with its bonuses (the tableau's figure has none of them).
fn score_words(v: &PublicView, t: &TeamView) -> String {
    let one_round = v.rounds == 1 || (v.finished && v.round <= 1);
    match (one_round, v.finished) {
        (true, false) => format!("{} so far", t.round_score),
        (true, true) => points(v, t).to_string(),
        (false, false) => format!("{} this round, {} in all", t.round_score, points(v, t)),
        (false, true) => {
            let last = v
                .history
                .last()
                .and_then(|r| r.scores.iter().find(|s| s.team == t.team))
                .map(|s| s.total);
            match last {
                Some(p) => format!("{p} in the last round, {} in all", points(v, t)),
                None => format!("{} in all", points(v, t)),
            }
        }
    }
}

/// The channel's text track.
pub fn track(v: &PublicView) -> String {
    let mut out = vec![heading(v)];
    for t in &v.teams {
        out.extend(team_lines(v, t));
    }
    let hands: Vec<String> = v
        .players
        .iter()
        .map(|p| format!("{} {}", p.name, p.hand_size))
        .collect();
    out.push(format!(
        "cards in the pile: {}; junked: {}",
        v.deck_left,
        v.discard.len(),
    ));
    out.push(format!("cards in hand: {}", hands.join(", ")));
    if v.teams
        .iter()
        .any(|t| t.safeties.iter().any(|s| s.dirty_trick))
    {
        out.push(format!(
            "* played as a {}",
            trick_word(v.yards_names, &v.title)
        ));
    }
    let player = |s: crate::engine::Seat| {
        v.players
            .iter()
            .find(|p| p.seat == s)
            .map(|p| p.name.as_str())
            .unwrap_or("?")
    };
    if let Some(w) = &v.window {
        let victims: Vec<&str> = w.victims.iter().map(|&s| player(s)).collect();
        out.push(format!(
            "Waiting: {} may answer the {} ({}).",
            victims.join(" or "),
            name(v.yards_names, w.attack),
            w.window
        ));
    } else if let Some(s) = v.turn {
        out.push(format!("To play: {}.", player(s)));
    } else if let Some(s) = v.extension_decision {
        out.push(format!("{} decides: extend the trip to 1000?", player(s)));
    }
    if v.finished {
        let winners: Vec<&str> = v.winners.iter().map(|&s| player(s)).collect();
        out.push(format!("Winner: {}.", winners.join(" & ")));
    }
    out.join("\n")
}

/// One sentence for screen readers.
pub fn alt(v: &PublicView) -> String {
    let parts: Vec<String> = v
        .teams
        .iter()
        .map(|t| {
            format!(
                "{} {} {} ({}), {} points",
                t.label,
                t.distance,
                v.unit,
                status(v.yards_names, t),
                points(v, t)
            )
        })
        .collect();
    format!("{}: {}.", heading(v), parts.join("; "))
}

/// The DM: your hand, and your team's tableau.
pub fn private(v: &PrivateView, user: super::columns::User<'_>) -> String {
    let yards = v.yards_names;
    let hand: Vec<&str> = v.hand.iter().map(|&c| name(yards, c)).collect();
    let t = &v.tableau;
    let mut out = vec![format!(
        "{}, your hand: {}.",
        user(&v.name),
        if hand.is_empty() {
            "empty".to_string()
        } else {
            hand.join(", ")
        }
    )];
    let mut line = format!(
        "Your team ({}): {}/{} {}, {}",
        user(&t.label),
        t.distance,
        v.target,
        if yards { "yards" } else { "miles" },
        status(yards, t)
    );
    for f in flags(yards, t) {
        line.push_str(&format!(", {f}"));
    }
    line.push_str(&format!(
        "; {}: {}.",
        immunities_word(yards),
        immunities(yards, t)
    ));
    out.push(line);
    out.push(format!(
        "Cards in the pile: {}. {}: {}.",
        v.deck_left,
        if yards { "Counters" } else { "Dirty tricks" },
        v.dirty_trick.name()
    ));
    // The question itself ("Your turn: play or junk a card.") is the prompt's, said once.
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Seat, SeatSetup, Seed};
    use crate::games::card_race::{CardRace, Options};

    fn game() -> CardRace {
        let seats: Vec<SeatSetup> = ["Alice", "Bob", "Carol", "Dave"]
            .iter()
            .map(|n| SeatSetup::named(*n))
            .collect();
        CardRace::setup(&Options::default(), &seats, Seed::from_u64(3)).unwrap()
    }

    #[test]
    fn track_shows_teams_and_no_hand() {
        let g = game();
        let t = track(&g.public_view());
        assert!(t.starts_with("1000 miles: round 1, trip 1000 miles"), "{t}");
        assert!(
            t.contains("Alice & Carol\n  [....................]    0/1000 miles"),
            "{t}"
        );
        assert!(t.contains("stopped: needs a green light"), "{t}");
        assert!(t.contains("cards in the pile: 81"), "{t}");
        assert!(t.contains("To play: Alice."), "{t}");
        // No hand's card names appear in the public text.
        let hand = g.hand(Seat(1));
        let private = private(&g.private_view(Seat(1)), &|s: &str| s.to_string());
        for c in hand {
            assert!(private.contains(c.name(false)), "{private}");
        }
        assert!(!t.contains("your hand"), "{t}");
    }

    #[test]
    fn final_points_count_the_last_round_once() {
        let mut v = game().public_view();
        v.teams[0].total = 1200;
        v.teams[0].round_score = 700;
        assert!(
            alt(&v).contains("Alice & Carol 0 miles (stopped: needs a green light), 1900 points")
        );
        assert!(track(&v).contains("  score: 700 this round, 1900 in all"));
        v.finished = true;
        v.round = 1;
        let a = alt(&v);
        assert!(a.contains("final scores after 1 round:"), "{a}");
        assert!(a.contains("1200 points"), "{a}");
        assert!(track(&v).contains("  score: 1200\n"), "{}", track(&v));
    }

    /// One round has one score: "1500 this round, 2100 in all" set the round's points
    /// before its bonuses beside the final score.
    #[test]
    fn one_round_says_one_score() {
        let mut v = game().public_view();
        v.rounds = 1;
        v.teams[0].round_score = 1500;
        let t = track(&v);
        assert!(t.contains("  score: 1500 so far\n"), "{t}");
        v.finished = true;
        v.teams[0].total = 2100;
        let t = track(&v);
        assert!(t.contains("  score: 2100\n"), "{t}");
        assert!(!t.contains("this round") && !t.contains("in all"), "{t}");
        // Over several rounds the last round is told as scored, bonuses and all.
        v.rounds = 3;
        v.round = 3;
        v.history = vec![crate::games::card_race::RoundResult {
            round: 3,
            ended: crate::games::card_race::RoundEnd::NoCards,
            scores: vec![crate::games::card_race::RoundScore {
                team: 0,
                lines: Vec::new(),
                total: 1900,
            }],
        }];
        let t = track(&v);
        assert!(
            t.contains("  score: 1900 in the last round, 2100 in all"),
            "{t}"
        );
    }

    #[test]
    fn alt_is_one_sentence_per_team() {
        let a = alt(&game().public_view());
        assert_eq!(
            a,
            "1000 miles: round 1, trip 1000 miles, game to 5000: Alice & Carol 0 miles \
             (stopped: needs a green light), 0 points; Bob & Dave 0 miles (stopped: needs a \
             green light), 0 points."
        );
    }

    #[test]
    fn thousand_yards_says_protections_and_counters() {
        let seats: Vec<SeatSetup> = ["Alice", "Bob"]
            .iter()
            .map(|n| SeatSetup::named(*n))
            .collect();
        let options = crate::games::GameKind::ThousandYards
            .apply_options(None, "")
            .unwrap();
        let g = crate::games::GameKind::ThousandYards
            .setup(&options, &seats, Seed::from_u64(3))
            .unwrap();
        let crate::games::AnyPublicView::CardRace(mut v) = g.public_view() else {
            panic!("a card race")
        };
        v.teams[0]
            .safeties
            .push(crate::games::card_race::SafetyPlay {
                card: Card::Go,
                dirty_trick: true,
            });
        let t = track(&v);
        assert!(t.contains("  protections: "), "{t}");
        assert!(!t.contains("immunities"), "{t}");
        assert!(t.contains("* played as a counter"), "{t}");
        let crate::games::AnyPrivateView::CardRace(p) = g.private_view(Seat(0)) else {
            panic!("a card race")
        };
        let p = private(&p, &|s: &str| s.to_string());
        assert!(p.contains("; protections: -."), "{p}");
        assert!(p.contains("Counters: auto."), "{p}");
        // 1000 miles keeps its words.
        assert!(track(&game().public_view()).contains("  immunities: -"));
    }
}
