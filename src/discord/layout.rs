//! Discord messages as plain data: a [`Post`] laid out as
//! embeds and components within Discord's documented limits, and the `custom_id`s that
//! buttons and menus carry. Nothing here talks to Discord, so every limit is unit-tested;
//! `dress` turns a [`Layout`] into serenity builders.

use crate::referee::when::Zone;

use crate::engine::{Choice, Seat};
use crate::referee::announce::{Announcement, Target};
use crate::render::message::{Picture, Post, Style};
use crate::render::post::present;
use crate::vocab::{CampaignId, Phase};

/// Discord's limits (developer docs: message, embed and component objects).
pub mod limits {
    pub const CONTENT: usize = 2000;
    pub const EMBEDS: usize = 10;
    pub const EMBED_TOTAL: usize = 6000;
    pub const TITLE: usize = 256;
    pub const DESCRIPTION: usize = 4096;
    pub const FIELDS: usize = 25;
    pub const FIELD_NAME: usize = 256;
    pub const FIELD_VALUE: usize = 1024;
    pub const FOOTER: usize = 2048;
    pub const ROWS: usize = 5;
    pub const BUTTONS_PER_ROW: usize = 5;
    pub const SELECT_OPTIONS: usize = 25;
    pub const CUSTOM_ID: usize = 100;
    pub const BUTTON_LABEL: usize = 80;
    pub const OPTION_TEXT: usize = 100;
    pub const PLACEHOLDER: usize = 150;
    pub const ATTACHMENT_DESCRIPTION: usize = 1024;
    /// The upload limit for a message's files without boosts (10 MiB).
    pub const UPLOAD_BYTES: usize = 10 * 1024 * 1024;
}

/// One embed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmbedSpec {
    pub title: String,
    pub description: String,
    pub fields: Vec<(String, String)>,
    pub footer: Option<String>,
    /// The embed's image: `attachment://NAME` for a picture uploaded with the message.
    pub image: Option<String>,
}

