//! The store over either backend ([`SqlStore`]): the queries of every [`Store`] method,
//! written once. The commit sequence is `commit.rs`, row decoding `rows.rs`, and what
//! differs between the backends is the [`Dialect`] each fills in (`sqlite.rs`,
//! `postgres.rs`, which also open the pools). The files that add methods to [`SqlStore`]
//! (`reliability.rs`, `prefs.rs`, `series.rs`, ...) import this one; it imports none of
//! them. It runs past 1,000 lines because `impl Store for SqlStore` is one block (a
//! trait's impl cannot be split across files) and is most of the file.

use std::collections::BTreeMap;
use std::fmt;

use async_trait::async_trait;
use sqlx::pool::PoolConnection;
use sqlx::{AssertSqlSafe, Database, Pool, Transaction};

use super::backend::Backend;
use super::codec::{schema_status, to_json};
use super::commit;
use super::contract::Store;
use super::dialect::Dialect;
use super::error::StoreError;
use super::error::db_err;
use super::records::{
    Address, Backlog, Commit, DeadlineRow, Heartbeat, Loaded, NewCampaign, NewOutbox, OpenCounts,
    OutboxRow, PreferenceRow, Quarantine, SchemaStatus, StepLog, WorkerStatus,
};
use super::rows::{self, all, each};
use super::sql::{Get, Stmt};
use crate::vocab::{CampaignId, Millis, TimeContext, UserId, UserTime};

/// Leases `$1` the outbox of every campaign with rows ready at `$3`, until `$2`; a lease
/// another holder has until later is left alone.
pub(super) const CLAIM_LEASES: &str = "INSERT INTO outbox_leases (campaign_id, holder, lease_until)
     SELECT DISTINCT campaign_id, $1, $2 FROM outbox
     WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= $3
     ORDER BY campaign_id
     ON CONFLICT (campaign_id) DO UPDATE SET
         holder = excluded.holder, lease_until = excluded.lease_until
     WHERE outbox_leases.lease_until <= $3 OR outbox_leases.holder = excluded.holder
     RETURNING campaign_id";

/// A race opened in a channel after the one before it ended speaks only once the earlier
/// race has said everything: the earlier race's result may still wait for a retry, and
/// players read the channel top to bottom. For a query over `outbox o`; it walks the few
/// undelivered rows (`outbox_pending`), not the channel's past races.
macro_rules! after_earlier_races {
    () => {
        "
       AND NOT EXISTS (SELECT 1 FROM outbox e JOIN campaigns ce ON ce.id = e.campaign_id
                       WHERE e.delivered_at IS NULL AND e.failed IS NULL
                         AND e.campaign_id < o.campaign_id
                         AND ce.channel = (SELECT c.channel FROM campaigns c
                                           WHERE c.id = o.campaign_id))"
    };
}

/// The undelivered rows of the campaigns whose outbox lease `$1` holds until `$2`, ready
/// at `$3`, each after any older row to the same target still waiting, and none while an
/// earlier race in the same channel has anything undelivered (`after_earlier_races!`).
/// `+o.id` (here and in [`OUTBOX_READY`]): without it SQLite walks the whole table in id
/// order rather than sort the few undelivered rows that the partial index
/// `outbox_pending` finds.
pub(super) const CLAIMED_READY: &str = concat!(
    "SELECT o.* FROM outbox o JOIN outbox_leases l ON l.campaign_id = o.campaign_id
     WHERE l.holder = $1 AND l.lease_until = $2
       AND o.delivered_at IS NULL AND o.failed IS NULL AND o.not_before <= $3
       AND NOT EXISTS (SELECT 1 FROM outbox e
                       WHERE e.campaign_id = o.campaign_id AND e.target = o.target
                         AND e.id < o.id
                         AND e.delivered_at IS NULL AND e.failed IS NULL
                         AND e.not_before > $3)",
    after_earlier_races!(),
    "
     ORDER BY +o.id LIMIT $4"
);

