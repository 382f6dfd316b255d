//! The snake draft: who picks when, and the face-up line.
//!
//! - 3-6 players: two rounds; each deals a line of 2 cards per player and snakes from its
//!   first player (the roll-off winner, then the player to their left).
//! - 2 players: two lines of 8, drafted ABBAABBA and then BAABBAAB.
//! - 3-player double racers: four lines of 6, snaked, the first player rotating.

use serde::{Deserialize, Serialize};

use super::racers::Kind;
use crate::engine::Seat;

/// The draft in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// 0-based round.
    pub round: u8,
    pub rounds: u8,
    pub players: usize,
    /// The roll-off winner.
    pub start: Seat,
    pub double: bool,
    /// The face-up line.
    pub line: Vec<Kind>,
    /// The picks left in this round, in order.
    pub order: Vec<Seat>,
    /// The rolls of the roll-off for the first pick, each attempt's (all but the last tied).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roll_off: Vec<Vec<(Seat, u8)>>,
}

fn seat(i: usize) -> Seat {
    Seat::from_index(i).unwrap_or(Seat(0))
}

impl Draft {
    pub fn new(players: usize, double: bool, start: Seat) -> Draft {
        let rounds = if players == 2 {
            2
        } else if double {
            4
        } else {
            2
        };
        Draft {
            round: 0,
            rounds,
            players,
            start,
            double,
            line: Vec::new(),
            order: Vec::new(),
            roll_off: Vec::new(),
        }
    }

    fn line_size(&self) -> usize {
        if self.players == 2 {
            8
        } else {
            2 * self.players
        }
    }

    /// The pick order of the current round.
    pub fn round_order(&self) -> Vec<Seat> {
        let n = self.players.max(1);
        let s = self.start.index();
        if n == 2 {
            let (a, b) = (seat(s % 2), seat((s + 1) % 2));
            return if self.round.is_multiple_of(2) {
                vec![a, b, b, a, a, b, b, a]
            } else {
                vec![b, a, a, b, b, a, a, b]
            };
        }
        let first = (s + usize::from(self.round)) % n;
        let forward: Vec<Seat> = (0..n).map(|i| seat((first + i) % n)).collect();
        let mut order = forward.clone();
        order.extend(forward.iter().rev());
        order
    }

    /// Deals the current round's line from the front of the deck.
    pub fn deal(&mut self, deck: &mut Vec<Kind>) {
        let k = self.line_size().min(deck.len());
        self.line = deck.drain(..k).collect();
        self.order = self.round_order();
        self.order.truncate(self.line.len());
    }

    /// Whose pick it is.
    pub fn current(&self) -> Option<Seat> {
        self.order.first().copied()
    }

    /// The current seat takes `k` from the line.
    pub fn take(&mut self, k: Kind) {
        self.line.retain(|&c| c != k);
        if !self.order.is_empty() {
            self.order.remove(0);
        }
    }

    /// Starts the next round, if any. Left-over cards of the line go out of play.
    pub fn next_round(&mut self, deck: &mut Vec<Kind>) -> bool {
        if self.round + 1 >= self.rounds {
            return false;
        }
        self.round += 1;
        self.deal(deck);
        true
    }

    /// Picks each player makes in the whole draft.
    pub fn hand_size(&self) -> usize {
        if self.players == 2 || self.double {
            8
        } else {
            4
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players_snake_twice_from_the_next_seat() {
        let mut d = Draft::new(4, false, Seat(2));
        assert_eq!(d.round_order(), [2, 3, 0, 1, 1, 0, 3, 2].map(Seat).to_vec());
        d.round = 1;
        assert_eq!(d.round_order(), [3, 0, 1, 2, 2, 1, 0, 3].map(Seat).to_vec());
        assert_eq!(d.hand_size(), 4);
    }

    #[test]
    fn two_players_abbaabba_then_baabbaab() {
        let mut d = Draft::new(2, false, Seat(1));
        assert_eq!(d.round_order(), [1, 0, 0, 1, 1, 0, 0, 1].map(Seat).to_vec());
        d.round = 1;
        assert_eq!(d.round_order(), [0, 1, 1, 0, 0, 1, 1, 0].map(Seat).to_vec());
        assert_eq!(d.hand_size(), 8);
    }

    #[test]
    fn three_player_double_racers_draft_four_lines_of_six() {
        let mut deck: Vec<Kind> = super::super::racers::ALL.to_vec();
        let mut d = Draft::new(3, true, Seat(0));
        d.deal(&mut deck);
        assert_eq!(d.line.len(), 6);
        let mut picks = vec![0usize; 3];
        loop {
            while let Some(s) = d.current() {
                picks[s.index()] += 1;
                let k = d.line[0];
                d.take(k);
            }
            if !d.next_round(&mut deck) {
                break;
            }
        }
        assert_eq!(picks, vec![8, 8, 8]);
        assert_eq!(d.round, 3);
        assert_eq!(deck.len(), 36 - 24);
    }
}
