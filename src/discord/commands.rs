//! The `/race` slash commands. Each is a few lines: read the arguments, ask the referee,
//! answer (ephemerally: what the channel should see is posted by the outbox), and wake the
//! workers. Host commands are for the race's host and members with Manage Server; the
//! referee checks that and every refusal is shown, ephemerally, in its words.
//!
//! Nothing here knows a game: games are named by their slug, options are `key=value` text,
//! orders are text or the prompt's own choices.

use std::future::Future;
use std::sync::Arc;

use chrono::{NaiveDateTime, TimeZone};
use poise::serenity_prelude as serenity;

use super::handlers::{self, ACK_GRACE, actor, note, refusal};
use super::layout::{self, Layout};
use super::{Ctx, Error, Shared, dress};
use crate::engine::BotLevel;
use crate::games::GameKind;
use crate::referee::announce::{Announcement, SeatState};
use crate::referee::timing::{apply_timing_text, describe_timing, format_duration, parse_duration};
use crate::referee::{DeadlineChange, NewRace, RefereeError};
use crate::render::post::{Style, present};
use crate::store::{CampaignId, Millis, UserId};

/// Poise's error hook: a duplicate interaction is dropped silently; anything else gets a
/// short ephemeral answer and a log line.
pub async fn on_error(error: poise::FrameworkError<'_, Arc<Shared>, Error>) {
    match error {
        poise::FrameworkError::CommandCheckFailed { error: None, .. } => {
            tracing::debug!("duplicate command interaction dropped");
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::warn!(command = %ctx.command().qualified_name, "command failed: {error}");
            let _ = ctx
                .send(dress::reply(
                    &note(
                        "Not done",
                        "Something went wrong on our side, and nothing was changed; please try again.",
                    ),
                    true,
                ))
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!("error while handling an error: {e}");
            }
        }
    }
}

/// Marks an invocation whose id was checked (poise checks each level of `/race sub`).
struct Checked;

/// Poise's command check: false for an interaction already handled (a duplicate
/// gateway event), true for every level of a new one.
pub async fn not_a_duplicate(ctx: Ctx<'_>) -> Result<bool, Error> {
    if ctx.invocation_data::<Checked>().await.is_some() {
        return Ok(true);
    }
    if !ctx.data().first_time(ctx.id()) {
        return Ok(false);
    }
    ctx.set_invocation_data(Checked).await;
    Ok(true)
}

