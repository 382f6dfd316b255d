//! 1000 miles and 1000 Yards in pictures: a lane per player or team with the distance
//! along a ruler to the trip, the car's state as drawn signs with words beside them, the
//! immunities and the score (the turn picture); and the lap chart of places turn by turn
//! in a one-round game, or round by round by total score (the race chart). Hands are not
//! in the public view, so no picture can show one.

use super::RenderError;
use super::canvas::{Align, Canvas, Picture};
use super::cast::{Cast, MAX_CAST, drawable};
use super::chart::{self, Column, Entry, LapChart};
use super::font::{Fonts, Weight, fonts};
use super::frame::{HEADER, MARGIN, WIDTH, header};
use super::palette::{CARD, INK, MUTED, PAGE, RULE, Rgb, SeatStyle, seat_style};
use crate::engine::Seat;
use crate::games::card_race::Card;
use crate::games::card_race::game_views::{PublicView, TeamView};

/// A lane's card, and the gap between cards.
const LANE_H: f32 = 182.0;
/// The ruler's centre line, from a lane's top.
const BAR: f32 = 98.0;
const LANE_GAP: f32 = 12.0;
/// Where the lanes start.
const LANES_TOP: f32 = HEADER + 40.0;
/// The ruler's groove.
const GROOVE: Rgb = Rgb(0xe4, 0xe0, 0xd6);
/// Signs: vermillion for what stops or hampers a car, bluish green for rolling, yellow for
/// a hazard (Okabe and Ito's colours, and every sign has its words beside it).
const STOP_RED: Rgb = Rgb(0xd5, 0x5e, 0x00);
const GO_GREEN: Rgb = Rgb(0x00, 0x9e, 0x73);
const HAZARD_YELLOW: Rgb = Rgb(0xf0, 0xe4, 0x42);
/// Immunity badges.
const BADGE: Rgb = Rgb(0xdc, 0xe9, 0xf5);
const SHIELD: Rgb = Rgb(0x00, 0x72, 0xb2);
/// More teams than any table has; a view claiming more is damaged.
const MAX_TEAMS: usize = 16;

/// The players (by seat) and the teams (by team index), as drawn.
struct Casts {
    seats: Cast,
    teams: Cast,
}

fn casts(fonts: &Fonts, view: &PublicView) -> Casts {
    let n = view
        .players
        .iter()
        .map(|p| p.seat.index() + 1)
        .max()
        .unwrap_or(0)
        .min(MAX_CAST);
    let mut names = vec![String::new(); n];
    for p in &view.players {
        if let Some(slot) = names.get_mut(p.seat.index()) {
            slot.clone_from(&p.name);
        }
    }
    let seats = Cast::seats(fonts, &names);
    let teams: Vec<&TeamView> = view.teams.iter().take(MAX_TEAMS).collect();
    let solo = teams.iter().all(|t| t.members.len() <= 1);
    let first = |t: &TeamView| t.members.first().map(|s| s.index());
    let styles: Vec<SeatStyle> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| first(t).map_or_else(|| seat_style(i), |s| seats.style(s)))
        .collect();
    let mut labels: Vec<String> = teams
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if solo {
                first(t).map_or_else(|| format!("T{}", i + 1), |s| seats.label(s).to_string())
            } else {
                // Teammates' initials: "AC" for Alice & Carol.
                let initials: String = t
                    .members
                    .iter()
                    .take(4)
                    .filter_map(|s| seats.label(s.index()).chars().next())
                    .collect();
                initials
            }
        })
        .collect();
    let clash = labels
        .iter()
        .enumerate()
        .any(|(i, l)| l.is_empty() || labels.iter().skip(i + 1).any(|m| m == l));
    if clash {
        labels = (1..=labels.len()).map(|i| format!("T{i}")).collect();
    }
    let names = teams
        .iter()
        .map(|t| {
            let members: Vec<&str> = t.members.iter().map(|s| seats.name(s.index())).collect();
            members.join(" & ")
        })
        .collect();
    Casts {
        seats,
        teams: Cast::from_parts(styles, labels, names),
    }
}

/// "1000 miles" from "1000 miles (published Mille Bornes rules)": the header has room for
/// the game's name, and the sub-line says the rest.
fn short_title(view: &PublicView) -> &str {
    view.title
        .split(" (")
        .next()
        .filter(|t| !t.is_empty())
        .unwrap_or("1000 miles")
}

