//! 1500m's rulebook example, one scenario test per rule (each through the parser a player
//! uses), and the random-simulation tests.

use super::board::Spot;
use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{OrderError, read_order};

const BACK: usize = 1;
const CURVE1: usize = 0;
const CURVE2: usize = 2;
const HOME: usize = 3;

fn race_with(options: Options, names: &[&str]) -> FifteenHundred {
    let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
    FifteenHundred::setup(&options, &seats, Seed::from_u64(11)).unwrap()
}

fn idx(g: &FifteenHundred, name: &str) -> usize {
    g.runner_named(name).unwrap()
}

fn seat(g: &FifteenHundred, name: &str) -> Seat {
    Seat(idx(g, name) as u8)
}

fn spot(g: &FifteenHundred, lane: u8, section: usize, index: u16, lap: u8) -> Spot {
    g.course().spot_in(lane, section, index, lap)
}

/// Places runners (two passes, so they may swap lanes).
fn place(g: &mut FifteenHundred, at: &[(&str, Spot)]) {
    for (n, (name, _)) in at.iter().enumerate() {
        let i = idx(g, name);
        let park = Spot {
            lane: 8,
            lap: g.course().finish_lap() - 1,
            pos: n as u16,
        };
        g.place_runner(i, park).unwrap();
    }
    for (name, s) in at {
        let i = idx(g, name);
        g.place_runner(i, *s).unwrap();
    }
}

fn set(g: &mut FifteenHundred, name: &str, strength: u16, pace: u8) {
    let i = idx(g, name);
    g.set_runner(i, Some(strength), Some(pace), None, None)
        .unwrap();
}

/// Orders through the player's parser; everyone pending who is not listed misses.
fn play(g: &mut FifteenHundred, orders: &[(&str, &str)]) -> Vec<Event> {
    let mut subs: Vec<Submitted<Order>> = orders
        .iter()
        .map(|(n, t)| {
            let s = seat(g, n);
            let o = read_order(g, s, t).unwrap_or_else(|e| panic!("{n}: {t}: {e}"));
            Submitted::new(s, o)
        })
        .collect();
    for s in g.pending().seats {
        if !subs.iter().any(|o| o.seat == s) {
            subs.push(Submitted::missed(s, g.default_order(s)));
        }
    }
    g.apply(&subs)
}

fn refused(g: &FifteenHundred, name: &str, text: &str) -> String {
    match read_order(g, seat(g, name), text) {
        Err(OrderError::Illegal(e)) | Err(OrderError::Syntax(e)) => e,
        other => panic!("{text} was not refused: {other:?}"),
    }
}

fn moves(g: &FifteenHundred, events: &[Event], phase: Phase) -> Vec<(String, Spot, Spot, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                runner,
                phase: p,
                from,
                to,
                cost,
                ..
            } if *p == phase => Some((g.runners()[*runner].name.clone(), *from, *to, *cost)),
            _ => None,
        })
        .collect()
}

fn mover_names(g: &FifteenHundred, events: &[Event], phase: Phase) -> Vec<String> {
    moves(g, events, phase).into_iter().map(|m| m.0).collect()
}

fn strength(g: &FifteenHundred, name: &str) -> u16 {
    g.runners()[idx(g, name)].strength
}

fn pace(g: &FifteenHundred, name: &str) -> u8 {
    g.runners()[idx(g, name)].pace
}

// ---------------------------------------------------------------------------------------
// The rulebook's round example.

const EXAMPLE: [&str; 6] = ["Purple", "Yellow", "White", "Blue", "Green", "Red"];

fn example() -> FifteenHundred {
    let mut g = race_with(Options::default(), &EXAMPLE);
    // Yellow and Purple level (Purple outside), Blue ahead of White, Red ahead of Green.
    let at = [
        ("Red", spot(&g, 1, BACK, 6, 1)),
        ("Yellow", spot(&g, 2, BACK, 4, 1)),
        ("Purple", spot(&g, 3, BACK, 4, 1)),
        ("Blue", spot(&g, 4, BACK, 2, 1)),
        ("Green", spot(&g, 5, BACK, 1, 1)),
        ("White", spot(&g, 6, BACK, 0, 1)),
    ];
    place(&mut g, &at);
    for (name, p) in [
        ("Red", 8),
        ("Yellow", 9),
        ("Purple", 10),
        ("Blue", 10),
        ("Green", 7),
        ("White", 6),
    ] {
        set(&mut g, name, 50, p);
    }
    g
}

