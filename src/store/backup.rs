//! An online copy of a SQLite database (`photofinish backup`): `VACUUM INTO` through sqlx,
//! a read transaction, so the copy is one consistent snapshot while the bot keeps
//! writing. PostgreSQL is refused: `pg_dump` is its tool.
//!
//! The copy is written beside its destination under a temporary name, flushed to disk
//! (`VACUUM INTO` does not fsync) and renamed into place, so a backup interrupted half-way
//! never leaves a truncated file under the name a restore would use.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::backend::Backend;
use super::error::StoreError;
use super::sqlite::SqliteStore;

/// Why a backup was not made.
#[derive(Debug, Error)]
pub enum BackupError {
    #[error(
        "photofinish backup copies SQLite databases; back up PostgreSQL with pg_dump (pg_dump --format=custom --file=FILE DATABASE_URL)"
    )]
    Postgres,
    #[error("{} already exists: choose another name, or pass --force to replace it", .0.display())]
    Exists(PathBuf),
    #[error("{} is the database itself: write the backup to another file", .0.display())]
    SameFile(PathBuf),
    #[error("cannot write the backup {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot back up the database: {0}")]
    Store(#[from] StoreError),
}

impl BackupError {
    /// True when the request itself was refused (nothing was tried): a wrong backend, a
    /// name taken, the database itself.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            BackupError::Postgres | BackupError::Exists(_) | BackupError::SameFile(_)
        )
    }
}

/// What a backup wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backup {
    pub path: PathBuf,
    pub bytes: u64,
}

/// The file a SQLite URL names (`sqlite:PATH` or a plain path), without its query.
fn sqlite_path(url: &str) -> &str {
    let path = url.strip_prefix("sqlite://").unwrap_or(url);
    let path = path.strip_prefix("sqlite:").unwrap_or(path);
    path.split_once('?').map_or(path, |(p, _)| p)
}

/// Copies the SQLite database `url` names to `dest`, online and consistent; `force`
/// replaces an existing `dest`. The database must exist (it is never created here).
pub async fn backup(url: &str, dest: &Path, force: bool) -> Result<Backup, BackupError> {
    if Backend::of(url) == Backend::Postgres {
        return Err(BackupError::Postgres);
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BackupError::Io { path, source }
    };
    if let (Ok(a), Ok(b)) = (
        std::fs::canonicalize(sqlite_path(url)),
        std::fs::canonicalize(dest),
    ) && a == b
    {
        return Err(BackupError::SameFile(dest.to_path_buf()));
    }
    if !force && dest.exists() {
        return Err(BackupError::Exists(dest.to_path_buf()));
    }
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "photofinish.db".into());
    let partial = dest.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    // A leftover of an earlier run with this process id: VACUUM INTO will not overwrite.
    match std::fs::remove_file(&partial) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(&partial)(e)),
    }
    let store = SqliteStore::connect(url).await?;
    let copied = store.vacuum_into(&partial.to_string_lossy()).await;
    store.close().await;
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(e.into());
    }
    let (from, to) = (partial.clone(), dest.to_path_buf());
    let placed = tokio::task::spawn_blocking(move || place(&from, &to))
        .await
        .map_err(|e| io(dest)(std::io::Error::other(e)))?;
    match placed {
        Ok(bytes) => Ok(Backup {
            path: dest.to_path_buf(),
            bytes,
        }),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(io(dest)(e))
        }
    }
}

/// Flushes the copy, renames it into place and flushes the directory; returns its size.
fn place(partial: &Path, dest: &Path) -> std::io::Result<u64> {
    let file = std::fs::File::open(partial)?;
    file.sync_all()?;
    let bytes = file.metadata()?.len();
    drop(file);
    std::fs::rename(partial, dest)?;
    if let Some(dir) = dest.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        // Not every platform opens a directory to sync it; the rename is done either way.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(bytes)
}
