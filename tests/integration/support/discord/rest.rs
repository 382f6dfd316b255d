//! The fake's REST API (under `/api/v10`): commands, interaction callbacks and webhooks,
//! DM channels, messages (posted, edited, with uploads), threads. Each request is answered
//! and recorded under one lock, so a test that sees an answer also sees its request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State as AxState};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::limits::{before_answer, check_message, limit_headers};
use super::spec;
use super::state::{Inner, Interaction, Shared};
use super::{APP_ID, BOT_ID, CHANNEL, COMMAND_ID, GUILD_ID, Recorded, Upload, now_iso};

/// Discord's window for an interaction's first answer.
pub const INTERACTION_WINDOW: Duration = Duration::from_secs(3);
/// How long an interaction's token lasts for follow-ups and edits: 15 minutes.
pub const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60);
/// How long Discord remembers a message's nonce for `enforce_nonce`: a few minutes.
pub const NONCE_WINDOW: Duration = Duration::from_secs(5 * 60);
/// Messages a history request returns unless it asks for a number (Discord's default).
const HISTORY_DEFAULT: usize = 50;

/// A thread's auto-archive duration (the fake's threads are made with 1440 minutes).
pub const THREAD_ARCHIVE: Duration = Duration::from_secs(24 * 3600);

/// A response, its status, and why the fake refused it (if it did).
pub(super) type Answered = (Response, u16, Option<String>);

pub(super) fn error(status: StatusCode, code: i64, message: &str) -> Response {
    (
        status,
        axum::Json(json!({"code": code, "message": message})),
    )
        .into_response()
}

fn ok_json(v: Value) -> Answered {
    (axum::Json(v).into_response(), 200, None)
}

fn refuse(status: StatusCode, code: i64, why: &str) -> Answered {
    (
        error(status, code, why),
        status.as_u16(),
        Some(why.to_string()),
    )
}

/// Discord's answer to a request that does not fit its spec.
fn spec_refusal(invalid: &spec::Invalid) -> Answered {
    let status = StatusCode::from_u16(invalid.status).unwrap_or(StatusCode::BAD_REQUEST);
    (
        (status, axum::Json(invalid.body())).into_response(),
        invalid.status,
        Some(invalid.summary()),
    )
}

fn message_object(id: u64, channel: u64, body: &Value, author: Value) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": author,
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "timestamp": now_iso(),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds").cloned().unwrap_or(json!([])),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
        "nonce": body.get("nonce").cloned().unwrap_or(Value::Null),
        "pinned": false,
        "type": 0,
    })
}

/// An ephemeral reply to a slash command as Discord delivers it with a component
/// interaction on it: the whole message object, flags 64 (EPHEMERAL), type 20 (a reply
/// to a command). `answer` is the interaction's answer as the fake recorded it.
pub fn ephemeral_reply(answer: &Value, channel: u64, id: u64) -> Value {
    let mut m = message_object(id, channel, &answer["data"], bot_author());
    m["flags"] = json!(64);
    m["type"] = json!(20);
    m
}

fn bot_author() -> Value {
    json!({"id": BOT_ID.to_string(), "username": "photofinish", "discriminator": "0",
           "avatar": null, "bot": true, "global_name": null})
}

/// The JSON body, or a multipart form's `payload_json` and files.
async fn read_body(req: Request, shared: &Arc<Shared>) -> (Value, Vec<Upload>) {
    let is_multipart = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if is_multipart {
        let mut body = Value::Null;
        let mut files = Vec::new();
        if let Ok(mut form) = Multipart::from_request(req, shared).await {
            while let Ok(Some(field)) = form.next_field().await {
                let name = field.name().unwrap_or("").to_string();
                let file = field.file_name().map(String::from);
                let content_type = field.content_type().map(String::from);
                let bytes = field.bytes().await.unwrap_or_default();
                if name == "payload_json" {
                    body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                } else {
                    files.push(Upload {
                        field: name,
                        filename: file.unwrap_or_default(),
                        content_type,
                        bytes: bytes.to_vec(),
                    });
                }
            }
        }
        return (body, files);
    }
    let bytes: Bytes = axum::body::to_bytes(req.into_body(), 8 << 20)
        .await
        .unwrap_or_default();
    (
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        Vec::new(),
    )
}

