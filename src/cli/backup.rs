//! `photofinish backup FILE`: an online, consistent copy of the SQLite database the
//! configuration names, taken while `run` is up (the store's `VACUUM INTO`). PostgreSQL,
//! an existing FILE without `--force`, and the database itself are refused with one line.

use std::path::Path;
use std::process::ExitCode;

use super::config::{self, Flags};
use super::refusal::refuse;
use crate::store::redact;

/// Exit 0 when the copy is written, 1 when it failed, 2 when it was refused.
pub fn run(file: &Path, force: bool, flags: &Flags) -> ExitCode {
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
    match runtime.block_on(crate::store::backup(&database, file, force)) {
        Ok(done) => {
            outln!(
                "backed up {} to {} ({} bytes)",
                redact(&database),
                done.path.display(),
                done.bytes
            );
            ExitCode::SUCCESS
        }
        Err(e) if e.is_refusal() => refuse(&e),
        Err(e) => {
            errln!("{}", super::refusal::one_line(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}
