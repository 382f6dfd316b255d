//! The metrics and health listener (`metrics.listen`) on loopback, against a store on each
//! backend: `/metrics` gives the health report's figures as Prometheus text, `/health`
//! answers 503 while work waits too long and 200 once it is done.

use crate::support::backend;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use backend::{Arg, Db, Kind, dream_mile_started};
use photofinish::cli::health::{GatewayCheck, Probe};
use photofinish::cli::serve::{self, Target};
use photofinish::referee::{Config, Referee, TestClock};
use photofinish::store::Heartbeat;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// 2026-01-01T00:00:00Z, on the test clock.
const T0: i64 = 1_767_225_600_000;

/// A plain HTTP/1.1 GET: the status code and the body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(ask.as_bytes()).await.unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).await.unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

/// The samples of a Prometheus text without labels, by name (`# ...` lines skipped).
fn samples(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (name, value) = l.rsplit_once(' ')?;
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect()
}

fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

async fn metrics_and_health_report_what_waits(kind: Kind) {
    let db = Db::new(kind).await;
    let store = db.open().await;
    store
        .heartbeat(&Heartbeat {
            instance: "bot-1".into(),
            gateway: "connected".into(),
            shards: "0-0 of 1".into(),
            detail: String::new(),
            started_at: wall_ms(),
            beat_at: wall_ms(),
        })
        .await
        .unwrap();
    // A race started at T0 with a one-minute turn and nothing delivered since; the clock
    // then moves on two hours: every announcement waits 7,200 s, the deadline is 7,140 s
    // overdue.
    let clock = Arc::new(TestClock::new(T0));
    let referee = Referee::new(store.clone(), clock.clone(), Config::default());
    dream_mile_started(&referee, "turn=1m").await;
    clock.set(T0 + 7_200_000);
    let raw = db.raw().await;
    // Undelivered: neither delivered nor given up (a lobby message superseded by a newer
    // edit is given up).
    let queued = raw
        .scalar(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL",
            vec![],
        )
        .await;
    assert!(queued > 0);

    let probe = Probe {
        instance: "bot-1".into(),
        gateway: GatewayCheck::Auto,
        max_age_secs: 90,
    };
    let target = Target::store(store.clone(), &db.url, probe, clock.clone());
    let listener = serve::start("127.0.0.1:0".parse().unwrap(), target)
        .await
        .unwrap();
    let addr = listener.addr();
    assert_ne!(addr.port(), 0);

    let (status, text) = get(addr, "/metrics").await;
    assert_eq!(status, 200, "{text}");
    let m = samples(&text);
    assert_eq!(
        m["photofinish_undelivered_announcements"], queued as f64,
        "{text}"
    );
    assert_eq!(
        m["photofinish_oldest_undelivered_seconds"], 7_200.0,
        "{text}"
    );
    assert_eq!(m["photofinish_overdue_deadlines"], 1.0, "{text}");
    assert_eq!(m["photofinish_most_overdue_seconds"], 7_140.0, "{text}");
    assert_eq!(m["photofinish_healthy"], 0.0, "{text}");
    assert_eq!(m["photofinish_database_reachable"], 1.0, "{text}");
    assert_eq!(
        m[r#"photofinish_gateway_connected{instance="bot-1"}"#], 1.0,
        "{text}"
    );
    assert_eq!(
        m[r#"photofinish_gateway_state{instance="bot-1",state="connected",shards="0-0 of 1"}"#],
        1.0,
        "{text}"
    );
    let (status, body) = get(addr, "/health").await;
    assert_eq!(status, 503, "{body}");
    let report: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(report["healthy"], false);
    assert_eq!(report["backlog"]["overdue"], 1);
    assert!(report["problems"].to_string().contains("overdue"), "{body}");

    // Everything delivered and fired: healthy, and the figures say so.
    let at = T0 + 7_200_000;
    raw.execute("UPDATE outbox SET delivered_at = $1", vec![Arg::I(at)])
        .await;
    raw.execute("UPDATE deadlines SET fired_at = $1", vec![Arg::I(at)])
        .await;
    let (status, body) = get(addr, "/healthz").await;
    assert_eq!(status, 200, "{body}");
    let (_, text) = get(addr, "/metrics").await;
    let m = samples(&text);
    assert_eq!(m["photofinish_undelivered_announcements"], 0.0, "{text}");
    assert_eq!(m["photofinish_overdue_deadlines"], 0.0, "{text}");
    assert_eq!(m["photofinish_healthy"], 1.0, "{text}");

    listener.stop().await;
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    store.close().await;
}

on_both!(metrics_and_health_report_what_waits);
