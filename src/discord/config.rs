//! `config.toml` for `photofinish run`: the token, the database, the gateway shards this
//! process runs, turn timing, the display time zone and logging. `DISCORD_TOKEN` in the environment overrides the file's token.
//! Every key is documented in `config.example.toml`.

use std::fmt;
use std::path::Path;

use chrono::{FixedOffset, Offset};
use serde::Deserialize;
use thiserror::Error;

use crate::referee::timing::parse_duration;
use crate::store::Timing;

/// The bot's token. Its `Debug` and `Display` never show it, so it cannot reach a log.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into().trim().to_string())
    }

    /// The secret itself, for the one place that sends it to Discord.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "Token(unset)"
        } else {
            "Token(hidden)"
        })
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Why the configuration could not be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("{path} is not valid: {reason}")]
    Parse { path: String, reason: String },
    #[error("`{key}` in the configuration: {reason}")]
    Value { key: &'static str, reason: String },
    #[error(
        "no Discord token: set DISCORD_TOKEN, or `token` in the configuration (see config.example.toml)"
    )]
    NoToken,
}

/// The file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct File {
    token: Token,
    database: Option<String>,
    guild: Option<String>,
    time_zone: Option<String>,
    rest_proxy: Option<String>,
    shards: Option<String>,
    shard_total: Option<u32>,
    turns: FileTurns,
    log: FileLog,
    /// Quotas and rate limits (docs/reliability.md, "Quotas").
    #[serde(default)]
    limits: crate::referee::Limits,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct FileTurns {
    length: Option<String>,
    reminders: Option<Vec<String>>,
    resolve: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct FileLog {
    level: Option<String>,
    ansi: Option<bool>,
}

/// Which gateway shards this process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shards {
    /// Every shard, as many as Discord recommends (`GET /gateway/bot`), in this process.
    Auto,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

impl Shards {
    /// The shard that carries a guild's events, as Discord assigns it.
    pub fn of_guild(guild: u64, total: u32) -> u32 {
        u32::try_from((guild >> 22) % u64::from(total.max(1))).unwrap_or(0)
    }

    /// Whether this range receives the DMs (always shard 0).
    pub fn has_dms(self) -> bool {
        match self {
            Shards::Auto => true,
            Shards::Range { first, .. } => first == 0,
        }
    }
}

impl fmt::Display for Shards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shards::Auto => f.write_str("auto"),
            Shards::Range { first, last, total } => write!(f, "{first}-{last} of {total}"),
        }
    }
}

/// Reads `shards` (`"2"` or `"0-1"`) against `shard_total`.
fn shards(range: Option<&str>, total: Option<u32>) -> Result<Shards, ConfigError> {
    let Some(total) = total else {
        return match range {
            None => Ok(Shards::Auto),
            Some(_) => Err(ConfigError::Value {
                key: "shards",
                reason: "a shard range needs `shard_total`, the number of shards of all processes together".into(),
            }),
        };
    };
    if total == 0 {
        return Err(ConfigError::Value {
            key: "shard_total",
            reason: "there is at least one shard".into(),
        });
    }
    let Some(range) = range.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(Shards::Range {
            first: 0,
            last: total - 1,
            total,
        });
    };
    let bad = || ConfigError::Value {
        key: "shards",
        reason: format!("`{range}` is not a shard or a range such as 0-1"),
    };
    let (first, last) = match range.split_once('-') {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n: u32 = range.parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if first > last || last >= total {
        return Err(ConfigError::Value {
            key: "shards",
            reason: format!(
                "`{range}` is not within shards 0 to {} of `shard_total = {total}`",
                total - 1
            ),
        });
    }
    Ok(Shards::Range { first, last, total })
}

/// Everything `photofinish run` needs, read and checked.
#[derive(Clone, Debug)]
pub struct Settings {
    pub token: Token,
    /// `sqlite:path` or a plain path.
    pub database: String,
    /// Register the slash commands in this server only (they show at once) instead of
    /// globally.
    pub guild: Option<u64>,
    /// Where plain-text times (embed footers) are shown.
    pub time_zone: FixedOffset,
    /// A REST proxy (such as twilight-http-proxy) that rate-limits for the bot; serenity's
    /// own rate limiter is then off. Tests point this at a fake Discord.
    pub rest_proxy: Option<String>,
    /// The gateway shards this process runs.
    pub shards: Shards,
    /// Timing for new races.
    pub timing: Timing,
    /// A `tracing` filter such as `info` or `photofinish=debug,serenity=warn`.
    pub log_level: String,
    pub log_ansi: bool,
    /// Quotas and rate limits.
    pub limits: crate::referee::Limits,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            token: Token::default(),
            database: "photofinish.db".into(),
            guild: None,
            time_zone: utc(),
            rest_proxy: None,
            shards: Shards::Auto,
            timing: crate::referee::Config::default().default_timing,
            log_level: "info".into(),
            log_ansi: false,
            limits: crate::referee::Limits::default(),
        }
    }
}

