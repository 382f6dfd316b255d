//! The proof of a race's record ([`proof`]): a SHA-256 hash chain over everything an
//! export holds that its replay cannot determine (the seats' names, who was a person or a
//! bot, each order's source and nonce, the times, the phase) and everything it can. The
//! bot posts the proof with the result; `verify` prints it, so a player who compares the
//! two knows the file is the race that was played, names and times included.
//!
//! The chain starts from the race's header (number, game, options, seats, commitment,
//! seed, preferences, phase, times) and takes in each step in turn, then the result. The
//! file's `format`, `version` and `generator` are left out: an upgrade that writes the
//! same race in a newer form keeps its proof.

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::export::Export;

/// What the chain's first link hashes: the export without its steps, result and the
/// writer's own fields.
#[derive(Serialize)]
struct Header<'a> {
    race: i64,
    game: crate::games::GameKind,
    options: &'a serde_json::Value,
    options_text: &'a str,
    phase: crate::vocab::Phase,
    created_at: crate::vocab::Millis,
    ended_at: Option<crate::vocab::Millis>,
    started: bool,
    seats: &'a [super::export::ExportSeat],
    commitment: &'a str,
    seed: &'a str,
    preferences: &'a [super::export::ExportPreference],
}

/// SHA-256 of the previous link and `value`'s JSON, as 64 hex digits.
fn link(previous: &[u8], value: &impl Serialize) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(previous);
    // Serialising plain records to JSON cannot fail; an empty link would still differ.
    h.update(serde_json::to_vec(value).unwrap_or_default());
    h.finalize().to_vec()
}

/// The race's proof: 64 hex digits.
pub fn proof(export: &Export) -> String {
    let header = Header {
        race: export.race,
        game: export.game,
        options: &export.options,
        options_text: &export.options_text,
        phase: export.phase,
        created_at: export.created_at,
        ended_at: export.ended_at,
        started: export.started,
        seats: &export.seats,
        commitment: &export.commitment,
        seed: &export.seed,
        preferences: &export.preferences,
    };
    let mut chain = link(b"photofinish proof 1", &header);
    for step in &export.steps {
        chain = link(&chain, step);
    }
    chain = link(&chain, &export.result);
    hex::encode(chain)
}
