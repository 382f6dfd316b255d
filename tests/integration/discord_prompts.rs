//! DM prompts as Discord users expect them, through the fake Discord: an
//! "Other order…" button that opens a modal whose text is read like a typed order, prompts
//! edited once their step resolves (no live-looking button left), an old button pressed
//! anyway, race threads that auto-archive after a week, and the hosts' context menus on a
//! member ("Kick from race", "Replace seat…").

use crate::support::discord::*;
use photofinish::vocab::{CampaignId, UserId};
use serde_json::{Value, json};

/// The label of the button that opens the modal.
const OTHER: &str = "Other order…";

/// Opens a 1500m race (its round order is free text: the prompt's buttons are a useful
/// subset) for Alice and Bob, with two bots, and returns Alice's first prompt.
async fn fifteen_hundred(h: &Harness, alice: &User, bob: &User) -> Value {
    h.open_lobby("1500m", "turn=1h reminders=none", alice, &[bob], 2)
        .await;
    let a = h.slash(alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    let prompt = h
        .fake
        .wait_dm_matching(alice.id, "Alice's first prompt", |m| step_of(m).is_some())
        .await;
    h.fake
        .wait_dm_matching(bob.id, "Bob's first prompt", |m| step_of(m).is_some())
        .await;
    h.settle().await;
    prompt
}

/// The message with this id as the fake holds it now (edits applied).
fn now_of(h: &Harness, message: &Value) -> Value {
    h.fake
        .messages()
        .into_iter()
        .find(|m| m["id"] == message["id"])
        .unwrap_or_else(|| panic!("message {} is gone", message["id"]))
}

/// The acceptance test: autocomplete for `/race order`, an order by modal, and the
/// prompt edited once its step resolves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_a_modal_order_and_a_closed_prompt() {
    let h = Harness::start().await;
    let alice = User::new(3101, "Alice");
    let bob = User::new(3102, "Bob");
    let prompt = fifteen_hundred(&h, &alice, &bob).await;

    // /race order text: offers Alice's own legal orders.
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "order", "text", "", &[]);
    let offered = h.fake.choices(id).await;
    assert!(!offered.is_empty(), "Alice owes an order: {offered:?}");

    // "Other order…" opens a modal (no defer first: a modal must be the first answer).
    let answer = h.click(&alice, &prompt, &button(&prompt, OTHER)).await;
    let inputs = FakeDiscord::check_modal(&answer).unwrap_or_else(|e| panic!("{e}: {answer}"));
    assert_eq!(inputs.len(), 1, "{answer}");
    let (input, prefilled) = inputs[0].clone();
    assert!(!prefilled.is_empty(), "a legal order filled in: {answer}");
    let modal_id = answer["data"]["custom_id"].as_str().unwrap().to_string();

    // Nonsense is refused in one sentence, only to her, and changes nothing.
    let id = h
        .fake
        .modal_submit(&alice, &prompt, &modal_id, &[(&input, "fly to the moon")]);
    let refused = h.fake.response(id).await;
    assert!(is_ephemeral(&refused), "{refused}");
    let said = refused["data"]["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // Word for word the reason the same text typed with /race order is given.
    let typed = h
        .slash(&alice, "order", &[("text", json!("fly to the moon"))])
        .await;
    assert_eq!(
        typed["data"]["content"].as_str(),
        Some(format!("**{said}**").as_str()),
        "{typed}"
    );
    let open = h
        .referee()
        .open_prompt(CampaignId(1), &UserId::new(alice.id.to_string()))
        .await
        .unwrap();
    assert_eq!(open.current, None, "no order in yet");

    // The order filled in, submitted: a receipt on the prompt, as a button's would be.
    let id = h
        .fake
        .modal_submit(&alice, &prompt, &modal_id, &[(&input, &prefilled)]);
    let taken = h.fake.response(id).await;
    assert!(text_of(&taken).contains("Order received"), "{taken}");

    // Bob's order by text resolves the step; Alice's prompt is edited: no buttons, and
    // it says the step resolved and what she played.
    h.fake.dm(&bob, &offered_default(&h, &bob).await);
    h.fake
        .wait_message("Alice's prompt closed", |m| {
            m["id"] == prompt["id"] && components(m).is_empty()
        })
        .await;
    let closed = now_of(&h, &prompt);
    let t = text_of(&closed);
    assert!(t.contains("resolved"), "{t}");
    assert!(t.contains(&prefilled), "what she played: {t}");
    assert!(step_of(&closed).is_none());
    assert!(h.fake.refusals().is_empty(), "{:?}", h.fake.refusals());
}

/// Bob's first legal order, as text (a choice of his open prompt).
async fn offered_default(h: &Harness, bob: &User) -> String {
    let id = h.fake.autocomplete(bob, CHANNEL, "order", "text", "", &[]);
    h.fake.choices(id).await[0].1.clone()
}

/// A prompt whose step resolved is edited (buttons gone, the orders played named), and
/// a button on it pressed anyway gets one clear sentence, only for the presser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resolved_prompt_is_closed_and_its_old_buttons_say_so() {
    let h = Harness::start().await;
    let alice = User::new(3111, "Alice");
    let bob = User::new(3112, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let prompt = h
        .fake
        .wait_dm_matching(alice.id, "Alice's prompt", |m| step_of(m).is_some())
        .await;
    let old_button = custom_ids(&prompt)
        .into_iter()
        .find(|id| id.starts_with("pf:o:"))
        .unwrap();
    h.fake.dm(&alice, "3");
    h.fake.dm(&bob, "4");
    h.fake
        .wait_message("Alice's prompt closed", |m| {
            m["id"] == prompt["id"] && components(m).is_empty()
        })
        .await;
    let t = text_of(&now_of(&h, &prompt));
    assert!(t.contains("resolved"), "{t}");
    assert!(
        t.contains("`3`") && t.contains("Alice"),
        "her order named: {t}"
    );

    // The old message, as a client that had not refreshed still shows it.
    let a = h.click(&alice, &prompt, &old_button).await;
    assert!(is_ephemeral(&a), "{a}");
    let said = a["data"]["embeds"][0]["description"].as_str().unwrap_or("");
    assert!(said.contains("resolved"), "{said}");
    assert_eq!(said.matches(". ").count(), 0, "one sentence: {said}");
    h.settle().await;
    assert!(h.fake.refusals().is_empty(), "{:?}", h.fake.refusals());
}

