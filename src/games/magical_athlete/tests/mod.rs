//! Magical Athlete's tests: helpers here; the rulebook example and each racer's power in
//! `powers`, tracks and decisions in `rules`, the game in `game`, simulations and replays in
//! `runs`.
//!
//! Scenario tests set racers on spaces and script the dice with [`scene`], then play
//! through the same parser a player uses ([`say`] goes through `read_order`).

use std::collections::VecDeque;

use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{OrderError, Presentation, Window, read_order};
use race::{Racer, Status};

mod game;
mod loops;
mod powers;
mod rules;
mod runs;
mod scripts;
mod texts;

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

/// A step's public narration, as the channel reads it.
fn told(g: &MagicalAthlete, events: &[Event]) -> String {
    g.narrate_all(events)
        .into_iter()
        .filter(|n| n.audience == crate::engine::Audience::Public)
        .map(|n| n.text)
        .collect::<Vec<_>>()
        .join("\n")
}

fn bronze(g: &MagicalAthlete, seat: u8) -> i32 {
    g.race().unwrap().bronze[usize::from(seat)]
}

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
