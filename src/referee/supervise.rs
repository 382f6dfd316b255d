//! Supervision of the bot's long-running workers (deadlines, delivery, heartbeat): a
//! worker that panics is logged with its panic and started again after a short wait
//! (1 s, doubling up to [`MAX_RESTART_WAIT`]), and its state is written to the store
//! ([`Store::worker_status`]) so that `photofinish health` can say when one is down
//! (docs/reliability.md). A worker that returns has been told to stop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;

use crate::store::{Store, WorkerStatus};

/// The longest wait before a worker that keeps panicking is started again.
pub const MAX_RESTART_WAIT: Duration = Duration::from_secs(60);

/// Aborts the task it holds when dropped: stopping the supervisor stops its worker.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The panic's message, as far as it is text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

/// The wait before a restart: `first`, doubling with each restart, capped.
fn wait_before(first: Duration, restarts: u32) -> Duration {
    first
        .saturating_mul(1u32 << restarts.min(6))
        .min(MAX_RESTART_WAIT)
}

async fn report(store: &dyn Store, status: &WorkerStatus) {
    if let Err(e) = store.worker_status(status).await {
        tracing::warn!(worker = %status.worker, "cannot report a worker's state: {e}");
    }
}

/// Runs the worker `start` makes, and makes and starts another each time one panics.
/// `instance` is the name `photofinish health` looks the process up by.
pub fn supervise<F, Fut>(
    name: &'static str,
    store: Arc<dyn Store>,
    instance: String,
    start: F,
) -> JoinHandle<()>
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    supervise_waiting(name, store, instance, Duration::from_secs(1), start)
}

/// [`supervise`], with the first wait before a restart given (tests: none).
pub fn supervise_waiting<F, Fut>(
    name: &'static str,
    store: Arc<dyn Store>,
    instance: String,
    first_wait: Duration,
    mut start: F,
) -> JoinHandle<()>
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    tokio::spawn(async move {
        let mut status = WorkerStatus {
            instance,
            worker: name.to_string(),
            state: "running".into(),
            restarts: 0,
            last_panic: None,
            trouble: None,
            at: chrono::Utc::now().timestamp_millis(),
        };
        let mut restarts: u32 = 0;
        loop {
            status.state = "running".into();
            status.at = chrono::Utc::now().timestamp_millis();
            report(&*store, &status).await;
            let mut worker = AbortOnDrop(tokio::spawn(start()));
            match (&mut worker.0).await {
                Ok(()) => {
                    status.state = "stopped".into();
                    status.at = chrono::Utc::now().timestamp_millis();
                    report(&*store, &status).await;
                    return;
                }
                Err(e) if e.is_cancelled() => return,
                Err(e) => {
                    let text = panic_text(&*e.into_panic());
                    restarts = restarts.saturating_add(1);
                    let wait = wait_before(first_wait, restarts.saturating_sub(1));
                    tracing::error!(
                        worker = name,
                        restarts,
                        panic = %text,
                        wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                        "a worker panicked; it is started again"
                    );
                    status.state = "down".into();
                    status.restarts = i64::from(restarts);
                    status.last_panic = Some(text);
                    status.at = chrono::Utc::now().timestamp_millis();
                    report(&*store, &status).await;
                    tokio::time::sleep(wait).await;
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;
    use crate::store::SqliteStore;

    #[tokio::test]
    async fn a_worker_that_panics_is_logged_and_started_again() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
        let runs = Arc::new(AtomicU32::new(0));
        let counted = runs.clone();
        let no_wait = Duration::ZERO;
        let handle = supervise_waiting(
            "deadlines",
            store.clone(),
            "here".into(),
            no_wait,
            move || {
                let runs = counted.clone();
                async move {
                    if runs.fetch_add(1, Ordering::SeqCst) < 2 {
                        panic!("the worker fell over");
                    }
                }
            },
        );
        handle.await.unwrap();
        assert_eq!(
            runs.load(Ordering::SeqCst),
            3,
            "started again after each panic"
        );
        let workers = store.workers().await.unwrap();
        assert_eq!(workers.len(), 1);
        let w = &workers[0];
        assert_eq!(
            (w.worker.as_str(), w.state.as_str()),
            ("deadlines", "stopped")
        );
        assert_eq!(w.restarts, 2);
        assert_eq!(w.last_panic.as_deref(), Some("the worker fell over"));
    }

    #[test]
    fn restarts_wait_longer_up_to_a_minute() {
        let s = Duration::from_secs(1);
        assert_eq!(wait_before(s, 0), s);
        assert_eq!(wait_before(s, 3), Duration::from_secs(8));
        assert_eq!(wait_before(s, 40), MAX_RESTART_WAIT);
    }
}
