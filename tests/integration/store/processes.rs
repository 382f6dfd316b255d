//! The store's claims and leases across processes sharing one database: deadlines and
//! the outbox claimed by one process at a time, interaction ids claimed once, and each
//! process's heartbeat.

use super::*;

async fn a_claimed_deadline_is_one_process_s_until_its_claim_expires(kind: Kind) {
    let db = Db::new(kind).await;
    let (a, b) = (db.open().await, db.open().await);
    let id = running(&a, "c").await;
    let now = T0 + 3_600_000;
    let mine = a
        .claim_due_deadlines(now, 10, "A", now + 60_000)
        .await
        .unwrap();
    assert_eq!(mine.len(), 2);
    assert!(mine.iter().all(|d| d.campaign == id));
    assert!(
        b.claim_due_deadlines(now, 10, "B", now + 60_000)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        a.claim_due_deadlines(now, 10, "A", now + 60_000)
            .await
            .unwrap()
            .is_empty()
    );
    // Claimed or not, they are still due; the next one can be handled when the claim ends.
    assert_eq!(b.due_deadlines(now, 10).await.unwrap().len(), 2);
    assert_eq!(b.next_due().await.unwrap(), Some(now + 60_000));
    // A gives one back (it failed): B may take it at once.
    a.release_deadline(mine[0].id, "B").await.unwrap(); // not B's: no effect
    assert!(
        b.claim_due_deadlines(now, 10, "B", now + 60_000)
            .await
            .unwrap()
            .is_empty()
    );
    a.release_deadline(mine[0].id, "A").await.unwrap();
    let taken = b
        .claim_due_deadlines(now, 10, "B", now + 120_000)
        .await
        .unwrap();
    assert_eq!(
        taken.iter().map(|d| d.id).collect::<Vec<_>>(),
        vec![mine[0].id]
    );
    // A dies holding the other: once its claim expires, B takes it over.
    let later = now + 60_000;
    let rest = b
        .claim_due_deadlines(later, 10, "B", later + 60_000)
        .await
        .unwrap();
    assert_eq!(
        rest.iter().map(|d| d.id).collect::<Vec<_>>(),
        vec![mine[1].id]
    );
    // Fired deadlines are never claimed again.
    let l = load(&b, id).await;
    let mut commit = changed(&l, later);
    commit.fired = vec![mine[0].id, mine[1].id];
    b.commit(id, l.campaign.version, commit).await.unwrap();
    let much_later = later + 3_600_000;
    assert!(
        b.claim_due_deadlines(much_later, 10, "C", much_later)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(b.next_due().await.unwrap(), None);
    a.close().await;
    b.close().await;
}

async fn processes_claiming_together_split_the_deadlines(kind: Kind) {
    let db = Db::new(kind).await;
    let setup = db.open().await;
    let mut all = Vec::new();
    for i in 0..12 {
        let id = running(&setup, &format!("c{i}")).await;
        all.push(id);
    }
    let stores: Vec<_> = futures_join(&db, 4).await;
    let now = T0 + 3_600_000;
    let claims = stores.iter().enumerate().map(|(i, s)| {
        let s = s.clone();
        tokio::spawn(async move {
            let mut got = Vec::new();
            loop {
                let batch = s
                    .claim_due_deadlines(now, 3, &format!("P{i}"), now + 60_000)
                    .await
                    .unwrap();
                if batch.is_empty() {
                    return got;
                }
                got.extend(batch.into_iter().map(|d| d.id));
            }
        })
    });
    let mut claimed = Vec::new();
    for c in claims.collect::<Vec<_>>() {
        claimed.extend(c.await.unwrap());
    }
    claimed.sort_unstable();
    let mut expected: Vec<i64> = setup
        .due_deadlines(now, 100)
        .await
        .unwrap()
        .iter()
        .map(|d| d.id)
        .collect();
    expected.sort_unstable();
    assert_eq!(expected.len(), 24);
    assert_eq!(claimed, expected, "every deadline claimed exactly once");
    for s in stores {
        s.close().await;
    }
    setup.close().await;
}

async fn futures_join(db: &Db, n: usize) -> Vec<Arc<dyn Store>> {
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(db.open().await);
    }
    v
}

