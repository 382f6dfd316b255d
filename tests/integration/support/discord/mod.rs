//! A fake Discord on loopback, for driving the real serenity/poise client in tests.
//!
//! It serves the REST calls the bot makes (under `/api/v10`, reached through serenity's
//! REST proxy setting) and the gateway (`/gateway`: HELLO, IDENTIFY, READY, heartbeats and
//! dispatches), records every request, and behaves like Discord where it matters:
//! - it enforces Discord's documented message limits and answers 400 when one is broken;
//! - it answers 404 with code 10003 to a request for a user's id as if it were a channel (a
//!   DM goes to the channel `POST /users/@me/channels` opened), as Discord does;
//! - it answers 403 with code 50007 for users whose DMs are closed, and 50013 for posts
//!   in a channel where the bot lost Send Messages or Attach Files ([`Lost`]), and 404
//!   with 10003 for a channel someone deleted ([`FakeDiscord::delete_channel`]);
//! - it archives a thread after [`THREAD_ARCHIVE`] without activity on its clock, refuses
//!   edits in an archived thread (400, 50083), and unarchives it on a new post or a
//!   `PATCH` with `archived: false`, as Discord does;
//! - it answers 429 (with `retry_after`) on demand, and 500 after creating a message on
//!   demand (a lost answer), and honours `enforce_nonce` so a retry does not post twice;
//! - it answers an interaction's callback only once, and only within 3 seconds on its own
//!   clock, which only the test moves ([`FakeDiscord::advance`]); follow-ups and edits
//!   with the interaction's token only within 15 minutes ([`TOKEN_LIFE`]: 401, 50027);
//! - it checks every REST request against Discord's OpenAPI document ([`spec`]): one that
//!   does not fit is answered 404/405 or 400 with code 50035, and fails its test;
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
//! - it hangs on request ([`FakeDiscord::hang`]): every REST request, or the message posts
//!   in one channel (created, never answered), accepted and left without an answer.
//!
//! Its parts: [`state`] (what it holds), [`rest`] and [`gateway`] (what it serves),
//! [`spec`] (Discord's OpenAPI document, checked against every request),
//! [`limits`] (Discord's rules and injected faults), [`interactions`] (what people do),
//! [`messages`] (reading what the bot sent), [`harness`] (the bot on a database and a
//! test clock, against the fake) and [`play`] (a game planned by the engine, then played
//! through the harness). `benches/discord.rs` includes this module too.
#![allow(dead_code)]

mod autocomplete;
mod gateway;
mod harness;
mod interactions;
mod limits;
mod messages;
mod play;
mod rest;
mod spec;
mod state;

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::Notify;

// What the tests and benches use; each uses only some of it.
#[allow(unused_imports)]
pub use harness::{CHANNEL, Harness};
#[allow(unused_imports)]
pub use limits::{Fault, GLOBAL_PER_SECOND, ROUTE_LIMIT, ROUTE_WINDOW, check_message};
#[allow(unused_imports)]
pub use messages::*;
#[allow(unused_imports)]
pub use play::*;
#[allow(unused_imports)]
pub use rest::{INTERACTION_WINDOW, NONCE_WINDOW, THREAD_ARCHIVE, TOKEN_LIFE, ephemeral_reply};
use state::{Inner, Shared};

pub const APP_ID: u64 = 900_000_000_000_000_001;
pub const BOT_ID: u64 = 900_000_000_000_000_001;
pub const GUILD_ID: u64 = 800_000_000_000_000_001;
pub const COMMAND_ID: u64 = 700_000_000_000_000_001;
/// How long the tests wait for something the bot should do before calling it a hang:
/// generous, so that a loaded machine is slow but never fails.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Discord's permission bit for Manage Server.
const MANAGE_GUILD: u64 = 1 << 5;
/// Discord's permission bit for Create Public Threads.
const CREATE_PUBLIC_THREADS: u64 = 1 << 35;

/// A person on the fake Discord.
#[derive(Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: String,
    /// Has Manage Server in the guild.
    pub manage: bool,
    /// May create public threads in the channel (as @everyone may by default).
    pub threads: bool,
}

