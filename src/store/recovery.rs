//! What a restart reads across every race at once: the human seats that owe an order,
//! in one query (not one load per race), so the cost of a restart grows with the races
//! that have work due.

use super::dialect::Dialect;
use super::error::StoreError;
use super::queries::SqlStore;
use super::records::Owing;
use super::sql::{Arg, Get, Stmt};
use crate::engine::{Pending, Seat};
use crate::vocab::{CampaignId, UserId};

impl<DB: Dialect> SqlStore<DB> {
    pub(super) async fn read_owing(&self) -> Result<Owing, StoreError> {
        // Candidates: each human seat of a running race's open step with no live order;
        // the step's pending seats (JSON) are checked here.
        let found = self
            .rows(
                Stmt::new(
                    "SELECT c.id, s.seat, s.user_id, t.pending
                     FROM campaigns c
                     JOIN turns t ON t.campaign_id = c.id AND t.step = c.step
                     JOIN seats s ON s.campaign_id = c.id
                     WHERE c.phase = 'running' AND c.step_open = $1
                       AND s.bot IS NULL AND s.user_id IS NOT NULL
                       AND NOT EXISTS (SELECT 1 FROM orders o
                           WHERE o.campaign_id = c.id AND o.step = c.step
                             AND o.seat = s.seat AND o.superseded = $2)
                     ORDER BY c.id, s.seat",
                )
                .bind(Arg::Flag(true))
                .bind(Arg::Flag(false)),
            )
            .await?;
        let mut seats = Vec::new();
        for r in &found {
            let pending: Pending = serde_json::from_str(&r.text("pending")?)
                .map_err(|e| StoreError::Corrupt(format!("turns.pending: {e}")))?;
            let seat = u8::try_from(r.int("seat")?)
                .map(Seat)
                .map_err(|e| StoreError::Corrupt(format!("seats.seat: {e}")))?;
            if pending.includes(seat) {
                seats.push((CampaignId(r.int("id")?), seat, UserId(r.text("user_id")?)));
            }
        }
        let between = self
            .rows(
                Stmt::new(
                    "SELECT id FROM campaigns WHERE phase = 'running' AND step_open = $1
                     ORDER BY id",
                )
                .bind(Arg::Flag(false)),
            )
            .await?;
        let mut between_steps = Vec::new();
        for r in &between {
            between_steps.push(CampaignId(r.int("id")?));
        }
        Ok(Owing {
            seats,
            between_steps,
        })
    }
}
