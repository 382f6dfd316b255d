//! Whole races written out as text, step by step, for every bot level, option and play
//! mode: each seat's order, what the game narrates, and the result. Speed work on the
//! pathfinder, the board tables and the round machine must leave the file unchanged; a
//! change of rules or words shows in its diff. The golden is
//! `tests/golden/playthroughs/1500m-engine.txt`, re-recorded with
//! `PHOTOFINISH_BLESS=1 cargo test --lib whole_races`.

use std::fmt::Write;

use super::*;
use crate::engine::BotLevel;

fn race(options: &str, players: usize, levels: &[BotLevel], seed: u64, out: &mut String) {
    let parsed: Options = crate::engine::apply_option_text(&Options::default(), options).unwrap();
    let seats: Vec<SeatSetup> = (1..=players)
        .map(|i| SeatSetup::named(format!("B{i}")))
        .collect();
    let seed_of_race = Seed::from_u64(seed);
    let mut rng = GameRng::from_seed(seed_of_race.derive("fingerprint"));
    let mut g = FifteenHundred::setup(&parsed, &seats, seed_of_race).unwrap();
    writeln!(out, "## `{options}`, {players} seats, seed {seed}").unwrap();
    let mut steps = 0;
    while g.outcome().is_none() && steps < 2_000 {
        let pending = g.pending().seats;
        let mut orders = Vec::new();
        for (k, &s) in pending.iter().enumerate() {
            let level = levels[(s.index() + k) % levels.len()];
            let order = crate::engine::bot_order(&g, s, level, &mut rng);
            writeln!(
                out,
                "{} ({} choices): {}",
                g.name(s.index()),
                g.prompt(s).choices.len(),
                g.format_order(s, &order)
            )
            .unwrap();
            orders.push(Submitted::new(s, order));
        }
        for e in g.apply(&orders) {
            let said = g.narrate(&e).text;
            if !said.is_empty() {
                writeln!(out, "  {}", said.replace('\n', "\n  ")).unwrap();
            }
        }
        steps += 1;
    }
    let places: Vec<String> = g
        .outcome()
        .map(|o| {
            o.placings
                .iter()
                .map(|p| format!("{} {}", p.rank, g.name(p.seat.index())))
                .collect()
        })
        .unwrap_or_default();
    writeln!(out, "Result after {steps} steps: {}\n", places.join(", ")).unwrap();
}

fn whole_races() -> String {
    use BotLevel::{Heuristic as H, Random as R};
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
    let mut out = String::from("# 1500m: whole races by the bots, step by step\n\n");
    for (options, players, levels) in fields {
        for seed in 0..2 {
            race(options, players, levels, seed, &mut out);
        }
    }
    out
}

#[test]
fn whole_races_are_played_as_before() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/playthroughs/1500m-engine.txt");
    let text = whole_races();
    if std::env::var_os("PHOTOFINISH_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if want != text {
        let line = want
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{} differs from line {}: {:?} (re-record with `PHOTOFINISH_BLESS=1 cargo test --lib whole_races` and read the diff)",
            path.display(),
            line + 1,
            text.lines().nth(line).unwrap_or("(the end)")
        );
    }
}
