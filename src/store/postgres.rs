//! The PostgreSQL store, for several bot processes sharing one database: migrations from
//! `migrations/postgres`, one transaction per commit.
//!
//! Every commit first locks its campaign's row (`SELECT ... FOR UPDATE`), so writers of one
//! campaign queue there and always take locks in the same order (no deadlocks); the
//! version check then refuses a decision made on a stale load. Claims of deadlines use
//! `FOR UPDATE SKIP LOCKED`, so processes ticking together split the due work instead of
//! waiting on each other; outbox leases are rows upserted only when free or expired.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, Row, Transaction};

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

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Connections per process: the referee serialises work per campaign, so a few suffice.
const MAX_CONNECTIONS: u32 = 8;

/// The PostgreSQL store.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: PgPool,
}

/// Serialisation failures and deadlocks mean "someone else changed it first": the
/// referee decides again, as for a version conflict.
fn db_err(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(d) = &e
        && matches!(d.code().as_deref(), Some("40001") | Some("40P01"))
    {
        return StoreError::Conflict;
    }
    StoreError::Db(e)
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`) and runs the
    /// migrations (under sqlx's advisory lock, so processes starting together are safe).
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let store = PostgresStore::connect(url).await?;
        MIGRATOR.run(&store.pool).await?;
        Ok(store)
    }

    /// Connects without migrating (to inspect the database).
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|_| StoreError::BadUrl(redact(url)))?
            .application_name("photofinish");
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        Ok(PostgresStore { pool })
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    async fn begin(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        Ok(self.pool.begin().await?)
    }

    /// A read-only transaction on one snapshot, so related reads agree with each other.
    async fn snapshot(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        Ok(self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?)
    }
}

/// A URL with its password blanked, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let Some(at) = url.rfind('@') else {
        return url.to_string();
    };
    let (Some(head), Some(userinfo), Some(tail)) =
        (url.get(..start), url.get(start..at), url.get(at..))
    else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{head}{user}:***{tail}"),
        None => url.to_string(),
    }
}

fn campaign_from_row(r: &PgRow) -> Result<CampaignRow, StoreError> {
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
            resolve_early: r.try_get::<bool, _>("resolve_early")?,
        },
        seed: r.try_get("seed")?,
        commitment: r.try_get("commitment")?,
        state: match state {
            Some(s) => Some(from_json("state", &s)?),
            None => None,
        },
        step: step_of(r.try_get("step")?)?,
        step_open: r.try_get::<bool, _>("step_open")?,
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

fn seat_from_row(r: &PgRow) -> Result<SeatRow, StoreError> {
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
        dm_ok: r.try_get::<bool, _>("dm_ok")?,
        view_hash: r.try_get("view_hash")?,
    })
}

fn order_from_row(r: &PgRow) -> Result<OrderRow, StoreError> {
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

fn turn_from_row(r: &PgRow) -> Result<TurnRow, StoreError> {
    let pending: String = r.try_get("pending")?;
    Ok(TurnRow {
        step: step_of(r.try_get("step")?)?,
        label: r.try_get("label")?,
        pending: from_json("pending", &pending)?,
        opened_at: r.try_get("opened_at")?,
        deadline_at: r.try_get("deadline_at")?,
        resolved_at: r.try_get("resolved_at")?,
        late: r.try_get::<bool, _>("late")?,
    })
}

fn outbox_from_row(r: &PgRow) -> Result<OutboxRow, StoreError> {
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

fn deadline_from_row(r: &PgRow) -> Result<DeadlineRow, StoreError> {
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
    tx: &mut Transaction<'static, Postgres>,
    c: &CampaignRow,
    expected_version: i64,
    state_changed: bool,
) -> Result<(), StoreError> {
    // As in SQLite: adapter columns are not written here, the state only when it changed.
    let sql = if state_changed {
        "UPDATE campaigns SET options = $1, phase = $2, turn_secs = $3, reminders = $4,
             resolve_early = $5, step = $6, step_open = $7, deadline_at = $8,
             paused_left_ms = $9, host = $10, updated_at = $11, ended_at = $12,
             version = version + 1, state = $13
         WHERE id = $14 AND version = $15"
    } else {
        "UPDATE campaigns SET options = $1, phase = $2, turn_secs = $3, reminders = $4,
             resolve_early = $5, step = $6, step_open = $7, deadline_at = $8,
             paused_left_ms = $9, host = $10, updated_at = $11, ended_at = $12,
             version = version + 1
         WHERE id = $13 AND version = $14"
    };
    let mut query = sqlx::query(sql)
        .bind(to_json(&c.options)?)
        .bind(c.phase.as_str())
        .bind(i64::try_from(c.timing.turn_secs).unwrap_or(i64::MAX))
        .bind(to_json(&c.timing.reminders)?)
        .bind(c.timing.resolve_early)
        .bind(i64::from(c.step))
        .bind(c.step_open)
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
        .await
        .map_err(db_err)?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

/// Everything of a commit after the campaign's row: the caller holds its lock.
async fn write_rest(
    tx: &mut Transaction<'static, Postgres>,
    id: CampaignId,
    commit: &Commit,
) -> Result<(), StoreError> {
    if let Some(seats) = &commit.seats {
        sqlx::query("DELETE FROM seats WHERE campaign_id = $1")
            .bind(id.0)
            .execute(&mut **tx)
            .await?;
        for s in seats {
            sqlx::query(
                "INSERT INTO seats (campaign_id, seat, user_id, name, bot, choice, dm_ok, view_hash)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(id.0)
            .bind(i64::from(s.seat.0))
            .bind(s.user.as_ref().map(|u| u.0.clone()))
            .bind(&s.name)
            .bind(s.bot.map(|b| b.name()))
            .bind(&s.choice)
            .bind(s.dm_ok)
            .bind(&s.view_hash)
            .execute(&mut **tx)
            .await?;
        }
    }
    for o in &commit.orders {
        if commit.replaces.contains(&(o.step, o.seat)) {
            sqlx::query(
                "UPDATE orders SET superseded = TRUE
                 WHERE campaign_id = $1 AND step = $2 AND seat = $3 AND NOT superseded",
            )
            .bind(id.0)
            .bind(i64::from(o.step))
            .bind(i64::from(o.seat.0))
            .execute(&mut **tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO orders (campaign_id, step, seat, text, parsed, source, nonce, receipt,
                 by_user, submitted_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
        .execute(&mut **tx)
        .await?;
    }
    for t in &commit.turns {
        sqlx::query(
            "INSERT INTO turns (campaign_id, step, label, pending, opened_at, deadline_at,
                 resolved_at, late)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
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
        .bind(t.late)
        .execute(&mut **tx)
        .await?;
    }
    for p in &commit.preferences {
        sqlx::query(
            "INSERT INTO preferences (campaign_id, step, seat, text, set_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id.0)
        .bind(i64::from(p.step))
        .bind(i64::from(p.seat.0))
        .bind(&p.text)
        .bind(p.set_at)
        .execute(&mut **tx)
        .await?;
    }
    if commit.deadlines.is_some() {
        sqlx::query("DELETE FROM deadlines WHERE campaign_id = $1 AND fired_at IS NULL")
            .bind(id.0)
            .execute(&mut **tx)
            .await?;
    }
    let now = commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0);
    // Events, deadlines and outbox rows: a few multi-row statements.
    for mut q in bulk_inserts::<Postgres>(id.0, commit, now)? {
        q.build().execute(&mut **tx).await?;
    }
    Ok(())
}

fn ids(rows: &[PgRow]) -> Result<Vec<CampaignId>, StoreError> {
    rows.iter()
        .map(|r| Ok(CampaignId(r.try_get("id")?)))
        .collect()
}

#[async_trait]
impl Store for PostgresStore {
    async fn create(&self, new: NewCampaign) -> Result<CampaignId, StoreError> {
        let result = sqlx::query(
            "INSERT INTO campaigns (kind, options, host, channel, guild, phase, turn_secs,
                 reminders, resolve_early, seed, commitment, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, 'lobby', $6, $7, $8, $9, $10, $11, $12)
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
        .bind(new.now)
        .fetch_one(&self.pool)
        .await;
        match result {
            Ok(row) => Ok(CampaignId(row.try_get("id")?)),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::ChannelBusy)
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn version(&self, id: CampaignId) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT version FROM campaigns WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("version")?),
            None => None,
        })
    }

    async fn load(&self, id: CampaignId) -> Result<Option<Loaded>, StoreError> {
        // One snapshot for the three reads, so seats and orders match the campaign row.
        let mut tx = self.snapshot().await?;
        let Some(row) = sqlx::query("SELECT * FROM campaigns WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let campaign = campaign_from_row(&row)?;
        let seats = sqlx::query("SELECT * FROM seats WHERE campaign_id = $1 ORDER BY seat")
            .bind(id.0)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(seat_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let orders = sqlx::query(
            "SELECT * FROM orders WHERE campaign_id = $1 AND step = $2 AND NOT superseded ORDER BY id",
        )
        .bind(id.0)
        .bind(i64::from(campaign.step))
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(order_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
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
        // The campaign's row lock first: every writer of this campaign queues here.
        let Some(row) = sqlx::query("SELECT version FROM campaigns WHERE id = $1 FOR UPDATE")
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?
        else {
            return Err(StoreError::Conflict);
        };
        // A deadline handled elsewhere first means there is nothing to do: checked before
        // the version, so the loser of that race stops instead of deciding again.
        for fired in &commit.fired {
            let done = sqlx::query(
                "UPDATE deadlines SET fired_at = $1 WHERE id = $2 AND campaign_id = $3 AND fired_at IS NULL",
            )
            .bind(commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0))
            .bind(fired)
            .bind(id.0)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            if done.rows_affected() != 1 {
                return Err(StoreError::AlreadyFired);
            }
        }
        let version: i64 = row.try_get("version")?;
        if version != expected_version {
            return Err(StoreError::Conflict);
        }
        match &commit.campaign {
            Some(c) => write_campaign(&mut tx, c, expected_version, commit.state_changed).await?,
            None => {
                // Still bump the version so concurrent deciders see the change.
                sqlx::query("UPDATE campaigns SET version = version + 1 WHERE id = $1")
                    .bind(id.0)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
        }
        write_rest(&mut tx, id, &commit).await?;
        if !commit.events.is_empty() {
            crate::fault::point("mid-adjudication");
        }
        tx.commit().await.map_err(db_err)?;
        Ok(())
    }

    async fn active_in_channel(&self, channel: &str) -> Result<Option<CampaignId>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM campaigns WHERE channel = $1 AND phase IN ('lobby', 'running', 'paused')",
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
        let row = sqlx::query("SELECT MAX(id) AS id FROM campaigns WHERE channel = $1")
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
        ids(&rows)
    }

    async fn campaigns_of_user(&self, user: &UserId) -> Result<Vec<CampaignId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT c.id FROM campaigns c JOIN seats s ON s.campaign_id = c.id
             WHERE s.user_id = $1 AND c.phase IN ('running', 'paused') ORDER BY c.id",
        )
        .bind(&user.0)
        .fetch_all(&self.pool)
        .await?;
        ids(&rows)
    }

    async fn due_deadlines(&self, now: Millis, limit: u32) -> Result<Vec<DeadlineRow>, StoreError> {
        sqlx::query(
            "SELECT * FROM deadlines WHERE fired_at IS NULL AND due_at <= $1
             ORDER BY due_at, id LIMIT $2",
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
        let mut rows = sqlx::query(
            "UPDATE deadlines SET claimed_by = $1, claim_until = $2
             WHERE id IN (
                 SELECT id FROM deadlines
                 WHERE fired_at IS NULL AND due_at <= $3
                   AND (claim_until IS NULL OR claim_until <= $3)
                 ORDER BY due_at, id LIMIT $4
                 FOR UPDATE SKIP LOCKED)
             RETURNING *",
        )
        .bind(holder)
        .bind(until)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(deadline_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        rows.sort_by_key(|d| (d.due_at, d.id));
        Ok(rows)
    }

    async fn release_deadline(&self, id: i64, holder: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE deadlines SET claimed_by = NULL, claim_until = NULL WHERE id = $1 AND claimed_by = $2",
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
                 SELECT MIN(GREATEST(due_at, claim_until)) FROM deadlines
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
             WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= $1
               AND NOT EXISTS (SELECT 1 FROM outbox_leases l
                               WHERE l.campaign_id = o.campaign_id AND l.lease_until > $1)
             ORDER BY id LIMIT $2",
        )
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
        // A lease held by someone else until later is left alone: the upsert's WHERE is
        // checked against the committed row, after waiting for a concurrent claimer.
        // Campaigns are taken in id order, so two claimers never wait on each other in a
        // cycle.
        let claimed: Vec<i64> = sqlx::query(
            "INSERT INTO outbox_leases (campaign_id, holder, lease_until)
             SELECT DISTINCT campaign_id, $1, $2 FROM outbox
             WHERE delivered_at IS NULL AND failed IS NULL AND not_before <= $3
             ORDER BY campaign_id
             ON CONFLICT (campaign_id) DO UPDATE SET
                 holder = excluded.holder, lease_until = excluded.lease_until
             WHERE outbox_leases.lease_until <= $3 OR outbox_leases.holder = excluded.holder
             RETURNING campaign_id",
        )
        .bind(holder)
        .bind(until)
        .bind(now)
        .fetch_all(&mut *tx)
        .await
        .map_err(db_err)?
        .iter()
        .map(|r| r.try_get("campaign_id"))
        .collect::<Result<_, _>>()?;
        if claimed.is_empty() {
            tx.commit().await?;
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT * FROM outbox
             WHERE campaign_id = ANY($1) AND delivered_at IS NULL AND failed IS NULL
               AND not_before <= $2
             ORDER BY id LIMIT $3",
        )
        .bind(&claimed)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(outbox_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await.map_err(db_err)?;
        Ok(rows)
    }

    async fn renew_outbox_lease(
        &self,
        campaign: CampaignId,
        holder: &str,
        until: Millis,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE outbox_leases SET lease_until = $1 WHERE campaign_id = $2 AND holder = $3",
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
        let ids: Vec<i64> = campaigns.iter().map(|c| c.0).collect();
        sqlx::query("DELETE FROM outbox_leases WHERE campaign_id = ANY($1) AND holder = $2")
            .bind(&ids)
            .bind(holder)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_delivered(
        &self,
        id: i64,
        external_id: Option<String>,
        at: Millis,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE outbox SET delivered_at = $1, external_id = $2, attempts = attempts + 1 WHERE id = $3",
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
        sqlx::query("UPDATE outbox SET not_before = $1, attempts = attempts + 1 WHERE id = $2")
            .bind(not_before)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_failed(&self, id: i64, reason: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET failed = $1, attempts = attempts + 1 WHERE id = $2")
            .bind(reason)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn outbox_of(&self, campaign: CampaignId) -> Result<Vec<OutboxRow>, StoreError> {
        sqlx::query("SELECT * FROM outbox WHERE campaign_id = $1 ORDER BY id")
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
        sqlx::query("UPDATE campaigns SET status_message = $1 WHERE id = $2")
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
        sqlx::query("UPDATE campaigns SET lobby_message = $1 WHERE id = $2")
            .bind(id)
            .bind(campaign.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn log(&self, campaign: CampaignId) -> Result<Vec<StepLog>, StoreError> {
        let mut tx = self.snapshot().await?;
        let turns = sqlx::query(
            "SELECT * FROM turns WHERE campaign_id = $1 AND resolved_at IS NOT NULL ORDER BY step",
        )
        .bind(campaign.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(turn_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        let orders = sqlx::query(
            "SELECT * FROM orders WHERE campaign_id = $1 AND NOT superseded ORDER BY step, id",
        )
        .bind(campaign.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(order_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        let events =
            sqlx::query("SELECT step, event FROM events WHERE campaign_id = $1 ORDER BY step, idx")
                .bind(campaign.0)
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
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
        sqlx::query("SELECT * FROM preferences WHERE campaign_id = $1 ORDER BY id")
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
        let exists: bool =
            sqlx::query("SELECT to_regclass('_sqlx_migrations') IS NOT NULL AS present")
                .fetch_one(&self.pool)
                .await?
                .try_get("present")?;
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
        Ok(schema_status("postgres", &MIGRATOR, &applied))
    }

    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
