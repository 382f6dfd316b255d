//! What players write, made safe for Discord's markdown: [`escape_markdown`] for a name,
//! a nickname, an option value or an order, and for a sentence a game or the referee
//! wrote around one (narration, a notice: they hold no markup of their own); and
//! [`code_text`] for such text inside a code span. What a player typed and a message
//! echoes back (an order, an option value, a time) is also cut to [`TYPED_MAX`]
//! characters: [`quote_typed`] quotes it in a code span, and [`escape_sentence`] makes a
//! whole refusal safe, whatever it quotes, keeping the bot's own code spans.
//!
//! Discord shows a backslash before any ASCII punctuation as nothing, so an escaped name
//! reads exactly as it was written, while no link, heading, quote, list, mention or
//! formatting can come out of it. Only the terminal and pictures see the raw text: they
//! never escape (see [`crate::render::message::Style`]).

use crate::games::words::{TYPED_MAX, bounded};

/// Marks that Discord reads anywhere in a line: escapes, emphasis, strike, code, spoilers,
/// mentions and timestamps (`<@1>`, `<t:1>`), quotes, and masked links (`[a](b)`).
const INLINE: &[char] = &['\\', '*', '_', '~', '`', '|', '<', '>', '[', ']', '@'];

/// Marks that Discord reads only at the start of a line: headings and subtext (`#`,
/// `-#`), and lists (`-`, `+`; `*` and `>` are escaped everywhere).
const LINE_START: &[char] = &['#', '-', '+'];

/// Direction controls: a name must not turn the rest of the bot's line around.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Text a player wrote, escaped so that Discord shows it as written and reads no markup
/// in it. Escape each piece of text once: escaping twice shows the backslashes.
pub fn escape_markdown(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    escape_into(&mut out, &chars, true);
    out
}

/// Text inside a code span (`` `…` ``) or block: markdown is not read there, and a
/// backslash would show, so only a backtick, which could end the span or the block, is
/// replaced, and direction controls are dropped.
pub fn code_text(text: &str) -> String {
    text.chars()
        .filter(|c| !is_bidi_control(*c))
        .map(|c| if c == '`' { '\'' } else { c })
        .collect()
}

/// What a player typed, shown in a code span: bounded, and unable to end the span.
pub fn quote_typed(text: &str) -> String {
    let inner = code_text(&bounded(text.trim()));
    if inner.trim().is_empty() {
        "(nothing)".to_string()
    } else {
        format!("`{inner}`")
    }
}

/// A sentence the bot wrote around what a player typed (a refusal from a game or the
/// referee, which quote orders, values and names as they came): its code spans stay code
/// spans, their text bounded and unable to end them; everything else is escaped as
/// [`escape_markdown`] does, and any word longer than [`TYPED_MAX`] is cut. A backtick
/// the player typed can only move where a span begins or ends: no markup can come of it.
pub fn escape_sentence(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut line_start = true;
    let mut i = 0;
    while i < chars.len() {
        let plain_end = (i..chars.len())
            .find(|&j| chars[j] == '`')
            .unwrap_or(chars.len());
        if plain_end > i {
            let plain = cut_long_words(&chars[i..plain_end]);
            line_start = escape_into(&mut out, &plain, line_start);
            i = plain_end;
            continue;
        }
        // A backtick at `i`: a span when another follows with text between them.
        let close = (i + 1..chars.len()).find(|&j| chars[j] == '`');
        let inner: String = match close {
            Some(j) => chars[i + 1..j].iter().collect(),
            None => String::new(),
        };
        let inner = code_text(&bounded(&inner));
        match close {
            Some(j) if !inner.trim().is_empty() => {
                out.push('`');
                out.push_str(&inner);
                out.push('`');
                i = j + 1;
            }
            Some(j) => {
                // An empty pair is shown as two backticks.
                out.push_str("\\`\\`");
                i = j + 1;
            }
            None => {
                out.push_str("\\`");
                i += 1;
            }
        }
        line_start = false;
    }
    out
}

/// `chars` with every word (a run without whitespace) longer than [`TYPED_MAX`] cut.
fn cut_long_words(chars: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len());
    let mut run = 0usize;
    for &c in chars {
        if c.is_whitespace() {
            run = 0;
            out.push(c);
            continue;
        }
        run = run.saturating_add(1);
        if run <= TYPED_MAX {
            out.push(c);
        } else if run == TYPED_MAX + 1 {
            out.push('…');
        }
    }
    out
}

