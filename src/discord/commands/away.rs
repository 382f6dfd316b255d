//! Absence: `/race away until:` or `days:`, and `/race back` (or
//! `/race away back:True`), for every race the player is seated in. Answers are
//! ephemeral; each race's channel is told by the outbox.

use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error};
use super::common::{answer, who};
use crate::referee::away::describe;

/// Be away: your seats in every race play without you (autopilot, else the bot) until then.
#[poise::command(slash_command)]
pub(super) async fn away(
    ctx: Ctx<'_>,
    #[description = "Until when, in your time zone, such as 2026-12-05 or fri 18:00"] until: Option<
        String,
    >,
    #[description = "Or for how many days, from 1 to 366"]
    #[min = 1]
    #[max = 366]
    days: Option<u32>,
    #[description = "True: you are back; the next step asks you again"] back: Option<bool>,
) -> Result<(), Error> {
    if back == Some(true) {
        return back_now(ctx).await;
    }
    let referee = ctx.data().referee.clone();
    let actor = who(ctx);
    answer(ctx, true, async move {
        match referee.away(&actor, until.as_deref(), days).await {
            Ok(report) => note("Away", &describe(&report)),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// Back: your absence ends in every race; the next step asks you again.
#[poise::command(slash_command)]
pub(super) async fn back(ctx: Ctx<'_>) -> Result<(), Error> {
    back_now(ctx).await
}

/// Ends the caller's absence (`/race back`, or `/race away back:True`, which stays).
async fn back_now(ctx: Ctx<'_>) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let actor = who(ctx);
    answer(ctx, true, async move {
        match referee.back(&actor).await {
            Ok(races) => {
                let list: Vec<String> = races.iter().map(|r| format!("#{}", r.0)).collect();
                note(
                    "Welcome back",
                    &format!(
                        "Your absence is over in race {}; the next step asks you again.",
                        list.join(", ")
                    ),
                )
            }
            Err(e) => refusal(&e),
        }
    })
    .await
}
