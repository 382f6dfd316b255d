//! The race chart every game shares, in the style of a motor-racing lap chart: a row per
//! place, a column per turn (or round), each runner's box linked from column to column,
//! with a figure in each box (points left, distance, mental strength) and the final
//! order named at the right. Games say what goes in the columns; this draws them.

use super::canvas::{Align, Canvas, Picture};
use super::cast::Cast;
use super::error::RenderError;
use super::font::Weight;
use super::frame::{HEADER, MARGIN, WIDTH, header};
use super::palette::{INK, MUTED, PAGE, Rgb, Shape};
use crate::render::ordinal;

/// Behind tied runners within a column.
const TIE_BAND: Rgb = Rgb(0xb9, 0xb2, 0xa2);
/// Behind every other row.
const STRIPE: Rgb = Rgb(0xee, 0xeb, 0xe3);
/// Columns beyond this are thinned out, so the chart stays legible at a phone's width.
pub const MAX_COLUMNS: usize = 12;
/// The legend's lines, at most.
const LEGEND_LINES: usize = 3;

/// One runner's box in a column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index into the cast.
    pub who: usize,
    /// 1 for the leader; tied runners share a rank.
    pub rank: u32,
    /// The number under the label, if any.
    pub figure: Option<String>,
}

/// One turn's (or round's) column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub head: String,
    pub entries: Vec<Entry>,
}

impl Column {
    /// A column from entries in any order: sorted by rank, ties by index.
    pub fn new(head: String, mut entries: Vec<Entry>) -> Column {
        entries.sort_by_key(|e| (e.rank, e.who));
        Column { head, entries }
    }
}

/// What a chart shows.
pub struct LapChart<'a> {
    pub title: &'a str,
    pub status: &'a str,
    /// What a column is: "turn" or "round".
    pub unit: &'a str,
    pub columns: Vec<Column>,
    /// Rows at least (the field's size).
    pub min_slots: usize,
    /// What a box's figure means, and any footnote.
    pub legend: String,
    /// Said when there is no column yet.
    pub empty: &'a str,
}

/// "3rd", or "=3rd" for a tie.
pub fn position(rank: u32, tied: bool) -> String {
    format!("{}{}", if tied { "=" } else { "" }, ordinal(rank))
}

/// Every `step`th column counted back from the last (which is always kept), so that at
/// most `max` remain; and the step.
pub fn thin(columns: Vec<Column>, max: usize) -> (Vec<Column>, usize) {
    let n = columns.len();
    if n <= max || max == 0 {
        return (columns, 1);
    }
    let step = n.div_ceil(max);
    let kept = columns
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (n - 1 - i).is_multiple_of(step))
        .map(|(_, c)| c)
        .collect();
    (kept, step)
}

fn nth(step: usize) -> String {
    match step {
        2 => "2nd".into(),
        3 => "3rd".into(),
        s => format!("{s}th"),
    }
}

/// Where the chart's rows and columns fall.
struct Grid {
    /// The picture's width (at least [`WIDTH`]).
    width: f32,
    /// The left of the first column, right of the place labels.
    left: f32,
    /// The top of the first row, below the column heads.
    top: f32,
    /// A column's width.
    cw: f32,
    row_h: f32,
    /// Rows: the most entries in a column, or the field's size.
    slots: usize,
}

impl Grid {
    /// The place labels' width, left of the grid.
    const LABEL_W: f32 = 64.0;
    /// The final order's width, right of the grid.
    const NAMES_W: f32 = 180.0;

    fn new(columns: &[Column], min_slots: usize) -> Grid {
        let slots = columns
            .iter()
            .map(|c| c.entries.len())
            .max()
            .unwrap_or(0)
            .max(min_slots);
        let fixed = 2.0 * MARGIN + Grid::LABEL_W + 12.0 + Grid::NAMES_W;
        let cw = if columns.is_empty() {
            60.0
        } else {
            ((WIDTH - fixed) / columns.len() as f32).clamp(50.0, 90.0)
        };
        Grid {
            width: (fixed + cw * columns.len() as f32).max(WIDTH),
            left: MARGIN + Grid::LABEL_W,
            top: HEADER + 44.0,
            cw,
            row_h: 56.0,
            slots,
        }
    }

