//! The referee keeps its promises over long runs (docs/reliability.md), each
//! failure the review found reproduced on the test clock: a long Discord outage loses
//! nothing and keeps the order; a long chain of bot steps is carried on by ticks; one row
//! that does not decode, or decodes but lies, stops only its race; a failing race backs off; a clock that jumps
//! holds the deadlines; time and option arithmetic never wraps.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::support::backend::{Arg, Bench, Kind};
use crate::support::courier::{Recorder, alice, bob, carol};
use photofinish::engine::BotLevel;
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, MAX_BACKOFF_MS, Parcel};
use photofinish::referee::work::MAX_DEADLINE_AHEAD_MS;
use photofinish::referee::{NewRace, RefereeError, TestClock};
use photofinish::store::StoreError;
use photofinish::vocab::Phase;

const DM: GameKind = GameKind::DreamMile;

/// A Discord that can be down: every attempt is recorded with the test clock's time.
struct Outage {
    clock: Arc<TestClock>,
    down: Mutex<bool>,
    /// (outbox id, target, announcement) of each landed delivery, in order.
    landed: Mutex<Vec<(i64, Target, Announcement)>>,
    /// (outbox id, time) of every attempt.
    attempts: Mutex<Vec<(i64, i64)>>,
}

#[async_trait]
impl Courier for Outage {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        self.attempts
            .lock()
            .unwrap()
            .push((parcel.outbox_id, self.clock.now_ms()));
        if *self.down.lock().unwrap() {
            return Err(DeliveryError::Retry {
                after_ms: 0,
                reason: "503 Service Unavailable".into(),
            });
        }
        self.landed.lock().unwrap().push((
            parcel.outbox_id,
            parcel.target.clone(),
            parcel.announcement.clone(),
        ));
        Ok(Delivered {
            external_id: Some(format!("msg-{}", parcel.outbox_id)),
        })
    }
}

/// Six hours without Discord, while the race goes on: turns resolve by orders and by a
/// deadline. Nothing is given up, the channel's posts land once each and in order, the
/// retries never wait more than five minutes, and prompts of steps that resolved meanwhile
/// are not sent late.
async fn a_six_hour_outage_loses_nothing_and_keeps_the_order(kind: Kind) {
    let b = Bench::new(kind).await;
    let c = Outage {
        clock: b.clock.clone(),
        down: Mutex::new(false),
        landed: Mutex::new(Vec::new()),
        attempts: Mutex::new(Vec::new()),
    };
    let id = b.three_runners("chan-1", "turn=2h reminders=none").await;
    b.referee.deliver(&c).await.unwrap();
    *c.down.lock().unwrap() = true;
    let start = b.clock.now_ms();
    let mut minute = 0;
    while b.clock.now_ms() - start < 6 * 3_600_000 {
        b.clock.advance_secs(30);
        minute += 1;
        // Orders at 1 h and 3 h resolve turns 1 and 2 early; turn 3's deadline passes
        // at 5 h and is played by default.
        if minute == 120 || minute == 360 {
            for a in [alice(), bob(), carol()] {
                b.referee.submit(id, &a.user, "5").await.unwrap();
            }
        }
        b.referee.tick().await.unwrap();
        b.referee.deliver(&c).await.unwrap();
    }
    let landed_before = c.landed.lock().unwrap().len();
    let outage_end = b.clock.now_ms();
    *c.down.lock().unwrap() = false;
    for _ in 0..20 {
        b.clock.advance_secs(300);
        b.referee.deliver(&c).await.unwrap();
    }
    assert!(c.landed.lock().unwrap().len() > landed_before);
    assert_eq!(b.step_of(id).await, 3, "three turns resolved");
    // Nothing given up but what is moot (superseded status edits, prompts of resolved
    // steps).
    let outbox = b.store.outbox_of(id).await.unwrap();
    let lost: Vec<_> = outbox
        .iter()
        .filter(|r| r.delivered_at.is_none())
        .filter(|r| {
            !r.failed
                .as_deref()
                .is_some_and(|f| f == "superseded" || f.starts_with("moot"))
        })
        .map(|r| (r.id, r.failed.clone(), r.payload["kind"].clone()))
        .collect();
    assert!(lost.is_empty(), "lost: {lost:?}");
    // Every channel post landed once, in the order it was queued.
    let landed = c.landed.lock().unwrap().clone();
    let channel: Vec<i64> = landed
        .iter()
        .filter(|(_, t, _)| *t == Target::Channel)
        .map(|(id, _, _)| *id)
        .collect();
    let queued: Vec<i64> = outbox
        .iter()
        .filter(|r| r.target == serde_json::json!({"to": "channel"}))
        .map(|r| r.id)
        .collect();
    assert_eq!(channel, queued, "each channel post once, in order");
    let resolved = landed
        .iter()
        .filter(|(_, _, a)| matches!(a, Announcement::TurnResolved { .. }))
        .count();
    assert_eq!(resolved, 3);
    // No prompt of a step that had resolved before it could be sent.
    let late: Vec<u32> = landed
        .iter()
        .filter_map(|(_, _, a)| match a {
            Announcement::Prompt { step, .. } if *step == 1 || *step == 2 => Some(*step),
            _ => None,
        })
        .collect();
    assert!(late.is_empty(), "prompts sent late for steps {late:?}");
    let current = landed
        .iter()
        .filter(|(_, _, a)| matches!(a, Announcement::Prompt { step: 3, .. }))
        .count();
    assert_eq!(current, 3, "the open step's prompts are sent");
    // During the outage, retries of one row never waited more than the cap (plus one
    // 30 s step of this loop).
    let attempts = c.attempts.lock().unwrap().clone();
    let mut last: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
    for (row, at) in attempts.into_iter().filter(|(_, at)| *at <= outage_end) {
        if let Some(prev) = last.insert(row, at) {
            assert!(
                at - prev <= MAX_BACKOFF_MS + 30_000,
                "row {row} waited {} ms",
                at - prev
            );
        }
    }
}

