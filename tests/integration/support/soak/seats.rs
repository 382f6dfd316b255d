//! The soak's seat changes ("scripted humans including leaving, kicks and
//! replaces"): a player who leaves the lobby, a host who kicks a seat mid-race (a bot runs
//! it) or hands it to another member; and the checker's rules for them: the seat is then
//! played by the bot or the new player, and its old player is neither prompted nor heard.

use photofinish::vocab::{CampaignId, UserId};
use serde_json::{Value, json};

use super::run::Figures;
use super::world::World;
use crate::support::backend::Arg;
use crate::support::discord::{BOT_ID, FakeDiscord, User, custom_ids, text_of};

/// A seat whose player the host removed mid-race.
pub struct Change {
    pub race: CampaignId,
    pub seat: i64,
    /// Who held it.
    pub old: User,
    /// Who runs it now: `None` for the bot (a kick).
    pub new: Option<User>,
    /// The last order row and outbox row before the change: what comes after them came
    /// after it (by row id, not time, as the soak's clock also jumps back).
    pub last_order: i64,
    pub last_outbox: i64,
    /// Bot messages with an announcement's nonce in the old player's DMs by then.
    pub dms: usize,
}

/// Announcement messages (they carry a nonce) the bot sent to `user` by DM.
fn announcement_dms(w: &World, user: &User) -> Vec<Value> {
    let Some(dm) = w.fake.dm_channel(user.id) else {
        return vec![];
    };
    w.fake
        .messages_in(dm)
        .into_iter()
        .filter(|m| m["author"]["id"] == BOT_ID.to_string().as_str())
        .filter(|m| !m["nonce"].is_null())
        .collect()
}

impl World {
    /// The host kicks (or, with `replace`, hands to a new member) its guest's seat in the
    /// first open race with a guest still seated. `Err` is a promise broken on the spot.
    pub async fn change_seat(&mut self, n: usize, replace: bool) -> Result<Option<Change>, String> {
        let open = self.open_races().await;
        let Some(r) = self.races.iter().position(|r| {
            open.contains(&r.id)
                && r.humans.len() > 1
                && !self.changes.iter().any(|c| c.race == r.id)
        }) else {
            return Ok(None);
        };
        let (id, channel) = (self.races[r].id, self.races[r].channel);
        let host = self.races[r].humans[0].0.clone();
        let (old, habit) = self.races[r].humans[1].clone();
        let raw = self.raw().await;
        let seat = raw
            .scalar(
                "SELECT COALESCE(MAX(seat), -1) FROM seats WHERE campaign_id = ? AND user_id = ?",
                vec![Arg::I(id.0), Arg::S(old.id.to_string())],
            )
            .await;
        raw.close().await;
        let dms = announcement_dms(self, &old).len();
        let new = if replace {
            let new = self.user(&format!("Sub{n}"));
            let answer = self
                .slash(
                    &host,
                    channel,
                    "replace",
                    &[
                        ("seat", json!(format!("<@{}>", old.id))),
                        ("user", FakeDiscord::user_option(&new)),
                    ],
                )
                .await;
            if refused_by_a_fault(&answer) {
                return Ok(None);
            }
            if !text_of(&answer).contains("is offered") {
                return Err(format!("race {id}: replace refused: {answer}"));
            }
            self.settle().await;
            let prefix = format!("pf:accept:{}:", id.0);
            let offer = self
                .fake
                .messages_in(channel)
                .into_iter()
                .rev()
                .find_map(|m| {
                    custom_ids(&m)
                        .into_iter()
                        .find(|c| c.starts_with(&prefix))
                        .map(|c| (m, c))
                });
            let Some((message, button)) = offer else {
                // The offer's post is still waiting for Discord: the seat stays as it was.
                return Ok(None);
            };
            let click = self.fake.click(&new, &message, &button);
            let answer = self.fake.response(click).await;
            if !text_of(&answer).contains("You run") {
                return Err(format!("race {id}: the offer was not taken: {answer}"));
            }
            self.races[r].humans[1] = (new.clone(), habit);
            Some(new)
        } else {
            let answer = self
                .slash(
                    &host,
                    channel,
                    "kick",
                    &[("user", FakeDiscord::user_option(&old))],
                )
                .await;
            if refused_by_a_fault(&answer) {
                return Ok(None);
            }
            if !text_of(&answer).contains("is out of the race") {
                return Err(format!("race {id}: kick refused: {answer}"));
            }
            self.races[r].humans.remove(1);
            None
        };
        let raw = self.raw().await;
        let last_order = raw
            .scalar("SELECT COALESCE(MAX(id), 0) FROM orders", vec![])
            .await;
        let last_outbox = raw
            .scalar("SELECT COALESCE(MAX(id), 0) FROM outbox", vec![])
            .await;
        raw.close().await;
        // The old player tries to play on, and is refused (checked at the end).
        self.fake.dm(&old, "1");
        let change = Change {
            race: id,
            seat,
            old,
            new,
            last_order,
            last_outbox,
            dms,
        };
        self.settle().await;
        Ok(Some(change))
    }

