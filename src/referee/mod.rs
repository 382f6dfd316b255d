//! The referee: the game-agnostic campaign machine.
//!
//! It owns the lobby and seats, order intake with receipts, deadlines and reminders,
//! missed orders, adjudication through the engine, and the outbox of announcements. It
//! knows a [`Store`](crate::store::Store) and a [`Clock`] and nothing of Discord: adapters call it and deliver
//! what it queues ([`delivery`]).
//!
//! Every request follows one pattern (`transaction.rs`): load the campaign, decide in
//! memory ([`work`]), commit once. A request that fails changes nothing. Requests on one
//! campaign are serialised in-process, and the store's version check guards against
//! other processes.
//!
//! `machine.rs` is the [`Referee`] itself, its settings and the guards every request
//! shares; the requests live by concern beside it: `race.rs` (a race's life under its
//! host), `seats.rs`, `orders.rs` (intake and receipts), `deadlines.rs`, `quotas.rs`, and
//! read-only `queries.rs`. This file only names them.

pub mod announce;
pub mod archive;
pub mod autopilot;
pub mod away;
pub mod backoff;
pub mod bank;
pub mod calendar;
pub mod chain;
pub mod clock;
mod deadlines;
pub mod delivery;
mod error;
pub mod export;
pub mod grace;
pub mod limits;
mod machine;
mod orders;
pub mod outage;
mod queries;
mod quotas;
mod race;
pub mod ratings;
mod recovery;
mod retention;
pub mod round;
mod seat_time;
mod seats;
pub mod series;
pub mod stats;
pub mod supervise;
pub mod timing;
mod transaction;
pub mod verify;
pub mod when;
pub mod work;
pub mod zones;

pub use clock::{Clock, SystemClock, TestClock};
pub use deadlines::DEADLINE_CLAIM_MS;
pub use error::RefereeError;
pub use limits::Limits;
pub use machine::{Actor, Config, NewRace, Referee, Seeds, clean_text};
pub use orders::{OpenPrompt, Receipt};
pub use queries::{HistoryEntry, Overview};
pub use race::DeadlineChange;
pub use seat_time::MyTime;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::GameKind;
    use crate::store::SqliteStore;
    use crate::vocab::CampaignId;

    async fn referee() -> Referee {
        let store = Arc::new(SqliteStore::in_memory().await.unwrap());
        Referee::new(store, Arc::new(TestClock::at_epoch()), Config::default())
    }

    /// A started Dream Mile race of Alice and Bob; the last order resolves at once (no
    /// grace window).
    async fn two_player_race(r: &Referee, channel: &str) -> (CampaignId, Actor, Actor) {
        let alice = Actor::new("1", "Alice");
        let bob = Actor::new("2", "Bob");
        let race = r
            .create(NewRace {
                kind: GameKind::DreamMile,
                options: "grace=0".into(),
                channel: channel.into(),
                guild: None,
                host: alice.clone(),
            })
            .await
            .unwrap();
        r.join(race, &alice, None, None).await.unwrap();
        r.join(race, &bob, None, None).await.unwrap();
        r.start(race, &alice).await.unwrap();
        (race, alice, bob)
    }

    #[tokio::test]
    async fn the_same_order_twice_changes_nothing_and_keeps_its_receipt() {
        let r = referee().await;
        let (race, alice, _) = two_player_race(&r, "c1").await;
        let first = r.submit(race, &alice.user, "7").await.unwrap();
        let outbox = r.store().outbox_of(race).await.unwrap().len();
        let again = r.submit(race, &alice.user, " 7 ").await.unwrap();
        assert!(again.repeated && !again.changed && !first.repeated);
        assert_eq!(again.receipt, first.receipt);
        assert_eq!(r.store().outbox_of(race).await.unwrap().len(), outbox);
        // A different order is a change, with a new receipt.
        let changed = r.submit(race, &alice.user, "6").await.unwrap();
        assert!(changed.changed && !changed.repeated);
        assert_ne!(changed.receipt, first.receipt);
    }

    /// Status rows in the race's outbox, superseded or not.
    async fn status_rows(r: &Referee, race: CampaignId) -> usize {
        let rows = r.store().outbox_of(race).await.unwrap();
        rows.iter()
            .filter(|o| o.coalesce_key.as_deref() == Some(&format!("status:{}", race.0)))
            .count()
    }

    #[tokio::test]
    async fn an_order_writes_one_status_row_whether_or_not_it_resolves() {
        let r = referee().await;
        let (race, alice, bob) = two_player_race(&r, "c3").await;
        let before = status_rows(&r, race).await;
        // Alice's order leaves the step open; Bob's resolves it and opens the next.
        r.submit(race, &alice.user, "7").await.unwrap();
        assert_eq!(status_rows(&r, race).await, before + 1);
        let resolved = r.submit(race, &bob.user, "7").await.unwrap();
        assert!(resolved.resolved);
        assert_eq!(status_rows(&r, race).await, before + 2);
    }

    #[tokio::test]
    async fn a_finished_race_still_answers_for_its_channel() {
        let r = referee().await;
        let (race, alice, _) = two_player_race(&r, "c2").await;
        assert_eq!(r.race_in_or_last("c2").await.unwrap(), race);
        r.cancel(race, &alice).await.unwrap();
        assert!(matches!(r.race_in("c2").await, Err(RefereeError::NoRace)));
        assert_eq!(r.race_in_or_last("c2").await.unwrap(), race);
        assert!(matches!(
            r.race_in_or_last("elsewhere").await,
            Err(RefereeError::NoRace)
        ));
    }
}
