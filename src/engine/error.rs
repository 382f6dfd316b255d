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

/// Why a state, though it decodes, cannot be played on: the invariant it breaks. Worded
/// for the operator, who reads it as the cause of a quarantine.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    /// A number the rules bound: a position, a count, a score, a seat index.
    #[error("{what} is {value}, outside {min} to {max}")]
    OutOfRange {
        what: String,
        value: i64,
        min: i64,
        max: i64,
    },
    /// Cards that do not add up: lost, counted twice, or not in the game at all.
    #[error("the cards do not add up: {0}")]
    Cards(String),
    /// Parts of the state that contradict each other (the phase and who acts, a turn and
    /// its record).
    #[error("{0}")]
    Inconsistent(String),
    /// The options the state carries are ones the game refuses.
    #[error("its options are refused: {0}")]
    Options(#[from] OptionsError),
}

impl StateError {
    /// `Ok` when `value` is within `min..=max`; else which number, and its bounds.
    pub fn range<T>(what: impl std::fmt::Display, value: T, min: T, max: T) -> Result<(), Self>
    where
        T: PartialOrd + TryInto<i64> + Copy,
    {
        if min <= value && value <= max {
            return Ok(());
        }
        let wide = |n: T| n.try_into().unwrap_or(i64::MAX);
        Err(StateError::OutOfRange {
            what: what.to_string(),
            value: wide(value),
            min: wide(min),
            max: wide(max),
        })
    }

    /// `Ok` when `holds`; else [`StateError::Inconsistent`] with `what` is wrong.
    pub fn ensure(holds: bool, what: impl std::fmt::Display) -> Result<(), Self> {
        if holds {
            Ok(())
        } else {
            Err(StateError::Inconsistent(what.to_string()))
        }
    }

    /// `Ok` when `holds`; else [`StateError::Cards`] with `what` is wrong.
    pub fn cards(holds: bool, what: impl std::fmt::Display) -> Result<(), Self> {
        if holds {
            Ok(())
        } else {
            Err(StateError::Cards(what.to_string()))
        }
    }
}
