//! End to end: the real serenity/poise client, driven through a fake Discord on loopback,
//! runs a whole GM-free Dream Mile race of six players, and every assertion is on the
//! requests the bot made.

use crate::support::discord::*;
use serde_json::{Value, json};

fn players() -> Vec<User> {
    ["Alice", "Bob", "Carol", "Dave", "Emily", "Frank"]
        .iter()
        .enumerate()
        .map(|(i, n)| User::new(101 + i as u64, n))
        .collect()
}

/// The hex inside the first backticks after `marker`.
fn code_after(text: &str, marker: &str) -> String {
    let rest = &text[text
        .find(marker)
        .unwrap_or_else(|| panic!("no `{marker}` in {text}"))..];
    let start = rest.find('`').unwrap() + 1;
    let end = start + rest[start..].find('`').unwrap();
    rest[start..end].to_string()
}

/// The one picture a channel post carries: a multipart upload of exactly one file, a PNG
/// that decodes, far under Discord's 10 MiB limit, shown by the post's embed
/// (`attachment://NAME`), with alt text. Returns its file name, width and alt text.
fn one_png(r: &Recorded) -> (String, u32, String) {
    assert_eq!(
        r.uploads.len(),
        1,
        "exactly one file in {} {}",
        r.method,
        r.path
    );
    let u = &r.uploads[0];
    assert_eq!(u.field, "files[0]", "a multipart file field");
    assert!(u.filename.ends_with(".png"), "{}", u.filename);
    assert!(
        u.bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{}: not a PNG signature",
        u.filename
    );
    assert!(
        u.bytes.len() < 10 * 1024 * 1024,
        "under Discord's upload limit"
    );
    assert!(
        u.bytes.len() < 200 * 1024,
        "{} is {} bytes",
        u.filename,
        u.bytes.len()
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(&u.bytes));
    let mut reader = decoder.read_info().expect("the PNG header decodes");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut pixels).expect("the PNG decodes");
    assert!(info.width >= 400 && info.height >= 100, "{info:?}");
    assert_eq!(
        r.body["embeds"][0]["image"]["url"],
        format!("attachment://{}", u.filename),
        "the embed shows the uploaded file"
    );
    let attached = r.body["attachments"]
        .as_array()
        .expect("payload_json lists the attachment");
    assert_eq!(attached.len(), 1);
    assert_eq!(attached[0]["filename"], u.filename.as_str());
    let alt = attached[0]["description"]
        .as_str()
        .expect("alt text")
        .to_string();
    (u.filename.clone(), info.width, alt)
}

fn channel_posts(h: &Harness) -> Vec<Recorded> {
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.is("POST", &format!("/channels/{CHANNEL}/messages")))
        .collect()
}

/// The whole race, step by step: each step waits for what it asserts, so the steps' order
/// is the order of events.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_gm_free_dream_mile_race_of_six() {
    let h = Harness::start().await;
    let p = players();
    h.fake.close_dms(p[5].id);
    let lobby = open_the_lobby(&h, &p).await;
    let commitment = start_the_race(&h, &p, &lobby).await;
    order_turn_one(&h, &p).await;
    remind_then_resolve_turn_one(&h, &p).await;
    let mut finished = None;
    for turn in 2..=7 {
        finished = play_a_whole_turn(&h, &p, turn).await;
    }
    let finished = finished.unwrap();
    check_the_result(&h, &p, &finished, &commitment).await;
    check_the_pictures(&h);
    dump_posts(&h, &p.iter().collect::<Vec<_>>());
    // Throughout: nothing broke Discord's limits, and every interaction was answered in time.
    assert_discord_was_happy(&h);
}

