//! Magical Athlete: a roll-and-move race of 36 racers with powers (rules and the project's
//! rulings: docs/rules/magical-athlete.md).
//!
//! A game is a snake draft, then four races. This module owns the game: the draft
//! ([`draft`]), the secret simultaneous racer picks, the chips, and the bridge between the
//! engine contract and a race ([`race`]), which owns the track and every power.
//!
//! # Waiting for decisions
//! A race runs in slots (the "before my race" powers, then one player's turn at a time).
//! Each slot starts from a copy of the race kept in [`Waiting::base`]; every question the slot
//! asks is answered by a recorded answer, a standing policy, the default, or (when the owner
//! must be asked live) stops the slot. The answer then joins the record and the slot runs
//! again from its start: the dice come from the race's own RNG, so it reaches the same
//! question with the same dice and goes on. Events already told are not told twice.
//!
//! Turns wait for the mover's "roll" (or a power's alternative) unless `auto-roll` is on
//! and the turn has no choice; other decisions wait `decision-timeout` (the race's turn length
//! by default, or fewer seconds), or are never asked when it is 0.
//!
//! # Where each part lives (arrows point to what a module uses; none points back)
//! `replay`, `sim` → this file (the types and the [`Game`] contract) → `race` (one race,
//! see its doc) → `decide` (questions, answers, policies) → `racers`, `track`; `draft` is
//! used from here. `flow`, `orders`, `views`, `narrate`, `scenario`, `check` (the state's
//! invariants) and `names` each add one
//! concern's methods to [`MagicalAthlete`] and use this file's types; calls run from this
//! file's contract down into them, then to `names` (never back up), and none is imported here.

mod check;
pub mod decide;
pub mod draft;
mod flow;
mod names;
mod narrate;
mod obvious;
mod orders;
mod presentation;
pub mod race;
pub mod racers;
pub mod replay;
mod scenario;
pub mod sim;
pub mod track;
mod views;

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{
    AskTargets, Bots, DecisionWindow, Game, GameRng, OptionDoc, OptionsError, Outcome, Pending,
    PreferenceError, Preferences, Prompt, Seat, SeatSetup, Seed, SetupError, StateError, Submitted,
};
use decide::{Given, How, Policy, Question, Topic};
use draft::Draft;
use race::{Race, RaceEvent, Status};
use racers::Kind;
use track::{Special, Track};

/// Gold chips for races 1 to 4.
pub const GOLD: [u8; 4] = [3, 4, 4, 5];
/// Silver chips for races 1 to 4.
pub const SILVER: [u8; 4] = [1, 2, 2, 3];
/// Races in a game.
pub const RACES: u8 = 4;

/// Race options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The track of each race: one name for all four races, or four names.
    pub track: Vec<String>,
    /// `printed` (the board, the default) or `rulebook` (the older layout in the rules text).
    pub wild_layout: String,
    /// The 3-player double-racer variant (two racers each).
    pub double: bool,
    /// How long a player has to answer a power's question: `turn` (the race's turn length,
    /// the default) or a shorter number of seconds; 0 never asks (policy or default).
    pub decision_timeout: DecisionWindow,
    /// Play turns that hold no choice without waiting for the mover's "roll".
    pub auto_roll: bool,
    /// Races in the game: 4 (the game) or 1 (one race, after a one-round draft).
    pub races: u8,
    /// Under autopilot `auto`, a power that asks every turn (rerolls, Legs, Rocket...) is
    /// answered by its documented default policy when the seat set none (`<topic> ask`
    /// asks again).
    pub auto_policies: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            track: vec!["mild".into(), "wild".into(), "mild".into(), "wild".into()],
            wild_layout: "printed".into(),
            double: false,
            decision_timeout: DecisionWindow::Turn,
            auto_roll: true,
            races: RACES,
            auto_policies: true,
        }
    }
}

impl Options {
    /// The track of race `n` (1-based).
    pub fn track_of(&self, n: u8) -> Track {
        let i = usize::from(n.saturating_sub(1));
        let name = if self.track.len() == 1 {
            self.track.first()
        } else {
            self.track.get(i)
        };
        match name.map(std::string::String::as_str) {
            Some("wild") => {
                if self.wild_layout == "rulebook" {
                    Track::WildRulebook
                } else {
                    Track::Wild
                }
            }
            _ => Track::Mild,
        }
    }

