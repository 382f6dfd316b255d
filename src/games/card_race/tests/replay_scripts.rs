//! The example scripts of docs/replay/card-race.md that state a position (a short or empty
//! draw pile, a junk pile, an open window), run through the same path as
//! `photofinish replay` (`games::replay`), and the output fields they document.

use serde_json::{Value, json};

const DOC: &str = include_str!("../../../../docs/replay/card-race.md");

/// The JSON block after `<!-- replay-test: NAME -->` in the doc.
fn example(name: &str) -> String {
    let marker = format!("<!-- replay-test: {name} -->");
    let after = DOC.split_once(&marker).unwrap().1;
    let body = after.split_once("```json").unwrap().1;
    body.split_once("```").unwrap().0.to_string()
}

fn run(text: &str) -> Value {
    crate::games::replay(text).unwrap().output
}

#[test]
fn an_empty_pile_is_stated_and_zero_lines_are_left_out() {
    let out = run(&example("empty-pile"));
    assert_eq!(out["deck_left"], 0);
    assert_eq!(
        out["teams"][0]["breakdown"],
        json!({"distance": 300, "trip": 300, "coronation": 300, "hood": 500})
    );
    assert_eq!(out["teams"][1]["breakdown"], json!({}));
    assert_eq!(
        out["rounds"][0]["scores"][1]["breakdown"],
        json!({}),
        "{out:#}"
    );
    let discard: Vec<&str> = out["discard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(discard.first(), Some(&"right of way"));
    assert_eq!(discard.len(), 94 + 3);
    assert_eq!(&discard[94..], ["25", "25", "50"]);
    assert_eq!(out["winner"], json!(["Alice"]));
}

#[test]
fn the_open_window_200s_and_options_are_in_the_output() {
    let text = example("open-window");
    let out = run(&text);
    assert_eq!(out["deck_left"], 0);
    assert_eq!(out["discard"].as_array().unwrap().len(), 91);
    assert_eq!(out["turn"], Value::Null);
    assert_eq!(
        out["window"],
        json!({"attacker": "Alice", "attack": "flat tire", "team": ["Bob"],
               "victims": ["Bob"], "next": "Bob", "seconds": 120})
    );
    assert_eq!(out["pending"], json!(["Bob"]));
    assert_eq!(out["teams"][1]["two_hundreds"], 1);
    assert_eq!(out["options"]["counter-timeout"], 120);
    assert_eq!(out["options"]["ruleset"], "playroom");
    assert_eq!(out["extension_decision"], Value::Null);
    // The documented follow-up: Bob's immunity by its name is the dirty trick.
    let more = text.replace(
        "\"Alice: flat tire\"",
        "\"Alice: flat tire\", \"Bob: puncture-proof\"",
    );
    let out = run(&more);
    assert_eq!(out["window"], Value::Null);
    assert_eq!(out["turn"], "Bob");
    assert_eq!(
        out["teams"][1]["breakdown"],
        json!({"distance": 200, "immunities": 100, "dirty_tricks": 300})
    );
    // The 91 cards left out of the pile, then the cancelled flat tire.
    let discard = out["discard"].as_array().unwrap();
    assert_eq!(discard.len(), 92);
    assert_eq!(discard.last(), Some(&json!("flat tire")));
}

#[test]
fn a_stated_pile_that_does_not_fit_is_refused_in_one_line() {
    let text = example("open-window");
    let e = crate::games::replay(&text.replace("\"deck_size\": 3", "\"deck_size\": 2"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the deck names 3 cards but deck_size is 2"),
        "{e}"
    );
    let e = crate::games::replay(&text.replace("\"deck_size\": 3", "\"deck_size\": 95"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("deck_size 95 and 0 junked cards need more than the 94"),
        "{e}"
    );
}
