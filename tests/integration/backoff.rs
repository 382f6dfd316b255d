//! Failing work backs off and says why (docs/reliability.md), on the test clock: a
//! deadline claim that keeps failing waits longer each time, logs its cause a few times
//! rather than hundreds, marks its worker `failing`, and recovers; rows that cannot be
//! read at all (text in a number column, a damaged page) quarantine their races instead
//! of stalling them or being retried for ever.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::support::backend::{Bench, Kind};
use crate::support::courier::{alice, bob};
use photofinish::referee::Referee;
use photofinish::referee::backoff::Backoff;
use photofinish::store::WorkerStatus;
use photofinish::vocab::CampaignId;

/// Every log line written while it is the thread's subscriber (warnings and up).
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
    fn subscriber(&self) -> impl tracing::Subscriber + Send + Sync + use<> {
        let writer = self.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::INFO)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish()
    }
}

async fn worker(b: &Bench) -> WorkerStatus {
    let all = b.store.workers().await.unwrap();
    all.into_iter()
        .find(|w| w.instance == "bot-1" && w.worker == "deadlines")
        .unwrap()
}

/// Claiming deadlines fails for half an hour (a full disk, by a trigger on every update of
/// `deadlines`). Before, the worker tried again at once: about 730 attempts and log lines
/// a second, the players' sentence for a cause, and `health` healthy. Now it waits longer
/// each time up to a minute, logs the database's own error a handful of times, shows
/// `failing` with the cause, and once the disk has room the turn resolves.
#[tokio::test]
async fn a_failing_claim_backs_off_says_why_and_recovers() {
    let lines = Lines::default();
    let _log = tracing::subscriber::set_default(lines.subscriber());
    let b = Bench::new(Kind::Sqlite).await;
    let id = b.three_runners("chan-1", "turn=1h").await;
    b.store
        .worker_status(&WorkerStatus {
            instance: "bot-1".into(),
            worker: "deadlines".into(),
            state: "running".into(),
            restarts: 0,
            last_panic: None,
            trouble: None,
            at: 0,
        })
        .await
        .unwrap();
    let raw = b.db.raw().await;
    raw.execute(
        "CREATE TRIGGER disk_full BEFORE UPDATE ON deadlines
         BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
        vec![],
    )
    .await;
    b.clock.advance_secs(3_601);
    let mut backoff = Backoff::new("deadlines", "bot-1");
    let start = b.clock.now_ms();
    let mut attempts = 0u32;
    while b.clock.now_ms() - start < 30 * 60_000 {
        let wait = b.referee.deadline_pass(&mut backoff, 60_000).await;
        assert!(wait > 0, "a failing pass never asks to go again at once");
        attempts += 1;
        b.clock.advance_ms(wait);
    }
    assert!(backoff.failing());
    // Doubling from 1 s to a jittered 30-60 s: about 30 to 60 attempts in 30 minutes.
    assert!((25..=70).contains(&attempts), "{attempts} attempts");
    let w = worker(&b).await;
    assert_eq!(w.state, "failing");
    let trouble = w.trouble.unwrap_or_default();
    assert!(trouble.contains("database or disk is full"), "{trouble}");
    let log = lines.text();
    let told: Vec<&str> = log.lines().filter(|l| l.contains("worker")).collect();
    assert!(
        (2..=5).contains(&told.len()),
        "told {} times in 30 min:\n{log}",
        told.len()
    );
    assert!(
        told.iter().all(|l| l.contains("database or disk is full")),
        "{log}"
    );
    eprintln!(
        "30 minutes failing: {attempts} attempts, told {} times",
        told.len()
    );
    assert!(
        !log.contains("went wrong"),
        "the cause, not the players' sentence: {log}"
    );
    assert_eq!(b.step_of(id).await, 0);

    raw.execute("DROP TRIGGER disk_full", vec![]).await;
    raw.close().await;
    b.referee.deadline_pass(&mut backoff, 60_000).await;
    assert!(!backoff.failing());
    assert_eq!(b.step_of(id).await, 1, "resolved once the disk had room");
    let w = worker(&b).await;
    assert_eq!((w.state.as_str(), w.trouble), ("running", None));
    assert!(lines.text().contains("succeeds again"));
}

