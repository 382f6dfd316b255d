//! Autocomplete for `/race` options with a finite answer. The choices are built by pure
//! functions (tested here); the async wrappers only find the caller's race and seat, with
//! reads only (a few, and given up past [`ACK_GRACE`]): an autocomplete writes nothing.
//! Nothing of another seat's hand is offered: `/race order` completes from the caller's
//! own open prompt, and offers nothing when they owe no order. Race numbers (`race:`)
//! are this server's races only, from the archive's listing.
//!
//! It also owns the closed sets offered as Discord choices rather than free text: the
//! game ([`GameChoice`]) and the bot level ([`LevelChoice`]).

use poise::serenity_prelude as serenity;

use super::super::reply::ACK_GRACE;
use super::super::shared::Ctx;
use super::common::race_here_or_last;
use super::common::{race_here, user_of};
use crate::engine::{Choice, OptionDoc};
use crate::referee::archive::ArchiveEntry;
use crate::vocab::{CampaignId, Phase};

/// Discord's limits on an autocomplete answer: choices, and a choice's name and value.
pub const MAX_CHOICES: usize = 25;
pub const MAX_NAME: usize = 100;

/// The shown name of a prompt choice: its label, and its order text when that differs.
fn choice_name(c: &Choice) -> String {
    let label = c.label.trim();
    let name = if label.is_empty() || label == c.order {
        c.order.clone()
    } else {
        format!("{label} ({})", c.order)
    };
    super::super::layout::clip(&name, MAX_NAME)
}

/// The (name, value) pairs offered for `/race order text:` from a prompt's choices: those
/// whose label or order contains `partial` (any case), each once, at most 25. The value is
/// the order text, which the referee reads back.
pub fn order_choices(choices: &[Choice], partial: &str) -> Vec<(String, String)> {
    let p = partial.trim().to_lowercase();
    let mut seen = std::collections::HashSet::new();
    choices
        .iter()
        .filter(|c| c.order.chars().count() <= MAX_NAME)
        .filter(|c| c.order.to_lowercase().contains(&p) || c.label.to_lowercase().contains(&p))
        .filter(|c| seen.insert(c.order.clone()))
        .take(MAX_CHOICES)
        .map(|c| (choice_name(c), c.order.clone()))
        .collect()
}

/// The order a typed text stands for: a choice's label (or its shown name), typed back,
/// stands for that choice's order; any other text is the order as typed.
pub fn order_for_text(choices: &[Choice], text: &str) -> String {
    let t = text.trim();
    if choices.iter().any(|c| c.order == t) {
        return t.to_string();
    }
    let mut found = choices.iter().filter(|c| {
        c.label.trim().eq_ignore_ascii_case(t) || choice_name(c).eq_ignore_ascii_case(t)
    });
    match (found.next(), found.next()) {
        (Some(c), None) => c.order.clone(),
        // No label, or a label shared by two choices: the text as typed.
        _ => t.to_string(),
    }
}

/// Seat names for `/race replace seat:`: those containing `partial` (any case), at most 25.
pub fn seat_choices(names: &[String], partial: &str) -> Vec<(String, String)> {
    let p = partial.trim().to_lowercase();
    names
        .iter()
        .filter(|n| n.chars().count() <= MAX_NAME && n.to_lowercase().contains(&p))
        .take(MAX_CHOICES)
        .map(|n| (n.clone(), n.clone()))
        .collect()
}

/// Past turns for `/race history turn:`, newest first: those whose number starts with
/// what was typed, each named with its label. `turns` is (number, label), oldest first.
pub fn turn_choices(turns: &[(u32, String)], partial: &str) -> Vec<(String, u32)> {
    let p = partial.trim();
    turns
        .iter()
        .rev()
        .filter(|(n, _)| n.to_string().starts_with(p))
        .take(MAX_CHOICES)
        .map(|(n, label)| {
            (
                super::super::layout::clip(&format!("{n}: {label}"), MAX_NAME),
                *n,
            )
        })
        .collect()
}