impl EmbedSpec {
    /// Characters that count towards the 6000 of a message.
    pub fn size(&self) -> usize {
        chars(&self.title)
            + chars(&self.description)
            + self
                .fields
                .iter()
                .map(|(n, v)| chars(n) + chars(v))
                .sum::<usize>()
            + self.footer.as_deref().map(chars).unwrap_or(0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Success,
    Danger,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ButtonSpec {
    pub custom_id: String,
    pub label: String,
    pub style: ButtonStyle,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectSpec {
    pub custom_id: String,
    pub placeholder: String,
    /// (label, value)
    pub options: Vec<(String, String)>,
}

/// One action row: up to five buttons, or one select menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    Buttons(Vec<ButtonSpec>),
    Select(SelectSpec),
}

/// A file to upload with a message (`files[n]` in a multipart request).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSpec {
    pub name: String,
    pub bytes: Vec<u8>,
    /// The attachment's alt text (Discord's `description`).
    pub description: Option<String>,
}

/// A message, before serenity dresses it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub content: Option<String>,
    pub embeds: Vec<EmbedSpec>,
    /// `Some(vec![])` removes a message's components when it is edited.
    pub rows: Option<Vec<Row>>,
    /// The users this message may ping: one id, or several joined by commas (a nudge).
    pub ping: Option<String>,
    /// Files to upload: a channel post's one picture (see [`attach_picture`]).
    pub files: Vec<FileSpec>,
    /// Which picture the post asks for; the courier draws it.
    pub picture: Option<Picture>,
}

pub fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Cuts `text` to at most `max` characters, marking the cut with `…`.
pub fn clip(text: &str, max: usize) -> String {
    if chars(text) <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(1);
    let mut out: String = text.chars().take(keep).collect();
    out.push('…');
    out
}

/// A line cut to at most `max` characters; a code span the cut would leave open is
/// closed, so the rest of the line is not read as markdown.
fn clip_line(line: &str, max: usize) -> String {
    let clipped = clip(line, max);
    if clipped.len() == line.len() || max < 3 {
        return clipped;
    }
    let mut out = clip(line, max.saturating_sub(1));
    let mut escaped = false;
    let mut ticks = 0;
    for c in out.chars() {
        if c == '`' && !escaped {
            ticks += 1;
        }
        escaped = c == '\\' && !escaped;
    }
    if ticks % 2 == 0 {
        return clipped;
    }
    out.pop();
    out.push_str("`…");
    out
}

/// Splits text into pieces of at most `max` characters, at line ends where possible.
fn split_lines(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.split('\n') {
        let line = clip_line(line, max);
        let extra = if cur.is_empty() {
            chars(&line)
        } else {
            chars(&cur) + 1 + chars(&line)
        };
        if extra > max && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push('\n');
        }
        cur.push_str(&line);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Room a piece keeps for closing and reopening a code block it is split in.
const FENCE_ROOM: usize = 8;

/// Pieces of one text, each a whole message: a code block split between two pieces is
/// closed at the end of the first and opened again in the next, so the rest of the
/// block (names in a track) is never read as markdown.
fn closed_fences(pieces: Vec<String>) -> Vec<String> {
    let mut open = false;
    pieces
        .into_iter()
        .map(|piece| {
            let mut out = if open { format!("```\n{piece}") } else { piece };
            let fences = out
                .split('\n')
                .filter(|l| l.trim_start().starts_with("```"))
                .count();
            open = fences % 2 == 1;
            if open {
                out.push_str("\n```");
            }
            out
        })
        .collect()
}

/// A post as embeds within every limit: the narration, the text track and the deadline
/// (as a Discord timestamp, which footers do not render) in the description, said once;
/// sections as fields; a footer without a time as it is. What cannot fit is cut, and says
/// so.
pub fn embeds(post: &Post, plain_footer: Option<&str>) -> Vec<EmbedSpec> {
    let (out, cut) = laid_out(post, plain_footer);
    // Too much for one message: the board's text goes first, since the picture shows it;
    // what happened and the orders are nowhere else in the post.
    if cut && post.track.is_some() && post.picture != Picture::None {
        let mut lighter = post.clone();
        lighter.track = None;
        lighter.body.push_str("\n\n(The board is in the picture.)");
        return laid_out(&lighter, plain_footer).0;
    }
    out
}

/// The embeds, and whether anything had to be cut.
fn laid_out(post: &Post, plain_footer: Option<&str>) -> (Vec<EmbedSpec>, bool) {
    let mut description = post.body.clone();
    if let Some(track) = &post.track {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        // A name in the track cannot end the block (or turn its lines around).
        description.push_str(&format!("```\n{}\n```", crate::render::code_text(track)));
    }
    // A footer with a time moves into the text, where Discord shows the time in the
    // reader's own zone; it is said once, so the footer then holds nothing of it.
    let timed = post.footer.as_deref().filter(|f| f.contains("<t:"));
    if let Some(footer) = timed {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str(footer);
    }
    let footer = match timed {
        Some(_) => None,
        None => plain_footer
            .or(post.footer.as_deref())
            .map(|f| clip(f, limits::FOOTER)),
    };
    let title = clip(&post.title, limits::TITLE);

    let mut budget = limits::EMBED_TOTAL;
    let mut first = EmbedSpec {
        title,
        footer,
        ..EmbedSpec::default()
    };
    budget = budget.saturating_sub(first.size());
    let mut out = vec![];
    // The description, spread over embeds when it is longer than one allows.
    let pieces = closed_fences(split_lines(
        &description,
        limits::DESCRIPTION.saturating_sub(FENCE_ROOM),
    ));
    let mut cut = false;
    for (i, piece) in pieces.into_iter().enumerate() {
        let size = chars(&piece);
        if size > budget || i >= limits::EMBEDS {
            cut = true;
            break;
        }
        budget -= size;
        if i == 0 {
            first.description = piece;
        } else {
            out.push(EmbedSpec {
                description: piece,
                ..EmbedSpec::default()
            });
        }
    }
    out.insert(0, first);
    // Fields, each value within 1024 (a long one continues in the next field).
    'fields: for (name, value) in &post.fields {
        for (i, piece) in split_lines(value, limits::FIELD_VALUE)
            .into_iter()
            .enumerate()
        {
            let name = if i == 0 {
                clip(name, limits::FIELD_NAME)
            } else {
                clip(&format!("{name} (cont.)"), limits::FIELD_NAME)
            };
            let size = chars(&name) + chars(&piece);
            if size > budget {
                cut = true;
                break 'fields;
            }
            let Some(last) = out.last_mut() else {
                break 'fields;
            };
            if last.fields.len() >= limits::FIELDS {
                if out.len() >= limits::EMBEDS {
                    cut = true;
                    break 'fields;
                }
                out.push(EmbedSpec::default());
            }
            budget -= size;
            if let Some(last) = out.last_mut() {
                last.fields.push((name, piece));
            }
        }
    }
    if cut {
        let note = "\n(cut to fit Discord's limits)";
        if let Some(last) = out.last_mut()
            && budget >= chars(note)
            && chars(&last.description) + chars(note) <= limits::DESCRIPTION
        {
            last.description.push_str(note);
        }
    }
    (out, cut)
}

/// What a button or menu asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Join(CampaignId),
    Leave(CampaignId),
    /// Takes a seat the host offered (`/race replace`).
    Accept {
        race: CampaignId,
        seat: Seat,
    },
    /// An order from a prompt, for one race, step and seat.
    Order {
        race: CampaignId,
        step: u32,
        seat: Seat,
        pick: Pick,
    },
    /// A select menu of orders; the pick is in the chosen value.
    OrderMenu {
        race: CampaignId,
        step: u32,
        seat: Seat,
    },
    /// "Other order…": opens a modal to type an order for one race, step and seat.
    OtherOrder {
        race: CampaignId,
        step: u32,
        seat: Seat,
    },
    /// That modal, submitted: its text is read like a typed order.
    ModalOrder {
        race: CampaignId,
        step: u32,
        seat: Seat,
    },
    /// A seat picked in the "Replace seat…" menu, to offer to this member.
    ReplaceSeat {
        race: CampaignId,
        user: u64,
    },
    /// Sets the presser's autopilot in a race (the DM prompt's button).
    Autopilot {
        race: CampaignId,
        setting: crate::engine::Autopilot,
    },
    /// The presser's pre-race choice (Dream Mile's maximum speed), picked after Join.
    SeatChoice(CampaignId),
    /// The final post's Rematch button.
    Rematch(CampaignId),
}

