//! TLS to PostgreSQL: the store opens with `sslmode=require` and really negotiates TLS,
//! opens with `verify-full` against the server's CA, and refuses a server its root
//! certificate does not vouch for, in one sentence naming the cause and not the password.
//!
//! The server is `PHOTOFINISH_TEST_POSTGRES`; the CA that signed its certificate is
//! `PHOTOFINISH_TEST_POSTGRES_CA` (`.ci/postgres start DIR` writes `DIR/ca.crt`, `.ci/run`
//! sets both). Without them these tests are skipped.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use photofinish::config::Settings;
use photofinish::games::GameKind;
use photofinish::referee::{Config, NewRace, Referee, TestClock};
use photofinish::store::{self, PostgresStore, StoreError};
use sqlx::Row;

use crate::support::backend::{Db, Kind, postgres_required, postgres_url};
use crate::support::courier::alice;

/// The environment variable naming the CA file that signed the test server's certificate.
const CA_ENV: &str = "PHOTOFINISH_TEST_POSTGRES_CA";

/// A password the loopback server (trust authentication) accepts and ignores: it must
/// never show in an error.
const PASSWORD: &str = "tls-test-pw-8d2f";

static SKIP_NOTICE: std::sync::Once = std::sync::Once::new();

/// The server's CA, if the PostgreSQL suite runs and one is named. A suite that must run
/// (`PHOTOFINISH_REQUIRE_POSTGRES`) must have it too.
fn server_ca() -> Option<PathBuf> {
    postgres_url()?;
    match std::env::var(CA_ENV) {
        Ok(path) if !path.trim().is_empty() => Some(PathBuf::from(path)),
        _ => {
            assert!(
                !postgres_required(),
                "{CA_ENV} is not set: .ci/run sets it to the CA .ci/postgres wrote"
            );
            // Once, straight to stderr: the harness captures eprintln! of passing tests.
            SKIP_NOTICE.call_once(|| {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "note: the verify-full tests were skipped ({CA_ENV} is not set)"
                );
            });
            None
        }
    }
}

/// The database's URL with TLS parameters added.
fn with_params(url: &str, params: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}{params}")
}

/// Whether the session behind this pool runs over TLS, as the server sees it.
async fn server_sees_tls(url: &str) -> bool {
    let raw = PostgresStore::connect(url).await.unwrap();
    let ssl: bool = sqlx::query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .fetch_one(raw.pool())
        .await
        .unwrap()
        .get(0);
    raw.pool().close().await;
    ssl
}

/// Opens the store at `url` (migrating it), creates a race and reads it back.
async fn write_and_read(url: &str) {
    let store = store::open(url)
        .await
        .unwrap_or_else(|e| panic!("open over TLS: {e}"));
    let status = store.schema_status().await.unwrap();
    assert!(status.pending.is_empty(), "{status:?}");
    let referee = Referee::new(
        store.clone(),
        Arc::new(TestClock::at_epoch()),
        Config::default(),
    );
    let id = referee
        .create(NewRace {
            kind: GameKind::DreamMile,
            options: String::new(),
            channel: "tls-chan".into(),
            guild: Some("tls-guild".into()),
            host: alice(),
        })
        .await
        .unwrap();
    let loaded = store
        .load(id)
        .await
        .unwrap()
        .expect("the race just created");
    assert_eq!(loaded.campaign.channel, "tls-chan");
    store.close().await;
}

/// A CA of its own, which signed nothing the server holds.
fn stranger_ca(dir: &Path) -> PathBuf {
    let (key, crt) = (dir.join("stranger.key"), dir.join("stranger.crt"));
    let out = std::process::Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args(["-subj", "/CN=a stranger"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&crt)
        .output()
        .expect("openssl, which .ci/postgres needs too");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    crt
}

/// `sslmode=require`: the store works, and the server sees the session encrypted; with
/// `sslmode=disable` it does not (so the check can tell).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn require_negotiates_tls_and_the_store_works() {
    if postgres_url().is_none() {
        return;
    }
    let db = Db::new(Kind::Postgres).await;
    let url = with_params(&db.url, "sslmode=require");
    write_and_read(&url).await;
    assert!(
        server_sees_tls(&url).await,
        "sslmode=require ran in the clear"
    );
    assert!(!server_sees_tls(&with_params(&db.url, "sslmode=disable")).await);
}

/// `verify-full` and `verify-ca` with the server's CA as `sslrootcert`, the password given
/// apart as `database_password` puts it in the URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_full_trusts_the_servers_ca() {
    let Some(ca) = server_ca() else { return };
    let db = Db::new(Kind::Postgres).await;
    let url = with_params(
        &db.url,
        &format!("sslmode=verify-full&sslrootcert={}", ca.display()),
    );
    let settings = Settings::from_toml(&format!(
        "database = \"{url}\"\ndatabase_password = \"{PASSWORD}\"\n"
    ))
    .unwrap();
    let url = settings.database;
    assert!(
        url.contains(PASSWORD) && url.contains("sslrootcert="),
        "{url}"
    );
    write_and_read(&url).await;
    assert!(server_sees_tls(&url).await);
    let verify_ca = with_params(
        &db.url,
        &format!("sslmode=verify-ca&sslrootcert={}", ca.display()),
    );
    assert!(server_sees_tls(&verify_ca).await);
}

/// A root certificate that did not sign the server's is refused, in verify-full and in
/// require (which, given `sslrootcert`, checks the chain as libpq does), with one
/// sentence that names the cause and the file, and not the password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_root_certificate_is_refused_clearly() {
    if server_ca().is_none() {
        return;
    }
    let db = Db::new(Kind::Postgres).await;
    let dir = tempfile::tempdir().unwrap();
    let stranger = stranger_ca(dir.path());
    let with_pw = db
        .url
        .replacen("://photofinish@", &format!("://photofinish:{PASSWORD}@"), 1);
    assert!(with_pw.contains(PASSWORD), "{with_pw}");
    for mode in ["verify-full", "require"] {
        let url = with_params(
            &with_pw,
            &format!("sslmode={mode}&sslrootcert={}", stranger.display()),
        );
        let Err(err) = store::open(&url).await else {
            panic!("sslmode={mode} trusted a server the stranger CA never signed");
        };
        assert!(matches!(err, StoreError::Tls(_)), "{mode}: {err:?}");
        let text = err.to_string();
        assert!(
            text.contains("not signed by a CA in sslrootcert")
                && text.contains(&stranger.display().to_string()),
            "{mode}: {text}"
        );
        assert!(
            text.starts_with("TLS to PostgreSQL at 127.0.0.1:"),
            "{text}"
        );
        assert!(!text.contains(PASSWORD) && !text.contains('\n'), "{text}");
    }
    // A root certificate file that is not there is named as such.
    let missing = dir.path().join("missing.crt");
    let url = with_params(
        &with_pw,
        &format!("sslmode=verify-full&sslrootcert={}", missing.display()),
    );
    let text = match store::open(&url).await {
        Ok(_) => panic!("opened without its root certificate"),
        Err(e) => e.to_string(),
    };
    assert!(text.contains("cannot be read"), "{text}");
    assert!(!text.contains(PASSWORD), "{text}");
}
