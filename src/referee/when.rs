//! Reading time as people write it: durations (`1h30m`, `1h 30m`, `90 min`, `2 hours`,
//! `1.5h`, `3d`), moments (`2026-12-01 18:00`, `tomorrow 18:00`, `<t:UNIX>`) read in a
//! zone, zones (IANA names with daylight saving, or fixed offsets such as `+02:00`), quiet
//! hours (`23:00-07:00`) and days of the week (`mon-fri`). No clock and no I/O of its own:
//! the zones' rules are the database [`zones`](super::zones) loads once. Every refusal is
//! one sentence with an example.

use std::fmt;

use chrono::{
    DateTime, Datelike, Duration, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc,
    Weekday,
};
use jiff::tz::AmbiguousOffset;
use thiserror::Error;

use super::zones::{self, NamedZone};

/// The longest duration accepted anywhere: a year.
pub const MAX_DURATION_SECS: u64 = 365 * 86_400;

/// Longest quiet hours: longer spans are taken for a mistake (hours written the wrong way
/// round, such as `07:00-23:00` for a night).
pub const MAX_QUIET_MINUTES: u32 = 14 * 60;

/// Why a text is not a time; the message is one sentence for the player.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum TimeError {
    #[error(
        "`{0}` is not a duration; write one such as 90s, 10m, 1h30m, 1h 30m, 2 hours, 1.5h or 3d"
    )]
    Duration(String),
    #[error("`{0}` is more than a year; a duration can be at most 365 days")]
    TooLong(String),
    #[error(
        "`{0}` is not a time zone; write a name such as Europe/London or America/New_York, or an offset such as +02:00"
    )]
    Zone(String),
    #[error(
        "`{0}` is not a date or time; write one such as 2026-12-01 18:00, tomorrow 18:00, fri 09:00, in 2h or <t:1796140800>"
    )]
    When(String),
    #[error(
        "`{0}` is not quiet hours; write the start and end in your own zone, such as 23:00-07:00"
    )]
    Quiet(String),
    #[error("quiet hours `{0}` are empty: the start and end must differ, such as 23:00-07:00")]
    QuietEmpty(String),
    #[error(
        "quiet hours `{0}` last more than 14 hours; did you write them the wrong way round? For nights write 23:00-07:00"
    )]
    QuietTooLong(String),
    #[error("`{0}` names no day of the week; write days such as mon-fri, sat,sun or mon,wed,fri")]
    Days(String),
    #[error(
        "`{0}` is not a clock; write a bank and what each move adds, such as 3d+12h, or a bank alone, such as 2d"
    )]
    Clock(String),
    #[error("a clock's bank must be at least 10 seconds; write one such as 3d+12h")]
    ClockZero,
}

/// A clock as written: each seat's starting bank, and what it gains after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockText {
    pub bank_secs: u64,
    pub increment_secs: u64,
}

impl fmt::Display for ClockText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(self.bank_secs))?;
        if self.increment_secs > 0 {
            write!(f, "+{}", format_duration(self.increment_secs))?;
        }
        Ok(())
    }
}

/// Reads a clock: `3d+12h` (a bank of 3 days, 12 hours more after each move), `2d` (no
/// increment), each part a duration [`parse_duration`] reads. A bank under 10 seconds is
/// refused, as is either part over a year.
pub fn parse_clock(text: &str) -> Result<ClockText, TimeError> {
    let bad = || TimeError::Clock(shorten(text));
    let (bank, increment) = match text.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (text, None),
    };
    let part = |t: &str| match parse_duration(t) {
        Err(TimeError::Duration(_)) => Err(bad()),
        other => other,
    };
    let bank_secs = part(bank)?;
    let increment_secs = match increment {
        Some(i) => part(i)?,
        None => 0,
    };
    if bank_secs < 10 {
        return Err(TimeError::ClockZero);
    }
    Ok(ClockText {
        bank_secs,
        increment_secs,
    })
}

