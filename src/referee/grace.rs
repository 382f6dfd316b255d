//! The grace window (`grace=`, 2 minutes by default): a player's play that would resolve
//! the step is held that long before it does, so it can still be changed or taken back
//! (`undo`), as orders can until resolution in every game. In the sequential games that
//! is every play; in the simultaneous ones (Dream Mile, 1500m) the step waits once every
//! order is in, until the last player's order is out of its window, so the last to order
//! can fix a misclick too. Plays by bots, autopilot and default orders are never held,
//! nor is any play once the step's own deadline comes; `grace=0` resolves at once. The
//! window is counted on the referee's clock and kept as a `Continue` deadline, so a
//! restart keeps it too.

use super::error::RefereeError;
use super::work::Work;
use crate::engine::{Mode, Seat};
use crate::store::{DeadlineKind, NewDeadline, OrderSource};
use crate::vocab::{Millis, Timing};

/// The grace window when a race does not set `grace=`, in seconds.
pub const DEFAULT_GRACE_SECS: u64 = 120;

/// The longest grace window `grace=` takes, in seconds (a day): a play held longer would
/// be a deadline, not a chance to change one's mind.
pub const MAX_GRACE_SECS: u64 = 86_400;

/// The texts that take back a play within its grace window.
pub const TAKE_BACK: &[&str] = &["undo", "take back", "take it back", "takeback"];

/// A race's grace window, in seconds.
pub fn grace_secs(t: &Timing) -> u64 {
    t.calendar.grace_secs.unwrap_or(DEFAULT_GRACE_SECS)
}

/// Whether `text` asks to take back the play in.
pub fn is_take_back(text: &str) -> bool {
    let t = text.trim().to_ascii_lowercase();
    TAKE_BACK.contains(&t.as_str())
}

impl Work {
    /// The open step's grace window in milliseconds: 0 unless the step would resolve
    /// early (with `clock=` a seat's bank is its pace).
    pub(super) fn grace_ms(&self) -> Millis {
        let t = &self.campaign.timing;
        if !t.resolve_early || self.clocks_running() {
            return 0;
        }
        i64::try_from(grace_secs(t))
            .unwrap_or(i64::MAX / 2)
            .saturating_mul(1000)
    }

    /// When the last play of the open step that is still held comes out of its grace
    /// window, if one is held now.
    pub(super) fn held_until(&self) -> Result<Option<Millis>, RefereeError> {
        let grace = self.grace_ms();
        if grace == 0 || !self.campaign.step_open {
            return Ok(None);
        }
        let pending = self.game()?.pending();
        // A simultaneous step waits for the other orders anyway: nothing is held until
        // every order is in.
        if pending.mode == Mode::All
            && !pending
                .seats
                .iter()
                .all(|s| self.orders.iter().any(|o| o.seat == *s) || self.ran_out(*s))
        {
            return Ok(None);
        }
        Ok(self
            .orders
            .iter()
            .filter(|o| pending.includes(o.seat) && o.source == OrderSource::Player)
            .map(|o| o.submitted_at.saturating_add(grace))
            .filter(|&until| until > self.now)
            .max())
    }

    /// Wakes the race when the held plays come out of grace (a `Continue` deadline
    /// beside the step's own, which still resolves the step if it comes first).
    pub(super) fn hold(&mut self, until: Millis) {
        let Some(deadline) = self.campaign.deadline_at else {
            return;
        };
        if until >= deadline {
            return;
        }
        self.schedule(deadline);
        let now = self.now;
        if let Some(rows) = self.commit.deadlines.as_mut() {
            // Reminders and nudges that came already are not sent again.
            rows.retain(|r| r.kind == DeadlineKind::Deadline || r.due_at > now);
            rows.push(NewDeadline {
                step: self.campaign.step,
                kind: DeadlineKind::Continue,
                due_at: until,
            });
        }
    }

    /// Takes back `seat`'s play while it is held; refused once it is not.
    pub(super) fn take_back(&mut self, seat: Seat) -> Result<(), RefereeError> {
        let grace = self.grace_ms();
        let Some(live) = self
            .orders
            .iter()
            .find(|o| o.seat == seat && o.source == OrderSource::Player)
        else {
            return Err(RefereeError::Invalid(
                "you have no play in to take back".into(),
            ));
        };
        if grace == 0 || live.submitted_at.saturating_add(grace) <= self.now {
            return Err(RefereeError::Invalid(
                "that play is no longer held: its grace window is over, so it can only be changed"
                    .into(),
            ));
        }
        let step = live.step;
        self.orders.retain(|o| o.seat != seat);
        self.commit.withdrawn.push((step, seat));
        self.touch();
        self.say_status();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_two_minutes_and_zero_is_none() {
        let mut t = Timing {
            turn_secs: 3600,
            reminders: vec![],
            resolve_early: true,
            calendar: Default::default(),
        };
        assert_eq!(grace_secs(&t), 120);
        t.calendar.grace_secs = Some(0);
        assert_eq!(grace_secs(&t), 0);
        assert!(is_take_back(" Undo "));
        assert!(is_take_back("take it back"));
        assert!(!is_take_back("play 100"));
    }
}
