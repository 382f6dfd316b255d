//! Golden-image tests: the race pictures for committed replay scripts, compared with
//! reference PNGs pixel by pixel, with a small tolerance for anti-aliasing. Dream Mile's
//! references are in `tests/golden/` (with copies in `docs/pictures/dream-mile/`); the
//! other games' references are the pictures `docs/pictures.md` shows, in
//! `docs/pictures/<game>/`, so the page cannot go stale.
//!
//! After a deliberate change to a picture, look at the new pictures
//! (`photofinish render tests/scripts/dream-mile-eight.json --out /tmp/p`), then
//! regenerate the references with `PHOTOFINISH_BLESS=1 cargo test --test integration pictures::`.
//! A failing comparison writes what it drew to `target/golden-failures/`.
//!
//! The card-race scripts in `tests/scripts/` are played by the deadline (`timeout`: the
//! engine's bot plays for whoever is due), so a change to that bot changes them; cut or
//! lengthen their `plays` to end where the game ends, then look and bless.

use std::path::{Path, PathBuf};

use photofinish::games::AnyPublicView;
use photofinish::render::{alt_text, picture};

use crate::support::pictures::{magical_athlete_season, views, views_at};

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
            "{}: {e}; to create it, run PHOTOFINISH_BLESS=1 cargo test --test integration pictures::",
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
             meant, look at it and run PHOTOFINISH_BLESS=1 cargo test --test integration pictures::",
            path.display(),
            match verdict {
                Ok(n) => format!("{n} pixels changed"),
                Err(e) => e,
            },
            dir.display()
        );
    }
}

/// Compares `png` with the picture `docs/pictures/<dir>/<file>` shows.
fn check_docs(dir: &str, file: &str, png: &[u8]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/pictures")
        .join(dir)
        .join(file);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("the docs directory");
    }
    check_file(&format!("{dir}-{file}"), &path, png);
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
            "docs/pictures/dream-mile/{file} is stale ({n:?}); run PHOTOFINISH_BLESS=1 cargo test --test integration pictures::"
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

fn card_race_view(view: &AnyPublicView) -> &photofinish::games::card_race::game_views::PublicView {
    match view {
        AnyPublicView::CardRace(v) => v,
        _ => panic!("not a card race view"),
    }
}

fn fifteen_hundred_view(view: &AnyPublicView) -> &photofinish::games::fifteen_hundred::PublicView {
    match view {
        AnyPublicView::FifteenHundred(v) => v,
        _ => panic!("not a 1500m view"),
    }
}

/// The replay example of docs/replay/card-race.md: a dirty trick, a speed limit, and the
/// chart of a one-round game turn by turn.
#[test]
fn thousand_miles_example_turns_and_chart() {
    let views = views_at(Path::new("docs/replay/card-race-example.json"));
    // Step 5: Bob has answered Alice's red light with right of way.
    let v = card_race_view(&views[4]);
    assert!(v.teams[1].safeties[0].dirty_trick);
    check_docs(
        "1000-miles",
        "turn-05.png",
        &picture::track_png(&views[4]).unwrap(),
    );
    // Step 10: Alice under a speed limit, to play.
    assert!(card_race_view(&views[9]).teams[0].limited);
    check_docs(
        "1000-miles",
        "turn-10.png",
        &picture::track_png(&views[9]).unwrap(),
    );
    let last = views.last().unwrap();
    assert!(card_race_view(last).finished);
    check_docs(
        "1000-miles",
        "turn-13.png",
        &picture::track_png(last).unwrap(),
    );
    check_docs(
        "1000-miles",
        "race-chart.png",
        &picture::race_chart_png(last).unwrap(),
    );
}

/// A game of several rounds: its chart goes round by round, by total score.
#[test]
fn thousand_miles_rounds_chart() {
    let views = views("1000-miles-rounds.json");
    let last = views.last().unwrap();
    let v = card_race_view(last);
    assert!(v.finished && v.history.len() >= 3, "{}", v.history.len());
    check_docs(
        "1000-miles",
        "rounds-race-chart.png",
        &picture::race_chart_png(last).unwrap(),
    );
    // Mid-game: the last round's scores, dirty tricks, hazards and a speed limit.
    let mid = &views[199];
    assert_eq!(card_race_view(mid).round, 2);
    check_docs(
        "1000-miles",
        "rounds-turn-200.png",
        &picture::track_png(mid).unwrap(),
    );
}

