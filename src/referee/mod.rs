//! The referee: the game-agnostic campaign machine.
//!
//! It owns the lobby and seats, order intake with receipts, deadlines and reminders,
//! missed orders, adjudication through the engine, and the outbox of announcements. It
//! knows a [`Store`] and a [`Clock`] and nothing of Discord: adapters call it and deliver
//! what it queues ([`delivery`]).
//!
//! Every request follows one pattern: load the campaign, decide in memory ([`work`]),
//! commit once. A request that fails changes nothing. Requests on one campaign are
//! serialised in-process, and the store's version check guards against other processes.

pub mod announce;
pub mod clock;
pub mod delivery;
mod error;
pub mod timing;
pub mod verify;
pub mod work;

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::Mutex;

use crate::engine::{BotLevel, OrderError, Prompt, Seat, SeatSetup, Seed};
use crate::games::{AnyPrivateView, AnyPublicView, GameKind};
use crate::store::{
    CampaignId, DeadlineKind, DeadlineRow, Loaded, Millis, NewCampaign, OrderRow, OrderSource,
    Phase, PreferenceRow, SeatRow, StepLog, Store, StoreError, Timing, UserId,
};
use announce::{Announcement, StatusSeat, Target};
pub use clock::{Clock, SystemClock, TestClock};
pub use error::RefereeError;
use work::{Work, new_nonce, receipt_for};

/// The referee's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Timing for new races.
    pub default_timing: Timing,
    /// The longest order text accepted, in characters.
    pub max_order_chars: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            default_timing: Timing {
                turn_secs: 24 * 3600,
                reminders: vec![12 * 3600, 3600],
                resolve_early: true,
            },
            max_order_chars: 500,
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

/// What a player gets back for an accepted order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    pub race: CampaignId,
    pub seat: Seat,
    pub seat_name: String,
    pub label: String,
    /// The order as the engine reads it.
    pub order: String,
    /// The public receipt: a hash of the order and a secret nonce.
    pub receipt: String,
    /// An earlier order for this step was replaced.
    pub changed: bool,
    /// The very same order was already in: nothing changed, and this is its receipt.
    pub repeated: bool,
    /// The step resolved at once (everyone was in).
    pub resolved: bool,
}

/// What a seat is being asked right now, for an in-channel order form.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenPrompt {
    pub race: CampaignId,
    pub step: u32,
    pub seat: Seat,
    pub seat_name: String,
    pub label: String,
    pub view: AnyPrivateView,
    pub prompt: Prompt,
    pub deadline: Option<Millis>,
    /// The order already in for this step, if any.
    pub current: Option<String>,
}

/// A race at a glance.
#[derive(Clone, Debug, PartialEq)]
pub struct Overview {
    pub race: CampaignId,
    pub kind: GameKind,
    pub phase: Phase,
    pub host: UserId,
    pub channel: String,
    pub label: String,
    pub deadline: Option<Millis>,
    pub paused_left_ms: Option<i64>,
    pub seats: Vec<StatusSeat>,
    pub users: Vec<(Seat, Option<UserId>)>,
    pub view: Option<AnyPublicView>,
    pub options: String,
    pub timing: Timing,
    pub commitment: String,
    /// The seed, once the race is over.
    pub seed: Option<String>,
}

/// How to move a deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlineChange {
    /// To this moment.
    At(Millis),
    /// By this many seconds (negative brings it forward).
    Extend(i64),
}

/// One past step, for `/race history`.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub number: u32,
    pub label: String,
    pub late: bool,
    pub narration: Vec<String>,
    pub orders: Vec<announce::RevealedOrder>,
}

/// The referee.
pub struct Referee {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    config: Config,
    locks: Mutex<HashMap<CampaignId, Arc<Mutex<()>>>>,
    /// Each campaign as this referee last committed it: reused while the stored version
    /// is still that one (one query instead of three per decision).
    cache: std::sync::Mutex<HashMap<CampaignId, Loaded>>,
    /// This referee's name in claims and leases, unique across processes.
    instance: String,
}

/// How long a claimed deadline is ours before another process may take it over.
pub const DEADLINE_CLAIM_MS: Millis = 120_000;

/// Campaigns the referee keeps in memory between decisions.
const CACHE_RACES: usize = 1024;

/// Deadlines claimed per tick.
const TICK_BATCH: u32 = 200;

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

fn renumber(seats: &mut [SeatRow]) {
    for (i, s) in seats.iter_mut().enumerate() {
        s.seat = Seat::from_index(i).unwrap_or(Seat(u8::MAX));
    }
}

