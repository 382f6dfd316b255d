//! Crash safety: the process is killed at each fault point on a real database (each
//! backend: SQLite, and PostgreSQL when `PHOTOFINISH_TEST_POSTGRES` is set), then
//! restarted. No accepted order is lost, no step resolves twice, no announcement is lost or
//! posted twice, and a deadline that passed while the bot was down is handled once, late.
//!
//! The parent test re-runs this test binary as a child (`drill_child`) with
//! `PHOTOFINISH_CRASH_AT` set; the child aborts at that point as a `kill -9` would.
//!
//! The channel ([`Sink`]) is Discord as it is: it keeps every message it was asked to
//! create, and it remembers a nonce for [`NONCE_WINDOW_MS`] of the test clock only. So a
//! restart later than that, after a crash between a post and its `delivered` mark, would
//! show a second post here: "posted twice" counts what reached the channel.
//!
//! Besides one Dream Mile turn, a drill crashes in a later step of a card race (Mille
//! Bornes) and of Magical Athlete, whose steps wait for one seat.

use crate::support::backend;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use async_trait::async_trait;
use backend::{Db, Kind};
use photofinish::games::GameKind;
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use photofinish::referee::{Actor, Config, NewRace, Referee, TestClock};
use photofinish::store::OrderSource;
use photofinish::vocab::{CampaignId, Phase, Timing, UserId};

const START_MS: i64 = 1_767_225_600_000;

/// How long the channel remembers a nonce: Discord's window is a few minutes.
const NONCE_WINDOW_MS: i64 = 5 * 60 * 1000;

/// A restart well after the nonce window (and after the step's deadline).
const LATE_RESTART_MS: i64 = 2 * 3600 * 1000;

/// A restart within the nonce window.
const QUICK_RESTART_MS: i64 = 60 * 1000;

/// A channel like Discord with `enforce_nonce`: a create whose nonce (the outbox id) it
/// saw within [`NONCE_WINDOW_MS`] returns the first message; any other create posts.
/// Every request is a line of its file: `post ID AT`, `kept ID AT` or `edit ID AT`.
struct Sink {
    path: PathBuf,
    clock: Arc<TestClock>,
}

/// What the channel holds.
#[derive(Default)]
struct Channel {
    /// Messages created, per outbox id (a second one is a double post).
    posts: HashMap<i64, usize>,
    /// Every id the channel was asked about (created, deduplicated by nonce, or edited).
    seen: Vec<i64>,
}

impl Sink {
    fn lines(path: &Path) -> Vec<(String, i64, i64)> {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let mut parts = l.split_whitespace();
                let what = parts.next()?.to_string();
                let id = parts.next()?.parse().ok()?;
                let at = parts.next()?.parse().ok()?;
                Some((what, id, at))
            })
            .collect()
    }

    fn channel(path: &Path) -> Channel {
        let mut ch = Channel::default();
        for (what, id, _) in Sink::lines(path) {
            if what == "post" {
                *ch.posts.entry(id).or_default() += 1;
            }
            ch.seen.push(id);
        }
        ch
    }

    fn write(&self, what: &str, id: i64) -> Result<(), DeliveryError> {
        let retry = |e: std::io::Error| DeliveryError::Retry {
            after_ms: 10,
            reason: e.to_string(),
        };
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(retry)?;
        writeln!(f, "{what} {id} {}", self.clock.now_ms()).map_err(retry)?;
        f.sync_all().map_err(retry)
    }
}

