//! 1500m bots (random legal, and a heuristic that budgets mental strength over the race)
//! and the `photofinish sim 1500m` summary.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::options::Options;
use super::order::{Action, Order, PaceIntent, Preferences, RoundOrder};
use super::path::{self, Aim, Intent};
use super::rules::{BASE_PACE, TOP_BID, options_card};
use super::state::{FifteenHundred, Step};
use crate::engine::bot_order;
use crate::engine::{BotLevel, Game, GameRng, Seat, SeatSetup, Seed, Submitted, apply_option_text};
use crate::games::sim_args::SimArgs;

fn random_intent(game: &FifteenHundred, rng: &mut GameRng) -> Intent {
    let aim = if rng.chance(2, 3) {
        Aim::Farthest
    } else {
        Aim::Points(rng.range(0, 14) as u8)
    };
    let max_lane = if rng.chance(1, 4) {
        Some(rng.range(1, i64::from(game.course.lanes())) as u8)
    } else {
        None
    };
    Intent { aim, max_lane }
}

fn random_pace(game: &FifteenHundred, i: usize, rng: &mut GameRng) -> PaceIntent {
    let cur = game.runner(i).map_or(BASE_PACE, |r| r.pace);
    let top = game.options.top_pace();
    let mut options = vec![PaceIntent::Keep, PaceIntent::Afford];
    if cur < top {
        options.push(PaceIntent::Up);
    }
    for n in 1..=cur.saturating_sub(BASE_PACE) {
        options.push(PaceIntent::Down(n));
    }
    for l in BASE_PACE..=cur.saturating_add(1).min(top) {
        options.push(PaceIntent::Level(l));
    }
    rng.choose(&options).copied().unwrap_or(PaceIntent::Keep)
}

fn random_bid(game: &FifteenHundred, i: usize, rng: &mut GameRng) -> Option<u8> {
    let s = game.runner(i).map_or(0, |r| r.strength);
    if s == 0 {
        None
    } else {
        let top = u16::from(TOP_BID).min(s);
        Some(rng.range(1, i64::from(top)) as u8)
    }
}

fn random_card(game: &FifteenHundred, i: usize, rng: &mut GameRng) -> u8 {
    let hand = game.runner(i).map(|r| r.hand.clone()).unwrap_or_default();
    rng.choose(&hand)
        .copied()
        .unwrap_or_else(|| options_card(&hand))
}

/// A uniformly random legal order (the random bot, and the simulation tests).
pub fn random_order(game: &FifteenHundred, seat: Seat, rng: &mut GameRng) -> Order {
    let i = seat.index();
    match game.step {
        Step::Orders | Step::Over => {
            let mut all = Action::ALL.to_vec();
            rng.shuffle(&mut all);
            let keep = rng.index(all.len() + 1);
            all.truncate(keep);
            let decline = all.is_empty() || rng.chance(1, 4);
            let run = random_intent(game, rng);
            let then = if rng.chance(1, 2) {
                run.clone()
            } else {
                random_intent(game, rng)
            };
            Order::Round(RoundOrder {
                card: random_card(game, i, rng),
                bid: random_bid(game, i, rng),
                actions: Preferences {
                    ranked: all,
                    decline,
                },
                pace: random_pace(game, i, rng),
                run,
                then,
            })
        }
        Step::Bids => Order::Bid {
            card: random_card(game, i, rng),
            bid: random_bid(game, i, rng),
        },
        Step::Action => {
            let taken = game.taken();
            let mut free: Vec<Option<Action>> = Action::ALL
                .iter()
                .filter(|a| !taken.contains(a))
                .map(|a| Some(*a))
                .collect();
            free.push(None);
            Order::Action {
                action: rng.choose(&free).copied().flatten(),
            }
        }
        Step::Move => {
            let Some(r) = game.runner(i) else {
                return game.default_order(seat);
            };
            let reach = path::reachable(
                &game.course,
                r.spot,
                game.cards_points_after_penalty(i),
                &game.occupied(i),
                game.moves_first(i),
            );
            if rng.chance(1, 2)
                && let Some(rc) = rng.choose(&reach)
            {
                return Order::Move {
                    intent: Intent {
                        aim: Aim::To {
                            lane: rc.spot.lane,
                            pos: rc.spot.pos,
                            finish: game.course.on_finish_straight(rc.spot),
                        },
                        max_lane: None,
                    },
                };
            }
            Order::Move {
                intent: random_intent(game, rng),
            }
        }
        Step::Pace => Order::Pace {
            pace: random_pace(game, i, rng),
            intent: random_intent(game, rng),
        },
    }
}

/// How far below the most its budget allows the heuristic bot may bid.
const BID_SPREAD: i64 = 3;

