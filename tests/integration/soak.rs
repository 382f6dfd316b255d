//! Weeks without a babysitter, as a test (docs/reliability.md, "Retention" and
//! "Soak"): retention keeps what verify and history need and bounds the database by
//! races, not clicks; the soak runs simulated days of races under a seeded schedule of
//! faults and checks the whole history at the end.

use crate::support::backend::Kind;
use crate::support::soak::retention::measure;

/// A compacted race still verifies and shows its history, and loses nothing they read;
/// nothing is compacted before its time.
async fn compacted_races_still_verify_and_show_history(kind: Kind) {
    let f = measure(kind, 2, 6).await;
    assert!(f.rows_after[0] < f.rows_before[0], "{f:?}");
}

/// The figures of docs/reliability.md, "Retention": the same races with one order a turn
/// and with six changes a turn; after compaction the database is the same size per race
/// either way. `cargo test --locked --test integration soak::retention_figures -- --nocapture`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retention_figures() {
    let one = measure(Kind::Sqlite, 4, 1).await;
    let six = measure(Kind::Sqlite, 4, 6).await;
    for f in [&one, &six] {
        let per = |bytes: i64| bytes / i64::try_from(f.races).unwrap();
        println!(
            "retention: {} races, {} clicks a turn, {} orders submitted: {} bytes a race before \
             compaction, {} after; rows (orders, outbox, deadlines, events) {:?} -> {:?}",
            f.races,
            f.clicks,
            f.submitted,
            per(f.bytes_before),
            per(f.bytes_after),
            f.rows_before,
            f.rows_after
        );
    }
    // Without compaction the clicks cost; with it, the size follows the races.
    assert!(six.bytes_before > one.bytes_before, "{six:?} {one:?}");
    assert!(six.bytes_after < six.bytes_before, "{six:?}");
    assert!(
        six.bytes_after * 100 <= one.bytes_after * 115,
        "six clicks a turn still cost after compaction: {six:?} against {one:?}"
    );
}

use crate::support::soak::run::{Checks, Faults, Figures, Soak, run};

/// Prints a soak's figures and fails on any problem the checker found.
fn report(soak: &Soak, f: &Figures) {
    println!(
        "soak ({:?}, seed {}, {} days): {} races ({} finished, {} quarantined), {} steps, \
         {} orders sent; faults {:?}; SIGKILLed children had made {:?} posts and edits; \
         lost {}, posted twice {}; {} bytes a race after compaction",
        soak.kind,
        soak.seed,
        soak.days,
        f.races,
        f.finished,
        f.quarantined,
        f.steps,
        f.orders_sent,
        f.faults,
        f.killed_after,
        f.lost,
        f.doubled,
        f.bytes_per_race
    );
    assert!(f.problems.is_empty(), "{:#?}", f.problems);
}

/// Every check is on; `PHOTOFINISH_SOAK_HOLD=0` switches off the outage-hold check (to
/// see what else fails when it does).
fn checks() -> Checks {
    Checks {
        no_deadline_in_outage: std::env::var("PHOTOFINISH_SOAK_HOLD").map_or(true, |v| v != "0"),
    }
}

fn seed() -> u64 {
    std::env::var("PHOTOFINISH_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(14)
}

/// The short soak, for CI: a few simulated days, ten races, every fault kind.
async fn soak_short(kind: Kind) {
    let soak = Soak {
        kind,
        seed: seed(),
        days: 3,
        races: 10,
        channels: 4,
        look_secs: 1800,
        faults: Faults::all(),
        checks: checks(),
    };
    let f = run(soak).await;
    report(&soak, &f);
}

on_both!(compacted_races_still_verify_and_show_history);

/// Not a test of its own: the bot process the soak kills with SIGKILL
/// (support/soak/child.rs). Without `PF_SOAK_FAKE` it does nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_child() {
    crate::support::soak::child::child_main().await;
}

/// The short soak on SQLite, in CI: three simulated days, every fault kind at least once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_short_sqlite() {
    soak_short(Kind::Sqlite).await;
}

/// The long soak: 30 simulated days, 50 races or more. Run with
/// `cargo test --locked --test integration soak_long -- --ignored --nocapture` (a debug
/// build took 19 minutes; docs/reliability.md, "Soak").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn soak_long() {
    let kind = if crate::support::backend::postgres_url().is_some() {
        Kind::Postgres
    } else {
        Kind::Sqlite
    };
    let soak = Soak {
        kind,
        seed: seed(),
        days: 30,
        races: 60,
        channels: 4,
        look_secs: 1800,
        faults: Faults::all(),
        checks: checks(),
    };
    let f = run(soak).await;
    report(&soak, &f);
}
