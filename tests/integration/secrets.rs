//! No database secret in any output: every way a credential can be written into a database
//! URL, fed to every command that takes a database, through the built binary (a cleared
//! environment, nothing listening on the PostgreSQL port), and to a mistyped command line.
//! The planted secrets all hold [`MARK`]; it must show in neither stdout nor stderr, in
//! any case, and neither may any piece of a password that was percent-encoded.
//! What is redacted: docs/reliability.md, "Configuration and secrets".

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// In every planted secret; no output may contain it, in any case.
const MARK: &str = "SeKrEt";

/// Nothing listens on port 1: every command fails to connect, and says so.
const SERVER: &str = "127.0.0.1:1";

/// Each way a secret can be written into a database URL, by name.
fn urls(dir: &Path) -> Vec<(&'static str, String)> {
    let sqlite = dir.join("races.db");
    let sqlite = sqlite.display();
    vec![
        (
            "userinfo password",
            format!("postgres://bot:pw-{MARK}-1@{SERVER}/pf?sslmode=disable"),
        ),
        (
            "userinfo password with @, # and / percent-encoded",
            format!("postgres://bot:{MARK}%40{MARK}%23{MARK}%2F{MARK}@{SERVER}/pf"),
        ),
        (
            "userinfo password with a raw #",
            format!("postgres://bot:{MARK}#{MARK}@{SERVER}/pf"),
        ),
        (
            "a user name that is the password",
            format!("postgres://{MARK}@{SERVER}/pf"),
        ),
        (
            "password=",
            format!("postgres://bot@{SERVER}/pf?password=pw-{MARK}-2"),
        ),
        (
            "percent-encoded key p%61ssword=",
            format!("postgres://bot@{SERVER}/pf?p%61ssword=pw-{MARK}-3"),
        ),
        (
            "sslpassword=",
            format!("postgres://bot@{SERVER}/pf?sslmode=disable&sslpassword=pw-{MARK}-4"),
        ),
        (
            "passfile=",
            format!("postgres://bot@{SERVER}/pf?passfile=/run/{MARK}.pgpass"),
        ),
        (
            "sqlite password=",
            format!("sqlite:{sqlite}?password=pw-{MARK}-5"),
        ),
        (
            "sqlite percent-encoded P%61SSWORD=",
            format!("sqlite:{sqlite}?mode=rwc&P%61SSWORD=pw-{MARK}-6"),
        ),
    ]
}

/// Every command that takes a database, given `url` as its flag.
fn commands(url: &str) -> Vec<Vec<String>> {
    let lines: [&[&str]; 9] = [
        &["health", "--database", url],
        &["health", "--json", "--database", url],
        &["verify", "1", "--db", url],
        &["migrate", "--database", url],
        &["export", "1", "--database", url],
        &["config", "check", "--database", url],
        &["backup", "--database", url, "copy.db"],
        &["bench", "--database", url, "--inserts", "1"],
        &["run", "--database", url],
    ];
    lines
        .iter()
        .map(|l| l.iter().map(|s| (*s).to_string()).collect())
        .collect()
}

/// Lines a person mistypes around `--database URL`: an argument too many, a misspelt
/// flag with the URL as its value, the URL where a file is expected.
fn mistyped(url: &str) -> Vec<Vec<String>> {
    let misspelt = format!("--databse={url}");
    let lines: Vec<Vec<&str>> = vec![
        vec!["health", "--database", url, "extra"],
        vec!["health", "--database", url, url],
        vec!["migrate", "--databse", url],
        vec!["migrate", &misspelt],
        vec!["verify", "1", "--db", url, "--jsn"],
        vec!["export", "--database", url],
        vec!["health", "--gateway", url],
        vec![url],
    ];
    lines
        .into_iter()
        .map(|l| l.into_iter().map(str::to_string).collect())
        .collect()
}

fn photofinish(dir: &Path, args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_photofinish"));
    c.env_clear()
        .current_dir(dir)
        .args(args)
        .env("PHOTOFINISH_TOKEN", "MTIz.not-a-real-token")
        .env("PHOTOFINISH_REST_PROXY", "http://127.0.0.1:9")
        // Everything anything logs, sqlx's own warnings included.
        .env("PHOTOFINISH_LOG_LEVEL", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Fails if the mark shows in stdout or stderr, in any case; returns both, joined.
fn assert_clean(what: &str, out: &Output) -> String {
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !said.to_lowercase().contains(&MARK.to_lowercase()),
        "{what} printed a secret: {said}"
    );
    said
}

#[test]
fn no_command_prints_a_database_secret() {
    let dir = tempfile::tempdir().unwrap();
    // Each command waits out its connection timeout: they all run at once.
    let mut runs = Vec::new();
    for (case, url) in urls(dir.path()) {
        for args in commands(&url) {
            let what = format!("{case}: {}", args[0..2].join(" "));
            runs.push((what, args[0].clone(), photofinish(dir.path(), &args)));
        }
        // The same URL from the environment, as a container gives it.
        for command in [&["config", "check"][..], &["health"], &["run"]] {
            let args: Vec<String> = command.iter().map(|s| (*s).to_string()).collect();
            let mut cmd = photofinish(dir.path(), &args);
            cmd.env("PHOTOFINISH_DATABASE", &url);
            runs.push((
                format!("{case}: {} (environment)", command.join(" ")),
                args[0].clone(),
                cmd,
            ));
        }
    }
    let children: Vec<_> = runs
        .into_iter()
        .map(|(what, command, mut cmd)| (what, command, cmd.spawn().unwrap()))
        .collect();
    for (what, command, child) in children {
        let out = child.wait_with_output().unwrap();
        let said = assert_clean(&what, &out);
        assert!(!said.trim().is_empty(), "{what} said nothing");
        if command == "config" {
            // The configuration is printed, the database among it, masked.
            assert!(said.contains("database = "), "{what}: {said}");
        } else {
            // Nothing to connect to, or a URL refused: never a success.
            assert!(!out.status.success(), "{what}: {said}");
        }
    }
}

#[test]
fn a_mistyped_command_line_never_echoes_it() {
    let dir = tempfile::tempdir().unwrap();
    for (case, url) in urls(dir.path()) {
        for args in mistyped(&url) {
            let what = format!("{case}: {}", args.join(" "));
            let out = photofinish(dir.path(), &args).output().unwrap();
            assert_clean(&what, &out);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{what}: {err}");
            assert_eq!(err.lines().count(), 1, "{what}: {err}");
            assert!(err.contains("photofinish --help"), "{what}: {err}");
        }
        // A URL given as the config file: refused by a health check (1), shown redacted.
        let args = ["health".to_string(), "--config".into(), url.clone()];
        let out = photofinish(dir.path(), &args).output().unwrap();
        let said = assert_clean(&format!("{case}: health --config URL"), &out);
        assert_eq!(out.status.code(), Some(1), "{case}: {said}");
    }
}
