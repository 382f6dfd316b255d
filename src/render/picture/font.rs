//! The bundled font (DejaVu Sans, regular and bold; see `assets/fonts/`): glyph lookup,
//! measuring, and turning a line of text into a path. No system font is ever read.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, OutlineCurve};
use tiny_skia::{Path, PathBuilder};

use super::RenderError;

static REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

/// Regular for details, bold for names and numbers that matter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

/// Both faces, parsed once.
pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

static FONTS: OnceLock<Option<Fonts>> = OnceLock::new();

/// The bundled faces; an error only if the bundled bytes were damaged at build time.
pub fn fonts() -> Result<&'static Fonts, RenderError> {
    FONTS
        .get_or_init(|| {
            let regular = FontRef::try_from_slice(REGULAR_TTF).ok()?;
            let bold = FontRef::try_from_slice(BOLD_TTF).ok()?;
            Some(Fonts { regular, bold })
        })
        .as_ref()
        .ok_or(RenderError::Font)
}

/// Height of a capital letter as a share of the em (DejaVu Sans: 1493 of 2048 units),
/// used to centre a line of capitals and digits in a box.
pub const CAP_HEIGHT: f32 = 0.729;

impl Fonts {
    fn face(&self, weight: Weight) -> &FontRef<'static> {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    /// Whether the font can draw `c` (otherwise it would show a box).
    pub fn has_glyph(&self, c: char) -> bool {
        self.regular.glyph_id(c).0 != 0 && self.bold.glyph_id(c).0 != 0
    }

    fn glyphs(&self, weight: Weight, text: &str) -> Vec<GlyphId> {
        let face = self.face(weight);
        text.chars()
            // Control characters in names (tabs, newlines) are drawn as spaces.
            .map(|c| face.glyph_id(if c.is_control() { ' ' } else { c }))
            .collect()
    }

    /// The advance width of `text` at `size` pixels per em.
    pub fn measure(&self, weight: Weight, size: f32, text: &str) -> f32 {
        let face = self.face(weight);
        let scale = size / face.units_per_em().unwrap_or(2048.0);
        let mut width = 0.0;
        let mut prev: Option<GlyphId> = None;
        for id in self.glyphs(weight, text) {
            if let Some(p) = prev {
                width += face.kern_unscaled(p, id);
            }
            width += face.h_advance_unscaled(id);
            prev = Some(id);
        }
        width * scale
    }

    /// `text` cut short with an ellipsis so it fits in `max_width`.
    pub fn fit(&self, weight: Weight, size: f32, text: &str, max_width: f32) -> String {
        if self.measure(weight, size, text) <= max_width {
            return text.to_string();
        }
        let chars: Vec<char> = text.chars().collect();
        let mut keep = chars.len();
        while keep > 0 {
            keep -= 1;
            let head: String = chars.iter().take(keep).collect();
            let candidate = format!("{}…", head.trim_end());
            if self.measure(weight, size, &candidate) <= max_width {
                return candidate;
            }
        }
        String::new()
    }

    /// The outline of `text` with its baseline starting at (`x`, `y`), in pixels
    /// (`None` when there is nothing to fill, e.g. only spaces).
    pub fn path(&self, weight: Weight, size: f32, text: &str, x: f32, y: f32) -> Option<Path> {
        let face = self.face(weight);
        let scale = size / face.units_per_em().unwrap_or(2048.0);
        let mut pb = PathBuilder::new();
        let mut pen = 0.0f32;
        let mut prev: Option<GlyphId> = None;
        for id in self.glyphs(weight, text) {
            if let Some(p) = prev {
                pen += face.kern_unscaled(p, id);
            }
            if let Some(outline) = face.outline(id) {
                // Font units have y up; pixels have y down.
                let at = |p: ab_glyph::Point| (x + (pen + p.x) * scale, y - p.y * scale);
                let mut last: Option<(f32, f32)> = None;
                for curve in &outline.curves {
                    let (start, end) = match curve {
                        OutlineCurve::Line(a, b) => (*a, *b),
                        OutlineCurve::Quad(a, _, c) => (*a, *c),
                        OutlineCurve::Cubic(a, _, _, d) => (*a, *d),
                    };
                    let s = at(start);
                    // A curve that does not continue the last one starts a new contour.
                    if last.is_none_or(|l| (l.0 - s.0).abs() > 1e-3 || (l.1 - s.1).abs() > 1e-3) {
                        if last.is_some() {
                            pb.close();
                        }
                        pb.move_to(s.0, s.1);
                    }
                    match curve {
                        OutlineCurve::Line(_, b) => {
                            let b = at(*b);
                            pb.line_to(b.0, b.1);
                        }
                        OutlineCurve::Quad(_, b, c) => {
                            let (b, c) = (at(*b), at(*c));
                            pb.quad_to(b.0, b.1, c.0, c.1);
                        }
                        OutlineCurve::Cubic(_, b, c, d) => {
                            let (b, c, d) = (at(*b), at(*c), at(*d));
                            pb.cubic_to(b.0, b.1, c.0, c.1, d.0, d.1);
                        }
                    }
                    last = Some(at(end));
                }
                if last.is_some() {
                    pb.close();
                }
            }
            pen += face.h_advance_unscaled(id);
            prev = Some(id);
        }
        pb.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_fonts_load_and_measure() {
        let f = fonts().unwrap();
        let w = f.measure(Weight::Regular, 20.0, "Alice");
        assert!(w > 40.0 && w < 70.0, "{w}");
        assert!(f.measure(Weight::Bold, 20.0, "Alice") > w);
        assert_eq!(f.measure(Weight::Bold, 20.0, ""), 0.0);
        assert!(f.has_glyph('é'));
        assert!(!f.has_glyph('🏃'));
    }

    #[test]
    fn fit_cuts_long_names_with_an_ellipsis() {
        let f = fonts().unwrap();
        let long = "Bartholomew Fitzwilliam-Montgomery";
        let cut = f.fit(Weight::Bold, 24.0, long, 150.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(f.measure(Weight::Bold, 24.0, &cut) <= 150.0);
        assert_eq!(f.fit(Weight::Bold, 24.0, "Al", 150.0), "Al");
        assert_eq!(f.fit(Weight::Bold, 24.0, long, 1.0), "");
    }

    #[test]
    fn text_becomes_a_path_where_expected() {
        let f = fonts().unwrap();
        let p = f.path(Weight::Bold, 20.0, "H", 10.0, 50.0).unwrap();
        let b = p.bounds();
        assert!((b.bottom() - 50.0).abs() < 0.5, "{b:?}");
        assert!((b.top() - (50.0 - 20.0 * CAP_HEIGHT)).abs() < 0.5, "{b:?}");
        assert!(b.left() >= 10.0);
        assert!(f.path(Weight::Bold, 20.0, "   ", 0.0, 0.0).is_none());
        assert!(f.path(Weight::Bold, 20.0, "a\tb\n🏃", 0.0, 20.0).is_some());
    }
}
