//! Helpers shared by the integration tests.
//!
//! - [`backend`]: a fresh database of each backend (SQLite, PostgreSQL when configured),
//!   raw SQL under the store, a referee on it, and `on_both!`.
//! - [`courier`]: a courier that records what the referee delivers.
//! - [`discord`]: the fake Discord on loopback, the harness that runs the real bot
//!   against it, and scripted play (a game planned by the engine, then played through it).
//! - [`process`]: `photofinish run` as a child process.
//! - [`pictures`]: the replayed views the golden-image tests and `benches/render.rs` draw.
//! - [`soak`]: the soak's driver and checker, and retention's measurement.
#![allow(dead_code)]

#[macro_use]
pub mod backend;
pub mod courier;
pub mod discord;
pub mod pictures;
pub mod process;
pub mod soak;
