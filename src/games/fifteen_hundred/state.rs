//! The state ([`FifteenHundred`]), its parts (runners, the step, the round in progress, the
//! events, the field after each round) and the questions every rule asks of the state: who
//! races, in what order, where, with what.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::board;
use super::board::{Course, Spot};
use super::options::Options;
use super::order::{Action, PaceIntent, Preferences, RoundOrder};
use super::path::Intent;
use super::rules::{BASE_PACE, options_card};
use crate::engine::{GameRng, Seat};

/// The whole state of a race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FifteenHundred {
    pub(super) options: Options,
    // Shared: every clone of a race (the expert bot's playouts) reads the same course.
    #[serde(with = "board::shared_course")]
    pub(super) course: Arc<Course>,
    pub(super) runners: Vec<Runner>,
    /// Players' runners come first: runner `i < seats` is seat `i`.
    pub(super) seats: usize,
    pub(super) round: u16,
    pub(super) step: Step,
    pub(super) turn: Box<RoundState>,
    /// Robot movement cards to draw, top last (order hidden).
    pub(super) robot_deck: Vec<u8>,
    /// The lap counter's value.
    pub(super) laps_left: u8,
    pub(super) finish_order: Vec<usize>,
    /// The field after each round, for the race chart.
    #[serde(default)]
    pub(super) history: Vec<RoundRecord>,
    pub(super) rng: GameRng,
}

/// The field at the end of a round, for the race chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub round: u16,
    /// Runners best placed first (finished runners by place).
    pub order: Vec<usize>,
    /// Mental strength by runner (`None` for robots).
    pub strength: Vec<Option<u16>>,
}

/// One runner: a player's, or a robot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    pub name: String,
    pub robot: bool,
    pub spot: Spot,
    /// Robots have none (they do not use the track).
    pub strength: u16,
    pub pace: u8,
    /// Movement points lost from the next cards-phase move for mental strength not paid.
    pub penalty: u16,
    /// Movement cards in hand (players).
    pub hand: Vec<u8>,
    /// Finishing place, from 1.
    pub place: Option<u8>,
    /// The last order this player gave, as text (private).
    pub last_order: Option<String>,
}

/// The step a round is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Play by orders: every player's whole-round order.
    Orders,
    /// Live: every player's secret movement card and bid.
    Bids,
    /// Live: the next chooser's action.
    Action,
    /// A cards-phase move.
    Move,
    /// A pace-phase decision and move.
    Pace,
    Over,
}

/// Which movement phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Cards,
    Pace,
}

/// Why extra mental strength was paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CostReason {
    Leader,
    Medal(u8),
    Wear,
}

/// The round in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RoundState {
    /// Bid cards played, by runner (revealed).
    pub bids: Vec<Option<u8>>,
    /// Movement cards chosen, by runner (secret until `cards_revealed`).
    pub cards: Vec<Option<u8>>,
    pub cards_revealed: bool,
    /// Who chooses an action, in order (the lowest bidder is left out).
    pub choosers: Vec<usize>,
    pub left_out: Option<usize>,
    /// Actions taken, by runner.
    pub actions: Vec<Option<Action>>,
    pub robot_card: Option<u8>,
    /// Who moves in the current phase, in order.
    pub order: Vec<usize>,
    /// The next chooser or mover.
    pub next: usize,
    /// Points each runner moved this round (cards phase, pace phase), for the views.
    pub moved: Vec<(Option<u8>, Option<u8>)>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    RoundStarted {
        round: u16,
    },
    /// A player missed the deadline; the default was played.
    Missed {
        runner: usize,
    },
    BidsRevealed {
        bids: Vec<(usize, u8)>,
        /// Choosing order.
        order: Vec<usize>,
        left_out: Option<usize>,
    },
    ActionTaken {
        runner: usize,
        action: Option<Action>,
    },
    CardsRevealed {
        cards: Vec<(usize, u8)>,
        robot_card: Option<u8>,
    },
    Moved {
        runner: usize,
        phase: Phase,
        points: u8,
        penalty: u8,
        from: Spot,
        to: Spot,
        cost: u8,
    },
    PaceSet {
        runner: usize,
        from: u8,
        to: u8,
        cost: u16,
        paid: u16,
    },
    ExtraCost {
        runner: usize,
        reason: CostReason,
        cost: u16,
        paid: u16,
    },
    LapsLeft {
        laps: u8,
    },
    Finished {
        runner: usize,
        place: u8,
        phase: Phase,
    },
    HandsRefilled,
    RaceOver {
        order: Vec<usize>,
    },
}

impl FifteenHundred {
    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn course(&self) -> &Course {
        &self.course
    }

    pub fn runners(&self) -> &[Runner] {
        &self.runners
    }

    pub fn round(&self) -> u16 {
        self.round
    }

    pub fn step(&self) -> Step {
        self.step
    }

    pub fn turn(&self) -> &RoundState {
        &self.turn
    }

    pub fn laps_left(&self) -> u8 {
        self.laps_left
    }

    pub fn finish_order(&self) -> &[usize] {
        &self.finish_order
    }

