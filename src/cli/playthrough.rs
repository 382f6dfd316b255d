//! Readable playthroughs, the goldens of what players read: a seeded race played through
//! the real referee on the test clock, written as plain text exactly as the terminal
//! prints it, or as the race's channel and one player's DMs read on Discord. Every word a
//! change alters shows in the golden's diff.
//!
//! The files are `tests/golden/playthroughs/<name>.<surface>.txt`; they are re-recorded
//! with `PHOTOFINISH_BLESS=1 cargo test --lib playthrough`.
//!
//! One seat is a person: at each question they pick one of the offered choices, drawn
//! from the playthrough's own seed, and now and then let the deadline pass, so that
//! reminders and played-for-you orders are read too. The others are heuristic bots.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::play;
use super::words::Words;
use crate::discord::layout::{self, Layout, Row};
use crate::engine::{BotLevel, GameRng, Seed};
use crate::games::{GameKind, length};
use crate::referee::announce::{Announcement, Target};
use crate::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use crate::referee::when::Zone;
use crate::referee::{Actor, Config, Limits, NewRace, Receipt, Referee, Seeds, TestClock};
use crate::render::message::Style;
use crate::store::SqliteStore;
use crate::vocab::{CampaignId, Millis, Phase};

/// Monday 2 November 2026, 09:00 UTC: where every playthrough's clock starts.
const START: Millis = 1_793_610_000_000;
/// The most questions and waits one playthrough takes before it is called stuck.
const MAX_ACTIONS: usize = 4_000;
/// The Discord player's ids.
const ANN: &str = "200000000000000001";
const CHANNEL: &str = "300000000000000001";
const GUILD: &str = "400000000000000001";

/// One recorded race.
#[derive(Clone, Copy, Debug)]
struct Spec {
    name: &'static str,
    game: &'static str,
    length: Option<&'static str>,
    options: &'static str,
    players: usize,
    seed: u64,
}

const SPECS: &[Spec] = &[
    Spec {
        name: "dream-mile",
        game: "dream-mile",
        length: None,
        options: "",
        players: 4,
        seed: 1,
    },
    Spec {
        name: "1000-miles-round",
        game: "1000-miles",
        length: Some("round"),
        options: "",
        players: 2,
        seed: 2,
    },
    Spec {
        name: "1000-miles-teams",
        game: "1000-miles",
        length: Some("round"),
        options: "",
        players: 4,
        seed: 3,
    },
    Spec {
        name: "1000-yards-round",
        game: "1000-yards",
        length: Some("round"),
        options: "",
        players: 2,
        seed: 4,
    },
    Spec {
        name: "1500m",
        game: "1500m",
        length: None,
        options: "",
        players: 4,
        seed: 5,
    },
    Spec {
        name: "1500m-advanced",
        game: "1500m",
        length: None,
        options: "advanced=yes",
        players: 3,
        seed: 6,
    },
    Spec {
        name: "magical-athlete-race",
        game: "magical-athlete",
        length: Some("race"),
        options: "",
        players: 4,
        seed: 7,
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Surface {
    Terminal,
    Discord,
}

impl Surface {
    fn suffix(self) -> &'static str {
        match self {
            Surface::Terminal => "terminal",
            Surface::Discord => "discord",
        }
    }
}

/// Writes down what the surface shows of each parcel, in delivery order.
struct Recorder {
    surface: Surface,
    style: Style,
    zone: Zone,
    words: Words,
    referee: Arc<Referee>,
    human: String,
    lines: Mutex<Vec<String>>,
}

impl Recorder {
    fn write(&self, text: String) {
        if let Ok(mut lines) = self.lines.lock() {
            lines.push(masked(&text));
        }
    }

    fn text(&self) -> String {
        let lines = self.lines.lock().map(|l| l.join("\n")).unwrap_or_default();
        let mut out: String = lines
            .lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n");
        out.push('\n');
        out
    }
}

#[async_trait]
impl Courier for Recorder {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        match self.surface {
            Surface::Terminal => {
                if let Some(text) = play::shown(&parcel, &self.style, &self.words) {
                    self.write(text);
                }
            }
            Surface::Discord => {
                let heading = match parcel.target {
                    Target::Channel => Some("#race (channel post)".to_string()),
                    Target::Dm { user, .. } if user.0 == self.human => {
                        Some("DM to Ann".to_string())
                    }
                    // The status message and the lobby are edited in place, again and
                    // again; other players' DMs are theirs.
                    _ => None,
                };
                if let Some(heading) = heading {
                    let mut l = layout::announcement(parcel.announcement, self.zone);
                    crate::discord::courier::mark(&mut l, parcel.outbox_id);
                    if let (Announcement::Finished { race, .. }, Target::Channel) =
                        (parcel.announcement, parcel.target)
                    {
                        crate::discord::final_post::dress_final(
                            &mut l,
                            &self.referee,
                            *race,
                            false,
                        )
                        .await;
                    }
                    self.write(format!("\n--- {heading} ---\n{}", discord_text(&l)));
                }
            }
        }
        Ok(Delivered {
            external_id: Some(format!("recorded-{}", parcel.outbox_id)),
        })
    }
}

