//! The board (the standard one, start lanes, custom boards) and movement: lane changes,
//! curves, blocking, Move First and position order.

use super::*;

#[test]
fn the_standard_board_matches_the_reference() {
    let g = race_with(Options::default(), &["A", "B"]);
    let c = g.course();
    assert_eq!(c.lanes(), 8);
    // About forty spaces a lap inside; the curves grow outward, the straights do not.
    assert_eq!(c.lap_len(1), 40);
    assert_eq!(c.lap_len(8), 54);
    assert!((1..8).all(|l| c.lap_len(l) < c.lap_len(l + 1)));
    // 3 3/4 laps: the start is three quarters of a lap before the line, and the lap
    // counter starts at 3.
    assert_eq!(c.length(), 150);
    assert_eq!(g.laps_left(), 3);
    // One runner per lane on the straight start line.
    let mut lanes: Vec<u8> = g.runners().iter().map(|r| r.spot.lane).collect();
    lanes.sort();
    lanes.dedup();
    assert_eq!(lanes.len(), 2);
    for r in g.runners() {
        assert_eq!(c.place(r.spot).section, BACK);
        assert_eq!(c.place(r.spot).index, 0);
    }
}

#[test]
fn start_lanes_are_drawn_at_random() {
    let names = ["A", "B", "C", "D", "E", "F", "G", "H"];
    let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
    let lane_of_a: std::collections::BTreeSet<u8> = (0..40)
        .map(|s| {
            FifteenHundred::setup(&Options::default(), &seats, Seed::from_u64(s))
                .unwrap()
                .runners()[0]
                .spot
                .lane
        })
        .collect();
    assert!(lane_of_a.len() >= 6, "{lane_of_a:?}");
}

#[test]
fn a_custom_board_is_read_from_options_and_bad_boards_are_refused() {
    let text = board::DEFAULT_BOARD.replace("spaces = [10]", "spaces = [12]");
    let options = Options {
        board: Some(text),
        ..Options::default()
    };
    let g = race_with(options, &["A", "B"]);
    assert_eq!(g.course().lap_len(1), 44);
    let bad = board::DEFAULT_BOARD.replacen(
        "spaces = [10, 11, 12, 13, 14, 15, 16, 17]",
        "spaces = [10, 11]",
        1,
    );
    let e = FifteenHundred::check_options(&Options {
        board: Some(bad),
        ..Options::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("one space count per lane"), "{e}");
    let e = board::Board::parse("lanes = 8").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("the board file is not valid TOML"),
        "{e}"
    );
}

#[test]
fn lane_changes_on_a_straight_cost_1_inward_and_2_outward() {
    let mut g = live(&["A", "B"]);
    let at = [
        ("A", spot(&g, 4, BACK, 0, 1)),
        ("B", spot(&g, 8, CURVE1, 0, 0)),
    ];
    place(&mut g, &at);
    live_to_move(&mut g, &[("A", "card 8 bid 1"), ("B", "card 8 bid 1")]);
    // A leads, so A moves first. In: one forward and one in for 1. Out: 2.
    assert_eq!(g.pending().seats, vec![seat(&g, "A")]);
    let c = g.course().clone();
    let inward = c.label(spot(&g, 3, BACK, 1, 1));
    let outward = c.label(spot(&g, 5, BACK, 1, 1));
    let far_out = c.label(spot(&g, 8, BACK, 4, 1));
    // Four diagonals out cost 8: exactly the card.
    read_order(&g, seat(&g, "A"), &format!("move to {far_out}")).unwrap();
    let too_far = c.label(spot(&g, 8, BACK, 5, 1));
    let e = refused(&g, "A", &format!("move to {too_far}"));
    assert!(e.contains("can't reach"), "{e}");
    let mut probe = g.clone();
    let ev = play(&mut probe, &[("A", &format!("move to {inward}"))]);
    assert_eq!(moves(&probe, &ev, Phase::Cards)[0].3, 1);
    let mut probe = g.clone();
    let ev = play(&mut probe, &[("A", &format!("move to {outward}"))]);
    assert_eq!(moves(&probe, &ev, Phase::Cards)[0].3, 2);
    // The far inside: four lanes in and four more forward for 8.
    let ev = play(&mut g, &[("A", "move farthest lane<=1")]);
    let (_, _, to, cost) = moves(&g, &ev, Phase::Cards)[0];
    assert_eq!((to.lane, cost), (1, 8));
    assert_eq!(to, spot(&g, 1, BACK, 8, 1));
}