/// 1000 Yards with two teams: a dirty-trick window, the final score, and the chart.
#[test]
fn thousand_yards_teams() {
    let views = views("1000-yards-teams.json");
    let window = &views[56];
    assert!(card_race_view(window).window.is_some());
    check_docs(
        "1000-yards",
        "turn-57.png",
        &picture::track_png(window).unwrap(),
    );
    let last = views.last().unwrap();
    assert!(card_race_view(last).finished);
    check_docs(
        "1000-yards",
        "turn-106.png",
        &picture::track_png(last).unwrap(),
    );
    check_docs(
        "1000-yards",
        "race-chart.png",
        &picture::race_chart_png(last).unwrap(),
    );
}

/// The rulebook's round example (docs/replay/1500m.md): the field on the back straight.
#[test]
fn fifteen_hundred_rulebook_field() {
    let views = views_at(Path::new("docs/replay/1500m-example.json"));
    assert_eq!(fifteen_hundred_view(&views[0]).runners.len(), 8);
    check_docs(
        "1500m",
        "rulebook-turn-01.png",
        &picture::track_png(&views[0]).unwrap(),
    );
}

/// A whole race: the start, the bell with the finish template laid on, the medals, and
/// the chart of places and mental strength.
#[test]
fn fifteen_hundred_race() {
    let views = views("1500m-race.json");
    check_docs(
        "1500m",
        "turn-01.png",
        &picture::track_png(&views[0]).unwrap(),
    );
    let bell = &views[8];
    let v = fifteen_hundred_view(bell);
    assert!(v.bell && v.runners[0].place == Some(1));
    check_docs("1500m", "turn-09.png", &picture::track_png(bell).unwrap());
    let last = views.last().unwrap();
    assert!(fifteen_hundred_view(last).finished);
    check_docs("1500m", "turn-10.png", &picture::track_png(last).unwrap());
    check_docs(
        "1500m",
        "race-chart.png",
        &picture::race_chart_png(last).unwrap(),
    );
}

/// The comparison catches real changes in the new games too: a card-race distance moved
/// by 25, one runner's mental strength changed by one.
#[test]
fn golden_comparison_catches_changes_in_every_game() {
    let example = views_at(Path::new("docs/replay/card-race-example.json"));
    let base = card_race_view(&example[9]).clone();
    let draw = |v: &photofinish::games::card_race::game_views::PublicView| {
        decode(&picture::track_png(&AnyPublicView::CardRace(v.clone())).unwrap())
    };
    let mut moved = base.clone();
    moved.teams[2].distance += 25;
    let n = changed_pixels(&draw(&moved), &draw(&base)).unwrap();
    assert!(n > MAX_CHANGED, "a distance changed only {n} pixels");

    let race = views("1500m-race.json");
    let base = fifteen_hundred_view(&race[4]).clone();
    let draw = |v: &photofinish::games::fifteen_hundred::PublicView| {
        decode(&picture::track_png(&AnyPublicView::FifteenHundred(v.clone())).unwrap())
    };
    let mut tired = base.clone();
    tired.runners[3].strength = tired.runners[3].strength.map(|s| s - 1);
    let n = changed_pixels(&draw(&tired), &draw(&base)).unwrap();
    assert!(n > MAX_CHANGED, "mental strength changed only {n} pixels");
    let mut moved = base.clone();
    let spot = moved.runners[5].spot.as_mut().unwrap();
    spot.pos += 1;
    let n = changed_pixels(&draw(&moved), &draw(&base)).unwrap();
    assert!(n > MAX_CHANGED, "a step changed only {n} pixels");
}

/// `photofinish render` on each new game's replay example writes the channel's pictures,
/// the same as the library draws.
#[test]
fn render_command_draws_every_game() {
    for (script, turns) in [
        ("docs/replay/card-race-example.json", 13),
        ("tests/scripts/1500m-race.json", 10),
    ] {
        let out = tempfile::tempdir().unwrap();
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_photofinish"))
            .arg("render")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
            .arg("--out")
            .arg(out.path())
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let files: Vec<String> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(files.contains(&"race-chart.png".to_string()), "{files:?}");
        assert!(files.contains(&format!("turn-{turns:02}.png")), "{files:?}");
        assert!(
            !files.contains(&format!("turn-{:02}.png", turns + 1)),
            "{files:?}"
        );
        let views = views_at(Path::new(script));
        let written = std::fs::read(out.path().join("race-chart.png")).unwrap();
        assert_eq!(
            written,
            picture::race_chart_png(views.last().unwrap()).unwrap()
        );
        let written = std::fs::read(out.path().join("turn-01.png")).unwrap();
        assert_eq!(written, picture::track_png(&views[0]).unwrap());
        for f in &files {
            let png = std::fs::read(out.path().join(f)).unwrap();
            assert!(png.len() < MAX_BYTES, "{script} {f}: {} bytes", png.len());
        }
    }
}

