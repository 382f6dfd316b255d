//! The rulebook's round example: bids, ties, actions, pace changes and costs, and the
//! field the race chart keeps.

use super::*;

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
    for m in &events {
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
