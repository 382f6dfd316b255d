//! Seats: joining and leaving, bots, handing a seat over, removing a player, and a
//! seat whose DMs are closed; and which names a runner may take (one that shows, never
//! a bot's).

use super::announce::{Announcement, Target};
use super::error::RefereeError;
use super::machine::{Actor, Referee, clean_text, require_host, require_lobby, require_open};
use super::work::{Work, new_nonce, receipt_for};
use crate::engine::{BotLevel, Seat};
use crate::store::{OrderRow, OrderSource, SeatRow};
use crate::vocab::{CampaignId, Phase, UserId};

fn renumber(seats: &mut [SeatRow]) {
    for (i, s) in seats.iter_mut().enumerate() {
        s.seat = Seat::from_index(i).unwrap_or(Seat(u8::MAX));
    }
}

fn unique_name(seats: &[SeatRow], wanted: &str) -> String {
    let taken = |n: &str| seats.iter().any(|s| s.name.eq_ignore_ascii_case(n));
    if !taken(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|i| format!("{wanted} {i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| wanted.to_string())
}

/// Characters that are letters or symbols to Unicode but draw nothing: the Hangul fillers
/// and the blank braille pattern (favourites for a name that cannot be seen), and the soft
/// hyphen, which shows only where a line breaks.
const BLANK_GLYPHS: &[char] = &[
    '\u{00AD}', '\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}',
];

/// True when the character draws nothing: a blank, a zero-width character (combining
/// marks, joiners and format characters: width 0 in the Unicode tables), or a blank glyph.
fn is_invisible(c: char) -> bool {
    use unicode_width::UnicodeWidthChar;
    c.is_whitespace()
        || c.width().is_none_or(|w| w == 0)
        || BLANK_GLYPHS.contains(&c)
        || ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// True when the name is how the referee names its bots (`Bot`, `Bot 3`): in any case,
/// spacing or punctuation, and in full-width letters and digits.
fn is_bot_name(name: &str) -> bool {
    let folded: String = name
        .chars()
        .map(|c| match c {
            // Full-width ASCII (`Ｂｏｔ １`) as the letters it looks like.
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    folded
        .strip_prefix("bot")
        .is_some_and(|rest| rest.chars().all(char::is_numeric))
}

fn clean_name(name: &str) -> Result<String, RefereeError> {
    let name: String = clean_text(name)
        .chars()
        .filter(|c| !matches!(c, '@' | '`' | '*' | '_' | '~' | '|' | '<' | '>'))
        .collect();
    let name = name.trim().to_string();
    if name.is_empty() {
        return Err(RefereeError::Invalid(
            "a runner's name can't be empty".into(),
        ));
    }
    if name.chars().all(is_invisible) {
        return Err(RefereeError::Invalid(
            "a runner's name needs a letter, digit or sign that shows: this one shows as \
             nothing"
                .into(),
        ));
    }
    if name.chars().count() > 32 {
        return Err(RefereeError::Invalid(
            "a runner's name can be 32 characters at most".into(),
        ));
    }
    if is_bot_name(&name) {
        return Err(RefereeError::Invalid(
            "names like `Bot 1` are the bots': choose another name for your runner".into(),
        ));
    }
    Ok(name)
}

impl Referee {
    /// Takes a seat in the lobby. `choice` is the game's pre-race choice (a max speed).
    pub async fn join(
        &self,
        id: CampaignId,
        actor: &Actor,
        name: Option<&str>,
        choice: Option<&str>,
    ) -> Result<Seat, RefereeError> {
        // A rematch's player gets back what their seat carried (see `rematch_seat`).
        let before = self.rematch_seat(id, &actor.user).await?;
        let name = clean_name(
            name.or(before.as_ref().map(|s| s.name.as_str()))
                .unwrap_or(&actor.name),
        )?;
        self.mutate(id, |w| {
            require_lobby(w)?;
            if w.seat_of_user(&actor.user).is_some() {
                return Err(RefereeError::AlreadySeated);
            }
            let (_, max) = w.campaign.kind.seat_limits(&w.campaign.options)?;
            if w.seats.len() >= max {
                return Err(RefereeError::Full { max });
            }
            let kind = w.campaign.kind;
            let choice = match choice.map(clean_text).filter(|c| !c.is_empty()) {
                Some(c) => {
                    kind.check_seat_choice(&w.campaign.options, &c)
                        .map_err(RefereeError::Invalid)?;
                    Some(c)
                }
                // The earlier seat's choice, while it still fits the options.
                None => before
                    .as_ref()
                    .and_then(|s| s.choice.clone())
                    .filter(|c| kind.check_seat_choice(&w.campaign.options, c).is_ok()),
            };
            let seat = Seat::from_index(w.seats.len()).ok_or(RefereeError::Full { max })?;
            let name = unique_name(&w.seats, &name);
            w.seats.push(SeatRow {
                seat,
                user: Some(actor.user.clone()),
                name,
                bot: None,
                choice,
                dm_ok: true,
                view_hash: None,
                offer: None,
                autopilot: before.as_ref().map(|s| s.autopilot).unwrap_or_default(),
                away: None,
            });
            w.touch_seats();
            w.say_lobby();
            Ok(seat)
        })
        .await
    }

    /// Changes a seated player's pre-race choice (a max speed) while the lobby is open;
    /// returns the choice as stored.
    pub async fn set_seat_choice(
        &self,
        id: CampaignId,
        user: &UserId,
        choice: &str,
    ) -> Result<String, RefereeError> {
        let choice = clean_text(choice);
        self.mutate(id, |w| {
            require_lobby(w)?;
            w.campaign
                .kind
                .check_seat_choice(&w.campaign.options, &choice)
                .map_err(RefereeError::Invalid)?;
            let row = w
                .seats
                .iter_mut()
                .find(|s| s.user.as_ref() == Some(user) && s.bot.is_none())
                .ok_or(RefereeError::NotSeated)?;
            row.choice = Some(choice.clone());
            w.touch_seats();
            w.say_lobby();
            Ok(choice.clone())
        })
        .await
    }

    /// Gives up a seat: removed in the lobby, handed to a bot once the race runs.
    pub async fn leave(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            require_open(w)?;
            let seat = w
                .seat_of_user(&actor.user)
                .ok_or(RefereeError::NotSeated)?
                .seat;
            Self::release_seat(w, seat, "left the race")
        })
        .await
    }

    fn release_seat(w: &mut Work, seat: Seat, why: &str) -> Result<(), RefereeError> {
        let name = w.seat_name(seat);
        if w.campaign.phase == Phase::Lobby {
            w.seats.retain(|s| s.seat != seat);
            renumber(&mut w.seats);
            w.touch_seats();
            w.say_lobby();
            return Ok(());
        }
        if let Some(s) = w.seats.iter_mut().find(|s| s.seat == seat) {
            s.bot = Some(BotLevel::Heuristic);
        }
        w.touch_seats();
        let race = w.campaign.id;
        w.notice(
            format!("{name} {why}; a bot runs their seat from now on."),
            None,
            None,
        );
        // The bot orders at once if this seat is awaited.
        let game = w.game()?.clone();
        let pending = game.pending();
        if w.campaign.step_open
            && pending.includes(seat)
            && !w.orders.iter().any(|o| o.seat == seat)
        {
            let first_of_any =
                pending.mode == crate::engine::Mode::Any && pending.seats.first() != Some(&seat);
            if !first_of_any {
                let label = format!("bot/{}/{}", w.campaign.step, seat.0);
                let mut rng = crate::engine::GameRng::from_seed(w.seed()?.derive(&label));
                let order = game.bot_order(seat, BotLevel::Heuristic, &mut rng);
                let text = game.format_order(seat, &order);
                let nonce = new_nonce()?;
                let step = w.campaign.step;
                w.put_order(OrderRow {
                    step,
                    seat,
                    receipt: receipt_for(race.0, step, seat, &text, &nonce),
                    text,
                    parsed: order,
                    source: OrderSource::Bot,
                    nonce,
                    by_user: None,
                    submitted_at: w.now,
                });
            }
        }
        w.say_status();
        w.advance()
    }

    /// Adds bots to the lobby.
    pub async fn add_bots(
        &self,
        id: CampaignId,
        actor: &Actor,
        count: usize,
        level: BotLevel,
    ) -> Result<Vec<String>, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_lobby(w)?;
            let (_, max) = w.campaign.kind.seat_limits(&w.campaign.options)?;
            if count == 0 {
                return Err(RefereeError::Invalid("add at least one bot".into()));
            }
            if w.seats.len() + count > max {
                return Err(RefereeError::Full { max });
            }
            let mut names = Vec::new();
            for _ in 0..count {
                let seat = Seat::from_index(w.seats.len()).ok_or(RefereeError::Full { max })?;
                let name = unique_name(
                    &w.seats,
                    &format!(
                        "Bot {}",
                        w.seats.iter().filter(|s| s.user.is_none()).count() + 1
                    ),
                );
                names.push(name.clone());
                w.seats.push(SeatRow {
                    seat,
                    user: None,
                    name,
                    bot: Some(level),
                    choice: None,
                    dm_ok: true,
                    view_hash: None,
                    offer: None,
                    autopilot: Default::default(),
                    away: None,
                });
            }
            w.touch_seats();
            w.say_lobby();
            Ok(names)
        })
        .await
    }

    /// Offers a seat (named, or held by the player mentioned) to another member. The seat
    /// stays as it is until they accept it ([`Referee::accept_seat`]); a newer offer of
    /// the seat replaces this one.
    pub async fn replace(
        &self,
        id: CampaignId,
        actor: &Actor,
        seat_name: &str,
        to: &UserId,
    ) -> Result<String, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            if w.seat_of_user(to).is_some() {
                return Err(RefereeError::UserAlreadySeated);
            }
            let wanted = clean_text(seat_name);
            let idx = w
                .seats
                .iter()
                .position(|s| {
                    s.name.eq_ignore_ascii_case(&wanted)
                        || s.user.as_ref().is_some_and(|u| {
                            u.0 == wanted
                                .trim_start_matches("<@")
                                .trim_start_matches('!')
                                .trim_end_matches('>')
                        })
                })
                .ok_or_else(|| RefereeError::NoSuchSeat(wanted.clone()))?;
            let row = &mut w.seats[idx];
            row.offer = Some(to.clone());
            let (seat, name) = (row.seat, row.name.clone());
            w.touch_seats();
            let race = w.campaign.id;
            w.say(
                Target::Channel,
                Announcement::SeatOffer {
                    race,
                    seat,
                    seat_name: name.clone(),
                    user: to.clone(),
                },
            );
            Ok(name)
        })
        .await
    }

    /// The member a seat was offered to takes it over.
    pub async fn accept_seat(
        &self,
        id: CampaignId,
        actor: &Actor,
        seat: Seat,
    ) -> Result<String, RefereeError> {
        self.mutate(id, |w| {
            require_open(w)?;
            if w.seat_of_user(&actor.user).is_some() {
                return Err(RefereeError::AlreadySeated);
            }
            let row = w
                .seats
                .iter_mut()
                .find(|s| s.seat == seat && s.offer.as_ref() == Some(&actor.user))
                .ok_or(RefereeError::NoOffer)?;
            row.user = Some(actor.user.clone());
            row.offer = None;
            row.bot = None;
            row.dm_ok = true;
            row.view_hash = None;
            let name = row.name.clone();
            w.touch_seats();
            w.notice(
                format!("{name}'s seat now belongs to {{user}}."),
                None,
                Some(actor.user.clone()),
            );
            if w.campaign.phase == Phase::Lobby {
                w.say_lobby();
            } else {
                w.say_status();
            }
            Ok(name)
        })
        .await
    }

    /// Removes a player: from the lobby, or to a bot once the race runs.
    pub async fn kick(
        &self,
        id: CampaignId,
        actor: &Actor,
        target: &UserId,
    ) -> Result<String, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            let row = w
                .seat_of_user(target)
                .ok_or(RefereeError::NotSeated)?
                .clone();
            Self::release_seat(w, row.seat, "was removed by the host")?;
            Ok(row.name)
        })
        .await
    }

    /// A player's DMs failed (closed): remember it, and tell the channel how to order.
    pub async fn dm_failed(&self, id: CampaignId, seat: Seat) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            let Some(row) = w.seats.iter_mut().find(|s| s.seat == seat) else {
                return Ok(());
            };
            if !row.dm_ok {
                return Ok(());
            }
            row.dm_ok = false;
            let user = row.user.clone();
            w.touch_seats();
            if let Some(user) = user {
                w.notice("{user}, I can't DM you. Open your DMs to this server's members, or send your orders here with /race order (only you will see them).".to_string(), None, Some(user));
            }
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::GameKind;
    use crate::referee::{Config, NewRace, TestClock};
    use crate::store::SqliteStore;

    #[test]
    fn a_name_that_shows_as_nothing_is_refused() {
        for blank in [
            "\u{3164}",
            "\u{3164}\u{3164}",
            "\u{2800}",
            "\u{115F}\u{1160}",
            "\u{FFA0}",
            "\u{0301}\u{0308}",
            " \u{0301} ",
            "\u{200B}\u{3164}\u{200D}",
            "\u{2003}\u{3000}",
            "\u{00AD}",
            "\u{034F}",
            "\u{E0041}\u{E0042}",
        ] {
            let err = clean_name(blank).unwrap_err().to_string();
            assert!(
                err.contains("can't be empty") || err.contains("shows as nothing"),
                "{blank:?}: {err}"
            );
        }
        // A visible letter with marks, or a blank glyph beside one, is a name.
        assert_eq!(clean_name("e\u{0301}").unwrap(), "e\u{0301}");
        assert_eq!(clean_name("Ann\u{3164}").unwrap(), "Ann\u{3164}");
        assert_eq!(clean_name("\u{2800}\u{28FF}").unwrap(), "\u{2800}\u{28FF}");
        assert_eq!(clean_name("李").unwrap(), "李");
    }

    #[test]
    fn a_bot_name_is_refused_in_any_spelling() {
        for taken in [
            "Bot 1",
            "bot 1",
            "BOT1",
            "Bot  2",
            " bot-3 ",
            "Bot",
            "b.o.t 12",
            "Ｂｏｔ １",
            "Bot 1 2",
        ] {
            let err = clean_name(taken).unwrap_err().to_string();
            assert!(err.contains("are the bots'"), "{taken:?}: {err}");
        }
        for fine in ["Botticelli", "Robot 1", "Bot One", "Abbot", "Bo 1"] {
            assert_eq!(clean_name(fine).unwrap(), fine);
        }
    }

    #[tokio::test]
    async fn a_human_cannot_take_a_bots_name() {
        let store = Arc::new(SqliteStore::in_memory().await.unwrap());
        let r = Referee::new(store, Arc::new(TestClock::at_epoch()), Config::default());
        let host = Actor::new("1", "Alice");
        let race = r
            .create(NewRace {
                kind: GameKind::DreamMile,
                options: String::new(),
                channel: "names".into(),
                guild: None,
                host: host.clone(),
            })
            .await
            .unwrap();
        r.join(race, &host, None, None).await.unwrap();
        let mallory = Actor::new("2", "Mallory");
        let err = r.join(race, &mallory, Some("bot 1"), None).await;
        assert!(matches!(err, Err(RefereeError::Invalid(_))), "{err:?}");
        // A display name is a name too.
        let err = r.join(race, &Actor::new("3", "Bot 1"), None, None).await;
        assert!(matches!(err, Err(RefereeError::Invalid(_))), "{err:?}");
        let err = r.join(race, &mallory, Some("\u{3164}"), None).await;
        assert!(matches!(err, Err(RefereeError::Invalid(_))), "{err:?}");
        // Nothing changed: the first bot is still Bot 1, in the second seat.
        let bots = r
            .add_bots(race, &host, 1, BotLevel::Heuristic)
            .await
            .unwrap();
        assert_eq!(bots, ["Bot 1"]);
        let loaded = r.store().load(race).await.unwrap().unwrap();
        let names: Vec<&str> = loaded.seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Alice", "Bot 1"]);
    }
}
