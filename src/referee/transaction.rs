//! The referee's one transaction: load a campaign (from a small cache when still
//! current), decide in memory, commit once; serialised per campaign in-process. Every
//! load from the store goes through [`Referee::load`], which refuses a game state that
//! decodes but breaks its game's invariants.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use tokio::sync::Mutex;

use super::error::{LYING_TABLE, RefereeError};
use super::machine::Cached;
use super::machine::Referee;
use super::work::Work;
use crate::engine::{Seat, StateError};
use crate::games::AnyGame;
use crate::store::{Loaded, OrderSource, SeatRow, StoreError};
use crate::vocab::{CampaignId, TimeContext, UserId};

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
    ///
    /// A race this referee committed last is decided on from its cache without asking the
    /// store first: a commit is guarded by the version it was decided on (a change of a
    /// player's or the server's time settings moves it too), and an outcome that writes
    /// nothing (a refusal, a repeated order) is checked against the stored version before
    /// it is returned, and decided again on a fresh load if the race moved on.
    ///
    /// Boxed: its state (the race, the decision, the commit) is large, and every request
    /// awaits it; unboxed, each caller's future carried a copy of that size.
    pub(super) fn mutate<'a, T: Send + 'a>(
        &'a self,
        id: CampaignId,
        decide: impl FnMut(&mut Work) -> Result<T, RefereeError> + Send + 'a,
    ) -> BoxFuture<'a, Result<T, RefereeError>> {
        Box::pin(self.mutate_inner(id, decide))
    }

    async fn mutate_inner<T>(
        &self,
        id: CampaignId,
        mut decide: impl FnMut(&mut Work) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        let lock = self.lock(id).await;
        let _guard = lock.lock().await;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (loaded, time, checked) = match self.take_cached(id) {
                Some(Cached { loaded, time }) => {
                    #[cfg(debug_assertions)]
                    self.check_cached(&loaded).await;
                    (loaded, time, false)
                }
                None => match self.load(id).await {
                    Ok(Some(loaded)) => (loaded, None, true),
                    Ok(None) => return Err(RefereeError::NoRace),
                    Err(e @ RefereeError::LyingState { .. }) => {
                        return Err(self.poisoned(id, LYING_TABLE, e).await);
                    }
                    Err(e) => return Err(self.poisoned(id, "campaigns", e).await),
                },
            };
            let open = loaded.campaign.phase.is_open();
            let seated = open.then(|| seated_users(&loaded.seats));
            let mut work = Work::new(loaded, self.clock.now());
            if open {
                work.time = match time {
                    Some(time) => time,
                    None => self.time_context(id).await,
                };
            }
            let time = open.then(|| work.time.clone());
            let version = work.expected_version();
            let out = match decide(&mut work) {
                Ok(out) => out,
                Err(e) => {
                    if !checked && self.moved_on(id, version, attempt).await {
                        continue;
                    }
                    return Err(self.poisoned(id, "campaigns", e).await);
                }
            };
            let Some((commit, after)) = work.finish_with_after() else {
                // Nothing to write: an answer from the cache stands only if the race did
                // not move on meanwhile.
                if !checked && self.moved_on(id, version, attempt).await {
                    continue;
                }
                return Ok(out);
            };
            // Who sits changed: whose time settings count changed with them. (A step's
            // prompts change the seats' rows but not who sits in them.)
            let time = time.filter(|_| {
                commit.seats.is_none() || seated.as_ref() == Some(&seated_users(&after.seats))
            });
            let adjudicated = !commit.events.is_empty();
            let accepted = commit
                .orders
                .iter()
                .any(|o| o.source == OrderSource::Player);
            match self.store.commit(id, version, commit).await {
                Ok(()) => {
                    self.remember(after, time);
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

    /// The campaign as this referee last committed it, taken out of the cache (put back,
    /// updated, when the next commit succeeds), with the time context it was decided with.
    fn take_cached(&self, id: CampaignId) -> Option<Cached> {
        self.cache.lock().ok()?.remove(&id)
    }

    /// Whether the stored campaign moved on from `version`, which a decision from the cache
    /// that writes nothing was made on (then it is decided again, on a fresh load); a
    /// store that cannot tell counts as not moved on.
    async fn moved_on(&self, id: CampaignId, version: i64, attempt: u32) -> bool {
        if attempt >= 5 {
            return false;
        }
        match self.store.version(id).await {
            Ok(stored) if stored != Some(version) => {
                tracing::debug!(race = id.0, attempt, "the cache was stale; deciding again");
                true
            }
            Ok(_) => false,
            Err(e) => {
                tracing::warn!(race = id.0, error = %e, "cannot check the race's version");
                false
            }
        }
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

    fn remember(&self, loaded: Loaded, time: Option<TimeContext>) {
        if let Ok(mut cache) = self.cache.lock() {
            // Bounded: a busy bot refills it with the races in play.
            if cache.len() >= CACHE_RACES && !cache.contains_key(&loaded.campaign.id) {
                cache.clear();
            }
            cache.insert(loaded.campaign.id, Cached { loaded, time });
        }
    }

    fn forget(&self, id: CampaignId) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.remove(&id);
        }
    }

    pub(super) async fn read(&self, id: CampaignId) -> Result<Work, RefereeError> {
        let loaded = self.load(id).await?.ok_or(RefereeError::NoRace)?;
        Ok(Work::new(loaded, self.clock.now()))
    }

    /// The race as stored, its game state checked: a state that decodes but breaks its
    /// game's invariants ([`AnyGame::check`]), or asks a seat the race does not have, is
    /// [`RefereeError::LyingState`], poison like a row that does not decode.
    pub(super) async fn load(&self, id: CampaignId) -> Result<Option<Loaded>, RefereeError> {
        let Some(loaded) = self.store.load(id).await? else {
            return Ok(None);
        };
        if let Some(game) = &loaded.campaign.state
            && let Err(error) = game.check().and_then(|()| seats_fit(game, &loaded.seats))
        {
            return Err(RefereeError::LyingState { race: id, error });
        }
        Ok(Some(loaded))
    }
}

/// Every seat the game waits for has its row in the race.
fn seats_fit(game: &AnyGame, seats: &[SeatRow]) -> Result<(), StateError> {
    for seat in game.pending().seats {
        StateError::ensure(
            seats.iter().any(|s| s.seat == seat),
            format_args!("{seat} must act, but the race has no such seat"),
        )?;
    }
    Ok(())
}

/// Who sits in which seat: the time settings cached with a race are theirs.
fn seated_users(seats: &[SeatRow]) -> Vec<(Seat, Option<UserId>)> {
    seats.iter().map(|s| (s.seat, s.user.clone())).collect()
}
