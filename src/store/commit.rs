//! The commit sequence, once for both backends: everything one referee decision writes, in
//! one transaction, guarded by the campaign's version (see [`super::Commit`]).
//!
//! In order: queue behind other commits of the campaign (PostgreSQL locks the campaign's
//! row; SQLite's `BEGIN IMMEDIATE` already holds the only write lock); mark the handled
//! deadlines fired, refusing one fired already (checked before the version, so the loser of
//! that race stops instead of deciding again); write the campaign if its version is still
//! the expected one; then seats, orders, turns, preferences, and the multi-row inserts of
//! events, deadlines and outbox rows.

use sqlx::{AssertSqlSafe, Transaction};

use super::codec::{bulk_inserts, to_json};
use super::dialect::Dialect;
use super::sql::Stmt;
use super::{CampaignId, CampaignRow, Commit, StoreError};

/// Serialisation failures and deadlocks (PostgreSQL's 40001 and 40P01) mean "someone else
/// changed it first": the referee decides again, as for a version conflict. SQLite never
/// reports these codes.
pub(super) fn db_err(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(d) = &e
        && matches!(d.code().as_deref(), Some("40001" | "40P01"))
    {
        return StoreError::Conflict;
    }
    StoreError::Db(e)
}

/// Writes `commit` for campaign `id` in the open transaction `tx`, then commits it.
pub(super) async fn write<DB: Dialect>(
    mut tx: Transaction<'static, DB>,
    id: CampaignId,
    expected_version: i64,
    commit: &Commit,
) -> Result<(), StoreError> {
    if let Some(lock) = DB::LOCK_CAMPAIGN {
        let row = Stmt::<DB>::new(lock)
            .bind(id.0)
            .fetch_optional(&mut tx)
            .await
            .map_err(db_err)?;
        if row.is_none() {
            return Err(StoreError::Conflict);
        }
    }
    fire_deadlines::<DB>(&mut tx, id, commit).await?;
    match &commit.campaign {
        Some(c) => write_campaign::<DB>(&mut tx, c, expected_version, commit.state_changed).await?,
        None => {
            // Still bump the version so concurrent deciders see the change.
            let done = Stmt::<DB>::new(
                "UPDATE campaigns SET version = version + 1 WHERE id = $1 AND version = $2",
            )
            .bind(id.0)
            .bind(expected_version)
            .execute(&mut tx)
            .await
            .map_err(db_err)?;
            if done != 1 {
                return Err(StoreError::Conflict);
            }
        }
    }
    write_seats::<DB>(&mut tx, id, commit)
        .await
        .map_err(db_err)?;
    write_orders::<DB>(&mut tx, id, commit).await?;
    write_turns::<DB>(&mut tx, id, commit).await?;
    write_rows::<DB>(&mut tx, id, commit).await?;
    if !commit.events.is_empty() {
        crate::fault::point("mid-adjudication");
    }
    tx.commit().await.map_err(db_err)?;
    Ok(())
}

/// Marks each deadline the commit handled fired; `AlreadyFired` if one was already.
async fn fire_deadlines<DB: Dialect>(
    tx: &mut DB::Connection,
    id: CampaignId,
    commit: &Commit,
) -> Result<(), StoreError> {
    let at = commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0);
    for fired in &commit.fired {
        let done = Stmt::<DB>::new(
            "UPDATE deadlines SET fired_at = $1
             WHERE id = $2 AND campaign_id = $3 AND fired_at IS NULL",
        )
        .bind(at)
        .bind(*fired)
        .bind(id.0)
        .execute(tx)
        .await
        .map_err(db_err)?;
        if done != 1 {
            return Err(StoreError::AlreadyFired);
        }
    }
    Ok(())
}

async fn write_campaign<DB: Dialect>(
    tx: &mut DB::Connection,
    c: &CampaignRow,
    expected_version: i64,
    state_changed: bool,
) -> Result<(), StoreError> {
    // Adapter columns (status and lobby message ids) are not written here: they change
    // outside the referee's decisions. The state, the largest column, only when it changed.
    let sql = if state_changed {
        "UPDATE campaigns SET options = $1, phase = $2, turn_secs = $3, reminders = $4,
             resolve_early = $5, step = $6, step_open = $7, deadline_at = $8,
             paused_left_ms = $9, host = $10, updated_at = $11, ended_at = $12,
             version = version + 1, calendar = $15, clocks = $16, round = $17,
             state = $18, state_format = $19
         WHERE id = $13 AND version = $14"
    } else {
        "UPDATE campaigns SET options = $1, phase = $2, turn_secs = $3, reminders = $4,
             resolve_early = $5, step = $6, step_open = $7, deadline_at = $8,
             paused_left_ms = $9, host = $10, updated_at = $11, ended_at = $12,
             version = version + 1, calendar = $15, clocks = $16, round = $17
         WHERE id = $13 AND version = $14"
    };
    let mut stmt = Stmt::<DB>::new(sql)
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
        .bind(c.ended_at)
        .bind(c.id.0)
        .bind(expected_version)
        .bind(to_json(&c.timing.calendar)?)
        .bind(to_json(&c.clocks)?)
        .bind(match &c.round {
            Some(r) => Some(to_json(r)?),
            None => None,
        });
    if state_changed {
        let state = match &c.state {
            Some(s) => Some(to_json(s)?),
            None => None,
        };
        stmt = stmt.bind(state).bind(super::STATE_FORMAT);
    }
    let done = stmt.execute(tx).await.map_err(db_err)?;
    if done != 1 {
        return Err(StoreError::Conflict);
    }
    Ok(())
}

