//! `photofinish sim GAME`: bots race bots, and a summary is printed; `photofinish sim
//! balance` runs every game's balance table and prints docs/balance.md.

use std::fmt::Write as _;
use std::process::ExitCode;

use serde_json::Value;

use super::cpu::ThreadCpu;
use super::pace::{self, PaceModel, PaceSpec};
use crate::engine::BotLevel;
use crate::engine::expert::Budget;
use crate::games::GameKind;
use crate::games::strength::{self, ExpertSeats};
use crate::games::{SimArgs, SimBots, sim, sim_by_lane};

#[allow(clippy::too_many_arguments)] // one per flag of the command
pub fn run(
    game: &str,
    count: u64,
    seed: u64,
    players: Option<usize>,
    options: String,
    bots: &str,
    by_lane: bool,
    pace: Option<&str>,
    json: bool,
) -> ExitCode {
    if let Some(median) = pace {
        return pace_run(game, count, seed, players, &options, median, json);
    }
    if game.trim().eq_ignore_ascii_case("balance") {
        if players.is_some() || !options.trim().is_empty() || json {
            errln!(
                "sim balance sets each table's players and options and prints Markdown: give only --races and --seed"
            );
            return ExitCode::from(2);
        }
        out!("{}", balance(count, seed));
        return ExitCode::SUCCESS;
    }
    let Some(kind) = GameKind::from_slug(game) else {
        errln!(
            "unknown game `{game}`; the games are: {} (or balance, for every table)",
            GameKind::slugs()
        );
        return ExitCode::from(2);
    };
    let (bots, experts) = match expert_seats(bots) {
        Ok(read) => read,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    let bots = match SimBots::parse(&bots) {
        Ok(bots) => bots,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    let args = SimArgs {
        count,
        seed,
        players,
        options,
        bots,
    };
    let result = if by_lane {
        sim_by_lane(kind, &args).unwrap_or_else(|| Err("--by-lane is for 1500m only".to_string()))
    } else if experts != ExpertSeats::Default {
        strength::run_with(kind, &args, experts, &ThreadCpu).and_then(|s| {
            let json = serde_json::to_value(&s).map_err(|e| e.to_string())?;
            Ok((s.to_string(), json))
        })
    } else {
        sim(kind, &args, &ThreadCpu)
    };
    print_report(result, json)
}

/// Reads the expert's measurement levels out of `--bots`, leaving levels `SimBots` reads:
/// `expert:STEPS` is the expert on another budget (`expert::Budget::steps`), `omniscient`
/// its cheating twin that sees every hand and the deck (a measurement of luck, sim only),
/// `handpeek` the twin that sees every hand but not the deck.
fn expert_seats(bots: &str) -> Result<(String, ExpertSeats), String> {
    let mut special: Option<ExpertSeats> = None;
    let mut plain = false;
    let mut levels = Vec::new();
    for word in bots.split(',').map(str::trim) {
        let lower = word.to_ascii_lowercase();
        let seats = if lower == "omniscient" {
            ExpertSeats::OmniscientCheat
        } else if lower == "handpeek" {
            ExpertSeats::HandPeekCheat
        } else if let Some(steps) = lower.strip_prefix("expert:") {
            let steps = steps.parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                format!(
                    "`{word}`: write expert:STEPS with a whole number of steps, e.g. expert:60000"
                )
            })?;
            ExpertSeats::Fair(Budget {
                steps,
                ..Budget::default()
            })
        } else {
            plain |= BotLevel::parse(word) == Some(BotLevel::Expert);
            levels.push(word.to_string());
            continue;
        };
        if special.is_some_and(|s| s != seats) {
            return Err(one_expert());
        }
        special = Some(seats);
        levels.push("expert".into());
    }
    if plain && special.is_some() {
        return Err(one_expert());
    }
    Ok((levels.join(","), special.unwrap_or(ExpertSeats::Default)))
}

fn one_expert() -> String {
    "give one kind of expert in --bots: expert, expert:STEPS, omniscient or handpeek".into()
}

