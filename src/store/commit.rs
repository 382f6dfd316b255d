//! The commit sequence, once for both backends: everything one referee decision writes, in
//! one transaction, guarded by the campaign's version (see [`super::records::Commit`]).
//!
//! In order: queue behind other commits of the campaign (PostgreSQL locks the campaign's
//! row; SQLite's `BEGIN IMMEDIATE` already holds the only write lock); mark the handled
//! deadlines fired, refusing one fired already (checked before the version, so the loser of
//! that race stops instead of deciding again); write the campaign if its version is still
//! the expected one; then seats, orders, turns, preferences, and the multi-row inserts of
//! events, deadlines and outbox rows.
//!
//! The statements are planned first ([`Planned`]), each with the count of changed rows it
//! must see, then run one by one in the transaction. A guard is an ordinary statement
//! (`... WHERE version = $n`) whose count is checked as it returns: a wrong count or an
//! error stops the sequence, and the transaction, dropped uncommitted, is rolled back.

use std::borrow::Cow;

use sqlx::{AssertSqlSafe, Transaction};

use super::codec::{bulk_inserts, to_json};
use super::dialect::Dialect;
use super::error::StoreError;
use super::error::db_err;
use super::records::{CampaignRow, Commit};
use super::sql::{Arg, Stmt};
use crate::vocab::CampaignId;

/// What a statement of the plan must have changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Any,
    /// One row, or the deadline was fired already.
    Fired,
    /// One row, or the campaign's version moved on.
    Version,
}

impl Expect {
    /// The error when `changed` rows is the wrong count.
    fn check(self, changed: u64) -> Result<(), StoreError> {
        match self {
            Expect::Any => Ok(()),
            Expect::Fired if changed != 1 => Err(StoreError::AlreadyFired),
            Expect::Version if changed != 1 => Err(StoreError::Conflict),
            Expect::Fired | Expect::Version => Ok(()),
        }
    }
}

/// One statement of a commit, with its arguments.
struct Planned<'a> {
    sql: Cow<'static, str>,
    args: Vec<Arg<'a>>,
    expect: Expect,
}

impl<'a> Planned<'a> {
    fn new(sql: &'static str, args: Vec<Arg<'a>>) -> Self {
        Planned {
            sql: Cow::Borrowed(sql),
            args,
            expect: Expect::Any,
        }
    }

    fn expect(mut self, expect: Expect) -> Self {
        self.expect = expect;
        self
    }
}

fn stmt<DB: Dialect>(sql: Cow<'static, str>, args: Vec<Arg<'_>>) -> Stmt<DB> {
    let mut stmt = match sql {
        Cow::Borrowed(s) => Stmt::<DB>::new(s),
        Cow::Owned(s) => Stmt::<DB>::new(AssertSqlSafe(s)),
    };
    for arg in args {
        stmt = stmt.bind(arg);
    }
    stmt
}

/// Writes `commit` for campaign `id` in the open writing transaction `tx`, statement by
/// statement, checking each guard's count, then commits it.
pub(super) async fn write<DB: Dialect>(
    mut tx: Transaction<'static, DB>,
    id: CampaignId,
    expected_version: i64,
    commit: &Commit,
) -> Result<(), StoreError> {
    if let Some(lock) = DB::LOCK_CAMPAIGN {
        let row = Stmt::<DB>::new(lock)
            .bind(id.0)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
        if row.is_none() {
            return Err(StoreError::Conflict);
        }
    }
    for p in plan::<DB>(id, expected_version, commit)? {
        let changed = stmt::<DB>(p.sql, p.args)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        p.expect.check(changed)?;
    }
    if !commit.events.is_empty() {
        crate::fault::point("mid-adjudication");
    }
    // The fsync happens here, and on SQLite never on a tokio worker: sqlx-sqlite runs each
    // connection on a thread of its own (`ConnectionWorker::establish` in sqlx-sqlite's
    // `connection/worker.rs` spawns it, and `COMMIT` is a command executed there), and
    // this task only awaits the answer. PostgreSQL's fsync is the server's.
    tx.commit().await.map_err(db_err)
}

/// Every statement of a commit, in order: the handled deadlines marked fired (each must
/// have been unfired), the campaign under its version, then the rest.
fn plan<'a, DB: Dialect>(
    id: CampaignId,
    expected_version: i64,
    commit: &'a Commit,
) -> Result<Vec<Planned<'a>>, StoreError> {
    let mut plan = Vec::new();
    let at = commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0);
    for fired in &commit.fired {
        plan.push(
            Planned::new(
                "UPDATE deadlines SET fired_at = $1
                 WHERE id = $2 AND campaign_id = $3 AND fired_at IS NULL",
                vec![Arg::Int(at), Arg::Int(*fired), Arg::Int(id.0)],
            )
            .expect(Expect::Fired),
        );
    }
    match &commit.campaign {
        Some(c) => {
            plan.push(campaign(c, expected_version, commit.phase_and_host_kept)?);
            if commit.state_changed {
                plan.push(state(c)?);
            }
        }
        // Still bump the version so concurrent deciders see the change.
        None => plan.push(
            Planned::new(
                "UPDATE campaigns SET version = version + 1 WHERE id = $1 AND version = $2",
                vec![Arg::Int(id.0), Arg::Int(expected_version)],
            )
            .expect(Expect::Version),
        ),
    }
    seats(&mut plan, id, commit);
    orders::<DB>(&mut plan, id, commit)?;
    turns(&mut plan, id, commit)?;
    rows(&mut plan, id, commit)?;
    Ok(plan)
}