/// An all-bot 1000 Yards race of 40 rounds (thousands of steps) reaches its end through
/// ticks: a long chain yields and carries on, and nothing strands it.
async fn a_long_chain_of_bot_steps_runs_to_its_end_through_ticks(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b
        .race(
            GameKind::ThousandYards,
            &alice(),
            "rounds=40 target-score=100000",
        )
        .await;
    b.referee
        .add_bots(id, &alice(), 3, BotLevel::Heuristic)
        .await
        .unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    let mut ticks = 0;
    while b.referee.overview(id).await.unwrap().phase != Phase::Finished {
        b.referee.tick().await.unwrap();
        ticks += 1;
        assert!(
            ticks < 200,
            "stranded at step {} after {ticks} ticks",
            b.step_of(id).await
        );
    }
    let steps = b.step_of(id).await;
    assert!(
        steps > 2_000,
        "a chain longer than the old cap: {steps} steps"
    );
    assert!(b.referee.verify(id).await.unwrap().ok());
}

/// A race whose state no longer decodes is quarantined with its cause, told once, and
/// the other race goes on; nothing spins on it.
async fn a_state_that_does_not_decode_stops_only_its_race(kind: Kind) {
    let b = Bench::new(kind).await;
    let bad = b.three_runners("chan-1", "turn=1h").await;
    let good = b.three_runners("chan-2", "turn=1h").await;
    let raw = b.db.raw().await;
    // The state has its own row (migration 20); the version bump makes the referee reload.
    raw.execute(
        "UPDATE campaign_states SET state = '{\"no\": \"such game\"}' WHERE campaign_id = ?",
        vec![Arg::I(bad.0)],
    )
    .await;
    raw.execute(
        "UPDATE campaigns SET version = version + 1 WHERE id = ?",
        vec![Arg::I(bad.0)],
    )
    .await;
    // A player's order: a sentence without "try again", and the race is stopped.
    let e = b.referee.submit(bad, &bob().user, "5").await.unwrap_err();
    assert!(!e.to_string().contains("try again"), "{e}");
    let detail = e.operator_detail();
    assert!(
        detail.contains("campaigns") && detail.contains(&format!("id {}", bad.0)),
        "{detail}"
    );
    b.clock.advance_secs(3_601);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(good).await, 1, "the good race resolved its turn");
    let q = b.store.quarantined().await.unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].campaign, bad);
    assert!(q[0].reason.contains("state"), "{}", q[0].reason);
    assert!(q[0].told_at.is_some());
    // Nothing left to spin on: its deadline is no longer due, and more ticks do nothing.
    let next = b.referee.next_due().await.unwrap();
    assert!(next.is_none_or(|t| t > b.clock.now_ms()), "{next:?}");
    for _ in 0..5 {
        b.referee.tick().await.unwrap();
    }
    // Told once, in its channel, and the notice is delivered though the state is unreadable.
    let rec = Recorder::default();
    b.referee.deliver(&rec).await.unwrap();
    let notices: Vec<_> = rec
        .take()
        .into_iter()
        .filter(|(_, a)| matches!(a, Announcement::Notice { race, text, .. } if *race == bad && text.contains("stopped")))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    raw.close().await;
}

