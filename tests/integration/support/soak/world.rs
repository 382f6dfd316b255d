//! The soak's world: the fake Discord, a database of either backend, the test clock and
//! the real bot, driven through simulated days. Races of every game run side by side in
//! their own channels; each human seat answers at once, late, in bursts or never, and
//! hosts kick or hand over seats ([`super::seats`]); faults
//! come on a seeded schedule ([`super::faults`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use photofinish::referee::TestClock;
use photofinish::store::Store;
use photofinish::vocab::{CampaignId, Millis, Phase, UserId};
use serde_json::json;

use crate::support::backend::{Arg, Db, Kind, Raw};
use crate::support::discord::{CHANNEL, FakeDiscord, PATIENCE, User, text_of};

/// The games, in turn, with options that keep a race to a day or two.
/// The soak's bots give up on a request after this long (60 s in production), so a
/// request that is never answered costs the soak seconds, not minutes.
const REST_TIMEOUT: Duration = Duration::from_secs(5);

pub const GAMES: [(&str, &str); 5] = [
    ("dream-mile", ""),
    ("1500m", ""),
    ("mille-bornes", "rounds=1"),
    ("1000-yards", ""),
    ("magical-athlete", ""),
];

/// How a human seat answers its prompts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Habit {
    /// At the next look.
    Prompt,
    /// Some looks later.
    Late,
    /// Several different orders at once (each change supersedes the last).
    Burst,
    /// Never: the deadline plays the default.
    Never,
}

/// A small seeded generator (splitmix64): the schedule is the same for the same seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = u64::try_from(hi - lo + 1).unwrap().max(1);
        lo + i64::try_from(self.next() % span).unwrap()
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One race of the soak.
pub struct Race {
    pub id: CampaignId,
    pub channel: u64,
    pub game: &'static str,
    pub humans: Vec<(User, Habit)>,
    /// A human's late answer waits this many looks.
    pub waits: BTreeMap<u64, u32>,
}

/// The world.
pub struct World {
    pub fake: FakeDiscord,
    pub clock: Arc<TestClock>,
    pub db: Db,
    pub bot: Option<photofinish::discord::Running>,
    /// A second process on the same shard and database, for an hour now and then
    /// ([`World::start_twin`]).
    pub twin: Option<photofinish::discord::Running>,
    /// Every DM the humans sent: its message id.
    pub dms: Vec<u64>,
    pub races: Vec<Race>,
    /// The humans' choices.
    pub rng: Rng,
    /// The fault schedule: a generator of its own, so that which fault comes at which look
    /// does not depend on how the races went (their dice come from the bot's own seeds).
    pub faults: Rng,
    next_user: u64,
    /// Looks left during which the bot may be sleeping before a retry of its own (a DM's
    /// receipt after a lost answer waits 1 s, then 2 s, in real time): [`World::settle`]
    /// waits out such a pause, lest the test clock jump half an hour inside it.
    pub careful: std::sync::atomic::AtomicU32,
    /// Requests are being left unanswered: the bot waits out [`REST_TIMEOUT`] on each
    /// before it tries again, so [`World::settle`] waits longer than that for quiet.
    pub hanging: std::sync::atomic::AtomicBool,
    /// Seats the hosts took from their players mid-race ([`super::seats`]).
    pub changes: Vec<super::seats::Change>,
    /// Members who joined a lobby and left it before the start.
    pub leavers: Vec<UserId>,
    /// Answers the schedule told the fake to lose, in all.
    pub lost_told: std::sync::atomic::AtomicUsize,
    /// Claiming deadlines fails for now (a full disk): a due deadline is not the bot's to
    /// settle.
    pub claims_failing: std::sync::atomic::AtomicBool,
    /// A connection of its own, to see what the bot has still to do (once the bot made the
    /// database).
    probe: Option<Raw>,
}

impl World {
    pub async fn new(kind: Kind, seed: u64) -> World {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
        let fake = FakeDiscord::start().await;
        let clock = Arc::new(TestClock::at_epoch());
        let follow = clock.clone();
        fake.follow_clock(move || follow.now_ms());
        let db = Db::new(kind).await;
        let mut w = World {
            fake,
            clock,
            db,
            bot: None,
            twin: None,
            dms: Vec::new(),
            races: Vec::new(),
            rng: Rng::new(seed),
            faults: Rng::new(seed ^ 0x5EED_FA17),
            next_user: 10_000,
            probe: None,
            careful: std::sync::atomic::AtomicU32::new(0),
            hanging: std::sync::atomic::AtomicBool::new(false),
            lost_told: std::sync::atomic::AtomicUsize::new(0),
            claims_failing: std::sync::atomic::AtomicBool::new(false),
            changes: Vec::new(),
            leavers: Vec::new(),
        };
        w.start_bot().await;
        w
    }

