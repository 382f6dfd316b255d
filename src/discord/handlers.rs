//! Everything a player does outside slash commands: the lobby's Join / Leave buttons, the
//! order buttons and menus of a prompt (in a DM, or the ephemeral `/race order` form), and
//! plain-text DM replies (`7`, or `#12 7` for a player in several races; `standing ...`,
//! `pref ...` and `help` set and show standing preferences), and the pre-race choice menu
//! that follows Join (Dream Mile's maximum speed). Also the helpers
//! the commands share: who is asking, which race, and the answers a player gets (receipts,
//! prompts, refusals).
//!
//! Every interaction is answered within Discord's 3 seconds: when the work takes longer
//! than [`ACK_GRACE`], it is acknowledged first and answered when done. A duplicate
//! gateway event (the same interaction or message id) is dropped, also when another
//! process sharing the database had it first ([`Shared::claim`]).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, ComponentInteractionDataKind, CreateInteractionResponse};

use super::layout::{self, Action, EmbedSpec, Layout, Pick};
use super::{Error, Shared, dress};
use crate::games::words::bounded;
use crate::referee::announce::Announcement;
use crate::referee::{Actor, Receipt, RefereeError};
use crate::render::markup::escape_sentence;
use crate::render::{code_text, escape_markdown};
use crate::vocab::{CampaignId, UserId};

/// How long an interaction may work before it is acknowledged (Discord allows 3 s).
pub const ACK_GRACE: Duration = Duration::from_millis(1500);

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

/// Who is asking: their id, name, and whether they may manage the server.
pub fn actor(user: &serenity::User, member: Option<&serenity::Member>) -> Actor {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    let manage = member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator());
    Actor {
        user: UserId::new(user.id.get().to_string()),
        name,
        manage,
    }
}

/// A plain message: a title and some sentences.
pub fn note(title: &str, text: &str) -> Layout {
    Layout {
        embeds: vec![EmbedSpec {
            title: layout::clip(title, layout::limits::TITLE),
            description: layout::clip(text, layout::limits::DESCRIPTION),
            ..EmbedSpec::default()
        }],
        ..Layout::default()
    }
}

/// A refusal, in the referee's words.
pub fn refusal(e: &RefereeError) -> Layout {
    if matches!(e, RefereeError::Store(_) | RefereeError::Corrupt(_)) {
        // The operator gets the cause (table, row, error); the player gets the sentence.
        tracing::warn!(error = %e.operator_detail(), "a request failed");
    }
    note("Not done", &sentence(e))
}

/// The referee's refusal as a sentence. A refusal may quote what the player typed (an
/// order, a value, a name), so it is escaped here, once for every refusal: its code spans
/// stay, the rest shows as written, and each quote is bounded (`render::markup`).
pub fn sentence(e: &RefereeError) -> String {
    escape_sentence(&capitalise(&e.to_string()))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect::<String>() + ".",
        None => String::new(),
    }
}

/// The answer to an accepted order.
pub fn receipt_text(r: &Receipt) -> String {
    if r.taken_back {
        return format!(
            "Taken back for {}: `{}` for **{}** will not be played. Send another order before the deadline.",
            escape_markdown(&r.label),
            code_text(&r.order),
            escape_markdown(&r.seat_name),
        );
    }
    let mut text = format!(
        "{} for {}: `{}` for **{}**.\nReceipt `{}`: the status message shows it now, and the orders revealed after the turn prove it.",
        if r.repeated {
            "Already in"
        } else if r.changed {
            "Order changed"
        } else {
            "Order received"
        },
        escape_markdown(&r.label),
        code_text(&r.order),
        escape_markdown(&r.seat_name),
        r.receipt
    );
    if r.resolved {
        text.push_str("\nEvery order was in, so the turn has been resolved: see the race channel.");
    } else if let Some(until) = r.held_until {
        // The grace window (`grace=`): the play waits, changeable, then resolves.
        text.push_str(&format!(
            "\nIt is held for {} (until <t:{}:T>): until then you can change it, or take it back with `undo`.",
            crate::referee::timing::format_duration(r.grace_secs),
            until.div_euclid(1000)
        ));
    } else {
        text.push_str("\nYou can change it until the turn resolves.");
    }
    text
}

