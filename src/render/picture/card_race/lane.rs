//! One team's lane in the turn picture, as drawn: the card with its players, pill and
//! score, the ruler to the trip with the car at its distance, and the car's signs and
//! immunities. Where the lanes go is the layout's business ([`super::geometry::Layout`]).

use super::super::canvas::{Align, Canvas};
use super::super::font::Weight;
use super::super::palette::{CARD, INK, MUTED, RULE, Rgb};
use super::geometry::{BAR, Casts, Layout, ruler_x, score};
use crate::games::card_race::Card;
use crate::games::card_race::game_views::{PublicView, TeamView};

/// The ruler's groove.
pub(super) const GROOVE: Rgb = Rgb(0xe4, 0xe0, 0xd6);
/// Signs: vermillion for what stops or hampers a car, bluish green for rolling, yellow for
/// a hazard (Okabe and Ito's colours, and every sign has its words beside it).
const STOP_RED: Rgb = Rgb(0xd5, 0x5e, 0x00);
const GO_GREEN: Rgb = Rgb(0x00, 0x9e, 0x73);
const HAZARD_YELLOW: Rgb = Rgb(0xf0, 0xe4, 0x42);
/// Immunity badges.
const BADGE: Rgb = Rgb(0xdc, 0xe9, 0xf5);
const SHIELD: Rgb = Rgb(0x00, 0x72, 0xb2);

/// One sign on a lane: what it says, and how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sign {
    Rolling,
    /// A red light, or waiting for a green light.
    Stop,
    /// Out of gas, flat tire, accident.
    Hazard,
    Limit,
    Counterflow,
}

/// The signs on a lane, with their words, in reading order.
pub(super) fn signs(yards: bool, t: &TeamView) -> Vec<(Sign, String)> {
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
pub(super) fn tick_step(target: u32) -> u32 {
    [25, 50, 100, 200, 250, 500, 1000, 2500, 5000]
        .into_iter()
        .find(|s| target / s <= 10)
        .unwrap_or(target.div_ceil(10).max(1))
}

/// One team's lane, and what drawing it reads.
/// Written before a team's score in a game of several rounds while it is played: this
/// round's part of it. A one-round game, and a finished one, show the one total alone
/// (the tableau's part lacks the round's end bonuses the total has).
pub(super) fn round_part(view: &PublicView, t: &TeamView) -> Option<String> {
    (!view.finished && view.rounds != 1 && t.total != 0)
        .then(|| format!("this round {} · ", t.round_score))
}

pub(super) struct Lane<'a> {
    pub(super) view: &'a PublicView,
    pub(super) casts: &'a Casts,
    /// The team's index, into `casts.teams`.
    pub(super) i: usize,
    pub(super) team: &'a TeamView,
    /// The card: left, top, width, height.
    pub(super) rect: (f32, f32, f32, f32),
    /// What the pill says ("WINNER", "to play"); the lane has a heavy border then.
    pub(super) pill: Option<&'a str>,
}