/// `/race new`, and everyone joins: by command or button; Frank's DMs are closed.
async fn open_the_lobby(h: &Harness, p: &[User]) -> Value {
    let (alice, bob, carol, dave, emily, frank) = (&p[0], &p[1], &p[2], &p[3], &p[4], &p[5]);
    // /race new: an ephemeral confirmation, and a lobby with Join / Leave in the channel.
    let answer = h
        .slash(
            alice,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("options", json!("turn=1h reminders=30m")),
            ],
        )
        .await;
    assert!(is_ephemeral(&answer));
    assert!(text_of(&answer).contains("race #1 is open"), "{answer}");
    let lobby = h
        .fake
        .wait_message("the lobby", |m| {
            in_channel(m) && custom_ids(m).contains(&"pf:join:1".to_string())
        })
        .await;
    assert!(text_of(&lobby).contains("lobby"));

    // Joins: by command (Alice, Dave with a name) and by button (the others).
    let a = h.slash(alice, "join", &[]).await;
    assert!(
        text_of(&a).contains("You're in race #1 as **Alice**"),
        "{a}"
    );
    for u in [bob, carol, emily] {
        let a = h.click(u, &lobby, "pf:join:1").await;
        assert!(is_ephemeral(&a));
        assert!(text_of(&a).contains(&format!("as **{}**", u.name)), "{a}");
        assert!(text_of(&a).contains("I'll DM you"), "{a}");
    }
    let a = h
        .slash(dave, "join", &[("name", json!("Dashing Dave"))])
        .await;
    assert!(text_of(&a).contains("as **Dashing Dave**"), "{a}");
    // Frank's DMs are closed: the preflight DM fails with 50007 and he is told, privately.
    let a = h.click(frank, &lobby, "pf:join:1").await;
    assert!(is_ephemeral(&a));
    assert!(text_of(&a).contains("I can't DM you"), "{a}");
    assert!(text_of(&a).contains("/race order"), "{a}");
    h.settle().await;
    // The lobby was edited in place, and lists all six.
    let lobbies: Vec<Value> = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|m| custom_ids(m).contains(&"pf:join:1".to_string()))
        .collect();
    assert_eq!(lobbies.len(), 1, "one lobby message, edited in place");
    let lobby_text = text_of(&lobbies[0]);
    for n in ["Alice", "Bob", "Carol", "Dashing Dave", "Emily", "Frank"] {
        assert!(lobby_text.contains(n), "{lobby_text}");
    }
    lobby
}

