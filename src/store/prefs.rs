//! Players' and servers' time settings (issue 17): a player's zone and quiet hours
//! (`/race me`), a server's default zone (`/photofinish config`). Stored as the text the
//! person gave once it was checked; the referee reads it with `referee::when`.

use super::dialect::Dialect;
use super::queries::SqlStore;
use super::sql::{Get, Stmt};
use super::{CampaignId, Millis, StoreError, TimeContext, UserId, UserTime};

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
        self.run(
            Stmt::new(
                "INSERT INTO user_time (user_id, zone, quiet, updated_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (user_id) DO UPDATE
                 SET zone = excluded.zone, quiet = excluded.quiet, updated_at = excluded.updated_at",
            )
            .bind(&t.user.0)
            .bind(&t.zone)
            .bind(&t.quiet)
            .bind(now),
        )
        .await?;
        Ok(())
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
        self.run(
            Stmt::new(
                "INSERT INTO guild_time (guild, zone, updated_at) VALUES ($1, $2, $3)
                 ON CONFLICT (guild) DO UPDATE
                 SET zone = excluded.zone, updated_at = excluded.updated_at",
            )
            .bind(guild)
            .bind(zone)
            .bind(now),
        )
        .await?;
        Ok(())
    }

    /// The race's server zone and the time settings of every seated player who has any.
    pub(super) async fn read_time_context(
        &self,
        race: CampaignId,
    ) -> Result<TimeContext, StoreError> {
        Ok(self.read_version_and_time(race).await?.1)
    }

    /// The campaign's version and its time context, in one query: the campaign's row (its
    /// version, and its server's zone if any) without a user, then each player's.
    pub(super) async fn read_version_and_time(
        &self,
        race: CampaignId,
    ) -> Result<(Option<i64>, TimeContext), StoreError> {
        // On the writer's connection: the referee commits there next, and a connection
        // that reads what another wrote first drops its page cache.
        let found = Stmt::<DB>::new(
            "SELECT c.version AS version, NULL AS user_id, g.zone AS zone, NULL AS quiet
             FROM campaigns c LEFT JOIN guild_time g ON g.guild = c.guild
             WHERE c.id = $1
             UNION ALL
             SELECT NULL, u.user_id, u.zone, u.quiet FROM user_time u
             JOIN seats s ON s.user_id = u.user_id
             WHERE s.campaign_id = $1",
        )
        .bind(race.0);
        let mut lease = self.writer.lease().await?;
        let found = found.fetch_all(lease.conn()?).await?;
        lease.keep();
        let mut version = None;
        let mut guild_zone = None;
        let mut users = Vec::new();
        for r in &found {
            match r.opt_text("user_id")? {
                None => {
                    version = r.opt_int("version")?;
                    guild_zone = r.opt_text("zone")?;
                }
                Some(user) => users.push(UserTime {
                    user: UserId(user),
                    zone: r.opt_text("zone")?,
                    quiet: r.opt_text("quiet")?,
                }),
            }
        }
        users.sort_by(|a, b| a.user.cmp(&b.user));
        users.dedup_by(|a, b| a.user == b.user);
        Ok((version, TimeContext { guild_zone, users }))
    }
}
