//! Announcements in words: what the channel post, the status message or a DM says.
//!
//! Both adapters use this: Discord turns a [`Post`] into an embed with buttons, the
//! terminal prints [`Post::plain`].
//!
//! One function per announcement kind; the larger ones live apart: the nudge in
//! `nudge.rs`, a resolved turn or round in `turn.rs`.

use super::message::{Picture, Post, Style};
use super::picture::{RenderError, race_chart_png, track_png};
use super::text::{alt_text, ordinal, private_text_as, track_text};
use super::turn::{Turn, turn_resolved};
use crate::engine::Prompt;
use crate::games::words::{agree, count};
use crate::games::{AnyPrivateView, AnyPublicView, GameKind};
use crate::referee::announce::{Announcement, FinalPlace, LobbySeat, SeatState, StatusSeat};
use crate::referee::work::short_receipt;
use crate::vocab::{CampaignId, Millis, Phase, UserId};

/// What the lobby message says in each phase: how to join while it is open, and where
/// the race is once it is not (the message stays in the channel, edited in place).
fn lobby_body(phase: Phase, taken: usize, min: usize, max: usize) -> String {
    match phase {
        Phase::Lobby => format!(
            "{taken} of {min}-{max} seats taken. Join with the button or /race join; the host starts with /race start."
        ),
        Phase::Running => format!(
            "The race is on with {taken} runners; the lobby is closed. Orders go by DM (or /race order); each turn's result is posted here, and /race status shows the standings."
        ),
        Phase::Paused => format!(
            "The race is paused with {taken} runners; the lobby is closed. The host resumes it with /race pause resume:True."
        ),
        Phase::Finished => {
            "The race is over; the final result is posted below. /race history shows any turn, and /race verify checks the dice.".to_string()
        }
        Phase::Cancelled => "The host cancelled the race; the lobby is closed.".to_string(),
    }
}

/// The picture an announcement's channel post carries, and the view it is drawn from:
/// the track after a turn, the race chart with the final result, nothing otherwise.
pub fn picture_of(a: &Announcement) -> Option<(Picture, &AnyPublicView)> {
    match a {
        Announcement::TurnResolved {
            view, part: None, ..
        } => Some((Picture::Track, view)),
        Announcement::TurnResolved {
            view,
            part: Some((i, n)),
            ..
        } if i >= n => Some((Picture::Track, view)),
        Announcement::Finished { view, .. } => Some((Picture::Chart, view)),
        _ => None,
    }
}

/// A post's picture as PNG bytes, with its alt text (the standings in one sentence).
pub fn draw_picture(
    picture: Picture,
    view: &AnyPublicView,
) -> Result<(Vec<u8>, String), RenderError> {
    match picture {
        Picture::Track => Ok((track_png(view)?, alt_text(view))),
        Picture::Chart => Ok((
            race_chart_png(view)?,
            format!("Race chart, positions turn by turn. {}", alt_text(view)),
        )),
        Picture::None => Err(RenderError::NoPicture),
    }
}

