//! Text renderings of views, dispatched by game.
//!
//! Owns the text track, the alt text and the DM text of every game (one module per
//! game), and [`ordinal`], which posts and pictures share.

mod card_race;
mod columns;
mod dream_mile;
mod fifteen_hundred;
mod magical_athlete;

pub use crate::games::words::ordinal;
use crate::games::{AnyPrivateView, AnyPublicView};

pub use columns::{User, columns, pad};

/// The text track and standings for the channel (monospace-friendly, no markup).
pub fn track_text(view: &AnyPublicView) -> String {
    let text = match view {
        AnyPublicView::DreamMile(v) => dream_mile::track(v),
        AnyPublicView::CardRace(v) => card_race::track(v),
        AnyPublicView::FifteenHundred(v) => fifteen_hundred::track(v),
        AnyPublicView::MagicalAthlete(v) => magical_athlete::track(v),
    };
    fit_phone(&text)
}

/// Breaks every line wider than a phone's [`dream_mile::PHONE_COLUMNS`] at spaces; a
/// further line is indented two more than the line it continues. Nothing is dropped (a
/// single word wider than a phone stays whole). The games lay their tables out to fit, so
/// this catches headings, lists and long names.
pub fn fit_phone(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        if columns(line) <= dream_mile::PHONE_COLUMNS {
            out.push(line.to_string());
            continue;
        }
        let lead = line.chars().take_while(|c| *c == ' ').count();
        let indent = " ".repeat(lead.saturating_add(2));
        let mut current = " ".repeat(lead);
        let mut empty = true;
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            let wide = columns(&current)
                .saturating_add(1)
                .saturating_add(columns(word));
            if !empty && wide > dream_mile::PHONE_COLUMNS {
                out.push(std::mem::replace(&mut current, indent.clone()));
                empty = true;
            }
            if !empty {
                current.push(' ');
            }
            current.push_str(word);
            empty = false;
        }
        out.push(current);
    }
    out.join("\n")
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

#[cfg(test)]
mod tests {
    use super::*;
    use dream_mile::PHONE_COLUMNS;

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(columns("Ana"), 3);
        assert_eq!(columns("李小龍"), 6);
        assert_eq!(columns("🏃"), 2);
        assert_eq!(pad("李", 4), "李  ");
        assert_eq!(pad("李小龍", 4), "李小龍");
        // A line of 22 Chinese characters is 44 columns: broken for a phone.
        let line = "長い 名前 ".repeat(8);
        for l in fit_phone(&line).lines() {
            assert!(columns(l) <= PHONE_COLUMNS, "{l:?}");
        }
    }

    /// Every committed replay script, every step: each turn post's text track, and the
    /// last view's, which the final post carries.
    #[test]
    fn every_games_channel_text_fits_a_phone() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut checked = 0;
        let mut wide = std::collections::BTreeSet::new();
        for dir in ["tests/scripts", "docs/replay"] {
            let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                let views = crate::games::replay(&text).unwrap().views;
                for view in &views {
                    let t = track_text(view);
                    for line in t.lines().filter(|l| columns(l) > PHONE_COLUMNS) {
                        let name = file.file_name().unwrap().to_string_lossy();
                        wide.insert(format!("{name}: {line}"));
                    }
                    checked += 1;
                }
            }
        }
        assert!(
            wide.is_empty(),
            "{} lines too wide:\n{}",
            wide.len(),
            wide.iter().cloned().collect::<Vec<_>>().join("\n")
        );
        assert!(checked > 50, "{checked} views");
    }
}
