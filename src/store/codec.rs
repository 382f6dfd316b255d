//! Encoding for both backends: JSON columns, the multi-row INSERTs of a commit, and
//! reading a database's migration table against the binary's migrator. (Decoding rows is
//! `rows.rs`.)

use std::borrow::Cow;

use serde::Serialize;
use sqlx::migrate::Migrator;

use super::error::StoreError;
use super::records::{Commit, SchemaStatus};
use super::sql::Arg;
use crate::vocab::Millis;

/// Rows per multi-row INSERT: far below either backend's bound-parameter limit.
const ROWS_PER_INSERT: usize = 500;

/// One multi-row INSERT: its SQL (`$n` placeholders) and its arguments, in order.
pub(super) struct Insert<'a> {
    pub sql: String,
    pub args: Vec<Arg<'a>>,
}

/// `head VALUES ($1, $2), ($3, $4), ...`, one statement per [`ROWS_PER_INSERT`] rows.
fn inserts<'a, const N: usize>(head: &str, rows: Vec<[Arg<'a>; N]>) -> Vec<Insert<'a>> {
    let mut out = Vec::new();
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let mut sql = format!("{head} VALUES ");
        let mut args = Vec::new();
        for (i, row) in rows.by_ref().take(ROWS_PER_INSERT).enumerate() {
            sql.push_str(if i == 0 { "(" } else { ", (" });
            for (j, arg) in row.into_iter().enumerate() {
                args.push(arg);
                let sep = if j == 0 { "" } else { ", " };
                sql.push_str(&format!("{sep}${}", args.len()));
            }
            sql.push(')');
        }
        out.push(Insert { sql, args });
    }
    out
}

/// The multi-row INSERTs of a commit's events, deadlines and outbox rows (each writes dozens
/// of rows at a resolution; one statement per row is one round trip each). The caller runs
/// them in its transaction, in order.
pub(super) fn bulk_inserts(
    campaign: i64,
    commit: &Commit,
    now: Millis,
) -> Result<Vec<Insert<'_>>, StoreError> {
    let mut events = Vec::new();
    for (step, list) in &commit.events {
        for (idx, e) in list.iter().enumerate() {
            events.push([
                Arg::Int(campaign),
                Arg::Int(i64::from(*step)),
                Arg::Int(i64::try_from(idx).unwrap_or(i64::MAX)),
                Arg::Text(Cow::Owned(to_json(e)?)),
                Arg::Int(super::records::EVENT_FORMAT),
            ]);
        }
    }
    let deadlines = commit
        .deadlines
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|d| {
            [
                Arg::Int(campaign),
                Arg::Int(i64::from(d.step)),
                Arg::Text(Cow::Borrowed(d.kind.as_str())),
                Arg::Int(d.due_at),
            ]
        })
        .collect();
    // The older undelivered rows of a coalesce key: the `outbox_coalesce` trigger.
    let outbox = commit
        .outbox
        .iter()
        .map(|o| {
            [
                Arg::Int(campaign),
                Arg::Text(Cow::Borrowed(o.target.as_str())),
                Arg::Text(Cow::Borrowed(o.payload.as_str())),
                Arg::from(&o.coalesce_key),
                Arg::Int(now),
                Arg::Int(o.not_before),
            ]
        })
        .collect();
    let mut out = inserts(
        "INSERT INTO events (campaign_id, step, idx, event, format)",
        events,
    );
    out.extend(inserts(
        "INSERT INTO deadlines (campaign_id, step, kind, due_at)",
        deadlines,
    ));
    out.extend(inserts(
        "INSERT INTO outbox (campaign_id, target, payload, coalesce_key, created_at, not_before)",
        outbox,
    ));
    Ok(out)
}

pub(super) fn to_json<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(format!("cannot encode: {e}")))
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
