//! The card race behind the [`Game`] contract: reading orders, checking them, the
//! prompts, the views (hands never in the public one) and the narration.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::cards::{Card, Kind, normalise, read_card};
use super::rules::{OPTION_DOCS, Options};
use super::{
    CardRace, CounterPref, Event, Line, Order, Phase, RoundEnd, RoundResult, SafetyPlay, Team,
    TurnMark, bot,
};
use crate::engine::{
    BotLevel, Choice, Game, GameRng, Mode, Narration, OptionDoc, OptionsError, Outcome, Pending,
    PreferenceError, Prompt, Seat, SeatSetup, Seed, SetupError, Submitted, Window,
};

/// Order text that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("the order is empty; try `play 100`, `stop @Bob` or `junk 25`")]
    Empty,
    #[error("I don't know the card `{0}`; try `play 100`, `stop @Bob` or `junk 25`")]
    UnknownCard(String),
    #[error("there is no player called `{0}` at this table")]
    UnknownPlayer(String),
    #[error("`{0}` needs a card, like `{0} 25`")]
    MissingCard(String),
    #[error("{0} is played on your own car; leave out the name")]
    TargetNotNeeded(String),
    #[error("`{0}` takes nothing after it")]
    Trailing(String),
}

/// An order that is read but not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalOrder {
    #[error("the game is over")]
    GameOver,
    #[error("it isn't your turn")]
    NotYourTurn,
    #[error("you don't have {0} in your hand")]
    NotInHand(String),
    #[error("say whom to attack, like `{0} @Name`")]
    NeedTarget(String),
    #[error("you can't attack your own team")]
    OwnTeam,
    #[error("{who} is protected against {card} by {safety}")]
    Protected {
        who: String,
        card: String,
        safety: String,
    },
    #[error("{who} already has {card}")]
    AlreadyHas { who: String, card: String },
    #[error("{who} is already stopped; you can only attack a car that is rolling")]
    NotRolling { who: String },
    #[error("you can't drive: {0}")]
    Stopped(String),
    #[error("you are under a {0}: only 25 and 50 may be played")]
    Limited(String),
    #[error("you have already played two 200s this round")]
    TwoHundreds,
    #[error(
        "{card} would take you to {would}, past the {target} of the trip; it must be reached exactly"
    )]
    TooFar {
        card: String,
        would: u32,
        target: u32,
    },
    #[error("there is nothing for {0} to fix")]
    NothingToFix(String),
    #[error("you have {0}: you never need a {1}")]
    GoNotNeeded(String, String),
    #[error("fix the {0} before the {1}")]
    FixFirst(String, String),
    #[error("you are already rolling")]
    AlreadyRolling,
    #[error("there is no attack to answer now")]
    NoWindow,
    #[error("the {0} wasn't played on your team")]
    NotYourAttack(String),
    #[error("you don't hold {0}, so you can't answer with a {1}")]
    NoSafety(String, String),
    #[error("it isn't your turn yet: you may only `counter` or `decline` now")]
    OnlyAnswer,
    #[error("wait for your turn")]
    WaitForTurn,
    #[error("in 1000 Yards you draw at the end of your turn; play or junk a card")]
    NoDrawNow,
    #[error("you have already drawn: play or junk a card")]
    AlreadyDrew,
    #[error("first answer `extend` or `finish`")]
    AnswerExtension,
    #[error("there is no extension to decide now")]
    NoExtension,
}

/// One player as the channel sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub name: String,
    pub team: u8,
    pub hand_size: usize,
    pub dirty_trick: CounterPref,
}

/// One team's tableau as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamView {
    pub team: u8,
    pub label: String,
    pub members: Vec<Seat>,
    pub distance: u32,
    pub rolling: bool,
    /// Attacks in force.
    pub problems: Vec<Card>,
    /// Waiting for a green light.
    pub needs_go: bool,
    pub limited: bool,
    pub counterflow: bool,
    pub safeties: Vec<SafetyPlay>,
    pub two_hundreds: usize,
    /// Distance cards played, by value.
    pub miles: Vec<Card>,
    /// This round's score so far (without the bonuses for completing the trip).
    pub round_score: i64,
    /// Score from finished rounds.
    pub total: i64,
}

/// The dirty-trick window as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowView {
    pub attacker: Seat,
    pub attack: Card,
    pub team: u8,
    pub victims: Vec<Seat>,
    pub next: Option<Seat>,
    pub seconds: u64,
}