fn utc() -> FixedOffset {
    chrono::Utc.fix()
}

/// Reads `UTC`, `Z`, `+02:00`, `-0530` or `+2`.
pub fn parse_offset(text: &str) -> Option<FixedOffset> {
    let t = text.trim();
    let t = t
        .strip_prefix("UTC")
        .or_else(|| t.strip_prefix("utc"))
        .or_else(|| t.strip_prefix("GMT"))
        .unwrap_or(t);
    if t.is_empty() || t.eq_ignore_ascii_case("z") {
        return Some(utc());
    }
    let (sign, rest) = match t.chars().next()? {
        '+' => (1, &t[1..]),
        '-' => (-1, &t[1..]),
        _ => return None,
    };
    let (h, m) = match rest.split_once(':') {
        Some((h, m)) => (h, m),
        None if rest.len() == 4 => rest.split_at(2),
        None => (rest, "0"),
    };
    let h: i32 = h.parse().ok()?;
    let m: i32 = m.parse().ok()?;
    if !(0..=14).contains(&h) || !(0..60).contains(&m) {
        return None;
    }
    FixedOffset::east_opt(sign * (h * 3600 + m * 60))
}

fn duration(key: &'static str, text: &str) -> Result<u64, ConfigError> {
    parse_duration(text).ok_or_else(|| ConfigError::Value {
        key,
        reason: format!("`{text}` is not a duration such as 30m, 24h or 2d"),
    })
}

