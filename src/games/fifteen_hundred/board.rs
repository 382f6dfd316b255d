//! The track as data: reading a board file, and the geometry every rule stands on
//! (spaces, the step forward, the diagonal lane change, position order, laps and the finish).
//!
//! A board is a list of sections in running order from the finish line. Spaces are named by
//! [`Spot`]: a lane, the number of finish-line crossings made, and an index along the lane's
//! lap (or along the straight finish template once the last crossing is made). A
//! [`Course`] is a board with its race; it numbers every space on every lap
//! ([`Course::index`]) and works each one's steps and place in position order out once
//! ([`Node`]), for the pathfinder and the standings.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The default board, shipped with the game.
pub const DEFAULT_BOARD: &str = include_str!("board.toml");

/// Why a board file was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("the board file is not valid TOML: {0}")]
    Toml(String),
    #[error("the board: {0}")]
    Invalid(String),
}

/// A race distance, each with its own start on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Distance {
    #[default]
    #[serde(rename = "1500")]
    M1500,
    #[serde(rename = "800")]
    M800,
}

impl Distance {
    pub fn name(self) -> &'static str {
        match self {
            Distance::M1500 => "1500 m",
            Distance::M800 => "800 m",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    name: String,
    lanes: u8,
    finish_straight: u16,
    section: Vec<RawSection>,
    start: RawStarts,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSection {
    name: String,
    kind: String,
    spaces: Vec<u16>,
    #[serde(default)]
    half: Option<Vec<u16>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStarts {
    #[serde(rename = "1500")]
    m1500: RawStart,
    #[serde(rename = "800")]
    m800: RawStart,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStart {
    section: String,
    spaces: Vec<u16>,
    laps: u8,
    #[serde(default)]
    keep_lanes_through: Option<String>,
}

impl RawSection {
    /// The section as the board keeps it, with every lane's spaces and first half.
    fn checked(&self, lanes: usize) -> Result<Section, BoardError> {
        let fail = |why: String| invalid(format!("section {}: {why}", self.name));
        let curve = match self.kind.as_str() {
            "curve" => true,
            "straight" => false,
            other => return Err(fail(format!("kind must be curve or straight, not {other}"))),
        };
        let spaces: Vec<u16> = match self.spaces.as_slice() {
            [one] if !curve => vec![*one; lanes],
            list if list.len() == lanes => list.to_vec(),
            _ => return Err(fail(format!("give one space count per lane ({lanes})"))),
        };
        if spaces.iter().any(|&n| !(1..=200).contains(&n)) {
            return Err(fail("each lane has 1 to 200 spaces".into()));
        }
        if !curve && spaces.windows(2).any(|w| w.first() != w.last()) {
            return Err(fail("a straight has as many spaces in every lane".into()));
        }
        let half = if curve {
            match &self.half {
                Some(h) if h.len() == lanes => h.clone(),
                Some(_) => return Err(fail(format!("give one half count per lane ({lanes})"))),
                None => spaces.iter().map(|n| n.div_ceil(2)).collect(),
            }
        } else {
            spaces.clone()
        };
        if curve && half.iter().zip(&spaces).any(|(h, n)| *h == 0 || h >= n) {
            return Err(fail(
                "a curve's first half has at least one space and fewer than the curve".into(),
            ));
        }
        Ok(Section {
            name: self.name.clone(),
            curve,
            spaces,
            half,
        })
    }
}

/// The index of the section called `name`.
fn find_section(sections: &[Section], name: &str) -> Result<usize, BoardError> {
    sections
        .iter()
        .position(|s| s.name == name)
        .ok_or_else(|| invalid(format!("there is no section called {name}")))
}

impl RawStart {
    /// The `what` (1500 or 800) start, checked against the sections.
    fn checked(&self, what: &str, sections: &[Section], lanes: usize) -> Result<Start, BoardError> {
        let section = find_section(sections, &self.section)?;
        if self.spaces.len() != lanes {
            return Err(invalid(format!(
                "the {what} start gives one space per lane ({lanes})"
            )));
        }
        let mut spaces = Vec::new();
        for (lane, &s) in self.spaces.iter().enumerate() {
            let n = sections
                .get(section)
                .and_then(|sec| sec.spaces.get(lane))
                .copied()
                .unwrap_or(0);
            if s == 0 || s > n {
                return Err(invalid(format!(
                    "the {what} start: lane {} has no space {s} in {}",
                    lane + 1,
                    self.section
                )));
            }
            spaces.push(s - 1);
        }
        if !(1..=20).contains(&self.laps) {
            return Err(invalid(format!("the {what} start: laps must be 1 to 20")));
        }
        let keep = match &self.keep_lanes_through {
            Some(name) => Some(find_section(sections, name)?),
            None => None,
        };
        Ok(Start {
            section,
            spaces,
            laps: self.laps,
            keep_lanes_through: keep,
        })
    }
}

/// One stretch of track.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    pub name: String,
    pub curve: bool,
    /// Spaces in each lane (index 0 is lane 1).
    pub spaces: Vec<u16>,
    /// Spaces in each lane's first half (curves); equal to `spaces` on straights.
    pub half: Vec<u16>,
}

/// Where a race starts and how long it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// The section holding the start line.
    pub section: usize,
    /// Each lane's start space, counted from 0 within the section.
    pub spaces: Vec<u16>,
    /// The lap counter's first value; the race ends at crossing `laps + 1`.
    pub laps: u8,
    /// Runners keep their lanes until past the end of this section on their first lap.
    pub keep_lanes_through: Option<usize>,
}

/// A board, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub name: String,
    pub lanes: u8,
    pub sections: Vec<Section>,
    pub finish_straight: u16,
    pub start_1500: Start,
    pub start_800: Start,
}

fn invalid(text: impl Into<String>) -> BoardError {
    BoardError::Invalid(text.into())
}

impl Board {
    /// The board shipped with the game.
    pub fn standard() -> Result<Board, BoardError> {
        // Parsed once: every race on the standard board starts from this copy.
        static STANDARD: OnceLock<Result<Board, BoardError>> = OnceLock::new();
        STANDARD.get_or_init(|| Board::parse(DEFAULT_BOARD)).clone()
    }

