//! Whole games: replay scripts, the random-simulation invariants and conformance for
//! every ruleset and table size, and the simulation's report.

use super::*;
use crate::games::strength::NoClock;

// ----- replay -----

#[test]
fn replay_fixes_the_deal_and_prints_teams() {
    let script = serde_json::json!({
        "game": "mille-bornes",
        "options": "target-distance=200 target-score=0 rounds=1",
        "players": ["Alice", {"name": "Bob", "dirty_trick": "auto"}],
        "rounds": [{
            "hands": {"Alice": ["green light", "green light", "100", "100", "25", "50"],
                      "Bob": ["green light", "right of way", "red light", "25", "50", "75"]},
            "deck": ["25", "50", "75", "25"]
        }],
        "plays": [
            "Alice: play green light",
            "Bob: right of way",
            {"player": "Bob", "order": "stop @Alice"},
            "Alice: green light",
            "Bob: missed",
            "Alice: 100",
            "Bob: junk 25",
            "Alice: 100"
        ]
    });
    let out = replay::run(crate::games::GameKind::MilleBornes, script).unwrap();
    let o = &out.output;
    assert_eq!(o["game"], "1000-miles");
    assert_eq!(o["rounds"][0]["ended_by"], "trip");
    assert_eq!(o["rounds"][0]["scores"][0]["breakdown"]["trip"], 300);
    assert_eq!(o["rounds"][0]["scores"][1]["breakdown"]["immunities"], 100);
    assert_eq!(o["teams"][1]["immunities"][0]["card"], "right of way");
    assert_eq!(o["teams"][0]["score"], 200 + 300);
    assert_eq!(o["teams"][0]["status"]["rolling"], true);
    assert_eq!(o["finished"], true);
    assert_eq!(o["winner"], serde_json::json!(["Alice"]));
    // One public view after each step.
    assert_eq!(out.views.len(), 8);
}

#[test]
fn replay_refuses_an_illegal_play_with_the_step_and_player() {
    let script = serde_json::json!({
        "game": "mille-bornes",
        "players": ["Alice", "Bob"],
        "rounds": [{"hands": {"Alice": ["100", "25", "25", "50", "50", "75"]}}],
        "plays": ["Alice: play 100"]
    });
    let e = replay::run(crate::games::GameKind::MilleBornes, script).unwrap_err();
    assert_eq!(
        e.to_string(),
        "turn 1, Alice: that order isn't allowed: you can't drive: you need a green light"
    );
    let bad = serde_json::json!({"game": "1000-yards", "players": ["A", "B"], "rounds": [{"deck": ["25", "25", "25", "25", "25", "25", "25", "25", "25", "25", "25"]}]});
    assert!(replay::run(crate::games::GameKind::ThousandYards, bad).is_err());
}

// ----- the random-simulation test -----

/// Checks the card race's own invariants over whole games: cards are conserved, no
/// distance passes the trip, every game ends, and scores add up to their breakdowns.
fn invariants(options: &Options, n: usize, games: u64, first_seed: u64) {
    let mut s = seats(n);
    // Some players answer dirty tricks by hand.
    for (i, seat) in s.iter_mut().enumerate() {
        if i % 3 == 1 {
            seat.choice = Some("dirty-trick ask".into());
        }
    }
    for seed in first_seed..first_seed + games {
        let mut g = CardRace::setup(options, &s, Seed::from_u64(seed)).unwrap();
        let cards = g.card_count();
        assert_eq!(cards, options.deck(n).len());
        let mut rng = GameRng::seeded(seed ^ 0xc0ffee);
        let mut steps = 0;
        while g.outcome().is_none() {
            let p = g.pending();
            // The label-free questions `apply` and the simulations ask agree with pending().
            assert_eq!(g.first_to_act(), p.seats.first().copied(), "seed {seed}");
            for s in Seat::all(n) {
                assert_eq!(g.may_act(s), p.includes(s), "seed {seed}, {s:?}");
            }
            let who = *rng.choose(&p.seats).unwrap();
            let order = if rng.chance(1, 2) {
                g.random_order(who, &mut rng)
            } else {
                crate::engine::bot_order(&g, who, crate::engine::BotLevel::Heuristic, &mut rng)
            };
            g.apply(&[Submitted::new(who, order)]);
            assert_eq!(g.card_count(), cards, "seed {seed}: cards lost");
            for t in g.teams() {
                assert!(
                    t.distance <= g.target(),
                    "seed {seed}: {} past {}",
                    t.distance,
                    g.target()
                );
                assert!(t.two_hundreds() <= 2);
            }
            steps += 1;
            assert!(steps < 20_000, "seed {seed}: the game did not end");
        }
        for (ti, t) in g.teams().iter().enumerate() {
            let mut sum = 0;
            for r in g.history() {
                for sc in r.scores.iter().filter(|sc| usize::from(sc.team) == ti) {
                    assert_eq!(sc.total, sc.lines.iter().map(|l| l.points).sum::<i64>());
                    sum += sc.total;
                }
            }
            assert_eq!(sum, t.total, "seed {seed}");
        }
    }
}

