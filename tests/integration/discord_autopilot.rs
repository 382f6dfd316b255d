//! End to end on the fake Discord: `/race autopilot` shows and sets a seat's setting, the
//! DM prompt's **Let the bot play for me** button sets `bot` (and the bot plays the open
//! step at once, told in the DM), and `/race away` / `/race back` answer and tell the
//! channel once.

use crate::support::discord::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autopilot_by_command_and_button_and_absence() {
    let h = Harness::start().await;
    let alice = User::new(701, "Alice");
    let bob = User::new(702, "Bob");
    h.open_race("dream-mile", "", &alice, &[&bob]).await;

    // Shown, then refused in one sentence when it makes no sense.
    let a = h.slash(&alice, "autopilot", &[]).await;
    assert!(text_of(&a).contains("Autopilot `auto`"), "{a}");
    let a = h
        .slash(&alice, "autopilot", &[("setting", json!("sometimes"))])
        .await;
    assert!(
        text_of(&a).contains("is `ask`, `auto` or `bot`, not `sometimes`"),
        "{a}"
    );
    let a = h
        .slash(&bob, "autopilot", &[("setting", json!("ask"))])
        .await;
    assert!(text_of(&a).contains("Autopilot `ask`"), "{a}");

    // The prompt carries the button; pressing it lets the bot play the open step at once.
    let prompt = prompt_for(&h, &alice, 0).await;
    let id = button(&prompt, "Let the bot play for me");
    assert!(id.starts_with("pf:ap:") && id.ends_with(":bot"), "{id}");
    let seen = h.fake.dms_to(alice.id).len();
    let a = h.click(&alice, &prompt, &id).await;
    assert!(text_of(&a).contains("Autopilot `bot`"), "{a}");
    h.settle().await;
    let told = dm_after(&h, &alice, seen, |m| {
        text_of(m).contains("Played for you (Turn 1 of 8)")
    })
    .await;
    assert!(text_of(&told).contains("your autopilot is"), "{told}");

    // Alice is asked again, so the race waits for her after Bob's absence plays for him.
    let a = h
        .slash(&alice, "autopilot", &[("setting", json!("ask"))])
        .await;
    assert!(text_of(&a).contains("Autopilot `ask`"), "{a}");
    // Away and back: answered, and the channel told once each.
    let a = h.slash(&bob, "away", &[("days", json!(3))]).await;
    assert!(text_of(&a).contains("You are away until"), "{a}");
    h.settle().await;
    let a = h
        .slash(&bob, "away", &[("until", json!("not a date"))])
        .await;
    assert!(!text_of(&a).contains("You are away"), "{a}");
    let a = h.slash(&bob, "away", &[("back", json!(true))]).await;
    assert!(text_of(&a).contains("the next step asks you again"), "{a}");
    h.settle().await;
    let texts = channel_texts(&h);
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.contains("Bob is away until") && t.contains("on autopilot"))
            .count(),
        1,
        "{texts:#?}"
    );
    assert_eq!(
        texts.iter().filter(|t| t.contains("Bob is back")).count(),
        1
    );
    // Bob's turn 1 was played for him at once when he went away: nothing was missed.
    assert!(
        !texts.iter().any(|t| t.contains("Missed orders")),
        "{texts:#?}"
    );
    assert_discord_was_happy(&h);
}
