//! 1500m in pictures: the board as the board model defines it ([`super::oval`]) with
//! every runner on their space, the finish template once the bell has rung, the laps to
//! go, and a table of places, medals, mental strength and pace (the turn picture); and
//! the lap chart of places round by round with each runner's mental strength (the race
//! chart).
//!
//! The rules: docs/rules/1500m.md.

use std::sync::{Arc, Mutex};

use super::canvas::{Align, Canvas, Picture, Pixmap};
use super::cast::{Cast, MAX_CAST};
use super::chart::{self, Column, Entry, LapChart};
use super::error::RenderError;
use super::font::{Fonts, Weight, fonts};
use super::frame::{HEADER, MARGIN, WIDTH, header};
use super::oval::Oval;
use super::palette::{CARD, INK, MUTED, PAGE, RULE, Rgb, own_number};
use crate::games::fifteen_hundred::board::{Board, Course, Distance, Spot};
use crate::games::fifteen_hundred::{PublicView, RunnerView};
use crate::render::ordinal;

/// The running track (as Dream Mile's), its lane lines, and the finish template.
const TRACK: Rgb = Rgb(0x4a, 0x51, 0x60);
const LANE_LINE: Rgb = Rgb(0x8d, 0x93, 0x9e);
const TEMPLATE: Rgb = Rgb(0x66, 0x6e, 0x7e);
const INFIELD: Rgb = Rgb(0xe3, 0xe8, 0xd8);
/// Medals, each also written out.
const GOLD: Rgb = Rgb(0xe6, 0xb4, 0x22);
const SILVER: Rgb = Rgb(0xb4, 0xb9, 0xc1);
const BRONZE: Rgb = Rgb(0xb8, 0x7a, 0x45);
/// The standings table's rows.
const ROW_H: f32 = 40.0;
const TABLE_HEAD: f32 = 30.0;

/// Every runner's token style, label and name, by runner index: players are labelled by
/// their initial, and its number if the name has one or the initial is shared ("Bot 1"
/// is B1; a bare digit would read as the medal beside it), robots come after them and are labelled R1,
/// R2, ... Short labels read at a phone's width, where a token is 6 to 9 pixels across.
fn cast(fonts: &Fonts, view: &PublicView) -> Cast {
    let n = view
        .runners
        .iter()
        .map(|r| r.runner + 1)
        .chain(view.history.iter().map(|h| h.strength.len()))
        .max()
        .unwrap_or(0)
        .min(MAX_CAST);
    let mut names = vec![String::new(); n];
    let mut sources = vec![String::new(); n];
    for r in &view.runners {
        if let (Some(name), Some(source)) = (names.get_mut(r.runner), sources.get_mut(r.runner)) {
            name.clone_from(&r.name);
            *source = if r.robot {
                let digits: String = r.name.chars().filter(char::is_ascii_digit).collect();
                format!("R{digits}")
            } else {
                short_label(&r.name)
            };
        }
    }
    Cast::labelled(fonts, &names, &sources)
}

/// A player's label source: the initial, with the name's number if it has one (two
/// letters are too wide for the smallest token; clashing initials take a number).
fn short_label(name: &str) -> String {
    let initial = name.chars().find(|c| c.is_alphanumeric());
    match (initial, own_number(name)) {
        (Some(c), Some(n)) if !c.is_ascii_digit() => format!("{c}{n}"),
        (Some(c), _) => c.to_string(),
        (None, _) => String::new(),
    }
}

/// The board the view was raced on: its own, or the standard one for a view from before
/// views carried it. A board outside what a board file may say (a damaged view) is not
/// drawn: its spaces could number in the millions.
fn board(view: &PublicView) -> Result<Board, RenderError> {
    let board = match &view.layout {
        Some(b) => b.clone(),
        None => Board::standard().map_err(|_| RenderError::NoPicture)?,
    };
    let sane = (2..=12).contains(&board.lanes)
        && (1..=16).contains(&board.sections.len())
        && (1..=100).contains(&board.finish_straight)
        && board.sections.iter().all(|s| {
            s.spaces.len() == usize::from(board.lanes)
                && s.spaces.iter().all(|&n| (1..=200).contains(&n))
        });
    if sane {
        Ok(board)
    } else {
        Err(RenderError::Damaged(
            "its board is not one a board file may give",
        ))
    }
}

