//! Seat colours, token shapes and token labels, shared by every game's pictures.
//!
//! A seat keeps its colour and shape for the whole race (they depend on the seat index
//! alone). The colours are Okabe and Ito's palette for colour-blind readers; beyond eight
//! seats the colours repeat with another shape, and every token also carries a label, so
//! no runner is told apart by colour alone.

use super::font::Fonts;

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const WHITE: Rgb = Rgb(255, 255, 255);

    /// Relative luminance (WCAG), 0 for black to 1 for white.
    pub fn luminance(self) -> f32 {
        let lin = |c: u8| {
            let c = f32::from(c) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.0) + 0.7152 * lin(self.1) + 0.0722 * lin(self.2)
    }

    /// WCAG contrast ratio between two colours (1 to 21).
    pub fn contrast(self, other: Rgb) -> f32 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// Ink on the page.
pub const INK: Rgb = Rgb(0x1d, 0x1f, 0x24);
/// Text that matters less.
pub const MUTED: Rgb = Rgb(0x55, 0x59, 0x62);
/// The page.
pub const PAGE: Rgb = Rgb(0xf6, 0xf4, 0xef);
/// Cards and panels on the page.
pub const CARD: Rgb = Rgb(0xff, 0xff, 0xff);
/// Hairlines on the page.
pub const RULE: Rgb = Rgb(0xd8, 0xd4, 0xca);

/// Okabe & Ito (2008), in the order seats take them: the first two (blue, orange) are the
/// safest pair, and vermillion comes late so that small races never set red beside green.
pub const SEAT_COLOURS: [Rgb; 8] = [
    Rgb(0x00, 0x72, 0xb2), // blue
    Rgb(0xe6, 0x9f, 0x00), // orange
    Rgb(0x56, 0xb4, 0xe9), // sky blue
    Rgb(0xcc, 0x79, 0xa7), // reddish purple
    Rgb(0xf0, 0xe4, 0x42), // yellow
    Rgb(0x00, 0x9e, 0x73), // bluish green
    Rgb(0x00, 0x00, 0x00), // black
    Rgb(0xd5, 0x5e, 0x00), // vermillion
];

/// The outline of a seat's token: seats 1-8 are discs, 9-16 squares, then diamonds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Disc,
    Square,
    Diamond,
}

/// How one seat is drawn all race long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatStyle {
    pub fill: Rgb,
    /// Text drawn on the fill: black or white, whichever reads better.
    pub ink: Rgb,
    pub shape: Shape,
}

/// The style of the seat with index `seat` (0-based).
pub fn seat_style(seat: usize) -> SeatStyle {
    style(seat % SEAT_COLOURS.len(), seat)
}

/// Names of colours a runner may be called (1500m's runners are "Red", "Blue"...), and the
/// seat colour each means.
const COLOUR_NAMES: [(&str, usize); 14] = [
    ("blue", 0),
    ("orange", 1),
    ("sky blue", 2),
    ("light blue", 2),
    ("purple", 3),
    ("pink", 3),
    ("magenta", 3),
    ("yellow", 4),
    ("green", 5),
    ("black", 6),
    ("red", 7),
    ("vermillion", 7),
    ("vermilion", 7),
    ("scarlet", 7),
];

/// The seat colour a name calls for, if the whole name is a colour's.
fn named_colour(name: &str) -> Option<usize> {
    let name = name.trim().to_lowercase();
    COLOUR_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, c)| c)
}

/// The styles of seats called `names`, in order. A runner named after a colour gets that
/// colour if no earlier runner of its shape claimed it, so "Red" is never drawn green; the
/// others keep their [`seat_style`] colour if still free, else take the first free one.
/// Every seat of one shape still has its own colour.
pub fn seat_styles(names: &[&str]) -> Vec<SeatStyle> {
    let n = SEAT_COLOURS.len();
    let mut colours: Vec<Option<usize>> = vec![None; names.len()];
    for (group, chunk) in colours.chunks_mut(n).enumerate() {
        let first = group.saturating_mul(n);
        let mut taken = [false; SEAT_COLOURS.len()];
        let named = |i: usize| {
            names
                .get(first.saturating_add(i))
                .and_then(|s| named_colour(s))
        };
        for (i, slot) in chunk.iter_mut().enumerate() {
            if let Some(c) = named(i).filter(|&c| !taken[c]) {
                taken[c] = true;
                *slot = Some(c);
            }
        }
        for (i, slot) in chunk.iter_mut().enumerate() {
            if slot.is_none() && !taken[i] && named(i).is_none() {
                taken[i] = true;
                *slot = Some(i);
            }
        }
        for slot in chunk.iter_mut().filter(|s| s.is_none()) {
            let free = (0..n).find(|&c| !taken[c]).unwrap_or(0);
            taken[free] = true;
            *slot = Some(free);
        }
    }
    colours
        .iter()
        .enumerate()
        .map(|(seat, c)| style(c.unwrap_or(seat % n), seat))
        .collect()
}

