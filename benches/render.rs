//! How long a race picture takes to draw: `cargo bench --bench render`.
//!
//! Target (issue 7): a few milliseconds per picture in release, drawing and PNG encoding
//! included, since the referee draws one for every turn it posts. Every game's turn
//! picture and race chart are here, on the scripts the golden-image tests use.

use criterion::{Criterion, criterion_group, criterion_main};
use photofinish::games::AnyPublicView;
use photofinish::games::replay;
use photofinish::render::picture;

fn views(script: &str) -> Vec<AnyPublicView> {
    replay(script).expect("the bench scripts replay").views
}

fn view(views: &[AnyPublicView], i: usize) -> &AnyPublicView {
    views
        .get(i)
        .expect("the bench scripts have that many steps")
}

fn last(views: &[AnyPublicView]) -> &AnyPublicView {
    views.last().expect("the bench scripts have steps")
}

fn dream_mile(c: &mut Criterion) {
    let eight = views(include_str!("../tests/scripts/dream-mile-eight.json"));
    let twelve = views(include_str!("../tests/scripts/dream-mile-twelve.json"));
    let (turn_2, last_8) = (view(&eight, 1), last(&eight));
    let (turn_1_12, last_12) = (view(&twelve, 0), last(&twelve));
    let mut g = c.benchmark_group("dream-mile");
    g.bench_function("track draw only, 8 runners", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(turn_2)))
    });
    g.bench_function("track png, 8 runners", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(turn_2)))
    });
    g.bench_function("track png, 12 runners abreast", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(turn_1_12)))
    });
    g.bench_function("race chart png, 8 runners", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last_8)))
    });
    g.bench_function("race chart png, 12 runners", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last_12)))
    });
    g.finish();
}

fn card_race(c: &mut Criterion) {
    let rounds = views(include_str!("../tests/scripts/1000-miles-rounds.json"));
    let yards = views(include_str!("../tests/scripts/1000-yards-teams.json"));
    let mid = view(&rounds, 199);
    let mut g = c.benchmark_group("card-race");
    g.bench_function("track draw only, 3 players", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(mid)))
    });
    g.bench_function("track png, 3 players", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(mid)))
    });
    g.bench_function("track png, 2 teams", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(view(&yards, 56))))
    });
    g.bench_function("race chart png, by rounds", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last(&rounds))))
    });
    g.bench_function("race chart png, by turns", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last(&yards))))
    });
    g.finish();
}

fn fifteen_hundred(c: &mut Criterion) {
    let race = views(include_str!("../tests/scripts/1500m-race.json"));
    let bell = view(&race, 8);
    let mut g = c.benchmark_group("1500m");
    g.bench_function("track draw only, 8 runners", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(bell)))
    });
    g.bench_function("track png, 8 runners", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(bell)))
    });
    g.bench_function("race chart png, 8 runners", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(last(&race))))
    });
    g.finish();
}

/// A whole Magical Athlete season of four players, every order the default: its last view.
fn magical_athlete_season() -> AnyPublicView {
    use photofinish::engine::{Game, SeatSetup, Seed, Submitted};
    use photofinish::games::magical_athlete::{MagicalAthlete, Options};
    let seats: Vec<SeatSetup> = ["Ann", "Ben", "Cat", "Dev"]
        .iter()
        .map(|n| SeatSetup {
            name: (*n).into(),
            choice: None,
        })
        .collect();
    let mut g = MagicalAthlete::setup(&Options::default(), &seats, Seed::from_u64(7))
        .expect("a season sets up");
    for _ in 0..5000 {
        let seats = g.pending().seats;
        if seats.is_empty() {
            break;
        }
        let orders: Vec<_> = seats
            .iter()
            .map(|&s| Submitted::new(s, g.default_order(s)))
            .collect();
        g.apply(&orders);
    }
    AnyPublicView::MagicalAthlete(g.public_view())
}

fn magical_athlete(c: &mut Criterion) {
    let race = views(include_str!("../tests/scripts/magical-athlete-wild.json"));
    let turn = view(&race, 3);
    let season = magical_athlete_season();
    let mut g = c.benchmark_group("magical-athlete");
    g.bench_function("track draw only, 5 racers", |b| {
        b.iter(|| picture::track_picture(std::hint::black_box(turn)))
    });
    g.bench_function("track png, 5 racers", |b| {
        b.iter(|| picture::track_png(std::hint::black_box(turn)))
    });
    g.bench_function("race chart png, 4 races", |b| {
        b.iter(|| picture::race_chart_png(std::hint::black_box(&season)))
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
