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

use super::board::{Course, Spot};
use super::tables::{self, NONE, Node, STEP_COST};

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
    let settle = |_: &Scratch, _: u32, _: &Node, _: u8| {};
    let mut out = search::<_, _, true>(
        course,
        from,
        points,
        occupied.iter().copied(),
        pass_through,
        settle,
        |s, nodes| {
            s.ends(nodes)
                .filter_map(|(i, cost)| nodes.get(i).map(|n| Reach { spot: n.spot, cost }))
                .collect::<Vec<_>>()
        },
    );
    // A fixed order, whatever the search's.
    out.sort_unstable_by_key(|r| r.spot);
    out
}

/// The search's scratch, kept between searches (one per thread) so that no node allocates:
/// the least cost found for every space of the course (by [`Course::index`]), and the
/// board spaces taken. Entries count only when stamped with this search's generation, so
/// nothing needs clearing between searches.
#[derive(Default)]
struct Scratch {
    /// This search's stamp, below [`GENERATIONS`].
    generation: u32,
    /// Per course index: the generation that found it (high bits) and the least cost found
    /// (low 8 bits).
    mark: Vec<u32>,
    /// Per board space (a course index, see [`tables::Node::space`]): the generation that
    /// found it taken.
    taken: Vec<u32>,
    /// Course indexes reached this search, in the order first found.
    found: Vec<u32>,
    /// The search's start (course index).
    from: u32,
    /// Course indexes to expand, by cost (costs are small whole numbers, so buckets by
    /// cost give Dijkstra's order).
    buckets: Vec<Vec<u32>>,
}

/// Generations fit the 24 bits `Scratch::mark` leaves them.
const GENERATIONS: u32 = 1 << 24;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Scratch {
    /// Starts a search over a course of `spaces` indexes.
    fn begin(&mut self, spaces: usize, points: u8) {
        if self.mark.len() < spaces {
            self.mark.resize(spaces, 0);
            self.taken.resize(spaces, 0);
        }
        if self.buckets.len() <= usize::from(points) {
            self.buckets.resize_with(usize::from(points) + 1, Vec::new);
        }
        self.generation += 1;
        if self.generation >= GENERATIONS {
            // Stamps wrapped: forget every old one.
            self.mark.fill(0);
            self.taken.fill(0);
            self.generation = 1;
        }
        self.found.clear();
        for b in &mut self.buckets {
            b.clear();
        }
    }

    fn cost(&self, i: u32) -> Option<u8> {
        let m = self.mark.get(i as usize).copied().unwrap_or(0);
        (m >> 8 == self.generation).then_some((m & 0xff) as u8)
    }

    /// Whether another runner stands on `n`'s board space.
    fn is_taken_space(&self, n: &Node) -> bool {
        self.taken.get(n.space as usize) == Some(&self.generation)
    }

    fn is_taken(&self, nodes: &[tables::Node], i: u32) -> bool {
        nodes
            .get(i as usize)
            .and_then(|n| self.taken.get(n.space as usize))
            == Some(&self.generation)
    }

    /// Records `cost` for index `i` if it is the least yet.
    fn improve<const FOUND: bool>(&mut self, i: u32, cost: u8) {
        let Some(m) = self.mark.get_mut(i as usize) else {
            return;
        };
        if *m >> 8 == self.generation {
            if (*m & 0xff) as u8 <= cost {
                return;
            }
        } else if FOUND {
            self.found.push(i);
        }
        *m = (self.generation << 8) | u32::from(cost);
        if let Some(b) = self.buckets.get_mut(usize::from(cost)) {
            b.push(i);
        }
    }

    /// The reachable end spaces (course index, least cost), in the order first found: the
    /// start, and every space reached that no other runner stands on.
    fn ends<'a>(&'a self, nodes: &'a [Node]) -> impl Iterator<Item = (usize, u8)> + 'a {
        self.found.iter().filter_map(move |&i| {
            let end = i == self.from || !self.is_taken(nodes, i);
            end.then(|| self.cost(i).map(|c| (i as usize, c))).flatten()
        })
    }
}

/// Runs the search and hands its scratch to `answer`; `settle` sees every space reached,
/// once, with its least cost (see [`run_search`]).
fn search<R, V: FnMut(&Scratch, u32, &Node, u8), const FOUND: bool>(
    course: &Course,
    from: Spot,
    points: u8,
    occupied: impl Iterator<Item = Spot>,
    pass_through: bool,
    mut settle: V,
    answer: impl FnOnce(&Scratch, &[Node]) -> R,
) -> R {
    let nodes = course.tables().nodes.as_slice();
    SCRATCH.with(|cell| {
        // Never nested; a fresh scratch keeps the answer the same if it ever were.
        let (mut borrowed, mut fresh);
        let s: &mut Scratch = match cell.try_borrow_mut() {
            Ok(b) => {
                borrowed = b;
                &mut borrowed
            }
            Err(_) => {
                fresh = Scratch::default();
                &mut fresh
            }
        };
        run_search::<V, FOUND>(
            s,
            nodes,
            course,
            from,
            points,
            occupied,
            pass_through,
            &mut settle,
        );
        answer(s, nodes)
    })
}