/// A deadline whose `due_at` holds text (SQLite keeps what it is given) used to stall its
/// race silently: text never compares as due. Now it is claimed, fails to decode, and
/// quarantines its race; the other race resolves.
#[tokio::test]
async fn text_in_a_deadlines_due_at_quarantines_its_race() {
    let b = Bench::new(Kind::Sqlite).await;
    let bad = b.three_runners("chan-1", "turn=1h").await;
    let good = b.three_runners("chan-2", "turn=1h").await;
    let raw = b.db.raw().await;
    raw.execute(
        &format!(
            "UPDATE deadlines SET due_at = 'soon' WHERE campaign_id = {} AND fired_at IS NULL",
            bad.0
        ),
        vec![],
    )
    .await;
    raw.close().await;
    b.clock.advance_secs(3_601);
    let mut backoff = Backoff::new("deadlines", "bot-1");
    let wait = b.referee.deadline_pass(&mut backoff, 60_000).await;
    assert!(!backoff.failing());
    assert!(wait > 0, "nothing left due");
    let quarantined = b.store.quarantined().await.unwrap();
    let q = quarantined.iter().find(|q| q.campaign == bad);
    assert!(
        q.is_some_and(|q| q.reason.contains("deadlines") && q.reason.contains("due_at")),
        "{quarantined:?}"
    );
    assert_eq!(quarantined.len(), 1, "{quarantined:?}");
    assert_eq!(b.step_of(good).await, 1);
}

/// Overwrites the header of the page at the root of `table`, as a failing disk would.
async fn damage(url: &str, table: &str) {
    use sqlx::{Connection, Row};
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite:{url}"))
        .await
        .unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut c)
        .await
        .unwrap();
    let root: i64 = sqlx::query("SELECT rootpage FROM sqlite_master WHERE name = ?")
        .bind(table)
        .fetch_one(&mut c)
        .await
        .unwrap()
        .get(0);
    let size: i64 = sqlx::query("PRAGMA page_size")
        .fetch_one(&mut c)
        .await
        .unwrap()
        .get(0);
    c.close().await.unwrap();
    let mut bytes = std::fs::read(url).unwrap();
    let at = usize::try_from((root - 1) * size).unwrap();
    for b in &mut bytes[at..at + 12] {
        *b = 0xee;
    }
    std::fs::write(url, bytes).unwrap();
}

/// A damaged page of `orders`, which holds both races' orders, used to keep both retrying
/// for ever (the read failed as a passing database error). Now a damaged database, by
/// its own error code, is like a row that does not decode: both races are quarantined,
/// with the cause, and nothing is retried.
#[tokio::test]
async fn a_damaged_orders_page_quarantines_its_races() {
    let b = Bench::new(Kind::Sqlite).await;
    let one = b.three_runners("chan-1", "turn=1h").await;
    let two = b.three_runners("chan-2", "turn=1h").await;
    for id in [one, two] {
        b.referee.submit(id, &alice().user, "5").await.unwrap();
        b.referee.submit(id, &bob().user, "4").await.unwrap();
    }
    let Bench {
        db,
        clock,
        store,
        referee,
    } = b;
    let config = referee.config().clone();
    drop(referee);
    store.close().await;
    damage(&db.url, "orders").await;
    let store = db.open().await;
    let referee = Referee::new(store.clone(), clock.clone(), config);
    clock.advance_secs(3_601);
    let mut backoff = Backoff::new("deadlines", "bot-1");
    referee.deadline_pass(&mut backoff, 60_000).await;
    let quarantined = store.quarantined().await.unwrap();
    let ids: Vec<CampaignId> = quarantined.iter().map(|q| q.campaign).collect();
    assert_eq!(ids, vec![one, two], "{quarantined:?}");
    assert!(
        quarantined.iter().all(|q| q.reason.contains("damaged")),
        "{quarantined:?}"
    );
    // Nothing of theirs is claimed again.
    clock.advance_secs(3_600);
    assert_eq!(referee.tick().await.unwrap(), 0);
}
