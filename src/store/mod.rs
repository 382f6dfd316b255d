//! Persistence of campaigns: the [`Store`] trait and its records, with two backends chosen
//! by the database URL ([`open`]): SQLite, the embedded default ([`sqlite::SqliteStore`]),
//! and PostgreSQL for several processes sharing one database ([`postgres::PostgresStore`]).
//! Each backend has its own migrations (`migrations/sqlite`, `migrations/postgres`).
//!
//! One store serves both databases ([`SqlStore`], `queries.rs`), through sqlx alone. The
//! queries, the commit sequence (`commit.rs`) and the row decoding (`rows.rs`) are written
//! once, over the [`dialect::Dialect`] each backend fills in with what really differs (a
//! few statements, how transactions begin, the migrations); `sqlite.rs` and `postgres.rs`
//! also open the pools. Below them all: `sql.rs` (the sqlx bounds that let the SQL be
//! written once), `codec.rs` (encoding) and `error.rs`. Imports run one way: apart from
//! this file, whose records the others read and which re-exports a few of theirs, no file
//! here imports one that imports it back. Speed: docs/performance.md.
//!
//! The referee loads a campaign, decides everything in memory, and hands the store one
//! [`Commit`]; the store writes it in one transaction, guarded by the campaign's version, so
//! an adjudication (state, orders, events, outbox, deadlines) lands whole or not at all,
//! and two writers can never both resolve the same step. Announcements and targets are
//! opaque JSON here: the referee owns their types.
//!
//! Work that must happen once across processes is claimed with a lease that expires, in
//! the referee's clock (the `now` each call is given): a due deadline
//! ([`Store::claim_due_deadlines`]) and a campaign's undelivered outbox
//! ([`Store::claim_outbox`]). A claim only keeps other processes from doing the work at
//! the same time; whether it was done is still decided by the commit (a deadline's
//! `fired_at`, an announcement's `delivered_at`), so a process that dies holding a claim
//! costs a delay of one lease, never a lost or doubled step.

mod archive;
mod codec;
mod commit;
mod dialect;
mod error;
mod migrations;
mod once;
pub mod postgres;
mod prefs;
mod queries;
mod recovery;
mod reliability;
mod retention;
mod rows;
mod series;
mod sql;
pub mod sqlite;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use crate::engine::{BotLevel, Pending, Seat};
use crate::games::{AnyEvent, AnyGame, AnyOrder, GameKind};

// The shared vocabulary, imported once for the store's own files (`super::Millis`);
// other layers import it from `vocab`.
use crate::vocab::{CampaignId, Clocks, Millis, Phase, TimeContext, Timing, UserId, UserTime};

pub use postgres::PostgresStore;
pub use queries::SqlStore;
pub use retention::Compacted;
pub use series::{RematchClaim, SeriesDef};
pub use sqlite::SqliteStore;

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
    /// `running`, `down` (panicked, waiting to restart) or `stopped`.
    pub state: String,
    pub restarts: i64,
    pub last_panic: Option<String>,
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

/// What went wrong in storage.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Someone else changed the campaign first; reload and try again.
    #[error("the race changed while this was being decided")]
    Conflict,
    #[error("there is already a race in this channel")]
    ChannelBusy,
    #[error("no such race")]
    NotFound,
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// A stored row that does not decode: its table, its key (`id 42`), and why.
    #[error("stored row of {table} ({key}) is unreadable: {reason}")]
    BadRow {
        table: &'static str,
        key: String,
        reason: String,
    },
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The deadline a commit says it handled was handled (or replaced) already: another
    /// process got there first, so there is nothing left to do.
    #[error("that deadline was already handled")]
    AlreadyFired,
    #[error("`{0}` is not a database URL: use sqlite:PATH, a file path, or postgres://...")]
    BadUrl(String),
    /// A stored row of a format this binary does not know (written by a newer version).
    #[error(
        "stored row of {table} ({key}) has format {found}; this version reads format {known}: upgrade the bot, or migrate the row"
    )]
    UnknownFormat {
        table: &'static str,
        key: String,
        found: i64,
        known: i64,
    },
}

impl StoreError {
    /// True for a row that will never decode as it is: its race is quarantined rather than
    /// retried.
    pub fn is_poison(&self) -> bool {
        matches!(
            self,
            StoreError::BadRow { .. } | StoreError::UnknownFormat { .. } | StoreError::Corrupt(_)
        )
    }

