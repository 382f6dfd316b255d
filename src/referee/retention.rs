//! Retention's schedule (docs/reliability.md, "Retention"): the deadline worker's tick
//! compacts races that ended more than `retention.after` ago, at most once an hour of the
//! referee's clock, the first time ten minutes after its first tick (not at a restart). What is deleted and what is kept is the store's (`store/retention.rs`).

use super::error::RefereeError;
use super::machine::Referee;
use crate::store::Compacted;
use crate::vocab::Millis;

/// The least time between two compactions by one referee.
pub const COMPACT_EVERY_MS: Millis = 3_600_000;

/// The first compaction waits this long after the referee's first tick: compaction reads
/// every ended race's rows, and a restart's first tick is for the races with work due.
pub const FIRST_COMPACT_AFTER_MS: Millis = 600_000;

impl Referee {
    /// Compacts ended races now (tests, and the tick below).
    pub async fn compact_now(&self) -> Result<Compacted, RefereeError> {
        let now = self.clock.now();
        let after_ms = i64::try_from(self.config.retention_after_secs)
            .unwrap_or(i64::MAX)
            .saturating_mul(1000);
        let done = self
            .store
            .compact(now.saturating_sub(after_ms), now)
            .await?;
        if done.total() > 0 {
            tracing::info!(
                orders = done.orders,
                outbox = done.outbox,
                deadlines = done.deadlines,
                leases = done.leases,
                interactions = done.interactions,
                "compacted ended races"
            );
        }
        Ok(done)
    }

    /// Compacts when the last compaction is an hour old (or the clock went back); a
    /// failure is logged and tried again at the next hour, never failing the tick.
    pub(super) async fn compact_when_due(&self, now: Millis) {
        if self.config.retention_after_secs == 0 {
            return;
        }
        {
            let Ok(mut last) = self.last_compaction.lock() else {
                return;
            };
            let due = match *last {
                None => {
                    // As if the last compaction was an hour ago less the first wait.
                    *last = Some(
                        now.saturating_sub(COMPACT_EVERY_MS.saturating_sub(FIRST_COMPACT_AFTER_MS)),
                    );
                    false
                }
                Some(at) => now < at || now.saturating_sub(at) >= COMPACT_EVERY_MS,
            };
            if !due {
                return;
            }
            *last = Some(now);
        }
        if let Err(e) = self.compact_now().await {
            tracing::warn!(error = %e.operator_detail(), "retention: compaction failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::referee::clock::{Clock, TestClock};
    use crate::referee::machine::Config;
    use crate::store::{SqliteStore, Store};

    /// A restart's first tick is for the races with work due: it compacts nothing (an
    /// expired interaction claim is still there for `compact_now`); ten minutes on, the
    /// tick compacts.
    #[tokio::test]
    async fn the_first_tick_leaves_compaction_for_later() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
        let clock = Arc::new(TestClock::at_epoch());
        let r = Referee::new(store.clone(), clock.clone(), Config::default());
        let t0 = clock.now();
        assert!(store.claim_interaction("a", t0 + 1000, t0).await.unwrap());
        clock.advance_secs(2);
        r.tick().await.unwrap();
        assert_eq!(r.compact_now().await.unwrap().interactions, 1);
        // Another expired claim, then the first compaction's time.
        let t1 = clock.now();
        assert!(store.claim_interaction("b", t1 + 1000, t1).await.unwrap());
        clock.advance_ms(FIRST_COMPACT_AFTER_MS);
        r.tick().await.unwrap();
        assert_eq!(r.compact_now().await.unwrap().interactions, 0);
    }
}
