//! What players read: roll-offs, and narration and prompts
//! that read right.

use super::*;

// ----- Roll-offs -----

#[test]
fn a_tied_roll_off_is_told_as_a_tie_then_rolled_again() {
    let mut seen_tie = false;
    for seed in 0..200u64 {
        let mut g =
            MagicalAthlete::setup(&Options::default(), &seats(2), Seed::from_u64(seed)).unwrap();
        let mut events = Vec::new();
        g.roll_off(&[Seat(0), Seat(1)], "a test", &mut events);
        let (last, ties) = events.split_last().expect("a roll-off");
        for e in ties {
            seen_tie = true;
            let Event::RollOff { rolls, winner, .. } = e else {
                panic!("{e:?}")
            };
            assert_eq!(*winner, None);
            assert_eq!(rolls[0].1, rolls[1].1);
            let text = g.narrate(e).text;
            assert!(text.ends_with(". A tie: everyone rolls again."), "{text}");
            assert!(!text.contains("wins"), "{text}");
        }
        let Event::RollOff { winner, .. } = last else {
            panic!("{last:?}")
        };
        let w = winner.expect("the last roll-off has a winner");
        assert!(
            g.narrate(last)
                .text
                .ends_with(&format!("P{} wins.", w.index() + 1))
        );
        if seen_tie {
            return;
        }
    }
    panic!("no tie in 200 seeds");
}

#[test]
fn the_drafts_roll_off_is_shown_with_the_first_pick() {
    let g = MagicalAthlete::setup(&Options::default(), &seats(3), Seed::from_u64(5)).unwrap();
    let Phase::Draft(d) = g.phase() else {
        panic!("the draft")
    };
    let first = d.current().unwrap();
    let rolls = d.roll_off.last().expect("the roll-off is kept").clone();
    let words: Vec<String> = rolls
        .iter()
        .map(|(s, r)| format!("P{} rolled {r}", s.index() + 1))
        .collect();
    let label = g.pending().label;
    assert!(
        label.starts_with(&format!(
            "P{} drafts first, after the roll-off (",
            first.index() + 1
        )),
        "{label}"
    );
    assert!(label.contains(&words.join(", ")), "{label}");
    let prompt = g.prompt(first).text;
    assert!(
        prompt.starts_with("Draft a racer from the line:"),
        "{prompt}"
    );
    assert!(prompt.contains(". You won the roll-off ("), "{prompt}");
    // The line's powers follow, one a line.
    assert!(prompt.contains("): you draft first.\n• "), "{prompt}");
    // Once a racer is drafted, the label is the usual one.
    let mut g = g;
    let order = g.default_order(first);
    g.apply(&[Submitted::new(first, order)]);
    assert!(
        g.pending().label.ends_with("drafts a racer"),
        "{}",
        g.pending().label
    );
}

#[test]
fn no_roll_off_after_the_last_race() {
    for seed in 0..12u64 {
        let (g, events) = play_defaults(&Options::default(), 3 + (seed % 3) as usize, seed);
        assert!(g.outcome().is_some());
        let last = events
            .iter()
            .position(|e| matches!(e, Event::Awarded { race: 4, .. }))
            .expect("race 4 is awarded");
        let after: Vec<&Event> = events[last..]
            .iter()
            .filter(|e| matches!(e, Event::RollOff { .. }))
            .collect();
        assert!(after.is_empty(), "seed {seed}: {after:?}");
    }
}

// ----- Narration and prompts -----

#[test]
fn mouth_reads_with_one_period() {
    let mut g = mild(&[(Kind::Mouth, 0), (Kind::Legs, 3)]);
    let mut events = go(&mut g, &[3]);
    events.extend(say(&mut g, "roll"));
    let text = told(&g, &events);
    assert!(
        text.contains("P2's Legs is eliminated by P1's M.O.U.T.H.\n"),
        "{text}"
    );
    assert!(!text.contains(".."), "{text}");
}

#[test]
fn the_turn_choice_reads_as_a_choice() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 9)]);
    let mut events = go(&mut g, &[]);
    assert_eq!(
        asked(&g),
        "Your turn: Legs is on space 0. Roll, or use its power?"
    );
    events.extend(say(&mut g, "legs"));
    let text = told(&g, &events);
    assert!(
        text.contains("P1's Legs chooses: move 5 instead of rolling.\n"),
        "{text}"
    );
    assert!(!text.contains("turn?"), "{text}");
    // A racer with no choice is just told to roll.
    assert_eq!(asked(&g), "Your turn: Banana is on space 9. Roll!");
}

