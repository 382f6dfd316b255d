//! Movement: what a runner can reach with its points, and the deterministic pathfinder that
//! picks the best end space for a movement intent.
//!
//! A step forward costs 1; a diagonal step to the inner lane costs 1 and to the outer lane 2.
//! No runner passes through or ends on another's space (the board's space, whatever lap
//! either runner is on), except that Move First may pass through (never end there). Points need not all be spent.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use super::board::{Course, PosKey, Space, Spot};

/// One reachable end space and the least it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub spot: Spot,
    pub cost: u8,
}

/// How a runner wants to move, given before it knows where the others will be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Intent {
    pub aim: Aim,
    /// End in this lane or an inner one, if it can.
    #[serde(default)]
    pub max_lane: Option<u8>,
}

/// What to aim for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aim {
    /// As far as possible.
    Farthest,
    /// As far as possible with at most this many points.
    Points(u8),
    /// A named space (live play only): `lane`, the 0-based index along the lap or, when
    /// `finish` is set, along the finish template.
    To { lane: u8, pos: u16, finish: bool },
}

impl Intent {
    pub fn farthest() -> Intent {
        Intent {
            aim: Aim::Farthest,
            max_lane: None,
        }
    }
}

/// A tiny multiplicative hasher: spots are three small numbers, and the default hasher's
/// protection against hostile keys is not needed in a search over the track.
#[derive(Default)]
struct SpotHasher(u64);

impl Hasher for SpotHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(7) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type SpotMap = HashMap<Spot, u8, BuildHasherDefault<SpotHasher>>;

/// Everything a runner can reach, with the least cost of each (its own space at cost 0),
/// in a fixed order.
pub fn reachable(
    course: &Course,
    from: Spot,
    points: u8,
    occupied: &[Spot],
    pass_through: bool,
) -> Vec<Reach> {
    let mut out = search(course, from, points, occupied, pass_through);
    // A fixed order, whatever the map's.
    out.sort_unstable_by_key(|r| r.spot);
    out
}

/// The search itself; the order of its answer is the map's.
fn search(
    course: &Course,
    from: Spot,
    points: u8,
    occupied: &[Spot],
    pass_through: bool,
) -> Vec<Reach> {
    // Blocking is by board space, whatever the lap each runner is on.
    let blocked: Vec<Space> = occupied.iter().map(|&s| course.space(s)).collect();
    let taken = |spot: Spot| blocked.contains(&course.space(spot));
    let mut best = SpotMap::with_capacity_and_hasher(128, BuildHasherDefault::default());
    best.insert(from, 0);
    // Costs are small whole numbers, so buckets by cost give Dijkstra's order.
    let mut buckets: Vec<Vec<Spot>> = vec![Vec::new(); usize::from(points) + 1];
    if let Some(b) = buckets.get_mut(0) {
        b.push(from);
    }
    for cost in 0..=points {
        let here = buckets
            .get_mut(usize::from(cost))
            .map(std::mem::take)
            .unwrap_or_default();
        for spot in here {
            if best.get(&spot).is_some_and(|&c| c < cost) {
                continue;
            }
            let kept = course.lanes_kept(spot);
            let mut steps: Vec<(Spot, u8)> = Vec::with_capacity(3);
            if let Some(f) = course.forward(spot) {
                steps.push((f, 1));
            }
            if !kept {
                if let Some(d) = course.diagonal(spot, spot.lane.wrapping_sub(1)) {
                    steps.push((d, 1));
                }
                if let Some(d) = course.diagonal(spot, spot.lane + 1) {
                    steps.push((d, 2));
                }
            }
            for (next, step) in steps {
                let c = cost.saturating_add(step);
                if c > points || !course.is_valid(next) {
                    continue;
                }
                if !pass_through && taken(next) {
                    continue;
                }
                if best.get(&next).is_none_or(|&old| c < old) {
                    best.insert(next, c);
                    if let Some(b) = buckets.get_mut(usize::from(c)) {
                        b.push(next);
                    }
                }
            }
        }
    }
    best.into_iter()
        .filter(|(spot, _)| *spot == from || !taken(*spot))
        .map(|(spot, cost)| Reach { spot, cost })
        .collect()
}

/// The ranking of an end space for an intent: over the lane limit least, then farthest
/// (which puts the inner lane first on a tie), then cheapest.
fn rank(course: &Course, r: &Reach, max_lane: Option<u8>) -> (Reverse<u8>, PosKey, Reverse<u8>) {
    let excess = max_lane.map_or(0, |m| r.spot.lane.saturating_sub(m));
    (Reverse(excess), course.key(r.spot), Reverse(r.cost))
}

/// Reachable spaces, best first for the intent's lane limit.
pub fn ranked(course: &Course, mut reach: Vec<Reach>, max_lane: Option<u8>) -> Vec<Reach> {
    reach.sort_by_cached_key(|r| Reverse(rank(course, r, max_lane)));
    reach
}

/// Finds a named target among reachable spaces.
pub fn find_target(
    course: &Course,
    reach: &[Reach],
    lane: u8,
    pos: u16,
    finish: bool,
) -> Option<Reach> {
    reach
        .iter()
        .find(|r| {
            r.spot.lane == lane && r.spot.pos == pos && course.on_finish_straight(r.spot) == finish
        })
        .copied()
}

/// The end space the pathfinder picks for an intent; the runner's own space when nothing
/// better (or a named target that cannot be reached) is found.
pub fn choose(
    course: &Course,
    from: Spot,
    points: u8,
    occupied: &[Spot],
    pass_through: bool,
    intent: &Intent,
) -> Reach {
    let budget = match intent.aim {
        Aim::Points(n) => n.min(points),
        _ => points,
    };
    // Every spot ranks differently, so the best does not depend on the map's order.
    let reach = search(course, from, budget, occupied, pass_through);
    let stay = Reach {
        spot: from,
        cost: 0,
    };
    if let Aim::To { lane, pos, finish } = intent.aim
        && let Some(r) = find_target(course, &reach, lane, pos, finish)
    {
        return r;
    }
    reach
        .into_iter()
        .max_by_key(|r| rank(course, r, intent.max_lane))
        .unwrap_or(stay)
}
