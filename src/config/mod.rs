//! The application's configuration, read once and handed to each layer as its own
//! section ([`Settings`]). The layers (defaults < file < environment < flags) are put
//! together by the command line (`crate::cli::config`); this module holds the keys
//! ([`KEYS`]), reads one layer's raw text per key ([`Values`]) and checks it.
//!
//! No error from here echoes a value: a value may be a secret written in the wrong place.
//! Errors name the key and where its value came from.

mod error;
mod file;
mod keys;
mod settings;

pub use error::ConfigError;
pub use file::read_file;
pub use keys::{KEYS, Key, Kind, Raw, Source, Values, find_key};
pub use settings::{LogFormat, Metrics, Settings, parse_offset};
