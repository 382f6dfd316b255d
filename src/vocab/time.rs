//! Time as stored: moments in milliseconds, and a race's clock settings (turn length,
//! calendar options, time banks) with the players' own time settings a deadline needs.

use serde::{Deserialize, Serialize};

use super::ids::UserId;
use crate::engine::Seat;

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = i64;

/// A campaign's clock settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The length of a turn, in seconds.
    pub turn_secs: u64,
    /// Reminders, in seconds before the deadline.
    pub reminders: Vec<u64>,
    /// Resolve as soon as every order is in (else always wait for the deadline).
    pub resolve_early: bool,
    /// The race's calendar options; absent in rows and texts from before.
    #[serde(default)]
    pub calendar: CalendarOptions,
}

/// A race's calendar options, stored as JSON; each `None` keeps the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarOptions {
    /// `zone=`: an IANA name or an offset; else the server's zone, else UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// `days=`: the weekdays a deadline may fall on, one bit each from Monday.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u8>,
    /// `quiet-cap=`: the most quiet hours may move one deadline, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet_cap_secs: Option<u64>,
    /// `nudge=`: when this much time is left, the channel names the seats still owing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nudge_secs: Option<u64>,
    /// `clock=`: each seat's starting bank, in seconds (a clock replaces `turn=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_secs: Option<u64>,
    /// `clock=BANK+INCREMENT`: what a seat's bank gains after each of its moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_increment_secs: Option<u64>,
    /// `clock-cap=`: the most a bank can hold; `None`: the starting bank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_cap_secs: Option<u64>,
    /// `away-cap=`: the most days of absence one seat may book in this race.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away_cap_days: Option<u32>,
    /// `grace=`: how long a player's play in a sequential game is held, changeable,
    /// before it resolves, in seconds; `None`: the default (`referee::grace`), 0: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_secs: Option<u64>,
}

/// Each seat's time bank in a race with `clock=`, stored as JSON; empty
/// otherwise. The arithmetic is `referee::bank`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// The step whose banks are running.
    #[serde(default)]
    pub step: u32,
    /// Whether the step's nudge was sent (a clock step's deadline is set again after
    /// each bank that runs out, and the nudge is sent once per step).
    #[serde(default)]
    pub nudged: bool,
    /// Whether that step runs on the banks (a turn of every seat at once); a short
    /// decision window keeps its own length.
    #[serde(default)]
    pub running: bool,
    #[serde(default)]
    pub seats: Vec<SeatClock>,
}

/// One seat's bank, and whether it runs in the open step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    pub seat: Seat,
    pub bank: Bank,
    /// When the bank started running in the open step; `None`: stopped.
    #[serde(default)]
    pub since: Option<Millis>,
    /// When it runs out in the open step, after the calendar's rules; `None`: stopped.
    #[serde(default)]
    pub due_at: Option<Millis>,
    /// It ran out in the open step: the default order plays, and no order is taken.
    #[serde(default)]
    pub ran_out: bool,
}

/// A time bank in milliseconds, with the totals that must balance:
/// `start + earned == used + left`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bank {
    pub left_ms: i64,
    pub used_ms: i64,
    pub earned_ms: i64,
    /// Times it ran out (and the default order played).
    pub expiries: u32,
}

/// A player's own time settings, as they gave them (checked when set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserTime {
    pub user: UserId,
    pub zone: Option<String>,
    pub quiet: Option<String>,
}

/// What a race's deadlines need beyond its row: its server's zone, and its players' time
/// settings (only those who set any).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeContext {
    pub guild_zone: Option<String>,
    pub users: Vec<UserTime>,
}
