//! Ratings per server and game: Weng-Lin (OpenSkill, the `skillratings`
//! crate) over every finished race, oldest first. They are computed from the stored
//! results each time and kept nowhere, so recomputing them from scratch gives the same
//! numbers by construction.
//!
//! Every seat is its own entrant, ranked as the game's outcome ranks it: tied seats share
//! a rank, and the partners of a team game share their team's rank. A person is one
//! entrant across races (by user id; a seat a bot took over after they left still
//! counts as theirs). Bots are rated too, one entrant per bot name and level, and marked.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::error::RefereeError;
use super::machine::Referee;
use crate::games::GameKind;
use crate::store::Loaded;
use crate::vocab::Phase;

/// One entrant's place in one race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Who across races: `user:ID`, or `bot:LEVEL:NAME`.
    pub key: String,
    pub name: String,
    pub bot: bool,
    /// 1 is the winner; ties share it.
    pub rank: u32,
}

/// One entrant's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub key: String,
    /// Their name in their latest race.
    pub name: String,
    pub bot: bool,
    /// Weng-Lin's mean (mu) and uncertainty (sigma).
    pub mu: f64,
    pub sigma: f64,
    pub races: u32,
    pub wins: u32,
}

impl Rating {
    /// The rating shown and ranked by: mu - 3 sigma, so one lucky race does not top the
    /// table.
    pub fn shown(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// Ratings from results, oldest race first; best first (ties by key, so the order is
/// stable).
pub fn rate(races: &[Vec<Entrant>]) -> Vec<Rating> {
    let config = WengLinConfig::new();
    let mut table: Vec<Rating> = Vec::new();
    for race in races {
        if race.len() < 2 {
            continue;
        }
        let slot = |table: &mut Vec<Rating>, e: &Entrant| -> usize {
            if let Some(i) = table.iter().position(|r| r.key == e.key) {
                return i;
            }
            let fresh = WengLinRating::new();
            table.push(Rating {
                key: e.key.clone(),
                name: e.name.clone(),
                bot: e.bot,
                mu: fresh.rating,
                sigma: fresh.uncertainty,
                races: 0,
                wins: 0,
            });
            table.len().saturating_sub(1)
        };
        let slots: Vec<usize> = race.iter().map(|e| slot(&mut table, e)).collect();
        let before: Vec<[WengLinRating; 1]> = slots
            .iter()
            .filter_map(|&i| table.get(i))
            .map(|r| {
                [WengLinRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                }]
            })
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = before
            .iter()
            .zip(race)
            .map(|(r, e)| {
                (
                    &r[..],
                    MultiTeamOutcome::new(usize::try_from(e.rank).unwrap_or(usize::MAX)),
                )
            })
            .collect();
        let after = weng_lin_multi_team(&teams, &config);
        for ((&i, e), new) in slots.iter().zip(race).zip(after) {
            let (Some(r), Some(new)) = (table.get_mut(i), new.first()) else {
                continue;
            };
            r.mu = new.rating;
            r.sigma = new.uncertainty;
            r.name.clone_from(&e.name);
            r.races = r.races.saturating_add(1);
            if e.rank == 1 {
                r.wins = r.wins.saturating_add(1);
            }
        }
    }
    table.sort_by(|a, b| b.shown().total_cmp(&a.shown()).then(a.key.cmp(&b.key)));
    table
}

/// A finished race's entrants, or nothing for a race without a result.
pub fn entrants(loaded: &Loaded) -> Vec<Entrant> {
    let Some(outcome) = loaded
        .campaign
        .state
        .as_ref()
        .and_then(crate::games::AnyGame::outcome)
    else {
        return Vec::new();
    };
    outcome
        .placings
        .iter()
        .filter_map(|p| {
            let seat = loaded.seats.iter().find(|s| s.seat == p.seat)?;
            let (key, bot) = match (&seat.user, seat.bot) {
                (Some(user), _) => (format!("user:{user}"), false),
                (None, level) => (
                    format!(
                        "bot:{}:{}",
                        serde_json::to_value(level.unwrap_or_default())
                            .ok()
                            .and_then(|v| v.as_str().map(String::from))
                            .unwrap_or_default(),
                        seat.name
                    ),
                    true,
                ),
            };
            Some(Entrant {
                key,
                name: seat.name.clone(),
                bot,
                rank: p.rank,
            })
        })
        .collect()
}

/// The most races of a server read for its ratings.
pub const RATED_RACES: u32 = 10_000;

impl Referee {
    /// A server's ratings in one game, from every finished race of it, best first.
    pub async fn ratings(&self, guild: &str, game: GameKind) -> Result<Vec<Rating>, RefereeError> {
        let mut ids = self.store.races_of_guild(guild, None, RATED_RACES).await?;
        ids.reverse();
        let mut races = Vec::new();
        for id in ids {
            match self.load(id).await {
                Ok(Some(l)) if l.campaign.kind == game && l.campaign.phase == Phase::Finished => {
                    races.push(entrants(&l));
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(
                    race = id.0,
                    "ratings: race left out: {}",
                    e.operator_detail()
                ),
            }
        }
        Ok(rate(&races))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(key: &str, rank: u32) -> Entrant {
        Entrant {
            key: key.into(),
            name: key.into(),
            bot: false,
            rank,
        }
    }

    #[test]
    fn the_winner_rises_the_last_falls_and_a_tie_is_even() {
        let table = rate(&[vec![e("a", 1), e("b", 2), e("c", 3)]]);
        let of = |k: &str| table.iter().find(|r| r.key == k).unwrap().clone();
        assert!(of("a").mu > 25.0 && of("c").mu < 25.0, "{table:?}");
        assert_eq!(table[0].key, "a");
        assert_eq!((of("a").races, of("a").wins, of("b").wins), (1, 1, 0));
        let tie = rate(&[vec![e("x", 1), e("y", 1)]]);
        assert!((tie[0].mu - tie[1].mu).abs() < 1e-9, "{tie:?}");
        // The same results give the same numbers.
        assert_eq!(rate(&[vec![e("a", 1), e("b", 2), e("c", 3)]]), table);
    }
}