fn magical_athlete_view(view: &AnyPublicView) -> &photofinish::games::magical_athlete::PublicView {
    match view {
        AnyPublicView::MagicalAthlete(v) => v,
        other => panic!("not Magical Athlete: {other:?}"),
    }
}

/// The Wild Wilds race (tests/scripts/magical-athlete-wild.json): a shared space, a
/// tripped racer, and racers finishing; each picture is the one docs/pictures.md shows.
#[test]
fn magical_athlete_race_on_the_wild_wilds() {
    let views = views("magical-athlete-wild.json");
    let shown = [1, 4, 21, 22];
    for n in shown {
        let view = &views[n - 1];
        let png = picture::track_png(view).unwrap();
        check_docs("magical-athlete", &format!("turn-{n:02}.png"), &png);
    }
    // What the pictures are meant to show is in the views drawn.
    let v = |n: usize| magical_athlete_view(&views[n - 1]);
    let stacked = v(1).racers.iter().filter(|r| r.space == 3).count();
    assert_eq!(stacked, 2, "two racers share space 3 at the start");
    assert!(
        views
            .iter()
            .any(|w| magical_athlete_view(w).racers.iter().any(|r| r.tripped)),
        "someone trips"
    );
    assert_eq!(v(22).placings.len(), 1, "Blimp has finished");
    assert_eq!(v(views.len()).phase, "pick", "the race is run to its end");
    assert!(
        alt_text(&views[0]).contains("Race 2 of 4") || alt_text(&views[0]).contains("race 2 of 4")
    );
}

/// The older rulebook layout draws its own special spaces, and a tripped racer lies on its
/// side: the same view with the racer upright differs where its token is.
#[test]
fn magical_athlete_rulebook_layout_and_a_tripped_racer() {
    use photofinish::games::magical_athlete::track::Track;
    let views = views("magical-athlete-wild.json");
    let base = magical_athlete_view(&views[0]).clone();
    let mut older = base.clone();
    older.track = Some(Track::WildRulebook);
    older.specials = Track::WildRulebook.specials().to_vec();
    let png = picture::track_png(&AnyPublicView::MagicalAthlete(older)).unwrap();
    check_docs("magical-athlete", "rulebook-layout.png", &png);

    let draw = |v: &photofinish::games::magical_athlete::PublicView| {
        decode(&picture::track_png(&AnyPublicView::MagicalAthlete(v.clone())).unwrap())
    };
    let mut tripped = base.clone();
    tripped.racers[0].tripped = true;
    let n = changed_pixels(&draw(&tripped), &draw(&base)).unwrap();
    assert!(n > MAX_CHANGED, "tripping changed only {n} pixels");
    let mut moved = base.clone();
    moved.racers[3].space += 1;
    let n = changed_pixels(&draw(&moved), &draw(&base)).unwrap();
    assert!(n > MAX_CHANGED, "a step changed only {n} pixels");
    let mut scored = base.clone();
    scored.players[1].score += 1;
    let n = changed_pixels(&draw(&scored), &draw(&base)).unwrap();
    assert!(n > MAX_CHANGED, "a point changed only {n} pixels");
}

/// A whole season: pictures in the draft, mid-race and at the end, and the season's race
/// chart (a column per race, each player's points after it).
#[test]
fn magical_athlete_season_and_race_chart() {
    // Drawn with `auto-roll` off, each turn a step (docs/pictures.md); it is now on by default.
    let views = magical_athlete_season("auto-roll=no", 4, 7);
    let last = magical_athlete_view(views.last().unwrap());
    assert_eq!(last.season.len(), 4, "points after each of four races");
    let scores: Vec<i64> = last.players.iter().map(|p| p.score).collect();
    assert_eq!(last.season.last(), Some(&scores));
    for v in &views {
        assert!(picture::track_png(v).is_ok(), "every step draws");
    }
    let draft = views
        .iter()
        .position(|v| magical_athlete_view(v).phase == "draft")
        .unwrap();
    check_docs(
        "magical-athlete",
        "season-draft.png",
        &picture::track_png(&views[draft + 3]).unwrap(),
    );
    let mid = views
        .iter()
        .rposition(|v| {
            let v = magical_athlete_view(v);
            v.phase == "race" && v.race == 3 && v.placings.len() == 1
        })
        .unwrap();
    check_docs(
        "magical-athlete",
        "season-race-3.png",
        &picture::track_png(&views[mid]).unwrap(),
    );
    check_docs(
        "magical-athlete",
        "season-final.png",
        &picture::track_png(views.last().unwrap()).unwrap(),
    );
    check_docs(
        "magical-athlete",
        "race-chart.png",
        &picture::race_chart_png(views.last().unwrap()).unwrap(),
    );
}