fn status(view: &PublicView) -> String {
    if view.finished {
        if view.round <= 1 {
            "Final score".to_string()
        } else {
            format!("Final scores, {} rounds", view.round)
        }
    } else {
        let mut s = if view.rounds == 1 {
            format!("Trip {} {}", view.target, view.unit)
        } else {
            format!("Round {} · trip {} {}", view.round, view.target, view.unit)
        };
        if view.extended_by.is_some() {
            s.push_str(" (extended)");
        }
        s
    }
}

/// What the game is played to, and the pile.
fn sub_line(view: &PublicView) -> String {
    let mut parts = Vec::new();
    if view.title.contains('(') {
        parts.push(
            view.title
                .split_once(" (")
                .map(|(_, r)| r.trim_end_matches(')').to_string())
                .unwrap_or_default(),
        );
    }
    match (view.target_score, view.rounds) {
        (0, 1) => parts.push("one round".into()),
        (0, r) => parts.push(format!("{r} rounds")),
        (t, 0) => parts.push(format!("game to {t} points")),
        (t, r) => parts.push(format!("game to {t} points or {r} rounds")),
    }
    if !view.finished {
        parts.push(format!("draw pile {}", view.deck_left));
    }
    parts.join(" · ")
}

/// A team's score in all: finished rounds, and this round so far while it is played.
fn score(view: &PublicView, t: &TeamView) -> i64 {
    // Once the game is over the last round is already in the total.
    if view.finished {
        t.total
    } else {
        t.total + t.round_score
    }
}

/// The seat the view is waiting on, and what for.
fn waiting(view: &PublicView) -> Option<(Seat, &'static str)> {
    if view.finished {
        return None;
    }
    if let Some(w) = &view.window {
        return w.victims.first().map(|&s| (s, "may answer"));
    }
    if let Some(s) = view.turn {
        return Some((s, "to play"));
    }
    view.extension_decision.map(|s| (s, "decides"))
}

fn player_name(casts: &Casts, seat: Seat) -> &str {
    casts.seats.name(seat.index())
}

/// One sign on a lane: what it says, and how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Rolling,
    /// A red light, or waiting for a green light.
    Stop,
    /// Out of gas, flat tire, accident.
    Hazard,
    Limit,
    Counterflow,
}

/// The signs on a lane, with their words, in reading order.
fn signs(yards: bool, t: &TeamView) -> Vec<(Sign, String)> {
    let mut out = Vec::new();
    if t.rolling {
        out.push((Sign::Rolling, "rolling".to_string()));
    } else {
        let battle: Vec<Card> = t
            .problems
            .iter()
            .copied()
            .filter(|p| p.is_battle_attack())
            .collect();
        for p in &battle {
            let sign = if *p == Card::Stop {
                Sign::Stop
            } else {
                Sign::Hazard
            };
            out.push((sign, p.name(yards).to_string()));
        }
        if battle.is_empty() {
            out.push((Sign::Stop, format!("needs a {}", Card::Go.name(yards))));
        }
    }
    if t.limited {
        out.push((Sign::Limit, Card::Limit.name(yards).to_string()));
    }
    if t.counterflow {
        out.push((Sign::Counterflow, Card::Counterflow.name(yards).to_string()));
    }
    out
}

