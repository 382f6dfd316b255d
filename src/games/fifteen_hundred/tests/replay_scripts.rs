//! Replay scripts: the documented script, errors that name the step and the player, and
//! live replays.

const EXAMPLE_SCRIPT: &str = include_str!("../../../../docs/replay/1500m-example.json");

#[test]
fn the_documented_replay_script_runs_the_rulebook_round() {
    let replay = crate::games::replay(EXAMPLE_SCRIPT).unwrap();
    let out = &replay.output;
    assert_eq!(out["game"], "1500m");
    let steps = out["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(replay.views.len(), 3);
    let narration: Vec<&str> = steps[0]["narration"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        narration.contains(
            &"Bids: Purple 4, Yellow 4, White 3, Blue 3, Green 2, Red 2. Actions are chosen by Purple, Yellow, White, Blue, Green. Red ties for the lowest bid and, placed best, gets no action."
        ),
        "{narration:?}"
    );
    assert!(narration.contains(&"Green takes Pace +2."), "{narration:?}");
    assert!(
        narration.contains(
            &"Movement cards: Purple 9, Yellow 10, White 8, Blue 9, Green 9, Red 11, robots 9."
        ),
        "{narration:?}"
    );
    let pace_of = |step: &serde_json::Value, name: &str| {
        step["runners"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| r["pace"].as_u64().unwrap())
            .unwrap()
    };
    for (name, p) in [
        ("Red", 9),
        ("Yellow", 10),
        ("Purple", 7),
        ("Blue", 9),
        ("Green", 10),
        ("White", 6),
    ] {
        assert_eq!(pace_of(&steps[0], name), p, "{name}");
    }
    // Every runner line carries what the script format promises.
    let r = &steps[1]["runners"][0];
    for key in [
        "name",
        "robot",
        "position",
        "lane",
        "space",
        "section",
        "section_space",
        "crossings",
        "progress",
        "to_go",
        "strength",
        "pace",
        "penalty",
        "cards_left",
        "place",
    ] {
        assert!(r.get(key).is_some(), "{key} missing from {r}");
    }
    // Green left out of round 2 missed it.
    let missed = steps[1]["narration"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n == "Green missed the deadline: the default order is played.");
    assert!(missed);
}

#[test]
fn replay_errors_name_the_step_and_the_player() {
    let bad = EXAMPLE_SCRIPT.replace("card 11 bid 2 actions move3 pace +1", "card 12 bid 2");
    let e = crate::games::replay(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "turn 1, Red: that order isn't allowed: card 12 isn't in your hand; you hold 8, 9, 10, 11"
    );
    let bad = EXAMPLE_SCRIPT.replace("\"at\": \"8:3\"", "\"at\": \"7:5\"");
    let e = crate::games::replay(&bad).unwrap_err();
    assert!(e.to_string().contains("is taken"), "{e}");
}

#[test]
fn a_robot_deck_outside_8_to_11_is_refused_in_one_line_naming_the_field() {
    for (deck, why) in [
        (
            "[9, 12, 8]",
            "robot movement cards run from 8 to 11, not 12",
        ),
        ("[7]", "robot movement cards run from 8 to 11, not 7"),
        ("[0, 9]", "robot movement cards run from 8 to 11, not 0"),
        (
            "[9, 9]",
            "the robots' deck holds each of 8, 9, 10 and 11 at most once, not 9 twice",
        ),
    ] {
        let bad = EXAMPLE_SCRIPT.replace("[9, 11, 8, 10]", deck);
        let e = crate::games::replay(&bad).unwrap_err().to_string();
        assert_eq!(e, format!("robot_deck: {why}"));
        assert!(!e.contains('\n'));
    }
    // Any part of the deck, top first, is a position the race can reach.
    let part = EXAMPLE_SCRIPT.replace("[9, 11, 8, 10]", "[11, 8]");
    crate::games::replay(&part).unwrap();
}

#[test]
fn a_strength_above_the_track_is_refused_in_one_line_naming_the_field() {
    let bad = EXAMPLE_SCRIPT.replacen("\"strength\": 50", "\"strength\": 101", 1);
    let e = crate::games::replay(&bad).unwrap_err().to_string();
    assert_eq!(
        e,
        "setup of Red: strength 101 is above the top of the mental strength track, 100"
    );
    // The top itself is fine, and so is 800 m's top of 50 (or the option's).
    let top = EXAMPLE_SCRIPT.replacen("\"strength\": 50", "\"strength\": 100", 1);
    crate::games::replay(&top).unwrap();
    let m800 = EXAMPLE_SCRIPT
        .replace("\"robots\": 2", "\"robots\": 2, \"distance\": \"800\"")
        .replacen("\"strength\": 50", "\"strength\": 51", 1);
    let e = crate::games::replay(&m800).unwrap_err().to_string();
    assert!(
        e.ends_with("strength 51 is above the top of the mental strength track, 50"),
        "{e}"
    );
}

#[test]
fn a_live_replay_gives_one_step_at_a_time() {
    let script = r#"{
        "game": "1500",
        "options": { "play": "live" },
        "players": ["A", "B"],
        "setup": { "A": { "at": "1:11" }, "B": { "at": "2:11" } },
        "rounds": [
            { "A": "card 10 bid 3", "B": "card 9 bid 1" },
            { "A": "action first" },
            { "A": "move to 1:22" },
            { "B": "move farthest" },
            { "A": "pace +1" },
            { "B": "pace keep move none" }
        ]
    }"#;
    let replay = crate::games::replay(script).unwrap();
    let steps = replay.output["steps"].as_array().unwrap();
    let asked: Vec<&str> = steps.iter().map(|s| s["asked"].as_str().unwrap()).collect();
    assert_eq!(
        asked,
        [
            "Round 1: movement cards and bids",
            "Round 1: A's action",
            "Round 1: A's move",
            "Round 1: B's move",
            "Round 1: A's pace",
            "Round 1: B's pace",
        ]
    );
    let a = steps[2]["runners"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "A")
        .unwrap();
    assert_eq!(a["space"], "1:22");
    let last = &steps[5];
    let b = last["runners"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "B")
        .unwrap();
    assert_eq!(b["pace"], 5);
    // A wrong step is refused with the step's number.
    let bad = script.replace(r#"{ "A": "action first" }"#, r#"{ "A": "move farthest" }"#);
    let e = crate::games::replay(&bad).unwrap_err();
    assert!(e.to_string().starts_with("turn 2, A: "), "{e}");
}
