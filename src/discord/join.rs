//! Taking a seat from Discord (`/race join` and the lobby's Join button): the join, a
//! DM to check the bot can reach the player, and the menu of pre-race choices.

use poise::serenity_prelude as serenity;

use super::dress;
use super::layout::{self, Layout};
use super::reply::{note, refusal};
use super::shared::Shared;
use crate::referee::Actor;
use crate::render::escape_markdown;
use crate::vocab::{CampaignId, UserId};

/// Sends a short DM to check the bot can reach the player; false when Discord answers
/// 50007 (DMs closed). Other failures are logged and not held against the player.
pub async fn preflight(shared: &Shared, http: &serenity::Http, user: &UserId, text: &str) -> bool {
    let Some(id) = user.0.parse::<u64>().ok().filter(|u| *u != 0) else {
        return true;
    };
    let sent = match shared.courier.dm_channel(id).await {
        Ok(channel) => channel
            .send_message(
                http,
                dress::create_message(&note("You're in the race", text)),
            )
            .await
            .map(|_| ()),
        Err(e) => Err(e),
    };
    match sent {
        Ok(()) => true,
        Err(e) if super::courier::is_dm_closed(&e) => false,
        Err(e) => {
            tracing::warn!("the DM check failed: {e}");
            true
        }
    }
}

/// Takes a seat, checks the player's DMs, and says how it went.
pub async fn join_flow(
    shared: &Shared,
    http: &serenity::Http,
    actor: &Actor,
    race: CampaignId,
    name: Option<&str>,
    choice: Option<&str>,
) -> Layout {
    let seat = match shared.referee.join(race, actor, name, choice).await {
        Ok(seat) => seat,
        Err(e) => return refusal(&e),
    };
    shared.poke();
    let (seat_name, kind, options) = match shared.referee.overview(race).await {
        Ok(o) => (
            o.seats
                .get(seat.index())
                .map(|s| s.name.clone())
                .unwrap_or_else(|| actor.name.clone()),
            o.kind,
            o.options,
        ),
        Err(e) => return refusal(&e),
    };
    let seat_name = escape_markdown(&seat_name);
    let dm_ok = preflight(
        shared,
        http,
        &actor.user,
        &format!(
            "You run as **{seat_name}** in {kind} race {race}. When a turn opens I'll DM you here: press a button, or reply with your order as text (like `7`)."
        ),
    )
    .await;
    let mut text = format!("You're in race {race} as **{seat_name}**.");
    if dm_ok {
        text.push_str(" I'll DM you when it's time to order.");
    } else {
        text.push_str(
            "\n**I can't DM you.** Open your DMs (Privacy Settings: allow direct messages from server members), or send each order here with `/race order`: only you will see it.",
        );
    }
    text.push_str(&presets(kind));
    let mut joined = note("Joined", &text);
    if let Some(row) = seat_choice_row(kind, &options, race, choice) {
        joined.rows = Some(vec![row]);
    }
    joined
}

/// How much is decided for the player, offered once at Join: the seat starts on `auto`.
fn presets(kind: crate::games::GameKind) -> String {
    let standing = if kind.preference_help().is_some() {
        " · **let my own rules run** (DM `help` to set them)"
    } else {
        ""
    };
    format!(
        "\nHow much I decide for you: **ask me everything** (`/race autopilot ask`) · **only real decisions** (now: forced and obvious orders are played for you){standing} · **let the bot play** (`/race autopilot bot`)."
    )
}

/// The menu of pre-race choices after Join (Dream Mile's maximum speed), or `None` for a
/// game without one. `options` is the race's options as the lobby shows them.
fn seat_choice_row(
    kind: crate::games::GameKind,
    options: &str,
    race: CampaignId,
    chosen: Option<&str>,
) -> Option<layout::Row> {
    let json = kind.apply_options(None, options).ok()?;
    let menu = kind.seat_choice_menu(&json);
    if menu.is_empty() {
        return None;
    }
    let help = kind.seat_choice_help().unwrap_or("your pre-race choice");
    Some(layout::Row::Select(layout::SelectSpec {
        custom_id: layout::seat_choice_id(race),
        placeholder: layout::clip(
            &match chosen {
                Some(c) => format!("Chosen: {c}; pick to change it"),
                None => format!("Choose {help}"),
            },
            layout::limits::PLACEHOLDER,
        ),
        options: menu
            .into_iter()
            .take(layout::limits::SELECT_OPTIONS)
            .collect(),
    }))
}
