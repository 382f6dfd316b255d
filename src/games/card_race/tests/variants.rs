//! The optional variants (attacks cumulate, reshuffling, counterflow), 1000 Yards' own
//! rules, and options read from text.

use super::*;

// ----- variants -----

#[test]
fn variant_attacks_cumulate() {
    let o = Options {
        attacks_cumulate: true,
        ..opts(Ruleset::Playroom)
    };
    let mut g = table(
        &o,
        &[
            "red light, flat tire, 25, 50, 75, 100",
            "spare tire, green light, 25, 50, 75, 100",
        ],
        "25, 50, 75, 25, 50, 75",
    );
    // Bob has not started, and may still be attacked.
    play(&mut g, "Alice", "red light @Bob");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "flat tire @Bob");
    assert_eq!(
        team(&g, "Bob").battle.problems,
        vec![Card::Stop, Card::Flat]
    );
    assert_eq!(
        refuse(&g, "Bob", "green light"),
        "that order isn't allowed: fix the flat tire before the green light"
    );
    play(&mut g, "Bob", "spare");
    play(&mut g, "Alice", "junk 25");
    play(&mut g, "Bob", "green light");
    assert!(team(&g, "Bob").rolling());
    // Without the variant the second attack is refused.
    let mut g = table(
        &opts(Ruleset::Playroom),
        &["speed limit, flat tire, 25, 50, 75, 100", FILL],
        "25, 50",
    );
    play(&mut g, "Alice", "limit @Bob");
    play(&mut g, "Bob", "junk 25");
    assert!(refuse(&g, "Alice", "flat @Bob").contains("already stopped"));
}

#[test]
fn variant_reshuffle_the_junk_pile_into_an_empty_draw_pile() {
    let o = Options {
        reshuffles: 1,
        ..opts(Ruleset::Playroom)
    };
    let mut g = table(&o, &["green light, 100, 25, 50, 75, 75", FILL], "200");
    empty_the_pile(&mut g);
    let junked = g.discard().len();
    let events = play(&mut g, "Alice", "junk 25");
    // Bob's draw found the pile empty: the junk (with Alice's 25) came back.
    assert!(
        events.contains(&Event::Reshuffled { cards: junked + 1 }),
        "{events:?}"
    );
    assert_eq!(g.deck_left(), junked);
    assert_eq!(g.hand(seat("Bob")).len(), 7);
    assert!(g.discard().is_empty());
}

#[test]
fn variant_counterflow() {
    let o = Options {
        counterflow: true,
        ..opts(Ruleset::Playroom)
    };
    assert_eq!(o.deck(2).len(), 113);
    let mut g = table(
        &o,
        &[
            "green light, 100, 75, 50, 25, end of counterflow",
            "counterflow, counterflow, 25, 50, 75, 100",
        ],
        "100, 25, 50, 25, 75, 50, 25, 50, 25, 75, driving ace",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "counterflow @Alice");
    play(&mut g, "Alice", "100");
    // Driving the wrong way: never below the start.
    assert_eq!(team(&g, "Alice").distance, 0);
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "end of counterflow");
    play(&mut g, "Bob", "junk 50");
    play(&mut g, "Alice", "100");
    assert_eq!(team(&g, "Alice").distance, 100);
    play(&mut g, "Bob", "counterflow @Alice");
    play(&mut g, "Alice", "75");
    assert_eq!(team(&g, "Alice").distance, 25);
    play(&mut g, "Bob", "junk 75");
    // The driving ace is immune to counterflow and ends it.
    play(&mut g, "Alice", "driving ace");
    assert!(!team(&g, "Alice").counterflow());
    assert_eq!(
        g.check_attack(0, Card::Counterflow)
            .unwrap_err()
            .to_string(),
        "Alice is protected against a counterflow by driving ace"
    );
}

#[test]
fn counterflow_can_go_on_a_stopped_car() {
    let o = Options {
        counterflow: true,
        ..opts(Ruleset::Playroom)
    };
    let mut g = table(&o, &["counterflow, 25, 25, 50, 75, 100", FILL], "25");
    play(&mut g, "Alice", "wrong way @Bob");
    assert!(team(&g, "Bob").counterflow());
}

// ----- 1000 Yards -----

#[test]
fn yards_deck_targets_and_one_race() {
    let y = yards();
    assert_eq!(y.deck(4).len(), 112);
    assert_eq!(y.deck(2).len(), 107);
    assert_eq!(y.deck(3).len(), 107);
    for (n, target) in [(2, 700), (3, 700), (4, 1000), (6, 700)] {
        let g = CardRace::setup(&y, &seats(n), Seed::from_u64(1)).unwrap();
        assert_eq!(g.target(), target, "{n} players");
        // Seven cards each, and nothing drawn before the first play.
        assert!(Seat::all(n).all(|s| g.hand(s).len() == 7));
    }
    let kind = crate::games::GameKind::ThousandYards;
    let o: Options = serde_json::from_value(kind.default_options()).unwrap();
    assert_eq!(
        (o.ruleset, o.rounds, o.target_score),
        (Ruleset::Yards, 1, 0)
    );
}

