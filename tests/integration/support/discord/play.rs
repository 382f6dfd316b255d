//! A whole game played twice: first by the engine alone, to plan every human move and to
//! find a seed in which the situations a test needs arise; then through the real Discord
//! client against the fake Discord, following the plan, with every prompt checked against
//! what the engine said it would be.
//!
//! The plan mirrors the referee: bots order at once with the referee's own random stream
//! (`bot/<step>/<seat>`), a first-of-several window is decided by its first seat that
//! answers, and a missed order is the seat's default.
#![allow(dead_code)]

use std::collections::BTreeMap;

use photofinish::engine::{
    BotLevel, GameRng, Mode, Prompt, Seat, SeatSetup, Seed, Submitted, Window,
};
use photofinish::games::{AnyGame, AnyOrder, GameKind};
use serde_json::{Value, json};

use super::{
    CHANNEL, Harness, INTERACTION_WINDOW, PATIENCE, User, carried_orders, component_for,
    custom_ids, in_channel, is_ephemeral, labels, step_of, text_of,
};

/// The reminder the tests' races set (`reminders=30m`).
pub const REMINDER_SECS: i64 = 1800;

/// How a human answers a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// Presses the button (or picks the menu option) of this order.
    Button(String),
    /// Replies by DM with this text.
    Text(String),
    /// Lets the deadline pass: the default order is played.
    Timeout,
    /// Leaves it to another seat of the same window.
    Ignore,
}

/// What a human does at one step.
#[derive(Clone, Debug)]
pub struct Decision {
    pub how: How,
    /// A standing preference set (by `/race preference`) before answering.
    pub preference: Option<String>,
}

impl Decision {
    pub fn button(order: impl Into<String>) -> Decision {
        Decision {
            how: How::Button(order.into()),
            preference: None,
        }
    }
    pub fn text(order: impl Into<String>) -> Decision {
        Decision {
            how: How::Text(order.into()),
            preference: None,
        }
    }
    pub fn timeout() -> Decision {
        Decision {
            how: How::Timeout,
            preference: None,
        }
    }
    pub fn ignore() -> Decision {
        Decision {
            how: How::Ignore,
            preference: None,
        }
    }
}

/// One planned human move.
#[derive(Clone, Debug)]
pub struct Move {
    pub step: u32,
    pub seat: Seat,
    pub how: How,
    pub preference: Option<String>,
    /// The prompt the engine gives at this step.
    pub prompt: Prompt,
    /// The private view's JSON at this step.
    pub view: Value,
    /// The private view as the DM shows it.
    pub view_text: String,
    /// Seconds to the deadline (for a timeout).
    pub window_secs: i64,
}

/// The game as the engine plays it.
pub struct Plan {
    pub game: AnyGame,
    pub moves: Vec<Move>,
    /// Each step's events, as JSON.
    pub events: Vec<(u32, Vec<Value>)>,
    /// Each step's pending seats and mode.
    pub pendings: Vec<(u32, Mode, Vec<Seat>)>,
    pub steps: u32,
}

impl Plan {
    /// Events of a type (`"type"` field) anywhere in the game, with their step.
    pub fn events_of(&self, kind: &str) -> Vec<(u32, Value)> {
        let mut out = Vec::new();
        for (step, evs) in &self.events {
            for e in evs {
                find_typed(e, kind, &mut |v| out.push((*step, v.clone())));
            }
        }
        out
    }

    pub fn moves_of(&self, seat: Seat) -> Vec<&Move> {
        self.moves.iter().filter(|m| m.seat == seat).collect()
    }
}

fn find_typed(v: &Value, kind: &str, f: &mut impl FnMut(&Value)) {
    match v {
        Value::Object(o) => {
            if o.get("type").and_then(Value::as_str) == Some(kind) {
                f(v);
            }
            for x in o.values() {
                find_typed(x, kind, f);
            }
        }
        Value::Array(a) => {
            for x in a {
                find_typed(x, kind, f);
            }
        }
        _ => {}
    }
}

/// The referee's stream for a bot's order at a step.
fn bot_rng(seed: &Seed, step: u32, seat: Seat) -> GameRng {
    GameRng::from_seed(seed.derive(&format!("bot/{step}/{}", seat.0)))
}

