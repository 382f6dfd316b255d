//! The lobby's commands: `/race new` (with its `length:` presets), `join`, `leave`,
//! `start`, `bots` and `settings`.

use poise::serenity_prelude as serenity;

use super::super::layout::Layout;
use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error};
use super::super::{join, reply};
use super::common::{answer, on_race, race_here, who};
use crate::engine::BotLevel;
use crate::games::{GameKind, length};
use crate::referee::series::series_name;
use crate::referee::timing::{apply_timing_text, describe_timing};
use crate::referee::{NewRace, RefereeError};
use crate::render::escape_markdown;
use crate::render::markup::{escape_sentence, quote_typed};

/// Open a lobby for a new race in this channel.
#[poise::command(slash_command, rename = "new", guild_only)]
pub(super) async fn new_race(
    ctx: Ctx<'_>,
    #[description = "The game"] game: super::complete::GameChoice,
    #[description = "Options as key=value text, e.g. turn=12h reminders=1h starting-points=50"]
    options: Option<String>,
    #[description = "Run the race in a new thread of this channel"] thread: Option<bool>,
    #[description = "How long: one round, one race or the whole game (the game's default if left out)"]
    length: Option<LengthChoice>,
    #[description = "A series of this channel the race counts toward, e.g. Autumn Cup"]
    series: Option<String>,
) -> Result<(), Error> {
    let game = game.0;
    answer(ctx, true, async move {
        let shared = ctx.data();
        let Some(kind) = GameKind::from_slug(&game) else {
            let games: Vec<&str> = GameKind::all().map(GameKind::slug).collect();
            return note(
                "Not done",
                &format!(
                    "There is no game {}. The games are: {}.",
                    quote_typed(&game),
                    games.join(", ")
                ),
            );
        };
        let options = options.unwrap_or_default();
        let length = match length.map(|l| length::find(kind, &l.0)).transpose() {
            Ok(l) => l,
            Err(e) => return note("Not done", &capitalised(&e.to_string())),
        };
        let options = match length {
            Some(l) => length::with_length(l, &options),
            None => options,
        };
        // Check the options before making a thread that would be left empty.
        let mut timing = shared.referee.config().default_timing.clone();
        let limits = &shared.referee.config().limits;
        let checked = apply_timing_text(&mut timing, &options).and_then(|rest| {
            limits.check_timing(&timing)?;
            kind.apply_options(None, &rest)
                .map(|_| ())
                .map_err(RefereeError::from)
        });
        if let Err(e) = checked {
            return refusal(&e);
        }
        let series = match series.as_deref().map(series_name).transpose() {
            Ok(s) => s,
            Err(e) => return refusal(&e),
        };
        let host = who(ctx);
        let guild = ctx.guild_id().map(|g| g.get().to_string());
        if let Err(e) = shared
            .referee
            .check_lobby_quota(&host.user, guild.as_deref())
            .await
        {
            return refusal(&e);
        }
        let mut channel = ctx.channel_id();
        if thread.unwrap_or(false) {
            match new_thread(ctx, kind).await {
                Ok(t) => channel = t,
                Err(refused) => return refused,
            }
        }
        let expected = expected_line(kind, &options, &shared.referee.config().default_timing);
        let made = shared
            .referee
            .create(NewRace {
                kind,
                options,
                channel: channel.get().to_string(),
                guild,
                host,
            })
            .await;
        match made {
            Ok(race) => {
                let in_series = match &series {
                    // The race counts toward the channel's series of that name.
                    Some(name) => match shared.referee.set_series(race, name).await {
                        Ok(name) => format!(" It counts toward the series **{}**.", escape_markdown(&name)),
                        Err(e) => format!(" It could not join the series: {}", reply::sentence(&e)),
                    },
                    None => String::new(),
                };
                note(
                    "Race opened",
                    &format!(
                        "{kind} race {race} is open in <#{}>. Players join with the lobby's button or `/race join`; you start it with `/race start`.{in_series}{}",
                        channel.get(),
                        expected
                    ),
                )
            }
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// `/race new thread:true`: a new public thread of this channel for the race, or the reply
/// saying why not.
async fn new_thread(ctx: Ctx<'_>, kind: GameKind) -> Result<serenity::ChannelId, Layout> {
    // The bot makes the thread with its own permission: only for a caller who
    // could make it themselves.
    if !may_create_threads(ctx) {
        return Err(note(
            "Not done",
            "You need the Create Public Threads permission in this channel to start a race in a new thread; run /race new without `thread` instead.",
        ));
    }
    let name = format!("{} race", kind.title());
    match ctx
        .channel_id()
        .create_thread(
            ctx.http(),
            // A week (Discord's longest, open to every server since 2022): races
            // run over days, and the bot unarchives the thread when it must post.
            serenity::CreateThread::new(name)
                .kind(serenity::ChannelType::PublicThread)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
        )
        .await
    {
        Ok(t) => Ok(t.id),
        Err(e) => {
            tracing::warn!("cannot create a thread: {e}");
            Err(note(
                "Not done",
                "I couldn't create a thread here (I need Create Public Threads). Run /race new without `thread`, or ask an admin.",
            ))
        }
    }
}

/// `/race new length:`: the presets every game names the same way; each game takes those
/// it has (`games::length`).
pub struct LengthChoice(pub String);

/// The lengths as (name, value) choices.
pub const LENGTH_CHOICES: [(&str, &str); 3] = [
    ("round: one round (1000 miles, 1000 Yards)", "round"),
    (
        "race: one race (Magical Athlete; Dream Mile and 1500m are one race)",
        "race",
    ),
    (
        "game: the whole game (to the target score; Magical Athlete's four races)",
        "game",
    ),
];

#[poise::async_trait]
impl poise::SlashArgument for LengthChoice {
    async fn extract(
        _: &serenity::Context,
        _: &serenity::CommandInteraction,
        value: &serenity::ResolvedValue<'_>,
    ) -> Result<Self, poise::SlashArgError> {
        match value {
            serenity::ResolvedValue::String(s) => Ok(LengthChoice((*s).to_string())),
            _ => Err(poise::SlashArgError::new_command_structure_mismatch(
                "expected a string choice",
            )),
        }
    }

    fn create(builder: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
        LENGTH_CHOICES.into_iter().fold(
            builder.kind(serenity::CommandOptionType::String),
            |b, (name, value)| b.add_string_choice(name, value),
        )
    }
}

/// The new race's expected duration (its length, at the game's fewest seats; the lobby
/// message counts the seats taken), or nothing for options no length has.
fn expected_line(kind: GameKind, options: &str, timing: &crate::vocab::Timing) -> String {
    let mut timing = timing.clone();
    let Ok(rest) = apply_timing_text(&mut timing, options) else {
        return String::new();
    };
    let Ok(json) = kind.apply_options(None, &rest) else {
        return String::new();
    };
    let text = kind.describe_options(&json);
    length::lobby_line(kind, &text, 0)
        .map(|l| format!("\n{l} The lobby message gives it for the seats taken."))
        .unwrap_or_default()
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect::<String>() + ".",
        None => String::new(),
    }
}

/// Whether the caller may create public threads here (Discord computes the member's
/// permissions in the channel and sends them with the interaction).
fn may_create_threads(ctx: Ctx<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.create_public_threads() || p.administrator()),
        poise::Context::Prefix(_) => false,
    }
}

/// Take a seat in this channel's race.
#[poise::command(slash_command)]
pub(super) async fn join(
    ctx: Ctx<'_>,
    #[description = "Your runner's name (your server name if left out)"] name: Option<String>,
    #[description = "Your pre-race choice, if the game has one (see /race help)"]
    #[autocomplete = "super::complete::autocomplete_seat_choice"]
    choice: Option<String>,
) -> Result<(), Error> {
    answer(ctx, true, async move {
        let race = match race_here(ctx).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        join::join_flow(
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
pub(super) async fn leave(ctx: Ctx<'_>) -> Result<(), Error> {
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
pub(super) async fn start(ctx: Ctx<'_>) -> Result<(), Error> {
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

/// Add bots to the lobby (host).
#[poise::command(slash_command)]
pub(super) async fn bots(
    ctx: Ctx<'_>,
    #[description = "How many (1 if left out)"]
    #[min = 1]
    #[max = 20]
    count: Option<u8>,
    #[description = "heuristic (default) or random"] level: Option<super::complete::LevelChoice>,
) -> Result<(), Error> {
    let actor = who(ctx);
    let referee = ctx.data().referee.clone();
    let Some(level) = BotLevel::parse(level.as_ref().map_or("heuristic", |l| l.0.as_str())) else {
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
        |race, names| {
            let names: Vec<String> = names.iter().map(|n| escape_markdown(n)).collect();
            note("Bots added", &format!("Race {race}: {}.", names.join(", ")))
        },
    )
    .await
}

/// Show the race's options, or change them (host): key=value text.
#[poise::command(slash_command)]
pub(super) async fn settings(
    ctx: Ctx<'_>,
    #[description = "Changes as key=value text, e.g. turn=12h reminders=1h (leave out to show)"]
    #[autocomplete = "super::complete::autocomplete_settings"]
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
                |race, now| {
                    note(
                        "Settings changed",
                        &format!("Race {race}: {}", escape_sentence(&now)),
                    )
                },
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
                            escape_sentence(&o.options),
                            escape_sentence(&describe_timing(&o.timing)),
                            docs.join("\n")
                        ),
                    )
                },
            )
            .await
        }
    }
}
