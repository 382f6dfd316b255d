//! `photofinish replay SCRIPT.json`: exit 0 with JSON on stdout, or exit 2 with one line
//! on stderr.

use std::path::Path;
use std::process::ExitCode;

pub fn run(path: &Path) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    match crate::games::replay(&text) {
        Ok(replay) => match serde_json::to_string_pretty(&replay.output) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("cannot print the result: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