#[test]
fn yards_traffic_needs_a_crosswalk_then_a_go_and_a_counter_is_worth_200() {
    let o = Options {
        target_distance: 300,
        ..yards()
    };
    let mut g = table(
        &o,
        &[
            "go, traffic, 100, 100, 25, 50, 75",
            "go, crosswalk, go, 25, 50, 75, meal",
        ],
        "25, 25, hungry, 50, 75, 25, 100, 50",
    );
    play(&mut g, "Alice", "go");
    // Play, then draw back up to 7.
    assert_eq!(g.hand(seat("Alice")).len(), 7);
    play(&mut g, "Bob", "go");
    play(&mut g, "Alice", "traffic @Bob");
    assert_eq!(
        refuse(&g, "Bob", "go"),
        "that order isn't allowed: fix the traffic before the go"
    );
    play(&mut g, "Bob", "crosswalk");
    play(&mut g, "Alice", "100");
    assert!(!team(&g, "Bob").rolling());
    play(&mut g, "Bob", "go");
    play(&mut g, "Alice", "junk 25");
    // Alice drew the hungry card: Bob's meal answers it at once.
    assert!(g.hand(seat("Alice")).contains(&Card::OutOfGas));
    play(&mut g, "Bob", "50");
    let events = play(&mut g, "Alice", "hungry @Bob");
    assert!(events.iter().any(|e| matches!(e, Event::DirtyTrick { .. })));
    assert_eq!(
        g.narrate(
            events
                .iter()
                .find(|e| matches!(e, Event::DirtyTrick { .. }))
                .unwrap()
        )
        .text,
        "Counter! Bob answers Alice's hungry with meal (+200) and plays next."
    );
    play(&mut g, "Bob", "75");
    play(&mut g, "Alice", "100");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "100");
    // The race is over: distance plus counters, no other bonus.
    assert!(g.outcome().is_some());
    assert_eq!(lines(&g, 0, "Alice"), vec![(Line::Distance, 300)]);
    assert_eq!(
        lines(&g, 0, "Bob"),
        vec![(Line::Distance, 125), (Line::DirtyTricks, 200)]
    );
}

#[test]
fn yards_restriction_needs_a_go_and_the_crossing_guard_special_rules() {
    let mut g = table(
        &yards(),
        &[
            "restriction, flat tire, restriction, 25, 50, 75, 100",
            "crossing guard, go, 100, 25, 50, 75, pump",
        ],
        "25, 50, 75, 100, 25, 50",
    );
    assert_eq!(
        refuse(&g, "Alice", "restriction @Bob"),
        "that order isn't allowed: Bob is already stopped; you can only attack a car that is rolling"
    );
    play(&mut g, "Alice", "junk 25");
    play(&mut g, "Bob", "crossing guard");
    // No go needed with the crossing guard.
    play(&mut g, "Bob", "100");
    assert_eq!(team(&g, "Bob").distance, 100);
    // Restrictions are ignored for the rest of the game; trouble may come without a go.
    assert!(refuse(&g, "Alice", "restriction @Bob").contains("protected"));
    play(&mut g, "Alice", "flat tire @Bob");
    play(&mut g, "Bob", "pump");
    // Fixed, and rolling again without a go.
    assert!(team(&g, "Bob").rolling());
}

#[test]
fn options_read_from_text_for_both_kinds() {
    use crate::games::GameKind;
    let v = GameKind::MilleBornes
        .apply_options(
            None,
            "ruleset=published attacks-cumulate=yes counter-timeout=60 teams=2",
        )
        .unwrap();
    let o: Options = serde_json::from_value(v).unwrap();
    assert_eq!(o.ruleset, Ruleset::Published);
    assert!(o.attacks_cumulate);
    assert_eq!(
        (o.counter_timeout, o.teams, o.target_score),
        (crate::engine::DecisionWindow::Seconds(60), 2, 5000)
    );
    let e = GameKind::MilleBornes
        .apply_options(None, "target-score=0 rounds=0")
        .unwrap_err();
    assert!(
        e.to_string().contains("target-score or a number of rounds"),
        "{e}"
    );
    assert!(
        GameKind::ThousandYards
            .apply_options(None, "ruleset=chess")
            .is_err()
    );
    assert!(
        GameKind::ThousandYards
            .apply_options(None, "counter-timeout=1")
            .is_err()
    );
    assert_eq!(
        GameKind::from_slug("1000miles"),
        Some(GameKind::MilleBornes)
    );
    assert_eq!(GameKind::from_slug("yards"), Some(GameKind::ThousandYards));
    assert_eq!(GameKind::ThousandYards.title(), "1000 Yards");
    let text = GameKind::MilleBornes.describe_options(&GameKind::MilleBornes.default_options());
    assert!(
        text.contains("ruleset=playroom") && text.contains("target-score=5000"),
        "{text}"
    );
}
