//! Dream Mile replay scripts: a scripted race, run on the engine alone, printed as JSON.
//!
//! Script: `{"game":"dream-mile","players":[{"name":"Alice","max_speed":10},...],
//! "turns":[{"Alice":"7","Bill":"1",...},...]}`. A player missing from a turn missed it.
//! `seed` (a small number or 64 hex digits) is accepted as in every game's script; the
//! game has no dice, so it changes nothing but the race's commitment.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{DreamMile, Event, Options};
use crate::engine::{Game, ScriptSeed, Seat, SeatSetup, Submitted, read_order};
use crate::games::registry::AnyPublicView;
use crate::games::replay::{Replay, ReplayError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    #[allow(dead_code)]
    game: String,
    players: Vec<ScriptPlayer>,
    #[serde(default)]
    turns: Vec<serde_json::Map<String, Value>>,
    #[serde(default)]
    options: Option<Options>,
    #[serde(default)]
    seed: ScriptSeed,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptPlayer {
    name: String,
    #[serde(default)]
    max_speed: Option<u8>,
}

/// One runner's line in a turn's output.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct OutStanding {
    pub name: String,
    pub rank: u32,
    pub tied: bool,
    pub played: u8,
    pub remaining: u32,
    pub missed: bool,
}

#[derive(Debug, Serialize)]
pub struct OutTurn {
    pub turn: u8,
    pub standings: Vec<OutStanding>,
}

#[derive(Debug, Serialize)]
pub struct Output {
    pub game: &'static str,
    pub turns: Vec<OutTurn>,
    pub finished: bool,
    pub winners: Vec<String>,
}

fn order_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Runs a script and returns its JSON output, with the public view after each turn.
pub fn run(script: Value) -> Result<Replay, ReplayError> {
    let script: Script =
        serde_json::from_value(script).map_err(|e| ReplayError::Script(e.to_string()))?;
    let options = script.options.unwrap_or_default();
    let mut names: Vec<&str> = Vec::new();
    let mut seats = Vec::new();
    for p in &script.players {
        if p.name.trim().is_empty() {
            return Err(ReplayError::Script("a player has an empty name".into()));
        }
        if names.contains(&p.name.as_str()) {
            return Err(ReplayError::Script(format!(
                "player {} is listed twice",
                p.name
            )));
        }
        names.push(&p.name);
        seats.push(SeatSetup {
            name: p.name.clone(),
            choice: p.max_speed.map(|m| m.to_string()),
        });
    }
    let (min, max) = DreamMile::seat_limits(&options);
    if seats.len() < min || seats.len() > max {
        return Err(ReplayError::Script(format!(
            "a race takes {min} to {max} players, not {}",
            seats.len()
        )));
    }
    let mut game = DreamMile::setup(&options, &seats, script.seed.0)
        .map_err(|e| ReplayError::Script(e.to_string()))?;
    let ordered = usize::from(options.ordered_turns);
    if script.turns.len() > ordered {
        return Err(ReplayError::Turn {
            turn: ordered + 1,
            reason: format!(
                "at most {ordered} turns may be given; turn {} is automatic",
                ordered + 1
            ),
        });
    }
    let mut views = Vec::new();
    let mut out = Output {
        game: "dream-mile",
        turns: Vec::new(),
        finished: false,
        winners: Vec::new(),
    };
    for (i, turn) in script.turns.iter().enumerate() {
        let number = i + 1;
        let mut orders = Vec::new();
        for (name, value) in turn {
            let Some(idx) = names.iter().position(|n| n == name) else {
                return Err(ReplayError::Order {
                    turn: number,
                    player: name.clone(),
                    reason: "there is no such player in this race".into(),
                });
            };
            let seat = Seat::from_index(idx).unwrap_or(Seat(0));
            let Some(text) = order_text(value) else {
                return Err(ReplayError::Order {
                    turn: number,
                    player: name.clone(),
                    reason: "the order must be text, like \"7\"".into(),
                });
            };
            let order = read_order(&game, seat, &text).map_err(|e| ReplayError::Order {
                turn: number,
                player: name.clone(),
                reason: e.to_string(),
            })?;
            orders.push(Submitted::new(seat, order));
        }
        for seat in Seat::all(names.len()) {
            if !orders.iter().any(|o| o.seat == seat) {
                orders.push(Submitted::missed(seat, game.default_order(seat)));
            }
        }
        for event in game.apply(&orders) {
            if let Event::TurnResolved { turn, .. } = event {
                // Turn 7 and the automatic 8th resolve together: take each from history.
                let view = game.public_view();
                let view = view.at_turn(turn).unwrap_or(view);
                out.turns.push(OutTurn {
                    turn,
                    standings: view
                        .standings
                        .iter()
                        .map(|s| OutStanding {
                            name: s.name.clone(),
                            rank: s.rank,
                            tied: s.tied,
                            played: s.played.unwrap_or(0),
                            remaining: s.remaining,
                            missed: s.missed,
                        })
                        .collect(),
                });
                views.push(AnyPublicView::DreamMile(view));
            }
        }
    }
    if let Some(outcome) = game.outcome() {
        out.finished = true;
        out.winners = outcome
            .winners()
            .into_iter()
            .filter_map(|s| names.get(s.index()).map(std::string::ToString::to_string))
            .collect();
    }
    let output = serde_json::to_value(out).map_err(|e| ReplayError::Script(e.to_string()))?;
    Ok(Replay { output, views })
}
