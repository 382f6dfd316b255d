//! The DM channels opened so far ([`DmChannels`]): one request per user per run, not per
//! DM. Below the courier and the prompts it closes (`stale.rs`), which both send DMs.

use std::collections::HashMap;
use std::sync::Mutex;

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, Http};

/// DM channels by user id, opened once and remembered.
#[derive(Default)]
pub struct DmChannels {
    opened: Mutex<HashMap<u64, ChannelId>>,
}

impl DmChannels {
    /// The DM channel with a user, opened once and remembered.
    pub async fn open(&self, http: &Http, user: u64) -> Result<ChannelId, serenity::Error> {
        if let Ok(cache) = self.opened.lock()
            && let Some(c) = cache.get(&user)
        {
            return Ok(*c);
        }
        let channel = super::rest::timed(
            "create_dm",
            serenity::UserId::new(user).create_dm_channel(http),
        )
        .await?;
        if let Ok(mut cache) = self.opened.lock() {
            cache.insert(user, channel.id);
        }
        Ok(channel.id)
    }
}
