//! Every label a prompt shows (buttons, select options, the terminal's `Choices:` line)
//! can be typed back as text and is read as that choice, in every game.

use super::{AnyGame, GameKind};
use crate::engine::{BotLevel, GameRng, SeatSetup, Seed, Submitted};

/// Plays `games` random games of `kind` and types back every shown label.
fn labels_read_back(kind: GameKind, options: &str, players: &[usize], games: u64) -> u64 {
    let options = kind.apply_options(None, options).unwrap();
    let mut checked = 0u64;
    for i in 0..games {
        let n = players[(i as usize) % players.len()];
        let seats: Vec<SeatSetup> = (0..n).map(|s| SeatSetup::named(format!("P{s}"))).collect();
        let mut game: AnyGame = kind.setup(&options, &seats, Seed::from_u64(i)).unwrap();
        let mut rng = GameRng::seeded(i);
        for _ in 0..20_000 {
            let pending = game.pending();
            if pending.is_empty() {
                break;
            }
            let mut orders = Vec::new();
            for &seat in &pending.seats {
                for c in game.prompt(seat).choices {
                    let want = game.read_order(seat, &c.order).unwrap_or_else(|e| {
                        panic!("{kind:?} game {i}: choice `{}` does not read: {e}", c.order)
                    });
                    for typed in [c.label.clone(), c.label.to_lowercase()] {
                        match game.read_order(seat, &typed) {
                            Ok(got) => assert_eq!(
                                got, want,
                                "{kind:?} game {i}: label `{typed}` reads as another choice"
                            ),
                            Err(e) => panic!("{kind:?} game {i}: label `{typed}` refused: {e}"),
                        }
                        checked += 1;
                    }
                }
                let level = if rng.chance(1, 2) {
                    BotLevel::Random
                } else {
                    BotLevel::Heuristic
                };
                orders.push(Submitted::new(seat, game.bot_order(seat, level, &mut rng)));
            }
            game.apply(&orders);
        }
    }
    checked
}

#[test]
fn every_shown_label_reads_back_as_its_choice_in_every_game() {
    let tables: [(GameKind, &str, &[usize], u64); 7] = [
        (GameKind::DreamMile, "", &[2, 5, 8], 30),
        (
            GameKind::MilleBornes,
            "rounds=1 target-score=0",
            &[2, 4, 6],
            30,
        ),
        (
            GameKind::MilleBornes,
            "ruleset=published rounds=1 target-score=0",
            &[3],
            20,
        ),
        (GameKind::ThousandYards, "", &[2, 4, 6], 30),
        (GameKind::FifteenHundred, "", &[2, 4, 6], 30),
        (
            GameKind::MagicalAthlete,
            "races=1 auto-roll=no",
            &[2, 4, 6],
            60,
        ),
        (GameKind::MagicalAthlete, "double=yes races=1", &[3], 20),
    ];
    for (kind, options, players, games) in tables {
        let checked = labels_read_back(kind, options, players, games);
        assert!(checked > 0, "{kind:?}: no label checked");
    }
    // Every kind is covered.
    for kind in GameKind::all() {
        assert!(tables.iter().any(|t| t.0 == kind), "{kind:?} has no table");
    }
}
