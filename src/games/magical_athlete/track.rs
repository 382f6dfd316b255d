//! The two sides of the board: Mild Mile (no special spaces) and Wild Wilds (arrows, rocks
//! and stars), in the printed layout or the rulebook's older one.
//!
//! Both are 30 spaces: Start is space 0, a racer finishes on reaching 30, and the second
//! corner (Blimp) is space 15.

use serde::{Deserialize, Serialize};

/// The space a racer finishes on reaching.
pub const FINISH: u8 = 30;
/// The second corner of the track (Blimp).
pub const SECOND_CORNER: u8 = 15;

/// Which side of the board a race uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Track {
    Mild,
    /// Wild Wilds as printed on the board (the default).
    Wild,
    /// Wild Wilds as the rulebook's older text lays it out.
    WildRulebook,
}

/// What a space does to a racer that stops on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "type", content = "value")]
pub enum Special {
    /// Move this many spaces (a separate move, never the main move).
    Arrow(i8),
    /// Trip.
    Rock,
    /// Take a bronze 1-point chip.
    Star,
}

const WILD: &[(u8, Special)] = &[
    (1, Special::Star),
    (5, Special::Rock),
    (7, Special::Arrow(3)),
    (11, Special::Arrow(1)),
    (13, Special::Star),
    (16, Special::Arrow(-4)),
    (17, Special::Rock),
    (23, Special::Arrow(2)),
    (24, Special::Arrow(-2)),
    (26, Special::Rock),
];

const WILD_RULEBOOK: &[(u8, Special)] = &[
    (1, Special::Star),
    (3, Special::Rock),
    (5, Special::Arrow(3)),
    (11, Special::Star),
    (14, Special::Arrow(-4)),
    (15, Special::Rock),
    (20, Special::Arrow(2)),
    (21, Special::Arrow(-2)),
    (24, Special::Star),
];

/// Spaces a lookup table covers (every space a racer can stop on before the finish).
const TABLE: usize = 32;

/// A space-indexed table of `specials` (the first entry for a space wins, as in a search).
const fn table(specials: &[(u8, Special)]) -> [Option<Special>; TABLE] {
    let mut t = [None; TABLE];
    let mut i = 0;
    while i < specials.len() {
        let (space, sp) = specials[i];
        if (space as usize) < TABLE && t[space as usize].is_none() {
            t[space as usize] = Some(sp);
        }
        i += 1;
    }
    t
}

static WILD_TABLE: [Option<Special>; TABLE] = table(WILD);
static WILD_RULEBOOK_TABLE: [Option<Special>; TABLE] = table(WILD_RULEBOOK);

impl Track {
    pub fn name(self) -> &'static str {
        match self {
            Track::Mild => "Mild Mile",
            Track::Wild => "Wild Wilds",
            Track::WildRulebook => "Wild Wilds (rulebook layout)",
        }
    }

    /// Every special space, by space number.
    pub fn specials(self) -> &'static [(u8, Special)] {
        match self {
            Track::Mild => &[],
            Track::Wild => WILD,
            Track::WildRulebook => WILD_RULEBOOK,
        }
    }

    /// The special on `space`, if any (a table lookup: this runs on every stop).
    pub fn special(self, space: u8) -> Option<Special> {
        let t = match self {
            Track::Mild => return None,
            Track::Wild => &WILD_TABLE,
            Track::WildRulebook => &WILD_RULEBOOK_TABLE,
        };
        t.get(usize::from(space)).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_space_table_agrees_with_the_list_of_specials() {
        for track in [Track::Mild, Track::Wild, Track::WildRulebook] {
            for space in 0..=u8::MAX {
                let searched = track
                    .specials()
                    .iter()
                    .find(|(s, _)| *s == space)
                    .map(|(_, sp)| *sp);
                assert_eq!(track.special(space), searched, "{track:?} {space}");
            }
        }
    }

    #[test]
    fn printed_wild_wilds_matches_the_reference() {
        let t = Track::Wild;
        let stars: Vec<u8> = t
            .specials()
            .iter()
            .filter(|(_, s)| *s == Special::Star)
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(stars, vec![1, 13]);
        let rocks: Vec<u8> = t
            .specials()
            .iter()
            .filter(|(_, s)| *s == Special::Rock)
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(rocks, vec![5, 17, 26]);
        assert_eq!(t.special(7), Some(Special::Arrow(3)));
        assert_eq!(t.special(11), Some(Special::Arrow(1)));
        assert_eq!(t.special(16), Some(Special::Arrow(-4)));
        assert_eq!(t.special(23), Some(Special::Arrow(2)));
        assert_eq!(t.special(24), Some(Special::Arrow(-2)));
        assert_eq!(t.special(0), None);
    }

    #[test]
    fn rulebook_wild_wilds_and_mild_mile() {
        let t = Track::WildRulebook;
        assert_eq!(t.special(5), Some(Special::Arrow(3)));
        assert_eq!(t.special(14), Some(Special::Arrow(-4)));
        assert_eq!(t.special(20), Some(Special::Arrow(2)));
        assert_eq!(t.special(21), Some(Special::Arrow(-2)));
        assert_eq!(t.special(3), Some(Special::Rock));
        assert_eq!(t.special(15), Some(Special::Rock));
        assert_eq!(t.special(24), Some(Special::Star));
        assert!((0..FINISH).all(|s| Track::Mild.special(s).is_none()));
    }
}