    /// The centre of column `t`'s box in row `slot`.
    fn centre(&self, t: usize, slot: usize) -> (f32, f32) {
        (
            self.left + (t as f32 + 0.5) * self.cw,
            self.top + (slot as f32 + 0.5) * self.row_h,
        )
    }

    /// Where the legend's first line sits.
    fn legend_y(&self) -> f32 {
        self.top + self.slots as f32 * self.row_h + 34.0
    }
}

/// Draws the chart.
pub fn draw(chart: LapChart, cast: &Cast) -> Result<Picture, RenderError> {
    let fonts = super::font::fonts()?;
    let (columns, step) = thin(chart.columns, MAX_COLUMNS);
    let grid = Grid::new(&columns, chart.min_slots);
    let mut legend = chart.legend;
    if step > 1 {
        legend.push_str(&format!(" Every {} {} shown.", nth(step), chart.unit));
    }
    let mut legend = fonts.wrap(Weight::Regular, 16.0, &legend, grid.width - 2.0 * MARGIN);
    legend.truncate(LEGEND_LINES);
    let legend_h = legend.len().saturating_sub(1) as f32 * 22.0;
    let height = grid.legend_y() + legend_h + MARGIN;
    let mut c = Canvas::new(grid.width.ceil() as u32, height.ceil() as u32, PAGE)?;
    header(&mut c, chart.title, chart.status);

    rows(&mut c, &grid);
    heads(&mut c, &grid, &columns, chart.unit);
    shade_ties(&mut c, &grid, &columns);
    paths(&mut c, &grid, &columns, cast);
    boxes(&mut c, &grid, &columns, cast);
    if let Some(last) = columns.last() {
        names(&mut c, &grid, last, columns.len(), cast);
    } else {
        c.text(
            grid.left,
            grid.top + 30.0,
            chart.empty,
            20.0,
            Weight::Regular,
            MUTED,
            Align::Left,
        );
    }
    for (k, line) in legend.iter().enumerate() {
        c.text(
            MARGIN,
            grid.legend_y() + k as f32 * 22.0,
            line,
            16.0,
            Weight::Regular,
            MUTED,
            Align::Left,
        );
    }
    Ok(c.finish())
}

/// Every other row striped, and each row's place at the left.
fn rows(c: &mut Canvas, grid: &Grid) {
    for slot in 0..grid.slots {
        let (_, y) = grid.centre(0, slot);
        if slot % 2 == 1 {
            c.rect(
                MARGIN,
                y - grid.row_h / 2.0,
                grid.width - 2.0 * MARGIN,
                grid.row_h,
                STRIPE,
            );
        }
        c.text(
            grid.left - 14.0,
            y + 7.0,
            &ordinal(slot as u32 + 1),
            20.0,
            Weight::Bold,
            MUTED,
            Align::Right,
        );
    }
}

/// Each column's head, and the unit above the place labels.
fn heads(c: &mut Canvas, grid: &Grid, columns: &[Column], unit: &str) {
    for (t, column) in columns.iter().enumerate() {
        let (x, _) = grid.centre(t, 0);
        let size = c.size_to_fit(Weight::Bold, 20.0, &column.head, grid.cw - 4.0);
        c.text(
            x,
            grid.top - 12.0,
            &column.head,
            size,
            Weight::Bold,
            MUTED,
            Align::Centre,
        );
    }
    c.text(
        grid.left - 14.0,
        grid.top - 12.0,
        unit,
        16.0,
        Weight::Regular,
        MUTED,
        Align::Right,
    );
}

/// A band behind each run of tied runners within a column.
fn shade_ties(c: &mut Canvas, grid: &Grid, columns: &[Column]) {
    for (t, column) in columns.iter().enumerate() {
        let col = &column.entries;
        let mut slot = 0;
        while slot < col.len() {
            let rank = col.get(slot).map(|e| e.rank);
            let len = col
                .iter()
                .skip(slot)
                .take_while(|e| Some(e.rank) == rank)
                .count()
                .max(1);
            if len > 1 {
                let (x, y) = grid.centre(t, slot);
                c.rounded(
                    x - grid.cw / 2.0 + 2.0,
                    y - grid.row_h / 2.0 + 1.0,
                    grid.cw - 4.0,
                    len as f32 * grid.row_h - 2.0,
                    12.0,
                    TIE_BAND,
                );
            }
            slot += len;
        }
    }
}

