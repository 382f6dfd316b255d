//! The generic random-simulation test every game passes, in the style of OpenSpiel's
//! `random_sim_test`: thousands of seeded games in which every step checks the contract's
//! invariants, run once for each game from its own tests.

use serde::Serialize;

use super::bot_order;
use super::{
    BotLevel, Bots, Game, GameRng, Mode, Pending, Presentation, Seat, SeatSetup, Seed, Submitted,
    read_order,
};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimSpec<G: Game> {
    pub options: G::Options,
    pub seats: Vec<SeatSetup>,
    /// How many games, with seeds `first_seed..first_seed + games`.
    pub games: u64,
    pub first_seed: u64,
    /// A game that takes more steps than this has failed to end.
    pub max_steps: usize,
    /// Chance, in percent, that a pending seat misses its deadline.
    pub miss_percent: u32,
    /// Resample hidden information and compare views every this many steps (0: never).
    pub view_check_every: usize,
}

impl<G: Game> SimSpec<G> {
    /// A spec with sensible defaults for `n` seats named P1..Pn.
    pub fn new(options: G::Options, n: usize, games: u64) -> SimSpec<G> {
        SimSpec {
            options,
            seats: (1..=n).map(|i| SeatSetup::named(format!("P{i}"))).collect(),
            games,
            first_seed: 0,
            max_steps: 10_000,
            miss_percent: 10,
            view_check_every: 1,
        }
    }
}

/// What the simulation saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimReport {
    pub games: u64,
    pub steps: u64,
    pub longest: usize,
    pub wins_by_seat: Vec<u64>,
}

/// A broken invariant, with the seed and step that reproduce it.
#[derive(Debug, thiserror::Error)]
#[error("seed {seed}, step {step}: {problem}")]
pub struct Violation {
    pub seed: u64,
    pub step: usize,
    pub problem: String,
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("<unserialisable: {e}>"))
}

/// Runs the simulation and returns the first violation, if any.
pub fn check<G: Bots + Presentation>(spec: &SimSpec<G>) -> Result<SimReport, Violation> {
    let mut report = SimReport {
        wins_by_seat: vec![0; spec.seats.len()],
        ..SimReport::default()
    };
    for n in spec.first_seed..spec.first_seed + spec.games {
        let (steps, winners) = one_game(spec, n)?;
        report.games += 1;
        report.steps += steps as u64;
        report.longest = report.longest.max(steps);
        for w in winners {
            if let Some(slot) = report.wins_by_seat.get_mut(w.index()) {
                *slot += 1;
            }
        }
    }
    Ok(report)
}

type Log<G> = Vec<Vec<Submitted<<G as Game>::Order>>>;

fn one_game<G: Bots + Presentation>(
    spec: &SimSpec<G>,
    n: u64,
) -> Result<(usize, Vec<Seat>), Violation> {
    let fail = |step: usize, problem: String| Violation {
        seed: n,
        step,
        problem,
    };
    let seed = Seed::from_u64(n);
    let mut game = G::setup(&spec.options, &spec.seats, seed)
        .map_err(|e| fail(0, format!("setup failed: {e}")))?;
    let again = G::setup(&spec.options, &spec.seats, seed)
        .map_err(|e| fail(0, format!("second setup failed: {e}")))?;
    if json(&game) != json(&again) {
        return Err(fail(0, "the same seed gave two different setups".into()));
    }
    let mut rng = GameRng::from_seed(seed.derive("conformance"));
    let mut log: Log<G> = Vec::new();
    let mut events = Vec::new();
    let mut step = 0;
    loop {
        check_state(&game).map_err(|p| fail(step, p))?;
        if spec.view_check_every > 0 && step % spec.view_check_every == 0 {
            check_views(&game, spec.seats.len(), &mut rng).map_err(|p| fail(step, p))?;
        }
        if game.outcome().is_some() {
            break;
        }
        if step >= spec.max_steps {
            return Err(fail(
                step,
                format!("the game did not end within {} steps", spec.max_steps),
            ));
        }
        let pending = game.pending();
        for &seat in &pending.seats {
            check_orders(&game, seat, &mut rng).map_err(|p| fail(step, p))?;
        }
        let orders = choose_orders(&game, &pending, spec.miss_percent, &mut rng);
        if spec.view_check_every > 0 && step % spec.view_check_every == 0 {
            check_resampled_step(&game, &orders, &mut rng).map_err(|p| fail(step, p))?;
        }
        let new_events = game.apply(&orders);
        let _ = game.narrate_all(&new_events);
        events.extend(new_events);
        log.push(orders);
        step += 1;
    }
    // The same seed and the same orders give the same game.
    let mut replay = G::setup(&spec.options, &spec.seats, seed)
        .map_err(|e| fail(step, format!("replay setup failed: {e}")))?;
    let mut replay_events = Vec::new();
    for orders in &log {
        replay_events.extend(replay.apply(orders));
    }
    if json(&replay) != json(&game) || replay_events != events {
        return Err(fail(step, "replaying the log gave a different game".into()));
    }
    let outcome = game
        .outcome()
        .unwrap_or_else(|| super::Outcome { placings: vec![] });
    check_outcome(&outcome, spec.seats.len()).map_err(|p| fail(step, p))?;
    Ok((step, outcome.winners()))
}

