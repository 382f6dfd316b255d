//! The drawing surface: shapes, text and tokens over a tiny-skia pixmap, and the finished
//! [`Picture`] with its PNG encoding. Game pictures draw through this and nothing else.

use std::collections::HashMap;

use tiny_skia::{
    Color, FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use super::RenderError;
use super::font::{CAP_HEIGHT, Fonts, Weight, fonts};
use super::palette::{Rgb, SeatStyle, Shape};

/// The largest picture drawn: far beyond any race, and a guard against a view so odd it
/// would ask for gigabytes.
pub const MAX_SIDE: u32 = 4096;

/// How a line of text sits on its anchor point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Centre,
    Right,
}

/// A picture being drawn.
pub struct Canvas {
    pixmap: Pixmap,
    fonts: &'static Fonts,
}

fn paint(colour: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(colour.0, colour.1, colour.2, 255));
    p.anti_alias = true;
    p
}

fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    // Cubic arcs: 0.5523 is the usual circle constant.
    let k = r * (1.0 - 0.552_284_8);
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - k, y, x + w, y + k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - k, x + w - k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + k, y + h, x, y + h - k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + k, x + k, y, x + r, y);
    pb.close();
    pb.finish()
}

impl Canvas {
    /// A blank picture of `width` × `height` filled with `background`.
    pub fn new(width: u32, height: u32, background: Rgb) -> Result<Canvas, RenderError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(RenderError::TooLarge { width, height });
        }
        let mut pixmap =
            Pixmap::new(width, height).ok_or(RenderError::TooLarge { width, height })?;
        pixmap.fill(Color::from_rgba8(
            background.0,
            background.1,
            background.2,
            255,
        ));
        Ok(Canvas {
            pixmap,
            fonts: fonts()?,
        })
    }

    pub fn fonts(&self) -> &'static Fonts {
        self.fonts
    }

    pub fn width(&self) -> f32 {
        self.pixmap.width() as f32
    }

    fn fill(&mut self, path: Option<Path>, colour: Rgb) {
        if let Some(path) = path {
            self.pixmap.fill_path(
                &path,
                &paint(colour),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    fn stroke(&mut self, path: Option<Path>, colour: Rgb, width: f32) {
        if let Some(path) = path {
            let stroke = Stroke {
                width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(colour), &stroke, Transform::identity(), None);
        }
    }

    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Rgb) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
            self.pixmap
                .fill_rect(r, &paint(colour), Transform::identity(), None);
        }
    }

    pub fn rounded(&mut self, x: f32, y: f32, w: f32, h: f32, r: f32, colour: Rgb) {
        self.fill(rounded_rect(x, y, w, h, r), colour);
    }

    /// The outline of a rounded rectangle (`rect`: left, top, width, height).
    pub fn rounded_outline(&mut self, rect: (f32, f32, f32, f32), r: f32, colour: Rgb, width: f32) {
        let (x, y, w, h) = rect;
        self.stroke(rounded_rect(x, y, w, h, r), colour, width);
    }

    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, colour: Rgb) {
        self.fill(PathBuilder::from_circle(cx, cy, r), colour);
    }

    /// A straight or bent line through `points`, with round ends and joins.
    pub fn polyline(&mut self, points: &[(f32, f32)], colour: Rgb, width: f32) {
        let mut pb = PathBuilder::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if points.len() > 1 {
            self.stroke(pb.finish(), colour, width);
        }
    }

    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), colour: Rgb, width: f32) {
        self.polyline(&[from, to], colour, width);
    }

    pub fn measure(&self, weight: Weight, size: f32, text: &str) -> f32 {
        self.fonts.measure(weight, size, text)
    }

    /// `text` shortened with an ellipsis to fit `max_width`.
    pub fn fit(&self, weight: Weight, size: f32, text: &str, max_width: f32) -> String {
        self.fonts.fit(weight, size, text, max_width)
    }

    /// Draws one line of text on `baseline`; returns its width.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f32,
        baseline: f32,
        text: &str,
        size: f32,
        weight: Weight,
        colour: Rgb,
        align: Align,
    ) -> f32 {
        let width = self.measure(weight, size, text);
        let left = match align {
            Align::Left => x,
            Align::Centre => x - width / 2.0,
            Align::Right => x - width,
        };
        let path = self.fonts.path(weight, size, text, left, baseline);
        self.fill(path, colour);
        width
    }

    /// Draws a line of capitals and digits centred on (`cx`, `cy`).
    pub fn text_centred(
        &mut self,
        cx: f32,
        cy: f32,
        text: &str,
        size: f32,
        weight: Weight,
        colour: Rgb,
    ) {
        let baseline = cy + size * CAP_HEIGHT / 2.0;
        self.text(cx, baseline, text, size, weight, colour, Align::Centre);
    }

    /// The largest size up to `size` at which `text` fits in `max_width`.
    pub fn size_to_fit(&self, weight: Weight, size: f32, text: &str, max_width: f32) -> f32 {
        let w = self.measure(weight, size, text);
        if w <= max_width || w <= 0.0 {
            size
        } else {
            (size * max_width / w).max(1.0)
        }
    }

    /// A seat's token centred on (`cx`, `cy`): its shape in its colour, a white ring so it
    /// stands out on any ground, and its label inside.
    pub fn token(&mut self, cx: f32, cy: f32, r: f32, style: &SeatStyle, label: &str) {
        let ring = (r * 0.12).max(2.0);
        let outline = Rgb(0x22, 0x22, 0x28);
        match style.shape {
            Shape::Disc => {
                self.circle(cx, cy, r + ring + 1.0, outline);
                self.circle(cx, cy, r + ring, Rgb::WHITE);
                self.circle(cx, cy, r, style.fill);
            }
            Shape::Square => {
                let s = r * 0.9;
                let o = s + ring + 1.0;
                self.rounded(cx - o, cy - o, 2.0 * o, 2.0 * o, r * 0.25, outline);
                let w = s + ring;
                self.rounded(cx - w, cy - w, 2.0 * w, 2.0 * w, r * 0.22, Rgb::WHITE);
                self.rounded(cx - s, cy - s, 2.0 * s, 2.0 * s, r * 0.18, style.fill);
            }
            Shape::Diamond => {
                let d = |pb: &mut PathBuilder, e: f32| {
                    pb.move_to(cx, cy - e);
                    pb.line_to(cx + e, cy);
                    pb.line_to(cx, cy + e);
                    pb.line_to(cx - e, cy);
                    pb.close();
                };
                let e = r * 1.2;
                for (extra, colour) in [
                    (ring * 1.4 + 1.4, outline),
                    (ring * 1.4, Rgb::WHITE),
                    (0.0, style.fill),
                ] {
                    let mut pb = PathBuilder::new();
                    d(&mut pb, e + extra);
                    self.fill(pb.finish(), colour);
                }
            }
        }
        let room = match style.shape {
            Shape::Disc => 2.0 * r - r * 0.3,
            Shape::Square => 1.8 * r - r * 0.2,
            Shape::Diamond => 1.2 * r,
        };
        let size = self.size_to_fit(Weight::Bold, r * 0.78, label, room);
        self.text_centred(cx, cy, label, size, Weight::Bold, style.ink);
    }

    /// The finished picture.
    pub fn finish(self) -> Picture {
        Picture {
            pixmap: self.pixmap,
        }
    }
}

