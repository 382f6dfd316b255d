//! Orders: their types and their canonical text (docs/rules/1500m.md).
//!
//! A round order carries a whole round at once (`card 10 bid 3 actions first,move3,safe4
//! pace +1 move farthest`); live play asks for one part at a time. Reading the text is in
//! [`super::parse`]; legality is checked against the state in [`super::legality`].

use std::fmt;

use serde::{Deserialize, Serialize};

use super::path::{Aim, Intent};

/// The extra actions on the bid track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Safe3,
    Safe4,
    Move2,
    Move3,
    MoveFirst,
    Pace1,
    Pace2,
}

impl Action {
    pub const ALL: [Action; 7] = [
        Action::Safe3,
        Action::Safe4,
        Action::Move2,
        Action::Move3,
        Action::MoveFirst,
        Action::Pace1,
        Action::Pace2,
    ];

    /// The ranking used when an order gives none, or its list runs out.
    pub const DEFAULT_RANKING: [Action; 7] = [
        Action::Move3,
        Action::MoveFirst,
        Action::Move2,
        Action::Safe4,
        Action::Safe3,
        Action::Pace2,
        Action::Pace1,
    ];

    /// The word players type.
    pub fn word(self) -> &'static str {
        match self {
            Action::Safe3 => "safe3",
            Action::Safe4 => "safe4",
            Action::Move2 => "move2",
            Action::Move3 => "move3",
            Action::MoveFirst => "first",
            Action::Pace1 => "pace1",
            Action::Pace2 => "pace2",
        }
    }

    /// The name on the board.
    pub fn title(self) -> &'static str {
        match self {
            Action::Safe3 => "Safe 3",
            Action::Safe4 => "Safe 4",
            Action::Move2 => "Move +2",
            Action::Move3 => "Move +3",
            Action::MoveFirst => "Move First",
            Action::Pace1 => "Pace +1",
            Action::Pace2 => "Pace +2",
        }
    }

    pub fn read(word: &str) -> Option<Action> {
        let w: String = word
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect();
        Some(match w.as_str() {
            "safe3" | "s3" => Action::Safe3,
            "safe4" | "s4" => Action::Safe4,
            "move2" | "move+2" | "m2" | "+2" => Action::Move2,
            "move3" | "move+3" | "m3" | "+3" => Action::Move3,
            "first" | "movefirst" | "mf" => Action::MoveFirst,
            "pace1" | "pace+1" | "p1" => Action::Pace1,
            "pace2" | "pace+2" | "p2" => Action::Pace2,
            _ => return None,
        })
    }

    /// Extra movement points in the cards phase.
    pub fn bonus(self) -> u8 {
        match self {
            Action::Move2 => 2,
            Action::Move3 => 3,
            Action::MoveFirst => 1,
            _ => 0,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// Ranked preferred actions. The list runs out into [`Action::DEFAULT_RANKING`] unless
/// `decline` is set, in which case the runner takes nothing more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preferences {
    pub ranked: Vec<Action>,
    pub decline: bool,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            ranked: Action::DEFAULT_RANKING.to_vec(),
            decline: false,
        }
    }
}

impl Preferences {
    /// The first action still free, or `None`.
    pub fn pick(&self, taken: &[Action]) -> Option<Action> {
        let free = |a: &&Action| !taken.contains(a);
        if let Some(a) = self.ranked.iter().find(free) {
            return Some(*a);
        }
        if self.decline {
            return None;
        }
        Action::DEFAULT_RANKING.iter().find(free).copied()
    }
}

/// What a runner does with its pace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaceIntent {
    /// Keep the level, and pay for it even if it runs short.
    Keep,
    /// Keep the level if it can pay for it, else drop to the highest level it can pay for.
    Afford,
    /// One level up.
    Up,
    /// Down this many levels.
    Down(u8),
    /// To this level (down any number, keep, or one up).
    Level(u8),
}

/// A whole round's secret order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundOrder {
    pub card: u8,
    /// `None` only for a runner with no mental strength left.
    pub bid: Option<u8>,
    pub actions: Preferences,
    pub pace: PaceIntent,
    /// The cards-phase move.
    pub run: Intent,
    /// The pace-phase move.
    pub then: Intent,
}

