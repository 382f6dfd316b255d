//! `photofinish bench`: the referee on SQLite (or PostgreSQL, with `--database URL`) and the
//! bot at scale, measured.
//!
//! - the disk's ceiling: single-row `BEGIN; INSERT; COMMIT` per second through sqlx, on a
//!   scratch SQLite file with the store's pragmas timed between the referee's orders (so
//!   both meet the same disk and the same neighbours), or a scratch PostgreSQL table;
//! - the referee: durable orders per second, with p50/p99 latency from receipt to
//!   acknowledgement, and from the last order of a turn to its resolved outbox row;
//! - scale: many concurrent campaigns across every game with deadlines spread over a
//!   day, the memory the process holds, the time to recover them all after a restart,
//!   and the deadline worker's cost when nothing is due.
//!
//! On PostgreSQL, `--processes N` runs the orders measurement in N child processes at once
//! against the one database (each sets up its own races, then all start together) and adds
//! them up: orders per second over the slowest child's time, latencies over every sample.
//!
//! The floors it is read against (the text report names them): at least
//! [`FLOOR_ORDERS_PER_SEC`] durable orders a second, acknowledgement p99 under
//! [`FLOOR_ACK_P99_MS`], and a restart under [`FLOOR_RESTART_SECS`] at 10,000 races.
//! Engine speed is in `benches/engine.rs` (criterion). Results: docs/performance.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::engine::BotLevel;
use crate::games::GameKind;
use crate::referee::{Actor, Config, NewRace, Referee, SystemClock, TestClock};
use crate::store::sqlite::Durability;
use crate::store::{Backend, PostgresStore, SqliteStore, Store};
use crate::vocab::{Timing, UserId};

/// Durable orders a second the referee must sustain: ten times Discord's global limit.
pub const FLOOR_ORDERS_PER_SEC: f64 = 500.0;
/// An order's acknowledgement, at the 99th percentile.
pub const FLOOR_ACK_P99_MS: f64 = 20.0;
/// A restart with 10,000 races open.
pub const FLOOR_RESTART_SECS: f64 = 1.0;

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchArgs {
    pub dir: Option<PathBuf>,
    /// A PostgreSQL URL to measure on instead of SQLite files.
    pub database: Option<String>,
    pub inserts: usize,
    pub orders: usize,
    pub campaigns: usize,
    /// PostgreSQL: the orders measurement in this many processes at once.
    pub processes: usize,
    /// This is one of those processes.
    pub child: bool,
    pub json: bool,
}

#[derive(Debug, Default, Serialize)]
struct Latency {
    count: usize,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

fn latency(mut samples: Vec<Duration>) -> Latency {
    samples.sort_unstable();
    let at = |q: f64| -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
        samples
            .get(i)
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0)
    };
    Latency {
        count: samples.len(),
        p50_ms: at(0.50),
        p99_ms: at(0.99),
        max_ms: samples
            .last()
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0),
    }
}

#[derive(Debug, Default, Serialize)]
pub struct Report {
    machine: String,
    backend: String,
    /// Processes submitting orders at once.
    processes: usize,
    orders_done: usize,
    orders_secs: f64,
    /// A child's raw latencies (ms), for its parent to merge.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ack_samples_ms: Vec<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    last_samples_ms: Vec<f64>,
    /// The disk's ceiling: single-row committed inserts through sqlx.
    ceiling_inserts_per_sec: f64,
    orders_per_sec: f64,
    order_ack: Latency,
    last_order_to_outbox: Latency,
    campaigns: usize,
    campaigns_by_game: Vec<(String, usize)>,
    populate_secs: f64,
    database_mb: f64,
    rss_idle_mb: f64,
    rss_busy_mb: f64,
    /// SQLite: pages the orders wrote to the write-ahead log per commit, over the commits
    /// in the log when the orders ended (its frames since the last checkpoint).
    wal_pages_per_commit: f64,
    restart_recover_secs: f64,
    /// Open races and players owing an order found by the restart.
    restart_open: usize,
    restart_owing: usize,
    /// Loading every open race whole, for comparison (what a restart no longer does).
    load_every_race_secs: f64,
    idle_tick_micros: f64,
}

/// Resident memory of this process, from /proc (Linux).
fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(std::num::NonZero::get)
        .unwrap_or(1);
    format!("{cores} cores, {cpu}")
}

