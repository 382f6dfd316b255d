//! Database URLs made safe to show: [`redact`], the one function every message, log line
//! and report passes a database URL through, and [`is_credential`], the parameter names it
//! blanks. A leaf of the store.
//!
//! The URL is parsed (the `url` crate, as sqlx and the HTTP client parse it), never
//! searched for substrings: what is blanked is what the driver would read as a secret.
//! Blanked, for `postgres://`, `sqlite:` and any other scheme:
//! - the whole userinfo (`user:password@` becomes `***@`): a password typed without its
//!   user, or with an unencoded `:`, lands in the user name;
//! - the value of every query parameter whose name, percent-decoded, `+` as a space, case
//!   folded and cut to letters and digits, contains one of [`CREDENTIAL_PARTS`]
//!   (`password`, `p%61ssword`, `sslpassword`, `passfile`, `sslkey`, `user`, `token`...),
//!   and of any parameter whose value itself holds such a `name=`;
//! - the fragment (`#...`), which no driver reads.
//!
//! Text that does not parse is shown only if it is a plain path (no `:`, `@`, `?`, `#`,
//! `=`, `&`, `%`), or such a path and a query as SQLite takes it (`races.db?mode=ro`, its
//! query blanked as above); anything else becomes `scheme://***` or `***`.

use url::Url;

/// Pieces of a folded parameter name that mark it as a credential. `cert` is not one:
/// `sslcert` and `sslrootcert` name public certificates, which an operator needs to see.
pub const CREDENTIAL_PARTS: &[&str] = &[
    "pass", "pwd", "secret", "token", "key", "auth", "cred", "user",
];

/// What a blanked secret shows as.
const MASK: &str = "***";

/// A database URL with its secrets blanked, for messages, logs and reports (see the
/// module's documentation for what is blanked).
pub fn redact(url: &str) -> String {
    let text = url.trim();
    if let Ok(parsed) = Url::parse(text) {
        return redacted(parsed);
    }
    if is_plain_path(text) {
        return text.to_string();
    }
    // A path with a query, as SQLite takes it (`races.db?mode=ro`).
    if let Some((path, query)) = text.split_once('?')
        && is_plain_path(path)
    {
        let query = query.split('#').next().unwrap_or_default();
        return format!("{path}?{}", mask_query(query));
    }
    match text.split_once("://") {
        Some((scheme, _)) if is_scheme(scheme) => format!("{scheme}://{MASK}"),
        _ => MASK.to_string(),
    }
}

/// The parsed URL with userinfo, credential values and fragment blanked.
fn redacted(mut url: Url) -> String {
    if !url.username().is_empty() || url.password().is_some() {
        // Both fail only for a URL with no host, which has no userinfo to blank.
        let _ = url.set_password(None);
        let _ = url.set_username(MASK);
    }
    url.set_fragment(None);
    if let Some(query) = url.query() {
        let masked = mask_query(query);
        url.set_query(Some(&masked));
    }
    url.to_string()
}

/// The raw query with the value of every credential parameter replaced by [`MASK`]. Pairs
/// are split at `&` (as sqlx reads them) and at `;` (a separator some drivers take).
fn mask_query(query: &str) -> String {
    let mut out = String::with_capacity(query.len());
    for piece in query.split_inclusive(['&', ';']) {
        let (pair, sep) = match piece.strip_suffix(['&', ';']) {
            Some(pair) => (pair, &piece[pair.len()..]),
            None => (piece, ""),
        };
        match pair.split_once('=') {
            Some((key, value)) if is_credential(key) || holds_credential(value) => {
                out.push_str(key);
                out.push('=');
                out.push_str(MASK);
            }
            // A bare word (`?hunter2`) names nothing a driver reads: it may be a secret.
            None if !pair.is_empty() => out.push_str(MASK),
            _ => out.push_str(pair),
        }
        out.push_str(sep);
    }
    out
}

/// True when a value, decoded, holds a `name=` whose name is a credential (`options=-c
/// password=...`, `a=1;password=...` read as one value).
fn holds_credential(value: &str) -> bool {
    let decoded = decode(value);
    decoded
        .split(|c: char| !(c.is_alphanumeric() || c == '=' || c == '%' || c == '_' || c == '-'))
        .filter_map(|word| word.split_once('=').map(|(k, _)| k))
        .any(is_credential)
}

/// True for a parameter name that may carry a secret, however it is spelt or encoded:
/// percent-decoded, `+` as a space, case-folded, and cut to letters and digits, it
/// contains one of [`CREDENTIAL_PARTS`].
pub fn is_credential(name: &str) -> bool {
    let folded: String = decode(name)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    CREDENTIAL_PARTS.iter().any(|part| folded.contains(part))
}

