//! The store's side of reliability (docs/reliability.md): quarantined races, deadlines
//! that back off, what waits (for `photofinish health`), supervised workers, and
//! interaction ids claimed once across processes. Written once for both backends, like
//! `queries.rs`, whose [`Store`](super::contract::Store) impl calls these.

use super::dialect::Dialect;
use super::error::StoreError;
use super::error::db_err;
use super::queries::SqlStore;
use super::records::{Address, Backlog, NewOutbox, Quarantine, WorkerStatus};
use super::rows::{self, all};
use super::sql::{Get, Stmt};
use crate::vocab::{CampaignId, Millis};

impl<DB: Dialect> SqlStore<DB> {
    pub(super) async fn quarantine_race(
        &self,
        campaign: CampaignId,
        reason: &str,
        at: Millis,
    ) -> Result<bool, StoreError> {
        let done = self
            .run(
                Stmt::new(
                    "INSERT INTO quarantine (campaign_id, reason, at) VALUES ($1, $2, $3)
                     ON CONFLICT (campaign_id) DO NOTHING",
                )
                .bind(campaign.0)
                .bind(reason)
                .bind(at),
            )
            .await?;
        if done == 1 {
            tracing::error!(race = campaign.0, reason, "race quarantined");
        }
        Ok(done == 1)
    }

    /// Quarantines the race of each row that did not decode (logging table, row and
    /// cause); a row whose campaign cannot be read is only logged.
    pub(super) async fn quarantine_bad(
        &self,
        table: &str,
        bad: &[(Option<i64>, Option<CampaignId>, StoreError)],
        at: Millis,
    ) {
        for (id, campaign, e) in bad {
            tracing::error!(
                race = campaign.map(|c| c.0),
                table,
                row = id,
                error = %e,
                "a stored row does not decode"
            );
            if let Some(c) = campaign
                && let Err(q) = self.quarantine_race(*c, &e.to_string(), at).await
            {
                tracing::warn!(race = c.0, "cannot quarantine the race: {q}");
            }
        }
    }

    pub(super) async fn quarantine_list(&self) -> Result<Vec<Quarantine>, StoreError> {
        let found = self
            .rows(Stmt::new("SELECT * FROM quarantine ORDER BY campaign_id"))
            .await?;
        all(&found, rows::quarantine)
    }

    pub(super) async fn tell_quarantined(
        &self,
        campaign: CampaignId,
        notice: NewOutbox,
        at: Millis,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let marked = Stmt::<DB>::new(
            "UPDATE quarantine SET told_at = $1 WHERE campaign_id = $2 AND told_at IS NULL",
        )
        .bind(at)
        .bind(campaign.0)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        if marked == 1 {
            Stmt::<DB>::new(
                "INSERT INTO outbox (campaign_id, target, payload, coalesce_key, created_at,
                     not_before)
                 VALUES ($1, $2, $3, NULL, $4, $5)",
            )
            .bind(campaign.0)
            .bind(notice.target.as_str())
            .bind(notice.payload.as_str())
            .bind(at)
            .bind(notice.not_before)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
        tx.commit().await.map_err(db_err)?;
        Ok(marked == 1)
    }

    pub(super) async fn address_of(
        &self,
        campaign: CampaignId,
    ) -> Result<Option<Address>, StoreError> {
        let row = self
            .row(
                Stmt::new(
                    "SELECT id, channel, host, status_message, lobby_message, phase, step,
                         step_open, deadline_at
                     FROM campaigns WHERE id = $1",
                )
                .bind(campaign.0),
            )
            .await?;
        row.as_ref().map(rows::address).transpose()
    }

    pub(super) async fn defer(
        &self,
        id: i64,
        holder: &str,
        until: Millis,
    ) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "UPDATE deadlines SET claim_until = $1, failures = failures + 1
                 WHERE id = $2 AND claimed_by = $3",
            )
            .bind(until)
            .bind(id)
            .bind(holder),
        )
        .await?;
        Ok(())
    }

    pub(super) async fn backlog_at(&self, now: Millis) -> Result<Backlog, StoreError> {
        let outbox = self
            .row(Stmt::new(
                "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox
                 WHERE delivered_at IS NULL AND failed IS NULL",
            ))
            .await?;
        let deadlines = self
            .row(
                Stmt::new(
                    "SELECT COUNT(*) AS n, MIN(due_at) AS oldest FROM deadlines d
                     WHERE fired_at IS NULL AND due_at <= $1
                       AND NOT EXISTS (SELECT 1 FROM quarantine q
                                       WHERE q.campaign_id = d.campaign_id)",
                )
                .bind(now),
            )
            .await?;
        let quarantined = self
            .row(Stmt::new("SELECT COUNT(*) AS n FROM quarantine"))
            .await?;
        let pair = |r: Option<DB::Row>| -> Result<(i64, Option<Millis>), StoreError> {
            Ok(match r {
                Some(r) => (r.int("n")?, r.opt_int("oldest")?),
                None => (0, None),
            })
        };
        let (undelivered, oldest_undelivered_at) = pair(outbox)?;
        let (overdue, oldest_overdue_at) = pair(deadlines)?;
        Ok(Backlog {
            undelivered,
            oldest_undelivered_at,
            overdue,
            oldest_overdue_at,
            quarantined: match quarantined {
                Some(r) => r.int("n")?,
                None => 0,
            },
        })
    }

    pub(super) async fn put_worker(&self, w: &WorkerStatus) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "INSERT INTO workers (instance, worker, state, restarts, last_panic, trouble, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (instance, worker) DO UPDATE SET state = excluded.state,
                     restarts = excluded.restarts, last_panic = excluded.last_panic,
                     trouble = excluded.trouble, at = excluded.at",
            )
            .bind(w.instance.as_str())
            .bind(w.worker.as_str())
            .bind(w.state.as_str())
            .bind(w.restarts)
            .bind(w.last_panic.clone())
            .bind(w.trouble.clone())
            .bind(w.at),
        )
        .await?;
        Ok(())
    }

    /// Marks a running worker `failing` with its cause, or `running` again (`None`).
    /// A worker that is down or stopped keeps that state.
    pub(super) async fn put_worker_trouble(
        &self,
        instance: &str,
        worker: &str,
        trouble: Option<&str>,
        at: Millis,
    ) -> Result<(), StoreError> {
        let state = if trouble.is_some() {
            "failing"
        } else {
            "running"
        };
        self.run(
            Stmt::new(
                "UPDATE workers SET state = $1, trouble = $2, at = $3
                 WHERE instance = $4 AND worker = $5 AND state IN ('running', 'failing')",
            )
            .bind(state)
            .bind(trouble.map(str::to_string))
            .bind(at)
            .bind(instance)
            .bind(worker),
        )
        .await?;
        Ok(())
    }

    pub(super) async fn worker_list(&self) -> Result<Vec<WorkerStatus>, StoreError> {
        let found = self
            .rows(Stmt::new("SELECT * FROM workers ORDER BY instance, worker"))
            .await?;
        all(&found, rows::worker)
    }

    pub(super) async fn claim_interaction_id(
        &self,
        id: &str,
        expires: Millis,
        now: Millis,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        Stmt::<DB>::new("DELETE FROM interactions WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let done = Stmt::<DB>::new(
            "INSERT INTO interactions (id, expires_at) VALUES ($1, $2)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(expires)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(done == 1)
    }
}
