//! Every field of an export is guarded: a random finished race of each game, as its JSON,
//! changed at one place (a number moved by one, one character of a string, a flag
//! flipped, a null given a value, an array element removed or doubled, an object field
//! removed) must not pass for the race. Either the file no longer reads as an export (and
//! `read_export`, which `verify --file` reads with, says why), or `verify_export` names a
//! problem; only what the replay cannot determine ([`PROOF_ONLY`]) may pass `verify`, and
//! then the record's proof differs from the one posted with the result.
//!
//! Each case visits every field of the file (every path with its array indices folded to
//! `*`) at one of its places, picked at random; each case is one race of every game. 2 cases; raise `with_cases` to
//! search longer.

use std::panic::{AssertUnwindSafe, catch_unwind};

use photofinish::engine::{BotLevel, GameRng, Mode, Seat, SeatSetup, Seed, Submitted};
use photofinish::games::GameKind;
use photofinish::referee::chain::proof;
use photofinish::referee::export::{
    EXPORT_FORMAT, EXPORT_VERSION, Export, ExportOrder, ExportPlacing, ExportPreference,
    ExportSeat, ExportStep, read_export,
};
use photofinish::referee::verify::verify_export;
use photofinish::store::OrderSource;
use photofinish::vocab::Phase;
use proptest::prelude::*;
use serde_json::Value;

/// Fields the replay cannot determine (docs/export.md, "What the check proves"): a
/// change to one may pass `verify`, and then the proof must differ. Patterns fold array
/// indices to `*`.
const PROOF_ONLY: &[&str] = &[
    // Who was a person or a bot, and at what level: the orders are recorded either way.
    "seats[*].bot",
    "seats[*].human",
    // A pre-race choice the race never tested (a maximum speed no runner reached).
    "seats[*].choice",
    // An order's source other than `default` (a missed order plays differently).
    "steps[*].orders[*].source",
    // An option that did not change the race: the file's `options_text` must still be
    // the options' (verify checks it), and an option left out reads as its default.
    "options.*",
    // Who set a standing preference, when, and how often: the recorded orders stand
    // either way (verify checks that the game takes each one).
    "preferences[*]",
    "preferences[*].seat",
    "preferences[*].step",
    // A step's label: its wording is a release's (an older one read "Round 1: Alice to
    // play"), so verify takes the file's.
    "steps[*].label",
    // The times and whether a step was late.
    "created_at",
    "ended_at",
    "steps[*].opened_at",
    "steps[*].resolved_at",
    "steps[*].late",
];

/// Fields an older release wrote differently and reading rewrites: the first release
/// named a winner of a tied Magical Athlete roll-off, so a tie's winner reads as none
/// whatever the file says (and then the proof differs). Any other winner is checked.
/// Only a null one (a tie's) may pass `verify` changed.
const OLD_FORMS: &[&str] = &["steps[*].events[*].event.winner"];

/// Fields left out of the check and the proof on purpose: the writer's own note
/// (docs/export.md: "Informative"), which a newer writer of the same race changes.
const FREE: &[&str] = &["generator"];

/// One step of a path into the JSON.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

/// A path as text (`steps[3].orders[0].receipt`), and folded (`steps[*].orders[*].receipt`).
fn show(path: &[Seg], fold: bool) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Seg::Key(k) if out.is_empty() => out.push_str(k),
            Seg::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Index(_) if fold => out.push_str("[*]"),
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Every path in `v` below the root, each object field and array element, recursively.
fn paths(v: &Value, at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                at.push(Seg::Key(k.clone()));
                out.push(at.clone());
                paths(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(Seg::Index(i));
                out.push(at.clone());
                paths(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn get<'a>(v: &'a Value, path: &[Seg]) -> &'a Value {
    path.iter().fold(v, |v, s| match s {
        Seg::Key(k) => &v[k.as_str()],
        Seg::Index(i) => &v[*i],
    })
}

fn node<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Seg::Key(k) => &mut v[k.as_str()],
        Seg::Index(i) => &mut v[*i],
    })
}

/// One change to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// A leaf given another value of its JSON type (a null, some value).
    Value,
    /// Removed from its object or array.
    Remove,
    /// An array element doubled.
    Duplicate,
}

/// Another character of the same kind: digits stay digits, hex letters stay hex letters.
fn other_char(c: char) -> char {
    match c {
        '0'..='8' | 'a'..='e' | 'A'..='Y' | 'g'..='y' => char::from(u8::try_from(c).unwrap() + 1),
        '9' => '0',
        'f' => 'a',
        'z' => 'g',
        'Z' => 'A',
        _ => 'x',
    }
}

