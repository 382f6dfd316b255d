//! Magical Athlete replay scripts (docs/replay/magical-athlete.md): one race from set
//! spaces with scripted dice and answers, run on the engine alone and printed as JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decide::How;
use super::race::{RaceEvent, Status};
use super::racers::Kind;
use super::track::{FINISH, Track};
use super::{Event, MagicalAthlete, Options, Phase};
use crate::engine::{Audience, Game, GameRng, ScriptSeed, Seat, Submitted, read_order};
use crate::games::AnyPublicView;
use crate::games::{Replay, ReplayError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    #[allow(dead_code)]
    game: String,
    #[serde(default)]
    track: Option<String>,
    /// 1-4: which race's chips are at stake.
    #[serde(default)]
    race: Option<u8>,
    racers: Vec<ScriptRacer>,
    /// The player whose turn comes first (default: the first racer's).
    #[serde(default)]
    turn: Option<String>,
    #[serde(default)]
    dice: Vec<i64>,
    /// Answers to the prompts, in the order they are asked.
    #[serde(default)]
    answers: Vec<String>,
    #[serde(default)]
    policies: BTreeMap<String, Vec<String>>,
    /// Racers that won earlier races (Twin).
    #[serde(default)]
    winners: Vec<String>,
    /// The top of the racer deck (Egg draws from it).
    #[serde(default)]
    deck: Vec<String>,
    /// Turns with no choice are played without an answer (default yes).
    #[serde(default)]
    auto_roll: Option<bool>,
    /// Shuffles the racer deck below `deck`: a small number or 64 hex digits.
    #[serde(default)]
    seed: ScriptSeed,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptRacer {
    player: String,
    racer: String,
    #[serde(default)]
    space: u8,
    #[serde(default)]
    tripped: bool,
    /// Egg's or Twin's power, already chosen.
    #[serde(default)]
    power: Option<String>,
}

/// One racer in the output.
#[derive(Debug, Serialize)]
pub struct OutRacer {
    pub racer: String,
    pub player: String,
    pub space: u8,
    pub tripped: bool,
    pub status: &'static str,
    pub place: Option<u8>,
}

/// One player's chips in the output.
#[derive(Debug, Serialize)]
pub struct OutChips {
    pub gold: Vec<u8>,
    pub silver: Vec<u8>,
    pub bronze: i32,
    pub total: i64,
}

/// One prompt and how it was answered.
#[derive(Debug, Serialize)]
pub struct OutPrompt {
    pub player: String,
    pub racer: String,
    pub question: String,
    pub answer: String,
    pub how: How,
}

#[derive(Debug, Serialize)]
pub struct Output {
    pub game: &'static str,
    pub track: Track,
    pub racers: Vec<OutRacer>,
    pub finish_order: Vec<String>,
    pub eliminated: Vec<String>,
    pub chips: BTreeMap<String, OutChips>,
    pub prompts: Vec<OutPrompt>,
    pub rolls: Vec<u8>,
    pub over: bool,
    pub dice_left: usize,
    pub log: Vec<String>,
}

fn kind(name: &str, what: &str) -> Result<Kind, ReplayError> {
    Kind::parse(name).ok_or_else(|| ReplayError::Script(format!("{what}: `{name}` is not a racer")))
}

/// Racers as the script lists them: `(card, seat, space)`, and each one's trip and chosen
/// power.
type Placed = (Vec<(Kind, Seat, u8)>, Vec<(Kind, bool, Option<Kind>)>);

/// Runs a script and returns its JSON output, with the public view after each step.
pub fn run(script: Value) -> Result<Replay, ReplayError> {
    let script: Script =
        serde_json::from_value(script).map_err(|e| ReplayError::Script(e.to_string()))?;
    let track = read_track(script.track.as_deref())?;
    let race_no = script.race.unwrap_or(1);
    if !(1..=4).contains(&race_no) {
        return Err(ReplayError::Script("race must be 1 to 4".into()));
    }
    let names = read_players(&script)?;
    let (list, picked) = read_racers(&script, &names)?;
    let first = match &script.turn {
        Some(t) => seat_of(&names, t)
            .ok_or_else(|| ReplayError::Script(format!("turn: {t} has no racer in the race")))?,
        None => Seat(0),
    };
    for d in &script.dice {
        if !(1..=6).contains(d) {
            return Err(ReplayError::Script(format!(
                "dice: {d} is not a die roll (1 to 6)"
            )));
        }
    }
    let options = Options {
        auto_roll: script.auto_roll.unwrap_or(true),
        decision_timeout: 600,
        ..Options::default()
    };
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut game = MagicalAthlete::scenario(&refs, track, &list, first, options);
    if let Some(race) = game.race_mut() {
        // The scenario shuffles with seed 0; the script's seed shuffles the same cards.
        let mut deck: Vec<Kind> = super::racers::ALL
            .into_iter()
            .filter(|k| race.deck.contains(k))
            .collect();
        GameRng::from_seed(script.seed.0).shuffle(&mut deck);
        race.deck = deck;
    }
    set_up_race(&mut game, &script, race_no, &picked)?;
    for (player, texts) in &script.policies {
        let Some(seat) = seat_of(&names, player) else {
            return Err(ReplayError::Script(format!(
                "policies: {player} is not racing"
            )));
        };
        for t in texts {
            game.set_preference(seat, t)
                .map_err(|e| ReplayError::Script(format!("policies, {player}: {e}")))?;
        }
    }
    let dice: Vec<u8> = script.dice.iter().map(|&d| d as u8).collect();
    game.set_dice(&dice);
    let (events, views) = play(&mut game, &names, &script.answers)?;
    let output = output(&game, &names, &events, track);
    let output = serde_json::to_value(output).map_err(|e| ReplayError::Script(e.to_string()))?;
    Ok(Replay { output, views })
}

fn read_track(name: Option<&str>) -> Result<Track, ReplayError> {
    match name.map(str::to_ascii_lowercase).as_deref() {
        None | Some("mild") => Ok(Track::Mild),
        Some("wild") => Ok(Track::Wild),
        Some("wild-rulebook" | "rulebook") => Ok(Track::WildRulebook),
        Some(other) => Err(ReplayError::Script(format!(
            "`{other}` is not a track; use mild, wild or wild-rulebook"
        ))),
    }
}

fn seat_of(names: &[String], player: &str) -> Option<Seat> {
    names
        .iter()
        .position(|n| n == player)
        .and_then(Seat::from_index)
}

/// Players in order of first mention.
fn read_players(script: &Script) -> Result<Vec<String>, ReplayError> {
    let mut names: Vec<String> = Vec::new();
    for r in &script.racers {
        if r.player.trim().is_empty() {
            return Err(ReplayError::Script("a racer has no player".into()));
        }
        if !names.contains(&r.player) {
            names.push(r.player.clone());
        }
    }
    if script.racers.len() < 2 || script.racers.len() > 12 {
        return Err(ReplayError::Script("a race takes 2 to 12 racers".into()));
    }
    Ok(names)
}

fn read_racers(script: &Script, names: &[String]) -> Result<Placed, ReplayError> {
    let mut list = Vec::new();
    let mut picked = Vec::new();
    for r in &script.racers {
        let k = kind(&r.racer, "racers")?;
        if list.iter().any(|(x, _, _)| *x == k) {
            return Err(ReplayError::Script(format!("{} is listed twice", k.name())));
        }
        if r.space >= FINISH {
            return Err(ReplayError::Script(format!(
                "{}: space {} is not on the track (0 to 29)",
                k.name(),
                r.space
            )));
        }
        let seat = seat_of(names, &r.player).unwrap_or(Seat(0));
        list.push((k, seat, r.space));
        let power = match &r.power {
            Some(p) => {
                if k != Kind::Egg && k != Kind::Twin {
                    return Err(ReplayError::Script(format!(
                        "{}: only Egg and Twin take another racer's power",
                        k.name()
                    )));
                }
                Some(kind(p, "power")?)
            }
            None => None,
        };
        picked.push((k, r.tripped, power));
    }
    Ok((list, picked))
}

/// The race's number, earlier winners, trips, chosen powers and the top of the deck.
fn set_up_race(
    game: &mut MagicalAthlete,
    script: &Script,
    race_no: u8,
    picked: &[(Kind, bool, Option<Kind>)],
) -> Result<(), ReplayError> {
    let winners = script
        .winners
        .iter()
        .map(|w| kind(w, "winners"))
        .collect::<Result<Vec<_>, _>>()?;
    let top = script
        .deck
        .iter()
        .map(|w| kind(w, "deck"))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(race) = game.race_mut() {
        race.number = race_no;
        race.winners = winners;
        for (k, tripped, power) in picked {
            if let Some(x) = race.racers.iter_mut().find(|x| x.kind == *k) {
                x.tripped = *tripped;
                x.picked = *power;
            }
        }
        if !top.is_empty() {
            let mut rest: Vec<Kind> = race
                .deck
                .iter()
                .copied()
                .filter(|k| !top.contains(k))
                .collect();
            let mut deck = top;
            deck.append(&mut rest);
            race.deck = deck;
        }
    }
    Ok(())
}

/// Plays the race, answering each prompt from the script (then by default), and keeps the
/// public view after each step.
fn play(
    game: &mut MagicalAthlete,
    names: &[String],
    answers: &[String],
) -> Result<(Vec<Event>, Vec<AnyPublicView>), ReplayError> {
    let mut events = game.begin();
    let mut views = vec![AnyPublicView::MagicalAthlete(game.public_view())];
    let mut answers = answers.iter();
    for step in 0..10_000usize {
        if game.phase != Phase::Racing || game.waiting.is_none() {
            break;
        }
        let Some(&seat) = game.pending().seats.first() else {
            break;
        };
        let prompt_no = step + 1;
        let player = names.get(seat.index()).cloned().unwrap_or_default();
        let order = match answers.next() {
            Some(text) => read_order(&*game, seat, text).map_err(|e| ReplayError::Order {
                turn: prompt_no,
                player: player.clone(),
                reason: format!("prompt {prompt_no} ({}): {e}", game.prompt(seat).text),
            })?,
            None => game.default_order(seat),
        };
        events.extend(game.apply(&[Submitted::new(seat, order)]));
        views.push(AnyPublicView::MagicalAthlete(game.public_view()));
    }
    Ok((events, views))
}

fn output(game: &MagicalAthlete, names: &[String], events: &[Event], track: Track) -> Output {
    let name = |s: Seat| names.get(s.index()).cloned().unwrap_or_default();
    let race = game.race.as_ref();
    let racers = race
        .map(|r| {
            r.racers
                .iter()
                .map(|x| OutRacer {
                    racer: x.kind.name().into(),
                    player: name(x.seat),
                    space: x.pos.min(FINISH),
                    tripped: x.tripped,
                    status: match x.status {
                        Status::Racing => "racing",
                        Status::Finished(_) => "finished",
                        Status::Eliminated(_) => "eliminated",
                    },
                    place: match x.status {
                        Status::Finished(p) => Some(p),
                        _ => None,
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    let kinds = |ids: &[usize]| -> Vec<String> {
        race.map(|r| {
            ids.iter()
                .filter_map(|&i| r.racers.get(i).map(|x| x.kind.name().to_string()))
                .collect()
        })
        .unwrap_or_default()
    };
    let mut chips = BTreeMap::new();
    for (i, p) in game.players.iter().enumerate() {
        let bronze = if game.phase == Phase::Racing {
            race.and_then(|r| r.bronze.get(i).copied())
                .unwrap_or(p.bronze)
        } else {
            p.bronze
        };
        let total = p.gold.iter().map(|&v| i64::from(v)).sum::<i64>()
            + p.silver.iter().map(|&v| i64::from(v)).sum::<i64>()
            + i64::from(bronze);
        chips.insert(
            p.name.clone(),
            OutChips {
                gold: p.gold.clone(),
                silver: p.silver.clone(),
                bronze,
                total,
            },
        );
    }
    let mut prompts = Vec::new();
    let mut rolls = Vec::new();
    for e in events {
        if let Event::Race { event } = e {
            match event {
                // Turns played without a choice are not prompts.
                RaceEvent::Decided { answer, how, .. }
                    if *how == How::Default && answer == "roll" => {}
                RaceEvent::Decided {
                    racer,
                    question,
                    answer,
                    how,
                } => prompts.push(OutPrompt {
                    player: name(racer.seat),
                    racer: racer.kind.name().into(),
                    question: question.clone(),
                    answer: answer.clone(),
                    how: *how,
                }),
                RaceEvent::Rolled { value, .. } => rolls.push(*value),
                RaceEvent::DuelRolls {
                    duelist_roll,
                    other_roll,
                    ..
                } => {
                    rolls.push(*duelist_roll);
                    rolls.push(*other_roll);
                }
                _ => {}
            }
        }
    }
    let log = events
        .iter()
        .map(|e| game.narrate(e))
        .filter(|n| n.audience == Audience::Public && !n.text.is_empty())
        .map(|n| n.text)
        .collect();
    Output {
        game: "magical-athlete",
        track,
        racers,
        finish_order: race.map(|r| kinds(&r.placings)).unwrap_or_default(),
        eliminated: race.map(|r| kinds(&r.eliminated)).unwrap_or_default(),
        chips,
        prompts,
        rolls,
        over: race.is_some_and(|r| r.over),
        dice_left: race
            .and_then(|r| r.dice.as_ref().map(std::collections::VecDeque::len))
            .unwrap_or(0),
        log,
    }
}
