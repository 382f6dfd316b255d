//! Nothing secret leaks through the referee: for random races of every game, two worlds run
//! in lockstep in which one seat's pending order differs; everything that goes public
//! (channel posts, the status message, the lobby) must be the same in both until the step
//! resolves, receipts aside. And every DM carries the view of the seat it is sent to.
//!
//! Public posts are compared twice: as the announcements' data, and as players read them
//! (the text rendered for Discord, with every narrated event, and each picture's alt text).
//!
//! Each race runs twice: with `resolve=early`, and with `resolve=deadline`, where even a
//! step that waits for one seat (most steps of the card races and Magical Athlete) holds
//! its order until the deadline, so a pending order can be compared there too. Besides the
//! outbox, the answers any member gets from `/race status` and `/race orders` (the
//! referee's overview) and `/race history` (every step so far, and the open one) must be
//! the same in both worlds, receipts and nonces aside.
//!
//! The engine's own half (public views unchanged when hidden information is redrawn) is in
//! each game's conformance test. `PHOTOFINISH_LEAK_GAMES` scales the number of races.

use std::sync::Arc;

use photofinish::engine::{GameRng, Seed};
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::{Actor, Config, NewRace, Referee, TestClock};
use photofinish::render::message::Style;
use photofinish::render::post::present;
use photofinish::store::{SqliteStore, Store};
use photofinish::vocab::{CampaignId, Phase, Timing, UserId};
use serde_json::Value;

struct World {
    store: Arc<SqliteStore>,
    referee: Referee,
    race: CampaignId,
    clock: Arc<TestClock>,
}

fn user(i: usize) -> UserId {
    UserId::new(format!("{}", 1000 + i))
}

/// A step's time to run, in seconds.
const TURN_SECS: i64 = 3600;

async fn world(kind: GameKind, players: usize, seed: u64, resolve_early: bool) -> World {
    let store = Arc::new(SqliteStore::in_memory().await.unwrap());
    let clock = Arc::new(TestClock::at_epoch());
    let timing = Timing {
        turn_secs: TURN_SECS as u64,
        reminders: vec![],
        resolve_early,
        calendar: Default::default(),
    };
    let referee = Referee::new(
        store.clone(),
        clock.clone(),
        Config {
            default_timing: timing,
            ..Config::default()
        },
    );
    let host = Actor::new("1000", "P0");
    let race = referee
        .create(NewRace {
            kind,
            options: String::new(),
            channel: "leaks".into(),
            guild: None,
            host: host.clone(),
        })
        .await
        .unwrap();
    // Both worlds share one seed, so only the orders differ between them.
    let fixed = Seed::from_u64(seed);
    // A write behind the referee's back bumps the version, or its cache would not see it.
    sqlx::query(
        "UPDATE campaigns SET seed = ?, commitment = ?, version = version + 1 WHERE id = ?",
    )
    .bind(fixed.to_hex())
    .bind(fixed.commitment())
    .bind(race.0)
    .execute(store.pool())
    .await
    .unwrap();
    for i in 0..players {
        referee
            .join(race, &Actor::new(user(i).0, format!("P{i}")), None, None)
            .await
            .unwrap();
    }
    referee.start(race, &host).await.unwrap();
    World {
        store,
        referee,
        race,
        clock,
    }
}

/// What any member is told by `/race status` and `/race orders` (both read the overview),
/// and by `/race history` for the newest step and the open one, receipts and nonces
/// masked.
async fn answers(w: &World) -> Vec<String> {
    let mut overview = w.referee.overview(w.race).await.unwrap();
    // A receipt commits to the order with a random nonce: it differs, and hides the order.
    for seat in &mut overview.seats {
        seat.receipt = seat.receipt.as_ref().map(|r| masked(r));
    }
    let steps = w.store.log(w.race).await.unwrap().len();
    let mut out = vec![format!("{overview:?}")];
    // The newest resolved step and the open one: older ones were compared when new.
    let open = u32::try_from(steps).unwrap() + 1;
    for n in open.saturating_sub(1).max(1)..=open {
        out.push(match w.referee.history(w.race, n).await {
            Ok(mut h) => {
                for o in &mut h.orders {
                    o.nonce = "*".into();
                    o.receipt = "*".into();
                }
                format!("{h:?}")
            }
            Err(e) => format!("refused: {e}"),
        });
    }
    out
}

/// Public posts and members' answers are the same in both worlds.
async fn same_in_public(a: &World, b: &World, what: &str) {
    same(&public(a).await, &public(b).await, what);
    let (qa, qb) = (answers(a).await, answers(b).await);
    if let Some(i) = (0..qa.len().max(qb.len())).find(|&i| qa.get(i) != qb.get(i)) {
        panic!(
            "{what}: a member's answer ({}) differs:\n{:?}\nvs\n{:?}",
            if i == 0 { "status/orders" } else { "history" },
            qa.get(i),
            qb.get(i)
        );
    }
}

/// Public announcements so far, with receipts and nonces masked.
async fn public(w: &World) -> Vec<Value> {
    let rows = w.store.outbox_of(w.race).await.unwrap();
    let mut out = Vec::new();
    for r in rows {
        let target: Target = serde_json::from_value(r.target.clone()).unwrap();
        match target {
            Target::Dm { seat, .. } => {
                // A DM carries its own seat's view, never another's.
                if let Some(s) = r.payload.get("seat") {
                    assert_eq!(
                        s.as_u64(),
                        Some(u64::from(seat.0)),
                        "a DM for {seat} holds another seat's view"
                    );
                }
            }
            _ => out.push(mask(r.payload.clone())),
        }
    }
    // A changed order re-posts the same status: one is as good as two.
    out.dedup();
    // Rows are append-only and compared at every step, so rendering the newest ones is
    // enough (and keeps this linear).
    let read: Vec<Value> = out.iter().rev().take(RENDERED).map(rendered).collect();
    out.extend(read);
    out
}

