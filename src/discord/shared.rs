//! What every handler shares ([`Shared`]: the referee, the adapter's settings, the
//! courier, the workers' wake-ups) and the duplicate check on interaction and message
//! ids; poise's [`Error`] and [`Ctx`].

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use super::config::Settings;
use super::courier::DiscordCourier;
use crate::referee::Referee;
use crate::store::{Heartbeat, StoreError};

/// What poise's handlers return when something other than a referee refusal fails.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// A slash command's context.
pub type Ctx<'a> = poise::Context<'a, Arc<Shared>, Error>;

/// How many interaction and message ids are remembered to drop duplicates.
const SEEN_CAP: usize = 8192;
/// How long an interaction or DM id stays claimed in the store: longer than Discord keeps
/// an interaction's token (15 minutes) or sends one event again.
const CLAIM_MS: i64 = 3_600_000;
/// Ids already handled (interactions, DM messages): a duplicate gateway event is dropped.
#[derive(Default)]
pub(super) struct Seen {
    set: HashSet<u64>,
    order: VecDeque<u64>,
}

/// What every handler shares.
pub struct Shared {
    pub referee: Arc<Referee>,
    pub settings: Settings,
    pub courier: Arc<DiscordCourier>,
    pub(super) deadlines: Notify,
    pub(super) delivery: Notify,
    pub(super) seen: Mutex<Seen>,
    /// Woken by gateway events, so that the heartbeat reports a change at once.
    pub(super) gateway: Notify,
    /// The referee's clock runs this many times faster than real time (1 but in tests).
    pub(super) time_scale: f64,
    /// The total number of shards, once known (asked of Discord when `shards` is auto).
    pub(super) shard_total: Mutex<Option<u32>>,
    /// This process's report, as last written.
    pub(super) beat: Mutex<Heartbeat>,
    /// Why the gateway is not yet started (a start-up request to Discord that failed and
    /// is being asked again), for the report while no shard is connected.
    pub(super) start_trouble: Mutex<Option<String>>,
}

impl Shared {
    /// Wakes both workers: something may be due or queued.
    pub fn poke(&self) {
        self.deadlines.notify_one();
        self.delivery.notify_one();
    }

    /// Claims an interaction (or a DM's message id) before it changes anything: true for
    /// the first process to see it, false for a duplicate, in this process (memory) or in
    /// another sharing the database (the store's `interactions`, as when two processes
    /// run one shard during a rolling deploy). A host's `deadline extend` or `bots` is
    /// thereby keyed by its interaction id.
    pub async fn claim(&self, id: u64) -> Result<bool, StoreError> {
        let now = self.referee.clock().now();
        self.claim_until(id, now.saturating_add(CLAIM_MS)).await
    }

    /// Claims a DM's message id for good: a DM handled but not yet remembered as seen
    /// (the bot stopped in between) must not be played again by a catch-up hours later.
    /// Remembering it as seen (`Store::set_dm_seen`) lets the claim expire as usual.
    /// A claim the store could not record is forgotten here too, so that the DM read
    /// back later (or sent again) is handled then.
    pub async fn claim_dm(&self, id: u64) -> Result<bool, StoreError> {
        let claimed = self.claim_until(id, i64::MAX).await;
        if claimed.is_err() {
            self.forget(id);
        }
        claimed
    }

    /// [`Shared::claim`] in the store alone, for an interaction already found new in
    /// memory ([`Shared::first_time`]) and acknowledged: the store may be slow.
    pub async fn claim_stored(&self, id: u64) -> Result<bool, StoreError> {
        let now = self.referee.clock().now();
        self.claim_stored_until(id, now.saturating_add(CLAIM_MS))
            .await
    }

    async fn claim_until(&self, id: u64, expires: i64) -> Result<bool, StoreError> {
        if !self.first_time(id) {
            return Ok(false);
        }
        self.claim_stored_until(id, expires).await
    }

    async fn claim_stored_until(&self, id: u64, expires: i64) -> Result<bool, StoreError> {
        let now = self.referee.clock().now();
        self.referee
            .store()
            .claim_interaction(&id.to_string(), expires, now)
            .await
    }

    /// Takes `id` out of the ids seen in this process.
    fn forget(&self, id: u64) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.set.remove(&id);
            seen.order.retain(|&o| o != id);
        }
    }

    /// True the first time an id is seen; false for a duplicate.
    pub fn first_time(&self, id: u64) -> bool {
        let Ok(mut seen) = self.seen.lock() else {
            return true;
        };
        if !seen.set.insert(id) {
            return false;
        }
        seen.order.push_back(id);
        if seen.order.len() > SEEN_CAP
            && let Some(old) = seen.order.pop_front()
        {
            seen.set.remove(&old);
        }
        true
    }
}
