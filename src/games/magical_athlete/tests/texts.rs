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
        .map(|(s, r)| format!("P{} {r}", s.index() + 1))
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
