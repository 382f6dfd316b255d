//! The drawing surface: shapes, text and tokens over a tiny-skia pixmap, and the finished
//! [`Picture`] with its PNG encoding. Game pictures draw through this and nothing else.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use miniz_oxide::DataFormat;
use miniz_oxide::deflate::core::{
    CompressionStrategy, CompressorOxide, TDEFLFlush, TDEFLStatus, compress,
};
pub use tiny_skia::Pixmap;
use tiny_skia::{
    Color, FillRule, LineCap, Paint, Path, PathBuilder, PremultipliedColorU8, Rect, Stroke,
    StrokeDash, Transform,
};

use super::error::RenderError;
use super::font::{CAP_HEIGHT, Fonts, Weight, fonts};
use super::palette::{Rgb, SeatStyle, Shape};

/// The largest picture drawn: far beyond any race, and a guard against a view so odd it
/// would ask for gigabytes.
pub const MAX_SIDE: u32 = 4096;

/// A point on the picture, in pixels.
pub type Point = (f32, f32);
/// A straight line from one point to another.
pub type Segment = (Point, Point);

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

/// `colour` laid over an opaque pixel with `coverage` (0 to 1), in 32 steps: finer steps
/// cannot be seen, and would leave more colours than the PNG palette holds.
fn blend(under: PremultipliedColorU8, colour: Rgb, coverage: f32) -> PremultipliedColorU8 {
    // Coverage is at least 0 after the clamp, so adding a half and truncating rounds it.
    let a = ((coverage.clamp(0.0, 1.0) * 32.0 + 0.5) as u32) as f32 / 32.0;
    let mix = |d: u8, s: u8| (f32::from(d) + (f32::from(s) - f32::from(d)) * a + 0.5) as u8;
    PremultipliedColorU8::from_rgba(
        mix(under.red(), colour.0),
        mix(under.green(), colour.1),
        mix(under.blue(), colour.2),
        255,
    )
    .unwrap_or(under)
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

    /// A filled rectangle with corners of radius `r`.
    pub fn rounded(&mut self, x: f32, y: f32, w: f32, h: f32, r: f32, colour: Rgb) {
        if w <= 0.0 || h <= 0.0 {
            return;
        }
        let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
        let (cx, cy) = (x + w / 2.0, y + h / 2.0);
        let (hx, hy) = (w / 2.0 - r, h / 2.0 - r);
        // Whole pixels inside the straight parts are filled outright; the rest take the
        // signed distance from the edge, for exact anti-aliasing.
        let whole = [(x + r, y, x + w - r, y + h), (x, y + r, x + w, y + h - r)];
        let mut filled = Vec::new();
        for (l, t, rt, b) in whole {
            let (l, t, rt, b) = (l.ceil(), t.ceil(), rt.floor(), b.floor());
            if rt > l && b > t {
                self.rect(l, t, rt - l, b - t, colour);
                filled.push((l as i32, t as i32, rt as i32, b as i32));
            }
        }
        self.shade((x, y, x + w, y + h), &filled, colour, |px, py| {
            let qx = (px - cx).abs() - hx;
            let qy = (py - cy).abs() - hy;
            if qx <= 0.0 || qy <= 0.0 {
                qx.max(qy) - r
            } else {
                (qx * qx + qy * qy).sqrt() - r
            }
        });
    }

    /// A filled disc.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, colour: Rgb) {
        if r <= 0.0 {
            return;
        }
        self.shade((cx - r, cy - r, cx + r, cy + r), &[], colour, |px, py| {
            ((px - cx).powi(2) + (py - cy).powi(2)).sqrt() - r
        });
    }

    /// Paints `colour` over the box (left, top, right, bottom) wherever `distance` (from
    /// a shape's edge at a pixel's centre, negative inside) says the shape covers, but
    /// for the pixel boxes in `filled`, already painted. Far
    /// cheaper than supersampling a path for the discs and panels that fill a picture.
    fn shade(
        &mut self,
        bounds: (f32, f32, f32, f32),
        filled: &[(i32, i32, i32, i32)],
        colour: Rgb,
        distance: impl Fn(f32, f32) -> f32,
    ) {
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let x0 = (bounds.0.floor() as i32).max(0);
        let y0 = (bounds.1.floor() as i32).max(0);
        let x1 = (bounds.2.ceil() as i32).min(w);
        let y1 = (bounds.3.ceil() as i32).min(h);
        let solid = PremultipliedColorU8::from_rgba(colour.0, colour.1, colour.2, 255);
        let pixels = self.pixmap.pixels_mut();
        for y in y0..y1 {
            let mut x = x0;
            while x < x1 {
                // Skip pixels already filled outright (left, top, right, bottom).
                if let Some(f) = filled
                    .iter()
                    .find(|f| y >= f.1 && y < f.3 && x >= f.0 && x < f.2)
                {
                    x = f.2;
                    continue;
                }
                let at = x;
                x += 1;
                let coverage = 0.5 - distance(at as f32 + 0.5, y as f32 + 0.5);
                if coverage <= 0.0 {
                    continue;
                }
                if let Some(px) = pixels.get_mut((y * w + at) as usize) {
                    *px = match solid {
                        Some(c) if coverage >= 1.0 => c,
                        _ => blend(*px, colour, coverage),
                    };
                }
            }
        }
    }

    /// A filled polygon through `points` (closed for you).
    pub fn polygon(&mut self, points: &[(f32, f32)], colour: Rgb) {
        if points.len() < 3 {
            return;
        }
        let mut pb = PathBuilder::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        pb.close();
        self.fill(pb.finish(), colour);
    }

    /// Many short straight lines of one colour and width, stroked at once (one path is far
    /// cheaper than a stroke each).
    pub fn lines(&mut self, segments: &[Segment], colour: Rgb, width: f32) {
        if segments.is_empty() {
            return;
        }
        let mut pb = PathBuilder::new();
        for &((x0, y0), (x1, y1)) in segments {
            pb.move_to(x0, y0);
            pb.line_to(x1, y1);
        }
        let stroke = Stroke {
            width,
            line_cap: LineCap::Butt,
            ..Stroke::default()
        };
        if let Some(path) = pb.finish() {
            self.pixmap
                .stroke_path(&path, &paint(colour), &stroke, Transform::identity(), None);
        }
    }

    /// As [`Canvas::polyline`], dashed: `dash` alternates lengths drawn and left out
    /// (an even count; anything else draws it solid), with square-cut dash ends.
    pub fn dashed(&mut self, points: &[(f32, f32)], colour: Rgb, width: f32, dash: &[f32]) {
        let Some(dash) = StrokeDash::new(dash.to_vec(), 0.0) else {
            self.polyline(points, colour, width);
            return;
        };
        let mut pb = PathBuilder::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if let (true, Some(path)) = (points.len() > 1, pb.finish()) {
            let stroke = Stroke {
                width,
                line_cap: LineCap::Butt,
                dash: Some(dash),
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(colour), &stroke, Transform::identity(), None);
        }
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
        let (w, h) = (self.pixmap.width() as i32, self.pixmap.height() as i32);
        let pixels = self.pixmap.pixels_mut();
        self.fonts
            .draw(weight, size, text, left, baseline, |x, y, coverage| {
                if x < 0 || y < 0 || x >= w || y >= h {
                    return;
                }
                if let Some(px) = pixels.get_mut((y * w + x) as usize) {
                    *px = blend(*px, colour, coverage);
                }
            });
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

    /// A copy of what is drawn so far, to draw on again later (see [`Canvas::resume`]).
    pub fn snapshot(&self) -> Pixmap {
        self.pixmap.clone()
    }

    /// Drawing goes on over a snapshot.
    pub fn resume(pixmap: Pixmap) -> Result<Canvas, RenderError> {
        Ok(Canvas {
            pixmap,
            fonts: fonts()?,
        })
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
        self.pixmap
            .pixels()
            .iter()
            .flat_map(|p| [p.red(), p.green(), p.blue()])
            .collect()
    }

    /// At most 256 colours for the whole picture, and the PNG's raw image data: each row a
    /// filter byte (none) and each pixel's index into them. The colours kept are the
    /// picture's flat colours and its most common anti-aliasing shades; rarer shades take
    /// the nearest colour kept. This makes the PNG several times smaller.
    pub(crate) fn indexed(&self) -> (Vec<[u8; 3]>, Vec<u8>) {
        // Every paint is opaque on an opaque page, so premultiplied is plain RGB. Pictures
        // are mostly runs of one colour: work on runs, not pixels, to hash less.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        let mut current: Option<(u32, u32)> = None;
        for p in self.pixmap.data().chunks_exact(4) {
            let k = u32::from_le_bytes([p[0], p[1], p[2], 0]);
            match current.as_mut() {
                Some((c, n)) if *c == k => *n += 1,
                _ => {
                    if let Some(run) = current.replace((k, 1)) {
                        runs.push(run);
                    }
                }
            }
        }
        runs.extend(current);
        let mut counts: ColourMap<u32> = ColourMap::default();
        for &(k, n) in &runs {
            *counts.entry(k).or_insert(0) += n;
        }
        let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
        // Most common first; ties by colour so the palette never depends on hashing.
        by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let rgb = |k: u32| [k as u8, (k >> 8) as u8, (k >> 16) as u8];
        let palette: Vec<[u8; 3]> = by_count.iter().take(256).map(|e| rgb(e.0)).collect();
        let near = Nearest::new(&palette);
        let mut index: ColourMap<u8> = ColourMap::default();
        for (i, (k, _)) in by_count.iter().enumerate() {
            let at = match u8::try_from(i) {
                Ok(i) => i,
                Err(_) => near.find(rgb(*k)),
            };
            index.insert(*k, at);
        }
        // Lay the runs out row by row, each row after its filter byte (0: none).
        let width = self.pixmap.width() as usize;
        let height = self.pixmap.height() as usize;
        let mut raw = vec![0u8; (width + 1) * height];
        let (mut row, mut col) = (0usize, 0usize);
        for (k, n) in runs {
            let i = index.get(&k).copied().unwrap_or(0);
            let mut left = n as usize;
            while left > 0 && width > 0 {
                let take = left.min(width - col);
                let at = row * (width + 1) + 1 + col;
                if let Some(cells) = raw.get_mut(at..at + take) {
                    // Most runs are a pixel or two of anti-aliasing: a call to memset
                    // would cost more than the stores.
                    if take < 16 {
                        for cell in cells {
                            *cell = i;
                        }
                    } else {
                        cells.fill(i);
                    }
                }
                left -= take;
                col += take;
                if col == width {
                    col = 0;
                    row += 1;
                }
            }
        }
        (palette, raw)
    }

    /// PNG bytes: an 8-bit palette image (see `indexed`), unfiltered (filters only
    /// enlarge palette images of flat colour), deflated by miniz_oxide at its fastest
    /// level: a picture is drawn for every turn, and level 1 takes half the time of
    /// level 2 for files a fifth larger (30 to 90 KB).
    pub fn png(&self) -> Result<Vec<u8>, RenderError> {
        let (palette, raw) = self.indexed();
        let data = deflate(&raw)?;
        let mut out = Vec::with_capacity(data.len() + 1024);
        {
            let mut enc = png::Encoder::new(&mut out, self.width(), self.height());
            enc.set_color(png::ColorType::Indexed);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_palette(palette.concat());
            let encode = |e: png::EncodingError| RenderError::Encode(e.to_string());
            let mut writer = enc.write_header().map_err(encode)?;
            writer
                .write_chunk(png::chunk::IDAT, &data)
                .map_err(encode)?;
            writer.finish().map_err(encode)?;
        }
        Ok(out)
    }
}

