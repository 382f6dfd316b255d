//! Absence: `/race away until:` or `days:`, and `/race back` (or
//! `/race away back:True`).
//!
//! Ruling (docs/discord.md, docs/time.md): until the absence ends, each of the player's
//! seats in every race in play is played without them, **at once** when a step opens:
//! forced and obvious orders by autopilot, the rest by the built-in bot. At once rather
//! than at the deadline, because nobody is there to answer: waiting would only hold the
//! others up, and a bot's choice is no worse than the default order the deadline plays.
//! Each race's channel is told once. `away-cap=N` caps the days of absence one seat may
//! book in a race: one absence longer than the cap is refused; absences that add up past
//! it are accepted, and the host is told once that they can `/race replace` the seat.

use chrono::DateTime;

use super::error::RefereeError;
use super::machine::{Actor, Referee};
use super::when::{self, Zone};
use super::work::Work;
use crate::vocab::{CampaignId, Millis, UserId};

const DAY_MS: Millis = 86_400_000;
/// The longest absence: a year.
pub const MAX_AWAY_DAYS: u32 = 366;

/// What `/race away` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwayReport {
    pub until: Millis,
    /// The user's zone, in which the answer names `until`.
    pub zone: Zone,
    /// The races whose seat is now away.
    pub races: Vec<CampaignId>,
}

fn invalid(text: impl Into<String>) -> RefereeError {
    RefereeError::Invalid(text.into())
}

/// Days, rounded up, in `ms`.
fn days_in(ms: Millis) -> Millis {
    ms.saturating_add(DAY_MS - 1) / DAY_MS
}

impl Work {
    /// Books an absence until `until` for the user's seat and tells the channel once;
    /// tells the host once when the seat's absences pass the race's cap.
    fn set_away(&mut self, user: &UserId, until: Millis) -> Result<(), RefereeError> {
        let Some(row) = self.seat_of_user(user) else {
            return Ok(());
        };
        let (seat, name) = (row.seat, row.name.clone());
        let mut away = row.away.clone().unwrap_or_default();
        if away.until == until {
            return Ok(());
        }
        // A running absence is replaced: its unused part is given back first.
        let unused = away.until.saturating_sub(self.now).max(0);
        away.used_ms = away
            .used_ms
            .saturating_sub(unused)
            .max(0)
            .saturating_add(until.saturating_sub(self.now));
        away.until = until;
        let cap = self.campaign.timing.calendar.away_cap_days;
        let over_cap = cap.is_some_and(|c| away.used_ms > Millis::from(c).saturating_mul(DAY_MS));
        let tell_host = over_cap && !away.cap_told;
        away.cap_told |= over_cap;
        if let Some(s) = self.seats.iter_mut().find(|s| s.seat == seat) {
            s.away = Some(away);
        }
        self.touch_seats();
        let date = DateTime::from_timestamp_millis(until)
            .map(|at| self.race_zone().describe(at))
            .unwrap_or_default();
        self.notice(
            if crate::games::words::is_you(&name) {
                format!("You are away until {date}; your runner is on autopilot.")
            } else {
                format!("{name} is away until {date}; their runner is on autopilot.")
            },
            None,
            None,
        );
        if tell_host {
            let cap = cap.unwrap_or_default();
            self.notice(format!(
                        "{{user}}: {name} has now booked more than this race's {cap} days away (away-cap={cap}); as host you can `/race replace` the seat."
                    ), None, Some(self.campaign.host.clone()));
        }
        self.autoplay_now()
    }

    /// Ends the user's absence in this race; tells the channel. `false`: not away here.
    fn set_back(&mut self, user: &UserId) -> bool {
        let now = self.now;
        let Some(row) = self
            .seats
            .iter_mut()
            .find(|s| s.user.as_ref() == Some(user))
        else {
            return false;
        };
        let Some(away) = row.away.as_mut().filter(|a| a.until > now) else {
            return false;
        };
        let unused = away.until.saturating_sub(now);
        away.used_ms = away.used_ms.saturating_sub(unused).max(0);
        away.until = now;
        let name = row.name.clone();
        self.touch_seats();
        self.notice(
            format!("{name} is back; their runner is theirs again."),
            None,
            None,
        );
        true
    }
}

impl Referee {
    /// The user's own zone, else UTC.
    async fn zone_of(&self, user: &UserId) -> Zone {
        match self.store.user_time(user).await {
            Ok(t) => t
                .zone
                .as_deref()
                .and_then(|z| when::parse_zone(z).ok())
                .unwrap_or(Zone::UTC),
            Err(_) => Zone::UTC,
        }
    }
}

/// When an absence asked for as `until` (a date, in the user's zone) or `days` ends;
/// bad input is refused in one sentence.
pub fn absence_end(
    until: Option<&str>,
    days: Option<u32>,
    now: Millis,
    zone: Zone,
) -> Result<Millis, RefereeError> {
    let latest = now.saturating_add(Millis::from(MAX_AWAY_DAYS).saturating_mul(DAY_MS));
    let at = match (until.map(str::trim).filter(|t| !t.is_empty()), days) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                "give either `until:` or `days:`, not both, such as `days:5`",
            ));
        }
        (None, None) => {
            return Err(invalid(
                "say how long you are away: `until:` a date such as 2026-12-05, or `days:` such as 5",
            ));
        }
        (None, Some(d)) => {
            if d == 0 || d > MAX_AWAY_DAYS {
                return Err(invalid(format!(
                    "`days:` is from 1 to {MAX_AWAY_DAYS}, such as 5"
                )));
            }
            now.saturating_add(Millis::from(d).saturating_mul(DAY_MS))
        }
        (Some(text), None) => {
            let now_at = DateTime::from_timestamp_millis(now)
                .ok_or_else(|| invalid("the clock is unreadable"))?;
            when::parse_when(text, now_at, zone)
                .map_err(|e| invalid(e.to_string()))?
                .timestamp_millis()
        }
    };
    if at <= now {
        return Err(invalid(
            "that date has passed; give a date to come, such as `until:2026-12-05`",
        ));
    }
    if at > latest {
        return Err(invalid(format!(
            "an absence lasts at most {MAX_AWAY_DAYS} days"
        )));
    }
    Ok(at)
}

