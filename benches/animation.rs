//! What the final post's animated replay costs: its size and drawing time for
//! the longest race of each game. `cargo bench --bench animation`; figures in
//! docs/performance.md ("Animation").
//!
//! The race: the longest (most steps; the lowest seed on a tie) of [`SEEDS`] seeded races
//! of heuristic bots at the game's longest length preset and its most seats. Its frames
//! are the public view after every step, as `Referee::views_of_race` replays them for the
//! final post, and they are drawn by the same `render::animation::animate`. Each game's
//! GIF must fit the animation's own budget and Discord's upload limit (10 MiB a message).

// A bench, like a test, fails loudly where it went wrong.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use photofinish::discord::layout::limits::UPLOAD_BYTES;
use photofinish::engine::{BotLevel, GameRng, Mode, SeatSetup, Seed, Submitted};
use photofinish::games::length::{Length, lengths};
use photofinish::games::{AnyGame, AnyPublicView, GameKind};
use photofinish::render::animation::{MAX_FRAMES, MAX_GIF_BYTES, animate};

/// How many seeded races each game's longest is picked from.
const SEEDS: u64 = 12;
/// A race that has not ended by then is a broken bot, not a long race.
const MAX_STEPS: usize = 20_000;

/// The game's longest preset: its full game where it has one.
fn longest(kind: GameKind) -> &'static Length {
    lengths(kind)
        .find(|l| !l.shortest)
        .or_else(|| lengths(kind).next())
        .expect("every game has a length")
}

/// One bot race to its end: the public view after every step.
fn race(kind: GameKind, seed: u64) -> Vec<AnyPublicView> {
    let options = kind
        .apply_options(None, longest(kind).options)
        .expect("the preset's options");
    let (_, most) = kind.seat_limits(&options).expect("seat limits");
    let seats: Vec<SeatSetup> = (1..=most)
        .map(|i| SeatSetup::named(format!("Bot {i}")))
        .collect();
    let mut game: AnyGame = kind
        .setup(&options, &seats, Seed::from_u64(seed))
        .expect("setup");
    let mut rng = GameRng::seeded(seed);
    let mut views = Vec::new();
    while game.outcome().is_none() {
        assert!(views.len() < MAX_STEPS, "{kind:?} seed {seed} does not end");
        let pending = game.pending();
        let seats = match pending.mode {
            Mode::All => pending.seats.clone(),
            Mode::Any => pending.seats.first().copied().into_iter().collect(),
        };
        let orders: Vec<_> = seats
            .into_iter()
            .map(|s| Submitted::new(s, game.bot_order(s, BotLevel::Heuristic, &mut rng)))
            .collect();
        game.apply(&orders);
        views.push(game.public_view());
    }
    views
}

/// The longest of the seeded races, and its seed.
fn longest_race(kind: GameKind) -> (u64, Vec<AnyPublicView>) {
    let mut best: Option<(u64, Vec<AnyPublicView>)> = None;
    for seed in 1..=SEEDS {
        let views = race(kind, seed);
        if best.as_ref().is_none_or(|(_, b)| views.len() > b.len()) {
            best = Some((seed, views));
        }
    }
    best.expect("at least one seed")
}

fn animation(c: &mut Criterion) {
    let mut g = c.benchmark_group("animation");
    // Each draw is tens of turn pictures: few samples, enough to see the cost.
    g.sample_size(10);
    for kind in GameKind::all() {
        let (seed, views) = longest_race(kind);
        let length = longest(kind);
        let seats = kind
            .seat_limits(&kind.apply_options(None, length.options).expect("options"))
            .expect("limits")
            .1;
        let a = animate(&views).expect("the race animates");
        println!(
            "{}, {} ({} seats, seed {seed}): {} steps, {} frames, {}x{}, {} bytes ({} KiB)",
            kind.title(),
            length.name,
            seats,
            views.len(),
            a.frames,
            a.width,
            a.height,
            a.gif.len(),
            a.gif.len() / 1024
        );
        assert!(a.gif.starts_with(b"GIF89a"), "{kind:?}");
        assert!((1..=MAX_FRAMES).contains(&a.frames), "{kind:?}");
        assert!(a.gif.len() <= MAX_GIF_BYTES, "{kind:?}: {}", a.gif.len());
        assert!(a.gif.len() <= UPLOAD_BYTES, "{kind:?}: {}", a.gif.len());
        g.bench_function(kind.slug(), |b| {
            b.iter(|| animate(black_box(&views)));
        });
    }
    g.finish();
}

criterion_group!(benches, animation);
criterion_main!(benches);
