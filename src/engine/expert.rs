//! The expert bot ([`BotLevel::Expert`](super::BotLevel)): decides by simulation, as the
//! engines are fast enough to play whole games in microseconds.
//!
//! It is determinized Monte Carlo. The seat's own view is fixed by one
//! [`resample_hidden`](super::Game::resample_hidden); each "world" then redraws everything
//! the seat cannot see (hands, deck order, future dice). Every candidate order is played
//! in the same worlds (common random numbers, so candidates are compared on equal luck),
//! the game is played out with heuristic bots for every seat, and the candidate with the
//! best average result wins, but only if it beats the heuristic's own order (tried first)
//! by more than twice the standard error of their paired difference: with few worlds,
//! noise would otherwise pick a worse order than the heuristic.
//!
//! The bot reads the real state only through that first resampling, so it cannot peek:
//! the tests below redraw everything hidden and check the decision does not change.
//!
//! A playout stops where the game says its result is already told
//! ([`Bots::playout_value`]: the card races stop at the end of the hand and score the
//! totals), since the rest of a long game is mostly luck and buys few worlds.
//!
//! Cost is counted in bot orders played, never in time, so a decision replays identically
//! on any machine; a step where eight runners move at once costs eight, as it costs eight
//! heuristic decisions. Worlds stop once the orders actually played reach the budget, and
//! a world that runs past it is dropped, so a decision plays at most one playout past its
//! budget. The knob is [`Budget::steps`]: each game's default ([`Bots::EXPERT_STEPS`],
//! through [`Budget::for_game`]) is sized for at most 50 ms a decision in a release build
//! on one core, measured (docs/performance.md, "Expert bot").

use std::cell::Cell;

use super::game::Bots;
use super::outcome::Outcome;
use super::pending::Submitted;
use super::rng::GameRng;
use super::seat::Seat;

thread_local! {
    /// Bot orders this thread's expert decisions have played, for `sim` to report.
    static PLAYED: Cell<u64> = const { Cell::new(0) };
}

/// Bot orders played by this thread's expert decisions so far (the cost the budget
/// counts), so `sim` can report the steps a decision took beside its time.
pub fn steps_played() -> u64 {
    PLAYED.with(Cell::get)
}

fn record(steps: u64) {
    PLAYED.with(|p| p.set(p.get().saturating_add(steps)));
}

/// How much the expert may simulate for one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bot orders played in playouts (a step of eight simultaneous orders counts eight),
    /// shared by all candidates and worlds.
    pub steps: u64,
    /// At most this many candidate orders are compared.
    pub candidates: usize,
    /// At least and at most this many worlds.
    pub min_worlds: u32,
    pub max_worlds: u32,
    /// A playout longer than this many steps is cut off (it scores as last place).
    pub max_playout: u32,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            steps: 20_000,
            candidates: 16,
            min_worlds: 4,
            max_worlds: 64,
            max_playout: 3_000,
        }
    }
}

impl Budget {
    /// The default budget for game `G`: its own step budget ([`Bots::EXPERT_STEPS`]), as a
    /// bot order costs far more in some games than in others.
    pub fn for_game<G: Bots>() -> Budget {
        Budget {
            steps: G::EXPERT_STEPS,
            ..Budget::default()
        }
    }
}

/// The expert's order for `seat` with its game's default budget. Always legal.
pub fn choose<G: Bots>(game: &G, seat: Seat, rng: &mut GameRng) -> G::Order {
    choose_with(game, seat, rng, &Budget::for_game::<G>())
}

/// The expert's order for `seat` within `budget`. Always legal.
pub fn choose_with<G: Bots>(game: &G, seat: Seat, rng: &mut GameRng, budget: &Budget) -> G::Order {
    // Everything below reads `seen`, never `game`, except the final legality check.
    let seen = game.resample_hidden(Some(seat), rng);
    decide(game, &seen, seat, rng, budget, Sight::Fair)
}

