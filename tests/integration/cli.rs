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

/// A chain of plays nobody waits for (here every seat is a bot's) is told one post a
/// round of play, never one post for the whole chain.
#[test]
fn a_chain_of_bot_plays_is_one_post_a_round() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let out = photofinish()
        .args(["play", "1000-miles", "--players", "2", "--length", "round"])
        .args(["--autopilot", "bot", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Autopilot `bot`: the built-in bot plays"),
        "{stdout}"
    );
    assert!(stdout.contains("final result"), "{stdout}");
    let posts: Vec<&str> = stdout
        .split("[channel]")
        .filter(|p| p.contains("Orders and receipts"))
        .collect();
    assert!(posts.len() > 3, "{} round posts:\n{stdout}", posts.len());
    for p in &posts {
        let title = p.lines().find(|l| l.starts_with("== ")).unwrap_or_default();
        assert!(!title.contains("Rounds"), "{title}");
        // Two seats: two turns a round, and a dirty trick's answer at most.
        let bullets = p.lines().filter(|l| l.starts_with("• ")).count();
        assert!(bullets <= 3, "{bullets} lines in one round's post:\n{p}");
    }
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
fn a_mistyped_command_gets_a_suggestion() {
    let out = photofinish().arg("plya").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did you mean") && err.contains("`play`"),
        "{err}"
    );
    assert!(!err.contains("plya"), "never echoes what was typed: {err}");
}

