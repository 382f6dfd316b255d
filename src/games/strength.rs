//! `photofinish sim GAME --bots expert,heuristic,…`: how strong a bot level is. Whole
//! games through the `Game` contract; the levels rotate round the table game by game, so
//! every level sits in every seat equally often, and each level's share of the wins is set
//! against its fair share. A shared win (a tie, or a team) counts as a share.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::{GameKind, SimArgs};
use crate::engine::{BotLevel, Game, GameRng, SeatSetup, Seed, Submitted};

/// One level's record.
#[derive(Debug, Default, Serialize)]
pub struct Row {
    /// Seat-games played at this level.
    pub seats: u64,
    /// Wins, shared ones counted as their share.
    pub wins: f64,
    /// Orders this level decided (its time per decision is the run's time over these).
    pub decisions: u64,
}

impl Row {
    /// Wins against the fair share of `players` seats (1.0 is fair).
    pub fn ratio(&self, players: usize) -> f64 {
        if self.seats == 0 {
            return 0.0;
        }
        self.wins * players as f64 / self.seats as f64
    }
}

/// The summary the sim prints.
#[derive(Debug, Serialize)]
pub struct Strength {
    pub game: String,
    pub games: u64,
    pub players: usize,
    pub bots: String,
    pub first_seed: u64,
    pub options: String,
    pub unfinished: u64,
    pub by_level: BTreeMap<String, Row>,
}

/// Runs the strength sim for `kind` with the levels `args.bots` names.
pub fn run(kind: GameKind, args: &SimArgs) -> Result<Strength, String> {
    match kind {
        GameKind::DreamMile => run_typed::<super::dream_mile::DreamMile>(kind, args, 8),
        GameKind::MilleBornes | GameKind::ThousandYards => {
            run_typed::<super::card_race::CardRace>(kind, args, 2)
        }
        GameKind::FifteenHundred => {
            run_typed::<super::fifteen_hundred::FifteenHundred>(kind, args, 8)
        }
        GameKind::MagicalAthlete => {
            run_typed::<super::magical_athlete::MagicalAthlete>(kind, args, 4)
        }
    }
}

fn run_typed<G: Game>(kind: GameKind, args: &SimArgs, seats: usize) -> Result<Strength, String> {
    let value = kind
        .apply_options(None, &args.options)
        .map_err(|e| e.to_string())?;
    let options: G::Options = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let n = args.players.unwrap_or(seats);
    let setups: Vec<SeatSetup> = (1..=n)
        .map(|i| SeatSetup::named(format!("Bot{i}")))
        .collect();
    let mut out = Strength {
        game: kind.slug().into(),
        games: 0,
        players: n,
        bots: args.bots.name(),
        first_seed: args.seed,
        options: args.options.clone(),
        unfinished: 0,
        by_level: BTreeMap::new(),
    };
    for i in 0..args.count {
        let seed = args.seed.wrapping_add(i);
        let shift = usize::try_from(i).unwrap_or(0) % n.max(1);
        let levels: Vec<BotLevel> = (0..n)
            .map(|s| {
                args.bots
                    .level((s + n - shift) % n)
                    .unwrap_or(BotLevel::Heuristic)
            })
            .collect();
        let mut game =
            G::setup(&options, &setups, Seed::from_u64(seed)).map_err(|e| e.to_string())?;
        let mut rng = GameRng::from_seed(Seed::from_u64(seed).derive("strength"));
        for _ in 0..100_000 {
            let pending = game.pending();
            if pending.seats.is_empty() {
                break;
            }
            let orders: Vec<_> = pending
                .seats
                .iter()
                .map(|&s| {
                    let level = levels.get(s.index()).copied().unwrap_or_default();
                    out.by_level
                        .entry(level.name().to_string())
                        .or_default()
                        .decisions += 1;
                    Submitted::new(s, game.bot_order(s, level, &mut rng))
                })
                .collect();
            game.apply(&orders);
        }
        out.games += 1;
        let Some(outcome) = game.outcome() else {
            out.unfinished += 1;
            continue;
        };
        let winners = outcome.winners();
        let share = 1.0 / winners.len().max(1) as f64;
        for (s, level) in levels.iter().enumerate() {
            let row = out.by_level.entry(level.name().to_string()).or_default();
            row.seats += 1;
            if winners.iter().any(|w| w.index() == s) {
                row.wins += share;
            }
        }
    }
    Ok(out)
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} games of {} seats, bots {} rotating round the table (seeds from {}{})",
            self.game,
            self.games,
            self.players,
            self.bots,
            self.first_seed,
            if self.options.is_empty() {
                String::new()
            } else {
                format!("; options {}", self.options)
            }
        )?;
        writeln!(
            f,
            "{:<10} {:>8} {:>9} {:>7} {:>9} {:>10}",
            "level", "seats", "wins", "win %", "vs fair", "decisions"
        )?;
        for (name, row) in &self.by_level {
            let pct = if row.seats == 0 {
                0.0
            } else {
                100.0 * row.wins / row.seats as f64
            };
            writeln!(
                f,
                "{:<10} {:>8} {:>9.1} {:>6.1}% {:>8.2}× {:>10}",
                name,
                row.seats,
                row.wins,
                pct,
                row.ratio(self.players),
                row.decisions
            )?;
        }
        write!(f, "games unfinished: {}", self.unfinished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::SimBots;

    #[test]
    fn levels_rotate_and_shares_add_up() {
        let args = SimArgs {
            count: 4,
            seed: 3,
            players: Some(4),
            options: String::new(),
            bots: SimBots::parse("random,heuristic").unwrap(),
        };
        let s = run(GameKind::DreamMile, &args).unwrap();
        assert_eq!(s.games, 4);
        assert_eq!(s.unfinished, 0);
        let random = &s.by_level["random"];
        let heuristic = &s.by_level["heuristic"];
        assert_eq!((random.seats, heuristic.seats), (8, 8));
        // One win (or its shares) a game, whoever took it.
        assert!((random.wins + heuristic.wins - 4.0).abs() < 1e-9, "{s}");
        assert!(s.to_string().contains("vs fair"), "{s}");
    }
}