/// Where a runner stands: the view's space, or (for a view from before views carried it)
/// one worked out from its lane, section and space.
fn spot(course: &Course, r: &RunnerView) -> Option<Spot> {
    if let Some(s) = r.spot {
        return Some(s);
    }
    let index = r.section_space.checked_sub(1)?;
    if r.crossings >= course.finish_lap() {
        return Some(Spot {
            lane: r.lane,
            lap: r.crossings,
            pos: index,
        });
    }
    let section = course
        .board
        .sections
        .iter()
        .position(|s| s.name == r.section)?;
    Some(course.spot_in(r.lane, section, index, r.crossings))
}

fn title(view: &PublicView) -> &'static str {
    match view.distance {
        Distance::M1500 => "1500m",
        Distance::M800 => "800m",
    }
}

fn laps(view: &PublicView) -> String {
    if view.bell {
        "last lap".into()
    } else if view.laps_left == 1 {
        "1 lap to go".into()
    } else {
        format!("{} laps to go", view.laps_left)
    }
}

fn status(view: &PublicView) -> String {
    if view.finished {
        format!("Final result, {} rounds", view.round)
    } else if view.round <= 1 && view.history.is_empty() {
        format!("Round 1 · {}", laps(view))
    } else {
        format!(
            "After round {} · {}",
            view.round.saturating_sub(1),
            laps(view)
        )
    }
}

/// Where everything goes; kept apart from drawing so tests can check the geometry.
struct Layout {
    height: f32,
    oval: Oval,
    course: Course,
    /// The table: left, top, width.
    table: (f32, f32, f32),
    /// Whether the finish template is laid on.
    template: bool,
    /// Token radius on the track.
    r: f32,
}

fn layout(view: &PublicView) -> Result<Layout, RenderError> {
    let board = board(view)?;
    let course = Course::new(board, view.distance);
    let n = view.runners.len().min(MAX_CAST) as f32;
    let table_h = TABLE_HEAD + n * ROW_H + 12.0;
    let top = HEADER + 16.0;
    let oval = Oval::new(
        &course.board,
        MARGIN,
        top,
        WIDTH - 2.0 * MARGIN,
        table_h + 8.0,
    );
    let below = top + oval.bounds.3 + 20.0;
    let (table, height) = match oval.infield {
        Some(((l, t, w, h), _)) => {
            let inset = 10.0;
            (
                (l + inset, t + (h - table_h) / 2.0, w - 2.0 * inset),
                below + MARGIN,
            )
        }
        None => (
            (MARGIN, below, WIDTH - 2.0 * MARGIN),
            below + table_h + MARGIN,
        ),
    };
    let on_template = view
        .runners
        .iter()
        .filter_map(|r| spot(&course, r))
        .any(|s| course.on_finish_straight(s));
    let r = (oval.lane_width() / 2.0 - 1.0).clamp(7.0, 18.0);
    Ok(Layout {
        height,
        template: view.bell || view.finished || on_template,
        oval,
        course,
        table,
        r,
    })
}

/// A runner's token on the track.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TokenAt {
    who: usize,
    x: f32,
    y: f32,
    r: f32,
    /// Finished: drawn where it crossed, under anyone who later stands there.
    home: bool,
}

/// Runners' tokens, best placed first. A token is as large as its lane allows, larger
/// when nobody stands near (so it reads at a phone's width), never overlapping another
/// by more than its white ring.
fn tokens(view: &PublicView, l: &Layout) -> Vec<TokenAt> {
    let at: Vec<(usize, (f32, f32), bool)> = view
        .runners
        .iter()
        .filter_map(|r| {
            let p = spot(&l.course, r).and_then(|s| l.oval.centre(&l.course, s))?;
            Some((r.runner, p, r.place.is_some()))
        })
        .collect();
    let big = (l.r * 1.45).max(l.r);
    at.iter()
        .enumerate()
        .map(|(i, &(who, (x, y), home))| {
            let nearest = at
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, (_, (ox, oy), _))| ((x - ox).powi(2) + (y - oy).powi(2)).sqrt())
                .fold(f32::INFINITY, f32::min);
            // Half the gap, less the ring drawn round a token.
            let r = (nearest / 2.0 - 2.0).clamp(l.r, big);
            TokenAt { who, x, y, r, home }
        })
        .collect()
}

