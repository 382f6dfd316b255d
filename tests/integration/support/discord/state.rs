//! The fake's state: what it has recorded and served, the interactions it dispatched,
//! the gateway's sessions and shards, and its clock. Only the fake's own modules touch it.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Notify, mpsc};

use super::Recorded;
use super::limits::Injected;

#[derive(Clone, Debug)]
pub(super) struct Interaction {
    pub(super) token: String,
    pub(super) channel: u64,
    /// When it was dispatched, on the fake's clock.
    pub(super) dispatched: Duration,
    /// When its callback was accepted, on the fake's clock.
    pub(super) acknowledged: Option<Duration>,
    /// When its first callback arrived, in the order of the bot's requests: how many
    /// requests the fake had recorded before it.
    pub(super) callback_at: Option<usize>,
    pub(super) responded: bool,
    pub(super) response: Option<Value>,
    /// The message the response made (type 4), for @original edits.
    pub(super) original: Option<u64>,
    pub(super) message: Option<u64>,
}

#[derive(Default)]
pub(super) struct Inner {
    pub(super) requests: Vec<Recorded>,
    pub(super) messages: HashMap<u64, Value>,
    pub(super) message_order: Vec<u64>,
    pub(super) dm_channel_of: HashMap<u64, u64>,
    pub(super) recipient_of: HashMap<u64, u64>,
    pub(super) closed_dms: HashSet<u64>,
    pub(super) rate_limits: usize,
    pub(super) lose_answers: usize,
    /// Posts still to create and answer 200 with a body that is not JSON (a proxy's page).
    pub(super) garble_answers: usize,
    /// Each nonce seen per channel: the message it made, and when (the fake's clock);
    /// forgotten after [`super::rest::NONCE_WINDOW`], as Discord does.
    pub(super) nonces: HashMap<(u64, String), (u64, Duration)>,
    /// Each create that a repeated nonce folded into the first message (channel, nonce):
    /// Discord shows one message, but only within its nonce window.
    pub(super) folded: Vec<(u64, String)>,
    /// The ids of the users' DMs: the bot answers each under its id as nonce.
    pub(super) user_dm_ids: HashSet<u64>,
    /// Answers to users' DMs (channel, nonce) whose last try failed in a way the bot tries
    /// again, a second or two later in real time, with how many tries were made.
    pub(super) dm_answers_retrying: HashMap<(u64, String), u8>,
    pub(super) interactions: HashMap<u64, Interaction>,
    pub(super) gateway: Option<mpsc::UnboundedSender<String>>,
    pub(super) seq: u64,
    pub(super) identifies: usize,
    pub(super) threads: Vec<u64>,
    /// Faults the test asked for, matched in order.
    pub(super) faults: Vec<Injected>,
    /// Enforce Discord's rate limits (global and per route).
    pub(super) enforce_limits: bool,
    pub(super) buckets: HashMap<String, Window>,
    pub(super) global: Option<Window>,
    /// Every dispatch sent, for replay on RESUME.
    pub(super) events: Vec<(u64, String)>,
    pub(super) resumes: usize,
    /// The guild id of the next interaction, when not the fake's own.
    pub(super) guild_override: Option<u64>,
    /// The `seq` each RESUME carried.
    pub(super) resumed_from: Vec<u64>,
    pub(super) sharding: Sharding,
    /// The test sends off-spec requests on purpose ([`super::FakeDiscord::expect_off_spec`]).
    pub(super) off_spec_expected: bool,
    /// Moves the fake's clock when the next deferred answer is acknowledged.
    pub(super) advance_on_ack: Option<Duration>,
    /// Permissions the bot lost in a channel ([`super::FakeDiscord::lose_permission`]).
    pub(super) lost_permissions: HashMap<u64, super::Lost>,
    /// Channels someone deleted ([`super::FakeDiscord::delete_channel`]).
    pub(super) deleted_channels: HashSet<u64>,
    /// The users who have used the bot: a user's id is no channel (a DM goes to the
    /// channel `POST /users/@me/channels` opened).
    pub(super) users: HashSet<u64>,
    /// Each thread's last activity, on the fake's clock.
    pub(super) thread_activity: HashMap<u64, Duration>,
    pub(super) archived_threads: HashSet<u64>,
    /// What users wrote to the bot by DM, kept in their DM channel's history (apart from
    /// [`Inner::messages`], which holds what the bot made).
    pub(super) user_messages: Vec<Value>,
    /// The next RESUME is refused (op 9, not resumable): the bot identifies anew.
    pub(super) refuse_resume: bool,
    /// Every REST request is answered 503 ([`super::FakeDiscord::rest_down`]).
    pub(super) rest_down: bool,
    /// Two processes on one shard ([`super::FakeDiscord::share_shard`]): the session an
    /// IDENTIFY or RESUME displaces keeps getting every dispatch, as during a rolling
    /// deploy; `primary` is the one that held the shard before.
    pub(super) shared_shard: bool,
    pub(super) twins: Vec<mpsc::UnboundedSender<String>>,
    pub(super) primary: Option<mpsc::UnboundedSender<String>>,
}

