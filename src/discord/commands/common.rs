//! What every command shares: who is asking, which race (this channel's, or the user's
//! one race in a DM, never another server's), and answering in time.

use std::future::Future;

use poise::serenity_prelude as serenity;

use super::super::dress;
use super::super::layout::Layout;
use super::super::reply::{actor, refusal};
use super::super::shared::{Ctx, Error};
use crate::games::GameKind;
use crate::referee::RefereeError;
use crate::vocab::{CampaignId, UserId};

/// Runs `work` and sends what it returns. The command check acknowledged the command
/// before anything waited (a deferral, ephemeral unless the command's answer is public).
pub(super) async fn answer<F>(ctx: Ctx<'_>, ephemeral: bool, work: F) -> Result<(), Error>
where
    F: Future<Output = Layout>,
{
    let layout = work.await;
    ctx.data().poke();
    send_after_work(ctx, &layout, ephemeral).await;
    Ok(())
}

/// Sends the answer to work that has run (and may have committed): a failure is retried
/// once, then logged, and never becomes "nothing was changed". What the work changed is
/// announced by the outbox in any case.
pub(super) async fn send_after_work(ctx: Ctx<'_>, layout: &Layout, ephemeral: bool) {
    for attempt in 0..2 {
        match send_answer(ctx, layout, ephemeral).await {
            Ok(()) => return,
            Err(e) if attempt == 0 => {
                tracing::warn!("could not answer a command, retrying: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            }
            Err(e) => tracing::warn!("could not answer a command after its work: {e}"),
        }
    }
}

/// Sends a command's answer. An interaction's token lasts 15 minutes: an answer that comes
/// later (a deferred command that took that long) goes to its user by DM, not lost.
pub(super) async fn send_answer(
    ctx: Ctx<'_>,
    layout: &Layout,
    ephemeral: bool,
) -> Result<(), Error> {
    match ctx.send(dress::reply(layout, ephemeral)).await {
        Ok(_) => Ok(()),
        Err(e) if super::super::courier::is_token_expired(&e) => {
            tracing::info!("a command's answer came after its interaction expired: sent by DM");
            ctx.author()
                .direct_message(ctx.http(), dress::create_message(layout))
                .await?;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

pub(super) fn who(ctx: Ctx<'_>) -> crate::referee::Actor {
    match ctx {
        poise::Context::Application(a) => actor(ctx.author(), a.interaction.member.as_deref()),
        poise::Context::Prefix(_) => actor(ctx.author(), None),
    }
}

pub(super) fn user_of(ctx: Ctx<'_>) -> UserId {
    UserId::new(ctx.author().id.get().to_string())
}

/// The race of this channel; in a DM, the user's race if they are in exactly one.
pub(super) async fn race_here(ctx: Ctx<'_>) -> Result<CampaignId, RefereeError> {
    let referee = &ctx.data().referee;
    match referee.race_in(&ctx.channel_id().get().to_string()).await {
        Ok(race) => same_server(ctx, race).await,
        Err(RefereeError::NoRace) if ctx.guild_id().is_none() => {
            match referee.races_of(&user_of(ctx)).await?.as_slice() {
                [only] => Ok(*only),
                _ => Err(RefereeError::NoRace),
            }
        }
        Err(e) => Err(e),
    }
}

/// The race, unless the command came from another server than the race's: Manage
/// Server there is no authority here.
async fn same_server(ctx: Ctx<'_>, race: CampaignId) -> Result<CampaignId, RefereeError> {
    let Some(here) = ctx.guild_id() else {
        return Ok(race);
    };
    let row = ctx.data().referee.store().load(race).await?;
    match row.and_then(|l| l.campaign.guild) {
        Some(g) if g != here.get().to_string() => Err(RefereeError::NoRace),
        _ => Ok(race),
    }
}

/// Like [`race_here`], but a finished race still answers for its channel.
pub(super) async fn race_here_or_last(ctx: Ctx<'_>) -> Result<CampaignId, RefereeError> {
    match race_here(ctx).await {
        Err(RefereeError::NoRace) => {
            let race = ctx
                .data()
                .referee
                .race_in_or_last(&ctx.channel_id().get().to_string())
                .await?;
            same_server(ctx, race).await
        }
        other => other,
    }
}

/// Runs a request on this channel's race and answers with `done`'s text or the refusal.
pub(super) async fn on_race<T, F, Fut>(
    ctx: Ctx<'_>,
    ephemeral: bool,
    request: F,
    done: impl FnOnce(CampaignId, T) -> Layout,
) -> Result<(), Error>
where
    F: FnOnce(CampaignId) -> Fut,
    Fut: Future<Output = Result<T, RefereeError>>,
{
    answer(ctx, ephemeral, async move {
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        match request(race).await {
            Ok(value) => done(race, value),
            Err(e) => refusal(&e),
        }
    })
    .await
}

pub(super) async fn autocomplete_game(
    _ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let p = partial.to_ascii_lowercase();
    GameKind::all()
        .filter(|k| k.slug().contains(&p) || k.title().to_ascii_lowercase().contains(&p))
        .fold(serenity::CreateAutocompleteResponse::new(), |r, k| {
            r.add_string_choice(k.title(), k.slug())
        })
}
