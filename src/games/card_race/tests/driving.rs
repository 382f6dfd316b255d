//! Driving: distance and the green light, the exact trip, attacks and their remedies,
//! immunities, junking, and a round ending when a hand runs out.

use super::*;

// ----- distance, the green light, the trip -----

#[test]
fn a_round_starts_stopped_and_the_green_light_lets_you_drive() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, 100, 25, 50, 75, 75",
            "green light, 100, 25, 50, 75, 200",
        ],
        "100, 75, 50, 25",
    );
    // Draw to 7 before playing.
    assert_eq!(g.hand(seat("Alice")).len(), 7);
    assert_eq!(g.hand(seat("Bob")).len(), 6);
    assert_eq!(
        refuse(&g, "Alice", "play 100"),
        "that order isn't allowed: you can't drive: you need a green light"
    );
    play(&mut g, "Alice", "green light");
    // Six cards at the end of a turn.
    assert_eq!(g.hand(seat("Alice")).len(), 6);
    assert_eq!(to_play(&g), Some(seat("Bob")));
    play(&mut g, "Bob", "Green");
    play(&mut g, "Alice", "PLAY 100 miles");
    assert_eq!(team(&g, "Alice").distance, 100);
    assert!(team(&g, "Alice").rolling());
}

#[test]
fn the_trip_is_reached_exactly_and_scores_the_trip() {
    let o = Options {
        target_distance: 300,
        ..opts(Ruleset::Playroom)
    };
    let mut g = table(
        &o,
        &[
            "green light, 200, 50, 100, 25, 75",
            "green light, 100, 25, 50, 75, 75",
        ],
        "25, 25, 50, 50, 75, 75",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Alice", "200");
    play(&mut g, "Bob", "25");
    play(&mut g, "Alice", "75");
    play(&mut g, "Bob", "25");
    assert_eq!(
        refuse(&g, "Alice", "100"),
        "that order isn't allowed: 100 would take you to 375, past the 300 of the trip; it must be reached exactly"
    );
    let events = play(&mut g, "Alice", "25");
    assert!(events.iter().any(
        |e| matches!(e, Event::RoundEnded { result, .. } if result.ended == RoundEnd::Trip { team: 0 })
    ));
    assert_eq!(
        lines(&g, 0, "Alice"),
        vec![(Line::Distance, 300), (Line::Trip, 300)]
    );
    assert_eq!(lines(&g, 0, "Bob"), vec![(Line::Distance, 50)]);
    // A new round is dealt; Bob starts it.
    assert_eq!(g.round(), 2);
    assert_eq!(to_play(&g), Some(seat("Bob")));
    assert_eq!(team(&g, "Alice").total, 600);
}

#[test]
fn at_most_two_200s() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &["green light, 200, 200, 200, 25, 75", FILL],
        "25, 50, 50, 50, 50",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "200");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "200");
    play(&mut g, "Bob", "junk 50");
    assert_eq!(
        refuse(&g, "Alice", "200"),
        "that order isn't allowed: you have already played two 200s this round"
    );
}

/// In teams the limit is the team's: a partner's 200s count, and the refusal says so.
#[test]
fn a_teams_two_200s_are_the_limit_for_both_partners() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, 200, 25, 25, 75, 75",
            FILL,
            "200, 200, 25, 50, 50, 75",
            FILL,
        ],
        "100, 100, 100, 100, 100, 100, 100, 100",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Carol", "200");
    play(&mut g, "Dave", "junk 25");
    play(&mut g, "Alice", "200");
    play(&mut g, "Bob", "junk 25");
    assert_eq!(
        refuse(&g, "Carol", "200"),
        "that order isn't allowed: your team has already played two 200s this round"
    );
}

// ----- attacks and defenses -----

#[test]
fn attacks_stop_a_rolling_car_and_need_the_remedy_then_a_green_light() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, spare tire, green light, 100, 25, 50",
            "green light, flat tire, red light, 75, 25, 50",
        ],
        "25, 25, 50, 50, 75, 75",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "flat tire @Alice");
    assert!(!team(&g, "Alice").rolling());
    assert_eq!(
        refuse(&g, "Alice", "100"),
        "that order isn't allowed: you can't drive: you are stopped by a flat tire"
    );
    assert_eq!(
        refuse(&g, "Alice", "green light"),
        "that order isn't allowed: fix the flat tire before the green light"
    );
    play(&mut g, "Alice", "spare");
    play(&mut g, "Bob", "junk 25");
    assert_eq!(
        refuse(&g, "Alice", "100"),
        "that order isn't allowed: you can't drive: you need a green light"
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "100");
    assert_eq!(team(&g, "Alice").distance, 100);
}

