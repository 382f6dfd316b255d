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

/// How a text writes what a player wrote (names, orders): as it is for the terminal,
/// escaped for Discord ([`crate::render::escape_markdown`]).
pub type User<'a> = &'a dyn Fn(&str) -> String;

/// A seat's private view, for its DM, with names as they were written.
pub fn private_text(view: &AnyPrivateView) -> String {
    private_text_as(view, &|s: &str| s.to_string())
}

/// A seat's private view, for its DM, with what players wrote passed through `user`. The
/// rest is the bot's own text, and keeps its markup (a code span for `counter`).
pub fn private_text_as(view: &AnyPrivateView, user: User<'_>) -> String {
    match view {
        AnyPrivateView::DreamMile(v) => dream_mile::private(v, user),
        AnyPrivateView::CardRace(v) => card_race::private(v, user),
        AnyPrivateView::FifteenHundred(v) => fifteen_hundred::private(v, user),
        AnyPrivateView::MagicalAthlete(v) => magical_athlete::private(v, user),
    }
}