/// The board drawn without runners or words, and what it was drawn from. The board is the
/// same all race, so each race's is drawn once and reused: it is most of the drawing.
struct Backdrop {
    board: Board,
    distance: Distance,
    template: bool,
    height: u32,
    pixmap: Arc<Pixmap>,
}

/// Backdrops of the races being drawn, newest last: a few boards, at about 4 MB each.
static BACKDROPS: Mutex<Vec<Backdrop>> = Mutex::new(Vec::new());
const BACKDROPS_KEPT: usize = 4;

/// A canvas with the board of `l` drawn, from the cache when it can be.
fn backdrop(view: &PublicView, l: &Layout) -> Result<Canvas, RenderError> {
    let height = l.height.ceil() as u32;
    let board = &l.course.board;
    let same = |b: &Backdrop| {
        b.height == height
            && b.template == l.template
            && b.distance == view.distance
            && &b.board == board
    };
    // A poisoned lock only means another picture failed mid-way: draw afresh.
    let cached = BACKDROPS
        .lock()
        .ok()
        .and_then(|kept| kept.iter().find(|b| same(b)).map(|b| Arc::clone(&b.pixmap)));
    if let Some(pixmap) = cached {
        return Canvas::resume(Pixmap::clone(&pixmap));
    }
    let mut c = Canvas::new(WIDTH as u32, height, PAGE)?;
    draw_board(&mut c, l);
    if let Ok(mut kept) = BACKDROPS.lock() {
        if kept.len() >= BACKDROPS_KEPT {
            kept.remove(0);
        }
        kept.push(Backdrop {
            board: board.clone(),
            distance: view.distance,
            template: l.template,
            height,
            pixmap: Arc::new(c.snapshot()),
        });
    }
    Ok(c)
}

/// The turn picture.
pub fn track(view: &PublicView) -> Result<Picture, RenderError> {
    if view.runners.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let l = layout(view)?;
    let mut c = backdrop(view, &l)?;
    let cast = cast(c.fonts(), view);
    header(&mut c, title(view), &status(view));

    if let Some(((x, y, w, h), r)) = l.oval.infield {
        infield_words(&mut c, view, (x, y, w, h), r);
    }
    // Finished runners first, then the others from the back, so the leader is on top.
    let tokens = tokens(view, &l);
    let home = tokens.iter().filter(|t| t.home);
    for t in home.chain(tokens.iter().rev().filter(|t| !t.home)) {
        big_token(&mut c, (t.x, t.y, t.r), &cast, t.who);
    }
    table(&mut c, view, &cast, l.table);
    Ok(c.finish())
}

/// Runner `who`'s token at (x, y) with radius r: unlabelled, then its label larger than
/// a token's usual, to read at a phone's width.
fn big_token(c: &mut Canvas, (x, y, r): (f32, f32, f32), cast: &Cast, who: usize) {
    let style = cast.style(who);
    c.token(x, y, r, &style, "");
    let label = cast.label(who);
    let size = track_label_size(c, r, label);
    c.text_centred(x, y, label, size, Weight::Bold, style.ink);
}

/// The font size of a token's label on the track, drawn at 800 pixels wide: as tall as
/// the token allows (the labels are one or two characters, see [`cast`]).
fn track_label_size(c: &Canvas, r: f32, label: &str) -> f32 {
    c.size_to_fit(Weight::Bold, r * 1.35, label, 1.75 * r)
}

