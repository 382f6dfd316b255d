//! The course's derived tables: for every space of the course on every lap (numbered by
//! [`Course::index`]) its steps, its board space and its place in position order, worked
//! out once per board and distance, so that the pathfinder and the standings only look
//! numbers up.
//!
//! The tables are shared between every course on the same board and distance (a race's
//! course, its clones, and courses read back from storage), through a small cache.

use std::sync::{Arc, Mutex};

use super::Options;
use super::board::{Board, Course, Distance, Spot};
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

/// Courses whose tables were built, newest last (a few boards at most are in play).
type Cache = Vec<(Board, Distance, Arc<Tables>)>;
static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
const CACHED: usize = 8;

/// The tables of `course`, from the cache or built now.
pub fn tables_for(course: &Course) -> Arc<Tables> {
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, _, t)) = cache
        .iter()
        .find(|(b, d, _)| *d == course.distance && *b == course.board)
    {
        return Arc::clone(t);
    }
    let t = Arc::new(build(course));
    if cache.len() >= CACHED {
        cache.remove(0);
    }
    cache.push((course.board.clone(), course.distance, Arc::clone(&t)));
    t
}

/// Races' courses by board text (`None`: the standard board) and distance, newest last.
type Courses = Vec<(Option<String>, Distance, Arc<Course>)>;
static COURSES: Mutex<Courses> = Mutex::new(Vec::new());

/// The course a race with these options runs on: its board file is read once, then shared.
pub fn course_for(options: &Options) -> Result<Arc<Course>, OptionsError> {
    let mut cache = COURSES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, _, c)) = cache
        .iter()
        .find(|(b, d, _)| *d == options.distance && *b == options.board)
    {
        return Ok(Arc::clone(c));
    }
    let course = Arc::new(Course::new(options.board()?, options.distance));
    if cache.len() >= CACHED {
        cache.remove(0);
    }
    cache.push((options.board.clone(), options.distance, Arc::clone(&course)));
    Ok(course)
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
