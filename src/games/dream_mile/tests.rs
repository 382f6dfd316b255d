//! Dream Mile's rulebook examples and rulings, as tests.

use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{OrderError, read_order};

const GRID: [(&str, u8); 8] = [
    ("Alice", 10),
    ("Bill", 10),
    ("Carol", 10),
    ("Dave", 11),
    ("Emily", 11),
    ("Frank", 11),
    ("George", 12),
    ("Helen", 12),
];

fn grid() -> DreamMile {
    let seats: Vec<SeatSetup> = GRID
        .iter()
        .map(|(n, m)| SeatSetup {
            name: n.to_string(),
            choice: Some(m.to_string()),
        })
        .collect();
    DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap()
}

fn seat(name: &str) -> Seat {
    Seat(GRID.iter().position(|(n, _)| *n == name).unwrap() as u8)
}

fn play(game: &mut DreamMile, speeds: &[(&str, u8)]) -> Vec<Event> {
    let orders: Vec<Submitted<Speed>> = speeds
        .iter()
        .map(|(n, v)| {
            let s = seat(n);
            Submitted::new(s, read_order(game, s, &v.to_string()).unwrap())
        })
        .collect();
    game.apply(&orders)
}

/// (position label, name, played, remaining) rows, as the rulebook prints them.
fn table(game: &DreamMile) -> Vec<(String, String, u8, u32)> {
    game.public_view()
        .standings
        .iter()
        .map(|s| {
            let pos = format!("{}{}", if s.tied { "=" } else { "" }, s.rank);
            (pos, s.name.clone(), s.played.unwrap_or(0), s.remaining)
        })
        .collect()
}

fn rows(r: &[(&str, &str, u8, u32)]) -> Vec<(String, String, u8, u32)> {
    r.iter()
        .map(|(p, n, a, b)| (p.to_string(), n.to_string(), *a, *b))
        .collect()
}

#[test]
fn the_starting_grid_matches_the_rulebook() {
    let g = grid();
    let pts: Vec<u32> = g.runners().iter().map(|r| r.remaining).collect();
    assert_eq!(pts, vec![45, 45, 45, 42, 42, 42, 39, 39]);
    // Everyone starts tied first.
    assert!(
        g.public_view()
            .standings
            .iter()
            .all(|s| s.rank == 1 && s.tied)
    );
}

#[test]
fn rulebook_turn_1_only_ties_are_resolved() {
    let mut g = grid();
    play(
        &mut g,
        &[
            ("Carol", 7),
            ("Dave", 6),
            ("Emily", 6),
            ("Frank", 5),
            ("Alice", 3),
            ("George", 3),
            ("Bill", 1),
            ("Helen", 1),
        ],
    );
    assert_eq!(
        table(&g),
        rows(&[
            ("1", "Carol", 7, 38),
            ("=2", "Dave", 6, 36),
            ("=2", "Emily", 6, 36),
            ("4", "Frank", 5, 37),
            ("=5", "Alice", 3, 42),
            ("=5", "George", 3, 36),
            ("=7", "Bill", 1, 44),
            ("=7", "Helen", 1, 38),
        ])
    );
}

/// The view's position groups follow the ranks: the rulebook's turn 1 leaves Carol alone,
/// Dave and Emily tied, Frank alone, then two tied pairs.
#[test]
fn the_view_groups_tied_runners_front_to_back() {
    let mut g = grid();
    assert_eq!(
        g.public_view().groups().len(),
        1,
        "all tied on the start line"
    );
    play(
        &mut g,
        &[
            ("Carol", 7),
            ("Dave", 6),
            ("Emily", 6),
            ("Frank", 5),
            ("Alice", 3),
            ("George", 3),
            ("Bill", 1),
            ("Helen", 1),
        ],
    );
    let view = g.public_view();
    let names: Vec<Vec<&str>> = view
        .groups()
        .iter()
        .map(|g| g.iter().map(|s| s.name.as_str()).collect())
        .collect();
    assert_eq!(
        names,
        vec![
            vec!["Carol"],
            vec!["Dave", "Emily"],
            vec!["Frank"],
            vec!["Alice", "George"],
            vec!["Bill", "Helen"],
        ]
    );
}

