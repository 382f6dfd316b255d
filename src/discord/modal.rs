//! The "Other order…" button of a DM prompt and the modal it opens: one text input with
//! a legal order filled in (the seat's order if one is in, else the prompt's first
//! choice), for orders the buttons cannot hold (1500m's round order, a card race's full
//! syntax). The submitted text is read exactly like a typed order, for the prompt's own
//! step, and answered with the same receipt or one-sentence refusal.
//!
//! A modal must be an interaction's first answer, so the button is answered at once
//! (no acknowledgement first): the check behind it is one read of the open prompt.

use std::future::Future;
use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ActionRowComponent, ComponentInteraction, CreateActionRow, CreateInputText,
    CreateInteractionResponse, CreateModal, InputTextStyle, ModalInteraction,
};

use super::dress;
use super::layout::{self, Action, Layout, Pick, clip};
use super::reply::{Answer, note, refusal};
use super::shared::Shared;
use super::stale;
use super::{order, reply};
use crate::engine::Seat;
use crate::referee::RefereeError;
use crate::vocab::CampaignId;

/// Discord's limits for a modal (developer docs: Interaction Response, Text Input).
pub mod limits {
    pub const TITLE: usize = 45;
    pub const LABEL: usize = 45;
    pub const PLACEHOLDER: usize = 100;
    pub const VALUE: usize = 4000;
}

/// The longest order the modal takes (the referee refuses longer ones anyway).
const MAX_ORDER: u16 = 500;

/// Answers the "Other order…" button: the modal, or one sentence why not.
pub async fn open(
    ctx: &serenity::Context,
    shared: &Arc<Shared>,
    c: &ComponentInteraction,
    race: CampaignId,
    step: u32,
    seat: Seat,
) {
    let actor = reply::actor(&c.user, c.member.as_ref());
    let modal = match shared.claim(c.id.get()).await {
        Ok(false) => return,
        Err(e) => Err(refusal(&RefereeError::Store(e))),
        Ok(true) => modal_for(shared, &actor.user, race, step, seat).await,
    };
    let response = match modal {
        Ok(m) => CreateInteractionResponse::Modal(m),
        Err(l) => CreateInteractionResponse::Message(dress::response(&l, true)),
    };
    if let Err(e) = c.create_response(&*ctx.http, response).await {
        tracing::warn!("could not answer the Other order button: {e}");
    }
}

/// The modal for the presser's own open prompt at `step`.
async fn modal_for(
    shared: &Shared,
    user: &crate::vocab::UserId,
    race: CampaignId,
    step: u32,
    seat: Seat,
) -> Result<CreateModal, Layout> {
    // No open prompt for this player: the button's step is over (or never was theirs).
    let Ok(open) = shared.referee.open_prompt(race, user).await else {
        return Err(note("Not done", stale::STALE));
    };
    if open.seat != seat {
        return Err(note(
            "Not done",
            "That button is another runner's; you can only order for your own seat.",
        ));
    }
    if open.step != step {
        return Err(note("Not done", stale::STALE));
    }
    let prefill = open
        .current
        .clone()
        .or_else(|| open.prompt.choices.first().map(|c| c.order.clone()))
        .unwrap_or_default();
    Ok(modal(race, step, seat, &open.label, &prefill))
}

/// The modal itself: a title naming the race and step, one paragraph input.
pub fn modal(race: CampaignId, step: u32, seat: Seat, label: &str, prefill: &str) -> CreateModal {
    let mut input = CreateInputText::new(
        InputTextStyle::Paragraph,
        clip("Your order, as you would type it", limits::LABEL),
        layout::MODAL_INPUT,
    )
    .placeholder(clip(
        "Like the buttons' orders; the prompt's DM says how",
        limits::PLACEHOLDER,
    ))
    .required(true)
    .max_length(MAX_ORDER);
    let prefill = clip(prefill, usize::from(MAX_ORDER).min(limits::VALUE));
    if !prefill.is_empty() {
        input = input.value(prefill);
    }
    CreateModal::new(
        layout::modal_id(race, step, seat),
        clip(&format!("Race {race}: {label}"), limits::TITLE),
    )
    .components(vec![CreateActionRow::InputText(input)])
}

/// The text typed in a submitted modal's order input.
fn typed(m: &ModalInteraction) -> String {
    m.data
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .find_map(|c| match c {
            ActionRowComponent::InputText(t) if t.custom_id == layout::MODAL_INPUT => {
                t.value.clone()
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// A submitted modal: the order read like a typed one, for the modal's step.
pub async fn submit(ctx: &serenity::Context, shared: &Arc<Shared>, m: &ModalInteraction) {
    let http = &*ctx.http;
    let actor = reply::actor(&m.user, m.member.as_ref());
    let Some(Action::ModalOrder { race, step, seat }) = layout::parse_id(&m.data.custom_id) else {
        if shared.first_time(m.id.get()) {
            answer_modal(http, m, async {
                Answer::Reply(note("Not done", "This form is no longer in use."))
            })
            .await;
        }
        return;
    };
    let text = typed(m);
    answer_modal(http, m, async {
        match shared.claim(m.id.get()).await {
            Ok(true) => {}
            Ok(false) => return Answer::Nothing,
            Err(e) => return Answer::Reply(refusal(&RefereeError::Store(e))),
        }
        order::order_from_component(shared, &actor, race, step, seat, Pick::Text(text)).await
    })
    .await;
}

/// Answers a modal submit, acknowledging first (a deferred update) if the work is slow.
async fn answer_modal<F: Future<Output = Answer>>(
    http: &serenity::Http,
    m: &ModalInteraction,
    work: F,
) {
    reply::answer_interaction!(http, m, work, "a modal");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modal_keeps_discords_limits() {
        let long = "x".repeat(5000);
        let m = modal(CampaignId(123_456), 7, Seat(2), &long, &long);
        let v = serde_json::to_value(&m).unwrap_or_default();
        let title = v["title"].as_str().unwrap_or_default();
        assert!(
            !title.is_empty() && title.chars().count() <= limits::TITLE,
            "{v}"
        );
        let input = &v["components"][0]["components"][0];
        assert_eq!(input["type"], 4);
        assert_eq!(input["custom_id"], layout::MODAL_INPUT);
        let value = input["value"].as_str().unwrap_or_default();
        assert!(value.chars().count() <= usize::from(MAX_ORDER), "{v}");
        assert!(
            layout::parse_id(v["custom_id"].as_str().unwrap_or_default())
                == Some(Action::ModalOrder {
                    race: CampaignId(123_456),
                    step: 7,
                    seat: Seat(2)
                })
        );
    }
}