/// What precedes a nonce, a receipt or the seed: fresh randomness, by design, even where
/// the dice are fixed.
const RANDOM_AFTER: &[&str] = &["nonce ", "-> ", "receipt ", "Receipt `"];

/// `text` with the hex digits after each of [`RANDOM_AFTER`], and every run of 64 (a
/// seed, a commitment, a proof), written as `x`s of the same length.
fn masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, prefix)) = RANDOM_AFTER
        .iter()
        .filter_map(|p| rest.find(p).map(|at| (at, *p)))
        .min()
    {
        let (head, tail) = rest.split_at(at + prefix.len());
        out.push_str(head);
        let hex = tail
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(tail.len());
        out.extend(std::iter::repeat_n('x', hex));
        rest = &tail[hex..];
    }
    out.push_str(rest);
    // Hashes over the record (its proof) hold the nonces too: any 64 hex digits.
    let mut whole = String::with_capacity(out.len());
    let mut word = String::new();
    for c in out.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            word.push(c);
            continue;
        }
        if word.len() == 64 {
            whole.extend(std::iter::repeat_n('x', 64));
        } else {
            whole.push_str(&word);
        }
        word.clear();
        whole.push(c);
    }
    whole.pop();
    whole
}

/// A Discord message as its reader sees it: content, each embed's title, text, fields and
/// footer, the picture it carries, and its buttons and menus.
fn discord_text(l: &Layout) -> String {
    let mut out = Vec::new();
    if let Some(c) = &l.content {
        out.push(c.clone());
    }
    for e in &l.embeds {
        if !e.title.is_empty() {
            out.push(format!("# {}", e.title));
        }
        if !e.description.is_empty() {
            out.push(e.description.clone());
        }
        for (name, value) in &e.fields {
            out.push(format!("## {name}\n{value}"));
        }
        if let Some(image) = &e.image {
            out.push(format!("[image {image}]"));
        }
        if let Some(footer) = &e.footer {
            out.push(format!("({footer})"));
        }
    }
    if let Some(p) = &l.picture
        && !matches!(p, crate::render::message::Picture::None)
    {
        out.push(format!("[picture: {p:?}]"));
    }
    for row in l.rows.iter().flatten() {
        match row {
            Row::Buttons(buttons) => out.push(
                buttons
                    .iter()
                    .map(|b| format!("[{}]", b.label))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Row::Select(s) => out.push(format!(
                "<{}: {}>",
                s.placeholder,
                s.options
                    .iter()
                    .map(|(label, _)| label.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            )),
        }
    }
    out.join("\n")
}

/// What the Discord player reads when an order is taken.
fn discord_receipt(r: &Receipt) -> String {
    discord_text(&crate::discord::reply::receipt_layout(r))
}

async fn record(spec: &Spec, surface: Surface) -> String {
    let kind = GameKind::from_slug(spec.game).unwrap();
    let options = match spec.length {
        Some(l) => length::with_length(length::find(kind, l).unwrap(), spec.options),
        None => spec.options.to_string(),
    };
    let store = Arc::new(SqliteStore::in_memory().await.unwrap());
    let clock = Arc::new(TestClock::new(START));
    let mut config = match surface {
        Surface::Terminal => play::config(300),
        Surface::Discord => Config {
            limits: Limits::off(),
            ..Config::default()
        },
    };
    config.seeds = Seeds::Fixed(Seed::from_u64(spec.seed));
    let referee = Arc::new(Referee::new(store, clock.clone(), config));
    let (you, channel, guild) = match surface {
        Surface::Terminal => (Actor::new(play::YOU, "You"), "terminal-1".to_string(), None),
        Surface::Discord => (
            Actor::new(ANN, "Ann"),
            CHANNEL.to_string(),
            Some(GUILD.to_string()),
        ),
    };
    let race = referee
        .create(NewRace {
            kind,
            options,
            channel,
            guild,
            host: you.clone(),
        })
        .await
        .unwrap();
    referee.join(race, &you, None, None).await.unwrap();
    referee
        .add_bots(race, &you, spec.players - 1, BotLevel::Heuristic)
        .await
        .unwrap();
    referee.start(race, &you).await.unwrap();
    let zone = Zone::UTC;
    let recorder = Recorder {
        surface,
        style: Style::plain(zone),
        zone,
        words: Words::new(race, std::path::Path::new("photofinish.db")),
        referee: referee.clone(),
        human: you.user.0.clone(),
        lines: Mutex::new(Vec::new()),
    };
    recorder.write(format!(
        "{} playthrough `{}`: seed {}, {} seats, options `{}`; {} plays seat 1, bots the rest.",
        kind, spec.name, spec.seed, spec.players, spec.options, you.name
    ));
    play_out(&referee, &clock, race, &you, &recorder, spec.seed).await;
    recorder.text()
}

/// Plays the race to its end: the person answers or lets the deadline pass, the clock
/// moves to whatever is due next.
async fn play_out(
    referee: &Referee,
    clock: &TestClock,
    race: CampaignId,
    you: &Actor,
    recorder: &Recorder,
    seed: u64,
) {
    let mut rng = GameRng::from_seed(Seed::from_u64(seed).derive("playthrough/person"));
    // The step the person lets lapse, once chosen.
    let mut lapsing: Option<u32> = None;
    for _ in 0..MAX_ACTIONS {
        referee.deliver(recorder).await.unwrap();
        let phase = referee.overview(race).await.unwrap().phase;
        if matches!(phase, Phase::Finished | Phase::Cancelled) {
            return;
        }
        if let Ok(p) = referee.open_prompt(race, &you.user).await
            && p.current.is_none()
            && !p.prompt.choices.is_empty()
            && lapsing != Some(p.step)
        {
            if rng.below(8) == 0 {
                lapsing = Some(p.step);
            } else {
                let order = p.prompt.choices[rng.index(p.prompt.choices.len())]
                    .order
                    .clone();
                answer(referee, race, you, &order, recorder).await;
                continue;
            }
        }
        let now = clock.now_ms();
        let due = referee.next_due().await.unwrap();
        let Some(due) = due else {
            panic!("race {race} waits for nothing at {now}");
        };
        clock.advance_ms((due - now).max(1));
        referee.tick().await.unwrap();
    }
    panic!("race {race} did not end in {MAX_ACTIONS} actions");
}

async fn answer(referee: &Referee, race: CampaignId, you: &Actor, order: &str, rec: &Recorder) {
    let r = referee.submit(race, &you.user, order).await.unwrap();
    match rec.surface {
        Surface::Terminal => rec.write(format!("\n> {order}\n{}", play::receipt_line(&r))),
        Surface::Discord => rec.write(format!(
            "\n--- Ann, in the DM: {order} ---\n{}",
            discord_receipt(&r)
        )),
    }
}

fn golden(spec: &Spec, surface: Surface) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/playthroughs")
        .join(format!("{}.{}.txt", spec.name, surface.suffix()))
}

/// Compares every playthrough with its golden, or writes them all under
/// `PHOTOFINISH_BLESS=1`; the failure names each file that differs and its first line
/// that does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_playthrough_reads_as_its_golden() {
    let bless = std::env::var_os("PHOTOFINISH_BLESS").is_some();
    let mut differ = Vec::new();
    for spec in SPECS {
        for surface in [Surface::Terminal, Surface::Discord] {
            let text = record(spec, surface).await;
            let path = golden(spec, surface);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &text).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&path).unwrap_or_default();
            if want != text {
                let line = want
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| want.lines().count().min(text.lines().count()));
                differ.push(format!(
                    "{} differs from line {}: {:?}",
                    path.display(),
                    line + 1,
                    text.lines().nth(line).unwrap_or("(the end)")
                ));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "playthroughs changed (re-record with `PHOTOFINISH_BLESS=1 cargo test --lib playthrough` and read the diff):\n{}",
        differ.join("\n")
    );
}