impl Settings {
    /// Reads `path`; a missing file is fine when `required` is false (defaults apply).
    /// `env_token` (from `DISCORD_TOKEN`) wins over the file's token.
    pub fn load(
        path: &Path,
        required: bool,
        env_token: Option<String>,
    ) -> Result<Settings, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => String::new(),
            Err(e) => {
                return Err(ConfigError::Read {
                    path: path.display().to_string(),
                    reason: e.to_string(),
                });
            }
        };
        let mut settings = Settings::from_toml(&text).map_err(|e| match e {
            ConfigError::Parse { reason, .. } => ConfigError::Parse {
                path: path.display().to_string(),
                reason,
            },
            other => other,
        })?;
        if let Some(token) = env_token.filter(|t| !t.trim().is_empty()) {
            settings.token = Token::new(token);
        }
        if settings.token.is_empty() {
            return Err(ConfigError::NoToken);
        }
        Ok(settings)
    }

    /// Reads the configuration's text (the token may still be empty).
    pub fn from_toml(text: &str) -> Result<Settings, ConfigError> {
        let file: File = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: "the configuration".into(),
            reason: e.to_string(),
        })?;
        let mut s = Settings {
            token: Token::new(file.token.expose()),
            ..Settings::default()
        };
        if let Some(db) = file.database.filter(|d| !d.trim().is_empty()) {
            s.database = db;
        }
        if let Some(g) = file.guild.filter(|g| !g.trim().is_empty()) {
            s.guild = Some(g.trim().parse().map_err(|_| ConfigError::Value {
                key: "guild",
                reason: format!("`{g}` is not a server id (a number)"),
            })?);
        }
        if let Some(tz) = file.time_zone {
            s.time_zone = parse_offset(&tz).ok_or_else(|| ConfigError::Value {
                key: "time_zone",
                reason: format!("`{tz}` is not UTC or an offset such as +02:00"),
            })?;
        }
        s.rest_proxy = file
            .rest_proxy
            .map(|p| p.trim().trim_end_matches('/').to_string())
            .filter(|p| !p.is_empty());
        s.shards = shards(file.shards.as_deref(), file.shard_total)?;
        if let Some(len) = file.turns.length {
            let secs = duration("turns.length", &len)?;
            if !(10..=30 * 86_400).contains(&secs) {
                return Err(ConfigError::Value {
                    key: "turns.length",
                    reason: "a turn lasts from 10 seconds to 30 days".into(),
                });
            }
            s.timing.turn_secs = secs;
        }
        if let Some(list) = file.turns.reminders {
            let mut reminders = list
                .iter()
                .map(|r| duration("turns.reminders", r))
                .collect::<Result<Vec<_>, _>>()?;
            reminders.sort_unstable_by(|a, b| b.cmp(a));
            reminders.dedup();
            s.timing.reminders = reminders;
        }
        if let Some(resolve) = file.turns.resolve {
            s.timing.resolve_early = match resolve.trim().to_ascii_lowercase().as_str() {
                "early" => true,
                "deadline" => false,
                other => {
                    return Err(ConfigError::Value {
                        key: "turns.resolve",
                        reason: format!("`{other}`: use `early` or `deadline`"),
                    });
                }
            };
        }
        if let Some(level) = file.log.level.filter(|l| !l.trim().is_empty()) {
            s.log_level = level;
        }
        s.log_ansi = file.log.ansi.unwrap_or(false);
        s.limits = file.limits;
        s.limits
            .check_timing(&s.timing)
            .map_err(|e| ConfigError::Value {
                key: "turns.reminders",
                reason: e.to_string(),
            })?;
        Ok(s)
    }

    /// The referee's settings drawn from these.
    pub fn referee_config(&self) -> crate::referee::Config {
        crate::referee::Config {
            default_timing: self.timing.clone(),
            limits: self.limits.clone(),
            ..crate::referee::Config::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let s = Settings {
            token: Token::new("MTIz.secret.value"),
            ..Settings::default()
        };
        let shown = format!("{s:?} {}", s.token);
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains("Token(hidden)"));
    }

    #[test]
    fn the_example_configuration_reads() {
        let text = include_str!("../../config.example.toml");
        let s = Settings::from_toml(text).unwrap();
        assert_eq!(s.timing.turn_secs, 86_400);
        assert_eq!(s.timing.reminders, vec![12 * 3600, 3600]);
        assert!(s.timing.resolve_early);
        assert_eq!(s.time_zone, utc());
        assert_eq!(s.database, "photofinish.db");
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
            [turns]
            length = "2h"
            reminders = ["10m", "1h"]
            resolve = "deadline"
            [log]
            level = "debug"
            ansi = true
            "#,
        )
        .unwrap();
        assert_eq!(s.token.expose(), "abc");
        assert_eq!(s.database, "sqlite:races.db");
        assert_eq!(s.guild, Some(1234));
        assert_eq!(s.time_zone, FixedOffset::east_opt(7200).unwrap());
        assert_eq!(s.rest_proxy.as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(s.timing.turn_secs, 7200);
        assert_eq!(s.timing.reminders, vec![3600, 600]);
        assert!(!s.timing.resolve_early);
        assert_eq!(s.log_level, "debug");
        assert!(s.log_ansi);

        let err = Settings::from_toml("time_zone = \"Mars\"").unwrap_err();
        assert!(err.to_string().contains("time_zone"), "{err}");
        let err = Settings::from_toml("[turns]\nlength = \"1s\"").unwrap_err();
        assert!(err.to_string().contains("turns.length"), "{err}");
        let err = Settings::from_toml("tokn = \"x\"").unwrap_err();
        assert!(err.to_string().contains("tokn"), "{err}");
    }

    #[test]
    fn the_environment_token_wins_and_a_token_is_required() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "token = \"from-file\"").unwrap();
        let s = Settings::load(&path, true, Some("from-env".into())).unwrap();
        assert_eq!(s.token.expose(), "from-env");
        let s = Settings::load(&path, true, None).unwrap();
        assert_eq!(s.token.expose(), "from-file");
        let missing = dir.path().join("none.toml");
        assert!(matches!(
            Settings::load(&missing, false, None),
            Err(ConfigError::NoToken)
        ));
        assert!(matches!(
            Settings::load(&missing, true, Some("t".into())),
            Err(ConfigError::Read { .. })
        ));
        assert_eq!(
            Settings::load(&missing, false, Some("t".into()))
                .unwrap()
                .token
                .expose(),
            "t"
        );
    }

    #[test]
    fn shard_ranges_read_and_bad_ones_are_named() {
        let read = |t: &str| Settings::from_toml(t).map(|s| s.shards);
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
    fn guilds_map_to_shards_as_discord_does() {
        // Discord's documented example: (guild_id >> 22) % num_shards.
        assert_eq!(Shards::of_guild(197_038_439_483_310_086, 2), 0);
        assert_eq!(Shards::of_guild(41_771_983_444_115_456, 2), 1);
        assert_eq!(Shards::of_guild(5, 0), 0);
    }

    #[test]
    fn offsets_read() {
        assert_eq!(parse_offset("UTC"), Some(utc()));
        assert_eq!(
            parse_offset("-05:30"),
            FixedOffset::east_opt(-(5 * 3600 + 1800))
        );
        assert_eq!(parse_offset("+0100"), FixedOffset::east_opt(3600));
        assert_eq!(parse_offset("+2"), FixedOffset::east_opt(7200));
        assert_eq!(parse_offset("Europe/Paris"), None);
        assert_eq!(parse_offset("+15:00"), None);
    }
}
