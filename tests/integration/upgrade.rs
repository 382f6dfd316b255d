//! Upgrades of databases that hold races: every file in tests/fixtures/upgrade was written
//! by a released binary (scripts/upgrade-fixtures.py) and holds a finished and a running
//! race of each game that release knew. Today's binary migrates each; then every finished
//! race is still finished with the result its release exported, and verifies; every
//! running race goes on under today's referee, on a test clock, to its finish, and
//! verifies too.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use crate::support::courier::Recorder;
use photofinish::games::GameKind;
use photofinish::referee::verify::verify_export;
use photofinish::referee::{Config, Referee, TestClock};
use photofinish::store;
use photofinish::vocab::{CampaignId, Phase};
use serde_json::Value;
use sqlx::{ConnectOptions, Connection};

/// The released schemas: each release, and the last migration its binary knew.
const RELEASES: &[(&str, i64)] = &[
    ("0.1.0-alpha.1", 3),
    ("0.1.0-alpha.2", 13),
    ("0.1.0-alpha.3", 20),
    ("0.1.0", 21),
];

/// The five games; each release knew them all.
const GAMES: &[&str] = &[
    "dream-mile",
    "mille-bornes",
    "1000-yards",
    "1500m",
    "magical-athlete",
];

/// Ticks enough for the longest running race to finish several times over.
const MAX_TICKS: usize = 20_000;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/upgrade")
}

/// Every fixture in the folder, oldest release first (those not in [`RELEASES`] last).
fn fixtures() -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = std::fs::read_dir(folder())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let name = p
                .file_name()?
                .to_str()?
                .strip_suffix(".sqlite.gz")?
                .to_owned();
            Some((name, p))
        })
        .collect();
    found.sort_by_key(|(name, _)| {
        let age = RELEASES.iter().position(|(r, _)| r == name);
        (age.unwrap_or(RELEASES.len()), name.clone())
    });
    found
}

fn photofinish() -> Command {
    Command::new(env!("CARGO_BIN_EXE_photofinish"))
}

/// A stored race as the old binary left it, read with plain SQL before any migration.
#[derive(Clone, Debug)]
struct Before {
    id: i64,
    kind: String,
    phase: String,
    step: i64,
    ended_at: Option<i64>,
}

async fn read_before(path: &str) -> (Vec<Before>, i64) {
    let mut c = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .connect()
        .await
        .unwrap();
    let rows: Vec<(i64, String, String, i64, Option<i64>)> =
        sqlx::query_as("SELECT id, kind, phase, step, ended_at FROM campaigns ORDER BY id")
            .fetch_all(&mut c)
            .await
            .unwrap();
    // The test clock starts at the latest moment the old binary wrote down.
    let (latest,): (i64,) = sqlx::query_as(
        "SELECT MAX(COALESCE(deadline_at, 0), updated_at) FROM campaigns \
         ORDER BY 1 DESC LIMIT 1",
    )
    .fetch_one(&mut c)
    .await
    .unwrap();
    c.close().await.unwrap();
    let races = rows
        .into_iter()
        .map(|(id, kind, phase, step, ended_at)| Before {
            id,
            kind,
            phase,
            step,
            ended_at,
        })
        .collect();
    (races, latest)
}

/// Results as the release that wrote the fixture exported them (releases with `export`).
fn old_results(release: &str) -> Option<HashMap<i64, Value>> {
    let text = std::fs::read_to_string(folder().join(format!("{release}.results.json"))).ok()?;
    let map: HashMap<String, Value> = serde_json::from_str(&text).unwrap();
    Some(
        map.into_iter()
            .map(|(k, v)| (k.parse().unwrap(), v))
            .collect(),
    )
}

#[tokio::test]
async fn every_release_s_races_survive_the_upgrade() {
    let found = fixtures();
    for (release, gz) in &found {
        upgrade(release, gz).await;
    }
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    for (release, _) in RELEASES {
        assert!(
            names.contains(release),
            "no fixture of {release} in {}: {names:?}",
            folder().display()
        );
    }
}

