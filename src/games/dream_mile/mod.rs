//! Dream Mile: a middle-distance race of secret speed points (rules and the project's
//! rulings in docs/rules/dream-mile.md).
//!
//! Seven turns of secret simultaneous orders, then an automatic eighth. The state owns the
//! field (position groups, front to back) and each runner's points; [`adjudicate`] owns the
//! tie and overtaking rules.

pub use crate::games::words::join_and;
use crate::games::words::{agree, join_units};
pub mod adjudicate;
mod check;
mod options;
pub mod replay;
pub mod sim;

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{
    Bots, Choice, Game, GameRng, Narration, OptionDoc, OptionsError, Outcome, Pending, Placing,
    Preferences, Presentation, Prompt, Seat, SeatSetup, Seed, SetupError, StateError, Submitted,
};
use adjudicate::{Adjudication, Overtake, TieBreak, adjudicate};
use options::OPTION_DOCS;
pub use options::{Options, max_speed_menu};

/// The most runners in a race.
pub const MAX_RUNNERS: usize = 12;

/// One runner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    pub name: String,
    pub max_speed: u8,
    pub remaining: u32,
    /// Speed played in the last resolved turn.
    pub last_played: Option<u8>,
    /// Whether the last resolved turn's order was missed.
    pub last_missed: bool,
}

impl Runner {
    /// The most this runner may play: the maximum, or the points left if fewer.
    fn cap(&self) -> u8 {
        u32::from(self.max_speed).min(self.remaining) as u8
    }

    /// The speed played for a missed order: one more than last turn, capped.
    fn missed_speed(&self) -> u8 {
        self.last_played
            .unwrap_or(0)
            .saturating_add(1)
            .min(self.cap())
    }
}

/// A typed order: the speed points to play this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Speed(pub u8);

/// Order text that is not a speed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("the order is empty; send a number of speed points, like 7")]
    Empty,
    #[error("`{0}` is not a number of speed points; send a whole number, like 7")]
    NotANumber(String),
    #[error("you can't play fewer than 0 speed points; send a whole number from 0 to {cap}")]
    Negative { cap: u8 },
    #[error("{text} is above your maximum speed of {max}; send a whole number from 0 to {cap}")]
    TooBig { text: String, max: u8, cap: u8 },
}

/// A speed that is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalOrder {
    #[error("{speed} is above your maximum speed of {max}")]
    AboveMaximum { speed: u8, max: u8 },
    #[error("{speed} is more than the {remaining} speed {} you have left", points_word(.remaining))]
    AboveRemaining { speed: u8, remaining: u32 },
    #[error("you have no speed points left, so you can only play 0")]
    NothingLeft,
    #[error("the race is over")]
    RaceOver,
}

/// "point" or "points".
fn points_word(n: &u32) -> &'static str {
    if *n == 1 { "point" } else { "points" }
}

/// One runner's play in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    pub seat: Seat,
    pub speed: u8,
    pub missed: bool,
    /// True on the automatic last turn.
    pub automatic: bool,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    TurnResolved {
        turn: u8,
        /// Every runner's play, by seat.
        plays: Vec<Play>,
        tie_breaks: Vec<TieBreak>,
        overtakes: Vec<Overtake>,
        /// The field after the turn, front to back.
        field: Vec<Vec<Seat>>,
    },
    Finished {
        winners: Vec<Seat>,
    },
}

/// One runner's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    pub name: String,
    pub rank: u32,
    pub tied: bool,
    pub max_speed: u8,
    pub remaining: u32,
    pub played: Option<u8>,
    pub missed: bool,
}

/// Positions and points after one turn, for the race chart.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    pub turn: u8,
    /// Rank of each seat, by seat index.
    pub ranks: Vec<u32>,
    /// Remaining points of each seat, by seat index.
    pub remaining: Vec<u32>,
    /// Speed each seat played, by seat index.
    #[serde(default)]
    pub played: Vec<u8>,
    /// Whether each seat missed its order, by seat index.
    #[serde(default)]
    pub missed: Vec<bool>,
}

