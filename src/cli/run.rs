//! `photofinish run [--config config.toml]`: the Discord bot. Reads the configuration
//! (`DISCORD_TOKEN` overrides its token), sets up logging, and hands over to
//! [`crate::discord::run`].

use std::path::PathBuf;
use std::process::ExitCode;

use crate::discord::Settings;

pub fn run(config: Option<PathBuf>) -> ExitCode {
    let required = config.is_some();
    let path = config.unwrap_or_else(|| PathBuf::from("config.toml"));
    let settings = match Settings::load(&path, required, std::env::var("DISCORD_TOKEN").ok()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(&settings.log_level));
    let filter = match filter {
        Ok(f) => f,
        Err(e) => {
            eprintln!("`log.level` is not a valid filter: {e}");
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(settings.log_ansi)
        .with_writer(std::io::stderr)
        .init();
    tracing::info!(
        database = %settings.database,
        token = ?settings.token,
        "starting photofinish"
    );
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(crate::discord::run(settings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
