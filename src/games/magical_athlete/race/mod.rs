//! One race: the racers on the track, the turn order, and the resolution of every move,
//! warp, trip and power, in the rulebook's order.
//!
//! # How a turn resolves
//! The turn itself is straight-line code (turn start, before the main move, the roll and
//! its decisions, the main move, the end of the turn). Everything a move or a power sets off
//! goes on a stack of [`Task`]s and is resolved depth first: the triggers of one action are
//! sorted (racetrack spaces, then the current player's racers, then the other players' in
//! turn order) and each one's consequences resolve before the next one starts.
//!
//! # How a turn waits for a decision
//! Every question goes through a [`Decider`]. When it cannot answer now (a live prompt),
//! the turn stops with [`Halt::Ask`]. The caller keeps the state from the start of the slot
//! and the answers given so far; when the answer comes it runs the slot again from that
//! start. The dice come from the state's RNG, so the re-run reaches the same question with
//! the same dice, reads the recorded answers, and goes on past it.
//!
//! # Loops
//! Before a task resolves, the racers' places and trips together with the task are hashed;
//! a task seen in the same state before, in the same turn, is dropped. A loop such as
//! Scoocher and Huge Baby therefore completes once and ends, while chains that change the
//! board (Scoocher with Suckerfish) go on. A turn also stops resolving after
//! [`TASK_BUDGET`] tasks.
//!
//! # Where each part lives
//! This file holds the state and the board's read-outs and calls no submodule. Each
//! submodule adds one concern to [`Race`] and calls only those after it on this line:
//! `turn` (slots, turns, the main move) → `powers` (resolving the stack, before-race
//! powers) → `movement` (moves, warps, Huge Baby, the finish) → `copycat` → `ask` (dice,
//! questions, policies) → `narrate`; `queue` (what sets off what) is used by the first three.

mod ask;
mod copycat;
mod movement;
mod narrate;
mod powers;
mod queue;
mod turn;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::decide::{Given, How, Question};
use super::racers::Kind;
pub use super::racers::Rid;
use super::track::Track;
use crate::engine::{GameRng, Seat};

/// The turn prompt's question in words (the log says "X chooses: ..." for it).
pub const TURN_QUESTION: &str = "roll, or use its power";

/// At most this many tasks resolve in one turn; the rest are dropped.
pub const TASK_BUDGET: u32 = 4_000;
/// A race that reaches this many racer turns ends, placed by position.
pub const TURN_CAP: u32 = 2000;

/// Where a racer is in the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "is", content = "n")]
pub enum Status {
    Racing,
    /// Crossed the finish line in this place (1 or 2).
    Finished(u8),
    /// Eliminated (M.O.U.T.H.), the n-th to go.
    Eliminated(u8),
}

/// One racer in a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Racer {
    pub kind: Kind,
    pub seat: Seat,
    /// 0 (Start) to 29 on the track; 30 or more once finished.
    pub pos: u8,
    pub tripped: bool,
    pub status: Status,
    /// Egg's or Twin's chosen power.
    #[serde(default)]
    pub picked: Option<Kind>,
    /// The racer Copycat is copying.
    #[serde(default)]
    pub copying: Option<Rid>,
    #[serde(default)]
    pub turns: u16,
    /// Mastermind's prediction.
    #[serde(default)]
    pub prediction: Option<Rid>,
}

impl Racer {
    pub fn new(kind: Kind, seat: Seat) -> Racer {
        Racer {
            kind,
            seat,
            pos: 0,
            tripped: false,
            status: Status::Racing,
            picked: None,
            copying: None,
            turns: 0,
            prediction: None,
        }
    }

    pub fn racing(&self) -> bool {
        self.status == Status::Racing
    }
}

/// A racer named in an event: the card and its owner (both unique in a race).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Who {
    pub kind: Kind,
    pub seat: Seat,
}

/// Why a racer moved or warped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "by")]
pub enum Why {
    MainMove,
    Arrow,
    /// A racer's power (`power` is the power used, which differs from the card for Copycat,
    /// Egg and Twin).
    Power {
        racer: Who,
        power: Kind,
    },
    /// Put behind Huge Baby (not a move).
    Baby {
        racer: Who,
    },
}

