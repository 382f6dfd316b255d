//! 1000 miles and 1000 Yards in pictures: a lane per player or team with the distance
//! along a ruler to the trip, the car's state as drawn signs with words beside them, the
//! immunities and the score (the turn picture); and the lap chart of places turn by turn
//! in a one-round game, or round by round by total score (the race chart). Hands are not
//! in the public view, so no picture can show one.
//!
//! The rules: docs/rules/1000-miles.md and docs/rules/1000-yards.md.

mod geometry;
mod lane;

use super::canvas::{Align, Canvas, Picture};
use super::cast::{Cast, MAX_CAST, drawable};
use super::chart::{self, Column, Entry, LapChart};
use super::error::RenderError;
use super::font::{Fonts, Weight, fonts};
use super::frame::{HEADER, MARGIN, WIDTH, header};
use super::palette::{INK, MUTED, PAGE, SeatStyle, seat_style};
use crate::engine::Seat;
use crate::games::card_race::game_views::{PublicView, TeamView};
use geometry::{Casts, Layout};
use lane::Lane;

/// A lane's card, and the gap between cards.
const LANE_H: f32 = 182.0;
const LANE_GAP: f32 = 12.0;
/// Where the lanes start.
const LANES_TOP: f32 = HEADER + 40.0;
/// More teams than any table has; a view claiming more is damaged.
const MAX_TEAMS: usize = 16;

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
        Lane {
            view,
            casts: &casts,
            i,
            team: t,
            rect: *rect,
            pill: pill.as_deref(),
        }
        .draw(&mut c, &l);
    }
    footer(&mut c, view, &l);
    Ok(c.finish())
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
            "{} may answer the {} with a {}.",
            victims.join(" or "),
            w.attack.name(view.yards_names),
            if view.yards_names {
                "counter"
            } else {
                "dirty trick"
            }
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
        let trick = if view.yards_names {
            "counter"
        } else {
            "dirty trick"
        };
        out.push((format!("* played as a {trick}"), false));
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

/// The chart's columns: round by round by total score once there are two rounds or more,
/// else turn by turn by distance, and at the end of a one-round game a last column by
/// score, since the score (with its bonuses) and not the distance decides.
fn chart_columns(view: &PublicView) -> Vec<Column> {
    let by_rounds = view.history.len() >= 2;
    let mut columns: Vec<Column> = if by_rounds {
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
    if !by_rounds && view.finished && !columns.is_empty() {
        let scores: Vec<i64> = view
            .teams
            .iter()
            .take(MAX_TEAMS)
            .map(|t| geometry::score(view, t))
            .collect();
        let entries = scores
            .iter()
            .zip(ranks(&scores))
            .enumerate()
            .map(|(who, (points, rank))| Entry {
                who,
                rank,
                figure: Some(points.to_string()),
            })
            .collect();
        columns.push(Column::new("score".into(), entries));
    }
    columns
}

/// The race chart: round by round by total score once there are two rounds or more, else
/// turn by turn by distance through the round (see [`chart_columns`]).
pub fn race_chart(view: &PublicView) -> Result<Picture, RenderError> {
    if view.teams.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let casts = casts(fonts()?, view);
    let by_rounds = view.history.len() >= 2;
    let columns = chart_columns(view);
    let scored = !by_rounds && view.finished && !columns.is_empty();
    let (unit, legend) = if by_rounds {
        (
            "round",
            "Each box: team, and its total score after the round. Shaded: tied.".to_string(),
        )
    } else {
        (
            "turn",
            format!(
                "Each box: team, and its {} after the turn of the table{}. Shaded: tied.",
                view.unit,
                if scored {
                    "; last, its score, which decides"
                } else {
                    ""
                }
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
mod tests;