/// The receipt on its own.
pub fn receipt_layout(r: &Receipt) -> Layout {
    note(&format!("Race {}: order in", r.race), &receipt_text(r))
}

/// The seat's open prompt (view, choices, deadline) as a message, with `receipt` shown
/// and its choice in green when an order was just taken.
pub async fn prompt_layout(
    shared: &Shared,
    race: CampaignId,
    user: &UserId,
    receipt: Option<&Receipt>,
) -> Result<Layout, RefereeError> {
    let open = shared.referee.open_prompt(race, user).await?;
    let kind = shared.referee.overview(race).await?.kind;
    let chosen = receipt.map(|r| r.order.clone()).or(open.current.clone());
    let announcement = Announcement::Prompt {
        race,
        game: kind,
        step: open.step,
        seat: open.seat,
        seat_name: open.seat_name.clone(),
        label: open.label.clone(),
        view: open.view.clone(),
        prompt: open.prompt.clone(),
        deadline: open.deadline,
        notes: Vec::new(),
    };
    let mut out = layout::announcement(&announcement, shared.settings.time_zone);
    out.rows = Some(layout::prompt_rows(
        race,
        open.step,
        open.seat,
        &open.prompt,
        chosen.as_deref(),
    ));
    let field = match (receipt, &open.current) {
        (Some(r), _) => Some(("Your order".to_string(), receipt_text(r))),
        (None, Some(current)) => Some((
            "Your order".to_string(),
            format!("`{}` is in; send another to change it.", code_text(current)),
        )),
        (None, None) => None,
    };
    if let (Some((name, value)), Some(first)) = (field, out.embeds.first_mut())
        && first.fields.len() < layout::limits::FIELDS
    {
        let room = layout::limits::EMBED_TOTAL.saturating_sub(first.size() + name.len());
        first.fields.push((
            name,
            layout::clip(&value, layout::limits::FIELD_VALUE.min(room)),
        ));
    }
    Ok(out)
}

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
    let mut joined = note("Joined", &text);
    if let Some(row) = seat_choice_row(kind, &options, race, choice) {
        joined.rows = Some(vec![row]);
    }
    joined
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

/// How an interaction is answered.
pub enum Answer {
    /// Edit the message the component is on.
    Update(Layout),
    /// A new message only the clicker sees.
    Reply(Layout),
    /// Nothing: a duplicate, which another handler (or process) answers.
    Nothing,
}

/// Answers an interaction (a component's or a modal's: serenity gives them no common
/// trait) with `work`'s answer, acknowledging first if the work is slow.
macro_rules! answer_interaction {
    ($http:expr, $it:expr, $work:expr, $what:literal) => {{
        let (http, it, work) = ($http, $it, $work);
        tokio::pin!(work);
        let early = tokio::select! {
            a = &mut work => Some(a),
            () = tokio::time::sleep($crate::discord::handlers::ACK_GRACE) => None,
        };
        let result = match early {
            Some(Answer::Update(l)) => {
                it.create_response(
                    http,
                    CreateInteractionResponse::UpdateMessage(dress::response(&l, false)),
                )
                .await
            }
            Some(Answer::Reply(l)) => {
                it.create_response(
                    http,
                    CreateInteractionResponse::Message(dress::response(&l, true)),
                )
                .await
            }
            Some(Answer::Nothing) => Ok(()),
            None => {
                if let Err(e) = it
                    .create_response(http, CreateInteractionResponse::Acknowledge)
                    .await
                {
                    tracing::warn!("could not acknowledge {}: {e}", $what);
                }
                match work.await {
                    Answer::Update(l) => it
                        .edit_response(http, dress::edit_response(&l))
                        .await
                        .map(|_| ()),
                    Answer::Reply(l) => it
                        .create_followup(http, dress::followup(&l, true))
                        .await
                        .map(|_| ()),
                    Answer::Nothing => Ok(()),
                }
            }
        };
        if let Err(e) = result {
            tracing::warn!("could not answer {}: {e}", $what);
        }
    }};
}
pub(super) use answer_interaction;

