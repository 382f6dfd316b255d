//! The store's backends for the integration tests: SQLite always, and PostgreSQL when
//! `PHOTOFINISH_TEST_POSTGRES` holds a server's URL (`.ci/run` starts one and sets it).
//! Without it the PostgreSQL tests are skipped, and the run says so once on stderr. A
//! missing URL fails them instead when `PHOTOFINISH_REQUIRE_POSTGRES` is set, as `.ci/run`
//! sets it: `CI` alone means nothing here (GitHub Actions sets it on every machine).
//!
//! Each test gets a fresh database: a SQLite file in a temp dir, opened as production
//! opens it (full durability: an fsync at every commit), or a new PostgreSQL database on
//! the server (`CREATE DATABASE`, dropped again when the [`Db`] is dropped).
//! [`on_both!`] turns `async fn name(backend: Kind)` tests into `sqlite::name` and
//! `postgres::name` test functions.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use photofinish::games::GameKind;
use photofinish::referee::{Actor, Config, NewRace, Referee, TestClock};
use photofinish::store::{self, PostgresStore, SqliteStore, Store};
use photofinish::vocab::{CampaignId, Timing};
use sqlx::{ConnectOptions, Connection, Row};

/// The environment variable naming the PostgreSQL server the tests use.
pub const POSTGRES_ENV: &str = "PHOTOFINISH_TEST_POSTGRES";

/// Which backend a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// Set (to anything but `0`) by `.ci/run`: a missing server fails instead of skipping.
pub const REQUIRE_ENV: &str = "PHOTOFINISH_REQUIRE_POSTGRES";

/// Whether this run must have a PostgreSQL server.
pub fn postgres_required() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| !v.trim().is_empty() && v.trim() != "0")
}

static SKIP_NOTICE: std::sync::Once = std::sync::Once::new();

/// The PostgreSQL server's URL, if the tests are to use one. Without one the run is told
/// once that the PostgreSQL suite is skipped; panics instead when [`REQUIRE_ENV`] is set.
pub fn postgres_url() -> Option<String> {
    match std::env::var(POSTGRES_ENV) {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ => {
            if postgres_required() {
                panic!(
                    "{REQUIRE_ENV} is set but {POSTGRES_ENV} is not: the PostgreSQL store \
                     suite must run here (.ci/run starts a server with .ci/postgres and sets it)"
                );
            }
            SKIP_NOTICE.call_once(|| {
                // Straight to stderr: the test harness captures eprintln! of passing tests.
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "note: the PostgreSQL suite was skipped ({POSTGRES_ENV} is not set). To run \
                     it, set {POSTGRES_ENV} to a server's URL (`.ci/postgres start DIR` prints \
                     one), or run `.ci/run`."
                );
            });
            None
        }
    }
}

/// Runs each named `async fn(Kind)` on SQLite and on PostgreSQL.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::support::backend::Kind::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if $crate::support::backend::postgres_url().is_none() {
                        return;
                    }
                    super::$name($crate::support::backend::Kind::Postgres).await
                }
            )*
        }
    };
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A fresh, empty database of one backend.
pub struct Db {
    pub kind: Kind,
    pub url: String,
    dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the server's URL and the database's name, to drop it afterwards.
    drop: Option<(String, String)>,
}