impl User {
    pub fn new(id: u64, name: &str) -> User {
        User {
            id,
            name: name.into(),
            manage: false,
            threads: true,
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
            "permissions": ((if self.manage { MANAGE_GUILD } else { 0 })
                | (if self.threads { CREATE_PUBLIC_THREADS } else { 0 }))
                .to_string(),
        })
    }
}

/// Permissions the bot lost in a channel: without them Discord answers its posts 403 with
/// code 50013 (Missing Permissions).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lost {
    /// Every post is refused.
    pub send_messages: bool,
    /// Posts with a file are refused.
    pub attach_files: bool,
}

/// Which requests the fake takes and never answers ([`FakeDiscord::hang`]): the connection
/// is accepted and then nothing comes back, as from a Discord (or a proxy) that hangs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hang {
    /// Everything is answered.
    #[default]
    Off,
    /// No REST request is answered, nor acted on.
    Rest,
    /// Message posts in this channel are created, but never answered.
    PostsIn(u64),
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

/// The fake Discord.
pub struct FakeDiscord {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
        // A request that does not fit Discord's spec fails the test that made it.
        if std::thread::panicking() {
            return;
        }
        let inner = self.shared.inner.lock().unwrap();
        let off_spec: Vec<String> = inner
            .requests
            .iter()
            .filter(|r| r.refused.as_deref().is_some_and(|w| w.starts_with("spec:")))
            .map(|r| format!("{} {} {:?}", r.method, r.path, r.refused))
            .collect();
        if !inner.off_spec_expected && !off_spec.is_empty() {
            panic!("requests that do not fit Discord's spec: {off_spec:#?}");
        }
    }
}

