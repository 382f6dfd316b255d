//! No Discord request waits for ever (docs/reliability.md, "No request waits for ever"):
//! against a fake Discord that accepts requests and never answers them, the bot starts,
//! holds its deadlines, delivers once Discord answers, and a post left unanswered is
//! looked for before it goes again. The bot's REST timeout is one second here, so the
//! tests wait on events (requests, messages, the store), never on the timeout's length.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::discord::*;

const OTHER_CHANNEL: u64 = 600_000_000_000_000_002;
const REST_TIMEOUT: Duration = Duration::from_secs(1);

/// Polls `f` until it holds, failing the test after [`PATIENCE`] rather than hanging it.
async fn eventually<F, Fut>(what: &str, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + PATIENCE;
    while !f().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The outbox marker of a message (`ref 123` in its first embed's footer).
fn marker(m: &Value) -> Option<String> {
    let footer = m["embeds"][0]["footer"]["text"].as_str()?;
    let at = footer.rfind("ref ")?;
    Some(footer[at..].to_string())
}

/// No outbox row made two messages.
fn each_posted_once(h: &Harness) {
    let mut seen = std::collections::HashMap::new();
    for m in h.fake.messages() {
        if let Some(tag) = marker(&m) {
            *seen.entry(tag).or_insert(0) += 1;
        }
    }
    let twice: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "posted more than once: {twice:?}");
    assert!(
        h.fake.nonce_repeats().is_empty(),
        "created again under a nonce already seen: {:?}",
        h.fake.nonce_repeats()
    );
}

/// Probes (`GET /users/@me`) the fake left unanswered.
fn probes(h: &Harness) -> usize {
    h.fake
        .hung()
        .iter()
        .filter(|(_, path, _)| path == "/users/@me")
        .count()
}

/// A slash command in the other race's channel, and its answer.
async fn in_other(h: &Harness, user: &User, sub: &str, options: &[(&str, Value)]) -> Value {
    let id = h.fake.slash(user, OTHER_CHANNEL, sub, options);
    h.fake.response(id).await
}

/// What this process last reported for `health`: (gateway state, detail).
async fn reported(h: &Harness) -> Option<(String, String)> {
    let beats = h.referee().store().heartbeats().await.ok()?;
    let me = photofinish::store::default_instance();
    beats
        .into_iter()
        .find(|b| b.instance == me)
        .map(|b| (b.gateway, b.detail))
}

/// The bot is restarted while Discord takes every REST request and answers none (its
/// `GET /gateway` included), an hour before a turn's deadline. The start returns
/// regardless, `health` says why the gateway waits, and the deadline that falls due in
/// the silence is held as in an outage. When Discord answers, the bot connects, the
/// channel is told once, and the turn resolves once at its held deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_started_against_a_silent_discord_fires_its_deadline_once_it_answers() {
    let mut h = Harness::start_with_rest_timeout(REST_TIMEOUT).await;
    let alice = User::new(4101, "Alice");
    let bob = User::new(4102, "Bob");
    h.open_race("dream-mile", "turn=1h resolve=deadline", &alice, &[&bob])
        .await;
    let race = h.referee().race_in(&CHANNEL.to_string()).await.unwrap();
    let due = h.referee().overview(race).await.unwrap().deadline.unwrap();
    let label = |h: &Harness| {
        let r = h.referee();
        async move { r.overview(race).await.unwrap().label }
    };
    let first = label(&h).await;
    // A restart within the outage threshold: the bot's own downtime holds nothing.
    h.stop_bot().await;

    // Discord goes silent; the bot starts anyway.
    h.fake.hang(Hang::Rest);
    let identifies = h.fake.identifies();
    let posted_before = h.fake.messages().len();
    h.launch_bot().await;
    h.fake.wait_hung(1).await;
    let hung = h.fake.hung();
    assert_eq!(
        (hung[0].0.as_str(), hung[0].1.as_str()),
        ("GET", "/gateway"),
        "the start asked for the gateway first: {hung:?}"
    );
    // health names the cause while the gateway waits.
    eventually("health to say why the gateway waits", || async {
        reported(&h).await.is_some_and(|(state, detail)| {
            state == "connecting" && detail.contains("did not answer when asked for")
        })
    })
    .await;

    // Silence for longer than the outage threshold: held. Then the deadline falls due in
    // it, and two more probes (so a whole tick after it) go unanswered: not fired.
    h.advance(20 * 60);
    eventually("the outage hold", || async { h.referee().reach().held() }).await;
    h.advance(50 * 60);
    assert!(h.clock.now_ms() > due, "past the deadline");
    let asked = probes(&h);
    eventually("two more unanswered probes", || async {
        probes(&h) >= asked + 2
    })
    .await;
    assert_eq!(label(&h).await, first, "no deadline fired in the silence");
    assert_eq!(h.fake.messages().len(), posted_before, "nothing landed");
    assert_eq!(
        h.fake.identifies(),
        identifies,
        "no gateway without its address"
    );

    // Discord answers again: the bot connects, the outage ends, the channel is told once.
    h.fake.hang(Hang::Off);
    h.wait_connected(identifies).await;
    let notice = |m: &Value| in_channel(m) && text_of(m).contains("Discord could not be reached");
    for _ in 0..3 {
        h.advance(60);
        h.settle().await;
    }
    let told: Vec<Value> = h.fake.messages().into_iter().filter(notice).collect();
    assert_eq!(told.len(), 1, "one notice");
    // Silent from the start (at the deadline less an hour) to the first answer.
    assert!(
        text_of(&told[0]).contains("could not be reached for about 7"),
        "about 70 minutes: {}",
        text_of(&told[0])
    );
    let held = h.referee().overview(race).await.unwrap().deadline.unwrap();
    assert!(
        held > h.clock.now_ms(),
        "the deadline moved on by the silence"
    );
    assert_eq!(label(&h).await, first);

    // The held deadline fires, once.
    h.advance((held - h.clock.now_ms()) / 1000 + 1);
    h.settle().await;
    h.advance(60);
    h.settle().await;
    assert_ne!(label(&h).await, first, "the held deadline fired");
    let resolved = |m: &Value| {
        in_channel(m) && text_of(m).contains("Turn 1 of 8") && text_of(m).contains("Missed orders")
    };
    let messages = h.fake.messages();
    let turn: Vec<usize> = (0..messages.len())
        .filter(|i| resolved(&messages[*i]))
        .collect();
    assert_eq!(turn.len(), 1, "turn 1 resolved once");
    let told_at = messages.iter().position(notice).unwrap();
    assert!(
        told_at < turn[0],
        "told of the hold before the turn resolved"
    );
    assert_eq!(
        messages.iter().filter(|m| notice(m)).count(),
        1,
        "told once"
    );
    each_posted_once(&h);
}

