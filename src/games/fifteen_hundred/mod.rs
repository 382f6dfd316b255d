//! 1500m: a track race of lanes, pace, mental strength and bids (../shared/rules/1500m.md,
//! with the project's rulings in docs/rules/1500m.md).
//!
//! The state owns the runners (human seats first, then robots), the course and the round in
//! progress. [`board`] owns the geometry, [`path`] movement and the pathfinder, [`order`]
//! the order grammar, `bids` the bids and actions, `pace` the pace and extra-costs phases,
//! and `round` the machine that runs a round's steps and the finish. By default a round is one secret order per runner that carries every
//! decision; the `live` option asks each runner in turn instead.

mod bids;
pub mod board;
pub mod order;
mod pace;
pub mod path;
pub mod replay;
mod round;
pub mod sim;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{
    BotLevel, Choice, Game, GameRng, Narration, OptionDoc, OptionsError, Outcome, Pending, Placing,
    Prompt, Seat, SeatSetup, Seed, SetupError, Submitted,
};
pub use board::Distance;
use board::{Board, Course, Spot};
pub use order::{Action, Order, PaceIntent, Preferences, RoundOrder, SyntaxError};
use path::{Aim, Intent};

/// The movement cards every runner holds (and the robots' shared deck).
pub const MOVEMENT_CARDS: [u8; 4] = [8, 9, 10, 11];
/// Bid cards run from 1 to this.
pub const TOP_BID: u8 = 8;
/// The lowest pace level.
pub const BASE_PACE: u8 = 5;

/// How orders are gathered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PlayMode {
    /// One secret order per runner carries the whole round (play over days).
    #[default]
    Orders,
    /// Each decision is asked when it falls due (groups playing at the same time).
    Live,
}

/// When the race stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Until {
    /// Once three runners (robots included) have finished: gold, silver and bronze.
    #[default]
    Medals,
    /// Once every player has finished (and the medals are awarded).
    All,
}

/// Race options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub distance: Distance,
    /// Robot runners added to the players.
    pub robots: u8,
    /// The advanced rules: wear costs, and the top three paying 3/2/1 on the last lap.
    pub advanced: bool,
    pub play: PlayMode,
    /// Mental strength cost of each pace level from 5 up; its length sets the top level.
    pub pace_costs: Vec<u8>,
    pub until: Until,
    /// Starting mental strength (`None`: 100 for 1500 m, 50 for 800 m).
    pub mental_strength: Option<u16>,
    /// A custom board file (TOML text); `None` is the standard board.
    pub board: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            distance: Distance::M1500,
            robots: 0,
            advanced: false,
            play: PlayMode::Orders,
            pace_costs: vec![0, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            until: Until::Medals,
            mental_strength: None,
            board: None,
        }
    }
}

impl Options {
    pub fn start_strength(&self) -> u16 {
        self.mental_strength.unwrap_or(match self.distance {
            Distance::M1500 => 100,
            Distance::M800 => 50,
        })
    }

    pub fn top_pace(&self) -> u8 {
        BASE_PACE + u8::try_from(self.pace_costs.len().saturating_sub(1)).unwrap_or(0)
    }

    /// The printed cost of a level.
    pub fn pace_cost(&self, level: u8) -> u16 {
        self.pace_costs
            .get(usize::from(level.saturating_sub(BASE_PACE)))
            .copied()
            .map(u16::from)
            .unwrap_or(0)
    }

    /// What moving from `from` to `to` costs: the level's cost, one less when going down.
    pub fn pace_change_cost(&self, from: u8, to: u8) -> u16 {
        let cost = self.pace_cost(to);
        if to < from {
            cost.saturating_sub(1)
        } else {
            cost
        }
    }

    pub fn board(&self) -> Result<Board, OptionsError> {
        match &self.board {
            Some(text) => Board::parse(text).map_err(|e| OptionsError::Invalid(e.to_string())),
            None => Board::standard().map_err(|e| OptionsError::Invalid(e.to_string())),
        }
    }
}

