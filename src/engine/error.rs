//! The engine's typed errors, worded for the player who caused them.

use thiserror::Error;

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("this game takes {min} to {max} players, not {got}")]
    SeatCount { min: usize, max: usize, got: usize },
    #[error("{name}: {reason}")]
    SeatChoice { name: String, reason: String },
    #[error("{0}")]
    Options(#[from] OptionsError),
}

/// Why race options were refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionsError {
    #[error("unknown option `{key}`; the options are: {known}")]
    UnknownKey { key: String, known: String },
    #[error("`{0}` is not of the form key=value")]
    NotKeyValue(String),
    #[error("option `{key}`: {reason}")]
    BadValue { key: String, reason: String },
    #[error("{0}")]
    Invalid(String),
}

/// Why an order was refused. Syntax is apart from legality, as the engine keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OrderError {
    /// The text is not an order at all.
    #[error("I couldn't read that order: {0}")]
    Syntax(String),
    /// The order is well formed but not allowed now.
    #[error("that order isn't allowed: {0}")]
    Illegal(String),
    /// The seat has nothing to decide at the moment.
    #[error("there is nothing for you to order right now")]
    NotYourTurn,
}

/// Why a seat's standing preference (a policy, a setting) was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PreferenceError {
    #[error("this game has no personal settings")]
    NotSupported,
    #[error("{0}")]
    Invalid(String),
}
