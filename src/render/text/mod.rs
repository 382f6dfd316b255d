//! Text renderings of views, dispatched by game.
//!
//! Owns the text track, the alt text and the DM text of every game (one module per
//! game), and [`ordinal`], which posts and pictures share.

mod card_race;
mod dream_mile;
mod fifteen_hundred;
mod magical_athlete;

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

/// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st...
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103]
            .iter()
            .map(|&n| ordinal(n))
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"
            ]
        );
    }
}
