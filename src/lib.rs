//! photofinish: a referee for play-by-post racing board games.
//!
//! Data flows one way: an adapter (Discord or the terminal) hands orders to the
//! [`referee`], which asks the [`engine`] (and through it a game in [`games`]) to
//! adjudicate, then writes state, events and an outbox of announcements through the
//! [`store`]; the adapter delivers the outbox. See ARCHITECTURE.md.

pub mod cli;
pub mod config;
pub mod discord;
pub mod engine;
pub mod fault;
pub mod games;
pub mod referee;
pub mod render;
pub mod store;
pub mod vocab;
