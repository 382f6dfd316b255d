//! Text renderings of views, dispatched by game.
//!
//! Owns the text track, the alt text and the DM text of every game (one module per
//! game), and [`ordinal`], which posts and pictures share.

mod card_race;
mod dream_mile;
mod fifteen_hundred;
mod magical_athlete;

pub use crate::games::words::ordinal;
use crate::games::{AnyPrivateView, AnyPublicView};

/// The text track and standings for the channel (monospace-friendly, no markup).
pub fn track_text(view: &AnyPublicView) -> String {
    match view {
        AnyPublicView::DreamMile(v) => dream_mile::track(v),
        AnyPublicView::CardRace(v) => card_race::track(v),
        AnyPublicView::FifteenHundred(v) => fifteen_hundred::track(v),
        AnyPublicView::MagicalAthlete(v) => magical_athlete::track(v),
    }
}

/// One sentence of standings, for a picture's alt text and for screen readers.
pub fn alt_text(view: &AnyPublicView) -> String {
    match view {
        AnyPublicView::DreamMile(v) => dream_mile::alt(v),
        AnyPublicView::CardRace(v) => card_race::alt(v),
        AnyPublicView::FifteenHundred(v) => fifteen_hundred::alt(v),
        AnyPublicView::MagicalAthlete(v) => magical_athlete::alt(v),
    }
}

/// A seat's private view, for its DM.
pub fn private_text(view: &AnyPrivateView) -> String {
    match view {
        AnyPrivateView::DreamMile(v) => dream_mile::private(v),
        AnyPrivateView::CardRace(v) => card_race::private(v),
        AnyPrivateView::FifteenHundred(v) => fifteen_hundred::private(v),
        AnyPrivateView::MagicalAthlete(v) => magical_athlete::private(v),
    }
}
