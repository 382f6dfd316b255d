//! End to end on the fake Discord, on the bot's real default grace window (2 minutes):
//! one round of 1000 miles with four seats, Ann on `ask`, Bea on `auto` with her standing
//! plays, Cal on `auto` without any, Dan on `bot`. The channel gets one post for the
//! round, Ann's play changed within its grace window is the one played, and the DMs say
//! which orders were played for the others. A second race restarts the bot mid-round,
//! with a play held: nothing is lost or posted twice.

use crate::support::discord::*;
use photofinish::engine::Seed;
use photofinish::referee::OpenPrompt;
use photofinish::vocab::{CampaignId, UserId};
use serde_json::json;

const OPTIONS: &str = "rounds=1 turn=1h reminders=30m";
/// Just past the default grace window.
const GRACE_SECS: i64 = 121;

fn seats() -> [User; 4] {
    [
        User::new(801, "Ann"),
        User::new(802, "Bea"),
        User::new(803, "Cal"),
        User::new(804, "Dan"),
    ]
}

/// The channel's round posts (each reveals its orders).
fn round_posts(h: &Harness) -> Vec<String> {
    channel_texts(h)
        .into_iter()
        .filter(|t| t.contains("Orders and receipts"))
        .collect()
}

/// The four seats joined, their autopilot set, the seed fixed, the race started.
async fn start(h: &Harness, users: &[User; 4], seed: u64) {
    let [ann, bea, cal, dan] = users;
    h.open_lobby("mille-bornes", OPTIONS, ann, &[bea, cal, dan], 0)
        .await;
    for (u, setting) in [(ann, "ask"), (bea, "auto"), (cal, "auto"), (dan, "bot")] {
        let a = h
            .slash(u, "autopilot", &[("setting", json!(setting))])
            .await;
        assert!(
            text_of(&a).contains(&format!("Autopilot `{setting}`")),
            "{a}"
        );
    }
    for (u, text) in [(bea, "standing default"), (cal, "standing none")] {
        let a = h.slash(u, "preference", &[("text", json!(text))]).await;
        assert!(is_ephemeral(&a), "{a}");
    }
    fix_seed(h, 1, &Seed::from_u64(seed)).await;
    let a = h.slash(ann, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    h.settle().await;
}

/// The seat asked now and still to answer, with its prompt.
async fn asked(h: &Harness, users: &[User; 4]) -> Option<(usize, OpenPrompt)> {
    for (i, u) in users.iter().enumerate() {
        let user = UserId::new(u.id.to_string());
        if let Ok(p) = h.referee().open_prompt(CampaignId(1), &user).await
            && p.current.is_none()
        {
            return Some((i, p));
        }
    }
    None
}

/// Sends `order` by DM and returns the receipt's text.
async fn order(h: &Harness, user: &User, order: &str, receipt: &str) -> String {
    let seen = h.fake.dms_to(user.id).len();
    h.fake.dm(user, order);
    let m = dm_after(h, user, seen, |m| text_of(m).contains(receipt)).await;
    text_of(&m)
}

/// Plays until the first round post: each asked seat plays its first choice, except
/// Ann's first play, which is changed within the window to her last. Returns Ann's
/// first and changed plays.
async fn play_a_round(h: &Harness, users: &[User; 4]) -> (String, String) {
    let mut ann_plays = None;
    for _ in 0..60 {
        if !round_posts(h).is_empty() {
            break;
        }
        match asked(h, users).await {
            Some((0, p)) if ann_plays.is_none() && p.prompt.choices.len() > 1 => {
                let first = p.prompt.choices[0].order.clone();
                let last = p.prompt.choices.last().unwrap().order.clone();
                let r = order(h, &users[0], &first, "Order received").await;
                assert!(
                    r.contains("It is held for 2m") && r.contains("take it back with `undo`"),
                    "the receipt says how long the window is: {r}"
                );
                h.advance(60);
                h.settle().await;
                assert!(round_posts(h).is_empty(), "a held play has not resolved");
                let r = order(h, &users[0], &last, "Order changed").await;
                assert!(r.contains("It is held for 2m"), "{r}");
                ann_plays = Some((first, last));
            }
            Some((i, p)) => {
                let first = p.prompt.choices[0].order.clone();
                order(h, &users[i], &first, "Order received").await;
            }
            None => {}
        }
        h.advance(GRACE_SECS);
        h.settle().await;
    }
    ann_plays.expect("Ann was asked with a choice to make")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_round_of_1000_miles_is_one_post_and_a_changed_play_counts() {
    let h = Harness::start_with_real_grace().await;
    let users = seats();
    start(&h, &users, 7).await;
    let (first, changed) = play_a_round(&h, &users).await;
    h.settle().await;

    // One post for the round, telling every seat's turn in it, with one picture.
    let posts = round_posts(&h);
    assert_eq!(posts.len(), 1, "one post for the round: {posts:#?}");
    let post = &posts[0];
    for u in &users {
        assert!(
            post.contains(&format!("{} `", u.name)),
            "{} played in the round: {post}",
            u.name
        );
    }
    let round_post = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .find(|m| text_of(m).contains("Orders and receipts"))
        .unwrap();
    assert_eq!(
        round_post["attachments"].as_array().map(Vec::len),
        Some(1),
        "one picture: {round_post}"
    );

    // Ann's changed play is the one played.
    assert_ne!(first, changed);
    assert!(
        post.contains(&format!("Ann `{changed}`")),
        "Ann's changed play {changed} was played: {post}"
    );
    assert!(!post.contains(&format!("Ann `{first}`")), "{post}");

    // The DMs say which orders were played for the seats that were not asked.
    for u in &users[1..] {
        let asked_by_dm = h
            .fake
            .dms_to(u.id)
            .iter()
            .any(|m| text_of(m).contains("Order received"));
        if asked_by_dm {
            continue;
        }
        let played = post
            .split(&format!("{} `", u.name))
            .nth(1)
            .and_then(|rest| rest.split('`').next())
            .unwrap()
            .to_string();
        let dms: Vec<String> = h.fake.dms_to(u.id).iter().map(text_of).collect();
        assert!(
            dms.iter()
                .any(|t| t.contains("Played for you") && t.contains(&played)),
            "{} was told `{played}` was played for them: {dms:#?}",
            u.name
        );
    }
    let dan: Vec<String> = h.fake.dms_to(users[3].id).iter().map(text_of).collect();
    assert!(dan.iter().any(|t| t.contains("Played for you")), "{dan:#?}");
    dump_posts(&h, &users.iter().collect::<Vec<_>>());
    assert_discord_was_happy(&h);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_round_loses_no_step_and_posts_none_twice() {
    let mut h = Harness::start_with_real_grace().await;
    let users = seats();
    start(&h, &users, 7).await;
    // Ann plays first: taken back within the window, played again, and resolved.
    let Some((0, ann)) = asked(&h, &users).await else {
        panic!("Ann is asked first on this seed");
    };
    let choice = ann.prompt.choices[0].order.clone();
    order(&h, &users[0], &choice, "Order received").await;
    let r = order(&h, &users[0], "undo", "Taken back").await;
    assert!(r.contains(&choice), "{r}");
    order(&h, &users[0], &choice, "Order received").await;
    h.advance(GRACE_SECS);
    h.settle().await;
    // The next seat asked plays, and the bot restarts while that play is held: the
    // steps before it are in the open round, stored.
    let mut held = None;
    for _ in 0..10 {
        if let Some((i, p)) = asked(&h, &users).await {
            let first = p.prompt.choices[0].order.clone();
            order(&h, &users[i], &first, "Order received").await;
            held = Some((i, first, p.step));
            break;
        }
        h.advance(GRACE_SECS);
        h.settle().await;
    }
    let (seat, play, step) = held.expect("another seat is asked in the round");
    assert!(round_posts(&h).is_empty(), "the round is still open");
    h.stop_bot().await;
    h.start_bot().await;
    h.advance(GRACE_SECS);
    h.settle().await;
    let user = UserId::new(users[seat].id.to_string());
    assert!(
        h.referee()
            .open_prompt(CampaignId(1), &user)
            .await
            .is_ok_and(|p| p.step > step)
            || asked(&h, &users).await.is_none_or(|(i, _)| i != seat),
        "the held play resolved after the restart"
    );
    if round_posts(&h).is_empty() {
        play_rest_of_round(&h, &users).await;
        h.settle().await;
    }
    let posts = round_posts(&h);
    assert_eq!(posts.len(), 1, "one post, once: {posts:#?}");
    let post = &posts[0];
    for (u, played) in [(&users[0], &choice), (&users[seat], &play)] {
        assert!(
            post.contains(&format!("{} `{played}`", u.name)),
            "{}'s play is in the round: {post}",
            u.name
        );
    }
    for u in &users {
        assert_eq!(
            post.matches(&format!("{} `", u.name)).count(),
            1,
            "{} played once in the round, told once: {post}",
            u.name
        );
    }
    assert_discord_was_happy(&h);
}

/// Answers whoever is asked with their first choice until the next round post.
async fn play_rest_of_round(h: &Harness, users: &[User; 4]) {
    let before = round_posts(h).len();
    for _ in 0..60 {
        if round_posts(h).len() > before {
            return;
        }
        if let Some((i, p)) = asked(h, users).await {
            let first = p.prompt.choices[0].order.clone();
            order(h, &users[i], &first, "Order received").await;
        }
        h.advance(GRACE_SECS);
        h.settle().await;
    }
    panic!("the round never ended: {:#?}", channel_texts(h));
}