/// What the channel sees. Dream Mile has no hidden state: orders stay with the referee
/// until the turn resolves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    /// Turns resolved so far.
    pub turn: u8,
    pub ordered_turns: u8,
    pub total_turns: u8,
    /// Front to back; tied runners in seat order.
    pub standings: Vec<Standing>,
    pub history: Vec<TurnRecord>,
    pub finished: bool,
    pub winners: Vec<Seat>,
}

impl PublicView {
    /// The standings in position groups, front to back; tied runners share a group. The
    /// text and picture renderers both draw the field from this.
    pub fn groups(&self) -> Vec<Vec<&Standing>> {
        let mut out: Vec<Vec<&Standing>> = Vec::new();
        for s in &self.standings {
            match out.last_mut() {
                Some(g) if g.first().is_some_and(|f| f.rank == s.rank) => g.push(s),
                _ => out.push(vec![s]),
            }
        }
        out
    }

    /// The view as it stood after `turn` (from the history), so a post or a replay can
    /// show each turn even when two resolve at once (turn 7 and the automatic 8th).
    pub fn at_turn(&self, turn: u8) -> Option<PublicView> {
        let record = self.history.iter().find(|r| r.turn == turn)?;
        let mut standings: Vec<Standing> = self
            .standings
            .iter()
            .map(|s| {
                let i = s.seat.index();
                let rank = record.ranks.get(i).copied().unwrap_or(s.rank);
                Standing {
                    rank,
                    tied: record.ranks.iter().filter(|&&r| r == rank).count() > 1,
                    remaining: record.remaining.get(i).copied().unwrap_or(s.remaining),
                    played: record.played.get(i).copied(),
                    missed: record.missed.get(i).copied().unwrap_or(false),
                    ..s.clone()
                }
            })
            .collect();
        standings.sort_by_key(|s| (s.rank, s.seat));
        let finished = turn >= self.total_turns;
        Some(PublicView {
            turn,
            ordered_turns: self.ordered_turns,
            total_turns: self.total_turns,
            history: self
                .history
                .iter()
                .filter(|r| r.turn <= turn)
                .cloned()
                .collect(),
            finished,
            winners: if finished {
                self.winners.clone()
            } else {
                Vec::new()
            },
            standings,
        })
    }
}

/// What one runner's DM shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub max_speed: u8,
    pub remaining: u32,
    /// The most this runner may play now.
    pub cap: u8,
    pub rank: u32,
    pub tied: bool,
    /// The next turn to order, if any.
    pub next_turn: Option<u8>,
}

/// The whole state of a race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DreamMile {
    options: Options,
    runners: Vec<Runner>,
    /// Position groups, front to back; runners in one group are tied.
    field: Vec<Vec<Seat>>,
    /// Turns resolved so far.
    turns_done: u8,
    history: Vec<TurnRecord>,
    /// Dream Mile rolls no dice; the stream is kept so every state has one.
    rng: GameRng,
}

impl DreamMile {
    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn runners(&self) -> &[Runner] {
        &self.runners
    }

    pub fn field(&self) -> &[Vec<Seat>] {
        &self.field
    }

    pub fn turns_done(&self) -> u8 {
        self.turns_done
    }

    fn runner(&self, seat: Seat) -> Option<&Runner> {
        self.runners.get(seat.index())
    }

    fn name(&self, seat: Seat) -> &str {
        self.runner(seat).map(|r| r.name.as_str()).unwrap_or("?")
    }

    /// The most `seat` may play now.
    pub fn cap(&self, seat: Seat) -> u8 {
        self.runner(seat).map_or(0, Runner::cap)
    }

    fn finished(&self) -> bool {
        self.turns_done >= self.options.total_turns()
    }

