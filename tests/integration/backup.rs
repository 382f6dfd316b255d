//! `photofinish backup FILE` on a live SQLite database: the copy is one consistent
//! snapshot (a write still open when it is taken is not in it), every finished race in it
//! verifies and the running race is there as it stood; PostgreSQL, an existing FILE and
//! the database itself are refused with one line.

use std::process::{Command, Output};

use crate::support::backend::{Bench, Kind};
use crate::support::courier::alice;
use photofinish::engine::BotLevel;
use photofinish::games::GameKind;
use photofinish::referee::{Config, NewRace, Referee, RefereeError, TestClock};
use photofinish::store;
use photofinish::vocab::{CampaignId, Phase};
use sqlx::Connection;

fn photofinish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_photofinish"))
        .args(args)
        .env_remove("PHOTOFINISH_DATABASE")
        .env_remove("PHOTOFINISH_CONFIG")
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A race of `game` in its own channel, bots in every seat but the host's, started.
async fn started(b: &Bench, game: GameKind, channel: &str) -> CampaignId {
    let id = b
        .referee
        .create(NewRace {
            kind: game,
            options: String::new(),
            channel: channel.into(),
            guild: Some("guild-1".into()),
            host: alice(),
        })
        .await
        .unwrap();
    b.referee.join(id, &alice(), None, None).await.unwrap();
    let (min, _) = game.seat_limits(&game.default_options()).unwrap();
    b.referee
        .add_bots(id, &alice(), min.max(4) - 1, BotLevel::Heuristic)
        .await
        .unwrap();
    b.referee.start(id, &alice()).await.unwrap();
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_of_a_live_database_is_consistent_and_every_race_verifies() {
    let b = Bench::new(Kind::Sqlite).await;
    let mut finished = Vec::new();
    for (n, game) in GameKind::all().enumerate() {
        let id = started(&b, game, &format!("chan-{n}")).await;
        // The host leaves: the bots play the rest.
        if let Err(e) = b.referee.leave(id, &alice()).await {
            assert!(matches!(e, RefereeError::Finished), "{game}: {e:?}");
        }
        let mut guard = 0;
        while b.referee.overview(id).await.unwrap().phase != Phase::Finished {
            b.clock.advance_secs(7200);
            b.referee.tick().await.unwrap();
            guard += 1;
            assert!(guard < 200, "{game} did not finish");
        }
        finished.push(id);
    }
    let running = started(&b, GameKind::DreamMile, "chan-running").await;
    let before = b.store.load(running).await.unwrap().unwrap();
    assert_eq!(before.campaign.phase, Phase::Running);

    // Another connection holds a write open while the copy is taken, as `run` would.
    let mut writer = sqlx::SqliteConnection::connect(&format!("sqlite:{}", b.db.url))
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut writer)
        .await
        .unwrap();
    sqlx::query("UPDATE campaigns SET version = version + 1000 WHERE id = ?")
        .bind(running.0)
        .execute(&mut writer)
        .await
        .unwrap();

    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.db");
    let copy_s = copy.to_string_lossy().into_owned();
    let out = photofinish(&["backup", &copy_s, "--database", &b.db.url]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("backed up"), "{}", text(&out));
    sqlx::query("COMMIT").execute(&mut writer).await.unwrap();
    writer.close().await.unwrap();
    // Nothing half-written is left beside the copy.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["copy.db".to_string()], "{names:?}");

    // The copy opens as it is (no migration needed) and holds every race.
    let copied = store::connect(&copy_s).await.unwrap();
    assert!(copied.schema_status().await.unwrap().is_current());
    let referee = Referee::new(
        copied.clone(),
        std::sync::Arc::new(TestClock::at_epoch()),
        Config::default(),
    );
    for id in &finished {
        let report = referee.verify(*id).await.unwrap();
        assert!(report.ok(), "race {id:?}: {report:?}");
        assert!(report.steps_checked > 0, "race {id:?}");
    }
    let after = copied.load(running).await.unwrap().unwrap();
    assert_eq!(after.campaign.phase, Phase::Running);
    assert_eq!(
        after.campaign.version, before.campaign.version,
        "the copy holds the last commit, not the write still open"
    );
    copied.close().await;
    // The command line's own verify reads the copy too.
    let out = photofinish(&["verify", &finished[0].0.to_string(), "--db", &copy_s]);
    assert!(out.status.success(), "{}", text(&out));

    // An existing FILE is refused, and left as it was, unless --force.
    let len = std::fs::metadata(&copy).unwrap().len();
    std::fs::write(&copy, b"not a database").unwrap();
    let out = photofinish(&["backup", &copy_s, "--database", &b.db.url]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--force"), "{}", text(&out));
    assert_eq!(std::fs::read(&copy).unwrap(), b"not a database");
    let out = photofinish(&["backup", &copy_s, "--force", "--database", &b.db.url]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(std::fs::metadata(&copy).unwrap().len() >= len);
    let again = store::connect(&copy_s).await.unwrap();
    assert!(again.load(running).await.unwrap().is_some());
    again.close().await;

    // The database itself, even with --force.
    let out = photofinish(&["backup", &b.db.url, "--force", "--database", &b.db.url]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("the database itself"), "{}", text(&out));
    assert!(b.store.load(running).await.unwrap().is_some());
}

#[test]
fn postgresql_is_refused_with_pg_dump_named_and_no_password_shown() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.db");
    let out = photofinish(&[
        "backup",
        &copy.to_string_lossy(),
        "--database",
        "postgres://bot:s3cret@127.0.0.1:1/pf",
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("pg_dump"), "{said}");
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(!said.contains("s3cret"), "{said}");
    assert!(!copy.exists());
}