fn draw_sign(c: &mut Canvas, sign: Sign, cx: f32, cy: f32, r: f32) {
    match sign {
        Sign::Rolling => {
            c.circle(cx, cy, r, GO_GREEN);
            let s = r * 0.5;
            c.polygon(
                &[
                    (cx - s * 0.7, cy - s),
                    (cx + s * 1.1, cy),
                    (cx - s * 0.7, cy + s),
                ],
                Rgb::WHITE,
            );
        }
        Sign::Stop => {
            let oct = |rr: f32| -> Vec<(f32, f32)> {
                (0..8)
                    .map(|k| {
                        let a = std::f32::consts::PI / 8.0 + k as f32 * std::f32::consts::PI / 4.0;
                        (cx + rr * a.cos(), cy + rr * a.sin())
                    })
                    .collect()
            };
            c.polygon(&oct(r * 1.08), STOP_RED);
            c.rect(cx - r * 0.55, cy - r * 0.14, r * 1.1, r * 0.28, Rgb::WHITE);
        }
        Sign::Hazard => {
            let h = r * 1.1;
            let tri = |g: f32| {
                [
                    (cx, cy - h - g),
                    (cx + h * 1.1 + g, cy + h * 0.85 + g * 0.5),
                    (cx - h * 1.1 - g, cy + h * 0.85 + g * 0.5),
                ]
            };
            c.polygon(&tri(2.0), INK);
            c.polygon(&tri(0.0), HAZARD_YELLOW);
            c.text_centred(cx, cy + r * 0.15, "!", r * 1.2, Weight::Bold, INK);
        }
        Sign::Limit => {
            c.circle(cx, cy, r, STOP_RED);
            c.circle(cx, cy, r * 0.72, Rgb::WHITE);
            c.text_centred(cx, cy, "50", r * 0.85, Weight::Bold, INK);
        }
        Sign::Counterflow => {
            c.circle(cx, cy, r, STOP_RED);
            c.rect(cx - r * 0.62, cy - r * 0.17, r * 1.24, r * 0.34, Rgb::WHITE);
        }
    }
}

/// A small shield, for immunities.
fn shield(c: &mut Canvas, cx: f32, cy: f32, s: f32) {
    c.polygon(
        &[
            (cx - s * 0.8, cy - s * 0.8),
            (cx, cy - s),
            (cx + s * 0.8, cy - s * 0.8),
            (cx + s * 0.7, cy + s * 0.2),
            (cx, cy + s),
            (cx - s * 0.7, cy + s * 0.2),
        ],
        SHIELD,
    );
}

/// Short names for immunity badges when the full ones do not fit.
fn short_safety(card: Card, yards: bool) -> &'static str {
    match (card, yards) {
        (Card::RightOfWay, false) => "right of way",
        (Card::ExtraTank, false) => "tank",
        (Card::PunctureProof, false) => "tires",
        (Card::DrivingAce, false) => "ace",
        (Card::RightOfWay, true) => "guard",
        (Card::ExtraTank, true) => "meal",
        (Card::PunctureProof, true) => "tire",
        (Card::DrivingAce, true) => "wheels",
        _ => "?",
    }
}

/// Ruler ticks: a round step giving at most ten intervals.
fn tick_step(target: u32) -> u32 {
    [25, 50, 100, 200, 250, 500, 1000, 2500, 5000]
        .into_iter()
        .find(|s| target / s <= 10)
        .unwrap_or(target.div_ceil(10).max(1))
}

/// Where the lanes and ruler go; kept apart from drawing so tests can check the geometry.
#[derive(Clone, Debug, PartialEq)]
struct Layout {
    height: f32,
    /// Each lane's card: left, top, width, height.
    lanes: Vec<(f32, f32, f32, f32)>,
    ruler_left: f32,
    ruler_right: f32,
    footer_top: f32,
}

fn layout(view: &PublicView) -> Layout {
    let n = view.teams.len().min(MAX_TEAMS);
    let lanes: Vec<(f32, f32, f32, f32)> = (0..n)
        .map(|i| {
            (
                MARGIN,
                LANES_TOP + i as f32 * (LANE_H + LANE_GAP),
                WIDTH - 2.0 * MARGIN,
                LANE_H,
            )
        })
        .collect();
    let footer_top = LANES_TOP + n as f32 * (LANE_H + LANE_GAP) + 4.0;
    let lines = footer_lines(view).len() as f32;
    Layout {
        height: footer_top + lines * 26.0 + MARGIN,
        lanes,
        ruler_left: MARGIN + 34.0,
        ruler_right: WIDTH - MARGIN - 48.0,
        footer_top,
    }
}

fn any_dirty_trick(view: &PublicView) -> bool {
    view.teams
        .iter()
        .any(|t| t.safeties.iter().any(|s| s.dirty_trick))
}

/// The x of `distance` on the ruler.
fn ruler_x(l: &Layout, distance: u32, target: u32) -> f32 {
    let share = if target == 0 {
        0.0
    } else {
        distance.min(target) as f32 / target as f32
    };
    l.ruler_left + share * (l.ruler_right - l.ruler_left)
}

