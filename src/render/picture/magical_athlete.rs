//! Magical Athlete in pictures: the oval of 30 spaces with the track's special spaces
//! (stars, rocks, arrows), racers as tokens in their player's colour with the racer's
//! initials, stacked outward from the space they share, tripped racers lying on their
//! side with the word `TRIPPED`, the finish order in the infield, and the players' chips
//! and points so far (the turn picture); and the season's lap chart, a column per race
//! with each player's points after it (the race chart).
//!
//! The rules: docs/rules/magical-athlete.md.

use super::canvas::{Align, Canvas, Picture};
use super::cast::{Cast, MAX_CAST, drawable};
use super::chart::{self, Column, Entry, LapChart};
use super::error::RenderError;
use super::font::Weight;
use super::frame::{HEADER, MARGIN, WIDTH, header};
use super::palette::{
    CARD, INK, MUTED, PAGE, RULE, Rgb, SeatStyle, seat_style, seat_styles, token_labels,
};
use crate::games::magical_athlete::race::Status;
use crate::games::magical_athlete::track::{FINISH, Special, Track};
use crate::games::magical_athlete::{PublicView, RacerView};
use crate::render::ordinal;

/// The track's ground (as the other games'), its tiles, and the infield.
const TRACK: Rgb = Rgb(0x4a, 0x51, 0x60);
const TILE: Rgb = Rgb(0xf3, 0xf1, 0xeb);
const INFIELD: Rgb = Rgb(0xe3, 0xe8, 0xd8);
/// Special spaces: each also has its own shape and words, so colour never carries it alone.
const STAR: Rgb = Rgb(0xe6, 0x9f, 0x00);
const STAR_TILE: Rgb = Rgb(0xfb, 0xec, 0xb8);
const ROCK: Rgb = Rgb(0x6f, 0x66, 0x5c);
const ROCK_TILE: Rgb = Rgb(0xd9, 0xd3, 0xcb);
const AHEAD_TILE: Rgb = Rgb(0xc4, 0xe6, 0xd9);
const BACK_TILE: Rgb = Rgb(0xf6, 0xd0, 0xb8);
const GOLD: Rgb = Rgb(0xe6, 0xb4, 0x22);
const SILVER: Rgb = Rgb(0xb4, 0xb9, 0xc1);
const BRONZE: Rgb = Rgb(0xb8, 0x7a, 0x45);

/// The ground's width across, a tile's side, a token's radius and the step between
/// stacked tokens.
const BAND: f32 = 50.0;
const TILE_SIDE: f32 = 40.0;
const TOKEN_R: f32 = 17.0;
const STACK_STEP: f32 = 40.0;
/// Stacked tokens per column before a stack starts another column beside it, so the
/// picture keeps one size all race whoever shares a space (12 racers on the Start are six
/// columns of two).
const DEEP: usize = 2;
/// The room outside the ground's centre line for a stack `n` deep.
const fn reach(n: usize) -> f32 {
    BAND / 2.0 + 4.0 + TOKEN_R + 2.5 + (n as f32 - 1.0) * STACK_STEP + TOKEN_R + 4.0
}
const ROW_H: f32 = 40.0;
const TABLE_HEAD: f32 = 34.0;
/// Racers drawn at most; a scenario has up to 12, a season one per player.
const MAX_RACERS: usize = 24;

/// The track's centre line: a stadium of two straights and two half circles. Space 0
/// (the Start) is where the left curve meets the bottom straight; racers run right along
/// the bottom, up round the right curve (corners 12 and 15), back along the top, and down
/// round the left curve (corner 29) to the finish line between 29 and the Start.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Oval {
    /// Centres of the left and right half circles, and their radius.
    left: f32,
    right: f32,
    cy: f32,
    r: f32,
}

impl Oval {
    fn straight(&self) -> f32 {
        self.right - self.left
    }

    fn perimeter(&self) -> f32 {
        2.0 * self.straight() + 2.0 * std::f32::consts::PI * self.r
    }

