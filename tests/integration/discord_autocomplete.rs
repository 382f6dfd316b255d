//! Autocomplete through the fake Discord: each kind answers with the choices
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_turns_and_settings_are_offered() {
    let h = Harness::start().await;
    let alice = User::new(511, "Alice");
    let bob = User::new(512, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;

    // /race replace seat: the runners by name.
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "replace", "seat", "bo", &[]);
    assert_eq!(
        h.fake.choices(id).await,
        vec![("Bob".to_string(), "Bob".to_string())]
    );

    // /race settings change: the game's option keys, with their help, after what is typed.
    let id = h.fake.autocomplete(
        &alice,
        CHANNEL,
        "settings",
        "change",
        "reminders=none tu",
        &[],
    );
    let offered = h.fake.choices(id).await;
    assert!(!offered.is_empty(), "{offered:?}");
    assert!(
        offered
            .iter()
            .all(|(n, v)| n.starts_with("turn") && v.starts_with("reminders=none turn")),
        "{offered:?}"
    );

    // /race history turn: nothing before a turn is played, then turn 1 with its label.
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "history", "turn", "", &[]);
    assert_eq!(h.fake.choices(id).await, vec![]);
    for u in [&alice, &bob] {
        let a = h.slash(u, "order", &[("text", json!("2"))]).await;
        assert!(text_of(&a).contains("Order received"), "{a}");
    }
    h.settle().await;
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "history", "turn", "", &[]);
    let offered = h.fake.choices(id).await;
    assert_eq!(offered.len(), 1, "{offered:?}");
    assert_eq!(offered[0].1, "1");
    assert!(offered[0].0.starts_with("1: Turn 1"), "{offered:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_choices_are_what_the_game_accepts() {
    let h = Harness::start().await;
    let alice = User::new(521, "Alice");
    let a = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    // Dream Mile's pre-race choice is a maximum speed of 10 to 15.
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "join", "choice", "", &[]);
    let values: Vec<String> = h.fake.choices(id).await.into_iter().map(|c| c.1).collect();
    assert_eq!(values, ["10", "11", "12", "13", "14", "15"]);
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "join", "choice", "2", &[]);
    let values: Vec<String> = h.fake.choices(id).await.into_iter().map(|c| c.1).collect();
    assert_eq!(values, ["12"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preference_offers_the_games_forms() {
    let h = Harness::start().await;
    let alice = User::new(531, "Alice");
    let bob = User::new(532, "Bob");
    h.open_race("mille-bornes", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    let id = h
        .fake
        .autocomplete(&alice, CHANNEL, "preference", "text", "", &[]);
    let values: Vec<String> = h.fake.choices(id).await.into_iter().map(|c| c.1).collect();
    assert!(values.iter().any(|v| v == "dirty-trick ask"), "{values:?}");
    assert!(
        values.iter().any(|v| v.starts_with("standing ")),
        "{values:?}"
    );
    // Every offered form is taken.
    let mut refused = Vec::new();
    for v in &values {
        // Past the per-user pace of commands.
        h.clock.advance_secs(10);
        let a = h.slash(&alice, "preference", &[("text", json!(v))]).await;
        if !text_of(&a).contains("Preference set") {
            refused.push((v.clone(), text_of(&a)));
        }
    }
    assert!(refused.is_empty(), "{refused:?}");
}

/// The closed sets are registered as Discord choices, not free text; the options with a
/// finite but changing answer as autocomplete.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_sets_are_choices_and_the_rest_autocomplete() {
    let h = Harness::start().await;
    let put = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .expect("the commands are registered");
    let race = put
        .body
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == "race"));
    let race = race.expect("/race is registered");
    let option = |sub: &str, name: &str| -> serde_json::Value {
        let subs = race["options"].as_array().cloned().unwrap_or_default();
        let s = subs.iter().find(|s| s["name"] == sub).cloned();
        let s = s.unwrap_or_else(|| panic!("/race {sub}"));
        let opts = s["options"].as_array().cloned().unwrap_or_default();
        let o = opts.iter().find(|o| o["name"] == name).cloned();
        o.unwrap_or_else(|| panic!("/race {sub} {name}"))
    };
    let game = option("new", "game");
    assert_eq!(game["type"], 3, "{game}");
    assert!(game["autocomplete"] != true, "{game}");
    let values: Vec<&str> = game["choices"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["value"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        values.contains(&"dream-mile") && values.contains(&"1500m"),
        "{game}"
    );
    let level = option("bots", "level");
    let values: Vec<&str> = level["choices"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["value"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(values, ["heuristic", "random"], "{level}");
    for (sub, name) in [
        ("order", "text"),
        ("replace", "seat"),
        ("history", "turn"),
        ("settings", "change"),
        ("join", "choice"),
        ("preference", "text"),
        ("history", "race"),
        ("verify", "race"),
        ("export", "race"),
        ("archive", "before"),
    ] {
        assert_eq!(
            option(sub, name)["autocomplete"],
            true,
            "/race {sub} {name}"
        );
    }
}

/// A channel of another server, and that server.
const OTHER_CHANNEL: u64 = 600_000_000_000_000_077;
const OTHER_GUILD: u64 = 800_000_000_000_000_077;

/// The values offered for `/race <sub> <option>:` with `partial` typed, from `channel`.
async fn offered(
    h: &Harness,
    channel: u64,
    sub: &str,
    option: &str,
    partial: &str,
) -> Vec<(String, String)> {
    let alice = User::new(541, "Alice");
    let id = h
        .fake
        .autocomplete(&alice, channel, sub, option, partial, &[]);
    h.fake.choices(id).await
}

/// Race #1 (Dream Mile, cancelled) and #2 (1500m, in its lobby) in CHANNEL; race #3
/// (Mille Bornes, in its lobby) in another server.
async fn three_races(h: &Harness) {
    let alice = User::new(541, "Alice");
    let a = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    let a = h.slash(&alice, "cancel", &[]).await;
    assert!(text_of(&a).contains("cancelled"), "{a}");
    let a = h.slash(&alice, "new", &[("game", json!("1500m"))]).await;
    assert!(text_of(&a).contains("race #2 is open"), "{a}");
    h.fake.guild_for(OTHER_CHANNEL, OTHER_GUILD);
    let id = h.fake.slash(
        &alice,
        OTHER_CHANNEL,
        "new",
        &[("game", json!("mille-bornes"))],
    );
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("race #3 is open"), "{a}");
    h.settle().await;
}

/// `race:` (and `/race archive before:`) offers this server's races, newest first, each
/// with its game, date and result; what is typed filters by number or by label.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn race_numbers_are_offered_with_labels() {
    let h = Harness::start().await;
    three_races(&h).await;
    let all = offered(&h, CHANNEL, "history", "race", "").await;
    let values: Vec<&str> = all.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(values, ["2", "1"], "{all:?}");
    // The date is the race's end (or start), by the test clock, in UTC.
    let today = chrono::DateTime::from_timestamp_millis(h.clock.now_ms())
        .unwrap()
        .format("%Y-%m-%d")
        .to_string();
    assert_eq!(all[0].0, format!("#2 · 1500m · {today} · in its lobby"));
    assert_eq!(all[1].0, format!("#1 · Dream Mile · {today} · cancelled"));
    assert!(all.iter().all(|c| c.0.chars().count() <= 100), "{all:?}");
    for (sub, option) in [
        ("verify", "race"),
        ("export", "race"),
        ("archive", "before"),
    ] {
        assert_eq!(
            offered(&h, CHANNEL, sub, option, "").await,
            all,
            "/race {sub} {option}:"
        );
    }
    // A number typed is a prefix of the race's number; words are looked for in the label.
    let one = offered(&h, CHANNEL, "export", "race", "1").await;
    assert_eq!(one, vec![all[1].clone()]);
    let one = offered(&h, CHANNEL, "export", "race", "#1").await;
    assert_eq!(one, vec![all[1].clone()]);
    let one = offered(&h, CHANNEL, "verify", "race", "dream").await;
    assert_eq!(one, vec![all[1].clone()]);
    assert_eq!(offered(&h, CHANNEL, "verify", "race", "9").await, vec![]);
    assert_discord_was_happy(&h);
}

/// Another server's race is never offered, even typed by its number; that server is
/// offered its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_servers_race_is_not_offered() {
    let h = Harness::start().await;
    three_races(&h).await;
    let here = offered(&h, CHANNEL, "history", "race", "").await;
    assert!(here.iter().all(|c| c.1 != "3"), "{here:?}");
    assert_eq!(offered(&h, CHANNEL, "history", "race", "3").await, vec![]);
    assert_eq!(
        offered(&h, CHANNEL, "export", "race", "mille").await,
        vec![]
    );
    let there = offered(&h, OTHER_CHANNEL, "history", "race", "").await;
    let values: Vec<&str> = there.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(values, ["3"], "{there:?}");
    assert!(there[0].0.starts_with("#3 · 1000 miles · "), "{there:?}");
    assert_discord_was_happy(&h);
}