    /// True when the same request may succeed if tried again.
    pub fn is_transient(&self) -> bool {
        matches!(self, StoreError::Conflict | StoreError::Db(_))
    }
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

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// `sqlite` or `postgres`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// `postgres://` and `postgresql://` are PostgreSQL; `sqlite:` or anything else (a
    /// path) is SQLite.
    pub fn of(url: &str) -> Backend {
        let lower = url.trim().to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// Opens the database a URL names and brings its schema up to date (the migrations run at
/// start; on PostgreSQL they take an advisory lock, so processes starting together apply
/// them once). SQLite is opened with full durability (fsync at every commit).
pub async fn open(url: &str) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    Ok(match Backend::of(url) {
        Backend::Sqlite => {
            std::sync::Arc::new(SqliteStore::open(url, sqlite::Durability::Full).await?)
        }
        Backend::Postgres => std::sync::Arc::new(PostgresStore::open(url).await?),
    })
}

/// Connects without migrating, to inspect a database (`photofinish health`). A SQLite
/// file that does not exist is an error here, not a new database.
pub async fn connect(url: &str) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    Ok(match Backend::of(url) {
        Backend::Sqlite => std::sync::Arc::new(SqliteStore::connect(url).await?),
        Backend::Postgres => std::sync::Arc::new(PostgresStore::connect(url).await?),
    })
}

/// Applies this binary's migrations to the database a URL names; returns the status after.
pub async fn migrate(url: &str) -> Result<SchemaStatus, StoreError> {
    let store = open(url).await?;
    let status = store.schema_status().await;
    store.close().await;
    status
}

