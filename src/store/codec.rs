//! What both backends share: JSON columns, checked number conversions, and reading a
//! database's migration table against the binary's migrator.

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::migrate::Migrator;

use super::{SchemaStatus, StoreError};
use crate::engine::Seat;

pub(super) fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{what}: {e}"))
}

pub(super) fn to_json<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| corrupt("cannot encode", e))
}

pub(super) fn from_json<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| corrupt(what, e))
}

pub(super) fn seat_of(n: i64) -> Result<Seat, StoreError> {
    u8::try_from(n)
        .map(Seat)
        .map_err(|e| corrupt("seat number", e))
}

pub(super) fn step_of(n: i64) -> Result<u32, StoreError> {
    u32::try_from(n).map_err(|e| corrupt("step number", e))
}

/// One row of sqlx's `_sqlx_migrations`.
pub(super) struct Applied {
    pub version: i64,
    pub success: bool,
    pub checksum: Vec<u8>,
}

/// Compares what a database applied with what the binary carries.
pub(super) fn schema_status(
    backend: &'static str,
    migrator: &Migrator,
    applied: &[Applied],
) -> SchemaStatus {
    let mut status = SchemaStatus {
        backend,
        ..SchemaStatus::default()
    };
    for a in applied {
        match migrator.iter().find(|m| m.version == a.version) {
            None => status.unknown.push(a.version),
            Some(m) if !a.success || *m.checksum != *a.checksum => status.broken.push(a.version),
            Some(_) => status.applied.push(a.version),
        }
    }
    for m in migrator.iter() {
        if !m.migration_type.is_down_migration() && !applied.iter().any(|a| a.version == m.version)
        {
            status.pending.push(m.version);
        }
    }
    status
}
