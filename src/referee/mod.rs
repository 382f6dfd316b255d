//! The referee: the game-agnostic campaign machine.
//!
//! It owns the lobby and seats, order intake with receipts, deadlines and reminders,
//! missed orders, adjudication through the engine, and the outbox of announcements. It
//! knows a [`Store`] and a [`Clock`] and nothing of Discord: adapters call it and deliver
//! what it queues ([`delivery`]).
//!
//! Every request follows one pattern (`transaction.rs`): load the campaign, decide in
//! memory ([`work`]), commit once. A request that fails changes nothing. Requests on one
//! campaign are serialised in-process, and the store's version check guards against
//! other processes.
//!
//! The requests live by concern: `race.rs` (a race's life under its host), `seats.rs`,
//! `orders.rs` (intake and receipts), `deadlines.rs`, and read-only `queries.rs`.

pub mod announce;
pub mod archive;
pub mod autopilot;
pub mod away;
pub mod bank;
pub mod calendar;
pub mod clock;
mod deadlines;
pub mod delivery;
mod error;
pub mod export;
pub mod grace;
pub mod limits;
mod orders;
pub mod outage;
mod queries;
mod race;
pub mod ratings;
mod recovery;
mod retention;
pub mod round;
mod seat_time;
mod seats;
pub mod series;
pub mod stats;
pub mod supervise;
pub mod timing;
mod transaction;
pub mod verify;
pub mod when;
pub mod work;

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::Mutex;

use crate::games::GameKind;
use crate::store::Store;
use crate::vocab::{CampaignId, Phase, Timing, UserId};
pub use clock::{Clock, SystemClock, TestClock};
pub use deadlines::DEADLINE_CLAIM_MS;
pub use error::RefereeError;
pub use limits::Limits;
pub use orders::{OpenPrompt, Receipt};
pub use queries::{HistoryEntry, Overview};
pub use race::DeadlineChange;
pub use seat_time::MyTime;
use work::Work;

/// The referee's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Timing for new races.
    pub default_timing: Timing,
    /// The longest order text accepted, in characters.
    pub max_order_chars: usize,
    /// Quotas and rate limits.
    pub limits: Limits,
    /// Retention: how long after a race ends its superseded orders, delivered
    /// announcements and fired deadlines are kept, in seconds; 0 keeps them for ever.
    pub retention_after_secs: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            default_timing: Timing {
                turn_secs: 24 * 3600,
                reminders: vec![12 * 3600, 3600],
                resolve_early: true,
                calendar: Default::default(),
            },
            max_order_chars: 500,
            limits: Limits::default(),
            retention_after_secs: retention::DEFAULT_AFTER_SECS,
        }
    }
}

/// Who is asking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub user: UserId,
    /// Their display name.
    pub name: String,
    /// May manage the server (and so run host commands on any race there).
    pub manage: bool,
}

impl Actor {
    pub fn new(user: impl Into<String>, name: impl Into<String>) -> Actor {
        Actor {
            user: UserId::new(user),
            name: name.into(),
            manage: false,
        }
    }
}

/// A request for a new race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRace {
    pub kind: GameKind,
    /// Game options and timing as `key=value` text.
    pub options: String,
    pub channel: String,
    pub guild: Option<String>,
    pub host: Actor,
}

/// The referee.
pub struct Referee {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    config: Config,
    locks: Mutex<HashMap<CampaignId, Arc<Mutex<()>>>>,
    /// Each campaign as this referee last committed it, with the time context of that
    /// decision: the next decision starts from it without a query (`transaction.rs`).
    cache: std::sync::Mutex<HashMap<CampaignId, transaction::Cached>>,
    /// This referee's name in claims and leases, unique across processes.
    instance: String,
    /// Each user's pace of orders, preferences and commands.
    pacer: limits::RateLimiter,
    /// The wall and monotonic clocks at the last tick, to tell a clock jump from time
    /// that passed.
    last_tick: std::sync::Mutex<Option<(crate::vocab::Millis, crate::vocab::Millis)>>,
    /// Whether Discord answers, for the outage hold (`outage.rs`).
    reach: outage::Reach,
    /// When this referee last compacted ended races (`retention.rs`).
    last_compaction: std::sync::Mutex<Option<crate::vocab::Millis>>,
}

/// A name no other referee has: host, process and a random tag (two referees in one
/// process, as in tests, differ too).
fn instance_name() -> String {
    let host = crate::store::default_instance();
    let mut tag = [0u8; 4];
    // Without randomness the pid alone still tells processes of one host apart.
    let _ = getrandom::fill(&mut tag);
    format!("{host}-{}-{}", std::process::id(), hex::encode(tag))
}

