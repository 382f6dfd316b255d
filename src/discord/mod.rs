//! The Discord adapter: a thin serenity/poise shell around the [`Referee`].
//!
//! It owns the slash commands ([`commands`]), buttons, menus and DM replies
//! ([`handlers`]), the outbox's way to Discord ([`courier`]), Discord's limits
//! ([`layout`]), and the two workers that keep a race moving: deadlines (`tick`, then sleep
//! until `next_due`, woken early when a request changes things) and delivery (`deliver`,
//! woken after every referee call). Nothing here decides a rule or writes game text: the
//! referee decides, `render::post` words it, this module dresses and sends it.
//!
//! [`start`] runs it all and hands back a [`Running`] bot that tests can wake and stop;
//! [`run`] is `photofinish run`.

pub mod commands;
pub mod config;
pub mod courier;
pub mod dress;
pub mod handlers;
pub mod layout;

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use thiserror::Error;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use crate::referee::{Clock, Referee, RefereeError};
use crate::store::sqlite::Durability;
use crate::store::{SqliteStore, StoreError};
pub use config::{Settings, Token};
use courier::DiscordCourier;

/// What poise's handlers return when something other than a referee refusal fails.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// A slash command's context.
pub type Ctx<'a> = poise::Context<'a, Arc<Shared>, Error>;

/// How many interaction and message ids are remembered to drop duplicates.
const SEEN_CAP: usize = 8192;
/// How often the delivery worker looks for retries that came due, without a wake-up.
const DELIVERY_POLL: Duration = Duration::from_secs(2);
/// The longest the deadline worker sleeps without looking at the clock again.
const DEADLINE_POLL_MS: i64 = 60_000;

/// Ids already handled (interactions, DM messages): a duplicate gateway event is dropped.
#[derive(Default)]
struct Seen {
    set: HashSet<u64>,
    order: VecDeque<u64>,
}

/// What every handler shares.
pub struct Shared {
    pub referee: Arc<Referee>,
    pub settings: Settings,
    pub courier: Arc<DiscordCourier>,
    deadlines: Notify,
    delivery: Notify,
    seen: Mutex<Seen>,
}

impl Shared {
    /// Wakes both workers: something may be due or queued.
    pub fn poke(&self) {
        self.deadlines.notify_one();
        self.delivery.notify_one();
    }

    /// True the first time an id is seen; false for a duplicate.
    pub fn first_time(&self, id: u64) -> bool {
        let Ok(mut seen) = self.seen.lock() else {
            return true;
        };
        if !seen.set.insert(id) {
            return false;
        }
        seen.order.push_back(id);
        if seen.order.len() > SEEN_CAP
            && let Some(old) = seen.order.pop_front()
        {
            seen.set.remove(&old);
        }
        true
    }
}

