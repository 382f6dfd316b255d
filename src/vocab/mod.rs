//! The vocabulary every layer shares, below the store, the referee and the adapters:
//! ids (`ids.rs`), a race's phase (`phase.rs`), and time as stored (`time.rs`: moments,
//! turn lengths, calendars, time banks). Plain data with serde; no I/O.

mod ids;
mod phase;
mod time;

pub use ids::{CampaignId, UserId};
pub use phase::Phase;
pub use time::{Bank, CalendarOptions, Clocks, Millis, SeatClock, TimeContext, Timing, UserTime};