    /// The point `t` along the centre line from the Start, and the outward normal there.
    fn at(&self, t: f32) -> ((f32, f32), (f32, f32)) {
        let p = self.perimeter();
        let t = t.rem_euclid(p);
        let s = self.straight();
        let arc = std::f32::consts::PI * self.r;
        if t < s {
            ((self.left + t, self.cy + self.r), (0.0, 1.0))
        } else if t < s + arc {
            let a = std::f32::consts::FRAC_PI_2 - (t - s) / self.r;
            let n = (a.cos(), a.sin());
            ((self.right + self.r * n.0, self.cy + self.r * n.1), n)
        } else if t < 2.0 * s + arc {
            ((self.right - (t - s - arc), self.cy - self.r), (0.0, -1.0))
        } else {
            let a = -std::f32::consts::FRAC_PI_2 - (t - 2.0 * s - arc) / self.r;
            let n = (a.cos(), a.sin());
            ((self.left + self.r * n.0, self.cy + self.r * n.1), n)
        }
    }

    /// Space `k`'s centre and outward normal.
    fn space(&self, k: f32) -> ((f32, f32), (f32, f32)) {
        self.at(k * self.perimeter() / f32::from(FINISH))
    }

    /// The centre line at `offset` out from it (negative: in), as a closed polyline.
    fn ring(&self, offset: f32) -> Vec<(f32, f32)> {
        let n = 160;
        (0..=n)
            .map(|i| {
                let ((x, y), (nx, ny)) = self.at(self.perimeter() * i as f32 / n as f32);
                (x + nx * offset, y + ny * offset)
            })
            .collect()
    }
}

/// Where everything goes.
struct Layout {
    oval: Oval,
    height: f32,
    /// The standings table: top.
    table_top: f32,
}

fn layout(rows: usize) -> Layout {
    let side = reach(DEEP);
    let up = reach(DEEP);
    let r = 150.0;
    let left = MARGIN + side + r;
    let right = WIDTH - MARGIN - side - r;
    let cy = HEADER + 8.0 + up + r;
    let table_top = cy + r + up + 8.0;
    let height = table_top + TABLE_HEAD + rows as f32 * ROW_H + 12.0 + MARGIN;
    Layout {
        oval: Oval {
            left: left.min(right),
            right,
            cy,
            r,
        },
        height,
        table_top,
    }
}

/// Racers by index into the view's list: their player's colour, and their own initials.
fn racer_cast(view: &PublicView) -> Cast {
    let racers: Vec<&RacerView> = view.racers.iter().take(MAX_RACERS).collect();
    let Ok(fonts) = super::font::fonts() else {
        return Cast::from_parts(Vec::new(), Vec::new(), Vec::new());
    };
    let names: Vec<String> = racers.iter().map(|r| drawable(fonts, &r.name)).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let labels = token_labels(fonts, &refs);
    // Each racer in its player's colour, chosen as a seat's is (a player named Red, red).
    let mut players: Vec<&str> = Vec::new();
    for p in &view.players {
        let i = p.seat.index();
        if i < MAX_RACERS && players.len() <= i {
            players.resize(i.saturating_add(1), "");
        }
        if let Some(slot) = players.get_mut(i) {
            *slot = p.name.as_str();
        }
    }
    let by_seat = seat_styles(&players);
    let styles: Vec<SeatStyle> = racers
        .iter()
        .map(|r| {
            let i = r.seat.index();
            by_seat.get(i).copied().unwrap_or_else(|| seat_style(i))
        })
        .collect();
    Cast::from_parts(styles, labels, names)
}

fn status(view: &PublicView) -> String {
    match view.phase.as_str() {
        "draft" => format!("The draft, round {}", view.draft_round),
        "pick" if view.races() == 1 => "Picking racers".into(),
        "pick" => format!("Picking racers for race {}", of_races(view)),
        "race" if view.races() == 1 => "The race".into(),
        "race" => format!("Race {}", of_races(view)),
        _ => "Final scores".into(),
    }
}

/// "2 of 4": the race being run or picked, of the game's races.
fn of_races(view: &PublicView) -> String {
    format!("{} of {}", view.race.max(1), view.races())
}

/// The track being raced, or the next on the schedule.
fn track_of(view: &PublicView) -> Track {
    view.track
        .or_else(|| {
            view.schedule
                .get(usize::from(view.race.saturating_sub(1)))
                .copied()
        })
        .unwrap_or(Track::Wild)
}

