//! A race's length: each game's length presets (`/race new length:`, `play --length`), the
//! options each stands for, and the expected duration at the usual pace for each preset
//! and seat count, copied from docs/pace.md's tables (a test keeps the two equal).

use serde_json::Value;
use thiserror::Error;

use super::GameKind;
use super::words::bounded;

/// One length a game offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Length {
    pub kind: GameKind,
    /// What a host types or picks: `round`, `race` or `game`.
    pub slug: &'static str,
    /// Other words read as this length (a one-length game is also `game`).
    pub aliases: &'static [&'static str],
    /// Its name in words, as docs/pace.md heads its table.
    pub name: &'static str,
    /// Its options over the kind's defaults (`key=value` text; empty: the defaults).
    pub options: &'static str,
    /// The game's shortest length (the one that must fit in a week).
    pub shortest: bool,
}

/// Every game's lengths, the default (empty options) among them.
pub const LENGTHS: &[Length] = &[
    Length {
        kind: GameKind::DreamMile,
        slug: "race",
        aliases: &["game"],
        name: "the race",
        options: "",
        shortest: true,
    },
    Length {
        kind: GameKind::MilleBornes,
        slug: "round",
        aliases: &["hand"],
        name: "one round",
        options: "rounds=1 target-score=0",
        shortest: true,
    },
    Length {
        kind: GameKind::MilleBornes,
        slug: "game",
        aliases: &["full"],
        name: "the full game (to 5000 points)",
        options: "",
        shortest: false,
    },
    Length {
        kind: GameKind::ThousandYards,
        slug: "round",
        aliases: &["race", "hand"],
        name: "one round (the rulebook's game)",
        options: "",
        shortest: true,
    },
    Length {
        kind: GameKind::ThousandYards,
        slug: "game",
        aliases: &["full"],
        name: "the full game (to 5000 points)",
        options: "rounds=0 target-score=5000",
        shortest: false,
    },
    Length {
        kind: GameKind::FifteenHundred,
        slug: "race",
        aliases: &["game"],
        name: "the race",
        options: "",
        shortest: true,
    },
    Length {
        kind: GameKind::MagicalAthlete,
        slug: "race",
        aliases: &["one"],
        name: "one race",
        options: "races=1",
        shortest: true,
    },
    Length {
        kind: GameKind::MagicalAthlete,
        slug: "game",
        aliases: &["four", "full"],
        name: "the four-race game",
        options: "",
        shortest: false,
    },
];

/// A length a game does not have.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{game} has no length `{asked}`; its lengths are {offered}")]
pub struct LengthError {
    game: &'static str,
    asked: String,
    offered: String,
}

/// A game's lengths, in menu order.
pub fn lengths(kind: GameKind) -> impl Iterator<Item = &'static Length> {
    LENGTHS.iter().filter(move |l| l.kind == kind)
}

/// `round: one round, game: the full game` for help and refusals.
pub fn offered(kind: GameKind) -> String {
    let all: Vec<String> = lengths(kind)
        .map(|l| format!("`{}` ({})", l.slug, l.name))
        .collect();
    all.join(" or ")
}

/// Reads a length as a host names it.
pub fn find(kind: GameKind, text: &str) -> Result<&'static Length, LengthError> {
    let t = text.trim().to_ascii_lowercase();
    lengths(kind)
        .find(|l| l.slug == t || l.aliases.contains(&t.as_str()))
        .ok_or_else(|| LengthError {
            game: kind.title(),
            asked: bounded(text.trim()),
            offered: offered(kind),
        })
}

/// The options text a race starts from: the length's options, then the host's own (which
/// win where both set a key).
pub fn with_length(length: &Length, host_options: &str) -> String {
    format!("{} {}", length.options, host_options)
        .trim()
        .to_string()
}

/// The JSON fields a kind's lengths set (`target-score` is `target_score`).
fn length_keys(kind: GameKind) -> Vec<String> {
    let mut keys: Vec<String> = lengths(kind)
        .flat_map(|l| l.options.split_whitespace())
        .filter_map(|kv| kv.split_once('=').map(|(k, _)| k.replace('-', "_")))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// Which length a race's options are: the one whose length keys they match.
pub fn of_options(kind: GameKind, options: &Value) -> Option<&'static Length> {
    let keys = length_keys(kind);
    lengths(kind).find(|l| {
        let Ok(preset) = kind.apply_options(None, l.options) else {
            return false;
        };
        keys.iter().all(|k| options.get(k) == preset.get(k))
    })
}

/// One measured row of docs/pace.md: a length, a seat count, autopilot `auto` (the
/// default), answers at the usual pace (median 4 hours). Days in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaceFigure {
    pub kind: GameKind,
    pub length: &'static str,
    pub seats: usize,
    pub mean_tenths: u32,
    pub p90_tenths: u32,
}