/// Which choice: its order text, or its place in the prompt's list (for long orders).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    Text(String),
    Index(usize),
}

const PREFIX: &str = "pf";

pub fn rematch_id(race: CampaignId) -> String {
    format!("{PREFIX}:rematch:{}", race.0)
}

pub fn join_id(race: CampaignId) -> String {
    format!("{PREFIX}:join:{}", race.0)
}

pub fn leave_id(race: CampaignId) -> String {
    format!("{PREFIX}:leave:{}", race.0)
}

pub fn accept_id(race: CampaignId, seat: Seat) -> String {
    format!("{PREFIX}:accept:{}:{}", race.0, seat.0)
}

/// The id of the "Replace seat…" menu offering a seat of `race` to `user`.
pub fn replace_id(race: CampaignId, user: u64) -> String {
    format!("{PREFIX}:rs:{}:{user}", race.0)
}

pub fn seat_choice_id(race: CampaignId) -> String {
    format!("{PREFIX}:choice:{}", race.0)
}

pub fn autopilot_id(race: CampaignId, setting: crate::engine::Autopilot) -> String {
    format!("{PREFIX}:ap:{}:{}", race.0, setting.name())
}

/// Adds the prompt's autopilot button ("Let the bot play for me") beside its choices:
/// in the last row of buttons when it has room, else in a row of its own when Discord
/// allows one more; otherwise `/race autopilot` (named in `/race help`) does the same.
pub fn with_autopilot_button(rows: &mut Vec<Row>, race: CampaignId) {
    let button = ButtonSpec {
        custom_id: autopilot_id(race, crate::engine::Autopilot::Bot),
        label: "Let the bot play for me".into(),
        style: ButtonStyle::Secondary,
    };
    push_button(rows, button);
}