/// Persistence for the referee. One implementation per database.
#[async_trait]
pub trait Store: Send + Sync {
    async fn create(&self, new: NewCampaign) -> Result<CampaignId, StoreError>;
    async fn load(&self, id: CampaignId) -> Result<Option<Loaded>, StoreError>;
    /// A campaign's version alone (`None` if there is no such campaign): enough to tell
    /// whether a copy loaded earlier is still current.
    async fn version(&self, id: CampaignId) -> Result<Option<i64>, StoreError>;
    /// Writes a commit atomically; `Conflict` if the campaign changed meanwhile.
    async fn commit(
        &self,
        campaign: CampaignId,
        expected_version: i64,
        commit: Commit,
    ) -> Result<(), StoreError>;
    /// The race in play (lobby, running or paused) in a channel.
    async fn active_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError>;
    /// The newest campaign of a channel, in any phase (`/race verify` after the end).
    async fn latest_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError>;
    /// Every campaign in lobby, running or paused.
    async fn open_campaigns(&self) -> Result<Vec<CampaignId>, StoreError>;
    /// The human seats that owe an order in running races, in one read (see [`Owing`]).
    async fn owing(&self) -> Result<Owing, StoreError>;
    /// Running or paused campaigns in which the user holds a seat.
    async fn campaigns_of_user(&self, user: &UserId) -> Result<Vec<CampaignId>, StoreError>;
    /// Unfired deadlines due at or before `now`, oldest first, claimed or not.
    async fn due_deadlines(&self, now: Millis, limit: u32) -> Result<Vec<DeadlineRow>, StoreError>;
    /// Claims unfired deadlines due at or before `now` that nobody holds (or whose claim
    /// expired) for `holder` until `until`, oldest first. Two processes never get the same
    /// deadline while its claim runs.
    async fn claim_due_deadlines(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<DeadlineRow>, StoreError>;
    /// Gives up `holder`'s claim on a deadline it could not handle, so that the next tick
    /// anywhere tries again at once.
    async fn release_deadline(&self, id: i64, holder: &str) -> Result<(), StoreError>;
    /// When the next unfired deadline can be handled: its due time, or later if another
    /// process holds its claim.
    async fn next_due(&self) -> Result<Option<Millis>, StoreError>;
    /// Undelivered announcements ready at `now`, oldest first, of campaigns that no process
    /// is delivering right now (no unexpired outbox lease).
    async fn outbox_ready(&self, now: Millis, limit: u32) -> Result<Vec<OutboxRow>, StoreError>;
    /// Takes the outbox lease of every campaign with ready announcements whose lease is
    /// free, expired or already `holder`'s, until `until`, and returns those campaigns'
    /// ready announcements, oldest first (at most `limit`). One process at a time delivers a
    /// campaign, so its announcements land in order.
    async fn claim_outbox(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<OutboxRow>, StoreError>;
    /// Extends `holder`'s lease on a campaign's outbox; false if another process has it now.
    async fn renew_outbox_lease(
        &self,
        campaign: CampaignId,
        holder: &str,
        until: Millis,
    ) -> Result<bool, StoreError>;
    /// Gives up `holder`'s outbox leases on these campaigns.
    async fn release_outbox_leases(
        &self,
        holder: &str,
        campaigns: &[CampaignId],
    ) -> Result<(), StoreError>;
    async fn outbox_delivered(
        &self,
        id: i64,
        external_id: Option<String>,
        at: Millis,
    ) -> Result<(), StoreError>;
    async fn outbox_retry(
        &self,
        id: i64,
        not_before: Millis,
        error: &str,
    ) -> Result<(), StoreError>;
    async fn outbox_failed(&self, id: i64, reason: &str) -> Result<(), StoreError>;
    /// Every announcement of a campaign, oldest first.
    async fn outbox_of(&self, campaign: CampaignId) -> Result<Vec<OutboxRow>, StoreError>;
    /// The delivered DM prompts of a campaign's steps `from..=to` older than outbox row
    /// `before`, oldest first: the prompts to close once those steps resolve (or the race
    /// is cancelled), read without the rest of the outbox.
    async fn prompts_of_steps(
        &self,
        campaign: CampaignId,
        from: u32,
        to: u32,
        before: i64,
    ) -> Result<Vec<OutboxRow>, StoreError>;
    async fn set_status_message(
        &self,
        campaign: CampaignId,
        id: Option<String>,
    ) -> Result<(), StoreError>;
    async fn set_lobby_message(
        &self,
        campaign: CampaignId,
        id: Option<String>,
    ) -> Result<(), StoreError>;
    /// Resolved steps with their final orders and events, in order.
    async fn log(&self, campaign: CampaignId) -> Result<Vec<StepLog>, StoreError>;
    /// The resolved steps `from..to` alone (`/race history`: one turn, not the whole log).
    async fn log_steps(
        &self,
        campaign: CampaignId,
        from: u32,
        to: u32,
    ) -> Result<Vec<StepLog>, StoreError>;
    /// Open races hosted by `host`, and in `guild` (when given), for the quotas.
    async fn open_counts(
        &self,
        host: &UserId,
        guild: Option<&str>,
    ) -> Result<OpenCounts, StoreError>;
    async fn preferences(&self, campaign: CampaignId) -> Result<Vec<PreferenceRow>, StoreError>;
    /// Records a process's report (upserted by instance).
    async fn heartbeat(&self, beat: &Heartbeat) -> Result<(), StoreError>;
    /// Every process's latest report, by instance.
    async fn heartbeats(&self) -> Result<Vec<Heartbeat>, StoreError>;
    /// Which migrations the database has, against this binary's.
    async fn schema_status(&self) -> Result<SchemaStatus, StoreError>;
    /// Stops a race whose stored rows do not decode; true if it was not stopped already.
    async fn quarantine(
        &self,
        campaign: CampaignId,
        reason: &str,
        at: Millis,
    ) -> Result<bool, StoreError>;
    /// Every quarantined race, by id.
    async fn quarantined(&self) -> Result<Vec<Quarantine>, StoreError>;
    /// Queues the notice of a quarantine, once: true if it was queued now.
    async fn tell_quarantine(
        &self,
        campaign: CampaignId,
        notice: NewOutbox,
        at: Millis,
    ) -> Result<bool, StoreError>;
    /// Where a race's announcements go, without decoding its state.
    async fn address(&self, campaign: CampaignId) -> Result<Option<Address>, StoreError>;
    /// Keeps `holder`'s claim on a deadline that failed for a passing reason until
    /// `until` (so that it is tried again then, not at once), and counts the failure.
    async fn defer_deadline(&self, id: i64, holder: &str, until: Millis) -> Result<(), StoreError>;
    /// What waits at `now`: undelivered announcements and overdue deadlines.
    async fn backlog(&self, now: Millis) -> Result<Backlog, StoreError>;
    /// Records a supervised worker's state (upserted by instance and worker).
    async fn worker_status(&self, status: &WorkerStatus) -> Result<(), StoreError>;
    /// Every process's workers.
    async fn workers(&self) -> Result<Vec<WorkerStatus>, StoreError>;
    /// Claims an interaction id until `expires`: true for the first process to claim it,
    /// false for a duplicate. Claims expired at `now` are forgotten.
    async fn claim_interaction(
        &self,
        id: &str,
        expires: Millis,
        now: Millis,
    ) -> Result<bool, StoreError>;
    /// A player's time settings (empty when they set none).
    async fn user_time(&self, user: &UserId) -> Result<UserTime, StoreError>;
    /// Sets a player's time settings (upserted).
    async fn set_user_time(&self, time: &UserTime, now: Millis) -> Result<(), StoreError>;
    /// A server's default zone.
    async fn guild_zone(&self, guild: &str) -> Result<Option<String>, StoreError>;
    /// Sets a server's default zone.
    async fn set_guild_zone(&self, guild: &str, zone: &str, now: Millis) -> Result<(), StoreError>;
    /// The zone of a race's server and its players' time settings.
    async fn time_context(&self, race: CampaignId) -> Result<TimeContext, StoreError>;
    /// Which backend this is: `sqlite` or `postgres`.
    fn backend(&self) -> Backend;
    /// Closes the connections, waiting for them to finish.
    async fn close(&self);
    /// Records an attempt to create outbox row `id`'s message, before the request goes
    /// out; returns the first attempt's time when an earlier attempt was recorded (its
    /// outcome unknown: the message may be there already).
    async fn outbox_create_attempt(
        &self,
        id: i64,
        at: Millis,
    ) -> Result<Option<Millis>, StoreError>;
    /// The newest DM message handled from `user` (a Discord snowflake), if any.
    async fn dm_seen(&self, user: &UserId) -> Result<Option<String>, StoreError>;
    /// Remembers `message` as the newest DM handled from `user` (an older one is ignored).
    async fn set_dm_seen(&self, user: &UserId, message: u64, at: Millis) -> Result<(), StoreError>;
    /// A server's races in any phase, newest first: at most `limit`, numbered below
    /// `before` when given (`/race archive`).
    async fn races_of_guild(
        &self,
        guild: &str,
        before: Option<CampaignId>,
        limit: u32,
    ) -> Result<Vec<CampaignId>, StoreError>;
    /// Retention: deletes what races that ended before `ended_before` no longer need
    /// (superseded orders, delivered announcements, fired deadlines, leases) and the
    /// interaction claims expired at `now`; keeps all that verify and history read.
    async fn compact(&self, ended_before: Millis, now: Millis) -> Result<Compacted, StoreError>;
    // Beyond one race (store/series.rs).
    /// Puts `race` in the series `name` of `channel`.
    async fn set_series(
        &self,
        race: CampaignId,
        channel: &str,
        name: &str,
    ) -> Result<(), StoreError>;
    /// The series `race` counts toward, if any.
    async fn series_of(&self, race: CampaignId) -> Result<Option<String>, StoreError>;
    /// The races of `channel`'s series `name` (any case), oldest first, with the name as
    /// each was given.
    async fn series_races(
        &self,
        channel: &str,
        name: &str,
    ) -> Result<Vec<(CampaignId, String)>, StoreError>;
    /// Opens `channel`'s series `def.name` (migration 19); false if one of that name (in
    /// any case) is there already.
    async fn open_series(
        &self,
        channel: &str,
        def: &SeriesDef,
        at: Millis,
    ) -> Result<bool, StoreError>;
    /// `channel`'s series opened ahead under `name` (any case), if any.
    async fn series_def(&self, channel: &str, name: &str) -> Result<Option<SeriesDef>, StoreError>;
    /// Hides (or shows again) `user`'s statistics from others.
    async fn set_stats_hidden(
        &self,
        user: &UserId,
        hidden: bool,
        at: Millis,
    ) -> Result<(), StoreError>;
    async fn stats_hidden(&self, user: &UserId) -> Result<bool, StoreError>;
    /// Claims the rematch of `race`; only the first claim gets [`RematchClaim::Claimed`].
    async fn claim_rematch(&self, race: CampaignId, at: Millis)
    -> Result<RematchClaim, StoreError>;
    /// Records the rematch's lobby, or (`None`) gives the claim up after a failure.
    async fn settle_rematch(
        &self,
        race: CampaignId,
        rematch: Option<CampaignId>,
    ) -> Result<(), StoreError>;
    /// The race whose rematch `race` is, if it is one.
    async fn rematch_of(&self, race: CampaignId) -> Result<Option<CampaignId>, StoreError>;
}