    /// The tracks of the races this game runs (one, or four).
    fn schedule(&self) -> Vec<Track> {
        (1..=self.races.clamp(1, RACES))
            .map(|n| self.track_of(n))
            .collect()
    }
}

const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "track",
        help: "the tracks, mild or wild: one for every race, or four (mild,wild,mild,wild)",
    },
    OptionDoc {
        key: "wild-layout",
        help: "printed (the board, default) or rulebook (the older layout in the rules text)",
    },
    OptionDoc {
        key: "double",
        help: "3 players race two racers each (no)",
    },
    OptionDoc {
        key: "decision-timeout",
        help: "how long a power's question waits: turn (the race's turn length), or fewer seconds; 0 never asks (turn)",
    },
    OptionDoc {
        key: "auto-roll",
        help: "turns with no choice play without waiting for `roll` (yes)",
    },
    OptionDoc {
        key: "races",
        help: "4 (the four-race game) or 1 (one race, after a one-round draft) (4)",
    },
    OptionDoc {
        key: "auto-policies",
        help: "seats on autopilot `auto` take the default policy for powers that ask every turn, unless they set `<power> ask` (yes)",
    },
];

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    /// Drafted racers, in draft order.
    pub hand: Vec<Kind>,
    pub used: Vec<Kind>,
    pub gold: Vec<u8>,
    pub silver: Vec<u8>,
    pub bronze: i32,
    pub policies: Vec<Policy>,
    /// Topics the player asked to be asked about (`<topic> ask`), even on `auto`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asked: Vec<Topic>,
}

impl Player {
    pub fn score(&self) -> i64 {
        let g: i64 = self.gold.iter().map(|&v| i64::from(v)).sum();
        let s: i64 = self.silver.iter().map(|&v| i64::from(v)).sum();
        g + s + i64::from(self.bronze)
    }

    fn unused(&self) -> Vec<Kind> {
        self.hand
            .iter()
            .copied()
            .filter(|k| !self.used.contains(k))
            .collect()
    }

    fn policy(&self, topic: Topic) -> Option<&Policy> {
        self.policies.iter().find(|p| p.topic() == topic)
    }
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "phase")]
pub enum Phase {
    Draft(Draft),
    /// Everyone picks the racer(s) for race `race`, in secret.
    Pick {
        race: u8,
        first: Seat,
    },
    Racing,
    Over,
}

/// A slot stopped on a live question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    /// The race at the start of the slot.
    pub base: Box<Race>,
    /// Every answer the slot has read so far, in order.
    pub given: Vec<Given>,
    pub question: Question,
    /// Events of this slot already returned.
    pub emitted: usize,
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MagicalAthlete {
    options: Options,
    players: Vec<Player>,
    phase: Phase,
    /// The undrawn deck (hidden order).
    deck: Vec<Kind>,
    /// Cards Egg drew and did not take (known to their owner only).
    set_aside: Vec<(Seat, Kind)>,
    /// The race in progress, or the last one run (boxed: it is most of the state).
    race: Option<Box<Race>>,
    waiting: Option<Box<Waiting>>,
    /// Racers that won earlier races.
    winners: Vec<Kind>,
    races_done: u8,
    /// Every player's points after each race run, for the season's race chart.
    #[serde(default)]
    season: Vec<Vec<i64>>,
    rng: GameRng,
    /// Replays: stop once the race has played this many racer turns (never saved).
    #[serde(skip)]
    stop_after: Option<u32>,
}

/// A typed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order", content = "value")]
pub enum Order {
    /// Draft this racer from the line.
    Draft(Kind),
    /// Race with these racers (one, or two in the double-racer variants).
    Race(Vec<Kind>),
    Roll,
    Legs,
    Cheer,
    Flip(Kind),
    Hypnotize(Kind),
    Guess(u8),
    Warp(u8),
    Yes,
    No,
    /// A racer named in answer (order, prediction, Copycat, Egg, Twin).
    Racer(Kind),
    /// Twin takes no power.
    NoPower,
}

