//! Orders as text: reading what a player types (a card, then a target) and writing an
//! order back as a command and as a button's label.

use thiserror::Error;

use super::cards::{normalise, read_card};
use super::narrate::{a, capitalise};
use super::state::{CardRace, Order};
use crate::engine::Seat;

/// Order text that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("the order is empty; try `play 100`, `stop @Bob` or `junk 25`")]
    Empty,
    #[error("I don't know the card `{0}`; try `play 100`, `stop @Bob` or `junk 25`")]
    UnknownCard(String),
    #[error("there is no player called `{0}` at this table")]
    UnknownPlayer(String),
    #[error("`{0}` needs a card, like `{0} 25`")]
    MissingCard(String),
    #[error("{0} is played on your own car; leave out the name")]
    TargetNotNeeded(String),
    #[error("`{0}` takes nothing after it")]
    Trailing(String),
}

impl CardRace {
    /// Reads an order as typed (the `Game::parse_order` contract).
    pub(super) fn read_order_text(&self, seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        let raw = text.trim();
        // Names may hold spaces or hyphens: keep the target's text as typed.
        let (card_part, target_part) = match raw.split_once('@') {
            Some((a, b)) => (a, Some(b)),
            None => (raw, None),
        };
        let t = normalise(card_part);
        if t.is_empty() && target_part.is_none() {
            return Err(SyntaxError::Empty);
        }
        let single = |word: &str, order: Order| -> Result<Order, SyntaxError> {
            if target_part.is_some() {
                Err(SyntaxError::Trailing(word.into()))
            } else {
                Ok(order)
            }
        };
        match t.as_str() {
            "counter" | "dirty trick" | "coup fourre" | "coup fourré" | "yes" => {
                return single("counter", Order::Counter);
            }
            "decline" | "pass" | "no" | "let it stand" => return single("decline", Order::Decline),
            "draw" => return single("draw", Order::Draw),
            "extend" | "extension" => return single("extend", Order::Extend),
            "finish" | "end" | "no extension" => {
                return single("finish", Order::Finish);
            }
            _ => {}
        }
        let (junk, rest) =
            if let Some(r) = t.strip_prefix("junk").or_else(|| t.strip_prefix("discard")) {
                if r.is_empty() || r.starts_with(' ') {
                    (true, r.trim())
                } else {
                    (false, t.as_str())
                }
            } else if t == "play" {
                (false, "")
            } else if let Some(r) = t.strip_prefix("play ") {
                (false, r.trim())
            } else {
                (false, t.as_str())
            };
        if rest.is_empty() {
            return Err(SyntaxError::MissingCard(
                if junk { "junk" } else { "play" }.into(),
            ));
        }
        let (card, after) = read_card(rest)
            .ok_or_else(|| SyntaxError::UnknownCard(rest.chars().take(40).collect()))?;
        let target = match target_part {
            Some(name) => {
                // `stop on @Bob`, `stop at @Bob`.
                let after = after.trim_end_matches("on").trim_end_matches("at").trim();
                if !after.is_empty() {
                    return Err(SyntaxError::UnknownCard(rest.chars().take(40).collect()));
                }
                self.read_target(name)?
            }
            // Without @ the rest is a name, e.g. `stop bob`.
            None => self.read_target(after)?,
        };
        if junk {
            if target.is_some() {
                return Err(SyntaxError::Trailing(format!(
                    "junk {}",
                    self.card_name(card)
                )));
            }
            return Ok(Order::Junk { card });
        }
        if !card.is_attack() {
            if target.is_some() {
                return Err(SyntaxError::TargetNotNeeded(capitalise(&a(
                    self.card_name(card)
                ))));
            }
            return Ok(Order::Play { card, target: None });
        }
        // Against a single other team the target may be left out.
        let target = target.or_else(|| {
            let own = self.team_index(seat);
            let others: Vec<u8> = (0..self.teams.len() as u8).filter(|&t| t != own).collect();
            match others.as_slice() {
                [only] => Some(*only),
                _ => None,
            }
        });
        Ok(Order::Play { card, target })
    }

    /// An order as a player types it (the `Game::format_order` contract).
    pub(super) fn order_text(&self, order: &Order) -> String {
        match *order {
            Order::Play { card, target } => match target {
                Some(t) => format!(
                    "play {} @{}",
                    self.card_name(card),
                    self.target_seat_name(t)
                ),
                None => format!("play {}", self.card_name(card)),
            },
            Order::Junk { card } => format!("junk {}", self.card_name(card)),
            Order::Counter => "counter".into(),
            Order::Decline => "decline".into(),
            Order::Draw => "draw".into(),
            Order::Extend => "extend".into(),
            Order::Finish => "finish".into(),
        }
    }

    pub(super) fn target_seat_name(&self, team: u8) -> String {
        self.team(team)
            .and_then(|t| t.members.first())
            .map(|&s| self.name(s).to_string())
            .unwrap_or_default()
    }

    pub(super) fn read_target(&self, text: &str) -> Result<Option<u8>, SyntaxError> {
        let t = text.trim();
        let t = t
            .strip_prefix("on ")
            .or_else(|| t.strip_prefix("at "))
            .or_else(|| t.strip_prefix("->"))
            .or_else(|| t.strip_prefix('→'))
            .unwrap_or(t)
            .trim();
        let t = t.strip_prefix('@').unwrap_or(t).trim();
        if t.is_empty() {
            return Ok(None);
        }
        let wanted = normalise(t);
        Seat::all(self.players())
            .find(|&s| normalise(self.name(s)) == wanted)
            .map(|s| Some(self.team_index(s)))
            .ok_or_else(|| SyntaxError::UnknownPlayer(text.trim().chars().take(40).collect()))
    }

    pub(super) fn order_label(&self, order: &Order) -> String {
        match *order {
            Order::Play { card, target } => match target {
                Some(t) => format!("{} → {}", self.card_name(card), self.team_label(t)),
                None => self.card_name(card).to_string(),
            },
            Order::Junk { card } => format!("junk {}", self.card_name(card)),
            Order::Counter => format!("{}!", self.rules().dirty_trick_name),
            Order::Decline => "let it stand".into(),
            Order::Draw => "draw and play".into(),
            Order::Extend => "extend to 1000".into(),
            Order::Finish => format!("stop at {}", self.target),
        }
    }
}