#[test]
fn rulebook_turn_2_ties_then_overtakes() {
    let mut g = grid();
    play(
        &mut g,
        &[
            ("Carol", 7),
            ("Dave", 6),
            ("Emily", 6),
            ("Frank", 5),
            ("Alice", 3),
            ("George", 3),
            ("Bill", 1),
            ("Helen", 1),
        ],
    );
    let turn2 = [
        ("Carol", 2),
        ("Dave", 4),
        ("Emily", 4),
        ("Frank", 2),
        ("Alice", 9),
        ("George", 1),
        ("Helen", 8),
        ("Bill", 3),
    ];
    let events = play(&mut g, &turn2);
    let Some(Event::TurnResolved {
        tie_breaks,
        overtakes,
        ..
    }) = events.first()
    else {
        panic!("no turn event: {events:?}");
    };
    // The ties table: 5th and 7th are resolved, Dave and Emily stay joint 2nd.
    assert_eq!(
        tie_breaks,
        &vec![
            TieBreak {
                group: vec![seat("Alice"), seat("George")],
                into: vec![vec![seat("Alice")], vec![seat("George")]]
            },
            TieBreak {
                group: vec![seat("Bill"), seat("Helen")],
                into: vec![vec![seat("Helen")], vec![seat("Bill")]]
            },
        ]
    );
    // Helen passes George; Alice passes Frank, Dave and Emily, and Carol.
    assert_eq!(
        overtakes,
        &vec![
            Overtake {
                by: vec![seat("Helen")],
                passed: vec![vec![seat("George")]]
            },
            Overtake {
                by: vec![seat("Alice")],
                passed: vec![
                    vec![seat("Frank")],
                    vec![seat("Dave"), seat("Emily")],
                    vec![seat("Carol")]
                ],
            },
        ]
    );
    assert_eq!(
        table(&g),
        rows(&[
            ("1", "Alice", 9, 33),
            ("2", "Carol", 2, 36),
            ("=3", "Dave", 4, 32),
            ("=3", "Emily", 4, 32),
            ("5", "Frank", 2, 35),
            ("6", "Helen", 8, 30),
            ("7", "George", 1, 35),
            ("8", "Bill", 3, 41),
        ])
    );
    let text = g.narrate(&events[0]).text;
    assert!(
        text.contains("Alice passes Frank, Dave and Emily, and Carol."),
        "{text}"
    );
    assert!(text.contains("Helen passes George."), "{text}");
}

#[test]
fn rulebook_turn_2_intermediate_ties_table() {
    // After the tie step alone, the rulebook's middle table.
    let mut g = grid();
    play(
        &mut g,
        &[
            ("Carol", 7),
            ("Dave", 6),
            ("Emily", 6),
            ("Frank", 5),
            ("Alice", 3),
            ("George", 3),
            ("Bill", 1),
            ("Helen", 1),
        ],
    );
    let sp = |s: Seat| -> u32 { [9, 3, 2, 4, 4, 2, 1, 8][s.index()] };
    let a = adjudicate(g.field(), sp, true);
    let names: Vec<Vec<&str>> = a
        .field
        .iter()
        .map(|grp| grp.iter().map(|s| GRID[s.index()].0).collect())
        .collect();
    assert_eq!(
        names,
        vec![
            vec!["Carol"],
            vec!["Dave", "Emily"],
            vec!["Frank"],
            vec!["Alice"],
            vec!["George"],
            vec!["Helen"],
            vec!["Bill"]
        ]
    );
}

#[test]
fn orders_are_capped_by_maximum_and_remaining() {
    let g = grid();
    let alice = seat("Alice");
    assert_eq!(read_order(&g, alice, " 10 ").unwrap(), Speed(10));
    assert_eq!(read_order(&g, alice, "speed 4").unwrap(), Speed(4));
    assert_eq!(
        read_order(&g, alice, "11").unwrap_err(),
        OrderError::Illegal("11 is above your maximum speed of 10".into())
    );
    let e = read_order(&g, alice, "seven").unwrap_err();
    assert!(matches!(e, OrderError::Syntax(_)), "{e}");
    assert!(e.to_string().contains("whole number"), "{e}");
    assert!(matches!(
        read_order(&g, alice, "").unwrap_err(),
        OrderError::Syntax(_)
    ));
    assert!(matches!(
        read_order(&g, alice, "-1").unwrap_err(),
        OrderError::Syntax(_)
    ));
    // A seat that is not at the table has nothing to order.
    assert_eq!(
        read_order(&g, Seat(20), "1").unwrap_err(),
        OrderError::NotYourTurn
    );
}

