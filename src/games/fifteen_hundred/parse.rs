//! Reading order text: its words, its clauses, and the order they answer.
//!
//! [`parse`] is a function of the text and of an [`Asked`], a plain value: the question
//! asked now (it decides what bare words mean: `7` is a pace when the pace is asked and a
//! number of points when a move is) and the seat's defaults (parts left out take them, so the
//! canonical text is whole and reads back the same). It refuses only text that cannot be
//! read; text that reads well but answers another question becomes [`Order::NotAsked`],
//! which `validate` refuses with a legality error.

use thiserror::Error;

use super::order::{Action, Misfit, Order, PaceIntent, Preferences, RoundOrder};
use super::path::{Aim, Intent};

/// The question a seat is asked now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Play by orders: the whole round.
    Round,
    /// Live play: the movement card and bid.
    CardAndBid,
    Action,
    Move,
    Pace,
    /// The race is over.
    Nothing,
}

/// All that reading an order needs beside its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub question: Question,
    /// What each part left out becomes (the card and bid are the seat's own).
    pub defaults: RoundOrder,
    /// The step's help, told after what cannot be read.
    pub help: &'static str,
}

/// A player's word as an error message shows it: long garbage is cut short.
fn short(word: &str) -> String {
    const MAX: usize = 24;
    if word.chars().count() <= MAX {
        word.to_string()
    } else {
        format!("{}…", word.chars().take(MAX).collect::<String>())
    }
}

/// Order text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("the order is empty; {0}")]
    Empty(String),
    #[error("I don't know the word `{}` here; {}", short(.0), .1)]
    UnknownWord(String, String),
    #[error("`{0}` needs a value, like `{1}`")]
    MissingValue(&'static str, &'static str),
    #[error("`{}` is not a number for `{clause}`", short(text))]
    BadNumber { clause: &'static str, text: String },
    #[error(
        "`{}` is not an action; the actions are safe3, safe4, move2, move3, first, pace1, pace2 (or none)",
        short(.0)
    )]
    UnknownAction(String),
    #[error("{0} is listed twice in your actions")]
    DuplicateAction(Action),
    #[error("`{0}` is given twice")]
    Repeated(&'static str),
    #[error("`{}` is not a pace; use keep, afford, +1, -N (down N levels) or a level from 5", short(.0))]
    BadPace(String),
    #[error(
        "`{0}` is not a space; name one as lane:space, like 3:17, or 3:f2 past the finish line"
    )]
    BadSpace(String),
    #[error(
        "`{}` is not a move; use farthest, a number of points, none, or to lane:space, each optionally with lane<=K",
        short(.0)
    )]
    BadMove(String),
}

const KEYWORDS: [&str; 7] = ["card", "bid", "actions", "action", "pace", "move", "then"];

/// The clauses of an order, as typed.
#[derive(Debug, Default)]
pub struct Clauses {
    pub card: Option<u8>,
    pub bid: Option<Option<u8>>,
    pub actions: Option<Preferences>,
    pub pace: Option<PaceIntent>,
    pub run: Option<Intent>,
    pub then: Option<Intent>,
    /// Words before any keyword (a bare action or move in live play).
    pub bare: Vec<String>,
}

fn number(clause: &'static str, text: &str) -> Result<u8, SyntaxError> {
    text.trim_start_matches('+')
        .parse::<u8>()
        .map_err(|_| SyntaxError::BadNumber {
            clause,
            text: text.chars().take(20).collect(),
        })
}

/// Splits text into lowercase words, keeping `lane<=3` together.
fn words(text: &str) -> Vec<String> {
    let mut t = text.trim().to_ascii_lowercase();
    for (from, to) in [
        (" <=", "<="),
        ("<= ", "<="),
        ("≤", "<="),
        (" ,", ","),
        (", ", ","),
    ] {
        while t.contains(from) {
            t = t.replace(from, to);
        }
    }
    t.split_whitespace().map(str::to_string).collect()
}

pub fn read_pace(word: &str) -> Result<PaceIntent, SyntaxError> {
    Ok(match word {
        "keep" | "hold" | "same" | "=" => PaceIntent::Keep,
        "afford" | "auto" => PaceIntent::Afford,
        "+1" | "up" => PaceIntent::Up,
        w if w.starts_with('-') => {
            let n = w
                .trim_start_matches('-')
                .parse::<u8>()
                .map_err(|_| SyntaxError::BadPace(w.into()))?;
            if n == 0 {
                PaceIntent::Keep
            } else {
                PaceIntent::Down(n)
            }
        }
        w => PaceIntent::Level(
            w.parse::<u8>()
                .map_err(|_| SyntaxError::BadPace(w.into()))?,
        ),
    })
}