/// Typing is free: with the shipped limits on, an autocomplete per keystroke of a
/// 20-character value (one key per 100 ms on the test clock) is answered every time, and
/// the command run right after is not refused for going too fast.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_spends_no_allowance() {
    let limits = photofinish::referee::Limits::default();
    assert!(limits.commands_burst > 0, "the shipped pace is on");
    let h = Harness::start_with_limits(Some(limits)).await;
    let alice = User::new(541, "Alice");
    let bob = User::new(542, "Bob");
    h.open_race("dream-mile", "turn=1h reminders=none", &alice, &[&bob])
        .await;
    // Past the commands that opened the race.
    h.clock.advance_secs(120);

    let typed = "reminders=none turn=";
    assert_eq!(typed.chars().count(), 20);
    let mut offered = Vec::new();
    for n in 1..=typed.len() {
        let id = h
            .fake
            .autocomplete(&alice, CHANNEL, "settings", "change", &typed[..n], &[]);
        // One keystroke at a time, each answered before the next.
        offered.push(h.fake.choices(id).await);
        assert_eq!(h.fake.callbacks(id), 1, "keystroke {n} answered once");
        h.clock.advance_ms(100);
    }
    // The answers are the race's real choices, read for each keystroke.
    let at_tu = &offered[16];
    assert!(
        at_tu
            .iter()
            .any(|(_, v)| v.starts_with("reminders=none turn")),
        "{at_tu:?}"
    );

    let a = h.slash(&alice, "help", &[]).await;
    let text = text_of(&a);
    assert!(!text.contains("faster"), "refused after typing: {text}");
    assert!(text.contains("/race"), "{text}");
}
