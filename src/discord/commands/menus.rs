//! The hosts' context menus on a member (Apps, in a member's menu): "Kick from race" does
//! what `/race kick user:` does, and "Replace seat…" answers with a menu of the race's
//! seats, one of which is then offered to the member as `/race replace` would. They are
//! top-level commands of their own (Discord's user commands), not `/race` subcommands.

use poise::serenity_prelude as serenity;

use super::Ctx;
use super::Error;
use super::common::{answer, race_here, who};
use super::refusal;
use crate::discord::layout::{self, Layout, Row, SelectSpec, clip, limits};
use crate::discord::reply::{Answer, note};
use crate::discord::shared::Shared;
use crate::referee::{Actor, RefereeError};
use crate::render::escape_markdown;
use crate::vocab::{CampaignId, UserId};

/// "Kick from race": the member is out of this channel's race (host).
#[poise::command(context_menu_command = "Kick from race", guild_only)]
pub async fn kick_member(ctx: Ctx<'_>, user: serenity::User) -> Result<(), Error> {
    super::host::kick_user(ctx, &user).await
}

/// "Replace seat…": which seat the member should take over (host).
#[poise::command(context_menu_command = "Replace seat…", guild_only)]
pub async fn replace_member(ctx: Ctx<'_>, user: serenity::User) -> Result<(), Error> {
    let actor = who(ctx);
    let shared = ctx.data().clone();
    answer(ctx, true, async move {
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        seat_menu(&shared, &actor, race, &user).await
    })
    .await
}

/// The menu of seats to offer `user`, for the host (or a server manager) only.
async fn seat_menu(
    shared: &Shared,
    actor: &Actor,
    race: CampaignId,
    user: &serenity::User,
) -> Layout {
    let overview = match shared.referee.overview(race).await {
        Ok(o) => o,
        Err(e) => return refusal(&e),
    };
    if overview.host != actor.user && !actor.manage {
        return refusal(&RefereeError::NotHost);
    }
    let options: Vec<(String, String)> = overview
        .seats
        .iter()
        .enumerate()
        .take(limits::SELECT_OPTIONS)
        .map(|(i, s)| (clip(&s.name, limits::OPTION_TEXT), i.to_string()))
        .collect();
    if options.is_empty() {
        return note("Not done", "This race has no seats to replace yet.");
    }
    let mut out = note(
        "Replace a seat",
        &format!(
            "Which seat should <@{}> take over? They get the offer and a button to accept it.",
            user.id.get()
        ),
    );
    out.rows = Some(vec![Row::Select(SelectSpec {
        custom_id: layout::replace_id(race, user.id.get()),
        placeholder: "The seat to offer".into(),
        options,
    })]);
    out
}

/// A seat picked in that menu: offered to the member, as `/race replace` does.
pub async fn replace_picked(
    shared: &Shared,
    actor: &Actor,
    race: CampaignId,
    user: u64,
    value: Option<&str>,
) -> Answer {
    let overview = match shared.referee.overview(race).await {
        Ok(o) => o,
        Err(e) => return Answer::Reply(refusal(&e)),
    };
    let Some(seat) = value
        .and_then(|v| v.parse::<usize>().ok())
        .and_then(|i| overview.seats.get(i))
    else {
        return Answer::Reply(note("Not done", "Pick one of the seats."));
    };
    let to = UserId::new(user.to_string());
    match shared.referee.replace(race, actor, &seat.name, &to).await {
        Ok(name) => {
            shared.poke();
            let mut l = note(
                "Seat offered",
                &format!(
                    "{}'s seat is offered to <@{user}>; it stays as it is until they accept.",
                    escape_markdown(&name)
                ),
            );
            l.rows = Some(Vec::new());
            Answer::Update(l)
        }
        Err(e) => Answer::Reply(refusal(&e)),
    }
}