/// How many of the newest public rows are rendered at each comparison: more than a step
/// ever adds.
const RENDERED: usize = 16;

/// A public announcement as players read it: the post the bot renders for Discord (the
/// narration of every event, the standings, the text track, the fields) and the alt text
/// of its picture.
fn rendered(payload: &Value) -> Value {
    let announcement: Announcement = serde_json::from_value(payload.clone())
        .unwrap_or_else(|e| panic!("an outbox payload that is no announcement: {e}"));
    let post = present(&announcement, &Style::discord());
    let alt = post.view.as_ref().map(photofinish::render::alt_text);
    serde_json::json!({
        "title": post.title,
        "body": post.body,
        "track": post.track,
        "fields": post.fields,
        "footer": post.footer,
        "alt": alt,
    })
}

fn same(a: &[Value], b: &[Value], what: &str) {
    if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
        panic!(
            "{what}: public announcement {i} differs:\n{:?}\nvs\n{:?}",
            a.get(i),
            b.get(i)
        );
    }
}

/// A receipt is masked only if it looks like one (a hex digest): an order shown in its
/// place would still differ.
fn masked(receipt: &str) -> String {
    if receipt.len() >= 8 && receipt.chars().all(|c| c.is_ascii_hexdigit()) {
        "*".into()
    } else {
        receipt.to_string()
    }
}

fn mask(v: Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    if k == "nonce" {
                        (k, Value::String("*".into()))
                    } else if let (true, Value::String(r)) = (k == "receipt", &v) {
                        let r = masked(r);
                        (k, Value::String(r))
                    } else {
                        (k, mask(v))
                    }
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(mask).collect()),
        other => other,
    }
}

async fn waiting(w: &World, players: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for i in 0..players {
        if w.referee.open_prompt(w.race, &user(i)).await.is_ok() {
            out.push(i);
        }
    }
    out
}

async fn lockstep(kind: GameKind, players: usize, seed: u64, max_steps: usize, early: bool) {
    let a = world(kind, players, seed, early).await;
    let b = world(kind, players, seed, early).await;
    let resolve = if early { "early" } else { "deadline" };
    let mut rng = GameRng::seeded(seed);
    for _ in 0..max_steps {
        if a.referee.overview(a.race).await.unwrap().phase != Phase::Running {
            break;
        }
        let seats = waiting(&a, players).await;
        assert_eq!(seats, waiting(&b, players).await);
        let Some(&first) = seats.first() else { break };
        let prompt = a
            .referee
            .open_prompt(a.race, &user(first))
            .await
            .unwrap()
            .prompt;
        let choices: Vec<String> = prompt.choices.iter().map(|c| c.order.clone()).collect();
        if choices.is_empty() {
            break;
        }
        let pick = |rng: &mut GameRng| choices[rng.index(choices.len())].clone();
        let mine = pick(&mut rng);
        let other = pick(&mut rng);
        // A first-of-several window resolves on the first order, and so does a lone seat's
        // with `resolve=early`: nothing pending to compare.
        let resolves_at_once = (early && seats.len() == 1) || prompt.text.is_empty();
        if !resolves_at_once && mine != other {
            a.referee.submit(a.race, &user(first), &mine).await.unwrap();
            let r = b
                .referee
                .submit(b.race, &user(first), &other)
                .await
                .unwrap();
            if !r.resolved {
                same_in_public(
                    &a,
                    &b,
                    &format!("{kind} seed {seed} resolve={resolve}: a pending order leaked"),
                )
                .await;
                // Converge: the same order in both worlds, changed in the second.
                b.referee.submit(b.race, &user(first), &mine).await.unwrap();
            }
        }
        // Everyone else (or the lone seat) orders the same in both worlds.
        for &s in &seats {
            if s == first && !resolves_at_once && mine != other {
                continue;
            }
            let Ok(p) = a.referee.open_prompt(a.race, &user(s)).await else {
                continue;
            };
            let Some(choice) = p.prompt.choices.get(rng.index(p.prompt.choices.len())) else {
                continue;
            };
            let order = choice.order.clone();
            let (ra, rb) = (
                a.referee.submit(a.race, &user(s), &order).await,
                b.referee.submit(b.race, &user(s), &order).await,
            );
            assert_eq!(
                ra.is_ok(),
                rb.is_ok(),
                "{kind} seed {seed}: the worlds disagree on {order:?}"
            );
        }
        // Everyone is in; the step resolves at its deadline, or with `resolve=early` once
        // the last order is out of its grace window (a held order is still secret: the
        // worlds were compared above while it was held).
        let wait = if early {
            i64::try_from(photofinish::referee::grace::DEFAULT_GRACE_SECS).unwrap() + 1
        } else {
            TURN_SECS + 1
        };
        for w in [&a, &b] {
            w.clock.advance_secs(wait);
            w.referee.tick().await.unwrap();
        }
        same_in_public(
            &a,
            &b,
            &format!("{kind} seed {seed} resolve={resolve}: the worlds diverged in public"),
        )
        .await;
    }
}

fn games() -> u64 {
    std::env::var("PHOTOFINISH_LEAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

#[tokio::test]
async fn pending_orders_never_reach_a_public_post() {
    for kind in GameKind::all() {
        let (min, max) = kind.seat_limits(&kind.default_options()).unwrap();
        for seed in 0..games() {
            let players = [min, max.min(6), 4usize.clamp(min, max)][(seed % 3) as usize];
            lockstep(kind, players, seed, 60, true).await;
            lockstep(kind, players, seed, 60, false).await;
        }
    }
}
