//! 1500m's tests: the rulebook example, one scenario test per rule (each through the parser
//! a player uses), the random-simulation tests and replay scripts, one module per concern;
//! this module holds the helpers they share.

use super::board::Spot;
use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{OrderError, read_order};

mod advanced;
mod bidding;
mod fingerprint;
mod finish;
mod live_play;
mod replay_scripts;
mod robots;
mod rulebook;
mod simulation;
mod track;

const BACK: usize = 1;
const CURVE1: usize = 0;
const CURVE2: usize = 2;
const HOME: usize = 3;

fn race_with(options: Options, names: &[&str]) -> FifteenHundred {
    let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
    FifteenHundred::setup(&options, &seats, Seed::from_u64(11)).unwrap()
}

fn idx(g: &FifteenHundred, name: &str) -> usize {
    g.runner_named(name).unwrap()
}

fn seat(g: &FifteenHundred, name: &str) -> Seat {
    Seat(idx(g, name) as u8)
}

fn spot(g: &FifteenHundred, lane: u8, section: usize, index: u16, lap: u8) -> Spot {
    g.course().spot_in(lane, section, index, lap)
}

/// Places runners (two passes, so they may swap lanes).
fn place(g: &mut FifteenHundred, at: &[(&str, Spot)]) {
    for (name, _) in at {
        let i = idx(g, name);
        g.park_runner(i).unwrap();
    }
    for (name, s) in at {
        let i = idx(g, name);
        g.place_runner(i, *s).unwrap();
    }
}

fn set(g: &mut FifteenHundred, name: &str, strength: u16, pace: u8) {
    let i = idx(g, name);
    g.set_runner(i, Some(strength), Some(pace), None, None)
        .unwrap();
}

/// Orders through the player's parser; everyone pending who is not listed misses.
fn play(g: &mut FifteenHundred, orders: &[(&str, &str)]) -> Vec<Event> {
    let mut subs: Vec<Submitted<Order>> = orders
        .iter()
        .map(|(n, t)| {
            let s = seat(g, n);
            let o = read_order(g, s, t).unwrap_or_else(|e| panic!("{n}: {t}: {e}"));
            Submitted::new(s, o)
        })
        .collect();
    for s in g.pending().seats {
        if !subs.iter().any(|o| o.seat == s) {
            subs.push(Submitted::missed(s, g.default_order(s)));
        }
    }
    g.apply(&subs)
}

fn refused(g: &FifteenHundred, name: &str, text: &str) -> String {
    match read_order(g, seat(g, name), text) {
        Err(OrderError::Illegal(e) | OrderError::Syntax(e)) => e,
        other => panic!("{text} was not refused: {other:?}"),
    }
}

fn moves(g: &FifteenHundred, events: &[Event], phase: Phase) -> Vec<(String, Spot, Spot, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                runner,
                phase: p,
                from,
                to,
                cost,
                ..
            } if *p == phase => Some((g.runners()[*runner].name.clone(), *from, *to, *cost)),
            _ => None,
        })
        .collect()
}

fn mover_names(g: &FifteenHundred, events: &[Event], phase: Phase) -> Vec<String> {
    moves(g, events, phase).into_iter().map(|m| m.0).collect()
}

fn strength(g: &FifteenHundred, name: &str) -> u16 {
    g.runners()[idx(g, name)].strength
}

fn pace(g: &FifteenHundred, name: &str) -> u8 {
    g.runners()[idx(g, name)].pace
}

fn live(names: &[&str]) -> FifteenHundred {
    race_with(
        Options {
            play: PlayMode::Live,
            ..Options::default()
        },
        names,
    )
}

/// Live play up to `mover`'s cards-phase move: bids with the given cards, no actions.
fn live_to_move(g: &mut FifteenHundred, cards: &[(&str, &str)]) {
    play(g, cards);
    while g.step() == Step::Action {
        let s = g.pending().seats[0];
        let o = read_order(g, s, "action none").unwrap();
        g.apply(&[Submitted::new(s, o)]);
    }
    assert_eq!(g.step(), Step::Move);
}