/// Reads a duration in seconds. A bare number is seconds (as before); parts may be glued
/// (`1h30m`) or spaced (`1h 30m`, `90 min`, `2 hours and 5 minutes`); a part may be a
/// decimal (`1.5h`). Refused past [`MAX_DURATION_SECS`].
pub fn parse_duration(text: &str) -> Result<u64, TimeError> {
    let bad = || TimeError::Duration(shorten(text));
    let lower = text.trim().to_ascii_lowercase();
    if lower.is_empty() {
        return Err(bad());
    }
    let mut total_ms: u128 = 0;
    let mut rest = lower.as_str();
    let mut parts = 0;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if let Some(r) = rest.strip_prefix("and ") {
            rest = r;
            continue;
        }
        if rest.is_empty() {
            break;
        }
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(num_len);
        let after = after.trim_start();
        let unit_len = after
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_len);
        let unit_ms: u128 = match unit {
            // A bare number alone is seconds.
            "" if parts == 0 && after.trim().is_empty() => 1000,
            "ms" => return Err(bad()),
            "s" | "sec" | "secs" | "second" | "seconds" => 1000,
            "m" | "min" | "mins" | "minute" | "minutes" => 60_000,
            "h" | "hr" | "hrs" | "hour" | "hours" => 3_600_000,
            "d" | "day" | "days" => 86_400_000,
            "w" | "wk" | "wks" | "week" | "weeks" => 604_800_000,
            _ => return Err(bad()),
        };
        total_ms = total_ms.saturating_add(scaled(number, unit_ms).ok_or_else(bad)?);
        parts += 1;
        rest = after;
    }
    let secs = total_ms / 1000;
    if secs > u128::from(MAX_DURATION_SECS) {
        return Err(TimeError::TooLong(shorten(text)));
    }
    u64::try_from(secs).map_err(|_| TimeError::TooLong(shorten(text)))
}

/// `number` (digits, at most one point) times `unit_ms`, exactly, in whole milliseconds.
fn scaled(number: &str, unit_ms: u128) -> Option<u128> {
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if whole.len() > 12 || frac.len() > 6 || frac.contains('.') {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac_value: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
    whole
        .checked_mul(unit_ms)?
        .checked_add(frac_value.checked_mul(unit_ms)? / scale)
}

/// Writes seconds the way people say them: `1d`, `2h30m`, `45s`.
pub fn format_duration(secs: u64) -> String {
    if secs == 0 {
        return "0s".into();
    }
    let mut out = String::new();
    let mut rest = secs;
    for (unit, name) in [(86_400, "d"), (3600, "h"), (60, "m"), (1, "s")] {
        if rest >= unit {
            out.push_str(&format!("{}{name}", rest / unit));
            rest %= unit;
        }
    }
    out
}

/// A time zone: an IANA zone (with daylight saving) or a fixed offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    Named(&'static NamedZone),
    Fixed(FixedOffset),
}

impl Default for Zone {
    fn default() -> Self {
        Zone::UTC
    }
}

impl fmt::Display for Zone {
    /// The name a reader recognises: `Europe/London`, `UTC`, `UTC+02:00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Zone::Named(z) => f.write_str(z.name()),
            Zone::Fixed(o) if o.local_minus_utc() == 0 => f.write_str("UTC"),
            Zone::Fixed(o) => write!(f, "UTC{o}"),
        }
    }
}

impl From<FixedOffset> for Zone {
    fn from(o: FixedOffset) -> Zone {
        if o.local_minus_utc() == 0 {
            Zone::UTC
        } else {
            Zone::Fixed(o)
        }
    }
}

impl Zone {
    pub const UTC: Zone = Zone::Named(&zones::UTC);

    /// The wall-clock time at `at` in this zone.
    /// At the calendar's very ends, where the local time cannot be written, the UTC time.
    pub fn local(&self, at: DateTime<Utc>) -> NaiveDateTime {
        let offset = Duration::seconds(i64::from(self.offset_secs(at)));
        let utc = at.naive_utc();
        utc.checked_add_signed(offset).unwrap_or(utc)
    }

    /// The offset from UTC at `at`, in seconds.
    pub fn offset_secs(&self, at: DateTime<Utc>) -> i32 {
        match self {
            Zone::Named(z) => {
                // jiff's calendar is years -9999..=9999, chrono's wider: clamp to its ends.
                let ts =
                    jiff::Timestamp::from_second(at.timestamp()).unwrap_or(if at.timestamp() < 0 {
                        jiff::Timestamp::MIN
                    } else {
                        jiff::Timestamp::MAX
                    });
                z.tz().to_offset(ts).seconds()
            }
            Zone::Fixed(o) => o.local_minus_utc(),
        }
    }