/// Why a racer tripped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "by")]
pub enum TripWhy {
    Rock,
    Power { racer: Who, power: Kind },
}

/// What a race reports, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "type")]
pub enum RaceEvent {
    TurnStarted {
        racer: Who,
        space: u8,
        /// Set for a turn out of the usual order (Genius's extra turn, the Skipper's).
        extra: Option<Kind>,
    },
    Recovered {
        racer: Who,
    },
    Rolled {
        racer: Who,
        value: u8,
        /// The power that let the racer reroll (Magician, Dicemonger).
        reroll: Option<Kind>,
    },
    Decided {
        racer: Who,
        question: String,
        answer: String,
        how: How,
    },
    /// A power took effect ("happened"), with what it did in words.
    Power {
        racer: Who,
        power: Kind,
        detail: String,
    },
    Moved {
        racer: Who,
        from: u8,
        to: u8,
        why: Why,
    },
    Warped {
        racer: Who,
        from: u8,
        to: u8,
        why: Why,
    },
    Tripped {
        racer: Who,
        why: TripWhy,
    },
    Chips {
        racer: Who,
        points: i32,
        reason: String,
    },
    DuelRolls {
        duelist: Who,
        duelist_roll: u8,
        other: Who,
        other_roll: u8,
    },
    Finished {
        racer: Who,
        place: u8,
    },
    Eliminated {
        racer: Who,
        by: Who,
    },
    /// Egg drew these (told to its owner only).
    EggDrew {
        racer: Who,
        cards: Vec<Kind>,
    },
    LoopEnded {
        task: String,
    },
    RaceOver {
        /// Racers in 1st and 2nd (one, or none, after eliminations).
        placings: Vec<Who>,
        capped: bool,
    },
}

/// Why resolution stopped before the end of a slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A live question: run the slot again once it is answered.
    Ask(Question),
    /// Scripted dice ran out (replays and tests).
    OutOfDice,
    /// The race is over.
    Over,
}

type R<T> = Result<T, Halt>;

/// Answers the race's questions.
pub trait Decider {
    /// An answer now, or `None` to wait for a live answer.
    fn decide(&mut self, race: &Race, q: &Question) -> Option<Given>;

    /// Whether a quiet race may roll without asking when rolling is the only choice (the
    /// answer would be "roll", and nothing records or tells it).
    fn rolls_unasked(&self) -> bool {
        false
    }
}

/// A stretch of play run as one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "slot")]
pub enum Slot {
    /// "Before my race" powers (Sisyphus, Egg, Twin).
    BeforeRace,
    /// A player's turn (both racers in the double-racer variants).
    Player { seat: Seat },
    /// One racer's turn out of order (Genius, the Skipper).
    Extra { racer: Rid, power: Kind },
}

/// Work waiting on the resolution stack.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Task {
    Move {
        racer: Rid,
        by: i8,
        why: Why,
    },
    Trip {
        racer: Rid,
        why: TripWhy,
    },
    Star {
        racer: Rid,
    },
    /// What a racetrack space does (arrow, rock, star) to a racer that stopped on it, if
    /// it still stands there when the task resolves.
    Space {
        racer: Rid,
        space: u8,
    },
    Eliminate {
        racer: Rid,
        by: Rid,
    },
    Duel {
        duelist: Rid,
        with: Rid,
    },
    /// A power with a source that must still be held when it resolves.
    Scooch {
        racer: Rid,
    },
}

