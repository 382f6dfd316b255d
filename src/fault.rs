//! Fault-injection points for the crash tests (`tests/integration/crash.rs`).
//!
//! Built only with the cargo feature `fault-injection`, which the tests turn on (the crate
//! lists itself as a dev-dependency with it) and release and default builds leave off:
//! there, [`point`] is an empty function and the binary knows no `PHOTOFINISH_CRASH_AT`.
//! With the feature and `PHOTOFINISH_CRASH_AT=<point>` in the environment, the process
//! aborts, as a power cut or a `kill -9` would stop it, the first time it reaches that
//! point. Unset, a point costs one load of a cached value.

/// The points the referee's adjudication and delivery path passes.
pub const POINTS: &[&str] = &[
    // An order's commit has landed; its receipt has not been returned.
    "order-accepted",
    // Inside an adjudication's transaction, after its writes, before it commits.
    "mid-adjudication",
    // An adjudication has committed; its outbox has not been delivered.
    "after-commit",
    // An announcement has been delivered; it has not been marked delivered.
    "mid-delivery",
];

/// Whether this build has the fault-injection hook.
pub fn enabled() -> bool {
    cfg!(feature = "fault-injection")
}

#[cfg(feature = "fault-injection")]
fn armed() -> Option<&'static str> {
    static ARMED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    ARMED
        .get_or_init(|| {
            std::env::var("PHOTOFINISH_CRASH_AT")
                .ok()
                .filter(|p| POINTS.contains(&p.as_str()))
        })
        .as_deref()
}

/// Aborts the process here if this point is armed.
#[cfg(feature = "fault-injection")]
pub fn point(name: &'static str) {
    if armed() == Some(name) {
        tracing::error!(point = name, "crashing on purpose (PHOTOFINISH_CRASH_AT)");
        std::process::abort();
    }
}

/// Without the feature, nothing.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn point(_name: &'static str) {}
