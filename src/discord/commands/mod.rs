//! The `/race` slash commands. Each is a few lines: read the arguments, ask the referee,
//! answer (ephemerally: what the channel should see is posted by the outbox), and wake the
//! workers. Host commands are for the race's host and members with Manage Server; the
//! referee checks that and every refusal is shown, ephemerally, in its words.
//!
//! Nothing here knows a game: games are named by their slug, options are `key=value` text,
//! orders are text or the prompt's own choices.
//!
//! This module owns what every command shares (finding the race, answering in time, the
//! duplicate check), the `/race` root and the `/photofinish` root (server settings); the
//! commands live by group: `lobby.rs`, `play.rs`, `host.rs`, `help.rs`, `archive.rs`
//! (races after their end), `series.rs` (the `/race series` group), `me.rs` (time
//! settings), `autopilot.rs` and `away.rs`.

mod archive;
mod autopilot;
mod away;
mod complete;
mod help;
mod host;
mod lobby;
mod me;
pub mod menus;
mod play;
mod series;

pub use archive::{dress_final, rematch_pressed};
pub use help::help_layout;
pub use host::{parse_moment, parse_signed};

use std::future::Future;
use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::handlers::{ACK_GRACE, actor, note, refusal};
use super::layout::Layout;
use super::{Ctx, Error, Shared, dress};
use crate::games::GameKind;
use crate::referee::RefereeError;
use crate::vocab::{CampaignId, UserId};

/// Poise's error hook: a duplicate interaction is dropped silently; anything else gets a
/// short ephemeral answer and a log line.
pub async fn on_error(error: poise::FrameworkError<'_, Arc<Shared>, Error>) {
    match error {
        poise::FrameworkError::CommandCheckFailed { error: None, .. } => {
            tracing::debug!("duplicate command interaction dropped");
        }
        poise::FrameworkError::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => {
            // A refusal from the check (the user's pace): one polite sentence.
            let layout = match error.downcast_ref::<RefereeError>() {
                Some(e) => refusal(e),
                None => note("Not done", "Please try again in a moment."),
            };
            let _ = ctx.send(dress::reply(&layout, true)).await;
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            // Only what fails before the request ran gets here ([`answer`] keeps a reply
            // that fails after it), yet nothing promises that nothing changed.
            tracing::warn!(command = %ctx.command().qualified_name, "command failed: {error}");
            let _ = ctx
                .send(dress::reply(
                    &note(
                        "Not done",
                        "Something went wrong on our side. Check /race status before you try again.",
                    ),
                    true,
                ))
                .await;
        }
        poise::FrameworkError::ArgumentParse { ctx, error, .. } => {
            // Poise's own answer quotes the input as typed: name no input here.
            tracing::debug!(command = %ctx.command().qualified_name, "unreadable option: {error}");
            let _ = ctx
                .send(dress::reply(
                    &note(
                        "Not done",
                        "I couldn't read one of the command's options; /race help lists them.",
                    ),
                    true,
                ))
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!("error while handling an error: {e}");
            }
        }
    }
}

/// Marks an invocation whose id was checked (poise checks each level of `/race sub`).
struct Checked;

/// Poise's command check: false for an interaction already handled (a duplicate
/// gateway event, here or in another process), a refusal for a user going too fast, true
/// for every level of a new one.
pub async fn not_a_duplicate(ctx: Ctx<'_>) -> Result<bool, Error> {
    if ctx.invocation_data::<Checked>().await.is_some() {
        return Ok(true);
    }
    // Claimed in the store, so that another process given the same event drops it; a
    // slow database gets the interaction acknowledged in time (every answer is ephemeral).
    let claim = ctx.data().claim(ctx.id());
    tokio::pin!(claim);
    let claimed = tokio::select! {
        c = &mut claim => c,
        () = tokio::time::sleep(ACK_GRACE) => {
            if let Err(e) = ctx.defer_ephemeral().await {
                tracing::warn!("could not acknowledge a command: {e}");
            }
            claim.await
        }
    };
    match claimed {
        Ok(true) => {}
        Ok(false) => return Ok(false),
        Err(e) => return Err(Box::new(RefereeError::Store(e))),
    }
    ctx.set_invocation_data(Checked).await;
    // Each command counts once against its user's pace.
    ctx.data().referee.pace_command(&user_of(ctx))?;
    Ok(true)
}

