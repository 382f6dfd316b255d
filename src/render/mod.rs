//! Pictures of the race: a text track for every game (screen readers, terminals, and
//! anyone with images off), its alt text, each seat's private view in words, announcements
//! as posts ([`post`]), and PNG pictures of the track and the race chart ([`picture`]).
//!
//! Everything here reads views only: the public view for the channel, a private view
//! for one seat's DM. Nothing here can see a state, so nothing here can leak one.

pub mod picture;
pub mod post;
pub mod text;

pub use text::{alt_text, ordinal, private_text, track_text};
