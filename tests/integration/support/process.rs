//! `photofinish run` as a child process of a test: its command line and environment.

use std::path::Path;
use std::process::{Command, Stdio};

/// Makes `cmd` run the bot on the config file `config` as `instance`, in `dir`, with its
/// log written to `log` and nothing taken from the test's own environment.
pub fn run_bot(cmd: &mut Command, config: &Path, instance: &str, dir: &Path, log: &Path) {
    cmd.arg("run")
        .arg("--config")
        .arg(config)
        .env_remove("DISCORD_TOKEN")
        .env_remove("RUST_LOG")
        .env_remove("PHOTOFINISH_DATABASE")
        .env_remove("PHOTOFINISH_TEST_CLOCK")
        .env("PHOTOFINISH_INSTANCE", instance)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("create the bot's log"));
}