/// Prints a sim's report as text or JSON; a refusal is one line and exit code 2.
fn print_report(result: Result<(String, Value), String>, json: bool) -> ExitCode {
    match result {
        Ok((text, value)) => {
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                );
            } else {
                outln!("{text}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `sim GAME --pace`, and `sim pace --pace` (docs/pace.md).
fn pace_run(
    game: &str,
    count: u64,
    seed: u64,
    players: Option<usize>,
    options: &str,
    median: &str,
    json: bool,
) -> ExitCode {
    let refuse = |e: String| {
        errln!("{e}");
        ExitCode::from(2)
    };
    let Some(secs) = crate::referee::timing::parse_duration(median).filter(|&s| s > 0) else {
        return refuse(format!(
            "--pace-median `{median}` is not a duration; write e.g. 4h, 90m or 1d"
        ));
    };
    let model = PaceModel {
        median_secs: secs as f64,
        ..PaceModel::default()
    };
    if game.trim().eq_ignore_ascii_case("pace") {
        if players.is_some() || !options.trim().is_empty() || json {
            return refuse(
                "sim pace sets each table's players and options and prints Markdown: give only --races, --seed and --pace-median".into(),
            );
        }
        out!("{}", pace::doc(count, seed, &model, median.trim()));
        return ExitCode::SUCCESS;
    }
    let Some(kind) = GameKind::from_slug(game) else {
        return refuse(format!("unknown game `{game}` (or pace, for docs/pace.md)"));
    };
    let spec = PaceSpec {
        kind,
        options,
        players: players.unwrap_or(4),
        games: count,
        seed,
        model,
    };
    print_report(pace::report(&spec), json)
}

/// One table's run: the game, its players and options, with heuristic bots (or the
/// game's mix where heuristic bots alone would play one race over and over).
struct Run {
    kind: GameKind,
    players: Option<usize>,
    options: &'static str,
    mixed: bool,
}

impl Run {
    /// The command that prints this table's JSON.
    fn command(&self, count: u64, seed: u64) -> String {
        let mut c = format!(
            "photofinish sim {} --races {count} --seed {seed} --bots {}",
            self.kind.slug(),
            if self.mixed { "mixed" } else { "heuristic" }
        );
        if let Some(p) = self.players {
            let _ = write!(c, " --players {p}");
        }
        if !self.options.is_empty() {
            let _ = write!(c, " --options {}", self.options);
        }
        c.push_str(" --json");
        c
    }

    fn json(&self, count: u64, seed: u64) -> Result<Value, String> {
        let args = SimArgs {
            count,
            seed,
            players: self.players,
            options: self.options.into(),
            bots: if self.mixed {
                SimBots::Mixed
            } else {
                SimBots::Each(vec![crate::engine::BotLevel::Heuristic])
            },
        };
        sim(self.kind, &args, &ThreadCpu).map(|(_, json)| json)
    }
}

/// A number out of a summary's JSON (missing reads as 0).
fn num(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

fn pct(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        0.0
    }
}

/// The whole of docs/balance.md, from `count` seeded games per table.
pub fn balance(count: u64, seed: u64) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Balance tables\n\n\
         Generated by `photofinish sim balance --races {count} --seed {seed} > docs/balance.md`\n\
         (build with `--release`: `cargo run --release -- sim balance ...`); do not edit by hand.\n\
         Each table names the `photofinish sim` command whose JSON it formats. Every seat is\n\
         played by the heuristic bot (`--bots heuristic`); race *i* uses seed {seed} + *i*, so\n\
         the same command prints the same table."
    );
    magical_athlete(&mut md, count, seed);
    dream_mile(&mut md, count, seed);
    fifteen_hundred(&mut md, count, seed);
    for kind in [GameKind::MilleBornes, GameKind::ThousandYards] {
        card_race(&mut md, kind, count, seed);
    }
    md
}

fn pending(md: &mut String, why: &str) {
    let _ = writeln!(md, "\npending: {why}");
}

fn magical_athlete(md: &mut String, count: u64, seed: u64) {
    let _ = writeln!(
        md,
        "\n## Magical Athlete: each racer's win and second rate\n\n\
         Four racers a race, drawn at random from the 36, every choice by the default policies\n\
         (the heuristic bot). A fair share is 25% of wins and 25% of seconds."
    );
    for (track, options) in [("Mild", "track=mild"), ("Wild", "track=wild")] {
        let run = Run {
            kind: GameKind::MagicalAthlete,
            players: Some(4),
            options,
            mixed: false,
        };
        let _ = writeln!(md, "\n### {track} track\n\n`{}`", run.command(count, seed));
        let json = match run.json(count, seed) {
            Ok(j) => j,
            Err(e) => return pending(md, &e),
        };
        let Some(by) = json.get("by_racer").and_then(Value::as_object) else {
            return pending(md, "`sim magical-athlete` does not report `by_racer`");
        };
        let mut rows: Vec<(&String, f64, f64, f64)> = by
            .iter()
            .map(|(name, t)| {
                let races = num(t, "races");
                (
                    name,
                    races,
                    pct(num(t, "wins"), races),
                    pct(num(t, "seconds"), races),
                )
            })
            .collect();
        rows.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(b.0)));
        let _ = writeln!(
            md,
            "\n| racer | races | win % | 2nd % |\n|---|---:|---:|---:|"
        );
        for (name, races, win, second) in rows {
            let _ = writeln!(md, "| {name} | {races} | {win:.1} | {second:.1} |");
        }
        let _ = writeln!(
            md,
            "\nRaces ended by the turn limit: {}; races without a second place: {}.",
            num(&json, "capped"),
            num(&json, "no_second")
        );
    }
}