impl Db {
    pub async fn new(kind: Kind) -> Db {
        match kind {
            Kind::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = dir
                    .path()
                    .join("photofinish.db")
                    .to_string_lossy()
                    .into_owned();
                Db {
                    kind,
                    url,
                    dir: Some(dir),
                    drop: None,
                }
            }
            Kind::Postgres => {
                let server = postgres_url().expect("PostgreSQL URL");
                let name = format!(
                    "pf_test_{}_{}_{}",
                    std::process::id(),
                    COUNTER.fetch_add(1, Ordering::Relaxed),
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.subsec_nanos())
                        .unwrap_or(0)
                );
                let mut admin = sqlx::postgres::PgConnectOptions::from_str(&server)
                    .expect("a PostgreSQL URL")
                    .connect()
                    .await
                    .unwrap_or_else(|e| panic!("cannot reach PostgreSQL at {POSTGRES_ENV}: {e}"));
                // template0: nobody is ever connected to it, so tests may create in parallel.
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "CREATE DATABASE {name} TEMPLATE template0"
                )))
                .execute(&mut admin)
                .await
                .expect("create a test database");
                let _ = admin.close().await;
                let url = with_database(&server, &name);
                Db {
                    kind,
                    url,
                    dir: None,
                    drop: Some((server, name)),
                }
            }
        }
    }

    /// The store on this database, migrated, as a process would open it.
    pub async fn open(&self) -> Arc<dyn Store> {
        store::open(&self.url)
            .await
            .unwrap_or_else(|e| panic!("open the {:?} store: {e}", self.kind))
    }

    /// A connection for raw SQL (`?` placeholders; PostgreSQL gets `$1`, `$2`, ...).
    pub async fn raw(&self) -> Raw {
        match self.kind {
            Kind::Sqlite => Raw::Sqlite(SqliteStore::connect(&self.url).await.expect("connect")),
            Kind::Postgres => {
                Raw::Postgres(PostgresStore::connect(&self.url).await.expect("connect"))
            }
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        // Best effort, on a thread of its own: Drop cannot await.
        if let Some((server, name)) = self.drop.take() {
            let _ = std::thread::spawn(move || {
                let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                rt.block_on(async move {
                    if let Ok(opts) = sqlx::postgres::PgConnectOptions::from_str(&server)
                        && let Ok(mut c) = opts.connect().await
                    {
                        let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                            "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                        )))
                        .execute(&mut c)
                        .await;
                        let _ = c.close().await;
                    }
                });
            })
            .join();
        }
    }
}

/// The same server URL with another database name.
pub fn with_database(server: &str, name: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (server, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let base = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// A value for raw SQL.
pub enum Arg {
    I(i64),
    S(String),
}

/// Raw SQL on either backend, for tests that look under the store or tamper with it.
pub enum Raw {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

fn numbered(sql: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}

impl Raw {
    /// The first column of the first row, as an integer.
    pub async fn scalar(&self, sql: &str, args: Vec<Arg>) -> i64 {
        let column = self.column(sql, args).await;
        *column.first().unwrap_or_else(|| panic!("no row: {sql}"))
    }

    /// The first column of every row, as integers.
    pub async fn column(&self, sql: &str, args: Vec<Arg>) -> Vec<i64> {
        match self {
            Raw::Sqlite(s) => {
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()));
                for a in args {
                    q = match a {
                        Arg::I(i) => q.bind(i),
                        Arg::S(t) => q.bind(t),
                    };
                }
                let rows = q.fetch_all(s.pool()).await.expect(sql);
                rows.iter().map(|r| r.get::<i64, _>(0)).collect()
            }
            Raw::Postgres(p) => {
                let sql = numbered(sql);
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.clone()));
                for a in args {
                    q = match a {
                        Arg::I(i) => q.bind(i),
                        Arg::S(t) => q.bind(t),
                    };
                }
                let rows = q.fetch_all(p.pool()).await.expect(&sql);
                rows.iter().map(|r| r.get::<i64, _>(0)).collect()
            }
        }
    }

    /// Runs a statement; returns the rows it changed.
    pub async fn execute(&self, sql: &str, args: Vec<Arg>) -> u64 {
        match self {
            Raw::Sqlite(s) => {
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()));
                for a in args {
                    q = match a {
                        Arg::I(i) => q.bind(i),
                        Arg::S(t) => q.bind(t),
                    };
                }
                q.execute(s.pool()).await.expect(sql).rows_affected()
            }
            Raw::Postgres(p) => {
                let sql = numbered(sql);
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.clone()));
                for a in args {
                    q = match a {
                        Arg::I(i) => q.bind(i),
                        Arg::S(t) => q.bind(t),
                    };
                }
                q.execute(p.pool()).await.expect(&sql).rows_affected()
            }
        }
    }

    pub async fn close(&self) {
        match self {
            Raw::Sqlite(s) => s.close().await,
            Raw::Postgres(p) => p.pool().close().await,
        }
    }
}

/// Timing for a test race. No grace window: the suites written before it expect a play
/// to resolve at once (`grace_timing` keeps the real default).
pub fn timing(turn_secs: u64, reminders: Vec<u64>, resolve_early: bool) -> Timing {
    let mut t = grace_timing(turn_secs, reminders, resolve_early);
    t.calendar.grace_secs = Some(0);
    t
}