/// What the channel sees: never a hand, never the deck's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub title: String,
    pub unit: String,
    /// Use 1000 Yards' card names.
    pub yards_names: bool,
    pub round: u32,
    pub target: u32,
    pub target_score: u32,
    pub rounds: u32,
    pub extended_by: Option<u8>,
    pub teams: Vec<TeamView>,
    pub players: Vec<PlayerView>,
    pub deck_left: usize,
    pub discard: Vec<Card>,
    pub turn: Option<Seat>,
    pub window: Option<WindowView>,
    pub extension_decision: Option<Seat>,
    pub history: Vec<RoundResult>,
    pub finished: bool,
    pub winners: Vec<Seat>,
    /// This round's distances turn by turn, for the race chart.
    #[serde(default)]
    pub turns: Vec<TurnMark>,
}

/// One seat's DM: its hand and its team's tableau.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub yards_names: bool,
    pub target: u32,
    pub hand: Vec<Card>,
    pub tableau: TeamView,
    pub your_turn: bool,
    /// An attack on your team that you may answer now.
    pub may_counter: bool,
    pub dirty_trick: CounterPref,
    pub deck_left: usize,
}

impl CardRace {
    fn who(&self, team: u8) -> String {
        self.team_label(team)
    }

    /// Whether `seat` may play a card now (its turn, or next to act in a window).
    fn may_play(&self, seat: Seat) -> bool {
        match self.phase.as_ref() {
            Phase::Turn { seat: s } => *s == seat,
            Phase::Window(w) => w.next == Some(seat),
            _ => false,
        }
    }

    /// Why `team` cannot drive, in words.
    fn stopped_reason(&self, t: &Team) -> String {
        let problems: Vec<&str> = t
            .battle
            .problems
            .iter()
            .filter(|p| p.is_battle_attack())
            .map(|&p| self.card_name(p))
            .collect();
        if problems.is_empty() {
            format!("you need a {}", self.card_name(Card::Go))
        } else {
            format!("you have a {}", problems.join(" and a "))
        }
    }

    /// Whether `attack` may go on `team` now.
    pub fn check_attack(&self, team: u8, attack: Card) -> Result<(), IllegalOrder> {
        let Some(t) = self.team(team) else {
            return Err(IllegalOrder::NeedTarget(self.card_name(attack).into()));
        };
        let who = self.who(team);
        if t.immune_to(attack) {
            return Err(IllegalOrder::Protected {
                who,
                card: a(self.card_name(attack)),
                safety: Card::safety_for(attack)
                    .map(|s| self.card_name(s))
                    .unwrap_or("?")
                    .into(),
            });
        }
        if t.has(attack) {
            return Err(IllegalOrder::AlreadyHas {
                who,
                card: a(self.card_name(attack)),
            });
        }
        if self.options.attacks_cumulate {
            return Ok(());
        }
        let needs_rolling = attack.is_battle_attack()
            || (attack == Card::Limit && self.rules().limit_needs_rolling);
        if needs_rolling && !t.rolling() {
            return Err(IllegalOrder::NotRolling { who });
        }
        Ok(())
    }

    /// Checks a play or junk for the seat whose turn it is.
    pub(super) fn check_turn(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        let (card, target) = match *order {
            Order::Junk { card } => {
                return if self.hand(seat).contains(&card) {
                    Ok(())
                } else {
                    Err(IllegalOrder::NotInHand(a(self.card_name(card))))
                };
            }
            Order::Play { card, target } => (card, target),
            _ => return Err(IllegalOrder::NoWindow),
        };
        let name = self.card_name(card);
        if !self.hand(seat).contains(&card) {
            return Err(IllegalOrder::NotInHand(a(name)));
        }
        let own = self.team_index(seat);
        let Some(t) = self.team(own) else {
            return Err(IllegalOrder::GameOver);
        };
        match card.kind() {
            Kind::Distance(v) => {
                if !t.rolling() {
                    return Err(IllegalOrder::Stopped(self.stopped_reason(t)));
                }
                if t.limited() && v > 50 {
                    return Err(IllegalOrder::Limited(self.card_name(Card::Limit).into()));
                }
                if card == Card::D200 && t.two_hundreds() >= 2 {
                    return Err(IllegalOrder::TwoHundreds);
                }
                if !t.counterflow() && t.distance + v > self.target {
                    return Err(IllegalOrder::TooFar {
                        card: name.into(),
                        would: t.distance + v,
                        target: self.target,
                    });
                }
                Ok(())
            }
            Kind::Attack => {
                let Some(victim) = target else {
                    return Err(IllegalOrder::NeedTarget(name.into()));
                };
                if victim == own {
                    return Err(IllegalOrder::OwnTeam);
                }
                self.check_attack(victim, card)
            }
            Kind::Remedy => match card.fixes() {
                Some(p) if t.has(p) => Ok(()),
                _ => Err(IllegalOrder::NothingToFix(a(name))),
            },
            Kind::Go => {
                if t.has_safety(Card::RightOfWay) {
                    return Err(IllegalOrder::GoNotNeeded(
                        self.card_name(Card::RightOfWay).into(),
                        name.into(),
                    ));
                }
                let go_fixes_stop = self.rules().go_fixes_stop;
                if let Some(p) = t
                    .battle
                    .problems
                    .iter()
                    .find(|p| p.is_battle_attack() && !(go_fixes_stop && **p == Card::Stop))
                {
                    return Err(IllegalOrder::FixFirst(
                        self.card_name(*p).into(),
                        name.into(),
                    ));
                }
                if !(t.battle.needs_go || (go_fixes_stop && t.has(Card::Stop))) {
                    return Err(IllegalOrder::AlreadyRolling);
                }
                Ok(())
            }
            Kind::Safety => Ok(()),
        }
    }

