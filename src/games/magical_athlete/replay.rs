//! Magical Athlete replay scripts (docs/replay/magical-athlete.md).

use serde_json::Value;

use crate::games::{Replay, ReplayError};

pub fn run(_script: Value) -> Result<Replay, ReplayError> {
    Err(ReplayError::Script("todo".into()))
}
