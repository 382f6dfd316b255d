//! `photofinish play GAME`: a whole race in the terminal, one human seat against bots.
//!
//! The same referee, store and rules as on Discord: orders, receipts, deadlines that really
//! run (a missed one is played by the game's rule), and an outbox delivered by a terminal
//! courier that prints the channel's posts and your DMs.
//!
//! A race belongs to the session that plays it: the terminal prints only its own race's
//! posts (another session's wait in the outbox for theirs), and leaving (`quit`, Ctrl-C,
//! the terminal closed) ends the race or keeps it paused for `play --resume`, and says
//! which. Input that ends leaves the race to its deadlines, in this session.

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
use crate::referee::{Actor, Config, NewRace, Receipt, Referee, SystemClock};
use crate::render::message::Style;
use crate::render::post::present;
use crate::store::SqliteStore;
use crate::store::sqlite::Durability;
use crate::vocab::{CampaignId, Phase, Timing, UserId};

use super::words::Words;

/// The terminal player's user id.
pub(super) const YOU: &str = "terminal-player";

/// Prints the channel's posts and the human's DMs of this session's race.
struct Terminal {
    style: Style,
    race: CampaignId,
    words: Words,
}

/// How long another session's post waits before it is offered again.
const NOT_OURS_RETRY_MS: i64 = 60_000;

#[async_trait]
impl Courier for Terminal {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        let shown = shown(&parcel, &self.style, &self.words);
        if shown.is_some() && parcel.race != self.race {
            // Another session's race (left running, or played in another terminal): its
            // posts wait for the session that plays it, never shown where its input is not.
            return Err(DeliveryError::Retry {
                after_ms: NOT_OURS_RETRY_MS,
                reason: format!("race {} is another terminal session's", parcel.race),
            });
        }
        if let Some(text) = shown {
            outln!("{text}");
        }
        Ok(Delivered {
            external_id: Some(format!("terminal-{}", parcel.outbox_id)),
        })
    }
}

/// What the terminal prints of a parcel: the channel's posts and the human's DMs, in the
/// terminal's words, each under its heading. Status edits and other players' DMs are not
/// shown; `status` prints the status.
pub(super) fn shown(parcel: &Parcel<'_>, style: &Style, words: &Words) -> Option<String> {
    let heading = match parcel.target {
        Target::Channel => "[channel]",
        Target::Dm { user, .. } if user.0 == YOU => "[DM to you]",
        _ => return None,
    };
    let post = present(parcel.announcement, style);
    Some(format!("\n{heading}\n{}", words.terminal(&post.plain())))
}

/// Options of a terminal race.
#[derive(Debug, Clone)]
pub struct PlayArgs {
    /// The game of a new race; with `resume`, which game's race to resume.
    pub game: Option<String>,
    /// Resume the latest unfinished terminal race in the database.
    pub resume: bool,
    pub players: usize,
    pub deadline_secs: u64,
    pub db: std::path::PathBuf,
    pub name: String,
    pub options: String,
    /// The seat's autopilot from the start (`ask`, `auto`, `bot`); the race's default if none.
    pub autopilot: Option<String>,
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
            errln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = runtime.block_on(play(args));
    // The read of standard input cannot be cancelled: waiting for it would hold the
    // process until the next Enter.
    runtime.shutdown_background();
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("{e}");
            ExitCode::from(2)
        }
    }
}

async fn open(db: &Path) -> Result<SqliteStore, String> {
    SqliteStore::open(&db.to_string_lossy(), Durability::Full)
        .await
        .map_err(|e| format!("cannot open the database {}: {e}", db.display()))
}

/// The referee of a terminal race: its deadlines and reminders in `deadline_secs`.
fn referee(store: Arc<SqliteStore>, deadline_secs: u64) -> Referee {
    Referee::new(store, Arc::new(SystemClock), config(deadline_secs))
}

/// A terminal race's settings: one person against bots, deadlines in `deadline_secs`.
pub(super) fn config(deadline_secs: u64) -> Config {
    let turn_secs = deadline_secs.max(1);
    Config {
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
    }
}

