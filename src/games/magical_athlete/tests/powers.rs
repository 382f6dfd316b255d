//! The rulebook's example turn and each racer's power, alone and with the others.

use super::*;

// ----- The rulebook's example turn -----

#[test]
fn rulebook_example_romantic_banana_and_scoocher() {
    let mut g = mild(&[(Kind::Romantic, 0), (Kind::Scoocher, 2), (Kind::Banana, 3)]);
    go(&mut g, &[5]);
    assert!(
        asked(&g).starts_with("Your turn: Romantic"),
        "{}",
        asked(&g)
    );
    let events = say(&mut g, "roll");
    let text = told(&g, &events);
    // The Romantic moves 5 past Scoocher and Banana, and trips.
    assert!(tripped(&g, Kind::Romantic), "{text}");
    // Scoocher moves 1 onto Banana's space; the Romantic moves 2; Scoocher moves 1 again.
    assert_eq!(at(&g, Kind::Romantic), 7, "{text}");
    assert_eq!(at(&g, Kind::Scoocher), 4, "{text}");
    assert_eq!(at(&g, Kind::Banana), 3);
    let order: Vec<&str> = [
        "P1's Romantic rolls 5.",
        "P1's Romantic moves 0 → 5 (main move).",
        "P1's Romantic trips (Banana).",
        "P2's Scoocher moves 2 → 3 (Scoocher's power).",
        "P1's Romantic moves 5 → 7 (Romantic's power).",
        "P2's Scoocher moves 3 → 4 (Scoocher's power).",
    ]
    .to_vec();
    let mut from = 0;
    for line in order {
        let i = text[from..]
            .find(line)
            .unwrap_or_else(|| panic!("missing or out of order: {line}\n{text}"));
        from += i + line.len();
    }
}

// ----- Each racer -----

#[test]
fn alchemist_moves_4_instead_of_a_1_or_2() {
    let mut g = mild(&[(Kind::Alchemist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[2, 4]);
    say(&mut g, "roll");
    assert!(asked(&g).contains("Move 4 instead?"), "{}", asked(&g));
    say(&mut g, "yes");
    assert_eq!(at(&g, Kind::Alchemist), 4);
    // A 4 is not transmuted: the next Alchemist turn just moves.
    let mut g = mild(&[(Kind::Alchemist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[4]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Alchemist), 4);
    assert!(asked(&g).contains("Legs"));
}

#[test]
fn baba_yaga_trips_whoever_stops_on_her_space() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::BabaYaga, 5)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 5);
    assert!(tripped(&g, Kind::Legs));
    // And when she stops on someone's space.
    let mut g = mild(&[(Kind::BabaYaga, 0), (Kind::Banana, 3)]);
    go(&mut g, &[3]);
    let e = say(&mut g, "roll");
    let text = told(&g, &e);
    // Banana trips, then spends its own turn getting up.
    assert!(text.contains("P2's Banana trips (Baba Yaga)"), "{text}");
    assert!(text.contains("P2's Banana gets up from a trip"), "{text}");
    assert_eq!(at(&g, Kind::Banana), 3);
    assert!(!tripped(&g, Kind::BabaYaga));
}

#[test]
fn baba_yaga_with_the_duelist_they_duel_and_the_duelist_still_trips() {
    let mut g = mild(&[(Kind::Duelist, 0), (Kind::BabaYaga, 3)]);
    go(&mut g, &[3, 4, 2]);
    say(&mut g, "roll");
    assert!(asked(&g).contains("Duel?"), "{}", asked(&g));
    say(&mut g, "duel");
    assert_eq!(at(&g, Kind::Duelist), 5);
    assert!(tripped(&g, Kind::Duelist));
}

#[test]
fn baba_yaga_with_the_hypnotist_the_spell_works_and_the_hypnotist_trips() {
    let mut g = mild(&[(Kind::Hypnotist, 10), (Kind::BabaYaga, 4)]);
    go(&mut g, &[3]);
    assert!(choices(&g).contains(&"hypnotize babayaga".to_string()));
    say(&mut g, "hypnotize baba yaga");
    assert_eq!(at(&g, Kind::BabaYaga), 10);
    assert!(tripped(&g, Kind::Hypnotist));
    // Tripping does not take away this turn's main move: it skips the next one.
    assert_eq!(at(&g, Kind::Hypnotist), 13);
}