/// Undelivered rows ready at `$1` of campaigns no process holds a lease on.
pub(super) const OUTBOX_READY: &str = concat!(
    "SELECT * FROM outbox o
     WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= $1
       AND NOT EXISTS (SELECT 1 FROM outbox_leases l
                       WHERE l.campaign_id = o.campaign_id AND l.lease_until > $1)
       AND NOT EXISTS (SELECT 1 FROM outbox e
                       WHERE e.campaign_id = o.campaign_id AND e.target = o.target
                         AND e.id < o.id
                         AND e.delivered_at IS NULL AND e.failed IS NULL
                         AND e.not_before > $1)",
    after_earlier_races!(),
    "
     ORDER BY +id LIMIT $2"
);

/// The store on one backend's pool: [`super::sqlite::SqliteStore`] or [`super::postgres::PostgresStore`].
pub struct SqlStore<DB: Database> {
    pub(super) pool: Pool<DB>,
    /// Where writing transactions begin. On a SQLite file, a pool of one connection of its
    /// own, so that writers queue here in turn rather than poll SQLite's lock (its busy
    /// handler sleeps between tries); elsewhere the pool itself.
    pub(super) writer: Pool<DB>,
}

impl<DB: Database> Clone for SqlStore<DB> {
    fn clone(&self) -> Self {
        SqlStore {
            pool: self.pool.clone(),
            writer: self.writer.clone(),
        }
    }
}

impl<DB: Database> fmt::Debug for SqlStore<DB> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqlStore")
            .field("pool", &self.pool)
            .finish()
    }
}

impl<DB: Database> SqlStore<DB> {
    pub fn pool(&self) -> &Pool<DB> {
        &self.pool
    }

    /// Closes the pools, waiting for connections to finish.
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

/// Reads that must agree with each other: on one snapshot where the backend offers one
/// ([`Dialect::BEGIN_SNAPSHOT`]), else on one connection.
enum Reader<DB: Database> {
    Plain(PoolConnection<DB>),
    Snapshot(Transaction<'static, DB>),
}

impl<DB: Database> Reader<DB> {
    fn conn(&mut self) -> &mut DB::Connection {
        match self {
            Reader::Plain(c) => c,
            Reader::Snapshot(t) => t,
        }
    }

    async fn finish(self) -> Result<(), StoreError> {
        if let Reader::Snapshot(t) = self {
            t.commit().await?;
        }
        Ok(())
    }
}

impl<DB: Dialect> SqlStore<DB> {
    pub(super) async fn conn(&self) -> Result<PoolConnection<DB>, StoreError> {
        Ok(self.pool.acquire().await?)
    }

    /// A writing transaction ([`Dialect::BEGIN_WRITE`]). Dropped before it commits (an
    /// error, or a caller that stopped waiting), sqlx rolls it back before the connection
    /// is used again.
    pub(super) async fn begin_write(&self) -> Result<Transaction<'static, DB>, StoreError> {
        Ok(self.writer.begin_with(DB::BEGIN_WRITE).await?)
    }

    async fn reader(&self) -> Result<Reader<DB>, StoreError> {
        Ok(match DB::BEGIN_SNAPSHOT {
            Some(begin) => Reader::Snapshot(self.pool.begin_with(begin).await?),
            None => Reader::Plain(self.pool.acquire().await?),
        })
    }

    /// Runs a statement on a pooled connection; returns the rows it changed.
    pub(super) async fn run(&self, stmt: Stmt<DB>) -> Result<u64, StoreError> {
        Ok(stmt.execute(&mut *self.conn().await?).await?)
    }

    pub(super) async fn rows(&self, stmt: Stmt<DB>) -> Result<Vec<DB::Row>, StoreError> {
        Ok(stmt.fetch_all(&mut *self.conn().await?).await?)
    }

    pub(super) async fn row(&self, stmt: Stmt<DB>) -> Result<Option<DB::Row>, StoreError> {
        Ok(stmt.fetch_optional(&mut *self.conn().await?).await?)
    }

    async fn campaign_ids(&self, stmt: Stmt<DB>) -> Result<Vec<CampaignId>, StoreError> {
        all(&self.rows(stmt).await?, rows::campaign_id)
    }

