//! SQLite's commits on a connection of the store's own ([`RawWriter`]), opened and stepped
//! through SQLite's C library on the calling thread instead of sqlx's worker thread.
//!
//! Why: a commit through sqlx is a trip to the connection's thread and back, each
//! statement's result woken across threads; on a 2-core machine that cost as much as the
//! writing itself (issue 21, docs/performance.md: 0.41 of the raw-SQLite ceiling through
//! sqlx, 0.47 to 0.50 this way, same runs). Only the commit batch comes here; every other
//! query stays on sqlx. The compiled statements of recent batches are kept, and finalized
//! before the connection closes, as SQLite requires.
#![allow(unsafe_code)]

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int};
use std::fmt;
use std::path::Path;
use std::ptr::{NonNull, null, null_mut};
use std::sync::Mutex;

use libsqlite3_sys as ffi;
use sqlx::error::{DatabaseError, ErrorKind};

use super::sql::Arg;
use super::sqlite::Durability;

/// Batches whose compiled statements are kept: a plain order's, a resolution's for each
/// count of rows, the lobby's. More are rare; past this the cache starts again.
const KEPT_BATCHES: usize = 64;

/// What running a batch came to: the rows each statement changed (0 for one that only
/// reads) up to the first error, and that error, after which nothing of the batch stays.
pub(super) struct Ran {
    pub counts: Vec<u64>,
    pub error: Option<sqlx::Error>,
    /// The error was SQLite's "busy": another connection holds the write lock.
    pub busy: bool,
}

impl Ran {
    fn failed(error: sqlx::Error) -> Ran {
        Ran {
            counts: Vec::new(),
            error: Some(error),
            busy: false,
        }
    }
}

/// Commits that found the write lock held and waited for it off the worker.
#[cfg(test)]
pub(crate) static WAITED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How long a commit waits for another connection's write lock, as the pool's
/// connections do (`SqliteStore::open`).
const BUSY_WAIT_MS: c_int = 10_000;

/// See the module's comment. Opened at first use, and again after a failure closed it.
pub(super) struct RawWriter {
    path: CString,
    durability: Durability,
    conn: Mutex<Option<Conn>>,
}

