//! The advanced rules' wear and last-lap medal costs, and the basic rules' leader cost.

use super::*;

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
