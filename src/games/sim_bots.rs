//! `photofinish sim --bots`: one level plays every seat in every game's sim, or the sim
//! refuses the level in one line.

use serde_json::Value;

use super::strength::NoClock;
use super::{GameKind, SimArgs, SimBots, sim};

fn run(kind: GameKind, players: Option<usize>, bots: &str) -> Result<Value, String> {
    let args = SimArgs {
        count: 2,
        seed: 1,
        players,
        options: String::new(),
        bots: SimBots::parse(bots).unwrap(),
    };
    sim(kind, &args, &NoClock).map(|(_, json)| json)
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn bots_read_back_as_written() {
    for text in ["mixed", "heuristic", "random", "heuristic,random"] {
        assert_eq!(SimBots::parse(text).unwrap().name(), text);
    }
    assert_eq!(SimBots::parse("").unwrap().name(), "mixed");
    let e = SimBots::parse("clever").unwrap_err();
    assert!(e.contains("`clever` is not a bot level"), "{e}");
}

#[test]
fn card_races_seat_one_level_everywhere() {
    for kind in [GameKind::MilleBornes, GameKind::ThousandYards] {
        for level in ["heuristic", "random"] {
            let json = run(kind, Some(4), level).unwrap();
            assert_eq!(keys(&json["by_level"]), [level], "{kind:?}: {json}");
        }
        let mixed = run(kind, Some(2), "mixed").unwrap();
        assert_eq!(keys(&mixed["by_level"]), ["heuristic", "random"]);
    }
}

#[test]
fn fifteen_hundred_seats_one_level_everywhere() {
    for level in ["heuristic", "random"] {
        let json = run(GameKind::FifteenHundred, None, level).unwrap();
        let kinds = keys(&json["by_kind"]);
        assert!(
            kinds.iter().all(|k| k == level || k == "robot") && kinds.contains(&level.into()),
            "{json}"
        );
    }
}

#[test]
fn magical_athlete_plays_the_heuristic_and_refuses_random() {
    let json = run(GameKind::MagicalAthlete, Some(3), "heuristic").unwrap();
    assert_eq!(json["races"], 2);
    let e = run(GameKind::MagicalAthlete, Some(3), "random").unwrap_err();
    assert!(e.contains("--bots random") && !e.contains('\n'), "{e}");
}