/// The turn picture.
pub fn track(view: &PublicView) -> Result<Picture, RenderError> {
    if view.teams.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let l = layout(view);
    let mut c = Canvas::new(WIDTH as u32, l.height.ceil() as u32, PAGE)?;
    let casts = casts(c.fonts(), view);
    header(&mut c, short_title(view), &status(view));
    let sub = c.fit(Weight::Regular, 18.0, &sub_line(view), WIDTH - 2.0 * MARGIN);
    c.text(
        MARGIN,
        HEADER + 24.0,
        &sub,
        18.0,
        Weight::Regular,
        MUTED,
        Align::Left,
    );

    let wait = waiting(view);
    let team_of = |seat: Seat| {
        view.players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| usize::from(p.team))
    };
    let waiting_team = wait.and_then(|(s, _)| team_of(s));
    for (i, (t, rect)) in view.teams.iter().zip(&l.lanes).enumerate() {
        let winner = view.finished
            && t.members.iter().any(|m| view.winners.contains(m))
            && !view.winners.is_empty();
        let pill = if winner {
            Some("WINNER".to_string())
        } else {
            match wait {
                Some((seat, what)) if waiting_team == Some(i) => Some(if t.members.len() > 1 {
                    format!("{} {what}", player_name(&casts, seat))
                } else {
                    what.to_string()
                }),
                _ => None,
            }
        };
        lane(&mut c, view, &l, &casts, i, t, *rect, pill.as_deref());
    }
    footer(&mut c, view, &l);
    Ok(c.finish())
}

/// One team's lane.
#[allow(clippy::too_many_arguments)]
fn lane(
    c: &mut Canvas,
    view: &PublicView,
    l: &Layout,
    casts: &Casts,
    i: usize,
    t: &TeamView,
    (x, y, w, h): (f32, f32, f32, f32),
    pill: Option<&str>,
) {
    // The border as two fills; heavy for the lane the race waits on, or the winner.
    let b = if pill.is_some() { 3.0 } else { 1.5 };
    let edge = if pill.is_some() { INK } else { RULE };
    c.rounded(x - b / 2.0, y - b / 2.0, w + b, h + b, 12.0 + b / 2.0, edge);
    c.rounded(x + b / 2.0, y + b / 2.0, w - b, h - b, 12.0 - b / 2.0, CARD);

    // Row one: the players' tokens and names, a pill, the score.
    let row = y + 28.0;
    let mut tx = x + 16.0 + 17.0;
    for m in t.members.iter().take(4) {
        c.token(
            tx,
            row,
            17.0,
            &casts.seats.style(m.index()),
            casts.seats.label(m.index()),
        );
        tx += 42.0;
    }
    let name_x = tx - 17.0 + 4.0;
    let right = x + w - 16.0;
    let total = score(view, t);
    let pts_w = c.measure(Weight::Regular, 16.0, " pts");
    let num = total.to_string();
    let num_w = c.measure(Weight::Bold, 26.0, &num);
    c.text(
        right,
        row + 9.0,
        " pts",
        16.0,
        Weight::Regular,
        MUTED,
        Align::Right,
    );
    c.text(
        right - pts_w,
        row + 9.0,
        &num,
        26.0,
        Weight::Bold,
        INK,
        Align::Right,
    );
    let mut score_w = pts_w + num_w;
    // In a game of several rounds, this round's part of it.
    if !view.finished && view.rounds != 1 && t.total != 0 {
        let part = format!("this round {} · ", t.round_score);
        score_w += c.text(
            right - score_w,
            row + 9.0,
            &part,
            15.0,
            Weight::Regular,
            MUTED,
            Align::Right,
        );
    }
    let mut name_right = right - score_w - 12.0;
    if let Some(p) = pill {
        let size = 15.0;
        let pw = c.measure(Weight::Bold, size, p) + 20.0;
        let px = name_right - pw;
        c.rounded(px, row - 13.0, pw, 26.0, 13.0, INK);
        c.text(
            px + pw / 2.0,
            row + 5.5,
            p,
            size,
            Weight::Bold,
            Rgb::WHITE,
            Align::Centre,
        );
        name_right = px - 10.0;
    }
    let name = c.fit(
        Weight::Bold,
        22.0,
        casts.teams.name(i),
        (name_right - name_x).max(0.0),
    );
    c.text(
        name_x,
        row + 8.0,
        &name,
        22.0,
        Weight::Bold,
        INK,
        Align::Left,
    );

    // The ruler: a groove to the trip, filled in the team's colour to its distance.
    let style = casts.teams.style(i);
    let bar_y = y + BAR;
    let (rl, rr) = (l.ruler_left, l.ruler_right);
    c.rounded(rl - 5.0, bar_y - 6.0, rr - rl + 10.0, 12.0, 6.0, GROOVE);
    let at = ruler_x(l, t.distance, view.target);
    if t.distance > 0 {
        c.rounded(rl - 5.0, bar_y - 6.0, at - rl + 10.0, 12.0, 6.0, style.fill);
    }
    let step = tick_step(view.target);
    let mut d = 0;
    while d <= view.target {
        let tx = ruler_x(l, d, view.target);
        c.rect(tx - 1.0, bar_y + 8.0, 2.0, 12.0, MUTED);
        c.text(
            tx,
            bar_y + 38.0,
            &d.to_string(),
            16.0,
            Weight::Regular,
            MUTED,
            Align::Centre,
        );
        match d.checked_add(step) {
            Some(next) => d = next,
            None => break,
        }
    }
    // The finish: a chequered flag at the trip.
    let fx = rr + 14.0;
    for k in 0..6 {
        for j in 0..2 {
            let colour = if (k + j) % 2 == 0 { INK } else { Rgb::WHITE };
            c.rect(
                fx + j as f32 * 6.0,
                bar_y - 18.0 + k as f32 * 6.0,
                6.0,
                6.0,
                colour,
            );
        }
    }
    c.rect(fx - 2.0, bar_y - 18.0, 2.0, 36.0, INK);
    c.token(at, bar_y, 19.0, &style, casts.teams.label(i));
    let dist = t.distance.to_string();
    let dw = c.measure(Weight::Bold, 20.0, &dist);
    let dx = at.clamp(x + 12.0 + dw / 2.0, x + w - 12.0 - dw / 2.0);
    c.text(
        dx,
        bar_y - 28.0,
        &dist,
        20.0,
        Weight::Bold,
        INK,
        Align::Centre,
    );

    // Row three: signs at the left, immunities at the right.
    let sy = y + h - 25.0;
    let yards = view.yards_names;
    let mut sx = x + 16.0;
    // More signs than a car can carry would only run off the card.
    for (sign, words) in signs(yards, t).into_iter().take(6) {
        draw_sign(c, sign, sx + 13.0, sy, 12.0);
        sx += 32.0;
        sx += c.text(
            sx,
            sy + 7.0,
            &words,
            19.0,
            Weight::Regular,
            INK,
            Align::Left,
        );
        sx += 16.0;
    }
    immunities(c, t, yards, sx, right, sy);
}

