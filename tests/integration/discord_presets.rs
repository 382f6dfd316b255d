//! End to end on the fake Discord: `/race new length:` picks a game's length
//! preset and the lobby shows its expected duration for the seats taken (docs/pace.md);
//! Dream Mile's maximum speed is picked from a menu after Join and shown in the lobby;
//! standing plays are set and shown by plain DM text, and DM `help` lists every rule.

use serde_json::{Value, json};

use crate::support::discord::*;

/// The channel's lobby message once it says `want`.
async fn lobby_saying(h: &Harness, want: &str) -> Value {
    h.settle().await;
    h.fake
        .wait_message(&format!("a lobby saying {want}"), |m| {
            in_channel(m)
                && custom_ids(m).contains(&"pf:join:1".to_string())
                && text_of(m).contains(want)
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_length_preset_sets_the_options_and_the_lobby_shows_its_expected_duration() {
    let h = Harness::start().await;
    let alice = User::new(801, "Alice");

    // A length the game lacks: one sentence naming its lengths, and no race.
    let a = h
        .slash(
            &alice,
            "new",
            &[("game", json!("dream-mile")), ("length", json!("round"))],
        )
        .await;
    assert!(
        text_of(&a)
            .contains("Dream Mile has no length `round`; its lengths are `race` (the race)."),
        "{a}"
    );

    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("magical-athlete")),
                ("length", json!("race")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    assert!(text_of(&a).contains("One race: about 6.3 days"), "{a}");
    // The preset is the game's own option.
    let a = h.slash(&alice, "settings", &[]).await;
    assert!(text_of(&a).contains("races=1"), "{a}");
    let lobby = lobby_saying(&h, "Expected duration").await;
    assert!(
        text_of(&lobby).contains("One race: about 6.3 days"),
        "{lobby}"
    );

    // Four seats: the 4-seat figure.
    let a = h.slash(&alice, "join", &[]).await;
    assert!(text_of(&a).contains("You're in race #1"), "{a}");
    let a = h.slash(&alice, "bots", &[("count", json!(3))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let lobby = lobby_saying(&h, "about 2.4 days").await;
    assert!(text_of(&lobby).contains("One race: about 2.4 days, 3.4 days in 9 games out of 10"));
    assert_discord_was_happy(&h);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dream_miles_max_speed_is_picked_after_join_and_shown_in_the_lobby() {
    let h = Harness::start().await;
    let alice = User::new(811, "Alice");
    let bob = User::new(812, "Bob");
    let a = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    let joined = h.slash(&alice, "join", &[]).await;
    assert!(text_of(&joined).contains("You're in race #1"), "{joined}");
    assert!(
        custom_ids(&joined).contains(&"pf:choice:1".to_string()),
        "{joined}"
    );
    let shown = serde_json::to_string(&joined).unwrap();
    for want in [
        "Max speed 10: 45 starting points",
        "Max speed 15: 30 starting points",
    ] {
        assert!(shown.contains(want), "{want} in {joined}");
    }
    // The pick comes from the ephemeral answer itself, as Discord sends it: the answer as a
    // whole message object with flag 64 (EPHEMERAL) and type 20 (a command's reply).
    let ephemeral = ephemeral_reply(&joined, CHANNEL, 700_000_000_000_000_001);
    let id = h.fake.select(&alice, &ephemeral, "pf:choice:1", "max 12");
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("`max 12` is your choice"), "{a}");
    let lobby = lobby_saying(&h, "[max 12]").await;
    assert!(text_of(&lobby).contains("Alice [max 12]"), "{lobby}");
    let joined = lobby_saying(&h, "Alice").await;

    // Someone without a seat cannot pick; a speed out of range is one sentence.
    let id = h.fake.select(&bob, &joined, "pf:choice:1", "max 12");
    let a = h.fake.response(id).await;
    assert!(
        text_of(&a).contains("You don't have a seat in this race."),
        "{a}"
    );
    let id = h.fake.select(&alice, &joined, "pf:choice:1", "max 16");
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("from 10 to 15, not 16"), "{a}");

    // The race runs with the choice: 39 points at max 12.
    let a = h.slash(&bob, "join", &[]).await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    let prompt = h
        .fake
        .wait_dm_matching(alice.id, "Alice's first prompt", |m| step_of(m) == Some(0))
        .await;
    assert!(text_of(&prompt).contains("39"), "{prompt}");
    // Too late to change it.
    let id = h.fake.select(&alice, &joined, "pf:choice:1", "max 10");
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("already started"), "{a}");
    assert_discord_was_happy(&h);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standing_plays_are_set_and_shown_by_dm_text_and_help_lists_every_rule() {
    let h = Harness::start().await;
    let alice = User::new(821, "Alice");
    let bob = User::new(822, "Bob");
    h.open_race("mille-bornes", "", &alice, &[&bob]).await;

    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "standing remedy, largest");
    let a = dm_after(&h, &alice, n, |m| text_of(m).contains("preferences")).await;
    let t = text_of(&a);
    let (remedy, distance) = (t.find("`remedy`").unwrap(), t.find("`distance`").unwrap());
    assert!(remedy < distance, "{t}");
    assert!(
        t.contains("`distance`: play the largest distance that fits"),
        "{t}"
    );
    assert!(!t.contains("`attack`"), "{t}");

    // Shown back as set.
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "standing");
    let a = dm_after(&h, &alice, n, |m| text_of(m).contains("preferences")).await;
    assert!(text_of(&a).contains("`standing remedy, distance`"), "{a}");

    // The same forms `/race preference` takes, after `pref`; and a bad one is one sentence.
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "pref dirty-trick ask");
    let a = dm_after(&h, &alice, n, |m| text_of(m).contains("preferences")).await;
    assert!(text_of(&a).to_lowercase().contains("ask"), "{a}");
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "standing fly");
    let a = dm_after(&h, &alice, n, |m| {
        text_of(m).contains("not a standing play")
    })
    .await;
    assert!(text_of(&a).contains("`fly` is not a standing play"), "{a}");

    // Help lists every rule.
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "help");
    let a = dm_after(&h, &alice, n, |m| text_of(m).contains("help")).await;
    let t = text_of(&a);
    for rule in [
        "`finish`",
        "`remedy`",
        "`attack`",
        "`distance`",
        "`safety`",
        "`keep-safety`",
        "`junk`",
    ] {
        assert!(t.contains(rule), "{rule} in {t}");
    }
    assert_discord_was_happy(&h);
}