/// Runs `work`, deferring the answer (ephemerally) if it takes longer than Discord's
/// grace, then sends what it returns.
async fn answer<F>(ctx: Ctx<'_>, ephemeral: bool, work: F) -> Result<(), Error>
where
    F: Future<Output = Layout>,
{
    tokio::pin!(work);
    let layout = tokio::select! {
        l = &mut work => l,
        _ = tokio::time::sleep(ACK_GRACE) => {
            if ephemeral {
                ctx.defer_ephemeral().await?;
            } else {
                ctx.defer().await?;
            }
            work.await
        }
    };
    ctx.send(dress::reply(&layout, ephemeral)).await?;
    ctx.data().poke();
    Ok(())
}

fn who(ctx: Ctx<'_>) -> crate::referee::Actor {
    match ctx {
        poise::Context::Application(a) => actor(ctx.author(), a.interaction.member.as_deref()),
        poise::Context::Prefix(_) => actor(ctx.author(), None),
    }
}

fn user_of(ctx: Ctx<'_>) -> UserId {
    UserId::new(ctx.author().id.get().to_string())
}

/// The race of this channel; in a DM, the user's race if they are in exactly one.
async fn race_here(ctx: Ctx<'_>) -> Result<CampaignId, RefereeError> {
    let referee = &ctx.data().referee;
    match referee.race_in(&ctx.channel_id().get().to_string()).await {
        Ok(race) => same_server(ctx, race).await,
        Err(RefereeError::NoRace) if ctx.guild_id().is_none() => {
            match referee.races_of(&user_of(ctx)).await?.as_slice() {
                [only] => Ok(*only),
                _ => Err(RefereeError::NoRace),
            }
        }
        Err(e) => Err(e),
    }
}

/// The race, unless the command came from another server than the race's: Manage
/// Server there is no authority here.
async fn same_server(ctx: Ctx<'_>, race: CampaignId) -> Result<CampaignId, RefereeError> {
    let Some(here) = ctx.guild_id() else {
        return Ok(race);
    };
    let row = ctx.data().referee.store().load(race).await?;
    match row.and_then(|l| l.campaign.guild) {
        Some(g) if g != here.get().to_string() => Err(RefereeError::NoRace),
        _ => Ok(race),
    }
}

/// Like [`race_here`], but a finished race still answers for its channel.
async fn race_here_or_last(ctx: Ctx<'_>) -> Result<CampaignId, RefereeError> {
    match race_here(ctx).await {
        Err(RefereeError::NoRace) => {
            let race = ctx
                .data()
                .referee
                .race_in_or_last(&ctx.channel_id().get().to_string())
                .await?;
            same_server(ctx, race).await
        }
        other => other,
    }
}

/// Runs a request on this channel's race and answers with `done`'s text or the refusal.
async fn on_race<T, F, Fut>(
    ctx: Ctx<'_>,
    ephemeral: bool,
    request: F,
    done: impl FnOnce(CampaignId, T) -> Layout,
) -> Result<(), Error>
where
    F: FnOnce(CampaignId) -> Fut,
    Fut: Future<Output = Result<T, RefereeError>>,
{
    answer(ctx, ephemeral, async move {
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        match request(race).await {
            Ok(value) => done(race, value),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// [`on_race`] for commands that still work after the end (history).
async fn on_race_or_last<T, F, Fut>(
    ctx: Ctx<'_>,
    request: F,
    done: impl FnOnce(CampaignId, T) -> Layout,
) -> Result<(), Error>
where
    F: FnOnce(CampaignId) -> Fut,
    Fut: Future<Output = Result<T, RefereeError>>,
{
    answer(ctx, true, async move {
        match race_here_or_last(ctx).await {
            Ok(race) => match request(race).await {
                Ok(value) => done(race, value),
                Err(e) => refusal(&e),
            },
            Err(e) => refusal(&e),
        }
    })
    .await
}

async fn autocomplete_game(_ctx: Ctx<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let p = partial.to_ascii_lowercase();
    GameKind::all()
        .filter(|k| k.slug().contains(&p) || k.title().to_ascii_lowercase().contains(&p))
        .fold(serenity::CreateAutocompleteResponse::new(), |r, k| {
            r.add_string_choice(k.title(), k.slug())
        })
}

/// Run a race: `/race new`, `/race join`, `/race start`, and orders by DM.
#[poise::command(
    slash_command,
    subcommands(
        "new_race",
        "join",
        "leave",
        "start",
        "status",
        "orders",
        "order",
        "deadline",
        "pause",
        "resume",
        "bots",
        "replace",
        "kick",
        "settings",
        "preference",
        "history",
        "verify",
        "cancel",
        "help"
    ),
    subcommand_required
)]
pub async fn race(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a lobby for a new race in this channel.
#[poise::command(slash_command, rename = "new", guild_only)]
async fn new_race(
    ctx: Ctx<'_>,
    #[description = "The game, e.g. dream-mile"]
    #[autocomplete = "autocomplete_game"]
    game: String,
    #[description = "Options as key=value text, e.g. turn=12h reminders=1h starting-points=50"]
    options: Option<String>,
    #[description = "Run the race in a new thread of this channel"] thread: Option<bool>,
) -> Result<(), Error> {
    answer(ctx, true, async move {
        let shared = ctx.data();
        let Some(kind) = GameKind::from_slug(&game) else {
            let games: Vec<&str> = GameKind::all().map(|k| k.slug()).collect();
            return note(
                "Not done",
                &format!("There is no game `{game}`. The games are: {}.", games.join(", ")),
            );
        };
        let options = options.unwrap_or_default();
        // Check the options before making a thread that would be left empty.
        let mut timing = shared.settings.timing.clone();
        let checked = apply_timing_text(&mut timing, &options).and_then(|rest| {
            kind.apply_options(None, &rest)
                .map(|_| ())
                .map_err(RefereeError::from)
        });
        if let Err(e) = checked {
            return refusal(&e);
        }
        let host = who(ctx);
        let mut channel = ctx.channel_id();
        if thread.unwrap_or(false) {
            let name = format!("{} race", kind.title());
            match channel
                .create_thread(
                    ctx.http(),
                    serenity::CreateThread::new(name).kind(serenity::ChannelType::PublicThread),
                )
                .await
            {
                Ok(t) => channel = t.id,
                Err(e) => {
                    tracing::warn!("cannot create a thread: {e}");
                    return note(
                        "Not done",
                        "I couldn't create a thread here (I need Create Public Threads). Run /race new without `thread`, or ask an admin.",
                    );
                }
            }
        }
        let made = shared
            .referee
            .create(NewRace {
                kind,
                options,
                channel: channel.get().to_string(),
                guild: ctx.guild_id().map(|g| g.get().to_string()),
                host,
            })
            .await;
        match made {
            Ok(race) => note(
                "Race opened",
                &format!(
                    "{kind} race {race} is open in <#{}>. Players join with the lobby's button or `/race join`; you start it with `/race start`.",
                    channel.get()
                ),
            ),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// Take a seat in this channel's race.
#[poise::command(slash_command)]
async fn join(
    ctx: Ctx<'_>,
    #[description = "Your runner's name (your server name if left out)"] name: Option<String>,
    #[description = "Your pre-race choice, if the game has one (see /race help)"] choice: Option<
        String,
    >,
) -> Result<(), Error> {
    answer(ctx, true, async move {
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        handlers::join_flow(
            ctx.data(),
            ctx.http(),
            &who(ctx),
            race,
            name.as_deref(),
            choice.as_deref(),
        )
        .await
    })
    .await
}

/// Give up your seat (a bot runs it if the race has started).
#[poise::command(slash_command)]
async fn leave(ctx: Ctx<'_>) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.leave(race, &actor).await },
        |race, ()| note("Left", &format!("You left race {race}.")),
    )
    .await
}

/// Start the race (host).
#[poise::command(slash_command)]
async fn start(ctx: Ctx<'_>) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.start(race, &actor).await },
        |race, ()| {
            note(
                "Started",
                &format!("Race {race} is off. Everyone gets their first order by DM."),
            )
        },
    )
    .await
}

/// The standings, the track and who has ordered.
#[poise::command(slash_command)]
async fn status(ctx: Ctx<'_>) -> Result<(), Error> {
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
async fn orders(ctx: Ctx<'_>) -> Result<(), Error> {
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
                            format!("{} (bot)", s.name)
                        } else {
                            s.name.clone()
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
                &format!("Race {race}: {}", o.label),
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
async fn order(
    ctx: Ctx<'_>,
    #[description = "Your order as text, e.g. 7 (leave out to get buttons)"] text: Option<String>,
) -> Result<(), Error> {
    answer(ctx, true, async move {
        let shared = ctx.data();
        let user = user_of(ctx);
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return match handlers::prompt_layout(shared, race, &user, None).await {
                Ok(l) => l,
                Err(e) => refusal(&e),
            };
        };
        match shared.referee.submit(race, &user, &text).await {
            Ok(receipt) => {
                if receipt.resolved {
                    handlers::receipt_layout(&receipt)
                } else {
                    handlers::prompt_layout(shared, race, &user, Some(&receipt))
                        .await
                        .unwrap_or_else(|_| handlers::receipt_layout(&receipt))
                }
            }
            Err(e @ (RefereeError::Order(_) | RefereeError::Invalid(_))) => {
                match handlers::prompt_layout(shared, race, &user, None).await {
                    Ok(mut l) => {
                        l.content = Some(format!("**{}**", handlers::sentence(&e)));
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

/// Reads a moment: a duration from now (`2h`), a Discord timestamp (`<t:1767225600:F>`),
/// Unix seconds, or `YYYY-MM-DD HH:MM` in the configured zone.
pub fn parse_moment(text: &str, now: Millis, zone: chrono::FixedOffset) -> Option<Millis> {
    let t = text.trim();
    if let Some(secs) = parse_duration(t).filter(|s| *s < 10_000_000) {
        return Some(now + i64::try_from(secs).ok()?.checked_mul(1000)?);
    }
    let inner = t
        .strip_prefix("<t:")
        .map(|r| r.trim_end_matches('>').split(':').next().unwrap_or(""))
        .unwrap_or(t);
    if inner.len() >= 9
        && inner.chars().all(|c| c.is_ascii_digit())
        && let Ok(secs) = inner.parse::<i64>()
    {
        return secs.checked_mul(1000);
    }
    for format in ["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(t, format) {
            return zone
                .from_local_datetime(&naive)
                .single()
                .map(|d| d.timestamp_millis());
        }
    }
    None
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
async fn deadline(
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
                        &format!("`{s}` is not a time: use a duration from now (`2h`), a Discord timestamp, or `YYYY-MM-DD HH:MM`."),
                    );
                }
            },
            (None, Some(e)) => match parse_signed(&e) {
                Some(secs) => Some(DeadlineChange::Extend(secs)),
                None => {
                    return note(
                        "Not done",
                        &format!("`{e}` is not a duration such as 2h or -30m."),
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
                        &format!("{}: orders are due {}.", o.label, Style::discord().when(d)),
                    ),
                    (None, None) => note("Deadline", "There is no deadline running."),
                },
                Err(e) => refusal(&e),
            },
        }
    })
    .await
}

/// Stop the clock (host); the time left is kept.
#[poise::command(slash_command)]
async fn pause(ctx: Ctx<'_>) -> Result<(), Error> {
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

/// Restart the clock (host) with the time that was left.
#[poise::command(slash_command)]
async fn resume(ctx: Ctx<'_>) -> Result<(), Error> {
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

/// Add bots to the lobby (host).
#[poise::command(slash_command)]
async fn bots(
    ctx: Ctx<'_>,
    #[description = "How many (1 if left out)"]
    #[min = 1]
    #[max = 20]
    count: Option<u8>,
    #[description = "heuristic (default) or random"] level: Option<String>,
) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    let Some(level) = BotLevel::parse(level.as_deref().unwrap_or("heuristic")) else {
        return answer(ctx, true, async {
            note("Not done", "A bot is `heuristic` or `random`.")
        })
        .await;
    };
    on_race(
        ctx,
        true,
        |race| async move {
            referee
                .add_bots(race, &actor, usize::from(count.unwrap_or(1)), level)
                .await
        },
        |race, names| note("Bots added", &format!("Race {race}: {}.", names.join(", "))),
    )
    .await
}

/// Hand a seat to another user (host).
#[poise::command(slash_command)]
async fn replace(
    ctx: Ctx<'_>,
    #[description = "The seat: a runner's name or its player"] seat: String,
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
                "Seat handed over",
                &format!("{name}'s seat now belongs to <@{}>.", user.id.get()),
            )
        },
    )
    .await
}

/// Remove a player (host): from the lobby, or to a bot once the race runs.
#[poise::command(slash_command)]
async fn kick(
    ctx: Ctx<'_>,
    #[description = "The player to remove"] user: serenity::User,
) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    let target = UserId::new(user.id.get().to_string());
    on_race(
        ctx,
        true,
        |race| async move { referee.kick(race, &actor, &target).await },
        |_, name| note("Removed", &format!("{name} is out of the race.")),
    )
    .await
}

/// Show the race's options, or change them (host): key=value text.
#[poise::command(slash_command)]
async fn settings(
    ctx: Ctx<'_>,
    #[description = "Changes as key=value text, e.g. turn=12h reminders=1h (leave out to show)"]
    change: Option<String>,
) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    match change.filter(|c| !c.trim().is_empty()) {
        Some(text) => {
            on_race(
                ctx,
                true,
                |race| async move { referee.settings(race, &actor, &text).await },
                |race, now| note("Settings changed", &format!("Race {race}: {now}")),
            )
            .await
        }
        None => {
            on_race(
                ctx,
                true,
                |race| async move { referee.overview(race).await },
                |race, o| {
                    let docs: Vec<String> = o
                        .kind
                        .option_docs()
                        .iter()
                        .map(|d| format!("`{}`: {}", d.key, d.help))
                        .collect();
                    note(
                        &format!("Race {race} settings"),
                        &format!(
                            "{} | {}\n\nThe host changes them with `/race settings change:key=value`. Timing: `turn`, `reminders`, `resolve` (early or deadline). Game options (lobby only):\n{}",
                            o.options,
                            describe_timing(&o.timing),
                            docs.join("\n")
                        ),
                    )
                },
            )
            .await
        }
    }
}

/// Set a standing preference for your seat, for games that have them.
#[poise::command(slash_command)]
async fn preference(
    ctx: Ctx<'_>,
    #[description = "The preference as text (see /race help)"] text: String,
) -> Result<(), Error> {
    let user = user_of(ctx);
    let referee = ctx.data().referee.clone();
    on_race(
        ctx,
        true,
        |race| async move { referee.set_preference(race, &user, &text).await },
        |_, answer| note("Preference set", &answer),
    )
    .await
}

/// An earlier turn's result, with its revealed orders.
#[poise::command(slash_command)]
async fn history(
    ctx: Ctx<'_>,
    #[description = "The turn's number (1 is the first)"]
    #[min = 1]
    turn: u32,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    on_race_or_last(
        ctx,
        |race| async move { referee.history(race, turn).await },
        |race, h| {
            let orders: Vec<String> = h
                .orders
                .iter()
                .map(|o| {
                    format!(
                        "{} `{}` ({}) nonce {} -> {}",
                        o.name,
                        o.order,
                        o.source.as_str(),
                        o.nonce,
                        o.receipt
                    )
                })
                .collect();
            let post = crate::render::post::Post {
                title: format!(
                    "Race {race}, turn {}: {}{}",
                    h.number,
                    h.label,
                    if h.late { " (resolved late)" } else { "" }
                ),
                body: h.narration.join("\n"),
                track: None,
                fields: vec![("Orders and receipts".into(), orders.join("\n"))],
                footer: None,
                choices: vec![],
                view: None,
                picture: crate::render::post::Picture::None,
            };
            Layout {
                embeds: layout::embeds(&post, None),
                ..Layout::default()
            }
        },
    )
    .await
}

/// After the end: the revealed seed, and the check of every roll against it.
#[poise::command(slash_command)]
async fn verify(ctx: Ctx<'_>) -> Result<(), Error> {
    let shared = ctx.data().clone();
    // Replaying a whole race may take a moment: defer straight away.
    ctx.defer_ephemeral().await?;
    let race = race_here_or_last(ctx).await;
    let layout = match race {
        Ok(race) => match shared.referee.verify(race).await {
            Ok(r) => {
                let mut text = format!(
                    "Seed `{}`\nCommitment `{}` {}\n{} steps and {} events replayed from the seed.",
                    r.seed,
                    r.commitment,
                    if r.commitment_matches {
                        "matches the seed's SHA-256"
                    } else {
                        "DOES NOT match the seed"
                    },
                    r.steps_checked,
                    r.events_checked
                );
                for p in r.problems.iter().take(10) {
                    text.push_str(&format!("\nProblem: {p}"));
                }
                text.push_str(if r.ok() {
                    "\n**Verified:** every random outcome matches the seed."
                } else {
                    "\n**Not verified.**"
                });
                note(&format!("Race #{} checked", r.race), &text)
            }
            Err(e) => refusal(&e),
        },
        Err(e) => refusal(&e),
    };
    ctx.send(dress::reply(&layout, true)).await?;
    Ok(())
}

/// End the race now, without a result (host).
#[poise::command(slash_command)]
async fn cancel(ctx: Ctx<'_>) -> Result<(), Error> {
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

/// How to play: the commands, and a game's rules and options.
#[poise::command(slash_command)]
async fn help(
    ctx: Ctx<'_>,
    #[description = "A game, e.g. dream-mile"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    answer(ctx, true, async move { help_layout(game.as_deref()) }).await
}

/// The help text: the commands, then each game (or the one asked for).
pub fn help_layout(game: Option<&str>) -> Layout {
    let commands = "\
`/race new game options thread` open a lobby here (you become the host)
`/race join name choice` / `/race leave` take or give up a seat (or use the lobby's buttons)
`/race start` begin (host)
Orders come by DM: press a button or reply with the order as text (`7`; `#12 7` if you are in several races). Change it until the turn resolves; each order gets a receipt.
`/race order text` order here instead, seen only by you (if your DMs are closed)
`/race status` standings and track; `/race orders` who has ordered (never what)
`/race deadline set extend` show or move the deadline (host)
`/race pause` / `/race resume` stop and restart the clock (host)
`/race bots` `/race replace` `/race kick` `/race settings` `/race cancel` (host)
`/race history turn` an earlier turn; `/race verify` check the dice after the end
Host commands: the race's host, or anyone with Manage Server.";
    let one = game.and_then(GameKind::from_slug);
    let mut post = crate::render::post::Post {
        title: "How to race".into(),
        body: commands.into(),
        track: None,
        fields: Vec::new(),
        footer: None,
        choices: vec![],
        view: None,
        picture: crate::render::post::Picture::None,
    };
    let Some(k) = one else {
        // Every game in a line: the full rules of all of them do not fit one message.
        for k in GameKind::all() {
            let summary = k.rules_summary();
            let first = summary
                .split_once(". ")
                .map(|(s, _)| format!("{s}."))
                .unwrap_or_else(|| summary.to_string());
            post.fields.push((
                format!("{} (`{}`)", k.title(), k.slug()),
                format!(
                    "{}\nRules and options: `/race help game:{}`",
                    layout::clip(&first, 300),
                    k.slug()
                ),
            ));
        }
        return Layout {
            embeds: layout::embeds(&post, None),
            ..Layout::default()
        };
    };
    {
        let mut text = k.rules_summary().to_string();
        if let Some(choice) = k.seat_choice_help() {
            text.push_str(&format!(
                "\nBefore the start (`/race join choice:`): {choice}."
            ));
        }
        if let Some(pref) = k.preference_help() {
            text.push_str(&format!("\nPreferences (`/race preference`): {pref}"));
        }
        let options: Vec<String> = k
            .option_docs()
            .iter()
            .map(|d| format!("`{}` {}", d.key, d.help))
            .collect();
        if !options.is_empty() {
            text.push_str(&format!("\nOptions: {}", options.join("; ")));
        }
        post.fields
            .push((format!("{} (`{}`)", k.title(), k.slug()), text));
    }
    Layout {
        embeds: layout::embeds(&post, None),
        ..Layout::default()
    }
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
        assert_eq!(parse_moment("tomorrow", now, utc), None);
        assert_eq!(parse_signed("-30m"), Some(-1800));
        assert_eq!(parse_signed("+1h"), Some(3600));
        assert_eq!(parse_signed("x"), None);
    }

    #[test]
    fn each_game_s_help_fits_and_lists_its_options() {
        for k in GameKind::all() {
            let l = help_layout(Some(k.slug()));
            let text: String = l
                .embeds
                .iter()
                .flat_map(|e| {
                    std::iter::once(e.description.clone())
                        .chain(e.fields.iter().map(|(n, v)| format!("{n} {v}")))
                })
                .collect();
            assert!(!text.contains("cut to fit"), "{}: {text}", k.slug());
            for d in k.option_docs() {
                assert!(text.contains(d.key), "{}: {}", k.slug(), d.key);
            }
            assert!(
                l.embeds.iter().map(|e| e.size()).sum::<usize>() <= layout::limits::EMBED_TOTAL
            );
        }
    }

    #[test]
    fn help_fits_discord_and_names_every_game() {
        let l = help_layout(None);
        let text: String = l
            .embeds
            .iter()
            .flat_map(|e| e.fields.iter().map(|(n, _)| n.clone()))
            .collect();
        for k in GameKind::all() {
            assert!(text.contains(k.slug()), "{text}");
        }
        assert!(l.embeds.iter().map(|e| e.size()).sum::<usize>() <= layout::limits::EMBED_TOTAL);
    }
}
