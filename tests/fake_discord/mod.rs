//! A fake Discord on loopback, for driving the real serenity/poise client in tests.
//!
//! It serves the REST calls the bot makes (under `/api/v10`, reached through serenity's
//! REST proxy setting) and the gateway (`/gateway`: HELLO, IDENTIFY, READY, heartbeats and
//! dispatches), records every request, and behaves like Discord where it matters:
//! - it enforces Discord's documented message limits and answers 400 when one is broken;
//! - it answers 403 with code 50007 for users whose DMs are closed;
//! - it answers 429 (with `retry_after`) on demand, and 500 after creating a message on
//!   demand (a lost answer), and honours `enforce_nonce` so a retry does not post twice;
//! - it answers an interaction's callback only once, and only within 3 seconds;
//! - it accepts multipart uploads (`payload_json` and `files[n]`), keeps each file's bytes
//!   ([`Recorded::uploads`]), and lists them as the message's attachments with their
//!   `description` (alt text) from `payload_json`;
//! - on request it injects faults ([`Fault`]: 429 with its `retry_after` in the body or
//!   the headers, global or per route; 500, 502...), enforces Discord's rate limits
//!   ([`FakeDiscord::enforce_rate_limits`]), closes the gateway and serves a RESUME (op 6:
//!   the missed dispatches, then RESUMED), and sends commands from another server or a DM;
//! - it shards like Discord: `GET /gateway/bot` recommends [`FakeDiscord::recommend_shards`]
//!   shards, each IDENTIFY's `shard` is recorded, and with more than one shard a guild's
//!   events go to the session holding shard `(guild_id >> 22) % total`, DMs to shard 0
//!   ([`FakeDiscord::guild_for`] puts a channel in a guild). [`FakeDiscord::gateway_down`]
//!   drops every session and refuses new ones until [`FakeDiscord::gateway_up`].
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State as AxState};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

pub const APP_ID: u64 = 900_000_000_000_000_001;
pub const BOT_ID: u64 = 900_000_000_000_000_001;
pub const GUILD_ID: u64 = 800_000_000_000_000_001;
pub const COMMAND_ID: u64 = 700_000_000_000_000_001;
/// How long the tests wait for something the bot should do.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Discord's permission bit for Manage Server.
const MANAGE_GUILD: u64 = 1 << 5;

/// A person on the fake Discord.
#[derive(Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: String,
    /// Has Manage Server in the guild.
    pub manage: bool,
}

impl User {
    pub fn new(id: u64, name: &str) -> User {
        User {
            id,
            name: name.into(),
            manage: false,
        }
    }

    pub fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name.to_lowercase(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": null,
            "bot": false,
        })
    }

    fn member(&self) -> Value {
        json!({
            "user": self.json(),
            "nick": null,
            "roles": [],
            "joined_at": "2025-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": (if self.manage { MANAGE_GUILD } else { 0 }).to_string(),
        })
    }
}

/// One request the bot made.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub at: Instant,
    pub method: String,
    /// The path after `/api/v10`.
    pub path: String,
    pub body: Value,
    /// Uploaded files: (form field, file name, size).
    pub files: Vec<(String, String, usize)>,
    /// The same files with their bytes, to check what was uploaded.
    pub uploads: Vec<Upload>,
    pub status: u16,
    /// Why the fake refused it, when it did.
    pub refused: Option<String>,
}

/// One file of a multipart request.
#[derive(Clone, Debug)]
pub struct Upload {
    /// The form field (`files[0]`).
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

impl Recorded {
    pub fn is(&self, method: &str, path_start: &str) -> bool {
        self.method == method && self.path.starts_with(path_start)
    }
}

#[derive(Clone, Debug)]
struct Interaction {
    token: String,
    channel: u64,
    dispatched: Instant,
    responded: bool,
    response: Option<Value>,
    /// The message the response made (type 4), for @original edits.
    original: Option<u64>,
    message: Option<u64>,
}

#[derive(Default)]
struct Inner {
    requests: Vec<Recorded>,
    messages: HashMap<u64, Value>,
    message_order: Vec<u64>,
    dm_channel_of: HashMap<u64, u64>,
    recipient_of: HashMap<u64, u64>,
    closed_dms: HashSet<u64>,
    rate_limits: usize,
    lose_answers: usize,
    nonces: HashMap<(u64, String), u64>,
    interactions: HashMap<u64, Interaction>,
    gateway: Option<mpsc::UnboundedSender<String>>,
    seq: u64,
    identifies: usize,
    threads: Vec<u64>,
    /// Faults the test asked for, matched in order.
    faults: Vec<Injected>,
    /// Enforce Discord's rate limits (global and per route).
    enforce_limits: bool,
    buckets: HashMap<String, Window>,
    global: Option<Window>,
    /// Every dispatch sent, for replay on RESUME.
    events: Vec<(u64, String)>,
    resumes: usize,
    /// The guild id of the next interaction, when not the fake's own.
    guild_override: Option<u64>,
    /// The `seq` each RESUME carried.
    resumed_from: Vec<u64>,
    sharding: Sharding,
}

/// The gateway's shards: who holds which, and what was identified.
#[derive(Default)]
struct Sharding {
    /// What `GET /gateway/bot` recommends (1 if unset).
    recommended: Option<u64>,
    /// The open session of each shard: its sender, its own sequence, its shard count.
    sessions: HashMap<u64, ShardSession>,
    /// Every IDENTIFY's `[shard, total]`, in order.
    identified: Vec<(u64, u64)>,
    /// The guild of a channel (else [`GUILD_ID`]).
    guild_of: HashMap<u64, u64>,
    /// Sessions are dropped and new connections refused.
    down: bool,
    /// Bumped to close every open session.
    generation: u64,
    /// Events that had no session to go to: (event, shard).
    undelivered: Vec<(String, u64)>,
}

struct ShardSession {
    tx: mpsc::UnboundedSender<String>,
    seq: u64,
    total: u64,
}

/// A rate-limit window: when it opened and how many requests it has taken.
#[derive(Clone, Copy, Debug)]
struct Window {
    opened: Instant,
    used: u32,
}

/// A fault answered instead of the real thing.
#[derive(Clone, Debug)]
pub enum Fault {
    /// An HTTP error (500, 502, 503...) without doing anything.
    Status(u16),
    /// Too many requests (429): `body` puts `retry_after` in the JSON; `headers` sends `Retry-After` and
    /// `X-RateLimit-*`; `global` makes it the global limit.
    RateLimit {
        retry_after: f64,
        global: bool,
        body: bool,
        headers: bool,
    },
}

#[derive(Clone, Debug)]
struct Injected {
    method: String,
    path_start: String,
    fault: Fault,
    left: usize,
}

/// Discord's global limit: requests a second, interactions aside.
pub const GLOBAL_PER_SECOND: u32 = 50;
/// Discord's per-channel message limit: this many per [`ROUTE_WINDOW`].
pub const ROUTE_LIMIT: u32 = 5;
pub const ROUTE_WINDOW: Duration = Duration::from_secs(5);

struct Shared {
    inner: Mutex<Inner>,
    changed: Notify,
    /// Bumped by [`FakeDiscord::gateway_down`]: every open session closes.
    generation: tokio::sync::watch::Sender<u64>,
    next_id: AtomicU64,
    addr: Mutex<Option<SocketAddr>>,
}

impl Shared {
    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }
}