/// A drawn picture, ready to encode.
pub struct Picture {
    pixmap: Pixmap,
}

impl Picture {
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// The pixels as RGB bytes, row by row (pictures are opaque).
    pub fn rgb(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.pixmap.pixels().len() * 3);
        for p in self.pixmap.pixels() {
            let c = p.demultiply();
            out.extend_from_slice(&[c.red(), c.green(), c.blue()]);
        }
        out
    }

    /// At most 256 colours for the whole picture, and each pixel's index into them: the
    /// picture's flat colours and its most common anti-aliasing shades; rarer shades take
    /// the nearest colour kept. This makes the PNG several times smaller.
    fn indexed(&self) -> (Vec<[u8; 3]>, Vec<u8>) {
        let rgb = self.rgb();
        let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
        for px in rgb.chunks_exact(3) {
            *counts.entry([px[0], px[1], px[2]]).or_insert(0) += 1;
        }
        let mut by_count: Vec<([u8; 3], u32)> = counts.into_iter().collect();
        // Most common first; ties by colour so the palette never depends on hashing.
        by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let palette: Vec<[u8; 3]> = by_count.iter().take(256).map(|e| e.0).collect();
        let mut index: HashMap<[u8; 3], u8> = HashMap::new();
        for (i, c) in palette.iter().enumerate() {
            index.insert(*c, i as u8);
        }
        for (c, _) in by_count.iter().skip(palette.len()) {
            index.insert(*c, nearest(&palette, *c));
        }
        let pixels = rgb
            .chunks_exact(3)
            .map(|px| index.get(&[px[0], px[1], px[2]]).copied().unwrap_or(0))
            .collect();
        (palette, pixels)
    }

    /// PNG bytes: an 8-bit palette image (see `indexed`), compressed hard because a
    /// picture is drawn once and downloaded by every phone in the channel. Row filters
    /// only enlarge palette images of flat colour, so none is used.
    pub fn png(&self) -> Result<Vec<u8>, RenderError> {
        let (palette, pixels) = self.indexed();
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width(), self.height());
            enc.set_color(png::ColorType::Indexed);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_palette(palette.concat());
            enc.set_compression(png::Compression::High);
            enc.set_filter(png::Filter::NoFilter);
            let mut writer = enc
                .write_header()
                .map_err(|e| RenderError::Encode(e.to_string()))?;
            writer
                .write_image_data(&pixels)
                .map_err(|e| RenderError::Encode(e.to_string()))?;
            writer
                .finish()
                .map_err(|e| RenderError::Encode(e.to_string()))?;
        }
        Ok(out)
    }
}

/// The palette entry closest to `c` (squared distance, weighted for the eye).
fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let mut best = (u32::MAX, 0u8);
    for (i, p) in palette.iter().enumerate() {
        let d = |a: u8, b: u8| {
            let x = i32::from(a) - i32::from(b);
            (x * x) as u32
        };
        let dist = 2 * d(c[0], p[0]) + 4 * d(c[1], p[1]) + 3 * d(c[2], p[2]);
        if dist < best.0 {
            best = (dist, i as u8);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_empty_and_huge_canvases() {
        assert!(matches!(
            Canvas::new(0, 10, Rgb::WHITE),
            Err(RenderError::TooLarge { .. })
        ));
        assert!(matches!(
            Canvas::new(10, MAX_SIDE + 1, Rgb::WHITE),
            Err(RenderError::TooLarge { .. })
        ));
    }

    #[test]
    fn draws_where_asked_and_encodes_a_png() {
        let mut c = Canvas::new(40, 20, Rgb::WHITE).unwrap();
        c.rect(0.0, 0.0, 10.0, 10.0, Rgb(0, 0, 0));
        let p = c.finish();
        let rgb = p.rgb();
        assert_eq!(&rgb[0..3], &[0, 0, 0]);
        let far = (15 * 40 + 30) * 3;
        assert_eq!(&rgb[far..far + 3], &[255, 255, 255]);
        let png = p.png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
