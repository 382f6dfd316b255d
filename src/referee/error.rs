//! The referee's refusals, each worded for the person who asked. A storage error keeps its
//! cause for the operator ([`RefereeError::operator_detail`]: table, row and the underlying
//! error); the player's sentence says "please try again" only where a retry can succeed.

use thiserror::Error;

use crate::engine::{OptionsError, OrderError, PreferenceError, SetupError, StateError};
use crate::store::StoreError;
use crate::vocab::CampaignId;

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
    #[error(
        "you sent that before this turn began, so it was for an earlier turn and nothing was played; send it again if you want it for this one"
    )]
    WrittenBefore,
    #[error("your seat is played by a bot now; ask the host to /race replace it back to you")]
    SeatIsBot,
    #[error("{0}")]
    Quota(String),
    #[error("you're going faster than I can keep up with; please try again in {secs} seconds")]
    TooFast { secs: u64 },
    #[error("there is no seat waiting for you in this race; ask the host to offer it again")]
    NoOffer,
    #[error("{}", store_sentence(.0))]
    Store(#[from] StoreError),
    #[error(
        "stored data for this race is damaged ({0}), so the race is stopped; the host has been told"
    )]
    Corrupt(String),
    #[error("{0} would be out of range; nothing was changed")]
    OutOfRange(&'static str),
    /// A stored game state that decodes but breaks its game's invariants
    /// ([`crate::engine::Game::check`]): never played on.
    #[error(
        "this race's stored data does not add up, so the race is stopped; the host has been told"
    )]
    LyingState { race: CampaignId, error: StateError },
}

/// The table a lying state is read from (its row is the race's id).
pub const LYING_TABLE: &str = "campaign_states";

/// The player's sentence for a storage error: a retry is suggested only when it can help.
fn store_sentence(e: &StoreError) -> &'static str {
    if e.is_transient() {
        "something went wrong on our side, and nothing was changed; please try again"
    } else if e.is_poison() {
        "this race's stored data can no longer be read, so the race is stopped; the host has been told"
    } else {
        "something went wrong on our side, and nothing was changed"
    }
}

impl RefereeError {
    /// True when retrying the same request later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, RefereeError::Store(e) if e.is_transient())
    }

    /// True when the race's stored data will never decode as it is: the race is
    /// quarantined, not retried.
    pub fn is_poison(&self) -> bool {
        match self {
            RefereeError::Store(e) => e.is_poison(),
            RefereeError::Corrupt(_) | RefereeError::LyingState { .. } => true,
            _ => false,
        }
    }

    /// The whole cause, for the operator's log: for a storage error its table, row and
    /// the underlying error, which the player's sentence leaves out.
    pub fn operator_detail(&self) -> String {
        match self {
            RefereeError::Store(e) => format!("storage: {e}"),
            RefereeError::LyingState { race, error } => format!(
                "storage: stored row of {LYING_TABLE} (campaign_id {}) decodes but is wrong: {error}",
                race.0
            ),
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_is_suggested_only_where_it_can_succeed() {
        let conflict = RefereeError::Store(StoreError::Conflict);
        assert!(conflict.is_transient() && conflict.to_string().contains("please try again"));
        let bad = RefereeError::Store(StoreError::BadRow {
            table: "campaigns",
            key: "id 7".into(),
            reason: "column `state`: expected value".into(),
        });
        assert!(!bad.is_transient() && bad.is_poison());
        assert!(!bad.to_string().contains("try again"), "{bad}");
        let detail = bad.operator_detail();
        assert!(
            detail.contains("campaigns")
                && detail.contains("id 7")
                && detail.contains("expected value"),
            "{detail}"
        );
        let busy = RefereeError::Store(StoreError::ChannelBusy);
        assert!(!busy.to_string().contains("try again"));
    }
}
