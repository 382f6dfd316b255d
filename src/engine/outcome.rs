//! How a game ended, and who may read each narrated event.

use serde::{Deserialize, Serialize};

use super::seat::Seat;

/// One seat's final placing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    pub seat: Seat,
    /// 1 + the number of seats strictly ahead; tied seats share a rank.
    pub rank: u32,
    /// Points, where the game scores them.
    #[serde(default)]
    pub score: Option<i64>,
}

/// The result of a finished game, best placing first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub placings: Vec<Placing>,
}

impl Outcome {
    /// Ranks from per-seat scores, higher is better; equal scores tie.
    pub fn from_scores(scores: &[(Seat, i64)]) -> Outcome {
        let mut placings: Vec<Placing> = scores
            .iter()
            .map(|&(seat, score)| Placing {
                seat,
                rank: 1 + scores.iter().filter(|&&(_, s)| s > score).count() as u32,
                score: Some(score),
            })
            .collect();
        placings.sort_by_key(|p| (p.rank, p.seat));
        Outcome { placings }
    }

    pub fn winners(&self) -> Vec<Seat> {
        self.placings
            .iter()
            .filter(|p| p.rank == 1)
            .map(|p| p.seat)
            .collect()
    }

    pub fn rank_of(&self, seat: Seat) -> Option<u32> {
        self.placings
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.rank)
    }
}

/// Who may read a narrated event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Audience {
    /// The channel.
    Public,
    /// One seat's DM only (a card drawn).
    Seat(Seat),
    /// Bookkeeping that nobody needs to read.
    Nobody,
}

/// An event told in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    pub audience: Audience,
    pub text: String,
}

impl Narration {
    pub fn public(text: impl Into<String>) -> Narration {
        Narration {
            audience: Audience::Public,
            text: text.into(),
        }
    }

    pub fn to_seat(seat: Seat, text: impl Into<String>) -> Narration {
        Narration {
            audience: Audience::Seat(seat),
            text: text.into(),
        }
    }

    pub fn nobody() -> Narration {
        Narration {
            audience: Audience::Nobody,
            text: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_rank_with_ties() {
        let o = Outcome::from_scores(&[(Seat(0), 5), (Seat(1), 9), (Seat(2), 9), (Seat(3), 1)]);
        let ranks: Vec<(u8, u32)> = o.placings.iter().map(|p| (p.seat.0, p.rank)).collect();
        assert_eq!(ranks, vec![(1, 1), (2, 1), (0, 3), (3, 4)]);
        assert_eq!(o.winners(), vec![Seat(1), Seat(2)]);
    }
}