/// The fake Discord.
pub struct FakeDiscord {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn now_iso() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, false)
}

fn error(status: StatusCode, code: i64, message: &str) -> Response {
    (
        status,
        axum::Json(json!({"code": code, "message": message})),
    )
        .into_response()
}

fn chars(v: Option<&Value>) -> usize {
    v.and_then(Value::as_str)
        .map(|s| s.chars().count())
        .unwrap_or(0)
}

/// Discord's documented limits on a message body (content, embeds, components).
pub fn check_message(body: &Value) -> Result<(), String> {
    if chars(body.get("content")) > 2000 {
        return Err("content is over 2000 characters".into());
    }
    if let Some(embeds) = body.get("embeds").and_then(Value::as_array) {
        if embeds.len() > 10 {
            return Err("more than 10 embeds".into());
        }
        let mut total = 0;
        for e in embeds {
            let title = chars(e.get("title"));
            let description = chars(e.get("description"));
            let footer = chars(e.get("footer").and_then(|f| f.get("text")));
            if title > 256 {
                return Err("embed title over 256".into());
            }
            if description > 4096 {
                return Err("embed description over 4096".into());
            }
            if footer > 2048 {
                return Err("embed footer over 2048".into());
            }
            total += title + description + footer;
            let fields = e
                .get("fields")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if fields.len() > 25 {
                return Err("more than 25 fields".into());
            }
            for f in &fields {
                let (n, v) = (chars(f.get("name")), chars(f.get("value")));
                if n == 0 || v == 0 {
                    return Err("an empty field name or value".into());
                }
                if n > 256 || v > 1024 {
                    return Err("field name over 256 or value over 1024".into());
                }
                total += n + v;
            }
        }
        if total > 6000 {
            return Err(format!("embeds total {total} characters, over 6000"));
        }
    }
    if let Some(rows) = body.get("components").and_then(Value::as_array) {
        if rows.len() > 5 {
            return Err("more than 5 action rows".into());
        }
        let mut ids = HashSet::new();
        for row in rows {
            if row.get("type").and_then(Value::as_u64) != Some(1) {
                return Err("a top-level component that is not an action row".into());
            }
            let items = row
                .get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if items.is_empty() {
                return Err("an empty action row".into());
            }
            let selects = items
                .iter()
                .filter(|c| c.get("type").and_then(Value::as_u64) != Some(2))
                .count();
            if selects > 0 && items.len() > 1 {
                return Err("a select menu must be alone in its row".into());
            }
            if items.len() > 5 {
                return Err("more than 5 buttons in a row".into());
            }
            for c in &items {
                let id = c.get("custom_id").and_then(Value::as_str).unwrap_or("");
                if id.is_empty() || id.chars().count() > 100 {
                    return Err(format!("custom_id `{id}` empty or over 100"));
                }
                if !ids.insert(id.to_string()) {
                    return Err(format!("duplicate custom_id `{id}`"));
                }
                if chars(c.get("label")) > 80 {
                    return Err("button label over 80".into());
                }
                if let Some(options) = c.get("options").and_then(Value::as_array) {
                    if options.is_empty() || options.len() > 25 {
                        return Err("a select menu needs 1 to 25 options".into());
                    }
                    for o in options {
                        if chars(o.get("label")) > 100 || chars(o.get("value")) > 100 {
                            return Err("select option over 100".into());
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::default()),
            changed: Notify::new(),
            generation: tokio::sync::watch::channel(0).0,
            next_id: AtomicU64::new(1_000_000_000_000_000_000),
            addr: Mutex::new(None),
        });
        let app = Router::new()
            .route("/gateway", get(gateway))
            .fallback(rest)
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        *shared.addr.lock().unwrap() = Some(addr);
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeDiscord {
            addr,
            shared,
            server,
        }
    }

    /// Settings that point the bot here.
    pub fn settings(&self, database: &std::path::Path) -> photofinish::discord::Settings {
        let mut s = photofinish::discord::Settings::from_toml(&format!(
            "token = \"fake-token\"\ndatabase = \"{}\"\nrest_proxy = \"http://{}\"\n[turns]\nlength = \"1h\"\nreminders = [\"30m\"]\n",
            database.display(),
            self.addr
        ))
        .unwrap();
        s.guild = None;
        s
    }

    /// Waits until the predicate holds over the state.
    async fn until<T>(&self, what: &str, mut f: impl FnMut(&Inner) -> Option<T>) -> T {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let notified = self.shared.changed.notified();
            if let Some(t) = f(&self.shared.inner.lock().unwrap()) {
                return t;
            }
            if Instant::now() > deadline {
                let inner = self.shared.inner.lock().unwrap();
                let last: Vec<String> = inner
                    .requests
                    .iter()
                    .rev()
                    .take(15)
                    .map(|r| format!("{} {} {} {:?}", r.method, r.path, r.status, r.refused))
                    .collect();
                panic!("timed out waiting for {what}; last requests: {last:#?}");
            }
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
        }
    }

    /// Waits for the bot to connect and register its commands.
    pub async fn wait_ready(&self) {
        self.until("the bot to identify and register commands", |i| {
            (i.identifies > 0
                && i.gateway.is_some()
                && i.requests
                    .iter()
                    .any(|r| r.method == "PUT" && r.path.contains("/commands")))
            .then_some(())
        })
        .await;
    }

    /// What `GET /gateway/bot` answers for `shards`.
    pub fn recommend_shards(&self, n: u64) {
        self.shared.inner.lock().unwrap().sharding.recommended = Some(n.max(1));
    }

    /// Every IDENTIFY's `[shard, total]`, in order (a RESUME is not one).
    pub fn identified_shards(&self) -> Vec<(u64, u64)> {
        self.shared
            .inner
            .lock()
            .unwrap()
            .sharding
            .identified
            .clone()
    }

    /// The shards that have a session open now, sorted.
    pub fn connected_shards(&self) -> Vec<u64> {
        let inner = self.shared.inner.lock().unwrap();
        let mut v: Vec<u64> = inner
            .sharding
            .sessions
            .iter()
            .filter(|(_, s)| !s.tx.is_closed())
            .map(|(k, _)| *k)
            .collect();
        v.sort_unstable();
        v
    }

    /// Waits until each of `shards` has a session open.
    pub async fn wait_shards(&self, shards: &[u64]) {
        let want: Vec<u64> = shards.to_vec();
        self.until(&format!("sessions on shards {want:?}"), |i| {
            want.iter()
                .all(|s| {
                    i.sharding
                        .sessions
                        .get(s)
                        .is_some_and(|x| !x.tx.is_closed())
                })
                .then_some(())
        })
        .await;
    }

    /// Puts a channel in a guild: its interactions carry that `guild_id` and go to the
    /// guild's shard.
    pub fn guild_for(&self, channel: u64, guild: u64) {
        self.shared
            .inner
            .lock()
            .unwrap()
            .sharding
            .guild_of
            .insert(channel, guild);
    }

    /// The shard of a guild, as Discord computes it.
    pub fn shard_of(guild: u64, total: u64) -> u64 {
        (guild >> 22) % total.max(1)
    }

    /// Events sent while no session held their shard: (event, shard).
    pub fn undelivered(&self) -> Vec<(String, u64)> {
        self.shared
            .inner
            .lock()
            .unwrap()
            .sharding
            .undelivered
            .clone()
    }

    /// Drops every gateway session and refuses new ones (a Discord outage).
    pub fn gateway_down(&self) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.sharding.down = true;
        inner.sharding.generation += 1;
        inner.sharding.sessions.clear();
        inner.gateway = None;
        let _ = self.shared.generation.send(inner.sharding.generation);
    }

    /// Accepts gateway connections again.
    pub fn gateway_up(&self) {
        self.shared.inner.lock().unwrap().sharding.down = false;
    }

    /// How many times the bot identified on the gateway.
    pub fn identifies(&self) -> usize {
        self.shared.inner.lock().unwrap().identifies
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.inner.lock().unwrap().requests.clone()
    }

    pub fn request_count(&self) -> usize {
        self.shared.inner.lock().unwrap().requests.len()
    }

    /// Requests the fake refused for breaking a rule (not the ones it was told to fail).
    pub fn refusals(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.refused
                    .as_deref()
                    .is_some_and(|w| !w.starts_with("asked:"))
            })
            .collect()
    }

    pub fn close_dms(&self, user: u64) {
        self.shared.inner.lock().unwrap().closed_dms.insert(user);
    }

    /// The next `n` message posts get 429.
    pub fn rate_limit_next(&self, n: usize) {
        self.shared.inner.lock().unwrap().rate_limits = n;
    }

    /// The next `n` message posts are created, but answered with 500.
    pub fn lose_next_answers(&self, n: usize) {
        self.shared.inner.lock().unwrap().lose_answers = n;
    }

    /// Every message, in posting order (edits applied).
    pub fn messages(&self) -> Vec<Value> {
        let inner = self.shared.inner.lock().unwrap();
        inner
            .message_order
            .iter()
            .filter_map(|id| inner.messages.get(id).cloned())
            .collect()
    }

    pub fn messages_in(&self, channel: u64) -> Vec<Value> {
        let c = channel.to_string();
        self.messages()
            .into_iter()
            .filter(|m| m["channel_id"] == c.as_str())
            .collect()
    }

    /// Someone deletes a message.
    pub fn delete_message(&self, id: &Value) {
        let id: u64 = id.as_str().unwrap().parse().unwrap();
        let mut inner = self.shared.inner.lock().unwrap();
        inner.messages.remove(&id);
        inner.message_order.retain(|m| *m != id);
    }

    /// The DM channel of a user, if the bot opened one.
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        self.shared
            .inner
            .lock()
            .unwrap()
            .dm_channel_of
            .get(&user)
            .copied()
    }

    /// Messages the bot sent a user by DM.
    pub fn dms_to(&self, user: u64) -> Vec<Value> {
        match self.dm_channel(user) {
            Some(c) => self.messages_in(c),
            None => Vec::new(),
        }
    }

    /// Waits for a message matching `f` and returns it.
    pub async fn wait_message(&self, what: &str, f: impl Fn(&Value) -> bool) -> Value {
        self.until(what, |i| {
            i.message_order
                .iter()
                .filter_map(|id| i.messages.get(id))
                .find(|m| f(m))
                .cloned()
        })
        .await
    }

    /// Waits for the `n`th (1-based) DM to a user and returns it.
    pub async fn wait_dm(&self, user: u64, n: usize) -> Value {
        self.until(&format!("DM #{n} to {user}"), |i| {
            let c = i.dm_channel_of.get(&user)?.to_string();
            i.message_order
                .iter()
                .filter_map(|id| i.messages.get(id))
                .filter(|m| m["channel_id"] == c.as_str())
                .nth(n - 1)
                .cloned()
        })
        .await
    }

    /// Waits until no request has arrived for `quiet`.
    pub async fn settle(&self, quiet: Duration) {
        let mut last = self.request_count();
        let deadline = Instant::now() + PATIENCE;
        loop {
            tokio::time::sleep(quiet).await;
            let now = self.request_count();
            if now == last || Instant::now() > deadline {
                return;
            }
            last = now;
        }
    }

    fn send(&self, event: &str, d: Value) {
        let mut inner = self.shared.inner.lock().unwrap();
        // Sharded: to the session holding the guild's shard (DMs: shard 0), as Discord does.
        if !inner.sharding.sessions.is_empty() {
            let total = inner
                .sharding
                .sessions
                .values()
                .map(|s| s.total)
                .max()
                .unwrap_or(1);
            let shard = d["guild_id"]
                .as_str()
                .and_then(|g| g.parse::<u64>().ok())
                .map(|g| FakeDiscord::shard_of(g, total))
                .unwrap_or(0);
            match inner.sharding.sessions.get_mut(&shard) {
                Some(session) if !session.tx.is_closed() => {
                    session.seq += 1;
                    let payload =
                        json!({"op": 0, "t": event, "s": session.seq, "d": d}).to_string();
                    let _ = session.tx.send(payload);
                }
                _ => inner.sharding.undelivered.push((event.to_string(), shard)),
            }
            return;
        }
        inner.seq += 1;
        let payload = json!({"op": 0, "t": event, "s": inner.seq, "d": d}).to_string();
        let seq = inner.seq;
        inner.events.push((seq, payload.clone()));
        // While the bot is away the event waits, as Discord keeps it, for a RESUME.
        if let Some(tx) = inner.gateway.clone()
            && tx.send(payload).is_err()
        {
            inner.gateway = None;
        }
    }

    fn new_interaction(&self, channel: u64, message: Option<u64>) -> (u64, String) {
        let id = self.shared.id();
        let token = format!("itoken{id}");
        self.shared.inner.lock().unwrap().interactions.insert(
            id,
            Interaction {
                token: token.clone(),
                channel,
                dispatched: Instant::now(),
                responded: false,
                response: None,
                original: None,
                message,
            },
        );
        (id, token)
    }

    #[allow(clippy::too_many_arguments)]
    fn interaction_json(
        &self,
        id: u64,
        token: &str,
        kind: u8,
        user: &User,
        channel: u64,
        data: Value,
        message: Option<Value>,
    ) -> Value {
        let (in_dm, guild) = {
            let mut inner = self.shared.inner.lock().unwrap();
            let guild = inner
                .guild_override
                .take()
                .or_else(|| inner.sharding.guild_of.get(&channel).copied())
                .unwrap_or(GUILD_ID);
            (inner.recipient_of.contains_key(&channel), guild)
        };
        let mut v = json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "type": kind,
            "data": data,
            "channel_id": channel.to_string(),
            "channel": {"id": channel.to_string(), "type": if in_dm { 1 } else { 0 }},
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 8_388_608,
            "app_permissions": "2248473465835073",
            "authorizing_integration_owners": {},
            "context": if in_dm { 1 } else { 0 },
        });
        if in_dm {
            v["user"] = user.json();
        } else {
            v["guild_id"] = json!(guild.to_string());
            v["guild_locale"] = json!("en-US");
            let mut member = user.member();
            member["guild_id"] = json!(guild.to_string());
            v["member"] = member;
        }
        if let Some(m) = message {
            v["message"] = m;
        }
        v
    }

    /// A `/race <sub>` slash command; `options` are (name, value) pairs. Returns the
    /// interaction id.
    pub fn slash(&self, user: &User, channel: u64, sub: &str, options: &[(&str, Value)]) -> u64 {
        let (id, token) = self.new_interaction(channel, None);
        let mut resolved_users = serde_json::Map::new();
        let mut resolved_members = serde_json::Map::new();
        let opts: Vec<Value> = options
            .iter()
            .map(|(name, value)| {
                let kind = match value {
                    Value::Bool(_) => 5,
                    Value::Number(_) => 4,
                    Value::Object(o) if o.contains_key("user") => 6,
                    _ => 3,
                };
                if kind == 6 {
                    let u = &value["user"];
                    let uid = u["id"].as_str().unwrap_or("0").to_string();
                    resolved_users.insert(uid.clone(), u.clone());
                    let mut m = value["member"].clone();
                    if let Some(o) = m.as_object_mut() {
                        o.remove("user");
                    }
                    resolved_members.insert(uid.clone(), m);
                    json!({"name": name, "type": 6, "value": uid})
                } else {
                    json!({"name": name, "type": kind, "value": value})
                }
            })
            .collect();
        let mut data = json!({
            "id": COMMAND_ID.to_string(),
            "name": "race",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        });
        if !resolved_users.is_empty() {
            data["resolved"] = json!({"users": resolved_users, "members": resolved_members});
        }
        let v = self.interaction_json(id, &token, 2, user, channel, data, None);
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// A user option's value for [`FakeDiscord::slash`].
    pub fn user_option(user: &User) -> Value {
        json!({"user": user.json(), "member": user.member()})
    }

    /// Presses a button on a message. Returns the interaction id.
    pub fn click(&self, user: &User, message: &Value, custom_id: &str) -> u64 {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let mid: u64 = message["id"].as_str().unwrap().parse().unwrap();
        let (id, token) = self.new_interaction(channel, Some(mid));
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let v = self.interaction_json(id, &token, 3, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// Sends the very same INTERACTION_CREATE again (a duplicate gateway event).
    pub fn replay_click(&self, id: u64, user: &User, message: &Value, custom_id: &str) {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let token = self.shared.inner.lock().unwrap().interactions[&id]
            .token
            .clone();
        let data = json!({"custom_id": custom_id, "component_type": 2});
        let v = self.interaction_json(id, &token, 3, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
    }

    /// Picks a value in a select menu.
    pub fn select(&self, user: &User, message: &Value, custom_id: &str, value: &str) -> u64 {
        let channel: u64 = message["channel_id"].as_str().unwrap().parse().unwrap();
        let mid: u64 = message["id"].as_str().unwrap().parse().unwrap();
        let (id, token) = self.new_interaction(channel, Some(mid));
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": [value]});
        let v = self.interaction_json(id, &token, 3, user, channel, data, Some(message.clone()));
        self.send("INTERACTION_CREATE", v);
        id
    }

    /// The user writes to the bot by DM. Returns the message id.
    pub fn dm(&self, user: &User, text: &str) -> u64 {
        let id = self.shared.id();
        self.replay_dm(id, user, text);
        id
    }

    /// Sends MESSAGE_CREATE for a DM with this id (again, for a duplicate event).
    pub fn replay_dm(&self, id: u64, user: &User, text: &str) {
        let channel = self.dm_channel_for(user.id);
        let v = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": user.json(),
            "content": text,
            "timestamp": now_iso(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
        });
        self.send("MESSAGE_CREATE", v);
    }

    fn dm_channel_for(&self, user: u64) -> u64 {
        let mut inner = self.shared.inner.lock().unwrap();
        if let Some(c) = inner.dm_channel_of.get(&user) {
            return *c;
        }
        let c = self.shared.id();
        inner.dm_channel_of.insert(user, c);
        inner.recipient_of.insert(c, user);
        c
    }

    /// Waits for the bot's answer to an interaction: the callback body, and for deferred
    /// answers the follow-up or edit that completed it.
    pub async fn response(&self, id: u64) -> Value {
        self.until(&format!("an answer to interaction {id}"), |i| {
            let it = i.interactions.get(&id)?;
            let r = it.response.clone()?;
            match r["type"].as_u64() {
                Some(5) | Some(6) => {
                    // Deferred: wait for the follow-up or edit.
                    let token = &it.token;
                    i.requests
                        .iter()
                        .rev()
                        .find(|q| {
                            q.path.contains(token.as_str())
                                && !q.path.ends_with("/callback")
                                && q.method != "GET"
                        })
                        .map(|q| {
                            // An edit cannot change what the deferral made ephemeral: the
                            // flags of the type-5 callback still hold, as on Discord.
                            let mut data = q.body.clone();
                            if data["flags"].is_null() && !r["data"]["flags"].is_null() {
                                data["flags"] = r["data"]["flags"].clone();
                            }
                            json!({"type": r["type"], "data": data})
                        })
                }
                _ => Some(r),
            }
        })
        .await
    }

    /// How long the bot took to acknowledge an interaction.
    pub fn ack_time(&self, id: u64) -> Option<Duration> {
        let inner = self.shared.inner.lock().unwrap();
        let it = inner.interactions.get(&id)?;
        let cb = inner
            .requests
            .iter()
            .find(|r| r.method == "POST" && r.path.contains(&format!("/interactions/{id}/")))?;
        Some(cb.at.duration_since(it.dispatched))
    }

    /// How many callbacks the bot sent for an interaction.
    pub fn callbacks(&self, id: u64) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path.contains(&format!("/interactions/{id}/")))
            .count()
    }
}

