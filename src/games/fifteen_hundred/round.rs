//! A round, step by step: the machine that runs bids ([`super::bids`]), the cards-phase
//! moves, the pace and extra-costs phases ([`super::pace`]) and the finish
//! (docs/rules/1500m.md). Each event's narration is in [`super::narrate`].
//!
//! Play by orders and live play share this machine: a round order answers every decision
//! in advance, while live play stops at each player's decision and waits.

use std::cmp::Reverse;

use super::options::{PlayMode, Until};
use super::order;
use super::order::{Order, PaceIntent, RoundOrder};
use super::path::{self, Intent};
use super::rules::MOVEMENT_CARDS;
use super::state::{Event, FifteenHundred, Phase, RoundRecord, RoundState, Step};
use crate::engine::{Game, Seat, Submitted};

/// One move's means: points (after any penalty), the penalty taken, and Move First's
/// passing through.
#[derive(Clone, Copy)]
pub(super) struct Leg {
    pub(super) points: u8,
    pub(super) penalty: u8,
    pub(super) pass: bool,
    pub(super) phase: Phase,
}

/// Each runner's answers for the round, in play by orders.
type Plans = Vec<Option<RoundOrder>>;

/// The order `seat` gave, if it validates; else its default, with the missed flag.
fn take<F>(game: &FifteenHundred, orders: &[Submitted<Order>], seat: Seat, fits: F) -> (Order, bool)
where
    F: Fn(&Order) -> bool,
{
    match orders
        .iter()
        .find(|s| s.seat == seat && fits(&s.order) && game.validate(seat, &s.order).is_ok())
    {
        Some(s) => (s.order.clone(), s.missed),
        None => (game.default_order(seat), true),
    }
}

pub(super) fn apply(game: &mut FifteenHundred, orders: &[Submitted<Order>]) -> Vec<Event> {
    let mut events = Vec::new();
    match game.step {
        Step::Over => return events,
        Step::Orders | Step::Bids => {
            let live = game.step == Step::Bids;
            let mut plans: Plans = vec![None; game.runners.len()];
            let mut picks = Vec::new();
            for i in game.racing_players() {
                let Some(seat) = Seat::from_index(i) else {
                    continue;
                };
                let (order, missed) = take(game, orders, seat, |o| {
                    matches!(o, Order::Round(_) | Order::Bid { .. })
                });
                if missed {
                    events.push(Event::Missed { runner: i });
                }
                game.note_order(i, &order);
                match order {
                    Order::Round(r) => {
                        picks.push((i, r.card, r.bid));
                        if let Some(slot) = plans.get_mut(i) {
                            *slot = Some(r);
                        }
                    }
                    Order::Bid { card, bid } => picks.push((i, card, bid)),
                    _ => {}
                }
            }
            game.resolve_bids(&picks, !live, &mut events);
            game.advance(if live { None } else { Some(&plans) }, &mut events);
        }
        Step::Action | Step::Move | Step::Pace => {
            let Some(i) = game.decider() else {
                game.advance(None, &mut events);
                return events;
            };
            let Some(seat) = game.seat_of(i) else {
                game.advance(None, &mut events);
                return events;
            };
            let (order, missed) = take(game, orders, seat, |_| true);
            if missed {
                events.push(Event::Missed { runner: i });
            }
            game.note_order(i, &order);
            match order {
                Order::Action { action } => game.choose_action(i, action, &mut events),
                Order::Move { intent } => game.move_runner(i, &intent, &mut events),
                Order::Pace { pace, intent } => game.pace_runner(i, pace, &intent, &mut events),
                _ => {}
            }
            game.advance(None, &mut events);
        }
    }
    events
}

impl FifteenHundred {
    /// Keeps the text of the order runner `i` gave (its [`Game::format_order`]), in the
    /// runner's own buffer.
    fn note_order(&mut self, i: usize, order: &Order) {
        if let Some(r) = self.runners.get_mut(i) {
            order::write_order(r.last_order.get_or_insert_with(String::new), order);
        }
    }