fn example_orders() -> [(&'static str, &'static str); 6] {
    [
        ("Purple", "card 9 bid 4 actions move3 pace -3"),
        // Purple takes Move +3 first, so Yellow's list falls through to Move +2.
        ("Yellow", "card 10 bid 4 actions move3,move2 pace +1"),
        ("White", "card 8 bid 3 actions first pace keep"),
        // White chooses before Blue and takes Move First; Blue falls through to Safe 4.
        ("Blue", "card 9 bid 3 actions first,safe4 pace -1"),
        ("Green", "card 9 bid 2 actions pace2 pace +1"),
        ("Red", "card 11 bid 2 actions move3 pace +1"),
    ]
}

#[test]
fn rulebook_round_example_bids_ties_and_actions() {
    let mut g = example();
    let events = play(&mut g, &example_orders());
    let names =
        |v: &[usize]| -> Vec<String> { v.iter().map(|&i| g.runners()[i].name.clone()).collect() };
    let Some(Event::BidsRevealed {
        order, left_out, ..
    }) = events
        .iter()
        .find(|e| matches!(e, Event::BidsRevealed { .. }))
    else {
        panic!("no bids: {events:?}");
    };
    // 4s: Purple (outside, so worse placed) before Yellow; 3s: White before Blue; 2s: Green
    // before Red, and Red, the lowest, gets nothing.
    assert_eq!(names(order), ["Purple", "Yellow", "White", "Blue", "Green"]);
    assert_eq!(
        left_out.map(|i| g.runners()[i].name.clone()),
        Some("Red".into())
    );
    let taken: Vec<(String, Option<Action>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::ActionTaken { runner, action } => {
                Some((g.runners()[*runner].name.clone(), *action))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        taken,
        vec![
            ("Purple".into(), Some(Action::Move3)),
            ("Yellow".into(), Some(Action::Move2)),
            ("White".into(), Some(Action::MoveFirst)),
            ("Blue".into(), Some(Action::Safe4)),
            ("Green".into(), Some(Action::Pace2)),
        ]
    );
    // White, with Move First, moves before the leader (Red).
    let cards = mover_names(&g, &events, Phase::Cards);
    assert_eq!(cards.first().map(String::as_str), Some("White"));
    assert_eq!(cards.get(1).map(String::as_str), Some("Red"));
    // Moves add the action's points to the card: Purple 9+3, Yellow 10+2, White 8+1.
    let points: Vec<(String, u8)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                runner,
                phase: Phase::Cards,
                points,
                ..
            } => Some((g.runners()[*runner].name.clone(), *points)),
            _ => None,
        })
        .collect();
    for (name, p) in [
        ("Purple", 12),
        ("Yellow", 12),
        ("White", 9),
        ("Red", 11),
        ("Green", 9),
        ("Blue", 9),
    ] {
        assert!(
            points.contains(&(name.to_string(), p)),
            "{name}: {points:?}"
        );
    }
}

#[test]
fn rulebook_round_example_pace_changes_and_costs() {
    let mut g = example();
    let events = play(&mut g, &example_orders());
    let paces: Vec<(String, u8, u8, u16)> = events
        .iter()
        .filter_map(|e| match e {
            Event::PaceSet {
                runner,
                from,
                to,
                cost,
                ..
            } => Some((g.runners()[*runner].name.clone(), *from, *to, *cost)),
            _ => None,
        })
        .collect();
    // The book's list, in its order (position order after the cards phase). Green's free
    // action took it from 7 to 9 (our ruling: it took Pace +2), so +1 makes 10.
    assert_eq!(
        paces,
        vec![
            ("Red".into(), 8, 9, 5),
            ("Yellow".into(), 9, 10, 6),
            ("Purple".into(), 10, 7, 2),
            ("Blue".into(), 10, 9, 4),
            ("Green".into(), 9, 10, 6),
            ("White".into(), 6, 6, 2),
        ]
    );
    // Each runs its new level's points.
    for m in events.iter() {
        if let Event::Moved {
            runner,
            phase: Phase::Pace,
            points,
            ..
        } = m
        {
            assert_eq!(*points, g.runners()[*runner].pace);
        }
    }
    // Bids are paid by everyone, Red included; Blue recovered 4; the leader pays 2.
    let leader = g.standings()[0];
    let lead = |name: &str| u16::from(g.runners()[leader].name == name) * 2;
    assert_eq!(strength(&g, "Purple"), 50 - 4 - 2 - lead("Purple"));
    assert_eq!(strength(&g, "Yellow"), 50 - 4 - 6 - lead("Yellow"));
    assert_eq!(strength(&g, "White"), 50 - 3 - 2 - lead("White"));
    assert_eq!(strength(&g, "Blue"), 50 - 3 + 4 - 4 - lead("Blue"));
    assert_eq!(strength(&g, "Green"), 50 - 2 - 6 - lead("Green"));
    assert_eq!(strength(&g, "Red"), 50 - 2 - 5 - lead("Red"));
    // Bid cards come back; the movement cards played do not.
    assert_eq!(g.runners()[idx(&g, "Red")].hand, vec![8, 9, 10]);
    assert_eq!(g.private_view(seat(&g, "Red")).bid_cards.len(), 8);
}

