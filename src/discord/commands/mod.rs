//! The `/race` slash commands. Each is a few lines: read the arguments, ask the referee,
//! answer (ephemerally: what the channel should see is posted by the outbox), and wake the
//! workers. Host commands are for the race's host and members with Manage Server; the
//! referee checks that and every refusal is shown, ephemerally, in its words.
//!
//! Nothing here knows a game: games are named by their slug, options are `key=value` text,
//! orders are text or the prompt's own choices.
//!
//! This module owns the duplicate check, the error hook, the `/race` root and the
//! `/photofinish` root (server settings); what every command shares (finding the race,
//! answering in time) is `common.rs`, and the commands live by group: `lobby.rs`, `play.rs`, `host.rs`, `help.rs`, `archive.rs`
//! (races after their end), `series.rs` (the `/race series` group), `me.rs` (time
//! settings), `autopilot.rs` and `away.rs`.

mod archive;
mod autopilot;
mod away;
mod common;
mod complete;
mod help;
mod host;
mod lobby;
mod me;
pub mod menus;
mod play;
mod series;

pub use archive::rematch_pressed;
use common::user_of;
pub use help::help_layout;
pub use host::{parse_moment, parse_signed};

use std::sync::Arc;

use super::dress;
use super::reply::{note, refusal};
use super::shared::{Ctx, Error, Shared};
use crate::referee::RefereeError;

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

/// The commands whose answer the whole channel sees; every other answer is ephemeral.
const PUBLIC_ANSWERS: &[&str] = &["race series new"];

/// Marks an invocation whose id was checked (poise checks each level of `/race sub`).
struct Checked;

/// Poise's command check: false for an interaction already handled (a duplicate
/// gateway event, here or in another process), a refusal for a user going too fast, true
/// for every level of a new one. An autocomplete is only checked against duplicates in
/// memory.
pub async fn not_a_duplicate(ctx: Ctx<'_>) -> Result<bool, Error> {
    if ctx.invocation_data::<Checked>().await.is_some() {
        return Ok(true);
    }
    // poise runs this check for every keystroke's autocomplete too: those change nothing,
    // so they claim no row and count against no pace (a duplicate is dropped in memory).
    if let poise::Context::Application(a) = ctx
        && a.interaction_type == poise::CommandInteractionType::Autocomplete
    {
        if !ctx.data().first_time(ctx.id()) {
            return Ok(false);
        }
        ctx.set_invocation_data(Checked).await;
        return Ok(true);
    }
    // A duplicate in this process is dropped before any answer.
    if !ctx.data().first_time(ctx.id()) {
        return Ok(false);
    }
    // Acknowledged before the store is touched, so a slow database cannot cost Discord's
    // 3 seconds; then claimed in the store, so that another process given the same event
    // drops it.
    let public = PUBLIC_ANSWERS
        .iter()
        .any(|n| ctx.command().qualified_name == *n);
    if let Err(e) = defer(ctx, !public).await {
        tracing::warn!("could not acknowledge a command: {e}");
    }
    match ctx.data().claim_stored(ctx.id()).await {
        Ok(true) => {}
        Ok(false) => return Ok(false),
        Err(e) => return Err(Box::new(RefereeError::Store(e))),
    }
    ctx.set_invocation_data(Checked).await;
    // Each command counts once against its user's pace.
    ctx.data().referee.pace_command(&user_of(ctx))?;
    Ok(true)
}

/// Defers a command's answer, like poise's `defer`, but saying (as every message the bot
/// sends does) that it pings nobody.
async fn defer(ctx: Ctx<'_>, ephemeral: bool) -> Result<(), poise::serenity_prelude::Error> {
    use poise::serenity_prelude as serenity;
    use std::sync::atomic::Ordering;
    let poise::Context::Application(a) = ctx else {
        return Ok(());
    };
    if a.has_sent_initial_response.load(Ordering::SeqCst) {
        return Ok(());
    }
    let data = serenity::CreateInteractionResponseMessage::new()
        .ephemeral(ephemeral)
        .allowed_mentions(dress::no_mentions());
    match a
        .interaction
        .create_response(ctx.http(), serenity::CreateInteractionResponse::Defer(data))
        .await
    {
        Ok(()) => {}
        // Another process given the same event acknowledged it first: if this one wins
        // the claim, its answer edits that acknowledgement rather than answering again.
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)))
            if r.error.code == ALREADY_ACKNOWLEDGED => {}
        Err(e) => return Err(e),
    }
    a.has_sent_initial_response.store(true, Ordering::SeqCst);
    Ok(())
}

/// Discord's code for a second initial answer to one interaction.
const ALREADY_ACKNOWLEDGED: isize = 40060;

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
