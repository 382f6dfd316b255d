//! The bundled font (DejaVu Sans, regular and bold; see `assets/fonts/`): glyph lookup,
//! measuring, and rasterising a line of text. No system font is ever read.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, GlyphId, PxScale, point};

use super::error::RenderError;

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

    /// `text` broken at spaces into lines no wider than `max_width` (a word too long for a
    /// line gets a line of its own, cut short by [`Fonts::fit`]).
    pub fn wrap(&self, weight: Weight, size: f32, text: &str, max_width: f32) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if line.is_empty() || self.measure(weight, size, &candidate) <= max_width {
                line = candidate;
            } else {
                lines.push(std::mem::take(&mut line));
                line = word.to_string();
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
            .into_iter()
            .map(|l| self.fit(weight, size, &l, max_width))
            .collect()
    }

    /// Rasterises `text` with its baseline starting at (`x`, `y`), calling `plot` with
    /// each pixel it touches and its coverage (0 to 1). ab_glyph computes exact coverage
    /// in one pass, several times faster than filling glyph outlines as paths, and each
    /// glyph is rasterised once per size and sixteenth of a pixel (see [`GLYPHS`]).
    pub fn draw(
        &self,
        weight: Weight,
        size: f32,
        text: &str,
        x: f32,
        y: f32,
        mut plot: impl FnMut(i32, i32, f32),
    ) {
        let face = self.face(weight);
        let upem = face.units_per_em().unwrap_or(2048.0);
        let scale = size / upem;
        let mut pen = x;
        let mut prev: Option<GlyphId> = None;
        for id in self.glyphs(weight, text) {
            if let Some(p) = prev {
                pen += face.kern_unscaled(p, id) * scale;
            }
            let (ix, fx) = split(pen);
            let (iy, fy) = split(y);
            let key = GlyphKey {
                bold: weight == Weight::Bold,
                id: id.0,
                size: size.to_bits(),
                fx,
                fy,
            };
            if let Some(g) = self.glyph(key, face) {
                let (left, top) = (ix + g.left, iy + g.top);
                for (row, line) in g.coverage.chunks(g.width.max(1)).enumerate() {
                    for (col, &c) in line.iter().enumerate() {
                        if c > 0 {
                            plot(left + col as i32, top + row as i32, f32::from(c) / 255.0);
                        }
                    }
                }
            }
            pen += face.h_advance_unscaled(id) * scale;
            prev = Some(id);
        }
    }

    /// A glyph's coverage, from the cache or rasterised now. `None` for a glyph with no
    /// outline (a space) or a size too absurd to rasterise.
    fn glyph(&self, key: GlyphKey, face: &FontRef<'static>) -> Option<Arc<Glyph>> {
        // A poisoned lock only means another picture failed mid-way: rasterise afresh.
        if let Some(g) = GLYPHS.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return g;
        }
        let upem = face.units_per_em().unwrap_or(2048.0);
        let size = f32::from_bits(key.size);
        // ab_glyph scales by ascent-to-descent height; this makes `size` the em.
        let px = PxScale::from(size * face.height_unscaled() / upem);
        let origin = point(f32::from(key.fx) / 16.0, f32::from(key.fy) / 16.0);
        let glyph = GlyphId(key.id).with_scale_and_position(px, origin);
        let drawn = face.outline_glyph(glyph).and_then(|outlined| {
            let b = outlined.px_bounds();
            let (width, height) = (b.width() as usize, b.height() as usize);
            // Nothing in a picture is near this size; a damaged size is not drawn.
            if width * height > 1 << 20 {
                return None;
            }
            let mut coverage = vec![0u8; width * height];
            outlined.draw(|gx, gy, c| {
                let i = gy as usize * width + gx as usize;
                if let Some(cell) = coverage.get_mut(i) {
                    *cell = (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
                }
            });
            Some(Arc::new(Glyph {
                left: b.min.x as i32,
                top: b.min.y as i32,
                width,
                coverage,
            }))
        });
        if let Ok(mut cache) = GLYPHS.lock() {
            if cache.len() >= GLYPHS_KEPT {
                cache.clear();
            }
            cache.insert(key, drawn.clone());
        }
        drawn
    }
}

/// The whole pixels of `v` and its remainder in sixteenths (carrying a rounded-up 16).
fn split(v: f32) -> (i32, u8) {
    let whole = v.floor();
    let sixteenths = ((v - whole) * 16.0 + 0.5) as i32;
    if sixteenths >= 16 {
        (whole as i32 + 1, 0)
    } else {
        (whole as i32, sixteenths.clamp(0, 15) as u8)
    }
}

/// A rasterised glyph: what it needs to be found again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct GlyphKey {
    bold: bool,
    id: u16,
    /// Pixels per em, as `f32` bits.
    size: u32,
    /// Where the pen stood within its pixel, in sixteenths.
    fx: u8,
    fy: u8,
}

/// A glyph's coverage (0 to 255), row by row, and where its top-left pixel lies from the
/// pen's whole pixel.
struct Glyph {
    left: i32,
    top: i32,
    width: usize,
    coverage: Vec<u8>,
}

/// Glyphs rasterised so far. Pictures repeat the same few sizes and letters turn after
/// turn, and rasterising was most of the cost of text. Cleared when full.
static GLYPHS: LazyLock<Mutex<HashMap<GlyphKey, Option<Arc<Glyph>>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
const GLYPHS_KEPT: usize = 8192;

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
    fn wrap_breaks_at_spaces_within_the_width() {
        let f = fonts().unwrap();
        let text = "Each box: runner, and mental strength after the round. Robots have none.";
        let one = f.wrap(Weight::Regular, 16.0, text, 2000.0);
        assert_eq!(one, [text]);
        let lines = f.wrap(Weight::Regular, 16.0, text, 300.0);
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(lines.join(" "), text);
        for l in &lines {
            assert!(f.measure(Weight::Regular, 16.0, l) <= 300.0, "{l}");
        }
        assert!(f.wrap(Weight::Regular, 16.0, "   ", 100.0).is_empty());
        let cut = f.wrap(Weight::Regular, 16.0, "Supercalifragilistic", 40.0);
        assert!(cut[0].ends_with('…'));
    }

    #[test]
    fn text_is_drawn_where_expected() {
        let f = fonts().unwrap();
        let mut touched: Vec<(i32, i32, f32)> = Vec::new();
        f.draw(Weight::Bold, 20.0, "H", 10.0, 50.0, |x, y, c| {
            if c > 0.5 {
                touched.push((x, y, c));
            }
        });
        let top = touched.iter().map(|t| t.1).min().unwrap();
        let bottom = touched.iter().map(|t| t.1).max().unwrap();
        let left = touched.iter().map(|t| t.0).min().unwrap();
        assert_eq!(bottom, 49, "the baseline is the bottom of a capital");
        assert!(
            (top as f32 - (50.0 - 20.0 * CAP_HEIGHT)).abs() <= 1.0,
            "{top}"
        );
        assert!(left >= 10);
        let mut none = 0;
        f.draw(Weight::Bold, 20.0, "   ", 0.0, 20.0, |_, _, c| {
            if c > 0.0 {
                none += 1;
            }
        });
        assert_eq!(none, 0);
        f.draw(Weight::Bold, 20.0, "a\tb\n🏃", 0.0, 20.0, |_, _, _| {});
    }
}
