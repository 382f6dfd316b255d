//! The card phase's bid: bids revealed and paid, the choosing order with its ties, and the
//! extra actions taken at once.

use std::cmp::Reverse;

use super::order::Action;
use super::state::{Event, FifteenHundred, Step};

impl FifteenHundred {
    /// Bids are revealed and paid, and the choosing order is set.
    pub(super) fn resolve_bids(
        &mut self,
        picks: &[(usize, u8, Option<u8>)],
        reveal_cards: bool,
        events: &mut Vec<Event>,
    ) {
        let mut bids = Vec::new();
        for &(i, card, bid) in picks {
            if let Some(slot) = self.turn.cards.get_mut(i) {
                *slot = Some(card);
            }
            let Some(r) = self.runners.get_mut(i) else {
                continue;
            };
            if let Some(b) = bid.filter(|_| r.strength > 0) {
                let paid = r.strength.min(u16::from(b));
                r.strength -= paid;
                r.penalty += u16::from(b) - paid;
                if let Some(slot) = self.turn.bids.get_mut(i) {
                    *slot = Some(b);
                }
                bids.push((i, b));
            }
        }
        // Highest bid first; on a tie the worse placed chooses first.
        let mut order: Vec<(usize, u8)> = bids.clone();
        order.sort_by_key(|&(i, b)| {
            (
                Reverse(b),
                self.runners.get(i).map(|r| self.course.rank(r.spot)),
            )
        });
        let mut choosers: Vec<usize> = order.iter().map(|&(i, _)| i).collect();
        let left_out = if choosers.len() >= 2 {
            choosers.pop()
        } else {
            None
        };
        events.push(Event::BidsRevealed {
            bids,
            order: choosers.clone(),
            left_out,
        });
        self.turn.choosers = choosers;
        self.turn.left_out = left_out;
        self.turn.next = 0;
        self.turn.cards_revealed = reveal_cards;
        self.step = Step::Action;
    }

    pub(super) fn choose_action(
        &mut self,
        i: usize,
        action: Option<Action>,
        events: &mut Vec<Event>,
    ) {
        let action = action.filter(|a| !self.taken().contains(a));
        let top = self.options.top_pace();
        let start = self.options.start_strength();
        if let Some(r) = self.runners.get_mut(i) {
            match action {
                Some(Action::Safe3) => r.strength = (r.strength + 3).min(start.max(r.strength)),
                Some(Action::Safe4) => r.strength = (r.strength + 4).min(start.max(r.strength)),
                Some(Action::Pace1) => r.pace = r.pace.saturating_add(1).min(top),
                Some(Action::Pace2) => r.pace = r.pace.saturating_add(2).min(top),
                _ => {}
            }
        }
        if let Some(slot) = self.turn.actions.get_mut(i) {
            *slot = action;
        }
        events.push(Event::ActionTaken { runner: i, action });
        self.turn.next += 1;
    }
}
