//! 1500m speed: rounds adjudicated per second (eight runners' round orders, from a race in
//! progress; with and without cloning the state first) and whole races per second
//! (heuristic bots, by orders).
//!
//! Run with `cargo bench --bench fifteen_hundred`.

// A bench, like a test, may unwrap: a failure should stop it where it happened.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use photofinish::engine::{BotLevel, Game, GameRng, SeatSetup, Seed, Submitted};
use photofinish::games::fifteen_hundred::{FifteenHundred, Options, Order};

fn seats(n: usize) -> Vec<SeatSetup> {
    (0..n).map(|i| SeatSetup::named(format!("R{i}"))).collect()
}

fn orders(game: &FifteenHundred, rng: &mut GameRng) -> Vec<Submitted<Order>> {
    game.pending()
        .seats
        .iter()
        .map(|&s| {
            Submitted::new(
                s,
                photofinish::engine::bot_order(game, s, BotLevel::Heuristic, rng),
            )
        })
        .collect()
}

fn whole_race(options: &Options, n: usize, seed: u64) -> FifteenHundred {
    let mut game = FifteenHundred::setup(options, &seats(n), Seed::from_u64(seed)).unwrap();
    let mut rng = GameRng::seeded(seed);
    while game.outcome().is_none() {
        let o = orders(&game, &mut rng);
        game.apply(&o);
    }
    game
}

fn bench(c: &mut Criterion) {
    let options = Options::default();
    // A race three rounds in, with every runner's next orders ready.
    let mut start = FifteenHundred::setup(&options, &seats(8), Seed::from_u64(7)).unwrap();
    let mut rng = GameRng::seeded(7);
    for _ in 0..3 {
        let o = orders(&start, &mut rng);
        start.apply(&o);
    }
    let next = orders(&start, &mut rng);

    let mut g = c.benchmark_group("1500m");
    g.throughput(Throughput::Elements(1));
    g.bench_function("round of 8 runners", |b| {
        b.iter(|| {
            let mut game = start.clone();
            black_box(game.apply(black_box(&next)));
        });
    });
    // The same round without the clone of the state before it (criterion's setup).
    g.bench_function("round of 8 runners, apply only", |b| {
        b.iter_batched_ref(
            || start.clone(),
            |game| black_box(game.apply(black_box(&next))),
            BatchSize::SmallInput,
        );
    });
    g.bench_function("whole race, 8 heuristic bots", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(whole_race(&options, 8, seed));
        });
    });
    let robots = Options {
        robots: 4,
        ..Options::default()
    };
    g.bench_function("whole race, 4 bots and 4 robots", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(whole_race(&robots, 4, seed));
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