#[test]
fn remaining_points_cap_the_order() {
    let options = Options {
        starting_points: 12,
        ..Options::default()
    };
    let seats = vec![SeatSetup::named("A"), SeatSetup::named("B")];
    let mut g = DreamMile::setup(&options, &seats, Seed::from_u64(0)).unwrap();
    g.apply(&[
        Submitted::new(Seat(0), Speed(10)),
        Submitted::new(Seat(1), Speed(0)),
    ]);
    assert_eq!(g.cap(Seat(0)), 2);
    assert_eq!(
        read_order(&g, Seat(0), "3").unwrap_err(),
        OrderError::Illegal("3 is more than the 2 speed points you have left".into())
    );
}

#[test]
fn maximum_speed_costs_three_points_each_from_10_to_15() {
    let o = Options::default();
    assert_eq!(o.points_for(10), 45);
    assert_eq!(o.points_for(15), 30);
    assert!(DreamMile::check_seat_choice(&o, "16").is_err());
    assert!(DreamMile::check_seat_choice(&o, "9").is_err());
    assert!(DreamMile::check_seat_choice(&o, "max=13").is_ok());
    let seats = vec![
        SeatSetup {
            name: "A".into(),
            choice: Some("fast".into()),
        },
        SeatSetup::named("B"),
    ];
    let err = DreamMile::setup(&o, &seats, Seed::from_u64(0)).unwrap_err();
    assert!(err.to_string().starts_with("A: "), "{err}");
}

#[test]
fn a_missed_order_plays_one_more_than_last_turn_and_is_recorded_as_missed() {
    let seats = vec![SeatSetup::named("A"), SeatSetup::named("B")];
    let mut g = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap();
    // Before turn 1 the previous play counts as 0: a miss plays 1.
    assert_eq!(g.default_order(Seat(0)), Speed(1));
    g.apply(&[
        Submitted::new(Seat(0), Speed(6)),
        Submitted::missed(Seat(1), g.default_order(Seat(1))),
    ]);
    let v = g.public_view();
    let b = v.standings.iter().find(|s| s.name == "B").unwrap();
    assert_eq!((b.played, b.missed), (Some(1), true));
    let a = v.standings.iter().find(|s| s.name == "A").unwrap();
    assert!(!a.missed);
    assert_eq!(g.default_order(Seat(0)), Speed(7));
    // An order left out of apply altogether is also a miss.
    g.apply(&[Submitted::new(Seat(1), Speed(3))]);
    let a = g
        .public_view()
        .standings
        .into_iter()
        .find(|s| s.name == "A")
        .unwrap();
    assert_eq!((a.played, a.missed), (Some(7), true));
}

#[test]
fn a_missed_order_is_capped_by_maximum_and_remaining() {
    let options = Options {
        starting_points: 14,
        ..Options::default()
    };
    let seats = vec![SeatSetup::named("A"), SeatSetup::named("B")];
    let mut g = DreamMile::setup(&options, &seats, Seed::from_u64(0)).unwrap();
    g.apply(&[
        Submitted::new(Seat(0), Speed(10)),
        Submitted::new(Seat(1), Speed(10)),
    ]);
    // 10 + 1 is over the maximum of 10 and the 4 left.
    assert_eq!(g.default_order(Seat(0)), Speed(4));
}

#[test]
fn seven_ordered_turns_then_an_automatic_eighth() {
    let mut g = grid();
    for turn in 1..=7u8 {
        assert_eq!(g.pending().label, format!("Turn {turn} of 8"));
        assert_eq!(g.pending().seats.len(), 8);
        let orders: Vec<_> = Seat::all(8).map(|s| Submitted::new(s, Speed(1))).collect();
        let events = g.apply(&orders);
        if turn < 7 {
            assert_eq!(events.len(), 1);
        } else {
            // Turn 7, the automatic turn 8, and the finish.
            assert_eq!(events.len(), 3, "{events:?}");
            let Event::TurnResolved { turn: 8, plays, .. } = &events[1] else {
                panic!("{events:?}");
            };
            // Everyone plays min(remaining, maximum).
            let alice = plays.iter().find(|p| p.seat == seat("Alice")).unwrap();
            assert_eq!(alice.speed, 10);
            assert!(alice.automatic && !alice.missed);
        }
    }
    assert!(g.pending().is_empty());
    assert!(g.outcome().is_some());
    assert_eq!(
        read_order(&g, Seat(0), "1").unwrap_err(),
        OrderError::NotYourTurn
    );
}

