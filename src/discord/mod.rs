//! The Discord adapter: a thin serenity/poise shell around the [`Referee`].
//!
//! It owns the slash commands ([`commands`]), buttons, menus and DM replies
//! ([`handlers`]), the answers both give ([`reply`]), the outbox's way to Discord
//! ([`courier`], below them; the final post's extras in `final_post.rs`, the DM channels in
//! `dm.rs`), Discord's limits ([`layout`]), and the two workers that keep a race moving: deadlines (`tick`, then sleep
//! until `next_due`, woken early when a request changes things) and delivery (`deliver`,
//! woken after every referee call). Nothing here decides a rule or writes game text: the
//! referee decides, `render::post` words it, this module dresses and sends it.
//!
//! It also runs the gateway shards this process was given (`shards` / `shard_total` in the
//! config, or as many as Discord recommends), and reports their state to the store
//! ([`Store::heartbeat`](crate::store::Store::heartbeat)) when it starts, within a second
//! of any change, and every [`HEARTBEAT_SECS`] seconds, for `photofinish health`.
//!
//! [`start`] runs it all and hands back a [`Running`] bot that tests can wake and stop;
//! [`run`] is `photofinish run`, which stops on SIGTERM or SIGINT (`drain.rs`): no new
//! interaction is taken, work in progress gets `drain_secs` to finish, the gateway is
//! closed, this process's outbox leases and deadline claims are given back, and the
//! heartbeat says `stopped`.

pub mod commands;
pub mod config;
pub mod courier;
mod dm;
mod drain;
pub mod dress;
pub mod final_post;
pub mod handlers;
mod join;
pub mod layout;
pub mod missed;
pub mod modal;
mod order;
pub mod reply;
pub mod rest;
mod shared;
pub mod stale;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use thiserror::Error;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use crate::referee::backoff::Backoff;
use crate::referee::supervise::supervise;
use crate::referee::{Clock, Referee, RefereeError};
pub use crate::store::HEARTBEAT_SECS;
use crate::store::{Heartbeat, StoreError};
pub use config::{Settings, Shards, Token};
use courier::DiscordCourier;
use drain::{Gate, Gated, Signals};
use shared::Seen;
pub use shared::{Ctx, Error, Shared};

/// How often the delivery worker looks for retries that came due, without a wake-up.
const DELIVERY_POLL: Duration = Duration::from_secs(2);
/// The longest the deadline worker sleeps without looking at the clock again.
const DEADLINE_POLL_MS: i64 = 60_000;
/// How often the deadline worker looks whether Discord is back during an outage.
const OUTAGE_POLL_MS: i64 = 5_000;
/// How often the heartbeat worker looks at the shards' stages (cheap: in memory).
const GATEWAY_POLL: Duration = Duration::from_secs(1);
/// How long a stopping bot waits for a worker cut short to let go of its task.
const ABORT_WAIT: Duration = Duration::from_secs(1);

