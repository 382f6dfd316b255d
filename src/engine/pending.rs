//! Who must act now, how long they have, and what they may choose.

use serde::{Deserialize, Serialize};

use super::seat::Seat;

/// How the orders of the listed seats are gathered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every listed seat gives a secret order; all are applied together.
    /// One seat acting alone (a card player's turn) is `All` with one seat.
    All,
    /// The first listed seat to order decides, and the step resolves at once.
    /// At the deadline the *first* listed seat's default order applies.
    /// (A dirty-trick window: the victim may counter until the next seat acts.)
    Any,
}

/// How long the step stays open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Window {
    /// The campaign's turn length.
    Turn,
    /// A shorter decision window set by the game's options, in seconds; the referee caps
    /// it at the turn length.
    Seconds(u64),
    /// A decision in the middle of a turn, as long as the campaign's turn: not a turn of
    /// its own, so no seat's clock runs and it does not count towards a round.
    Decision,
}

/// A game option: how long a decision asked in the middle of a turn waits. `turn` (the
/// default) is the race's turn length; a number of seconds is a shorter window (the referee
/// caps a longer one at the turn length). Stored races that kept a number read as before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DecisionWindow {
    #[default]
    Turn,
    Seconds(u64),
}

impl DecisionWindow {
    /// The step's window.
    pub fn window(self) -> Window {
        match self {
            DecisionWindow::Turn => Window::Decision,
            DecisionWindow::Seconds(n) => Window::Seconds(n),
        }
    }

    /// The number of seconds the host set, if any.
    pub fn seconds(self) -> Option<u64> {
        match self {
            DecisionWindow::Turn => None,
            DecisionWindow::Seconds(n) => Some(n),
        }
    }
}

impl std::fmt::Display for DecisionWindow {
    /// `300 s`, or `the turn's length`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecisionWindow::Turn => f.write_str("the turn's length"),
            DecisionWindow::Seconds(n) => write!(f, "{n} s"),
        }
    }
}

impl Serialize for DecisionWindow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            DecisionWindow::Turn => s.serialize_str("turn"),
            DecisionWindow::Seconds(n) => s.serialize_u64(*n),
        }
    }
}

impl<'de> Deserialize<'de> for DecisionWindow {
    /// `"turn"`, a number, or a number as text (option text reads every value as a word).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DecisionWindow, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = DecisionWindow;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("`turn` or a number of seconds")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<DecisionWindow, E> {
                Ok(DecisionWindow::Seconds(n))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<DecisionWindow, E> {
                u64::try_from(n)
                    .map(DecisionWindow::Seconds)
                    .map_err(|_| E::custom("expected `turn` or a number of seconds"))
            }
            fn visit_str<E: serde::de::Error>(self, t: &str) -> Result<DecisionWindow, E> {
                let t = t.trim();
                if t.eq_ignore_ascii_case("turn") {
                    return Ok(DecisionWindow::Turn);
                }
                t.parse::<u64>()
                    .map(DecisionWindow::Seconds)
                    .map_err(|_| E::custom("expected `turn` or a number of seconds"))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// The seats that must act now. Empty exactly when the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub mode: Mode,
    pub seats: Vec<Seat>,
    pub window: Window,
    /// A short public label for the step, e.g. "Turn 3 of 8" or "Bob's decision".
    pub label: String,
}

impl Pending {
    pub fn none() -> Pending {
        Pending {
            mode: Mode::All,
            seats: Vec::new(),
            window: Window::Turn,
            label: String::new(),
        }
    }

    /// Every listed seat orders at once.
    pub fn all(seats: Vec<Seat>, label: impl Into<String>) -> Pending {
        Pending {
            mode: Mode::All,
            seats,
            window: Window::Turn,
            label: label.into(),
        }
    }

    /// One seat acts.
    pub fn one(seat: Seat, label: impl Into<String>) -> Pending {
        Pending::all(vec![seat], label)
    }

    pub fn with_window(mut self, window: Window) -> Pending {
        self.window = window;
        self
    }

    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    pub fn includes(&self, seat: Seat) -> bool {
        self.seats.contains(&seat)
    }
}

/// One legal choice, as the text a player would type for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// Order text that parses back to this choice.
    pub order: String,
    /// A short button label.
    pub label: String,
    /// Choices that share a group go together (a card, then its targets).
    #[serde(default)]
    pub group: Option<String>,
}

impl Choice {
    pub fn new(order: impl Into<String>, label: impl Into<String>) -> Choice {
        Choice {
            order: order.into(),
            label: label.into(),
            group: None,
        }
    }

    pub fn grouped(mut self, group: impl Into<String>) -> Choice {
        self.group = Some(group.into());
        self
    }
}

/// What a seat is asked, with the legal choices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// The question, in a sentence.
    pub text: String,
    /// Legal choices. When `complete` is false they are a useful subset and
    /// `hint` explains the full order syntax.
    pub choices: Vec<Choice>,
    pub complete: bool,
    /// How to type an order by hand.
    pub hint: String,
}

/// An order as it reaches `apply`: validated, and marked when it was a default
/// played for a missed deadline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted<O> {
    pub seat: Seat,
    pub order: O,
    pub missed: bool,
}

impl<O> Submitted<O> {
    pub fn new(seat: Seat, order: O) -> Submitted<O> {
        Submitted {
            seat,
            order,
            missed: false,
        }
    }

    pub fn missed(seat: Seat, order: O) -> Submitted<O> {
        Submitted {
            seat,
            order,
            missed: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_window_reads_turn_a_number_or_a_number_as_text() {
        let read = |j: &str| serde_json::from_str::<DecisionWindow>(j).unwrap();
        assert_eq!(read("\"turn\""), DecisionWindow::Turn);
        assert_eq!(read("600"), DecisionWindow::Seconds(600));
        assert_eq!(read("\"120\""), DecisionWindow::Seconds(120));
        assert!(serde_json::from_str::<DecisionWindow>("\"soon\"").is_err());
        assert!(serde_json::from_str::<DecisionWindow>("-5").is_err());
        for w in [DecisionWindow::Turn, DecisionWindow::Seconds(90)] {
            assert_eq!(read(&serde_json::to_string(&w).unwrap()), w);
        }
        assert_eq!(DecisionWindow::Turn.window(), Window::Decision);
        assert_eq!(DecisionWindow::Seconds(9).window(), Window::Seconds(9));
    }
}
