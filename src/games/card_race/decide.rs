//! What a seat's standing plays make of its turn ([`Decision`]): each rule, in the seat's
//! order, reads the board; the first that decides plays. The rules themselves, and
//! reading them, are `standing.rs`'s.

use super::bot::keep_value;
use super::cards::{Card, Kind};
use super::standing::{Rule, StandingPlays};
use super::state::{CardRace, Order, Phase};
use crate::engine::Seat;

/// What a seat's rules make of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This rule decides: play this order.
    Play(Order, Rule),
    /// This rule applies but sees two equally good plays (a conflict): ask.
    Conflict(Rule),
    /// No rule covers the turn: ask.
    Uncovered,
}

impl StandingPlays {
    /// What these rules play for `seat` now. Only a seat's own turn is decided; a
    /// dirty-trick window and the extension are always asked.
    pub fn decide(&self, g: &CardRace, seat: Seat) -> Decision {
        if !matches!(g.phase(), Phase::Turn { seat: s } if *s == seat) {
            return Decision::Uncovered;
        }
        let legal = g.turn_orders(seat);
        for &rule in &self.0 {
            match apply(rule, g, seat, &legal) {
                Applies::Play(order) if legal.contains(&order) => {
                    return Decision::Play(order, rule);
                }
                Applies::Tie => return Decision::Conflict(rule),
                Applies::Play(_) | Applies::No => {}
            }
        }
        Decision::Uncovered
    }
}

enum Applies {
    Play(Order),
    Tie,
    No,
}

fn play(card: Card) -> Applies {
    Applies::Play(Order::Play { card, target: None })
}

fn apply(rule: Rule, g: &CardRace, seat: Seat, legal: &[Order]) -> Applies {
    let Some(team) = g.team_of(seat) else {
        return Applies::No;
    };
    let plays: Vec<(Card, Option<u8>)> = legal
        .iter()
        .filter_map(|o| match *o {
            Order::Play { card, target } => Some((card, target)),
            _ => None,
        })
        .collect();
    let distances = || {
        plays
            .iter()
            .filter_map(|&(c, _)| c.distance().map(|v| (c, v)))
    };
    match rule {
        Rule::Finish if !team.counterflow() => distances()
            .find(|&(_, v)| team.distance.saturating_add(v) == g.target())
            .map_or(Applies::No, |(c, _)| play(c)),
        Rule::Remedy if !team.rolling() => {
            let remedy = plays.iter().find(|(c, _)| {
                c.kind() == Kind::Remedy
                    && c.fixes()
                        .is_some_and(|p| p.is_battle_attack() && team.has(p))
            });
            match remedy {
                Some(&(c, _)) => play(c),
                None if plays.iter().any(|&(c, _)| c == Card::Go) => play(Card::Go),
                None => Applies::No,
            }
        }
        Rule::Remedy
            if team.counterflow() && plays.iter().any(|&(c, _)| c == Card::EndOfCounterflow) =>
        {
            play(Card::EndOfCounterflow)
        }
        Rule::Attack => attack_leader(g, seat, &plays),
        Rule::Distance if !team.counterflow() => distances()
            .max_by_key(|&(_, v)| v)
            .map_or(Applies::No, |(c, _)| play(c)),
        Rule::Safety => plays
            .iter()
            .find(|(c, _)| c.is_safety())
            .map_or(Applies::No, |&(c, _)| play(c)),
        Rule::KeepSafety | Rule::Junk => junk(rule, g, seat, &plays),
        _ => Applies::No,
    }
}

/// The leader is the opposing team furthest on (then with the higher total); two teams
/// level on both are a tie. A stopping attack goes before a speed limit; between stopping
/// attacks, the one whose remedies are most seen on the table (fewer left to draw).
fn attack_leader(g: &CardRace, seat: Seat, plays: &[(Card, Option<u8>)]) -> Applies {
    let own = g.team_index(seat);
    let key = |t: u8| {
        g.team(t)
            .map(|x| (x.distance, x.total))
            .unwrap_or((0, i64::MIN))
    };
    let Some(best) = (0..g.teams().len() as u8)
        .filter(|&t| t != own)
        .map(key)
        .max()
    else {
        return Applies::No;
    };
    let leaders: Vec<u8> = (0..g.teams().len() as u8)
        .filter(|&t| t != own && key(t) == best)
        .collect();
    let on = |t: u8| -> Vec<Card> {
        plays
            .iter()
            .filter(|&&(_, target)| target == Some(t))
            .map(|&(c, _)| c)
            .collect()
    };
    let attackable: Vec<u8> = leaders
        .iter()
        .copied()
        .filter(|&t| !on(t).is_empty())
        .collect();
    let target = match attackable.as_slice() {
        [] => return Applies::No,
        [one] => *one,
        _ => return Applies::Tie,
    };
    let seen = |attack: Card| -> usize {
        let Some(remedy) = Card::remedy_for(attack) else {
            return 0;
        };
        let on_table: usize = g
            .teams()
            .iter()
            .map(|t| t.pile.iter().filter(|&&c| c == remedy).count())
            .sum();
        on_table + g.discard().iter().filter(|&&c| c == remedy).count()
    };
    let card = on(target)
        .into_iter()
        .max_by_key(|&c| (c.is_battle_attack(), seen(c), std::cmp::Reverse(c)));
    match card {
        Some(card) => Applies::Play(Order::Play {
            card,
            target: Some(target),
        }),
        None => Applies::No,
    }
}

/// Both junk rules apply only when nothing but an immunity can be played. `junk`: a card
/// that can never help (a remedy for a problem you are immune to, a distance past the
/// trip...), else the least useful duplicate; `keep-safety`: the least useful card that
/// is not an immunity.
fn junk(rule: Rule, g: &CardRace, seat: Seat, plays: &[(Card, Option<u8>)]) -> Applies {
    if plays.iter().any(|(c, _)| !c.is_safety()) {
        return Applies::No;
    }
    let hand = g.hand(seat);
    let least =
        |cards: &mut dyn Iterator<Item = Card>| cards.min_by_key(|&c| (keep_value(g, seat, c), c));
    let card =
        match rule {
            Rule::KeepSafety => {
                if !hand.iter().any(|c| c.is_safety()) {
                    return Applies::No;
                }
                least(&mut hand.iter().copied().filter(|c| !c.is_safety()))
            }
            _ => {
                let dead = least(
                    &mut hand
                        .iter()
                        .copied()
                        .filter(|&c| keep_value(g, seat, c) <= 2),
                );
                dead.or_else(|| {
                    least(&mut hand.iter().copied().filter(|&c| {
                        !c.is_safety() && hand.iter().filter(|&&d| d == c).count() > 1
                    }))
                })
            }
        };
    card.map_or(Applies::No, |card| Applies::Play(Order::Junk { card }))
}
