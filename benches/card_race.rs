//! Bot games per second for each card-race ruleset: one whole game (heuristic bots
//! against random bots) per iteration, a new seed each time.
//!
//! `cargo bench --bench card_race`

// A bench, like a test, may unwrap: a failure should stop it where it happened.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use photofinish::engine::{SeatSetup, Seed};
use photofinish::games::card_race::{Options, Ruleset, sim};

fn seats(n: usize) -> Vec<SeatSetup> {
    (1..=n)
        .map(|i| SeatSetup::named(format!("Bot{i}")))
        .collect()
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("1000 miles, 2 players, to 5000", Options::default(), 2),
        (
            "1000 miles, 4 players in teams, to 5000",
            Options::default(),
            4,
        ),
        (
            "published rules, 3 players, to 5000",
            Options {
                ruleset: Ruleset::Published,
                ..Options::default()
            },
            3,
        ),
        (
            "1000 Yards, 4 players in teams, one race",
            Options {
                ruleset: Ruleset::Yards,
                target_score: 0,
                rounds: 1,
                ..Options::default()
            },
            4,
        ),
    ];
    let mut group = c.benchmark_group("card_race bot games");
    group.throughput(Throughput::Elements(1));
    for (name, options, n) in cases {
        let table = seats(n);
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let game = sim::play_one(&options, &table, Seed::from_u64(seed), seed);
                black_box(game.map(|(g, ..)| g.history().len()))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
