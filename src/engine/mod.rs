//! The contract every game implements. The engine knows no game: the registry that
//! dispatches between them lives above it, in `games/registry.rs`.
//!
//! A game is a pure, deterministic state machine in the style of OpenSpiel and
//! boardgame.io. Its contract is four traits, split by who reads them (as OpenSpiel keeps
//! its bots in `algorithms/`, apart from the games):
//!
//! - [`Game`], the rules, which the referee drives a race with;
//! - [`Bots`], the bot levels: the referee's bot seats, the [`expert`], the simulations;
//! - [`Preferences`], a seat's standing settings and the orders autopilot plays without
//!   asking ([`autopilot()`]);
//! - [`Presentation`], the game in words: narration, help, the pre-race choice's menu.
//!
//! What a game differs in is said by the game, as an associated constant or method
//! (whether seats act in turn, the expert's budget, what the seed's dice decide), never
//! by a caller matching on which game it is. The rules:
//!
//! - [`Game::setup`] builds the state from options, seats and a [`Seed`]; the
//!   [`GameRng`] lives inside the state, so dice and shuffles replay from the log.
//! - [`Game::pending`] says who must act now: several seats giving secret simultaneous
//!   orders, one seat's decision (a card play, or a power's choice in the middle of
//!   somebody else's turn), or a short window in which the first of several seats
//!   decides (a dirty trick).
//! - Orders arrive as text: [`Game::parse_order`] checks syntax, [`Game::validate`]
//!   checks legality against the state, each with its own typed error, as shakmaty
//!   keeps parsing apart from legality.
//! - [`Game::default_order`] stands in for a missed deadline.
//! - [`Game::apply`] is infallible: it takes validated orders and returns events.
//! - [`Game::check`] says whether a state holds its game's invariants: the referee runs it
//!   on every state it loads from the store, and stops a race whose state lies.
//! - [`Game::public_view`] is what the channel may see; [`Game::private_view`] is one
//!   seat's DM. [`Game::resample_hidden`] lets a generic test prove that views leak
//!   nothing (OpenSpiel's resampling from an information state).
//!
//! Games never do I/O. The registry (`games/registry.rs`) wraps them in one enum for the
//! referee, and [`conformance`] is the generic random-simulation test every game passes.

mod autopilot;
mod bots;
pub mod conformance;
mod error;
pub mod expert;
mod game;
mod options;
mod outcome;
mod pending;
mod rng;
mod seat;

pub use autopilot::{Autopilot, Autoplay, autopilot, autopilot_note, forced_order};
pub use bots::bot_order;
pub use error::{OptionsError, OrderError, PreferenceError, SetupError, StateError};
pub use game::{AskTargets, Bots, Data, Game, Glossary, Preferences, Presentation, read_order};
pub use options::{OptionDoc, apply_option_text, option_text};
pub use outcome::{Audience, Narration, Outcome, Placing};
pub use pending::{Choice, DecisionWindow, Mode, Pending, Prompt, Submitted, Window};
pub use rng::{GameRng, ScriptSeed, Seed, commitment_matches};
pub use seat::{BotLevel, Seat, SeatSetup};
