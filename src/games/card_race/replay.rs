//! Card-race replay scripts (docs/replay/card-race.md): a scripted game on the engine
//! alone, with the deals fixed where the script says, printed as JSON per team.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cards::{Card, normalise, read_card};
use super::rules::Options;
use super::state::{CardRace, Line, Phase, RoundEnd};
use super::views::PublicView;
use crate::engine::{
    DecisionWindow, Game, GameRng, Preferences, ScriptSeed, Seat, SeatSetup, Submitted, read_order,
};
use crate::games::registry::{AnyPublicView, GameKind};
use crate::games::replay::{Replay, ReplayError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    #[allow(dead_code)]
    game: String,
    #[serde(default)]
    options: Option<Value>,
    #[serde(default)]
    seed: ScriptSeed,
    players: Vec<ScriptPlayer>,
    #[serde(default)]
    rounds: Vec<ScriptRound>,
    #[serde(default)]
    plays: Vec<ScriptPlay>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ScriptPlayer {
    Name(String),
    Full {
        name: String,
        #[serde(default)]
        dirty_trick: Option<String>,
    },
}

/// One round's deal: hands by player, and the draw pile, top card first. Cards not
/// named are shuffled by the seed and fill the rest. `deck_size` states how many cards
/// the draw pile holds after the deal; the cards left over start the round in the junk
/// pile, with the ones `discard` names.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptRound {
    #[serde(default)]
    hands: serde_json::Map<String, Value>,
    #[serde(default)]
    deck: Vec<String>,
    #[serde(default)]
    deck_size: Option<usize>,
    #[serde(default)]
    discard: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ScriptPlay {
    /// `"Alice: play 100"`, `"Bob: missed"`, `"Bob: set dirty-trick ask"` or `"timeout"`.
    Line(String),
    Full {
        player: String,
        order: String,
    },
}

/// A team's status flags.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct OutStatus {
    pub rolling: bool,
    pub needs_green_light: bool,
    pub stopped_by: Vec<String>,
    pub speed_limit: bool,
    pub counterflow: bool,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct OutImmunity {
    pub card: String,
    pub dirty_trick: bool,
}

#[derive(Debug, Serialize)]
pub struct OutTeam {
    pub players: Vec<String>,
    pub distance: u32,
    /// Total of finished rounds.
    pub score: i64,
    /// The current round's score so far, by line (final once the round is over).
    pub round_score: i64,
    pub breakdown: serde_json::Map<String, Value>,
    pub status: OutStatus,
    pub immunities: Vec<OutImmunity>,
    /// 200s played this round (at most two).
    pub two_hundreds: usize,
    pub hand_sizes: Vec<usize>,
}

/// The open dirty-trick (counter) window.
#[derive(Debug, Serialize)]
pub struct OutWindow {
    pub attacker: String,
    pub attack: String,
    /// The attacked team.
    pub team: Vec<String>,
    /// Who may answer, in turn order.
    pub victims: Vec<String>,
    /// Whose play closes the window (`null` when the round ends as it closes).
    pub next: Option<String>,
    /// The window's length: seconds, or `"turn"` (the race's turn length).
    pub seconds: DecisionWindow,
}

#[derive(Debug, Serialize)]
pub struct OutRound {
    pub round: u32,
    pub ended_by: String,
    pub trip_by: Option<Vec<String>>,
    pub scores: Vec<OutRoundScore>,
}

#[derive(Debug, Serialize)]
pub struct OutRoundScore {
    pub players: Vec<String>,
    pub total: i64,
    pub breakdown: serde_json::Map<String, Value>,
}

#[derive(Debug, Serialize)]
pub struct Output {
    pub game: String,
    pub ruleset: String,
    /// Every option in force, keys as `/race settings` writes them.
    pub options: serde_json::Map<String, Value>,
    pub round: u32,
    pub target: u32,
    pub deck_left: usize,
    /// The junk pile, oldest first.
    pub discard: Vec<String>,
    /// Whose turn it is (`null` in a window, an extension decision, or at the end).
    pub turn: Option<String>,
    pub window: Option<OutWindow>,
    /// Who is deciding on the extension at 700 (published rules).
    pub extension_decision: Option<String>,
    pub teams: Vec<OutTeam>,
    pub rounds: Vec<OutRound>,
    pub pending: Vec<String>,
    pub finished: bool,
    pub winner: Option<Vec<String>>,
}

fn line_key(line: Line) -> &'static str {
    match line {
        Line::Distance => "distance",
        Line::Safeties => "immunities",
        Line::AllSafeties => "all_immunities",
        Line::DirtyTricks => "dirty_tricks",
        Line::Trip => "trip",
        Line::Delayed => "coronation",
        Line::SafeTrip => "safe_trip",
        Line::Extension => "extension",
        Line::Shutout => "hood",
    }
}

