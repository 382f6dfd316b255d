//! The store's records: the rows a campaign is read as, and what a commit writes.
//! Plain data; the queries that fill them are in `queries.rs`, their decoding in `rows.rs`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{BotLevel, Pending, Seat};
use crate::games::{AnyEvent, AnyGame, AnyOrder, GameKind};
use crate::vocab::{CampaignId, Clocks, Millis, Phase, Timing, UserId};

/// One campaign's row.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignRow {
    pub id: CampaignId,
    pub kind: GameKind,
    pub options: Value,
    pub host: UserId,
    pub channel: String,
    pub guild: Option<String>,
    pub phase: Phase,
    pub timing: Timing,
    /// Hex; secret until the race ends.
    pub seed: String,
    pub commitment: String,
    pub state: Option<AnyGame>,
    /// Steps resolved so far; the open step has this number.
    pub step: u32,
    /// Whether the open step has been opened (prompts sent, deadline set).
    pub step_open: bool,
    pub deadline_at: Option<Millis>,
    pub paused_left_ms: Option<i64>,
    pub version: i64,
    pub status_message: Option<String>,
    pub lobby_message: Option<String>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub ended_at: Option<Millis>,
    /// The seats' time banks (`clock=`); empty without one.
    pub clocks: Clocks,
    /// The steps told so far in the open round of a sequential game, waiting for the
    /// round's one channel post (`referee::round`), as JSON; `None` between rounds.
    pub round: Option<Value>,
}

/// What a new campaign starts with.
#[derive(Clone, Debug, PartialEq)]
pub struct NewCampaign {
    pub kind: GameKind,
    pub options: Value,
    pub host: UserId,
    pub channel: String,
    pub guild: Option<String>,
    pub timing: Timing,
    pub seed: String,
    pub commitment: String,
    pub now: Millis,
}

/// One seat of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRow {
    pub seat: Seat,
    /// `None` for a seat that was always a bot.
    pub user: Option<UserId>,
    pub name: String,
    /// Set when a program plays the seat (a bot, or a zombie after the player left).
    pub bot: Option<BotLevel>,
    pub choice: Option<String>,
    pub dm_ok: bool,
    pub view_hash: Option<String>,
    /// A member the host offered this seat to, until they accept it.
    #[serde(default)]
    pub offer: Option<UserId>,
    /// Who decides for the seat: asked always, autopilot (the default), or the bot.
    #[serde(default)]
    pub autopilot: crate::engine::Autopilot,
    /// The player's absence in this race (`/race away`), if any was ever set.
    #[serde(default)]
    pub away: Option<SeatAway>,
}

/// A seat's absence in one race (`/race away`), stored as JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAway {
    /// Away until this moment; at or before `now` the absence is over.
    pub until: Millis,
    /// Absence booked in this race so far, in milliseconds (against `away-cap=`).
    #[serde(default)]
    pub used_ms: Millis,
    /// The host was told the seat passed the race's cap (told once).
    #[serde(default)]
    pub cap_told: bool,
}

/// How an order came to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderSource {
    Player,
    Bot,
    /// Played for a missed deadline.
    Default,
    /// Played for the player without asking (their autopilot, their `bot` setting, or
    /// their absence): counted as their own order, never as a missed one.
    Auto,
}

impl OrderSource {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderSource::Player => "player",
            OrderSource::Bot => "bot",
            OrderSource::Default => "default",
            OrderSource::Auto => "auto",
        }
    }

    pub fn parse(text: &str) -> Option<OrderSource> {
        Some(match text {
            "player" => OrderSource::Player,
            "bot" => OrderSource::Bot,
            "default" => OrderSource::Default,
            "auto" => OrderSource::Auto,
            _ => return None,
        })
    }
}

/// An order as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderRow {
    pub step: u32,
    pub seat: Seat,
    pub text: String,
    pub parsed: AnyOrder,
    pub source: OrderSource,
    pub nonce: String,
    pub receipt: String,
    pub by_user: Option<UserId>,
    pub submitted_at: Millis,
}

/// A step's row.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRow {
    pub step: u32,
    pub label: String,
    pub pending: Pending,
    pub opened_at: Millis,
    pub deadline_at: Option<Millis>,
    pub resolved_at: Option<Millis>,
    pub late: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeadlineKind {
    Deadline,
    Reminder,
    /// A long chain of steps that need nobody was cut to keep one commit bounded: the next
    /// tick carries it on.
    Continue,
    /// `nudge=`: the channel names the seats still owing an order.
    Nudge,
}

impl DeadlineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DeadlineKind::Deadline => "deadline",
            DeadlineKind::Reminder => "reminder",
            DeadlineKind::Continue => "continue",
            DeadlineKind::Nudge => "nudge",
        }
    }
}