/// The race chart's history: after each round the view holds the field in place order
/// with each player's mental strength, and the board and spaces it was run on.
#[test]
fn the_view_keeps_each_rounds_field_for_the_race_chart() {
    let mut g = example();
    assert!(g.public_view().history.is_empty());
    play(&mut g, &example_orders());
    let v = g.public_view();
    assert_eq!(v.history.len(), 1);
    let record = &v.history[0];
    assert_eq!(record.round, 1);
    assert_eq!(record.order, g.full_order());
    for r in &v.runners {
        assert_eq!(record.strength[r.runner], r.strength);
        assert_eq!(r.spot, Some(g.runners()[r.runner].spot));
    }
    assert_eq!(v.layout.as_ref(), Some(&g.course().board));
    play(&mut g, &[]);
    assert_eq!(g.public_view().history.len(), 2);
    assert_eq!(g.public_view().history[1].round, 2);
}

// ---------------------------------------------------------------------------------------
// The board.

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

// ---------------------------------------------------------------------------------------
// Movement.

fn live(names: &[&str]) -> FifteenHundred {
    race_with(
        Options {
            play: PlayMode::Live,
            ..Options::default()
        },
        names,
    )
}

/// Live play up to `mover`'s cards-phase move: bids with the given cards, no actions.
fn live_to_move(g: &mut FifteenHundred, cards: &[(&str, &str)]) {
    play(g, cards);
    while g.step() == Step::Action {
        let s = g.pending().seats[0];
        let o = read_order(g, s, "action none").unwrap();
        g.apply(&[Submitted::new(s, o)]);
    }
    assert_eq!(g.step(), Step::Move);
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

// ---------------------------------------------------------------------------------------
// Bids, actions and mental strength.

#[test]
fn at_zero_mental_strength_a_runner_cannot_bid_is_not_the_lowest_and_pays_in_movement() {
    let mut g = race_with(Options::default(), &["Tired", "B", "C"]);
    let at = [
        ("Tired", spot(&g, 1, BACK, 0, 1)),
        ("B", spot(&g, 3, HOME, 0, 1)),
        ("C", spot(&g, 4, HOME, 0, 1)),
    ];
    place(&mut g, &at);
    set(&mut g, "Tired", 3, 10);
    // Pace 10 costs 6: Tired pays its 3 and owes 3 movement points.
    let ev = play(
        &mut g,
        &[
            ("Tired", "card 8 bid 1 actions none pace keep"),
            ("B", "card 8 bid 2 actions none"),
            ("C", "card 8 bid 3 actions none"),
        ],
    );
    assert!(ev.contains(&Event::PaceSet {
        runner: idx(&g, "Tired"),
        from: 10,
        to: 10,
        cost: 6,
        paid: 2
    }));
    assert_eq!(strength(&g, "Tired"), 0);
    assert_eq!(g.runners()[idx(&g, "Tired")].penalty, 4);
    // Now it cannot bid.
    let e = refused(&g, "Tired", "card 10 bid 2");
    assert!(e.contains("no mental strength left"), "{e}");
    assert!(g.private_view(seat(&g, "Tired")).bid_cards.is_empty());
    let ev = play(
        &mut g,
        &[
            ("Tired", "card 10 pace keep"),
            ("B", "card 9 bid 2 actions safe3"),
            ("C", "card 9 bid 3 actions safe4"),
        ],
    );
    // B bid lowest and gets nothing: Tired is not counted.
    let left_out = ev.iter().find_map(|e| match e {
        Event::BidsRevealed { left_out, bids, .. } => {
            assert_eq!(bids.len(), 2);
            *left_out
        }
        _ => None,
    });
    assert_eq!(left_out, Some(idx(&g, "B")));
    // Card 10 less the 4 owed.
    let tired = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved {
                runner,
                phase: Phase::Cards,
                points,
                penalty,
                ..
            } if *runner == idx(&g, "Tired") => Some((*points, *penalty)),
            _ => None,
        })
        .unwrap();
    assert_eq!(tired, (6, 4));
    // And in the pace phase it drops to 5 at once, whatever it asked.
    assert_eq!(pace(&g, "Tired"), 5);
}

#[test]
fn a_lone_bidder_still_gets_an_action() {
    let mut g = race_with(Options::default(), &["A", "B"]);
    set(&mut g, "B", 0, 5);
    let ev = play(
        &mut g,
        &[("A", "card 8 bid 1 actions safe4"), ("B", "card 8")],
    );
    assert!(ev.contains(&Event::ActionTaken {
        runner: idx(&g, "A"),
        action: Some(Action::Safe4)
    }));
}

