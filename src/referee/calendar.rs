//! Where a deadline falls on the calendar, pure: a turn's length read in the race's zone
//! (whole days keep the clock time across daylight saving), `days=` (deadlines only on
//! chosen weekdays), and the quiet hours of the seats that still owe an order (a deadline
//! in them moves to their end, capped by `quiet-cap=`). docs/time.md has the rulings.

use chrono::{DateTime, Datelike, Days as ChronoDays, Duration, NaiveTime, Timelike, Utc};

use super::when::{Days, Quiet, Zone};

/// A race's calendar rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The race's zone: whole days of a turn and `days=` are read in it.
    pub zone: Zone,
    /// The weekdays a deadline may fall on.
    pub days: Days,
    /// The most quiet hours may move one deadline, in seconds.
    pub quiet_cap_secs: u64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            zone: Zone::UTC,
            days: Days::ALL,
            quiet_cap_secs: DEFAULT_QUIET_CAP_SECS,
        }
    }
}

/// The default cap on the move quiet hours make: 12 hours.
pub const DEFAULT_QUIET_CAP_SECS: u64 = 12 * 3600;

/// One seat that still owes an order, and its player's quiet hours in their zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sleeper {
    pub zone: Zone,
    pub quiet: Quiet,
}

/// `start` plus a turn of `secs`: whole days are calendar days in `zone` (a 1-day turn
/// opened at 18:00 ends at 18:00 the next day, 23 or 25 hours later across a change of
/// clocks), the rest elapsed time. `None` only past the calendar's end.
pub fn add_turn(start: DateTime<Utc>, secs: u64, zone: Zone) -> Option<DateTime<Utc>> {
    let days = secs / 86_400;
    let rest = i64::try_from(secs % 86_400).ok()?;
    let local = zone.local(start);
    let moved = local.checked_add_days(ChronoDays::new(days))?;
    let at = if days == 0 {
        start
    } else {
        zone.instant(moved)?
    };
    at.checked_add_signed(Duration::seconds(rest))
}

/// The same clock time in `zone` on the first day from `at` on that `days` allows.
pub fn on_allowed_day(at: DateTime<Utc>, days: Days, zone: Zone) -> Option<DateTime<Utc>> {
    if days.0 & Days::ALL.0 == 0 {
        return Some(at);
    }
    let local = zone.local(at);
    for ahead in 0..7u64 {
        let day = local.checked_add_days(ChronoDays::new(ahead))?;
        if days.has(day.weekday()) {
            return if ahead == 0 {
                Some(at)
            } else {
                zone.instant(day)
            };
        }
    }
    Some(at)
}

/// The end of the quiet hours `at` falls in, or `None` when `at` is not quiet.
pub fn quiet_end(at: DateTime<Utc>, s: &Sleeper) -> Option<DateTime<Utc>> {
    let local = s.zone.local(at);
    let minute = local.hour() * 60 + local.minute();
    if !s.quiet.contains(minute) {
        return None;
    }
    let date = local.date();
    let end_date = if s.quiet.start > s.quiet.end && minute >= s.quiet.start {
        date.succ_opt()?
    } else {
        date
    };
    let end = NaiveTime::from_hms_opt(s.quiet.end / 60, s.quiet.end % 60, 0)?;
    s.zone.instant(end_date.and_time(end)).filter(|e| *e > at)
}

/// The deadline of a step opened at `opened` with a turn of `turn_secs`, under `rules`,
/// for `owing` (the seats that still owe an order). Moves by quiet hours add up to at
/// most the cap; a deadline moved by quiet hours is not moved again by `days=`.
pub fn deadline(
    opened: DateTime<Utc>,
    turn_secs: u64,
    rules: &Rules,
    owing: &[Sleeper],
) -> Option<DateTime<Utc>> {
    let nominal = add_turn(opened, turn_secs, rules.zone)?;
    let on_day = on_allowed_day(nominal, rules.days, rules.zone)?;
    Some(after_quiet(on_day, rules.quiet_cap_secs, owing))
}

/// When a seat's bank of `left_ms`, running from `since`, runs out: the bank is elapsed
/// time (a chess clock: 3 days are 72 hours across a change of clocks), then `days=`
/// and the seat's own quiet hours move it, as they move a turn's deadline. The bank is
/// not charged for the time they add (`bank.rs`).
pub fn bank_deadline(
    since: DateTime<Utc>,
    left_ms: i64,
    rules: &Rules,
    sleeper: Option<&Sleeper>,
) -> Option<DateTime<Utc>> {
    let end = since.checked_add_signed(Duration::milliseconds(left_ms.max(0)))?;
    let on_day = on_allowed_day(end, rules.days, rules.zone)?;
    Some(after_quiet(
        on_day,
        rules.quiet_cap_secs,
        sleeper.map(std::slice::from_ref).unwrap_or(&[]),
    ))
}

