//! Legality: every check of an order against the state, and the sentences that refuse
//! what the rules do not allow now (docs/rules/1500m.md). Reading the text is `parse`'s job.

use thiserror::Error;

use super::order::{Action, Misfit, Order, PaceIntent, RoundOrder};
use super::path::{self, Aim, Intent};
use super::rules::{BASE_PACE, TOP_BID};
use super::state::{FifteenHundred, Step};
use crate::engine::{Game, Seat};

/// An order that is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalOrder {
    #[error("the race is over")]
    RaceOver,
    #[error("there is nothing for you to order right now")]
    NotYourTurn,
    #[error("{0}")]
    WrongStep(String),
    /// Text that answers another question than the one asked now (see [`Misfit`]).
    #[error("{what}; {help}")]
    NotNow {
        what: &'static str,
        help: &'static str,
    },
    #[error("card {card} isn't in your hand; you hold {hand}")]
    CardNotInHand { card: u8, hand: String },
    #[error("bid cards run from 1 to 8, not {0}")]
    BidOutOfRange(u8),
    #[error("you have {strength} mental strength, so you can bid at most {strength}")]
    BidAboveStrength { bid: u8, strength: u16 },
    #[error("you have no mental strength left, so you cannot bid; leave the bid out")]
    CannotBid,
    #[error("every runner with mental strength plays a bid card (1 to 8)")]
    MustBid,
    #[error("pace levels run from 5 to {top}, not {level}")]
    PaceOutOfRange { level: u8, top: u8 },
    #[error("you are at pace {current}: you can go up one level at most, to {most}")]
    PaceTooHigh { current: u8, most: u8 },
    #[error("you are at pace {current}: you can go down {most} levels at most")]
    DownTooFar { current: u8, most: u8 },
    #[error("you are already at the top pace, {0}")]
    TopPace(u8),
    #[error("the track has lanes 1 to {lanes}, not {lane}")]
    NoSuchLane { lane: u8, lanes: u8 },
    #[error(
        "a round order can't name a space, because the runners ahead move first; use farthest, a number of points, or lane<=K"
    )]
    TargetInRoundOrder,
    #[error("you can't reach {0} with your points this move")]
    Unreachable(String),
    #[error("{0} has already been taken this round")]
    ActionTaken(Action),
    #[error("you can move at most 30 points")]
    TooManyPoints,
}

impl FifteenHundred {
    /// [`crate::engine::Game::validate`]: the order against the step and the seat's runner.
    pub(super) fn check_order(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        if self.step == Step::Over {
            return Err(IllegalOrder::RaceOver);
        }
        if !self.pending().includes(seat) {
            return Err(IllegalOrder::NotYourTurn);
        }
        let i = seat.index();
        match (self.step, order) {
            (_, Order::NotAsked { misfit }) => Err(self.not_now(*misfit)),
            (Step::Orders, Order::Round(r)) => self.check_round_order(i, r),
            (Step::Bids, Order::Bid { card, bid }) => {
                self.check_card(i, *card)?;
                self.check_bid(i, *bid)
            }
            (Step::Action, Order::Action { action }) => match action {
                Some(a) if self.taken().contains(a) => Err(IllegalOrder::ActionTaken(*a)),
                _ => Ok(()),
            },
            (Step::Move, Order::Move { intent }) => {
                self.check_intent(intent, false)?;
                self.check_target(
                    i,
                    intent,
                    self.cards_points_after_penalty(i),
                    self.moves_first(i),
                )
            }
            (Step::Pace, Order::Pace { pace, intent }) => {
                self.check_pace(i, *pace)?;
                self.check_intent(intent, false)?;
                let level = self.pace_level_now(i, *pace);
                self.check_target(i, intent, level, false)
            }
            _ => Err(IllegalOrder::WrongStep(format!(
                "that isn't what is asked now: {}",
                self.label()
            ))),
        }
    }

    /// Refuses text that answers another question, with the step's help after it.
    fn not_now(&self, misfit: Misfit) -> IllegalOrder {
        IllegalOrder::NotNow {
            what: misfit.sentence(),
            help: self.hint(),
        }
    }