fn unique_name(seats: &[SeatRow], wanted: &str) -> String {
    let taken = |n: &str| seats.iter().any(|s| s.name.eq_ignore_ascii_case(n));
    if !taken(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|i| format!("{wanted} {i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| wanted.to_string())
}

fn clean_name(name: &str) -> Result<String, RefereeError> {
    let name: String = clean_text(name)
        .chars()
        .filter(|c| !matches!(c, '@' | '`' | '*' | '_' | '~' | '|' | '<' | '>'))
        .collect();
    let name = name.trim().to_string();
    if name.is_empty() {
        return Err(RefereeError::Invalid(
            "a runner's name can't be empty".into(),
        ));
    }
    if name.chars().count() > 32 {
        return Err(RefereeError::Invalid(
            "a runner's name can be 32 characters at most".into(),
        ));
    }
    Ok(name)
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

    async fn lock(&self, id: CampaignId) -> Arc<Mutex<()>> {
        let mut locks = self.locks.lock().await;
        locks
            .entry(id)
            .or_insert_with(|| Arc::new(Mutex::new(())))
            .clone()
    }

    /// Load, decide, commit: retried when another process changed the campaign first.
    async fn mutate<T>(
        &self,
        id: CampaignId,
        mut decide: impl FnMut(&mut Work) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        let lock = self.lock(id).await;
        let _guard = lock.lock().await;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let loaded = self.load_cached(id).await?;
            let mut work = Work::new(loaded, self.clock.now());
            let out = decide(&mut work)?;
            let version = work.expected_version();
            let Some((commit, after)) = work.finish_with_after() else {
                return Ok(out);
            };
            let adjudicated = !commit.events.is_empty();
            let accepted = commit
                .orders
                .iter()
                .any(|o| o.source == OrderSource::Player);
            match self.store.commit(id, version, commit).await {
                Ok(()) => {
                    self.remember(after);
                    if accepted {
                        crate::fault::point("order-accepted");
                    }
                    if adjudicated {
                        crate::fault::point("after-commit");
                    }
                    return Ok(out);
                }
                Err(e) if attempt < 5 && matches!(e, StoreError::Conflict) => {
                    self.forget(id);
                    tracing::debug!(race = id.0, attempt, "conflict; deciding again");
                    continue;
                }
                Err(e) => {
                    self.forget(id);
                    return Err(e.into());
                }
            }
        }
    }

    /// The campaign, from the cache when the store still holds the version this referee
    /// committed last, else loaded whole.
    async fn load_cached(&self, id: CampaignId) -> Result<Loaded, RefereeError> {
        let cached = self.cache.lock().ok().and_then(|c| c.get(&id).cloned());
        if let Some(cached) = cached {
            if self.store.version(id).await? == Some(cached.campaign.version) {
                #[cfg(debug_assertions)]
                self.check_cached(&cached).await;
                return Ok(cached);
            }
            self.forget(id);
        }
        self.store.load(id).await?.ok_or(RefereeError::NoRace)
    }

    /// Tests run with debug assertions: every cache hit must equal a fresh load, but for
    /// the adapter's message ids, which decisions never read (delivery loads afresh).
    #[cfg(debug_assertions)]
    async fn check_cached(&self, cached: &Loaded) {
        if let Ok(Some(mut fresh)) = self.store.load(cached.campaign.id).await {
            fresh.campaign.status_message = cached.campaign.status_message.clone();
            fresh.campaign.lobby_message = cached.campaign.lobby_message.clone();
            debug_assert_eq!(&fresh, cached, "the referee's cache drifted from the store");
        }
    }

    fn remember(&self, after: Loaded) {
        if let Ok(mut cache) = self.cache.lock() {
            // Bounded: a busy bot refills it with the races in play.
            if cache.len() >= CACHE_RACES && !cache.contains_key(&after.campaign.id) {
                cache.clear();
            }
            cache.insert(after.campaign.id, after);
        }
    }

    fn forget(&self, id: CampaignId) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.remove(&id);
        }
    }

    async fn read(&self, id: CampaignId) -> Result<Work, RefereeError> {
        let loaded = self.store.load(id).await?.ok_or(RefereeError::NoRace)?;
        Ok(Work::new(loaded, self.clock.now()))
    }

    /// The race in play in a channel.
    pub async fn race_in(&self, channel: &str) -> Result<CampaignId, RefereeError> {
        self.store
            .active_in_channel(channel)
            .await?
            .ok_or(RefereeError::NoRace)
    }

    /// The race in play in a channel, or else the channel's last one (finished races keep
    /// their history and their check).
    pub async fn race_in_or_last(&self, channel: &str) -> Result<CampaignId, RefereeError> {
        match self.store.active_in_channel(channel).await? {
            Some(id) => Ok(id),
            None => self
                .store
                .latest_in_channel(channel)
                .await?
                .ok_or(RefereeError::NoRace),
        }
    }

    /// Races (running or paused) in which a user holds a seat.
    pub async fn races_of(&self, user: &UserId) -> Result<Vec<CampaignId>, RefereeError> {
        Ok(self.store.campaigns_of_user(user).await?)
    }

    /// Opens a lobby for a new race, with a fresh secret seed.
    pub async fn create(&self, req: NewRace) -> Result<CampaignId, RefereeError> {
        let mut timing = self.config.default_timing.clone();
        let game_text = timing::apply_timing_text(&mut timing, &req.options)?;
        let options = req.kind.apply_options(None, &game_text)?;
        let seed = Seed::from_os()
            .map_err(|e| RefereeError::Invalid(format!("no randomness for the dice: {e}")))?;
        let now = self.clock.now();
        let id = match self
            .store
            .create(NewCampaign {
                kind: req.kind,
                options,
                host: req.host.user.clone(),
                channel: req.channel,
                guild: req.guild,
                timing,
                seed: seed.to_hex(),
                commitment: seed.commitment(),
                now,
            })
            .await
        {
            Ok(id) => id,
            Err(StoreError::ChannelBusy) => return Err(RefereeError::ChannelBusy),
            Err(e) => return Err(e.into()),
        };
        tracing::info!(race = id.0, game = req.kind.slug(), "race created");
        self.mutate(id, |w| {
            w.touch();
            w.say_lobby();
            Ok(())
        })
        .await?;
        Ok(id)
    }

    /// Takes a seat in the lobby. `choice` is the game's pre-race choice (a max speed).
    pub async fn join(
        &self,
        id: CampaignId,
        actor: &Actor,
        name: Option<&str>,
        choice: Option<&str>,
    ) -> Result<Seat, RefereeError> {
        let name = clean_name(name.unwrap_or(&actor.name))?;
        self.mutate(id, |w| {
            require_lobby(w)?;
            if w.seat_of_user(&actor.user).is_some() {
                return Err(RefereeError::AlreadySeated);
            }
            let (_, max) = w.campaign.kind.seat_limits(&w.campaign.options)?;
            if w.seats.len() >= max {
                return Err(RefereeError::Full { max });
            }
            let choice = match choice.map(clean_text).filter(|c| !c.is_empty()) {
                Some(c) => {
                    w.campaign
                        .kind
                        .check_seat_choice(&w.campaign.options, &c)
                        .map_err(RefereeError::Invalid)?;
                    Some(c)
                }
                None => None,
            };
            let seat = Seat::from_index(w.seats.len()).ok_or(RefereeError::Full { max })?;
            let name = unique_name(&w.seats, &name);
            w.seats.push(SeatRow {
                seat,
                user: Some(actor.user.clone()),
                name,
                bot: None,
                choice,
                dm_ok: true,
                view_hash: None,
            });
            w.touch_seats();
            w.say_lobby();
            Ok(seat)
        })
        .await
    }

    /// Gives up a seat: removed in the lobby, handed to a bot once the race runs.
    pub async fn leave(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            require_open(w)?;
            let seat = w
                .seat_of_user(&actor.user)
                .ok_or(RefereeError::NotSeated)?
                .seat;
            Self::release_seat(w, seat, "left the race")
        })
        .await
    }

    fn release_seat(w: &mut Work, seat: Seat, why: &str) -> Result<(), RefereeError> {
        let name = w.seat_name(seat);
        if w.campaign.phase == Phase::Lobby {
            w.seats.retain(|s| s.seat != seat);
            renumber(&mut w.seats);
            w.touch_seats();
            w.say_lobby();
            return Ok(());
        }
        if let Some(s) = w.seats.iter_mut().find(|s| s.seat == seat) {
            s.bot = Some(BotLevel::Heuristic);
        }
        w.touch_seats();
        let race = w.campaign.id;
        w.say(
            Target::Channel,
            Announcement::Notice {
                race,
                text: format!("{name} {why}; a bot runs their seat from now on."),
                at: None,
                user: None,
            },
        );
        // The bot orders at once if this seat is awaited.
        let game = w.game()?.clone();
        let pending = game.pending();
        if w.campaign.step_open
            && pending.includes(seat)
            && !w.orders.iter().any(|o| o.seat == seat)
        {
            let first_of_any =
                pending.mode == crate::engine::Mode::Any && pending.seats.first() != Some(&seat);
            if !first_of_any {
                let label = format!("bot/{}/{}", w.campaign.step, seat.0);
                let mut rng = crate::engine::GameRng::from_seed(w.seed()?.derive(&label));
                let order = game.bot_order(seat, BotLevel::Heuristic, &mut rng);
                let text = game.format_order(seat, &order);
                let nonce = new_nonce()?;
                let step = w.campaign.step;
                w.put_order(OrderRow {
                    step,
                    seat,
                    receipt: receipt_for(race.0, step, seat, &text, &nonce),
                    text,
                    parsed: order,
                    source: OrderSource::Bot,
                    nonce,
                    by_user: None,
                    submitted_at: w.now,
                });
            }
        }
        w.say_status();
        w.advance()
    }

    /// Adds bots to the lobby.
    pub async fn add_bots(
        &self,
        id: CampaignId,
        actor: &Actor,
        count: usize,
        level: BotLevel,
    ) -> Result<Vec<String>, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_lobby(w)?;
            let (_, max) = w.campaign.kind.seat_limits(&w.campaign.options)?;
            if count == 0 {
                return Err(RefereeError::Invalid("add at least one bot".into()));
            }
            if w.seats.len() + count > max {
                return Err(RefereeError::Full { max });
            }
            let mut names = Vec::new();
            for _ in 0..count {
                let seat = Seat::from_index(w.seats.len()).ok_or(RefereeError::Full { max })?;
                let name = unique_name(
                    &w.seats,
                    &format!(
                        "Bot {}",
                        w.seats.iter().filter(|s| s.user.is_none()).count() + 1
                    ),
                );
                names.push(name.clone());
                w.seats.push(SeatRow {
                    seat,
                    user: None,
                    name,
                    bot: Some(level),
                    choice: None,
                    dm_ok: true,
                    view_hash: None,
                });
            }
            w.touch_seats();
            w.say_lobby();
            Ok(names)
        })
        .await
    }

    /// Changes options (lobby) or timing (any time before the end); returns the settings.
    pub async fn settings(
        &self,
        id: CampaignId,
        actor: &Actor,
        text: &str,
    ) -> Result<String, RefereeError> {
        let text = clean_text(text);
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            let mut timing = w.campaign.timing.clone();
            let game_text = timing::apply_timing_text(&mut timing, &text)?;
            if !game_text.trim().is_empty() {
                require_lobby(w).map_err(|_| {
                    RefereeError::Invalid("game options can only change in the lobby; timing (turn, reminders, resolve) can change at any time".into())
                })?;
                w.campaign.options = w.campaign.kind.apply_options(Some(&w.campaign.options), &game_text)?;
                // Seats' choices must still fit the new options.
                for s in &w.seats {
                    if let Some(c) = &s.choice {
                        w.campaign.kind.check_seat_choice(&w.campaign.options, c).map_err(|e| RefereeError::Invalid(format!("{}: {e}", s.name)))?;
                    }
                }
            }
            w.campaign.timing = timing;
            w.touch();
            if w.campaign.phase == Phase::Lobby {
                w.say_lobby();
            }
            Ok(format!(
                "{} | {}",
                w.campaign.kind.describe_options(&w.campaign.options),
                timing::describe_timing(&w.campaign.timing)
            ))
        })
        .await
    }

    /// Starts the race: the game is set up from the seed, whose commitment is published.
    pub async fn start(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        let prefs = self.store.preferences(id).await?;
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_lobby(w)?;
            let (min, _) = w.campaign.kind.seat_limits(&w.campaign.options)?;
            if w.seats.len() < min {
                return Err(RefereeError::TooFew {
                    min,
                    have: w.seats.len(),
                });
            }
            let setups: Vec<SeatSetup> = w
                .seats
                .iter()
                .map(|s| SeatSetup {
                    name: s.name.clone(),
                    choice: s.choice.clone(),
                })
                .collect();
            let mut game = w
                .campaign
                .kind
                .setup(&w.campaign.options, &setups, w.seed()?)?;
            for p in prefs.iter().filter(|p| p.step == 0) {
                if let Err(e) = game.set_preference(p.seat, &p.text) {
                    tracing::debug!(race = id.0, "a lobby preference no longer applies: {e}");
                }
            }
            w.campaign.state = Some(game);
            w.touch_state();
            w.campaign.phase = Phase::Running;
            w.campaign.step = 0;
            w.campaign.step_open = false;
            w.touch();
            w.say_lobby();
            let race = w.campaign.id;
            let announcement = Announcement::Started {
                race,
                game: w.campaign.kind,
                seats: w.seats.iter().map(|s| s.name.clone()).collect(),
                commitment: w.campaign.commitment.clone(),
            };
            w.say(Target::Channel, announcement);
            w.advance()
        })
        .await?;
        tracing::info!(race = id.0, "race started");
        Ok(())
    }

    /// Turns `<@id>` mentions into `@Name` for seated users.
    fn resolve_mentions(w: &Work, text: &str) -> Result<String, RefereeError> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("<@") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find('>') else {
                out.push_str(&rest[start..]);
                rest = "";
                break;
            };
            let id = after[..end].trim_start_matches('!');
            if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
                let user = UserId::new(id);
                let seat = w
                    .seat_of_user(&user)
                    .ok_or_else(|| RefereeError::Invalid(format!("<@{id}> isn't in this race")))?;
                out.push('@');
                out.push_str(&seat.name);
            } else {
                out.push_str(&rest[start..start + 2 + end + 1]);
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Accepts (or changes) a player's order for the open step, with a receipt.
    pub async fn submit(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
    ) -> Result<Receipt, RefereeError> {
        self.submit_for_step(id, user, text, None).await
    }

    /// Like [`Referee::submit`], but refused as stale unless `step` is still open (a
    /// button pressed on an old prompt).
    pub async fn submit_for_step(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
        step: Option<u32>,
    ) -> Result<Receipt, RefereeError> {
        let raw_chars = text.chars().count();
        if raw_chars > self.config.max_order_chars {
            return Err(RefereeError::Invalid(format!(
                "that order is {raw_chars} characters long; orders are short, like `7` or `play 100`"
            )));
        }
        let text = clean_text(text);
        if text.is_empty() {
            return Err(RefereeError::Order(OrderError::Syntax(
                "the order is empty".into(),
            )));
        }
        self.mutate(id, |w| {
            require_in_play(w)?;
            let seat_row = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?.clone();
            if seat_row.bot.is_some() {
                return Err(RefereeError::SeatIsBot);
            }
            if step.is_some_and(|s| s != w.campaign.step) {
                return Err(RefereeError::StaleStep);
            }
            let seat = seat_row.seat;
            let text = Self::resolve_mentions(w, &text)?;
            let game = w.game()?.clone();
            let pending = game.pending();
            if !w.campaign.step_open || !pending.includes(seat) {
                return Err(RefereeError::Order(OrderError::NotYourTurn));
            }
            let order = game.read_order(seat, &text)?;
            let canonical = game.format_order(seat, &order);
            // The same order again (a double click, a resent DM) changes nothing.
            if let Some(live) = w
                .orders
                .iter()
                .find(|o| o.seat == seat && o.source == OrderSource::Player && o.text == canonical)
            {
                return Ok(Receipt {
                    race: w.campaign.id,
                    seat,
                    seat_name: seat_row.name.clone(),
                    label: pending.label.clone(),
                    order: canonical,
                    receipt: live.receipt.clone(),
                    changed: false,
                    repeated: true,
                    resolved: false,
                });
            }
            let changed = w.orders.iter().any(|o| o.seat == seat);
            let nonce = new_nonce()?;
            let step = w.campaign.step;
            let receipt = receipt_for(w.campaign.id.0, step, seat, &canonical, &nonce);
            w.put_order(OrderRow {
                step,
                seat,
                text: canonical.clone(),
                parsed: order,
                source: OrderSource::Player,
                nonce,
                receipt: receipt.clone(),
                by_user: Some(user.clone()),
                submitted_at: w.now,
            });
            w.touch();
            w.say_status();
            w.advance()?;
            Ok(Receipt {
                race: w.campaign.id,
                seat,
                seat_name: seat_row.name.clone(),
                label: pending.label.clone(),
                order: canonical,
                receipt,
                changed,
                repeated: false,
                resolved: w.campaign.step != step,
            })
        })
        .await
    }

    /// Sets a standing preference for the user's seat (a policy, a setting).
    pub async fn set_preference(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
    ) -> Result<String, RefereeError> {
        let text = clean_text(text);
        if text.chars().count() > self.config.max_order_chars {
            return Err(RefereeError::Invalid("that setting is too long".into()));
        }
        self.mutate(id, |w| {
            require_open(w)?;
            let seat = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?.seat;
            let step = w.campaign.step;
            let now = w.now;
            let answer = match w.campaign.state.as_mut() {
                Some(game) => {
                    let answer = game.set_preference(seat, &text)?;
                    w.touch_state();
                    answer
                }
                None => {
                    if w.campaign.kind.preference_help().is_none() {
                        return Err(RefereeError::Preference(
                            crate::engine::PreferenceError::NotSupported,
                        ));
                    }
                    format!("noted: `{text}` applies when the race starts")
                }
            };
            w.commit.preferences.push(PreferenceRow {
                step,
                seat,
                text: text.clone(),
                set_at: now,
            });
            w.touch();
            Ok(answer)
        })
        .await
    }

    /// What the user's seat is asked now, if anything (for `/race order`).
    pub async fn open_prompt(
        &self,
        id: CampaignId,
        user: &UserId,
    ) -> Result<OpenPrompt, RefereeError> {
        let w = self.read(id).await?;
        require_in_play(&w)?;
        let seat_row = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?;
        if seat_row.bot.is_some() {
            return Err(RefereeError::SeatIsBot);
        }
        let game = w.game()?;
        let pending = game.pending();
        if !w.campaign.step_open || !pending.includes(seat_row.seat) {
            return Err(RefereeError::Order(OrderError::NotYourTurn));
        }
        Ok(OpenPrompt {
            race: id,
            step: w.campaign.step,
            seat: seat_row.seat,
            seat_name: seat_row.name.clone(),
            label: pending.label.clone(),
            view: game.private_view(seat_row.seat),
            prompt: game.prompt(seat_row.seat),
            deadline: w.campaign.deadline_at,
            current: w
                .orders
                .iter()
                .find(|o| o.seat == seat_row.seat)
                .map(|o| o.text.clone()),
        })
    }

    /// The race at a glance: standings, the open step, who has ordered (never what).
    pub async fn overview(&self, id: CampaignId) -> Result<Overview, RefereeError> {
        let w = self.read(id).await?;
        let (label, pending) = match &w.campaign.state {
            Some(g) => {
                let p = g.pending();
                (p.label.clone(), p)
            }
            None => (String::from("Lobby"), crate::engine::Pending::none()),
        };
        let seats = w
            .seats
            .iter()
            .map(|s| {
                let live = w.orders.iter().find(|o| o.seat == s.seat);
                StatusSeat {
                    name: s.name.clone(),
                    state: if !pending.includes(s.seat) {
                        announce::SeatState::Idle
                    } else if live.is_some() {
                        announce::SeatState::Ordered
                    } else {
                        announce::SeatState::Waiting
                    },
                    bot: s.bot.is_some(),
                    receipt: live.map(|o| o.receipt.clone()),
                }
            })
            .collect();
        let over = matches!(w.campaign.phase, Phase::Finished | Phase::Cancelled);
        Ok(Overview {
            race: id,
            kind: w.campaign.kind,
            phase: w.campaign.phase,
            host: w.campaign.host.clone(),
            channel: w.campaign.channel.clone(),
            label,
            deadline: w.campaign.deadline_at,
            paused_left_ms: w.campaign.paused_left_ms,
            seats,
            users: w.seats.iter().map(|s| (s.seat, s.user.clone())).collect(),
            view: w.campaign.state.as_ref().map(|g| g.public_view()),
            options: w.campaign.kind.describe_options(&w.campaign.options),
            timing: w.campaign.timing.clone(),
            commitment: w.campaign.commitment.clone(),
            seed: over.then(|| w.campaign.seed.clone()),
        })
    }

    /// Moves the open step's deadline.
    pub async fn move_deadline(
        &self,
        id: CampaignId,
        actor: &Actor,
        change: DeadlineChange,
    ) -> Result<Millis, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_in_play(w)?;
            if w.campaign.phase == Phase::Paused {
                return Err(RefereeError::Paused);
            }
            let current = w.campaign.deadline_at.ok_or(RefereeError::NotStarted)?;
            let at = match change {
                DeadlineChange::At(t) => t,
                DeadlineChange::Extend(secs) => current.saturating_add(secs.saturating_mul(1000)),
            };
            if at <= w.now {
                return Err(RefereeError::Invalid(
                    "the new deadline must be in the future".into(),
                ));
            }
            w.schedule(at);
            let race = w.campaign.id;
            w.say(
                Target::Channel,
                Announcement::Notice {
                    race,
                    text: "The deadline moved to {at}.".into(),
                    at: Some(at),
                    user: None,
                },
            );
            w.say_status();
            Ok(at)
        })
        .await
    }

    /// Stops the clock; the time left is kept.
    pub async fn pause(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_in_play(w)?;
            if w.campaign.phase == Phase::Paused {
                return Err(RefereeError::Paused);
            }
            let left = w.campaign.deadline_at.map(|d| (d - w.now).max(0));
            w.campaign.paused_left_ms = left;
            w.campaign.phase = Phase::Paused;
            w.unschedule();
            let race = w.campaign.id;
            w.say(
                Target::Channel,
                Announcement::Notice {
                    race,
                    text: "The race is paused; the clock has stopped.".into(),
                    at: None,
                    user: None,
                },
            );
            w.say_status();
            Ok(())
        })
        .await
    }

    /// Restarts the clock with the time that was left.
    pub async fn resume(&self, id: CampaignId, actor: &Actor) -> Result<Millis, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            if w.campaign.phase != Phase::Paused {
                require_in_play(w)?;
                return Err(RefereeError::NotPaused);
            }
            w.campaign.phase = Phase::Running;
            let left = w
                .campaign
                .paused_left_ms
                .take()
                .unwrap_or(60_000)
                .max(60_000);
            let at = w.now + left;
            if w.campaign.step_open {
                w.schedule(at);
            }
            w.touch();
            let race = w.campaign.id;
            w.say(
                Target::Channel,
                Announcement::Notice {
                    race,
                    text: "The race resumes; the deadline is {at}.".into(),
                    at: Some(at),
                    user: None,
                },
            );
            w.say_status();
            w.advance()?;
            Ok(at)
        })
        .await
    }

    /// Hands a seat (named, or held by `from`) to another user.
    pub async fn replace(
        &self,
        id: CampaignId,
        actor: &Actor,
        seat_name: &str,
        to: &UserId,
    ) -> Result<String, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            if w.seat_of_user(to).is_some() {
                return Err(RefereeError::UserAlreadySeated);
            }
            let wanted = clean_text(seat_name);
            let idx = w
                .seats
                .iter()
                .position(|s| {
                    s.name.eq_ignore_ascii_case(&wanted)
                        || s.user.as_ref().is_some_and(|u| {
                            u.0 == wanted
                                .trim_start_matches("<@")
                                .trim_start_matches('!')
                                .trim_end_matches('>')
                        })
                })
                .ok_or_else(|| RefereeError::NoSuchSeat(wanted.clone()))?;
            let name = w.seats[idx].name.clone();
            w.seats[idx].user = Some(to.clone());
            w.seats[idx].bot = None;
            w.seats[idx].dm_ok = true;
            w.seats[idx].view_hash = None;
            w.touch_seats();
            let race = w.campaign.id;
            w.say(
                Target::Channel,
                Announcement::Notice {
                    race,
                    text: format!("{name}'s seat now belongs to {{user}}."),
                    at: None,
                    user: Some(to.clone()),
                },
            );
            if w.campaign.phase == Phase::Lobby {
                w.say_lobby();
            } else {
                w.say_status();
            }
            Ok(name)
        })
        .await
    }

    /// Removes a player: from the lobby, or to a bot once the race runs.
    pub async fn kick(
        &self,
        id: CampaignId,
        actor: &Actor,
        target: &UserId,
    ) -> Result<String, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            let row = w
                .seat_of_user(target)
                .ok_or(RefereeError::NotSeated)?
                .clone();
            Self::release_seat(w, row.seat, "was removed by the host")?;
            Ok(row.name)
        })
        .await
    }

    /// Ends the race without a result.
    pub async fn cancel(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            w.campaign.phase = Phase::Cancelled;
            w.campaign.ended_at = Some(w.now);
            w.unschedule();
            let race = w.campaign.id;
            w.say(Target::Channel, Announcement::Cancelled { race });
            w.say_status();
            Ok(())
        })
        .await
    }

    /// A player's DMs failed (closed): remember it, and tell the channel how to order.
    pub async fn dm_failed(&self, id: CampaignId, seat: Seat) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            let Some(row) = w.seats.iter_mut().find(|s| s.seat == seat) else {
                return Ok(());
            };
            if !row.dm_ok {
                return Ok(());
            }
            row.dm_ok = false;
            let user = row.user.clone();
            w.touch_seats();
            let race = w.campaign.id;
            if let Some(user) = user {
                w.say(Target::Channel, Announcement::Notice {
                    race,
                    text: "{user}, I can't DM you. Open your DMs to this server's members, or send your orders here with /race order (only you will see them).".into(),
                    at: None,
                    user: Some(user),
                });
            }
            Ok(())
        })
        .await
    }

    /// A past step's result.
    pub async fn history(&self, id: CampaignId, number: u32) -> Result<HistoryEntry, RefereeError> {
        let w = self.read(id).await?;
        let log = self.store.log(id).await?;
        let index = number.checked_sub(1).ok_or(RefereeError::NoSuchTurn)?;
        let StepLog {
            turn,
            orders,
            events,
        } = log
            .into_iter()
            .find(|l| l.turn.step == index)
            .ok_or(RefereeError::NoSuchTurn)?;
        let game = w.game()?;
        let narration = events
            .iter()
            .map(|e| game.narrate(e))
            .filter(|n| n.audience == crate::engine::Audience::Public && !n.text.is_empty())
            .map(|n| n.text)
            .collect();
        let orders = orders
            .iter()
            .map(|o| announce::RevealedOrder {
                step: o.step,
                name: w.seat_name(o.seat),
                order: o.text.clone(),
                nonce: o.nonce.clone(),
                receipt: o.receipt.clone(),
                source: o.source,
            })
            .collect();
        Ok(HistoryEntry {
            number,
            label: turn.label,
            late: turn.late,
            narration,
            orders,
        })
    }

    /// Checks a finished race's dice against its revealed seed.
    pub async fn verify(&self, id: CampaignId) -> Result<verify::VerifyReport, RefereeError> {
        let w = self.read(id).await?;
        if !matches!(w.campaign.phase, Phase::Finished | Phase::Cancelled) {
            return Err(RefereeError::NotOver);
        }
        let log = self.store.log(id).await?;
        let prefs = self.store.preferences(id).await?;
        Ok(verify::verify(&w.campaign, &w.seats, &log, &prefs))
    }

    /// Handles every deadline and reminder that is due. Idempotent: each fires once, even
    /// with several processes ticking: each claims its deadlines first, and one that another
    /// process handled meanwhile counts as done.
    pub async fn tick(&self) -> Result<usize, RefereeError> {
        let now = self.clock.now();
        let due = self
            .store
            .claim_due_deadlines(now, TICK_BATCH, &self.instance, now + DEADLINE_CLAIM_MS)
            .await?;
        let mut handled = 0;
        for d in due {
            match self.fire(&d).await {
                Ok(()) => handled += 1,
                Err(RefereeError::Store(StoreError::AlreadyFired)) => {
                    tracing::debug!(race = d.campaign.0, deadline = d.id, "handled elsewhere");
                }
                Err(e) => {
                    tracing::warn!(race = d.campaign.0, "a deadline could not be handled: {e}");
                    // Let the next tick, here or elsewhere, try again without waiting.
                    if let Err(e) = self.store.release_deadline(d.id, &self.instance).await {
                        tracing::warn!(deadline = d.id, "cannot release a claim: {e}");
                    }
                }
            }
        }
        Ok(handled)
    }

    /// When the next deadline or reminder falls.
    pub async fn next_due(&self) -> Result<Option<Millis>, RefereeError> {
        Ok(self.store.next_due().await?)
    }

    async fn fire(&self, d: &DeadlineRow) -> Result<(), RefereeError> {
        self.mutate(d.campaign, |w| {
            w.commit.fired.push(d.id);
            w.touch();
            let current = w.campaign.phase == Phase::Running
                && w.campaign.step == d.step
                && w.campaign.step_open;
            if !current {
                return Ok(());
            }
            match d.kind {
                DeadlineKind::Reminder => {
                    let deadline = w.campaign.deadline_at.unwrap_or(d.due_at);
                    if deadline <= w.now {
                        return Ok(()); // the deadline itself is due: a reminder now is noise
                    }
                    let game = w.game()?.clone();
                    let pending = game.pending();
                    let race = w.campaign.id;
                    let waiting: Vec<SeatRow> = w
                        .seats
                        .iter()
                        .filter(|s| {
                            s.bot.is_none()
                                && pending.includes(s.seat)
                                && !w.orders.iter().any(|o| o.seat == s.seat)
                        })
                        .cloned()
                        .collect();
                    for s in waiting {
                        if let Some(user) = s.user {
                            w.say(
                                Target::Dm { user, seat: s.seat },
                                Announcement::Reminder {
                                    race,
                                    seat_name: s.name.clone(),
                                    label: pending.label.clone(),
                                    deadline,
                                },
                            );
                        }
                    }
                    Ok(())
                }
                DeadlineKind::Deadline => w.resolve_at_deadline(d.due_at),
            }
        })
        .await
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