fn conformance(options: Options, n: usize, games: u64, every: usize) {
    let mut spec = SimSpec::<CardRace>::new(options.clone(), n, games);
    spec.first_seed = n as u64 * 1000;
    spec.view_check_every = every;
    for (i, seat) in spec.seats.iter_mut().enumerate() {
        if i % 2 == 0 {
            seat.choice = Some("dirty-trick ask".into());
        }
    }
    let report = check(&spec).unwrap_or_else(|v| panic!("{:?} {n} players: {v}", options.ruleset));
    assert_eq!(report.games, games);
    invariants(&options, n, games, 50_000);
}

fn short(ruleset: Ruleset) -> Options {
    // One round per game keeps the suite fast; multi-round play is covered above.
    Options {
        ruleset,
        target_score: 0,
        rounds: 1,
        ..Options::default()
    }
}

#[test]
fn conformance_playroom() {
    for (n, games) in [(2, 300), (3, 200), (4, 200), (6, 100)] {
        conformance(short(Ruleset::Playroom), n, games, 5);
    }
}

#[test]
fn conformance_playroom_big_tables_and_variants() {
    conformance(short(Ruleset::Playroom), 8, 40, 9);
    conformance(short(Ruleset::Playroom), 9, 40, 9);
    let variants = Options {
        attacks_cumulate: true,
        reshuffles: 1,
        counterflow: true,
        ..short(Ruleset::Playroom)
    };
    for n in [2, 4, 6] {
        conformance(variants.clone(), n, 150, 5);
    }
    // Whole games to 5000 points.
    conformance(Options::default(), 2, 30, 11);
    conformance(Options::default(), 4, 20, 11);
}

#[test]
fn conformance_published() {
    for (n, games) in [(2, 300), (3, 200), (4, 200), (6, 100)] {
        conformance(short(Ruleset::Published), n, games, 5);
    }
}

#[test]
fn conformance_yards() {
    for (n, games) in [(2, 300), (3, 200), (4, 200), (6, 100)] {
        conformance(yards(), n, games, 5);
    }
}

#[test]
fn the_documented_example_script_replays() {
    let text = include_str!("../../../../docs/replay/card-race-example.json");
    let out = crate::games::replay(text).unwrap().output;
    // Bob's dirty trick skipped Carol; Carol finished with 200 + 100.
    assert_eq!(out["rounds"][0]["trip_by"], serde_json::json!(["Carol"]));
    assert_eq!(out["teams"][1]["immunities"][0]["dirty_trick"], true);
    assert_eq!(
        out["rounds"][0]["scores"][1]["breakdown"]["dirty_tricks"],
        300
    );
    assert_eq!(out["teams"][0]["status"]["speed_limit"], true);
    assert_eq!(out["winner"], serde_json::json!(["Carol"]));
    // An illegal last play stops the replay with the step and the player.
    let bad = text.replace("Carol: 100", "Carol: play 100 @Alice");
    let e = crate::games::replay(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "turn 13, Carol: I couldn't read that order: A 100 is played on your own car; leave out the name"
    );
    let bad = text.replace("Carol: 100", "Carol: speed limit @Alice");
    let e = crate::games::replay(&bad).unwrap_err();
    assert!(
        matches!(e, crate::games::ReplayError::Order { turn: 13, .. }),
        "{e}"
    );
}