#[tokio::test]
async fn a_playthrough_replays_word_for_word() {
    let spec = &SPECS[0];
    assert_eq!(
        record(spec, Surface::Discord).await,
        record(spec, Surface::Discord).await
    );
}

/// What a phone shows of a post: its title, text, fields and footer, as lines of at most
/// [`PHONE_COLUMNS`] characters (a long line wraps).
fn phone_lines(l: &Layout) -> usize {
    discord_text(l)
        .lines()
        .map(|line| line.chars().count().div_ceil(PHONE_COLUMNS).max(1))
        .sum()
}

/// A phone's width, in characters of Discord's font.
const PHONE_COLUMNS: usize = 40;
/// The most lines at 40 columns one post may take, at 12 seats with 32-character names
/// (where a name alone is most of a line): about four screens of a phone.
const MAX_PHONE_LINES: usize = 160;
/// The most characters one post may hold: Discord's limit for a message's embeds, reached
/// without anything cut to fit.
const MAX_POST_CHARS: usize = 6_000;

/// Collects every message a race sends on Discord, to every reader.
struct Everything {
    zone: Zone,
    posts: Mutex<Vec<(String, Layout)>>,
}

#[async_trait]
impl Courier for Everything {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        let what = match parcel.target {
            Target::Dm { seat, .. } => format!("DM to seat {}", seat.0 + 1),
            other => format!("{other:?}"),
        };
        let l = layout::announcement(parcel.announcement, self.zone);
        if let Ok(mut posts) = self.posts.lock() {
            posts.push((what, l));
        }
        Ok(Delivered {
            external_id: Some(format!("everything-{}", parcel.outbox_id)),
        })
    }
}