const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "distance",
        help: "1500 (3 3/4 laps, 100 mental strength) or 800 (staggered start, 2 laps, 50)",
    },
    OptionDoc {
        key: "robots",
        help: "robot runners added to the players (0)",
    },
    OptionDoc {
        key: "advanced",
        help: "advanced rules: wear costs and 3/2/1 for the top three on the last lap (no)",
    },
    OptionDoc {
        key: "play",
        help: "orders (one secret order a round) or live (each decision in turn)",
    },
    OptionDoc {
        key: "pace-costs",
        help: "mental strength cost of each pace level from 5 (0,2,3,4,5,6,7,8,9,10)",
    },
    OptionDoc {
        key: "until",
        help: "medals (stop when three have finished) or all (when every player has)",
    },
    OptionDoc {
        key: "mental-strength",
        help: "starting mental strength (none: 100 for 1500, 50 for 800)",
    },
    OptionDoc {
        key: "board",
        help: "a custom board file's TOML text, given in JSON options or a replay script (none: the standard board)",
    },
];

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

/// An order that is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalOrder {
    #[error("the race is over")]
    RaceOver,
    #[error("there is nothing for you to order right now")]
    NotYourTurn,
    #[error("{0}")]
    WrongStep(String),
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

/// One runner as the channel sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunnerView {
    pub runner: usize,
    pub name: String,
    pub robot: bool,
    /// 1 + runners ahead (finished runners ahead of everyone still racing).
    pub position: u32,
    pub lane: u8,
    /// The space's text, e.g. `3:17`.
    pub space: String,
    pub section: String,
    /// Index from 1 within the section.
    pub section_space: u16,
    pub crossings: u8,
    pub progress: i32,
    pub to_go: i32,
    /// `None` for robots.
    pub strength: Option<u16>,
    pub pace: u8,
    pub penalty: u16,
    /// Movement cards left in hand: public, since played cards are shown.
    pub cards_left: Vec<u8>,
    pub place: Option<u8>,
    /// This round so far: bid, action, movement card, points moved in each phase.
    pub bid: Option<u8>,
    pub action: Option<Action>,
    pub card: Option<u8>,
    pub moved: (Option<u8>, Option<u8>),
    /// The space itself, for pictures.
    #[serde(default)]
    pub spot: Option<Spot>,
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

/// What the channel sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub board: String,
    pub distance: Distance,
    pub advanced: bool,
    pub round: u16,
    /// What is awaited, e.g. "Round 3: orders".
    pub step: String,
    pub laps_left: u8,
    /// The bell has rung: the leader is on the last lap.
    pub bell: bool,
    pub length: i32,
    /// Finished runners by place, then the others by position.
    pub runners: Vec<RunnerView>,
    /// Robot movement cards not yet drawn (order hidden).
    pub robot_cards_left: Vec<u8>,
    pub finished: bool,
    /// The board's geometry, for pictures.
    #[serde(default)]
    pub layout: Option<Board>,
    /// The field after each round, for the race chart.
    #[serde(default)]
    pub history: Vec<RoundRecord>,
}

/// What one player's DM shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub hand: Vec<u8>,
    /// Bid cards this runner may play now (none at 0 mental strength).
    pub bid_cards: Vec<u8>,
    pub strength: u16,
    pub pace: u8,
    pub penalty: u16,
    pub position: u32,
    pub space: String,
    pub place: Option<u8>,
    /// The movement card chosen this round and not yet revealed (live play).
    pub chosen_card: Option<u8>,
    pub last_order: Option<String>,
    /// What is asked of this player now, if anything.
    pub asked: Option<String>,
}

