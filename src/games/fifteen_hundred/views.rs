//! What the channel and each player see (the public view, one seat's DM), the race's
//! outcome, and the hidden parts a viewer cannot tell apart (docs/rules/1500m.md).

use serde::{Deserialize, Serialize};

use super::board::{Board, Distance, Spot};
use super::order::Action;
use super::rules::{BASE_PACE, TOP_BID};
use super::state::RoundRecord;
use super::state::{FifteenHundred, Step};
use crate::engine::{Game, GameRng, Outcome, Placing, Seat};

/// One runner as the channel sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunnerView {
    pub runner: usize,
    pub name: String,
    pub robot: bool,
    /// 1 + runners ahead (finished runners ahead of everyone still racing).
    pub position: u32,
    pub lane: u8,
    /// The space's text, e.g. `3:17`.
    pub space: String,
    pub section: String,
    /// Index from 1 within the section.
    pub section_space: u16,
    pub crossings: u8,
    pub progress: i32,
    pub to_go: i32,
    /// `None` for robots.
    pub strength: Option<u16>,
    pub pace: u8,
    pub penalty: u16,
    /// Movement cards left in hand: public, since played cards are shown.
    pub cards_left: Vec<u8>,
    pub place: Option<u8>,
    /// This round so far: bid, action, movement card, points moved in each phase.
    pub bid: Option<u8>,
    pub action: Option<Action>,
    pub card: Option<u8>,
    pub moved: (Option<u8>, Option<u8>),
    /// The space itself, for pictures.
    #[serde(default)]
    pub spot: Option<Spot>,
}

/// What the channel sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub board: String,
    pub distance: Distance,
    pub advanced: bool,
    pub round: u16,
    /// What is awaited, e.g. "Round 3: orders".
    pub step: String,
    pub laps_left: u8,
    /// The bell has rung: the leader is on the last lap.
    pub bell: bool,
    pub length: i32,
    /// Finished runners by place, then the others by position.
    pub runners: Vec<RunnerView>,
    /// Robot movement cards not yet drawn (order hidden).
    pub robot_cards_left: Vec<u8>,
    pub finished: bool,
    /// The board's geometry, for pictures.
    #[serde(default)]
    pub layout: Option<Board>,
    /// The field after each round, for the race chart.
    #[serde(default)]
    pub history: Vec<RoundRecord>,
}

/// What one player's DM shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub hand: Vec<u8>,
    /// Bid cards this runner may play now (none at 0 mental strength).
    pub bid_cards: Vec<u8>,
    pub strength: u16,
    pub pace: u8,
    pub penalty: u16,
    pub position: u32,
    pub space: String,
    pub place: Option<u8>,
    /// The movement card chosen this round and not yet revealed (live play).
    pub chosen_card: Option<u8>,
    pub last_order: Option<String>,
    /// What is asked of this player now, if anything.
    pub asked: Option<String>,
}

impl RunnerView {
    /// The fields that belong to this round (bid, action, card, moves) or to pictures (the
    /// index and the space itself): a replay's runner line is the view without them.
    pub const ROUND_FIELDS: [&'static str; 6] =
        ["runner", "bid", "action", "card", "moved", "spot"];
}

impl FifteenHundred {
    /// [`crate::engine::Game::public_view`]: everyone in order, with this round so far.
    pub(super) fn build_public_view(&self) -> PublicView {
        let order = self.full_order();
        let runners = order
            .iter()
            .enumerate()
            .filter_map(|(n, &i)| self.runner_view(i, n as u32 + 1))
            .collect();
        let mut robot_cards_left = self.robot_deck.clone();
        robot_cards_left.sort_unstable();
        PublicView {
            board: self.course.board.name.clone(),
            distance: self.options.distance,
            advanced: self.options.advanced,
            round: self.round,
            step: self.label(),
            laps_left: self.laps_left,
            bell: self.laps_left == 0,
            length: self.course.length(),
            runners,
            robot_cards_left,
            finished: self.step == Step::Over,
            layout: Some(self.course.board.clone()),
            history: self.history.clone(),
        }
    }

