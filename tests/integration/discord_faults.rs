//! Discord misbehaving, through the fake Discord: rate limits (429 with `retry_after` in
//! the body or the headers, per route and global), server errors on a post, a DM and an
//! edit, a dropped gateway and its RESUME, DMs closed when a turn opens, messages deleted
//! under the bot, and answers slower than the 3-second interaction window. Each test
//! asserts what players see: nothing lost, nothing posted twice, the race goes on.

use std::time::Duration;

use crate::support::discord::*;
use serde_json::{Value, json};

fn channel_posts() -> String {
    format!("/channels/{CHANNEL}/messages")
}

/// Requests matching `method` and `path` so far.
fn matching(h: &Harness, method: &str, path: &str) -> Vec<Recorded> {
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.is(method, path))
        .collect()
}

/// Through a proxy (as in these tests) serenity's rate limiter is off and its error keeps
/// neither `retry_after` nor the headers, so a 429 goes back to the outbox: it is retried
/// after the outbox's backoff (1 s, doubling), never before, and posted once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_retried_by_the_outbox_after_its_backoff() {
    let h = Harness::start().await;
    let alice = User::new(1101, "Alice");
    let bob = User::new(1102, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let bob_dm = h.fake.dm_channel(bob.id).unwrap();

    // Bob's order is in (its receipt delivered) before the faults are set.
    let dms_before = h.fake.dms_to(bob.id).len();
    h.fake.dm(&bob, "5");
    h.fake.wait_dm(bob.id, dms_before + 1).await;
    h.settle().await;
    let dms_before = dms_before + 1;
    // A per-route 429 (body and headers) on the turn's post, a global one (body only) on
    // Bob's next prompt.
    h.fake.inject(
        "POST",
        &channel_posts(),
        Fault::RateLimit {
            retry_after: 1.0,
            global: false,
            body: true,
            headers: true,
        },
        1,
    );
    h.fake.inject(
        "POST",
        &format!("/channels/{bob_dm}/messages"),
        Fault::RateLimit {
            retry_after: 0.5,
            global: true,
            body: true,
            headers: false,
        },
        1,
    );
    h.fake.dm(&alice, "7");
    h.fake.wait_dm(alice.id, 3).await;
    h.settle().await;
    let limited = |h: &Harness| {
        h.fake
            .requests()
            .into_iter()
            .filter(|r| r.status == 429)
            .count()
    };
    assert_eq!(
        limited(&h),
        2,
        "the turn's post and Bob's prompt were limited"
    );
    // Real time passes, the outbox's clock does not: nothing is retried before its backoff.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    h.settle().await;
    assert!(
        !h.fake
            .messages_in(CHANNEL)
            .iter()
            .any(|m| text_of(m).contains("Orders and receipts")),
        "the turn's post was not retried before the backoff"
    );
    assert_eq!(
        h.fake.dms_to(bob.id).len(),
        dms_before,
        "Bob's prompt waits"
    );
    h.advance(1);
    let post = h
        .fake
        .wait_message("the turn's post, retried", |m| {
            in_channel(m) && text_of(m).contains("Orders and receipts")
        })
        .await;
    assert!(text_of(&post).contains("Alice `7`"), "{post}");
    let prompt = h.fake.wait_dm(bob.id, dms_before + 1).await;
    assert!(text_of(&prompt).contains("Turn 2 of 8"), "{prompt}");
    h.settle().await;
    let turn_posts = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("Orders and receipts"))
        .count();
    assert_eq!(turn_posts, 1, "posted once");
    let prompts = h
        .fake
        .dms_to(bob.id)
        .iter()
        .filter(|m| text_of(m).contains("Turn 2 of 8, Bob to order"))
        .count();
    assert_eq!(prompts, 1, "prompted once");
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

