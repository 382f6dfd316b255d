//! Magical Athlete replay scripts (docs/replay/magical-athlete.md): one race from set
//! spaces with scripted dice and answers, run on the engine alone and printed as JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decide::How;
use super::race::{Race, RaceEvent, Slot, Status};
use super::racers::Kind;
use super::track::{FINISH, Track};
use super::{Event, MagicalAthlete, Options, Phase};
use crate::engine::{
    Audience, Game, GameRng, Preferences, Presentation, ScriptSeed, Seat, Submitted, read_order,
};
use crate::games::registry::AnyPublicView;
use crate::games::replay::{Replay, ReplayError};

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
    /// The players clockwise (default: in order of first mention in `racers`).
    #[serde(default)]
    seats: Option<Vec<String>>,
    /// Chips each player won in earlier races.
    #[serde(default)]
    chips: BTreeMap<String, ScriptChips>,
    /// Extra turns owed before the usual order goes on (Genius guessed right, the Skipper).
    #[serde(default)]
    extra_turns: Vec<String>,
    /// The 2-player first-turn rule: a player's first turn moves one of their two racers.
    #[serde(default)]
    first_turn_rule: bool,
    /// Players who have had their first turn already (with `first_turn_rule`).
    #[serde(default)]
    first_turn_done: Vec<String>,
    /// Stop once this many racer turns have been played.
    #[serde(default)]
    stop_after: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptChips {
    #[serde(default)]
    gold: Vec<u8>,
    #[serde(default)]
    silver: Vec<u8>,
    #[serde(default)]
    bronze: i32,
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
    /// `racing`, `finished` (across the line: 1st in order of listing) or `eliminated`.
    #[serde(default)]
    status: Option<String>,
    /// Mastermind's prediction, already made.
    #[serde(default)]
    prediction: Option<String>,
    /// The racer a Copycat copies now.
    #[serde(default)]
    copying: Option<String>,
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
    /// The power it has now: its own, Egg's or Twin's pick, Copycat's copy (`null`: none).
    pub power: Option<String>,
    /// The racer a Copycat copies.
    pub copying: Option<String>,
    /// Mastermind's prediction.
    pub prediction: Option<String>,
}

/// Whose turn comes next (or is under way).
#[derive(Debug, Serialize)]
pub struct OutNext {
    pub player: String,
    /// The racers that move in it, in the order they would go.
    pub racers: Vec<String>,
    /// `Genius` or `The Skipper` for a turn out of the usual order.
    pub extra: Option<String>,
}

/// One roll-off: every player's die and the winner (`null` for a tie, rolled again).
#[derive(Debug, Serialize)]
pub struct OutRollOff {
    pub purpose: String,
    pub rolls: BTreeMap<String, u8>,
    pub winner: Option<String>,
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
    pub next: Option<OutNext>,
    pub roll_offs: Vec<OutRollOff>,
    pub dice_left: usize,
    pub log: Vec<String>,
}

fn kind(name: &str, what: &str) -> Result<Kind, ReplayError> {
    Kind::parse(name).ok_or_else(|| ReplayError::Script(format!("{what}: `{name}` is not a racer")))
}

/// What the script says of a racer beyond its card, seat and space.
struct Stated {
    kind: Kind,
    tripped: bool,
    power: Option<Kind>,
    status: Status,
    prediction: Option<Kind>,
    copying: Option<Kind>,
}

/// Racers as the script lists them: `(card, seat, space)`, and the rest of each one's state.
type Placed = (Vec<(Kind, Seat, u8)>, Vec<Stated>);

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
    let chips = read_chips(&script, &names)?;
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
    set_up_turns(&mut game, &script, &names)?;
    game.set_chips(&chips);
    if let Some(n) = script.stop_after {
        game.stop_after(n);
    }
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

/// Players clockwise: `seats`, else in order of first mention.
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
    let Some(seats) = &script.seats else {
        return Ok(names);
    };
    for (i, s) in seats.iter().enumerate() {
        if seats.iter().skip(i + 1).any(|t| t == s) {
            return Err(ReplayError::Script(format!("seats: {s} is listed twice")));
        }
    }
    if let Some(missing) = names.iter().find(|n| !seats.contains(n)) {
        return Err(ReplayError::Script(format!(
            "seats: {missing} has a racer but no seat"
        )));
    }
    if let Some(idle) = seats.iter().find(|s| !names.contains(s)) {
        return Err(ReplayError::Script(format!("seats: {idle} has no racer")));
    }
    Ok(seats.clone())
}

