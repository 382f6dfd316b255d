//! Golden-image tests: the race pictures for committed replay scripts, compared with the
//! reference PNGs in `tests/golden/` pixel by pixel, with a small tolerance for
//! anti-aliasing.
//!
//! After a deliberate change to a picture, look at the new pictures
//! (`photofinish render tests/scripts/dream-mile-eight.json --out /tmp/p`), then
//! regenerate the references with `PHOTOFINISH_BLESS=1 cargo test --test pictures` (which
//! also rewrites the rulebook race's pictures in `docs/pictures/dream-mile/`).
//! A failing comparison writes what it drew to `target/golden-failures/`.

use std::path::{Path, PathBuf};

use photofinish::engine::AnyPublicView;
use photofinish::games::replay;
use photofinish::render::{alt_text, picture};

/// A channel differing by more than this counts as a changed pixel.
const TOLERANCE: u8 = 24;
/// Changed pixels allowed before a comparison fails: a different rasteriser rounding
/// may move a few edge pixels; a changed digit moves hundreds.
const MAX_CHANGED: usize = 24;
/// Discord's attachment limit is 10 MiB; these pictures should stay near 50 KB.
const MAX_BYTES: usize = 150 * 1024;

struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

fn decode(png_bytes: &[u8]) -> Image {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        other => panic!("unexpected colour type {other:?}"),
    };
    Image {
        width: info.width,
        height: info.height,
        rgb,
    }
}

/// How many pixels differ beyond the tolerance, or why the images cannot be compared.
fn changed_pixels(actual: &Image, expected: &Image) -> Result<usize, String> {
    if (actual.width, actual.height) != (expected.width, expected.height) {
        return Err(format!(
            "size {}×{} instead of {}×{}",
            actual.width, actual.height, expected.width, expected.height
        ));
    }
    Ok(actual
        .rgb
        .chunks_exact(3)
        .zip(expected.rgb.chunks_exact(3))
        .filter(|(a, e)| {
            a.iter()
                .zip(e.iter())
                .any(|(x, y)| x.abs_diff(*y) > TOLERANCE)
        })
        .count())
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"))
}

/// Compares `png` with the golden image `name`, or rewrites it when blessing.
fn check(name: &str, png: &[u8]) {
    check_file(name, &golden_path(name), png);
}

/// Compares `png` with the reference at `path`, or rewrites it when blessing.
fn check_file(name: &str, path: &Path, png: &[u8]) {
    assert!(png.len() < MAX_BYTES, "{name}: {} bytes", png.len());
    if std::env::var_os("PHOTOFINISH_BLESS").is_some() {
        std::fs::write(path, png).expect("write the golden image");
        return;
    }
    let expected = std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; to create it, run PHOTOFINISH_BLESS=1 cargo test --test pictures",
            path.display()
        )
    });
    let verdict = changed_pixels(&decode(png), &decode(&expected));
    if verdict.as_ref().map_or(true, |&n| n > MAX_CHANGED) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/golden-failures");
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join(format!("{name}.png")), png);
        panic!(
            "{name} no longer matches {} ({}); what was drawn is in {}. If the change is \
             meant, look at it and run PHOTOFINISH_BLESS=1 cargo test --test pictures",
            path.display(),
            match verdict {
                Ok(n) => format!("{n} pixels changed"),
                Err(e) => e,
            },
            dir.display()
        );
    }
}

fn views(script: &str) -> Vec<AnyPublicView> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scripts")
        .join(script);
    let text = std::fs::read_to_string(path).expect("the script");
    replay(&text).expect("the script replays").views
}

fn dream_mile_view(view: &AnyPublicView) -> &photofinish::games::dream_mile::PublicView {
    match view {
        AnyPublicView::DreamMile(v) => v,
        #[allow(unreachable_patterns)]
        _ => panic!("not a Dream Mile view"),
    }
}

#[test]
fn dream_mile_rulebook_turn_2() {
    let views = views("dream-mile-eight.json");
    let view = &views[1];
    assert_eq!(
        alt_text(view),
        "Dream Mile: after turn 2 of 8: 1st Alice; 2nd Carol; joint 3rd Dave and Emily; \
         5th Frank; 6th Helen; 7th George; 8th Bill."
    );
    check("dream-mile-turn-02", &picture::track_png(view).unwrap());
}

#[test]
fn dream_mile_rulebook_final_turn_and_race_chart() {
    let views = views("dream-mile-eight.json");
    let last = views.last().unwrap();
    assert!(dream_mile_view(last).finished);
    check("dream-mile-turn-08", &picture::track_png(last).unwrap());
    check(
        "dream-mile-race-chart",
        &picture::race_chart_png(last).unwrap(),
    );
}