    pub(super) fn begin_round(&mut self, events: &mut Vec<Event>) {
        let n = self.runners.len();
        self.round = self.round.saturating_add(1);
        // The round's per-runner lists keep their buffers from round to round.
        let mut fresh = RoundState {
            bids: std::mem::take(&mut self.turn.bids),
            cards: std::mem::take(&mut self.turn.cards),
            actions: std::mem::take(&mut self.turn.actions),
            moved: std::mem::take(&mut self.turn.moved),
            ..RoundState::default()
        };
        for list in [&mut fresh.bids, &mut fresh.cards] {
            list.clear();
            list.resize(n, None);
        }
        fresh.actions.clear();
        fresh.actions.resize(n, None);
        fresh.moved.clear();
        fresh.moved.resize(n, (None, None));
        *self.turn = fresh;
        self.step = match self.options.play {
            PlayMode::Orders => Step::Orders,
            PlayMode::Live => Step::Bids,
        };
        events.push(Event::RoundStarted { round: self.round });
    }

    fn start_movement(&mut self, events: &mut Vec<Event>) {
        let robots_racing = (self.seats..self.runners.len()).any(|i| self.racing(i));
        if robots_racing {
            if self.robot_deck.is_empty() {
                self.refill_robot_deck();
            }
            self.turn.robot_card = self.robot_deck.pop();
        }
        self.turn.cards_revealed = true;
        let cards = self
            .turn
            .cards
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i, c)))
            .collect();
        events.push(Event::CardsRevealed {
            cards,
            robot_card: self.turn.robot_card,
        });
        let standings = self.standings();
        let mut order: Vec<usize> = standings
            .iter()
            .copied()
            .filter(|&i| self.moves_first(i))
            .collect();
        order.extend(standings.iter().copied().filter(|&i| !self.moves_first(i)));
        self.turn.order = order;
        self.turn.next = 0;
        self.step = Step::Move;
    }

    fn refill_robot_deck(&mut self) {
        self.robot_deck = MOVEMENT_CARDS.to_vec();
        self.rng.shuffle(&mut self.robot_deck);
    }

    /// Moves a runner to the spot its intent picks, and keeps the lap counter.
    pub(super) fn move_to(&mut self, i: usize, leg: Leg, intent: &Intent, events: &mut Vec<Event>) {
        let Leg {
            points,
            penalty,
            pass,
            phase,
        } = leg;
        let Some(from) = self.runners.get(i).map(|r| r.spot) else {
            return;
        };
        let reach = path::choose(&self.course, from, points, &self.occupied(i), pass, intent);
        if let Some(r) = self.runners.get_mut(i) {
            r.spot = reach.spot;
        }
        if let Some(m) = self.turn.moved.get_mut(i) {
            match phase {
                Phase::Cards => m.0 = Some(reach.cost),
                Phase::Pace => m.1 = Some(reach.cost),
            }
        }
        events.push(Event::Moved {
            runner: i,
            phase,
            points,
            penalty,
            from,
            to: reach.spot,
            cost: reach.cost,
        });
        let start = self.course.start().laps;
        let crossings = reach.spot.lap.min(start);
        let left = start - crossings;
        if left < self.laps_left {
            self.laps_left = left;
            events.push(Event::LapsLeft { laps: left });
        }
    }

    pub(super) fn move_runner(&mut self, i: usize, intent: &Intent, events: &mut Vec<Event>) {
        let points = self.cards_points(i);
        let pass = self.moves_first(i);
        let player = self.is_player(i);
        let card = self.turn.cards.get(i).copied().flatten();
        let mut used = 0u8;
        if let Some(r) = self.runners.get_mut(i) {
            if player && let Some(pos) = card.and_then(|c| r.hand.iter().position(|&h| h == c)) {
                r.hand.remove(pos);
            }
            let pen = r.penalty.min(u16::from(points));
            r.penalty -= pen;
            used = u8::try_from(pen).unwrap_or(0);
        }
        let intent = if player {
            intent.clone()
        } else {
            Intent::farthest()
        };
        let leg = Leg {
            points: points - used,
            penalty: used,
            pass,
            phase: Phase::Cards,
        };
        self.move_to(i, leg, &intent, events);
        self.turn.next += 1;
    }

    /// Runners who crossed in this phase finish, ordered by where they stand at its end.
    fn end_phase(&mut self, phase: Phase, events: &mut Vec<Event>) {
        let mut done: Vec<usize> = self
            .standings()
            .into_iter()
            .filter(|&i| {
                self.runners
                    .get(i)
                    .is_some_and(|r| self.course.on_finish_straight(r.spot))
            })
            .collect();
        done.sort_by_key(|&i| Reverse(self.runners.get(i).map(|r| self.course.rank(r.spot))));
        for i in done {
            let place = u8::try_from(self.finish_order.len() + 1).unwrap_or(u8::MAX);
            if let Some(r) = self.runners.get_mut(i) {
                r.place = Some(place);
            }
            self.finish_order.push(i);
            events.push(Event::Finished {
                runner: i,
                place,
                phase,
            });
        }
    }

    fn race_done(&self) -> bool {
        let n = self.runners.len();
        let finished = self.finish_order.len();
        let medals = n.min(3);
        match self.options.until {
            Until::Medals => finished >= medals,
            Until::All => finished >= medals && self.racing_players().is_empty(),
        }
    }

    /// Notes the field as a round ends, for the race chart.
    fn record_round(&mut self) {
        let record = RoundRecord {
            round: self.round,
            order: self.full_order(),
            strength: self
                .runners
                .iter()
                .map(|r| (!r.robot).then_some(r.strength))
                .collect(),
        };
        self.history.push(record);
    }

    fn end_race(&mut self, events: &mut Vec<Event>) {
        self.record_round();
        self.step = Step::Over;
        events.push(Event::RaceOver {
            order: self.full_order(),
        });
    }

    fn end_round(&mut self, events: &mut Vec<Event>) {
        self.record_round();
        let mut refilled = false;
        for i in 0..self.seats {
            if let Some(r) = self.runners.get_mut(i)
                && r.hand.is_empty()
            {
                r.hand = MOVEMENT_CARDS.to_vec();
                refilled = true;
            }
        }
        if self.robot_deck.is_empty() {
            self.refill_robot_deck();
            refilled = true;
        }
        if refilled {
            events.push(Event::HandsRefilled);
        }
        self.begin_round(events);
    }

    /// Runs the round on until a player must decide (or, in play by orders, until the next
    /// round's orders are due).
    pub(super) fn advance(&mut self, plans: Option<&Plans>, events: &mut Vec<Event>) {
        let mut plans = plans;
        // A guard: a round takes a few dozen steps, and a race a few dozen rounds.
        for _ in 0..100_000 {
            match self.step {
                Step::Over => return,
                Step::Orders | Step::Bids => {
                    if !self.racing_players().is_empty() {
                        return;
                    }
                    // Only robots are left running: their round needs nobody.
                    self.resolve_bids(&[], true, events);
                }
                Step::Action => {
                    let Some(i) = self.turn.choosers.get(self.turn.next).copied() else {
                        self.start_movement(events);
                        continue;
                    };
                    match plans.and_then(|p| p.get(i)).and_then(Option::as_ref) {
                        Some(plan) => {
                            let a = plan.actions.pick(&self.taken());
                            self.choose_action(i, a, events);
                        }
                        None if self.is_player(i) => return,
                        None => self.choose_action(i, None, events),
                    }
                }
                Step::Move => {
                    let Some(i) = self.turn.order.get(self.turn.next).copied() else {
                        self.end_phase(Phase::Cards, events);
                        if self.race_done() {
                            self.end_race(events);
                            return;
                        }
                        self.start_pace();
                        continue;
                    };
                    if !self.is_player(i) {
                        self.move_runner(i, &Intent::farthest(), events);
                        continue;
                    }
                    match plans.and_then(|p| p.get(i)).and_then(Option::as_ref) {
                        Some(plan) => {
                            let intent = plan.run.clone();
                            self.move_runner(i, &intent, events);
                        }
                        None => return,
                    }
                }
                Step::Pace => {
                    let Some(i) = self.turn.order.get(self.turn.next).copied() else {
                        self.end_phase(Phase::Pace, events);
                        if self.race_done() {
                            self.end_race(events);
                            return;
                        }
                        self.extra_costs(events);
                        self.end_round(events);
                        plans = None;
                        continue;
                    };
                    if !self.is_player(i) {
                        self.pace_runner(i, PaceIntent::Keep, &Intent::farthest(), events);
                        continue;
                    }
                    match plans.and_then(|p| p.get(i)).and_then(Option::as_ref) {
                        Some(plan) => {
                            let (pace, intent) = (plan.pace, plan.then.clone());
                            self.pace_runner(i, pace, &intent, events);
                        }
                        None => return,
                    }
                }
            }
        }
        // Unreachable in practice; end the race rather than loop.
        self.end_race(events);
    }
}
