//! Names: a seat's player, a racer in words, and the seats of the game.

use super::MagicalAthlete;
use super::race::{Rid, Who};
use crate::engine::Seat;
use crate::games::words::possessive;

impl MagicalAthlete {
    pub(super) fn name(&self, seat: Seat) -> &str {
        self.players
            .get(seat.index())
            .map(|p| p.name.as_str())
            .unwrap_or("?")
    }

    pub(super) fn per_race(&self) -> usize {
        if self.players.len() == 2 || self.options.double {
            2
        } else {
            1
        }
    }

    pub(super) fn seats(&self) -> Vec<Seat> {
        Seat::all(self.players.len()).collect()
    }

    /// "Alice's Legs", "Alice's Skipper", "Your Twin".
    pub fn who_text(&self, w: &Who) -> String {
        // "Ann's Skipper", not "Ann's The Skipper".
        let name = w.kind.name();
        format!(
            "{} {}",
            possessive(self.name(w.seat)),
            name.strip_prefix("The ").unwrap_or(name)
        )
    }

    pub(super) fn racer_name(&self, r: Rid) -> String {
        self.race
            .as_ref()
            .and_then(|race| race.racers.get(r))
            .map(|x| x.kind.name().to_string())
            .unwrap_or_else(|| "?".into())
    }
}