    pub fn now(&self) -> Millis {
        self.clock.now_ms()
    }

    pub async fn start_bot(&mut self) {
        let mut settings = self.fake.settings(std::path::Path::new(&self.db.url));
        settings.database = self.db.url.clone();
        settings.discord.rest_timeout = REST_TIMEOUT;
        let before = self.fake.identifies();
        let bot = photofinish::discord::start(
            settings.discord,
            &settings.database,
            settings.referee,
            self.clock.clone(),
        )
        .await
        .unwrap();
        self.bot = Some(bot);
        if self.probe.is_none() {
            self.probe = Some(self.db.raw().await);
        }
        self.fake.wait_reconnected(usize::MAX, before + 1).await;
        self.fake.wait_ready().await;
    }

    /// A second process on the same shard, database and clock, as during a rolling
    /// deploy: both get every gateway event (the fake shares the shard), both run their
    /// workers; the store's claims must keep each event and each step to one of them.
    pub async fn start_twin(&mut self) {
        let mut settings = self.fake.settings(std::path::Path::new(&self.db.url));
        settings.database = self.db.url.clone();
        settings.discord.rest_timeout = REST_TIMEOUT;
        let before = self.fake.identifies();
        self.fake.share_shard(true);
        let twin = photofinish::discord::start(
            settings.discord,
            &settings.database,
            settings.referee,
            self.clock.clone(),
        )
        .await
        .unwrap();
        self.twin = Some(twin);
        self.fake.wait_reconnected(usize::MAX, before + 1).await;
        self.fake.wait_ready().await;
    }

    /// The second process stops (the end of the deploy); the first keeps the shard.
    pub async fn stop_twin(&mut self) {
        if let Some(twin) = self.twin.take() {
            twin.stop().await;
        }
        self.fake.share_shard(false);
    }

