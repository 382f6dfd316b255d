//! The referee's one transaction: load a campaign (from a small cache when still
//! current), decide in memory, commit once; serialised per campaign in-process.

use std::sync::Arc;

use tokio::sync::Mutex;

use super::work::Work;
use super::{Referee, RefereeError};
use crate::store::{CampaignId, Loaded, OrderSource, StoreError, TimeContext};

/// Campaigns the referee keeps in memory between decisions.
const CACHE_RACES: usize = 1024;

impl Referee {
    async fn lock(&self, id: CampaignId) -> Arc<Mutex<()>> {
        let mut locks = self.locks.lock().await;
        locks
            .entry(id)
            .or_insert_with(|| Arc::new(Mutex::new(())))
            .clone()
    }

    /// Load, decide, commit: retried when another process changed the campaign first.
    pub(super) async fn mutate<T>(
        &self,
        id: CampaignId,
        mut decide: impl FnMut(&mut Work) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        let lock = self.lock(id).await;
        let _guard = lock.lock().await;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (loaded, time) = match self.load_cached(id).await {
                Ok(l) => l,
                Err(e) => return Err(self.poisoned(id, "campaigns", e).await),
            };
            let open = loaded.campaign.phase.is_open();
            let mut work = Work::new(loaded, self.clock.now());
            if open {
                work.time = match time {
                    Some(time) => time,
                    None => self.time_context(id).await,
                };
            }
            let out = match decide(&mut work) {
                Ok(out) => out,
                Err(e) => return Err(self.poisoned(id, "campaigns", e).await),
            };
            let version = work.expected_version();
            let Some((commit, after)) = work.finish_with_after() else {
                return Ok(out);
            };
            let adjudicated = !commit.events.is_empty();
            let accepted = commit
                .orders
                .iter()
                .any(|o| o.source == OrderSource::Player);
            match self.store.commit(id, version, commit).await {
                Ok(()) => {
                    self.remember(after);
                    if accepted {
                        crate::fault::point("order-accepted");
                    }
                    if adjudicated {
                        crate::fault::point("after-commit");
                    }
                    return Ok(out);
                }
                Err(e) if attempt < 5 && matches!(e, StoreError::Conflict) => {
                    self.forget(id);
                    tracing::debug!(race = id.0, attempt, "conflict; deciding again");
                    continue;
                }
                Err(e) => {
                    self.forget(id);
                    tracing::warn!(race = id.0, error = %e, "a commit failed; nothing was changed");
                    return Err(e.into());
                }
            }
        }
    }

    /// The race's server zone and players' time settings; without them (the store
    /// failing) deadlines fall as if nobody had set any.
    async fn time_context(&self, id: CampaignId) -> TimeContext {
        match self.store.time_context(id).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(race = id.0, error = %e, "cannot read the players' time settings");
                TimeContext::default()
            }
        }
    }

    /// Quarantines the race when `e` says its stored data will never decode; returns `e`.
    async fn poisoned(&self, id: CampaignId, table: &str, e: RefereeError) -> RefereeError {
        if e.is_poison() {
            self.forget(id);
            self.quarantine(id, table, id.0, &e).await;
        }
        e
    }

    /// The campaign, from the cache when the store still holds the version this referee
    /// committed last, else loaded whole; with the time context when the version check
    /// read it in the same trip.
    async fn load_cached(
        &self,
        id: CampaignId,
    ) -> Result<(Loaded, Option<TimeContext>), RefereeError> {
        let cached = self.cache.lock().ok().and_then(|c| c.get(&id).cloned());
        if let Some(cached) = cached {
            let (version, time) = self.store.version_and_time(id).await?;
            if version == Some(cached.campaign.version) {
                #[cfg(debug_assertions)]
                self.check_cached(&cached).await;
                return Ok((cached, Some(time)));
            }
            self.forget(id);
            // Read before the load: the time context is kept (the tables it reads are
            // not the campaign's), the version is not.
            let loaded = self.store.load(id).await?.ok_or(RefereeError::NoRace)?;
            return Ok((loaded, Some(time)));
        }
        let loaded = self.store.load(id).await?.ok_or(RefereeError::NoRace)?;
        Ok((loaded, None))
    }

    /// Tests run with debug assertions: every cache hit must equal a fresh load, but for
    /// the adapter's message ids, which decisions never read (delivery loads afresh).
    /// Another process may commit between the version check and this load; then the
    /// versions differ, the commit will conflict and decide again, and there is nothing
    /// to compare.
    #[cfg(debug_assertions)]
    async fn check_cached(&self, cached: &Loaded) {
        if let Ok(Some(mut fresh)) = self.store.load(cached.campaign.id).await
            && fresh.campaign.version == cached.campaign.version
        {
            fresh.campaign.status_message = cached.campaign.status_message.clone();
            fresh.campaign.lobby_message = cached.campaign.lobby_message.clone();
            debug_assert_eq!(&fresh, cached, "the referee's cache drifted from the store");
        }
    }

    fn remember(&self, after: Loaded) {
        if let Ok(mut cache) = self.cache.lock() {
            // Bounded: a busy bot refills it with the races in play.
            if cache.len() >= CACHE_RACES && !cache.contains_key(&after.campaign.id) {
                cache.clear();
            }
            cache.insert(after.campaign.id, after);
        }
    }

    fn forget(&self, id: CampaignId) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.remove(&id);
        }
    }

    pub(super) async fn read(&self, id: CampaignId) -> Result<Work, RefereeError> {
        let loaded = self.store.load(id).await?.ok_or(RefereeError::NoRace)?;
        Ok(Work::new(loaded, self.clock.now()))
    }
}
