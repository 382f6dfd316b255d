//! A configuration file's TOML read into raw values ([`read_file`]), with errors that
//! name the line and column, never the text.

use super::error::ConfigError;
use super::keys::{KEYS, Key, Kind, Raw, Source, Values, find_key};

/// Shows an unknown key's name only if it looks like a key (short, lower case): a token
/// pasted into the file can parse as a key.
fn shown_key(name: &str) -> String {
    let tame = !name.is_empty()
        && name.len() <= 24
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
    if tame {
        format!("`{name}`")
    } else {
        "(its name is not shown)".into()
    }
}

/// Line and column (from 1, in characters) of a byte offset.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = text.as_bytes().get(..offset).unwrap_or(text.as_bytes());
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = before
        .get(start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
        + 1;
    (line, column)
}

/// The parser's own words, first line only, with any quoted text that is not a key name or
/// a short literal (`=`, `]]`) taken out.
fn sanitize(message: &str) -> String {
    let first = message.lines().next().unwrap_or_default().trim();
    let mut out = String::new();
    for (i, part) in first.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
            continue;
        }
        let known = part.chars().count() <= 3
            || part == "turns"
            || part == "log"
            || part == "metrics"
            || KEYS
                .iter()
                .any(|k| k.name == part || k.name.rsplit('.').next() == Some(part));
        out.push('`');
        out.push_str(if known { part } else { "..." });
        out.push('`');
    }
    out.chars().take(200).collect()
}

fn syntax_error(path: &str, text: &str, error: &toml::de::Error) -> ConfigError {
    let (line, column) = error.span().map_or((0, 0), |s| position(text, s.start));
    ConfigError::Syntax {
        path: path.to_string(),
        line,
        column,
        what: sanitize(error.message()),
    }
}

/// What a key of this kind must be written as.
fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::Text => "expected text in quotes",
        Kind::Number => "expected a whole number",
        Kind::Bool => "expected true or false",
        Kind::List => "expected a list of text, such as [\"12h\", \"1h\"]",
    }
}

/// One key of a file, as raw text.
fn file_value(path: &str, key: &Key, value: &toml::Value) -> Result<String, ConfigError> {
    use toml::Value as V;
    let text = match (key.kind, value) {
        (Kind::Text | Kind::Number | Kind::List, V::String(s)) => Some(s.clone()),
        (Kind::Text | Kind::Number, V::Integer(n)) => Some(n.to_string()),
        (Kind::Bool, V::Boolean(b)) => Some(b.to_string()),
        (Kind::List, V::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(",")),
        _ => None,
    };
    text.ok_or_else(|| ConfigError::Value {
        key: key.name,
        origin: Source::File(path.to_string()),
        reason: expected(key.kind).into(),
    })
}

/// Reads a configuration file's text (`path` only names it in errors).
pub fn read_file(text: &str, path: &str) -> Result<Values, ConfigError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| syntax_error(path, text, &e))?;
    let mut values = Values::new();
    let mut put = |name: &str, value: &toml::Value| -> Result<(), ConfigError> {
        let key = find_key(name).ok_or_else(|| ConfigError::UnknownKey {
            path: path.to_string(),
            key: shown_key(name),
        })?;
        let text = file_value(path, key, value)?;
        values.insert(
            key.name,
            Raw {
                text,
                source: Source::File(path.to_string()),
            },
        );
        Ok(())
    };
    for (name, value) in &table {
        match (name.as_str(), value) {
            (
                "turns" | "log" | "limits" | "retention" | "shutdown" | "metrics",
                toml::Value::Table(inner),
            ) => {
                for (k, v) in inner {
                    put(&format!("{name}.{k}"), v)?;
                }
            }
            _ => put(name, value)?,
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token written without quotes once went to stderr, the log and the health check.
    #[test]
    fn a_syntax_error_names_the_line_and_column_never_the_text() {
        let text = "database = \"x.db\"\ntoken = MTIzNDU2.Gx-secret_value\n";
        let err = read_file(text, "config.toml").unwrap_err();
        let ConfigError::Syntax { line, column, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!((*line, *column), (2, 9), "{err}");
        let shown = err.to_string();
        assert!(shown.starts_with("config.toml is not valid TOML at line 2, column 9"));
        assert!(
            !shown.contains("secret") && !shown.contains("MTIz"),
            "{shown}"
        );
        assert!(!shown.contains('\n'), "{shown}");
        // Unterminated, and a token on a line of its own.
        for text in [
            "token = \"MTIzNDU2.Gx-secret_value\n",
            "MTIzNDU2.Gx-secret_value\n",
            "token = 'MTIzNDU2.Gx-secret_value' junk\n",
        ] {
            let shown = read_file(text, "c.toml").unwrap_err().to_string();
            assert!(shown.contains("line 1"), "{shown}");
            assert!(!shown.contains("secret"), "{shown}");
        }
        // A token that parses as a key is not named.
        let shown = read_file("MTIzNDU2Gxsecretvalue = 1\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(!shown.contains("secret"), "{shown}");
    }
}
