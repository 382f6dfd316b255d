//! An order from a prompt's button or menu, or its "other order" form: checked to be the
//! clicker's own seat and its open step, then submitted.

use super::layout::Pick;
use super::reply::{Answer, note, prompt_layout, receipt_layout, refusal};
use super::shared::Shared;
use crate::referee::{Actor, RefereeError};
use crate::vocab::CampaignId;

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
