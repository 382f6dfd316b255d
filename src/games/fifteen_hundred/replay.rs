//! 1500m replay scripts (docs/replay/1500m.md): place runners, set their mental strength,
//! pace and hands, give each step's orders, and print every runner's state as JSON.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::board::Spot;
use super::options::Options;
use super::order::Order;
use super::parse::read_space;
use super::state::FifteenHundred;
use super::views::RunnerView;
use crate::engine::{Game, Presentation, ScriptSeed, Seat, SeatSetup, Submitted, read_order};
use crate::games::registry::AnyPublicView;
use crate::games::replay::{Replay, ReplayError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    #[allow(dead_code)]
    game: String,
    #[serde(default)]
    options: Option<Options>,
    #[serde(default)]
    seed: ScriptSeed,
    players: Vec<String>,
    #[serde(default)]
    setup: Map<String, Value>,
    #[serde(default)]
    robot_deck: Option<Vec<u8>>,
    #[serde(default)]
    rounds: Vec<Map<String, Value>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Placement {
    /// `3:17` style, or lane + section + space.
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    lane: Option<u8>,
    #[serde(default)]
    section: Option<String>,
    #[serde(default)]
    space: Option<u16>,
    #[serde(default)]
    crossings: u8,
    #[serde(default)]
    strength: Option<u16>,
    #[serde(default)]
    pace: Option<u8>,
    #[serde(default)]
    penalty: Option<u16>,
    #[serde(default)]
    hand: Option<Vec<u8>>,
}

#[derive(Debug, Serialize)]
pub struct OutStep {
    pub step: usize,
    /// What was asked at this step.
    pub asked: String,
    pub narration: Vec<String>,
    pub laps_left: u8,
    pub runners: Vec<Value>,
}

#[derive(Debug, Serialize)]
pub struct Output {
    pub game: &'static str,
    pub start: Vec<Value>,
    pub steps: Vec<OutStep>,
    pub finished: bool,
    pub finish_order: Vec<String>,
}

/// Every runner's line: its public view without this round's choices
/// ([`RunnerView::ROUND_FIELDS`]), best placed first.
fn runners(game: &FifteenHundred) -> Result<Vec<Value>, ReplayError> {
    game.public_view()
        .runners
        .into_iter()
        .map(|r| runner_line(&r))
        .collect()
}

fn runner_line(r: &RunnerView) -> Result<Value, ReplayError> {
    match serde_json::to_value(r).map_err(|e| script_err(e.to_string()))? {
        Value::Object(fields) => Ok(Value::Object(
            fields
                .into_iter()
                .filter(|(k, _)| !RunnerView::ROUND_FIELDS.contains(&k.as_str()))
                .collect(),
        )),
        other => Ok(other),
    }
}

fn script_err(text: impl Into<String>) -> ReplayError {
    ReplayError::Script(text.into())
}

fn spot_of(game: &FifteenHundred, name: &str, p: &Placement) -> Result<Option<Spot>, ReplayError> {
    let course = game.course();
    let bad = |why: String| script_err(format!("setup of {name}: {why}"));
    if let Some(at) = &p.at {
        let (lane, pos, finish) = read_space(at).map_err(|e| bad(e.to_string()))?;
        if finish {
            return Err(bad("a runner can't be placed past the finish line".into()));
        }
        return Ok(Some(Spot {
            lane,
            lap: p.crossings,
            pos,
        }));
    }
    match (p.lane, &p.section, p.space) {
        (None, None, None) => Ok(None),
        (Some(lane), Some(section), Some(space)) => {
            let idx = course
                .board
                .sections
                .iter()
                .position(|s| &s.name == section)
                .ok_or_else(|| bad(format!("there is no section called {section}")))?;
            if space == 0 {
                return Err(bad("spaces in a section count from 1".into()));
            }
            let spot = course.spot_in(lane, idx, space - 1, p.crossings);
            if course.place(spot).section != idx {
                return Err(bad(format!(
                    "{section} has no space {space} in lane {lane}"
                )));
            }
            Ok(Some(spot))
        }
        _ => Err(bad(
            "give `at` (like \"3:17\"), or all of lane, section and space".into(),
        )),
    }
}

/// Runs a script and returns its JSON output, with the public view after each step.
pub fn run(script: Value) -> Result<Replay, ReplayError> {
    let script: Script = serde_json::from_value(script).map_err(|e| script_err(e.to_string()))?;
    let options = script.options.clone().unwrap_or_default();
    FifteenHundred::check_options(&options).map_err(|e| script_err(e.to_string()))?;
    check_players(&script.players, &options)?;
    let seats: Vec<SeatSetup> = script.players.iter().map(SeatSetup::named).collect();
    let mut game = FifteenHundred::setup(&options, &seats, script.seed.0)
        .map_err(|e| script_err(e.to_string()))?;
    set_up(&mut game, &script)?;
    let mut out = Output {
        game: "1500m",
        start: runners(&game)?,
        steps: Vec::new(),
        finished: false,
        finish_order: Vec::new(),
    };
    let mut views = vec![AnyPublicView::FifteenHundred(game.public_view())];
    for (n, step) in script.rounds.iter().enumerate() {
        out.steps
            .push(play_step(&mut game, &script.players, n + 1, step)?);
        views.push(AnyPublicView::FifteenHundred(game.public_view()));
    }
    if game.outcome().is_some() {
        out.finished = true;
    }
    out.finish_order = game
        .finish_order()
        .iter()
        .filter_map(|&i| game.runners().get(i).map(|r| r.name.clone()))
        .collect();
    let output = serde_json::to_value(out).map_err(|e| script_err(e.to_string()))?;
    Ok(Replay { output, views })
}

/// Names must be given, once each, and as many as the race takes.
fn check_players(players: &[String], options: &Options) -> Result<(), ReplayError> {
    let mut seen: Vec<&str> = Vec::new();
    for p in players {
        if p.trim().is_empty() {
            return Err(script_err("a player has an empty name"));
        }
        if seen.contains(&p.as_str()) {
            return Err(script_err(format!("player {p} is listed twice")));
        }
        seen.push(p);
    }
    let (min, max) = FifteenHundred::seat_limits(options);
    if players.len() < min || players.len() > max {
        return Err(script_err(format!(
            "this race takes {min} to {max} players, not {}",
            players.len()
        )));
    }
    Ok(())
}

/// The script's setup: each runner's values and space, and the robots' deck.
fn set_up(game: &mut FifteenHundred, script: &Script) -> Result<(), ReplayError> {
    let mut placements = Vec::new();
    for (name, value) in &script.setup {
        let i = game
            .runner_named(name)
            .ok_or_else(|| script_err(format!("setup: there is no runner called {name}")))?;
        let p: Placement = serde_json::from_value(value.clone())
            .map_err(|e| script_err(format!("setup of {name}: {e}")))?;
        let spot = spot_of(game, name, &p)?;
        game.set_runner(i, p.strength, p.pace, p.penalty, p.hand.clone())
            .map_err(|e| script_err(format!("setup of {name}: {e}")))?;
        placements.push((i, name.clone(), spot));
    }
    place_all(game, &placements)?;
    if let Some(deck) = &script.robot_deck {
        game.set_robot_deck(deck)
            .map_err(|e| script_err(format!("robot_deck: {e}")))?;
    }
    Ok(())
}

/// Two passes, so that runners can swap spaces: first lift everyone placed, then set down.
fn place_all(
    game: &mut FifteenHundred,
    placements: &[(usize, String, Option<Spot>)],
) -> Result<(), ReplayError> {
    for (i, _, spot) in placements {
        if spot.is_some() {
            game.park_runner(*i)
                .map_err(|e| script_err(format!("setup: {e}")))?;
        }
    }
    for (i, name, spot) in placements {
        if let Some(spot) = spot {
            game.place_runner(*i, *spot)
                .map_err(|e| script_err(format!("setup of {name}: {e}")))?;
        }
    }
    Ok(())
}

/// One step of the script: its orders read as players send them, the rest missed.
fn play_step(
    game: &mut FifteenHundred,
    players: &[String],
    number: usize,
    step: &Map<String, Value>,
) -> Result<OutStep, ReplayError> {
    if game.outcome().is_some() {
        return Err(ReplayError::Turn {
            turn: number,
            reason: "the race is already over".into(),
        });
    }
    let pending = game.pending();
    let mut orders = Vec::new();
    for (name, value) in step {
        orders.push(read_step_order(game, players, number, name, value)?);
    }
    for &seat in &pending.seats {
        if !orders.iter().any(|o| o.seat == seat) {
            orders.push(Submitted::missed(seat, game.default_order(seat)));
        }
    }
    let events = game.apply(&orders);
    let narration = events
        .iter()
        .map(|e| game.narrate(e).text)
        .filter(|t| !t.is_empty())
        .collect();
    Ok(OutStep {
        step: number,
        asked: pending.label,
        narration,
        laps_left: game.laps_left(),
        runners: runners(game)?,
    })
}

fn read_step_order(
    game: &FifteenHundred,
    players: &[String],
    number: usize,
    name: &str,
    value: &Value,
) -> Result<Submitted<Order>, ReplayError> {
    let refuse = |reason: String| ReplayError::Order {
        turn: number,
        player: name.to_string(),
        reason,
    };
    let Some(idx) = players.iter().position(|p| p == name) else {
        return Err(refuse("there is no such player in this race".into()));
    };
    let seat = Seat::from_index(idx).unwrap_or(Seat(0));
    let Some(text) = value.as_str() else {
        return Err(refuse(
            "the order must be text, like \"card 10 bid 3\"".into(),
        ));
    };
    let order = read_order(game, seat, text).map_err(|e| refuse(e.to_string()))?;
    Ok(Submitted::new(seat, order))
}
