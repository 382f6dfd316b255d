//! Engine speed for every game in the registry: adjudications (steps applied) per second,
//! whole bot games per second, and allocations per Dream Mile turn.
//!
//! `cargo bench --bench engine`; results in docs/performance.md.

// A bench, like a test, may unwrap: a failure should stop it where it happened.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Counting allocations needs a GlobalAlloc, which is an unsafe trait.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use photofinish::engine::{BotLevel, GameRng, Mode, SeatSetup, Seed, Submitted};
use photofinish::games::{AnyGame, GameKind};

/// Counts allocations, to report allocations per turn.
struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A typical table for each game.
fn players(kind: GameKind) -> usize {
    let (min, max) = kind.seat_limits(&kind.default_options()).unwrap_or((2, 2));
    let wanted = if kind == GameKind::DreamMile { 8 } else { 4 };
    wanted.clamp(min, max)
}

fn setup(kind: GameKind, seed: u64) -> AnyGame {
    let seats: Vec<SeatSetup> = (0..players(kind))
        .map(|i| SeatSetup::named(format!("P{i}")))
        .collect();
    kind.setup(&kind.default_options(), &seats, Seed::from_u64(seed))
        .expect("setup")
}

fn orders(game: &AnyGame, rng: &mut GameRng) -> Vec<Submitted<photofinish::games::AnyOrder>> {
    let pending = game.pending();
    let seats = match pending.mode {
        Mode::All => pending.seats.clone(),
        Mode::Any => pending.seats.first().copied().into_iter().collect(),
    };
    seats
        .into_iter()
        .map(|s| Submitted::new(s, game.bot_order(s, BotLevel::Heuristic, rng)))
        .collect()
}

/// A bot game to the end; returns the number of steps.
fn play(kind: GameKind, seed: u64) -> usize {
    let mut game = setup(kind, seed);
    let mut rng = GameRng::seeded(seed);
    let mut steps = 0;
    while game.outcome().is_none() && steps < 100_000 {
        let o = orders(&game, &mut rng);
        black_box(game.apply(&o));
        steps += 1;
    }
    steps
}

fn whole_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("whole game");
    for kind in GameKind::all() {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function(kind.slug(), |b| {
            b.iter(|| {
                seed += 1;
                play(kind, seed)
            });
        });
    }
    group.finish();
}

fn adjudications(c: &mut Criterion) {
    let mut group = c.benchmark_group("adjudication");
    for kind in GameKind::all() {
        // A pool of mid-game states and their orders, so each iteration is one step.
        let mut cases = Vec::new();
        for seed in 0..64u64 {
            let mut game = setup(kind, seed);
            let mut rng = GameRng::seeded(seed);
            for _ in 0..(seed % 5) {
                if game.outcome().is_some() {
                    break;
                }
                let o = orders(&game, &mut rng);
                game.apply(&o);
            }
            if game.outcome().is_none() {
                let o = orders(&game, &mut rng);
                cases.push((game, o));
            }
        }
        group.throughput(Throughput::Elements(1));
        let mut i = 0usize;
        group.bench_function(kind.slug(), |b| {
            b.iter_batched(
                || {
                    i = (i + 1) % cases.len().max(1);
                    cases[i].clone()
                },
                |(mut game, o)| black_box(game.apply(&o)),
                criterion::BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

fn allocations_per_dream_mile_turn(c: &mut Criterion) {
    let game = setup(GameKind::DreamMile, 1);
    let mut rng = GameRng::seeded(1);
    let o = orders(&game, &mut rng);
    let runs = 1000;
    let before = ALLOCS.load(Ordering::Relaxed);
    for _ in 0..runs {
        let mut g = game.clone();
        black_box(g.apply(&o));
    }
    let with_clone = ALLOCS.load(Ordering::Relaxed) - before;
    let before = ALLOCS.load(Ordering::Relaxed);
    for _ in 0..runs {
        black_box(game.clone());
    }
    let clone_only = ALLOCS.load(Ordering::Relaxed) - before;
    println!(
        "allocations per Dream Mile turn (8 runners): {:.1}",
        (with_clone - clone_only) as f64 / f64::from(runs)
    );
    c.bench_function("dream-mile turn (clone + apply)", |b| {
        b.iter(|| {
            let mut g = game.clone();
            black_box(g.apply(&o))
        });
    });
}

/// Mid-race Dream Mile states (8 runners, turns 1 to 7) with the heuristic bots' orders
/// for their next turn: the cases of the bench below.
fn dream_mile_cases() -> Vec<(
    photofinish::games::dream_mile::DreamMile,
    Vec<Submitted<photofinish::games::dream_mile::Speed>>,
)> {
    use photofinish::engine::{Game, bot_order};
    use photofinish::games::dream_mile::{DreamMile, Options, Speed};
    let seats: Vec<SeatSetup> = (0..8).map(|i| SeatSetup::named(format!("P{i}"))).collect();
    let mut cases: Vec<(DreamMile, Vec<Submitted<Speed>>)> = Vec::new();
    for seed in 0..70u64 {
        let mut game = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seeded(seed);
        let turns = seed % 7;
        let bot = |g: &DreamMile, rng: &mut GameRng| -> Vec<Submitted<Speed>> {
            g.pending()
                .seats
                .iter()
                .map(|&s| Submitted::new(s, bot_order(g, s, BotLevel::Heuristic, rng)))
                .collect()
        };
        for _ in 0..turns {
            let o = bot(&game, &mut rng);
            game.apply(&o);
        }
        let o = bot(&game, &mut rng);
        cases.push((game, o));
    }
    cases
}

/// The Dream Mile turn alone, through the typed engine contract: `DreamMile::apply` on
/// mid-race states (8 runners, turns 1 to 7), with the state's clone outside the timing.
fn dream_mile_turn_alone(c: &mut Criterion) {
    use photofinish::engine::Game;
    let cases = dream_mile_cases();
    let mut allocs = 0usize;
    let runs = 100;
    for _ in 0..runs {
        for (game, o) in &cases {
            let mut g = game.clone();
            let before = ALLOCS.load(Ordering::Relaxed);
            let events = black_box(g.apply(black_box(o)));
            allocs += ALLOCS.load(Ordering::Relaxed) - before;
            drop(events);
        }
    }
    println!(
        "allocations per Dream Mile turn alone (DreamMile::apply, 8 runners, turns 1 to 7): {:.2}",
        allocs as f64 / (runs * cases.len()) as f64
    );
    // Batches of one state per case, cloned before the clock starts and applied in place
    // (`iter_batched_ref`): the timing holds the turn and nothing else. With
    // `iter_batched` and `SmallInput`, each timed step also moved a 3 KB state out of a
    // batch of thousands (megabytes, out of cache) and the result into another: most of
    // what it measured was memcpy and page faults, not the turn.
    let mut i = 0usize;
    c.bench_function("dream-mile turn alone (DreamMile::apply)", |b| {
        b.iter_batched_ref(
            || {
                i = (i + 1) % cases.len();
                cases[i].clone()
            },
            // The events are returned, so their drop is not timed.
            |(game, o)| game.apply(o),
            criterion::BatchSize::NumIterations(cases.len() as u64),
        );
    });
}

criterion_group!(
    benches,
    adjudications,
    whole_games,
    allocations_per_dream_mile_turn,
    dream_mile_turn_alone
);
criterion_main!(benches);
