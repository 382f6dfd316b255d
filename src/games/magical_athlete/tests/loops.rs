//! Loops across turns: default policies that would swap or warp
//! racers back and forth forever. The rulebook's loop rule ("complete the loop once in the
//! order it takes place, then end it") ends each; no race reaches the turn limit.

use super::*;

/// A scenario where every question takes the documented default, as in `sim`.
fn by_default(racers: &[(Kind, u8)]) -> MagicalAthlete {
    let mut g = mild(racers);
    g.options.auto_roll = true;
    g.options.decision_timeout = DecisionWindow::Seconds(0);
    g
}

/// The race in `g` after running it on `dice`, every prompt (turns too) left to its
/// default: over, and not by the turn limit.
fn ends_normally(g: &mut MagicalAthlete, dice: &[u8]) -> String {
    let mut events = go(g, dice);
    while g.waiting().is_some() {
        events.extend(g.answer_by_default());
    }
    let text = told(g, &events);
    let race = g.race().expect("a race");
    assert!(race.over, "the race ended:\n{text}");
    assert!(!race.capped, "the race hit the turn limit");
    assert_eq!(race.placings.len(), 2, "two racers crossed");
    text
}

#[test]
fn flip_flop_and_a_copycat_of_it_swap_once_each_then_roll() {
    // Flip Flop swaps with the leader 4+ ahead; Copycat, now behind, copies Flip Flop (the
    // leader) and swaps back. That restores the board: the loop has completed once, so
    // Flip Flop may not swap to the same board again and rolls.
    let mut g = by_default(&[(Kind::FlipFlop, 5), (Kind::Copycat, 10)]);
    let text = ends_normally(&mut g, &[3; 200]);
    let lines: Vec<&str> = text.lines().collect();
    let first_roll = lines
        .iter()
        .position(|l| l.contains("rolls 3"))
        .expect("somebody rolls");
    let before: Vec<&&str> = lines[..first_roll]
        .iter()
        .filter(|l| l.contains("warps") || l.contains("loop"))
        .collect();
    assert_eq!(
        before,
        [
            &"P1's Flip Flop warps 5 → 10 (Flip Flop's power).",
            &"P2's Copycat warps 10 → 5 (Flip Flop's power).",
            &"P2's Copycat warps 5 → 10 (with Flip Flop's power).",
            &"P1's Flip Flop warps 10 → 5 (Copycat, with Flip Flop's power).",
            &"That's a loop: it ends here (Flip Flop swapping with Copycat again).",
        ],
        "{text}"
    );
}

#[test]
fn a_live_flip_flop_is_not_offered_the_swap_that_repeats_the_loop() {
    let mut g = mild(&[(Kind::FlipFlop, 5), (Kind::Copycat, 10)]);
    go(&mut g, &[4]);
    assert!(choices(&g).contains(&"flip copycat".to_string()));
    say(&mut g, "flip copycat");
    say(&mut g, "flip flipflop");
    assert_eq!((at(&g, Kind::FlipFlop), at(&g, Kind::Copycat)), (5, 10));
    assert_eq!(choices(&g), ["roll"], "{}", asked(&g));
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::FlipFlop), 9);
}

#[test]
fn hypnotist_and_a_copycat_of_it_stop_pulling_each_other_back() {
    // Each pulls the other back to its own space and runs ahead by a roll: the board after
    // each pull is the same (both on 5). Each pull happens once; then the Hypnotist rolls.
    let mut g = by_default(&[(Kind::Hypnotist, 5), (Kind::Copycat, 10)]);
    let text = ends_normally(&mut g, &[2; 400]);
    assert!(
        text.contains(
            "That's a loop: it ends here (Hypnotist warping Copycat to its space again)."
        ),
        "{text}"
    );
}

#[test]
fn an_egg_with_flip_flops_power_and_flip_flop_end_their_loop_too() {
    let mut g = by_default(&[(Kind::FlipFlop, 5), (Kind::Egg, 10), (Kind::Legs, 0)]);
    g.race_mut().unwrap().racers[1].picked = Some(Kind::FlipFlop);
    ends_normally(&mut g, &[3; 400]);
}

#[test]
fn a_copycat_of_the_stickler_does_not_hold_the_stickler_back() {
    // Coach gives everyone on 29 +1, so nobody can move exactly 1. The Copycat copies the
    // Stickler (tied in the lead); if each held the other back, nobody could ever cross.
    // The original's power wins: the Stickler may overshoot.
    let mut g = by_default(&[(Kind::Stickler, 29), (Kind::Copycat, 29), (Kind::Coach, 29)]);
    let text = ends_normally(&mut g, &[5; 60]);
    assert!(
        text.contains("P1's Stickler crosses the finish line: 1st!"),
        "{text}"
    );
}