    pub(super) fn check_card(&self, i: usize, card: u8) -> Result<(), IllegalOrder> {
        let hand = self.runner(i).map_or(&[][..], |r| r.hand.as_slice());
        if hand.contains(&card) {
            Ok(())
        } else {
            Err(IllegalOrder::CardNotInHand {
                card,
                hand: hand
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    pub(super) fn check_bid(&self, i: usize, bid: Option<u8>) -> Result<(), IllegalOrder> {
        let strength = self.runner(i).map(|r| r.strength).unwrap_or(0);
        match bid {
            None if strength == 0 => Ok(()),
            None => Err(IllegalOrder::MustBid),
            Some(_) if strength == 0 => Err(IllegalOrder::CannotBid),
            Some(b) if b == 0 || b > TOP_BID => Err(IllegalOrder::BidOutOfRange(b)),
            Some(b) if u16::from(b) > strength => {
                Err(IllegalOrder::BidAboveStrength { bid: b, strength })
            }
            Some(_) => Ok(()),
        }
    }

    pub(super) fn check_pace(&self, i: usize, pace: PaceIntent) -> Result<(), IllegalOrder> {
        let cur = self.runner(i).map(|r| r.pace).unwrap_or(BASE_PACE);
        let top = self.options.top_pace();
        match pace {
            PaceIntent::Keep | PaceIntent::Afford => Ok(()),
            PaceIntent::Up if cur >= top => Err(IllegalOrder::TopPace(top)),
            PaceIntent::Up => Ok(()),
            PaceIntent::Down(n) if cur.saturating_sub(n) < BASE_PACE => {
                Err(IllegalOrder::DownTooFar {
                    current: cur,
                    most: cur.saturating_sub(BASE_PACE),
                })
            }
            PaceIntent::Down(_) => Ok(()),
            PaceIntent::Level(l) if l < BASE_PACE || l > top => {
                Err(IllegalOrder::PaceOutOfRange { level: l, top })
            }
            PaceIntent::Level(l) if l > cur.saturating_add(1) => Err(IllegalOrder::PaceTooHigh {
                current: cur,
                most: cur.saturating_add(1).min(top),
            }),
            PaceIntent::Level(_) => Ok(()),
        }
    }

    pub(super) fn check_intent(
        &self,
        intent: &Intent,
        round_order: bool,
    ) -> Result<(), IllegalOrder> {
        let lanes = self.course.lanes();
        if let Some(k) = intent.max_lane
            && (k == 0 || k > lanes)
        {
            return Err(IllegalOrder::NoSuchLane { lane: k, lanes });
        }
        match intent.aim {
            Aim::Points(n) if n > 30 => Err(IllegalOrder::TooManyPoints),
            Aim::To { .. } if round_order => Err(IllegalOrder::TargetInRoundOrder),
            Aim::To { lane, .. } if lane == 0 || lane > lanes => {
                Err(IllegalOrder::NoSuchLane { lane, lanes })
            }
            _ => Ok(()),
        }
    }

    /// Checks a named target against what the runner can reach with `points` now.
    pub(super) fn check_target(
        &self,
        i: usize,
        intent: &Intent,
        points: u8,
        pass: bool,
    ) -> Result<(), IllegalOrder> {
        let Aim::To { lane, pos, finish } = intent.aim else {
            return Ok(());
        };
        let Some(r) = self.runner(i) else {
            return Err(IllegalOrder::NotYourTurn);
        };
        let reach = path::reachable(&self.course, r.spot, points, &self.occupied(i), pass);
        if path::find_target(&self.course, &reach, lane, pos, finish).is_some() {
            Ok(())
        } else {
            Err(IllegalOrder::Unreachable(intent_label(lane, pos, finish)))
        }
    }

    pub(super) fn check_round_order(&self, i: usize, r: &RoundOrder) -> Result<(), IllegalOrder> {
        self.check_card(i, r.card)?;
        self.check_bid(i, r.bid)?;
        self.check_pace(i, r.pace)?;
        self.check_intent(&r.run, true)?;
        self.check_intent(&r.then, true)
    }
}

fn intent_label(lane: u8, pos: u16, finish: bool) -> String {
    format!("{lane}:{}{}", if finish { "f" } else { "" }, pos + 1)
}