#[test]
fn sim_prints_win_rates_and_mean_scores() {
    let args = crate::games::SimArgs {
        count: 20,
        seed: 1,
        players: Some(4),
        options: String::new(),
        bots: crate::games::SimBots::Mixed,
    };
    for kind in [
        crate::games::GameKind::MilleBornes,
        crate::games::GameKind::ThousandYards,
    ] {
        let (text, json) = crate::games::sim(kind, &args, &NoClock).unwrap();
        assert!(
            text.contains("win rate") && text.contains("mean score"),
            "{text}"
        );
        assert_eq!(json["games"], 20);
        let heuristic = json["by_level"]["heuristic"]["wins"].as_f64().unwrap();
        let random = json["by_level"]["random"]["wins"].as_f64().unwrap();
        assert!(heuristic > random, "{text}");
    }
    let bad = crate::games::SimArgs {
        players: Some(5),
        ..args
    };
    assert!(crate::games::sim(crate::games::GameKind::MilleBornes, &bad, &NoClock).is_err());
}

#[test]
fn sim_bots_heuristic_seats_every_seat_heuristic_and_reports_the_first_players_advantage() {
    let args = crate::games::SimArgs {
        count: 12,
        seed: 3,
        players: Some(4),
        options: String::new(),
        bots: crate::games::SimBots::parse("heuristic").unwrap(),
    };
    for kind in [
        crate::games::GameKind::MilleBornes,
        crate::games::GameKind::ThousandYards,
    ] {
        let (text, json) = crate::games::sim(kind, &args, &NoClock).unwrap();
        let levels = json["by_level"].as_object().unwrap();
        assert_eq!(levels.keys().collect::<Vec<_>>(), ["heuristic"], "{text}");
        assert_eq!(json["by_level"]["heuristic"]["seats"], 12 * 4);
        // Two teams: each round counts once for each place in the turn order.
        let places = json["by_position"].as_array().unwrap();
        assert_eq!(places.len(), 2);
        let rounds = json["rounds"].as_u64().unwrap();
        assert!(places.iter().all(|p| p["seats"] == rounds), "{text}");
        let won: f64 = places.iter().map(|p| p["wins"].as_f64().unwrap()).sum();
        assert!((won - rounds as f64).abs() < 1e-9, "{text}");
        assert!(json["first_player_advantage"].as_f64().unwrap() > 0.0);
        assert!(text.contains("first player's advantage"), "{text}");
    }
    // One level per seat, repeated round the table.
    let mixed = crate::games::SimArgs {
        bots: crate::games::SimBots::parse("heuristic,random").unwrap(),
        ..args
    };
    let (_, json) =
        crate::games::sim(crate::games::GameKind::ThousandYards, &mixed, &NoClock).unwrap();
    assert_eq!(json["by_level"]["heuristic"]["seats"], 12 * 2);
    assert_eq!(json["by_level"]["random"]["seats"], 12 * 2);
}

// ----- the expert's playouts -----

#[test]
fn a_playout_is_valued_once_its_hand_has_ended() {
    let options = Options::default();
    let mut g = CardRace::setup(&options, &seats(2), Seed::from_u64(3)).unwrap();
    let start = g.clone();
    let mut rng = GameRng::seeded(3);
    let alice = Seat(0);
    let mut valued = None;
    for _ in 0..2_000 {
        if let Some(v) = g.playout_value(&start, alice) {
            valued = Some(v);
            break;
        }
        assert_eq!(g.round(), start.round(), "the hand ended without a value");
        let who = g.first_to_act().unwrap();
        let order = g.heuristic_order(who, &mut rng);
        g.apply(&[Submitted::new(who, order)]);
    }
    let v = valued.expect("the first hand never ended");
    assert_eq!(g.round(), 2);
    // The value follows the totals: the seat ahead is favoured, and two seats' chances
    // sum to one.
    let (a, b) = (g.teams()[0].total, g.teams()[1].total);
    assert_eq!(v > 0.5, a > b, "{a} against {b}: {v}");
    assert!((v + g.win_chance(Seat(1)) - 1.0).abs() < 1e-9);
}

#[test]
fn card_all_is_in_card_order() {
    // `turn_orders` lists the hand's cards by walking `Card::ALL`.
    assert!(Card::ALL.windows(2).all(|w| w[0] < w[1]));
}
