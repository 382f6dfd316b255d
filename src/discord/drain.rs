//! Stopping without cutting work in half: the [`Gate`] every gateway event passes through
//! ([`Gated`] wraps poise's framework), closed when the bot begins to stop, so that no new
//! command, button or DM starts work then; and the wait for the events already let in to
//! finish. The signals that stop `photofinish run` ([`Signals`]: SIGTERM, SIGINT).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use async_trait::async_trait;
use poise::serenity_prelude as serenity;
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::Notify;

/// Counts the events being handled, and refuses new ones once closed.
#[derive(Default)]
pub struct Gate {
    closed: AtomicBool,
    inflight: AtomicUsize,
    idle: Notify,
}

/// One event let in; leaving (dropped) may wake [`Gate::idle`].
pub struct Pass(Arc<Gate>);

impl Drop for Pass {
    fn drop(&mut self) {
        if self.0.inflight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Gate {
    /// Lets an event in, unless the gate is closed.
    pub fn enter(self: &Arc<Self>) -> Option<Pass> {
        // Counted before the check: a close that comes after it waits for this event.
        self.inflight.fetch_add(1, Ordering::SeqCst);
        let pass = Pass(self.clone());
        (!self.closed.load(Ordering::SeqCst)).then_some(pass)
    }

    /// No event is let in from now on.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }

    /// Returns once no event let in is still being handled.
    pub async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.inflight.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// A serenity framework whose events pass through a [`Gate`] first.
pub struct Gated<F> {
    pub inner: F,
    pub gate: Arc<Gate>,
}

#[async_trait]
impl<F: serenity::Framework> serenity::Framework for Gated<F> {
    async fn init(&mut self, client: &serenity::Client) {
        self.inner.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, event: serenity::FullEvent) {
        let Some(_pass) = self.gate.enter() else {
            tracing::debug!(
                event = event.snake_case_name(),
                "stopping: event not handled"
            );
            return;
        };
        self.inner.dispatch(ctx, event).await;
    }
}

/// SIGTERM and SIGINT, as they arrive. Listening starts when this is made, so a signal
/// that comes while the bot is still starting is not lost (nor, as PID 1 in a container,
/// ignored).
pub struct Signals {
    term: Option<Signal>,
    int: Option<Signal>,
}

impl Signals {
    pub fn new() -> Signals {
        let listen = |kind: SignalKind, name: &str| match signal(kind) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::warn!("cannot listen for {name}: {e}");
                None
            }
        };
        Signals {
            term: listen(SignalKind::terminate(), "SIGTERM"),
            int: listen(SignalKind::interrupt(), "SIGINT"),
        }
    }

    /// The next signal's name.
    pub async fn next(&mut self) -> &'static str {
        async fn one(s: &mut Option<Signal>) -> Option<()> {
            match s {
                Some(s) => s.recv().await,
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            Some(()) = one(&mut self.term) => "SIGTERM",
            Some(()) = one(&mut self.int) => "SIGINT",
            else => std::future::pending().await,
        }
    }
}

impl Default for Signals {
    fn default() -> Self {
        Signals::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_closed_gate_lets_nothing_in_and_waits_for_what_it_let_in() {
        let gate = Arc::new(Gate::default());
        let pass = gate.enter().unwrap();
        gate.close();
        assert!(gate.enter().is_none());
        let waiter = tokio::spawn({
            let gate = gate.clone();
            async move { gate.idle().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(pass);
        waiter.await.unwrap();
        gate.idle().await;
    }
}