/// The immunities, right-aligned from `right`, in full words when they fit after `left`.
fn immunities(c: &mut Canvas, t: &TeamView, yards: bool, left: f32, right: f32, cy: f32) {
    if t.safeties.is_empty() {
        return;
    }
    let size = 16.0;
    let words = |short: bool| -> Vec<String> {
        t.safeties
            .iter()
            .map(|s| {
                let name = if short {
                    short_safety(s.card, yards)
                } else {
                    s.card.name(yards)
                };
                if s.dirty_trick {
                    format!("{name}*")
                } else {
                    name.to_string()
                }
            })
            .collect()
    };
    let width = |c: &Canvas, ws: &[String]| -> f32 {
        ws.iter()
            .map(|w| c.measure(Weight::Regular, size, w) + 40.0)
            .sum::<f32>()
    };
    let mut ws = words(false);
    if width(c, &ws) > right - left {
        ws = words(true);
    }
    let mut bx = right;
    for w in ws.iter().rev() {
        let bw = c.measure(Weight::Regular, size, w) + 34.0;
        if bx - bw < left {
            break;
        }
        bx -= bw;
        c.rounded(bx, cy - 15.0, bw, 30.0, 8.0, SHIELD);
        c.rounded(bx + 1.5, cy - 13.5, bw - 3.0, 27.0, 6.5, BADGE);
        shield(c, bx + 14.0, cy, 8.0);
        c.text(
            bx + 25.0,
            cy + 6.0,
            w,
            size,
            Weight::Regular,
            INK,
            Align::Left,
        );
        bx -= 6.0;
    }
}

