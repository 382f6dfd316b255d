//! `photofinish sim 1000-miles` and `sim 1000-yards`: bots play whole games; the
//! summary gives win rates and mean scores by bot level and by seat, and the first
//! player's advantage: rounds won by each team's place in the round's turn order.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::rules::Options;
use super::state::{CardRace, Event, RoundEnd};
use crate::engine::bot_order;
use crate::engine::{BotLevel, Game, GameRng, Seat, SeatSetup, Seed, Submitted};
use crate::games::registry::GameKind;
use crate::games::sim_args::{SimArgs, SimBots};

/// How one kind of seat fared.
#[derive(Debug, Default, Serialize)]
pub struct Tally {
    pub seats: u64,
    pub wins: f64,
    pub score_sum: i64,
}

impl Tally {
    fn rate(&self) -> f64 {
        if self.seats == 0 {
            0.0
        } else {
            100.0 * self.wins / self.seats as f64
        }
    }

    fn mean(&self) -> f64 {
        if self.seats == 0 {
            0.0
        } else {
            self.score_sum as f64 / self.seats as f64
        }
    }
}

/// The summary the command prints.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub game: String,
    pub ruleset: String,
    pub games: u64,
    pub players: usize,
    pub teams: usize,
    pub first_seed: u64,
    pub by_level: BTreeMap<String, Tally>,
    pub by_seat: Vec<Tally>,
    /// Rounds won, by the winning team's place in the round's turn order (1: the team of
    /// the player who plays first). A shared round win counts a share to each.
    pub by_position: Vec<Tally>,
    /// Position 1's round win rate over its fair share (1 / teams): 1.0 is fair.
    pub first_player_advantage: f64,
    pub rounds: u64,
    pub rounds_completed_by_trip: u64,
    pub dirty_tricks: u64,
    pub steps: u64,
    pub shared_wins: u64,
}

/// One game of bots. Team `t` plays heuristic when `(t + game) % 2 == 0`, so every
/// seat meets both levels over the games.
pub fn play_one(
    options: &Options,
    seats: &[SeatSetup],
    seed: Seed,
    game_no: u64,
) -> Result<(CardRace, Vec<BotLevel>, Vec<Event>, u64), String> {
    play_one_with(options, seats, seed, game_no, &SimBots::Mixed)
}

/// As [`play_one`], with `--bots`: a level per seat, or the mix above.
pub fn play_one_with(
    options: &Options,
    seats: &[SeatSetup],
    seed: Seed,
    game_no: u64,
    bots: &SimBots,
) -> Result<(CardRace, Vec<BotLevel>, Vec<Event>, u64), String> {
    let mut events = Vec::new();
    let (game, levels, steps) =
        play_out(options, seats, seed, game_no, bots, |e| events.extend(e))?;
    Ok((game, levels, events, steps))
}

/// As [`play_one_with`], handing each step's events to `on_events` as they happen (the
/// summary keeps only what it counts, not a whole game's events).
fn play_out(
    options: &Options,
    seats: &[SeatSetup],
    seed: Seed,
    game_no: u64,
    bots: &SimBots,
    mut on_events: impl FnMut(Vec<Event>),
) -> Result<(CardRace, Vec<BotLevel>, u64), String> {
    let mut game = CardRace::setup(options, seats, seed).map_err(|e| e.to_string())?;
    let levels: Vec<BotLevel> = Seat::all(seats.len())
        .map(|s| {
            if let Some(level) = bots.level(s.index()) {
                level
            } else if (u64::from(game.team_index(s)) + game_no).is_multiple_of(2) {
                BotLevel::Heuristic
            } else {
                BotLevel::Random
            }
        })
        .collect();
    let mut rng = GameRng::from_seed(seed.derive("sim"));
    let mut steps = 0u64;
    // A card race always waits for one seat (a window: its first seat answers), so the
    // loop asks `first_to_act` rather than building `pending()`'s label every step.
    while steps < 100_000 {
        let Some(s) = game.first_to_act() else {
            break;
        };
        let level = levels.get(s.index()).copied().unwrap_or_default();
        let order = Submitted::new(s, bot_order(&game, s, level, &mut rng));
        on_events(game.apply(std::slice::from_ref(&order)));
        steps += 1;
    }
    Ok((game, levels, steps))
}

