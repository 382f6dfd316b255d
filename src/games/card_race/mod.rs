//! The card race: 1000 miles (Mille Bornes) and 1000 Yards, one engine with the games'
//! differences given as data in [`rules`] (rules and the project's rulings in
//! docs/rules/1000-miles.md and docs/rules/1000-yards.md).
//!
//! `state` owns the state: the tableaux (distance, problems, immunities), the phase and
//! the events. `round` plays the table's mechanics (dealing, drawing, plays, the
//! dirty-trick window), `scoring` ends a round; [`cards`] owns card identities and names.
//! `game` holds the engine's contracts ([`Game`] and the bots', autopilot's and
//! presentation's beside it), helped by `check` (the state's invariants), `reading` (order text), `legality`
//! (what may be played now), `views` and `narrate`. [`bot`] is the two bots, [`standing`]
//! the standing plays (`decide` what they play), [`replay`] and [`sim`] the CLI's
//! scripts and simulations. This file only names them.
//!
//! [`Game`]: crate::engine::Game

pub mod bot;
pub mod cards;
mod check;
mod decide;
mod game;
mod legality;
mod narrate;
mod reading;
pub mod replay;
mod round;
pub mod rules;
mod scoring;
pub mod sim;
pub mod standing;
mod state;
mod views;

pub use cards::{Card, Kind};
pub use game::{
    MILES_PREFERENCE_HELP, MILES_SEAT_CHOICE, MILES_SUMMARY, YARDS_PREFERENCE_HELP,
    YARDS_SEAT_CHOICE, YARDS_SUMMARY,
};
pub use rules::{CounterPref, Options, Ruleset};
pub use standing::{Rule as StandingRule, StandingPlays};
pub use state::{
    Battle, CardRace, CounterWindow, DeckError, Event, HAND, Line, Order, Phase, RoundEnd,
    RoundResult, RoundScore, SafetyPlay, ScoreLine, Team, TurnMark,
};

/// The views and order errors, for renderers and tests.
pub mod game_views {
    pub use super::legality::IllegalOrder;
    pub use super::reading::SyntaxError;
    pub use super::views::{PlayerView, PrivateView, PublicView, TeamView, WindowView};
}

#[cfg(test)]
mod tests;
