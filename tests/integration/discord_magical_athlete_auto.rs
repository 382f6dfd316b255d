//! End to end: a 4-seat game of Magical Athlete on the fake Discord at the new
//! defaults — Alice on autopilot `auto` (nobody sets it), `auto-roll` on, the default
//! policies — from the draft through four races to the final scores. Autopilot plays her
//! forced and obvious orders without asking; she is asked only decisions with a real
//! choice, at most 20, and answers one power decision live by DM text.
//! (`discord_magical_athlete.rs` plays the same game with Alice on `ask`.)

use std::collections::BTreeMap;

use crate::support::discord::*;
use photofinish::engine::{Seat, Seed};
use photofinish::games::GameKind;
use serde_json::json;

const OPTIONS: &str = "";
const TURN_SECS: i64 = 3600;
const NAMES: [&str; 4] = ["Alice", "Bot 1", "Bot 2", "Bot 3"];

/// Alice answers everything by button with the sound default.
fn by_button(
    game: &mut photofinish::games::AnyGame,
    _step: u32,
    seat: Seat,
    _prompt: &photofinish::engine::Prompt,
) -> Decision {
    Decision::button(game.format_order(seat, &game.default_order(seat)))
}

/// The first seed in which Alice is asked a power decision (answered live), with the
/// plan changed so that she answers that one by DM text.
fn find_seed() -> (Seed, Plan, u32) {
    for k in 0..500u64 {
        let seed = Seed::from_u64(k);
        let Some(mut p) = plan_with(
            GameKind::MagicalAthlete,
            OPTIONS,
            &NAMES,
            &[Seat(0)],
            &[],
            &seed,
            TURN_SECS,
            5000,
            true,
            by_button,
        ) else {
            continue;
        };
        let live = p.events_of("decided").into_iter().find(|(step, e)| {
            e["how"] == "live"
                && e["racer"]["seat"] == 0
                && p.moves.iter().any(|m| m.step == *step && m.seat == Seat(0))
        });
        let Some((step, _)) = live else { continue };
        let mv = p
            .moves
            .iter_mut()
            .find(|m| m.step == step && m.seat == Seat(0))
            .unwrap();
        let How::Button(order) = mv.how.clone() else {
            continue;
        };
        mv.how = How::Text(order);
        return (seed, p, step);
    }
    panic!("no seed in 500 asks Alice a power decision under auto");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_race_game_at_the_new_defaults_asks_only_what_matters() {
    let (seed, plan, live_step) = find_seed();
    // The plan itself: no single-choice question, at most 20 questions, some played for her.
    let asked = plan.moves_of(Seat(0));
    assert!(
        asked.len() <= 20,
        "Alice was asked {} questions",
        asked.len()
    );
    for m in &asked {
        assert!(
            !(m.prompt.complete && m.prompt.choices.len() == 1),
            "step {}: a single-choice question: {}",
            m.step,
            m.prompt.text
        );
    }
    let pending_for_alice = plan
        .pendings
        .iter()
        .filter(|(_, _, seats)| seats.contains(&Seat(0)))
        .count();
    assert!(
        pending_for_alice > asked.len(),
        "autopilot played some of Alice's orders ({pending_for_alice} steps, {} asked)",
        asked.len()
    );

    let h = Harness::start().await;
    let alice = User::new(511, "Alice");
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("magical-athlete")),
                ("length", json!("game")),
                ("options", json!("turn=1h reminders=30m")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    let a = h.slash(&alice, "join", &[]).await;
    assert!(text_of(&a).contains("You're in race #1"), "{a}");
    let a = h.slash(&alice, "bots", &[("count", json!(3))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    // The defaults, untouched: autopilot `auto`, `auto-roll` on.
    let a = h.slash(&alice, "autopilot", &[]).await;
    assert!(text_of(&a).contains("Autopilot `auto`"), "{a}");
    let a = h.slash(&alice, "settings", &[]).await;
    assert!(text_of(&a).contains("auto-roll=true"), "{a}");
    fix_seed(&h, 1, &seed).await;
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");

    let users = BTreeMap::from([(Seat(0), alice.clone())]);
    let played = follow(&h, &plan, &users).await;
    let result = final_result(&h).await;
    h.settle().await;
    let posts = channel_texts(&h);

    // The power decision, answered live by DM text, in the middle of her turn.
    let live = played
        .iter()
        .find(|p| p.mv.step == live_step)
        .expect("the live decision was played");
    assert!(matches!(live.mv.how, How::Text(_)), "{:?}", live.mv.how);
    assert!(
        text_of(&live.answer).contains("Order received"),
        "{}",
        live.answer
    );
    // Every prompt she got was one of the plan's questions: nothing else was asked.
    let prompts: Vec<u32> = h.fake.dms_to(alice.id).iter().filter_map(step_of).collect();
    for s in &prompts {
        assert!(
            asked.iter().any(|m| m.step == *s),
            "Alice got a prompt at step {s}, which autopilot plays"
        );
    }
    // And she is told what autopilot played for her.
    let dms: Vec<String> = h.fake.dms_to(alice.id).iter().map(text_of).collect();
    assert!(dms.iter().any(|t| t.contains("Played for you")), "{dms:#?}");

    // Four races (the plan's), then the final scores, as the engine counts them. Once
    // nobody need be asked, the rest of the game is played in one chain and told in one
    // post, so the channel names the races that began while Alice still had a choice.
    assert_eq!(plan.events_of("awarded").len(), 4, "the four-race game");
    for n in 1..=2 {
        assert!(
            posts.iter().any(|t| t.contains(&format!("Race {n}"))),
            "race {n}: {posts:#?}"
        );
    }
    let outcome = plan.game.outcome().unwrap();
    let r = text_of(&result);
    for p in &outcome.placings {
        let name = NAMES[p.seat.index()];
        let score = p.score.unwrap_or(0);
        let unit = if score.abs() == 1 { "point" } else { "points" };
        let line = format!("{name} ({score} {unit})");
        assert!(r.contains(&line), "`{line}` in {r}");
    }
    assert!(in_channel(&result));
    assert_discord_was_happy(&h);
}
