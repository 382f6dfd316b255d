//! The SQLite store, the embedded default: the pool and its pragmas (WAL, durability, a
//! busy timeout), migrations from `migrations/sqlite`, and SQLite's [`Dialect`]. The
//! queries, the commit sequence and the row decoding are shared with PostgreSQL
//! (`queries.rs`, `commit.rs`, `rows.rs`).
//!
//! `BEGIN IMMEDIATE` serialises writers, so a commit needs no row lock and the claims of
//! [`super::Store`] are plain conditional updates here.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::Sqlite;
use std::sync::{Arc, LazyLock};

use sqlx::migrate::Migrator;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteQueryResult,
    SqliteSynchronous,
};

use super::dialect::Dialect;
use super::migrations;
use super::queries::SqlStore;
use super::sqlite_writer::RawWriter;
use super::writer::Writer;
use super::{Backend, StoreError};

static MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| migrations::migrator(migrations::SQLITE));

/// The SQLite store.
pub type SqliteStore = SqlStore<Sqlite>;

/// How hard SQLite works to keep a commit through a power cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// fsync at every commit: survives a power cut (the default).
    #[default]
    Full,
    /// Survives a crash of the process, not of the machine; faster.
    Normal,
}

impl SqlStore<Sqlite> {
    /// Opens (creating if missing) the database at `url` (`sqlite:path` or a plain path)
    /// in WAL mode, and runs the migrations.
    pub async fn open(url: &str, durability: Durability) -> Result<SqliteStore, StoreError> {
        let store = SqliteStore::pool_for(url, durability, true).await?;
        MIGRATOR.run(&store.pool).await?;
        Ok(store)
    }

    /// Opens an existing database without migrating it (to inspect it).
    pub async fn connect(url: &str) -> Result<SqliteStore, StoreError> {
        SqliteStore::pool_for(url, Durability::Full, false).await
    }

    async fn pool_for(
        url: &str,
        durability: Durability,
        create: bool,
    ) -> Result<SqliteStore, StoreError> {
        let url = if url.starts_with("sqlite:") {
            url.to_string()
        } else {
            format!("sqlite:{url}")
        };
        let options = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(create)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::Full => SqliteSynchronous::Full,
                Durability::Normal => SqliteSynchronous::Normal,
            })
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        // A file's connection does not go stale: no ping (a trip to the worker thread)
        // before each use.
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        // Writers queue here rather than on SQLite's lock, and the one connection keeps
        // its page cache from commit to commit (see `SqlStore::writer`).
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_lazy_with(options.clone());
        // The file exactly as SQLite opened it (absolute); none for an in-memory database,
        // which a second connection would not see.
        let file: Option<String> =
            sqlx::query_scalar("SELECT file FROM pragma_database_list WHERE name = 'main'")
                .fetch_optional(&pool)
                .await?;
        let raw = match file.filter(|f| !f.is_empty()) {
            Some(f) => Some(Arc::new(RawWriter::new(Path::new(&f), durability)?)),
            None => None,
        };
        Ok(SqlStore {
            pool,
            writer: Writer::held(writer),
            raw,
        })
    }

    /// A private in-memory database (one connection), for tests and replays.
    pub async fn in_memory() -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        // One connection, never recycled: the database lives and dies with it.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(SqlStore {
            writer: Writer::pooled(pool.clone()),
            pool,
            // The one connection is the whole database: commits go through it.
            raw: None,
        })
    }
}