/// Text of a message or interaction answer: content, embed titles, descriptions, fields.
pub fn text_of(m: &Value) -> String {
    let m = if m.get("data").is_some() && m.get("embeds").is_none() {
        &m["data"]
    } else {
        m
    };
    let mut out = vec![m["content"].as_str().unwrap_or("").to_string()];
    for e in m["embeds"].as_array().cloned().unwrap_or_default() {
        out.push(e["title"].as_str().unwrap_or("").to_string());
        out.push(e["description"].as_str().unwrap_or("").to_string());
        for f in e["fields"].as_array().cloned().unwrap_or_default() {
            out.push(format!(
                "{}: {}",
                f["name"].as_str().unwrap_or(""),
                f["value"].as_str().unwrap_or("")
            ));
        }
        out.push(e["footer"]["text"].as_str().unwrap_or("").to_string());
    }
    out.join("\n")
}

/// The custom_ids of a message's components, in order.
pub fn custom_ids(m: &Value) -> Vec<String> {
    let m = if m.get("data").is_some() && m.get("components").is_none() {
        &m["data"]
    } else {
        m
    };
    m["components"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["custom_id"].as_str().map(String::from))
        .collect()
}

/// The custom_id of the button labelled `label`.
pub fn button(m: &Value, label: &str) -> String {
    let m = if m.get("data").is_some() && m.get("components").is_none() {
        &m["data"]
    } else {
        m
    };
    m["components"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|c| c["label"] == label)
        .and_then(|c| c["custom_id"].as_str().map(String::from))
        .unwrap_or_else(|| panic!("no button `{label}` in {m}"))
}