/// The turn picture.
pub fn track(view: &PublicView) -> Result<Picture, RenderError> {
    if view.players.is_empty() && view.racers.is_empty() {
        return Err(RenderError::NoRunners);
    }
    if view.players.len() > MAX_CAST || view.racers.len() > MAX_RACERS {
        return Err(RenderError::Damaged("more racers than a race can hold"));
    }
    let rows = table_rows(view).len();
    let l = layout(rows);
    let mut c = Canvas::new(WIDTH as u32, l.height.ceil() as u32, PAGE)?;
    let racing = view.phase == "race";
    let track = track_of(view);
    header(
        &mut c,
        "Magical Athlete",
        &format!("{} · {}", status(view), track.name()),
    );
    draw_track(&mut c, &l.oval, view);
    let cast = racer_cast(view);
    infield(&mut c, &l.oval, view, &cast);
    if racing {
        draw_racers(&mut c, &l.oval, view, &cast);
    }
    table(&mut c, view, &cast, l.table_top);
    Ok(c.finish())
}

/// The ground, the tiles with their specials, the numbers every five spaces, and the
/// chequered finish line between space 29 and the Start.
fn draw_track(c: &mut Canvas, o: &Oval, view: &PublicView) {
    let (inner, outer) = (o.ring(-BAND / 2.0), o.ring(BAND / 2.0));
    c.rounded(
        o.left - o.r + BAND / 2.0,
        o.cy - o.r + BAND / 2.0,
        o.straight() + 2.0 * (o.r - BAND / 2.0),
        2.0 * (o.r - BAND / 2.0),
        o.r - BAND / 2.0,
        INFIELD,
    );
    let mut ground = outer.clone();
    ground.extend(inner.iter().rev());
    c.polygon(&outer, TRACK);
    c.polygon(&inner, INFIELD);
    let specials: Vec<(u8, Special)> = if view.specials.is_empty() {
        track_of(view).specials().to_vec()
    } else {
        view.specials.clone()
    };
    for k in 0..FINISH {
        let ((x, y), (nx, ny)) = o.space(f32::from(k));
        let special = specials.iter().find(|(s, _)| *s == k).map(|(_, sp)| *sp);
        let fill = match special {
            Some(Special::Star) => STAR_TILE,
            Some(Special::Rock) => ROCK_TILE,
            Some(Special::Arrow(n)) if n > 0 => AHEAD_TILE,
            Some(Special::Arrow(_)) => BACK_TILE,
            None => TILE,
        };
        let h = TILE_SIDE / 2.0;
        c.rounded(x - h, y - h, TILE_SIDE, TILE_SIDE, 7.0, fill);
        match special {
            Some(Special::Star) => star(c, x, y, 15.0),
            Some(Special::Rock) => rock(c, x, y),
            Some(Special::Arrow(n)) => {
                let text = if n > 0 {
                    format!("+{n}")
                } else {
                    format!("\u{2212}{}", n.unsigned_abs())
                };
                c.text_centred(x, y, &text, 19.0, Weight::Bold, INK);
            }
            None if k == 0 => {
                c.text_centred(x, y - 6.0, "GO", 15.0, Weight::Bold, INK);
                c.text_centred(x, y + 9.0, "0", 11.0, Weight::Regular, MUTED);
            }
            None => {}
        }
        // Numbers inside the ground, every five spaces and on every special.
        if k % 5 == 0 || special.is_some() {
            let d = BAND / 2.0 + 13.0;
            c.text_centred(
                x - nx * d,
                y - ny * d,
                &k.to_string(),
                15.0,
                Weight::Bold,
                MUTED,
            );
        }
    }
    // The finish line, half a space before the Start.
    let ((x, y), (nx, ny)) = o.space(-0.5);
    let (tx, ty) = (-ny, nx);
    let sq = 6.25;
    let cells = (BAND / sq) as usize;
    for i in 0..cells {
        for row in 0..2 {
            let colour = if (i + row) % 2 == 0 { Rgb::WHITE } else { INK };
            let a = -BAND / 2.0 + i as f32 * sq;
            let b = (row as f32 - 1.0) * sq;
            let p = |s: f32, t: f32| (x + nx * s + tx * t, y + ny * s + ty * t);
            c.polygon(
                &[p(a, b), p(a + sq, b), p(a + sq, b + sq), p(a, b + sq)],
                colour,
            );
        }
    }
}

/// A five-pointed star, outlined.
fn star(c: &mut Canvas, cx: f32, cy: f32, r: f32) {
    let points = |r: f32| -> Vec<(f32, f32)> {
        (0..10)
            .map(|i| {
                let a = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
                let rr = if i % 2 == 0 { r } else { r * 0.45 };
                (cx + rr * a.cos(), cy + 1.0 + rr * a.sin())
            })
            .collect()
    };
    c.polygon(&points(r + 2.0), INK);
    c.polygon(&points(r), STAR);
}