/// The label of the button that opens the modal for a typed order.
pub const OTHER_ORDER: &str = "Other order…";
/// The custom_id of the modal's one text input.
pub const MODAL_INPUT: &str = "order";

/// The "Other order…" button's id.
pub fn other_id(race: CampaignId, step: u32, seat: Seat) -> String {
    format!("{PREFIX}:m:{}:{step}:{}:other", race.0, seat.0)
}

/// The id of the modal the "Other order…" button opens.
pub fn modal_id(race: CampaignId, step: u32, seat: Seat) -> String {
    format!("{PREFIX}:mo:{}:{step}:{}:order", race.0, seat.0)
}

/// A prompt's components: its choices, an "Other order…" button when the buttons cannot
/// hold every legal order (the prompt is a useful subset, or its choices overflow what
/// Discord allows), then the autopilot button.
pub fn prompt_rows(
    race: CampaignId,
    step: u32,
    seat: Seat,
    prompt: &crate::engine::Prompt,
    chosen: Option<&str>,
) -> Vec<Row> {
    let mut rows = choice_rows(race, step, seat, &prompt.choices, chosen);
    // Choice rows keep one component per distinct order, as many as Discord allows.
    let distinct: std::collections::HashSet<&str> =
        prompt.choices.iter().map(|c| c.order.as_str()).collect();
    let every = carried(&rows) >= distinct.len();
    if !prompt.complete || !every {
        let button = ButtonSpec {
            custom_id: other_id(race, step, seat),
            label: OTHER_ORDER.into(),
            style: ButtonStyle::Primary,
        };
        push_button(&mut rows, button);
    }
    with_autopilot_button(&mut rows, race);
    rows
}

/// How many choices a set of rows carries (each button or menu option is one).
fn carried(rows: &[Row]) -> usize {
    rows.iter()
        .map(|r| match r {
            Row::Buttons(b) => b.len(),
            Row::Select(s) => s.options.len(),
        })
        .sum()
}

/// Adds a button to the last row of buttons when it has room, else in a row of its own
/// when Discord allows one more.
fn push_button(rows: &mut Vec<Row>, button: ButtonSpec) {
    if let Some(Row::Buttons(last)) = rows.last_mut()
        && last.len() < limits::BUTTONS_PER_ROW
    {
        last.push(button);
    } else if rows.len() < limits::ROWS {
        rows.push(Row::Buttons(vec![button]));
    }
}

/// A button's id for a choice: its order text when that fits, else its index.
pub fn order_id(race: CampaignId, step: u32, seat: Seat, index: usize, order: &str) -> String {
    let by_text = format!("{PREFIX}:o:{}:{step}:{}:{order}", race.0, seat.0);
    if chars(&by_text) <= limits::CUSTOM_ID {
        by_text
    } else {
        format!("{PREFIX}:i:{}:{step}:{}:{index}", race.0, seat.0)
    }
}

pub fn menu_id(race: CampaignId, step: u32, seat: Seat, n: usize) -> String {
    format!("{PREFIX}:s:{}:{step}:{}:{n}", race.0, seat.0)
}

/// A select option's value for a choice.
pub fn option_value(index: usize, order: &str) -> String {
    let by_text = format!("o:{order}");
    if chars(&by_text) <= limits::OPTION_TEXT {
        by_text
    } else {
        format!("i:{index}")
    }
}

/// Reads a select option's value back.
pub fn parse_value(value: &str) -> Option<Pick> {
    if let Some(t) = value.strip_prefix("o:") {
        return Some(Pick::Text(t.to_string()));
    }
    value
        .strip_prefix("i:")
        .and_then(|i| i.parse().ok())
        .map(Pick::Index)
}

