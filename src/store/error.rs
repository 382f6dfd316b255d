//! What goes wrong in storage ([`StoreError`]), and how a database's error becomes one
//! where the difference matters: in a writing transaction. A leaf of the store.

use thiserror::Error;

/// What went wrong in storage.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Someone else changed the campaign first; reload and try again.
    #[error("the race changed while this was being decided")]
    Conflict,
    #[error("there is already a race in this channel")]
    ChannelBusy,
    #[error("no such race")]
    NotFound,
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// A stored row that does not decode: its table, its key (`id 42`), and why.
    #[error("stored row of {table} ({key}) is unreadable: {reason}")]
    BadRow {
        table: &'static str,
        key: String,
        reason: String,
    },
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The deadline a commit says it handled was handled (or replaced) already: another
    /// process got there first, so there is nothing left to do.
    #[error("that deadline was already handled")]
    AlreadyFired,
    #[error(
        "`{0}` is not a database URL: use sqlite:PATH, a file path, or postgres://... (a \
         password holding @, #, / or ? must be percent-encoded, or given as database_password)"
    )]
    BadUrl(String),
    /// sqlx would ignore the parameter, and log its value (which may be a secret).
    #[error(
        "`{url}`: {name} is not a PostgreSQL connection parameter photofinish knows (it takes {known})"
    )]
    UnknownParameter {
        url: String,
        name: String,
        known: &'static str,
    },
    /// TLS to PostgreSQL failed: one sentence for the operator naming the cause (never the
    /// password). Not transient: a certificate or a setting has to change.
    #[error("{0}")]
    Tls(String),
    /// A stored row of a format this binary does not know (written by a newer version).
    #[error(
        "stored row of {table} ({key}) has format {found}; this version reads format {known}: upgrade the bot, or migrate the row"
    )]
    UnknownFormat {
        table: &'static str,
        key: String,
        found: i64,
        known: i64,
    },
}

impl StoreError {
    /// True for a row that will never decode as it is: its race is quarantined rather than
    /// retried.
    pub fn is_poison(&self) -> bool {
        matches!(
            self,
            StoreError::BadRow { .. } | StoreError::UnknownFormat { .. } | StoreError::Corrupt(_)
        )
    }

    /// True when the same request may succeed if tried again.
    pub fn is_transient(&self) -> bool {
        matches!(self, StoreError::Conflict | StoreError::Db(_))
    }
}

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