#[test]
fn bids_are_checked_against_the_hand_and_mental_strength() {
    let mut g = race_with(Options::default(), &["A", "B"]);
    set(&mut g, "A", 5, 5);
    let e = refused(&g, "A", "card 10 bid 6");
    assert_eq!(e, "you have 5 mental strength, so you can bid at most 5");
    let e = refused(&g, "A", "card 10 bid 9");
    assert_eq!(e, "bid cards run from 1 to 8, not 9");
    let e = refused(&g, "A", "card 10 bid none");
    assert!(
        e.contains("every runner with mental strength plays a bid card"),
        "{e}"
    );
    let e = refused(&g, "A", "card 12 bid 1");
    assert_eq!(e, "card 12 isn't in your hand; you hold 8, 9, 10, 11");
    let e = refused(&g, "A", "card 9 bid 1 move to 3:4");
    assert!(e.contains("can't name a space"), "{e}");
    let e = refused(&g, "A", "card 9 bid 1 pace 7");
    assert_eq!(
        e,
        "you are at pace 5: you can go up one level at most, to 6"
    );
    let e = refused(&g, "A", "card 9 bid 1 move farthest lane<=9");
    assert_eq!(e, "the track has lanes 1 to 8, not 9");
    let e = refused(&g, "A", "card 9 bid 1 sprint");
    assert!(e.starts_with("I don't know the word `sprint` here"), "{e}");
    // Played cards leave the hand until all four are spent.
    set(&mut g, "A", 50, 5);
    for (n, card) in [8, 9, 10, 11].iter().enumerate() {
        let text = format!("card {card} bid 1");
        play(&mut g, &[("A", &text), ("B", &text)]);
        if n < 3 {
            assert!(!g.runners()[0].hand.contains(card));
            let e = refused(&g, "A", &format!("card {card} bid 1"));
            assert!(e.contains("isn't in your hand"), "{e}");
        }
    }
    assert_eq!(g.runners()[0].hand, vec![8, 9, 10, 11]);
}

#[test]
fn free_actions_are_capped_by_the_tracks() {
    let options = Options {
        pace_costs: vec![0, 2, 3, 4, 5, 6],
        ..Options::default()
    };
    let mut g = race_with(options, &["A", "B", "C"]);
    set(&mut g, "A", 99, 9);
    set(&mut g, "B", 99, 10);
    // The book's table alone stops at level 10.
    let e = refused(&g, "B", "card 8 bid 1 pace +1");
    assert_eq!(e, "you are already at the top pace, 10");
    play(
        &mut g,
        &[
            ("A", "card 8 bid 3 actions pace2 pace keep"),
            ("B", "card 8 bid 2 actions safe4 pace keep"),
            ("C", "card 8 bid 1"),
        ],
    );
    // Pace +2 from 9 stops at 10; Safe 4 from 97 stops at the starting 100.
    assert_eq!(pace(&g, "A"), 10);
    assert_eq!(
        strength(&g, "B"),
        100 - 6 - 2 * u16::from(g.standings()[0] == 1)
    );
}

#[test]
fn pace_down_costs_one_less_and_level_5_recovers_nothing() {
    let mut g = race_with(Options::default(), &["A", "B"]);
    set(&mut g, "A", 50, 9);
    set(&mut g, "B", 50, 7);
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 1 actions none pace 5"),
            ("B", "card 8 bid 1 actions none pace -1"),
        ],
    );
    let costs: Vec<(usize, u8, u16)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::PaceSet {
                runner, to, cost, ..
            } => Some((*runner, *to, *cost)),
            _ => None,
        })
        .collect();
    assert!(costs.contains(&(0, 5, 0)), "{costs:?}");
    assert!(costs.contains(&(1, 6, 1)), "{costs:?}");
}

#[test]
fn a_missed_order_plays_the_lowest_bid_the_card_keeping_options_and_affordable_pace() {
    let mut g = race_with(Options::default(), &["A", "B"]);
    set(&mut g, "A", 4, 10);
    let Order::Round(d) = g.default_order(seat(&g, "A")) else {
        panic!()
    };
    assert_eq!(d.bid, Some(1));
    // 9 leaves 8, 10 and 11: the widest spread, and the lower of 9 and 10.
    assert_eq!(d.card, 9);
    assert_eq!(options_card(&[8, 10, 11]), 10);
    assert_eq!(options_card(&[8, 11]), 8);
    assert_eq!(d.pace, PaceIntent::Afford);
    let ev = play(&mut g, &[("B", "card 8 bid 2")]);
    assert!(ev.contains(&Event::Missed { runner: 0 }));
    // With 3 left after its bid, pace 10 (6) is too dear; dropping to 7 costs 3 - 1 = 2,
    // to 8 costs 4 - 1 = 3: it drops to 8.
    assert_eq!(pace(&g, "A"), 8);
}