/// Reads a `custom_id` back; `None` for anything this bot did not make.
pub fn parse_id(id: &str) -> Option<Action> {
    let mut parts = id.splitn(6, ':');
    if parts.next()? != PREFIX {
        return None;
    }
    let kind = parts.next()?;
    let race = CampaignId(parts.next()?.parse().ok()?);
    match kind {
        "join" => return Some(Action::Join(race)),
        "leave" => return Some(Action::Leave(race)),
        "choice" => return parts.next().is_none().then_some(Action::SeatChoice(race)),
        "rematch" => return parts.next().is_none().then_some(Action::Rematch(race)),
        "accept" => {
            let seat = Seat(parts.next()?.parse().ok()?);
            return parts
                .next()
                .is_none()
                .then_some(Action::Accept { race, seat });
        }
        "rs" => {
            let user = parts.next()?.parse().ok()?;
            return parts
                .next()
                .is_none()
                .then_some(Action::ReplaceSeat { race, user });
        }
        "ap" => {
            let setting = crate::engine::Autopilot::parse(parts.next()?)?;
            return parts
                .next()
                .is_none()
                .then_some(Action::Autopilot { race, setting });
        }
        _ => {}
    }
    let step: u32 = parts.next()?.parse().ok()?;
    let seat = Seat(parts.next()?.parse().ok()?);
    let rest = parts.next()?;
    match kind {
        "o" => Some(Action::Order {
            race,
            step,
            seat,
            pick: Pick::Text(rest.to_string()),
        }),
        "i" => Some(Action::Order {
            race,
            step,
            seat,
            pick: Pick::Index(rest.parse().ok()?),
        }),
        "s" => Some(Action::OrderMenu { race, step, seat }),
        "m" => (rest == "other").then_some(Action::OtherOrder { race, step, seat }),
        "mo" => (rest == "order").then_some(Action::ModalOrder { race, step, seat }),
        _ => None,
    }
}

/// Components for a prompt's legal choices: up to 25 ungrouped choices as buttons (five
/// rows of five); more, or grouped ones, as select menus, one group to a menu of 25. When
/// that takes more than five menus, groups share menus (each option then names its group),
/// so every choice keeps a component up to 125; beyond that the prompt's hint says how to
/// type the rest.
/// The choice equal to `chosen` is shown in green.
pub fn choice_rows(
    race: CampaignId,
    step: u32,
    seat: Seat,
    choices: &[Choice],
    chosen: Option<&str>,
) -> Vec<Row> {
    // Discord refuses two components with one custom_id in a message.
    let mut seen = std::collections::HashSet::new();
    let choices: Vec<(usize, &Choice)> = choices
        .iter()
        .enumerate()
        .filter(|(_, c)| seen.insert(c.order.clone()))
        .collect();
    let grouped = choices.iter().any(|(_, c)| c.group.is_some());
    let max_buttons = limits::ROWS * limits::BUTTONS_PER_ROW;
    let button = |(i, c): &(usize, &Choice)| ButtonSpec {
        custom_id: order_id(race, step, seat, *i, &c.order),
        label: clip(choice_label(c), limits::BUTTON_LABEL),
        style: if chosen == Some(c.order.as_str()) {
            ButtonStyle::Success
        } else {
            ButtonStyle::Secondary
        },
    };
    if !grouped && choices.len() <= max_buttons {
        return choices
            .chunks(limits::BUTTONS_PER_ROW)
            .map(|row| Row::Buttons(row.iter().map(button).collect()))
            .collect();
    }
    // A few choices outside any group (a dirty trick's `counter` and `decline` beside a
    // hand's plays) stay buttons, in a row above the menus.
    let loose: Vec<(usize, &Choice)> = choices
        .iter()
        .filter(|(_, c)| c.group.is_none())
        .copied()
        .collect();
    let mut rows = Vec::new();
    let mut choices = choices;
    if grouped && !loose.is_empty() && loose.len() <= limits::BUTTONS_PER_ROW {
        rows.push(Row::Buttons(loose.iter().map(button).collect()));
        choices.retain(|(_, c)| c.group.is_some());
    }
    // Menus: one per group, in first-seen order, each split into runs of 25.
    let mut groups: Vec<Group> = Vec::new();
    for (i, c) in choices {
        let name = c.group.clone().unwrap_or_else(|| "Choose".to_string());
        match groups.iter_mut().find(|(g, _)| *g == name) {
            Some((_, list)) => list.push((i, c)),
            None => groups.push((name, vec![(i, c)])),
        }
    }
    let room = limits::ROWS - rows.len();
    let runs: usize = groups
        .iter()
        .map(|(_, list)| list.len().div_ceil(limits::SELECT_OPTIONS))
        .sum();
    let menus = if runs <= room {
        one_menu_per_group(groups)
    } else {
        // More groups than rows (a hand of seven different cards, and junk): groups share
        // menus, packed in order, so that every choice keeps a component.
        packed_menus(groups)
    };
    for (placeholder, options) in menus.into_iter().take(room) {
        rows.push(Row::Select(SelectSpec {
            custom_id: menu_id(race, step, seat, rows.len()),
            placeholder: clip(&placeholder, limits::PLACEHOLDER),
            options,
        }));
    }
    rows
}