    /// Reads and checks a board file (pure: the text comes from the caller).
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let raw: RawBoard = toml::from_str(text).map_err(|e| BoardError::Toml(e.to_string()))?;
        if !(2..=12).contains(&raw.lanes) {
            return Err(invalid("a board has 2 to 12 lanes"));
        }
        let lanes = usize::from(raw.lanes);
        if raw.section.is_empty() || raw.section.len() > 16 {
            return Err(invalid("a board has 1 to 16 sections"));
        }
        let sections = raw
            .section
            .iter()
            .map(|s| s.checked(lanes))
            .collect::<Result<Vec<_>, _>>()?;
        if !(1..=100).contains(&raw.finish_straight) {
            return Err(invalid("finish_straight must be 1 to 100 spaces"));
        }
        let start_1500 = raw.start.m1500.checked("1500", &sections, lanes)?;
        let start_800 = raw.start.m800.checked("800", &sections, lanes)?;
        Ok(Board {
            name: raw.name,
            lanes: raw.lanes,
            sections,
            finish_straight: raw.finish_straight,
            start_1500,
            start_800,
        })
    }

    pub fn start(&self, distance: Distance) -> &Start {
        match distance {
            Distance::M1500 => &self.start_1500,
            Distance::M800 => &self.start_800,
        }
    }
}

/// A space a runner may stand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Spot {
    /// 1 is the inner lane.
    pub lane: u8,
    /// Finish-line crossings made; at the course's finish lap the runner is on the
    /// straight finish template.
    pub lap: u8,
    /// Index along the lane's lap from the finish line (or along the finish template).
    pub pos: u16,
}