/// A cancelled race's open prompts are closed like a resolved step's: their buttons go,
/// and they say the race was cancelled. A prompt closed earlier keeps what it said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_race_closes_its_open_prompts() {
    let h = Harness::start().await;
    let alice = User::new(3131, "Alice");
    let bob = User::new(3132, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let first = h
        .fake
        .wait_dm_matching(alice.id, "Alice's first prompt", |m| step_of(m).is_some())
        .await;
    h.fake.dm(&alice, "3");
    h.fake.dm(&bob, "4");
    h.fake
        .wait_message("turn 1's prompt closed", |m| {
            m["id"] == first["id"] && components(m).is_empty()
        })
        .await;
    let second = h
        .fake
        .wait_dm_matching(bob.id, "Bob's second prompt", |m| step_of(m) == Some(1))
        .await;
    let a = h.slash(&alice, "cancel", &[]).await;
    assert!(text_of(&a).contains("cancelled"), "{a}");
    h.fake
        .wait_message("Bob's open prompt closed", |m| {
            m["id"] == second["id"] && components(m).is_empty()
        })
        .await;
    let t = text_of(&now_of(&h, &second));
    assert!(t.contains("cancelled"), "{t}");
    assert!(step_of(&now_of(&h, &second)).is_none());
    // Turn 1's prompt still says what was played, not that the race was cancelled.
    let t = text_of(&now_of(&h, &first));
    assert!(t.contains("resolved") && !t.contains("cancelled"), "{t}");
    h.settle().await;
    assert!(h.fake.refusals().is_empty(), "{:?}", h.fake.refusals());
}

/// A Dream Mile prompt lists every legal speed: no "Other order…" button there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_complete_prompt_has_no_modal_button() {
    let h = Harness::start().await;
    let alice = User::new(3121, "Alice");
    let bob = User::new(3122, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let prompt = h
        .fake
        .wait_dm_matching(alice.id, "Alice's prompt", |m| step_of(m).is_some())
        .await;
    assert!(!labels(&prompt).iter().any(|l| l == OTHER), "{prompt}");
}

/// A race thread is made to auto-archive after a week (10080 minutes, which every server
/// may use since 2022), not the default day.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_threads_auto_archive_after_a_week() {
    let h = Harness::start().await;
    let alice = User::new(3131, "Alice");
    let a = h
        .slash(
            &alice,
            "new",
            &[("game", json!("dream-mile")), ("thread", json!(true))],
        )
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let made = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "POST" && r.path.ends_with("/threads"))
        .expect("a thread was made");
    assert_eq!(made.body["auto_archive_duration"], 10080, "{:?}", made.body);
}

/// A host right-clicks a member: "Kick from race" removes them (as `/race kick`), and
/// "Replace seat…" lists the seats, one of which is then offered to the member (as
/// `/race replace`). Anyone else is refused in one sentence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_kick_and_replace_from_a_members_menu() {
    let h = Harness::start().await;
    let alice = User::new(3141, "Alice");
    let bob = User::new(3142, "Bob");
    let carol = User::new(3143, "Carol");
    let dan = User::new(3144, "Dan");
    h.open_lobby(
        "dream-mile",
        "turn=1h reminders=none",
        &alice,
        &[&bob, &carol],
        0,
    )
    .await;

    // Not the host: refused, nothing changes.
    let id = h.fake.user_command(&bob, CHANNEL, "Kick from race", &carol);
    let a = h.fake.response(id).await;
    assert!(is_ephemeral(&a), "{a}");
    assert!(text_of(&a).contains("Not done"), "{a}");

    let id = h
        .fake
        .user_command(&alice, CHANNEL, "Kick from race", &carol);
    let a = h.fake.response(id).await;
    assert!(is_ephemeral(&a), "{a}");
    assert!(text_of(&a).contains("Carol is out of the race"), "{a}");

    // Replace seat…: a menu of the seats; picking Bob's offers it to Dan.
    h.clock.advance_secs(10);
    let id = h.fake.user_command(&alice, CHANNEL, "Replace seat…", &dan);
    let a = h.fake.response(id).await;
    assert!(is_ephemeral(&a), "{a}");
    let menu = components(&a)
        .into_iter()
        .find(|c| c["type"] == 3)
        .unwrap_or_else(|| panic!("a menu of seats: {a}"));
    let option = menu["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["label"] == "Bob")
        .unwrap_or_else(|| panic!("Bob's seat: {menu}"))
        .clone();
    let original = h
        .fake
        .wait_message("the menu", |m| {
            m["components"].is_array() && text_of(m).contains("Replace")
        })
        .await;
    let id = h.fake.select(
        &alice,
        &original,
        menu["custom_id"].as_str().unwrap(),
        option["value"].as_str().unwrap(),
    );
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("offered to <@3144>"), "{a}");
    h.fake
        .wait_message("the offer to Dan", |m| {
            m["content"].as_str() == Some("<@3144>") && text_of(m).contains("Bob")
        })
        .await;
    assert!(h.fake.refusals().is_empty(), "{:?}", h.fake.refusals());
}