fn draw_board(c: &mut Canvas, l: &Layout) {
    let o = &l.oval;
    if let Some(((x, y, w, h), r)) = o.infield {
        c.rounded(x, y - r, w, h + 2.0 * r, r, INFIELD);
    }
    for ground in o.ground() {
        c.polygon(&ground, TRACK);
    }
    let (ticks, joins) = o.space_lines();
    let lw = o.lane_width();
    c.lines(&ticks, LANE_LINE, (lw * 0.06).clamp(1.0, 1.5));
    for lane in 1..o.lanes {
        c.polyline(
            &o.ring(f32::from(lane)),
            LANE_LINE,
            (lw * 0.07).clamp(1.0, 2.0),
        );
    }
    c.lines(&joins, Rgb::WHITE, 2.0);
    c.polyline(&o.ring(0.0), Rgb::WHITE, 2.5);
    c.polyline(&o.ring(f32::from(o.lanes)), Rgb::WHITE, 2.5);
    c.lines(&o.start_marks(&l.course), Rgb::WHITE, 3.0);
    if l.template {
        let (ground, lines) = o.template();
        let mut edge = ground.clone();
        edge.push(ground.first().copied().unwrap_or((0.0, 0.0)));
        c.polygon(&ground, TEMPLATE);
        c.lines(&lines, LANE_LINE, 1.5);
        c.polyline(&edge, Rgb::WHITE, 2.5);
    }
    // The finish line, chequered across every lane.
    let ((x0, y0), (x1, y1)) = o.finish_line();
    let across = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt().max(1.0);
    let (ux, uy) = ((x1 - x0) / across, (y1 - y0) / across);
    // Along the track: the normal to the line, pointing back down the home straight.
    let (vx, vy) = (uy, -ux);
    let sq = (lw / 2.0).clamp(4.0, 10.0);
    let cells = (across / sq).round().max(1.0) as usize;
    let sq = across / cells as f32;
    for k in 0..cells {
        for row in 0..2 {
            let colour = if (k + row) % 2 == 0 { Rgb::WHITE } else { INK };
            let a = k as f32 * sq;
            let b = row as f32 * sq;
            let p = |s: f32, t: f32| (x0 + ux * s + vx * t, y0 + uy * s + vy * t);
            c.polygon(
                &[p(a, b), p(a + sq, b), p(a + sq, b + sq), p(a, b + sq)],
                colour,
            );
        }
    }
}

/// The lap counter in the top of the infield, the race below.
fn infield_words(c: &mut Canvas, view: &PublicView, (x, y, w, h): (f32, f32, f32, f32), r: f32) {
    let cx = x + w / 2.0;
    let top = y - r * 0.45;
    if view.finished {
        c.text_centred(cx, top, "RACE OVER", 30.0, Weight::Bold, INK);
    } else if view.bell {
        c.text_centred(cx, top - 14.0, "LAST LAP", 34.0, Weight::Bold, INK);
        c.text_centred(
            cx,
            top + 22.0,
            "the bell has rung",
            17.0,
            Weight::Regular,
            MUTED,
        );
    } else {
        c.text_centred(
            cx,
            top - 12.0,
            &view.laps_left.to_string(),
            56.0,
            Weight::Bold,
            INK,
        );
        let words = if view.laps_left == 1 {
            "LAP TO GO"
        } else {
            "LAPS TO GO"
        };
        c.text_centred(cx, top + 36.0, words, 18.0, Weight::Bold, MUTED);
    }
    let bottom = y + h + r * 0.4;
    let mut race = view.distance.name().to_string();
    if view.advanced {
        race.push_str(", advanced rules");
    }
    c.text_centred(cx, bottom - 14.0, &race, 22.0, Weight::Bold, INK);
    let board = c.fit(Weight::Regular, 16.0, &view.board, w - 20.0);
    c.text_centred(cx, bottom + 14.0, &board, 16.0, Weight::Regular, MUTED);
}

fn medal(c: &mut Canvas, cx: f32, cy: f32, place: u8) {
    let (fill, word) = match place {
        1 => (GOLD, "1"),
        2 => (SILVER, "2"),
        _ => (BRONZE, "3"),
    };
    c.circle(cx, cy, 14.0, INK);
    c.circle(cx, cy, 12.5, fill);
    c.text_centred(cx, cy, word, 16.0, Weight::Bold, INK);
}

