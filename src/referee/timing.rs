//! Turn lengths, clocks, reminders, the resolve rule and the grace window, read from
//! `key=value` text beside a game's own options (`turn=24h reminders=12h,1h
//! resolve=early`, `clock=3d+12h`, `grace=2m`).

use super::error::RefereeError;
use super::when;
use crate::vocab::Timing;

/// Every timing key the settings read, with the aliases (`turn-length`, `timezone`, ...).
pub const KEYS: &[&str] = &[
    "turn",
    "turn-length",
    "deadline",
    "reminders",
    "resolve",
    "resolve-early",
    "zone",
    "timezone",
    "days",
    "quiet-cap",
    "nudge",
    "clock",
    "clock-cap",
    "away-cap",
    "grace",
];

/// Reads a duration in seconds in any form [`when::parse_duration`] reads (`90`, `90s`,
/// `1h30m`, `1h 30m`, `90 min`, `2 hours`, `1.5h`, `3d`), up to a year.
pub fn parse_duration(text: &str) -> Option<u64> {
    when::parse_duration(text).ok()
}

pub use super::when::format_duration;

/// Takes the timing keys out of `text` into `timing`, and returns the rest (game options).
/// A refusal leaves `timing` as it was.
pub fn apply_timing_text(timing: &mut Timing, text: &str) -> Result<String, RefereeError> {
    let mut changed = timing.clone();
    let rest = read_timing_text(&mut changed, text)?;
    check_clock(&changed)?;
    *timing = changed;
    Ok(rest)
}

/// `clock-cap=` below the clock's bank is refused: the bank could not start full.
fn check_clock(t: &Timing) -> Result<(), RefereeError> {
    let c = &t.calendar;
    if let (Some(bank), Some(cap)) = (c.clock_secs, c.clock_cap_secs)
        && cap < bank
    {
        return Err(RefereeError::Invalid(format!(
            "`clock-cap` {} is less than the clock's bank {}; the cap must be at least the bank",
            format_duration(cap),
            format_duration(bank)
        )));
    }
    Ok(())
}

fn read_timing_text(timing: &mut Timing, text: &str) -> Result<String, RefereeError> {
    let mut rest = Vec::new();
    for pair in text
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|s| !s.is_empty())
    {
        let Some((key, value)) = pair.split_once('=') else {
            rest.push(pair);
            continue;
        };
        let key = key.trim().to_ascii_lowercase().replace('_', "-");
        if KEYS.contains(&key.as_str()) {
            set_timing_key(timing, &key, value)?;
        } else {
            rest.push(pair);
        }
    }
    Ok(rest.join(" "))
}

/// One `key=value` of the turn's length and resolution; the calendar's keys go on.
fn set_timing_key(timing: &mut Timing, key: &str, value: &str) -> Result<(), RefereeError> {
    match key {
        "turn" | "turn-length" | "deadline" => {
            let secs = when::parse_duration(value)
                .map_err(|e| RefereeError::Invalid(format!("`{key}`: {e}")))?;
            if !(10..=30 * 86_400).contains(&secs) {
                return Err(bad(key, "from 10 seconds to 30 days"));
            }
            timing.turn_secs = secs;
        }
        "reminders" => {
            let mut list = Vec::new();
            if !matches!(value.trim(), "" | "none" | "off") {
                for part in value.split(',') {
                    list.push(when::parse_duration(part).map_err(|e| {
                        RefereeError::Invalid(format!(
                            "`reminders` takes durations before the deadline, such as 12h,1h: {e}"
                        ))
                    })?);
                }
            }
            list.sort_unstable_by(|a, b| b.cmp(a));
            list.dedup();
            timing.reminders = list;
        }
        "resolve" | "resolve-early" => {
            timing.resolve_early = match value.trim().to_ascii_lowercase().as_str() {
                "early" | "yes" | "true" | "on" => true,
                "deadline" | "no" | "false" | "off" => false,
                _ => {
                    return Err(bad(
                        key,
                        "`early` (as soon as every order is in) or `deadline`",
                    ));
                }
            };
        }
        _ => set_calendar_key(timing, key, value)?,
    }
    Ok(())
}

