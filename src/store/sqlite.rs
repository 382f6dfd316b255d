//! The SQLite store, the embedded default: the pools and their pragmas (WAL, durability, a
//! busy timeout), migrations from `migrations/sqlite`, and SQLite's [`Dialect`]. The
//! queries, the commit sequence and the row decoding are shared with PostgreSQL
//! (`queries.rs`, `commit.rs`, `rows.rs`), and so is the way a commit reaches the disk:
//! through sqlx, whose SQLite connections each run on a thread of their own.
//!
//! `BEGIN IMMEDIATE` serialises writers, so a commit needs no row lock and the claims of
//! [`super::contract::Store`] are plain conditional updates here.

use std::str::FromStr;
use std::sync::LazyLock;
use std::time::Duration;

use sqlx::Sqlite;
use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use super::backend::Backend;
use super::dialect::Dialect;
use super::error::StoreError;
use super::migrations;
use super::queries::SqlStore;

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
        // Writing transactions queue for this one connection (see `SqlStore::writer`).
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .test_before_acquire(false)
            .connect_lazy_with(options);
        Ok(SqlStore { pool, writer })
    }

    /// Writes a consistent copy of the database to a new file at `path` (`VACUUM INTO`: one
    /// read transaction, so writers carry on meanwhile). The file must not exist.
    pub async fn vacuum_into(&self, path: &str) -> Result<(), StoreError> {
        sqlx::query("VACUUM INTO ?")
            .bind(path)
            .execute(&self.pool)
            .await?;
        Ok(())
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
        // The one connection is the whole database: writers use it too.
        Ok(SqlStore {
            writer: pool.clone(),
            pool,
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
    // `due_at >= ''` is a damaged row: text sorts after every number. Claimed, it fails to
    // decode and quarantines its race, instead of never falling due.
    const CLAIM_DEADLINES: &'static str = "UPDATE deadlines SET claimed_by = $1, claim_until = $2
        WHERE id IN (
            SELECT id FROM deadlines
            WHERE fired_at IS NULL AND (due_at <= $3 OR due_at >= '')
              AND (claim_until IS NULL OR claim_until <= $3)
              AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.campaign_id = deadlines.campaign_id)
            ORDER BY due_at, id LIMIT $4)
        RETURNING *";
    const HAS_MIGRATIONS_TABLE: &'static str = "SELECT EXISTS (SELECT 1 FROM sqlite_master
        WHERE type = 'table' AND name = '_sqlx_migrations') AS present";

    fn migrator() -> &'static Migrator {
        &MIGRATOR
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::store::contract::Store;
    use crate::store::queries::{CLAIM_LEASES, CLAIMED_READY, OUTBOX_READY};
    use crate::store::records::{Commit, NewCampaign};
    use crate::vocab::{CampaignId, Timing, UserId};
    use sqlx::{Connection, Row};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A store on a fresh file, opened as production opens it.
    async fn file_store(dir: &tempfile::TempDir) -> SqliteStore {
        let path = dir.path().join("store.db");
        SqliteStore::open(path.to_str().unwrap(), Durability::Full)
            .await
            .unwrap()
    }

    async fn race(store: &SqliteStore) -> CampaignId {
        store
            .create(NewCampaign {
                kind: GameKind::DreamMile,
                options: serde_json::json!({}),
                host: UserId::new("host"),
                channel: "chan".into(),
                guild: None,
                timing: Timing {
                    turn_secs: 3600,
                    reminders: Vec::new(),
                    resolve_early: true,
                    calendar: Default::default(),
                },
                seed: "00".into(),
                commitment: "00".into(),
                now: 0,
            })
            .await
            .unwrap()
    }

    async fn interactions(store: &SqliteStore) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM interactions")
            .fetch_one(store.pool())
            .await
            .unwrap()
    }

    /// A writer that stops part way (an error, or a caller that stopped waiting) leaves
    /// nothing behind: its transaction is rolled back, and the next writer gets the
    /// connection outside any transaction.
    #[tokio::test]
    async fn an_abandoned_write_rolls_back_and_the_next_writer_proceeds() {
        let dir = tempfile::tempdir().unwrap();
        let store = file_store(&dir).await;
        for round in 0..3 {
            let mut tx = store.begin_write().await.unwrap();
            sqlx::query("INSERT INTO interactions (id, expires_at) VALUES ($1, 1)")
                .bind(format!("abandoned {round}"))
                .execute(&mut *tx)
                .await
                .unwrap();
            drop(tx);
            assert_eq!(interactions(&store).await, 0);
        }
        let mut tx = store.begin_write().await.unwrap();
        sqlx::query("INSERT INTO interactions (id, expires_at) VALUES ('kept', 1)")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(interactions(&store).await, 1);
        store.close().await;
    }

    /// A commit that must wait (here for another connection's write lock; in production
    /// for the disk's fsync) waits on sqlx's connection thread, never on the runtime's:
    /// on a runtime of one thread, other tasks run meanwhile, and the commit lands once
    /// the lock is free. A commit run on the calling thread would hold the only thread
    /// until SQLite's busy timeout gave up, and fail.
    #[tokio::test(flavor = "current_thread")]
    async fn a_waiting_commit_leaves_the_runtime_free_and_then_lands() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(file_store(&dir).await);
        let id = race(&store).await;
        let version = store.version(id).await.unwrap().unwrap();
        let url = format!("sqlite:{}", dir.path().join("store.db").display());
        let mut holder = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut holder)
            .await
            .unwrap();

        let started = Arc::new(AtomicBool::new(false));
        let task = tokio::spawn({
            let (store, started) = (store.clone(), started.clone());
            async move {
                started.store(true, Ordering::SeqCst);
                store.commit(id, version, Commit::default()).await
            }
        });
        // This task runs while the commit is under way: the runtime's one thread is free.
        while !started.load(Ordering::SeqCst) {
            tokio::task::yield_now().await;
        }
        for _ in 0..100 {
            tokio::task::yield_now().await;
        }
        assert!(
            !task.is_finished(),
            "the commit ended while the lock was held"
        );
        sqlx::query("COMMIT").execute(&mut holder).await.unwrap();
        task.await.unwrap().unwrap();
        assert_eq!(store.version(id).await.unwrap(), Some(version + 1));
        holder.close().await.unwrap();
        store.close().await;
    }

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
        let dir = tempfile::tempdir().unwrap();
        let store = file_store(&dir).await;
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
