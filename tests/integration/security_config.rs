//! The configuration and the command line (docs/reliability.md, "Configuration
//! and secrets"): one loader for every command, secrets kept out of every output, operator
//! input bounded, and every refusal one line with exit code 2.
//!
//! Each test runs the built binary with a cleared environment, so that nothing of the
//! machine's (a `DISCORD_TOKEN`, a `PHOTOFINISH_DATABASE`) decides the outcome.

use crate::support::backend;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use backend::{Db, Kind};

/// Only bounds a hang: a child is stopped as soon as its log shows what the test waits for.
const PATIENCE: Duration = Duration::from_secs(90);

/// Secrets planted in the tests below; none may ever be printed or logged.
const TOKEN: &str = "MTIz.token-secret-Gx";
const USER_PW: &str = "pw-userinfo-secret";
const QUERY_PW: &str = "pw-query-secret";

fn photofinish(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_photofinish"));
    c.env_clear().current_dir(dir);
    c
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Fails if any planted secret shows.
fn assert_clean(what: &str, said: &str) {
    for secret in [TOKEN, USER_PW, QUERY_PW, "token-secret"] {
        assert!(!said.contains(secret), "{what} printed a secret: {said}");
    }
}

/// A refusal: exit code 2, and exactly one line on stderr, which contains `names`.
fn assert_refusal(what: &str, out: &Output, names: &str) {
    assert_one_line(what, out, names, 2);
}

/// The code a command exits with for a configuration it cannot use: `health` reports it
/// as unhealthy (1), every other command refuses it (2).
fn config_code(args: &[&str]) -> i32 {
    if args.first() == Some(&"health") {
        1
    } else {
        2
    }
}

/// Exit code `code`, and exactly one line on stderr, which contains `names`.
fn assert_one_line(what: &str, out: &Output, names: &str, code: i32) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{what}: {}", text(out));
    assert_eq!(err.lines().count(), 1, "{what}: one line, got: {err}");
    assert!(err.contains(names), "{what}: `{names}` not in: {err}");
    assert!(err.len() < 400, "{what}: a long line: {err}");
    assert_clean(what, &text(out));
}

/// Reads the child's stdout and stderr until they contain `wanted` (or [`PATIENCE`] runs
/// out), then kills it and returns everything it wrote.
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

/// The URL with planted passwords in both forms (PostgreSQL's test server trusts loopback,
/// so they are accepted and ignored).
fn with_passwords(url: &str) -> String {
    let url = url.replacen("://photofinish@", &format!("://photofinish:{USER_PW}@"), 1);
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}password={QUERY_PW}")
}

