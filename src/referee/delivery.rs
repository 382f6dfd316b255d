//! Delivering the outbox: an adapter implements [`Courier`]; [`Referee::deliver`] hands it
//! each ready announcement, and marks it delivered only after the adapter says it landed.
//!
//! A crash between landing and marking would deliver twice. The outbox id is passed to
//! the courier as a nonce (Discord's `enforce_nonce`), but Discord remembers a nonce for a
//! few minutes only. So each attempt to create a message is recorded in its row before it
//! goes out ([`crate::store::Store::outbox_create_attempt`]), and a row retried after an
//! attempt whose outcome is unknown first asks the courier whether its message is there
//! already ([`Courier::find`]: Discord's adapter reads the channel's recent messages for
//! the outbox id it marks each message with). If it is, the row is marked delivered with
//! that message; it is never posted twice, however late the restart.
//!
//! Delivery never gives up while the race and its channel exist: a failed attempt is
//! retried after a capped backoff with jitter ([`backoff_ms`], at most [`MAX_BACKOFF_MS`]),
//! kept in the outbox row (`attempts`, `not_before`), so a restart keeps it. Only an
//! answer that it will never land (the channel gone, DMs closed) gives a row up.
//! Announcements to one place land in order: a row waiting to be retried holds back the
//! later rows of its race to the same target (the channel, the status message, one seat's
//! DMs), in the store's claim and within a pass; a race opened in a channel after another
//! ended waits until the earlier race has said everything. A prompt or reminder whose step
//! resolved, or whose deadline moved, meanwhile is not sent late (docs/reliability.md).
//!
//! With several processes, each pass first takes the outbox lease of the campaigns it
//! will deliver ([`crate::store::Store::claim_outbox`]): one process at a time delivers a
//! campaign, in order. The lease is renewed while a long pass runs, and during a slow
//! delivery, and released at the pass's end; a process that dies leaves it to expire, and
//! another finishes the work then.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use thiserror::Error;

use super::announce::{Announcement, Target};
use super::error::RefereeError;
use super::machine::Referee;
use crate::store::{Address, OutboxRow};
use crate::vocab::{CampaignId, Millis, Phase};

/// One announcement to deliver.
#[derive(Clone, Debug)]
pub struct Parcel<'a> {
    pub outbox_id: i64,
    pub race: CampaignId,
    pub channel: &'a str,
    pub target: &'a Target,
    pub announcement: &'a Announcement,
    /// For `Status` and `Lobby`: the message to edit, once there is one.
    pub edit: Option<&'a str>,
    pub attempts: i64,
}

/// What delivering did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Delivered {
    /// The adapter's id of the message posted or edited.
    pub external_id: Option<String>,
}

/// Why a delivery did not land.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeliveryError {
    /// Try again after this many milliseconds (rate limits, server errors).
    #[error("try again in {after_ms} ms: {reason}")]
    Retry { after_ms: i64, reason: String },
    /// The user does not accept DMs from the bot.
    #[error("the user does not accept direct messages")]
    DmClosed,
    /// The message to edit is gone; the next attempt posts a new one.
    #[error("the message to edit was deleted")]
    Gone,
    /// The race's channel is gone (`gone`: deleted) or the bot may not post there: the
    /// race pauses and its host is told.
    #[error("the race's channel is lost: {reason}")]
    ChannelLost { gone: bool, reason: String },
    /// The adapter itself is refused (a rotated token, a route that leads nowhere): it
    /// may heal, so nothing is given up. Tried again after [`REFUSED_RETRY_MS`] or later,
    /// and the delivery worker shows `failing` with the cause meanwhile
    /// ([`Referee::delivery_refused`]).
    #[error("refused: {0}")]
    Refused(String),
    /// It will never land.
    #[error("{0}")]
    Permanent(String),
}

/// The least wait before a refused delivery is tried again.
pub const REFUSED_RETRY_MS: Millis = 60_000;

/// An adapter's way of saying things.
#[async_trait]
pub trait Courier: Send + Sync {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError>;

    /// Already posted? Looks for the message of a parcel whose earlier attempt to create
    /// it began at `since` and ended unknown (a crash, a lost answer): `Some` with the
    /// message when it is there, so that it is not created again. The default cannot
    /// look and says `None`: an adapter without history relies on its nonce alone.
    async fn find(
        &self,
        parcel: Parcel<'_>,
        since: Millis,
    ) -> Result<Option<Delivered>, DeliveryError> {
        let _ = (parcel, since);
        Ok(None)
    }
}

