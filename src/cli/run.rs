//! `photofinish run [--config config.toml]`: the Discord bot. Reads the configuration
//! through the loader every command uses ([`super::config`]), sets up logging, and hands
//! over to [`crate::discord::run`] on the system clock.
//!
//! For tests of several real processes only, `PHOTOFINISH_TEST_CLOCK=SPEED@EPOCH_MS` runs
//! the referee's clock SPEED times faster than real time from the wall-clock moment
//! EPOCH_MS (the same for every process, so that their clocks agree). It is honoured only
//! when `rest_proxy` points at a loopback address (a fake Discord), and says so loudly in
//! the log; against real Discord it is refused and the bot does not start.

use std::process::ExitCode;
use std::sync::Arc;

use super::config::Flags;
use super::refusal::refuse;
use crate::config::{ConfigError, LogFormat};
use crate::discord::Settings;
use crate::referee::{Clock, SystemClock};
use crate::vocab::Millis;

/// The environment variable of the tests' fast clock.
pub const TEST_CLOCK_ENV: &str = "PHOTOFINISH_TEST_CLOCK";

/// A clock that runs `speed` times faster than the system clock from the moment `epoch`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastClock {
    pub speed: f64,
    pub epoch: Millis,
}

impl FastClock {
    /// Reads `SPEED@EPOCH_MS`, such as `10@1767225600000`; SPEED from 1 to 1000.
    pub fn parse(text: &str) -> Option<FastClock> {
        let (speed, epoch) = text.trim().split_once('@')?;
        let speed: f64 = speed.trim().parse().ok()?;
        let epoch: Millis = epoch.trim().parse().ok()?;
        (speed.is_finite() && (1.0..=1000.0).contains(&speed)).then_some(FastClock { speed, epoch })
    }

    fn at(&self, wall: Millis) -> Millis {
        self.epoch + ((wall - self.epoch) as f64 * self.speed) as Millis
    }
}

impl Clock for FastClock {
    fn now(&self) -> Millis {
        self.at(SystemClock.now())
    }

    fn monotonic_ms(&self) -> Option<Millis> {
        let mono = crate::referee::clock::process_monotonic_ms() as f64 * self.speed;
        Some(mono as Millis)
    }
}

/// True when the URL is `http://` or `https://` to a loopback host: exactly `localhost`,
/// an address in 127.0.0.0/8, or `[::1]`. The URL is parsed as the HTTP client parses it,
/// so `localhost.example.com`, `127.0.0.1.example.com` and `127.0.0.1@example.com` (a user
/// name, then the real host) are not loopback, and neither is any URL with userinfo.
fn is_loopback(url: &str) -> bool {
    let Ok(url) = url::Url::parse(url.trim()) else {
        return false;
    };
    if !matches!(url.scheme(), "http" | "https")
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return false;
    }
    match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip == std::net::Ipv6Addr::LOCALHOST,
        None => false,
    }
}

/// The clock `photofinish run` uses: the system's, or the tests' fast clock.
fn clock(settings: &Settings) -> Result<(Arc<dyn Clock>, f64), String> {
    let Some(text) = std::env::var(TEST_CLOCK_ENV)
        .ok()
        .filter(|t| !t.trim().is_empty())
    else {
        return Ok((Arc::new(SystemClock), 1.0));
    };
    if !settings.rest_proxy.as_deref().is_some_and(is_loopback) {
        return Err(format!(
            "{TEST_CLOCK_ENV} is for tests against a fake Discord on loopback (`rest_proxy`); unset it"
        ));
    }
    let fast = FastClock::parse(&text).ok_or_else(|| {
        format!("{TEST_CLOCK_ENV}: expected SPEED@EPOCH_MS, such as 10@1767225600000")
    })?;
    Ok((Arc::new(fast), fast.speed))
}

