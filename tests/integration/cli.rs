//! The command line, as a user runs it: replay, sim, play and verify.

use std::io::Write;
use std::process::{Command, Stdio};

fn photofinish() -> Command {
    Command::new(env!("CARGO_BIN_EXE_photofinish"))
}

/// Runs the binary with `args` and expects it to succeed (its stderr says why not).
fn succeeds(args: &[&str]) -> std::process::Output {
    let out = photofinish().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn replay_prints_the_rulebook_example_as_json() {
    let out = succeeds(&["replay", "tests/scripts/dream-mile-rulebook.json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "dream-mile");
    assert_eq!(json["finished"], false);
    let names: Vec<&str> = json["turns"][1]["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Alice", "Carol", "Dave", "Emily", "Frank", "Helen", "George", "Bill"
        ]
    );
}

#[test]
fn a_bad_script_exits_2_with_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, r#"{"game":"dream-mile","players":[{"name":"Alice"},{"name":"Bob"}],"turns":[{"Alice":"4"},{"Bob":"12"}]}"#).unwrap();
    let out = photofinish().arg("replay").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "turn 2, Bob: that order isn't allowed: 12 is above your maximum speed of 10"
    );
    assert_eq!(err.lines().count(), 1);
    std::fs::write(&path, "{not json").unwrap();
    let out = photofinish().arg("replay").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn sim_summarises_bot_races() {
    let out = photofinish()
        .args([
            "sim",
            "dream-mile",
            "--races",
            "200",
            "--seed",
            "7",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["races"], 200);
    let again = photofinish()
        .args([
            "sim",
            "dream-mile",
            "--races",
            "200",
            "--seed",
            "7",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.stdout, again.stdout,
        "the same seed gives the same summary"
    );
    let out = photofinish().args(["sim", "chess"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_runs_a_whole_race_in_the_terminal_then_verifies_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let mut child = photofinish()
        .args([
            "play",
            "dream-mile",
            "--players",
            "4",
            "--deadline",
            "30s",
            "--db",
        ])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        // An illegal order, then seven good ones (a changed order in turn 1).
        writeln!(stdin, "11\n3").unwrap();
        for _ in 0..7 {
            // The race may end (and close its input) as the last order lands.
            let _ = writeln!(stdin, "5");
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("11 is above your maximum speed of 10"),
        "{stderr}"
    );
    assert!(stdout.contains("[DM to you]"), "{stdout}");
    assert!(stdout.contains("final result"), "{stdout}");
    assert!(
        stdout.contains("Verified: the seed matches its commitment"),
        "{stdout}"
    );
    let out = photofinish()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = photofinish()
        .args(["verify", "9", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_missing_game_is_named_with_the_games_listed() {
    for command in ["play", "sim"] {
        let out = photofinish().arg(command).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("<GAME> is required"), "{err}");
        for game in photofinish::games::GameKind::all() {
            assert!(err.contains(game.slug()), "{command}: {err}");
        }
    }
}

#[test]
fn an_unknown_bot_level_is_refused_with_the_levels_listed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let out = photofinish()
        .args(["play", "dream-mile", "--bots", "genius", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--bots"), "{err}");
    assert!(err.contains("heuristic, random, expert"), "{err}");
    assert!(
        !err.contains("genius"),
        "never echoes what was typed: {err}"
    );
    assert!(!db.exists(), "a refusal starts no race");
    let help = photofinish().args(["play", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("heuristic, random, expert"), "{help}");
}

/// Runs `args` with standard output closed before the first write, as `| head` does.
fn with_stdout_closed(args: &[&str]) -> std::process::Output {
    let mut child = photofinish()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_each_command_quietly_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for args in [
        vec![
            "render",
            "tests/scripts/dream-mile-rulebook.json",
            "--out",
            out,
        ],
        vec!["replay", "tests/scripts/dream-mile-rulebook.json"],
        vec!["sim", "dream-mile", "--races", "5"],
        vec!["sim", "dream-mile", "--races", "5", "--json"],
    ] {
        let run = with_stdout_closed(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(run.status.code(), Some(101), "{args:?}: {stderr}");
        assert_eq!(run.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn verify_and_export_word_a_missing_race_alike() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("empty.db");
    let out = photofinish()
        .args(["migrate", "--database"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let refusal = |command: &str| {
        let out = photofinish()
            .args([command, "99", "--database"])
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    assert_eq!(refusal("verify"), "there is no race #99 in the database");
    assert_eq!(refusal("export"), "there is no race #99 in the database");
}

#[test]
fn the_database_flag_has_one_spelling_in_help_and_keeps_its_alias() {
    for command in [
        "play", "verify", "export", "health", "backup", "migrate", "run", "bench",
    ] {
        let out = photofinish().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("--database <"), "{command}: {help}");
        assert!(help.contains("[alias: --db]"), "{command}: {help}");
        assert!(help.contains("--database <DATABASE>"), "{command}: {help}");
    }
    // The alias still works: `--db` and `--database` name the same file.
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--db", "--database"] {
        let db = dir
            .path()
            .join(format!("{}.db", flag.trim_start_matches('-')));
        let out = photofinish()
            .args(["migrate", flag])
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success(), "{flag}");
        assert!(db.exists(), "{flag}");
    }
}

#[test]
fn each_game_goes_by_one_name_and_the_old_one_still_reads() {
    let out = photofinish().args(["sim", "chess"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1000-miles"), "{err}");
    assert!(!err.contains("mille-bornes"), "{err}");
    let out = succeeds(&["replay", "tests/scripts/1000-miles-rounds.json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "1000-miles", "the script says mille-bornes");
}

#[test]
fn quit_in_play_says_the_race_is_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let mut child = photofinish()
        .args(["play", "dream-mile", "--players", "2", "--database"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "quit").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("You quit: race #1 is cancelled."),
        "{stdout}"
    );
}
