//! The store's own suite, on each backend (SQLite, and PostgreSQL when
//! `PHOTOFINISH_TEST_POSTGRES` is set; see `support/backend.rs`): every `Store` method, the
//! version check, deadlines fired once, and the claims and leases that let several
//! processes share one database (those in `processes`).

mod processes;

use crate::support::backend;

use std::sync::Arc;

use backend::{Arg, Db, Kind};
use photofinish::engine::{Pending, Seat};
use photofinish::games::dream_mile::Event;
use photofinish::games::{AnyEvent, AnyOrder, GameKind};
use photofinish::store::{
    self, Backend, Commit, DeadlineKind, Heartbeat, Loaded, NewCampaign, NewDeadline, NewOutbox,
    OrderRow, OrderSource, PostgresStore, PreferenceRow, SeatRow, Store, StoreError, TurnRow,
};
use photofinish::vocab::{CampaignId, Phase, Timing, UserId};
use serde_json::{Value, json};

const T0: i64 = 1_767_225_600_000;

fn new_campaign(channel: &str) -> NewCampaign {
    NewCampaign {
        kind: GameKind::DreamMile,
        options: GameKind::DreamMile.default_options(),
        host: UserId::new("host"),
        channel: channel.into(),
        guild: Some("guild".into()),
        timing: Timing {
            turn_secs: 3600,
            reminders: vec![600],
            resolve_early: true,
            calendar: Default::default(),
        },
        seed: "ab".repeat(32),
        commitment: "cd".repeat(32),
        now: T0,
    }
}

fn seat(n: u8, user: Option<&str>) -> SeatRow {
    SeatRow {
        seat: Seat(n),
        user: user.map(UserId::new),
        name: format!("Runner {n}"),
        bot: None,
        choice: None,
        dm_ok: true,
        view_hash: None,
        offer: None,
        autopilot: Default::default(),
        away: None,
    }
}

fn order(step: u32, seat: u8, speed: u8) -> OrderRow {
    OrderRow {
        step,
        seat: Seat(seat),
        text: speed.to_string(),
        parsed: serde_json::from_value::<AnyOrder>(json!({"engine": "dream-mile", "order": speed}))
            .unwrap(),
        source: OrderSource::Player,
        nonce: format!("nonce-{step}-{seat}-{speed}"),
        receipt: format!("r{step}{seat}{speed}"),
        by_user: Some(UserId::new(format!("u{seat}"))),
        submitted_at: T0 + i64::from(speed),
    }
}

fn outbox(key: Option<&str>, n: i64) -> NewOutbox {
    NewOutbox {
        target: json!({"kind": "channel"}).into(),
        payload: json!({"n": n}).into(),
        coalesce_key: key.map(str::to_string),
        not_before: T0,
    }
}

fn turn(step: u32, resolved: bool) -> TurnRow {
    TurnRow {
        step,
        label: format!("Turn {}", step + 1),
        pending: Pending::none(),
        opened_at: T0,
        deadline_at: Some(T0 + 3_600_000),
        resolved_at: resolved.then_some(T0 + 10),
        late: false,
    }
}

/// A commit of a changed campaign row, as the referee makes one.
fn changed(loaded: &Loaded, now: i64) -> Commit {
    let mut c = loaded.campaign.clone();
    c.updated_at = now;
    Commit {
        campaign: Some(c),
        ..Commit::default()
    }
}

async fn load(s: &Arc<dyn Store>, id: CampaignId) -> Loaded {
    s.load(id).await.unwrap().expect("the campaign exists")
}

