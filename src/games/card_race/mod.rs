//! The card race: 1000 miles (Mille Bornes) and 1000 Yards, one engine with the games'
//! differences given as data in [`rules`] (../shared/rules/1000-miles.md and
//! 1000-yards.md, with the project's rulings in docs/rules/1000-miles.md and
//! docs/rules/1000-yards.md).
//!
//! This module owns the state and the table's mechanics: dealing, drawing, the tableaux
//! (distance, problems, immunities), the dirty-trick window, the end of a round and its
//! scoring. [`cards`] owns card identities and names, [`game`] the [`Game`] contract
//! (orders, views, narration), [`bot`] the two bots, [`replay`] and [`sim`] the CLI's
//! scripts and simulations.
//!
//! [`Game`]: crate::engine::Game

pub mod bot;
pub mod cards;
mod game;
pub mod replay;
pub mod rules;
pub mod sim;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{GameRng, Seat, SeatSetup, Seed, SetupError};
pub use cards::{Card, Kind};
pub use rules::{CounterPref, Options, Ruleset};

/// The views and order errors, for renderers and tests.
pub mod game_views {
    pub use super::game::{
        IllegalOrder, PlayerView, PrivateView, PublicView, SyntaxError, TeamView, WindowView,
    };
}

/// Cards in a full hand, just before playing.
pub const HAND: usize = 7;

/// An immunity on a tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SafetyPlay {
    pub card: Card,
    /// Played as a dirty trick (counter): laid crosswise, worth the bonus.
    pub dirty_trick: bool,
}

/// What a team's car suffers: the part of a tableau an attack changes, kept whole so a
/// dirty trick can put it back as if nothing had happened.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    /// Attacks in force, oldest first.
    pub problems: Vec<Card>,
    /// Stopped until a green light (at the start, and after any stopping attack).
    pub needs_go: bool,
}

/// One team's tableau (a player alone is a team of one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub members: Vec<Seat>,
    pub distance: u32,
    /// Distance cards played this round.
    pub miles: Vec<Card>,
    pub battle: Battle,
    pub safeties: Vec<SafetyPlay>,
    /// Remedies, green lights and resolved attacks: they stay on the tableau.
    pub pile: Vec<Card>,
    /// Score from finished rounds.
    pub total: i64,
}

impl Team {
    fn new(members: Vec<Seat>) -> Team {
        Team {
            members,
            distance: 0,
            miles: Vec::new(),
            battle: Battle {
                problems: Vec::new(),
                needs_go: true,
            },
            safeties: Vec::new(),
            pile: Vec::new(),
            total: 0,
        }
    }

    pub fn has_safety(&self, card: Card) -> bool {
        self.safeties.iter().any(|s| s.card == card)
    }

    pub fn immune_to(&self, attack: Card) -> bool {
        Card::safety_for(attack).is_some_and(|s| self.has_safety(s))
    }

    pub fn has(&self, problem: Card) -> bool {
        self.battle.problems.contains(&problem)
    }

    pub fn limited(&self) -> bool {
        self.has(Card::Limit)
    }

    pub fn counterflow(&self) -> bool {
        self.has(Card::Counterflow)
    }

    /// May play distance: no stopping problem, and a green light (or right of way).
    pub fn rolling(&self) -> bool {
        !self.battle.problems.iter().any(|p| p.is_battle_attack())
            && (!self.battle.needs_go || self.has_safety(Card::RightOfWay))
    }

    pub fn two_hundreds(&self) -> usize {
        self.miles.iter().filter(|&&c| c == Card::D200).count()
    }

    /// Every card on the tableau.
    fn cards(&self) -> usize {
        self.miles.len() + self.battle.problems.len() + self.safeties.len() + self.pile.len()
    }

