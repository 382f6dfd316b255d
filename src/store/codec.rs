//! What both backends share: JSON columns, checked number conversions, the multi-row
//! INSERTs of a commit, and reading a database's migration table against the binary's
//! migrator.

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::migrate::Migrator;
use sqlx::{Database, Encode, QueryBuilder, Type};

use super::{Commit, Millis, SchemaStatus, StoreError};
use crate::engine::Seat;

/// Rows per multi-row INSERT: far below either backend's bound-parameter limit.
const ROWS_PER_INSERT: usize = 500;

/// The multi-row INSERTs of a commit's events, deadlines and outbox rows, for any backend
/// (each writes dozens of rows at a resolution; one statement per row is one round trip
/// each). The caller runs them in its transaction, in order.
pub(super) fn bulk_inserts<DB>(
    campaign: i64,
    commit: &Commit,
    now: Millis,
) -> Result<Vec<QueryBuilder<DB>>, StoreError>
where
    DB: Database,
    DB::Arguments: Default,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Encode<'q, DB> + Type<DB>,
{
    let mut out = Vec::new();
    let events = commit
        .events
        .iter()
        .flat_map(|(step, events)| {
            events.iter().enumerate().map(move |(idx, e)| {
                Ok((
                    i64::from(*step),
                    i64::try_from(idx).unwrap_or(i64::MAX),
                    to_json(e)?,
                ))
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    for chunk in events.chunks(ROWS_PER_INSERT) {
        let mut q = QueryBuilder::new("INSERT INTO events (campaign_id, step, idx, event) ");
        q.push_values(chunk, |mut row, (step, idx, event)| {
            row.push_bind(campaign)
                .push_bind(*step)
                .push_bind(*idx)
                .push_bind(event.clone());
        });
        out.push(q);
    }
    for chunk in commit
        .deadlines
        .as_deref()
        .unwrap_or(&[])
        .chunks(ROWS_PER_INSERT)
    {
        let mut q = QueryBuilder::new("INSERT INTO deadlines (campaign_id, step, kind, due_at) ");
        q.push_values(chunk, |mut row, d| {
            row.push_bind(campaign)
                .push_bind(i64::from(d.step))
                .push_bind(d.kind.as_str().to_string())
                .push_bind(d.due_at);
        });
        out.push(q);
    }
    // The older undelivered rows of a coalesce key: the `outbox_coalesce` trigger.
    let outbox = commit
        .outbox
        .iter()
        .map(|o| Ok((to_json(&o.target)?, to_json(&o.payload)?, o)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    for chunk in outbox.chunks(ROWS_PER_INSERT) {
        let mut q = QueryBuilder::new(
            "INSERT INTO outbox (campaign_id, target, payload, coalesce_key, created_at, not_before) ",
        );
        q.push_values(chunk, |mut row, (target, payload, o)| {
            row.push_bind(campaign)
                .push_bind(target.clone())
                .push_bind(payload.clone())
                .push_bind(o.coalesce_key.clone())
                .push_bind(now)
                .push_bind(o.not_before);
        });
        out.push(q);
    }
    Ok(out)
}

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
