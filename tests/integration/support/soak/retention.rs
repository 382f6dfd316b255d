//! Retention, measured: races played through the referee with many changed orders, the
//! database's size before and after compaction, and proof that a compacted race still
//! verifies and shows its history (docs/reliability.md, "Retention").

use photofinish::games::GameKind;
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use photofinish::referee::{Actor, NewRace, Referee};
use photofinish::store::StepLog;
use photofinish::vocab::{CampaignId, Phase};

use crate::support::backend::{Arg, Bench, Kind};

/// A courier that takes everything.
pub struct Sink;

#[async_trait::async_trait]
impl Courier for Sink {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        Ok(Delivered {
            external_id: Some(format!("m{}", parcel.outbox_id)),
        })
    }
}

pub async fn deliver_all(r: &Referee) {
    for _ in 0..100 {
        if r.deliver(&Sink).await.unwrap() == 0 {
            break;
        }
    }
}

fn seat_user(race: usize, i: usize) -> Actor {
    Actor::new(format!("{}", 1000 + race * 10 + i), format!("P{race}-{i}"))
}

/// Plays one Dream Mile race of three people to its end, each changing their order
/// `clicks` times a turn (the turn resolves at its deadline, so every change lands).
/// Returns its id and how many orders were submitted.
pub async fn play_race(b: &Bench, race: usize, clicks: usize) -> (CampaignId, usize) {
    let r = &b.referee;
    let host = seat_user(race, 0);
    let id = r
        .create(NewRace {
            kind: GameKind::DreamMile,
            options: "turn=1h reminders=none resolve=deadline".into(),
            channel: format!("retention-{race}"),
            guild: None,
            host: host.clone(),
        })
        .await
        .unwrap();
    for i in 0..3 {
        r.join(id, &seat_user(race, i), None, None).await.unwrap();
    }
    r.start(id, &host).await.unwrap();
    deliver_all(r).await;
    let mut submitted = 0;
    for _ in 0..500 {
        if r.overview(id).await.unwrap().phase != Phase::Running {
            break;
        }
        for i in 0..3 {
            let who = seat_user(race, i);
            let Ok(open) = r.open_prompt(id, &who.user).await else {
                continue;
            };
            let choices = &open.prompt.choices;
            for c in 0..clicks {
                // Each click a different order (when there is one), so each supersedes.
                let Some(choice) = choices.get(c % choices.len().max(1)) else {
                    break;
                };
                if r.submit(id, &who.user, &choice.order).await.is_ok() {
                    submitted += 1;
                }
                // Past the pace limit of 30 a minute.
                b.clock.advance_secs(3);
            }
        }
        b.clock.advance_secs(3601);
        r.tick().await.unwrap();
        deliver_all(r).await;
    }
    assert_eq!(r.overview(id).await.unwrap().phase, Phase::Finished);
    (id, submitted)
}

/// Live bytes of the database: SQLite's pages less its free list (freed pages are reused,
/// so this is what the file grows by); PostgreSQL's relation sizes.
pub async fn live_bytes(b: &Bench) -> i64 {
    let raw = b.db.raw().await;
    let sql = match b.db.kind {
        Kind::Sqlite => {
            "SELECT (p.page_count - f.freelist_count) * s.page_size
             FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s"
        }
        Kind::Postgres => "SELECT pg_database_size(current_database())::BIGINT",
    };
    let n = raw.scalar(sql, vec![]).await;
    raw.close().await;
    n
}

/// Rows of the tables that grow with clicks.
pub async fn rows(b: &Bench) -> [i64; 4] {
    let raw = b.db.raw().await;
    let mut out = [0; 4];
    for (slot, table) in out
        .iter_mut()
        .zip(["orders", "outbox", "deadlines", "events"])
    {
        *slot = raw
            .scalar(&format!("SELECT COUNT(*) FROM {table}"), vec![])
            .await;
    }
    raw.close().await;
    out
}

/// What verify and history read of a race, to compare before and after compaction.
pub async fn kept(b: &Bench, id: CampaignId) -> (Vec<StepLog>, usize) {
    let log = b.store.log(id).await.unwrap();
    let prefs = b.store.preferences(id).await.unwrap().len();
    (log, prefs)
}

/// Figures of one run: races, orders submitted, bytes and rows before and after.
#[derive(Debug)]
pub struct Figures {
    pub races: usize,
    pub clicks: usize,
    pub submitted: usize,
    pub bytes_before: i64,
    pub bytes_after: i64,
    pub rows_before: [i64; 4],
    pub rows_after: [i64; 4],
}

/// Plays `races` races with `clicks` changes a turn, then compacts 31 days later,
/// checking that verify and history of every race still work and read the same.
pub async fn measure(kind: Kind, races: usize, clicks: usize) -> Figures {
    let b = Bench::new(kind).await;
    let mut ids = Vec::new();
    let mut submitted = 0;
    for race in 0..races {
        let (id, n) = play_race(&b, race, clicks).await;
        ids.push(id);
        submitted += n;
    }
    let bytes_before = live_bytes(&b).await;
    let rows_before = rows(&b).await;
    let mut before = Vec::new();
    for &id in &ids {
        before.push(kept(&b, id).await);
    }
    // Within the retention age nothing of a race goes: the last one ended just now.
    let last = *ids.last().unwrap();
    let of_last = || async {
        let raw = b.db.raw().await;
        let mut n = 0;
        for table in ["orders", "outbox", "deadlines"] {
            let sql = format!("SELECT COUNT(*) FROM {table} WHERE campaign_id = ?");
            n += raw.scalar(&sql, vec![Arg::I(last.0)]).await;
        }
        raw.close().await;
        n
    };
    let rows_of_last = of_last().await;
    b.clock.advance_secs(29 * 86_400);
    b.referee.compact_now().await.unwrap();
    assert_eq!(of_last().await, rows_of_last, "compacted before its time");
    b.clock.advance_secs(2 * 86_400);
    let done = b.referee.compact_now().await.unwrap();
    if clicks > 1 {
        assert!(done.orders > 0, "{done:?}");
    }
    assert!(done.outbox > 0 && done.deadlines > 0, "{done:?}");
    if kind == Kind::Sqlite {
        let raw = b.db.raw().await;
        raw.execute("VACUUM", vec![]).await;
        raw.close().await;
    }
    let bytes_after = live_bytes(&b).await;
    let rows_after = rows(&b).await;
    for (&id, before) in ids.iter().zip(&before) {
        assert_eq!(
            &kept(&b, id).await,
            before,
            "race {id} lost what verify reads"
        );
        let report = b.referee.verify(id).await.unwrap();
        assert!(report.ok(), "race {id} no longer verifies: {report:?}");
        b.referee.history(id, 1).await.unwrap();
        // Nothing superseded, delivered or fired is left of it (but the outbox's newest
        // row, whose id must not be given again).
        let raw = b.db.raw().await;
        for sql in [
            "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND superseded = TRUE",
            "SELECT COUNT(*) FROM outbox WHERE campaign_id = ? AND delivered_at IS NOT NULL
             AND id < (SELECT MAX(id) FROM outbox)",
            "SELECT COUNT(*) FROM deadlines WHERE campaign_id = ? AND fired_at IS NOT NULL",
        ] {
            assert_eq!(raw.scalar(sql, vec![Arg::I(id.0)]).await, 0, "{sql}");
        }
        raw.close().await;
    }
    Figures {
        races,
        clicks,
        submitted,
        bytes_before,
        bytes_after,
        rows_before,
        rows_after,
    }
}
