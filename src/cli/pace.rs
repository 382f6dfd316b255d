//! `photofinish sim GAME --pace`: how many questions each seat is asked under each
//! autopilot setting, and how long a game is expected to take at a human pace; `photofinish
//! sim pace` prints docs/pace.md (the model is described there and in [`PaceModel`]).

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use crate::engine::{Autopilot, BotLevel, GameRng, Mode, Seat, SeatSetup, Seed, Submitted, Window};
use crate::games::length::{LENGTHS, Length};
use crate::games::{AnyGame, AnyOrder, GameKind};

/// A game that has not ended after this many steps is cut short (none does at defaults).
const MAX_STEPS: usize = 50_000;

/// How long people take to answer.
///
/// Each answer is drawn on its own, per seat, from a log-normal distribution: its median
/// is `median_secs` and its log has standard deviation `sigma` (the tail: with 1.0, one
/// answer in 20 takes over 5 times the median). An answer never takes longer than the
/// step's window: at the deadline the game plays the seat's default order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PaceModel {
    pub median_secs: f64,
    pub sigma: f64,
    /// The race's turn length (the referee's default for new races).
    pub turn_secs: f64,
}

impl Default for PaceModel {
    fn default() -> Self {
        PaceModel {
            median_secs: 4.0 * 3600.0,
            sigma: 1.0,
            turn_secs: 24.0 * 3600.0,
        }
    }
}

impl PaceModel {
    /// One answer's time in seconds, capped by the step's window.
    pub fn answer(&self, rng: &mut GameRng, window: Window) -> f64 {
        let cap = match window {
            Window::Turn | Window::Decision => self.turn_secs,
            Window::Seconds(s) => (s as f64).min(self.turn_secs),
        };
        let z = standard_normal(rng);
        (self.median_secs * (self.sigma * z).exp()).min(cap)
    }
}

/// A uniform draw in (0, 1), from the top 53 bits.
fn unit(rng: &mut GameRng) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// Box-Muller: one standard normal draw.
fn standard_normal(rng: &mut GameRng) -> f64 {
    let (u1, u2) = (unit(rng), unit(rng));
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// What one step costs: every listed seat answers at once (`All`): the slowest; the first
/// answer decides (`Any`): the fastest. Nobody asked: nothing.
pub fn step_cost(mode: Mode, times: &[f64]) -> f64 {
    let mut it = times.iter().copied();
    let Some(first) = it.next() else {
        return 0.0;
    };
    match mode {
        Mode::All => it.fold(first, f64::max),
        Mode::Any => it.fold(first, f64::min),
    }
}

/// Whether `seat` is asked under `setting` now, or the order played for it without asking.
fn played_for(
    game: &AnyGame,
    seat: Seat,
    setting: Autopilot,
    rng: &mut GameRng,
) -> Option<AnyOrder> {
    match setting {
        Autopilot::Ask => None,
        Autopilot::Auto => game.autopilot(seat).map(|(o, _)| o),
        Autopilot::Bot => Some(game.bot_order(seat, BotLevel::Heuristic, rng)),
    }
}

/// One game's count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OneGame {
    /// Questions each seat was asked.
    pub asked: Vec<u64>,
    /// Of those, questions with a single choice.
    pub single: Vec<u64>,
    /// Seats that had to act, step by step (asked or played for).
    pub prompts: u64,
    pub steps: u64,
    pub secs: f64,
}

