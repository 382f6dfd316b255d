//! Dream Mile's race options (docs/rules/dream-mile.md, *Setup*): what a race may set,
//! the maximum-speed menu a runner picks from when joining, and the options' help.

use serde::{Deserialize, Serialize};

use crate::engine::OptionDoc;

/// Race options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Speed points of a runner at the base maximum speed.
    pub starting_points: u32,
    /// The maximum speed a runner has without paying for more.
    pub base_max_speed: u8,
    /// The highest maximum speed a runner may buy.
    pub top_max_speed: u8,
    /// Starting points forfeited for each +1 of maximum speed.
    pub cost_per_speed: u32,
    /// Turns with orders; one automatic turn follows when `auto_final_turn` is on.
    pub ordered_turns: u8,
    /// The last turn plays min(remaining, maximum) for everyone, without orders.
    pub auto_final_turn: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            starting_points: 45,
            base_max_speed: 10,
            top_max_speed: 15,
            cost_per_speed: 3,
            ordered_turns: 7,
            auto_final_turn: true,
        }
    }
}

impl Options {
    pub fn total_turns(&self) -> u8 {
        self.ordered_turns + u8::from(self.auto_final_turn)
    }

    /// Starting points for a runner with maximum speed `max`.
    pub fn points_for(&self, max: u8) -> u32 {
        let bought = u32::from(max.saturating_sub(self.base_max_speed));
        self.starting_points
            .saturating_sub(bought.saturating_mul(self.cost_per_speed))
    }

    pub(super) fn read_max_speed(&self, choice: &str) -> Result<u8, String> {
        let text = choice.trim().to_ascii_lowercase();
        let text = text
            .strip_prefix("max=")
            .or_else(|| text.strip_prefix("max "))
            .unwrap_or(&text)
            .trim();
        let max: u8 = text.parse().map_err(|_| {
            format!(
                "the maximum speed must be a whole number from {} to {}",
                self.base_max_speed, self.top_max_speed
            )
        })?;
        if max < self.base_max_speed || max > self.top_max_speed {
            return Err(format!(
                "the maximum speed must be from {} to {}, not {max}",
                self.base_max_speed, self.top_max_speed
            ));
        }
        Ok(max)
    }
}

/// The maximum speeds a runner may choose when joining, as (label, choice text): what the
/// select menu after Join offers (docs/rules/dream-mile.md, *Setup*).
pub fn max_speed_menu(o: &Options) -> Vec<(String, String)> {
    (o.base_max_speed..=o.top_max_speed)
        .map(|max| {
            (
                format!("Max speed {max}: {} starting points", o.points_for(max)),
                format!("max {max}"),
            )
        })
        .collect()
}

pub(super) const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "starting-points",
        help: "speed points at the base maximum speed (45)",
    },
    OptionDoc {
        key: "base-max-speed",
        help: "maximum speed without paying (10)",
    },
    OptionDoc {
        key: "top-max-speed",
        help: "highest maximum speed a runner may buy (15)",
    },
    OptionDoc {
        key: "cost-per-speed",
        help: "starting points paid for each +1 of maximum (3)",
    },
    OptionDoc {
        key: "ordered-turns",
        help: "turns with orders (7)",
    },
    OptionDoc {
        key: "auto-final-turn",
        help: "an automatic last turn plays min(remaining, maximum) (yes)",
    },
];