/// Places, names, medals, mental strength and pace, best placed first.
fn table(c: &mut Canvas, view: &PublicView, cast: &Cast, (x, y, w): (f32, f32, f32)) {
    let rows = view.runners.len().min(MAX_CAST);
    let h = TABLE_HEAD + rows as f32 * ROW_H + 12.0;
    c.rounded(x - 1.5, y - 1.5, w + 3.0, h + 3.0, 11.5, RULE);
    c.rounded(x, y, w, h, 10.0, CARD);
    let t = Table::new((x, y, w));
    t.heads(c);
    for (k, r) in view.runners.iter().take(rows).enumerate() {
        t.row(c, cast, k, r);
    }
}

/// The standings table's place: its card, and where its right-aligned columns end.
struct Table {
    x: f32,
    y: f32,
    w: f32,
    /// Room for the long heads and the lane:space column.
    wide: bool,
    pace_r: f32,
    ms_r: f32,
    where_r: f32,
}

impl Table {
    fn new((x, y, w): (f32, f32, f32)) -> Table {
        let wide = w > 500.0;
        let pace_r = x + w - 12.0;
        let ms_r = pace_r - if wide { 70.0 } else { 48.0 };
        Table {
            x,
            y,
            w,
            wide,
            pace_r,
            ms_r,
            where_r: ms_r - 140.0,
        }
    }

    /// The columns' heads.
    fn heads(&self, c: &mut Canvas) {
        let head_y = self.y + 22.0;
        c.text(
            self.pace_r,
            head_y,
            "pace",
            15.0,
            Weight::Regular,
            MUTED,
            Align::Right,
        );
        c.text(
            self.ms_r,
            head_y,
            if self.wide {
                "mental strength"
            } else {
                "strength"
            },
            15.0,
            Weight::Regular,
            MUTED,
            Align::Right,
        );
        if self.wide {
            c.text(
                self.where_r,
                head_y,
                "lane:space",
                15.0,
                Weight::Regular,
                MUTED,
                Align::Right,
            );
        }
    }

    /// Row `k`: the stripe, the place or medal, the token, the figures and the name.
    fn row(&self, c: &mut Canvas, cast: &Cast, k: usize, r: &RunnerView) {
        let x = self.x;
        let cy = self.y + TABLE_HEAD + (k as f32 + 0.5) * ROW_H + 4.0;
        if k.is_multiple_of(2) {
            c.rect(
                x + 4.0,
                cy - ROW_H / 2.0,
                self.w - 8.0,
                ROW_H,
                Rgb(0xf4, 0xf2, 0xec),
            );
        }
        let base = cy + 6.5;
        match r.place {
            Some(p @ 1..=3) => medal(c, x + 26.0, cy, p),
            _ => {
                let pos = ordinal(r.position);
                let size = c.size_to_fit(Weight::Bold, 18.0, &pos, 40.0);
                c.text(x + 26.0, base, &pos, size, Weight::Bold, INK, Align::Centre);
            }
        }
        big_token(c, (x + 66.0, cy, 15.0), cast, r.runner);
        let name_right = self.figures(c, r, base);
        self.name(c, cast, r, base, name_right);
    }

    /// A row's figures, right-aligned; returns where the name must end.
    fn figures(&self, c: &mut Canvas, r: &RunnerView, base: f32) -> f32 {
        let ms_r = self.ms_r;
        c.text(
            self.pace_r,
            base,
            &r.pace.to_string(),
            18.0,
            Weight::Bold,
            INK,
            Align::Right,
        );
        let ms = match r.strength {
            Some(s) => s.to_string(),
            None => "–".to_string(),
        };
        let ms_w = c.text(ms_r, base, &ms, 18.0, Weight::Bold, INK, Align::Right);
        let mut name_right = ms_r - ms_w - 10.0;
        if r.penalty > 0 {
            let pen = format!("−{}", r.penalty);
            let pw = c.text(
                ms_r - ms_w - 3.0,
                base,
                &pen,
                14.0,
                Weight::Bold,
                Rgb(0xa3, 0x3f, 0x00),
                Align::Right,
            );
            name_right -= pw + 3.0;
        }
        if self.wide {
            c.text(
                self.where_r,
                base,
                &r.space,
                16.0,
                Weight::Regular,
                MUTED,
                Align::Right,
            );
            name_right = name_right.min(self.where_r - 70.0);
        }
        name_right
    }