/// Dijkstra's search by cost buckets. Every space reached is taken from its bucket once
/// with its least cost, and then handed to `settle`. `FOUND`: keep [`Scratch::found`]
/// (only [`Scratch::ends`] needs it).
#[allow(clippy::too_many_arguments)]
fn run_search<V: FnMut(&Scratch, u32, &Node, u8), const FOUND: bool>(
    s: &mut Scratch,
    nodes: &[Node],
    course: &Course,
    from: Spot,
    points: u8,
    occupied: impl Iterator<Item = Spot>,
    pass_through: bool,
    settle: &mut V,
) {
    s.begin(nodes.len(), points);
    // Blocking is by board space, whatever the lap each runner is on.
    for o in occupied {
        let space = course
            .index(o)
            .and_then(|i| nodes.get(i))
            .map(|n| n.space as usize);
        if let Some(t) = space.and_then(|k| s.taken.get_mut(k)) {
            *t = s.generation;
        }
    }
    let Some(start) = course.index(from).and_then(|i| u32::try_from(i).ok()) else {
        s.from = NONE;
        return;
    };
    s.from = start;
    s.improve::<FOUND>(start, 0);
    for cost in 0..=points {
        // Steps cost at least 1, so nothing joins this bucket while it is expanded: it is
        // taken out to be read as a plain slice, and put back to keep its buffer.
        let Some(bucket) = s.buckets.get_mut(usize::from(cost)).map(std::mem::take) else {
            continue;
        };
        for &i in &bucket {
            if s.cost(i) != Some(cost) {
                continue;
            }
            let Some(node) = nodes.get(i as usize) else {
                continue;
            };
            settle(s, i, node, cost);
            for (&next, &step) in node.next.iter().zip(&STEP_COST) {
                let c = cost.saturating_add(step);
                if next == NONE || c > points {
                    continue;
                }
                if !pass_through && s.is_taken(nodes, next) {
                    continue;
                }
                s.improve::<FOUND>(next, c);
            }
        }
        if let Some(b) = s.buckets.get_mut(usize::from(cost)) {
            *b = bucket;
        }
    }
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
    occupied: impl Iterator<Item = Spot> + Clone,
    pass_through: bool,
    intent: &Intent,
) -> Reach {
    let budget = match intent.aim {
        Aim::Points(n) => n.min(points),
        _ => points,
    };
    let stay = Reach {
        spot: from,
        cost: 0,
    };
    if let Aim::To { lane, pos, finish } = intent.aim {
        let settle = |_: &Scratch, _: u32, _: &Node, _: u8| {};
        let found = search::<_, _, true>(
            course,
            from,
            budget,
            occupied.clone(),
            pass_through,
            settle,
            |s, nodes| {
                s.ends(nodes)
                    .filter_map(|(i, cost)| nodes.get(i).map(|n| (n, cost)))
                    .find(|(n, _)| is_target(course, n.spot, lane, pos, finish))
                    .map(|(n, cost)| Reach { spot: n.spot, cost })
            },
        );
        if let Some(r) = found {
            return r;
        }
    }
    // The best end space, scored as the search settles each space. The ranking packed in
    // one number, ordered as [`rank`]'s; every spot ranks differently, so the best does not
    // depend on the search's order.
    let max_lane = intent.max_lane;
    let mut best: Option<(u64, Spot, u8)> = None;
    let settle = |s: &Scratch, i: u32, n: &Node, cost: u8| {
        // Without passing through, only the start can stand on a taken space.
        if pass_through && i != s.from && s.is_taken_space(n) {
            return;
        }
        let excess = max_lane.map_or(0, |m| n.spot.lane.saturating_sub(m));
        let packed = (u64::from(u8::MAX - excess) << 40)
            | (u64::from(n.rank) << 8)
            | u64::from(u8::MAX - cost);
        if best.is_none_or(|(b, _, _)| packed >= b) {
            best = Some((packed, n.spot, cost));
        }
    };
    search::<_, _, false>(
        course,
        from,
        budget,
        occupied,
        pass_through,
        settle,
        |_, _| (),
    );
    best.map_or(stay, |(_, spot, cost)| Reach { spot, cost })
}
