//! The store's side of exactly-once delivery beyond Discord's nonce window and of missed
//! DMs (docs/reliability.md): each attempt to create a message is recorded
//! before it goes out, and the newest DM handled from each user is remembered.

use super::dialect::Dialect;
use super::error::StoreError;
use super::queries::SqlStore;
use super::sql::{Get, Stmt};
use crate::vocab::{Millis, UserId};

/// How long a DM's claim outlives its being remembered as seen: as long as a live claim
/// (`discord::CLAIM_MS`), for the same event seen late by a second process. Until it is
/// seen, the claim never expires (a catch-up must not play a handled DM again).
const SEEN_CLAIM_MS: Millis = 3_600_000;

impl<DB: Dialect> SqlStore<DB> {
    /// Records an attempt to create outbox row `id`'s message at `at`. Returns when the
    /// first attempt was made if this is not the first: its outcome is unknown, so the
    /// message may already be there.
    pub(super) async fn record_create_attempt(
        &self,
        id: i64,
        at: Millis,
    ) -> Result<Option<Millis>, StoreError> {
        let row = self
            .row(
                Stmt::new(
                    "UPDATE outbox SET create_attempts = create_attempts + 1,
                         attempted_at = COALESCE(attempted_at, $1)
                     WHERE id = $2
                     RETURNING create_attempts, attempted_at",
                )
                .bind(at)
                .bind(id),
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let tries = row.int("create_attempts")?;
        let first = row.opt_int("attempted_at")?;
        Ok(first.filter(|_| tries > 1))
    }

    pub(super) async fn read_dm_seen(&self, user: &UserId) -> Result<Option<String>, StoreError> {
        let row = self
            .row(Stmt::new("SELECT message_id FROM dm_seen WHERE user_id = $1").bind(&user.0))
            .await?;
        Ok(match row {
            Some(r) => Some(r.text("message_id")?),
            None => None,
        })
    }

    /// Remembers `message` as the newest DM handled from `user`, unless a newer one is
    /// remembered (snowflakes grow with time), and lets the DM's claim, held for good
    /// until now, expire as an interaction's does.
    pub(super) async fn write_dm_seen(
        &self,
        user: &UserId,
        message: u64,
        at: Millis,
    ) -> Result<(), StoreError> {
        let newer = self
            .read_dm_seen(user)
            .await?
            .and_then(|m| m.parse::<u64>().ok())
            .is_some_and(|seen| seen >= message);
        if !newer {
            self.run(
                Stmt::new(
                    "INSERT INTO dm_seen (user_id, message_id, at) VALUES ($1, $2, $3)
                     ON CONFLICT (user_id) DO UPDATE
                     SET message_id = excluded.message_id, at = excluded.at",
                )
                .bind(&user.0)
                .bind(message.to_string())
                .bind(at),
            )
            .await?;
        }
        // Only once seen: a stop before this keeps the claim, and the DM is not replayed.
        self.run(
            Stmt::new("UPDATE interactions SET expires_at = $1 WHERE id = $2 AND expires_at > $1")
                .bind(at.saturating_add(SEEN_CLAIM_MS))
                .bind(message.to_string()),
        )
        .await?;
        Ok(())
    }
}