/// A deadline or reminder of a campaign's open step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlineRow {
    pub id: i64,
    pub campaign: CampaignId,
    pub step: u32,
    pub kind: DeadlineKind,
    pub due_at: Millis,
    /// How often handling it failed for a passing reason (each retry waits longer).
    pub failures: i64,
}

/// A deadline to schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewDeadline {
    pub step: u32,
    pub kind: DeadlineKind,
    pub due_at: Millis,
}

/// The format of the game state this binary writes (`campaign_states.state_format`, migration 20). A stored
/// state of a newer format quarantines its race instead of being misread.
pub const STATE_FORMAT: i64 = 1;

/// The format of the events this binary writes (`events.format`).
pub const EVENT_FORMAT: i64 = 1;

/// A race stopped because a stored row of it does not decode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Quarantine {
    pub campaign: CampaignId,
    /// The table, the row and the underlying error.
    pub reason: String,
    pub at: Millis,
    /// When its host and channel were told (the notice queued in the outbox).
    pub told_at: Option<Millis>,
}

/// Where a race's announcements go, read without its game state (which may be the row
/// that does not decode), and what a late announcement is checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub channel: String,
    pub host: UserId,
    pub status_message: Option<String>,
    pub lobby_message: Option<String>,
    /// `None` when the stored text is unknown.
    pub phase: Option<Phase>,
    pub step: u32,
    pub step_open: bool,
    pub deadline_at: Option<Millis>,
}

/// One supervised worker of one process, for `photofinish health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerStatus {
    pub instance: String,
    /// `deadlines`, `delivery`, `heartbeat`, ...
    pub worker: String,
    /// `running`, `failing` (its work keeps failing; it backs off), `down` (panicked,
    /// waiting to restart) or `stopped`.
    pub state: String,
    pub restarts: i64,
    pub last_panic: Option<String>,
    /// While `failing`: the cause, as the store gave it.
    pub trouble: Option<String>,
    /// When the state last changed (system clock).
    pub at: Millis,
}

/// What is waiting, for `photofinish health`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Backlog {
    /// Undelivered announcements (not given up), and when the oldest was queued.
    pub undelivered: i64,
    pub oldest_undelivered_at: Option<Millis>,
    /// Unfired deadlines already due at `now` (of races not quarantined), and the oldest.
    pub overdue: i64,
    pub oldest_overdue_at: Option<Millis>,
    pub quarantined: i64,
}

/// A seat's standing preference, as set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreferenceRow {
    pub step: u32,
    pub seat: Seat,
    pub text: String,
    pub set_at: Millis,
}

/// A JSON column's text, encoded once where the value was made: an announcement goes from
/// its typed struct straight to text, with no `serde_json::Value` tree between.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Json(String);

impl Json {
    pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Json, serde_json::Error> {
        serde_json::to_string(value).map(Json)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Self {
        // A `Value`'s keys are strings: encoding it cannot fail.
        Json(value.to_string())
    }
}

/// An announcement to queue.
#[derive(Clone, Debug, PartialEq)]
pub struct NewOutbox {
    pub target: Json,
    pub payload: Json,
    /// A newer row with the same key makes older undelivered ones moot (status edits).
    pub coalesce_key: Option<String>,
    pub not_before: Millis,
}

/// An announcement in the outbox.
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    pub id: i64,
    pub campaign: CampaignId,
    pub target: Value,
    pub payload: Value,
    pub coalesce_key: Option<String>,
    pub created_at: Millis,
    pub attempts: i64,
    pub delivered_at: Option<Millis>,
    pub external_id: Option<String>,
    pub failed: Option<String>,
    /// When the first attempt to create its message began, if one did: a row not marked
    /// delivered may still have been posted (a crash, a lost answer).
    pub attempted_at: Option<Millis>,
}

/// What a restart needs from every race at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owing {
    /// Each human seat of an open step that has no live order: race, seat, user.
    pub seats: Vec<(CampaignId, Seat, UserId)>,
    /// Running races between two steps (a pause before the next opens), which the
    /// caller reads whole: their status speaks of the step to come.
    pub between_steps: Vec<CampaignId>,
}

/// A campaign with its seats and the live orders of its open step.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub campaign: CampaignRow,
    pub seats: Vec<SeatRow>,
    pub orders: Vec<OrderRow>,
}

