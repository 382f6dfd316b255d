//! A golden hash of many whole races (every bot level, option and play mode): the events of
//! every step, the prompts, the views and the final state. Speed work on the pathfinder,
//! the board tables and the round machine must leave it unchanged.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use super::*;
use crate::engine::BotLevel;

fn race(options: &str, players: usize, levels: &[BotLevel], seed: u64, h: &mut DefaultHasher) {
    let options: Options = crate::engine::apply_option_text(&Options::default(), options).unwrap();
    let seats: Vec<SeatSetup> = (0..players)
        .map(|i| SeatSetup::named(format!("B{i}")))
        .collect();
    let seed = Seed::from_u64(seed);
    let mut rng = GameRng::from_seed(seed.derive("fingerprint"));
    let mut g = FifteenHundred::setup(&options, &seats, seed).unwrap();
    let mut steps = 0;
    while g.outcome().is_none() && steps < 2_000 {
        let pending = g.pending().seats;
        let mut orders = Vec::new();
        for (k, &s) in pending.iter().enumerate() {
            let level = levels[(s.index() + k) % levels.len()];
            serde_json::to_string(&g.prompt(s).choices.len())
                .unwrap()
                .hash(h);
            format!("{:?}", g.prompt(s)).hash(h);
            orders.push(Submitted::new(
                s,
                crate::engine::bot_order(&g, s, level, &mut rng),
            ));
        }
        for e in g.apply(&orders) {
            serde_json::to_string(&e).unwrap().hash(h);
        }
        steps += 1;
    }
    serde_json::to_string(&g.public_view()).unwrap().hash(h);
    serde_json::to_string(&g).unwrap().hash(h);
}

fn fingerprint() -> u64 {
    use BotLevel::{Heuristic as H, Random as R};
    let mut h = DefaultHasher::new();
    let fields: [(&str, usize, &[BotLevel]); 8] = [
        ("", 8, &[H]),
        ("", 8, &[H, R]),
        ("", 6, &[R]),
        ("robots=4", 4, &[H, R]),
        ("advanced=yes", 8, &[H, R]),
        ("distance=800", 8, &[R, H]),
        ("play=live robots=2", 5, &[R, H]),
        ("until=all robots=1", 7, &[H, R]),
    ];
    for (options, players, levels) in fields {
        for seed in 0..12 {
            race(options, players, levels, seed, &mut h);
        }
    }
    h.finish()
}

#[test]
fn whole_races_are_played_as_before() {
    assert_eq!(fingerprint(), 18_191_095_377_689_489_337);
}