/// Timing for a test race with the real default grace window (2 minutes).
pub fn grace_timing(turn_secs: u64, reminders: Vec<u64>, resolve_early: bool) -> Timing {
    Timing {
        turn_secs,
        reminders,
        resolve_early,
        calendar: Default::default(),
    }
}

/// A referee on a fresh database of one backend, with a test clock.
pub struct Bench {
    pub db: Db,
    pub clock: Arc<TestClock>,
    pub store: Arc<dyn Store>,
    pub referee: Referee,
}

impl Bench {
    pub async fn new(kind: Kind) -> Bench {
        Bench::with_timing(kind, timing(3600, vec![1800, 600], true)).await
    }

    pub async fn with_timing(kind: Kind, t: Timing) -> Bench {
        let db = Db::new(kind).await;
        let clock = Arc::new(TestClock::at_epoch());
        let store = db.open().await;
        let referee = Referee::new(
            store.clone(),
            clock.clone(),
            Config {
                default_timing: t,
                ..Config::default()
            },
        );
        Bench {
            db,
            clock,
            store,
            referee,
        }
    }

    /// The same database, opened afresh, as after a restart.
    pub async fn restart(self) -> Bench {
        let Bench {
            db,
            clock,
            store,
            referee,
        } = self;
        let config = referee.config().clone();
        drop(referee);
        store.close().await;
        let store = db.open().await;
        let referee = Referee::new(store.clone(), clock.clone(), config);
        Bench {
            db,
            clock,
            store,
            referee,
        }
    }

    /// A second referee on the same database, as another process would be.
    pub async fn second_process(&self) -> (Arc<dyn Store>, Referee) {
        let store = self.db.open().await;
        let referee = Referee::new(
            store.clone(),
            self.clock.clone(),
            self.referee.config().clone(),
        );
        (store, referee)
    }

    /// A lobby for `kind` hosted by `host`.
    pub async fn race(&self, kind: GameKind, host: &Actor, options: &str) -> CampaignId {
        self.referee
            .create(NewRace {
                kind,
                options: options.into(),
                channel: "chan-1".into(),
                guild: Some("guild-1".into()),
                host: host.clone(),
            })
            .await
            .expect("create race")
    }

    /// A count by raw SQL with the campaign's id bound to its one `?`.
    /// A started Dream Mile race of Alice (host), Bob and Carol in `channel`.
    pub async fn three_runners(&self, channel: &str, options: &str) -> CampaignId {
        use super::courier::{alice, bob, carol};
        let id = self
            .referee
            .create(NewRace {
                kind: GameKind::DreamMile,
                options: options.into(),
                channel: channel.into(),
                guild: None,
                host: alice(),
            })
            .await
            .expect("create race");
        for a in [alice(), bob(), carol()] {
            self.referee.join(id, &a, None, None).await.expect("join");
        }
        self.referee.start(id, &alice()).await.expect("start");
        id
    }

    /// The race's current step, as stored.
    pub async fn step_of(&self, id: CampaignId) -> i64 {
        self.count("SELECT step FROM campaigns WHERE id = ?", id)
            .await
    }

    pub async fn count(&self, sql: &str, id: CampaignId) -> i64 {
        let raw = self.db.raw().await;
        let n = raw.scalar(sql, vec![Arg::I(id.0)]).await;
        raw.close().await;
        n
    }
}

/// SQLite: a trigger that fails every event insert of one race as a full disk would, so
/// that the race's commits fail and nothing else's.
pub fn sqlite_disk_full(campaign: i64) -> String {
    format!(
        "CREATE TRIGGER disk_full BEFORE INSERT ON events WHEN NEW.campaign_id = {campaign}
         BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
}

/// A Dream Mile race under way on `referee`: Alice (user 100) hosts in `chan-1`, Bob (200)
/// joins, and it starts with `options`.
pub async fn dream_mile_started(referee: &Referee, options: &str) -> CampaignId {
    let host = Actor::new("100", "Alice");
    let id = referee
        .create(NewRace {
            kind: GameKind::DreamMile,
            options: options.into(),
            channel: "chan-1".into(),
            guild: None,
            host: host.clone(),
        })
        .await
        .expect("create race");
    referee
        .join(id, &host, None, None)
        .await
        .expect("host joins");
    referee
        .join(id, &Actor::new("200", "Bob"), None, None)
        .await
        .expect("Bob joins");
    referee.start(id, &host).await.expect("start");
    id
}
