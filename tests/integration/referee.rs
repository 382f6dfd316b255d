//! The referee on a real database, on each backend (SQLite, and PostgreSQL when
//! `PHOTOFINISH_TEST_POSTGRES` is set; see `support/backend.rs`): a whole campaign, changed and
//! missed orders, deadlines on a test clock, early resolution, restarts, several
//! processes, refusals, verification.

use crate::support::backend;

use crate::support::courier::{Recorder, actor, alice, bob, carol};
use backend::{Arg, Bench, Kind, timing};
use photofinish::engine::{BotLevel, OrderError};
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, SeatState, Target};
use photofinish::referee::delivery::{DeliveryError, OUTBOX_LEASE_MS};
use photofinish::referee::work::receipt_for;
use photofinish::referee::{Actor, DEADLINE_CLAIM_MS, DeadlineChange, RefereeError};
use photofinish::store::{DeadlineKind, OrderSource};
use photofinish::vocab::{CampaignId, Phase, UserId};

const DM: GameKind = GameKind::DreamMile;

fn mallory() -> Actor {
    actor("666", "Mallory")
}

/// A started Dream Mile race of Alice (host), Bob and Carol.
async fn three_runners(b: &Bench) -> CampaignId {
    let id = b.race(DM, &alice(), "").await;
    b.referee.join(id, &alice(), None, None).await.unwrap();
    b.referee.join(id, &bob(), None, Some("12")).await.unwrap();
    b.referee.join(id, &carol(), None, None).await.unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    id
}

async fn count(b: &Bench, sql: &'static str, id: CampaignId) -> i64 {
    b.count(sql, id).await
}

/// Everything the store holds for a campaign, to show that a refusal changed nothing.
async fn snapshot(b: &Bench, id: CampaignId) -> (i64, i64, i64, i64) {
    let loaded = b.store.load(id).await.unwrap().unwrap();
    (
        loaded.campaign.version,
        count(b, "SELECT COUNT(*) FROM orders WHERE campaign_id = ?", id).await,
        count(b, "SELECT COUNT(*) FROM outbox WHERE campaign_id = ?", id).await,
        count(b, "SELECT COUNT(*) FROM events WHERE campaign_id = ?", id).await,
    )
}

fn user(a: &Actor) -> UserId {
    a.user.clone()
}

async fn a_whole_campaign_through_every_state(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = b
        .race(DM, &alice(), "starting-points=50 turn=2h reminders=1h")
        .await;
    assert_eq!(b.referee.overview(id).await.unwrap().phase, Phase::Lobby);
    b.referee
        .join(id, &alice(), Some("Speedy"), Some("11"))
        .await
        .unwrap();
    b.referee.join(id, &bob(), None, None).await.unwrap();
    let bots = b
        .referee
        .add_bots(id, &alice(), 2, BotLevel::Heuristic)
        .await
        .unwrap();
    assert_eq!(bots, vec!["Bot 1", "Bot 2"]);
    let settings = b
        .referee
        .settings(id, &alice(), "auto-final-turn=yes")
        .await
        .unwrap();
    assert!(
        settings.contains("starting-points=50") && settings.contains("turn=2h"),
        "{settings}"
    );
    b.referee.deliver(&rec).await.unwrap();
    let lobby: Vec<_> = rec
        .take()
        .into_iter()
        .filter(|(t, _)| *t == Target::Lobby)
        .collect();
    // Coalesced: only the newest lobby message is delivered.
    assert_eq!(lobby.len(), 1);
    let Announcement::Lobby { seats, .. } = &lobby[0].1 else {
        panic!()
    };
    assert_eq!(seats.len(), 4);

    b.referee.start(id, &alice()).await.unwrap();
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(o.phase, Phase::Running);
    assert_eq!(o.label, "Turn 1 of 8");
    assert_eq!(o.deadline, Some(b.clock.now_ms() + 7_200_000));
    b.referee.deliver(&rec).await.unwrap();
    let out = rec.take();
    let commitment = out
        .iter()
        .find_map(|(_, a)| match a {
            Announcement::Started { commitment, .. } => Some(commitment.clone()),
            _ => None,
        })
        .expect("the start is announced with the commitment");
    // Both humans are prompted by DM; bots are not.
    let prompts: Vec<_> = out
        .iter()
        .filter(|(_, a)| matches!(a, Announcement::Prompt { .. }))
        .collect();
    assert_eq!(prompts.len(), 2);
    assert!(prompts.iter().all(|(t, _)| matches!(t, Target::Dm { .. })));

    for turn in 1..=7 {
        let r = b.referee.submit(id, &user(&alice()), "5").await.unwrap();
        assert!(!r.resolved);
        let r = b.referee.submit(id, &user(&bob()), "4").await.unwrap();
        assert!(r.resolved, "turn {turn} resolves when the last order is in");
    }
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(o.phase, Phase::Finished);
    let seed = o.seed.clone().expect("the seed is revealed at the end");
    b.referee.deliver(&rec).await.unwrap();
    let out = rec.take();
    let finished = out.iter().find_map(|(_, a)| match a {
        Announcement::Finished {
            seed,
            commitment,
            placings,
            ..
        } => Some((seed.clone(), commitment.clone(), placings.len())),
        _ => None,
    });
    assert_eq!(finished, Some((seed, commitment, 4)));
    let report = b.referee.verify(id).await.unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.steps_checked, 7);
    // Nothing can be ordered or changed once it is over.
    assert!(matches!(
        b.referee.submit(id, &user(&alice()), "1").await,
        Err(RefereeError::Finished)
    ));
    assert!(matches!(
        b.referee.cancel(id, &alice()).await,
        Err(RefereeError::Finished)
    ));
    // The channel is free again.
    b.race(DM, &bob(), "").await;
}

