//! The expert bot over every game: its orders are legal, and it cannot peek. A decision
//! must not change when everything its seat cannot see is redrawn; a bot built to cheat
//! fails the same check, so the check can fail.

use crate::engine::expert::{Budget, choose_with, peeks, steps_played};
use crate::engine::{Bots, Game, GameRng, Seat, SeatSetup, Seed, Submitted, apply_option_text};
use crate::games::card_race::CardRace;
use crate::games::dream_mile::DreamMile;
use crate::games::fifteen_hundred::{Action, FifteenHundred, Order};
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
fn positions<G: Bots>(options: &str, seats: usize, games: u64, every: usize) -> Vec<(G, Seat)> {
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
fn check<G: Bots>(options: &str, seats: usize, games: u64, every: usize) -> usize {
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
    assert_eq!(Budget::for_game::<FifteenHundred>().steps, 8_000);
    assert_eq!(Budget::for_game::<MagicalAthlete>().steps, 3_000);
    assert_eq!(
        Budget::for_game::<MagicalAthlete>().candidates,
        Budget::default().candidates
    );
}

#[test]
fn a_decision_stays_within_its_budget() {
    // Playouts far longer than the budget: once the orders actually played reach it, no
    // more worlds are started and a world in progress is dropped, so a decision plays at
    // most one playout past its budget (a playout is at most `max_playout` steps of one
    // order a seat), whatever the pilot guessed and however many candidates there are.
    let tight = Budget {
        steps: 300,
        candidates: 16,
        min_worlds: 4,
        max_worlds: 64,
        max_playout: 40,
    };
    let seats = 3;
    let found = positions::<MagicalAthlete>("", seats, 2, 5);
    assert!(found.len() >= 8, "too few positions: {}", found.len());
    let bound = tight.steps + u64::from(tight.max_playout) * seats as u64;
    for (i, (g, seat)) in found.iter().enumerate() {
        let before = steps_played();
        let order = choose_with(g, *seat, &mut GameRng::seeded(i as u64), &tight);
        let spent = steps_played() - before;
        assert!(g.validate(*seat, &order).is_ok(), "illegal order at {i}");
        assert!(
            spent <= bound,
            "position {i}: {spent} orders played, bound {bound}"
        );
    }
}

#[test]
fn fifteen_hundred_expert_weighs_the_free_pace_levels() {
    // The expert's own candidates: legal round orders, among them the heuristic's plan
    // with Pace +2 ranked first (docs/rules/1500m.md: it wins far more early on).
    let found = positions::<FifteenHundred>("", 8, 1, 1);
    let (g, seat) = found.first().expect("a position");
    let candidates = g.expert_candidates(*seat, &mut GameRng::seeded(1));
    assert!(candidates.len() >= 8, "{} candidates", candidates.len());
    for o in &candidates {
        assert!(
            g.validate(*seat, o).is_ok(),
            "illegal candidate {}",
            g.format_order(*seat, o)
        );
    }
    let pace2_first = candidates
        .iter()
        .any(|o| matches!(o, Order::Round(r) if r.actions.ranked.first() == Some(&Action::Pace2)));
    assert!(pace2_first, "no candidate ranks Pace +2 first");
}
