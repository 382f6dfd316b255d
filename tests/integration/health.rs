//! `photofinish health` and `photofinish migrate` as the container runs them, on each
//! backend: the database's reachability and migrations, and the gateway report of the
//! bot process the check stands beside.

use crate::support::backend;

use std::process::{Command, Output};

use std::sync::Arc;

use backend::{Arg, Db, Kind, dream_mile_started};
use photofinish::referee::{Config, Referee, TestClock};
use photofinish::store::{Heartbeat, WorkerStatus};

fn photofinish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_photofinish"))
        .args(args)
        .env_remove("PHOTOFINISH_DATABASE")
        .env_remove("PHOTOFINISH_INSTANCE")
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

fn beat(instance: &str, gateway: &str, age_secs: i64) -> Heartbeat {
    Heartbeat {
        instance: instance.into(),
        gateway: gateway.into(),
        shards: "0-0 of 1".into(),
        detail: if gateway == "connected" {
            String::new()
        } else {
            "session invalidated".into()
        },
        started_at: now_ms() - 3_600_000,
        beat_at: now_ms() - age_secs * 1000,
    }
}

async fn a_database_is_healthy_once_migrated(kind: Kind) {
    let db = Db::new(kind).await;
    let url = db.url.as_str();
    let out = photofinish(&["health", "--database", url, "--instance", "bot-1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    match kind {
        // Inspecting a SQLite path that does not exist does not create it.
        Kind::Sqlite => {
            assert!(said.contains("unreachable"), "{said}");
            assert!(!std::path::Path::new(url).exists());
        }
        Kind::Postgres => assert!(said.contains("not applied yet"), "{said}"),
    }
    let out = photofinish(&["migrate", "--database", url]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(
            "migrations [1, 2, 3, 4, 5, 8, 9, 11, 12, 13, 14, 16, 19, 20, 21, 22] applied"
        ),
        "{}",
        text(&out)
    );
    let out = photofinish(&["health", "--database", url, "--instance", "bot-1"]);
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("reachable; migrations current"), "{said}");
    assert!(said.contains("no report from instance bot-1"), "{said}");
    assert!(said.trim_end().ends_with("healthy"), "{said}");
    // Required, the gateway's absence is a failure.
    let out = photofinish(&[
        "health",
        "--database",
        url,
        "--instance",
        "bot-1",
        "--gateway",
        "required",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("no gateway report from instance `bot-1`"));
}

async fn the_gateway_report_of_this_instance_decides(kind: Kind) {
    let db = Db::new(kind).await;
    let url = db.url.clone();
    let store = db.open().await;
    let check = |instance: &str| {
        photofinish(&[
            "health",
            "--database",
            &url,
            "--instance",
            instance,
            "--json",
        ])
    };
    store
        .heartbeat(&beat("bot-1", "connected", 5))
        .await
        .unwrap();
    store
        .heartbeat(&beat("bot-2", "resuming", 5))
        .await
        .unwrap();
    store
        .heartbeat(&beat("bot-3", "connected", 600))
        .await
        .unwrap();
    let out = check("bot-1");
    assert!(out.status.success(), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["healthy"], true);
    assert_eq!(report["gateway"]["gateway"], "connected");
    assert_eq!(report["others"].as_array().map(Vec::len), Some(2));
    // Not connected: unhealthy, and the state and detail say why.
    let out = check("bot-2");
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = report["problems"].to_string();
    assert!(
        problems.contains("the gateway is resuming (session invalidated)"),
        "{problems}"
    );
    // A report ten minutes old: the bot is stuck or gone.
    let out = check("bot-3");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("stuck or gone"), "{}", text(&out));
    // --gateway skip looks at the database only.
    let out = photofinish(&[
        "health",
        "--database",
        &url,
        "--instance",
        "bot-3",
        "--gateway",
        "skip",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    store.close().await;
}

async fn a_database_migrated_by_a_newer_version_is_reported(kind: Kind) {
    let db = Db::new(kind).await;
    let store = db.open().await;
    store.close().await;
    let raw = db.raw().await;
    let sql = match kind {
        Kind::Sqlite => {
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
             VALUES (?, 'from the future', 1, x'00', 0)"
        }
        Kind::Postgres => {
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
             VALUES (?, 'from the future', TRUE, '\\x00', 0)"
        }
    };
    raw.execute(sql, vec![Arg::I(9_999)]).await;
    raw.close().await;
    let out = photofinish(&["health", "--database", &db.url]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("migrated by a newer version"),
        "{}",
        text(&out)
    );
    // And this binary refuses to run on it rather than guess.
    let out = photofinish(&["migrate", "--database", &db.url]);
    assert!(!out.status.success(), "{}", text(&out));
}

/// Health judges the work too: a worker down, an announcement undelivered too long, a
/// deadline overdue too long; `--json` gives the figures.
async fn a_worker_down_or_work_left_waiting_is_unhealthy(kind: Kind) {
    let db = Db::new(kind).await;
    let url = db.url.clone();
    let store = db.open().await;
    store
        .heartbeat(&beat("bot-1", "connected", 5))
        .await
        .unwrap();
    let check = || {
        photofinish(&[
            "health",
            "--database",
            &url,
            "--instance",
            "bot-1",
            "--json",
        ])
    };
    let out = check();
    assert!(out.status.success(), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["backlog"]["undelivered"], 0);
    // A worker that panicked and waits to be started again.
    let mut w = WorkerStatus {
        instance: "bot-1".into(),
        worker: "delivery".into(),
        state: "down".into(),
        restarts: 3,
        last_panic: Some("index out of bounds".into()),
        trouble: None,
        at: now_ms(),
    };
    store.worker_status(&w).await.unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "the delivery worker is down (restarted 3 times; last panic: index out of bounds)"
        ),
        "{}",
        text(&out)
    );
    w.state = "running".into();
    store.worker_status(&w).await.unwrap();
    assert!(check().status.success());
    // A worker whose work keeps failing says why, and is healthy again once it works.
    store
        .worker_trouble(
            "bot-1",
            "delivery",
            Some("storage: database or disk is full"),
            now_ms(),
        )
        .await
        .unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "the delivery worker is failing and backing off: storage: database or disk is full"
        ),
        "{}",
        text(&out)
    );
    store
        .worker_trouble("bot-1", "delivery", None, now_ms())
        .await
        .unwrap();
    assert!(check().status.success());
    // A race started two hours ago with a one-minute turn, nothing delivered since: its
    // announcements wait and its deadline is overdue.
    let clock = Arc::new(TestClock::new(now_ms() - 2 * 3_600_000));
    let referee = Referee::new(store.clone(), clock, Config::default());
    dream_mile_started(&referee, "turn=1m").await;
    let out = check();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = report["problems"].to_string();
    assert!(
        problems.contains("oldest undelivered announcement"),
        "{problems}"
    );
    assert!(problems.contains("overdue"), "{problems}");
    assert!(report["oldest_undelivered_secs"].as_i64().unwrap() >= 7_100);
    assert!(report["oldest_overdue_secs"].as_i64().unwrap() >= 7_000);
    assert_eq!(report["backlog"]["overdue"], 1);
    store.close().await;
}

