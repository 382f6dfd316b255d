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

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use super::decide::{Answer, Given, How, Question, TurnChoice};
use super::racers::Kind;
use super::track::{FINISH, SECOND_CORNER, Special, Track};
use crate::engine::{GameRng, Seat};

/// A racer's index in the race (turn order: seats from the first player, then pick order).
pub type Rid = usize;

/// At most this many tasks resolve in one turn; the rest are dropped.
pub const TASK_BUDGET: u32 = 4_000;
/// A race that reaches this many racer turns ends, placed by position.
pub const TURN_CAP: u32 = 500;

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
    /// The racer whose turn it is.
    pub mover: Option<Rid>,
    /// Tell nothing: no events are kept (simulation and benchmarks).
    #[serde(default)]
    pub quiet: bool,
    // Scratch for the turn in progress.
    stack: Vec<Task>,
    seen: Vec<u64>,
    budget: u32,
    /// Events since the caller last took them.
    pub events: Vec<RaceEvent>,
    /// Buffers reused by every move (not state: never saved, cloned empty, always equal).
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

/// Powers set off by the number rolled.
const ROLL_POWERS: u64 = bits(&[Kind::Sisyphus, Kind::Inchworm, Kind::Skipper, Kind::Lackey]);
/// Powers that change a main move.
const MAIN_MOVE_POWERS: u64 = bits(&[
    Kind::Gunk,
    Kind::Coach,
    Kind::Blimp,
    Kind::Hare,
    Kind::PartyAnimal,
]);

/// Buffers reused by every move and trigger, so a move allocates nothing, and the powers
/// present in the race. Not part of the state: a clone starts empty and any two are equal,
/// so the race's serde and equality are those of the state alone.
#[derive(Default)]
struct Scratch {
    /// Triggers being collected. A collector works on the segment above the length it found
    /// and pushes it on the stack sorted; a nested collector works above that.
    tasks: Vec<((usize, Rid), Task)>,
    /// Boxed so taking it out for a move and putting it back copies a pointer.
    moves: Option<Box<MoveBufs>>,
    /// The turn question's list of choices.
    choices: Option<Vec<TurnChoice>>,
    /// A bit per [`Kind`] some racer may hold as a power now (printed, picked, or copied),
    /// with [`POWERS_KNOWN`]; 0 when not known (then every power is looked up).
    powers: u64,
}

/// The lists one batch of moves or warps builds.
#[derive(Default)]
struct MoveBufs {
    moved: Vec<(Rid, u8, u8)>,
    skip_owners: Vec<Rid>,
    stops: Vec<Stop>,
    passes: Vec<(Rid, Rid)>,
    arrivals: Vec<Rid>,
    riders: Vec<(Rid, u8, u8)>,
    froms: Vec<u8>,
    warps: Vec<(Rid, u8)>,
}

