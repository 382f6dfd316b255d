//! Crash safety: the process is killed at each fault point on a real SQLite file, then
//! restarted. No accepted order is lost, no turn resolves twice, no announcement is lost or
//! posted twice, and a deadline that passed while the bot was down is handled once, late.
//!
//! The parent test re-runs this test binary as a child (`drill_child`) with
//! `PHOTOFINISH_CRASH_AT` set; the child aborts at that point as a `kill -9` would.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use async_trait::async_trait;
use photofinish::engine::GameKind;
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use photofinish::referee::{Actor, Config, NewRace, Referee, TestClock};
use photofinish::store::sqlite::Durability;
use photofinish::store::{SqliteStore, Store, Timing, UserId};
use sqlx::Row;

const START_MS: i64 = 1_767_225_600_000;

/// A channel that, like Discord with `enforce_nonce`, posts a nonce once only.
struct Sink {
    path: PathBuf,
}

impl Sink {
    fn ids(path: &Path) -> Vec<i64> {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

#[async_trait]
impl Courier for Sink {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        let seen = Sink::ids(&self.path);
        if !seen.contains(&parcel.outbox_id) {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)
                .map_err(|e| DeliveryError::Retry {
                    after_ms: 10,
                    reason: e.to_string(),
                })?;
            writeln!(f, "{}", parcel.outbox_id).map_err(|e| DeliveryError::Retry {
                after_ms: 10,
                reason: e.to_string(),
            })?;
            f.sync_all().map_err(|e| DeliveryError::Retry {
                after_ms: 10,
                reason: e.to_string(),
            })?;
        }
        Ok(Delivered {
            external_id: Some(format!("m{}", parcel.outbox_id)),
        })
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

async fn referee(db: &str, now: i64) -> Referee {
    let store = Arc::new(SqliteStore::open(db, Durability::Full).await.unwrap());
    let clock = Arc::new(TestClock::new(now));
    let timing = Timing {
        turn_secs: 3600,
        reminders: vec![],
        resolve_early: true,
    };
    Referee::new(
        store,
        clock,
        Config {
            default_timing: timing,
            ..Config::default()
        },
    )
}

async fn deliver_all(r: &Referee, sink: &Sink) {
    for _ in 0..50 {
        if r.deliver(sink).await.unwrap() == 0 {
            break;
        }
    }
}

/// The child's work: a race, two orders, delivery, the last order, delivery.
async fn run(db: &str, sink: &Sink) {
    let r = referee(db, START_MS).await;
    let host = Actor::new("1", "Ann");
    let id = r
        .create(NewRace {
            kind: GameKind::DreamMile,
            options: String::new(),
            channel: "drill".into(),
            guild: None,
            host: host.clone(),
        })
        .await
        .unwrap();
    r.join(id, &host, None, None).await.unwrap();
    r.join(id, &Actor::new("2", "Ben"), None, None)
        .await
        .unwrap();
    r.join(id, &Actor::new("3", "Cat"), None, None)
        .await
        .unwrap();
    r.start(id, &host).await.unwrap();
    r.submit(id, &UserId::new("1"), "5").await.unwrap();
    r.submit(id, &UserId::new("2"), "4").await.unwrap();
    deliver_all(&r, sink).await;
    r.submit(id, &UserId::new("3"), "3").await.unwrap();
    deliver_all(&r, sink).await;
}

/// After a restart, two hours later: deadlines, then delivery.
async fn recover(db: &str, sink: &Sink) {
    let r = referee(db, START_MS + 2 * 3600 * 1000).await;
    r.tick().await.unwrap();
    deliver_all(&r, sink).await;
}

#[tokio::test]
async fn drill_child() {
    let (db, sink) = (
        env("PF_DB"),
        Sink {
            path: PathBuf::from(env("PF_SINK")),
        },
    );
    match env("PF_DRILL").as_str() {
        "run" => run(&db, &sink).await,
        "recover" => recover(&db, &sink).await,
        _ => {} // not a child: nothing to do
    }
}

fn child(role: &str, db: &Path, sink: &Path, crash_at: Option<&str>) -> std::process::ExitStatus {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "drill_child", "--test-threads=1", "--quiet"])
        .env("PF_DRILL", role)
        .env("PF_DB", db)
        .env("PF_SINK", sink)
        .env_remove("PHOTOFINISH_CRASH_AT");
    if let Some(point) = crash_at {
        cmd.env("PHOTOFINISH_CRASH_AT", point);
    }
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    cmd.status().unwrap()
}

struct Found {
    orders: Vec<(i64, String, String)>,
    resolved_turns: i64,
    late: bool,
    undelivered: i64,
    delivered_ids: Vec<i64>,
}

