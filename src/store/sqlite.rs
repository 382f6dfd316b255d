//! The SQLite store: WAL mode, migrations from `migrations/sqlite`, one transaction per
//! commit. `BEGIN IMMEDIATE` serialises writers, so the claims of [`super::Store`] are plain
//! conditional updates here.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::{Row, Sqlite, Transaction};

use super::codec::{
    Applied, bulk_inserts, corrupt, from_json, schema_status, seat_of, step_of, to_json,
};
use super::{
    Backend, CampaignId, CampaignRow, Commit, DeadlineKind, DeadlineRow, Heartbeat, Loaded, Millis,
    NewCampaign, OrderRow, OrderSource, OutboxRow, Phase, PreferenceRow, SchemaStatus, SeatRow,
    StepLog, Store, StoreError, Timing, TurnRow, UserId,
};
use crate::engine::BotLevel;
use crate::games::GameKind;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// How hard SQLite works to keep a commit through a power cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// fsync at every commit: survives a power cut (the default).
    #[default]
    Full,
    /// Survives a crash of the process, not of the machine; faster.
    Normal,
}

/// The SQLite store.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if missing) the database at `url` (`sqlite:path` or a plain path)
    /// in WAL mode, and runs the migrations.
    pub async fn open(url: &str, durability: Durability) -> Result<SqliteStore, StoreError> {
        let store = SqliteStore::pool_for(url, durability, true).await?;
        MIGRATOR.run(&store.pool).await?;
        Ok(store)
    }

    /// Opens an existing database without migrating it (to inspect it).
    pub async fn connect(url: &str) -> Result<SqliteStore, StoreError> {
        SqliteStore::pool_for(url, Durability::Full, false).await
    }

    async fn pool_for(
        url: &str,
        durability: Durability,
        create: bool,
    ) -> Result<SqliteStore, StoreError> {
        let url = if url.starts_with("sqlite:") {
            url.to_string()
        } else {
            format!("sqlite:{url}")
        };
        let options = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(create)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::Full => SqliteSynchronous::Full,
                Durability::Normal => SqliteSynchronous::Normal,
            })
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        // A file's connection does not go stale: no ping (a trip to the worker thread)
        // before each use.
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        Ok(SqliteStore { pool })
    }

    /// A private in-memory database (one connection), for tests and replays.
    pub async fn in_memory() -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        // One connection, never recycled: the database lives and dies with it.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(SqliteStore { pool })
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Closes the pool, waiting for connections to finish.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    async fn begin(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        // IMMEDIATE takes the write lock up front, so two writers queue on the busy
        // timeout instead of failing when a read would upgrade to a write.
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }
}

fn campaign_from_row(r: &SqliteRow) -> Result<CampaignRow, StoreError> {
    let kind: String = r.try_get("kind")?;
    let phase: String = r.try_get("phase")?;
    let state: Option<String> = r.try_get("state")?;
    let options: String = r.try_get("options")?;
    let reminders: String = r.try_get("reminders")?;
    let turn_secs: i64 = r.try_get("turn_secs")?;
    Ok(CampaignRow {
        id: CampaignId(r.try_get("id")?),
        kind: GameKind::from_slug(&kind).ok_or_else(|| corrupt("game", &kind))?,
        options: from_json("options", &options)?,
        host: UserId(r.try_get("host")?),
        channel: r.try_get("channel")?,
        guild: r.try_get("guild")?,
        phase: Phase::parse(&phase).ok_or_else(|| corrupt("phase", &phase))?,
        timing: Timing {
            turn_secs: u64::try_from(turn_secs).unwrap_or(0),
            reminders: from_json("reminders", &reminders)?,
            resolve_early: r.try_get::<i64, _>("resolve_early")? != 0,
        },
        seed: r.try_get("seed")?,
        commitment: r.try_get("commitment")?,
        state: match state {
            Some(s) => Some(from_json("state", &s)?),
            None => None,
        },
        step: step_of(r.try_get("step")?)?,
        step_open: r.try_get::<i64, _>("step_open")? != 0,
        deadline_at: r.try_get("deadline_at")?,
        paused_left_ms: r.try_get("paused_left_ms")?,
        version: r.try_get("version")?,
        status_message: r.try_get("status_message")?,
        lobby_message: r.try_get("lobby_message")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
        ended_at: r.try_get("ended_at")?,
    })
}