#[test]
fn dream_mile_twelve_abreast_and_race_chart() {
    let views = views("dream-mile-twelve.json");
    let first = &views[0];
    // Everyone played 5: the whole field is tied first, twelve abreast.
    assert!(dream_mile_view(first).standings.iter().all(|s| s.rank == 1));
    let turn_1 = picture::track_png(first).unwrap();
    let chart = picture::race_chart_png(views.last().unwrap()).unwrap();
    check("dream-mile-twelve-turn-01", &turn_1);
    check("dream-mile-twelve-race-chart", &chart);
    // docs/pictures.md shows them too.
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures/dream-mile");
    check_file(
        "docs twelve-turn-01",
        &docs.join("twelve-turn-01.png"),
        &turn_1,
    );
    check_file(
        "docs twelve-race-chart",
        &docs.join("twelve-race-chart.png"),
        &chart,
    );
}

/// The comparison is not blind: one runner's points changed by one, or two runners'
/// places swapped, fail it, while drawing the same view twice passes.
#[test]
fn golden_comparison_catches_a_changed_standing() {
    let views = views("dream-mile-eight.json");
    let view = dream_mile_view(&views[1]).clone();
    let draw = |v: &photofinish::games::dream_mile::PublicView| {
        decode(&picture::track_png(&AnyPublicView::DreamMile(v.clone())).unwrap())
    };
    let base = draw(&view);
    assert_eq!(changed_pixels(&draw(&view), &base), Ok(0));
    // Anti-aliasing that rounds a little differently everywhere still passes.
    let mut jitter = draw(&view);
    for (i, v) in jitter.rgb.iter_mut().enumerate() {
        let d = (i % 7) as u8 * 3;
        *v = if *v > 127 { *v - d } else { *v + d };
    }
    assert_eq!(changed_pixels(&jitter, &base), Ok(0));

    let mut points = view.clone();
    points.standings[5].remaining += 1;
    let n = changed_pixels(&draw(&points), &base).unwrap();
    assert!(n > MAX_CHANGED, "one point changed only {n} pixels");

    let mut swapped = view.clone();
    swapped.standings.swap(6, 7);
    let (a, b) = (swapped.standings[6].rank, swapped.standings[7].rank);
    swapped.standings[6].rank = b;
    swapped.standings[7].rank = a;
    let n = changed_pixels(&draw(&swapped), &base).unwrap();
    assert!(n > MAX_CHANGED, "a swap changed only {n} pixels");

    let golden = decode(&std::fs::read(golden_path("dream-mile-turn-02")).unwrap());
    assert!(changed_pixels(&draw(&points), &golden).unwrap() > MAX_CHANGED);
}

#[test]
fn a_view_with_nobody_is_an_error_not_a_panic() {
    let views = views("dream-mile-eight.json");
    let mut empty = dream_mile_view(&views[0]).clone();
    empty.standings.clear();
    assert_eq!(
        picture::track_png(&AnyPublicView::DreamMile(empty)),
        Err(picture::RenderError::NoRunners)
    );
}

/// `photofinish render` writes one picture per channel post, and the race chart at the end.
#[test]
fn render_command_writes_the_channel_pictures() {
    let out = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/dream-mile-eight.json");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_photofinish"))
        .arg("render")
        .arg(&script)
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut files: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // One picture per turn, the automatic 8th included.
    assert_eq!(
        files,
        [
            "race-chart.png",
            "turn-01.png",
            "turn-02.png",
            "turn-03.png",
            "turn-04.png",
            "turn-05.png",
            "turn-06.png",
            "turn-07.png",
            "turn-08.png"
        ]
    );
    // docs/pictures.md shows this very output: it must not go stale.
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures/dream-mile");
    for file in &files {
        let drawn = std::fs::read(out.path().join(file)).unwrap();
        if std::env::var_os("PHOTOFINISH_BLESS").is_some() {
            std::fs::write(docs.join(file), &drawn).unwrap();
            continue;
        }
        let shown = std::fs::read(docs.join(file)).unwrap();
        let n = changed_pixels(&decode(&drawn), &decode(&shown));
        assert!(
            n.as_ref().is_ok_and(|&n| n <= MAX_CHANGED),
            "docs/pictures/dream-mile/{file} is stale ({n:?}); run PHOTOFINISH_BLESS=1 cargo test --test pictures"
        );
    }
    let views = views("dream-mile-eight.json");
    let written = std::fs::read(out.path().join("turn-02.png")).unwrap();
    assert_eq!(written, picture::track_png(&views[1]).unwrap());
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("after turn 2 of 8: 1st Alice"), "{stdout}");

    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_photofinish"))
        .arg("render")
        .arg(out.path().join("missing.json"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