/// A running campaign with two seated users and one deadline, one reminder and three
/// announcements (one of them coalesced away).
async fn running(s: &Arc<dyn Store>, channel: &str) -> CampaignId {
    let id = s.create(new_campaign(channel)).await.unwrap();
    let l = load(s, id).await;
    let mut commit = changed(&l, T0);
    if let Some(c) = commit.campaign.as_mut() {
        c.phase = Phase::Running;
        c.step_open = true;
        c.deadline_at = Some(T0 + 3_600_000);
    }
    commit.seats = Some(vec![seat(0, Some("u0")), seat(1, Some("u1"))]);
    commit.turns = vec![turn(0, false)];
    commit.deadlines = Some(vec![
        NewDeadline {
            step: 0,
            kind: DeadlineKind::Reminder,
            due_at: T0 + 3_000_000,
        },
        NewDeadline {
            step: 0,
            kind: DeadlineKind::Deadline,
            due_at: T0 + 3_600_000,
        },
    ]);
    commit.outbox = vec![
        outbox(Some("status"), 1),
        outbox(None, 2),
        outbox(Some("status"), 3),
    ];
    s.commit(id, l.campaign.version, commit).await.unwrap();
    id
}

async fn a_new_campaign_reads_back_as_created(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    assert_eq!(
        s.backend(),
        match kind {
            Kind::Sqlite => Backend::Sqlite,
            Kind::Postgres => Backend::Postgres,
        }
    );
    let id = s.create(new_campaign("c1")).await.unwrap();
    let l = load(&s, id).await;
    let c = &l.campaign;
    assert_eq!(
        (c.id, c.kind, c.phase),
        (id, GameKind::DreamMile, Phase::Lobby)
    );
    assert_eq!(c.options, GameKind::DreamMile.default_options());
    assert_eq!(c.host, UserId::new("host"));
    assert_eq!(
        (c.channel.as_str(), c.guild.as_deref()),
        ("c1", Some("guild"))
    );
    assert_eq!(c.timing, new_campaign("c1").timing);
    assert_eq!((c.seed.len(), c.commitment.len()), (64, 64));
    assert_eq!(
        (c.state.is_none(), c.step, c.step_open, c.version),
        (true, 0, false, 0)
    );
    assert_eq!((c.created_at, c.updated_at, c.ended_at), (T0, T0, None));
    assert!(l.seats.is_empty() && l.orders.is_empty());
    // One race in play per channel; other channels are free.
    assert!(matches!(
        s.create(new_campaign("c1")).await,
        Err(StoreError::ChannelBusy)
    ));
    let other = s.create(new_campaign("c2")).await.unwrap();
    assert_ne!(other, id);
    assert_eq!(s.active_in_channel("c1").await.unwrap(), Some(id));
    assert_eq!(s.active_in_channel("nowhere").await.unwrap(), None);
    assert_eq!(s.latest_in_channel("c1").await.unwrap(), Some(id));
    assert_eq!(s.latest_in_channel("nowhere").await.unwrap(), None);
    assert_eq!(s.open_campaigns().await.unwrap(), vec![id, other]);
    assert!(s.load(CampaignId(9_999)).await.unwrap().is_none());
    // Once over, the channel is free again and the old race is still its latest until then.
    let mut commit = changed(&l, T0 + 1);
    if let Some(c) = commit.campaign.as_mut() {
        c.phase = Phase::Cancelled;
        c.ended_at = Some(T0 + 1);
    }
    s.commit(id, 0, commit).await.unwrap();
    assert_eq!(s.active_in_channel("c1").await.unwrap(), None);
    assert_eq!(s.latest_in_channel("c1").await.unwrap(), Some(id));
    let again = s.create(new_campaign("c1")).await.unwrap();
    assert_eq!(s.latest_in_channel("c1").await.unwrap(), Some(again));
    assert_eq!(s.open_campaigns().await.unwrap(), vec![other, again]);
    s.close().await;
}

