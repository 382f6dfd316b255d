//! Every game's replay script reads `seed` alike ([`crate::engine::ScriptSeed`]): a small
//! number, or the 64 hex digits `verify` reveals; anything else is refused in one line
//! that names the field.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::replay;
use crate::engine::Seed;

/// One script per game (the kind a player would write), seed left as the file has it.
fn scripts() -> Vec<(&'static str, Value)> {
    let read = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    vec![
        (
            "dream-mile",
            read(include_str!("../../tests/scripts/dream-mile-rulebook.json")),
        ),
        ("mille-bornes", card_script("mille-bornes")),
        ("1000-yards", card_script("1000-yards")),
        (
            "1500m",
            read(include_str!("../../tests/scripts/1500m-race.json")),
        ),
        ("magical-athlete", egg_script()),
    ]
}

/// A few bot-played steps: any deal can play them.
fn card_script(game: &str) -> Value {
    json!({
        "game": game,
        "seed": 4,
        "players": ["Alice", "Bob", "Carol"],
        "plays": ["timeout", "timeout", "timeout", "timeout"]
    })
}

/// Egg draws from the deck below the script's `deck`, which the seed shuffles.
fn egg_script() -> Value {
    json!({
        "game": "magical-athlete",
        "racers": [
            {"player": "Ann", "racer": "egg", "space": 0},
            {"player": "Ben", "racer": "banana", "space": 2}
        ],
        "dice": [3, 4]
    })
}

fn with_seed(script: &Value, seed: Value) -> String {
    let mut s = script.clone();
    s["seed"] = seed;
    s.to_string()
}

fn without_seed(script: &Value) -> String {
    let mut s = script.clone();
    if let Some(o) = s.as_object_mut() {
        o.remove("seed");
    }
    s.to_string()
}

fn output(text: &str) -> Value {
    replay(text).unwrap().output
}

#[test]
fn a_number_and_its_hex_replay_the_same_race() {
    for (game, script) in scripts() {
        for n in [0u64, 4, 7, 11, 3_000_000_000] {
            let hex = Seed::from_u64(n).to_hex();
            let by_number = output(&with_seed(&script, json!(n)));
            assert_eq!(
                by_number,
                output(&with_seed(&script, json!(hex))),
                "{game}, seed {n}"
            );
            assert_eq!(
                by_number,
                output(&with_seed(&script, json!(hex.to_uppercase()))),
                "{game}, seed {n} in capitals"
            );
        }
    }
}

#[test]
fn no_seed_is_seed_zero() {
    for (game, script) in scripts() {
        assert_eq!(
            output(&without_seed(&script)),
            output(&with_seed(&script, json!(0))),
            "{game}"
        );
    }
}

#[test]
fn the_seed_deals_the_race_in_games_of_chance() {
    let full = "9f".repeat(32);
    for (game, script) in scripts() {
        let zero = output(&with_seed(&script, json!(0)));
        let others: Vec<Value> = [json!(1), json!(2), json!(3), json!(full)]
            .into_iter()
            .map(|s| output(&with_seed(&script, s)))
            .collect();
        if game == "dream-mile" {
            // No dice, no cards: the seed changes nothing a script can see.
            assert!(others.iter().all(|o| *o == zero), "{game}");
        } else {
            assert!(others.iter().any(|o| *o != zero), "{game}");
        }
    }
}

#[test]
fn a_bad_seed_is_refused_in_one_line_naming_it() {
    let bad = [
        json!("nine"),
        json!(-1),
        json!(1.5),
        json!("abc"),
        json!("7"),
        json!("9f".repeat(31)),
        json!("9f".repeat(33)),
        json!(format!("0x{}", "9f".repeat(32))),
        json!("zz".repeat(32)),
        json!(true),
        json!([1]),
        json!(null),
    ];
    for (game, script) in scripts() {
        for seed in &bad {
            let e = replay(&with_seed(&script, seed.clone()))
                .err()
                .unwrap_or_else(|| panic!("{game}: seed {seed} was accepted"))
                .to_string();
            assert!(
                e.starts_with("seed must be") && !e.contains('\n'),
                "{game}, seed {seed}: {e}"
            );
        }
    }
}

/// The rulebook script printed these bytes before scripts took a seed.
#[test]
fn dream_mile_replays_as_before() {
    let text = include_str!("../../tests/scripts/dream-mile-rulebook.json");
    let pretty = serde_json::to_string_pretty(&output(text)).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(pretty.as_bytes())),
        "3f01051fa5fdbdb58ddc1d80572bf356c5b6a5afc85897e8f7ab790f177bdb3d"
    );
}