/// The gateway's shards: who holds which, and what was identified.
#[derive(Default)]
pub(super) struct Sharding {
    /// What `GET /gateway/bot` recommends (1 if unset).
    pub(super) recommended: Option<u64>,
    /// The open session of each shard: its sender, its own sequence, its shard count.
    pub(super) sessions: HashMap<u64, ShardSession>,
    /// Every IDENTIFY's `[shard, total]`, in order.
    pub(super) identified: Vec<(u64, u64)>,
    /// The guild of a channel (else [`GUILD_ID`]).
    pub(super) guild_of: HashMap<u64, u64>,
    /// Sessions are dropped and new connections refused.
    pub(super) down: bool,
    /// Bumped to close every open session.
    pub(super) generation: u64,
    /// Events that had no session to go to: (event, shard).
    pub(super) undelivered: Vec<(String, u64)>,
}

pub(super) struct ShardSession {
    pub(super) tx: mpsc::UnboundedSender<String>,
    pub(super) seq: u64,
    pub(super) total: u64,
}

/// A rate-limit window (Discord's limits are enforced in real time: see `limits.rs`): when it opened and how many requests it has taken.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    pub(super) opened: Instant,
    pub(super) used: u32,
}

/// Discord's epoch (2015-01-01) in Unix milliseconds: a snowflake counts from it.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// A clock in Unix milliseconds.
pub(super) type IdClock = std::sync::Arc<dyn Fn() -> i64 + Send + Sync>;

pub(super) struct Shared {
    pub(super) inner: Mutex<Inner>,
    pub(super) changed: Notify,
    /// Bumped by [`FakeDiscord::gateway_down`]: every open session closes.
    pub(super) generation: tokio::sync::watch::Sender<u64>,
    pub(super) next_id: AtomicU64,
    /// The time ids are made at, in Unix milliseconds ([`super::FakeDiscord::follow_clock`]):
    /// wall time unless a test gives its own clock.
    pub(super) id_clock: Mutex<Option<IdClock>>,
    pub(super) addr: Mutex<Option<SocketAddr>>,
    /// The fake's clock in milliseconds: it moves only when the test moves it
    /// ([`super::FakeDiscord::advance`]), so Discord's 3-second window never depends on
    /// how fast the machine is.
    pub(super) clock_ms: AtomicU64,
    /// While true, message posts wait unanswered ([`super::FakeDiscord::stall_posts`]).
    pub(super) stall: tokio::sync::watch::Sender<bool>,
    /// Message posts that have waited on the stall.
    pub(super) stalled: AtomicU64,
    /// Which requests are left unanswered ([`super::FakeDiscord::hang`]).
    pub(super) hang: tokio::sync::watch::Sender<super::Hang>,
    /// Requests left unanswered so far: (method, path, how many requests the fake had
    /// recorded before it).
    pub(super) hung: Mutex<Vec<(String, String, usize)>>,
}

impl Shared {
    /// A new snowflake, as Discord makes them: its top bits are the time it was made
    /// (so a DM tells when it was sent), and each is larger than the last, even when the
    /// clock it follows goes back.
    pub(super) fn id(&self) -> u64 {
        let now = match self.id_clock.lock().ok().and_then(|c| c.clone()) {
            Some(clock) => clock(),
            None => chrono::Utc::now().timestamp_millis(),
        };
        let floor = u64::try_from(now - DISCORD_EPOCH_MS).unwrap_or(0) << 22;
        let before = self
            .next_id
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.max(floor) + 1)
            })
            .unwrap_or_default();
        before.max(floor)
    }

    /// The time on the fake's clock.
    pub(super) fn now(&self) -> Duration {
        Duration::from_millis(self.clock_ms.load(Ordering::SeqCst))
    }

    /// Moves the fake's clock on.
    pub(super) fn advance(&self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.clock_ms.fetch_add(ms, Ordering::SeqCst);
    }
}