impl Lane<'_> {
    /// Draws the lane: the card, row one (players, pill, score), the ruler, and row three
    /// (signs, immunities).
    pub(super) fn draw(&self, c: &mut Canvas, l: &Layout) {
        self.card(c);
        let name_x = self.tokens(c);
        let score_w = self.score(c);
        let name_right = self.pill(c, self.right() - score_w - 12.0);
        self.name(c, name_x, name_right);
        self.ruler(c, l);
        self.flag(c, l);
        self.car(c, l);
        let sx = self.signs(c);
        immunities(
            c,
            self.team,
            self.view.yards_names,
            sx,
            self.right(),
            self.signs_y(),
        );
    }

    /// Row one's centre line.
    fn row(&self) -> f32 {
        self.rect.1 + 28.0
    }

    /// Where row one's score and row three's immunities end.
    fn right(&self) -> f32 {
        let (x, _, w, _) = self.rect;
        x + w - 16.0
    }

    /// The ruler's centre line.
    fn bar_y(&self) -> f32 {
        self.rect.1 + BAR
    }

    /// Row three's centre line.
    fn signs_y(&self) -> f32 {
        let (_, y, _, h) = self.rect;
        y + h - 25.0
    }

    /// The border as two fills; heavy for the lane the race waits on, or the winner.
    fn card(&self, c: &mut Canvas) {
        let (x, y, w, h) = self.rect;
        let b = if self.pill.is_some() { 3.0 } else { 1.5 };
        let edge = if self.pill.is_some() { INK } else { RULE };
        c.rounded(x - b / 2.0, y - b / 2.0, w + b, h + b, 12.0 + b / 2.0, edge);
        c.rounded(x + b / 2.0, y + b / 2.0, w - b, h - b, 12.0 - b / 2.0, CARD);
    }

    /// The players' tokens; returns where the team's name starts.
    fn tokens(&self, c: &mut Canvas) -> f32 {
        let seats = &self.casts.seats;
        let mut tx = self.rect.0 + 16.0 + 17.0;
        for m in self.team.members.iter().take(4) {
            c.token(
                tx,
                self.row(),
                17.0,
                &seats.style(m.index()),
                seats.label(m.index()),
            );
            tx += 42.0;
        }
        tx - 17.0 + 4.0
    }

    /// The score at the right, with [`round_part`] before it; returns its width.
    fn score(&self, c: &mut Canvas) -> f32 {
        let (view, row, right) = (self.view, self.row(), self.right());
        let total = score(view, self.team);
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
        if let Some(part) = round_part(view, self.team) {
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
        score_w
    }

    /// The pill, ending at `right`; returns where the team's name must end.
    fn pill(&self, c: &mut Canvas, right: f32) -> f32 {
        let Some(p) = self.pill else {
            return right;
        };
        let row = self.row();
        let size = 15.0;
        let pw = c.measure(Weight::Bold, size, p) + 20.0;
        let px = right - pw;
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
        px - 10.0
    }

    /// The team's name between its tokens and the pill, cut short if need be.
    fn name(&self, c: &mut Canvas, left: f32, right: f32) {
        let name = c.fit(
            Weight::Bold,
            22.0,
            self.casts.teams.name(self.i),
            (right - left).max(0.0),
        );
        c.text(
            left,
            self.row() + 8.0,
            &name,
            22.0,
            Weight::Bold,
            INK,
            Align::Left,
        );
    }

    /// The ruler: a groove to the trip, filled in the team's colour to its distance, and
    /// ticks below.
    fn ruler(&self, c: &mut Canvas, l: &Layout) {
        let (view, bar_y) = (self.view, self.bar_y());
        let (rl, rr) = (l.ruler_left, l.ruler_right);
        c.rounded(rl - 5.0, bar_y - 6.0, rr - rl + 10.0, 12.0, 6.0, GROOVE);
        let at = ruler_x(l, self.team.distance, view.target);
        if self.team.distance > 0 {
            let fill = self.casts.teams.style(self.i).fill;
            c.rounded(rl - 5.0, bar_y - 6.0, at - rl + 10.0, 12.0, 6.0, fill);
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
    }

    /// The finish: a chequered flag at the trip.
    fn flag(&self, c: &mut Canvas, l: &Layout) {
        let bar_y = self.bar_y();
        let fx = l.ruler_right + 14.0;
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
    }

    /// The car at its distance on the ruler, with the distance above it.
    fn car(&self, c: &mut Canvas, l: &Layout) {
        let (x, _, w, _) = self.rect;
        let bar_y = self.bar_y();
        let at = ruler_x(l, self.team.distance, self.view.target);
        let style = self.casts.teams.style(self.i);
        c.token(at, bar_y, 19.0, &style, self.casts.teams.label(self.i));
        let dist = self.team.distance.to_string();
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
    }

    /// Row three's signs with their words, from the left; returns where they end.
    fn signs(&self, c: &mut Canvas) -> f32 {
        let sy = self.signs_y();
        let mut sx = self.rect.0 + 16.0;
        // More signs than a car can carry would only run off the card.
        for (sign, words) in signs(self.view.yards_names, self.team).into_iter().take(6) {
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
        sx
    }
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
