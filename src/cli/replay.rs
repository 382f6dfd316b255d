//! `photofinish replay SCRIPT.json`: exit 0 with JSON on stdout, or exit 2 with one line
//! on stderr. An export (docs/export.md) is replayed too, once it verifies.

use std::path::Path;
use std::process::ExitCode;

pub fn run(path: &Path) -> ExitCode {
    match super::export::sniff(path) {
        Ok(Some(export)) => {
            return match super::export::replayed(path, &export) {
                Ok(steps) => print(&super::export::replay_output(&export, &steps)),
                Err(e) => super::refusal::refuse(&e),
            };
        }
        Ok(None) => {}
        Err(e) => return super::refusal::refuse(&e),
    }
    let text = match super::script::read(path) {
        Ok(t) => t,
        Err(e) => return super::refusal::refuse(&e),
    };
    match crate::games::replay(&text) {
        Ok(replay) => print(&replay.output),
        Err(e) => super::refusal::refuse(&super::script::explain(&e.to_string(), &text)),
    }
}

fn print(output: &serde_json::Value) -> ExitCode {
    match serde_json::to_string_pretty(output) {
        Ok(json) => {
            outln!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("cannot print the result: {e}");
            ExitCode::FAILURE
        }
    }
}
