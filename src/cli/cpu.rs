//! The stopwatch `photofinish sim` times expert decisions on: the thread's CPU clock
//! (Linux's `/proc/thread-self/schedstat`), or the wall clock, labelled so, where it
//! cannot be read. Here, not in the games, since reading a clock is I/O.

use std::time::Instant;

use crate::games::strength::Stopwatch;

/// The thread's CPU clock, falling back to the wall clock.
pub struct ThreadCpu;

/// This thread's CPU time in nanoseconds (the first field of Linux's schedstat).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl Stopwatch for ThreadCpu {
    fn time(&self, decide: &mut dyn FnMut()) -> (&'static str, u64) {
        if let Some(before) = thread_cpu_ns() {
            decide();
            if let Some(after) = thread_cpu_ns() {
                return ("thread CPU", after.saturating_sub(before));
            }
            return ("wall", 0);
        }
        let start = Instant::now();
        decide();
        let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        ("wall", ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decision_runs_once_and_is_timed_on_a_named_clock() {
        let mut runs = 0;
        let (clock, _) = ThreadCpu.time(&mut || runs += 1);
        assert_eq!(runs, 1);
        assert!(["thread CPU", "wall"].contains(&clock), "{clock}");
    }
}
