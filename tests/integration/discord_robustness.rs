//! The Discord adapter under pressure, through the fake Discord: host-only commands, orders
//! for someone else's seat, a restart in the middle of a turn, rate limits and lost answers,
//! duplicate events and double clicks.

use crate::support::discord::*;
use serde_json::{Value, json};

const NOT_HOST: &str = "Only the host or a member with Manage Server can do that.";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_host_command_is_refused_to_a_player_and_allowed_to_a_manager() {
    let h = Harness::start().await;
    let alice = User::new(201, "Alice");
    let bob = User::new(202, "Bob");
    let mut carol = User::new(203, "Carol");
    carol.manage = true;
    h.open_lobby("dream-mile", "", &alice, &[&bob], 0).await;

    let bob_option = FakeDiscord::user_option(&bob);
    let alice_option = FakeDiscord::user_option(&alice);
    let host_commands: Vec<(&str, Vec<(&str, Value)>)> = vec![
        ("start", vec![]),
        ("deadline", vec![("extend", json!("1h"))]),
        ("pause", vec![]),
        ("pause", vec![("resume", json!(true))]),
        ("bots", vec![("count", json!(1))]),
        (
            "replace",
            vec![("seat", json!("Alice")), ("user", bob_option.clone())],
        ),
        ("kick", vec![("user", alice_option)]),
        ("settings", vec![("change", json!("turn=2h"))]),
        ("cancel", vec![]),
    ];
    for (sub, options) in &host_commands {
        let a = h.slash(&bob, sub, options).await;
        assert!(is_ephemeral(&a), "/race {sub}: {a}");
        assert!(text_of(&a).contains(NOT_HOST), "/race {sub}: {a}");
    }
    // Nothing changed: the race is still in its lobby with both players.
    let overview = h
        .referee()
        .overview(photofinish::vocab::CampaignId(1))
        .await
        .unwrap();
    assert_eq!(overview.phase, photofinish::vocab::Phase::Lobby);
    assert_eq!(overview.seats.len(), 2);

    // A member with Manage Server may, though not the host.
    let a = h.slash(&carol, "bots", &[("count", json!(1))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = h
        .slash(&carol, "settings", &[("change", json!("turn=2h"))])
        .await;
    assert!(text_of(&a).contains("turn=2h"), "{a}");
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_for_another_seat_is_refused() {
    let h = Harness::start().await;
    let alice = User::new(301, "Alice");
    let bob = User::new(302, "Bob");
    let eve = User::new(303, "Eve");
    h.open_lobby("dream-mile", "", &alice, &[&bob], 0).await;
    h.slash(&alice, "start", &[]).await;
    let alice_prompt = h.fake.wait_dm(alice.id, 2).await;
    // Bob presses a button from Alice's prompt (forwarded to him, say).
    let a = h
        .click(&bob, &alice_prompt, &button(&alice_prompt, "9"))
        .await;
    assert!(is_ephemeral(&a));
    assert!(text_of(&a).contains("only order for your own seat"), "{a}");
    // Someone without a seat can't order at all.
    let a = h.slash(&eve, "order", &[("text", json!("3"))]).await;
    assert!(text_of(&a).contains("You don't have a seat"), "{a}");
    h.fake.dm(&eve, "3");
    let r = h.fake.wait_dm(eve.id, 1).await;
    assert!(text_of(&r).contains("aren't running in a race"), "{r}");
    // Nobody's order is in.
    let o = h.slash(&alice, "orders", &[]).await;
    assert!(text_of(&o).contains("✓ In: nobody"), "{o}");
    assert!(text_of(&o).contains("Still to order: Alice, Bob"), "{o}");
}

/// The bot is down for three hours, past the turn's deadline. Players could not reach
/// it, so the downtime is an outage: at the restart the deadline is held, not fired, and
/// the channel is told once; three hours later the turn resolves, once, with the order
/// sent before the restart. Before, the restart fired the deadline at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_after_hours_down_holds_the_turn_then_resolves_it_once() {
    let mut h = Harness::start().await;
    let alice = User::new(401, "Alice");
    let bob = User::new(402, "Bob");
    h.open_lobby("dream-mile", "turn=1h reminders=none", &alice, &[&bob], 0)
        .await;
    h.slash(&alice, "start", &[]).await;
    h.fake.wait_dm(bob.id, 2).await;
    h.fake.dm(&alice, "7");
    let r = h.fake.wait_dm(alice.id, 3).await;
    assert!(text_of(&r).contains("Order received"), "{r}");
    h.settle().await;

    // The bot goes down; the deadline passes while it is away.
    h.stop_bot().await;
    h.clock.advance_secs(3 * 3600);
    h.start_bot().await;
    assert_eq!(h.fake.identifies(), 2);
    let notice = h
        .fake
        .wait_message("the downtime notice", |m| {
            in_channel(m) && text_of(m).contains("The bot was down for about 3 hours")
        })
        .await;
    assert!(
        text_of(&notice).contains("The deadline is held"),
        "{notice}"
    );
    h.settle().await;
    let turn1 = |h: &Harness| {
        h.fake
            .messages_in(CHANNEL)
            .iter()
            .filter(|m| {
                text_of(m).contains("Turn 1 of 8") && text_of(m).contains("Orders and receipts")
            })
            .count()
    };
    assert_eq!(turn1(&h), 0, "not fired at the restart");
    h.advance(3 * 3600 + 60);
    let post = h
        .fake
        .wait_message("turn 1, resolved at its held deadline", |m| {
            in_channel(m)
                && text_of(m).contains("Turn 1 of 8")
                && text_of(m).contains("Orders and receipts")
        })
        .await;
    let t = text_of(&post);
    assert!(
        t.contains("Alice `7`"),
        "the order sent before the restart counts: {t}"
    );
    assert!(t.contains("Missed orders: Bob"), "{t}");
    let notices = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("The bot was down"))
        .count();
    assert_eq!(notices, 1, "told once");
    // Turn 2's prompts arrive, and the race goes on.
    let prompt = h.fake.wait_dm(bob.id, 3).await;
    assert!(text_of(&prompt).contains("Turn 2 of 8"), "{prompt}");
    h.fake.dm(&bob, "4");
    let r = h.fake.wait_dm(bob.id, 4).await;
    assert!(
        text_of(&r).contains("Order received for Turn 2 of 8"),
        "{r}"
    );
    // Exactly once: another restart and more ticks post nothing more for turn 1.
    h.stop_bot().await;
    h.start_bot().await;
    h.advance(1);
    h.settle().await;
    let turn1_posts = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("Turn 1 of 8") && text_of(m).contains("Missed orders"))
        .count();
    assert_eq!(turn1_posts, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_is_retried_and_a_lost_answer_does_not_post_twice() {
    let h = Harness::start().await;
    let alice = User::new(501, "Alice");
    h.open_lobby("dream-mile", "", &alice, &[], 1).await;
    h.settle().await;

    // 429 on the start post: retried after the backoff, and posted once.
    h.fake.rate_limit_next(1);
    h.slash(&alice, "start", &[]).await;
    h.settle().await;
    let posts_to_channel = |h: &Harness| {
        h.fake
            .requests()
            .into_iter()
            .filter(|r| r.is("POST", &format!("/channels/{CHANNEL}/messages")))
            .collect::<Vec<_>>()
    };
    let limited = posts_to_channel(&h)
        .into_iter()
        .filter(|r| r.status == 429)
        .count();
    assert_eq!(limited, 1);
    assert!(
        !h.fake
            .messages_in(CHANNEL)
            .iter()
            .any(|m| text_of(m).contains("is off!")),
        "not posted before its retry is due"
    );
    h.advance(2);
    let started = h
        .fake
        .wait_message("the start post, retried", |m| {
            in_channel(m) && text_of(m).contains("is off!")
        })
        .await;
    assert!(text_of(&started).contains("commitment"));

    // A post whose answer is lost (500 after Discord created it): the retry first reads the
    // channel's history, finds the post by its outbox id, and does not post again (issue
    // 14; before, it was sent again and Discord's enforce_nonce returned the first).
    h.settle().await;
    h.fake.lose_next_answers(1);
    let a = h.slash(&alice, "pause", &[]).await;
    assert!(text_of(&a).contains("paused"), "{a}");
    h.settle().await;
    h.advance(2);
    h.settle().await;
    h.advance(4);
    h.settle().await;
    let pause_posts: Vec<Recorded> = posts_to_channel(&h)
        .into_iter()
        .filter(|r| text_of(&r.body).contains("race is paused"))
        .collect();
    assert_eq!(pause_posts.len(), 1, "sent once, then found in the history");
    assert_eq!(pause_posts[0].status, 500);
    assert_eq!(pause_posts[0].body["enforce_nonce"], true);
    assert!(
        h.fake
            .requests()
            .iter()
            .any(|r| r.is("GET", &format!("/channels/{CHANNEL}/messages"))),
        "the retry looked in the channel's history"
    );
    let shown = h
        .fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| text_of(m).contains("race is paused"))
        .count();
    assert_eq!(shown, 1, "posted once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_event_or_a_double_click_changes_nothing_twice() {
    let h = Harness::start().await;
    let alice = User::new(601, "Alice");
    let bob = User::new(602, "Bob");
    h.open_lobby("dream-mile", "", &alice, &[&bob], 0).await;
    h.slash(&alice, "start", &[]).await;
    let prompt = h.fake.wait_dm(alice.id, 2).await;
    h.settle().await;

    // One click, delivered twice by the gateway: handled once.
    let seven = button(&prompt, "7");
    let id = h.fake.click(&alice, &prompt, &seven);
    let first = h.fake.response(id).await;
    h.fake.replay_click(id, &alice, &prompt, &seven);
    h.settle().await;
    assert_eq!(h.fake.callbacks(id), 1, "the duplicate event was dropped");
    let receipt = code_after_receipt(&text_of(&first));

    // A double click: a second interaction for the same button. Same receipt, no change.
    let before = h.fake.request_count();
    let second = h.click(&alice, &prompt, &seven).await;
    assert!(text_of(&second).contains("Already in"), "{second}");
    assert_eq!(code_after_receipt(&text_of(&second)), receipt);
    h.settle().await;
    let status_edits = h.fake.requests()[before..]
        .iter()
        .filter(|r| r.is("PATCH", &format!("/channels/{CHANNEL}/messages/")))
        .count();
    assert_eq!(status_edits, 0, "the status message was not touched again");
    let log = h
        .referee()
        .overview(photofinish::vocab::CampaignId(1))
        .await
        .unwrap();
    // The DM shows the first digits of the whole hash the race keeps.
    let kept = log.seats[0].receipt.clone().unwrap_or_default();
    assert_eq!((kept.len(), receipt.len()), (64, 10), "{kept} {receipt}");
    assert!(kept.starts_with(&receipt), "{kept} against {receipt}");

    // Bob's order resolves the turn; a button from the old prompt is then stale.
    h.fake.dm(&bob, "4");
    h.fake.wait_dm(alice.id, 3).await;
    let stale = h.click(&alice, &prompt, &button(&prompt, "5")).await;
    assert!(is_ephemeral(&stale));
    assert!(text_of(&stale).contains("earlier turn"), "{stale}");

    // A slash command is answered once.
    let orders = h.fake.slash(&bob, CHANNEL, "orders", &[]);
    h.fake.response(orders).await;
    assert_eq!(h.fake.callbacks(orders), 1);
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

fn code_after_receipt(text: &str) -> String {
    let rest = &text[text.find("Receipt `").expect("a receipt") + 9..];
    rest[..rest.find('`').unwrap()].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_race_can_run_in_its_own_thread() {
    let h = Harness::start().await;
    let alice = User::new(701, "Alice");
    let a = h
        .slash(
            &alice,
            "new",
            &[("game", json!("dream-mile")), ("thread", json!(true))],
        )
        .await;
    let made = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.is("POST", &format!("/channels/{CHANNEL}/threads")))
        .expect("a thread was created");
    assert_eq!(made.body["name"], "Dream Mile race");
    let thread = h
        .fake
        .wait_message("the lobby in the thread", |m| {
            custom_ids(m).contains(&"pf:join:1".to_string())
        })
        .await;
    assert_ne!(thread["channel_id"], CHANNEL.to_string().as_str());
    assert!(
        text_of(&a).contains(thread["channel_id"].as_str().unwrap()),
        "{a}"
    );
    // The channel itself stays free for another race.
    let b = h
        .slash(&alice, "new", &[("game", json!("dream-mile"))])
        .await;
    assert!(text_of(&b).contains("race #2 is open"), "{b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_accepts_multipart_uploads() {
    use poise::serenity_prelude as serenity;
    let h = Harness::start().await;
    let settings = h.fake.settings(&h.db());
    let http = photofinish::discord::http(&settings.discord).unwrap();
    let sent = serenity::ChannelId::new(CHANNEL)
        .send_message(
            &http,
            serenity::CreateMessage::new()
                .content("a picture")
                .add_file(serenity::CreateAttachment::bytes(
                    vec![137u8, 80, 78, 71],
                    "track.png",
                )),
        )
        .await
        .unwrap();
    assert_eq!(sent.attachments.len(), 1);
    assert_eq!(sent.attachments[0].filename, "track.png");
    let r = h
        .fake
        .requests()
        .into_iter()
        .rfind(|r| r.is("POST", &format!("/channels/{CHANNEL}/messages")))
        .unwrap();
    assert_eq!(r.body["content"], "a picture");
    assert_eq!(
        r.files,
        vec![("files[0]".to_string(), "track.png".to_string(), 4)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_in_two_races_names_the_race_in_a_text_order() {
    let h = Harness::start().await;
    let alice = User::new(801, "Alice");
    let bob = User::new(802, "Bob");
    h.open_lobby("dream-mile", "", &alice, &[&bob], 0).await;
    h.slash(&alice, "start", &[]).await;
    // A second race, in another channel.
    let other = CHANNEL + 1;
    for (u, sub, options) in [
        (&bob, "new", vec![("game", json!("dream-mile"))]),
        (&bob, "join", vec![]),
        (&alice, "join", vec![]),
        (&bob, "start", vec![]),
    ] {
        let id = h.fake.slash(u, other, sub, &options);
        let a = h.fake.response(id).await;
        assert!(!text_of(&a).contains("Not done"), "{sub}: {a}");
    }
    h.settle().await;
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "7");
    let r = h.fake.wait_dm(alice.id, n + 1).await;
    let t = text_of(&r);
    assert!(
        t.contains("races #1, #2") && t.contains("like `#2 7`"),
        "{t}"
    );
    h.fake.dm(&alice, "#2 7");
    let r = h.fake.wait_dm(alice.id, n + 2).await;
    let t = text_of(&r);
    assert!(
        t.contains("Order received") && t.contains("several races"),
        "{t}"
    );
    // The same DM event twice is handled once.
    let id = h.fake.dm(&alice, "#1 5");
    let r = h.fake.wait_dm(alice.id, n + 3).await;
    assert!(text_of(&r).contains("`5`"), "{r}");
    h.fake.replay_dm(id, &alice, "#1 5");
    h.settle().await;
    assert_eq!(h.fake.dms_to(alice.id).len(), n + 3);
    let o = h
        .referee()
        .overview(photofinish::vocab::CampaignId(2))
        .await
        .unwrap();
    assert_eq!(
        o.seats
            .iter()
            .filter(|s| s.state == photofinish::referee::announce::SeatState::Ordered)
            .count(),
        1,
        "race #2 has Alice's order only"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_status_message_is_posted_again() {
    let h = Harness::start().await;
    let alice = User::new(901, "Alice");
    let bob = User::new(902, "Bob");
    h.open_lobby("dream-mile", "", &alice, &[&bob], 0).await;
    h.slash(&alice, "start", &[]).await;
    let status = h
        .fake
        .wait_message("the status message", |m| {
            in_channel(m) && text_of(m).contains("… Alice")
        })
        .await;
    h.settle().await;
    h.fake.delete_message(&status["id"]);
    h.fake.dm(&alice, "5");
    let fresh = h
        .fake
        .wait_message("a new status message", |m| {
            in_channel(m) && text_of(m).contains("✓ Alice")
        })
        .await;
    assert_ne!(fresh["id"], status["id"]);
    let old_id = status["id"].as_str().unwrap();
    assert!(
        h.fake
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.path.ends_with(old_id) && r.status == 404)
    );
    // Later edits go to the new message.
    h.fake.dm(&bob, "4");
    h.fake
        .wait_message("the new status, edited", |m| {
            m["id"] == fresh["id"] && text_of(m).contains("Turn 2 of 8")
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_moves_the_deadline_pauses_hands_over_and_cancels() {
    let h = Harness::start().await;
    let alice = User::new(1001, "Alice");
    let bob = User::new(1002, "Bob");
    let carol = User::new(1003, "Carol");
    h.open_lobby("dream-mile", "turn=1h reminders=none", &alice, &[&bob], 0)
        .await;
    let s = h.slash(&bob, "settings", &[]).await;
    assert!(
        text_of(&s).contains("turn=1h") && text_of(&s).contains("starting-points"),
        "{s}"
    );
    h.slash(&alice, "start", &[]).await;
    let start = photofinish::referee::Clock::now(&*h.clock);

    let d = h.slash(&bob, "deadline", &[]).await;
    let due = (start / 1000) + 3600;
    assert!(text_of(&d).contains(&format!("<t:{due}:F>")), "{d}");
    let d = h
        .slash(&alice, "deadline", &[("extend", json!("30m"))])
        .await;
    assert!(
        text_of(&d).contains(&format!("<t:{}:F>", due + 1800)),
        "{d}"
    );
    let d = h.slash(&alice, "deadline", &[("set", json!("2h"))]).await;
    assert!(
        text_of(&d).contains(&format!("<t:{}:F>", start / 1000 + 7200)),
        "{d}"
    );
    let d = h
        .slash(&alice, "deadline", &[("set", json!("someday"))])
        .await;
    assert!(text_of(&d).contains("is not a time"), "{d}");
    h.fake
        .wait_message("the deadline notice", |m| {
            in_channel(m) && text_of(m).contains("The deadline moved to")
        })
        .await;

    // A pause keeps the time left; nothing resolves while paused.
    h.advance(1800);
    h.slash(&alice, "pause", &[]).await;
    let d = h.slash(&bob, "deadline", &[]).await;
    assert!(text_of(&d).contains("paused with 1h30m left"), "{d}");
    h.advance(5 * 3600);
    h.settle().await;
    let o = h.slash(&bob, "orders", &[]).await;
    assert!(text_of(&o).contains("Turn 1 of 8"), "still turn 1: {o}");
    let r = h.slash(&alice, "pause", &[("resume", json!(true))]).await;
    let now = photofinish::referee::Clock::now(&*h.clock) / 1000;
    assert!(
        text_of(&r).contains(&format!("<t:{}:F>", now + 5400)),
        "{r}"
    );

    // Bob's seat goes to Carol; then Carol is kicked and a bot runs it.
    let carol_option = FakeDiscord::user_option(&carol);
    let a = h
        .slash(
            &alice,
            "replace",
            &[("seat", json!("Bob")), ("user", carol_option.clone())],
        )
        .await;
    assert!(
        text_of(&a).contains("Bob's seat is offered to <@1003>"),
        "{a}"
    );
    // It is Carol's once she accepts with the offer's button.
    let offer = h
        .fake
        .wait_message("the offer", |m| {
            custom_ids(m).contains(&"pf:accept:1:1".to_string())
        })
        .await;
    let a = h.click(&carol, &offer, "pf:accept:1:1").await;
    assert!(text_of(&a).contains("You run Bob"), "{a}");
    let a = h.slash(&carol, "order", &[("text", json!("4"))]).await;
    assert!(
        text_of(&a).contains("for **Bob**"),
        "Carol runs Bob's seat: {a}"
    );
    let a = h.slash(&bob, "order", &[("text", json!("4"))]).await;
    assert!(text_of(&a).contains("You don't have a seat"), "{a}");
    let a = h.slash(&alice, "kick", &[("user", carol_option)]).await;
    assert!(text_of(&a).contains("Bob is out"), "{a}");
    h.fake
        .wait_message("the kick notice", |m| {
            in_channel(m) && text_of(m).contains("a bot runs their seat")
        })
        .await;

    let a = h.slash(&alice, "cancel", &[]).await;
    assert!(text_of(&a).contains("cancelled"), "{a}");
    h.fake
        .wait_message("the cancel post", |m| {
            in_channel(m) && text_of(m).contains("The host cancelled the race.")
        })
        .await;
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("no race here"), "{a}");
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
}

/// Two processes on one shard (a rolling deploy, or a restart that is given an event
/// again) may both be given one interaction or DM. The second, with its own memory, finds
/// its id claimed in the shared database and drops it: `/race bots` and `/race deadline
/// extend` (keyed by their interaction ids) apply once, and a DM order is answered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_given_the_same_interaction_applies_it_once() {
    let mut h = Harness::start().await;
    let alice = User::new(301, "Alice");
    let bob = User::new(302, "Bob");
    h.open_lobby("dream-mile", "turn=1h", &alice, &[&bob], 0)
        .await;
    let race = h.referee().race_in(&CHANNEL.to_string()).await.unwrap();
    let bots = [("count", json!(1))];
    let id = h.fake.slash(&alice, CHANNEL, "bots", &bots);
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    h.settle().await;
    // The next process is given the same event.
    h.stop_bot().await;
    h.start_bot().await;
    h.fake.replay_slash(id, &alice, CHANNEL, "bots", &bots);
    h.settle().await;
    let seats = h.referee().overview(race).await.unwrap().seats.len();
    assert_eq!(seats, 3, "one bot added, not two");

    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    h.fake.wait_dm(alice.id, 2).await;
    h.settle().await;
    let due = |h: &Harness| {
        let r = h.referee();
        async move { r.overview(race).await.unwrap().deadline.unwrap() }
    };
    let before = due(&h).await;
    let extend = [("extend", json!("1h"))];
    let id = h.fake.slash(&alice, CHANNEL, "deadline", &extend);
    let a = h.fake.response(id).await;
    assert!(text_of(&a).contains("Deadline moved"), "{a}");
    assert_eq!(due(&h).await, before + 3_600_000);
    let dm = h.fake.dm(&bob, "5");
    let receipt = h.fake.wait_dm(bob.id, 3).await;
    assert!(text_of(&receipt).contains("Order received"), "{receipt}");
    h.settle().await;
    let dms = h.fake.dms_to(bob.id).len();

    h.stop_bot().await;
    h.start_bot().await;
    h.fake
        .replay_slash(id, &alice, CHANNEL, "deadline", &extend);
    h.fake.replay_dm(dm, &bob, "5");
    h.settle().await;
    assert_eq!(
        due(&h).await,
        before + 3_600_000,
        "extended once, not twice"
    );
    assert_eq!(h.fake.dms_to(bob.id).len(), dms, "the DM was answered once");
}

/// A command's reply that fails after its work committed is sent again, and never says
/// "nothing was changed; please try again" (following that advice would apply it twice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_that_fails_after_the_commit_never_says_nothing_changed() {
    let h = Harness::start().await;
    let alice = User::new(311, "Alice");
    let bob = User::new(312, "Bob");
    h.open_race("dream-mile", "turn=1h", &alice, &[&bob]).await;
    let race = h.referee().race_in(&CHANNEL.to_string()).await.unwrap();
    // The pause's answer meets a 500 once.
    h.fake
        .inject("POST", "/interactions/", Fault::Status(500), 1);
    let id = h.fake.slash(&alice, CHANNEL, "pause", &[]);
    let a = h.fake.response(id).await;
    let o = h.referee().overview(race).await.unwrap();
    assert!(o.paused_left_ms.is_some(), "the pause took");
    assert!(text_of(&a).contains("is paused"), "{a}");
    for r in h.fake.requests() {
        let body = r.body.to_string();
        assert!(
            !body.contains("nothing was changed"),
            "{} {}: {body}",
            r.method,
            r.path
        );
    }
}