/// A rock: a lumpy grey stone.
fn rock(c: &mut Canvas, cx: f32, cy: f32) {
    let shape = [
        (-14.0, 8.0),
        (-12.0, -2.0),
        (-6.0, -9.0),
        (3.0, -11.0),
        (11.0, -5.0),
        (14.0, 4.0),
        (10.0, 9.0),
    ];
    let outline: Vec<(f32, f32)> = shape
        .iter()
        .map(|(x, y)| (cx + x * 1.15, cy + 2.0 + y * 1.15))
        .collect();
    let body: Vec<(f32, f32)> = shape.iter().map(|(x, y)| (cx + x, cy + 2.0 + y)).collect();
    c.polygon(&outline, INK);
    c.polygon(&body, ROCK);
    c.polyline(
        &[(cx - 5.0, cy - 3.0), (cx + 1.0, cy - 6.0)],
        Rgb(0xa8, 0xa0, 0x96),
        2.0,
    );
}

/// Where each racer on the track is drawn: out from its space, a stack of the racers
/// sharing it (in the view's order), in columns when the stack is deep.
fn racer_spots(o: &Oval, view: &PublicView) -> Vec<(usize, f32, f32)> {
    let mut out = Vec::new();
    for k in 0..FINISH {
        let here: Vec<usize> = view
            .racers
            .iter()
            .take(MAX_RACERS)
            .enumerate()
            .filter(|(_, r)| r.status == Status::Racing && r.space == k)
            .map(|(i, _)| i)
            .collect();
        if here.is_empty() {
            continue;
        }
        let ((x, y), (nx, ny)) = o.space(f32::from(k));
        let per_column = DEEP;
        let columns = here.len().div_ceil(per_column);
        let (tx, ty) = (-ny, nx);
        for (j, who) in here.into_iter().enumerate() {
            let depth = (j % per_column) as f32;
            let column = (j / per_column) as f32 - (columns as f32 - 1.0) / 2.0;
            let out_by = BAND / 2.0 + 4.0 + TOKEN_R + 2.5 + depth * STACK_STEP;
            let along = column * (2.0 * TOKEN_R + 5.0);
            out.push((
                who,
                x + nx * out_by + tx * along,
                y + ny * out_by + ty * along,
            ));
        }
    }
    out
}

fn draw_racers(c: &mut Canvas, o: &Oval, view: &PublicView, cast: &Cast) {
    // A thin line from each stack's first token to its space, so it reads as that space's.
    for k in 0..FINISH {
        if view
            .racers
            .iter()
            .any(|r| r.status == Status::Racing && r.space == k)
        {
            let ((x, y), (nx, ny)) = o.space(f32::from(k));
            let a = TILE_SIDE / 2.0;
            let b = BAND / 2.0 + 5.0;
            c.polyline(
                &[(x + nx * a, y + ny * a), (x + nx * b, y + ny * b)],
                Rgb::WHITE,
                3.0,
            );
        }
    }
    let mut tripped = Vec::new();
    for (who, x, y) in racer_spots(o, view) {
        let style = cast.style(who);
        let label = cast.label(who);
        match view.racers.get(who) {
            Some(r) if r.tripped => {
                lying_token(c, x, y, &style, label);
                tripped.push((x, y));
            }
            _ => c.token(x, y, TOKEN_R, &style, label),
        }
    }
    // The tags last, so no token stacked beside a tripped one covers its word.
    for (x, y) in tripped {
        tripped_tag(c, x, y);
    }
}