/// `v` with `change` made at `path`; `None` when there is nothing to make (a root field
/// is never doubled). `nulls` are values the same field has elsewhere in the file.
fn changed(v: &Value, path: &[Seg], change: Change, nulls: &[Value]) -> Option<Value> {
    let mut t = v.clone();
    let (last, parent) = path.split_last()?;
    match change {
        Change::Value => {
            let n = node(&mut t, path);
            *n = match &*n {
                Value::Number(x) => match (x.as_u64(), x.as_i64()) {
                    (Some(u), _) => Value::from(u.checked_add(1).unwrap_or(0)),
                    (None, Some(i)) => Value::from(i.saturating_add(1)),
                    _ => Value::from(x.as_f64().unwrap_or(0.0) + 1.0),
                },
                Value::String(s) => {
                    let mut cs: Vec<char> = s.chars().collect();
                    match cs.first_mut() {
                        Some(c) => *c = other_char(*c),
                        None => cs.push('x'),
                    }
                    Value::String(cs.into_iter().collect())
                }
                Value::Bool(b) => Value::Bool(!b),
                Value::Null => nulls.first().cloned().unwrap_or_else(|| Value::from(0)),
                Value::Array(_) | Value::Object(_) => return None,
            };
        }
        Change::Remove => match (node(&mut t, parent), last) {
            (Value::Object(o), Seg::Key(k)) => {
                o.remove(k);
            }
            (Value::Array(a), Seg::Index(i)) => {
                a.remove(*i);
            }
            _ => return None,
        },
        Change::Duplicate => match (node(&mut t, parent), last) {
            (Value::Array(a), Seg::Index(i)) => {
                let x = a[*i].clone();
                a.insert(*i, x);
            }
            _ => return None,
        },
    }
    Some(t)
}

/// The quoted examples of a game's preference help that the game takes (`` `order back` ``).
fn preference_examples(kind: GameKind) -> Vec<String> {
    let Some(help) = kind.preference_help() else {
        return Vec::new();
    };
    help.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !t.contains('<'))
        .map(str::to_owned)
        .collect()
}