async fn the_outbox_is_delivered_by_one_process_per_campaign(kind: Kind) {
    let db = Db::new(kind).await;
    let (a, b) = (db.open().await, db.open().await);
    let one = running(&a, "one").await;
    let two = running(&a, "two").await;
    let now = T0;
    // Two undelivered rows each (the first status row was coalesced away).
    assert_eq!(a.outbox_ready(now, 10).await.unwrap().len(), 4);
    assert_eq!(a.outbox_ready(now, 1).await.unwrap().len(), 1);
    // A takes both campaigns; B gets nothing while A's leases run.
    let rows = a.claim_outbox(now, 100, "A", now + 60_000).await.unwrap();
    assert_eq!(rows.len(), 4);
    assert!(rows.windows(2).all(|w| w[0].id < w[1].id), "oldest first");
    assert!(
        b.claim_outbox(now, 100, "B", now + 60_000)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        b.outbox_ready(now, 10).await.unwrap().is_empty(),
        "leased rows are not ready"
    );
    // A renews; B cannot.
    assert!(a.renew_outbox_lease(one, "A", now + 90_000).await.unwrap());
    assert!(!b.renew_outbox_lease(one, "B", now + 90_000).await.unwrap());
    // A delivers campaign one's rows and lets both go.
    let ones: Vec<_> = rows.iter().filter(|r| r.campaign == one).collect();
    a.outbox_delivered(ones[0].id, Some("ext-1".into()), now + 1)
        .await
        .unwrap();
    a.outbox_retry(ones[1].id, now + 5_000, "rate limited")
        .await
        .unwrap();
    a.release_outbox_leases("A", &[one, two]).await.unwrap();
    let after = a.outbox_of(one).await.unwrap();
    let delivered = after.iter().find(|r| r.id == ones[0].id).unwrap();
    assert_eq!(
        (
            delivered.delivered_at,
            delivered.external_id.as_deref(),
            delivered.attempts
        ),
        (Some(now + 1), Some("ext-1"), 1)
    );
    // B now gets campaign two's rows; one's retry waits for its time.
    let rows = b
        .claim_outbox(now + 1, 100, "B", now + 60_000)
        .await
        .unwrap();
    assert!(rows.iter().all(|r| r.campaign == two) && rows.len() == 2);
    let rows = b
        .claim_outbox(now + 5_000, 100, "B", now + 60_000)
        .await
        .unwrap();
    let retried = rows.iter().find(|r| r.id == ones[1].id).unwrap();
    assert_eq!(retried.attempts, 1);
    b.outbox_failed(retried.id, "gone for good").await.unwrap();
    // B dies holding campaign two: once the lease expires, A finishes it.
    assert!(
        a.claim_outbox(now + 5_000, 100, "A", now + 65_000)
            .await
            .unwrap()
            .is_empty()
    );
    let rows = a
        .claim_outbox(now + 60_000, 100, "A", now + 120_000)
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.campaign == two));
    let failed = a.outbox_of(one).await.unwrap();
    let failed = failed.iter().find(|r| r.id == ones[1].id).unwrap();
    assert_eq!(
        (failed.failed.as_deref(), failed.attempts),
        (Some("gone for good"), 2)
    );
    a.close().await;
    b.close().await;
}

