//! Everything a player does outside slash commands: the lobby's Join / Leave buttons, the
//! order buttons and menus of a prompt (in a DM, or the ephemeral `/race order` form), and
//! plain-text DM replies (`7`, or `#12 7` for a player in several races; `standing ...`,
//! `pref ...` and `help` set and show standing preferences), and the pre-race choice menu
//! that follows Join (Dream Mile's maximum speed). The answers themselves are `reply.rs`'s,
//! shared with the commands.
//!
//! Every interaction is answered within Discord's 3 seconds: it is acknowledged before
//! its work writes to or waits on the database, and answered when done. A duplicate
//! gateway event (the same interaction or message id) is dropped in memory before the
//! acknowledgement, and in the store after it when another process sharing the database
//! had it first ([`Shared::claim_stored`]).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, ComponentInteractionDataKind, CreateInteractionResponse};

use super::dress;
use super::join::join_flow;
use super::layout::{self, Action, Layout};
use super::order::order_from_component;
use super::reply::answer_interaction;
use super::reply::{Answer, actor, note, prompt_layout, receipt_layout, refusal, sentence};
use super::shared::{Error, Shared};
use crate::games::words::bounded;
use crate::referee::{Actor, RefereeError};
use crate::render::markup::escape_sentence;
use crate::render::{code_text, escape_markdown};
use crate::vocab::{CampaignId, Millis, UserId};

/// Poise's event hook: components and DMs (slash commands are poise's own).
pub async fn event(
    fw: poise::FrameworkContext<'_, Arc<Shared>, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    let shared = fw.user_data;
    let ctx = fw.serenity_context;
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(c),
        } => component(ctx, shared, c).await,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(m),
        } => super::modal::submit(ctx, shared, m).await,
        serenity::FullEvent::Message { new_message }
            if new_message.guild_id.is_none() && !new_message.author.bot =>
        {
            dm_text(ctx, shared, new_message).await;
        }
        _ => {}
    }
    Ok(())
}

/// A pick from the menu after Join: the presser's own seat, while the lobby is open.
async fn seat_choice(shared: &Shared, actor: &Actor, race: CampaignId, value: &str) -> Answer {
    match shared
        .referee
        .set_seat_choice(race, &actor.user, value)
        .await
    {
        Ok(choice) => {
            shared.poke();
            Answer::Reply(note(
                "Choice set",
                &format!(
                    "Race {race}: `{}` is your choice; the lobby shows it. Pick again to change it before the start.",
                    code_text(&choice)
                ),
            ))
        }
        Err(e) => Answer::Reply(refusal(&e)),
    }
}

/// Answers a component interaction, acknowledged before the work starts.
async fn answer_component<F: Future<Output = Answer>>(
    http: &serenity::Http,
    c: &ComponentInteraction,
    work: F,
) {
    answer_interaction!(http, c, work, "an interaction");
}

async fn component(ctx: &serenity::Context, shared: &Arc<Shared>, c: &ComponentInteraction) {
    let http = &*ctx.http;
    let actor = actor(&c.user, c.member.as_ref());
    let Some(action) = layout::parse_id(&c.data.custom_id) else {
        // Changes nothing: a duplicate in this process is all there is to drop.
        if shared.first_time(c.id.get()) {
            answer_component(http, c, async {
                Answer::Reply(note("Not done", "This button is no longer in use."))
            })
            .await;
        }
        return;
    };
    if !shared.first_time(c.id.get()) {
        tracing::debug!(id = c.id.get(), "duplicate interaction dropped");
        return;
    }
    if let Action::OtherOrder { race, step, seat } = action {
        // A modal must be the first answer: nothing is claimed before it.
        return super::modal::open(ctx, shared, c, race, step, seat).await;
    }
    answer_component(http, c, async {
        // Claimed in the store once acknowledged, so that a duplicate in another process
        // changes nothing.
        match shared.claim_stored(c.id.get()).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::debug!(id = c.id.get(), "duplicate interaction dropped");
                return Answer::Nothing;
            }
            Err(e) => return Answer::Reply(refusal(&RefereeError::Store(e))),
        }
        if let Action::Join(race)
        | Action::Leave(race)
        | Action::Accept { race, .. }
        | Action::ReplaceSeat { race, .. }
        | Action::SeatChoice(race)
        | Action::Rematch(race) = action
        {
            // These act on the race named in the button: only where that race is, and at
            // the pace of commands.
            let checked = match shared.referee.pace_command(&actor.user) {
                Ok(()) => posted_here(shared, race, c).await,
                Err(e) => Err(e),
            };
            if let Err(e) = checked {
                return Answer::Reply(refusal(&e));
            }
        }
        act(shared, http, c, &actor, action).await
    })
    .await;
}

