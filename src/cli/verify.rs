//! `photofinish verify RACE`: recomputes a finished race from its log and checks every
//! random outcome against the seed it revealed. It reads the database the configuration
//! names (as every command does) and never creates or migrates one: a database that is
//! missing, or not at this binary's migrations, is refused.

use std::process::ExitCode;
use std::sync::Arc;

use super::config::{self, Flags};
use super::refuse;
use crate::referee::verify::VerifyReport;
use crate::referee::{Config, Referee, SystemClock};
use crate::store::CampaignId;
use crate::store::postgres::redact;

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
            eprintln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let report = match verify(&database, race).await {
            Ok(r) => r,
            Err(e) => return refuse(&e),
        };
        if json {
            println!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        } else {
            print(&report);
        }
        if report.ok() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    })
}

/// Opens the database as it is (no creation, no migration) and verifies the race.
async fn verify(database: &str, race: i64) -> Result<VerifyReport, String> {
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
    let referee = Referee::new(store.clone(), Arc::new(SystemClock), Config::default());
    let report = referee
        .verify(CampaignId(race))
        .await
        .map_err(|e| e.to_string());
    store.close().await;
    report
}

fn print(report: &VerifyReport) {
    println!("race #{}: seed {}", report.race, report.seed);
    println!(
        "commitment {} {}",
        report.commitment,
        if report.commitment_matches {
            "matches"
        } else {
            "DOES NOT MATCH"
        }
    );
    println!(
        "{} steps and {} events replayed",
        report.steps_checked, report.events_checked
    );
    for p in &report.problems {
        println!("problem: {p}");
    }
    println!(
        "{}",
        if report.ok() {
            "verified: every random outcome matches the seed"
        } else {
            "NOT verified"
        }
    );
}
