//! 1000 Yards in its own words (help, prompts, narration: no
//! "dirty trick", no "immunity", no extension), articles, team results and score lines.

use super::*;
use crate::engine::{BotLevel, PreferenceError};
use crate::games::GameKind;

/// Every narration of a whole game of heuristic bots, and each seat's prompts.
fn all_texts(options: &Options, players: usize, seed: u64) -> Vec<String> {
    let names: Vec<SeatSetup> = NAMES[..players]
        .iter()
        .map(|n| SeatSetup {
            name: (*n).into(),
            choice: Some("counter ask".into()),
        })
        .collect();
    let mut g = CardRace::setup(options, &names, Seed::from_u64(seed)).unwrap();
    let mut rng = GameRng::seeded(seed);
    let mut out = Vec::new();
    while g.outcome().is_none() {
        let s = g.pending().seats[0];
        out.push(g.pending().label);
        let p = g.prompt(s);
        out.push(p.text);
        out.push(p.hint);
        out.extend(p.choices.iter().map(|c| c.label.clone()));
        let order = crate::engine::bot_order(&g, s, BotLevel::Heuristic, &mut rng);
        for e in g.apply(&[Submitted::new(s, order)]) {
            out.push(g.narrate(&e).text);
        }
    }
    out
}

/// Out of gas is a state, not a thing: "plays out of gas on Bob", never "an out of gas".
#[test]
fn out_of_gas_takes_no_article() {
    let mut seen = 0;
    for (players, seed) in [(2, 1), (3, 3), (4, 4), (2, 5), (3, 6)] {
        for text in all_texts(&opts(Ruleset::Playroom), players, seed) {
            assert!(!text.contains("an out of gas"), "{text}");
            seen += usize::from(text.contains("plays out of gas on"));
        }
    }
    assert!(seen > 0, "no game played out of gas");
}

#[test]
fn yards_speaks_its_own_words_and_never_offers_the_extension() {
    for (players, seed) in [(2, 1), (2, 2), (3, 3), (4, 4), (6, 5)] {
        for text in all_texts(&yards(), players, seed) {
            let t = text.to_lowercase();
            for word in ["dirty trick", "immunit", "extend", "green light", "coup"] {
                assert!(!t.contains(word), "{word} in 1000 Yards: {text}");
            }
            assert!(
                !t.contains(" a hungry") && !t.contains(" a traffic"),
                "{text}"
            );
        }
    }
}

#[test]
fn yards_help_is_not_the_1000_miles_summary() {
    let yards = GameKind::ThousandYards.rules_summary();
    let miles = GameKind::MilleBornes.rules_summary();
    assert_ne!(yards, miles);
    assert!(yards.starts_with("1000 Yards:"), "{yards}");
    assert!(miles.starts_with("1000 miles:"), "{miles}");
    for word in ["dirty trick", "immunit", "green light", "extend"] {
        assert!(!yards.to_lowercase().contains(word), "{word}: {yards}");
    }
    assert!(yards.contains("counter (+200)"), "{yards}");
    assert!(!miles.contains("Yards"), "{miles}");
    let pref = GameKind::ThousandYards.preference_help().unwrap();
    assert!(
        pref.contains("`counter ask`") && !pref.contains("dirty"),
        "{pref}"
    );
}

#[test]
fn the_extension_is_offered_only_where_the_rules_have_it() {
    let published = table(
        &opts(Ruleset::Published),
        &["green light, 25, 25, 50, 75, 100", FILL],
        "",
    );
    // A turn's hint names a turn's orders only; the extension is asked when it comes.
    assert_eq!(
        published.prompt(seat("Alice")).hint,
        "Type `play 100`, `junk 25`, or an attack with its target: `red light @Bob`."
    );
    let y = table(
        &yards(),
        &[
            "go, 25, 25, 50, 75, 100, 100",
            "25, 25, 50, 50, 75, 75, 100",
        ],
        "",
    );
    let hint = y.prompt(seat("Alice")).hint;
    assert_eq!(
        hint,
        "Type `play 100`, `junk 25`, or a trouble with its target: `traffic @Bob`."
    );
    let mut y = y;
    assert_eq!(
        y.set_preference(seat("Bob"), "dirty-trick sometimes")
            .unwrap_err()
            .to_string(),
        PreferenceError::Invalid(
            "write `counter auto` (play it the instant the attack lands) or `counter ask` \
             (a button, and a short window to answer)"
                .into()
        )
        .to_string()
    );
}

