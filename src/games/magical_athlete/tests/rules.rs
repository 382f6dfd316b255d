//! The tracks' spaces, and decisions: policies, defaults, timeouts and orders.

use super::*;

// ----- Tracks -----

fn lands(track: Track, from: u8, legs_to: u8) -> (u8, bool, i32) {
    let n = legs_to - from;
    let mut g = scene(track, &[(Kind::Banana, from), (Kind::Legs, 29)]);
    go(&mut g, &[n]);
    say(&mut g, "roll");
    (
        at(&g, Kind::Banana),
        tripped(&g, Kind::Banana),
        bronze(&g, 0),
    )
}

#[test]
fn wild_wilds_printed_spaces() {
    let t = Track::Wild;
    assert_eq!(lands(t, 4, 7), (10, false, 0));
    assert_eq!(lands(t, 9, 11), (12, false, 0));
    assert_eq!(lands(t, 14, 16), (12, false, 0));
    assert_eq!(lands(t, 20, 23), (25, false, 0));
    assert_eq!(lands(t, 20, 24), (22, false, 0));
    assert_eq!(lands(t, 3, 5), (5, true, 0));
    assert_eq!(lands(t, 15, 17), (17, true, 0));
    assert_eq!(lands(t, 22, 26), (26, true, 0));
    assert_eq!(lands(t, 0, 1), (1, false, 1));
    assert_eq!(lands(t, 10, 13), (13, false, 1));
    // Passing over a special space does nothing.
    assert_eq!(lands(t, 4, 8), (8, false, 0));
}

#[test]
fn wild_wilds_rulebook_layout_spaces() {
    let t = Track::WildRulebook;
    assert_eq!(lands(t, 2, 5), (8, false, 0));
    assert_eq!(lands(t, 10, 14), (10, false, 0));
    assert_eq!(lands(t, 18, 20), (22, false, 0));
    assert_eq!(lands(t, 18, 21), (19, false, 0));
    assert_eq!(lands(t, 0, 3), (3, true, 0));
    assert_eq!(lands(t, 12, 15), (15, true, 0));
    assert_eq!(lands(t, 6, 11), (11, false, 1));
    assert_eq!(lands(t, 22, 24), (24, false, 1));
}

#[test]
fn mild_mile_has_no_special_spaces() {
    for s in [1u8, 5, 7, 11, 16, 24] {
        let (pos, trip, chips) = lands(Track::Mild, s.saturating_sub(3), s);
        assert_eq!((pos, trip, chips), (s, false, 0));
    }
}

#[test]
fn an_arrow_is_a_separate_move_that_can_trip_on_banana() {
    // Stopping on 7 moves 3 more, passing Banana on 9.
    let mut g = scene(Track::Wild, &[(Kind::Legs, 2), (Kind::Banana, 9)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 10);
    assert!(tripped(&g, Kind::Legs));
}

// ----- Decisions: policies, defaults, timeouts -----

#[test]
fn a_standing_policy_answers_without_asking() {
    let mut g = mild(&[(Kind::Magician, 0), (Kind::Legs, 0)]);
    let msg = g
        .set_preference(Seat(0), "magician reroll below 3")
        .unwrap();
    assert!(msg.contains("Magician rerolls any roll below 3"), "{msg}");
    assert_eq!(
        g.private_view(Seat(0)).policies,
        vec!["magician reroll below 3"]
    );
    assert!(g.private_view(Seat(1)).policies.is_empty());
    go(&mut g, &[2, 5]);
    let e = say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Magician), 5);
    assert!(told(&g, &e).contains("(standing policy)"));
    assert!(asked(&g).starts_with("Your turn: Legs"));
    assert!(g.set_preference(Seat(0), "banana always").is_err());
}

