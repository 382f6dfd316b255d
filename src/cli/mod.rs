//! The command line: local play in the terminal, replay of scripted scenarios, simulation
//! and verification. Each subcommand is a thin shell over the library.
//!
//! Every refusal (bad flags, a bad config, a bad script) exits 2 with one line on stderr
//! ([`refuse`], `refusal.rs`): never a value that may be secret, never megabytes of input.
//! `health` is the exception for a bad config: 0 healthy, 1 not (a config it cannot run on
//! included), 2 only for a bad command line.

#[macro_use]
mod output;

mod backup;
mod bench;
pub mod config;
mod cpu;
mod export;
pub mod health;
mod pace;
mod play;
#[cfg(test)]
mod playthrough;
mod refusal;
mod render;
mod replay;
mod run;
mod script;
pub mod serve;
mod sim;
mod verify;
mod words;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use refusal::{one_line, refuse};

/// A referee for play-by-post racing board games.
#[derive(Debug, Parser)]
#[command(name = "photofinish", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a whole race in the terminal: you hold one seat, bots hold the others.
    Play {
        /// The game, e.g. dream-mile; with --resume, which game's race to resume.
        #[arg(required_unless_present = "resume")]
        game: Option<String>,
        /// Take up the latest unfinished race left in the database (`quit` then `keep`,
        /// Ctrl-C, or a closed terminal leave it paused).
        #[arg(long, conflicts_with_all = ["players", "deadline", "name", "options", "autopilot", "bots", "length", "max_speed"])]
        resume: bool,
        /// Runners in the race, you included.
        #[arg(long, default_value_t = 6)]
        players: usize,
        /// How long each turn stays open, e.g. 30s, 5m.
        #[arg(long, default_value = "5m")]
        deadline: String,
        /// The SQLite database file.
        #[arg(
            long = "database",
            value_name = "DATABASE",
            visible_alias = "db",
            default_value = play::DEFAULT_DB
        )]
        db: std::path::PathBuf,
        /// Your runner's name.
        #[arg(long, default_value = "You")]
        name: String,
        /// Game and time options as key=value text, the same as a race on Discord takes
        /// (`grace=10s` holds your last order ten seconds, changeable, before it resolves).
        #[arg(long, default_value = "")]
        options: String,
        /// Who plays your seat: `ask` (you are asked every decision), `auto` (the default:
        /// single-choice and obvious orders, and the card races' standing plays, are
        /// played for you; the rest is asked) or `bot` (the bot plays while you watch).
        #[arg(long, value_parser = ["ask", "auto", "bot"], ignore_case = true)]
        autopilot: Option<String>,
        /// How the bots play: heuristic (also smart, normal), random (also easy) or expert
        /// (also hard).
        #[arg(long, default_value = "heuristic", ignore_case = true, value_parser = bot_levels())]
        bots: String,
        /// The race's length: round, race or game (each game's presets: docs/pace.md).
        #[arg(long)]
        length: Option<String>,
        /// Dream Mile: your runner's maximum speed, 10 to 15 (each +1 costs 3 points).
        #[arg(long)]
        max_speed: Option<u8>,
    },
    /// Run the Discord bot (configuration: defaults < file < environment < flags; see
    /// `photofinish config check`).
    Run {
        #[command(flatten)]
        flags: config::Flags,
    },
    /// The configuration every command reads.
    Config {
        #[command(subcommand)]
        action: ConfigAction,
    },
    /// Measure the referee on SQLite (or PostgreSQL) and the bot at scale (see
    /// docs/performance.md).
    Bench {
        /// Where to put the scratch databases (default: the system's temp dir).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// Measure on this PostgreSQL database (postgres://...) instead of SQLite files.
        /// Its tables get scratch races on uniquely named channels.
        #[arg(long, visible_alias = "db")]
        database: Option<String>,
        /// Raw single-row inserts to time.
        #[arg(long, default_value_t = 2000)]
        inserts: usize,
        /// Orders to submit through the referee.
        #[arg(long, default_value_t = 2000)]
        orders: usize,
        /// Concurrent campaigns for the scale test.
        #[arg(long, default_value_t = 10_000)]
        campaigns: usize,
        /// PostgreSQL only: run the orders measurement in this many processes at once, each
        /// submitting `--orders`, against the one database, and add up.
        #[arg(long, default_value_t = 1)]
        processes: usize,
        /// (Internal) a child of `--processes`: set up, say `ready`, measure the orders when
        /// told `go` on standard input, and print the raw samples.
        #[arg(long, hide = true)]
        child: bool,
        #[arg(long)]
        json: bool,
    },
    /// Check a finished race's dice against its revealed seed: from the database, or
    /// offline from an export (`--file`).
    Verify {
        /// The race number (in the database).
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        campaign: Option<i64>,
        /// An export (from `photofinish export`, or the bot's export on Discord), checked with
        /// no database.
        #[arg(long)]
        file: Option<std::path::PathBuf>,
        #[command(flatten)]
        flags: config::Flags,
        #[arg(long)]
        json: bool,
    },
    /// Write a race that is over as one JSON file (docs/export.md).
    Export {
        /// The race number.
        campaign: i64,
        /// Where to write it (default: standard output).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        #[command(flatten)]
        flags: config::Flags,
    },
    /// Run a scripted race, or an export, with no database and print JSON on stdout.
    Replay {
        /// The script (JSON; see docs/replay.md), or an export (docs/export.md).
        script: std::path::PathBuf,
    },
    /// Draw the pictures the channel would get for each turn of a replay script or export.
    Render {
        /// The script or export (JSON), as for `replay`.
        script: std::path::PathBuf,
        /// Where to write turn-01.png, ... and race-chart.png.
        #[arg(long, default_value = ".")]
        out: std::path::PathBuf,
        /// Also write race.gif: the race animated, one frame a step, as the final post
        /// shows it on Discord.
        #[arg(long)]
        gif: bool,
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
        /// Which bots play: mixed (each game's own mix), one level for every seat
        /// (heuristic, random), or a comma list with one level per seat.
        #[arg(long, default_value = "mixed")]
        bots: String,
        /// 1500m: golds by start lane against the fair share.
        #[arg(long)]
        by_lane: bool,
        /// Count each seat's questions under ask, auto and bot, and the expected duration
        /// at a human pace (docs/pace.md); `sim pace` prints docs/pace.md.
        #[arg(long)]
        pace: bool,
        /// The median answer time of the pace model, e.g. 4h or 90m.
        #[arg(long, default_value = "4h")]
        pace_median: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Report the database (reachable, migrations current) and this bot process's gateway;
    /// exits 0 when healthy, 1 when not (a configuration it cannot use included), 2 only
    /// for a bad command line (the container's HEALTHCHECK).
    Health {
        #[command(flatten)]
        flags: config::Flags,
        /// The bot process to check (default: $PHOTOFINISH_INSTANCE, else the host name).
        #[arg(long)]
        instance: Option<String>,
        /// auto: judge the gateway if this instance reported; required: it must have;
        /// skip: the database only.
        #[arg(long, value_enum, default_value = "auto")]
        gateway: health::GatewayCheck,
        /// A report older than this many seconds means the bot is stuck or gone.
        #[arg(long, default_value_t = 90)]
        max_age: u64,
        #[arg(long)]
        json: bool,
    },
    /// Copy the SQLite database to FILE, online and consistent, while the bot runs
    /// (PostgreSQL: use pg_dump).
    Backup {
        /// Where to write the copy.
        file: std::path::PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        flags: config::Flags,
    },
    /// Apply the database migrations of this version (the bot also applies them at start).
    Migrate {
        #[command(flatten)]
        flags: config::Flags,
    },
}