/// One `key=value` of the race's calendar: zone, days, quiet hours, clocks, grace.
fn set_calendar_key(timing: &mut Timing, key: &str, value: &str) -> Result<(), RefereeError> {
    match key {
        "zone" | "timezone" => {
            let zone = when::parse_zone(value).map_err(|e| invalid(key, &e))?;
            timing.calendar.zone = Some(zone.to_string());
        }
        "days" => {
            let days = when::parse_days(value).map_err(|e| invalid(key, &e))?;
            timing.calendar.days = (days != when::Days::ALL).then_some(days.0);
        }
        "quiet-cap" => {
            let secs = when::parse_duration(value).map_err(|e| invalid(key, &e))?;
            if secs > 7 * 86_400 {
                return Err(bad(
                    key,
                    "at most 7 days, such as 12h (0 turns quiet hours off)",
                ));
            }
            timing.calendar.quiet_cap_secs = Some(secs);
        }
        "nudge" => {
            let secs = duration_or_off(key, value)?;
            timing.calendar.nudge_secs = (secs > 0).then_some(secs);
        }
        "clock" => {
            if matches!(value.trim(), "off" | "none") {
                timing.calendar.clock_secs = None;
                timing.calendar.clock_increment_secs = None;
            } else {
                let c = when::parse_clock(value).map_err(|e| invalid(key, &e))?;
                timing.calendar.clock_secs = Some(c.bank_secs);
                timing.calendar.clock_increment_secs =
                    (c.increment_secs > 0).then_some(c.increment_secs);
            }
        }
        "clock-cap" => {
            timing.calendar.clock_cap_secs = if matches!(value.trim(), "off" | "none") {
                None
            } else {
                let secs = when::parse_duration(value).map_err(|e| invalid(key, &e))?;
                if secs == 0 {
                    return Err(bad(key, "a duration at least the clock's bank, such as 4d"));
                }
                Some(secs)
            };
        }
        "away-cap" => timing.calendar.away_cap_days = super::away::parse_cap(value)?,
        "grace" => {
            let secs = duration_or_off(key, value)?;
            if secs > super::grace::MAX_GRACE_SECS {
                return Err(bad(
                    key,
                    "a duration up to a day, such as 2m (0 resolves each play at once)",
                ));
            }
            timing.calendar.grace_secs = Some(secs);
        }
        _ => {}
    }
    Ok(())
}

/// A duration, where `off` or `none` is 0.
fn duration_or_off(key: &str, value: &str) -> Result<u64, RefereeError> {
    if matches!(value.trim(), "off" | "none") {
        Ok(0)
    } else {
        when::parse_duration(value).map_err(|e| invalid(key, &e))
    }
}

fn invalid(key: &str, e: &when::TimeError) -> RefereeError {
    RefereeError::Invalid(format!("`{key}`: {e}"))
}

fn bad(key: &str, expected: &str) -> RefereeError {
    RefereeError::Invalid(format!("`{key}` takes {expected}"))
}

