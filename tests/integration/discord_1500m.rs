//! End to end: an 8-runner 1500m race on the fake Discord (two humans, four bots and the
//! game's two robots) run to the medals through the real serenity/poise client. Each
//! round is one secret order per runner (movement card, bid, actions, pace and move in one
//! message); Alice orders by button, Bob by text, and Bob misses one round's deadline.

use std::collections::BTreeMap;

use crate::support::discord::*;
use photofinish::engine::{Seat, Seed};
use photofinish::games::GameKind;
use serde_json::json;

const GAME_OPTIONS: &str = "robots=2";
const TURN_SECS: i64 = 3600;
/// Bob lets this round's deadline pass.
const BOB_MISSES: u32 = 3;
const NAMES: [&str; 6] = ["Alice", "Bob", "Bot 1", "Bot 2", "Bot 3", "Bot 4"];

/// Alice presses a button each round: her highest card, and a step up in pace while she
/// has strength to spare. Bob sends the default order as text, and misses one round.
fn human()
-> impl FnMut(&mut photofinish::games::AnyGame, u32, Seat, &photofinish::engine::Prompt) -> Decision
{
    let mut bob_rounds = 0u32;
    move |game, _step, seat, prompt| {
        let default = game.format_order(seat, &game.default_order(seat));
        if seat == Seat(1) {
            bob_rounds += 1;
            return if bob_rounds == BOB_MISSES {
                Decision::timeout()
            } else {
                Decision::text(default)
            };
        }
        let strong = prompt
            .text
            .split('(')
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|s| s > 40);
        let best = prompt
            .choices
            .iter()
            .filter(|c| c.label.contains("pace +1") == strong)
            .max_by_key(|c| {
                c.label
                    .split(|ch: char| !ch.is_ascii_digit())
                    .find(|w| !w.is_empty())
                    .and_then(|w| w.parse::<u32>().ok())
                    .unwrap_or(0)
            })
            .or(prompt.choices.first());
        match best {
            Some(c) => Decision::button(c.order.clone()),
            None => Decision::text(default),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eight_runner_1500m_race_with_two_robots_to_the_medals() {
    let seed = Seed::from_u64(1500);
    let plan = plan(
        GameKind::FifteenHundred,
        GAME_OPTIONS,
        &NAMES,
        &[Seat(0), Seat(1)],
        &[],
        &seed,
        TURN_SECS,
        500,
        human(),
    )
    .expect("the race ends");
    let h = Harness::start().await;
    let alice = User::new(401, "Alice");
    let bob = User::new(402, "Bob");

    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("1500m")),
                (
                    "options",
                    json!(format!("{GAME_OPTIONS} turn=1h reminders=30m")),
                ),
            ],
        )
        .await;
    assert!(text_of(&a).contains("race #1 is open"), "{a}");
    for u in [&alice, &bob] {
        let a = h.slash(u, "join", &[]).await;
        assert!(text_of(&a).contains("You're in race #1"), "{a}");
    }
    let a = h.slash(&alice, "bots", &[("count", json!(4))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    // Six seats and two robots fill the eight lanes: no room for a seventh.
    let carol = User::new(403, "Carol");
    let a = h.slash(&carol, "join", &[]).await;
    assert!(!text_of(&a).contains("You're in"), "{a}");
    fix_seed(&h, 1, &seed).await;
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");

    let users = BTreeMap::from([(Seat(0), alice.clone()), (Seat(1), bob.clone())]);
    let played = follow(&h, &plan, &users).await;
    let result = final_result(&h).await;
    h.settle().await;

    // Every round was one step: one secret order from each runner still racing.
    assert!(plan.pendings.iter().all(|(_, _, seats)| !seats.is_empty()));
    let first = &played[0];
    let t = text_of(&first.prompt);
    assert!(t.contains("Round 1: orders"), "{t}");
    assert!(t.contains("Movement cards: 8, 9, 10, 11"), "{t}");
    assert!(
        labels(&first.prompt).iter().any(|l| l.contains("bid")),
        "{:?}",
        labels(&first.prompt)
    );

    // The robots ran: they are in the field of every track.
    let posts = channel_texts(&h);
    assert!(
        posts
            .iter()
            .any(|t| t.contains("Robot 1") && t.contains("Robot 2"))
    );

    // Bob's missed round: the default order, played and announced.
    let missed = played.iter().find(|p| p.mv.how == How::Timeout).unwrap();
    assert_eq!(missed.mv.seat, Seat(1));
    assert!(
        posts
            .iter()
            .any(|t| t.contains("Missed orders: Bob: ") && t.contains("(played for them)")),
        "{posts:#?}"
    );

    // The medals: the engine's podium, told in the last turn's post and the result.
    let over = plan.events_of("race-over");
    let (_, over) = over.first().expect("the race ends");
    let podium: Vec<String> = over["order"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|i| runner_name(i.as_u64().unwrap() as usize))
        .collect();
    let told = format!(
        "The race is over: 1st {}, 2nd {}, 3rd {}.",
        podium[0], podium[1], podium[2]
    );
    assert!(
        posts.iter().any(|t| t.contains(&told)),
        "{told}: {posts:#?}"
    );
    // The final post gives the medals, robots' included: its standings name every runner,
    // the robots too (a robot's medal is one the result, ranking seats only, cannot show).
    let r = text_of(&result);
    assert!(r.contains("Robot 1") && r.contains("Robot 2"), "{r}");
    for (place, medal) in ["GOLD", "SILVER", "BRONZE"].iter().enumerate() {
        let line = r
            .lines()
            .find(|l| l.contains(&podium[place]) && l.ends_with(medal))
            .unwrap_or_else(|| panic!("{} {medal} in the final post: {r}", podium[place]));
        assert!(line.starts_with(&ordinal(place + 1)), "{line}");
    }
    // The record's proof in the final post is the one its export gives.
    let races = h.referee().store().open_campaigns().await.unwrap();
    assert!(races.is_empty(), "{races:?}");
    let x = h
        .referee()
        .export(photofinish::vocab::CampaignId(1))
        .await
        .unwrap();
    let proof = photofinish::referee::chain::proof(&x);
    assert!(r.contains(&format!("`{proof}`")), "{proof}: {r}");
    dump_posts(&h, &users.values().collect::<Vec<_>>());
    assert_discord_was_happy(&h);
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// A runner's name: a seat's, or a robot's (robots run after the seats).
fn runner_name(i: usize) -> String {
    NAMES
        .get(i)
        .map(std::string::ToString::to_string)
        .unwrap_or_else(|| format!("Robot {}", i + 1 - NAMES.len()))
}
