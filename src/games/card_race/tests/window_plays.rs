//! In a dirty-trick window, a victim who plays the matching immunity
//! by any name (`puncture-proof`, `meal`, `play new tire`) makes the dirty trick (counter),
//! as both rulebooks define it: played at once, before the next player has played or
//! drawn. Only another play, a draw or `decline` lets the attack stand. These are the
//! tables where it bites: two players, and two teams, where the victim also plays next.

use super::*;

/// Whether `events` hold a dirty trick by `who` with `safety`.
fn tricked(events: &[Event], who: &str, safety: Card) -> bool {
    events.iter().any(|e| {
        matches!(e, Event::DirtyTrick { seat: s, safety: c, .. } if *s == seat(who) && *c == safety)
    })
}

/// 1000 miles, two players: Alice puts a flat tire on Bob (set to ask), who holds
/// puncture-proof and plays next.
fn miles_two(bob_pref: &str) -> CardRace {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, flat tire, 25, 50, 75, 100",
            "green light, puncture-proof, 25, 50, 75, 100",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    g.set_preference(seat("Bob"), bob_pref).unwrap();
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Alice", "flat tire");
    g
}

#[test]
fn miles_two_players_the_immunity_by_its_name_is_the_dirty_trick() {
    for text in [
        "puncture-proof",
        "play puncture-proof",
        "Puncture Proof",
        "new tire",
    ] {
        let mut g = miles_two("dirty-trick ask");
        assert_eq!(g.pending().seats, vec![seat("Bob")], "{text}");
        let events = play(&mut g, "Bob", text);
        assert!(
            tricked(&events, "Bob", Card::PunctureProof),
            "{text}: {events:?}"
        );
        let bob = team(&g, "Bob");
        assert!(bob.safeties[0].dirty_trick, "{text}");
        // As if nothing had happened: no flat tire, no green light needed.
        assert!(bob.rolling() && !bob.has(Card::Flat), "{text}");
        assert_eq!(g.discard(), &[Card::Flat], "{text}");
        assert_eq!(to_play(&g), Some(seat("Bob")), "{text}");
        assert_eq!(g.public_view().teams[1].round_score, 100 + 300, "{text}");
        // Bob drives at once.
        play(&mut g, "Bob", "100");
        assert_eq!(team(&g, "Bob").distance, 100);
    }
}

#[test]
fn miles_two_players_another_play_or_decline_lets_the_attack_stand() {
    let mut g = miles_two("dirty-trick ask");
    let events = play(&mut g, "Bob", "junk 25");
    assert!(!events.iter().any(|e| matches!(e, Event::DirtyTrick { .. })));
    assert!(team(&g, "Bob").has(Card::Flat));
    assert_eq!(to_play(&g), Some(seat("Alice")));
    let mut g = miles_two("dirty-trick ask");
    play(&mut g, "Bob", "decline");
    assert!(team(&g, "Bob").has(Card::Flat));
    assert_eq!(to_play(&g), Some(seat("Bob")));
    // Later, on his own turn, the same card is an ordinary immunity: no bonus.
    play(&mut g, "Bob", "puncture-proof");
    assert!(!team(&g, "Bob").safeties[0].dirty_trick);
}

#[test]
fn miles_two_players_the_prompt_offers_the_dirty_trick_once() {
    let g = miles_two("dirty-trick ask");
    let orders: Vec<String> = g
        .prompt(seat("Bob"))
        .choices
        .iter()
        .map(|c| c.order.clone())
        .collect();
    assert!(orders.contains(&"counter".to_string()), "{orders:?}");
    assert!(
        !orders.contains(&"play puncture-proof".to_string()),
        "{orders:?}"
    );
}

/// 1000 miles, two teams: Alice (with Carol) puts a flat tire on Bob & Dave, both set to
/// ask; `holder` holds puncture-proof.
fn miles_teams(holder: &str) -> CardRace {
    let (bob, dave) = if holder == "Bob" {
        (
            "green light, puncture-proof, 25, 50, 75, 100",
            "25, 25, 50, 75, 100, 50",
        )
    } else {
        (
            "green light, 25, 25, 50, 75, 100",
            "puncture-proof, 25, 50, 75, 100, 50",
        )
    };
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, flat tire, 25, 50, 75, 100",
            bob,
            "25, 25, 50, 75, 100, 100",
            dave,
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    g.set_preference(seat("Bob"), "dirty-trick ask").unwrap();
    g.set_preference(seat("Dave"), "dirty-trick ask").unwrap();
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Carol", "junk 25");
    play(&mut g, "Dave", "junk 25");
    play(&mut g, "Alice", "flat tire @Bob");
    g
}

