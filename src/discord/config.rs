//! The bot's configuration: its keys ([`KEYS`]), what each may hold, and [`Settings`], the
//! checked result every command uses. The layers (defaults < file < environment < flags)
//! are put together by `crate::cli::config`; this module reads one layer's raw text per
//! key ([`Values`]) and checks it. Every key is documented in `config.example.toml`.
//!
//! No error from here echoes a value: a value may be a secret written in the wrong place.
//! Errors name the key and where its value came from.

use std::collections::BTreeMap;
use std::fmt;

use chrono::FixedOffset;
use serde::Deserialize;
use thiserror::Error;

use crate::referee::timing::parse_duration;
use crate::referee::when::{Zone, parse_zone};
use crate::vocab::Timing;

/// At most this many gateway shards in all: Discord's largest bots run a few thousand.
pub const MAX_SHARDS: u32 = 16_384;

/// What a key holds, as TOML writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Number,
    Bool,
    /// A list of text; in the environment, comma-separated.
    List,
}

/// One configuration key.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// As written in the file: `token`, `turns.length`.
    pub name: &'static str,
    pub kind: Kind,
    /// Masked wherever the configuration is shown.
    pub secret: bool,
    /// The value when no layer sets it, as text.
    pub default: &'static str,
}

impl Key {
    /// `PHOTOFINISH_TOKEN`, `PHOTOFINISH_TURNS_LENGTH`.
    pub fn env(&self) -> String {
        format!(
            "PHOTOFINISH_{}",
            self.name.replace('.', "_").to_ascii_uppercase()
        )
    }
}

const fn key(name: &'static str, kind: Kind, default: &'static str) -> Key {
    Key {
        name,
        kind,
        secret: false,
        default,
    }
}

/// Every key, in the order `photofinish config check` shows them.
pub const KEYS: &[Key] = &[
    Key {
        name: "token",
        kind: Kind::Text,
        secret: true,
        default: "",
    },
    key("database", Kind::Text, "photofinish.db"),
    key("guild", Kind::Text, ""),
    key("time_zone", Kind::Text, "UTC"),
    key("rest_proxy", Kind::Text, ""),
    key("shards", Kind::Text, ""),
    key("shard_total", Kind::Number, ""),
    key("turns.length", Kind::Text, "24h"),
    key("turns.reminders", Kind::List, "12h,1h"),
    key("turns.resolve", Kind::Text, "early"),
    key("log.level", Kind::Text, "info"),
    key("log.ansi", Kind::Bool, "false"),
    // How long without any answer from Discord makes an outage (deadlines held).
    key("outage_after", Kind::Text, "3m"),
    // The final post's animated replay: CPU for each finished race (off on small hosts).
    key("animation", Kind::Bool, "true"),
    // Quotas and rate limits (docs/reliability.md, "Quotas"); 0 turns one off.
    key("limits.lobbies_per_user", Kind::Number, "3"),
    key("limits.running_per_user", Kind::Number, "10"),
    key("limits.lobbies_per_server", Kind::Number, "25"),
    key("limits.running_per_server", Kind::Number, "100"),
    key("limits.reminders_per_turn", Kind::Number, "5"),
    key("limits.reminder_gap_secs", Kind::Number, "60"),
    key("limits.actions_burst", Kind::Number, "10"),
    key("limits.actions_per_minute", Kind::Number, "30"),
    key("limits.commands_burst", Kind::Number, "10"),
    key("limits.commands_per_minute", Kind::Number, "30"),
    key("limits.superseded_orders_kept", Kind::Number, "5"),
    key("limits.preferences_per_seat", Kind::Number, "100"),
    // Retention (docs/reliability.md, "Retention"); 0 keeps everything.
    key("retention.after", Kind::Text, "30d"),
];

/// The key called `name`.
pub fn find_key(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name)
}