/// Plays a game with the engine alone. `humans` decide through `decide` (given the game,
/// the step, the seat and its prompt; it may set preferences on the game); every other seat
/// is a heuristic bot. `turn_secs` is the race's turn length.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    kind: GameKind,
    options: &str,
    names: &[&str],
    humans: &[Seat],
    lobby_preferences: &[(Seat, &str)],
    seed: &Seed,
    turn_secs: i64,
    max_steps: u32,
    decide: impl FnMut(&mut AnyGame, u32, Seat, &Prompt) -> Decision,
) -> Option<Plan> {
    plan_with(
        kind,
        options,
        names,
        humans,
        lobby_preferences,
        seed,
        turn_secs,
        max_steps,
        false,
        decide,
    )
}

/// [`plan`], with the humans on autopilot `auto` (the default) when `auto` is set: an order
/// autopilot plays (forced, obvious, standing) is played at once and is no move.
#[allow(clippy::too_many_arguments)]
pub fn plan_with(
    kind: GameKind,
    options: &str,
    names: &[&str],
    humans: &[Seat],
    lobby_preferences: &[(Seat, &str)],
    seed: &Seed,
    turn_secs: i64,
    max_steps: u32,
    auto: bool,
    decide: impl FnMut(&mut AnyGame, u32, Seat, &Prompt) -> Decision,
) -> Option<Plan> {
    let options = kind.apply_options(None, options).ok()?;
    let setups: Vec<SeatSetup> = names
        .iter()
        .map(|n| SeatSetup {
            name: n.to_string(),
            choice: None,
        })
        .collect();
    let mut game = kind.setup(&options, &setups, *seed).ok()?;
    for (seat, text) in lobby_preferences {
        game.set_preference(*seat, text).ok()?;
    }
    let mut planner = Planner {
        seed,
        humans,
        decide,
        moves: Vec::new(),
        step: 0,
        window_secs: turn_secs,
        auto,
    };
    let mut events = Vec::new();
    let mut pendings = Vec::new();
    while game.outcome().is_none() {
        if planner.step >= max_steps {
            return None;
        }
        let step = planner.step;
        let pending = game.pending();
        pendings.push((step, pending.mode, pending.seats.clone()));
        planner.window_secs = match pending.window {
            Window::Turn | Window::Decision => turn_secs,
            Window::Seconds(n) => i64::try_from(n.max(1)).unwrap_or(i64::MAX).min(turn_secs),
        };
        let submitted = match pending.mode {
            Mode::All => planner.everyone(&mut game, &pending.seats),
            Mode::Any => planner.first_of(&mut game, &pending.seats)?,
        };
        let evs = game.apply(&submitted);
        events.push((
            step,
            evs.iter()
                .map(|e| serde_json::to_value(e).unwrap_or(Value::Null))
                .collect(),
        ));
        planner.step += 1;
    }
    Some(Plan {
        game,
        moves: planner.moves,
        events,
        pendings,
        steps: planner.step,
    })
}

/// The plan being made: the humans' decisions so far, and the step at hand.
struct Planner<'a, D> {
    seed: &'a Seed,
    humans: &'a [Seat],
    decide: D,
    moves: Vec<Move>,
    step: u32,
    /// Seconds to the deadline of the step at hand.
    window_secs: i64,
    /// The humans are on autopilot `auto`.
    auto: bool,
}