/// A space of the board, whatever the lap: what blocking compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Space {
    pub lane: u8,
    /// On the straight finish template rather than the lap.
    pub template: bool,
    pub pos: u16,
}

/// Where a space lies: which section, and how far to the next checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Section index; the finish template counts as one past the last section.
    pub section: usize,
    pub index: u16,
    /// Spaces in this section in this lane.
    pub len: u16,
    /// 0, or 1 in a curve's second half.
    pub half: u8,
    /// Steps in this lane to the middle of the curve (first half) or to the section's end.
    pub steps_left: u16,
}

/// Position order: greater is better placed.
pub type PosKey = (u8, usize, u8, Reverse<u16>, Reverse<u8>);

/// A course as stored: the board and the race.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct CourseData {
    board: Board,
    distance: Distance,
}

/// One space of the course on one lap, as the pathfinder and the standings look it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub spot: Spot,
    /// The steps from here ([`Course::index`]es): straight ahead, and the diagonals to the
    /// inner and the outer lane (none where the runner must keep its lane).
    pub forward: Option<usize>,
    pub inner: Option<usize>,
    pub outer: Option<usize>,
    /// The board space, whatever the lap ([`Course::space`]), as the index of one spot on it.
    pub board_space: usize,
    /// Position order: greater is better placed, equal only for equal [`Course::key`]s.
    pub rank: u32,
}

/// A board with the race chosen on it: everything movement and placing need.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(from = "CourseData", into = "CourseData")]
pub struct Course {
    pub board: Board,
    pub distance: Distance,
    /// Where each section starts in each lane's lap, and (last) the lap's length: derived,
    /// so the pathfinder need not add up sections at every step.
    starts: Vec<Vec<u16>>,
    /// Where each lane's spaces (every lap, then the finish template) start in
    /// [`Course::index`], and (last) how many spaces the course has: derived.
    bases: Vec<usize>,
    /// Every space's [`Node`], by [`Course::index`]: derived. Worked out once because the
    /// pathfinder is most of a round, and the expert bot plays thousands of rounds a
    /// decision (within its 50 ms): walking the sections at every step made a round
    /// several times slower (docs/performance.md).
    nodes: Vec<Node>,
}

impl PartialEq for Course {
    fn eq(&self, other: &Course) -> bool {
        self.board == other.board && self.distance == other.distance
    }
}

impl Eq for Course {}

impl From<CourseData> for Course {
    fn from(d: CourseData) -> Course {
        Course::new(d.board, d.distance)
    }
}

impl From<Course> for CourseData {
    fn from(c: Course) -> CourseData {
        CourseData {
            board: c.board,
            distance: c.distance,
        }
    }
}

impl Course {
    pub fn new(board: Board, distance: Distance) -> Course {
        let starts = (1..=board.lanes)
            .map(|lane| {
                let mut acc = 0u16;
                let mut v = vec![0u16];
                for s in &board.sections {
                    acc += s.spaces.get(usize::from(lane - 1)).copied().unwrap_or(1);
                    v.push(acc);
                }
                v
            })
            .collect();
        let mut course = Course {
            board,
            distance,
            starts,
            bases: Vec::new(),
            nodes: Vec::new(),
        };
        let mut acc = 0usize;
        let mut bases = vec![0usize];
        for lane in 1..=course.lanes() {
            acc += usize::from(course.finish_lap()) * usize::from(course.lap_len(lane))
                + usize::from(course.board.finish_straight);
            bases.push(acc);
        }
        course.bases = bases;
        course.nodes = course.build_nodes();
        course
    }

    /// Every spot the course numbers, in [`Course::index`] order.
    fn spots(&self) -> Vec<Spot> {
        let mut out = Vec::with_capacity(self.spaces());
        for lane in 1..=self.lanes() {
            for lap in 0..self.finish_lap() {
                out.extend((0..self.lap_len(lane)).map(|pos| Spot { lane, lap, pos }));
            }
            let lap = self.finish_lap();
            out.extend((0..self.board.finish_straight).map(|pos| Spot { lane, lap, pos }));
        }
        out
    }

