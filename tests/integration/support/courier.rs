//! A courier that records what the referee delivers, and can be told to fail. (A referee
//! on a database of either backend is [`super::backend::Bench`].)

use std::sync::Mutex;

use async_trait::async_trait;
use photofinish::referee::Actor;
use photofinish::referee::announce::{Announcement, Target};
use photofinish::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};

/// Records every delivery; can be told to fail.
#[derive(Default)]
pub struct Recorder {
    pub delivered: Mutex<Vec<(Target, Announcement)>>,
    pub fail_next: Mutex<Vec<DeliveryError>>,
    /// Users whose DMs are closed.
    pub closed_dms: Mutex<Vec<String>>,
}

impl Recorder {
    pub fn take(&self) -> Vec<(Target, Announcement)> {
        std::mem::take(&mut *self.delivered.lock().expect("lock"))
    }

    pub fn fail_with(&self, e: DeliveryError) {
        self.fail_next.lock().expect("lock").push(e);
    }
}

#[async_trait]
impl Courier for Recorder {
    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        if let Some(e) = self.fail_next.lock().expect("lock").pop() {
            return Err(e);
        }
        if let Target::Dm { user, .. } = parcel.target
            && self.closed_dms.lock().expect("lock").contains(&user.0)
        {
            return Err(DeliveryError::DmClosed);
        }
        self.delivered
            .lock()
            .expect("lock")
            .push((parcel.target.clone(), parcel.announcement.clone()));
        Ok(Delivered {
            external_id: Some(format!("msg-{}", parcel.outbox_id)),
        })
    }
}

pub fn actor(id: &str, name: &str) -> Actor {
    Actor::new(id, name)
}

/// The players most tests seat, with fixed ids.
pub fn alice() -> Actor {
    actor("100", "Alice")
}
pub fn bob() -> Actor {
    actor("200", "Bob")
}
pub fn carol() -> Actor {
    actor("300", "Carol")
}
pub fn dave() -> Actor {
    actor("400", "Dave")
}