/// `at` moved past the quiet hours of every seat in `owing`, by at most `cap_secs`.
pub fn after_quiet(at: DateTime<Utc>, cap_secs: u64, owing: &[Sleeper]) -> DateTime<Utc> {
    let cap = i64::try_from(cap_secs).unwrap_or(i64::MAX / 2000);
    let Some(limit) = at.checked_add_signed(Duration::seconds(cap)) else {
        return at;
    };
    let mut d = at;
    // Each round ends one seat's quiet hours; two rounds per seat settle any chain.
    for _ in 0..owing.len().saturating_mul(2).saturating_add(1) {
        let Some(end) = owing.iter().find_map(|s| quiet_end(d, s)) else {
            return d;
        };
        if end >= limit {
            return limit;
        }
        d = end;
    }
    d
}

/// Whether `at` is in `s`'s quiet hours (no reminder or nudge is sent then).
pub fn is_quiet(at: DateTime<Utc>, s: &Sleeper) -> bool {
    quiet_end(at, s).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::when::{parse_days, parse_quiet, parse_zone};

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn rules(zone: &str, days: &str, cap_h: u64) -> Rules {
        Rules {
            zone: parse_zone(zone).unwrap(),
            days: parse_days(days).unwrap(),
            quiet_cap_secs: cap_h * 3600,
        }
    }

    fn sleeper(zone: &str, quiet: &str) -> Sleeper {
        Sleeper {
            zone: parse_zone(zone).unwrap(),
            quiet: parse_quiet(quiet).unwrap(),
        }
    }

    #[test]
    fn turn_lengths_across_the_changes_of_clocks() {
        for (zone, opened, secs, due) in [
            // London springs forward on 29 Mar 2026: a day is 23 hours.
            (
                "Europe/London",
                "2026-03-28T18:00:00+00:00",
                86_400,
                "2026-03-29T18:00:00+01:00",
            ),
            (
                "Europe/London",
                "2026-03-28T18:00:00+00:00",
                86_400 + 12 * 3600,
                "2026-03-30T06:00:00+01:00",
            ),
            // Hours are elapsed time: 6 hours across London's fall back on 25 Oct.
            (
                "Europe/London",
                "2026-10-24T23:00:00+01:00",
                6 * 3600,
                "2026-10-25T04:00:00+00:00",
            ),
            // New York falls back on 1 Nov 2026.
            (
                "America/New_York",
                "2026-10-31T12:00:00-04:00",
                2 * 86_400,
                "2026-11-02T12:00:00-05:00",
            ),
            (
                "America/New_York",
                "2026-03-07T21:00:00-05:00",
                86_400,
                "2026-03-08T21:00:00-04:00",
            ),
            // Sydney leaves summer time on 5 Apr 2026 and enters it on 4 Oct 2026.
            (
                "Australia/Sydney",
                "2026-04-04T20:00:00+11:00",
                86_400,
                "2026-04-05T20:00:00+10:00",
            ),
            (
                "Australia/Sydney",
                "2026-10-03T09:00:00+10:00",
                86_400,
                "2026-10-04T09:00:00+11:00",
            ),
        ] {
            let r = rules(zone, "all", 12);
            assert_eq!(
                deadline(t(opened), secs, &r, &[]),
                Some(t(due)),
                "{zone} {opened} +{secs}s"
            );
        }
    }

    #[test]
    fn quiet_hours_in_two_zones_across_the_changes_of_clocks() {
        let alice = sleeper("Europe/London", "23:00-07:00");
        let bob = sleeper("America/New_York", "22:00-06:00");
        let london = rules("Europe/London", "all", 12);
        // 00:30 GMT on 29 Mar is Alice's night; her 07:00 is BST (06:00Z), 02:00 in New
        // York (already on EDT): Bob's night, which ends at 06:00 EDT (10:00Z).
        let due = t("2026-03-29T00:30:00Z");
        assert_eq!(
            after_quiet(due, 12 * 3600, &[alice, bob]),
            t("2026-03-29T10:00:00Z")
        );
        assert_eq!(
            after_quiet(due, 12 * 3600, &[alice]),
            t("2026-03-29T06:00:00Z")
        );
        // The cap holds the race: at most 6 hours.
        assert_eq!(
            after_quiet(due, 6 * 3600, &[alice, bob]),
            t("2026-03-29T06:30:00Z")
        );
        // A seat that has ordered is not waited for.
        assert_eq!(after_quiet(due, 12 * 3600, &[bob]), due);
        // New York falls back on 1 Nov: 05:30Z is 01:30 EDT; Bob's 06:00 is EST (11:00Z).
        assert_eq!(
            after_quiet(t("2026-11-01T05:30:00Z"), 12 * 3600, &[alice, bob]),
            t("2026-11-01T11:00:00Z")
        );
        // Sydney leaves summer time on 5 Apr: 01:00 AEDT's night ends at 07:00 AEST.
        let carol = sleeper("Australia/Sydney", "23:00-07:00");
        assert_eq!(
            after_quiet(t("2026-04-04T14:00:00Z"), 12 * 3600, &[carol, alice]),
            t("2026-04-04T21:00:00Z")
        );
        // Through `deadline`: a 1-day turn opened at 00:30 GMT on 28 Mar.
        assert_eq!(
            deadline(t("2026-03-28T00:30:00Z"), 86_400, &london, &[alice, bob]),
            Some(t("2026-03-29T10:00:00Z"))
        );
        assert!(is_quiet(t("2026-03-29T05:59:00Z"), &alice));
        assert!(!is_quiet(t("2026-03-29T06:00:00Z"), &alice));
    }

    #[test]
    fn weekdays_only_across_the_changes_of_clocks() {
        for (zone, opened, due) in [
            // Friday 18:00 EST + 1 day is Saturday: Monday 18:00, now EDT (8 Mar).
            (
                "America/New_York",
                "2026-03-06T18:00:00-05:00",
                "2026-03-09T18:00:00-04:00",
            ),
            // London leaves BST on Sunday 25 Oct.
            (
                "Europe/London",
                "2026-10-23T09:00:00+01:00",
                "2026-10-26T09:00:00+00:00",
            ),
            // Sydney enters summer time on Sunday 4 Oct.
            (
                "Australia/Sydney",
                "2026-10-02T12:00:00+10:00",
                "2026-10-05T12:00:00+11:00",
            ),
            // A weekday stays.
            (
                "Europe/London",
                "2026-10-20T09:00:00+01:00",
                "2026-10-21T09:00:00+01:00",
            ),
        ] {
            let r = rules(zone, "mon-fri", 12);
            assert_eq!(
                deadline(t(opened), 86_400, &r, &[]),
                Some(t(due)),
                "{zone} {opened}"
            );
        }
    }

    #[test]
    fn banks_are_elapsed_time_then_the_calendar_rules() {
        let h = 3_600_000;
        // 3 days from 18:00 GMT on 27 Mar 2026 across London's spring forward: 72 hours,
        // 19:00 BST.
        let london = rules("Europe/London", "all", 12);
        assert_eq!(
            bank_deadline(t("2026-03-27T18:00:00Z"), 72 * h, &london, None),
            Some(t("2026-03-30T19:00:00+01:00"))
        );
        // mon-fri in New York: Friday 18:00 EST + 1 day is Saturday; Monday 18:00 EDT.
        let ny = rules("America/New_York", "mon-fri", 12);
        assert_eq!(
            bank_deadline(t("2026-03-06T18:00:00-05:00"), 24 * h, &ny, None),
            Some(t("2026-03-09T18:00:00-04:00"))
        );
        // Only the seat's own quiet hours move its bank's end.
        let carol = sleeper("Australia/Sydney", "23:00-07:00");
        let sydney = rules("Australia/Sydney", "all", 12);
        assert_eq!(
            bank_deadline(
                t("2026-04-03T23:30:00+11:00"),
                26 * h,
                &sydney,
                Some(&carol)
            ),
            Some(t("2026-04-05T07:00:00+10:00"))
        );
        assert_eq!(
            bank_deadline(t("2026-04-03T23:30:00+11:00"), 26 * h, &sydney, None),
            Some(t("2026-04-05T00:30:00+10:00"))
        );
        assert_eq!(
            bank_deadline(DateTime::<Utc>::MAX_UTC, i64::MAX, &sydney, None),
            None
        );
    }

    #[test]
    fn nothing_overflows() {
        let r = rules("Australia/Sydney", "sun", u64::MAX / 3600);
        let s = sleeper("Australia/Sydney", "00:00-14:00");
        let end = DateTime::<Utc>::MAX_UTC;
        assert_eq!(deadline(end, 365 * 86_400, &r, &[s]), None);
        let _ = deadline(DateTime::<Utc>::MIN_UTC, 0, &r, &[s]);
        assert_eq!(after_quiet(end, u64::MAX, &[s]), end);
    }
}
