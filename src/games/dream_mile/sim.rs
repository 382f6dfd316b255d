//! The `photofinish sim dream-mile` summary.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::{DreamMile, Options};
use crate::engine::bot_order;
use crate::engine::{
    BotLevel, Game, GameRng, Seat, SeatSetup, Seed, Submitted, apply_option_text, option_text,
};
use crate::games::sim_args::{SimArgs, SimBots};

/// How each kind of runner fared.
#[derive(Debug, Default, Serialize)]
pub struct Tally {
    pub runners: u64,
    pub wins: f64,
}

/// The summary `photofinish sim dream-mile` prints.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub races: u64,
    pub players: usize,
    pub first_seed: u64,
    /// Which bots played (`mixed`, `heuristic`, `random`, or one level per seat).
    pub bots: String,
    /// The options in force, as `key=value` text.
    pub options: String,
    pub by_max_speed: BTreeMap<u8, Tally>,
    pub by_level: BTreeMap<String, Tally>,
    pub shared_wins: u64,
}

/// The level of seat `i`: `--bots` decides; `mixed` alternates heuristic and random.
fn level_of(bots: &SimBots, i: usize) -> BotLevel {
    bots.level(i).unwrap_or(if i.is_multiple_of(2) {
        BotLevel::Heuristic
    } else {
        BotLevel::Random
    })
}

/// A seat's bot level and maximum speed.
type Seated = (BotLevel, u8);

/// One race of bots, each with a random maximum speed the options allow; returns each
/// seat's level and maximum, and the winners.
fn play_one(
    options: &Options,
    n: usize,
    bots: &SimBots,
    seed: Seed,
) -> Result<(Vec<Seated>, Vec<Seat>), String> {
    let mut rng = GameRng::from_seed(seed.derive("sim"));
    let mut levels = Vec::new();
    let mut seats = Vec::new();
    for i in 0..n {
        let max_speed = rng.range(
            i64::from(options.base_max_speed),
            i64::from(options.top_max_speed),
        ) as u8;
        levels.push((level_of(bots, i), max_speed));
        seats.push(SeatSetup {
            name: format!("Bot{}", i + 1),
            choice: Some(max_speed.to_string()),
        });
    }
    let mut game = DreamMile::setup(options, &seats, seed).map_err(|e| e.to_string())?;
    // Every turn resolves once all orders are in, so the race ends after its turns.
    for _ in 0..=options.ordered_turns {
        if game.outcome().is_some() {
            break;
        }
        let orders: Vec<Submitted<_>> = game
            .pending()
            .seats
            .iter()
            .map(|&s| {
                let level = levels.get(s.index()).map_or(BotLevel::Random, |l| l.0);
                Submitted::new(s, bot_order(&game, s, level, &mut rng))
            })
            .collect();
        game.apply(&orders);
    }
    let winners = game
        .outcome()
        .map(|o| o.winners())
        .ok_or("a race did not end")?;
    Ok((levels, winners))
}

/// Races bots against each other, under `args.options`, with random maxima.
pub fn run(args: &SimArgs) -> Result<Summary, String> {
    let options: Options =
        apply_option_text(&Options::default(), &args.options).map_err(|e| e.to_string())?;
    DreamMile::check_options(&options).map_err(|e| e.to_string())?;
    let n = args.players.unwrap_or(8);
    let (min, max) = DreamMile::seat_limits(&options);
    if n < min || n > max {
        return Err(format!("a race takes {min} to {max} players"));
    }
    let mut summary = Summary {
        races: 0,
        players: n,
        first_seed: args.seed,
        bots: args.bots.name(),
        options: option_text(&options),
        by_max_speed: BTreeMap::new(),
        by_level: BTreeMap::new(),
        shared_wins: 0,
    };
    for race in 0..args.count {
        let seed = Seed::from_u64(args.seed.wrapping_add(race));
        let (levels, winners) = play_one(&options, n, &args.bots, seed)?;
        let share = 1.0 / winners.len().max(1) as f64;
        if winners.len() > 1 {
            summary.shared_wins += 1;
        }
        for (i, (level, max_speed)) in levels.iter().enumerate() {
            let won = winners.iter().any(|w| w.index() == i);
            let t = summary.by_max_speed.entry(*max_speed).or_default();
            t.runners += 1;
            let l = summary
                .by_level
                .entry(level.name().to_string())
                .or_default();
            l.runners += 1;
            if won {
                t.wins += share;
                l.wins += share;
            }
        }
        summary.races += 1;
    }
    Ok(summary)
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Dream Mile: {} races of {} bots, {} (seeds from {})",
            self.races, self.players, self.bots, self.first_seed
        )?;
        writeln!(f, "options: {}", self.options)?;
        writeln!(
            f,
            "{:<14} {:>8} {:>9} {:>9}",
            "max speed", "runners", "wins", "win rate"
        )?;
        for (max, t) in &self.by_max_speed {
            writeln!(
                f,
                "{:<14} {:>8} {:>9.1} {:>8.1}%",
                max,
                t.runners,
                t.wins,
                pct(t)
            )?;
        }
        writeln!(
            f,
            "{:<14} {:>8} {:>9} {:>9}",
            "bot", "runners", "wins", "win rate"
        )?;
        for (level, t) in &self.by_level {
            writeln!(
                f,
                "{:<14} {:>8} {:>9.1} {:>8.1}%",
                level,
                t.runners,
                t.wins,
                pct(t)
            )?;
        }
        write!(f, "races with a shared win: {}", self.shared_wins)
    }
}

fn pct(t: &Tally) -> f64 {
    if t.runners == 0 {
        0.0
    } else {
        100.0 * t.wins / t.runners as f64
    }
}