/// Replaces every seat, if the commit says so.
async fn write_seats<DB: Dialect>(
    tx: &mut DB::Connection,
    id: CampaignId,
    commit: &Commit,
) -> Result<(), sqlx::Error> {
    let Some(seats) = &commit.seats else {
        return Ok(());
    };
    Stmt::<DB>::new("DELETE FROM seats WHERE campaign_id = $1")
        .bind(id.0)
        .execute(tx)
        .await?;
    for s in seats {
        Stmt::<DB>::new(
            "INSERT INTO seats (campaign_id, seat, user_id, name, bot, choice, dm_ok, view_hash,
                 offer_to, autopilot, away)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(id.0)
        .bind(i64::from(s.seat.0))
        .bind(s.user.as_ref().map(|u| u.0.as_str()))
        .bind(&s.name)
        .bind(s.bot.map(crate::engine::BotLevel::name))
        .bind(&s.choice)
        .bind(s.dm_ok)
        .bind(&s.view_hash)
        .bind(s.offer.as_ref().map(|u| u.0.as_str()))
        .bind(s.autopilot.name())
        .bind(s.away.as_ref().and_then(|a| serde_json::to_string(a).ok()))
        .execute(tx)
        .await?;
    }
    Ok(())
}

/// New orders, each superseding the live order of its (step, seat) where there may be one.
async fn write_orders<DB: Dialect>(
    tx: &mut DB::Connection,
    id: CampaignId,
    commit: &Commit,
) -> Result<(), StoreError> {
    // An order taken back in its grace window: superseded, and nothing in its place.
    for &(step, seat) in &commit.withdrawn {
        Stmt::<DB>::new(DB::SUPERSEDE_ORDER)
            .bind(id.0)
            .bind(i64::from(step))
            .bind(i64::from(seat.0))
            .execute(tx)
            .await
            .map_err(db_err)?;
    }
    for o in &commit.orders {
        if commit.replaces.contains(&(o.step, o.seat)) {
            Stmt::<DB>::new(DB::SUPERSEDE_ORDER)
                .bind(id.0)
                .bind(i64::from(o.step))
                .bind(i64::from(o.seat.0))
                .execute(tx)
                .await
                .map_err(db_err)?;
        }
        Stmt::<DB>::new(
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
        .bind(o.by_user.as_ref().map(|u| u.0.as_str()))
        .bind(o.submitted_at)
        .execute(tx)
        .await
        .map_err(db_err)?;
        if let Some(kept) = commit.superseded_kept
            && commit.replaces.contains(&(o.step, o.seat))
        {
            // The live order is the newest row: keep it and the `kept` before it.
            Stmt::<DB>::new(
                "DELETE FROM orders WHERE campaign_id = $1 AND step = $2 AND seat = $3
                 AND id < (SELECT MIN(id) FROM (SELECT id FROM orders
                     WHERE campaign_id = $1 AND step = $2 AND seat = $3
                     ORDER BY id DESC LIMIT $4) AS newest)",
            )
            .bind(id.0)
            .bind(i64::from(o.step))
            .bind(i64::from(o.seat.0))
            .bind(i64::from(kept).saturating_add(1))
            .execute(tx)
            .await
            .map_err(db_err)?;
        }
    }
    Ok(())
}

/// Steps opened or resolved, upserted by step.
async fn write_turns<DB: Dialect>(
    tx: &mut DB::Connection,
    id: CampaignId,
    commit: &Commit,
) -> Result<(), StoreError> {
    for t in &commit.turns {
        Stmt::<DB>::new(
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
        .execute(tx)
        .await
        .map_err(db_err)?;
    }
    Ok(())
}

/// Preferences, the replaced deadlines, and the multi-row inserts (events, deadlines,
/// outbox).
async fn write_rows<DB: Dialect>(
    tx: &mut DB::Connection,
    id: CampaignId,
    commit: &Commit,
) -> Result<(), StoreError> {
    for p in &commit.preferences {
        Stmt::<DB>::new(
            "INSERT INTO preferences (campaign_id, step, seat, text, set_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id.0)
        .bind(i64::from(p.step))
        .bind(i64::from(p.seat.0))
        .bind(&p.text)
        .bind(p.set_at)
        .execute(tx)
        .await
        .map_err(db_err)?;
    }
    if commit.deadlines.is_some() {
        Stmt::<DB>::new("DELETE FROM deadlines WHERE campaign_id = $1 AND fired_at IS NULL")
            .bind(id.0)
            .execute(tx)
            .await
            .map_err(db_err)?;
    }
    let now = commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0);
    for insert in bulk_inserts(id.0, commit, now)? {
        let mut stmt = Stmt::<DB>::new(AssertSqlSafe(insert.sql));
        for arg in insert.args {
            stmt = stmt.bind(arg);
        }
        stmt.execute(tx).await.map_err(db_err)?;
    }
    Ok(())
}
