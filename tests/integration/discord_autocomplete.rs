//! Autocomplete through the fake Discord (issue 20): each kind answers with the choices
//! it should, within Discord's limits (25 choices, names of 100 characters), and nothing
//! of one seat's hand reaches another member.

use crate::support::discord::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn order_offers_only_the_callers_own_legal_orders() {
    let h = Harness::start().await;
    let alice = User::new(501, "Alice");
    let bob = User::new(502, "Bob");
    let carol = User::new(503, "Carol");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;

    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "order", "text", "", &[]);
    let offered = h.fake.choices(id).await;
    assert!(!offered.is_empty(), "Alice owes an order: {offered:?}");

    // A member with no seat in the race is offered nothing at all.
    let id = h
        .fake
        .autocomplete(&carol, CHANNEL, "order", "text", "", &[]);
    assert_eq!(h.fake.choices(id).await, vec![]);

    // The shown name, typed back as text, is taken as its order.
    let (name, _) = offered[0].clone();
    let a = h.slash(&alice, "order", &[("text", json!(name))]).await;
    assert!(text_of(&a).contains("Order received"), "{a}");

    // A partial filters.
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "order", "text", "zzzz-nothing", &[]);
    assert_eq!(h.fake.choices(id).await, vec![]);
}
