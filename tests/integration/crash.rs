//! Crash safety: the process is killed at each fault point on a real database (each
//! backend: SQLite, and PostgreSQL when `PHOTOFINISH_TEST_POSTGRES` is set), then
//! restarted. No accepted order is lost, no turn resolves twice, no announcement is lost or
//! posted twice, and a deadline that passed while the bot was down is handled once, late.
//!
//! The parent test re-runs this test binary as a child (`drill_child`) with
//! `PHOTOFINISH_CRASH_AT` set; the child aborts at that point as a `kill -9` would.

use crate::support::backend;

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use async_trait::async_trait;
use backend::{Db, Kind};
use photofinish::games::GameKind;
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use photofinish::referee::{Actor, Config, NewRace, Referee, TestClock};
use photofinish::store::{OrderSource, Timing, UserId};

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
    let store = photofinish::store::open(db).await.unwrap();
    let clock = Arc::new(TestClock::new(now));
    let timing = Timing {
        turn_secs: 3600,
        reminders: vec![],
        resolve_early: true,
        calendar: Default::default(),
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

fn child(role: &str, db: &str, sink: &Path, crash_at: Option<&str>) -> std::process::ExitStatus {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    // The test's name in this binary: its module path without the crate's name.
    let name = concat!(module_path!(), "::drill_child");
    let name = name.split_once("::").map_or(name, |(_, rest)| rest);
    cmd.args(["--exact", name, "--test-threads=1", "--quiet"])
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
    orders: Vec<(String, String)>,
    resolved_turns: usize,
    late: bool,
    undelivered: usize,
    delivered_ids: Vec<i64>,
}

/// What the store holds after the drill, read through the store's own API.
async fn inspect(db: &Db) -> Found {
    let store = db.open().await;
    let id = store
        .latest_in_channel("drill")
        .await
        .unwrap()
        .expect("the drill's race exists");
    let log = store.log(id).await.unwrap();
    let first: Vec<_> = log.iter().filter(|l| l.turn.step == 0).collect();
    let mut orders: Vec<_> = first
        .iter()
        .flat_map(|l| l.orders.iter())
        .map(|o| (o.seat, o.text.clone(), o.source))
        .collect();
    orders.sort_by_key(|(seat, _, _)| *seat);
    let outbox = store.outbox_of(id).await.unwrap();
    let found = Found {
        orders: orders
            .into_iter()
            .map(|(_, text, source)| (text, source_name(source)))
            .collect(),
        resolved_turns: first.len(),
        late: first.iter().any(|l| l.turn.late),
        undelivered: outbox
            .iter()
            .filter(|o| o.delivered_at.is_none() && o.failed.is_none())
            .count(),
        delivered_ids: outbox
            .iter()
            .filter(|o| o.delivered_at.is_some())
            .map(|o| o.id)
            .collect(),
    };
    assert!(store.open_campaigns().await.unwrap().len() <= 1);
    store.close().await;
    found
}

fn source_name(source: OrderSource) -> String {
    source.as_str().to_string()
}

async fn drill(kind: Kind, point: &str) -> Found {
    let db = Db::new(kind).await;
    let dir = tempfile::tempdir().unwrap();
    let sink = dir.path().join("sink.txt");
    let status = child("run", &db.url, &sink, Some(point));
    assert!(
        !status.success(),
        "{point}: the child should have crashed, but {status}"
    );
    // Restart, twice: the second changes nothing.
    assert!(child("recover", &db.url, &sink, None).success());
    let before = inspect(&db).await;
    assert!(child("recover", &db.url, &sink, None).success());
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
    found.orders.clone()
}

async fn a_crash_after_an_order_is_accepted_loses_nothing(kind: Kind) {
    let found = drill(kind, "order-accepted").await;
    // Ann's order was accepted before the crash; the deadline passed while down.
    let orders = by_seat(&found);
    assert_eq!(orders[0], ("5".to_string(), "player".to_string()));
    assert_eq!(orders[1].1, "default");
    assert!(found.late, "a deadline missed while down is flagged late");
}

async fn a_crash_in_the_middle_of_an_adjudication_rolls_it_back(kind: Kind) {
    let found = drill(kind, "mid-adjudication").await;
    // Cat's order died with the transaction (she never got a receipt); Ann's and Ben's stand.
    let orders = by_seat(&found);
    assert_eq!(orders[0], ("5".to_string(), "player".to_string()));
    assert_eq!(orders[1], ("4".to_string(), "player".to_string()));
    assert_eq!(orders[2].1, "default");
    assert!(found.late);
}

async fn a_crash_after_the_commit_delivers_the_outbox_on_restart(kind: Kind) {
    let found = drill(kind, "after-commit").await;
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

async fn a_crash_in_the_middle_of_delivery_does_not_post_twice(kind: Kind) {
    let found = drill(kind, "mid-delivery").await;
    assert!(!found.delivered_ids.is_empty());
}

on_both!(
    a_crash_after_an_order_is_accepted_loses_nothing,
    a_crash_in_the_middle_of_an_adjudication_rolls_it_back,
    a_crash_after_the_commit_delivers_the_outbox_on_restart,
    a_crash_in_the_middle_of_delivery_does_not_post_twice,
);
