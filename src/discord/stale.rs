//! Prompts whose step has resolved. When a turn's post lands in the channel, the DM
//! prompts of its steps are edited: their buttons go, and the message says the step
//! resolved and what the seat played, so no live-looking button remains for a closed
//! step. A button pressed on an old copy anyway (a client that did not refresh, or a
//! prompt sent again as a reply) gets [`STALE`], one sentence, only for the presser.
//!
//! A cancelled race's open prompts are edited the same way when its cancellation is
//! posted: their buttons go, and they say the race was cancelled.
//!
//! The prompts are found in the race's outbox by step (each delivered prompt keeps its
//! message id), so this holds across restarts and processes. Closing is best effort: a failed
//! edit is logged and leaves the turn's post delivered.

use std::collections::BTreeSet;

use poise::serenity_prelude as serenity;

use super::dm::DmChannels;
use super::layout::{EmbedSpec, Layout, clip, limits};
use crate::referee::announce::{Announcement, RevealedOrder, Target};
use crate::render::{code_text, escape_markdown};
use crate::store::{OrderSource, OutboxRow, Store};
use crate::vocab::CampaignId;

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

/// A cancelled race's open prompt: its buttons go, and it says why.
pub fn cancelled_layout(label: &str) -> Layout {
    Layout {
        embeds: vec![EmbedSpec {
            title: clip(&format!("{label}: cancelled"), limits::TITLE),
            description: "The host cancelled this race.\nThis prompt orders nothing now.".into(),
            ..EmbedSpec::default()
        }],
        content: Some(String::new()),
        rows: Some(Vec::new()),
        ..Layout::default()
    }
}

/// What a prompt row holds: (user, message, step, seat name, "Race N: label").
fn prompt_of(row: &OutboxRow) -> Option<(u64, u64, u32, String, String)> {
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
    let user = user.0.parse::<u64>().ok().filter(|u| *u != 0)?;
    Some((
        user,
        message,
        step,
        seat_name,
        format!("Race {race}: {label}"),
    ))
}

/// A delivered DM prompt that asked for one of `steps`: (user, message, layout).
fn to_close(
    row: &OutboxRow,
    steps: &BTreeSet<u32>,
    revealed: &[RevealedOrder],
) -> Option<(u64, u64, Layout)> {
    let (user, message, step, seat_name, title) = prompt_of(row)?;
    if !steps.contains(&step) {
        return None;
    }
    let played: Vec<&RevealedOrder> = revealed.iter().filter(|o| o.step == step).collect();
    Some((user, message, closed_layout(&title, &seat_name, &played)))
}

/// Edits the DM prompts of the steps a turn's post (outbox row `posted`) revealed.
pub async fn close_prompts(
    dms: &DmChannels,
    http: &serenity::Http,
    store: &dyn Store,
    race: CampaignId,
    posted: i64,
    revealed: &[RevealedOrder],
) {
    let steps: BTreeSet<u32> = revealed.iter().map(|o| o.step).collect();
    let (Some(&from), Some(&to)) = (steps.first(), steps.last()) else {
        return;
    };
    // Only the prompts of these steps: reading the whole outbox after every turn would
    // grow with the race.
    let rows = match store.prompts_of_steps(race, from, to, posted).await {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!(race = race.0, error = %e, "cannot read the prompts to close");
            return;
        }
    };
    let edits = rows
        .iter()
        .filter_map(|row| to_close(row, &steps, revealed).map(|c| (row.id, c)));
    edit_all(dms, http, race, edits).await;
}

/// Edits the prompts a cancelled race (its post: outbox row `posted`) left open: those of
/// its open step and after, since every earlier step's were closed when it resolved.
pub async fn close_cancelled(
    dms: &DmChannels,
    http: &serenity::Http,
    store: &dyn Store,
    race: CampaignId,
    posted: i64,
) {
    let open = match store.load(race).await {
        Ok(Some(loaded)) => loaded.campaign.step,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(race = race.0, error = %e, "cannot read the prompts to close");
            return;
        }
    };
    let rows = match store.prompts_of_steps(race, open, u32::MAX, posted).await {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!(race = race.0, error = %e, "cannot read the prompts to close");
            return;
        }
    };
    let edits = rows.iter().filter_map(|row| {
        let (user, message, _, _, title) = prompt_of(row)?;
        Some((row.id, (user, message, cancelled_layout(&title))))
    });
    edit_all(dms, http, race, edits).await;
}

/// Edits each prompt (outbox row, (user, message, new layout)) in its DM.
async fn edit_all(
    dms: &DmChannels,
    http: &serenity::Http,
    race: CampaignId,
    edits: impl Iterator<Item = (i64, (u64, u64, Layout))>,
) {
    for (row, (user, message, layout)) in edits {
        let edited = match dms.open(http, user).await {
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
            tracing::info!(race = race.0, outbox = row, error = %e, "could not close a prompt");
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
    fn a_cancelled_prompt_has_no_buttons_and_says_so() {
        let l = cancelled_layout("Race #1: Turn 2");
        assert_eq!(l.rows, Some(Vec::new()));
        assert_eq!(l.embeds[0].title, "Race #1: Turn 2: cancelled");
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
