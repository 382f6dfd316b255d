//! The PostgreSQL store, for several bot processes sharing one database: the pool,
//! migrations from `migrations/postgres`, PostgreSQL's [`Dialect`], and [`redact`] for
//! URLs in messages. The queries, the commit sequence and the row decoding are shared with
//! SQLite (`queries.rs`, `commit.rs`, `rows.rs`).
//!
//! Every commit first locks its campaign's row (`SELECT ... FOR UPDATE`), so writers of one
//! campaign queue there and always take locks in the same order (no deadlocks); the
//! version check then refuses a decision made on a stale load. Claims of deadlines use
//! `FOR UPDATE SKIP LOCKED`, so processes ticking together split the due work instead of
//! waiting on each other; outbox leases are rows upserted only when free or expired.

use std::str::FromStr;
use std::time::Duration;

use sqlx::Postgres;
use std::sync::LazyLock;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

use super::backend::Backend;
use super::dialect::Dialect;
use super::error::StoreError;
use super::migrations;
use super::queries::SqlStore;

static MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| migrations::migrator(migrations::POSTGRES));

/// Connections per process: the referee serialises work per campaign, so a few suffice.
const MAX_CONNECTIONS: u32 = 8;

/// The PostgreSQL store.
pub type PostgresStore = SqlStore<Postgres>;

impl SqlStore<Postgres> {
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
        Ok(SqlStore {
            writer: pool.clone(),
            pool,
        })
    }
}

/// A database URL with its secrets blanked, for messages and logs: the password of
/// `user:password@`, and the value of any parameter whose name says pass, secret or token
/// (`?password=`, `&sslpassword=`, and `password=...` in a key=value string). When the
/// text is odd (an `@` in the query), it blanks more rather than less.
pub fn redact(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return mask_pairs(url);
    };
    let (head, rest) = url.split_at(start);
    let (userinfo, tail) = match rest.rfind('@') {
        Some(at) => rest.split_at(at),
        None => ("", rest),
    };
    let userinfo = match userinfo.split_once(':') {
        Some((user, _)) => format!("{user}:***"),
        None => userinfo.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => format!("{path}?{}", mask_pairs(query)),
        None => tail.to_string(),
    };
    format!("{head}{userinfo}{tail}")
}

/// Blanks the value of every `key=value` (separated by `&` or blanks) whose key names a
/// secret.
fn mask_pairs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The key so far, or `None` once in a value; `masking` while in a secret's value.
    let mut key = Some(String::new());
    let mut masking = false;
    for c in text.chars() {
        if c == '&' || c.is_whitespace() {
            key = Some(String::new());
            masking = false;
            out.push(c);
            continue;
        }
        if masking {
            continue;
        }
        out.push(c);
        match (&mut key, c) {
            (Some(k), '=') => {
                let k = k.to_ascii_lowercase();
                if ["pass", "pwd", "secret", "token"]
                    .iter()
                    .any(|s| k.contains(s))
                {
                    out.push_str("***");
                    masking = true;
                }
                key = None;
            }
            (Some(k), _) => k.push(c),
            (None, _) => {}
        }
    }
    out
}

impl Dialect for Postgres {
    const BACKEND: Backend = Backend::Postgres;
    const BEGIN_WRITE: &'static str = "BEGIN";
    const BEGIN_SNAPSHOT: Option<&'static str> =
        Some("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // Every writer of the campaign queues on its row, in the same order: no deadlocks.
    const LOCK_CAMPAIGN: Option<&'static str> =
        Some("SELECT version FROM campaigns WHERE id = $1 FOR UPDATE");
    const LIVE_ORDERS_OF_STEP: &'static str = "SELECT * FROM orders
        WHERE campaign_id = $1 AND step = $2 AND NOT superseded ORDER BY id";
    const LIVE_ORDERS: &'static str = "SELECT * FROM orders
        WHERE campaign_id = $1 AND NOT superseded AND step >= $2 AND step < $3 ORDER BY step, id";
    const PROMPTS_OF_STEPS: &'static str = "SELECT * FROM outbox
        WHERE campaign_id = $1 AND id < $4
          AND delivered_at IS NOT NULL AND external_id IS NOT NULL
          AND target::jsonb ->> 'to' = 'dm'
          AND payload::jsonb ->> 'kind' = 'prompt'
          AND (payload::jsonb ->> 'step')::bigint BETWEEN $2 AND $3
        ORDER BY id";
    const SUPERSEDE_ORDER: &'static str = "UPDATE orders SET superseded = TRUE
        WHERE campaign_id = $1 AND step = $2 AND seat = $3 AND NOT superseded";
    // SKIP LOCKED: processes ticking together split the due deadlines between them.
    const CLAIM_DEADLINES: &'static str = "UPDATE deadlines SET claimed_by = $1, claim_until = $2
        WHERE id IN (
            SELECT id FROM deadlines
            WHERE fired_at IS NULL AND due_at <= $3
              AND (claim_until IS NULL OR claim_until <= $3)
              AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.campaign_id = deadlines.campaign_id)
            ORDER BY due_at, id LIMIT $4
            FOR UPDATE SKIP LOCKED)
        RETURNING *";
    const HAS_MIGRATIONS_TABLE: &'static str =
        "SELECT to_regclass('_sqlx_migrations') IS NOT NULL AS present";

    fn migrator() -> &'static Migrator {
        &MIGRATOR
    }
}
