//! Shared helpers for the integration tests: a referee on a real SQLite file with a test
//! clock, and a courier that records what it delivers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use photofinish::games::GameKind;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use photofinish::referee::{Actor, Config, NewRace, Referee, TestClock};
use photofinish::store::sqlite::Durability;
use photofinish::store::{CampaignId, SqliteStore, Timing};

/// A referee on a SQLite file in a temporary directory.
pub struct Bench {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
    pub clock: Arc<TestClock>,
    pub store: Arc<SqliteStore>,
    pub referee: Referee,
}

pub fn timing(turn_secs: u64, reminders: Vec<u64>, resolve_early: bool) -> Timing {
    Timing {
        turn_secs,
        reminders,
        resolve_early,
    }
}

impl Bench {
    pub async fn new() -> Bench {
        Bench::with_timing(timing(3600, vec![1800, 600], true)).await
    }

    pub async fn with_timing(t: Timing) -> Bench {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("photofinish.db");
        let clock = Arc::new(TestClock::at_epoch());
        let store = Arc::new(
            SqliteStore::open(&path.to_string_lossy(), Durability::Normal)
                .await
                .expect("open store"),
        );
        let referee = Referee::new(
            store.clone(),
            clock.clone(),
            Config {
                default_timing: t,
                ..Config::default()
            },
        );
        Bench {
            dir,
            path,
            clock,
            store,
            referee,
        }
    }

    /// The same database file, opened afresh, as after a restart.
    pub async fn restart(self) -> Bench {
        let Bench {
            dir,
            path,
            clock,
            store,
            referee,
        } = self;
        let config = referee.config().clone();
        drop(referee);
        store.close().await;
        let store = Arc::new(
            SqliteStore::open(&path.to_string_lossy(), Durability::Normal)
                .await
                .expect("reopen store"),
        );
        let referee = Referee::new(store.clone(), clock.clone(), config);
        Bench {
            dir,
            path,
            clock,
            store,
            referee,
        }
    }

    /// A second referee on the same file, as another process would be.
    pub async fn second_process(&self) -> (Arc<SqliteStore>, Referee) {
        let store = Arc::new(
            SqliteStore::open(&self.path.to_string_lossy(), Durability::Normal)
                .await
                .expect("open store"),
        );
        let referee = Referee::new(
            store.clone(),
            self.clock.clone(),
            self.referee.config().clone(),
        );
        (store, referee)
    }

    /// A lobby for `kind` hosted by `host`.
    pub async fn race(&self, kind: GameKind, host: &Actor, options: &str) -> CampaignId {
        self.referee
            .create(NewRace {
                kind,
                options: options.into(),
                channel: "chan-1".into(),
                guild: Some("guild-1".into()),
                host: host.clone(),
            })
            .await
            .expect("create race")
    }
}

/// Records every delivery; can be told to fail.
#[derive(Default)]
pub struct Recorder {
    pub delivered: Mutex<Vec<(Target, Announcement)>>,
    pub fail_next: Mutex<Vec<DeliveryError>>,
    /// Users whose DMs are closed.
    pub closed_dms: Mutex<Vec<String>>,
}

impl Recorder {
    pub fn take(&self) -> Vec<(Target, Announcement)> {
        std::mem::take(&mut *self.delivered.lock().expect("lock"))
    }

    pub fn fail_with(&self, e: DeliveryError) {
        self.fail_next.lock().expect("lock").push(e);
    }
}

#[async_trait]
impl Courier for Recorder {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        if let Some(e) = self.fail_next.lock().expect("lock").pop() {
            return Err(e);
        }
        if let Target::Dm { user, .. } = parcel.target
            && self.closed_dms.lock().expect("lock").contains(&user.0)
        {
            return Err(DeliveryError::DmClosed);
        }
        self.delivered
            .lock()
            .expect("lock")
            .push((parcel.target.clone(), parcel.announcement.clone()));
        Ok(Delivered {
            external_id: Some(format!("msg-{}", parcel.outbox_id)),
        })
    }
}

pub fn actor(id: &str, name: &str) -> Actor {
    Actor::new(id, name)
}
