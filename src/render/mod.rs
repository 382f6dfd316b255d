//! Pictures of the race: a text track for every game (screen readers, terminals, and
//! anyone with images off), its alt text, each seat's private view in words, announcements
//! as posts ([`post`]: each kind, over the [`message`] they fill), and PNG pictures of the
//! track and the race chart ([`picture`]); and what players write, made safe for
//! Discord's markdown ([`markup`]).
//!
//! Everything here reads views only: the public view for the channel, a private view
//! for one seat's DM. Nothing here can see a state, so nothing here can leak one.

pub mod animation;
pub mod bank;
pub mod markup;
pub mod message;
mod nudge;
pub mod picture;
pub mod post;
pub mod text;
mod turn;

pub use markup::{code_text, escape_markdown};
pub use text::{alt_text, ordinal, private_text, private_text_as, track_text};