/// A state row that decodes but lies (a runner with more speed points than it ever had)
/// is never played on: its race is quarantined with the broken invariant, told once, and
/// the other race resolves its turn.
async fn a_state_row_that_lies_quarantines_its_race_and_others_go_on(kind: Kind) {
    let b = Bench::new(kind).await;
    let bad = b.three_runners("chan-1", "turn=1h").await;
    let good = b.three_runners("chan-2", "turn=1h").await;
    let state = b.store.load(bad).await.unwrap().unwrap().campaign.state;
    let text = serde_json::to_string(&state.unwrap()).unwrap();
    let lie = text.replacen("\"remaining\":45", "\"remaining\":999", 1);
    assert_ne!(lie, text, "the state names a runner's points");
    let raw = b.db.raw().await;
    raw.execute(
        "UPDATE campaign_states SET state = ? WHERE campaign_id = ?",
        vec![Arg::S(lie), Arg::I(bad.0)],
    )
    .await;
    // The version bump makes the referee reload instead of deciding from its cache.
    raw.execute(
        "UPDATE campaigns SET version = version + 1 WHERE id = ?",
        vec![Arg::I(bad.0)],
    )
    .await;
    b.clock.advance_secs(3_601);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(good).await, 1, "the good race resolved its turn");
    assert_eq!(b.step_of(bad).await, 0, "the lying race was not played on");
    let q = b.store.quarantined().await.unwrap();
    assert_eq!(q.iter().map(|q| q.campaign).collect::<Vec<_>>(), vec![bad]);
    let reason = &q[0].reason;
    assert!(
        reason.contains("campaign_states")
            && reason.contains(&format!("campaign_id {}", bad.0))
            && reason.contains("points left is 999"),
        "{reason}"
    );
    assert!(q[0].told_at.is_some());
    // A player who writes to it is told it is stopped, without "try again".
    let e = b.referee.submit(bad, &bob().user, "5").await.unwrap_err();
    assert!(e.is_poison() && !e.to_string().contains("try again"), "{e}");
    for _ in 0..5 {
        b.referee.tick().await.unwrap();
    }
    assert_eq!(b.step_of(bad).await, 0);
    // Told once, in its channel.
    let rec = Recorder::default();
    b.referee.deliver(&rec).await.unwrap();
    let notices: Vec<_> = rec
        .take()
        .into_iter()
        .filter(|(_, a)| matches!(a, Announcement::Notice { race, text, .. } if *race == bad && text.contains("stopped")))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    raw.close().await;
}

/// A state or event of a format newer than this binary's quarantines its race with a
/// clear reason, never a misreading.
async fn an_unknown_format_quarantines_with_a_clear_reason(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.three_runners("chan-1", "turn=1h").await;
    let other = b.three_runners("chan-2", "turn=1h").await;
    for a in [alice(), bob(), carol()] {
        b.referee.submit(other, &a.user, "5").await.unwrap();
    }
    let raw = b.db.raw().await;
    raw.execute(
        "UPDATE campaign_states SET state_format = 99 WHERE campaign_id = ?",
        vec![Arg::I(id.0)],
    )
    .await;
    raw.execute(
        "UPDATE campaigns SET version = version + 1 WHERE id = ?",
        vec![Arg::I(id.0)],
    )
    .await;
    raw.execute(
        "UPDATE events SET format = 7 WHERE campaign_id = ?",
        vec![Arg::I(other.0)],
    )
    .await;
    match b.store.log(other).await {
        Err(StoreError::UnknownFormat { table, found, .. }) => {
            assert_eq!((table, found), ("events", 7));
        }
        other => panic!("expected an unknown format, got {other:?}"),
    }
    b.clock.advance_secs(3_601);
    b.referee.tick().await.unwrap();
    let q = b.store.quarantined().await.unwrap();
    assert_eq!(q.iter().map(|q| q.campaign).collect::<Vec<_>>(), vec![id]);
    assert!(
        q[0].reason.contains("format 99") && q[0].reason.contains("upgrade"),
        "{}",
        q[0].reason
    );
    raw.close().await;
}

