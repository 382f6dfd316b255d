//! The PostgreSQL store, for several bot processes sharing one database: the pool,
//! migrations from `migrations/postgres`, PostgreSQL's [`Dialect`], the refusal of URL
//! parameters the driver would ignore, and TLS as the URL's `sslmode` and `sslrootcert` ask, with a failed
//! handshake told as one sentence naming its cause. The queries, the commit sequence and the row decoding are shared with
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
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgSslMode};

use super::backend::Backend;
use super::dialect::Dialect;
use super::error::StoreError;
use super::migrations;
use super::queries::SqlStore;
use super::redact::redact;

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
        known_parameters(url)?;
        let mut options = PgConnectOptions::from_str(url)
            .map_err(|_| StoreError::BadUrl(redact(url)))?
            .application_name("photofinish");
        let root_cert = root_cert(url);
        // As libpq: given a root certificate, `require` checks the chain as verify-ca does
        // (sqlx alone would accept any certificate and ignore the file).
        if matches!(options.get_ssl_mode(), PgSslMode::Require) && root_cert.is_some() {
            options = options.ssl_mode(PgSslMode::VerifyCa);
        }
        let server = format!("{}:{}", options.get_host(), options.get_port());
        let mode = options.get_ssl_mode();
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| match tls_failure(&e, mode, root_cert.as_deref()) {
                Some(cause) => StoreError::Tls(format!(
                    "TLS to PostgreSQL at {server} failed (sslmode={}): {cause}",
                    mode_name(mode)
                )),
                None => StoreError::Db(e),
            })?;
        Ok(SqlStore {
            writer: pool.clone(),
            pool,
        })
    }
}

/// The URL parameters sqlx reads (`sqlx-postgres`'s `options/parse.rs`); it ignores any
/// other with a warning that quotes its value.
const KNOWN_PARAMETERS: &[&str] = &[
    "sslmode",
    "ssl-mode",
    "sslrootcert",
    "ssl-root-cert",
    "ssl-ca",
    "sslcert",
    "ssl-cert",
    "sslkey",
    "ssl-key",
    "statement-cache-capacity",
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "application_name",
    "options",
];

/// Refuses a parameter sqlx does not know, naming it but never its value.
fn known_parameters(url: &str) -> Result<(), StoreError> {
    let query = url.split_once('?').map(|(_, q)| q).unwrap_or("");
    let query = query.split('#').next().unwrap_or("");
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let raw = pair.split('=').next().unwrap_or("");
        let name = percent_encoding::percent_decode_str(raw).decode_utf8_lossy();
        let known = KNOWN_PARAMETERS.contains(&name.as_ref())
            || (name.starts_with("options[") && name.ends_with(']'));
        if !known {
            let plain = name.len() <= 40
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            let without_query = url.split('?').next().unwrap_or("");
            return Err(StoreError::UnknownParameter {
                url: redact(without_query),
                name: if plain {
                    format!("`{name}`")
                } else {
                    "a parameter".into()
                },
                known: "sslmode, sslrootcert, sslcert, sslkey, host, hostaddr, port, dbname, \
                        user, password, application_name, options",
            });
        }
    }
    Ok(())
}

/// The root certificate file the connection is to trust beside the system's CA bundle:
/// the URL's `sslrootcert` (or its sqlx spellings), else `PGSSLROOTCERT`, as sqlx reads them.
fn root_cert(url: &str) -> Option<String> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(key, _)| matches!(*key, "sslrootcert" | "ssl-root-cert" | "ssl-ca"))
        .map(|(_, value)| {
            let value = value.replace('+', " ");
            percent_encoding::percent_decode_str(&value)
                .decode_utf8_lossy()
                .into_owned()
        })
        .next_back()
        .or_else(|| std::env::var("PGSSLROOTCERT").ok())
        .filter(|path| !path.trim().is_empty())
}

fn mode_name(mode: PgSslMode) -> &'static str {
    match mode {
        PgSslMode::Disable => "disable",
        PgSslMode::Allow => "allow",
        PgSslMode::Prefer => "prefer",
        PgSslMode::Require => "require",
        PgSslMode::VerifyCa => "verify-ca",
        PgSslMode::VerifyFull => "verify-full",
    }
}