/// One stroke per unbroken stretch of a runner's path: far cheaper than a stroke per
/// turn.
fn stretches(points: &[Option<(f32, f32)>]) -> Vec<Vec<(f32, f32)>> {
    let mut out: Vec<Vec<(f32, f32)>> = vec![Vec::new()];
    for p in points {
        match (p, out.last_mut()) {
            (Some(p), Some(last)) => last.push(*p),
            (None, Some(last)) if !last.is_empty() => out.push(Vec::new()),
            _ => {}
        }
    }
    out
}

/// Each runner's path from column to column, under the boxes.
fn paths(c: &mut Canvas, grid: &Grid, columns: &[Column], cast: &Cast) {
    let mut at: Vec<Vec<Option<(f32, f32)>>> = vec![vec![None; columns.len()]; cast.len()];
    for (t, column) in columns.iter().enumerate() {
        for (slot, e) in column.entries.iter().enumerate() {
            if let Some(cell) = at.get_mut(e.who).and_then(|v| v.get_mut(t)) {
                *cell = Some(grid.centre(t, slot));
            }
        }
    }
    for (who, points) in at.iter().enumerate() {
        let style = cast.style(who);
        for stretch in stretches(points) {
            c.polyline(&stretch, Rgb::WHITE, 9.0);
            c.dashed(&stretch, style.fill, 5.0, dash(who));
        }
    }
}

/// Each runner's line pattern (drawn, left out, ...; empty: solid), so the lines stay
/// apart without colour (colour-blind readers, a greyscale print). Short periods, since
/// a line shows only between two columns' boxes.
const DASHES: [&[f32]; 8] = [
    &[],
    &[9.0, 4.0],
    &[3.0, 3.0],
    &[9.0, 3.0, 3.0, 3.0],
    &[5.0, 6.0],
    &[3.0, 3.0, 3.0, 3.0, 9.0, 3.0],
    &[15.0, 4.0],
    &[2.0, 7.0],
];

/// Runner `who`'s line pattern from [`DASHES`].
pub fn dash(who: usize) -> &'static [f32] {
    DASHES.get(who % DASHES.len()).copied().unwrap_or(&[])
}

/// Each runner's box in each column: its label, and its figure below.
fn boxes(c: &mut Canvas, grid: &Grid, columns: &[Column], cast: &Cast) {
    let gap = if grid.cw >= 62.0 { 14.0 } else { 8.0 };
    let box_w = (grid.cw - gap).min(56.0);
    let box_h = grid.row_h - 8.0;
    for (t, column) in columns.iter().enumerate() {
        for (slot, e) in column.entries.iter().enumerate() {
            let (x, y) = grid.centre(t, slot);
            let style = cast.style(e.who);
            let radius = if style.shape == Shape::Disc {
                box_h / 2.0
            } else {
                4.0
            };
            c.rounded(
                x - box_w / 2.0 - 2.0,
                y - box_h / 2.0 - 2.0,
                box_w + 4.0,
                box_h + 4.0,
                radius + 2.0,
                Rgb::WHITE,
            );
            c.rounded(
                x - box_w / 2.0,
                y - box_h / 2.0,
                box_w,
                box_h,
                radius,
                style.fill,
            );
            let label = cast.label(e.who);
            let size = c.size_to_fit(Weight::Bold, 18.0, label, box_w - 8.0);
            c.text(
                x,
                y - 4.0,
                label,
                size,
                Weight::Bold,
                style.ink,
                Align::Centre,
            );
            if let Some(figure) = &e.figure {
                let size = c.size_to_fit(Weight::Bold, 18.0, figure, box_w - 6.0);
                c.text(
                    x,
                    y + 19.0,
                    figure,
                    size,
                    Weight::Bold,
                    style.ink,
                    Align::Centre,
                );
            }
        }
    }
}