/// 500 and 502 on a channel post, a DM and an edit of the status message: each is
/// retried and lands once. A DM answer to a text order is retried too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_on_a_post_a_dm_and_an_edit_are_retried_and_land_once() {
    let h = Harness::start().await;
    let alice = User::new(1201, "Alice");
    let bob = User::new(1202, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let alice_dm = h.fake.dm_channel(alice.id).unwrap();
    let bob_dm = h.fake.dm_channel(bob.id).unwrap();

    // Alice's receipt (a direct answer, not the outbox) meets a 502 first.
    h.fake.inject(
        "POST",
        &format!("/channels/{alice_dm}/messages"),
        Fault::Status(502),
        1,
    );
    h.fake.dm(&alice, "7");
    let receipt = h.fake.wait_dm(alice.id, 3).await;
    assert!(text_of(&receipt).contains("Order received"), "{receipt}");
    h.settle().await;

    // The turn resolves: 500 on its post, 502 on the status edit and on Bob's prompt.
    h.fake
        .inject("POST", &channel_posts(), Fault::Status(500), 1);
    h.fake.inject(
        "PATCH",
        &format!("/channels/{CHANNEL}/messages/"),
        Fault::Status(502),
        1,
    );
    h.fake.inject(
        "POST",
        &format!("/channels/{bob_dm}/messages"),
        Fault::Status(502),
        1,
    );
    let bob_before = h.fake.dms_to(bob.id).len();
    h.fake.dm(&bob, "5");
    h.settle().await;
    for _ in 0..4 {
        h.advance(2);
        h.settle().await;
    }
    let failed: Vec<u16> = h
        .fake
        .requests()
        .iter()
        .filter(|r| r.status >= 500)
        .map(|r| r.status)
        .collect();
    assert_eq!(failed.len(), 4, "each fault was met once: {failed:?}");
    let turn_posts = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("Orders and receipts"))
        .count();
    assert_eq!(turn_posts, 1, "the turn posted once");
    let status = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|m| text_of(m).contains("Turn 2 of 8") && text_of(m).contains("… Alice"))
        .count();
    assert_eq!(status, 1, "one status message, edited to turn 2");
    let bob_dms = h.fake.dms_to(bob.id);
    let prompts = bob_dms
        .iter()
        .filter(|m| text_of(m).contains("Turn 2 of 8, Bob to order"))
        .count();
    assert_eq!(prompts, 1, "Bob's prompt landed once");
    assert!(
        bob_dms[bob_before..]
            .iter()
            .any(|m| text_of(m).contains("Order received")),
        "Bob's receipt"
    );
    let receipts = h
        .fake
        .dms_to(alice.id)
        .iter()
        .filter(|m| text_of(m).contains("Order received for Turn 1"))
        .count();
    assert_eq!(receipts, 1, "Alice's receipt landed once");
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

/// The gateway drops (a resumable close code, then a dropped connection): the bot
/// RESUMEs, does not identify again, gets the events it missed, and takes orders after.
/// A close code Discord does not let a session resume (4009) makes it identify afresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_gateway_is_resumed_and_no_event_is_lost() {
    let h = Harness::start().await;
    let alice = User::new(1301, "Alice");
    let bob = User::new(1302, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let identified = h.fake.identifies();

    // Close with 4000 (unknown error: resumable). An order sent while the bot is away is
    // delivered on the RESUME.
    h.fake.disconnect(Some(4000));
    h.fake.dm(&alice, "7");
    h.fake.wait_reconnected(1, usize::MAX).await;
    assert_eq!(h.fake.resumes(), 1);
    assert_eq!(
        h.fake.identifies(),
        identified,
        "resumed, not re-identified"
    );
    let r = h.fake.wait_dm(alice.id, 3).await;
    assert!(text_of(&r).contains("Order received"), "{r}");

    // The connection just drops: resumed again; an order after the resume is accepted.
    h.fake.disconnect(None);
    h.fake.wait_reconnected(2, usize::MAX).await;
    assert_eq!(h.fake.identifies(), identified);
    h.fake.dm(&bob, "5");
    let post = h
        .fake
        .wait_message("turn 1 resolved", |m| {
            in_channel(m) && text_of(m).contains("Orders and receipts")
        })
        .await;
    assert!(text_of(&post).contains("Alice `7`") && text_of(&post).contains("Bob `5`"));

    // 4009 (session timed out): Discord allows no resume, so the bot identifies again.
    h.fake.wait_dm(alice.id, 4).await;
    h.settle().await;
    h.fake.disconnect(Some(4009));
    h.fake.wait_reconnected(usize::MAX, identified + 1).await;
    assert_eq!(h.fake.resumes(), 2);
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "6");
    let r = h.fake.wait_dm(alice.id, n + 1).await;
    assert!(
        text_of(&r).contains("Order received for Turn 2 of 8"),
        "{r}"
    );
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