/// The cause of a failed connection, in words for the operator, when TLS is what failed.
/// sqlx reports rustls's verdicts on the server's certificate as I/O errors of kind
/// `InvalidData` (rustls's own error inside), and its own TLS complaints as `Error::Tls`.
fn tls_failure(e: &sqlx::Error, mode: PgSslMode, root_cert: Option<&str>) -> Option<String> {
    if matches!(mode, PgSslMode::Disable | PgSslMode::Allow) {
        return None;
    }
    let verifies = matches!(mode, PgSslMode::VerifyCa | PgSslMode::VerifyFull);
    let roots = match root_cert {
        Some(path) => format!("sslrootcert ({path}) or the system's CA bundle"),
        None => "the system's CA bundle (name the server's CA with sslrootcert=FILE)".to_string(),
    };
    match e {
        sqlx::Error::Tls(inner) => {
            let text = inner.to_string();
            Some(if text.contains("does not support TLS") {
                format!(
                    "the server does not offer TLS, and sslmode={} requires it",
                    mode_name(mode)
                )
            } else if text.starts_with("Invalid certificate") {
                // sqlx's text repeats the whole input; the file's name is enough.
                format!(
                    "sslrootcert ({}) holds no readable PEM certificate",
                    root_cert.unwrap_or("PGSSLROOTCERT")
                )
            } else {
                text
            })
        }
        sqlx::Error::Io(io) => {
            let kind = io.kind();
            if verifies
                && root_cert.is_some()
                && matches!(
                    kind,
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied
                )
            {
                return Some(format!(
                    "sslrootcert ({}) cannot be read: {io}",
                    root_cert.unwrap_or_default()
                ));
            }
            let inner = io
                .get_ref()
                .filter(|_| kind == std::io::ErrorKind::InvalidData)?;
            let text = inner.to_string();
            Some(if text.contains("UnknownIssuer") {
                format!("the server's certificate is not signed by a CA in {roots}")
            } else if text.contains("NotValidForName") || text.contains("not valid for name") {
                "the server's certificate does not name the host connected to                  (verify-full checks it; connect by a name the certificate carries)"
                    .to_string()
            } else if text.contains("xpired") || text.contains("NotValidYet") {
                format!("the server's certificate is out of its validity period ({text})")
            } else {
                text
            })
        }
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_sqlx_would_ignore_is_refused_by_name_only() {
        let err = known_parameters("postgres://bot@db/pf?sslmode=require&sslpassword=hunter2")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`sslpassword` is not"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        let err = known_parameters("postgres://bot@db/pf?hunter%2F2=x").unwrap_err();
        assert!(!err.to_string().contains("hunter"), "{err}");
        assert!(
            known_parameters("postgres://bot@db/pf?sslmode=verify-full&sslrootcert=/ca").is_ok()
        );
        assert!(
            known_parameters("postgres://bot@db/pf?p%61ssword=pw&options[search_path]=x").is_ok()
        );
        assert!(known_parameters("postgres://bot@db/pf").is_ok());
    }

    #[test]
    fn the_root_certificate_is_read_from_the_url_decoded() {
        assert_eq!(
            root_cert("postgres://u@h/db?sslmode=verify-full&sslrootcert=%2Fetc%2Fca%20x.crt")
                .as_deref(),
            Some("/etc/ca x.crt")
        );
        assert_eq!(
            root_cert("postgres://u@h/db?ssl-ca=/ca.pem#x").as_deref(),
            Some("/ca.pem")
        );
    }

    #[test]
    fn a_refused_certificate_names_its_cause() {
        let refused = sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "invalid peer certificate: UnknownIssuer",
        ));
        let cause = tls_failure(&refused, PgSslMode::VerifyFull, Some("/ca.crt")).unwrap();
        assert!(
            cause.contains("not signed by a CA in sslrootcert (/ca.crt)"),
            "{cause}"
        );
        // The same error without TLS asked for is not a TLS failure.
        assert!(tls_failure(&refused, PgSslMode::Disable, None).is_none());
        let plain = sqlx::Error::Io(std::io::ErrorKind::ConnectionRefused.into());
        assert!(tls_failure(&plain, PgSslMode::VerifyFull, None).is_none());
    }
}