// ---------------------------------------------------------------------------------------
// Robots.

#[test]
fn robots_share_a_card_do_not_bid_pace_with_the_fastest_player_and_pay_nothing() {
    let options = Options {
        robots: 2,
        ..Options::default()
    };
    let mut g = race_with(options, &["Ann", "Bob"]);
    let at = [
        ("Robot 1", spot(&g, 1, BACK, 5, 1)),
        ("Robot 2", spot(&g, 3, BACK, 0, 1)),
        ("Ann", spot(&g, 5, BACK, 0, 1)),
        ("Bob", spot(&g, 6, BACK, 0, 1)),
    ];
    place(&mut g, &at);
    set(&mut g, "Ann", 50, 9);
    g.set_robot_deck(&[10, 8, 11, 9]);
    let ev = play(
        &mut g,
        &[
            ("Ann", "card 8 bid 1 pace +1"),
            ("Bob", "card 8 bid 2 pace keep"),
        ],
    );
    let bids = ev.iter().find_map(|e| match e {
        Event::BidsRevealed { bids, .. } => Some(bids.clone()),
        _ => None,
    });
    assert_eq!(bids.map(|b| b.len()), Some(2));
    assert!(ev.contains(&Event::CardsRevealed {
        cards: vec![(0, 8), (1, 8)],
        robot_card: Some(10)
    }));
    // Robot 1 leads: it moves its 10 points farthest, down lane 1.
    let r1 = moves(&g, &ev, Phase::Cards)
        .into_iter()
        .find(|m| m.0 == "Robot 1")
        .unwrap();
    assert_eq!(r1.3, 10);
    assert_eq!(r1.2, spot(&g, 1, CURVE2, 5, 1));
    // In the pace phase Robot 1 moves before Ann has gone up, at the highest level then (9);
    // Robot 2 moves after her, at her new 10.
    let pace_points: Vec<(String, u8)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                runner,
                phase: Phase::Pace,
                points,
                ..
            } => Some((g.runners()[*runner].name.clone(), *points)),
            _ => None,
        })
        .collect();
    let order = mover_names(&g, &ev, Phase::Pace);
    let r1_pos = order.iter().position(|n| n == "Robot 1").unwrap();
    let ann_pos = order.iter().position(|n| n == "Ann").unwrap();
    assert!(r1_pos < ann_pos, "{order:?}");
    assert!(
        pace_points.contains(&("Robot 1".into(), 9)),
        "{pace_points:?}"
    );
    let r2_pos = order.iter().position(|n| n == "Robot 2").unwrap();
    let expect = if r2_pos > ann_pos { 10 } else { 9 };
    assert!(
        pace_points.contains(&("Robot 2".into(), expect)),
        "{pace_points:?}"
    );
    // The leader's cost skips robots; robots have no mental strength at all.
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::ExtraCost { runner, .. } if *runner >= 2))
    );
    assert_eq!(
        g.public_view()
            .runners
            .iter()
            .filter(|r| r.strength.is_none())
            .count(),
        2
    );
    // The deck runs down with the players' hands and comes back with them.
    let mut drawn = vec![10];
    for _ in 0..3 {
        let ev = play(&mut g, &[]);
        for e in &ev {
            if let Event::CardsRevealed {
                robot_card: Some(c),
                ..
            } = e
            {
                drawn.push(*c);
            }
        }
    }
    assert_eq!(drawn, vec![10, 8, 11, 9]);
    assert_eq!(g.public_view().robot_cards_left, vec![8, 9, 10, 11]);
}

// ---------------------------------------------------------------------------------------
// The finish.

#[test]
fn the_leader_crossing_steps_the_lap_counter_and_rings_the_bell() {
    let mut g = race_with(Options::default(), &["A", "B"]);
    let at = [
        ("A", spot(&g, 1, HOME, 8, 2)),
        ("B", spot(&g, 2, BACK, 0, 2)),
    ];
    place(&mut g, &at);
    assert_eq!(g.laps_left(), 1);
    let ev = play(&mut g, &[("A", "card 8 bid 1"), ("B", "card 8 bid 1")]);
    assert!(ev.contains(&Event::LapsLeft { laps: 0 }));
    assert!(g.public_view().bell);
}