async fn a_changed_order_replaces_the_first(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    let first = b.referee.submit(id, &user(&alice()), "3").await.unwrap();
    assert!(!first.changed);
    let second = b
        .referee
        .submit(id, &user(&alice()), "speed 9")
        .await
        .unwrap();
    assert!(second.changed);
    assert_eq!(second.order, "9");
    assert_ne!(first.receipt, second.receipt);
    assert_eq!(
        count(
            &b,
            "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND CAST(superseded AS INTEGER) = 1",
            id
        )
        .await,
        1
    );
    b.referee.submit(id, &user(&bob()), "1").await.unwrap();
    b.referee.submit(id, &user(&carol()), "1").await.unwrap();
    let h = b.referee.history(id, 1).await.unwrap();
    let alice_order = h.orders.iter().find(|o| o.name == "Alice").unwrap();
    assert_eq!(alice_order.order, "9");
    assert_eq!(alice_order.receipt, second.receipt);
}

/// Dream Mile resolves when every order is in, but the last order is held for the grace
/// window first: the last to order can fix a misclick, and the turn resolves once, with
/// the fixed order, when the window is over.
async fn the_last_simultaneous_order_is_held_for_its_grace_window(kind: Kind) {
    let b = Bench::with_timing(kind, backend::grace_timing(3600, vec![], true)).await;
    let id = three_runners(&b).await;
    let step = b.step_of(id).await;
    let first = b.referee.submit(id, &user(&alice()), "3").await.unwrap();
    // Others still to order: nothing is held, it can change until the turn resolves.
    assert_eq!(first.held_until, None);
    b.referee.submit(id, &user(&bob()), "1").await.unwrap();
    let last = b.referee.submit(id, &user(&carol()), "5").await.unwrap();
    assert!(!last.resolved);
    assert_eq!(last.held_until, Some(b.clock.now_ms() + 120_000));
    let fixed = b.referee.submit(id, &user(&carol()), "2").await.unwrap();
    assert!(fixed.changed && !fixed.resolved);
    b.clock.advance_secs(119);
    b.referee.tick().await.unwrap();
    assert_eq!(
        b.step_of(id).await,
        step,
        "resolved inside the grace window"
    );
    b.clock.advance_secs(2);
    b.referee.tick().await.unwrap();
    assert_eq!(b.step_of(id).await, step + 1);
    let h = b.referee.history(id, 1).await.unwrap();
    let carol_order = h.orders.iter().find(|o| o.name == "Carol").unwrap();
    assert_eq!(carol_order.order, "2");
}

async fn missed_orders_at_the_deadline_play_the_default_once(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = three_runners(&b).await;
    b.referee.submit(id, &user(&alice()), "6").await.unwrap();
    // Not yet: the deadline is an hour away.
    b.clock.advance_secs(3599);
    assert_eq!(
        b.referee.tick().await.unwrap(),
        2,
        "two reminders fire, the deadline does not"
    );
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 1 of 8");
    b.clock.advance_secs(1);
    assert_eq!(b.referee.tick().await.unwrap(), 1);
    assert_eq!(b.referee.tick().await.unwrap(), 0, "a deadline fires once");
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
    b.referee.deliver(&rec).await.unwrap();
    let turn = rec
        .take()
        .into_iter()
        .find_map(|(_, a)| match a {
            Announcement::TurnResolved { missed, late, .. } => Some((missed, late)),
            _ => None,
        })
        .unwrap();
    let missed: Vec<(String, String)> = turn
        .0
        .iter()
        .map(|m| (m.name.clone(), m.played.clone()))
        .collect();
    assert_eq!(
        missed,
        vec![
            ("Bob".to_string(), "1".to_string()),
            ("Carol".to_string(), "1".to_string())
        ]
    );
    assert!(!turn.1, "on time, not late");
    let log = b.store.log(id).await.unwrap();
    let sources: Vec<OrderSource> = log[0].orders.iter().map(|o| o.source).collect();
    assert_eq!(
        sources,
        vec![
            OrderSource::Player,
            OrderSource::Default,
            OrderSource::Default
        ]
    );
    // Next turn, a missed order plays one more than last time.
    b.clock.advance_secs(3600);
    b.referee.tick().await.unwrap();
    let log = b.store.log(id).await.unwrap();
    let played: Vec<&str> = log[1].orders.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(played, vec!["7", "2", "2"]);
}

