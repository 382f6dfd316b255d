//! The finish: the lap counter and the bell, places within a phase, playing on until
//! all are home, and the 800 m's staggered start.

use super::*;

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