/// A whole random race: 2 or 3 seats as the game allows, each a person or a bot of some
/// level, some with a pre-race choice, a few standing preferences, one order in five
/// missed, and the times moving on.
fn random_race(kind: GameKind, seed: u64) -> Export {
    let revealed = Seed::from_u64(seed);
    let mut rng = GameRng::from_seed(revealed.derive("tamper"));
    let options = kind.default_options();
    let (min, max) = kind.seat_limits(&options).unwrap();
    // At most 3: a card race of more runs to many hundred steps, each replayed per change.
    let top = max.min(3).max(min);
    let n = min + usize::try_from(rng.below(u32::try_from(top - min + 1).unwrap())).unwrap();
    let menu = kind.seat_choice_menu(&options);
    let levels = [
        None,
        Some(BotLevel::Random),
        Some(BotLevel::Heuristic),
        Some(BotLevel::Expert),
    ];
    let mut seats = Vec::new();
    for i in 0..n {
        let choice = match rng.below(2) {
            0 if !menu.is_empty() => Some(
                menu[usize::try_from(rng.below(u32::try_from(menu.len()).unwrap())).unwrap()]
                    .1
                    .clone(),
            ),
            0 => kind
                .max_speed_choice(u8::try_from(6 + rng.below(5)).unwrap())
                .filter(|c| kind.check_seat_choice(&options, c).is_ok()),
            _ => None,
        };
        let bot = levels[usize::try_from(rng.below(4)).unwrap()];
        seats.push(ExportSeat {
            seat: Seat(u8::try_from(i).unwrap()),
            name: format!("Runner {i}"),
            bot,
            human: bot.is_none() || rng.below(3) == 0,
            choice,
        });
    }
    let mut setups: Vec<SeatSetup> = seats
        .iter()
        .map(|s| SeatSetup {
            name: s.name.clone(),
            choice: s.choice.clone(),
        })
        .collect();
    // Not every count in the limits is playable (1000 miles has no 5): fewer seats then.
    let mut game = loop {
        match kind.setup(&options, &setups, revealed) {
            Ok(g) => break g,
            Err(e) => {
                assert!(seats.len() > min, "{kind}: {e}");
                seats.pop();
                setups.pop();
            }
        }
    };
    let n = seats.len();
    let race = i64::try_from(seed % 1000).unwrap() + 1;
    let examples = preference_examples(kind);
    let mut preferences = Vec::new();
    let created_at = 1_764_100_000_000 + i64::from(rng.below(1_000_000));
    let mut now = created_at + 60_000;
    let mut steps = Vec::new();
    while game.outcome().is_none() {
        assert!(steps.len() < 5000, "{kind} did not end");
        let step = u32::try_from(steps.len()).unwrap();
        // Now and then a standing preference, one the game takes.
        if !examples.is_empty() && rng.below(8) == 0 {
            let seat = Seat(u8::try_from(rng.below(u32::try_from(n).unwrap())).unwrap());
            let text = &examples
                [usize::try_from(rng.below(u32::try_from(examples.len()).unwrap())).unwrap()];
            if game.set_preference(seat, text).is_ok() {
                preferences.push(ExportPreference {
                    step,
                    seat,
                    text: text.clone(),
                });
            }
        }
        let pending = game.pending();
        let who: Vec<Seat> = match pending.mode {
            Mode::All => pending.seats.clone(),
            Mode::Any => pending.seats.first().copied().into_iter().collect(),
        };
        let mut orders = Vec::new();
        for seat in who {
            let (order, source) = if rng.below(5) == 0 {
                (game.default_order(seat), OrderSource::Default)
            } else {
                let source = if seats[usize::from(seat.0)].bot.is_some() {
                    OrderSource::Bot
                } else {
                    OrderSource::Player
                };
                // The heuristic, whatever the seat's level: random play makes card races
                // run to thousands of steps.
                (game.bot_order(seat, BotLevel::Heuristic, &mut rng), source)
            };
            let text = game.format_order(seat, &order);
            let nonce = format!("{:016x}", rng.next_u64());
            orders.push(ExportOrder {
                seat,
                receipt: photofinish::referee::work::receipt_for(race, step, seat, &text, &nonce),
                text,
                order,
                source,
                nonce,
            });
        }
        let submitted: Vec<_> = orders
            .iter()
            .map(|o| Submitted {
                seat: o.seat,
                order: o.order.clone(),
                missed: o.source == OrderSource::Default,
            })
            .collect();
        let events = game.apply(&submitted);
        let opened_at = now;
        now += 1000 + i64::from(rng.below(3_600_000));
        steps.push(ExportStep {
            step,
            label: pending.label.clone(),
            late: rng.below(10) == 0,
            opened_at,
            resolved_at: Some(now),
            orders,
            events,
        });
    }
    let name = |s: Seat| seats[usize::from(s.0)].name.clone();
    let result = game.outcome().map(|o| {
        o.placings
            .iter()
            .map(|p| ExportPlacing {
                seat: p.seat,
                name: name(p.seat),
                rank: p.rank,
                score: p.score,
            })
            .collect()
    });
    Export {
        format: EXPORT_FORMAT.into(),
        version: EXPORT_VERSION,
        generator: "photofinish test".into(),
        race,
        game: kind,
        options_text: kind.describe_options(&options),
        options,
        phase: Phase::Finished,
        created_at,
        ended_at: Some(now),
        started: true,
        commitment: revealed.commitment(),
        seed: revealed.to_hex(),
        seats,
        preferences,
        steps,
        result,
    }
}

/// Whether a changed file still reads as an export.
fn reads(file: Option<&Value>) -> bool {
    file.is_some_and(|f| read_export(&f.to_string()).is_ok())
}

/// The names of kinds an export holds: phases, games, bot levels, order sources.
fn vocabulary() -> Vec<Value> {
    let mut out: Vec<Value> = [
        Phase::Lobby,
        Phase::Running,
        Phase::Paused,
        Phase::Finished,
        Phase::Cancelled,
    ]
    .iter()
    .map(|p| serde_json::to_value(p).unwrap())
    .collect();
    out.extend(GameKind::all().map(|k| serde_json::to_value(k).unwrap()));
    out.extend(
        [BotLevel::Random, BotLevel::Heuristic, BotLevel::Expert]
            .iter()
            .map(|b| serde_json::to_value(b).unwrap()),
    );
    out.extend(
        [
            OrderSource::Player,
            OrderSource::Bot,
            OrderSource::Default,
            OrderSource::Auto,
        ]
        .iter()
        .map(|o| serde_json::to_value(o).unwrap()),
    );
    out
}