/// Order text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("the order is empty; {0}")]
    Empty(String),
    #[error("`{0}` is not a racer's name")]
    UnknownRacer(String),
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("I don't understand `{got}`; {hint}")]
    Unreadable { got: String, hint: String },
}

/// An order that is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalOrder {
    #[error("there is nothing for you to decide right now")]
    NotAsked,
    #[error("{0} isn't in the draft line")]
    NotInLine(String),
    #[error("{0} isn't in your hand, or has raced already")]
    NotInHand(String),
    #[error("pick {want} different racer(s) from your hand")]
    WrongCount { want: usize },
    #[error("that isn't one of the choices: {0}")]
    NotAChoice(String),
    #[error("{0} isn't in this race")]
    NotRacing(String),
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "type")]
pub enum Event {
    RollOff {
        purpose: String,
        rolls: Vec<(Seat, u8)>,
        /// `None`: every roll was shared, so everyone rolls again.
        winner: Option<Seat>,
    },
    DraftLine {
        round: u8,
        cards: Vec<Kind>,
    },
    Drafted {
        seat: Seat,
        racer: Kind,
        missed: bool,
    },
    Revealed {
        race: u8,
        track: Track,
        picks: Vec<(Seat, Vec<Kind>)>,
        first: Seat,
    },
    Race {
        event: RaceEvent,
    },
    Awarded {
        race: u8,
        gold: Option<(Seat, Kind, u8)>,
        silver: Option<(Seat, Kind, u8)>,
    },
    GameOver {
        scores: Vec<(Seat, i64)>,
    },
}

/// One racer on the track, for views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RacerView {
    pub racer: Kind,
    pub name: String,
    pub seat: Seat,
    pub owner: String,
    pub space: u8,
    pub tripped: bool,
    pub status: Status,
    /// The power it has now (Egg's and Twin's pick, Copycat's copy).
    pub power: Option<Kind>,
    pub copying: Option<Kind>,
    pub prediction: Option<Kind>,
}

/// One player's line, for views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub name: String,
    pub hand: Vec<Kind>,
    pub used: Vec<Kind>,
    pub gold: Vec<u8>,
    pub silver: Vec<u8>,
    pub bronze: i32,
    pub score: i64,
}

/// All the channel sees. Hands are public (the draft is face up); the deck order and the
/// cards Egg set aside are not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub phase: String,
    /// The race being run or picked (1-4), 0 during the draft.
    pub race: u8,
    /// The track of each race the game runs: four, or one for a one-race game.
    pub schedule: Vec<Track>,
    pub track: Option<Track>,
    pub specials: Vec<(u8, Special)>,
    pub players: Vec<PlayerView>,
    pub draft_line: Vec<Kind>,
    pub draft_round: u8,
    pub racers: Vec<RacerView>,
    /// Racers in finishing order.
    pub placings: Vec<Kind>,
    pub eliminated: Vec<Kind>,
    pub mover: Option<Kind>,
    /// Who must act, in words.
    pub waiting: Option<String>,
    pub deck_size: usize,
    pub winners: Vec<Kind>,
    pub finished: bool,
    /// Every player's points after each race run (the race chart's columns).
    #[serde(default)]
    pub season: Vec<Vec<i64>>,
}

/// A question as one seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionView {
    pub text: String,
    pub choices: Vec<String>,
}

/// All one seat sees in its DM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub hand: Vec<Kind>,
    pub unused: Vec<Kind>,
    /// Your racers in the race now.
    pub racing: Vec<Kind>,
    /// Your standing policies, as the text that sets them.
    pub policies: Vec<String>,
    pub question: Option<QuestionView>,
    /// Cards your Egg set aside (or is choosing from).
    pub egg_cards: Vec<Kind>,
    pub score: i64,
}

impl PublicView {
    /// The races this game runs: four, or one (a view without a schedule is of four).
    pub fn races(&self) -> usize {
        match self.schedule.len() {
            0 => usize::from(RACES),
            n => n,
        }
    }
}

impl MagicalAthlete {
    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The race in progress (or the last one).
    pub fn race(&self) -> Option<&Race> {
        self.race.as_deref()
    }

