//! `photofinish run` stops cleanly on SIGTERM and SIGINT: a real process against the
//! loopback fake Discord, stopped while a race runs and a post is caught in flight (the
//! fake holds message posts unanswered), exits 0, says so in its log, reports `stopped`,
//! and leaves no outbox lease or deadline claim of its own in the database; the
//! announcements it could not post are still there for the next process, which posts each
//! once. The same as PID 1 of its own PID namespace (as in a container), where a signal
//! nobody listens for is ignored.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::discord::*;
use serde_json::{Value, json};

/// Only bounds a hang; nothing here is timed.
const PATIENCE: Duration = Duration::from_secs(90);
const CHANNEL_ID: u64 = 620_000_000_000_000_001;

/// A `photofinish run` process (perhaps under a wrapper such as `unshare`), killed if the
/// test ends without stopping it.
struct Bot {
    child: Child,
    /// The bot's own pid: the wrapper's child when there is one.
    pid: u32,
    log: PathBuf,
}

impl Bot {
    fn start(dir: &Path, instance: &str, config: &str, wrapper: &[&str]) -> Bot {
        let path = dir.join(format!("{instance}.toml"));
        std::fs::write(&path, config).unwrap();
        let log = dir.join(format!("{instance}.log"));
        let bin = env!("CARGO_BIN_EXE_photofinish");
        let mut cmd = match wrapper.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(bin);
                c
            }
            None => Command::new(bin),
        };
        crate::support::process::run_bot(&mut cmd, &path, instance, dir, &log);
        let child = cmd.spawn().unwrap();
        let pid = if wrapper.is_empty() {
            child.id()
        } else {
            only_child(child.id())
        };
        Bot { child, pid, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .args([format!("-{name}"), self.pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{name} {}", self.pid);
    }

    async fn wait_log(&mut self, what: &str) {
        let deadline = Instant::now() + PATIENCE;
        while !self.log().contains(what) {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!(
                    "the bot ended ({status}) before its log said {what:?}:\n{}",
                    self.log()
                );
            }
            assert!(
                Instant::now() < deadline,
                "the log never said {what:?}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the bot did not stop:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = Command::new("kill")
                .args(["-KILL", &self.pid.to_string()])
                .status();
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The one child of a wrapper process (the bot under `unshare --fork`).
fn only_child(parent: u32) -> u32 {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let listed = std::fs::read_to_string(format!("/proc/{parent}/task/{parent}/children"))
            .unwrap_or_default();
        if let Some(pid) = listed.split_whitespace().next() {
            return pid.parse().unwrap();
        }
        assert!(
            Instant::now() < deadline,
            "{parent} never started its child"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pid a process has in its innermost PID namespace (`NSpid`'s last field).
fn inner_pid(pid: u32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("NSpid:"))?;
    line.split_whitespace().last()?.parse().ok()
}

fn config(database: &Path, fake: &FakeDiscord) -> String {
    format!(
        "token = \"fake-token\"\ndatabase = \"{}\"\nrest_proxy = \"http://{}\"\n\
         animation = false\n[turns]\nlength = \"1h\"\nreminders = [\"30m\"]\nresolve = \"early\"\n\
         [log]\nlevel = \"info,serenity=warn\"\n[shutdown]\ndrain_secs = 2\n",
        database.display(),
        fake.addr
    )
}

fn title(m: &Value) -> String {
    m["embeds"][0]["title"].as_str().unwrap_or("").to_string()
}

fn nonce(m: &Value) -> Option<String> {
    match &m["nonce"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A button in the middle of a prompt (always a legal order).
fn middle_button(m: &Value) -> String {
    let ids: Vec<String> = m["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| Some(c["custom_id"].as_str()?.to_string()))
        .collect();
    assert!(!ids.is_empty(), "a prompt without buttons: {m}");
    ids[ids.len() / 2].clone()
}

async fn wait_prompt(fake: &FakeDiscord, user: &User) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(m) = fake
            .dms_to(user.id)
            .into_iter()
            .find(|m| title(m).ends_with("to order"))
        {
            return m;
        }
        assert!(Instant::now() < deadline, "no prompt for {}", user.id);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens a race of two humans and two bots and starts it; returns the humans' prompts.
async fn start_race(fake: &FakeDiscord, host: &User, guest: &User) -> (Value, Value) {
    // `grace=0`: the last order resolves the turn at once, so its posts are there to
    // drain; the grace window would hold it two minutes of the real clock.
    let a = fake
        .response(fake.slash(
            host,
            CHANNEL_ID,
            "new",
            &[("game", json!("dream-mile")), ("options", json!("grace=0"))],
        ))
        .await;
    assert!(text_of(&a).contains("is open"), "{a}");
    for u in [host, guest] {
        let a = fake.response(fake.slash(u, CHANNEL_ID, "join", &[])).await;
        assert!(text_of(&a).contains("You're in race"), "{a}");
    }
    let a = fake
        .response(fake.slash(host, CHANNEL_ID, "bots", &[("count", json!(2))]))
        .await;
    assert!(text_of(&a).contains("Bots added"), "{a}");
    let a = fake
        .response(fake.slash(host, CHANNEL_ID, "start", &[]))
        .await;
    assert!(text_of(&a).contains("is off"), "{a}");
    (
        wait_prompt(fake, host).await,
        wait_prompt(fake, guest).await,
    )
}

async fn sqlite(db: &Path) -> sqlx::SqlitePool {
    sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap()
}

async fn count(pool: &sqlx::SqlitePool, sql: &'static str, holder: &str) -> i64 {
    sqlx::query_scalar(sql)
        .bind(holder)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// What a stopped bot left in the database: held leases and claims of `instance`
/// (its referee names itself `instance-pid-tag`), its heartbeat, and the undelivered
/// announcements, with how many of them a next process could claim now.
struct Left {
    leases: i64,
    claims: i64,
    gateway: String,
    undelivered: i64,
    claimable: usize,
}

async fn left_by(db: &Path, instance: &str) -> Left {
    let pool = sqlite(db).await;
    let holder = format!("{instance}-%");
    let leases = count(
        &pool,
        "SELECT count(*) FROM outbox_leases WHERE holder LIKE $1",
        &holder,
    )
    .await;
    let claims = count(
        &pool,
        "SELECT count(*) FROM deadlines WHERE claimed_by LIKE $1 AND fired_at IS NULL",
        &holder,
    )
    .await;
    let gateway: String = sqlx::query_scalar("SELECT gateway FROM processes WHERE instance = $1")
        .bind(instance)
        .fetch_one(&pool)
        .await
        .unwrap();
    let undelivered: i64 = count_undelivered(&pool).await;
    pool.close().await;
    let store = photofinish::store::open(&db.display().to_string())
        .await
        .unwrap();
    // Far enough ahead for any retry's wait: only a lease could hide a row now.
    let far = i64::MAX / 4;
    let claimable = store.outbox_ready(far, 1_000).await.unwrap().len();
    store.close().await;
    Left {
        leases,
        claims,
        gateway,
        undelivered,
        claimable,
    }
}

/// Starts a bot (under `wrapper`), gets a race going, catches a post in flight and
/// sends SIGTERM; checks how it stopped and returns what it left behind.
async fn stopped_mid_delivery(
    fake: &FakeDiscord,
    dir: &Path,
    instance: &str,
    wrapper: &[&str],
) -> (Bot, Left) {
    let db = dir.join("races.db");
    let mut bot = Bot::start(dir, instance, &config(&db, fake), wrapper);
    fake.wait_ready().await;
    if !wrapper.is_empty() {
        assert_eq!(
            inner_pid(bot.pid),
            Some(1),
            "the bot is PID 1 of its namespace"
        );
    }
    let (host, guest) = (User::new(30_001, "Host"), User::new(30_002, "Guest"));
    let (p1, p2) = start_race(fake, &host, &guest).await;

    // Both humans order: the turn resolves, and its posts are held by the fake.
    fake.stall_posts();
    for (u, p) in [(&host, &p1), (&guest, &p2)] {
        let it = fake.click(u, p, &middle_button(p));
        fake.response(it).await;
    }
    fake.wait_stalled().await;

    bot.signal("TERM");
    bot.wait_log("SIGTERM: shutting down").await;
    // Asked during the drain: no race is opened for it.
    fake.slash(
        &host,
        CHANNEL_ID + 1,
        "new",
        &[("game", json!("dream-mile"))],
    );
    let status = bot.exit().await;
    fake.unstall_posts();
    let log = bot.log();
    assert_eq!(status.code(), Some(0), "{status}:\n{log}");
    for said in [
        "SIGTERM: shutting down",
        "work still in progress after the drain",
        "gave back this process's outbox leases and deadline claims",
        "stopped",
    ] {
        assert!(log.contains(said), "the log lacks {said:?}:\n{log}");
    }
    let left = left_by(&db, instance).await;
    assert_eq!(left.gateway, "stopped", "{log}");
    assert_eq!((left.leases, left.claims), (0, 0), "{log}");
    assert!(left.undelivered > 0, "the post in flight is still to do");
    assert_eq!(
        left.claimable as i64, left.undelivered,
        "every undelivered announcement can be taken by the next process"
    );
    let pool = sqlite(&db).await;
    let races: i64 = sqlx::query_scalar("SELECT count(*) FROM campaigns")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(races, 1, "nothing new was started while stopping");
    (bot, left)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_gives_back_its_claims_and_loses_nothing() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = stopped_mid_delivery(&fake, dir.path(), "term-bot", &[]).await;
    drop(bot);

    // The next process posts what was left, each announcement once, then stops on SIGINT.
    let db = dir.path().join("races.db");
    let mut next = Bot::start(dir.path(), "next-bot", &config(&db, &fake), &[]);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let pool = sqlite(&db).await;
        let undelivered: i64 = count_undelivered(&pool).await;
        pool.close().await;
        if undelivered == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{undelivered} announcements never delivered:\n{}",
            next.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut nonces: Vec<String> = fake.messages().iter().filter_map(nonce).collect();
    let all = nonces.len();
    nonces.sort();
    nonces.dedup();
    assert_eq!(nonces.len(), all, "an announcement was posted twice");
    next.signal("INT");
    let status = next.exit().await;
    assert_eq!(status.code(), Some(0), "{status}:\n{}", next.log());
    assert!(
        next.log().contains("SIGINT: shutting down"),
        "{}",
        next.log()
    );
    assert_eq!(left_by(&db, "next-bot").await.gateway, "stopped");
}

/// As PID 1 of a new PID namespace (`unshare --pid --fork --mount-proc`), as the
/// Dockerfile's `exec` makes it in a container.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_it_cleanly_as_pid_1() {
    let wrapper = ["unshare", "--pid", "--fork", "--mount-proc"];
    let usable = Command::new(wrapper[0])
        .args(&wrapper[1..])
        .arg("true")
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !usable {
        eprintln!("skipped: `unshare --pid --fork --mount-proc` is not permitted here");
        return;
    }
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    // `unshare --fork` exits as its child did: 0 is the bot's own status.
    stopped_mid_delivery(&fake, dir.path(), "pid1-bot", &wrapper).await;
}

/// Announcements neither delivered nor given up.
async fn count_undelivered(pool: &sqlx::SqlitePool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL")
        .fetch_one(pool)
        .await
        .unwrap()
}
