//! [`Settings`]: every layer's section of the configuration, read from the raw values
//! of all layers together and checked.

use chrono::FixedOffset;

use super::error::ConfigError;
use super::file::read_file;
use super::keys::{Raw, Source, Values};
use crate::discord::config::{MAX_SHARDS, Shards, Token};
use crate::referee::timing::parse_duration;
use crate::referee::when::parse_zone;
use crate::vocab::Timing;

fn bad(key: &'static str, raw: &Raw, reason: impl Into<String>) -> ConfigError {
    ConfigError::Value {
        key,
        origin: raw.source.clone(),
        reason: reason.into(),
    }
}

/// Reads `shards` (`"2"` or `"0-1"`) against `shard_total`.
fn shards(range: Option<&Raw>, total: Option<&Raw>) -> Result<Shards, ConfigError> {
    let Some(total_raw) = total else {
        return match range {
            None => Ok(Shards::Auto),
            Some(r) => Err(bad(
                "shards",
                r,
                "a shard range needs `shard_total`, the number of shards of all processes together",
            )),
        };
    };
    let total = total_raw
        .text
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|t| (1..=MAX_SHARDS).contains(t))
        .ok_or_else(|| {
            bad(
                "shard_total",
                total_raw,
                format!("expected a whole number of shards from 1 to {MAX_SHARDS}"),
            )
        })?;
    let last_shard = total.saturating_sub(1);
    let Some(range_raw) = range else {
        return Ok(Shards::Range {
            first: 0,
            last: last_shard,
            total,
        });
    };
    let text = range_raw.text.trim();
    let not_a_range = || bad("shards", range_raw, "not a shard or a range such as 0-1");
    let number = |t: &str| t.trim().parse::<u32>().map_err(|_| not_a_range());
    let (first, last) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let n = number(text)?;
            (n, n)
        }
    };
    if first > last || last > last_shard {
        return Err(bad(
            "shards",
            range_raw,
            format!("not within shards 0 to {last_shard} of `shard_total`, first to last"),
        ));
    }
    Ok(Shards::Range { first, last, total })
}

/// The application's configuration, read and checked: each layer's own section. Its
/// `Debug` hides the database URL's password.
#[derive(Clone)]
pub struct Settings {
    /// The Discord adapter's: the token, the server, the shards, and what it shows.
    pub discord: crate::discord::Settings,
    /// The store's: a SQLite path or `sqlite:` URL, or a `postgres://` URL.
    pub database: String,
    /// The referee's: timing for new races, quotas and rate limits, retention.
    pub referee: crate::referee::Config,
    /// The log's.
    pub log: Log,
    /// The metrics and health listener's (`photofinish run` only).
    pub metrics: Metrics,
}

/// Where `photofinish run` serves `/metrics` and `/health`, if anywhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    /// Off when `None`.
    pub listen: Option<std::net::SocketAddr>,
}

/// Reads `metrics.listen`: an IP address and port (`127.0.0.1:9464`, `[::1]:9464`,
/// `0.0.0.0:9464`), `localhost:PORT`, or a port alone (loopback). A host name is refused:
/// what it resolves to is not written down, and a listener off loopback must be chosen in
/// so many words.
fn listen(raw: &Raw) -> Result<std::net::SocketAddr, ConfigError> {
    use std::net::{Ipv4Addr, SocketAddr};
    let text = raw.text.trim();
    let port = |p: &str| p.parse::<u16>().ok();
    if let Some(p) = port(text) {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, p)));
    }
    if let Some(p) = text
        .strip_prefix("localhost:")
        .or_else(|| text.strip_prefix("LOCALHOST:"))
        .and_then(port)
    {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, p)));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        bad(
            "metrics.listen",
            raw,
            "expected an IP address and port such as 127.0.0.1:9464 (a host name is not \
             accepted: write the address)",
        )
    })
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("discord", &self.discord)
            .field("database", &crate::store::redact(&self.database))
            .field("referee", &self.referee)
            .field("log", &self.log)
            .field("metrics", &self.metrics)
            .finish()
    }
}

