//! The card race's rules, rulings and variants as scenario tests played through the
//! parser a player uses, and the random-simulation test for every ruleset and table.

use super::game_views::PublicView;
use super::replay::stack_cards;
use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{Game, Mode, Submitted, Window, read_order};

const NAMES: [&str; 9] = [
    "Alice", "Bob", "Carol", "Dave", "Emily", "Frank", "George", "Helen", "Ivan",
];

fn opts(ruleset: Ruleset) -> Options {
    Options {
        ruleset,
        ..Options::default()
    }
}

fn yards() -> Options {
    Options {
        ruleset: Ruleset::Yards,
        target_score: 0,
        rounds: 1,
        ..Options::default()
    }
}

fn cards(list: &str) -> Vec<Card> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match cards::read_card(&cards::normalise(s)) {
            Some((c, "")) => c,
            _ => panic!("not a card: {s}"),
        })
        .collect()
}

fn seats(n: usize) -> Vec<SeatSetup> {
    NAMES[..n].iter().map(|s| SeatSetup::named(*s)).collect()
}

/// A table of `hands.len()` players whose first round deals `hands` and then draws `pile`.
fn table(options: &Options, hands: &[&str], pile: &str) -> CardRace {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let deck = stack_cards(options, n, 1, hands, cards(pile), &mut GameRng::seeded(9)).unwrap();
    CardRace::setup_stacked(options, &seats(n), Seed::from_u64(1), vec![deck]).unwrap()
}

fn seat(name: &str) -> Seat {
    Seat(NAMES.iter().position(|n| *n == name).unwrap() as u8)
}

fn play(g: &mut CardRace, who: &str, text: &str) -> Vec<Event> {
    let s = seat(who);
    let order = read_order(g, s, text).unwrap_or_else(|e| panic!("{who}: {text}: {e}"));
    g.apply(&[Submitted::new(s, order)])
}

fn refuse(g: &CardRace, who: &str, text: &str) -> String {
    read_order(g, seat(who), text).unwrap_err().to_string()
}

fn team<'a>(g: &'a CardRace, who: &str) -> &'a Team {
    g.team_of(seat(who)).unwrap()
}

fn to_play(g: &CardRace) -> Option<Seat> {
    match g.phase() {
        Phase::Turn { seat } => Some(*seat),
        _ => None,
    }
}

fn lines(g: &CardRace, round: usize, who: &str) -> Vec<(Line, i64)> {
    let t = g.team_index(seat(who));
    g.history()[round]
        .scores
        .iter()
        .find(|s| s.team == t)
        .unwrap()
        .lines
        .iter()
        .map(|l| (l.line, l.points))
        .collect()
}

/// Moves the draw pile to the junk pile, as if it had been drawn and junked.
fn empty_the_pile(g: &mut CardRace) {
    let mut d = std::mem::take(&mut g.deck);
    g.discard.append(&mut d);
}

const FILL: &str = "25, 25, 50, 50, 75, 75";

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
        "that order isn't allowed: you can't drive: you have a flat tire"
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

// ----- dirty tricks -----

#[test]
fn dirty_trick_auto_cancels_the_attack_scores_300_and_skips_turns() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, red light, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
            "green light, right of way, 25, 50, 75, 100",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Carol", "green light");
    let events = play(&mut g, "Alice", "stop @Carol");
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::DirtyTrick {
                seat: Seat(2),
                safety: Card::RightOfWay,
                attack: Card::Stop,
                ..
            }
        )),
        "{events:?}"
    );
    let carol = team(&g, "Carol");
    assert!(carol.rolling() && !carol.has(Card::Stop));
    assert_eq!(
        carol.safeties,
        vec![SafetyPlay {
            card: Card::RightOfWay,
            dirty_trick: true
        }]
    );
    // The red light went to the junk pile; Carol drew back to 7 and plays next: Bob is skipped.
    assert_eq!(g.discard(), &[Card::Stop]);
    assert_eq!(to_play(&g), Some(seat("Carol")));
    assert_eq!(g.hand(seat("Carol")).len(), 7);
    let text = g
        .narrate(
            events
                .iter()
                .find(|e| matches!(e, Event::DirtyTrick { .. }))
                .unwrap(),
        )
        .text;
    assert_eq!(
        text,
        "Dirty trick! Carol answers Alice's red light with right of way (+300) and plays next."
    );
    play(&mut g, "Carol", "100");
    assert_eq!(to_play(&g), Some(seat("Alice")));
    assert_eq!(g.public_view().teams[2].round_score, 100 + 100 + 300);
}

