//! Discord failing the way Discord fails, through the fake: an interaction's token that
//! expires 15 minutes after the interaction, and what the bot does about each failure.

use std::time::Duration;

use serde_json::Value;

use crate::support::discord::*;

/// A deferred answer that comes after the interaction's 15 minutes is refused (401,
/// 50027), so the bot sends it by DM instead of losing it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_after_the_token_expired_goes_by_dm() {
    let h = Harness::start().await;
    let alice = User::new(2101, "Alice");
    // `/race verify` defers straight away; the verification "takes" 16 minutes.
    h.fake.advance_on_ack(TOKEN_LIFE + Duration::from_secs(60));
    let id = h.fake.slash(&alice, CHANNEL, "verify", &[]);
    let dm = h
        .fake
        .wait_dm_matching(alice.id, "the late answer by DM", |m| {
            !text_of(m).is_empty()
        })
        .await;
    assert!(text_of(&dm).contains("race"), "{dm}");
    h.settle().await;
    // The follow-up was tried and refused as Discord refuses an expired token.
    let refused: Vec<Recorded> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/webhooks/") && r.status == 401)
        .collect();
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert_eq!(h.fake.callbacks(id), 1);
    assert!(h.fake.refusals().iter().all(|r| r.status == 401));
}

/// The post of a resolved turn (not the status message, which names the turn too).
fn is_turn_post(m: &Value, title: &str) -> bool {
    text_of(m).contains(title) && text_of(m).contains("Orders and receipts")
}

/// Without Attach Files in the race's channel, Discord refuses the turn's post with its
/// picture (403, 50013): the post goes again as text alone, so the turn is still told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_attach_files_the_turn_is_posted_without_its_picture() {
    let h = Harness::start().await;
    let alice = User::new(2201, "Alice");
    h.open_lobby("dream-mile", "turn=1h resolve=deadline", &alice, &[], 1)
        .await;
    h.slash(&alice, "start", &[]).await;
    h.fake.wait_dm(alice.id, 2).await;
    h.settle().await;
    h.fake.lose_permission(
        CHANNEL,
        Lost {
            attach_files: true,
            ..Lost::default()
        },
    );
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "5");
    h.fake.wait_dm(alice.id, n + 1).await;
    h.settle().await;
    h.advance(3600);
    h.settle().await;
    let title = "race #1: Turn 1 of 8";
    let tries: Vec<Recorded> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.is("POST", &format!("/channels/{CHANNEL}/messages")))
        .filter(|r| is_turn_post(&r.body, title))
        .collect();
    let seen: Vec<(u16, usize)> = tries.iter().map(|r| (r.status, r.files.len())).collect();
    assert_eq!(
        seen,
        vec![(403, 1), (200, 0)],
        "refused with its picture, then posted without"
    );
    let shown: Vec<Value> = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|m| is_turn_post(m, title))
        .collect();
    assert_eq!(shown.len(), 1, "posted once");
    let post = serde_json::to_string(&shown[0]).unwrap();
    assert!(!post.contains("attachment://"), "no broken image: {post}");
}

/// Plays Alice's first order in a race of Alice and a bot, resolved at its deadline, with
/// `trouble` done to the race's channel before the turn resolves; returns the harness
/// once the bot has done what it does about it.
async fn first_turn_with(trouble: impl FnOnce(&FakeDiscord), alice: &User) -> Harness {
    let h = Harness::start().await;
    h.open_lobby("dream-mile", "turn=1h resolve=deadline", alice, &[], 1)
        .await;
    h.slash(alice, "start", &[]).await;
    h.fake.wait_dm(alice.id, 2).await;
    h.settle().await;
    trouble(&h.fake);
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(alice, "5");
    h.fake.wait_dm(alice.id, n + 1).await;
    h.settle().await;
    h.advance(3600);
    h.settle().await;
    h
}

/// The DMs to a user whose text has `needle`.
fn dms_with(h: &Harness, user: &User, needle: &str) -> Vec<Value> {
    h.fake
        .dms_to(user.id)
        .into_iter()
        .filter(|m| text_of(m).contains(needle))
        .collect()
}