/// Where a value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A configuration file (its path as given).
    File(String),
    /// An environment variable.
    Env(String),
    /// A command-line flag.
    Flag(&'static str),
    /// Nobody set it: the built-in default.
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::File(path) => write!(f, "in {path}"),
            Source::Env(var) => write!(f, "from {var}"),
            Source::Flag(flag) => write!(f, "from {flag}"),
            Source::Default => write!(f, "by default"),
        }
    }
}

/// One key's raw text and where it came from. Lists are comma-separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw {
    pub text: String,
    pub source: Source,
}

/// The raw values set by some layer, by key name; a key not here takes its default.
pub type Values = BTreeMap<&'static str, Raw>;

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

/// Why the configuration could not be used. Each is one line, and none quotes a value.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    /// The line is not quoted: it may hold a token written without quotes.
    #[error("{path} is not valid TOML at line {line}, column {column}: {what}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        what: String,
    },
    #[error("{path}: unknown key {key} (the keys are in config.example.toml)")]
    UnknownKey { path: String, key: String },
    #[error("`{key}` {origin}: {reason}")]
    Value {
        key: &'static str,
        origin: Source,
        reason: String,
    },
    #[error(
        "no Discord token: set PHOTOFINISH_TOKEN (or DISCORD_TOKEN), or `token` in the configuration (see config.example.toml)"
    )]
    NoToken,
}

/// Shows an unknown key's name only if it looks like a key (short, lower case): a token
/// pasted into the file can parse as a key.
fn shown_key(name: &str) -> String {
    let tame = !name.is_empty()
        && name.len() <= 24
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
    if tame {
        format!("`{name}`")
    } else {
        "(its name is not shown)".into()
    }
}

/// Line and column (from 1, in characters) of a byte offset.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = text.as_bytes().get(..offset).unwrap_or(text.as_bytes());
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = before
        .get(start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
        + 1;
    (line, column)
}

/// The parser's own words, first line only, with any quoted text that is not a key name or
/// a short literal (`=`, `]]`) taken out.
fn sanitize(message: &str) -> String {
    let first = message.lines().next().unwrap_or_default().trim();
    let mut out = String::new();
    for (i, part) in first.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
            continue;
        }
        let known = part.chars().count() <= 3
            || part == "turns"
            || part == "log"
            || KEYS
                .iter()
                .any(|k| k.name == part || k.name.rsplit('.').next() == Some(part));
        out.push('`');
        out.push_str(if known { part } else { "..." });
        out.push('`');
    }
    out.chars().take(200).collect()
}

fn syntax_error(path: &str, text: &str, error: &toml::de::Error) -> ConfigError {
    let (line, column) = error.span().map_or((0, 0), |s| position(text, s.start));
    ConfigError::Syntax {
        path: path.to_string(),
        line,
        column,
        what: sanitize(error.message()),
    }
}

/// What a key of this kind must be written as.
fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::Text => "expected text in quotes",
        Kind::Number => "expected a whole number",
        Kind::Bool => "expected true or false",
        Kind::List => "expected a list of text, such as [\"12h\", \"1h\"]",
    }
}

/// One key of a file, as raw text.
fn file_value(path: &str, key: &Key, value: &toml::Value) -> Result<String, ConfigError> {
    use toml::Value as V;
    let text = match (key.kind, value) {
        (Kind::Text | Kind::Number | Kind::List, V::String(s)) => Some(s.clone()),
        (Kind::Text | Kind::Number, V::Integer(n)) => Some(n.to_string()),
        (Kind::Bool, V::Boolean(b)) => Some(b.to_string()),
        (Kind::List, V::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(",")),
        _ => None,
    };
    text.ok_or_else(|| ConfigError::Value {
        key: key.name,
        origin: Source::File(path.to_string()),
        reason: expected(key.kind).into(),
    })
}