/// Colour `colour` of [`SEAT_COLOURS`] in seat `seat`'s shape.
fn style(colour: usize, seat: usize) -> SeatStyle {
    let n = SEAT_COLOURS.len();
    let fill = SEAT_COLOURS.get(colour).copied().unwrap_or(INK);
    let shape = match seat / n {
        0 => Shape::Disc,
        1 => Shape::Square,
        _ => Shape::Diamond,
    };
    let ink = if fill.contrast(Rgb::WHITE) >= fill.contrast(INK) {
        Rgb::WHITE
    } else {
        INK
    };
    SeatStyle { fill, ink, shape }
}

/// Short labels for tokens, in the motor-racing style ("ALI", "BIL"), one per name and
/// all different. A name ending in a number is its initial and that number ("Bot 2" is
/// "B2"); clashing names fall back to an initial and the seat number ("A3"), then to the
/// seat number alone ("#3").
pub fn token_labels(fonts: &Fonts, names: &[&str]) -> Vec<String> {
    let first = |name: &str| -> String {
        name.chars()
            .filter(|c| c.is_alphanumeric() && fonts.has_glyph(*c))
            .flat_map(char::to_uppercase)
            .filter(|c| fonts.has_glyph(*c))
            .take(3)
            .collect()
    };
    let mut level = vec![0u8; names.len()];
    loop {
        let labels: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let f = first(name);
                match level.get(i).copied().unwrap_or(2) {
                    // A numbered name reads as its initial and number ("Bot 1" is B1,
                    // never "BOT"), so its label says which bot it is in every race.
                    0 if !f.is_empty() => match (f.chars().next(), own_number(name)) {
                        (Some(c), Some(n)) if !c.is_ascii_digit() => format!("{c}{n}"),
                        _ => f,
                    },
                    0 | 1 => match (f.chars().next(), own_number(name)) {
                        (Some(c), Some(n)) => format!("{c}{n}"),
                        (Some(c), None) => format!("{c}{}", i + 1),
                        (None, _) => format!("#{}", i + 1),
                    },
                    _ => format!("#{}", i + 1),
                }
            })
            .collect();
        let mut bumped = false;
        for i in 0..labels.len() {
            let clash = labels
                .iter()
                .enumerate()
                .any(|(j, l)| j != i && Some(l) == labels.get(i));
            if clash
                && let Some(l) = level.get_mut(i)
                && *l < 2
            {
                *l += 1;
                bumped = true;
            }
        }
        if !bumped {
            return labels;
        }
    }
}

