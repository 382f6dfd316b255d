//! `photofinish play` with a length preset and Dream Mile's maximum speed: the
//! terminal shows the expected duration at the usual pace, plays with the chosen maximum,
//! and refuses a length or a speed the game does not have in one line.

use std::io::Write;
use std::process::{Command, Stdio};

fn photofinish() -> Command {
    Command::new(env!("CARGO_BIN_EXE_photofinish"))
}

#[test]
fn play_takes_a_length_and_a_max_speed_and_shows_the_expected_duration() {
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
            "--length",
            "race",
            "--max-speed",
            "13",
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
        // 13 is allowed at max 13 (it is above the default 10).
        writeln!(stdin, "13").unwrap();
        for _ in 0..7 {
            let _ = writeln!(stdin, "4");
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("The race: about 3.7 days, 4.7 days in 9 games out of 10"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Order received for Turn 1 of 8: `13`"),
        "{stdout}\n{stderr}"
    );
    assert!(!stderr.contains("above your maximum"), "{stderr}");
}

#[test]
fn play_refuses_a_length_or_a_max_speed_the_game_lacks_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            vec!["play", "mille-bornes", "--length", "race"],
            "1000 miles has no length `race`; its lengths are `round` (one round) or `game` (the full game (to 5000 points))",
        ),
        (
            vec!["play", "dream-mile", "--max-speed", "16"],
            "the maximum speed must be from 10 to 15, not 16",
        ),
        (
            vec!["play", "1500m", "--max-speed", "12"],
            "--max-speed is Dream Mile's; 1500m has no maximum speed to choose",
        ),
    ] {
        let out = photofinish()
            .args(&args)
            .arg("--db")
            .arg(dir.path().join("x.db"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