/// Reads a configuration file's text (`path` only names it in errors).
pub fn read_file(text: &str, path: &str) -> Result<Values, ConfigError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| syntax_error(path, text, &e))?;
    let mut values = Values::new();
    let mut put = |name: &str, value: &toml::Value| -> Result<(), ConfigError> {
        let key = find_key(name).ok_or_else(|| ConfigError::UnknownKey {
            path: path.to_string(),
            key: shown_key(name),
        })?;
        let text = file_value(path, key, value)?;
        values.insert(
            key.name,
            Raw {
                text,
                source: Source::File(path.to_string()),
            },
        );
        Ok(())
    };
    for (name, value) in &table {
        match (name.as_str(), value) {
            ("turns" | "log" | "limits" | "retention", toml::Value::Table(inner)) => {
                for (k, v) in inner {
                    put(&format!("{name}.{k}"), v)?;
                }
            }
            _ => put(name, value)?,
        }
    }
    Ok(values)
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

/// Everything the commands need, read and checked.
#[derive(Clone, Debug)]
pub struct Settings {
    pub token: Token,
    /// A SQLite path or `sqlite:` URL, or a `postgres://` URL.
    pub database: String,
    /// Register the slash commands in this server only (they show at once) instead of
    /// globally.
    pub guild: Option<u64>,
    /// Where plain-text times (embed footers) are shown: an IANA zone, or an offset as
    /// older configurations have it.
    pub time_zone: Zone,
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
    /// Seconds without any answer from Discord that make an outage: deadlines are held
    /// (docs/reliability.md).
    pub outage_after_secs: u64,
    /// How long after a race ends what it no longer needs is kept, in seconds; 0: for ever.
    pub retention_after_secs: u64,
    /// Whether a finished race's final post carries its animated replay (a GIF).
    pub animation: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            token: Token::default(),
            database: "photofinish.db".into(),
            guild: None,
            time_zone: Zone::UTC,
            rest_proxy: None,
            shards: Shards::Auto,
            timing: crate::referee::Config::default().default_timing,
            log_level: "info".into(),
            log_ansi: false,
            limits: crate::referee::Limits::default(),
            outage_after_secs: 180,
            retention_after_secs: crate::referee::Config::default().retention_after_secs,
            animation: true,
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

impl Settings {
    /// Checks the raw values of every layer together; a key not set keeps its default. The
    /// token may still be empty (only `run` needs one).
    pub fn from_values(values: &Values) -> Result<Settings, ConfigError> {
        let get = |name: &str| values.get(name).filter(|r| !r.text.trim().is_empty());
        let mut s = Settings::default();
        if let Some(r) = get("token") {
            s.token = Token::new(r.text.as_str());
        }
        if let Some(r) = get("database") {
            s.database = r.text.trim().to_string();
        }
        if let Some(r) = get("guild") {
            let id = r.text.trim().parse();
            s.guild = Some(id.map_err(|_| bad("guild", r, "not a server id (a number)"))?);
        }
        if let Some(r) = get("time_zone") {
            s.time_zone = parse_zone(&r.text).map_err(|_| {
                bad(
                    "time_zone",
                    r,
                    "not a zone such as Europe/London, UTC or an offset such as +02:00",
                )
            })?;
        }
        s.rest_proxy = get("rest_proxy")
            .map(|r| r.text.trim().trim_end_matches('/').to_string())
            .filter(|p| !p.is_empty());
        s.shards = shards(get("shards"), get("shard_total"))?;
        s.timing = timing(
            get("turns.length"),
            values.get("turns.reminders"),
            get("turns.resolve"),
        )?;
        if let Some(r) = get("log.level") {
            s.log_level = r.text.trim().to_string();
        }
        if let Some(r) = get("log.ansi") {
            s.log_ansi = boolean("log.ansi", r)?;
        }
        if let Some(r) = get("outage_after") {
            s.outage_after_secs = duration("outage_after", r, &r.text)?.max(1);
        }
        if let Some(r) = get("animation") {
            s.animation = boolean("animation", r)?;
        }
        s.limits = limits(&get)?;
        if let Some(r) = get("retention.after") {
            s.retention_after_secs = match r.text.trim() {
                "0" => 0,
                text => duration("retention.after", r, text)?,
            };
        }
        s.limits
            .check_timing(&s.timing)
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

    /// [`Settings::outage_after_secs`] in milliseconds.
    pub fn outage_after_ms(&self) -> i64 {
        i64::try_from(self.outage_after_secs)
            .unwrap_or(i64::MAX / 1000)
            .saturating_mul(1000)
    }

    /// The referee's settings drawn from these.
    pub fn referee_config(&self) -> crate::referee::Config {
        crate::referee::Config {
            default_timing: self.timing.clone(),
            limits: self.limits.clone(),
            retention_after_secs: self.retention_after_secs,
            ..crate::referee::Config::default()
        }
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
        assert_eq!(s.time_zone, Zone::UTC);
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
            "#,
        )
        .unwrap();
        assert_eq!(s.token.expose(), "abc");
        assert_eq!(s.database, "sqlite:races.db");
        assert_eq!(s.guild, Some(1234));
        assert_eq!(
            s.time_zone,
            Zone::Fixed(FixedOffset::east_opt(7200).unwrap())
        );
        assert_eq!(s.rest_proxy.as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(s.timing.turn_secs, 7200);
        assert_eq!(s.timing.reminders, vec![3600, 600]);
        assert!(!s.timing.resolve_early);
        assert_eq!(s.log_level, "debug");
        assert!(s.log_ansi);
        assert!(!s.animation);

        for (text, key) in [
            ("animation = \"sometimes\"", "`animation`"),
            ("time_zone = \"Mars\"", "`time_zone` in the configuration"),
            ("[turns]\nlength = \"1s\"", "`turns.length`"),
            ("tokn = \"x\"", "`tokn`"),
            ("shard_total = \"four\"", "`shard_total`"),
            ("[log]\nansi = \"maybe\"", "`log.ansi`"),
            ("[turns]\nreminders = 3", "`turns.reminders`"),
        ] {
            let err = Settings::from_toml(text).unwrap_err().to_string();
            assert!(err.contains(key), "{text}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }

    /// A token written without quotes once went to stderr, the log and the health check.
    #[test]
    fn a_syntax_error_names_the_line_and_column_never_the_text() {
        let text = "database = \"x.db\"\ntoken = MTIzNDU2.Gx-secret_value\n";
        let err = read_file(text, "config.toml").unwrap_err();
        let ConfigError::Syntax { line, column, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!((*line, *column), (2, 9), "{err}");
        let shown = err.to_string();
        assert!(shown.starts_with("config.toml is not valid TOML at line 2, column 9"));
        assert!(
            !shown.contains("secret") && !shown.contains("MTIz"),
            "{shown}"
        );
        assert!(!shown.contains('\n'), "{shown}");
        // Unterminated, and a token on a line of its own.
        for text in [
            "token = \"MTIzNDU2.Gx-secret_value\n",
            "MTIzNDU2.Gx-secret_value\n",
            "token = 'MTIzNDU2.Gx-secret_value' junk\n",
        ] {
            let shown = read_file(text, "c.toml").unwrap_err().to_string();
            assert!(shown.contains("line 1"), "{shown}");
            assert!(!shown.contains("secret"), "{shown}");
        }
        // A token that parses as a key is not named.
        let shown = read_file("MTIzNDU2Gxsecretvalue = 1\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(!shown.contains("secret"), "{shown}");
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
        assert_eq!(s.time_zone.to_string(), "Europe/Paris");
        let s = Settings::from_toml("time_zone = \"-05:00\"").unwrap();
        assert_eq!(s.time_zone.to_string(), "UTC-05:00");
        let err = Settings::from_toml("time_zone = \"Europe/Pariss\"").unwrap_err();
        assert!(err.to_string().contains("Europe/London"), "{err}");
    }
}