fn ask_table() -> CardRace {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, red light, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
            "green light, right of way, 25, 50, 75, 100",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    g.set_preference(seat("Carol"), "dirty-trick ask").unwrap();
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Carol", "green light");
    play(&mut g, "Alice", "stop @Carol");
    g
}

#[test]
fn dirty_trick_ask_opens_a_window_for_the_victim_then_the_next_seat() {
    let g = ask_table();
    let p = g.pending();
    assert_eq!(p.mode, Mode::Any);
    assert_eq!(p.seats, vec![seat("Carol"), seat("Bob")]);
    assert_eq!(p.window, Window::Seconds(300));
    // The attack has landed meanwhile.
    assert!(team(&g, "Carol").has(Card::Stop));
    // Bob has not drawn yet.
    assert_eq!(g.hand(seat("Bob")).len(), 6);
    let carol: Vec<String> = g
        .prompt(seat("Carol"))
        .choices
        .iter()
        .map(|c| c.order.clone())
        .collect();
    assert_eq!(carol, vec!["counter", "decline"]);
    assert!(
        g.prompt(seat("Bob"))
            .choices
            .iter()
            .any(|c| c.order == "draw")
    );
    assert_eq!(
        refuse(&g, "Carol", "play 100"),
        "that order isn't allowed: it isn't your turn yet: you may only `counter` or `decline` now"
    );
    assert_eq!(
        refuse(&g, "Bob", "counter"),
        "that order isn't allowed: the red light wasn't played on your team"
    );
}

#[test]
fn dirty_trick_ask_counter() {
    let mut g = ask_table();
    play(&mut g, "Carol", "counter");
    assert!(!team(&g, "Carol").has(Card::Stop));
    assert!(team(&g, "Carol").safeties[0].dirty_trick);
    assert_eq!(to_play(&g), Some(seat("Carol")));
}

#[test]
fn dirty_trick_ask_the_next_seats_play_closes_the_window() {
    let mut g = ask_table();
    play(&mut g, "Bob", "play 100");
    // Bob drew, then played his 100 as his turn; the red light stands.
    assert_eq!(team(&g, "Bob").distance, 100);
    assert!(team(&g, "Carol").has(Card::Stop));
    assert_eq!(to_play(&g), Some(seat("Carol")));
    assert_eq!(g.hand(seat("Bob")).len(), 6);
}

#[test]
fn dirty_trick_ask_draw_closes_the_window_and_starts_the_turn() {
    let mut g = ask_table();
    play(&mut g, "Bob", "draw");
    assert_eq!(to_play(&g), Some(seat("Bob")));
    assert_eq!(g.hand(seat("Bob")).len(), 7);
    assert!(team(&g, "Carol").has(Card::Stop));
}

#[test]
fn dirty_trick_ask_at_the_deadline_the_victim_declines() {
    let mut g = ask_table();
    let events = g.apply(&[]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::WindowClosed {
            declined: true,
            missed: true,
            ..
        }
    )));
    assert!(team(&g, "Carol").has(Card::Stop));
    assert_eq!(to_play(&g), Some(seat("Bob")));
    let mut g = ask_table();
    play(&mut g, "Carol", "decline");
    assert!(team(&g, "Carol").has(Card::Stop));
    assert_eq!(to_play(&g), Some(seat("Bob")));
}

#[test]
fn dirty_trick_ask_opens_the_window_without_the_card_too() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, red light, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    g.set_preference(seat("Carol"), "dirty-trick ask").unwrap();
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Carol", "green light");
    play(&mut g, "Alice", "stop @Carol");
    // The same window as when Carol holds right of way: it tells the table nothing.
    assert_eq!(g.pending().seats, vec![seat("Carol"), seat("Bob")]);
    assert_eq!(
        refuse(&g, "Carol", "counter"),
        "that order isn't allowed: you don't hold right of way, so you can't answer with a dirty trick"
    );
    let choices: Vec<String> = g
        .prompt(seat("Carol"))
        .choices
        .iter()
        .map(|c| c.order.clone())
        .collect();
    assert_eq!(choices, vec!["decline"]);
}