#[test]
fn banana_trips_racers_that_pass_it_but_not_those_that_stop_short() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 5), (Kind::Gunk, 29)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    // Gunk: 5 - 1 = 4, short of Banana.
    assert_eq!(at(&g, Kind::Legs), 4);
    assert!(!tripped(&g, Kind::Legs));
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 4)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert!(tripped(&g, Kind::Legs));
}

#[test]
fn blimp_gets_3_before_the_second_corner_and_minus_1_from_it() {
    let mut g = mild(&[(Kind::Blimp, 14), (Kind::Legs, 0)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Blimp), 20);
    let mut g = mild(&[(Kind::Blimp, 15), (Kind::Legs, 0)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Blimp), 17);
}

#[test]
fn centaur_sends_the_racers_it_passes_back_2_but_never_behind_the_start() {
    let mut g = mild(&[(Kind::Centaur, 0), (Kind::Legs, 2), (Kind::Banana, 1)]);
    go(&mut g, &[4]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Centaur), 4);
    assert_eq!(at(&g, Kind::Legs), 0);
    assert_eq!(at(&g, Kind::Banana), 0);
    // The Banana it passed still trips it.
    assert!(tripped(&g, Kind::Centaur));
}

#[test]
fn cheerleader_moves_the_last_racers_2_then_herself_1() {
    let mut g = mild(&[(Kind::Cheerleader, 5), (Kind::Legs, 0), (Kind::Banana, 0)]);
    go(&mut g, &[3]);
    say(&mut g, "cheer");
    assert_eq!(at(&g, Kind::Legs), 2);
    assert_eq!(at(&g, Kind::Banana), 2);
    assert_eq!(at(&g, Kind::Cheerleader), 9);
    // Cheering for herself is two moves: 2, then 1.
    let mut g = mild(&[(Kind::Cheerleader, 0), (Kind::Legs, 4)]);
    go(&mut g, &[1]);
    let e = say(&mut g, "cheer");
    assert_eq!(at(&g, Kind::Cheerleader), 4);
    let text = told(&g, &e);
    assert!(
        text.contains("moves 0 → 2") && text.contains("moves 2 → 3"),
        "{text}"
    );
}

#[test]
fn coach_gives_everyone_on_its_space_plus_1_including_itself() {
    let mut g = mild(&[(Kind::Legs, 3), (Kind::Coach, 3)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 6);
    let mut g = mild(&[(Kind::Coach, 3), (Kind::Legs, 0)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Coach), 6);
}

#[test]
fn copycat_has_the_leaders_power() {
    let mut g = mild(&[(Kind::Copycat, 0), (Kind::Legs, 10)]);
    go(&mut g, &[]);
    assert!(
        choices(&g).contains(&"legs".to_string()),
        "{:?}",
        choices(&g)
    );
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Copycat), 5);
}

#[test]
fn copycat_picks_when_the_lead_is_tied() {
    let mut g = mild(&[(Kind::Copycat, 0), (Kind::Legs, 10), (Kind::Gunk, 10)]);
    go(&mut g, &[4]);
    assert!(asked(&g).contains("Whom do you copy?"), "{}", asked(&g));
    let mut cs = choices(&g);
    cs.sort();
    assert_eq!(cs, vec!["gunk", "legs"]);
    say(&mut g, "legs");
    assert_eq!(
        racer(&g, Kind::Copycat).copying,
        g.race().unwrap().find(Kind::Legs)
    );
    say(&mut g, "legs");
    // Gunk's -1 applies to Copycat's Legs move.
    assert_eq!(at(&g, Kind::Copycat), 4);
}

#[test]
fn copycat_with_huge_baby_the_baby_keeps_her_space() {
    // Copycat copies Huge Baby, the leader; landing on her space puts Copycat behind her.
    let mut g = mild(&[(Kind::Copycat, 5), (Kind::HugeBaby, 10)]);
    go(&mut g, &[5]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Copycat), 9);
    assert_eq!(at(&g, Kind::HugeBaby), 10);
    // And Copycat really has the power: a racer landing on Copycat's space goes behind it.
    let mut g = mild(&[(Kind::Legs, 4), (Kind::Copycat, 9), (Kind::HugeBaby, 12)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 8);
}

