//! The one configuration loader every command uses (`run`, `health`, `migrate`,
//! `verify`, `config check`): defaults < the config file < the environment < flags.
//!
//! One shared function rather than `figment`: the keys are few and flat, and a config
//! error must never echo a value (a token written without quotes), which is easiest to
//! guarantee when the messages are all ours; and `config check` needs each value's origin,
//! which is kept here as each layer is laid over the last.
//!
//! - The file: `--config PATH`, else `PHOTOFINISH_CONFIG`, else `./config.toml` if there is
//!   one. A file named by either must exist.
//! - The environment: every key as `PHOTOFINISH_<KEY>` (`turns.length` is
//!   `PHOTOFINISH_TURNS_LENGTH`; lists are comma-separated), plus two older names that
//!   stay: `DISCORD_TOKEN` for the token and `RUST_LOG` for `log.level`, each below its
//!   `PHOTOFINISH_` name. An empty variable counts as unset.
//! - Flags: `--database`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{ConfigError, KEYS, Key, Raw, Settings, Source, Values, read_file};
use crate::referee::zones::tzdb;
use crate::store::redact;

/// The environment variable naming the config file.
pub const CONFIG_ENV: &str = "PHOTOFINISH_CONFIG";

/// Older environment names kept for a key, below its `PHOTOFINISH_` name.
const ALIASES: &[(&str, &str)] = &[("token", "DISCORD_TOKEN"), ("log.level", "RUST_LOG")];

/// The flags that feed the configuration.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Flags {
    /// The configuration file (default: $PHOTOFINISH_CONFIG, else ./config.toml if present);
    /// see config.example.toml.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The database: a SQLite file or a postgres:// URL; wins over the file and
    /// $PHOTOFINISH_DATABASE.
    #[arg(long, visible_alias = "db")]
    pub database: Option<String>,
}

/// The configuration as loaded: the checked settings, and where each set value came from.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub settings: Settings,
    pub values: Values,
    /// The file read, and why that one; `None` if none was.
    pub file: Option<(PathBuf, &'static str)>,
}

/// Loads the configuration from the process's own environment.
pub fn load(flags: &Flags) -> Result<Loaded, ConfigError> {
    load_with(flags, &|name| std::env::var(name).ok())
}

/// Loads the configuration; `env` reads one environment variable.
pub fn load_with(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Loaded, ConfigError> {
    let set = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let (path, why, required) = match (&flags.config, set(CONFIG_ENV)) {
        (Some(path), _) => (path.clone(), "from --config", true),
        (None, Some(path)) => (PathBuf::from(path), "from PHOTOFINISH_CONFIG", true),
        (None, None) => (
            PathBuf::from("config.toml"),
            "found in the working directory",
            false,
        ),
    };
    let mut values = Values::new();
    let mut read = None;
    if let Some(text) = read_text(&path, required)? {
        values = read_file(&text, &path.display().to_string())?;
        read = Some((path, why));
    }
    for key in KEYS {
        let name = key.env();
        let alias = ALIASES
            .iter()
            .find(|(k, _)| *k == key.name)
            .map(|(_, a)| *a);
        let found = set(&name)
            .map(|v| (v, name.clone()))
            .or_else(|| alias.and_then(|a| set(a).map(|v| (v, a.to_string()))));
        if let Some((text, var)) = found {
            values.insert(
                key.name,
                Raw {
                    text,
                    source: Source::Env(var),
                },
            );
        }
    }
    if let Some(db) = flags.database.as_ref().filter(|d| !d.trim().is_empty()) {
        values.insert(
            "database",
            Raw {
                text: db.clone(),
                source: Source::Flag("--database"),
            },
        );
    }
    let settings = Settings::from_values(&values)?;
    Ok(Loaded {
        settings,
        values,
        file: read,
    })
}

/// The file's text; `None` for a default file that is not there.
fn read_text(path: &Path, required: bool) -> Result<Option<String>, ConfigError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => Ok(None),
        // A URL given as the file by mistake is shown as every URL is.
        Err(e) => Err(ConfigError::Read {
            path: redact(&path.display().to_string()),
            reason: match e.kind() {
                std::io::ErrorKind::NotFound => "no such file".into(),
                std::io::ErrorKind::PermissionDenied => "permission denied".into(),
                // What a container gets when the file it should mount did not exist.
                std::io::ErrorKind::IsADirectory => {
                    "it is a directory, not a file (create the file before mounting it, or \
                     set every key in the environment instead)"
                        .into()
                }
                std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
                _ => e.to_string(),
            },
        }),
    }
}

/// The database every command opens, from the same layers as the bot's.
pub fn database(flags: &Flags) -> Result<String, ConfigError> {
    load(flags).map(|l| l.settings.database)
}

/// How a value is shown: secrets masked, URLs without their passwords.
fn shown(key: &Key, text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        "(unset)".into()
    } else if key.secret {
        "(hidden)".into()
    } else if matches!(key.name, "database" | "rest_proxy") {
        format!("{:?}", redact(text))
    } else {
        format!("{text:?}")
    }
}

/// The lines of `photofinish config check`: each key, its effective value (masked), and
/// where it came from; first the file and the time-zone database `time_zone` is read in.
pub fn describe(loaded: &Loaded) -> Vec<String> {
    let mut lines = vec![
        match &loaded.file {
            Some((path, why)) => format!("# file: {} ({why})", path.display()),
            None => "# file: none (no --config, no PHOTOFINISH_CONFIG, no ./config.toml)".into(),
        },
        format!("# time zones: {}", tzdb()),
    ];
    for key in KEYS {
        let (text, from) = match loaded.values.get(key.name) {
            Some(raw) if !raw.text.trim().is_empty() => (raw.text.as_str(), raw.source.to_string()),
            _ => (key.default, "default".to_string()),
        };
        lines.push(format!("{} = {}  # {from}", key.name, shown(key, text)));
    }
    lines
}

