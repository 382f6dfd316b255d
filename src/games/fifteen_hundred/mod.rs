//! 1500m: a track race of lanes, pace, mental strength and bids (docs/rules/1500m.md has
//! the rules and the project's rulings).
//!
//! The state owns the runners (human seats first, then robots), the course and the round in
//! progress; this file holds it and answers the engine's contract by calling the rooms:
//! [`options`] the race options, [`state`] the state's parts and queries, `setup` a race's
//! start, [`board`] the geometry, [`path`] movement and the pathfinder, [`order`] the order
//! types, [`parse`] reading order text, [`legality`] checking orders against the state,
//! `prompt` what each seat is asked, `bids` the bids and actions, `pace` the pace and
//! extra-costs phases, `round` the machine that runs a round's steps and the finish,
//! `narrate` the events' sentences,
//! [`views`] what is seen, [`sim`] the bots and [`replay`] replay scripts. By default a
//! round is one secret order per runner that carries every decision; the `live` option asks
//! each runner in turn instead.

mod bids;
pub mod board;
pub mod legality;
mod narrate;
pub mod options;
pub mod order;
mod pace;
pub mod parse;
pub mod path;
mod prompt;
pub mod replay;
mod round;
mod setup;
pub mod sim;
pub mod state;
pub mod views;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::{
    Game, GameRng, Narration, OptionDoc, OptionsError, Outcome, Pending, Prompt, Seat, SeatSetup,
    Seed, SetupError, Submitted,
};
use board::Course;
pub use board::Distance;
pub use legality::IllegalOrder;
pub use options::{Options, PlayMode, Until};
pub use order::{Action, Misfit, Order, PaceIntent, Preferences, RoundOrder, SyntaxError};
use parse::{Asked, Question};
pub use state::{CostReason, Event, Phase, RoundState, Runner, Step};
pub use views::{PrivateView, PublicView, RoundRecord, RunnerView};

/// The movement cards every runner holds (and the robots' shared deck).
pub const MOVEMENT_CARDS: [u8; 4] = [8, 9, 10, 11];
/// Bid cards run from 1 to this.
pub const TOP_BID: u8 = 8;
/// The lowest pace level.
pub const BASE_PACE: u8 = 5;

/// The whole state of a race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FifteenHundred {
    options: Options,
    // Shared: every clone of a race (the expert bot's playouts) reads the same course.
    #[serde(with = "board::shared_course")]
    course: Arc<Course>,
    runners: Vec<Runner>,
    /// Players' runners come first: runner `i < seats` is seat `i`.
    seats: usize,
    round: u16,
    step: Step,
    turn: Box<RoundState>,
    /// Robot movement cards to draw, top last (order hidden).
    robot_deck: Vec<u8>,
    /// The lap counter's value.
    laps_left: u8,
    finish_order: Vec<usize>,
    /// The field after each round, for the race chart.
    #[serde(default)]
    history: Vec<RoundRecord>,
    rng: GameRng,
}

/// The card a missed order plays: the one whose loss leaves the widest spread of cards
/// behind (keeping the most options), the lower on a tie.
pub fn options_card(hand: &[u8]) -> u8 {
    let spread = |card: u8| {
        let rest: Vec<u8> = hand.iter().copied().filter(|&c| c != card).collect();
        let lo = rest.iter().min().copied().unwrap_or(0);
        let hi = rest.iter().max().copied().unwrap_or(0);
        hi - lo
    };
    let mut best: Option<(u8, u8)> = None;
    for &c in hand {
        let s = spread(c);
        if best.is_none_or(|(bs, bc)| s > bs || (s == bs && c < bc)) {
            best = Some((s, c));
        }
    }
    best.map(|(_, c)| c).unwrap_or(MOVEMENT_CARDS[0])
}