/// `raw` deflated in a zlib stream, at the level [`Picture::png`] explains.
fn deflate(raw: &[u8]) -> Result<Vec<u8>, RenderError> {
    let mut compressor =
        CompressorOxide::with_params(DataFormat::Zlib, 1, CompressionStrategy::Default, 15);
    let mut out = vec![0u8; (raw.len() / 8).max(64)];
    let (mut read, mut written) = (0usize, 0usize);
    loop {
        let (Some(input), Some(output)) = (raw.get(read..), out.get_mut(written..)) else {
            return Err(RenderError::Encode("the compressor lost its place".into()));
        };
        let (status, used, made) = compress(&mut compressor, input, output, TDEFLFlush::Finish);
        read += used;
        written += made;
        match status {
            TDEFLStatus::Done => {
                out.truncate(written);
                return Ok(out);
            }
            TDEFLStatus::Okay => {
                if out.len() - written < 1024 {
                    out.resize(out.len() * 2, 0);
                }
            }
            other => return Err(RenderError::Encode(format!("deflate: {other:?}"))),
        }
    }
}

/// The palette entry closest to a colour (squared distance, weighted for the eye), over
/// the palette laid out by channel so the search runs a lane of entries at a time.
struct Nearest {
    r: Vec<i32>,
    g: Vec<i32>,
    b: Vec<i32>,
}

