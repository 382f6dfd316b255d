//! The referee's refusals, each worded for the person who asked.

use thiserror::Error;

use crate::engine::{OptionsError, OrderError, PreferenceError, SetupError};
use crate::store::StoreError;

/// Why the referee refused a request. Nothing was changed when one is returned.
#[derive(Debug, Error)]
pub enum RefereeError {
    #[error("there is no race here; start one with /race new")]
    NoRace,
    #[error("there is already a race in this channel; finish or cancel it first")]
    ChannelBusy,
    #[error("only the host or a member with Manage Server can do that")]
    NotHost,
    #[error("you don't have a seat in this race")]
    NotSeated,
    #[error("you already have a seat in this race")]
    AlreadySeated,
    #[error("that user already has a seat in this race")]
    UserAlreadySeated,
    #[error("the race is full ({max} seats)")]
    Full { max: usize },
    #[error("the race needs at least {min} players to start; it has {have}")]
    TooFew { min: usize, have: usize },
    #[error("the race has already started")]
    AlreadyStarted,
    #[error("the race hasn't started yet")]
    NotStarted,
    #[error("the race is over")]
    Finished,
    #[error("the race was cancelled")]
    Cancelled,
    #[error("the race is paused")]
    Paused,
    #[error("the race isn't paused")]
    NotPaused,
    #[error("{0}")]
    Order(#[from] OrderError),
    #[error("{0}")]
    Options(#[from] OptionsError),
    #[error("{0}")]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Preference(#[from] PreferenceError),
    #[error("{0}")]
    Invalid(String),
    #[error("there is no seat `{0}` in this race")]
    NoSuchSeat(String),
    #[error("that turn hasn't been played yet")]
    NoSuchTurn,
    #[error("the race has to be over before its dice can be checked")]
    NotOver,
    #[error("that was for an earlier turn; the race has moved on")]
    StaleStep,
    #[error("your seat is played by a bot now; ask the host to /race replace it back to you")]
    SeatIsBot,
    #[error("{0}")]
    Quota(String),
    #[error("you're going faster than I can keep up with; please try again in {secs} seconds")]
    TooFast { secs: u64 },
    #[error("there is no seat waiting for you in this race; ask the host to offer it again")]
    NoOffer,
    #[error("something went wrong on our side, and nothing was changed; please try again")]
    Store(#[from] StoreError),
    #[error("stored data for this race is damaged: {0}")]
    Corrupt(String),
}

impl RefereeError {
    /// True when retrying the same request later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, RefereeError::Store(_))
    }
}
