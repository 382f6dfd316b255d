//! `photofinish bench`: the referee on SQLite (or PostgreSQL, with `--database URL`) and the
//! bot at scale, measured.
//!
//! - raw database: single-row committed inserts per second (the ceiling);
//! - the referee: durable orders per second, with p50/p99 latency from receipt to
//!   acknowledgement, and from the last order of a turn to its resolved outbox row;
//! - scale: many concurrent campaigns across every game with deadlines spread over a
//!   day, the memory the process holds, the time to recover them all after a restart,
//!   and the deadline worker's cost when nothing is due.
//!
//! Engine speed is in `benches/engine.rs` (criterion). Results: docs/performance.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::engine::{BotLevel, GameKind};
use crate::referee::{Actor, Config, NewRace, Referee, SystemClock, TestClock};
use crate::store::sqlite::Durability;
use crate::store::{Backend, PostgresStore, SqliteStore, Store, Timing, UserId};

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchArgs {
    pub dir: Option<PathBuf>,
    /// A PostgreSQL URL to measure on instead of SQLite files.
    pub database: Option<String>,
    pub inserts: usize,
    pub orders: usize,
    pub campaigns: usize,
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
    raw_inserts_per_sec: f64,
    orders_per_sec: f64,
    orders_ratio_to_raw: f64,
    order_ack: Latency,
    last_order_to_outbox: Latency,
    campaigns: usize,
    campaigns_by_game: Vec<(String, usize)>,
    populate_secs: f64,
    database_mb: f64,
    rss_idle_mb: f64,
    rss_busy_mb: f64,
    restart_recover_secs: f64,
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
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{cores} cores, {cpu}")
}

pub fn run(args: BenchArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(bench(args.clone())) {
        Ok(report) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            } else {
                print_report(&report);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
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
            raw_inserts_pg(url, args.inserts, &mut report).await?;
            referee_orders(&db, args.orders, &mut report).await?;
            if args.campaigns > 0 {
                scale(&db, args.campaigns, &mut report).await?;
            }
        }
        Some(other) => {
            return Err(format!(
                "--database takes a postgres:// URL (SQLite runs on scratch files): {other}"
            ));
        }
        None => {
            report.backend = "sqlite".into();
            let tmp = tempdir(args.dir.as_deref())?;
            raw_inserts(&tmp, args.inserts, &mut report).await?;
            let db = Db::Sqlite(tmp.clone());
            referee_orders(&db, args.orders, &mut report).await?;
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

async fn raw_inserts(dir: &Path, n: usize, report: &mut Report) -> Result<(), String> {
    let path = dir.join("raw.db");
    let store = SqliteStore::open(&path.to_string_lossy(), Durability::Full)
        .await
        .map_err(|e| e.to_string())?;
    let pool = store.pool();
    sqlx::query("CREATE TABLE bench (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    for i in 0..n {
        let mut tx = pool.begin().await.map_err(|e| e.to_string())?;
        sqlx::query("INSERT INTO bench (payload) VALUES (?)")
            .bind(format!("row {i}"))
            .execute(&mut *tx)
            .await
            .map_err(|e| e.to_string())?;
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    report.raw_inserts_per_sec = n as f64 / start.elapsed().as_secs_f64();
    store.close().await;
    Ok(())
}

/// The same ceiling on PostgreSQL, in a scratch table dropped afterwards.
async fn raw_inserts_pg(url: &str, n: usize, report: &mut Report) -> Result<(), String> {
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
    report.raw_inserts_per_sec = n as f64 / start.elapsed().as_secs_f64();
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

/// Durable orders: 8-runner Dream Mile races, every order acknowledged after its commit.
async fn referee_orders(db: &Db, n: usize, report: &mut Report) -> Result<(), String> {
    let store = db.open("orders.db", Durability::Full).await?;
    let referee = Referee::new(store.clone(), Arc::new(SystemClock), Config::default());
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
    let mut ack = Vec::new();
    let mut last = Vec::new();
    let start = Instant::now();
    let mut done = 0usize;
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
            }
        }
    }
    report.orders_per_sec = done as f64 / start.elapsed().as_secs_f64();
    report.orders_ratio_to_raw = if report.raw_inserts_per_sec > 0.0 {
        report.orders_per_sec / report.raw_inserts_per_sec
    } else {
        0.0
    };
    report.order_ack = latency(ack);
    report.last_order_to_outbox = latency(last);
    store.close().await;
    Ok(())
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
            },
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
    report.idle_tick_micros = t.elapsed().as_secs_f64() * 1e6 / ticks as f64;
    report.rss_idle_mb = rss_mb();
    report.database_mb = match db {
        Db::Sqlite(dir) => std::fs::metadata(dir.join("scale.db"))
            .map(|m| m.len() as f64 / 1_048_576.0)
            .unwrap_or(0.0),
        Db::Postgres { url, .. } => pg_database_mb(url).await,
    };
    store.close().await;
    drop(referee);
    // Restart: open, migrate, fire what is due, and load every open campaign.
    let t = Instant::now();
    let store = db.open("scale.db", Durability::Normal).await?;
    let referee = Referee::new(store.clone(), clock.clone(), Config::default());
    referee.tick().await.map_err(|e| e.to_string())?;
    let open = store.open_campaigns().await.map_err(|e| e.to_string())?;
    for id in &open {
        store.load(*id).await.map_err(|e| e.to_string())?;
    }
    report.restart_recover_secs = t.elapsed().as_secs_f64();
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
    println!("machine: {}", r.machine);
    println!(
        "raw {} single-row committed inserts: {:.0}/s",
        r.backend, r.raw_inserts_per_sec
    );
    println!(
        "referee durable orders: {:.0}/s ({:.2} of raw); ack p50 {:.2} ms, p99 {:.2} ms",
        r.orders_per_sec, r.orders_ratio_to_raw, r.order_ack.p50_ms, r.order_ack.p99_ms
    );
    println!(
        "last order to resolved outbox: p50 {:.2} ms, p99 {:.2} ms ({} turns)",
        r.last_order_to_outbox.p50_ms, r.last_order_to_outbox.p99_ms, r.last_order_to_outbox.count
    );
    println!(
        "campaigns: {} ({:?}) populated in {:.1} s, database {:.1} MB",
        r.campaigns, r.campaigns_by_game, r.populate_secs, r.database_mb
    );
    println!(
        "RSS idle {:.1} MB, busy {:.1} MB",
        r.rss_idle_mb, r.rss_busy_mb
    );
    println!(
        "restart until every campaign is recovered: {:.3} s",
        r.restart_recover_secs
    );
    println!(
        "deadline worker with nothing due: {:.0} µs per wake",
        r.idle_tick_micros
    );
}