/// A `play` session whose output is read line by line as it comes.
struct Session {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Session {
    fn start(args: &[&str], db: &std::path::Path) -> Session {
        let mut child = photofinish()
            .args(args)
            .arg("--database")
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        for out in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let send = send.clone();
            std::thread::spawn(move || {
                use std::io::BufRead;
                for line in std::io::BufReader::new(out).lines() {
                    let Ok(line) = line else { break };
                    if send.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
    }

    /// Reads until a line contains `text` (a minute at most: a bound, not a measure).
    fn wait_for(&mut self, text: &str) -> String {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no line with {text:?} in:\n{}", self.seen.join("\n"));
    }

    /// Waits for the process to end and returns everything it printed.
    fn finish(mut self) -> (std::process::ExitStatus, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        self.seen.extend(self.lines.iter());
        (status, self.seen.join("\n"))
    }
}

#[test]
fn quit_asks_whether_to_end_or_keep_the_race_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let play = ["play", "dream-mile", "--players", "2"];
    // `quit`, then `end`: cancelled.
    let mut s = Session::start(&play, &db);
    s.wait_for("has started");
    s.type_line("quit");
    let asked = s.wait_for("Leave race #1");
    assert!(
        asked.contains("`end`") && asked.contains("`keep`"),
        "{asked}"
    );
    assert!(
        asked.contains("photofinish play --resume --database"),
        "{asked}"
    );
    s.type_line("end");
    let (status, out) = s.finish();
    assert!(status.success(), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("You quit: race #1 is cancelled."),
        "{out}"
    );
    // `quit`, then `keep`: paused, and `play --resume` takes it up with its prompt.
    let mut s = Session::start(&play, &db);
    s.wait_for("Race #2 (Dream Mile) has started");
    s.type_line("quit");
    s.wait_for("Leave race #2");
    s.type_line("keep");
    let (status, out) = s.finish();
    assert!(status.success(), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("You left: race #2 is kept, paused")
            && last.contains("photofinish play --resume --database"),
        "{out}"
    );
    let mut s = Session::start(&["play", "--resume"], &db);
    s.wait_for("Race #2 (Dream Mile) resumes");
    s.wait_for("how many speed points do you play?");
    // `quit` with no answer before the input ends: kept, never cancelled unasked.
    s.type_line("quit");
    s.wait_for("Leave race #2");
    let (status, out) = s.finish();
    assert!(status.success(), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap_or_default()
            .starts_with("Input ended before an answer: race #2 is kept"),
        "{out}"
    );
    // Nothing left to resume once the race is ended.
    let mut s = Session::start(&["play", "--resume"], &db);
    s.wait_for("resumes");
    s.type_line("quit end");
    let (status, _) = s.finish();
    assert!(status.success());
    let out = photofinish()
        .args(["play", "--resume", "--database"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("there is no unfinished race"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_race_for_resume_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let mut s = Session::start(&["play", "dream-mile", "--players", "2"], &db);
    s.wait_for("how many speed points do you play?");
    let sent = Command::new("kill")
        .args(["-INT", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    // Its input stays open: the session ends on the signal alone.
    s.wait_for("Interrupted: race #1 is kept, paused with its clock stopped");
    let (status, _) = s.finish();
    assert!(status.success());
    let mut s = Session::start(&["play", "--resume"], &db);
    s.wait_for("Race #1 (Dream Mile) resumes");
    s.type_line("quit end");
    let (status, out) = s.finish();
    assert!(status.success(), "{out}");
}

#[test]
fn a_race_left_running_says_nothing_in_the_next_session() {
    use photofinish::vocab::CampaignId;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    // Race #1 left running with no session (killed): its reminder and deadline fall due
    // while race #2 is played.
    let mut left = Session::start(
        &["play", "dream-mile", "--players", "2", "--deadline", "6s"],
        &db,
    );
    left.wait_for("how many speed points do you play?");
    // A line is read only between delivery passes: killed then, it holds no outbox lease.
    left.type_line("help");
    left.wait_for("Type an order as you would DM it");
    left.child.kill().unwrap();
    let _ = left.finish();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let store = runtime
        .block_on(photofinish::store::open(&db.to_string_lossy()))
        .unwrap();
    let step = || {
        runtime
            .block_on(store.load(CampaignId(1)))
            .unwrap()
            .unwrap()
            .campaign
            .step
    };
    let before = step();
    let mut s = Session::start(&["play", "1500m", "--players", "2"], &db);
    s.wait_for("Race #2 (1500m) has started");
    // This session's tick resolves race #1's turn at its deadline...
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while step() == before {
        assert!(std::time::Instant::now() < until, "race #1 never moved on");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // ...and its posts, ready before this line is read, are not printed here.
    s.type_line("help");
    s.wait_for("Type an order as you would DM it");
    s.type_line("quit end");
    let (status, out) = s.finish();
    assert!(status.success(), "{out}");
    assert!(!out.contains("race #1"), "{out}");
    assert!(!out.contains("Dream Mile"), "{out}");
}

#[test]
fn the_terminal_names_its_own_commands_never_slash_commands() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let mut s = Session::start(&["play", "dream-mile", "--players", "2"], &db);
    s.wait_for("has started");
    // A date it cannot read, then away: the bot plays the rest at once.
    s.type_line("away soon");
    s.wait_for("is not a date or time");
    s.type_line("away 2");
    let away = s.wait_for("You are away until");
    assert!(away.ends_with("`back` ends it."), "{away}");
    s.wait_for("Verified:");
    let (status, out) = s.finish();
    assert!(status.success(), "{out}");
    assert!(!out.contains("/race"), "{out}");
    assert!(!out.contains("<t:"), "{out}");
    assert!(out.contains("`photofinish verify 1 --database"), "{out}");
    let help = photofinish().args(["play", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(!help.contains("/race"), "{help}");
}

#[test]
fn a_closed_stderr_ends_a_refusal_quietly_without_a_panic() {
    let mut child = photofinish()
        .args(["sim", "chess"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

#[test]
fn render_gif_writes_the_race_animated_one_frame_a_step() {
    let dir = tempfile::tempdir().unwrap();
    let out = photofinish()
        .args([
            "render",
            "tests/scripts/dream-mile-eight.json",
            "--gif",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gif = std::fs::read(dir.path().join("race.gif")).unwrap();
    assert_eq!(&gif[..6], b"GIF89a", "a GIF");
    // One frame a step that changed the picture: the turns drawn as PNGs, as many.
    let pngs = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("turn-")
        })
        .count();
    let line = stdout
        .lines()
        .find(|l| l.contains("race.gif"))
        .unwrap_or_else(|| panic!("race.gif is named: {stdout}"));
    assert!(
        line.contains(&format!("the race in {pngs} frames")),
        "{line} ({pngs} turn pictures)"
    );
    // Without --gif, no GIF.
    let plain = tempfile::tempdir().unwrap();
    let out = photofinish()
        .args(["render", "tests/scripts/dream-mile-eight.json", "--out"])
        .arg(plain.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!plain.path().join("race.gif").exists());
}