/// The whole state of a race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FifteenHundred {
    options: Options,
    // Boxed: the state sits in the registry's enum beside smaller games.
    course: Box<Course>,
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

    fn runner(&self, i: usize) -> Option<&Runner> {
        self.runners.get(i)
    }

    fn name(&self, i: usize) -> &str {
        self.runner(i).map(|r| r.name.as_str()).unwrap_or("?")
    }

    fn is_player(&self, i: usize) -> bool {
        i < self.seats
    }

    fn seat_of(&self, i: usize) -> Option<Seat> {
        if self.is_player(i) {
            Seat::from_index(i)
        } else {
            None
        }
    }

    fn racing(&self, i: usize) -> bool {
        self.runner(i).is_some_and(|r| r.place.is_none())
    }

    /// Runners still racing, best placed first.
    pub fn standings(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.runners.len())
            .filter(|&i| self.racing(i))
            .collect();
        v.sort_by_key(|&i| std::cmp::Reverse(self.runner(i).map(|r| self.course.key(r.spot))));
        v
    }

    /// Everyone in order: finished by place, then the rest by position.
    pub fn full_order(&self) -> Vec<usize> {
        let mut v = self.finish_order.clone();
        v.extend(self.standings());
        v
    }

    /// Spaces held by runners on the track, except `except`.
    fn occupied(&self, except: usize) -> Vec<Spot> {
        self.runners
            .iter()
            .enumerate()
            .filter(|(i, r)| *i != except && r.place.is_none())
            .map(|(_, r)| r.spot)
            .collect()
    }

    fn racing_players(&self) -> Vec<usize> {
        (0..self.seats).filter(|&i| self.racing(i)).collect()
    }

    /// The seat deciding now in live play, if any.
    fn decider(&self) -> Option<usize> {
        match self.step {
            Step::Action => self.turn.choosers.get(self.turn.next).copied(),
            Step::Move | Step::Pace => self.turn.order.get(self.turn.next).copied(),
            _ => None,
        }
    }

    fn default_round_order(&self, i: usize) -> RoundOrder {
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
    fn level_for(&self, i: usize, pace: PaceIntent) -> u8 {
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

    fn check_card(&self, i: usize, card: u8) -> Result<(), IllegalOrder> {
        let hand = self.runner(i).map(|r| r.hand.clone()).unwrap_or_default();
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

    fn check_bid(&self, i: usize, bid: Option<u8>) -> Result<(), IllegalOrder> {
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

    fn check_pace(&self, i: usize, pace: PaceIntent) -> Result<(), IllegalOrder> {
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

    fn check_intent(&self, intent: &Intent, round_order: bool) -> Result<(), IllegalOrder> {
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
    fn check_target(
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

    fn check_round_order(&self, i: usize, r: &RoundOrder) -> Result<(), IllegalOrder> {
        self.check_card(i, r.card)?;
        self.check_bid(i, r.bid)?;
        self.check_pace(i, r.pace)?;
        self.check_intent(&r.run, true)?;
        self.check_intent(&r.then, true)
    }

    /// Points a runner has for its cards-phase move, before its penalty.
    fn cards_points(&self, i: usize) -> u8 {
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

    fn cards_points_after_penalty(&self, i: usize) -> u8 {
        let p = self.cards_points(i);
        let pen = self.runner(i).map_or(0, |r| r.penalty);
        p.saturating_sub(u8::try_from(pen).unwrap_or(u8::MAX))
    }

    fn moves_first(&self, i: usize) -> bool {
        self.turn.actions.get(i).copied().flatten() == Some(Action::MoveFirst)
    }

    fn label(&self) -> String {
        match self.step {
            Step::Orders => format!("Round {}: orders", self.round),
            Step::Bids => format!("Round {}: movement cards and bids", self.round),
            Step::Action => format!(
                "Round {}: {}'s action",
                self.round,
                self.decider().map_or("?", |i| self.name(i))
            ),
            Step::Move => format!(
                "Round {}: {}'s move",
                self.round,
                self.decider().map_or("?", |i| self.name(i))
            ),
            Step::Pace => format!(
                "Round {}: {}'s pace",
                self.round,
                self.decider().map_or("?", |i| self.name(i))
            ),
            Step::Over => "Race over".into(),
        }
    }

    fn hint(&self) -> &'static str {
        match self.step {
            Step::Orders => {
                "Order the whole round in one message, parts in any order, each optional: \
                card 8-11 (from your hand); bid 1-8 (at most your mental strength); \
                actions in order of preference from safe3, safe4, move2, move3, first, pace1, pace2 \
                (end with none to refuse the leftovers); pace keep, afford, +1, -N or a level; \
                move farthest, a number of points or none, optionally with lane<=K (both phases); \
                then ... (the pace-phase move, if different). \
                Example: card 10 bid 3 actions first,move3,safe4 pace +1 move farthest"
            }
            Step::Bids => {
                "Send your movement card and bid card, e.g. `card 10 bid 3` \
                (at 0 mental strength: just `card 10`)."
            }
            Step::Action => "Send the action you take, e.g. `action move3`, or `action none`.",
            Step::Move => {
                "Send `move farthest`, `move N` (at most N points), `move to 3:17`, \
                optionally with lane<=K."
            }
            Step::Pace => {
                "Send your pace and move, e.g. `pace +1 move farthest`; pace is keep, \
                afford, +1, -N or a level."
            }
            Step::Over => "The race is over.",
        }
    }
}

fn intent_label(lane: u8, pos: u16, finish: bool) -> String {
    format!("{lane}:{}{}", if finish { "f" } else { "" }, pos + 1)
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
        OPTION_DOCS
    }

    fn check_options(o: &Options) -> Result<(), OptionsError> {
        let board = o.board()?;
        if usize::from(o.robots) >= usize::from(board.lanes) {
            return Err(OptionsError::Invalid(format!(
                "at most {} robots fit on a board of {} lanes, with one player",
                board.lanes - 1,
                board.lanes
            )));
        }
        if o.pace_costs.is_empty() || o.pace_costs.len() > 20 {
            return Err(OptionsError::Invalid(
                "pace-costs lists 1 to 20 costs, from level 5 up".into(),
            ));
        }
        if o.pace_costs.first() != Some(&0) {
            return Err(OptionsError::Invalid(
                "pace-costs starts with level 5's cost, which is 0".into(),
            ));
        }
        if let Some(m) = o.mental_strength
            && (m == 0 || m > 1000)
        {
            return Err(OptionsError::Invalid(
                "mental-strength must be from 1 to 1000".into(),
            ));
        }
        Ok(())
    }

    fn seat_limits(o: &Options) -> (usize, usize) {
        let lanes = o.board().map(|b| usize::from(b.lanes)).unwrap_or(8);
        let robots = usize::from(o.robots);
        let min = if robots > 0 { 1 } else { 2 };
        (min, lanes.saturating_sub(robots).max(min))
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        let board = options.board()?;
        let course = Course::new(board, options.distance);
        let mut rng = GameRng::from_seed(seed);
        let total = seats.len() + usize::from(options.robots);
        if total > usize::from(course.lanes()) {
            return Err(SetupError::SeatCount {
                min: 1,
                max: usize::from(course.lanes()).saturating_sub(usize::from(options.robots)),
                got: seats.len(),
            });
        }
        // One runner per lane, lanes drawn at random.
        let mut starts = course.start_spots();
        rng.shuffle(&mut starts);
        let strength = options.start_strength();
        let mut runners = Vec::new();
        for (i, spot) in starts.into_iter().take(total).enumerate() {
            let robot = i >= seats.len();
            runners.push(Runner {
                name: seats
                    .get(i)
                    .map(|s| s.name.clone())
                    .unwrap_or_else(|| format!("Robot {}", i + 1 - seats.len())),
                robot,
                spot,
                strength: if robot { 0 } else { strength },
                pace: BASE_PACE,
                penalty: 0,
                hand: if robot {
                    Vec::new()
                } else {
                    MOVEMENT_CARDS.to_vec()
                },
                place: None,
                last_order: None,
            });
        }
        let mut robot_deck = MOVEMENT_CARDS.to_vec();
        rng.shuffle(&mut robot_deck);
        let mut game = FifteenHundred {
            laps_left: course.start().laps,
            options: options.clone(),
            course: Box::new(course),
            runners,
            seats: seats.len(),
            round: 0,
            step: Step::Orders,
            turn: Box::default(),
            robot_deck,
            finish_order: Vec::new(),
            history: Vec::new(),
            rng,
        };
        let mut events = Vec::new();
        game.begin_round(&mut events);
        Ok(game)
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
        let i = seat.index();
        let name = self.name(i).to_string();
        let mut choices = Vec::new();
        let mut complete = false;
        let r = self.runner(i);
        let strength = r.map_or(0, |r| r.strength);
        let pace = r.map_or(BASE_PACE, |r| r.pace);
        let hand = r.map(|r| r.hand.clone()).unwrap_or_default();
        let text = match self.step {
            Step::Orders => {
                for &card in &hand {
                    for (bid, p) in [(1u8, PaceIntent::Afford), (3, PaceIntent::Up)] {
                        let mut o = self.default_round_order(i);
                        o.card = card;
                        if o.bid.is_some() {
                            o.bid = Some(bid.min(u8::try_from(strength).unwrap_or(TOP_BID)));
                        }
                        o.pace = p;
                        if self.check_round_order(i, &o).is_err() {
                            continue;
                        }
                        let label = format!(
                            "Card {card}{}, {}",
                            o.bid.map_or(String::new(), |b| format!(", bid {b}")),
                            if p == PaceIntent::Up {
                                "pace +1"
                            } else {
                                "keep pace"
                            }
                        );
                        choices.push(Choice::new(
                            self.format_order(seat, &Order::Round(o)),
                            label,
                        ));
                    }
                }
                format!(
                    "Round {}: {name}'s order ({strength} mental strength, pace {pace}, cards {}).",
                    self.round,
                    join(&hand)
                )
            }
            Step::Bids => {
                let bids: Vec<Option<u8>> = if strength == 0 {
                    vec![None]
                } else {
                    (1..=TOP_BID.min(u8::try_from(strength).unwrap_or(TOP_BID)))
                        .map(Some)
                        .collect()
                };
                for &card in &hand {
                    for &bid in &bids {
                        let o = Order::Bid { card, bid };
                        let label = match bid {
                            Some(b) => format!("Card {card}, bid {b}"),
                            None => format!("Card {card}"),
                        };
                        choices.push(
                            Choice::new(self.format_order(seat, &o), label)
                                .grouped(format!("card {card}")),
                        );
                    }
                }
                complete = true;
                format!(
                    "Round {}: {name}, choose a movement card and a bid card ({strength} mental strength).",
                    self.round
                )
            }
            Step::Action => {
                let taken = self.taken();
                for a in Action::ALL {
                    if !taken.contains(&a) {
                        choices.push(Choice::new(
                            self.format_order(seat, &Order::Action { action: Some(a) }),
                            a.title(),
                        ));
                    }
                }
                choices.push(Choice::new(
                    self.format_order(seat, &Order::Action { action: None }),
                    "No action",
                ));
                complete = true;
                format!("Round {}: {name}, choose your action.", self.round)
            }
            Step::Move => {
                let points = self.cards_points_after_penalty(i);
                let spot = r.map(|r| r.spot);
                if let Some(spot) = spot {
                    let reach = path::reachable(
                        &self.course,
                        spot,
                        points,
                        &self.occupied(i),
                        self.moves_first(i),
                    );
                    let ranked = path::ranked(&self.course, reach, None);
                    complete = ranked.len() <= 12;
                    for rc in ranked.iter().take(12) {
                        let intent = Intent {
                            aim: Aim::To {
                                lane: rc.spot.lane,
                                pos: rc.spot.pos,
                                finish: self.course.on_finish_straight(rc.spot),
                            },
                            max_lane: None,
                        };
                        choices.push(Choice::new(
                            self.format_order(seat, &Order::Move { intent }),
                            format!("{} (cost {})", self.course.describe(rc.spot), rc.cost),
                        ));
                    }
                }
                format!("Round {}: {name}, move with {points} points.", self.round)
            }
            Step::Pace => {
                let top = self.options.top_pace();
                for level in BASE_PACE..=pace.saturating_add(1).min(top) {
                    let o = Order::Pace {
                        pace: PaceIntent::Level(level),
                        intent: Intent::farthest(),
                    };
                    choices.push(Choice::new(
                        self.format_order(seat, &o),
                        format!(
                            "Pace {level} (costs {})",
                            self.options.pace_change_cost(pace, level)
                        ),
                    ));
                }
                format!(
                    "Round {}: {name}, choose your pace (now {pace}, {strength} mental strength) and move.",
                    self.round
                )
            }
            Step::Over => "The race is over.".into(),
        };
        Prompt {
            text,
            choices,
            complete,
            hint: self.hint().to_string(),
        }
    }

    fn parse_order(&self, seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        let i = seat.index();
        let hint = self.hint();
        let c = order::read_clauses(text, hint)?;
        let not_now = |what: &str| SyntaxError::NotNow(format!("{what}; {hint}"));
        match self.step {
            Step::Over => Err(not_now("the race is over")),
            Step::Orders => {
                if let Some(w) = c.bare.first() {
                    return Err(SyntaxError::UnknownWord(w.clone(), hint.to_string()));
                }
                let d = self.default_round_order(i);
                let run = c.run.unwrap_or(d.run);
                Ok(Order::Round(RoundOrder {
                    card: c.card.unwrap_or(d.card),
                    bid: c.bid.unwrap_or(d.bid),
                    actions: c.actions.unwrap_or(d.actions),
                    pace: c.pace.unwrap_or(d.pace),
                    then: c.then.unwrap_or_else(|| run.clone()),
                    run,
                }))
            }
            Step::Bids => {
                if let Some(w) = c.bare.first() {
                    return Err(SyntaxError::UnknownWord(w.clone(), hint.to_string()));
                }
                if c.actions.is_some() || c.pace.is_some() || c.run.is_some() || c.then.is_some() {
                    return Err(not_now(
                        "in live play only the movement card and bid are sent now; actions, pace and moves are asked when your turn comes",
                    ));
                }
                let d = self.default_round_order(i);
                Ok(Order::Bid {
                    card: c.card.unwrap_or(d.card),
                    bid: c.bid.unwrap_or(d.bid),
                })
            }
            Step::Action => {
                if c.card.is_some()
                    || c.bid.is_some()
                    || c.pace.is_some()
                    || c.run.is_some()
                    || c.then.is_some()
                {
                    return Err(not_now("now you choose an action"));
                }
                let prefs = match c.actions {
                    Some(p) => p,
                    None => {
                        let words: Vec<String> = c.bare.clone();
                        order::read_clauses(&format!("actions {}", words.join(",")), hint)?
                            .actions
                            .unwrap_or_default()
                    }
                };
                match (prefs.ranked.as_slice(), prefs.decline) {
                    ([a], false) => Ok(Order::Action { action: Some(*a) }),
                    ([], true) => Ok(Order::Action { action: None }),
                    _ => Err(not_now("choose one action (or none)")),
                }
            }
            Step::Move => {
                if c.card.is_some()
                    || c.bid.is_some()
                    || c.actions.is_some()
                    || c.pace.is_some()
                    || c.then.is_some()
                {
                    return Err(not_now("now you move"));
                }
                let intent = match c.run {
                    Some(i) => i,
                    None => order::read_intent(&c.bare)?,
                };
                Ok(Order::Move { intent })
            }
            Step::Pace => {
                if c.card.is_some() || c.bid.is_some() || c.actions.is_some() || c.then.is_some() {
                    return Err(not_now("now you choose your pace and move"));
                }
                let (pace, intent) = match (c.pace, c.bare.split_first()) {
                    (Some(p), None) => (p, c.run.unwrap_or_else(Intent::farthest)),
                    (None, Some((p, rest))) if c.run.is_none() => {
                        (order::read_pace(p)?, order::read_intent(rest)?)
                    }
                    (None, None) => (PaceIntent::Afford, c.run.unwrap_or_else(Intent::farthest)),
                    _ => return Err(not_now("send your pace, then your move")),
                };
                Ok(Order::Pace { pace, intent })
            }
        }
    }

    fn validate(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        if self.step == Step::Over {
            return Err(IllegalOrder::RaceOver);
        }
        if !self.pending().includes(seat) {
            return Err(IllegalOrder::NotYourTurn);
        }
        let i = seat.index();
        match (self.step, order) {
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

    fn bot_order(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Order {
        match level {
            BotLevel::Random => self.random_order(seat, rng),
            BotLevel::Heuristic => sim::heuristic_order(self, seat),
        }
    }

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        round::apply(self, orders)
    }

    fn narrate(&self, event: &Event) -> Narration {
        round::narrate(self, event)
    }

    fn public_view(&self) -> PublicView {
        let order = self.full_order();
        let runners = order
            .iter()
            .enumerate()
            .filter_map(|(n, &i)| self.runner_view(i, n as u32 + 1))
            .collect();
        let mut robot_cards_left = self.robot_deck.clone();
        robot_cards_left.sort_unstable();
        PublicView {
            board: self.course.board.name.clone(),
            distance: self.options.distance,
            advanced: self.options.advanced,
            round: self.round,
            step: self.label(),
            laps_left: self.laps_left,
            bell: self.laps_left == 0,
            length: self.course.length(),
            runners,
            robot_cards_left,
            finished: self.step == Step::Over,
            layout: Some(self.course.board.clone()),
            history: self.history.clone(),
        }
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        let i = seat.index();
        let r = self.runner(i);
        let strength = r.map_or(0, |r| r.strength);
        let position = self
            .full_order()
            .iter()
            .position(|&x| x == i)
            .map_or(0, |p| p as u32 + 1);
        PrivateView {
            seat,
            name: self.name(i).to_string(),
            hand: r.map(|r| r.hand.clone()).unwrap_or_default(),
            bid_cards: (1..=TOP_BID)
                .filter(|&b| u16::from(b) <= strength)
                .collect(),
            strength,
            pace: r.map_or(BASE_PACE, |r| r.pace),
            penalty: r.map_or(0, |r| r.penalty),
            position,
            space: r.map(|r| self.course.describe(r.spot)).unwrap_or_default(),
            place: r.and_then(|r| r.place),
            chosen_card: if self.turn.cards_revealed {
                None
            } else {
                self.turn.cards.get(i).copied().flatten()
            },
            last_order: r.and_then(|r| r.last_order.clone()),
            asked: self.pending().includes(seat).then(|| self.label()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.step != Step::Over {
            return None;
        }
        let placings = self
            .full_order()
            .into_iter()
            .filter_map(|i| self.seat_of(i))
            .enumerate()
            .map(|(n, seat)| Placing {
                seat,
                rank: n as u32 + 1,
                score: None,
            })
            .collect();
        Some(Outcome { placings })
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        rng.shuffle(&mut g.robot_deck);
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
        }
        g.rng = GameRng::from_seed(Seed(bytes));
        let mine = viewer.map(Seat::index);
        for i in 0..g.runners.len() {
            if Some(i) == mine {
                continue;
            }
            if let Some(r) = g.runners.get_mut(i) {
                r.last_order = None;
            }
            if !g.turn.cards_revealed {
                let hand = g.runners.get(i).map(|r| r.hand.clone()).unwrap_or_default();
                if let Some(slot) = g.turn.cards.get_mut(i)
                    && slot.is_some()
                {
                    *slot = rng.choose(&hand).copied();
                }
            }
        }
        g
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

impl FifteenHundred {
    fn runner_view(&self, i: usize, position: u32) -> Option<RunnerView> {
        let r = self.runner(i)?;
        let p = self.course.place(r.spot);
        let progress = self.course.progress(r.spot);
        Some(RunnerView {
            runner: i,
            name: r.name.clone(),
            robot: r.robot,
            position,
            lane: r.spot.lane,
            space: self.course.label(r.spot),
            section: self.course.section_name(p.section).to_string(),
            section_space: p.index + 1,
            crossings: r.spot.lap,
            progress,
            to_go: (self.course.length() - progress).max(0),
            strength: (!r.robot).then_some(r.strength),
            pace: r.pace,
            penalty: r.penalty,
            cards_left: r.hand.clone(),
            place: r.place,
            bid: self.turn.bids.get(i).copied().flatten(),
            action: self.turn.actions.get(i).copied().flatten(),
            card: if self.turn.cards_revealed {
                if r.robot {
                    self.turn.robot_card
                } else {
                    self.turn.cards.get(i).copied().flatten()
                }
            } else {
                None
            },
            moved: self.turn.moved.get(i).copied().unwrap_or((None, None)),
            spot: Some(r.spot),
        })
    }

    /// Index of the runner called `name` (players and robots).
    pub fn runner_named(&self, name: &str) -> Option<usize> {
        self.runners.iter().position(|r| r.name == name)
    }

    /// Places a runner before a round (replays and tests): the space must exist and be free.
    pub fn place_runner(&mut self, i: usize, spot: Spot) -> Result<(), String> {
        if !self.course.is_valid(spot) || self.course.on_finish_straight(spot) {
            return Err(format!("there is no such space on the track: {spot:?}"));
        }
        if self.occupied(i).contains(&spot) {
            return Err(format!("{} is taken", self.course.describe(spot)));
        }
        let Some(r) = self.runners.get_mut(i) else {
            return Err("there is no such runner".into());
        };
        r.spot = spot;
        let start = self.course.start().laps;
        let most = self.runners.iter().map(|r| r.spot.lap).max().unwrap_or(0);
        self.laps_left = start - most.min(start);
        Ok(())
    }

    /// Sets a player's mental strength, pace, penalty or hand before a round (replays and
    /// tests); `None` leaves a value as it is.
    pub fn set_runner(
        &mut self,
        i: usize,
        strength: Option<u16>,
        pace: Option<u8>,
        penalty: Option<u16>,
        hand: Option<Vec<u8>>,
    ) -> Result<(), String> {
        let top = self.options.top_pace();
        let robot = !self.is_player(i);
        let Some(r) = self.runners.get_mut(i) else {
            return Err("there is no such runner".into());
        };
        if let Some(p) = pace {
            if !(BASE_PACE..=top).contains(&p) {
                return Err(format!("pace runs from 5 to {top}"));
            }
            r.pace = p;
        }
        if robot && (strength.is_some() || penalty.is_some() || hand.is_some()) {
            return Err("robots have no mental strength, penalty or hand".into());
        }
        if let Some(s) = strength {
            r.strength = s;
        }
        if let Some(p) = penalty {
            r.penalty = p;
        }
        if let Some(h) = hand {
            let mut rest = MOVEMENT_CARDS.to_vec();
            for c in &h {
                match rest.iter().position(|x| x == c) {
                    Some(pos) => {
                        rest.remove(pos);
                    }
                    None => {
                        return Err(format!(
                            "a hand holds each of 8, 9, 10 and 11 at most once, not {c}"
                        ));
                    }
                }
            }
            if h.is_empty() {
                return Err("a hand holds at least one card".into());
            }
            r.hand = h;
        }
        Ok(())
    }

    /// Sets the robots' movement deck, top card first (replays and tests).
    pub fn set_robot_deck(&mut self, top_first: &[u8]) {
        self.robot_deck = top_first.iter().rev().copied().collect();
    }

    /// Actions already taken this round.
    fn taken(&self) -> Vec<Action> {
        self.turn.actions.iter().flatten().copied().collect()
    }

    /// The level a runner deciding its pace now would end on (the 0-strength rule applied).
    fn pace_level_now(&self, i: usize, pace: PaceIntent) -> u8 {
        if self.runner(i).is_some_and(|r| r.strength == 0) {
            BASE_PACE
        } else {
            self.level_for(i, pace)
        }
    }
}

fn join(cards: &[u8]) -> String {
    cards
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
