//! The outage hold (docs/reliability.md): while Discord cannot be reached, deadlines are
//! held, not fired; when it comes back, every open deadline moves on by the outage, and
//! each race is told once how long it was and when its deadline now falls.
//!
//! The adapter reports each sign of life ([`Reach::contact`]: a REST call that Discord
//! answered, a gateway shard connected). With no sign for [`Reach::outage_after`] of the
//! referee's clock, the next tick declares an outage that began at the last sign; the
//! first sign after it ends the outage, and the tick after that shifts the deadlines. A
//! referee whose adapter never reports (the terminal, most tests) is never held: the
//! watch starts with [`Reach::watch`], or [`Reach::watch_from`], which counts a silence
//! with no sign of life at all from the watch's start.

use std::sync::Mutex;

use crate::vocab::{CampaignId, Millis};

/// How long without any answer from Discord makes an outage, unless configured.
pub const DEFAULT_OUTAGE_AFTER_MS: Millis = 180_000;

/// A hold of open deadlines that has not committed yet: an outage's or a clock jump's.
#[derive(Debug)]
pub(super) struct OwedHold {
    /// The races still to move on; `None` for every open race.
    pub(super) races: Option<Vec<CampaignId>>,
    /// By how long.
    pub(super) by: Millis,
    /// What each race is told.
    pub(super) why: String,
}

#[derive(Debug, Default)]
struct State {
    /// `Some(threshold)` once the adapter watches Discord's reach.
    threshold: Option<Millis>,
    last_contact: Option<Millis>,
    /// When the watch began, for a silence with no sign of life yet
    /// ([`Reach::watch_from`]).
    watched_from: Option<Millis>,
    /// The last sign of life before the outage under way.
    out_since: Option<Millis>,
    /// An outage that ended and is not yet made up for: (last sign before, first after).
    ended: Option<(Millis, Millis)>,
    /// The outage under way (or ended) is the bot's own downtime, not Discord's.
    ours: bool,
}

/// Whether Discord answers, as the adapter sees it.
#[derive(Debug, Default)]
pub struct Reach {
    state: Mutex<State>,
}

/// What the tick does about Discord's reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Discord answers, or nobody watches: deadlines fire.
    Normal,
    /// An outage under way: nothing fires.
    Held,
    /// An outage ended: deadlines move on by `back - lost` before anything fires.
    /// `ours`: it was the bot's own downtime.
    Back {
        lost: Millis,
        back: Millis,
        ours: bool,
    },
}

impl Reach {
    /// Starts watching: from now on, `outage_after` without a sign of life is an outage.
    pub fn watch(&self, outage_after: Millis) {
        if let Ok(mut s) = self.state.lock() {
            s.threshold = Some(outage_after.max(1));
        }
    }

    /// [`Reach::watch`] from `now`: a silence counts from then, so an adapter that never
    /// gets an answer (Discord silent since the start) holds too, from `now`.
    pub fn watch_from(&self, outage_after: Millis, now: Millis) {
        if let Ok(mut s) = self.state.lock() {
            s.threshold = Some(outage_after.max(1));
            s.watched_from.get_or_insert(now);
        }
    }

    /// The time without a sign of life that makes an outage, when watched.
    pub fn outage_after(&self) -> Option<Millis> {
        self.state.lock().ok().and_then(|s| s.threshold)
    }

    /// The bot itself was down from `last` (the last time any process was alive): an
    /// outage under way from then, which the first sign of life ends. Watches Discord's
    /// reach from now on.
    pub fn down_since(&self, last: Millis, outage_after: Millis) {
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        s.threshold = Some(outage_after.max(1));
        s.out_since = Some(last);
        s.ours = true;
    }

    /// Discord answered at `now`: ends an outage under way.
    pub fn contact(&self, now: Millis) {
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        if let Some(lost) = s.out_since.take() {
            // Two outages not yet made up for count as one, from the first loss.
            let lost = s.ended.map_or(lost, |(first, _)| first.min(lost));
            s.ended = Some((lost, now.max(lost)));
        }
        if s.last_contact.is_none_or(|l| l < now) {
            s.last_contact = Some(now);
        }
    }

