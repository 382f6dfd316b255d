//! Colour vision: how the seat colours look to the three common colour-vision
//! deficiencies, simulated with Machado, Oliveira and Fernandes' matrices (2009, severity
//! 1.0, applied in linear RGB), and how far apart two colours are (CIE76 ΔE in CIELAB,
//! D65). The tests hold the palette to [`MIN_DELTA_E`] for every pair of runner colours
//! under each deficiency; [`simulate`] also makes the deuteranopia views in
//! docs/pictures.md (the ignored test `phone_views_for_the_docs` writes them).

use super::palette::Rgb;

/// A colour-vision deficiency, at full severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deficiency {
    /// No green cones (about 1 man in 100).
    Deuteranopia,
    /// No red cones.
    Protanopia,
    /// No blue cones (rare).
    Tritanopia,
}

impl Deficiency {
    pub const ALL: [Deficiency; 3] = [
        Deficiency::Deuteranopia,
        Deficiency::Protanopia,
        Deficiency::Tritanopia,
    ];

    /// Machado et al. (2009), severity 1.0, for linear RGB.
    fn matrix(self) -> [[f32; 3]; 3] {
        match self {
            Deficiency::Deuteranopia => [
                [0.367_322, 0.860_646, -0.227_968],
                [0.280_085, 0.672_501, 0.047_413],
                [-0.011_820, 0.042_940, 0.968_881],
            ],
            Deficiency::Protanopia => [
                [0.152_286, 1.052_583, -0.204_868],
                [0.114_503, 0.786_281, 0.099_216],
                [-0.003_882, -0.048_116, 1.051_998],
            ],
            Deficiency::Tritanopia => [
                [1.255_528, -0.076_749, -0.178_779],
                [-0.078_411, 0.930_809, 0.147_602],
                [0.004_733, 0.691_367, 0.303_900],
            ],
        }
    }
}

/// Two runner colours closer than this (CIE76 ΔE) would be hard to tell apart on a
/// phone; 2.3 is a just-noticeable difference, and 15 keeps a clear margin.
pub const MIN_DELTA_E: f32 = 15.0;

fn to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn from_linear(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    // In 0..=255 after the clamp.
    (s * 255.0).round().clamp(0.0, 255.0) as u8
}

fn linear(c: Rgb) -> [f32; 3] {
    [to_linear(c.0), to_linear(c.1), to_linear(c.2)]
}

fn apply(m: [[f32; 3]; 3], v: [f32; 3]) -> [f32; 3] {
    m.map(|row| row[0] * v[0] + row[1] * v[1] + row[2] * v[2])
}

/// How `c` looks with deficiency `d`.
pub fn simulate(c: Rgb, d: Deficiency) -> Rgb {
    let [r, g, b] = apply(d.matrix(), linear(c));
    Rgb(from_linear(r), from_linear(g), from_linear(b))
}

