//! A series counted by the game's own score, played through on the fake
//! Discord: two Magical Athlete four-race games in a series opened with `points:score`.
//! Alice and Bob put their seats on autopilot `bot`, so each game plays itself to its
//! end; the standings are then each player's chips summed over both games, in
//! `/race series standings` and on the last final post, which says the series is over.

use crate::support::discord::*;
use photofinish::vocab::{CampaignId, Phase};
use serde_json::json;

/// Each seat's chips in race `race`, by runner name, from its export.
async fn chips(h: &Harness, race: i64) -> Vec<(String, i64)> {
    let x = h.referee().export(CampaignId(race)).await.unwrap();
    x.result
        .unwrap()
        .iter()
        .map(|p| {
            let seat = x.seats.iter().find(|s| s.seat == p.seat).unwrap();
            (seat.name.clone(), p.score.expect("Magical Athlete scores"))
        })
        .collect()
}

fn of(scores: &[(String, i64)], name: &str) -> i64 {
    scores.iter().find(|(n, _)| n == name).unwrap().1
}

/// A four-race game in the series, Alice and Bob on autopilot `bot` beside a bot.
async fn a_game_in_the_series(h: &Harness, race: i64, alice: &User, bob: &User) {
    let a = h
        .slash(
            alice,
            "new",
            &[
                ("game", json!("magical-athlete")),
                ("length", json!("game")),
                ("series", json!("chip cup")),
                ("options", json!("turn=1h")),
            ],
        )
        .await;
    assert!(
        text_of(&a).contains(&format!("race #{race} is open")),
        "{a}"
    );
    for u in [alice, bob] {
        let a = h.slash(u, "join", &[]).await;
        assert!(text_of(&a).contains("You're in"), "{a}");
        let a = h.slash(u, "autopilot", &[("setting", json!("bot"))]).await;
        assert!(text_of(&a).contains("Autopilot `bot`"), "{a}");
    }
    let a = h.slash(alice, "bots", &[("count", json!(1))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = h.slash(alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    // Nobody is asked anything: the game plays itself; the clock only wakes the workers.
    let referee = h.referee();
    let mut guard = 0;
    while referee.overview(CampaignId(race)).await.unwrap().phase != Phase::Finished {
        h.advance(3600);
        h.settle().await;
        guard += 1;
        assert!(guard < 50, "race {race} did not finish");
    }
    h.settle().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_score_series_adds_each_players_chips_over_its_games() {
    let h = Harness::start().await;
    let alice = User::new(1921, "Alice");
    let bob = User::new(1922, "Bob");
    let a = h
        .slash(
            &alice,
            "series new",
            &[
                ("name", json!("Chip Cup")),
                ("races", json!(2)),
                ("points", json!("score")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("each race's own score"), "{a}");

    a_game_in_the_series(&h, 1, &alice, &bob).await;
    let first = chips(&h, 1).await;
    a_game_in_the_series(&h, 2, &alice, &bob).await;
    let second = chips(&h, 2).await;
    assert_eq!(first.len(), 3, "{first:?}");

    // The standings: every entrant's chips, summed over both games.
    let table = h
        .referee()
        .series_table(&CHANNEL.to_string(), "Chip Cup")
        .await
        .unwrap();
    assert!(table.complete(), "{table:?}");
    let mut want: Vec<(String, u32)> = first
        .iter()
        .map(|(name, n)| {
            let total = n + of(&second, name);
            (name.clone(), u32::try_from(total).unwrap())
        })
        .collect();
    let mut got: Vec<(String, u32)> = table
        .lines
        .iter()
        .map(|l| (l.name.clone(), l.points))
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want, "first {first:?}, second {second:?}");
    for l in &table.lines {
        assert_eq!(l.races, 2, "{l:?}");
        let chips = [of(&first, &l.name), of(&second, &l.name)];
        let gained: Vec<u32> = chips.iter().map(|&c| u32::try_from(c).unwrap()).collect();
        assert_eq!(l.gained, gained, "{l:?}");
    }

    // The last game's final post: the final standings, in chips, and that they are chips.
    let message = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .find(|m| text_of(m).contains("race #2: final result"))
        .expect("race #2's final post");
    let t = text_of(&message);
    assert!(t.contains("Chip Cup: final standings after 2 races"), "{t}");
    assert!(t.contains("each race's own score"), "{t}");
    let line = |l: &photofinish::referee::series::SeriesLine| {
        let bot = if l.bot { " (bot)" } else { "" };
        format!("**{}**{bot} {} pts", l.name, l.points)
    };
    for l in &table.lines {
        assert!(t.contains(&line(l)), "{}: {t}", line(l));
    }
    // And `/race series standings` agrees.
    let a = h
        .slash(&bob, "series standings", &[("name", json!("chip cup"))])
        .await;
    let t = text_of(&a);
    assert!(t.contains("Chip Cup: final standings after 2 races"), "{t}");
    for l in &table.lines {
        assert!(t.contains(&line(l)), "{}: {t}", line(l));
    }
    assert_discord_was_happy(&h);
}
