//! Orders as players type them, the prompt's choices, missed turns and the bot,
//! preferences, and what each view may show (hands, resampling).

use super::*;

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
    // The post's "Missed orders" says it was played for Alice, once.
    assert_eq!(text, "Alice plays green light.");
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
fn the_hand_peeking_redraw_keeps_every_hand_and_shuffles_only_the_deck() {
    let g = CardRace::setup(&opts(Ruleset::Playroom), &seats(2), Seed::from_u64(8)).unwrap();
    let peek = g.resample_deck_cheat(Seat(0), &mut GameRng::seeded(1));
    assert_eq!(peek.hands, g.hands, "every hand is kept");
    assert_ne!(peek.deck, g.deck, "the deck is drawn again");
    let (mut a, mut b) = (peek.deck.clone(), g.deck.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "from the same cards");
}