pub(super) async fn rest(AxState(shared): AxState<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req
        .uri()
        .path()
        .trim_start_matches("/api/v10")
        .trim_start_matches("/api/v9")
        .to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let (body, uploads) = read_body(req, &shared).await;
    if method == Method::POST
        && path.starts_with("/channels/")
        && path.ends_with("/messages")
        && *shared.stall.borrow()
    {
        let mut stall = shared.stall.subscribe();
        shared
            .stalled
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        shared.changed.notify_waiters();
        let _ = stall.wait_for(|on| !*on).await;
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            0,
            "503: stalled, then refused",
        );
    }
    let hang = *shared.hang.borrow();
    if hang == super::Hang::Rest {
        // Accepted, never acted on nor answered while the hang lasts.
        let seen = shared.inner.lock().unwrap().requests.len();
        hung(&shared, method.as_str(), &path, seen);
        let mut off = shared.hang.subscribe();
        let _ = off.wait_for(|h| *h != super::Hang::Rest).await;
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            0,
            "503: hung, then refused",
        );
    }
    let withheld = matches!(hang, super::Hang::PostsIn(c)
        if method == Method::POST && path == format!("/channels/{c}/messages"));
    let withheld = withheld.then(|| path.clone());
    let files: Vec<(String, String, usize)> = uploads
        .iter()
        .map(|u| (u.field.clone(), u.filename.clone(), u.bytes.len()))
        .collect();
    let addr = shared.addr.lock().unwrap().unwrap();
    let response = {
        // One lock for the answer and its record: whoever sees the one sees the other.
        let mut inner = shared.inner.lock().unwrap();
        let checked = spec::check(method.as_str(), &path, &query, &body);
        let (mut response, status, refused) = match checked {
            Err(invalid) => spec_refusal(&invalid),
            Ok(()) if inner.rest_down => (
                error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    0,
                    "503: Service Unavailable",
                ),
                503,
                Some("asked: Discord is down".into()),
            ),
            Ok(()) => match before_answer(&mut inner, &method, &path) {
                Some(early) => early,
                None => {
                    let call = Call {
                        shared: &shared,
                        addr,
                        body: &body,
                        query: &query,
                        files: &files,
                    };
                    call.answer(&mut inner, &method, &path)
                }
            },
        };
        limit_headers(&inner, &method, &path, &mut response);
        note_dm_answer(
            &mut inner,
            &method,
            &path,
            &body,
            status,
            refused.as_deref(),
        );
        inner.requests.push(Recorded {
            at: Instant::now(),
            method: method.to_string(),
            path,
            body,
            files,
            uploads,
            status,
            refused,
        });
        response
    };
    shared.changed.notify_waiters();
    if let Some(path) = withheld {
        // Created, and the answer never sent while the hang lasts.
        let seen = shared.inner.lock().unwrap().requests.len();
        hung(&shared, method.as_str(), &path, seen);
        let mut off = shared.hang.subscribe();
        let _ = off.wait_for(|h| *h != hang).await;
    }
    response
}

/// How many times the bot tries to answer a DM (`discord::handlers::dm_text`).
const DM_ANSWER_TRIES: u8 = 3;

/// Follows the bot's answers to users' DMs: one whose try failed in a way the bot retries
/// (429, 5xx, an answer that is not JSON) is still in flight until it lands or the bot's
/// tries run out.
fn note_dm_answer(
    inner: &mut Inner,
    method: &Method,
    path: &str,
    body: &Value,
    status: u16,
    refused: Option<&str>,
) {
    if *method != Method::POST {
        return;
    }
    let Some(channel) = path
        .strip_prefix("/channels/")
        .and_then(|p| p.strip_suffix("/messages"))
        .and_then(|c| c.parse::<u64>().ok())
    else {
        return;
    };
    let nonce = match &body["nonce"] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return,
    };
    if !nonce
        .parse::<u64>()
        .is_ok_and(|id| inner.user_dm_ids.contains(&id))
    {
        return;
    }
    let key = (channel, nonce);
    let clean = status == 200 && refused.is_none();
    let retried = status == 429 || status >= 500 || (status == 200 && !clean);
    let tries = inner.dm_answers_retrying.remove(&key).unwrap_or(0) + 1;
    if !clean && retried && tries < DM_ANSWER_TRIES {
        inner.dm_answers_retrying.insert(key, tries);
    }
}

/// Records a request left unanswered.
fn hung(shared: &Shared, method: &str, path: &str, seen: usize) {
    shared
        .hung
        .lock()
        .unwrap()
        .push((method.to_string(), path.to_string(), seen));
    shared.changed.notify_waiters();
}