/// Runs `work`, deferring the answer (ephemerally) if it takes longer than Discord's
/// grace, then sends what it returns.
async fn answer<F>(ctx: Ctx<'_>, ephemeral: bool, work: F) -> Result<(), Error>
where
    F: Future<Output = Layout>,
{
    tokio::pin!(work);
    let layout = tokio::select! {
        l = &mut work => l,
        () = tokio::time::sleep(ACK_GRACE) => {
            // The work goes on whatever Discord says: it may be about to commit.
            let deferred = if ephemeral {
                ctx.defer_ephemeral().await
            } else {
                ctx.defer().await
            };
            if let Err(e) = deferred {
                tracing::warn!("could not acknowledge a command: {e}");
            }
            work.await
        }
    };
    ctx.data().poke();
    send_after_work(ctx, &layout, ephemeral).await;
    Ok(())
}

/// Sends the answer to work that has run (and may have committed): a failure is retried
/// once, then logged, and never becomes "nothing was changed". What the work changed is
/// announced by the outbox in any case.
async fn send_after_work(ctx: Ctx<'_>, layout: &Layout, ephemeral: bool) {
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
async fn send_answer(ctx: Ctx<'_>, layout: &Layout, ephemeral: bool) -> Result<(), Error> {
    match ctx.send(dress::reply(layout, ephemeral)).await {
        Ok(_) => Ok(()),
        Err(e) if super::courier::is_token_expired(&e) => {
            tracing::info!("a command's answer came after its interaction expired: sent by DM");
            ctx.author()
                .direct_message(ctx.http(), dress::create_message(layout))
                .await?;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

fn who(ctx: Ctx<'_>) -> crate::referee::Actor {
    match ctx {
        poise::Context::Application(a) => actor(ctx.author(), a.interaction.member.as_deref()),
        poise::Context::Prefix(_) => actor(ctx.author(), None),
    }
}

fn user_of(ctx: Ctx<'_>) -> UserId {
    UserId::new(ctx.author().id.get().to_string())
}

/// The race of this channel; in a DM, the user's race if they are in exactly one.
async fn race_here(ctx: Ctx<'_>) -> Result<CampaignId, RefereeError> {
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
async fn race_here_or_last(ctx: Ctx<'_>) -> Result<CampaignId, RefereeError> {
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
async fn on_race<T, F, Fut>(
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

async fn autocomplete_game(_ctx: Ctx<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.to_ascii_lowercase();
    GameKind::all()
        .filter(|k| k.slug().contains(&p) || k.title().to_ascii_lowercase().contains(&p))
        .fold(serenity::CreateAutocompleteResponse::new(), |r, k| {
            r.add_string_choice(k.title(), k.slug())
        })
}

/// Run a race: `/race new`, `/race join`, `/race start`, and orders by DM.
#[poise::command(
    slash_command,
    subcommands(
        "lobby::new_race",
        "lobby::join",
        "lobby::leave",
        "lobby::start",
        "play::status",
        "play::orders",
        "play::order",
        "host::deadline",
        "host::pause",
        "series::series",
        "lobby::bots",
        "host::replace",
        "host::kick",
        "lobby::settings",
        "play::preference",
        "archive::history",
        "archive::verify",
        "archive::export",
        "archive::archive",
        "host::cancel",
        "help::help",
        "me::me",
        "autopilot::autopilot",
        "away::away",
        "away::back"
    ),
    subcommand_required
)]
pub async fn race(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

// A top-level command of its own: `/race` is full (Discord allows 25 subcommands), and
// Discord applies default member permissions per top-level command only, so members
// without Manage Server do not see it.
/// This server's photofinish settings (Manage Server).
#[poise::command(
    slash_command,
    subcommands("me::config"),
    subcommand_required,
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn photofinish(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}
