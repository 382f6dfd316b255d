//! What the card races' turn picture and each lane share: who is drawn how ([`Casts`]),
//! where the lanes and the ruler go ([`Layout`], [`ruler_x`]), and a team's score.

use super::super::cast::Cast;
use crate::games::card_race::game_views::{PublicView, TeamView};

/// The ruler's centre line, from a lane's top.
pub(super) const BAR: f32 = 98.0;

/// The players (by seat) and the teams (by team index), as drawn.
pub(super) struct Casts {
    pub(super) seats: Cast,
    pub(super) teams: Cast,
}

/// A team's score in all: finished rounds, and this round so far while it is played.
pub(super) fn score(view: &PublicView, t: &TeamView) -> i64 {
    // Once the game is over the last round is already in the total.
    if view.finished {
        t.total
    } else {
        t.total + t.round_score
    }
}

/// Where the lanes and ruler go; kept apart from drawing so tests can check the geometry.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layout {
    pub(super) height: f32,
    /// Each lane's card: left, top, width, height.
    pub(super) lanes: Vec<(f32, f32, f32, f32)>,
    pub(super) ruler_left: f32,
    pub(super) ruler_right: f32,
    pub(super) footer_top: f32,
}

/// The x of `distance` on the ruler.
pub(super) fn ruler_x(l: &Layout, distance: u32, target: u32) -> f32 {
    let share = if target == 0 {
        0.0
    } else {
        distance.min(target) as f32 / target as f32
    };
    l.ruler_left + share * (l.ruler_right - l.ruler_left)
}