/// `run`, `health`, `migrate` and `config check`, given the same file and environment,
/// use the same database: the environment's, not the file's. `migrate` migrates it, `run`
/// reports its gateway in it, and `health` finds that report there.
async fn run_health_and_migrate_open_the_same_database(kind: Kind) {
    let db = Db::new(kind).await;
    let url = match kind {
        Kind::Sqlite => db.url.clone(),
        Kind::Postgres => with_passwords(&db.url),
    };
    let dir = tempfile::tempdir().unwrap();
    let decoy = dir.path().join("from-the-file.db");
    std::fs::write(
        dir.path().join("bot.toml"),
        format!(
            "database = \"{}\"\nrest_proxy = \"http://127.0.0.1:9\"\n[log]\nlevel = \"debug\"\n",
            decoy.display()
        ),
    )
    .unwrap();
    let instance = format!("same-db-{}", std::process::id());
    let cmd = |args: &[&str]| {
        let mut c = photofinish(dir.path());
        c.args(args)
            .args(["--config", "bot.toml"])
            .env("PHOTOFINISH_DATABASE", &url)
            .env("DISCORD_TOKEN", TOKEN)
            .env("PHOTOFINISH_INSTANCE", &instance);
        c
    };
    let out = cmd(&["migrate"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_clean("migrate", &text(&out));

    let mut bot = cmd(&["run"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It has opened the database and reported there once it tries Discord.
    let log = log_until(&mut bot, "get gateway URL failed");
    assert!(log.contains("get gateway URL failed"), "{log}");
    assert_clean("run's log", &log);
    if kind == Kind::Postgres {
        assert!(
            log.contains("://***@"),
            "the start log names the database: {log}"
        );
    }

    let out = cmd(&["health", "--gateway", "required", "--json"])
        .output()
        .unwrap();
    assert_clean("health", &text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["reachable"], true, "{report}");
    assert_eq!(
        report["gateway"]["instance"].as_str(),
        Some(instance.as_str()),
        "health finds the report `run` wrote: {report}"
    );

    let out = cmd(&["config", "check"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_clean("config check", &text(&out));
    assert!(
        text(&out).contains("# from PHOTOFINISH_DATABASE"),
        "{}",
        text(&out)
    );
    assert!(!decoy.exists(), "no command opened the file's database");
}

on_both!(run_health_and_migrate_open_the_same_database);

#[test]
fn every_key_comes_from_the_environment_and_config_check_says_where() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.toml"), "[turns]\nlength = \"2h\"\n").unwrap();
    let out = photofinish(dir.path())
        .args(["config", "check"])
        .env("PHOTOFINISH_TOKEN", TOKEN)
        .env("PHOTOFINISH_TURNS_REMINDERS", "30m,10m")
        .env("PHOTOFINISH_SHARD_TOTAL", "2")
        .env("PHOTOFINISH_TIME_ZONE", "+02:00")
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert_clean("config check", &said);
    for line in [
        "# file: config.toml (found in the working directory)",
        "token = (hidden)  # from PHOTOFINISH_TOKEN",
        "turns.length = \"2h\"  # in config.toml",
        "turns.reminders = \"30m,10m\"  # from PHOTOFINISH_TURNS_REMINDERS",
        "shard_total = \"2\"  # from PHOTOFINISH_SHARD_TOTAL",
        "time_zone = \"+02:00\"  # from PHOTOFINISH_TIME_ZONE",
        "database = \"photofinish.db\"  # default",
    ] {
        assert!(said.lines().any(|l| l == line), "`{line}` in:\n{said}");
    }
    // The flag wins over the environment.
    let out = photofinish(dir.path())
        .args(["config", "check", "--database", "flag.db"])
        .env("PHOTOFINISH_TOKEN", TOKEN)
        .env("PHOTOFINISH_DATABASE", "env.db")
        .output()
        .unwrap();
    assert!(
        text(&out).contains("database = \"flag.db\"  # from --database"),
        "{}",
        text(&out)
    );
    // No token: `run` would refuse, and so does the check, after showing the rest.
    let out = photofinish(dir.path())
        .args(["config", "check"])
        .output()
        .unwrap();
    assert_refusal("config check without a token", &out, "no Discord token");
    assert!(String::from_utf8_lossy(&out.stdout).contains("token = (unset)  # default"));
}

/// A token written without quotes made the TOML error quote its line: to stderr, the log,
/// and through the health check to `docker inspect`.
#[test]
fn a_config_syntax_error_names_line_and_column_and_never_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        format!("database = \"races.db\"\ntoken = {TOKEN}\n"),
    )
    .unwrap();
    for args in [
        &["run"][..],
        &["health"],
        &["migrate"],
        &["verify", "1"],
        &["config", "check"],
    ] {
        let out = photofinish(dir.path()).args(args).output().unwrap();
        assert_one_line(
            &args.join(" "),
            &out,
            "config.toml is not valid TOML at line 2, column 9",
            config_code(args),
        );
    }
    // A token where a value of another kind belongs, or from the environment in a key
    // that checks its value, is named by key and source only.
    std::fs::write(
        dir.path().join("config.toml"),
        format!("guild = \"{TOKEN}\"\n"),
    )
    .unwrap();
    let out = photofinish(dir.path()).arg("health").output().unwrap();
    assert_one_line("a token as the guild", &out, "`guild` in config.toml", 1);
    std::fs::write(dir.path().join("config.toml"), "").unwrap();
    let out = photofinish(dir.path())
        .arg("run")
        .env("PHOTOFINISH_TIME_ZONE", TOKEN)
        .output()
        .unwrap();
    assert_refusal(
        "a token as the time zone",
        &out,
        "`time_zone` from PHOTOFINISH_TIME_ZONE",
    );
}

/// `verify --db postgres://u:PW@...` printed the password; `health`, `migrate` and the start
/// log printed `?password=`.
#[test]
fn no_database_password_is_printed_by_any_command() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens on port 1: every command fails to connect, and says so.
    let url =
        format!("postgres://bot:{USER_PW}@127.0.0.1:1/none?sslmode=disable&password={QUERY_PW}");
    let query_only = format!("postgres://bot@127.0.0.1:1/none?password={QUERY_PW}");
    // Spellings sqlx reads as a password, and one it ignores with a warning that quotes it.
    let encoded = format!("postgres://bot@127.0.0.1:1/none?p%61ssword={QUERY_PW}");
    let ssl = format!("postgres://bot@127.0.0.1:1/none?sslmode=disable&sslpassword={QUERY_PW}");
    // Each command waits out its connection timeout: they all run at once.
    let mut runs = Vec::new();
    for url in [&url, &query_only, &encoded, &ssl] {
        let mysql = url.replace("postgres", "mysql");
        for args in [
            vec!["verify", "1", "--db", url],
            vec!["health", "--database", url],
            vec!["health", "--database", url, "--json"],
            vec!["migrate", "--database", url],
            vec!["export", "1", "--database", url],
            vec!["backup", "--database", url, "copy.db"],
            // A mistyped line: the URL where no argument is taken.
            vec!["health", url],
            vec!["bench", "--database", &mysql],
            vec!["config", "check"],
            vec!["run"],
        ] {
            let mut cmd = photofinish(dir.path());
            cmd.args(&args)
                .env("PHOTOFINISH_DATABASE", url)
                .env("PHOTOFINISH_TOKEN", TOKEN)
                .env("PHOTOFINISH_REST_PROXY", "http://127.0.0.1:9")
                .env("RUST_LOG", "debug")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            runs.push((args.join(" "), cmd.spawn().unwrap(), url == &ssl));
        }
    }
    for (what, child, refused_parameter) in runs {
        let out = child.wait_with_output().unwrap();
        let said = text(&out);
        assert_clean(&what, &said);
        // backup refuses PostgreSQL before reading the URL, and a mistyped line is refused
        // before anything: neither shows it.
        let shows_url = !what.starts_with("health postgres") && !what.starts_with("backup");
        let sqlx_reads_it =
            !matches!(what.as_str(), "config check" | "run") && !what.starts_with("bench");
        if refused_parameter && shows_url && sqlx_reads_it {
            assert!(said.contains("`sslpassword` is not"), "{what}: {said}");
        } else if shows_url {
            assert!(said.contains("***"), "{what}: {said}");
        }
        match what.as_str() {
            "config check" => assert!(out.status.success(), "{said}"),
            w if w.starts_with("health postgres") => {
                assert_eq!(out.status.code(), Some(2), "{said}");
            }
            // The start log, then the error when the database cannot be reached.
            "run" => {
                assert_eq!(out.status.code(), Some(1), "{said}");
                assert!(said.contains("starting photofinish"), "{said}");
            }
            _ => assert!(!out.status.success(), "{what}: {said}"),
        }
    }
}

/// `verify` once created and migrated a database that was not there.
#[test]
fn verify_never_creates_or_migrates_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let out = photofinish(dir.path())
        .args(["verify", "1", "--database", "missing.db"])
        .output()
        .unwrap();
    assert_refusal(
        "verify on no database",
        &out,
        "cannot open the database missing.db",
    );
    assert!(!dir.path().join("missing.db").exists(), "verify created it");
    // The configuration's database, as for every command.
    let out = photofinish(dir.path())
        .args(["verify", "1"])
        .env("PHOTOFINISH_DATABASE", "also-missing.db")
        .output()
        .unwrap();
    assert_refusal("verify on the configured database", &out, "also-missing.db");
    assert!(!dir.path().join("also-missing.db").exists());
    // An empty file is not a migrated database: refused, and not migrated.
    std::fs::write(dir.path().join("empty.db"), b"").unwrap();
    let out = photofinish(dir.path())
        .args(["verify", "1", "--database", "empty.db"])
        .output()
        .unwrap();
    assert_refusal(
        "verify on an empty file",
        &out,
        "not at this version's migrations",
    );
    let out = photofinish(dir.path())
        .args([
            "health",
            "--database",
            "empty.db",
            "--gateway",
            "skip",
            "--json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["schema"]["applied"],
        serde_json::json!([]),
        "{report}"
    );
}

/// Absurd values are refused in one line, before they cost anything.
#[test]
fn absurd_operator_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let huge = write("huge.toml", "shard_total = 4294967295\n");
    let out = photofinish(dir.path())
        .args(["run", "--config", &huge])
        .env("PHOTOFINISH_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert_refusal("shard_total = 4294967295", &out, "`shard_total`");
    // Once a panic (a byte index inside `€`), exit 101 with a backtrace hint.
    let zone = write("zone.toml", "time_zone = \"+a€\"\n");
    let out = photofinish(dir.path())
        .args(["run", "--config", &zone])
        .env("PHOTOFINISH_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert_refusal("time_zone = \"+a€\"", &out, "`time_zone`");

    // A 2 MB replay script, and a 100,000-character runner name for `render`.
    let name = "N".repeat(100_000);
    let long_name = write(
        "long-name.json",
        &format!(
            r#"{{"game": "dream-mile", "players": [{{"name": "{name}"}}, {{"name": "B"}}], "turns": [{{"B": "1"}}]}}"#
        ),
    );
    let two_mb = write(
        "two-mb.json",
        &format!(
            r#"{{"game": "dream-mile", "players": [{{"name": "A"}}, {{"name": "B"}}], "turns": [], "pad": "{}"}}"#,
            "x".repeat(2 << 20)
        ),
    );
    let out_dir = dir.path().join("pictures");
    let out = photofinish(dir.path())
        .args(["render", &long_name, "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_refusal("render a 100,000-character name", &out, "players[0].name");
    assert!(!text(&out).contains("NNNNNNNN"), "{}", text(&out));
    let out = photofinish(dir.path())
        .args(["replay", &two_mb])
        .output()
        .unwrap();
    assert_refusal("replay a 2 MB script", &out, "larger than");
}

/// Every refusal of the command line: exit 2 (`health`: 1 for a config it cannot use), one
/// line that names what was wrong, no megabytes of input and no internal type names.
#[test]
fn every_command_line_refusal_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let bad_json = write("bad.json", "{\"game\": \"dream-mile\", \"players\": [");
    let no_game = write("no-game.json", "{\"game\": \"chess\"}");
    let big_speed = write(
        "speed.json",
        r#"{"game": "dream-mile", "players": [{"name": "A", "max_speed": 300}, {"name": "B"}], "turns": []}"#,
    );
    let bad_order = write(
        "order.json",
        r#"{"game": "dream-mile", "players": [{"name": "A"}, {"name": "B"}], "turns": [{"A": "99"}]}"#,
    );
    let long_order = write(
        "long-order.json",
        &format!(
            r#"{{"game": "dream-mile", "players": [{{"name": "A"}}, {{"name": "B"}}], "turns": [{{"A": "{}"}}]}}"#,
            "7 ".repeat(90)
        ),
    );
    let bad_spot = write(
        "spot.json",
        r#"{"game":"1500m","players":["Red","Blue"],"setup":{"Red":{"at":"1:3","crossings":9}},"rounds":[]}"#,
    );
    let many_cards = write(
        "cards.json",
        r#"{"game":"mille-bornes","players":["A","B"],"rounds":[{"hands":{"A":["out of gas","out of gas","out of gas","out of gas"]}}],"plays":[]}"#,
    );
    let empty_config = write("empty.toml", "");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "a command is missing"),
        (vec!["frobnicate"], "that is not a command"),
        (vec!["play", "dream-mile", "--players", "many"], "--players"),
        (
            vec!["play", "dream-mile", "--deadline", "soon"],
            "--deadline",
        ),
        (vec!["play", "dream-mile", "--bots", "genius"], "--bots"),
        (vec!["play", "chess"], "unknown game `chess`"),
        (
            vec!["verify", "one"],
            "the value of [CAMPAIGN] is not valid",
        ),
        (vec!["replay", "missing.json"], "missing.json"),
        (vec!["replay", &bad_json], "not valid JSON"),
        (vec!["replay", &no_game], "chess"),
        (vec!["replay", &big_speed], "max_speed"),
        (vec!["replay", &bad_order], "turn 1"),
        (vec!["replay", &long_order], "turn 1"),
        (vec!["render", &bad_json], "not valid JSON"),
        (
            vec!["replay", &bad_spot],
            "setup of Red: there is no such space",
        ),
        (vec!["replay", &many_cards], "`out of gas` cards"),
        (
            vec!["health", "--config", "nope.toml"],
            "cannot read nope.toml",
        ),
        (
            vec!["migrate", "--config", "nope.toml"],
            "cannot read nope.toml",
        ),
        (vec!["run", "--config", &empty_config], "no Discord token"),
        (vec!["health", "--gateway", "maybe"], "--gateway"),
        (vec!["bench", "--processes", "2"], "--processes"),
        (vec!["sim", "chess"], "unknown game `chess`"),
    ];
    for (args, names) in cases {
        let out = photofinish(dir.path()).args(&args).output().unwrap();
        let what = format!("photofinish {}", args.join(" "));
        // `health` exits 1 for a config it cannot use, 2 for a bad flag.
        let code = if args.contains(&"--config") {
            config_code(&args)
        } else {
            2
        };
        assert_one_line(&what, &out, names, code);
        let err = String::from_utf8_lossy(&out.stderr);
        for internal in [
            "Spot {",
            "Some(",
            "Err(",
            "expected u8",
            "Error {",
            "panicked",
            "OutOfGas",
        ] {
            assert!(!err.contains(internal), "{what}: `{internal}` in: {err}");
        }
    }
}

/// The fault-injection hook is a test-only feature: on in this build, off in release.
#[test]
fn the_crash_hook_is_built_for_the_tests_only() {
    assert!(
        photofinish::fault::enabled(),
        "the tests build the crate with its fault-injection feature"
    );
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let features = manifest
        .split("[features]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .unwrap();
    assert!(
        !features
            .lines()
            .any(|l| l.trim_start().starts_with("default")),
        "no default feature turns it on: {features}"
    );
}

/// `.ci/compose` runs compose.yaml's bot (its environment, the image's CMD, an operator's
/// copy of config.example.toml) against the tests' PostgreSQL: it must migrate and run
/// there, and leave no SQLite file behind.
#[test]
fn compose_runs_the_bot_on_postgresql() {
    let Some(server) = backend::postgres_url() else {
        eprintln!(
            "skipped: set {} to run on PostgreSQL",
            backend::POSTGRES_ENV
        );
        return;
    };
    let out = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/compose"))
        .env("PHOTOFINISH_BIN", env!("CARGO_BIN_EXE_photofinish"))
        .env(backend::POSTGRES_ENV, server)
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("ok: compose.yaml's bot migrated and ran on PostgreSQL"),
        "{said}"
    );
}
