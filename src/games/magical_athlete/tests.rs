//! Magical Athlete's rulebook example, each racer's power, the named interactions, the
//! tracks, the game around the races, and the random simulations, as tests.
//!
//! Scenario tests set racers on spaces and script the dice with [`scene`], then play
//! through the same parser a player uses ([`say`] goes through `read_order`).

use std::collections::VecDeque;

use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{OrderError, read_order};
use race::Status;

// ----- The scenario helper -----

/// A one-race scenario: racer `i` belongs to seat `i` (named P1, P2, ...) and starts on the
/// given space; seat 0 moves first; every question waits for a live answer.
fn scene(track: Track, racers: &[(Kind, u8)]) -> MagicalAthlete {
    let names: Vec<String> = (1..=racers.len()).map(|i| format!("P{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let list: Vec<(Kind, Seat, u8)> = racers
        .iter()
        .enumerate()
        .map(|(i, (k, p))| (*k, Seat(i as u8), *p))
        .collect();
    let options = Options {
        auto_roll: false,
        decision_timeout: 600,
        ..Options::default()
    };
    MagicalAthlete::scenario(&refs, track, &list, Seat(0), options)
}

fn mild(racers: &[(Kind, u8)]) -> MagicalAthlete {
    scene(Track::Mild, racers)
}

/// Scripts the dice and runs to the first question.
fn go(g: &mut MagicalAthlete, dice: &[u8]) -> Vec<Event> {
    g.set_dice(dice);
    g.begin()
}

/// The pending seat answers, through the player's parser.
fn say(g: &mut MagicalAthlete, text: &str) -> Vec<Event> {
    let seat = *g.pending().seats.first().expect("somebody must be asked");
    let order = read_order(g, seat, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    g.apply(&[Submitted::new(seat, order)])
}

fn racer(g: &MagicalAthlete, k: Kind) -> &Racer {
    let race = g.race().expect("a race");
    race.racers
        .iter()
        .find(|x| x.kind == k)
        .expect("racer in race")
}

fn at(g: &MagicalAthlete, k: Kind) -> u8 {
    racer(g, k).pos
}

fn tripped(g: &MagicalAthlete, k: Kind) -> bool {
    racer(g, k).tripped
}

/// The question waiting now, in the words the DM shows.
fn asked(g: &MagicalAthlete) -> String {
    let seat = g.pending().seats.first().copied().unwrap_or(Seat(0));
    g.prompt(seat).text
}

fn choices(g: &MagicalAthlete) -> Vec<String> {
    let seat = g.pending().seats.first().copied().unwrap_or(Seat(0));
    g.prompt(seat)
        .choices
        .into_iter()
        .map(|c| c.order)
        .collect()
}

fn told(g: &MagicalAthlete, events: &[Event]) -> String {
    events
        .iter()
        .map(|e| g.narrate(e))
        .filter(|n| n.audience == crate::engine::Audience::Public)
        .map(|n| n.text)
        .collect::<Vec<_>>()
        .join("\n")
}

fn bronze(g: &MagicalAthlete, seat: u8) -> i32 {
    g.race().unwrap().bronze[usize::from(seat)]
}

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
        "P3's Banana trips Romantic.",
        "P1's Romantic trips (Banana).",
        "P2's Scoocher scooches 1.",
        "P2's Scoocher moves 2 → 3 (Scoocher's power).",
        "P1's Romantic moves 2.",
        "P1's Romantic moves 5 → 7 (Romantic's power).",
        "P2's Scoocher scooches 1.",
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

// ----- Tracks -----

fn lands(track: Track, from: u8, legs_to: u8) -> (u8, bool, i32) {
    let n = legs_to - from;
    let mut g = scene(track, &[(Kind::Banana, from), (Kind::Legs, 29)]);
    go(&mut g, &[n]);
    say(&mut g, "roll");
    (
        at(&g, Kind::Banana),
        tripped(&g, Kind::Banana),
        bronze(&g, 0),
    )
}

#[test]
fn wild_wilds_printed_spaces() {
    let t = Track::Wild;
    assert_eq!(lands(t, 4, 7), (10, false, 0));
    assert_eq!(lands(t, 9, 11), (12, false, 0));
    assert_eq!(lands(t, 14, 16), (12, false, 0));
    assert_eq!(lands(t, 20, 23), (25, false, 0));
    assert_eq!(lands(t, 20, 24), (22, false, 0));
    assert_eq!(lands(t, 3, 5), (5, true, 0));
    assert_eq!(lands(t, 15, 17), (17, true, 0));
    assert_eq!(lands(t, 22, 26), (26, true, 0));
    assert_eq!(lands(t, 0, 1), (1, false, 1));
    assert_eq!(lands(t, 10, 13), (13, false, 1));
    // Passing over a special space does nothing.
    assert_eq!(lands(t, 4, 8), (8, false, 0));
}

#[test]
fn wild_wilds_rulebook_layout_spaces() {
    let t = Track::WildRulebook;
    assert_eq!(lands(t, 2, 5), (8, false, 0));
    assert_eq!(lands(t, 10, 14), (10, false, 0));
    assert_eq!(lands(t, 18, 20), (22, false, 0));
    assert_eq!(lands(t, 18, 21), (19, false, 0));
    assert_eq!(lands(t, 0, 3), (3, true, 0));
    assert_eq!(lands(t, 12, 15), (15, true, 0));
    assert_eq!(lands(t, 6, 11), (11, false, 1));
    assert_eq!(lands(t, 22, 24), (24, false, 1));
}

#[test]
fn mild_mile_has_no_special_spaces() {
    for s in [1u8, 5, 7, 11, 16, 24] {
        let (pos, trip, chips) = lands(Track::Mild, s.saturating_sub(3), s);
        assert_eq!((pos, trip, chips), (s, false, 0));
    }
}

#[test]
fn an_arrow_is_a_separate_move_that_can_trip_on_banana() {
    // Stopping on 7 moves 3 more, passing Banana on 9.
    let mut g = scene(Track::Wild, &[(Kind::Legs, 2), (Kind::Banana, 9)]);
    go(&mut g, &[]);
    say(&mut g, "legs");
    assert_eq!(at(&g, Kind::Legs), 10);
    assert!(tripped(&g, Kind::Legs));
}

// ----- Decisions: policies, defaults, timeouts -----

#[test]
fn a_standing_policy_answers_without_asking() {
    let mut g = mild(&[(Kind::Magician, 0), (Kind::Legs, 0)]);
    let msg = g
        .set_preference(Seat(0), "magician reroll below 3")
        .unwrap();
    assert!(msg.contains("Magician rerolls any roll below 3"), "{msg}");
    assert_eq!(
        g.private_view(Seat(0)).policies,
        vec!["magician reroll below 3"]
    );
    assert!(g.private_view(Seat(1)).policies.is_empty());
    go(&mut g, &[2, 5]);
    let e = say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Magician), 5);
    assert!(told(&g, &e).contains("(standing policy)"));
    assert!(asked(&g).starts_with("Your turn: Legs"));
    assert!(g.set_preference(Seat(0), "banana always").is_err());
}

#[test]
fn a_missed_decision_takes_the_policy_or_the_default_and_says_so() {
    let mut g = mild(&[(Kind::RocketScientist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[5]);
    say(&mut g, "roll");
    let p = g.pending();
    assert_eq!(p.window, Window::Seconds(600));
    assert_eq!(g.default_order(Seat(0)), Order::Yes);
    let e = g.apply(&[Submitted::missed(Seat(0), g.default_order(Seat(0)))]);
    assert_eq!(at(&g, Kind::RocketScientist), 10);
    assert!(
        told(&g, &e).contains("no answer in time"),
        "{}",
        told(&g, &e)
    );
    // An apply with no order at all is a miss too.
    let mut g = mild(&[(Kind::RocketScientist, 0), (Kind::Legs, 0)]);
    go(&mut g, &[2]);
    say(&mut g, "roll");
    g.apply(&[]);
    assert_eq!(at(&g, Kind::RocketScientist), 2);
}

#[test]
fn decision_timeout_0_never_asks() {
    let mut g = mild(&[(Kind::Magician, 0), (Kind::Legs, 0)]);
    g.options.decision_timeout = 0;
    go(&mut g, &[1, 6]);
    say(&mut g, "roll");
    assert_eq!(at(&g, Kind::Magician), 6);
    assert!(asked(&g).starts_with("Your turn: Legs"));
}

#[test]
fn auto_roll_plays_turns_with_no_choice() {
    let mut g = mild(&[(Kind::Banana, 0), (Kind::Gunk, 0), (Kind::Legs, 0)]);
    g.options.auto_roll = true;
    go(&mut g, &[3, 4]);
    // Banana and Gunk had no choice; Legs does.
    assert_eq!(at(&g, Kind::Banana), 2);
    assert_eq!(at(&g, Kind::Gunk), 4);
    assert!(asked(&g).starts_with("Your turn: Legs"));
}

#[test]
fn orders_are_checked_with_clear_errors() {
    let mut g = mild(&[(Kind::FlipFlop, 0), (Kind::Legs, 5)]);
    go(&mut g, &[]);
    let e = read_order(&g, Seat(0), "flip zebra").unwrap_err();
    assert_eq!(
        e,
        OrderError::Syntax("`zebra` is not a racer's name".into())
    );
    let e = read_order(&g, Seat(0), "flip banana").unwrap_err();
    assert_eq!(e, OrderError::Illegal("Banana isn't in this race".into()));
    let e = read_order(&g, Seat(0), "guess 3").unwrap_err();
    assert!(matches!(e, OrderError::Illegal(_)), "{e}");
    assert!(e.to_string().contains("flip legs"), "{e}");
    assert_eq!(
        read_order(&g, Seat(1), "roll").unwrap_err(),
        OrderError::NotYourTurn
    );
    assert!(matches!(
        read_order(&g, Seat(0), "").unwrap_err(),
        OrderError::Syntax(_)
    ));
}

#[test]
fn a_live_decision_keeps_the_dice_already_rolled() {
    // The turn stops for Suckerfish and runs again from its start: same dice, no repeats.
    let mut g = mild(&[
        (Kind::Magician, 0),
        (Kind::Suckerfish, 0),
        (Kind::Banana, 20),
    ]);
    go(&mut g, &[2, 4]);
    let mut all = say(&mut g, "roll");
    all.extend(say(&mut g, "yes"));
    assert!(asked(&g).contains("Reroll (Magician)?"));
    all.extend(say(&mut g, "no"));
    assert!(asked(&g).contains("ride along"));
    let json = serde_json::to_string(&g).unwrap();
    let back: MagicalAthlete = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    all.extend(say(&mut g, "yes"));
    assert_eq!(at(&g, Kind::Magician), 4);
    assert_eq!(at(&g, Kind::Suckerfish), 4);
    let rolls = all
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Race {
                    event: RaceEvent::Rolled { .. }
                }
            )
        })
        .count();
    assert_eq!(rolls, 2, "{}", told(&g, &all));
}