impl Nearest {
    fn new(palette: &[[u8; 3]]) -> Nearest {
        let channel = |k: usize| palette.iter().map(|c| i32::from(c[k])).collect();
        Nearest {
            r: channel(0),
            g: channel(1),
            b: channel(2),
        }
    }

    fn find(&self, c: [u8; 3]) -> u8 {
        let (cr, cg, cb) = (i32::from(c[0]), i32::from(c[1]), i32::from(c[2]));
        // Distances first, then their minimum: both loops vectorise, unlike a running
        // best. The first of equal distances wins.
        let mut d = [i32::MAX; 256];
        for (slot, ((r, g), b)) in d.iter_mut().zip(self.r.iter().zip(&self.g).zip(&self.b)) {
            let (dr, dg, db) = (r - cr, g - cg, b - cb);
            *slot = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
        }
        let least = d.iter().copied().min().unwrap_or(0);
        let at = d.iter().position(|&x| x == least).unwrap_or(0);
        u8::try_from(at).unwrap_or(0)
    }
}

/// Hashes a packed colour with one multiply: colours are not adversarial, and SipHash
/// cost more than the rest of the encoding.
#[derive(Default)]
struct ColourHasher(u64);

impl Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u32(u32::from(*b) ^ (self.0 as u32));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type ColourMap<V> = HashMap<u32, V, BuildHasherDefault<ColourHasher>>;

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

    #[test]
    fn the_raw_image_is_rows_of_palette_indices_and_deflates_losslessly() {
        let mut c = Canvas::new(5, 3, Rgb::WHITE).unwrap();
        c.rect(0.0, 1.0, 2.0, 1.0, Rgb(0, 0, 0));
        let (palette, raw) = c.finish().indexed();
        assert_eq!(palette, [[255, 255, 255], [0, 0, 0]]);
        assert_eq!(raw, [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        // Large enough to need the output buffer to grow.
        let big: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let packed = deflate(&big).unwrap();
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(&packed).unwrap();
        assert_eq!(back, big);
    }

    #[test]
    fn rare_shades_take_the_nearest_colour_kept() {
        let near = Nearest::new(&[[255, 255, 255], [0, 0, 0], [0, 114, 178]]);
        assert_eq!(near.find([250, 250, 250]), 0);
        assert_eq!(near.find([10, 20, 10]), 1);
        assert_eq!(near.find([10, 100, 170]), 2);
    }
}