    /// Clears the round's tableau, returning its cards.
    fn clear_round(&mut self) -> Vec<Card> {
        let mut cards = std::mem::take(&mut self.miles);
        cards.append(&mut self.battle.problems);
        cards.extend(self.safeties.drain(..).map(|s| s.card));
        cards.append(&mut self.pile);
        self.distance = 0;
        self.battle.needs_go = true;
        cards
    }
}

/// The window in which an attacked team may answer with a dirty trick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterWindow {
    pub attacker: Seat,
    pub attack: Card,
    pub team: u8,
    /// Members of the attacked team set to `dirty-trick ask`, in turn order.
    pub victims: Vec<Seat>,
    /// The seat whose turn comes next; its play closes the window. `None` when the round
    /// ends as soon as the window closes.
    pub next: Option<Seat>,
    /// Where play resumes if nobody answers.
    pub resume: Seat,
    /// The attacked team's battle before the attack.
    pub before: Battle,
}

/// Who must act.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// A seat plays or junks a card.
    Turn {
        seat: Seat,
    },
    /// An attack may be answered with a dirty trick.
    Window(CounterWindow),
    /// A player at exactly 700 decides whether to extend the trip to 1000 (published rules).
    Extension {
        seat: Seat,
    },
    Over,
}

/// A line of a round's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Line {
    Distance,
    Safeties,
    AllSafeties,
    DirtyTricks,
    Trip,
    Delayed,
    SafeTrip,
    Extension,
    Shutout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    pub line: Line,
    pub points: i64,
}

/// One team's score for a round, line by line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundScore {
    pub team: u8,
    pub lines: Vec<ScoreLine>,
    pub total: i64,
}

/// Why a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum RoundEnd {
    /// A team completed the trip.
    Trip { team: u8 },
    /// A player had no card left.
    NoCards,
}

/// Each team's distance at one point of a round, for the race chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnMark {
    /// Turns of the table (see [`CardRace::turn_marks`]): the mark after turn `turn`, or
    /// where the round ended during it.
    pub turn: u32,
    /// By team.
    pub distances: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    pub round: u32,
    pub ended: RoundEnd,
    pub scores: Vec<RoundScore>,
}

/// The team that completed the trip this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Finish {
    team: u8,
    deck_empty: bool,
}

/// A typed order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "kebab-case")]
pub enum Order {
    /// Play a card; attacks name the target team.
    Play { card: Card, target: Option<u8> },
    /// Discard a card out of the round.
    Junk { card: Card },
    /// Answer an attack with the matching immunity (a dirty trick).
    Counter,
    /// Let an attack stand.
    Decline,
    /// Close a dirty-trick window and start your turn by drawing (1000 miles).
    Draw,
    /// At exactly 700: go on to 1000.
    Extend,
    /// At exactly 700: end the round.
    Finish,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    RoundStarted {
        round: u32,
        starter: Seat,
        cards: usize,
        target: u32,
    },
    /// A seat's hand at the deal (told to that seat only).
    Dealt {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Cards a seat drew (told to that seat only).
    Drew {
        seat: Seat,
        cards: Vec<Card>,
    },
    Reshuffled {
        cards: usize,
    },
    Played {
        seat: Seat,
        card: Card,
        target: Option<u8>,
        missed: bool,
        /// The team's distance after a distance card.
        distance: Option<u32>,
    },
    Junked {
        seat: Seat,
        card: Card,
        missed: bool,
    },
    WindowOpened {
        attack: Card,
        team: u8,
        victims: Vec<Seat>,
        next: Option<Seat>,
        seconds: u64,
    },
    DirtyTrick {
        seat: Seat,
        safety: Card,
        attack: Card,
        attacker: Seat,
        missed: bool,
    },
    /// The window closed without a dirty trick.
    WindowClosed {
        seat: Seat,
        declined: bool,
        missed: bool,
    },
    ExtensionDecided {
        seat: Seat,
        extend: bool,
        missed: bool,
    },
    RoundEnded {
        result: RoundResult,
        totals: Vec<i64>,
    },
    GameEnded {
        winners: Vec<u8>,
        totals: Vec<i64>,
    },
}

/// Why a scripted deck was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    #[error("round {round}'s deck is not this game's deck: {reason}")]
    NotTheDeck { round: usize, reason: String },
}