/// Removes control and invisible characters a player did not mean to send, and
/// backticks, which no order uses and which would break the quoting of an echo.
pub fn clean_text(text: &str) -> String {
    text.chars()
        .filter(|c| {
            *c != '`'
                && !c.is_control()
                && !matches!(*c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
        })
        .collect::<String>()
        .trim()
        .to_string()
}

// The guards every request shares: who may ask, and in which phase.

fn is_host(w: &Work, actor: &Actor) -> bool {
    actor.manage || w.campaign.host == actor.user
}

fn require_host(w: &Work, actor: &Actor) -> Result<(), RefereeError> {
    if is_host(w, actor) {
        Ok(())
    } else {
        Err(RefereeError::NotHost)
    }
}

fn require_lobby(w: &Work) -> Result<(), RefereeError> {
    match w.campaign.phase {
        Phase::Lobby => Ok(()),
        Phase::Running | Phase::Paused => Err(RefereeError::AlreadyStarted),
        Phase::Finished => Err(RefereeError::Finished),
        Phase::Cancelled => Err(RefereeError::Cancelled),
    }
}

fn require_in_play(w: &Work) -> Result<(), RefereeError> {
    match w.campaign.phase {
        Phase::Running | Phase::Paused => Ok(()),
        Phase::Lobby => Err(RefereeError::NotStarted),
        Phase::Finished => Err(RefereeError::Finished),
        Phase::Cancelled => Err(RefereeError::Cancelled),
    }
}

fn require_open(w: &Work) -> Result<(), RefereeError> {
    match w.campaign.phase {
        Phase::Lobby | Phase::Running | Phase::Paused => Ok(()),
        Phase::Finished => Err(RefereeError::Finished),
        Phase::Cancelled => Err(RefereeError::Cancelled),
    }
}
impl Referee {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, config: Config) -> Referee {
        Referee {
            store,
            clock,
            config,
            locks: Mutex::new(HashMap::new()),
            cache: std::sync::Mutex::new(HashMap::new()),
            instance: instance_name(),
            pacer: limits::RateLimiter::default(),
            last_tick: std::sync::Mutex::new(None),
            reach: outage::Reach::default(),
            last_compaction: std::sync::Mutex::new(None),
        }
    }

    /// This referee's name in the claims and leases it takes in the store.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    pub fn config(&self) -> &Config {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;

    async fn referee() -> Referee {
        let store = Arc::new(SqliteStore::in_memory().await.unwrap());
        Referee::new(store, Arc::new(TestClock::at_epoch()), Config::default())
    }

    async fn two_player_race(r: &Referee, channel: &str) -> (CampaignId, Actor, Actor) {
        let alice = Actor::new("1", "Alice");
        let bob = Actor::new("2", "Bob");
        let race = r
            .create(NewRace {
                kind: GameKind::DreamMile,
                options: String::new(),
                channel: channel.into(),
                guild: None,
                host: alice.clone(),
            })
            .await
            .unwrap();
        r.join(race, &alice, None, None).await.unwrap();
        r.join(race, &bob, None, None).await.unwrap();
        r.start(race, &alice).await.unwrap();
        (race, alice, bob)
    }

    #[tokio::test]
    async fn the_same_order_twice_changes_nothing_and_keeps_its_receipt() {
        let r = referee().await;
        let (race, alice, _) = two_player_race(&r, "c1").await;
        let first = r.submit(race, &alice.user, "7").await.unwrap();
        let outbox = r.store().outbox_of(race).await.unwrap().len();
        let again = r.submit(race, &alice.user, " 7 ").await.unwrap();
        assert!(again.repeated && !again.changed && !first.repeated);
        assert_eq!(again.receipt, first.receipt);
        assert_eq!(r.store().outbox_of(race).await.unwrap().len(), outbox);
        // A different order is a change, with a new receipt.
        let changed = r.submit(race, &alice.user, "6").await.unwrap();
        assert!(changed.changed && !changed.repeated);
        assert_ne!(changed.receipt, first.receipt);
    }

    /// Status rows in the race's outbox, superseded or not.
    async fn status_rows(r: &Referee, race: CampaignId) -> usize {
        let rows = r.store().outbox_of(race).await.unwrap();
        rows.iter()
            .filter(|o| o.coalesce_key.as_deref() == Some(&format!("status:{}", race.0)))
            .count()
    }

    #[tokio::test]
    async fn an_order_writes_one_status_row_whether_or_not_it_resolves() {
        let r = referee().await;
        let (race, alice, bob) = two_player_race(&r, "c3").await;
        let before = status_rows(&r, race).await;
        // Alice's order leaves the step open; Bob's resolves it and opens the next.
        r.submit(race, &alice.user, "7").await.unwrap();
        assert_eq!(status_rows(&r, race).await, before + 1);
        let resolved = r.submit(race, &bob.user, "7").await.unwrap();
        assert!(resolved.resolved);
        assert_eq!(status_rows(&r, race).await, before + 2);
    }

    #[tokio::test]
    async fn a_finished_race_still_answers_for_its_channel() {
        let r = referee().await;
        let (race, alice, _) = two_player_race(&r, "c2").await;
        assert_eq!(r.race_in_or_last("c2").await.unwrap(), race);
        r.cancel(race, &alice).await.unwrap();
        assert!(matches!(r.race_in("c2").await, Err(RefereeError::NoRace)));
        assert_eq!(r.race_in_or_last("c2").await.unwrap(), race);
        assert!(matches!(
            r.race_in_or_last("elsewhere").await,
            Err(RefereeError::NoRace)
        ));
    }
}
