//! Prompts whose step has resolved. When a turn's post lands in the channel, the DM
//! prompts of its steps are edited: their buttons go, and the message says the step
//! resolved and what the seat played, so no live-looking button remains for a closed
//! step. A button pressed on an old copy anyway (a client that did not refresh, or a
//! prompt sent again as a reply) gets [`STALE`], one sentence, only for the presser.
//!
//! The prompts are found in the race's outbox (each delivered prompt keeps its message
//! id), so this holds across restarts and processes. Closing is best effort: a failed
//! edit is logged and leaves the turn's post delivered.

use std::collections::BTreeSet;

use poise::serenity_prelude as serenity;

use super::courier::DiscordCourier;
use super::layout::{EmbedSpec, Layout, clip, limits};
use crate::referee::announce::{Announcement, RevealedOrder, Target};
use crate::render::{code_text, escape_markdown};
use crate::store::{CampaignId, OrderSource, OutboxRow, Store};

/// What an old prompt's button answers.
pub const STALE: &str = "That button was for an earlier turn that has already resolved, so it no longer orders anything; your open prompt, if any, is your newest DM.";

/// A closed prompt: its step's label, that it resolved, and what this seat played.
pub fn closed_layout(label: &str, seat_name: &str, revealed: &[&RevealedOrder]) -> Layout {
    let mut lines = vec!["This step has resolved.".to_string()];
    let mine: Vec<&RevealedOrder> = revealed
        .iter()
        .copied()
        .filter(|o| o.name == seat_name)
        .collect();
    if mine.is_empty() {
        lines.push("It resolved without an order from you.".into());
    }
    for o in mine {
        let how = match o.source {
            OrderSource::Player => "You played",
            OrderSource::Default => "Played for the missed deadline:",
            OrderSource::Auto | OrderSource::Bot => "Played for you:",
        };
        lines.push(format!(
            "{how} `{}` for **{}**.",
            code_text(&o.order),
            escape_markdown(&o.name)
        ));
    }
    lines.push("The turn's post is in the race channel.".into());
    Layout {
        embeds: vec![EmbedSpec {
            title: clip(&format!("{label}: resolved"), limits::TITLE),
            description: clip(&lines.join("\n"), limits::DESCRIPTION),
            ..EmbedSpec::default()
        }],
        content: Some(String::new()),
        rows: Some(Vec::new()),
        ..Layout::default()
    }
}

/// A delivered DM prompt that asked for one of `steps`: (user, message, layout).
fn to_close(
    row: &OutboxRow,
    steps: &BTreeSet<u32>,
    revealed: &[RevealedOrder],
) -> Option<(u64, u64, Layout)> {
    row.delivered_at?;
    let message = row.external_id.as_deref()?.parse::<u64>().ok()?;
    let Ok(Target::Dm { user, .. }) = serde_json::from_value::<Target>(row.target.clone()) else {
        return None;
    };
    let Ok(Announcement::Prompt {
        step,
        seat_name,
        label,
        race,
        ..
    }) = serde_json::from_value::<Announcement>(row.payload.clone())
    else {
        return None;
    };
    if !steps.contains(&step) {
        return None;
    }
    let user = user.0.parse::<u64>().ok().filter(|u| *u != 0)?;
    let played: Vec<&RevealedOrder> = revealed.iter().filter(|o| o.step == step).collect();
    let title = format!("Race {race}: {label}");
    Some((user, message, closed_layout(&title, &seat_name, &played)))
}

/// Edits the DM prompts of the steps a turn's post (outbox row `posted`) revealed.
pub async fn close_prompts(
    courier: &DiscordCourier,
    http: &serenity::Http,
    store: &dyn Store,
    race: CampaignId,
    posted: i64,
    revealed: &[RevealedOrder],
) {
    let steps: BTreeSet<u32> = revealed.iter().map(|o| o.step).collect();
    if steps.is_empty() {
        return;
    }
    let rows = match store.outbox_of(race).await {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!(race = race.0, error = %e, "cannot read the prompts to close");
            return;
        }
    };
    for row in rows.iter().filter(|r| r.id < posted) {
        let Some((user, message, layout)) = to_close(row, &steps, revealed) else {
            continue;
        };
        let edited = match courier.dm_channel(user).await {
            Ok(channel) => channel
                .edit_message(
                    http,
                    serenity::MessageId::new(message),
                    super::dress::edit_message(&layout),
                )
                .await
                .map(|_| ()),
            Err(e) => Err(e),
        };
        if let Err(e) = edited {
            // The player deleted it, or Discord is down: the old buttons still answer
            // with STALE.
            tracing::info!(race = race.0, outbox = row.id, error = %e, "could not close a resolved prompt");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(step: u32, name: &str, order: &str, source: OrderSource) -> RevealedOrder {
        RevealedOrder {
            step,
            name: name.into(),
            order: order.into(),
            nonce: "n".into(),
            receipt: "r".into(),
            source,
        }
    }

    #[test]
    fn a_closed_prompt_has_no_buttons_and_says_what_was_played() {
        let a = order(3, "Alice", "7", OrderSource::Player);
        let b = order(3, "Bob", "4", OrderSource::Default);
        let l = closed_layout("Race #1: Turn 2", "Alice", &[&a, &b]);
        assert_eq!(l.rows, Some(Vec::new()));
        let d = &l.embeds[0].description;
        assert!(d.contains("You played `7` for **Alice**."), "{d}");
        assert!(!d.contains("Bob"), "only her own order: {d}");
        let l = closed_layout("Race #1: Turn 2", "Bob", &[&a, &b]);
        assert!(l.embeds[0].description.contains("missed deadline"));
        let l = closed_layout("Race #1: Turn 2", "Carol", &[&a]);
        assert!(l.embeds[0].description.contains("without an order"));
        // Each line reads on a phone: about 40 characters.
        for line in l.embeds[0].description.lines() {
            assert!(line.chars().count() <= 40, "{line}");
        }
    }

    #[test]
    fn the_stale_answer_is_one_sentence() {
        assert!(STALE.ends_with('.'));
        assert_eq!(STALE.matches(". ").count(), 0);
    }
}
