//! The [`Referee`] and what it holds: its settings ([`Config`]), who asks ([`Actor`]), a
//! new race's request ([`NewRace`]), and the guards every request shares. The requests
//! themselves live by concern in the files beside this one.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::Mutex;

use super::clock::Clock;
use super::error::RefereeError;
use super::limits::{self, Limits};
use super::outage::{self, Reach};
use super::work::Work;
use crate::games::GameKind;
use crate::store::{Loaded, Store};
use crate::vocab::{CampaignId, Phase, TimeContext, Timing, UserId};

/// The default of `retention.after`: 30 days.
pub const DEFAULT_AFTER_SECS: u64 = 30 * 86_400;

/// A campaign as this referee committed it, and the time context its decision used (none
/// when the race was not open, or its seats changed).
pub(super) struct Cached {
    pub(super) loaded: Loaded,
    pub(super) time: Option<TimeContext>,
}

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
    /// Where new races' seeds come from.
    pub seeds: Seeds,
}

/// Where new races' seeds come from. No configuration key reaches `Fixed`: a real race's
/// dice are the operating system's.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub enum Seeds {
    /// Fresh randomness from the operating system for every race.
    #[default]
    Os,
    /// One seed for every race: a recorded playthrough replays word for word.
    Fixed(crate::engine::Seed),
}

impl std::fmt::Debug for Seeds {
    // The seed is secret until a race ends: never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Seeds::Os => "Os",
            Seeds::Fixed(_) => "Fixed(..)",
        })
    }
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
            retention_after_secs: DEFAULT_AFTER_SECS,
            seeds: Seeds::Os,
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
    pub(super) store: Arc<dyn Store>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) config: Config,
    pub(super) locks: Mutex<HashMap<CampaignId, Arc<Mutex<()>>>>,
    /// Each campaign as this referee last committed it, with the time context of that
    /// decision: the next decision starts from it without a query (`transaction.rs`).
    pub(super) cache: std::sync::Mutex<HashMap<CampaignId, Cached>>,
    /// This referee's name in claims and leases, unique across processes.
    pub(super) instance: String,
    /// Each user's pace of orders, preferences and commands.
    pub(super) pacer: limits::RateLimiter,
    /// The wall and monotonic clocks at the last tick, to tell a clock jump from time
    /// that passed.
    pub(super) last_tick: std::sync::Mutex<Option<(crate::vocab::Millis, crate::vocab::Millis)>>,
    /// Whether Discord answers, for the outage hold (`outage.rs`).
    pub(super) reach: outage::Reach,
    /// When this referee last compacted ended races (`retention.rs`).
    pub(super) last_compaction: std::sync::Mutex<Option<crate::vocab::Millis>>,
    /// Why the last delivery that reached the adapter was refused, until one lands.
    pub(super) refused: std::sync::Mutex<Option<String>>,
    /// When this referee last recorded itself alive (`deadlines.rs`).
    pub(super) alive_noted: std::sync::Mutex<Option<crate::vocab::Millis>>,
    /// Holds an outage or a clock jump owes that have not committed yet (`deadlines.rs`).
    pub(super) owed_holds: std::sync::Mutex<Vec<super::outage::OwedHold>>,
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

pub(super) fn is_host(w: &Work, actor: &Actor) -> bool {
    actor.manage || w.campaign.host == actor.user
}

pub(super) fn require_host(w: &Work, actor: &Actor) -> Result<(), RefereeError> {
    if is_host(w, actor) {
        Ok(())
    } else {
        Err(RefereeError::NotHost)
    }
}

pub(super) fn require_lobby(w: &Work) -> Result<(), RefereeError> {
    match w.campaign.phase {
        Phase::Lobby => Ok(()),
        Phase::Running | Phase::Paused => Err(RefereeError::AlreadyStarted),
        Phase::Finished => Err(RefereeError::Finished),
        Phase::Cancelled => Err(RefereeError::Cancelled),
    }
}

pub(super) fn require_in_play(w: &Work) -> Result<(), RefereeError> {
    match w.campaign.phase {
        Phase::Running | Phase::Paused => Ok(()),
        Phase::Lobby => Err(RefereeError::NotStarted),
        Phase::Finished => Err(RefereeError::Finished),
        Phase::Cancelled => Err(RefereeError::Cancelled),
    }
}

pub(super) fn require_open(w: &Work) -> Result<(), RefereeError> {
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
            refused: std::sync::Mutex::new(None),
            alive_noted: std::sync::Mutex::new(None),
            owed_holds: std::sync::Mutex::new(Vec::new()),
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

    /// The adapter's view of Discord's reach.
    pub fn reach(&self) -> &Reach {
        &self.reach
    }

    /// A request to Discord got an answer (`true`) or none: an answer is a sign of life.
    pub(super) fn reached(&self, answered: bool) {
        if answered {
            self.reach.contact(self.clock.now());
        }
    }
}
