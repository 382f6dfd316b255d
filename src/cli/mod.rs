//! The command line: local play in the terminal, replay of scripted scenarios, simulation
//! and verification. Each subcommand is a thin shell over the library.

mod render;
mod replay;
mod sim;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A referee for play-by-post racing board games.
#[derive(Debug, Parser)]
#[command(name = "photofinish", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scripted race with no database and print JSON on stdout.
    Replay {
        /// The script (JSON); see docs/replay.md.
        script: std::path::PathBuf,
    },
    /// Draw the pictures the channel would get for each turn of a replay script.
    Render {
        /// The script (JSON), as for `replay`.
        script: std::path::PathBuf,
        /// Where to write turn-01.png, ... and race-chart.png.
        #[arg(long, default_value = ".")]
        out: std::path::PathBuf,
    },
    /// Race bots against each other and print a summary.
    Sim {
        /// The game, e.g. dream-mile.
        game: String,
        /// How many races (or games) to run.
        #[arg(long, visible_alias = "games", default_value_t = 1000)]
        races: u64,
        /// The first seed; race i uses seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players (bots) per race.
        #[arg(long)]
        players: Option<usize>,
        /// Extra game options as key=value text.
        #[arg(long, default_value = "")]
        options: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the command line and returns the process's exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Replay { script } => replay::run(&script),
        Command::Render { script, out } => render::run(&script, &out),
        Command::Sim {
            game,
            races,
            seed,
            players,
            options,
            json,
        } => sim::run(&game, races, seed, players, options, json),
    }
}