/// A cheat, for measurement only: the expert's search run on the real state, so it sees
/// every hand, the deck order and the game's own dice, and plays each candidate out to the
/// end of the game. `sim --bots omniscient,…` and the no-peeking test's cheating bot use it
/// to show how far a game's luck caps any bot; no play path calls it
/// ([`bot_order`](super::bot_order) calls [`choose`]). One world: the card races' heuristic draws no
/// dice, so a second world would replay the first.
pub fn omniscient_choose_cheat<G: Bots>(game: &G, seat: Seat, rng: &mut GameRng) -> G::Order {
    let budget = Budget {
        steps: u64::MAX,
        min_worlds: 1,
        max_worlds: 1,
        ..Budget::default()
    };
    decide(game, game, seat, rng, &budget, Sight::Omniscient)
}

/// A cheat, for measurement only: the fair expert's search, but every world keeps the
/// opponents' true hands and redraws only the deck and future shuffles
/// ([`Bots::resample_deck_cheat`]). Its win rate bounds what any inference about the
/// opponents' hands could give the fair expert. `sim --bots handpeek,…` only; no play
/// path calls it.
pub fn handpeek_choose_cheat<G: Bots>(game: &G, seat: Seat, rng: &mut GameRng) -> G::Order {
    let seen = game.resample_deck_cheat(seat, rng);
    decide(
        game,
        &seen,
        seat,
        rng,
        &Budget::for_game::<G>(),
        Sight::HandPeek,
    )
}

/// Whether worlds redraw what the seat cannot see. Only a measurement builds a cheat
/// ([`omniscient_choose_cheat`], [`handpeek_choose_cheat`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sight {
    Fair,
    /// Hands seen, the deck redrawn.
    HandPeek,
    Omniscient,
}

impl Sight {
    /// One world: `seen` with what this sight does not see drawn again.
    fn redraw<G: Bots>(self, seen: &G, seat: Seat, rng: &mut GameRng) -> G {
        match self {
            Sight::Fair => seen.resample_hidden(Some(seat), rng),
            Sight::HandPeek => seen.resample_deck_cheat(seat, rng),
            Sight::Omniscient => seen.clone(),
        }
    }
}

fn decide<G: Bots>(
    game: &G,
    seen: &G,
    seat: Seat,
    rng: &mut GameRng,
    budget: &Budget,
    sight: Sight,
) -> G::Order {
    let mut candidates: Vec<G::Order> = candidates(seen, seat, rng, budget.candidates)
        .into_iter()
        .filter(|o| game.validate(seat, o).is_ok())
        .collect();
    let Some(first) = candidates.first().cloned() else {
        return game.default_order(seat);
    };
    if candidates.len() == 1 {
        return first;
    }
    let valued = sight != Sight::Omniscient;
    let mut spent = Spent::new(budget.steps);
    // One pilot playout sizes the search: as many candidates as fit `min_worlds` worlds.
    let pilot = pilot_steps(seen, seat, rng, budget, sight);
    spent.add(pilot);
    let per_playout = pilot.max(1);
    let fit = spent.left() / per_playout.saturating_mul(u64::from(budget.min_worlds.max(1)));
    let keep = usize::try_from(fit)
        .unwrap_or(usize::MAX)
        .clamp(2, candidates.len());
    candidates.truncate(keep);
    // Per candidate: the sum of its result less the heuristic's in the same world, and of
    // that difference squared, so a candidate replaces the heuristic's order only when it is
    // better by more than the noise of so few worlds.
    let mut diffs = vec![(0.0f64, 0.0f64); candidates.len()];
    let mut worlds: u32 = 0;
    let mut results: Vec<f64> = Vec::with_capacity(candidates.len());
    'worlds: while worlds < budget.max_worlds.max(1) {
        // Worlds stop once the steps actually spent reach the budget, or once the next
        // world, at the mean cost of those played, would pass it: the pilot is one sample.
        let next = spent.per_world(worlds, per_playout.saturating_mul(candidates.len() as u64));
        if spent.left() < next && worlds >= budget.min_worlds.min(2) {
            break;
        }
        let world = sight.redraw(seen, seat, rng);
        let dice = rng.fork();
        results.clear();
        for order in &candidates {
            // A world that runs past the budget is dropped whole: the cost stays bounded.
            if spent.over() {
                break 'worlds;
            }
            let mut w = world.clone();
            let mut bots = dice.clone();
            let (value, cost) = playout(&world, &mut w, seat, order, &mut bots, budget, valued);
            spent.add(u64::from(cost));
            results.push(value);
        }
        spent.world_done();
        let base = results.first().copied().unwrap_or(0.0);
        for (d, r) in diffs.iter_mut().zip(&results) {
            d.0 += r - base;
            d.1 += (r - base) * (r - base);
        }
        worlds += 1;
    }
    record(spent.total);
    if worlds == 0 || worlds < budget.min_worlds.min(2) {
        // One world of luck tells no noise from signal: keep the heuristic's order.
        return first;
    }
    let n = f64::from(worlds);
    let mut best = 0;
    let mut best_mean = 0.0;
    for (i, (sum, squares)) in diffs.iter().enumerate() {
        let mean = sum / n;
        let spread = (squares / n - mean * mean).max(0.0);
        let error = (spread / n).sqrt();
        if mean > best_mean && mean > 2.0 * error {
            best = i;
            best_mean = mean;
        }
    }
    candidates.get(best).cloned().unwrap_or(first)
}