// ----- The game -----

fn seats(n: usize) -> Vec<SeatSetup> {
    (1..=n).map(|i| SeatSetup::named(format!("P{i}"))).collect()
}

/// Plays a whole game with every seat giving its default order.
fn play_defaults(options: &Options, n: usize, seed: u64) -> (MagicalAthlete, Vec<Event>) {
    let mut g = MagicalAthlete::setup(options, &seats(n), Seed::from_u64(seed)).unwrap();
    let mut events = Vec::new();
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
        events.extend(g.apply(&orders));
    }
    (g, events)
}

#[test]
fn four_players_draft_four_racers_each_and_race_four_times() {
    let (g, events) = play_defaults(&Options::default(), 4, 7);
    let outcome = g.outcome().expect("the game ends");
    for p in g.players() {
        assert_eq!(p.hand.len(), 4);
        assert_eq!(p.used.len(), 4);
    }
    let races: Vec<(u8, Track)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Revealed { race, track, .. } => Some((*race, *track)),
            _ => None,
        })
        .collect();
    assert_eq!(
        races,
        vec![
            (1, Track::Mild),
            (2, Track::Wild),
            (3, Track::Mild),
            (4, Track::Wild)
        ]
    );
    // Gold 3/4/4/5 and silver 1/2/2/3 are all handed out (or a silver discarded).
    let golds: u8 = g.players().iter().flat_map(|p| p.gold.iter()).sum();
    assert_eq!(golds, 16);
    let total: i64 = g.players().iter().map(Player::score).sum();
    let placings = outcome.placings.len();
    assert_eq!(placings, 4);
    assert!(total >= 16);
}