/// The race's channel was deleted (10003): the race pauses and its host is told by DM,
/// once, however many posts fail after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_channel_pauses_the_race_and_the_host_is_told_by_dm() {
    let alice = User::new(2301, "Alice");
    let h = first_turn_with(|f| f.delete_channel(CHANNEL), &alice).await;
    let told = dms_with(&h, &alice, "paused the race");
    assert_eq!(told.len(), 1, "{:#?}", h.fake.dms_to(alice.id));
    assert!(text_of(&told[0]).contains("was it deleted?"), "{}", told[0]);
    // Paused: a day later no deadline has resolved anything, and she was told once.
    let posts = h.fake.request_count();
    h.advance(24 * 3600);
    h.settle().await;
    assert_eq!(dms_with(&h, &alice, "paused the race").len(), 1);
    assert!(
        h.fake.requests()[posts..]
            .iter()
            .all(|r| !r.path.starts_with(&format!("/channels/{CHANNEL}"))),
        "nothing more is sent to the deleted channel"
    );
    let status = h.slash(&alice, "status", &[]).await;
    assert!(
        text_of(&status).to_lowercase().contains("paused"),
        "{status}"
    );
}

/// The bot lost Send Messages in the race's channel (50013): the race pauses and the host
/// is told by DM, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_send_messages_the_host_is_told_once_by_dm() {
    let alice = User::new(2401, "Alice");
    let lost = Lost {
        send_messages: true,
        ..Lost::default()
    };
    let h = first_turn_with(|f| f.lose_permission(CHANNEL, lost), &alice).await;
    let told = dms_with(&h, &alice, "paused the race");
    assert_eq!(told.len(), 1, "{:#?}", h.fake.dms_to(alice.id));
    assert!(text_of(&told[0]).contains("permission"), "{}", told[0]);
    h.advance(24 * 3600);
    h.settle().await;
    assert_eq!(
        dms_with(&h, &alice, "paused the race").len(),
        1,
        "told once"
    );
}

/// INVALID SESSION (op 9, not resumable): the bot identifies anew and goes on answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_session_is_identified_again() {
    let h = Harness::start().await;
    let alice = User::new(2501, "Alice");
    let before = h.fake.identifies();
    h.fake.invalid_session(false);
    h.fake.wait_reconnected(usize::MAX, before + 1).await;
    let a = h.slash(&alice, "help", &[]).await;
    assert!(!text_of(&a).is_empty(), "{a}");
}

/// Close code 4014 (disallowed intents) cannot be fixed by reconnecting: the bot stops,
/// and its error (logged as it is) tells the operator what to change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn close_code_4014_stops_the_bot_with_a_clear_line() {
    let mut h = Harness::start().await;
    let before = h.fake.identifies();
    h.fake.disconnect(Some(4014));
    let bot = h.bot.take().unwrap();
    let ended = tokio::time::timeout(PATIENCE, bot.wait()).await.unwrap();
    let Err(photofinish::discord::StartError::Discord(e)) = ended else {
        panic!("the bot should stop on 4014: {ended:?}");
    };
    let line = photofinish::discord::gateway_failure(&e);
    assert!(
        line.contains("4014") && line.contains("Privileged Gateway Intents"),
        "{line}"
    );
    assert_eq!(h.fake.identifies(), before, "no reconnection");
}

/// A race thread that Discord archived for inactivity refuses the lobby's edit (50083):
/// the bot unarchives it and the edit lands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_race_thread_is_unarchived_for_an_edit() {
    let h = Harness::start().await;
    let alice = User::new(2601, "Alice");
    let bob = User::new(2602, "Bob");
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", serde_json::json!("dream-mile")),
                ("thread", serde_json::json!(true)),
            ],
        )
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let thread = h.fake.threads()[0];
    h.fake
        .wait_message("the lobby in the thread", |m| {
            m["channel_id"] == thread.to_string().as_str()
        })
        .await;
    h.settle().await;
    // A day and a minute without activity: Discord archives the thread.
    h.fake.advance(THREAD_ARCHIVE + Duration::from_secs(60));
    let id = h.fake.slash(&bob, thread, "join", &[]);
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    h.settle().await;
    let edits: Vec<(u16, String)> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "PATCH" && r.path.starts_with(&format!("/channels/{thread}")))
        .map(|r| (r.status, r.path))
        .collect();
    assert!(edits.len() >= 3, "{edits:#?}");
    assert_eq!(
        edits[0].0, 400,
        "refused in the archived thread: {edits:#?}"
    );
    assert_eq!(edits[1], (200, format!("/channels/{thread}")), "unarchived");
    assert_eq!(edits[2].0, 200, "then edited: {edits:#?}");
    assert!(!h.fake.is_archived(thread));
    let lobby = h
        .fake
        .messages_in(thread)
        .into_iter()
        .find(|m| custom_ids(m).iter().any(|c| c.starts_with("pf:join")))
        .unwrap();
    assert!(text_of(&lobby).contains("Bob"), "{lobby}");
}
