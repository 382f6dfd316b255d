//! Time settings: `/race me` (a player's own zone and quiet hours) and
//! `/photofinish config` (a server's default zone, Manage Server). Answers are ephemeral.

use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error};
use super::common::{answer, user_of, who};
use crate::referee::{MyTime, RefereeError};

/// Your time zone and quiet hours, for every race (shown, or set).
#[poise::command(slash_command)]
pub(super) async fn me(
    ctx: Ctx<'_>,
    #[description = "Your time zone, such as Europe/London or America/New_York (off: the server's)"]
    timezone: Option<String>,
    #[description = "Hours no deadline, reminder or nudge should reach you, such as 23:00-07:00 (off: none)"]
    quiet: Option<String>,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let user = user_of(ctx);
    answer(ctx, true, async move {
        match referee
            .set_my_time(&user, timezone.as_deref(), quiet.as_deref())
            .await
        {
            Ok(t) => note("Your time", &describe(&t)),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// What a player's settings say, in a sentence.
pub fn describe(t: &MyTime) -> String {
    let zone = t.zone.map_or_else(
        || "the server's time zone".to_string(),
        |z| format!("the time zone {z}"),
    );
    match t.quiet {
        Some(q) => format!(
            "You use {zone}; your quiet hours are {q}: a deadline that would fall in them while you still owe an order moves to their end, and no reminder or nudge reaches you then."
        ),
        None => format!("You use {zone}, with no quiet hours."),
    }
}

// Discord shows `/photofinish` only to members with Manage Server (its default member
// permissions), but a server may grant it to others: the check here stays.
/// The server's settings (Manage Server): its default time zone.
#[poise::command(slash_command)]
pub(super) async fn config(
    ctx: Ctx<'_>,
    #[description = "The server's time zone, such as Europe/Paris (races that name none use it)"]
    timezone: Option<String>,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let actor = who(ctx);
    let guild = ctx.guild_id().map(|g| g.get().to_string());
    answer(ctx, true, async move {
        let Some(guild) = guild else {
            return note("Not done", "Server settings are set in the server, not in a DM.");
        };
        match timezone {
            None => match referee.server_zone(&guild).await {
                Ok(Some(z)) => note("Server settings", &format!("This server's time zone is {z}.")),
                Ok(None) => note(
                    "Server settings",
                    "This server has no time zone of its own; races use UTC unless they set `zone=`.",
                ),
                Err(e) => refusal(&e),
            },
            Some(_) if !actor.manage => refusal(&RefereeError::Invalid(
                "only a member with Manage Server can change the server's settings".into(),
            )),
            Some(z) => match referee.set_server_zone(&guild, &z).await {
                Ok(z) => note(
                    "Server settings",
                    &format!("This server's time zone is now {z}; races that name no `zone=` use it."),
                ),
                Err(e) => refusal(&e),
            },
        }
    })
    .await
}
