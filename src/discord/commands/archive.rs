//! Races after their end: `/race archive` (the server's races), and
//! `history`, `verify` and `export`, which take any race number of this server (`race:`)
//! and otherwise this channel's race or its last one. Another server's race is refused in
//! one sentence. `/race archive` also carries what Discord's 25 subcommands leave no room
//! for: `game:` (that game's leaderboard, `referee::ratings`), `player:` (one player's
//! statistics, `referee::stats`), `hide:` (hide one's own), `series:` (a series'
//! standings, `referee::series`). Answers are ephemeral.
//!
//! The Rematch button on a final post is here too ([`rematch_pressed`]).

use poise::serenity_prelude as serenity;

use super::super::dress;
use super::super::final_post::{plural, series_text};
use super::super::layout::{self, Layout, limits};
use super::super::reply::{note, refusal};
use super::super::shared::{Ctx, Error, Shared};
use super::common::{answer, autocomplete_game, race_here_or_last, send_answer, user_of};
use crate::games::GameKind;
use crate::games::words::ordinal;
use crate::referee::archive::{ARCHIVE_PAGE, ArchiveEntry, PastTurn};
use crate::referee::ratings::Rating;
use crate::referee::series::Rematch;
use crate::referee::stats::PlayerStats;
use crate::referee::when::format_duration;
use crate::referee::work::short_receipt;
use crate::referee::{Actor, RefereeError};
use crate::render::message::{Picture, Post};
use crate::render::post::draw_picture;
use crate::render::{code_text, escape_markdown, track_text};
use crate::vocab::{CampaignId, Phase, UserId};

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

// One subcommand for the archive, the leaderboard, statistics and series: Discord allows
// 25 under `/race`, and they are all there.
/// This server's races, newest first; or a leaderboard, a player's statistics, a series.
#[poise::command(slash_command)]
pub(super) async fn archive(
    ctx: Ctx<'_>,
    #[description = "Show races older than this race number"]
    #[min = 1]
    #[autocomplete = "super::complete::autocomplete_race"]
    before: Option<i64>,
    #[description = "A game: show its leaderboard on this server instead"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
    #[description = "A player: show their statistics on this server instead"] player: Option<
        serenity::User,
    >,
    #[description = "A series of this channel: show its standings instead"] series: Option<String>,
    #[description = "True: hide your statistics from others; False: show them again"] hide: Option<
        bool,
    >,
) -> Result<(), Error> {
    if let Some(hide) = hide {
        return hide_stats(ctx, hide).await;
    }
    if let Some(player) = player {
        return stats(ctx, player).await;
    }
    if let Some(series) = series {
        return series_standings(ctx, series).await;
    }
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
    let series = e
        .series
        .as_deref()
        .map(|n| format!(" · {}", escape_markdown(n)))
        .unwrap_or_default();
    format!(
        "Race {} · {} · <t:{at}:d> · {result} · {channel}{series}",
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
    #[autocomplete = "super::complete::autocomplete_race"]
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
                short_receipt(&o.receipt)
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
    #[autocomplete = "super::complete::autocomplete_race"]
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
                text.push_str(&format!(
                    "\nProof `{}`: the final post shows the same.",
                    r.proof
                ));
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
    #[autocomplete = "super::complete::autocomplete_race"]
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
            Ok(table) => {
                // Only the lines shown are asked about.
                let mut hidden = Vec::new();
                for r in table.iter().take(LEADERBOARD) {
                    let user = r.key.strip_prefix("user:").map(UserId::new);
                    let hides = match user {
                        Some(u) => referee.stats_hidden(&u).await.unwrap_or(true),
                        None => false,
                    };
                    hidden.push(hides);
                }
                leaderboard_layout(kind, &table, &hidden)
            }
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// The leaderboard; a player who hides their statistics keeps their place, without their
/// name or numbers (`hidden`, by line).
fn leaderboard_layout(kind: GameKind, table: &[Rating], hidden: &[bool]) -> Layout {
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
            if hidden.get(i).copied().unwrap_or(false) {
                return format!("{}. *a player who hides their statistics*", i + 1);
            }
            format!(
                "{}. **{}**{} {:.1} ({}, {})",
                i + 1,
                escape_markdown(&r.name),
                if r.bot { " (bot)" } else { "" },
                r.shown(),
                plural(r.races, "race"),
                plural(r.wins, "win"),
            )
        })
        .collect();
    lines.push(
        "Weng-Lin (OpenSkill) over every finished race, oldest first; shown is mu - 3 sigma, so it grows with races played.".into(),
    );
    note(&title, &lines.join("\n"))
}