    async fn create_campaign(&self, new: NewCampaign) -> Result<CampaignId, StoreError> {
        let stmt = Stmt::<DB>::new(
            "INSERT INTO campaigns (kind, options, host, channel, guild, phase, turn_secs,
                 reminders, resolve_early, seed, commitment, created_at, updated_at, calendar)
             VALUES ($1, $2, $3, $4, $5, 'lobby', $6, $7, $8, $9, $10, $11, $11, $12)
             RETURNING id",
        )
        .bind(new.kind.slug())
        .bind(to_json(&new.options)?)
        .bind(&new.host.0)
        .bind(&new.channel)
        .bind(&new.guild)
        .bind(i64::try_from(new.timing.turn_secs).unwrap_or(i64::MAX))
        .bind(to_json(&new.timing.reminders)?)
        .bind(new.timing.resolve_early)
        .bind(&new.seed)
        .bind(&new.commitment)
        .bind(new.now)
        .bind(to_json(&new.timing.calendar)?);
        match stmt.fetch_one(&mut *self.conn().await?).await {
            Ok(row) => rows::campaign_id(&row),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::ChannelBusy)
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn load_campaign(&self, id: CampaignId) -> Result<Option<Loaded>, StoreError> {
        // One snapshot (where there is one) for the three reads, so seats and orders match
        // the campaign row.
        let mut reader = self.reader().await?;
        let conn = reader.conn();
        let Some(row) = Stmt::<DB>::new(
            "SELECT c.*, s.state, COALESCE(s.state_format, 1) AS state_format
             FROM campaigns c LEFT JOIN campaign_states s ON s.campaign_id = c.id
             WHERE c.id = $1",
        )
        .bind(id.0)
        .fetch_optional(&mut *conn)
        .await?
        else {
            return Ok(None);
        };
        let campaign = rows::campaign(&row)?;
        let seats = Stmt::<DB>::new("SELECT * FROM seats WHERE campaign_id = $1 ORDER BY seat")
            .bind(id.0)
            .fetch_all(&mut *conn)
            .await?;
        let orders = Stmt::<DB>::new(DB::LIVE_ORDERS_OF_STEP)
            .bind(id.0)
            .bind(i64::from(campaign.step))
            .fetch_all(&mut *conn)
            .await?;
        reader.finish().await?;
        Ok(Some(Loaded {
            campaign,
            seats: all(&seats, rows::seat_row)?,
            orders: all(&orders, rows::order)?,
        }))
    }

