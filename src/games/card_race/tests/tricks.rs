//! Dirty tricks (auto and ask, the answer window and its deadline) and teams (shared
//! tableaux, seating, table sizes).

use super::*;

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

#[test]
fn a_stored_race_with_a_numeric_counter_timeout_decodes_and_waits_as_before() {
    // Options as races stored them before `turn` existed.
    let mut stored = serde_json::to_value(opts(Ruleset::Playroom)).unwrap();
    stored["counter_timeout"] = serde_json::json!(300);
    let o: Options = serde_json::from_value(stored).unwrap();
    assert_eq!(o.counter_timeout, DecisionWindow::Seconds(300));
    let mut g = ask_table();
    g.options = o;
    assert_eq!(g.pending().window, Window::Seconds(300));
    let back: CardRace = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(back.pending().window, Window::Seconds(300));
    // `turn`, or a number as option text; a window under 10 s is refused.
    let read = |t: &str| crate::engine::apply_option_text(&Options::default(), t);
    assert_eq!(
        read("counter-timeout=turn").unwrap().counter_timeout,
        DecisionWindow::Turn
    );
    assert_eq!(
        read("counter-timeout=120").unwrap().counter_timeout,
        DecisionWindow::Seconds(120)
    );
    let short = read("counter-timeout=5").unwrap();
    assert!(short.check().is_err());
    assert!(read("counter-timeout=soon").is_err());
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
    // The race's turn length (the referee's deadline), not a short window.
    assert_eq!(p.window, Window::Decision);
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
        let order = crate::engine::bot_order(&g, s, crate::engine::BotLevel::Heuristic, &mut rng);
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
fn a_race_stored_before_standing_plays_keeps_none_and_equals_its_replay() {
    // Options and state as the first release stored them: no `standing_plays`, no list.
    let mut stored = serde_json::to_value(opts(Ruleset::Playroom)).unwrap();
    stored.as_object_mut().unwrap().remove("standing_plays");
    let o: Options = serde_json::from_value(stored).unwrap();
    assert!(
        !o.standing_plays,
        "a race begun before standing plays has none"
    );
    let seats = [SeatSetup::named("Alice"), SeatSetup::named("Bob")];
    let replayed = CardRace::setup(&o, &seats, Seed::from_u64(7)).unwrap();
    let mut json = serde_json::to_value(&replayed).unwrap();
    json["standing"] = serde_json::json!([]);
    let old: CardRace = serde_json::from_value(json).unwrap();
    assert_eq!(old, replayed, "an empty list is every seat with none");
    assert_eq!(old.standing(Seat(1)), StandingPlays::none());
    // A seat that sets plays differs from one that has none.
    let mut set = old.clone();
    set.set_preference(Seat(1), "standing default").unwrap();
    assert_ne!(set, replayed);
    assert_eq!(set.standing(Seat(1)), StandingPlays::conservative());
}