    /// The instant a wall-clock time names. A time repeated when clocks go back is the
    /// first of the two; a time skipped when clocks go forward is read with the offset
    /// before the change (02:30 on a spring-forward night is 03:30), as calendars do.
    pub fn instant(&self, local: NaiveDateTime) -> Option<DateTime<Utc>> {
        let offset = match self {
            Zone::Named(z) => {
                let civil = civil(local)?;
                match z.tz().to_ambiguous_timestamp(civil).offset() {
                    AmbiguousOffset::Unambiguous { offset } => offset,
                    // The earlier instant of a fold has the offset before it; a gap is read
                    // with the offset before it too.
                    AmbiguousOffset::Fold { before, .. } | AmbiguousOffset::Gap { before, .. } => {
                        before
                    }
                }
                .seconds()
            }
            Zone::Fixed(o) => o.local_minus_utc(),
        };
        local
            .checked_sub_signed(Duration::seconds(i64::from(offset)))
            .map(|n| n.and_utc())
    }

    /// `at` as plain text in this zone, naming it: `Tue 1 Dec 18:00 (Europe/London)`.
    pub fn describe(&self, at: DateTime<Utc>) -> String {
        format!("{} ({self})", self.local(at).format("%a %-d %b %H:%M"))
    }
}

/// chrono's wall-clock time as jiff's; `None` outside jiff's years -9999..=9999.
fn civil(local: NaiveDateTime) -> Option<jiff::civil::DateTime> {
    let small = |n: u32| i8::try_from(n).ok();
    jiff::civil::DateTime::new(
        i16::try_from(local.year()).ok()?,
        small(local.month())?,
        small(local.day())?,
        small(local.hour())?,
        small(local.minute())?,
        // A leap second (chrono's 60th) is read as the 59th.
        small(local.second().min(59))?,
        i32::try_from(local.nanosecond() % 1_000_000_000).ok()?,
    )
    .ok()
}

/// Reads a zone: an IANA name in any case (`europe/london`), `UTC`, or an offset
/// (`+02:00`, `-0530`, `UTC+2`), so the old configuration's offsets still work.
pub fn parse_zone(text: &str) -> Result<Zone, TimeError> {
    let t = text.trim();
    if t.len() > 64 {
        return Err(TimeError::Zone(shorten(text)));
    }
    if let Some(z) = zones::find(t) {
        return Ok(Zone::Named(z));
    }
    parse_offset(t)
        .map(Zone::Fixed)
        .ok_or_else(|| TimeError::Zone(shorten(text)))
}

/// Reads `UTC`, `Z`, `+02:00`, `-0530`, `+2`, `UTC+2` or `GMT-5`.
pub fn parse_offset(text: &str) -> Option<FixedOffset> {
    let t = text.trim();
    let t = ["UTC", "utc", "GMT", "gmt"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    if t.is_empty() || t.eq_ignore_ascii_case("z") {
        return FixedOffset::east_opt(0);
    }
    let (sign, rest) = if let Some(rest) = t.strip_prefix('+') {
        (1, rest)
    } else if let Some(rest) = t.strip_prefix('-') {
        (-1, rest)
    } else {
        return None;
    };
    // Digits and a colon only: what follows splits by bytes.
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit() || b == b':') {
        return None;
    }
    let (h, m) = match rest.split_once(':') {
        Some((h, m)) => (h, m),
        None if rest.len() == 4 => rest.split_at(2),
        None => (rest, "0"),
    };
    let h: i32 = h.parse().ok()?;
    let m: i32 = m.parse().ok()?;
    if !(0..=14).contains(&h) || !(0..60).contains(&m) {
        return None;
    }
    FixedOffset::east_opt(sign * (h * 3600 + m * 60))
}