    /// A row's name (with the medal in words when wide), cut short before `right`.
    fn name(&self, c: &mut Canvas, cast: &Cast, r: &RunnerView, base: f32, right: f32) {
        let name_x = self.x + 90.0;
        let mut name = cast.name(r.runner).to_string();
        if self.wide {
            match r.place {
                Some(1) => name.push_str(" · gold"),
                Some(2) => name.push_str(" · silver"),
                Some(3) => name.push_str(" · bronze"),
                Some(_) => name.push_str(" · home"),
                None => {}
            }
        }
        let name = c.fit(Weight::Bold, 18.0, &name, (right - name_x).max(0.0));
        let colour = if r.robot { MUTED } else { INK };
        c.text(name_x, base, &name, 18.0, Weight::Bold, colour, Align::Left);
    }
}

/// The race chart: places round by round, with mental strength in each box.
pub fn race_chart(view: &PublicView) -> Result<Picture, RenderError> {
    if view.runners.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let cast = cast(fonts()?, view);
    let columns: Vec<Column> = view
        .history
        .iter()
        .map(|h| {
            let entries = h
                .order
                .iter()
                .take(MAX_CAST)
                .enumerate()
                .map(|(k, &who)| Entry {
                    who,
                    rank: k as u32 + 1,
                    figure: h
                        .strength
                        .get(who)
                        .copied()
                        .flatten()
                        .map(|s| s.to_string()),
                })
                .collect();
            Column::new(h.round.to_string(), entries)
        })
        .collect();
    let mut legend = "Each box: runner, and mental strength after the round.".to_string();
    if view.runners.iter().any(|r| r.robot) {
        legend.push_str(" Robots have none.");
    }
    let title = format!("{} race chart", title(view));
    chart::draw(
        LapChart {
            title: &title,
            status: &status(view),
            unit: "round",
            columns,
            min_slots: view.runners.len().min(MAX_CAST),
            legend,
            empty: "No round has been run yet.",
        },
        &cast,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, SeatSetup, Seed};
    use crate::games::fifteen_hundred::{FifteenHundred, Options};

    fn race(players: &[&str], robots: u8) -> FifteenHundred {
        let seats: Vec<SeatSetup> = players.iter().map(|n| SeatSetup::named(*n)).collect();
        let options = Options {
            robots,
            ..Options::default()
        };
        FifteenHundred::setup(&options, &seats, Seed::from_u64(5)).unwrap()
    }

    fn rgb_at(p: &Picture, x: f32, y: f32) -> [u8; 3] {
        let i = (y as usize * p.width() as usize + x as usize) * 3;
        let rgb = p.rgb();
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    /// A phone shows the picture at 400 pixels, half its width: a label drawn at 14
    /// pixels reads at 7, the least for a digit.
    #[test]
    fn track_labels_read_at_a_phone_width() {
        let g = race(&["Purple", "Yellow", "White", "Green", "Blue"], 3);
        let view = g.public_view();
        let l = layout(&view).unwrap();
        let c = Canvas::new(800, 100, PAGE).unwrap();
        let cast = cast(c.fonts(), &view);
        for t in tokens(&view, &l) {
            let size = track_label_size(&c, t.r, cast.label(t.who));
            assert!(
                size >= 14.0,
                "{} at {size} px (r {})",
                cast.label(t.who),
                t.r
            );
        }
    }

    #[test]
    fn robots_are_labelled_by_their_number() {
        let g = race(&["Purple", "Yellow"], 2);
        let c = cast(fonts().unwrap(), &g.public_view());
        assert_eq!(c.label(0), "P");
        assert_eq!(c.label(1), "Y");
        assert_eq!(c.label(2), "R1");
        assert_eq!(c.label(3), "R2");
        assert_eq!(c.name(3), "Robot 2");
    }

    /// No player's token reads as a medal's number: Bot 1 was "2", beside its gold "1".
    #[test]
    fn players_are_labelled_from_their_names() {
        let g = race(&["Alice", "Bot 1", "Bot 2", "Al"], 1);
        let c = cast(fonts().unwrap(), &g.public_view());
        let labels: Vec<&str> = (0..5).map(|i| c.label(i)).collect();
        assert_eq!(labels, ["A1", "B1", "B2", "A4", "R1"]);
        for l in labels {
            assert!(l.parse::<u32>().is_err(), "{l} reads as a place");
        }
    }

    #[test]
    fn runners_stand_on_their_spaces_in_their_colours() {
        let g = race(&["Purple", "Yellow", "White"], 1);
        let view = g.public_view();
        let l = layout(&view).unwrap();
        let p = track(&view).unwrap();
        assert_eq!(p.width(), 800);
        for r in &view.runners {
            let at = l.oval.centre(&l.course, r.spot.unwrap()).unwrap();
            let fill = cast(fonts().unwrap(), &view).style(r.runner).fill;
            // Above the label, inside the token.
            assert_eq!(
                rgb_at(&p, at.0, at.1 - l.r * 0.75),
                [fill.0, fill.1, fill.2],
                "{}",
                r.name
            );
        }
        // Before the bell, no finish template.
        assert!(!l.template);
        // The table sits in the infield.
        let ((x, y, w, h), _) = l.oval.infield.unwrap();
        assert!(l.table.0 >= x && l.table.0 + l.table.2 <= x + w);
        assert!(l.table.1 >= y - 1.0);
        assert!(l.table.1 + TABLE_HEAD + 4.0 * ROW_H <= y + h + 1.0);
    }

    #[test]
    fn a_view_without_spots_or_board_still_places_runners() {
        let g = race(&["Purple", "Yellow"], 0);
        let view = g.public_view();
        let course = Course::new(Board::standard().unwrap(), Distance::M1500);
        let mut old = view.clone();
        old.layout = None;
        for r in &mut old.runners {
            r.spot = None;
        }
        for (a, b) in view.runners.iter().zip(&old.runners) {
            assert_eq!(spot(&course, b), a.spot);
        }
        assert_eq!(track(&old).unwrap().rgb(), track(&view).unwrap().rgb());
    }

    #[test]
    fn a_board_drawn_again_from_the_cache_is_the_same() {
        let g = race(&["Purple", "Yellow"], 1);
        let view = g.public_view();
        let first = track(&view).unwrap().rgb();
        let again = track(&view).unwrap().rgb();
        assert_eq!(first, again);
        // Fill the cache with other boards, so the first is drawn afresh.
        for n in 2..8u8 {
            let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            track(&race(&refs, 0).public_view()).unwrap();
        }
        assert_eq!(track(&view).unwrap().rgb(), first);
    }

    #[test]
    fn the_template_is_laid_on_at_the_bell() {
        let g = race(&["Purple", "Yellow"], 0);
        let mut view = g.public_view();
        let before = track(&view).unwrap().rgb();
        view.bell = true;
        view.laps_left = 0;
        let l = layout(&view).unwrap();
        assert!(l.template);
        let after = track(&view).unwrap().rgb();
        let changed = before
            .chunks(3)
            .zip(after.chunks(3))
            .filter(|(a, b)| a != b)
            .count();
        assert!(changed > 2000, "{changed}");
    }

    #[test]
    fn odd_views_draw_without_panicking() {
        let g = race(
            &[
                "Purple",
                "🏃",
                "A very long name that goes on and on and on",
            ],
            2,
        );
        let mut view = g.public_view();
        view.runners[0].spot = Some(Spot {
            lane: 40,
            lap: 9,
            pos: 999,
        });
        view.runners[1].spot = None;
        view.runners[1].section = "nowhere".into();
        view.runners[2].place = Some(1);
        view.runners[3].place = Some(7);
        view.runners[2].penalty = 12;
        view.history
            .push(crate::games::fifteen_hundred::RoundRecord {
                round: 1,
                order: vec![4, 3, 2, 1, 0, 99],
                strength: vec![Some(3), None],
            });
        track(&view).unwrap().png().unwrap();
        race_chart(&view).unwrap().png().unwrap();
        let mut damaged = view.clone();
        if let Some(b) = damaged.layout.as_mut() {
            b.sections[0].spaces = vec![60_000; 8];
        }
        assert!(matches!(track(&damaged), Err(RenderError::Damaged(_))));
        view.runners.clear();
        assert_eq!(track(&view).err(), Some(RenderError::NoRunners));
    }
}