/// The heuristic's plan for a round: spread mental strength over the rounds left, run at
/// the highest pace that budget pays for, bid what is left over, sprint at the end. The
/// race's seeded `rng` varies its estimates, bid and card a little, so that a field of
/// heuristic bots does not run one identical race (docs/rules/1500m.md, *Fair starts*).
pub fn heuristic_plan(game: &FifteenHundred, i: usize, rng: &mut GameRng) -> RoundOrder {
    let mut plan = game.default_round_order(i);
    let Some(r) = game.runner(i) else {
        return plan;
    };
    let o = &game.options;
    let to_go = (game.course.length() - game.course.progress(r.spot)).max(1);
    // About 18 spaces a round at the start, a little more as the pace rises; each bot's
    // guess differs by a couple of spaces.
    let per_round = rng.range(16, 20);
    let rounds_left = i64::from(to_go).div_euclid(per_round).max(0) + 1;
    let s = i64::from(r.strength);
    let budget = s / rounds_left;
    let top = o.top_pace().min(r.pace.saturating_add(1));
    let mut level = BASE_PACE;
    for l in BASE_PACE..=top {
        if i64::from(o.pace_change_cost(r.pace, l)) < budget {
            level = l;
        }
    }
    plan.pace = if level > r.pace {
        PaceIntent::Up
    } else if level == r.pace {
        PaceIntent::Afford
    } else {
        PaceIntent::Level(level)
    };
    let spare = budget - i64::from(o.pace_change_cost(r.pace, level));
    // A bid drawn from the top few the budget allows: with equal bids the worse placed
    // chooses first, which at a level start is always the outer lane, so equal bids would
    // hand out the actions by start lane (docs/rules/1500m.md, *Fair starts*).
    plan.bid = (r.strength > 0).then(|| {
        let hi = spare.clamp(1, i64::from(TOP_BID).min(s));
        rng.range(hi.saturating_sub(BID_SPREAD).max(1), hi) as u8
    });
    plan.card = if rounds_left <= 1 {
        r.hand.iter().max().copied().unwrap_or(plan.card)
    } else {
        // Every card is played once before the hand refills: the order is a matter of taste.
        rng.choose(&r.hand).copied().unwrap_or(plan.card)
    };
    plan.actions = if s < 25 {
        Preferences {
            ranked: vec![
                Action::Safe4,
                Action::Safe3,
                Action::Move3,
                Action::MoveFirst,
                Action::Move2,
            ],
            decline: false,
        }
    } else {
        Preferences {
            ranked: vec![
                Action::Move3,
                Action::MoveFirst,
                Action::Move2,
                Action::Pace2,
                Action::Pace1,
                Action::Safe4,
                Action::Safe3,
            ],
            decline: false,
        }
    };
    plan
}

/// The heuristic bot's order for the step at hand.
pub fn heuristic_order(game: &FifteenHundred, seat: Seat, rng: &mut GameRng) -> Order {
    let i = seat.index();
    let plan = heuristic_plan(game, i, rng);
    match game.step {
        Step::Orders | Step::Over => Order::Round(plan),
        Step::Bids => Order::Bid {
            card: plan.card,
            bid: plan.bid,
        },
        Step::Action => Order::Action {
            action: plan.actions.pick(&game.taken()),
        },
        Step::Move => Order::Move {
            intent: Intent::farthest(),
        },
        Step::Pace => Order::Pace {
            pace: plan.pace,
            intent: Intent::farthest(),
        },
    }
}

/// The expert's variations on the heuristic's round order (`Bots::expert_candidates`):
/// the free pace levels first (docs/rules/1500m.md, *Not done*: ranking Pace +2 first
/// early wins far more), other first actions, higher and lower bids, another pace and each
/// card. Orders only; live play's steps are left to the prompt's choices.
pub fn expert_candidates(game: &FifteenHundred, seat: Seat, rng: &mut GameRng) -> Vec<Order> {
    if !matches!(game.step, Step::Orders) {
        return Vec::new();
    }
    let i = seat.index();
    let plan = heuristic_plan(game, i, rng);
    let strength = game.runner(i).map_or(0, |r| r.strength);
    let top_bid = u8::try_from(strength).unwrap_or(TOP_BID).min(TOP_BID);
    let first = |a: Action| {
        let mut p = plan.clone();
        p.actions.ranked.retain(|&b| b != a);
        p.actions.ranked.insert(0, a);
        p
    };
    let bid = |b: u8| {
        let mut p = plan.clone();
        p.bid = plan.bid.map(|_| b.clamp(1, top_bid.max(1)));
        p
    };
    let pace = |pi: PaceIntent| {
        let mut p = plan.clone();
        p.pace = pi;
        p
    };
    let mut out = vec![
        first(Action::Pace2),
        {
            let mut p = first(Action::Pace2);
            p.bid = p.bid.map(|_| top_bid.max(1));
            p
        },
        first(Action::Pace1),
        first(Action::MoveFirst),
        first(Action::Move3),
        first(Action::Safe4),
        bid(top_bid),
        bid(plan.bid.unwrap_or(1).saturating_add(2)),
        bid(1),
        pace(PaceIntent::Up),
        pace(PaceIntent::Keep),
        pace(PaceIntent::Down(1)),
    ];
    let hand = game.runner(i).map(|r| r.hand.clone()).unwrap_or_default();
    for &card in &hand {
        let mut p = plan.clone();
        p.card = card;
        out.push(p);
    }
    out.into_iter()
        .map(Order::Round)
        .filter(|o| game.check_order(seat, o).is_ok())
        .collect()
}

