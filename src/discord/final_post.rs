//! The final post's extras, added as the courier delivers it ([`dress_final`]): the
//! record's proof, the series standings ([`series_text`], also what `/race series` and `/race archive series:`
//! show), the complete series' chart, and the race as an animated GIF.

use super::layout::{self, Layout, limits};
use crate::games::words::ordinal;
use crate::referee::Referee;
use crate::referee::series::SeriesTable;
use crate::render::animation::animate;
use crate::render::escape_markdown;
use crate::render::picture::series_chart;
use crate::vocab::CampaignId;

pub(super) fn plural(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// A series' standings as a heading and lines: `Autumn Cup after 2 races`, then
/// `1. **Alice** 16 pts (1st, 2nd)`, at most [`SERIES_LINES`].
pub fn series_text(t: &SeriesTable) -> (String, String) {
    let done = u32::try_from(t.finished.len()).unwrap_or(u32::MAX);
    let title = match t.planned {
        Some(_) if t.complete() => format!(
            "{}: final standings after {}",
            escape_markdown(&t.name),
            plural(done, "race")
        ),
        Some(n) => format!(
            "{} after {done} of {}",
            escape_markdown(&t.name),
            plural(n, "race")
        ),
        None => format!(
            "{} after {}",
            escape_markdown(&t.name),
            plural(done, "race")
        ),
    };
    if t.lines.is_empty() {
        return (
            title,
            format!(
                "No race of this series has finished yet.\n{}",
                t.points.describe()
            ),
        );
    }
    let mut lines: Vec<String> = t
        .lines
        .iter()
        .take(SERIES_LINES)
        .enumerate()
        .map(|(i, l)| {
            let places: Vec<String> = l
                .places
                .iter()
                .map(|p| p.map_or_else(|| "-".to_string(), ordinal))
                .collect();
            format!(
                "{}. **{}**{} {} pts ({})",
                i + 1,
                escape_markdown(&l.name),
                if l.bot { " (bot)" } else { "" },
                l.points,
                places.join(", ")
            )
        })
        .collect();
    if t.lines.len() > SERIES_LINES {
        lines.push(format!("and {} more", t.lines.len() - SERIES_LINES));
    }
    lines.push(t.points.describe());
    (title, lines.join("\n"))
}

/// The most lines of a series' standings shown.
const SERIES_LINES: usize = 10;

/// The record's proof (`referee::chain`), so that a player can hold an export to it.
async fn add_proof(layout: &mut Layout, referee: &Referee, race: CampaignId) {
    let proof = match referee.export(race).await {
        Ok(x) => crate::referee::chain::proof(&x),
        Err(e) => {
            tracing::warn!(race = race.0, "final post: no proof: {e}");
            return;
        }
    };
    let name = "Proof of this record".to_string();
    let value = format!(
        "`{proof}`\nThe race's export (/race export), when verified, gives the same proof."
    );
    let total: usize = layout.embeds.iter().map(layout::EmbedSpec::size).sum();
    if let Some(first) = layout.embeds.first_mut()
        && first.fields.len() < limits::FIELDS
        && total + layout::chars(&name) + layout::chars(&value) + 40 <= limits::EMBED_TOTAL
    {
        first.fields.push((name, value));
    }
}

/// The final post's extras, added as it is delivered: the record's proof and the series
/// standings (fields) and the race as an animated GIF (a second embed showing it). Each
/// is left out, and logged, if it cannot be had; the post goes regardless. `animate_it`
/// false (configuration `animation = false`) leaves the animation out.
pub async fn dress_final(
    layout: &mut Layout,
    referee: &Referee,
    race: CampaignId,
    animate_it: bool,
) {
    add_proof(layout, referee, race).await;
    match referee.series_of_race(race).await {
        Ok(Some(t)) => {
            if t.complete() {
                add_series_chart(layout, &t).await;
            }
            let (name, value) = series_text(&t);
            let value = layout::clip(&value, limits::FIELD_VALUE);
            let name = layout::clip(&name, limits::FIELD_NAME);
            let total: usize = layout.embeds.iter().map(layout::EmbedSpec::size).sum();
            if let Some(first) = layout.embeds.first_mut()
                && first.fields.len() < limits::FIELDS
                && total + layout::chars(&name) + layout::chars(&value) + 40 <= limits::EMBED_TOTAL
            {
                first.fields.push((name, value));
            }
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(race = race.0, "final post: no series standings: {e}"),
    }
    if !animate_it {
        return;
    }
    let views = match referee.views_of_race(race).await {
        Ok(v) => v,
        Err(e) => {
            tracing::warn!(race = race.0, "final post: no animation: {e}");
            return;
        }
    };
    // Drawing every frame is CPU work: off the async workers.
    let drawn = tokio::task::spawn_blocking(move || animate(&views)).await;
    let animation = match drawn {
        Ok(Ok(a)) => a,
        Ok(Err(e)) => {
            tracing::warn!(race = race.0, "final post: no animation: {e}");
            return;
        }
        Err(e) => {
            tracing::error!(race = race.0, "final post: the animation task failed: {e}");
            return;
        }
    };
    let files: usize = layout.files.iter().map(|f| f.bytes.len()).sum();
    if files + animation.gif.len() > limits::UPLOAD_BYTES || layout.embeds.len() >= limits::EMBEDS {
        tracing::warn!(
            race = race.0,
            bytes = animation.gif.len(),
            "final post: the animation does not fit"
        );
        return;
    }
    let name = format!("race-{}-replay.gif", race.0);
    layout.embeds.push(layout::EmbedSpec {
        title: format!("Race {race}, turn by turn"),
        image: Some(format!("attachment://{name}")),
        ..layout::EmbedSpec::default()
    });
    layout.files.push(layout::FileSpec {
        name,
        bytes: animation.gif,
        description: Some(format!(
            "Race {race} turn by turn: the track after each of {} steps, animated",
            animation.frames
        )),
    });
}

/// A complete series' standings over its races, as a picture on the last race's final
/// post (left out, and logged, if it cannot be drawn or does not fit).
async fn add_series_chart(layout: &mut Layout, t: &SeriesTable) {
    let names: Vec<String> = t.lines.iter().map(|l| l.name.clone()).collect();
    let gained: Vec<Vec<u32>> = t.lines.iter().map(|l| l.gained.clone()).collect();
    let title = format!("{}: final standings", t.name);
    let status = format!(
        "After {}. {}",
        plural(u32::try_from(t.finished.len()).unwrap_or(u32::MAX), "race"),
        t.points.describe()
    );
    let drawn = tokio::task::spawn_blocking(move || {
        series_chart(&title, &status, &names, &gained).and_then(|p| p.png())
    })
    .await;
    let png = match drawn {
        Ok(Ok(png)) => png,
        Ok(Err(e)) => {
            tracing::warn!(series = %t.name, "final post: no series chart: {e}");
            return;
        }
        Err(e) => {
            tracing::error!(series = %t.name, "final post: the series chart task failed: {e}");
            return;
        }
    };
    let files: usize = layout.files.iter().map(|f| f.bytes.len()).sum();
    if files + png.len() > limits::UPLOAD_BYTES || layout.embeds.len() >= limits::EMBEDS {
        tracing::warn!(series = %t.name, "final post: the series chart does not fit");
        return;
    }
    let name = "series-standings.png".to_string();
    layout.embeds.push(layout::EmbedSpec {
        title: layout::clip(&format!("{}: final standings", t.name), limits::FIELD_NAME),
        image: Some(format!("attachment://{name}")),
        ..layout::EmbedSpec::default()
    });
    layout.files.push(layout::FileSpec {
        name,
        bytes: png,
        description: Some(format!(
            "The series {} over its {} races: each entrant's points after each race",
            t.name,
            t.finished.len()
        )),
    });
}
