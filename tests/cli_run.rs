//! `photofinish run`: configuration errors are named, and the token never reaches the log.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn photofinish() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_photofinish"));
    c.env_remove("DISCORD_TOKEN").env_remove("RUST_LOG");
    c
}

#[test]
fn run_without_a_token_says_how_to_give_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = photofinish()
        .arg("run")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no Discord token") && err.contains("DISCORD_TOKEN"),
        "{err}"
    );
}

#[test]
fn run_with_a_missing_or_bad_config_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = photofinish()
        .args(["run", "--config", "nope.toml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read nope.toml"));

    std::fs::write(dir.path().join("bad.toml"), "time_zone = \"Mars\"\n").unwrap();
    let out = photofinish()
        .args(["run", "--config", "bad.toml"])
        .env("DISCORD_TOKEN", "x")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("time_zone"));
}

#[test]
fn the_token_never_reaches_the_log() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens on port 9 of loopback: the bot logs at debug and keeps retrying
    // (as serenity does through a Discord outage) until it is stopped.
    std::fs::write(
        dir.path().join("config.toml"),
        "database = \"races.db\"\nrest_proxy = \"http://127.0.0.1:9\"\n[log]\nlevel = \"debug\"\n",
    )
    .unwrap();
    let mut child = photofinish()
        .arg("run")
        .env("DISCORD_TOKEN", "MTIz.very-secret-token")
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(3);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(log.contains("starting photofinish"), "{log}");
    assert!(log.contains("Token(hidden)"), "{log}");
    assert!(
        !log.contains("very-secret-token"),
        "the token leaked: {log}"
    );
    assert!(
        log.contains("get gateway URL failed"),
        "it tried Discord: {log}"
    );
    assert!(
        dir.path().join("races.db").exists(),
        "the database was created"
    );
}