    pub fn waiting(&self) -> Option<&Waiting> {
        self.waiting.as_deref()
    }
}

/// Deals the cards `viewer` cannot place again: the deck, and others' set-aside cards
/// (the game's between races, the race's during one).
fn resample_cards(
    deck: &mut [Kind],
    set_aside: &mut [(Seat, Kind)],
    viewer: Option<Seat>,
    rng: &mut GameRng,
) {
    let hidden_from = |s: Seat| viewer != Some(s);
    let mut pool: Vec<Kind> = deck.to_vec();
    pool.extend(
        set_aside
            .iter()
            .filter(|(s, _)| hidden_from(*s))
            .map(|&(_, k)| k),
    );
    // Sorted first, so the redraw depends only on what the viewer knows.
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let mut it = pool.into_iter();
    for c in deck.iter_mut() {
        if let Some(k) = it.next() {
            *c = k;
        }
    }
    for (s, k) in set_aside.iter_mut() {
        if hidden_from(*s)
            && let Some(n) = it.next()
        {
            *k = n;
        }
    }
}

impl Game for MagicalAthlete {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type PublicView = PublicView;
    type PrivateView = PrivateView;
    type SyntaxError = SyntaxError;
    type IllegalOrder = IllegalOrder;

    const SEQUENTIAL: bool = true;

    fn check_options(o: &Options) -> Result<(), OptionsError> {
        if o.track.len() != 1 && o.track.len() != usize::from(RACES) {
            return Err(OptionsError::Invalid(
                "track takes one name for every race, or four names (mild,wild,mild,wild)".into(),
            ));
        }
        if let Some(bad) = o.track.iter().find(|t| *t != "mild" && *t != "wild") {
            return Err(OptionsError::BadValue {
                key: "track".into(),
                reason: format!("`{bad}` is not a track; the tracks are mild and wild"),
            });
        }
        if o.wild_layout != "printed" && o.wild_layout != "rulebook" {
            return Err(OptionsError::BadValue {
                key: "wild-layout".into(),
                reason: "expected printed or rulebook".into(),
            });
        }
        if o.races != 1 && o.races != RACES {
            return Err(OptionsError::BadValue {
                key: "races".into(),
                reason: "expected 4 (the game) or 1 (one race)".into(),
            });
        }
        if o.decision_timeout.seconds().unwrap_or(0) > 7 * 24 * 3600 {
            return Err(OptionsError::BadValue {
                key: "decision-timeout".into(),
                reason: "at most a week (604800 seconds)".into(),
            });
        }
        Ok(())
    }

    fn seat_limits(o: &Options) -> (usize, usize) {
        if o.double { (3, 3) } else { (2, 6) }
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        let mut rng = GameRng::from_seed(seed);
        let mut deck = racers::ALL.to_vec();
        rng.shuffle(&mut deck);
        let players = seats
            .iter()
            .map(|s| Player {
                name: s.name.clone(),
                hand: Vec::new(),
                used: Vec::new(),
                gold: Vec::new(),
                silver: Vec::new(),
                bronze: 0,
                policies: Vec::new(),
                asked: Vec::new(),
            })
            .collect::<Vec<_>>();
        let mut game = MagicalAthlete {
            options: options.clone(),
            players,
            phase: Phase::Over,
            deck,
            set_aside: Vec::new(),
            race: None,
            waiting: None,
            winners: Vec::new(),
            races_done: 0,
            season: Vec::new(),
            rng,
            stop_after: None,
        };
        let mut events = Vec::new();
        let seats_all = game.seats();
        let start = game.roll_off(&seats_all, "who drafts first", &mut events);
        let mut d = Draft::new(seats_all.len(), options.double, start);
        if options.races == 1 {
            // One race: one round of the draft (half the hand), enough racers to choose from.
            d.rounds = (d.rounds / 2).max(1);
        }
        // Setup tells nothing: the draft keeps its roll-off to show with the first pick.
        d.roll_off = events
            .into_iter()
            .filter_map(|e| match e {
                Event::RollOff { rolls, .. } => Some(rolls),
                _ => None,
            })
            .collect();
        d.deal(&mut game.deck);
        game.phase = Phase::Draft(d);
        Ok(game)
    }