/// Why the bot could not start.
#[derive(Debug, Error)]
pub enum StartError {
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Referee(#[from] RefereeError),
    #[error("cannot connect to Discord: {0}")]
    Discord(#[from] serenity::Error),
}

/// A running bot.
pub struct Running {
    shared: Arc<Shared>,
    shard_manager: Arc<serenity::ShardManager>,
    client: JoinHandle<Result<(), serenity::Error>>,
    workers: Vec<JoinHandle<()>>,
    stop: watch::Sender<bool>,
}

impl Running {
    pub fn referee(&self) -> Arc<Referee> {
        self.shared.referee.clone()
    }

    /// Wakes the workers now (tests call this after moving a test clock).
    pub fn wake(&self) {
        self.shared.poke();
    }

    /// Disconnects from the gateway and stops the workers.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        self.shard_manager.shutdown_all().await;
        for w in self.workers {
            let _ = w.await;
        }
        let _ = self.client.await;
        tracing::info!("stopped");
    }

    /// Runs until the gateway connection ends for good, or Ctrl-C.
    pub async fn wait(mut self) -> Result<(), StartError> {
        let outcome = tokio::select! {
            r = &mut self.client => match r {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(StartError::Discord(e)),
                Err(e) => Err(StartError::Referee(RefereeError::Invalid(e.to_string()))),
            },
            _ = tokio::signal::ctrl_c() => {
                tracing::info!("Ctrl-C: shutting down");
                Ok(())
            }
        };
        let _ = self.stop.send(true);
        self.shard_manager.shutdown_all().await;
        for w in self.workers {
            let _ = w.await;
        }
        outcome
    }
}

/// Builds serenity's HTTP client: straight to Discord with serenity's rate limiter, or
/// through `rest_proxy` (which then does the rate limiting).
pub fn http(settings: &Settings) -> serenity::Http {
    let builder = serenity::HttpBuilder::new(settings.token.expose());
    match &settings.rest_proxy {
        Some(proxy) => builder.proxy(proxy.clone()).ratelimiter_disabled(true),
        None => builder,
    }
    .build()
}

/// Opens the database, resumes every open race (a tick handles deadlines that passed while
/// the bot was down, announced as late), registers the slash commands, connects, and
/// starts the deadline and delivery workers.
pub async fn start(settings: Settings, clock: Arc<dyn Clock>) -> Result<Running, StartError> {
    let store = Arc::new(SqliteStore::open(&settings.database, Durability::Full).await?);
    let referee = Arc::new(Referee::new(
        store.clone(),
        clock,
        settings.referee_config(),
    ));
    let open = crate::store::Store::open_campaigns(&*store).await?;
    let late = referee.tick().await?;
    tracing::info!(
        open = open.len(),
        handled = late,
        "resumed open races; deadlines that passed while down were handled"
    );

    let intents = serenity::GatewayIntents::DIRECT_MESSAGES;
    let http = http(&settings);
    let zone = settings.time_zone;
    let guild = settings.guild;
    // The courier needs the client's Http, which exists only once the client is built;
    // the shared state is filled in right after.
    let slot: Arc<std::sync::OnceLock<Arc<Shared>>> = Arc::new(std::sync::OnceLock::new());
    let setup_slot = slot.clone();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![commands::race()],
            on_error: |e| Box::pin(commands::on_error(e)),
            command_check: Some(|ctx| Box::pin(commands::not_a_duplicate(ctx))),
            event_handler: |fw, event| Box::pin(handlers::event(fw, event)),
            initialize_owners: false,
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
                    if let Some(shared) = setup_slot.get() {
                        return Ok(shared.clone());
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
        })
        .build();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    let shared = Arc::new(Shared {
        referee: referee.clone(),
        courier: Arc::new(DiscordCourier::new(client.http.clone(), zone)),
        settings,
        deadlines: Notify::new(),
        delivery: Notify::new(),
        seen: Mutex::new(Seen::default()),
    });
    let _ = slot.set(shared.clone());
    let shard_manager = client.shard_manager.clone();
    let (stop, stopped) = watch::channel(false);
    let workers = vec![
        tokio::spawn(deadline_worker(shared.clone(), stopped.clone())),
        tokio::spawn(delivery_worker(shared.clone(), stopped)),
    ];
    let client = tokio::spawn(async move { client.start().await });
    Ok(Running {
        shared,
        shard_manager,
        client,
        workers,
        stop,
    })
}

/// `photofinish run`: starts the bot on the system clock and runs until stopped.
pub async fn run(settings: Settings) -> Result<(), StartError> {
    let running = start(settings, Arc::new(crate::referee::SystemClock)).await?;
    running.wait().await
}

async fn deadline_worker(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    let referee = shared.referee.clone();
    loop {
        match referee.tick().await {
            Ok(0) => {}
            Ok(n) => {
                tracing::debug!(handled = n, "deadlines handled");
                shared.delivery.notify_one();
            }
            Err(e) => tracing::warn!("deadline tick failed: {e}"),
        }
        let wait_ms = match referee.next_due().await {
            Ok(Some(due)) => (due - referee.clock().now()).clamp(0, DEADLINE_POLL_MS),
            Ok(None) => DEADLINE_POLL_MS,
            Err(e) => {
                tracing::warn!("cannot read the next deadline: {e}");
                5_000
            }
        };
        let wait = Duration::from_millis(u64::try_from(wait_ms).unwrap_or(0));
        tokio::select! {
            _ = shared.deadlines.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return,
        }
        if *stop.borrow() {
            return;
        }
    }
}

async fn delivery_worker(shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    let referee = shared.referee.clone();
    let courier = shared.courier.clone();
    loop {
        // Deliver until nothing ready is left (a closed DM queues a channel notice, a
        // deleted status message is posted again), within reason.
        for _ in 0..20 {
            if *stop.borrow() {
                return;
            }
            if let Err(e) = referee.deliver(&*courier).await {
                tracing::warn!("delivery failed: {e}");
                break;
            }
            let now = referee.clock().now();
            match referee.store().outbox_ready(now, 1).await {
                Ok(rows) if rows.is_empty() => break,
                Ok(_) => continue,
                Err(e) => {
                    tracing::warn!("cannot read the outbox: {e}");
                    break;
                }
            }
        }
        tokio::select! {
            _ = shared.delivery.notified() => {}
            _ = tokio::time::sleep(DELIVERY_POLL) => {}
            _ = stop.changed() => return,
        }
    }
}
