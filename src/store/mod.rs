//! Persistence of campaigns: the [`Store`] trait and its records, with two backends chosen
//! by the database URL ([`open`]): SQLite, the embedded default ([`sqlite::SqliteStore`]),
//! and PostgreSQL for several processes sharing one database ([`postgres::PostgresStore`]).
//! Each backend has its own migrations (`migrations/sqlite`, `migrations/postgres`).
//!
//! One store serves both databases ([`SqlStore`], `queries.rs`), through sqlx alone. The
//! queries, the commit sequence (`commit.rs`) and the row decoding (`rows.rs`) are written
//! once, over the [`dialect::Dialect`] each backend fills in with what really differs (a
//! few statements, how transactions begin, the migrations); `sqlite.rs` and `postgres.rs`
//! also open the pools, and `open.rs` picks one by URL. Below them all: the [`Store`] trait
//! (`contract.rs`), the records it reads and writes (`records.rs`), `sql.rs` (the sqlx
//! bounds that let the SQL be written once), `codec.rs` (encoding), `backend.rs` and
//! `error.rs`. `backup.rs` copies a live SQLite database (`photofinish backup`); `redact.rs`
//! blanks a URL's secrets for display ([`redact`]). This file only names the files and re-exports what other layers use;
//! inside, imports run one way. Speed: docs/performance.md.
//!
//! The referee loads a campaign, decides everything in memory, and hands the store one
//! [`Commit`]; the store writes it in one transaction, guarded by the campaign's version, so
//! an adjudication (state, orders, events, outbox, deadlines) lands whole or not at all,
//! and two writers can never both resolve the same step. Announcements and targets are
//! opaque JSON here: the referee owns their types.
//!
//! Work that must happen once across processes is claimed with a lease that expires, in
//! the referee's clock (the `now` each call is given): a due deadline
//! ([`Store::claim_due_deadlines`]) and a campaign's undelivered outbox
//! ([`Store::claim_outbox`]). A claim only keeps other processes from doing the work at
//! the same time; whether it was done is still decided by the commit (a deadline's
//! `fired_at`, an announcement's `delivered_at`), so a process that dies holding a claim
//! costs a delay of one lease, never a lost or doubled step.

mod archive;
mod backend;
mod backup;
mod codec;
mod commit;
mod contract;
mod dialect;
mod error;
mod migrations;
mod once;
mod open;
pub mod postgres;
mod prefs;
mod queries;
mod records;
mod recovery;
mod redact;
mod reliability;
mod retention;
mod rows;
mod series;
mod sql;
pub mod sqlite;

pub use backend::Backend;
pub use backup::{Backup, BackupError, backup};
pub use contract::Store;
pub use error::StoreError;
pub use open::{connect, migrate, open};
pub use postgres::PostgresStore;
pub use queries::SqlStore;
pub use records::{
    Address, Backlog, CampaignRow, Commit, Compacted, DeadlineKind, DeadlineRow, EVENT_FORMAT,
    HEARTBEAT_SECS, Heartbeat, Json, Loaded, NewCampaign, NewDeadline, NewOutbox, OpenCounts,
    OrderRow, OrderSource, OutboxRow, Owing, PreferenceRow, Quarantine, RematchClaim, STATE_FORMAT,
    SchemaStatus, SeatAway, SeatRow, SeriesDef, StepLog, TurnRow, WorkerStatus, default_instance,
};
pub use redact::redact;
pub use sqlite::SqliteStore;
