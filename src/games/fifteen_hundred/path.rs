//! Movement: what a runner can reach with its points, and the deterministic pathfinder that
//! picks the best end space for a movement intent.
//!
//! A step forward costs 1; a diagonal step to the inner lane costs 1 and to the outer lane 2.
//! No runner passes through or ends on another's space (the board's space, whatever lap
//! either runner is on), except that Move First may pass through (never end there). Points
//! need not all be spent.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use super::board::{Course, Node, Spot};

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

/// Everything a runner can reach, with the least cost of each (its own space at cost 0),
/// in a fixed order.
pub fn reachable(
    course: &Course,
    from: Spot,
    points: u8,
    occupied: &[Spot],
    pass_through: bool,
) -> Vec<Reach> {
    let found = search(course, from, points, occupied, pass_through);
    let mut out: Vec<Reach> = found.ends().map(|(node, cost)| reach(node, cost)).collect();
    // A fixed order, whatever the search's.
    out.sort_unstable_by_key(|r| r.spot);
    out
}

fn reach(node: &Node, cost: u8) -> Reach {
    Reach {
        spot: node.spot,
        cost,
    }
}

/// What one search found.
struct Found<'a> {
    course: &'a Course,
    /// The start ([`Course::index`]), if it is on the course.
    from: Option<usize>,
    /// The least cost found for every space, by course index.
    cost: Vec<Option<u8>>,
    /// The spaces reached, in the order first found.
    reached: Vec<usize>,
    /// The board spaces other runners stand on ([`Node::board_space`]).
    taken: Vec<usize>,
}

impl Found<'_> {
    /// Whether another runner stands on space `i`'s board space.
    fn is_taken(&self, i: usize) -> bool {
        self.course
            .node(i)
            .is_some_and(|n| self.taken.contains(&n.board_space))
    }

    /// The spaces the runner may end on, with their least costs: its own, and every space
    /// reached that no other runner stands on.
    fn ends(&self) -> impl Iterator<Item = (&Node, u8)> + '_ {
        self.reached.iter().filter_map(move |&i| {
            let end = Some(i) == self.from || !self.is_taken(i);
            let cost = self.cost.get(i).copied().flatten()?;
            let node = self.course.node(i)?;
            end.then_some((node, cost))
        })
    }
}

/// Dijkstra's search from `from` with at most `points`: the least cost of every space
/// reachable. Blocking is by board space, whatever the lap each runner is on; with
/// `pass_through` (Move First) the runner may pass through others' spaces.
fn search<'a>(
    course: &'a Course,
    from: Spot,
    points: u8,
    occupied: &[Spot],
    pass_through: bool,
) -> Found<'a> {
    let taken = occupied
        .iter()
        .filter_map(|&o| course.index(o).and_then(|i| course.node(i)))
        .map(|n| n.board_space)
        .collect();
    let mut found = Found {
        course,
        from: course.index(from),
        cost: vec![None; course.spaces()],
        reached: Vec::new(),
        taken,
    };
    let Some(start) = found.from else {
        return found;
    };
    let mut queue = BinaryHeap::new();
    if let Some(c) = found.cost.get_mut(start) {
        *c = Some(0);
        found.reached.push(start);
        queue.push(Reverse((0u8, start)));
    }
    while let Some(Reverse((cost, i))) = queue.pop() {
        if found.cost.get(i).copied().flatten() != Some(cost) {
            continue; // reached more cheaply since it was queued
        }
        let Some(node) = course.node(i) else {
            continue;
        };
        // A step forward costs 1, a diagonal to the inner lane 1, to the outer lane 2.
        for (next, step) in [(node.forward, 1), (node.inner, 1), (node.outer, 2)] {
            let Some(next) = next else {
                continue;
            };
            let c = cost.saturating_add(step);
            if c > points || (!pass_through && found.is_taken(next)) {
                continue;
            }
            let Some(best) = found.cost.get_mut(next) else {
                continue;
            };
            if best.is_some_and(|b| b <= c) {
                continue;
            }
            if best.is_none() {
                found.reached.push(next);
            }
            *best = Some(c);
            queue.push(Reverse((c, next)));
        }
    }
    found
}

/// The ranking of an end space for an intent: over the lane limit least, then farthest
/// (which puts the inner lane first on a tie), then cheapest. `rank` is the space's
/// [`Course::rank`].
fn rank(spot: Spot, rank: Option<u32>, cost: u8, max_lane: Option<u8>) -> Ranking {
    let excess = max_lane.map_or(0, |m| spot.lane.saturating_sub(m));
    (Reverse(excess), rank, Reverse(cost))
}

type Ranking = (Reverse<u8>, Option<u32>, Reverse<u8>);

/// Reachable spaces, best first for the intent's lane limit.
pub fn ranked(course: &Course, mut reach: Vec<Reach>, max_lane: Option<u8>) -> Vec<Reach> {
    reach.sort_by_cached_key(|r| Reverse(rank(r.spot, course.rank(r.spot), r.cost, max_lane)));
    reach
}

/// Whether `spot` is the named space.
fn is_target(course: &Course, spot: Spot, lane: u8, pos: u16, finish: bool) -> bool {
    spot.lane == lane && spot.pos == pos && course.on_finish_straight(spot) == finish
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
        .find(|r| is_target(course, r.spot, lane, pos, finish))
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
    let found = search(course, from, budget, occupied, pass_through);
    if let Aim::To { lane, pos, finish } = intent.aim
        && let Some((node, cost)) = found
            .ends()
            .find(|(n, _)| is_target(course, n.spot, lane, pos, finish))
    {
        return reach(node, cost);
    }
    // Every space ranks differently, so the best does not depend on the search's order.
    found
        .ends()
        .max_by_key(|&(n, cost)| rank(n.spot, Some(n.rank), cost, intent.max_lane))
        .map_or(
            Reach {
                spot: from,
                cost: 0,
            },
            |(n, cost)| reach(n, cost),
        )
}