fn script_err(m: impl Into<String>) -> ReplayError {
    ReplayError::Script(m.into())
}

fn read_options(kind: GameKind, value: Option<&Value>) -> Result<Options, ReplayError> {
    let base = kind.default_options();
    let merged = match value {
        None | Some(Value::Null) => base,
        Some(Value::String(text)) => kind
            .apply_options(Some(&base), text)
            .map_err(|e| script_err(e.to_string()))?,
        Some(Value::Object(map)) => {
            let mut b = base;
            if let Value::Object(bm) = &mut b {
                for (k, v) in map {
                    bm.insert(k.replace('-', "_"), v.clone());
                }
            }
            b
        }
        Some(_) => return Err(script_err("options must be `key=value` text or an object")),
    };
    serde_json::from_value(merged).map_err(|e| script_err(format!("options: {e}")))
}

fn read_cards(list: &[Value], what: &str) -> Result<Vec<Card>, ReplayError> {
    list.iter()
        .map(|v| {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => {
                    return Err(script_err(format!(
                        "{what}: a card must be text, like \"100\""
                    )));
                }
            };
            match read_card(&normalise(&text)) {
                Some((card, "")) => Ok(card),
                _ => Err(script_err(format!("{what}: `{text}` is not a card"))),
            }
        })
        .collect()
}

fn find_seat(names: &[String], name: &str) -> Option<Seat> {
    let wanted = normalise(name);
    names
        .iter()
        .position(|n| normalise(n) == wanted)
        .and_then(Seat::from_index)
}

/// Builds a full deck (top card first) that deals `hands` (by seat; short hands are
/// filled at random) in round `round_no` and then draws `pile`; the deck's other cards
/// follow in `rng`'s order.
pub fn stack_cards(
    options: &Options,
    players: usize,
    round_no: usize,
    hands: Vec<Vec<Card>>,
    pile: Vec<Card>,
    rng: &mut GameRng,
) -> Result<Vec<Card>, String> {
    let round = RoundCards {
        hands,
        pile,
        ..RoundCards::default()
    };
    stack_round(options, players, round_no, round, rng).map(|(deck, _)| deck)
}

/// A round's cards as a script states them.
#[derive(Debug, Default)]
pub struct RoundCards {
    /// By seat; short hands are filled at random.
    pub hands: Vec<Vec<Card>>,
    /// The top of the draw pile, first drawn first.
    pub pile: Vec<Card>,
    /// Cards in the junk pile at the start.
    pub discard: Vec<Card>,
    /// The draw pile's size after the deal (`None`: every card not dealt or junked).
    pub pile_size: Option<usize>,
}

/// As [`stack_cards`], with a stated pile size and junk pile: returns the full deck (top
/// card first) and how many of its last cards start the round junked.
pub fn stack_round(
    options: &Options,
    players: usize,
    round_no: usize,
    round: RoundCards,
    rng: &mut GameRng,
) -> Result<(Vec<Card>, usize), String> {
    let RoundCards {
        mut hands,
        pile,
        discard,
        pile_size,
    } = round;
    let deal = options.rules().deal;
    let mut remainder = options.deck(players);
    hands.resize(players, Vec::new());
    for card in hands
        .iter()
        .flatten()
        .chain(pile.iter())
        .chain(discard.iter())
    {
        match remainder.iter().position(|c| c == card) {
            Some(i) => {
                remainder.remove(i);
            }
            None => {
                return Err(format!(
                    "round {round_no} names more `{}` cards than the deck holds",
                    card.name(options.rules().yards_names)
                ));
            }
        }
    }
    if let Some(h) = hands.iter().find(|h| h.len() > deal) {
        return Err(format!(
            "round {round_no}: a hand has {} cards; a deal is {deal}",
            h.len()
        ));
    }
    rng.shuffle(&mut remainder);
    for h in &mut hands {
        while h.len() < deal {
            match remainder.pop() {
                Some(c) => h.push(c),
                None => break,
            }
        }
    }
    let starter = (round_no.max(1) - 1) % players.max(1);
    let mut deck = Vec::new();
    for k in 0..deal {
        for i in 0..players {
            if let Some(&c) = hands.get((starter + i) % players).and_then(|h| h.get(k)) {
                deck.push(c);
            }
        }
    }
    let left = pile.len() + remainder.len() + discard.len();
    let size = pile_size.unwrap_or(pile.len() + remainder.len());
    if size < pile.len() {
        return Err(format!(
            "round {round_no}: the deck names {} cards but deck_size is {size}",
            pile.len()
        ));
    }
    if size + discard.len() > left {
        return Err(format!(
            "round {round_no}: deck_size {size} and {} junked cards need more than the {left} \
             cards left after the deal",
            discard.len()
        ));
    }
    deck.extend(pile);
    deck.extend(remainder);
    deck.extend(discard);
    Ok((deck, left - size))
}