impl Referee {
    /// `/race away`: the user's seats in every race in play are played without them until
    /// the absence ends. Refused, changing nothing, on bad input or an absence longer than a
    /// race's `away-cap=`.
    pub async fn away(
        &self,
        actor: &Actor,
        until: Option<&str>,
        days: Option<u32>,
    ) -> Result<AwayReport, RefereeError> {
        self.pace_action(&actor.user)?;
        let now = self.clock.now();
        let zone = self.zone_of(&actor.user).await;
        let at = absence_end(until, days, now, zone)?;
        let races = self.store.campaigns_of_user(&actor.user).await?;
        if races.is_empty() {
            return Err(invalid("you have no race in play to be away from"));
        }
        let length = days_in(at.saturating_sub(now));
        for &id in &races {
            let w = self.read(id).await?;
            if let Some(cap) = w.campaign.timing.calendar.away_cap_days
                && length > Millis::from(cap)
            {
                return Err(invalid(format!(
                    "race #{} allows at most {cap} days away at a time (away-cap={cap}); ask for {cap} days or fewer",
                    id.0
                )));
            }
        }
        for &id in &races {
            self.mutate(id, |w| w.set_away(&actor.user, at)).await?;
        }
        Ok(AwayReport {
            until: at,
            zone,
            races,
        })
    }

    /// `/race back` (or `/race away back:True`): ends the user's absence in every race;
    /// the next step asks again.
    pub async fn back(&self, actor: &Actor) -> Result<Vec<CampaignId>, RefereeError> {
        self.pace_action(&actor.user)?;
        let mut ended = Vec::new();
        for id in self.store.campaigns_of_user(&actor.user).await? {
            if self.mutate(id, |w| Ok(w.set_back(&actor.user))).await? {
                ended.push(id);
            }
        }
        if ended.is_empty() {
            return Err(invalid("you are not away"));
        }
        Ok(ended)
    }
}

/// Reads `away-cap=`: days, `7` or `7d`, from 1 to a year; `off` or `none`: no cap.
pub fn parse_cap(value: &str) -> Result<Option<u32>, RefereeError> {
    let v = value.trim().to_ascii_lowercase();
    if matches!(v.as_str(), "off" | "none") {
        return Ok(None);
    }
    let digits = v.strip_suffix('d').unwrap_or(&v);
    match digits.parse::<u32>() {
        Ok(d) if (1..=MAX_AWAY_DAYS).contains(&d) => Ok(Some(d)),
        _ => Err(invalid(format!(
            "`away-cap` takes days of absence per seat, from 1 to {MAX_AWAY_DAYS}, such as `away-cap=7` (or `off`)"
        ))),
    }
}

/// `/race away`'s answer.
pub fn describe(report: &AwayReport) -> String {
    let date = DateTime::from_timestamp_millis(report.until)
        .map(|at| report.zone.describe(at))
        .unwrap_or_default();
    let races: Vec<String> = report.races.iter().map(|r| format!("#{}", r.0)).collect();
    format!(
        "You are away until {date}: in race {}, forced and obvious orders are played by autopilot and the rest by the bot, at once. `/race back` ends it.",
        races.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_up() {
        assert_eq!(days_in(1), 1);
        assert_eq!(days_in(DAY_MS), 1);
        assert_eq!(days_in(DAY_MS + 1), 2);
        assert_eq!(crate::store::SeatAway::default().until, 0);
    }

    proptest::proptest! {
        /// Any text or number is an end within a year after now, or one sentence.
        #[test]
        fn any_absence_is_an_end_within_a_year_or_a_sentence(
            text in "\\PC{0,40}",
            days in proptest::option::of(0u32..2_000),
            now in 0i64..4_000_000_000_000,
        ) {
            match absence_end(Some(&text), days, now, Zone::UTC) {
                Ok(at) => proptest::prop_assert!(
                    at > now && at <= now + Millis::from(MAX_AWAY_DAYS) * DAY_MS
                ),
                Err(RefereeError::Invalid(why)) => proptest::prop_assert!(!why.contains('\n')),
                Err(e) => proptest::prop_assert!(false, "{e:?}"),
            }
            let _ = parse_cap(&text);
        }
    }

    #[test]
    fn the_cap_reads_days_or_off() {
        assert_eq!(parse_cap("7").ok(), Some(Some(7)));
        assert_eq!(parse_cap(" 14d ").ok(), Some(Some(14)));
        assert_eq!(parse_cap("off").ok(), Some(None));
        for bad in ["0", "367", "-1", "a week", ""] {
            assert!(parse_cap(bad).is_err(), "{bad}");
        }
    }
}