/// Words for an announcement: one function per kind. One piece on purpose: a dispatch
/// table whose arms only unpack each kind's fields and call its function.
pub fn present(a: &Announcement, style: &Style) -> Post {
    match a {
        Announcement::Lobby {
            race,
            game,
            phase,
            options,
            seats,
            min,
            max,
        } => lobby(
            *game,
            &head(*game, *race),
            *phase,
            options,
            seats,
            (*min, *max),
            style,
        ),
        Announcement::Started {
            race,
            game,
            seats,
            commitment,
        } => started(*game, &head(*game, *race), seats, commitment, style),
        Announcement::TurnResolved {
            race,
            game,
            labels,
            narration,
            steps,
            missed,
            revealed,
            view,
            late,
            next,
            part,
        } => turn_resolved(
            &head(*game, *race),
            Turn {
                labels,
                narration,
                steps,
                missed,
                revealed,
                view,
                late: *late,
                next: next.as_ref(),
                part: *part,
            },
            style,
        ),
        Announcement::Status {
            race,
            game,
            phase,
            label,
            deadline,
            seats,
        } => status(
            &head(*game, *race),
            *phase,
            &style.user(label),
            *deadline,
            seats,
            style,
        ),
        Announcement::Prompt {
            race,
            game,
            seat_name,
            label,
            view,
            prompt: asked,
            deadline,
            notes,
            ..
        } => prompt(
            prompt_title(&head(*game, *race), label, seat_name, style),
            dm_body(view, notes, style),
            asked,
            *deadline,
            style,
        ),
        Announcement::ViewUpdate {
            race,
            game,
            seat_name,
            view,
            notes,
            ..
        } => Post::new(
            format!("{}: {}", head(*game, *race), style.user(seat_name)),
            dm_body(view, notes, style),
        ),
        Announcement::Reminder {
            race,
            label,
            deadline,
            ..
        } => reminder(*race, &style.user(label), *deadline, style),
        Announcement::Finished {
            race,
            game,
            view,
            placings,
            seed,
            commitment,
        } => finished(
            *game,
            &head(*game, *race),
            view,
            placings,
            (seed, commitment),
            style,
        ),
        Announcement::Cancelled { race } => Post::new(
            format!("Race {race} was cancelled"),
            "The host cancelled the race.",
        ),
        Announcement::Notice {
            race,
            text,
            at,
            user,
        } => notice(*race, text, *at, user.as_ref(), style),
        Announcement::SeatOffer {
            race,
            seat_name,
            user,
            ..
        } => seat_offer(*race, seat_name, &user.0, style),
        Announcement::Nudge {
            race,
            label,
            deadline,
            seats,
        } => super::nudge::nudge(*race, label, *deadline, seats, style),
    }
}

/// A seat offered to a member, who must accept it.
fn seat_offer(race: CampaignId, seat_name: &str, user: &str, style: &Style) -> Post {
    Post::new(
        format!("Race {race}: a seat for you"),
        format!(
            "{}, the host offers you {}'s seat. Press Accept to take it over; until you do, it stays as it is.",
            style.mention(user),
            style.user(seat_name)
        ),
    )
}

/// "Dream Mile race 3": how most titles begin.
fn head(game: GameKind, race: CampaignId) -> String {
    format!("{game} race {race}")
}

/// The lobby message: who has joined, and the options.
fn lobby(
    game: GameKind,
    head: &str,
    phase: Phase,
    options: &str,
    seats: &[LobbySeat],
    (min, max): (usize, usize),
    style: &Style,
) -> Post {
    let list: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let bot = if s.bot { " (bot)" } else { "" };
            let choice = s
                .choice
                .as_deref()
                .map(|c| format!(" [{}]", style.user(c)))
                .unwrap_or_default();
            format!("{}. {}{bot}{choice}", i + 1, style.user(&s.name))
        })
        .collect();
    let state = if phase == Phase::Lobby {
        "lobby"
    } else {
        phase.as_str()
    };
    let mut p = Post::new(
        format!("{head}: {state}"),
        lobby_body(phase, seats.len(), min, max),
    );
    p.fields.push((
        "Runners".into(),
        if list.is_empty() {
            "nobody yet".into()
        } else {
            list.join("\n")
        },
    ));
    p.fields.push(("Options".into(), style.user(options)));
    // The race's length at the usual pace, for the seats taken (games::length).
    if phase == Phase::Lobby
        && let Some(line) = crate::games::length::lobby_line(game, options, seats.len())
    {
        p.fields.push(("Expected duration".into(), line));
    }
    p
}

/// The start: the seating and the seed's commitment.
fn started(game: GameKind, head: &str, seats: &[String], commitment: &str, style: &Style) -> Post {
    let seats: Vec<String> = seats.iter().map(|s| style.user(s)).collect();
    let fair = match game.chance() {
        Some(what) => format!(
            "Fair dice: the seed's SHA-256 commitment is `{commitment}`. The seed is revealed at the end, so anyone can check {what} with /race verify."
        ),
        None => format!(
            "{game} has no dice: orders decide everything, and the seed only picks the bots' orders. Its SHA-256 commitment is `{commitment}`; the seed is revealed at the end, so anyone can replay the race with /race verify."
        ),
    };
    Post::new(
        format!("{head} is off!"),
        format!("Runners: {}.\n{fair}", seats.join(", ")),
    )
}