/// The turns worth labelling for a race of `played` past turns: the newest 25 whose
/// number starts with what was typed (labels cost a read each).
pub fn turn_numbers(played: u32, partial: &str) -> Vec<u32> {
    let p = partial.trim();
    let mut out: Vec<u32> = (1..=played)
        .rev()
        .filter(|n| n.to_string().starts_with(p))
        .take(MAX_CHOICES)
        .collect();
    out.reverse();
    out
}

/// A race's shown name for `race:`: `#12 · 1000 miles · 2026-11-20 · won by Alice`, the
/// date (UTC) its end's, or its start's while it runs; at most [`MAX_NAME`] characters.
pub fn race_label(e: &ArchiveEntry) -> String {
    let result = match e.phase {
        Phase::Finished => match e.winners.as_slice() {
            [] => "finished".to_string(),
            [one] => format!("won by {one}"),
            many => format!("tie between {}", many.join(", ")),
        },
        Phase::Cancelled => "cancelled".to_string(),
        Phase::Lobby => "in its lobby".to_string(),
        Phase::Running => "under way".to_string(),
        Phase::Paused => "paused".to_string(),
    };
    let at = e.ended_at.unwrap_or(e.created_at);
    let date = chrono::DateTime::from_timestamp_millis(at)
        .map(|d| d.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    let series = e
        .series
        .as_deref()
        .map(|n| format!(" · {n}"))
        .unwrap_or_default();
    let name = format!("{} · {} · {date} · {result}{series}", e.race, e.game);
    super::super::layout::clip(&name, MAX_NAME)
}

/// What was typed in `race:`, read as the start of a race's number (a leading `#` is
/// allowed); `None` when it is not a number.
fn typed_number(partial: &str) -> Option<&str> {
    let p = partial.trim();
    let p = p.strip_prefix('#').unwrap_or(p);
    (!p.is_empty() && p.chars().all(|c| c.is_ascii_digit())).then_some(p)
}

/// Races offered for `race:`, in the order given (newest first): those whose number starts
/// with what was typed, or whose label contains it (any case); at most 25.
pub fn race_choices(entries: &[ArchiveEntry], partial: &str) -> Vec<(String, i64)> {
    let number = typed_number(partial);
    let words = partial.trim().to_lowercase();
    entries
        .iter()
        .map(|e| (e, race_label(e)))
        .filter(|(e, label)| match number {
            Some(n) => e.race.0.to_string().starts_with(n),
            None => label.to_lowercase().contains(&words),
        })
        .take(MAX_CHOICES)
        .map(|(e, label)| (label, e.race.0))
        .collect()
}

/// `/race settings change:`: completes the last word typed to an option key, each named
/// with its help; the value keeps what was typed before it.
pub fn settings_choices(docs: &[OptionDoc], typed: &str) -> Vec<(String, String)> {
    let (before, last) = match typed.rfind(char::is_whitespace) {
        Some(i) => typed.split_at(i.saturating_add(1)),
        None => ("", typed),
    };
    if last.contains('=') {
        // A value is being typed: nothing to add but what is there.
        return Vec::new();
    }
    let p = last.to_lowercase().replace('_', "-");
    docs.iter()
        .filter(|d| d.key.replace('_', "-").starts_with(&p))
        .map(|d| {
            let name = super::super::layout::clip(&format!("{}= {}", d.key, d.help), MAX_NAME);
            (name, format!("{before}{}=", d.key))
        })
        .filter(|(_, v)| v.chars().count() <= MAX_NAME)
        .take(MAX_CHOICES)
        .collect()
}

/// The `backticked` phrases of a help text, without placeholders (`<racer>`).
pub fn quoted(help: &str) -> Vec<String> {
    help.split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| !q.trim().is_empty() && !q.contains('<'))
        .map(|q| q.trim().to_string())
        .collect()
}

/// Candidates for a pre-race choice, before the game checks each: the phrases its help
/// texts quote, then the small numbers. The game, not this module, says which are legal.
pub fn seat_choice_candidates(helps: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = helps.iter().flat_map(|h| quoted(h)).collect();
    out.extend((0..100u32).map(|n| n.to_string()));
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.clone()));
    out
}