    fn check(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        match self.phase.as_ref() {
            Phase::Over => Err(IllegalOrder::GameOver),
            Phase::Extension { seat: s } => match order {
                Order::Extend | Order::Finish if *s == seat => Ok(()),
                _ if *s == seat => Err(IllegalOrder::AnswerExtension),
                _ => Err(IllegalOrder::NotYourTurn),
            },
            Phase::Turn { seat: s } => {
                if *s != seat {
                    return Err(IllegalOrder::NotYourTurn);
                }
                match order {
                    Order::Play { .. } | Order::Junk { .. } => self.check_turn(seat, order),
                    Order::Counter | Order::Decline => Err(IllegalOrder::NoWindow),
                    Order::Draw if self.rules().draw_before_play => Err(IllegalOrder::AlreadyDrew),
                    Order::Draw => Err(IllegalOrder::NoDrawNow),
                    Order::Extend | Order::Finish => Err(IllegalOrder::NoExtension),
                }
            }
            Phase::Window(w) => {
                let victim = w.victims.contains(&seat);
                let next = w.next == Some(seat);
                match order {
                    Order::Counter => {
                        let attack = self.card_name(w.attack).to_string();
                        if !victim {
                            return Err(IllegalOrder::NotYourAttack(attack));
                        }
                        let safety = Card::safety_for(w.attack).unwrap_or(Card::RightOfWay);
                        if !self.hand(seat).contains(&safety) {
                            return Err(IllegalOrder::NoSafety(
                                self.card_name(safety).into(),
                                self.rules().dirty_trick_name.into(),
                            ));
                        }
                        Ok(())
                    }
                    Order::Decline if victim => Ok(()),
                    Order::Decline => {
                        Err(IllegalOrder::NotYourAttack(self.card_name(w.attack).into()))
                    }
                    Order::Draw if next && self.rules().draw_before_play => Ok(()),
                    Order::Draw if next => Err(IllegalOrder::NoDrawNow),
                    Order::Draw => Err(IllegalOrder::OnlyAnswer),
                    Order::Play { .. } | Order::Junk { .. } if next => self.check_turn(seat, order),
                    Order::Play { .. } | Order::Junk { .. } if victim => {
                        Err(IllegalOrder::OnlyAnswer)
                    }
                    Order::Play { .. } | Order::Junk { .. } => Err(IllegalOrder::WaitForTurn),
                    Order::Extend | Order::Finish => Err(IllegalOrder::NoExtension),
                }
            }
        }
    }

    /// Every play and junk open to `seat` now, targets spelled out.
    pub fn turn_orders(&self, seat: Seat) -> Vec<Order> {
        let mut cards: Vec<Card> = self.hand(seat).to_vec();
        cards.sort();
        cards.dedup();
        let mut out = Vec::new();
        for &card in &cards {
            if card.is_attack() {
                for t in 0..self.teams.len() as u8 {
                    let o = Order::Play {
                        card,
                        target: Some(t),
                    };
                    if self.check_turn(seat, &o).is_ok() {
                        out.push(o);
                    }
                }
            } else {
                let o = Order::Play { card, target: None };
                if self.check_turn(seat, &o).is_ok() {
                    out.push(o);
                }
            }
        }
        out.extend(cards.into_iter().map(|card| Order::Junk { card }));
        out
    }