/// CIELAB (D65) of a colour.
fn lab(c: Rgb) -> [f32; 3] {
    let l = linear(c).map(|v| v.clamp(0.0, 1.0));
    let xyz = apply(
        [
            [0.412_456_4, 0.357_576_1, 0.180_437_5],
            [0.212_672_9, 0.715_152_2, 0.072_175_0],
            [0.019_333_9, 0.119_192, 0.950_304_1],
        ],
        l,
    );
    let f = |t: f32| {
        if t > 0.008_856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let (fx, fy, fz) = (f(xyz[0] / 0.950_47), f(xyz[1]), f(xyz[2] / 1.088_83));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIE76 colour difference.
pub fn delta_e(a: Rgb, b: Rgb) -> f32 {
    let (a, b) = (lab(a), lab(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The closest pair of `colours` as seen with `d` (or with normal vision): (ΔE, i, j).
pub fn closest_pair(colours: &[Rgb], d: Option<Deficiency>) -> Option<(f32, usize, usize)> {
    let seen: Vec<Rgb> = colours
        .iter()
        .map(|c| d.map_or(*c, |d| simulate(*c, d)))
        .collect();
    let mut best: Option<(f32, usize, usize)> = None;
    for (i, a) in seen.iter().enumerate() {
        for (j, b) in seen.iter().enumerate().skip(i + 1) {
            let e = delta_e(*a, *b);
            if best.is_none_or(|(w, _, _)| e < w) {
                best = Some((e, i, j));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::picture::palette::{PAGE, SEAT_COLOURS};

    #[test]
    fn every_pair_of_runner_colours_stays_apart_under_each_deficiency() {
        for d in [None]
            .into_iter()
            .chain(Deficiency::ALL.into_iter().map(Some))
        {
            let (e, i, j) = closest_pair(&SEAT_COLOURS, d).unwrap_or((0.0, 0, 0));
            assert!(
                e >= MIN_DELTA_E,
                "{d:?}: seats {} and {} are only ΔE {e:.1} apart",
                i + 1,
                j + 1
            );
        }
    }

    #[test]
    fn every_runner_colour_stands_off_the_page() {
        for d in Deficiency::ALL {
            for c in SEAT_COLOURS {
                let e = delta_e(simulate(c, d), simulate(PAGE, d));
                assert!(
                    e >= MIN_DELTA_E,
                    "{c:?} under {d:?}: ΔE {e:.1} from the page"
                );
            }
        }
    }

    #[test]
    fn the_simulation_merges_what_it_should() {
        // Deuteranopia: pure red and a green of the same lightness come close, while
        // normal vision keeps them far apart; greys are unchanged.
        let (red, green) = (Rgb(0xd0, 0x40, 0x30), Rgb(0x70, 0x80, 0x20));
        let d = Deficiency::Deuteranopia;
        assert!(delta_e(red, green) > 40.0);
        assert!(delta_e(simulate(red, d), simulate(green, d)) < 25.0);
        let grey = Rgb(0x80, 0x80, 0x80);
        assert!(delta_e(simulate(grey, d), grey) < 1.5);
    }

    /// The pictures docs/pictures.md shows at a phone's width (400 px, shrunk by area
    /// averaging) and as seen with deuteranopia, one per game.
    const PHONE_VIEWS: [(&str, &str); 6] = [
        ("dream-mile", "docs/pictures/dream-mile/turn-06.png"),
        ("1000-miles", "docs/pictures/1000-miles/turn-10.png"),
        ("1000-yards", "docs/pictures/1000-yards/turn-57.png"),
        ("1500m", "docs/pictures/1500m/turn-09.png"),
        (
            "magical-athlete",
            "docs/pictures/magical-athlete/turn-04.png",
        ),
        ("chart", "docs/pictures/dream-mile/race-chart.png"),
    ];

    fn decode(path: &str) -> (usize, usize, Vec<Rgb>) {
        let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
        let mut dec = png::Decoder::new(file);
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let (w, h) = (info.width as usize, info.height as usize);
        let bpp = info.line_size / w;
        let px = (0..w * h)
            .map(|i| {
                let (y, x) = (i / w, i % w);
                let at = y * info.line_size + x * bpp;
                match bpp {
                    1 | 2 => Rgb(buf[at], buf[at], buf[at]),
                    _ => Rgb(buf[at], buf[at + 1], buf[at + 2]),
                }
            })
            .collect();
        (w, h, px)
    }

    /// Each output pixel is the mean of the source pixels it covers.
    fn shrink(w: usize, h: usize, px: &[Rgb], to: usize) -> (usize, usize, Vec<Rgb>) {
        let th = (h * to).div_ceil(w);
        let mut out = Vec::with_capacity(to * th);
        for y in 0..th {
            let (y0, y1) = (y * h / th, ((y + 1) * h / th).max(y * h / th + 1));
            for x in 0..to {
                let (x0, x1) = (x * w / to, ((x + 1) * w / to).max(x * w / to + 1));
                let mut sum = [0u32; 3];
                for sy in y0..y1.min(h) {
                    for sx in x0..x1.min(w) {
                        let p = px[sy * w + sx];
                        sum[0] += u32::from(p.0);
                        sum[1] += u32::from(p.1);
                        sum[2] += u32::from(p.2);
                    }
                }
                let n = ((y1.min(h) - y0) * (x1.min(w) - x0)).max(1) as u32;
                out.push(Rgb(
                    (sum[0] / n) as u8,
                    (sum[1] / n) as u8,
                    (sum[2] / n) as u8,
                ));
            }
        }
        (to, th, out)
    }

    fn write(path: &str, w: usize, h: usize, px: &[Rgb]) {
        let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        let mut enc = png::Encoder::new(file, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::High);
        let mut writer = enc.write_header().unwrap();
        let data: Vec<u8> = px.iter().flat_map(|p| [p.0, p.1, p.2]).collect();
        writer.write_image_data(&data).unwrap();
    }

    #[test]
    #[ignore = "writes docs/pictures/phone/: cargo test --locked --lib phone_views_for_the_docs -- --ignored"]
    fn phone_views_for_the_docs() {
        std::fs::create_dir_all("docs/pictures/phone").unwrap();
        for (name, source) in PHONE_VIEWS {
            let (w, h, px) = decode(source);
            let (w, h, small) = shrink(w, h, &px, 400);
            write(&format!("docs/pictures/phone/{name}-400.png"), w, h, &small);
            let seen: Vec<Rgb> = small
                .iter()
                .map(|c| simulate(*c, Deficiency::Deuteranopia))
                .collect();
            write(
                &format!("docs/pictures/phone/{name}-400-deutan.png"),
                w,
                h,
                &seen,
            );
        }
    }
}