/// Escapes `chars` into `out`; `line_start` says whether they begin a line. Returns
/// whether the text after them would begin a line.
fn escape_into(out: &mut String, chars: &[char], mut line_start: bool) -> bool {
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if is_bidi_control(c) {
            continue;
        }
        if c == '\n' {
            out.push(c);
            line_start = true;
            continue;
        }
        if line_start && (c == ' ' || c == '\t') {
            out.push(c);
            continue;
        }
        if line_start && c.is_ascii_digit() {
            // `1. ` and `1) ` begin a numbered list.
            out.push(c);
            while let Some(&d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
                out.push(d);
                i += 1;
            }
            if let Some(&p) = chars.get(i).filter(|p| matches!(p, '.' | ')')) {
                out.push('\\');
                out.push(p);
                i += 1;
            }
            line_start = false;
            continue;
        }
        let autolink = c == ':' && chars.get(i) == Some(&'/') && chars.get(i + 1) == Some(&'/');
        if INLINE.contains(&c) || autolink || (line_start && LINE_START.contains(&c)) {
            out.push('\\');
        }
        out.push(c);
        line_start = false;
    }
    line_start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_a_name_is_escaped_and_reads_the_same() {
        assert_eq!(
            escape_markdown("[Free Nitro](https://e.co/x)"),
            "\\[Free Nitro\\](https\\://e.co/x)"
        );
        assert_eq!(escape_markdown("# Heading"), "\\# Heading");
        assert_eq!(escape_markdown("> quote"), "\\> quote");
        assert_eq!(escape_markdown("-# small"), "\\-# small");
        assert_eq!(escape_markdown("  - item"), "  \\- item");
        assert_eq!(escape_markdown("12. Bob"), "12\\. Bob");
        assert_eq!(escape_markdown("@everyone"), "\\@everyone");
        assert_eq!(escape_markdown("<@123>"), "\\<\\@123\\>");
        assert_eq!(
            escape_markdown("**bold** _it_"),
            "\\*\\*bold\\*\\* \\_it\\_"
        );
        assert_eq!(escape_markdown("a`b`c"), "a\\`b\\`c");
        assert_eq!(
            escape_markdown("||x|| ~~y~~ \\"),
            "\\|\\|x\\|\\| \\~\\~y\\~\\~ \\\\"
        );
        assert_eq!(escape_markdown("a\u{202E}b"), "ab");
        // What is not markup stays as written.
        assert_eq!(
            escape_markdown("Jean-Luc (bot) #2: 1. Ünal 🏃 שלום"),
            "Jean-Luc (bot) #2: 1. Ünal 🏃 שלום"
        );
    }

    #[test]
    fn sentences_keep_their_code_and_escape_the_rest() {
        assert_eq!(
            escape_sentence("`[a](https://e.co)` is not a number; send `7`"),
            "`[a](https://e.co)` is not a number; send `7`"
        );
        // A backtick in what was quoted moves a span's end, and no more.
        assert_eq!(
            escape_sentence("I don't know `x` [a](https://e.co) # `y`"),
            "I don't know `x` \\[a\\](https\\://e.co) # `y`"
        );
        assert_eq!(escape_sentence("a `` b ` c"), "a \\`\\` b \\` c");
        assert_eq!(
            escape_sentence("# Heading @everyone"),
            "\\# Heading \\@everyone"
        );
        let long = "x".repeat(500);
        let quoted = escape_sentence(&format!("`{long}` and {long}"));
        assert_eq!(quoted.chars().filter(|c| *c == 'x').count(), 2 * TYPED_MAX);
        assert_eq!(quoted.matches('…').count(), 2);
        assert_eq!(quote_typed(&long).chars().count(), TYPED_MAX + 3);
        assert_eq!(quote_typed("a`b"), "`a'b`");
        assert_eq!(quote_typed("  "), "(nothing)");
    }

    #[test]
    fn code_spans_lose_only_their_backticks() {
        assert_eq!(code_text("stop @a`b"), "stop @a'b");
        assert_eq!(code_text("```\n\u{202E}x"), "'''\nx");
    }
}