    /// Every legal order for `seat` now.
    pub fn legal_orders(&self, seat: Seat) -> Vec<Order> {
        match self.phase.as_ref() {
            Phase::Over => Vec::new(),
            Phase::Extension { seat: s } if *s == seat => vec![Order::Extend, Order::Finish],
            Phase::Extension { .. } => Vec::new(),
            Phase::Turn { seat: s } if *s == seat => self.turn_orders(seat),
            Phase::Turn { .. } => Vec::new(),
            Phase::Window(w) => {
                let mut out = Vec::new();
                if w.victims.contains(&seat) {
                    if self.check(seat, &Order::Counter).is_ok() {
                        out.push(Order::Counter);
                    }
                    out.push(Order::Decline);
                }
                if w.next == Some(seat) {
                    if self.rules().draw_before_play {
                        out.push(Order::Draw);
                    }
                    out.extend(self.turn_orders(seat));
                }
                out
            }
        }
    }

    fn team_view(&self, i: usize, t: &Team) -> TeamView {
        let s = self.rules().scoring;
        let mut round_score = i64::from(t.distance) + s.per_safety * t.safeties.len() as i64;
        round_score += s.dirty_trick * t.safeties.iter().filter(|p| p.dirty_trick).count() as i64;
        if t.safeties.len() == 4 && !s.all_safeties_needs_trip {
            round_score += s.all_safeties;
        }
        let mut miles = t.miles.clone();
        miles.sort();
        TeamView {
            team: i as u8,
            label: self.team_label(i as u8),
            members: t.members.clone(),
            distance: t.distance,
            rolling: t.rolling(),
            problems: t.battle.problems.clone(),
            needs_go: t.battle.needs_go && !t.has_safety(Card::RightOfWay),
            limited: t.limited(),
            counterflow: t.counterflow(),
            safeties: t.safeties.clone(),
            two_hundreds: t.two_hundreds(),
            miles,
            round_score,
            total: t.total,
        }
    }

    fn target_seat_name(&self, team: u8) -> String {
        self.team(team)
            .and_then(|t| t.members.first())
            .map(|&s| self.name(s).to_string())
            .unwrap_or_default()
    }

    fn read_target(&self, text: &str) -> Result<Option<u8>, SyntaxError> {
        let t = text.trim();
        let t = t
            .strip_prefix("on ")
            .or_else(|| t.strip_prefix("at "))
            .or_else(|| t.strip_prefix("->"))
            .or_else(|| t.strip_prefix('→'))
            .unwrap_or(t)
            .trim();
        let t = t.strip_prefix('@').unwrap_or(t).trim();
        if t.is_empty() {
            return Ok(None);
        }
        let wanted = normalise(t);
        Seat::all(self.players())
            .find(|&s| normalise(self.name(s)) == wanted)
            .map(|s| Some(self.team_index(s)))
            .ok_or_else(|| SyntaxError::UnknownPlayer(text.trim().chars().take(40).collect()))
    }

    fn order_label(&self, order: &Order) -> String {
        match *order {
            Order::Play { card, target } => match target {
                Some(t) => format!("{} → {}", self.card_name(card), self.team_label(t)),
                None => self.card_name(card).to_string(),
            },
            Order::Junk { card } => format!("junk {}", self.card_name(card)),
            Order::Counter => format!("{}!", self.rules().dirty_trick_name),
            Order::Decline => "let it stand".into(),
            Order::Draw => "draw and play".into(),
            Order::Extend => "extend to 1000".into(),
            Order::Finish => format!("stop at {}", self.target),
        }
    }

    fn played_text(
        &self,
        seat: Seat,
        card: Card,
        target: Option<u8>,
        distance: Option<u32>,
    ) -> String {
        let who = self.name(seat);
        let name = self.card_name(card);
        match card.kind() {
            Kind::Distance(_) => format!(
                "{who} plays {name}: {} {}.",
                distance.unwrap_or(0),
                self.rules().unit
            ),
            Kind::Attack => format!(
                "{who} plays {} on {}.",
                a(name),
                target.map(|t| self.team_label(t)).unwrap_or_default()
            ),
            Kind::Safety => format!("{who} plays {name} (immunity) and plays again."),
            _ => format!("{who} plays {name}."),
        }
    }