/// The longest wait between two attempts at one announcement.
pub const MAX_BACKOFF_MS: Millis = 300_000;

/// The wait before the next attempt: 1 s doubling with each attempt, or longer if the
/// adapter was told to wait, capped at [`MAX_BACKOFF_MS`], less up to a fifth at random
/// (`jitter` from 0 to 1), so that many rows retried together spread out.
pub fn backoff_ms(attempts: i64, hinted: i64, jitter: f64) -> Millis {
    let exp = 1_000i64.saturating_mul(1i64 << attempts.clamp(0, 20));
    let wait = hinted.max(exp).clamp(0, MAX_BACKOFF_MS);
    let spread = (wait as f64 * jitter.clamp(0.0, 1.0) / 5.0) as i64;
    wait.saturating_sub(spread).max(1)
}

/// A fraction from 0 to 1 from the OS's randomness (0 without it: no spread, still capped).
fn jitter() -> f64 {
    let mut bytes = [0u8; 2];
    match getrandom::fill(&mut bytes) {
        Ok(()) => f64::from(u16::from_le_bytes(bytes)) / f64::from(u16::MAX),
        Err(_) => 0.0,
    }
}

/// How long a campaign's outbox is ours once claimed; renewed at half-time during a pass.
pub const OUTBOX_LEASE_MS: Millis = 60_000;

/// How often a delivery in progress looks at its lease (real time; renewing it is a
/// store call only at half-time on the referee's clock).
const KEEP_LEASE_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Announcements claimed per pass.
const PASS_BATCH: u32 = 100;

/// Why an announcement is moot, if it is: a prompt for a step that has resolved, a
/// reminder for a deadline that moved or passed.
fn moot(announcement: &Announcement, address: &Address, now: Millis) -> Option<&'static str> {
    let live = matches!(address.phase, Some(Phase::Running | Phase::Paused));
    match announcement {
        Announcement::Prompt { step, .. }
            if !live || !address.step_open || *step != address.step =>
        {
            Some("moot: the step resolved before the prompt could be sent")
        }
        Announcement::Reminder { deadline, .. }
            if !live || address.deadline_at != Some(*deadline) || *deadline <= now =>
        {
            Some("moot: the deadline moved or passed before the reminder could be sent")
        }
        _ => None,
    }
}

/// What one attempt came to.
enum Outcome {
    Landed,
    /// Given up, or skipped as moot: the race's later rows may go.
    Settled,
    /// To be tried again: the race's later rows wait, to keep its order.
    Waiting,
}

impl Referee {
    /// While the adapter refuses deliveries ([`DeliveryError::Refused`]): the cause, until
    /// a delivery lands.
    pub fn delivery_refused(&self) -> Option<String> {
        self.refused.lock().ok().and_then(|r| r.clone())
    }

    /// Delivers every ready announcement of the campaigns no other process is delivering;
    /// returns how many landed.
    pub async fn deliver(&self, courier: &dyn Courier) -> Result<usize, RefereeError> {
        let now = self.clock().now();
        let rows = self
            .store()
            .claim_outbox(now, PASS_BATCH, self.instance(), now + OUTBOX_LEASE_MS)
            .await?;
        let mut leases: HashMap<CampaignId, Millis> = HashMap::new();
        for row in &rows {
            leases.insert(row.campaign, now + OUTBOX_LEASE_MS);
        }
        let landed = self.deliver_claimed(courier, &rows, &mut leases).await;
        // Released even after an error, so nobody waits out the lease for nothing.
        let campaigns: Vec<CampaignId> = leases.keys().copied().collect();
        if let Err(e) = self
            .store()
            .release_outbox_leases(self.instance(), &campaigns)
            .await
        {
            tracing::warn!("cannot release outbox leases: {e}");
        }
        Ok(landed)
    }