fn stack_deck(
    options: &Options,
    names: &[String],
    round_no: usize,
    spec: &ScriptRound,
    rng: &mut GameRng,
) -> Result<(Vec<Card>, usize), ReplayError> {
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); names.len()];
    for (name, cards) in &spec.hands {
        let seat = find_seat(names, name)
            .ok_or_else(|| script_err(format!("round {round_no}: no player called {name}")))?;
        let list = cards
            .as_array()
            .ok_or_else(|| script_err(format!("round {round_no}: {name}'s hand must be a list")))?;
        let cards = read_cards(list, &format!("round {round_no}, {name}'s hand"))?;
        if let Some(h) = hands.get_mut(seat.index()) {
            *h = cards;
        }
    }
    let texts = |list: &[String]| list.iter().cloned().map(Value::String).collect::<Vec<_>>();
    let pile = read_cards(&texts(&spec.deck), &format!("round {round_no}'s deck"))?;
    let discard = read_cards(
        &texts(&spec.discard),
        &format!("round {round_no}'s discard"),
    )?;
    let round = RoundCards {
        hands,
        pile,
        discard,
        pile_size: spec.deck_size,
    };
    stack_round(options, names.len(), round_no, round, rng).map_err(script_err)
}

/// A score by line; lines worth 0 are left out (the lines still add up to the total).
fn breakdown(lines: &[super::state::ScoreLine]) -> serde_json::Map<String, Value> {
    lines
        .iter()
        .filter(|l| l.points != 0)
        .map(|l| (line_key(l.line).to_string(), Value::from(l.points)))
        .collect()
}

/// The options in force, keys as `/race settings` writes them (`target-score`).
fn options_out(options: &Options) -> serde_json::Map<String, Value> {
    match serde_json::to_value(options) {
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(k, v)| (k.replace('_', "-"), v))
            .collect(),
        _ => serde_json::Map::new(),
    }
}

/// One team in the output: its tableau, status and the round's score by line.
fn team_out(
    game: &CardRace,
    t: &super::game_views::TeamView,
    scores: &[super::state::RoundScore],
    over: bool,
) -> OutTeam {
    let label = |seats: &[Seat]| -> Vec<String> {
        seats.iter().map(|&s| game.name(s).to_string()).collect()
    };
    let current = scores.iter().find(|s| s.team == t.team);
    let (round_score, bd) = match (over, game.history().last()) {
        // After the last round, show its final lines.
        (true, Some(last)) => last
            .scores
            .iter()
            .find(|s| s.team == t.team)
            .map(|s| (s.total, breakdown(&s.lines)))
            .unwrap_or_default(),
        _ => current
            .map(|s| (s.total, breakdown(&s.lines)))
            .unwrap_or_default(),
    };
    OutTeam {
        players: label(&t.members),
        distance: t.distance,
        score: t.total,
        round_score,
        breakdown: bd,
        status: OutStatus {
            rolling: t.rolling,
            needs_green_light: t.needs_go,
            stopped_by: t
                .problems
                .iter()
                .filter(|p| p.is_battle_attack())
                .map(|&p| game.card_name(p).to_string())
                .collect(),
            speed_limit: t.limited,
            counterflow: t.counterflow,
        },
        immunities: t
            .safeties
            .iter()
            .map(|s| OutImmunity {
                card: game.card_name(s.card).to_string(),
                dirty_trick: s.dirty_trick,
            })
            .collect(),
        two_hundreds: t.two_hundreds,
        hand_sizes: t.members.iter().map(|&s| game.hand(s).len()).collect(),
    }
}

