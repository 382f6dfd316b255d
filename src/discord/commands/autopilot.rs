//! `/race autopilot`: shows or sets the user's seat's autopilot in the
//! channel's race (`ask`, `auto`, `bot`). The DM prompt's button does the same
//! (`handlers.rs`). Answers are ephemeral.

use super::super::reply::note;
use super::super::shared::{Ctx, Error};
use super::common::{on_race, user_of};
use crate::referee::autopilot::describe;

/// Who decides for your seat: ask (always asked), auto (forced and obvious orders played for you), bot.
#[poise::command(slash_command)]
pub(super) async fn autopilot(
    ctx: Ctx<'_>,
    #[description = "ask, auto or bot (empty: show the current setting)"]
    #[autocomplete = "autocomplete_setting"]
    setting: Option<String>,
) -> Result<(), Error> {
    let user = user_of(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.set_autopilot(race, &user, setting.as_deref()).await },
        |_, set| note("Autopilot", describe(set)),
    )
    .await
}

async fn autocomplete_setting(
    _ctx: Ctx<'_>,
    partial: &str,
) -> poise::serenity_prelude::CreateAutocompleteResponse {
    let p = partial.to_ascii_lowercase();
    crate::engine::Autopilot::ALL
        .iter()
        .filter(|a| a.name().starts_with(&p))
        .fold(
            poise::serenity_prelude::CreateAutocompleteResponse::new(),
            |r, a| r.add_string_choice(a.name(), a.name()),
        )
}