    /// Delivers the claimed rows in order. A row that must wait, or that fails in the
    /// store, holds back the later rows to its place for this pass; the rest go on.
    async fn deliver_claimed(
        &self,
        courier: &dyn Courier,
        rows: &[OutboxRow],
        leases: &mut HashMap<CampaignId, Millis>,
    ) -> usize {
        let mut landed = 0;
        let mut held: HashSet<(CampaignId, String)> = HashSet::new();
        for row in rows {
            let place = (row.campaign, row.target.to_string());
            if held.contains(&place) {
                continue;
            }
            let Some(&until) = leases.get(&row.campaign) else {
                continue; // lost to another process during this pass
            };
            let now = self.clock().now();
            if until - now < OUTBOX_LEASE_MS / 2 {
                let renewed = now + OUTBOX_LEASE_MS;
                match self
                    .store()
                    .renew_outbox_lease(row.campaign, self.instance(), renewed)
                    .await
                {
                    Ok(true) => {
                        leases.insert(row.campaign, renewed);
                    }
                    Ok(false) => {
                        tracing::debug!(race = row.campaign.0, "outbox lease taken over");
                        leases.remove(&row.campaign);
                        continue;
                    }
                    Err(e) => {
                        tracing::warn!(race = row.campaign.0, "cannot renew an outbox lease: {e}");
                        held.insert(place.clone());
                        continue;
                    }
                }
            }
            let mut until = leases.get(&row.campaign).copied().unwrap_or(until);
            let outcome = self.deliver_kept(courier, row, &mut until).await;
            leases.insert(row.campaign, until);
            match outcome {
                Ok(Outcome::Landed) => landed += 1,
                Ok(Outcome::Settled) => {}
                Ok(Outcome::Waiting) => {
                    held.insert(place.clone());
                }
                Err(e) => {
                    tracing::warn!(
                        race = row.campaign.0,
                        table = "outbox",
                        row = row.id,
                        error = %e.operator_detail(),
                        "a delivery could not be recorded; the race's later announcements wait"
                    );
                    held.insert(place.clone());
                }
            }
        }
        landed
    }