/// A player's chips: gold, silver, bronze.
type Chips = (Vec<u8>, Vec<u8>, i32);

/// Each seat's chips from earlier races, in seat order.
fn read_chips(script: &Script, names: &[String]) -> Result<Vec<Chips>, ReplayError> {
    if let Some(who) = script.chips.keys().find(|p| !names.contains(p)) {
        return Err(ReplayError::Script(format!("chips: {who} is not racing")));
    }
    let mut out = Vec::new();
    for n in names {
        let Some(c) = script.chips.get(n) else {
            out.push((Vec::new(), Vec::new(), 0));
            continue;
        };
        if let Some(v) = c.gold.iter().find(|v| !super::GOLD.contains(v)) {
            return Err(ReplayError::Script(format!(
                "chips, {n}: {v} is not a gold chip (3, 4 or 5)"
            )));
        }
        if let Some(v) = c.silver.iter().find(|v| !super::SILVER.contains(v)) {
            return Err(ReplayError::Script(format!(
                "chips, {n}: {v} is not a silver chip (1, 2 or 3)"
            )));
        }
        if c.bronze < 0 {
            return Err(ReplayError::Script(format!(
                "chips, {n}: bronze can't be below 0"
            )));
        }
        out.push((c.gold.clone(), c.silver.clone(), c.bronze));
    }
    Ok(out)
}

fn read_racers(script: &Script, names: &[String]) -> Result<Placed, ReplayError> {
    let mut list = Vec::new();
    let mut stated = Vec::new();
    let (mut finished, mut eliminated) = (0u8, 0u8);
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
        let status = match r.status.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("racing") => Status::Racing,
            Some("finished") => {
                finished += 1;
                Status::Finished(finished)
            }
            Some("eliminated") => {
                eliminated += 1;
                Status::Eliminated(eliminated)
            }
            Some(other) => {
                return Err(ReplayError::Script(format!(
                    "{}: status `{other}` is not racing, finished or eliminated",
                    k.name()
                )));
            }
        };
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
        let prediction = r
            .prediction
            .as_deref()
            .map(|p| kind(p, "prediction"))
            .transpose()?;
        let copying = r
            .copying
            .as_deref()
            .map(|p| kind(p, "copying"))
            .transpose()?;
        let holds = |want: Kind| k == want || power == Some(want) || k == Kind::Copycat;
        if prediction.is_some() && !holds(Kind::Mastermind) {
            return Err(ReplayError::Script(format!(
                "{}: only a Mastermind makes a prediction",
                k.name()
            )));
        }
        if copying.is_some() && k != Kind::Copycat && power != Some(Kind::Copycat) {
            return Err(ReplayError::Script(format!(
                "{}: only a Copycat copies",
                k.name()
            )));
        }
        stated.push(Stated {
            kind: k,
            tripped: r.tripped,
            power,
            status,
            prediction,
            copying,
        });
    }
    if finished >= 2 {
        return Err(ReplayError::Script(
            "two racers have finished: that race is over".into(),
        ));
    }
    for st in &stated {
        for (what, named) in [("prediction", st.prediction), ("copying", st.copying)] {
            if let Some(t) = named
                && !list.iter().any(|(x, _, _)| *x == t)
            {
                return Err(ReplayError::Script(format!(
                    "{}: {what} {} is not in the race",
                    st.kind.name(),
                    t.name()
                )));
            }
        }
    }
    Ok((list, stated))
}

/// The race's number, earlier winners, each racer's state and the top of the deck.
fn set_up_race(
    game: &mut MagicalAthlete,
    script: &Script,
    race_no: u8,
    stated: &[Stated],
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
    let Some(race) = game.race_mut() else {
        return Ok(());
    };
    race.number = race_no;
    race.winners = winners;
    let find = |race: &super::race::Race, k: Kind| race.racers.iter().position(|x| x.kind == k);
    let (mut placings, mut out) = (Vec::new(), Vec::new());
    for st in stated {
        let Some(i) = find(race, st.kind) else {
            continue;
        };
        let prediction = st.prediction.and_then(|t| find(race, t));
        let copying = st.copying.and_then(|t| find(race, t));
        let Some(x) = race.racers.get_mut(i) else {
            continue;
        };
        x.tripped = st.tripped;
        x.picked = st.power;
        x.status = st.status;
        x.prediction = prediction;
        x.copying = copying;
        if prediction.is_some() {
            // The prediction is made at the start of the first turn: that turn is past.
            x.turns = 1;
        }
        match st.status {
            Status::Finished(_) => {
                x.pos = FINISH;
                placings.push(i);
            }
            Status::Eliminated(_) => out.push(i),
            Status::Racing => {}
        }
    }
    race.placings = placings;
    race.eliminated = out;
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
    Ok(())
}

