//! The [`Store`] trait: everything the referee and the adapters ask of persistence.

use async_trait::async_trait;

use super::backend::Backend;
use super::error::StoreError;
use super::records::{
    Address, Backlog, Commit, Compacted, DeadlineRow, Heartbeat, Loaded, NewCampaign, NewOutbox,
    OpenCounts, OutboxRow, Owing, PreferenceRow, Quarantine, RematchClaim, SchemaStatus, SeriesDef,
    StepLog, WorkerStatus,
};
use crate::vocab::{CampaignId, Millis, TimeContext, UserId, UserTime};

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
    /// Gives back everything `holder` still holds, as a process does when it stops: its
    /// outbox leases, and its claims on deadlines not yet fired. A deadline deferred after
    /// a failure keeps its retry time (held by nobody), so stopping does not make it retried
    /// at once. Returns how many leases and how many claims it gave back.
    async fn release_claims(&self, holder: &str) -> Result<(u64, u64), StoreError>;
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
    /// Records that `instance` is alive at `at` (the referee's clock).
    async fn alive(&self, instance: &str, at: Millis) -> Result<(), StoreError>;
    /// The latest time any process was recorded alive.
    async fn last_alive(&self) -> Result<Option<Millis>, StoreError>;
    /// Marks a running worker `failing` with the cause of its failures, or (`None`)
    /// `running` again.
    async fn worker_trouble(
        &self,
        instance: &str,
        worker: &str,
        trouble: Option<&str>,
        at: Millis,
    ) -> Result<(), StoreError>;
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
    /// The step open in a campaign and when it opened, if one is open.
    async fn open_turn(&self, campaign: CampaignId) -> Result<Option<(u32, Millis)>, StoreError>;
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
