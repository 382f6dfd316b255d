//! A player's statistics on a server, per game: races, wins, podiums, average
//! place, rating, missed-order rate and median answer time, all from the stored races
//! (nothing is kept apart, so they cannot drift from the results). A player may hide
//! theirs: others are then refused in one sentence, and the leaderboard shows the line
//! without name or numbers (docs/discord.md).

use super::error::RefereeError;
use super::machine::Referee;
use super::ratings::{RATED_RACES, entrants, rate};
use crate::games::GameKind;
use crate::store::{Loaded, OrderSource};
use crate::vocab::{Phase, UserId};

/// One game's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameStats {
    pub game: GameKind,
    /// Finished races they held a seat in.
    pub races: u32,
    pub wins: u32,
    /// Placed first, second or third (ties share a rank).
    pub podiums: u32,
    /// Their mean final rank.
    pub average_place: f64,
    /// The rating shown on the leaderboard (mu - 3 sigma) and their place on it.
    pub rating: Option<f64>,
    pub rank: Option<usize>,
    /// Orders owed by their seats, and how many of those a missed deadline played.
    pub orders: u32,
    pub missed: u32,
    /// The median time from a step's opening to their own order, in milliseconds.
    pub median_answer_ms: Option<i64>,
}

/// A player's statistics on one server.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    pub user: UserId,
    /// Their seat name in their latest race.
    pub name: Option<String>,
    pub hidden: bool,
    pub games: Vec<GameStats>,
}

/// The refusal for another's hidden statistics (one sentence, naming no number).
pub const HIDDEN: &str = "this player hides their statistics";

impl Referee {
    /// Hides (`true`) or shows again a player's statistics to others.
    pub async fn set_stats_hidden(&self, user: &UserId, hidden: bool) -> Result<(), RefereeError> {
        self.store
            .set_stats_hidden(user, hidden, self.clock.now())
            .await?;
        Ok(())
    }

    /// Whether a player hides their statistics.
    pub async fn stats_hidden(&self, user: &UserId) -> Result<bool, RefereeError> {
        Ok(self.store.stats_hidden(user).await?)
    }

    /// `user`'s statistics on `guild`, as `asker` may see them: refused when they hide
    /// them from others.
    pub async fn player_stats(
        &self,
        guild: &str,
        user: &UserId,
        asker: &UserId,
    ) -> Result<PlayerStats, RefereeError> {
        let hidden = self.store.stats_hidden(user).await?;
        if hidden && user != asker {
            return Err(RefereeError::Invalid(HIDDEN.into()));
        }
        let mut ids = self.store.races_of_guild(guild, None, RATED_RACES).await?;
        ids.reverse();
        let mut finished: Vec<Loaded> = Vec::new();
        for id in ids {
            match self.load(id).await {
                Ok(Some(l)) if l.campaign.phase == Phase::Finished => finished.push(l),
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(race = id.0, "stats: race left out: {}", e.operator_detail());
                }
            }
        }
        let key = format!("user:{user}");
        let mut games: Vec<GameStats> = Vec::new();
        let mut name = None;
        let mut places: Vec<(GameKind, u32)> = Vec::new();
        let mut answers: Vec<(GameKind, i64)> = Vec::new();
        for l in &finished {
            let Some(me) = entrants(l).into_iter().find(|e| e.key == key) else {
                continue;
            };
            name = Some(me.name.clone());
            let game = l.campaign.kind;
            places.push((game, me.rank));
            let (owed, missed) = self
                .orders_of(l, user, game, &mut answers)
                .await
                .unwrap_or((0, 0));
            let g = match games.iter().position(|g| g.game == game) {
                Some(i) => i,
                None => {
                    games.push(GameStats {
                        game,
                        races: 0,
                        wins: 0,
                        podiums: 0,
                        average_place: 0.0,
                        rating: None,
                        rank: None,
                        orders: 0,
                        missed: 0,
                        median_answer_ms: None,
                    });
                    games.len().saturating_sub(1)
                }
            };
            if let Some(g) = games.get_mut(g) {
                g.races = g.races.saturating_add(1);
                g.wins = g.wins.saturating_add(u32::from(me.rank == 1));
                g.podiums = g.podiums.saturating_add(u32::from(me.rank <= 3));
                g.orders = g.orders.saturating_add(owed);
                g.missed = g.missed.saturating_add(missed);
            }
        }
        for g in &mut games {
            let mine: Vec<u32> = places
                .iter()
                .filter(|(k, _)| *k == g.game)
                .map(|(_, r)| *r)
                .collect();
            let sum: f64 = mine.iter().map(|r| f64::from(*r)).sum();
            g.average_place = sum / f64::from(g.races.max(1));
            let races: Vec<_> = finished
                .iter()
                .filter(|l| l.campaign.kind == g.game)
                .map(entrants)
                .collect();
            let table = rate(&races);
            if let Some(at) = table.iter().position(|r| r.key == key) {
                g.rank = Some(at.saturating_add(1));
                g.rating = table.get(at).map(super::ratings::Rating::shown);
            }
            let mut times: Vec<i64> = answers
                .iter()
                .filter(|(k, _)| *k == g.game)
                .map(|(_, t)| *t)
                .collect();
            times.sort_unstable();
            g.median_answer_ms = times.get(times.len() / 2).copied();
        }
        Ok(PlayerStats {
            user: user.clone(),
            name,
            hidden,
            games,
        })
    }

    /// The orders `user`'s seats owed in a race: how many, how many a missed deadline
    /// played, and (into `answers`) how long each of their own took.
    async fn orders_of(
        &self,
        l: &Loaded,
        user: &UserId,
        game: GameKind,
        answers: &mut Vec<(GameKind, i64)>,
    ) -> Result<(u32, u32), RefereeError> {
        let seats: Vec<_> = l
            .seats
            .iter()
            .filter(|s| s.user.as_ref() == Some(user))
            .map(|s| s.seat)
            .collect();
        let log = self.store.log(l.campaign.id).await?;
        let (mut owed, mut missed) = (0u32, 0u32);
        for step in &log {
            for o in step.orders.iter().filter(|o| seats.contains(&o.seat)) {
                match o.source {
                    OrderSource::Player => {
                        owed = owed.saturating_add(1);
                        answers.push((
                            game,
                            o.submitted_at.saturating_sub(step.turn.opened_at).max(0),
                        ));
                    }
                    OrderSource::Default => {
                        owed = owed.saturating_add(1);
                        missed = missed.saturating_add(1);
                    }
                    // Autopilot's and a bot's orders asked nothing of the player.
                    OrderSource::Auto | OrderSource::Bot => {}
                }
            }
        }
        Ok((owed, missed))
    }
}
