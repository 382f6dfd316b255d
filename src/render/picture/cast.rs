//! Who is drawn, and how: each runner's (or team's) token style, token label and name as
//! the picture can draw it, by index. Every picture of a race builds its cast the same
//! way, so a runner keeps one colour and one label in all of them.

use super::font::Fonts;
use super::palette::{SeatStyle, seat_style, seat_styles, token_labels};

/// More runners than any race has; a view claiming more is damaged.
pub const MAX_CAST: usize = 64;

/// Token styles, labels and names, by index.
pub struct Cast {
    styles: Vec<SeatStyle>,
    labels: Vec<String>,
    names: Vec<String>,
}

/// A name with what the bundled font cannot draw (emoji, scripts it lacks) left out, so
/// the picture shows no empty boxes; the text track beside it keeps the name whole.
pub fn drawable(fonts: &Fonts, name: &str) -> String {
    let kept: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|&c| c == ' ' || fonts.has_glyph(c))
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Cast {
    /// Seat `i` is `names[i]` (empty for a seat the view does not name), in seat style `i`.
    pub fn seats(fonts: &Fonts, names: &[String]) -> Cast {
        Cast::labelled(fonts, names, names)
    }

    /// As [`Cast::seats`], with token labels made from `label_sources` instead of the names
    /// (robots `Robot 1`, `Robot 2` are labelled `R1`, `R2`).
    pub fn labelled(fonts: &Fonts, names: &[String], label_sources: &[String]) -> Cast {
        // A damaged view cannot make labelling (quadratic in seats) run away.
        let n = names.len().min(MAX_CAST);
        let drawn: Vec<String> = names
            .iter()
            .take(n)
            .map(|name| drawable(fonts, name))
            .collect();
        let sources: Vec<String> = (0..n)
            .map(|i| match label_sources.get(i) {
                Some(s) => drawable(fonts, s),
                None => String::new(),
            })
            .collect();
        let refs: Vec<&str> = sources.iter().map(String::as_str).collect();
        let labels = token_labels(fonts, &refs);
        let named: Vec<&str> = names.iter().take(n).map(String::as_str).collect();
        let styles = seat_styles(&named);
        let names = drawn
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                if n.is_empty() {
                    format!("Runner {}", i + 1)
                } else {
                    n
                }
            })
            .collect();
        Cast {
            styles,
            labels,
            names,
        }
    }

    /// A cast given whole (teams: a style, label and name each).
    pub fn from_parts(styles: Vec<SeatStyle>, labels: Vec<String>, names: Vec<String>) -> Cast {
        Cast {
            styles,
            labels,
            names,
        }
    }

    pub fn len(&self) -> usize {
        self.styles.len()
    }

    pub fn style(&self, i: usize) -> SeatStyle {
        self.styles.get(i).copied().unwrap_or_else(|| seat_style(i))
    }

    pub fn label(&self, i: usize) -> &str {
        self.labels.get(i).map(String::as_str).unwrap_or("?")
    }

    pub fn name(&self, i: usize) -> &str {
        self.names.get(i).map(String::as_str).unwrap_or("?")
    }
}