#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the effective configuration, secrets masked, and where each value came from;
    /// exit 2 with one line if `run` would refuse it.
    Check {
        #[command(flatten)]
        flags: config::Flags,
    },
}

/// The bot levels `play --bots` takes, with their other words as aliases, so that clap
/// refuses any other with the list.
fn bot_levels() -> clap::builder::PossibleValuesParser {
    use crate::engine::BotLevel;
    clap::builder::PossibleValuesParser::new(
        BotLevel::ALL.map(|l| clap::builder::PossibleValue::new(l.name()).aliases(l.aliases())),
    )
}

/// Parses the command line; a refusal is one line and exit 2 (help and version print as
/// usual).
fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        use clap::error::ErrorKind;
        match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                let _ = e.print();
                ExitCode::SUCCESS
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                refuse(&"a command is missing (photofinish --help lists them)")
            }
            _ => refuse(&refusal::command_line(&e)),
        }
    })
}

/// Runs the command line and returns the process's exit code.
pub fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match cli.command {
        Command::Play {
            game,
            resume,
            players,
            deadline,
            db,
            name,
            options,
            autopilot,
            bots,
            length,
            max_speed,
        } => {
            let Some(deadline_secs) = crate::referee::timing::parse_duration(&deadline) else {
                return refuse(&"--deadline takes a duration such as 30s, 5m or 1h");
            };
            // clap already refused any other word; this only keeps the match total.
            let Some(bots) = crate::engine::BotLevel::parse(&bots) else {
                return refuse(&"--bots takes heuristic, random or expert");
            };
            play::run(play::PlayArgs {
                game,
                resume,
                players,
                deadline_secs,
                db,
                name,
                options,
                autopilot,
                bots,
                length,
                max_speed,
            })
        }
        Command::Run { flags } => run::run(&flags),
        Command::Config {
            action: ConfigAction::Check { flags },
        } => config::check(&flags),
        Command::Verify {
            campaign,
            file,
            flags,
            json,
        } => match (file, campaign) {
            (Some(file), _) => verify::run_file(&file, json),
            (None, Some(campaign)) => verify::run(campaign, &flags, json),
            (None, None) => refuse(&"verify takes a race number or --file FILE"),
        },
        Command::Export {
            campaign,
            out,
            flags,
        } => export::run(campaign, out.as_deref(), &flags),
        Command::Bench {
            dir,
            database,
            inserts,
            orders,
            campaigns,
            processes,
            child,
            json,
        } => bench::run(bench::BenchArgs {
            dir,
            database,
            inserts,
            orders,
            campaigns,
            processes,
            child,
            json,
        }),
        Command::Replay { script } => replay::run(&script),
        Command::Render { script, out, gif } => render::run(&script, &out, gif),
        Command::Sim {
            game,
            races,
            seed,
            players,
            options,
            bots,
            by_lane,
            pace,
            pace_median,
            json,
        } => sim::run(
            &game,
            races,
            seed,
            players,
            options,
            &bots,
            by_lane,
            (pace || game.trim().eq_ignore_ascii_case("pace")).then_some(pace_median.as_str()),
            json,
        ),
        Command::Health {
            flags,
            instance,
            gateway,
            max_age,
            json,
        } => match config::database(&flags) {
            Ok(database) => health::health(health::HealthArgs {
                database,
                instance: instance.unwrap_or_else(crate::store::default_instance),
                gateway,
                max_age_secs: max_age,
                json,
            }),
            // A configuration the bot cannot run on is unhealthy (1): an orchestrator
            // reads 2 as a bad command line, and Docker reserves it.
            Err(e) => health::unusable_config(&e, json),
        },
        Command::Backup { file, force, flags } => backup::run(&file, force, &flags),
        Command::Migrate { flags } => match config::database(&flags) {
            Ok(database) => health::migrate(&database),
            Err(e) => refuse(&e),
        },
    }
}