#[test]
fn runners_tied_first_share_the_win() {
    let seats: Vec<_> = ["A", "B", "C"]
        .iter()
        .map(|n| SeatSetup::named(*n))
        .collect();
    let mut g = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap();
    while g.outcome().is_none() {
        let orders: Vec<_> = [(0, 5), (1, 5), (2, 4)]
            .iter()
            .map(|&(s, v)| Submitted::new(Seat(s), Speed(v)))
            .collect();
        g.apply(&orders);
    }
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners(), vec![Seat(0), Seat(1)]);
    assert_eq!(outcome.rank_of(Seat(2)), Some(3));
}

#[test]
fn the_final_turn_can_be_ordered_instead() {
    let options = Options {
        auto_final_turn: false,
        ordered_turns: 8,
        ..Options::default()
    };
    let seats: Vec<_> = ["A", "B"].iter().map(|n| SeatSetup::named(*n)).collect();
    let mut g = DreamMile::setup(&options, &seats, Seed::from_u64(0)).unwrap();
    for _ in 0..7 {
        g.apply(&[
            Submitted::new(Seat(0), Speed(1)),
            Submitted::new(Seat(1), Speed(1)),
        ]);
    }
    assert_eq!(g.pending().label, "Turn 8 of 8");
    g.apply(&[
        Submitted::new(Seat(0), Speed(2)),
        Submitted::new(Seat(1), Speed(1)),
    ]);
    assert!(g.outcome().is_some());
}

#[test]
fn the_race_ends_in_the_same_place_from_the_same_orders() {
    let mut a = grid();
    let mut b = grid();
    let mut rng = GameRng::seeded(5);
    while a.outcome().is_none() {
        let orders: Vec<_> = Seat::all(8)
            .map(|s| Submitted::new(s, a.random_order(s, &mut rng)))
            .collect();
        a.apply(&orders);
        b.apply(&orders);
    }
    assert_eq!(a, b);
}

#[test]
fn conformance_over_thousands_of_seeded_races() {
    for (players, games) in [(2usize, 500u64), (6, 1000), (8, 1000), (12, 500)] {
        let mut spec = SimSpec::<DreamMile>::new(Options::default(), players, games);
        spec.first_seed = players as u64 * 100_000;
        // Mixed maxima, so caps differ.
        for (i, s) in spec.seats.iter_mut().enumerate() {
            s.choice = Some((10 + (i % 6)).to_string());
        }
        let report = check(&spec).unwrap_or_else(|v| panic!("{players} players: {v}"));
        assert_eq!(report.games, games);
        assert_eq!(report.longest, 7);
    }
}

#[test]
fn replay_prints_the_rulebook_turns() {
    let script = serde_json::json!({
        "game": "dream-mile",
        "players": GRID.iter().map(|(n, m)| serde_json::json!({"name": n, "max_speed": m})).collect::<Vec<_>>(),
        "turns": [
            {"Alice":"3","Bill":"1","Carol":"7","Dave":"6","Emily":"6","Frank":"5","George":"3","Helen":"1"},
            {"Alice":"9","Bill":"3","Carol":"2","Dave":"4","Emily":"4","Frank":"2","George":"1","Helen":"8"}
        ]
    });
    let out = replay::run(script).unwrap().output;
    assert_eq!(out["finished"], false);
    assert_eq!(out["winners"], serde_json::json!([]));
    let t2 = &out["turns"][1];
    assert_eq!(t2["turn"], 2);
    assert_eq!(
        t2["standings"][0],
        serde_json::json!({"name":"Alice","rank":1,"tied":false,"played":9,"remaining":33,"missed":false})
    );
    assert_eq!(t2["standings"][2]["name"], "Dave");
    assert_eq!(t2["standings"][3]["name"], "Emily");
    assert_eq!(t2["standings"][3]["tied"], true);
}