async fn processes_claiming_the_outbox_together_never_share_a_campaign(kind: Kind) {
    let db = Db::new(kind).await;
    let setup = db.open().await;
    for i in 0..10 {
        running(&setup, &format!("c{i}")).await;
    }
    let stores = futures_join(&db, 4).await;
    let tasks: Vec<_> = stores
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let s = s.clone();
            tokio::spawn(async move {
                s.claim_outbox(T0, 100, &format!("P{i}"), T0 + 60_000)
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut seen = std::collections::HashMap::new();
    let mut rows = 0;
    for (i, t) in tasks.into_iter().enumerate() {
        for r in t.await.unwrap() {
            rows += 1;
            let holder = seen.entry(r.campaign).or_insert(i);
            assert_eq!(
                *holder, i,
                "campaign {} was given to two processes",
                r.campaign
            );
        }
    }
    assert_eq!((seen.len(), rows), (10, 20));
    for s in stores {
        s.close().await;
    }
    setup.close().await;
}

async fn heartbeats_are_kept_per_process(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    assert!(s.heartbeats().await.unwrap().is_empty());
    let mut beat = Heartbeat {
        instance: "bot-a".into(),
        gateway: "connecting".into(),
        shards: "0-0 of 1".into(),
        detail: String::new(),
        started_at: T0,
        beat_at: T0,
    };
    s.heartbeat(&beat).await.unwrap();
    beat.gateway = "connected".into();
    beat.beat_at = T0 + 30_000;
    s.heartbeat(&beat).await.unwrap();
    let other = Heartbeat {
        instance: "bot-b".into(),
        ..beat.clone()
    };
    s.heartbeat(&other).await.unwrap();
    assert_eq!(s.heartbeats().await.unwrap(), vec![beat, other]);
    s.close().await;
}

async fn a_claim_returns_only_the_campaigns_it_won(kind: Kind) {
    let db = Db::new(kind).await;
    let (a, b) = (db.open().await, db.open().await);
    let one = running(&a, "one").await;
    let now = T0;
    let mine = a.claim_outbox(now, 100, "A", now + 60_000).await.unwrap();
    assert!(mine.len() == 2 && mine.iter().all(|r| r.campaign == one));
    // Campaign two queues its announcements while A still holds one's lease: B wins two,
    // and only two's rows come back to it.
    let two = running(&a, "two").await;
    let theirs = b.claim_outbox(now, 100, "B", now + 60_000).await.unwrap();
    assert_eq!(theirs.len(), 2);
    assert!(theirs.iter().all(|r| r.campaign == two), "{theirs:?}");
    a.close().await;
    b.close().await;
}

async fn a_locked_deadline_is_skipped_not_waited_for(kind: Kind) {
    // PostgreSQL's `SKIP LOCKED`: SQLite has one writer at a time by design.
    if kind == Kind::Sqlite {
        return;
    }
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let other = PostgresStore::connect(&db.url).await.unwrap();
    let mut busy = other.pool().begin().await.unwrap();
    // Another process is in the middle of something with the reminder's row.
    sqlx::query("SELECT id FROM deadlines WHERE campaign_id = $1 AND kind = 'reminder' FOR UPDATE")
        .bind(id.0)
        .fetch_one(&mut *busy)
        .await
        .unwrap();
    let now = T0 + 3_600_000;
    // The claim must come back while that transaction is still open. Were it to wait for
    // the row, it would wait for ever (the transaction ends only after it): the bound
    // only turns that hang into a failure, it times nothing.
    let claimed = tokio::time::timeout(
        std::time::Duration::from_secs(120),
        s.claim_due_deadlines(now, 10, "B", now + 60_000),
    )
    .await
    .expect("the claim waited for a row another transaction holds")
    .unwrap();
    let kinds =
        |d: &[photofinish::store::DeadlineRow]| d.iter().map(|d| d.kind).collect::<Vec<_>>();
    assert_eq!(kinds(&claimed), vec![DeadlineKind::Deadline]);
    busy.rollback().await.unwrap();
    let rest = s
        .claim_due_deadlines(now, 10, "C", now + 60_000)
        .await
        .unwrap();
    assert_eq!(kinds(&rest), vec![DeadlineKind::Reminder]);
    other.close().await;
    s.close().await;
}

/// Interaction ids are claimed once across processes (a rolling deploy's two processes
/// on one shard), and forgotten after their expiry.
async fn an_interaction_is_claimed_once_across_processes(kind: Kind) {
    let db = Db::new(kind).await;
    let (a, b) = (db.open().await, db.open().await);
    let until = T0 + 15 * 60_000;
    assert!(a.claim_interaction("1234", until, T0).await.unwrap());
    assert!(!a.claim_interaction("1234", until, T0 + 1).await.unwrap());
    assert!(!b.claim_interaction("1234", until, T0 + 2).await.unwrap());
    assert!(b.claim_interaction("5678", until, T0 + 3).await.unwrap());
    // Expired: forgotten, so the table stays small.
    assert!(
        b.claim_interaction("1234", until + 60_000, until)
            .await
            .unwrap()
    );
    a.close().await;
    b.close().await;
}

on_both!(
    a_claimed_deadline_is_one_process_s_until_its_claim_expires,
    processes_claiming_together_split_the_deadlines,
    the_outbox_is_delivered_by_one_process_per_campaign,
    processes_claiming_the_outbox_together_never_share_a_campaign,
    heartbeats_are_kept_per_process,
    a_claim_returns_only_the_campaigns_it_won,
    a_locked_deadline_is_skipped_not_waited_for,
    an_interaction_is_claimed_once_across_processes,
    a_stopping_process_gives_back_its_leases_and_claims,
);

/// A stopping process gives back everything it holds: its outbox leases and its claims
/// on unfired deadlines (a deferred one keeps its retry time, held by nobody); another
/// process's are left alone.
async fn a_stopping_process_gives_back_its_leases_and_claims(kind: Kind) {
    let db = Db::new(kind).await;
    let (a, b) = (db.open().await, db.open().await);
    let one = running(&a, "one").await;
    let two = running(&a, "two").await;
    let now = T0 + 3_600_000;
    let claimed = a
        .claim_due_deadlines(now, 1, "A", now + 120_000)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1);
    // One of A's deadlines failed and waits a minute before its retry.
    let deferred = a
        .claim_due_deadlines(now, 1, "A", now + 120_000)
        .await
        .unwrap();
    a.defer_deadline(deferred[0].id, "A", now + 60_000)
        .await
        .unwrap();
    let bs = b
        .claim_due_deadlines(now, 1, "B", now + 120_000)
        .await
        .unwrap();
    assert_eq!(bs.len(), 1);
    let rows = a.claim_outbox(now, 100, "A", now + 60_000).await.unwrap();
    assert!(rows.iter().any(|r| r.campaign == one) && rows.iter().any(|r| r.campaign == two));
    assert!(b.outbox_ready(now, 10).await.unwrap().is_empty());

    assert_eq!(a.release_claims("A").await.unwrap(), (2, 2));
    // B may deliver both campaigns at once, and take A's plain claim...
    assert_eq!(b.outbox_ready(now, 10).await.unwrap().len(), rows.len());
    let taken: Vec<i64> = b
        .claim_due_deadlines(now, 10, "B", now + 120_000)
        .await
        .unwrap()
        .iter()
        .map(|d| d.id)
        .collect();
    assert!(taken.contains(&claimed[0].id), "{taken:?}");
    assert!(!taken.contains(&deferred[0].id), "{taken:?}");
    // ...and the deferred one at its retry time, not before.
    let retried = b
        .claim_due_deadlines(now + 60_000, 10, "B", now + 180_000)
        .await
        .unwrap();
    assert_eq!(
        retried.iter().map(|d| d.id).collect::<Vec<_>>(),
        vec![deferred[0].id]
    );
    // Nothing of A's is left; B's own claims are untouched by A's stop.
    assert_eq!(a.release_claims("A").await.unwrap(), (0, 0));
    assert_eq!(b.release_claims("B").await.unwrap(), (0, 4));
    a.close().await;
    b.close().await;
}