/// Plays one game: asked seats answer as the heuristic bot would, after a drawn time.
pub fn play_one(
    kind: GameKind,
    options: &Value,
    players: usize,
    seed: u64,
    setting: Autopilot,
    model: &PaceModel,
) -> Result<OneGame, String> {
    let seats: Vec<SeatSetup> = (1..=players)
        .map(|i| SeatSetup::named(format!("Player{i}")))
        .collect();
    let seed = Seed::from_u64(seed);
    let mut game = kind
        .setup(options, &seats, seed)
        .map_err(|e| e.to_string())?;
    let mut bots = GameRng::from_seed(seed.derive("pace-bots"));
    let mut clock = GameRng::from_seed(seed.derive("pace-answers"));
    let mut out = OneGame {
        asked: vec![0; players],
        single: vec![0; players],
        ..OneGame::default()
    };
    for _ in 0..MAX_STEPS {
        let pending = game.pending();
        if pending.is_empty() {
            break;
        }
        let mut played = Vec::new();
        let mut answers: Vec<(f64, Submitted<AnyOrder>)> = Vec::new();
        out.prompts = out.prompts.saturating_add(pending.seats.len() as u64);
        for &seat in &pending.seats {
            if let Some(order) = played_for(&game, seat, setting, &mut bots) {
                played.push(Submitted::new(seat, order));
                continue;
            }
            let prompt = game.prompt(seat);
            if let Some(n) = out.asked.get_mut(seat.index()) {
                *n = n.saturating_add(1);
            }
            if prompt.complete
                && prompt.choices.len() == 1
                && let Some(n) = out.single.get_mut(seat.index())
            {
                *n = n.saturating_add(1);
            }
            let order = game.bot_order(seat, BotLevel::Heuristic, &mut bots);
            let time = model.answer(&mut clock, pending.window);
            answers.push((time, Submitted::new(seat, order)));
        }
        let orders = match pending.mode {
            Mode::All => {
                let times: Vec<f64> = answers.iter().map(|a| a.0).collect();
                out.secs += step_cost(Mode::All, &times);
                played.extend(answers.into_iter().map(|a| a.1));
                played
            }
            // The first answer decides: one played without asking comes first of all.
            Mode::Any if !played.is_empty() => played,
            Mode::Any => {
                answers.sort_by(|a, b| a.0.total_cmp(&b.0));
                out.secs += answers.first().map_or(0.0, |a| a.0);
                answers.into_iter().take(1).map(|a| a.1).collect()
            }
        };
        game.apply(&orders);
        out.steps = out.steps.saturating_add(1);
    }
    Ok(out)
}

/// Many games of one table row, summed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PaceRow {
    pub setting: &'static str,
    pub games: u64,
    /// Mean questions per game, seat by seat.
    pub asked_per_seat: Vec<f64>,
    /// The most questions one seat was asked in one game.
    pub most_asked: u64,
    /// Questions with a single choice, over all games and seats.
    pub single_choice: u64,
    pub mean_steps: f64,
    /// Expected duration: the mean, and the 90th percentile, in days.
    pub mean_days: f64,
    pub p90_days: f64,
}

impl PaceRow {
    pub fn asked_mean(&self) -> f64 {
        let n = self.asked_per_seat.len().max(1) as f64;
        self.asked_per_seat.iter().sum::<f64>() / n
    }

    /// The share of questions, in percent, with more than one choice (100 with none).
    pub fn real_share(&self) -> f64 {
        let asked = self.asked_per_seat.iter().sum::<f64>() * self.games as f64;
        if asked < 0.5 {
            return 100.0;
        }
        100.0 * (1.0 - self.single_choice as f64 / asked)
    }
}

/// The row a game's standing plays add: `auto` with every seat starting on the default
/// set (race option `standing-plays=yes`), for the games that have them.
const STANDING: &str = "auto, standing plays";

fn has_standing_plays(kind: GameKind) -> bool {
    kind.option_docs().iter().any(|d| d.key == "standing-plays")
}

/// What a row is run from.
#[derive(Clone, Debug)]
pub struct PaceSpec<'a> {
    pub kind: GameKind,
    /// `key=value` options over the kind's defaults.
    pub options: &'a str,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub model: PaceModel,
}

