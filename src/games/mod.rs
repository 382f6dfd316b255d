//! The games: one module per game, each pure and deterministic (no I/O, no async).
//!
//! Each game implements the engine's contracts ([`crate::engine::Game`], `Bots`,
//! `Preferences`, `Presentation`) and keeps its replay script format and
//! its simulation summary beside its rules.

pub mod card_race;
pub mod dream_mile;
pub mod fifteen_hundred;
pub mod length;
pub mod magical_athlete;
pub mod registry;
pub mod replay;
pub mod sim_args;
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
pub use replay::{Replay, ReplayError};
pub use sim_args::{SimArgs, SimBots};

use serde_json::Value;

use crate::engine::BotLevel;

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

/// `sim --by-lane`: the results by start lane, for a game whose runners start in lanes
/// (1500m); `None` for the others.
pub fn sim_by_lane(kind: GameKind, args: &SimArgs) -> Option<Result<(String, Value), String>> {
    match kind {
        GameKind::FifteenHundred => Some(fifteen_hundred::sim::by_lane(args).and_then(summary)),
        _ => None,
    }
}