async fn reminders_go_to_the_seats_still_missing_orders(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = three_runners(&b).await;
    b.referee.deliver(&rec).await.unwrap();
    rec.take();
    b.referee.submit(id, &user(&alice()), "6").await.unwrap();
    b.clock.advance_secs(1800);
    b.referee.tick().await.unwrap();
    b.referee.deliver(&rec).await.unwrap();
    let reminded: Vec<String> = rec
        .take()
        .into_iter()
        .filter_map(|(t, a)| match (t, a) {
            (Target::Dm { user, .. }, Announcement::Reminder { .. }) => Some(user.0),
            _ => None,
        })
        .collect();
    assert_eq!(reminded, vec!["200", "300"]);
    b.referee.submit(id, &user(&bob()), "6").await.unwrap();
    b.clock.advance_secs(1200);
    b.referee.tick().await.unwrap();
    b.referee.deliver(&rec).await.unwrap();
    let reminded: Vec<String> = rec
        .take()
        .into_iter()
        .filter_map(|(t, a)| match (t, a) {
            (Target::Dm { user, .. }, Announcement::Reminder { .. }) => Some(user.0),
            _ => None,
        })
        .collect();
    assert_eq!(reminded, vec!["300"]);
}

async fn resolution_waits_for_the_deadline_when_asked_to(kind: Kind) {
    let b = Bench::with_timing(kind, timing(600, vec![], false)).await;
    let id = three_runners(&b).await;
    for a in [alice(), bob(), carol()] {
        let r = b.referee.submit(id, &user(&a), "2").await.unwrap();
        assert!(!r.resolved);
    }
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 1 of 8");
    assert!(
        b.referee
            .overview(id)
            .await
            .unwrap()
            .seats
            .iter()
            .all(|s| s.state == SeatState::Ordered)
    );
    b.clock.advance_secs(600);
    b.referee.tick().await.unwrap();
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
    let log = b.store.log(id).await.unwrap();
    assert!(
        log[0]
            .orders
            .iter()
            .all(|o| o.source == OrderSource::Player)
    );
}

async fn a_restart_in_the_middle_of_a_turn_loses_nothing_and_resolves_once(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    let kept = b.referee.submit(id, &user(&alice()), "8").await.unwrap();
    b.referee.submit(id, &user(&bob()), "3").await.unwrap();
    let b = b.restart().await;
    let o = b.referee.overview(id).await.unwrap();
    let ordered: Vec<SeatState> = o.seats.iter().map(|s| s.state).collect();
    assert_eq!(
        ordered,
        vec![SeatState::Ordered, SeatState::Ordered, SeatState::Waiting]
    );
    // The deadline passed while the bot was down: handled once, and flagged late.
    b.clock.advance_secs(3 * 3600);
    let (_store2, second) = b.second_process().await;
    let (one, two) = tokio::join!(b.referee.tick(), second.tick());
    let handled = one.unwrap() + two.unwrap();
    // Two reminders and the deadline are due, each claimed by one process; a reminder
    // made moot by the resolution counts as done, not handled.
    assert!((1..=3).contains(&handled), "{handled}");
    assert_eq!(
        count(
            &b,
            "SELECT COUNT(*) FROM turns WHERE campaign_id = ? AND resolved_at IS NOT NULL",
            id
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &b,
            "SELECT COUNT(*) FROM events WHERE campaign_id = ? AND step = 0",
            id
        )
        .await,
        1
    );
    let log = b.store.log(id).await.unwrap();
    assert!(log[0].turn.late);
    let alice_row = log[0]
        .orders
        .iter()
        .find(|o| o.receipt == kept.receipt)
        .unwrap();
    assert_eq!(alice_row.text, "8");
    let rec = Recorder::default();
    b.referee.deliver(&rec).await.unwrap();
    let late = rec
        .take()
        .into_iter()
        .any(|(_, a)| matches!(a, Announcement::TurnResolved { late: true, .. }));
    assert!(late, "the late resolution is announced as late");
}