    fn pending(&self) -> Pending {
        let seats = self.pending_seats();
        if seats.is_empty() {
            return Pending::none();
        }
        let label = self.waiting_text().unwrap_or_default();
        match &self.phase {
            Phase::Racing => {
                let turn = self.question().is_some_and(Question::is_turn);
                let p = Pending::all(seats, label);
                if turn {
                    p
                } else {
                    p.with_window(self.options.decision_timeout.window())
                }
            }
            _ => Pending::all(seats, label),
        }
    }

    fn prompt(&self, seat: Seat) -> Prompt {
        self.seat_prompt(seat)
    }

    fn parse_order(&self, _seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        let t = text.trim().to_ascii_lowercase();
        let t = t.trim_start_matches('/').trim();
        if t.is_empty() {
            return Err(SyntaxError::Empty(
                "send `roll`, `yes`, `no`, or a racer's name".into(),
            ));
        }
        let (verb, rest) = match t.split_once(char::is_whitespace) {
            Some((v, r)) => (v, r.trim()),
            None => (t, ""),
        };
        let one = |rest: &str| -> Result<Kind, SyntaxError> {
            Kind::parse(rest)
                .ok_or_else(|| SyntaxError::UnknownRacer(rest.chars().take(40).collect()))
        };
        let number = |rest: &str| -> Result<u8, SyntaxError> {
            rest.parse::<u8>()
                .map_err(|_| SyntaxError::NotANumber(rest.chars().take(20).collect()))
        };
        match &self.phase {
            Phase::Draft(_) => {
                let name = if matches!(verb, "pick" | "draft" | "take") {
                    rest
                } else {
                    t
                };
                return one(name).map(Order::Draft);
            }
            Phase::Pick { .. } => {
                let names = if matches!(verb, "race" | "pick" | "play") {
                    rest
                } else {
                    t
                };
                return Self::read_kinds(names).map(Order::Race);
            }
            _ => {}
        }
        match (verb, rest) {
            ("roll" | "r", "") => Ok(Order::Roll),
            ("legs" | "jog", "") => match self.question() {
                Some(Question::Turn { .. }) | None => Ok(Order::Legs),
                Some(_) => Ok(Order::Racer(Kind::Legs)),
            },
            ("cheer", "") => Ok(Order::Cheer),
            ("yes" | "y" | "reroll" | "double" | "ride" | "duel" | "transmute" | "ok", "") => {
                Ok(Order::Yes)
            }
            ("no" | "n" | "keep" | "stay" | "pass", "") => Ok(Order::No),
            ("none" | "nothing", "") => Ok(Order::NoPower),
            ("flip" | "swap", r) if !r.is_empty() => {
                one(r.trim_start_matches("with ")).map(Order::Flip)
            }
            ("hypnotize" | "hypnotise", r) if !r.is_empty() => one(r).map(Order::Hypnotize),
            ("guess", r) => number(r).map(Order::Guess),
            // `warp 9` (Third Wheel), `warp sisyphus` / `warp sisyphus here` (Hypnotist).
            ("warp", r) => {
                let r = r.trim_start_matches("to ").trim();
                match number(r) {
                    Ok(n) => Ok(Order::Warp(n)),
                    Err(e) => match Kind::parse(r.trim_end_matches(" here").trim()) {
                        Some(k) => Ok(Order::Hypnotize(k)),
                        None => Err(e),
                    },
                }
            }
            ("predict" | "copy" | "take" | "pick" | "first", r) if !r.is_empty() => {
                one(r).map(Order::Racer)
            }
            _ => match Kind::parse(t) {
                // A racer's name on a turn names the one swap or warp that takes it.
                Some(k) => Ok(self.turn_order_naming(k).unwrap_or(Order::Racer(k))),
                None => Err(SyntaxError::Unreadable {
                    got: text.trim().chars().take(40).collect(),
                    hint: "send `roll`, `yes`, `no`, or a racer's name".into(),
                }),
            },
        }
    }

