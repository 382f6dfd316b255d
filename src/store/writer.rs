//! The writer's connection ([`Writer`]): where writing transactions, the commit batch and
//! the referee's version-and-time check run.
//!
//! On a SQLite file it is one connection **held for good**, not returned to its pool
//! between uses: sqlx 0.9 pings every connection it takes back (a trip to the connection's
//! worker thread, paid by the next writer), and the writer is used once or twice an order.
//! Elsewhere (PostgreSQL, an in-memory SQLite whose one connection the readers share) it
//! is the pool, as before.
//!
//! A [`Lease`] ended by anything but [`Lease::keep`] (an error, or a caller that stopped
//! waiting part way) closes its connection instead of keeping it: closing rolls back what
//! did not commit, so no later writer finds it inside a transaction, and a broken
//! connection is replaced (the next lease opens a fresh one).

use std::sync::Arc;

use sqlx::pool::PoolConnection;
use sqlx::{Database, Pool, Transaction};
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::StoreError;
use super::commit::db_err;
use super::dialect::Dialect;
use super::sql::Stmt;

/// The connection held between leases, or none (not yet opened, or closed after a
/// failure).
type Slot<DB> = Option<PoolConnection<DB>>;

/// See the module's comment.
pub(super) struct Writer<DB: Database> {
    pool: Pool<DB>,
    held: Option<Arc<Mutex<Slot<DB>>>>,
}

impl<DB: Database> Clone for Writer<DB> {
    fn clone(&self) -> Self {
        Writer {
            pool: self.pool.clone(),
            held: self.held.clone(),
        }
    }
}

impl<DB: Database> Writer<DB> {
    /// Writes through `pool`'s connections, each returned after use.
    pub(super) fn pooled(pool: Pool<DB>) -> Self {
        Writer { pool, held: None }
    }

    /// Writes through one connection of `pool` (a pool of one), held between uses.
    pub(super) fn held(pool: Pool<DB>) -> Self {
        Writer {
            pool,
            held: Some(Arc::new(Mutex::new(None))),
        }
    }

    /// Closes the held connection, then the pool.
    pub(super) async fn close(&self) {
        if let Some(held) = &self.held
            && let Some(conn) = held.lock().await.take()
        {
            // Closing a connection that broke earlier can fail; it is gone either way.
            let _ = conn.close().await;
        }
        self.pool.close().await;
    }

    /// The writer's connection, waiting for any other user of it.
    pub(super) async fn lease(&self) -> Result<Lease<DB>, StoreError> {
        let Some(held) = &self.held else {
            return Ok(Lease {
                conn: Some(self.pool.acquire().await?),
                home: None,
                kept: false,
            });
        };
        let mut home = held.clone().lock_owned().await;
        let conn = match home.take() {
            Some(c) => c,
            None => self.pool.acquire().await?,
        };
        Ok(Lease {
            conn: Some(conn),
            home: Some(home),
            kept: false,
        })
    }
}

impl<DB: Dialect> Writer<DB> {
    /// A writing transaction ([`Dialect::BEGIN_WRITE`]).
    pub(super) async fn begin(&self) -> Result<WriteTx<DB>, StoreError> {
        if self.held.is_none() {
            return Ok(WriteTx::Pooled(
                self.pool.begin_with(DB::BEGIN_WRITE).await?,
            ));
        }
        let mut lease = self.lease().await?;
        Stmt::<DB>::new(DB::BEGIN_WRITE)
            .execute(lease.conn()?)
            .await
            .map_err(db_err)?;
        Ok(WriteTx::Held(lease))
    }
}

/// The writer's connection while one caller uses it. Dropped without [`Lease::keep`], it
/// is closed (see the module's comment).
pub(super) struct Lease<DB: Database> {
    conn: Option<PoolConnection<DB>>,
    /// Where a held connection goes back, locked while leased; none for a pooled one.
    home: Option<OwnedMutexGuard<Slot<DB>>>,
    kept: bool,
}

impl<DB: Database> Lease<DB> {
    pub(super) fn conn(&mut self) -> Result<&mut DB::Connection, StoreError> {
        self.conn
            .as_deref_mut()
            .ok_or_else(|| StoreError::Corrupt("the writer's connection is gone".into()))
    }

    /// The use ended cleanly: the connection stays open for the next writer.
    pub(super) fn keep(mut self) {
        self.kept = true;
    }
}

impl<DB: Database> Drop for Lease<DB> {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        if !self.kept {
            conn.close_on_drop();
            return;
        }
        if let Some(home) = &mut self.home {
            **home = Some(conn);
        }
    }
}

/// A writing transaction on the writer: sqlx's own where the connection is pooled, else
/// `BEGIN` and `COMMIT` sent on the held connection (a transaction left open by an error
/// or a caller that stopped waiting is closed with its connection, which rolls it back).
pub(super) enum WriteTx<DB: Database> {
    Pooled(Transaction<'static, DB>),
    Held(Lease<DB>),
}

impl<DB: Dialect> WriteTx<DB> {
    pub(super) fn conn(&mut self) -> Result<&mut DB::Connection, StoreError> {
        match self {
            WriteTx::Pooled(tx) => Ok(&mut **tx),
            WriteTx::Held(lease) => lease.conn(),
        }
    }

    pub(super) async fn commit(self) -> Result<(), StoreError> {
        match self {
            WriteTx::Pooled(tx) => tx.commit().await.map_err(db_err),
            WriteTx::Held(mut lease) => {
                Stmt::<DB>::new("COMMIT")
                    .execute(lease.conn()?)
                    .await
                    .map_err(db_err)?;
                lease.keep();
                Ok(())
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::store::sqlite::{Durability, SqliteStore};

    async fn interactions(store: &SqliteStore) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM interactions")
            .fetch_one(store.pool())
            .await
            .unwrap()
    }

    /// A writer that stops part way (an error, or a caller that stopped waiting) leaves
    /// nothing behind: its transaction is rolled back with the connection, and the next
    /// writer gets a connection outside any transaction.
    #[tokio::test]
    async fn an_abandoned_write_rolls_back_and_the_next_writer_proceeds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.db");
        let store = SqliteStore::open(path.to_str().unwrap(), Durability::Full)
            .await
            .unwrap();
        for round in 0..3 {
            let mut tx = store.writer.begin().await.unwrap();
            sqlx::query("INSERT INTO interactions (id, expires_at) VALUES ($1, 1)")
                .bind(format!("abandoned {round}"))
                .execute(tx.conn().unwrap())
                .await
                .unwrap();
            drop(tx);
            assert_eq!(interactions(&store).await, 0);
        }
        let mut tx = store.writer.begin().await.unwrap();
        sqlx::query("INSERT INTO interactions (id, expires_at) VALUES ('kept', 1)")
            .execute(tx.conn().unwrap())
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(interactions(&store).await, 1);
        // A clean lease keeps its connection: the same one serves the next writer.
        let mut lease = store.writer.lease().await.unwrap();
        let first: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM temp.sqlite_master")
            .fetch_one(lease.conn().unwrap())
            .await
            .unwrap();
        sqlx::query("CREATE TEMP TABLE marker (x)")
            .execute(lease.conn().unwrap())
            .await
            .unwrap();
        lease.keep();
        let mut lease = store.writer.lease().await.unwrap();
        let again: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM temp.sqlite_master")
            .fetch_one(lease.conn().unwrap())
            .await
            .unwrap();
        assert_eq!((first, again), (0, 1));
        lease.keep();
        store.close().await;
    }
}