async fn two_processes_ordering_at_once_resolve_the_turn_once(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    b.referee.submit(id, &user(&alice()), "1").await.unwrap();
    let (_store2, second) = b.second_process().await;
    let (bob_id, carol_id) = (user(&bob()), user(&carol()));
    let (r1, r2) = tokio::join!(
        b.referee.submit(id, &bob_id, "2"),
        second.submit(id, &carol_id, "3")
    );
    let resolved = [r1.unwrap().resolved, r2.unwrap().resolved];
    assert_eq!(resolved.iter().filter(|r| **r).count(), 1, "{resolved:?}");
    assert_eq!(
        count(
            &b,
            "SELECT COUNT(*) FROM turns WHERE campaign_id = ? AND resolved_at IS NOT NULL",
            id
        )
        .await,
        1
    );
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
}

/// A referee decides from its cache without asking the store first. An answer that writes
/// nothing is checked against the stored version: a turn another process moved on is never
/// answered from the old one (here Alice's repeat would have been "the same order again"
/// for turn 1, which is over).
async fn an_answer_from_a_stale_cache_is_decided_again(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    b.referee.submit(id, &user(&alice()), "1").await.unwrap();
    let (_store2, second) = b.second_process().await;
    second.submit(id, &user(&bob()), "2").await.unwrap();
    let last = second.submit(id, &user(&carol()), "3").await.unwrap();
    assert!(last.resolved, "the second process resolved turn 1");
    let again = b.referee.submit(id, &user(&alice()), "1").await;
    match &again {
        Ok(r) => assert!(
            !r.repeated && r.label == "Turn 2 of 8",
            "answered from the stale cache: {r:?}"
        ),
        Err(e) => assert!(
            !e.to_string().contains("Turn 1"),
            "refused from the stale cache: {e}"
        ),
    }
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
}

/// A process that dies holding work (a claimed deadline, a campaign's outbox) delays it by
/// one lease at most: then another process finishes it, once.
async fn a_process_that_dies_holding_work_is_replaced_after_its_lease(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    let (_store2, second) = b.second_process().await;
    let rec = Recorder::default();
    // The dead process took the outbox lease and never delivered.
    let now = b.clock.now_ms();
    let held = b
        .store
        .claim_outbox(now, 100, "dead-process", now + OUTBOX_LEASE_MS)
        .await
        .unwrap();
    assert!(!held.is_empty());
    assert_eq!(
        second.deliver(&rec).await.unwrap(),
        0,
        "the lease is still running"
    );
    b.clock.advance_secs(OUTBOX_LEASE_MS / 1000);
    let landed = second.deliver(&rec).await.unwrap();
    assert_eq!(
        landed,
        held.len(),
        "every held announcement is delivered once"
    );
    assert_eq!(second.deliver(&rec).await.unwrap(), 0);
    // The deadline passes; the dead process had claimed it.
    b.clock.advance_secs(3600);
    let now = b.clock.now_ms();
    let claimed = b
        .store
        .claim_due_deadlines(now, 100, "dead-process", now + DEADLINE_CLAIM_MS)
        .await
        .unwrap();
    assert!(claimed.iter().any(|d| d.kind == DeadlineKind::Deadline));
    assert_eq!(
        second.tick().await.unwrap(),
        0,
        "the claim is still running"
    );
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 1 of 8");
    // Until its claim runs out, the next tick is the claim's end, not a busy loop.
    assert_eq!(
        second.next_due().await.unwrap(),
        Some(now + DEADLINE_CLAIM_MS)
    );
    b.clock.advance_secs(DEADLINE_CLAIM_MS / 1000);
    assert!(second.tick().await.unwrap() >= 1);
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
    assert_eq!(
        count(
            &b,
            "SELECT COUNT(*) FROM turns WHERE campaign_id = ? AND resolved_at IS NOT NULL",
            id
        )
        .await,
        1
    );
    assert_eq!(
        b.referee.tick().await.unwrap(),
        0,
        "nothing is left to fire"
    );
}