    fn validate(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        if !self.pending_seats().contains(&seat) {
            return Err(IllegalOrder::NotAsked);
        }
        match (&self.phase, order) {
            (Phase::Draft(d), Order::Draft(k)) => {
                if d.line.contains(k) {
                    Ok(())
                } else {
                    Err(IllegalOrder::NotInLine(k.name().into()))
                }
            }
            (Phase::Pick { .. }, Order::Race(ks)) => {
                let want = self.per_race();
                let unused = self
                    .players
                    .get(seat.index())
                    .map(Player::unused)
                    .unwrap_or_default();
                if let Some(k) = ks.iter().find(|k| !unused.contains(k)) {
                    return Err(IllegalOrder::NotInHand(k.name().into()));
                }
                let mut d = ks.clone();
                d.sort();
                d.dedup();
                if d.len() != want || ks.len() != want {
                    return Err(IllegalOrder::WrongCount { want });
                }
                Ok(())
            }
            (Phase::Racing, o) => {
                let Some(q) = self.question() else {
                    return Err(IllegalOrder::NotAsked);
                };
                if self.answer_of(q, o).is_some() {
                    return Ok(());
                }
                let in_race = |k: &Kind| {
                    self.question_race()
                        .is_some_and(|r| r.racers.iter().any(|x| x.kind == *k))
                };
                match o {
                    Order::Flip(k) | Order::Hypnotize(k) if !in_race(k) => {
                        Err(IllegalOrder::NotRacing(k.name().into()))
                    }
                    _ => {
                        let choices: Vec<String> = self
                            .legal_orders(seat)
                            .iter()
                            .map(|o| self.format(o))
                            .collect();
                        Err(IllegalOrder::NotAChoice(choices.join(", ")))
                    }
                }
            }
            _ => Err(IllegalOrder::NotAChoice(
                self.legal_orders(seat)
                    .iter()
                    .map(|o| self.format(o))
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }

    fn format_order(&self, _seat: Seat, order: &Order) -> String {
        self.format(order)
    }

    fn default_order(&self, seat: Seat) -> Order {
        match &self.phase {
            Phase::Draft(d) => Order::Draft(d.line.first().copied().unwrap_or(Kind::Legs)),
            Phase::Pick { .. } => {
                let unused = self
                    .players
                    .get(seat.index())
                    .map(Player::unused)
                    .unwrap_or_default();
                Order::Race(unused.into_iter().take(self.per_race()).collect())
            }
            Phase::Racing => self.policy_order(seat).unwrap_or(Order::Roll),
            Phase::Over => Order::Roll,
        }
    }

    fn upgrade_event(event: Event) -> Event {
        event.in_todays_form()
    }

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        let mut events = Vec::new();
        let pending = self.pending_seats();
        let valid: Vec<Submitted<Order>> = orders
            .iter()
            .filter(|o| pending.contains(&o.seat) && self.validate(o.seat, &o.order).is_ok())
            .cloned()
            .collect();
        let order_for =
            |seat: Seat| -> Option<&Submitted<Order>> { valid.iter().find(|o| o.seat == seat) };
        match self.phase.clone() {
            Phase::Draft(mut d) => {
                let Some(seat) = d.current() else {
                    return events;
                };
                let (k, missed) = match order_for(seat) {
                    Some(Submitted {
                        order: Order::Draft(k),
                        missed,
                        ..
                    }) => (*k, *missed),
                    _ => (d.line.first().copied().unwrap_or(Kind::Legs), true),
                };
                d.take(k);
                if let Some(p) = self.players.get_mut(seat.index()) {
                    p.hand.push(k);
                }
                events.push(Event::Drafted {
                    seat,
                    racer: k,
                    missed,
                });
                if d.current().is_some() {
                    self.phase = Phase::Draft(d);
                } else if d.next_round(&mut self.deck) {
                    events.push(Event::DraftLine {
                        round: d.round + 1,
                        cards: d.line.clone(),
                    });
                    self.phase = Phase::Draft(d);
                } else {
                    // The draft is over: roll off for the first race.
                    let seats = self.seats();
                    let first = self.roll_off(&seats, "who goes first in race 1", &mut events);
                    self.phase = Phase::Pick { race: 1, first };
                }
            }
            Phase::Pick { first, .. } => {
                let mut picks = Vec::new();
                for seat in pending {
                    let ks = match order_for(seat) {
                        Some(Submitted {
                            order: Order::Race(ks),
                            ..
                        }) => ks.clone(),
                        _ => match self.default_order(seat) {
                            Order::Race(ks) => ks,
                            _ => Vec::new(),
                        },
                    };
                    picks.push((seat, ks));
                }
                self.start_race(picks, first, &mut events);
                self.run(None, &mut events);
            }
            Phase::Racing => {
                let Some(w) = self.waiting.take() else {
                    return events;
                };
                let seat = w.base.asker(&w.question);
                let given = match order_for(seat) {
                    Some(s) => match self.answer_of(&w.question, &s.order) {
                        Some(a) => Given {
                            answer: a,
                            how: if s.missed { How::TimedOut } else { How::Live },
                        },
                        None => self.fallback(&w, How::TimedOut),
                    },
                    None => self.fallback(&w, How::TimedOut),
                };
                self.run(Some((*w, given)), &mut events);
            }
            Phase::Over => {}
        }
        events
    }

    fn public_view(&self) -> PublicView {
        self.view_public()
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        self.view_private(seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores: Vec<(Seat, i64)> = self
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Seat::from_index(i).map(|s| (s, p.score())))
            .collect();
        Some(Outcome::from_scores(&scores))
    }

    fn check(&self) -> Result<(), StateError> {
        self.check_state()
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        // Future dice are hidden from everyone.
        g.rng = rng.fork();
        resample_cards(&mut g.deck, &mut g.set_aside, viewer, rng);
        if let Some(race) = g.race.as_mut() {
            resample_cards(&mut race.deck, &mut race.set_aside, viewer, rng);
        }
        g
    }
}

impl Bots for MagicalAthlete {
    // A playout runs whole races of powers (docs/performance.md, "Expert bot").
    const EXPERT_STEPS: u64 = 3_000;

    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        let v = self.legal_orders(seat);
        rng.choose(&v)
            .cloned()
            .unwrap_or_else(|| self.default_order(seat))
    }
}

impl Preferences for MagicalAthlete {
    const ASK_TARGETS: AskTargets = AskTargets {
        per_seat: Some((
            20,
            "a Magician or a Dicemonger at the table can ask a reroll at every roll",
        )),
        half_of_ask: false,
    };

