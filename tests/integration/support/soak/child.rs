//! The soak's real `kill -9`: the bot run as a child process (this test binary
//! again, `soak::soak_child`, as `crash.rs` does) against the same fake Discord and
//! database, on a test clock fixed at the soak's time, and sent SIGKILL once it has made a
//! seeded number of posts or edits: mid-work, with no goodbye and its leases left behind.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use photofinish::referee::TestClock;

use super::world::World;

/// The child's own limit, should its parent be gone.
const CHILD_LIFE: Duration = Duration::from_secs(120);
/// How long the parent waits for the child to connect, then to do its work.
const CONNECT_LIMIT: Duration = Duration::from_secs(60);
const WORK_LIMIT: Duration = Duration::from_secs(30);

/// The child's side: runs the bot until killed. Does nothing unless `PF_SOAK_FAKE` is set.
pub async fn child_main() {
    let Ok(addr) = std::env::var("PF_SOAK_FAKE") else {
        return;
    };
    let database = std::env::var("PF_SOAK_DB").unwrap();
    let now: i64 = std::env::var("PF_SOAK_NOW").unwrap().parse().unwrap();
    // As `FakeDiscord::settings` makes them for the soak's own bot.
    let mut s = photofinish::config::Settings::from_toml(&format!(
        "token = \"fake-token\"\ndatabase = \"{database}\"\nrest_proxy = \"http://{addr}\"\n\
         [turns]\nlength = \"1h\"\nreminders = [\"30m\"]\n",
    ))
    .unwrap();
    s.discord.guild = None;
    s.discord.rest_timeout = Duration::from_secs(5);
    s.referee.limits.commands_burst = 0;
    s.referee.default_timing.calendar.grace_secs = Some(0);
    let bot = photofinish::discord::start(
        s.discord,
        &database,
        s.referee,
        Arc::new(TestClock::new(now)),
    )
    .await
    .unwrap();
    tokio::time::sleep(CHILD_LIFE).await;
    bot.stop().await;
}

/// A child process, killed if the soak ends without killing it.
struct Kid(Child);

impl Drop for Kid {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl World {
    /// Runs the bot as a child process at the soak's time (the soak's own bot stopped),
    /// sends it the humans' `planned` DMs, and once it has made `work` posts or edits (or
    /// has been idle for a while) sends it SIGKILL. Returns how many it made, or why the child never got going.
    pub async fn sigkill_child(
        &mut self,
        planned: &[(crate::support::discord::User, String)],
        work: usize,
    ) -> Result<usize, String> {
        let from = self.fake.request_count();
        let identifies = self.fake.identifies();
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args(["--exact", "soak::soak_child", "--test-threads=1", "--quiet"])
            .env("PF_SOAK_FAKE", self.fake.addr.to_string())
            .env("PF_SOAK_DB", &self.db.url)
            .env("PF_SOAK_NOW", self.now().to_string())
            .env_remove("PHOTOFINISH_CRASH_AT")
            .env_remove("RUST_LOG")
            .stdout(Stdio::null())
            .stderr(match std::env::var("PF_SOAK_CHILD_LOG") {
                Ok(path) => std::fs::File::create(path).map_or_else(|_| Stdio::null(), Stdio::from),
                Err(_) => Stdio::null(),
            });
        let mut kid = Kid(cmd.spawn().map_err(|e| format!("no child bot: {e}"))?);
        let until = Instant::now() + CONNECT_LIMIT;
        while self.fake.identifies() <= identifies {
            if Instant::now() > until || kid.0.try_wait().ok().flatten().is_some() {
                return Err("the child bot never connected to the gateway".into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Its work: the humans' DMs, now that it holds the gateway, and what follows from
        // them (receipts, steps resolved, prompts), counted in posts and edits.
        self.send_dms(planned);
        eprintln!("soak: kill -9: the child got {} DMs", planned.len());
        let made = |w: &World| {
            w.fake
                .requests()
                .iter()
                .skip(from)
                .filter(|r| {
                    matches!(r.method.as_str(), "POST" | "PATCH")
                        && r.path.starts_with("/channels/")
                })
                .count()
        };
        let until = Instant::now() + WORK_LIMIT;
        let mut last = (0, Instant::now());
        loop {
            let n = made(self);
            if n >= work || Instant::now() > until {
                break;
            }
            if n != last.0 {
                last = (n, Instant::now());
            } else if n > 0 && last.1.elapsed() > Duration::from_secs(3) {
                break; // it has done what there was to do
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // SIGKILL, mid-work.
        kid.0
            .kill()
            .map_err(|e| format!("cannot kill the child bot: {e}"))?;
        let _ = kid.0.wait();
        Ok(made(self))
    }
}
