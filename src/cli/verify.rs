//! `photofinish verify RACE`: recomputes a finished race from its log and checks every
//! random outcome against the seed it revealed. It reads the database the configuration
//! names (as every command does) and never creates or migrates one: a database that is
//! missing, or not at this binary's migrations, is refused.
//!
//! `photofinish verify --file FILE` checks an export (docs/export.md) with no database:
//! the seed against its commitment, every receipt against its order and nonce, and every
//! step replayed to the same events and result.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use super::config::{self, Flags};
use super::refusal::refuse;
use crate::referee::export::{Export, MAX_EXPORT_BYTES, read_export};
use crate::referee::verify::{VerifyReport, verify_export};
use crate::referee::{Config, Referee, SystemClock};
use crate::store::redact;
use crate::vocab::CampaignId;

/// Exit 0 when every random outcome matches the seed, 1 when one does not, 2 when the
/// question cannot be asked (no such database or race).
pub fn run(race: i64, flags: &Flags, json: bool) -> ExitCode {
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
    runtime.block_on(async {
        let report = match verify(&database, race).await {
            Ok(r) => r,
            Err(e) => return refuse(&e),
        };
        show(&report, json)
    })
}

/// Checks an export file offline: exit 0 when it verifies, 1 when it does not, 2 when it
/// cannot be read as an export.
pub fn run_file(path: &Path, json: bool) -> ExitCode {
    let export = match read_file(path) {
        Ok(x) => x,
        Err(e) => return refuse(&e),
    };
    show(&verify_export(&export), json)
}

/// Reads an export, bounded in size; the error is the one line to print.
pub(super) fn read_file(path: &Path) -> Result<Export, String> {
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e.kind()))?;
    let mut text = String::new();
    file.take(MAX_EXPORT_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e.kind()))?;
    if text.len() as u64 > MAX_EXPORT_BYTES {
        return Err(format!(
            "{} is larger than {} MB: no race export is that long",
            path.display(),
            MAX_EXPORT_BYTES / (1024 * 1024)
        ));
    }
    read_export(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Prints a report as text or JSON and turns it into the exit code.
fn show(report: &VerifyReport, json: bool) -> ExitCode {
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(report).unwrap_or_default()
        );
    } else {
        print(report);
    }
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Opens the database as it is (no creation, no migration) and verifies the race.
async fn verify(database: &str, race: i64) -> Result<VerifyReport, String> {
    let referee = open_referee(database).await?;
    let report = referee
        .verify(CampaignId(race))
        .await
        .map_err(|e| refused(e, race));
    referee.store().close().await;
    report
}

/// A referee's refusal for `verify` and `export`, in the one wording each shares: the
/// referee's own sentence for a missing race speaks of a Discord channel.
pub(super) fn refused(e: crate::referee::RefereeError, race: i64) -> String {
    match e {
        crate::referee::RefereeError::NoRace => format!("there is no race #{race} in the database"),
        other => other.to_string(),
    }
}

/// A referee over the database as it is: never created, never migrated, and refused
/// unless it is at this binary's migrations (`verify`, `export`).
pub(super) async fn open_referee(database: &str) -> Result<Referee, String> {
    let shown = redact(database);
    let store = crate::store::connect(database)
        .await
        .map_err(|e| format!("cannot open the database {shown}: {e}"))?;
    let status = store.schema_status().await;
    let current = status
        .as_ref()
        .is_ok_and(crate::store::SchemaStatus::is_current);
    if !current {
        store.close().await;
        return Err(format!(
            "the database {shown} is not at this version's migrations (photofinish health says why)"
        ));
    }
    Ok(Referee::new(
        store,
        Arc::new(SystemClock),
        Config::default(),
    ))
}

fn print(report: &VerifyReport) {
    outln!("race #{}: seed {}", report.race, report.seed);
    outln!(
        "commitment {} {}",
        report.commitment,
        if report.commitment_matches {
            "matches"
        } else {
            "DOES NOT MATCH"
        }
    );
    outln!(
        "{} steps and {} events replayed, {} receipts checked",
        report.steps_checked,
        report.events_checked,
        report.receipts_checked
    );
    for p in &report.problems {
        outln!("problem: {p}");
    }
    outln!(
        "proof {} (compare it with the one posted with the result)",
        report.proof
    );
    outln!(
        "{}",
        if report.ok() {
            "verified: every random outcome matches the seed"
        } else {
            "NOT verified"
        }
    );
}
