//! Deadlines and reminders: claiming what is due (safe with several processes), then
//! reminding the seats still to order, resolving the step, or carrying on a long chain.
//!
//! One race's trouble stays its own (docs/reliability.md): a race whose stored rows do
//! not decode is quarantined (its deadlines are no longer claimed; its host and channel
//! are told once, through the outbox), and a deadline that fails for a passing reason is
//! tried again later, each time later up to [`MAX_RETRY_MS`], instead of at once. A wall
//! clock that jumps forward by more than [`CLOCK_JUMP_MS`] is an outage, not time that
//! passed: every open deadline is held back by the jump, and each race is told. While
//! Discord cannot be reached nothing fires, and when it is back every open deadline moves
//! on by the outage, each race told once (`outage.rs`). A hold that cannot commit (a full
//! disk) is owed and tried again at each tick; its race's deadlines wait for it.

use super::announce::{Announcement, Target};
use super::error::RefereeError;
use super::machine::Referee;
use super::outage::{OwedHold, Standing, about};
use crate::store::{DeadlineKind, DeadlineRow, SeatRow, StoreError};
use crate::vocab::{CampaignId, Millis, Phase};

/// How long a claimed deadline is ours before another process may take it over.
pub const DEADLINE_CLAIM_MS: Millis = 120_000;

/// How often a ticking process records itself alive.
pub const ALIVE_EVERY_MS: Millis = 60_000;

/// Deadlines claimed per tick.
const TICK_BATCH: u32 = 200;

/// The first wait before a deadline that failed is tried again; it doubles with each
/// failure up to [`MAX_RETRY_MS`].
const FIRST_RETRY_MS: Millis = 5_000;

/// The longest wait before a failed deadline is tried again.
pub const MAX_RETRY_MS: Millis = 300_000;

/// A wall clock that runs ahead of the monotonic clock by more than this between two
/// ticks has jumped: deadlines are held, not fired.
pub const CLOCK_JUMP_MS: Millis = 300_000;

/// The wait before the `failures`-th retry.
pub fn retry_after_ms(failures: i64) -> Millis {
    FIRST_RETRY_MS
        .saturating_mul(1i64 << failures.clamp(0, 20))
        .min(MAX_RETRY_MS)
}

impl Referee {
    /// Handles every deadline and reminder that is due. Idempotent: each fires once, even
    /// with several processes ticking: each claims its deadlines first, and one that another
    /// process handled meanwhile counts as done. Fails only when the store cannot be read
    /// at all: one race's trouble never fails the tick.
    pub async fn tick(&self) -> Result<usize, RefereeError> {
        let now = self.clock.now();
        self.note_alive(now).await;
        self.hold_after_jump(now).await;
        match self.reach.standing(now) {
            Standing::Held => {
                // Discord cannot be reached: players can neither see a prompt nor order.
                tracing::debug!("Discord cannot be reached; deadlines are held");
                self.tell_quarantines().await;
                return Ok(0);
            }
            Standing::Back { lost, back, ours } => self.hold_after_outage(lost, back, ours),
            Standing::Normal => {}
        }
        let held_back = self.pay_owed_holds().await;
        let due = self
            .store
            .claim_due_deadlines(now, TICK_BATCH, &self.instance, now + DEADLINE_CLAIM_MS)
            .await?;
        let mut handled = 0;
        for d in due {
            if held_back
                .as_ref()
                .is_none_or(|races| races.contains(&d.campaign))
            {
                // Its race still owes a hold: firing now would spend time that does not
                // count. The claim keeps it for a while; the hold replaces it.
                tracing::debug!(race = d.campaign.0, deadline = d.id, "waits for a hold");
                continue;
            }
            match self.fire(&d).await {
                Ok(()) => handled += 1,
                Err(RefereeError::Store(StoreError::AlreadyFired)) => {
                    tracing::debug!(race = d.campaign.0, deadline = d.id, "handled elsewhere");
                }
                Err(e) if e.is_poison() => {
                    self.quarantine(d.campaign, "deadlines", d.id, &e).await;
                }
                Err(e) => self.defer(&d, &e, now).await,
            }
        }
        self.tell_quarantines().await;
        self.compact_when_due(now).await;
        Ok(handled)
    }

    /// Records this process alive, at most once every [`ALIVE_EVERY_MS`]: a process that
    /// starts after all were silent holds what fell due meanwhile (`discord::start`).
    async fn note_alive(&self, now: Millis) {
        let due = self.alive_noted.lock().is_ok_and(|at| {
            at.is_none_or(|at| now.saturating_sub(at) >= ALIVE_EVERY_MS || now < at)
        });
        if !due {
            return;
        }
        match self.store.alive(&self.instance, now).await {
            Ok(()) => {
                if let Ok(mut at) = self.alive_noted.lock() {
                    *at = Some(now);
                }
            }
            // The failing work itself says why (`backoff.rs`).
            Err(e) => tracing::debug!("cannot record this process alive: {e}"),
        }
    }

