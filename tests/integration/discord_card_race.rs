//! End to end: a 4-player team game of 1000 miles on the fake Discord, two humans (one
//! per team) and two bots, played to the end through the real serenity/poise client. It
//! holds a dirty trick played `auto` (the instant the attack lands, nothing asked), one
//! played `ask` (a DM with a button in the middle of another seat's turn), and a missed
//! turn played for the player at the deadline. Every assertion is on what the bot sent.

use std::collections::BTreeMap;

use crate::support::discord::*;
use photofinish::engine::{Seat, Seed};
use photofinish::games::GameKind;
use serde_json::{Value, json};

const GAME_OPTIONS: &str = "rounds=1 counter-timeout=60";
const TURN_SECS: i64 = 3600;
/// Alice lets this turn of hers (counted from 1) pass.
const ALICE_MISSES: usize = 3;

/// Alice and Bob decide as a careful player would: the bot's sound play (by button, and
/// every third turn by text), Bob answers an attack with his dirty trick when he holds it,
/// and Alice lets one turn pass.
fn human()
-> impl FnMut(&mut photofinish::games::AnyGame, u32, Seat, &photofinish::engine::Prompt) -> Decision
{
    let (mut alice_turns, mut human_turns) = (0usize, 0usize);
    move |game, _step, seat, prompt| {
        let has = |o: &str| prompt.choices.iter().any(|c| c.order == o);
        if has("decline") {
            // An attack on Bob's team, and Bob plays dirty tricks by hand.
            return Decision::button(if has("counter") { "counter" } else { "decline" });
        }
        if prompt.text.contains("may still answer") {
            // Another seat may still answer: leave the window to them.
            return Decision::ignore();
        }
        let order = game.format_order(seat, &game.default_order(seat));
        human_turns += 1;
        if seat == Seat(0) {
            alice_turns += 1;
            if alice_turns == ALICE_MISSES {
                return Decision::timeout();
            }
        }
        if human_turns.is_multiple_of(3) {
            Decision::text(order)
        } else {
            Decision::button(order)
        }
    }
}

const NAMES: [&str; 4] = ["Alice", "Bob", "Bot 1", "Bot 2"];

fn plan_for(seed: &Seed) -> Option<Plan> {
    plan(
        GameKind::MilleBornes,
        GAME_OPTIONS,
        &NAMES,
        &[Seat(0), Seat(1)],
        &[(Seat(1), "dirty-trick ask")],
        seed,
        TURN_SECS,
        3000,
        human(),
    )
}

