//! The nudge's words (`nudge=`): the seats still owing an order, each player
//! mentioned; kept apart from `post.rs`, which is at its size.

use super::message::{Post, Style};
use crate::referee::announce::NudgeSeat;
use crate::vocab::{CampaignId, Millis};

/// `nudge=`: the seats still owing an order, each player mentioned.
pub(super) fn nudge(
    race: CampaignId,
    label: &str,
    deadline: Millis,
    seats: &[NudgeSeat],
    style: &Style,
) -> Post {
    let names: Vec<String> = seats
        .iter()
        .map(|s| format!("{} ({})", style.user(&s.name), style.mention(&s.user.0)))
        .collect();
    Post::new(
        format!("Race {race}: orders still to come"),
        format!(
            "{} is due {}. Still to order: {}.",
            style.user(label),
            style.when(deadline),
            names.join(", ")
        ),
    )
}