/// What a pressed button or picked menu does, once the press is claimed and checked.
async fn act(
    shared: &Arc<Shared>,
    http: &serenity::Http,
    c: &ComponentInteraction,
    actor: &Actor,
    action: Action,
) -> Answer {
    match action {
        Action::Join(race) => Answer::Reply(join_flow(shared, http, actor, race, None, None).await),
        Action::Rematch(race) => Answer::Reply(
            super::commands::rematch_pressed(shared, http, actor, race, c.channel_id).await,
        ),
        Action::Leave(race) => match shared.referee.leave(race, actor).await {
            Ok(()) => {
                shared.poke();
                Answer::Reply(note("Left", &format!("You left race {race}.")))
            }
            Err(e) => Answer::Reply(refusal(&e)),
        },
        Action::Accept { race, seat } => {
            match shared.referee.accept_seat(race, actor, seat).await {
                Ok(name) => {
                    shared.poke();
                    Answer::Reply(note(
                        "Seat taken",
                        &format!(
                            "You run {} in race {race} from now on.",
                            escape_markdown(&name)
                        ),
                    ))
                }
                Err(e) => Answer::Reply(refusal(&e)),
            }
        }
        Action::Order {
            race,
            step,
            seat,
            pick,
        } => order_from_component(shared, actor, race, step, seat, pick).await,
        // Acts on the presser's own seat only, so it is safe from any DM.
        Action::Autopilot { race, setting } => match shared
            .referee
            .set_autopilot(race, &actor.user, Some(setting.name()))
            .await
        {
            Ok(set) => {
                shared.poke();
                Answer::Reply(note("Autopilot", crate::referee::autopilot::describe(set)))
            }
            Err(e) => Answer::Reply(refusal(&e)),
        },
        Action::SeatChoice(race) => match picked(c) {
            Some(value) => seat_choice(shared, actor, race, &value).await,
            None => Answer::Reply(note("Not done", "Pick one of the choices.")),
        },
        Action::OrderMenu { race, step, seat } => {
            let pick = picked(c).and_then(|v| layout::parse_value(&v));
            match pick {
                Some(pick) => order_from_component(shared, actor, race, step, seat, pick).await,
                None => Answer::Reply(note("Not done", "Pick one of the choices.")),
            }
        }
        Action::ReplaceSeat { race, user } => {
            let value = picked(c);
            super::commands::menus::replace_picked(shared, actor, race, user, value.as_deref())
                .await
        }
        // Answered above (the modal), or never on a component.
        Action::OtherOrder { .. } | Action::ModalOrder { .. } => {
            Answer::Reply(note("Not done", "This button is no longer in use."))
        }
    }
}

/// A select menu's picked value.
fn picked(c: &ComponentInteraction) -> Option<String> {
    match &c.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values.first().cloned(),
        _ => None,
    }
}

/// Whether a lobby or offer button was pressed where its race is: in the race's channel,
/// in the race's server. A `custom_id` names a race, but it is no authority elsewhere.
async fn posted_here(
    shared: &Shared,
    race: CampaignId,
    c: &ComponentInteraction,
) -> Result<(), RefereeError> {
    let overview = shared.referee.overview(race).await?;
    let channel = c.channel_id.get().to_string();
    let guild = c.guild_id.map(|g| g.get().to_string());
    if overview.channel == channel && overview.guild == guild {
        Ok(())
    } else {
        Err(RefereeError::NoRace)
    }
}

/// Splits `#12 7` into the race and the order.
pub fn race_prefix(text: &str) -> (Option<i64>, &str) {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix('#') {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse::<i64>() {
            return (Some(n), rest[digits.len()..].trim());
        }
    }
    (None, t)
}

