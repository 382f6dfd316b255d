//! A turn's tie breaks and overtakes as its event keeps them.
//!
//! A turn just resolved keeps what decides them: the field before the turn and the speeds
//! played. The lists are made from those when the event is read (narrated, compared or
//! stored), by the same adjudication that moved the field; a bot playing thousands of
//! turns to choose an order reads none. An event read back from the log keeps the lists
//! as stored. Either way the event encodes exactly as before.

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::adjudicate::{Overtakes, TieBreaks, adjudicate_into};
use super::small::{Groups, MAX_RUNNERS, Small};

/// A turn's tie breaks and overtakes. Serialises as the two fields `tie_breaks` and
/// `overtakes` of the turn's event (it is flattened into it).
#[derive(Clone)]
pub struct Moves(Repr);

#[derive(Clone)]
enum Repr {
    /// As the turn resolved: replayed when read.
    Replay {
        before: Groups,
        /// Each seat's speed, by seat.
        speeds: Small<u8, MAX_RUNNERS>,
        /// The first turn: ties only, no overtakes.
        ties_only: bool,
    },
    /// As stored in the log (boxed: only events read back carry it).
    Stored(Box<(TieBreaks, Overtakes)>),
}

impl Moves {
    /// No tie breaks and no overtakes: a blank turn before `apply` writes it.
    pub(super) const NONE: Moves = Moves(Repr::Replay {
        before: Groups::new(),
        speeds: Small::new(),
        ties_only: true,
    });

    /// The moves of a turn played from `before` at the first `n` of `speeds` (by seat).
    pub(super) fn replay(
        before: Groups,
        speeds: &[u8; MAX_RUNNERS],
        n: usize,
        ties_only: bool,
    ) -> Moves {
        Moves(Repr::Replay {
            before,
            speeds: Small::from_array(*speeds, n),
            ties_only,
        })
    }

    /// The tie breaks and the overtakes.
    pub fn lists(&self) -> (TieBreaks, Overtakes) {
        match &self.0 {
            Repr::Replay {
                before,
                speeds,
                ties_only,
            } => {
                let mut lists = (TieBreaks::new(), Overtakes::new());
                let speed =
                    |s: crate::engine::Seat| u32::from(speeds.get(s.index()).copied().unwrap_or(0));
                adjudicate_into(before, speed, *ties_only, &mut lists, &mut Groups::new());
                lists
            }
            Repr::Stored(lists) => **lists,
        }
    }
}

impl PartialEq for Moves {
    fn eq(&self, other: &Self) -> bool {
        self.lists() == other.lists()
    }
}
impl Eq for Moves {}

impl fmt::Debug for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (tie_breaks, overtakes) = self.lists();
        f.debug_struct("Moves")
            .field("tie_breaks", &tie_breaks)
            .field("overtakes", &overtakes)
            .finish()
    }
}

impl Serialize for Moves {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (tie_breaks, overtakes) = self.lists();
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("tie_breaks", &tie_breaks)?;
        map.serialize_entry("overtakes", &overtakes)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Stored {
            tie_breaks: TieBreaks,
            overtakes: Overtakes,
        }
        let s = Stored::deserialize(d)?;
        Ok(Moves(Repr::Stored(Box::new((s.tie_breaks, s.overtakes)))))
    }
}