#[test]
fn a_copycat_with_huge_babys_power_is_named_as_the_one_in_front() {
    let mut g = mild(&[(Kind::Legs, 4), (Kind::Copycat, 9), (Kind::HugeBaby, 12)]);
    let mut events = go(&mut g, &[]);
    events.extend(say(&mut g, "legs"));
    let text = told(&g, &events);
    assert!(
        text.contains("P1's Legs is put on space 8, behind P2's Copycat (Huge Baby's power).\n"),
        "{text}"
    );
    assert!(!text.contains("behind Huge Baby."), "{text}");
}

#[test]
fn the_skipper_is_named_without_the_article_after_a_possessive() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Skipper, 3)]);
    let mut events = go(&mut g, &[1, 2]);
    events.extend(say(&mut g, "roll"));
    let text = told(&g, &events);
    assert!(text.contains("P2's Skipper goes next."), "{text}");
    assert!(!text.contains("'s The Skipper"), "{text}");
}

#[test]
fn the_draft_and_the_pick_show_each_offered_racer_s_printed_power() {
    let mut g = MagicalAthlete::setup(&Options::default(), &seats(4), Seed::from_u64(9)).unwrap();
    let Phase::Draft(d) = g.phase() else {
        panic!("the draft")
    };
    let seat = d.current().unwrap();
    let line = d.line.clone();
    let prompt = g.prompt(seat).text;
    for k in &line {
        assert!(
            prompt.contains(&format!("\n• {}: {}", k.name(), k.power_text())),
            "{prompt}"
        );
    }
    assert!(prompt.len() <= 4096, "{}", prompt.len());
    for _ in 0..100 {
        if matches!(g.phase(), Phase::Pick { .. }) {
            break;
        }
        let orders: Vec<_> = g
            .pending()
            .seats
            .iter()
            .map(|&s| Submitted::new(s, g.default_order(s)))
            .collect();
        g.apply(&orders);
    }
    assert!(matches!(g.phase(), Phase::Pick { .. }), "the pick");
    let hand = g.players[0].unused();
    let prompt = g.prompt(Seat(0)).text;
    for k in &hand {
        assert!(
            prompt.contains(&format!("\n• {}: {}", k.name(), k.power_text())),
            "{prompt}"
        );
    }
    // Only the seat's own hand.
    for k in crate::games::magical_athlete::racers::ALL {
        if !hand.contains(&k) {
            assert!(!prompt.contains(k.power_text()), "{k:?}: {prompt}");
        }
    }
}

/// The terminal's seat is called "You": "You draft", "Your Legs' turn", never "You drafts",
/// "You's Legs" or "Legs's" (a plural; "Genius's" stays).
#[test]
fn a_seat_called_you_reads_right() {
    let seats: Vec<SeatSetup> = ["You", "Ann"]
        .iter()
        .map(|n| SeatSetup::named(*n))
        .collect();
    let mut g = MagicalAthlete::setup(&Options::default(), &seats, Seed::from_u64(2)).unwrap();
    let mut texts = vec![g.pending().label];
    for _ in 0..20_000 {
        if g.outcome().is_some() {
            break;
        }
        let orders: Vec<_> = g
            .pending()
            .seats
            .iter()
            .map(|&s| Submitted::new(s, g.default_order(s)))
            .collect();
        for e in g.apply(&orders) {
            texts.push(g.narrate(&e).text);
        }
        texts.push(g.pending().label);
    }
    let all = texts.join("\n");
    for wrong in [
        "You wins",
        "You drafts",
        "You goes",
        "You's",
        "You has",
        "You is",
        "Legs's",
    ] {
        assert!(!all.contains(wrong), "{wrong:?} in:\n{all}");
    }
    assert!(all.contains("You draft"), "{all}");
    assert!(all.contains("Your "), "{all}");
    // A racer whose name ends in s takes a bare apostrophe.
    let legs = MagicalAthlete::scenario(
        &["Ann", "You"],
        Track::Mild,
        &[(Kind::Legs, Seat(0), 0), (Kind::Banana, Seat(1), 0)],
        Seat(0),
        Options::default(),
    );
    let race = legs.race().unwrap();
    assert_eq!(legs.who_text(&race.who(0)), "Ann's Legs");
    assert_eq!(legs.who_text(&race.who(1)), "Your Banana");
    for (r, said) in [(0, "Ann's Legs' turn"), (1, "Your Banana's turn")] {
        let turn = legs.narrate(&Event::Race {
            event: RaceEvent::TurnStarted {
                racer: race.who(r),
                space: 0,
                extra: None,
            },
        });
        assert!(turn.text.starts_with(said), "{}", turn.text);
    }
}

