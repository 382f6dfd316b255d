//! A race's and its players' time settings as the calendar's rules: the race's zone
//! (`zone=`, else its server's, else UTC), `days=`, `quiet-cap=`, the quiet hours of
//! the seats that still owe an order, and the seats' banks (`clock=`, over `bank.rs`). Stored texts were checked when set; one that no
//! longer reads (a zone dropped from the database) counts as unset.

use chrono::DateTime;

use super::announce::{Announcement, BankShown, NudgeSeat, Target};
use super::bank::ClockRules;
use super::calendar::{self, DEFAULT_QUIET_CAP_SECS, Rules, Sleeper};
use super::when::{self, Days, Zone};
use super::work::{MAX_DEADLINE_AHEAD_MS, Work};
use crate::engine::{Mode, Pending, Seat, Window};
use crate::vocab::{Millis, Phase, SeatClock, UserId};

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
    /// players mentioned; a player in their quiet hours is left out (and so not pinged),
    /// and so is a seat whose bank ran out (its default plays; it can no longer order).
    pub fn nudge(&mut self) -> Result<(), super::error::RefereeError> {
        let Some(deadline) = self.campaign.deadline_at.filter(|d| *d > self.now) else {
            return Ok(());
        };
        let pending = self.game()?.pending();
        let now = DateTime::from_timestamp_millis(self.now);
        let seats: Vec<NudgeSeat> = self
            .owing(&pending)
            .into_iter()
            .filter(|&seat| !self.ran_out(seat))
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
        if self.clocks_running() {
            // Once per step: a clock step's deadline row is set again as banks run out.
            self.campaign.clocks.nudged = true;
            self.touch();
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

impl super::machine::Referee {
    /// `/race me`: sets a player's zone and/or quiet hours (`off` clears them). A bad
    /// value is refused in one sentence and nothing is changed.
    pub async fn set_my_time(
        &self,
        user: &UserId,
        zone: Option<&str>,
        quiet: Option<&str>,
    ) -> Result<MyTime, super::error::RefereeError> {
        let invalid = |e: when::TimeError| super::error::RefereeError::Invalid(e.to_string());
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

    /// `/photofinish config timezone:` (the adapter checks Manage Server): a server's default
    /// zone, for races that name none.
    pub async fn set_server_zone(
        &self,
        guild: &str,
        zone: &str,
    ) -> Result<Zone, super::error::RefereeError> {
        let z = when::parse_zone(zone)
            .map_err(|e| super::error::RefereeError::Invalid(e.to_string()))?;
        self.store
            .set_guild_zone(guild, &z.to_string(), self.clock.now())
            .await?;
        Ok(z)
    }

    /// A server's default zone, if it set one.
    pub async fn server_zone(
        &self,
        guild: &str,
    ) -> Result<Option<Zone>, super::error::RefereeError> {
        let z = self.store.guild_zone(guild).await?;
        Ok(z.and_then(|z| when::parse_zone(&z).ok()))
    }
}

fn read_my_time(t: &crate::vocab::UserTime) -> MyTime {
    MyTime {
        zone: t.zone.as_deref().and_then(|z| when::parse_zone(z).ok()),
        quiet: t.quiet.as_deref().and_then(|q| when::parse_quiet(q).ok()),
    }
}

/// Clocks (`clock=`): each seat's bank runs while it owes an order in a turn of every
/// seat at once. The step's deadline row is the next bank to run out; when it fires,
/// each bank that ran out is emptied (its default order will play, `bank.rs`) and the
/// row is set to the next one, until every seat is in or out.
impl Work {
    /// The race's clock, when it has one.
    pub fn clock_rules(&self) -> Option<ClockRules> {
        ClockRules::of(&self.campaign.timing.calendar)
    }

    /// Whether the open step runs on the seats' banks.
    pub fn clocks_running(&self) -> bool {
        let c = &self.campaign.clocks;
        c.running && c.step == self.campaign.step && self.campaign.step_open
    }

    fn seat_clock(&self, seat: Seat) -> Option<&SeatClock> {
        self.campaign.clocks.seats.iter().find(|c| c.seat == seat)
    }

    fn seat_clock_mut(&mut self, seat: Seat) -> Option<&mut SeatClock> {
        self.campaign
            .clocks
            .seats
            .iter_mut()
            .find(|c| c.seat == seat)
    }

    /// Whether `seat`'s bank ran out in the open step (it counts as in).
    pub fn ran_out(&self, seat: Seat) -> bool {
        self.clocks_running() && self.seat_clock(seat).is_some_and(|c| c.ran_out)
    }

    /// When a bank of `left_ms` started at `since` runs out for `seat`: elapsed time,
    /// then `days=` and the seat's own quiet hours (`calendar::bank_deadline`).
    fn bank_due(&self, seat: Seat, since: Millis, left_ms: i64) -> Millis {
        let plain = since.saturating_add(left_ms.max(0));
        let Some(start) = DateTime::from_timestamp_millis(since) else {
            return plain;
        };
        let sleeper = self.sleeper(seat);
        calendar::bank_deadline(start, left_ms, &self.calendar_rules(), sleeper.as_ref())
            .map_or(plain, |d| d.timestamp_millis())
            .clamp(since, self.now.saturating_add(MAX_DEADLINE_AHEAD_MS))
    }

    /// Starts the banks of the human seats owing an order in a step opened now, and
    /// returns the first moment one runs out. `None` (the turn's length applies) without
    /// a clock, in a short decision window or a first-of-several step, or with nobody to
    /// wait for.
    pub fn open_clocks(&mut self, pending: &Pending) -> Option<Millis> {
        let rules = self.clock_rules()?;
        self.campaign.clocks.running = false;
        if pending.window != Window::Turn || pending.mode != Mode::All {
            return None;
        }
        for s in &self.seats {
            if self.campaign.clocks.seats.iter().all(|c| c.seat != s.seat) {
                self.campaign.clocks.seats.push(SeatClock {
                    seat: s.seat,
                    bank: rules.fresh(),
                    since: None,
                    due_at: None,
                    ran_out: false,
                });
            }
        }
        let owing = self.owing(pending);
        let dues: Vec<(Seat, Millis)> = owing
            .iter()
            .filter_map(|&seat| {
                let left = self.seat_clock(seat)?.bank.left_ms;
                Some((seat, self.bank_due(seat, self.now, left)))
            })
            .collect();
        let now = self.now;
        let clocks = &mut self.campaign.clocks;
        clocks.step = self.campaign.step;
        clocks.nudged = false;
        for c in &mut clocks.seats {
            c.since = None;
            c.due_at = None;
            c.ran_out = false;
            if let Some((_, due)) = dues.iter().find(|(s, _)| *s == c.seat) {
                c.since = Some(now);
                c.due_at = Some(*due);
            }
        }
        clocks.running = !dues.is_empty();
        self.touch();
        dues.iter().map(|(_, d)| *d).min()
    }

    /// The next moment a running bank runs out, among the seats still owing.
    pub fn next_clock_due(&self) -> Option<Millis> {
        self.campaign
            .clocks
            .seats
            .iter()
            .filter(|c| !c.ran_out && c.since.is_some())
            .filter(|c| self.seat_row(c.seat).is_some_and(|s| s.bot.is_none()))
            .filter(|c| !self.orders.iter().any(|o| o.seat == c.seat))
            .filter_map(|c| c.due_at)
            .min()
    }

    /// When `seat`'s own bank runs out in the open step, while it runs.
    pub fn seat_due(&self, seat: Seat) -> Option<Millis> {
        if !self.clocks_running() {
            return None;
        }
        self.seat_clock(seat)
            .filter(|c| !c.ran_out)
            .and_then(|c| c.due_at)
    }

    /// After an order: the step's deadline row follows the next bank still running.
    pub fn follow_clocks(&mut self) {
        if !self.clocks_running() || self.campaign.phase != Phase::Running {
            return;
        }
        if let Some(next) = self.next_clock_due()
            && self.campaign.deadline_at != Some(next)
        {
            self.schedule(next);
        }
    }

    /// The step's deadline is being set to `deadline` (a pause ending, the host moving
    /// it, a held clock): every bank still running moves by as much, and that time is
    /// not charged.
    pub fn shift_clocks(&mut self, deadline: Millis) {
        if !self.clocks_running() {
            return;
        }
        let Some(next) = self.next_clock_due() else {
            return;
        };
        let by = deadline.saturating_sub(next);
        if by == 0 {
            return;
        }
        let ordered: Vec<Seat> = self.orders.iter().map(|o| o.seat).collect();
        for c in &mut self.campaign.clocks.seats {
            if c.ran_out || ordered.contains(&c.seat) {
                continue;
            }
            if let (Some(since), Some(due)) = (c.since, c.due_at) {
                c.since = Some(since.saturating_add(by));
                c.due_at = Some(due.saturating_add(by));
            }
        }
    }

    /// The step's deadline row fired in a clock step: each bank that ran out is emptied
    /// and refilled by the increment (its seat's default order will play). Returns
    /// whether the step resolves now; if not, the row is set to the next bank's end.
    pub fn banks_ran_out(&mut self) -> Result<bool, super::error::RefereeError> {
        let Some(rules) = self.clock_rules() else {
            return Ok(true);
        };
        let pending = self.game()?.pending();
        let now = self.now;
        for seat in self.owing(&pending) {
            if let Some(c) = self.seat_clock_mut(seat)
                && !c.ran_out
                && c.due_at.is_some_and(|d| d <= now)
            {
                c.bank.ran_out(&rules);
                c.ran_out = true;
                c.since = None;
                c.due_at = None;
            }
        }
        self.touch();
        let all_in = pending
            .seats
            .iter()
            .all(|&s| self.orders.iter().any(|o| o.seat == s) || self.ran_out(s));
        if all_in {
            return Ok(true);
        }
        // A bank left that ended already cannot be waited for (never expected).
        match self.next_clock_due().filter(|next| *next > now) {
            Some(next) => {
                self.schedule(next);
                self.say_status();
                Ok(false)
            }
            None => Ok(true),
        }
    }

    /// The step resolves: each seat that ordered is charged from its bank's start to its
    /// order and earns the increment; one still owing ran out. Every bank stops.
    pub fn settle_clocks(&mut self) {
        let Some(rules) = self.clock_rules() else {
            return;
        };
        if !self.clocks_running() {
            return;
        }
        let orders: Vec<(Seat, Millis)> = self
            .orders
            .iter()
            .map(|o| (o.seat, o.submitted_at))
            .collect();
        for c in &mut self.campaign.clocks.seats {
            if let Some(since) = c.since {
                match orders.iter().find(|(s, _)| *s == c.seat) {
                    Some((_, at)) => c.bank.moved(at.saturating_sub(since), &rules),
                    None => c.bank.ran_out(&rules),
                }
            }
            c.since = None;
            c.due_at = None;
            c.ran_out = false;
        }
        self.campaign.clocks.running = false;
        self.touch();
    }

    /// An order from a seat whose bank ran out in this step is refused.
    pub fn refuse_after_bank(&self, seat: Seat) -> Result<(), super::error::RefereeError> {
        if !self.ran_out(seat) {
            return Ok(());
        }
        let refill = self
            .seat_clock(seat)
            .map(|c| when::format_duration(u64::try_from(c.bank.left_ms / 1000).unwrap_or(0)))
            .unwrap_or_default();
        Err(super::error::RefereeError::Invalid(format!(
            "your bank ran out in this step, so your default order plays; your bank is {refill} for the next step"
        )))
    }

    /// A seat's bank as the status shows it (a human seat in a race with a clock).
    pub fn bank_shown(&self, seat: Seat) -> Option<BankShown> {
        self.clock_rules()?;
        if self.seat_row(seat).is_some_and(|s| s.bot.is_some()) {
            return None;
        }
        let Some(c) = self.seat_clock(seat) else {
            return self.clock_rules().map(|r| BankShown {
                left_ms: r.bank_ms,
                due: None,
                ran_out: false,
            });
        };
        let running = self.clocks_running();
        let paused = self.campaign.phase == Phase::Paused;
        // A pause stopped every bank when it began: the next bank's end less the time
        // that was left then.
        let now = match (paused, self.next_clock_due(), self.campaign.paused_left_ms) {
            (true, Some(next), Some(left)) => next.saturating_sub(left),
            _ => self.now,
        };
        let order = self.orders.iter().find(|o| o.seat == seat);
        let left_ms = match (running, c.since, order) {
            (true, Some(since), Some(o)) => c.bank.left_after(o.submitted_at.saturating_sub(since)),
            (true, Some(since), None) => c.bank.left_after(now.saturating_sub(since)),
            _ => c.bank.left_ms,
        };
        Some(BankShown {
            left_ms,
            due: if running && !paused && order.is_none() {
                c.due_at.filter(|_| !c.ran_out)
            } else {
                None
            },
            ran_out: running && c.ran_out,
        })
    }
}