/// The status message: the step, its deadline, and ✓ / … per seat.
fn status(
    head: &str,
    phase: Phase,
    label: &str,
    deadline: Option<Millis>,
    seats: &[StatusSeat],
    style: &Style,
) -> Post {
    let lines: Vec<String> = seats
        .iter()
        .map(|s| {
            let mark = match s.state {
                SeatState::Ordered => "✓",
                SeatState::Waiting => "…",
                SeatState::Idle => "·",
            };
            let receipt = s
                .receipt
                .as_deref()
                .map(|r| format!(" receipt {}", short_receipt(r)))
                .unwrap_or_default();
            let bot = if s.bot { " (bot)" } else { "" };
            let bank = s.bank.map(|b| super::bank::bank_text(&b, style));
            let bank = bank.unwrap_or_default();
            format!("{mark} {}{bot}{receipt}{bank}", style.user(&s.name))
        })
        .collect();
    let state = match phase {
        Phase::Running => label.to_string(),
        other => format!("{} ({})", label, other.as_str()),
    };
    let mut p = Post::new(format!("{head}: {state}"), lines.join("\n"));
    p.footer = deadline.map(|d| format!("Deadline {}", style.when(d)));
    p
}

/// The most private notes one DM lists.
const MAX_NOTES: usize = 12;

/// A seat's private view in words, then any private news.
fn dm_body(view: &AnyPrivateView, notes: &[String], style: &Style) -> String {
    let mut body = private_text_as(view, &|s: &str| style.user(s));
    // A long chain played for the seat (its autopilot, or away) keeps the DM short: the
    // latest notes, and where the rest is told.
    let earlier = notes.len().saturating_sub(MAX_NOTES);
    if earlier > 0 {
        body.push_str(&format!(
            "\n({earlier} earlier {}: the channel's posts tell every play.)",
            if earlier == 1 { "note" } else { "notes" }
        ));
    }
    for n in notes.iter().skip(earlier) {
        body.push('\n');
        body.push_str(&style.user(n));
    }
    body
}

/// A prompt's title: the step, and whose order it asks for unless the step says so
/// ("Round 1: Alice to play", not "Round 1: Alice to play, Alice to order").
fn prompt_title(head: &str, label: &str, seat_name: &str, style: &Style) -> String {
    if label.contains(seat_name) {
        format!("{head}: {}", style.user(label))
    } else if crate::games::words::is_you(seat_name) {
        format!("{head}: {label}, your order")
    } else {
        format!("{head}: {label}, {} to order", style.user(seat_name))
    }
}

/// A DM asking a seat to act: its view, the question and the legal choices.
fn prompt(
    title: String,
    mut body: String,
    asked: &Prompt,
    deadline: Option<Millis>,
    style: &Style,
) -> Post {
    // The question may name players; the hint is the game's own instructions.
    body.push_str(&format!("\n\n{}\n{}", style.user(&asked.text), asked.hint));
    let mut p = Post::new(title, body);
    p.choices = asked.choices.clone();
    p.footer = deadline.map(|d| {
        format!(
            "Due {}. You can change your order until the turn resolves.",
            style.when(d)
        )
    });
    p
}

/// A nudge before a deadline, by DM to the seat's player: "your order", whatever the
/// seat's name (the terminal's seat is called "You").
fn reminder(race: CampaignId, label: &str, deadline: Millis, style: &Style) -> Post {
    Post::new(
        format!("Reminder: race {race}, {label}"),
        format!(
            "Your order is due {}. Nothing is in yet.",
            style.when(deadline)
        ),
    )
}

