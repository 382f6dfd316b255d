//! The views the race pictures are drawn from, shared by the golden-image tests
//! (`pictures.rs`) and `benches/render.rs` (which includes this file with `#[path]`, so it
//! uses nothing but the crate and std): committed replay scripts, and a whole Magical
//! Athlete season played by its default orders.
#![allow(dead_code)]

use std::path::Path;

use photofinish::engine::{Game, SeatSetup, Seed, Submitted, apply_option_text};
use photofinish::games::AnyPublicView;
use photofinish::games::magical_athlete::{MagicalAthlete, Options};
use photofinish::games::replay;

/// The views of `tests/scripts/<script>`, one per step.
pub fn views(script: &str) -> Vec<AnyPublicView> {
    views_at(&Path::new("tests/scripts").join(script))
}

/// The views of the script at `path`, from the top of the crate.
pub fn views_at(path: &Path) -> Vec<AnyPublicView> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("the script");
    replay(&text).expect("the script replays").views
}

/// A whole Magical Athlete season (draft, four races) of `players`, every order the
/// default: the public view before the first step and after each one. Panics unless the
/// season ends within 5,000 steps.
pub fn magical_athlete_season(options: &str, players: usize, seed: u64) -> Vec<AnyPublicView> {
    let options = apply_option_text(&Options::default(), options).expect("the options");
    let seats: Vec<SeatSetup> = ["Ann", "Ben", "Cat", "Dev", "Eve"]
        .iter()
        .take(players)
        .map(|n| SeatSetup {
            name: (*n).into(),
            choice: None,
        })
        .collect();
    let mut g =
        MagicalAthlete::setup(&options, &seats, Seed::from_u64(seed)).expect("a season sets up");
    let mut views = vec![AnyPublicView::MagicalAthlete(g.public_view())];
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
        views.push(AnyPublicView::MagicalAthlete(g.public_view()));
    }
    assert!(g.outcome().is_some(), "the season ends");
    views
}