pub fn run(flags: &Flags) -> ExitCode {
    let loaded = match super::config::load(flags) {
        Ok(l) => l,
        Err(e) => return refuse(&e),
    };
    let settings = loaded.settings;
    if settings.discord.token.is_empty() {
        return refuse(&ConfigError::NoToken);
    }
    let Ok(mut filter) = tracing_subscriber::EnvFilter::try_new(&settings.log.level) else {
        let source = loaded
            .values
            .get("log.level")
            .map_or_else(|| "by default".to_string(), |r| r.source.to_string());
        return refuse(&format!(
            "`log.level` {source}: not a tracing filter such as info or photofinish=debug"
        ));
    };
    // sqlx warns of a URL parameter it ignores with the parameter's value; the store
    // refuses those first, and this keeps any it missed out of the log at every level.
    if let Ok(quiet) = "sqlx_postgres::options::parse=off".parse() {
        filter = filter.add_directive(quiet);
    }
    match settings.log.format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(settings.log.ansi)
            .with_writer(std::io::stderr)
            .init(),
        // Colour codes would only corrupt the JSON.
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .with_ansi(false)
            .with_writer(std::io::stderr)
            .init(),
    }
    let (clock, speed) = match clock(&settings.discord) {
        Ok(c) => c,
        Err(e) => return refuse(&e),
    };
    let file = loaded
        .file
        .as_ref()
        .map_or_else(|| "none".to_string(), |(p, _)| p.display().to_string());
    tracing::info!(
        config = %file,
        database = %crate::store::redact(&settings.database),
        token = ?settings.discord.token,
        shards = %settings.discord.shards,
        "starting photofinish"
    );
    if speed != 1.0 {
        tracing::error!(
            speed,
            "TEST CLOCK: the referee's time runs {speed} times faster than real time ({TEST_CLOCK_ENV})"
        );
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            errln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The metrics and health listener, when `metrics.listen` asks for one: up before the
    // bot, stopped after it.
    let listener = runtime.block_on(super::serve::start_for_run(
        settings.metrics.listen,
        &settings.database,
        clock.clone(),
    ));
    let listener = match listener {
        Ok(l) => l,
        Err(e) => return refuse(&e),
    };
    let ran = runtime.block_on(crate::discord::run(
        settings.discord,
        &settings.database,
        settings.referee,
        clock,
        speed,
    ));
    if let Some(l) = listener {
        runtime.block_on(l.stop());
    }
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            errln!("{e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_clock_reads_and_runs_from_its_epoch() {
        let c = FastClock::parse("10@1000").unwrap();
        assert_eq!(c.at(1000), 1000);
        assert_eq!(c.at(1500), 6000);
        for bad in ["10", "0.5@1000", "x@1", "10@x", "5000@1"] {
            assert_eq!(FastClock::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_fast_clock_is_refused_against_real_discord() {
        assert!(is_loopback("http://127.0.0.1:3000"));
        assert!(is_loopback("http://localhost:3000"));
        assert!(!is_loopback("https://discord.com"));
        assert!(!is_loopback("http://proxy.internal:3000"));
        assert!(is_loopback("http://[::1]:3000/api"));
        assert!(is_loopback("http://127.0.0.2"));
        assert!(is_loopback("http://LOCALHOST:3000"));
        assert!(is_loopback("https://127.255.255.254/"));
        for hostile in [
            "http://localhost.attacker.example",
            "http://localhost.attacker.example:3000",
            "http://127.0.0.1.attacker.example/",
            "http://127.0.0.1@attacker.example/",
            "http://localhost:3000@attacker.example/",
            "http://[::1].attacker.example/",
            "http://localhost./",
            "http://localhostx/",
            "http://user@127.0.0.1/",
            "http://[::ffff:127.0.0.1]/",
            "http://10.0.0.1/",
            "ftp://127.0.0.1/",
            "127.0.0.1:3000",
        ] {
            assert!(!is_loopback(hostile), "{hostile}");
        }
    }
}