impl<D: FnMut(&mut AnyGame, u32, Seat, &Prompt) -> Decision> Planner<'_, D> {
    fn human(&self, seat: Seat) -> bool {
        self.humans.contains(&seat)
    }

    fn bot(&self, game: &AnyGame, seat: Seat) -> AnyOrder {
        let mut rng = bot_rng(self.seed, self.step, seat);
        game.bot_order(seat, BotLevel::Heuristic, &mut rng)
    }

    /// Every seat orders: humans as they decide (a missed order is the default), bots at once.
    fn everyone(&mut self, game: &mut AnyGame, seats: &[Seat]) -> Vec<Submitted<AnyOrder>> {
        seats
            .iter()
            .map(|&seat| {
                let order = if self.human(seat) {
                    self.chosen(game, seat)
                } else {
                    Some(self.bot(game, seat))
                };
                match order {
                    Some(o) => Submitted::new(seat, o),
                    None => Submitted::missed(seat, game.default_order(seat)),
                }
            })
            .collect()
    }

    /// A first-of-several window: decided by its first seat if a bot, else by the first
    /// human who answers, else missed by the first seat.
    fn first_of(&mut self, game: &mut AnyGame, seats: &[Seat]) -> Option<Vec<Submitted<AnyOrder>>> {
        let first = seats.first().copied()?;
        if !self.human(first) {
            return Some(vec![Submitted::new(first, self.bot(game, first))]);
        }
        let humans: Vec<Seat> = seats.iter().copied().filter(|s| self.human(*s)).collect();
        for seat in humans {
            if let Some(o) = self.chosen(game, seat) {
                return Some(vec![Submitted::new(seat, o)]);
            }
        }
        Some(vec![Submitted::missed(first, game.default_order(first))])
    }

    /// A human's decision at this step, recorded as a move (unless it leaves the window to
    /// another seat); the order it plays, if any.
    fn chosen(&mut self, game: &mut AnyGame, seat: Seat) -> Option<AnyOrder> {
        if self.auto
            && let Some((order, _)) = game.autopilot(seat)
        {
            return Some(order);
        }
        let step = self.step;
        let prompt = game.prompt(seat);
        let private = game.private_view(seat);
        let view = serde_json::to_value(&private).unwrap_or(Value::Null);
        let view_text = photofinish::render::text::private_text(&private);
        let d = (self.decide)(game, step, seat, &prompt);
        if let Some(p) = &d.preference {
            game.set_preference(seat, p)
                .unwrap_or_else(|e| panic!("preference `{p}`: {e}"));
        }
        let order = match &d.how {
            How::Button(o) | How::Text(o) => Some(
                game.read_order(seat, o)
                    .unwrap_or_else(|e| panic!("step {step}: `{o}` for {seat:?}: {e}")),
            ),
            How::Timeout | How::Ignore => None,
        };
        if d.how != How::Ignore {
            self.moves.push(Move {
                step,
                seat,
                how: d.how.clone(),
                preference: d.preference.clone(),
                prompt,
                view,
                view_text,
                window_secs: self.window_secs,
            });
        }
        order
    }
}

/// What happened to each planned move on Discord.
#[derive(Clone, Debug)]
pub struct Played {
    pub mv: Move,
    /// The prompt DM the move answered.
    pub prompt: Value,
    /// The answer: the updated prompt (button), or the receipt DM (text).
    pub answer: Value,
}

/// Waits for the DM prompting `user` at `step`.
pub async fn prompt_for(h: &Harness, user: &User, step: u32) -> Value {
    let what = format!("{}'s prompt for step {step}", user.name);
    h.fake
        .wait_dm_matching(user.id, &what, |m| step_of(m) == Some(step))
        .await
}

/// Follows the plan on Discord: answers each human move as planned, and lets deadlines
/// pass (by the test clock) where the plan misses one. Returns what each move got.
pub async fn follow(h: &Harness, plan: &Plan, users: &BTreeMap<Seat, User>) -> Vec<Played> {
    let mut by_step: BTreeMap<u32, Vec<&Move>> = BTreeMap::new();
    for m in &plan.moves {
        by_step.entry(m.step).or_default().push(m);
    }
    let mut played = Vec::new();
    for (step, moves) in by_step {
        let mut timeout = None;
        for mv in moves {
            let user = &users[&mv.seat];
            let prompt = prompt_for(h, user, step).await;
            // The prompt shows the seat's own view, and offers what the engine offers: a
            // component for every choice.
            assert!(
                text_of(&prompt).contains(&mv.view_text),
                "step {step}: {}'s prompt does not show their view `{}`: {}",
                user.name,
                mv.view_text,
                text_of(&prompt)
            );
            let carried = carried_orders(&prompt, &mv.prompt);
            for ch in &mv.prompt.choices {
                assert!(
                    carried.contains(&ch.order),
                    "step {step}: `{}` has no component in {}'s prompt: {prompt}",
                    ch.order,
                    user.name
                );
            }
            if let Some(p) = &mv.preference {
                let a = h.slash(user, "preference", &[("text", json!(p))]).await;
                assert!(is_ephemeral(&a));
                assert!(
                    text_of(&a).contains("Policy set") || text_of(&a).contains("Preference"),
                    "{a}"
                );
            }
            match &mv.how {
                How::Button(order) => {
                    let index = mv.prompt.choices.iter().position(|c| c.order == *order);
                    let (id, value) = component_for(&prompt, order, index).unwrap_or_else(|| {
                        panic!("step {step}: no component for `{order}` in {prompt}")
                    });
                    let iid = match value {
                        None => h.fake.click(user, &prompt, &id),
                        Some(v) => h.fake.select(user, &prompt, &id, &v),
                    };
                    let answer = h.fake.response(iid).await;
                    let t = text_of(&answer);
                    assert!(
                        t.contains("Order received") || t.contains("Order changed"),
                        "step {step}: {} pressed `{order}`: {answer}",
                        user.name
                    );
                    played.push(Played {
                        mv: mv.clone(),
                        prompt,
                        answer,
                    });
                }
                How::Text(order) => {
                    let n = h.fake.dms_to(user.id).len();
                    h.fake.dm(user, order);
                    let answer = dm_after(h, user, n, |m| {
                        text_of(m).contains("Order received")
                            && text_of(m).contains(&format!("`{order}`"))
                    })
                    .await;
                    played.push(Played {
                        mv: mv.clone(),
                        prompt,
                        answer,
                    });
                }
                How::Timeout => {
                    timeout = Some(mv.window_secs);
                    played.push(Played {
                        mv: mv.clone(),
                        prompt,
                        answer: Value::Null,
                    });
                }
                How::Ignore => {}
            }
        }
        if let Some(secs) = timeout {
            h.settle().await;
            // Past the races' 30-minute reminder first (when the window has one), then
            // past the deadline.
            if secs > REMINDER_SECS {
                h.advance(secs - REMINDER_SECS + 1);
                h.settle().await;
                h.advance(REMINDER_SECS);
            } else {
                h.advance(secs + 1);
            }
        }
    }
    played
}