/// A referee decides from a cached race and the time settings it read with it until the
/// race's version moves, so a new time setting moves the versions of the open races it
/// counts in (and of no other).
async fn a_time_setting_moves_the_versions_of_the_open_races_it_counts_in(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let other = s.create(new_campaign("d")).await.unwrap();
    let version = |s: Arc<dyn Store>, id| async move { s.version(id).await.unwrap() };
    assert_eq!(version(s.clone(), id).await, Some(1));
    let zone = |user: &str| photofinish::vocab::UserTime {
        user: UserId::new(user),
        zone: Some("Europe/Paris".into()),
        quiet: None,
    };
    s.set_user_time(&zone("u1"), T0).await.unwrap();
    assert_eq!(
        version(s.clone(), id).await,
        Some(2),
        "a seated player's zone"
    );
    s.set_user_time(&zone("u9"), T0).await.unwrap();
    assert_eq!(version(s.clone(), id).await, Some(2), "a stranger's zone");
    s.set_guild_zone("elsewhere", "Asia/Tokyo", T0)
        .await
        .unwrap();
    assert_eq!(
        version(s.clone(), id).await,
        Some(2),
        "another server's zone"
    );
    let lobby = version(s.clone(), other).await;
    s.set_guild_zone("guild", "Asia/Tokyo", T0).await.unwrap();
    assert_eq!(
        version(s.clone(), id).await,
        Some(3),
        "the race's server zone"
    );
    assert_ne!(
        version(s.clone(), other).await,
        lobby,
        "an open lobby counts too"
    );
    // Finished races are never decided again: left alone.
    let l = load(&s, id).await;
    let mut commit = changed(&l, T0 + 1);
    if let Some(c) = commit.campaign.as_mut() {
        c.phase = Phase::Finished;
    }
    s.commit(id, 3, commit).await.unwrap();
    s.set_user_time(&zone("u1"), T0 + 2).await.unwrap();
    assert_eq!(version(s.clone(), id).await, Some(4));
    s.close().await;
}

