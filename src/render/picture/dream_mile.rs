//! Dream Mile in pictures: the field strung out along the home straight with a card for
//! each runner (the turn picture), and the lap chart of positions and points left (the
//! race chart).
//!
//! The rules: docs/rules/dream-mile.md.

use super::canvas::{Align, Canvas, Picture};
use super::cast::{Cast, MAX_CAST};
use super::chart::{self, Column, Entry, LapChart, position};
use super::error::RenderError;
use super::font::{Fonts, Weight, fonts};
use super::frame::{HEADER, MARGIN, WIDTH, header};
use super::palette::{CARD, INK, MUTED, PAGE, RULE, Rgb};
use crate::games::dream_mile::{PublicView, Standing, TurnRecord};

/// The running track and its lane lines.
const TRACK: Rgb = Rgb(0x4a, 0x51, 0x60);
const LANE_LINE: Rgb = Rgb(0x8d, 0x93, 0x9e);

/// Every runner's token style, label and name, by seat index.
fn cast(fonts: &Fonts, view: &PublicView) -> Cast {
    let seats = view
        .standings
        .iter()
        .map(|s| s.seat.index() + 1)
        .chain(view.history.iter().map(|r| r.ranks.len()))
        .max()
        .unwrap_or(0)
        .min(MAX_CAST);
    let mut names = vec![String::new(); seats];
    for s in &view.standings {
        if let Some(n) = names.get_mut(s.seat.index()) {
            n.clone_from(&s.name);
        }
    }
    Cast::seats(fonts, &names)
}

fn status(view: &PublicView) -> String {
    if view.finished {
        format!("Final result, {} turns", view.total_turns)
    } else if view.turn == 0 {
        "On the start line".to_string()
    } else {
        format!("After turn {} of {}", view.turn, view.total_turns)
    }
}

/// A token on the track: which seat, and its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TokenAt {
    seat: usize,
    x: f32,
    y: f32,
}

/// Where everything on the turn picture goes; kept apart from drawing so that tests can
/// check the geometry (leader at the finish, ties abreast, nothing overlapping).
#[derive(Clone, Debug, PartialEq)]
struct TrackLayout {
    height: f32,
    track_top: f32,
    track_h: f32,
    lanes: usize,
    lane_h: f32,
    finish_x: f32,
    /// Token radius on the track.
    r: f32,
    tokens: Vec<TokenAt>,
    /// Each position group's column: its centre and its position label.
    columns: Vec<(f32, String)>,
    /// Each card (in standings order): left, top, width, height.
    cards: Vec<(f32, f32, f32, f32)>,
}

fn track_layout(view: &PublicView) -> TrackLayout {
    let groups = view.groups();
    let n = view.standings.len();
    let lanes = groups.iter().map(Vec::len).max().unwrap_or(1).max(1);
    // Lanes narrow when many runners are abreast, so a field tied at the start stays
    // on one screen.
    let lane_h = if lanes <= 6 { 60.0 } else { 48.0 };
    let track_top = HEADER + 34.0;
    let track_h = lanes as f32 * lane_h + 16.0;
    let cards_top = track_top + track_h + 22.0;
    let cols = if n <= 6 { 1 } else { 2 };
    let rows = n.div_ceil(cols).max(1);
    let (card_h, gap) = (64.0, 10.0);
    let height = cards_top + rows as f32 * (card_h + gap) - gap + MARGIN;

    // Position groups from the finish line back; runners keep to the inside lane (the
    // top) and tied runners run abreast outside it.
    let finish_x = WIDTH - MARGIN - 40.0;
    let front = finish_x - 42.0;
    let back = MARGIN + 42.0;
    let spacing = if groups.len() > 1 {
        ((front - back) / (groups.len() - 1) as f32).min(92.0)
    } else {
        0.0
    };
    let room = if groups.len() > 1 {
        spacing / 2.0 - 5.0
    } else {
        25.0
    };
    let r = room.min(lane_h / 2.0 - 5.0).max(18.0);
    let mut tokens = Vec::new();
    let mut columns = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        let x = front - i as f32 * spacing;
        if let Some(first) = group.first() {
            columns.push((x, position(first.rank, group.len() > 1)));
        }
        for (j, s) in group.iter().enumerate() {
            tokens.push(TokenAt {
                seat: s.seat.index(),
                x,
                y: track_top + 8.0 + (j as f32 + 0.5) * lane_h,
            });
        }
    }

    // A card per runner, front to back, down the first column then the second.
    let card_w = (WIDTH - 2.0 * MARGIN - (cols - 1) as f32 * 16.0) / cols as f32;
    let cards = (0..n)
        .map(|i| {
            let (col, row) = (i / rows, i % rows);
            (
                MARGIN + col as f32 * (card_w + 16.0),
                cards_top + row as f32 * (card_h + gap),
                card_w,
                card_h,
            )
        })
        .collect();
    TrackLayout {
        height,
        track_top,
        track_h,
        lanes,
        lane_h,
        finish_x,
        r,
        tokens,
        columns,
        cards,
    }
}