/// How the process logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Log {
    /// A `tracing` filter such as `info` or `photofinish=debug,serenity=warn`.
    pub level: String,
    pub ansi: bool,
    pub format: LogFormat,
}

/// How each log line is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// tracing-subscriber's plain text, for people.
    #[default]
    Text,
    /// One JSON object a line (tracing-subscriber's JSON layer), for a log collector.
    Json,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            discord: crate::discord::Settings::default(),
            database: "photofinish.db".into(),
            referee: crate::referee::Config::default(),
            log: Log {
                level: "info".into(),
                ansi: false,
                format: LogFormat::Text,
            },
            metrics: Metrics::default(),
        }
    }
}

/// Reads `UTC`, `Z`, `+02:00`, `-0530` or `+2` (the zones' reader, offsets only).
pub fn parse_offset(text: &str) -> Option<FixedOffset> {
    crate::referee::when::parse_offset(text)
}

fn duration(key: &'static str, raw: &Raw, text: &str) -> Result<u64, ConfigError> {
    parse_duration(text).ok_or_else(|| bad(key, raw, "not a duration such as 30m, 24h or 2d"))
}

fn boolean(key: &'static str, raw: &Raw) -> Result<bool, ConfigError> {
    match raw.text.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(bad(key, raw, "expected true or false")),
    }
}

/// A postgres:// URL with `password` put in its user part, percent-encoded so that `/`,
/// `@`, `#` and any other character survive. Refused for a URL that is not PostgreSQL's,
/// names no user, or already holds a password.
pub fn with_password(url: &str, password: &str) -> Result<String, &'static str> {
    let lower = url.to_ascii_lowercase();
    let Some(start) = ["postgres://", "postgresql://"]
        .iter()
        .find(|p| lower.starts_with(*p))
        .map(|p| p.len())
    else {
        return Err("applies only to a postgres:// `database`");
    };
    let rest = url.get(start..).unwrap_or("");
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..authority_end).unwrap_or("");
    let Some(at) = authority.rfind('@') else {
        return Err("needs a user in `database` (postgres://USER@HOST/DATABASE)");
    };
    let user = authority.get(..at).unwrap_or("");
    if user.is_empty() {
        return Err("needs a user in `database` (postgres://USER@HOST/DATABASE)");
    }
    let query = url.split_once('?').map(|(_, q)| q).unwrap_or("");
    let query_password = query.split('&').any(|pair| {
        let name = pair.split('=').next().unwrap_or("");
        percent_encoding::percent_decode_str(name)
            .decode_utf8_lossy()
            .eq_ignore_ascii_case("password")
    });
    if user.contains(':') || query_password {
        return Err("is set, but `database` holds a password already: give it in one place");
    }
    // Everything but RFC 3986's unreserved characters is encoded.
    const USERINFO: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    let encoded = percent_encoding::utf8_percent_encode(password, USERINFO);
    let head = url.get(..start + at).unwrap_or("");
    let tail = url.get(start + at..).unwrap_or("");
    Ok(format!("{head}:{encoded}{tail}"))
}