    fn build_nodes(&self) -> Vec<Node> {
        let spots = self.spots();
        // Ranks in position order, equal for equal keys: sort once by the rulebook's key.
        let mut by_key: Vec<(PosKey, usize)> = spots
            .iter()
            .enumerate()
            .map(|(i, &s)| (self.key(s), i))
            .collect();
        by_key.sort_unstable();
        let mut rank = vec![0u32; spots.len()];
        let mut r = 0u32;
        let mut previous: Option<PosKey> = None;
        for (key, i) in by_key {
            if previous.is_some_and(|p| p != key) {
                r += 1;
            }
            previous = Some(key);
            if let Some(slot) = rank.get_mut(i) {
                *slot = r;
            }
        }
        let index = |s: Option<Spot>| s.and_then(|s| self.index(s));
        spots
            .iter()
            .zip(rank)
            .enumerate()
            .map(|(i, (&spot, rank))| {
                let kept = self.lanes_kept(spot);
                let diagonal = |lane: u8| (!kept).then(|| self.diagonal(spot, lane)).flatten();
                let board_space = if self.on_finish_straight(spot) {
                    spot
                } else {
                    Spot { lap: 0, ..spot }
                };
                Node {
                    spot,
                    forward: index(self.forward(spot)),
                    inner: index(diagonal(spot.lane.wrapping_sub(1))),
                    outer: index(diagonal(spot.lane.wrapping_add(1))),
                    // Always on the course: every lap's space is on the first lap too.
                    board_space: index(Some(board_space)).unwrap_or(i),
                    rank,
                }
            })
            .collect()
    }

    /// A number for every space of the course on every lap (lane by lane, lap by lap, then
    /// the finish template), from 0 to [`Course::spaces`]: the pathfinder's array index.
    pub fn index(&self, spot: Spot) -> Option<usize> {
        if !self.is_valid(spot) {
            return None;
        }
        let base = self.bases.get(usize::from(spot.lane.saturating_sub(1)))?;
        Some(
            base + usize::from(spot.lap) * usize::from(self.lap_len(spot.lane))
                + usize::from(spot.pos),
        )
    }

    /// The space numbered `i` by [`Course::index`].
    pub fn node(&self, i: usize) -> Option<&Node> {
        self.nodes.get(i)
    }

    /// Where a spot stands in position order, as one number ordered as [`Course::key`];
    /// `None` off the course.
    pub fn rank(&self, spot: Spot) -> Option<u32> {
        let i = self.index(spot)?;
        self.node(i).map(|n| n.rank)
    }

    /// How many numbers [`Course::index`] gives.
    pub fn spaces(&self) -> usize {
        self.bases.last().copied().unwrap_or(0)
    }

    pub fn start(&self) -> &Start {
        self.board.start(self.distance)
    }

    pub fn lanes(&self) -> u8 {
        self.board.lanes
    }

    /// The lap value of a runner on the finish template.
    pub fn finish_lap(&self) -> u8 {
        self.start().laps.saturating_add(1)
    }

    fn len_in(&self, lane: u8, section: usize) -> u16 {
        self.board
            .sections
            .get(section)
            .and_then(|s| s.spaces.get(usize::from(lane.saturating_sub(1))))
            .copied()
            .unwrap_or(1)
    }

    fn half_in(&self, lane: u8, section: usize) -> u16 {
        self.board
            .sections
            .get(section)
            .and_then(|s| s.half.get(usize::from(lane.saturating_sub(1))))
            .copied()
            .unwrap_or(1)
    }

    /// Spaces in one lap of `lane`.
    pub fn lap_len(&self, lane: u8) -> u16 {
        self.section_start(lane, self.board.sections.len())
    }