/// What `disconnect` sends the session task to close the socket.
const CLOSE: &str = "\u{0}close:";

async fn gateway(ws: WebSocketUpgrade, AxState(shared): AxState<Arc<Shared>>) -> Response {
    if shared.inner.lock().unwrap().sharding.down {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    ws.on_upgrade(move |socket| session(socket, shared))
}

async fn session(socket: WebSocket, shared: Arc<Shared>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let mut generation = shared.generation.subscribe();
    generation.mark_unchanged();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if sink.send(WsMessage::Text(hello.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            _ = generation.changed() => {
                // 4000 (unknown error): a client reconnects. serenity ignores a bare close.
                let frame = axum::extract::ws::CloseFrame { code: 4000, reason: "outage".into() };
                let _ = sink.send(WsMessage::Close(Some(frame))).await;
                return;
            }
            out = rx.recv() => match out {
                Some(text) if text.starts_with(CLOSE) => {
                    let code: Option<u16> = text[CLOSE.len()..].parse().ok();
                    if let Some(code) = code {
                        let frame = axum::extract::ws::CloseFrame { code, reason: "fake: closed".into() };
                        let _ = sink.send(WsMessage::Close(Some(frame))).await;
                    }
                    // Without a code: the connection just drops.
                    return;
                }
                Some(text) => {
                    if sink.send(WsMessage::Text(text.into())).await.is_err() {
                        return;
                    }
                }
                None => return,
            },
            incoming = stream.next() => {
                let Some(Ok(msg)) = incoming else {
                    return;
                };
                let WsMessage::Text(text) = msg else {
                    if matches!(msg, WsMessage::Close(_)) {
                        return;
                    }
                    continue;
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                match v["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11}).to_string();
                        if sink.send(WsMessage::Text(ack.into())).await.is_err() {
                            return;
                        }
                    }
                    Some(6) => {
                        // RESUME: replay what the bot missed, then RESUMED. A shard of
                        // several (its session id names it) takes its session back; what was
                        // sent while it was away stays in `undelivered`.
                        let from = v["d"]["seq"].as_u64().unwrap_or(0);
                        let (shard, total) = shard_of_hello(&v);
                        let (missed, resumed) = {
                            let mut inner = shared.inner.lock().unwrap();
                            inner.resumes += 1;
                            inner.resumed_from.push(from);
                            inner.gateway = Some(tx.clone());
                            if total > 1 {
                                let seq = from + 1;
                                inner
                                    .sharding
                                    .sessions
                                    .insert(shard, ShardSession { tx: tx.clone(), seq, total });
                                let resumed = json!({"op": 0, "t": "RESUMED", "s": seq, "d": {}});
                                (Vec::new(), resumed.to_string())
                            } else {
                                let missed: Vec<String> = inner
                                    .events
                                    .iter()
                                    .filter(|(s, _)| *s > from)
                                    .map(|(_, p)| p.clone())
                                    .collect();
                                inner.seq += 1;
                                let resumed = json!({"op": 0, "t": "RESUMED", "s": inner.seq, "d": {}});
                                (missed, resumed.to_string())
                            }
                        };
                        for text in missed.into_iter().chain(std::iter::once(resumed)) {
                            if sink.send(WsMessage::Text(text.into())).await.is_err() {
                                return;
                            }
                        }
                        shared.changed.notify_waiters();
                    }
                    Some(2) => {
                        let addr = shared.addr.lock().unwrap().unwrap();
                        let (shard, total) = shard_of_hello(&v);
                        let ready = {
                            let mut inner = shared.inner.lock().unwrap();
                            inner.identifies += 1;
                            inner.sharding.identified.push((shard, total));
                            // One shard keeps the single session (and its replay); several
                            // route by guild.
                            let seq = if total > 1 {
                                inner.sharding.sessions.insert(
                                    shard,
                                    ShardSession { tx: tx.clone(), seq: 1, total },
                                );
                                1
                            } else {
                                inner.seq += 1;
                                inner.seq
                            };
                            inner.gateway = Some(tx.clone());
                            json!({"op": 0, "t": "READY", "s": seq, "d": {
                                "v": 10,
                                "user": {"id": BOT_ID.to_string(), "username": "photofinish",
                                         "discriminator": "0", "avatar": null, "bot": true,
                                         "global_name": null},
                                "guilds": [],
                                "session_id": format!("fake-session-{shard}-{total}"),
                                "resume_gateway_url": format!("ws://{addr}/gateway"),
                                "shard": [shard, total],
                                "application": {"id": APP_ID.to_string(), "flags": 0},
                            }}).to_string()
                        };
                        if sink.send(WsMessage::Text(ready.into())).await.is_err() {
                            return;
                        }
                        shared.changed.notify_waiters();
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The `[shard, total]` of an IDENTIFY (`d.shard`) or RESUME (`d.session_id`,
/// `fake-session-SHARD-TOTAL`); `(0, 1)` when neither says.
fn shard_of_hello(v: &Value) -> (u64, u64) {
    if let Some([s, t]) = v["d"]["shard"].as_array().map(Vec::as_slice) {
        return (s.as_u64().unwrap_or(0), t.as_u64().unwrap_or(1).max(1));
    }
    v["d"]["session_id"]
        .as_str()
        .and_then(|id| id.strip_prefix("fake-session-"))
        .and_then(|rest| rest.split_once('-'))
        .and_then(|(s, t)| Some((s.parse().ok()?, t.parse::<u64>().ok()?.max(1))))
        .unwrap_or((0, 1))
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

fn bot_author() -> Value {
    json!({"id": BOT_ID.to_string(), "username": "photofinish", "discriminator": "0",
           "avatar": null, "bot": true, "global_name": null})
}

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

async fn rest(AxState(shared): AxState<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req
        .uri()
        .path()
        .trim_start_matches("/api/v10")
        .trim_start_matches("/api/v9")
        .to_string();
    let _headers: HeaderMap = req.headers().clone();
    let (body, uploads) = read_body(req, &shared).await;
    let files: Vec<(String, String, usize)> = uploads
        .iter()
        .map(|u| (u.field.clone(), u.filename.clone(), u.bytes.len()))
        .collect();
    let (mut response, status, refused) = match before_answer(&shared, &method, &path) {
        Some(early) => early,
        None => answer(&shared, &method, &path, &body, &files),
    };
    limit_headers(&shared, &method, &path, &mut response);
    {
        let mut inner = shared.inner.lock().unwrap();
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
    }
    shared.changed.notify_waiters();
    response
}

type Answered = (Response, u16, Option<String>);

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

fn answer(
    shared: &Arc<Shared>,
    method: &Method,
    path: &str,
    body: &Value,
    files: &[(String, String, usize)],
) -> Answered {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let addr = shared.addr.lock().unwrap().unwrap();
    match (method.as_str(), parts.as_slice()) {
        ("GET", ["gateway", "bot"]) | ("GET", ["gateway"]) => ok_json(json!({
            "url": format!("ws://{addr}/gateway"),
            "shards": shared.inner.lock().unwrap().sharding.recommended.unwrap_or(1),
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        })),
        ("GET", ["users", "@me"]) => ok_json(bot_author()),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            let list: Vec<Value> = body
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
                    c
                })
                .collect();
            ok_json(Value::Array(list))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            let Ok(id) = id.parse::<u64>() else {
                return refuse(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
            };
            if let Err(why) = check_message(&body["data"]) {
                return refuse(StatusCode::BAD_REQUEST, 50035, &why);
            }
            let mut inner = shared.inner.lock().unwrap();
            let Some(it) = inner.interactions.get(&id).cloned() else {
                return refuse(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
            };
            if it.token != *token {
                return refuse(StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token");
            }
            if it.responded {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    40060,
                    "Interaction has already been acknowledged.",
                );
            }
            if it.dispatched.elapsed() > Duration::from_secs(3) {
                return refuse(
                    StatusCode::NOT_FOUND,
                    10062,
                    "Unknown interaction (over 3 s)",
                );
            }
            let kind = body["type"].as_u64().unwrap_or(0);
            let mut original = None;
            match kind {
                4 | 5 => {
                    let mid = shared.id();
                    let m = message_object(mid, it.channel, &body["data"], bot_author());
                    inner.messages.insert(mid, m);
                    inner.message_order.push(mid);
                    original = Some(mid);
                }
                7 => {
                    if let Some(mid) = it.message
                        && let Some(m) = inner.messages.get_mut(&mid)
                    {
                        for key in ["content", "embeds", "components"] {
                            if let Some(v) = body["data"].get(key) {
                                m[key] = v.clone();
                            }
                        }
                    }
                    original = it.message;
                }
                6 => original = it.message,
                _ => {}
            }
            if let Some(entry) = inner.interactions.get_mut(&id) {
                entry.responded = true;
                entry.response = Some(body.clone());
                entry.original = original;
            }
            (StatusCode::NO_CONTENT.into_response(), 204, None)
        }
        (m, ["webhooks", _, token, "messages", which]) => {
            let mut inner = shared.inner.lock().unwrap();
            let Some(it) = inner
                .interactions
                .values()
                .find(|i| i.token == *token)
                .cloned()
            else {
                return refuse(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            let mid = if *which == "@original" {
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
                for key in ["content", "embeds", "components"] {
                    if let Some(v) = body.get(key) {
                        msg[key] = v.clone();
                    }
                }
                msg["edited_timestamp"] = json!(now_iso());
            }
            ok_json(msg.clone())
        }
        ("POST", ["webhooks", _, token]) => {
            if let Err(why) = check_message(body) {
                return refuse(StatusCode::BAD_REQUEST, 50035, &why);
            }
            let mut inner = shared.inner.lock().unwrap();
            let Some(it) = inner
                .interactions
                .values()
                .find(|i| i.token == *token)
                .cloned()
            else {
                return refuse(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
            };
            let mid = shared.id();
            let m = message_object(mid, it.channel, body, bot_author());
            inner.messages.insert(mid, m.clone());
            inner.message_order.push(mid);
            ok_json(m)
        }
        ("POST", ["users", "@me", "channels"]) => {
            let Some(user) = body["recipient_id"]
                .as_str()
                .and_then(|u| u.parse::<u64>().ok())
                .or_else(|| body["recipient_id"].as_u64())
            else {
                return refuse(StatusCode::BAD_REQUEST, 50035, "recipient_id missing");
            };
            let mut inner = shared.inner.lock().unwrap();
            let channel = match inner.dm_channel_of.get(&user) {
                Some(c) => *c,
                None => {
                    let c = shared.id();
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
        ("POST", ["channels", channel, "messages"]) => {
            let Ok(channel) = channel.parse::<u64>() else {
                return refuse(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
            };
            if let Err(why) = check_message(body) {
                return refuse(StatusCode::BAD_REQUEST, 50035, &why);
            }
            let mut inner = shared.inner.lock().unwrap();
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
                return (resp, 429, Some("asked: rate limited".into()));
            }
            if let Some(user) = inner.recipient_of.get(&channel)
                && inner.closed_dms.contains(user)
            {
                return (
                    error(
                        StatusCode::FORBIDDEN,
                        50007,
                        "Cannot send messages to this user",
                    ),
                    403,
                    Some("asked: DMs closed".into()),
                );
            }
            // enforce_nonce: the same nonce in the same channel returns the first message.
            let nonce = match &body["nonce"] {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            };
            if body["enforce_nonce"] == true
                && let Some(n) = &nonce
                && let Some(existing) = inner.nonces.get(&(channel, n.clone()))
                && let Some(m) = inner.messages.get(existing)
            {
                return ok_json(m.clone());
            }
            let mid = shared.id();
            let mut m = message_object(mid, channel, body, bot_author());
            m["attachments"] = json!(
                files
                    .iter()
                    .map(|(_, name, size)| {
                        // The alt text is the payload's attachment of the same file name.
                        let description = body["attachments"]
                            .as_array()
                            .and_then(|a| a.iter().find(|a| a["filename"] == name.as_str()))
                            .map(|a| a["description"].clone())
                            .unwrap_or(Value::Null);
                        json!({"id": shared.id().to_string(), "filename": name, "size": size, "description": description, "url": format!("http://{addr}/files/{name}"), "proxy_url": format!("http://{addr}/files/{name}")})
                    })
                    .collect::<Vec<_>>()
            );
            inner.messages.insert(mid, m.clone());
            inner.message_order.push(mid);
            if let Some(n) = nonce {
                inner.nonces.insert((channel, n), mid);
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
        ("PATCH", ["channels", _, "messages", mid]) => {
            if let Err(why) = check_message(body) {
                return refuse(StatusCode::BAD_REQUEST, 50035, &why);
            }
            let mut inner = shared.inner.lock().unwrap();
            let Some(m) = mid
                .parse::<u64>()
                .ok()
                .and_then(|mid| inner.messages.get_mut(&mid))
            else {
                return refuse(StatusCode::NOT_FOUND, 10008, "Unknown Message");
            };
            for key in ["content", "embeds", "components"] {
                if let Some(v) = body.get(key) {
                    m[key] = v.clone();
                }
            }
            m["edited_timestamp"] = json!(now_iso());
            ok_json(m.clone())
        }
        ("POST", ["channels", parent, "threads"]) => {
            let id = shared.id();
            shared.inner.lock().unwrap().threads.push(id);
            ok_json(json!({
                "id": id.to_string(),
                "type": 11,
                "guild_id": GUILD_ID.to_string(),
                "parent_id": parent,
                "name": body["name"],
                "owner_id": BOT_ID.to_string(),
                "thread_metadata": {"archived": false, "auto_archive_duration": 1440,
                                     "archive_timestamp": now_iso(), "locked": false},
                "position": 0,
                "permission_overwrites": [],
                "nsfw": false,
            }))
        }
        _ => refuse(StatusCode::NOT_FOUND, 0, "not served by the fake"),
    }
}

/// A fake Discord, a database in a temporary folder, a test clock, and the bot.
pub struct Harness {
    pub fake: FakeDiscord,
    pub clock: Arc<photofinish::referee::TestClock>,
    pub bot: Option<photofinish::discord::Running>,
    pub dir: tempfile::TempDir,
}

/// The channel races run in.
pub const CHANNEL: u64 = 600_000_000_000_000_001;

impl Harness {
    pub async fn start() -> Harness {
        // RUST_LOG=debug shows what the bot does.
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(photofinish::referee::TestClock::at_epoch());
        let mut h = Harness {
            fake,
            clock,
            bot: None,
            dir,
        };
        h.start_bot().await;
        h
    }

    pub fn db(&self) -> std::path::PathBuf {
        self.dir.path().join("races.db")
    }

    pub async fn start_bot(&mut self) {
        let settings = self.fake.settings(&self.db());
        let before = self.fake.identifies();
        let bot = photofinish::discord::start(settings, self.clock.clone())
            .await
            .unwrap();
        self.bot = Some(bot);
        self.fake
            .until("the bot to connect", |i| {
                (i.identifies > before && i.gateway.is_some()).then_some(())
            })
            .await;
        self.fake.wait_ready().await;
    }

    pub async fn stop_bot(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.stop().await;
        }
        self.fake.shared.inner.lock().unwrap().gateway = None;
    }

    pub fn referee(&self) -> Arc<photofinish::referee::Referee> {
        self.bot.as_ref().unwrap().referee()
    }

    /// Moves the test clock and wakes the bot's workers.
    pub fn advance(&self, secs: i64) {
        self.clock.advance_secs(secs);
        if let Some(bot) = &self.bot {
            bot.wake();
        }
    }

    /// Waits until the bot has been quiet for a moment.
    pub async fn settle(&self) {
        self.fake.settle(Duration::from_millis(300)).await;
    }

    /// Runs a slash command and returns the answer.
    pub async fn slash(&self, user: &User, sub: &str, options: &[(&str, Value)]) -> Value {
        let id = self.fake.slash(user, CHANNEL, sub, options);
        self.fake.response(id).await
    }

    /// Presses a button and returns the answer.
    pub async fn click(&self, user: &User, message: &Value, custom_id: &str) -> Value {
        let id = self.fake.click(user, message, custom_id);
        self.fake.response(id).await
    }

    /// Opens a lobby of `game` in CHANNEL with `options`, seats `host` and `others`, and
    /// adds `bots` bots.
    pub async fn open_lobby(
        &self,
        game: &str,
        options: &str,
        host: &User,
        others: &[&User],
        bots: u8,
    ) {
        let a = self
            .slash(
                host,
                "new",
                &[("game", json!(game)), ("options", json!(options))],
            )
            .await;
        assert!(text_of(&a).contains("is open"), "{a}");
        for u in std::iter::once(host).chain(others.iter().copied()) {
            let a = self.slash(u, "join", &[]).await;
            assert!(text_of(&a).contains("You're in"), "{a}");
        }
        if bots > 0 {
            let a = self.slash(host, "bots", &[("count", json!(bots))]).await;
            assert!(text_of(&a).contains("Bots added"), "{a}");
        }
    }

    /// [`Harness::open_lobby`] without bots, then started; returns once every seat has
    /// its first prompt.
    pub async fn open_race(&self, game: &str, options: &str, host: &User, others: &[&User]) {
        self.open_lobby(game, options, host, others, 0).await;
        let a = self.slash(host, "start", &[]).await;
        assert!(text_of(&a).contains("is off"), "{a}");
        for u in std::iter::once(host).chain(others.iter().copied()) {
            self.fake.wait_dm(u.id, 2).await;
        }
        self.settle().await;
    }
}

/// True when an interaction answer is visible only to its user.
pub fn is_ephemeral(answer: &Value) -> bool {
    answer["data"]["flags"]
        .as_u64()
        .is_some_and(|f| f & 64 != 0)
}

/// The rate-limit bucket of a request, as Discord keys it: message routes per channel.
fn route_bucket(method: &Method, path: &str) -> Option<String> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (method.as_str(), parts.as_slice()) {
        ("POST", ["channels", c, "messages"]) => Some(format!("POST /channels/{c}/messages")),
        ("PATCH", ["channels", c, "messages", _]) => Some(format!("PATCH /channels/{c}/messages")),
        _ => None,
    }
}

/// Interaction callbacks and follow-ups are outside the global limit.
fn counts_globally(path: &str) -> bool {
    !path.starts_with("/interactions/") && !path.starts_with("/webhooks/")
}

fn too_many(retry_after: f64, global: bool, body: bool, headers: bool, why: &str) -> Answered {
    let json = if body {
        json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": global, "code": 0})
    } else {
        json!({"message": "You are being rate limited.", "code": 0})
    };
    let mut resp = (StatusCode::TOO_MANY_REQUESTS, axum::Json(json)).into_response();
    if headers {
        let h = resp.headers_mut();
        let secs = format!("{retry_after:.3}");
        h.insert("retry-after", secs.parse().unwrap());
        h.insert(
            "x-ratelimit-limit",
            ROUTE_LIMIT.to_string().parse().unwrap(),
        );
        h.insert("x-ratelimit-remaining", "0".parse().unwrap());
        h.insert("x-ratelimit-reset-after", secs.parse().unwrap());
        h.insert(
            "x-ratelimit-scope",
            (if global { "global" } else { "user" }).parse().unwrap(),
        );
        if global {
            h.insert("x-ratelimit-global", "true".parse().unwrap());
        }
    }
    (resp, 429, Some(why.to_string()))
}

/// An injected fault, or Discord's rate limits, answered before the request is served.
fn before_answer(shared: &Arc<Shared>, method: &Method, path: &str) -> Option<Answered> {
    let mut inner = shared.inner.lock().unwrap();
    if let Some(i) = inner
        .faults
        .iter()
        .position(|f| f.left > 0 && f.method == method.as_str() && path.starts_with(&f.path_start))
    {
        inner.faults[i].left -= 1;
        let fault = inner.faults[i].fault.clone();
        return Some(match fault {
            Fault::Status(code) => {
                let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_GATEWAY);
                (
                    error(status, 0, &format!("{code}: injected")),
                    code,
                    Some(format!("asked: {code}")),
                )
            }
            Fault::RateLimit {
                retry_after,
                global,
                body,
                headers,
            } => too_many(retry_after, global, body, headers, "asked: rate limited"),
        });
    }
    if !inner.enforce_limits {
        return None;
    }
    let now = Instant::now();
    if counts_globally(path) {
        let w = inner.global.get_or_insert(Window {
            opened: now,
            used: 0,
        });
        if now.duration_since(w.opened) >= Duration::from_secs(1) {
            *w = Window {
                opened: now,
                used: 0,
            };
        }
        if w.used >= GLOBAL_PER_SECOND {
            let left = 1.0 - now.duration_since(w.opened).as_secs_f64();
            return Some(too_many(left.max(0.001), true, true, true, "limit: global"));
        }
        w.used += 1;
    }
    if let Some(key) = route_bucket(method, path) {
        let w = inner.buckets.entry(key.clone()).or_insert(Window {
            opened: now,
            used: 0,
        });
        if now.duration_since(w.opened) >= ROUTE_WINDOW {
            *w = Window {
                opened: now,
                used: 0,
            };
        }
        if w.used >= ROUTE_LIMIT {
            let left = (ROUTE_WINDOW - now.duration_since(w.opened)).as_secs_f64();
            return Some(too_many(
                left.max(0.001),
                false,
                true,
                true,
                &format!("limit: {key}"),
            ));
        }
        w.used += 1;
    }
    None
}

/// The `X-RateLimit-*` headers Discord sends on every answer of a limited route, so a
/// client can pace itself.
fn limit_headers(shared: &Arc<Shared>, method: &Method, path: &str, response: &mut Response) {
    let inner = shared.inner.lock().unwrap();
    if !inner.enforce_limits || response.status() == StatusCode::TOO_MANY_REQUESTS {
        return;
    }
    let Some(key) = route_bucket(method, path) else {
        return;
    };
    let Some(w) = inner.buckets.get(&key) else {
        return;
    };
    let reset_after = ROUTE_WINDOW
        .saturating_sub(w.opened.elapsed())
        .as_secs_f64();
    let h = response.headers_mut();
    h.insert(
        "x-ratelimit-limit",
        ROUTE_LIMIT.to_string().parse().unwrap(),
    );
    h.insert(
        "x-ratelimit-remaining",
        ROUTE_LIMIT
            .saturating_sub(w.used)
            .to_string()
            .parse()
            .unwrap(),
    );
    h.insert(
        "x-ratelimit-reset-after",
        format!("{reset_after:.3}").parse().unwrap(),
    );
    h.insert("x-ratelimit-bucket", key.replace(' ', "").parse().unwrap());
}

impl FakeDiscord {
    /// The next `times` requests whose method is `method` and whose path (after
    /// `/api/v10`) starts with `path_start` get `fault` instead of an answer.
    pub fn inject(&self, method: &str, path_start: &str, fault: Fault, times: usize) {
        self.shared.inner.lock().unwrap().faults.push(Injected {
            method: method.into(),
            path_start: path_start.into(),
            fault,
            left: times,
        });
    }

    /// Enforces Discord's rate limits from now on: [`GLOBAL_PER_SECOND`] requests a second
    /// (interaction callbacks and follow-ups aside) and [`ROUTE_LIMIT`] message posts, and
    /// as many edits, per channel per [`ROUTE_WINDOW`]; a request over a limit gets 429.
    pub fn enforce_rate_limits(&self) {
        self.shared.inner.lock().unwrap().enforce_limits = true;
    }

    /// Requests answered 429 because they broke a limit (not the injected ones).
    pub fn limit_hits(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.refused
                    .as_deref()
                    .is_some_and(|w| w.starts_with("limit:"))
            })
            .collect()
    }

    /// Closes the bot's gateway connection: with a close frame carrying `code`, or, with
    /// `None`, by dropping the connection. Dispatches sent meanwhile wait for a RESUME.
    pub fn disconnect(&self, code: Option<u16>) {
        let mut inner = self.shared.inner.lock().unwrap();
        if let Some(tx) = inner.gateway.take() {
            let _ = tx.send(format!(
                "{CLOSE}{}",
                code.map(|c| c.to_string()).unwrap_or_default()
            ));
        }
    }

    /// How many times the bot resumed its gateway session (op 6).
    pub fn resumes(&self) -> usize {
        self.shared.inner.lock().unwrap().resumes
    }

    /// Waits until the bot has resumed `n` times, or identified `identifies` times.
    pub async fn wait_reconnected(&self, resumes: usize, identifies: usize) {
        self.until("the bot to reconnect", |i| {
            ((i.resumes >= resumes || i.identifies >= identifies) && i.gateway.is_some())
                .then_some(())
        })
        .await;
    }

    /// The user's DM channel with the bot, opened if need be (for commands used in a DM).
    pub fn open_dm(&self, user: u64) -> u64 {
        self.dm_channel_for(user)
    }

    /// A `/race <sub>` slash command from a member of another server: `guild` replaces
    /// the fake's guild id. Returns the interaction id.
    pub fn slash_in_guild(
        &self,
        user: &User,
        channel: u64,
        guild: u64,
        sub: &str,
        options: &[(&str, Value)],
    ) -> u64 {
        self.shared.inner.lock().unwrap().guild_override = Some(guild);
        self.slash(user, channel, sub, options)
    }
}