/// Plays `dice`, then each answer, and tells it all as one step.
fn play(g: &mut MagicalAthlete, dice: &[u8], answers: &[&str]) -> String {
    let mut events = go(g, dice);
    for a in answers {
        events.extend(say(g, a));
    }
    told(g, &events)
}

#[test]
fn a_power_s_move_is_told_once() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Lackey, 4)]);
    let text = play(&mut g, &[6], &["roll"]);
    assert!(
        text.contains("\nP2's Lackey moves 4 → 6 (Lackey's power).\nP1's Legs moves 0 → 6"),
        "{text}"
    );
    assert!(!text.contains("Lackey moves 2"), "{text}");
    // Legs' choice already says it moves 5: the move follows, not the power again.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 9)]);
    let text = play(&mut g, &[], &["legs"]);
    assert_eq!(text.matches("instead of rolling").count(), 1, "{text}");
    // A trip by a power is one line.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 4)]);
    let text = play(&mut g, &[], &["legs"]);
    assert!(text.contains("P1's Legs trips (Banana)."), "{text}");
    assert!(!text.contains("Banana trips"), "{text}");
}

#[test]
fn a_move_the_stickler_forbids_is_not_announced() {
    let mut g = mild(&[(Kind::Legs, 27), (Kind::Stickler, 0), (Kind::Banana, 0)]);
    let text = play(&mut g, &[], &["legs"]);
    assert!(
        text.contains(
            "P1's Legs chooses: move 5 instead of rolling.\n\
             P2's Stickler: Legs overshoots the finish and does not move.\n"
        ),
        "{text}"
    );
    assert!(!text.contains("Legs moves"), "{text}");
}

#[test]
fn a_borrowed_power_is_named_once_without_nested_brackets() {
    let mut g = mild(&[(Kind::Copycat, 0), (Kind::Lackey, 10), (Kind::Legs, 3)]);
    let text = play(&mut g, &[], &[]);
    assert!(text.contains("P1's Copycat copies Lackey."), "{text}");
    // Copycat copying a Twin that races as Legs.
    let g = mild(&[(Kind::Copycat, 0), (Kind::Twin, 10)]);
    let race = g.race().unwrap();
    let copy = g.narrate_all(&[Event::Race {
        event: RaceEvent::Power {
            racer: race.who(0),
            power: Kind::Copycat,
            detail: "copies Twin (Legs's power)".into(),
        },
    }]);
    assert_eq!(
        copy[0].text,
        "P1's Copycat copies Twin, which races with Legs' power."
    );
    let moved = g.narrate(&Event::Race {
        event: RaceEvent::Moved {
            racer: race.who(0),
            from: 0,
            to: 2,
            why: race::Why::Power {
                racer: race.who(0),
                power: Kind::Lackey,
            },
        },
    });
    assert_eq!(
        moved.text,
        "P1's Copycat moves 0 → 2 (with Lackey's power)."
    );
}

#[test]
fn names_and_numbers_are_kept_apart() {
    let seats: Vec<SeatSetup> = ["Bot 1", "Bot 2"]
        .iter()
        .map(|n| SeatSetup::named(*n))
        .collect();
    let g = MagicalAthlete::setup(&Options::default(), &seats, Seed::from_u64(5)).unwrap();
    let roll_off = g.narrate(&Event::RollOff {
        purpose: "the draft".into(),
        rolls: vec![(Seat(0), 1), (Seat(1), 4)],
        winner: Some(Seat(1)),
    });
    assert_eq!(
        roll_off.text,
        "Roll-off for the draft: Bot 1 rolls 1, Bot 2 rolls 4. Bot 2 wins."
    );
    let scores = g.narrate(&Event::GameOver {
        scores: vec![(Seat(0), 1), (Seat(1), 7)],
    });
    assert_eq!(
        scores.text,
        "Final scores: Bot 2 has 7 points, Bot 1 has 1 point. Bot 2 wins!"
    );
    // The Inchworm's line names the racer that rolled after a colon.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Inchworm, 3)]);
    let text = play(&mut g, &[1], &["roll"]);
    assert!(
        text.contains("P2's Inchworm: Legs rolled a 1, so that move is skipped.\n"),
        "{text}"
    );
}