/// A select option: (label, value).
type SelectOption = (String, String);
/// A menu before its id: the placeholder and its options.
type Menu = (String, Vec<SelectOption>);
/// Choices of one group, with their places in the prompt.
type Group<'a> = (String, Vec<(usize, &'a Choice)>);

fn choice_label(c: &Choice) -> &str {
    if c.label.trim().is_empty() {
        &c.order
    } else {
        &c.label
    }
}

fn option_of(i: usize, c: &Choice, prefix: Option<&str>) -> (String, String) {
    let label = match prefix {
        // A label that does not say its group says it when groups share a menu.
        Some(g) if !choice_label(c).to_lowercase().contains(&g.to_lowercase()) => {
            format!("{g}: {}", choice_label(c))
        }
        _ => choice_label(c).to_string(),
    };
    (clip(&label, limits::OPTION_TEXT), option_value(i, &c.order))
}

fn one_menu_per_group(groups: Vec<Group>) -> Vec<Menu> {
    let mut out = Vec::new();
    for (name, list) in groups {
        let runs: Vec<&[(usize, &Choice)]> = list.chunks(limits::SELECT_OPTIONS).collect();
        let several = runs.len() > 1;
        for (k, run) in runs.into_iter().enumerate() {
            let placeholder = if several {
                format!("{name} ({})", k + 1)
            } else {
                name.clone()
            };
            out.push((
                placeholder,
                run.iter().map(|(i, c)| option_of(*i, c, None)).collect(),
            ));
        }
    }
    out
}

fn packed_menus(groups: Vec<Group>) -> Vec<Menu> {
    // Each menu: the names of the groups in it, and its options.
    let mut out: Vec<(Vec<String>, Vec<SelectOption>)> = Vec::new();
    for (name, list) in groups {
        // A group that fits in what is left of the last menu joins it; else it starts a
        // new one (a group of more than 25 fills menus as it goes).
        let room = out
            .last()
            .map_or(0, |(_, o)| limits::SELECT_OPTIONS.saturating_sub(o.len()));
        if list.len() > room && (list.len() <= limits::SELECT_OPTIONS || room == 0) {
            out.push((Vec::new(), Vec::new()));
        }
        for (i, c) in list {
            if out
                .last()
                .is_none_or(|(_, o)| o.len() >= limits::SELECT_OPTIONS)
            {
                out.push((Vec::new(), Vec::new()));
            }
            if let Some((names, options)) = out.last_mut() {
                if names.last() != Some(&name) {
                    names.push(name.clone());
                }
                let group = c.group.as_deref();
                options.push(option_of(i, c, group));
            }
        }
    }
    out.into_iter()
        .map(|(names, options)| (names.join(", "), options))
        .collect()
}

