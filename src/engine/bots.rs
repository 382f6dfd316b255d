//! Which bot plays a seat's order: [`bot_order`] picks the game's own bots or the
//! game-agnostic [`expert`](super::expert) by level.

use super::expert;
use super::game::Bots;
use super::rng::GameRng;
use super::seat::{BotLevel, Seat};

/// The order a bot of `level` plays for `seat`. Always legal.
pub fn bot_order<G: Bots>(game: &G, seat: Seat, level: BotLevel, rng: &mut GameRng) -> G::Order {
    match level {
        BotLevel::Random => game.random_order(seat, rng),
        BotLevel::Heuristic => game.heuristic_order(seat, rng),
        BotLevel::Expert => expert::choose(game, seat, rng),
    }
}
