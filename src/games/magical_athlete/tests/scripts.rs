//! Replay scripts that state a position: the documented examples, run through
//! the path `photofinish replay` takes, and the new fields' checks.

use serde_json::{Value, json};

fn run(text: &str) -> Value {
    crate::games::replay(text)
        .unwrap_or_else(|e| panic!("{e}"))
        .output
}

fn racer<'a>(o: &'a Value, name: &str) -> &'a Value {
    o["racers"]
        .as_array()
        .and_then(|rs| rs.iter().find(|r| r["racer"] == name))
        .unwrap_or_else(|| panic!("{name} in {o}"))
}

#[test]
fn docs_replay_examples_run_as_documented() {
    let o = run(include_str!(
        "../../../../docs/replay/magical-athlete-position.json"
    ));
    let legs = racer(&o, "Legs");
    assert_eq!(
        (&legs["status"], &legs["place"]),
        (&json!("finished"), &json!(1))
    );
    assert_eq!(legs["space"], 30);
    assert_eq!(racer(&o, "Banana")["status"], "eliminated");
    assert_eq!(o["finish_order"], json!(["Legs"]));
    assert_eq!(o["eliminated"], json!(["Banana"]));
    let cat = racer(&o, "Copycat");
    assert_eq!(
        (&cat["power"], &cat["copying"]),
        (&json!("Magician"), &json!("Egg"))
    );
    assert_eq!(cat["space"], 13);
    assert_eq!(racer(&o, "Egg")["power"], "Magician");
    let mm = racer(&o, "Mastermind");
    assert_eq!(
        (&mm["prediction"], &mm["space"]),
        (&json!("Copycat"), &json!(16))
    );
    assert_eq!(o["chips"]["Ann"]["total"], 6);
    assert_eq!(o["chips"]["Cat"]["total"], 4);
    assert_eq!(o["prompts"][0]["question"], "reroll the 2 (Magician)");
    assert_eq!(o["prompts"][0]["how"], "default");
    assert_eq!(
        o["next"],
        json!({"player": "Dev", "racers": ["Egg"], "extra": null})
    );
    assert_eq!((&o["over"], &o["dice_left"]), (&json!(false), &json!(1)));
    // Racers are listed in turn order, from Cat, clockwise by `seats`.
    let order: Vec<&str> = o["racers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["Cat", "Ben", "Dev", "Eve", "Ann"]);

    let o = run(include_str!(
        "../../../../docs/replay/magical-athlete-first-turn.json"
    ));
    let log = o["log"].to_string();
    assert!(
        log.contains("Ann's Genius's extra turn (Genius), from space 3."),
        "{log}"
    );
    assert_eq!(racer(&o, "Banana")["space"], 10);
    assert_eq!(racer(&o, "The Skipper")["space"], 2);
    assert_eq!(racer(&o, "Legs")["space"], 5);
    assert_eq!(racer(&o, "Genius")["tripped"], false);
    assert_eq!(o["prompts"][1]["question"], "which racer moves this turn");
    assert_eq!(o["prompts"][1]["how"], "live");
    assert_eq!(o["prompts"][2]["question"], "which racer goes first");
    assert_eq!(o["prompts"][2]["how"], "default");
    assert_eq!(
        o["next"],
        json!({"player": "Ben", "racers": ["The Skipper", "Banana"], "extra": null})
    );

    let o = run(include_str!(
        "../../../../docs/replay/magical-athlete-roll-off.json"
    ));
    assert_eq!(o["finish_order"], json!(["Legs", "Blimp"]));
    assert_eq!(o["over"], true);
    assert_eq!(o["next"], Value::Null);
    let offs = o["roll_offs"].as_array().unwrap();
    assert!(!offs.is_empty(), "{o}");
    let last = offs.last().unwrap();
    assert_eq!(last["purpose"], "who goes first");
    let rolls = last["rolls"].as_object().unwrap();
    assert_eq!(rolls.keys().collect::<Vec<_>>(), ["Ben", "Cat"]);
    let winner = last["winner"].as_str().unwrap();
    assert!(winner == "Ben" || winner == "Cat");
    assert!(rolls[winner].as_u64() > rolls[if winner == "Ben" { "Cat" } else { "Ben" }].as_u64());
    for tie in &offs[..offs.len() - 1] {
        assert_eq!(tie["winner"], Value::Null);
    }
}

#[test]
fn a_prompt_left_to_the_default_says_default() {
    let o = run(&json!({
        "game": "magical-athlete",
        "racers": [
            {"player": "Ann", "racer": "magician", "space": 0},
            {"player": "Ben", "racer": "banana", "space": 9}
        ],
        "dice": [1, 5],
        "answers": []
    })
    .to_string());
    assert_eq!(o["prompts"][0]["answer"], "yes");
    assert_eq!(o["prompts"][0]["how"], "default");
    let o = run(&json!({
        "game": "magical-athlete",
        "racers": [
            {"player": "Ann", "racer": "magician", "space": 0},
            {"player": "Ben", "racer": "banana", "space": 9}
        ],
        "policies": {"Ann": ["magician never"]},
        "dice": [1]
    })
    .to_string());
    assert_eq!(o["prompts"][0]["answer"], "no");
    assert_eq!(o["prompts"][0]["how"], "policy");
}

#[test]
fn the_two_player_first_turn_rule_is_off_unless_the_script_says() {
    let script = |rule: bool| {
        json!({
            "game": "magical-athlete",
            "racers": [
                {"player": "Ann", "racer": "banana", "space": 0},
                {"player": "Ann", "racer": "gunk", "space": 0},
                {"player": "Ben", "racer": "legs", "space": 0},
                {"player": "Ben", "racer": "coach", "space": 9}
            ],
            "first_turn_rule": rule,
            "dice": [3, 3],
            "stop_after": 2
        })
        .to_string()
    };
    // Off: Ann's turn moves both her racers (Gunk takes 1 from Banana's 3). On: one, then
    // Ben's turn.
    let off = run(&script(false));
    assert_eq!(off["next"]["player"], "Ben");
    assert_eq!(racer(&off, "Gunk")["space"], 3);
    assert_eq!(racer(&off, "Banana")["space"], 2);
    let on = run(&script(true));
    assert_eq!(on["next"]["player"], "Ann");
    assert_eq!(on["prompts"][0]["question"], "which racer moves this turn");
}

#[test]
fn scripts_that_cannot_be_set_up_say_which_field() {
    let base = |extra: Value| {
        let mut s = json!({"game": "magical-athlete", "racers": [
            {"player": "Ann", "racer": "legs"},
            {"player": "Bob", "racer": "magician"}
        ]});
        if let (Some(m), Some(e)) = (s.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                m.insert(k.clone(), v.clone());
            }
        }
        crate::games::replay(&s.to_string())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let racers = |a: Value, b: Value| json!({"racers": [a, b]});
    for (extra, says) in [
        (
            json!({"seats": ["Ann"]}),
            "seats: Bob has a racer but no seat",
        ),
        (
            json!({"seats": ["Ann", "Bob", "Cy"]}),
            "seats: Cy has no racer",
        ),
        (
            json!({"chips": {"Zed": {"gold": [3]}}}),
            "chips: Zed is not racing",
        ),
        (
            json!({"chips": {"Ann": {"gold": [2]}}}),
            "2 is not a gold chip",
        ),
        (
            json!({"extra_turns": ["genius"]}),
            "extra_turns: Genius is not racing",
        ),
        (
            json!({"first_turn_done": ["Zed"]}),
            "first_turn_done: Zed is not racing",
        ),
        (
            racers(
                json!({"player": "Ann", "racer": "legs", "status": "won"}),
                json!({"player": "Bob", "racer": "gunk"}),
            ),
            "status `won` is not racing, finished or eliminated",
        ),
        (
            racers(
                json!({"player": "Ann", "racer": "legs", "status": "finished"}),
                json!({"player": "Bob", "racer": "gunk", "status": "finished"}),
            ),
            "two racers have finished",
        ),
        (
            racers(
                json!({"player": "Ann", "racer": "legs", "prediction": "gunk"}),
                json!({"player": "Bob", "racer": "gunk"}),
            ),
            "Legs: only a Mastermind makes a prediction",
        ),
        (
            racers(
                json!({"player": "Ann", "racer": "mastermind", "prediction": "banana"}),
                json!({"player": "Bob", "racer": "gunk"}),
            ),
            "Mastermind: prediction Banana is not in the race",
        ),
        (
            racers(
                json!({"player": "Ann", "racer": "legs", "copying": "gunk"}),
                json!({"player": "Bob", "racer": "gunk"}),
            ),
            "Legs: only a Copycat copies",
        ),
    ] {
        let e = base(extra.clone());
        assert!(e.contains(says), "{extra}: {e}");
    }
}