/// Plays `steps` steps (fewer if the game ends) on every pending seat's default order,
/// the first pending seat's alone where the first to decide takes it: a game's own tests
/// reach a mid-game state with it.
pub fn play_defaults<G: Game>(game: &mut G, steps: usize) {
    for _ in 0..steps {
        let pending = game.pending();
        if pending.is_empty() {
            return;
        }
        let seats = match pending.mode {
            Mode::All => pending.seats.clone(),
            Mode::Any => pending.seats.iter().take(1).copied().collect(),
        };
        let orders: Vec<Submitted<G::Order>> = seats
            .into_iter()
            .map(|s| Submitted::new(s, game.default_order(s)))
            .collect();
        game.apply(&orders);
    }
}

fn check_state<G: Game>(game: &G) -> Result<(), String> {
    let text = serde_json::to_string(game).map_err(|e| format!("state does not serialise: {e}"))?;
    let back: G =
        serde_json::from_str(&text).map_err(|e| format!("state does not deserialise: {e}"))?;
    if &back != game || json(&back) != text {
        return Err("state changed in a serde round trip".into());
    }
    game.check()
        .map_err(|e| format!("a state play reached fails its check: {e}"))?;
    let pending = game.pending();
    match (pending.is_empty(), game.outcome().is_some()) {
        (true, false) => return Err("nobody must act, yet the game is not over".into()),
        (false, true) => {
            return Err(format!(
                "the game is over, yet {:?} must act",
                pending.seats
            ));
        }
        _ => {}
    }
    let mut seen = pending.seats.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != pending.seats.len() {
        return Err("a seat is listed twice as pending".into());
    }
    Ok(())
}

fn check_one_order<G: Game>(
    game: &G,
    seat: Seat,
    order: &G::Order,
    what: &str,
) -> Result<(), String> {
    game.validate(seat, order)
        .map_err(|e| format!("{what} for {seat} is illegal: {e} ({order:?})"))?;
    let text = game.format_order(seat, order);
    let back = read_order(game, seat, &text)
        .map_err(|e| format!("{what} for {seat} does not read back from {text:?}: {e}"))?;
    if &back != order {
        return Err(format!(
            "{what} for {seat}: {text:?} reads back as {back:?}, not {order:?}"
        ));
    }
    Ok(())
}

fn check_orders<G: Bots>(game: &G, seat: Seat, rng: &mut GameRng) -> Result<(), String> {
    let prompt = game.prompt(seat);
    if prompt.complete && prompt.choices.is_empty() {
        return Err(format!("{seat} must act but has no choice"));
    }
    for choice in &prompt.choices {
        let order = read_order(game, seat, &choice.order).map_err(|e| {
            format!(
                "prompt choice {:?} for {seat} is refused: {e}",
                choice.order
            )
        })?;
        check_one_order(game, seat, &order, "a prompt choice")?;
    }
    check_one_order(game, seat, &game.default_order(seat), "the default order")?;
    check_one_order(game, seat, &game.random_order(seat, rng), "a random order")?;
    check_one_order(
        game,
        seat,
        &bot_order(game, seat, BotLevel::Heuristic, rng),
        "the heuristic bot's order",
    )?;
    Ok(())
}

fn check_views<G: Game>(game: &G, seats: usize, rng: &mut GameRng) -> Result<(), String> {
    let public = game.public_view();
    let other = game.resample_hidden(None, rng).public_view();
    if public != other {
        return Err(format!(
            "the public view depends on hidden information:\n{}\nvs\n{}",
            json(&public),
            json(&other)
        ));
    }
    for seat in Seat::all(seats) {
        let mine = game.private_view(seat);
        let theirs = game.resample_hidden(Some(seat), rng).private_view(seat);
        if mine != theirs {
            return Err(format!(
                "{seat}'s private view depends on what {seat} cannot see"
            ));
        }
        check_redraw_is_blind(game, seat, rng)?;
    }
    Ok(())
}