/// The bot orders one decision has played, against its budget.
struct Spent {
    budget: u64,
    total: u64,
    /// Spent when the last whole world ended, and before the first.
    at_world: u64,
    first_world: u64,
}

impl Spent {
    fn new(budget: u64) -> Spent {
        Spent {
            budget,
            total: 0,
            at_world: 0,
            first_world: 0,
        }
    }

    fn add(&mut self, steps: u64) {
        self.total = self.total.saturating_add(steps);
    }

    fn left(&self) -> u64 {
        self.budget.saturating_sub(self.total)
    }

    fn over(&self) -> bool {
        self.total >= self.budget
    }

    fn world_done(&mut self) {
        self.at_world = self.total;
    }

    /// The expected cost of the next world: the mean of those played, or `guess` before any.
    fn per_world(&mut self, worlds: u32, guess: u64) -> u64 {
        if worlds == 0 {
            self.first_world = self.total;
            return guess;
        }
        self.at_world.saturating_sub(self.first_world) / u64::from(worlds)
    }
}

/// The bot orders of one playout of the heuristic's own order, as a guess of a playout's.
fn pilot_steps<G: Bots>(
    seen: &G,
    seat: Seat,
    rng: &mut GameRng,
    budget: &Budget,
    sight: Sight,
) -> u64 {
    let valued = sight != Sight::Omniscient;
    let start = match sight {
        // The omniscient pilot plays a fair world, as it always has: its draws are kept.
        Sight::Omniscient => Sight::Fair.redraw(seen, seat, rng),
        _ => sight.redraw(seen, seat, rng),
    };
    let mut pilot = start.clone();
    let mut bots = rng.fork();
    let order = pilot.heuristic_order(seat, &mut bots);
    let (_, steps) = playout(&start, &mut pilot, seat, &order, &mut bots, budget, valued);
    u64::from(steps)
}

