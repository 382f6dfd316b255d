//! Turns a [`Layout`] into serenity's builders: a new message, an edit, an interaction
//! response or a poise reply. Mentions are off unless the layout names one user to ping.

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton, CreateEmbed,
    CreateEmbedFooter, CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, EditMessage,
};

use super::layout::{ButtonStyle, EmbedSpec, Layout, Row};

/// The colour of the bot's embeds (a track green).
const COLOUR: u32 = 0x2E8B57;

pub fn embed(e: &EmbedSpec) -> CreateEmbed {
    let mut out = CreateEmbed::new().colour(COLOUR);
    if !e.title.is_empty() {
        out = out.title(&e.title);
    }
    if !e.description.is_empty() {
        out = out.description(&e.description);
    }
    for (name, value) in &e.fields {
        out = out.field(name, value, false);
    }
    if let Some(footer) = &e.footer {
        out = out.footer(CreateEmbedFooter::new(footer));
    }
    if let Some(image) = &e.image {
        out = out.image(image);
    }
    out
}

pub fn rows(rows: &[Row]) -> Vec<CreateActionRow> {
    rows.iter()
        .map(|r| match r {
            Row::Buttons(buttons) => CreateActionRow::Buttons(
                buttons
                    .iter()
                    .map(|b| {
                        CreateButton::new(&b.custom_id)
                            .label(&b.label)
                            .style(match b.style {
                                ButtonStyle::Primary => serenity::ButtonStyle::Primary,
                                ButtonStyle::Secondary => serenity::ButtonStyle::Secondary,
                                ButtonStyle::Success => serenity::ButtonStyle::Success,
                                ButtonStyle::Danger => serenity::ButtonStyle::Danger,
                            })
                    })
                    .collect(),
            ),
            Row::Select(s) => CreateActionRow::SelectMenu(
                CreateSelectMenu::new(
                    &s.custom_id,
                    CreateSelectMenuKind::String {
                        options: s
                            .options
                            .iter()
                            .map(|(label, value)| CreateSelectMenuOption::new(label, value))
                            .collect(),
                    },
                )
                .placeholder(&s.placeholder),
            ),
        })
        .collect()
}

pub fn mentions(layout: &Layout) -> CreateAllowedMentions {
    let none = CreateAllowedMentions::new()
        .empty_users()
        .empty_roles()
        .everyone(false);
    match layout
        .ping
        .as_deref()
        .and_then(|u| u.parse::<u64>().ok())
        .filter(|u| *u != 0)
    {
        Some(user) => none.users([serenity::UserId::new(user)]),
        None => none,
    }
}

fn files(layout: &Layout) -> Vec<CreateAttachment> {
    layout
        .files
        .iter()
        .map(|f| {
            let a = CreateAttachment::bytes(f.bytes.clone(), f.name.clone());
            match &f.description {
                Some(alt) => a.description(alt),
                None => a,
            }
        })
        .collect()
}

pub fn create_message(layout: &Layout) -> CreateMessage {
    let mut m = CreateMessage::new()
        .embeds(layout.embeds.iter().map(embed).collect())
        .allowed_mentions(mentions(layout));
    if let Some(content) = &layout.content {
        m = m.content(content);
    }
    if let Some(r) = &layout.rows {
        m = m.components(rows(r));
    }
    // Attachments go up as multipart `files[n]`: a channel post's picture.
    let files = files(layout);
    if !files.is_empty() {
        m = m.files(files);
    }
    m
}

pub fn edit_message(layout: &Layout) -> EditMessage {
    let mut m = EditMessage::new()
        .embeds(layout.embeds.iter().map(embed).collect())
        .allowed_mentions(mentions(layout))
        .content(layout.content.clone().unwrap_or_default());
    if let Some(r) = &layout.rows {
        m = m.components(rows(r));
    }
    for f in files(layout) {
        m = m.new_attachment(f);
    }
    m
}

pub fn response(layout: &Layout, ephemeral: bool) -> CreateInteractionResponseMessage {
    let mut m = CreateInteractionResponseMessage::new()
        .embeds(layout.embeds.iter().map(embed).collect())
        .allowed_mentions(mentions(layout))
        .ephemeral(ephemeral);
    if let Some(content) = &layout.content {
        m = m.content(content);
    }
    if let Some(r) = &layout.rows {
        m = m.components(rows(r));
    }
    m
}

pub fn reply(layout: &Layout, ephemeral: bool) -> poise::CreateReply {
    let mut m = poise::CreateReply::default()
        .ephemeral(ephemeral)
        .allowed_mentions(mentions(layout));
    for e in &layout.embeds {
        m = m.embed(embed(e));
    }
    if let Some(content) = &layout.content {
        m = m.content(content);
    }
    if let Some(r) = &layout.rows {
        m = m.components(rows(r));
    }
    m
}