/// The turn picture.
pub fn track(view: &PublicView) -> Result<Picture, RenderError> {
    if view.standings.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let l = track_layout(view);
    let mut c = Canvas::new(WIDTH as u32, l.height.ceil() as u32, PAGE)?;
    let cast = cast(c.fonts(), view);
    header(&mut c, "Dream Mile", &status(view));

    // The home straight, finish at the right.
    let (left, right) = (MARGIN, WIDTH - MARGIN);
    c.rounded(left, l.track_top, right - left, l.track_h, 12.0, TRACK);
    for k in 1..l.lanes {
        let y = l.track_top + 8.0 + k as f32 * l.lane_h;
        c.rect(left + 6.0, y - 1.0, right - left - 12.0, 2.0, LANE_LINE);
    }
    for y in [l.track_top + 7.0, l.track_top + l.track_h - 9.0] {
        c.rect(left + 6.0, y, right - left - 12.0, 2.0, Rgb::WHITE);
    }
    let square: f32 = 8.0;
    let bottom = l.track_top + l.track_h - 4.0;
    let mut y = l.track_top + 4.0;
    let mut row = 0;
    while y < bottom {
        let h = square.min(bottom - y);
        for col in 0..2 {
            let colour = if (row + col) % 2 == 0 {
                Rgb::WHITE
            } else {
                INK
            };
            c.rect(l.finish_x + col as f32 * square, y, square, h, colour);
        }
        y += square;
        row += 1;
    }

    let spacing = match (l.columns.first(), l.columns.get(1)) {
        (Some(a), Some(b)) => a.0 - b.0,
        _ => 92.0,
    };
    for (x, label) in &l.columns {
        let size = c.size_to_fit(Weight::Bold, 18.0, label, spacing.max(60.0) - 4.0);
        c.text(
            *x,
            l.track_top - 10.0,
            label,
            size,
            Weight::Bold,
            INK,
            Align::Centre,
        );
    }
    for t in &l.tokens {
        c.token(t.x, t.y, l.r, &cast.style(t.seat), cast.label(t.seat));
    }

    let pos_w = view
        .standings
        .iter()
        .map(|s| c.measure(Weight::Bold, 24.0, &position(s.rank, s.tied)))
        .fold(0.0f32, f32::max);
    for (s, rect) in view.standings.iter().zip(&l.cards) {
        card(&mut c, &cast, view, s, *rect, pos_w);
    }
    Ok(c.finish())
}