async fn refusals_are_clear_and_change_nothing(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.race(DM, &alice(), "").await;
    b.referee.join(id, &alice(), None, None).await.unwrap();
    b.referee.join(id, &bob(), None, None).await.unwrap();
    let before = snapshot(&b, id).await;
    // In the lobby: nothing to order, and only the host starts.
    assert!(matches!(
        b.referee.submit(id, &user(&alice()), "3").await,
        Err(RefereeError::NotStarted)
    ));
    assert!(matches!(
        b.referee.start(id, &bob()).await,
        Err(RefereeError::NotHost)
    ));
    assert!(matches!(
        b.referee.join(id, &carol(), None, Some("16")).await,
        Err(RefereeError::Invalid(_))
    ));
    assert!(matches!(
        b.referee.join(id, &bob(), None, None).await,
        Err(RefereeError::AlreadySeated)
    ));
    assert!(matches!(
        b.referee.settings(id, &alice(), "speed=3").await,
        Err(RefereeError::Options(_))
    ));
    assert_eq!(snapshot(&b, id).await, before);
    b.referee.start(id, &alice()).await.unwrap();
    let before = snapshot(&b, id).await;
    bad_orders_are_refused(&b, id).await;
    host_commands_are_the_hosts(&b, id).await;
    assert_eq!(snapshot(&b, id).await, before);
    // Zero-width and control characters are cleaned from an otherwise good order.
    let r = b
        .referee
        .submit(id, &user(&alice()), "\u{200B}4\u{0007}")
        .await
        .unwrap();
    assert_eq!(r.order, "4");
    // A member with Manage Server may run host commands.
    let admin = Actor {
        manage: true,
        ..mallory()
    };
    b.referee.pause(id, &admin).await.unwrap();
}

/// Orders refused while the race runs, each with its reason.
async fn bad_orders_are_refused(b: &Bench, id: CampaignId) {
    let e = b
        .referee
        .submit(id, &user(&alice()), "11")
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "that order isn't allowed: 11 is above your maximum speed of 10"
    );
    let e = b
        .referee
        .submit(id, &user(&alice()), "fast")
        .await
        .unwrap_err();
    assert!(
        matches!(e, RefereeError::Order(OrderError::Syntax(_))),
        "{e}"
    );
    let e = b
        .referee
        .submit(id, &user(&mallory()), "3")
        .await
        .unwrap_err();
    assert_eq!(e.to_string(), "you don't have a seat in this race");
    let e = b
        .referee
        .submit(id, &user(&alice()), &"9".repeat(5000))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("5000 characters"), "{e}");
    let e = b
        .referee
        .submit(id, &user(&alice()), "\u{200B}\u{0007} ")
        .await
        .unwrap_err();
    assert!(
        matches!(e, RefereeError::Order(OrderError::Syntax(_))),
        "{e}"
    );
    let e = b
        .referee
        .submit(id, &user(&alice()), "<@999> 3")
        .await
        .unwrap_err();
    assert_eq!(e.to_string(), "<@999> isn't in this race");
    let e = b
        .referee
        .submit_for_step(id, &user(&alice()), "3", Some(5))
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::StaleStep));
}

/// Host commands by a seated player who is not the host, and settings the game refuses.
async fn host_commands_are_the_hosts(b: &Bench, id: CampaignId) {
    for host_only in [
        b.referee.pause(id, &bob()).await,
        b.referee.cancel(id, &bob()).await,
        b.referee
            .move_deadline(id, &bob(), DeadlineChange::Extend(60))
            .await
            .map(|_| ()),
        b.referee
            .kick(id, &bob(), &user(&alice()))
            .await
            .map(|_| ()),
        b.referee
            .replace(id, &bob(), "Alice", &user(&mallory()))
            .await
            .map(|_| ()),
        b.referee.settings(id, &bob(), "turn=1h").await.map(|_| ()),
    ] {
        assert!(
            matches!(host_only, Err(RefereeError::NotHost)),
            "{host_only:?}"
        );
    }
    assert!(matches!(
        b.referee.settings(id, &alice(), "starting-points=60").await,
        Err(RefereeError::Invalid(_))
    ));
}

async fn pause_keeps_the_time_that_was_left(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    b.clock.advance_secs(20 * 60);
    b.referee.pause(id, &alice()).await.unwrap();
    assert!(matches!(
        b.referee.pause(id, &alice()).await,
        Err(RefereeError::Paused)
    ));
    b.clock.advance_secs(5 * 3600);
    assert_eq!(
        b.referee.tick().await.unwrap(),
        0,
        "no deadline runs while paused"
    );
    // Orders may still come in while paused; nothing resolves.
    for a in [alice(), bob(), carol()] {
        b.referee.submit(id, &user(&a), "1").await.unwrap();
    }
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 1 of 8");
    let at = b.referee.resume(id, &alice()).await.unwrap();
    // Resuming resolves the turn whose orders were all in, and the next turn gets a full turn.
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(o.label, "Turn 2 of 8");
    assert_eq!(at, b.clock.now_ms() + 40 * 60 * 1000);
    assert_eq!(o.deadline, Some(b.clock.now_ms() + 3600 * 1000));
}

async fn a_paused_turn_resumes_with_its_time_left(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    b.clock.advance_secs(20 * 60);
    b.referee.pause(id, &alice()).await.unwrap();
    b.clock.advance_secs(3600);
    b.referee.resume(id, &alice()).await.unwrap();
    assert_eq!(
        b.referee.overview(id).await.unwrap().deadline,
        Some(b.clock.now_ms() + 40 * 60 * 1000)
    );
    let e = b.referee.resume(id, &alice()).await.unwrap_err();
    assert!(matches!(e, RefereeError::NotPaused));
}