/// The number a name ends in, of one or two digits ("Bot 2" is 2): a label made from the
/// seat instead would call Bot 1, in the second seat, "B2".
pub(super) fn own_number(name: &str) -> Option<&str> {
    let body = name.trim_end();
    let digits = body.len() - body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let n = body.get(body.len() - digits..)?;
    (1..=2).contains(&n.len()).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::picture::font::fonts;

    /// A runner named after a colour is drawn in it ("Red" was seat 6's bluish green);
    /// the rest keep their seat's colour where they can, and no two share one.
    #[test]
    fn a_runner_named_after_a_colour_gets_it() {
        let names = ["Purple", "Yellow", "White", "Blue", "Green", "Red"];
        let styles = seat_styles(&names);
        let fill = |i: usize| styles[i].fill;
        assert_eq!(fill(0), SEAT_COLOURS[3], "Purple");
        assert_eq!(fill(1), SEAT_COLOURS[4], "Yellow");
        assert_eq!(fill(3), SEAT_COLOURS[0], "Blue");
        assert_eq!(fill(4), SEAT_COLOURS[5], "Green");
        assert_eq!(fill(5), SEAT_COLOURS[7], "Red is red");
        let mut fills: Vec<Rgb> = styles.iter().map(|s| s.fill).collect();
        fills.sort_by_key(|c| (c.0, c.1, c.2));
        fills.dedup();
        assert_eq!(fills.len(), names.len(), "all different");
        // Names that are not colours change nothing.
        let plain: Vec<SeatStyle> = seat_styles(&["Alice", "Bob", "Carol"]);
        assert_eq!(plain, (0..3).map(seat_style).collect::<Vec<_>>());
        // Two runners named Red: the second takes a free colour, not the first's.
        let two = seat_styles(&["red", "Red", "Ann"]);
        assert_eq!(two[0].fill, SEAT_COLOURS[7]);
        assert_ne!(two[1].fill, SEAT_COLOURS[7]);
        assert_ne!(two[1].fill, two[2].fill);
        // Beyond eight seats the shape changes and the colours start again.
        let many: Vec<String> = (0..10).map(|i| format!("R{i}")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            seat_styles(&refs),
            (0..10).map(seat_style).collect::<Vec<_>>()
        );
    }

    #[test]
    fn each_seat_keeps_a_style_and_the_first_eight_differ() {
        let styles: Vec<SeatStyle> = (0..12).map(seat_style).collect();
        for i in 0..8 {
            for j in 0..8 {
                if i != j {
                    assert_ne!(styles[i].fill, styles[j].fill);
                }
            }
        }
        assert_eq!(styles[0], seat_style(0));
        // Seat 9 shares seat 1's colour but not its shape.
        assert_eq!(styles[8].fill, styles[0].fill);
        assert_ne!(styles[8].shape, styles[0].shape);
        assert_eq!(seat_style(20).shape, Shape::Diamond);
    }

    #[test]
    fn token_text_reads_well_on_every_colour() {
        for (i, c) in SEAT_COLOURS.iter().enumerate() {
            let s = seat_style(i);
            assert!(
                s.ink.contrast(*c) >= 4.0,
                "seat {i}: {}",
                s.ink.contrast(*c)
            );
        }
    }

    #[test]
    fn small_races_never_set_red_beside_green() {
        let vermillion = Rgb(0xd5, 0x5e, 0x00);
        let green = Rgb(0x00, 0x9e, 0x73);
        let first: Vec<Rgb> = (0..4).map(|i| seat_style(i).fill).collect();
        assert!(!first.contains(&vermillion) && !first.contains(&green));
    }

    #[test]
    fn labels_are_short_and_unique() {
        let f = fonts().unwrap();
        let got = token_labels(
            f,
            &["Alice", "bill", "Al", "Alison", "Alibaba", "🏃", "Émile"],
        );
        assert_eq!(got[0], "A1");
        assert_eq!(got[1], "BIL");
        assert_eq!(got[2], "AL");
        assert_eq!(got[3], "A4");
        assert_eq!(got[4], "A5");
        assert_eq!(got[5], "#6");
        assert_eq!(got[6], "ÉMI");
        let mut sorted = got.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), got.len());
        // A clash with a fallback label is pushed to the seat number.
        let got = token_labels(f, &["A2", "Anna", "Anne"]);
        assert_eq!(got, ["A2", "#2", "A3"]);
    }

    /// Bots are named by their own count, not their seat: Bot 1 sits second.
    #[test]
    fn numbered_names_keep_their_number() {
        let f = fonts().unwrap();
        let got = token_labels(f, &["Alice", "Bot 1", "Bot 2", "Bot 12", "Robot 345"]);
        assert_eq!(got, ["ALI", "B1", "B2", "B12", "ROB"]);
        // Alone, Bot 1 is still B1: its label is its name, not "BOT".
        let got = token_labels(f, &["Alice", "Bot 1"]);
        assert_eq!(got, ["ALI", "B1"]);
        let got = token_labels(f, &["Bob 1", "Bobby 1", "Bot"]);
        assert_eq!(got, ["#1", "#2", "BOT"]);
    }
}