#[test]
fn miles_two_teams_the_immunity_by_its_name_is_the_dirty_trick() {
    // Bob is attacked and plays next.
    let mut g = miles_teams("Bob");
    assert_eq!(g.pending().seats, vec![seat("Bob"), seat("Dave")]);
    let events = play(&mut g, "Bob", "puncture-proof");
    assert!(tricked(&events, "Bob", Card::PunctureProof), "{events:?}");
    assert!(team(&g, "Dave").safeties[0].dirty_trick);
    assert!(team(&g, "Dave").rolling());
    assert_eq!(to_play(&g), Some(seat("Bob")));
    // Dave, his teammate, answers by name while Bob has not played yet.
    let mut g = miles_teams("Dave");
    let events = play(&mut g, "Dave", "play puncture-proof");
    assert!(tricked(&events, "Dave", Card::PunctureProof), "{events:?}");
    assert!(team(&g, "Bob").safeties[0].dirty_trick);
    assert_eq!(to_play(&g), Some(seat("Dave")));
    assert_eq!(g.public_view().teams[1].round_score, 100 + 300);
}

/// 1000 Yards, two players: Alice makes Bob (set to ask) hungry; Bob holds a meal.
fn yards_two() -> CardRace {
    let mut g = table(
        &yards(),
        &[
            "go, hungry, 25, 50, 75, 100, 25",
            "go, meal, 25, 50, 75, 100, 25",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    g.set_preference(seat("Bob"), "counter ask").unwrap();
    play(&mut g, "Alice", "go");
    play(&mut g, "Bob", "go");
    play(&mut g, "Alice", "hungry");
    g
}

#[test]
fn yards_two_players_the_protection_by_its_name_is_the_counter() {
    for text in ["meal", "play meal", "extra tank"] {
        let mut g = yards_two();
        assert_eq!(g.pending().seats, vec![seat("Bob")], "{text}");
        let events = play(&mut g, "Bob", text);
        assert!(
            tricked(&events, "Bob", Card::ExtraTank),
            "{text}: {events:?}"
        );
        let bob = team(&g, "Bob");
        assert!(bob.safeties[0].dirty_trick && bob.rolling(), "{text}");
        assert_eq!(to_play(&g), Some(seat("Bob")), "{text}");
        // Bob drew back to seven and takes a turn.
        assert_eq!(g.hand(seat("Bob")).len(), 7, "{text}");
        assert_eq!(g.public_view().teams[1].round_score, 200, "{text}");
    }
    let mut g = yards_two();
    play(&mut g, "Bob", "junk 25");
    assert!(team(&g, "Bob").has(Card::OutOfGas));
}

#[test]
fn yards_two_teams_the_protection_by_its_name_is_the_counter() {
    let setup = || {
        let mut g = table(
            &yards(),
            &[
                "go, hungry, 25, 50, 75, 100, 25",
                "go, meal, 25, 50, 75, 100, 25",
                "25, 25, 50, 75, 100, 100, 50",
                "25, 25, 50, 75, 100, 100, 75",
            ],
            "25, 50, 75, 25, 50, 75, 100, 100, 100",
        );
        g.set_preference(seat("Bob"), "counter ask").unwrap();
        play(&mut g, "Alice", "go");
        play(&mut g, "Bob", "go");
        play(&mut g, "Carol", "junk 25");
        play(&mut g, "Dave", "junk 25");
        play(&mut g, "Alice", "hungry @Dave");
        g
    };
    let mut g = setup();
    assert_eq!(g.pending().seats, vec![seat("Bob")]);
    let events = play(&mut g, "Bob", "meal");
    assert!(tricked(&events, "Bob", Card::ExtraTank), "{events:?}");
    assert!(team(&g, "Dave").safeties[0].dirty_trick && team(&g, "Dave").rolling());
    assert_eq!(to_play(&g), Some(seat("Bob")));
    assert_eq!(g.public_view().teams[1].round_score, 200);
    let mut g = setup();
    play(&mut g, "Bob", "decline");
    assert!(team(&g, "Dave").has(Card::OutOfGas));
}