/// The final result: placings, standings, the race chart and the seed revealed.
fn finished(
    game: GameKind,
    head: &str,
    view: &AnyPublicView,
    placings: &[FinalPlace],
    (seed, commitment): (&str, &str),
    style: &Style,
) -> Post {
    // A team game ranks teams: "Alice & Carol win", not a tie of Alice and Carol, and
    // the other team is 2nd, not 3rd.
    let by_team = teams(view, placings);
    let team_game = by_team.is_some();
    let sides = by_team.unwrap_or_else(|| {
        placings
            .iter()
            .map(|p| (p.rank, p.name.clone(), p.score))
            .collect()
    });
    let lines: Vec<String> = sides
        .iter()
        .map(|(rank, name, score)| {
            let score = score
                .map(|s| format!(" ({})", count(s, "point")))
                .unwrap_or_default();
            format!("{} {}{score}", ordinal(*rank), style.user(name))
        })
        .collect();
    let winners: Vec<String> = sides
        .iter()
        .filter(|(rank, _, _)| *rank == 1)
        .map(|(_, name, _)| style.user(name))
        .collect();
    let winners: Vec<&str> = winners.iter().map(String::as_str).collect();
    // Agreement reads the name itself, not its mention: the terminal's "You" win.
    let first = sides
        .iter()
        .find(|(rank, _, _)| *rank == 1)
        .map_or("", |(_, name, _)| name.as_str());
    let mut p = Post::new(
        format!("{head}: final result"),
        format!(
            "{} {}!",
            crate::games::dream_mile::join_and(&winners),
            if winners.len() > 1 {
                "share the win".into()
            } else if team_game {
                "win".into()
            } else {
                agree(first, "wins")
            }
        ),
    );
    p.fields.push(("Result".into(), lines.join("\n")));
    // The final standings too: the result ranks seats only, and a game's own
    // runners (1500m's robots) can take medals.
    p.track = Some(track_text(view));
    p.fields.push(match game.chance() {
        Some(what) => (
            "Fair dice".into(),
            format!("Seed `{seed}`.\nIts SHA-256 is the commitment `{commitment}` posted at the start. Check {what} with /race verify."),
        ),
        None => (
            "Seed".into(),
            format!("Seed `{seed}`.\nIts SHA-256 is the commitment `{commitment}` posted at the start. Replay the race with /race verify."),
        ),
    });
    p.view = Some(view.clone());
    p.picture = Picture::Chart;
    p
}

/// A team game's result by team, best first: (rank among teams, the team's name, its
/// points). `None` when no team has two players (each seat is its own side).
fn teams(view: &AnyPublicView, placings: &[FinalPlace]) -> Option<Vec<(u32, String, Option<i64>)>> {
    let AnyPublicView::CardRace(v) = view else {
        return None;
    };
    if v.teams.iter().all(|t| t.members.len() < 2) {
        return None;
    }
    let name_of = |seat| {
        v.players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.name.as_str())
    };
    // Each team's best placing, and its score.
    let mut sides: Vec<(u32, String, Option<i64>)> = Vec::new();
    for t in &v.teams {
        let best = placings
            .iter()
            .filter(|p| {
                t.members
                    .iter()
                    .any(|&m| name_of(m) == Some(p.name.as_str()))
            })
            .min_by_key(|p| p.rank)?;
        sides.push((best.rank, t.label.clone(), best.score));
    }
    // Ranked among teams: 1 + the teams strictly ahead.
    let ranks: Vec<u32> = sides.iter().map(|(r, _, _)| *r).collect();
    for side in &mut sides {
        let ahead = ranks.iter().filter(|&&r| r < side.0).count();
        side.0 = u32::try_from(ahead).unwrap_or(u32::MAX).saturating_add(1);
    }
    sides.sort_by_key(|(rank, _, _)| *rank);
    Some(sides)
}

/// A plain notice, its `{at}` and `{user}` filled in.
fn notice(
    race: CampaignId,
    text: &str,
    at: Option<Millis>,
    user: Option<&UserId>,
    style: &Style,
) -> Post {
    let mut body = style.user(text);
    // A placeholder is filled once, at its last place: the referee's words put it after
    // any name, and a name that says `{user}` must not mention anyone.
    if let Some(at) = at {
        fill_last(&mut body, "{at}", &style.when(at));
    }
    if let Some(user) = user {
        fill_last(&mut body, "{user}", &style.mention(&user.0));
    }
    Post::new(format!("Race {race}"), body)
}

