//! Reading stored rows back into the store's records, once for both backends (through
//! [`Get`]). A row that does not decode (a value of the wrong type, unknown text in an
//! enum column, JSON that no longer parses, a number out of range) is a
//! [`StoreError::BadRow`] naming its table, its key and the column at fault: never a panic,
//! never a silent default.

use serde::de::DeserializeOwned;

use super::error::StoreError;
use super::records::{
    Address, CampaignRow, DeadlineKind, DeadlineRow, EVENT_FORMAT, Heartbeat, OrderRow,
    OrderSource, OutboxRow, PreferenceRow, Quarantine, STATE_FORMAT, SeatRow, TurnRow,
    WorkerStatus,
};
use super::sql::Get;
use crate::engine::{Autopilot, BotLevel, Seat};
use crate::games::{AnyEvent, GameKind};
use crate::vocab::{CampaignId, Millis, Phase, Timing, UserId};

/// Why a row could not be read, before it is tied to its table and key.
pub(super) struct Unreadable(String);

impl From<sqlx::Error> for Unreadable {
    fn from(e: sqlx::Error) -> Self {
        Unreadable(e.to_string())
    }
}

/// Reads one row of `table`; the values of its `key` columns name it in any error.
fn read<R: Get, T>(
    r: &R,
    table: &'static str,
    key: &[&str],
    decode: impl FnOnce(&R) -> Result<T, Unreadable>,
) -> Result<T, StoreError> {
    decode(r).map_err(|Unreadable(reason)| StoreError::BadRow {
        table,
        key: key_of(r, key),
        reason,
    })
}

/// `id 42`, or `campaign_id 3, seat 1`: as much of the key as can be read.
fn key_of<R: Get>(r: &R, columns: &[&str]) -> String {
    let values: Vec<String> = columns
        .iter()
        .map(|c| {
            let value = match r.int(c) {
                Ok(n) => n.to_string(),
                Err(_) => r.text(c).unwrap_or_else(|_| "?".into()),
            };
            format!("{c} {value}")
        })
        .collect();
    values.join(", ")
}

/// A row's format column: 1 up to `known` reads; a newer one is
/// [`StoreError::UnknownFormat`], never misread.
fn check_format<R: Get>(
    r: &R,
    table: &'static str,
    key: &[&str],
    column: &str,
    known: i64,
) -> Result<(), StoreError> {
    match r.int(column) {
        Ok(found) if (1..=known).contains(&found) => Ok(()),
        Ok(found) => Err(StoreError::UnknownFormat {
            table,
            key: key_of(r, key),
            found,
            known,
        }),
        Err(e) => Err(StoreError::BadRow {
            table,
            key: key_of(r, key),
            reason: format!("column `{column}`: {e}"),
        }),
    }
}

fn json<T: DeserializeOwned>(column: &str, text: &str) -> Result<T, Unreadable> {
    serde_json::from_str(text).map_err(|e| Unreadable(format!("column `{column}`: {e}")))
}

fn opt_json<T: DeserializeOwned>(
    column: &str,
    text: Option<String>,
) -> Result<Option<T>, Unreadable> {
    text.map(|t| json(column, &t)).transpose()
}

/// A text column holding one of an enum's names.
fn named<T>(column: &str, text: &str, parse: impl Fn(&str) -> Option<T>) -> Result<T, Unreadable> {
    parse(text).ok_or_else(|| Unreadable(format!("column `{column}`: unknown value `{text}`")))
}

fn number<T: TryFrom<i64>>(column: &str, n: i64) -> Result<T, Unreadable> {
    T::try_from(n).map_err(|_| Unreadable(format!("column `{column}`: {n} is out of range")))
}

fn step<R: Get>(r: &R) -> Result<u32, Unreadable> {
    number("step", r.int("step")?)
}

fn seat<R: Get>(r: &R) -> Result<Seat, Unreadable> {
    number("seat", r.int("seat")?).map(Seat)
}

