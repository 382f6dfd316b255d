//! `photofinish export RACE [--out FILE]`: a race that is over, as one JSON file
//! (docs/export.md), read from the configured database as `verify` reads it (never
//! created or migrated). A race still in its lobby or under way is refused.
//!
//! Also what `replay` and `render` need to take an export instead of a script.

use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};

use super::config::{self, Flags};
use super::refusal::refuse;
use crate::engine::Audience;
use crate::games::AnyGame;
use crate::referee::export::{Export, ExportStep, MAX_EXPORT_BYTES, is_export, read_export};
use crate::referee::verify::{replay_export, verify_export};
use crate::render::alt_text;
use crate::vocab::CampaignId;

/// Exit 0 with the file written, 2 with one line when the race cannot be exported.
pub fn run(race: i64, out: Option<&Path>, flags: &Flags) -> ExitCode {
    let database = match config::database(flags) {
        Ok(d) => d,
        Err(e) => return refuse(&e),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            errln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = match runtime.block_on(export(&database, race)) {
        Ok(t) => t,
        Err(e) => return refuse(&e),
    };
    match out {
        None => {
            outln!("{text}");
            ExitCode::SUCCESS
        }
        Some(path) => match std::fs::write(path, format!("{text}\n")) {
            Ok(()) => {
                errln!("race #{race} written to {}", path.display());
                ExitCode::SUCCESS
            }
            Err(e) => refuse(&format!("cannot write {}: {e}", path.display())),
        },
    }
}

async fn export(database: &str, race: i64) -> Result<String, String> {
    let referee = super::verify::open_referee(database).await?;
    let export = referee
        .export(CampaignId(race))
        .await
        .map_err(|e| super::verify::refused(e, race));
    referee.store().close().await;
    serde_json::to_string_pretty(&export?).map_err(|e| format!("cannot write the export: {e}"))
}

/// The file as an export, if it is one (`None`: a replay script, read as before).
pub(super) fn sniff(path: &Path) -> Result<Option<Export>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e.kind()))?;
    let mut text = String::new();
    // Not UTF-8, or too long for an export: the script reader says why.
    if file
        .take(MAX_EXPORT_BYTES + 1)
        .read_to_string(&mut text)
        .is_err()
        || text.len() as u64 > MAX_EXPORT_BYTES
    {
        return Ok(None);
    }
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) if is_export(&v) => read_export(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        _ => Ok(None),
    }
}

/// An export replayed, refused unless it verifies (a tampered file would draw a race
/// that never was): every step with the game after it.
pub(super) fn replayed(path: &Path, export: &Export) -> Result<Vec<(ExportStep, AnyGame)>, String> {
    let report = verify_export(export);
    if let Some(problem) = report.problems.first() {
        return Err(format!(
            "{} does not verify: {problem} (photofinish verify --file says more)",
            path.display()
        ));
    }
    let mut steps = Vec::new();
    replay_export(export, |step, game, _| {
        steps.push((step.clone(), game.clone()));
    });
    Ok(steps)
}

/// What `photofinish replay` prints for an export: each step's public narration and
/// standings, and the result.
pub(super) fn replay_output(export: &Export, steps: &[(ExportStep, AnyGame)]) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .map(|(step, game)| {
            let narration: Vec<String> = game
                .narrate_all(&step.events)
                .into_iter()
                .filter(|n| n.audience == Audience::Public && !n.text.is_empty())
                .map(|n| n.text)
                .collect();
            json!({
                "step": u64::from(step.step) + 1,
                "label": step.label,
                "narration": narration,
                "standings": alt_text(&game.public_view()),
            })
        })
        .collect();
    json!({
        "game": export.game.slug(),
        "race": export.race,
        "steps": steps,
        "finished": export.result.is_some(),
        "result": export.result,
    })
}
