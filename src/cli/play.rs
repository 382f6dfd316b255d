//! `photofinish play GAME`: a whole race in the terminal, one human seat against bots.
//!
//! The same referee, store and rules as on Discord: orders, receipts, deadlines that really
//! run (a missed one is played by the game's rule), and an outbox delivered by a terminal
//! courier that prints the channel's posts and your DMs.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::Offset;
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::engine::BotLevel;
use crate::games::{GameKind, length};
use crate::referee::announce::Target;
use crate::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use crate::referee::work::short_receipt;
use crate::referee::{Actor, Config, NewRace, Referee, SystemClock};
use crate::render::message::Style;
use crate::render::post::present;
use crate::store::SqliteStore;
use crate::store::sqlite::Durability;
use crate::vocab::{CampaignId, Phase, Timing, UserId};

/// The terminal player's user id.
const YOU: &str = "terminal-player";

/// Prints the channel's posts and the human's DMs.
struct Terminal {
    style: Style,
}

#[async_trait]
impl Courier for Terminal {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        let post = present(parcel.announcement, &self.style);
        let text = match parcel.target {
            Target::Channel => Some(format!("\n[channel]\n{}", post.plain())),
            Target::Dm { user, .. } if user.0 == YOU => {
                Some(format!("\n[DM to you]\n{}", post.plain()))
            }
            // Status edits and other players' DMs are not shown; `status` prints the status.
            _ => None,
        };
        if let Some(text) = text {
            outln!("{text}");
        }
        Ok(Delivered {
            external_id: Some(format!("terminal-{}", parcel.outbox_id)),
        })
    }
}

/// Options of a terminal race.
#[derive(Debug, Clone)]
pub struct PlayArgs {
    pub game: String,
    pub players: usize,
    pub deadline_secs: u64,
    pub db: std::path::PathBuf,
    pub name: String,
    pub options: String,
    pub bots: BotLevel,
    /// A length preset (`games::length`).
    pub length: Option<String>,
    /// Dream Mile's maximum speed, the seat's pre-race choice.
    pub max_speed: Option<u8>,
}