#[test]
fn two_players_draft_eight_and_race_two_racers_each() {
    let (g, events) = play_defaults(&Options::default(), 2, 3);
    assert!(g.outcome().is_some());
    for p in g.players() {
        assert_eq!(p.hand.len(), 8);
        assert_eq!(p.used.len(), 8);
    }
    let picks = events
        .iter()
        .find_map(|e| match e {
            Event::Revealed { picks, .. } => Some(picks.clone()),
            _ => None,
        })
        .unwrap();
    assert!(picks.iter().all(|(_, ks)| ks.len() == 2));
}

#[test]
fn three_player_double_racers() {
    let options = Options {
        double: true,
        ..Options::default()
    };
    assert_eq!(MagicalAthlete::seat_limits(&options), (3, 3));
    let (g, _) = play_defaults(&options, 3, 11);
    assert!(g.outcome().is_some());
    for p in g.players() {
        assert_eq!(p.hand.len(), 8);
        assert_eq!(p.used.len(), 8);
    }
}

#[test]
fn race_picks_are_secret_until_everyone_has_picked() {
    let mut g = MagicalAthlete::setup(&Options::default(), &seats(3), Seed::from_u64(2)).unwrap();
    while matches!(g.phase(), Phase::Draft(_)) {
        let s = g.pending().seats[0];
        let o = g.default_order(s);
        g.apply(&[Submitted::new(s, o)]);
    }
    let p = g.pending();
    assert_eq!(p.seats.len(), 3);
    let hand = g.players()[0].hand.clone();
    let text = format!("race {}", hand[1].slug());
    let o = read_order(&g, Seat(0), &text).unwrap();
    let e = read_order(
        &g,
        Seat(0),
        &format!("race {}", g.players()[1].hand[0].slug()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("isn't in your hand"), "{e}");
    let events = g.apply(&[Submitted::new(Seat(0), o)]);
    let picks = events
        .iter()
        .find_map(|e| match e {
            Event::Revealed { picks, .. } => Some(picks.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(picks[0], (Seat(0), vec![hand[1]]));
    assert!(g.players()[0].used.contains(&hand[1]));
}

#[test]
fn the_racer_farthest_behind_goes_first_next_race() {
    let (g, events) = play_defaults(&Options::default(), 4, 21);
    assert!(g.outcome().is_some());
    // Every race after the first names a first player; each one must be a player whose
    // racer was farthest behind, or won a roll-off among those.
    let firsts = events
        .iter()
        .filter(|e| matches!(e, Event::Revealed { .. }))
        .count();
    assert_eq!(firsts, 4);
}

#[test]
fn final_scores_tie_as_a_tie() {
    let scores = [(Seat(0), 9), (Seat(1), 9), (Seat(2), 4)];
    let o = Outcome::from_scores(&scores);
    assert_eq!(o.winners(), vec![Seat(0), Seat(1)]);
}

#[test]
fn options_read_and_check() {
    use crate::engine::apply_option_text;
    let o = apply_option_text(&Options::default(), "track=wild wild-layout=rulebook").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_ok());
    assert_eq!(o.track_of(3), Track::WildRulebook);
    let o = apply_option_text(&Options::default(), "track=mild,wild").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_err());
    let o = apply_option_text(&Options::default(), "track=moon").unwrap();
    assert!(MagicalAthlete::check_options(&o).is_err());
    assert_eq!(Options::default().track_of(2), Track::Wild);
}

// ----- Random simulation -----

fn check_race_invariants(race: &Race) {
    assert!(race.over, "race {} did not end", race.number);
    assert!(race.placings.len() <= 2);
    for (i, x) in race.racers.iter().enumerate() {
        match x.status {
            // A racer that crossed in the same move as the 2nd gets no place.
            Status::Racing => assert!(x.pos < track::FINISH || race.placings.len() == 2, "{x:?}"),
            Status::Finished(p) => {
                assert!(p == 1 || p == 2);
                assert!(race.placings.contains(&i));
            }
            Status::Eliminated(_) => assert!(race.eliminated.contains(&i)),
        }
        if let Status::Racing = x.status {
            // Nobody shares Huge Baby's space off the Start (Copycat's copy of her power
            // acts on racers arriving, not on those it already shares a space with).
            if x.kind == Kind::HugeBaby && x.pos > 0 {
                let sharing = race
                    .racers
                    .iter()
                    .filter(|y| y.racing() && y.pos == x.pos)
                    .count();
                assert_eq!(sharing, 1, "{:?}", race.racers);
            }
        }
    }
    if race.placings.len() < 2 && !race.capped {
        assert!(race.racers.iter().all(|x| !x.racing()));
    }
}

#[test]
fn ten_thousand_random_races_end_and_replay_identically() {
    let tracks = [Track::Mild, Track::Wild, Track::WildRulebook];
    let mut capped = 0;
    for seed in 0..10_500u64 {
        let track = tracks[(seed % 3) as usize];
        let players = 2 + (seed % 5) as usize;
        let race = sim::play_random_race(seed, players, track);
        check_race_invariants(&race);
        if race.capped {
            capped += 1;
        }
        if seed % 10 == 0 {
            let again = sim::play_random_race(seed, players, track);
            assert_eq!(race, again, "seed {seed}");
        }
    }
    // Only default policies that undo each other forever (Hypnotist and a Copycat of it
    // pulling each other back) reach the limit.
    assert!(capped < 30, "{capped} races hit the turn limit");
}

#[test]
fn conformance_over_thousands_of_seeded_games() {
    // Fast games (decisions answered by policies and defaults) for bulk...
    let quick = Options {
        auto_roll: true,
        decision_timeout: 0,
        ..Options::default()
    };
    for (players, games) in [(2usize, 250u64), (3, 300), (4, 300), (5, 200), (6, 200)] {
        let mut spec = SimSpec::<MagicalAthlete>::new(quick.clone(), players, games);
        spec.first_seed = players as u64 * 10_000;
        spec.view_check_every = 2;
        check(&spec).unwrap_or_else(|v| panic!("{players} players: {v}"));
    }
    let mut spec = SimSpec::<MagicalAthlete>::new(
        Options {
            double: true,
            ..quick.clone()
        },
        3,
        250,
    );
    spec.view_check_every = 2;
    check(&spec).unwrap_or_else(|v| panic!("double: {v}"));
    // ...and games where every turn and decision waits for a live answer.
    for (players, games) in [(2usize, 25u64), (3, 30), (4, 30)] {
        let mut spec = SimSpec::<MagicalAthlete>::new(Options::default(), players, games);
        spec.first_seed = 90_000 + players as u64 * 1000;
        spec.view_check_every = 9;
        check(&spec).unwrap_or_else(|v| panic!("live, {players} players: {v}"));
    }
}

// ----- Replay -----

#[test]
fn replay_plays_the_rulebook_example() {
    let script = serde_json::json!({
        "game": "magical-athlete",
        "track": "mild",
        "racers": [
            {"player": "Ann", "racer": "romantic", "space": 0},
            {"player": "Ben", "racer": "scoocher", "space": 2},
            {"player": "Cat", "racer": "banana", "space": 3}
        ],
        "dice": [5]
    });
    let out = replay::run(script).unwrap();
    let o = out.output;
    assert_eq!(o["racers"][0]["racer"], "Romantic");
    assert_eq!(o["racers"][0]["space"], 7);
    assert_eq!(o["racers"][0]["tripped"], true);
    assert_eq!(o["racers"][1]["space"], 4);
    assert_eq!(o["rolls"], serde_json::json!([5]));
    assert_eq!(o["over"], false);
    assert!(!out.views.is_empty());
}

#[test]
fn replay_takes_answers_in_order_and_reports_chips() {
    let script = serde_json::json!({
        "game": "magical-athlete",
        "track": "wild",
        "turn": "Bob",
        "racers": [
            {"player": "Ann", "racer": "legs", "space": 0},
            {"player": "Bob", "racer": "magician", "space": 10, "tripped": false}
        ],
        "dice": [1, 3],
        "answers": ["yes", "no", "legs"]
    });
    let o = replay::run(script).unwrap().output;
    // Racers are listed in turn order. Magician rerolls the 1, keeps the 3 and lands on
    // the star at 13; Legs moves 5.
    assert_eq!(o["racers"][0]["racer"], "Magician");
    assert_eq!(o["racers"][0]["space"], 13);
    assert_eq!(o["chips"]["Bob"]["bronze"], 1);
    assert_eq!(o["racers"][1]["space"], 5);
    assert_eq!(o["prompts"][0]["answer"], "yes");
}

#[test]
fn replay_refuses_illegal_scripts() {
    let base = |racers: serde_json::Value, extra: serde_json::Value| {
        let mut s = serde_json::json!({"game": "magical-athlete", "racers": racers});
        if let (Some(m), Some(e)) = (s.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                m.insert(k.clone(), v.clone());
            }
        }
        replay::run(s)
    };
    let two = serde_json::json!([
        {"player": "Ann", "racer": "legs"},
        {"player": "Bob", "racer": "magician"}
    ]);
    let e = base(
        serde_json::json!([{"player": "Ann", "racer": "zebra"}, {"player":"B","racer":"legs"}]),
        serde_json::json!({}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("`zebra` is not a racer"), "{e}");
    let e = base(serde_json::json!([{"player": "Ann", "racer": "legs", "space": 30}, {"player":"B","racer":"gunk"}]), serde_json::json!({})).unwrap_err();
    assert!(e.to_string().contains("not on the track"), "{e}");
    let e = base(two.clone(), serde_json::json!({"dice": [7]})).unwrap_err();
    assert!(e.to_string().contains("not a die roll"), "{e}");
    let e = base(two.clone(), serde_json::json!({"answers": ["guess 3"]})).unwrap_err();
    assert!(e.to_string().starts_with("turn 1, Ann: prompt 1"), "{e}");
    let e = base(two, serde_json::json!({"turn": "Zed"})).unwrap_err();
    assert!(e.to_string().contains("Zed has no racer"), "{e}");
}

// ----- Simulation table -----

#[test]
fn sim_prints_each_racers_win_and_second_rates() {
    let args = crate::games::SimArgs {
        count: 400,
        seed: 1,
        players: Some(5),
        options: "track=wild".into(),
        bots: crate::games::SimBots::Mixed,
    };
    let (text, json) = crate::games::sim(crate::games::GameKind::MagicalAthlete, &args).unwrap();
    assert!(
        text.contains("racer") && text.contains("win %") && text.contains("2nd %"),
        "{text}"
    );
    assert!(text.contains("Wild Wilds"), "{text}");
    let by = json["by_racer"].as_object().unwrap();
    assert!(by.len() >= 30, "{}", by.len());
    let races: u64 = by.values().map(|t| t["races"].as_u64().unwrap()).sum();
    let wins: u64 = by.values().map(|t| t["wins"].as_u64().unwrap()).sum();
    assert_eq!(races, 400 * 5);
    assert_eq!(wins, 400);
    let bad = crate::games::SimArgs {
        options: "track=moon".into(),
        bots: crate::games::SimBots::Mixed,
        ..args
    };
    assert!(crate::games::sim(crate::games::GameKind::MagicalAthlete, &bad).is_err());
}

// ----- Golden replays -----

/// FNV-1a over text, so the golden hashes below do not depend on the platform.
fn fnv(h: &mut u64, text: &str) {
    for b in text.bytes() {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// Seeded races told event by event, seeded quiet races and whole games, hashed. The
/// hashes were recorded before the engine's speed work: any change in what a race does or
/// tells changes them.
#[test]
fn golden_races_and_games_are_unchanged() {
    let tracks = [Track::Mild, Track::Wild, Track::WildRulebook];
    let mut told = 0xcbf2_9ce4_8422_2325u64;
    for seed in 0..1500u64 {
        let track = tracks[(seed % 3) as usize];
        let players = 2 + (seed % 7) as usize;
        let mut race = sim::random_race(seed, players, track);
        loop {
            let r = race.run_slot(&mut race::Defaults);
            for e in &race.events {
                fnv(&mut told, &format!("{e:?}"));
            }
            match r {
                Ok(()) => {}
                Err(race::Halt::Over) => break,
                Err(h) => panic!("seed {seed}: {h:?}"),
            }
        }
        fnv(&mut told, &serde_json::to_string(&race).unwrap());
    }
    let mut quiet = 0xcbf2_9ce4_8422_2325u64;
    for seed in 0..12_000u64 {
        let track = tracks[(seed % 3) as usize];
        let players = 2 + (seed % 11) as usize;
        let race = sim::play_random_race(seed + 1_000_000, players, track);
        fnv(&mut quiet, &serde_json::to_string(&race).unwrap());
    }
    let mut games = 0xcbf2_9ce4_8422_2325u64;
    for seed in 0..30u64 {
        let (g, events) = play_defaults(&Options::default(), 2 + (seed % 5) as usize, seed);
        for e in &events {
            fnv(&mut games, &format!("{e:?}"));
        }
        fnv(&mut games, &format!("{:?}", g.outcome()));
    }
    assert_eq!(
        (told, quiet, games),
        (
            12_140_036_224_710_555_608,
            4_540_930_390_084_317_790,
            9_431_307_744_220_286_588
        ),
        "golden hashes (told, quiet, games)"
    );
}
