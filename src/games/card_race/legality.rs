//! Which orders are legal now, and why not: a turn's plays (distance, attacks, remedies,
//! the green light), the answers in a dirty-trick window and the extension decision.

use thiserror::Error;

use super::cards::{Card, Kind};
use super::narrate::a;
use super::state::{CardRace, CounterWindow, Order, Phase, Team};
use crate::engine::Seat;

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
    /// "you have" or, for a team of two, "your team has" (a partner may have played them).
    #[error("{0} already played two 200s this round")]
    TwoHundreds(&'static str),
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

/// Why a play or junk is refused, before it is put in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    NotInHand(Card),
    NoWindow,
    GameOver,
    Stopped,
    Limited,
    TwoHundreds,
    TooFar {
        card: Card,
        would: u32,
    },
    NeedTarget(Card),
    OwnTeam,
    /// The target team, the attack, and why it may not go on.
    Attack(u8, Card, AttackFault),
    NothingToFix(Card),
    GoNotNeeded(Card),
    /// The problem to fix first, and the green light.
    FixFirst(Card, Card),
    AlreadyRolling,
}

/// Why an attack may not go on a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AttackFault {
    NoTeam,
    Protected,
    AlreadyHas,
    NotRolling,
}

impl CardRace {
    pub(super) fn who(&self, team: u8) -> String {
        self.team_label(team)
    }

    /// Whether `seat` may play a card now (its turn, or next to act in a window).
    pub(super) fn may_play(&self, seat: Seat) -> bool {
        match self.phase.as_ref() {
            Phase::Turn { seat: s } => *s == seat,
            Phase::Window(w) => w.next == Some(seat),
            _ => false,
        }
    }

    /// Why `team` cannot drive, in words.
    pub(super) fn stopped_reason(&self, t: &Team) -> String {
        let problems: Vec<String> = t
            .battle
            .problems
            .iter()
            .filter(|p| p.is_battle_attack())
            .map(|&p| self.attack_text(p))
            .collect();
        if problems.is_empty() {
            format!("you need {}", a(self.card_name(Card::Go)))
        } else {
            format!("you are stopped by {}", problems.join(" and "))
        }
    }

    /// Whether `attack` may go on `team` now.
    pub fn check_attack(&self, team: u8, attack: Card) -> Result<(), IllegalOrder> {
        match self.attack_fault(team, attack) {
            None => Ok(()),
            Some(why) => Err(self.attack_words(team, attack, why)),
        }
    }

    /// Why `attack` may not go on `team` now, without words.
    fn attack_fault(&self, team: u8, attack: Card) -> Option<AttackFault> {
        let Some(t) = self.team(team) else {
            return Some(AttackFault::NoTeam);
        };
        if t.immune_to(attack) {
            return Some(AttackFault::Protected);
        }
        if t.has(attack) {
            return Some(AttackFault::AlreadyHas);
        }
        if self.options.attacks_cumulate {
            return None;
        }
        let needs_rolling = attack.is_battle_attack()
            || (attack == Card::Limit && self.rules().limit_needs_rolling);
        (needs_rolling && !t.rolling()).then_some(AttackFault::NotRolling)
    }

    fn attack_words(&self, team: u8, attack: Card, why: AttackFault) -> IllegalOrder {
        let who = self.who(team);
        match why {
            AttackFault::NoTeam => IllegalOrder::NeedTarget(self.card_name(attack).into()),
            AttackFault::Protected => IllegalOrder::Protected {
                who,
                card: self.attack_text(attack),
                safety: Card::safety_for(attack)
                    .map(|s| self.card_name(s))
                    .unwrap_or("?")
                    .into(),
            },
            AttackFault::AlreadyHas => IllegalOrder::AlreadyHas {
                who,
                card: self.attack_text(attack),
            },
            AttackFault::NotRolling => IllegalOrder::NotRolling { who },
        }
    }

    /// Checks a play or junk for the seat whose turn it is.
    pub(super) fn check_turn(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        match self.turn_fault(seat, order) {
            None => Ok(()),
            Some(fault) => Err(self.fault_words(seat, fault)),
        }
    }

    /// Whether a play or junk is legal for the seat whose turn it is: [`Self::check_turn`]
    /// without building the refusal's words (the bots test every card of a hand).
    fn turn_fault(&self, seat: Seat, order: &Order) -> Option<Fault> {
        let (card, target) = match *order {
            Order::Junk { card } => {
                return (!self.hand(seat).contains(&card)).then_some(Fault::NotInHand(card));
            }
            Order::Play { card, target } => (card, target),
            _ => return Some(Fault::NoWindow),
        };
        if !self.hand(seat).contains(&card) {
            return Some(Fault::NotInHand(card));
        }
        self.held_play_fault(seat, card, target)
    }