#[test]
fn on_curves_a_lane_change_goes_to_the_more_forward_space() {
    let mut g = live(&["A", "B"]);
    let at = [
        ("A", spot(&g, 1, CURVE1, 3, 1)),
        ("B", spot(&g, 4, CURVE1, 3, 1)),
    ];
    place(&mut g, &at);
    live_to_move(&mut g, &[("A", "card 8 bid 1"), ("B", "card 8 bid 1")]);
    assert_eq!(g.pending().seats, vec![seat(&g, "A")]);
    let c = g.course().clone();
    // The space ahead of lane 1's 4th is lane 1's 5th, [0.4, 0.5) of the curve; beside it
    // in lane 2 (11 spaces) are the 5th and 6th: the diagonal goes to the 6th.
    let near = c.label(spot(&g, 2, CURVE1, 4, 1));
    let far = c.label(spot(&g, 2, CURVE1, 5, 1));
    assert_eq!(
        c.diagonal(spot(&g, 1, CURVE1, 3, 1), 2),
        Some(spot(&g, 2, CURVE1, 5, 1))
    );
    // And back in: from lane 2's 5th the diagonal lands on lane 1's 6th.
    assert_eq!(
        c.diagonal(spot(&g, 2, CURVE1, 4, 1), 1),
        Some(spot(&g, 1, CURVE1, 5, 1))
    );
    let ev = play(&mut g.clone(), &[("A", &format!("move to {far}"))]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Moved { cost: 2, .. }))
            .count(),
        1
    );
    // Lane 2's 5th space can only be reached by going round: out (2) and nothing else fits
    // before it, so 2 points cannot reach it... but 8 can't either: it lies behind.
    let e = refused(&g, "A", &format!("move to {near}"));
    assert!(e.contains("can't reach"), "{e}");
}

#[test]
fn runners_block_and_move_first_passes_through_but_never_ends_on_them() {
    let mut g = race_with(Options::default(), &["A", "B", "C"]);
    // A is boxed: B straight ahead, C on the diagonal outside.
    let at = [
        ("A", spot(&g, 1, BACK, 0, 1)),
        ("B", spot(&g, 1, BACK, 1, 1)),
        ("C", spot(&g, 2, BACK, 1, 1)),
    ];
    place(&mut g, &at);
    let ev = play(
        &mut g,
        &[
            ("A", "card 11 bid 1 actions none move farthest"),
            ("B", "card 8 bid 2 actions safe4 move none"),
            ("C", "card 8 bid 3 actions safe3 move none"),
        ],
    );
    // A cannot move at all, and keeps its points unspent.
    let a = moves(&g, &ev, Phase::Cards)
        .into_iter()
        .find(|m| m.0 == "A")
        .unwrap();
    assert_eq!((a.1, a.2, a.3), (at[0].1, at[0].1, 0));
    // Next round, with Move First, A runs through B's space. Move First with a single
    // point could only end on B's space, so it stays.
    place(&mut g, &at);
    let mut one = g.clone();
    let ev = play(
        &mut one,
        &[
            ("A", "card 8 bid 8 actions first move 1"),
            ("B", "card 9 bid 2 move none"),
            ("C", "card 9 bid 3 move none"),
        ],
    );
    let a = moves(&one, &ev, Phase::Cards)[0].clone();
    assert_eq!(a.0, "A");
    assert_eq!(a.2, at[0].1);
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 8 actions first move farthest"),
            ("B", "card 9 bid 2 move none"),
            ("C", "card 9 bid 3 move none"),
        ],
    );
    let a = moves(&g, &ev, Phase::Cards)[0].clone();
    assert_eq!(a.0, "A");
    // 8 + 1 points straight down lane 1, through B.
    assert_eq!(a.2, spot(&g, 1, BACK, 9, 1));
    assert_eq!(a.3, 9);
}

