//! The expert bot over every game: its orders are legal, and it cannot peek. A decision
//! must not change when everything its seat cannot see is redrawn; a bot built to cheat
//! fails the same check, so the check can fail.

use crate::engine::expert::{Budget, choose_with, peeks};
use crate::engine::{Game, GameRng, Seat, SeatSetup, Seed, Submitted, apply_option_text};
use crate::games::card_race::CardRace;
use crate::games::dream_mile::DreamMile;
use crate::games::fifteen_hundred::FifteenHundred;
use crate::games::magical_athlete::MagicalAthlete;

/// Small enough for a debug build, large enough to compare candidates.
const SMALL: Budget = Budget {
    steps: 600,
    candidates: 6,
    min_worlds: 2,
    max_worlds: 3,
    max_playout: 600,
};

/// States met in seeded games played by heuristic bots, with a seat that must act.
fn positions<G: Game>(options: &str, seats: usize, games: u64, every: usize) -> Vec<(G, Seat)> {
    let options = apply_option_text(&G::Options::default(), options).unwrap();
    let setups: Vec<SeatSetup> = (0..seats)
        .map(|i| SeatSetup::named(format!("P{i}")))
        .collect();
    let mut out = Vec::new();
    for seed in 0..games {
        let mut g = G::setup(&options, &setups, Seed::from_u64(seed)).unwrap();
        let mut rng = GameRng::seeded(seed);
        for step in 0..400 {
            let pending = g.pending();
            let Some(&seat) = pending.seats.first() else {
                break;
            };
            if step % every == 0 {
                out.push((g.clone(), seat));
            }
            let orders: Vec<_> = pending
                .seats
                .iter()
                .map(|&s| Submitted::new(s, g.heuristic_order(s, &mut rng)))
                .collect();
            g.apply(&orders);
        }
    }
    out
}

/// Every expert order validates, and no decision changes when the hidden is redrawn.
/// Returns how many decisions a cheating bot changed, for the caller to judge.
fn check<G: Game>(options: &str, seats: usize, games: u64, every: usize) -> usize {
    let mut cheats = 0;
    let found = positions::<G>(options, seats, games, every);
    assert!(found.len() >= 8, "too few positions: {}", found.len());
    for (i, (g, seat)) in found.iter().enumerate() {
        let seed = i as u64;
        let order = choose_with(g, *seat, &mut GameRng::seeded(seed), &SMALL);
        assert!(
            g.validate(*seat, &order).is_ok(),
            "illegal expert order at {i}"
        );
        if let Some((a, b)) = peeks(g, *seat, seed, &SMALL, false) {
            panic!("position {i}: the expert chose {a} but {b} once the hidden was redrawn");
        }
        if peeks(g, *seat, seed, &SMALL, true).is_some() {
            cheats += 1;
        }
    }
    cheats
}

#[test]
fn card_race_expert_is_legal_and_cannot_peek() {
    let cheats = check::<CardRace>("rounds=1", 2, 3, 9);
    // The check can fail: a bot that plays out the real hands decides differently.
    assert!(cheats > 0, "a cheating bot was never caught");
}

#[test]
fn magical_athlete_expert_is_legal_and_cannot_peek() {
    let cheats = check::<MagicalAthlete>("", 3, 3, 7);
    assert!(cheats > 0, "a cheating bot was never caught");
}

#[test]
fn fifteen_hundred_expert_is_legal_and_cannot_peek() {
    check::<FifteenHundred>("", 3, 1, 1);
}

#[test]
fn dream_mile_expert_is_legal() {
    // Nothing in a Dream Mile state is hidden, so there is nothing to peek at.
    check::<DreamMile>("", 4, 3, 1);
}

#[test]
fn each_game_has_its_default_budget() {
    // 1500m's and Magical Athlete's bot orders cost far more, so fewer fit in 50 ms; the
    // card race's cost less (docs/performance.md, "1000 miles expert, second pass").
    let steps = Budget::default().steps;
    assert_eq!(Budget::for_game::<CardRace>().steps, 45_000);
    assert_eq!(Budget::for_game::<DreamMile>().steps, steps);
    assert_eq!(Budget::for_game::<FifteenHundred>().steps, 2_000);
    assert_eq!(Budget::for_game::<MagicalAthlete>().steps, 8_000);
    assert_eq!(
        Budget::for_game::<MagicalAthlete>().candidates,
        Budget::default().candidates
    );
}