    /// The lap index of the first space of `section` in `lane`.
    pub fn section_start(&self, lane: u8, section: usize) -> u16 {
        self.starts
            .get(usize::from(lane.saturating_sub(1)))
            .and_then(|v| v.get(section))
            .copied()
            .unwrap_or(0)
    }

    /// The spot at `index` (from 0) of `section` in `lane`, on lap `lap`.
    pub fn spot_in(&self, lane: u8, section: usize, index: u16, lap: u8) -> Spot {
        Spot {
            lane,
            lap,
            pos: self.section_start(lane, section) + index,
        }
    }

    /// The board space a spot stands on, whatever the lap: the rulebook's security zone is
    /// "the runner standing space", so runners on different laps block each other. The
    /// finish template's spaces are its own (docs/rules/1500m.md).
    pub fn space(&self, spot: Spot) -> Space {
        Space {
            lane: spot.lane,
            template: self.on_finish_straight(spot),
            pos: spot.pos,
        }
    }

    /// Whether two spots are the same board space (see [`Course::space`]).
    pub fn same_space(&self, a: Spot, b: Spot) -> bool {
        self.space(a) == self.space(b)
    }

    pub fn on_finish_straight(&self, spot: Spot) -> bool {
        spot.lap >= self.finish_lap()
    }

    /// Whether a spot exists on this course.
    pub fn is_valid(&self, spot: Spot) -> bool {
        if spot.lane == 0 || spot.lane > self.lanes() || spot.lap > self.finish_lap() {
            return false;
        }
        if self.on_finish_straight(spot) {
            spot.pos < self.board.finish_straight
        } else {
            spot.pos < self.lap_len(spot.lane)
        }
    }

    pub fn place(&self, spot: Spot) -> Place {
        if self.on_finish_straight(spot) {
            let len = self.board.finish_straight;
            return Place {
                section: self.board.sections.len(),
                index: spot.pos,
                len,
                half: 0,
                steps_left: len.saturating_sub(spot.pos),
            };
        }
        let mut rest = spot.pos;
        let last = self.board.sections.len().saturating_sub(1);
        for section in 0..=last {
            let len = self.len_in(spot.lane, section);
            if rest < len || section == last {
                let half_len = self.half_in(spot.lane, section);
                let curve = self.board.sections.get(section).is_some_and(|s| s.curve);
                let (half, steps_left) = if curve && rest < half_len {
                    (0, half_len - rest)
                } else if curve {
                    (1, len.saturating_sub(rest))
                } else {
                    (0, len.saturating_sub(rest))
                };
                return Place {
                    section,
                    index: rest,
                    len,
                    half,
                    steps_left,
                };
            }
            rest -= len;
        }
        Place {
            section: 0,
            index: 0,
            len: 1,
            half: 0,
            steps_left: 1,
        }
    }

    /// Position order (the rulebook's): crossings, then section, then half of a curve, then
    /// fewer steps to the next checkpoint, then the inner lane.
    pub fn key(&self, spot: Spot) -> PosKey {
        let p = self.place(spot);
        (
            spot.lap,
            p.section,
            p.half,
            Reverse(p.steps_left),
            Reverse(spot.lane),
        )
    }

    /// The space straight ahead in the same lane, if any.
    pub fn forward(&self, spot: Spot) -> Option<Spot> {
        if self.on_finish_straight(spot) {
            let pos = spot.pos + 1;
            return (pos < self.board.finish_straight).then_some(Spot { pos, ..spot });
        }
        let pos = spot.pos + 1;
        if pos < self.lap_len(spot.lane) {
            return Some(Spot { pos, ..spot });
        }
        // Crossing the line: onto the next lap, or onto the finish template.
        Some(Spot {
            lane: spot.lane,
            lap: spot.lap + 1,
            pos: 0,
        })
    }