async fn inspect(db: &Path) -> Found {
    let store = SqliteStore::open(&db.to_string_lossy(), Durability::Full)
        .await
        .unwrap();
    let pool = store.pool();
    let orders = sqlx::query(
        "SELECT seat, text, source FROM orders WHERE step = 0 AND superseded = 0 ORDER BY seat",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    .iter()
    .map(|r| {
        (
            r.get::<i64, _>(0),
            r.get::<String, _>(1),
            r.get::<String, _>(2),
        )
    })
    .collect();
    let resolved_turns =
        sqlx::query("SELECT COUNT(*) FROM turns WHERE step = 0 AND resolved_at IS NOT NULL")
            .fetch_one(pool)
            .await
            .unwrap()
            .get::<i64, _>(0);
    let late = sqlx::query("SELECT COALESCE(MAX(late), 0) FROM turns WHERE step = 0")
        .fetch_one(pool)
        .await
        .unwrap()
        .get::<i64, _>(0)
        == 1;
    let undelivered =
        sqlx::query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL")
            .fetch_one(pool)
            .await
            .unwrap()
            .get::<i64, _>(0);
    let delivered_ids =
        sqlx::query("SELECT id FROM outbox WHERE delivered_at IS NOT NULL ORDER BY id")
            .fetch_all(pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<i64, _>(0))
            .collect();
    // Every event of step 0 exists once (the primary key would refuse a second resolution).
    let campaigns = store.open_campaigns().await.unwrap();
    assert!(campaigns.len() <= 1);
    store.close().await;
    Found {
        orders,
        resolved_turns,
        late,
        undelivered,
        delivered_ids,
    }
}

async fn drill(point: &str) -> Found {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("drill.db");
    let sink = dir.path().join("sink.txt");
    let status = child("run", &db, &sink, Some(point));
    assert!(
        !status.success(),
        "{point}: the child should have crashed, but {status}"
    );
    // Restart, twice: the second changes nothing.
    assert!(child("recover", &db, &sink, None).success());
    let before = inspect(&db).await;
    assert!(child("recover", &db, &sink, None).success());
    let after = inspect(&db).await;
    assert_eq!(
        before.delivered_ids, after.delivered_ids,
        "{point}: a second restart delivered again"
    );
    // No announcement lost or posted twice: the channel saw each delivered row once.
    let posted = Sink::ids(&sink);
    let unique: HashSet<i64> = posted.iter().copied().collect();
    assert_eq!(
        unique.len(),
        posted.len(),
        "{point}: something was posted twice: {posted:?}"
    );
    let mut posted_sorted = posted.clone();
    posted_sorted.sort_unstable();
    assert_eq!(
        posted_sorted, after.delivered_ids,
        "{point}: posted and delivered disagree"
    );
    assert_eq!(
        after.undelivered, 0,
        "{point}: an announcement was left undelivered"
    );
    assert_eq!(
        after.resolved_turns, 1,
        "{point}: turn 1 resolved {} times",
        after.resolved_turns
    );
    after
}

fn by_seat(found: &Found) -> Vec<(String, String)> {
    found
        .orders
        .iter()
        .map(|(_, t, s)| (t.clone(), s.clone()))
        .collect()
}

#[tokio::test]
async fn a_crash_after_an_order_is_accepted_loses_nothing() {
    let found = drill("order-accepted").await;
    // Ann's order was accepted before the crash; the deadline passed while down.
    let orders = by_seat(&found);
    assert_eq!(orders[0], ("5".to_string(), "player".to_string()));
    assert_eq!(orders[1].1, "default");
    assert!(found.late, "a deadline missed while down is flagged late");
}

#[tokio::test]
async fn a_crash_in_the_middle_of_an_adjudication_rolls_it_back() {
    let found = drill("mid-adjudication").await;
    // Cat's order died with the transaction (she never got a receipt); Ann's and Ben's stand.
    let orders = by_seat(&found);
    assert_eq!(orders[0], ("5".to_string(), "player".to_string()));
    assert_eq!(orders[1], ("4".to_string(), "player".to_string()));
    assert_eq!(orders[2].1, "default");
    assert!(found.late);
}

#[tokio::test]
async fn a_crash_after_the_commit_delivers_the_outbox_on_restart() {
    let found = drill("after-commit").await;
    let orders = by_seat(&found);
    assert_eq!(
        orders,
        vec![
            ("5".into(), "player".into()),
            ("4".into(), "player".into()),
            ("3".into(), "player".into())
        ]
    );
    assert!(!found.late);
}

#[tokio::test]
async fn a_crash_in_the_middle_of_delivery_does_not_post_twice() {
    let found = drill("mid-delivery").await;
    assert!(!found.delivered_ids.is_empty());
}