impl MoveBufs {
    fn clear(&mut self) {
        self.moved.clear();
        self.skip_owners.clear();
        self.stops.clear();
        self.passes.clear();
        self.arrivals.clear();
        self.riders.clear();
        self.froms.clear();
        self.warps.clear();
    }
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

/// Up to 16 racers on the stack (a race has at most 12), small enough to copy freely.
#[derive(Clone, Copy)]
struct Rids {
    ids: [u8; 16],
    len: u8,
}

impl Rids {
    fn new() -> Rids {
        Rids {
            ids: [0; 16],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, r: Rid) {
        if let (Some(slot), Ok(r)) = (self.ids.get_mut(usize::from(self.len)), u8::try_from(r)) {
            *slot = r;
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = Rid> + '_ {
        self.ids
            .get(..usize::from(self.len))
            .unwrap_or(&[])
            .iter()
            .map(|&r| Rid::from(r))
    }
}

impl FromIterator<Rid> for Rids {
    #[inline]
    fn from_iter<I: IntoIterator<Item = Rid>>(iter: I) -> Rids {
        let mut v = Rids::new();
        for r in iter {
            v.push(r);
        }
        v
    }
}

/// A stable hasher, so loop detection never depends on the platform: every written value
/// is mixed in as one word (a SplitMix64 finaliser per word), which is quick for the few
/// small fields a signature has.
struct Mix(u64);

impl Mix {
    fn word(&mut self, w: u64) {
        let mut z = (self.0 ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }
}

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.word(u64::from(*b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
    fn write_i8(&mut self, i: i8) {
        self.word(i as u8 as u64);
    }
    fn write_isize(&mut self, i: isize) {
        self.word(i as u64);
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
            mover: None,
            quiet: false,
            stack: Vec::new(),
            seen: Vec::new(),
            budget: TASK_BUDGET,
            events: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    // ----- Looking at the board -----

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

    /// The racers in the lead (racing, farthest ahead).
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
        (1 + (s + n - cur) % n, owner)
    }

    /// Racers in trigger order: the racer list is in turn order from the race's first seat,
    /// so the order from the current seat is a rotation of it.
    fn in_priority_order(&self) -> impl Iterator<Item = Rid> + use<> {
        let n = self.racers.len();
        let cur = self.current_seat();
        let start = self.racers.iter().position(|x| x.seat == cur).unwrap_or(0);
        (0..n).map(move |i| (start + i) % n.max(1))
    }

    fn emit(&mut self, e: RaceEvent) {
        if !self.quiet {
            self.events.push(e);
        }
    }

    // ----- Dice and decisions -----

    /// One die for `r`.
    fn die(&mut self) -> R<u8> {
        match &mut self.dice {
            Some(q) => match q.pop_front() {
                Some(v) => Ok(v.clamp(1, 6)),
                None => Err(Halt::OutOfDice),
            },
            None => Ok(self.rng.die(6)),
        }
    }

    fn ask(&mut self, d: &mut dyn Decider, q: Question) -> R<Answer> {
        match self.answer(d, &q) {
            Some(a) => Ok(a),
            None => Err(Halt::Ask(q)),
        }
    }

    /// The answer to `q`, or `None` to wait for a live one.
    fn answer(&mut self, d: &mut dyn Decider, q: &Question) -> Option<Answer> {
        let given = d.decide(self, q)?;
        let answer = if q.allows(&given.answer) {
            given.answer
        } else {
            super::decide::default_answer(self, q)
        };
        if self.quiet {
            return Some(answer);
        }
        let racer = q.racer().unwrap_or(0);
        let e = RaceEvent::Decided {
            racer: self.who(racer),
            question: self.question_words(q),
            answer: self.answer_words(q, &answer),
            how: given.how,
        };
        self.emit(e);
        Some(answer)
    }

    /// A question in a few words, for the log.
    pub fn question_words(&self, q: &Question) -> String {
        let n = |r: Rid| self.who(r).kind.name();
        match q {
            Question::Order { only_one, .. } => {
                if *only_one {
                    "which racer moves this turn".into()
                } else {
                    "which racer goes first".into()
                }
            }
            Question::Turn { .. } => "the turn".into(),
            Question::Predict { .. } => "which racer will win".into(),
            Question::Reroll { roll, power, .. } => {
                format!("reroll the {roll} ({})", power.name())
            }
            Question::Double { roll, .. } => format!("double the {roll}"),
            Question::Transmute { roll, .. } => format!("move 4 instead of {roll}"),
            Question::Ride { with, to, .. } => format!("ride with {} to {}", n(*with), to),
            Question::Duel { with, .. } => format!("duel {}", n(*with)),
            Question::Copy { .. } => "whom to copy".into(),
            Question::Egg { .. } => "which power to take".into(),
            Question::Twin { .. } => "which winner's power to take".into(),
        }
    }

    /// An answer in a few words.
    pub fn answer_words(&self, q: &Question, a: &Answer) -> String {
        let n = |r: Rid| self.who(r).kind.name().to_string();
        match a {
            Answer::Yes => "yes".into(),
            Answer::No => "no".into(),
            Answer::NoPower => "none".into(),
            Answer::Power(k) => match q {
                Question::Egg { .. } => "(hidden)".into(),
                _ => k.name().into(),
            },
            Answer::Racer(r) => n(*r),
            Answer::Turn(c) => match c {
                TurnChoice::Roll => "roll".into(),
                TurnChoice::Legs => "move 5 (Legs)".into(),
                TurnChoice::Flip(r) => format!("swap with {}", n(*r)),
                TurnChoice::Guess(g) => format!("guess {g}, then roll"),
                TurnChoice::Hypnotize(r) => format!("warp {} here, then roll", n(*r)),
                TurnChoice::Warp(s) => format!("warp to space {s}, then roll"),
                TurnChoice::Cheer => "cheer, then roll".into(),
            },
        }
    }

    // ----- Running the race -----

    /// Runs the current slot to its end, then moves on to the next slot.
    pub fn run_slot(&mut self, d: &mut dyn Decider) -> R<()> {
        if self.over {
            return Err(Halt::Over);
        }
        self.events.clear();
        self.note_powers();
        match self.play_slot(d) {
            Ok(()) => {}
            Err(Halt::Over) => {}
            Err(h) => return Err(h),
        }
        self.stack.clear();
        self.seen.clear();
        self.scratch.tasks.clear();
        self.mover = None;
        if !self.over {
            self.next_slot();
        }
        if self.over { Err(Halt::Over) } else { Ok(()) }
    }

    /// Plays slots until the race ends (every question answered by `d`).
    pub fn run_to_end(&mut self, d: &mut dyn Decider) -> R<()> {
        loop {
            match self.run_slot(d) {
                Ok(()) => {}
                Err(Halt::Over) => return Ok(()),
                Err(h) => return Err(h),
            }
        }
    }

    fn play_slot(&mut self, d: &mut dyn Decider) -> R<()> {
        match self.slot {
            Slot::BeforeRace => {
                for r in 0..self.racers.len() {
                    let k = self.racers[r].kind;
                    self.before_race(r, k, d)?;
                }
                Ok(())
            }
            Slot::Player { seat } => {
                let theirs: Rids = (0..self.racers.len())
                    .filter(|&r| self.racing(r) && self.seat_of(r) == seat)
                    .collect();
                if theirs.len == 1 {
                    // One racer (the usual game): nothing to ask.
                    if let Some(f) = self.first_turn_done.get_mut(seat.index()) {
                        *f = true;
                    }
                    for r in theirs.iter() {
                        self.racer_turn(r, None, d)?;
                    }
                    return Ok(());
                }
                let mut mine: Vec<Rid> = theirs.iter().collect();
                if mine.len() > 1 {
                    let only_one = self.two_player
                        && !self
                            .first_turn_done
                            .get(seat.index())
                            .copied()
                            .unwrap_or(true);
                    let q = Question::Order {
                        seat,
                        racers: mine.clone(),
                        only_one,
                    };
                    if let Answer::Racer(first) = self.ask(d, q)? {
                        mine.retain(|&r| r != first);
                        mine.insert(0, first);
                    }
                    if only_one {
                        mine.truncate(1);
                    }
                }
                if let Some(f) = self.first_turn_done.get_mut(seat.index()) {
                    *f = true;
                }
                for r in mine {
                    if self.racing(r) {
                        self.racer_turn(r, None, d)?;
                    }
                }
                Ok(())
            }
            Slot::Extra { racer, power } => {
                if self.racing(racer) {
                    self.racer_turn(racer, Some(power), d)?;
                }
                Ok(())
            }
        }
    }

    fn next_slot(&mut self) {
        match self.slot {
            Slot::Player { seat } => self.base_seat = seat,
            // "After I go, turn order continues to my left."
            Slot::Extra {
                racer,
                power: Kind::Skipper,
            } => self.base_seat = self.seat_of(racer),
            _ => {}
        }
        while let Some(s) = self.extras.pop_front() {
            if let Slot::Extra { racer, .. } = s
                && self.racing(racer)
            {
                self.slot = s;
                return;
            }
        }
        let n = self.players.max(1);
        for step in 1..=n {
            let i = (self.base_seat.index() + step) % n;
            let Some(seat) = Seat::from_index(i) else {
                continue;
            };
            if self.racers.iter().any(|x| x.racing() && x.seat == seat) {
                self.slot = Slot::Player { seat };
                return;
            }
        }
        self.finish_race(false);
    }

    /// Ends the race (by the turn cap: places by position).
    fn finish_race(&mut self, capped: bool) {
        if self.over {
            return;
        }
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
        let placings = self.placings.iter().map(|&r| self.who(r)).collect();
        self.emit(RaceEvent::RaceOver {
            placings,
            capped: self.capped,
        });
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

    // ----- Before the race -----

    fn before_race(&mut self, r: Rid, k: Kind, d: &mut dyn Decider) -> R<()> {
        let who = self.who(r);
        if matches!(k, Kind::Egg | Kind::Twin) && self.racers[r].kind == k {
            // A power already chosen (a scripted scenario) is not chosen again.
            if let Some(p) = self.racers[r].picked {
                if matches!(p, Kind::Egg | Kind::Twin) {
                    return Ok(());
                }
                return self.before_race(r, p, d);
            }
        }
        match k {
            Kind::Sisyphus => {
                self.add_bronze(r, 4, "Sisyphus takes 4 bronze chips before the race");
            }
            Kind::Egg => {
                let n = self.deck.len().min(2);
                let drawn: Vec<Kind> = self.deck.drain(..n).collect();
                if drawn.is_empty() {
                    return Ok(());
                }
                self.emit(RaceEvent::EggDrew {
                    racer: who,
                    cards: drawn.clone(),
                });
                let q = Question::Egg {
                    racer: r,
                    drawn: drawn.clone(),
                };
                let pick = match self.ask(d, q)? {
                    Answer::Power(p) => p,
                    _ => drawn[0],
                };
                for c in drawn {
                    if c != pick {
                        self.set_aside.push((who.seat, c));
                    }
                }
                self.racers[r].picked = Some(pick);
                self.note_powers();
                self.emit(RaceEvent::Power {
                    racer: who,
                    power: Kind::Egg,
                    detail: format!("takes the power of {}", pick.name()),
                });
                return self.before_race(r, pick, d);
            }
            Kind::Twin => {
                let winners: Vec<Kind> = self
                    .winners
                    .iter()
                    .copied()
                    .filter(|&w| w != Kind::Twin)
                    .collect();
                if winners.is_empty() {
                    return Ok(());
                }
                let q = Question::Twin { racer: r, winners };
                if let Answer::Power(p) = self.ask(d, q)? {
                    self.racers[r].picked = Some(p);
                    self.note_powers();
                    self.emit(RaceEvent::Power {
                        racer: who,
                        power: Kind::Twin,
                        detail: format!("races with the power of {}", p.name()),
                    });
                    return self.before_race(r, p, d);
                }
            }
            _ => {}
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

    // ----- A racer's turn -----

    fn racer_turn(&mut self, r: Rid, extra: Option<Kind>, d: &mut dyn Decider) -> R<()> {
        self.mover = Some(r);
        self.seen.clear();
        self.stack.clear();
        self.scratch.tasks.clear();
        self.budget = TASK_BUDGET;
        self.turns_played += 1;
        if self.turns_played > TURN_CAP {
            self.finish_race(true);
            return Err(Halt::Over);
        }
        let start = self.pos(r);
        if let Some(x) = self.racers.get_mut(r) {
            x.turns = x.turns.saturating_add(1);
        }
        let first_turn = self.racers.get(r).is_some_and(|x| x.turns == 1);
        let who = self.who(r);
        self.emit(RaceEvent::TurnStarted {
            racer: who,
            space: start,
            extra,
        });
        self.refresh_copycats(d)?;
        if first_turn && self.has(r, Kind::Mastermind) && self.racers[r].prediction.is_none() {
            let candidates: Vec<Rid> = (0..self.racers.len()).filter(|&x| self.racing(x)).collect();
            let q = Question::Predict {
                racer: r,
                candidates,
            };
            if let Answer::Racer(t) = self.ask(d, q)? {
                self.racers[r].prediction = Some(t);
            }
        }
        let mut main = true;
        if self.racers[r].tripped {
            self.racers[r].tripped = false;
            self.emit(RaceEvent::Recovered { racer: who });
            main = false;
        } else if self.has(r, Kind::Hare) && self.alone_in_lead(r) && self.racing_count() > 1 {
            self.power_happened(r, Kind::Hare, || {
                "is alone in the lead: skips the main move".to_string()
            });
            main = false;
        }
        self.drain(d)?;
        let mut genius_right = false;
        if main && self.racing(r) {
            // The choices' list is reused from turn to turn unless the turn waits.
            let mut choices = self.scratch.choices.take().unwrap_or_default();
            choices.clear();
            self.fill_turn_choices(r, &mut choices);
            let q = Question::Turn { racer: r, choices };
            let Some(answer) = self.answer(d, &q) else {
                return Err(Halt::Ask(q));
            };
            if let Question::Turn { choices, .. } = q {
                self.scratch.choices = Some(choices);
            }
            let choice = match answer {
                Answer::Turn(c) => c,
                _ => TurnChoice::Roll,
            };
            self.before_main(r, choice, d)?;
            self.drain(d)?;
            if self.racing(r) {
                genius_right = self.main_move(r, choice, d)?;
                self.drain(d)?;
            }
        }
        // End of turn: Heckler.
        if self.racing(r) && self.pos(r).abs_diff(start) <= 1 {
            let hecklers: Rids = self.holders(Kind::Heckler).collect();
            let mark = self.mark();
            for h in hecklers.iter() {
                self.add_task(
                    self.priority(h),
                    Task::Move {
                        racer: h,
                        by: 2,
                        why: Why::Power {
                            racer: self.who(h),
                            power: Kind::Heckler,
                        },
                    },
                );
            }
            self.push_sorted(mark);
            self.drain(d)?;
        }
        if genius_right && self.racing(r) {
            self.extras.push_front(Slot::Extra {
                racer: r,
                power: Kind::Genius,
            });
        }
        Ok(())
    }

    fn alone_in_lead(&self, r: Rid) -> bool {
        let l = self.leaders();
        l.len() == 1 && l[0] == r
    }

    /// The turn prompt's choices for `r`'s power now.
    pub fn turn_choices(&self, r: Rid) -> Vec<TurnChoice> {
        let mut v = Vec::new();
        self.fill_turn_choices(r, &mut v);
        v
    }

    fn fill_turn_choices(&self, r: Rid, v: &mut Vec<TurnChoice>) {
        v.push(TurnChoice::Roll);
        let me = self.pos(r);
        let others = || {
            (0..self.racers.len()).filter(move |&x| x != r && self.racing(x) && self.pos(x) != me)
        };
        match self.power(r) {
            Some(Kind::Legs) => v.push(TurnChoice::Legs),
            Some(Kind::FlipFlop) => v.extend(others().map(TurnChoice::Flip)),
            Some(Kind::Genius) => v.extend((1..=6).map(TurnChoice::Guess)),
            Some(Kind::Hypnotist) => v.extend(others().map(TurnChoice::Hypnotize)),
            Some(Kind::ThirdWheel) => {
                let mut spaces: Vec<u8> = (0..FINISH)
                    .filter(|&s| s != me && self.count_on(s) == 2)
                    .collect();
                spaces.dedup();
                v.extend(spaces.into_iter().map(TurnChoice::Warp));
            }
            Some(Kind::Cheerleader) => v.push(TurnChoice::Cheer),
            _ => {}
        }
    }

    fn before_main(&mut self, r: Rid, choice: TurnChoice, d: &mut dyn Decider) -> R<()> {
        let who = self.who(r);
        match (self.power(r), choice) {
            (Some(Kind::PartyAnimal), _) => {
                let me = self.pos(r);
                let moves: Vec<(Rid, i8)> = (0..self.racers.len())
                    .filter(|&x| x != r && self.racing(x) && self.pos(x) != me)
                    .map(|x| (x, if self.pos(x) > me { -1 } else { 1 }))
                    .collect();
                if !moves.is_empty() {
                    self.power_happened(r, Kind::PartyAnimal, || {
                        "pulls every racer a space closer".to_string()
                    });
                    let why = Why::Power {
                        racer: who,
                        power: Kind::PartyAnimal,
                    };
                    self.do_moves(&moves, why, d)?;
                }
            }
            (Some(Kind::LovableLoser), _) => {
                let last = self.last_place();
                if last.len() == 1 && last[0] == r && self.racing_count() > 1 {
                    self.power_happened(r, Kind::LovableLoser, || {
                        "is alone in last place".to_string()
                    });
                    self.add_bronze(r, 1, "Lovable Loser is alone in last place");
                }
            }
            (Some(Kind::Cheerleader), TurnChoice::Cheer) => {
                let last = self.last_place();
                self.power_happened(r, Kind::Cheerleader, || {
                    "cheers for the racers in last place".to_string()
                });
                let why = Why::Power {
                    racer: who,
                    power: Kind::Cheerleader,
                };
                let moves: Vec<(Rid, i8)> = last.iter().map(|&x| (x, 2)).collect();
                self.do_moves(&moves, why, d)?;
                self.drain(d)?;
                if self.racing(r) {
                    self.do_moves(&[(r, 1)], why, d)?;
                }
            }
            (Some(Kind::Hypnotist), TurnChoice::Hypnotize(t))
                if t != r && self.racing(t) && self.pos(t) != self.pos(r) =>
            {
                let name = self.who(t).kind.name();
                self.power_happened(r, Kind::Hypnotist, || format!("warps {name} to its space"));
                let to = self.pos(r);
                self.do_warps(
                    &[(t, to)],
                    Why::Power {
                        racer: who,
                        power: Kind::Hypnotist,
                    },
                    d,
                )?;
            }
            (Some(Kind::ThirdWheel), TurnChoice::Warp(s))
                if s < FINISH && s != self.pos(r) && self.count_on(s) == 2 =>
            {
                self.power_happened(r, Kind::ThirdWheel, || format!("warps to space {s}"));
                self.do_warps(
                    &[(r, s)],
                    Why::Power {
                        racer: who,
                        power: Kind::ThirdWheel,
                    },
                    d,
                )?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The main move. Returns whether Genius guessed right.
    fn main_move(&mut self, r: Rid, choice: TurnChoice, d: &mut dyn Decider) -> R<bool> {
        let who = self.who(r);
        let start = self.pos(r);
        let base: i32;
        let mut genius_right = false;
        match (self.power(r), choice) {
            (Some(Kind::Legs), TurnChoice::Legs) => {
                self.power_happened(r, Kind::Legs, || "moves 5 instead of rolling".to_string());
                base = 5;
            }
            (Some(Kind::FlipFlop), TurnChoice::Flip(t))
                if t != r && self.racing(t) && self.pos(t) != self.pos(r) =>
            {
                let name = self.who(t).kind.name();
                self.power_happened(r, Kind::FlipFlop, || format!("swaps spaces with {name}"));
                let (a, b) = (self.pos(r), self.pos(t));
                self.do_warps(
                    &[(r, b), (t, a)],
                    Why::Power {
                        racer: who,
                        power: Kind::FlipFlop,
                    },
                    d,
                )?;
                return Ok(false);
            }
            _ => {
                let guess = match (self.power(r), choice) {
                    (Some(Kind::Genius), TurnChoice::Guess(g)) => Some(g),
                    _ => None,
                };
                let mut v = self.die()?;
                self.emit(RaceEvent::Rolled {
                    racer: who,
                    value: v,
                    reroll: None,
                });
                let mut magic = 2;
                while magic > 0 && self.has(r, Kind::Magician) {
                    let q = Question::Reroll {
                        racer: r,
                        roll: v,
                        power: Kind::Magician,
                    };
                    if self.ask(d, q)? != Answer::Yes {
                        break;
                    }
                    magic -= 1;
                    self.power_happened(r, Kind::Magician, || "rerolls".to_string());
                    v = self.die()?;
                    self.emit(RaceEvent::Rolled {
                        racer: who,
                        value: v,
                        reroll: Some(Kind::Magician),
                    });
                }
                let mongers: Rids = if self.may_hold(Kind::Dicemonger) {
                    self.holders(Kind::Dicemonger).collect()
                } else {
                    Rids::new()
                };
                if mongers.len > 0 {
                    let q = Question::Reroll {
                        racer: r,
                        roll: v,
                        power: Kind::Dicemonger,
                    };
                    if self.ask(d, q)? == Answer::Yes {
                        if let Some(m) = mongers.iter().next() {
                            self.power_happened(m, Kind::Dicemonger, || {
                                "lets the roll be rerolled".to_string()
                            });
                        }
                        v = self.die()?;
                        self.emit(RaceEvent::Rolled {
                            racer: who,
                            value: v,
                            reroll: Some(Kind::Dicemonger),
                        });
                        let mark = self.mark();
                        for m in mongers.iter() {
                            if m != r {
                                self.add_task(
                                    self.priority(m),
                                    Task::Move {
                                        racer: m,
                                        by: 1,
                                        why: Why::Power {
                                            racer: self.who(m),
                                            power: Kind::Dicemonger,
                                        },
                                    },
                                );
                            }
                        }
                        self.push_sorted(mark);
                    }
                }
                if let Some(g) = guess
                    && g == v
                {
                    genius_right = true;
                    self.power_happened(r, Kind::Genius, || {
                        format!("guessed {g} right: another turn follows")
                    });
                }
                let mut amount = i32::from(v);
                if self.has(r, Kind::RocketScientist) {
                    let q = Question::Double { racer: r, roll: v };
                    if self.ask(d, q)? == Answer::Yes {
                        amount *= 2;
                        self.power_happened(r, Kind::RocketScientist, || {
                            format!("doubles the {v} and trips")
                        });
                        self.trip(
                            r,
                            TripWhy::Power {
                                racer: who,
                                power: Kind::RocketScientist,
                            },
                        );
                    }
                }
                if v <= 2 && self.has(r, Kind::Alchemist) {
                    let q = Question::Transmute { racer: r, roll: v };
                    if self.ask(d, q)? == Answer::Yes {
                        amount = 4;
                        self.power_happened(r, Kind::Alchemist, || {
                            format!("moves 4 instead of {v}")
                        });
                    }
                }
                self.drain(d)?;
                // Powers set off by the number rolled, in turn order from the mover.
                let mut cancel = false;
                let mark = self.mark();
                let roll_powers = if self.may_hold_any(ROLL_POWERS) {
                    self.racers.len()
                } else {
                    0
                };
                for x in self.in_priority_order().take(roll_powers) {
                    match self.power(x) {
                        Some(Kind::Sisyphus) if x == r && v == 6 => {
                            cancel = true;
                            self.power_happened(x, Kind::Sisyphus, || {
                                "rolled a 6: back to the Start".to_string()
                            });
                            self.add_bronze(x, -1, "Sisyphus loses a chip");
                            self.do_warps(
                                &[(x, 0)],
                                Why::Power {
                                    racer: who,
                                    power: Kind::Sisyphus,
                                },
                                d,
                            )?;
                        }
                        Some(Kind::Inchworm) if x != r && v == 1 => {
                            cancel = true;
                            let wx = self.who(x);
                            self.add_task(
                                self.priority(x),
                                Task::Move {
                                    racer: x,
                                    by: 1,
                                    why: Why::Power {
                                        racer: wx,
                                        power: Kind::Inchworm,
                                    },
                                },
                            );
                        }
                        Some(Kind::Skipper) if v == 1 => {
                            self.power_happened(x, Kind::Skipper, || "goes next".to_string());
                            let slot = Slot::Extra {
                                racer: x,
                                power: Kind::Skipper,
                            };
                            if !self.extras.contains(&slot) {
                                self.extras.push_back(slot);
                            }
                        }
                        Some(Kind::Lackey) if x != r && v == 6 => {
                            let wx = self.who(x);
                            self.add_task(
                                self.priority(x),
                                Task::Move {
                                    racer: x,
                                    by: 2,
                                    why: Why::Power {
                                        racer: wx,
                                        power: Kind::Lackey,
                                    },
                                },
                            );
                        }
                        _ => {}
                    }
                }
                let worm = self
                    .scratch
                    .tasks
                    .get(mark..)
                    .unwrap_or(&[])
                    .iter()
                    .find_map(|(_, t)| match t {
                        Task::Move {
                            why:
                                Why::Power {
                                    racer: w,
                                    power: Kind::Inchworm,
                                },
                            ..
                        } => Some(*w),
                        _ => None,
                    });
                if let Some(w) = worm {
                    self.emit(RaceEvent::Power {
                        racer: w,
                        power: Kind::Inchworm,
                        detail: format!("{} rolled a 1: that move is skipped", who.kind.name()),
                    });
                }
                self.push_sorted(mark);
                self.drain(d)?;
                if cancel || !self.racing(r) {
                    return Ok(genius_right);
                }
                base = amount;
            }
        }
        // Modifiers to the main move, in turn order from the mover.
        let mut amount = base;
        let here = self.pos(r);
        let modifiers = if self.may_hold_any(MAIN_MOVE_POWERS) {
            self.racers.len()
        } else {
            0
        };
        for x in self.in_priority_order().take(modifiers) {
            match self.power(x) {
                Some(Kind::Gunk) if x != r => {
                    amount -= 1;
                    self.power_happened(x, Kind::Gunk, || {
                        format!("-1 to {}'s main move", who.kind.name())
                    });
                }
                Some(Kind::Coach) if self.pos(x) == here => {
                    amount += 1;
                    self.power_happened(x, Kind::Coach, || {
                        format!("+1 to {}'s main move", who.kind.name())
                    });
                }
                Some(Kind::Blimp) if x == r => {
                    if start < SECOND_CORNER {
                        amount += 3;
                        self.power_happened(x, Kind::Blimp, || {
                            "+3 before the second corner".to_string()
                        });
                    } else {
                        amount -= 1;
                        self.power_happened(x, Kind::Blimp, || {
                            "-1 past the second corner".to_string()
                        });
                    }
                }
                Some(Kind::Hare) if x == r => {
                    amount += 2;
                    self.power_happened(x, Kind::Hare, || "+2 to the main move".to_string());
                }
                Some(Kind::PartyAnimal) if x == r => {
                    let k = self.count_on(here).saturating_sub(1) as i32;
                    if k > 0 {
                        amount += k;
                        self.power_happened(x, Kind::PartyAnimal, || {
                            format!("+{k} from the party on its space")
                        });
                    }
                }
                _ => {}
            }
        }
        self.drain(d)?;
        let amount = amount.clamp(0, 60) as i8;
        if amount > 0 && self.racing(r) {
            self.do_moves(&[(r, amount)], Why::MainMove, d)?;
        }
        Ok(genius_right)
    }

    // ----- Powers happening, and the stack -----

    /// A power took effect: tell it, and every Scoocher (but its owner) moves 1.
    fn power_happened(&mut self, owner: Rid, power: Kind, detail: impl FnOnce() -> String) {
        if !self.quiet {
            let who = self.who(owner);
            self.emit(RaceEvent::Power {
                racer: who,
                power,
                detail: detail(),
            });
        }
        if !self.may_hold(Kind::Scoocher) {
            return;
        }
        let scoochers: Rids = self.holders(Kind::Scoocher).collect();
        let mark = self.mark();
        for s in scoochers.iter() {
            if s != owner {
                self.add_task(self.priority(s), Task::Scooch { racer: s });
            }
        }
        self.push_sorted(mark);
    }

    /// Where a collection of triggers starts in the shared task buffer.
    fn mark(&self) -> usize {
        self.scratch.tasks.len()
    }

    fn add_task(&mut self, key: (usize, Rid), t: Task) {
        self.scratch.tasks.push((key, t));
    }

    fn add(&mut self, kt: ((usize, Rid), Task)) {
        self.scratch.tasks.push(kt);
    }

    /// Pushes the tasks collected since `mark` so the first in (priority, order) resolves
    /// first.
    #[inline]
    fn push_sorted(&mut self, mark: usize) {
        if self.scratch.tasks.len() > mark {
            self.push_sorted_now(mark);
        }
    }

    fn push_sorted_now(&mut self, mark: usize) {
        if let Some(seg) = self.scratch.tasks.get_mut(mark..)
            && seg.len() > 1
        {
            // A stable sort keeps the order of tasks with equal keys.
            seg.sort_by_key(|(k, _)| *k);
        }
        while self.scratch.tasks.len() > mark {
            if let Some((_, t)) = self.scratch.tasks.pop() {
                self.stack.push(t);
            }
        }
    }

    fn signature(&self, t: &Task) -> u64 {
        let mut h = Mix(0xcbf2_9ce4_8422_2325);
        for x in &self.racers {
            // One word per racer: space, trip, status and copy target, each in its own bits.
            let status = match x.status {
                Status::Racing => 0u64,
                Status::Finished(n) => 0x100 | u64::from(n),
                Status::Eliminated(n) => 0x200 | u64::from(n),
            };
            let copying = x.copying.map_or(0, |c| (c as u64 & 0xffff_ffff) + 1);
            h.word(
                u64::from(x.pos)
                    | u64::from(x.tripped) << 8
                    | status << 16
                    | copying.min(0xffff_ffff) << 32,
            );
        }
        t.hash(&mut h);
        h.finish()
    }

    fn drain(&mut self, d: &mut dyn Decider) -> R<()> {
        while let Some(t) = self.stack.pop() {
            if self.budget == 0 {
                self.stack.clear();
                if !self.quiet {
                    self.emit(RaceEvent::LoopEnded {
                        task: "too many powers in one turn".into(),
                    });
                }
                break;
            }
            self.budget -= 1;
            let sig = self.signature(&t);
            if self.seen.contains(&sig) {
                if !self.quiet {
                    let text = self.task_words(&t);
                    self.emit(RaceEvent::LoopEnded { task: text });
                }
                continue;
            }
            self.seen.push(sig);
            self.exec(t, d)?;
        }
        Ok(())
    }

    fn task_words(&self, t: &Task) -> String {
        let n = |r: &Rid| self.who(*r).kind.name();
        match t {
            Task::Move { racer, by, .. } => format!("{} moving {by}", n(racer)),
            Task::Trip { racer, .. } => format!("{} tripping", n(racer)),
            Task::Star { racer } => format!("{} taking a star", n(racer)),
            Task::Eliminate { racer, .. } => format!("{} being eliminated", n(racer)),
            Task::Duel { duelist, with } => format!("{} dueling {}", n(duelist), n(with)),
            Task::Scooch { racer } => format!("{} scooching", n(racer)),
        }
    }

    fn exec(&mut self, t: Task, d: &mut dyn Decider) -> R<()> {
        match t {
            Task::Move { racer, by, why } => {
                if !self.racing(racer) {
                    return Ok(());
                }
                if let Why::Power { racer: src, power } = why {
                    let Some(o) = self.find_who(src) else {
                        return Ok(());
                    };
                    if !self.has(o, power) {
                        return Ok(());
                    }
                    // The Dicemonger's move is part of the reroll, told already.
                    if power != Kind::Dicemonger {
                        let name = self.who(racer).kind.name();
                        self.power_happened(o, power, || {
                            if o == racer {
                                format!("moves {by}")
                            } else {
                                format!("{name} moves {by}")
                            }
                        });
                    }
                }
                self.do_moves(&[(racer, by)], why, d)
            }
            Task::Scooch { racer } => {
                if !self.has(racer, Kind::Scoocher) {
                    return Ok(());
                }
                let who = self.who(racer);
                self.power_happened(racer, Kind::Scoocher, || "scooches 1".to_string());
                self.do_moves(
                    &[(racer, 1)],
                    Why::Power {
                        racer: who,
                        power: Kind::Scoocher,
                    },
                    d,
                )
            }
            Task::Trip { racer, why } => {
                if !self.racing(racer) {
                    return Ok(());
                }
                if let TripWhy::Power { racer: src, power } = why {
                    let Some(o) = self.find_who(src) else {
                        return Ok(());
                    };
                    if !self.has(o, power) {
                        return Ok(());
                    }
                    let name = self.who(racer).kind.name();
                    self.power_happened(o, power, || format!("trips {name}"));
                }
                self.trip(racer, why);
                Ok(())
            }
            Task::Star { racer } => {
                if self.racing(racer) {
                    self.add_bronze(racer, 1, "stopped on a star");
                }
                Ok(())
            }
            Task::Eliminate { racer, by } => {
                if !self.racing(racer) || !self.has(by, Kind::Mouth) {
                    return Ok(());
                }
                let name = self.who(racer).kind.name();
                self.power_happened(by, Kind::Mouth, || format!("chomps {name}"));
                let order = self.eliminated.len() as u8 + 1;
                self.racers[racer].status = Status::Eliminated(order);
                self.eliminated.push(racer);
                let (w, b) = (self.who(racer), self.who(by));
                self.emit(RaceEvent::Eliminated { racer: w, by: b });
                self.check_over()?;
                self.refresh_copycats(d)
            }
            Task::Duel { duelist, with } => {
                if !self.has(duelist, Kind::Duelist)
                    || !self.racing(with)
                    || self.pos(duelist) != self.pos(with)
                {
                    return Ok(());
                }
                let q = Question::Duel {
                    racer: duelist,
                    with,
                };
                if self.ask(d, q)? != Answer::Yes {
                    return Ok(());
                }
                let name = self.who(with).kind.name();
                self.power_happened(duelist, Kind::Duelist, || format!("duels {name}"));
                let a = self.die()?;
                let b = self.die()?;
                let (wd, ww) = (self.who(duelist), self.who(with));
                self.emit(RaceEvent::DuelRolls {
                    duelist: wd,
                    duelist_roll: a,
                    other: ww,
                    other_roll: b,
                });
                let winner = if a >= b { duelist } else { with };
                self.do_moves(
                    &[(winner, 2)],
                    Why::Power {
                        racer: wd,
                        power: Kind::Duelist,
                    },
                    d,
                )
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
        let who = self.who(r);
        self.emit(RaceEvent::Tripped { racer: who, why });
    }

    // ----- Copycat -----

    #[inline]
    fn refresh_copycats(&mut self, d: &mut dyn Decider) -> R<()> {
        if !self.may_hold(Kind::Copycat) {
            return Ok(());
        }
        self.refresh_copycats_now(d)
    }

    fn refresh_copycats_now(&mut self, d: &mut dyn Decider) -> R<()> {
        for c in 0..self.racers.len() {
            if !self.racing(c) || self.base_power(c) != Some(Kind::Copycat) {
                continue;
            }
            let candidates: Vec<Rid> = self
                .leaders()
                .into_iter()
                .filter(|&x| x != c && self.base_power(x).is_some_and(|p| p != Kind::Copycat))
                .collect();
            let current = self.racers[c].copying;
            let next = if candidates.is_empty() {
                None
            } else if let Some(cur) = current.filter(|cur| candidates.contains(cur)) {
                Some(cur)
            } else if candidates.len() == 1 {
                Some(candidates[0])
            } else {
                match self.ask(
                    d,
                    Question::Copy {
                        racer: c,
                        candidates: candidates.clone(),
                    },
                )? {
                    Answer::Racer(t) => Some(t),
                    _ => candidates.first().copied(),
                }
            };
            if next != current {
                self.racers[c].copying = next;
                if self.quiet {
                    continue;
                }
                let who = self.who(c);
                let detail = match next.and_then(|t| self.base_power(t)) {
                    Some(p) => format!(
                        "copies {} ({})",
                        self.who(next.unwrap_or(c)).kind.name(),
                        p.name()
                    ),
                    None => "copies nobody".to_string(),
                };
                self.emit(RaceEvent::Power {
                    racer: who,
                    power: Kind::Copycat,
                    detail,
                });
            }
        }
        Ok(())
    }

    // ----- Moving -----

    fn occupied_by_other(&self, s: u8, me: Rid, start: &[u8]) -> bool {
        (0..self.racers.len()).any(|x| x != me && self.racing(x) && start.get(x) == Some(&s))
    }

    fn stickler_against(&self, r: Rid) -> Option<Rid> {
        self.holders(Kind::Stickler).find(|&s| s != r)
    }

    /// Moves racers at the same time, then resolves what the moves set off.
    fn do_moves(&mut self, moves: &[(Rid, i8)], why: Why, d: &mut dyn Decider) -> R<()> {
        // Moves never nest (what they set off waits on the stack), so one set of buffers
        // serves them all; a nested call would only find them empty and allocate.
        let mut b = self.scratch.moves.take().unwrap_or_default();
        b.clear();
        let r = self.do_moves_with(moves, why, d, &mut b);
        self.scratch.moves = Some(b);
        r
    }

    fn do_moves_with(
        &mut self,
        moves: &[(Rid, i8)],
        why: Why,
        d: &mut dyn Decider,
        b: &mut MoveBufs,
    ) -> R<()> {
        // At most 12 racers race: the places before the move fit on the stack.
        let mut start = [0u8; 16];
        for (slot, x) in start.iter_mut().zip(self.racers.iter()) {
            *slot = x.pos;
        }
        let MoveBufs {
            moved, // racer, from, to (raw)
            skip_owners,
            stops,
            passes,
            arrivals,
            riders,
            ..
        } = b;
        for &(m, n) in moves {
            if n == 0 || !self.racing(m) {
                continue;
            }
            let p = start.get(m).copied().unwrap_or(0);
            let leap = self.has(m, Kind::Leaptoad);
            let mut pos = i32::from(p);
            let mut left = i32::from(n.unsigned_abs());
            let mut skips = 0;
            if n > 0 {
                while left > 0 {
                    pos += 1;
                    if pos >= i32::from(FINISH) {
                        left -= 1;
                        break;
                    }
                    if leap && self.occupied_by_other(pos as u8, m, &start) {
                        skips += 1;
                        continue;
                    }
                    left -= 1;
                }
                if pos >= i32::from(FINISH) && left > 0 {
                    if let Some(s) = self.stickler_against(m) {
                        let name = self.who(m).kind.name();
                        self.power_happened(s, Kind::Stickler, || {
                            format!("{name} overshoots the finish and does not move")
                        });
                        continue;
                    }
                    pos += left;
                }
            } else {
                while left > 0 && pos > 0 {
                    pos -= 1;
                    if leap && pos > 0 && self.occupied_by_other(pos as u8, m, &start) {
                        skips += 1;
                        continue;
                    }
                    left -= 1;
                }
            }
            let to = pos.clamp(0, 120) as u8;
            if to == p {
                continue;
            }
            for _ in 0..skips {
                skip_owners.push(m);
            }
            moved.push((m, p, to));
        }
        if moved.is_empty() {
            return Ok(());
        }
        for &(m, _, to) in moved.iter() {
            self.racers[m].pos = to;
        }
        for &(m, from, to) in moved.iter() {
            let who = self.who(m);
            self.emit(RaceEvent::Moved {
                racer: who,
                from,
                to: to.min(FINISH),
                why,
            });
        }
        for &m in skip_owners.iter() {
            self.power_happened(m, Kind::Leaptoad, || {
                "jumps over a space with a racer on it".to_string()
            });
        }
        for &(m, _, _) in moved.iter() {
            arrivals.push(m);
        }
        // Huge Baby before anything else: nobody stops on her space.
        self.baby_adjust(arrivals, stops);
        // Racers that crossed the finish, in order; a rider crosses after its racer.
        for &(m, _, _) in moved.iter() {
            if self.racing(m) && self.pos(m) >= FINISH {
                self.cross(m)?;
            }
        }
        // Suckerfish rides with racers that left its space.
        if !matches!(
            why,
            Why::Power {
                power: Kind::Suckerfish,
                ..
            }
        ) {
            for &(m, from, _) in moved.iter() {
                let fish: Rids = self
                    .holders(Kind::Suckerfish)
                    .filter(|&f| {
                        f != m
                            && start.get(f) == Some(&from)
                            && !moved.iter().any(|&(x, _, _)| x == f)
                            && !riders.iter().any(|&(x, _, _)| x == f)
                    })
                    .collect();
                for f in fish.iter() {
                    if !self.racing(f) || self.pos(f) != from {
                        continue;
                    }
                    let dest = self.pos(m);
                    let q = Question::Ride {
                        racer: f,
                        with: m,
                        to: dest.min(FINISH),
                    };
                    if self.ask(d, q)? != Answer::Yes {
                        continue;
                    }
                    if dest > FINISH
                        && let Some(s) = self.stickler_against(f)
                    {
                        let name = self.who(f).kind.name();
                        self.power_happened(s, Kind::Stickler, || {
                            format!("{name} would overshoot the finish and does not move")
                        });
                        continue;
                    }
                    let name = self.who(m).kind.name();
                    self.power_happened(f, Kind::Suckerfish, || format!("rides with {name}"));
                    self.racers[f].pos = dest;
                    let wf = self.who(f);
                    self.emit(RaceEvent::Moved {
                        racer: wf,
                        from,
                        to: dest.min(FINISH),
                        why: Why::Power {
                            racer: wf,
                            power: Kind::Suckerfish,
                        },
                    });
                    riders.push((f, from, dest));
                    arrivals.push(f);
                    self.baby_adjust(&[f], stops);
                    if dest >= FINISH {
                        self.cross(f)?;
                    }
                }
            }
        }
        // Passing: started behind, ended ahead. (Only the first 16 racers can have been
        // ahead: `start` holds 0 for any others. A race has at most 12.)
        let mut now = [0u8; 16];
        let mut live = [false; 16];
        for ((p, l), x) in now.iter_mut().zip(live.iter_mut()).zip(self.racers.iter()) {
            *p = x.pos;
            *l = x.racing();
        }
        let n = self.racers.len().min(16);
        for &(m, from, _) in moved.iter().chain(riders.iter()) {
            let end_m = self.pos(m);
            for (y, ((&sy, &py), &ly)) in start.iter().zip(&now).zip(&live).enumerate().take(n) {
                if y != m && ly && from < sy && end_m > py {
                    passes.push((m, y));
                }
            }
        }
        for &m in arrivals.iter() {
            if self.racing(m) && !stops.iter().any(|s| s.racer == m) {
                stops.push(Stop { racer: m });
            }
        }
        self.refresh_copycats(d)?;
        self.collect_triggers(stops, passes);
        Ok(())
    }

    /// Puts racers that would share Huge Baby's space on the space behind her.
    fn baby_adjust(&mut self, arrivals: &[Rid], stops: &mut Vec<Stop>) {
        if !self.may_hold(Kind::HugeBaby) {
            return;
        }
        for &a in arrivals {
            if !self.racing(a) {
                continue;
            }
            let s = self.pos(a);
            if s == 0 || s >= FINISH {
                continue;
            }
            let original = |race: &Race, r: Rid| race.base_power(r) == Some(Kind::HugeBaby);
            // A baby on the space whose power beats the arrival's.
            let blocker = self.on_space(s).find(|&b| {
                b != a
                    && self.has(b, Kind::HugeBaby)
                    && !(self.has(a, Kind::HugeBaby) && original(self, a) && !original(self, b))
            });
            if let Some(b) = blocker {
                let name = self.who(a).kind.name();
                self.power_happened(b, Kind::HugeBaby, || {
                    format!("puts {name} on the space behind")
                });
                self.put_behind(a, s, b, stops);
                continue;
            }
            if self.has(a, Kind::HugeBaby) {
                let others: Vec<Rid> = self.on_space(s).filter(|&o| o != a).collect();
                for o in others {
                    let name = self.who(o).kind.name();
                    self.power_happened(a, Kind::HugeBaby, || {
                        format!("puts {name} on the space behind")
                    });
                    self.put_behind(o, s, a, stops);
                }
            }
        }
    }

    fn put_behind(&mut self, r: Rid, s: u8, baby: Rid, stops: &mut Vec<Stop>) {
        let mut to = s.saturating_sub(1);
        while to > 0
            && self
                .on_space(to)
                .any(|b| b != r && b != baby && self.has(b, Kind::HugeBaby))
        {
            to -= 1;
        }
        let from = self.pos(r);
        self.racers[r].pos = to;
        let (w, wb) = (self.who(r), self.who(baby));
        self.emit(RaceEvent::Warped {
            racer: w,
            from,
            to,
            why: Why::Baby { racer: wb },
        });
        if !stops.iter().any(|x| x.racer == r) {
            stops.push(Stop { racer: r });
        }
    }

    /// Warps racers at the same time (no passing), then resolves their stops.
    fn do_warps(&mut self, warps: &[(Rid, u8)], why: Why, d: &mut dyn Decider) -> R<()> {
        let mut b = self.scratch.moves.take().unwrap_or_default();
        b.clear();
        let r = self.do_warps_with(warps, why, d, &mut b);
        self.scratch.moves = Some(b);
        r
    }

    fn do_warps_with(
        &mut self,
        warps: &[(Rid, u8)],
        why: Why,
        d: &mut dyn Decider,
        b: &mut MoveBufs,
    ) -> R<()> {
        let MoveBufs {
            warps: arrivals,
            froms,
            arrivals: ids,
            stops,
            ..
        } = b;
        for &(r, to) in warps {
            if self.racing(r) && self.pos(r) != to {
                froms.push(self.pos(r));
                arrivals.push((r, to));
            }
        }
        for &(r, to) in arrivals.iter() {
            self.racers[r].pos = to;
        }
        for (&(r, to), &from) in arrivals.iter().zip(froms.iter()) {
            let w = self.who(r);
            self.emit(RaceEvent::Warped {
                racer: w,
                from,
                to,
                why,
            });
        }
        ids.extend(arrivals.iter().map(|&(r, _)| r));
        self.baby_adjust(ids, stops);
        for &r in ids.iter() {
            if !stops.iter().any(|s: &Stop| s.racer == r) {
                stops.push(Stop { racer: r });
            }
        }
        self.refresh_copycats(d)?;
        self.collect_triggers(stops, &[]);
        Ok(())
    }

    /// A racer crosses the finish line.
    fn cross(&mut self, r: Rid) -> R<()> {
        self.placings.push(r);
        let place = self.placings.len() as u8;
        self.racers[r].status = Status::Finished(place);
        let w = self.who(r);
        self.emit(RaceEvent::Finished { racer: w, place });
        if place == 1 {
            // Mastermind: a right prediction ends the race with Mastermind 2nd.
            for m in self.in_priority_order() {
                let x = &self.racers[m];
                if x.prediction == Some(r) && (x.racing() || m == r) {
                    let wm = self.who(m);
                    self.emit(RaceEvent::Power {
                        racer: wm,
                        power: Kind::Mastermind,
                        detail: format!(
                            "predicted {}: the race ends and Mastermind is 2nd",
                            w.kind.name()
                        ),
                    });
                    self.placings.push(m);
                    if m != r {
                        self.racers[m].status = Status::Finished(2);
                    }
                    self.emit(RaceEvent::Finished {
                        racer: wm,
                        place: 2,
                    });
                    break;
                }
            }
        }
        self.check_over()
    }

    /// Sorts what a batch of stops and passes sets off, and pushes it on the stack.
    fn collect_triggers(&mut self, stops: &[Stop], passes: &[(Rid, Rid)]) {
        let mark = self.mark();
        for st in stops {
            let a = st.racer;
            if !self.racing(a) {
                continue;
            }
            let s = self.pos(a);
            match self.track.special(s) {
                Some(Special::Arrow(n)) => self.add((
                    (0, a),
                    Task::Move {
                        racer: a,
                        by: n,
                        why: Why::Arrow,
                    },
                )),
                Some(Special::Rock) => self.add((
                    (0, a),
                    Task::Trip {
                        racer: a,
                        why: TripWhy::Rock,
                    },
                )),
                Some(Special::Star) => self.add(((0, a), Task::Star { racer: a })),
                None => {}
            }
            // At most 12 racers: the racers on the space fit on the stack.
            let mut on = [0usize; 16];
            let mut count = 0;
            for r in self.on_space(s) {
                if let Some(slot) = on.get_mut(count) {
                    *slot = r;
                    count += 1;
                }
            }
            let here = &on[..count];
            if here.len() == 2 {
                let romantics: Rids = self.holders(Kind::Romantic).collect();
                for rom in romantics.iter() {
                    let w = self.who(rom);
                    self.add((
                        self.priority(rom),
                        Task::Move {
                            racer: rom,
                            by: 2,
                            why: Why::Power {
                                racer: w,
                                power: Kind::Romantic,
                            },
                        },
                    ));
                }
                if self.has(a, Kind::Mouth)
                    && let Some(&o) = here.iter().find(|&&o| o != a)
                {
                    self.add((self.priority(a), Task::Eliminate { racer: o, by: a }));
                }
            }
            let wa = self.who(a);
            if self.has(a, Kind::BabaYaga) {
                for &o in here {
                    if o == a {
                        continue;
                    }
                    self.add((
                        self.priority(a),
                        Task::Trip {
                            racer: o,
                            why: TripWhy::Power {
                                racer: wa,
                                power: Kind::BabaYaga,
                            },
                        },
                    ));
                }
            }
            for &b in here {
                if b == a || !self.has(b, Kind::BabaYaga) {
                    continue;
                }
                let wb = self.who(b);
                self.add((
                    self.priority(b),
                    Task::Trip {
                        racer: a,
                        why: TripWhy::Power {
                            racer: wb,
                            power: Kind::BabaYaga,
                        },
                    },
                ));
            }
            if self.has(a, Kind::Duelist) {
                for &o in here {
                    if o == a {
                        continue;
                    }
                    self.add((
                        self.priority(a),
                        Task::Duel {
                            duelist: a,
                            with: o,
                        },
                    ));
                }
            }
            for &dd in here {
                if dd == a || !self.has(dd, Kind::Duelist) {
                    continue;
                }
                self.add((
                    self.priority(dd),
                    Task::Duel {
                        duelist: dd,
                        with: a,
                    },
                ));
            }
        }
        for &(m, y) in passes {
            if self.has(y, Kind::Banana) {
                let wy = self.who(y);
                self.add((
                    self.priority(y),
                    Task::Trip {
                        racer: m,
                        why: TripWhy::Power {
                            racer: wy,
                            power: Kind::Banana,
                        },
                    },
                ));
            }
            if self.has(m, Kind::Centaur) {
                let wm = self.who(m);
                self.add((
                    self.priority(m),
                    Task::Move {
                        racer: y,
                        by: -2,
                        why: Why::Power {
                            racer: wm,
                            power: Kind::Centaur,
                        },
                    },
                ));
            }
        }
        self.push_sorted(mark);
    }
}

/// A decider that answers everything with the documented defaults (bots and simulation).
pub struct Defaults;

impl Decider for Defaults {
    fn decide(&mut self, race: &Race, q: &Question) -> Option<Given> {
        Some(Given {
            answer: super::decide::default_answer(race, q),
            how: How::Default,
        })
    }
}
