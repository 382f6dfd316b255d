//! `photofinish sim GAME`: bots race bots, and a summary is printed.

use std::process::ExitCode;

use crate::games::GameKind;
use crate::games::{SimArgs, SimBots, sim};

pub fn run(
    game: &str,
    count: u64,
    seed: u64,
    players: Option<usize>,
    options: String,
    bots: &str,
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
    match sim(kind, &args) {
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
