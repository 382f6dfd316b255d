//! How long a race picture takes to draw: `cargo bench --bench render`.
//!
//! Target: a few milliseconds per picture in release, drawing and PNG encoding
//! included, since the referee draws one for every turn it posts. Every game's turn
//! picture and race chart are here, on the views the golden-image tests draw
//! (tests/integration/support/pictures.rs, shared).

// A bench, like a test, fails loudly on a broken fixture.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

#[path = "../tests/integration/support/pictures.rs"]
mod fixtures;

use criterion::{Criterion, criterion_group, criterion_main};
use fixtures::views;
use photofinish::games::AnyPublicView;
use photofinish::render::picture;

fn view(views: &[AnyPublicView], i: usize) -> &AnyPublicView {
    views
        .get(i)
        .expect("the bench scripts have that many steps")
}

fn last(views: &[AnyPublicView]) -> &AnyPublicView {
    views.last().expect("the bench scripts have steps")
}

fn dream_mile(c: &mut Criterion) {
    let eight = views("dream-mile-eight.json");
    let twelve = views("dream-mile-twelve.json");
    let (turn_2, last_8) = (view(&eight, 1), last(&eight));
    let (turn_1_12, last_12) = (view(&twelve, 0), last(&twelve));
    let mut g = c.benchmark_group("dream-mile");
    g.bench_function("track draw only, 8 runners", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(turn_2)));
    });
    g.bench_function("track png, 8 runners", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(turn_2)));
    });
    g.bench_function("track png, 12 runners abreast", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(turn_1_12)));
    });
    g.bench_function("race chart png, 8 runners", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last_8)));
    });
    g.bench_function("race chart png, 12 runners", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last_12)));
    });
    g.finish();
}

fn card_race(c: &mut Criterion) {
    let rounds = views("1000-miles-rounds.json");
    let yards = views("1000-yards-teams.json");
    let mid = view(&rounds, 199);
    let mut g = c.benchmark_group("card-race");
    g.bench_function("track draw only, 3 players", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(mid)));
    });
    g.bench_function("track png, 3 players", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(mid)));
    });
    g.bench_function("track png, 2 teams", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(view(&yards, 56))));
    });
    g.bench_function("race chart png, by rounds", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last(&rounds))));
    });
    g.bench_function("race chart png, by turns", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last(&yards))));
    });
    g.finish();
}

fn fifteen_hundred(c: &mut Criterion) {
    let race = views("1500m-race.json");
    let bell = view(&race, 8);
    let mut g = c.benchmark_group("1500m");
    g.bench_function("track draw only, 8 runners", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(bell)));
    });
    g.bench_function("track png, 8 runners", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(bell)));
    });
    g.bench_function("race chart png, 8 runners", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last(&race))));
    });
    g.finish();
}

/// A whole Magical Athlete season of four players, every order the default: its last view.
fn magical_athlete_season() -> AnyPublicView {
    fixtures::magical_athlete_season("", 4, 7)
        .pop()
        .expect("a season has views")
}

fn magical_athlete(c: &mut Criterion) {
    let race = views("magical-athlete-wild.json");
    let turn = view(&race, 3);
    let season = magical_athlete_season();
    let mut g = c.benchmark_group("magical-athlete");
    g.bench_function("track draw only, 5 racers", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(turn)));
    });
    g.bench_function("track png, 5 racers", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(turn)));
    });
    g.bench_function("race chart png, 4 races", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(&season)));
    });
    g.finish();
}

criterion_group!(
    benches,
    dream_mile,
    card_race,
    fifteen_hundred,
    magical_athlete
);
criterion_main!(benches);