    /// True while an outage is under way.
    pub fn held(&self) -> bool {
        self.state.lock().is_ok_and(|s| s.out_since.is_some())
    }

    /// What the tick at `now` does; an ended outage is handed out once.
    pub fn standing(&self, now: Millis) -> Standing {
        let Ok(mut s) = self.state.lock() else {
            return Standing::Normal;
        };
        let Some(threshold) = s.threshold else {
            return Standing::Normal;
        };
        if s.out_since.is_some() {
            return Standing::Held;
        }
        // Before the first sign of life nothing is held, unless the watch began longer
        // than the threshold ago (the start-up tick comes before the watch).
        if let Some(last) = s.last_contact.or(s.watched_from)
            && now.saturating_sub(last) > threshold
        {
            s.out_since = Some(last);
            return Standing::Held;
        }
        match s.ended.take() {
            Some((lost, back)) => Standing::Back {
                lost,
                back,
                ours: std::mem::take(&mut s.ours),
            },
            None => Standing::Normal,
        }
    }
}

/// "about 3 hours", "about 12 minutes": an outage's length for players.
pub fn about(ms: Millis) -> String {
    let minutes = (ms / 60_000).max(1);
    if minutes < 120 {
        format!(
            "about {minutes} minute{}",
            if minutes == 1 { "" } else { "s" }
        )
    } else {
        let hours = (minutes + 30) / 60;
        format!("about {hours} hours")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unwatched_reach_never_holds() {
        let r = Reach::default();
        r.contact(0);
        assert_eq!(r.standing(10 * 3_600_000), Standing::Normal);
    }

    #[test]
    fn silence_holds_and_the_first_answer_ends_the_outage_once() {
        let r = Reach::default();
        r.watch(180_000);
        assert_eq!(r.standing(1_000_000), Standing::Normal, "no sign yet");
        r.contact(1_000_000);
        assert_eq!(r.standing(1_100_000), Standing::Normal);
        assert_eq!(r.standing(1_200_000), Standing::Held);
        assert!(r.held());
        assert_eq!(r.standing(5_000_000), Standing::Held);
        r.contact(11_800_000);
        assert_eq!(
            r.standing(11_800_000),
            Standing::Back {
                lost: 1_000_000,
                back: 11_800_000,
                ours: false
            }
        );
        assert_eq!(r.standing(11_800_000), Standing::Normal);
    }

    #[test]
    fn a_silence_from_the_start_of_the_watch_holds_from_then() {
        let r = Reach::default();
        r.watch_from(180_000, 1_000_000);
        assert_eq!(r.standing(1_100_000), Standing::Normal, "a blip");
        assert_eq!(
            r.standing(1_200_000),
            Standing::Held,
            "no answer since the start"
        );
        r.contact(4_600_000);
        assert_eq!(
            r.standing(4_600_000),
            Standing::Back {
                lost: 1_000_000,
                back: 4_600_000,
                ours: false
            }
        );
        assert_eq!(r.standing(4_700_000), Standing::Normal);
    }

    #[test]
    fn the_bot_s_own_downtime_holds_until_the_first_sign_of_life() {
        let r = Reach::default();
        r.down_since(1_000_000, 180_000);
        assert_eq!(r.standing(12_000_000), Standing::Held, "before any answer");
        r.contact(12_500_000);
        assert_eq!(
            r.standing(12_500_000),
            Standing::Back {
                lost: 1_000_000,
                back: 12_500_000,
                ours: true
            }
        );
        assert_eq!(r.standing(12_600_000), Standing::Normal);
    }

    #[test]
    fn lengths_read_as_people_say_them() {
        assert_eq!(about(60_000), "about 1 minute");
        assert_eq!(about(12 * 60_000), "about 12 minutes");
        assert_eq!(about(3 * 3_600_000), "about 3 hours");
    }
}
