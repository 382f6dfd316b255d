//! Fault-injection points for the crash tests (`tests/integration/crash.rs`).
//!
//! With `PHOTOFINISH_CRASH_AT=<point>` in the environment the process aborts, as a power
//! cut or a `kill -9` would stop it, the first time it reaches that point. Unset, a point
//! costs one load of a cached value.

use std::sync::OnceLock;

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

fn armed() -> Option<&'static str> {
    static ARMED: OnceLock<Option<String>> = OnceLock::new();
    ARMED
        .get_or_init(|| {
            std::env::var("PHOTOFINISH_CRASH_AT")
                .ok()
                .filter(|p| POINTS.contains(&p.as_str()))
        })
        .as_deref()
}

/// Aborts the process here if this point is armed.
pub fn point(name: &'static str) {
    if armed() == Some(name) {
        tracing::error!(point = name, "crashing on purpose (PHOTOFINISH_CRASH_AT)");
        std::process::abort();
    }
}