#[test]
fn a_blocked_player_cannot_be_attacked() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "red light, flat tire, accident, 100, 25, 50",
            "green light, 25, 25, 75, 25, 50",
        ],
        "out of gas, 25, 50, 50, 75, 75",
    );
    // Bob has not played a green light yet.
    assert_eq!(
        refuse(&g, "Alice", "red light @Bob"),
        "that order isn't allowed: Bob is already stopped; you can only attack a car that is rolling"
    );
    play(&mut g, "Alice", "junk 25");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Alice", "flat tire @Bob");
    play(&mut g, "Bob", "junk 25");
    assert_eq!(
        refuse(&g, "Alice", "accident @Bob"),
        "that order isn't allowed: Bob is already stopped; you can only attack a car that is rolling"
    );
}

#[test]
fn a_red_light_is_fixed_by_a_green_light_alone() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, green light, 100, 25, 50, 75",
            "green light, red light, 25, 25, 50, 75",
        ],
        "25, 25, 50, 50",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "stop @Alice");
    assert!(team(&g, "Alice").has(Card::Stop));
    play(&mut g, "Alice", "green light");
    assert!(team(&g, "Alice").rolling());
}

#[test]
fn a_speed_limit_can_go_on_a_stopped_car_and_allows_only_25_and_50() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "speed limit, 25, 25, 50, 75, 100",
            "green light, end of speed limit, 100, 50, 25, 75",
        ],
        "25, 25, 50, 50",
    );
    play(&mut g, "Alice", "limit @Bob");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Alice", "junk 25");
    assert_eq!(
        refuse(&g, "Bob", "100"),
        "that order isn't allowed: you are under a speed limit: only 25 and 50 may be played"
    );
    play(&mut g, "Bob", "50");
    play(&mut g, "Alice", "junk 25");
    play(&mut g, "Bob", "end of limit");
    play(&mut g, "Alice", "junk 50");
    play(&mut g, "Bob", "100");
    assert_eq!(team(&g, "Bob").distance, 150);
}

#[test]
fn a_remedy_needs_something_to_fix() {
    let g = table(
        &opts(Ruleset::Playroom),
        &["gas, 25, 25, 50, 75, 100", FILL],
        "25",
    );
    assert_eq!(
        refuse(&g, "Alice", "gasoline"),
        "that order isn't allowed: there is nothing for a gas to fix"
    );
    assert_eq!(
        refuse(&g, "Alice", "spare"),
        "that order isn't allowed: you don't have a spare tire in your hand"
    );
}

// ----- immunities -----

#[test]
fn an_immunity_protects_for_the_round_and_gives_another_play() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "puncture-proof, green light, 25, 50, 75, 100",
            "green light, flat tire, 25, 25, 50, 75",
        ],
        "25, 50, 75, 25",
    );
    play(&mut g, "Alice", "puncture proof");
    // Still Alice's turn, with a full hand again.
    assert_eq!(to_play(&g), Some(seat("Alice")));
    assert_eq!(g.hand(seat("Alice")).len(), 7);
    play(&mut g, "Alice", "green light");
    assert_eq!(
        refuse(&g, "Bob", "flat tire @Alice"),
        "that order isn't allowed: Alice is protected against a flat tire by puncture-proof"
    );
}

#[test]
fn right_of_way_means_no_green_light_and_no_red_light_or_limit() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "right of way, 100, 25, 50, 75, 25",
            "red light, speed limit, accident, 25, 50, 75",
        ],
        "green light, repairs, 50, 75, 25, 50",
    );
    play(&mut g, "Alice", "right of way");
    // No green light is needed.
    play(&mut g, "Alice", "100");
    assert_eq!(
        refuse(&g, "Bob", "red light @Alice"),
        "that order isn't allowed: Alice is protected against a red light by right of way"
    );
    assert!(refuse(&g, "Bob", "speed limit @Alice").contains("protected"));
    play(&mut g, "Bob", "accident @Alice");
    // Alice drew the green light then repairs; the green light is never needed.
    assert_eq!(
        refuse(&g, "Alice", "green light"),
        "that order isn't allowed: you have right of way: you never need a green light"
    );
    play(&mut g, "Alice", "repairs");
    assert!(team(&g, "Alice").rolling());
}