/// Waits for a DM to `user`, after the first `n`, that matches `f`.
pub async fn dm_after(h: &Harness, user: &User, n: usize, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        if let Some(m) = h.fake.dms_to(user.id).into_iter().skip(n).find(|m| f(m)) {
            return m;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for a DM to {}: {:#?}",
            user.name,
            h.fake
                .dms_to(user.id)
                .iter()
                .skip(n)
                .map(text_of)
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Waits for the race's final result post.
pub async fn final_result(h: &Harness) -> Value {
    h.fake
        .wait_message("the final result", |m| {
            in_channel(m) && text_of(m).contains("final result")
        })
        .await
}

/// Puts a chosen seed (and its commitment) on a race still in its lobby, as the store's
/// own tests do: the test then knows every shuffle and roll in advance.
pub async fn fix_seed(h: &Harness, race: i64, seed: &Seed) {
    let url = format!("sqlite://{}", h.db().display());
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let done = // A write behind the referee's back bumps the version, or its cache would not see it.
    sqlx::query("UPDATE campaigns SET seed = ?, commitment = ?, version = version + 1 WHERE id = ?")
        .bind(seed.to_hex())
        .bind(seed.commitment())
        .bind(race)
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(done.rows_affected(), 1);
    pool.close().await;
}

/// Channel posts (embeds' text) in order.
pub fn channel_texts(h: &Harness) -> Vec<String> {
    h.fake.messages_in(CHANNEL).iter().map(text_of).collect()
}

/// Nothing the bot sent broke Discord's limits, and every interaction was answered in time.
pub fn assert_discord_was_happy(h: &Harness) {
    assert!(h.fake.refusals().is_empty(), "{:#?}", h.fake.refusals());
    for r in h.fake.requests() {
        if let Some(id) = r
            .path
            .strip_prefix("/interactions/")
            .and_then(|p| p.split('/').next())
            .and_then(|i| i.parse::<u64>().ok())
        {
            // On the fake's clock, which the test moves: answered before its 3 seconds.
            let took = h.fake.ack_time(id).unwrap();
            assert!(took < INTERACTION_WINDOW, "interaction {id} took {took:?}");
        }
    }
}

/// `PHOTOFINISH_DUMP_POSTS=FILE` writes every message the bot sent, for docs/discord.md.
pub fn dump_posts(h: &Harness, users: &[&User]) {
    let Ok(path) = std::env::var("PHOTOFINISH_DUMP_POSTS") else {
        return;
    };
    let mut out = String::new();
    for m in h.fake.messages() {
        let to = if in_channel(&m) {
            "channel".to_string()
        } else {
            users
                .iter()
                .find(|u| {
                    h.fake.dm_channel(u.id).map(|c| c.to_string())
                        == m["channel_id"].as_str().map(String::from)
                })
                .map(|u| format!("DM to {}", u.name))
                .unwrap_or_default()
        };
        out.push_str(&format!(
            "----- {to} (flags {}) components {:?} ids {:?}\n{}\n",
            m["flags"],
            labels(&m),
            custom_ids(&m),
            text_of(&m)
        ));
    }
    std::fs::write(path, out).unwrap();
}
