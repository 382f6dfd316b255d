//! Random simulations, conformance, replays, the balance table and the golden runs.

use super::*;
use crate::games::strength::NoClock;

// ----- Random simulation -----

fn check_race_invariants(race: &Race) {
    assert!(race.over, "race {} did not end", race.number);
    assert!(race.placings.len() <= 2);
    for (i, x) in race.racers.iter().enumerate() {
        match x.status {
            // A racer that crossed in the same move as the 2nd gets no place.
            Status::Racing => assert!(x.pos < track::FINISH || race.placings.len() == 2, "{x:?}"),
            Status::Finished(p) => {
                assert!(p == 1 || p == 2);
                assert!(race.placings.contains(&i));
            }
            Status::Eliminated(_) => assert!(race.eliminated.contains(&i)),
        }
        if let Status::Racing = x.status {
            // Nobody shares Huge Baby's space off the Start (Copycat's copy of her power
            // acts on racers arriving, not on those it already shares a space with).
            if x.kind == Kind::HugeBaby && x.pos > 0 {
                let sharing = race
                    .racers
                    .iter()
                    .filter(|y| y.racing() && y.pos == x.pos)
                    .count();
                assert_eq!(sharing, 1, "{:?}", race.racers);
            }
        }
    }
    if race.placings.len() < 2 && !race.capped {
        assert!(race.racers.iter().all(|x| !x.racing()));
    }
}

#[test]
fn ten_thousand_random_races_end_and_replay_identically() {
    let tracks = [Track::Mild, Track::Wild, Track::WildRulebook];
    let mut capped = 0;
    for seed in 0..10_500u64 {
        let track = tracks[(seed % 3) as usize];
        let players = 2 + (seed % 5) as usize;
        let race = sim::play_random_race(seed, players, track);
        check_race_invariants(&race);
        if race.capped {
            capped += 1;
        }
        if seed % 10 == 0 {
            let again = sim::play_random_race(seed, players, track);
            assert_eq!(race, again, "seed {seed}");
        }
    }
    // Swaps and warps that undo each other end by the loop rule: no race reaches the limit.
    assert_eq!(capped, 0, "{capped} races hit the turn limit");
}

/// Found by the million-race run (6 racers, Wild Wilds, seed 135566): Egg holds Baba
/// Yaga's power and everyone else stands tripped on her space; each turn a racer only gets
/// up, the Heckler moves 2, an arrow throws him back, Baba Yaga trips him, and no die is
/// ever rolled. The Heckler's move on the same board is a loop across turns: it completes
/// once and ends, racers roll again, and the race finishes without the turn limit.
#[test]
fn a_loop_without_dice_across_turns_completes_once_and_ends() {
    let race = sim::play_random_race(135_566, 6, Track::Wild);
    check_race_invariants(&race);
    assert!(!race.capped, "the race hit the turn limit");
    assert!(race.placings.len() >= 2, "{:?}", race.placings);
}

/// Found by the million-race run (10 racers, Wild Wilds, seed 651092): no loop, only a
/// slow field (Gunk, Stickler, Sisyphus, Huge Baby, swaps and warps) that needs 701 racer
/// turns. The last resort's cap is for loops, so it sits far above any real race.
#[test]
fn a_slow_ten_racer_race_finishes_by_its_own_rules() {
    let race = sim::play_random_race(651_092, 10, Track::Wild);
    assert!(!race.capped, "the race hit the turn limit");
    assert!(race.turns_played > 500, "{}", race.turns_played);
}

