//! The fake's gateway (`/gateway`): HELLO, IDENTIFY and READY, heartbeats, dispatches in
//! order with their sequence numbers, RESUME (the missed dispatches, then RESUMED), closes
//! and outages, and Discord's sharding (a guild's events go to the session holding shard
//! `(guild_id >> 22) % total`, DMs to shard 0).

use std::sync::Arc;

use axum::extract::State as AxState;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::state::{ShardSession, Shared};
use super::{APP_ID, BOT_ID, FakeDiscord};

/// What `disconnect` sends the session task to close the socket.
const CLOSE: &str = "\u{0}close:";

pub(super) async fn gateway(
    ws: WebSocketUpgrade,
    AxState(shared): AxState<Arc<Shared>>,
) -> Response {
    if shared.inner.lock().unwrap().sharding.down {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    ws.on_upgrade(move |socket| session(socket, shared))
}

type Sink = SplitSink<WebSocket, WsMessage>;

/// Sends each text frame; false once the socket is gone.
async fn send_all(sink: &mut Sink, texts: impl IntoIterator<Item = String>) -> bool {
    for text in texts {
        if sink.send(WsMessage::Text(text.into())).await.is_err() {
            return false;
        }
    }
    true
}

/// One gateway connection, until either side closes it.
async fn session(socket: WebSocket, shared: Arc<Shared>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let mut generation = shared.generation.subscribe();
    generation.mark_unchanged();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if !send_all(&mut sink, [hello]).await {
        return;
    }
    loop {
        tokio::select! {
            _ = generation.changed() => {
                // 4000 (unknown error): a client reconnects. serenity ignores a bare close.
                let frame = CloseFrame { code: 4000, reason: "outage".into() };
                let _ = sink.send(WsMessage::Close(Some(frame))).await;
                return;
            }
            out = rx.recv() => match out {
                Some(text) if text.starts_with(CLOSE) => {
                    if let Ok(code) = text[CLOSE.len()..].parse::<u16>() {
                        let frame = CloseFrame { code, reason: "fake: closed".into() };
                        let _ = sink.send(WsMessage::Close(Some(frame))).await;
                    }
                    // Without a code: the connection just drops.
                    return;
                }
                Some(text) => {
                    if !send_all(&mut sink, [text]).await {
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
                let replies = match v["op"].as_u64() {
                    Some(1) => vec![json!({"op": 11}).to_string()],
                    Some(6) if shared.inner.lock().unwrap().refuse_resume => {
                        shared.inner.lock().unwrap().refuse_resume = false;
                        vec![json!({"op": 9, "d": false}).to_string()]
                    }
                    Some(6) => resume(&shared, &v, &tx),
                    Some(2) => vec![identify(&shared, &v, &tx)],
                    _ => Vec::new(),
                };
                if !send_all(&mut sink, replies).await {
                    return;
                }
                shared.changed.notify_waiters();
            }
        }
    }
}

/// RESUME: what the bot missed, then RESUMED. A shard of several (its session id names
/// it) takes its session back; what was sent while it was away stays in `undelivered`.
fn resume(shared: &Shared, v: &Value, tx: &mpsc::UnboundedSender<String>) -> Vec<String> {
    let from = v["d"]["seq"].as_u64().unwrap_or(0);
    let (shard, total) = shard_of_hello(v);
    let mut inner = shared.inner.lock().unwrap();
    inner.resumes += 1;
    inner.resumed_from.push(from);
    keep_twin(&mut inner, tx);
    inner.gateway = Some(tx.clone());
    if total > 1 {
        let seq = from + 1;
        let session = ShardSession {
            tx: tx.clone(),
            seq,
            total,
        };
        inner.sharding.sessions.insert(shard, session);
        return vec![json!({"op": 0, "t": "RESUMED", "s": seq, "d": {}}).to_string()];
    }
    let mut out: Vec<String> = inner
        .events
        .iter()
        .filter(|(s, _)| *s > from)
        .map(|(_, p)| p.clone())
        .collect();
    inner.seq += 1;
    out.push(json!({"op": 0, "t": "RESUMED", "s": inner.seq, "d": {}}).to_string());
    out
}

/// IDENTIFY: READY. One shard keeps the single session (and its replay); several route
/// by guild.
fn identify(shared: &Shared, v: &Value, tx: &mpsc::UnboundedSender<String>) -> String {
    let addr = shared.addr.lock().unwrap().unwrap();
    let (shard, total) = shard_of_hello(v);
    let mut inner = shared.inner.lock().unwrap();
    inner.identifies += 1;
    inner.sharding.identified.push((shard, total));
    let seq = if total > 1 {
        let session = ShardSession {
            tx: tx.clone(),
            seq: 1,
            total,
        };
        inner.sharding.sessions.insert(shard, session);
        1
    } else {
        inner.seq += 1;
        inner.seq
    };
    keep_twin(&mut inner, tx);
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
    }})
    .to_string()
}

/// With the shard shared, the session `tx` displaces keeps its dispatches.
fn keep_twin(inner: &mut super::state::Inner, tx: &mpsc::UnboundedSender<String>) {
    if !inner.shared_shard {
        return;
    }
    if let Some(old) = inner.gateway.take()
        && !old.is_closed()
        && !old.same_channel(tx)
    {
        inner.twins.push(old);
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

impl FakeDiscord {
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

    pub(super) fn send(&self, event: &str, d: Value) {
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
        // Two processes on one shard: each gets every dispatch.
        inner.twins.retain(|t| t.send(payload.clone()).is_ok());
        // While the bot is away the event waits, as Discord keeps it, for a RESUME.
        if let Some(tx) = inner.gateway.clone()
            && tx.send(payload).is_err()
        {
            inner.gateway = None;
        }
    }

    /// Two processes on one shard, as during a rolling deploy: from now the session a
    /// second process's IDENTIFY displaces keeps getting every dispatch too. Turned off,
    /// the shard goes back to the session that held it before (if still open) and the
    /// other stops getting dispatches (its process is expected to have stopped).
    pub fn share_shard(&self, on: bool) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.shared_shard = on;
        if on {
            inner.primary = inner.gateway.clone();
            return;
        }
        inner.twins.clear();
        if let Some(p) = inner.primary.take()
            && !p.is_closed()
        {
            inner.gateway = Some(p);
        }
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

    /// Sends INVALID SESSION (op 9): `resumable` false makes the bot identify anew.
    pub fn invalid_session(&self, resumable: bool) {
        let inner = self.shared.inner.lock().unwrap();
        if let Some(tx) = &inner.gateway {
            let _ = tx.send(json!({"op": 9, "d": resumable}).to_string());
        }
    }

    /// Every REST request is answered 503 until [`FakeDiscord::rest_up`] (with
    /// [`FakeDiscord::gateway_down`]: Discord cannot be reached at all).
    pub fn rest_down(&self) {
        self.shared.inner.lock().unwrap().rest_down = true;
    }

    pub fn rest_up(&self) {
        self.shared.inner.lock().unwrap().rest_down = false;
    }

    /// The bot's next RESUME is refused with INVALID SESSION (not resumable), as when
    /// Discord dropped the session: what was sent meanwhile is never replayed.
    pub fn refuse_next_resume(&self) {
        self.shared.inner.lock().unwrap().refuse_resume = true;
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
}