/// Reads a moment: `<t:UNIX>` (any style), `2026-12-01 18:00`, `2026-12-01T18:00`,
/// `2026-12-01` (its midnight), `today 18:00`, `tomorrow 18:00`, `fri 09:00`, `18:00`
/// (its next occurrence) or `in 2h`, wall-clock times in `zone`.
pub fn parse_when(text: &str, now: DateTime<Utc>, zone: Zone) -> Result<DateTime<Utc>, TimeError> {
    let bad = || TimeError::When(shorten(text));
    let t = text.trim();
    if t.len() > 100 {
        return Err(bad());
    }
    if let Some(inner) = t.strip_prefix("<t:").and_then(|r| r.strip_suffix('>')) {
        let secs = inner.split(':').next().unwrap_or("");
        let secs: i64 = secs.parse().map_err(|_| bad())?;
        return DateTime::from_timestamp(secs, 0).ok_or_else(bad);
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(t) {
        return Ok(at.with_timezone(&Utc));
    }
    let lower = t.to_ascii_lowercase();
    if let Some(d) = lower.strip_prefix("in ") {
        let secs = parse_duration(d).map_err(|_| bad())?;
        let secs = i64::try_from(secs).map_err(|_| bad())?;
        return now
            .checked_add_signed(Duration::seconds(secs))
            .ok_or_else(bad);
    }
    // `2026-12-01T18:00` reads as `2026-12-01 18:00`.
    let lower = if lower.as_bytes().get(10) == Some(&b't') {
        lower.replacen('t', " ", 1)
    } else {
        lower
    };
    let words: Vec<&str> = lower.split_whitespace().collect();
    let today = zone.local(now).date();
    let (date, time) = match words.as_slice() {
        [d] if parse_time(d).is_some() => {
            let time = parse_time(d).ok_or_else(bad)?;
            // The next time the clock shows it.
            let date = if zone
                .instant(today.and_time(time))
                .is_some_and(|at| at > now)
            {
                today
            } else {
                today.succ_opt().ok_or_else(bad)?
            };
            (date, time)
        }
        [d] => (parse_day(d, today).ok_or_else(bad)?, NaiveTime::MIN),
        [d, tm] => (
            parse_day(d, today).ok_or_else(bad)?,
            parse_time(tm).ok_or_else(bad)?,
        ),
        _ => return Err(bad()),
    };
    zone.instant(date.and_time(time)).ok_or_else(bad)
}

/// `2026-12-01`, `today`, `tomorrow`, or a weekday (its next date after today).
fn parse_day(text: &str, today: NaiveDate) -> Option<NaiveDate> {
    match text {
        "today" => Some(today),
        "tomorrow" => today.succ_opt(),
        _ => match parse_weekday(text) {
            Some(day) => {
                let ahead =
                    (7 + day.num_days_from_monday() - today.weekday().num_days_from_monday()) % 7;
                let ahead = if ahead == 0 { 7 } else { ahead };
                today.checked_add_days(chrono::Days::new(u64::from(ahead)))
            }
            None => NaiveDate::parse_from_str(text, "%Y-%m-%d").ok(),
        },
    }
}

/// `18:00`, `9:30`, `18:00:30`, `18h`.
fn parse_time(text: &str) -> Option<NaiveTime> {
    let t = text.trim();
    if let Some(h) = t.strip_suffix('h') {
        return NaiveTime::from_hms_opt(h.parse().ok()?, 0, 0);
    }
    let mut it = t.split(':');
    let h: u32 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let s: u32 = match it.next() {
        Some(s) => s.parse().ok()?,
        None => 0,
    };
    if it.next().is_some() {
        return None;
    }
    NaiveTime::from_hms_opt(h, m, s)
}

fn parse_weekday(text: &str) -> Option<Weekday> {
    let t = text.trim();
    let days = [
        ("mon", Weekday::Mon),
        ("tue", Weekday::Tue),
        ("wed", Weekday::Wed),
        ("thu", Weekday::Thu),
        ("fri", Weekday::Fri),
        ("sat", Weekday::Sat),
        ("sun", Weekday::Sun),
    ];
    days.iter().find_map(|(short, day)| {
        let full = day_name(*day);
        (t == *short || (t.len() >= 3 && full.starts_with(t))).then_some(*day)
    })
}

fn day_name(d: Weekday) -> &'static str {
    match d {
        Weekday::Mon => "monday",
        Weekday::Tue => "tuesday",
        Weekday::Wed => "wednesday",
        Weekday::Thu => "thursday",
        Weekday::Fri => "friday",
        Weekday::Sat => "saturday",
        Weekday::Sun => "sunday",
    }
}

