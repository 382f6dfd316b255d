//! The heuristic bot, which also plays missed turns: remedy when blocked, attack the
//! leader, protect itself, play the largest distance that fits, and junk what is least
//! useful. (The random bot is `Bots::random_order`: a uniformly chosen legal order.)

use super::cards::{Card, Kind};
use super::state::{CardRace, CounterWindow, Order, Phase};
use crate::engine::Seat;

/// The heuristic's order for `seat` now. Always legal when `seat` must act.
pub fn heuristic(g: &CardRace, seat: Seat) -> Order {
    match g.phase() {
        Phase::Extension { .. } => extension(g, seat),
        Phase::Window(w) => window(g, seat, w),
        _ => turn(g, seat),
    }
}

fn window(g: &CardRace, seat: Seat, w: &CounterWindow) -> Order {
    if w.victims.contains(&seat) {
        let safety = Card::safety_for(w.attack);
        if safety.is_some_and(|s| g.hand(seat).contains(&s)) {
            return Order::Counter;
        }
        return Order::Decline;
    }
    if g.rules().draw_before_play {
        // Draw first: the card drawn may be the one to play.
        Order::Draw
    } else {
        turn(g, seat)
    }
}

/// Extend when the opponents are far behind and the pile still has cards.
fn extension(g: &CardRace, seat: Seat) -> Order {
    let own = g.team_index(seat);
    let best_other = g
        .teams()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != usize::from(own))
        .map(|(_, t)| t.distance)
        .max()
        .unwrap_or(0);
    let in_hand: u32 = g.hand(seat).iter().filter_map(|c| c.distance()).sum();
    if g.deck_left() > 10 && best_other < 400 && in_hand >= 150 {
        Order::Extend
    } else {
        Order::Finish
    }
}

/// The attack to play: on the opposing team furthest on, stopping attacks first (the
/// first such play on a tie).
fn attack_on_leader(g: &CardRace, plays: &[(Card, Option<u8>)], own: u8) -> Option<(Card, u8)> {
    plays
        .iter()
        .filter_map(|&(c, t)| t.filter(|&t| t != own).map(|t| (c, t)))
        .min_by_key(|&(c, t)| {
            let d = g.team(t).map(|x| x.distance).unwrap_or(0);
            let total = g.team(t).map(|x| x.total).unwrap_or(0);
            (
                std::cmp::Reverse(d),
                std::cmp::Reverse(total),
                !c.is_battle_attack(),
                c,
            )
        })
}

fn turn(g: &CardRace, seat: Seat) -> Order {
    let legal: Vec<Order> = g.turn_orders(seat);
    let plays: Vec<(Card, Option<u8>)> = legal
        .iter()
        .filter_map(|o| match *o {
            Order::Play { card, target } => Some((card, target)),
            _ => None,
        })
        .collect();
    let has = |c: Card| plays.iter().any(|&(p, _)| p == c);
    let Some(team) = g.team_of(seat) else {
        return fallback(g, seat, &legal);
    };
    let own = g.team_index(seat);

    // An immunity that ends a problem in force: it fixes, protects and plays again.
    for &(card, _) in &plays {
        if card.is_safety() && card.protects().iter().any(|&p| team.has(p)) {
            return Order::Play { card, target: None };
        }
    }
    // Finish the trip when a card fits exactly.
    if let Some(&(card, _)) = plays.iter().find(|&&(c, _)| {
        c.distance()
            .is_some_and(|v| !team.counterflow() && team.distance + v == g.target())
    }) {
        return Order::Play { card, target: None };
    }
    // Blocked: the remedy, then the green light.
    if !team.rolling() {
        for &(card, _) in &plays {
            if card.kind() == Kind::Remedy && card.fixes().is_some_and(Card::is_battle_attack) {
                return Order::Play { card, target: None };
            }
        }
        if has(Card::Go) {
            return Order::Play {
                card: Card::Go,
                target: None,
            };
        }
    }
    if team.counterflow() && has(Card::EndOfCounterflow) {
        return Order::Play {
            card: Card::EndOfCounterflow,
            target: None,
        };
    }
    // Attack the leader: the opposing team furthest on, stopping attacks first.
    let attack = attack_on_leader(g, &plays, own);
    if let Some((card, target)) = attack {
        let leader_distance = g.team(target).map(|x| x.distance).unwrap_or(0);
        // A speed limit on a car that is not moving far is kept for later.
        if card.is_battle_attack() || leader_distance + 200 >= team.distance {
            return Order::Play {
                card,
                target: Some(target),
            };
        }
    }
    // The largest distance that fits (not while driving against the flow).
    if !team.counterflow()
        && let Some(&(card, _)) = plays
            .iter()
            .filter(|(c, _)| c.distance().is_some())
            .max_by_key(|(c, _)| c.distance())
    {
        return Order::Play { card, target: None };
    }
    if team.limited() && has(Card::EndOfLimit) {
        return Order::Play {
            card: Card::EndOfLimit,
            target: None,
        };
    }
    if let Some((card, target)) = attack {
        return Order::Play {
            card,
            target: Some(target),
        };
    }
    // Other remedies and the green light, when they help.
    if let Some(&(card, _)) = plays
        .iter()
        .find(|(c, _)| matches!(c.kind(), Kind::Remedy | Kind::Go))
    {
        return Order::Play { card, target: None };
    }
    // Immunities are kept for a dirty trick, unless the round is nearly over.
    let few_left = g.deck_left() <= 2 * g.players();
    if let Some(&(card, _)) = plays.iter().find(|(c, _)| c.is_safety())
        && (few_left || g.hand(seat).iter().all(|c| c.is_safety()))
    {
        return Order::Play { card, target: None };
    }
    let junk = g
        .hand(seat)
        .iter()
        .copied()
        .min_by_key(|&c| keep_value(g, seat, c));
    match junk {
        Some(card) => Order::Junk { card },
        None => fallback(g, seat, &legal),
    }
}

/// How much a card is worth keeping; the lowest is junked.
pub(super) fn keep_value(g: &CardRace, seat: Seat, card: Card) -> i32 {
    let Some(team) = g.team_of(seat) else {
        return 0;
    };
    let copies = g.hand(seat).iter().filter(|&&c| c == card).count() as i32;
    let opponents_immune = |attack: Card| {
        g.teams()
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != usize::from(g.team_index(seat)))
            .all(|(_, t)| t.immune_to(attack))
    };
    match card.kind() {
        Kind::Safety => 1000,
        Kind::Distance(v) => {
            if team.distance + v > g.target() || (card == Card::D200 && team.two_hundreds() >= 2) {
                0
            } else {
                20 + v as i32 / 5 - 3 * copies
            }
        }
        Kind::Remedy => {
            let fixes = card.fixes();
            if fixes.is_some_and(|p| team.immune_to(p)) {
                1
            } else {
                50 - 10 * copies
            }
        }
        Kind::Go => {
            if team.has_safety(Card::RightOfWay) {
                1
            } else {
                55 - 8 * copies
            }
        }
        Kind::Attack => {
            if opponents_immune(card) {
                2
            } else {
                45 - 5 * copies
            }
        }
    }
}

fn fallback(g: &CardRace, seat: Seat, legal: &[Order]) -> Order {
    legal.first().copied().unwrap_or_else(|| {
        g.hand(seat)
            .first()
            .map(|&card| Order::Junk { card })
            .unwrap_or(Order::Decline)
    })
}