    /// Waits (in real time, up to [`PATIENCE`]) until the bot reports its gateway other
    /// than connected: after [`FakeDiscord::gateway_down`], before the test clock jumps, so
    /// that the bot sees the outage as a Discord client would within seconds of it, and
    /// not half an hour of test clock later. False if it never does.
    pub async fn wait_gateway_lost(&self) -> bool {
        let Some(bot) = &self.bot else { return true };
        let store = bot.referee().store().clone();
        let until = Instant::now() + PATIENCE;
        while Instant::now() < until {
            if store
                .heartbeats()
                .await
                .is_ok_and(|b| b.iter().all(|h| h.gateway != "connected"))
            {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    }

    /// Stops the bot where it stands (its workers finish the step they are in).
    pub async fn kill_bot(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.stop().await;
        }
    }

    pub fn store(&self) -> Arc<dyn Store> {
        self.bot.as_ref().unwrap().referee().store().clone()
    }

    pub async fn raw(&self) -> Raw {
        self.db.raw().await
    }

    /// Moves the clock (as time that passed) and wakes the bot. The fake's clock moves as
    /// much, so that it forgets nonces after five minutes and expires interaction tokens
    /// after fifteen, as Discord does.
    pub fn advance(&self, secs: i64) {
        self.clock.advance_secs(secs);
        self.fake
            .advance(Duration::from_secs(u64::try_from(secs.max(0)).unwrap_or(0)));
        if let Some(bot) = &self.bot {
            bot.wake();
        }
        if let Some(twin) = &self.twin {
            twin.wake();
        }
    }

    /// Waits until the bot has nothing to do now: no deadline it could claim, no ready
    /// announcement (one a delivery holds included), and no request to the fake for a
    /// moment (bounded by [`PATIENCE`]).
    /// A quarantined race's deadlines are never claimed, and one that failed waits for its
    /// retry (`failures` counted, claim held to then): neither is work for now.
    pub async fn settle(&self) {
        let until = Instant::now() + PATIENCE;
        // A DM's answer garbled or lost is sent again a second or two later, in real
        // time: the clock must not move past Discord's nonce window meanwhile.
        let careful = self.careful.load(std::sync::atomic::Ordering::Relaxed) > 0
            || self.answers_still_to_lose()
            || self.fake.answers_to_garble() > 0;
        let hanging = self.hanging.load(std::sync::atomic::Ordering::Relaxed);
        let quiet = if hanging {
            // A timed-out request, the pause before the retry, and a margin.
            REST_TIMEOUT + Duration::from_secs(3)
        } else {
            Duration::from_millis(if careful { 2_500 } else { 150 })
        };
        loop {
            self.fake.settle(quiet).await;
            // A DM answer refused or lost is tried again a second or two later, in real
            // time, under the same nonce: the clock must not move past Discord's nonce
            // window before it lands or the bot gives up.
            while self.fake.dm_answers_in_flight() > 0 && Instant::now() < until {
                self.fake.settle(Duration::from_millis(250)).await;
            }
            let Some(bot) = &self.bot else { return };
            let now = self.now();
            let Some(probe) = &self.probe else { return };
            let claimable = probe
                .scalar(
                    "SELECT COUNT(*) FROM deadlines d WHERE fired_at IS NULL AND due_at <= ? \
                     AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.campaign_id = d.campaign_id) \
                     AND NOT (failures > 0 AND claim_until IS NOT NULL AND claim_until > ?)",
                    vec![Arg::I(now), Arg::I(now)],
                )
                .await;
            // Ready announcements, in flight or not: the store's own query leaves out a
            // race whose outbox a process holds, and moving the clock while one draws a
            // picture would run its lease out under it.
            let due = probe
                .scalar(
                    "SELECT COUNT(*) FROM outbox o \
                     WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= ? \
                     AND NOT EXISTS (SELECT 1 FROM outbox e \
                        WHERE e.campaign_id = o.campaign_id AND e.target = o.target \
                        AND e.id < o.id AND e.delivered_at IS NULL AND e.failed IS NULL \
                        AND e.not_before > ?) \
                     AND NOT EXISTS (SELECT 1 FROM outbox e JOIN campaigns ce ON ce.id = e.campaign_id \
                        WHERE e.delivered_at IS NULL AND e.failed IS NULL \
                        AND e.campaign_id < o.campaign_id \
                        AND ce.channel = (SELECT c.channel FROM campaigns c WHERE c.id = o.campaign_id))",
                    vec![Arg::I(now), Arg::I(now)],
                )
                .await;
            let claimable = if self
                .claims_failing
                .load(std::sync::atomic::Ordering::Relaxed)
            {
                0
            } else {
                claimable
            };
            let idle = claimable == 0 && due == 0;
            if idle {
                return;
            }
            if Instant::now() > until {
                // Not a failure by itself (the checker judges the outcome), but a sign.
                eprintln!(
                    "soak: the bot did not settle at {now} ms ({claimable} deadline(s) claimable)"
                );
                return;
            }
            bot.wake();
            if let Some(twin) = &self.twin {
                twin.wake();
            }
        }
    }

    /// True while some of the answers the schedule told the fake to lose are not yet lost
    /// (no post has come to take them).
    pub fn answers_still_to_lose(&self) -> bool {
        let told = self.lost_told.load(std::sync::atomic::Ordering::Relaxed);
        told > 0
            && self
                .fake
                .requests()
                .iter()
                .filter(|r| r.refused.as_deref() == Some("asked: answer lost"))
                .count()
                < told
    }

    pub fn user(&mut self, name: &str) -> User {
        self.next_user += 1;
        User::new(self.next_user, name)
    }

    /// Opens and starts a race of `game` in `channel`: two humans and one bot.
    pub async fn open_race(&mut self, n: usize, channel: u64) -> Option<CampaignId> {
        let (game, extra) = GAMES[n % GAMES.len()];
        let habits = [Habit::Prompt, Habit::Late, Habit::Burst, Habit::Never];
        let a = self.user(&format!("Host{n}"));
        let b = self.user(&format!("Guest{n}"));
        let humans = vec![
            (a.clone(), habits[n % 3]),
            (b.clone(), habits[(n / 3 + 1) % 4]),
        ];
        let options = format!("turn=1h reminders=30m {extra}");
        let answer = self
            .slash(
                &a,
                channel,
                "new",
                &[("game", json!(game)), ("options", json!(options))],
            )
            .await;
        assert!(text_of(&answer).contains("is open"), "{game}: {answer}");
        for u in [&a, &b] {
            let answer = self.slash(u, channel, "join", &[]).await;
            assert!(text_of(&answer).contains("You're in"), "{answer}");
        }
        // Every third lobby, someone joins and leaves again before the start.
        if n % 3 == 2 {
            self.join_and_leave(n, channel).await;
        }
        let answer = self
            .slash(&a, channel, "bots", &[("count", json!(1))])
            .await;
        assert!(text_of(&answer).contains("Bots added"), "{answer}");
        let answer = self.slash(&a, channel, "start", &[]).await;
        assert!(text_of(&answer).contains("is off"), "{game}: {answer}");
        let id = self
            .bot
            .as_ref()?
            .referee()
            .race_in(&channel.to_string())
            .await
            .ok()?;
        self.races.push(Race {
            id,
            channel,
            game,
            humans,
            waits: BTreeMap::new(),
        });
        Some(id)
    }

    pub async fn slash(
        &self,
        user: &User,
        channel: u64,
        sub: &str,
        options: &[(&str, serde_json::Value)],
    ) -> serde_json::Value {
        let id = self.fake.slash(user, channel, sub, options);
        self.fake.response(id).await
    }

    /// Humans act for a couple of rounds, the bot settling after each, so that a step
    /// answered opens the next. Returns the orders sent.
    pub async fn humans_rounds(&mut self) -> usize {
        let mut sent = 0;
        for _ in 0..2 {
            let n = self.humans_act().await;
            sent += n;
            if n == 0 {
                break;
            }
            self.settle().await;
        }
        sent
    }

    /// Each human whose turn it is acts by its habit. Returns the orders sent.
    pub async fn humans_act(&mut self) -> usize {
        let planned = self.humans_plan().await;
        self.send_dms(&planned)
    }

    /// Sends DMs the humans planned; returns how many.
    pub fn send_dms(&mut self, planned: &[(User, String)]) -> usize {
        for (user, text) in planned {
            let id = self.fake.dm(user, text);
            self.dms.push(id);
        }
        planned.len()
    }

    /// The DMs each human whose turn it is would send now, by its habit.
    pub async fn humans_plan(&mut self) -> Vec<(User, String)> {
        let Some(bot) = &self.bot else {
            return Vec::new();
        };
        let referee = bot.referee();
        let mut sent = Vec::new();
        for r in 0..self.races.len() {
            let id = self.races[r].id;
            for h in 0..self.races[r].humans.len() {
                let (user, habit) = self.races[r].humans[h].clone();
                let Ok(open) = referee
                    .open_prompt(id, &UserId::new(user.id.to_string()))
                    .await
                else {
                    continue;
                };
                let choices = &open.prompt.choices;
                if choices.is_empty() {
                    continue;
                }
                let wait = self.races[r].waits.entry(user.id).or_insert(0);
                let orders = match habit {
                    Habit::Never => 0,
                    Habit::Prompt => 1,
                    Habit::Burst => 3,
                    Habit::Late => {
                        *wait += 1;
                        if *wait < 2 {
                            0
                        } else {
                            *wait = 0;
                            1
                        }
                    }
                };
                for k in 0..orders {
                    let pick = usize::try_from(self.rng.next()).unwrap_or(k) % choices.len();
                    sent.push((user.clone(), choices[pick].order.clone()));
                }
            }
        }
        sent
    }

    /// Races not yet ended (nor quarantined).
    pub async fn open_races(&self) -> Vec<CampaignId> {
        let Some(bot) = &self.bot else { return vec![] };
        let store = bot.referee().store().clone();
        let quarantined: Vec<CampaignId> = store
            .quarantined()
            .await
            .unwrap()
            .into_iter()
            .map(|q| q.campaign)
            .collect();
        let mut open = Vec::new();
        for r in &self.races {
            if quarantined.contains(&r.id) {
                continue;
            }
            if let Ok(Some(a)) = store.address(r.id).await
                && a.phase.is_some_and(Phase::is_open)
            {
                open.push(r.id);
            }
        }
        open
    }

    /// Whether a race has finished or was cancelled (a quarantined one has not: its
    /// channel stays taken).
    pub async fn has_ended(&self, id: CampaignId) -> bool {
        let Some(bot) = &self.bot else { return false };
        matches!(
            bot.referee().store().address(id).await,
            Ok(Some(a)) if a.phase.is_some_and(|p| !p.is_open())
        )
    }

    /// The channels races run in.
    /// The channels of the races in play.
    pub async fn channels_in_play(&self) -> Vec<u64> {
        let open = self.open_races().await;
        self.races
            .iter()
            .filter(|r| open.contains(&r.id))
            .map(|r| r.channel)
            .collect()
    }

    pub fn channel(i: usize) -> u64 {
        CHANNEL + u64::try_from(i).unwrap()
    }
}