/// Handles a DM order (live, or read back after a session that could not resume).
pub async fn dm_text(ctx: &serenity::Context, shared: &Arc<Shared>, msg: &serenity::Message) {
    let user = UserId::new(msg.author.id.get().to_string());
    let answer = match shared.claim_dm(msg.id.get()).await {
        Ok(false) => return,
        Err(e) => {
            // Not taken, so the message's id stays free as the nonce of the answer it
            // gets once handled: under that nonce Discord would return this refusal in
            // the receipt's place. Sent once, without a nonce.
            let refused = refusal(&RefereeError::Store(e));
            if let Err(e) = msg
                .channel_id
                .send_message(&*ctx.http, dress::create_message(&refused))
                .await
            {
                tracing::warn!("could not answer a DM: {e}");
            }
            return;
        }
        Ok(true) => match shared.referee.pace_command(&user) {
            Ok(()) => dm_answer(shared, &user, &msg.content, sent_at(msg.id)).await,
            Err(e) => refusal(&e),
        },
    };
    // The receipt is not in the outbox: retry a 429 or 5xx here, under the player's
    // message id as nonce, so a retry after a lost answer does not post twice.
    for wait in [1, 2, 0] {
        let sent = super::rest::timed(
            "create_message",
            msg.channel_id.send_message(
                &*ctx.http,
                dress::create_message(&answer)
                    .nonce(serenity::Nonce::Number(msg.id.get()))
                    .enforce_nonce(true),
            ),
        )
        .await;
        match sent {
            Ok(_) => return,
            Err(e) => {
                let again = matches!(
                    super::courier::classify(&e),
                    crate::referee::delivery::DeliveryError::Retry { .. }
                );
                if !again || wait == 0 {
                    tracing::warn!("could not answer a DM: {e}");
                    return;
                }
                tokio::time::sleep(Duration::from_secs(wait)).await;
            }
        }
    }
}

/// Discord's epoch (2015-01-01) in Unix milliseconds: a snowflake counts from it.
const DISCORD_EPOCH_MS: Millis = 1_420_070_400_000;

/// When Discord made a message: its snowflake's top 42 bits, in Unix milliseconds.
fn sent_at(id: serenity::MessageId) -> Millis {
    Millis::try_from(id.get() >> 22).map_or(Millis::MAX, |ms| ms.saturating_add(DISCORD_EPOCH_MS))
}

