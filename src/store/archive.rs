//! The archive's query: a server's races, newest first, a page at a time.

use super::dialect::Dialect;
use super::error::StoreError;
use super::queries::SqlStore;
use super::rows::{all, campaign_id};
use super::sql::Stmt;
use crate::vocab::CampaignId;

impl<DB: Dialect> SqlStore<DB> {
    pub(super) async fn read_races_of_guild(
        &self,
        guild: &str,
        before: Option<CampaignId>,
        limit: u32,
    ) -> Result<Vec<CampaignId>, StoreError> {
        let before = before.map_or(i64::MAX, |b| b.0);
        let found = self
            .rows(
                Stmt::new(
                    "SELECT id FROM campaigns WHERE guild = $1 AND id < $2
                     ORDER BY id DESC LIMIT $3",
                )
                .bind(guild)
                .bind(before)
                .bind(i64::from(limit)),
            )
            .await?;
        all(&found, campaign_id)
    }
}
