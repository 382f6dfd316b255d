//! 1500m's board as drawn: the board model's sections laid end to end into a closed
//! track, lane 1 inside, running anticlockwise from the finish line, with every lane's
//! spaces marked (outer lanes have more on the curves), and the straight finish template
//! laid on from the finish line.
//!
//! A board of two curves and straights between them (the standard one) is drawn as a
//! stadium standing upright, home straight on the right and the finish line at its top,
//! with room in the infield for the standings. Boards of three or more curves become a
//! rounded polygon; anything else is drawn as a ring whose sections keep their share of
//! the lap. Geometry is worked out in lane widths with y up, then scaled to pixels.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use super::canvas::Segment;
use crate::games::fifteen_hundred::board::{Board, Course, Spot};

/// The infield's radius, per lane: room inside for the standings.
const INFIELD_PER_LANE: f32 = 0.82;
/// A straight's space, in lane widths.
const SPACE: f32 = 1.4;

/// One section's centre line of the kerb (lane 1's inner edge).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Seg {
    Line {
        from: (f32, f32),
        heading: f32,
        len: f32,
    },
    /// Turning left about `centre` from angle `a0` (radians, from the centre to the kerb).
    Arc {
        centre: (f32, f32),
        r0: f32,
        a0: f32,
        sweep: f32,
    },
}

impl Seg {
    /// The point `offset` lane widths outside the kerb, `frac` of the way along.
    fn at(&self, offset: f32, frac: f32) -> (f32, f32) {
        match *self {
            Seg::Line { from, heading, len } => {
                let (s, c) = heading.sin_cos();
                // Outside is to the runner's right.
                (
                    from.0 + c * len * frac + s * offset,
                    from.1 + s * len * frac - c * offset,
                )
            }
            Seg::Arc {
                centre,
                r0,
                a0,
                sweep,
            } => {
                let a = a0 + sweep * frac;
                let r = r0 + offset;
                (centre.0 + r * a.cos(), centre.1 + r * a.sin())
            }
        }
    }

    /// Points along the kerb at `offset`, enough to look smooth.
    fn samples(&self, offset: f32) -> Vec<(f32, f32)> {
        let steps = match self {
            Seg::Line { .. } => 1,
            Seg::Arc { sweep, .. } => ((sweep.abs() / PI * 40.0).ceil() as usize).clamp(2, 80),
        };
        (0..=steps)
            .map(|k| self.at(offset, k as f32 / steps as f32))
            .collect()
    }
}

/// How the track was laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Two curves: upright, with the standings in the infield.
    Stadium,
    Polygon,
    Ring,
}

/// How a board's sections are laid out, in lane widths, before anything is drawn.
struct Plan {
    lanes: f32,
    curves: usize,
    /// Which straight slot (between which curves) each section lies in.
    slot_of: Vec<usize>,
    /// Lane 1's spaces on each straight slot.
    slot_spaces: Vec<f32>,
    shape: Shape,
    /// The kerb's radius on a curve.
    r0: f32,
    /// Every straight slot's length: the same for all, so the track closes.
    slot_len: f32,
    /// Lane 1's spaces in all.
    total1: f32,
    /// The kerb's radius when the board is drawn as a ring.
    ring_r0: f32,
}

/// Lane 1's spaces in section `i` (1 if the board does not say).
fn lane1(board: &Board, i: usize) -> f32 {
    board
        .sections
        .get(i)
        .and_then(|s| s.spaces.first())
        .copied()
        .map_or(1.0, f32::from)
}

impl Plan {
    fn new(board: &Board, width: f32, min_straight: f32) -> Plan {
        let lanes = f32::from(board.lanes.max(1));
        let curves = board.sections.iter().filter(|s| s.curve).count();
        let mut slot_of = Vec::new();
        let mut seen = 0usize;
        for s in &board.sections {
            slot_of.push(if curves > 0 { seen % curves } else { 0 });
            if s.curve {
                seen += 1;
            }
        }
        let mut slot_spaces = vec![0.0f32; curves.max(1)];
        for (i, s) in board.sections.iter().enumerate() {
            if !s.curve
                && let Some(v) = slot_of.get(i).and_then(|&k| slot_spaces.get_mut(k))
            {
                *v += lane1(board, i);
            }
        }
        let shape = if curves >= 2 && slot_spaces.iter().all(|&n| n > 0.0) {
            if curves == 2 {
                Shape::Stadium
            } else {
                Shape::Polygon
            }
        } else {
            Shape::Ring
        };

        let r0 = (INFIELD_PER_LANE * lanes).max(1.5);
        let mut slot_len = slot_spaces.iter().fold(0.0f32, |a, &b| a.max(b)) * SPACE;
        if shape == Shape::Stadium {
            let lw = width / (2.0 * (r0 + lanes));
            if lw > 0.0 {
                slot_len = slot_len.max(min_straight / lw);
            }
        }
        let total1: f32 = (0..board.sections.len()).map(|i| lane1(board, i)).sum();
        let ring_r0 = (total1 * SPACE / TAU - 0.5).max(lanes * 0.5);
        Plan {
            lanes,
            curves,
            slot_of,
            slot_spaces,
            shape,
            r0,
            slot_len,
            total1,
            ring_r0,
        }
    }