    /// The open races a hold moves on: a quarantined race is left as it is (its rows do
    /// not read, and it was told once).
    async fn holdable(&self) -> Result<Vec<CampaignId>, StoreError> {
        let open = self.store.open_campaigns().await?;
        let stopped: Vec<CampaignId> = self
            .store
            .quarantined()
            .await?
            .into_iter()
            .map(|q| q.campaign)
            .collect();
        Ok(open.into_iter().filter(|c| !stopped.contains(c)).collect())
    }

    /// A deadline that failed for a passing reason waits before it is tried again.
    async fn defer(&self, d: &DeadlineRow, e: &RefereeError, now: Millis) {
        // The claim is kept until the retry, so neither this process nor another spins
        // on it; the failures counted in the row make each wait longer.
        let wait = retry_after_ms(d.failures);
        let until = now.saturating_add(wait);
        if let Err(se) = self.store.defer_deadline(d.id, &self.instance, until).await {
            tracing::warn!(deadline = d.id, "cannot defer a deadline: {se}");
        }
        tracing::warn!(
            race = d.campaign.0,
            table = "deadlines",
            row = d.id,
            failures = d.failures.saturating_add(1),
            retry_in_ms = wait,
            error = %e.operator_detail(),
            "a deadline could not be handled; it will be tried again"
        );
    }

    /// Stops a race whose stored data does not decode (logged with its race, table, row
    /// and cause). Its host and channel are told at the end of the tick.
    pub(super) async fn quarantine(
        &self,
        race: CampaignId,
        table: &str,
        row: i64,
        e: &RefereeError,
    ) {
        let detail = e.operator_detail();
        tracing::error!(race = race.0, table, row, error = %detail, "race quarantined");
        let now = self.clock.now();
        if let Err(se) = self.store.quarantine(race, &detail, now).await {
            tracing::warn!(race = race.0, "cannot quarantine the race: {se}");
        }
    }