/// A player closes their DMs after joining: when the turn opens the prompt fails with
/// 50007, the channel is told (naming the player), and `/race order` still works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dms_closed_when_a_turn_opens_are_told_in_the_channel() {
    let h = Harness::start().await;
    let alice = User::new(1401, "Alice");
    let bob = User::new(1402, "Bob");
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("options", json!("turn=1h reminders=none")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("is open"));
    for u in [&alice, &bob] {
        let a = h.slash(u, "join", &[]).await;
        assert!(text_of(&a).contains("I'll DM you"), "{a}");
    }
    h.fake.close_dms(bob.id);
    h.slash(&alice, "start", &[]).await;
    let notice = h
        .fake
        .wait_message("the closed-DM notice", |m| {
            in_channel(m) && text_of(m).contains("I can't DM you")
        })
        .await;
    assert!(
        text_of(&notice).contains(&format!("<@{}>", bob.id)),
        "{notice}"
    );
    assert!(text_of(&notice).contains("/race order"), "{notice}");
    let bounced = matching(
        &h,
        "POST",
        &format!("/channels/{}/messages", h.fake.dm_channel(bob.id).unwrap()),
    )
    .into_iter()
    .filter(|r| r.status == 403)
    .count();
    assert_eq!(
        bounced, 1,
        "the prompt was tried once, not retried against a closed DM"
    );

    let p = h.slash(&bob, "order", &[]).await;
    assert!(is_ephemeral(&p));
    assert!(text_of(&p).contains("Bob to order"), "{p}");
    let a = h.slash(&bob, "order", &[("text", json!("4"))]).await;
    assert!(is_ephemeral(&a));
    assert!(text_of(&a).contains("Order received"), "{a}");
    h.fake.dm(&alice, "6");
    let post = h
        .fake
        .wait_message("turn 1 resolved", |m| {
            in_channel(m) && text_of(m).contains("Orders and receipts")
        })
        .await;
    assert!(text_of(&post).contains("Bob `4`"), "{post}");
    // Told once per race, not every turn.
    h.settle().await;
    let notices = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("I can't DM you"))
        .count();
    assert_eq!(notices, 1);
}

/// Messages deleted under the bot: a DM prompt whose button is then pressed, and the
/// lobby, edited after it was deleted (10008), which is posted again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_deleted_under_the_bot_change_nothing_that_matters() {
    let h = Harness::start().await;
    let alice = User::new(1501, "Alice");
    let bob = User::new(1502, "Bob");
    let carol = User::new(1503, "Carol");
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("options", json!("turn=1h reminders=none")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("is open"));
    let lobby = h
        .fake
        .wait_message("the lobby", |m| {
            in_channel(m) && custom_ids(m).contains(&"pf:join:1".to_string())
        })
        .await;
    h.settle().await;
    h.fake.delete_message(&lobby["id"]);
    // A Join pressed on the deleted lobby still seats the player; the lobby's edit meets
    // 10008 and the lobby is posted again.
    let a = h.click(&alice, &lobby, "pf:join:1").await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let again = h
        .fake
        .wait_message("the lobby, posted again", |m| {
            in_channel(m) && custom_ids(m).contains(&"pf:join:1".to_string())
        })
        .await;
    assert_ne!(again["id"], lobby["id"]);
    assert!(text_of(&again).contains("Alice"), "{again}");
    assert!(
        h.fake
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.status == 404),
        "the edit met Unknown Message"
    );
    for u in [&bob, &carol] {
        h.slash(u, "join", &[]).await;
    }
    h.slash(&alice, "start", &[]).await;
    let prompt = h.fake.wait_dm(alice.id, 2).await;
    h.fake.wait_dm(bob.id, 2).await;
    h.fake.wait_dm(carol.id, 2).await;
    h.settle().await;

    // Alice deletes her prompt, then presses a button she still sees: the order counts.
    h.fake.delete_message(&prompt["id"]);
    let a = h.click(&alice, &prompt, &button(&prompt, "7")).await;
    assert!(text_of(&a).contains("Order received"), "{a}");
    // The status message is deleted too; the next update posts it again.
    let status = h
        .fake
        .wait_message("the status", |m| {
            in_channel(m) && text_of(m).contains("✓ Alice")
        })
        .await;
    h.settle().await;
    h.fake.delete_message(&status["id"]);
    h.fake.dm(&bob, "5");
    h.fake
        .wait_message("a fresh status", |m| {
            in_channel(m) && text_of(m).contains("✓ Bob") && m["id"] != status["id"]
        })
        .await;
    h.fake.dm(&carol, "4");
    let post = h
        .fake
        .wait_message("turn 1 resolved", |m| {
            in_channel(m) && text_of(m).contains("Orders and receipts")
        })
        .await;
    assert!(text_of(&post).contains("Alice `7`"), "{post}");
    let alice_dm = h.fake.dm_channel(alice.id).unwrap().to_string();
    h.fake
        .wait_message("Alice's turn 2 prompt", |m| {
            m["channel_id"] == alice_dm.as_str() && text_of(m).contains("Turn 2 of 8")
        })
        .await;
}