/// Now as Discord writes a timestamp.
fn now_iso() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, false)
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::default()),
            changed: Notify::new(),
            generation: tokio::sync::watch::channel(0).0,
            next_id: AtomicU64::new(1_000_000_000_000_000_000),
            id_clock: Mutex::new(None),
            addr: Mutex::new(None),
            clock_ms: AtomicU64::new(0),
            stall: tokio::sync::watch::channel(false).0,
            stalled: AtomicU64::new(0),
            hang: tokio::sync::watch::channel(Hang::Off).0,
            hung: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .route("/gateway", get(gateway::gateway))
            .fallback(rest::rest)
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
    pub fn settings(&self, database: &std::path::Path) -> photofinish::config::Settings {
        let mut s = photofinish::config::Settings::from_toml(&format!(
            "token = \"fake-token\"\ndatabase = \"{}\"\nrest_proxy = \"http://{}\"\n[turns]\nlength = \"1h\"\nreminders = [\"30m\"]\n",
            database.display(),
            self.addr
        ))
        .unwrap();
        s.discord.guild = None;
        // Tests fire commands faster than anyone could on the test clock, which only they
        // move; `quotas::` turns the pace back on.
        s.referee.limits.commands_burst = 0;
        // The suites written before the grace window expect a play to resolve at once;
        // `Harness::start_with_real_grace` keeps the bot's real default (2 minutes).
        s.referee.default_timing.calendar.grace_secs = Some(0);
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

    /// The time on the fake's clock (zero at the start), which moves only by
    /// [`FakeDiscord::advance`].
    pub fn now(&self) -> Duration {
        self.shared.now()
    }

    /// Makes every new id (a message's, a DM's) from this clock's time, as Discord's
    /// snowflakes carry theirs: the bot's clock, so that a DM's time and the referee's agree.
    pub fn follow_clock(&self, now_ms: impl Fn() -> i64 + Send + Sync + 'static) {
        if let Ok(mut c) = self.shared.id_clock.lock() {
            *c = Some(Arc::new(now_ms));
        }
    }

    /// Moves the fake's clock on: an interaction not yet acknowledged when it has been
    /// more than [`INTERACTION_WINDOW`] is refused, as Discord does.
    pub fn advance(&self, by: Duration) {
        self.shared.advance(by);
    }

    /// When the bot next acknowledges an interaction to answer it later (a deferral),
    /// the fake's clock moves on by `by`, as if the work took that long: past
    /// [`TOKEN_LIFE`], the follow-up or edit that completes it is refused.
    pub fn advance_on_ack(&self, by: Duration) {
        self.shared.inner.lock().unwrap().advance_on_ack = Some(by);
    }

    /// The bot loses permissions in a channel (a moderator's change).
    pub fn lose_permission(&self, channel: u64, lost: Lost) {
        self.shared
            .inner
            .lock()
            .unwrap()
            .lost_permissions
            .insert(channel, lost);
    }

    /// Someone deletes a channel: whatever the bot sends there is answered 404, 10003
    /// (Unknown Channel).
    pub fn delete_channel(&self, channel: u64) {
        self.shared
            .inner
            .lock()
            .unwrap()
            .deleted_channels
            .insert(channel);
    }

    /// The threads the bot created, in order.
    pub fn threads(&self) -> Vec<u64> {
        self.shared.inner.lock().unwrap().threads.clone()
    }

    /// Whether Discord holds a thread archived now.
    pub fn is_archived(&self, thread: u64) -> bool {
        self.shared
            .inner
            .lock()
            .unwrap()
            .archived_threads
            .contains(&thread)
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

    /// The test sends off-spec requests on purpose: the fake still refuses them, but does
    /// not fail the test for them when it ends.
    pub fn expect_off_spec(&self) {
        self.shared.inner.lock().unwrap().off_spec_expected = true;
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

    /// The next `n` message posts land, and are answered 200 with an HTML page, not JSON.
    pub fn garble_next_answers(&self, n: usize) {
        self.shared.inner.lock().unwrap().garble_answers = n;
    }

    /// The answers [`FakeDiscord::garble_next_answers`] has still to garble.
    /// Answers to users' DMs that failed and that the bot will try again shortly.
    pub fn dm_answers_in_flight(&self) -> usize {
        self.shared.inner.lock().unwrap().dm_answers_retrying.len()
    }

    pub fn answers_to_garble(&self) -> usize {
        self.shared.inner.lock().unwrap().garble_answers
    }

    /// From now on a message post waits, unanswered, until [`FakeDiscord::unstall_posts`],
    /// and is then refused with 503 (it never lands): a delivery caught in flight.
    pub fn stall_posts(&self) {
        self.shared.stall.send_replace(true);
    }

    /// Lets stalled message posts go (refused) and new ones through.
    pub fn unstall_posts(&self) {
        self.shared.stall.send_replace(false);
    }

    /// From now on, the requests `hang` names are accepted and never answered; until
    /// [`Hang::Off`], when those still waiting are refused (503: their asker gave up).
    pub fn hang(&self, hang: Hang) {
        self.shared.hang.send_replace(hang);
        self.shared.changed.notify_waiters();
    }

    /// The requests left unanswered so far: (method, path, how many requests the fake
    /// had recorded before it, the hung one included when it was acted on).
    pub fn hung(&self) -> Vec<(String, String, usize)> {
        self.shared.hung.lock().unwrap().clone()
    }

    /// Waits until `n` requests in all were left unanswered.
    pub async fn wait_hung(&self, n: usize) {
        self.until(&format!("{n} requests left unanswered"), |_| {
            (self.shared.hung.lock().unwrap().len() >= n).then_some(())
        })
        .await;
    }

    /// Waits until a message post is stalled.
    pub async fn wait_stalled(&self) {
        self.until("a message post to stall", |_| {
            (self
                .shared
                .stalled
                .load(std::sync::atomic::Ordering::SeqCst)
                > 0)
            .then_some(())
        })
        .await;
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

    /// Every create the fake received again under a nonce it had seen (channel, nonce):
    /// a second post of one message that only Discord's nonce window hid.
    pub fn nonce_repeats(&self) -> Vec<(u64, String)> {
        self.shared.inner.lock().unwrap().folded.clone()
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

    /// Waits for a DM to a user matching `f` (the bot may not have opened the DM channel
    /// yet) and returns it.
    pub async fn wait_dm_matching(
        &self,
        user: u64,
        what: &str,
        f: impl Fn(&Value) -> bool,
    ) -> Value {
        self.until(what, |i| {
            let c = i.dm_channel_of.get(&user)?.to_string();
            i.message_order
                .iter()
                .filter_map(|id| i.messages.get(id))
                .find(|m| m["channel_id"] == c.as_str() && f(m))
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
}
