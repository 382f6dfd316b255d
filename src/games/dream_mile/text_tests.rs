//! Dream Mile's words as a player reads them: prompts, refusals and the turn's story.

use super::*;
use crate::engine::{OrderError, read_order};

fn race(names: &[&str], options: Options) -> DreamMile {
    let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
    DreamMile::setup(&options, &seats, Seed::from_u64(0)).unwrap()
}

fn play(game: &mut DreamMile, speeds: &[u8]) -> Vec<Event> {
    let orders: Vec<Submitted<Speed>> = speeds
        .iter()
        .enumerate()
        .map(|(i, &v)| Submitted::new(Seat(i as u8), Speed(v)))
        .collect();
    game.apply(&orders)
}

/// A runner with `left` points after turn 1 (at maximum 10, having played 10).
fn with_left(left: u32) -> DreamMile {
    let mut g = race(
        &["Alice", "Bill"],
        Options {
            starting_points: 10 + left,
            ..Options::default()
        },
    );
    play(&mut g, &[10, 0]);
    g
}

#[test]
fn the_prompt_speaks_to_the_player() {
    let g = race(&["Alice", "Bill"], Options::default());
    let p = g.prompt(Seat(0));
    assert_eq!(
        p.text,
        "Turn 1 of 8: Alice, how many speed points do you play? (0 to 10; 45 left)"
    );
    assert_eq!(p.hint, "Reply with a whole number from 0 to 10.");
}

#[test]
fn the_last_ordered_turn_says_the_eighth_runs_by_itself() {
    let mut g = race(&["Alice", "Bill"], Options::default());
    for _ in 0..6 {
        play(&mut g, &[1, 1]);
    }
    let p = g.prompt(Seat(0));
    assert!(p.text.starts_with("Turn 7 of 8: Alice,"), "{}", p.text);
    assert_eq!(
        p.hint,
        "Reply with a whole number from 0 to 10. Turn 8 then runs by itself: everyone plays all they have left, up to their maximum."
    );
}

#[test]
fn a_runner_with_nothing_left_is_told_so() {
    let g = with_left(0);
    let p = g.prompt(Seat(0));
    assert_eq!(
        p.text,
        "Turn 2 of 8: Alice, you have no speed points left, so you play 0."
    );
    assert_eq!(p.hint, "Reply 0.");
    assert_eq!(p.choices.len(), 1);
    let e = read_order(&g, Seat(0), "3").unwrap_err();
    assert_eq!(
        e,
        OrderError::Illegal("you have no speed points left, so you can only play 0".into())
    );
}

#[test]
fn one_point_left_is_one_point() {
    let g = with_left(1);
    let e = read_order(&g, Seat(0), "5").unwrap_err();
    assert_eq!(
        e,
        OrderError::Illegal("5 is more than the 1 speed point you have left".into())
    );
    let g = with_left(4);
    let e = read_order(&g, Seat(0), "5").unwrap_err();
    assert_eq!(
        e,
        OrderError::Illegal("5 is more than the 4 speed points you have left".into())
    );
}

#[test]
fn numbers_too_big_or_below_zero_are_read_as_numbers() {
    let g = race(&["Alice", "Bill"], Options::default());
    let e = read_order(&g, Seat(0), "300").unwrap_err().to_string();
    assert!(e.contains("300 is above your maximum speed of 10"), "{e}");
    let e = read_order(&g, Seat(0), "-3").unwrap_err().to_string();
    assert!(e.contains("0 to 10") && !e.contains("not a number"), "{e}");
    assert_eq!(read_order(&g, Seat(0), "7 points"), Ok(Speed(7)));
    assert_eq!(read_order(&g, Seat(0), "play 1 point"), Ok(Speed(1)));
}

#[test]
fn a_split_tie_reads_front_to_back() {
    let names = [
        "Alice", "Bill", "Carol", "Dave", "Emily", "Frank", "George", "Helen",
    ];
    let mut g = race(&names, Options::default());
    // The rulebook's turn 1.
    let events = play(&mut g, &[3, 1, 7, 6, 6, 5, 3, 1]);
    let text = g.narrate(&events[0]).text;
    assert!(
        text.contains(
            "Tie split by speed: Carol, then Dave and Emily (still tied), then Frank, then Alice and George (still tied), then Bill and Helen (still tied)."
        ),
        "{text}"
    );
    assert!(!text.contains("Ties:"), "{text}");
    // Two runners: one simple line.
    let mut g = race(&["Alice", "Bill"], Options::default());
    let events = play(&mut g, &[3, 5]);
    let text = g.narrate(&events[0]).text;
    assert!(
        text.contains("Tie split by speed: Bill ahead of Alice."),
        "{text}"
    );
}

#[test]
fn a_missed_order_is_not_told_twice() {
    let mut g = race(&["Alice", "Bill"], Options::default());
    let events = g.apply(&[
        Submitted::new(Seat(0), Speed(4)),
        Submitted::missed(Seat(1), g.default_order(Seat(1))),
    ]);
    let text = g.narrate(&events[0]).text;
    // Said once, in the post's "Missed orders", not again in the turn's line.
    assert!(text.starts_with("Turn 1: Alice 4, Bill 1."), "{text}");
}

#[test]
fn the_automatic_turn_says_what_it_does() {
    let mut g = race(&["Alice", "Bill"], Options::default());
    let mut events = Vec::new();
    for _ in 0..7 {
        events = play(&mut g, &[1, 2]);
    }
    let auto = events
        .iter()
        .map(|e| g.narrate(e).text)
        .find(|t| t.starts_with("Turn 8"))
        .unwrap();
    assert!(
        auto.starts_with("Turn 8 (automatic: everyone plays all they can): Alice 10, Bill 10."),
        "{auto}"
    );
}

#[test]
fn a_huge_cost_per_speed_leaves_no_points_and_no_panic() {
    let o = Options {
        cost_per_speed: u32::MAX,
        ..Options::default()
    };
    assert_eq!(o.points_for(15), 0);
    assert_eq!(o.points_for(10), 45);
}

#[test]
fn the_summary_names_the_cost_of_speed() {
    let s = DreamMile::rules_summary(&Options::default());
    assert!(
        s.contains("45 at a maximum speed of 10; each +1 of maximum costs 3 points"),
        "{s}"
    );
}
