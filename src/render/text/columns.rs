//! What every game's text shares: how many columns a string takes in a monospace block
//! ([`columns`], [`pad`]), and how a text writes what a player wrote ([`User`]).

use unicode_width::UnicodeWidthStr;

/// How many columns `s` takes in a monospace code block: a CJK character or an emoji
/// takes two, a combining mark or a zero-width joiner none. Tables measure by this, not by
/// `chars`, so a name in Chinese or with an emoji keeps the columns after it in line.
pub fn columns(s: &str) -> usize {
    s.width()
}

/// `s` padded with spaces on the right to `width` columns (by [`columns`]); a wider `s`
/// stays whole. `format!("{:<w$}")` pads by chars, which misaligns wide characters.
pub fn pad(s: &str, width: usize) -> String {
    let mut out = s.to_string();
    out.push_str(&" ".repeat(width.saturating_sub(columns(s))));
    out
}

/// How a text writes what a player wrote (names, orders): as it is for the terminal,
/// escaped for Discord ([`crate::render::escape_markdown`]).
pub type User<'a> = &'a dyn Fn(&str) -> String;