async fn play(args: PlayArgs) -> Result<(), String> {
    let game = match &args.game {
        Some(slug) => Some(GameKind::from_slug(slug).ok_or_else(|| {
            format!(
                "unknown game `{slug}`; the games are: {}",
                GameKind::slugs()
            )
        })?),
        None => None,
    };
    let you = Actor::new(YOU, args.name.clone());
    let (referee, race) = match game {
        Some(kind) if !args.resume => {
            let (options, choice) = race_options(kind, &args)?;
            let store = Arc::new(open(&args.db).await?);
            let referee = referee(store, args.deadline_secs);
            let race = start(&referee, kind, options, choice, &you, &args).await?;
            outln!(
                "Race {race} ({kind}) has started in {}. Type your orders; `help` for commands.",
                args.db.display()
            );
            (referee, race)
        }
        _ => {
            if !args.db.exists() {
                return Err(format!(
                    "there is no database {} to resume a race from",
                    args.db.display()
                ));
            }
            let store = Arc::new(open(&args.db).await?);
            let referee = referee(store, args.deadline_secs);
            let race = resume(&referee, game, &you, &args.db).await?;
            (referee, race)
        }
    };
    session(&referee, race, &you, &args.db).await
}

/// A new race's options text and the seat's pre-race choice, checked before anything is
/// written.
fn race_options(kind: GameKind, args: &PlayArgs) -> Result<(String, Option<String>), String> {
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
    Ok((options, choice))
}

/// Creates, seats and starts a new race.
async fn start(
    referee: &Referee,
    kind: GameKind,
    options: String,
    choice: Option<String>,
    you: &Actor,
    args: &PlayArgs,
) -> Result<CampaignId, String> {
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
        .join(race, you, None, choice.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    if args.players > 1 {
        referee
            .add_bots(race, you, args.players - 1, args.bots)
            .await
            .map_err(|e| e.to_string())?;
    }
    if let Some(setting) = &args.autopilot {
        let set = referee
            .set_autopilot(race, &you.user, Some(setting))
            .await
            .map_err(|e| e.to_string())?;
        outln!("{}", crate::referee::autopilot::describe(set));
    }
    let shown = referee.overview(race).await.map_err(|e| e.to_string())?;
    if let Some(line) = length::lobby_line(kind, &shown.options, shown.seats.len()) {
        outln!("Expected duration over Discord: {line}");
    }
    referee.start(race, you).await.map_err(|e| e.to_string())?;
    Ok(race)
}

/// Takes up the latest unfinished terminal race in the database (of `game`, if named):
/// a kept race's clock starts again where it stopped.
async fn resume(
    referee: &Referee,
    game: Option<GameKind>,
    you: &Actor,
    db: &Path,
) -> Result<CampaignId, String> {
    let mut found = None;
    for race in referee
        .races_of(&you.user)
        .await
        .map_err(|e| e.to_string())?
    {
        let o = referee.overview(race).await.map_err(|e| e.to_string())?;
        if o.channel.starts_with("terminal-")
            && o.host == you.user
            && game.is_none_or(|k| k == o.kind)
        {
            found = Some(o);
        }
    }
    let Some(o) = found else {
        let which = game.map_or(String::new(), |k| format!("{k} "));
        return Err(format!(
            "there is no unfinished {which}race in {} to resume; `photofinish play GAME` starts one",
            db.display()
        ));
    };
    if o.phase == Phase::Paused {
        referee
            .resume(o.race, you)
            .await
            .map_err(|e| e.to_string())?;
    }
    outln!(
        "Race {} ({}) resumes in {}. Type your orders; `help` for commands.",
        o.race,
        o.kind,
        db.display()
    );
    // Its prompt was shown in the session that left it.
    if let Ok(p) = referee.open_prompt(o.race, &you.user).await {
        let words = Words::new(o.race, db);
        outln!(
            "{}",
            words.terminal(&format!("{}\n{}", p.prompt.text, p.prompt.hint))
        );
    }
    Ok(o.race)
}

/// The command that resumes a race kept in `db`.
fn resume_command(db: &Path) -> String {
    if db == Path::new(DEFAULT_DB) {
        "photofinish play --resume".to_string()
    } else {
        format!("photofinish play --resume --database {}", db.display())
    }
}

/// The database `play` uses unless told otherwise.
pub const DEFAULT_DB: &str = "photofinish.db";

/// How the session ends.
enum Leave {
    /// The race is cancelled.
    End,
    /// The race is paused for `play --resume`; the words say why it is left.
    Keep(&'static str),
}

/// Plays `race` in this terminal until it ends or the player leaves it.
async fn session(
    referee: &Referee,
    race: CampaignId,
    you: &Actor,
    db: &Path,
) -> Result<(), String> {
    let words = Words::new(race, db);
    let courier = Terminal {
        style: Style::plain(terminal_zone(std::env::var("TZ").ok().as_deref())),
        race,
        words: words.clone(),
    };
    let mut leaving = Leaving::new();
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdin_open = true;
    let mut asked = false;
    let leave = loop {
        referee.deliver(&courier).await.map_err(|e| e.to_string())?;
        let overview = referee.overview(race).await.map_err(|e| e.to_string())?;
        if matches!(overview.phase, Phase::Finished | Phase::Cancelled) {
            finish(referee, race).await;
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
                    let line = line.trim();
                    let answer = if asked { answer(line) } else { None };
                    asked = false;
                    match answer {
                        Some(leave) => break leave,
                        None => match command(referee, race, you, line, &words).await {
                            Next::Stay => {}
                            Next::Ask => {
                                outln!(
                                    "Leave race #{}: `end` it now (cancelled, no result), or `keep` it paused for `{}`?",
                                    race.0,
                                    resume_command(db)
                                );
                                asked = true;
                            }
                            Next::Leave(leave) => break leave,
                        },
                    }
                }
                Ok(None) | Err(_) if asked => break Leave::Keep("Input ended before an answer"),
                Ok(None) | Err(_) => {
                    stdin_open = false;
                    outln!(
                        "Input has ended: the deadlines play your seat until the race ends (Ctrl-C keeps it for `{}`).",
                        resume_command(db)
                    );
                }
            },
            why = leaving.signal() => break Leave::Keep(why),
            () = tokio::time::sleep(std::time::Duration::from_millis(u64::try_from(wait_ms).unwrap_or(1_000))) => {
                referee.tick().await.map_err(|e| e.to_string())?;
            }
        }
    };
    let said = match leave {
        Leave::End => match referee.cancel(race, you).await {
            Ok(()) => format!("You quit: race #{} is cancelled.", race.0),
            Err(e) => words.terminal(&e.to_string()),
        },
        Leave::Keep(why) => match referee.pause(race, you).await {
            Ok(()) | Err(crate::referee::RefereeError::Paused) => format!(
                "{why}: race #{} is kept, paused with its clock stopped; `{}` picks it up.",
                race.0,
                resume_command(db)
            ),
            Err(e) => words.terminal(&e.to_string()),
        },
    };
    // The race's own last posts first, so that the last line says where it stands.
    if let Err(e) = referee.deliver(&courier).await {
        tracing::warn!("cannot deliver the last posts: {e}");
    }
    outln!("{said}");
    Ok(())
}

