//! Work that keeps failing (the store full, locked or corrupt) waits longer after each
//! failure, from [`FIRST_WAIT_MS`] doubling to [`MAX_WAIT_MS`] with jitter, instead of
//! trying again at once; it logs the cause when it starts failing, again at most every
//! [`RETELL_MS`] with how often it repeated meanwhile, and once when it recovers.
//! [`Referee::deadline_pass`] is the deadline worker's turn of its loop, and records the
//! worker as `failing` while it fails, so that `photofinish health` says so
//! (docs/reliability.md).

use super::machine::Referee;
use crate::vocab::Millis;

/// The wait after the first failure.
pub const FIRST_WAIT_MS: Millis = 1_000;

/// The longest wait between two attempts while the work keeps failing.
pub const MAX_WAIT_MS: Millis = 60_000;

/// A failure that goes on is logged again at most this often.
pub const RETELL_MS: Millis = 600_000;

/// A worker's run of failures, on the referee's clock.
#[derive(Debug)]
pub struct Backoff {
    worker: &'static str,
    /// The instance name `photofinish health` looks the worker up by.
    instance: String,
    failures: u32,
    /// Failures since the cause was last logged.
    untold: u32,
    since: Millis,
    told_at: Millis,
    told_cause: String,
    jitter: u64,
}

impl Backoff {
    pub fn new(worker: &'static str, instance: impl Into<String>) -> Backoff {
        let mut seed = [0u8; 8];
        // Jitter only spreads processes apart; without the OS's randomness it still works.
        let _ = getrandom::fill(&mut seed);
        Backoff {
            worker,
            instance: instance.into(),
            failures: 0,
            untold: 0,
            since: 0,
            told_at: 0,
            told_cause: String::new(),
            jitter: u64::from_le_bytes(seed) | 1,
        }
    }

    /// True while the last attempt failed.
    pub fn failing(&self) -> bool {
        self.failures > 0
    }

    /// The wait before the next attempt after a failure: between half and all of the
    /// doubled wait, so processes that failed together do not retry together.
    fn next_wait(&mut self) -> Millis {
        let doubled = FIRST_WAIT_MS
            .saturating_mul(1i64 << self.failures.saturating_sub(1).min(20))
            .min(MAX_WAIT_MS);
        // xorshift64: a few bits of spread, no crate needed for it.
        self.jitter ^= self.jitter << 13;
        self.jitter ^= self.jitter >> 7;
        self.jitter ^= self.jitter << 17;
        let half = doubled / 2;
        let spread = u64::try_from(half).unwrap_or(0).saturating_add(1);
        let extra = i64::try_from(self.jitter % spread).unwrap_or(0);
        half.saturating_add(extra).max(1)
    }

    /// Counts a failure at `now` and logs it when it is news: the first of a run, a new
    /// cause, or [`RETELL_MS`] after the last time it was told. True when the failure
    /// starts a run (the worker is now failing). Returns the wait before the next try.
    pub fn failed(&mut self, now: Millis, cause: &str) -> (Millis, bool) {
        let started = self.failures == 0;
        if started {
            self.since = now;
        }
        self.failures = self.failures.saturating_add(1);
        self.untold = self.untold.saturating_add(1);
        let wait = self.next_wait();
        let news = started || cause != self.told_cause;
        if news || now.saturating_sub(self.told_at) >= RETELL_MS {
            let failing_secs = now.saturating_sub(self.since) / 1000;
            if started {
                tracing::warn!(
                    worker = self.worker,
                    error = %cause,
                    retry_in_ms = wait,
                    "a worker's work failed; it waits longer after each failure"
                );
            } else {
                tracing::warn!(
                    worker = self.worker,
                    error = %cause,
                    failures = self.failures,
                    since_last_told = self.untold,
                    failing_secs,
                    retry_in_ms = wait,
                    "a worker's work is still failing"
                );
            }
            self.told_at = now;
            self.told_cause = cause.to_string();
            self.untold = 0;
        }
        (wait, started)
    }

    /// Counts a success at `now`: true when it ends a run of failures (logged once).
    pub fn succeeded(&mut self, now: Millis) -> bool {
        if self.failures == 0 {
            return false;
        }
        tracing::info!(
            worker = self.worker,
            failures = self.failures,
            failing_secs = now.saturating_sub(self.since) / 1000,
            "a worker's work succeeds again"
        );
        self.failures = 0;
        self.untold = 0;
        self.told_cause.clear();
        true
    }
}

impl Referee {
    /// One turn of the deadline worker: handles what is due, and gives the wait (on this
    /// referee's clock) before the next turn, at most `poll_ms`. While the store fails, the
    /// wait grows ([`Backoff`]) and the worker is recorded as `failing` with the cause.
    pub async fn deadline_pass(&self, backoff: &mut Backoff, poll_ms: Millis) -> Millis {
        let outcome = match self.tick().await {
            Ok(_) => self.next_due().await.map(|due| match due {
                Some(due) => due.saturating_sub(self.clock.now()).clamp(0, poll_ms),
                None => poll_ms,
            }),
            Err(e) => Err(e),
        };
        let trouble = outcome
            .as_ref()
            .err()
            .map(super::RefereeError::operator_detail);
        match (self.after_pass(backoff, trouble).await, outcome) {
            (Some(wait), _) => wait,
            (None, Ok(wait)) => wait,
            (None, Err(_)) => poll_ms,
        }
    }

    /// Counts a worker's pass, failed with `trouble` or not: after a failure, the wait
    /// before the next pass; the worker is reported `failing` when its failures start and
    /// `running` when they end.
    pub async fn after_pass(
        &self,
        backoff: &mut Backoff,
        trouble: Option<String>,
    ) -> Option<Millis> {
        let now = self.clock.now();
        match trouble {
            Some(cause) => {
                let (wait, started) = backoff.failed(now, &cause);
                if started {
                    self.report_trouble(backoff, Some(&cause)).await;
                }
                Some(wait)
            }
            None => {
                if backoff.succeeded(now) {
                    self.report_trouble(backoff, None).await;
                }
                None
            }
        }
    }

    /// Records the worker as failing (with the cause) or running again, for `health`.
    async fn report_trouble(&self, backoff: &Backoff, cause: Option<&str>) {
        let at = chrono::Utc::now().timestamp_millis();
        if let Err(e) = self
            .store
            .worker_trouble(&backoff.instance, backoff.worker, cause, at)
            .await
        {
            tracing::warn!(
                worker = backoff.worker,
                "cannot report a worker's state: {e}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_to_its_cap_with_jitter_below_it() {
        let mut b = Backoff::new("deadlines", "here");
        let mut waits = Vec::new();
        for n in 0..12 {
            let (wait, started) = b.failed(n * 1000, "disk full");
            assert_eq!(started, n == 0);
            waits.push(wait);
        }
        for (i, w) in waits.iter().enumerate() {
            let full = (FIRST_WAIT_MS << i.min(20)).min(MAX_WAIT_MS);
            assert!(*w >= full / 2 && *w <= full, "wait {i}: {w} of {full}");
        }
        assert!(b.failing());
        assert!(b.succeeded(20_000));
        assert!(!b.failing());
        assert!(!b.succeeded(21_000), "told once");
        assert!(b.failed(22_000, "disk full").1, "a new run starts");
    }
}