#[test]
fn first_across_in_a_phase_wins_and_ties_in_a_phase_go_to_the_better_placed() {
    let mut g = race_with(Options::default(), &["Near", "Far", "Late", "D"]);
    // All on their last lap (3 crossings made).
    let at = [
        ("Near", spot(&g, 1, HOME, 6, 3)),
        ("Far", spot(&g, 2, HOME, 5, 3)),
        ("Late", spot(&g, 3, HOME, 0, 3)),
        ("D", spot(&g, 4, BACK, 0, 3)),
    ];
    place(&mut g, &at);
    let ev = play(
        &mut g,
        &[
            // Near crosses with the fewest points to spare; Far, behind it, runs further
            // along the finish straight and is placed ahead at the end of the phase.
            ("Near", "card 8 bid 1 actions none move 5"),
            ("Far", "card 11 bid 2 actions none move farthest"),
            // Late crosses only in the pace phase, however far it gets.
            ("Late", "card 8 bid 3 actions none pace +1"),
            ("D", "card 8 bid 4 actions none"),
        ],
    );
    let finished: Vec<(String, u8, Phase)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Finished {
                runner,
                place,
                phase,
            } => Some((g.runners()[*runner].name.clone(), *place, *phase)),
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        vec![
            ("Far".into(), 1, Phase::Cards),
            ("Near".into(), 2, Phase::Cards),
            ("Late".into(), 3, Phase::Pace),
        ]
    );
    // Three medals: the race is over, and the straight finish template held them.
    assert!(g.outcome().is_some());
    assert!(ev.iter().any(|e| matches!(e, Event::RaceOver { .. })));
    let o = g.outcome().unwrap();
    let ranks: Vec<(String, u32)> = o
        .placings
        .iter()
        .map(|p| (g.runners()[p.seat.index()].name.clone(), p.rank))
        .collect();
    assert_eq!(
        ranks,
        vec![
            ("Far".into(), 1),
            ("Near".into(), 2),
            ("Late".into(), 3),
            ("D".into(), 4)
        ]
    );
    for r in &g.runners()[..3] {
        assert!(g.course().on_finish_straight(r.spot));
    }
}

#[test]
fn until_all_plays_on_until_every_player_is_home() {
    let options = Options {
        until: Until::All,
        ..Options::default()
    };
    let mut g = race_with(options, &["A", "B", "C", "D"]);
    let at = [
        ("A", spot(&g, 1, HOME, 6, 3)),
        ("B", spot(&g, 2, HOME, 6, 3)),
        ("C", spot(&g, 3, HOME, 6, 3)),
        ("D", spot(&g, 4, CURVE1, 0, 2)),
    ];
    place(&mut g, &at);
    play(&mut g, &[]);
    assert_eq!(g.finish_order().len(), 3);
    assert!(g.outcome().is_none());
    assert_eq!(g.pending().seats, vec![seat(&g, "D")]);
    let mut guard = 0;
    while g.outcome().is_none() && guard < 30 {
        play(&mut g, &[]);
        guard += 1;
    }
    assert_eq!(g.finish_order().len(), 4);
}

// ---------------------------------------------------------------------------------------
// 800 m.

#[test]
fn the_800_starts_staggered_keeps_lanes_through_the_first_curve_and_runs_two_laps() {
    let options = Options {
        distance: board::Distance::M800,
        ..Options::default()
    };
    let mut g = race_with(options, &["A", "B"]);
    assert_eq!(g.laps_left(), 1);
    assert_eq!(g.course().length(), 80);
    for r in g.runners() {
        assert_eq!(r.strength, 50);
        let p = g.course().place(r.spot);
        assert_eq!(p.section, CURVE1);
        // Every lane has ten spaces to run to the end of the first curve.
        assert_eq!(p.len - p.index, 10);
    }
    let at = [
        ("A", spot(&g, 5, CURVE1, 4, 0)),
        ("B", spot(&g, 6, CURVE1, 5, 0)),
    ];
    place(&mut g, &at);
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 1 actions none move farthest lane<=1"),
            ("B", "card 8 bid 2 actions none move farthest lane<=1"),
        ],
    );
    // A runs its curve in lane 5 (10 spaces left there), cutting in only once past it.
    let a = moves(&g, &ev, Phase::Cards)
        .into_iter()
        .find(|m| m.0 == "A")
        .unwrap();
    assert_eq!(a.2.lane, 5);
    assert_eq!(g.course().place(a.2).section, CURVE1);
    let b = moves(&g, &ev, Phase::Cards)
        .into_iter()
        .find(|m| m.0 == "B")
        .unwrap();
    assert_eq!(b.2.lane, 6);
    // In the pace phase both are through the curve and go in.
    let inner: Vec<u8> = moves(&g, &ev, Phase::Pace)
        .iter()
        .map(|m| m.2.lane)
        .collect();
    assert!(inner.iter().all(|&l| l < 5), "{inner:?}");
}

// ---------------------------------------------------------------------------------------
// Advanced rules.

