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
    Db(sqlx::Error),
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

/// A database's error, where a damaged database (SQLite's SQLITE_CORRUPT and
/// SQLITE_NOTADB, with their extended codes; PostgreSQL's XX001 and XX002) is
/// [`StoreError::Corrupt`]: its race is quarantined rather than retried for ever.
impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(d) = &e
            && is_damage(d.code().as_deref())
        {
            return StoreError::Corrupt(format!("the database is damaged: {e}"));
        }
        StoreError::Db(e)
    }
}

fn is_damage(code: Option<&str>) -> bool {
    match code {
        Some("XX001" | "XX002") => true,
        Some(code) => code
            .parse::<i32>()
            .is_ok_and(|n| matches!(n & 0xff, 11 | 26)),
        None => false,
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
    StoreError::from(e)
}

#[cfg(test)]
mod tests {
    use super::is_damage;

    #[test]
    fn damage_is_told_from_passing_trouble_by_its_code() {
        for code in ["11", "267", "523", "779", "26", "XX001", "XX002"] {
            assert!(is_damage(Some(code)), "{code}");
        }
        // Busy, locked, full, I/O, a constraint; PostgreSQL's serialisation failure.
        for code in ["5", "6", "13", "10", "2067", "40001", "23505"] {
            assert!(!is_damage(Some(code)), "{code}");
        }
        assert!(!is_damage(None));
    }
}
