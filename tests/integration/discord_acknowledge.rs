//! Acknowledgement before anything waits: every interaction kind (slash command, button,
//! select, the modal the "Other order…" button opens, modal submit, autocomplete) is
//! answered or deferred before the bot writes to or waits on the database.
//!
//! The database is made slow by holding its write lock from the test: while it is held
//! the bot can write nothing, so a callback the fake records before the lock is let go
//! came before the bot's first write for that interaction. The order is of events (the
//! fake's request log, the lock's release, the claim's row), never of wall time.

use serde_json::{Value, json};
use sqlx::Connection;

use crate::support::discord::*;

/// The bot's database, its write lock held by the test until [`Held::release`].
struct Held {
    conn: sqlx::sqlite::SqliteConnection,
}

impl Held {
    async fn take(h: &Harness) -> Held {
        let url = format!("sqlite://{}", h.db().display());
        let mut conn = sqlx::sqlite::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut conn)
            .await
            .unwrap();
        Held { conn }
    }

    /// Whether the bot claimed this interaction (its row in `interactions`).
    async fn claimed(&mut self, id: u64) -> bool {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM interactions WHERE id = ?")
            .bind(id.to_string())
            .fetch_one(&mut self.conn)
            .await
            .unwrap()
            > 0
    }

    async fn release(mut self) {
        sqlx::query("ROLLBACK")
            .execute(&mut self.conn)
            .await
            .unwrap();
    }
}

/// Whether the bot claimed this interaction, read after the lock is let go.
async fn claimed(h: &Harness, id: u64) -> bool {
    let url = format!("sqlite://{}", h.db().display());
    let mut conn = sqlx::sqlite::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM interactions WHERE id = ?")
        .bind(id.to_string())
        .fetch_one(&mut conn)
        .await
        .unwrap()
        > 0
}

/// Sends one interaction with the database held, and asserts that its callback arrived
/// before the lock was let go and before its claim's row; returns the callback's type.
async fn acknowledged_first(h: &Harness, what: &str, send: impl FnOnce() -> u64) -> (u64, u64) {
    let mut held = Held::take(h).await;
    let id = send();
    let (at, kind) = h.fake.callback_arrival(id).await;
    assert!(!held.claimed(id).await, "{what}: claimed under the lock");
    let released = h.fake.request_count();
    held.release().await;
    assert!(
        at < released,
        "{what}: the callback (request {at}) came after the database was let go ({released})"
    );
    (id, kind)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_interaction_is_acknowledged_before_the_database() {
    let h = Harness::start().await;
    let alice = User::new(3201, "Alice");
    let bob = User::new(3202, "Bob");

    // A slash command: deferred, then answered once the store lets go.
    let a = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let (id, kind) = acknowledged_first(&h, "/race join", || {
        h.fake.slash(&alice, CHANNEL, "join", &[])
    })
    .await;
    assert_eq!(kind, 5, "a command is deferred");
    let joined = h.fake.response(id).await;
    assert!(text_of(&joined).contains("You're in race #1"), "{joined}");
    assert!(
        claimed(&h, id).await,
        "the command was claimed after its ack"
    );

    // A select (the pre-race choice on the join's answer).
    let ephemeral = ephemeral_reply(&joined, CHANNEL, 700_000_000_000_000_001);
    let (id, kind) = acknowledged_first(&h, "a select", || {
        h.fake.select(&alice, &ephemeral, "pf:choice:1", "max 12")
    })
    .await;
    assert_eq!(kind, 6, "a component is a deferred update");
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("`max 12` is your choice"), "{a}");
    assert!(claimed(&h, id).await);

    // A button (the lobby's Join).
    h.settle().await;
    let lobby = h
        .fake
        .messages()
        .into_iter()
        .rev()
        .find(|m| custom_ids(m).iter().any(|c| c == "pf:join:1"))
        .expect("the lobby post");
    let (id, kind) =
        acknowledged_first(&h, "a button", || h.fake.click(&bob, &lobby, "pf:join:1")).await;
    assert_eq!(kind, 6, "a component is a deferred update");
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("race #1"), "{a}");
    assert!(claimed(&h, id).await);

    // An autocomplete answers (from a read) under the lock, and claims nothing.
    let (id, kind) = acknowledged_first(&h, "an autocomplete", || {
        h.fake
            .autocomplete(&alice, CHANNEL, "settings", "change", "tu", &[])
    })
    .await;
    assert_eq!(kind, 8);
    h.settle().await;
    assert!(!claimed(&h, id).await, "an autocomplete writes nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_order_modal_and_its_submit_come_before_the_database() {
    let h = Harness::start().await;
    let alice = User::new(3211, "Alice");
    let bob = User::new(3212, "Bob");
    h.open_lobby("1500m", "turn=1h reminders=none", &alice, &[&bob], 2)
        .await;
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    let prompt = h
        .fake
        .wait_dm_matching(alice.id, "Alice's first prompt", |m| step_of(m).is_some())
        .await;
    h.settle().await;

    // "Other order…": the modal itself is the first answer, with a legal order filled in.
    let other = button(&prompt, "Other order…");
    let (id, kind) = acknowledged_first(&h, "the Other order button", || {
        h.fake.click(&alice, &prompt, &other)
    })
    .await;
    assert_eq!(kind, 9, "the modal is the first answer");
    let answer: Value = h.fake.response(id).await;
    let inputs = FakeDiscord::check_modal(&answer).unwrap_or_else(|e| panic!("{e}: {answer}"));
    let (input, prefilled) = inputs[0].clone();
    assert!(!prefilled.is_empty(), "a legal order filled in: {answer}");
    let modal_id = answer["data"]["custom_id"].as_str().unwrap().to_string();
    h.settle().await;
    assert!(!claimed(&h, id).await, "opening a modal writes nothing");

    // Its submit: a deferred update first, the receipt once the store lets go.
    let (id, kind) = acknowledged_first(&h, "a modal submit", || {
        h.fake
            .modal_submit(&alice, &prompt, &modal_id, &[(&input, &prefilled)])
    })
    .await;
    assert_eq!(kind, 6);
    let taken = h.fake.response(id).await;
    assert!(text_of(&taken).contains("Order received"), "{taken}");
    assert!(claimed(&h, id).await);
}