/// Texts containing `partial` (any case), each its own name and value, at most 25.
pub fn text_choices(texts: &[String], partial: &str) -> Vec<(String, String)> {
    let p = partial.trim().to_lowercase();
    texts
        .iter()
        .filter(|t| t.chars().count() <= MAX_NAME && t.to_lowercase().contains(&p))
        .take(MAX_CHOICES)
        .map(|t| (t.clone(), t.clone()))
        .collect()
}

fn response(pairs: Vec<(String, String)>) -> serenity::CreateAutocompleteResponse {
    pairs
        .into_iter()
        .take(MAX_CHOICES)
        .fold(serenity::CreateAutocompleteResponse::new(), |r, (n, v)| {
            r.add_string_choice(n, v)
        })
}

/// An autocomplete cannot be deferred and Discord waits three seconds for its choices: a
/// read slower than [`ACK_GRACE`] offers none rather than leaving the user with an error.
async fn in_time(
    work: impl std::future::Future<Output = serenity::CreateAutocompleteResponse>,
) -> serenity::CreateAutocompleteResponse {
    tokio::time::timeout(ACK_GRACE, work)
        .await
        .unwrap_or_else(|_| serenity::CreateAutocompleteResponse::new())
}

/// `/race order text:`: the caller's own legal orders, only while they owe one.
pub(super) async fn autocomplete_order(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let Ok(race) = race_here(ctx).await else {
            return response(Vec::new());
        };
        match ctx.data().referee.open_prompt(race, &user_of(ctx)).await {
            Ok(open) => response(order_choices(&open.prompt.choices, partial)),
            Err(_) => response(Vec::new()),
        }
    })
    .await
}

/// `/race replace seat:`: the race's seats by runner name.
pub(super) async fn autocomplete_seat(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let Ok(race) = race_here(ctx).await else {
            return response(Vec::new());
        };
        match ctx.data().referee.overview(race).await {
            Ok(o) => {
                let names: Vec<String> = o.seats.into_iter().map(|s| s.name).collect();
                response(seat_choices(&names, partial))
            }
            Err(_) => response(Vec::new()),
        }
    })
    .await
}

/// `/race history turn:`: the past turns, newest first, with their labels.
pub(super) async fn autocomplete_turn(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let referee = &ctx.data().referee;
        let Ok(race) = race_here_or_last(ctx).await else {
            return response(Vec::new());
        };
        let played = match referee.store().load(race).await {
            Ok(Some(l)) => l.campaign.step,
            _ => 0,
        };
        let mut turns = Vec::new();
        for n in turn_numbers(played, partial) {
            if let Ok(h) = referee.history(race, n).await {
                turns.push((n, h.label));
            }
        }
        turn_choices(&turns, partial).into_iter().fold(
            serenity::CreateAutocompleteResponse::new(),
            |r, (name, n)| r.add_int_choice(name, i64::from(n)),
        )
    })
    .await
}

/// Archive pages read for `race:` before answering (15 races each): Discord waits three
/// seconds for choices. A number typed is also looked up directly (see below).
const RACE_PAGES: usize = 4;

/// `race:` (`/race history`, `verify`, `export`, and `/race archive before:`): this
/// server's races, newest first, from the archive's listing; outside a server, none.
pub(super) async fn autocomplete_race(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let Some(guild) = ctx.guild_id().map(|g| g.get().to_string()) else {
            return serenity::CreateAutocompleteResponse::new();
        };
        let referee = &ctx.data().referee;
        let mut entries: Vec<ArchiveEntry> = Vec::new();
        let mut before = None;
        for _ in 0..RACE_PAGES {
            let Ok(page) = referee.archive(&guild, before).await else {
                break;
            };
            let Some(last) = page.last() else {
                break;
            };
            before = Some(last.race);
            entries.extend(page);
            if race_choices(&entries, partial).len() >= MAX_CHOICES {
                break;
            }
        }
        // An older race typed by its whole number: the archive's page just before it starts
        // with it, if it is this server's.
        if let Some(n) = typed_number(partial).and_then(|n| n.parse::<i64>().ok())
            && !entries.iter().any(|e| e.race.0 == n)
            && let Ok(page) = referee
                .archive(&guild, Some(CampaignId(n.saturating_add(1))))
                .await
            && let Some(first) = page.into_iter().next()
            && first.race.0 == n
        {
            entries.push(first);
        }
        race_choices(&entries, partial).into_iter().fold(
            serenity::CreateAutocompleteResponse::new(),
            |r, (name, n)| r.add_int_choice(name, n),
        )
    })
    .await
}