on_both!(
    a_worker_down_or_work_left_waiting_is_unhealthy,
    a_database_is_healthy_once_migrated,
    the_gateway_report_of_this_instance_decides,
    a_database_migrated_by_a_newer_version_is_reported,
);

#[test]
fn the_database_comes_from_the_flag_the_environment_or_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("from-config.db");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!("token = \"x\"\ndatabase = \"{}\"\n", db.display()),
    )
    .unwrap();
    let out = photofinish(&["migrate", "--config", &config.to_string_lossy()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(db.exists(), "the config file's database was migrated");
    // The environment wins over the file.
    let env_db = dir.path().join("from-env.db");
    let out = Command::new(env!("CARGO_BIN_EXE_photofinish"))
        .args(["migrate", "--config", &config.to_string_lossy()])
        .env("PHOTOFINISH_DATABASE", &env_db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(env_db.exists());
    // A config file named but missing is an error, not a silent default: unhealthy (1).
    let out = photofinish(&["health", "--config", "/nonexistent/config.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("cannot read /nonexistent/config.toml"));
    // A password never shows in what health prints.
    let out = photofinish(&[
        "health",
        "--database",
        "postgres://bot:s3cret@127.0.0.1:1/none",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out).contains("s3cret"), "{}", text(&out));
    assert!(
        text(&out).contains("postgres://***@127.0.0.1:1"),
        "{}",
        text(&out)
    );
}

/// Health's exit codes, as an orchestrator reads them: 0 healthy, 1 unhealthy (whatever the
/// cause, a configuration it cannot use included), 2 only for a bad command line.
#[test]
fn health_exits_0_healthy_1_unhealthy_and_2_only_for_a_bad_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("health.db");
    let db = db.to_string_lossy();
    let code = |args: &[&str]| {
        let out = photofinish(args);
        (out.status.code(), text(&out))
    };
    let (c, said) = code(&["migrate", "--database", &db]);
    assert_eq!(c, Some(0), "{said}");
    let (c, said) = code(&["health", "--database", &db, "--gateway", "skip"]);
    assert_eq!(c, Some(0), "healthy: {said}");
    // Unhealthy: a gateway that never reported, an unreachable database, a bad config.
    let (c, said) = code(&["health", "--database", &db, "--gateway", "required"]);
    assert_eq!(c, Some(1), "no gateway report: {said}");
    let (c, said) = code(&["health", "--database", "postgres://bot@127.0.0.1:1/none"]);
    assert_eq!(c, Some(1), "unreachable: {said}");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "this is = not toml =\n").unwrap();
    let config = config.to_string_lossy();
    let (c, said) = code(&["health", "--config", &config]);
    assert_eq!(c, Some(1), "bad config: {said}");
    assert_eq!(
        said.lines().filter(|l| !l.trim().is_empty()).count(),
        2,
        "{said}"
    );
    let out = photofinish(&["health", "--config", &config, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["healthy"], false, "{report}");
    // A bad command line, and only that, is 2.
    let (c, said) = code(&["health", "--no-such-flag"]);
    assert_eq!(c, Some(2), "unknown flag: {said}");
    let (c, said) = code(&["health", "--database", &db, "--gateway", "sometimes"]);
    assert_eq!(c, Some(2), "bad value: {said}");
    let (c, said) = code(&["health", "--max-age", "soon"]);
    assert_eq!(c, Some(2), "bad number: {said}");
}