/// How one kind of runner fared.
#[derive(Debug, Default, Serialize)]
pub struct Tally {
    pub runners: u64,
    pub gold: u64,
    pub medals: u64,
}

/// The summary `photofinish sim 1500m` prints.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub races: u64,
    pub players: usize,
    pub robots: u8,
    pub first_seed: u64,
    pub options: String,
    pub rounds: u64,
    pub longest: u16,
    pub by_kind: BTreeMap<String, Tally>,
    pub by_start_lane: BTreeMap<u8, Tally>,
    /// Mental strength left by gold medallists who are players, on average.
    pub winners_strength: f64,
}

/// The options and the player count a simulation asks for, checked.
fn sim_setup(args: &SimArgs) -> Result<(Options, usize), String> {
    let options: Options =
        apply_option_text(&Options::default(), &args.options).map_err(|e| e.to_string())?;
    FifteenHundred::check_options(&options).map_err(|e| e.to_string())?;
    let (min, max) = FifteenHundred::seat_limits(&options);
    let n = args.players.unwrap_or(max);
    if n < min || n > max {
        return Err(format!("this race takes {min} to {max} players"));
    }
    Ok((options, n))
}

/// The default mix: players alternate heuristic and random bots. The heuristic is
/// deterministic, so a field of heuristic bots alone runs the same race every time.
fn mixed(i: usize) -> BotLevel {
    if i.is_multiple_of(2) {
        BotLevel::Heuristic
    } else {
        BotLevel::Random
    }
}

/// One whole race of bots from `seed`, seat `i` playing at `level(i)`: each runner's start
/// lane, and the race at its end.
fn race(
    options: &Options,
    n: usize,
    seed: u64,
    level: &dyn Fn(usize) -> BotLevel,
) -> Result<(Vec<u8>, FifteenHundred), String> {
    let seed = Seed::from_u64(seed);
    let mut rng = GameRng::from_seed(seed.derive("sim"));
    let seats: Vec<SeatSetup> = (0..n)
        .map(|i| SeatSetup::named(format!("Bot{}", i + 1)))
        .collect();
    let mut game = FifteenHundred::setup(options, &seats, seed).map_err(|e| e.to_string())?;
    let lanes: Vec<u8> = game.runners.iter().map(|r| r.spot.lane).collect();
    let mut steps = 0;
    while game.outcome().is_none() && steps < 10_000 {
        let orders: Vec<Submitted<Order>> = game
            .pending()
            .seats
            .iter()
            .map(|&s| Submitted::new(s, bot_order(&game, s, level(s.index()), &mut rng)))
            .collect();
        game.apply(&orders);
        steps += 1;
    }
    Ok((lanes, game))
}

/// Races bots: by default players alternate heuristic and random (`--bots` sets the
/// levels), robots follow the robot rules.
pub fn run(args: &SimArgs) -> Result<Summary, String> {
    let (options, n) = sim_setup(args)?;
    let mut summary = Summary {
        races: 0,
        players: n,
        robots: options.robots,
        first_seed: args.seed,
        options: crate::engine::option_text(&options),
        rounds: 0,
        longest: 0,
        by_kind: BTreeMap::new(),
        by_start_lane: BTreeMap::new(),
        winners_strength: 0.0,
    };
    let mut winner_strength = Vec::new();
    let level = |i: usize| args.bots.level(i).unwrap_or(mixed(i));
    for r in 0..args.count {
        let (lanes, game) = race(&options, n, args.seed.wrapping_add(r), &level)?;
        summary.rounds += u64::from(game.round);
        summary.longest = summary.longest.max(game.round);
        for (i, r) in game.runners.iter().enumerate() {
            let kind = if r.robot {
                "robot".to_string()
            } else {
                level(i).name().to_string()
            };
            let medal = r.place.is_some_and(|p| p <= 3);
            let gold = r.place == Some(1);
            if gold && !r.robot {
                winner_strength.push(f64::from(r.strength));
            }
            for t in [
                summary.by_kind.entry(kind).or_default(),
                summary
                    .by_start_lane
                    .entry(lanes.get(i).copied().unwrap_or(0))
                    .or_default(),
            ] {
                t.runners += 1;
                t.gold += u64::from(gold);
                t.medals += u64::from(medal);
            }
        }
        summary.races += 1;
    }
    if !winner_strength.is_empty() {
        summary.winners_strength =
            winner_strength.iter().sum::<f64>() / winner_strength.len() as f64;
    }
    Ok(summary)
}