/// Quiet hours as minutes after local midnight: `start` up to `end`, across midnight when
/// `end < start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Quiet {
    pub start: u32,
    pub end: u32,
}

impl Quiet {
    /// Whether the local time of day `minute` (0..1440) is quiet.
    pub fn contains(&self, minute: u32) -> bool {
        if self.start < self.end {
            (self.start..self.end).contains(&minute)
        } else {
            minute >= self.start || minute < self.end
        }
    }

    /// Its length in minutes.
    pub fn minutes(&self) -> u32 {
        (self.end + 1440 - self.start) % 1440
    }
}

impl fmt::Display for Quiet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:02}:{:02}-{:02}:{:02}",
            self.start / 60,
            self.start % 60,
            self.end / 60,
            self.end % 60
        )
    }
}

/// Reads quiet hours such as `23:00-07:00` (across midnight) or `13:00-14:00`.
pub fn parse_quiet(text: &str) -> Result<Quiet, TimeError> {
    let (a, b) = text
        .split_once(['-', '–'])
        .ok_or_else(|| TimeError::Quiet(shorten(text)))?;
    let minute = |s: &str| {
        parse_time(s)
            .filter(|t| t.second() == 0)
            .map(|t| t.hour() * 60 + t.minute())
            .ok_or_else(|| TimeError::Quiet(shorten(text)))
    };
    let q = Quiet {
        start: minute(a)?,
        end: minute(b)?,
    };
    if q.start == q.end {
        return Err(TimeError::QuietEmpty(shorten(text)));
    }
    if q.minutes() > MAX_QUIET_MINUTES {
        return Err(TimeError::QuietTooLong(shorten(text)));
    }
    Ok(q)
}

/// Days of the week, one bit each from Monday (bit 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Days(pub u8);

impl Days {
    pub const ALL: Days = Days(0x7f);

    pub fn has(&self, d: Weekday) -> bool {
        self.0 & (1 << d.num_days_from_monday()) != 0
    }
}

impl Default for Days {
    fn default() -> Self {
        Days::ALL
    }
}

impl fmt::Display for Days {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Days::ALL {
            return f.write_str("all");
        }
        let names: Vec<&str> = (0..7u8)
            .filter(|i| self.0 & (1 << i) != 0)
            .filter_map(|i| Weekday::try_from(i).ok())
            .map(|d| day_name(d).get(..3).unwrap_or(""))
            .collect();
        f.write_str(&names.join(","))
    }
}

/// Reads `mon-fri`, `sat,sun`, `mon,wed,fri`, `fri-mon` (across the weekend) or `all`.
pub fn parse_days(text: &str) -> Result<Days, TimeError> {
    let bad = || TimeError::Days(shorten(text));
    let lower = text.trim().to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "all" | "any" | "every" | "everyday" | "daily"
    ) {
        return Ok(Days::ALL);
    }
    let mut bits = 0u8;
    for part in lower.split([',', ' ', '+']).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let a = parse_weekday(a).ok_or_else(bad)?.num_days_from_monday();
                let b = parse_weekday(b).ok_or_else(bad)?.num_days_from_monday();
                let mut d = a;
                for _ in 0..7 {
                    bits |= 1 << d;
                    if d == b {
                        break;
                    }
                    d = (d + 1) % 7;
                }
            }
            None => bits |= 1 << parse_weekday(part).ok_or_else(bad)?.num_days_from_monday(),
        }
    }
    if bits == 0 {
        return Err(bad());
    }
    Ok(Days(bits))
}