/// The first seed whose game holds both dirty tricks (Alice's auto, Bob's ask).
fn find_seed() -> (Seed, Plan) {
    for k in 0..2000u64 {
        let seed = Seed::from_u64(k);
        let Some(p) = plan_for(&seed) else { continue };
        let tricks = p.events_of("dirty-trick");
        let by = |s: u64| {
            tricks
                .iter()
                .any(|(_, e)| e["seat"] == s && e["missed"] == false)
        };
        let bob_asked = p
            .moves
            .iter()
            .any(|m| m.seat == Seat(1) && m.how == How::Button("counter".into()));
        if by(0) && by(1) && bob_asked {
            return (seed, p);
        }
    }
    panic!("no seed in 2000 gives both dirty tricks");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_game_of_1000_miles_with_dirty_tricks_and_a_missed_turn() {
    let (seed, plan) = find_seed();
    let h = Harness::start().await;
    let alice = User::new(301, "Alice");
    let bob = User::new(302, "Bob");
    open_with_a_preference(&h, &alice, &bob, &seed).await;

    // The whole game, as planned: every prompt shows the seat's own hand and a component
    // for each legal play.
    let users = BTreeMap::from([(Seat(0), alice.clone()), (Seat(1), bob.clone())]);
    let played = follow(&h, &plan, &users).await;
    let result = final_result(&h).await;
    h.settle().await;

    let posts = the_result_is_the_engines(&h, &plan, &result);
    // The plays by text and by button were both used, and each got a receipt.
    assert!(played.iter().any(|p| matches!(p.mv.how, How::Text(_))));
    assert!(played.iter().any(|p| matches!(p.mv.how, How::Button(_))));
    // A hand of several different cards is more groups than Discord has rows: every
    // prompt still carried every legal play (checked by `follow`); some used menus.
    assert!(
        played
            .iter()
            .any(|p| components(&p.prompt).iter().any(|c| c["type"] == 3)),
        "plays are offered in menus"
    );

    dirty_tricks_auto_and_ask(&h, &plan, &played, &posts, &alice);
    the_missed_turn(&h, &played, &posts, &alice);
    nobody_sees_another_hand(&h, &alice, &bob);
    dump_posts(&h, &users.values().collect::<Vec<_>>());
    assert_discord_was_happy(&h);
}

/// The lobby: two humans, two bots; Bob sets `dirty-trick ask` before the start, on the
/// chosen seed.
async fn open_with_a_preference(h: &Harness, alice: &User, bob: &User, seed: &Seed) {
    let a = h
        .slash(
            alice,
            "new",
            &[
                ("game", json!("mille-bornes")),
                (
                    "options",
                    json!(format!("{GAME_OPTIONS} turn=1h reminders=30m")),
                ),
            ],
        )
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    for u in [alice, bob] {
        let a = h.slash(u, "join", &[]).await;
        assert!(text_of(&a).contains("You're in race #1"), "{a}");
    }
    let a = h.slash(alice, "bots", &[("count", json!(2))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = h
        .slash(bob, "preference", &[("text", json!("dirty-trick ask"))])
        .await;
    assert!(is_ephemeral(&a));
    assert!(text_of(&a).contains("dirty-trick ask"), "{a}");
    // The plan prompts every human step, forced ones too: both play on `ask`.
    for u in [alice, bob] {
        let a = h.slash(u, "autopilot", &[("setting", json!("ask"))]).await;
        assert!(text_of(&a).contains("Autopilot `ask`"), "{a}");
    }
    fix_seed(h, 1, seed).await;
    let a = h.slash(alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    h.fake
        .wait_message("the start post", |m| {
            in_channel(m) && text_of(m).contains("is off!")
        })
        .await;
}

/// The result is the engine's: the winning team and its points. Returns the channel's
/// posts.
fn the_result_is_the_engines(h: &Harness, plan: &Plan, result: &Value) -> Vec<String> {
    let ended = plan.events_of("game-ended");
    let (_, ended) = ended.first().expect("the plan ends the game");
    let totals: Vec<i64> = ended["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let best = totals.iter().max().unwrap();
    let posts = channel_texts(h);
    assert!(
        posts
            .iter()
            .any(|t| t.contains(&format!("with {best} points"))),
        "the final narration gives {best} points: {posts:#?}"
    );
    assert!(text_of(result).contains("Result:"), "{result}");
    posts
}

/// Auto: Alice's dirty trick was played the instant the attack landed, in a step she was
/// not even asked about. Ask: Bob got a DM with a button while another seat's play was
/// on, and pressed it.
fn dirty_tricks_auto_and_ask(
    h: &Harness,
    plan: &Plan,
    played: &[Played],
    posts: &[String],
    alice: &User,
) {
    let tricks = plan.events_of("dirty-trick");
    let (alice_step, alice_trick) = tricks
        .iter()
        .find(|(_, e)| e["seat"] == 0)
        .cloned()
        .unwrap();
    assert!(
        posts
            .iter()
            .any(|t| t.contains("Dirty trick! Alice answers")),
        "{posts:#?}"
    );
    assert!(
        h.fake
            .dms_to(alice.id)
            .iter()
            .all(|m| step_of(m) != Some(alice_step)),
        "Alice was not asked at step {alice_step}: {alice_trick}"
    );

    // Ask: Bob got a DM with a button while another seat's play was on, and pressed it.
    let bob_counter = played
        .iter()
        .find(|p| p.mv.seat == Seat(1) && p.mv.how == How::Button("counter".into()))
        .unwrap();
    let t = text_of(&bob_counter.prompt);
    assert!(t.contains("Answer with a dirty trick?"), "{t}");
    assert!(t.contains("may answer the"), "the step is the window: {t}");
    assert!(
        labels(&bob_counter.prompt).contains(&"dirty trick!".to_string()),
        "{:?}",
        labels(&bob_counter.prompt)
    );
    let (_, menu) = component_for(&bob_counter.prompt, "counter", None).unwrap();
    assert_eq!(menu, None, "the dirty trick is a button, not a menu option");
    assert!(
        posts.iter().any(|t| t.contains("Dirty trick! Bob answers")),
        "{posts:#?}"
    );
    let window_opened = plan
        .events_of("window-opened")
        .into_iter()
        .any(|(s, _)| s + 1 == bob_counter.mv.step);
    assert!(window_opened, "the window opened as another seat attacked");
}

/// The missed turn: played by the bot for Alice and announced, after a reminder.
fn the_missed_turn(h: &Harness, played: &[Played], posts: &[String], alice: &User) {
    let missed = played
        .iter()
        .find(|p| p.mv.how == How::Timeout)
        .expect("Alice misses a turn");
    assert_eq!(missed.mv.seat, Seat(0));
    assert!(
        posts
            .iter()
            .any(|t| t.contains("Missed orders: Alice: ") && t.contains("(played for them)")),
        "{posts:#?}"
    );
    let reminded = h
        .fake
        .dms_to(alice.id)
        .iter()
        .any(|m| text_of(m).contains("Reminder"));
    assert!(reminded, "Alice was reminded before her deadline");
}

/// Nobody sees another seat's hand: the channel never shows a hand, and each DM shows
/// only its reader's.
fn nobody_sees_another_hand(h: &Harness, alice: &User, bob: &User) {
    for m in h.fake.messages() {
        let t = text_of(&m);
        if in_channel(&m) {
            assert!(!t.contains("your hand"), "a hand in the channel: {t}");
            continue;
        }
        for (user, name) in [(alice, "Alice"), (bob, "Bob")] {
            if h.fake.dm_channel(user.id).map(|c| c.to_string())
                == m["channel_id"].as_str().map(String::from)
            {
                for other in NAMES.iter().filter(|n| **n != name) {
                    assert!(
                        !t.contains(&format!("{other}, your hand")),
                        "{name} was shown {other}'s hand: {t}"
                    );
                }
            }
        }
    }
}
