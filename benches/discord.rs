//! The Discord economy against the fake Discord (tests/integration/support/discord), with Discord's rate
//! limits enforced: requests per resolved turn, and the largest burst of races resolving
//! in the same second that gets no 429.
//!
//! Each trial opens N Dream Mile races of two players (every player in one race, every race
//! in its own channel), lets every deadline pass at the same moment, and counts the
//! requests the bot then makes and the 429s the fake answers. The largest N is found by
//! doubling, then bisecting.
//!
//! `cargo bench --bench discord` (`-- --max 64` to search higher).

// A bench, like a test, may unwrap: it includes the tests' fake Discord.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/integration/support/discord/mod.rs"]
mod fake_discord;

use std::time::{Duration, Instant};

use fake_discord::{CHANNEL, Harness, User, text_of};
use serde_json::json;

struct Trial {
    races: usize,
    requests: usize,
    limited: usize,
    took: Duration,
}

async fn trial(races: usize) -> Trial {
    let h = Harness::start().await;
    for r in 0..races {
        let channel = CHANNEL + 1 + r as u64;
        let host = User::new(10_000 + 2 * r as u64, "Host");
        let guest = User::new(10_001 + 2 * r as u64, "Guest");
        for (u, sub, options) in [
            (
                &host,
                "new",
                vec![
                    ("game", json!("dream-mile")),
                    ("options", json!("turn=1h reminders=none resolve=deadline")),
                ],
            ),
            (&host, "join", vec![]),
            (&guest, "join", vec![]),
            (&host, "start", vec![]),
        ] {
            let id = h.fake.slash(u, channel, sub, &options);
            let a = h.fake.response(id).await;
            assert!(!text_of(&a).contains("Not done"), "{sub}: {a}");
        }
    }
    h.settle().await;
    // Every race's deadline passes at once; count from here, under Discord's limits.
    h.fake.enforce_rate_limits();
    let before = h.fake.request_count();
    let started = Instant::now();
    h.advance(3601);
    let resolved = |h: &Harness| {
        h.fake
            .messages()
            .iter()
            .filter(|m| text_of(m).contains("Orders and receipts"))
            .count()
    };
    while resolved(&h) < races && started.elapsed() < Duration::from_secs(60) {
        h.advance(1);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    h.settle().await;
    let took = started.elapsed();
    let after = &h.fake.requests()[before..];
    Trial {
        races,
        requests: after.iter().filter(|r| r.status != 429).count(),
        limited: after.iter().filter(|r| r.status == 429).count(),
        took,
    }
}

fn main() {
    let max: usize = std::env::args()
        .skip_while(|a| a != "--max")
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let run = |n: usize| {
        let t = rt.block_on(trial(n));
        println!(
            "{:>4} races: {:>5} requests ({:.2} a race), {:>3} answered 429, delivered in {:.2} s",
            t.races,
            t.requests,
            t.requests as f64 / t.races as f64,
            t.limited,
            t.took.as_secs_f64()
        );
        t.limited == 0
    };
    // Doubling, then bisecting between the last good and the first bad.
    let (mut good, mut bad) = (0, None);
    let mut n = 1;
    while n <= max {
        if run(n) {
            good = n;
            n *= 2;
        } else {
            bad = Some(n);
            break;
        }
    }
    if let Some(mut hi) = bad {
        while hi - good > 1 {
            let mid = (good + hi) / 2;
            if run(mid) {
                good = mid;
            } else {
                hi = mid;
            }
        }
    }
    println!(
        "largest burst with no 429: {good} races resolving in the same second{}",
        if bad.is_none() {
            format!(" (every size up to {max} passed)")
        } else {
            String::new()
        }
    );
}