#[test]
fn in_team_play_the_teammate_holding_the_immunity_answers() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, accident, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
            "25, 25, 50, 75, 100, 100",
            "driving ace, 25, 50, 75, 100, 50",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Carol", "junk 25");
    play(&mut g, "Dave", "junk 25");
    // Aimed at Bob, it lands on Bob & Dave; Dave holds the driving ace.
    play(&mut g, "Alice", "accident @Bob");
    assert!(team(&g, "Bob").safeties[0].dirty_trick);
    assert_eq!(to_play(&g), Some(seat("Dave")));
}

// ----- teams -----

#[test]
fn teams_share_a_tableau_and_are_seated_alternately() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, red light, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
            "100, 25, 25, 50, 75, 100",
            "75, 25, 50, 75, 100, 50",
        ],
        "25, 50, 75, 25, 50, 75, 100, 100, 100",
    );
    assert_eq!(g.team_label(0), "Alice & Carol");
    assert_eq!(g.team_label(1), "Bob & Dave");
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "junk 25");
    // Carol drives on the green light Alice played.
    play(&mut g, "Carol", "100");
    assert_eq!(team(&g, "Alice").distance, 100);
    play(&mut g, "Dave", "junk 25");
    assert_eq!(
        refuse(&g, "Alice", "stop @Carol"),
        "that order isn't allowed: you can't attack your own team"
    );
    // Without a name, an attack needs one: there is one other team, so it is implied.
    assert_eq!(
        g.parse_order(seat("Alice"), "stop"),
        Ok(Order::Play {
            card: Card::Stop,
            target: Some(1)
        })
    );
}

#[test]
fn teammates_share_their_teams_rank() {
    let o = Options {
        target_score: 500,
        ..opts(Ruleset::Playroom)
    };
    let mut g = CardRace::setup(&o, &seats(4), Seed::from_u64(5)).unwrap();
    let mut rng = GameRng::seeded(5);
    while g.outcome().is_none() {
        let s = g.pending().seats[0];
        let order = g.bot_order(s, crate::engine::BotLevel::Heuristic, &mut rng);
        g.apply(&[Submitted::new(s, order)]);
    }
    let out = g.outcome().unwrap();
    assert_eq!(out.rank_of(Seat(0)), out.rank_of(Seat(2)));
    assert_eq!(out.rank_of(Seat(1)), out.rank_of(Seat(3)));
    assert_ne!(out.rank_of(Seat(0)), out.rank_of(Seat(1)));
    assert!(g.teams().iter().any(|t| t.total >= 500));
}

#[test]
fn table_sizes_and_team_formations() {
    let formations = |o: &Options, n: usize| -> Vec<String> {
        let g = CardRace::setup(o, &seats(n), Seed::from_u64(1)).unwrap();
        (0..g.teams().len() as u8)
            .map(|t| g.team_label(t))
            .collect()
    };
    let p = opts(Ruleset::Playroom);
    assert_eq!(
        formations(&p, 6),
        ["Alice & Dave", "Bob & Emily", "Carol & Frank"]
    );
    assert_eq!(
        formations(
            &Options {
                teams: 2,
                ..p.clone()
            },
            6
        ),
        ["Alice & Carol & Emily", "Bob & Dave & Frank"]
    );
    assert_eq!(formations(&p, 8).len(), 4);
    assert_eq!(
        formations(
            &Options {
                teams: 2,
                ..p.clone()
            },
            8
        )
        .len(),
        2
    );
    assert_eq!(
        formations(&p, 9),
        [
            "Alice & Dave & George",
            "Bob & Emily & Helen",
            "Carol & Frank & Ivan"
        ]
    );
    assert_eq!(formations(&p, 3).len(), 3);
    let err = CardRace::setup(&p, &seats(5), Seed::from_u64(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "1000 miles is played by 2, 3, 4, 6, 8, 9 players, not 5"
    );
    assert!(CardRace::setup(&yards(), &seats(8), Seed::from_u64(1)).is_err());
    assert!(CardRace::setup(&opts(Ruleset::Published), &seats(8), Seed::from_u64(1)).is_err());
}

// ----- scoring -----

#[test]
fn coronation_hood_and_all_four_immunities() {
    let o = Options {
        target_distance: 200,
        ..opts(Ruleset::Playroom)
    };
    let mut g = table(
        &o,
        &[
            "right of way, extra tank, puncture-proof, driving ace, 100, 100",
            "25, 25, 50, 75, 100, 50",
        ],
        "25",
    );
    for s in [
        "right of way",
        "extra tank",
        "puncture proof",
        "driving ace",
    ] {
        play(&mut g, "Alice", s);
    }
    play(&mut g, "Alice", "100");
    empty_the_pile(&mut g);
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "100");
    assert_eq!(
        lines(&g, 0, "Alice"),
        vec![
            (Line::Distance, 200),
            (Line::Safeties, 400),
            (Line::AllSafeties, 300),
            (Line::Trip, 300),
            (Line::Delayed, 300),
            (Line::Shutout, 500),
        ]
    );
    let text = g.score_text(&g.history()[0].scores[0], None);
    assert_eq!(
        text,
        "Alice: 200 distance + 400 immunities + 300 all four immunities + 300 trip completed + 300 coronation + 500 hood = 2000"
    );
}