fn seat_from_row(r: &SqliteRow) -> Result<SeatRow, StoreError> {
    let bot: Option<String> = r.try_get("bot")?;
    let user: Option<String> = r.try_get("user_id")?;
    Ok(SeatRow {
        seat: seat_of(r.try_get("seat")?)?,
        user: user.map(UserId),
        name: r.try_get("name")?,
        bot: match bot {
            Some(b) => Some(BotLevel::parse(&b).ok_or_else(|| corrupt("bot level", &b))?),
            None => None,
        },
        choice: r.try_get("choice")?,
        dm_ok: r.try_get::<i64, _>("dm_ok")? != 0,
        view_hash: r.try_get("view_hash")?,
    })
}

fn order_from_row(r: &SqliteRow) -> Result<OrderRow, StoreError> {
    let source: String = r.try_get("source")?;
    let parsed: String = r.try_get("parsed")?;
    let by_user: Option<String> = r.try_get("by_user")?;
    Ok(OrderRow {
        step: step_of(r.try_get("step")?)?,
        seat: seat_of(r.try_get("seat")?)?,
        text: r.try_get("text")?,
        parsed: from_json("order", &parsed)?,
        source: OrderSource::parse(&source).ok_or_else(|| corrupt("order source", &source))?,
        nonce: r.try_get("nonce")?,
        receipt: r.try_get("receipt")?,
        by_user: by_user.map(UserId),
        submitted_at: r.try_get("submitted_at")?,
    })
}

fn turn_from_row(r: &SqliteRow) -> Result<TurnRow, StoreError> {
    let pending: String = r.try_get("pending")?;
    Ok(TurnRow {
        step: step_of(r.try_get("step")?)?,
        label: r.try_get("label")?,
        pending: from_json("pending", &pending)?,
        opened_at: r.try_get("opened_at")?,
        deadline_at: r.try_get("deadline_at")?,
        resolved_at: r.try_get("resolved_at")?,
        late: r.try_get::<i64, _>("late")? != 0,
    })
}

fn outbox_from_row(r: &SqliteRow) -> Result<OutboxRow, StoreError> {
    let target: String = r.try_get("target")?;
    let payload: String = r.try_get("payload")?;
    Ok(OutboxRow {
        id: r.try_get("id")?,
        campaign: CampaignId(r.try_get("campaign_id")?),
        target: from_json("outbox target", &target)?,
        payload: from_json("outbox payload", &payload)?,
        coalesce_key: r.try_get("coalesce_key")?,
        created_at: r.try_get("created_at")?,
        attempts: r.try_get("attempts")?,
        delivered_at: r.try_get("delivered_at")?,
        external_id: r.try_get("external_id")?,
        failed: r.try_get("failed")?,
    })
}

fn deadline_from_row(r: &SqliteRow) -> Result<DeadlineRow, StoreError> {
    let kind: String = r.try_get("kind")?;
    Ok(DeadlineRow {
        id: r.try_get("id")?,
        campaign: CampaignId(r.try_get("campaign_id")?),
        step: step_of(r.try_get("step")?)?,
        kind: match kind.as_str() {
            "deadline" => DeadlineKind::Deadline,
            "reminder" => DeadlineKind::Reminder,
            other => return Err(corrupt("deadline kind", other)),
        },
        due_at: r.try_get("due_at")?,
    })
}