#[async_trait]
impl Courier for Sink {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        let id = parcel.outbox_id;
        if parcel.edit.is_some() {
            self.write("edit", id)?;
        } else {
            let now = self.clock.now_ms();
            let remembered = Sink::lines(&self.path).iter().any(|(what, seen, at)| {
                what == "post" && *seen == id && now - at < NONCE_WINDOW_MS
            });
            self.write(if remembered { "kept" } else { "post" }, id)?;
        }
        Ok(Delivered {
            external_id: Some(format!("m{id}")),
        })
    }

    /// The channel's history: a message created for this outbox id, however long ago.
    async fn find(
        &self,
        parcel: Parcel<'_>,
        _since: i64,
    ) -> Result<Option<Delivered>, DeliveryError> {
        let id = parcel.outbox_id;
        let posted = Sink::lines(&self.path)
            .iter()
            .any(|(what, seen, _)| what == "post" && *seen == id);
        Ok(posted.then(|| Delivered {
            external_id: Some(format!("m{id}")),
        }))
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

fn env_i64(name: &str) -> i64 {
    env(name).parse().unwrap_or(0)
}

async fn referee(db: &str, clock: Arc<TestClock>) -> Referee {
    let store = photofinish::store::open(db).await.unwrap();
    let timing = Timing {
        turn_secs: 3600,
        reminders: vec![],
        resolve_early: true,
        // Each step resolves as its order comes (no grace window), where the crash points are.
        calendar: photofinish::vocab::CalendarOptions {
            grace_secs: Some(0),
            ..Default::default()
        },
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

/// The child's work for the Dream Mile drill: a race, two orders, delivery, the last
/// order, delivery.
async fn run(r: &Referee, sink: &Sink) {
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
    deliver_all(r, sink).await;
    r.submit(id, &UserId::new("3"), "3").await.unwrap();
    deliver_all(r, sink).await;
}

fn seat_user(i: usize) -> UserId {
    UserId::new(format!("{}", i + 1))
}

/// A race of `kind` with three seats (or as many as it takes), started.
async fn open_race(r: &Referee, kind: GameKind) -> CampaignId {
    let host = Actor::new("1", "P0");
    let id = r
        .create(NewRace {
            kind,
            options: String::new(),
            channel: "drill".into(),
            guild: None,
            host: host.clone(),
        })
        .await
        .unwrap();
    for i in 0..players(kind) {
        let who = Actor::new(seat_user(i).0, format!("P{i}"));
        r.join(id, &who, None, None).await.unwrap();
    }
    r.start(id, &host).await.unwrap();
    id
}

fn players(kind: GameKind) -> usize {
    let (min, max) = kind.seat_limits(&kind.default_options()).unwrap();
    3usize.clamp(min, max)
}

/// One step: every waiting seat orders its first legal choice, delivering between the
/// orders (so a crash may fall on an order, its step's resolution, or a delivery).
async fn one_step(r: &Referee, sink: &Sink, id: CampaignId, kind: GameKind) {
    for i in 0..players(kind) {
        let Ok(open) = r.open_prompt(id, &seat_user(i)).await else {
            continue;
        };
        for choice in &open.prompt.choices {
            if r.submit(id, &seat_user(i), &choice.order).await.is_ok() {
                break;
            }
        }
        deliver_all(r, sink).await;
    }
}

async fn running(r: &Referee, id: CampaignId) -> bool {
    r.overview(id).await.unwrap().phase == Phase::Running
}

/// Opens a race of `PF_GAME` and plays `PF_STEPS` steps, delivering everything.
async fn setup(r: &Referee, sink: &Sink) {
    let kind = GameKind::from_slug(&env("PF_GAME")).unwrap();
    let id = open_race(r, kind).await;
    deliver_all(r, sink).await;
    for _ in 0..env_i64("PF_STEPS") {
        if running(r, id).await {
            one_step(r, sink, id, kind).await;
        }
    }
}

/// Plays the next step of the drill's race (the crash is armed for this one).
async fn next_step(r: &Referee, sink: &Sink) {
    let kind = GameKind::from_slug(&env("PF_GAME")).unwrap();
    let id = r.race_in("drill").await.unwrap();
    // Twice: a step that resolves before a delivery still crashes on a later point.
    one_step(r, sink, id, kind).await;
    one_step(r, sink, id, kind).await;
}

/// After a restart: deadlines, then delivery.
async fn recover(r: &Referee, sink: &Sink) {
    r.tick().await.unwrap();
    deliver_all(r, sink).await;
}

#[tokio::test]
async fn drill_child() {
    let role = env("PF_DRILL");
    if role.is_empty() {
        return; // not a child: nothing to do
    }
    let clock = Arc::new(TestClock::new(env_i64("PF_NOW")));
    let sink = Sink {
        path: PathBuf::from(env("PF_SINK")),
        clock: clock.clone(),
    };
    let r = referee(&env("PF_DB"), clock).await;
    match role.as_str() {
        "run" => run(&r, &sink).await,
        "setup" => setup(&r, &sink).await,
        "step" => next_step(&r, &sink).await,
        "recover" => recover(&r, &sink).await,
        other => panic!("unknown drill role {other}"),
    }
}

/// How one child is started.
struct Child<'a> {
    role: &'a str,
    db: &'a str,
    sink: &'a Path,
    now: i64,
    crash_at: Option<&'a str>,
    game: Option<(GameKind, usize)>,
}

fn child(c: Child<'_>) -> std::process::ExitStatus {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    // The test's name in this binary: its module path without the crate's name.
    let name = concat!(module_path!(), "::drill_child");
    let name = name.split_once("::").map_or(name, |(_, rest)| rest);
    cmd.args(["--exact", name, "--test-threads=1", "--quiet"])
        .env("PF_DRILL", c.role)
        .env("PF_DB", c.db)
        .env("PF_SINK", c.sink)
        .env("PF_NOW", c.now.to_string())
        .env_remove("PHOTOFINISH_CRASH_AT");
    if let Some(point) = c.crash_at {
        cmd.env("PHOTOFINISH_CRASH_AT", point);
    }
    if let Some((kind, steps)) = c.game {
        cmd.env("PF_GAME", kind.slug())
            .env("PF_STEPS", steps.to_string());
    }
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    cmd.status().unwrap()
}

struct Found {
    /// The first step's orders, by seat: (text, source).
    orders: Vec<(String, String)>,
    /// How many steps resolved, and whether any resolved twice.
    resolved: usize,
    twice: Vec<u32>,
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
    let mut per_step: HashMap<u32, usize> = HashMap::new();
    for l in &log {
        *per_step.entry(l.turn.step).or_default() += 1;
    }
    let mut twice: Vec<u32> = per_step
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(s, _)| *s)
        .collect();
    twice.sort_unstable();
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
        resolved: per_step.len(),
        twice,
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

/// A drill: the Dream Mile turn (`game` is `None`), or `steps` steps of `game` and a crash
/// in the next; then two restarts `restart_after` the crash.
async fn drill(
    kind: Kind,
    point: &str,
    game: Option<(GameKind, usize)>,
    restart_after: i64,
) -> Found {
    let db = Db::new(kind).await;
    let dir = tempfile::tempdir().unwrap();
    let sink = dir.path().join("sink.txt");
    let base = Child {
        role: "run",
        db: &db.url,
        sink: &sink,
        now: START_MS,
        crash_at: Some(point),
        game,
    };
    let mut resolved_before = 0;
    let crashed_at = if game.is_some() {
        let setup = Child {
            role: "setup",
            crash_at: None,
            ..base
        };
        assert!(child(setup).success(), "{point}: the setup failed");
        resolved_before = inspect(&db).await.resolved;
        START_MS + QUICK_RESTART_MS
    } else {
        START_MS
    };
    let role = if game.is_some() { "step" } else { "run" };
    let status = child(Child {
        role,
        now: crashed_at,
        ..base
    });
    let at = format!("{point} ({game:?}, restart after {restart_after} ms)");
    assert!(
        !status.success(),
        "{at}: the child should have crashed, but {status}"
    );
    // Restart, twice: the second changes nothing.
    let recover = Child {
        role: "recover",
        now: crashed_at + restart_after,
        crash_at: None,
        ..base
    };
    assert!(child(Child { ..recover }).success());
    let before = inspect(&db).await;
    assert!(child(recover).success());
    let after = inspect(&db).await;
    assert_eq!(
        before.delivered_ids, after.delivered_ids,
        "{at}: a second restart delivered again"
    );
    // No announcement posted twice: what the channel really created, per outbox id.
    let channel = Sink::channel(&sink);
    let mut doubled: Vec<(i64, usize)> = channel
        .posts
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, n)| (*id, *n))
        .collect();
    doubled.sort_unstable();
    assert!(
        doubled.is_empty(),
        "{at}: posted twice (outbox id, posts): {doubled:?}"
    );
    // Nothing lost: every row marked delivered reached the channel, and everything the
    // channel created is marked delivered.
    for id in &after.delivered_ids {
        assert!(
            channel.seen.contains(id),
            "{at}: outbox row {id} is marked delivered but never reached the channel"
        );
    }
    for id in channel.posts.keys() {
        assert!(
            after.delivered_ids.contains(id),
            "{at}: the channel shows outbox row {id}, which is not marked delivered"
        );
    }
    assert_eq!(
        after.undelivered, 0,
        "{at}: an announcement was left undelivered"
    );
    assert!(
        after.twice.is_empty(),
        "{at}: steps resolved twice: {:?}",
        after.twice
    );
    // A restart after the deadline has resolved the crashed step, by default if need be.
    if restart_after >= LATE_RESTART_MS {
        assert!(
            after.resolved > resolved_before,
            "{at}: the crashed step never resolved"
        );
    }
    after
}