/// The referee's own timing keys that every game takes (src/referee/timing.rs).
const TIMING_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "turn",
        help: "How long a turn lasts, e.g. 24h or 90m",
    },
    OptionDoc {
        key: "reminders",
        help: "Reminders before the deadline, e.g. 12h,1h (none for none)",
    },
    OptionDoc {
        key: "resolve",
        help: "early (when every order is in) or deadline",
    },
    OptionDoc {
        key: "zone",
        help: "The time zone deadlines are read and shown in, e.g. Europe/Paris",
    },
    OptionDoc {
        key: "days",
        help: "Days deadlines may fall on, e.g. mon-fri",
    },
    OptionDoc {
        key: "quiet-cap",
        help: "The most quiet hours may move a deadline, e.g. 12h",
    },
    OptionDoc {
        key: "nudge",
        help: "Name who still owes an order this long before the deadline, e.g. 6h",
    },
    OptionDoc {
        key: "clock",
        help: "A time bank per seat: bank+increment, e.g. 3d+12h (replaces turn)",
    },
    OptionDoc {
        key: "clock-cap",
        help: "The most a seat's bank can hold, e.g. 4d",
    },
    OptionDoc {
        key: "away-cap",
        help: "The most days of absence one seat may book in the race, e.g. 7",
    },
    OptionDoc {
        key: "grace",
        help: "How long a play is held, changeable, before it resolves, e.g. 2m (0: at once)",
    },
];

/// Aliases of the timing keys, which autocomplete does not offer.
#[cfg(test)]
const TIMING_ALIASES: &[&str] = &["turn-length", "deadline", "resolve-early", "timezone"];

/// `/race settings change:`: the timing keys and the race's game's option keys, with
/// their help.
pub(super) async fn autocomplete_settings(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let Ok(race) = race_here(ctx).await else {
            return response(Vec::new());
        };
        match ctx.data().referee.overview(race).await {
            Ok(o) => {
                let docs: Vec<OptionDoc> = TIMING_DOCS
                    .iter()
                    .chain(o.kind.option_docs())
                    .copied()
                    .collect();
                response(settings_choices(&docs, partial))
            }
            Err(_) => response(Vec::new()),
        }
    })
    .await
}

/// `/race join choice:`: the pre-race choices the race's game accepts with its options.
pub(super) async fn autocomplete_seat_choice(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let Ok(race) = race_here(ctx).await else {
            return response(Vec::new());
        };
        let Ok(Some(l)) = ctx.data().referee.store().load(race).await else {
            return response(Vec::new());
        };
        let kind = l.campaign.kind;
        let Some(help) = kind.seat_choice_help() else {
            return response(Vec::new());
        };
        let pref = kind.preference_help().unwrap_or_default();
        let legal: Vec<String> = seat_choice_candidates(&[help, pref])
            .into_iter()
            .filter(|c| kind.check_seat_choice(&l.campaign.options, c).is_ok())
            .collect();
        response(text_choices(&legal, partial))
    })
    .await
}

/// `/race preference text:`: the forms the race's game's preference help quotes.
pub(super) async fn autocomplete_preference(
    ctx: Ctx<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    in_time(async move {
        let Ok(race) = race_here(ctx).await else {
            return response(Vec::new());
        };
        match ctx.data().referee.overview(race).await {
            Ok(o) => {
                // Whole forms only: a help text also quotes single words (a rule's name) that
                // are parts of a form, not preferences of their own.
                let forms: Vec<String> = quoted(o.kind.preference_help().unwrap_or_default())
                    .into_iter()
                    .filter(|f| f.contains(' '))
                    .collect();
                response(text_choices(&forms, partial))
            }
            Err(_) => response(Vec::new()),
        }
    })
    .await
}