fn campaign<'a>(
    c: &'a CampaignRow,
    expected_version: i64,
    phase_and_host_kept: bool,
) -> Result<Planned<'a>, StoreError> {
    // Adapter columns (status and lobby message ids) are not written here: they change
    // outside the referee's decisions. The state has its own row (migration 20). A column
    // named in SET rewrites every index over it (SQLite does not compare the values), so
    // the phase and host, under three indexes, are named only when they changed.
    let sql = if phase_and_host_kept {
        "UPDATE campaigns SET options = $1, turn_secs = $2, reminders = $3,
             resolve_early = $4, step = $5, step_open = $6, deadline_at = $7,
             paused_left_ms = $8, updated_at = $9, ended_at = $10,
             version = version + 1, calendar = $11, clocks = $12, round = $13
         WHERE id = $14 AND version = $15"
    } else {
        "UPDATE campaigns SET options = $1, turn_secs = $2, reminders = $3,
             resolve_early = $4, step = $5, step_open = $6, deadline_at = $7,
             paused_left_ms = $8, updated_at = $9, ended_at = $10,
             version = version + 1, calendar = $11, clocks = $12, round = $13,
             phase = $16, host = $17
         WHERE id = $14 AND version = $15"
    };
    let mut args = vec![
        Arg::from(to_json(&c.options)?),
        Arg::Int(i64::try_from(c.timing.turn_secs).unwrap_or(i64::MAX)),
        Arg::from(to_json(&c.timing.reminders)?),
        Arg::Flag(c.timing.resolve_early),
        Arg::Int(i64::from(c.step)),
        Arg::Flag(c.step_open),
        Arg::OptInt(c.deadline_at),
        Arg::OptInt(c.paused_left_ms),
        Arg::Int(c.updated_at),
        Arg::OptInt(c.ended_at),
        Arg::from(to_json(&c.timing.calendar)?),
        Arg::from(to_json(&c.clocks)?),
        Arg::from(match &c.round {
            Some(r) => Some(to_json(r)?),
            None => None,
        }),
        Arg::Int(c.id.0),
        Arg::Int(expected_version),
    ];
    if !phase_and_host_kept {
        args.push(Arg::from(c.phase.as_str()));
        args.push(Arg::from(&c.host.0));
    }
    Ok(Planned::new(sql, args).expect(Expect::Version))
}

/// The game state, in its own row (migration 20): written only when it changed, so an
/// order that resolves nothing leaves it alone.
fn state<'a>(c: &'a CampaignRow) -> Result<Planned<'a>, StoreError> {
    let state = match &c.state {
        Some(s) => Some(to_json(s)?),
        None => None,
    };
    Ok(Planned::new(
        "INSERT INTO campaign_states (campaign_id, state, state_format) VALUES ($1, $2, $3)
         ON CONFLICT (campaign_id) DO UPDATE SET
             state = excluded.state, state_format = excluded.state_format",
        vec![
            Arg::Int(c.id.0),
            Arg::from(state),
            Arg::Int(super::records::STATE_FORMAT),
        ],
    ))
}

/// Replaces every seat, if the commit says so.
fn seats<'a>(plan: &mut Vec<Planned<'a>>, id: CampaignId, commit: &'a Commit) {
    let Some(seats) = &commit.seats else {
        return;
    };
    plan.push(Planned::new(
        "DELETE FROM seats WHERE campaign_id = $1",
        vec![Arg::Int(id.0)],
    ));
    for s in seats {
        plan.push(Planned::new(
            "INSERT INTO seats (campaign_id, seat, user_id, name, bot, choice, dm_ok, view_hash,
                 offer_to, autopilot, away)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            vec![
                Arg::Int(id.0),
                Arg::Int(i64::from(s.seat.0)),
                Arg::from(s.user.as_ref().map(|u| u.0.as_str())),
                Arg::from(&s.name),
                Arg::from(s.bot.map(crate::engine::BotLevel::name)),
                Arg::from(&s.choice),
                Arg::Flag(s.dm_ok),
                Arg::from(&s.view_hash),
                Arg::from(s.offer.as_ref().map(|u| u.0.as_str())),
                Arg::from(s.autopilot.name()),
                Arg::from(s.away.as_ref().and_then(|a| serde_json::to_string(a).ok())),
            ],
        ));
    }
}