async fn deadlines_can_be_moved_by_the_host(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    let start = b.clock.now_ms();
    let at = b
        .referee
        .move_deadline(id, &alice(), DeadlineChange::Extend(1800))
        .await
        .unwrap();
    assert_eq!(at, start + 5400 * 1000);
    assert!(
        b.referee
            .move_deadline(id, &alice(), DeadlineChange::At(start - 1))
            .await
            .is_err()
    );
    b.clock.advance_secs(3600);
    b.referee.tick().await.unwrap();
    assert_eq!(
        b.referee.overview(id).await.unwrap().label,
        "Turn 1 of 8",
        "the old deadline no longer fires"
    );
    b.clock.advance_secs(1800);
    b.referee.tick().await.unwrap();
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
}

async fn receipts_are_proved_at_the_reveal(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = three_runners(&b).await;
    let r = b.referee.submit(id, &user(&carol()), "7").await.unwrap();
    b.referee.deliver(&rec).await.unwrap();
    // Before the reveal the channel shows the receipt, never the order.
    let status = rec
        .take()
        .into_iter()
        .rfind(|(t, _)| *t == Target::Status)
        .unwrap()
        .1;
    let text = serde_json::to_string(&status).unwrap();
    assert!(text.contains(&r.receipt));
    assert!(!text.contains("\"7\""));
    b.referee.submit(id, &user(&alice()), "1").await.unwrap();
    b.referee.submit(id, &user(&bob()), "1").await.unwrap();
    b.referee.deliver(&rec).await.unwrap();
    let revealed = rec
        .take()
        .into_iter()
        .find_map(|(_, a)| match a {
            Announcement::TurnResolved { revealed, .. } => Some(revealed),
            _ => None,
        })
        .unwrap();
    let carol_order = revealed.iter().find(|o| o.name == "Carol").unwrap();
    assert_eq!(carol_order.receipt, r.receipt);
    assert_eq!(
        receipt_for(id.0, 0, r.seat, &carol_order.order, &carol_order.nonce),
        r.receipt
    );
}

async fn verification_catches_a_tampered_log(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    let carol = carol();
    b.referee.leave(id, &carol).await.unwrap();
    for _ in 0..7 {
        b.referee.submit(id, &user(&alice()), "5").await.unwrap();
        b.referee.submit(id, &user(&bob()), "5").await.unwrap();
    }
    assert!(b.referee.verify(id).await.unwrap().ok());
    let raw = b.db.raw().await;
    raw.execute(
        "UPDATE orders SET parsed = '{\"engine\":\"dream-mile\",\"order\":1}' WHERE campaign_id = ? AND step = 2 AND seat = 0",
        vec![Arg::I(id.0)],
    )
    .await;
    let report = b.referee.verify(id).await.unwrap();
    assert!(!report.ok());
    assert!(
        report.problems.iter().any(|p| p.contains("Turn 3 of 8")),
        "{report:?}"
    );
    raw.execute(
        "UPDATE campaigns SET seed = ?, version = version + 1 WHERE id = ?",
        vec![Arg::S("00".repeat(32)), Arg::I(id.0)],
    )
    .await;
    raw.close().await;
    assert!(!b.referee.verify(id).await.unwrap().commitment_matches);
}

async fn a_player_who_leaves_is_replaced_by_a_bot_and_can_be_given_back(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = three_runners(&b).await;
    b.referee.submit(id, &user(&alice()), "5").await.unwrap();
    b.referee.submit(id, &user(&bob()), "5").await.unwrap();
    // Carol leaves mid-turn: her bot orders at once and the turn resolves.
    b.referee.leave(id, &carol()).await.unwrap();
    assert_eq!(b.referee.overview(id).await.unwrap().label, "Turn 2 of 8");
    let e = b
        .referee
        .submit(id, &user(&carol()), "3")
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::SeatIsBot));
    let dave = actor("400", "Dave");
    b.referee
        .replace(id, &alice(), "Carol", &user(&dave))
        .await
        .unwrap();
    // The seat is Dave's once he accepts the offer.
    b.referee
        .accept_seat(id, &dave, photofinish::engine::Seat(2))
        .await
        .unwrap();
    b.referee.submit(id, &user(&dave), "3").await.unwrap();
    assert!(matches!(
        b.referee.replace(id, &alice(), "Bob", &user(&dave)).await,
        Err(RefereeError::UserAlreadySeated)
    ));
    assert!(matches!(
        b.referee
            .replace(id, &alice(), "Zed", &user(&mallory()))
            .await,
        Err(RefereeError::NoSuchSeat(_))
    ));
}