/// A redraw depends only on what the viewer knows: redrawing from a state the viewer
/// cannot tell apart gives the same world. The expert bot cannot peek because of this.
fn check_redraw_is_blind<G: Game>(game: &G, seat: Seat, rng: &mut GameRng) -> Result<(), String> {
    let twin = game.resample_hidden(Some(seat), rng);
    let mut a = rng.clone();
    let mut b = rng.clone();
    rng.next_u64();
    if game.resample_hidden(Some(seat), &mut a) != twin.resample_hidden(Some(seat), &mut b) {
        return Err(format!(
            "redrawing what {seat} cannot see depends on more than {seat} knows"
        ));
    }
    Ok(())
}

/// The public half of a step cannot depend on what the public cannot see. A twin whose
/// hidden information is redrawn from the public's side (`resample_hidden(None, …)`) has
/// the same `pending()`; and the events the step produces, narrated by the state after the
/// step and by its publicly resampled twin, read the same wherever the audience is public.
///
/// Rule: the events are the real step's, not the twin's. Applying the orders to a twin
/// resampled before the step legitimately differs in every game with hidden cards: a
/// coup fourré comes from a hidden hand, movement cards and powers are drawn from a hidden
/// deck, and the step reveals them. What must not happen is a public sentence that reads
/// hidden state beyond what its event carries.
fn check_resampled_step<G: Presentation>(
    game: &G,
    orders: &[Submitted<G::Order>],
    rng: &mut GameRng,
) -> Result<(), String> {
    let twin = game.resample_hidden(None, rng);
    if twin.pending() != game.pending() {
        return Err(format!(
            "pending() depends on hidden information: {:?} vs {:?}",
            game.pending(),
            twin.pending()
        ));
    }
    let mut after = game.clone();
    let events = after.apply(orders);
    let twin_after = after.resample_hidden(None, rng);
    if twin_after.pending() != after.pending() {
        return Err(format!(
            "pending() after the step depends on hidden information: {:?} vs {:?}",
            after.pending(),
            twin_after.pending()
        ));
    }
    let public = |g: &G| -> Vec<String> {
        events
            .iter()
            .map(|e| g.narrate(e))
            .filter(|n| n.audience == super::Audience::Public && !n.text.is_empty())
            .map(|n| n.text)
            .collect()
    };
    let (said, twin_said) = (public(&after), public(&twin_after));
    if said != twin_said {
        return Err(format!(
            "the public narration depends on hidden information:\n{said:?}\nvs\n{twin_said:?}"
        ));
    }
    Ok(())
}

fn choose_orders<G: Bots>(
    game: &G,
    pending: &Pending,
    miss_percent: u32,
    rng: &mut GameRng,
) -> Vec<Submitted<G::Order>> {
    let pick = |seat: Seat, rng: &mut GameRng| {
        if rng.chance(miss_percent, 100) {
            Submitted::missed(seat, game.default_order(seat))
        } else if rng.chance(1, 2) {
            Submitted::new(seat, game.random_order(seat, rng))
        } else {
            Submitted::new(seat, bot_order(game, seat, BotLevel::Heuristic, rng))
        }
    };
    match pending.mode {
        Mode::All => pending.seats.iter().map(|&s| pick(s, rng)).collect(),
        Mode::Any => {
            let seat = *rng.choose(&pending.seats).unwrap_or(&Seat(0));
            vec![pick(seat, rng)]
        }
    }
}

fn check_outcome(outcome: &super::Outcome, seats: usize) -> Result<(), String> {
    let mut listed: Vec<Seat> = outcome.placings.iter().map(|p| p.seat).collect();
    listed.sort();
    if listed != Seat::all(seats).collect::<Vec<_>>() {
        return Err(format!(
            "the outcome does not place every seat once: {listed:?}"
        ));
    }
    for p in &outcome.placings {
        let ahead = outcome.placings.iter().filter(|q| q.rank < p.rank).count() as u32;
        if p.rank != ahead + 1 {
            return Err(format!(
                "{} has rank {} with {} ahead",
                p.seat, p.rank, ahead
            ));
        }
    }
    if outcome.winners().is_empty() {
        return Err("nobody won".into());
    }
    Ok(())
}