/// Names at the right, in the last column's order, each with its place.
fn names(c: &mut Canvas, grid: &Grid, last: &Column, n_columns: usize, cast: &Cast) {
    let names_x = grid.left + grid.cw * n_columns as f32 + 12.0;
    for (slot, e) in last.entries.iter().enumerate() {
        let (_, y) = grid.centre(0, slot);
        let tied = last.entries.iter().filter(|o| o.rank == e.rank).count() > 1;
        let pos = position(e.rank, tied);
        let pos_w = c.text(
            names_x,
            y + 7.0,
            &pos,
            18.0,
            Weight::Regular,
            MUTED,
            Align::Left,
        );
        // A long name is set a little smaller before it is cut short.
        let room = grid.width - MARGIN - names_x - pos_w - 8.0;
        let size = c
            .size_to_fit(Weight::Bold, 20.0, cast.name(e.who), room)
            .max(17.0);
        let name = c.fit(Weight::Bold, size, cast.name(e.who), room);
        c.text(
            names_x + pos_w + 8.0,
            y + 7.0,
            &name,
            size,
            Weight::Bold,
            INK,
            Align::Left,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(head: &str) -> Column {
        Column::new(head.into(), vec![])
    }

    #[test]
    fn thinning_keeps_the_last_column_and_steps_back() {
        let cols: Vec<Column> = (1..=25).map(|i| col(&i.to_string())).collect();
        let (kept, step) = thin(cols, 10);
        assert_eq!(step, 3);
        let heads: Vec<&str> = kept.iter().map(|c| c.head.as_str()).collect();
        assert_eq!(heads, ["1", "4", "7", "10", "13", "16", "19", "22", "25"]);
        let cols: Vec<Column> = (1..=10).map(|i| col(&i.to_string())).collect();
        assert_eq!(thin(cols, 10).0.len(), 10);
        assert_eq!(thin(vec![], 10).0.len(), 0);
    }

    /// Two runners keeping their places for three turns: the first's line is solid,
    /// the second's has gaps, and the first eight runners' patterns all differ.
    #[test]
    fn runners_lines_differ_by_pattern_not_only_colour() {
        let fonts = super::super::font::fonts().unwrap();
        let cast = Cast::seats(fonts, &["Ann".to_string(), "Ben".to_string()]);
        let e = |who, rank| Entry {
            who,
            rank,
            figure: None,
        };
        let columns: Vec<Column> = (1..=3)
            .map(|t| Column::new(t.to_string(), vec![e(0, 1), e(1, 2)]))
            .collect();
        let grid = Grid::new(&columns, 2);
        let chart = LapChart {
            title: "t",
            status: "s",
            unit: "turn",
            columns,
            min_slots: 2,
            legend: String::new(),
            empty: "",
        };
        let p = draw(chart, &cast).unwrap();
        // Along each line, between the first two columns' boxes: how often it breaks.
        let breaks = |slot: usize| {
            let (x0, y) = grid.centre(0, slot);
            let (x1, _) = grid.centre(1, slot);
            let fill = cast.style(slot).fill;
            let on: Vec<bool> = ((x0 + 30.0) as usize..(x1 - 30.0) as usize)
                .map(|x| {
                    let i = (y as usize * p.width() as usize + x) * 3;
                    let px = &p.rgb()[i..i + 3];
                    px == [fill.0, fill.1, fill.2]
                })
                .collect();
            assert!(on.len() >= 10, "{} pixels between the boxes", on.len());
            on.windows(2).filter(|w| w[0] != w[1]).count()
        };
        assert_eq!(breaks(0), 0, "the first runner's line is solid");
        assert!(breaks(1) >= 2, "the second runner's line is dashed");
        let patterns: Vec<&[f32]> = (0..8).map(dash).collect();
        for (i, a) in patterns.iter().enumerate() {
            assert!(patterns[i + 1..].iter().all(|b| b != a), "{i}: {a:?}");
        }
    }

    #[test]
    fn columns_sort_by_rank_then_index() {
        let e = |who, rank| Entry {
            who,
            rank,
            figure: None,
        };
        let c = Column::new("1".into(), vec![e(2, 2), e(0, 2), e(1, 1)]);
        let order: Vec<usize> = c.entries.iter().map(|e| e.who).collect();
        assert_eq!(order, [1, 0, 2]);
        assert_eq!(position(2, true), "=2nd");
    }
}