/// The longest race of `game` with `seats` players (fewer where the game allows fewer),
/// every name 32 characters, every seat on autopilot `bot`.
async fn longest_race(game: &str, seats: usize) -> Vec<(String, Layout)> {
    let kind = GameKind::from_slug(game).unwrap();
    let longest = length::lengths(kind).last().map(|l| l.slug);
    let options = match longest {
        Some(l) => length::with_length(length::find(kind, l).unwrap(), ""),
        None => String::new(),
    };
    let json = kind.apply_options(None, &options).unwrap();
    let (_, most) = kind.seat_limits(&json).unwrap();
    let seats = seats.min(most);
    let store = Arc::new(SqliteStore::in_memory().await.unwrap());
    let clock = Arc::new(TestClock::new(START));
    let config = Config {
        limits: Limits::off(),
        seeds: Seeds::Fixed(Seed::from_u64(12)),
        ..Config::default()
    };
    let referee = Referee::new(store, clock.clone(), config);
    let people: Vec<Actor> = (1..=seats)
        .map(|i| {
            let name = format!("Runner With A Very Long Name {i:03}");
            assert_eq!(name.chars().count(), 32);
            Actor::new(format!("2000000000000000{i:02}"), name)
        })
        .collect();
    let race = referee
        .create(NewRace {
            kind,
            options,
            channel: CHANNEL.into(),
            guild: Some(GUILD.into()),
            host: people[0].clone(),
        })
        .await
        .unwrap();
    for p in &people {
        referee.join(race, p, None, None).await.unwrap();
        referee
            .set_autopilot(race, &p.user, Some("bot"))
            .await
            .unwrap();
    }
    referee.start(race, &people[0]).await.unwrap();
    let everything = Everything {
        zone: Zone::UTC,
        posts: Mutex::new(Vec::new()),
    };
    for _ in 0..20_000 {
        referee.deliver(&everything).await.unwrap();
        let phase = referee.overview(race).await.unwrap().phase;
        if matches!(phase, Phase::Finished | Phase::Cancelled) {
            break;
        }
        let now = clock.now_ms();
        let due = referee.next_due().await.unwrap().unwrap_or(now + 1_000);
        clock.advance_ms((due - now).max(1));
        referee.tick().await.unwrap();
    }
    assert_eq!(
        referee.overview(race).await.unwrap().phase,
        Phase::Finished,
        "{game} ran to its end"
    );
    everything.posts.into_inner().unwrap()
}

