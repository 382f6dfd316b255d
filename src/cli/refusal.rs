//! A refusal: one line on stderr and exit code 2, never a value that may be secret,
//! never megabytes of input.

use std::fmt::Display;
use std::process::ExitCode;

/// The longest refusal line, in characters; longer ones are cut.
const MAX_REFUSAL: usize = 300;

/// The refusal as one line: line breaks become spaces, and it is cut at [`MAX_REFUSAL`].
pub fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= MAX_REFUSAL {
        return joined;
    }
    let mut cut: String = joined.chars().take(MAX_REFUSAL).collect();
    cut.push_str("...");
    cut
}

/// Prints one line on stderr and returns exit code 2.
pub fn refuse(what: &dyn Display) -> ExitCode {
    eprintln!("{}", one_line(&what.to_string()));
    ExitCode::from(2)
}