#[test]
fn conformance_over_thousands_of_seeded_games() {
    // Fast games (decisions answered by policies and defaults) for bulk...
    let quick = Options {
        auto_roll: true,
        decision_timeout: DecisionWindow::Seconds(0),
        ..Options::default()
    };
    for (players, games) in [(2usize, 250u64), (3, 300), (4, 300), (5, 200), (6, 200)] {
        let mut spec = SimSpec::<MagicalAthlete>::new(quick.clone(), players, games);
        spec.first_seed = players as u64 * 10_000;
        spec.view_check_every = 2;
        check(&spec).unwrap_or_else(|v| panic!("{players} players: {v}"));
    }
    let mut spec = SimSpec::<MagicalAthlete>::new(
        Options {
            double: true,
            ..quick.clone()
        },
        3,
        250,
    );
    spec.view_check_every = 2;
    check(&spec).unwrap_or_else(|v| panic!("double: {v}"));
    // ...and games where every turn and decision waits for a live answer.
    for (players, games) in [(2usize, 25u64), (3, 30), (4, 30)] {
        let mut spec = SimSpec::<MagicalAthlete>::new(Options::default(), players, games);
        spec.first_seed = 90_000 + players as u64 * 1000;
        spec.view_check_every = 9;
        check(&spec).unwrap_or_else(|v| panic!("live, {players} players: {v}"));
    }
}

// ----- Replay -----

#[test]
fn replay_plays_the_rulebook_example() {
    let script = serde_json::json!({
        "game": "magical-athlete",
        "track": "mild",
        "racers": [
            {"player": "Ann", "racer": "romantic", "space": 0},
            {"player": "Ben", "racer": "scoocher", "space": 2},
            {"player": "Cat", "racer": "banana", "space": 3}
        ],
        "dice": [5]
    });
    let out = replay::run(script).unwrap();
    let o = out.output;
    assert_eq!(o["racers"][0]["racer"], "Romantic");
    assert_eq!(o["racers"][0]["space"], 7);
    assert_eq!(o["racers"][0]["tripped"], true);
    assert_eq!(o["racers"][1]["space"], 4);
    assert_eq!(o["rolls"], serde_json::json!([5]));
    assert_eq!(o["over"], false);
    assert!(!out.views.is_empty());
}

#[test]
fn replay_takes_answers_in_order_and_reports_chips() {
    let script = serde_json::json!({
        "game": "magical-athlete",
        "track": "wild",
        "turn": "Bob",
        "racers": [
            {"player": "Ann", "racer": "legs", "space": 0},
            {"player": "Bob", "racer": "magician", "space": 10, "tripped": false}
        ],
        "dice": [1, 3],
        "answers": ["yes", "no", "legs"]
    });
    let o = replay::run(script).unwrap().output;
    // Racers are listed in turn order. Magician rerolls the 1, keeps the 3 and lands on
    // the star at 13; Legs moves 5.
    assert_eq!(o["racers"][0]["racer"], "Magician");
    assert_eq!(o["racers"][0]["space"], 13);
    assert_eq!(o["chips"]["Bob"]["bronze"], 1);
    assert_eq!(o["racers"][1]["space"], 5);
    assert_eq!(o["prompts"][0]["answer"], "yes");
}

#[test]
fn replay_refuses_illegal_scripts() {
    let base = |racers: serde_json::Value, extra: serde_json::Value| {
        let mut s = serde_json::json!({"game": "magical-athlete", "racers": racers});
        if let (Some(m), Some(e)) = (s.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                m.insert(k.clone(), v.clone());
            }
        }
        replay::run(s)
    };
    let two = serde_json::json!([
        {"player": "Ann", "racer": "legs"},
        {"player": "Bob", "racer": "magician"}
    ]);
    let e = base(
        serde_json::json!([{"player": "Ann", "racer": "zebra"}, {"player":"B","racer":"legs"}]),
        serde_json::json!({}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("`zebra` is not a racer"), "{e}");
    let e = base(serde_json::json!([{"player": "Ann", "racer": "legs", "space": 30}, {"player":"B","racer":"gunk"}]), serde_json::json!({})).unwrap_err();
    assert!(e.to_string().contains("not on the track"), "{e}");
    let e = base(two.clone(), serde_json::json!({"dice": [7]})).unwrap_err();
    assert!(e.to_string().contains("not a die roll"), "{e}");
    let e = base(two.clone(), serde_json::json!({"answers": ["guess 3"]})).unwrap_err();
    assert!(e.to_string().starts_with("turn 1, Ann: prompt 1"), "{e}");
    let e = base(two, serde_json::json!({"turn": "Zed"})).unwrap_err();
    assert!(e.to_string().contains("Zed has no racer"), "{e}");
}