impl Settings {
    /// Checks the raw values of every layer together; a key not set keeps its default. The
    /// token may still be empty (only `run` needs one).
    pub fn from_values(values: &Values) -> Result<Settings, ConfigError> {
        let get = |name: &str| values.get(name).filter(|r| !r.text.trim().is_empty());
        let mut s = Settings::default();
        let (discord, referee) = (&mut s.discord, &mut s.referee);
        if let Some(r) = get("token") {
            discord.token = Token::new(r.text.as_str());
        }
        if let Some(r) = get("database") {
            s.database = r.text.trim().to_string();
        }
        if let Some(r) = get("database_password") {
            s.database =
                with_password(&s.database, &r.text).map_err(|e| bad("database_password", r, e))?;
        }
        if let Some(r) = get("guild") {
            let id = r.text.trim().parse();
            discord.guild = Some(id.map_err(|_| bad("guild", r, "not a server id (a number)"))?);
        }
        if let Some(r) = get("time_zone") {
            discord.time_zone = parse_zone(&r.text).map_err(|_| {
                bad(
                    "time_zone",
                    r,
                    "not a zone such as Europe/London, UTC or an offset such as +02:00",
                )
            })?;
        }
        discord.rest_proxy = get("rest_proxy")
            .map(|r| r.text.trim().trim_end_matches('/').to_string())
            .filter(|p| !p.is_empty());
        discord.shards = shards(get("shards"), get("shard_total"))?;
        referee.default_timing = timing(
            get("turns.length"),
            values.get("turns.reminders"),
            get("turns.resolve"),
        )?;
        if let Some(r) = get("log.level") {
            s.log.level = r.text.trim().to_string();
        }
        if let Some(r) = get("log.ansi") {
            s.log.ansi = boolean("log.ansi", r)?;
        }
        if let Some(r) = get("log.format") {
            s.log.format = match r.text.trim().to_ascii_lowercase().as_str() {
                "text" => LogFormat::Text,
                "json" => LogFormat::Json,
                _ => return Err(bad("log.format", r, "expected text or json")),
            };
        }
        if let Some(r) = get("outage_after") {
            discord.outage_after_secs = duration("outage_after", r, &r.text)?.max(1);
        }
        if let Some(r) = get("shutdown.drain_secs") {
            discord.drain_secs = r
                .text
                .trim()
                .parse()
                .map_err(|_| bad("shutdown.drain_secs", r, "not a whole number of seconds"))?;
        }
        if let Some(r) = get("animation") {
            discord.animation = boolean("animation", r)?;
        }
        referee.limits = limits(&get)?;
        if let Some(r) = get("metrics.listen") {
            s.metrics.listen = Some(listen(r)?);
        }
        if let Some(r) = get("retention.after") {
            referee.retention_after_secs = match r.text.trim() {
                "0" => 0,
                text => duration("retention.after", r, text)?,
            };
        }
        referee
            .limits
            .check_timing(&referee.default_timing)
            .map_err(|e| ConfigError::Value {
                key: "turns.reminders",
                origin: values
                    .get("turns.reminders")
                    .map_or(Source::Default, |r| r.source.clone()),
                reason: e.to_string(),
            })?;
        Ok(s)
    }

    /// Reads one file's text alone (tests, and the example's check).
    pub fn from_toml(text: &str) -> Result<Settings, ConfigError> {
        Settings::from_values(&read_file(text, "the configuration")?)
    }
}

/// The `limits.*` keys over [`crate::referee::Limits`]'s defaults.
fn limits<'a>(
    get: &impl Fn(&str) -> Option<&'a Raw>,
) -> Result<crate::referee::Limits, ConfigError> {
    fn number<'b, T: std::str::FromStr>(
        get: &impl Fn(&str) -> Option<&'b Raw>,
        key: &'static str,
        slot: &mut T,
    ) -> Result<(), ConfigError> {
        if let Some(r) = get(key) {
            *slot = r
                .text
                .trim()
                .parse()
                .map_err(|_| bad(key, r, "not a whole number (0 turns the limit off)"))?;
        }
        Ok(())
    }
    let mut l = crate::referee::Limits::default();
    number(get, "limits.lobbies_per_user", &mut l.lobbies_per_user)?;
    number(get, "limits.running_per_user", &mut l.running_per_user)?;
    number(get, "limits.lobbies_per_server", &mut l.lobbies_per_server)?;
    number(get, "limits.running_per_server", &mut l.running_per_server)?;
    number(get, "limits.reminders_per_turn", &mut l.reminders_per_turn)?;
    number(get, "limits.reminder_gap_secs", &mut l.reminder_gap_secs)?;
    number(get, "limits.actions_burst", &mut l.actions_burst)?;
    number(get, "limits.actions_per_minute", &mut l.actions_per_minute)?;
    number(get, "limits.commands_burst", &mut l.commands_burst)?;
    number(
        get,
        "limits.commands_per_minute",
        &mut l.commands_per_minute,
    )?;
    number(
        get,
        "limits.superseded_orders_kept",
        &mut l.superseded_orders_kept,
    )?;
    number(
        get,
        "limits.preferences_per_seat",
        &mut l.preferences_per_seat,
    )?;
    Ok(l)
}

