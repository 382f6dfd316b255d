//! Magical Athlete speed: races per second (random racers, default policies, the race engine
//! alone, as `photofinish sim` runs them) and whole four-race games per second through the
//! engine contract with bots.
//!
//! `cargo bench --bench magical_athlete`; criterion reports races (elements) per second.

// A bench, like a test, may unwrap: a failure should stop it where it happened.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use photofinish::engine::{BotLevel, Game, GameRng, SeatSetup, Seed, Submitted};
use photofinish::games::magical_athlete::track::Track;
use photofinish::games::magical_athlete::{MagicalAthlete, Options, sim};

fn races(c: &mut Criterion) {
    let mut group = c.benchmark_group("magical_athlete_race");
    group.throughput(Throughput::Elements(1));
    for (name, track) in [("mild", Track::Mild), ("wild", Track::Wild)] {
        for players in [4usize, 5, 6] {
            let mut seed = 0u64;
            group.bench_function(BenchmarkId::new(name, players), |b| {
                b.iter(|| {
                    seed += 1;
                    let race = sim::play_random_race(seed, players, track);
                    black_box(race.placings.len())
                });
            });
        }
    }
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("magical_athlete_game");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let options = Options {
        auto_roll: true,
        decision_timeout: photofinish::engine::DecisionWindow::Seconds(0),
        ..Options::default()
    };
    let seats: Vec<SeatSetup> = (1..=4).map(|i| SeatSetup::named(format!("P{i}"))).collect();
    let mut seed = 0u64;
    group.bench_function("four_players_four_races", |b| {
        b.iter(|| {
            seed += 1;
            let mut g =
                MagicalAthlete::setup(&options, &seats, Seed::from_u64(seed)).expect("setup");
            let mut rng = GameRng::seeded(seed);
            while g.outcome().is_none() {
                let orders: Vec<_> = g
                    .pending()
                    .seats
                    .iter()
                    .map(|&s| {
                        Submitted::new(
                            s,
                            photofinish::engine::bot_order(&g, s, BotLevel::Heuristic, &mut rng),
                        )
                    })
                    .collect();
                g.apply(&orders);
            }
            black_box(g.outcome())
        });
    });
    group.finish();
}

criterion_group!(benches, races, games);
criterion_main!(benches);
