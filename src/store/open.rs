//! Opening the database a URL names, with or without its migrations.

use std::sync::Arc;

use super::backend::Backend;
use super::contract::Store;
use super::error::StoreError;
use super::postgres::PostgresStore;
use super::records::SchemaStatus;
use super::sqlite::{self, SqliteStore};

/// Opens the database a URL names and brings its schema up to date (the migrations run at
/// start; on PostgreSQL they take an advisory lock, so processes starting together apply
/// them once). SQLite is opened with full durability (fsync at every commit).
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match Backend::of(url) {
        Backend::Sqlite => Arc::new(SqliteStore::open(url, sqlite::Durability::Full).await?),
        Backend::Postgres => Arc::new(PostgresStore::open(url).await?),
    })
}

/// Connects without migrating, to inspect a database (`photofinish health`). A SQLite
/// file that does not exist is an error here, not a new database.
pub async fn connect(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match Backend::of(url) {
        Backend::Sqlite => Arc::new(SqliteStore::connect(url).await?),
        Backend::Postgres => Arc::new(PostgresStore::connect(url).await?),
    })
}

/// Applies this binary's migrations to the database a URL names; returns the status after.
pub async fn migrate(url: &str) -> Result<SchemaStatus, StoreError> {
    let store = open(url).await?;
    let status = store.schema_status().await;
    store.close().await;
    status
}