#[test]
fn position_order_on_curves_counts_to_the_middle_then_to_the_end() {
    let mut g = race_with(Options::default(), &["X", "Y", "Z", "P", "Q"]);
    let at = [
        // First half: 3 to the middle in lane 1 (half 5) and in lane 4 (half 7): a tie, so
        // the inner lane is ahead; lane 8 at 7 of half 9 has 2 to go and leads them.
        ("X", spot(&g, 1, CURVE2, 2, 1)),
        ("Y", spot(&g, 4, CURVE2, 4, 1)),
        ("Z", spot(&g, 8, CURVE2, 7, 1)),
        // Second half: lane 1's 7th has 4 to the end, lane 3's 10th (of 12) has 3.
        ("P", spot(&g, 1, CURVE2, 6, 1)),
        ("Q", spot(&g, 3, CURVE2, 9, 1)),
    ];
    place(&mut g, &at);
    let order: Vec<String> = g
        .public_view()
        .runners
        .iter()
        .map(|r| r.name.clone())
        .collect();
    assert_eq!(order, ["Q", "P", "Z", "X", "Y"]);
    // Movement follows that order (nobody takes Move First).
    let ev = play(
        &mut g,
        &[
            ("X", "card 8 bid 1 actions safe3,none"),
            ("Y", "card 8 bid 2 actions safe4,none"),
            ("Z", "card 8 bid 3 actions safe3,none"),
            ("P", "card 8 bid 4 actions safe4,none"),
            ("Q", "card 8 bid 5 actions pace1,none"),
        ],
    );
    assert_eq!(
        mover_names(&g, &ev, Phase::Cards),
        ["Q", "P", "Z", "X", "Y"]
    );
}

/// A lapped runner's space is a space like any other: the security zone is the board's
/// space, whatever lap each runner is on.
#[test]
fn a_runner_a_lap_ahead_neither_passes_through_nor_ends_on_a_lapped_runner() {
    let mut g = race_with(Options::default(), &["A", "B", "C"]);
    // A is a lap ahead of B and C, and boxed by them: B straight ahead, C on the diagonal
    // outside, both on the lap before.
    let at = [
        ("A", spot(&g, 1, BACK, 0, 2)),
        ("B", spot(&g, 1, BACK, 1, 1)),
        ("C", spot(&g, 2, BACK, 1, 1)),
    ];
    place(&mut g, &at);
    // Placing a runner on a lapped runner's space is refused too.
    let b = idx(&g, "B");
    let on_a = Spot { lap: 1, ..at[0].1 };
    assert!(g.clone().place_runner(b, on_a).is_err());
    let ev = play(
        &mut g,
        &[
            ("A", "card 11 bid 1 actions none move farthest"),
            ("B", "card 8 bid 2 actions safe4 move none"),
            ("C", "card 8 bid 3 actions safe3 move none"),
        ],
    );
    let a = moves(&g, &ev, Phase::Cards)
        .into_iter()
        .find(|m| m.0 == "A")
        .unwrap();
    assert_eq!((a.1, a.2, a.3), (at[0].1, at[0].1, 0), "A ran through");
    // One point straight ahead could only end on B's space: A stays.
    place(&mut g, &at);
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 1 actions none move 1"),
            ("B", "card 9 bid 2 actions safe4 move none"),
            ("C", "card 9 bid 3 actions safe3 move none"),
        ],
    );
    let a = moves(&g, &ev, Phase::Cards)
        .into_iter()
        .find(|m| m.0 == "A")
        .unwrap();
    assert_eq!(a.2, at[0].1, "A ended on the lapped runner's space");
    // Move First passes through the lapped runner, as through any runner.
    place(&mut g, &at);
    let ev = play(
        &mut g,
        &[
            ("A", "card 9 bid 8 actions first move farthest"),
            ("B", "card 10 bid 2 move none"),
            ("C", "card 10 bid 3 move none"),
        ],
    );
    // 9 + 1 points straight down lane 1, through B, to the second curve's first space.
    let a = moves(&g, &ev, Phase::Cards)[0].clone();
    assert_eq!(a.0, "A");
    assert_eq!((a.2, a.3), (spot(&g, 1, CURVE2, 0, 2), 10));
}

/// Live play: the lapped runner's space is not among the spaces a runner may name.
#[test]
fn a_lapped_runners_space_cannot_be_named_in_live_play() {
    let mut g = live(&["A", "B"]);
    let at = [
        ("A", spot(&g, 3, BACK, 0, 2)),
        ("B", spot(&g, 3, BACK, 3, 1)),
    ];
    place(&mut g, &at);
    live_to_move(&mut g, &[("A", "card 8 bid 1"), ("B", "card 8 bid 1")]);
    assert_eq!(g.pending().seats, vec![seat(&g, "A")]);
    let on_b = g.course().label(spot(&g, 3, BACK, 3, 2));
    let e = refused(&g, "A", &format!("move to {on_b}"));
    assert!(e.contains("can't reach"), "{e}");
    // Round it, outside, the space beyond is fair.
    let beyond = g.course().label(spot(&g, 3, BACK, 4, 2));
    read_order(&g, seat(&g, "A"), &format!("move to {beyond}")).unwrap();
}
