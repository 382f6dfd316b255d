//! The soak (docs/reliability.md, "Soak"): simulated days of races under faults
//! against the real bot, the real store and the fake Discord, and the checker that reads
//! the whole history at the end; and retention, measured.

pub mod check;
pub mod child;
pub mod damage;
pub mod retention;
pub mod run;
pub mod seats;
pub mod twins;
pub mod world;
