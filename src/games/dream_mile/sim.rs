//! Dream Mile bots and the `photofinish sim dream-mile` summary.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::DreamMile;
use crate::engine::{BotLevel, Game, GameRng, Seat, SeatSetup, Seed, Submitted};
use crate::games::SimArgs;

/// The heuristic bot: keep enough for the last turns, spread the rest, and vary a little.
pub fn pace_bot(game: &DreamMile, seat: Seat, rng: &mut GameRng) -> u8 {
    let Some(r) = game.runners().get(seat.index()) else {
        return 0;
    };
    let cap = i64::from(game.cap(seat));
    let o = game.options();
    let turns_left = i64::from(o.ordered_turns.saturating_sub(game.turns_done())).max(1);
    // The automatic last turn plays up to the maximum: keep that much back.
    let reserve = if o.auto_final_turn {
        i64::from(r.max_speed)
    } else {
        0
    };
    let budget = (i64::from(r.remaining) - reserve).max(0);
    let base = budget / turns_left;
    let jitter = rng.range(-1, 1);
    (base + jitter).clamp(0, cap) as u8
}

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
    pub by_max_speed: BTreeMap<u8, Tally>,
    pub by_level: BTreeMap<String, Tally>,
    pub shared_wins: u64,
}

/// Races bots against each other: half heuristic, half random, with random maxima.
pub fn run(args: &SimArgs) -> Result<Summary, String> {
    let n = args.players.unwrap_or(8);
    let options = super::Options::default();
    let (min, max) = DreamMile::seat_limits(&options);
    if n < min || n > max {
        return Err(format!("a race takes {min} to {max} players"));
    }
    let mut summary = Summary {
        races: 0,
        players: n,
        first_seed: args.seed,
        by_max_speed: BTreeMap::new(),
        by_level: BTreeMap::new(),
        shared_wins: 0,
    };
    for race in 0..args.count {
        let seed = Seed::from_u64(args.seed.wrapping_add(race));
        let mut rng = GameRng::from_seed(seed.derive("sim"));
        let mut levels = Vec::new();
        let mut seats = Vec::new();
        for i in 0..n {
            let level = if i % 2 == 0 {
                BotLevel::Heuristic
            } else {
                BotLevel::Random
            };
            let max_speed = rng.range(10, 15) as u8;
            levels.push((level, max_speed));
            seats.push(SeatSetup {
                name: format!("Bot{}", i + 1),
                choice: Some(max_speed.to_string()),
            });
        }
        let mut game = DreamMile::setup(&options, &seats, seed).map_err(|e| e.to_string())?;
        while game.outcome().is_none() {
            let orders: Vec<Submitted<_>> = game
                .pending()
                .seats
                .iter()
                .map(|&s| Submitted::new(s, game.bot_order(s, levels[s.index()].0, &mut rng)))
                .collect();
            game.apply(&orders);
        }
        let winners = game.outcome().map(|o| o.winners()).unwrap_or_default();
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
            "Dream Mile: {} races of {} bots (seeds from {})",
            self.races, self.players, self.first_seed
        )?;
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