/// The orders worth comparing: the heuristic's, the game's own variations
/// ([`Bots::expert_candidates`]), the default, then what the prompt offers,
/// then (if the prompt cannot list every order) random legal ones. No repeats.
fn candidates<G: Bots>(seen: &G, seat: Seat, rng: &mut GameRng, cap: usize) -> Vec<G::Order> {
    let mut out: Vec<G::Order> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    let mut push = |order: G::Order, out: &mut Vec<G::Order>| {
        let text = seen.format_order(seat, &order);
        if out.len() < cap && !texts.contains(&text) && seen.validate(seat, &order).is_ok() {
            texts.push(text);
            out.push(order);
        }
    };
    let mut bots = rng.fork();
    push(seen.heuristic_order(seat, &mut bots), &mut out);
    for order in seen.expert_candidates(seat, &mut bots) {
        push(order, &mut out);
    }
    push(seen.default_order(seat), &mut out);
    let prompt = seen.prompt(seat);
    for choice in &prompt.choices {
        if let Ok(order) = seen.parse_order(seat, &choice.order) {
            push(order, &mut out);
        }
    }
    if !prompt.complete {
        for _ in 0..cap {
            push(seen.random_order(seat, rng), &mut out);
        }
    }
    out
}

/// Plays `first` for `seat` in `w` (a copy of `start`), then heuristic bots for everyone
/// to the end, or (if `valued`) until the game values the state ([`Bots::playout_value`]).
/// Returns the seat's result and the bot orders it took.
fn playout<G: Bots>(
    start: &G,
    w: &mut G,
    seat: Seat,
    first: &G::Order,
    bots: &mut GameRng,
    budget: &Budget,
    valued: bool,
) -> (f64, u32) {
    let max_steps = budget.max_playout;
    let pending = w.pending();
    let orders: Vec<Submitted<G::Order>> = pending
        .seats
        .iter()
        .map(|&s| {
            let order = if s == seat {
                first.clone()
            } else {
                w.heuristic_order(s, bots)
            };
            Submitted::new(s, order)
        })
        .collect();
    w.apply(&orders);
    let mut work = u32::try_from(orders.len()).unwrap_or(u32::MAX);
    let mut steps = 1;
    while steps < max_steps {
        if let Some(outcome) = w.outcome() {
            return (utility(&outcome, seat), work);
        }
        if let Some(value) = w.playout_value(start, seat).filter(|_| valued) {
            return (value.clamp(0.0, 1.0), work);
        }
        let pending = w.pending();
        if pending.seats.is_empty() {
            break;
        }
        let orders: Vec<Submitted<G::Order>> = pending
            .seats
            .iter()
            .map(|&s| Submitted::new(s, w.heuristic_order(s, bots)))
            .collect();
        w.apply(&orders);
        work = work.saturating_add(u32::try_from(orders.len()).unwrap_or(u32::MAX));
        steps += 1;
    }
    (w.outcome().map_or(0.0, |o| utility(&o, seat)), work)
}

/// Winning is what counts; a better place breaks ties between orders that win equally
/// often.
fn utility(outcome: &Outcome, seat: Seat) -> f64 {
    let n = outcome.placings.len().max(1) as f64;
    match outcome.rank_of(seat) {
        Some(1) => 1.0,
        Some(rank) => 0.01 * (n - f64::from(rank)).max(0.0) / n,
        None => 0.0,
    }
}

/// The no-peeking check, generic over games: a decision must not change when everything
/// the seat cannot see is redrawn. Returns the first state where it did.
#[cfg(test)]
pub(crate) fn peeks<G: Bots>(
    game: &G,
    seat: Seat,
    seed: u64,
    budget: &Budget,
    cheat: bool,
) -> Option<(String, String)> {
    let decide_on = |g: &G| {
        let mut rng = GameRng::seeded(seed);
        let order = if cheat {
            // A bot that cheats: it plays out the real state, hands and dice.
            decide(g, g, seat, &mut rng, budget, Sight::Omniscient)
        } else {
            choose_with(g, seat, &mut rng, budget)
        };
        g.format_order(seat, &order)
    };
    let redrawn = game.resample_hidden(Some(seat), &mut GameRng::seeded(seed ^ 0x5eed));
    let (a, b) = (decide_on(game), decide_on(&redrawn));
    (a != b).then_some((a, b))
}