#[test]
fn dicemonger_lets_anyone_reroll_once_and_moves_1_when_they_do() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Dicemonger, 10)]);
    go(&mut g, &[2, 5]);
    say(&mut g, "roll");
    assert!(asked(&g).contains("Dicemonger's offer"), "{}", asked(&g));
    say(&mut g, "reroll");
    assert_eq!(at(&g, Kind::Legs), 5);
    assert_eq!(at(&g, Kind::Dicemonger), 11);
    // Keeping the roll moves nobody else.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Dicemonger, 10)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    say(&mut g, "keep");
    assert_eq!(at(&g, Kind::Legs), 2);
    assert_eq!(at(&g, Kind::Dicemonger), 10);
}

#[test]
fn duelist_loses_a_duel_and_the_other_racer_moves_2() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Duelist, 5)]);
    go(&mut g, &[2, 5]);
    say(&mut g, "legs");
    assert!(asked(&g).contains("Duel?"));
    say(&mut g, "yes");
    assert_eq!(at(&g, Kind::Legs), 7);
    assert_eq!(at(&g, Kind::Duelist), 5);
    // Ties go to the Duelist; declining does nothing.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Duelist, 5)]);
    go(&mut g, &[4, 4]);
    say(&mut g, "legs");
    say(&mut g, "duel");
    assert_eq!(at(&g, Kind::Duelist), 7);
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Duelist, 5)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    say(&mut g, "no");
    assert_eq!((at(&g, Kind::Legs), at(&g, Kind::Duelist)), (5, 5));
}

#[test]
fn egg_draws_two_hidden_cards_and_takes_one_power() {
    let mut g = mild(&[(Kind::Egg, 0), (Kind::Banana, 0)]);
    g.race_mut().unwrap().deck = vec![Kind::Legs, Kind::Magician, Kind::Gunk];
    go(&mut g, &[]);
    assert!(
        asked(&g).contains("Egg drew Legs and Magician"),
        "{}",
        asked(&g)
    );
    // The draw is the owner's secret.
    assert!(g.private_view(Seat(0)).egg_cards.contains(&Kind::Magician));
    assert!(!g.private_view(Seat(1)).egg_cards.contains(&Kind::Magician));
    let public = serde_json::to_string(&g.public_view()).unwrap();
    assert!(!public.contains("magician"), "{public}");
    say(&mut g, "legs");
    assert_eq!(racer(&g, Kind::Egg).picked, Some(Kind::Legs));
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Egg), 5);
    // The card not taken stays out of the deck, known to Egg's owner only.
    assert_eq!(g.race().unwrap().deck, vec![Kind::Gunk]);
    assert_eq!(g.private_view(Seat(0)).egg_cards, vec![Kind::Magician]);
}

#[test]
fn flip_flop_swaps_instead_of_rolling() {
    let mut g = mild(&[(Kind::FlipFlop, 2), (Kind::Legs, 20)]);
    go(&mut g, &[]);
    say(&mut g, "flip legs");
    assert_eq!(at(&g, Kind::FlipFlop), 20);
    assert_eq!(at(&g, Kind::Legs), 2);
    assert_eq!(g.race().unwrap().dice.as_ref().map(VecDeque::len), Some(0));
}

#[test]
fn genius_guessing_right_takes_another_turn() {
    let mut g = mild(&[(Kind::Genius, 0), (Kind::Legs, 0)]);
    go(&mut g, &[4, 2]);
    say(&mut g, "guess 4");
    assert_eq!(at(&g, Kind::Genius), 4);
    assert!(asked(&g).starts_with("Your turn: Genius"), "{}", asked(&g));
    say(&mut g, "guess 6");
    assert_eq!(at(&g, Kind::Genius), 6);
    assert!(asked(&g).starts_with("Your turn: Legs"), "{}", asked(&g));
}

#[test]
fn gunk_takes_1_from_other_racers_main_moves() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Gunk, 10)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 2);
    // A 1 goes nowhere: a move of 0 is no move.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Gunk, 10)]);
    go(&mut g, &[1]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 0);
}

