//! Races after their end (issue 19): `/race archive` (the server's races), and
//! `history`, `verify` and `export`, which take any race number of this server (`race:`)
//! and otherwise this channel's race or its last one. Another server's race is refused in
//! one sentence; and `/race archive game:`, the server's ratings in one game
//! (`referee::ratings`). Answers are ephemeral.

use super::super::handlers::{note, refusal};
use super::super::layout::{self, Layout, limits};
use super::super::{Ctx, Error};
use super::{answer, autocomplete_game, race_here_or_last, send_answer, user_of};
use crate::games::GameKind;
use crate::referee::RefereeError;
use crate::referee::archive::{ARCHIVE_PAGE, ArchiveEntry, PastTurn};
use crate::referee::ratings::Rating;
use crate::render::post::{Picture, Post, draw_picture};
use crate::render::{code_text, escape_markdown, track_text};
use crate::store::{CampaignId, Phase};

/// The race a command names (`race:`), checked to be this server's; else this channel's.
async fn pick(ctx: Ctx<'_>, race: Option<i64>) -> Result<CampaignId, RefereeError> {
    match race {
        None => race_here_or_last(ctx).await,
        Some(n) => {
            let guild = ctx.guild_id().map(|g| g.get().to_string());
            ctx.data()
                .referee
                .race_of_server(CampaignId(n), guild.as_deref(), &user_of(ctx))
                .await
        }
    }
}