pub fn run(kind: GameKind, args: &SimArgs) -> Result<Summary, String> {
    let value = kind
        .apply_options(None, &args.options)
        .map_err(|e| e.to_string())?;
    let options: Options = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let n = args.players.unwrap_or(4);
    let teams = options.team_count(n).map_err(|e| e.to_string())?;
    let seats: Vec<SeatSetup> = (1..=n)
        .map(|i| SeatSetup::named(format!("Bot{i}")))
        .collect();
    let mut s = Summary {
        game: kind.slug().into(),
        ruleset: format!("{:?}", options.ruleset).to_lowercase(),
        games: 0,
        players: n,
        teams,
        first_seed: args.seed,
        by_level: BTreeMap::new(),
        by_seat: (0..n).map(|_| Tally::default()).collect(),
        by_position: (0..teams).map(|_| Tally::default()).collect(),
        first_player_advantage: 0.0,
        rounds: 0,
        rounds_completed_by_trip: 0,
        dirty_tricks: 0,
        steps: 0,
        shared_wins: 0,
    };
    for g in 0..args.count {
        let seed = Seed::from_u64(args.seed.wrapping_add(g));
        // Each round's starter and scores, tallied once the game is over.
        let mut starter = Seat(0);
        let mut rounds = Vec::new();
        let (game, levels, steps) = play_out(&options, &seats, seed, g, &args.bots, |events| {
            for e in events {
                match e {
                    Event::RoundStarted { starter: first, .. } => starter = first,
                    Event::RoundEnded { result, .. } => {
                        s.rounds += 1;
                        if matches!(result.ended, RoundEnd::Trip { .. }) {
                            s.rounds_completed_by_trip += 1;
                        }
                        rounds.push((starter, result.scores));
                    }
                    Event::DirtyTrick { .. } => s.dirty_tricks += 1,
                    _ => {}
                }
            }
        })?;
        let outcome = game.outcome().ok_or("a game did not end")?;
        let winners = outcome.winners();
        let winning_teams = game.winning_teams();
        if winning_teams.len() > 1 {
            s.shared_wins += 1;
        }
        let share = 1.0 / winning_teams.len().max(1) as f64;
        for seat in Seat::all(n) {
            let score = game.team_of(seat).map(|t| t.total).unwrap_or(0);
            let won = winners.contains(&seat);
            let level = levels.get(seat.index()).copied().unwrap_or_default();
            let t = s.by_level.entry(level.name().to_string()).or_default();
            t.seats += 1;
            t.score_sum += score;
            if won {
                t.wins += share;
            }
            if let Some(t) = s.by_seat.get_mut(seat.index()) {
                t.seats += 1;
                t.score_sum += score;
                if won {
                    t.wins += share;
                }
            }
        }
        for (starter, scores) in &rounds {
            s.tally_positions(&game, *starter, scores);
        }
        s.steps += steps;
        s.games += 1;
    }
    let fair = 1.0 / teams.max(1) as f64;
    s.first_player_advantage = s
        .by_position
        .first()
        .map_or(0.0, |t| t.rate() / 100.0 / fair);
    Ok(s)
}

impl Summary {
    /// Counts a round's win (and scores) by each team's place in the turn order.
    fn tally_positions(
        &mut self,
        game: &CardRace,
        starter: Seat,
        scores: &[super::state::RoundScore],
    ) {
        let teams = self.teams.max(1);
        let first = usize::from(game.team_index(starter));
        let best = scores.iter().map(|r| r.total).max().unwrap_or(0);
        let winners = scores.iter().filter(|r| r.total == best).count().max(1);
        for r in scores {
            let place = (usize::from(r.team) + teams - first % teams) % teams;
            if let Some(t) = self.by_position.get_mut(place) {
                t.seats += 1;
                t.score_sum += r.total;
                if r.total == best {
                    t.wins += 1.0 / winners as f64;
                }
            }
        }
    }
}

/// One table of tallies: a heading of three words, then a row per tally.
fn table<'a>(
    f: &mut fmt::Formatter<'_>,
    [what, count, wins]: [&str; 3],
    rows: impl Iterator<Item = (String, &'a Tally)>,
) -> fmt::Result {
    writeln!(
        f,
        "{:<10} {:>7} {:>9} {:>9} {:>11}",
        what, count, wins, "win rate", "mean score"
    )?;
    for (name, t) in rows {
        writeln!(
            f,
            "{:<10} {:>7} {:>9.1} {:>8.1}% {:>11.0}",
            name,
            t.seats,
            t.wins,
            t.rate(),
            t.mean()
        )?;
    }
    Ok(())
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let games = self.games.max(1) as f64;
        writeln!(
            f,
            "{} ({}): {} games of {} bots in {} teams (seeds from {})",
            self.game, self.ruleset, self.games, self.players, self.teams, self.first_seed
        )?;
        table(
            f,
            ["bot", "seats", "wins"],
            self.by_level.iter().map(|(level, t)| (level.clone(), t)),
        )?;
        table(
            f,
            ["seat", "games", "wins"],
            self.by_seat
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("Bot{}", i + 1), t)),
        )?;
        table(
            f,
            ["team place", "rounds", "won"],
            self.by_position
                .iter()
                .enumerate()
                .map(|(i, t)| ((i + 1).to_string(), t)),
        )?;
        writeln!(
            f,
            "first player's advantage {:.2} (the first team's round win rate over its fair share \
             of {:.1}%; 1.00 is fair)",
            self.first_player_advantage,
            100.0 / self.teams.max(1) as f64
        )?;
        writeln!(
            f,
            "rounds per game {:.2}; rounds ending with a completed trip {:.1}%",
            self.rounds as f64 / games,
            100.0 * self.rounds_completed_by_trip as f64 / self.rounds.max(1) as f64
        )?;
        write!(
            f,
            "dirty tricks per game {:.2}; steps per game {:.0}; shared wins {}",
            self.dirty_tricks as f64 / games,
            self.steps as f64 / games,
            self.shared_wins
        )
    }
}