#[test]
fn hare_gets_2_but_skips_when_alone_in_the_lead() {
    let mut g = mild(&[(Kind::Hare, 0), (Kind::Legs, 0)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Hare), 5);
    let mut g = mild(&[(Kind::Hare, 10), (Kind::Legs, 0)]);
    let e = go(&mut g, &[3]);
    assert_eq!(at(&g, Kind::Hare), 10);
    assert!(told(&g, &e).contains("skips the main move"));
}

#[test]
fn heckler_moves_2_when_a_racer_ends_its_turn_within_1_space() {
    let mut g = mild(&[(Kind::Legs, 3), (Kind::Heckler, 10)]);
    g.race_mut().unwrap().racers[0].tripped = true;
    let e = go(&mut g, &[]);
    // The Legs recovered without moving: Heckler moves 2.
    assert!(told(&g, &e).contains("gets up from a trip"));
    assert_eq!(at(&g, Kind::Heckler), 12);
    let mut g = mild(&[(Kind::Legs, 3), (Kind::Heckler, 10)]);
    go(&mut g, &[1]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Heckler), 12);
    let mut g = mild(&[(Kind::Legs, 3), (Kind::Heckler, 10)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Heckler), 10);
}

#[test]
fn huge_baby_puts_racers_behind_her() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::HugeBaby, 5)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 4);
    // And when she lands on them.
    let mut g = mild(&[(Kind::HugeBaby, 0), (Kind::Legs, 3), (Kind::Banana, 3)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::HugeBaby), 3);
    assert_eq!((at(&g, Kind::Legs), at(&g, Kind::Banana)), (2, 2));
    // Everyone shares the Start.
    let mut g = mild(&[(Kind::HugeBaby, 0), (Kind::Legs, 0)]);
    go(&mut g, &[]);
    assert_eq!((at(&g, Kind::HugeBaby), at(&g, Kind::Legs)), (0, 0));
}

#[test]
fn huge_baby_with_party_animal_everyone_there_goes_back_1() {
    let mut g = mild(&[(Kind::PartyAnimal, 5), (Kind::Legs, 5), (Kind::HugeBaby, 4)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    // The pull brings Huge Baby onto the party: Party Animal and Legs go to 4. Then Party
    // Animal's main move is 2 + 1 (Legs on its space).
    assert_eq!(at(&g, Kind::HugeBaby), 5);
    assert_eq!(at(&g, Kind::Legs), 4);
    assert_eq!(at(&g, Kind::PartyAnimal), 7);
}

#[test]
fn hypnotist_warps_a_racer_to_its_space_then_rolls() {
    let mut g = mild(&[(Kind::Hypnotist, 4), (Kind::Legs, 20)]);
    go(&mut g, &[2]);
    say(&mut g, "hypnotize legs");
    assert_eq!(at(&g, Kind::Legs), 4);
    assert_eq!(at(&g, Kind::Hypnotist), 6);
}

#[test]
fn inchworm_eats_a_rolled_1_and_moves_1() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Inchworm, 3)]);
    go(&mut g, &[1]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 0);
    assert_eq!(at(&g, Kind::Inchworm), 4);
}

#[test]
fn inchworm_with_the_skipper_wriggle_then_the_skipper_goes() {
    let mut g = mild(&[
        (Kind::Legs, 0),
        (Kind::Banana, 0),
        (Kind::Inchworm, 3),
        (Kind::Skipper, 0),
    ]);
    go(&mut g, &[1, 4]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Inchworm), 4);
    assert_eq!(at(&g, Kind::Legs), 0);
    // The Skipper goes next, before Banana.
    assert!(
        asked(&g).starts_with("Your turn: The Skipper"),
        "{}",
        asked(&g)
    );
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Skipper), 4);
    // Then turn order continues to the Skipper's left: the Legs again.
    assert!(asked(&g).starts_with("Your turn: Legs"), "{}", asked(&g));
}

#[test]
fn lackey_moves_2_before_a_6_moves() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Lackey, 4)]);
    let e = {
        go(&mut g, &[6]);
        say(&mut g, "roll")
    };
    assert_eq!(at(&g, Kind::Lackey), 6);
    assert_eq!(at(&g, Kind::Legs), 6);
    let text = told(&g, &e);
    let lackey = text.find("Lackey moves 4 → 6").unwrap();
    let legs = text.find("Legs moves 0 → 6").unwrap();
    assert!(lackey < legs, "{text}");
}