/// Reads `3:17` or `3:f2` into (lane, 0-based index, on the finish template).
pub fn read_space(word: &str) -> Result<(u8, u16, bool), SyntaxError> {
    let bad = || SyntaxError::BadSpace(word.chars().take(20).collect());
    let (lane, space) = word.split_once(':').ok_or_else(bad)?;
    let lane: u8 = lane.parse().map_err(|_| bad())?;
    let (finish, space) = match space.strip_prefix('f') {
        Some(rest) => (true, rest),
        None => (false, space),
    };
    let space: u16 = space.parse().map_err(|_| bad())?;
    if space == 0 || lane == 0 {
        return Err(bad());
    }
    Ok((lane, space - 1, finish))
}

/// Reads a movement intent from its words.
pub fn read_intent(ws: &[String]) -> Result<Intent, SyntaxError> {
    let mut aim = None;
    let mut max_lane = None;
    let mut i = 0;
    while let Some(w) = ws.get(i) {
        i += 1;
        let w = w.as_str();
        if let Some(k) = w
            .strip_prefix("lane<=")
            .or_else(|| w.strip_prefix("lanes<="))
        {
            max_lane = Some(number("lane<=", k)?);
            continue;
        }
        if w == "inside" || w == "lane<=" {
            let k = ws
                .get(i)
                .ok_or(SyntaxError::MissingValue("inside", "inside 2"))?;
            i += 1;
            max_lane = Some(number("inside", k)?);
            continue;
        }
        if aim.is_some() {
            return Err(SyntaxError::BadMove(w.into()));
        }
        aim = Some(match w {
            "farthest" | "far" | "max" | "best" => Aim::Farthest,
            "none" | "stay" | "0" => Aim::Points(0),
            "to" => {
                let s = ws
                    .get(i)
                    .ok_or(SyntaxError::MissingValue("to", "to 3:17"))?;
                i += 1;
                let (lane, pos, finish) = read_space(s)?;
                Aim::To { lane, pos, finish }
            }
            w if w.contains(':') => {
                let (lane, pos, finish) = read_space(w)?;
                Aim::To { lane, pos, finish }
            }
            w => Aim::Points(
                w.parse::<u8>()
                    .map_err(|_| SyntaxError::BadMove(w.into()))?,
            ),
        });
    }
    Ok(Intent {
        aim: aim.unwrap_or(Aim::Farthest),
        max_lane,
    })
}

fn read_actions(ws: &[String]) -> Result<Preferences, SyntaxError> {
    let mut ranked = Vec::new();
    let mut decline = false;
    for part in ws.join(",").split(',').filter(|p| !p.is_empty()) {
        if decline {
            return Err(SyntaxError::UnknownAction(format!("{part} (after none)")));
        }
        if part == "none" || part == "nothing" {
            decline = true;
            continue;
        }
        let a = Action::read(part).ok_or_else(|| SyntaxError::UnknownAction(part.into()))?;
        if ranked.contains(&a) {
            return Err(SyntaxError::DuplicateAction(a));
        }
        ranked.push(a);
    }
    if ranked.is_empty() && !decline {
        return Err(SyntaxError::MissingValue("actions", "actions first,move3"));
    }
    Ok(Preferences { ranked, decline })
}

