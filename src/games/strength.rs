//! `photofinish sim GAME --bots expert,heuristic,…`: how strong a bot level is. Whole
//! games through the `Bots` contract; the levels rotate round the table game by game, so
//! every level sits in every seat equally often, and each level's share of the wins is set
//! against its fair share. A shared win (a tie, or a team) counts as a share.
//!
//! Each expert decision is timed on the [`Stopwatch`] the caller passes (the command line
//! reads the thread's CPU clock: `cli/cpu.rs`), so the 50 ms a decision target is measured,
//! not inferred from the run's length; the games themselves read no clock.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::registry::GameKind;
use super::sim_args::SimArgs;
use crate::engine::bot_order;
use crate::engine::expert::{self, Budget};
use crate::engine::{BotLevel, Bots, GameRng, Seat, SeatSetup, Seed, Submitted};

/// One level's record.
#[derive(Debug, Default, Serialize)]
pub struct Row {
    /// Seat-games played at this level.
    pub seats: u64,
    /// Wins, shared ones counted as their share.
    pub wins: f64,
    /// Orders this level decided.
    pub decisions: u64,
    /// The time its decisions took, for the expert levels only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<DecisionTime>,
}

/// The time per decision of one level.
#[derive(Debug, Default, Serialize)]
pub struct DecisionTime {
    /// The stopwatch's clock (`thread CPU` or `wall` from the command line).
    pub clock: &'static str,
    pub decisions: u64,
    pub mean_ms: f64,
    pub max_ms: f64,
    /// Nanoseconds in all, for the mean.
    pub total_ns: u64,
    /// Bot orders the decisions played in their playouts (the cost their budget counts):
    /// in all, and the most one decision played.
    pub total_steps: u64,
    pub max_steps: u64,
    /// The orders the slowest decision played: near `max_steps`, its time is the cost of
    /// its orders; far below, of something else (or of a loaded machine).
    pub slowest_steps: u64,
}

impl DecisionTime {
    fn add(&mut self, clock: &'static str, ns: u64, steps: u64) {
        self.clock = clock;
        self.total_steps = self.total_steps.saturating_add(steps);
        self.max_steps = self.max_steps.max(steps);
        self.decisions += 1;
        self.total_ns = self.total_ns.saturating_add(ns);
        let ms = ns as f64 / 1e6;
        if ms > self.max_ms {
            self.max_ms = ms;
            self.slowest_steps = steps;
        }
        self.mean_ms = self.total_ns as f64 / 1e6 / self.decisions as f64;
    }
}