/// Runs `spec.games` games (game *i* from seed + *i*) under `setting`.
pub fn row(spec: &PaceSpec<'_>, setting: Autopilot) -> Result<PaceRow, String> {
    let options = spec
        .kind
        .apply_options(None, spec.options)
        .map_err(|e| e.to_string())?;
    let n = spec.players;
    let mut asked = vec![0u64; n];
    let (mut most, mut single, mut steps) = (0u64, 0u64, 0u64);
    let mut days = Vec::new();
    for i in 0..spec.games {
        let seed = spec.seed.wrapping_add(i);
        let g = if setting == Autopilot::Bot {
            // Bots answer at once: nobody is asked, and nothing is waited for.
            OneGame {
                asked: vec![0; n],
                single: vec![0; n],
                ..OneGame::default()
            }
        } else {
            play_one(spec.kind, &options, n, seed, setting, &spec.model)?
        };
        for (t, a) in asked.iter_mut().zip(&g.asked) {
            *t = t.saturating_add(*a);
        }
        most = most.max(g.asked.iter().copied().max().unwrap_or(0));
        single = single.saturating_add(g.single.iter().sum());
        steps = steps.saturating_add(g.steps);
        days.push(g.secs / 86_400.0);
    }
    let count = spec.games.max(1) as f64;
    days.sort_by(f64::total_cmp);
    // Nearest rank: the ceil(0.9 n)-th game.
    let p90 = days
        .len()
        .saturating_mul(9)
        .saturating_add(9)
        .checked_div(10)
        .and_then(|rank| rank.checked_sub(1))
        .and_then(|i| days.get(i))
        .copied()
        .unwrap_or(0.0);
    Ok(PaceRow {
        setting: setting.name(),
        games: spec.games,
        asked_per_seat: asked.iter().map(|&a| a as f64 / count).collect(),
        most_asked: most,
        single_choice: single,
        mean_steps: steps as f64 / count,
        mean_days: days.iter().sum::<f64>() / count,
        p90_days: p90,
    })
}

/// `sim GAME --pace`: one row per autopilot setting, with each seat's questions.
pub fn report(spec: &PaceSpec<'_>) -> Result<(String, Value), String> {
    let mut rows = Vec::new();
    for setting in Autopilot::ALL {
        rows.push(row(spec, setting)?);
    }
    let mut text = format!(
        "{} with {} seats{}: {} games from seed {}; answers take a median of {:.1} h (log-normal, sigma {})\n\n\
         setting  steps  questions per seat (mean, seat by seat)        single-choice  days (mean)  days (90%)\n",
        spec.kind.title(),
        spec.players,
        if spec.options.trim().is_empty() {
            String::new()
        } else {
            format!(", options {}", spec.options.trim())
        },
        spec.games,
        spec.seed,
        spec.model.median_secs / 3600.0,
        spec.model.sigma,
    );
    for r in &rows {
        let seats: Vec<String> = r.asked_per_seat.iter().map(|a| format!("{a:.1}")).collect();
        let _ = writeln!(
            text,
            "{:<8} {:>6.1}  {:<46} {:>13}  {:>11.1}  {:>10.1}",
            r.setting,
            r.mean_steps,
            seats.join(" "),
            r.single_choice,
            r.mean_days,
            r.p90_days
        );
    }
    let json = serde_json::json!({
        "game": spec.kind.slug(),
        "players": spec.players,
        "options": spec.options.trim(),
        "games": spec.games,
        "seed": spec.seed,
        "model": spec.model,
        "rows": rows,
    });
    Ok((text, json))
}

/// The seat counts of the tables.
const SEATS: [usize; 3] = [2, 4, 6];

/// The command that prints one table.
fn command(p: &Length, players: usize, games: u64, seed: u64, median: &str) -> String {
    let mut c = format!(
        "photofinish sim {} --pace --pace-median {median} --players {players} --races {games} --seed {seed}",
        p.kind.slug()
    );
    if !p.options.is_empty() {
        let _ = write!(c, " --options \"{}\"", p.options);
    }
    c
}

/// Acceptance checks, as they are written in the doc.
#[derive(Default)]
struct Checks {
    lines: Vec<String>,
}

