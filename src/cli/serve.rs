//! The opt-in metrics and health listener of `photofinish run` (configuration key
//! `metrics.listen`), stopped with the bot:
//!
//! - `GET /metrics`: Prometheus text. What the Discord adapter recorded through the
//!   `metrics` macros (REST latency, errors by status and JSON code), and the health
//!   report's figures (backlog, overdue deadlines, workers, gateway), computed on each
//!   scrape by [`health::assess`], the function `photofinish health --json` uses.
//! - `GET /health` (and `/healthz`): that report as JSON, 200 when healthy, 503 when not.
//!
//! The adapter knows nothing of this module: it calls the macros, and the recorder
//! installed here renders them.

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::sync::{Mutex, oneshot};

use super::health::{self, GatewayCheck, Probe, Report};
use crate::referee::Clock;
use crate::store::{self, Store};

/// The Discord REST latency histogram's name (recorded in `discord::courier`).
const REST_SECONDS: &str = "photofinish_discord_rest_seconds";
/// Its buckets, in seconds: Discord answers in tens of milliseconds, a rate limit in seconds.
const REST_BUCKETS: &[f64] = &[0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// A scrape waits this long for the database at most.
const REPORT_TIMEOUT: Duration = Duration::from_secs(10);
/// How often the recorder's histograms are folded, scraped or not (bounded memory).
const UPKEEP: Duration = Duration::from_secs(5);

/// Why the listener did not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on {addr} for `metrics.listen`: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// The process's recorder, installed once: the adapter's macros record into it.
fn recorder() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = match PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(REST_SECONDS.into()), REST_BUCKETS)
            {
                Ok(b) => b,
                // Only an empty bucket list is refused; a summary then stands in.
                Err(_) => PrometheusBuilder::new(),
            };
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("another metrics recorder is installed; /metrics shows health only");
            }
            handle
        })
        .clone()
}

/// Where the report comes from: a store, or a database opened on the first scrape (the
/// bot migrates it at start; a listener opened first must not create it).
enum Source {
    Open(Arc<dyn Store>),
    Url(String),
}

/// What the listener reports on.
pub struct Target {
    source: Source,
    opened: Mutex<Option<Arc<dyn Store>>>,
    /// As the report names it: redacted.
    database: String,
    probe: Probe,
    /// The referee's clock, which deadlines and queued announcements are on.
    clock: Arc<dyn Clock>,
}

impl Target {
    /// Reports on an open store (the tests').
    pub fn store(store: Arc<dyn Store>, name: &str, probe: Probe, clock: Arc<dyn Clock>) -> Target {
        Target {
            source: Source::Open(store),
            opened: Mutex::new(None),
            database: store::redact(name),
            probe,
            clock,
        }
    }

    /// Reports on the database at `url`, opened when first scraped.
    pub fn database(url: &str, probe: Probe, clock: Arc<dyn Clock>) -> Target {
        Target {
            source: Source::Url(url.to_string()),
            opened: Mutex::new(None),
            database: store::redact(url),
            probe,
            clock,
        }
    }

    async fn open(&self) -> Result<Arc<dyn Store>, String> {
        let url = match &self.source {
            Source::Open(db) => return Ok(db.clone()),
            Source::Url(url) => url,
        };
        let mut opened = self.opened.lock().await;
        if let Some(db) = &*opened {
            return Ok(db.clone());
        }
        match tokio::time::timeout(REPORT_TIMEOUT, store::connect(url)).await {
            Ok(Ok(db)) => {
                *opened = Some(db.clone());
                Ok(db)
            }
            Ok(Err(e)) => Err(format!("the database is unreachable: {e}")),
            Err(_) => Err("the database did not answer within 10 s".into()),
        }
    }

    /// The health report, now.
    pub async fn report(&self) -> Report {
        let unreachable =
            |p: String| health::unreachable(self.database.clone(), self.probe.instance.clone(), p);
        let db = match self.open().await {
            Ok(db) => db,
            Err(problem) => return unreachable(problem),
        };
        let now = self.clock.now();
        let assessed = health::assess(&*db, self.database.clone(), &self.probe, now);
        match tokio::time::timeout(REPORT_TIMEOUT, assessed).await {
            Ok(report) => report,
            Err(_) => unreachable("the database did not answer within 10 s".into()),
        }
    }
}

/// A running listener; [`Listener::stop`] ends it.
pub struct Listener {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Listener {
    /// The address bound (the real port when asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops serving and waits for the listener to end.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        if let Err(e) = self.task.await {
            tracing::warn!("the metrics listener ended badly: {e}");
        }
    }
}

struct App {
    target: Target,
    handle: PrometheusHandle,
}