/// The answer to "end or keep?", if the line is one.
fn answer(line: &str) -> Option<Leave> {
    match line.to_ascii_lowercase().as_str() {
        "end" | "cancel" => Some(Leave::End),
        "keep" => Some(Leave::Keep("You left")),
        _ => None,
    }
}

/// What a typed line leads to.
enum Next {
    Stay,
    /// `quit` alone: the player is asked whether to end or keep the race.
    Ask,
    Leave(Leave),
}

/// The signals that leave a session: Ctrl-C, and on Unix the terminal closed or a
/// polite kill.
struct Leaving {
    /// Listened for from the start: a Ctrl-C before the first wait is not lost.
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hangup: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
}

impl Leaving {
    fn new() -> Leaving {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |kind| {
                signal(kind)
                    .map_err(|e| tracing::warn!("cannot listen for a signal: {e}"))
                    .ok()
            };
            Leaving {
                interrupt: listen(SignalKind::interrupt()),
                hangup: listen(SignalKind::hangup()),
                term: listen(SignalKind::terminate()),
            }
        }
        #[cfg(not(unix))]
        Leaving {}
    }

    /// Waits for the first signal and says what it was.
    #[cfg(unix)]
    async fn signal(&mut self) -> &'static str {
        async fn recv(s: &mut Option<tokio::signal::unix::Signal>) -> Option<()> {
            match s {
                Some(s) => s.recv().await,
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            Some(()) = recv(&mut self.interrupt) => "Interrupted",
            Some(()) = recv(&mut self.hangup) => "The terminal closed",
            Some(()) = recv(&mut self.term) => "Stopped",
        }
    }

    /// Waits for Ctrl-C.
    #[cfg(not(unix))]
    async fn signal(&mut self) -> &'static str {
        ctrl_c().await;
        "Interrupted"
    }
}

