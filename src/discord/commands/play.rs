//! The players' commands during a race: `status`, `orders`, `order` and `preference`
//! (`history` and `verify` are in `archive.rs`).

use super::super::layout::{self, Layout};
use super::super::reply;
use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error};
use super::common::{answer, on_race, race_here, user_of};
use crate::referee::RefereeError;
use crate::referee::announce::{Announcement, SeatState};
use crate::referee::timing::format_duration;
use crate::render::escape_markdown;
use crate::render::markup::escape_sentence;
use crate::render::message::Style;
use crate::render::post::present;

/// The standings, the track and who has ordered.
#[poise::command(slash_command)]
pub(super) async fn status(ctx: Ctx<'_>) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.overview(race).await },
        |_, o| {
            let announcement = Announcement::Status {
                race: o.race,
                game: o.kind,
                phase: o.phase,
                label: o.label.clone(),
                deadline: o.deadline,
                seats: o.seats.clone(),
            };
            let mut post = present(&announcement, &Style::discord());
            post.track = o.view.as_ref().map(crate::render::track_text);
            if let Some(left) = o.paused_left_ms {
                post.body.push_str(&format!(
                    "\nPaused with {} left on the clock.",
                    format_duration(u64::try_from(left / 1000).unwrap_or(0))
                ));
            }
            Layout {
                embeds: layout::embeds(&post, None),
                ..Layout::default()
            }
        },
    )
    .await
}

/// Who has sent an order for this turn and who has not (never what).
#[poise::command(slash_command)]
pub(super) async fn orders(ctx: Ctx<'_>) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.overview(race).await },
        |race, o| {
            let line = |state: SeatState| {
                let names: Vec<String> = o
                    .seats
                    .iter()
                    .filter(|s| s.state == state)
                    .map(|s| {
                        if s.bot {
                            format!("{} (bot)", escape_markdown(&s.name))
                        } else {
                            escape_markdown(&s.name)
                        }
                    })
                    .collect();
                if names.is_empty() {
                    "nobody".to_string()
                } else {
                    names.join(", ")
                }
            };
            let mut l = note(
                &format!("Race {race}: {}", escape_markdown(&o.label)),
                &format!(
                    "✓ In: {}\n… Still to order: {}",
                    line(SeatState::Ordered),
                    line(SeatState::Waiting)
                ),
            );
            if let (Some(d), Some(e)) = (o.deadline, l.embeds.first_mut()) {
                e.description
                    .push_str(&format!("\nDue {}", Style::discord().when(d)));
            }
            l
        },
    )
    .await
}

/// Send your order here, seen only by you (for when DMs are closed).
#[poise::command(slash_command)]
pub(super) async fn order(
    ctx: Ctx<'_>,
    #[description = "Your order as text, e.g. 7 (leave out to get buttons)"]
    #[autocomplete = "super::complete::autocomplete_order"]
    text: Option<String>,
) -> Result<(), Error> {
    answer(ctx, true, async move {
        let shared = ctx.data();
        let user = user_of(ctx);
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return match reply::prompt_layout(shared, race, &user, None).await {
                Ok(l) => l,
                Err(e) => refusal(&e),
            };
        };
        // A choice's label, typed back (or picked from autocomplete), is its order.
        let text = match shared.referee.open_prompt(race, &user).await {
            Ok(open) => super::complete::order_for_text(&open.prompt.choices, &text),
            Err(_) => text,
        };
        match shared.referee.submit(race, &user, &text).await {
            Ok(receipt) => {
                if receipt.resolved {
                    reply::receipt_layout(&receipt)
                } else {
                    reply::prompt_layout(shared, race, &user, Some(&receipt))
                        .await
                        .unwrap_or_else(|_| reply::receipt_layout(&receipt))
                }
            }
            Err(e @ (RefereeError::Order(_) | RefereeError::Invalid(_))) => {
                match reply::prompt_layout(shared, race, &user, None).await {
                    Ok(mut l) => {
                        l.content = Some(format!("**{}**", reply::sentence(&e)));
                        l
                    }
                    Err(_) => refusal(&e),
                }
            }
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// Set a standing preference for your seat, for games that have them.
#[poise::command(slash_command)]
pub(super) async fn preference(
    ctx: Ctx<'_>,
    #[description = "The preference as text (see /race help)"]
    #[autocomplete = "super::complete::autocomplete_preference"]
    text: String,
) -> Result<(), Error> {
    let user = user_of(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.set_preference(race, &user, &text).await },
        |_, answer| note("Preference set", &escape_sentence(&answer)),
    )
    .await
}
