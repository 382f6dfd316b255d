//! The card race's state ([`CardRace`]): the tableaux (distance, problems, immunities),
//! the hands, the deck and the phase, the orders and the events, and the questions every
//! rule asks of them.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::cards::{self, Card};
use super::rules::{self, CounterPref, Options};
use super::standing::{StandingPlays, Standings};
use crate::engine::{DecisionWindow, GameRng, Seat, SeatSetup, Seed, SetupError};

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
    pub(super) fn new(members: Vec<Seat>) -> Team {
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
    pub(super) fn cards(&self) -> usize {
        self.miles.len() + self.battle.problems.len() + self.safeties.len() + self.pile.len()
    }

    /// Clears the round's tableau, returning its cards.
    pub(super) fn clear_round(&mut self) -> Vec<Card> {
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
pub(super) struct Finish {
    pub(super) team: u8,
    pub(super) deck_empty: bool,
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
        window: DecisionWindow,
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
    pub(super) options: Options,
    pub(super) names: Vec<String>,
    pub(super) team_of: Vec<u8>,
    pub(super) teams: Vec<Team>,
    pub(super) hands: Vec<Vec<Card>>,
    /// The draw pile; its top is the last card.
    pub(super) deck: Vec<Card>,
    /// Junked cards, face up.
    pub(super) discard: Vec<Card>,
    pub(super) prefs: Vec<CounterPref>,
    pub(super) round: u32,
    /// This round's trip (700 becomes 1000 after an extension).
    pub(super) target: u32,
    pub(super) extended_by: Option<u8>,
    pub(super) finish: Option<Finish>,
    pub(super) reshuffles_left: u32,
    /// Boxed to keep the registry's enum of states small.
    pub(super) phase: Box<Phase>,
    pub(super) history: Vec<RoundResult>,
    /// Decks fixed by a replay script for the coming rounds, top card first.
    #[serde(default)]
    pub(super) stacked: Vec<Vec<Card>>,
    /// For each stacked deck, how many of its last cards start the round in the junk pile
    /// (a script that states a short draw pile).
    #[serde(default)]
    pub(super) stacked_junk: Vec<usize>,
    /// This round's distances turn by turn, for the race chart.
    #[serde(default)]
    pub(super) marks: Vec<TurnMark>,
    /// Turns of the table begun this round.
    #[serde(default)]
    pub(super) table_turn: u32,
    /// Each seat's standing plays (`standing`); a state saved before them has none.
    #[serde(default)]
    pub(super) standing: Standings,
    pub(super) rng: GameRng,
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
        CardRace::setup_scripted(options, seats, seed, decks, Vec::new())
    }

    /// As [`Self::setup_stacked`]; `junk[i]` of round `i + 1`'s deck's last cards start
    /// that round face up in the junk pile instead of the draw pile.
    pub fn setup_scripted(
        options: &Options,
        seats: &[SeatSetup],
        seed: Seed,
        decks: Vec<Vec<Card>>,
        junk: Vec<usize>,
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
        game.stacked_junk = junk;
        let mut events = Vec::new();
        game.start_round(1, &mut events);
        Ok(game)
    }

    /// The state before the first deal.
    pub(super) fn new(
        options: &Options,
        seats: &[SeatSetup],
        seed: Seed,
    ) -> Result<CardRace, SetupError> {
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
                    reason: rules::choice_error(options.rules()),
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
            stacked_junk: Vec::new(),
            marks: Vec::new(),
            table_turn: 0,
            standing: Standings::every(
                n,
                if options.standing_plays {
                    StandingPlays::conservative()
                } else {
                    StandingPlays::none()
                },
            ),
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
    pub(super) fn starter(&self) -> Seat {
        let n = self.players().max(1);
        Seat::from_index((self.round as usize).saturating_sub(1) % n).unwrap_or(Seat(0))
    }

    /// Notes the distances as a turn of the table ends (or the round does).
    pub(super) fn mark(&mut self, turn: u32) {
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

    /// The seat's standing plays (none for a seat of a state saved before them).
    pub fn standing(&self, seat: Seat) -> StandingPlays {
        self.standing.of(seat.index())
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

    pub(super) fn next_seat(&self, seat: Seat) -> Seat {
        let n = self.players().max(1);
        Seat::from_index((seat.index() + 1) % n).unwrap_or(Seat(0))
    }

    pub(super) fn team_mut(&mut self, team: u8) -> Option<&mut Team> {
        self.teams.get_mut(usize::from(team))
    }

    pub(super) fn take_from_hand(&mut self, seat: Seat, card: Card) -> bool {
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
}