/// One REST request being answered.
struct Call<'a> {
    shared: &'a Shared,
    addr: SocketAddr,
    body: &'a Value,
    /// The query string, without its `?`.
    query: &'a str,
    /// Uploaded files: (form field, file name, size).
    files: &'a [(String, String, usize)],
}

impl Call<'_> {
    fn answer(&self, inner: &mut Inner, method: &Method, path: &str) -> Answered {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let addr = self.addr;
        if let ["channels", channel, ..] = parts.as_slice()
            && channel
                .parse::<u64>()
                .is_ok_and(|c| inner.deleted_channels.contains(&c))
        {
            return refuse(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
        }
        // A user's id is not their DM channel, as on Discord.
        if let ["channels", channel, ..] = parts.as_slice()
            && channel
                .parse::<u64>()
                .is_ok_and(|c| inner.users.contains(&c) && !inner.recipient_of.contains_key(&c))
        {
            return refuse(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
        }
        if let ["channels", channel, ..] = parts.as_slice()
            && let Ok(c) = channel.parse::<u64>()
            && let Some(early) = self.archived_thread(inner, method.as_str(), c, parts.len())
        {
            return early;
        }
        match (method.as_str(), parts.as_slice()) {
            ("GET", ["gateway", "bot"] | ["gateway"]) => ok_json(json!({
                "url": format!("ws://{addr}/gateway"),
                "shards": inner.sharding.recommended.unwrap_or(1),
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
            })),
            ("GET", ["users", "@me"]) => ok_json(bot_author()),
            (
                "PUT",
                ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"],
            ) => self.register_commands(),
            ("POST", ["interactions", id, token, "callback"]) => self.callback(inner, id, token),
            (m, ["webhooks", _, token, "messages", which]) => {
                self.webhook_message(inner, m, token, which)
            }
            ("POST", ["webhooks", _, token]) => self.follow_up(inner, token),
            ("POST", ["users", "@me", "channels"]) => self.open_dm(inner),
            ("POST", ["channels", channel, "messages"]) => self.post_message(inner, channel),
            ("GET", ["channels", channel, "messages"]) => self.history(inner, channel),
            ("PATCH", ["channels", _, "messages", mid]) => self.edit_message(inner, mid),
            ("POST", ["channels", parent, "threads"]) => self.thread(inner, parent),
            _ => refuse(StatusCode::NOT_FOUND, 0, "not served by the fake"),
        }
    }

    fn register_commands(&self) -> Answered {
        let list: Vec<Value> = self
            .body
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|mut c| {
                c["id"] = json!(COMMAND_ID.to_string());
                c["application_id"] = json!(APP_ID.to_string());
                c["version"] = json!("1");
                if c.get("type").is_none() {
                    c["type"] = json!(1);
                }
                // Discord answers every command with a description: "" for context menus,
                // which are sent without one (serenity refuses an answer lacking it).
                if c.get("description").is_none() {
                    c["description"] = json!("");
                }
                c
            })
            .collect();
        ok_json(Value::Array(list))
    }

    /// An interaction's first answer: once only, and within [`INTERACTION_WINDOW`] on the
    /// fake's clock.
    fn callback(&self, inner: &mut Inner, id: &str, token: &str) -> Answered {
        let body = self.body;
        let Ok(id) = id.parse::<u64>() else {
            return refuse(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
        };
        if let Err(why) = check_message(&body["data"]) {
            return refuse(StatusCode::BAD_REQUEST, 50035, &why);
        }
        let Some(it) = inner.interactions.get(&id).cloned() else {
            return refuse(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
        };
        if it.token != token {
            return refuse(StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token");
        }
        if it.responded {
            return refuse(
                StatusCode::BAD_REQUEST,
                40060,
                "Interaction has already been acknowledged.",
            );
        }
        let now = self.shared.now();
        if now.saturating_sub(it.dispatched) > INTERACTION_WINDOW {
            return refuse(
                StatusCode::NOT_FOUND,
                10062,
                "Unknown interaction (over 3 s)",
            );
        }
        let original = match body["type"].as_u64().unwrap_or(0) {
            4 | 5 => {
                let mid = self.shared.id();
                let m = message_object(mid, it.channel, &body["data"], bot_author());
                inner.messages.insert(mid, m);
                inner.message_order.push(mid);
                Some(mid)
            }
            7 => {
                if let Some(mid) = it.message
                    && let Some(m) = inner.messages.get_mut(&mid)
                {
                    // An update of the message the button is on (no edit mark).
                    for key in ["content", "embeds", "components"] {
                        if let Some(v) = body["data"].get(key) {
                            m[key] = v.clone();
                        }
                    }
                }
                it.message
            }
            6 => it.message,
            _ => None,
        };
        let seen = inner.requests.len();
        if let Some(entry) = inner.interactions.get_mut(&id) {
            entry.callback_at.get_or_insert(seen);
            entry.responded = true;
            entry.acknowledged = Some(now);
            entry.response = Some(body.clone());
            entry.original = original;
        }
        // The test asked for time to pass while the bot works on a deferred answer.
        if matches!(body["type"].as_u64(), Some(5 | 6))
            && let Some(by) = inner.advance_on_ack.take()
        {
            self.shared.advance(by);
        }
        (StatusCode::NO_CONTENT.into_response(), 204, None)
    }

    /// GET or PATCH of an interaction's original answer or one of its follow-ups.
    fn webhook_message(&self, inner: &mut Inner, m: &str, token: &str, which: &str) -> Answered {
        let body = self.body;
        let Some(it) = inner
            .interactions
            .values()
            .find(|i| i.token == token)
            .cloned()
        else {
            return refuse(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        if let Some(expired) = self.expired(&it) {
            return expired;
        }
        let mid = if which == "@original" {
            it.original
        } else {
            which.parse().ok()
        };
        let Some(mid) = mid else {
            return refuse(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        if m == "PATCH"
            && let Err(why) = check_message(body)
        {
            return refuse(StatusCode::BAD_REQUEST, 50035, &why);
        }
        let Some(msg) = inner.messages.get_mut(&mid) else {
            return refuse(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        if m == "PATCH" {
            apply_edit(msg, body);
        }
        ok_json(msg.clone())
    }

    /// A follow-up message to an interaction (valid long after its 3 seconds).
    fn follow_up(&self, inner: &mut Inner, token: &str) -> Answered {
        if let Err(why) = check_message(self.body) {
            return refuse(StatusCode::BAD_REQUEST, 50035, &why);
        }
        let Some(it) = inner
            .interactions
            .values()
            .find(|i| i.token == token)
            .cloned()
        else {
            return refuse(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        if let Some(expired) = self.expired(&it) {
            return expired;
        }
        let mid = self.shared.id();
        let m = message_object(mid, it.channel, self.body, bot_author());
        inner.messages.insert(mid, m.clone());
        inner.message_order.push(mid);
        ok_json(m)
    }

    /// Discord's answer to a follow-up or edit with a token over [`TOKEN_LIFE`] old.
    fn expired(&self, it: &Interaction) -> Option<Answered> {
        (self.shared.now().saturating_sub(it.dispatched) > TOKEN_LIFE).then(|| {
            let mut answered = refuse(StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token");
            answered.2 = Some("expired: interaction token over 15 minutes old".into());
            answered
        })
    }

    fn open_dm(&self, inner: &mut Inner) -> Answered {
        let Some(user) = self.body["recipient_id"]
            .as_str()
            .and_then(|u| u.parse::<u64>().ok())
            .or_else(|| self.body["recipient_id"].as_u64())
        else {
            return refuse(StatusCode::BAD_REQUEST, 50035, "recipient_id missing");
        };
        let channel = match inner.dm_channel_of.get(&user) {
            Some(c) => *c,
            None => {
                let c = self.shared.id();
                inner.dm_channel_of.insert(user, c);
                inner.recipient_of.insert(c, user);
                c
            }
        };
        ok_json(json!({
            "id": channel.to_string(),
            "type": 1,
            "last_message_id": null,
            "recipients": [{"id": user.to_string(), "username": format!("user{user}"),
                            "discriminator": "0", "avatar": null, "global_name": null}],
        }))
    }

    /// A message posted in a channel or DM: refused when asked (429, closed DMs), the
    /// first message again for a repeated nonce, else created (and its answer lost when
    /// asked).
    fn post_message(&self, inner: &mut Inner, channel: &str) -> Answered {
        let body = self.body;
        let Ok(channel) = channel.parse::<u64>() else {
            return refuse(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
        };
        if let Err(why) = check_message(body) {
            return refuse(StatusCode::BAD_REQUEST, 50035, &why);
        }
        if let Some(early) = asked_refusal(inner, channel) {
            return early;
        }
        if let Some(lost) = inner.lost_permissions.get(&channel)
            && (lost.send_messages || (lost.attach_files && !self.files.is_empty()))
        {
            return refuse(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
        }
        // enforce_nonce: the same nonce in the same channel returns the first message.
        let nonce = match &body["nonce"] {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let now = self.shared.now();
        if body["enforce_nonce"] == true
            && let Some(n) = &nonce
            && let Some((existing, at)) = inner.nonces.get(&(channel, n.clone()))
            && now.saturating_sub(*at) < NONCE_WINDOW
            && let Some(m) = inner.messages.get(existing).cloned()
        {
            inner.folded.push((channel, n.clone()));
            return ok_json(m);
        }
        let mid = self.shared.id();
        let mut m = message_object(mid, channel, body, bot_author());
        m["attachments"] = json!(self.attachments());
        inner.messages.insert(mid, m.clone());
        inner.message_order.push(mid);
        if let Some(n) = nonce {
            inner.nonces.insert((channel, n), (mid, now));
        }
        if inner.garble_answers > 0 {
            inner.garble_answers -= 1;
            return (
                (
                    StatusCode::OK,
                    [(axum::http::header::CONTENT_TYPE, "text/html")],
                    "<html><body>upstream answered</body></html>",
                )
                    .into_response(),
                200,
                Some("asked: answer not JSON".into()),
            );
        }
        if inner.lose_answers > 0 {
            inner.lose_answers -= 1;
            return (
                error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    0,
                    "500: Internal Server Error",
                ),
                500,
                Some("asked: answer lost".into()),
            );
        }
        ok_json(m)
    }

    /// A channel's (or DM's) messages, newest first, as Discord serves them: `limit` (1 to
    /// 100, else 50) of them, before or after a message id, or the newest. Discord keeps
    /// no nonce in its history, so none is shown.
    fn history(&self, inner: &mut Inner, channel: &str) -> Answered {
        let Ok(channel) = channel.parse::<u64>() else {
            return refuse(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
        };
        let mut limit = HISTORY_DEFAULT;
        let (mut before, mut after) = (None, None);
        for (key, value) in self.query.split('&').filter_map(|kv| kv.split_once('=')) {
            match key {
                "limit" => limit = value.parse().unwrap_or(HISTORY_DEFAULT).clamp(1, 100),
                "before" => before = value.parse::<u64>().ok(),
                "after" => after = value.parse::<u64>().ok(),
                _ => {}
            }
        }
        let here = channel.to_string();
        let mut all: Vec<(u64, Value)> = inner
            .message_order
            .iter()
            .filter_map(|id| inner.messages.get(id).map(|m| (*id, m.clone())))
            .chain(inner.user_messages.iter().filter_map(|m| {
                let id = m["id"].as_str()?.parse::<u64>().ok()?;
                Some((id, m.clone()))
            }))
            .filter(|(id, m)| {
                m["channel_id"] == here.as_str()
                    && before.is_none_or(|b| *id < b)
                    && after.is_none_or(|a| *id > a)
            })
            .collect();
        all.sort_by_key(|(id, _)| *id);
        let ids: Vec<u64> = all.iter().map(|(id, _)| *id).collect();
        let found: std::collections::HashMap<u64, Value> = all.into_iter().collect();
        let picked: Vec<u64> = if after.is_some() && before.is_none() {
            ids.into_iter().take(limit).collect()
        } else {
            let skip = ids.len().saturating_sub(limit);
            ids.into_iter().skip(skip).collect()
        };
        let page: Vec<Value> = picked
            .iter()
            .rev()
            .filter_map(|id| found.get(id).cloned())
            .map(|mut m| {
                if let Some(o) = m.as_object_mut() {
                    o.remove("nonce");
                }
                m
            })
            .collect();
        ok_json(Value::Array(page))
    }

    /// The uploaded files as the message's attachments, each with the alt text the
    /// payload gave the file of the same name.
    fn attachments(&self) -> Vec<Value> {
        let addr = self.addr;
        self.files
            .iter()
            .map(|(_, name, size)| {
                let description = self.body["attachments"]
                    .as_array()
                    .and_then(|a| a.iter().find(|a| a["filename"] == name.as_str()))
                    .map(|a| a["description"].clone())
                    .unwrap_or(Value::Null);
                json!({"id": self.shared.id().to_string(), "filename": name, "size": size, "description": description, "url": format!("http://{addr}/files/{name}"), "proxy_url": format!("http://{addr}/files/{name}")})
            })
            .collect()
    }

    fn edit_message(&self, inner: &mut Inner, mid: &str) -> Answered {
        if let Err(why) = check_message(self.body) {
            return refuse(StatusCode::BAD_REQUEST, 50035, &why);
        }
        let Some(m) = mid
            .parse::<u64>()
            .ok()
            .and_then(|mid| inner.messages.get_mut(&mid))
        else {
            return refuse(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        apply_edit(m, self.body);
        ok_json(m.clone())
    }

    /// A thread Discord archived (after its auto-archive duration without activity, on
    /// the fake's clock, or when the test says): a new post unarchives it, as Discord does;
    /// an edit of a message in it is refused (400, 50083); the bot may unarchive it with
    /// `PATCH /channels/{id}` `{"archived": false}`.
    fn archived_thread(
        &self,
        inner: &mut Inner,
        method: &str,
        channel: u64,
        depth: usize,
    ) -> Option<Answered> {
        let now = self.shared.now();
        let idle = inner.thread_activity.get(&channel)?;
        if now.saturating_sub(*idle) > THREAD_ARCHIVE {
            inner.archived_threads.insert(channel);
        }
        let archived = inner.archived_threads.contains(&channel);
        let answer = match (method, depth) {
            ("PATCH", 2) => {
                if self.body["archived"] == false {
                    inner.archived_threads.remove(&channel);
                }
                let archived = inner.archived_threads.contains(&channel);
                Some(ok_json(thread_object(
                    channel,
                    &CHANNEL.to_string(),
                    "race",
                    archived,
                )))
            }
            ("PATCH", _) if archived => {
                Some(refuse(StatusCode::BAD_REQUEST, 50083, "Thread is archived"))
            }
            // Reading a thread's history neither unarchives it nor counts as activity.
            ("GET", _) => return None,
            _ => {
                inner.archived_threads.remove(&channel);
                None
            }
        };
        inner.thread_activity.insert(channel, now);
        answer
    }

    fn thread(&self, inner: &mut Inner, parent: &str) -> Answered {
        let id = self.shared.id();
        inner.threads.push(id);
        inner.thread_activity.insert(id, self.shared.now());
        let name = self.body["name"].as_str().unwrap_or("race");
        ok_json(thread_object(id, parent, name, false))
    }
}

/// A thread as Discord describes it.
fn thread_object(id: u64, parent: &str, name: &str, archived: bool) -> Value {
    json!({
        "id": id.to_string(),
        "type": 11,
        "guild_id": GUILD_ID.to_string(),
        "parent_id": parent,
        "name": name,
        "owner_id": BOT_ID.to_string(),
        "thread_metadata": {"archived": archived, "auto_archive_duration": 1440,
                             "archive_timestamp": now_iso(), "locked": false},
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false,
    })
}

/// What the test asked the fake to refuse a post with: a 429 (`rate_limit_next`), or a
/// closed DM (`close_dms`).
fn asked_refusal(inner: &mut Inner, channel: u64) -> Option<Answered> {
    if inner.rate_limits > 0 {
        inner.rate_limits -= 1;
        let resp = (
            StatusCode::TOO_MANY_REQUESTS,
            [
                ("retry-after", "1"),
                ("x-ratelimit-limit", "5"),
                ("x-ratelimit-remaining", "0"),
                ("x-ratelimit-reset-after", "1.000"),
                ("x-ratelimit-scope", "user"),
            ],
            axum::Json(json!({
                "message": "You are being rate limited.",
                "retry_after": 1.0,
                "global": false,
                "code": 0,
            })),
        )
            .into_response();
        return Some((resp, 429, Some("asked: rate limited".into())));
    }
    if let Some(user) = inner.recipient_of.get(&channel)
        && inner.closed_dms.contains(user)
    {
        return Some((
            error(
                StatusCode::FORBIDDEN,
                50007,
                "Cannot send messages to this user",
            ),
            403,
            Some("asked: DMs closed".into()),
        ));
    }
    None
}

/// An edit: the content, embeds and components it carries replace the message's.
fn apply_edit(m: &mut Value, body: &Value) {
    for key in ["content", "embeds", "components"] {
        if let Some(v) = body.get(key) {
            m[key] = v.clone();
        }
    }
    m["edited_timestamp"] = json!(now_iso());
}
