//! The harness: a fake Discord, a database in a temporary folder, a test clock, and the
//! real bot connected to the fake.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{FakeDiscord, PATIENCE, User, text_of};

/// A fake Discord, a database in a temporary folder, a test clock, and the bot.
pub struct Harness {
    pub fake: FakeDiscord,
    pub clock: Arc<photofinish::referee::TestClock>,
    pub bot: Option<photofinish::discord::Running>,
    pub dir: tempfile::TempDir,
    /// The bot's quotas, when a test sets them (else the fake's settings).
    pub limits: Option<photofinish::referee::Limits>,
    /// Keep the bot's real default grace window (else the fake's settings: none).
    pub real_grace: bool,
    /// The bot's REST timeout, when a test shortens it (else the bot's default).
    pub rest_timeout: Option<Duration>,
}

/// The channel races run in.
pub const CHANNEL: u64 = 600_000_000_000_000_001;

impl Harness {
    pub async fn start() -> Harness {
        Harness::start_with_limits(None).await
    }

    /// A harness whose bot runs with these quotas and rate limits.
    pub async fn start_with_limits(limits: Option<photofinish::referee::Limits>) -> Harness {
        Harness::start_with(limits, false).await
    }

    /// A harness whose bot keeps its real default grace window (`grace=`, 2 minutes).
    pub async fn start_with_real_grace() -> Harness {
        Harness::start_with(None, true).await
    }

    /// A harness whose bot gives each REST request `timeout` in all (the default is a
    /// minute): tests of a Discord that never answers.
    pub async fn start_with_rest_timeout(timeout: Duration) -> Harness {
        let mut h = Harness::unstarted(None, false).await;
        h.rest_timeout = Some(timeout);
        h.start_bot().await;
        h
    }

    async fn start_with(limits: Option<photofinish::referee::Limits>, real_grace: bool) -> Harness {
        let mut h = Harness::unstarted(limits, real_grace).await;
        h.start_bot().await;
        h
    }

    async fn unstarted(limits: Option<photofinish::referee::Limits>, real_grace: bool) -> Harness {
        // RUST_LOG=debug shows what the bot does.
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(photofinish::referee::TestClock::at_epoch());
        let follow = clock.clone();
        fake.follow_clock(move || follow.now_ms());
        Harness {
            fake,
            clock,
            bot: None,
            dir,
            limits,
            real_grace,
            rest_timeout: None,
        }
    }

    pub fn db(&self) -> std::path::PathBuf {
        self.dir.path().join("races.db")
    }

    pub async fn start_bot(&mut self) {
        let before = self.fake.identifies();
        self.launch_bot().await;
        self.fake
            .until("the bot to connect", |i| {
                (i.identifies > before && i.gateway.is_some()).then_some(())
            })
            .await;
        self.fake.wait_ready().await;
    }

    /// Starts the bot without waiting for it to connect. A start that does not return
    /// within [`PATIENCE`] fails the test (it would hang it otherwise).
    pub async fn launch_bot(&mut self) {
        let mut settings = self.fake.settings(&self.db());
        if let Some(limits) = &self.limits {
            settings.referee.limits = limits.clone();
        }
        if self.real_grace {
            settings.referee.default_timing.calendar.grace_secs = None;
        }
        if let Some(timeout) = self.rest_timeout {
            settings.discord.rest_timeout = timeout;
        }
        let Ok(started) = tokio::time::timeout(
            PATIENCE,
            photofinish::discord::start(
                settings.discord,
                &settings.database,
                settings.referee,
                self.clock.clone(),
            ),
        )
        .await
        else {
            panic!("the bot did not start within {PATIENCE:?}");
        };
        self.bot = Some(started.unwrap());
    }

    /// Waits until the bot is connected to the fake and has registered its commands.
    pub async fn wait_connected(&self, identifies_before: usize) {
        self.fake
            .until("the bot to connect", |i| {
                (i.identifies > identifies_before && i.gateway.is_some()).then_some(())
            })
            .await;
        self.fake.wait_ready().await;
    }