#[test]
fn all_four_immunities_need_the_trip_in_the_playroom_but_not_in_the_published_rules() {
    for (ruleset, expected) in [(Ruleset::Playroom, false), (Ruleset::Published, true)] {
        let o = Options {
            target_distance: 100,
            extension: false,
            ..opts(ruleset)
        };
        let mut g = table(
            &o,
            &[
                "right of way, extra tank, puncture-proof, driving ace, 25, 25",
                "green light, 100, 25, 50, 75, 50",
            ],
            "25, 25, 25, 25, 25, 50",
        );
        for s in [
            "right of way",
            "extra tank",
            "puncture proof",
            "driving ace",
        ] {
            play(&mut g, "Alice", s);
        }
        play(&mut g, "Alice", "junk 25");
        play(&mut g, "Bob", "green light");
        play(&mut g, "Alice", "junk 25");
        play(&mut g, "Bob", "100");
        let alice = lines(&g, 0, "Alice");
        assert_eq!(
            alice.contains(&(Line::AllSafeties, 300)),
            expected,
            "{ruleset:?} {alice:?}"
        );
    }
}

#[test]
fn published_rules_trip_400_and_safe_trip() {
    let o = Options {
        target_distance: 200,
        extension: false,
        ..opts(Ruleset::Published)
    };
    let mut g = table(
        &o,
        &[
            "green light, 100, 100, 25, 50, 75",
            "green light, 25, 25, 50, 50, 75",
        ],
        "25, 25, 50, 50, 75, 75",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Alice", "100");
    play(&mut g, "Bob", "25");
    play(&mut g, "Alice", "100");
    assert_eq!(
        lines(&g, 0, "Alice"),
        vec![
            (Line::Distance, 200),
            (Line::Trip, 400),
            (Line::SafeTrip, 300)
        ]
    );
}

#[test]
fn published_rules_two_players_play_to_700_with_an_extension_to_1000() {
    let o = opts(Ruleset::Published);
    assert_eq!(o.deck(2).len(), 101);
    let mut g = table(
        &o,
        &[
            "green light, 200, 200, 100, 100, 100",
            "green light, 25, 25, 50, 50, 75",
        ],
        "100, 25, 100, 25, 100, 25, 75, 25, 100, 50",
    );
    assert_eq!(g.target(), 700);
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    for (a, b) in [("200", "25"), ("200", "25"), ("100", "50")] {
        play(&mut g, "Alice", a);
        play(&mut g, "Bob", b);
    }
    play(&mut g, "Alice", "100");
    assert_eq!(team(&g, "Alice").distance, 600);
    play(&mut g, "Bob", "50");
    play(&mut g, "Alice", "100");
    assert_eq!(g.pending().seats, vec![seat("Alice")]);
    assert!(matches!(g.phase(), Phase::Extension { .. }));
    assert_eq!(
        refuse(&g, "Alice", "play 100"),
        "that order isn't allowed: first answer `extend` or `finish`"
    );
    play(&mut g, "Alice", "extend");
    assert_eq!(g.target(), 1000);
    assert_eq!(to_play(&g), Some(seat("Bob")));
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "100");
    play(&mut g, "Bob", "junk 25");
    play(&mut g, "Alice", "100");
    play(&mut g, "Bob", "junk 75");
    play(&mut g, "Alice", "100");
    assert_eq!(
        lines(&g, 0, "Alice"),
        vec![
            (Line::Distance, 1000),
            (Line::Trip, 400),
            (Line::Extension, 200)
        ]
    );
}

