//! Time for the referee: the system clock in production, a hand-moved clock in tests, so
//! tests move deadlines without sleeping. A clock may also tell monotonic time, against
//! which a jump of the wall clock shows (docs/reliability.md: the outage hold).

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::vocab::Millis;

/// Where the referee gets the time.
pub trait Clock: Send + Sync {
    /// Now, in milliseconds since the Unix epoch (UTC).
    fn now(&self) -> Millis;

    /// Milliseconds on a clock that never jumps (from any origin), or `None` when there
    /// is none: then jumps of [`Clock::now`] go unnoticed.
    fn monotonic_ms(&self) -> Option<Millis> {
        None
    }
}

/// Milliseconds since this process first asked, on the OS's monotonic clock.
pub fn process_monotonic_ms() -> Millis {
    static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let origin = ORIGIN.get_or_init(std::time::Instant::now);
    i64::try_from(origin.elapsed().as_millis()).unwrap_or(i64::MAX)
}

/// The real clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        chrono::Utc::now().timestamp_millis()
    }

    fn monotonic_ms(&self) -> Option<Millis> {
        Some(process_monotonic_ms())
    }
}

/// A clock that only moves when told to.
#[derive(Debug)]
pub struct TestClock {
    now: AtomicI64,
    /// Moves with `now`, except in [`TestClock::jump_ms`].
    mono: AtomicI64,
    // Serialises `advance` so concurrent tests see monotonic time.
    lock: Mutex<()>,
}

impl TestClock {
    pub fn new(start: Millis) -> TestClock {
        TestClock {
            now: AtomicI64::new(start),
            mono: AtomicI64::new(0),
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
        self.mono.fetch_add(ms, Ordering::SeqCst);
    }

    /// Moves the wall clock only, as a clock set wrong (or put right) does: time that did
    /// not pass.
    pub fn jump_ms(&self, ms: i64) {
        let _guard = self.lock.lock();
        self.now.fetch_add(ms, Ordering::SeqCst);
    }

    /// Now, without naming the trait.
    pub fn now_ms(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }

    /// Sets the time, as if it had passed (the monotonic clock moves as much).
    pub fn set(&self, at: Millis) {
        let _guard = self.lock.lock();
        let before = self.now.swap(at, Ordering::SeqCst);
        self.mono
            .fetch_add(at.saturating_sub(before), Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }

    fn monotonic_ms(&self) -> Option<Millis> {
        Some(self.mono.load(Ordering::SeqCst))
    }
}
