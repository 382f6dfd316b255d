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
    errln!("{}", one_line(&what.to_string()));
    ExitCode::from(2)
}

/// The sentence for a command line clap refused, naming flags and commands but never a
/// value typed on it: a mistyped line may hold a database URL with its password.
pub fn command_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        _ => None,
    };
    // For a bad value, InvalidArg is the argument's own name (`--players <PLAYERS>`,
    // `<CAMPAIGN>`); for an unknown argument it is the text typed, which may be a secret.
    let flag = context(ContextKind::InvalidArg);
    let valid = context(ContextKind::ValidValue);
    // What clap suggests is one of our own names, never what was typed; `help` is
    // suggested for anything short.
    let did_you_mean = |kind| {
        let names: Vec<String> = match e.get(kind) {
            Some(ContextValue::String(s)) => vec![s.clone()],
            Some(ContextValue::Strings(v)) => v.clone(),
            _ => vec![],
        };
        let names: Vec<String> = names
            .into_iter()
            .filter(|n| is_our_name(n) && n != "help")
            .map(|n| format!("`{n}`"))
            .collect();
        if names.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", names.join(" or "))
        }
    };
    let what = match e.kind() {
        ErrorKind::UnknownArgument => format!(
            "an argument was given that this command does not take{}",
            did_you_mean(ContextKind::SuggestedArg)
        ),
        ErrorKind::InvalidSubcommand => format!(
            "that is not a command{}",
            did_you_mean(ContextKind::SuggestedSubcommand)
        ),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => match (flag, valid) {
            (Some(f), Some(v)) => format!("the value of {f} is not one of: {v}"),
            (Some(f), None) => format!("the value of {f} is not valid"),
            _ => "a value on the command line is not valid".into(),
        },
        ErrorKind::MissingRequiredArgument => match context(ContextKind::InvalidArg) {
            // The player cannot guess the games' names; they are ours, never typed.
            Some(a) if a.contains("<GAME>") => format!(
                "{a} is required: one of {}",
                crate::games::GameKind::slugs()
            ),
            Some(a) => format!("{a} is required"),
            None => "a required argument is missing".into(),
        },
        // Both are our own names (`--players <PLAYERS>`); the prior one may be a list.
        ErrorKind::ArgumentConflict => match (flag, context(ContextKind::PriorArg)) {
            (Some(a), Some(b)) if is_arg_name(&a) && is_arg_name(&b) => {
                format!("{a} cannot go with {b}")
            }
            _ => "two options were given that cannot go together".into(),
        },
        ErrorKind::TooManyValues | ErrorKind::WrongNumberOfValues => {
            match flag.filter(|f| f.starts_with('-')) {
                Some(f) => format!("{f} was given the wrong number of values"),
                None => "an option was given the wrong number of values".into(),
            }
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "a command is missing".into()
        }
        _ => "the command line is not valid".into(),
    };
    format!("{what} (photofinish --help)")
}

/// An argument as clap names it (`--players <PLAYERS>`, `[CAMPAIGN]`), never a value.
fn is_arg_name(text: &str) -> bool {
    text.starts_with(['-', '<', '['])
}

/// A flag or command name as this program spells them (`--database`, `health`).
fn is_our_name(text: &str) -> bool {
    text.len() <= 40
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Parser, Subcommand};

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Debug, Subcommand)]
    enum Command {
        Health {
            #[arg(long)]
            database: Option<String>,
            #[arg(long, value_enum, default_value = "auto")]
            gateway: Gateway,
        },
    }

    #[derive(Clone, Debug, clap::ValueEnum)]
    enum Gateway {
        Auto,
        Skip,
    }

    fn refused(args: &[&str]) -> String {
        let e = Cli::try_parse_from(args).unwrap_err();
        command_line(&e)
    }

    const URL: &str = "postgres://u:hunter2@db/x?sslpassword=hunter3";

    #[test]
    fn a_mistyped_line_never_echoes_what_was_typed() {
        for args in [
            vec!["pf", "health", URL],
            vec!["pf", URL],
            vec!["pf", "health", "--databse", URL],
            vec!["pf", "health", &format!("--databse={URL}")],
            vec!["pf", "health", "--gateway", URL],
            vec!["pf", "health", "--database", URL, "--database", URL],
            vec!["pf", "health", "--database", URL, URL],
            vec!["pf", "health", "--database", URL, "--json", "hunter2"],
            vec!["pf", "hunter2"],
            vec!["pf", "health", "--hunter2"],
        ] {
            let line = refused(&args);
            assert!(!line.contains("hunter"), "{args:?}: {line}");
            assert!(line.ends_with("(photofinish --help)"), "{line}");
        }
    }

    #[test]
    fn a_mistyped_line_names_what_was_meant_never_what_was_typed() {
        assert_eq!(
            refused(&["pf", "health", "--databse"]),
            "an argument was given that this command does not take (did you mean \
             `--database`?) (photofinish --help)"
        );
        assert_eq!(
            refused(&["pf", "helth"]),
            "that is not a command (did you mean `health`?) (photofinish --help)"
        );
        assert_eq!(
            refused(&["pf", "hunter2"]),
            "that is not a command (photofinish --help)"
        );
        assert!(!refused(&["pf", "health", "--hunter2"]).contains("hunter"));
        assert!(refused(&["pf", "health", "--gateway", "x"]).contains("--gateway"));
        assert!(refused(&["pf", "health", "--gateway", "x"]).contains("auto, skip"));
    }

    #[test]
    fn a_conflict_names_both_flags() {
        #[derive(Debug, Parser)]
        struct Play {
            #[arg(long, conflicts_with = "players")]
            resume: bool,
            #[arg(long, default_value_t = 6)]
            players: usize,
        }
        let e = Play::try_parse_from(["pf", "--resume", "--players", "3"]).unwrap_err();
        assert_eq!(
            command_line(&e),
            "--resume cannot go with --players <PLAYERS> (photofinish --help)"
        );
        // A default is not given: no conflict.
        assert!(Play::try_parse_from(["pf", "--resume"]).is_ok());
    }
}