    fn awaiting_orders(&self) -> bool {
        self.turns_done < self.options.ordered_turns
    }

    fn rank_of(&self, seat: Seat) -> (u32, bool) {
        let mut ahead = 0u32;
        for group in &self.field {
            if group.contains(&seat) {
                return (ahead + 1, group.len() > 1);
            }
            ahead += group.len() as u32;
        }
        (ahead + 1, false)
    }

    fn standings(&self) -> Vec<Standing> {
        let mut out = Vec::new();
        let mut ahead = 0u32;
        for group in &self.field {
            let mut members = group.clone();
            members.sort_unstable();
            for seat in members {
                if let Some(r) = self.runner(seat) {
                    out.push(Standing {
                        seat,
                        name: r.name.clone(),
                        rank: ahead + 1,
                        tied: group.len() > 1,
                        max_speed: r.max_speed,
                        remaining: r.remaining,
                        played: r.last_played,
                        missed: r.last_missed,
                    });
                }
            }
            ahead += group.len() as u32;
        }
        out
    }

    /// The speed a runner plays for a missed order: one more than last turn, capped.
    fn missed_speed(&self, seat: Seat) -> u8 {
        self.runner(seat).map_or(0, Runner::missed_speed)
    }

    /// Resolves one turn at these speeds (by seat): adjudicates it, spends the points and
    /// keeps the turn's record.
    fn resolve_turn(&mut self, speeds: &[u8], missed: &[bool], automatic: bool) -> Event {
        let turn = self.turns_done + 1;
        let speed = |s: Seat| speeds.get(s.index()).map_or(0, |&v| u32::from(v));
        let Adjudication {
            tie_breaks,
            overtakes,
            field,
        } = adjudicate(&self.field, speed, turn == 1);
        let mut plays = Vec::new();
        for ((seat, runner), (&speed, &missed)) in Seat::all(self.runners.len())
            .zip(&mut self.runners)
            .zip(speeds.iter().zip(missed))
        {
            // "speed points are never replenished once used"
            runner.remaining = runner.remaining.saturating_sub(u32::from(speed));
            runner.last_played = Some(speed);
            runner.last_missed = missed;
            plays.push(Play {
                seat,
                speed,
                missed,
                automatic,
            });
        }
        self.field = field.clone();
        self.turns_done = turn;
        self.history.push(TurnRecord {
            turn,
            ranks: Seat::all(self.runners.len())
                .map(|s| self.rank_of(s).0)
                .collect(),
            remaining: self.runners.iter().map(|r| r.remaining).collect(),
            played: speeds.to_vec(),
            missed: missed.to_vec(),
        });
        Event::TurnResolved {
            turn,
            plays,
            tie_breaks,
            overtakes,
            field,
        }
    }

    fn winners(&self) -> Vec<Seat> {
        let mut w = self.field.first().cloned().unwrap_or_default();
        w.sort_unstable();
        w
    }

    /// "Tie split by speed: Bill ahead of Alice." or, for three parts or more, "Carol,
    /// then Dave and Emily (still tied), then Frank."
    fn tie_line(&self, tb: &TieBreak) -> String {
        let parts: Vec<String> = tb
            .into
            .iter()
            .map(|g| {
                let names = self.list_names(g);
                if g.len() > 1 {
                    format!("{names} (still tied)")
                } else {
                    names
                }
            })
            .collect();
        let joined = if parts.len() == 2 {
            parts.join(" ahead of ")
        } else {
            parts.join(", then ")
        };
        format!("Tie split by speed: {joined}.")
    }

