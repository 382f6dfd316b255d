//! The Discord adapter's own settings' types: the bot's [`Token`], which never shows,
//! and the gateway [`Shards`] this process runs. The configuration module reads them
//! (`crate::config`).

use std::fmt;

use serde::Deserialize;

/// At most this many gateway shards in all: Discord's largest bots run a few thousand.
pub const MAX_SHARDS: u32 = 16_384;

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
