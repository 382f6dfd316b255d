//! PNG pictures of the race, for the channel: the track after each turn, and the race
//! chart at the end.
//!
//! Drawing is pure Rust, so a picture needs no system font, no network and no C library:
//! tiny-skia strokes lines and fills polygons, discs and rounded panels are shaded from
//! their exact coverage, and ab_glyph rasterises the bundled DejaVu Sans. Like the text
//! renderings, pictures read public views only, so they cannot show a secret.
//!
//! [`canvas`] owns the drawing surface and PNG encoding, [`palette`] each seat's colour,
//! shape and token label, [`cast`] who is drawn how, [`frame`] the width and header every
//! picture shares, [`chart`] the race chart every game shares, [`oval`] 1500m's board as
//! drawn; one module per game lays its pictures out (`magical_athlete` draws its own
//! 30-space oval).

mod canvas;
mod card_race;
mod cast;
mod chart;
mod dream_mile;
mod error;
mod fifteen_hundred;
mod font;
mod frame;
mod magical_athlete;
mod oval;
mod palette;
mod series;
pub mod vision;

use crate::games::AnyPublicView;

pub use canvas::{MAX_SIDE, Picture};
pub use error::RenderError;
pub use palette::{Rgb, SEAT_COLOURS, SeatStyle, Shape, seat_style};
pub use series::series_chart;

/// The turn picture: the track and standings as the channel sees them now.
pub fn track_picture(view: &AnyPublicView) -> Result<Picture, RenderError> {
    match view {
        AnyPublicView::DreamMile(v) => dream_mile::track(v),
        AnyPublicView::CardRace(v) => card_race::track(v),
        AnyPublicView::FifteenHundred(v) => fifteen_hundred::track(v),
        AnyPublicView::MagicalAthlete(v) => magical_athlete::track(v),
    }
}

/// The race chart: positions turn by turn, in the style of a motor-racing lap chart.
pub fn race_chart_picture(view: &AnyPublicView) -> Result<Picture, RenderError> {
    match view {
        AnyPublicView::DreamMile(v) => dream_mile::race_chart(v),
        AnyPublicView::CardRace(v) => card_race::race_chart(v),
        AnyPublicView::FifteenHundred(v) => fifteen_hundred::race_chart(v),
        AnyPublicView::MagicalAthlete(v) => magical_athlete::race_chart(v),
    }
}

/// The turn picture as PNG bytes, for the turn's channel post.
pub fn track_png(view: &AnyPublicView) -> Result<Vec<u8>, RenderError> {
    track_picture(view)?.png()
}

/// The race chart as PNG bytes, for the end-of-race post.
pub fn race_chart_png(view: &AnyPublicView) -> Result<Vec<u8>, RenderError> {
    race_chart_picture(view)?.png()
}
