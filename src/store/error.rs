//! How a database's error becomes a [`StoreError`] where the difference matters: in a
//! writing transaction. A leaf: it imports nothing else of the store.

use super::StoreError;

/// Serialisation failures and deadlocks (PostgreSQL's 40001 and 40P01) mean "someone else
/// changed it first": the referee decides again, as for a version conflict. SQLite never
/// reports these codes.
pub(super) fn db_err(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(d) = &e
        && matches!(d.code().as_deref(), Some("40001" | "40P01"))
    {
        return StoreError::Conflict;
    }
    StoreError::Db(e)
}