async fn a_crash_after_an_order_is_accepted_loses_nothing(kind: Kind) {
    let found = drill(kind, "order-accepted", None, LATE_RESTART_MS).await;
    // Ann's order was accepted before the crash; the deadline passed while down.
    assert_eq!(found.orders[0], ("5".to_string(), "player".to_string()));
    assert_eq!(found.orders[1].1, "default");
    assert!(found.late, "a deadline missed while down is flagged late");
}

async fn a_crash_in_the_middle_of_an_adjudication_rolls_it_back(kind: Kind) {
    let found = drill(kind, "mid-adjudication", None, LATE_RESTART_MS).await;
    // Cat's order died with the transaction (she never got a receipt); Ann's and Ben's stand.
    assert_eq!(found.orders[0], ("5".to_string(), "player".to_string()));
    assert_eq!(found.orders[1], ("4".to_string(), "player".to_string()));
    assert_eq!(found.orders[2].1, "default");
    assert!(found.late);
}

async fn a_crash_after_the_commit_delivers_the_outbox_on_restart(kind: Kind) {
    let found = drill(kind, "after-commit", None, LATE_RESTART_MS).await;
    assert_eq!(
        found.orders,
        vec![
            ("5".into(), "player".into()),
            ("4".into(), "player".into()),
            ("3".into(), "player".into())
        ]
    );
    assert!(!found.late);
}