/// Every post of the longest race of each game, with 12 seats (or the game's most) and
/// 32-character names, fits a phone: at most [`MAX_PHONE_LINES`] lines at 40 columns and
/// [`MAX_POST_CHARS`] characters, and nothing cut to fit. The failure names the post and
/// its first lines; `PHOTOFINISH_DUMP_LONGEST=DIR` writes each game's longest post there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_post_of_the_longest_races_fits_a_phone() {
    let mut over = Vec::new();
    let mut report = Vec::new();
    for game in [
        "dream-mile",
        "1000-miles",
        "1000-yards",
        "1500m",
        "magical-athlete",
    ] {
        let posts = longest_race(game, 12).await;
        let (mut most_lines, mut most_chars) = (0, 0);
        for (what, l) in &posts {
            let lines = phone_lines(l);
            let chars = discord_text(l).chars().count();
            most_lines = most_lines.max(lines);
            most_chars = most_chars.max(chars);
            let cut = discord_text(l).contains("(cut to fit Discord's limits)");
            if lines > MAX_PHONE_LINES || chars > MAX_POST_CHARS || cut {
                let text = discord_text(l);
                let head: Vec<&str> = text.lines().take(3).collect();
                over.push(format!(
                    "{game}, {what}: {lines} lines, {chars} characters: {}",
                    head.join(" / ")
                ));
            }
        }
        if let Some(dir) = std::env::var_os("PHOTOFINISH_DUMP_LONGEST")
            && let Some((what, l)) = posts
                .iter()
                .max_by_key(|(_, l)| (discord_text(l).contains("(cut to fit"), phone_lines(l)))
        {
            let path = std::path::Path::new(&dir).join(format!("{game}.txt"));
            std::fs::write(path, format!("{what}\n{}", discord_text(l))).unwrap();
        }
        report.push(format!(
            "{game}: {} posts, the longest {most_lines} lines and {most_chars} characters",
            posts.len()
        ));
    }
    println!("{}", report.join("\n"));
    assert!(
        over.is_empty(),
        "{}\n{}",
        over.join("\n"),
        report.join("\n")
    );
}
