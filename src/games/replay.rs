//! What a replay script gives back ([`Replay`]) and why one is refused ([`ReplayError`]);
//! each game reads its own scripts (`<game>/replay.rs`).

use serde_json::Value;
use thiserror::Error;

use super::registry::AnyPublicView;

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
