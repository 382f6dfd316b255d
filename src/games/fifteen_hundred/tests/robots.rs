//! Robots: a shared movement card, no bids, the fastest player's pace, no costs.

use super::*;

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
    g.set_robot_deck(&[10, 8, 11, 9]).unwrap();
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