/// Answers a component interaction, acknowledging first if the work is slow.
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
    if let Action::OtherOrder { race, step, seat } = action {
        // A modal must be the first answer: no acknowledgement before it.
        return super::modal::open(ctx, shared, c, race, step, seat).await;
    }
    answer_component(http, c, async {
        // Claimed first (within the answer's time: the database may be slow), so that a
        // duplicate, here or in another process, changes nothing.
        match shared.claim(c.id.get()).await {
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

/// An order from a button or menu: only for the clicker's own seat, and only while its
/// step is open.
pub(super) async fn order_from_component(
    shared: &Shared,
    actor: &Actor,
    race: CampaignId,
    step: u32,
    seat: crate::engine::Seat,
    pick: Pick,
) -> Answer {
    let overview = match shared.referee.overview(race).await {
        Ok(o) => o,
        Err(e) => return Answer::Reply(refusal(&e)),
    };
    let mine = overview
        .users
        .iter()
        .find(|(_, u)| u.as_ref() == Some(&actor.user))
        .map(|(s, _)| *s);
    match mine {
        None => return Answer::Reply(refusal(&RefereeError::NotSeated)),
        Some(s) if s != seat => {
            return Answer::Reply(note(
                "Not done",
                "Those buttons are another runner's orders; you can only order for your own seat. Yours come by DM, or use /race order.",
            ));
        }
        Some(_) => {}
    }
    let text = match pick {
        Pick::Text(t) => t,
        Pick::Index(i) => match shared.referee.open_prompt(race, &actor.user).await {
            Ok(open) if open.step == step => match open.prompt.choices.get(i) {
                Some(c) => c.order.clone(),
                None => return Answer::Reply(note("Not done", super::stale::STALE)),
            },
            Ok(_) => return Answer::Reply(note("Not done", super::stale::STALE)),
            Err(e) => return Answer::Reply(refusal(&e)),
        },
    };
    match shared
        .referee
        .submit_for_step(race, &actor.user, &text, Some(step))
        .await
    {
        Ok(receipt) => {
            shared.poke();
            if receipt.resolved {
                let mut l = receipt_layout(&receipt);
                l.rows = Some(Vec::new());
                Answer::Update(l)
            } else {
                match prompt_layout(shared, race, &actor.user, Some(&receipt)).await {
                    Ok(l) => Answer::Update(l),
                    Err(_) => Answer::Reply(receipt_layout(&receipt)),
                }
            }
        }
        // A button of a prompt whose step resolved (its message not yet closed).
        Err(RefereeError::StaleStep) => Answer::Reply(note("Not done", super::stale::STALE)),
        Err(e) => Answer::Reply(refusal(&e)),
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
        Err(e) => refusal(&RefereeError::Store(e)),
        Ok(true) => match shared.referee.pace_command(&user) {
            Ok(()) => dm_answer(shared, &user, &msg.content).await,
            Err(e) => refusal(&e),
        },
    };
    // The receipt is not in the outbox: retry a 429 or 5xx here, under the player's
    // message id as nonce, so a retry after a lost answer does not post twice.
    for wait in [1, 2, 0] {
        let sent = msg
            .channel_id
            .send_message(
                &*ctx.http,
                dress::create_message(&answer)
                    .nonce(serenity::Nonce::Number(msg.id.get()))
                    .enforce_nonce(true),
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

/// What a plain-text DM gets back: a receipt, or the reason and the prompt again.
pub async fn dm_answer(shared: &Shared, user: &UserId, text: &str) -> Layout {
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
    match shared.referee.submit(race, user, order).await {
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
        Err(e @ (RefereeError::Order(_) | RefereeError::Invalid(_))) => {
            // The engine's reason, then the prompt again.
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

    #[test]
    fn refusals_read_as_sentences() {
        let l = refusal(&RefereeError::NotHost);
        assert_eq!(
            l.embeds[0].description,
            "Only the host or a member with Manage Server can do that."
        );
    }
}