/// A closed set's value as Discord sent it: one of the choices the option was
/// registered with (the reading stays the command's, with its polite refusal).
fn closed_text(value: &serenity::ResolvedValue<'_>) -> Option<String> {
    match value {
        serenity::ResolvedValue::String(s) => Some((*s).to_string()),
        _ => None,
    }
}

fn not_a_choice() -> poise::SlashArgError {
    poise::SlashArgError::new_command_structure_mismatch("expected a string choice")
}

/// `/race new game:`: a choice of the games (value: the slug).
pub struct GameChoice(pub String);

/// The games as (title, slug) choices.
pub fn game_choices() -> Vec<(&'static str, &'static str)> {
    crate::games::GameKind::all()
        .map(|k| (k.title(), k.slug()))
        .collect()
}

#[poise::async_trait]
impl poise::SlashArgument for GameChoice {
    async fn extract(
        _: &serenity::Context,
        _: &serenity::CommandInteraction,
        value: &serenity::ResolvedValue<'_>,
    ) -> Result<Self, poise::SlashArgError> {
        closed_text(value).map(GameChoice).ok_or_else(not_a_choice)
    }

    fn create(builder: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
        game_choices().into_iter().fold(
            builder.kind(serenity::CommandOptionType::String),
            |b, (title, slug)| b.add_string_choice(title, slug),
        )
    }
}

/// `/race bots level:`: heuristic or random.
pub struct LevelChoice(pub String);

/// The bot levels as (name, value) choices.
pub const LEVEL_CHOICES: [(&str, &str); 2] = [
    ("heuristic (plays sensibly)", "heuristic"),
    ("random (any legal order)", "random"),
];

#[poise::async_trait]
impl poise::SlashArgument for LevelChoice {
    async fn extract(
        _: &serenity::Context,
        _: &serenity::CommandInteraction,
        value: &serenity::ResolvedValue<'_>,
    ) -> Result<Self, poise::SlashArgError> {
        closed_text(value).map(LevelChoice).ok_or_else(not_a_choice)
    }

