//! The answers a player gets, shared by the commands, the components and the modal: who is
//! asking ([`actor`]), a note or a refusal in one sentence, an order's receipt, the seat's
//! open prompt, and answering an interaction within Discord's 3 seconds: it is
//! acknowledged before its work touches the database, and answered when done.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::layout::{self, EmbedSpec, Layout};
use super::shared::Shared;
use crate::referee::announce::Announcement;
use crate::referee::work::short_receipt;
use crate::referee::{Actor, Receipt, RefereeError};
use crate::render::markup::escape_sentence;
use crate::render::{code_text, escape_markdown};
use crate::vocab::{CampaignId, UserId};

/// How long an autocomplete may read before it answers with no choices (Discord allows
/// 3 s, and an autocomplete cannot be deferred).
pub const ACK_GRACE: Duration = Duration::from_millis(1500);

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
    // "Ann to play" names the seat already; "Turn 2 of 8" does not.
    let step = if r.label.contains(&r.seat_name) {
        String::new()
    } else {
        format!(" for {}", escape_markdown(&r.label))
    };
    let mut text = format!(
        "{}{step}: `{}` for **{}**.\nReceipt `{}`: the status message shows it now, and the orders revealed after the turn prove it.",
        if r.repeated {
            "Already in"
        } else if r.changed {
            "Order changed"
        } else {
            "Order received"
        },
        code_text(&r.order),
        escape_markdown(&r.seat_name),
        short_receipt(&r.receipt)
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
/// trait): acknowledged first (a deferred update), before `work` writes to or waits on
/// the database, then completed with `work`'s answer.
macro_rules! answer_interaction {
    ($http:expr, $it:expr, $work:expr, $what:literal) => {{
        let (http, it, work) = ($http, $it, $work);
        if let Err(e) = it
            .create_response(http, CreateInteractionResponse::Acknowledge)
            .await
        {
            tracing::warn!("could not acknowledge {}: {e}", $what);
        }
        let result = match work.await {
            Answer::Update(l) => it
                .edit_response(http, dress::edit_response(&l))
                .await
                .map(|_| ()),
            Answer::Reply(l) => it
                .create_followup(http, dress::followup(&l, true))
                .await
                .map(|_| ()),
            Answer::Nothing => Ok(()),
        };
        if let Err(e) = result {
            tracing::warn!("could not answer {}: {e}", $what);
        }
    }};
}
pub(super) use answer_interaction;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_as_sentences() {
        let l = refusal(&RefereeError::NotHost);
        assert_eq!(
            l.embeds[0].description,
            "Only the host or a member with Manage Server can do that."
        );
    }
}
