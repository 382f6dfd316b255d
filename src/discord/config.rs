//! The Discord adapter's section of the configuration ([`Settings`]): the bot's
//! [`Token`], which never shows, the gateway [`Shards`] this process runs, and what the
//! adapter shows and holds. The configuration module (`crate::config`) reads it.

use std::fmt;
use std::time::Duration;

use serde::Deserialize;

use crate::referee::when::Zone;

/// At most this many gateway shards in all: Discord's largest bots run a few thousand.
pub const MAX_SHARDS: u32 = 16_384;

/// The longest one Discord REST request may take, unless configured: an upload of the
/// final post's GIF fits well within it.
pub const DEFAULT_REST_TIMEOUT: Duration = Duration::from_secs(60);

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

/// What the Discord adapter needs, read and checked.
#[derive(Clone, Debug)]
pub struct Settings {
    pub token: Token,
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
    /// Seconds without any answer from Discord that make an outage: deadlines are held
    /// (docs/reliability.md).
    pub outage_after_secs: u64,
    /// Whether a finished race's final post carries its animated replay (a GIF).
    pub animation: bool,
    /// Seconds a stopping bot lets work in progress finish before handing it back.
    pub drain_secs: u64,
    /// The longest one REST request to Discord may take, answer included: past it, the
    /// request fails as "no answer" (docs/reliability.md, "No request waits for ever").
    pub rest_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            token: Token::default(),
            guild: None,
            time_zone: Zone::UTC,
            rest_proxy: None,
            shards: Shards::Auto,
            outage_after_secs: 180,
            animation: true,
            drain_secs: 10,
            rest_timeout: DEFAULT_REST_TIMEOUT,
        }
    }
}

impl Settings {
    /// [`Settings::outage_after_secs`] in milliseconds.
    pub fn outage_after_ms(&self) -> i64 {
        i64::try_from(self.outage_after_secs)
            .unwrap_or(i64::MAX / 1000)
            .saturating_mul(1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guilds_map_to_shards_as_discord_does() {
        // Discord's documented example: (guild_id >> 22) % num_shards.
        assert_eq!(Shards::of_guild(197_038_439_483_310_086, 2), 0);
        assert_eq!(Shards::of_guild(41_771_983_444_115_456, 2), 1);
        assert_eq!(Shards::of_guild(5, 0), 0);
    }
}