/// New orders, each superseding the live order of its (step, seat) where there may be one.
fn orders<'a, DB: Dialect>(
    plan: &mut Vec<Planned<'a>>,
    id: CampaignId,
    commit: &'a Commit,
) -> Result<(), StoreError> {
    // An order taken back in its grace window: superseded, and nothing in its place.
    for &(step, seat) in &commit.withdrawn {
        plan.push(Planned {
            sql: Cow::Borrowed(DB::SUPERSEDE_ORDER),
            args: vec![
                Arg::Int(id.0),
                Arg::Int(i64::from(step)),
                Arg::Int(i64::from(seat.0)),
            ],
            expect: Expect::Any,
        });
    }
    for o in &commit.orders {
        let step = i64::from(o.step);
        let seat = i64::from(o.seat.0);
        let replaces = commit.replaces.contains(&(o.step, o.seat));
        if replaces {
            plan.push(Planned {
                sql: Cow::Borrowed(DB::SUPERSEDE_ORDER),
                args: vec![Arg::Int(id.0), Arg::Int(step), Arg::Int(seat)],
                expect: Expect::Any,
            });
        }
        plan.push(Planned::new(
            "INSERT INTO orders (campaign_id, step, seat, text, parsed, source, nonce, receipt,
                 by_user, submitted_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            vec![
                Arg::Int(id.0),
                Arg::Int(step),
                Arg::Int(seat),
                Arg::from(&o.text),
                Arg::from(to_json(&o.parsed)?),
                Arg::from(o.source.as_str()),
                Arg::from(&o.nonce),
                Arg::from(&o.receipt),
                Arg::from(o.by_user.as_ref().map(|u| u.0.as_str())),
                Arg::Int(o.submitted_at),
            ],
        ));
        if let Some(kept) = commit.superseded_kept
            && replaces
        {
            // The live order is the newest row: keep it and the `kept` before it.
            plan.push(Planned::new(
                "DELETE FROM orders WHERE campaign_id = $1 AND step = $2 AND seat = $3
                 AND id < (SELECT MIN(id) FROM (SELECT id FROM orders
                     WHERE campaign_id = $1 AND step = $2 AND seat = $3
                     ORDER BY id DESC LIMIT $4) AS newest)",
                vec![
                    Arg::Int(id.0),
                    Arg::Int(step),
                    Arg::Int(seat),
                    Arg::Int(i64::from(kept).saturating_add(1)),
                ],
            ));
        }
    }
    Ok(())
}

/// Steps opened or resolved, upserted by step.
fn turns<'a>(
    plan: &mut Vec<Planned<'a>>,
    id: CampaignId,
    commit: &'a Commit,
) -> Result<(), StoreError> {
    for t in &commit.turns {
        plan.push(Planned::new(
            "INSERT INTO turns (campaign_id, step, label, pending, opened_at, deadline_at,
                 resolved_at, late)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (campaign_id, step) DO UPDATE SET
                 label = excluded.label, pending = excluded.pending,
                 deadline_at = excluded.deadline_at, resolved_at = excluded.resolved_at,
                 late = excluded.late",
            vec![
                Arg::Int(id.0),
                Arg::Int(i64::from(t.step)),
                Arg::from(&t.label),
                Arg::from(to_json(&t.pending)?),
                Arg::Int(t.opened_at),
                Arg::OptInt(t.deadline_at),
                Arg::OptInt(t.resolved_at),
                Arg::Flag(t.late),
            ],
        ));
    }
    Ok(())
}

/// Preferences, the replaced deadlines, and the multi-row inserts (events, deadlines,
/// outbox).
fn rows<'a>(
    plan: &mut Vec<Planned<'a>>,
    id: CampaignId,
    commit: &'a Commit,
) -> Result<(), StoreError> {
    for p in &commit.preferences {
        plan.push(Planned::new(
            "INSERT INTO preferences (campaign_id, step, seat, text, set_at)
             VALUES ($1, $2, $3, $4, $5)",
            vec![
                Arg::Int(id.0),
                Arg::Int(i64::from(p.step)),
                Arg::Int(i64::from(p.seat.0)),
                Arg::from(&p.text),
                Arg::Int(p.set_at),
            ],
        ));
    }
    if commit.deadlines.is_some() {
        plan.push(Planned::new(
            "DELETE FROM deadlines WHERE campaign_id = $1 AND fired_at IS NULL",
            vec![Arg::Int(id.0)],
        ));
    }
    let now = commit.campaign.as_ref().map(|c| c.updated_at).unwrap_or(0);
    for insert in bulk_inserts(id.0, commit, now)? {
        plan.push(Planned {
            sql: Cow::Owned(insert.sql),
            args: insert.args,
            expect: Expect::Any,
        });
    }
    Ok(())
}
