//! `photofinish render SCRIPT.json --out DIR`: the pictures the channel would get for each
//! turn of a replay script (`turn-01.png`, ...), and the race chart if the race ends.

use std::path::Path;
use std::process::ExitCode;

use crate::render::{alt_text, picture};

pub fn run(script: &Path, out: &Path) -> ExitCode {
    let text = match super::script::read(script) {
        Ok(t) => t,
        Err(e) => return super::refuse(&e),
    };
    let replay = match crate::games::replay(&text) {
        Ok(r) => r,
        Err(e) => return super::refuse(&super::script::explain(&e.to_string(), &text)),
    };
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("cannot create {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let mut files = Vec::new();
    for (i, view) in replay.views.iter().enumerate() {
        // A step that changed nothing the public sees would draw the same picture twice.
        if replay.views.get(i + 1) == Some(view) {
            continue;
        }
        files.push((
            format!("turn-{:02}.png", i + 1),
            picture::track_png(view),
            alt_text(view),
        ));
    }
    let finished = replay
        .output
        .get("finished")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    if let (true, Some(last)) = (finished, replay.views.last()) {
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
                eprintln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let path = out.join(&name);
        if let Err(e) = std::fs::write(&path, &png) {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!(
            "{} ({:.1} KB): {alt}",
            path.display(),
            png.len() as f64 / 1024.0
        );
    }
    ExitCode::SUCCESS
}