/// The whole state of a card race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardRace {
    options: Options,
    names: Vec<String>,
    team_of: Vec<u8>,
    teams: Vec<Team>,
    hands: Vec<Vec<Card>>,
    /// The draw pile; its top is the last card.
    deck: Vec<Card>,
    /// Junked cards, face up.
    discard: Vec<Card>,
    prefs: Vec<CounterPref>,
    round: u32,
    /// This round's trip (700 becomes 1000 after an extension).
    target: u32,
    extended_by: Option<u8>,
    finish: Option<Finish>,
    reshuffles_left: u32,
    /// Boxed to keep the registry's enum of states small.
    phase: Box<Phase>,
    history: Vec<RoundResult>,
    /// Decks fixed by a replay script for the coming rounds, top card first.
    #[serde(default)]
    stacked: Vec<Vec<Card>>,
    /// This round's distances turn by turn, for the race chart.
    #[serde(default)]
    marks: Vec<TurnMark>,
    /// Turns of the table begun this round.
    #[serde(default)]
    table_turn: u32,
    rng: GameRng,
}

impl CardRace {
    /// Sets up a game whose first rounds use the given decks (top card first), as a
    /// replay script fixes them; later rounds are shuffled.
    pub fn setup_stacked(
        options: &Options,
        seats: &[SeatSetup],
        seed: Seed,
        decks: Vec<Vec<Card>>,
    ) -> Result<CardRace, SetupError> {
        let mut full = options.deck(seats.len());
        full.sort();
        for (i, d) in decks.iter().enumerate() {
            let mut sorted = d.clone();
            sorted.sort();
            if sorted != full {
                let reason = format!("it has {} cards where the deck has {}", d.len(), full.len());
                return Err(SetupError::Options(crate::engine::OptionsError::Invalid(
                    DeckError::NotTheDeck {
                        round: i + 1,
                        reason,
                    }
                    .to_string(),
                )));
            }
        }
        let mut game = CardRace::new(options, seats, seed)?;
        game.stacked = decks;
        let mut events = Vec::new();
        game.start_round(1, &mut events);
        Ok(game)
    }