async fn a_crash_in_the_middle_of_delivery_does_not_post_twice(kind: Kind) {
    // Restarted within the nonce window: the channel's nonce catches the redelivery.
    let found = drill(kind, "mid-delivery", None, QUICK_RESTART_MS).await;
    assert!(!found.delivered_ids.is_empty());
}

/// The points whose recovery does not rest on the channel's nonce, in a later step of a
/// card race and of Magical Athlete, restarted after the nonce window.
async fn later_steps_of_other_games_survive_a_crash(kind: Kind) {
    for game in [(GameKind::MilleBornes, 3), (GameKind::MagicalAthlete, 2)] {
        for point in ["order-accepted", "mid-adjudication", "after-commit"] {
            drill(kind, point, Some(game), LATE_RESTART_MS).await;
        }
        drill(kind, "mid-delivery", Some(game), QUICK_RESTART_MS).await;
    }
}

on_both!(
    a_crash_after_an_order_is_accepted_loses_nothing,
    a_crash_in_the_middle_of_an_adjudication_rolls_it_back,
    a_crash_after_the_commit_delivers_the_outbox_on_restart,
    a_crash_in_the_middle_of_delivery_does_not_post_twice,
    later_steps_of_other_games_survive_a_crash,
);

/// A crash between a post and its `delivered` mark, restarted after the channel forgot the
/// nonce: the referee recorded the attempt, so the restart first looks for the message in
/// the channel's history, finds it, and marks it delivered instead of posting again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_in_the_middle_of_delivery_does_not_post_twice_after_the_nonce_window() {
    drill(Kind::Sqlite, "mid-delivery", None, LATE_RESTART_MS).await;
    for game in [(GameKind::MilleBornes, 3), (GameKind::MagicalAthlete, 2)] {
        drill(Kind::Sqlite, "mid-delivery", Some(game), LATE_RESTART_MS).await;
    }
}