/// A post in one race's channel is created, and its answer never comes. The request
/// times out, so delivery moves on: another race's post lands while the first is still
/// unanswered. When the first is tried again (after Discord has forgotten its nonce) it
/// is found in the channel's history and not posted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_whose_answer_never_comes_lands_once_and_another_race_still_posts() {
    let h = Harness::start_with_rest_timeout(REST_TIMEOUT).await;
    let alice = User::new(4201, "Alice");
    let bob = User::new(4202, "Bob");
    h.open_lobby("dream-mile", "", &alice, &[], 1).await;
    let a = h.slash(&alice, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    let a = in_other(&h, &bob, "new", &[("game", json!("dream-mile"))]).await;
    assert!(text_of(&a).contains("is open"), "{a}");
    let a = in_other(&h, &bob, "join", &[]).await;
    assert!(text_of(&a).contains("You're in"), "{a}");
    let a = in_other(&h, &bob, "bots", &[("count", json!(1))]).await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = in_other(&h, &bob, "start", &[]).await;
    assert!(text_of(&a).contains("is off"), "{a}");
    h.settle().await;

    let paused = |m: &Value, channel: u64| {
        m["channel_id"] == channel.to_string().as_str() && text_of(m).contains("race is paused")
    };
    let pause_posts = |h: &Harness, channel: u64| {
        h.fake
            .requests()
            .into_iter()
            .filter(|r| {
                r.is("POST", &format!("/channels/{channel}/messages"))
                    && text_of(&r.body).contains("race is paused")
            })
            .count()
    };

    // The first race's pause post is created; its answer never comes.
    h.fake.hang(Hang::PostsIn(CHANNEL));
    let a = h.slash(&alice, "pause", &[]).await;
    assert!(text_of(&a).contains("paused"), "{a}");
    h.fake.wait_hung(1).await;
    let (_, path, hung_at) = h.fake.hung()[0].clone();
    assert_eq!(path, format!("/channels/{CHANNEL}/messages"));

    // The other race's post still lands, while the first is still unanswered.
    let a = in_other(&h, &bob, "pause", &[]).await;
    assert!(text_of(&a).contains("paused"), "{a}");
    h.fake
        .wait_message("the other race's pause post", |m| paused(m, OTHER_CHANNEL))
        .await;
    assert_eq!(h.fake.hung().len(), 1, "the first post is still unanswered");
    assert_eq!(pause_posts(&h, CHANNEL), 1, "not posted again yet");

    // Discord forgets the nonce, answers again, and the retry comes due.
    h.fake.advance(NONCE_WINDOW + Duration::from_secs(60));
    h.fake.hang(Hang::Off);
    for _ in 0..3 {
        h.advance(5);
        h.settle().await;
    }
    let shown = h
        .fake
        .messages()
        .iter()
        .filter(|m| paused(m, CHANNEL))
        .count();
    assert_eq!(shown, 1, "the unanswered post is shown once");
    assert_eq!(pause_posts(&h, CHANNEL), 1, "found, not posted again");
    let looked = h.fake.requests()[hung_at..]
        .iter()
        .any(|r| r.is("GET", &format!("/channels/{CHANNEL}/messages")));
    assert!(looked, "the retry looked in the channel's history");
    let other_shown = h
        .fake
        .messages()
        .iter()
        .filter(|m| paused(m, OTHER_CHANNEL))
        .count();
    assert_eq!(other_shown, 1);
    each_posted_once(&h);
}