// ----- Simulation table -----

#[test]
fn sim_prints_each_racers_win_and_second_rates() {
    let args = crate::games::SimArgs {
        count: 400,
        seed: 1,
        players: Some(5),
        options: "track=wild".into(),
        bots: crate::games::SimBots::Mixed,
    };
    let (text, json) =
        crate::games::sim(crate::games::GameKind::MagicalAthlete, &args, &NoClock).unwrap();
    assert!(
        text.contains("racer") && text.contains("win %") && text.contains("2nd %"),
        "{text}"
    );
    assert!(text.contains("Wild Wilds"), "{text}");
    let by = json["by_racer"].as_object().unwrap();
    assert!(by.len() >= 30, "{}", by.len());
    let races: u64 = by.values().map(|t| t["races"].as_u64().unwrap()).sum();
    let wins: u64 = by.values().map(|t| t["wins"].as_u64().unwrap()).sum();
    assert_eq!(races, 400 * 5);
    assert_eq!(wins, 400);
    let bad = crate::games::SimArgs {
        options: "track=moon".into(),
        bots: crate::games::SimBots::Mixed,
        ..args
    };
    assert!(crate::games::sim(crate::games::GameKind::MagicalAthlete, &bad, &NoClock).is_err());
}

// ----- Golden replays -----

/// FNV-1a over text, so the golden hashes below do not depend on the platform.
fn fnv(h: &mut u64, text: &str) {
    for b in text.bytes() {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// Seeded races told event by event, seeded quiet races and whole games, hashed. The
/// hashes were recorded before the engine's speed work: any change in what a race does or
/// tells changes them.
#[test]
fn golden_races_and_games_are_unchanged() {
    let tracks = [Track::Mild, Track::Wild, Track::WildRulebook];
    let mut told = 0xcbf2_9ce4_8422_2325u64;
    for seed in 0..1500u64 {
        let track = tracks[(seed % 3) as usize];
        let players = 2 + (seed % 7) as usize;
        let mut race = sim::random_race(seed, players, track);
        loop {
            let r = race.run_slot(&mut race::Defaults);
            for e in &race.events {
                fnv(&mut told, &format!("{e:?}"));
            }
            match r {
                Ok(()) => {}
                Err(race::Halt::Over) => break,
                Err(h) => panic!("seed {seed}: {h:?}"),
            }
        }
        fnv(&mut told, &serde_json::to_string(&race).unwrap());
    }
    let mut quiet = 0xcbf2_9ce4_8422_2325u64;
    for seed in 0..12_000u64 {
        let track = tracks[(seed % 3) as usize];
        let players = 2 + (seed % 11) as usize;
        let race = sim::play_random_race(seed + 1_000_000, players, track);
        fnv(&mut quiet, &serde_json::to_string(&race).unwrap());
    }
    let mut games = 0xcbf2_9ce4_8422_2325u64;
    // Recorded with `auto-roll` off, the default then; the default is now on.
    let recorded = Options {
        auto_roll: false,
        ..Options::default()
    };
    for seed in 0..30u64 {
        let (g, events) = play_defaults(&recorded, 2 + (seed % 5) as usize, seed);
        for e in &events {
            fnv(&mut games, &format!("{e:?}"));
        }
        fnv(&mut games, &format!("{:?}", g.outcome()));
    }
    assert_eq!(
        (told, quiet, games),
        (
            5_774_447_020_080_706_854,
            466_571_723_596_792_664,
            5_578_091_793_457_165_127
        ),
        "golden hashes (told, quiet, games)"
    );
}