impl RawWriter {
    pub(super) fn new(path: &Path, durability: Durability) -> Result<RawWriter, sqlx::Error> {
        let path = CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| refused("the database's path holds a NUL byte".into()))?;
        Ok(RawWriter {
            path,
            durability,
            conn: Mutex::new(None),
        })
    }

    /// Runs every statement of `sql` (a whole transaction, its `BEGIN` and `COMMIT`
    /// included), each `$n` bound to `args[n - 1]`. On an error the transaction is rolled
    /// back; a connection that cannot roll back is closed.
    pub(super) fn run(&self, sql: &str, args: &[Arg<'_>]) -> Ran {
        let on_runtime = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        if !on_runtime {
            return self.run_here(sql, args, BUSY_WAIT_MS);
        }
        // First on this worker, not waiting for the write lock: then only the commit's
        // own writing (an fsync; every thousand pages or so, SQLite's automatic
        // checkpoint) holds the worker up. Handing the worker's tasks to
        // another thread for every commit (`block_in_place`) cost a tenth of an order's
        // time (issue 21, docs/performance.md).
        let ran = self.run_here(sql, args, 0);
        if !ran.busy {
            return ran;
        }
        // Another connection holds the write lock (nothing of this batch was written, as
        // it stopped at its `BEGIN IMMEDIATE`): wait for it off the worker.
        #[cfg(test)]
        WAITED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        tokio::task::block_in_place(|| self.run_here(sql, args, BUSY_WAIT_MS))
    }

    fn run_here(&self, sql: &str, args: &[Arg<'_>], busy_wait_ms: c_int) -> Ran {
        let Ok(mut slot) = self.conn.lock() else {
            return Ran::failed(refused("the writer's lock was poisoned".into()));
        };
        let conn = match slot.take() {
            Some(c) => slot.insert(c),
            None => match Conn::open(&self.path, self.durability) {
                Ok(c) => slot.insert(c),
                Err(error) => return Ran::failed(error),
            },
        };
        // SAFETY: an open connection.
        unsafe { ffi::sqlite3_busy_timeout(conn.db.as_ptr(), busy_wait_ms) };
        let ran = conn.run(sql, args);
        if ran.error.is_some() && !conn.roll_back() {
            // Dropping it finalizes its statements and closes it, which rolls back.
            *slot = None;
        }
        ran
    }

    /// Closes the connection (it opens again if used).
    pub(super) fn close(&self) {
        if let Ok(mut slot) = self.conn.lock() {
            *slot = None;
        }
    }
}

/// An open connection and the compiled statements of recent batches.
struct Conn {
    db: NonNull<ffi::sqlite3>,
    kept: HashMap<String, Vec<Statement>>,
}

// SAFETY: the connection is opened without SQLite's own mutex and used by one thread at a
// time, under `RawWriter::conn`'s lock; nothing of it is shared outside.
unsafe impl Send for Conn {}

impl Drop for Conn {
    fn drop(&mut self) {
        // Statements first: a connection with statements left does not close.
        self.kept.clear();
        // SAFETY: opened by `Conn::open`, closed once, its statements finalized above.
        unsafe { ffi::sqlite3_close(self.db.as_ptr()) };
    }
}

/// A compiled statement, finalized when dropped (always before its connection closes).
struct Statement(NonNull<ffi::sqlite3_stmt>);

impl Drop for Statement {
    fn drop(&mut self) {
        // SAFETY: prepared on a connection still open (see `Conn::drop`), finalized once.
        unsafe { ffi::sqlite3_finalize(self.0.as_ptr()) };
    }
}

impl Conn {
    fn open(path: &CStr, durability: Durability) -> Result<Conn, sqlx::Error> {
        let mut raw = null_mut();
        let flags = ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_NOMUTEX;
        // SAFETY: `path` is NUL-terminated; SQLite writes a handle (even on failure).
        let rc = unsafe { ffi::sqlite3_open_v2(path.as_ptr(), &mut raw, flags, null()) };
        let Some(db) = NonNull::new(raw) else {
            return Err(refused("SQLite could not allocate a connection".into()));
        };
        let conn = Conn {
            db,
            kept: HashMap::new(),
        };
        if rc != ffi::SQLITE_OK {
            return Err(conn.error());
        }
        // As the pool's connections (`SqliteStore::open`).
        let synchronous = match durability {
            Durability::Full => c"PRAGMA synchronous = FULL",
            Durability::Normal => c"PRAGMA synchronous = NORMAL",
        };
        for pragma in [synchronous, c"PRAGMA foreign_keys = ON"] {
            // SAFETY: an open connection and a NUL-terminated statement; no callback.
            let rc = unsafe {
                ffi::sqlite3_exec(db.as_ptr(), pragma.as_ptr(), None, null_mut(), null_mut())
            };
            if rc != ffi::SQLITE_OK {
                return Err(conn.error());
            }
        }
        Ok(conn)
    }

    fn error(&self) -> sqlx::Error {
        // SAFETY: an open connection; the message is NUL-terminated, owned by SQLite, and
        // copied before any other call on the connection.
        let (code, message) = unsafe {
            (
                ffi::sqlite3_extended_errcode(self.db.as_ptr()),
                CStr::from_ptr(ffi::sqlite3_errmsg(self.db.as_ptr()))
                    .to_string_lossy()
                    .into_owned(),
            )
        };
        sqlx::Error::Database(Box::new(BatchError::new(code, message)))
    }

    /// Rolls back what the batch left open; false if that failed.
    fn roll_back(&mut self) -> bool {
        // SAFETY: an open connection.
        if unsafe { ffi::sqlite3_get_autocommit(self.db.as_ptr()) } != 0 {
            return true;
        }
        // SAFETY: as above, and a NUL-terminated statement; no callback.
        let rc = unsafe {
            ffi::sqlite3_exec(
                self.db.as_ptr(),
                c"ROLLBACK".as_ptr(),
                None,
                null_mut(),
                null_mut(),
            )
        };
        rc == ffi::SQLITE_OK
    }

    fn run(&mut self, sql: &str, args: &[Arg<'_>]) -> Ran {
        let mut counts = Vec::new();
        if !self.kept.contains_key(sql) {
            let statements = match self.compile(sql) {
                Ok(s) => s,
                Err(error) => return Ran::failed(error),
            };
            if self.kept.len() >= KEPT_BATCHES {
                self.kept.clear();
            }
            self.kept.insert(sql.to_owned(), statements);
        }
        let db = self.db.as_ptr();
        let Some(statements) = self.kept.get(sql) else {
            return Ran::failed(refused("a compiled batch went missing".into()));
        };
        let mut error = None;
        let mut busy = false;
        for stmt in statements {
            let s = stmt.0.as_ptr();
            let rc = if let Err(e) = bind(s, args) {
                error = Some(e);
                ffi::SQLITE_MISUSE
            } else {
                loop {
                    // SAFETY: a live statement of `db`, bound to `args`, which outlive the
                    // step (the bindings are cleared below, before `run` returns).
                    match unsafe { ffi::sqlite3_step(s) } {
                        ffi::SQLITE_ROW => continue,
                        rc => break rc,
                    }
                }
            };
            if rc == ffi::SQLITE_DONE {
                // SAFETY: a live statement; `db` is open.
                let changed = unsafe {
                    if ffi::sqlite3_stmt_readonly(s) != 0 {
                        0
                    } else {
                        ffi::sqlite3_changes64(db)
                    }
                };
                counts.push(u64::try_from(changed).unwrap_or(0));
            } else if error.is_none() {
                // Busy at the first statement (`BEGIN IMMEDIATE`): nothing was written.
                busy = counts.is_empty() && rc & 0xff == ffi::SQLITE_BUSY;
                error = Some(self.error());
            }
            // SAFETY: a live statement: ready for the next run, holding no argument.
            unsafe {
                ffi::sqlite3_reset(s);
                ffi::sqlite3_clear_bindings(s);
            }
            if error.is_some() {
                break;
            }
        }
        Ran {
            counts,
            error,
            busy,
        }
    }

    /// Compiles each statement of `sql`.
    fn compile(&self, sql: &str) -> Result<Vec<Statement>, sqlx::Error> {
        let mut statements = Vec::new();
        let mut rest = sql.as_bytes();
        while !rest.is_empty() {
            let len =
                c_int::try_from(rest.len()).map_err(|_| refused("the batch is too long".into()))?;
            let mut raw = null_mut();
            let mut tail: *const c_char = null();
            // SAFETY: an open connection; `rest` is valid for `len` bytes (no NUL needed
            // when the length is given); SQLite writes the statement and where it stopped,
            // inside `rest`.
            let rc = unsafe {
                ffi::sqlite3_prepare_v3(
                    self.db.as_ptr(),
                    rest.as_ptr().cast(),
                    len,
                    ffi::SQLITE_PREPARE_PERSISTENT,
                    &mut raw,
                    &mut tail,
                )
            };
            if rc != ffi::SQLITE_OK {
                return Err(self.error());
            }
            let used = (tail as usize).saturating_sub(rest.as_ptr() as usize);
            rest = rest.get(used..).unwrap_or_default();
            // Only blanks or a comment were left.
            let Some(stmt) = NonNull::new(raw) else {
                break;
            };
            statements.push(Statement(stmt));
        }
        Ok(statements)
    }
}

/// Binds each `$n` of `s` to `args[n - 1]`.
fn bind(s: *mut ffi::sqlite3_stmt, args: &[Arg<'_>]) -> Result<(), sqlx::Error> {
    // SAFETY: a live statement.
    let count = unsafe { ffi::sqlite3_bind_parameter_count(s) };
    for i in 1..=count {
        // SAFETY: `i` is a valid index; the name is NUL-terminated and owned by `s`.
        let name = unsafe { ffi::sqlite3_bind_parameter_name(s, i) };
        let n = if name.is_null() {
            None
        } else {
            // SAFETY: non-null and NUL-terminated.
            let name = unsafe { CStr::from_ptr(name) }.to_bytes();
            name.strip_prefix(b"$")
                .and_then(|d| std::str::from_utf8(d).ok())
                .and_then(|d| d.parse::<usize>().ok())
        };
        let Some(arg) = n.and_then(|n| n.checked_sub(1)).and_then(|n| args.get(n)) else {
            return Err(refused(format!("parameter {i} of a commit has no value")));
        };
        // SAFETY: `s` is live and `i` valid. Text is bound without a copy (SQLITE_STATIC):
        // `args` outlives the statement's use, and the bindings are cleared after it.
        let rc = unsafe {
            match arg {
                Arg::Int(v) | Arg::OptInt(Some(v)) => ffi::sqlite3_bind_int64(s, i, *v),
                Arg::Flag(v) => ffi::sqlite3_bind_int64(s, i, i64::from(*v)),
                Arg::OptInt(None) | Arg::OptText(None) => ffi::sqlite3_bind_null(s, i),
                Arg::Text(t) | Arg::OptText(Some(t)) => {
                    let Ok(len) = c_int::try_from(t.len()) else {
                        return Err(refused(format!("parameter {i} of a commit is too long")));
                    };
                    ffi::sqlite3_bind_text(s, i, t.as_ptr().cast(), len, ffi::SQLITE_STATIC())
                }
            }
        };
        if rc != ffi::SQLITE_OK {
            return Err(refused(format!(
                "parameter {i} of a commit could not be bound"
            )));
        }
    }
    Ok(())
}

fn refused(message: String) -> sqlx::Error {
    sqlx::Error::Database(Box::new(BatchError::new(ffi::SQLITE_MISUSE, message)))
}

/// An error SQLite reported for a commit: its extended result code and message, carried as
/// sqlx carries its own (`sqlx::Error::Database`), so callers see one kind of error.
#[derive(Debug)]
struct BatchError {
    code: c_int,
    message: String,
}

impl BatchError {
    fn new(code: c_int, message: String) -> BatchError {
        BatchError { code, message }
    }
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(code: {}) {}", self.code, self.message)
    }
}

impl std::error::Error for BatchError {}

impl DatabaseError for BatchError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Owned(self.code.to_string()))
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> ErrorKind {
        match self.code {
            ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
                ErrorKind::UniqueViolation
            }
            ffi::SQLITE_CONSTRAINT_FOREIGNKEY => ErrorKind::ForeignKeyViolation,
            ffi::SQLITE_CONSTRAINT_NOTNULL => ErrorKind::NotNullViolation,
            ffi::SQLITE_CONSTRAINT_CHECK => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::Ordering;

    const INSERT: &str = "BEGIN IMMEDIATE; INSERT INTO t (x) VALUES ($1); COMMIT";

    fn exec(conn: &Conn, sql: &CStr) {
        // SAFETY: an open connection and a NUL-terminated statement; no callback.
        let rc = unsafe {
            ffi::sqlite3_exec(conn.db.as_ptr(), sql.as_ptr(), None, null_mut(), null_mut())
        };
        assert_eq!(rc, ffi::SQLITE_OK, "{sql:?}");
    }

    fn count(conn: &Conn) -> i64 {
        let statements = conn.compile("SELECT count(*) FROM t").unwrap();
        let s = statements[0].0.as_ptr();
        // SAFETY: a live statement of an open connection, read before it is finalized.
        unsafe {
            assert_eq!(ffi::sqlite3_step(s), ffi::SQLITE_ROW);
            ffi::sqlite3_column_int64(s, 0)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_commit_waits_for_another_connections_write_lock_and_then_lands() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.db");
        std::fs::File::create(&path).unwrap();
        let holder = Conn::open(
            &CString::new(path.to_str().unwrap()).unwrap(),
            Durability::Full,
        )
        .unwrap();
        exec(&holder, c"PRAGMA journal_mode = WAL");
        exec(&holder, c"CREATE TABLE t (x INTEGER)");
        let writer = Arc::new(RawWriter::new(&path, Durability::Full).unwrap());

        // Nobody else writing: it lands on the worker.
        let w = writer.clone();
        let ran = tokio::spawn(async move { w.run(INSERT, &[Arg::Int(1)]) })
            .await
            .unwrap();
        assert!(ran.error.is_none(), "{:?}", ran.error);
        assert_eq!(count(&holder), 1);

        // Another connection holds the write lock: the commit waits for it, off the worker,
        // and lands once it is released.
        exec(&holder, c"BEGIN IMMEDIATE");
        let waited = WAITED.load(Ordering::SeqCst);
        let w = writer.clone();
        let task = tokio::spawn(async move { w.run(INSERT, &[Arg::Int(2)]) });
        let mut polls = 0;
        while WAITED.load(Ordering::SeqCst) == waited && !task.is_finished() {
            polls += 1;
            assert!(polls < 100_000, "the commit neither waited nor ended");
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        if task.is_finished() {
            let ran = task.await.unwrap();
            panic!("the commit did not wait for the lock: {:?}", ran.error);
        }
        exec(&holder, c"COMMIT");
        let ran = task.await.unwrap();
        assert!(ran.error.is_none(), "{:?}", ran.error);
        assert_eq!(count(&holder), 2);
        writer.close();
    }
}