#[test]
fn published_rules_stopping_at_700_ends_the_round() {
    let o = Options {
        target_distance: 200,
        ..opts(Ruleset::Published)
    };
    let mut g = table(
        &o,
        &[
            "green light, 100, 100, 25, 50, 75",
            "green light, 25, 25, 50, 50, 75",
        ],
        "25, 25, 50, 50, 75, 75",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Alice", "100");
    play(&mut g, "Bob", "25");
    play(&mut g, "Alice", "100");
    play(&mut g, "Alice", "finish");
    assert_eq!(g.history()[0].ended, RoundEnd::Trip { team: 0 });
    assert!(
        !lines(&g, 0, "Alice")
            .iter()
            .any(|(l, _)| *l == Line::Extension)
    );
}

#[test]
fn the_game_runs_over_rounds_to_the_target_score() {
    let mut g = CardRace::setup(&opts(Ruleset::Playroom), &seats(2), Seed::from_u64(11)).unwrap();
    let mut rng = GameRng::seeded(11);
    while g.outcome().is_none() {
        let s = g.pending().seats[0];
        let order = g.bot_order(s, crate::engine::BotLevel::Heuristic, &mut rng);
        g.apply(&[Submitted::new(s, order)]);
    }
    assert!(g.history().len() > 1);
    let best = g.teams().iter().map(|t| t.total).max().unwrap();
    assert!(best >= 5000);
    for t in 0..2u8 {
        let sum: i64 = g
            .history()
            .iter()
            .flat_map(|r| r.scores.iter().filter(|s| s.team == t).map(|s| s.total))
            .sum();
        assert_eq!(sum, g.team(t).unwrap().total);
    }
    // A fixed number of rounds instead.
    let o = Options {
        target_score: 0,
        rounds: 2,
        ..opts(Ruleset::Playroom)
    };
    let mut g = CardRace::setup(&o, &seats(3), Seed::from_u64(2)).unwrap();
    while g.outcome().is_none() {
        let s = g.pending().seats[0];
        let order = g.default_order(s);
        g.apply(&[Submitted::new(s, order)]);
    }
    assert_eq!(g.history().len(), 2);
}

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

// ----- the parser -----

#[test]
fn orders_read_as_players_type_them() {
    let g = table(
        &opts(Ruleset::Playroom),
        &["green light, red light, 25, 50, 75, 100", FILL, FILL],
        "100",
    );
    let alice = seat("Alice");
    let p = |t: &str| g.parse_order(alice, t);
    assert_eq!(
        p("play 100"),
        Ok(Order::Play {
            card: Card::D100,
            target: None
        })
    );
    assert_eq!(
        p("100 miles"),
        Ok(Order::Play {
            card: Card::D100,
            target: None
        })
    );
    assert_eq!(
        p("STOP @bob"),
        Ok(Order::Play {
            card: Card::Stop,
            target: Some(1)
        })
    );
    assert_eq!(
        p("stop Bob"),
        Ok(Order::Play {
            card: Card::Stop,
            target: Some(1)
        })
    );
    assert_eq!(
        p("play red light on @Carol"),
        Ok(Order::Play {
            card: Card::Stop,
            target: Some(2)
        })
    );
    assert_eq!(p("junk 25"), Ok(Order::Junk { card: Card::D25 }));
    assert_eq!(p("discard green-light"), Ok(Order::Junk { card: Card::Go }));
    assert_eq!(p(" counter "), Ok(Order::Counter));
    // Three teams: an attack without a name is read, then refused.
    assert_eq!(
        p("stop"),
        Ok(Order::Play {
            card: Card::Stop,
            target: None
        })
    );
    assert_eq!(
        refuse(&g, "Alice", "stop"),
        "that order isn't allowed: say whom to attack, like `red light @Name`"
    );
    // Syntax apart from legality.
    assert_eq!(
        refuse(&g, "Alice", ""),
        "I couldn't read that order: the order is empty; try `play 100`, `stop @Bob` or `junk 25`"
    );
    assert_eq!(
        refuse(&g, "Alice", "play 30"),
        "I couldn't read that order: I don't know the card `30`; try `play 100`, `stop @Bob` or `junk 25`"
    );
    assert_eq!(
        refuse(&g, "Alice", "stop @Zed"),
        "I couldn't read that order: there is no player called `Zed` at this table"
    );
    assert_eq!(
        refuse(&g, "Alice", "100 @Bob"),
        "I couldn't read that order: A 100 is played on your own car; leave out the name"
    );
    assert_eq!(
        refuse(&g, "Alice", "junk"),
        "I couldn't read that order: `junk` needs a card, like `junk 25`"
    );
    assert_eq!(
        refuse(&g, "Alice", "play 200"),
        "that order isn't allowed: you don't have a 200 in your hand"
    );
    assert_eq!(
        refuse(&g, "Bob", "junk 25"),
        "there is nothing for you to order right now"
    );
    // The canonical text reads back.
    for o in g.legal_orders(alice) {
        let text = g.format_order(alice, &o);
        assert_eq!(read_order(&g, alice, &text), Ok(o), "{text}");
    }
    assert_eq!(
        g.format_order(
            alice,
            &Order::Play {
                card: Card::Stop,
                target: Some(1)
            }
        ),
        "play red light @Bob"
    );
}

#[test]
fn the_prompt_lists_every_play_grouped_by_card_then_junk() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, red light, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 100",
        ],
        "25, 50, 75, 100",
    );
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    play(&mut g, "Carol", "green light");
    let prompt = g.prompt(seat("Alice"));
    let red: Vec<(&str, &str)> = prompt
        .choices
        .iter()
        .filter(|c| c.group.as_deref() == Some("red light"))
        .map(|c| (c.order.as_str(), c.label.as_str()))
        .collect();
    assert_eq!(
        red,
        vec![
            ("play red light @Bob", "red light → Bob"),
            ("play red light @Carol", "red light → Carol")
        ]
    );
    assert!(
        prompt
            .choices
            .iter()
            .any(|c| c.order == "junk red light" && c.group.as_deref() == Some("junk"))
    );
    assert!(prompt.complete);
}