/// A tripped racer: its token fallen on its side (a tilted ellipse, seen edge-on), its
/// initials still on it ([`tripped_tag`] puts the word under it).
fn lying_token(c: &mut Canvas, cx: f32, cy: f32, style: &SeatStyle, label: &str) {
    let tilt: f32 = -0.18;
    let ellipse = |a: f32, b: f32| -> Vec<(f32, f32)> {
        (0..48)
            .map(|i| {
                let t = i as f32 * std::f32::consts::TAU / 48.0;
                let (x, y) = (a * t.cos(), b * t.sin());
                (
                    cx + x * tilt.cos() - y * tilt.sin(),
                    cy - 4.0 + x * tilt.sin() + y * tilt.cos(),
                )
            })
            .collect()
    };
    let (a, b) = (TOKEN_R * 1.3, TOKEN_R * 0.7);
    c.polygon(&ellipse(a + 3.0, b + 3.0), Rgb(0x22, 0x22, 0x28));
    c.polygon(&ellipse(a + 2.0, b + 2.0), Rgb::WHITE);
    c.polygon(&ellipse(a, b), style.fill);
    let size = c.size_to_fit(Weight::Bold, 13.0, label, 2.0 * a - 8.0);
    c.text_centred(cx, cy - 4.0, label, size, Weight::Bold, style.ink);
}

/// "RACE 2 OF 4", or "THE RACE" when the game is one race.
fn race_title(view: &PublicView) -> String {
    if view.races() == 1 {
        "THE RACE".into()
    } else {
        format!("RACE {}", of_races(view)).to_uppercase()
    }
}

fn count_word(n: usize) -> String {
    match n {
        1 => "one".into(),
        4 => "four".into(),
        n => n.to_string(),
    }
}

/// The word `TRIPPED` under a tripped racer's token, drawn over everything near it.
fn tripped_tag(c: &mut Canvas, cx: f32, cy: f32) {
    let word = "TRIPPED";
    let w = c.measure(Weight::Bold, TAG_TEXT, word) + 10.0;
    c.rounded(cx - w / 2.0, cy + 8.0, w, TAG_HEIGHT, 5.0, INK);
    let mid = cy + 8.0 + TAG_HEIGHT / 2.0;
    c.text_centred(cx, mid, word, TAG_TEXT, Weight::Bold, Rgb::WHITE);
}

/// The tag's letters and box: at 10 px they shrank to 5 at a phone's 400 px, and read
/// "RIPPED"; at 14 they are 7 there.
const TAG_TEXT: f32 = 14.0;
const TAG_HEIGHT: f32 = 19.0;

/// The infield's title and the line under it.
fn infield_heads(view: &PublicView) -> (String, String) {
    match view.phase.as_str() {
        "race" => (race_title(view), track_of(view).name().to_string()),
        "draft" => (
            "THE DRAFT".to_string(),
            format!(
                "round {}, {} cards in the deck",
                view.draft_round, view.deck_size
            ),
        ),
        "pick" => (
            race_title(view),
            format!("picking racers · {}", track_of(view).name()),
        ),
        _ if view.races() == 1 => ("RACE OVER".to_string(), "one race run".to_string()),
        _ => (
            "SEASON OVER".to_string(),
            format!("{} races run", count_word(view.races())),
        ),
    }
}

/// The infield: the race and track, who is waited on, and the finish order so far.
fn infield(c: &mut Canvas, o: &Oval, view: &PublicView, cast: &Cast) {
    let cx = (o.left + o.right) / 2.0;
    let top = o.cy - o.r + BAND / 2.0 + 56.0;
    let width = o.straight() + o.r;
    let (title, sub) = infield_heads(view);
    c.text_centred(cx, top, &title, 28.0, Weight::Bold, INK);
    let sub = c.fit(Weight::Regular, 17.0, &sub, width);
    c.text_centred(cx, top + 28.0, &sub, 17.0, Weight::Regular, MUTED);
    let mut y = top + 62.0;
    if view.phase == "race" {
        if view.placings.is_empty() && view.eliminated.is_empty() {
            c.text_centred(cx, y, "nobody has finished", 17.0, Weight::Regular, MUTED);
        }
        for (i, kind) in view.placings.iter().enumerate().take(3) {
            let who = view.racers.iter().position(|r| r.racer == *kind);
            let place = ordinal(i as u32 + 1);
            let name = who
                .and_then(|w| view.racers.get(w))
                .map(|r| format!("{} ({})", r.name, r.owner))
                .unwrap_or_else(|| kind.name().to_string());
            let medal = if i == 0 { GOLD } else { SILVER };
            let x0 = cx - width * 0.32;
            c.circle(x0, y, 14.0, INK);
            c.circle(x0, y, 12.5, if i < 2 { medal } else { BRONZE });
            c.text_centred(x0, y, &(i + 1).to_string(), 15.0, Weight::Bold, INK);
            if let Some(w) = who {
                c.token(x0 + 34.0, y, 13.0, &cast.style(w), cast.label(w));
            }
            let text = c.fit(Weight::Bold, 19.0, &format!("{place} {name}"), width * 0.55);
            c.text(
                x0 + 56.0,
                y + 7.0,
                &text,
                19.0,
                Weight::Bold,
                INK,
                Align::Left,
            );
            y += 34.0;
        }
        if !view.eliminated.is_empty() {
            let names: Vec<&str> = view.eliminated.iter().map(|k| k.name()).collect();
            let text = c.fit(
                Weight::Regular,
                16.0,
                &format!("out of the race: {}", names.join(", ")),
                width,
            );
            c.text_centred(cx, y, &text, 16.0, Weight::Regular, MUTED);
        }
    }
    if let Some(w) = &view.waiting {
        let bottom = o.cy + o.r - BAND / 2.0 - 44.0;
        let text = c.fit(Weight::Regular, 16.0, &format!("Waiting: {w}"), width);
        c.text_centred(cx, bottom, &text, 16.0, Weight::Regular, INK);
    }
}