    fn list_names(&self, seats: &[Seat]) -> String {
        let names: Vec<&str> = seats.iter().map(|&s| self.name(s)).collect();
        join_and(&names)
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Game for DreamMile {
    type Options = Options;
    type Order = Speed;
    type Event = Event;
    type PublicView = PublicView;
    type PrivateView = PrivateView;
    type SyntaxError = SyntaxError;
    type IllegalOrder = IllegalOrder;

    fn check_options(o: &Options) -> Result<(), OptionsError> {
        if o.base_max_speed == 0 || o.top_max_speed < o.base_max_speed {
            return Err(OptionsError::Invalid(
                "top-max-speed must be at least base-max-speed, and both above 0".into(),
            ));
        }
        if o.ordered_turns == 0 || o.ordered_turns > 20 {
            return Err(OptionsError::Invalid(
                "ordered-turns must be from 1 to 20".into(),
            ));
        }
        if o.cost_per_speed > 1000 {
            return Err(OptionsError::Invalid(
                "cost-per-speed must be from 0 to 1000".into(),
            ));
        }
        if o.starting_points == 0 || o.starting_points > 1000 {
            return Err(OptionsError::Invalid(
                "starting-points must be from 1 to 1000".into(),
            ));
        }
        Ok(())
    }

    fn seat_limits(_: &Options) -> (usize, usize) {
        (2, MAX_RUNNERS)
    }

    fn check_seat_choice(options: &Options, choice: &str) -> Result<(), String> {
        options.read_max_speed(choice).map(|_| ())
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        let mut runners = Vec::new();
        for s in seats {
            let max_speed = match &s.choice {
                Some(c) => options
                    .read_max_speed(c)
                    .map_err(|reason| SetupError::SeatChoice {
                        name: s.name.clone(),
                        reason,
                    })?,
                None => options.base_max_speed,
            };
            runners.push(Runner {
                name: s.name.clone(),
                max_speed,
                remaining: options.points_for(max_speed),
                last_played: None,
                last_missed: false,
            });
        }
        // "At the start of the race all runners are in equal first place."
        let field = vec![Seat::all(runners.len()).collect()];
        Ok(DreamMile {
            options: options.clone(),
            runners,
            field,
            turns_done: 0,
            history: Vec::new(),
            rng: GameRng::from_seed(seed),
        })
    }

    fn pending(&self) -> Pending {
        if !self.awaiting_orders() {
            return Pending::none();
        }
        Pending::all(
            Seat::all(self.runners.len()).collect(),
            format!(
                "Turn {} of {}",
                self.turns_done + 1,
                self.options.total_turns()
            ),
        )
    }

    fn prompt(&self, seat: Seat) -> Prompt {
        let cap = self.cap(seat);
        let remaining = self.runner(seat).map(|r| r.remaining).unwrap_or(0);
        let turn = format!(
            "Turn {} of {}: {}",
            self.turns_done + 1,
            self.options.total_turns(),
            self.name(seat)
        );
        let (text, mut hint) = if remaining == 0 {
            (
                format!("{turn}, you have no speed points left, so you play 0."),
                "Reply 0.".to_string(),
            )
        } else {
            (
                format!(
                    "{turn}, how many speed points do you play? (0 to {cap}; {remaining} left)"
                ),
                format!("Reply with a whole number from 0 to {cap}."),
            )
        };
        // The last ordered turn: say that the automatic one follows.
        if self.options.auto_final_turn && self.turns_done + 1 == self.options.ordered_turns {
            hint.push_str(&format!(
                " Turn {} then runs by itself: everyone plays all they have left, up to their maximum.",
                self.options.total_turns()
            ));
        }
        Prompt {
            text,
            choices: (0..=cap)
                .map(|v| Choice::new(v.to_string(), v.to_string()))
                .collect(),
            complete: true,
            hint,
        }
    }

    fn parse_order(&self, seat: Seat, text: &str) -> Result<Speed, SyntaxError> {
        let t = text.trim().to_ascii_lowercase();
        let t = t
            .strip_prefix("speed")
            .or_else(|| t.strip_prefix("play"))
            .unwrap_or(&t)
            .trim();
        // "7 points", "1 point": the unit is allowed after the number.
        let t = ["points", "point", "pts"]
            .iter()
            .find_map(|unit| t.strip_suffix(unit))
            .unwrap_or(t)
            .trim();
        if t.is_empty() {
            return Err(SyntaxError::Empty);
        }
        let cap = self.cap(seat);
        match t.parse::<i64>() {
            Ok(n) if n < 0 => Err(SyntaxError::Negative { cap }),
            Ok(n) => u8::try_from(n).map(Speed).map_err(|_| SyntaxError::TooBig {
                text: n.to_string(),
                max: self.runner(seat).map_or(0, |r| r.max_speed),
                cap,
            }),
            Err(_) => Err(SyntaxError::NotANumber(
                text.trim().chars().take(40).collect(),
            )),
        }
    }

    fn validate(&self, seat: Seat, order: &Speed) -> Result<(), IllegalOrder> {
        if !self.awaiting_orders() {
            return Err(IllegalOrder::RaceOver);
        }
        let Some(r) = self.runner(seat) else {
            return Err(IllegalOrder::RaceOver);
        };
        if order.0 > r.max_speed {
            return Err(IllegalOrder::AboveMaximum {
                speed: order.0,
                max: r.max_speed,
            });
        }
        if order.0 > 0 && r.remaining == 0 {
            return Err(IllegalOrder::NothingLeft);
        }
        if u32::from(order.0) > r.remaining {
            return Err(IllegalOrder::AboveRemaining {
                speed: order.0,
                remaining: r.remaining,
            });
        }
        Ok(())
    }

    fn format_order(&self, _seat: Seat, order: &Speed) -> String {
        order.0.to_string()
    }

    fn default_order(&self, seat: Seat) -> Speed {
        Speed(self.missed_speed(seat))
    }

    fn apply(&mut self, orders: &[Submitted<Speed>]) -> Vec<Event> {
        if !self.awaiting_orders() {
            return Vec::new();
        }
        // By seat: a runner with no order plays one more than in its previous turn, and an
        // order `validate` refuses counts as none.
        let mut speeds: Vec<u8> = self.runners.iter().map(Runner::missed_speed).collect();
        let mut missed = vec![true; self.runners.len()];
        for s in orders {
            if self.validate(s.seat, &s.order).is_ok()
                && let (Some(v), Some(m)) = (
                    speeds.get_mut(s.seat.index()),
                    missed.get_mut(s.seat.index()),
                )
            {
                *v = s.order.0;
                *m = s.missed;
            }
        }
        let mut events = vec![self.resolve_turn(&speeds, &missed, false)];
        // The automatic last turn: everyone plays all they can, up to their maximum.
        if !self.awaiting_orders() && self.options.auto_final_turn {
            let speeds: Vec<u8> = self.runners.iter().map(Runner::cap).collect();
            let missed = vec![false; speeds.len()];
            events.push(self.resolve_turn(&speeds, &missed, true));
        }
        if self.finished() {
            events.push(Event::Finished {
                winners: self.winners(),
            });
        }
        events
    }

    fn public_view(&self) -> PublicView {
        PublicView {
            turn: self.turns_done,
            ordered_turns: self.options.ordered_turns,
            total_turns: self.options.total_turns(),
            standings: self.standings(),
            history: self.history.clone(),
            finished: self.finished(),
            winners: if self.finished() {
                self.winners()
            } else {
                Vec::new()
            },
        }
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        let (rank, tied) = self.rank_of(seat);
        let r = self.runner(seat);
        PrivateView {
            seat,
            name: r.map(|r| r.name.clone()).unwrap_or_default(),
            max_speed: r.map(|r| r.max_speed).unwrap_or(0),
            remaining: r.map(|r| r.remaining).unwrap_or(0),
            cap: self.cap(seat),
            rank,
            tied,
            next_turn: self.awaiting_orders().then_some(self.turns_done + 1),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.finished() {
            return None;
        }
        let placings = self
            .standings()
            .into_iter()
            .map(|s| Placing {
                seat: s.seat,
                rank: s.rank,
                score: None,
            })
            .collect();
        Some(Outcome { placings })
    }

    fn check(&self) -> Result<(), StateError> {
        self.check_state()
    }

    fn resample_hidden(&self, _viewer: Option<Seat>, _rng: &mut GameRng) -> Self {
        // Nothing in the state is hidden: orders wait with the referee.
        self.clone()
    }
}

impl Bots for DreamMile {
    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Speed {
        Speed(rng.below(u32::from(self.cap(seat)) + 1) as u8)
    }

    fn heuristic_order(&self, seat: Seat, rng: &mut GameRng) -> Speed {
        Speed(pace_bot(self, seat, rng))
    }
}

impl Preferences for DreamMile {
    /// The race's last turn, when players order it: everything left, up to the maximum
    /// (a higher speed never ranks lower, and points left over are worth nothing).
    fn obvious_order(&self, seat: Seat) -> Option<Speed> {
        let last = self.awaiting_orders() && self.turns_done + 1 == self.options.total_turns();
        last.then(|| Speed(self.cap(seat)))
    }
}

impl Presentation for DreamMile {
    fn narrate(&self, event: &Event) -> Narration {
        match event {
            Event::TurnResolved {
                turn,
                plays,
                tie_breaks,
                overtakes,
                ..
            } => {
                let mut lines = Vec::new();
                let automatic = plays.first().is_some_and(|p| p.automatic);
                let played: Vec<String> = plays
                    .iter()
                    .map(|p| {
                        // A missed order is told once, in the post's "Missed orders".
                        format!("{} {}", self.name(p.seat), p.speed)
                    })
                    .collect();
                lines.push(format!(
                    "Turn {turn}{}: {}.",
                    if automatic {
                        " (automatic: everyone plays all they can)"
                    } else {
                        ""
                    },
                    played.join(", ")
                ));
                for tb in tie_breaks {
                    lines.push(self.tie_line(tb));
                }
                for o in overtakes {
                    let passed: Vec<String> = o.passed.iter().map(|u| self.list_names(u)).collect();
                    let list = join_units(&passed);
                    let by = self.list_names(&o.by);
                    let verb = if o.by.len() > 1 {
                        "pass".into()
                    } else {
                        agree(&by, "passes")
                    };
                    lines.push(format!("{by} {verb} {list}."));
                }
                Narration::public(lines.join("\n"))
            }
            Event::Finished { winners } => {
                let names = self.list_names(winners);
                if winners.len() > 1 {
                    Narration::public(format!("{names} share the win!"))
                } else {
                    Narration::public(format!("{names} {} the Dream Mile!", agree(&names, "wins")))
                }
            }
        }
    }

    fn rules_summary(_: &Options) -> &'static str {
        "Dream Mile: each turn every runner secretly plays 0 to their maximum speed from their \
         speed points (45 at a maximum speed of 10; each +1 of maximum costs 3 points). Runners tied in position are split by the speed \
         played. Then, from the back, each runner who has not been overtaken passes the runner \
         ahead with at least 1 more point than them, the next with 2 more, and so on; a tied \
         group of m costs m extra and is passed whole. Seven ordered turns, then an automatic \
         eighth in which everyone plays all they can. First after turn 8 wins. A missed order \
         plays one more than your last turn."
    }

    fn option_docs() -> &'static [OptionDoc] {
        OPTION_DOCS
    }

    fn seat_choice_help(_: &Options) -> Option<&'static str> {
        Some("your maximum speed, 10 to 15; each +1 above 10 costs 3 of your 45 starting points")
    }

    fn seat_choice_menu(options: &Options) -> Vec<(String, String)> {
        max_speed_menu(options)
    }

    fn max_speed_choice(max: u8) -> Option<String> {
        Some(format!("max {max}"))
    }
}

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

#[cfg(test)]
mod sim_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod text_tests;