    /// The sections end to end from the finish line, heading up.
    fn segments(&self, board: &Board) -> Vec<Seg> {
        let mut segs = Vec::new();
        let mut at = (0.0f32, 0.0f32);
        let mut heading = FRAC_PI_2;
        for (i, s) in board.sections.iter().enumerate() {
            let seg = match self.shape {
                Shape::Ring => {
                    let sweep = TAU * lane1(board, i) / self.total1.max(1.0);
                    let a0 = heading - FRAC_PI_2;
                    let r0 = self.ring_r0;
                    let centre = (at.0 - r0 * a0.cos(), at.1 - r0 * a0.sin());
                    heading += sweep;
                    Seg::Arc {
                        centre,
                        r0,
                        a0,
                        sweep,
                    }
                }
                _ if s.curve => {
                    let sweep = TAU / self.curves as f32;
                    let a0 = heading - FRAC_PI_2;
                    let r0 = self.r0;
                    let centre = (at.0 - r0 * a0.cos(), at.1 - r0 * a0.sin());
                    heading += sweep;
                    Seg::Arc {
                        centre,
                        r0,
                        a0,
                        sweep,
                    }
                }
                _ => {
                    let slot = self
                        .slot_of
                        .get(i)
                        .and_then(|&k| self.slot_spaces.get(k))
                        .copied();
                    let len = self.slot_len * lane1(board, i) / slot.unwrap_or(1.0).max(1.0);
                    Seg::Line {
                        from: at,
                        heading,
                        len,
                    }
                }
            };
            at = seg.at(0.0, 1.0);
            segs.push(seg);
        }
        segs
    }
}

/// The bounding box (x0, y0, x1, y1) of the kerb and the outer edge, with the origin in it.
fn extent(segs: &[Seg], lanes: f32) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for seg in segs {
        for p in seg.samples(0.0).into_iter().chain(seg.samples(lanes)) {
            x0 = x0.min(p.0);
            x1 = x1.max(p.0);
            y0 = y0.min(p.1);
            y1 = y1.max(p.1);
        }
    }
    (x0, y0, x1, y1)
}

/// A stadium's infield between the two curves' centres, in pixels, and its ends' radius.
fn infield(
    segs: &[Seg],
    r0: f32,
    (ox, oy, scale): (f32, f32, f32),
) -> Option<((f32, f32, f32, f32), f32)> {
    let centres: Vec<(f32, f32)> = segs
        .iter()
        .filter_map(|s| match s {
            Seg::Arc { centre, .. } => Some(*centre),
            Seg::Line { .. } => None,
        })
        .collect();
    match (centres.first(), centres.get(1)) {
        (Some(a), Some(b)) => {
            let (l, t) = (ox + (a.0 - r0) * scale, oy - a.1.max(b.1) * scale);
            let h = (a.1 - b.1).abs() * scale;
            Some(((l, t, 2.0 * r0 * scale, h), r0 * scale))
        }
        _ => None,
    }
}

/// The board scaled into the picture.
#[derive(Clone, Debug)]
pub struct Oval {
    // Read by tests, which check the layout each kind of board gets.
    #[cfg_attr(not(test), allow(dead_code))]
    pub shape: Shape,
    pub lanes: u8,
    segs: Vec<Seg>,
    /// Spaces by section, then lane.
    spaces: Vec<Vec<u16>>,
    template: Seg,
    template_spaces: u16,
    /// Model to picture: x' = ox + scale x, y' = oy - scale y.
    scale: f32,
    ox: f32,
    oy: f32,
    /// The picture's part the track takes: left, top, width, height.
    pub bounds: (f32, f32, f32, f32),
    /// The stadium's infield between the straights (left, top, width, height), and the
    /// radius of its round ends.
    pub infield: Option<((f32, f32, f32, f32), f32)>,
}