async fn a_race_of_bots_runs_to_the_end_at_once(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.race(DM, &alice(), "").await;
    b.referee.join(id, &alice(), None, None).await.unwrap();
    b.referee
        .add_bots(id, &alice(), 3, BotLevel::Random)
        .await
        .unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    b.referee.kick(id, &alice(), &user(&alice())).await.unwrap();
    assert_eq!(b.referee.overview(id).await.unwrap().phase, Phase::Finished);
    assert!(b.referee.verify(id).await.unwrap().ok());
}

async fn one_race_per_channel_and_lobby_rules(kind: Kind) {
    let b = Bench::new(kind).await;
    let id = b.race(DM, &alice(), "").await;
    let e = b
        .referee
        .create(photofinish::referee::NewRace {
            kind: DM,
            options: String::new(),
            channel: "chan-1".into(),
            guild: None,
            host: bob(),
        })
        .await
        .unwrap_err();
    assert!(matches!(e, RefereeError::ChannelBusy));
    assert_eq!(b.referee.race_in("chan-1").await.unwrap(), id);
    b.referee.join(id, &alice(), None, None).await.unwrap();
    let e = b.referee.start(id, &alice()).await.unwrap_err();
    assert_eq!(
        e.to_string(),
        "the race needs at least 2 players to start; it has 1"
    );
    b.referee
        .add_bots(id, &alice(), 11, BotLevel::Heuristic)
        .await
        .unwrap();
    assert!(matches!(
        b.referee.join(id, &bob(), None, None).await,
        Err(RefereeError::Full { max: 12 })
    ));
    b.referee.leave(id, &alice()).await.unwrap();
    let o = b.referee.overview(id).await.unwrap();
    assert_eq!(o.seats.len(), 11);
    b.referee.cancel(id, &alice()).await.unwrap();
    assert!(matches!(
        b.referee.race_in("chan-1").await,
        Err(RefereeError::NoRace)
    ));
    assert!(matches!(
        b.referee.submit(id, &user(&alice()), "1").await,
        Err(RefereeError::Cancelled)
    ));
}

async fn delivery_retries_and_is_marked_only_when_it_lands(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = three_runners(&b).await;
    let pending = count(&b, "SELECT COUNT(*) FROM outbox WHERE campaign_id = ? AND delivered_at IS NULL AND failed IS NULL", id).await;
    assert!(pending > 0);
    rec.fail_with(DeliveryError::Retry {
        after_ms: 2_000,
        reason: "429".into(),
    });
    b.referee.deliver(&rec).await.unwrap();
    let left = count(&b, "SELECT COUNT(*) FROM outbox WHERE campaign_id = ? AND delivered_at IS NULL AND failed IS NULL", id).await;
    assert_eq!(left, 1, "the one that failed waits for its retry");
    b.referee.deliver(&rec).await.unwrap();
    assert_eq!(left, 1);
    b.clock.advance_secs(2);
    b.referee.deliver(&rec).await.unwrap();
    let left = count(&b, "SELECT COUNT(*) FROM outbox WHERE campaign_id = ? AND delivered_at IS NULL AND failed IS NULL", id).await;
    assert_eq!(left, 0);
    // The status message id is remembered for later edits.
    let loaded = b.store.load(id).await.unwrap().unwrap();
    assert!(loaded.campaign.status_message.is_some());
}

async fn closed_dms_are_remembered_and_announced(kind: Kind) {
    let b = Bench::new(kind).await;
    let rec = Recorder::default();
    let id = b.race(DM, &alice(), "").await;
    b.referee.join(id, &alice(), None, None).await.unwrap();
    b.referee.join(id, &bob(), None, None).await.unwrap();
    b.referee.deliver(&rec).await.unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    rec.closed_dms.lock().unwrap().push("200".into());
    let mut order = Vec::new();
    for _ in 0..3 {
        b.referee.deliver(&rec).await.unwrap();
        order.extend(rec.take());
    }
    let notice = order.iter().any(|(_, a)| matches!(a, Announcement::Notice { text, user: Some(_), .. } if text.contains("can't DM you")));
    assert!(notice, "{order:?}");
    let loaded = b.store.load(id).await.unwrap().unwrap();
    assert_eq!(loaded.seats.iter().filter(|s| !s.dm_ok).count(), 1);
}

