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