    pub(super) fn runner(&self, i: usize) -> Option<&Runner> {
        self.runners.get(i)
    }

    pub(super) fn name(&self, i: usize) -> &str {
        self.runner(i).map(|r| r.name.as_str()).unwrap_or("?")
    }

    pub(super) fn is_player(&self, i: usize) -> bool {
        i < self.seats
    }

    pub(super) fn seat_of(&self, i: usize) -> Option<Seat> {
        if self.is_player(i) {
            Seat::from_index(i)
        } else {
            None
        }
    }

    pub(super) fn racing(&self, i: usize) -> bool {
        self.runner(i).is_some_and(|r| r.place.is_none())
    }

    /// Runners still racing, best placed first.
    pub fn standings(&self) -> Vec<usize> {
        // Each rank looked up once; by index on a tie, as a stable sort would leave them.
        let mut keyed: Vec<(std::cmp::Reverse<Option<u32>>, usize)> = self
            .runners
            .iter()
            .enumerate()
            .filter(|(_, r)| r.place.is_none())
            .map(|(i, r)| (std::cmp::Reverse(self.course.rank(r.spot)), i))
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, i)| i).collect()
    }

    /// Everyone in order: finished by place, then the rest by position.
    pub fn full_order(&self) -> Vec<usize> {
        let mut v = self.finish_order.clone();
        v.extend(self.standings());
        v
    }

    /// Spaces held by runners on the track, except `except`.
    pub(super) fn occupied(&self, except: usize) -> Vec<Spot> {
        self.runners
            .iter()
            .enumerate()
            .filter(|(i, r)| *i != except && r.place.is_none())
            .map(|(_, r)| r.spot)
            .collect()
    }

    pub(super) fn racing_players(&self) -> Vec<usize> {
        (0..self.seats).filter(|&i| self.racing(i)).collect()
    }

    /// The seat deciding now in live play, if any.
    pub(super) fn decider(&self) -> Option<usize> {
        match self.step {
            Step::Action => self.turn.choosers.get(self.turn.next).copied(),
            Step::Move | Step::Pace => self.turn.order.get(self.turn.next).copied(),
            _ => None,
        }
    }

    pub(super) fn default_round_order(&self, i: usize) -> RoundOrder {
        let r = self.runner(i);
        RoundOrder {
            card: options_card(r.map(|r| r.hand.as_slice()).unwrap_or(&[])),
            bid: r.filter(|r| r.strength > 0).map(|_| 1),
            actions: Preferences::default(),
            pace: PaceIntent::Afford,
            run: Intent::farthest(),
            then: Intent::farthest(),
        }
    }

    /// The level a pace intent gives a runner now (before the 0-strength rule).
    pub(super) fn level_for(&self, i: usize, pace: PaceIntent) -> u8 {
        let Some(r) = self.runner(i) else {
            return BASE_PACE;
        };
        let top = self.options.top_pace();
        let cur = r.pace;
        let level = match pace {
            PaceIntent::Keep => cur,
            PaceIntent::Up => cur.saturating_add(1),
            PaceIntent::Down(n) => cur.saturating_sub(n),
            PaceIntent::Level(l) => l.min(cur.saturating_add(1)),
            PaceIntent::Afford => {
                if u32::from(self.options.pace_change_cost(cur, cur)) <= u32::from(r.strength) {
                    cur
                } else {
                    (BASE_PACE..cur)
                        .rev()
                        .find(|&l| self.options.pace_change_cost(cur, l) <= r.strength)
                        .unwrap_or(BASE_PACE)
                }
            }
        };
        level.clamp(BASE_PACE, top)
    }
    /// Points a runner has for its cards-phase move, before its penalty.
    pub(super) fn cards_points(&self, i: usize) -> u8 {
        let card = if self.is_player(i) {
            self.turn.cards.get(i).copied().flatten().unwrap_or(0)
        } else {
            self.turn.robot_card.unwrap_or(0)
        };
        let bonus = self
            .turn
            .actions
            .get(i)
            .copied()
            .flatten()
            .map_or(0, Action::bonus);
        card + bonus
    }

    pub(super) fn cards_points_after_penalty(&self, i: usize) -> u8 {
        let p = self.cards_points(i);
        let pen = self.runner(i).map_or(0, |r| r.penalty);
        p.saturating_sub(u8::try_from(pen).unwrap_or(u8::MAX))
    }

    pub(super) fn moves_first(&self, i: usize) -> bool {
        self.turn.actions.get(i).copied().flatten() == Some(Action::MoveFirst)
    }

    /// Actions already taken this round.
    pub(super) fn taken(&self) -> Vec<Action> {
        self.turn.actions.iter().flatten().copied().collect()
    }

    /// The level a runner deciding its pace now would end on (the 0-strength rule applied).
    pub(super) fn pace_level_now(&self, i: usize, pace: PaceIntent) -> u8 {
        if self.runner(i).is_some_and(|r| r.strength == 0) {
            BASE_PACE
        } else {
            self.level_for(i, pace)
        }
    }
}