/// The footer's lines: whom the race waits on (or who won), the last round's scores while
/// the next is played, and what an asterisk means. Each with whether it is bold.
fn footer_lines(view: &PublicView) -> Vec<(String, bool)> {
    let name = |s: Seat| {
        view.players
            .iter()
            .find(|p| p.seat == s)
            .map_or("?", |p| p.name.as_str())
    };
    let team = |i: u8| {
        view.teams
            .iter()
            .find(|t| t.team == i)
            .map_or("?".to_string(), |t| t.label.clone())
    };
    let mut out = Vec::new();
    let first = if view.finished {
        let winners: Vec<String> = view
            .teams
            .iter()
            .filter(|t| t.members.iter().any(|m| view.winners.contains(m)))
            .map(|t| t.label.clone())
            .collect();
        format!("Winner: {}.", winners.join(" and "))
    } else if let Some(w) = &view.window {
        let victims: Vec<&str> = w.victims.iter().map(|&s| name(s)).collect();
        format!(
            "{} may answer the {} with a dirty trick.",
            victims.join(" or "),
            w.attack.name(view.yards_names)
        )
    } else if let Some(s) = view.turn {
        format!("{} to play.", name(s))
    } else if let Some(s) = view.extension_decision {
        format!("{} decides: go on to 1000?", name(s))
    } else {
        String::new()
    };
    out.push((first, true));
    if let Some(r) = view.history.last()
        && !view.finished
    {
        let parts: Vec<String> = r
            .scores
            .iter()
            .map(|s| format!("{} {}", team(s.team), s.total))
            .collect();
        out.push((
            format!("Round {} scored: {}.", r.round, parts.join(", ")),
            false,
        ));
    }
    if any_dirty_trick(view) {
        out.push(("* played as a dirty trick".to_string(), false));
    }
    out
}

fn footer(c: &mut Canvas, view: &PublicView, l: &Layout) {
    let mut y = l.footer_top + 20.0;
    for (line, bold) in footer_lines(view) {
        let (weight, size, colour) = if bold {
            (Weight::Bold, 20.0, INK)
        } else {
            (Weight::Regular, 17.0, MUTED)
        };
        // Names the font cannot draw lose those letters here, as everywhere in pictures.
        let line = drawable(c.fonts(), &line);
        let line = c.fit(weight, size, &line, WIDTH - 2.0 * MARGIN);
        c.text(MARGIN, y, &line, size, weight, colour, Align::Left);
        y += 26.0;
    }
}

/// Competition ranks (1, 2, 2, 4) for `values`, higher better.
fn ranks<T: Ord + Copy>(values: &[T]) -> Vec<u32> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|o| *o > v).count() as u32)
        .collect()
}