    /// [`crate::engine::Game::private_view`]: the seat's hand, strength and what it is asked.
    pub(super) fn build_private_view(&self, seat: Seat) -> PrivateView {
        let i = seat.index();
        let r = self.runner(i);
        let strength = r.map_or(0, |r| r.strength);
        let position = self
            .full_order()
            .iter()
            .position(|&x| x == i)
            .map_or(0, |p| p as u32 + 1);
        PrivateView {
            seat,
            name: self.name(i).to_string(),
            hand: r.map(|r| r.hand.clone()).unwrap_or_default(),
            bid_cards: (1..=TOP_BID)
                .filter(|&b| u16::from(b) <= strength)
                .collect(),
            strength,
            pace: r.map_or(BASE_PACE, |r| r.pace),
            penalty: r.map_or(0, |r| r.penalty),
            position,
            space: r.map(|r| self.course.describe(r.spot)).unwrap_or_default(),
            place: r.and_then(|r| r.place),
            chosen_card: if self.turn.cards_revealed {
                None
            } else {
                self.turn.cards.get(i).copied().flatten()
            },
            last_order: r.and_then(|r| r.last_order.clone()),
            asked: self.pending().includes(seat).then(|| self.label()),
        }
    }

    /// Runner `i` at `position`; a card shows only once the cards are revealed.
    pub(super) fn runner_view(&self, i: usize, position: u32) -> Option<RunnerView> {
        let r = self.runner(i)?;
        let p = self.course.place(r.spot);
        let progress = self.course.progress(r.spot);
        Some(RunnerView {
            runner: i,
            name: r.name.clone(),
            robot: r.robot,
            position,
            lane: r.spot.lane,
            space: self.course.label(r.spot),
            section: self.course.section_name(p.section).to_string(),
            section_space: p.index + 1,
            crossings: r.spot.lap,
            progress,
            to_go: (self.course.length() - progress).max(0),
            strength: (!r.robot).then_some(r.strength),
            pace: r.pace,
            penalty: r.penalty,
            cards_left: r.hand.clone(),
            place: r.place,
            bid: self.turn.bids.get(i).copied().flatten(),
            action: self.turn.actions.get(i).copied().flatten(),
            card: if self.turn.cards_revealed {
                if r.robot {
                    self.turn.robot_card
                } else {
                    self.turn.cards.get(i).copied().flatten()
                }
            } else {
                None
            },
            moved: self.turn.moved.get(i).copied().unwrap_or((None, None)),
            spot: Some(r.spot),
        })
    }

    /// [`crate::engine::Game::outcome`]: the players in finishing order, once the race is over.
    pub(super) fn final_placings(&self) -> Option<Outcome> {
        if self.step != Step::Over {
            return None;
        }
        let placings = self
            .full_order()
            .into_iter()
            .filter_map(|i| self.seat_of(i))
            .enumerate()
            .map(|(n, seat)| Placing {
                seat,
                rank: n as u32 + 1,
                score: None,
            })
            .collect();
        Some(Outcome { placings })
    }

    /// [`crate::engine::Game::resample_hidden`]: the robots' deck, the game's dice, others'
    /// last orders and unrevealed cards drawn again.
    pub(super) fn hidden_resampled(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        // Sorted first, so the redraw depends only on what the viewer knows.
        g.robot_deck.sort_unstable();
        rng.shuffle(&mut g.robot_deck);
        g.rng = rng.fork();
        let mine = viewer.map(Seat::index);
        for i in 0..g.runners.len() {
            if Some(i) == mine {
                continue;
            }
            if let Some(r) = g.runners.get_mut(i) {
                r.last_order = None;
            }
            if !g.turn.cards_revealed {
                let hand = g.runners.get(i).map(|r| r.hand.clone()).unwrap_or_default();
                if let Some(slot) = g.turn.cards.get_mut(i)
                    && slot.is_some()
                {
                    *slot = rng.choose(&hand).copied();
                }
            }
        }
        g
    }
}
