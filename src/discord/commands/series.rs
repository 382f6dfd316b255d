//! `/race series`, a subcommand group: `new` opens a series in the channel
//! with a race count and a points table, `standings` shows one. Races join it with
//! `/race new series:NAME`; the standings' text is `final_post::series_text`'s.

use poise::serenity_prelude as serenity;

use super::super::final_post::series_text;
use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error};
use super::common::{answer, who};
use crate::referee::series::SeriesPoints;
use crate::render::escape_markdown;

/// `/race series new points:`: a closed choice of the tables.
pub struct PointsChoice(pub SeriesPoints);

/// The tables as (name, value) choices.
const POINTS_CHOICES: [(&str, SeriesPoints); 3] = [
    ("10-6-4-3-2-1 by place", SeriesPoints::Classic),
    ("25-18-15-12-10-8-6-4-2-1 by place", SeriesPoints::GrandPrix),
    (
        "score: the game's own (chips, card points)",
        SeriesPoints::Score,
    ),
];

#[poise::async_trait]
impl poise::SlashArgument for PointsChoice {
    async fn extract(
        _: &serenity::Context,
        _: &serenity::CommandInteraction,
        value: &serenity::ResolvedValue<'_>,
    ) -> Result<Self, poise::SlashArgError> {
        match value {
            serenity::ResolvedValue::String(s) => SeriesPoints::parse(s).map(PointsChoice),
            _ => None,
        }
        .ok_or_else(|| {
            poise::SlashArgError::new_command_structure_mismatch("expected a points table")
        })
    }

    fn create(builder: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
        POINTS_CHOICES.into_iter().fold(
            builder.kind(serenity::CommandOptionType::String),
            |b, (name, p)| b.add_string_choice(name, p.slug()),
        )
    }
}

/// A series of races in this channel: open one, or show its standings.
#[poise::command(
    slash_command,
    subcommands("series_new", "series_standings"),
    subcommand_required
)]
pub(super) async fn series(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a series here: races join it with /race new series:NAME.
#[poise::command(slash_command, rename = "new")]
pub(super) async fn series_new(
    ctx: Ctx<'_>,
    #[description = "Its name, e.g. Autumn Cup"] name: String,
    #[description = "How many races it runs"]
    #[min = 1]
    #[max = 50]
    races: i64,
    #[description = "How a race counts (default 10-6-4-3-2-1 by place)"] points: Option<
        PointsChoice,
    >,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let actor = who(ctx);
    let channel = ctx.channel_id().get().to_string();
    let points = points.map_or(SeriesPoints::Classic, |p| p.0);
    answer(ctx, false, async move {
        match referee
            .open_series(&channel, &actor, &name, races, points)
            .await
        {
            Ok(def) => note(
                "Series open",
                &format!(
                    "The series **{}** runs {} race{} here. {} Open each race with `/race new series:{}`; `/race series standings` shows the table.",
                    escape_markdown(&def.name),
                    def.races,
                    if def.races == 1 { "" } else { "s" },
                    points.describe(),
                    escape_markdown(&def.name)
                ),
            ),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// A series of this channel: its standings.
#[poise::command(slash_command, rename = "standings")]
pub(super) async fn series_standings(
    ctx: Ctx<'_>,
    #[description = "The series' name"] name: String,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let channel = ctx.channel_id().get().to_string();
    answer(ctx, true, async move {
        match referee.series_table(&channel, &name).await {
            Ok(t) => {
                let (title, text) = series_text(&t);
                note(&title, &text)
            }
            Err(e) => refusal(&e),
        }
    })
    .await
}
