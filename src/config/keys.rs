//! The configuration's keys ([`KEYS`]), what each holds, and one layer's raw text per
//! key ([`Values`]) with where it came from ([`Source`]). Every key is documented in
//! `config.example.toml`.

use std::collections::BTreeMap;
use std::fmt;

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
    // Put into a postgres:// `database` that has none, percent-encoded, so any character
    // works.
    Key {
        name: "database_password",
        kind: Kind::Text,
        secret: true,
        default: "",
    },
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
    // `text` for people, `json` (one object a line) for a log collector.
    key("log.format", Kind::Text, "text"),
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
    // How long a stopping bot (SIGTERM, SIGINT) lets work in progress finish (docs/deploy.md).
    key("shutdown.drain_secs", Kind::Number, "10"),
    // The metrics and health listener of `photofinish run`; off when empty.
    key("metrics.listen", Kind::Text, ""),
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
