//! A race's and its players' time settings as the calendar's rules: the race's zone
//! (`zone=`, else its server's, else UTC), `days=`, `quiet-cap=`, and the quiet hours of
//! the seats that still owe an order. Stored texts were checked when set; one that no
//! longer reads (a zone dropped from the database) counts as unset.

use chrono::DateTime;

use super::announce::{Announcement, NudgeSeat, Target};
use super::calendar::{self, DEFAULT_QUIET_CAP_SECS, Rules, Sleeper};
use super::when::{self, Days, Zone};
use super::work::{MAX_DEADLINE_AHEAD_MS, Work};
use crate::engine::{Pending, Seat, Window};
use crate::store::{Millis, UserId};

impl Work {
    /// The race's zone.
    pub fn race_zone(&self) -> Zone {
        let own = self.campaign.timing.calendar.zone.as_deref();
        own.or(self.time.guild_zone.as_deref())
            .and_then(|z| when::parse_zone(z).ok())
            .unwrap_or(Zone::UTC)
    }

    /// The race's calendar rules.
    pub fn calendar_rules(&self) -> Rules {
        let c = &self.campaign.timing.calendar;
        Rules {
            zone: self.race_zone(),
            days: c.days.map_or(Days::ALL, Days),
            quiet_cap_secs: c.quiet_cap_secs.unwrap_or(DEFAULT_QUIET_CAP_SECS),
        }
    }

    /// A player's zone: their own, else the race's.
    pub fn user_zone(&self, user: &UserId) -> Zone {
        self.time
            .users
            .iter()
            .find(|u| &u.user == user)
            .and_then(|u| u.zone.as_deref())
            .and_then(|z| when::parse_zone(z).ok())
            .unwrap_or_else(|| self.race_zone())
    }

    /// A seat's player's quiet hours, in their zone.
    pub fn sleeper(&self, seat: Seat) -> Option<Sleeper> {
        let row = self.seat_row(seat).filter(|s| s.bot.is_none())?;
        let user = row.user.as_ref()?;
        let quiet = self
            .time
            .users
            .iter()
            .find(|u| &u.user == user)
            .and_then(|u| u.quiet.as_deref())
            .and_then(|q| when::parse_quiet(q).ok())?;
        Some(Sleeper {
            zone: self.user_zone(user),
            quiet,
        })
    }

    /// The human seats of `pending` still to order.
    pub fn owing(&self, pending: &Pending) -> Vec<Seat> {
        pending
            .seats
            .iter()
            .copied()
            .filter(|&seat| {
                self.seat_row(seat).is_some_and(|s| s.bot.is_none())
                    && !self.orders.iter().any(|o| o.seat == seat)
            })
            .collect()
    }

    /// The deadline of a step of the race's turn length opened now: on the calendar
    /// (`calendar::deadline`), within [`MAX_DEADLINE_AHEAD_MS`].
    pub fn turn_deadline(&self, pending: &Pending) -> Millis {
        let plain = self.now.saturating_add(self.window_ms(Window::Turn));
        let Some(opened) = DateTime::from_timestamp_millis(self.now) else {
            return plain;
        };
        let sleepers: Vec<Sleeper> = self
            .owing(pending)
            .into_iter()
            .filter_map(|seat| self.sleeper(seat))
            .collect();
        let rules = self.calendar_rules();
        match calendar::deadline(opened, self.campaign.timing.turn_secs, &rules, &sleepers) {
            Some(at) => at
                .timestamp_millis()
                .clamp(self.now, self.now.saturating_add(MAX_DEADLINE_AHEAD_MS)),
            None => plain,
        }
    }
}

impl Work {
    /// `nudge=`: one channel message naming the human seats still owing an order, their
    /// players mentioned; a player in their quiet hours is left out (and so not pinged).
    pub fn nudge(&mut self) -> Result<(), super::RefereeError> {
        let Some(deadline) = self.campaign.deadline_at.filter(|d| *d > self.now) else {
            return Ok(());
        };
        let pending = self.game()?.pending();
        let now = DateTime::from_timestamp_millis(self.now);
        let seats: Vec<NudgeSeat> = self
            .owing(&pending)
            .into_iter()
            .filter(|&seat| match (self.sleeper(seat), now) {
                (Some(s), Some(now)) => !calendar::is_quiet(now, &s),
                _ => true,
            })
            .filter_map(|seat| {
                let row = self.seat_row(seat)?;
                Some(NudgeSeat {
                    name: row.name.clone(),
                    user: row.user.clone()?,
                })
            })
            .collect();
        if seats.is_empty() {
            return Ok(());
        }
        let race = self.campaign.id;
        self.say(
            Target::Channel,
            Announcement::Nudge {
                race,
                label: pending.label.clone(),
                deadline,
                seats,
            },
        );
        Ok(())
    }
}

/// A player's time settings, read: their zone and quiet hours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyTime {
    pub zone: Option<Zone>,
    pub quiet: Option<when::Quiet>,
}

impl super::Referee {
    /// `/race me`: sets a player's zone and/or quiet hours (`off` clears them). A bad
    /// value is refused in one sentence and nothing is changed.
    pub async fn set_my_time(
        &self,
        user: &UserId,
        zone: Option<&str>,
        quiet: Option<&str>,
    ) -> Result<MyTime, super::RefereeError> {
        let invalid = |e: when::TimeError| super::RefereeError::Invalid(e.to_string());
        let mut stored = self.store.user_time(user).await?;
        if let Some(z) = zone {
            stored.zone = match z.trim() {
                "off" | "none" | "" => None,
                z => Some(when::parse_zone(z).map_err(invalid)?.to_string()),
            };
        }
        if let Some(q) = quiet {
            stored.quiet = match q.trim() {
                "off" | "none" | "" => None,
                q => Some(when::parse_quiet(q).map_err(invalid)?.to_string()),
            };
        }
        if zone.is_some() || quiet.is_some() {
            self.store.set_user_time(&stored, self.clock.now()).await?;
        }
        Ok(read_my_time(&stored))
    }

    /// `/race config timezone:` (the adapter checks Manage Server): a server's default
    /// zone, for races that name none.
    pub async fn set_server_zone(
        &self,
        guild: &str,
        zone: &str,
    ) -> Result<Zone, super::RefereeError> {
        let z = when::parse_zone(zone).map_err(|e| super::RefereeError::Invalid(e.to_string()))?;
        self.store
            .set_guild_zone(guild, &z.to_string(), self.clock.now())
            .await?;
        Ok(z)
    }

    /// A server's default zone, if it set one.
    pub async fn server_zone(&self, guild: &str) -> Result<Option<Zone>, super::RefereeError> {
        let z = self.store.guild_zone(guild).await?;
        Ok(z.and_then(|z| when::parse_zone(&z).ok()))
    }
}

fn read_my_time(t: &crate::store::UserTime) -> MyTime {
    MyTime {
        zone: t.zone.as_deref().and_then(|z| when::parse_zone(z).ok()),
        quiet: t.quiet.as_deref().and_then(|q| when::parse_quiet(q).ok()),
    }
}