async fn every_game_runs_to_the_end_through_the_referee_and_verifies(kind: Kind) {
    for game in GameKind::all() {
        let b = Bench::new(kind).await;
        let id = b.race(game, &alice(), "").await;
        b.referee.join(id, &alice(), None, None).await.unwrap();
        let (min, _) = game.seat_limits(&game.default_options()).unwrap();
        let bots = min.max(4) - 1;
        b.referee
            .add_bots(id, &alice(), bots, BotLevel::Heuristic)
            .await
            .unwrap();
        b.referee.start(id, &alice()).await.unwrap();
        // The human leaves: the bots play everything that is left. Under `auto` with the
        // default standing plays a card race may already have been played out.
        if let Err(e) = b.referee.leave(id, &alice()).await {
            assert!(matches!(e, RefereeError::Finished), "{game}: {e:?}");
        }
        let mut guard = 0;
        while b.referee.overview(id).await.unwrap().phase != Phase::Finished {
            // A chain is cut at a bounded length; deadlines carry it on.
            b.clock.advance_secs(7200);
            b.referee.tick().await.unwrap();
            guard += 1;
            assert!(guard < 200, "{game} did not finish");
        }
        let report = b.referee.verify(id).await.unwrap();
        assert!(report.ok(), "{game}: {report:?}");
        assert!(report.steps_checked > 0);
        eprintln!("{game}: {} steps verified", report.steps_checked);
    }
}

/// A power's question in the middle of a turn waits the race's turn length (six
/// hours here), not ten minutes; a host's `decision-timeout` is a shorter window, and one
/// longer than the turn is capped at the turn.
async fn a_power_decision_waits_the_turn_length(kind: Kind) {
    for (options, want_secs) in [
        ("", 6 * 3600),
        ("decision-timeout=900", 900),
        ("decision-timeout=90000", 6 * 3600),
    ] {
        let b = Bench::with_timing(kind, timing(6 * 3600, vec![], true)).await;
        let id = b.race(GameKind::MagicalAthlete, &alice(), options).await;
        let dave = actor("444", "Dave");
        for p in [alice(), bob(), carol(), dave] {
            b.referee.join(id, &p, None, None).await.unwrap();
            // Every power's question is asked: no default policy answers it.
            b.referee
                .set_autopilot(id, &p.user, Some("ask"))
                .await
                .unwrap();
        }
        // A fixed seed: the same draft, racers and dice every run.
        let seed = photofinish::engine::Seed::from_u64(16);
        let raw = b.db.raw().await;
        raw.execute(
            "UPDATE campaigns SET seed = ?, commitment = ?, version = version + 1 WHERE id = ?",
            vec![
                Arg::S(seed.to_hex()),
                Arg::S(seed.commitment()),
                Arg::I(id.0),
            ],
        )
        .await;
        raw.close().await;
        b.referee.start(id, &alice()).await.unwrap();
        let mut decisions = 0;
        for _ in 0..2000 {
            let o = b.referee.overview(id).await.unwrap();
            if o.phase == Phase::Finished {
                break;
            }
            let now = b.clock.now_ms();
            let deadline = o.deadline.expect("a running step has a deadline");
            // "Bob decides: Ann's turn" (or "Legs' turn") is a turn, not a question.
            let turn = o.label.ends_with("'s turn") || o.label.ends_with("' turn");
            let asks = o.label.contains(" decides: ") && !turn;
            if asks {
                decisions += 1;
                assert_eq!(
                    (deadline - now) / 1000,
                    want_secs,
                    "{options:?}: {} waits until {deadline}, now {now}",
                    o.label
                );
            }
            // Nobody answers: the step's deadline plays the defaults.
            b.clock.advance_secs((deadline - now + 999) / 1000);
            b.referee.tick().await.unwrap();
        }
        assert!(decisions > 0, "{options:?}: no power decision was asked");
    }
}

on_both!(
    a_whole_campaign_through_every_state,
    a_changed_order_replaces_the_first,
    the_last_simultaneous_order_is_held_for_its_grace_window,
    missed_orders_at_the_deadline_play_the_default_once,
    reminders_go_to_the_seats_still_missing_orders,
    resolution_waits_for_the_deadline_when_asked_to,
    a_restart_in_the_middle_of_a_turn_loses_nothing_and_resolves_once,
    two_processes_ordering_at_once_resolve_the_turn_once,
    an_answer_from_a_stale_cache_is_decided_again,
    a_process_that_dies_holding_work_is_replaced_after_its_lease,
    refusals_are_clear_and_change_nothing,
    pause_keeps_the_time_that_was_left,
    a_paused_turn_resumes_with_its_time_left,
    deadlines_can_be_moved_by_the_host,
    receipts_are_proved_at_the_reveal,
    verification_catches_a_tampered_log,
    a_player_who_leaves_is_replaced_by_a_bot_and_can_be_given_back,
    a_race_of_bots_runs_to_the_end_at_once,
    one_race_per_channel_and_lobby_rules,
    delivery_retries_and_is_marked_only_when_it_lands,
    closed_dms_are_remembered_and_announced,
    every_game_runs_to_the_end_through_the_referee_and_verifies,
    a_power_decision_waits_the_turn_length,
);