/// The race chart: round by round by total score once there are two rounds or more, else
/// turn by turn by distance through the round.
pub fn race_chart(view: &PublicView) -> Result<Picture, RenderError> {
    if view.teams.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let casts = casts(fonts()?, view);
    let by_rounds = view.history.len() >= 2;
    let columns: Vec<Column> = if by_rounds {
        let mut totals = vec![0i64; view.teams.len().min(MAX_TEAMS)];
        view.history
            .iter()
            .map(|r| {
                for s in &r.scores {
                    if let Some(t) = totals.get_mut(usize::from(s.team)) {
                        *t += s.total;
                    }
                }
                let rk = ranks(&totals);
                let entries = totals
                    .iter()
                    .zip(rk)
                    .enumerate()
                    .map(|(who, (total, rank))| Entry {
                        who,
                        rank,
                        figure: Some(total.to_string()),
                    })
                    .collect();
                Column::new(r.round.to_string(), entries)
            })
            .collect()
    } else {
        view.turns
            .iter()
            .map(|m| {
                let d: Vec<u32> = m.distances.iter().copied().take(MAX_TEAMS).collect();
                let entries = d
                    .iter()
                    .zip(ranks(&d))
                    .enumerate()
                    .map(|(who, (dist, rank))| Entry {
                        who,
                        rank,
                        figure: Some(dist.to_string()),
                    })
                    .collect();
                Column::new(m.turn.to_string(), entries)
            })
            .collect()
    };
    let (unit, legend) = if by_rounds {
        (
            "round",
            "Each box: team, and its total score after the round. Shaded: tied.".to_string(),
        )
    } else {
        (
            "turn",
            format!(
                "Each box: team, and its {} after the turn of the table. Shaded: tied.",
                view.unit
            ),
        )
    };
    let title = format!("{} race chart", short_title(view));
    let status = if !by_rounds && view.rounds != 1 && !view.finished {
        format!("Round {} so far", view.round)
    } else {
        status(view)
    };
    chart::draw(
        LapChart {
            title: &title,
            status: &status,
            unit,
            columns,
            min_slots: view.teams.len().min(MAX_TEAMS),
            legend,
            empty: "No turn has been played yet.",
        },
        &casts.teams,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, SeatSetup, Seed};
    use crate::games::card_race::{CardRace, Options, SafetyPlay};

    fn game(names: &[&str], options: &str) -> CardRace {
        let seats: Vec<SeatSetup> = names.iter().map(|n| SeatSetup::named(*n)).collect();
        let mut o = Options::default();
        for kv in options.split_whitespace() {
            let (k, v) = kv.split_once('=').unwrap();
            match k {
                "teams" => o.teams = v.parse().unwrap(),
                "rounds" => o.rounds = v.parse().unwrap(),
                _ => panic!("{k}"),
            }
        }
        CardRace::setup(&o, &seats, Seed::from_u64(3)).unwrap()
    }

    fn rgb_at(p: &Picture, x: f32, y: f32) -> [u8; 3] {
        let i = (y as usize * p.width() as usize + x as usize) * 3;
        let rgb = p.rgb();
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    #[test]
    fn teams_take_their_first_players_colour_and_initials() {
        let g = game(&["Alice", "Bob", "Carol", "Dave"], "");
        let view = g.public_view();
        let c = casts(fonts().unwrap(), &view);
        assert_eq!(c.teams.len(), 2);
        assert_eq!(c.teams.label(0), "AC");
        assert_eq!(c.teams.label(1), "BD");
        assert_eq!(c.teams.name(0), "Alice & Carol");
        assert_eq!(c.teams.style(0), seat_style(0));
        assert_eq!(c.teams.style(1), seat_style(1));
        // Alone at the table, a player's team is labelled as the player.
        let g = game(&["Alice", "Bob", "Carol"], "");
        let c = casts(fonts().unwrap(), &g.public_view());
        assert_eq!(c.teams.label(2), "CAR");
        // Initials that clash fall back to team numbers.
        let g = game(&["Alice", "Andy", "Bob", "Bea"], "");
        let c = casts(fonts().unwrap(), &g.public_view());
        assert_eq!((c.teams.label(0), c.teams.label(1)), ("T1", "T2"));
    }

    #[test]
    fn signs_say_what_stops_a_car() {
        let g = game(&["Alice", "Bob"], "");
        let mut t = g.public_view().teams[0].clone();
        assert_eq!(
            signs(false, &t),
            [(Sign::Stop, "needs a green light".to_string())]
        );
        assert_eq!(signs(true, &t)[0].1, "needs a go");
        t.problems = vec![Card::Flat, Card::Limit];
        t.limited = true;
        assert_eq!(
            signs(false, &t),
            [
                (Sign::Hazard, "flat tire".to_string()),
                (Sign::Limit, "speed limit".to_string())
            ]
        );
        t.problems = vec![Card::Stop];
        assert_eq!(signs(true, &t)[0], (Sign::Stop, "traffic".to_string()));
        t.rolling = true;
        t.problems.clear();
        t.limited = false;
        t.counterflow = true;
        assert_eq!(
            signs(false, &t),
            [
                (Sign::Rolling, "rolling".to_string()),
                (Sign::Counterflow, "counterflow".to_string())
            ]
        );
    }

    #[test]
    fn the_ruler_runs_from_nothing_to_the_trip() {
        let g = game(&["Alice", "Bob"], "");
        let view = g.public_view();
        let l = layout(&view);
        assert_eq!(ruler_x(&l, 0, 1000), l.ruler_left);
        assert_eq!(ruler_x(&l, 1000, 1000), l.ruler_right);
        assert_eq!(ruler_x(&l, 5000, 1000), l.ruler_right);
        assert!((ruler_x(&l, 500, 1000) - (l.ruler_left + l.ruler_right) / 2.0).abs() < 0.01);
        assert_eq!(ruler_x(&l, 5, 0), l.ruler_left);
        assert_eq!(tick_step(1000), 100);
        assert_eq!(tick_step(700), 100);
        assert_eq!(tick_step(300), 50);
        assert_eq!(tick_step(0), 25);
        assert_eq!(tick_step(u32::MAX), u32::MAX.div_ceil(10));
        assert_eq!(l.lanes.len(), 2);
        assert!(l.lanes[0].1 + l.lanes[0].3 < l.lanes[1].1);
    }

    #[test]
    fn the_car_sits_at_its_distance_in_its_colour() {
        let g = game(&["Alice", "Bob"], "");
        let mut view = g.public_view();
        view.teams[1].distance = 450;
        let l = layout(&view);
        let p = track(&view).unwrap();
        let orange = seat_style(1).fill;
        let x = ruler_x(&l, 450, view.target);
        let bar_y = l.lanes[1].1 + BAR;
        // Above the car's label, inside the token.
        assert_eq!(rgb_at(&p, x, bar_y - 14.0), [orange.0, orange.1, orange.2]);
        // The groove is filled up to the car, and empty after it.
        let before = rgb_at(&p, x - 60.0, bar_y);
        let after = rgb_at(&p, x + 60.0, bar_y);
        assert_eq!(before, [orange.0, orange.1, orange.2]);
        assert_eq!(after, [GROOVE.0, GROOVE.1, GROOVE.2]);
    }

    #[test]
    fn a_changed_tableau_changes_the_picture() {
        let g = game(&["Alice", "Bob", "Carol", "Dave"], "");
        let view = g.public_view();
        let base = track(&view).unwrap().rgb();
        let mut immune = view.clone();
        immune.teams[0].safeties.push(SafetyPlay {
            card: Card::ExtraTank,
            dirty_trick: true,
        });
        let mut limited = view.clone();
        limited.teams[1].limited = true;
        limited.teams[1].problems.push(Card::Limit);
        for other in [immune, limited] {
            let drawn = track(&other).unwrap().rgb();
            let changed = base
                .chunks(3)
                .zip(drawn.chunks(3))
                .filter(|(a, b)| a != b)
                .count();
            assert!(changed > 100, "{changed}");
        }
    }

    #[test]
    fn finished_scores_are_not_counted_twice() {
        let g = game(&["Alice", "Bob"], "");
        let mut view = g.public_view();
        view.teams[0].total = 1200;
        view.teams[0].round_score = 700;
        assert_eq!(score(&view, &view.teams[0]), 1900);
        view.finished = true;
        assert_eq!(score(&view, &view.teams[0]), 1200);
    }

    #[test]
    fn ranks_share_ties() {
        assert_eq!(ranks(&[300u32, 500, 300, 0]), [2, 1, 2, 4]);
        assert_eq!(ranks::<u32>(&[]), Vec::<u32>::new());
    }

    #[test]
    fn odd_views_draw_without_panicking() {
        let g = game(&["Alice", "Bob", "Carol"], "");
        let mut view = g.public_view();
        view.teams[0].members.clear();
        view.teams[1].members.push(Seat(40));
        view.teams[2].distance = 99_999;
        view.target = 0;
        let mut huge = view.clone();
        huge.target = u32::MAX;
        track(&huge).unwrap();
        view.players[0].name = "🏁🏁".into();
        view.players[1].name = "A very long name that goes on and on and on and on".into();
        view.teams[2].safeties = Card::SAFETIES
            .iter()
            .map(|&card| SafetyPlay {
                card,
                dirty_trick: true,
            })
            .collect();
        view.teams[2].problems = vec![Card::Stop, Card::Flat, Card::Accident, Card::OutOfGas];
        view.teams[2].rolling = false;
        view.teams[2].limited = true;
        view.teams[2].counterflow = true;
        track(&view).unwrap().png().unwrap();
        race_chart(&view).unwrap().png().unwrap();
        view.turns.push(crate::games::card_race::TurnMark {
            turn: 1,
            distances: vec![5; 1000],
        });
        race_chart(&view).unwrap();
        view.teams.clear();
        assert_eq!(track(&view).err(), Some(RenderError::NoRunners));
    }
}