/// `turns.length`, `turns.reminders` (an empty list means none) and `turns.resolve`.
fn timing(
    length: Option<&Raw>,
    reminders: Option<&Raw>,
    resolve: Option<&Raw>,
) -> Result<Timing, ConfigError> {
    let mut timing = crate::referee::Config::default().default_timing;
    if let Some(r) = length {
        let secs = duration("turns.length", r, &r.text)?;
        if !(10..=30 * 86_400).contains(&secs) {
            return Err(bad(
                "turns.length",
                r,
                "a turn lasts from 10 seconds to 30 days",
            ));
        }
        timing.turn_secs = secs;
    }
    if let Some(r) = reminders {
        let parts: Vec<&str> = r
            .text
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        // How many is `limits.reminders_per_turn`'s to say (checked after the limits are
        // read, in the sentence a race's options get): one cap, not two.
        let mut list = parts
            .into_iter()
            .map(|p| duration("turns.reminders", r, p))
            .collect::<Result<Vec<_>, _>>()?;
        list.sort_unstable_by(|a, b| b.cmp(a));
        list.dedup();
        timing.reminders = list;
    }
    if let Some(r) = resolve {
        timing.resolve_early = match r.text.trim().to_ascii_lowercase().as_str() {
            "early" => true,
            "deadline" => false,
            _ => return Err(bad("turns.resolve", r, "use `early` or `deadline`")),
        };
    }
    Ok(timing)
}

