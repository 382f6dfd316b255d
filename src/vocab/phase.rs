//! A race's phase, as stored and shown.

use serde::{Deserialize, Serialize};

/// Where a campaign is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Lobby,
    Running,
    Paused,
    Finished,
    Cancelled,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Lobby => "lobby",
            Phase::Running => "running",
            Phase::Paused => "paused",
            Phase::Finished => "finished",
            Phase::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<Phase> {
        Some(match text {
            "lobby" => Phase::Lobby,
            "running" => Phase::Running,
            "paused" => Phase::Paused,
            "finished" => Phase::Finished,
            "cancelled" => Phase::Cancelled,
            _ => return None,
        })
    }

    /// Lobby, running or paused.
    pub fn is_open(self) -> bool {
        matches!(self, Phase::Lobby | Phase::Running | Phase::Paused)
    }
}