pub(super) fn campaign<R: Get>(r: &R) -> Result<CampaignRow, StoreError> {
    check_format(r, "campaigns", &["id"], "state_format", STATE_FORMAT)?;
    read(r, "campaigns", &["id"], |r| {
        Ok(CampaignRow {
            id: CampaignId(r.int("id")?),
            kind: named("kind", &r.text("kind")?, GameKind::from_slug)?,
            options: json("options", &r.text("options")?)?,
            host: UserId(r.text("host")?),
            channel: r.text("channel")?,
            guild: r.opt_text("guild")?,
            phase: named("phase", &r.text("phase")?, Phase::parse)?,
            timing: Timing {
                turn_secs: number("turn_secs", r.int("turn_secs")?)?,
                reminders: json("reminders", &r.text("reminders")?)?,
                resolve_early: r.flag("resolve_early")?,
                calendar: json("calendar", &r.text("calendar")?)?,
            },
            seed: r.text("seed")?,
            commitment: r.text("commitment")?,
            state: opt_json("state", r.opt_text("state")?)?,
            step: step(r)?,
            step_open: r.flag("step_open")?,
            deadline_at: r.opt_int("deadline_at")?,
            paused_left_ms: r.opt_int("paused_left_ms")?,
            version: r.int("version")?,
            status_message: r.opt_text("status_message")?,
            lobby_message: r.opt_text("lobby_message")?,
            created_at: r.int("created_at")?,
            updated_at: r.int("updated_at")?,
            ended_at: r.opt_int("ended_at")?,
            clocks: json("clocks", &r.text("clocks")?)?,
            round: opt_json("round", r.opt_text("round")?)?,
        })
    })
}

pub(super) fn seat_row<R: Get>(r: &R) -> Result<SeatRow, StoreError> {
    read(r, "seats", &["campaign_id", "seat"], |r| {
        Ok(SeatRow {
            seat: seat(r)?,
            user: r.opt_text("user_id")?.map(UserId),
            name: r.text("name")?,
            bot: match r.opt_text("bot")? {
                Some(b) => Some(named("bot", &b, BotLevel::parse)?),
                None => None,
            },
            choice: r.opt_text("choice")?,
            dm_ok: r.flag("dm_ok")?,
            view_hash: r.opt_text("view_hash")?,
            offer: r.opt_text("offer_to")?.map(UserId),
            autopilot: named("autopilot", &r.text("autopilot")?, Autopilot::parse)?,
            away: opt_json("away", r.opt_text("away")?)?,
        })
    })
}

pub(super) fn order<R: Get>(r: &R) -> Result<OrderRow, StoreError> {
    read(r, "orders", &["id"], |r| {
        Ok(OrderRow {
            step: step(r)?,
            seat: seat(r)?,
            text: r.text("text")?,
            parsed: json("parsed", &r.text("parsed")?)?,
            source: named("source", &r.text("source")?, OrderSource::parse)?,
            nonce: r.text("nonce")?,
            receipt: r.text("receipt")?,
            by_user: r.opt_text("by_user")?.map(UserId),
            submitted_at: r.int("submitted_at")?,
        })
    })
}

pub(super) fn turn<R: Get>(r: &R) -> Result<TurnRow, StoreError> {
    read(r, "turns", &["campaign_id", "step"], |r| {
        Ok(TurnRow {
            step: step(r)?,
            label: r.text("label")?,
            pending: json("pending", &r.text("pending")?)?,
            opened_at: r.int("opened_at")?,
            deadline_at: r.opt_int("deadline_at")?,
            resolved_at: r.opt_int("resolved_at")?,
            late: r.flag("late")?,
        })
    })
}

/// The open step of a campaign and when it opened.
pub(super) fn open_turn<R: Get>(r: &R) -> Result<(u32, Millis), StoreError> {
    read(r, "turns", &["campaign_id", "step"], |r| {
        Ok((step(r)?, r.int("opened_at")?))
    })
}

/// An event with its step.
pub(super) fn event<R: Get>(r: &R) -> Result<(u32, AnyEvent), StoreError> {
    check_format(
        r,
        "events",
        &["campaign_id", "step", "idx"],
        "format",
        EVENT_FORMAT,
    )?;
    read(r, "events", &["campaign_id", "step", "idx"], |r| {
        Ok((step(r)?, json("event", &r.text("event")?)?))
    })
}

pub(super) fn outbox<R: Get>(r: &R) -> Result<OutboxRow, StoreError> {
    read(r, "outbox", &["id"], |r| {
        Ok(OutboxRow {
            id: r.int("id")?,
            campaign: CampaignId(r.int("campaign_id")?),
            target: json("target", &r.text("target")?)?,
            payload: json("payload", &r.text("payload")?)?,
            coalesce_key: r.opt_text("coalesce_key")?,
            created_at: r.int("created_at")?,
            attempts: r.int("attempts")?,
            delivered_at: r.opt_int("delivered_at")?,
            external_id: r.opt_text("external_id")?,
            failed: r.opt_text("failed")?,
            attempted_at: r.opt_int("attempted_at")?,
        })
    })
}

fn deadline_kind(text: &str) -> Option<DeadlineKind> {
    match text {
        "deadline" => Some(DeadlineKind::Deadline),
        "reminder" => Some(DeadlineKind::Reminder),
        "continue" => Some(DeadlineKind::Continue),
        "nudge" => Some(DeadlineKind::Nudge),
        _ => None,
    }
}

