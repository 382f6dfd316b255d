//! The fake Discord checks every REST request against Discord's own OpenAPI document
//! (`tests/fixtures/discord-api-spec`). These tests send it requests by hand: a good one
//! is served, and an off-spec one is answered as Discord answers it (404 for a route
//! Discord does not have, 400 with code 50035 and the offending field in `errors` for a
//! body or query that does not fit) and recorded as refused.

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::discord::*;

/// One HTTP/1.1 request to the fake: its status and JSON body.
async fn send(fake: &FakeDiscord, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut stream = tokio::net::TcpStream::connect(fake.addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} /api/v10{path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        fake.addr,
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).to_string();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap();
    let json = answer
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_fits_the_spec_is_served() {
    let fake = FakeDiscord::start().await;
    let (status, m) = send(
        &fake,
        "POST",
        &format!("/channels/{CHANNEL}/messages"),
        Some(json!({"content": "hello", "flags": 0, "allowed_mentions": {"parse": []}})),
    )
    .await;
    assert_eq!(status, 200, "{m}");
    assert_eq!(m["content"], "hello");
    assert!(fake.refusals().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_field_of_the_wrong_type_is_refused_with_50035() {
    let fake = FakeDiscord::start().await;
    fake.expect_off_spec();
    let (status, err) = send(
        &fake,
        "POST",
        &format!("/channels/{CHANNEL}/messages"),
        Some(json!({"content": 5, "tts": "yes"})),
    )
    .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], 50035, "{err}");
    assert_eq!(err["message"], "Invalid Form Body");
    assert!(
        err["errors"]["content"]["_errors"][0]["message"].is_string(),
        "{err}"
    );
    assert!(
        err["errors"]["tts"]["_errors"][0]["message"].is_string(),
        "{err}"
    );
    // Nothing was posted, and the refusal is on record.
    assert!(fake.messages().is_empty());
    let refused = fake.refusals();
    assert_eq!(refused.len(), 1);
    assert!(refused[0].refused.as_deref().unwrap().starts_with("spec:"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_route_a_wrong_method_and_a_bad_query_are_refused() {
    let fake = FakeDiscord::start().await;
    fake.expect_off_spec();
    // A route Discord does not have: 404, as Discord answers it.
    let (status, err) = send(&fake, "POST", "/channels/1/no-such-thing", Some(json!({}))).await;
    assert_eq!((status, err["code"].as_i64()), (404, Some(0)), "{err}");
    // A route it has, with a method it does not take.
    let (status, _) = send(&fake, "PUT", &format!("/channels/{CHANNEL}/messages"), None).await;
    assert_eq!(status, 405);
    // A path parameter that is no snowflake, and a query parameter the route lacks.
    let (status, err) = send(
        &fake,
        "POST",
        "/channels/general/messages",
        Some(json!({"content": "x"})),
    )
    .await;
    assert_eq!((status, err["code"].as_i64()), (400, Some(50035)), "{err}");
    assert!(err["errors"]["channel_id"].is_object(), "{err}");
    let (status, err) = send(
        &fake,
        "POST",
        &format!("/channels/{CHANNEL}/messages?wait=maybe"),
        Some(json!({"content": "x"})),
    )
    .await;
    assert_eq!((status, err["code"].as_i64()), (400, Some(50035)), "{err}");
    assert!(err["errors"]["wait"].is_object(), "{err}");
    assert_eq!(fake.refusals().len(), 4);
}

/// The fake fails the test that sent an off-spec request, when the test ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_off_spec_request_fails_the_test_that_sent_it() {
    let fake = FakeDiscord::start().await;
    send(
        &fake,
        "POST",
        &format!("/channels/{CHANNEL}/messages"),
        Some(json!({"content": 5})),
    )
    .await;
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(fake)));
    let why = dropped.unwrap_err();
    let why = why.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(why.contains("do not fit Discord's spec"), "{why}");
}

/// A DM goes to the DM channel `POST /users/@me/channels` opened: a user's id is no
/// channel, and Discord answers 404 (10003, Unknown Channel) to a post there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_needs_its_dm_channel() {
    use poise::serenity_prelude as serenity;
    let h = Harness::start().await;
    let alice = User::new(3301, "Alice");
    // The bot answers a DM through the channel it opened.
    h.fake.dm(&alice, "help");
    let reply = h.fake.wait_dm(alice.id, 1).await;
    assert!(!text_of(&reply).is_empty(), "{reply}");

    let settings = h.fake.settings(&h.db());
    let http = photofinish::discord::http(&settings.discord).unwrap();
    let sent = serenity::ChannelId::new(alice.id).say(&http, "hello").await;
    match sent {
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))) => {
            assert_eq!(r.status_code.as_u16(), 404, "{r:?}");
            assert_eq!(r.error.code, 10003, "{r:?}");
        }
        other => panic!("a post to a user's id as a channel: {other:?}"),
    }
}
