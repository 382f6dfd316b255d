//! Seats: who sits at the table, and whether a program plays for them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, numbered from 0 in seating order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index into per-seat vectors.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat at `index`, if it fits the 256 seats a table can hold.
    pub fn from_index(index: usize) -> Option<Seat> {
        u8::try_from(index).ok().map(Seat)
    }

    /// Every seat of a table of `n`.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> {
        (0..n.min(256)).filter_map(Seat::from_index)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", u16::from(self.0) + 1)
    }
}

/// How well a program plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BotLevel {
    /// A uniformly random legal order.
    Random,
    /// The game's own sound heuristic.
    #[default]
    Heuristic,
    /// Decides by simulation: redraws what the seat cannot see and plays each candidate
    /// forward with heuristic bots (`engine::expert`).
    Expert,
}

impl BotLevel {
    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Heuristic => "heuristic",
            BotLevel::Expert => "expert",
        }
    }

    pub fn parse(text: &str) -> Option<BotLevel> {
        let t = text.trim().to_ascii_lowercase();
        BotLevel::ALL
            .into_iter()
            .find(|l| l.name() == t || l.aliases().contains(&t.as_str()))
    }

    /// Every level, in the order help lists them.
    pub const ALL: [BotLevel; 3] = [BotLevel::Heuristic, BotLevel::Random, BotLevel::Expert];

    /// Other words [`BotLevel::parse`] reads as this level.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            BotLevel::Random => &["easy"],
            BotLevel::Heuristic => &["smart", "normal"],
            BotLevel::Expert => &["hard"],
        }
    }
}

/// What a game is told about one seat when it is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSetup {
    /// The name shown for the seat (a runner's or a player's name).
    pub name: String,
    /// A seat-specific choice made before the start, as text the game parses
    /// (Dream Mile: the runner's maximum speed). `None` takes the default.
    #[serde(default)]
    pub choice: Option<String>,
}

impl SeatSetup {
    pub fn named(name: impl Into<String>) -> SeatSetup {
        SeatSetup {
            name: name.into(),
            choice: None,
        }
    }
}
