//! `photofinish replay SCRIPT.json`: exit 0 with JSON on stdout, or exit 2 with one line
//! on stderr.

use std::path::Path;
use std::process::ExitCode;

pub fn run(path: &Path) -> ExitCode {
    let text = match super::script::read(path) {
        Ok(t) => t,
        Err(e) => return super::refuse(&e),
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
        Err(e) => super::refuse(&super::script::explain(&e.to_string(), &text)),
    }
}