    fn line_name(&self, line: Line) -> &'static str {
        let r = self.rules();
        match line {
            Line::Distance => "distance",
            Line::Safeties => "immunities",
            Line::AllSafeties => "all four immunities",
            Line::DirtyTricks => r.dirty_trick_name,
            Line::Trip => "trip completed",
            Line::Delayed => r.delayed_name,
            Line::SafeTrip => "safe trip",
            Line::Extension => "extension",
            Line::Shutout => r.shutout_name,
        }
    }

    /// "Alice & Carol: 950 distance + 200 immunities = 1150 (total 2300)".
    pub fn score_text(&self, sc: &super::RoundScore, total: Option<i64>) -> String {
        let parts: Vec<String> = sc
            .lines
            .iter()
            .map(|l| format!("{} {}", l.points, self.line_name(l.line)))
            .collect();
        let mut s = format!(
            "{}: {} = {}",
            self.team_label(sc.team),
            parts.join(" + "),
            sc.total
        );
        if let Some(t) = total {
            s.push_str(&format!(" (total {t})"));
        }
        s
    }

    fn hand_text(&self, cards: &[Card]) -> String {
        cards
            .iter()
            .map(|&c| self.card_name(c))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn missed_note(missed: bool) -> &'static str {
    if missed {
        " (missed turn: played by the bot)"
    } else {
        ""
    }
}

impl Game for CardRace {
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

    fn check_options(options: &Options) -> Result<(), OptionsError> {
        options.check()
    }

    fn seat_limits(options: &Options) -> (usize, usize) {
        let counts = options.rules().seat_counts;
        (
            counts.iter().copied().min().unwrap_or(2),
            counts.iter().copied().max().unwrap_or(2),
        )
    }