pub(super) fn deadline<R: Get>(r: &R) -> Result<DeadlineRow, StoreError> {
    read(r, "deadlines", &["id"], |r| {
        Ok(DeadlineRow {
            id: r.int("id")?,
            campaign: CampaignId(r.int("campaign_id")?),
            step: step(r)?,
            kind: named("kind", &r.text("kind")?, deadline_kind)?,
            due_at: r.int("due_at")?,
            failures: r.int("failures")?,
        })
    })
}

pub(super) fn preference<R: Get>(r: &R) -> Result<PreferenceRow, StoreError> {
    read(r, "preferences", &["id"], |r| {
        Ok(PreferenceRow {
            step: step(r)?,
            seat: seat(r)?,
            text: r.text("text")?,
            set_at: r.int("set_at")?,
        })
    })
}

pub(super) fn heartbeat<R: Get>(r: &R) -> Result<Heartbeat, StoreError> {
    read(r, "processes", &["instance"], |r| {
        Ok(Heartbeat {
            instance: r.text("instance")?,
            gateway: r.text("gateway")?,
            shards: r.text("shards")?,
            detail: r.text("detail")?,
            started_at: r.int("started_at")?,
            beat_at: r.int("beat_at")?,
        })
    })
}

/// Where a campaign's announcements go: its row's plain columns, never its state.
pub(super) fn address<R: Get>(r: &R) -> Result<Address, StoreError> {
    read(r, "campaigns", &["id"], |r| {
        Ok(Address {
            channel: r.text("channel")?,
            host: UserId(r.text("host")?),
            status_message: r.opt_text("status_message")?,
            lobby_message: r.opt_text("lobby_message")?,
            phase: Phase::parse(&r.text("phase")?),
            step: step(r)?,
            step_open: r.flag("step_open")?,
            deadline_at: r.opt_int("deadline_at")?,
        })
    })
}

pub(super) fn quarantine<R: Get>(r: &R) -> Result<Quarantine, StoreError> {
    read(r, "quarantine", &["campaign_id"], |r| {
        Ok(Quarantine {
            campaign: CampaignId(r.int("campaign_id")?),
            reason: r.text("reason")?,
            at: r.int("at")?,
            told_at: r.opt_int("told_at")?,
        })
    })
}

pub(super) fn worker<R: Get>(r: &R) -> Result<WorkerStatus, StoreError> {
    read(r, "workers", &["instance", "worker"], |r| {
        Ok(WorkerStatus {
            instance: r.text("instance")?,
            worker: r.text("worker")?,
            state: r.text("state")?,
            restarts: r.int("restarts")?,
            last_panic: r.opt_text("last_panic")?,
            trouble: r.opt_text("trouble")?,
            at: r.int("at")?,
        })
    })
}

/// The `id` and `campaign_id` of a row that may not decode otherwise (both are integer
/// keys, which always read).
pub(super) fn ids<R: Get>(r: &R) -> (Option<i64>, Option<CampaignId>) {
    (r.int("id").ok(), r.int("campaign_id").ok().map(CampaignId))
}

/// A campaign's id, alone in a row (`id`).
pub(super) fn campaign_id<R: Get>(r: &R) -> Result<CampaignId, StoreError> {
    read(r, "campaigns", &["id"], |r| Ok(CampaignId(r.int("id")?)))
}

/// One row of sqlx's `_sqlx_migrations`.
pub(super) fn applied<R: Get>(r: &R) -> Result<super::codec::Applied, StoreError> {
    read(r, "_sqlx_migrations", &["version"], |r| {
        Ok(super::codec::Applied {
            version: r.int("version")?,
            success: r.flag("success")?,
            checksum: r.bytes("checksum")?,
        })
    })
}

/// Rows decoded one by one: the good ones, and for each bad one its `id`, its campaign
/// and why, so that one row that does not decode costs only its own race.
pub(super) struct Decoded<T> {
    pub good: Vec<T>,
    pub bad: Vec<(Option<i64>, Option<CampaignId>, StoreError)>,
}

pub(super) fn each<R: Get, T>(
    found: &[R],
    decode: impl Fn(&R) -> Result<T, StoreError>,
) -> Decoded<T> {
    let mut out = Decoded {
        good: Vec::new(),
        bad: Vec::new(),
    };
    for r in found {
        match decode(r) {
            Ok(t) => out.good.push(t),
            Err(e) => {
                let (id, campaign) = ids(r);
                out.bad.push((id, campaign, e));
            }
        }
    }
    out
}

/// Decodes every row with one of the decoders above.
pub(super) fn all<R, T>(
    rows: &[R],
    decode: impl Fn(&R) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    rows.iter().map(decode).collect()
}
