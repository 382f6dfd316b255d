//! Turns a [`Layout`] into serenity's builders: a new message, an edit, an interaction
//! response, a late answer to an acknowledged interaction, or a poise reply. Every one
//! carries `allowed_mentions`: nobody is pinged unless the layout names one user to ping,
//! and never `@everyone`, `@here` or a role ([`mentions`], [`no_mentions`]).

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton, CreateEmbed,
    CreateEmbedFooter, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
    EditInteractionResponse, EditMessage,
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

/// Pings nobody: what every message the bot sends allows unless it means to ping
/// someone (also poise's default for its own answers, in `discord::mod`).
pub fn no_mentions() -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .empty_users()
        .empty_roles()
        .everyone(false)
}

/// Pings the layout's users (one, or a nudge's few), or nobody.
pub fn mentions(layout: &Layout) -> CreateAllowedMentions {
    let none = no_mentions();
    let users: Vec<serenity::UserId> = layout
        .ping
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter_map(|u| u.trim().parse::<u64>().ok())
        .filter(|u| *u != 0)
        .map(serenity::UserId::new)
        .collect();
    if users.is_empty() {
        none
    } else {
        none.users(users)
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

/// The answer to an interaction acknowledged earlier, in place of the message it is on.
pub fn edit_response(layout: &Layout) -> EditInteractionResponse {
    let mut m = EditInteractionResponse::new()
        .embeds(layout.embeds.iter().map(embed).collect())
        .allowed_mentions(mentions(layout));
    if let Some(content) = &layout.content {
        m = m.content(content);
    }
    if let Some(r) = &layout.rows {
        m = m.components(rows(r));
    }
    m
}

/// A new message answering an interaction acknowledged earlier.
pub fn followup(layout: &Layout, ephemeral: bool) -> CreateInteractionResponseFollowup {
    let mut m = CreateInteractionResponseFollowup::new()
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
    // A file with an answer: `/race history`'s picture, `/race export`'s JSON.
    for f in files(layout) {
        m = m.attachment(f);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discord::layout::EmbedSpec;
    use serde_json::{Value, json};

    fn layout(ping: Option<&str>) -> Layout {
        Layout {
            content: ping.map(|p| format!("<@{p}>")),
            embeds: vec![EmbedSpec {
                title: "t".into(),
                description: "@everyone <@&1> <@2>".into(),
                ..EmbedSpec::default()
            }],
            ping: ping.map(String::from),
            ..Layout::default()
        }
    }

    /// Every builder the bot sends a message with, as the JSON Discord gets.
    fn bodies(l: &Layout) -> Vec<(&'static str, Value)> {
        let json = |v: Result<Value, serde_json::Error>| v.unwrap_or(Value::Null);
        let reply = || reply(l, true);
        vec![
            ("create", json(serde_json::to_value(create_message(l)))),
            ("edit", json(serde_json::to_value(edit_message(l)))),
            ("response", json(serde_json::to_value(response(l, true)))),
            (
                "edit_response",
                json(serde_json::to_value(edit_response(l))),
            ),
            ("followup", json(serde_json::to_value(followup(l, true)))),
            (
                "reply",
                json(serde_json::to_value(reply().to_slash_initial_response(
                    CreateInteractionResponseMessage::new(),
                ))),
            ),
            (
                "reply followup",
                json(serde_json::to_value(reply().to_slash_followup_response(
                    CreateInteractionResponseFollowup::new(),
                ))),
            ),
            (
                "reply edit",
                json(serde_json::to_value(
                    reply().to_slash_initial_response_edit(EditInteractionResponse::new()),
                )),
            ),
        ]
    }

    #[test]
    fn every_message_pings_only_its_one_user_or_nobody() {
        for (ping, users) in [(None, json!([])), (Some("42"), json!(["42"]))] {
            for (what, body) in bodies(&layout(ping)) {
                let allowed = &body["allowed_mentions"];
                assert_eq!(allowed["parse"], json!([]), "{what}: {body}");
                assert_eq!(allowed["roles"], json!([]), "{what}: {body}");
                assert_eq!(allowed["users"], users, "{what}: {body}");
            }
        }
        let none = serde_json::to_value(no_mentions()).unwrap_or(Value::Null);
        assert_eq!(none, json!({"parse": [], "users": [], "roles": []}));
    }
}