/// Timing as text for `/race settings`.
pub fn describe_timing(t: &Timing) -> String {
    let reminders = if t.reminders.is_empty() {
        "none".to_string()
    } else {
        t.reminders
            .iter()
            .map(|r| format_duration(*r))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut out = format!(
        "turn={} reminders={} resolve={}",
        format_duration(t.turn_secs),
        reminders,
        if t.resolve_early { "early" } else { "deadline" }
    );
    let c = &t.calendar;
    if let Some(zone) = &c.zone {
        out.push_str(&format!(" zone={zone}"));
    }
    if let Some(days) = c.days {
        out.push_str(&format!(" days={}", when::Days(days)));
    }
    if let Some(cap) = c.quiet_cap_secs {
        out.push_str(&format!(" quiet-cap={}", format_duration(cap)));
    }
    if let Some(nudge) = c.nudge_secs {
        out.push_str(&format!(" nudge={}", format_duration(nudge)));
    }
    if let Some(bank) = c.clock_secs {
        let clock = when::ClockText {
            bank_secs: bank,
            increment_secs: c.clock_increment_secs.unwrap_or(0),
        };
        out.push_str(&format!(" clock={clock}"));
    }
    if let Some(cap) = c.clock_cap_secs {
        out.push_str(&format!(" clock-cap={}", format_duration(cap)));
    }
    if let Some(cap) = c.away_cap_days {
        out.push_str(&format!(" away-cap={cap}"));
    }
    if let Some(grace) = c.grace_secs {
        out.push_str(&format!(" grace={}", format_duration(grace)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_and_print() {
        assert_eq!(parse_duration("90"), Some(90));
        assert_eq!(parse_duration("30s"), Some(30));
        assert_eq!(parse_duration("1h30m"), Some(5400));
        assert_eq!(parse_duration("2D"), Some(172_800));
        assert_eq!(parse_duration("3x"), None);
        assert_eq!(parse_duration("h"), None);
        assert_eq!(parse_duration("5h3"), None);
        assert_eq!(format_duration(5400), "1h30m");
        assert_eq!(format_duration(86_400), "1d");
    }

    #[test]
    fn timing_keys_are_taken_and_the_rest_returned() {
        let mut t = Timing {
            turn_secs: 60,
            reminders: vec![],
            resolve_early: true,
            calendar: Default::default(),
        };
        let rest = apply_timing_text(
            &mut t,
            "turn=2h starting-points=50 reminders=10m,1h resolve=deadline",
        )
        .unwrap();
        assert_eq!(rest, "starting-points=50");
        assert_eq!(
            t,
            Timing {
                turn_secs: 7200,
                reminders: vec![3600, 600],
                resolve_early: false,
                calendar: Default::default(),
            }
        );
        assert_eq!(
            describe_timing(&t),
            "turn=2h reminders=1h,10m resolve=deadline"
        );
        assert!(apply_timing_text(&mut t, "turn=1s").is_err());
        // The calendar options; a refusal changes nothing.
        let before = t.clone();
        for text in [
            "zone=Mars/Base",
            "days=funday",
            "days=",
            "quiet-cap=2w",
            "nudge=soon",
            "turn=400d",
        ] {
            let err = apply_timing_text(&mut t, text).unwrap_err().to_string();
            assert!(!err.contains('\n'), "{err}");
            assert_eq!(t, before, "{text}");
        }
        let rest = apply_timing_text(
            &mut t,
            "zone=america/new_york days=mon-fri quiet-cap=6h nudge=90min",
        )
        .unwrap();
        assert_eq!(rest, "");
        assert_eq!(
            describe_timing(&t),
            "turn=2h reminders=1h,10m resolve=deadline zone=America/New_York days=mon,tue,wed,thu,fri quiet-cap=6h nudge=1h30m"
        );
        assert!(apply_timing_text(&mut t, "resolve=maybe").is_err());
    }

    #[test]
    fn the_grace_window_is_read_shown_and_bounded() {
        let mut t = Timing {
            turn_secs: 3600,
            reminders: vec![],
            resolve_early: true,
            calendar: Default::default(),
        };
        assert!(KEYS.contains(&"grace"));
        assert_eq!(
            apply_timing_text(&mut t, "grace=90s rounds=1").unwrap(),
            "rounds=1"
        );
        assert_eq!(t.calendar.grace_secs, Some(90));
        assert!(
            describe_timing(&t).ends_with(" grace=1m30s"),
            "{}",
            describe_timing(&t)
        );
        apply_timing_text(&mut t, "grace=0").unwrap();
        assert_eq!(t.calendar.grace_secs, Some(0));
        let before = t.clone();
        for text in ["grace=soon", "grace=2d"] {
            let err = apply_timing_text(&mut t, text).unwrap_err().to_string();
            assert!(!err.contains('\n'), "{err}");
            assert_eq!(t, before, "{text}");
        }
    }

    #[test]
    fn clocks_are_read_and_bad_ones_change_nothing() {
        let mut t = Timing {
            turn_secs: 86_400,
            reminders: vec![],
            resolve_early: true,
            calendar: Default::default(),
        };
        let before = t.clone();
        for text in [
            "clock=0",
            "clock=0+12h",
            "clock=soon",
            "clock=400d",
            "clock=3d+400d",
            "clock=3d+12h clock-cap=1d",
            "clock-cap=1d clock=3d",
            "clock=3d+12h clock-cap=0",
            "turn=2h clock=nonsense",
        ] {
            let err = apply_timing_text(&mut t, text).unwrap_err().to_string();
            assert!(!err.contains('\n'), "{err}");
            assert_eq!(t, before, "{text}");
        }
        let err = apply_timing_text(&mut t, "clock=3d+12h clock-cap=1d")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "`clock-cap` 1d is less than the clock's bank 3d; the cap must be at least the bank"
        );
        let rest = apply_timing_text(&mut t, "clock=3d+12h clock-cap=5d track=x").unwrap();
        assert_eq!(rest, "track=x");
        assert_eq!(t.calendar.clock_secs, Some(259_200));
        assert_eq!(t.calendar.clock_increment_secs, Some(43_200));
        assert_eq!(
            describe_timing(&t),
            "turn=1d reminders=none resolve=early clock=3d+12h clock-cap=5d"
        );
        apply_timing_text(&mut t, "clock=off clock-cap=off").unwrap();
        assert_eq!(t, before);
    }
}