/// Percent-decoded with `+` as a space, as a query is read; decoded twice, so a doubly
/// encoded name (`p%2561ssword`) is caught too.
fn decode(text: &str) -> String {
    let once = percent_encoding::percent_decode_str(&text.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned();
    percent_encoding::percent_decode_str(&once)
        .decode_utf8_lossy()
        .into_owned()
}

/// A file name as SQLite takes it, with nothing that could be userinfo or a parameter.
fn is_plain_path(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_control() || matches!(c, ':' | '@' | '?' | '#' | '=' | '&' | '%'))
}

/// A URL scheme as RFC 3986 spells it (so a scheme shown is never part of a secret).
fn is_scheme(text: &str) -> bool {
    text.len() <= 16
        && text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails if any piece of the planted secret shows.
    fn assert_hidden(url: &str) {
        let shown = redact(url);
        for piece in ["hunter", "s3cr", "xyzzy"] {
            assert!(!shown.contains(piece), "{url} -> {shown}");
        }
    }

    #[test]
    fn no_spelling_of_a_credential_survives_redaction() {
        for url in [
            "postgres://bot:hunter2@db/pf",
            "postgresql://bot:hunter2@db/pf",
            "postgres://hunter2@db/pf",
            "postgres://bot:s3cr%40t%23w%2Fxyzzy@db/pf",
            "postgres://bot:s3cr@t@db/pf",
            "postgres://bot@db/pf?password=hunter2",
            "postgres://bot@db/pf?sslmode=require&sslpassword=hunter2",
            "postgres://bot@db/pf?p%61ssword=hunter2",
            "postgres://bot@db/pf?p%2561ssword=hunter2",
            "postgres://bot@db/pf?PassWord=hunter2",
            "postgres://bot@db/pf?PASS%57ORD=hunter2&x=1",
            "postgres://bot@db/pf?passfile=/home/bot/hunter2",
            "postgres://bot@db/pf?sslkey=/keys/hunter2.key",
            "postgres://bot@db/pf?ssl%2Dpassword=hunter2",
            "postgres://bot@db/pf?ssl+password=hunter2",
            "postgres://bot@db/pf?user=hunter2",
            "postgres://bot@db/pf?api_token=hunter2",
            "postgres://bot@db/pf?a=1;password=hunter2",
            "postgres://bot@db/pf?options=-c%20password%3Dhunter2",
            "postgres://bot@db/pf?hunter2",
            "postgres://bot@db/pf#hunter2",
            "postgres://bot:hunter2@db/pf?x=@",
            // Not URLs: a raw `#` or `/` in the password.
            "postgres://bot:hunter#2@db/pf",
            "postgres://bot:hunter/2@db/pf",
            "host=db user=bot password=hunter2",
            "sqlite:races.db?password=hunter2",
            "sqlite:races.db?P%61SSWORD=hunter2",
            "sqlite:///data/races.db?key=hunter2",
            "races.db?password=hunter2",
            "mysql://bot:hunter2@db/pf",
        ] {
            assert_hidden(url);
        }
    }

    #[test]
    fn redaction_keeps_what_an_operator_needs() {
        for (url, shown) in [
            (
                "postgres://bot:pw@db:5432/pf?sslmode=verify-full&application_name=x",
                "postgres://***@db:5432/pf?sslmode=verify-full&application_name=x",
            ),
            (
                "postgres://bot@db/pf?sslrootcert=/ca.crt&sslcert=/c.crt&password=pw",
                "postgres://***@db/pf?sslrootcert=/ca.crt&sslcert=/c.crt&password=***",
            ),
            ("postgres://db/pf", "postgres://db/pf"),
            ("sqlite:races.db?mode=rwc", "sqlite:races.db?mode=rwc"),
            ("sqlite::memory:", "sqlite::memory:"),
            ("/data/photofinish.db", "/data/photofinish.db"),
            ("photofinish.db", "photofinish.db"),
            ("/data/my races.db", "/data/my races.db"),
            (
                "races.db?mode=ro;password=pw",
                "races.db?mode=ro;password=***",
            ),
            ("postgres://bot:a#b@db/pf", "postgres://***"),
            ("host=db password=pw", "***"),
        ] {
            assert_eq!(redact(url), shown, "{url}");
        }
    }

    #[test]
    fn credential_names_are_matched_decoded_and_folded() {
        for name in [
            "password",
            "SSLPassword",
            "p%61ssword",
            "passfile",
            "sslkey",
            "pwd",
        ] {
            assert!(is_credential(name), "{name}");
        }
        for name in [
            "sslmode",
            "sslrootcert",
            "sslcert",
            "host",
            "port",
            "dbname",
        ] {
            assert!(!is_credential(name), "{name}");
        }
    }
}
