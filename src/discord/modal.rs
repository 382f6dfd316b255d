//! The "Other order…" button of a DM prompt and the modal it opens: one text input with
//! a legal order filled in (the prompt's first choice, or the seat's order if one is in
//! when the prompt is read), for orders the buttons cannot hold (1500m's round order, a card race's full
//! syntax). The submitted text is read exactly like a typed order, for the prompt's own
//! step, and answered with the same receipt or one-sentence refusal.
//!
//! A modal must be an interaction's first answer, so the button is answered at once with
//! it: nothing is claimed or written first, and the prompt is read (bounded in time) only
//! when the button's message does not carry its orders as text. The order submitted is
//! checked like a button's.

use std::future::Future;
use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    ActionRowComponent, ComponentInteraction, CreateActionRow, CreateInputText,
    CreateInteractionResponse, CreateModal, InputTextStyle, ModalInteraction,
};

use super::dress;
use super::layout::{self, Action, Pick, clip};
use super::reply::{Answer, note, refusal};
use super::shared::Shared;
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

/// Answers the "Other order…" button with the modal: a modal must be the first answer,
/// so nothing is claimed or written before it. The order filled in comes from the button's
/// own message when its buttons carry orders as text, else from one read of the presser's
/// open prompt, given up past [`ACK_GRACE`](reply::ACK_GRACE) (the modal then opens
/// empty). The submitted order is checked like a button's (the presser's own seat, the
/// open step).
pub async fn open(
    ctx: &serenity::Context,
    shared: &Shared,
    c: &ComponentInteraction,
    race: CampaignId,
    step: u32,
    seat: Seat,
) {
    let (prefill, label) = match first_choice(&c.message) {
        Some(order) => (order, "your order".to_string()),
        None => {
            let user = reply::actor(&c.user, c.member.as_ref()).user;
            let read = shared.referee.open_prompt(race, &user);
            match tokio::time::timeout(reply::ACK_GRACE, read).await {
                Ok(Ok(open)) if open.seat == seat && open.step == step => (
                    open.current
                        .or_else(|| open.prompt.choices.first().map(|c| c.order.clone()))
                        .unwrap_or_default(),
                    open.label,
                ),
                _ => (String::new(), "your order".to_string()),
            }
        }
    };
    let response = CreateInteractionResponse::Modal(modal(race, step, seat, &label, &prefill));
    if let Err(e) = c.create_response(&*ctx.http, response).await {
        tracing::warn!("could not answer the Other order button: {e}");
    }
}

/// The first order a prompt message's buttons or menus carry as text.
fn first_choice(message: &serenity::Message) -> Option<String> {
    message
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .find_map(|c| match c {
            ActionRowComponent::Button(b) => match &b.data {
                serenity::ButtonKind::NonLink { custom_id, .. } => {
                    match layout::parse_id(custom_id) {
                        Some(Action::Order {
                            pick: Pick::Text(t),
                            ..
                        }) => Some(t),
                        _ => None,
                    }
                }
                serenity::ButtonKind::Link { .. } | serenity::ButtonKind::Premium { .. } => None,
            },
            ActionRowComponent::SelectMenu(m) => {
                m.options
                    .iter()
                    .find_map(|o| match layout::parse_value(&o.value) {
                        Some(Pick::Text(t)) => Some(t),
                        _ => None,
                    })
            }
            _ => None,
        })
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
    if !shared.first_time(m.id.get()) {
        return;
    }
    let text = typed(m);
    answer_modal(http, m, async {
        match shared.claim_stored(m.id.get()).await {
            Ok(true) => {}
            Ok(false) => return Answer::Nothing,
            Err(e) => return Answer::Reply(refusal(&RefereeError::Store(e))),
        }
        order::order_from_component(shared, &actor, race, step, seat, Pick::Text(text)).await
    })
    .await;
}

/// Answers a modal submit, acknowledged (a deferred update) before the work starts.
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