/// What a refusal quotes of the player's text: at most 40 characters.
fn shorten(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", t.get(..i).unwrap_or("")),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn durations_in_every_form_people_write() {
        for (text, secs) in [
            ("90", 90),
            ("30s", 30),
            ("1h30m", 5400),
            ("1h 30m", 5400),
            ("90 min", 5400),
            ("90min", 5400),
            ("2 hours", 7200),
            ("1.5h", 5400),
            ("3d", 259_200),
            ("2D", 172_800),
            ("1 day, 2 hours and 5 minutes", 93_900),
            ("1w", 604_800),
            ("0", 0),
            (".5m", 30),
            ("365d", 31_536_000),
        ] {
            assert_eq!(parse_duration(text), Ok(secs), "{text}");
        }
        for text in [
            "", "3x", "h", "5h3", "1..5h", "1.2.3h", "-1h", "1e9s", "hours", "10ms",
        ] {
            assert!(
                matches!(parse_duration(text), Err(TimeError::Duration(_))),
                "{text}"
            );
        }
        assert!(matches!(parse_duration("366d"), Err(TimeError::TooLong(_))));
        assert!(matches!(
            parse_duration("999999999999w"),
            Err(TimeError::TooLong(_))
        ));
        let msg = parse_duration("soon").unwrap_err().to_string();
        assert!(msg.contains("1h30m") && !msg.contains('\n'), "{msg}");
        assert_eq!(format_duration(5400), "1h30m");
        assert_eq!(format_duration(86_400), "1d");
    }

    #[test]
    fn zones_by_name_or_offset() {
        assert_eq!(
            parse_zone("europe/london").unwrap().to_string(),
            "Europe/London"
        );
        assert_eq!(parse_zone("UTC"), Ok(Zone::UTC));
        assert_eq!(parse_zone("utc").unwrap().to_string(), "UTC");
        assert_eq!(
            parse_zone("+02:00"),
            Ok(Zone::Fixed(FixedOffset::east_opt(7200).unwrap()))
        );
        assert_eq!(parse_zone("+02:00").unwrap().to_string(), "UTC+02:00");
        assert!(parse_zone("Mars/Olympus").is_err());
        assert!(parse_zone("+15:00").is_err());
        let london = parse_zone("Europe/London").unwrap();
        assert_eq!(london.offset_secs(at("2026-07-01T12:00:00Z")), 3600);
        assert_eq!(london.offset_secs(at("2026-12-01T12:00:00Z")), 0);
        assert_eq!(
            london.describe(at("2026-12-01T18:00:00Z")),
            "Tue 1 Dec 18:00 (Europe/London)"
        );
    }

    #[test]
    fn moments_read_in_the_zone() {
        let now = at("2026-03-28T12:00:00Z"); // a Saturday; London goes to BST on the 29th
        let london = parse_zone("Europe/London").unwrap();
        assert_eq!(
            parse_when("tomorrow 18:00", now, london),
            Ok(at("2026-03-29T17:00:00Z"))
        );
        assert_eq!(
            parse_when("2026-12-01 18:00", now, london),
            Ok(at("2026-12-01T18:00:00Z"))
        );
        assert_eq!(
            parse_when("2026-12-01T18:00", now, london),
            Ok(at("2026-12-01T18:00:00Z"))
        );
        assert_eq!(
            parse_when("<t:1796140800:F>", now, london),
            Ok(DateTime::from_timestamp(1_796_140_800, 0).unwrap())
        );
        assert_eq!(
            parse_when("in 90 min", now, london),
            Ok(at("2026-03-28T13:30:00Z"))
        );
        assert_eq!(
            parse_when("11:00", now, london),
            Ok(at("2026-03-29T10:00:00Z"))
        );
        assert_eq!(
            parse_when("mon 09:00", now, london),
            Ok(at("2026-03-30T08:00:00Z"))
        );
        // 01:30 on the 29th does not exist in London: it is read as 02:30 BST.
        assert_eq!(
            parse_when("2026-03-29 01:30", now, london),
            Ok(at("2026-03-29T01:30:00Z"))
        );
        for bad in [
            "soon",
            "2026-13-01 10:00",
            "tomorrow 25:00",
            "<t:abc>",
            "next week",
        ] {
            assert!(
                matches!(parse_when(bad, now, london), Err(TimeError::When(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn folds_read_as_the_first_instant() {
        let london = parse_zone("Europe/London").unwrap();
        let now = at("2026-10-20T12:00:00Z");
        // 01:30 on 25 Oct 2026 happens twice in London: the BST one is first.
        assert_eq!(
            parse_when("2026-10-25 01:30", now, london),
            Ok(at("2026-10-25T00:30:00Z"))
        );
        assert_eq!(
            parse_when("2026-10-25 02:30", now, london),
            Ok(at("2026-10-25T02:30:00Z"))
        );
    }

    /// British Columbia, Alberta and Manitoba keep summer time from November 2026
    /// (tzdb 2026f; 2025b had them fall back on 1 Nov).
    #[test]
    fn a_rule_newer_than_2025b_is_applied() {
        let vancouver = parse_zone("america/vancouver").unwrap();
        assert_eq!(vancouver.to_string(), "America/Vancouver");
        assert_eq!(vancouver.offset_secs(at("2026-07-01T12:00:00Z")), -7 * 3600);
        assert_eq!(vancouver.offset_secs(at("2026-12-15T12:00:00Z")), -7 * 3600);
        assert_eq!(
            vancouver.describe(at("2026-12-15T12:00:00Z")),
            "Tue 15 Dec 05:00 (America/Vancouver)"
        );
        let now = at("2026-12-10T12:00:00Z");
        assert_eq!(
            parse_when("2026-12-15 18:00", now, vancouver),
            Ok(at("2026-12-16T01:00:00Z"))
        );
        // No longer a fold: 01:30 on 1 Nov happens once.
        assert_eq!(
            parse_when("2026-11-01 01:30", now, vancouver),
            Ok(at("2026-11-01T08:30:00Z"))
        );
        let winnipeg = parse_zone("America/Winnipeg").unwrap();
        assert_eq!(winnipeg.offset_secs(at("2026-12-15T12:00:00Z")), -5 * 3600);
    }

    #[test]
    fn clocks_read_and_print() {
        for (text, bank, inc, shown) in [
            ("3d+12h", 259_200, 43_200, "3d+12h"),
            ("3d + 12 hours", 259_200, 43_200, "3d+12h"),
            ("2d", 172_800, 0, "2d"),
            ("1h30m+30s", 5400, 30, "1h30m+30s"),
            ("1d+0", 86_400, 0, "1d"),
        ] {
            let c = parse_clock(text).unwrap();
            assert_eq!((c.bank_secs, c.increment_secs), (bank, inc), "{text}");
            assert_eq!(c.to_string(), shown);
        }
        assert_eq!(parse_clock("0+1h"), Err(TimeError::ClockZero));
        assert_eq!(parse_clock("0"), Err(TimeError::ClockZero));
        for text in ["", "soon", "3d+", "+12h", "3d+12h+1h", "3d-12h"] {
            assert!(
                matches!(parse_clock(text), Err(TimeError::Clock(_))),
                "{text}"
            );
        }
        assert!(matches!(parse_clock("400d+1h"), Err(TimeError::TooLong(_))));
        assert!(matches!(parse_clock("1d+400d"), Err(TimeError::TooLong(_))));
        let msg = parse_clock("soon").unwrap_err().to_string();
        assert!(msg.contains("3d+12h") && !msg.contains('\n'), "{msg}");
    }

    #[test]
    fn quiet_hours_and_days() {
        let q = parse_quiet("23:00-07:00").unwrap();
        assert!(q.contains(23 * 60) && q.contains(0) && !q.contains(7 * 60));
        assert_eq!(q.to_string(), "23:00-07:00");
        assert!(parse_quiet("13:00-14:30").is_ok());
        assert!(matches!(
            parse_quiet("07:00-07:00"),
            Err(TimeError::QuietEmpty(_))
        ));
        assert!(matches!(
            parse_quiet("07:00-23:00"),
            Err(TimeError::QuietTooLong(_))
        ));
        assert!(matches!(parse_quiet("late"), Err(TimeError::Quiet(_))));
        assert!(matches!(
            parse_quiet("25:00-07:00"),
            Err(TimeError::Quiet(_))
        ));
        assert_eq!(parse_days("mon-fri"), Ok(Days(0b1_1111)));
        assert_eq!(parse_days("sat,sun").unwrap().to_string(), "sat,sun");
        assert_eq!(
            parse_days("fri-mon").unwrap().to_string(),
            "mon,fri,sat,sun"
        );
        assert_eq!(parse_days("all"), Ok(Days::ALL));
        assert!(parse_days("").is_err());
        assert!(parse_days("funday").is_err());
        assert!(parse_days(",").is_err());
    }
}