/// One unreadable deadline row, of a finished race, does not stop the start (the first
/// tick): its race is quarantined and the running race's deadline fires.
async fn a_bad_deadline_row_of_a_finished_race_does_not_stop_the_start(kind: Kind) {
    let b = Bench::new(kind).await;
    let done = b.race(DM, &alice(), "").await;
    b.referee
        .add_bots(done, &alice(), 3, BotLevel::Random)
        .await
        .unwrap();
    b.referee.start(done, &alice()).await.unwrap();
    assert_eq!(
        b.referee.overview(done).await.unwrap().phase,
        Phase::Finished
    );
    let live = b.three_runners("chan-2", "turn=1h").await;
    let raw = b.db.raw().await;
    raw.execute(
        "INSERT INTO deadlines (campaign_id, step, kind, due_at) VALUES (?, 0, 'someday', 0)",
        vec![Arg::I(done.0)],
    )
    .await;
    raw.close().await;
    b.clock.advance_secs(3_601);
    let b = b.restart().await;
    b.referee
        .tick()
        .await
        .expect("the start survives one bad row");
    assert_eq!(b.step_of(live).await, 1);
    let q = b.store.quarantined().await.unwrap();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].campaign, done);
    assert!(
        q[0].reason.contains("deadlines") && q[0].reason.contains("someday"),
        "{}",
        q[0].reason
    );
}

/// An announcement that does not decode is given up with its cause; every other
/// announcement, of its race and of others, is delivered.
async fn an_unreadable_announcement_does_not_stop_delivery(kind: Kind) {
    let b = Bench::new(kind).await;
    let one = b.three_runners("chan-1", "").await;
    let two = b.three_runners("chan-2", "").await;
    let raw = b.db.raw().await;
    let first = raw
        .scalar(
            "SELECT MIN(id) FROM outbox WHERE campaign_id = ? AND delivered_at IS NULL AND failed IS NULL",
            vec![Arg::I(one.0)],
        )
        .await;
    raw.execute(
        "UPDATE outbox SET payload = '{not json' WHERE id = ?",
        vec![Arg::I(first)],
    )
    .await;
    raw.close().await;
    let rec = Recorder::default();
    for _ in 0..3 {
        b.referee.deliver(&rec).await.unwrap();
    }
    let waiting = "SELECT COUNT(*) FROM outbox WHERE campaign_id = ? AND delivered_at IS NULL AND failed IS NULL";
    assert_eq!(b.count(waiting, one).await, 0);
    assert_eq!(b.count(waiting, two).await, 0);
    let failed = b
        .store
        .outbox_of(two)
        .await
        .unwrap()
        .iter()
        .filter(|r| r.delivered_at.is_none() && r.failed.as_deref() != Some("superseded"))
        .count();
    assert_eq!(failed, 0);
    let reason = b
        .count(
            "SELECT COUNT(*) FROM outbox WHERE campaign_id = ? AND failed LIKE 'unreadable%payload%'",
            one,
        )
        .await;
    assert_eq!(reason, 1, "the bad row is given up with its cause");
}