    /// [`Referee::deliver_one`], keeping the campaign's lease while it runs. A slow
    /// delivery (a picture drawn, Discord's rate limits waited out) must not outlive its
    /// lease: another process would take the campaign, find nothing posted yet, and post
    /// the same announcement too (docs/reliability.md).
    async fn deliver_kept(
        &self,
        courier: &dyn Courier,
        row: &OutboxRow,
        until: &mut Millis,
    ) -> Result<Outcome, RefereeError> {
        let work = self.deliver_one(courier, row);
        tokio::pin!(work);
        let mut every = tokio::time::interval(KEEP_LEASE_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                done = &mut work => return done,
                _ = every.tick() => self.keep_lease(row.campaign, until).await,
            }
        }
    }

    /// Renews a campaign's outbox lease once half of it has run, on the referee's clock.
    async fn keep_lease(&self, campaign: CampaignId, until: &mut Millis) {
        let now = self.clock().now();
        if until.saturating_sub(now) >= OUTBOX_LEASE_MS / 2 {
            return;
        }
        let renewed = now.saturating_add(OUTBOX_LEASE_MS);
        match self
            .store()
            .renew_outbox_lease(campaign, self.instance(), renewed)
            .await
        {
            Ok(true) => *until = renewed,
            // Too late to call the delivery off: the other process's look in the
            // channel's history is what keeps it from posting too.
            Ok(false) => {
                tracing::warn!(
                    race = campaign.0,
                    "the outbox lease was taken over during a delivery"
                );
            }
            Err(e) => {
                tracing::warn!(race = campaign.0, "cannot renew an outbox lease: {e}");
            }
        }
    }

    /// Reads a row's target, announcement and address; `None` when the row was settled
    /// instead (unreadable, its race gone, or moot). A moot row that an earlier attempt
    /// may have posted comes back with its reason, to be looked for first.
    async fn prepare(
        &self,
        row: &OutboxRow,
    ) -> Result<Option<(Target, Announcement, Address, Option<&'static str>)>, RefereeError> {
        let store = self.store();
        let target = serde_json::from_value::<Target>(row.target.clone());
        let announcement = serde_json::from_value::<Announcement>(row.payload.clone());
        let (target, announcement) = match (target, announcement) {
            (Ok(t), Ok(a)) => (t, a),
            (Err(e), _) | (_, Err(e)) => {
                let reason = format!("unreadable announcement: {e}");
                tracing::error!(race = row.campaign.0, table = "outbox", row = row.id, %reason);
                store.outbox_failed(row.id, &reason).await?;
                return Ok(None);
            }
        };
        // The address only, never the game state: a quarantined race's notice still goes.
        let address = match store.address(row.campaign).await {
            Ok(Some(a)) => a,
            Ok(None) => {
                store.outbox_failed(row.id, "the race is gone").await?;
                return Ok(None);
            }
            Err(e) if e.is_poison() => {
                tracing::error!(race = row.campaign.0, table = "campaigns", error = %e, "cannot address an announcement");
                store
                    .outbox_failed(row.id, &format!("unaddressable: {e}"))
                    .await?;
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        let moot = moot(&announcement, &address, self.clock().now());
        if let Some(reason) = moot
            && row.attempted_at.is_none()
        {
            tracing::debug!(race = row.campaign.0, outbox = row.id, reason);
            store.outbox_failed(row.id, reason).await?;
            return Ok(None);
        }
        Ok(Some((target, announcement, address, moot)))
    }

    /// A moot row whose earlier attempt ended unknown: if that attempt posted it, it is
    /// recorded as delivered (so that a prompt's buttons are closed with the others'),
    /// and otherwise as moot. Nothing is posted now.
    async fn settle_moot(
        &self,
        courier: &dyn Courier,
        row: &OutboxRow,
        parcel: Parcel<'_>,
        reason: &'static str,
    ) -> Result<Outcome, RefereeError> {
        let store = self.store();
        let since = row.attempted_at.unwrap_or(row.created_at);
        let found = self.looked_for(courier, parcel, since).await;
        let now = self.clock().now();
        match found {
            Ok(Some(done)) => {
                tracing::info!(
                    race = row.campaign.0,
                    outbox = row.id,
                    "a moot announcement had been posted by an earlier attempt; marked delivered"
                );
                store
                    .outbox_delivered(row.id, done.external_id, now)
                    .await?;
                Ok(Outcome::Landed)
            }
            Err(DeliveryError::Retry { after_ms, reason }) => {
                self.retry_later(row, after_ms, &reason, now).await
            }
            Err(DeliveryError::Refused(reason)) => {
                self.retry_later(row, REFUSED_RETRY_MS, &reason, now).await
            }
            Ok(None) | Err(_) => {
                tracing::debug!(race = row.campaign.0, outbox = row.id, reason);
                store.outbox_failed(row.id, reason).await?;
                Ok(Outcome::Settled)
            }
        }
    }

    /// Schedules the row's next attempt. Never given up: the wait is capped, and kept in
    /// the row across restarts.
    async fn retry_later(
        &self,
        row: &OutboxRow,
        after_ms: Millis,
        reason: &str,
        now: Millis,
    ) -> Result<Outcome, RefereeError> {
        let wait = backoff_ms(row.attempts, after_ms, jitter());
        tracing::debug!(
            race = row.campaign.0,
            outbox = row.id,
            attempts = row.attempts + 1,
            wait_ms = wait,
            "delivery will be retried: {reason}"
        );
        self.store()
            .outbox_retry(row.id, now.saturating_add(wait), reason)
            .await?;
        Ok(Outcome::Waiting)
    }

    /// One attempt: an edit goes straight out; a create is recorded first, and when an
    /// earlier attempt to create it ended unknown, the courier looks for it before it is
    /// created again.
    async fn attempt(
        &self,
        courier: &dyn Courier,
        parcel: Parcel<'_>,
        now: Millis,
    ) -> Result<Result<Delivered, DeliveryError>, RefereeError> {
        let since = match parcel.edit {
            Some(_) => None,
            None => {
                self.store()
                    .outbox_create_attempt(parcel.outbox_id, now)
                    .await?
            }
        };
        let Some(since) = since else {
            return Ok(self.sent(courier, parcel).await);
        };
        let found = self.looked_for(courier, parcel.clone(), since).await;
        Ok(match found {
            Ok(Some(done)) => {
                tracing::info!(
                    race = parcel.race.0,
                    outbox = parcel.outbox_id,
                    "an earlier attempt had landed; marked delivered, not posted again"
                );
                Ok(done)
            }
            Ok(None) => self.sent(courier, parcel).await,
            Err(e) => Err(e),
        })
    }

    /// Asks the courier whether an earlier attempt posted the parcel; any answer but "try
    /// again" is a sign of life for the outage hold.
    async fn looked_for(
        &self,
        courier: &dyn Courier,
        parcel: Parcel<'_>,
        since: Millis,
    ) -> Result<Option<Delivered>, DeliveryError> {
        let found = courier.find(parcel, since).await;
        self.reached(!matches!(
            found,
            Err(DeliveryError::Retry { .. } | DeliveryError::Refused(_))
        ));
        found
    }

    /// Hands a parcel to the courier; any answer but "try again" is a sign of life for
    /// the outage hold.
    async fn sent(
        &self,
        courier: &dyn Courier,
        parcel: Parcel<'_>,
    ) -> Result<Delivered, DeliveryError> {
        let sent = courier.deliver(parcel).await;
        // Refused is an answer, but not a way to reach players: deadlines are held.
        self.reached(!matches!(
            sent,
            Err(DeliveryError::Retry { .. } | DeliveryError::Refused(_))
        ));
        if let Ok(mut refused) = self.refused.lock() {
            match &sent {
                Ok(_) => *refused = None,
                Err(DeliveryError::Refused(reason)) => *refused = Some(reason.clone()),
                Err(_) => {}
            }
        }
        sent
    }

    async fn deliver_one(
        &self,
        courier: &dyn Courier,
        row: &OutboxRow,
    ) -> Result<Outcome, RefereeError> {
        let store = self.store();
        let Some((target, announcement, address, moot)) = self.prepare(row).await? else {
            return Ok(Outcome::Settled);
        };
        let edit = match target {
            Target::Status => address.status_message.as_deref(),
            Target::Lobby => address.lobby_message.as_deref(),
            _ => None,
        };
        let parcel = Parcel {
            outbox_id: row.id,
            race: row.campaign,
            channel: &address.channel,
            target: &target,
            announcement: &announcement,
            edit,
            attempts: row.attempts,
        };
        if let Some(reason) = moot {
            return self.settle_moot(courier, row, parcel, reason).await;
        }
        let now = self.clock().now();
        match self.attempt(courier, parcel, now).await? {
            Ok(done) => {
                crate::fault::point("mid-delivery");
                let fresh = done.external_id.is_some() && done.external_id.as_deref() != edit;
                match target {
                    Target::Status if fresh => {
                        store
                            .set_status_message(row.campaign, done.external_id.clone())
                            .await?;
                    }
                    Target::Lobby if fresh => {
                        store
                            .set_lobby_message(row.campaign, done.external_id.clone())
                            .await?;
                    }
                    _ => {}
                }
                let now = self.clock().now();
                store
                    .outbox_delivered(row.id, done.external_id, now)
                    .await?;
                Ok(Outcome::Landed)
            }
            Err(DeliveryError::Retry { after_ms, reason }) => {
                self.retry_later(row, after_ms, &reason, now).await
            }
            Err(DeliveryError::Refused(reason)) => {
                self.retry_later(row, REFUSED_RETRY_MS, &reason, now).await
            }
            Err(DeliveryError::Gone) => {
                // Forget the deleted message; the retry posts a fresh one.
                match target {
                    Target::Status => store.set_status_message(row.campaign, None).await?,
                    Target::Lobby => store.set_lobby_message(row.campaign, None).await?,
                    _ => {}
                }
                store
                    .outbox_retry(row.id, now, "the message was deleted")
                    .await?;
                Ok(Outcome::Waiting)
            }
            Err(DeliveryError::DmClosed) => {
                store.outbox_failed(row.id, "DMs closed").await?;
                if let Target::Dm { seat, .. } = target {
                    self.dm_failed(row.campaign, seat).await?;
                }
                Ok(Outcome::Settled)
            }
            Err(DeliveryError::ChannelLost { gone, reason }) => {
                tracing::warn!(
                    race = row.campaign.0,
                    outbox = row.id,
                    "the race's channel is lost: {reason}"
                );
                store.outbox_failed(row.id, &reason).await?;
                self.channel_lost(row.campaign, gone).await?;
                Ok(Outcome::Settled)
            }
            Err(DeliveryError::Permanent(reason)) => {
                tracing::warn!(
                    race = row.campaign.0,
                    outbox = row.id,
                    "undeliverable: {reason}"
                );
                store.outbox_failed(row.id, &reason).await?;
                Ok(Outcome::Settled)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_BACKOFF_MS, backoff_ms};

    #[test]
    fn backoff_grows_and_is_capped_with_jitter() {
        assert_eq!(backoff_ms(0, 0, 0.0), 1_000);
        assert_eq!(backoff_ms(3, 0, 0.0), 8_000);
        assert_eq!(backoff_ms(0, 5_000, 0.0), 5_000);
        assert_eq!(backoff_ms(30, 0, 0.0), MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(2, 900_000, 0.0), MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(i64::MAX, i64::MAX, 1.0), 240_000);
        for j in [0.0, 0.3, 0.99, 1.0] {
            let w = backoff_ms(50, 0, j);
            assert!((240_000..=MAX_BACKOFF_MS).contains(&w), "{w}");
        }
    }
}
