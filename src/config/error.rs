//! Why the configuration could not be used: [`ConfigError`]. No error echoes a value (a
//! value may be a secret written in the wrong place); each names the key and where its
//! value came from.

use thiserror::Error;

use super::keys::Source;

/// Why the configuration could not be used. Each is one line, and none quotes a value.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    /// The line is not quoted: it may hold a token written without quotes.
    #[error("{path} is not valid TOML at line {line}, column {column}: {what}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        what: String,
    },
    #[error("{path}: unknown key {key} (the keys are in config.example.toml)")]
    UnknownKey { path: String, key: String },
    #[error("`{key}` {origin}: {reason}")]
    Value {
        key: &'static str,
        origin: Source,
        reason: String,
    },
    #[error(
        "no Discord token: set PHOTOFINISH_TOKEN (or DISCORD_TOKEN), or `token` in the configuration (see config.example.toml)"
    )]
    NoToken,
}
