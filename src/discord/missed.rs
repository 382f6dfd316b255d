//! Missed DMs (docs/reliability.md): after a gateway session that could not resume (a
//! READY, not RESUMED), Discord does not send what was written meanwhile. So the bot reads
//! the DM channel of each seat that owes an order, for the messages after the last one it
//! handled from that player (`Store::dm_seen`), and handles each as if it had arrived.
//! A player the bot has no record of is read from after the bot's own newest DM to them
//! (their prompt), so older orders are never played again.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::shared::Shared;
use crate::vocab::UserId;

/// Messages read per DM channel in one catch-up.
const PAGE: u8 = 100;

/// Remembers a DM as handled, so that a catch-up never reads it again.
pub async fn seen(shared: &Shared, user: u64, message: u64) {
    let now = shared.referee.clock().now();
    let who = UserId::new(user.to_string());
    if let Err(e) = shared.referee.store().set_dm_seen(&who, message, now).await {
        tracing::warn!(user, "cannot remember the last DM handled: {e}");
    }
}

/// The players of running races whose seat owes an order now (one read of the store, not
/// a load of every open race).
async fn owing(shared: &Shared) -> Vec<u64> {
    match shared.referee.owing_players().await {
        Ok(users) => users
            .iter()
            .filter_map(|u| u.0.parse::<u64>().ok())
            .collect(),
        Err(e) => {
            tracing::warn!("cannot list the players who owe an order for missed DMs: {e}");
            Vec::new()
        }
    }
}

/// Reads each owing player's DMs since the last one handled, and handles them in order.
pub async fn catch_up(ctx: serenity::Context, shared: Arc<Shared>) {
    let users = owing(&shared).await;
    let mut handled = 0usize;
    for user in users {
        match read(&ctx, &shared, user).await {
            Ok(n) => handled = handled.saturating_add(n),
            Err(e) => tracing::warn!(user, "cannot read the DMs missed: {e}"),
        }
    }
    if handled > 0 {
        tracing::info!(
            handled,
            "DMs missed while the gateway was away were handled"
        );
    }
}

/// One player's missed DMs: how many were handled.
async fn read(
    ctx: &serenity::Context,
    shared: &Arc<Shared>,
    user: u64,
) -> Result<usize, serenity::Error> {
    let channel = shared.courier.dm_channel(user).await?;
    let who = UserId::new(user.to_string());
    let last = match shared.referee.store().dm_seen(&who).await {
        Ok(l) => l.and_then(|m| m.parse::<u64>().ok()).filter(|m| *m != 0),
        Err(e) => {
            tracing::warn!(user, "cannot read the last DM handled: {e}");
            return Ok(0);
        }
    };
    let ask = serenity::GetMessages::new().limit(PAGE);
    let mut page = match last {
        Some(after) => {
            channel
                .messages(&ctx.http, ask.after(serenity::MessageId::new(after)))
                .await?
        }
        None => channel.messages(&ctx.http, ask).await?,
    };
    page.sort_by_key(|m| m.id);
    let floor = match last {
        Some(after) => after,
        // No record: only what follows the bot's own newest DM (the prompt).
        None => match page.iter().rev().find(|m| m.author.bot) {
            Some(m) => m.id.get(),
            None => return Ok(0),
        },
    };
    let mut handled = 0;
    for msg in page
        .iter()
        .filter(|m| m.id.get() > floor && m.author.id.get() == user && !m.author.bot)
    {
        super::handlers::dm_text(ctx, shared, msg).await;
        seen(shared, user, msg.id.get()).await;
        handled += 1;
    }
    Ok(handled)
}