    fn set_preference(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
        let Some(p) = self.players.get_mut(seat.index()) else {
            return Err(PreferenceError::Invalid(
                "you have no seat in this game".into(),
            ));
        };
        let mut said = Vec::new();
        for part in text
            .split(&[';', '\n'][..])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let lower = part.to_ascii_lowercase();
            if lower == "clear" || lower == "clear all" || lower == "policies clear" {
                p.policies.clear();
                p.asked = Topic::ALL.to_vec();
                said.push("all your policies are cleared: you will be asked".to_string());
                continue;
            }
            let (topic, policy) = decide::parse_policy(part).map_err(PreferenceError::Invalid)?;
            p.policies.retain(|x| x.topic() != topic);
            p.asked.retain(|&t| t != topic);
            match policy {
                Some(pol) => {
                    said.push(pol.explain());
                    p.policies.push(pol);
                }
                None => {
                    p.asked.push(topic);
                    said.push(format!("you will be asked about {}", topic.word()));
                }
            }
        }
        if said.is_empty() {
            return Err(PreferenceError::Invalid(
                "write a policy, like `magician reroll below 3`".into(),
            ));
        }
        let mut out = String::new();
        for s in said {
            let _ = writeln!(out, "Policy set: {s}.");
        }
        Ok(out.trim_end().to_string())
    }

    /// Autopilot's obvious answers: docs/rules/magical-athlete.md, *Autopilot*.
    fn obvious_order(&self, seat: Seat) -> Option<Order> {
        self.obvious(seat)
    }

    /// Under `auto`, the default policy of a power that asks every turn.
    fn standing_order(&self, seat: Seat) -> Option<(Order, String)> {
        self.auto_policy(seat)
    }
}

#[cfg(test)]
mod tests;