/// `1 race`, `2 races`.
/// `/race archive hide:`: the caller's own statistics, hidden from others or shown again.
async fn hide_stats(ctx: Ctx<'_>, hide: bool) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let user = user_of(ctx);
    answer(ctx, true, async move {
        match referee.set_stats_hidden(&user, hide).await {
            Ok(()) if hide => note(
                "Statistics hidden",
                "Your statistics are now hidden from others: /race archive player: refuses them, and leaderboards show your place without your name or numbers. You still see them; /race archive hide:False shows them again.",
            ),
            Ok(()) => note(
                "Statistics shown",
                "Your statistics are shown to others again, and your name is back on the leaderboards.",
            ),
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// `/race archive player:`: a player's statistics on this server, per game.
async fn stats(ctx: Ctx<'_>, player: serenity::User) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let guild = ctx.guild_id().map(|g| g.get().to_string());
    let asker = user_of(ctx);
    answer(ctx, true, async move {
        let Some(guild) = guild else {
            return note(
                "Not done",
                "Statistics are kept per server: use /race archive player: in one of its channels.",
            );
        };
        let user = UserId::new(player.id.get().to_string());
        let shown_name = player
            .global_name
            .clone()
            .unwrap_or_else(|| player.name.clone());
        match referee.player_stats(&guild, &user, &asker).await {
            Ok(s) => stats_layout(&shown_name, &s, user == asker),
            Err(e) => refusal(&e),
        }
    })
    .await
}

fn stats_layout(name: &str, s: &PlayerStats, own: bool) -> Layout {
    let name = escape_markdown(name);
    let title = format!("{name} on this server");
    let mut lines: Vec<String> = s
        .games
        .iter()
        .map(|g| {
            let mut line = format!(
                "**{}**: {}, {}, {}, average place {:.1}",
                g.game,
                plural(g.races, "race"),
                plural(g.wins, "win"),
                plural(g.podiums, "podium"),
                g.average_place
            );
            if let (Some(r), Some(at)) = (g.rating, g.rank) {
                line.push_str(&format!(
                    ", rating {r:.1} ({} on the leaderboard)",
                    ordinal(u32::try_from(at).unwrap_or(u32::MAX))
                ));
            }
            line.push_str(&format!(", missed orders {} of {}", g.missed, g.orders));
            if let Some(ms) = g.median_answer_ms {
                line.push_str(&format!(
                    ", median answer {}",
                    format_duration(u64::try_from(ms / 1000).unwrap_or(0))
                ));
            }
            line
        })
        .collect();
    if lines.is_empty() {
        lines.push(format!(
            "{name} has not finished a race on this server yet."
        ));
    }
    if own && s.hidden {
        lines.push(
            "Your statistics are hidden from others; /race archive hide:False shows them.".into(),
        );
    }
    note(&title, &lines.join("\n"))
}

/// `/race archive series:`: a series of this channel, its standings.
async fn series_standings(ctx: Ctx<'_>, name: String) -> Result<(), Error> {
    let referee = ctx.data().referee.clone();
    let channel = ctx.channel_id().get().to_string();
    answer(ctx, true, async move {
        match referee.series_table(&channel, &name).await {
            Ok(t) => {
                let (title, text) = series_text(&t);
                let mut text = text;
                let races: Vec<String> = t.races.iter().map(ToString::to_string).collect();
                text.push_str(&format!("\nIts races: {}.", races.join(", ")));
                note(&title, &text)
            }
            Err(e) => refusal(&e),
        }
    })
    .await
}

/// The Rematch button on a final post: a new lobby in the same channel (see
/// `Referee::rematch`); the players not yet seated are invited in the channel, by
/// mention. Returns the presser's own (ephemeral) answer.
pub async fn rematch_pressed(
    shared: &Shared,
    http: &serenity::Http,
    actor: &Actor,
    race: CampaignId,
    channel: serenity::ChannelId,
) -> Layout {
    let opened = match shared.referee.rematch(race, actor).await {
        Ok(o) => o,
        Err(e) => return refusal(&e),
    };
    shared.poke();
    let (new, invited, bots, series) = match opened {
        Rematch::Already(new) => {
            return note(
                "Rematch",
                &format!(
                    "Race {race}'s rematch is already open: race {new}. Press Join on its lobby to take your seat."
                ),
            );
        }
        Rematch::Opened {
            race: new,
            invited,
            bots,
            series,
        } => (new, invited, bots, series),
    };
    let in_series = series
        .as_deref()
        .map(|n| format!(", in the series **{}**", escape_markdown(n)))
        .unwrap_or_default();
    if !invited.is_empty() {
        let mentions: Vec<String> = invited.iter().map(|u| format!("<@{}>", u.0)).collect();
        let bots_text = if bots.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = bots.iter().map(|b| escape_markdown(b)).collect();
            format!(" The bots are back: {}.", names.join(", "))
        };
        let mut invite = note(
            &format!("Rematch of race {race}"),
            &format!(
                "Race {new} is open here with the same game and options{in_series}, hosted by {}. Press **Join** on its lobby to take your seat again.{bots_text}",
                escape_markdown(&actor.name)
            ),
        );
        invite.content = Some(mentions.join(" "));
        invite.ping = Some(
            invited
                .iter()
                .map(|u| u.0.clone())
                .collect::<Vec<_>>()
                .join(","),
        );
        if let Err(e) = channel
            .send_message(http, dress::create_message(&invite))
            .await
        {
            // The lobby itself is in the outbox and will be posted; only the mentions are lost.
            tracing::warn!(race = new.0, "the rematch's invitation was not posted: {e}");
        }
    }
    note(
        "Rematch opened",
        &format!(
            "Race {new} is open here with race {race}'s game and options{in_series}. You have your seat back and host it: /race start when everyone is in."
        ),
    )
}