    async fn claim_outbox_of(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let mut tx = self.begin_write().await?;
        // A lease held by someone else until later is left alone: the upsert's WHERE is
        // checked against the committed row, after waiting for a concurrent claimer.
        // Campaigns are taken in id order, so two claimers never wait on each other in a
        // cycle.
        let claimed = Stmt::<DB>::new(CLAIM_LEASES)
            .bind(holder)
            .bind(until)
            .bind(now)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
        let ready = if claimed.is_empty() {
            Vec::new()
        } else {
            // Every campaign whose lease this holder now has until `until`.
            Stmt::<DB>::new(CLAIMED_READY)
                .bind(holder)
                .bind(until)
                .bind(now)
                .bind(i64::from(limit))
                .fetch_all(&mut *tx)
                .await
                .map_err(db_err)?
        };
        // A row that does not decode is given up with its cause (logged with its race,
        // table and row); the others are delivered.
        let decoded = each(&ready, rows::outbox);
        for (id, campaign, e) in &decoded.bad {
            tracing::error!(
                race = campaign.map(|c| c.0),
                table = "outbox",
                row = id,
                error = %e,
                "an announcement does not decode; it is given up"
            );
            if let Some(id) = id {
                Stmt::<DB>::new("UPDATE outbox SET failed = $1 WHERE id = $2")
                    .bind(format!("unreadable: {e}"))
                    .bind(*id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
        }
        tx.commit().await.map_err(db_err)?;
        Ok(decoded.good)
    }

    /// The resolved steps `from..to` (every step by default).
    async fn log_of(
        &self,
        campaign: CampaignId,
        from: u32,
        to: u32,
    ) -> Result<Vec<StepLog>, StoreError> {
        let mut reader = self.reader().await?;
        let conn = reader.conn();
        let (from, to) = (i64::from(from), i64::from(to));
        let turns = Stmt::<DB>::new(
            "SELECT * FROM turns WHERE campaign_id = $1 AND resolved_at IS NOT NULL
                 AND step >= $2 AND step < $3 ORDER BY step",
        )
        .bind(campaign.0)
        .bind(from)
        .bind(to)
        .fetch_all(&mut *conn)
        .await?;
        let orders = Stmt::<DB>::new(DB::LIVE_ORDERS)
            .bind(campaign.0)
            .bind(from)
            .bind(to)
            .fetch_all(&mut *conn)
            .await?;
        let events = Stmt::<DB>::new(
            "SELECT campaign_id, step, idx, event, format FROM events WHERE campaign_id = $1
                 AND step >= $2 AND step < $3 ORDER BY step, idx",
        )
        .bind(campaign.0)
        .bind(from)
        .bind(to)
        .fetch_all(&mut *conn)
        .await?;
        reader.finish().await?;
        let mut orders_of: BTreeMap<u32, Vec<_>> = BTreeMap::new();
        for o in all(&orders, rows::order)? {
            orders_of.entry(o.step).or_default().push(o);
        }
        let mut events_of: BTreeMap<u32, Vec<_>> = BTreeMap::new();
        for (step, e) in all(&events, rows::event)? {
            events_of.entry(step).or_default().push(e);
        }
        all(&turns, rows::turn)?
            .into_iter()
            .map(|turn| {
                Ok(StepLog {
                    orders: orders_of.remove(&turn.step).unwrap_or_default(),
                    events: events_of.remove(&turn.step).unwrap_or_default(),
                    turn,
                })
            })
            .collect()
    }
}

#[async_trait]
impl<DB: Dialect> Store for SqlStore<DB> {
    async fn create(&self, new: NewCampaign) -> Result<CampaignId, StoreError> {
        self.create_campaign(new).await
    }

    async fn version(&self, id: CampaignId) -> Result<Option<i64>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT version FROM campaigns WHERE id = $1").bind(id.0))
            .await?;
        Ok(match row {
            Some(r) => Some(r.int("version")?),
            None => None,
        })
    }

    async fn load(&self, id: CampaignId) -> Result<Option<Loaded>, StoreError> {
        self.load_campaign(id).await
    }

    async fn commit(
        &self,
        id: CampaignId,
        expected_version: i64,
        commit: Commit,
    ) -> Result<(), StoreError> {
        let tx = self.begin_write().await?;
        commit::write(tx, id, expected_version, &commit).await
    }

    async fn active_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError> {
        let row = self
            .row(
                Stmt::new(
                    "SELECT id FROM campaigns
                     WHERE channel = $1 AND phase IN ('lobby', 'running', 'paused')",
                )
                .bind(channel),
            )
            .await?;
        row.as_ref().map(rows::campaign_id).transpose()
    }

    async fn latest_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT MAX(id) AS id FROM campaigns WHERE channel = $1").bind(channel))
            .await?;
        Ok(match row {
            Some(r) => r.opt_int("id")?.map(CampaignId),
            None => None,
        })
    }

    async fn open_campaigns(&self) -> Result<Vec<CampaignId>, StoreError> {
        self.campaign_ids(Stmt::new(
            "SELECT id FROM campaigns WHERE phase IN ('lobby', 'running', 'paused') ORDER BY id",
        ))
        .await
    }

    async fn owing(&self) -> Result<super::records::Owing, StoreError> {
        self.read_owing().await
    }

    async fn campaigns_of_user(&self, user: &UserId) -> Result<Vec<CampaignId>, StoreError> {
        self.campaign_ids(
            Stmt::new(
                "SELECT DISTINCT c.id FROM campaigns c JOIN seats s ON s.campaign_id = c.id
                 WHERE s.user_id = $1 AND c.phase IN ('running', 'paused') ORDER BY c.id",
            )
            .bind(&user.0),
        )
        .await
    }

    async fn due_deadlines(&self, now: Millis, limit: u32) -> Result<Vec<DeadlineRow>, StoreError> {
        let found = self
            .rows(
                Stmt::new(
                    "SELECT * FROM deadlines WHERE fired_at IS NULL AND due_at <= $1
                     ORDER BY due_at, id LIMIT $2",
                )
                .bind(now)
                .bind(i64::from(limit)),
            )
            .await?;
        all(&found, rows::deadline)
    }

