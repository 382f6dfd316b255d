//! `photofinish health` and `photofinish migrate`: the container's health check, and
//! applying migrations on purpose before an upgrade.
//!
//! Health is the database (reachable, and its migrations exactly this binary's) and the
//! gateway of this bot process. The gateway part reads the `processes` table: a running
//! bot reports its gateway state there with [`Store::heartbeat`] (the Discord adapter's
//! hook: on start, on every gateway change, and every [`HEARTBEAT_SECS`] seconds), under
//! its instance name ([`crate::store::default_instance`], the container's host name unless
//! `PHOTOFINISH_INSTANCE` says otherwise). The health check, run in the same container,
//! looks up the same name.
//!
//! Beyond the gateway, health judges the work (docs/reliability.md): unhealthy when a
//! supervised worker of this instance is down (panicked, waiting to be started again),
//! when the oldest undelivered announcement is older than
//! `PHOTOFINISH_HEALTH_UNDELIVERED_SECS` (default [`MAX_UNDELIVERED_SECS`]), or when a
//! deadline is overdue by more than `PHOTOFINISH_HEALTH_OVERDUE_SECS` (default
//! [`MAX_OVERDUE_SECS`]). `--json` gives the figures: counts, ages, the workers and the
//! quarantined races.
//!
//! The report itself is [`assess`], over a store already open: the metrics listener
//! (`serve.rs`) computes the same report on each scrape.

use std::process::ExitCode;

use serde::Serialize;

use crate::referee::zones::{TzdbInfo, tzdb};
use crate::store::{self, Backlog, Heartbeat, Quarantine, SchemaStatus, Store, WorkerStatus};
use crate::vocab::Millis;

/// An announcement undelivered this long means delivery is stuck (or Discord is down).
pub const MAX_UNDELIVERED_SECS: i64 = 900;
/// A deadline overdue this long means the deadline worker is stuck.
pub const MAX_OVERDUE_SECS: i64 = 900;

pub use crate::store::HEARTBEAT_SECS;

/// How much of the gateway the check demands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GatewayCheck {
    /// Judge the gateway if this instance has reported, else only the database.
    Auto,
    /// This instance must have reported, recently, a connected gateway.
    Required,
    /// The database only.
    Skip,
}

/// What `photofinish health` was asked.
#[derive(Clone, Debug)]
pub struct HealthArgs {
    pub database: String,
    pub instance: String,
    pub gateway: GatewayCheck,
    pub max_age_secs: u64,
    pub json: bool,
}

/// What a check asks of a store: whose gateway and workers, and how strictly.
#[derive(Clone, Debug)]
pub struct Probe {
    pub instance: String,
    pub gateway: GatewayCheck,
    pub max_age_secs: u64,
}

impl HealthArgs {
    fn probe(&self) -> Probe {
        Probe {
            instance: self.instance.clone(),
            gateway: self.gateway,
            max_age_secs: self.max_age_secs,
        }
    }
}

/// The health report, as `health --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub healthy: bool,
    pub database: String,
    pub reachable: bool,
    pub schema: Option<SchemaStatus>,
    pub instance: String,
    pub gateway: Option<Heartbeat>,
    pub gateway_age_secs: Option<i64>,
    pub others: Vec<Heartbeat>,
    /// What waits: undelivered announcements and overdue deadlines.
    pub backlog: Option<Backlog>,
    pub oldest_undelivered_secs: Option<i64>,
    pub oldest_overdue_secs: Option<i64>,
    pub workers: Vec<WorkerStatus>,
    pub quarantined: Vec<Quarantine>,
    /// The time-zone database deadlines are read in.
    pub tzdb: TzdbInfo,
    pub problems: Vec<String>,
}

impl Report {
    /// Nothing known yet: unhealthy, unreachable.
    fn empty(database: String, instance: String) -> Report {
        Report {
            healthy: false,
            database,
            reachable: false,
            schema: None,
            instance,
            gateway: None,
            gateway_age_secs: None,
            others: Vec::new(),
            backlog: None,
            oldest_undelivered_secs: None,
            oldest_overdue_secs: None,
            workers: Vec::new(),
            quarantined: Vec::new(),
            tzdb: tzdb(),
            problems: Vec::new(),
        }
    }
}

