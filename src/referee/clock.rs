//! Time for the referee: the system clock in production, a hand-moved clock in tests, so
//! tests move deadlines without sleeping.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::store::Millis;

/// Where the referee gets the time.
pub trait Clock: Send + Sync {
    /// Now, in milliseconds since the Unix epoch (UTC).
    fn now(&self) -> Millis;
}

/// The real clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        chrono::Utc::now().timestamp_millis()
    }
}

/// A clock that only moves when told to.
#[derive(Debug)]
pub struct TestClock {
    now: AtomicI64,
    // Serialises `advance` so concurrent tests see monotonic time.
    lock: Mutex<()>,
}

impl TestClock {
    pub fn new(start: Millis) -> TestClock {
        TestClock {
            now: AtomicI64::new(start),
            lock: Mutex::new(()),
        }
    }

    /// Starts at 2026-01-01T00:00:00Z, a round, readable moment.
    pub fn at_epoch() -> TestClock {
        TestClock::new(1_767_225_600_000)
    }

    pub fn advance_secs(&self, secs: i64) {
        self.advance_ms(secs.saturating_mul(1000));
    }

    pub fn advance_ms(&self, ms: i64) {
        let _guard = self.lock.lock();
        self.now.fetch_add(ms, Ordering::SeqCst);
    }

    /// Now, without naming the trait.
    pub fn now_ms(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }

    pub fn set(&self, at: Millis) {
        self.now.store(at, Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }
}