/// Ctrl-C; never, if it cannot be listened for.
#[cfg(not(unix))]
async fn ctrl_c() {
    if let Err(e) = tokio::signal::ctrl_c().await {
        tracing::warn!("cannot listen for Ctrl-C: {e}");
        std::future::pending::<()>().await;
    }
}

/// Handles one line typed by the player. Everything it prints is in the terminal's
/// words.
async fn command(
    referee: &Referee,
    race: CampaignId,
    you: &Actor,
    line: &str,
    words: &Words,
) -> Next {
    let say = |text: &dyn std::fmt::Display| outln!("{}", words.terminal(&text.to_string()));
    let refuse = |e: &dyn std::fmt::Display| errln!("{}", words.terminal(&e.to_string()));
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    match word.to_ascii_lowercase().as_str() {
        "" => {}
        "help" | "?" => say(&help_text(rest)),
        "quit" | "exit" => {
            return match answer(rest.trim()) {
                Some(leave) => Next::Leave(leave),
                None => Next::Ask,
            };
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
            Err(e) => refuse(&e),
        },
        "prompt" => match referee.open_prompt(race, &you.user).await {
            Ok(p) => say(&format!("{}\n{}", p.prompt.text, p.prompt.hint)),
            Err(e) => refuse(&e),
        },
        "history" => match rest.trim().parse::<u32>() {
            Ok(n) => match referee.history(race, n).await {
                Ok(h) => say(&format!(
                    "{}{}\n{}",
                    h.label,
                    if h.late { " (late)" } else { "" },
                    h.narration.join("\n")
                )),
                Err(e) => refuse(&e),
            },
            Err(_) => refuse(&"history takes a turn number, like `history 2`"),
        },
        "pref" => match referee.set_preference(race, &you.user, rest).await {
            Ok(msg) => say(&msg),
            Err(e) => refuse(&e),
        },
        "autopilot" => {
            let setting = Some(rest.trim()).filter(|r| !r.is_empty());
            match referee.set_autopilot(race, &you.user, setting).await {
                Ok(set) => say(&crate::referee::autopilot::describe(set)),
                Err(e) => refuse(&e),
            }
        }
        "away" => {
            let rest = rest.trim();
            let (until, days) = match rest.parse::<u32>() {
                Ok(d) => (None, Some(d)),
                Err(_) => (Some(rest), None),
            };
            match referee.away(you, until, days).await {
                Ok(report) => say(&crate::referee::away::describe(&report)),
                Err(e) => refuse(&e),
            }
        }
        "back" => match referee.back(you).await {
            Ok(_) => outln!("Welcome back: the next step asks you again."),
            Err(e) => refuse(&e),
        },
        "pause" => {
            if let Err(e) = referee.pause(race, you).await {
                refuse(&e);
            }
        }
        "resume" => {
            if let Err(e) = referee.resume(race, you).await {
                refuse(&e);
            }
        }
        _ => match referee.submit(race, &UserId::new(YOU), line).await {
            Ok(r) => outln!("{}", receipt_line(&r)),
            Err(e) => refuse(&e),
        },
    }
    Next::Stay
}

/// The line that answers an order typed in the terminal.
pub(super) fn receipt_line(r: &Receipt) -> String {
    if r.taken_back {
        return format!("Taken back for {}: `{}`", r.label, r.order);
    }
    // "You to play" says nothing the terminal does not know; "Turn 2 of 8" does.
    let step = if r.label.contains(&r.seat_name) {
        String::new()
    } else {
        format!(" for {}", r.label)
    };
    format!(
        "Order {}{step}: `{}` (receipt {}){}",
        if r.changed { "changed" } else { "received" },
        r.order,
        short_receipt(&r.receipt),
        match (r.resolved, r.held_until) {
            (true, _) => String::new(),
            (false, Some(_)) => format!(
                "; held for {} first: type another order to change it, or `undo`",
                crate::referee::timing::format_duration(r.grace_secs)
            ),
            (false, None) => "; waiting for the others or the deadline".to_string(),
        }
    )
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
        return "Type an order as you would DM it (e.g. `7`). Commands: status, prompt, history N, pref TEXT, autopilot [ask|auto|bot], away DAYS (or a date), back, pause, resume, quit (asks whether to end the race or keep it for `play --resume`; `quit end`, `quit keep`); `help RACER` shows a Magical Athlete racer's power.".into();
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