async fn a_commit_lands_whole_and_a_stale_one_not_at_all(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let l = load(&s, id).await;
    assert_eq!(l.campaign.version, 1);
    assert_eq!(l.campaign.phase, Phase::Running);
    assert_eq!(l.seats, vec![seat(0, Some("u0")), seat(1, Some("u1"))]);
    assert_eq!(
        s.campaigns_of_user(&UserId::new("u1")).await.unwrap(),
        vec![id]
    );
    assert!(
        s.campaigns_of_user(&UserId::new("u9"))
            .await
            .unwrap()
            .is_empty()
    );
    // The first of two coalesced status rows was superseded.
    let rows = s.outbox_of(id).await.unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].failed.as_deref(), Some("superseded"));
    assert_eq!(
        (rows[1].failed.as_deref(), rows[2].failed.as_deref()),
        (None, None)
    );
    assert_eq!(rows[2].payload, json!({"n": 3}));
    assert_eq!(rows[2].coalesce_key.as_deref(), Some("status"));
    assert_eq!(rows[2].created_at, T0);

    // Orders, a change of mind, an event, a preference, a resolved turn.
    let mut commit = changed(&l, T0 + 5);
    commit.orders = vec![order(0, 0, 5), order(0, 1, 4)];
    commit.preferences = vec![PreferenceRow {
        step: 0,
        seat: Seat(1),
        text: "auto".into(),
        set_at: T0 + 5,
    }];
    s.commit(id, 1, commit).await.unwrap();
    let l = load(&s, id).await;
    assert_eq!(l.orders, vec![order(0, 0, 5), order(0, 1, 4)]);
    let mut commit = changed(&l, T0 + 6);
    commit.orders = vec![order(0, 0, 7)];
    commit.replaces = vec![(0, Seat(0))];
    s.commit(id, 2, commit).await.unwrap();
    let l = load(&s, id).await;
    assert_eq!(
        l.orders,
        vec![order(0, 1, 4), order(0, 0, 7)],
        "the change supersedes"
    );

    // A decision on a stale load changes nothing at all.
    let before = (s.outbox_of(id).await.unwrap().len(), load(&s, id).await);
    let mut stale = changed(&l, T0 + 7);
    stale.orders = vec![order(0, 1, 1)];
    stale.outbox = vec![outbox(None, 99)];
    stale.events = vec![(
        0,
        vec![AnyEvent::DreamMile(Event::Finished {
            winners: vec![Seat(0)],
        })],
    )];
    assert!(matches!(
        s.commit(id, 1, stale).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(
        (s.outbox_of(id).await.unwrap().len(), load(&s, id).await),
        before
    );

    // Resolving: events and the resolved turn show in the log with the final orders.
    let mut commit = changed(&l, T0 + 8);
    if let Some(c) = commit.campaign.as_mut() {
        c.step = 1;
    }
    let events = vec![AnyEvent::DreamMile(Event::Finished {
        winners: vec![Seat(0)],
    })];
    commit.turns = vec![turn(0, true), turn(1, false)];
    commit.events = vec![(0, events.clone())];
    s.commit(id, 3, commit).await.unwrap();
    let log = s.log(id).await.unwrap();
    assert_eq!(log.len(), 1, "only resolved steps are in the log");
    assert_eq!(log[0].turn, turn(0, true));
    assert_eq!(log[0].orders, vec![order(0, 1, 4), order(0, 0, 7)]);
    assert_eq!(log[0].events, events);
    assert_eq!(
        s.preferences(id).await.unwrap(),
        vec![PreferenceRow {
            step: 0,
            seat: Seat(1),
            text: "auto".into(),
            set_at: T0 + 5,
        }]
    );
    // The new step has no live orders yet.
    let l = load(&s, id).await;
    assert_eq!(
        (l.campaign.step, l.orders.len(), l.campaign.version),
        (1, 0, 4)
    );

    // A commit with no campaign row still bumps the version.
    s.commit(id, 4, Commit::default()).await.unwrap();
    assert_eq!(load(&s, id).await.campaign.version, 5);
    s.close().await;
}

async fn adapter_message_ids_are_kept_apart_from_decisions(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let l = load(&s, id).await;
    s.set_status_message(id, Some("m1".into())).await.unwrap();
    s.set_lobby_message(id, Some("m2".into())).await.unwrap();
    // A decision made before the ids were set does not erase them.
    s.commit(id, l.campaign.version, changed(&l, T0 + 1))
        .await
        .unwrap();
    let c = load(&s, id).await.campaign;
    assert_eq!(
        (c.status_message.as_deref(), c.lobby_message.as_deref()),
        (Some("m1"), Some("m2"))
    );
    s.set_status_message(id, None).await.unwrap();
    assert_eq!(load(&s, id).await.campaign.status_message, None);
    s.close().await;
}

async fn a_deadline_fires_once_and_the_loser_is_told_so(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    assert!(s.due_deadlines(T0, 10).await.unwrap().is_empty());
    assert_eq!(s.next_due().await.unwrap(), Some(T0 + 3_000_000));
    let due = s.due_deadlines(T0 + 3_600_000, 10).await.unwrap();
    assert_eq!(
        due.iter().map(|d| d.kind).collect::<Vec<_>>(),
        vec![DeadlineKind::Reminder, DeadlineKind::Deadline]
    );
    assert!(due.iter().all(|d| d.campaign == id && d.step == 0));
    let reminder = due[0].id;
    let l = load(&s, id).await;
    let mut commit = changed(&l, T0 + 3_000_000);
    commit.fired = vec![reminder];
    s.commit(id, l.campaign.version, commit).await.unwrap();
    assert_eq!(s.next_due().await.unwrap(), Some(T0 + 3_600_000));
    // The same deadline again, even on the current version: already handled.
    let l = load(&s, id).await;
    let mut again = changed(&l, T0 + 3_000_001);
    again.fired = vec![reminder];
    again.outbox = vec![outbox(None, 7)];
    let before = s.outbox_of(id).await.unwrap().len();
    assert!(matches!(
        s.commit(id, l.campaign.version, again.clone()).await,
        Err(StoreError::AlreadyFired)
    ));
    // On a stale version too: the loser learns it lost, not that it should retry.
    assert!(matches!(
        s.commit(id, l.campaign.version - 1, again).await,
        Err(StoreError::AlreadyFired)
    ));
    assert_eq!(s.outbox_of(id).await.unwrap().len(), before);
    // Replacing the deadlines (a moved deadline) makes the old one moot as well.
    let deadline = due[1].id;
    let mut moved = changed(&l, T0 + 3_000_002);
    moved.deadlines = Some(vec![NewDeadline {
        step: 0,
        kind: DeadlineKind::Deadline,
        due_at: T0 + 7_200_000,
    }]);
    s.commit(id, l.campaign.version, moved).await.unwrap();
    let l = load(&s, id).await;
    let mut old = changed(&l, T0 + 7_200_000);
    old.fired = vec![deadline];
    assert!(matches!(
        s.commit(id, l.campaign.version, old).await,
        Err(StoreError::AlreadyFired)
    ));
    assert_eq!(s.next_due().await.unwrap(), Some(T0 + 7_200_000));
    s.close().await;
}

async fn migrations_are_reported_and_applied_once(kind: Kind) {
    let db = Db::new(kind).await;
    if kind == Kind::Sqlite {
        // Inspecting must not create a database by mistake.
        assert!(store::connect(&db.url).await.is_err());
    } else {
        let bare = store::connect(&db.url).await.unwrap();
        let status = bare.schema_status().await.unwrap();
        assert!(!status.is_current());
        assert!(
            status.applied.is_empty() && status.pending.len() >= 2,
            "{status:?}"
        );
        bare.close().await;
    }
    let status = store::migrate(&db.url).await.unwrap();
    assert!(status.is_current(), "{status:?}");
    assert_eq!(
        status.applied,
        vec![1, 2, 3, 4, 5, 8, 9, 11, 12, 13, 14, 16, 19, 20, 21, 22]
    );
    // Twice is harmless, and several processes opening at once migrate once.
    let (x, y, z) = tokio::join!(db.open(), db.open(), store::migrate(&db.url));
    assert!(z.unwrap().is_current());
    let inspect = store::connect(&db.url).await.unwrap();
    let status = inspect.schema_status().await.unwrap();
    assert_eq!(
        status.backend,
        if kind == Kind::Sqlite {
            "sqlite"
        } else {
            "postgres"
        }
    );
    assert!(status.is_current(), "{status:?}");
    for s in [x, y, inspect] {
        s.close().await;
    }
}

async fn a_row_that_does_not_decode_is_named_not_a_panic(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let raw = db.raw().await;
    let unreadable = |e: Result<Loaded, StoreError>| match e {
        Err(StoreError::BadRow { table, key, reason }) => (table, key, reason),
        other => panic!("expected a row named as unreadable, got {other:?}"),
    };
    // A number out of range: the seat's key names it.
    raw.execute(
        "UPDATE seats SET seat = 300 WHERE campaign_id = ? AND seat = 1",
        vec![Arg::I(id.0)],
    )
    .await;
    let (table, key, reason) = unreadable(s.load(id).await.map(|l| l.expect("exists")));
    assert_eq!(
        (table, key),
        ("seats", format!("campaign_id {}, seat 300", id.0))
    );
    assert!(reason.contains("`seat`"), "{reason}");
    raw.execute(
        "UPDATE seats SET seat = 1 WHERE campaign_id = ? AND seat = 300",
        vec![Arg::I(id.0)],
    )
    .await;
    // Text that names no phase.
    raw.execute(
        "UPDATE campaigns SET phase = 'sprinting' WHERE id = ?",
        vec![Arg::I(id.0)],
    )
    .await;
    let (table, key, reason) = unreadable(s.load(id).await.map(|l| l.expect("exists")));
    assert_eq!((table, key), ("campaigns", format!("id {}", id.0)));
    assert!(
        reason.contains("`phase`") && reason.contains("sprinting"),
        "{reason}"
    );
    // JSON that no longer parses, in an announcement.
    let first = raw
        .scalar(
            "SELECT MIN(id) FROM outbox WHERE campaign_id = ?",
            vec![Arg::I(id.0)],
        )
        .await;
    raw.execute(
        "UPDATE outbox SET payload = '{not json' WHERE id = ?",
        vec![Arg::I(first)],
    )
    .await;
    match s.outbox_of(id).await {
        Err(StoreError::BadRow { table, key, reason }) => {
            assert_eq!((table, key), ("outbox", format!("id {first}")));
            assert!(reason.contains("`payload`"), "{reason}");
        }
        other => panic!("expected a row named as unreadable, got {other:?}"),
    }
    raw.close().await;
    s.close().await;
}

/// The prompts to close are read by step, not by reading the whole outbox: only
/// delivered DM prompts of the steps asked for, older than the given row.
async fn prompts_are_read_by_step(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let l = load(&s, id).await;
    let prompt = |step: u32, to: Value| NewOutbox {
        target: to.into(),
        payload: json!({"kind": "prompt", "step": step, "race": id.0}).into(),
        coalesce_key: None,
        not_before: T0,
    };
    let dm = json!({"to": "dm", "user": "u0", "seat": 0});
    let mut commit = changed(&l, T0 + 1);
    commit.outbox = vec![
        prompt(0, dm.clone()),
        prompt(1, dm.clone()),
        prompt(1, json!({"to": "channel"})),
        prompt(2, dm.clone()),
        prompt(1, dm.clone()),
    ];
    s.commit(id, l.campaign.version, commit).await.unwrap();
    let all = s.outbox_of(id).await.unwrap();
    let ids: Vec<i64> = all[all.len() - 5..].iter().map(|r| r.id).collect();
    // All but the last step-1 prompt delivered with a message id.
    for (i, row) in ids.iter().take(4).enumerate() {
        s.outbox_delivered(*row, Some(format!("{}", 900 + i)), T0 + 2)
            .await
            .unwrap();
    }
    let got = |from, to, before| {
        let s = s.clone();
        async move {
            s.prompts_of_steps(id, from, to, before)
                .await
                .unwrap()
                .iter()
                .map(|r| r.id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(got(1, 1, i64::MAX).await, vec![ids[1]]);
    assert_eq!(
        got(0, u32::MAX, i64::MAX).await,
        vec![ids[0], ids[1], ids[3]]
    );
    assert_eq!(got(1, u32::MAX, ids[3]).await, vec![ids[1]]);
    assert!(got(3, 9, i64::MAX).await.is_empty());
    s.close().await;
}

/// Compaction keeps the outbox's newest row, so that no id (a Discord nonce) is given
/// twice: SQLite numbers a new row from the largest id left.
async fn compaction_never_frees_an_outbox_id_for_reuse(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let id = running(&s, "c").await;
    let l = load(&s, id).await;
    let mut commit = changed(&l, T0 + 1);
    if let Some(c) = commit.campaign.as_mut() {
        c.phase = Phase::Finished;
        c.ended_at = Some(T0 + 1);
    }
    commit.outbox = vec![outbox(None, 7)];
    s.commit(id, 1, commit).await.unwrap();
    let rows = s.outbox_of(id).await.unwrap();
    let newest = rows.iter().map(|r| r.id).max().unwrap();
    for r in &rows {
        if r.failed.is_none() {
            s.outbox_delivered(r.id, None, T0 + 2).await.unwrap();
        }
    }
    let done = s.compact(T0 + 10, T0 + 10).await.unwrap();
    let left: Vec<i64> = s
        .outbox_of(id)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(left, vec![newest], "{done:?}");
    assert_eq!(done.outbox, u64::try_from(rows.len() - 1).unwrap());

    let other = running(&s, "d").await;
    let fresh = s.outbox_of(other).await.unwrap();
    assert!(
        fresh.iter().all(|r| r.id > newest),
        "{fresh:?} reuses an id up to {newest}"
    );
    s.close().await;
}

/// A race opened in a channel whose last race ended speaks only after that race has said
/// everything, its result waiting for a retry included; a race elsewhere is not held.
async fn a_new_race_in_a_channel_waits_for_the_last_race_s_posts(kind: Kind) {
    let db = Db::new(kind).await;
    let s = db.open().await;
    let old = running(&s, "same").await;
    let l = load(&s, old).await;
    let mut commit = changed(&l, T0 + 1);
    if let Some(c) = commit.campaign.as_mut() {
        c.phase = Phase::Finished;
        c.ended_at = Some(T0 + 1);
    }
    commit.outbox = vec![outbox(None, 9)];
    s.commit(old, l.campaign.version, commit).await.unwrap();
    let new = running(&s, "same").await;
    let elsewhere = running(&s, "elsewhere").await;
    let olds: Vec<i64> = s
        .outbox_of(old)
        .await
        .unwrap()
        .iter()
        .filter(|r| r.failed.is_none())
        .map(|r| r.id)
        .collect();
    let races = |rows: &[store::OutboxRow]| {
        let mut v: Vec<CampaignId> = rows.iter().map(|r| r.campaign).collect();
        v.dedup();
        v
    };
    let ready = s.outbox_ready(T0, 100).await.unwrap();
    assert_eq!(races(&ready), vec![old, elsewhere], "{ready:?}");
    // The old race's first post lands, its result waits for a retry: the new race waits.
    s.outbox_delivered(olds[0], Some("m1".into()), T0 + 2)
        .await
        .unwrap();
    for id in &olds[1..] {
        s.outbox_retry(*id, T0 + 60_000, "rate limited")
            .await
            .unwrap();
    }
    let claimed = s.claim_outbox(T0 + 3, 100, "A", T0 + 30_000).await.unwrap();
    assert_eq!(races(&claimed), vec![elsewhere], "{claimed:?}");
    s.release_outbox_leases("A", &[old, new, elsewhere])
        .await
        .unwrap();
    assert!(
        s.outbox_ready(T0 + 3, 100)
            .await
            .unwrap()
            .iter()
            .all(|r| r.campaign == elsewhere)
    );
    // Once the old race has spoken (one landed, one given up), the new race goes.
    s.outbox_delivered(olds[1], Some("m2".into()), T0 + 60_001)
        .await
        .unwrap();
    for id in &olds[2..] {
        s.outbox_failed(*id, "gone for good").await.unwrap();
    }
    let claimed = s
        .claim_outbox(T0 + 60_002, 100, "A", T0 + 90_000)
        .await
        .unwrap();
    assert!(races(&claimed).contains(&new), "{claimed:?}");
    s.close().await;
}

on_both!(
    compaction_never_frees_an_outbox_id_for_reuse,
    a_new_race_in_a_channel_waits_for_the_last_race_s_posts,
    prompts_are_read_by_step,
    a_new_campaign_reads_back_as_created,
    a_commit_lands_whole_and_a_stale_one_not_at_all,
    a_time_setting_moves_the_versions_of_the_open_races_it_counts_in,
    adapter_message_ids_are_kept_apart_from_decisions,
    a_deadline_fires_once_and_the_loser_is_told_so,
    migrations_are_reported_and_applied_once,
    a_row_that_does_not_decode_is_named_not_a_panic,
);

#[test]
fn urls_choose_the_backend() {
    assert_eq!(Backend::of("postgres://u@h/db"), Backend::Postgres);
    assert_eq!(Backend::of("PostgreSQL://u@h/db"), Backend::Postgres);
    assert_eq!(Backend::of("sqlite:photofinish.db"), Backend::Sqlite);
    assert_eq!(
        Backend::of("/var/lib/photofinish/photofinish.db"),
        Backend::Sqlite
    );
    assert_eq!(
        store::redact("postgres://bot:s3cret@db:5432/pf"),
        "postgres://***@db:5432/pf"
    );
    assert_eq!(
        store::redact("postgres://bot@db/pf"),
        "postgres://***@db/pf"
    );
}

#[test]
fn ci_runs_the_postgres_suite() {
    // Where a server is required (.ci/run), a missing one fails here rather than skipping.
    if backend::postgres_required() {
        assert!(
            backend::postgres_url().is_some(),
            "{} is set, so {} must be too",
            backend::REQUIRE_ENV,
            backend::POSTGRES_ENV
        );
    }
}