async fn upgrade(release: &str, gz: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("photofinish.db");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(gz).unwrap())
        .read_to_end(&mut bytes)
        .unwrap();
    std::fs::write(&path, bytes).unwrap();
    let url = path.to_string_lossy().into_owned();

    let (before, latest) = read_before(&url).await;
    for game in GAMES {
        for phase in ["finished", "running"] {
            assert!(
                before.iter().any(|r| r.kind == *game && r.phase == phase),
                "{release}: no {phase} race of {game} in the fixture: {before:?}"
            );
        }
    }

    // The release's schema, as today's binary sees it before migrating.
    let old = store::connect(&url).await.unwrap();
    let status = old.schema_status().await.unwrap();
    old.close().await;
    assert!(
        status.unknown.is_empty() && status.broken.is_empty(),
        "{release}: {status:?}"
    );
    if let Some((_, last)) = RELEASES.iter().find(|(r, _)| *r == release) {
        assert_eq!(status.applied.last(), Some(last), "{release}: {status:?}");
    }

    // `photofinish migrate`, as an operator upgrades.
    let out = photofinish()
        .args(["migrate", "--db", &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{release}: migrate: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let store = store::open(&url).await.unwrap();
    let status = store.schema_status().await.unwrap();
    assert!(status.is_current(), "{release}: after migrate: {status:?}");

    let clock = Arc::new(TestClock::new(latest));
    let referee = Referee::new(store.clone(), clock.clone(), Config::default());
    let results = old_results(release);

    // Finished races: finished still, with their result, and they verify.
    for race in before.iter().filter(|r| r.phase == "finished") {
        let id = CampaignId(race.id);
        let o = referee.overview(id).await.unwrap();
        assert_eq!(o.phase, Phase::Finished, "{release}: race {}", race.id);
        // A game's old name (`mille-bornes`) reads as the game it named.
        assert_eq!(
            GameKind::from_slug(&race.kind),
            Some(o.kind),
            "{release}: race {}",
            race.id
        );
        let loaded = store.load(id).await.unwrap().unwrap();
        assert_eq!(i64::from(loaded.campaign.step), race.step, "{release}");
        assert_eq!(loaded.campaign.ended_at, race.ended_at, "{release}");
        let report = referee.verify(id).await.unwrap();
        assert!(report.ok(), "{release}: race {}: {report:?}", race.id);
        let export = referee.export(id).await.unwrap();
        let result = serde_json::to_value(&export.result).unwrap();
        assert!(
            result.is_array(),
            "{release}: race {} has no result",
            race.id
        );
        if let Some(results) = &results {
            assert_eq!(
                Some(&result),
                results.get(&race.id),
                "{release}: race {}'s result changed",
                race.id
            );
        }
        let offline = verify_export(&export);
        assert!(
            offline.ok(),
            "{release}: race {} export: {offline:?}",
            race.id
        );
    }
    // The command line's verify reads an old race too.
    let first = before.iter().find(|r| r.phase == "finished").unwrap();
    let out = photofinish()
        .args(["verify", &first.id.to_string(), "--db", &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{release}: verify {}: {}",
        first.id,
        String::from_utf8_lossy(&out.stdout)
    );

    // Running races go on: the first tick plays the deadlines the old binary left.
    let running: Vec<&Before> = before.iter().filter(|r| r.phase == "running").collect();
    for race in &running {
        let o = referee.overview(CampaignId(race.id)).await.unwrap();
        assert_eq!(o.phase, Phase::Running, "{release}: race {}", race.id);
    }
    let courier = Recorder::default();
    let mut ticks = 0;
    let mut went_on = Vec::new();
    loop {
        referee.deliver(&courier).await.unwrap();
        for race in &running {
            let step = store
                .load(CampaignId(race.id))
                .await
                .unwrap()
                .unwrap()
                .campaign
                .step;
            if i64::from(step) > race.step && !went_on.contains(&race.id) {
                went_on.push(race.id);
            }
        }
        let open = store.open_campaigns().await.unwrap();
        if open.is_empty() {
            break;
        }
        ticks += 1;
        assert!(
            ticks < MAX_TICKS,
            "{release}: races {open:?} still open after {MAX_TICKS} ticks"
        );
        let now = photofinish::referee::Clock::now(clock.as_ref());
        match referee.next_due().await.unwrap() {
            Some(due) if due > now => clock.advance_ms(due - now),
            Some(_) => {}
            None => panic!("{release}: races {open:?} are open with no deadline"),
        }
        referee.tick().await.unwrap();
    }
    assert!(
        store.quarantined().await.unwrap().is_empty(),
        "{release}: a race was quarantined"
    );
    for race in &running {
        let id = CampaignId(race.id);
        assert!(
            went_on.contains(&race.id),
            "{release}: race {} never took another turn",
            race.id
        );
        let o = referee.overview(id).await.unwrap();
        assert_eq!(o.phase, Phase::Finished, "{release}: race {}", race.id);
        let report = referee.verify(id).await.unwrap();
        let export = referee.export(id).await.unwrap();
        assert!(export.result.is_some(), "{release}: race {}", race.id);
        let offline = verify_export(&export);
        assert!(report.ok(), "{release}: race {}: {report:?}", race.id);
        assert!(
            offline.ok(),
            "{release}: race {} export: {offline:?}",
            race.id
        );
    }
    store.close().await;
}