    fn create(builder: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
        LEVEL_CHOICES.into_iter().fold(
            builder.kind(serenity::CommandOptionType::String),
            |b, (name, value)| b.add_string_choice(name, value),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(order: &str, label: &str) -> Choice {
        Choice::new(order, label)
    }

    fn race(n: i64, phase: Phase, winners: &[&str]) -> ArchiveEntry {
        ArchiveEntry {
            race: CampaignId(n),
            game: crate::games::GameKind::MilleBornes,
            phase,
            channel: "1".into(),
            created_at: 1_767_225_600_000,
            ended_at: None,
            winners: winners.iter().map(|w| (*w).to_string()).collect(),
            series: None,
        }
    }

    #[test]
    fn race_choices_by_number_prefix_or_label_within_limits() {
        let long = "A".repeat(120);
        let entries: Vec<ArchiveEntry> = (1..=40)
            .rev()
            .map(|n| match n {
                12 => race(n, Phase::Finished, &["Alice"]),
                13 => race(n, Phase::Finished, &[long.as_str()]),
                _ => race(n, Phase::Cancelled, &[]),
            })
            .collect();
        let all = race_choices(&entries, "");
        assert_eq!(all.len(), MAX_CHOICES);
        assert_eq!(all[0].1, 40);
        assert!(all.iter().all(|(name, _)| name.chars().count() <= MAX_NAME));
        assert_eq!(
            race_choices(&entries, "#12"),
            vec![(
                "#12 · 1000 miles · 2026-01-01 · won by Alice".to_string(),
                12
            )]
        );
        let ones: Vec<i64> = race_choices(&entries, "1")
            .into_iter()
            .map(|c| c.1)
            .collect();
        assert_eq!(ones, [19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 1]);
        assert_eq!(race_choices(&entries, "ALICE").len(), 1);
        assert!(race_choices(&entries, "41").is_empty());
    }

    #[test]
    fn order_choices_filter_dedupe_and_cap() {
        let choices = vec![
            choice("3", "Move 3"),
            choice("3", "Move 3 again"),
            choice("boost", ""),
        ];
        let all = order_choices(&choices, "");
        assert_eq!(
            all,
            vec![
                ("Move 3 (3)".to_string(), "3".to_string()),
                ("boost".to_string(), "boost".to_string())
            ]
        );
        assert_eq!(order_choices(&choices, "BOO").len(), 1);
        let many: Vec<Choice> = (0..40).map(|i| choice(&i.to_string(), "")).collect();
        assert_eq!(order_choices(&many, "").len(), MAX_CHOICES);
        let long = vec![choice(&"x".repeat(101), ""), choice("y", &"L".repeat(300))];
        let offered = order_choices(&long, "");
        assert_eq!(offered.len(), 1);
        assert!(offered.iter().all(|(n, _)| n.chars().count() <= MAX_NAME));
    }

    #[test]
    fn a_label_typed_back_is_its_order() {
        let choices = vec![
            choice("p1", "Pace"),
            choice("k", "Kick"),
            choice("k2", "Kick"),
        ];
        assert_eq!(order_for_text(&choices, "pace"), "p1");
        assert_eq!(order_for_text(&choices, "Pace (p1)"), "p1");
        assert_eq!(order_for_text(&choices, "k"), "k");
        assert_eq!(order_for_text(&choices, "Kick"), "Kick");
        assert_eq!(order_for_text(&choices, "7"), "7");
    }

    #[test]
    fn seats_turns_and_settings() {
        let names = vec!["Alice".to_string(), "Bob".to_string(), "Bot 1".to_string()];
        assert_eq!(seat_choices(&names, "bo").len(), 2);
        assert_eq!(seat_choices(&names, "").len(), 3);

        assert_eq!(
            turn_numbers(30, "1"),
            vec![1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
        );
        assert_eq!(turn_numbers(40, "").len(), MAX_CHOICES);
        assert_eq!(turn_numbers(40, "")[0], 16);
        assert!(turn_numbers(0, "").is_empty());
        let turns = vec![
            (1, "Turn 1 of 8".to_string()),
            (2, "Turn 2 of 8".to_string()),
        ];
        assert_eq!(
            turn_choices(&turns, ""),
            vec![
                ("2: Turn 2 of 8".to_string(), 2),
                ("1: Turn 1 of 8".to_string(), 1)
            ]
        );

        let docs = [
            OptionDoc {
                key: "turn",
                help: "How long a turn lasts",
            },
            OptionDoc {
                key: "reminders",
                help: "When to remind",
            },
        ];
        assert_eq!(
            settings_choices(&docs, "turn=12h re"),
            vec![(
                "reminders= When to remind".to_string(),
                "turn=12h reminders=".to_string()
            )]
        );
        assert_eq!(settings_choices(&docs, "").len(), 2);
        assert!(settings_choices(&docs, "turn=1").is_empty());
    }

    #[test]
    fn quoted_forms_and_seat_choice_candidates() {
        let help = "`a b` (default) or `c`; `flipflop <racer>` also";
        assert_eq!(quoted(help), vec!["a b".to_string(), "c".to_string()]);
        let c = seat_choice_candidates(&["`x`", "`x` `y`"]);
        assert_eq!(
            &c[..3],
            &["x".to_string(), "y".to_string(), "0".to_string()]
        );
        assert_eq!(c.len(), 102);
        let texts = vec!["counter auto".to_string(), "counter ask".to_string()];
        assert_eq!(text_choices(&texts, "AS").len(), 1);
    }

    #[test]
    fn closed_sets_are_within_discords_limits_and_read_back() {
        let games = game_choices();
        assert!(!games.is_empty() && games.len() <= MAX_CHOICES);
        for (title, slug) in games {
            assert!(title.chars().count() <= MAX_NAME && slug.chars().count() <= MAX_NAME);
            assert!(crate::games::GameKind::from_slug(slug).is_some(), "{slug}");
        }
        for (_, value) in LEVEL_CHOICES {
            assert!(crate::engine::BotLevel::parse(value).is_some(), "{value}");
        }
    }

    #[test]
    fn every_timing_key_is_offered() {
        for key in crate::referee::timing::KEYS {
            assert!(
                super::TIMING_DOCS.iter().any(|d| d.key == *key)
                    || super::TIMING_ALIASES.contains(key),
                "{key} is not offered by /race settings autocomplete"
            );
        }
    }
}