/// A commit that fails for a passing reason (here a disk-full error on one race's
/// events, by a trigger) makes its deadline wait, each time longer, instead of spinning;
/// once the disk has room the turn resolves.
async fn a_failing_race_backs_off_instead_of_spinning(kind: Kind) {
    if kind != Kind::Sqlite {
        return; // the trigger is SQLite's; the rule is the same on PostgreSQL
    }
    let b = Bench::new(kind).await;
    let id = b.three_runners("chan-1", "turn=1h").await;
    let raw = b.db.raw().await;
    raw.execute(&crate::support::backend::sqlite_disk_full(id.0), vec![])
        .await;
    b.clock.advance_secs(3_601);
    let failures = "SELECT MAX(failures) FROM deadlines WHERE campaign_id = ? AND fired_at IS NULL";
    b.referee.tick().await.unwrap();
    assert_eq!(b.count(failures, id).await, 1);
    let now = b.clock.now_ms();
    let next = b.referee.next_due().await.unwrap().unwrap();
    assert!(next >= now + 5_000, "the retry waits: {}", next - now);
    // Ticks meanwhile do not try it again.
    for _ in 0..10 {
        b.referee.tick().await.unwrap();
    }
    assert_eq!(b.count(failures, id).await, 1);
    b.clock.advance_secs(5);
    b.referee.tick().await.unwrap();
    assert_eq!(b.count(failures, id).await, 2);
    let next = b.referee.next_due().await.unwrap().unwrap();
    assert!(next >= b.clock.now_ms() + 10_000, "each wait is longer");
    assert_eq!(b.step_of(id).await, 0);
    raw.execute("DROP TRIGGER disk_full", vec![]).await;
    raw.close().await;
    b.clock.advance_secs(10);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(id).await, 1, "resolved once the disk had room");
}

/// A wall clock that jumps three hours ahead does not fire the deadlines: they are held
/// back by the jump, and the channel is told.
async fn a_clock_jump_holds_the_deadlines(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.three_runners("chan-1", "turn=1h").await;
    let before = b.referee.overview(id).await.unwrap().deadline.unwrap();
    b.referee.tick().await.unwrap();
    b.clock.advance_secs(600);
    b.clock.jump_ms(3 * 3_600_000);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(id).await, 0, "the jump fired nothing");
    let held = b.referee.overview(id).await.unwrap().deadline.unwrap();
    assert_eq!(held, before + 3 * 3_600_000);
    let told = b.store.outbox_of(id).await.unwrap().iter().any(|r| {
        r.payload["text"]
            .as_str()
            .is_some_and(|t| t.contains("jumped"))
    });
    assert!(told);
    // Time that really passes still counts.
    b.clock.advance_secs(3_000);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(id).await, 1);
}

/// `resume` with a stored time left beyond any sane deadline does not wrap; a deadline
/// more than a year ahead, and an option that would wrap, are refused with a sentence.
async fn time_and_option_arithmetic_never_wraps(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.three_runners("chan-1", "turn=1h").await;
    b.referee.pause(id, &alice()).await.unwrap();
    let raw = b.db.raw().await;
    raw.execute(
        "UPDATE campaigns SET paused_left_ms = ?, version = version + 1 WHERE id = ?",
        vec![Arg::I(i64::MAX - 5), Arg::I(id.0)],
    )
    .await;
    raw.close().await;
    let at = b.referee.resume(id, &alice()).await.unwrap();
    assert_eq!(at, b.clock.now_ms() + MAX_DEADLINE_AHEAD_MS);
    let far = photofinish::referee::DeadlineChange::At(i64::MAX - 1);
    let e = b
        .referee
        .move_deadline(id, &alice(), far)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("within a year"), "{e}");
    let e = b
        .referee
        .create(NewRace {
            kind: DM,
            options: "cost-per-speed=2147483648".into(),
            channel: "chan-9".into(),
            guild: None,
            host: bob(),
        })
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::Options(_)), "{e:?}");
    assert!(e.to_string().contains("cost-per-speed"), "{e}");
}

/// A courier whose first delivery is held until released: a post in flight (a picture
/// being drawn, a rate limit waited out) for as long as the test likes.
#[derive(Default)]
struct Slow {
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
    held: std::sync::atomic::AtomicBool,
    posted: Recorder,
}

#[async_trait]
impl Courier for Slow {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        if !self.held.swap(true, std::sync::atomic::Ordering::SeqCst) {
            self.entered.notify_one();
            self.release.notified().await;
        }
        self.posted.deliver(parcel).await
    }
}