/// `/race start`: returns the seed's commitment, posted at the start.
async fn start_the_race(h: &Harness, p: &[User], lobby: &Value) -> String {
    let alice = &p[0];
    // Start: the seed's commitment is posted, the status message appears, prompts go out.
    let a = h.slash(alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    let started = h
        .fake
        .wait_message("the start post", |m| {
            in_channel(m) && text_of(m).contains("is off!")
        })
        .await;
    let commitment = code_after(&text_of(&started), "commitment is");
    assert_eq!(commitment.len(), 64);
    // The lobby follows the phase: no more invitation to join, and no buttons.
    h.settle().await;
    let lobby_now = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .find(|m| m["id"] == lobby["id"])
        .unwrap();
    let lt = text_of(&lobby_now);
    assert!(lt.contains("race #1: running"), "{lt}");
    assert!(lt.contains("The race is on with 6 runners"), "{lt}");
    assert!(!lt.contains("Join with the button"), "{lt}");
    assert!(custom_ids(&lobby_now).is_empty(), "{lobby_now}");
    let alice_prompt = h.fake.wait_dm(alice.id, 2).await;
    let t = text_of(&alice_prompt);
    assert!(t.contains("Turn 1 of 8"), "{t}");
    assert!(
        t.contains(":F>") && t.contains(":R>"),
        "deadline as Discord timestamps: {t}"
    );
    let ids = custom_ids(&alice_prompt);
    assert_eq!(
        ids.iter().filter(|id| !id.starts_with("pf:ap:")).count(),
        11,
        "a button for each legal speed, 0 to 10"
    );
    // ...and the autopilot button.
    assert_eq!(
        button(&alice_prompt, "Let the bot play for me"),
        "pf:ap:1:bot"
    );
    // Frank's prompt DM fails, and the channel is told how he can order.
    let notice = h
        .fake
        .wait_message("the closed-DM notice", |m| {
            in_channel(m) && text_of(m).contains("<@106>") && text_of(m).contains("/race order")
        })
        .await;
    assert_eq!(notice["content"], "<@106>");
    h.settle().await;
    commitment
}

/// Turn 1: orders by button, text, a change of mind, nonsense, and in the channel.
async fn order_turn_one(h: &Harness, p: &[User]) {
    let (alice, bob, carol, dave, frank) = (&p[0], &p[1], &p[2], &p[3], &p[5]);
    let alice_prompt = h.fake.wait_dm(alice.id, 2).await;
    // Turn 1. Alice presses 7 in her DM; the prompt is updated with her receipt.
    let a = h
        .click(alice, &alice_prompt, &button(&alice_prompt, "7"))
        .await;
    // The prompt is updated in place: at once (7), or, if the work outlasts the bot's
    // grace on a slow machine, deferred (6) and then edited.
    assert!(a["type"] == 7 || a["type"] == 6, "{a}");
    let updated = h
        .fake
        .messages()
        .into_iter()
        .find(|m| m["id"] == alice_prompt["id"])
        .unwrap();
    assert!(text_of(&updated).contains("Order received"), "{updated}");
    let t = text_of(&a);
    assert!(
        t.contains("Order received") && t.contains("`7`") && t.contains("Receipt"),
        "{t}"
    );
    // Bob replies in text.
    h.fake.dm(bob, "5");
    let r = h.fake.wait_dm(bob.id, 3).await;
    assert!(
        text_of(&r).contains("Order received for Turn 1 of 8: `5`"),
        "{r}"
    );
    // Carol presses 3, then changes her mind by text.
    let carol_prompt = h.fake.wait_dm(carol.id, 2).await;
    let a = h
        .click(carol, &carol_prompt, &button(&carol_prompt, "3"))
        .await;
    assert!(text_of(&a).contains("Order received"), "{a}");
    h.fake.dm(carol, "4");
    let r = h.fake.wait_dm(carol.id, 3).await;
    assert!(
        text_of(&r).contains("Order changed for Turn 1 of 8: `4`"),
        "{r}"
    );
    // Dave types nonsense: the engine's error, and the prompt again; then a real order.
    h.fake.dm(dave, "fast");
    let r = h.fake.wait_dm(dave.id, 3).await;
    assert!(r["content"].as_str().unwrap().contains("fast"), "{r}");
    assert_eq!(
        custom_ids(&r)
            .iter()
            .filter(|id| !id.starts_with("pf:ap:"))
            .count(),
        11,
        "re-prompted with buttons"
    );
    h.fake.dm(dave, "12");
    let r = h.fake.wait_dm(dave.id, 4).await;
    assert!(
        !text_of(&r).contains("Order received"),
        "12 is over his maximum: {r}"
    );
    h.fake.dm(dave, "6");
    let r = h.fake.wait_dm(dave.id, 5).await;
    assert!(text_of(&r).contains("`6`"), "{r}");
    // Frank orders in the channel, seen only by him.
    let form = h.slash(frank, "order", &[]).await;
    assert!(is_ephemeral(&form));
    assert!(text_of(&form).contains("Turn 1 of 8"), "{form}");
    let form_msg = h
        .fake
        .wait_message("Frank's order form", |m| {
            in_channel(m) && text_of(m).contains("Frank to order")
        })
        .await;
    let a = h.click(frank, &form_msg, &button(&form_msg, "5")).await;
    assert!(text_of(&a).contains("Order received"), "{a}");
    // Emily forgets. The status message shows who is in, never what.
    h.settle().await;
    let status = h
        .fake
        .wait_message("the status message", |m| {
            in_channel(m) && text_of(m).contains("✓ Alice")
        })
        .await;
    let st = text_of(&status);
    assert!(st.contains("… Emily") && st.contains("✓ Frank"), "{st}");
}

/// Half an hour before the deadline only Emily, who has not ordered, is reminded; at the
/// deadline her missed order is played for her.
async fn remind_then_resolve_turn_one(h: &Harness, p: &[User]) {
    let emily = &p[4];
    // Reminders: half an hour before the deadline, only Emily is reminded.
    let dms_before: Vec<usize> = p.iter().map(|u| h.fake.dms_to(u.id).len()).collect();
    h.advance(31 * 60);
    let reminder = h.fake.wait_dm(emily.id, dms_before[4] + 1).await;
    assert!(text_of(&reminder).contains("Reminder"), "{reminder}");
    h.settle().await;
    for (i, u) in p.iter().enumerate().take(4) {
        assert_eq!(
            h.fake.dms_to(u.id).len(),
            dms_before[i],
            "{} was not reminded",
            u.name
        );
    }

    // The deadline passes: the turn resolves with Emily's missed order played for her.
    h.advance(30 * 60);
    let turn1 = h
        .fake
        .wait_message("turn 1's result", |m| {
            in_channel(m)
                && text_of(m).contains("race #1: Turn 1 of 8")
                && text_of(m).contains("Orders and receipts")
        })
        .await;
    let t = text_of(&turn1);
    assert!(
        t.contains("Missed orders: Emily: ") && t.contains("(played for them)"),
        "{t}"
    );
    assert!(t.contains("```"), "a text track: {t}");
    assert!(
        t.contains("Alice `7`") && t.contains("Carol `4`"),
        "orders revealed: {t}"
    );
    assert!(t.contains(":R>"), "the next deadline: {t}");
    assert!(!t.contains("(Resolved late"), "{t}");
    h.settle().await;
}

/// Turns 2 to 7: everyone orders; the last order (Frank's, in the channel) resolves the
/// turn, and resolving costs one channel post, one status edit and one DM per seat.
/// Returns the final result after turn 7.
async fn play_a_whole_turn(h: &Harness, p: &[User], turn: u32) -> Option<Value> {
    let (alice, bob, carol, dave, emily, frank) = (&p[0], &p[1], &p[2], &p[3], &p[4], &p[5]);
    for u in [alice, bob, carol, dave, emily] {
        let n = h.fake.dms_to(u.id).len();
        h.fake.dm(u, "3");
        let r = h.fake.wait_dm(u.id, n + 1).await;
        assert!(
            text_of(&r).contains("Order received"),
            "turn {turn} {}: {r}",
            u.name
        );
    }
    h.settle().await;
    let before = h.fake.request_count();
    let a = h.slash(frank, "order", &[("text", json!("2"))]).await;
    assert!(text_of(&a).contains("Order received"), "{a}");
    // Wait for the turn's post, then for the bot to fall quiet, before counting.
    let title = format!("race #1: Turn {turn} of 8");
    h.fake
        .wait_message(&format!("turn {turn}'s result"), |m| {
            in_channel(m)
                && text_of(m).contains(&title)
                && text_of(m).contains("Orders and receipts")
        })
        .await;
    if turn < 7 {
        let next = format!("Turn {} of 8, Alice to order", turn + 1);
        h.fake
            .wait_message("the next prompt", |m| text_of(m).contains(&next))
            .await;
    }
    h.settle().await;
    let after: Vec<Recorded> = h.fake.requests()[before..].to_vec();
    let TurnRequests {
        channel_posts,
        status_edits,
        dm_posts,
        others,
    } = TurnRequests::of(&after);
    // The turn's post is one multipart request: the embeds and the track's PNG.
    let turn_post = after
        .iter()
        .find(|r| {
            r.is("POST", &format!("/channels/{CHANNEL}/messages"))
                && text_of(&r.body).contains(&title)
        })
        .unwrap();
    let (name, _, alt) = one_png(turn_post);
    assert_eq!(name, format!("race-1-turn-{turn}-of-8.png"));
    assert!(alt.contains("Alice") && alt.contains("Frank"), "{alt}");
    assert!(
        text_of(&turn_post.body).contains("```"),
        "the text track stays beside the picture"
    );
    if turn < 7 {
        assert_eq!(channel_posts, 1, "turn {turn}: one channel post");
        assert_eq!(status_edits, 1, "turn {turn}: one status edit");
        assert_eq!(dm_posts, 6, "turn {turn}: one DM per seat that must act");
        assert!(others.is_empty(), "turn {turn}: nothing else: {others:?}");
    } else {
        // The last turn also plays the automatic final turn and posts the result.
        assert_eq!(channel_posts, 2, "turn 7: the turn and the final result");
        assert_eq!(dm_posts, 0, "nobody is asked anything after the end");
        return Some(
            h.fake
                .wait_message("the final result", |m| {
                    in_channel(m) && text_of(m).contains("race #1: final result")
                })
                .await,
        );
    }
    None
}

/// What the bot asked of Discord while a turn resolved.
struct TurnRequests {
    channel_posts: usize,
    status_edits: usize,
    dm_posts: usize,
    /// Anything but messages and interaction answers.
    others: Vec<String>,
}

impl TurnRequests {
    fn of(after: &[Recorded]) -> TurnRequests {
        let channel_posts = after
            .iter()
            .filter(|r| r.is("POST", &format!("/channels/{CHANNEL}/messages")))
            .count();
        let status_edits = after
            .iter()
            .filter(|r| r.is("PATCH", &format!("/channels/{CHANNEL}/messages/")))
            .count();
        let dm_posts = after
            .iter()
            .filter(|r| {
                r.method == "POST"
                    && r.path.starts_with("/channels/")
                    && !r.path.starts_with(&format!("/channels/{CHANNEL}/"))
            })
            .count();
        let others: Vec<String> = after
            .iter()
            // Answers to interactions aside: on a slow machine an answer is deferred, then
            // finished through the interaction's webhook.
            .filter(|r| !r.path.starts_with("/channels/") && !answers_an_interaction(r))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        TurnRequests {
            channel_posts,
            status_edits,
            dm_posts,
            others,
        }
    }
}

/// The result, and the seed revealed: its SHA-256 is the commitment posted at the start.
async fn check_the_result(h: &Harness, p: &[User], finished: &Value, commitment: &str) {
    let bob = &p[1];
    let t = text_of(finished);
    assert!(t.contains("Result:") && t.contains("1st"), "{t}");
    let seed = code_after(&t, "Seed");
    let seed_value = photofinish::engine::Seed::from_hex(&seed).unwrap();
    assert!(photofinish::engine::commitment_matches(
        &seed_value,
        commitment
    ));
    // No post before the end holds the seed.
    for m in h.fake.messages() {
        if m["id"] != finished["id"] {
            assert!(!text_of(&m).contains(&seed), "the seed leaked early: {m}");
        }
    }
    let v = h.slash(bob, "verify", &[]).await;
    assert!(text_of(&v).contains("Verified"), "{v}");
    let hist = h.slash(bob, "history", &[("turn", json!(1))]).await;
    assert!(text_of(&hist).contains("Emily"), "{hist}");
}

/// Every turn's post and the final result carry exactly one PNG (the final result's is
/// the race chart); nothing else in the channel carries a file.
fn check_the_pictures(h: &Harness) {
    let mut pictures = Vec::new();
    for r in channel_posts(h) {
        let t = text_of(&r.body);
        if t.contains("race #1: Turn") && t.contains("Orders and receipts") {
            pictures.push(one_png(&r).0);
        } else if t.contains("race #1: final result") {
            // The chart, and the race's animation beside it.
            let mut chart = r.clone();
            let gif = chart.uploads.pop().expect("the animation");
            assert_eq!(gif.filename, "race-1-replay.gif");
            assert!(gif.bytes.starts_with(b"GIF89a"));
            chart.body["attachments"]
                .as_array_mut()
                .unwrap()
                .truncate(1);
            let (name, _, alt) = one_png(&chart);
            assert_eq!(name, "race-1-chart.png");
            assert!(alt.starts_with("Race chart"), "{alt}");
            pictures.push(name);
        } else {
            assert!(r.uploads.is_empty(), "no file on {t}");
        }
    }
    let expected: Vec<String> = (1..=7)
        .map(|t| format!("race-1-turn-{t}-of-8.png"))
        .chain(["race-1-chart.png".to_string()])
        .collect();
    assert_eq!(
        pictures, expected,
        "one picture per turn post, and the chart"
    );
    // The messages as Discord keeps them: each with its one attachment.
    let attached: Vec<Value> = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|m| m["attachments"].as_array().is_some_and(|a| !a.is_empty()))
        .collect();
    assert_eq!(attached.len(), 8);
    for m in &attached {
        // The final result has two: the chart and the animation.
        let n = if text_of(m).contains("race #1: final result") {
            2
        } else {
            1
        };
        assert_eq!(m["attachments"].as_array().unwrap().len(), n, "{m}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_post_whose_answer_is_lost_is_posted_once_with_its_picture() {
    let h = Harness::start().await;
    let alice = User::new(301, "Alice");
    let a = h
        .slash(
            &alice,
            "new",
            &[
                ("game", json!("dream-mile")),
                ("options", json!("turn=1h resolve=deadline")),
            ],
        )
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let a = h.slash(&alice, "join", &[]).await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let a = h.slash(&alice, "bots", &[("count", json!(1))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    h.slash(&alice, "start", &[]).await;
    h.fake.wait_dm(alice.id, 2).await;
    h.settle().await;

    // Discord creates the turn's post but the answer is lost: the retry finds it in the
    // channel's history by its outbox id and does not send it again.
    let n = h.fake.dms_to(alice.id).len();
    h.fake.dm(&alice, "5");
    h.fake.wait_dm(alice.id, n + 1).await;
    h.settle().await;
    h.fake.lose_next_answers(1);
    h.advance(3600);
    h.settle().await;
    h.advance(2);
    h.settle().await;
    h.advance(4);
    h.settle().await;
    let title = "race #1: Turn 1 of 8";
    let tries: Vec<Recorded> = channel_posts(&h)
        .into_iter()
        .filter(|r| {
            text_of(&r.body).contains(title) && text_of(&r.body).contains("Orders and receipts")
        })
        .collect();
    let seen: Vec<(u16, String)> = tries
        .iter()
        .map(|r| (r.status, text_of(&r.body).chars().take(80).collect()))
        .collect();
    assert_eq!(
        tries.len(),
        1,
        "sent once, then found in the history: {seen:#?}"
    );
    assert_eq!(tries[0].status, 500);
    assert_eq!(tries[0].body["enforce_nonce"], true);
    let first = one_png(&tries[0]);
    let shown: Vec<Value> = h
        .fake
        .messages_in(CHANNEL)
        .into_iter()
        .filter(|m| text_of(m).contains(title) && text_of(m).contains("Orders and receipts"))
        .collect();
    assert_eq!(shown.len(), 1, "posted once");
    assert_eq!(shown[0]["attachments"].as_array().unwrap().len(), 1);
    assert_eq!(shown[0]["attachments"][0]["filename"], first.0.as_str());
}