impl Oval {
    /// Lays `board` out `width` pixels wide with its top at `top`, no taller than
    /// `max_height` when that can be had; in a stadium the straights are made at least
    /// `min_straight` pixels long (room for the standings).
    pub fn new(board: &Board, left: f32, top: f32, width: f32, min_straight: f32) -> Oval {
        let plan = Plan::new(board, width, min_straight);
        let segs = plan.segments(board);
        let (x0, y0, x1, y1) = extent(&segs, plan.lanes);
        let scale = width / (x1 - x0).max(1.0);
        let ox = left - x0 * scale;
        let oy = top + y1 * scale;

        // The finish template runs on from the finish line, heading as the lap began,
        // as far as the track reaches that way.
        let fs = board.finish_straight.max(1);
        let room = y1.max(0.0);
        let step = (room / f32::from(fs)).clamp(0.4, SPACE);
        let template = Seg::Line {
            from: (0.0, 0.0),
            heading: FRAC_PI_2,
            len: step * f32::from(fs),
        };

        let infield = if plan.shape == Shape::Stadium {
            infield(&segs, plan.r0, (ox, oy, scale))
        } else {
            None
        };
        Oval {
            shape: plan.shape,
            lanes: board.lanes,
            segs,
            spaces: board.sections.iter().map(|s| s.spaces.clone()).collect(),
            template,
            template_spaces: fs,
            scale,
            ox,
            oy,
            bounds: (left, top, width, (y1 - y0) * scale),
            infield,
        }
    }

    fn px(&self, p: (f32, f32)) -> (f32, f32) {
        (self.ox + p.0 * self.scale, self.oy - p.1 * self.scale)
    }

    /// A lane's width in pixels.
    pub fn lane_width(&self) -> f32 {
        self.scale
    }

    fn seg(&self, section: usize) -> Option<&Seg> {
        self.segs.get(section)
    }

    fn spaces_in(&self, section: usize, lane: u8) -> u16 {
        self.spaces
            .get(section)
            .and_then(|s| s.get(usize::from(lane.saturating_sub(1))))
            .copied()
            .unwrap_or(1)
            .max(1)
    }

    /// Each section's ground: kerb forward, outer edge back.
    pub fn ground(&self) -> Vec<Vec<(f32, f32)>> {
        let lanes = f32::from(self.lanes);
        self.segs
            .iter()
            .map(|s| {
                let mut pts = s.samples(-0.05);
                let mut outer = s.samples(lanes + 0.05);
                outer.reverse();
                pts.extend(outer);
                pts.into_iter().map(|p| self.px(p)).collect()
            })
            .collect()
    }

    /// The line `offset` lane widths out, all the way round.
    pub fn ring(&self, offset: f32) -> Vec<(f32, f32)> {
        let mut pts: Vec<(f32, f32)> = Vec::new();
        for s in &self.segs {
            for p in s.samples(offset) {
                let p = self.px(p);
                if pts.last() != Some(&p) {
                    pts.push(p);
                }
            }
        }
        pts
    }

    /// The lines between spaces, lane by lane, and the lines across the track where
    /// sections meet.
    pub fn space_lines(&self) -> (Vec<Segment>, Vec<Segment>) {
        let mut ticks = Vec::new();
        let mut joins = Vec::new();
        let lanes = f32::from(self.lanes);
        for (i, seg) in self.segs.iter().enumerate() {
            joins.push((self.px(seg.at(0.0, 0.0)), self.px(seg.at(lanes, 0.0))));
            for lane in 1..=self.lanes {
                let n = self.spaces_in(i, lane);
                let (a, b) = (f32::from(lane - 1), f32::from(lane));
                for j in 1..n {
                    let f = f32::from(j) / f32::from(n);
                    ticks.push((self.px(seg.at(a, f)), self.px(seg.at(b, f))));
                }
            }
        }
        (ticks, joins)
    }

    /// The finish line across the track: the kerb end and the outer end.
    pub fn finish_line(&self) -> Segment {
        let lanes = f32::from(self.lanes);
        (self.px((0.0, 0.0)), self.px((lanes, 0.0)))
    }

    /// The finish template's ground, and the lines between its spaces.
    pub fn template(&self) -> (Vec<(f32, f32)>, Vec<Segment>) {
        let lanes = f32::from(self.lanes);
        let t = &self.template;
        let ground = [
            t.at(0.0, 0.0),
            t.at(0.0, 1.0),
            t.at(lanes, 1.0),
            t.at(lanes, 0.0),
        ]
        .into_iter()
        .map(|p| self.px(p))
        .collect();
        let n = self.template_spaces;
        let mut lines = Vec::new();
        for j in 1..=n {
            let f = f32::from(j) / f32::from(n);
            lines.push((self.px(t.at(0.0, f)), self.px(t.at(lanes, f))));
        }
        for lane in 1..self.lanes {
            let o = f32::from(lane);
            lines.push((self.px(t.at(o, 0.0)), self.px(t.at(o, 1.0))));
        }
        (ground, lines)
    }