#[test]
fn a_missed_decision_takes_the_policy_or_the_default_and_says_so() {
    let mut g = mild(&[(Kind::RocketScientist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[5]);
    say(&mut g, "roll");
    let p = g.pending();
    // The race's turn length (the referee's deadline), not a short window.
    assert_eq!(p.window, Window::Decision);
    assert_eq!(g.default_order(Seat(0)), Order::Yes);
    let e = g.apply(&[Submitted::missed(Seat(0), g.default_order(Seat(0)))]);
    assert_eq!(at(&g, Kind::RocketScientist), 10);
    assert!(
        told(&g, &e).contains("no answer in time"),
        "{}",
        told(&g, &e)
    );
    // An apply with no order at all is a miss too.
    let mut g = mild(&[(Kind::RocketScientist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    g.apply(&[]);
    assert_eq!(at(&g, Kind::RocketScientist), 2);
}

#[test]
fn decision_timeout_is_the_turn_by_default_or_a_shorter_window() {
    let o = Options::default();
    assert_eq!(o.decision_timeout, DecisionWindow::Turn);
    let read = |t: &str| crate::engine::apply_option_text(&o, t);
    assert_eq!(
        read("decision-timeout=120").unwrap().decision_timeout,
        DecisionWindow::Seconds(120)
    );
    assert_eq!(
        read("decision-timeout=turn").unwrap().decision_timeout,
        DecisionWindow::Turn
    );
    let e = read("decision-timeout=soon").unwrap_err().to_string();
    assert!(e.contains("`turn` or a number of seconds"), "{e}");
    // Shown back as text that reads to the same options.
    let shown = crate::engine::option_text(&read("decision-timeout=45").unwrap());
    assert!(shown.contains("decision-timeout=45"), "{shown}");
    assert!(crate::engine::option_text(&o).contains("decision-timeout=turn"));
}

#[test]
fn a_stored_race_with_a_numeric_decision_timeout_decodes_and_waits_as_before() {
    // Options as races stored them before `turn` existed.
    let json = serde_json::json!({"track": ["mild"], "decision_timeout": 600, "auto_roll": false});
    let o: Options = serde_json::from_value(json).unwrap();
    assert_eq!(o.decision_timeout, DecisionWindow::Seconds(600));
    let mut g = mild(&[(Kind::RocketScientist, 0), (Kind::Legs, 0)]);
    g.options = o;
    go(&mut g, &[5]);
    say(&mut g, "roll");
    assert_eq!(g.pending().window, Window::Seconds(600));
    // A stored game round-trips with it.
    let back: MagicalAthlete = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(back.options.decision_timeout, DecisionWindow::Seconds(600));
}

#[test]
fn decision_timeout_0_never_asks() {
    let mut g = mild(&[(Kind::Magician, 0), (Kind::Legs, 0)]);
    g.options.decision_timeout = DecisionWindow::Seconds(0);
    go(&mut g, &[1, 6]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Magician), 6);
    assert!(asked(&g).starts_with("Your turn: Legs"));
}

#[test]
fn auto_roll_plays_turns_with_no_choice() {
    let mut g = mild(&[(Kind::Banana, 0), (Kind::Gunk, 0), (Kind::Legs, 0)]);
    g.options.auto_roll = true;
    go(&mut g, &[3, 4]);
    // Banana and Gunk had no choice; Legs does.
    assert_eq!(at(&g, Kind::Banana), 2);
    assert_eq!(at(&g, Kind::Gunk), 4);
    assert!(asked(&g).starts_with("Your turn: Legs"));
}

#[test]
fn orders_are_checked_with_clear_errors() {
    let mut g = mild(&[(Kind::FlipFlop, 0), (Kind::Legs, 5)]);
    go(&mut g, &[]);
    let e = read_order(&g, Seat(0), "flip zebra").unwrap_err();
    assert_eq!(
        e,
        OrderError::Syntax("`zebra` is not a racer's name".into())
    );
    let e = read_order(&g, Seat(0), "flip banana").unwrap_err();
    assert_eq!(e, OrderError::Illegal("Banana isn't in this race".into()));
    let e = read_order(&g, Seat(0), "guess 3").unwrap_err();
    assert!(matches!(e, OrderError::Illegal(_)), "{e}");
    assert!(e.to_string().contains("flip legs"), "{e}");
    assert_eq!(
        read_order(&g, Seat(1), "roll").unwrap_err(),
        OrderError::NotYourTurn
    );
    assert!(matches!(
        read_order(&g, Seat(0), "").unwrap_err(),
        OrderError::Syntax(_)
    ));
}

#[test]
fn a_live_decision_keeps_the_dice_already_rolled() {
    // The turn stops for Suckerfish and runs again from its start: same dice, no repeats.
    let mut g = mild(&[
        (Kind::Magician, 0),
        (Kind::Suckerfish, 0),
        (Kind::Banana, 20),
    ]);
    go(&mut g, &[2, 4]);
    let mut all = say(&mut g, "roll");
    all.extend(say(&mut g, "yes"));
    assert!(asked(&g).contains("Reroll (Magician)?"));
    all.extend(say(&mut g, "no"));
    assert!(asked(&g).contains("ride along"));
    let json = serde_json::to_string(&g).unwrap();
    let back: MagicalAthlete = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    all.extend(say(&mut g, "yes"));
    assert_eq!(at(&g, Kind::Magician), 4);
    assert_eq!(at(&g, Kind::Suckerfish), 4);
    let rolls = all
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Race {
                    event: RaceEvent::Rolled { .. }
                }
            )
        })
        .count();
    assert_eq!(rolls, 2, "{}", told(&g, &all));
}
