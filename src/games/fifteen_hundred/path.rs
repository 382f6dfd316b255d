//! Movement: what a runner can reach with its points, and the deterministic pathfinder that
//! picks the best end space for a movement intent. The search runs over a per-thread array
//! of every (lane, space) of the course, kept between searches, so no node allocates.
//!
//! A step forward costs 1; a diagonal step to the inner lane costs 1 and to the outer lane 2.
//! No runner passes through or ends on another's space (the board's space, whatever lap
//! either runner is on), except that Move First may pass through (never end there). Points need not all be spent.

use std::cell::RefCell;
use std::cmp::Reverse;

use serde::{Deserialize, Serialize};

use super::board::{Course, PosKey, Spot};

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
    let mut out = search(course, from, points, occupied, pass_through);
    // A fixed order, whatever the search's.
    out.sort_unstable_by_key(|r| r.spot);
    out
}

/// The search's scratch, kept between searches (one per thread) so that no node allocates:
/// the least cost found for every space of the course, indexed by [`Course::index`].
#[derive(Default)]
struct Scratch {
    /// Least cost found per course index; `UNSEEN` where nothing was found.
    best: Vec<u8>,
    /// The spots set in `best` this search, in the order first found.
    found: Vec<Spot>,
    /// Spots to expand, by cost (costs are small whole numbers, so buckets by cost give
    /// Dijkstra's order).
    buckets: Vec<Vec<Spot>>,
}

const UNSEEN: u8 = u8::MAX;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Scratch {
    fn cost(&self, course: &Course, spot: Spot) -> u8 {
        course
            .index(spot)
            .and_then(|i| self.best.get(i))
            .copied()
            .unwrap_or(UNSEEN)
    }

    /// Records `cost` for `spot` if it is the least yet; says whether it was.
    fn improve(&mut self, course: &Course, spot: Spot, cost: u8) -> bool {
        let Some(slot) = course.index(spot).and_then(|i| self.best.get_mut(i)) else {
            return false;
        };
        if *slot != UNSEEN && *slot <= cost {
            return false;
        }
        if *slot == UNSEEN {
            self.found.push(spot);
        }
        *slot = cost;
        if let Some(b) = self.buckets.get_mut(usize::from(cost)) {
            b.push(spot);
        }
        true
    }

    /// Forgets this search's costs, keeping every buffer for the next.
    fn reset(&mut self, course: &Course) {
        for &spot in &self.found {
            if let Some(slot) = course.index(spot).and_then(|i| self.best.get_mut(i)) {
                *slot = UNSEEN;
            }
        }
        self.found.clear();
        for b in &mut self.buckets {
            b.clear();
        }
    }
}

/// The search itself; its answer is in the order spaces were first found.
fn search(
    course: &Course,
    from: Spot,
    points: u8,
    occupied: &[Spot],
    pass_through: bool,
) -> Vec<Reach> {
    // Blocking is by board space, whatever the lap each runner is on.
    let taken = |spot: Spot| occupied.iter().any(|&o| course.same_space(o, spot));
    SCRATCH.with(|cell| {
        let Ok(mut s) = cell.try_borrow_mut() else {
            // Never nested; a fresh scratch keeps the answer the same if it ever were.
            return run_search(
                &mut Scratch::default(),
                course,
                from,
                points,
                &taken,
                pass_through,
            );
        };
        run_search(&mut s, course, from, points, &taken, pass_through)
    })
}

fn run_search(
    s: &mut Scratch,
    course: &Course,
    from: Spot,
    points: u8,
    taken: &dyn Fn(Spot) -> bool,
    pass_through: bool,
) -> Vec<Reach> {
    if s.best.len() < course.spaces() {
        s.best.resize(course.spaces(), UNSEEN);
    }
    if s.buckets.len() <= usize::from(points) {
        s.buckets.resize_with(usize::from(points) + 1, Vec::new);
    }
    s.improve(course, from, 0);
    for cost in 0..=points {
        let mut k = 0;
        while let Some(&spot) = s.buckets.get(usize::from(cost)).and_then(|b| b.get(k)) {
            k += 1;
            if s.cost(course, spot) < cost {
                continue;
            }
            let kept = course.lanes_kept(spot);
            let steps = [
                course.forward(spot).map(|f| (f, 1)),
                (!kept)
                    .then(|| course.diagonal(spot, spot.lane.wrapping_sub(1)))
                    .flatten()
                    .map(|d| (d, 1)),
                (!kept)
                    .then(|| course.diagonal(spot, spot.lane + 1))
                    .flatten()
                    .map(|d| (d, 2)),
            ];
            for (next, step) in steps.into_iter().flatten() {
                let c = cost.saturating_add(step);
                if c > points || !course.is_valid(next) {
                    continue;
                }
                if !pass_through && taken(next) {
                    continue;
                }
                s.improve(course, next, c);
            }
        }
    }
    let out = s
        .found
        .iter()
        .filter(|&&spot| spot == from || !taken(spot))
        .map(|&spot| Reach {
            spot,
            cost: s.cost(course, spot),
        })
        .collect();
    s.reset(course);
    out
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
    // Every spot ranks differently, so the best does not depend on the search's order.
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