/// One line of the table: a player, their racer in this race (if any), their chips.
struct RowData {
    seat: usize,
    name: String,
    racer: Option<usize>,
    doing: String,
    gold: u32,
    silver: u32,
    bronze: i32,
    score: i64,
}

fn table_rows(view: &PublicView) -> Vec<RowData> {
    let racing = view.phase == "race";
    view.players
        .iter()
        .take(MAX_CAST)
        .map(|p| {
            let seat = p.seat.index();
            let racer = if racing {
                view.racers.iter().position(|r| r.seat == p.seat)
            } else {
                None
            };
            let doing = match racer.and_then(|i| view.racers.get(i)) {
                Some(r) => match r.status {
                    Status::Finished(n) => format!("{} finished {}", r.name, ordinal(u32::from(n))),
                    Status::Eliminated(_) => format!("{} is out", r.name),
                    Status::Racing if r.tripped => format!("{} TRIPPED on {}", r.name, r.space),
                    Status::Racing if r.space == 0 => format!("{} at the Start", r.name),
                    Status::Racing => format!("{} on {}", r.name, r.space),
                },
                // At the end, the racers each player raced; none left over.
                None if view.phase == "over" => {
                    let raced: Vec<&str> = p.used.iter().map(|k| k.name()).collect();
                    raced.join(", ")
                }
                None if !racing && !p.hand.is_empty() => {
                    let hand: Vec<&str> = p
                        .hand
                        .iter()
                        .filter(|k| !p.used.contains(k))
                        .map(|k| k.name())
                        .collect();
                    hand.join(", ")
                }
                None => String::new(),
            };
            RowData {
                seat,
                name: p.name.clone(),
                racer,
                doing,
                gold: p.gold.iter().map(|&g| u32::from(g)).sum(),
                silver: p.silver.iter().map(|&s| u32::from(s)).sum(),
                bronze: p.bronze,
                score: p.score,
            }
        })
        .collect()
}

fn chip(c: &mut Canvas, cx: f32, cy: f32, fill: Rgb, word: &str) {
    c.circle(cx, cy, 12.0, INK);
    c.circle(cx, cy, 10.5, fill);
    c.text_centred(cx, cy, word, 12.0, Weight::Bold, INK);
}

