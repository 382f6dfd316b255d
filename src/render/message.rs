//! A message before an adapter dresses it ([`Post`], with the [`Picture`] that goes with
//! it), and how to write times, mentions and players' text in it ([`Style`]).

use chrono::{DateTime, Utc};

use super::markup::{code_text, escape_markdown};
use crate::engine::Choice;
use crate::games::AnyPublicView;
use crate::referee::when::Zone;
use crate::vocab::Millis;

/// How to write times and mentions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Discord markup: `<t:UNIX:F>` times that each reader sees in their own zone, and
    /// `<@id>` mentions.
    pub discord: bool,
    /// The zone plain times are shown in (and named).
    pub zone: Zone,
}

impl Style {
    pub fn discord() -> Style {
        Style {
            discord: true,
            zone: Zone::UTC,
        }
    }

    pub fn plain(zone: impl Into<Zone>) -> Style {
        Style {
            discord: false,
            zone: zone.into(),
        }
    }

    /// A moment, absolute and relative.
    pub fn when(&self, at: Millis) -> String {
        if self.discord {
            let secs = at.div_euclid(1000);
            return format!("<t:{secs}:F> (<t:{secs}:R>)");
        }
        match DateTime::<Utc>::from_timestamp_millis(at) {
            Some(t) => format!(
                "{} {}",
                self.zone.local(t).format("%a %d %b %H:%M:%S"),
                self.zone
            ),
            None => "an unknown time".to_string(),
        }
    }

    pub fn mention(&self, user: &str) -> String {
        if self.discord {
            format!("<@{user}>")
        } else {
            user.to_string()
        }
    }

    /// Text a player wrote (a name, an option value, an order), or a sentence a game or
    /// the referee wrote around one (narration, a notice: they hold no markup of their
    /// own), as Discord must get it: escaped, so it shows as written and makes no markup.
    pub fn user(&self, text: &str) -> String {
        if self.discord {
            escape_markdown(text)
        } else {
            text.to_string()
        }
    }

    /// A player's text inside a code span: no backtick may end the span early.
    pub fn code(&self, text: &str) -> String {
        if self.discord {
            code_text(text)
        } else {
            text.to_string()
        }
    }
}

/// Which picture goes with a post.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    None,
    /// The track after this turn.
    Track,
    /// The race chart at the end.
    Chart,
}

/// A message, before an adapter dresses it.
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    pub title: String,
    /// Sentences: narration, instructions.
    pub body: String,
    /// The text track, shown in monospace.
    pub track: Option<String>,
    /// Named sections (missed orders, receipts).
    pub fields: Vec<(String, String)>,
    pub footer: Option<String>,
    /// Buttons for the legal choices.
    pub choices: Vec<Choice>,
    /// The view a picture is drawn from, and which picture.
    pub view: Option<AnyPublicView>,
    pub picture: Picture,
}

impl Post {
    pub(super) fn new(title: impl Into<String>, body: impl Into<String>) -> Post {
        Post {
            title: title.into(),
            body: body.into(),
            track: None,
            fields: Vec::new(),
            footer: None,
            choices: Vec::new(),
            view: None,
            picture: Picture::None,
        }
    }

    /// The whole post as plain text.
    pub fn plain(&self) -> String {
        let mut out = vec![format!("== {} ==", self.title)];
        if !self.body.is_empty() {
            out.push(self.body.clone());
        }
        for (name, value) in &self.fields {
            out.push(format!("{name}:\n{value}"));
        }
        if let Some(track) = &self.track {
            out.push(track.clone());
        }
        if !self.choices.is_empty() {
            let labels: Vec<&str> = self.choices.iter().map(|c| c.label.as_str()).collect();
            out.push(format!("Choices: {}", labels.join(" | ")));
        }
        if let Some(footer) = &self.footer {
            out.push(footer.clone());
        }
        out.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_discord_timestamps_or_plain() {
        assert_eq!(
            Style::discord().when(1_767_225_600_000),
            "<t:1767225600:F> (<t:1767225600:R>)"
        );
        assert_eq!(
            Style::plain(Zone::UTC).when(1_767_225_600_000),
            "Thu 01 Jan 00:00:00 UTC"
        );
        let london = crate::referee::when::parse_zone("Europe/London").unwrap();
        assert_eq!(
            Style::plain(london).when(1_782_925_200_000),
            "Wed 01 Jul 18:00:00 Europe/London",
            "plain times name the zone, with summer time"
        );
    }
}