/// Serves `/metrics`, `/health` and `/healthz` on `addr` until stopped.
pub async fn start(addr: SocketAddr, target: Target) -> Result<Listener, ServeError> {
    let bind = |source| ServeError::Bind { addr, source };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(bind)?;
    let bound = listener.local_addr().map_err(bind)?;
    let handle = recorder();
    let app = Router::new()
        .route("/metrics", get(metrics))
        .route("/health", get(healthz))
        .route("/healthz", get(healthz))
        .with_state(Arc::new(App {
            target,
            handle: handle.clone(),
        }));
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let upkeep = async {
            loop {
                tokio::time::sleep(UPKEEP).await;
                handle.run_upkeep();
            }
        };
        let serve = axum::serve(listener, app).with_graceful_shutdown(async {
            let _ = stopped.await;
        });
        tokio::select! {
            served = serve => if let Err(e) = served {
                tracing::warn!("the metrics listener stopped: {e}");
            },
            () = upkeep => {}
        }
    });
    Ok(Listener {
        addr: bound,
        stop,
        task,
    })
}

/// `photofinish run`'s listener, when `metrics.listen` is set: the bot's own instance,
/// judged as `photofinish health` judges it by default.
pub async fn start_for_run(
    listen: Option<SocketAddr>,
    database: &str,
    clock: Arc<dyn Clock>,
) -> Result<Option<Listener>, ServeError> {
    let Some(addr) = listen else {
        return Ok(None);
    };
    if !addr.ip().is_loopback() {
        tracing::warn!(
            %addr,
            "metrics.listen is not a loopback address: /metrics and /health are open to this network"
        );
    }
    let probe = Probe {
        instance: store::default_instance(),
        gateway: GatewayCheck::Auto,
        max_age_secs: 90,
    };
    let listener = start(addr, Target::database(database, probe, clock)).await?;
    tracing::info!(addr = %listener.addr(), "serving /metrics and /health");
    Ok(Some(listener))
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    let report = app.target.report().await;
    let mut text = app.handle.render();
    text.push_str(&figures(&report));
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn healthz(State(app): State<Arc<App>>) -> Response {
    let report = app.target.report().await;
    let status = if report.healthy {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = serde_json::to_string_pretty(&report).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The report's figures as Prometheus text, through a recorder of this scrape alone: a
/// worker or state gone since the last scrape leaves no stale series behind.
pub fn figures(report: &Report) -> String {
    let recorder = PrometheusBuilder::new().build_recorder();
    let handle = recorder.handle();
    metrics::with_local_recorder(&recorder, || record(report));
    handle.render()
}

fn flag(on: bool) -> f64 {
    if on { 1.0 } else { 0.0 }
}

/// Seconds as a gauge's value (whole seconds, as the report gives them).
#[allow(clippy::cast_precision_loss)]
fn value(n: i64) -> f64 {
    n as f64
}

fn record(r: &Report) {
    metrics::gauge!("photofinish_healthy").set(flag(r.healthy));
    metrics::gauge!("photofinish_database_reachable").set(flag(r.reachable));
    if let Some(b) = &r.backlog {
        metrics::gauge!("photofinish_undelivered_announcements").set(value(b.undelivered));
        metrics::gauge!("photofinish_oldest_undelivered_seconds")
            .set(value(r.oldest_undelivered_secs.unwrap_or(0)));
        metrics::gauge!("photofinish_overdue_deadlines").set(value(b.overdue));
        metrics::gauge!("photofinish_most_overdue_seconds")
            .set(value(r.oldest_overdue_secs.unwrap_or(0)));
        metrics::gauge!("photofinish_quarantined_races").set(value(b.quarantined));
    }
    for w in &r.workers {
        let labels = [
            ("instance", w.instance.clone()),
            ("worker", w.worker.clone()),
        ];
        metrics::gauge!("photofinish_worker_up", &labels).set(flag(w.state == "running"));
        metrics::gauge!("photofinish_worker_restarts", &labels).set(value(w.restarts));
    }
    if let Some(beat) = &r.gateway {
        let instance = [("instance", beat.instance.clone())];
        metrics::gauge!("photofinish_gateway_connected", &instance)
            .set(flag(beat.gateway == "connected"));
        metrics::gauge!(
            "photofinish_gateway_state",
            "instance" => beat.instance.clone(),
            "state" => beat.gateway.clone(),
            "shards" => beat.shards.clone()
        )
        .set(1.0);
        if let Some(age) = r.gateway_age_secs {
            metrics::gauge!("photofinish_gateway_report_age_seconds", &instance).set(value(age));
        }
    }
}
