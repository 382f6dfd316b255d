//! What `photofinish sim` asks of a game's simulation: [`SimArgs`], and which bots it
//! seats ([`SimBots`]).

use crate::engine::BotLevel;

/// What `photofinish sim` was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimArgs {
    /// Races or games to play.
    pub count: u64,
    pub seed: u64,
    pub players: Option<usize>,
    /// Extra `key=value` options, game-specific (e.g. `track=wild`).
    pub options: String,
    /// Which bots play the seats.
    pub bots: SimBots,
}

/// Which bots a simulation seats (`photofinish sim --bots`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SimBots {
    /// Each game's own mix (historically random and heuristic bots together).
    #[default]
    Mixed,
    /// These levels seat by seat, repeated when there are more seats than levels: one
    /// level plays every seat.
    Each(Vec<BotLevel>),
}

impl SimBots {
    /// Reads `mixed`, one level (`heuristic`), or a comma list with one level per seat.
    pub fn parse(text: &str) -> Result<SimBots, String> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("mixed") {
            return Ok(SimBots::Mixed);
        }
        let mut levels = Vec::new();
        for part in text.split(',') {
            let level = BotLevel::parse(part).ok_or_else(|| {
                format!(
                    "`{}` is not a bot level; write mixed, or one of heuristic, random, expert \
                     (a comma list for one per seat)",
                    part.trim()
                )
            })?;
            levels.push(level);
        }
        Ok(SimBots::Each(levels))
    }

    /// The text `parse` reads back (`mixed`, `heuristic`, `heuristic,random`).
    pub fn name(&self) -> String {
        match self {
            SimBots::Each(levels) if !levels.is_empty() => levels
                .iter()
                .map(|l| l.name())
                .collect::<Vec<_>>()
                .join(","),
            _ => "mixed".into(),
        }
    }

    /// Whether any seat plays at `level`.
    pub fn has(&self, level: BotLevel) -> bool {
        matches!(self, SimBots::Each(levels) if levels.contains(&level))
    }

    /// The level of seat `index`, or `None` where the game's own mix decides.
    pub fn level(&self, index: usize) -> Option<BotLevel> {
        match self {
            SimBots::Mixed => None,
            SimBots::Each(levels) if levels.is_empty() => None,
            SimBots::Each(levels) => levels.get(index % levels.len()).copied(),
        }
    }
}