pub fn run(args: PlayArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(play(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

async fn open(db: &Path) -> Result<SqliteStore, String> {
    SqliteStore::open(&db.to_string_lossy(), Durability::Full)
        .await
        .map_err(|e| format!("cannot open the database {}: {e}", db.display()))
}

async fn play(args: PlayArgs) -> Result<(), String> {
    let kind = GameKind::from_slug(&args.game).ok_or_else(|| {
        format!(
            "unknown game `{}`; the games are: {}",
            args.game,
            GameKind::slugs()
        )
    })?;
    let options = match &args.length {
        Some(l) => {
            let l = length::find(kind, l).map_err(|e| e.to_string())?;
            length::with_length(l, &args.options)
        }
        None => args.options.clone(),
    };
    let choice = match args.max_speed.map(|n| kind.max_speed_choice(n)) {
        Some(None) => {
            return Err(format!(
                "--max-speed is Dream Mile's; {kind} has no maximum speed to choose"
            ));
        }
        Some(Some(text)) => {
            let json = kind
                .apply_options(None, &options)
                .map_err(|e| e.to_string())?;
            kind.check_seat_choice(&json, &text)?;
            Some(text)
        }
        None => None,
    };
    let store = Arc::new(open(&args.db).await?);
    let turn_secs = args.deadline_secs.max(1);
    let config = Config {
        default_timing: Timing {
            turn_secs,
            // One reminder when a third of the time is left.
            reminders: if turn_secs >= 6 {
                vec![turn_secs / 3]
            } else {
                vec![]
            },
            resolve_early: true,
            // One person against bots: a play resolves at once (no grace window to wait).
            calendar: crate::vocab::CalendarOptions {
                grace_secs: Some(0),
                ..Default::default()
            },
        },
        // One person at their own terminal: no quotas.
        limits: crate::referee::Limits::off(),
        ..Config::default()
    };
    let referee = Referee::new(store.clone(), Arc::new(SystemClock), config);
    let courier = Terminal {
        style: Style::plain(terminal_zone(std::env::var("TZ").ok().as_deref())),
    };
    let you = Actor::new(YOU, args.name.clone());
    let channel = format!("terminal-{}", chrono::Utc::now().timestamp_millis());
    let race = referee
        .create(NewRace {
            kind,
            options,
            channel,
            guild: None,
            host: you.clone(),
        })
        .await
        .map_err(|e| e.to_string())?;
    referee
        .join(race, &you, None, choice.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    if args.players > 1 {
        referee
            .add_bots(race, &you, args.players - 1, args.bots)
            .await
            .map_err(|e| e.to_string())?;
    }
    let shown = referee.overview(race).await.map_err(|e| e.to_string())?;
    if let Some(line) = length::lobby_line(kind, &shown.options, shown.seats.len()) {
        outln!("Expected duration over Discord: {line}");
    }
    referee.start(race, &you).await.map_err(|e| e.to_string())?;
    outln!(
        "Race {race} ({kind}) has started in {}. Type your orders; `help` for commands.",
        args.db.display()
    );
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdin_open = true;
    loop {
        referee.deliver(&courier).await.map_err(|e| e.to_string())?;
        let overview = referee.overview(race).await.map_err(|e| e.to_string())?;
        if matches!(overview.phase, Phase::Finished | Phase::Cancelled) {
            finish(&referee, race).await;
            return Ok(());
        }
        let now = referee.clock().now();
        let wait_ms = match referee.next_due().await.map_err(|e| e.to_string())? {
            Some(due) => (due - now).clamp(0, 1_000),
            None => 1_000,
        };
        tokio::select! {
            line = lines.next_line(), if stdin_open => match line {
                Ok(Some(line)) => {
                    if !command(&referee, race, &you, line.trim()).await {
                        return Ok(());
                    }
                }
                // Input ended: deadlines play the rest.
                Ok(None) | Err(_) => stdin_open = false,
            },
            () = tokio::time::sleep(std::time::Duration::from_millis(u64::try_from(wait_ms).unwrap_or(1_000))) => {
                referee.tick().await.map_err(|e| e.to_string())?;
            }
        }
    }
}

/// Handles one line typed by the player; false to quit.
async fn command(referee: &Referee, race: CampaignId, you: &Actor, line: &str) -> bool {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    match word.to_ascii_lowercase().as_str() {
        "" => {}
        "help" | "?" => outln!("{}", help_text(rest)),
        "quit" | "exit" => {
            match referee.cancel(race, you).await {
                Ok(()) => outln!("You quit: race #{} is cancelled.", race.0),
                Err(e) => eprintln!("{e}"),
            }
            return false;
        }
        "status" => match referee.overview(race).await {
            Ok(o) => {
                if let Some(view) = &o.view {
                    outln!("{}", crate::render::track_text(view));
                }
                for s in &o.seats {
                    let mark = match s.state {
                        crate::referee::announce::SeatState::Ordered => "✓",
                        crate::referee::announce::SeatState::Waiting => "…",
                        crate::referee::announce::SeatState::Idle => "·",
                    };
                    let style = Style::plain(terminal_zone(std::env::var("TZ").ok().as_deref()));
                    let bank = s.bank.map(|b| crate::render::bank::bank_text(&b, &style));
                    outln!("{mark} {}{}", s.name, bank.unwrap_or_default());
                }
            }
            Err(e) => eprintln!("{e}"),
        },
        "prompt" => match referee.open_prompt(race, &you.user).await {
            Ok(p) => outln!("{}\n{}", p.prompt.text, p.prompt.hint),
            Err(e) => eprintln!("{e}"),
        },
        "history" => match rest.trim().parse::<u32>() {
            Ok(n) => match referee.history(race, n).await {
                Ok(h) => outln!(
                    "{}{}\n{}",
                    h.label,
                    if h.late { " (late)" } else { "" },
                    h.narration.join("\n")
                ),
                Err(e) => eprintln!("{e}"),
            },
            Err(_) => eprintln!("history takes a turn number, like `history 2`"),
        },
        "pref" => match referee.set_preference(race, &you.user, rest).await {
            Ok(msg) => outln!("{msg}"),
            Err(e) => eprintln!("{e}"),
        },
        "autopilot" => {
            let setting = Some(rest.trim()).filter(|r| !r.is_empty());
            match referee.set_autopilot(race, &you.user, setting).await {
                Ok(set) => outln!("{}", crate::referee::autopilot::describe(set)),
                Err(e) => eprintln!("{e}"),
            }
        }
        "away" => {
            let rest = rest.trim();
            let (until, days) = match rest.parse::<u32>() {
                Ok(d) => (None, Some(d)),
                Err(_) => (Some(rest), None),
            };
            match referee.away(you, until, days).await {
                Ok(report) => outln!("{}", crate::referee::away::describe(&report)),
                Err(e) => eprintln!("{e}"),
            }
        }
        "back" => match referee.back(you).await {
            Ok(_) => outln!("Welcome back: the next step asks you again."),
            Err(e) => eprintln!("{e}"),
        },
        "pause" => {
            if let Err(e) = referee.pause(race, you).await {
                eprintln!("{e}");
            }
        }
        "resume" => {
            if let Err(e) = referee.resume(race, you).await {
                eprintln!("{e}");
            }
        }
        _ => match referee.submit(race, &UserId::new(YOU), line).await {
            Ok(r) if r.taken_back => outln!("Taken back for {}: `{}`", r.label, r.order),
            Ok(r) => outln!(
                "Order {} for {}: `{}` (receipt {}){}",
                if r.changed { "changed" } else { "received" },
                r.label,
                r.order,
                short_receipt(&r.receipt),
                if r.resolved {
                    ""
                } else {
                    "; waiting for the others or the deadline"
                }
            ),
            Err(e) => eprintln!("{e}"),
        },
    }
    true
}

async fn finish(referee: &Referee, race: CampaignId) {
    match referee.verify(race).await {
        Ok(report) if report.ok() => outln!(
            "\nVerified: the seed matches its commitment and all {} steps replay identically.",
            report.steps_checked
        ),
        Ok(report) => outln!("\nVerification FAILED: {}", report.problems.join("; ")),
        Err(e) => outln!("\n{e}"),
    }
}

/// `help`, or `help RACER`: a Magical Athlete racer's printed power.
fn help_text(rest: &str) -> String {
    use crate::games::magical_athlete::racers::Kind;
    let rest = rest.trim();
    if rest.is_empty() {
        return "Type an order as you would DM it (e.g. `7`). Commands: status, prompt, history N, pref TEXT, autopilot [ask|auto|bot], away DAYS (or a date), back, pause, resume, quit (cancels the race); `help RACER` shows a Magical Athlete racer's power.".into();
    }
    match Kind::parse(rest) {
        Some(k) => format!("{}: {}", k.name(), k.power_text()),
        None => format!("No racer is called `{rest}`; `help` alone lists the commands."),
    }
}

/// The zone the terminal's times are written in (and named): `TZ` when it is an IANA
/// name or an offset (`TZ=Europe/London`), else the machine's offset now.
fn terminal_zone(tz: Option<&str>) -> crate::referee::when::Zone {
    tz.map(|t| t.trim_start_matches(':'))
        .and_then(|t| crate::referee::when::parse_zone(t).ok())
        .unwrap_or_else(|| chrono::Local::now().offset().fix().into())
}

#[cfg(test)]
mod zone_tests {
    use super::terminal_zone;

    #[test]
    fn the_terminal_reads_tz() {
        assert_eq!(
            terminal_zone(Some("Europe/London")).to_string(),
            "Europe/London"
        );
        assert_eq!(
            terminal_zone(Some(":Australia/Sydney")).to_string(),
            "Australia/Sydney"
        );
        // Not a zone: the machine's offset, whatever it is; no panic.
        let _ = terminal_zone(Some("Mars"));
    }
}

#[cfg(test)]
mod help_tests {
    use super::help_text;

    #[test]
    fn help_racer_prints_the_racer_s_printed_power() {
        assert!(help_text("").contains("help RACER"), "{}", help_text(""));
        let t = help_text("flip flop");
        assert_eq!(
            t,
            "Flip Flop: I can skip rolling for my Main Move and swap spaces with another racer instead."
        );
        assert!(help_text(" Legs ").starts_with("Legs: I can skip rolling"));
        let t = help_text("zebra");
        assert_eq!(
            t,
            "No racer is called `zebra`; `help` alone lists the commands."
        );
    }
}