impl Dialect for Sqlite {
    const BACKEND: Backend = Backend::Sqlite;
    // IMMEDIATE takes the write lock up front, so two writers queue on the busy timeout
    // instead of failing when a read would upgrade to a write.
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    // Related reads run on one connection: a read transaction would cost two more trips to
    // the connection's thread, and the referee checks the version before trusting a load.
    const BEGIN_SNAPSHOT: Option<&'static str> = None;
    const LOCK_CAMPAIGN: Option<&'static str> = None;
    // Flags are integers here, and `superseded = 0` is spelled as in the partial index
    // `orders_one_live`, or SQLite would not use it.
    const LIVE_ORDERS_OF_STEP: &'static str = "SELECT * FROM orders
        WHERE campaign_id = $1 AND step = $2 AND superseded = 0 ORDER BY id";
    const LIVE_ORDERS: &'static str = "SELECT * FROM orders
        WHERE campaign_id = $1 AND superseded = 0 AND step >= $2 AND step < $3 ORDER BY step, id";
    const PROMPTS_OF_STEPS: &'static str = "SELECT * FROM outbox
        WHERE campaign_id = $1 AND id < $4
          AND delivered_at IS NOT NULL AND external_id IS NOT NULL
          AND json_extract(target, '$.to') = 'dm'
          AND json_extract(payload, '$.kind') = 'prompt'
          AND json_extract(payload, '$.step') BETWEEN $2 AND $3
        ORDER BY id";
    const SUPERSEDE_ORDER: &'static str = "UPDATE orders SET superseded = 1
        WHERE campaign_id = $1 AND step = $2 AND seat = $3 AND superseded = 0";
    const CLAIM_DEADLINES: &'static str = "UPDATE deadlines SET claimed_by = $1, claim_until = $2
        WHERE id IN (
            SELECT id FROM deadlines
            WHERE fired_at IS NULL AND due_at <= $3 AND (claim_until IS NULL OR claim_until <= $3)
              AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.campaign_id = deadlines.campaign_id)
            ORDER BY due_at, id LIMIT $4)
        RETURNING *";
    // A whole commit, its BEGIN and COMMIT included, as one batch (`commit::write_one_trip`).
    const BATCH: bool = true;
    const HAS_MIGRATIONS_TABLE: &'static str = "SELECT EXISTS (SELECT 1 FROM sqlite_master
        WHERE type = 'table' AND name = '_sqlx_migrations') AS present";

    fn migrator() -> &'static Migrator {
        &MIGRATOR
    }

    fn rows_affected(done: &SqliteQueryResult) -> u64 {
        done.rows_affected()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::queries::{CLAIM_LEASES, CLAIMED_READY, OUTBOX_READY};
    use sqlx::Row;

    /// The steps of SQLite's plan for `sql`, its parameters left null.
    async fn plan(store: &SqliteStore, sql: &str) -> Vec<String> {
        let params = (1..10).filter(|n| sql.contains(&format!("${n}"))).count();
        let explain = format!("EXPLAIN QUERY PLAN {sql}");
        let mut q = sqlx::query(sqlx::AssertSqlSafe(explain.as_str()));
        for _ in 0..params {
            q = q.bind(None::<i64>);
        }
        q.fetch_all(&store.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<String, _>("detail"))
            .collect()
    }

    /// Delivery and coalescing read the outbox's undelivered rows through its one partial
    /// index, never by walking the whole table (which keeps delivered rows for weeks).
    #[tokio::test]
    async fn the_outbox_is_read_through_its_index_of_undelivered_rows() {
        let store = SqliteStore::in_memory().await.unwrap();
        let coalesce = "UPDATE outbox SET failed = 'superseded'
            WHERE campaign_id = $1 AND coalesce_key = $2 AND id < $3
              AND delivered_at IS NULL AND failed IS NULL";
        for sql in [CLAIM_LEASES, CLAIMED_READY, OUTBOX_READY, coalesce] {
            let steps = plan(&store, sql).await;
            for step in &steps {
                let table = step.split_whitespace().nth(1).unwrap_or_default();
                if ["o", "e", "outbox"].contains(&table) {
                    assert!(
                        step.contains("USING INDEX outbox_pending"),
                        "{step:?} in {steps:?} for {sql}"
                    );
                }
            }
        }
        store.close().await;
    }
}
