//! What differs between the two backends, as a table each fills in ([`Dialect`], in
//! `sqlite.rs` and `postgres.rs`): how a writing transaction begins, how related reads
//! share one snapshot, how a commit queues behind others of its campaign, the few
//! statements whose SQL differs, and the migrations. Everything else (the commit sequence
//! in `commit.rs`, the queries in `queries.rs`, the row decoding in `rows.rs`) is written
//! once over any `Dialect`.

use sqlx::migrate::Migrator;

use super::backend::Backend;
use super::sql::Sql;

/// One backend's SQL and transaction habits.
pub trait Dialect: Sql {
    const BACKEND: Backend;
    /// Begins a transaction that writes.
    const BEGIN_WRITE: &'static str;
    /// Begins a read-only transaction on one snapshot, for reads that must agree with each
    /// other; `None` reads them on one connection without a transaction.
    const BEGIN_SNAPSHOT: Option<&'static str>;
    /// Run first in a commit, with the campaign's id: makes the commits of one campaign
    /// queue one behind the other. Returns a row if the campaign exists. `None` where
    /// [`Dialect::BEGIN_WRITE`] already serialises every writer.
    const LOCK_CAMPAIGN: Option<&'static str>;
    /// The live (not superseded) orders of a campaign's step, by id: `$1` campaign, `$2`
    /// step.
    const LIVE_ORDERS_OF_STEP: &'static str;
    /// The live orders of a campaign's steps `$2..$3`, by step and id: `$1` campaign.
    const LIVE_ORDERS: &'static str;
    /// The delivered DM prompts of a campaign (`$1`) for steps `$2..=$3`, below outbox id
    /// `$4`, oldest first: the prompts to close when those steps resolve. The step is read
    /// from the payload's JSON, which each backend spells its own way.
    const PROMPTS_OF_STEPS: &'static str;
    /// Marks the live order of a seat superseded: `$1` campaign, `$2` step, `$3` seat.
    const SUPERSEDE_ORDER: &'static str;
    /// Claims unfired deadlines due by `$3` and free (or expired) at `$3`, for holder `$1`
    /// until `$2`, oldest first, at most `$4`; returns the claimed rows.
    const CLAIM_DEADLINES: &'static str;
    /// One row whose flag `present` says whether sqlx's migration table exists.
    const HAS_MIGRATIONS_TABLE: &'static str;

    /// The migrations this binary carries for the backend.
    fn migrator() -> &'static Migrator;
}