#[test]
fn leaptoad_skips_occupied_spaces() {
    let mut g = mild(&[(Kind::Leaptoad, 0), (Kind::Legs, 1), (Kind::Banana, 2)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Leaptoad), 5);
}

#[test]
fn legs_moves_5_instead_of_rolling() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 20)]);
    go(&mut g, &[]);
    let mut cs = choices(&g);
    cs.sort();
    assert_eq!(cs, vec!["legs", "roll"]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 5);
}

#[test]
fn lovable_loser_takes_a_chip_when_alone_in_last_place() {
    let mut g = mild(&[(Kind::LovableLoser, 0), (Kind::Legs, 3)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    assert_eq!(bronze(&g, 0), 1);
    let mut g = mild(&[(Kind::LovableLoser, 0), (Kind::Legs, 0)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    assert_eq!(bronze(&g, 0), 0);
}

#[test]
fn magician_rerolls_up_to_twice_and_keeps_the_last() {
    let mut g = mild(&[(Kind::Magician, 0), (Kind::Legs, 0)]);
    go(&mut g, &[1, 2, 1]);
    say(&mut g, "roll");
    say(&mut g, "reroll");
    say(&mut g, "reroll");
    // No third reroll: the last roll stands.
    assert_eq!(at(&g, Kind::Magician), 1);
    assert!(asked(&g).starts_with("Your turn: Legs"));
}

#[test]
fn mastermind_predicting_the_winner_ends_the_race_with_mastermind_second() {
    let mut g = mild(&[(Kind::Mastermind, 0), (Kind::Legs, 26)]);
    go(&mut g, &[1]);
    assert!(asked(&g).contains("predict"), "{}", asked(&g));
    say(&mut g, "legs");
    say(&mut g, "roll");
    say(&mut g, "legs");
    let race = g.race().unwrap();
    assert!(race.over);
    let places: Vec<Kind> = race.placings.iter().map(|&r| race.racers[r].kind).collect();
    assert_eq!(places, vec![Kind::Legs, Kind::Mastermind]);
}

#[test]
fn mastermind_predicting_himself_wins_gold_and_silver() {
    let mut g = mild(&[(Kind::Mastermind, 27), (Kind::Legs, 0)]);
    go(&mut g, &[3]);
    say(&mut g, "mastermind");
    let e = say(&mut g, "roll");
    let race = g.race().unwrap();
    assert_eq!(race.placings.len(), 2);
    assert!(
        race.placings
            .iter()
            .all(|&r| race.racers[r].kind == Kind::Mastermind)
    );
    let awarded = e
        .iter()
        .find_map(|e| match e {
            Event::Awarded { gold, silver, .. } => Some((*gold, *silver)),
            _ => None,
        })
        .unwrap();
    assert_eq!(awarded.0.map(|g| g.0), Some(Seat(0)));
    assert_eq!(awarded.1.map(|s| s.0), Some(Seat(0)));
}

#[test]
fn mouth_eliminates_the_one_racer_it_stops_with_and_the_silver_can_go_missing() {
    let mut g = mild(&[(Kind::Mouth, 0), (Kind::Legs, 3), (Kind::Banana, 7)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(racer(&g, Kind::Legs).status, Status::Eliminated(1));
    // Two alone: Banana moves to 8, M.O.U.T.H. eats it there, then finishes alone.
    g.set_dice(&[1, 5, 6, 6, 6, 6, 6]);
    say(&mut g, "roll");
    say(&mut g, "roll");
    assert_eq!(racer(&g, Kind::Banana).status, Status::Eliminated(2));
    let mut events = Vec::new();
    while g.race().is_some_and(|r| !r.over) {
        assert!(!g.pending().is_empty(), "{}", told(&g, &events));
        events.extend(say(&mut g, "roll"));
    }
    let awarded = events
        .iter()
        .find_map(|e| match e {
            Event::Awarded { gold, silver, .. } => Some((*gold, *silver)),
            _ => None,
        })
        .expect("the race ended");
    assert_eq!(awarded.0.map(|g| g.1), Some(Kind::Mouth));
    assert_eq!(awarded.1, None);
    assert!(told(&g, &events).contains("silver chip is discarded"));
}

#[test]
fn party_animal_pulls_everyone_one_space_closer_and_gains_from_company() {
    let mut g = mild(&[
        (Kind::PartyAnimal, 10),
        (Kind::Legs, 8),
        (Kind::Banana, 11),
        (Kind::Gunk, 10),
    ]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 9);
    assert_eq!(at(&g, Kind::Banana), 10);
    // 2 - 1 (Gunk) + 2 (Banana and Gunk on its space) = 3.
    assert_eq!(at(&g, Kind::PartyAnimal), 13);
}

#[test]
fn rocket_scientist_doubles_and_trips() {
    let mut g = mild(&[(Kind::RocketScientist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert!(asked(&g).contains("Double it to 6"));
    say(&mut g, "double");
    assert_eq!(at(&g, Kind::RocketScientist), 6);
    assert!(tripped(&g, Kind::RocketScientist));
}

#[test]
fn romantic_moves_2_when_anyone_stops_with_exactly_one_other() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Romantic, 10), (Kind::Banana, 5)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Romantic), 12);
    let mut g = mild(&[
        (Kind::Legs, 0),
        (Kind::Romantic, 10),
        (Kind::Banana, 5),
        (Kind::Gunk, 4),
    ]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    // Legs stops on 4 with Gunk (5 - 1): still exactly one other.
    assert_eq!(at(&g, Kind::Romantic), 12);
}

#[test]
fn scoocher_moves_1_for_every_other_power() {
    // With Gunk: one scooch for the -1.
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Gunk, 20), (Kind::Scoocher, 10)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Scoocher), 11);
    assert_eq!(at(&g, Kind::Legs), 2);
}

#[test]
fn scoocher_with_dicemonger_moves_for_each_reroll() {
    let mut g = mild(&[
        (Kind::Legs, 0),
        (Kind::Dicemonger, 20),
        (Kind::Scoocher, 10),
    ]);
    go(&mut g, &[1, 3]);
    say(&mut g, "roll");
    say(&mut g, "reroll");
    // One reroll is one use of the Dicemonger's power (its move 1 included): one scooch.
    assert_eq!(at(&g, Kind::Dicemonger), 21);
    assert_eq!(at(&g, Kind::Scoocher), 11);
}

#[test]
fn scoocher_with_leaptoad_moves_for_each_space_skipped() {
    let mut g = mild(&[(Kind::Leaptoad, 0), (Kind::Scoocher, 1), (Kind::Legs, 2)]);
    go(&mut g, &[3]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Leaptoad), 5);
    // Two spaces skipped: Scoocher moves 1, twice.
    assert_eq!(at(&g, Kind::Scoocher), 3);
}

#[test]
fn scoocher_with_magician_moves_for_each_reroll_even_unused() {
    let mut g = mild(&[(Kind::Magician, 0), (Kind::Scoocher, 10)]);
    go(&mut g, &[1, 2, 6]);
    say(&mut g, "roll");
    say(&mut g, "yes");
    say(&mut g, "yes");
    assert_eq!(at(&g, Kind::Magician), 6);
    assert_eq!(at(&g, Kind::Scoocher), 12);
}

#[test]
fn scoocher_with_gunk_twice_over_copycat() {
    // Copycat copying Gunk (the leader) gives a second -1, and a second scooch.
    let mut g = mild(&[
        (Kind::Legs, 0),
        (Kind::Gunk, 20),
        (Kind::Copycat, 5),
        (Kind::Scoocher, 10),
    ]);
    go(&mut g, &[4]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 2);
    assert_eq!(at(&g, Kind::Scoocher), 12);
}

#[test]
fn scoocher_and_huge_baby_loop_once_then_stop() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Scoocher, 9), (Kind::HugeBaby, 10)]);
    go(&mut g, &[]);
    let e = say(&mut g, "legs");
    let text = told(&g, &e);
    assert!(text.contains("loop"), "{text}");
    assert_eq!(at(&g, Kind::Scoocher), 9);
    assert_eq!(at(&g, Kind::Legs), 5);
}

