//! The round at the table: dealing, drawing, whose turn it is, playing a card, attacks
//! and the dirty-trick window, and the 700 extension. Scoring the round is in `scoring`.

use super::bot;
use super::cards::{Card, Kind};
use super::rules::CounterPref;
use super::state::{
    Battle, CardRace, CounterWindow, Event, Finish, HAND, Order, Phase, RoundEnd, SafetyPlay, Team,
};
use crate::engine::Seat;

impl CardRace {
    pub(super) fn start_round(&mut self, round: u32, ev: &mut Vec<Event>) {
        let n = self.players();
        let mut cards = std::mem::take(&mut self.deck);
        cards.append(&mut self.discard);
        for h in &mut self.hands {
            cards.append(h);
        }
        for t in &mut self.teams {
            cards.extend(t.clear_round());
        }
        let mut junk = 0;
        let deck = if self.stacked.is_empty() {
            let mut d = self.options.deck(n);
            self.rng.shuffle(&mut d);
            d
        } else {
            let mut d = self.stacked.remove(0);
            if !self.stacked_junk.is_empty() {
                junk = self.stacked_junk.remove(0);
            }
            d.reverse();
            d
        };
        self.deck = deck;
        // A script's short pile: the bottom cards start the round junked, face up.
        let junk = junk.min(self.deck.len());
        self.discard.extend(self.deck.drain(..junk));
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
    pub(super) fn refill(&mut self, seat: Seat, ev: &mut Vec<Event>) {
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

    /// The first seat `pending()` lists, without building its label: `apply` and the
    /// simulations ask on every step (a test keeps the two equal).
    pub fn first_to_act(&self) -> Option<Seat> {
        match self.phase.as_ref() {
            Phase::Over => None,
            Phase::Turn { seat } | Phase::Extension { seat } => Some(*seat),
            Phase::Window(w) => w.victims.first().copied().or(w.next),
        }
    }

    /// Whether `pending()` lists `seat`, without building its label.
    pub fn may_act(&self, seat: Seat) -> bool {
        match self.phase.as_ref() {
            Phase::Over => false,
            Phase::Turn { seat: s } | Phase::Extension { seat: s } => *s == seat,
            Phase::Window(w) => w.victims.contains(&seat) || w.next == Some(seat),
        }
    }

    /// `seat` is to play: the round ends if somebody has no card, else it draws (1000 miles).
    pub(super) fn begin_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.open_turn(seat, true, ev);
    }

    /// As [`Self::begin_turn`]; `fresh` is false for the free play after an immunity,
    /// which does not start a turn of the table.
    pub(super) fn open_turn(&mut self, seat: Seat, fresh: bool, ev: &mut Vec<Event>) {
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
    pub(super) fn end_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if !self.rules().draw_before_play {
            self.refill(seat, ev);
        }
        let next = self.next_seat(seat);
        self.begin_turn(next, ev);
    }

    /// Plays a validated turn order.
    pub(super) fn act(&mut self, seat: Seat, order: Order, missed: bool, ev: &mut Vec<Event>) {
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

    pub(super) fn play(
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
                ev.push(untargeted(seat, card, missed));
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
                ev.push(untargeted(seat, card, missed));
                self.end_turn(seat, ev);
            }
            Kind::Safety => {
                if let Some(t) = self.team_mut(own) {
                    lay_safety(t, card, false);
                }
                ev.push(untargeted(seat, card, missed));
                // An immunity is a free action: the same seat plays again.
                self.open_turn(seat, false, ev);
            }
        }
    }

    /// After an attack lands: an `auto` holder answers at once; players set to `ask`
    /// get a window; otherwise play passes on.
    pub(super) fn after_attack(
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
            window: self.options.counter_timeout,
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
    pub(super) fn dirty_trick(
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
    pub(super) fn answer_window(
        &mut self,
        w: CounterWindow,
        seat: Seat,
        order: Order,
        missed: bool,
        ev: &mut Vec<Event>,
    ) {
        match super::legality::window_meaning(&w, seat, order) {
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

    pub(super) fn reach_target(&mut self, seat: Seat, ev: &mut Vec<Event>) {
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

    pub(super) fn decide_extension(
        &mut self,
        seat: Seat,
        extend: bool,
        missed: bool,
        ev: &mut Vec<Event>,
    ) {
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
}

/// Lays an immunity, which also ends the problems it protects against.
pub(super) fn lay_safety(t: &mut Team, card: Card, dirty_trick: bool) {
    t.safeties.push(SafetyPlay { card, dirty_trick });
    let protects = card.protects();
    let (gone, kept): (Vec<Card>, Vec<Card>) =
        t.battle.problems.iter().partition(|p| protects.contains(p));
    t.battle.problems = kept;
    t.pile.extend(gone);
}

/// A play on the player's own side that moves no distance (remedy, Go, immunity).
fn untargeted(seat: Seat, card: Card, missed: bool) -> Event {
    Event::Played {
        seat,
        card,
        target: None,
        missed,
        distance: None,
    }
}