/// What a plain-text DM gets back: a receipt, or the reason and the prompt again. The
/// order is bound to the step open when the DM was `sent`.
pub async fn dm_answer(shared: &Shared, user: &UserId, text: &str, sent: Millis) -> Layout {
    let races = match shared.referee.races_of(user).await {
        Ok(r) => r,
        Err(e) => return refusal(&e),
    };
    let (wanted, order) = race_prefix(text);
    let list = races
        .iter()
        .map(std::string::ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let race = match (wanted, races.as_slice()) {
        (_, []) => {
            return note(
                "No race",
                "You aren't running in a race right now. Join one in a server with /race join.",
            );
        }
        (Some(n), _) => match races.iter().find(|r| r.0 == n) {
            Some(r) => *r,
            None => {
                return note(
                    "Not done",
                    &format!("You aren't running in race #{n}. Your races: {list}."),
                );
            }
        },
        (None, [only]) => *only,
        (None, _) => {
            return note(
                "Which race?",
                &format!(
                    "You're running in races {list}. Start your order with the race number, like `#{} {}`.",
                    races.last().map(|r| r.0).unwrap_or(1),
                    if order.trim().is_empty() {
                        "7".to_string()
                    } else {
                        code_text(&bounded(order))
                    }
                ),
            );
        }
    };
    match dm_ask(order) {
        Some(DmAsk::Help) => return dm_help(shared, race).await,
        Some(DmAsk::Preference(text)) => {
            return match shared.referee.set_preference(race, user, text).await {
                Ok(answer) => note(
                    &format!("Race {race}: preferences"),
                    &escape_sentence(&answer),
                ),
                Err(e) => refusal(&e),
            };
        }
        None => {}
    }
    match shared
        .referee
        .submit_written_at(race, user, order, sent)
        .await
    {
        Ok(receipt) => {
            shared.poke();
            let mut l = receipt_layout(&receipt);
            if races.len() > 1
                && let Some(e) = l.embeds.first_mut()
            {
                e.description.push_str(&format!(
                    "\n(You're in several races, so start each order with its race number, as you did: `#{} ...`.)",
                    race.0
                ));
            }
            l
        }
        Err(
            e @ (RefereeError::Order(_) | RefereeError::Invalid(_) | RefereeError::WrittenBefore),
        ) => {
            // The reason, then the prompt again.
            match prompt_layout(shared, race, user, None).await {
                Ok(mut l) => {
                    l.content = Some(layout::clip(
                        &format!("**{}**", sentence(&e)),
                        layout::limits::CONTENT,
                    ));
                    l
                }
                Err(_) => refusal(&e),
            }
        }
        Err(e) => refusal(&e),
    }
}

/// A DM that is not an order: standing preferences, or the help text.
#[derive(Debug, PartialEq, Eq)]
pub enum DmAsk<'a> {
    /// The text `/race preference` takes (`standing remedy, largest`, `dirty-trick ask`).
    Preference(&'a str),
    Help,
}

/// Reads a DM that sets or shows standing preferences (`standing ...`, `plays ...`,
/// `pref ...`, `dirty-trick auto|ask`, `counter auto|ask`) or asks for `help`. Anything
/// else is an order (`counter` alone is 1000 Yards' counter).
pub fn dm_ask(text: &str) -> Option<DmAsk<'_>> {
    let t = text.trim();
    let (first, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let rest = rest.trim();
    match first.to_ascii_lowercase().as_str() {
        "help" | "?" if rest.is_empty() => Some(DmAsk::Help),
        "pref" | "prefs" | "preference" | "preferences" if rest.is_empty() => Some(DmAsk::Help),
        "pref" | "prefs" | "preference" | "preferences" => Some(DmAsk::Preference(rest)),
        "standing" | "plays" => Some(DmAsk::Preference(t)),
        "dirty-trick" | "counter"
            if matches!(rest.to_ascii_lowercase().as_str(), "auto" | "ask") =>
        {
            Some(DmAsk::Preference(t))
        }
        _ => None,
    }
}

/// The DM `help`: how to order, and every standing preference the game has.
async fn dm_help(shared: &Shared, race: CampaignId) -> Layout {
    let kind = match shared.referee.overview(race).await {
        Ok(o) => o.kind,
        Err(e) => return refusal(&e),
    };
    let prefs = match kind.preference_help() {
        Some(h) => format!(
            "\n\nStanding preferences: DM them as below (or `pref TEXT`), or use `/race preference`; `standing` alone shows yours.\n{h}"
        ),
        None => format!("\n\n{kind} has no standing preferences."),
    };
    note(
        &format!("Race {race}: help"),
        &format!(
            "Reply with your order as text (a button's label works too), or press a button. `/race autopilot` sets whether you are asked every decision (`ask`), only those that matter (`auto`), or the bot plays (`bot`).{prefs}"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dms_that_set_preferences_or_ask_for_help_are_told_from_orders() {
        assert_eq!(
            dm_ask("standing remedy, largest"),
            Some(DmAsk::Preference("standing remedy, largest"))
        );
        assert_eq!(
            dm_ask("pref magician reroll below 3"),
            Some(DmAsk::Preference("magician reroll below 3"))
        );
        assert_eq!(
            dm_ask("Dirty-trick ask"),
            Some(DmAsk::Preference("Dirty-trick ask"))
        );
        assert_eq!(dm_ask("help"), Some(DmAsk::Help));
        assert_eq!(dm_ask("pref"), Some(DmAsk::Help));
        for order in ["7", "counter", "play 100", "roll", "help me"] {
            assert_eq!(dm_ask(order), None, "{order}");
        }
    }

    #[test]
    fn race_prefixes_read() {
        assert_eq!(race_prefix("#12 7"), (Some(12), "7"));
        assert_eq!(race_prefix("  #3   play 100 "), (Some(3), "play 100"));
        assert_eq!(race_prefix("7"), (None, "7"));
        assert_eq!(race_prefix("#x 7"), (None, "#x 7"));
    }
}
