//! A round, step by step: the machine that runs bids ([`super::bids`]), the cards-phase
//! moves, the pace and extra-costs phases ([`super::pace`]) and the finish; and the
//! narration of each event.
//!
//! Play by orders and live play share this machine: a round order answers every decision
//! in advance, while live play stops at each player's decision and waits.

use std::cmp::Reverse;

use super::path::{self, Intent};
use super::{
    CostReason, Event, FifteenHundred, MOVEMENT_CARDS, Order, PaceIntent, Phase, PlayMode,
    RoundOrder, RoundRecord, RoundState, Step, Until,
};
use crate::engine::{Game, Narration, Seat, Submitted};
use crate::render::ordinal;

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
                let text = game.format_order(seat, &order);
                if let Some(r) = game.runners.get_mut(i) {
                    r.last_order = Some(text);
                }
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
            let text = game.format_order(seat, &order);
            if let Some(r) = game.runners.get_mut(i) {
                r.last_order = Some(text);
            }
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
    pub(super) fn begin_round(&mut self, events: &mut Vec<Event>) {
        let n = self.runners.len();
        self.round = self.round.saturating_add(1);
        *self.turn = RoundState {
            bids: vec![None; n],
            cards: vec![None; n],
            actions: vec![None; n],
            moved: vec![(None, None); n],
            ..RoundState::default()
        };
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
        done.sort_by_key(|&i| Reverse(self.runners.get(i).map(|r| self.course.key(r.spot))));
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

fn medal(place: u8) -> &'static str {
    match place {
        1 => " (gold)",
        2 => " (silver)",
        3 => " (bronze)",
        _ => "",
    }
}

pub(super) fn narrate(game: &FifteenHundred, event: &Event) -> Narration {
    let name = |i: usize| game.name(i).to_string();
    let names = |v: &[usize]| {
        v.iter()
            .map(|&i| game.name(i))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match event {
        Event::RoundStarted { round } => Narration::public(format!("Round {round} begins.")),
        Event::Missed { runner } => Narration::public(format!(
            "{} missed the deadline: the default order is played.",
            name(*runner)
        )),
        Event::BidsRevealed {
            bids,
            order,
            left_out,
        } => {
            if bids.is_empty() {
                return Narration::public("Nobody bids this round.");
            }
            let shown: Vec<String> = bids
                .iter()
                .map(|(i, b)| format!("{} {b}", game.name(*i)))
                .collect();
            let mut text = format!(
                "Bids: {}. Actions are chosen by {}.",
                shown.join(", "),
                names(order)
            );
            if let Some(l) = left_out {
                text.push_str(&format!(" {} bid lowest and gets no action.", name(*l)));
            }
            Narration::public(text)
        }
        Event::ActionTaken { runner, action } => Narration::public(match action {
            Some(a) => format!("{} takes {a}.", name(*runner)),
            None => format!("{} takes no action.", name(*runner)),
        }),
        Event::CardsRevealed { cards, robot_card } => {
            let mut parts: Vec<String> = cards
                .iter()
                .map(|(i, c)| format!("{} {c}", game.name(*i)))
                .collect();
            if let Some(c) = robot_card {
                parts.push(format!("robots {c}"));
            }
            Narration::public(format!("Movement cards: {}.", parts.join(", ")))
        }
        Event::Moved {
            runner,
            phase,
            points,
            penalty,
            from,
            to,
            cost,
        } => {
            let what = match phase {
                Phase::Cards => "moves",
                Phase::Pace => "runs",
            };
            let pen = if *penalty > 0 {
                format!(" ({penalty} lost to exhaustion)")
            } else {
                String::new()
            };
            if from == to {
                Narration::public(format!(
                    "{} stays in {} with {points} points{pen}.",
                    name(*runner),
                    game.course.describe(*to)
                ))
            } else {
                Narration::public(format!(
                    "{} {what} to {} using {cost} of {points} points{pen}.",
                    name(*runner),
                    game.course.describe(*to)
                ))
            }
        }
        Event::PaceSet {
            runner,
            from,
            to,
            cost,
            paid,
        } => {
            let change = match to.cmp(from) {
                std::cmp::Ordering::Greater => format!("goes up to pace {to}"),
                std::cmp::Ordering::Less => format!("drops to pace {to}"),
                std::cmp::Ordering::Equal => format!("keeps pace {to}"),
            };
            let short = if paid < cost {
                format!(
                    " (only {paid} paid: {} movement points lost next round)",
                    cost - paid
                )
            } else {
                String::new()
            };
            Narration::public(format!(
                "{} {change}, costing {cost} mental strength{short}.",
                name(*runner)
            ))
        }
        Event::ExtraCost {
            runner,
            reason,
            cost,
            paid,
        } => {
            let why = match reason {
                CostReason::Leader => "leading the race".to_string(),
                CostReason::Medal(n) => {
                    format!("running {} on the last lap", ordinal(u32::from(*n)))
                }
                CostReason::Wear => "wear".to_string(),
            };
            let short = if paid < cost {
                format!(" (only {paid} paid)")
            } else {
                String::new()
            };
            Narration::public(format!(
                "{} pays {cost} mental strength for {why}{short}.",
                name(*runner)
            ))
        }
        Event::LapsLeft { laps } => Narration::public(match laps {
            0 => "The bell rings: last lap!".to_string(),
            1 => "1 lap to go after this one.".to_string(),
            n => format!("{n} laps to go after this one."),
        }),
        Event::Finished { runner, place, .. } => Narration::public(format!(
            "{} finishes {}{}!",
            name(*runner),
            ordinal(u32::from(*place)),
            medal(*place)
        )),
        Event::HandsRefilled => Narration::public("All four movement cards go back to every hand."),
        Event::RaceOver { order } => {
            let podium: Vec<String> = order
                .iter()
                .take(3)
                .enumerate()
                .map(|(n, &i)| format!("{} {}", ordinal(n as u32 + 1), game.name(i)))
                .collect();
            Narration::public(format!("The race is over: {}.", podium.join(", ")))
        }
    }
}