fn output(kind: GameKind, game: &CardRace, view: &PublicView) -> Output {
    let names = game.names();
    let label = |seats: &[Seat]| -> Vec<String> {
        seats.iter().map(|&s| game.name(s).to_string()).collect()
    };
    let scores = game.score_round();
    let over = view.finished || game.phase() == &Phase::Over;
    let teams = view
        .teams
        .iter()
        .map(|t| team_out(game, t, &scores, over))
        .collect();
    let rounds = game
        .history()
        .iter()
        .map(|r| OutRound {
            round: r.round,
            ended_by: match r.ended {
                RoundEnd::Trip { .. } => "trip".into(),
                RoundEnd::NoCards => "no-cards".into(),
            },
            trip_by: match r.ended {
                RoundEnd::Trip { team } => game.team(team).map(|t| label(&t.members)),
                RoundEnd::NoCards => None,
            },
            scores: r
                .scores
                .iter()
                .map(|s| OutRoundScore {
                    players: game
                        .team(s.team)
                        .map(|t| label(&t.members))
                        .unwrap_or_default(),
                    total: s.total,
                    breakdown: breakdown(&s.lines),
                })
                .collect(),
        })
        .collect();
    let winner = game.outcome().map(|o| {
        o.winners()
            .into_iter()
            .filter_map(|s| names.get(s.index()).cloned())
            .collect()
    });
    let name = |s: Seat| game.name(s).to_string();
    let card = |c: Card| game.card_name(c).to_string();
    let window = view.window.as_ref().map(|w| OutWindow {
        attacker: name(w.attacker),
        attack: card(w.attack),
        team: game
            .team(w.team)
            .map(|t| label(&t.members))
            .unwrap_or_default(),
        victims: label(&w.victims),
        next: w.next.map(name),
        seconds: w.window,
    });
    Output {
        game: kind.slug().to_string(),
        ruleset: format!("{:?}", game.options().ruleset).to_lowercase(),
        options: options_out(game.options()),
        round: view.round,
        target: view.target,
        deck_left: view.deck_left,
        discard: view.discard.iter().map(|&c| card(c)).collect(),
        turn: view.turn.map(name),
        window,
        extension_decision: view.extension_decision.map(name),
        teams,
        rounds,
        pending: game
            .pending()
            .seats
            .iter()
            .map(|&s| game.name(s).to_string())
            .collect(),
        finished: view.finished,
        winner,
    }
}

/// Runs a script and returns its JSON output, with the public view after each step.
pub fn run(kind: GameKind, script: Value) -> Result<Replay, ReplayError> {
    let script: Script = serde_json::from_value(script).map_err(|e| script_err(e.to_string()))?;
    let options = read_options(kind, script.options.as_ref())?;
    let mut names: Vec<String> = Vec::new();
    let mut seats = Vec::new();
    for p in &script.players {
        let (name, pref) = match p {
            ScriptPlayer::Name(n) => (n.clone(), None),
            ScriptPlayer::Full { name, dirty_trick } => (name.clone(), dirty_trick.clone()),
        };
        names.push(name.clone());
        seats.push(SeatSetup { name, choice: pref });
    }
    let (min, max) = CardRace::seat_limits(&options);
    if seats.len() < min || seats.len() > max {
        return Err(script_err(format!(
            "this game takes {min} to {max} players, not {}",
            seats.len()
        )));
    }
    let seed = script.seed.0;
    let mut rng = GameRng::from_seed(seed.derive("replay-deal"));
    let (decks, junk): (Vec<Vec<Card>>, Vec<usize>) = script
        .rounds
        .iter()
        .enumerate()
        .map(|(i, r)| stack_deck(&options, &names, i + 1, r, &mut rng))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .unzip();
    let mut game = CardRace::setup_scripted(&options, &seats, seed, decks, junk)
        .map_err(|e| script_err(e.to_string()))?;
    let mut views = Vec::new();
    for (i, play) in script.plays.iter().enumerate() {
        let step = i + 1;
        let (who, text) = match play {
            ScriptPlay::Full { player, order } => (Some(player.clone()), order.clone()),
            ScriptPlay::Line(line) => match line.split_once(':') {
                Some((p, o)) => (Some(p.trim().to_string()), o.trim().to_string()),
                None => (None, line.trim().to_string()),
            },
        };
        if game.outcome().is_some() {
            return Err(ReplayError::Turn {
                turn: step,
                reason: "the game is already over".into(),
            });
        }
        let Some(who) = who else {
            if normalise(&text) == "timeout" {
                // The deadline: the first pending seat's default, as missed.
                game.apply(&[]);
                views.push(AnyPublicView::CardRace(game.public_view()));
                continue;
            }
            return Err(ReplayError::Turn {
                turn: step,
                reason: format!("`{text}` is not `Name: order` or `timeout`"),
            });
        };
        let order_err = |reason: String| ReplayError::Order {
            turn: step,
            player: who.clone(),
            reason,
        };
        let seat = find_seat(&names, &who)
            .ok_or_else(|| order_err("there is no such player in this game".into()))?;
        let t = normalise(&text);
        if let Some(pref) = t.strip_prefix("set ") {
            game.set_preference(seat, pref)
                .map_err(|e| order_err(e.to_string()))?;
            continue;
        }
        if t == "missed" {
            if !game.pending().includes(seat) {
                return Err(order_err("there is nothing for them to miss now".into()));
            }
            let order = game.default_order(seat);
            game.apply(&[Submitted::missed(seat, order)]);
        } else {
            let order = read_order(&game, seat, &text).map_err(|e| order_err(e.to_string()))?;
            game.apply(&[Submitted::new(seat, order)]);
        }
        views.push(AnyPublicView::CardRace(game.public_view()));
    }
    let view = game.public_view();
    let out = output(kind, &game, &view);
    let output = serde_json::to_value(out).map_err(|e| script_err(e.to_string()))?;
    Ok(Replay { output, views })
}
