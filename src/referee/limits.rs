//! Quotas and rate limits: how much one user or one server may ask of the bot. Every
//! limit and its default is in [`Limits`] (the `[limits]` table of the configuration);
//! the referee checks the quotas on races and reminders (`quotas.rs`), and
//! [`RateLimiter`] paces orders, preferences and commands per user. A limit set to 0 is
//! off.
//!
//! Quotas are counted from the races stored, so they hold across processes and restarts.
//! The rate limiter is in memory, per process: it bounds the work one user causes each
//! minute, which is what it is for.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Deserialize;

use super::error::RefereeError;
use crate::vocab::{Millis, Timing, UserId};

/// Every quota, with its default.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Lobbies one user may have open (as host) at once.
    pub lobbies_per_user: u32,
    /// Races one user may host that have started and not ended (running or paused).
    pub running_per_user: u32,
    /// Lobbies open at once in one server.
    pub lobbies_per_server: u32,
    /// Races running or paused at once in one server.
    pub running_per_server: u32,
    /// Reminders per turn (each one DMs every player still missing an order).
    pub reminders_per_turn: u32,
    /// The least time between two reminders of a turn, in seconds.
    pub reminder_gap_secs: u64,
    /// Orders and preferences one user may send in a burst...
    pub actions_burst: u32,
    /// ...and how many a minute after that.
    pub actions_per_minute: u32,
    /// Slash commands and buttons one user may use in a burst...
    pub commands_burst: u32,
    /// ...and how many a minute after that.
    pub commands_per_minute: u32,
    /// Changed orders a seat keeps per turn beside its live one (older ones are deleted).
    pub superseded_orders_kept: u32,
    /// Preferences one seat may set in a race.
    pub preferences_per_seat: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            lobbies_per_user: 3,
            running_per_user: 10,
            lobbies_per_server: 25,
            running_per_server: 100,
            reminders_per_turn: 5,
            reminder_gap_secs: 60,
            actions_burst: 10,
            actions_per_minute: 30,
            commands_burst: 10,
            commands_per_minute: 30,
            superseded_orders_kept: 5,
            preferences_per_seat: 100,
        }
    }
}

impl Limits {
    /// No limit at all (benchmarks, simulations, the terminal game).
    pub fn off() -> Limits {
        Limits {
            lobbies_per_user: 0,
            running_per_user: 0,
            lobbies_per_server: 0,
            running_per_server: 0,
            reminders_per_turn: 0,
            reminder_gap_secs: 0,
            actions_burst: 0,
            actions_per_minute: 0,
            commands_burst: 0,
            commands_per_minute: 0,
            superseded_orders_kept: 0,
            preferences_per_seat: 0,
        }
    }

    /// Refuses reminders beyond the quota, or closer together than the gap.
    pub fn check_timing(&self, timing: &Timing) -> Result<(), RefereeError> {
        let max = usize::try_from(self.reminders_per_turn).unwrap_or(usize::MAX);
        if max > 0 && timing.reminders.len() > max {
            return Err(RefereeError::Invalid(format!(
                "a turn can have {max} reminders at most; you asked for {}",
                timing.reminders.len()
            )));
        }
        let gap = self.reminder_gap_secs;
        // The list is sorted and free of duplicates (`timing::apply_timing_text`); sort a
        // copy anyway, as the configuration builds its own.
        let mut sorted = timing.reminders.clone();
        sorted.sort_unstable();
        if gap > 0 && sorted.windows(2).any(|w| w[1].saturating_sub(w[0]) < gap) {
            return Err(RefereeError::Invalid(format!(
                "reminders must be at least {} apart",
                super::when::format_duration(gap)
            )));
        }
        Ok(())
    }
}

/// What a user's request is paced as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pace {
    /// Orders and preferences.
    Action,
    /// Commands and buttons.
    Command,
}

/// A token bucket: thousandths of a request, and when it was last filled.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    milli: i64,
    at: Millis,
}

/// Buckets kept before the full ones are dropped (a full bucket is the same as none).
const MAX_BUCKETS: usize = 10_000;

/// Per-user token buckets, on the referee's clock.
#[derive(Debug, Default)]
pub struct RateLimiter {
    buckets: Mutex<HashMap<(UserId, Pace), Bucket>>,
}

impl RateLimiter {
    /// Takes one request from `user`'s bucket (`burst` deep, refilled at `per_minute`),
    /// or says how long to wait. A zero rate is no limit.
    pub fn take(
        &self,
        user: &UserId,
        pace: Pace,
        (burst, per_minute): (u32, u32),
        now: Millis,
    ) -> Result<(), RefereeError> {
        if burst == 0 || per_minute == 0 {
            return Ok(());
        }
        let full = i64::from(burst).saturating_mul(1000);
        let rate = i64::from(per_minute);
        let fill = |b: Bucket| {
            // One request is 1000; `rate` requests a minute is rate/60 thousandths a ms.
            let gained = now.saturating_sub(b.at).max(0).saturating_mul(rate) / 60;
            b.milli.saturating_add(gained).min(full)
        };
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() >= MAX_BUCKETS {
            buckets.retain(|_, b| fill(*b) < full);
        }
        let bucket = buckets.entry((user.clone(), pace)).or_insert(Bucket {
            milli: full,
            at: now,
        });
        let milli = fill(*bucket);
        if milli < 1000 {
            let wait_ms = (1000 - milli).saturating_mul(60) / rate;
            let secs = u64::try_from(wait_ms.saturating_add(999) / 1000)
                .unwrap_or(1)
                .max(1);
            return Err(RefereeError::TooFast { secs });
        }
        *bucket = Bucket {
            milli: milli - 1000,
            at: now,
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_empties_and_refills_on_the_clock() {
        let r = RateLimiter::default();
        let u = UserId::new("1");
        for _ in 0..3 {
            r.take(&u, Pace::Action, (3, 60), 0).unwrap();
        }
        assert!(matches!(
            r.take(&u, Pace::Action, (3, 60), 0),
            Err(RefereeError::TooFast { secs: 1 })
        ));
        // Another user and another kind have their own buckets.
        r.take(&UserId::new("2"), Pace::Action, (3, 60), 0).unwrap();
        r.take(&u, Pace::Command, (3, 60), 0).unwrap();
        // 60 a minute: one more a second.
        r.take(&u, Pace::Action, (3, 60), 1000).unwrap();
        assert!(r.take(&u, Pace::Action, (3, 60), 1000).is_err());
        // Off.
        for _ in 0..100 {
            r.take(&u, Pace::Action, (0, 0), 1000).unwrap();
        }
    }

    #[test]
    fn reminders_are_capped_and_spaced() {
        let l = Limits::default();
        let t = |r: Vec<u64>| Timing {
            turn_secs: 86_400,
            reminders: r,
            resolve_early: true,
            calendar: Default::default(),
        };
        l.check_timing(&t(vec![43_200, 3600, 600, 300, 60]))
            .unwrap();
        assert!(
            l.check_timing(&t((1..=6).map(|i| i * 600).collect()))
                .is_err()
        );
        assert!(l.check_timing(&t(vec![3600, 3590])).is_err());
        Limits::off()
            .check_timing(&t((1..=1399).collect()))
            .unwrap();
    }
}