/// `photofinish config check`: prints the effective configuration (exit 0), or the one
/// line that says what is wrong (exit 2). A missing token is wrong: `run` needs one.
pub fn check(flags: &Flags) -> ExitCode {
    let loaded = match load(flags) {
        Ok(l) => l,
        Err(e) => return super::refusal::refuse(&e),
    };
    for line in describe(&loaded) {
        outln!("{line}");
    }
    if loaded.settings.discord.token.is_empty() {
        return super::refusal::refuse(&ConfigError::NoToken);
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    fn file(dir: &Path, text: &str) -> PathBuf {
        let path = dir.join("bot.toml");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_directory_where_the_file_should_be_says_how_to_mend_it() {
        let dir = tempfile::tempdir().unwrap();
        let flags = Flags {
            config: Some(dir.path().to_path_buf()),
            database: None,
        };
        let err = load_with(&flags, &env(&[])).unwrap_err().to_string();
        assert!(err.contains("is a directory, not a file"), "{err}");
        assert!(err.contains("create the file before mounting it"), "{err}");
    }

    #[test]
    fn flags_beat_the_environment_which_beats_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = file(
            dir.path(),
            "token = \"file\"\ndatabase = \"file.db\"\ntime_zone = \"+01:00\"\n",
        );
        let flags = Flags {
            config: Some(path.clone()),
            database: None,
        };
        let l = load_with(&flags, &env(&[])).unwrap();
        assert_eq!(l.settings.database, "file.db");
        assert_eq!(l.settings.discord.token.expose(), "file");
        let l = load_with(
            &flags,
            &env(&[
                ("PHOTOFINISH_DATABASE", "env.db"),
                ("DISCORD_TOKEN", "old-env"),
            ]),
        )
        .unwrap();
        assert_eq!(l.settings.database, "env.db");
        assert_eq!(l.settings.discord.token.expose(), "old-env");
        assert_eq!(
            l.values["database"].source,
            Source::Env("PHOTOFINISH_DATABASE".into())
        );
        let l = load_with(
            &flags,
            &env(&[
                ("PHOTOFINISH_TOKEN", "new-env"),
                ("DISCORD_TOKEN", "old-env"),
            ]),
        )
        .unwrap();
        assert_eq!(l.settings.discord.token.expose(), "new-env");
        let l = load_with(
            &Flags {
                database: Some("flag.db".into()),
                ..flags.clone()
            },
            &env(&[("PHOTOFINISH_DATABASE", "env.db")]),
        )
        .unwrap();
        assert_eq!(l.settings.database, "flag.db");
        assert_eq!(l.values["database"].source, Source::Flag("--database"));
        // Every key from the environment, lists comma-separated.
        let l = load_with(
            &flags,
            &env(&[
                ("PHOTOFINISH_TURNS_REMINDERS", "10m, 1h"),
                ("PHOTOFINISH_SHARD_TOTAL", "4"),
                ("PHOTOFINISH_SHARDS", "2-3"),
                ("PHOTOFINISH_LOG_ANSI", "true"),
                ("PHOTOFINISH_TIME_ZONE", ""),
            ]),
        )
        .unwrap();
        assert_eq!(l.settings.referee.default_timing.reminders, vec![3600, 600]);
        assert_eq!(l.settings.discord.shards.to_string(), "2-3 of 4");
        assert!(l.settings.log.ansi);
        // An empty variable is unset: the file's time zone stays.
        assert_eq!(l.settings.discord.time_zone.to_string(), "UTC+01:00");
    }

    #[test]
    fn the_file_comes_from_the_flag_the_environment_or_the_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = file(dir.path(), "database = \"named.db\"\n");
        let l = load_with(
            &Flags::default(),
            &env(&[(CONFIG_ENV, path.to_str().unwrap())]),
        )
        .unwrap();
        assert_eq!(l.settings.database, "named.db");
        let err = load_with(
            &Flags::default(),
            &env(&[(CONFIG_ENV, "/nonexistent/photofinish.toml")]),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read /nonexistent/photofinish.toml: no such file"
        );
        // An error names the variable a bad value came from, never the value.
        let err = load_with(
            &Flags::default(),
            &env(&[
                (CONFIG_ENV, path.to_str().unwrap()),
                ("PHOTOFINISH_GUILD", "s3cret"),
            ]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("`guild` from PHOTOFINISH_GUILD"), "{err}");
        assert!(!err.contains("s3cret"), "{err}");
    }

    #[test]
    fn config_check_masks_secrets_and_names_origins() {
        let dir = tempfile::tempdir().unwrap();
        let path = file(
            dir.path(),
            "token = \"MTIz.file-secret\"\n[turns]\nlength = \"2h\"\n",
        );
        let l = load_with(
            &Flags {
                config: Some(path),
                database: None,
            },
            &env(&[(
                "PHOTOFINISH_DATABASE",
                "postgres://bot:pw-secret@db:5432/pf?sslpassword=ssl-secret",
            )]),
        )
        .unwrap();
        let text = describe(&l).join("\n");
        assert!(!text.contains("secret"), "{text}");
        assert!(text.contains("token = (hidden)  # in "), "{text}");
        assert!(text.contains("# from PHOTOFINISH_DATABASE"), "{text}");
        assert!(text.contains("turns.length = \"2h\"  # in "), "{text}");
        assert!(text.contains("time_zone = \"UTC\"  # default"), "{text}");
        let zones = format!("\n# time zones: tzdb {} (", tzdb().version);
        assert!(text.contains(&zones), "{text}");
    }
}