    /// A third member joins the lobby of race `n` and leaves it before the start.
    pub async fn join_and_leave(&mut self, n: usize, channel: u64) {
        let leaver = self.user(&format!("Leaver{n}"));
        let answer = self.slash(&leaver, channel, "join", &[]).await;
        assert!(text_of(&answer).contains("You're in"), "{answer}");
        let answer = self.slash(&leaver, channel, "leave", &[]).await;
        assert!(text_of(&answer).contains("You left"), "{answer}");
        self.leavers.push(UserId::new(leaver.id.to_string()));
    }
}

/// A storage fault (the disk-full spell on this race's commits) refuses the change with
/// "please try again"; nothing changed, so the seat stays as it was and the soak goes on.
fn refused_by_a_fault(answer: &Value) -> bool {
    text_of(answer).contains("try again")
}

/// The rules for seat changes: the old player holds no playable seat and places no order
/// after the change; a kicked seat is played by the bot, a replaced one by the new player
/// (or the deadline); nothing new is prompted to the old player; a lobby leaver has no
/// seat at the start.
pub async fn check_changes(w: &World, f: &mut Figures) {
    let raw = w.raw().await;
    for c in &w.changes {
        let race = c.race;
        let by_old = raw
            .scalar(
                "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND by_user = ? AND id > ?",
                vec![
                    Arg::I(race.0),
                    Arg::S(c.old.id.to_string()),
                    Arg::I(c.last_order),
                ],
            )
            .await;
        if by_old > 0 {
            f.problems.push(format!(
                "race {race}: {by_old} order(s) by {} after their seat was taken",
                c.old.id
            ));
        }
        let (sql, who) = match &c.new {
            // A kicked seat: no player's order at all.
            None => (
                "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND seat = ? \
                 AND source = 'player' AND id > ? AND ? = ''",
                String::new(),
            ),
            // A replaced seat: players' orders are the new player's.
            Some(new) => (
                "SELECT COUNT(*) FROM orders WHERE campaign_id = ? AND seat = ? \
                 AND source = 'player' AND id > ? AND (by_user IS NULL OR by_user <> ?)",
                new.id.to_string(),
            ),
        };
        let strangers = raw
            .scalar(
                sql,
                vec![
                    Arg::I(race.0),
                    Arg::I(c.seat),
                    Arg::I(c.last_order),
                    Arg::S(who),
                ],
            )
            .await;
        if strangers > 0 {
            f.problems.push(format!(
                "race {race}: seat {} got {strangers} player order(s) from someone other than \
                 its {} after the change",
                c.seat,
                if c.new.is_some() { "new player" } else { "bot" }
            ));
        }
        let playable = raw
            .scalar(
                "SELECT COUNT(*) FROM seats WHERE campaign_id = ? AND user_id = ? AND bot IS NULL",
                vec![Arg::I(race.0), Arg::S(c.old.id.to_string())],
            )
            .await;
        if playable > 0 {
            f.problems.push(format!(
                "race {race}: {} still plays a seat after it was taken",
                c.old.id
            ));
        }
        // Announcements queued after the change in the old player's DMs.
        for m in announcement_dms(w, &c.old).iter().skip(c.dms) {
            let nonce = match &m["nonce"] {
                Value::String(s) => s.parse::<i64>().unwrap_or(0),
                Value::Number(n) => n.as_i64().unwrap_or(0),
                _ => 0,
            };
            let late = raw
                .scalar(
                    "SELECT COUNT(*) FROM outbox WHERE id = ? AND campaign_id = ? AND id > ?",
                    vec![Arg::I(nonce), Arg::I(race.0), Arg::I(c.last_outbox)],
                )
                .await;
            if late > 0 {
                f.problems.push(format!(
                    "race {race}: announcement {nonce} sent to {} after their seat was taken: {}",
                    c.old.id,
                    text_of(m)
                ));
            }
        }
    }
    for u in &w.leavers {
        let seated = raw
            .scalar(
                "SELECT COUNT(*) FROM seats WHERE user_id = ?",
                vec![Arg::S(u.0.clone())],
            )
            .await;
        if seated > 0 {
            f.problems
                .push(format!("{} left the lobby but holds a seat", u.0));
        }
    }
    raw.close().await;
}