impl Checks {
    fn check(&mut self, ok: bool, what: String) {
        self.lines.push(format!(
            "- {} {what}",
            if ok { "**holds**:" } else { "**fails**:" }
        ));
    }
}

/// The whole of docs/pace.md, from `games` seeded games per row.
pub fn doc(games: u64, seed: u64, model: &PaceModel, median: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Pace: questions per seat and expected duration\n\n\
         Generated by `photofinish sim pace --races {games} --seed {seed} --pace-median {median} > docs/pace.md`;\n\
         do not edit by hand. It is a benchmark of the rules and the autopilot, not a timed test.\n"
    );
    md.push_str(MODEL_TEXT);
    let mut checks = Checks::default();
    for p in LENGTHS {
        let _ = writeln!(md, "\n## {}: {}\n", p.kind.title(), p.name);
        let _ = writeln!(
            md,
            "| seats | setting | steps | questions per seat (mean) | most in one game | single-choice | more than one choice | days (mean) | days (90%) |\n\
             |---:|---|---:|---:|---:|---:|---:|---:|---:|"
        );
        let mut commands = Vec::new();
        for players in SEATS {
            let spec = PaceSpec {
                kind: p.kind,
                options: p.options,
                players,
                games,
                seed,
                model: *model,
            };
            let mut rows: Result<Vec<PaceRow>, String> =
                Autopilot::ALL.iter().map(|&a| row(&spec, a)).collect();
            if has_standing_plays(p.kind)
                && let Ok(rows) = rows.as_mut()
            {
                let options = format!("{} standing-plays=yes", p.options);
                let standing = PaceSpec {
                    options: options.trim(),
                    ..spec.clone()
                };
                if let Ok(mut r) = row(&standing, Autopilot::Auto) {
                    r.setting = STANDING;
                    rows.push(r);
                }
            }
            let rows = match rows {
                Ok(r) => r,
                Err(e) => {
                    let _ = writeln!(md, "| {players} | (not played: {e}) | | | | | | | |");
                    continue;
                }
            };
            commands.push(command(p, players, games, seed, median));
            for r in &rows {
                let _ = writeln!(
                    md,
                    "| {players} | {} | {:.1} | {:.1} | {} | {} | {:.0}% | {:.1} | {:.1} |",
                    r.setting,
                    r.mean_steps,
                    r.asked_mean(),
                    r.most_asked,
                    r.single_choice,
                    r.real_share(),
                    r.mean_days,
                    r.p90_days
                );
            }
            if players == 4 {
                accept(&mut checks, p, &rows);
            }
        }
        let _ = writeln!(md, "\nEach seat count's rows, seat by seat:\n");
        for c in commands {
            let _ = writeln!(md, "    {c}");
        }
    }
    let _ = writeln!(
        md,
        "\n## Targets, 4 seats at each game's defaults, `auto`\n"
    );
    for l in checks.lines {
        let _ = writeln!(md, "{l}");
    }
    md.push_str(NOTES_TEXT);
    md
}

