//! How long a race picture takes to draw: `cargo bench --bench render`.
//!
//! Target (issue 7): a few milliseconds per picture in release, drawing and PNG encoding
//! included, since the referee draws one for every turn it posts.

use criterion::{Criterion, criterion_group, criterion_main};
use photofinish::engine::AnyPublicView;
use photofinish::games::replay;
use photofinish::render::picture;

fn views(script: &str) -> Vec<AnyPublicView> {
    replay(script).expect("the bench scripts replay").views
}

fn bench(c: &mut Criterion) {
    let eight = views(include_str!("../tests/scripts/dream-mile-eight.json"));
    let twelve = views(include_str!("../tests/scripts/dream-mile-twelve.json"));
    let (Some(turn_2), Some(last_8), Some(turn_1_12), Some(last_12)) =
        (eight.get(1), eight.last(), twelve.first(), twelve.last())
    else {
        panic!("the bench scripts have turns");
    };
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

criterion_group!(benches, bench);
criterion_main!(benches);