/// Golds by start lane (`photofinish sim 1500m --by-lane`), against the fair share.
#[derive(Debug, Serialize)]
pub struct LaneTable {
    pub races: u64,
    pub players: usize,
    pub robots: u8,
    pub bots: String,
    pub first_seed: u64,
    pub options: String,
    /// Each start lane's runners, golds and medals.
    pub lanes: BTreeMap<u8, Tally>,
    /// The fair share of golds, in percent: one runner's in `players + robots`.
    pub fair: f64,
}

/// Races bots and counts golds by start lane, with the default mix of bots unless `--bots`
/// says otherwise (the fairness table of docs/rules/1500m.md).
pub fn by_lane(args: &SimArgs) -> Result<LaneTable, String> {
    let (options, n) = sim_setup(args)?;
    let level = |i: usize| args.bots.level(i).unwrap_or(mixed(i));
    let bots: Vec<&str> = (0..n).map(|i| level(i).name()).collect();
    let mut table = LaneTable {
        races: 0,
        players: n,
        robots: options.robots,
        bots: bots.join(","),
        first_seed: args.seed,
        options: crate::engine::option_text(&options),
        lanes: BTreeMap::new(),
        fair: 100.0 / (n + usize::from(options.robots)).max(1) as f64,
    };
    for r in 0..args.count {
        let (lanes, game) = race(&options, n, args.seed.wrapping_add(r), &level)?;
        for (i, runner) in game.runners.iter().enumerate() {
            let t = table
                .lanes
                .entry(lanes.get(i).copied().unwrap_or(0))
                .or_default();
            t.runners += 1;
            t.gold += u64::from(runner.place == Some(1));
            t.medals += u64::from(runner.place.is_some_and(|p| p <= 3));
        }
        table.races += 1;
    }
    Ok(table)
}

impl fmt::Display for LaneTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "1500m golds by start lane: {} races of {} bots ({}) and {} robots (seeds from {})",
            self.races, self.players, self.bots, self.robots, self.first_seed
        )?;
        writeln!(f, "options: {}", self.options)?;
        writeln!(
            f,
            "{:<8} {:>8} {:>7} {:>7} {:>8} {:>8}",
            "lane", "runners", "gold", "gold %", "× fair", "medal %"
        )?;
        for (lane, t) in &self.lanes {
            let share = pct(t.gold, t.runners);
            writeln!(
                f,
                "{:<8} {:>8} {:>7} {:>6.1}% {:>8.2} {:>7.1}%",
                format!("lane {lane}"),
                t.runners,
                t.gold,
                share,
                if self.fair > 0.0 {
                    share / self.fair
                } else {
                    0.0
                },
                pct(t.medals, t.runners)
            )?;
        }
        write!(f, "fair share: {:.1}% of golds for each runner", self.fair)
    }
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "1500m: {} races of {} bots and {} robots (seeds from {})",
            self.races, self.players, self.robots, self.first_seed
        )?;
        writeln!(f, "options: {}", self.options)?;
        writeln!(
            f,
            "rounds per race: {:.1} on average, {} at most",
            if self.races == 0 {
                0.0
            } else {
                self.rounds as f64 / self.races as f64
            },
            self.longest
        )?;
        writeln!(
            f,
            "{:<12} {:>8} {:>7} {:>7} {:>8}",
            "runner", "runners", "gold", "gold %", "medal %"
        )?;
        for (k, t) in &self.by_kind {
            writeln!(
                f,
                "{:<12} {:>8} {:>7} {:>6.1}% {:>7.1}%",
                k,
                t.runners,
                t.gold,
                pct(t.gold, t.runners),
                pct(t.medals, t.runners)
            )?;
        }
        for (lane, t) in &self.by_start_lane {
            writeln!(
                f,
                "{:<12} {:>8} {:>7} {:>6.1}% {:>7.1}%",
                format!("lane {lane}"),
                t.runners,
                t.gold,
                pct(t.gold, t.runners),
                pct(t.medals, t.runners)
            )?;
        }
        write!(
            f,
            "mental strength left by player gold medallists: {:.1}",
            self.winners_strength
        )
    }
}