    /// Where a lane's start space begins: a short line across the lane.
    pub fn start_marks(&self, course: &Course) -> Vec<Segment> {
        course
            .start_spots()
            .into_iter()
            .filter_map(|spot| {
                let p = course.place(spot);
                let seg = self.seg(p.section)?;
                let n = self.spaces_in(p.section, spot.lane);
                let f = f32::from(p.index) / f32::from(n);
                let a = f32::from(spot.lane.saturating_sub(1));
                Some((self.px(seg.at(a, f)), self.px(seg.at(a + 1.0, f))))
            })
            .collect()
    }

    /// The centre of the space `spot` stands on, on the track or on the finish template.
    pub fn centre(&self, course: &Course, spot: Spot) -> Option<(f32, f32)> {
        let offset = f32::from(spot.lane) - 0.5;
        if spot.lane == 0 || spot.lane > self.lanes {
            return None;
        }
        if course.on_finish_straight(spot) {
            let n = f32::from(self.template_spaces);
            let f = (f32::from(spot.pos) + 0.5) / n;
            return Some(self.px(self.template.at(offset, f.min(1.0))));
        }
        let p = course.place(spot);
        let seg = self.seg(p.section)?;
        let n = f32::from(self.spaces_in(p.section, spot.lane));
        let f = (f32::from(p.index) + 0.5) / n;
        Some(self.px(seg.at(offset, f.min(1.0))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen_hundred::board::Distance;

    fn standard() -> (Board, Course) {
        let b = Board::standard().unwrap();
        let c = Course::new(b.clone(), Distance::M1500);
        (b, c)
    }

    fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
        ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
    }

    #[test]
    fn the_standard_board_is_an_upright_stadium_that_closes() {
        let (b, _) = standard();
        let o = Oval::new(&b, 24.0, 100.0, 752.0, 0.0);
        assert_eq!(o.shape, Shape::Stadium);
        assert!((o.bounds.2 - 752.0).abs() < 0.01);
        // Taller than wide, and the lap ends where it began.
        assert!(o.bounds.3 > o.bounds.2);
        let ring = o.ring(0.0);
        assert!(dist(ring[0], *ring.last().unwrap()) < 0.01);
        // The finish line is at the top right, across the home straight.
        let (kerb, outer) = o.finish_line();
        assert!(kerb.0 < outer.0 && kerb.0 > 400.0);
        assert!((kerb.1 - outer.1).abs() < 0.01);
        assert!((o.lane_width() * 8.0 - (outer.0 - kerb.0)).abs() < 0.01);
        let (field, r) = o.infield.unwrap();
        assert!((field.2 - 2.0 * r).abs() < 0.01 && field.3 > 300.0);
    }

    #[test]
    fn outer_lanes_have_longer_curves_and_more_spaces() {
        let (b, c) = standard();
        let o = Oval::new(&b, 24.0, 100.0, 752.0, 0.0);
        // Two neighbouring spaces of the first curve, in lane 1 and in lane 8.
        let at = |lane: u8, pos: u16| o.centre(&c, Spot { lane, lap: 1, pos }).unwrap();
        let inner = dist(at(1, 0), at(1, 1));
        let outer = dist(at(8, 0), at(8, 1));
        assert!(outer > inner, "{inner} {outer}");
        // The first curve's spaces run from the finish line up and round to the left.
        assert!(at(1, 0).1 < o.finish_line().0.1);
        assert!(at(1, 9).0 < at(1, 0).0);
        // The back straight (lap spaces 10-19 of lane 1) runs down the left side.
        assert!(at(1, 10).0 < 300.0 && at(1, 12).1 > at(1, 10).1);
        // Lane 2 lies outside lane 1 on the back straight, so further left.
        assert!(at(2, 11).0 < at(1, 10).0);
    }

    #[test]
    fn the_finish_template_runs_straight_on_from_the_line() {
        let (b, c) = standard();
        let o = Oval::new(&b, 24.0, 100.0, 752.0, 0.0);
        let f = c.finish_lap();
        let first = o
            .centre(
                &c,
                Spot {
                    lane: 1,
                    lap: f,
                    pos: 0,
                },
            )
            .unwrap();
        let last = o
            .centre(
                &c,
                Spot {
                    lane: 1,
                    lap: f,
                    pos: 15,
                },
            )
            .unwrap();
        let line = o.finish_line().0;
        assert!((first.0 - last.0).abs() < 0.01, "straight up");
        assert!(first.1 < line.1 && last.1 < first.1);
        // It stays inside the picture.
        assert!(last.1 >= o.bounds.1);
        let (ground, lines) = o.template();
        assert_eq!(ground.len(), 4);
        assert_eq!(lines.len(), 16 + 7);
    }

    #[test]
    fn every_space_of_the_course_has_a_place_inside_the_picture() {
        let (b, c) = standard();
        let o = Oval::new(&b, 24.0, 100.0, 752.0, 0.0);
        for lane in 1..=8 {
            for pos in 0..c.lap_len(lane) {
                let p = o.centre(&c, Spot { lane, lap: 1, pos }).unwrap();
                assert!(
                    p.0 > 24.0 && p.0 < 776.0 && p.1 > 100.0,
                    "{lane}:{pos} {p:?}"
                );
                assert!(p.1 < 100.0 + o.bounds.3);
            }
        }
        assert!(
            o.centre(
                &c,
                Spot {
                    lane: 9,
                    lap: 1,
                    pos: 0
                }
            )
            .is_none()
        );
        let marks = o.start_marks(&c);
        assert_eq!(marks.len(), 8);
        let (ticks, joins) = o.space_lines();
        assert_eq!(joins.len(), 4);
        // Lane k has 9 + k spaces on each curve and 10 on each straight.
        let spaces: usize = (1..=8).map(|k| 2 * (9 + k) + 20).sum();
        assert_eq!(ticks.len(), spaces - 4 * 8);
    }

    fn board(sections: &[(&str, &str, &str)]) -> Board {
        let mut text = String::from("name = \"test\"\nlanes = 4\nfinish_straight = 8\n");
        for (name, kind, spaces) in sections {
            text.push_str(&format!(
                "[[section]]\nname = \"{name}\"\nkind = \"{kind}\"\nspaces = {spaces}\n"
            ));
        }
        let first = sections[0].0;
        text.push_str(&format!(
            "[start.1500]\nsection = \"{first}\"\nspaces = [1, 1, 1, 1]\nlaps = 3\n\
             [start.800]\nsection = \"{first}\"\nspaces = [1, 1, 1, 1]\nlaps = 1\n"
        ));
        Board::parse(&text).unwrap()
    }

    #[test]
    fn other_boards_are_laid_out_too() {
        let c = ("c", "curve", "[6, 7, 8, 9]");
        // Four curves with straights between: a rounded square that closes.
        let b = board(&[
            ("c1", c.1, c.2),
            ("s1", "straight", "[6]"),
            ("c2", c.1, c.2),
            ("s2", "straight", "[4]"),
            ("c3", c.1, c.2),
            ("s3", "straight", "[6]"),
            ("c4", c.1, c.2),
            ("s4", "straight", "[5]"),
        ]);
        let o = Oval::new(&b, 0.0, 0.0, 700.0, 0.0);
        assert_eq!(o.shape, Shape::Polygon);
        let ring = o.ring(0.0);
        assert!(dist(ring[0], *ring.last().unwrap()) < 0.5);
        assert!(o.infield.is_none());
        // One curve: a ring, each section keeping its share of the lap.
        let b = board(&[("c1", c.1, c.2), ("s1", "straight", "[12]")]);
        let o = Oval::new(&b, 0.0, 0.0, 700.0, 0.0);
        assert_eq!(o.shape, Shape::Ring);
        let ring = o.ring(0.0);
        assert!(dist(ring[0], *ring.last().unwrap()) < 0.5);
        // Straights only, and two curves back to back: rings as well.
        let b = board(&[("s1", "straight", "[10]"), ("s2", "straight", "[10]")]);
        assert_eq!(Oval::new(&b, 0.0, 0.0, 700.0, 0.0).shape, Shape::Ring);
        let b = board(&[
            ("c1", c.1, c.2),
            ("c2", c.1, c.2),
            ("s1", "straight", "[8]"),
        ]);
        let o = Oval::new(&b, 0.0, 0.0, 700.0, 0.0);
        assert_eq!(o.shape, Shape::Ring);
        let course = Course::new(b, crate::games::fifteen_hundred::board::Distance::M1500);
        for lane in 1..=4 {
            for pos in 0..course.lap_len(lane) {
                let p = o.centre(&course, Spot { lane, lap: 1, pos }).unwrap();
                assert!(p.0 >= 0.0 && p.0 <= 700.0 && p.1 >= 0.0, "{p:?}");
            }
        }
    }
}