/// The race chart's turns: a mark each time the round's first player is to play again,
/// none for the free play after an immunity, and one where the round ends; a new round
/// starts with none.
#[test]
fn the_view_notes_distances_turn_by_turn_for_the_race_chart() {
    for rounds in [1, 2] {
        let options = Options {
            target_distance: 200,
            target_score: 0,
            rounds,
            ..opts(Ruleset::Playroom)
        };
        let mut g = table(
            &options,
            &[
                "green light, 100, 100, 25, 50, 75",
                "right of way, 75, 25, 50, 75, 25",
            ],
            "50, 50, 75, 25",
        );
        assert!(g.public_view().turns.is_empty());
        play(&mut g, "Alice", "green light");
        // An immunity and the free play after it are one turn.
        play(&mut g, "Bob", "right of way");
        play(&mut g, "Bob", "75");
        assert_eq!(
            g.public_view().turns,
            [TurnMark {
                turn: 1,
                distances: vec![0, 75]
            }]
        );
        play(&mut g, "Alice", "100");
        play(&mut g, "Bob", "25");
        // Alice's second 100 completes the trip during turn 3.
        play(&mut g, "Alice", "100");
        let turns: Vec<(u32, Vec<u32>)> = g
            .public_view()
            .turns
            .iter()
            .map(|m| (m.turn, m.distances.clone()))
            .collect();
        if rounds == 1 {
            assert!(g.public_view().finished);
            assert_eq!(
                turns,
                [(1, vec![0, 75]), (2, vec![100, 100]), (3, vec![200, 100])]
            );
        } else {
            assert_eq!(g.round(), 2);
            assert!(turns.is_empty(), "{turns:?}");
        }
    }
}

#[test]
fn an_immunity_ends_the_problem_in_force_but_a_green_light_is_still_needed() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, extra tank, green light, 25, 50, 75",
            "green light, out of gas, 25, 25, 50, 75",
        ],
        "25, 50, 75, 100",
    );
    play(&mut g, "Alice", "green light");
    // Bob is set to ask, so his own tank... Alice's tank is in her hand: auto answers.
    g.set_preference(seat("Alice"), "dirty-trick ask").unwrap();
    play(&mut g, "Bob", "out of gas @Alice");
    // A window: Alice declines, then plays the extra tank on her turn.
    play(&mut g, "Alice", "decline");
    assert!(team(&g, "Alice").has(Card::OutOfGas));
    play(&mut g, "Alice", "extra tank");
    assert!(!team(&g, "Alice").has(Card::OutOfGas));
    assert!(!team(&g, "Alice").rolling());
    play(&mut g, "Alice", "green light");
    assert!(team(&g, "Alice").rolling());
}

// ----- junk, and the end of a round -----

#[test]
fn a_junked_card_is_out_of_the_round_and_junking_is_always_allowed() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &["green light, 100, 25, 50, 75, 75", FILL],
        "200",
    );
    play(&mut g, "Alice", "junk green light");
    assert_eq!(g.discard(), &[Card::Go]);
    assert!(!g.hand(seat("Alice")).contains(&Card::Go));
    assert_eq!(g.public_view().discard, vec![Card::Go]);
}

#[test]
fn the_round_ends_when_a_player_has_no_card() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, 100, 25, 50, 75, 75",
            "green light, 25, 25, 50, 50, 75",
        ],
        "200",
    );
    empty_the_pile(&mut g);
    let count = g.card_count();
    // Alice holds 7 (she drew the 200), Bob 6; each junks in turn.
    let junk_first =
        |g: &CardRace, who: &str| format!("junk {}", g.card_name(g.hand(seat(who))[0]));
    for _ in 0..5 {
        let a = junk_first(&g, "Alice");
        play(&mut g, "Alice", &a);
        let b = junk_first(&g, "Bob");
        play(&mut g, "Bob", &b);
    }
    assert_eq!(g.card_count(), count);
    assert!(g.history().is_empty());
    let a = junk_first(&g, "Alice");
    play(&mut g, "Alice", &a);
    let b = junk_first(&g, "Bob");
    // Bob's last card: the round ends at once, with no trip.
    play(&mut g, "Bob", &b);
    assert_eq!(g.history()[0].ended, RoundEnd::NoCards);
    assert_eq!(g.round(), 2);
}