#[test]
fn sisyphus_takes_4_chips_and_a_6_sends_him_back_for_one() {
    let mut g = mild(&[(Kind::Sisyphus, 12), (Kind::Legs, 0)]);
    go(&mut g, &[6]);
    assert_eq!(bronze(&g, 0), 4);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Sisyphus), 0);
    assert_eq!(bronze(&g, 0), 3);
}

#[test]
fn skipper_goes_next_when_anyone_rolls_a_1() {
    let mut g = mild(&[(Kind::Legs, 0), (Kind::Banana, 0), (Kind::Skipper, 0)]);
    go(&mut g, &[1]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Legs), 1);
    assert!(
        asked(&g).starts_with("Your turn: The Skipper"),
        "{}",
        asked(&g)
    );
}

#[test]
fn stickler_makes_others_finish_exactly() {
    let mut g = mild(&[(Kind::Legs, 27), (Kind::Stickler, 0), (Kind::Banana, 0)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 27);
    let mut g = mild(&[(Kind::Legs, 25), (Kind::Stickler, 0), (Kind::Banana, 0)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(racer(&g, Kind::Legs).status, Status::Finished(1));
    // The Stickler itself may overshoot.
    let mut g = mild(&[(Kind::Stickler, 28), (Kind::Legs, 0), (Kind::Banana, 0)]);
    go(&mut g, &[6]);
    say(&mut g, "roll");
    assert_eq!(racer(&g, Kind::Stickler).status, Status::Finished(1));
}

#[test]
fn suckerfish_rides_to_the_new_space() {
    let mut g = mild(&[(Kind::Legs, 3), (Kind::Suckerfish, 3), (Kind::Banana, 20)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert!(asked(&g).contains("ride along"), "{}", asked(&g));
    say(&mut g, "ride");
    assert_eq!(at(&g, Kind::Suckerfish), 8);
}

/// Banana stops on the +3 arrow at 7 with Suckerfish riding along; Banana's arrow takes
/// both to 10. Suckerfish's own arrow from 7 finds it gone and does nothing: it stays on
/// 10 (one more arrow would put it on 13, a star, for a bronze chip).
#[test]
fn a_space_acts_only_on_a_racer_still_on_it() {
    let mut g = scene(
        Track::Wild,
        &[(Kind::Banana, 3), (Kind::Suckerfish, 3), (Kind::Legs, 20)],
    );
    g.set_preference(Seat(1), "suckerfish always").unwrap();
    go(&mut g, &[4]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Banana), 10);
    assert_eq!(at(&g, Kind::Suckerfish), 10);
    assert_eq!(g.race().unwrap().bronze[1], 0, "no star for Suckerfish");
}

#[test]
fn suckerfish_with_romantic_ride_together_to_the_finish() {
    let mut g = mild(&[
        (Kind::Legs, 9),
        (Kind::Romantic, 10),
        (Kind::Suckerfish, 10),
        (Kind::Banana, 14),
    ]);
    g.set_preference(Seat(2), "suckerfish always").unwrap();
    go(&mut g, &[]);
    say(&mut g, "legs");
    let race = g.race().unwrap();
    let places: Vec<Kind> = race.placings.iter().map(|&r| race.racers[r].kind).collect();
    assert_eq!(places, vec![Kind::Romantic, Kind::Suckerfish]);
}

#[test]
fn third_wheel_warps_to_a_pair_then_rolls() {
    let mut g = mild(&[(Kind::ThirdWheel, 0), (Kind::Legs, 12), (Kind::Banana, 12)]);
    go(&mut g, &[2]);
    assert!(choices(&g).contains(&"warp 12".to_string()));
    say(&mut g, "warp 12");
    assert_eq!(at(&g, Kind::ThirdWheel), 14);
    let e = read_order(&g, Seat(0), "warp 12").unwrap_err();
    assert!(matches!(e, OrderError::NotYourTurn), "{e}");
}

#[test]
fn twin_races_with_a_previous_winners_power() {
    let mut g = mild(&[(Kind::Twin, 0), (Kind::Banana, 0)]);
    g.race_mut().unwrap().winners = vec![Kind::Legs, Kind::Gunk];
    go(&mut g, &[]);
    assert!(asked(&g).contains("previous winner"));
    let mut cs = choices(&g);
    cs.sort();
    assert_eq!(cs, vec!["gunk", "legs", "none"]);
    say(&mut g, "legs");
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Twin), 5);
    // No previous winners: nothing to ask.
    let mut g = mild(&[(Kind::Twin, 0), (Kind::Banana, 0)]);
    go(&mut g, &[3]);
    assert!(asked(&g).starts_with("Your turn: Twin"));
}