    /// Tells the host and channel of each newly quarantined race, once.
    async fn tell_quarantines(&self) {
        let list = match self.store.quarantined().await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("cannot read the quarantined races: {e}");
                return;
            }
        };
        for q in list.into_iter().filter(|q| q.told_at.is_none()) {
            let host = match self.store.address(q.campaign).await {
                Ok(Some(a)) => Some(a.host),
                _ => None,
            };
            let notice = Announcement::Notice {
                race: q.campaign,
                text: format!(
                    "{}race {} is stopped: part of its stored data can no longer be read, or does not add up. \
                     Nothing more will happen in it; the bot's operator has the details.",
                    if host.is_some() { "{user}, " } else { "" },
                    q.campaign
                ),
                at: None,
                user: host,
            };
            let (Ok(target), Ok(payload)) = (
                crate::store::Json::encode(&Target::Channel),
                crate::store::Json::encode(&notice),
            ) else {
                continue;
            };
            let now = self.clock.now();
            let row = crate::store::NewOutbox {
                target,
                payload,
                coalesce_key: None,
                not_before: now,
            };
            if let Err(e) = self.store.tell_quarantine(q.campaign, row, now).await {
                tracing::warn!(race = q.campaign.0, "cannot tell of a quarantine: {e}");
            }
        }
    }

    /// Compares the wall clock with the monotonic clock since the last tick: a forward
    /// jump beyond [`CLOCK_JUMP_MS`] holds every open deadline back by the jump.
    async fn hold_after_jump(&self, now: Millis) {
        let Some(mono) = self.clock.monotonic_ms() else {
            return;
        };
        let previous = match self.last_tick.lock() {
            Ok(mut last) => last.replace((now, mono)),
            Err(_) => None,
        };
        let Some((wall0, mono0)) = previous else {
            return;
        };
        let jump = now
            .saturating_sub(wall0)
            .saturating_sub(mono.saturating_sub(mono0));
        if jump <= CLOCK_JUMP_MS {
            return;
        }
        tracing::warn!(
            jump_ms = jump,
            "the wall clock jumped forward; open deadlines are held back by the jump"
        );
        let minutes = jump / 60_000;
        let why = format!(
            "The bot's clock jumped ahead by about {minutes} minutes; that time does not count."
        );
        self.owe_hold(jump, why);
    }

    /// Discord came back after an outage from `lost` (the last answer before it) to
    /// `back`: every open deadline moves on by its length, and each race is told once.
    fn hold_after_outage(&self, lost: Millis, back: Millis, ours: bool) {
        let length = back.saturating_sub(lost);
        tracing::warn!(
            outage_ms = length,
            bot_down = ours,
            "Discord can be reached again; open deadlines move on by the outage"
        );
        let why = if ours {
            format!(
                "The bot was down for {}; that time does not count.",
                about(length)
            )
        } else {
            format!(
                "Discord could not be reached for {}; that time does not count.",
                about(length)
            )
        };
        self.owe_hold(length, why);
    }

    /// Records a hold of every open race by `by`, paid by [`Referee::pay_owed_holds`].
    fn owe_hold(&self, by: Millis, why: String) {
        if let Ok(mut owed) = self.owed_holds.lock() {
            owed.push(OwedHold {
                races: None,
                by,
                why,
            });
        }
    }

    /// Moves on every race a hold is owed to, keeping what fails (a full disk, a store
    /// that does not answer) for the next tick. Returns the races still owed a hold, or
    /// `None` when every race is (the open races could not be read).
    async fn pay_owed_holds(&self) -> Option<Vec<CampaignId>> {
        let owed = match self.owed_holds.lock() {
            Ok(mut owed) => std::mem::take(&mut *owed),
            Err(_) => return Some(Vec::new()),
        };
        if owed.is_empty() {
            return Some(Vec::new());
        }
        let mut still = Vec::new();
        for mut hold in owed {
            let races = match hold.races.take() {
                Some(races) => races,
                None => match self.holdable().await {
                    Ok(open) => open,
                    Err(e) => {
                        tracing::warn!("cannot read the open races to hold their deadlines: {e}");
                        still.push(hold);
                        continue;
                    }
                },
            };
            let mut failed = Vec::new();
            for race in races {
                if let Err(e) = self.hold_race(race, hold.by, &hold.why).await {
                    tracing::warn!(
                        race = race.0,
                        error = %e.operator_detail(),
                        "cannot hold a deadline; it is tried again at the next tick"
                    );
                    if !e.is_poison() {
                        failed.push(race);
                    }
                }
            }
            if !failed.is_empty() {
                still.push(OwedHold {
                    races: Some(failed),
                    ..hold
                });
            }
        }
        let mut blocked = Some(Vec::new());
        for hold in &still {
            match (&hold.races, blocked.as_mut()) {
                (None, _) => blocked = None,
                (Some(races), Some(list)) => list.extend(races.iter().copied()),
                (Some(_), None) => {}
            }
        }
        if let Ok(mut owed) = self.owed_holds.lock() {
            // Holds owed since (none in one tick today) come after these.
            still.append(&mut owed);
            *owed = still;
        }
        blocked
    }

    /// Moves a race's open deadline on by `by` and tells its channel why, in one notice.
    async fn hold_race(&self, race: CampaignId, by: Millis, why: &str) -> Result<(), RefereeError> {
        self.mutate(race, |w| {
            let Some(deadline) = w.campaign.deadline_at else {
                return Ok(());
            };
            if w.campaign.phase != Phase::Running || !w.campaign.step_open {
                return Ok(());
            }
            let at = deadline
                .checked_add(by)
                .ok_or(RefereeError::OutOfRange("the held deadline"))?;
            w.schedule(at);
            w.notice(
                format!("{why} The deadline is held: it is now {{at}}."),
                Some(at),
                None,
            );
            w.say_status();
            Ok(())
        })
        .await
    }

    async fn fire(&self, d: &DeadlineRow) -> Result<(), RefereeError> {
        self.mutate(d.campaign, |w| {
            w.commit.fired.push(d.id);
            w.touch();
            let running = w.campaign.phase == Phase::Running && w.campaign.step == d.step;
            match d.kind {
                // A long chain carried on, or a play whose grace window is over (`grace.rs`).
                DeadlineKind::Continue if running => w.advance(),
                DeadlineKind::Reminder if running && w.campaign.step_open => {
                    let deadline = w.campaign.deadline_at.unwrap_or(d.due_at);
                    if deadline <= w.now {
                        return Ok(()); // the deadline itself is due: a reminder now is noise
                    }
                    let game = w.game()?.clone();
                    let pending = game.pending();
                    let race = w.campaign.id;
                    let now = chrono::DateTime::from_timestamp_millis(w.now);
                    // No reminder reaches a player in their quiet hours.
                    let quiet = |seat| match (w.sleeper(seat), now) {
                        (Some(s), Some(now)) => super::calendar::is_quiet(now, &s),
                        _ => false,
                    };
                    let waiting: Vec<SeatRow> = w
                        .seats
                        .iter()
                        .filter(|s| {
                            s.bot.is_none()
                                && pending.includes(s.seat)
                                && !w.orders.iter().any(|o| o.seat == s.seat)
                                && !quiet(s.seat)
                        })
                        .cloned()
                        .collect();
                    for s in waiting {
                        if let Some(user) = s.user {
                            w.say(
                                Target::Dm { user, seat: s.seat },
                                Announcement::Reminder {
                                    race,
                                    seat_name: s.name.clone(),
                                    label: pending.label.clone(),
                                    deadline,
                                },
                            );
                        }
                    }
                    Ok(())
                }
                DeadlineKind::Nudge if running && w.campaign.step_open => w.nudge(),
                DeadlineKind::Deadline if running && w.campaign.step_open => {
                    w.resolve_at_deadline(d.due_at)
                }
                _ => Ok(()),
            }
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_longer_each_time_up_to_a_cap() {
        assert_eq!(retry_after_ms(0), FIRST_RETRY_MS);
        assert_eq!(retry_after_ms(1), 2 * FIRST_RETRY_MS);
        assert_eq!(retry_after_ms(60), MAX_RETRY_MS);
        assert_eq!(retry_after_ms(i64::MAX), MAX_RETRY_MS);
    }
}