/// What became of one changed file; `Err` is the finding, in words.
/// `was_null`: the field was null in the race's file (a tie's roll-off winner).
fn judge(
    original: &Export,
    p: &str,
    file: &Value,
    path: &str,
    change: Change,
    was_null: bool,
) -> Result<(), String> {
    let text = serde_json::to_string(file).unwrap();
    let read = catch_unwind(|| read_export(&text))
        .map_err(|_| format!("{path} ({change:?}): reading the file panicked"))?;
    let t = match read {
        Err(e) => {
            let why = e.to_string();
            return if why.is_empty() {
                Err(format!("{path} ({change:?}): refused without a word"))
            } else {
                Ok(())
            };
        }
        Ok(t) => t,
    };
    if &t == original {
        // Only leaving out a field whose absence reads as its value changes nothing.
        return if change == Change::Remove {
            Ok(())
        } else {
            Err(format!(
                "{path} ({change:?}): the change reads as the same race"
            ))
        };
    }
    let r = catch_unwind(AssertUnwindSafe(|| verify_export(&t)))
        .map_err(|_| format!("{path} ({change:?}): verify panicked"))?;
    if !r.ok() {
        return Ok(());
    }
    let folded = path_pattern(path);
    if FREE.contains(&folded.as_str())
        || (was_null && OLD_FORMS.contains(&folded.as_str()) && r.proof != p)
    {
        Ok(())
    } else if PROOF_ONLY.iter().any(|f| {
        f.strip_suffix('*')
            .map_or(*f == folded, |prefix| folded.starts_with(prefix))
    }) {
        if r.proof == p {
            Err(format!(
                "{path} ({change:?}): verify passes it and the proof is the same"
            ))
        } else {
            Ok(())
        }
    } else {
        Err(format!("{path} ({change:?}): verify passes it"))
    }
}

/// The folded form of a shown path.
fn path_pattern(path: &str) -> String {
    let mut out = String::new();
    let mut skip = false;
    for c in path.chars() {
        match c {
            '[' => {
                out.push_str("[*]");
                skip = true;
            }
            ']' => skip = false,
            _ if skip => {}
            c => out.push(c),
        }
    }
    out
}

/// Every field of `x`'s file, each at one place picked by `pick`, each change it takes.
fn tamper_everywhere(x: &Export, pick: u64) -> Vec<String> {
    let v = serde_json::to_value(x).unwrap();
    let p = proof(x);
    let mut all = Vec::new();
    paths(&v, &mut Vec::new(), &mut all);
    let mut fields: Vec<(String, Vec<Vec<Seg>>)> = Vec::new();
    for path in all {
        let folded = show(&path, true);
        match fields.iter_mut().find(|(f, _)| *f == folded) {
            Some((_, at)) => at.push(path),
            None => fields.push((folded, vec![path])),
        }
    }
    let mut rng = GameRng::from_seed(Seed::from_u64(pick));
    let mut findings = Vec::new();
    for (_, at) in &fields {
        let path = &at[usize::try_from(rng.below(u32::try_from(at.len()).unwrap())).unwrap()];
        // A few other values the same field has (a null is given one of them).
        let mut nulls: Vec<Value> = Vec::new();
        if matches!(get(&v, path), Value::Null | Value::String(_)) {
            for q in at {
                let x = get(&v, q);
                if !x.is_null() && !nulls.contains(x) && nulls.len() < 8 {
                    nulls.push(x.clone());
                }
            }
        }
        for change in [Change::Value, Change::Remove, Change::Duplicate] {
            let mut file = changed(&v, path, change, &nulls);
            // A name of a kind (a phase, a source, a tag) changed by a letter is no longer
            // one, and the file does not read: another name that reads tests more.
            if change == Change::Value && get(&v, path).is_string() && !reads(file.as_ref()) {
                let pool = nulls.iter().cloned().chain(vocabulary());
                if let Some(other) = pool
                    .filter(|o| o != get(&v, path))
                    // Each try reads the whole file: a few are enough.
                    .take(6)
                    .map(|o| {
                        let mut t = v.clone();
                        *node(&mut t, path) = o;
                        t
                    })
                    .find(|t| reads(Some(t)))
                {
                    file = Some(other);
                }
            }
            if let Some(file) = file
                && let Err(e) = judge(
                    x,
                    &p,
                    &file,
                    &show(path, false),
                    change,
                    get(&v, path).is_null(),
                )
            {
                findings.push(e);
            }
        }
    }
    findings
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2))]

    #[test]
    fn every_field_of_every_game_s_export_is_covered(seed in any::<u64>(), pick in any::<u64>()) {
        for kind in GameKind::all() {
            let x = random_race(kind, seed);
            let back = read_export(&serde_json::to_string(&x).unwrap()).unwrap();
            prop_assert_eq!(&back, &x);
            let report = verify_export(&x);
            prop_assert!(report.ok(), "{}: {:?}", kind, report.problems);
            let findings = tamper_everywhere(&x, pick);
            eprintln!("{kind}: {} steps, every field changed", x.steps.len());
            prop_assert!(
                findings.is_empty(),
                "{} ({} steps), {} fields not refused:\n{}",
                kind,
                x.steps.len(),
                findings.len(),
                findings.join("\n")
            );
        }
    }
}