/// Players best first: their token (their racer's, or their own in the draft), name,
/// racer and where it is, gold, silver and bronze points, and points so far.
fn table(c: &mut Canvas, view: &PublicView, cast: &Cast, top: f32) {
    let fonts = c.fonts();
    let mut rows = table_rows(view);
    rows.sort_by_key(|r| (std::cmp::Reverse(r.score), r.seat));
    let players: Vec<String> = view.players.iter().map(|p| p.name.clone()).collect();
    let player_cast = Cast::seats(fonts, &players);
    let (x, w) = (MARGIN, WIDTH - 2.0 * MARGIN);
    let h = TABLE_HEAD + rows.len() as f32 * ROW_H + 12.0;
    c.rounded(x - 1.5, top - 1.5, w + 3.0, h + 3.0, 11.5, RULE);
    c.rounded(x, top, w, h, 10.0, CARD);
    let total_x = x + w - 16.0;
    let bronze_x = total_x - 86.0;
    let silver_x = bronze_x - 54.0;
    let gold_x = silver_x - 54.0;
    let head_y = top + TABLE_HEAD / 2.0 + 2.0;
    chip(c, gold_x - 12.0, head_y, GOLD, "G");
    chip(c, silver_x - 12.0, head_y, SILVER, "S");
    chip(c, bronze_x - 12.0, head_y, BRONZE, "B");
    c.text(
        total_x,
        head_y + 6.0,
        "points",
        16.0,
        Weight::Bold,
        MUTED,
        Align::Right,
    );
    c.text(
        x + 14.0,
        head_y + 6.0,
        "player · racer",
        16.0,
        Weight::Bold,
        MUTED,
        Align::Left,
    );
    for (i, row) in rows.iter().enumerate() {
        let cy = top + TABLE_HEAD + (i as f32 + 0.5) * ROW_H + 4.0;
        if i % 2 == 0 {
            c.rect(
                x + 6.0,
                cy - ROW_H / 2.0,
                w - 12.0,
                ROW_H,
                Rgb(0xf4, 0xf2, 0xec),
            );
        }
        match row.racer {
            Some(r) => c.token(x + 30.0, cy, 14.0, &cast.style(r), cast.label(r)),
            None => c.token(
                x + 30.0,
                cy,
                14.0,
                &player_cast.style(row.seat),
                player_cast.label(row.seat),
            ),
        }
        let name = c.fit(Weight::Bold, 20.0, &drawable(fonts, &row.name), 170.0);
        let nw = c.text(
            x + 54.0,
            cy + 7.0,
            &name,
            20.0,
            Weight::Bold,
            INK,
            Align::Left,
        );
        let room = gold_x - 40.0 - (x + 54.0 + nw + 12.0);
        let doing = c.fit(Weight::Regular, 17.0, &drawable(fonts, &row.doing), room);
        c.text(
            x + 54.0 + nw + 12.0,
            cy + 6.0,
            &doing,
            17.0,
            Weight::Regular,
            MUTED,
            Align::Left,
        );
        for (value, right) in [
            (row.gold.to_string(), gold_x),
            (row.silver.to_string(), silver_x),
            (row.bronze.to_string(), bronze_x),
        ] {
            c.text(
                right,
                cy + 7.0,
                &value,
                19.0,
                Weight::Regular,
                INK,
                Align::Right,
            );
        }
        c.text(
            total_x,
            cy + 8.0,
            &row.score.to_string(),
            24.0,
            Weight::Bold,
            INK,
            Align::Right,
        );
    }
}

/// The season's lap chart: a column per race run, players placed by points after it,
/// each box showing those points. The view keeps the points after each race
/// (`PublicView::season`).
pub fn race_chart(view: &PublicView) -> Result<Picture, RenderError> {
    if view.players.is_empty() {
        return Err(RenderError::NoRunners);
    }
    let fonts = super::font::fonts()?;
    let names: Vec<String> = view.players.iter().map(|p| p.name.clone()).collect();
    let cast = Cast::seats(fonts, &names);
    let columns: Vec<Column> = view
        .season
        .iter()
        .enumerate()
        .map(|(i, points)| {
            let entries = points
                .iter()
                .enumerate()
                .take(MAX_CAST)
                .map(|(who, &p)| Entry {
                    who,
                    rank: 1 + points.iter().filter(|&&q| q > p).count() as u32,
                    figure: Some(p.to_string()),
                })
                .collect();
            Column::new(format!("R{}", i + 1), entries)
        })
        .collect();
    let status = chart_status(view, columns.len());
    chart::draw(
        LapChart {
            title: "Magical Athlete",
            status: &status,
            unit: "race",
            columns,
            min_slots: view.players.len(),
            legend: "Each box: the player's points after that race (gold, silver and bronze)."
                .into(),
            empty: "No race has been run yet.",
        },
        &cast,
    )
}