const fn fig(
    kind: GameKind,
    length: &'static str,
    seats: usize,
    mean_tenths: u32,
    p90_tenths: u32,
) -> PaceFigure {
    PaceFigure {
        kind,
        length,
        seats,
        mean_tenths,
        p90_tenths,
    }
}

use GameKind::{DreamMile, FifteenHundred, MagicalAthlete, MilleBornes, ThousandYards};

/// docs/pace.md's `auto` rows (`photofinish sim pace` prints them; the test
/// `the_figures_are_docs_pace_md` fails when they drift apart).
pub const PACE: &[PaceFigure] = &[
    fig(DreamMile, "race", 2, 26, 37),
    fig(DreamMile, "race", 4, 37, 47),
    fig(DreamMile, "race", 6, 43, 52),
    fig(MilleBornes, "round", 2, 209, 270),
    fig(MilleBornes, "round", 4, 169, 250),
    fig(MilleBornes, "round", 6, 225, 264),
    fig(MilleBornes, "game", 2, 874, 1112),
    fig(MilleBornes, "game", 4, 650, 843),
    fig(MilleBornes, "game", 6, 1206, 1615),
    fig(ThousandYards, "round", 2, 162, 254),
    fig(ThousandYards, "round", 4, 197, 276),
    fig(ThousandYards, "round", 6, 216, 281),
    fig(ThousandYards, "game", 2, 1238, 1565),
    fig(ThousandYards, "game", 4, 1117, 1439),
    fig(ThousandYards, "game", 6, 2305, 2985),
    fig(FifteenHundred, "race", 2, 30, 41),
    fig(FifteenHundred, "race", 4, 42, 53),
    fig(FifteenHundred, "race", 6, 49, 59),
    fig(MagicalAthlete, "race", 2, 63, 81),
    fig(MagicalAthlete, "race", 4, 24, 34),
    fig(MagicalAthlete, "race", 6, 36, 47),
    fig(MagicalAthlete, "game", 2, 211, 253),
    fig(MagicalAthlete, "game", 4, 56, 70),
    fig(MagicalAthlete, "game", 6, 81, 98),
];

/// docs/pace.md's `auto, standing plays` rows: the card races with every seat starting on
/// the default standing plays (race option `standing-plays=yes`).
pub const PACE_STANDING: &[PaceFigure] = &[
    fig(MilleBornes, "round", 2, 18, 38),
    fig(MilleBornes, "round", 4, 15, 35),
    fig(MilleBornes, "round", 6, 51, 78),
    fig(MilleBornes, "game", 2, 80, 131),
    fig(MilleBornes, "game", 4, 59, 102),
    fig(MilleBornes, "game", 6, 252, 356),
    fig(ThousandYards, "round", 2, 17, 41),
    fig(ThousandYards, "round", 4, 21, 48),
    fig(ThousandYards, "round", 6, 47, 87),
    fig(ThousandYards, "game", 2, 119, 176),
    fig(ThousandYards, "game", 4, 125, 200),
    fig(ThousandYards, "game", 6, 446, 613),
];

/// The measured figure for `seats`, or the nearest measured seat count (a tie: the larger).
pub fn expected(length: &Length, seats: usize) -> Option<&'static PaceFigure> {
    nearest(PACE, length, seats)
}

fn nearest(
    table: &'static [PaceFigure],
    length: &Length,
    seats: usize,
) -> Option<&'static PaceFigure> {
    table
        .iter()
        .filter(|f| f.kind == length.kind && f.length == length.slug)
        .min_by_key(|f| (f.seats.abs_diff(seats), std::cmp::Reverse(f.seats)))
}

fn days(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// The lobby's line: the expected duration of `length` with `seats` runners.
pub fn describe(length: &Length, seats: usize) -> Option<String> {
    let f = expected(length, seats)?;
    let measured = if f.seats == seats {
        String::new()
    } else {
        format!(" (measured with {} seats)", f.seats)
    };
    // The card races ask every turn until standing plays are set: say how much faster
    // the table runs with them.
    let standing = nearest(PACE_STANDING, length, seats)
        .map(|s| {
            format!(
                " With standing plays on (`standing-plays=yes`): about {} days.",
                days(s.mean_tenths)
            )
        })
        .unwrap_or_default();
    Some(format!(
        "{}: about {} days, {} days in 9 games out of 10{measured}, when players answer in 4 hours \
         (median) on autopilot `auto` with 24-hour turns (docs/pace.md).{standing}",
        capitalised(length.name),
        days(f.mean_tenths),
        days(f.p90_tenths),
    ))
}

/// The lobby's line for a race's options and seats (its options as `key=value` text, as
/// the lobby shows them); `None` for options no length matches.
pub fn lobby_line(kind: GameKind, options_text: &str, seats: usize) -> Option<String> {
    let options = kind.apply_options(None, options_text).ok()?;
    let length = of_options(kind, &options)?;
    let (min, _) = kind.seat_limits(&options).ok()?;
    describe(length, seats.max(min))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
#[path = "length_tests.rs"]
mod tests;
