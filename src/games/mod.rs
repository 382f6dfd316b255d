//! The games: one module per game, each pure and deterministic (no I/O, no async).
//!
//! Each game implements [`crate::engine::Game`] and keeps its replay script format and
//! its simulation summary beside its rules.

pub mod card_race;
pub mod dream_mile;
pub mod fifteen_hundred;
pub mod length;
pub mod magical_athlete;
pub mod registry;
pub mod strength;
pub mod words;

#[cfg(test)]
mod autopilot_tests;
#[cfg(test)]
mod expert_tests;
#[cfg(test)]
mod label_tests;
#[cfg(test)]
mod replay_seeds;
#[cfg(test)]
mod sim_bots;

pub use registry::{AnyEvent, AnyGame, AnyOrder, AnyPrivateView, AnyPublicView, GameKind};

use serde_json::Value;

use crate::engine::BotLevel;
use thiserror::Error;

/// Why a replay script was refused; one line that names the turn and the player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error("the script is not valid JSON: {0}")]
    Json(String),
    #[error("the script names no game, or a game photofinish does not know: {0}")]
    UnknownGame(String),
    #[error("{0}")]
    Script(String),
    #[error("turn {turn}: {reason}")]
    Turn { turn: usize, reason: String },
    #[error("turn {turn}, {player}: {reason}")]
    Order {
        turn: usize,
        player: String,
        reason: String,
    },
}

/// A replay's result: the JSON it prints, and the public view after each turn (for
/// `photofinish render`).
#[derive(Debug, Clone)]
pub struct Replay {
    pub output: Value,
    pub views: Vec<AnyPublicView>,
}

/// Runs a replay script (JSON text) on the engine alone.
pub fn replay(text: &str) -> Result<Replay, ReplayError> {
    let script: Value = serde_json::from_str(text).map_err(|e| ReplayError::Json(e.to_string()))?;
    let name = script.get("game").and_then(Value::as_str).unwrap_or("");
    let kind =
        GameKind::from_slug(name).ok_or_else(|| ReplayError::UnknownGame(name.to_string()))?;
    match kind {
        GameKind::DreamMile => dream_mile::replay::run(script),
        GameKind::MilleBornes | GameKind::ThousandYards => card_race::replay::run(kind, script),
        GameKind::FifteenHundred => fifteen_hundred::replay::run(script),
        GameKind::MagicalAthlete => magical_athlete::replay::run(script),
    }
}

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
                    "`{}` is not a bot level; write mixed, or levels such as heuristic,random",
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

fn summary<S: std::fmt::Display + serde::Serialize>(s: S) -> Result<(String, Value), String> {
    let json = serde_json::to_value(&s).map_err(|e| e.to_string())?;
    Ok((s.to_string(), json))
}

/// Runs bots against each other and returns a printable summary and its JSON; an expert
/// level's decisions are timed on `watch`.
pub fn sim(
    kind: GameKind,
    args: &SimArgs,
    watch: &dyn strength::Stopwatch,
) -> Result<(String, Value), String> {
    // The expert is measured by its strength: whole games, levels rotating round the table.
    if args.bots.has(BotLevel::Expert) {
        return summary(strength::run(kind, args, watch)?);
    }
    match kind {
        GameKind::DreamMile => summary(dream_mile::sim::run(args)?),
        GameKind::MilleBornes | GameKind::ThousandYards => {
            summary(card_race::sim::run(kind, args)?)
        }
        GameKind::FifteenHundred => summary(fifteen_hundred::sim::run(args)?),
        GameKind::MagicalAthlete => summary(magical_athlete::sim::run(args)?),
    }
}