/// What is wrong with the arguments themselves, before anything runs.
fn refusal(args: &BenchArgs) -> Option<String> {
    match args.database.as_deref() {
        Some(url) if Backend::of(url) != Backend::Postgres => Some(format!(
            "--database takes a postgres:// URL (SQLite runs on scratch files), not {}",
            crate::store::redact(url)
        )),
        None if args.processes > 1 => {
            Some("--processes needs a PostgreSQL --database: SQLite serves one process".into())
        }
        _ => None,
    }
}

pub fn run(args: BenchArgs) -> ExitCode {
    if let Some(why) = refusal(&args) {
        return super::refusal::refuse(&why);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            errln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(bench(args.clone())) {
        Ok(report) => {
            if args.json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            } else {
                print_report(&report);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Where the measurements run.
enum Db {
    /// Fresh SQLite files in a scratch directory.
    Sqlite(PathBuf),
    /// One PostgreSQL database; races go on channels named after this run.
    Postgres { url: String, prefix: String },
}

impl Db {
    async fn open(&self, name: &str, durability: Durability) -> Result<Arc<dyn Store>, String> {
        Ok(match self {
            Db::Sqlite(dir) => Arc::new(
                SqliteStore::open(&dir.join(name).to_string_lossy(), durability)
                    .await
                    .map_err(|e| e.to_string())?,
            ),
            Db::Postgres { url, .. } => {
                Arc::new(PostgresStore::open(url).await.map_err(|e| e.to_string())?)
            }
        })
    }

    fn channel(&self, name: String) -> String {
        match self {
            Db::Sqlite(_) => name,
            Db::Postgres { prefix, .. } => format!("{prefix}{name}"),
        }
    }
}

async fn bench(args: BenchArgs) -> Result<Report, String> {
    let mut report = Report {
        machine: machine(),
        processes: args.processes.max(1),
        ..Report::default()
    };
    match args.database.as_deref() {
        Some(url) if Backend::of(url) == Backend::Postgres => {
            report.backend = "postgres".into();
            let stamp = chrono::Utc::now().timestamp_millis();
            let db = Db::Postgres {
                url: url.to_string(),
                prefix: format!("bench-{}-{stamp}-", std::process::id()),
            };
            if args.child {
                report.processes = 1;
                referee_orders(&db, args.orders, true, None, &mut report).await?;
                return Ok(report);
            }
            if args.inserts > 0 {
                ceiling_pg(url, args.inserts, &mut report).await?;
            }
            if report.processes > 1 {
                let (url, n, orders) = (url.to_string(), report.processes, args.orders);
                let children = tokio::task::spawn_blocking(move || run_children(&url, n, orders))
                    .await
                    .map_err(|e| format!("the children's supervisor failed: {e}"))??;
                merge(&children, &mut report);
            } else {
                referee_orders(&db, args.orders, false, None, &mut report).await?;
            }
            if args.campaigns > 0 {
                scale(&db, args.campaigns, &mut report).await?;
            }
        }
        Some(other) => {
            return Err(format!(
                "--database takes a postgres:// URL (SQLite runs on scratch files), not {}",
                crate::store::redact(other)
            ));
        }
        None => {
            report.backend = "sqlite".into();
            let tmp = tempdir(args.dir.as_deref())?;
            let db = Db::Sqlite(tmp.clone());
            if args.processes > 1 {
                return Err(
                    "--processes needs a PostgreSQL --database: SQLite serves one process".into(),
                );
            }
            let mut ceiling = Ceiling::open(&tmp).await?;
            referee_orders(
                &db,
                args.orders,
                false,
                Some((&mut ceiling, args.inserts)),
                &mut report,
            )
            .await?;
            ceiling.finish(&mut report).await;
            if args.campaigns > 0 {
                scale(&db, args.campaigns, &mut report).await?;
            }
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
    Ok(report)
}

fn tempdir(base: Option<&Path>) -> Result<PathBuf, String> {
    let base = base
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!("photofinish-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Single-row committed inserts on a scratch SQLite file with the store's settings,
/// through sqlx as the store's own commits go, taken between the referee's orders.
struct Ceiling {
    store: SqliteStore,
    done: usize,
    took: Duration,
}

impl Ceiling {
    async fn open(dir: &Path) -> Result<Ceiling, String> {
        let path = dir.join("ceiling.db");
        let store = SqliteStore::open(&path.to_string_lossy(), Durability::Full)
            .await
            .map_err(|e| e.to_string())?;
        sqlx::query("CREATE TABLE bench (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
            .execute(store.pool())
            .await
            .map_err(|e| e.to_string())?;
        Ok(Ceiling {
            store,
            done: 0,
            took: Duration::ZERO,
        })
    }

    async fn run(&mut self, n: usize) -> Result<(), String> {
        let pool = self.store.pool();
        let start = Instant::now();
        for i in 0..n {
            let mut tx = pool.begin().await.map_err(|e| e.to_string())?;
            sqlx::query("INSERT INTO bench (payload) VALUES ($1)")
                .bind(format!("row {}", self.done + i))
                .execute(&mut *tx)
                .await
                .map_err(|e| e.to_string())?;
            tx.commit().await.map_err(|e| e.to_string())?;
        }
        self.took += start.elapsed();
        self.done += n;
        Ok(())
    }

    async fn finish(self, report: &mut Report) {
        if self.done > 0 {
            report.ceiling_inserts_per_sec = self.done as f64 / self.took.as_secs_f64();
        }
        self.store.close().await;
    }
}

/// The same ceiling on PostgreSQL, in a scratch table dropped afterwards.
async fn ceiling_pg(url: &str, n: usize, report: &mut Report) -> Result<(), String> {
    let store = PostgresStore::open(url).await.map_err(|e| e.to_string())?;
    let pool = store.pool();
    let table = format!("bench_raw_{}", std::process::id());
    // The table name is ours (a pid), never input.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE {table} (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload TEXT NOT NULL)"
    )))
    .execute(pool)
    .await
    .map_err(|e| e.to_string())?;
    let insert = format!("INSERT INTO {table} (payload) VALUES ($1)");
    let start = Instant::now();
    for i in 0..n {
        let mut tx = pool.begin().await.map_err(|e| e.to_string())?;
        sqlx::query(sqlx::AssertSqlSafe(insert.clone()))
            .bind(format!("row {i}"))
            .execute(&mut *tx)
            .await
            .map_err(|e| e.to_string())?;
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    report.ceiling_inserts_per_sec = n as f64 / start.elapsed().as_secs_f64();
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP TABLE {table}")))
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
    pool.close().await;
    Ok(())
}

fn host() -> Actor {
    Actor::new("bench-host", "Host")
}

/// Runs `n` children of this binary (`bench --child`) on one database, each submitting
/// `orders`: waits until every one has set up its races, starts them together, and
/// returns their reports.
fn run_children(url: &str, n: usize, orders: usize) -> Result<Vec<serde_json::Value>, String> {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let mut children = Vec::new();
    for _ in 0..n {
        let child = Command::new(&exe)
            .args([
                "bench",
                "--child",
                "--json",
                "--inserts",
                "0",
                "--campaigns",
                "0",
            ])
            .args(["--orders", &orders.to_string(), "--database", url])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start a bench process: {e}"))?;
        children.push(child);
    }
    let mut readers = Vec::new();
    for child in &mut children {
        let out = child.stdout.take().ok_or("a bench process has no output")?;
        let mut reader = BufReader::new(out);
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .map_err(|e| format!("a bench process failed: {e}"))?;
        if line.trim() != "ready" {
            return Err(format!("a bench process failed to set up: {line}"));
        }
        readers.push(reader);
    }
    // All set up: go.
    for child in &mut children {
        if let Some(stdin) = child.stdin.as_mut() {
            stdin
                .write_all(b"go\n")
                .map_err(|e| format!("cannot start a bench process: {e}"))?;
        }
    }
    let mut reports = Vec::new();
    for (mut child, mut reader) in children.into_iter().zip(readers) {
        let mut text = String::new();
        reader
            .read_to_string(&mut text)
            .map_err(|e| format!("a bench process failed: {e}"))?;
        let status = child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("a bench process failed ({status})"));
        }
        reports.push(
            serde_json::from_str(&text)
                .map_err(|e| format!("a bench process's report is unreadable: {e}"))?,
        );
    }
    Ok(reports)
}

/// Adds up the children's reports: orders over the slowest one's time, every sample.
fn merge(children: &[serde_json::Value], report: &mut Report) {
    let samples = |key: &str| -> Vec<Duration> {
        children
            .iter()
            .flat_map(|c| c[key].as_array().cloned().unwrap_or_default())
            .filter_map(|v| v.as_f64())
            .map(|ms| Duration::from_secs_f64(ms / 1000.0))
            .collect()
    };
    let done: usize = children
        .iter()
        .filter_map(|c| c["orders_done"].as_u64())
        .map(|d| usize::try_from(d).unwrap_or(0))
        .sum();
    let secs = children
        .iter()
        .filter_map(|c| c["orders_secs"].as_f64())
        .fold(0.0, f64::max);
    report.orders_done = done;
    report.orders_secs = secs;
    report.orders_per_sec = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    report.order_ack = latency(samples("ack_samples_ms"));
    report.last_order_to_outbox = latency(samples("last_samples_ms"));
}

/// A child waits for its parent's `go`, after saying it is ready.
fn ready_then_wait() -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout();
    writeln!(out, "ready").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Durable orders: 8-runner Dream Mile races, every order acknowledged after its commit.
/// A `child` says when it is set up and waits for `go` before measuring, and keeps the
/// raw samples.
/// Orders through the referee; with `ceiling`, that many ceiling inserts are timed between
/// them, spread evenly, so both meet the same disk and the same neighbours.
async fn referee_orders(
    db: &Db,
    n: usize,
    child: bool,
    mut ceiling: Option<(&mut Ceiling, usize)>,
    report: &mut Report,
) -> Result<(), String> {
    let store = db.open("orders.db", Durability::Full).await?;
    let referee = Referee::new(
        store.clone(),
        Arc::new(SystemClock),
        Config {
            limits: crate::referee::Limits::off(),
            ..Config::default()
        },
    );
    let runners = 8usize;
    let races = n.div_ceil(runners * 7).max(1);
    let mut ids = Vec::new();
    for r in 0..races {
        let id = referee
            .create(NewRace {
                kind: GameKind::DreamMile,
                options: String::new(),
                channel: db.channel(format!("orders-{r}")),
                guild: None,
                host: host(),
            })
            .await
            .map_err(|e| e.to_string())?;
        for s in 0..runners {
            referee
                .join(
                    id,
                    &Actor::new(format!("u{r}-{s}"), format!("R{s}")),
                    None,
                    None,
                )
                .await
                .map_err(|e| e.to_string())?;
        }
        referee
            .start(id, &host())
            .await
            .map_err(|e| e.to_string())?;
        ids.push(id);
    }
    if child {
        tokio::task::spawn_blocking(ready_then_wait)
            .await
            .map_err(|e| e.to_string())??;
    }
    let mut ack = Vec::new();
    let mut last = Vec::new();
    let mut busy = Duration::ZERO;
    let mut done = 0usize;
    let mut start = Instant::now();
    'outer: for _turn in 0..7 {
        for (r, id) in ids.iter().enumerate() {
            for s in 0..runners {
                if done >= n {
                    break 'outer;
                }
                let t = Instant::now();
                referee
                    .submit(*id, &UserId::new(format!("u{r}-{s}")), "4")
                    .await
                    .map_err(|e| e.to_string())?;
                let took = t.elapsed();
                if s + 1 == runners {
                    last.push(took);
                } else {
                    ack.push(took);
                }
                done += 1;
                if let Some((ceiling, total)) = ceiling.as_mut() {
                    busy += start.elapsed();
                    ceiling
                        .run((done * *total / n).saturating_sub(ceiling.done))
                        .await?;
                    start = Instant::now();
                }
            }
        }
    }
    busy += start.elapsed();
    if let Some((ceiling, total)) = ceiling {
        ceiling.run(total.saturating_sub(ceiling.done)).await?;
    }
    report.orders_secs = busy.as_secs_f64();
    report.orders_done = done;
    report.orders_per_sec = done as f64 / report.orders_secs;
    if child {
        let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
        report.ack_samples_ms = ack.iter().map(ms).collect();
        report.last_samples_ms = last.iter().map(ms).collect();
    }
    report.order_ack = latency(ack);
    report.last_order_to_outbox = latency(last);
    if let Db::Sqlite(dir) = db {
        report.wal_pages_per_commit = wal_pages_per_commit(&dir.join("orders.db-wal"));
    }
    store.close().await;
    Ok(())
}

/// The median of frames per commit in a write-ahead log (a commit's last frame carries the
/// database's size; the log restarts from its start, so older commits follow the newest,
/// with other salts): near a plain order's pages, as seven orders in eight resolve
/// nothing; a mean swung with resolutions and where the log last restarted. 0 when
/// unreadable.
fn wal_pages_per_commit(path: &Path) -> f64 {
    let Ok(wal) = std::fs::read(path) else {
        return 0.0;
    };
    let word = |at: usize| -> Option<u32> {
        let bytes = wal.get(at..at.checked_add(4)?)?;
        Some(u32::from_be_bytes(bytes.try_into().ok()?))
    };
    let (Some(page), Some(salt1), Some(salt2)) = (word(8), word(16), word(20)) else {
        return 0.0;
    };
    let frame = 24usize.saturating_add(page as usize);
    let (mut at, mut frames, mut commits) = (32usize, 0u32, Vec::new());
    let mut salts = (salt1, salt2);
    while at.saturating_add(frame) <= wal.len() {
        let (Some(size), Some(s1), Some(s2)) = (word(at + 4), word(at + 8), word(at + 12)) else {
            break;
        };
        if (s1, s2) != salts {
            // An older generation: its first frames here may end a commit begun in the
            // part the newer one overwrote.
            salts = (s1, s2);
            frames = 0;
        }
        frames = frames.saturating_add(1);
        if size != 0 {
            commits.push(frames);
            frames = 0;
        }
        at = at.saturating_add(frame);
    }
    commits.sort_unstable();
    commits
        .get(commits.len() / 2)
        .map_or(0.0, |&n| f64::from(n))
}

/// Many campaigns across every game, waiting on one human each, with deadlines spread
/// over a day; then memory, restart and idle costs.
async fn scale(db: &Db, n: usize, report: &mut Report) -> Result<(), String> {
    let clock = Arc::new(TestClock::at_epoch());
    let store = db.open("scale.db", Durability::Normal).await?;
    let kinds: Vec<GameKind> = GameKind::all().collect();
    let mut by_game = vec![0usize; kinds.len()];
    let start = Instant::now();
    let day = 86_400u64;
    for i in 0..n {
        let kind = kinds[i % kinds.len()];
        // Turn lengths from 1 hour to a day spread the deadlines over a day.
        let turn_secs = 3600 + (i as u64 * 7919) % (day - 3600);
        let config = Config {
            default_timing: Timing {
                turn_secs,
                reminders: vec![1800],
                resolve_early: true,
                calendar: Default::default(),
            },
            // One host opens every race: the quotas are for Discord's members.
            limits: crate::referee::Limits::off(),
            ..Config::default()
        };
        let referee = Referee::new(store.clone(), clock.clone(), config);
        let id = referee
            .create(NewRace {
                kind,
                options: String::new(),
                channel: db.channel(format!("scale-{i}")),
                guild: None,
                host: host(),
            })
            .await
            .map_err(|e| e.to_string())?;
        let options = kind.default_options();
        let (min, max) = kind.seat_limits(&options).map_err(|e| e.to_string())?;
        let seats = 4usize.clamp(min, max);
        referee
            .join(id, &Actor::new(format!("human-{i}"), "Human"), None, None)
            .await
            .map_err(|e| e.to_string())?;
        referee
            .add_bots(id, &host(), seats - 1, BotLevel::Heuristic)
            .await
            .map_err(|e| e.to_string())?;
        referee
            .start(id, &host())
            .await
            .map_err(|e| e.to_string())?;
        by_game[i % kinds.len()] += 1;
    }
    report.populate_secs = start.elapsed().as_secs_f64();
    report.campaigns = n;
    report.campaigns_by_game = kinds
        .iter()
        .map(|k| k.slug().to_string())
        .zip(by_game)
        .collect();
    // Idle: a referee with nothing due.
    let referee = Referee::new(store.clone(), clock.clone(), Config::default());
    let t = Instant::now();
    let ticks = 200;
    for _ in 0..ticks {
        referee.tick().await.map_err(|e| e.to_string())?;
        referee.next_due().await.map_err(|e| e.to_string())?;
    }
    report.idle_tick_micros = t.elapsed().as_secs_f64() * 1e6 / f64::from(ticks);
    report.rss_idle_mb = rss_mb();
    report.database_mb = match db {
        Db::Sqlite(dir) => std::fs::metadata(dir.join("scale.db"))
            .map(|m| m.len() as f64 / 1_048_576.0)
            .unwrap_or(0.0),
        Db::Postgres { url, .. } => pg_database_mb(url).await,
    };
    store.close().await;
    drop(referee);
    // Restart, as the bot does it: open, migrate, list the open races, fire what is due,
    // and find the players who owe an order (the DM catch-up). Nothing loads a race that
    // has no work due.
    let t = Instant::now();
    let store = db.open("scale.db", Durability::Normal).await?;
    let referee = Referee::new(store.clone(), clock.clone(), Config::default());
    let open = store.open_campaigns().await.map_err(|e| e.to_string())?;
    referee.tick().await.map_err(|e| e.to_string())?;
    let owing = referee.owing_players().await.map_err(|e| e.to_string())?;
    report.restart_recover_secs = t.elapsed().as_secs_f64();
    report.restart_open = open.len();
    report.restart_owing = owing.len();
    // What the restart measured before: every open race loaded whole.
    let t = Instant::now();
    for id in &open {
        store.load(*id).await.map_err(|e| e.to_string())?;
    }
    report.load_every_race_secs = t.elapsed().as_secs_f64();
    // Busy: a quarter of the deadlines fall due at once.
    clock.advance_secs(6 * 3600);
    referee.tick().await.map_err(|e| e.to_string())?;
    report.rss_busy_mb = rss_mb();
    store.close().await;
    Ok(())
}

/// The whole PostgreSQL database's size (other data included).
async fn pg_database_mb(url: &str) -> f64 {
    let Ok(store) = PostgresStore::connect(url).await else {
        return 0.0;
    };
    let size = sqlx::query_scalar::<_, i64>("SELECT pg_database_size(current_database())")
        .fetch_one(store.pool())
        .await
        .unwrap_or(0);
    store.pool().close().await;
    size as f64 / 1_048_576.0
}

fn print_report(r: &Report) {
    outln!("machine: {}", r.machine);
    if r.processes > 1 {
        outln!(
            "{} processes at once: {} orders in {:.2} s",
            r.processes,
            r.orders_done,
            r.orders_secs
        );
    }
    outln!(
        "floors: {FLOOR_ORDERS_PER_SEC:.0} durable orders/s, ack p99 under {FLOOR_ACK_P99_MS:.0} ms, restart under {FLOOR_RESTART_SECS:.0} s at 10,000 races"
    );
    outln!(
        "ceiling, single-row BEGIN; INSERT; COMMIT through sqlx on {}: {:.0}/s",
        r.backend,
        r.ceiling_inserts_per_sec
    );
    outln!(
        "referee durable orders: {:.0}/s; ack p50 {:.2} ms, p99 {:.2} ms",
        r.orders_per_sec,
        r.order_ack.p50_ms,
        r.order_ack.p99_ms
    );
    if r.wal_pages_per_commit > 0.0 {
        outln!(
            "write-ahead log: {:.0} pages per commit of an order, the median (a ceiling insert: 1)",
            r.wal_pages_per_commit
        );
    }
    outln!(
        "last order to resolved outbox: p50 {:.2} ms, p99 {:.2} ms ({} turns)",
        r.last_order_to_outbox.p50_ms,
        r.last_order_to_outbox.p99_ms,
        r.last_order_to_outbox.count
    );
    outln!(
        "campaigns: {} ({:?}) populated in {:.1} s, database {:.1} MB",
        r.campaigns,
        r.campaigns_by_game,
        r.populate_secs,
        r.database_mb
    );
    outln!(
        "RSS idle {:.1} MB, busy {:.1} MB",
        r.rss_idle_mb,
        r.rss_busy_mb
    );
    outln!(
        "restart (open, migrate, fire what is due, find who owes an order): {:.3} s for {} open races, {} players owing; loading every race whole: {:.3} s",
        r.restart_recover_secs,
        r.restart_open,
        r.restart_owing,
        r.load_every_race_secs
    );
    outln!(
        "deadline worker with nothing due: {:.0} µs per wake",
        r.idle_tick_micros
    );
}
