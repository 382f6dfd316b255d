//! Beyond one race (migration 16): which series a race counts toward, who hides
//! their statistics, and the Rematch button's claim (one lobby per finished race); and
//! (migration 19) the series a host opens ahead, with its race count and points.

use super::dialect::Dialect;
use super::error::StoreError;
use super::queries::SqlStore;
use super::records::{RematchClaim, SeriesDef};
use super::sql::{Get, Stmt};
use crate::vocab::{CampaignId, Millis, UserId};

impl<DB: Dialect> SqlStore<DB> {
    /// Opens `channel`'s series `def.name`; false if a series of that name (in any case)
    /// is there already.
    pub(super) async fn write_series_def(
        &self,
        channel: &str,
        def: &SeriesDef,
        at: Millis,
    ) -> Result<bool, StoreError> {
        let n = self
            .run(
                Stmt::new(
                    "INSERT INTO series_defs (channel, folded, name, races, points, host, opened_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (channel, folded) DO NOTHING",
                )
                .bind(channel)
                .bind(def.name.to_lowercase())
                .bind(def.name.as_str())
                .bind(i64::from(def.races))
                .bind(def.points.as_str())
                .bind(&def.host.0)
                .bind(at),
            )
            .await?;
        Ok(n == 1)
    }

    pub(super) async fn read_series_def(
        &self,
        channel: &str,
        name: &str,
    ) -> Result<Option<SeriesDef>, StoreError> {
        let row = self
            .row(
                Stmt::new(
                    "SELECT name, races, points, host FROM series_defs
                     WHERE channel = $1 AND folded = $2",
                )
                .bind(channel)
                .bind(name.to_lowercase()),
            )
            .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(SeriesDef {
            name: r.text("name")?,
            races: u32::try_from(r.int("races")?).unwrap_or(u32::MAX),
            points: r.text("points")?,
            host: UserId::new(r.text("host")?),
        }))
    }

    pub(super) async fn write_series(
        &self,
        race: CampaignId,
        channel: &str,
        name: &str,
    ) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "INSERT INTO race_series (campaign, channel, name) VALUES ($1, $2, $3)
                 ON CONFLICT (campaign) DO UPDATE SET channel = excluded.channel, name = excluded.name",
            )
            .bind(race.0)
            .bind(channel)
            .bind(name),
        )
        .await?;
        Ok(())
    }

    pub(super) async fn read_series_of(
        &self,
        race: CampaignId,
    ) -> Result<Option<String>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT name FROM race_series WHERE campaign = $1").bind(race.0))
            .await?;
        Ok(match row {
            Some(r) => Some(r.text("name")?),
            None => None,
        })
    }

    pub(super) async fn read_series_races(
        &self,
        channel: &str,
        name: &str,
    ) -> Result<Vec<(CampaignId, String)>, StoreError> {
        // Names match without regard to (ASCII) case: "autumn cup" finds "Autumn Cup".
        let rows = self
            .rows(
                Stmt::new(
                    "SELECT campaign, name FROM race_series
                     WHERE channel = $1 AND LOWER(name) = LOWER($2)
                     ORDER BY campaign",
                )
                .bind(channel)
                .bind(name),
            )
            .await?;
        rows.iter()
            .map(|r| Ok((CampaignId(r.int("campaign")?), r.text("name")?)))
            .collect()
    }

    pub(super) async fn write_stats_hidden(
        &self,
        user: &UserId,
        hidden: bool,
        at: Millis,
    ) -> Result<(), StoreError> {
        let stmt = if hidden {
            Stmt::new(
                "INSERT INTO stats_hidden (user_id, at) VALUES ($1, $2)
                 ON CONFLICT (user_id) DO UPDATE SET at = excluded.at",
            )
            .bind(&user.0)
            .bind(at)
        } else {
            Stmt::new("DELETE FROM stats_hidden WHERE user_id = $1").bind(&user.0)
        };
        self.run(stmt).await?;
        Ok(())
    }

    pub(super) async fn read_stats_hidden(&self, user: &UserId) -> Result<bool, StoreError> {
        let row = self
            .row(Stmt::new("SELECT at FROM stats_hidden WHERE user_id = $1").bind(&user.0))
            .await?;
        Ok(row.is_some())
    }

    /// The insert is the claim: the primary key lets one caller in, on either database.
    pub(super) async fn write_rematch_claim(
        &self,
        race: CampaignId,
        at: Millis,
    ) -> Result<RematchClaim, StoreError> {
        let inserted = self
            .run(
                Stmt::new(
                    "INSERT INTO rematches (campaign, claimed_at) VALUES ($1, $2)
                     ON CONFLICT (campaign) DO NOTHING",
                )
                .bind(race.0)
                .bind(at),
            )
            .await?;
        if inserted > 0 {
            return Ok(RematchClaim::Claimed);
        }
        let row = self
            .row(Stmt::new("SELECT rematch FROM rematches WHERE campaign = $1").bind(race.0))
            .await?;
        Ok(RematchClaim::Taken(match row {
            Some(r) => r.opt_int("rematch")?.map(CampaignId),
            None => None,
        }))
    }

    pub(super) async fn write_rematch_settled(
        &self,
        race: CampaignId,
        rematch: Option<CampaignId>,
    ) -> Result<(), StoreError> {
        let stmt = match rematch {
            Some(new) => Stmt::new("UPDATE rematches SET rematch = $1 WHERE campaign = $2")
                .bind(new.0)
                .bind(race.0),
            None => Stmt::new("DELETE FROM rematches WHERE campaign = $1").bind(race.0),
        };
        self.run(stmt).await?;
        Ok(())
    }

    pub(super) async fn read_rematch_of(
        &self,
        race: CampaignId,
    ) -> Result<Option<CampaignId>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT campaign FROM rematches WHERE rematch = $1").bind(race.0))
            .await?;
        Ok(match row {
            Some(r) => Some(CampaignId(r.int("campaign")?)),
            None => None,
        })
    }
}
