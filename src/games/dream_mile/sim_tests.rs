//! `photofinish sim dream-mile`: it reads `--options` and `--bots`, and refuses what it
//! cannot read in one line.

use serde_json::Value;

use crate::games::strength::NoClock;
use crate::games::{GameKind, SimArgs, SimBots, sim};

fn args(options: &str, bots: &str) -> SimArgs {
    SimArgs {
        count: 60,
        seed: 3,
        players: Some(6),
        options: options.into(),
        bots: SimBots::parse(bots).unwrap(),
    }
}

fn run(options: &str, bots: &str) -> Result<Value, String> {
    sim(GameKind::DreamMile, &args(options, bots), &NoClock).map(|(_, json)| json)
}

fn levels(json: &Value) -> Vec<String> {
    json["by_level"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[test]
fn options_change_the_maxima_drawn() {
    let json = run("base-max-speed=12 top-max-speed=13", "mixed").unwrap();
    let maxima: Vec<&String> = json["by_max_speed"].as_object().unwrap().keys().collect();
    assert_eq!(maxima, ["12", "13"]);
    assert!(
        json["options"]
            .as_str()
            .unwrap()
            .contains("base-max-speed=12"),
        "{json}"
    );
}

#[test]
fn options_change_the_race() {
    // Fewer points for everyone: the winners change with the race itself.
    let plain = run("", "heuristic").unwrap();
    let short = run("starting-points=20 ordered-turns=3", "heuristic").unwrap();
    assert_ne!(plain["by_max_speed"], short["by_max_speed"]);
    assert_eq!(short["races"], 60);
}

#[test]
fn an_unknown_or_bad_option_is_refused_in_one_line() {
    for (text, says) in [
        ("speed=3", "unknown option `speed`"),
        ("ordered-turns=0", "ordered-turns"),
        ("starting-points=lots", "starting"),
        ("top-max-speed", "key=value"),
        ("base-max-speed=14 top-max-speed=12", "top-max-speed"),
    ] {
        let e = run(text, "mixed").unwrap_err();
        assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
    }
}

#[test]
fn one_level_plays_every_seat() {
    for level in ["heuristic", "random"] {
        let json = run("", level).unwrap();
        assert_eq!(levels(&json), [level], "{json}");
        assert_eq!(json["by_level"][level]["runners"], 60 * 6);
        assert_eq!(json["bots"], level);
    }
}

#[test]
fn mixed_seats_both_levels_and_a_list_seats_one_per_seat() {
    let mixed = run("", "mixed").unwrap();
    assert_eq!(levels(&mixed), ["heuristic", "random"]);
    assert_eq!(mixed["by_level"]["heuristic"]["runners"], 60 * 3);
    let list = run("", "heuristic,heuristic,random").unwrap();
    assert_eq!(list["by_level"]["heuristic"]["runners"], 60 * 4);
    assert_eq!(list["by_level"]["random"]["runners"], 60 * 2);
}

#[test]
fn the_bots_decide_the_race() {
    // Heuristic bots and random bots do not run the same races.
    let h = run("", "heuristic").unwrap();
    let r = run("", "random").unwrap();
    assert_ne!(h["by_max_speed"], r["by_max_speed"]);
}

#[test]
fn mixed_bots_with_default_options_race_as_before() {
    // Recorded before `--options` and `--bots` were read: the same seeds, the same table.
    let json = run("", "mixed").unwrap();
    let wins: Vec<String> = json["by_max_speed"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, t)| format!("{k}:{}:{}", t["runners"], t["wins"]))
        .collect();
    assert_eq!(
        wins,
        [
            "10:65:6.0",
            "11:62:11.0",
            "12:52:6.0",
            "13:60:5.0",
            "14:61:15.0",
            "15:60:17.0"
        ],
        "{json}"
    );
    assert_eq!(json["by_level"]["heuristic"]["wins"], 56.0);
}