/// Replaces the last `placeholder` in `text`.
fn fill_last(text: &mut String, placeholder: &str, with: &str) {
    if let Some(at) = text.rfind(placeholder) {
        text.replace_range(at..at + placeholder.len(), with);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::when::Zone;
    use crate::vocab::CampaignId;

    fn lobby(phase: Phase) -> Post {
        let a = Announcement::Lobby {
            race: CampaignId(3),
            game: crate::games::GameKind::DreamMile,
            phase,
            options: "turn=1h".into(),
            seats: ["Alice", "Bob"]
                .iter()
                .map(|n| crate::referee::announce::LobbySeat {
                    name: (*n).into(),
                    bot: false,
                    choice: None,
                })
                .collect(),
            min: 2,
            max: 12,
        };
        present(&a, &Style::discord())
    }

    #[test]
    fn the_lobby_message_follows_the_phase() {
        let open = lobby(Phase::Lobby);
        assert!(open.title.ends_with("lobby"), "{}", open.title);
        assert!(open.body.contains("2 of 2-12 seats taken"), "{}", open.body);
        assert!(open.body.contains("Join with the button"), "{}", open.body);
        for (phase, says) in [
            (Phase::Running, "The race is on with 2 runners"),
            (Phase::Paused, "paused"),
            (Phase::Finished, "The race is over"),
            (Phase::Cancelled, "cancelled"),
        ] {
            let p = lobby(phase);
            assert!(p.title.ends_with(phase.as_str()), "{}", p.title);
            assert!(p.body.contains(says), "{phase:?}: {}", p.body);
            for stale in [
                "Join with the button",
                "/race join",
                "/race start",
                "seats taken",
            ] {
                assert!(
                    !p.body.contains(stale),
                    "{phase:?} still says {stale}: {}",
                    p.body
                );
            }
            assert!(
                p.fields
                    .iter()
                    .any(|(n, v)| n == "Runners" && v.contains("2. Bob"))
            );
        }
    }

    #[test]
    fn the_final_result_shows_the_final_standings() {
        use crate::engine::{SeatSetup, Seed};
        use crate::games::GameKind;
        let kind = GameKind::FifteenHundred;
        let options = kind.apply_options(None, "robots=2").unwrap();
        let seats: Vec<SeatSetup> = ["Ann", "Ben"]
            .iter()
            .map(|n| SeatSetup {
                name: n.to_string(),
                choice: None,
            })
            .collect();
        let game = kind.setup(&options, &seats, Seed::from_u64(3)).unwrap();
        let view = game.public_view();
        let a = Announcement::Finished {
            race: CampaignId(2),
            game: kind,
            view: view.clone(),
            placings: vec![crate::referee::announce::FinalPlace {
                rank: 1,
                name: "Ann".into(),
                score: None,
            }],
            seed: "00".into(),
            commitment: "11".into(),
        };
        let post = present(&a, &Style::discord());
        let track = post.track.unwrap();
        assert_eq!(track, track_text(&view));
        assert!(
            track.contains("Robot 1") && track.contains("Ben"),
            "{track}"
        );
    }

    #[test]
    fn notices_fill_their_placeholders() {
        let a = Announcement::Notice {
            race: CampaignId(4),
            text: "{user}: due {at}.".into(),
            at: Some(1_767_225_600_000),
            user: Some(crate::vocab::UserId::new("42")),
        };
        assert_eq!(
            present(&a, &Style::discord()).body,
            "<@42>: due <t:1767225600:F> (<t:1767225600:R>)."
        );
    }

    fn setup(kind: crate::games::GameKind, names: &[&str]) -> AnyPublicView {
        use crate::engine::{SeatSetup, Seed};
        let options = kind.apply_options(None, "").unwrap();
        let seats: Vec<SeatSetup> = names
            .iter()
            .map(|n| SeatSetup {
                name: n.to_string(),
                choice: None,
            })
            .collect();
        kind.setup(&options, &seats, Seed::from_u64(3))
            .unwrap()
            .public_view()
    }

    fn plain() -> Style {
        Style::plain(Zone::UTC)
    }

    #[test]
    fn a_reminder_says_your_order_whatever_the_seat_is_called() {
        let a = Announcement::Reminder {
            race: CampaignId(1),
            seat_name: "You".into(),
            label: "Turn 2 of 8".into(),
            deadline: 1_767_225_600_000,
        };
        let p = present(&a, &plain());
        assert_eq!(p.title, "Reminder: race #1, Turn 2 of 8");
        assert_eq!(
            p.body,
            "Your order is due Thu 01 Jan 00:00:00 UTC. Nothing is in yet."
        );
    }

    #[test]
    fn fair_dice_only_where_there_are_dice() {
        use crate::games::GameKind;
        let started = |game| Announcement::Started {
            race: CampaignId(1),
            game,
            seats: vec!["Ann".into(), "Ben".into()],
            commitment: "c0".into(),
        };
        assert_eq!(
            present(&started(GameKind::DreamMile), &plain()).body,
            "Runners: Ann, Ben.\nDream Mile has no dice: orders decide everything, and the seed only picks the bots' orders. Its SHA-256 commitment is `c0`; the seed is revealed at the end, so anyone can replay the race with /race verify."
        );
        assert_eq!(
            present(&started(GameKind::MagicalAthlete), &plain()).body,
            "Runners: Ann, Ben.\nFair dice: the seed's SHA-256 commitment is `c0`. The seed is revealed at the end, so anyone can check every roll and every draw with /race verify."
        );
        let finished = |game, view| Announcement::Finished {
            race: CampaignId(1),
            game,
            view,
            placings: vec![FinalPlace {
                rank: 1,
                name: "Ann".into(),
                score: None,
            }],
            seed: "5e".into(),
            commitment: "c0".into(),
        };
        let dm = present(
            &finished(
                GameKind::DreamMile,
                setup(GameKind::DreamMile, &["Ann", "Ben"]),
            ),
            &plain(),
        );
        assert_eq!(
            dm.fields.last().unwrap(),
            &(
                "Seed".to_string(),
                "Seed `5e`.\nIts SHA-256 is the commitment `c0` posted at the start. Replay the race with /race verify.".to_string()
            )
        );
        let cards = present(
            &finished(
                GameKind::MilleBornes,
                setup(GameKind::MilleBornes, &["Ann", "Ben"]),
            ),
            &plain(),
        );
        assert_eq!(
            cards.fields.last().unwrap().1,
            "Seed `5e`.\nIts SHA-256 is the commitment `c0` posted at the start. Check every shuffle with /race verify."
        );
    }

    #[test]
    fn a_team_game_ranks_teams_not_tied_players() {
        use crate::games::GameKind;
        let view = setup(GameKind::MilleBornes, &["Alice", "Bob", "Carol", "Dave"]);
        let place = |rank, name: &str, score| FinalPlace {
            rank,
            name: name.into(),
            score: Some(score),
        };
        let a = Announcement::Finished {
            race: CampaignId(1),
            game: GameKind::MilleBornes,
            view,
            placings: vec![
                place(1, "Alice", 5100),
                place(1, "Carol", 5100),
                place(3, "Bob", 4200),
                place(3, "Dave", 4200),
            ],
            seed: "5e".into(),
            commitment: "c0".into(),
        };
        let p = present(&a, &plain());
        assert_eq!(p.body, "Alice & Carol win!");
        assert_eq!(
            p.fields[0],
            (
                "Result".to_string(),
                "1st Alice & Carol (5100 points)\n2nd Bob & Dave (4200 points)".to_string()
            )
        );
    }

    /// The terminal's seat is "You": "You win!", and one point is "1 point".
    #[test]
    fn you_win_with_1_point() {
        use crate::games::GameKind;
        let view = setup(GameKind::MagicalAthlete, &["You", "Ann"]);
        let place = |rank, name: &str, score| FinalPlace {
            rank,
            name: name.into(),
            score: Some(score),
        };
        let a = Announcement::Finished {
            race: CampaignId(1),
            game: GameKind::MagicalAthlete,
            view,
            placings: vec![place(1, "You", 1), place(2, "Ann", 0)],
            seed: "5e".into(),
            commitment: "c0".into(),
        };
        let p = present(&a, &plain());
        assert_eq!(p.body, "You win!");
        assert_eq!(p.fields[0].1, "1st You (1 point)\n2nd Ann (0 points)");
    }

    #[test]
    fn a_prompt_names_the_seat_once() {
        use crate::engine::{SeatSetup, Seed};
        use crate::games::GameKind;
        let kind = GameKind::DreamMile;
        let options = kind.apply_options(None, "").unwrap();
        let seats = [
            SeatSetup {
                name: "Alice".into(),
                choice: None,
            },
            SeatSetup {
                name: "Bob".into(),
                choice: None,
            },
        ];
        let game = kind.setup(&options, &seats, Seed::from_u64(3)).unwrap();
        let prompt = |label: &str| Announcement::Prompt {
            race: CampaignId(1),
            game: GameKind::DreamMile,
            step: 0,
            seat: crate::engine::Seat(0),
            seat_name: "Alice".into(),
            label: label.into(),
            view: game.private_view(crate::engine::Seat(0)),
            prompt: game.prompt(crate::engine::Seat(0)),
            deadline: None,
            notes: vec![],
        };
        assert_eq!(
            present(&prompt("Round 1: Alice to play"), &plain()).title,
            "Dream Mile race #1: Round 1: Alice to play"
        );
        assert_eq!(
            present(&prompt("Turn 1 of 8"), &plain()).title,
            "Dream Mile race #1: Turn 1 of 8, Alice to order"
        );
    }
}