/// A delivery that outlasts its lease on the referee's clock keeps the lease: a second
/// process neither takes the race's outbox nor posts the announcement in flight again.
/// (The long soak's final result posted twice: the clock ran past the lease while the
/// first process drew the race's animation.)
async fn a_slow_delivery_keeps_its_lease(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.three_runners("chan-1", "").await;
    let (_store2, second) = b.second_process().await;
    let slow = Slow::default();
    let other = Recorder::default();
    let first = b.referee.deliver(&slow);
    let meanwhile = async {
        slow.entered.notified().await;
        // Ten minutes pass on the referee's clock while the first post is in flight.
        b.clock.advance_secs(600);
        let now = b.clock.now_ms();
        // The first process renews its lease on its own; wait (bounded) for it to.
        let patience = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while b
            .count(
                "SELECT COALESCE(MAX(lease_until), 0) FROM outbox_leases WHERE campaign_id = ?",
                id,
            )
            .await
            <= now
            && std::time::Instant::now() < patience
        {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let taken = second.deliver(&other).await.unwrap();
        slow.release.notify_one();
        taken
    };
    let (landed, taken) = tokio::join!(first, meanwhile);
    assert!(landed.unwrap() > 0);
    assert_eq!(
        (taken, other.take().len()),
        (0, 0),
        "the second process delivered announcements the first had in flight"
    );
    // The first process finished the race's announcements; nothing is left for the second.
    assert_eq!(second.deliver(&other).await.unwrap(), 0);
}

/// A channel with history: it keeps what was created, by outbox id, and can be searched.
#[derive(Default)]
struct History {
    posted: Mutex<Vec<i64>>,
    looked_for: Mutex<Vec<i64>>,
}

#[async_trait]
impl Courier for History {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        self.posted.lock().unwrap().push(parcel.outbox_id);
        Ok(Delivered {
            external_id: Some(format!("m{}", parcel.outbox_id)),
        })
    }

    async fn find(
        &self,
        parcel: Parcel<'_>,
        _since: i64,
    ) -> Result<Option<Delivered>, DeliveryError> {
        let id = parcel.outbox_id;
        self.looked_for.lock().unwrap().push(id);
        let posted = self.posted.lock().unwrap().contains(&id);
        Ok(posted.then(|| Delivered {
            external_id: Some(format!("m{id}")),
        }))
    }
}

/// A process posts a prompt and dies before marking it delivered; the step resolves
/// before anyone delivers again, so the prompt is moot. The next delivery looks for it
/// and records it as delivered (its buttons are then closed with the others'), where it
/// used to record it as never sent. A prompt whose attempt died before posting, and one
/// never attempted, are moot; none is posted now.
async fn a_moot_prompt_that_an_earlier_attempt_posted_is_recorded_as_delivered(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.three_runners("c", "").await;
    let prompts: Vec<i64> = b
        .store
        .outbox_of(id)
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.payload["kind"] == "prompt")
        .map(|r| r.id)
        .collect();
    let [posted, died, untried] = prompts[..] else {
        panic!("expected three prompts: {prompts:?}");
    };
    let channel = History::default();
    let now = b.clock.now_ms();
    // The dead process's two attempts: one reached Discord, one did not.
    b.store.outbox_create_attempt(posted, now).await.unwrap();
    channel.posted.lock().unwrap().push(posted);
    b.store.outbox_create_attempt(died, now).await.unwrap();
    for a in [alice(), bob(), carol()] {
        b.referee.submit(id, &a.user, "5").await.unwrap();
    }
    assert_eq!(b.step_of(id).await, 1, "the step resolved");
    while b.referee.deliver(&channel).await.unwrap() > 0 {}
    let rows = b.store.outbox_of(id).await.unwrap();
    let row = |n: i64| rows.iter().find(|r| r.id == n).unwrap();
    assert!(row(posted).delivered_at.is_some(), "{:?}", row(posted));
    assert_eq!(row(posted).external_id, Some(format!("m{posted}")));
    assert_eq!(row(posted).failed, None);
    for n in [died, untried] {
        let failed = row(n).failed.clone().unwrap_or_default();
        assert!(failed.starts_with("moot"), "{:?}", row(n));
    }
    let looked: Vec<i64> = channel.looked_for.lock().unwrap().clone();
    assert_eq!(
        looked,
        vec![posted, died],
        "only rows with an earlier attempt are looked for"
    );
    let sent = channel.posted.lock().unwrap().clone();
    assert!(
        !sent.iter().any(|n| [died, untried].contains(n))
            && sent.iter().filter(|&&n| n == posted).count() == 1,
        "{sent:?}"
    );
}

