//! The host's commands once a race runs: `deadline` (and how it reads a moment),
//! `pause` (and `pause resume:True`), `replace`, `kick` and `cancel`.

use poise::serenity_prelude as serenity;

use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error};
use super::common::{answer, on_race, race_here, who};
use crate::referee::DeadlineChange;
use crate::referee::timing::{format_duration, parse_duration};
use crate::referee::when::{self, Zone};
use crate::render::escape_markdown;
use crate::render::markup::quote_typed;
use crate::render::message::Style;
use crate::vocab::{Millis, UserId};

/// Reads a moment: a duration from now (`2h`, `1h 30m`), Unix seconds, or anything
/// [`when::parse_when`] reads (`<t:UNIX>`, `2026-12-01 18:00`, `tomorrow 18:00`) in `zone`.
pub fn parse_moment(text: &str, now: Millis, zone: impl Into<Zone>) -> Option<Millis> {
    let t = text.trim();
    if let Some(secs) = parse_duration(t).filter(|s| *s < 10_000_000) {
        return now.checked_add(i64::try_from(secs).ok()?.checked_mul(1000)?);
    }
    if t.len() >= 9
        && t.chars().all(|c| c.is_ascii_digit())
        && let Ok(secs) = t.parse::<i64>()
    {
        return secs.checked_mul(1000);
    }
    let now = chrono::DateTime::from_timestamp_millis(now)?;
    when::parse_when(t, now, zone.into())
        .ok()
        .map(|at| at.timestamp_millis())
}

/// Reads `2h`, `+2h` or `-30m` as signed seconds.
pub fn parse_signed(text: &str) -> Option<i64> {
    let t = text.trim();
    let (sign, rest) = match t.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    parse_duration(rest)
        .and_then(|s| i64::try_from(s).ok())
        .map(|s| sign * s)
}

/// Show the deadline, or move it (host): `set` a new one, or `extend` it.
#[poise::command(slash_command)]
pub(super) async fn deadline(
    ctx: Ctx<'_>,
    #[description = "New deadline: in 2h, <t:UNIX>, or YYYY-MM-DD HH:MM"] set: Option<String>,
    #[description = "Move it by this much: 2h, -30m"] extend: Option<String>,
) -> Result<(), Error> {
    let shared = ctx.data().clone();
    let actor = who(ctx);
    let now = shared.referee.clock().now();
    let zone = shared.settings.time_zone;
    answer(ctx, true, async move {
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        let change = match (set, extend) {
            (Some(_), Some(_)) => {
                return note("Not done", "Use `set` or `extend`, not both.");
            }
            (Some(s), None) => match parse_moment(&s, now, zone) {
                Some(at) => Some(DeadlineChange::At(at)),
                None => {
                    return note(
                        "Not done",
                        &format!("{} is not a time: use a duration from now (`2h`), a Discord timestamp, `tomorrow 18:00` or `2026-12-01 18:00` ({zone}).", quote_typed(&s)),
                    );
                }
            },
            (None, Some(e)) => match parse_signed(&e) {
                Some(secs) => Some(DeadlineChange::Extend(secs)),
                None => {
                    return note(
                        "Not done",
                        &format!("{} is not a duration such as 2h or -30m.", quote_typed(&e)),
                    );
                }
            },
            (None, None) => None,
        };
        match change {
            Some(change) => match shared.referee.move_deadline(race, &actor, change).await {
                Ok(at) => note(
                    "Deadline moved",
                    &format!("Orders are now due {}.", Style::discord().when(at)),
                ),
                Err(e) => refusal(&e),
            },
            None => match shared.referee.overview(race).await {
                Ok(o) => match (o.deadline, o.paused_left_ms) {
                    (_, Some(left)) => note(
                        "Deadline",
                        &format!(
                            "The race is paused with {} left on the clock.",
                            format_duration(u64::try_from(left / 1000).unwrap_or(0))
                        ),
                    ),
                    (Some(d), None) => note(
                        "Deadline",
                        &format!(
                            "{}: orders are due {}.",
                            escape_markdown(&o.label),
                            Style::discord().when(d)
                        ),
                    ),
                    (None, None) => note("Deadline", "There is no deadline running."),
                },
                Err(e) => refusal(&e),
            },
        }
    })
    .await
}

