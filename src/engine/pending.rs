//! Who must act now, how long they have, and what they may choose.

use serde::{Deserialize, Serialize};

use super::Seat;

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
    /// A short decision window set by the game's options, in seconds.
    Seconds(u64),
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