on_both!(
    a_moot_prompt_that_an_earlier_attempt_posted_is_recorded_as_delivered,
    a_six_hour_outage_loses_nothing_and_keeps_the_order,
    a_long_chain_of_bot_steps_runs_to_its_end_through_ticks,
    a_state_that_does_not_decode_stops_only_its_race,
    a_state_row_that_lies_quarantines_its_race_and_others_go_on,
    an_unknown_format_quarantines_with_a_clear_reason,
    a_bad_deadline_row_of_a_finished_race_does_not_stop_the_start,
    an_unreadable_announcement_does_not_stop_delivery,
    a_failing_race_backs_off_instead_of_spinning,
    a_clock_jump_holds_the_deadlines,
    time_and_option_arithmetic_never_wraps,
    a_slow_delivery_keeps_its_lease,
);

/// The outbox id each message the bot made carries (`ref N` in its first embed's footer),
/// counted over every channel and DM of the fake Discord.
fn marked(fake: &crate::support::discord::FakeDiscord) -> std::collections::HashMap<String, usize> {
    let mut out = std::collections::HashMap::new();
    for m in fake.messages() {
        let footer = m["embeds"][0]["footer"]["text"].as_str().unwrap_or("");
        if let Some((_, id)) = footer.rsplit_once("ref ") {
            *out.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    out
}

/// Discord creates a message but its answer is lost, and the retry comes after Discord
/// forgot the nonce (5 minutes on the fake's clock): the courier finds the message in the
/// channel's, or the DM's, history by its outbox id and marks it delivered; nothing is
/// posted twice. Before (nonce alone), the retry posted a second copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_answer_retried_after_the_nonce_window_is_found_not_posted_again() {
    use crate::support::discord::*;
    let h = Harness::start().await;
    let alice = User::new(1401, "Alice");
    h.open_lobby("dream-mile", "turn=1h resolve=deadline", &alice, &[], 1)
        .await;
    h.slash(&alice, "start", &[]).await;
    h.fake.wait_dm(alice.id, 2).await;
    h.settle().await;

    // A channel post: the pause notice.
    h.fake.lose_next_answers(1);
    let a = h.slash(&alice, "pause", &[]).await;
    assert!(text_of(&a).contains("paused"), "{a}");
    h.settle().await;
    h.fake.advance(NONCE_WINDOW * 2);
    for secs in [2, 4, 8] {
        h.advance(secs);
        h.settle().await;
    }
    // The next turn's post and Alice's DM prompt.
    let a = h
        .slash(&alice, "pause", &[("resume", serde_json::json!(true))])
        .await;
    assert!(!text_of(&a).is_empty(), "{a}");
    h.settle().await;
    let dms = h.fake.dms_to(alice.id).len();
    h.fake.lose_next_answers(2);
    h.advance(3 * 3600);
    h.settle().await;
    h.fake.advance(NONCE_WINDOW * 2);
    for secs in [2, 4, 8, 16, 32] {
        h.advance(secs);
        h.settle().await;
    }
    let lost = h
        .fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/messages") && r.status == 500)
        .count();
    assert_eq!(lost, 3, "every lost answer was used");
    assert!(h.fake.dms_to(alice.id).len() > dms, "the next prompt came");
    let twice: Vec<(String, usize)> = marked(&h.fake)
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .collect();
    assert!(
        twice.is_empty(),
        "posted twice (outbox id, copies): {twice:?}"
    );
    let looked: Vec<String> = h
        .fake
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path.ends_with("/messages"))
        .map(|r| r.path.clone())
        .collect();
    let dm = h.fake.dm_channel(alice.id).unwrap();
    assert!(
        looked.contains(&format!("/channels/{CHANNEL}/messages"))
            && looked.contains(&format!("/channels/{dm}/messages")),
        "looked in the channel and the DM: {looked:?}"
    );
    assert!(h.fake.refusals().is_empty(), "{:?}", h.fake.refusals());
}