/// One runner's card: token, position, name, what they played, and points left.
fn card(
    c: &mut Canvas,
    cast: &Cast,
    view: &PublicView,
    s: &Standing,
    (x, y, w, h): (f32, f32, f32, f32),
    pos_w: f32,
) {
    let seat = s.seat.index();
    let winner = view.finished && view.winners.contains(&s.seat);
    // The border as two fills: stroking a large outline costs more than filling it.
    let b = if winner { 3.0 } else { 1.5 };
    let edge = if winner { INK } else { RULE };
    c.rounded(x - b / 2.0, y - b / 2.0, w + b, h + b, 10.0 + b / 2.0, edge);
    c.rounded(x + b / 2.0, y + b / 2.0, w - b, h - b, 10.0 - b / 2.0, CARD);
    c.token(
        x + 34.0,
        y + h / 2.0,
        21.0,
        &cast.style(seat),
        cast.label(seat),
    );

    let text_x = x + 66.0;
    c.text(
        text_x,
        y + 29.0,
        &position(s.rank, s.tied),
        24.0,
        Weight::Bold,
        INK,
        Align::Left,
    );

    // Points left, right-aligned: the number players watch.
    let right = x + w - 14.0;
    let left_w = c.text(
        right,
        y + 33.0,
        &s.remaining.to_string(),
        28.0,
        Weight::Bold,
        INK,
        Align::Right,
    );
    let unit_w = c.text(
        right,
        y + 54.0,
        "pts left",
        15.0,
        Weight::Regular,
        MUTED,
        Align::Right,
    );
    let block = left_w.max(unit_w);

    let name_x = text_x + pos_w + 10.0;
    let name = c.fit(
        Weight::Bold,
        24.0,
        cast.name(seat),
        right - block - 12.0 - name_x,
    );
    c.text(
        name_x,
        y + 29.0,
        &name,
        24.0,
        Weight::Bold,
        INK,
        Align::Left,
    );

    // The longest line of detail that fits: winner, what was played, maximum speed.
    let played = match (s.played, s.missed) {
        (Some(p), true) => Some(format!("missed, played {p}")),
        (Some(p), false) => Some(format!("played {p}")),
        (None, _) => None,
    };
    let max = format!("max {}", s.max_speed);
    let full: Vec<&str> = [
        winner.then_some("winner"),
        played.as_deref(),
        Some(max.as_str()),
    ]
    .into_iter()
    .flatten()
    .collect();
    let short: Vec<&str> = [winner.then_some("winner"), played.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let room = right - block - 12.0 - text_x;
    let full = full.join(" · ");
    let detail = if c.measure(Weight::Regular, 17.0, &full) <= room || short.is_empty() {
        c.fit(Weight::Regular, 17.0, &full, room)
    } else {
        c.fit(Weight::Regular, 17.0, &short.join(" · "), room)
    };
    c.text(
        text_x,
        y + 53.0,
        &detail,
        17.0,
        Weight::Regular,
        MUTED,
        Align::Left,
    );
}

/// One turn's column: seats by rank (ties in seat order), with the points they had left.
fn column(record: &TurnRecord, auto: bool) -> Column {
    let entries = record
        .ranks
        .iter()
        .enumerate()
        .map(|(seat, &rank)| Entry {
            who: seat,
            rank,
            figure: record.remaining.get(seat).map(u32::to_string),
        })
        .collect();
    let head = if auto {
        format!("{}*", record.turn)
    } else {
        record.turn.to_string()
    };
    Column::new(head, entries)
}

/// The race chart: a row per position, a column per turn, each runner's box linked
/// from turn to turn.
pub fn race_chart(view: &PublicView) -> Result<Picture, RenderError> {
    if view.standings.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let columns: Vec<Column> = view
        .history
        .iter()
        .map(|r| column(r, r.turn > view.ordered_turns))
        .collect();
    let mut legend =
        "Each box: runner, and speed points left after the turn. Shaded: tied.".to_string();
    if view.history.iter().any(|r| r.turn > view.ordered_turns) {
        legend.push_str(" *automatic turn.");
    }
    let cast = cast(fonts()?, view);
    chart::draw(
        LapChart {
            title: "Dream Mile race chart",
            status: &status(view),
            unit: "turn",
            columns,
            min_slots: view.standings.len(),
            legend,
            empty: "No turn has been run yet.",
        },
        &cast,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Seat, SeatSetup, Seed, Submitted};
    use crate::games::dream_mile::{DreamMile, Options, Speed};
    use crate::render::picture::palette::seat_style;
    use proptest::prelude::*;

    const GRID: [(&str, u8); 8] = [
        ("Alice", 10),
        ("Bill", 10),
        ("Carol", 10),
        ("Dave", 11),
        ("Emily", 11),
        ("Frank", 11),
        ("George", 12),
        ("Helen", 12),
    ];

    /// The rulebook's grid after its turn 2 (Alice leads, Dave and Emily joint 3rd).
    fn rulebook_turn_2() -> DreamMile {
        let seats: Vec<SeatSetup> = GRID
            .iter()
            .map(|(n, m)| SeatSetup {
                name: n.to_string(),
                choice: Some(m.to_string()),
            })
            .collect();
        let mut g = DreamMile::setup(&Options::default(), &seats, Seed::from_u64(0)).unwrap();
        for speeds in [[3, 1, 7, 6, 6, 5, 3, 1], [9, 3, 2, 4, 4, 2, 1, 8]] {
            let orders: Vec<Submitted<Speed>> = speeds
                .iter()
                .enumerate()
                .map(|(i, &v)| Submitted::new(Seat(i as u8), Speed(v)))
                .collect();
            g.apply(&orders);
        }
        g
    }

    fn rgb_at(p: &Picture, x: f32, y: f32) -> [u8; 3] {
        let i = (y as usize * p.width() as usize + x as usize) * 3;
        let rgb = p.rgb();
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    fn token(l: &TrackLayout, seat: usize) -> TokenAt {
        *l.tokens.iter().find(|t| t.seat == seat).unwrap()
    }

    #[test]
    fn leader_is_nearest_the_finish_and_ties_run_abreast() {
        let view = rulebook_turn_2().public_view();
        let l = track_layout(&view);
        let (alice, carol, dave, emily, bill) = (
            token(&l, 0),
            token(&l, 2),
            token(&l, 3),
            token(&l, 4),
            token(&l, 1),
        );
        assert!(alice.x > carol.x && carol.x > dave.x && dave.x > bill.x);
        assert!(alice.x < l.finish_x);
        assert_eq!(dave.x, emily.x, "tied runners side by side");
        assert!(emily.y > dave.y + 2.0 * l.r, "in different lanes");
        assert_eq!(alice.y, carol.y, "runners alone keep to the inside lane");
        let labels: Vec<&str> = l.columns.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(labels, ["1st", "2nd", "=3rd", "5th", "6th", "7th", "8th"]);
    }

    #[test]
    fn tokens_are_drawn_in_their_seat_colours() {
        let view = rulebook_turn_2().public_view();
        let l = track_layout(&view);
        let p = track(&view).unwrap();
        assert_eq!(p.width(), 800);
        assert_eq!(p.height(), l.height.ceil() as u32);
        for seat in 0..8 {
            let t = token(&l, seat);
            // Above the label, inside the token.
            let fill = seat_style(seat).fill;
            assert_eq!(
                rgb_at(&p, t.x, t.y - l.r * 0.75),
                [fill.0, fill.1, fill.2],
                "seat {seat}"
            );
        }
        // The finish line is chequered white and ink.
        let ink = [INK.0, INK.1, INK.2];
        let a = rgb_at(&p, l.finish_x + 4.0, l.track_top + 8.0);
        let b = rgb_at(&p, l.finish_x + 12.0, l.track_top + 8.0);
        assert!(
            (a == [255, 255, 255] && b == ink) || (a == ink && b == [255, 255, 255]),
            "{a:?} {b:?}"
        );
    }

    #[test]
    fn a_changed_standing_changes_the_picture() {
        let view = rulebook_turn_2().public_view();
        let mut other = view.clone();
        other.standings[0].remaining -= 1;
        let (a, b) = (track(&view).unwrap().rgb(), track(&other).unwrap().rgb());
        let changed = a.chunks(3).zip(b.chunks(3)).filter(|(x, y)| x != y).count();
        assert!(changed > 50, "{changed}");
        let (a, b) = (
            race_chart(&view).unwrap().rgb(),
            race_chart(&view).unwrap().rgb(),
        );
        assert_eq!(a, b, "drawing is deterministic");
    }

    #[test]
    fn cards_sit_in_two_columns_from_seven_runners() {
        let view = rulebook_turn_2().public_view();
        let l = track_layout(&view);
        assert_eq!(l.cards.len(), 8);
        // Front to back down the left column, then the right.
        assert!(l.cards[0].0 < l.cards[4].0);
        assert!(l.cards[0].1 < l.cards[3].1);
        assert_eq!(l.cards[0].1, l.cards[4].1);
        let mut three = view.clone();
        three.standings.truncate(3);
        let l = track_layout(&three);
        assert!(l.cards.iter().all(|c| c.0 == MARGIN && c.2 > 700.0));
    }

    #[test]
    fn race_chart_orders_each_turn_by_rank_then_seat() {
        let view = rulebook_turn_2().public_view();
        let first = column(&view.history[0], false);
        let order: Vec<usize> = first.entries.iter().map(|e| e.who).collect();
        // Carol; Dave = Emily; Frank; Alice = George; Bill = Helen.
        assert_eq!(order, [2, 3, 4, 5, 0, 6, 1, 7]);
        assert_eq!(
            first.entries[0],
            Entry {
                who: 2,
                rank: 1,
                figure: Some("38".into())
            }
        );
        assert_eq!(first.head, "1");
        let p = race_chart(&view).unwrap();
        assert_eq!(p.width(), 800);
    }

    #[test]
    fn odd_views_draw_without_panicking() {
        let mut view = rulebook_turn_2().public_view();
        assert!(
            track(&PublicView {
                standings: vec![],
                ..view.clone()
            })
            .is_err()
        );
        // History rows shorter or longer than the field, and a name with no drawable glyph.
        view.history[0].ranks.truncate(3);
        view.history[1].remaining.clear();
        view.history.push(TurnRecord {
            turn: 3,
            ranks: vec![1; 12],
            remaining: vec![0; 12],
            ..TurnRecord::default()
        });
        let mut huge = view.clone();
        huge.history.push(TurnRecord {
            turn: 4,
            ranks: vec![1; 100_000],
            remaining: vec![],
            ..TurnRecord::default()
        });
        track(&huge).unwrap();
        assert!(matches!(
            race_chart(&huge),
            Err(RenderError::TooLarge { .. })
        ));
        view.standings[0].name = "🏃🏃".into();
        view.standings[1].name = "A very long name that goes on and on and on".into();
        track(&view).unwrap().png().unwrap();
        race_chart(&view).unwrap().png().unwrap();
        view.history.clear();
        race_chart(&view).unwrap();
    }

    /// Seeded races played by random bots, some orders missed: every turn's layout keeps
    /// its tokens apart and inside the picture, and the pictures draw.
    #[test]
    fn seeded_races_draw_every_turn() {
        use crate::engine::{Bots, GameRng};
        let mut drawn = 0;
        for race in 0..40u64 {
            let mut rng = GameRng::seeded(race);
            let n = 2 + rng.below(11) as usize;
            let seats: Vec<SeatSetup> = (0..n)
                .map(|i| SeatSetup {
                    name: format!("Runner {i}"),
                    choice: Some((10 + rng.below(6)).to_string()),
                })
                .collect();
            let mut g =
                DreamMile::setup(&Options::default(), &seats, Seed::from_u64(race)).unwrap();
            while g.outcome().is_none() {
                let orders: Vec<Submitted<Speed>> = (0..n)
                    .map(|i| {
                        let seat = Seat(i as u8);
                        if rng.below(10) == 0 {
                            Submitted::missed(seat, g.default_order(seat))
                        } else {
                            Submitted::new(seat, g.random_order(seat, &mut rng))
                        }
                    })
                    .collect();
                g.apply(&orders);
                let view = g.public_view();
                let l = track_layout(&view);
                assert_eq!(l.tokens.len(), n);
                for (i, a) in l.tokens.iter().enumerate() {
                    assert!(
                        a.x - l.r >= MARGIN && a.x + l.r <= l.finish_x,
                        "race {race}"
                    );
                    assert!(a.y - l.r >= l.track_top && a.y + l.r <= l.track_top + l.track_h);
                    for b in l.tokens.iter().skip(i + 1) {
                        let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
                        assert!(d >= 2.0 * l.r, "race {race}: {a:?} {b:?}");
                    }
                }
                // Drawing is the slow part in a debug build: draw one turn in four.
                if (race + u64::from(view.turn)) % 4 == 0 {
                    assert_eq!(track(&view).unwrap().width(), 800);
                    drawn += 1;
                }
            }
            let chart = race_chart(&g.public_view()).unwrap();
            assert!(chart.height() > 100);
        }
        assert!(drawn > 50, "{drawn}");
    }

    fn arb_view() -> impl Strategy<Value = PublicView> {
        let runner = (
            ".{0,40}",
            0u32..60,
            1u32..13,
            any::<bool>(),
            proptest::option::of(0u8..16),
        );
        (prop::collection::vec(runner, 1..13), 0u8..9, any::<bool>()).prop_map(
            |(runners, turns, finished)| {
                let n = runners.len();
                let mut standings: Vec<Standing> = runners
                    .iter()
                    .enumerate()
                    .map(|(i, (name, remaining, rank, missed, played))| Standing {
                        seat: Seat(i as u8),
                        name: name.clone(),
                        rank: (*rank).min(n as u32),
                        tied: false,
                        max_speed: 10,
                        remaining: *remaining,
                        played: *played,
                        missed: *missed,
                    })
                    .collect();
                standings.sort_by_key(|s| s.rank);
                let history = (1..=turns)
                    .map(|t| TurnRecord {
                        turn: t,
                        ranks: standings.iter().map(|s| s.rank).collect(),
                        remaining: standings.iter().map(|s| s.remaining).collect(),
                        ..TurnRecord::default()
                    })
                    .collect();
                PublicView {
                    turn: turns,
                    ordered_turns: 7,
                    total_turns: 8,
                    standings,
                    history,
                    finished,
                    winners: vec![Seat(0)],
                }
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn any_view_draws_a_png_with_tokens_apart(view in arb_view()) {
            let l = track_layout(&view);
            for (i, a) in l.tokens.iter().enumerate() {
                for b in l.tokens.iter().skip(i + 1) {
                    let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
                    prop_assert!(d >= 2.0 * l.r, "{a:?} {b:?}");
                }
                prop_assert!(a.x - l.r >= MARGIN && a.x + l.r <= l.finish_x);
            }
            for c in &l.cards {
                prop_assert!(c.0 + c.2 <= WIDTH - MARGIN + 0.01 && c.1 + c.3 <= l.height);
            }
            let png = track(&view).unwrap().png().unwrap();
            prop_assert!(png.len() < 200_000);
            race_chart(&view).unwrap().png().unwrap();
        }
    }
}
