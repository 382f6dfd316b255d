//! Players' and servers' time settings: a player's zone and quiet hours
//! (`/race me`), a server's default zone (`/photofinish config`). Stored as the text the
//! person gave once it was checked; the referee reads it with `referee::when`.

use super::dialect::Dialect;
use super::error::StoreError;
use super::error::db_err;
use super::queries::SqlStore;
use super::sql::{Get, Stmt};
use crate::vocab::{CampaignId, Millis, TimeContext, UserId, UserTime};

impl<DB: Dialect> SqlStore<DB> {
    pub(super) async fn read_user_time(&self, user: &UserId) -> Result<UserTime, StoreError> {
        let row = self
            .row(Stmt::new("SELECT zone, quiet FROM user_time WHERE user_id = $1").bind(&user.0))
            .await?;
        Ok(match row {
            Some(r) => UserTime {
                user: user.clone(),
                zone: r.opt_text("zone")?,
                quiet: r.opt_text("quiet")?,
            },
            None => UserTime {
                user: user.clone(),
                zone: None,
                quiet: None,
            },
        })
    }

    pub(super) async fn write_user_time(
        &self,
        t: &UserTime,
        now: Millis,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        Stmt::<DB>::new(
            "INSERT INTO user_time (user_id, zone, quiet, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id) DO UPDATE
             SET zone = excluded.zone, quiet = excluded.quiet, updated_at = excluded.updated_at",
        )
        .bind(&t.user.0)
        .bind(&t.zone)
        .bind(&t.quiet)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // The referee decides from a cached race and its time context until the version
        // moves: a new setting moves the versions of the races it counts in.
        Stmt::<DB>::new(
            "UPDATE campaigns SET version = version + 1
             WHERE phase IN ('lobby', 'running', 'paused')
               AND id IN (SELECT campaign_id FROM seats WHERE user_id = $1)",
        )
        .bind(&t.user.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await.map_err(db_err)
    }

    pub(super) async fn read_guild_zone(&self, guild: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT zone FROM guild_time WHERE guild = $1").bind(guild))
            .await?;
        Ok(match row {
            Some(r) => Some(r.text("zone")?),
            None => None,
        })
    }

    pub(super) async fn write_guild_zone(
        &self,
        guild: &str,
        zone: &str,
        now: Millis,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        Stmt::<DB>::new(
            "INSERT INTO guild_time (guild, zone, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (guild) DO UPDATE
             SET zone = excluded.zone, updated_at = excluded.updated_at",
        )
        .bind(guild)
        .bind(zone)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // As for a player's setting (`write_user_time`).
        Stmt::<DB>::new(
            "UPDATE campaigns SET version = version + 1
             WHERE guild = $1 AND phase IN ('lobby', 'running', 'paused')",
        )
        .bind(guild)
        .execute(&mut *tx)
        .await?;
        tx.commit().await.map_err(db_err)
    }

    /// The race's server zone and the time settings of every seated player who has any.
    pub(super) async fn read_time_context(
        &self,
        race: CampaignId,
    ) -> Result<TimeContext, StoreError> {
        // In one query: the campaign's row (its server's zone if any) without a user, then
        // each player's.
        let found = Stmt::<DB>::new(
            "SELECT NULL AS user_id, g.zone AS zone, NULL AS quiet
             FROM campaigns c LEFT JOIN guild_time g ON g.guild = c.guild
             WHERE c.id = $1
             UNION ALL
             SELECT u.user_id, u.zone, u.quiet FROM user_time u
             JOIN seats s ON s.user_id = u.user_id
             WHERE s.campaign_id = $1",
        )
        .bind(race.0);
        let found = found.fetch_all(&mut *self.conn().await?).await?;
        let mut guild_zone = None;
        let mut users = Vec::new();
        for r in &found {
            match r.opt_text("user_id")? {
                None => guild_zone = r.opt_text("zone")?,
                Some(user) => users.push(UserTime {
                    user: UserId(user),
                    zone: r.opt_text("zone")?,
                    quiet: r.opt_text("quiet")?,
                }),
            }
        }
        users.sort_by(|a, b| a.user.cmp(&b.user));
        users.dedup_by(|a, b| a.user == b.user);
        Ok(TimeContext { guild_zone, users })
    }
}