    /// The diagonal step into `lane` (next to the spot's own): on curves, the more forward of
    /// the two spaces beside the space ahead.
    pub fn diagonal(&self, spot: Spot, lane: u8) -> Option<Spot> {
        if lane == 0 || lane > self.lanes() || lane.abs_diff(spot.lane) != 1 {
            return None;
        }
        let ahead = self.forward(spot)?;
        if self.on_finish_straight(ahead) {
            return Some(Spot { lane, ..ahead });
        }
        let p = self.place(ahead);
        let n = u32::from(p.len);
        let n2 = u32::from(self.len_in(lane, p.section));
        // The last space of the other lane that starts before the space ahead ends.
        let j = ((u32::from(p.index) + 1) * n2)
            .div_ceil(n)
            .saturating_sub(1);
        let j = u16::try_from(j).unwrap_or(0);
        Some(self.spot_in(lane, p.section, j, ahead.lap))
    }

    /// Whether a runner standing here must keep its lane (the 800 m break rule).
    pub fn lanes_kept(&self, spot: Spot) -> bool {
        match self.start().keep_lanes_through {
            Some(section) => {
                spot.lap == 0
                    && !self.on_finish_straight(spot)
                    && self.place(spot).section <= section
            }
            None => false,
        }
    }

    /// The start spots, lane 1 first.
    pub fn start_spots(&self) -> Vec<Spot> {
        let start = self.start();
        start
            .spaces
            .iter()
            .enumerate()
            .map(|(i, &index)| {
                let lane = u8::try_from(i + 1).unwrap_or(1);
                self.spot_in(lane, start.section, index, 0)
            })
            .collect()
    }

    /// A rough distance run, in inner-lane spaces from the start line (outer lanes' curve
    /// spaces are scaled to the inner lane's).
    pub fn progress(&self, spot: Spot) -> i32 {
        self.absolute(spot) - self.base()
    }

    /// The race's length in the same units as [`Course::progress`].
    pub fn length(&self) -> i32 {
        i32::from(self.lap_len(1)) * i32::from(self.finish_lap()) - self.base()
    }

    fn base(&self) -> i32 {
        let first = self.start().spaces.first().copied().unwrap_or(0);
        self.absolute(self.spot_in(1, self.start().section, first, 0))
    }

    fn absolute(&self, spot: Spot) -> i32 {
        let lap1 = i32::from(self.lap_len(1));
        if self.on_finish_straight(spot) {
            return lap1 * i32::from(spot.lap) + i32::from(spot.pos);
        }
        let p = self.place(spot);
        let n1 = u32::from(self.len_in(1, p.section));
        let scaled = u32::from(p.index) * n1 / u32::from(p.len.max(1));
        lap1 * i32::from(spot.lap)
            + i32::from(self.section_start(1, p.section))
            + i32::try_from(scaled).unwrap_or(0)
    }

    /// A section's name (the finish template is one past the last section).
    pub fn section_name(&self, section: usize) -> &str {
        self.board
            .sections
            .get(section)
            .map(|s| s.name.as_str())
            .unwrap_or("finish straight")
    }

    /// "lane 3, back straight 4" (spaces counted from 1 within the section).
    pub fn describe(&self, spot: Spot) -> String {
        let p = self.place(spot);
        format!(
            "lane {}, {} {}",
            spot.lane,
            self.section_name(p.section),
            p.index + 1
        )
    }

    /// The text a player types for a space: `3:17` (lane 3, 17th space after the finish line)
    /// or `3:f2` (the 2nd space past the line on the finish template).
    pub fn label(&self, spot: Spot) -> String {
        if self.on_finish_straight(spot) {
            format!("{}:f{}", spot.lane, spot.pos + 1)
        } else {
            format!("{}:{}", spot.lane, spot.pos + 1)
        }
    }

    /// Per-lane lap lengths, for the docs and views.
    pub fn lap_lengths(&self) -> BTreeMap<u8, u16> {
        (1..=self.lanes()).map(|l| (l, self.lap_len(l))).collect()
    }
}

/// Serde for a race's shared course: stored as the course itself. A race shares its
/// course (an `Arc`) because the bots clone a race thousands of times a decision, and a
/// course with its nodes is about 100 KB.
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
