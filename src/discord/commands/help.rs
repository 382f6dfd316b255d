//! `/race help`: the commands, then each game's rules and options.

use super::super::layout::{self, Layout};
use super::super::shared::{Ctx, Error};
use super::common::{answer, autocomplete_game};
use crate::games::GameKind;

/// How to play: the commands, and a game's rules and options.
#[poise::command(slash_command)]
pub(super) async fn help(
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
`/race new game options thread length` open a lobby here (you become the host); `length` is `round` (one round of 1000 miles or 1000 Yards), `race` (one race of Magical Athlete) or `game` (the whole game); the lobby shows its expected duration at the usual pace for the seats taken (docs/pace.md)
`/race join name choice` / `/race leave` take or give up a seat (or use the lobby's buttons)
`/race start` begin (host)
Orders come by DM: press a button or reply with the order as text (`7`; `#12 7` if you are in several races). Change it until the turn resolves; each order gets a receipt: the SHA-256 of the race, turn, seat, order and a secret nonce (you see its first 10 digits), so nobody can change your order unseen; the nonces are revealed at the end and `/race verify` checks every receipt.
Grace window: an order that would resolve the turn (your play in 1000 miles, 1000 Yards and Magical Athlete; the last order in Dream Mile and 1500m) is held 2 minutes first (option `grace=`, `grace=0` for at once): change it, or take it back with `undo`. The games played in turns post once per round.
`/race order text` order here instead, seen only by you (if your DMs are closed)
`/race status` standings and track; `/race orders` who has ordered (never what)
`/race deadline set extend` show or move the deadline (host)
`/race pause` / `/race pause resume:True` stop and restart the clock (host)
`/race series new name races points` open a series here (races join with `/race new series:`); `/race series standings name` its table
`/race bots` `/race replace` (an offer the member accepts) `/race kick` `/race settings` `/race cancel` (host)
`/race history turn race` an earlier turn, drawn; `/race verify race` check the dice after the end; `/race export race` the race as a file; `/race archive` this server's races; `/race archive game` its ratings
`/race autopilot setting` who decides for your seat: `ask` (every decision asked), `auto` (default: orders with one legal choice, and the game's obvious ones, are played for you and your DM says what), `bot` (the bot plays, you watch); also the prompt's button
`/race away until days` be away: in all your races, forced and obvious orders by autopilot, the rest by the bot, at once; each channel is told; `/race back` ends it
`/race me timezone quiet` your time zone and quiet hours; `/photofinish config timezone` the server's time zone (Manage Server)
Standing plays and preferences: DM them as text (`standing remedy, attack, distance`, `dirty-trick ask`, or `pref` and any form `/race preference` takes); `standing` alone shows yours, DM `help` lists every rule
Host commands: the race's host, or anyone with Manage Server.";
    let one = game.and_then(GameKind::from_slug);
    let mut post = crate::render::message::Post {
        title: "How to race".into(),
        body: commands.into(),
        track: None,
        fields: Vec::new(),
        footer: None,
        choices: vec![],
        view: None,
        picture: crate::render::message::Picture::None,
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
                    "{}\nRules and options: `/race help game:{}`; how to play: docs/games/{}.md",
                    layout::clip(&first, 300),
                    k.slug(),
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
        text.push_str(&format!(
            "\nHow to play, with an example: docs/games/{}.md",
            k.slug()
        ));
        text.push_str(&format!(
            "\nLengths (`/race new length:`): {}.",
            crate::games::length::offered(k)
        ));
        if let Some(choice) = k.seat_choice_help() {
            let menu = if k.seat_choice_menu(&k.default_options()).is_empty() {
                ""
            } else {
                ", or a menu after Join"
            };
            text.push_str(&format!(
                "\nBefore the start (`/race join choice:`{menu}): {choice}."
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
    if let Some(glossary) = k.glossary() {
        // A glossary in full (Magical Athlete's every racer's power): with the commands too
        // it would pass an embed's 6,000 characters, so the page points to them instead.
        post.body = "Commands: `/race help` without a game.".into();
        let lines: Vec<String> = glossary
            .entries
            .iter()
            .map(|(term, text)| format!("• {term}: {text}"))
            .collect();
        post.fields.push((glossary.title.into(), lines.join("\n")));
    }
    Layout {
        embeds: layout::embeds(&post, None),
        ..Layout::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_text(l: &Layout) -> String {
        l.embeds
            .iter()
            .flat_map(|e| {
                std::iter::once(e.description.clone())
                    .chain(e.fields.iter().map(|(n, v)| format!("{n} {v}")))
            })
            .collect()
    }

    #[test]
    fn help_describes_lengths_standing_plays_by_dm_and_each_games_presets() {
        let t = all_text(&help_layout(None));
        for want in [
            "length",
            "`round`",
            "`standing`",
            "`help`",
            "expected duration",
        ] {
            assert!(t.contains(want), "{want}: {t}");
        }
        let t = all_text(&help_layout(Some("magical-athlete")));
        assert!(
            t.contains("`race` (one race) or `game` (the four-race game)"),
            "{t}"
        );
        let t = all_text(&help_layout(Some("dream-mile")));
        assert!(t.contains("a menu after Join"), "{t}");
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
                l.embeds.iter().map(layout::EmbedSpec::size).sum::<usize>()
                    <= layout::limits::EMBED_TOTAL
            );
        }
    }

    #[test]
    fn magical_athlete_s_help_lists_every_racer_with_its_printed_power() {
        use crate::games::magical_athlete::racers::ALL;
        let l = help_layout(Some("magical-athlete"));
        let t = all_text(&l);
        for k in ALL {
            assert!(
                t.contains(&format!("{}: {}", k.name(), k.power_text())),
                "{}: {t}",
                k.name()
            );
        }
        // Where the commands went.
        assert!(t.contains("`/race help`"), "{t}");
        assert!(!t.contains("cut to fit"), "{t}");
        assert!(
            l.embeds.iter().map(layout::EmbedSpec::size).sum::<usize>()
                <= layout::limits::EMBED_TOTAL
        );
        assert!(
            l.embeds
                .iter()
                .all(|e| e.fields.len() <= layout::limits::FIELDS)
        );
    }

    #[test]
    fn help_names_coming_back_and_the_server_settings() {
        let l = help_layout(None);
        let text: String = l.embeds.iter().map(|e| e.description.clone()).collect();
        for command in ["`/race back`", "`/race me ", "`/photofinish config "] {
            assert!(text.contains(command), "{command} in {text}");
        }
        assert!(!text.contains("/race config"), "{text}");
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
        assert!(
            l.embeds.iter().map(layout::EmbedSpec::size).sum::<usize>()
                <= layout::limits::EMBED_TOTAL
        );
    }
}
