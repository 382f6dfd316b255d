//! The card race's rules, rulings and variants as scenario tests played through the
//! parser a player uses, and the random-simulation test for every ruleset and table.
//! This module holds the shared table helpers; each child module one rule area.

use super::game_views::PublicView;
use super::replay::stack_cards;
use super::*;
use crate::engine::conformance::{SimSpec, check};
use crate::engine::{
    Bots, DecisionWindow, Game, GameRng, Mode, Preferences, Presentation, Seat, SeatSetup, Seed,
    Submitted, Window, read_order,
};

mod driving;
mod orders;
mod replay_scripts;
mod scoring;
mod texts;
mod tricks;
mod variants;
mod whole_games;
mod window_plays;

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