#[test]
fn an_accident_takes_an_and_yards_troubles_read_as_words() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, accident, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
        ],
        "25, 50, 75, 25, 50, 75",
    );
    g.set_preference(seat("Bob"), "dirty-trick ask").unwrap();
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    let events = play(&mut g, "Alice", "accident");
    assert_eq!(
        g.narrate(&events[0]).text,
        "Alice plays an accident on Bob."
    );
    assert_eq!(
        g.prompt(seat("Bob")).text,
        "Alice played an accident on your team. Answer with a dirty trick?"
    );
    let opened = events
        .iter()
        .find(|e| matches!(e, Event::WindowOpened { .. }))
        .unwrap();
    assert_eq!(
        g.narrate(opened).text,
        "Bob may answer the accident on Bob with a dirty trick within the turn's time."
    );

    let mut y = table(
        &yards(),
        &[
            "go, hungry, 25, 50, 75, 100, 25",
            "go, meal, 25, 50, 75, 100, 25",
        ],
        "25, 50, 75",
    );
    play(&mut y, "Alice", "go");
    play(&mut y, "Bob", "go");
    let events = play(&mut y, "Alice", "hungry");
    assert_eq!(y.narrate(&events[0]).text, "Alice plays hungry on Bob.");
    let trick = events
        .iter()
        .find(|e| matches!(e, Event::DirtyTrick { .. }))
        .unwrap();
    assert_eq!(
        y.narrate(trick).text,
        "Counter! Bob answers Alice's hungry with meal (+200) and plays next."
    );
    let events = play(&mut y, "Bob", "junk 25");
    assert!(!events.is_empty());
    let started = y.narration(&Event::RoundStarted {
        round: 1,
        starter: seat("Alice"),
        cards: 107,
        target: 700,
    });
    assert_eq!(
        started.text,
        "The race begins: 107 cards. Race to exactly 700 yards. Alice plays first."
    );
}

#[test]
fn team_results_name_the_winning_team_and_score_lines_leave_out_zeros() {
    let o = Options {
        target_score: 0,
        rounds: 1,
        target_distance: 100,
        ..opts(Ruleset::Playroom)
    };
    let mut g = table(
        &o,
        &[
            "green light, 100, 25, 25, 50, 75",
            FILL,
            "green light, 25, 25, 50, 50, 75",
            FILL,
        ],
        "100, 100, 100, 100",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Carol", "junk 25");
    play(&mut g, "Dave", "junk 25");
    let events = play(&mut g, "Alice", "100");
    assert!(g.outcome().is_some());
    let texts: Vec<String> = events.iter().map(|e| g.narrate(e).text).collect();
    assert!(
        texts.contains(
            &"The race ends: Alice & Carol complete the trip.\n\
              Alice & Carol: 100 miles + 300 trip completed + 500 hood = 900\n\
              Bob & Dave: 0"
                .to_string()
        ),
        "{texts:#?}"
    );
    assert!(
        texts.contains(&"Alice & Carol win with 900 points!".to_string()),
        "{texts:#?}"
    );
}

#[test]
fn a_single_winner_wins() {
    let g = table(&opts(Ruleset::Playroom), &[FILL, FILL], "");
    let text = g
        .narration(&Event::GameEnded {
            winners: vec![0],
            totals: vec![5100, 4000],
        })
        .text;
    assert_eq!(text, "Alice wins with 5100 points!");
}

/// The terminal's seat is "You": "You win with 1 point!", not "You wins with 1 points!".
#[test]
fn a_player_called_you_wins_in_the_second_person() {
    let seats: Vec<SeatSetup> = ["You", "Ann"]
        .iter()
        .map(|n| SeatSetup::named(*n))
        .collect();
    let g = CardRace::setup(&Options::default(), &seats, Seed::from_u64(1)).unwrap();
    let said =
        |winners: Vec<u8>, totals: Vec<i64>| g.narrate(&Event::GameEnded { winners, totals }).text;
    assert_eq!(said(vec![0], vec![1, 0]), "You win with 1 point!");
    assert_eq!(said(vec![1], vec![0, 700]), "Ann wins with 700 points!");
}

/// The terminal's seat is "You" in every line of the table: "You play", "You junk",
/// "on you", "You answer Ann's accident", "answers your accident".
#[test]
fn a_player_called_you_plays_and_junks_in_the_second_person() {
    let seats: Vec<SeatSetup> = ["You", "Ann"]
        .iter()
        .map(|n| SeatSetup::named(*n))
        .collect();
    let g = CardRace::setup(&Options::default(), &seats, Seed::from_u64(1)).unwrap();
    let said = |e: Event| g.narrate(&e).text;
    let played = |seat: u8, card: Card, target: Option<u8>| Event::Played {
        seat: Seat(seat),
        card,
        target,
        missed: false,
        distance: Some(100),
    };
    assert_eq!(
        said(played(0, Card::D100, None)),
        "You play 100: 100 miles."
    );
    assert_eq!(
        said(played(0, Card::Accident, Some(1))),
        "You play an accident on Ann."
    );
    assert_eq!(
        said(played(1, Card::Accident, Some(0))),
        "Ann plays an accident on you."
    );
    assert_eq!(
        said(Event::Junked {
            seat: Seat(0),
            card: Card::Gas,
            missed: false,
        }),
        "You junk gas."
    );
    let trick = |seat: u8, attacker: u8| Event::DirtyTrick {
        seat: Seat(seat),
        safety: Card::DrivingAce,
        attack: Card::Accident,
        attacker: Seat(attacker),
        missed: false,
    };
    assert_eq!(
        said(trick(0, 1)),
        "Dirty trick! You answer Ann's accident with driving ace (+300) and play next."
    );
    assert_eq!(
        said(trick(1, 0)),
        "Dirty trick! Ann answers your accident with driving ace (+300) and plays next."
    );
}
