//! Retention (docs/reliability.md, "Retention"): what a race no longer needs once it has
//! ended long enough ago is deleted, so that the database grows with the number of races,
//! not with the number of clicks. Written once for both backends, like `queries.rs`.
//!
//! Deleted, for races finished or cancelled before the cut-off: superseded orders,
//! delivered (or given-up) announcements, fired deadlines and outbox leases; and, for
//! every race, interaction claims past their expiry. Kept, because `verify`, `/race
//! history` and replays read them: the campaign row with its revealed seed, the seats,
//! the turns, the final (live) orders with their receipts, the events and preferences,
//! and any announcement not yet delivered. The outbox's newest row is kept too: SQLite
//! gives a new row the largest id plus one, and an outbox id is a Discord nonce, which
//! must not come round again (migration 21 dropped AUTOINCREMENT).

use super::dialect::Dialect;
use super::error::StoreError;
use super::error::db_err;
use super::queries::SqlStore;
use super::records::Compacted;
use super::sql::Stmt;
use crate::vocab::Millis;

/// Races that ended before `$1`. A cancelled lobby may have no `ended_at`: its last
/// change stands in. Plain SQL, the same on both backends (`superseded = TRUE` holds for
/// SQLite's 1 and PostgreSQL's boolean alike).
const ENDED: &str = "SELECT id FROM campaigns
     WHERE phase IN ('finished', 'cancelled') AND COALESCE(ended_at, updated_at) < $1";

impl<DB: Dialect> SqlStore<DB> {
    /// Deletes what races ended before `ended_before` no longer need, and interaction
    /// claims expired at `now`, in one transaction.
    pub(super) async fn compact_ended(
        &self,
        ended_before: Millis,
        now: Millis,
    ) -> Result<Compacted, StoreError> {
        let mut tx = self.begin_write().await?;
        let mut out = Compacted::default();
        let per_race = [
            (
                format!("DELETE FROM orders WHERE superseded = TRUE AND campaign_id IN ({ENDED})"),
                &mut out.orders,
            ),
            (
                format!(
                    "DELETE FROM outbox WHERE (delivered_at IS NOT NULL OR failed IS NOT NULL)
                     AND campaign_id IN ({ENDED})
                     AND id < (SELECT MAX(id) FROM outbox)"
                ),
                &mut out.outbox,
            ),
            (
                format!(
                    "DELETE FROM deadlines WHERE fired_at IS NOT NULL AND campaign_id IN ({ENDED})"
                ),
                &mut out.deadlines,
            ),
            (
                format!("DELETE FROM outbox_leases WHERE campaign_id IN ({ENDED})"),
                &mut out.leases,
            ),
        ];
        for (sql, slot) in per_race {
            *slot = Stmt::<DB>::new(sqlx::AssertSqlSafe(sql))
                .bind(ended_before)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
        }
        out.interactions = Stmt::<DB>::new("DELETE FROM interactions WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(out)
    }
}