fn accept(checks: &mut Checks, p: &Length, rows: &[PaceRow]) {
    let by = |name: &str| rows.iter().find(|r| r.setting == name);
    let (Some(ask), Some(auto)) = (by("ask"), by("auto")) else {
        return;
    };
    let what = format!("{} ({})", p.kind.title(), p.name);
    checks.check(
        auto.single_choice == 0,
        format!(
            "{what}: no single-choice question under auto ({} asked)",
            auto.single_choice
        ),
    );
    checks.check(
        auto.real_share() >= 90.0,
        format!(
            "{what}: at least 90% of the questions under auto have more than one choice ({:.0}%)",
            auto.real_share()
        ),
    );
    // The targets on how much is asked hold where the players let their own rules run:
    // the card races' standing plays are off until a player (or the race) turns them on.
    let (auto, what) = match by(STANDING) {
        Some(standing) => (standing, format!("{what} with standing plays on")),
        None => (auto, what),
    };
    let targets = p.kind.ask_targets();
    if let Some((most, why)) = targets.per_seat
        && p.options.is_empty()
    {
        checks.check(
            auto.asked_mean() <= most as f64,
            format!(
                "{what}: at most {most} questions a seat on average ({:.1})",
                auto.asked_mean()
            ),
        );
        // The reason is for a failure.
        let ok = auto.most_asked <= most;
        checks.check(
            ok,
            format!(
                "{what}: at most {most} questions a seat in every game (the most in one game: {}{})",
                auto.most_asked,
                if ok { String::new() } else { format!("; {why}") }
            ),
        );
    }
    if targets.half_of_ask {
        checks.check(
            auto.asked_mean() <= ask.asked_mean() / 2.0,
            format!(
                "{what}: at most half the questions of ask ({:.1} against {:.1})",
                auto.asked_mean(),
                ask.asked_mean()
            ),
        );
    }
    if p.shortest {
        checks.check(
            auto.mean_days <= 7.0,
            format!(
                "{what}, the shortest preset: within 7 days ({:.1} days on average, {:.1} at the 90th percentile)",
                auto.mean_days, auto.p90_days
            ),
        );
    }
}

const MODEL_TEXT: &str = "\
## The model

- **Seats.** Every seat is a person playing as the heuristic bot would. Under `ask` every
  prompt the game sends is a question; under `auto` the orders autopilot plays (forced:
  the only legal order; obvious: the game's documented rule, `docs/rules/<game>.md`) are
  played at once and are not questions; under `bot` nobody is asked and nothing waits.
  Standing preferences (Magical Athlete's policies, the dirty-trick setting, the card
  races' standing plays) are each game's defaults; Magical Athlete's default policies for
  every-turn powers apply under `auto` only. The card races' standing plays are off by
  default; the row `auto, standing plays` starts every seat with the default set
  (`standing-plays=yes`). Game options such as Magical Athlete's `auto-roll` (on) apply in
  every row, so `ask` counts the prompts the game sends at its defaults.
- **Answer times.** Each answer is drawn on its own from a log-normal distribution with
  a median of 4 hours (`--pace-median`) and sigma 1.0 for the log (the tail: one answer in
  20 takes over 5 times the median, about 21 hours). An answer never waits longer than
  the step's window: the race's turn length (24 hours, the default for new races), which is
  also what a decision in the middle of a turn waits at the defaults (Magical Athlete's
  `decision-timeout` and the card races' `counter-timeout` are `turn`; a host's shorter
  window, in seconds, would cap it instead); then the game plays the seat's default order.
- **Steps.** A step where several seats order at once costs the slowest answer; a step
  that one seat's order closes (a dirty-trick window) costs the fastest. Orders played
  without asking cost nothing. A game's expected duration is the sum over its steps;
  the tables give the mean over the games and the 90th percentile.
- **Columns.** *questions per seat*: the mean over seats and games; *most in one game*:
  the most any seat was asked in one game; *single-choice*: questions, over all games and
  seats, whose prompt had exactly one choice; *more than one choice*: the share of
  questions that were real decisions (more than one legal choice, none of them forced or
  obvious); *steps*: steps the game took.
";

const NOTES_TEXT: &str = "
Under `auto`, the card races play a seat's **standing plays** once its player sets them
(a new seat has none; `standing default` sets `finish, remedy, attack, distance,
keep-safety, junk`, and race option `standing-plays=yes` starts every seat with them;
`docs/rules/1000-miles.md`, *Standing plays*); the targets on how much is asked are held
for the card races with them on. Magical Athlete answers a power that asks
every turn by its documented default policy (option `auto-policies`;
`docs/rules/magical-athlete.md`, *Autopilot*). The draft and the racer picks (about 7 a
seat in the four-race game) are always asked.
";

#[cfg(test)]
#[path = "pace_tests.rs"]
mod tests;