/// A typed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Order {
    /// Play by orders: the whole round.
    Round(RoundOrder),
    /// Live play: the secret movement card and bid.
    Bid { card: u8, bid: Option<u8> },
    /// Live play: the action chosen (or none).
    Action { action: Option<Action> },
    /// Live play: the cards-phase move.
    Move { intent: Intent },
    /// Live play: the pace and the pace-phase move.
    Pace { pace: PaceIntent, intent: Intent },
    /// Text that reads well but answers another question than the one asked now. It never
    /// validates, so it is never stored or applied.
    NotAsked { misfit: Misfit },
}

/// How text fails to answer what is asked now; [`Misfit::sentence`] tells the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Misfit {
    RaceOver,
    /// Live play's first question is the card and the bid alone.
    CardAndBidOnly,
    ActionNow,
    OneAction,
    MoveNow,
    PaceNow,
    PaceThenMove,
}

impl Misfit {
    pub fn sentence(self) -> &'static str {
        match self {
            Misfit::RaceOver => "the race is over",
            Misfit::CardAndBidOnly => {
                "in live play only the movement card and bid are sent now; actions, pace and moves are asked when your turn comes"
            }
            Misfit::ActionNow => "now you choose an action",
            Misfit::OneAction => "choose one action (or none)",
            Misfit::MoveNow => "now you move",
            Misfit::PaceNow => "now you choose your pace and move",
            Misfit::PaceThenMove => "send your pace, then your move",
        }
    }
}

// The texts below are written straight into one string (a round's orders are written
// every round, so they should not build a string per part).

/// A pace intent's text.
struct PaceText(PaceIntent);

impl fmt::Display for PaceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            PaceIntent::Keep => f.write_str("keep"),
            PaceIntent::Afford => f.write_str("afford"),
            PaceIntent::Up => f.write_str("+1"),
            PaceIntent::Down(n) => write!(f, "-{n}"),
            PaceIntent::Level(l) => write!(f, "{l}"),
        }
    }
}

/// A movement intent's text.
struct IntentText<'a>(&'a Intent);

impl fmt::Display for IntentText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.aim {
            Aim::Farthest => f.write_str("farthest")?,
            Aim::Points(0) => f.write_str("none")?,
            Aim::Points(n) => write!(f, "{n}")?,
            Aim::To { lane, pos, finish } => {
                write!(f, "to {lane}:{}{}", if finish { "f" } else { "" }, pos + 1)?;
            }
        }
        match self.0.max_lane {
            Some(k) => write!(f, " lane<={k}"),
            None => Ok(()),
        }
    }
}

/// Action preferences' text.
struct ActionsText<'a>(&'a Preferences);

impl fmt::Display for ActionsText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = self.0.ranked.iter().map(|a| a.word());
        let decline = self.0.decline.then_some("none");
        for (n, w) in words.chain(decline).enumerate() {
            if n > 0 {
                f.write_str(",")?;
            }
            f.write_str(w)?;
        }
        Ok(())
    }
}

/// A bid's text.
struct BidText(Option<u8>);

impl fmt::Display for BidText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(b) => write!(f, "{b}"),
            None => f.write_str("none"),
        }
    }
}

pub fn pace_text(p: PaceIntent) -> String {
    PaceText(p).to_string()
}

pub fn intent_text(i: &Intent) -> String {
    IntentText(i).to_string()
}

pub fn actions_text(p: &Preferences) -> String {
    ActionsText(p).to_string()
}

/// The canonical text of an order; it reads back to the same order.
pub fn order_text(order: &Order) -> String {
    let mut out = String::new();
    write_order(&mut out, order);
    out
}

/// Writes [`order_text`] into `out` (cleared first), keeping its buffer.
pub fn write_order(out: &mut String, order: &Order) {
    use std::fmt::Write;
    out.clear();
    // Writing to a String cannot fail.
    let _ = match order {
        Order::Round(r) => write!(
            out,
            "card {} bid {} actions {} pace {} move {} then {}",
            r.card,
            BidText(r.bid),
            ActionsText(&r.actions),
            PaceText(r.pace),
            IntentText(&r.run),
            IntentText(&r.then)
        ),
        Order::Bid { card, bid } => write!(out, "card {card} bid {}", BidText(*bid)),
        Order::Action { action } => {
            write!(out, "action {}", action.map_or("none", |a| a.word()))
        }
        Order::Move { intent } => write!(out, "move {}", IntentText(intent)),
        Order::Pace { pace, intent } => {
            write!(out, "pace {} move {}", PaceText(*pace), IntentText(intent))
        }
        // Never stored, so never shown: the refusal is what the player reads.
        Order::NotAsked { misfit } => write!(out, "not asked: {}", misfit.sentence()),
    };
}
