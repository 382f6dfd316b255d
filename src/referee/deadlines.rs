//! Deadlines and reminders: claiming what is due (safe with several processes), then
//! reminding the seats still to order or resolving the step.

use super::announce::{Announcement, Target};
use super::{Referee, RefereeError};
use crate::store::{DeadlineKind, DeadlineRow, Millis, Phase, SeatRow, StoreError};

/// How long a claimed deadline is ours before another process may take it over.
pub const DEADLINE_CLAIM_MS: Millis = 120_000;

/// Deadlines claimed per tick.
const TICK_BATCH: u32 = 200;

impl Referee {
    /// Handles every deadline and reminder that is due. Idempotent: each fires once, even
    /// with several processes ticking: each claims its deadlines first, and one that another
    /// process handled meanwhile counts as done.
    pub async fn tick(&self) -> Result<usize, RefereeError> {
        let now = self.clock.now();
        let due = self
            .store
            .claim_due_deadlines(now, TICK_BATCH, &self.instance, now + DEADLINE_CLAIM_MS)
            .await?;
        let mut handled = 0;
        for d in due {
            match self.fire(&d).await {
                Ok(()) => handled += 1,
                Err(RefereeError::Store(StoreError::AlreadyFired)) => {
                    tracing::debug!(race = d.campaign.0, deadline = d.id, "handled elsewhere");
                }
                Err(e) => {
                    tracing::warn!(race = d.campaign.0, "a deadline could not be handled: {e}");
                    // Let the next tick, here or elsewhere, try again without waiting.
                    if let Err(e) = self.store.release_deadline(d.id, &self.instance).await {
                        tracing::warn!(deadline = d.id, "cannot release a claim: {e}");
                    }
                }
            }
        }
        Ok(handled)
    }

    async fn fire(&self, d: &DeadlineRow) -> Result<(), RefereeError> {
        self.mutate(d.campaign, |w| {
            w.commit.fired.push(d.id);
            w.touch();
            let current = w.campaign.phase == Phase::Running
                && w.campaign.step == d.step
                && w.campaign.step_open;
            if !current {
                return Ok(());
            }
            match d.kind {
                DeadlineKind::Reminder => {
                    let deadline = w.campaign.deadline_at.unwrap_or(d.due_at);
                    if deadline <= w.now {
                        return Ok(()); // the deadline itself is due: a reminder now is noise
                    }
                    let game = w.game()?.clone();
                    let pending = game.pending();
                    let race = w.campaign.id;
                    let waiting: Vec<SeatRow> = w
                        .seats
                        .iter()
                        .filter(|s| {
                            s.bot.is_none()
                                && pending.includes(s.seat)
                                && !w.orders.iter().any(|o| o.seat == s.seat)
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
                DeadlineKind::Deadline => w.resolve_at_deadline(d.due_at),
            }
        })
        .await
    }
}
