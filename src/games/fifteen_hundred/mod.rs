//! 1500m: a track race of lanes, pace, mental strength and bids (docs/rules/1500m.md has
//! the rules and the project's rulings).
//!
//! The state owns the runners (human seats first, then robots), the course and the round in
//! progress; [`state`] holds it, its parts and queries (`rules` the rulebook's numbers), and
//! this file answers the engine's contract by calling the rooms:
//! [`options`] the race options, `setup` a race's
//! start, [`board`] the geometry, [`path`] movement and the pathfinder, [`order`] the order
//! types, [`parse`] reading order text, [`legality`] checking orders against the state,
//! `prompt` what each seat is asked, `check` the invariants every state holds, `bids` the bids and actions, `pace` the pace and
//! extra-costs phases, `round` the machine that runs a round's steps and the finish,
//! `narrate` the events' sentences,
//! [`views`] what is seen, [`sim`] the bots and [`replay`] replay scripts. By default a
//! round is one secret order per runner that carries every decision; the `live` option asks
//! each runner in turn instead.

mod bids;
pub mod board;
mod check;
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
mod rules;
mod setup;
pub mod sim;
pub mod state;
pub mod views;

use crate::engine::{
    Bots, Game, GameRng, Narration, OptionDoc, OptionsError, Outcome, Pending, Presentation,
    Prompt, Seat, SeatSetup, Seed, SetupError, StateError, Submitted,
};
pub use board::Distance;
pub use legality::IllegalOrder;
pub use options::{Options, PlayMode, Until};
pub use order::{Action, Misfit, Order, PaceIntent, Preferences, RoundOrder};
pub use parse::SyntaxError;
use parse::{Asked, Question};
pub use rules::{BASE_PACE, MOVEMENT_CARDS, TOP_BID, options_card};
pub use state::{CostReason, Event, FifteenHundred, Phase, RoundRecord, RoundState, Runner, Step};
pub use views::{PrivateView, PublicView, RunnerView};

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

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        round::apply(self, orders)
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

    fn check(&self) -> Result<(), StateError> {
        self.check_state()
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        self.hidden_resampled(viewer, rng)
    }
}

impl Bots for FifteenHundred {
    // Each runner's heuristic runs the pathfinder (docs/performance.md, "Expert bot").
    const EXPERT_STEPS: u64 = 8_000;

    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        sim::random_order(self, seat, rng)
    }

    fn heuristic_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        sim::heuristic_order(self, seat, rng)
    }

    fn expert_candidates(&self, seat: Seat, rng: &mut GameRng) -> Vec<Order> {
        sim::expert_candidates(self, seat, rng)
    }
}

// No preferences to set and no obvious orders: autopilot plays only forced ones.
impl crate::engine::Preferences for FifteenHundred {}

impl Presentation for FifteenHundred {
    const CHANCE: Option<&'static str> = Some("every shuffle");

    fn narrate(&self, event: &Event) -> Narration {
        narrate::narrate(self, event)
    }

    fn rules_summary(_: &Options) -> &'static str {
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

    fn option_docs() -> &'static [OptionDoc] {
        options::OPTION_DOCS
    }
}

#[cfg(test)]
mod tests;