/// The race state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    /// 1 to 4.
    pub number: u8,
    pub track: Track,
    pub players: usize,
    pub racers: Vec<Racer>,
    /// Racers in finishing order (Mastermind may appear twice).
    pub placings: Vec<Rid>,
    pub eliminated: Vec<Rid>,
    /// Bronze points per seat (the game's totals, carried through the race).
    pub bronze: Vec<i32>,
    /// The undrawn racer deck (Egg draws from the front). Hidden.
    pub deck: Vec<Kind>,
    /// Cards Egg drew and did not take: only their owner knows them.
    pub set_aside: Vec<(Seat, Kind)>,
    /// Racers that won earlier races (Twin).
    pub winners: Vec<Kind>,
    /// Two-player variant: each player's first turn moves one racer.
    pub two_player: bool,
    pub first_turn_done: Vec<bool>,
    pub rng: GameRng,
    /// Scripted dice (replays and tests); when set, no die comes from the RNG.
    pub dice: Option<VecDeque<u8>>,
    pub slot: Slot,
    /// The seat after which the regular turn order continues.
    pub base_seat: Seat,
    pub extras: VecDeque<Slot>,
    pub over: bool,
    pub capped: bool,
    pub turns_played: u32,
    /// The swaps and warps racers chose in place of (or before) their main move this race:
    /// the racer, and the racers it put on which spaces, hashed. A choice that would do the
    /// same again is not offered, so a loop of swaps or warps completes once and ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warp_boards: Vec<u64>,
    /// The racer whose turn it is.
    pub mover: Option<Rid>,
    /// Tell nothing: no events are kept (simulation and benchmarks).
    #[serde(default)]
    pub quiet: bool,
    /// Loops across turns with no die rolled (everyone tripped on Baba Yaga's space while
    /// a Heckler is thrown back by an arrow): the board and mover at each turn start, and
    /// the powers resolved, since the last roll. A turn that starts as an earlier one did
    /// has completed the loop once; from then until a die is rolled, a power that meets
    /// its own board again is dropped, as within a turn. Cleared by every roll.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    turn_starts: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    since_roll: Vec<u64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    looping: bool,
    // Scratch for the turn in progress.
    stack: Vec<Task>,
    seen: Vec<u64>,
    budget: u32,
    /// Events since the caller last took them.
    pub events: Vec<RaceEvent>,
    /// The turn's working lists (not state: never saved, cloned empty, always equal).
    #[serde(skip)]
    scratch: Scratch,
}

/// Set in [`Scratch::powers`] once the mask is known.
const POWERS_KNOWN: u64 = 1 << 63;

/// A mask of powers, as in [`Scratch::powers`].
const fn bits(ks: &[Kind]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < ks.len() {
        m |= 1u64 << (ks[i] as u64);
        i += 1;
    }
    m
}

/// Working state of the turn in progress that is not the race's state: a clone starts
/// empty and any two are equal, so the race's serde and equality are those of the state
/// alone.
#[derive(Default)]
struct Scratch {
    /// Triggers being collected. A collector works on the segment above the length it found
    /// and pushes it on the stack sorted; a nested collector works above that.
    tasks: Vec<((usize, Rid), Task)>,
    /// A bit per [`Kind`] some racer may hold as a power now (printed, picked, or copied),
    /// with [`POWERS_KNOWN`]; 0 when not known (then every power is looked up). A race has
    /// a handful of the 30-odd powers, and every move asks after most of the others, so a
    /// power nobody holds costs one bit test.
    powers: u64,
}

/// The lists one batch of moves or warps builds.
#[derive(Default)]
struct MoveLists {
    moved: Vec<(Rid, u8, u8)>,
    skip_owners: Vec<Rid>,
    stops: Vec<Stop>,
    passes: Vec<(Rid, Rid)>,
    arrivals: Vec<Rid>,
    riders: Vec<(Rid, u8, u8)>,
    froms: Vec<u8>,
    warps: Vec<(Rid, u8)>,
}

impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Scratch) -> bool {
        true
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

/// One racer's arrival on a space (a stop), for triggers.
#[derive(Clone, Copy, Debug)]
struct Stop {
    racer: Rid,
}

impl Race {
    /// A race with these racers (turn order) on Start, the first player's turn next.
    pub fn new(
        number: u8,
        track: Track,
        players: usize,
        racers: Vec<Racer>,
        first: Seat,
        rng: GameRng,
    ) -> Race {
        let prev =
            Seat::from_index((first.index() + players - 1) % players.max(1)).unwrap_or(first);
        Race {
            number,
            track,
            players,
            racers,
            placings: Vec::new(),
            eliminated: Vec::new(),
            bronze: vec![0; players],
            deck: Vec::new(),
            set_aside: Vec::new(),
            winners: Vec::new(),
            two_player: false,
            first_turn_done: vec![false; players],
            rng,
            dice: None,
            slot: Slot::BeforeRace,
            base_seat: prev,
            extras: VecDeque::new(),
            over: false,
            capped: false,
            turns_played: 0,
            warp_boards: Vec::new(),
            mover: None,
            quiet: false,
            stack: Vec::new(),
            seen: Vec::new(),
            turn_starts: Vec::new(),
            since_roll: Vec::new(),
            looping: false,
            budget: TASK_BUDGET,
            events: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    pub fn who(&self, r: Rid) -> Who {
        self.racers
            .get(r)
            .map(|x| Who {
                kind: x.kind,
                seat: x.seat,
            })
            .unwrap_or(Who {
                kind: Kind::Legs,
                seat: Seat(0),
            })
    }

    pub fn racing(&self, r: Rid) -> bool {
        self.racers.get(r).is_some_and(Racer::racing)
    }

    fn pos(&self, r: Rid) -> u8 {
        self.racers.get(r).map(|x| x.pos).unwrap_or(0)
    }

    fn seat_of(&self, r: Rid) -> Seat {
        self.racers.get(r).map(|x| x.seat).unwrap_or(Seat(0))
    }

    /// The racer with this card, if it is in the race.
    pub fn find(&self, kind: Kind) -> Option<Rid> {
        self.racers.iter().position(|x| x.kind == kind)
    }

    /// The printed power, or the one Egg or Twin took.
    pub fn base_power(&self, r: Rid) -> Option<Kind> {
        let x = self.racers.get(r)?;
        match x.kind {
            Kind::Egg | Kind::Twin => x.picked,
            k => Some(k),
        }
    }

    /// The power a racer has now: none once it has left the race; Copycat's is the copied one.
    pub fn power(&self, r: Rid) -> Option<Kind> {
        if !self.racing(r) {
            return None;
        }
        let b = self.base_power(r)?;
        if b != Kind::Copycat {
            return Some(b);
        }
        let t = self.racers.get(r)?.copying?;
        if !self.racing(t) {
            return None;
        }
        self.base_power(t).filter(|&p| p != Kind::Copycat)
    }

    /// Whether some racer may hold power `k` (false only when none can: a quick filter).
    fn may_hold(&self, k: Kind) -> bool {
        let m = self.scratch.powers;
        m & POWERS_KNOWN == 0 || m & (1u64 << (k as u64)) != 0
    }

    /// Works out which powers are in the race: every racer's printed or picked power (a
    /// Copycat only ever holds one of those). Run when a slot starts and when a power is
    /// picked.
    fn note_powers(&mut self) {
        let mut m = POWERS_KNOWN;
        for r in 0..self.racers.len() {
            if let Some(k) = self.base_power(r) {
                m |= 1u64 << (k as u64);
            }
        }
        self.scratch.powers = m;
    }

    /// Whether some racer may hold one of these powers.
    fn may_hold_any(&self, ks: u64) -> bool {
        let m = self.scratch.powers;
        m & POWERS_KNOWN == 0 || m & ks != 0
    }

    fn has(&self, r: Rid, k: Kind) -> bool {
        self.may_hold(k) && self.power(r) == Some(k)
    }

    /// Racers holding power `k` now, in index order.
    fn holders(&self, k: Kind) -> impl Iterator<Item = Rid> + '_ {
        let n = if self.may_hold(k) {
            self.racers.len()
        } else {
            0
        };
        (0..n).filter(move |&r| self.power(r) == Some(k))
    }

    fn on_space(&self, s: u8) -> impl Iterator<Item = Rid> + '_ {
        (0..self.racers.len()).filter(move |&r| self.racing(r) && self.pos(r) == s)
    }

    fn count_on(&self, s: u8) -> usize {
        self.on_space(s).count()
    }

    /// The racers in the lead (racing, farthest ahead), in index order.
    pub fn leaders(&self) -> Vec<Rid> {
        let max = (0..self.racers.len())
            .filter(|&r| self.racing(r))
            .map(|r| self.pos(r))
            .max();
        match max {
            Some(m) => self.on_space(m).collect(),
            None => Vec::new(),
        }
    }

    /// The racers in last place.
    pub fn last_place(&self) -> Vec<Rid> {
        let min = (0..self.racers.len())
            .filter(|&r| self.racing(r))
            .map(|r| self.pos(r))
            .min();
        match min {
            Some(m) => self.on_space(m).collect(),
            None => Vec::new(),
        }
    }

    fn racing_count(&self) -> usize {
        self.racers.iter().filter(|x| x.racing()).count()
    }

    /// The seat whose turn it is (for trigger order).
    fn current_seat(&self) -> Seat {
        match self.mover {
            Some(r) => self.seat_of(r),
            None => match self.slot {
                Slot::Player { seat } => seat,
                Slot::Extra { racer, .. } => self.seat_of(racer),
                Slot::BeforeRace => Seat(0),
            },
        }
    }

    /// Sort key for simultaneous triggers: the current player first, then the others in
    /// turn order.
    fn priority(&self, owner: Rid) -> (usize, Rid) {
        let n = self.players.max(1);
        let cur = self.current_seat().index();
        let s = self.seat_of(owner).index();
        (1 + wrap(s + n - cur, n), owner)
    }

    /// Racers in trigger order: the racer list is in turn order from the race's first seat,
    /// so the order from the current seat is a rotation of it.
    fn in_priority_order(&self) -> impl Iterator<Item = Rid> + use<> {
        let n = self.racers.len();
        let cur = self.current_seat();
        let start = self.racers.iter().position(|x| x.seat == cur).unwrap_or(0);
        (0..n).map(move |i| wrap(start + i, n))
    }

    fn emit(&mut self, e: RaceEvent) {
        if !self.quiet {
            self.events.push(e);
        }
    }

    /// Ends the race (by the turn cap: places by position).
    fn finish_race(&mut self, capped: bool) {
        if self.over {
            return;
        }
        self.forget_since_roll();
        if capped {
            self.capped = true;
            let mut rest: Vec<Rid> = (0..self.racers.len()).filter(|&r| self.racing(r)).collect();
            rest.sort_by_key(|&r| (std::cmp::Reverse(self.pos(r)), r));
            for r in rest {
                if self.placings.len() >= 2 {
                    break;
                }
                self.placings.push(r);
                let place = self.placings.len() as u8;
                if let Some(x) = self.racers.get_mut(r) {
                    x.status = Status::Finished(place);
                }
            }
        }
        self.over = true;
        if !self.quiet {
            let placings = self.placings.iter().map(|&r| self.who(r)).collect();
            self.emit(RaceEvent::RaceOver {
                placings,
                capped: self.capped,
            });
        }
    }

    fn check_over(&mut self) -> R<()> {
        if self.over {
            return Err(Halt::Over);
        }
        if self.placings.len() >= 2 || self.racing_count() == 0 {
            self.finish_race(false);
            return Err(Halt::Over);
        }
        Ok(())
    }

    fn add_bronze(&mut self, r: Rid, points: i32, reason: &str) {
        let seat = self.seat_of(r);
        if let Some(b) = self.bronze.get_mut(seat.index()) {
            let before = *b;
            *b = (*b + points).max(0);
            let change = *b - before;
            if change != 0 && !self.quiet {
                let who = self.who(r);
                self.emit(RaceEvent::Chips {
                    racer: who,
                    points: change,
                    reason: reason.to_string(),
                });
            }
        }
    }

    fn find_who(&self, w: Who) -> Option<Rid> {
        self.racers
            .iter()
            .position(|x| x.kind == w.kind && x.seat == w.seat)
    }

    fn trip(&mut self, r: Rid, why: TripWhy) {
        if let Some(x) = self.racers.get_mut(r) {
            x.tripped = true;
        }
        if !self.quiet {
            let who = self.who(r);
            self.emit(RaceEvent::Tripped { racer: who, why });
        }
    }
}

/// `i % n`, and 0 when `n` is 0.
fn wrap(i: usize, n: usize) -> usize {
    i.checked_rem(n).unwrap_or(0)
}

/// A decider that answers everything with the documented defaults (bots and simulation).
pub struct Defaults;