/// Extra turns owed, and the 2-player first-turn rule.
fn set_up_turns(
    game: &mut MagicalAthlete,
    script: &Script,
    names: &[String],
) -> Result<(), ReplayError> {
    let mut extras = Vec::new();
    for name in &script.extra_turns {
        let k = kind(name, "extra_turns")?;
        let race = game
            .race()
            .ok_or_else(|| ReplayError::Script("no race".into()))?;
        let Some(r) = race.find(k).filter(|&r| race.racing(r)) else {
            return Err(ReplayError::Script(format!(
                "extra_turns: {} is not racing",
                k.name()
            )));
        };
        let skipper = race.base_power(r) == Some(Kind::Skipper)
            || race
                .racers
                .get(r)
                .and_then(|x| x.copying)
                .and_then(|t| race.base_power(t))
                == Some(Kind::Skipper);
        let power = if skipper { Kind::Skipper } else { Kind::Genius };
        extras.push(super::race::Slot::Extra { racer: r, power });
    }
    let mut done = vec![false; names.len()];
    for who in &script.first_turn_done {
        let Some(seat) = seat_of(names, who) else {
            return Err(ReplayError::Script(format!(
                "first_turn_done: {who} is not racing"
            )));
        };
        if let Some(d) = done.get_mut(seat.index()) {
            *d = true;
        }
    }
    if let Some(race) = game.race_mut() {
        race.extras = extras.into_iter().collect();
        race.two_player = script.first_turn_rule;
        race.first_turn_done = done;
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
        match answers.next() {
            Some(text) => {
                let order = read_order(&*game, seat, text).map_err(|e| ReplayError::Order {
                    turn: prompt_no,
                    player: player.clone(),
                    reason: format!("prompt {prompt_no} ({}): {e}", game.prompt(seat).text),
                })?;
                events.extend(game.apply(&[Submitted::new(seat, order)]));
            }
            // Nobody answers: the prompt falls to the policy or the default (`how`).
            None => events.extend(game.answer_by_default()),
        }
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
                .enumerate()
                .map(|(i, x)| OutRacer {
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
                    power: r.power(i).map(|k| k.name().to_string()),
                    copying: x
                        .copying
                        .and_then(|t| r.racers.get(t))
                        .map(|t| t.kind.name().to_string()),
                    prediction: x
                        .prediction
                        .and_then(|t| r.racers.get(t))
                        .map(|t| t.kind.name().to_string()),
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
    let (prompts, rolls, roll_offs) = read_events(events, &name);
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
        next: race.filter(|r| !r.over).and_then(|r| next_turn(r, &name)),
        roll_offs,
        dice_left: race
            .and_then(|r| r.dice.as_ref().map(std::collections::VecDeque::len))
            .unwrap_or(0),
        log,
    }
}

/// The turn under way or next: a player's (their racers in pick order), or a racer's extra
/// turn.
fn next_turn(race: &Race, name: &dyn Fn(Seat) -> String) -> Option<OutNext> {
    let mut slot = race.slot;
    if slot == Slot::BeforeRace {
        slot = race.upcoming_slot()?;
    }
    match slot {
        Slot::Player { seat } => {
            let racers = race
                .racers
                .iter()
                .filter(|x| x.racing() && x.seat == seat)
                .map(|x| x.kind.name().to_string())
                .collect();
            Some(OutNext {
                player: name(seat),
                racers,
                extra: None,
            })
        }
        Slot::Extra { racer, power } => race.racers.get(racer).map(|x| OutNext {
            player: name(x.seat),
            racers: vec![x.kind.name().to_string()],
            extra: Some(power.name().to_string()),
        }),
        Slot::BeforeRace => None,
    }
}

/// The prompts answered, the dice rolled in the race and the roll-offs, from the events.
fn read_events(
    events: &[Event],
    name: &dyn Fn(Seat) -> String,
) -> (Vec<OutPrompt>, Vec<u8>, Vec<OutRollOff>) {
    let mut prompts = Vec::new();
    let mut rolls = Vec::new();
    let mut roll_offs = Vec::new();
    for e in events {
        if let Event::RollOff {
            purpose,
            rolls,
            winner,
        } = e
        {
            roll_offs.push(OutRollOff {
                purpose: purpose.clone(),
                rolls: rolls.iter().map(|&(s, v)| (name(s), v)).collect(),
                winner: winner.map(name),
            });
        }
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
    (prompts, rolls, roll_offs)
}