async fn write_campaign(
    tx: &mut Transaction<'static, Sqlite>,
    c: &CampaignRow,
    expected_version: i64,
    state_changed: bool,
) -> Result<(), StoreError> {
    // Adapter columns (status and lobby message ids) are not written here: they change
    // outside the referee's decisions. The state, the largest column, only when it changed.
    let sql = if state_changed {
        "UPDATE campaigns SET options = ?, phase = ?, turn_secs = ?, reminders = ?,
             resolve_early = ?, step = ?, step_open = ?, deadline_at = ?,
             paused_left_ms = ?, host = ?, updated_at = ?, ended_at = ?, version = version + 1,
             state = ?
         WHERE id = ? AND version = ?"
    } else {
        "UPDATE campaigns SET options = ?, phase = ?, turn_secs = ?, reminders = ?,
             resolve_early = ?, step = ?, step_open = ?, deadline_at = ?,
             paused_left_ms = ?, host = ?, updated_at = ?, ended_at = ?, version = version + 1
         WHERE id = ? AND version = ?"
    };
    let mut query = sqlx::query(sql)
        .bind(to_json(&c.options)?)
        .bind(c.phase.as_str())
        .bind(i64::try_from(c.timing.turn_secs).unwrap_or(i64::MAX))
        .bind(to_json(&c.timing.reminders)?)
        .bind(i64::from(c.timing.resolve_early))
        .bind(i64::from(c.step))
        .bind(i64::from(c.step_open))
        .bind(c.deadline_at)
        .bind(c.paused_left_ms)
        .bind(&c.host.0)
        .bind(c.updated_at)
        .bind(c.ended_at);
    if state_changed {
        let state = match &c.state {
            Some(s) => Some(to_json(s)?),
            None => None,
        };
        query = query.bind(state);
    }
    let done = query
        .bind(c.id.0)
        .bind(expected_version)
        .execute(&mut **tx)
        .await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

#[async_trait]
impl Store for SqliteStore {
    async fn create(&self, new: NewCampaign) -> Result<CampaignId, StoreError> {
        let result = sqlx::query(
            "INSERT INTO campaigns (kind, options, host, channel, guild, phase, turn_secs,
                 reminders, resolve_early, seed, commitment, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(new.kind.slug())
        .bind(to_json(&new.options)?)
        .bind(&new.host.0)
        .bind(&new.channel)
        .bind(&new.guild)
        .bind(i64::try_from(new.timing.turn_secs).unwrap_or(i64::MAX))
        .bind(to_json(&new.timing.reminders)?)
        .bind(i64::from(new.timing.resolve_early))
        .bind(&new.seed)
        .bind(&new.commitment)
        .bind(new.now)
        .bind(new.now)
        .execute(&self.pool)
        .await;
        match result {
            Ok(done) => Ok(CampaignId(done.last_insert_rowid())),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::ChannelBusy)
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn version(&self, id: CampaignId) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT version FROM campaigns WHERE id = ?")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("version")?),
            None => None,
        })
    }

    async fn load(&self, id: CampaignId) -> Result<Option<Loaded>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let Some(row) = sqlx::query("SELECT * FROM campaigns WHERE id = ?")
            .bind(id.0)
            .fetch_optional(&mut *conn)
            .await?
        else {
            return Ok(None);
        };
        let campaign = campaign_from_row(&row)?;
        let seats = sqlx::query("SELECT * FROM seats WHERE campaign_id = ? ORDER BY seat")
            .bind(id.0)
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(seat_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let orders = sqlx::query(
            "SELECT * FROM orders WHERE campaign_id = ? AND step = ? AND superseded = 0 ORDER BY id",
        )
        .bind(id.0)
        .bind(i64::from(campaign.step))
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(order_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Loaded {
            campaign,
            seats,
            orders,
        }))
    }

    async fn commit(
        &self,
        id: CampaignId,
        expected_version: i64,
        commit: Commit,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        // A deadline handled elsewhere first means there is nothing to do: checked before
        // the version, so the loser of that race stops instead of deciding again.
        for fired in &commit.fired {
            let done = sqlx::query(
                "UPDATE deadlines SET fired_at = ? WHERE id = ? AND campaign_id = ? AND fired_at IS NULL",
            )
            .bind(commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0))
            .bind(fired)
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Err(StoreError::AlreadyFired);
            }
        }
        if let Some(c) = &commit.campaign {
            write_campaign(&mut tx, c, expected_version, commit.state_changed).await?;
        } else {
            // Still bump the version so concurrent deciders see the change.
            let done = sqlx::query(
                "UPDATE campaigns SET version = version + 1 WHERE id = ? AND version = ?",
            )
            .bind(id.0)
            .bind(expected_version)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Conflict);
            }
        }
        if let Some(seats) = &commit.seats {
            sqlx::query("DELETE FROM seats WHERE campaign_id = ?")
                .bind(id.0)
                .execute(&mut *tx)
                .await?;
            for s in seats {
                sqlx::query(
                    "INSERT INTO seats (campaign_id, seat, user_id, name, bot, choice, dm_ok, view_hash)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(id.0)
                .bind(i64::from(s.seat.0))
                .bind(s.user.as_ref().map(|u| u.0.clone()))
                .bind(&s.name)
                .bind(s.bot.map(|b| b.name()))
                .bind(&s.choice)
                .bind(i64::from(s.dm_ok))
                .bind(&s.view_hash)
                .execute(&mut *tx)
                .await?;
            }
        }
        for o in &commit.orders {
            if commit.replaces.contains(&(o.step, o.seat)) {
                sqlx::query(
                    "UPDATE orders SET superseded = 1
                     WHERE campaign_id = ? AND step = ? AND seat = ? AND superseded = 0",
                )
                .bind(id.0)
                .bind(i64::from(o.step))
                .bind(i64::from(o.seat.0))
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query(
                "INSERT INTO orders (campaign_id, step, seat, text, parsed, source, nonce, receipt,
                     by_user, submitted_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(id.0)
            .bind(i64::from(o.step))
            .bind(i64::from(o.seat.0))
            .bind(&o.text)
            .bind(to_json(&o.parsed)?)
            .bind(o.source.as_str())
            .bind(&o.nonce)
            .bind(&o.receipt)
            .bind(o.by_user.as_ref().map(|u| u.0.clone()))
            .bind(o.submitted_at)
            .execute(&mut *tx)
            .await?;
        }
        for t in &commit.turns {
            sqlx::query(
                "INSERT INTO turns (campaign_id, step, label, pending, opened_at, deadline_at,
                     resolved_at, late)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT (campaign_id, step) DO UPDATE SET
                     label = excluded.label, pending = excluded.pending,
                     deadline_at = excluded.deadline_at, resolved_at = excluded.resolved_at,
                     late = excluded.late",
            )
            .bind(id.0)
            .bind(i64::from(t.step))
            .bind(&t.label)
            .bind(to_json(&t.pending)?)
            .bind(t.opened_at)
            .bind(t.deadline_at)
            .bind(t.resolved_at)
            .bind(i64::from(t.late))
            .execute(&mut *tx)
            .await?;
        }
        for p in &commit.preferences {
            sqlx::query("INSERT INTO preferences (campaign_id, step, seat, text, set_at) VALUES (?, ?, ?, ?, ?)")
                .bind(id.0)
                .bind(i64::from(p.step))
                .bind(i64::from(p.seat.0))
                .bind(&p.text)
                .bind(p.set_at)
                .execute(&mut *tx)
                .await?;
        }
        if commit.deadlines.is_some() {
            sqlx::query("DELETE FROM deadlines WHERE campaign_id = ? AND fired_at IS NULL")
                .bind(id.0)
                .execute(&mut *tx)
                .await?;
        }
        let now = commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0);
        // Events, deadlines and outbox rows: a few multi-row statements.
        for mut q in bulk_inserts::<Sqlite>(id.0, &commit, now)? {
            q.build().execute(&mut *tx).await?;
        }
        if !commit.events.is_empty() {
            crate::fault::point("mid-adjudication");
        }
        tx.commit().await?;
        Ok(())
    }

    async fn active_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM campaigns WHERE channel = ? AND phase IN ('lobby', 'running', 'paused')",
        )
        .bind(channel)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some(CampaignId(r.try_get("id")?)),
            None => None,
        })
    }

    async fn latest_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError> {
        let row = sqlx::query("SELECT MAX(id) AS id FROM campaigns WHERE channel = ?")
            .bind(channel)
            .fetch_one(&self.pool)
            .await?;
        let id: Option<i64> = row.try_get("id")?;
        Ok(id.map(CampaignId))
    }

    async fn open_campaigns(&self) -> Result<Vec<CampaignId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM campaigns WHERE phase IN ('lobby', 'running', 'paused') ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(CampaignId(r.try_get("id")?)))
            .collect()
    }

    async fn campaigns_of_user(&self, user: &UserId) -> Result<Vec<CampaignId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT c.id FROM campaigns c JOIN seats s ON s.campaign_id = c.id
             WHERE s.user_id = ? AND c.phase IN ('running', 'paused') ORDER BY c.id",
        )
        .bind(&user.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(CampaignId(r.try_get("id")?)))
            .collect()
    }

    async fn due_deadlines(&self, now: Millis, limit: u32) -> Result<Vec<DeadlineRow>, StoreError> {
        sqlx::query(
            "SELECT * FROM deadlines WHERE fired_at IS NULL AND due_at <= ? ORDER BY due_at, id LIMIT ?",
        )
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(deadline_from_row)
        .collect()
    }

    async fn claim_due_deadlines(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<DeadlineRow>, StoreError> {
        let mut tx = self.begin().await?;
        let mut rows = sqlx::query(
            "UPDATE deadlines SET claimed_by = ?, claim_until = ?
             WHERE id IN (
                 SELECT id FROM deadlines
                 WHERE fired_at IS NULL AND due_at <= ? AND (claim_until IS NULL OR claim_until <= ?)
                 ORDER BY due_at, id LIMIT ?)
             RETURNING *",
        )
        .bind(holder)
        .bind(until)
        .bind(now)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(deadline_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        rows.sort_by_key(|d| (d.due_at, d.id));
        Ok(rows)
    }

    async fn release_deadline(&self, id: i64, holder: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE deadlines SET claimed_by = NULL, claim_until = NULL WHERE id = ? AND claimed_by = ?",
        )
        .bind(id)
        .bind(holder)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn next_due(&self) -> Result<Option<Millis>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(due) AS due FROM (
                 SELECT MIN(due_at) AS due FROM deadlines
                 WHERE fired_at IS NULL AND claim_until IS NULL
                 UNION ALL
                 SELECT MIN(MAX(due_at, claim_until)) FROM deadlines
                 WHERE fired_at IS NULL AND claim_until IS NOT NULL
             ) AS next",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("due")?)
    }

    async fn outbox_ready(&self, now: Millis, limit: u32) -> Result<Vec<OutboxRow>, StoreError> {
        sqlx::query(
            "SELECT * FROM outbox o
             WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= ?
               AND NOT EXISTS (SELECT 1 FROM outbox_leases l
                               WHERE l.campaign_id = o.campaign_id AND l.lease_until > ?)
             ORDER BY id LIMIT ?",
        )
        .bind(now)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(outbox_from_row)
        .collect()
    }

    async fn claim_outbox(
        &self,
        now: Millis,
        limit: u32,
        holder: &str,
        until: Millis,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        let mut tx = self.begin().await?;
        let claimed = sqlx::query(
            "INSERT INTO outbox_leases (campaign_id, holder, lease_until)
             SELECT DISTINCT campaign_id, ?, ? FROM outbox
             WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= ?
             ORDER BY campaign_id
             ON CONFLICT (campaign_id) DO UPDATE SET
                 holder = excluded.holder, lease_until = excluded.lease_until
             WHERE outbox_leases.lease_until <= ? OR outbox_leases.holder = excluded.holder
             RETURNING campaign_id",
        )
        .bind(holder)
        .bind(until)
        .bind(now)
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
        if claimed.is_empty() {
            tx.commit().await?;
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT o.* FROM outbox o JOIN outbox_leases l ON l.campaign_id = o.campaign_id
             WHERE l.holder = ? AND l.lease_until = ?
               AND o.delivered_at IS NULL AND o.failed IS NULL AND o.not_before <= ?
             ORDER BY o.id LIMIT ?",
        )
        .bind(holder)
        .bind(until)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(outbox_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn renew_outbox_lease(
        &self,
        campaign: CampaignId,
        holder: &str,
        until: Millis,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE outbox_leases SET lease_until = ? WHERE campaign_id = ? AND holder = ?",
        )
        .bind(until)
        .bind(campaign.0)
        .bind(holder)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn release_outbox_leases(
        &self,
        holder: &str,
        campaigns: &[CampaignId],
    ) -> Result<(), StoreError> {
        if campaigns.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin().await?;
        for c in campaigns {
            sqlx::query("DELETE FROM outbox_leases WHERE campaign_id = ? AND holder = ?")
                .bind(c.0)
                .bind(holder)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn outbox_delivered(
        &self,
        id: i64,
        external_id: Option<String>,
        at: Millis,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE outbox SET delivered_at = ?, external_id = ?, attempts = attempts + 1 WHERE id = ?",
        )
        .bind(at)
        .bind(external_id)
        .bind(id)
        .execute(&self.pool)
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
        sqlx::query("UPDATE outbox SET not_before = ?, attempts = attempts + 1 WHERE id = ?")
            .bind(not_before)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_failed(&self, id: i64, reason: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET failed = ?, attempts = attempts + 1 WHERE id = ?")
            .bind(reason)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_of(&self, campaign: CampaignId) -> Result<Vec<OutboxRow>, StoreError> {
        sqlx::query("SELECT * FROM outbox WHERE campaign_id = ? ORDER BY id")
            .bind(campaign.0)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(outbox_from_row)
            .collect()
    }

    async fn set_status_message(
        &self,
        campaign: CampaignId,
        id: Option<String>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE campaigns SET status_message = ? WHERE id = ?")
            .bind(id)
            .bind(campaign.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn set_lobby_message(
        &self,
        campaign: CampaignId,
        id: Option<String>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE campaigns SET lobby_message = ? WHERE id = ?")
            .bind(id)
            .bind(campaign.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn log(&self, campaign: CampaignId) -> Result<Vec<StepLog>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let turns = sqlx::query(
            "SELECT * FROM turns WHERE campaign_id = ? AND resolved_at IS NOT NULL ORDER BY step",
        )
        .bind(campaign.0)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(turn_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        let orders = sqlx::query(
            "SELECT * FROM orders WHERE campaign_id = ? AND superseded = 0 ORDER BY step, id",
        )
        .bind(campaign.0)
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(order_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        let events =
            sqlx::query("SELECT step, event FROM events WHERE campaign_id = ? ORDER BY step, idx")
                .bind(campaign.0)
                .fetch_all(&mut *conn)
                .await?;
        let mut logs = Vec::new();
        for turn in turns {
            let step_orders = orders
                .iter()
                .filter(|o| o.step == turn.step)
                .cloned()
                .collect();
            let mut step_events = Vec::new();
            for r in &events {
                if step_of(r.try_get("step")?)? == turn.step {
                    let text: String = r.try_get("event")?;
                    step_events.push(from_json("event", &text)?);
                }
            }
            logs.push(StepLog {
                turn,
                orders: step_orders,
                events: step_events,
            });
        }
        Ok(logs)
    }

    async fn preferences(&self, campaign: CampaignId) -> Result<Vec<PreferenceRow>, StoreError> {
        sqlx::query("SELECT * FROM preferences WHERE campaign_id = ? ORDER BY id")
            .bind(campaign.0)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| {
                Ok(PreferenceRow {
                    step: step_of(r.try_get("step")?)?,
                    seat: seat_of(r.try_get("seat")?)?,
                    text: r.try_get("text")?,
                    set_at: r.try_get("set_at")?,
                })
            })
            .collect()
    }

    async fn heartbeat(&self, beat: &Heartbeat) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO processes (instance, gateway, shards, detail, started_at, beat_at)
             VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (instance) DO UPDATE SET gateway = excluded.gateway,
                 shards = excluded.shards, detail = excluded.detail,
                 started_at = excluded.started_at, beat_at = excluded.beat_at",
        )
        .bind(&beat.instance)
        .bind(&beat.gateway)
        .bind(&beat.shards)
        .bind(&beat.detail)
        .bind(beat.started_at)
        .bind(beat.beat_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn heartbeats(&self) -> Result<Vec<Heartbeat>, StoreError> {
        sqlx::query("SELECT * FROM processes ORDER BY instance")
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| {
                Ok(Heartbeat {
                    instance: r.try_get("instance")?,
                    gateway: r.try_get("gateway")?,
                    shards: r.try_get("shards")?,
                    detail: r.try_get("detail")?,
                    started_at: r.try_get("started_at")?,
                    beat_at: r.try_get("beat_at")?,
                })
            })
            .collect()
    }

    async fn schema_status(&self) -> Result<SchemaStatus, StoreError> {
        let exists = sqlx::query(
            "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
        )
        .fetch_one(&self.pool)
        .await?
        .try_get::<i64, _>("n")?
            > 0;
        let mut applied = Vec::new();
        if exists {
            for r in sqlx::query("SELECT version, success, checksum FROM _sqlx_migrations")
                .fetch_all(&self.pool)
                .await?
            {
                applied.push(Applied {
                    version: r.try_get("version")?,
                    success: r.try_get("success")?,
                    checksum: r.try_get("checksum")?,
                });
            }
        }
        Ok(schema_status("sqlite", &MIGRATOR, &applied))
    }

    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