/// The race chart's status line, after `races` races.
fn chart_status(view: &PublicView, races: usize) -> String {
    match (view.finished, view.races()) {
        (true, 1) => "Final scores, one race".to_string(),
        (false, 1) => "One race, not yet run".to_string(),
        (true, n) => format!("Final scores, {n} races"),
        (false, n) => format!("After race {races} of {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Seat};
    use crate::games::magical_athlete::racers::Kind;
    use crate::games::magical_athlete::{MagicalAthlete, Options};

    /// A one-race game's pictures follow its one race: no "of 4", no season, and the final
    /// table names only the racers each player raced.
    #[test]
    fn one_race_pictures_say_one_race() {
        use crate::engine::apply_option_text;
        let o = apply_option_text(&Options::default(), "races=1").unwrap();
        let views = MagicalAthlete::played_views(&o, &["Ann", "Ben", "Cat"], 4);
        let mut words = Vec::new();
        for v in &views {
            let (title, sub) = infield_heads(v);
            words.extend([status(v), title, sub, chart_status(v, v.season.len())]);
        }
        for w in &words {
            let season = ["of ", "OF ", "SEASON", "races"];
            assert!(!season.iter().any(|s| w.contains(s)), "{w}");
        }
        for w in [
            "Picking racers",
            "The race",
            "THE RACE",
            "RACE OVER",
            "one race run",
        ] {
            assert!(words.iter().any(|x| x == w), "{w} in {words:?}");
        }
        let last = views.last().unwrap();
        assert_eq!(chart_status(last, 1), "Final scores, one race");
        for (row, p) in table_rows(last).iter().zip(&last.players) {
            assert_eq!(p.used.len(), 1);
            assert_eq!(row.doing, p.used[0].name(), "{} raced one racer", p.name);
        }
        let four = MagicalAthlete::played_views(&Options::default(), &["Ann", "Ben"], 4);
        let last = four.last().unwrap();
        assert_eq!(infield_heads(last).1, "four races run");
        assert_eq!(chart_status(last, 4), "Final scores, 4 races");
        assert!(four.iter().any(|v| status(v) == "Race 3 of 4"));
    }

    /// Three racers on one space of the bottom straight stand in two columns: the word
    /// under the tripped one stays whole, no neighbour's token over it (it read "RIPPED").
    #[test]
    fn the_tripped_tag_is_never_covered() {
        let mut g = MagicalAthlete::scenario(
            &["Ann", "Ben"],
            Track::Mild,
            &[
                (Kind::Legs, Seat(0), 3),
                (Kind::Banana, Seat(1), 3),
                (Kind::Coach, Seat(1), 3),
            ],
            Seat(1),
            Options::default(),
        );
        if let Some(r) = g.race_mut() {
            r.racers[0].tripped = true;
        }
        g.begin();
        let view = g.public_view();
        let p = track(&view).unwrap();
        let l = layout(table_rows(&view).len());
        let (_, cx, cy) = racer_spots(&l.oval, &view)
            .into_iter()
            .find(|s| s.0 == 0)
            .unwrap();
        // The tag alone on a blank page: inside its box the race picture must match it.
        let mut alone = Canvas::new(p.width(), p.height(), PAGE).unwrap();
        tripped_tag(&mut alone, cx, cy);
        let alone = alone.finish();
        let (a, b) = (p.rgb(), alone.rgb());
        let mut covered = Vec::new();
        for dy in 11..25 {
            for dx in 0..50 {
                let (x, y) = ((cx - 25.0) as usize + dx, (cy as usize) + dy);
                let i = (y * p.width() as usize + x) * 3;
                if (0..3).any(|k| a[i + k].abs_diff(b[i + k]) > 24) {
                    covered.push((x, y));
                }
            }
        }
        assert!(covered.is_empty(), "something over the tag at {covered:?}");
        // At a phone's 400 px (half size) the tag is at least 9 px tall: its white
        // letters span at least 12 rows here.
        let rows = (0..30)
            .filter(|dy| {
                let y = cy as usize + 8 + dy;
                (0..60).any(|dx| {
                    let i = (y * p.width() as usize + (cx - 30.0) as usize + dx) * 3;
                    let [r, g, bl] = [b[i], b[i + 1], b[i + 2]];
                    r > 230 && g > 230 && bl > 230
                })
            })
            .count();
        assert!(rows >= 9, "{rows} rows of letters");
    }

    /// Racers take their players' colours, chosen by name: a player named Red races red.
    #[test]
    fn a_player_named_red_races_in_red() {
        let g = MagicalAthlete::scenario(
            &["Ann", "Red"],
            Track::Mild,
            &[(Kind::Legs, Seat(0), 3), (Kind::Banana, Seat(1), 5)],
            Seat(0),
            Options::default(),
        );
        let cast = racer_cast(&g.public_view());
        assert_eq!(cast.style(1).fill, super::super::palette::SEAT_COLOURS[7]);
        assert_eq!(cast.style(0).fill, seat_style(0).fill);
    }
}