    /// [`Self::turn_fault`] for a play of a card known to be in the seat's hand.
    fn held_play_fault(&self, seat: Seat, card: Card, target: Option<u8>) -> Option<Fault> {
        let own = self.team_index(seat);
        let Some(t) = self.team(own) else {
            return Some(Fault::GameOver);
        };
        match card.kind() {
            Kind::Distance(v) => {
                if !t.rolling() {
                    return Some(Fault::Stopped);
                }
                if t.limited() && v > 50 {
                    return Some(Fault::Limited);
                }
                if card == Card::D200 && t.two_hundreds() >= 2 {
                    return Some(Fault::TwoHundreds);
                }
                if !t.counterflow() && t.distance + v > self.target {
                    return Some(Fault::TooFar {
                        card,
                        would: t.distance + v,
                    });
                }
                None
            }
            Kind::Attack => {
                let Some(victim) = target else {
                    return Some(Fault::NeedTarget(card));
                };
                if victim == own {
                    return Some(Fault::OwnTeam);
                }
                self.attack_fault(victim, card)
                    .map(|why| Fault::Attack(victim, card, why))
            }
            Kind::Remedy => match card.fixes() {
                Some(p) if t.has(p) => None,
                _ => Some(Fault::NothingToFix(card)),
            },
            Kind::Go => {
                if t.has_safety(Card::RightOfWay) {
                    return Some(Fault::GoNotNeeded(card));
                }
                let go_fixes_stop = self.rules().go_fixes_stop;
                if let Some(p) = t
                    .battle
                    .problems
                    .iter()
                    .find(|p| p.is_battle_attack() && !(go_fixes_stop && **p == Card::Stop))
                {
                    return Some(Fault::FixFirst(*p, card));
                }
                if !(t.battle.needs_go || (go_fixes_stop && t.has(Card::Stop))) {
                    return Some(Fault::AlreadyRolling);
                }
                None
            }
            Kind::Safety => None,
        }
    }

    /// A refused play or junk in words.
    fn fault_words(&self, seat: Seat, fault: Fault) -> IllegalOrder {
        match fault {
            Fault::NotInHand(card) => IllegalOrder::NotInHand(a(self.card_name(card))),
            Fault::NoWindow => IllegalOrder::NoWindow,
            Fault::GameOver => IllegalOrder::GameOver,
            Fault::Stopped => match self.team_of(seat) {
                Some(t) => IllegalOrder::Stopped(self.stopped_reason(t)),
                None => IllegalOrder::GameOver,
            },
            Fault::Limited => IllegalOrder::Limited(self.card_name(Card::Limit).into()),
            Fault::TwoHundreds => {
                IllegalOrder::TwoHundreds(match self.team_of(seat).map(|t| t.members.len()) {
                    Some(n) if n > 1 => "your team has",
                    _ => "you have",
                })
            }
            Fault::TooFar { card, would } => IllegalOrder::TooFar {
                card: self.card_name(card).into(),
                would,
                target: self.target,
            },
            Fault::NeedTarget(card) => IllegalOrder::NeedTarget(self.card_name(card).into()),
            Fault::OwnTeam => IllegalOrder::OwnTeam,
            Fault::Attack(team, attack, why) => self.attack_words(team, attack, why),
            Fault::NothingToFix(card) => IllegalOrder::NothingToFix(a(self.card_name(card))),
            Fault::GoNotNeeded(card) => IllegalOrder::GoNotNeeded(
                self.card_name(Card::RightOfWay).into(),
                self.card_name(card).into(),
            ),
            Fault::FixFirst(problem, card) => {
                IllegalOrder::FixFirst(self.card_name(problem).into(), self.card_name(card).into())
            }
            Fault::AlreadyRolling => IllegalOrder::AlreadyRolling,
        }
    }

    pub(super) fn check(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
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
                match &window_meaning(w, seat, *order) {
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
        // The distinct cards in hand, in card order, without sorting a copy: `Card::ALL`
        // is in card order (a test checks it).
        // A bit per card held: one pass over the hand, not one per card of the game.
        let hand = self.hand(seat);
        let held = hand.iter().fold(0u32, |m, &c| m | card_bit(c));
        let cards = || Card::ALL.into_iter().filter(|&c| held & card_bit(c) != 0);
        let mut out = Vec::with_capacity(2 * hand.len() + 2);
        for card in cards() {
            if card.is_attack() {
                for t in 0..self.teams.len() as u8 {
                    if self.held_play_fault(seat, card, Some(t)).is_none() {
                        out.push(Order::Play {
                            card,
                            target: Some(t),
                        });
                    }
                }
            } else if self.held_play_fault(seat, card, None).is_none() {
                out.push(Order::Play { card, target: None });
            }
        }
        out.extend(cards().map(|card| Order::Junk { card }));
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
                    // Playing the matching immunity is the `counter` above: offered once.
                    out.extend(
                        self.turn_orders(seat)
                            .into_iter()
                            .filter(|o| window_meaning(w, seat, *o) == *o),
                    );
                }
                out
            }
        }
    }
}

/// A card's bit in a set of cards (`Card::ALL` has 22, in declaration order).
fn card_bit(card: Card) -> u32 {
    1 << (card as u32)
}

/// What an order means in a dirty-trick window. A victim who plays the matching immunity,
/// by whatever name, makes the dirty trick: both rulebooks define it as playing that card
/// at once, before the next player has played or drawn. Anything else keeps
/// its meaning, so only another play, a draw or `decline` lets the attack stand.
pub(super) fn window_meaning(w: &CounterWindow, seat: Seat, order: Order) -> Order {
    match order {
        Order::Play { card, .. }
            if w.victims.contains(&seat) && Card::safety_for(w.attack) == Some(card) =>
        {
            Order::Counter
        }
        other => other,
    }
}