/// Splits order text into its clauses.
pub fn read_clauses(text: &str, help: &str) -> Result<Clauses, SyntaxError> {
    let ws = words(text);
    if ws.is_empty() {
        return Err(SyntaxError::Empty(help.into()));
    }
    let mut c = Clauses::default();
    let mut i = 0;
    while i < ws.len() {
        let Some(head) = ws.get(i) else { break };
        if !KEYWORDS.contains(&head.as_str()) {
            if c.card.is_some()
                || c.bid.is_some()
                || c.actions.is_some()
                || c.pace.is_some()
                || c.run.is_some()
            {
                return Err(SyntaxError::UnknownWord(head.clone(), help.into()));
            }
            c.bare.push(head.clone());
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while ws.get(j).is_some_and(|w| !KEYWORDS.contains(&w.as_str())) {
            j += 1;
        }
        let args = ws.get(i + 1..j).unwrap_or(&[]);
        let first = args.first().map(String::as_str);
        match head.as_str() {
            "card" => {
                let v = first.ok_or(SyntaxError::MissingValue("card", "card 10"))?;
                if c.card.replace(number("card", v)?).is_some() {
                    return Err(SyntaxError::Repeated("card"));
                }
                if let Some(extra) = args.get(1) {
                    return Err(SyntaxError::UnknownWord(extra.clone(), help.into()));
                }
            }
            "bid" => {
                let v = first.ok_or(SyntaxError::MissingValue("bid", "bid 3"))?;
                let bid = if v == "none" || v == "pass" {
                    None
                } else {
                    Some(number("bid", v)?)
                };
                if c.bid.replace(bid).is_some() {
                    return Err(SyntaxError::Repeated("bid"));
                }
                if let Some(extra) = args.get(1) {
                    return Err(SyntaxError::UnknownWord(extra.clone(), help.into()));
                }
            }
            "actions" | "action" => {
                if c.actions.replace(read_actions(args)?).is_some() {
                    return Err(SyntaxError::Repeated("actions"));
                }
            }
            "pace" => {
                let (p, rest) = match args {
                    [] => return Err(SyntaxError::MissingValue("pace", "pace +1")),
                    [down, n, rest @ ..] if down == "down" && n != "to" => {
                        (read_pace(&format!("-{n}"))?, rest)
                    }
                    [down, to, n, rest @ ..] if down == "down" && to == "to" => {
                        (read_pace(n)?, rest)
                    }
                    [p, rest @ ..] => (read_pace(p)?, rest),
                };
                if let Some(extra) = rest.first() {
                    return Err(SyntaxError::UnknownWord(extra.clone(), help.into()));
                }
                if c.pace.replace(p).is_some() {
                    return Err(SyntaxError::Repeated("pace"));
                }
            }
            "move" => {
                if c.run.replace(read_intent(args)?).is_some() {
                    return Err(SyntaxError::Repeated("move"));
                }
            }
            _ => {
                if c.then.replace(read_intent(args)?).is_some() {
                    return Err(SyntaxError::Repeated("then"));
                }
            }
        }
        i = j;
    }
    Ok(c)
}

/// Reads `text` as the answer to `asked`.
pub fn parse(text: &str, asked: &Asked) -> Result<Order, SyntaxError> {
    let c = read_clauses(text, asked.help)?;
    match asked.question {
        Question::Nothing => Ok(not_asked(Misfit::RaceOver)),
        Question::Round => round_order(c, asked),
        Question::CardAndBid => card_and_bid(c, asked),
        Question::Action => action(c, asked.help),
        Question::Move => move_order(c),
        Question::Pace => pace_order(c),
    }
}

fn not_asked(misfit: Misfit) -> Order {
    Order::NotAsked { misfit }
}

fn no_bare_words(c: &Clauses, help: &str) -> Result<(), SyntaxError> {
    match c.bare.first() {
        Some(w) => Err(SyntaxError::UnknownWord(w.clone(), help.to_string())),
        None => Ok(()),
    }
}

fn round_order(c: Clauses, asked: &Asked) -> Result<Order, SyntaxError> {
    no_bare_words(&c, asked.help)?;
    let d = asked.defaults.clone();
    let run = c.run.unwrap_or(d.run);
    Ok(Order::Round(RoundOrder {
        card: c.card.unwrap_or(d.card),
        bid: c.bid.unwrap_or(d.bid),
        actions: c.actions.unwrap_or(d.actions),
        pace: c.pace.unwrap_or(d.pace),
        then: c.then.unwrap_or_else(|| run.clone()),
        run,
    }))
}

fn card_and_bid(c: Clauses, asked: &Asked) -> Result<Order, SyntaxError> {
    no_bare_words(&c, asked.help)?;
    if c.actions.is_some() || c.pace.is_some() || c.run.is_some() || c.then.is_some() {
        return Ok(not_asked(Misfit::CardAndBidOnly));
    }
    Ok(Order::Bid {
        card: c.card.unwrap_or(asked.defaults.card),
        bid: c.bid.unwrap_or(asked.defaults.bid),
    })
}

fn action(c: Clauses, help: &str) -> Result<Order, SyntaxError> {
    if c.card.is_some()
        || c.bid.is_some()
        || c.pace.is_some()
        || c.run.is_some()
        || c.then.is_some()
    {
        return Ok(not_asked(Misfit::ActionNow));
    }
    let prefs = match c.actions {
        Some(p) => p,
        None => read_clauses(&format!("actions {}", c.bare.join(",")), help)?
            .actions
            .unwrap_or_default(),
    };
    Ok(match (prefs.ranked.as_slice(), prefs.decline) {
        ([a], false) => Order::Action { action: Some(*a) },
        ([], true) => Order::Action { action: None },
        _ => not_asked(Misfit::OneAction),
    })
}

fn move_order(c: Clauses) -> Result<Order, SyntaxError> {
    if c.card.is_some()
        || c.bid.is_some()
        || c.actions.is_some()
        || c.pace.is_some()
        || c.then.is_some()
    {
        return Ok(not_asked(Misfit::MoveNow));
    }
    let intent = match c.run {
        Some(i) => i,
        None => read_intent(&c.bare)?,
    };
    Ok(Order::Move { intent })
}

fn pace_order(c: Clauses) -> Result<Order, SyntaxError> {
    if c.card.is_some() || c.bid.is_some() || c.actions.is_some() || c.then.is_some() {
        return Ok(not_asked(Misfit::PaceNow));
    }
    let (pace, intent) = match (c.pace, c.bare.split_first()) {
        (Some(p), None) => (p, c.run.unwrap_or_else(Intent::farthest)),
        (None, Some((p, rest))) if c.run.is_none() => (read_pace(p)?, read_intent(rest)?),
        (None, None) => (PaceIntent::Afford, c.run.unwrap_or_else(Intent::farthest)),
        _ => return Ok(not_asked(Misfit::PaceThenMove)),
    };
    Ok(Order::Pace { pace, intent })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen_hundred::order::order_text;

    #[test]
    fn clauses_read_in_any_order_with_spaces_around_lane_limits() {
        let c = read_clauses(
            "Pace +1 card 10 BID 3 actions first, move3,safe4 move farthest lane <= 2",
            "",
        )
        .unwrap();
        assert_eq!(c.card, Some(10));
        assert_eq!(c.bid, Some(Some(3)));
        assert_eq!(c.pace, Some(PaceIntent::Up));
        let a = c.actions.unwrap();
        assert_eq!(
            a.ranked,
            vec![Action::MoveFirst, Action::Move3, Action::Safe4]
        );
        assert!(!a.decline);
        assert_eq!(
            c.run,
            Some(Intent {
                aim: Aim::Farthest,
                max_lane: Some(2)
            })
        );
    }

    #[test]
    fn syntax_errors_name_the_problem() {
        let e = read_clauses("card ten", "").unwrap_err();
        assert_eq!(e.to_string(), "`ten` is not a number for `card`");
        let e = read_clauses("actions first,sprint", "").unwrap_err();
        assert!(e.to_string().contains("`sprint` is not an action"), "{e}");
        let e = read_clauses("actions first,first", "").unwrap_err();
        assert_eq!(e.to_string(), "Move First is listed twice in your actions");
        let e = read_clauses("pace fast", "").unwrap_err();
        assert!(e.to_string().starts_with("`fast` is not a pace"), "{e}");
        let e = read_clauses("move to 3-17", "").unwrap_err();
        assert!(e.to_string().starts_with("`3-17` is not a space"), "{e}");
        let e = read_clauses("card 9 card 10", "").unwrap_err();
        assert_eq!(e, SyntaxError::Repeated("card"));
        let e = read_clauses("   ", "send card and bid").unwrap_err();
        assert_eq!(e.to_string(), "the order is empty; send card and bid");
    }

    #[test]
    fn pace_words() {
        assert_eq!(read_pace("-3").unwrap(), PaceIntent::Down(3));
        assert_eq!(read_pace("7").unwrap(), PaceIntent::Level(7));
        assert_eq!(read_pace("up").unwrap(), PaceIntent::Up);
        let c = read_clauses("pace down to 6", "").unwrap();
        assert_eq!(c.pace, Some(PaceIntent::Level(6)));
        let c = read_clauses("pace down 2", "").unwrap();
        assert_eq!(c.pace, Some(PaceIntent::Down(2)));
    }

    #[test]
    fn canonical_text_reads_back() {
        let order = Order::Round(RoundOrder {
            card: 10,
            bid: Some(3),
            actions: Preferences {
                ranked: vec![Action::MoveFirst, Action::Move3],
                decline: true,
            },
            pace: PaceIntent::Down(2),
            run: Intent {
                aim: Aim::Points(6),
                max_lane: Some(1),
            },
            then: Intent {
                aim: Aim::To {
                    lane: 2,
                    pos: 0,
                    finish: true,
                },
                max_lane: None,
            },
        });
        let text = order_text(&order);
        assert_eq!(
            text,
            "card 10 bid 3 actions first,move3,none pace -2 move 6 lane<=1 then to 2:f1"
        );
        let c = read_clauses(&text, "").unwrap();
        let Order::Round(r) = &order else { panic!() };
        assert_eq!(c.card, Some(r.card));
        assert_eq!(c.actions.as_ref(), Some(&r.actions));
        assert_eq!(c.run.as_ref(), Some(&r.run));
        assert_eq!(c.then.as_ref(), Some(&r.then));
    }
}