#[cfg(test)]
mod tests {
    use super::super::keys::{KEYS, find_key};
    use super::*;
    use crate::referee::when::Zone;

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let s = Settings {
            discord: crate::discord::Settings {
                token: Token::new("MTIz.secret.value"),
                ..Default::default()
            },
            ..Settings::default()
        };
        let shown = format!("{s:?} {}", s.discord.token);
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains("Token(hidden)"));
    }

    #[test]
    fn a_separate_password_is_encoded_into_a_postgres_url() {
        let url =
            with_password("postgres://bot@db:5432/pf?sslmode=disable", "se/cr@t#1 %").unwrap();
        assert_eq!(
            url,
            "postgres://bot:se%2Fcr%40t%231%20%25@db:5432/pf?sslmode=disable"
        );
        let opts: sqlx::postgres::PgConnectOptions = url.parse().unwrap();
        assert_eq!(opts.get_username(), "bot");
        assert_eq!(opts.get_host(), "db");
        assert_eq!(opts.get_database(), Some("pf"));
        assert!(with_password("postgres://bot:pw@db/pf", "x").is_err());
        assert!(with_password("postgres://db/pf?password=pw", "x").is_err());
        assert!(with_password("postgres://db/pf", "x").is_err());
        assert!(with_password("photofinish.db", "x").is_err());
        let s = Settings::from_toml(
            "database = \"postgres://bot@db/pf\"\ndatabase_password = \"a/b\"\n",
        )
        .unwrap();
        assert_eq!(s.database, "postgres://bot:a%2Fb@db/pf");
        let err = Settings::from_toml("database_password = \"a/b\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`database_password`"), "{err}");
        assert!(!err.contains("a/b"), "{err}");
    }

    #[test]
    fn the_example_configuration_reads() {
        let text = include_str!("../../config.example.toml");
        let s = Settings::from_toml(text).unwrap();
        assert_eq!(s.referee.default_timing.turn_secs, 86_400);
        assert_eq!(s.referee.default_timing.reminders, vec![12 * 3600, 3600]);
        assert!(s.referee.default_timing.resolve_early);
        assert_eq!(s.discord.time_zone, Zone::UTC);
        assert_eq!(s.database, "photofinish.db");
    }

    #[test]
    fn the_defaults_written_in_keys_are_the_defaults() {
        let from_keys: Values = KEYS
            .iter()
            .map(|k| {
                (
                    k.name,
                    Raw {
                        text: k.default.to_string(),
                        source: Source::Flag("--test"),
                    },
                )
            })
            .collect();
        let a = Settings::from_values(&from_keys).unwrap();
        let b = Settings::default();
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        for k in KEYS {
            assert!(k.env().starts_with("PHOTOFINISH_"), "{}", k.env());
        }
        assert_eq!(
            find_key("turns.length").unwrap().env(),
            "PHOTOFINISH_TURNS_LENGTH"
        );
    }

    #[test]
    fn every_key_reads_and_bad_values_are_named() {
        let s = Settings::from_toml(
            r#"
            token = "abc"
            database = "sqlite:races.db"
            guild = "1234"
            time_zone = "+02:00"
            rest_proxy = "http://127.0.0.1:3000/"
            animation = false
            [turns]
            length = "2h"
            reminders = ["10m", "1h"]
            resolve = "deadline"
            [log]
            level = "debug"
            ansi = true
            format = "json"
            "#,
        )
        .unwrap();
        assert_eq!(s.discord.token.expose(), "abc");
        assert_eq!(s.database, "sqlite:races.db");
        assert_eq!(s.discord.guild, Some(1234));
        assert_eq!(
            s.discord.time_zone,
            Zone::Fixed(FixedOffset::east_opt(7200).unwrap())
        );
        assert_eq!(
            s.discord.rest_proxy.as_deref(),
            Some("http://127.0.0.1:3000")
        );
        let timing = &s.referee.default_timing;
        assert_eq!(timing.turn_secs, 7200);
        assert_eq!(timing.reminders, vec![3600, 600]);
        assert!(!timing.resolve_early);
        assert_eq!(s.log.level, "debug");
        assert!(s.log.ansi);
        assert_eq!(s.log.format, LogFormat::Json);
        assert!(!s.discord.animation);

        for (text, key) in [
            ("animation = \"sometimes\"", "`animation`"),
            ("time_zone = \"Mars\"", "`time_zone` in the configuration"),
            ("[turns]\nlength = \"1s\"", "`turns.length`"),
            ("tokn = \"x\"", "`tokn`"),
            ("shard_total = \"four\"", "`shard_total`"),
            ("[log]\nansi = \"maybe\"", "`log.ansi`"),
            ("[log]\nformat = \"xml\"", "`log.format`"),
            ("[turns]\nreminders = 3", "`turns.reminders`"),
        ] {
            let err = Settings::from_toml(text).unwrap_err().to_string();
            assert!(err.contains(key), "{text}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }

    #[test]
    fn absurd_values_are_refused_and_odd_text_does_not_panic() {
        for text in [
            "shard_total = 4294967295",
            "shard_total = 16385",
            "shard_total = -1",
            "shard_total = 0",
            "shard_total = 4\nshards = \"0-4294967295\"",
        ] {
            let err = Settings::from_toml(text).unwrap_err().to_string();
            assert!(err.contains("shard"), "{text}: {err}");
        }
        // One more than the default `limits.reminders_per_turn`.
        let many: Vec<String> = (1..=6).map(|h| format!("\"{h}h\"")).collect();
        let many = many.join(",");
        let err = Settings::from_toml(&format!("[turns]\nreminders = [{many}]")).unwrap_err();
        assert!(err.to_string().contains("turns.reminders"), "{err}");
        for tz in [
            "+a€",
            "-€",
            "+1€",
            "+€€€€",
            "+",
            "UTC+",
            "+99999999999999999999",
        ] {
            assert_eq!(parse_offset(tz), None, "{tz}");
        }
        let err = Settings::from_toml("time_zone = \"+a€\"").unwrap_err();
        assert!(err.to_string().contains("time_zone"), "{err}");
    }

    #[test]
    fn shard_ranges_read_and_bad_ones_are_named() {
        let read = |t: &str| Settings::from_toml(t).map(|s| s.discord.shards);
        assert_eq!(read("").unwrap(), Shards::Auto);
        assert_eq!(
            read("shard_total = 4\nshards = \"0-1\"").unwrap(),
            Shards::Range {
                first: 0,
                last: 1,
                total: 4
            }
        );
        assert_eq!(
            read("shard_total = 3\nshards = \"2\"").unwrap(),
            Shards::Range {
                first: 2,
                last: 2,
                total: 3
            }
        );
        assert_eq!(
            read("shard_total = 2").unwrap(),
            Shards::Range {
                first: 0,
                last: 1,
                total: 2
            }
        );
        for (text, key) in [
            ("shards = \"0-1\"", "shards"),
            ("shard_total = 4\nshards = \"2-5\"", "shards"),
            ("shard_total = 4\nshards = \"3-1\"", "shards"),
            ("shard_total = 4\nshards = \"one\"", "shards"),
            ("shard_total = 0", "shard_total"),
        ] {
            let err = read(text).unwrap_err();
            assert!(err.to_string().contains(key), "{text}: {err}");
        }
        let r = Shards::Range {
            first: 1,
            last: 2,
            total: 3,
        };
        assert_eq!(r.to_string(), "1-2 of 3");
        assert!(!r.has_dms());
        assert!(Shards::Auto.has_dms());
    }

    #[test]
    fn the_metrics_listener_is_off_unless_an_address_is_written() {
        let read = |t: &str| Settings::from_toml(t).map(|s| s.metrics.listen);
        assert_eq!(read("").unwrap(), None);
        let at = |t: &str| {
            read(&format!("[metrics]\nlisten = \"{t}\"")).map(|a| a.map(|a| a.to_string()))
        };
        assert_eq!(
            at("127.0.0.1:9464").unwrap().as_deref(),
            Some("127.0.0.1:9464")
        );
        assert_eq!(at("9464").unwrap().as_deref(), Some("127.0.0.1:9464"));
        assert_eq!(
            at("localhost:9464").unwrap().as_deref(),
            Some("127.0.0.1:9464")
        );
        assert_eq!(at("[::1]:9464").unwrap().as_deref(), Some("[::1]:9464"));
        // Off loopback only as an address written out (the bot then warns).
        assert_eq!(at("0.0.0.0:9464").unwrap().as_deref(), Some("0.0.0.0:9464"));
        for bad in [
            "metrics.example:9464",
            "127.0.0.1",
            "127.0.0.1:99999",
            "localhost",
        ] {
            let err = at(bad).unwrap_err().to_string();
            assert!(err.contains("`metrics.listen`"), "{bad}: {err}");
            assert!(!err.contains("example"), "the value is not echoed: {err}");
        }
        assert_eq!(
            find_key("metrics.listen").unwrap().env(),
            "PHOTOFINISH_METRICS_LISTEN"
        );
    }

    #[test]
    fn offsets_read() {
        assert_eq!(parse_offset("UTC"), FixedOffset::east_opt(0));
        assert_eq!(
            parse_offset("-05:30"),
            FixedOffset::east_opt(-(5 * 3600 + 1800))
        );
        assert_eq!(parse_offset("+0100"), FixedOffset::east_opt(3600));
        assert_eq!(parse_offset("+2"), FixedOffset::east_opt(7200));
        assert_eq!(parse_offset("Europe/Paris"), None);
        assert_eq!(parse_offset("+15:00"), None);
    }

    #[test]
    fn time_zone_is_an_iana_zone_or_an_offset() {
        let s = Settings::from_toml("time_zone = \"Europe/Paris\"").unwrap();
        assert_eq!(s.discord.time_zone.to_string(), "Europe/Paris");
        let s = Settings::from_toml("time_zone = \"-05:00\"").unwrap();
        assert_eq!(s.discord.time_zone.to_string(), "UTC-05:00");
        let err = Settings::from_toml("time_zone = \"Europe/Pariss\"").unwrap_err();
        assert!(err.to_string().contains("Europe/London"), "{err}");
    }
}