#[test]
fn advanced_wear_and_last_lap_medal_costs() {
    let options = Options {
        advanced: true,
        ..Options::default()
    };
    let mut g = race_with(options, &["A", "B", "C", "D"]);
    let at = [
        ("A", spot(&g, 1, BACK, 9, 3)),
        ("B", spot(&g, 2, BACK, 5, 3)),
        ("C", spot(&g, 3, BACK, 2, 3)),
        ("D", spot(&g, 4, BACK, 0, 3)),
    ];
    place(&mut g, &at);
    assert_eq!(g.laps_left(), 0);
    for (n, s) in [("A", 60), ("B", 40), ("C", 20), ("D", 30)] {
        set(&mut g, n, s, 5);
    }
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 1 actions none move 3 then 3"),
            ("B", "card 8 bid 1 actions none move 3 then 3"),
            ("C", "card 8 bid 1 actions none move 3 then 3"),
            ("D", "card 8 bid 1 actions none move 3 then 3"),
        ],
    );
    let costs: Vec<(String, CostReason, u16)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ExtraCost {
                runner,
                reason,
                cost,
                ..
            } => Some((g.runners()[*runner].name.clone(), *reason, *cost)),
            _ => None,
        })
        .collect();
    assert_eq!(
        costs,
        vec![
            // Wear, after bids of 1: 59 nothing, 39 pays 1, 19 pays 2, 29 pays 1.
            ("B".into(), CostReason::Wear, 1),
            ("C".into(), CostReason::Wear, 2),
            ("D".into(), CostReason::Wear, 1),
            // Then the bell has rung: the top three pay 3, 2 and 1.
            ("A".into(), CostReason::Medal(1), 3),
            ("B".into(), CostReason::Medal(2), 2),
            ("C".into(), CostReason::Medal(3), 1),
        ]
    );
}

#[test]
fn basic_rules_charge_only_the_leader_2() {
    let mut g = race_with(Options::default(), &["A", "B"]);
    let at = [
        ("A", spot(&g, 1, BACK, 9, 1)),
        ("B", spot(&g, 2, BACK, 0, 1)),
    ];
    place(&mut g, &at);
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 1 move 1 then 1"),
            ("B", "card 8 bid 1 move 1 then 1"),
        ],
    );
    let costs: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::ExtraCost { .. }))
        .collect();
    assert_eq!(
        costs,
        vec![&Event::ExtraCost {
            runner: 0,
            reason: CostReason::Leader,
            cost: 2,
            paid: 2
        }]
    );
}

#[test]
fn the_800_wear_bands() {
    let options = Options {
        advanced: true,
        distance: board::Distance::M800,
        ..Options::default()
    };
    let mut g = race_with(options, &["A", "B", "C"]);
    for (n, s) in [("A", 26), ("B", 14), ("C", 13)] {
        set(&mut g, n, s, 5);
    }
    let ev = play(
        &mut g,
        &[
            ("A", "card 8 bid 1"),
            ("B", "card 8 bid 1"),
            ("C", "card 8 bid 1"),
        ],
    );
    let wear: Vec<(usize, u16)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ExtraCost {
                runner,
                reason: CostReason::Wear,
                cost,
                ..
            } => Some((*runner, *cost)),
            _ => None,
        })
        .collect();
    // After bids of 1: 25 pays nothing, 13 pays 1, 12 pays 2.
    assert!(!wear.iter().any(|w| w.0 == 0), "{wear:?}");
    assert!(wear.contains(&(1, 1)), "{wear:?}");
    assert!(wear.contains(&(2, 2)), "{wear:?}");
}

// ---------------------------------------------------------------------------------------
// Live play.

#[test]
fn live_play_asks_each_decision_in_turn_and_keeps_cards_secret_until_the_moves() {
    let mut g = live(&["A", "B", "C"]);
    assert_eq!(g.pending().seats.len(), 3);
    let e = refused(&g, "A", "card 9 bid 2 actions first");
    assert!(e.contains("only the movement card and bid"), "{e}");
    play(
        &mut g,
        &[
            ("A", "card 9 bid 2"),
            ("B", "card 10 bid 5"),
            ("C", "card 11 bid 1"),
        ],
    );
    assert_eq!(g.step(), Step::Action);
    assert_eq!(g.pending().seats, vec![seat(&g, "B")]);
    // Cards are not shown before the moves, except to their owner.
    assert!(g.public_view().runners.iter().all(|r| r.card.is_none()));
    assert_eq!(g.private_view(seat(&g, "B")).chosen_card, Some(10));
    play(&mut g, &[("B", "first")]);
    let e = refused(&g, "A", "action first");
    assert_eq!(e, "Move First has already been taken this round");
    play(&mut g, &[("A", "action move3")]);
    // C bid lowest: no choice for it; the moves begin with B (Move First).
    assert_eq!(g.step(), Step::Move);
    assert_eq!(g.pending().seats, vec![seat(&g, "B")]);
    assert!(g.public_view().runners.iter().all(|r| r.card.is_some()));
    let prompt = g.prompt(seat(&g, "B"));
    assert!(!prompt.choices.is_empty());
    let first = prompt.choices[0].order.clone();
    play(&mut g, &[("B", &first)]);
    while g.step() == Step::Move {
        let s = g.pending().seats[0];
        let o = read_order(&g, s, "move farthest").unwrap();
        g.apply(&[Submitted::new(s, o)]);
    }
    assert_eq!(g.step(), Step::Pace);
    let s = g.pending().seats[0];
    let o = read_order(&g, s, "pace +1 move farthest").unwrap();
    g.apply(&[Submitted::new(s, o)]);
    assert_eq!(g.runners()[s.index()].pace, 6);
}