impl FifteenHundred {
    /// What reading an order from `seat` needs beside its text: the question of the step,
    /// and the seat's defaults for the parts left out.
    fn asked(&self, seat: Seat) -> Asked {
        let question = match self.step {
            Step::Orders => Question::Round,
            Step::Bids => Question::CardAndBid,
            Step::Action => Question::Action,
            Step::Move => Question::Move,
            Step::Pace => Question::Pace,
            Step::Over => Question::Nothing,
        };
        Asked {
            question,
            defaults: self.default_round_order(seat.index()),
            help: self.hint(),
        }
    }
}

impl Game for FifteenHundred {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type PublicView = PublicView;
    type PrivateView = PrivateView;
    type SyntaxError = SyntaxError;
    type IllegalOrder = IllegalOrder;

    fn option_docs() -> &'static [OptionDoc] {
        options::OPTION_DOCS
    }

    fn check_options(o: &Options) -> Result<(), OptionsError> {
        o.check()
    }

    fn seat_limits(o: &Options) -> (usize, usize) {
        o.seat_limits()
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        FifteenHundred::new(options, seats, seed)
    }

    fn pending(&self) -> Pending {
        let seats: Vec<Seat> = match self.step {
            Step::Over => return Pending::none(),
            Step::Orders | Step::Bids => self
                .racing_players()
                .into_iter()
                .filter_map(Seat::from_index)
                .collect(),
            _ => self
                .decider()
                .and_then(|i| self.seat_of(i))
                .into_iter()
                .collect(),
        };
        if seats.is_empty() {
            return Pending::none();
        }
        Pending::all(seats, self.label())
    }

    fn prompt(&self, seat: Seat) -> Prompt {
        self.prompt_for(seat)
    }

    fn parse_order(&self, seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        parse::parse(text, &self.asked(seat))
    }

    fn validate(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        self.check_order(seat, order)
    }

    fn format_order(&self, _seat: Seat, order: &Order) -> String {
        order::order_text(order)
    }

    fn default_order(&self, seat: Seat) -> Order {
        let i = seat.index();
        let d = self.default_round_order(i);
        match self.step {
            Step::Orders | Step::Over => Order::Round(d),
            Step::Bids => Order::Bid {
                card: d.card,
                bid: d.bid,
            },
            Step::Action => Order::Action {
                action: d.actions.pick(&self.taken()),
            },
            Step::Move => Order::Move { intent: d.run },
            Step::Pace => Order::Pace {
                pace: d.pace,
                intent: d.then,
            },
        }
    }

    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        sim::random_order(self, seat, rng)
    }

    fn heuristic_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        sim::heuristic_order(self, seat, rng)
    }

    fn expert_candidates(&self, seat: Seat, rng: &mut GameRng) -> Vec<Order> {
        sim::expert_candidates(self, seat, rng)
    }

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        round::apply(self, orders)
    }

    fn narrate(&self, event: &Event) -> Narration {
        narrate::narrate(self, event)
    }

    fn public_view(&self) -> PublicView {
        self.build_public_view()
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        self.build_private_view(seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_placings()
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        self.hidden_resampled(viewer, rng)
    }

    fn rules_summary() -> &'static str {
        "1500m: eight runners race 3 3/4 laps of an eight-lane track. Each round every runner \
         secretly plays a movement card (8-11) and a bid card (1-8, paid in mental strength); \
         from the highest bid down (ties: the worse placed first) runners take an extra action \
         (Safe 3/4, Move +2/+3, Move First, Pace +1/+2), and the lowest bidder gets none. \
         Runners then move in position order, Move First ahead of all: a step costs 1, a \
         diagonal to the inside 1 and to the outside 2, and nobody passes through or ends on \
         another runner (Move First may pass through). Next each runner keeps its pace, goes up \
         one level or down any, pays the level's cost and moves that many points. The leader \
         pays 2 more. Mental strength you cannot pay costs movement points. First across the \
         line wins; play on for silver and bronze."
    }
}

#[cfg(test)]
mod tests;