/// Stop the clock (host), the time left kept; `resume:True` restarts it.
#[poise::command(slash_command)]
pub(super) async fn pause(
    ctx: Ctx<'_>,
    #[description = "True: restart the clock with the time that was left"] resume: Option<bool>,
) -> Result<(), Error> {
    if resume == Some(true) {
        return resume_clock(ctx).await;
    }
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.pause(race, &actor).await },
        |race, ()| note("Paused", &format!("Race {race} is paused.")),
    )
    .await
}

/// `/race pause resume:True`: restarts the clock with the time that was left.
async fn resume_clock(ctx: Ctx<'_>) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.resume(race, &actor).await },
        |race, at| {
            note(
                "Resumed",
                &format!(
                    "Race {race} resumes; orders are due {}.",
                    Style::discord().when(at)
                ),
            )
        },
    )
    .await
}

/// Offer a seat to another member (host); it is theirs once they accept.
#[poise::command(slash_command)]
pub(super) async fn replace(
    ctx: Ctx<'_>,
    #[description = "The seat: a runner's name or its player"]
    #[autocomplete = "super::complete::autocomplete_seat"]
    seat: String,
    #[description = "Who takes it over"] user: serenity::User,
) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    let to = UserId::new(user.id.get().to_string());
    on_race(
        ctx,
        true,
        |race| async move { referee.replace(race, &actor, &seat, &to).await },
        |_, name| {
            note(
                "Seat offered",
                &format!(
                    "{}'s seat is offered to <@{}>; it stays as it is until they accept.",
                    escape_markdown(&name),
                    user.id.get()
                ),
            )
        },
    )
    .await
}

/// Remove a player (host): from the lobby, or to a bot once the race runs.
#[poise::command(slash_command)]
pub(super) async fn kick(
    ctx: Ctx<'_>,
    #[description = "The player to remove"] user: serenity::User,
) -> Result<(), Error> {
    kick_user(ctx, &user).await
}

/// Removes `user` from this channel's race and answers the host: `/race kick` and the
/// "Kick from race" context menu alike.
pub(super) async fn kick_user(ctx: Ctx<'_>, user: &serenity::User) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    let target = UserId::new(user.id.get().to_string());
    on_race(
        ctx,
        true,
        |race| async move { referee.kick(race, &actor, &target).await },
        |_, name| {
            note(
                "Removed",
                &format!("{} is out of the race.", escape_markdown(&name)),
            )
        },
    )
    .await
}

/// End the race now, without a result (host).
#[poise::command(slash_command)]
pub(super) async fn cancel(ctx: Ctx<'_>) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.cancel(race, &actor).await },
        |race, ()| note("Cancelled", &format!("Race {race} is cancelled.")),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_read_in_every_form() {
        let now = 1_767_225_600_000;
        let utc = chrono::FixedOffset::east_opt(0).unwrap();
        assert_eq!(parse_moment("2h", now, utc), Some(now + 7_200_000));
        assert_eq!(
            parse_moment("<t:1767300000:F>", now, utc),
            Some(1_767_300_000_000)
        );
        assert_eq!(
            parse_moment("1767300000", now, utc),
            Some(1_767_300_000_000)
        );
        let plus2 = chrono::FixedOffset::east_opt(7200).unwrap();
        assert_eq!(
            parse_moment("2026-01-01 02:00", now, plus2),
            Some(now),
            "local time in the configured zone"
        );
        // Forms people write, read in the zone.
        assert_eq!(parse_moment("1h 30m", now, utc), Some(now + 5_400_000));
        assert_eq!(
            parse_moment("tomorrow 18:00", now, plus2),
            Some(now + (24 + 16) * 3_600_000)
        );
        let london = when::parse_zone("Europe/London").unwrap();
        assert_eq!(
            parse_moment("2026-07-01 18:00", now, london),
            Some(1_782_925_200_000),
            "summer time in London is UTC+1"
        );
        assert_eq!(parse_moment("whenever", now, utc), None);
        assert_eq!(parse_signed("-30m"), Some(-1800));
        assert_eq!(parse_signed("+1h"), Some(3600));
        assert_eq!(parse_signed("x"), None);
    }
}