    fn seat_choice_help() -> Option<&'static str> {
        Some("dirty-trick auto (the default) or dirty-trick ask")
    }

    fn check_seat_choice(_: &Options, choice: &str) -> Result<(), String> {
        CounterPref::parse(choice)
            .map(|_| ())
            .ok_or_else(|| "the choice is `dirty-trick auto` or `dirty-trick ask`".into())
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        CardRace::setup_stacked(options, seats, seed, Vec::new())
    }

    fn pending(&self) -> Pending {
        match self.phase.as_ref() {
            Phase::Over => Pending::none(),
            Phase::Turn { seat } => Pending::one(
                *seat,
                format!("Round {}: {} to play", self.round, self.name(*seat)),
            ),
            Phase::Extension { seat } => Pending::one(
                *seat,
                format!("{}: extend the trip to 1000?", self.name(*seat)),
            ),
            Phase::Window(w) => {
                let mut seats = w.victims.clone();
                if let Some(n) = w.next
                    && !seats.contains(&n)
                {
                    seats.push(n);
                }
                Pending {
                    mode: Mode::Any,
                    seats,
                    window: Window::Seconds(self.options.counter_timeout),
                    label: format!(
                        "{} may answer the {} with a {}",
                        self.team_label(w.team),
                        self.card_name(w.attack),
                        self.rules().dirty_trick_name
                    ),
                }
            }
        }
    }

    fn prompt(&self, seat: Seat) -> Prompt {
        let orders = self.legal_orders(seat);
        let choices = orders
            .iter()
            .map(|o| {
                let c = Choice::new(self.format_order(seat, o), self.order_label(o));
                match o {
                    Order::Play { card, .. } => c.grouped(self.card_name(*card)),
                    Order::Junk { .. } => c.grouped("junk"),
                    _ => c,
                }
            })
            .collect();
        let text = match self.phase.as_ref() {
            Phase::Window(w) if w.victims.contains(&seat) => format!(
                "{} played a {} on your team. Answer with a {}?",
                self.name(w.attacker),
                self.card_name(w.attack),
                self.rules().dirty_trick_name
            ),
            Phase::Window(w) => format!(
                "Your turn is next: {} may still answer the {}. Play to go on.",
                self.team_label(w.team),
                self.card_name(w.attack)
            ),
            Phase::Extension { .. } => format!(
                "You reached exactly {}. Extend the trip to 1000, or stop here?",
                self.target
            ),
            Phase::Turn { .. } => {
                format!("Your turn. Your hand: {}.", self.hand_text(self.hand(seat)))
            }
            Phase::Over => "The game is over.".into(),
        };
        Prompt {
            text,
            choices,
            complete: true,
            hint: "Send `play 100`, `stop @Bob` (an attack names a player), `junk 25`; \
                   in a dirty-trick window `counter` or `decline`; at 700 `extend` or `finish`."
                .into(),
        }
    }

    fn parse_order(&self, seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        let raw = text.trim();
        // Names may hold spaces or hyphens: keep the target's text as typed.
        let (card_part, target_part) = match raw.split_once('@') {
            Some((a, b)) => (a, Some(b)),
            None => (raw, None),
        };
        let t = normalise(card_part);
        if t.is_empty() && target_part.is_none() {
            return Err(SyntaxError::Empty);
        }
        let single = |word: &str, order: Order| -> Result<Order, SyntaxError> {
            if target_part.is_some() {
                Err(SyntaxError::Trailing(word.into()))
            } else {
                Ok(order)
            }
        };
        match t.as_str() {
            "counter" | "dirty trick" | "coup fourre" | "coup fourré" | "yes" => {
                return single("counter", Order::Counter);
            }
            "decline" | "pass" | "no" | "let it stand" => return single("decline", Order::Decline),
            "draw" => return single("draw", Order::Draw),
            "extend" | "extension" => return single("extend", Order::Extend),
            "finish" | "end" | "no extension" => {
                return single("finish", Order::Finish);
            }
            _ => {}
        }
        let (junk, rest) =
            if let Some(r) = t.strip_prefix("junk").or_else(|| t.strip_prefix("discard")) {
                if r.is_empty() || r.starts_with(' ') {
                    (true, r.trim())
                } else {
                    (false, t.as_str())
                }
            } else if t == "play" {
                (false, "")
            } else if let Some(r) = t.strip_prefix("play ") {
                (false, r.trim())
            } else {
                (false, t.as_str())
            };
        if rest.is_empty() {
            return Err(SyntaxError::MissingCard(
                if junk { "junk" } else { "play" }.into(),
            ));
        }
        let (card, after) = read_card(rest)
            .ok_or_else(|| SyntaxError::UnknownCard(rest.chars().take(40).collect()))?;
        let target = match target_part {
            Some(name) => {
                // `stop on @Bob`, `stop at @Bob`.
                let after = after.trim_end_matches("on").trim_end_matches("at").trim();
                if !after.is_empty() {
                    return Err(SyntaxError::UnknownCard(rest.chars().take(40).collect()));
                }
                self.read_target(name)?
            }
            // Without @ the rest is a name, e.g. `stop bob`.
            None => self.read_target(after)?,
        };
        if junk {
            if target.is_some() {
                return Err(SyntaxError::Trailing(format!(
                    "junk {}",
                    self.card_name(card)
                )));
            }
            return Ok(Order::Junk { card });
        }
        if !card.is_attack() {
            if target.is_some() {
                return Err(SyntaxError::TargetNotNeeded(capitalise(&a(
                    self.card_name(card)
                ))));
            }
            return Ok(Order::Play { card, target: None });
        }
        // Against a single other team the target may be left out.
        let target = target.or_else(|| {
            let own = self.team_index(seat);
            let others: Vec<u8> = (0..self.teams.len() as u8).filter(|&t| t != own).collect();
            match others.as_slice() {
                [only] => Some(*only),
                _ => None,
            }
        });
        Ok(Order::Play { card, target })
    }

    fn validate(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        self.check(seat, order)
    }

    fn format_order(&self, _seat: Seat, order: &Order) -> String {
        match *order {
            Order::Play { card, target } => match target {
                Some(t) => format!(
                    "play {} @{}",
                    self.card_name(card),
                    self.target_seat_name(t)
                ),
                None => format!("play {}", self.card_name(card)),
            },
            Order::Junk { card } => format!("junk {}", self.card_name(card)),
            Order::Counter => "counter".into(),
            Order::Decline => "decline".into(),
            Order::Draw => "draw".into(),
            Order::Extend => "extend".into(),
            Order::Finish => "finish".into(),
        }
    }

    fn default_order(&self, seat: Seat) -> Order {
        match self.phase.as_ref() {
            // At the deadline an unanswered attack stands.
            Phase::Window(w) if w.victims.contains(&seat) => Order::Decline,
            _ => bot::heuristic(self, seat),
        }
    }

    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        let orders = self.legal_orders(seat);
        rng.choose(&orders)
            .copied()
            .unwrap_or_else(|| bot::heuristic(self, seat))
    }

    fn bot_order(&self, seat: Seat, level: BotLevel, rng: &mut GameRng) -> Order {
        match level {
            BotLevel::Random => self.random_order(seat, rng),
            BotLevel::Heuristic => bot::heuristic(self, seat),
        }
    }

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        let mut ev = Vec::new();
        let pending = self.pending();
        let Some(&first) = pending.seats.first() else {
            return ev;
        };
        let chosen = orders
            .iter()
            .find(|s| pending.includes(s.seat) && self.check(s.seat, &s.order).is_ok());
        let (seat, order, missed) = match chosen {
            Some(s) => (s.seat, s.order, s.missed),
            None => (first, self.default_order(first), true),
        };
        match self.phase.as_ref().clone() {
            Phase::Turn { .. } => self.act(seat, order, missed, &mut ev),
            Phase::Extension { .. } => {
                self.decide_extension(seat, order == Order::Extend, missed, &mut ev)
            }
            Phase::Window(w) => self.answer_window(w, seat, order, missed, &mut ev),
            Phase::Over => {}
        }
        ev
    }

    fn narrate(&self, event: &Event) -> Narration {
        match event {
            Event::RoundStarted {
                round,
                starter,
                cards,
                target,
            } => Narration::public(format!(
                "Round {round} begins: {cards} cards, a trip of {target} {}. {} plays first.",
                self.rules().unit,
                self.name(*starter)
            )),
            Event::Dealt { seat, cards } => {
                Narration::to_seat(*seat, format!("Your hand: {}.", self.hand_text(cards)))
            }
            Event::Drew { seat, cards } => {
                Narration::to_seat(*seat, format!("You draw {}.", self.hand_text(cards)))
            }
            Event::Reshuffled { cards } => Narration::public(format!(
                "The draw pile is empty: the {cards} junked cards are shuffled back into it."
            )),
            Event::Played {
                seat,
                card,
                target,
                missed,
                distance,
            } => Narration::public(format!(
                "{}{}",
                self.played_text(*seat, *card, *target, *distance),
                missed_note(*missed)
            )),
            Event::Junked { seat, card, missed } => Narration::public(format!(
                "{} junks {}.{}",
                self.name(*seat),
                self.card_name(*card),
                missed_note(*missed)
            )),
            Event::WindowOpened {
                attack,
                team,
                victims,
                next,
                seconds,
            } => {
                let names: Vec<&str> = victims.iter().map(|&s| self.name(s)).collect();
                let until = match next {
                    Some(n) => format!("until {} plays or {} s pass", self.name(*n), seconds),
                    None => format!("for {seconds} s"),
                };
                Narration::public(format!(
                    "{} may answer the {} on {} with a {} {until}.",
                    names.join(" or "),
                    self.card_name(*attack),
                    self.team_label(*team),
                    self.rules().dirty_trick_name
                ))
            }
            Event::DirtyTrick {
                seat,
                safety,
                attack,
                attacker,
                ..
            } => Narration::public(format!(
                "{}! {} answers {}'s {} with {} (+{}) and plays next.",
                capitalise(self.rules().dirty_trick_name),
                self.name(*seat),
                self.name(*attacker),
                self.card_name(*attack),
                self.card_name(*safety),
                self.rules().scoring.dirty_trick
            )),
            Event::WindowClosed {
                seat,
                declined,
                missed,
            } => Narration::public(if *declined && *missed {
                "Time is up: the attack stands.".to_string()
            } else if *declined {
                format!("{} lets the attack stand.", self.name(*seat))
            } else {
                format!("{} plays on: the attack stands.", self.name(*seat))
            }),
            Event::ExtensionDecided {
                seat,
                extend,
                missed,
            } => Narration::public(if *extend {
                format!(
                    "{} calls an extension: the trip is now 1000 {}.{}",
                    self.name(*seat),
                    self.rules().unit,
                    missed_note(*missed)
                )
            } else {
                format!(
                    "{} stops: the trip is complete.{}",
                    self.name(*seat),
                    missed_note(*missed)
                )
            }),
            Event::RoundEnded { result, totals } => {
                let why = match result.ended {
                    RoundEnd::Trip { team } => {
                        format!("{} completes the trip", self.team_label(team))
                    }
                    RoundEnd::NoCards => "a player has no card left".to_string(),
                };
                let mut lines = vec![format!("Round {} ends: {why}.", result.round)];
                for sc in &result.scores {
                    let total = totals.get(usize::from(sc.team)).copied();
                    lines.push(self.score_text(sc, total));
                }
                Narration::public(lines.join("\n"))
            }
            Event::GameEnded { winners, totals } => {
                let names: Vec<String> = winners.iter().map(|&t| self.team_label(t)).collect();
                let best = winners
                    .first()
                    .and_then(|&t| totals.get(usize::from(t)))
                    .copied()
                    .unwrap_or(0);
                Narration::public(if winners.len() > 1 {
                    format!("{} share the win with {best} points!", names.join(" and "))
                } else {
                    format!("{} win with {best} points!", names.join(""))
                })
            }
        }
    }

    fn public_view(&self) -> PublicView {
        let finished = *self.phase == Phase::Over;
        PublicView {
            title: self.rules().title.into(),
            unit: self.rules().unit.into(),
            yards_names: self.rules().yards_names,
            round: self.round,
            target: self.target,
            target_score: self.options.target_score,
            rounds: self.options.rounds,
            extended_by: self.extended_by,
            teams: self
                .teams
                .iter()
                .enumerate()
                .map(|(i, t)| self.team_view(i, t))
                .collect(),
            players: Seat::all(self.players())
                .map(|s| PlayerView {
                    seat: s,
                    name: self.name(s).into(),
                    team: self.team_index(s),
                    hand_size: self.hand(s).len(),
                    dirty_trick: self.pref(s),
                })
                .collect(),
            deck_left: self.deck.len(),
            discard: self.discard.clone(),
            turn: match self.phase.as_ref() {
                Phase::Turn { seat } => Some(*seat),
                _ => None,
            },
            window: match self.phase.as_ref() {
                Phase::Window(w) => Some(WindowView {
                    attacker: w.attacker,
                    attack: w.attack,
                    team: w.team,
                    victims: w.victims.clone(),
                    next: w.next,
                    seconds: self.options.counter_timeout,
                }),
                _ => None,
            },
            extension_decision: match self.phase.as_ref() {
                Phase::Extension { seat } => Some(*seat),
                _ => None,
            },
            history: self.history.clone(),
            finished,
            winners: self.outcome().map(|o| o.winners()).unwrap_or_default(),
            turns: self.marks.clone(),
        }
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        let team = self.team_index(seat);
        let tableau = self
            .team(team)
            .map(|t| self.team_view(usize::from(team), t))
            .unwrap_or_else(|| self.team_view(0, &Team::new(Vec::new())));
        let mut hand = self.hand(seat).to_vec();
        hand.sort();
        PrivateView {
            seat,
            name: self.name(seat).into(),
            yards_names: self.rules().yards_names,
            target: self.target,
            hand,
            tableau,
            your_turn: self.may_play(seat),
            may_counter: matches!(self.phase.as_ref(), Phase::Window(w) if w.victims.contains(&seat))
                && self.check(seat, &Order::Counter).is_ok(),
            dirty_trick: self.pref(seat),
            deck_left: self.deck.len(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if *self.phase != Phase::Over {
            return None;
        }
        let scores: Vec<(Seat, i64)> = Seat::all(self.players())
            .map(|s| (s, self.team_of(s).map(|t| t.total).unwrap_or(0)))
            .collect();
        Some(Outcome::from_scores(&scores))
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        let hidden: Vec<Seat> = Seat::all(self.players())
            .filter(|&s| Some(s) != viewer)
            .collect();
        let mut pool = std::mem::take(&mut g.deck);
        for &s in &hidden {
            if let Some(h) = g.hands.get_mut(s.index()) {
                pool.append(h);
            }
        }
        rng.shuffle(&mut pool);
        for &s in &hidden {
            let n = self.hand(s).len();
            if let Some(h) = g.hands.get_mut(s.index()) {
                let at = pool.len().saturating_sub(n);
                *h = pool.split_off(at);
            }
        }
        g.deck = pool;
        g
    }

    fn set_preference(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
        let pref = CounterPref::parse(text).ok_or_else(|| {
            PreferenceError::Invalid(
                "write `dirty-trick auto` (play it the instant the attack lands) or \
                 `dirty-trick ask` (a button, and a short window to answer)"
                    .into(),
            )
        })?;
        let slot = self
            .prefs
            .get_mut(seat.index())
            .ok_or_else(|| PreferenceError::Invalid("you have no seat in this game".into()))?;
        *slot = pref;
        Ok(match pref {
            CounterPref::Auto => {
                "Dirty tricks: auto. When you hold the immunity, it is played the instant the attack lands."
                    .into()
            }
            CounterPref::Ask => format!(
                "Dirty tricks: ask. After an attack on your team you get {} s to answer `counter` \
                 or `decline`; the next player's play closes the window. Beware: how long you \
                 take can tell the table that you hold the card.",
                self.options.counter_timeout
            ),
        })
    }

    fn preference_help() -> Option<&'static str> {
        Some(
            "`dirty-trick auto` (default): your immunity is played the instant a matching attack lands. \
             `dirty-trick ask`: you get a button and a short window to answer; your delay can reveal your hand.",
        )
    }

    fn rules_summary() -> &'static str {
        "1000 miles: reach the trip (1000) exactly. On your turn draw to 7 cards, then play one or \
         junk one. Distance cards need a green light; attacks (red light, speed limit, out of gas, \
         flat tire, accident) stop a rolling opponent until they play the remedy (and a green light \
         after gas, spare or repairs). Immunities protect for the round and give another play; \
         played out of turn against the matching attack they are a dirty trick (+300). At most two \
         200s. The round ends at the trip or when a player has no card; games run to 5000 points. \
         1000 Yards is the same race with go, traffic/crosswalk, restriction, hungry/snack, \
         pump and first aid; counters are worth 200 and the score is distance plus counters."
    }
}

/// "a red light", "an accident", "a 100".
pub fn a(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiou".contains(c.to_ascii_lowercase()));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
