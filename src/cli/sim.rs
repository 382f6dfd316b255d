//! `photofinish sim GAME`: bots race bots, and a summary is printed.

use std::process::ExitCode;

use crate::games::GameKind;
use crate::games::{SimArgs, SimBots, sim};

#[allow(clippy::too_many_arguments)] // one per flag of the command
pub fn run(
    game: &str,
    count: u64,
    seed: u64,
    players: Option<usize>,
    options: String,
    bots: &str,
    by_lane: bool,
    json: bool,
) -> ExitCode {
    let Some(kind) = GameKind::from_slug(game) else {
        let known: Vec<&str> = GameKind::all().map(GameKind::slug).collect();
        eprintln!("unknown game `{game}`; the games are: {}", known.join(", "));
        return ExitCode::from(2);
    };
    let bots = match SimBots::parse(bots) {
        Ok(bots) => bots,
        Err(e) => {
            eprintln!("{e}");
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
    let result = match (by_lane, kind) {
        (false, _) => sim(kind, &args),
        (true, GameKind::FifteenHundred) => by_lane_table(&args),
        (true, _) => Err("--by-lane is for 1500m only".to_string()),
    };
    match result {
        Ok((text, value)) => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&value).unwrap_or_default()
                );
            } else {
                println!("{text}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `sim 1500m --by-lane`: golds by start lane.
fn by_lane_table(args: &SimArgs) -> Result<(String, serde_json::Value), String> {
    let table = crate::games::fifteen_hundred::sim::by_lane(args)?;
    let json = serde_json::to_value(&table).map_err(|e| e.to_string())?;
    Ok((table.to_string(), json))
}