/// Why the bot could not start.
#[derive(Debug, Error)]
pub enum StartError {
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Referee(#[from] RefereeError),
    #[error("cannot connect to Discord: {0}")]
    Discord(#[from] serenity::Error),
    #[error("{0}")]
    Http(#[from] HttpClientError),
    /// A second signal while stopping: work in progress was not waited for.
    #[error("stopped at once by a second {0}: work in progress was not waited for")]
    Interrupted(&'static str),
}

/// How the shards of this process stand, for the heartbeat: the state and the detail.
fn gateway_state(
    expected: &[u32],
    stages: &std::collections::HashMap<u32, serenity::ConnectionStage>,
    ever_connected: bool,
) -> (&'static str, String) {
    use serenity::ConnectionStage as S;
    if expected.is_empty() {
        return ("connecting", "asking Discord for the shard count".into());
    }
    let mut waiting = Vec::new();
    let mut down = false;
    for shard in expected {
        match stages.get(shard) {
            Some(S::Connected) => {}
            Some(stage @ (S::Connecting | S::Handshake | S::Identifying | S::Resuming)) => {
                waiting.push(format!("shard {shard} {stage}"));
            }
            Some(S::Disconnected | _) | None => {
                down = true;
                waiting.push(format!("shard {shard} disconnected"));
            }
        }
    }
    let state = if waiting.is_empty() {
        "connected"
    } else if !ever_connected {
        "connecting"
    } else if down {
        "disconnected"
    } else {
        "resuming"
    };
    (state, waiting.join(", "))
}

/// A running bot.
pub struct Running {
    shared: Arc<Shared>,
    shard_manager: Arc<serenity::ShardManager>,
    client: JoinHandle<Result<(), serenity::Error>>,
    workers: Vec<JoinHandle<()>>,
    stop: watch::Sender<bool>,
    gate: Arc<Gate>,
}

impl Running {
    pub fn referee(&self) -> Arc<Referee> {
        self.shared.referee.clone()
    }

    /// Wakes the workers now (tests call this after moving a test clock).
    pub fn wake(&self) {
        self.shared.poke();
    }

    /// Stops as on SIGTERM: takes no new event, lets the work in progress finish within
    /// `drain_secs`, disconnects, gives back this process's claims, reports `stopped`.
    pub async fn stop(self) {
        self.shut_down(String::new()).await;
    }

    /// Runs until the gateway connection ends for good, or SIGTERM or SIGINT.
    pub async fn wait(self) -> Result<(), StartError> {
        self.wait_for(Signals::new()).await
    }

    /// [`Running::wait`] on signals listened for since before the bot started. A second
    /// signal while stopping ends it at once.
    async fn wait_for(mut self, mut signals: Signals) -> Result<(), StartError> {
        let ended = tokio::select! {
            r = &mut self.client => match r {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(StartError::Discord(e)),
                Err(e) => Err(StartError::Referee(RefereeError::Invalid(e.to_string()))),
            },
            name = signals.next() => {
                tracing::info!(
                    signal = name,
                    drain_secs = self.shared.settings.drain_secs,
                    "{name}: shutting down; no new interactions, work in progress may finish"
                );
                tokio::select! {
                    () = self.shut_down(String::new()) => return Ok(()),
                    again = signals.next() => {
                        tracing::warn!(
                            signal = again,
                            "{again} again while shutting down: stopping at once"
                        );
                        return Err(StartError::Interrupted(again));
                    }
                }
            }
        };
        let detail = match &ended {
            Ok(()) => String::new(),
            Err(e) => e.to_string(),
        };
        tokio::select! {
            () = self.shut_down(detail) => {}
            again = signals.next() => {
                tracing::warn!(signal = again, "{again} while shutting down: stopping at once");
                return Err(StartError::Interrupted(again));
            }
        }
        ended
    }

    /// The way every stop goes: the gate closes (no new command, button or DM starts
    /// work), the workers finish what they are doing and the events let in are handled,
    /// within `drain_secs`, while the gateway closes; what still runs then is cut short
    /// (a commit is atomic; a post under way was recorded as attempted, so the next
    /// process looks before posting it again). Then the claims are given back and the
    /// heartbeat says `stopped`.
    async fn shut_down(mut self, detail: String) {
        self.gate.close();
        let _ = self.stop.send(true);
        let drain = Duration::from_secs(self.shared.settings.drain_secs);
        let deadline = tokio::time::Instant::now() + drain;
        let mut pending: std::collections::VecDeque<JoinHandle<()>> =
            std::mem::take(&mut self.workers).into();
        let gate = self.gate.clone();
        let drained = async {
            while let Some(mut w) = pending.pop_front() {
                if tokio::time::timeout_at(deadline, &mut w).await.is_err() {
                    pending.push_front(w);
                    return false;
                }
            }
            tokio::time::timeout_at(deadline, gate.idle()).await.is_ok()
        };
        let closed = async {
            if tokio::time::timeout_at(deadline, self.shard_manager.shutdown_all())
                .await
                .is_err()
            {
                tracing::warn!("the gateway did not close in time");
            }
        };
        let (drained, ()) = tokio::join!(drained, closed);
        if drained {
            tracing::info!("work in progress finished");
        } else {
            tracing::warn!(
                drain_secs = drain.as_secs(),
                "work still in progress after the drain: cut short, handed back"
            );
        }
        for w in &pending {
            w.abort();
        }
        for w in pending {
            let _ = tokio::time::timeout(ABORT_WAIT, w).await;
        }
        self.client.abort();
        let referee = &self.shared.referee;
        match referee.store().release_claims(referee.instance()).await {
            Ok((leases, claims)) => tracing::info!(
                outbox_leases = leases,
                deadline_claims = claims,
                "gave back this process's outbox leases and deadline claims"
            ),
            Err(e) => tracing::warn!("cannot give back the outbox leases and claims: {e}"),
        }
        report(&self.shared, "stopped", detail).await;
        tracing::info!("stopped");
    }
}

/// The serenity HTTP client could not be built (the TLS backend failed to start).
#[derive(Debug, Error)]
#[error("cannot build the HTTP client for Discord: {0}")]
pub struct HttpClientError(#[from] reqwest::Error);

/// The longest a connection to Discord (or the REST proxy) may take to open.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Builds serenity's HTTP client: straight to Discord with serenity's rate limiter, or
/// through `rest_proxy` (which then does the rate limiting). Its reqwest client is ours,
/// since serenity's has no timeout: each request gets [`CONNECT_TIMEOUT`] to connect and
/// `rest_timeout` in all, so a Discord that never answers fails the request (as "no
/// answer", retried) instead of holding whoever asked for ever.
pub fn http(settings: &Settings) -> Result<serenity::Http, HttpClientError> {
    let client = reqwest::Client::builder()
        .use_rustls_tls()
        .connect_timeout(CONNECT_TIMEOUT.min(settings.rest_timeout))
        .timeout(settings.rest_timeout)
        .build()?;
    let builder = serenity::HttpBuilder::new(settings.token.expose()).client(client);
    Ok(match &settings.rest_proxy {
        Some(proxy) => builder.proxy(proxy.clone()).ratelimiter_disabled(true),
        None => builder,
    }
    .build())
}

/// Opens the database at `database`, resumes every open race under a referee of
/// `referee`'s settings (a tick handles deadlines that passed while the bot was down,
/// announced as late), registers the slash commands, connects, and starts the deadline and
/// delivery workers.
pub async fn start(
    settings: Settings,
    database: &str,
    referee: crate::referee::Config,
    clock: Arc<dyn Clock>,
) -> Result<Running, StartError> {
    start_scaled(settings, database, referee, clock, 1.0).await
}

/// [`start`], with a referee clock that runs `time_scale` times faster than real time
/// (tests only: the workers' sleeps are shortened to match).
pub async fn start_scaled(
    settings: Settings,
    database: &str,
    referee: crate::referee::Config,
    clock: Arc<dyn Clock>,
    time_scale: f64,
) -> Result<Running, StartError> {
    let (referee, first_beat) = open_and_resume(&settings, database, referee, clock).await?;
    let intents = serenity::GatewayIntents::DIRECT_MESSAGES;
    let shards = settings.shards;
    let http = http(&settings)?;
    // The courier needs the client's Http, which exists only once the client is built;
    // the shared state is filled in right after.
    let slot: Arc<std::sync::OnceLock<Arc<Shared>>> = Arc::new(std::sync::OnceLock::new());
    let gate = Arc::new(Gate::default());
    let framework = Gated {
        inner: framework(settings.guild, slot.clone()),
        gate: gate.clone(),
    };
    let client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    let shared = new_shared(referee, settings, &client, time_scale, first_beat);
    let _ = slot.set(shared.clone());
    let shard_manager = client.shard_manager.clone();
    let (stop, stopped) = watch::channel(false);
    // Supervised: a worker that panics is logged and started again (referee::supervise).
    let (store, me) = (
        shared.referee.store().clone(),
        crate::store::default_instance(),
    );
    let (sh, st) = (shared.clone(), stopped.clone());
    let (sh2, st2) = (shared.clone(), stopped.clone());
    let (sh3, st3, sm) = (shared.clone(), stopped.clone(), shard_manager.clone());
    let sm1 = shard_manager.clone();
    // From here on, a Discord that answers nothing holds the deadlines (referee::outage).
    // Silence counts from now: a bot that starts against a silent Discord holds too.
    shared.referee.reach().watch_from(
        shared.settings.outage_after_ms(),
        shared.referee.clock().now(),
    );
    let workers = vec![
        supervise("deadlines", store.clone(), me.clone(), move || {
            deadline_worker(sh.clone(), sm1.clone(), st.clone())
        }),
        supervise("delivery", store.clone(), me.clone(), move || {
            delivery_worker(sh2.clone(), st2.clone())
        }),
        supervise("heartbeat", store, me, move || {
            heartbeat_worker(sh3.clone(), sm.clone(), st3.clone())
        }),
    ];
    tracing::info!(%shards, "connecting to the gateway");
    let client = spawn_client(client, shards, shared.clone(), stopped);
    Ok(Running {
        shared,
        shard_manager,
        client,
        workers,
        stop,
        gate,
    })
}

/// The bot's own downtime is an outage too: when every process was silent for longer
/// than `outage_after`, players could not reach the bot, so the deadlines that fell due
/// meanwhile are held until Discord answers, and then every open deadline moves on by
/// the downtime, each race told once (referee::outage).
async fn hold_after_downtime(referee: &Referee, outage_after: i64) {
    let last = match referee.store().last_alive().await {
        Ok(Some(last)) => last,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!("cannot tell how long the bot was down: {e}");
            return;
        }
    };
    let down = referee.clock().now().saturating_sub(last);
    if down > outage_after {
        tracing::warn!(
            down_secs = down / 1000,
            "the bot was down; deadlines are held until Discord answers, then move on by the downtime"
        );
        referee.reach().down_since(last, outage_after);
    }
}

/// Opens the database, reports a starting bot, and resumes every open race: a tick
/// handles the deadlines that passed while the bot was down, unless it was down longer
/// than an outage ([`hold_after_downtime`]).
async fn open_and_resume(
    settings: &Settings,
    database: &str,
    config: crate::referee::Config,
    clock: Arc<dyn Clock>,
) -> Result<(Arc<Referee>, Heartbeat), StartError> {
    let store = crate::store::open(database).await?;
    let started_at = chrono::Utc::now().timestamp_millis();
    let first_beat = Heartbeat {
        instance: crate::store::default_instance(),
        gateway: "connecting".into(),
        shards: settings.shards.to_string(),
        detail: String::new(),
        started_at,
        beat_at: started_at,
    };
    // Reported before anything else, so health sees a starting bot at once.
    if let Err(e) = store.heartbeat(&first_beat).await {
        tracing::warn!("cannot report the gateway state: {e}");
    }
    let referee = Arc::new(Referee::new(store.clone(), clock, config));
    hold_after_downtime(&referee, settings.outage_after_ms()).await;
    let open = crate::store::Store::open_campaigns(&*store).await?;
    let late = referee.tick().await?;
    tracing::info!(open = open.len(), handled = late, "resumed open races");
    Ok((referee, first_beat))
}

/// Poise's framework: the `/race` and `/photofinish` commands, the event handler, and a setup that
/// registers the commands (in `guild`, or globally) and waits for the shared state.
fn framework(
    guild: Option<u64>,
    slot: Arc<std::sync::OnceLock<Arc<Shared>>>,
) -> poise::Framework<Arc<Shared>, Error> {
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![
                commands::race(),
                commands::photofinish(),
                commands::menus::kick_member(),
                commands::menus::replace_member(),
            ],
            on_error: |e| Box::pin(commands::on_error(e)),
            command_check: Some(|ctx| Box::pin(commands::not_a_duplicate(ctx))),
            event_handler: |fw, event| {
                Box::pin(async move {
                    if matches!(
                        event,
                        serenity::FullEvent::Ready { .. }
                            | serenity::FullEvent::Resume { .. }
                            | serenity::FullEvent::ShardStageUpdate { .. }
                    ) {
                        fw.user_data.gateway.notify_one();
                    }
                    if let serenity::FullEvent::Ready { .. } = event {
                        // A new session, not resumed: DMs written meanwhile were never
                        // sent to us (missed.rs).
                        let (ctx, shared) = (fw.serenity_context.clone(), fw.user_data.clone());
                        tokio::spawn(missed::catch_up(ctx, shared));
                    }
                    let result = handlers::event(fw, event).await;
                    if let serenity::FullEvent::Message { new_message: m } = event
                        && m.guild_id.is_none()
                        && !m.author.bot
                    {
                        missed::seen(fw.user_data, m.author.id.get(), m.id.get()).await;
                    }
                    result
                })
            },
            initialize_owners: false,
            // poise's own answers (a server's command in a DM) ping nobody either.
            allowed_mentions: Some(dress::no_mentions()),
            ..Default::default()
        })
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(bot = %ready.user.name, "connected to Discord");
                let commands = &framework.options().commands;
                let registered = match guild {
                    Some(g) => {
                        poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(g))
                            .await
                    }
                    None => poise::builtins::register_globally(ctx, commands).await,
                };
                if let Err(e) = registered {
                    // The bot still answers commands registered earlier.
                    tracing::error!("registering the slash commands failed: {e}");
                }
                loop {
                    if let Some(shared) = slot.get() {
                        return Ok(shared.clone());
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
        })
        .build()
}

/// What every handler shares, once the client (and so its Http) exists.
fn new_shared(
    referee: Arc<Referee>,
    settings: Settings,
    client: &serenity::Client,
    time_scale: f64,
    first_beat: Heartbeat,
) -> Arc<Shared> {
    let shards = settings.shards;
    let zone = settings.time_zone;
    // The courier reads the store for the final post's extras and to close
    // resolved steps' DM prompts.
    let courier = DiscordCourier::new(client.http.clone(), zone)
        .with_store(referee.store().clone())
        .with_referee(referee.clone())
        .with_animation(settings.animation)
        .with_probe_timeout(courier::PROBE_TIMEOUT.min(settings.rest_timeout));
    Arc::new(Shared {
        referee,
        courier: Arc::new(courier),
        settings,
        deadlines: Notify::new(),
        delivery: Notify::new(),
        seen: Mutex::new(Seen::default()),
        gateway: Notify::new(),
        time_scale: if time_scale.is_finite() && time_scale >= 1.0 {
            time_scale
        } else {
            1.0
        },
        shard_total: Mutex::new(match shards {
            Shards::Range { total, .. } => Some(total),
            Shards::Auto => None,
        }),
        beat: Mutex::new(first_beat),
        start_trouble: Mutex::new(None),
    })
}

/// The gateway address serenity takes when its `GET /gateway` at the client's build got
/// no answer: Discord's public one.
const FALLBACK_GATEWAY: &str = "wss://gateway.discord.gg";
/// The first wait before a start-up request to Discord is asked again; it doubles up to
/// [`START_RETRY_MAX`].
const START_RETRY_FIRST: Duration = Duration::from_secs(1);
const START_RETRY_MAX: Duration = Duration::from_secs(60);

/// Connects the shards this process was given (asking Discord how many when `auto`).
/// What the start needs of Discord's REST API is asked until it answers, the cause
/// reported for `health` meanwhile; the workers run already, so deadlines that fall due
/// while Discord is silent are held as in an outage.
fn spawn_client(
    mut client: serenity::Client,
    shards: Shards,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<bool>,
) -> JoinHandle<Result<(), serenity::Error>> {
    tokio::spawn(async move {
        // serenity asked for the gateway's address while the client was built; with no
        // answer it took Discord's public one, which a REST proxy (or a fake Discord) may
        // not serve: asked again, until answered.
        let fell_back = *client.ws_url.lock().await == FALLBACK_GATEWAY;
        if fell_back && shared.settings.rest_proxy.is_some() {
            let asked = ask_until_answered(
                &shared,
                &mut stopped,
                ("get_gateway", "the gateway's address"),
                || client.http.get_gateway(),
            )
            .await;
            let Some(gateway) = asked else {
                return Ok(());
            };
            *client.ws_url.lock().await = gateway.url;
        }
        let ended = match shards {
            // serenity's range is inclusive of its end, despite the `Range` type.
            Shards::Range { first, last, total } => {
                client.start_shard_range(first..last, total).await
            }
            Shards::Auto => {
                let asked = ask_until_answered(
                    &shared,
                    &mut stopped,
                    ("get_bot_gateway", "the shard count"),
                    || client.http.get_bot_gateway(),
                )
                .await;
                let Some(gateway) = asked else {
                    return Ok(());
                };
                let total = gateway.shards.max(1);
                if let Ok(mut t) = shared.shard_total.lock() {
                    *t = Some(total);
                }
                shared.gateway.notify_one();
                client.start_shards(total).await
            }
        };
        if let Err(e) = &ended {
            tracing::error!("{}", gateway_failure(e));
        }
        ended
    })
}

/// Asks Discord `what` (the REST call `op`) until it answers or the bot is stopped
/// (`None`): 1 s between tries, doubling to a minute. Meanwhile the cause is the
/// gateway's detail in the report.
async fn ask_until_answered<T, F, A>(
    shared: &Shared,
    stop: &mut watch::Receiver<bool>,
    (op, what): (&'static str, &str),
    mut ask: A,
) -> Option<T>
where
    A: FnMut() -> F,
    F: std::future::Future<Output = Result<T, serenity::Error>>,
{
    let mut wait = START_RETRY_FIRST;
    loop {
        match rest::timed(op, ask()).await {
            Ok(answer) => {
                set_start_trouble(shared, None);
                return Some(answer);
            }
            Err(e) => {
                let why = if rest::timed_out(&e) {
                    format!(
                        "Discord did not answer when asked for {what} (no answer within {} s); asking again in {} s",
                        shared.settings.rest_timeout.as_secs_f64(),
                        wait.as_secs()
                    )
                } else {
                    format!(
                        "cannot ask Discord for {what}: {}; asking again in {} s",
                        rest::cause(&e),
                        wait.as_secs()
                    )
                };
                tracing::warn!("{why}");
                set_start_trouble(shared, Some(why));
            }
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return None,
        }
        if *stop.borrow() {
            return None;
        }
        wait = wait.saturating_mul(2).min(START_RETRY_MAX);
    }
}

/// Records why the start waits (or that it no longer does) and wakes the heartbeat.
fn set_start_trouble(shared: &Shared, trouble: Option<String>) {
    if let Ok(mut t) = shared.start_trouble.lock() {
        *t = trouble;
    }
    shared.gateway.notify_one();
}

/// The operator's line for why the gateway gave up: Discord's close codes that no
/// reconnection can fix, in words that say what to change.
pub fn gateway_failure(error: &serenity::Error) -> String {
    use serenity::GatewayError as G;
    match error {
        serenity::Error::Gateway(G::DisallowedGatewayIntents) => "Discord closed the gateway with 4014 (disallowed intents): the bot asked for a privileged intent that is not enabled for it. It needs only Direct Messages; check the application's Bot page (Privileged Gateway Intents) in Discord's Developer Portal, then start the bot again.".into(),
        serenity::Error::Gateway(G::InvalidGatewayIntents) => "Discord closed the gateway with 4013 (invalid intents): this build asks for intents Discord does not know; update the bot.".into(),
        serenity::Error::Gateway(G::InvalidAuthentication) => "Discord closed the gateway with 4004 (authentication failed): the bot's token was refused; set a valid token in the configuration.".into(),
        other => format!("the gateway connection ended: {other}"),
    }
}

/// `photofinish run`: starts the bot on the given clock and runs until stopped.
pub async fn run(
    settings: Settings,
    database: &str,
    referee: crate::referee::Config,
    clock: Arc<dyn Clock>,
    time_scale: f64,
) -> Result<(), StartError> {
    // Listened for from the start: a signal while starting stops the bot once started.
    let signals = Signals::new();
    let running = start_scaled(settings, database, referee, clock, time_scale).await?;
    running.wait_for(signals).await
}

/// Writes this process's report (the wall clock's time: health compares it with its own).
async fn report(shared: &Shared, gateway: &str, detail: String) {
    let beat = {
        let Ok(mut beat) = shared.beat.lock() else {
            return;
        };
        beat.gateway = gateway.to_string();
        beat.detail = detail;
        beat.beat_at = chrono::Utc::now().timestamp_millis();
        if let Ok(total) = shared.shard_total.lock()
            && let (Shards::Auto, Some(total)) = (shared.settings.shards, *total)
        {
            beat.shards = format!("0-{} of {total} (auto)", total.saturating_sub(1));
        }
        beat.clone()
    };
    if let Err(e) = shared.referee.store().heartbeat(&beat).await {
        tracing::warn!("cannot report the gateway state: {e}");
    }
}

/// Reports the gateway's state on every change (looked at each second, and at once on a
/// gateway event) and every [`HEARTBEAT_SECS`] seconds.
async fn heartbeat_worker(
    shared: Arc<Shared>,
    manager: Arc<serenity::ShardManager>,
    mut stop: watch::Receiver<bool>,
) {
    let every = Duration::from_secs(HEARTBEAT_SECS);
    let mut last: Option<(&'static str, String)> = None;
    let mut last_at = tokio::time::Instant::now();
    let mut ever_connected = false;
    loop {
        let expected: Vec<u32> = match (shared.settings.shards, shared.shard_total.lock()) {
            (Shards::Range { first, last, .. }, _) => (first..=last).collect(),
            (Shards::Auto, Ok(total)) => total.map(|t| (0..t).collect()).unwrap_or_default(),
            (Shards::Auto, Err(_)) => Vec::new(),
        };
        let stages: std::collections::HashMap<u32, serenity::ConnectionStage> = manager
            .runners
            .lock()
            .await
            .iter()
            .map(|(id, info)| (id.0, info.stage))
            .collect();
        let mut now = gateway_state(&expected, &stages, ever_connected);
        if now.0 != "connected"
            && let Ok(trouble) = shared.start_trouble.lock()
            && let Some(why) = trouble.as_ref()
        {
            now.1.clone_from(why);
        }
        ever_connected |= now.0 == "connected";
        if last.as_ref() != Some(&now) || last_at.elapsed() >= every {
            if last.as_ref().map(|l| l.0) != Some(now.0) {
                tracing::info!(gateway = now.0, detail = %now.1, "gateway state");
            }
            report(&shared, now.0, now.1.clone()).await;
            last = Some(now);
            last_at = tokio::time::Instant::now();
        }
        tokio::select! {
            () = shared.gateway.notified() => {
                // Let serenity record the stage the event announced.
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            () = tokio::time::sleep(GATEWAY_POLL) => {}
            _ = stop.changed() => return,
        }
        if *stop.borrow() {
            return;
        }
    }
}

/// Tells the referee whether Discord answers, before a tick: a shard connected, or else a
/// cheap REST call (`GET /users/@me`) answered, is a sign of life (referee::outage).
async fn sense_reach(shared: &Shared, manager: &serenity::ShardManager) {
    let connected = manager
        .runners
        .lock()
        .await
        .values()
        .any(|info| info.stage == serenity::ConnectionStage::Connected);
    let answered = connected || shared.courier.probe().await;
    if answered {
        let now = shared.referee.clock().now();
        shared.referee.reach().contact(now);
    }
}

async fn deadline_worker(
    shared: Arc<Shared>,
    manager: Arc<serenity::ShardManager>,
    mut stop: watch::Receiver<bool>,
) {
    let referee = shared.referee.clone();
    let mut backoff = Backoff::new("deadlines", crate::store::default_instance());
    loop {
        sense_reach(&shared, &manager).await;
        let wait_ms = referee.deadline_pass(&mut backoff, DEADLINE_POLL_MS).await;
        // Held by an outage: look again soon, not at the overdue deadline.
        let wait_ms = if referee.reach().held() && !backoff.failing() {
            OUTAGE_POLL_MS
        } else {
            wait_ms
        };
        shared.delivery.notify_one();
        let poke = (!backoff.failing()).then_some(&shared.deadlines);
        if pause(real_time(wait_ms, &shared), poke, &mut stop).await {
            return;
        }
    }
}

/// A wait on the referee's clock in real time: a test's fast clock gets there sooner.
fn real_time(ms: i64, shared: &Shared) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0)).div_f64(shared.time_scale)
}

/// Waits `wait`, or until `poke` (if any) is notified; true when the worker is told to
/// stop. A failing worker passes no poke: a poke must not cut a back-off short, which is
/// how a failing tick spun.
async fn pause(wait: Duration, poke: Option<&Notify>, stop: &mut watch::Receiver<bool>) -> bool {
    match poke {
        Some(poke) => tokio::select! {
            () = poke.notified() => {}
            () = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return true,
        },
        None => tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return true,
        },
    }
    *stop.borrow()
}

async fn delivery_worker(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    let referee = shared.referee.clone();
    let courier = shared.courier.clone();
    let mut backoff = Backoff::new("delivery", crate::store::default_instance());
    loop {
        // Deliver until nothing ready is left (a closed DM queues a channel notice, a
        // deleted status message is posted again), within reason.
        let mut trouble = None;
        for _ in 0..20 {
            if *stop.borrow() {
                return;
            }
            if let Err(e) = referee.deliver(&*courier).await {
                trouble = Some(e.operator_detail());
                break;
            }
            let now = referee.clock().now();
            match referee.store().outbox_ready(now, 1).await {
                Ok(rows) if rows.is_empty() => break,
                Ok(_) => continue,
                Err(e) => {
                    trouble = Some(format!("cannot read the outbox: {e}"));
                    break;
                }
            }
        }
        // Discord refusing the bot itself fails the work as a full disk does.
        let trouble = trouble.or_else(|| referee.delivery_refused());
        let (wait, poke) = match referee.after_pass(&mut backoff, trouble).await {
            Some(wait_ms) => (real_time(wait_ms, &shared), None),
            None => (DELIVERY_POLL, Some(&shared.delivery)),
        };
        if pause(wait, poke, &mut stop).await {
            return;
        }
    }
}