    pub async fn stop_bot(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.stop().await;
        }
        self.fake.shared.inner.lock().unwrap().gateway = None;
    }

    pub fn referee(&self) -> Arc<photofinish::referee::Referee> {
        self.bot.as_ref().unwrap().referee()
    }

    /// Moves the test clock and wakes the bot's workers.
    pub fn advance(&self, secs: i64) {
        self.clock.advance_secs(secs);
        if let Some(bot) = &self.bot {
            bot.wake();
        }
    }

    /// Waits until the bot is done with what it has to do now: no deadline due on the
    /// test clock, nothing due in its outbox (each announcement delivered, failed, or
    /// waiting for a retry's backoff), and no request to the fake for a moment. The first
    /// two cover a slow machine: work between two requests (drawing a picture, say) keeps
    /// an announcement due, however long the pause.
    pub async fn settle(&self) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            self.fake.settle(Duration::from_millis(300)).await;
            if self.bot.is_none() || self.idle().await || Instant::now() > deadline {
                return;
            }
        }
    }

    /// No deadline and no announcement due now.
    async fn idle(&self) -> bool {
        let now = self.clock.now_ms();
        let deadlines = self.referee().store().due_deadlines(now, 1).await;
        deadlines.is_ok_and(|d| d.is_empty()) && self.outbox_due(now).await == Some(0)
    }

    /// Announcements due at `now` and not yet delivered, in flight or not (the store's own
    /// queries leave out those a delivery holds, so this one reads the table).
    async fn outbox_due(&self, now: i64) -> Option<i64> {
        use sqlx::Connection;
        let url = format!("sqlite://{}", self.db().display());
        let mut c = sqlx::sqlite::SqliteConnection::connect(&url).await.ok()?;
        let n = sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM outbox \
             WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= ?",
        )
        .bind(now)
        .fetch_one(&mut c)
        .await
        .ok();
        let _ = c.close().await;
        n
    }

    /// Runs a slash command and returns the answer.
    pub async fn slash(&self, user: &User, sub: &str, options: &[(&str, Value)]) -> Value {
        let id = self.fake.slash(user, CHANNEL, sub, options);
        self.fake.response(id).await
    }

    /// Presses a button and returns the answer.
    pub async fn click(&self, user: &User, message: &Value, custom_id: &str) -> Value {
        let id = self.fake.click(user, message, custom_id);
        self.fake.response(id).await
    }

    /// Opens a lobby of `game` in CHANNEL with `options`, seats `host` and `others`, and
    /// adds `bots` bots.
    pub async fn open_lobby(
        &self,
        game: &str,
        options: &str,
        host: &User,
        others: &[&User],
        bots: u8,
    ) {
        let a = self
            .slash(
                host,
                "new",
                &[("game", json!(game)), ("options", json!(options))],
            )
            .await;
        assert!(text_of(&a).contains("is open"), "{a}");
        for u in std::iter::once(host).chain(others.iter().copied()) {
            let a = self.slash(u, "join", &[]).await;
            assert!(text_of(&a).contains("You're in"), "{a}");
        }
        if bots > 0 {
            let a = self.slash(host, "bots", &[("count", json!(bots))]).await;
            assert!(text_of(&a).contains("Bots added"), "{a}");
        }
    }

    /// [`Harness::open_lobby`] without bots, then started; returns once every seat has
    /// its first prompt.
    pub async fn open_race(&self, game: &str, options: &str, host: &User, others: &[&User]) {
        self.open_lobby(game, options, host, others, 0).await;
        let a = self.slash(host, "start", &[]).await;
        assert!(text_of(&a).contains("is off"), "{a}");
        for u in std::iter::once(host).chain(others.iter().copied()) {
            self.fake.wait_dm(u.id, 2).await;
        }
        self.settle().await;
    }
}