fn dream_mile(md: &mut String, count: u64, seed: u64) {
    let run = Run {
        kind: GameKind::DreamMile,
        players: Some(8),
        options: "",
        mixed: false,
    };
    let _ = writeln!(
        md,
        "\n## Dream Mile: win rate by maximum speed\n\n`{}`\n\n\
         Eight runners a race, each with a maximum speed drawn from 10 to 15 (each +1 costs 3\n\
         of the 45 starting points). A shared win counts as a share. A fair share is 12.5%.",
        run.command(count, seed)
    );
    let json = match run.json(count, seed) {
        Ok(j) => j,
        Err(e) => return pending(md, &e),
    };
    let Some(by) = json.get("by_max_speed").and_then(Value::as_object) else {
        return pending(md, "`sim dream-mile` does not report `by_max_speed`");
    };
    let options = crate::games::dream_mile::Options::default();
    let _ = writeln!(
        md,
        "\n| maximum speed | starting points | runners | wins | win % | x fair share |\n\
         |---:|---:|---:|---:|---:|---:|"
    );
    for (max, t) in by {
        let points = max
            .parse::<u8>()
            .map(|m| options.points_for(m))
            .unwrap_or(0);
        let runners = num(t, "runners");
        let win = pct(num(t, "wins"), runners);
        let _ = writeln!(
            md,
            "| {max} | {points} | {runners} | {:.1} | {win:.1} | {:.2} |",
            num(t, "wins"),
            win / 12.5
        );
    }
    let _ = writeln!(
        md,
        "\nRaces with a shared win: {}.",
        num(&json, "shared_wins")
    );
}

fn fifteen_hundred(md: &mut String, count: u64, seed: u64) {
    let run = Run {
        kind: GameKind::FifteenHundred,
        players: None,
        options: "",
        mixed: false,
    };
    let _ = writeln!(
        md,
        "\n## 1500m: win rate by start lane\n\n`{}`\n\n\
         A full field of heuristic bots on the default board (1500 m); each varies its bids and\n\
         cards from the race's seed, so races differ (docs/rules/1500m.md, *Fair starts*).\n\
         Gold % is the share of that lane's runners who won.",
        run.command(count, seed)
    );
    let json = match run.json(count, seed) {
        Ok(j) => j,
        Err(e) => return pending(md, &e),
    };
    let Some(by) = json.get("by_start_lane").and_then(Value::as_object) else {
        return pending(md, "`sim 1500m` does not report `by_start_lane`");
    };
    let races = num(&json, "races");
    let field: f64 = by.values().map(|t| num(t, "runners")).sum::<f64>() / races.max(1.0);
    let fair = pct(1.0, field);
    let _ = writeln!(
        md,
        "\nRunners a race: {field:.0}; a fair share is {fair:.1}%.\n\n\
         | start lane | runners | gold % | medal % | x fair share |\n|---:|---:|---:|---:|---:|"
    );
    let mut lanes: Vec<(u32, &Value)> = by
        .iter()
        .map(|(lane, t)| (lane.parse().unwrap_or(0), t))
        .collect();
    lanes.sort_by_key(|l| l.0);
    for (lane, t) in lanes {
        let runners = num(t, "runners");
        let gold = pct(num(t, "gold"), runners);
        let _ = writeln!(
            md,
            "| {lane} | {runners} | {gold:.1} | {:.1} | {:.2} |",
            pct(num(t, "medals"), runners),
            if fair > 0.0 { gold / fair } else { 0.0 }
        );
    }
}