#[test]
fn a_mastermind_that_wins_its_own_prediction_is_named_once_in_the_order() {
    let mut g = mild(&[(Kind::Mastermind, 27), (Kind::Legs, 0)]);
    let text = play(&mut g, &[3], &["mastermind", "roll"]);
    assert!(
        text.contains("The race ends: P1's Mastermind (1st and 2nd)."),
        "{text}"
    );
    assert!(
        text.contains("P1's Mastermind takes 2nd place too."),
        "{text}"
    );
    assert!(!text.contains("Mastermind, then"), "{text}");
}

#[test]
fn the_skipper_has_one_name() {
    let mut g = mild(&[
        (Kind::Legs, 0),
        (Kind::Banana, 0),
        (Kind::Inchworm, 3),
        (Kind::Skipper, 0),
    ]);
    let text = play(&mut g, &[1, 4], &["roll", "roll"]);
    assert!(
        text.contains("P4's Skipper's turn, from space 0."),
        "{text}"
    );
    assert!(!text.contains("The Skipper"), "{text}");
}

#[test]
fn a_leaptoad_s_jump_is_one_line() {
    let mut g = mild(&[(Kind::Leaptoad, 0), (Kind::Legs, 1), (Kind::Banana, 2)]);
    let text = play(&mut g, &[3], &["roll"]);
    assert_eq!(text.matches("jumps over").count(), 1, "{text}");
    assert!(
        text.contains("P1's Leaptoad jumps over 2 spaces with racers on them."),
        "{text}"
    );
}

#[test]
fn a_gunk_that_stops_a_move_says_the_racer_stays() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Gunk, 10)]);
    let text = play(&mut g, &[1], &["roll"]);
    assert!(
        text.contains("P2's Gunk: -1 to Legs' main move, so P1's Legs does not move.\n"),
        "{text}"
    );
    // A move that still happens is told as before.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Gunk, 10)]);
    let text = play(&mut g, &[3], &["roll"]);
    assert!(
        text.contains("P2's Gunk: -1 to Legs' main move.\nP1's Legs moves 0 → 2"),
        "{text}"
    );
}

/// The terminal's "You" races, takes and loses chips in the second person; a racer is
/// called the same in the draft, the reveal and the chips as in the race ("Skipper").
#[test]
fn you_race_and_take_chips_and_the_skipper_keeps_one_name() {
    let g = MagicalAthlete::scenario(
        &["Ann", "You"],
        Track::Mild,
        &[(Kind::Skipper, Seat(0), 0), (Kind::Banana, Seat(1), 0)],
        Seat(1),
        Options::default(),
    );
    let race = g.race().unwrap();
    let you = (0..2)
        .map(|r| race.who(r))
        .find(|w| w.seat == Seat(1))
        .unwrap();
    let said = |e: Event| g.narrate(&e).text;
    assert_eq!(
        said(Event::Revealed {
            race: 1,
            track: Track::Mild,
            picks: vec![
                (Seat(0), vec![Kind::Skipper]),
                (Seat(1), vec![Kind::Banana])
            ],
            first: Seat(1),
        }),
        "Race 1 on Mild Mile: Ann races Skipper; You race Banana. You go first."
    );
    assert_eq!(
        said(Event::Drafted {
            seat: Seat(1),
            racer: Kind::Skipper,
            missed: false,
        }),
        "You draft Skipper."
    );
    assert_eq!(
        said(Event::Awarded {
            race: 1,
            gold: Some((Seat(0), Kind::Skipper, 5)),
            silver: None,
        }),
        "Race 1 chips: gold (5) to Ann (Skipper). Nobody crossed second: the silver chip is discarded."
    );
    for (points, said_) in [
        (1, "You take 1 bronze point: a test."),
        (-2, "You lose 2 bronze points: a test."),
    ] {
        let chips = said(Event::Race {
            event: RaceEvent::Chips {
                racer: you,
                points,
                reason: "a test".into(),
            },
        });
        assert_eq!(chips, said_);
    }
}
