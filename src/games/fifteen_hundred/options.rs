//! Race options: distance, robots, rules, play mode, pace costs and the board, with their
//! help text and the checks made before a race is set up (docs/rules/1500m.md).

use serde::{Deserialize, Serialize};

use super::board::{Board, Distance};
use super::rules::BASE_PACE;
use crate::engine::{OptionDoc, OptionsError};

/// How orders are gathered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PlayMode {
    /// One secret order per runner carries the whole round (play over days).
    #[default]
    Orders,
    /// Each decision is asked when it falls due (groups playing at the same time).
    Live,
}

/// When the race stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    /// Once three runners (robots included) have finished: gold, silver and bronze.
    #[default]
    Medals,
    /// Once every player has finished (and the medals are awarded).
    All,
}

/// Race options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub distance: Distance,
    /// Robot runners added to the players.
    pub robots: u8,
    /// The advanced rules: wear costs, and the top three paying 3/2/1 on the last lap.
    pub advanced: bool,
    pub play: PlayMode,
    /// Mental strength cost of each pace level from 5 up; its length sets the top level.
    pub pace_costs: Vec<u8>,
    pub until: Until,
    /// Starting mental strength (`None`: 100 for 1500 m, 50 for 800 m).
    pub mental_strength: Option<u16>,
    /// A custom board file (TOML text); `None` is the standard board.
    pub board: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            distance: Distance::M1500,
            robots: 0,
            advanced: false,
            play: PlayMode::Orders,
            pace_costs: vec![0, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            until: Until::Medals,
            mental_strength: None,
            board: None,
        }
    }
}

impl Options {
    pub fn start_strength(&self) -> u16 {
        self.mental_strength.unwrap_or(match self.distance {
            Distance::M1500 => 100,
            Distance::M800 => 50,
        })
    }

    pub fn top_pace(&self) -> u8 {
        BASE_PACE + u8::try_from(self.pace_costs.len().saturating_sub(1)).unwrap_or(0)
    }

    /// The printed cost of a level.
    pub fn pace_cost(&self, level: u8) -> u16 {
        self.pace_costs
            .get(usize::from(level.saturating_sub(BASE_PACE)))
            .copied()
            .map(u16::from)
            .unwrap_or(0)
    }

    /// What moving from `from` to `to` costs: the level's cost, one less when going down.
    pub fn pace_change_cost(&self, from: u8, to: u8) -> u16 {
        let cost = self.pace_cost(to);
        if to < from {
            cost.saturating_sub(1)
        } else {
            cost
        }
    }

    pub fn board(&self) -> Result<Board, OptionsError> {
        match &self.board {
            Some(text) => Board::parse(text).map_err(|e| OptionsError::Invalid(e.to_string())),
            None => Board::standard().map_err(|e| OptionsError::Invalid(e.to_string())),
        }
    }
}

pub(super) const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "distance",
        help: "1500 (3 3/4 laps, 100 mental strength) or 800 (staggered start, 2 laps, 50)",
    },
    OptionDoc {
        key: "robots",
        help: "robot runners added to the players (0)",
    },
    OptionDoc {
        key: "advanced",
        help: "advanced rules: wear costs and 3/2/1 for the top three on the last lap (no)",
    },
    OptionDoc {
        key: "play",
        help: "orders (one secret order a round) or live (each decision in turn)",
    },
    OptionDoc {
        key: "pace-costs",
        help: "mental strength cost of each pace level from 5 (0,2,3,4,5,6,7,8,9,10)",
    },
    OptionDoc {
        key: "until",
        help: "medals (stop when three have finished) or all (when every player has)",
    },
    OptionDoc {
        key: "mental-strength",
        help: "starting mental strength (none: 100 for 1500, 50 for 800)",
    },
    OptionDoc {
        key: "board",
        help: "a custom board file's TOML text, given in JSON options or a replay script (none: the standard board)",
    },
];

impl Options {
    /// Refuses options no race can be run with.
    pub(super) fn check(&self) -> Result<(), OptionsError> {
        let board = self.board()?;
        if usize::from(self.robots) >= usize::from(board.lanes) {
            return Err(OptionsError::Invalid(format!(
                "at most {} robots fit on a board of {} lanes, with one player",
                board.lanes - 1,
                board.lanes
            )));
        }
        if self.pace_costs.is_empty() || self.pace_costs.len() > 20 {
            return Err(OptionsError::Invalid(
                "pace-costs lists 1 to 20 costs, from level 5 up".into(),
            ));
        }
        if self.pace_costs.first() != Some(&0) {
            return Err(OptionsError::Invalid(
                "pace-costs starts with level 5's cost, which is 0".into(),
            ));
        }
        if let Some(m) = self.mental_strength
            && (m == 0 || m > 1000)
        {
            return Err(OptionsError::Invalid(
                "mental-strength must be from 1 to 1000".into(),
            ));
        }
        Ok(())
    }

    /// How many players a race takes: one lane each, beside the robots.
    pub(super) fn seat_limits(&self) -> (usize, usize) {
        let lanes = self.board().map(|b| usize::from(b.lanes)).unwrap_or(8);
        let robots = usize::from(self.robots);
        let min = if robots > 0 { 1 } else { 2 };
        (min, lanes.saturating_sub(robots).max(min))
    }
}