    async fn claim_due_deadlines(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<DeadlineRow>, StoreError> {
        // One statement: atomic on its own on either backend.
        let claimed = self
            .rows(
                Stmt::new(DB::CLAIM_DEADLINES)
                    .bind(holder)
                    .bind(until)
                    .bind(now)
                    .bind(i64::from(limit)),
            )
            .await?;
        // One row that does not decode quarantines its race, not the whole tick.
        let decoded = each(&claimed, rows::deadline);
        self.quarantine_bad("deadlines", &decoded.bad, now).await;
        let mut claimed = decoded.good;
        claimed.sort_by_key(|d| (d.due_at, d.id));
        Ok(claimed)
    }

    async fn release_deadline(&self, id: i64, holder: &str) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "UPDATE deadlines SET claimed_by = NULL, claim_until = NULL
                 WHERE id = $1 AND claimed_by = $2",
            )
            .bind(id)
            .bind(holder),
        )
        .await?;
        Ok(())
    }

    async fn next_due(&self) -> Result<Option<Millis>, StoreError> {
        // The earliest unclaimed deadline, and the claimed ones at their claim's end (each
        // half has its own partial index).
        let row = self
            .row(Stmt::new(
                "SELECT MIN(due) AS due FROM (
                     SELECT MIN(due_at) AS due FROM deadlines d
                     WHERE fired_at IS NULL AND claim_until IS NULL
                       AND NOT EXISTS (SELECT 1 FROM quarantine q
                                       WHERE q.campaign_id = d.campaign_id)
                     UNION ALL
                     SELECT MIN(CASE WHEN claim_until > due_at THEN claim_until ELSE due_at END)
                     FROM deadlines d
                     WHERE fired_at IS NULL AND claim_until IS NOT NULL
                       AND NOT EXISTS (SELECT 1 FROM quarantine q
                                       WHERE q.campaign_id = d.campaign_id)
                 ) AS next",
            ))
            .await?;
        Ok(match row {
            Some(r) => r.opt_int("due")?,
            None => None,
        })
    }

    async fn outbox_ready(&self, now: Millis, limit: u32) -> Result<Vec<OutboxRow>, StoreError> {
        let found = self
            .rows(Stmt::new(OUTBOX_READY).bind(now).bind(i64::from(limit)))
            .await?;
        Ok(each(&found, rows::outbox).good)
    }

    async fn claim_outbox(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        self.claim_outbox_of(now, limit, holder, until).await
    }

    async fn renew_outbox_lease(
        &self,
        campaign: CampaignId,
        holder: &str,
        until: Millis,
    ) -> Result<bool, StoreError> {
        let done = self
            .run(
                Stmt::new(
                    "UPDATE outbox_leases SET lease_until = $1 WHERE campaign_id = $2 AND holder = $3",
                )
                .bind(until)
                .bind(campaign.0)
                .bind(holder),
            )
            .await?;
        Ok(done == 1)
    }

    async fn release_outbox_leases(
        &self,
        holder: &str,
        campaigns: &[CampaignId],
    ) -> Result<(), StoreError> {
        if campaigns.is_empty() {
            return Ok(());
        }
        // `campaign_id IN ($2, $3, ...)`: one statement for all of them.
        let list: Vec<String> = (2..campaigns.len() + 2).map(|n| format!("${n}")).collect();
        let mut stmt = Stmt::new(AssertSqlSafe(format!(
            "DELETE FROM outbox_leases WHERE holder = $1 AND campaign_id IN ({})",
            list.join(", ")
        )))
        .bind(holder);
        for c in campaigns {
            stmt = stmt.bind(c.0);
        }
        self.run(stmt).await?;
        Ok(())
    }

    async fn release_claims(&self, holder: &str) -> Result<(u64, u64), StoreError> {
        let leases = self
            .run(Stmt::new("DELETE FROM outbox_leases WHERE holder = $1").bind(holder))
            .await?;
        // `failures > 0`: a deferred deadline, whose claim_until is its retry time.
        let deadlines = self
            .run(
                Stmt::new(
                    "UPDATE deadlines SET claimed_by = NULL,
                         claim_until = CASE WHEN failures > 0 THEN claim_until ELSE NULL END
                     WHERE claimed_by = $1 AND fired_at IS NULL",
                )
                .bind(holder),
            )
            .await?;
        Ok((leases, deadlines))
    }

    async fn outbox_delivered(
        &self,
        id: i64,
        external_id: Option<String>,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "UPDATE outbox SET delivered_at = $1, external_id = $2, attempts = attempts + 1
                 WHERE id = $3",
            )
            .bind(at)
            .bind(external_id)
            .bind(id),
        )
        .await?;
        Ok(())
    }

    async fn outbox_retry(
        &self,
        id: i64,
        not_before: Millis,
        error: &str,
    ) -> Result<(), StoreError> {
        tracing::debug!(outbox = id, error, "delivery will be retried");
        self.run(
            Stmt::new(
                "UPDATE outbox SET not_before = $1, attempts = attempts + 1, last_error = $2
                 WHERE id = $3",
            )
            .bind(not_before)
            .bind(error)
            .bind(id),
        )
        .await?;
        Ok(())
    }

    async fn outbox_failed(&self, id: i64, reason: &str) -> Result<(), StoreError> {
        self.run(
            Stmt::new("UPDATE outbox SET failed = $1, attempts = attempts + 1 WHERE id = $2")
                .bind(reason)
                .bind(id),
        )
        .await?;
        Ok(())
    }

    async fn outbox_of(&self, campaign: CampaignId) -> Result<Vec<OutboxRow>, StoreError> {
        let found = self
            .rows(
                Stmt::new("SELECT * FROM outbox WHERE campaign_id = $1 ORDER BY id")
                    .bind(campaign.0),
            )
            .await?;
        all(&found, rows::outbox)
    }

    async fn prompts_of_steps(
        &self,
        campaign: CampaignId,
        from: u32,
        to: u32,
        before: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let found = self
            .rows(
                Stmt::new(DB::PROMPTS_OF_STEPS)
                    .bind(campaign.0)
                    .bind(i64::from(from))
                    .bind(i64::from(to))
                    .bind(before),
            )
            .await?;
        all(&found, rows::outbox)
    }

    async fn set_status_message(
        &self,
        campaign: CampaignId,
        id: Option<String>,
    ) -> Result<(), StoreError> {
        self.run(
            Stmt::new("UPDATE campaigns SET status_message = $1 WHERE id = $2")
                .bind(id)
                .bind(campaign.0),
        )
        .await?;
        Ok(())
    }

    async fn set_lobby_message(
        &self,
        campaign: CampaignId,
        id: Option<String>,
    ) -> Result<(), StoreError> {
        self.run(
            Stmt::new("UPDATE campaigns SET lobby_message = $1 WHERE id = $2")
                .bind(id)
                .bind(campaign.0),
        )
        .await?;
        Ok(())
    }

    async fn log(&self, campaign: CampaignId) -> Result<Vec<StepLog>, StoreError> {
        self.log_of(campaign, 0, u32::MAX).await
    }

    async fn log_steps(
        &self,
        campaign: CampaignId,
        from: u32,
        to: u32,
    ) -> Result<Vec<StepLog>, StoreError> {
        self.log_of(campaign, from, to).await
    }

    async fn open_counts(
        &self,
        host: &UserId,
        guild: Option<&str>,
    ) -> Result<OpenCounts, StoreError> {
        // Two indexed counts (0005's partial indexes on open races by host and by guild).
        let count = |by_guild: bool, value: String| {
            let sql = if by_guild {
                "SELECT COALESCE(SUM(CASE WHEN phase = 'lobby' THEN 1 ELSE 0 END), 0) AS lobbies,
                     COALESCE(SUM(CASE WHEN phase = 'lobby' THEN 0 ELSE 1 END), 0) AS running
                 FROM campaigns WHERE guild = $1 AND phase IN ('lobby', 'running', 'paused')"
            } else {
                "SELECT COALESCE(SUM(CASE WHEN phase = 'lobby' THEN 1 ELSE 0 END), 0) AS lobbies,
                     COALESCE(SUM(CASE WHEN phase = 'lobby' THEN 0 ELSE 1 END), 0) AS running
                 FROM campaigns WHERE host = $1 AND phase IN ('lobby', 'running', 'paused')"
            };
            Stmt::<DB>::new(sql).bind(value)
        };
        let read = |r: Option<DB::Row>| -> Result<(u32, u32), StoreError> {
            let Some(r) = r else { return Ok((0, 0)) };
            let n = |k: &str| -> Result<u32, StoreError> {
                Ok(u32::try_from(r.int(k)?).unwrap_or(u32::MAX))
            };
            Ok((n("lobbies")?, n("running")?))
        };
        let (user_lobbies, user_running) = read(self.row(count(false, host.0.clone())).await?)?;
        let (server_lobbies, server_running) = match guild {
            Some(g) => read(self.row(count(true, g.to_string())).await?)?,
            None => (0, 0),
        };
        Ok(OpenCounts {
            user_lobbies,
            user_running,
            server_lobbies,
            server_running,
        })
    }

    async fn preferences(&self, campaign: CampaignId) -> Result<Vec<PreferenceRow>, StoreError> {
        let found = self
            .rows(
                Stmt::new("SELECT * FROM preferences WHERE campaign_id = $1 ORDER BY id")
                    .bind(campaign.0),
            )
            .await?;
        all(&found, rows::preference)
    }

    async fn heartbeat(&self, beat: &Heartbeat) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "INSERT INTO processes (instance, gateway, shards, detail, started_at, beat_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (instance) DO UPDATE SET gateway = excluded.gateway,
                     shards = excluded.shards, detail = excluded.detail,
                     started_at = excluded.started_at, beat_at = excluded.beat_at",
            )
            .bind(&beat.instance)
            .bind(&beat.gateway)
            .bind(&beat.shards)
            .bind(&beat.detail)
            .bind(beat.started_at)
            .bind(beat.beat_at),
        )
        .await?;
        Ok(())
    }

    async fn heartbeats(&self) -> Result<Vec<Heartbeat>, StoreError> {
        let found = self
            .rows(Stmt::new("SELECT * FROM processes ORDER BY instance"))
            .await?;
        all(&found, rows::heartbeat)
    }

    async fn schema_status(&self) -> Result<SchemaStatus, StoreError> {
        let exists = match self.row(Stmt::new(DB::HAS_MIGRATIONS_TABLE)).await? {
            Some(r) => r.flag("present")?,
            None => false,
        };
        let applied = if exists {
            let found = self
                .rows(Stmt::new(
                    "SELECT version, success, checksum FROM _sqlx_migrations",
                ))
                .await?;
            all(&found, rows::applied)?
        } else {
            Vec::new()
        };
        Ok(schema_status(DB::BACKEND.name(), DB::migrator(), &applied))
    }

    async fn quarantine(
        &self,
        campaign: CampaignId,
        reason: &str,
        at: Millis,
    ) -> Result<bool, StoreError> {
        self.quarantine_race(campaign, reason, at).await
    }

    async fn quarantined(&self) -> Result<Vec<Quarantine>, StoreError> {
        self.quarantine_list().await
    }

    async fn tell_quarantine(
        &self,
        campaign: CampaignId,
        notice: NewOutbox,
        at: Millis,
    ) -> Result<bool, StoreError> {
        self.tell_quarantined(campaign, notice, at).await
    }

    async fn address(&self, campaign: CampaignId) -> Result<Option<Address>, StoreError> {
        self.address_of(campaign).await
    }

    async fn defer_deadline(&self, id: i64, holder: &str, until: Millis) -> Result<(), StoreError> {
        self.defer(id, holder, until).await
    }

    async fn backlog(&self, now: Millis) -> Result<Backlog, StoreError> {
        self.backlog_at(now).await
    }

    async fn worker_status(&self, status: &WorkerStatus) -> Result<(), StoreError> {
        self.put_worker(status).await
    }

    async fn alive(&self, instance: &str, at: Millis) -> Result<(), StoreError> {
        self.run(
            Stmt::new(
                "INSERT INTO alive (instance, at) VALUES ($1, $2)
                 ON CONFLICT (instance) DO UPDATE SET at = excluded.at",
            )
            .bind(instance)
            .bind(at),
        )
        .await?;
        // Each start is a new instance: a week on, a silent one is forgotten.
        self.run(
            Stmt::new("DELETE FROM alive WHERE at < $1").bind(at.saturating_sub(7 * 86_400_000)),
        )
        .await?;
        Ok(())
    }

    async fn last_alive(&self) -> Result<Option<Millis>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT MAX(at) AS at FROM alive"))
            .await?;
        Ok(match row {
            Some(r) => r.opt_int("at")?,
            None => None,
        })
    }

    async fn worker_trouble(
        &self,
        instance: &str,
        worker: &str,
        trouble: Option<&str>,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.put_worker_trouble(instance, worker, trouble, at).await
    }

    async fn workers(&self) -> Result<Vec<WorkerStatus>, StoreError> {
        self.worker_list().await
    }

    async fn claim_interaction(
        &self,
        id: &str,
        expires: Millis,
        now: Millis,
    ) -> Result<bool, StoreError> {
        self.claim_interaction_id(id, expires, now).await
    }

    fn backend(&self) -> Backend {
        DB::BACKEND
    }

    async fn user_time(&self, user: &UserId) -> Result<UserTime, StoreError> {
        self.read_user_time(user).await
    }

    async fn set_user_time(&self, time: &UserTime, now: Millis) -> Result<(), StoreError> {
        self.write_user_time(time, now).await
    }

    async fn guild_zone(&self, guild: &str) -> Result<Option<String>, StoreError> {
        self.read_guild_zone(guild).await
    }

    async fn set_guild_zone(&self, guild: &str, zone: &str, now: Millis) -> Result<(), StoreError> {
        self.write_guild_zone(guild, zone, now).await
    }

    async fn time_context(&self, race: CampaignId) -> Result<TimeContext, StoreError> {
        self.read_time_context(race).await
    }

    async fn close(&self) {
        SqlStore::close(self).await;
    }

    async fn outbox_create_attempt(
        &self,
        id: i64,
        at: Millis,
    ) -> Result<Option<Millis>, StoreError> {
        self.record_create_attempt(id, at).await
    }

    async fn open_turn(&self, campaign: CampaignId) -> Result<Option<(u32, Millis)>, StoreError> {
        let row = self
            .row(
                Stmt::new(
                    "SELECT campaign_id, step, opened_at FROM turns
                         WHERE campaign_id = $1 AND resolved_at IS NULL
                         ORDER BY step DESC LIMIT 1",
                )
                .bind(campaign.0),
            )
            .await?;
        row.as_ref().map(rows::open_turn).transpose()
    }

    async fn dm_seen(&self, user: &UserId) -> Result<Option<String>, StoreError> {
        self.read_dm_seen(user).await
    }

    async fn set_dm_seen(&self, user: &UserId, message: u64, at: Millis) -> Result<(), StoreError> {
        self.write_dm_seen(user, message, at).await
    }

    async fn races_of_guild(
        &self,
        guild: &str,
        before: Option<CampaignId>,
        limit: u32,
    ) -> Result<Vec<CampaignId>, StoreError> {
        self.read_races_of_guild(guild, before, limit).await
    }

    async fn compact(
        &self,
        ended_before: Millis,
        now: Millis,
    ) -> Result<super::records::Compacted, StoreError> {
        self.compact_ended(ended_before, now).await
    }

    async fn set_series(
        &self,
        race: CampaignId,
        channel: &str,
        name: &str,
    ) -> Result<(), StoreError> {
        self.write_series(race, channel, name).await
    }

    async fn series_of(&self, race: CampaignId) -> Result<Option<String>, StoreError> {
        self.read_series_of(race).await
    }

    async fn series_races(
        &self,
        channel: &str,
        name: &str,
    ) -> Result<Vec<(CampaignId, String)>, StoreError> {
        self.read_series_races(channel, name).await
    }

    async fn open_series(
        &self,
        channel: &str,
        def: &super::records::SeriesDef,
        at: Millis,
    ) -> Result<bool, StoreError> {
        self.write_series_def(channel, def, at).await
    }

    async fn series_def(
        &self,
        channel: &str,
        name: &str,
    ) -> Result<Option<super::records::SeriesDef>, StoreError> {
        self.read_series_def(channel, name).await
    }

    async fn set_stats_hidden(
        &self,
        user: &UserId,
        hidden: bool,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.write_stats_hidden(user, hidden, at).await
    }

    async fn stats_hidden(&self, user: &UserId) -> Result<bool, StoreError> {
        self.read_stats_hidden(user).await
    }

    async fn claim_rematch(
        &self,
        race: CampaignId,
        at: Millis,
    ) -> Result<super::records::RematchClaim, StoreError> {
        self.write_rematch_claim(race, at).await
    }

    async fn settle_rematch(
        &self,
        race: CampaignId,
        rematch: Option<CampaignId>,
    ) -> Result<(), StoreError> {
        self.write_rematch_settled(race, rematch).await
    }

    async fn rematch_of(&self, race: CampaignId) -> Result<Option<CampaignId>, StoreError> {
        self.read_rematch_of(race).await
    }
}
