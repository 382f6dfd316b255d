//! `photofinish render SCRIPT.json --out DIR [--gif]`: the pictures the channel would get
//! for each turn of a replay script (`turn-01.png`, ...), the race chart if the race ends,
//! and with `--gif` the race animated (`race.gif`, as the final post shows it); an export
//! (docs/export.md) draws alike, once it verifies.

use std::path::Path;
use std::process::ExitCode;

use crate::games::AnyPublicView;
use crate::render::{alt_text, picture};

pub fn run(script: &Path, out: &Path, gif: bool) -> ExitCode {
    let (views, finished) = match views_of(script) {
        Ok(v) => v,
        Err(e) => return super::refusal::refuse(&e),
    };
    let drawn = draw(&views, finished, out);
    if !gif || drawn != ExitCode::SUCCESS {
        return drawn;
    }
    animate(&views, out)
}

/// Writes `race.gif`, the race animated from its views.
fn animate(views: &[AnyPublicView], out: &Path) -> ExitCode {
    let animation = match crate::render::animation::animate(views) {
        Ok(a) => a,
        Err(e) => {
            errln!("race.gif: {e}");
            return ExitCode::FAILURE;
        }
    };
    let path = out.join("race.gif");
    if let Err(e) = std::fs::write(&path, &animation.gif) {
        errln!("cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    outln!(
        "{} ({:.1} KB): the race in {} frames, {}x{}",
        path.display(),
        animation.gif.len() as f64 / 1024.0,
        animation.frames,
        animation.width,
        animation.height
    );
    ExitCode::SUCCESS
}

/// The public view after each step, and whether the race ends: from an export (once it
/// verifies) or a replay script.
fn views_of(path: &Path) -> Result<(Vec<AnyPublicView>, bool), String> {
    if let Some(export) = super::export::sniff(path)? {
        let steps = super::export::replayed(path, &export)?;
        let views = steps.iter().map(|(_, g)| g.public_view()).collect();
        return Ok((views, export.result.is_some()));
    }
    let text = super::script::read(path)?;
    let replay =
        crate::games::replay(&text).map_err(|e| super::script::explain(&e.to_string(), &text))?;
    let finished = replay
        .output
        .get("finished")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    Ok((replay.views, finished))
}

/// Writes a picture per step whose view changed, and the race chart at the end.
fn draw(views: &[AnyPublicView], finished: bool, out: &Path) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(out) {
        errln!("cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let mut files = Vec::new();
    for (i, view) in views.iter().enumerate() {
        // A step that changed nothing the public sees would draw the same picture twice.
        if views.get(i + 1) == Some(view) {
            continue;
        }
        files.push((
            format!("turn-{:02}.png", i + 1),
            picture::track_png(view),
            alt_text(view),
        ));
    }
    if let (true, Some(last)) = (finished, views.last()) {
        files.push((
            "race-chart.png".to_string(),
            picture::race_chart_png(last),
            alt_text(last),
        ));
    }
    for (name, png, alt) in files {
        let png = match png {
            Ok(p) => p,
            Err(e) => {
                errln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let path = out.join(&name);
        if let Err(e) = std::fs::write(&path, &png) {
            errln!("cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        outln!(
            "{} ({:.1} KB): {alt}",
            path.display(),
            png.len() as f64 / 1024.0
        );
    }
    ExitCode::SUCCESS
}