// ---------------------------------------------------------------------------------------
// Random simulation.

fn occupancy_and_ending(options: Options, players: usize, races: u64) {
    let seats: Vec<SeatSetup> = (0..players)
        .map(|i| SeatSetup::named(format!("P{i}")))
        .collect();
    for n in 0..races {
        let mut g = FifteenHundred::setup(&options, &seats, Seed::from_u64(n)).unwrap();
        let mut rng = GameRng::seeded(n + 1000);
        let mut steps = 0;
        while g.outcome().is_none() {
            let orders: Vec<Submitted<Order>> = g
                .pending()
                .seats
                .iter()
                .map(|&s| {
                    let level = if rng.chance(1, 2) {
                        BotLevel::Random
                    } else {
                        BotLevel::Heuristic
                    };
                    Submitted::new(s, g.bot_order(s, level, &mut rng))
                })
                .collect();
            g.apply(&orders);
            let mut spots: Vec<Spot> = g
                .runners()
                .iter()
                .filter(|r| r.place.is_none())
                .map(|r| r.spot)
                .collect();
            let all = spots.len();
            spots.sort();
            spots.dedup();
            assert_eq!(spots.len(), all, "race {n}: two runners share a space");
            steps += 1;
            assert!(steps < 2_000, "race {n} did not end");
        }
        assert!(g.finish_order().len() >= 3.min(g.runners().len()));
    }
}

#[test]
fn races_always_end_and_no_two_runners_share_a_space() {
    occupancy_and_ending(Options::default(), 8, 150);
    occupancy_and_ending(
        Options {
            robots: 4,
            advanced: true,
            ..Options::default()
        },
        4,
        150,
    );
    occupancy_and_ending(
        Options {
            distance: board::Distance::M800,
            robots: 7,
            ..Options::default()
        },
        1,
        100,
    );
    occupancy_and_ending(
        Options {
            play: PlayMode::Live,
            robots: 2,
            until: Until::All,
            ..Options::default()
        },
        6,
        60,
    );
}

fn spec(options: Options, players: usize, games: u64, every: usize) -> SimSpec<FifteenHundred> {
    let mut s = SimSpec::new(options, players, games);
    s.view_check_every = every;
    s.max_steps = 2_000;
    s
}

#[test]
fn conformance_1500_by_orders() {
    let r = check(&spec(Options::default(), 8, 400, 2)).unwrap();
    assert_eq!(r.games, 400);
    let r = check(&spec(Options::default(), 2, 300, 2)).unwrap();
    assert_eq!(r.games, 300);
}

#[test]
fn conformance_with_robots_and_advanced_rules() {
    let o = Options {
        robots: 3,
        advanced: true,
        ..Options::default()
    };
    let r = check(&spec(o, 5, 400, 2)).unwrap();
    assert_eq!(r.games, 400);
    let o = Options {
        robots: 7,
        until: Until::All,
        ..Options::default()
    };
    let r = check(&spec(o, 1, 300, 2)).unwrap();
    assert_eq!(r.games, 300);
}

#[test]
fn conformance_800() {
    let o = Options {
        distance: board::Distance::M800,
        advanced: true,
        robots: 2,
        ..Options::default()
    };
    let r = check(&spec(o, 6, 400, 2)).unwrap();
    assert_eq!(r.games, 400);
}

#[test]
fn conformance_live_play() {
    let o = Options {
        play: PlayMode::Live,
        robots: 2,
        ..Options::default()
    };
    let r = check(&spec(o, 4, 150, 3)).unwrap();
    assert_eq!(r.games, 150);
}

// ---------------------------------------------------------------------------------------
// Replay scripts.

const EXAMPLE_SCRIPT: &str = include_str!("../../../docs/replay/1500m-example.json");

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
            &"Bids: Purple 4, Yellow 4, White 3, Blue 3, Green 2, Red 2. Actions are chosen by Purple, Yellow, White, Blue, Green. Red bid lowest and gets no action."
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