/// Holds SQLite's write lock, as a slow disk or a busy database would, until the returned
/// sender is dropped or sent to.
async fn hold_the_database(db: std::path::PathBuf) -> tokio::sync::oneshot::Sender<()> {
    use sqlx::Connection;
    let mut c = sqlx::sqlite::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut c)
        .await
        .unwrap();
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = released.await;
        sqlx::query("COMMIT").execute(&mut c).await.unwrap();
    });
    release
}

/// Waits until the fake has accepted a callback for interaction `id`: its time on the
/// fake's clock.
async fn acknowledged(h: &Harness, id: u64) -> Duration {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        if let Some(t) = h.fake.ack_time(id) {
            return t;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "interaction {id} never acknowledged"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Work slower than Discord's 3 seconds: with the database held, a button press and a
/// slash command are acknowledged (deferred) before the fake's clock says 3 seconds; the
/// test then moves that clock past the window and frees the database, and the follow-up
/// carries the answer. The order of events is the proof, not how fast this machine is: the
/// work cannot finish while the database is held, so an acknowledgement then is a deferral.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_answers_are_deferred_within_three_seconds() {
    let h = Harness::start().await;
    let alice = User::new(1601, "Alice");
    let bob = User::new(1602, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let prompt = h.fake.wait_dm(alice.id, 2).await;

    // A button press while the database is held.
    let held = hold_the_database(h.db()).await;
    let id = h.fake.click(&alice, &prompt, &button(&prompt, "7"));
    let ack = acknowledged(&h, id).await;
    assert!(ack < INTERACTION_WINDOW, "acknowledged after {ack:?}");
    h.fake.advance(INTERACTION_WINDOW + Duration::from_secs(1));
    let _ = held.send(());
    let answer = h.fake.response(id).await;
    assert_eq!(answer["type"], 6, "a deferred update: {answer}");
    assert!(text_of(&answer).contains("Order received"), "{answer}");
    assert_eq!(h.fake.callbacks(id), 1);

    // A host command while the database is held.
    let held = hold_the_database(h.db()).await;
    let id = h.fake.slash(&alice, CHANNEL, "pause", &[]);
    let ack = acknowledged(&h, id).await;
    assert!(ack < INTERACTION_WINDOW, "acknowledged after {ack:?}");
    h.fake.advance(INTERACTION_WINDOW + Duration::from_secs(1));
    let _ = held.send(());
    let answer = h.fake.response(id).await;
    assert_eq!(answer["type"], 5, "a deferred reply: {answer}");
    assert!(text_of(&answer).contains("paused"), "{answer}");
    assert_eq!(h.fake.callbacks(id), 1);
    let o = h
        .referee()
        .overview(photofinish::vocab::CampaignId(1))
        .await
        .unwrap();
    assert!(o.paused_left_ms.is_some(), "the pause took");
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

/// The Discord economy for a second game (Dream Mile's is held in `discord_race.rs`):
/// a 1500m race of three, every order by button. Per resolved turn the bot makes one
/// channel post, one status edit and one DM per seat that must act next, nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_per_resolved_turn_in_1500m() {
    let h = Harness::start().await;
    let players: Vec<User> = ["Ann", "Ben", "Cat"]
        .iter()
        .enumerate()
        .map(|(i, n)| User::new(1701 + i as u64, n))
        .collect();
    let others: Vec<&User> = players.iter().skip(1).collect();
    h.open_race("1500m", "turn=1h reminders=none", &players[0], &others)
        .await;
    let mut answered: std::collections::HashSet<String> = Default::default();
    let mut turns = 0;
    for _ in 0..6 {
        // Every seat's open prompt (the newest DM with buttons not yet pressed).
        let open: Vec<(User, Value)> = players
            .iter()
            .filter_map(|u| {
                let last = h
                    .fake
                    .dms_to(u.id)
                    .into_iter()
                    .rev()
                    .find(|m| !custom_ids(m).is_empty())?;
                let id = last["id"].as_str()?.to_string();
                (!answered.contains(&id)).then(|| (u.clone(), last))
            })
            .collect();
        if open.is_empty() {
            break;
        }
        let posts_before = h
            .fake
            .messages_in(CHANNEL)
            .iter()
            .filter(|m| text_of(m).contains("Orders and receipts"))
            .count();
        let mut before = 0;
        for (i, (u, prompt)) in open.iter().enumerate() {
            answered.insert(prompt["id"].as_str().unwrap().to_string());
            if i + 1 == open.len() {
                h.settle().await;
                before = h.fake.request_count();
            }
            let first = custom_ids(prompt)[0].clone();
            let a = h.click(u, prompt, &first).await;
            assert!(
                text_of(&a).contains("Order received") || text_of(&a).contains("Already in"),
                "{a}"
            );
        }
        h.fake
            .wait_message("the turn's post", |m| {
                in_channel(m) && text_of(m).contains("Orders and receipts")
            })
            .await;
        h.settle().await;
        let posts_after = h
            .fake
            .messages_in(CHANNEL)
            .iter()
            .filter(|m| text_of(m).contains("Orders and receipts"))
            .count();
        assert_eq!(posts_after, posts_before + 1, "one turn resolved");
        let after: Vec<Recorded> = h.fake.requests()[before..].to_vec();
        let over = h
            .fake
            .messages_in(CHANNEL)
            .iter()
            .any(|m| text_of(m).contains("final result"));
        let channel_posts = after
            .iter()
            .filter(|r| r.is("POST", &channel_posts()))
            .count();
        let status_edits = after
            .iter()
            .filter(|r| r.is("PATCH", &format!("/channels/{CHANNEL}/messages/")))
            .count();
        let dms: Vec<&Recorded> = after
            .iter()
            .filter(|r| {
                r.method == "POST"
                    && r.path.starts_with("/channels/")
                    && !r.path.starts_with(&format!("/channels/{CHANNEL}/"))
            })
            .collect();
        let others: Vec<String> = after
            .iter()
            // Answers to interactions aside: on a slow machine an answer is deferred, then
            // finished through the interaction's webhook.
            .filter(|r| !r.path.starts_with("/channels/") && !answers_an_interaction(r))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert!(others.is_empty(), "nothing else: {others:?}");
        if over {
            break;
        }
        turns += 1;
        assert_eq!(channel_posts, 1, "turn {turns}: one channel post");
        assert_eq!(status_edits, 1, "turn {turns}: one status edit");
        // Each DM is a prompt, one per seat that must act (in 1500m, every seat).
        assert_eq!(dms.len(), players.len(), "turn {turns}: one DM per seat");
        let mut to: Vec<&str> = dms.iter().map(|r| r.path.as_str()).collect();
        to.sort();
        to.dedup();
        assert_eq!(to.len(), players.len(), "one DM each");
        assert!(
            dms.iter().all(|r| !custom_ids(&r.body).is_empty()),
            "each DM is a prompt"
        );
    }
    assert!(turns >= 3, "several turns counted: {turns}");
}

/// Discord refuses the bot itself for a while, as after a token rotation: every request
/// is answered 401 when the turn resolves at its deadline. Before, this marked each post
/// `failed` for good. Now nothing is given up: the delivery worker shows `failing` with the
/// cause meanwhile, and once Discord answers again the turn posts once and the worker is
/// `running` again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_bot_loses_nothing_and_says_so_until_discord_answers() {
    let h = Harness::start().await;
    let alice = User::new(1301, "Alice");
    let bob = User::new(1302, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    h.fake.dm(&alice, "7");
    let receipt = h.fake.wait_dm(alice.id, 3).await;
    assert!(text_of(&receipt).contains("Order received"), "{receipt}");
    h.settle().await;
    for method in ["GET", "POST", "PATCH", "PUT", "DELETE"] {
        h.fake.inject(method, "/", Fault::Status(401), 10_000);
    }
    // Bob misses the deadline: the turn resolves with his default order.
    h.advance(3_601);
    h.settle().await;
    let store = h.referee().store().clone();
    let delivery = || async {
        store
            .workers()
            .await
            .unwrap()
            .into_iter()
            .find(|w| w.worker == "delivery")
            .unwrap()
    };
    let w = delivery().await;
    assert_eq!(w.state, "failing", "{w:?}");
    assert!(
        w.trouble
            .as_deref()
            .is_some_and(|t| t.contains("Discord refused the bot itself")),
        "{w:?}"
    );
    let refused = matching(&h, "POST", &channel_posts())
        .iter()
        .filter(|r| r.status == 401)
        .count();
    assert!(refused >= 1, "the turn's post was tried");
    h.fake.clear_faults();
    for _ in 0..6 {
        h.advance(300);
        h.settle().await;
    }
    let turn_posts = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("Orders and receipts"))
        .count();
    assert_eq!(turn_posts, 1, "the turn posted once, after the refusals");
    let w = delivery().await;
    assert_eq!((w.state.as_str(), w.trouble), ("running", None));
}