/// The clock expert decisions are timed on.
pub trait Stopwatch {
    /// Runs `decide` once and returns the nanoseconds it took, with the clock's name.
    fn time(&self, decide: &mut dyn FnMut()) -> (&'static str, u64);
}

/// A stopwatch that reads no clock: every decision takes 0 ns on it.
pub struct NoClock;

impl Stopwatch for NoClock {
    fn time(&self, decide: &mut dyn FnMut()) -> (&'static str, u64) {
        decide();
        ("no clock", 0)
    }
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

/// How the expert seats decide in a strength sim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpertSeats {
    /// The expert bot as it plays, on its game's default budget ([`Budget::for_game`]).
    Default,
    /// The expert bot with this budget instead (`sim --bots expert:STEPS`).
    Fair(Budget),
    /// The omniscient cheat ([`expert::omniscient_choose_cheat`]): a measurement of how
    /// far luck caps any bot, for `sim --bots omniscient,…` only.
    OmniscientCheat,
    /// The hand-peeking cheat ([`expert::handpeek_choose_cheat`]): the fair search with
    /// the opponents' hands seen, bounding what inferring them could give. `sim --bots
    /// handpeek,…` only.
    HandPeekCheat,
}

/// Runs the strength sim for `kind` with the levels `args.bots` names, timing the expert's
/// decisions on `watch`.
pub fn run(kind: GameKind, args: &SimArgs, watch: &dyn Stopwatch) -> Result<Strength, String> {
    run_with(kind, args, ExpertSeats::Default, watch)
}

/// The same with the expert seats deciding as `experts` says.
pub fn run_with(
    kind: GameKind,
    args: &SimArgs,
    experts: ExpertSeats,
    watch: &dyn Stopwatch,
) -> Result<Strength, String> {
    match kind {
        GameKind::DreamMile => {
            run_typed::<super::dream_mile::DreamMile>(kind, args, 8, experts, watch)
        }
        GameKind::MilleBornes | GameKind::ThousandYards => {
            run_typed::<super::card_race::CardRace>(kind, args, 2, experts, watch)
        }
        GameKind::FifteenHundred => {
            run_typed::<super::fifteen_hundred::FifteenHundred>(kind, args, 8, experts, watch)
        }
        GameKind::MagicalAthlete => {
            run_typed::<super::magical_athlete::MagicalAthlete>(kind, args, 4, experts, watch)
        }
    }
}

/// The name a level's row takes: the cheat's rows are never mistaken for the expert's,
/// nor an expert on another budget for the default one.
fn level_name(level: BotLevel, experts: ExpertSeats) -> String {
    match (level, experts) {
        (BotLevel::Expert, ExpertSeats::OmniscientCheat) => "omniscient".into(),
        (BotLevel::Expert, ExpertSeats::HandPeekCheat) => "handpeek".into(),
        (BotLevel::Expert, ExpertSeats::Fair(b)) => format!("expert:{}", b.steps),
        _ => level.name().into(),
    }
}

/// One expert decision.
fn expert_order<G: Bots>(
    game: &G,
    seat: Seat,
    rng: &mut GameRng,
    experts: ExpertSeats,
) -> G::Order {
    match experts {
        ExpertSeats::Default => bot_order(game, seat, BotLevel::Expert, rng),
        ExpertSeats::Fair(budget) => expert::choose_with(game, seat, rng, &budget),
        ExpertSeats::OmniscientCheat => expert::omniscient_choose_cheat(game, seat, rng),
        ExpertSeats::HandPeekCheat => expert::handpeek_choose_cheat(game, seat, rng),
    }
}

fn run_typed<G: Bots>(
    kind: GameKind,
    args: &SimArgs,
    seats: usize,
    experts: ExpertSeats,
    watch: &dyn Stopwatch,
) -> Result<Strength, String> {
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
        bots: args
            .bots
            .name()
            .replace("expert", &level_name(BotLevel::Expert, experts)),
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
                    let row = out.by_level.entry(level_name(level, experts)).or_default();
                    row.decisions += 1;
                    let order = match level {
                        BotLevel::Expert => {
                            let played = expert::steps_played();
                            let mut order = None;
                            let (clock, ns) = watch.time(&mut || {
                                order = Some(expert_order(&game, s, &mut rng, experts));
                            });
                            let steps = expert::steps_played().saturating_sub(played);
                            row.time
                                .get_or_insert_with(Default::default)
                                .add(clock, ns, steps);
                            // A stopwatch that did not run the decision leaves it to run here.
                            order.unwrap_or_else(|| expert_order(&game, s, &mut rng, experts))
                        }
                        _ => bot_order(&game, s, level, &mut rng),
                    };
                    Submitted::new(s, order)
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
            let row = out.by_level.entry(level_name(*level, experts)).or_default();
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
        for (name, row) in &self.by_level {
            if let Some(t) = &row.time {
                writeln!(
                    f,
                    "{name}: {} decisions, {:.2} ms mean and {:.2} ms max a decision ({} time); \
                     {:.0} mean and {} max bot orders played a decision, {} in the slowest",
                    t.decisions,
                    t.mean_ms,
                    t.max_ms,
                    t.clock,
                    t.total_steps as f64 / t.decisions.max(1) as f64,
                    t.max_steps,
                    t.slowest_steps
                )?;
            }
        }
        write!(f, "games unfinished: {}", self.unfinished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sim_args::SimBots;

    #[test]
    fn levels_rotate_and_shares_add_up() {
        let args = SimArgs {
            count: 4,
            seed: 3,
            players: Some(4),
            options: String::new(),
            bots: SimBots::parse("random,heuristic").unwrap(),
        };
        let s = run(GameKind::DreamMile, &args, &NoClock).unwrap();
        assert_eq!(s.games, 4);
        assert_eq!(s.unfinished, 0);
        let random = &s.by_level["random"];
        let heuristic = &s.by_level["heuristic"];
        assert_eq!((random.seats, heuristic.seats), (8, 8));
        // One win (or its shares) a game, whoever took it.
        assert!((random.wins + heuristic.wins - 4.0).abs() < 1e-9, "{s}");
        assert!(s.to_string().contains("vs fair"), "{s}");
    }

    fn args(count: u64, players: usize, options: &str, bots: &str) -> SimArgs {
        SimArgs {
            count,
            seed: 7,
            players: Some(players),
            options: options.into(),
            bots: SimBots::parse(bots).unwrap(),
        }
    }

    #[test]
    fn expert_decisions_are_timed_and_its_budget_named() {
        let small = Budget {
            steps: 400,
            candidates: 4,
            min_worlds: 2,
            max_worlds: 2,
            max_playout: 400,
        };
        let a = args(1, 2, "", "expert,heuristic");
        // A stopwatch on which the n-th decision takes n ms.
        struct Ticks(std::cell::Cell<u64>);
        impl Stopwatch for Ticks {
            fn time(&self, decide: &mut dyn FnMut()) -> (&'static str, u64) {
                decide();
                self.0.set(self.0.get() + 1);
                ("ticks", self.0.get() * 1_000_000)
            }
        }
        let ticks = Ticks(std::cell::Cell::new(0));
        let s = run_with(GameKind::DreamMile, &a, ExpertSeats::Fair(small), &ticks).unwrap();
        assert_eq!(s.bots, "expert:400,heuristic");
        let expert = &s.by_level["expert:400"];
        let time = expert.time.as_ref().expect("expert decisions are timed");
        let n = expert.decisions;
        assert!(n > 1);
        assert_eq!((time.decisions, ticks.0.get()), (n, n));
        assert_eq!(time.clock, "ticks");
        assert_eq!(time.max_ms, n as f64);
        assert_eq!(time.mean_ms, (n + 1) as f64 / 2.0, "{s}");
        // Only the expert is timed; the heuristic decides in microseconds.
        assert!(s.by_level["heuristic"].time.is_none());
        assert!(s.to_string().contains("ms max a decision"), "{s}");
    }

    #[test]
    fn the_omniscient_cheat_plays_only_under_its_own_name() {
        let a = args(1, 2, "rounds=1", "expert,heuristic");
        let s = run_with(
            GameKind::MilleBornes,
            &a,
            ExpertSeats::OmniscientCheat,
            &NoClock,
        )
        .unwrap();
        assert_eq!(s.bots, "omniscient,heuristic");
        assert_eq!(s.unfinished, 0);
        assert!(!s.by_level.contains_key("expert"), "{s}");
        let cheat = &s.by_level["omniscient"];
        assert_eq!(cheat.seats, 1);
        assert!(cheat.time.is_some(), "{s}");
    }

    #[test]
    fn the_hand_peeking_cheat_plays_only_under_its_own_name() {
        let a = args(1, 2, "rounds=1", "expert,heuristic");
        let s = run_with(
            GameKind::MilleBornes,
            &a,
            ExpertSeats::HandPeekCheat,
            &NoClock,
        )
        .unwrap();
        assert_eq!(s.bots, "handpeek,heuristic");
        assert_eq!(s.unfinished, 0);
        assert!(!s.by_level.contains_key("expert"), "{s}");
        assert_eq!(s.by_level["handpeek"].seats, 1);
    }
}
