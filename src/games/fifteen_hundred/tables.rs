//! The course's derived tables: for every space of the course on every lap (numbered by
//! [`Course::index`]) its steps, its board space and its place in position order, worked
//! out once per board and distance, so that the pathfinder and the standings only look
//! numbers up.
//!
//! The tables are shared between every course on the same board and distance (a race's
//! course, its clones, and courses read back from storage), through a small cache.

use std::sync::{Arc, Mutex};

use super::board::{Board, Course, Distance, Spot};
use super::options::Options;
use crate::engine::OptionsError;

/// No such space (no step there, or off the course).
pub const NONE: u32 = u32::MAX;

/// One space of the course on one lap.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The space straight ahead, the diagonal to the inner lane, the diagonal to the outer
    /// lane (course indexes, [`NONE`] where there is no such step, diagonals also where the
    /// lanes are kept).
    pub next: [u32; 3],
    /// The board space, whatever the lap ([`Course::space`]), as the index of one spot on it.
    pub space: u32,
    /// Position order: greater is better placed, equal only for equal [`Course::key`]s.
    pub rank: u32,
    pub spot: Spot,
}

/// The step costs of `Node::next`, in the same order.
pub const STEP_COST: [u8; 3] = [1, 1, 2];

/// Every space's [`Node`], by course index.
pub struct Tables {
    pub nodes: Vec<Node>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({} nodes)", self.nodes.len())
    }
}

/// Every spot the course numbers, in index order.
fn spots(course: &Course) -> Vec<Spot> {
    let mut out = Vec::with_capacity(course.spaces());
    for lane in 1..=course.lanes() {
        for lap in 0..course.finish_lap() {
            out.extend((0..course.lap_len(lane)).map(|pos| Spot { lane, lap, pos }));
        }
        let lap = course.finish_lap();
        out.extend((0..course.board.finish_straight).map(|pos| Spot { lane, lap, pos }));
    }
    out
}

fn build(course: &Course) -> Tables {
    let spots = spots(course);
    let index = |s: Option<Spot>| {
        s.and_then(|s| course.index(s))
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(NONE)
    };
    // Dense ranks in position order: sort once by the rulebook's key.
    let mut by_key: Vec<(super::board::PosKey, usize)> = spots
        .iter()
        .enumerate()
        .map(|(i, &s)| (course.key(s), i))
        .collect();
    by_key.sort_unstable();
    let mut rank = vec![0u32; spots.len()];
    let mut r = 0u32;
    for (k, pair) in by_key.iter().enumerate() {
        if k > 0 && by_key.get(k - 1).is_some_and(|prev| prev.0 != pair.0) {
            r += 1;
        }
        if let Some(slot) = rank.get_mut(pair.1) {
            *slot = r;
        }
    }
    let nodes = spots
        .iter()
        .zip(rank)
        .map(|(&spot, rank)| {
            let kept = course.lanes_kept(spot);
            let diagonal = |lane: u8| (!kept).then(|| course.diagonal(spot, lane)).flatten();
            let space = if course.on_finish_straight(spot) {
                spot
            } else {
                Spot { lap: 0, ..spot }
            };
            Node {
                next: [
                    index(course.forward(spot)),
                    index(diagonal(spot.lane.wrapping_sub(1))),
                    index(diagonal(spot.lane.wrapping_add(1))),
                ],
                space: index(Some(space)),
                rank,
                spot,
            }
        })
        .collect();
    Tables { nodes }
}

/// The few values most recently built, newest last, each under the key it was built from
/// (a few boards at most are in play, so a short list searched in order is enough).
struct Recent<K, V> {
    entries: Mutex<Vec<(K, Arc<V>)>>,
}

impl<K, V> Recent<K, V> {
    const KEPT: usize = 8;

    const fn new() -> Self {
        Recent {
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The value whose key `is` matches, or the one `build` makes, kept under `key()`.
    /// The key is made only on a miss, so a hit clones nothing.
    fn get_or_build<E>(
        &self,
        is: impl Fn(&K) -> bool,
        key: impl FnOnce() -> K,
        build: impl FnOnce() -> Result<V, E>,
    ) -> Result<Arc<V>, E> {
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, v)) = entries.iter().find(|(k, _)| is(k)) {
            return Ok(Arc::clone(v));
        }
        let v = Arc::new(build()?);
        if entries.len() >= Self::KEPT {
            entries.remove(0);
        }
        entries.push((key(), Arc::clone(&v)));
        Ok(v)
    }
}

/// Courses' tables by board and distance.
static TABLES: Recent<(Board, Distance), Tables> = Recent::new();

/// The tables of `course`, from the cache or built now.
pub fn tables_for(course: &Course) -> Arc<Tables> {
    let built = TABLES.get_or_build(
        |(b, d)| *d == course.distance && *b == course.board,
        || (course.board.clone(), course.distance),
        || Ok::<_, std::convert::Infallible>(build(course)),
    );
    match built {
        Ok(tables) => tables,
        Err(never) => match never {},
    }
}

/// Races' courses by board text (`None`: the standard board) and distance.
static COURSES: Recent<(Option<String>, Distance), Course> = Recent::new();

/// The course a race with these options runs on: its board file is read once, then shared.
pub fn course_for(options: &Options) -> Result<Arc<Course>, OptionsError> {
    COURSES.get_or_build(
        |(b, d)| *d == options.distance && *b == options.board,
        || (options.board.clone(), options.distance),
        || Ok(Course::new(options.board()?, options.distance)),
    )
}

/// Serde for a shared course: stored as the course itself.
pub mod shared_course {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Course;

    pub fn serialize<S: Serializer>(course: &Arc<Course>, s: S) -> Result<S::Ok, S::Error> {
        course.as_ref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Course>, D::Error> {
        Course::deserialize(d).map(Arc::new)
    }
}