    /// The state before the first deal.
    fn new(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<CardRace, SetupError> {
        options.check()?;
        let n = seats.len();
        let team_count = options.team_count(n)?;
        let mut names: Vec<String> = Vec::new();
        let mut prefs = Vec::new();
        for s in seats {
            let name = s.name.trim().to_string();
            if cards::normalise(&name).is_empty() || name.starts_with('@') {
                return Err(SetupError::SeatChoice {
                    name: s.name.clone(),
                    reason: "a player's name must not be empty or start with @".into(),
                });
            }
            if names
                .iter()
                .any(|m| cards::normalise(m) == cards::normalise(&name))
            {
                return Err(SetupError::SeatChoice {
                    name,
                    reason: "two players have this name; attacks name their target".into(),
                });
            }
            let pref = match &s.choice {
                None => CounterPref::Auto,
                Some(c) => CounterPref::parse(c).ok_or_else(|| SetupError::SeatChoice {
                    name: name.clone(),
                    reason: "the choice is `dirty-trick auto` or `dirty-trick ask`".into(),
                })?,
            };
            names.push(name);
            prefs.push(pref);
        }
        // Teams are seated alternately: seat i plays for team i mod the number of teams.
        let team_of: Vec<u8> = (0..n).map(|i| (i % team_count) as u8).collect();
        let teams = (0..team_count)
            .map(|t| {
                Team::new(
                    Seat::all(n)
                        .filter(|s| s.index() % team_count == t)
                        .collect(),
                )
            })
            .collect();
        Ok(CardRace {
            options: options.clone(),
            names,
            team_of,
            teams,
            hands: vec![Vec::new(); n],
            deck: Vec::new(),
            discard: Vec::new(),
            prefs,
            round: 0,
            target: options.target_for(n),
            extended_by: None,
            finish: None,
            reshuffles_left: 0,
            phase: Box::new(Phase::Over),
            history: Vec::new(),
            stacked: Vec::new(),
            marks: Vec::new(),
            table_turn: 0,
            rng: GameRng::from_seed(seed),
        })
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn rules(&self) -> &'static rules::RuleData {
        self.options.rules()
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands
            .get(seat.index())
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn deck_left(&self) -> usize {
        self.deck.len()
    }

    pub fn discard(&self) -> &[Card] {
        &self.discard
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn target(&self) -> u32 {
        self.target
    }

    pub fn history(&self) -> &[RoundResult] {
        &self.history
    }

    /// This round's distances after each turn of the table, and where the round ended. A
    /// turn of the table ends each time the round's first player is to play again (a free
    /// play after an immunity is part of the same turn).
    pub fn turn_marks(&self) -> &[TurnMark] {
        &self.marks
    }

    /// The seat that plays first in the current round.
    fn starter(&self) -> Seat {
        let n = self.players().max(1);
        Seat::from_index((self.round as usize).saturating_sub(1) % n).unwrap_or(Seat(0))
    }

    /// Notes the distances as a turn of the table ends (or the round does).
    fn mark(&mut self, turn: u32) {
        self.marks.push(TurnMark {
            turn,
            distances: self.teams.iter().map(|t| t.distance).collect(),
        });
    }

    pub fn players(&self) -> usize {
        self.names.len()
    }

    pub fn name(&self, seat: Seat) -> &str {
        self.names
            .get(seat.index())
            .map(String::as_str)
            .unwrap_or("?")
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn pref(&self, seat: Seat) -> CounterPref {
        self.prefs.get(seat.index()).copied().unwrap_or_default()
    }

    pub fn team_index(&self, seat: Seat) -> u8 {
        self.team_of.get(seat.index()).copied().unwrap_or(0)
    }

    pub fn team_of(&self, seat: Seat) -> Option<&Team> {
        self.teams.get(usize::from(self.team_index(seat)))
    }

    pub fn team(&self, team: u8) -> Option<&Team> {
        self.teams.get(usize::from(team))
    }

    /// Cards everywhere: draw pile, hands, junk pile and tableaux.
    pub fn card_count(&self) -> usize {
        self.deck.len()
            + self.discard.len()
            + self.hands.iter().map(Vec::len).sum::<usize>()
            + self.teams.iter().map(Team::cards).sum::<usize>()
    }

    /// A card's name in this game.
    pub fn card_name(&self, card: Card) -> &'static str {
        card.name(self.rules().yards_names)
    }

    /// "Alice" or "Alice & Carol".
    pub fn team_label(&self, team: u8) -> String {
        self.team(team)
            .map(|t| {
                t.members
                    .iter()
                    .map(|&s| self.name(s))
                    .collect::<Vec<_>>()
                    .join(" & ")
            })
            .unwrap_or_else(|| "?".into())
    }

    fn next_seat(&self, seat: Seat) -> Seat {
        let n = self.players().max(1);
        Seat::from_index((seat.index() + 1) % n).unwrap_or(Seat(0))
    }

    fn team_mut(&mut self, team: u8) -> Option<&mut Team> {
        self.teams.get_mut(usize::from(team))
    }

    fn take_from_hand(&mut self, seat: Seat, card: Card) -> bool {
        let Some(hand) = self.hands.get_mut(seat.index()) else {
            return false;
        };
        match hand.iter().position(|&c| c == card) {
            Some(i) => {
                hand.remove(i);
                true
            }
            None => false,
        }
    }

    /// The seat of `team` holding `card`, if any (immunities are one of a kind).
    pub fn holder(&self, team: u8, card: Card) -> Option<Seat> {
        self.team(team)?
            .members
            .iter()
            .copied()
            .find(|&s| self.hand(s).contains(&card))
    }

    // ----- the round -----

    fn start_round(&mut self, round: u32, ev: &mut Vec<Event>) {
        let n = self.players();
        let mut cards = std::mem::take(&mut self.deck);
        cards.append(&mut self.discard);
        for h in &mut self.hands {
            cards.append(h);
        }
        for t in &mut self.teams {
            cards.extend(t.clear_round());
        }
        let deck = if self.stacked.is_empty() {
            let mut d = self.options.deck(n);
            self.rng.shuffle(&mut d);
            d
        } else {
            let mut d = self.stacked.remove(0);
            d.reverse();
            d
        };
        self.deck = deck;
        self.round = round;
        self.target = self.options.target_for(n);
        self.extended_by = None;
        self.finish = None;
        self.reshuffles_left = self.options.reshuffles;
        self.marks.clear();
        self.table_turn = 0;
        let starter = self.starter();
        ev.push(Event::RoundStarted {
            round,
            starter,
            cards: self.deck.len(),
            target: self.target,
        });
        let mut seat = starter;
        for _ in 0..self.rules().deal {
            for _ in 0..n {
                if let (Some(card), Some(hand)) =
                    (self.deck.pop(), self.hands.get_mut(seat.index()))
                {
                    hand.push(card);
                }
                seat = self.next_seat(seat);
            }
        }
        for s in Seat::all(n) {
            ev.push(Event::Dealt {
                seat: s,
                cards: self.hand(s).to_vec(),
            });
        }
        self.begin_turn(starter, ev);
    }

    /// Draws up to a full hand, reshuffling the junk pile if the variant allows.
    fn refill(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let mut drawn = Vec::new();
        while self.hand(seat).len() < HAND {
            if self.deck.is_empty() {
                if self.reshuffles_left == 0 || self.discard.is_empty() {
                    break;
                }
                self.reshuffles_left -= 1;
                self.deck = std::mem::take(&mut self.discard);
                self.rng.shuffle(&mut self.deck);
                ev.push(Event::Reshuffled {
                    cards: self.deck.len(),
                });
            }
            let (Some(card), Some(hand)) = (self.deck.pop(), self.hands.get_mut(seat.index()))
            else {
                break;
            };
            hand.push(card);
            drawn.push(card);
        }
        if !drawn.is_empty() {
            ev.push(Event::Drew { seat, cards: drawn });
        }
    }

    /// `seat` is to play: the round ends if somebody has no card, else it draws (1000 miles).
    fn begin_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.open_turn(seat, true, ev);
    }

    /// As [`Self::begin_turn`]; `fresh` is false for the free play after an immunity,
    /// which does not start a turn of the table.
    fn open_turn(&mut self, seat: Seat, fresh: bool, ev: &mut Vec<Event>) {
        if self.hands.iter().any(Vec::is_empty) {
            self.end_round(RoundEnd::NoCards, ev);
            return;
        }
        if fresh && seat == self.starter() {
            if self.table_turn > 0 {
                self.mark(self.table_turn);
            }
            self.table_turn += 1;
        }
        if self.rules().draw_before_play {
            self.refill(seat, ev);
        }
        *self.phase = Phase::Turn { seat };
    }

    /// `seat`'s turn is over: it draws (1000 Yards) and play passes on.
    fn end_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if !self.rules().draw_before_play {
            self.refill(seat, ev);
        }
        let next = self.next_seat(seat);
        self.begin_turn(next, ev);
    }

    /// Plays a validated turn order.
    fn act(&mut self, seat: Seat, order: Order, missed: bool, ev: &mut Vec<Event>) {
        match order {
            Order::Junk { card } => {
                if self.take_from_hand(seat, card) {
                    self.discard.push(card);
                }
                ev.push(Event::Junked { seat, card, missed });
                self.end_turn(seat, ev);
            }
            Order::Play { card, target } => {
                if !self.take_from_hand(seat, card) {
                    self.end_turn(seat, ev);
                    return;
                }
                self.play(seat, card, target, missed, ev);
            }
            // Not turn orders; validation keeps them out, and a turn still passes.
            _ => self.end_turn(seat, ev),
        }
    }

    fn play(
        &mut self,
        seat: Seat,
        card: Card,
        target: Option<u8>,
        missed: bool,
        ev: &mut Vec<Event>,
    ) {
        let own = self.team_index(seat);
        let go_fixes_stop = self.rules().go_fixes_stop;
        match card.kind() {
            Kind::Distance(v) => {
                let mut reached = None;
                if let Some(t) = self.team_mut(own) {
                    t.distance = if t.counterflow() {
                        t.distance.saturating_sub(v)
                    } else {
                        t.distance + v
                    };
                    t.miles.push(card);
                    reached = Some(t.distance);
                }
                ev.push(Event::Played {
                    seat,
                    card,
                    target: None,
                    missed,
                    distance: reached,
                });
                if reached == Some(self.target) {
                    self.reach_target(seat, ev);
                } else {
                    self.end_turn(seat, ev);
                }
            }
            Kind::Attack => {
                let victim = target.unwrap_or(own);
                ev.push(Event::Played {
                    seat,
                    card,
                    target,
                    missed,
                    distance: None,
                });
                let mut before = Battle::default();
                if let Some(t) = self.team_mut(victim) {
                    before = t.battle.clone();
                    t.battle.problems.push(card);
                    if card.is_battle_attack() {
                        t.battle.needs_go = true;
                    }
                }
                self.after_attack(seat, card, victim, before, ev);
            }
            Kind::Remedy => {
                if let Some(t) = self.team_mut(own) {
                    if let Some(fixed) = card.fixes()
                        && let Some(i) = t.battle.problems.iter().position(|&p| p == fixed)
                    {
                        t.battle.problems.remove(i);
                        t.pile.push(fixed);
                    }
                    t.pile.push(card);
                }
                ev.push(Event::Played {
                    seat,
                    card,
                    target: None,
                    missed,
                    distance: None,
                });
                self.end_turn(seat, ev);
            }
            Kind::Go => {
                if let Some(t) = self.team_mut(own) {
                    if go_fixes_stop
                        && let Some(i) = t.battle.problems.iter().position(|&p| p == Card::Stop)
                    {
                        t.battle.problems.remove(i);
                        t.pile.push(Card::Stop);
                    }
                    t.battle.needs_go = false;
                    t.pile.push(card);
                }
                ev.push(Event::Played {
                    seat,
                    card,
                    target: None,
                    missed,
                    distance: None,
                });
                self.end_turn(seat, ev);
            }
            Kind::Safety => {
                if let Some(t) = self.team_mut(own) {
                    lay_safety(t, card, false);
                }
                ev.push(Event::Played {
                    seat,
                    card,
                    target: None,
                    missed,
                    distance: None,
                });
                // An immunity is a free action: the same seat plays again.
                self.open_turn(seat, false, ev);
            }
        }
    }

    /// After an attack lands: an `auto` holder answers at once; players set to `ask`
    /// get a window; otherwise play passes on.
    fn after_attack(
        &mut self,
        attacker: Seat,
        attack: Card,
        team: u8,
        before: Battle,
        ev: &mut Vec<Event>,
    ) {
        // The attacker's turn is over (in 1000 Yards it draws now), before any answer.
        if !self.rules().draw_before_play {
            self.refill(attacker, ev);
        }
        let resume = self.next_seat(attacker);
        let safety = Card::safety_for(attack);
        let holder = safety.and_then(|s| self.holder(team, s));
        if let (Some(h), Some(s)) = (holder, safety)
            && self.pref(h) == CounterPref::Auto
        {
            self.dirty_trick(h, s, attack, attacker, team, before, false, ev);
            return;
        }
        // The window opens whatever the hands hold, so that it tells nobody anything.
        let n = self.players();
        let victims: Vec<Seat> = (1..=n)
            .filter_map(|k| Seat::from_index((attacker.index() + k) % n))
            .filter(|&s| self.team_index(s) == team && self.pref(s) == CounterPref::Ask)
            .collect();
        if victims.is_empty() {
            self.begin_turn(resume, ev);
            return;
        }
        let round_goes_on = !self.hands.iter().any(Vec::is_empty);
        let next = round_goes_on.then_some(resume);
        ev.push(Event::WindowOpened {
            attack,
            team,
            victims: victims.clone(),
            next,
            seconds: self.options.counter_timeout,
        });
        *self.phase = Phase::Window(CounterWindow {
            attacker,
            attack,
            team,
            victims,
            next,
            resume,
            before,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn dirty_trick(
        &mut self,
        seat: Seat,
        safety: Card,
        attack: Card,
        attacker: Seat,
        team: u8,
        before: Battle,
        missed: bool,
        ev: &mut Vec<Event>,
    ) {
        self.take_from_hand(seat, safety);
        if let Some(t) = self.team_mut(team) {
            // As if the attack had never been played.
            t.battle = before;
            lay_safety(t, safety, true);
        }
        self.discard.push(attack);
        ev.push(Event::DirtyTrick {
            seat,
            safety,
            attack,
            attacker,
            missed,
        });
        // The player draws back to a full hand and takes a turn; play goes on from them.
        self.refill(seat, ev);
        self.begin_turn(seat, ev);
    }

    /// Answers the open window with a validated order.
    fn answer_window(
        &mut self,
        w: CounterWindow,
        seat: Seat,
        order: Order,
        missed: bool,
        ev: &mut Vec<Event>,
    ) {
        match order {
            Order::Counter => {
                let safety = Card::safety_for(w.attack).unwrap_or(Card::RightOfWay);
                self.dirty_trick(
                    seat, safety, w.attack, w.attacker, w.team, w.before, missed, ev,
                );
            }
            Order::Decline => {
                ev.push(Event::WindowClosed {
                    seat,
                    declined: true,
                    missed,
                });
                self.begin_turn(w.resume, ev);
            }
            Order::Draw => {
                ev.push(Event::WindowClosed {
                    seat,
                    declined: false,
                    missed,
                });
                self.begin_turn(seat, ev);
            }
            Order::Play { .. } | Order::Junk { .. } => {
                ev.push(Event::WindowClosed {
                    seat,
                    declined: false,
                    missed,
                });
                self.begin_turn(seat, ev);
                // The play was legal before the draw and stays legal after it.
                if *self.phase == (Phase::Turn { seat }) {
                    let order = if self.check_turn(seat, &order).is_ok() {
                        order
                    } else {
                        bot::heuristic(self, seat)
                    };
                    self.act(seat, order, missed, ev);
                }
            }
            Order::Extend | Order::Finish => self.begin_turn(w.resume, ev),
        }
    }

    fn reach_target(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let team = self.team_index(seat);
        if self.extension_possible() {
            *self.phase = Phase::Extension { seat };
            return;
        }
        self.finish = Some(Finish {
            team,
            deck_empty: self.deck.is_empty(),
        });
        self.end_round(RoundEnd::Trip { team }, ev);
    }

    /// Whether reaching the trip now would offer an extension.
    pub fn extension_possible(&self) -> bool {
        self.rules().extension_offered
            && self.options.extension
            && self.extended_by.is_none()
            && self.target < 1000
    }

    fn decide_extension(&mut self, seat: Seat, extend: bool, missed: bool, ev: &mut Vec<Event>) {
        let team = self.team_index(seat);
        ev.push(Event::ExtensionDecided {
            seat,
            extend,
            missed,
        });
        if extend {
            self.extended_by = Some(team);
            self.target = 1000;
            self.end_turn(seat, ev);
        } else {
            self.finish = Some(Finish {
                team,
                deck_empty: self.deck.is_empty(),
            });
            self.end_round(RoundEnd::Trip { team }, ev);
        }
    }

    /// The round's score for each team, line by line.
    pub fn score_round(&self) -> Vec<RoundScore> {
        let s = self.rules().scoring;
        let finisher = self.finish.map(|f| f.team);
        (0..self.teams.len())
            .filter_map(|i| {
                let t = self.teams.get(i)?;
                let ti = i as u8;
                let won = finisher == Some(ti);
                let mut lines = vec![ScoreLine {
                    line: Line::Distance,
                    points: i64::from(t.distance),
                }];
                let mut add = |line: Line, points: i64| {
                    if points != 0 {
                        lines.push(ScoreLine { line, points });
                    }
                };
                add(Line::Safeties, s.per_safety * t.safeties.len() as i64);
                if t.safeties.len() == 4 && (won || !s.all_safeties_needs_trip) {
                    add(Line::AllSafeties, s.all_safeties);
                }
                let tricks = t.safeties.iter().filter(|p| p.dirty_trick).count() as i64;
                add(Line::DirtyTricks, s.dirty_trick * tricks);
                if won {
                    add(Line::Trip, s.trip);
                    if self.finish.is_some_and(|f| f.deck_empty) {
                        add(Line::Delayed, s.delayed);
                    }
                    if t.two_hundreds() == 0 {
                        add(Line::SafeTrip, s.safe_trip);
                    }
                    if self.extended_by == Some(ti) {
                        add(Line::Extension, s.extension);
                    }
                    let others_idle = self
                        .teams
                        .iter()
                        .enumerate()
                        .all(|(j, o)| j == i || o.distance == 0);
                    if others_idle {
                        add(Line::Shutout, s.shutout);
                    }
                }
                let total = lines.iter().map(|l| l.points).sum();
                Some(RoundScore {
                    team: ti,
                    lines,
                    total,
                })
            })
            .collect()
    }

    fn end_round(&mut self, ended: RoundEnd, ev: &mut Vec<Event>) {
        self.mark(self.table_turn.max(1));
        let scores = self.score_round();
        for sc in &scores {
            if let Some(t) = self.team_mut(sc.team) {
                t.total += sc.total;
            }
        }
        let result = RoundResult {
            round: self.round,
            ended,
            scores,
        };
        self.history.push(result.clone());
        let totals: Vec<i64> = self.teams.iter().map(|t| t.total).collect();
        ev.push(Event::RoundEnded {
            result,
            totals: totals.clone(),
        });
        let o = &self.options;
        let by_rounds = o.rounds > 0 && self.round >= o.rounds;
        let by_score = o.target_score > 0 && totals.iter().any(|&t| t >= i64::from(o.target_score));
        if by_rounds || by_score {
            *self.phase = Phase::Over;
            ev.push(Event::GameEnded {
                winners: self.winning_teams(),
                totals,
            });
        } else {
            self.start_round(self.round + 1, ev);
        }
    }

    /// Teams with the highest total.
    pub fn winning_teams(&self) -> Vec<u8> {
        let best = self.teams.iter().map(|t| t.total).max().unwrap_or(0);
        (0..self.teams.len())
            .filter(|&i| self.teams.get(i).is_some_and(|t| t.total == best))
            .map(|i| i as u8)
            .collect()
    }
}

/// Lays an immunity, which also ends the problems it protects against.
fn lay_safety(t: &mut Team, card: Card, dirty_trick: bool) {
    t.safeties.push(SafetyPlay { card, dirty_trick });
    let protects = card.protects();
    let (gone, kept): (Vec<Card>, Vec<Card>) =
        t.battle.problems.iter().partition(|p| protects.contains(p));
    t.battle.problems = kept;
    t.pile.extend(gone);
}

#[cfg(test)]
mod tests;