/// An announcement laid out for its target. `zone` is for plain-text times.
pub fn announcement(a: &Announcement, zone: impl Into<Zone>) -> Layout {
    let post = present(a, &Style::discord());
    let plain = present(a, &Style::plain(zone));
    let mut layout = Layout {
        embeds: embeds(&post, plain.footer.as_deref()),
        picture: (post.picture != Picture::None).then_some(post.picture),
        ..Layout::default()
    };
    match a {
        Announcement::Lobby { race, phase, .. } => {
            layout.rows = Some(if *phase == Phase::Lobby {
                vec![Row::Buttons(vec![
                    ButtonSpec {
                        custom_id: join_id(*race),
                        label: "Join".into(),
                        style: ButtonStyle::Primary,
                    },
                    ButtonSpec {
                        custom_id: leave_id(*race),
                        label: "Leave".into(),
                        style: ButtonStyle::Secondary,
                    },
                ])]
            } else {
                Vec::new()
            });
        }
        Announcement::Prompt {
            race,
            step,
            seat,
            prompt,
            ..
        } => {
            layout.rows = Some(prompt_rows(*race, *step, *seat, prompt, None));
        }
        Announcement::Status { .. } => layout.rows = Some(Vec::new()),
        Announcement::Finished { race, .. } => {
            layout.rows = Some(vec![Row::Buttons(vec![ButtonSpec {
                custom_id: rematch_id(*race),
                label: "Rematch".into(),
                style: ButtonStyle::Primary,
            }])]);
        }
        Announcement::SeatOffer {
            race, seat, user, ..
        } => {
            // Only the member offered the seat is pinged, with the button to take it.
            layout.content = Some(format!("<@{}>", user.0));
            layout.ping = Some(user.0.clone());
            layout.rows = Some(vec![Row::Buttons(vec![ButtonSpec {
                custom_id: accept_id(*race, *seat),
                label: "Accept the seat".into(),
                style: ButtonStyle::Success,
            }])]);
        }
        Announcement::Nudge { seats, .. } => {
            // Only the players still owing are pinged, never anyone else.
            let users: Vec<&str> = seats.iter().map(|s| s.user.0.as_str()).collect();
            let content: Vec<String> = users.iter().map(|u| format!("<@{u}>")).collect();
            layout.content = Some(content.join(" "));
            layout.ping = Some(users.join(","));
        }
        Announcement::Notice {
            user: Some(user), ..
        } => {
            // The notice names someone: ping them (and only them).
            layout.content = Some(format!("<@{}>", user.0));
            layout.ping = Some(user.0.clone());
        }
        _ => {}
    }
    layout
}

/// The file name of a post's picture: `race-4-turn-3-of-8.png` after a turn (its last
/// step's label),
/// `race-4-chart.png` with the final result. Only `[a-z0-9-]`, so the `attachment://`
/// reference needs no escaping.
pub fn picture_name(a: &Announcement) -> String {
    let (race, what) = match a {
        Announcement::TurnResolved { race, labels, .. } => {
            (race.0, labels.last().cloned().unwrap_or_default())
        }
        Announcement::Finished { race, .. } => (race.0, "chart".to_string()),
        _ => (0, String::new()),
    };
    let mut slug = String::new();
    for c in what.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_end_matches('-').chars().take(60).collect();
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        format!("race-{race}.png")
    } else {
        format!("race-{race}-{slug}.png")
    }
}

/// Attaches a drawn picture: one file with its alt text, shown as the first embed's image
/// (`attachment://NAME`), so it sits under the post's title rather than as a loose file.
pub fn attach_picture(layout: &mut Layout, name: String, png: Vec<u8>, alt: &str) {
    if let Some(first) = layout.embeds.first_mut() {
        first.image = Some(format!("attachment://{name}"));
    }
    layout.files.push(FileSpec {
        name,
        bytes: png,
        description: Some(clip(alt, limits::ATTACHMENT_DESCRIPTION)),
    });
}

/// Takes the picture off a post (files and the embed's `attachment://` image).
pub fn drop_picture(layout: &mut Layout) {
    layout.files.clear();
    for e in &mut layout.embeds {
        if e.image
            .as_deref()
            .is_some_and(|i| i.starts_with("attachment://"))
        {
            e.image = None;
        }
    }
}

/// Whether a target's message is posted once and then edited in place.
pub fn edited_in_place(target: &Target) -> bool {
    matches!(target, Target::Status | Target::Lobby)
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
