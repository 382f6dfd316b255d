//! Reading a replay script for `replay` and `render`, with bounds an operator's typo or a
//! hostile file cannot exceed: the file's size, and the length of every text in it (names,
//! orders). Past them the script is refused in one line, before any game sees it, so the
//! cost of a script stays linear in its size.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

/// The largest script read: the shipped ones are a few kilobytes.
pub const MAX_SCRIPT_BYTES: u64 = 256 * 1024;
/// The longest text (a name, an order, an option) in a script, in characters.
pub const MAX_TEXT_CHARS: usize = 200;

/// Reads and bounds the script; the error is the one line to print.
pub fn read(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {}: {}", path.display(), why(&e)))?;
    let mut text = String::new();
    file.take(MAX_SCRIPT_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read {}: {}", path.display(), why(&e)))?;
    if text.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(format!(
            "{} is larger than {} KB: a replay script is a few kilobytes",
            path.display(),
            MAX_SCRIPT_BYTES / 1024
        ));
    }
    // Invalid JSON is left to the game's reader, which says where.
    if let Ok(value) = serde_json::from_str::<Value>(&text)
        && let Some(why) = long_text(&value, "the script")
    {
        return Err(why);
    }
    Ok(text)
}

/// Rust's integer types as serde names them, in a player's words.
const NUMBERS: &[(&str, &str)] = &[
    ("u8", "a whole number from 0 to 255"),
    ("u16", "a whole number from 0 to 65535"),
    ("u32", "a whole number from 0 to 4294967295"),
    ("u64", "a whole number from 0"),
    ("usize", "a whole number from 0"),
    ("i8", "a whole number from -128 to 127"),
    ("i16", "a whole number from -32768 to 32767"),
    ("i32", "a whole number"),
    ("i64", "a whole number"),
    ("f32", "a number"),
    ("f64", "a number"),
];

/// A refusal of the script in a player's words: serde's `expected u8` becomes the range
/// it means, and a number out of range is named by where it is in the script.
pub fn explain(message: &str, script: &str) -> String {
    let mut out = type_words(message);
    let number = message
        .split_once("integer `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(n, _)| n);
    if let (Some(n), Ok(value)) = (number, serde_json::from_str::<Value>(script))
        && let Some(at) = find_number(&value, n, "the script")
    {
        out = format!("{at}: {out}");
    }
    out
}

/// `expected u8` as `expected a whole number from 0 to 255`, and so on.
fn type_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("expected ") {
        let (before, after) = rest.split_at(i + "expected ".len());
        out.push_str(before);
        let len = after
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        let (word, tail) = after.split_at(len);
        match NUMBERS.iter().find(|(ty, _)| *ty == word) {
            Some((_, words)) => out.push_str(words),
            None => out.push_str(word),
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Where in the script the number `n` (as written) first appears.
fn find_number(value: &Value, n: &str, at: &str) -> Option<String> {
    match value {
        Value::Number(x) if x.to_string() == n => Some(at.to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| find_number(v, n, &format!("{at}[{i}]"))),
        Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| find_number(v, n, &format!("{at}.{k}"))),
        _ => None,
    }
}

fn why(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
        _ => e.to_string(),
    }
}

/// The first text longer than [`MAX_TEXT_CHARS`], named by where it is.
fn long_text(value: &Value, at: &str) -> Option<String> {
    let too_long = |s: &str| s.chars().count() > MAX_TEXT_CHARS;
    match value {
        Value::String(s) if too_long(s) => {
            Some(format!("{at} is longer than {MAX_TEXT_CHARS} characters"))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| long_text(v, &format!("{at}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            if too_long(k) {
                return Some(format!(
                    "a key in {at} is longer than {MAX_TEXT_CHARS} characters"
                ));
            }
            long_text(v, &format!("{at}.{k}"))
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_type_names_become_words_and_the_number_is_found() {
        let script = r#"{"players": [{"name": "A", "max_speed": 300}]}"#;
        assert_eq!(
            explain("invalid value: integer `300`, expected u8", script),
            "the script.players[0].max_speed: invalid value: integer `300`, expected a whole number from 0 to 255"
        );
        assert_eq!(
            explain("invalid type: string \"x\", expected u16 at line 1", "{}"),
            "invalid type: string \"x\", expected a whole number from 0 to 65535 at line 1"
        );
        assert_eq!(explain("turn 1, A: no", script), "turn 1, A: no");
    }

    #[test]
    fn a_long_text_is_named_by_where_it_is() {
        let name = "x".repeat(MAX_TEXT_CHARS + 1);
        let script = serde_json::json!({"players": [{"name": "Ann"}, {"name": name}]});
        assert_eq!(
            long_text(&script, "the script").as_deref(),
            Some("the script.players[1].name is longer than 200 characters")
        );
        let ok = serde_json::json!({"players": [{"name": "x".repeat(MAX_TEXT_CHARS)}]});
        assert_eq!(long_text(&ok, "the script"), None);
    }
}