fn card_race(md: &mut String, kind: GameKind, count: u64, seed: u64) {
    let _ = writeln!(
        md,
        "\n## {}: the first player's advantage and win rates by seat\n\n\
         Bot1 plays first in the first round (the start then rotates round by round), so Bot1's\n\
         win rate against a fair share is the first player's advantage over a whole game.\n\
         In team games a seat wins when its team does; a shared win counts as a share.",
        kind.title()
    );
    for players in [2, 3, 4] {
        let run = Run {
            kind,
            players: Some(players),
            options: "",
            mixed: false,
        };
        let _ = writeln!(
            md,
            "\n### {players} players\n\n`{}`",
            run.command(count, seed)
        );
        let json = match run.json(count, seed) {
            Ok(j) => j,
            Err(e) => {
                pending(md, &e);
                continue;
            }
        };
        let Some(seats) = json.get("by_seat").and_then(Value::as_array) else {
            pending(md, "the sim does not report `by_seat`");
            continue;
        };
        let teams = num(&json, "teams").max(1.0);
        let fair = 100.0 / teams;
        let _ = writeln!(
            md,
            "\n{} teams; a fair share is {fair:.1}%.\n\n\
             | seat | games | win % | x fair share | mean score |\n|---|---:|---:|---:|---:|",
            teams
        );
        for (i, t) in seats.iter().enumerate() {
            let games = num(t, "seats");
            let win = pct(num(t, "wins"), games);
            let mean = if games > 0.0 {
                num(t, "score_sum") / games
            } else {
                0.0
            };
            let _ = writeln!(
                md,
                "| Bot{} | {games} | {win:.1} | {:.2} | {mean:.0} |",
                i + 1,
                win / fair
            );
        }
        round_by_round(md, &json, fair);
    }
}

/// The first player's advantage round by round: each round's points won by the team that
/// opened it, the next in turn order, and so on (the sim's `by_position`).
fn round_by_round(md: &mut String, json: &Value, fair: f64) {
    let Some(places) = json.get("by_position").and_then(Value::as_array) else {
        return pending(md, "the sim does not report `by_position`");
    };
    let _ = writeln!(
        md,
        "\nRound by round, by each team's place in the round's turn order (1 opened the round); \
         a round is won by the most points scored in it:\n\n\
         | place | rounds | round win % | x fair share | mean round score |\n|---|---:|---:|---:|---:|"
    );
    for (i, t) in places.iter().enumerate() {
        let rounds = num(t, "seats");
        let win = pct(num(t, "wins"), rounds);
        let mean = if rounds > 0.0 {
            num(t, "score_sum") / rounds
        } else {
            0.0
        };
        let _ = writeln!(
            md,
            "| {} | {rounds} | {win:.1} | {:.2} | {mean:.0} |",
            i + 1,
            win / fair
        );
    }
    let _ = writeln!(
        md,
        "\nThe first player's advantage per round: {:.2} (1.00 is fair).",
        num(json, "first_player_advantage")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_read_the_experts_measurement_levels() {
        let fair = ExpertSeats::Default;
        assert_eq!(
            expert_seats("expert,heuristic").unwrap(),
            ("expert,heuristic".into(), fair)
        );
        assert_eq!(
            expert_seats("Omniscient, heuristic").unwrap(),
            ("expert,heuristic".into(), ExpertSeats::OmniscientCheat)
        );
        assert_eq!(
            expert_seats("heuristic,HandPeek").unwrap(),
            ("heuristic,expert".into(), ExpertSeats::HandPeekCheat)
        );
        let (levels, seats) = expert_seats("heuristic,expert:60000").unwrap();
        assert_eq!(levels, "heuristic,expert");
        assert!(
            matches!(seats, ExpertSeats::Fair(b) if b.steps == 60_000),
            "{seats:?}"
        );
        for bad in [
            "expert,omniscient",
            "omniscient,handpeek",
            "expert:100,expert:200",
            "expert:0",
            "expert:many",
        ] {
            let e = expert_seats(bad).unwrap_err();
            assert!(!e.contains('\n') && e.contains("expert"), "{bad}: {e}");
        }
        assert_eq!(expert_seats("mixed").unwrap(), ("mixed".into(), fair));
    }

    #[test]
    fn balance_prints_every_table_with_its_command() {
        let md = balance(2, 5);
        for heading in [
            "# Balance tables",
            "## Magical Athlete: each racer's win and second rate",
            "### Mild track",
            "### Wild track",
            "## Dream Mile: win rate by maximum speed",
            "## 1500m: win rate by start lane",
            "## 1000 miles: the first player's advantage and win rates by seat",
            "## 1000 Yards: the first player's advantage and win rates by seat",
            "photofinish sim balance --races 2 --seed 5",
            "`photofinish sim dream-mile --races 2 --seed 5 --bots heuristic --players 8 --json`",
            "`photofinish sim magical-athlete --races 2 --seed 5 --bots heuristic --players 4 --options track=wild --json`",
            "| maximum speed | starting points |",
            "| start lane |",
            "| Bot1 |",
        ] {
            assert!(md.contains(heading), "missing {heading}:\n{md}");
        }
        // Every table is filled in, none pending, the card races' round-by-round one too.
        assert!(!md.contains("pending"), "{md}");
        assert!(md.contains("| place | rounds | round win % |"), "{md}");
        assert!(
            md.contains("The first player's advantage per round:"),
            "{md}"
        );
        assert_eq!(md, balance(2, 5), "the same seed prints the same file");
    }
}