// One subcommand for the archive and the leaderboard: Discord allows 25 under `/race`.
/// This server's races, newest first; with game:, that game's leaderboard.
#[poise::command(slash_command)]
pub(super) async fn archive(
    ctx: Ctx<'_>,
    #[description = "Show races older than this race number"]
    #[min = 1]
    before: Option<i64>,
    #[description = "A game: show its leaderboard on this server instead"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    if let Some(game) = game {
        return leaderboard(ctx, game).await;
    }
    let referee = ctx.data().referee.clone();
    let guild = ctx.guild_id().map(|g| g.get().to_string());
    answer(ctx, true, async move {
        let Some(guild) = guild else {
            return note(
                "Not done",
                "The archive lists a server's races: use /race archive in one of its channels.",
            );
        };
        match referee.archive(&guild, before.map(CampaignId)).await {
            Ok(entries) => archive_layout(&entries, before.is_some()),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// The archive's page as one embed.
fn archive_layout(entries: &[ArchiveEntry], older: bool) -> Layout {
    if entries.is_empty() {
        let text = if older {
            "There are no older races on this server."
        } else {
            "No race has been run on this server yet; start one with /race new."
        };
        return note("Races of this server", text);
    }
    let lines: Vec<String> = entries.iter().map(archive_line).collect();
    let mut text = lines.join("\n");
    if let Some(last) = entries.last()
        && entries.len() >= usize::try_from(ARCHIVE_PAGE).unwrap_or(usize::MAX)
    {
        text.push_str(&format!(
            "\nOlder races: /race archive before:{}",
            last.race.0
        ));
    }
    text.push_str(
        "\n/race history, /race verify and /race export take `race:` with any of these numbers.",
    );
    note("Races of this server", &text)
}

/// `Race #12 · Dream Mile · <date> · won by Alice · <#channel>`.
fn archive_line(e: &ArchiveEntry) -> String {
    let result = match e.phase {
        Phase::Finished => match e.winners.as_slice() {
            [] => "finished".to_string(),
            [one] => format!("won by **{}**", escape_markdown(one)),
            many => format!(
                "tie between **{}**",
                many.iter()
                    .map(|n| escape_markdown(n))
                    .collect::<Vec<_>>()
                    .join("**, **")
            ),
        },
        Phase::Cancelled => "cancelled".to_string(),
        Phase::Lobby => "in its lobby".to_string(),
        Phase::Running => "under way".to_string(),
        Phase::Paused => "paused".to_string(),
    };
    let at = e.ended_at.unwrap_or(e.created_at) / 1000;
    let channel = match e.channel.parse::<u64>() {
        Ok(id) => format!("<#{id}>"),
        Err(_) => escape_markdown(&e.channel),
    };
    format!(
        "Race {} · {} · <t:{at}:d> · {result} · {channel}",
        e.race, e.game
    )
}

/// An earlier turn's result: its picture and standings, and its revealed orders.
#[poise::command(slash_command)]
pub(super) async fn history(
    ctx: Ctx<'_>,
    #[description = "The turn's number (1 is the first)"]
    #[min = 1]
    #[autocomplete = "super::complete::autocomplete_turn"]
    turn: u32,
    #[description = "A race number of this server (default: this channel's race)"]
    #[min = 1]
    race: Option<i64>,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    answer(ctx, true, async move {
        let id = match pick(ctx, race).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        match referee.past_turn(id, turn).await {
            Ok(past) => history_layout(id, past).await,
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// The turn as a post: narration, the standings as text, the orders with their proofs,
/// and the track drawn as the channel saw it after that turn.
async fn history_layout(race: CampaignId, past: PastTurn) -> Layout {
    let h = past.entry;
    let orders: Vec<String> = h
        .orders
        .iter()
        .map(|o| {
            format!(
                "{} `{}` ({}) nonce {} -> {}",
                escape_markdown(&o.name),
                code_text(&o.order),
                o.source.as_str(),
                o.nonce,
                o.receipt
            )
        })
        .collect();
    let post = Post {
        title: format!(
            "Race {race}, turn {}: {}{}",
            h.number,
            escape_markdown(&h.label),
            if h.late { " (resolved late)" } else { "" }
        ),
        // Narration is the game's sentences around names: escaped as a post's is.
        body: h
            .narration
            .iter()
            .map(|n| escape_markdown(n))
            .collect::<Vec<_>>()
            .join("\n"),
        track: past.view.as_ref().map(track_text),
        fields: vec![("Orders and receipts".into(), orders.join("\n"))],
        footer: None,
        choices: vec![],
        view: None,
        picture: Picture::None,
    };
    let mut l = Layout {
        embeds: layout::embeds(&post, None),
        ..Layout::default()
    };
    if let Some(view) = past.view {
        // Drawing is CPU work: off the async workers. A picture that fails costs nothing
        // but itself: the text standings stay.
        let drawn = tokio::task::spawn_blocking(move || draw_picture(Picture::Track, &view)).await;
        match drawn {
            Ok(Ok((png, alt))) if png.len() <= limits::UPLOAD_BYTES => {
                let name = format!("race-{}-turn-{:02}.png", race.0, h.number);
                layout::attach_picture(&mut l, name, png, &alt);
            }
            Ok(Ok(_)) => tracing::warn!(race = race.0, "history picture over the upload limit"),
            Ok(Err(e)) => tracing::warn!(race = race.0, "history picture not drawn: {e}"),
            Err(e) => tracing::warn!(race = race.0, "history picture task failed: {e}"),
        }
    }
    l
}

/// After the end: the revealed seed, and the check of every roll and receipt against it.
#[poise::command(slash_command)]
pub(super) async fn verify(
    ctx: Ctx<'_>,
    #[description = "A race number of this server (default: this channel's race)"]
    #[min = 1]
    race: Option<i64>,
) -> Result<(), Error> {
    let shared = ctx.data().clone();
    // Replaying a whole race may take a moment: defer straight away.
    ctx.defer_ephemeral().await?;
    let layout = match pick(ctx, race).await {
        Ok(race) => match shared.referee.verify(race).await {
            Ok(r) => {
                let mut text = format!(
                    "Seed `{}`\nCommitment `{}` {}\n{} steps and {} events replayed from the seed; {} receipts checked.",
                    r.seed,
                    r.commitment,
                    if r.commitment_matches {
                        "matches the seed's SHA-256"
                    } else {
                        "DOES NOT match the seed"
                    },
                    r.steps_checked,
                    r.events_checked,
                    r.receipts_checked
                );
                for p in r.problems.iter().take(10) {
                    text.push_str(&format!("\nProblem: {}", escape_markdown(p)));
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
    send_answer(ctx, &layout, true).await
}

/// A race that is over, as one JSON file to check anywhere.
///
/// The format is docs/export.md; `photofinish verify --file` checks it.
#[poise::command(slash_command)]
pub(super) async fn export(
    ctx: Ctx<'_>,
    #[description = "A race number of this server (default: this channel's race)"]
    #[min = 1]
    race: Option<i64>,
) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    answer(ctx, true, async move {
        let id = match pick(ctx, race).await {
            Ok(r) => r,
            Err(e) => return refusal(&e),
        };
        let export = match referee.export(id).await {
            Ok(x) => x,
            Err(e) => return refusal(&e),
        };
        let bytes = match serde_json::to_vec_pretty(&export) {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(race = id.0, "export not written: {e}");
                return note("Not done", "Something went wrong on our side.");
            }
        };
        if bytes.len() > limits::UPLOAD_BYTES {
            return note(
                "Not done",
                &format!(
                    "Race {id}'s export is {} MB, more than Discord takes; the bot's operator can run photofinish export {}.",
                    bytes.len() / (1024 * 1024),
                    id.0
                ),
            );
        }
        let mut l = note(
            &format!("Race {id} exported"),
            &format!(
                "{} race of {} seats, {} steps. Check it anywhere with `photofinish verify --file race-{}.json`.",
                export.game,
                export.seats.len(),
                export.steps.len(),
                id.0
            ),
        );
        l.files.push(layout::FileSpec {
            name: format!("race-{}.json", id.0),
            bytes,
            description: Some(format!("Race {id} as JSON (photofinish-race, version {})", export.version)),
        });
        l
    })
    .await
}

/// The most entrants a leaderboard shows.
const LEADERBOARD: usize = 15;

/// This server's best ratings in one game, with their races (bots marked):
/// `/race archive game:`.
async fn leaderboard(ctx: Ctx<'_>, game: String) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let guild = ctx.guild_id().map(|g| g.get().to_string());
    answer(ctx, true, async move {
        let Some(guild) = guild else {
            return note(
                "Not done",
                "Ratings are kept per server: use /race archive game: in one of its channels.",
            );
        };
        let Some(kind) = GameKind::from_slug(&game) else {
            return note(
                "Not done",
                "I don't know that game; /race help lists the games.",
            );
        };
        match referee.ratings(&guild, kind).await {
            Ok(table) => leaderboard_layout(kind, &table),
            Err(e) => refusal(&e),
        }
    })
    .await
}

fn leaderboard_layout(kind: GameKind, table: &[Rating]) -> Layout {
    let title = format!("{kind}: ratings on this server");
    if table.is_empty() {
        return note(
            &title,
            "No race of this game has finished on this server yet.",
        );
    }
    let mut lines: Vec<String> = table
        .iter()
        .take(LEADERBOARD)
        .enumerate()
        .map(|(i, r)| {
            format!(
                "{}. **{}**{} {:.1} ({} race{}, {} win{})",
                i + 1,
                escape_markdown(&r.name),
                if r.bot { " (bot)" } else { "" },
                r.shown(),
                r.races,
                if r.races == 1 { "" } else { "s" },
                r.wins,
                if r.wins == 1 { "" } else { "s" },
            )
        })
        .collect();
    lines.push(
        "Weng-Lin (OpenSkill) over every finished race, oldest first; shown is mu - 3 sigma, so it grows with races played.".into(),
    );
    note(&title, &lines.join("\n"))
}