/// A threshold from the environment, else its default.
fn threshold(var: &str, default: i64) -> i64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v > 0)
        .unwrap_or(default)
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Exit 0 when healthy, 1 when not (as Docker's HEALTHCHECK expects); 2 is left to a bad
/// command line.
pub fn health(args: HealthArgs) -> ExitCode {
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => {
            errln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let report = rt.block_on(check(&args));
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print_report(&report);
    }
    if report.healthy {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The report of a database that could not be opened: unhealthy, with `problem`.
pub fn unreachable(database: String, instance: String, problem: String) -> Report {
    let mut report = Report::empty(database, instance);
    report.problems.push(problem);
    report
}

/// A configuration health cannot use: one line (or the JSON report) and exit 1.
pub fn unusable_config(error: &dyn std::fmt::Display, json: bool) -> ExitCode {
    let problem = super::refusal::one_line(&format!("the configuration cannot be used: {error}"));
    if json {
        let report = serde_json::json!({ "healthy": false, "problems": [problem] });
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        errln!("{problem}");
        outln!("unhealthy");
    }
    ExitCode::FAILURE
}

async fn check(args: &HealthArgs) -> Report {
    let database = store::redact(&args.database);
    let mut report = Report::empty(database.clone(), args.instance.clone());
    let db = match tokio::time::timeout(
        std::time::Duration::from_secs(10),
        store::connect(&args.database),
    )
    .await
    {
        Ok(Ok(db)) => db,
        Ok(Err(e)) => {
            report
                .problems
                .push(format!("the database is unreachable: {e}"));
            return report;
        }
        Err(_) => {
            report
                .problems
                .push("the database did not answer within 10 s".into());
            return report;
        }
    };
    let report = assess(&*db, database, &args.probe(), now_ms()).await;
    db.close().await;
    report
}

/// The health of an open store (`database` only names it in the report). `now` is the
/// referee's time, which deadlines and queued announcements are on; the gateway's report
/// is compared with the system clock, which the bot writes it on.
pub async fn assess(db: &dyn Store, database: String, probe: &Probe, now: Millis) -> Report {
    let mut report = Report::empty(database, probe.instance.clone());
    report.reachable = true;
    match db.schema_status().await {
        Ok(status) => {
            if !status.pending.is_empty() {
                report.problems.push(format!(
                    "migrations {:?} are not applied yet (photofinish migrate, or start the bot)",
                    status.pending
                ));
            }
            if !status.unknown.is_empty() {
                report.problems.push(format!(
                    "the database has migrations {:?} this binary does not know: it was migrated by a newer version",
                    status.unknown
                ));
            }
            if !status.broken.is_empty() {
                report.problems.push(format!(
                    "migrations {:?} failed half-way or were edited after they were applied",
                    status.broken
                ));
            }
            let current = status.is_current();
            report.schema = Some(status);
            if current {
                gateway(db, probe, &mut report).await;
                if probe.gateway != GatewayCheck::Skip {
                    work(db, probe, now, &mut report).await;
                }
            }
        }
        Err(e) => report
            .problems
            .push(format!("cannot read the migrations: {e}")),
    }
    report.healthy = report.problems.is_empty();
    report
}

async fn gateway(db: &dyn Store, args: &Probe, report: &mut Report) {
    if args.gateway == GatewayCheck::Skip {
        return;
    }
    let beats = match db.heartbeats().await {
        Ok(b) => b,
        Err(e) => {
            report
                .problems
                .push(format!("cannot read the processes' reports: {e}"));
            return;
        }
    };
    let (mine, others): (Vec<_>, Vec<_>) =
        beats.into_iter().partition(|b| b.instance == args.instance);
    report.others = others;
    let Some(beat) = mine.into_iter().next() else {
        if args.gateway == GatewayCheck::Required {
            report.problems.push(format!(
                "no gateway report from instance `{}` (is the bot running here?)",
                args.instance
            ));
        }
        return;
    };
    let age = (now_ms() - beat.beat_at) / 1000;
    report.gateway_age_secs = Some(age);
    if age > i64::try_from(args.max_age_secs).unwrap_or(i64::MAX) {
        report.problems.push(format!(
            "the bot last reported {age} s ago (more than {} s): it is stuck or gone",
            args.max_age_secs
        ));
    } else if beat.gateway != "connected" {
        report.problems.push(format!(
            "the gateway is {}{}",
            beat.gateway,
            if beat.detail.is_empty() {
                String::new()
            } else {
                format!(" ({})", beat.detail)
            }
        ));
    }
    report.gateway = Some(beat);
}

/// The workers of this instance, and what waits in the database.
async fn work(db: &dyn Store, args: &Probe, now: Millis, report: &mut Report) {
    match db.workers().await {
        Ok(workers) => {
            for w in workers.iter().filter(|w| w.instance == args.instance) {
                match w.state.as_str() {
                    "down" => report.problems.push(format!(
                        "the {} worker is down (restarted {} times; last panic: {})",
                        w.worker,
                        w.restarts,
                        w.last_panic.as_deref().unwrap_or("unknown")
                    )),
                    "failing" => report.problems.push(format!(
                        "the {} worker is failing and backing off: {}",
                        w.worker,
                        w.trouble.as_deref().unwrap_or("cause unknown")
                    )),
                    _ => {}
                }
            }
            report.workers = workers;
        }
        Err(e) => report
            .problems
            .push(format!("cannot read the workers' reports: {e}")),
    }
    match db.backlog(now).await {
        Ok(b) => {
            let age = |at: Option<i64>| at.map(|t| now.saturating_sub(t) / 1000);
            report.oldest_undelivered_secs = age(b.oldest_undelivered_at);
            report.oldest_overdue_secs = age(b.oldest_overdue_at);
            let undelivered =
                threshold("PHOTOFINISH_HEALTH_UNDELIVERED_SECS", MAX_UNDELIVERED_SECS);
            if let Some(a) = report.oldest_undelivered_secs
                && a > undelivered
            {
                report.problems.push(format!(
                    "the oldest undelivered announcement is {a} s old (more than {undelivered} s; {} waiting)",
                    b.undelivered
                ));
            }
            let overdue = threshold("PHOTOFINISH_HEALTH_OVERDUE_SECS", MAX_OVERDUE_SECS);
            if let Some(a) = report.oldest_overdue_secs
                && a > overdue
            {
                report.problems.push(format!(
                    "a deadline is overdue by {a} s (more than {overdue} s; {} overdue)",
                    b.overdue
                ));
            }
            report.backlog = Some(b);
        }
        Err(e) => report.problems.push(format!("cannot read what waits: {e}")),
    }
    match db.quarantined().await {
        Ok(q) => report.quarantined = q,
        Err(e) => report
            .problems
            .push(format!("cannot read the quarantined races: {e}")),
    }
}

fn print_report(r: &Report) {
    let schema = match &r.schema {
        Some(s) if s.is_current() => format!("migrations current ({:?})", s.applied),
        Some(_) => "migrations not current".into(),
        None => "migrations unknown".into(),
    };
    outln!(
        "database: {} {}; {schema}",
        r.database,
        if r.reachable {
            "reachable"
        } else {
            "unreachable"
        }
    );
    match (&r.gateway, r.gateway_age_secs) {
        (Some(b), Some(age)) => outln!(
            "gateway: {} (instance {}, shards {}), reported {age} s ago",
            b.gateway,
            b.instance,
            b.shards
        ),
        _ => outln!("gateway: no report from instance {}", r.instance),
    }
    for b in &r.others {
        outln!(
            "  other process {}: {} (shards {}), at {}",
            b.instance,
            b.gateway,
            b.shards,
            b.beat_at
        );
    }
    if let Some(b) = &r.backlog {
        outln!(
            "work: {} undelivered (oldest {} s), {} deadlines overdue (oldest {} s), {} races quarantined",
            b.undelivered,
            r.oldest_undelivered_secs.unwrap_or(0),
            b.overdue,
            r.oldest_overdue_secs.unwrap_or(0),
            b.quarantined
        );
    }
    for w in &r.workers {
        outln!(
            "  worker {} of {}: {} (restarts {})",
            w.worker,
            w.instance,
            w.state,
            w.restarts
        );
    }
    outln!("time zones: {}", r.tzdb);
    for p in &r.problems {
        outln!("problem: {p}");
    }
    outln!("{}", if r.healthy { "healthy" } else { "unhealthy" });
}

/// `photofinish migrate`: applies this binary's migrations and prints the result.
pub fn migrate(database: &str) -> ExitCode {
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => {
            errln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(store::migrate(database)) {
        Ok(status) => {
            outln!(
                "{}: migrations {:?} applied; the schema is current",
                store::redact(database),
                status.applied
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("migrating {} failed: {e}", store::redact(database));
            ExitCode::FAILURE
        }
    }
}
