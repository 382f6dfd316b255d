//! Bids, actions and mental strength: the zero-strength rules, lone bidders, checks on
//! hands and bids, the action tracks, pace changes and missed orders.

use super::*;

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

/// The runner left without an action is told why: the lowest bid, a tie for it, or all
/// bids equal; and the terminal's "You" takes its verbs in the second person.
#[test]
fn the_runner_left_out_is_told_why_and_you_agree() {
    let g = race_with(Options::default(), &["Ann", "You", "Cy"]);
    let (a, y, c) = (idx(&g, "Ann"), idx(&g, "You"), idx(&g, "Cy"));
    let said = |bids: Vec<(usize, u8)>, order: Vec<usize>, left: usize| {
        g.narrate(&Event::BidsRevealed {
            bids,
            order,
            left_out: Some(left),
        })
        .text
    };
    assert_eq!(
        said(vec![(a, 5), (y, 5), (c, 5)], vec![c, a], y),
        "Bids: Ann 5, You 5, Cy 5. Actions are chosen by Cy, Ann. \
         All bids are equal: You, placed best, get no action."
    );
    assert_eq!(
        said(vec![(a, 2), (y, 2), (c, 4)], vec![c, y], a),
        "Bids: Ann 2, You 2, Cy 4. Actions are chosen by Cy, You. \
         Ann ties for the lowest bid and, placed best, gets no action."
    );
    assert_eq!(
        said(vec![(a, 3), (y, 2), (c, 4)], vec![c, a], y),
        "Bids: Ann 3, You 2, Cy 4. Actions are chosen by Cy, Ann. \
         You bid lowest and get no action."
    );
    let took = g.narrate(&Event::ActionTaken {
        runner: y,
        action: None,
    });
    assert_eq!(took.text, "You take no action.");
}

/// A cost that cannot be paid in full says what it costs instead: movement next round,
/// never "(only 0 paid)".
#[test]
fn an_unpaid_cost_says_the_movement_it_takes() {
    let g = race_with(Options::default(), &["Ann", "You"]);
    let (a, y) = (idx(&g, "Ann"), idx(&g, "You"));
    let said = |runner: usize, cost: u16, paid: u16| {
        g.narrate(&Event::ExtraCost {
            runner,
            reason: CostReason::Wear,
            cost,
            paid,
        })
        .text
    };
    assert_eq!(said(a, 2, 2), "Ann pays 2 mental strength for wear.");
    assert_eq!(
        said(a, 2, 0),
        "Ann has no mental strength left to pay 2 for wear: 2 movement points lost next round."
    );
    assert_eq!(
        said(y, 3, 2),
        "You pay the last 2 of 3 mental strength for wear: 1 movement point lost next round."
    );
}