#[test]
fn a_missed_turn_is_played_by_the_bot_and_announced() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &["green light, red light, 25, 50, 75, 100", FILL],
        "25",
    );
    let order = g.default_order(seat("Alice"));
    assert_eq!(
        order,
        Order::Play {
            card: Card::Go,
            target: None
        }
    );
    let events = g.apply(&[Submitted::missed(seat("Alice"), order)]);
    let text = g.narrate(&events[0]).text;
    assert_eq!(
        text,
        "Alice plays green light. (missed turn: played by the bot)"
    );
    // No order at all at the deadline is the same.
    let events = g.apply(&[]);
    assert!(matches!(
        events[0],
        Event::Played { missed: true, .. } | Event::Junked { missed: true, .. }
    ));
}

#[test]
fn the_heuristic_remedies_attacks_the_leader_and_plays_the_largest_distance() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, flat tire, 25, 50, 100, 200",
            "green light, spare tire, 25, 50, 75, 100",
            "green light, 25, 25, 50, 75, 200",
        ],
        "25, 25, 50, 25, 25, 50, 75, 75",
    );
    for who in ["Alice", "Bob", "Carol"] {
        play(&mut g, who, "green light");
    }
    play(&mut g, "Alice", "200");
    play(&mut g, "Bob", "75");
    play(&mut g, "Carol", "200");
    // Carol leads... tied with Alice; Alice attacks the other leader, Carol.
    assert_eq!(
        g.default_order(seat("Alice")),
        Order::Play {
            card: Card::Flat,
            target: Some(2)
        }
    );
    play(&mut g, "Alice", "flat @Carol");
    // Bob, rolling, with nothing to fix: the largest distance.
    assert_eq!(
        g.default_order(seat("Bob")),
        Order::Play {
            card: Card::D100,
            target: None
        }
    );
}