#[test]
fn replay_refuses_bad_scripts_with_the_turn_and_player() {
    let base = |turns: serde_json::Value| serde_json::json!({"game":"dream-mile","players":[{"name":"Alice"},{"name":"Bill","max_speed":12}],"turns":turns});
    let e = replay::run(base(serde_json::json!([{"Alice":"11"}]))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "turn 1, Alice: that order isn't allowed: 11 is above your maximum speed of 10"
    );
    let e = replay::run(base(serde_json::json!([{"Zed":"1"}]))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "turn 1, Zed: there is no such player in this race"
    );
    let e = replay::run(base(serde_json::json!([{}, {}, {}, {}, {}, {}, {}, {}]))).unwrap_err();
    assert!(e.to_string().starts_with("turn 8: at most 7 turns"), "{e}");
    let e = replay::run(base(serde_json::json!([{"Bill":"x"}]))).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("turn 1, Bill: I couldn't read that order"),
        "{e}"
    );
    // Seven turns run the automatic eighth and finish.
    let out = replay::run(base(serde_json::json!([{}, {}, {}, {}, {}, {}, {}])))
        .unwrap()
        .output;
    assert_eq!(out["turns"].as_array().unwrap().len(), 8);
    assert_eq!(out["finished"], true);
    assert!(out["turns"][0]["standings"][0]["missed"].as_bool().unwrap());
}

#[test]
fn replay_shows_turn_seven_before_the_automatic_eighth() {
    let turn = serde_json::json!({"A": "5", "B": "4"});
    let script = serde_json::json!({
        "game": "dream-mile",
        "players": [{"name": "A"}, {"name": "B"}],
        "turns": [turn, turn, turn, turn, turn, turn, turn]
    });
    let replay = replay::run(script).unwrap();
    let turns = replay.output["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 8);
    let a = |t: usize| {
        turns[t]["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "A")
            .unwrap()
            .clone()
    };
    assert_eq!(
        (a(6)["played"].as_u64(), a(6)["remaining"].as_u64()),
        (Some(5), Some(10))
    );
    assert_eq!(
        (a(7)["played"].as_u64(), a(7)["remaining"].as_u64()),
        (Some(10), Some(0))
    );
    // One view per turn, each as it stood after that turn.
    assert_eq!(replay.views.len(), 8);
    let seventh = dream_mile_view(&replay.views[6]);
    assert_eq!(
        (seventh.turn, seventh.finished, seventh.history.len()),
        (7, false, 7)
    );
    assert!(dream_mile_view(&replay.views[7]).finished);
}

#[allow(unreachable_patterns)]
fn dream_mile_view(view: &crate::games::AnyPublicView) -> &PublicView {
    match view {
        crate::games::AnyPublicView::DreamMile(v) => v,
        other => panic!("not a Dream Mile view: {other:?}"),
    }
}

/// A state stored before the history kept each turn's plays (two runners after one turn)
/// decodes, plays on, and encodes as it did: races in players' databases go on.
#[test]
fn a_stored_state_from_before_plays_were_kept_decodes_and_plays_on() {
    use serde_json::json;
    let fresh = DreamMile::setup(
        &Options::default(),
        &[SeatSetup::named("Ann"), SeatSetup::named("Bob")],
        Seed::from_u64(3),
    )
    .unwrap();
    let mut row = serde_json::to_value(&fresh).unwrap();
    row["field"] = json!([[1], [0]]);
    row["turns_done"] = json!(1);
    row["runners"][0]["remaining"] = json!(42);
    row["runners"][0]["last_played"] = json!(3);
    row["runners"][1]["remaining"] = json!(40);
    row["runners"][1]["last_played"] = json!(5);
    row["history"] = json!([{"turn": 1, "ranks": [2, 1], "remaining": [42, 40]}]);
    let mut game: DreamMile = serde_json::from_value(row.clone()).unwrap();
    assert_eq!(game.field(), &[vec![Seat(1)], vec![Seat(0)]]);
    let mut expected = row;
    expected["history"][0]["played"] = json!([]);
    expected["history"][0]["missed"] = json!([]);
    assert_eq!(serde_json::to_value(&game).unwrap(), expected);
    game.apply(&[
        Submitted::new(Seat(0), Speed(9)),
        Submitted::new(Seat(1), Speed(2)),
    ]);
    let after = serde_json::to_value(&game).unwrap();
    assert_eq!(after["field"], json!([[0], [1]]));
    assert_eq!(
        after["history"][1],
        json!({"turn": 2, "ranks": [1, 2], "remaining": [33, 38], "played": [9, 2], "missed": [false, false]})
    );
}
