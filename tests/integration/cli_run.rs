//! `photofinish run`: configuration errors are named, and the token never reaches the log.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Only bounds a hang: the child is stopped as soon as its log shows what the test waits for.
const PATIENCE: Duration = Duration::from_secs(60);

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
    // Stopped once it has tried Discord (the log says so), however slow the machine.
    let log = log_until(&mut child, "get gateway URL failed");
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

/// `log.format = "json"` (here from the environment): every line the bot writes is one
/// JSON object, the start line among them, and the token is in none of them.
#[test]
fn json_logs_are_one_object_a_line_without_the_token() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "database = \"races.db\"\nrest_proxy = \"http://127.0.0.1:9\"\n[log]\nlevel = \"debug\"\n",
    )
    .unwrap();
    let mut child = photofinish()
        .arg("run")
        .env("DISCORD_TOKEN", "MTIz.very-secret-token")
        .env("PHOTOFINISH_LOG_FORMAT", "json")
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = log_until(&mut child, "get gateway URL failed");
    assert!(
        !log.contains("very-secret-token"),
        "the token leaked: {log}"
    );
    // The child is killed mid-write at the end: its last line may be cut short.
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    let whole = match log.ends_with('\n') {
        true => &lines[..],
        false => &lines[..lines.len().saturating_sub(1)],
    };
    assert!(whole.len() >= 2, "{log}");
    let mut messages = Vec::new();
    for line in whole {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(v["level"].is_string(), "{line}");
        assert!(v["timestamp"].is_string(), "{line}");
        messages.push(v["fields"]["message"].as_str().unwrap_or("").to_string());
    }
    assert!(
        messages.iter().any(|m| m == "starting photofinish"),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("get gateway URL failed")),
        "{messages:?}"
    );
    // A value other than text or json is refused, naming the key.
    let out = photofinish()
        .arg("run")
        .env("DISCORD_TOKEN", "x")
        .env("PHOTOFINISH_LOG_FORMAT", "xml")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("log.format") && err.contains("text or json"),
        "{err}"
    );
}

/// A database password given apart (`PHOTOFINISH_DATABASE_PASSWORD`, with `/`, `@` and
/// `#` in it) reaches no output of any command, raw or percent-encoded; the URL shows as
/// `***@`, and `config check` shows the key as hidden.
#[test]
fn the_database_password_never_reaches_the_log() {
    const PW: &str = "se/cr@t#1-planted";
    let dir = tempfile::tempdir().unwrap();
    let leaked = |said: &str| said.contains("planted") || said.contains("se%2Fcr");
    let with_pw = |args: &[&str]| {
        let out = photofinish()
            .args(args)
            .env("PHOTOFINISH_TOKEN", "MTIz.x")
            .env("PHOTOFINISH_DATABASE", "postgres://bot@127.0.0.1:9/pf")
            .env("PHOTOFINISH_DATABASE_PASSWORD", PW)
            .env("PHOTOFINISH_LOG_LEVEL", "debug")
            .current_dir(dir.path())
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    // Nothing listens on port 9: run logs its start, fails to open the database, exits.
    let log = with_pw(&["run"]);
    assert!(
        log.contains("database=postgres://***@127.0.0.1:9/pf"),
        "{log}"
    );
    assert!(!leaked(&log), "run leaked the password: {log}");
    for args in [
        &["health"][..],
        &["health", "--json"],
        &["migrate"],
        &["backup", "copy.db"],
        &["config", "check"],
    ] {
        let said = with_pw(args);
        assert!(!leaked(&said), "{args:?} leaked the password: {said}");
    }
    let said = with_pw(&["config", "check"]);
    assert!(said.contains("database_password = (hidden)"), "{said}");
}

/// Reads the child's stdout and stderr as it runs, until they contain `wanted` (or
/// [`PATIENCE`] runs out), then kills it and returns everything it wrote.
fn log_until(child: &mut Child, wanted: &str) -> String {
    let log = Arc::new(Mutex::new(String::new()));
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|o| Box::new(o) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|e| Box::new(e) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|mut pipe| {
        let log = log.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                log.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    })
    .collect();
    let deadline = Instant::now() + PATIENCE;
    while !log.lock().unwrap().contains(wanted)
        && child.try_wait().unwrap().is_none()
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    for r in readers {
        let _ = r.join();
    }
    log.lock().unwrap().clone()
}