#[test]
fn preferences_and_seat_choices() {
    let mut g = CardRace::setup(&opts(Ruleset::Playroom), &seats(2), Seed::from_u64(1)).unwrap();
    let msg = g.set_preference(Seat(1), "dirty-trick ask").unwrap();
    assert!(
        msg.contains("how long you take can tell the table"),
        "{msg}"
    );
    assert_eq!(g.pref(Seat(1)), CounterPref::Ask);
    assert!(g.set_preference(Seat(1), "sometimes").is_err());
    let mut s = seats(2);
    s[0].choice = Some("dirty-trick ask".into());
    let g = CardRace::setup(&opts(Ruleset::Playroom), &s, Seed::from_u64(1)).unwrap();
    assert_eq!(g.pref(Seat(0)), CounterPref::Ask);
    s[1].choice = Some("maybe".into());
    assert!(CardRace::setup(&opts(Ruleset::Playroom), &s, Seed::from_u64(1)).is_err());
    let dup = vec![SeatSetup::named("Ann"), SeatSetup::named("ann")];
    assert!(CardRace::setup(&opts(Ruleset::Playroom), &dup, Seed::from_u64(1)).is_err());
}

#[test]
fn draws_are_told_to_the_drawer_only_and_the_public_view_holds_no_hand() {
    let g = CardRace::setup(&opts(Ruleset::Playroom), &seats(2), Seed::from_u64(1)).unwrap();
    let mut g2 = g.clone();
    let order = g2.default_order(Seat(0));
    let events = g2.apply(&[Submitted::new(Seat(0), order)]);
    for e in &events {
        let n = g2.narrate(e);
        if let Event::Drew { seat, .. } = e {
            assert_eq!(n.audience, crate::engine::Audience::Seat(*seat));
        }
    }
    let v: PublicView = g.public_view();
    let json = serde_json::to_string(&v).unwrap();
    assert!(!json.contains("hand\""), "{json}");
    assert_eq!(v.players[0].hand_size, 7);
}

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
    assert_eq!(o["game"], "mille-bornes");
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
            let who = *rng.choose(&p.seats).unwrap();
            let order = if rng.chance(1, 2) {
                g.random_order(who, &mut rng)
            } else {
                g.bot_order(who, crate::engine::BotLevel::Heuristic, &mut rng)
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
    let text = include_str!("../../../docs/replay/card-race-example.json");
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
        let (text, json) = crate::games::sim(kind, &args).unwrap();
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
    assert!(crate::games::sim(crate::games::GameKind::MilleBornes, &bad).is_err());
}

#[test]
fn a_window_after_the_last_card_of_a_hand_ends_the_round_when_it_closes() {
    let mut g = table(
        &opts(Ruleset::Playroom),
        &[
            "green light, red light, 25, 50, 75, 100",
            "green light, right of way, 25, 50, 75, 100",
        ],
        "25, 50",
    );
    g.set_preference(seat("Bob"), "dirty-trick ask").unwrap();
    play(&mut g, "Alice", "green light");
    play(&mut g, "Bob", "green light");
    empty_the_pile(&mut g);
    // Alice is down to her red light.
    let rest: Vec<Card> = g.hands[0]
        .iter()
        .copied()
        .filter(|&c| c != Card::Stop)
        .collect();
    g.hands[0] = vec![Card::Stop];
    g.discard.extend(rest);
    play(&mut g, "Alice", "stop @Bob");
    let p = g.pending();
    assert_eq!((p.mode, p.seats.clone()), (Mode::Any, vec![seat("Bob")]));
    play(&mut g, "Bob", "counter");
    // The dirty trick scores, but the round is over: no extra turn.
    assert_eq!(g.history().len(), 1);
    assert_eq!(g.history()[0].ended, RoundEnd::NoCards);
    assert!(lines(&g, 0, "Bob").contains(&(Line::DirtyTricks, 300)));
    assert_eq!(g.round(), 2);
}

#[test]
fn resampling_redeals_only_what_the_viewer_cannot_see() {
    let g = CardRace::setup(&opts(Ruleset::Playroom), &seats(4), Seed::from_u64(8)).unwrap();
    let mut rng = GameRng::seeded(1);
    let other = g.resample_hidden(Some(Seat(1)), &mut rng);
    assert_eq!(other.hand(Seat(1)), g.hand(Seat(1)));
    assert_eq!(other.card_count(), g.card_count());
    for s in Seat::all(4) {
        assert_eq!(other.hand(s).len(), g.hand(s).len());
    }
    assert_ne!(other.hands, g.hands, "the others' hands are dealt again");
    assert_eq!(other.public_view(), g.public_view());
    assert_eq!(other.private_view(Seat(1)), g.private_view(Seat(1)));
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
    assert_eq!((o.counter_timeout, o.teams, o.target_score), (60, 2, 5000));
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