/// Everything one referee decision writes, in one transaction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Commit {
    /// The campaign's new row; written only if the stored version is still `version`.
    pub campaign: Option<CampaignRow>,
    /// Whether the game state in `campaign` changed (else the stored state is kept).
    pub state_changed: bool,
    /// The phase and host in `campaign` are those stored: the UPDATE leaves them out, and
    /// with them the three indexes over them (three pages of the write-ahead log fewer
    /// per order: docs/performance.md).
    pub phase_and_host_kept: bool,
    /// Replace all seats.
    pub seats: Option<Vec<SeatRow>>,
    /// New orders; each supersedes the live order of its (step, seat).
    pub orders: Vec<OrderRow>,
    /// The (step, seat)s of `orders` that may have a live order to supersede; the others
    /// skip that write (most orders are a seat's first).
    pub replaces: Vec<(u32, Seat)>,
    /// Steps opened or resolved (upserted by step).
    pub turns: Vec<TurnRow>,
    pub events: Vec<(u32, Vec<AnyEvent>)>,
    pub preferences: Vec<PreferenceRow>,
    /// Replace every unfired deadline of the campaign with these.
    pub deadlines: Option<Vec<NewDeadline>>,
    /// Deadlines handled by this commit; each must still be unfired.
    pub fired: Vec<i64>,
    pub outbox: Vec<NewOutbox>,
    /// When set, a seat whose order is replaced keeps at most this many superseded orders
    /// of the step (the oldest go); `None` keeps them all.
    pub superseded_kept: Option<u32>,
    /// The (step, seat)s whose live order was taken back (superseded, with no new one).
    pub withdrawn: Vec<(u32, Seat)>,
}

/// Races in lobby, and under way (running or paused), of one host and of one server: what
/// the referee's quotas count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenCounts {
    pub user_lobbies: u32,
    pub user_running: u32,
    pub server_lobbies: u32,
    pub server_running: u32,
}

/// One resolved step, for verification and history.
#[derive(Clone, Debug, PartialEq)]
pub struct StepLog {
    pub turn: TurnRow,
    pub orders: Vec<OrderRow>,
    pub events: Vec<AnyEvent>,
}

/// How often a running bot writes its [`Heartbeat`]; `health` judges staleness by it.
pub const HEARTBEAT_SECS: u64 = 30;

/// A running bot process's latest report, for `photofinish health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heartbeat {
    /// The process's name (by default its host name: a container's id).
    pub instance: String,
    /// The gateway's state as the adapter names it: `connecting`, `connected`,
    /// `resuming`, `disconnected`, `stopped`.
    pub gateway: String,
    /// The shards this process runs, e.g. `0-1 of 4`.
    pub shards: String,
    /// Anything else worth showing (the last gateway error).
    pub detail: String,
    pub started_at: Millis,
    /// When the process last reported, on the system clock.
    pub beat_at: Millis,
}

/// Which migrations a database has, against the ones this binary carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SchemaStatus {
    pub backend: &'static str,
    /// Versions applied successfully.
    pub applied: Vec<i64>,
    /// Versions this binary knows and the database lacks (`photofinish migrate` applies them).
    pub pending: Vec<i64>,
    /// Versions the database has and this binary does not know (a newer binary migrated it).
    pub unknown: Vec<i64>,
    /// Versions whose text changed since they were applied, or that failed half-way.
    pub broken: Vec<i64>,
}

impl SchemaStatus {
    /// The database is exactly what this binary expects.
    pub fn is_current(&self) -> bool {
        self.pending.is_empty() && self.unknown.is_empty() && self.broken.is_empty()
    }
}

/// The name a bot process reports its health under: `PHOTOFINISH_INSTANCE`, else the host
/// name (in a container, the container's), else `photofinish`. Stable across restarts of
/// the same container, and the same for `photofinish health` run beside it.
pub fn default_instance() -> String {
    std::env::var("PHOTOFINISH_INSTANCE")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "photofinish".into())
}

/// How many rows one compaction deleted, table by table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Compacted {
    pub orders: u64,
    pub outbox: u64,
    pub deadlines: u64,
    pub leases: u64,
    pub interactions: u64,
}

impl Compacted {
    /// Rows deleted in all.
    pub fn total(&self) -> u64 {
        self.orders
            .saturating_add(self.outbox)
            .saturating_add(self.deadlines)
            .saturating_add(self.leases)
            .saturating_add(self.interactions)
    }
}

/// What claiming a race's rematch found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RematchClaim {
    /// This caller claimed it: open the lobby, then settle the claim.
    Claimed,
    /// Someone claimed it first: their lobby, or `None` while it is being opened.
    Taken(Option<CampaignId>),
}

/// A series opened with `/race series new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesDef {
    /// As the host spelled it.
    pub name: String,
    /// How many races it runs.
    pub races: u32,
    /// Its points table by slug (`10-6-4-3-2-1`, `score`...); the referee reads it.
    pub points: String,
    pub host: UserId,
}
