//! Delivering the outbox: an adapter implements [`Courier`]; [`Referee::deliver`] hands it
//! each ready announcement, and marks it delivered only after the adapter says it landed.
//!
//! A crash between landing and marking would deliver twice; the outbox id is passed to
//! the courier as a nonce so an adapter can make delivery idempotent (Discord's
//! `enforce_nonce`).
//!
//! With several processes, each pass first takes the outbox lease of the campaigns it
//! will deliver ([`crate::store::Store::claim_outbox`]): one process at a time delivers a
//! campaign, in order. The lease is renewed while a long pass runs and released at its
//! end; a process that dies leaves it to expire, and another finishes the work then.

use std::collections::HashMap;

use async_trait::async_trait;
use thiserror::Error;

use super::announce::{Announcement, Target};
use super::{Referee, RefereeError};
use crate::store::{CampaignId, Millis, OutboxRow};

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
    /// It will never land.
    #[error("{0}")]
    Permanent(String),
}

/// An adapter's way of saying things.
#[async_trait]
pub trait Courier: Send + Sync {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError>;
}

/// Retries back off exponentially up to five minutes.
fn backoff_ms(attempts: i64, hinted: i64) -> i64 {
    let exp = 1_000i64.saturating_mul(1i64 << attempts.clamp(0, 8));
    hinted.max(exp).min(300_000)
}

/// After this many attempts an announcement is given up.
const MAX_ATTEMPTS: i64 = 12;

/// How long a campaign's outbox is ours once claimed; renewed at half-time during a pass.
pub const OUTBOX_LEASE_MS: Millis = 60_000;

/// Announcements claimed per pass.
const PASS_BATCH: u32 = 100;

impl Referee {
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
        let result = self.deliver_claimed(courier, &rows, &mut leases).await;
        // Released even after an error, so nobody waits out the lease for nothing.
        let campaigns: Vec<CampaignId> = leases.keys().copied().collect();
        if let Err(e) = self
            .store()
            .release_outbox_leases(self.instance(), &campaigns)
            .await
        {
            tracing::warn!("cannot release outbox leases: {e}");
        }
        result
    }

    async fn deliver_claimed(
        &self,
        courier: &dyn Courier,
        rows: &[OutboxRow],
        leases: &mut HashMap<CampaignId, Millis>,
    ) -> Result<usize, RefereeError> {
        let mut landed = 0;
        for row in rows {
            let Some(&until) = leases.get(&row.campaign) else {
                continue; // lost to another process during this pass
            };
            let now = self.clock().now();
            if until - now < OUTBOX_LEASE_MS / 2 {
                let renewed = now + OUTBOX_LEASE_MS;
                if self
                    .store()
                    .renew_outbox_lease(row.campaign, self.instance(), renewed)
                    .await?
                {
                    leases.insert(row.campaign, renewed);
                } else {
                    tracing::debug!(race = row.campaign.0, "outbox lease taken over");
                    leases.remove(&row.campaign);
                    continue;
                }
            }
            if self.deliver_one(courier, row).await? {
                landed += 1;
            }
        }
        Ok(landed)
    }

    async fn deliver_one(
        &self,
        courier: &dyn Courier,
        row: &OutboxRow,
    ) -> Result<bool, RefereeError> {
        let store = self.store();
        let (Ok(target), Ok(announcement)) = (
            serde_json::from_value::<Target>(row.target.clone()),
            serde_json::from_value::<Announcement>(row.payload.clone()),
        ) else {
            store
                .outbox_failed(row.id, "unreadable announcement")
                .await?;
            return Ok(false);
        };
        let Some(loaded) = store.load(row.campaign).await? else {
            store.outbox_failed(row.id, "the race is gone").await?;
            return Ok(false);
        };
        let c = &loaded.campaign;
        let edit = match target {
            Target::Status => c.status_message.as_deref(),
            Target::Lobby => c.lobby_message.as_deref(),
            _ => None,
        };
        let parcel = Parcel {
            outbox_id: row.id,
            race: row.campaign,
            channel: &c.channel,
            target: &target,
            announcement: &announcement,
            edit,
            attempts: row.attempts,
        };
        let now = self.clock().now();
        match courier.deliver(parcel).await {
            Ok(done) => {
                crate::fault::point("mid-delivery");
                match target {
                    Target::Status
                        if done.external_id.is_some() && done.external_id.as_deref() != edit =>
                    {
                        store
                            .set_status_message(row.campaign, done.external_id.clone())
                            .await?;
                    }
                    Target::Lobby
                        if done.external_id.is_some() && done.external_id.as_deref() != edit =>
                    {
                        store
                            .set_lobby_message(row.campaign, done.external_id.clone())
                            .await?;
                    }
                    _ => {}
                }
                store
                    .outbox_delivered(row.id, done.external_id, now)
                    .await?;
                Ok(true)
            }
            Err(DeliveryError::Retry { after_ms, reason }) => {
                if row.attempts + 1 >= MAX_ATTEMPTS {
                    tracing::warn!(
                        outbox = row.id,
                        "giving up after {} attempts: {reason}",
                        row.attempts + 1
                    );
                    store.outbox_failed(row.id, &reason).await?;
                } else {
                    store
                        .outbox_retry(row.id, now + backoff_ms(row.attempts, after_ms), &reason)
                        .await?;
                }
                Ok(false)
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
                Ok(false)
            }
            Err(DeliveryError::DmClosed) => {
                store.outbox_failed(row.id, "DMs closed").await?;
                if let Target::Dm { seat, .. } = target {
                    self.dm_failed(row.campaign, seat).await?;
                }
                Ok(false)
            }
            Err(DeliveryError::Permanent(reason)) => {
                tracing::warn!(outbox = row.id, "undeliverable: {reason}");
                store.outbox_failed(row.id, &reason).await?;
                Ok(false)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::backoff_ms;

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(backoff_ms(0, 0), 1_000);
        assert_eq!(backoff_ms(3, 0), 8_000);
        assert_eq!(backoff_ms(0, 5_000), 5_000);
        assert_eq!(backoff_ms(30, 0), 256_000);
        assert_eq!(backoff_ms(2, 900_000), 300_000);
    }
}
