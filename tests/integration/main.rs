//! Every integration test, in one binary: each module below was once a binary of its
//! own, and each linked the whole crate. `cargo test --test integration discord_race::`
//! runs one module; docs/testing.md says what lives where.
//!
//! Shared helpers (the fake Discord, the databases, a recording courier, the picture
//! fixtures) are in [`support`].

// Tests may unwrap: a panic is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[macro_use]
mod support;

mod archive;
mod autopilot;
mod backoff;
mod backup;
mod cli;
mod cli_presets;
mod cli_run;
mod cluster;
mod crash;
mod discord_1500m;
mod discord_acknowledge;
mod discord_authz;
mod discord_autocomplete;
mod discord_autopilot;
mod discord_card_race;
mod discord_clock;
mod discord_failures;
mod discord_faults;
mod discord_magical_athlete;
mod discord_magical_athlete_auto;
mod discord_presets;
mod discord_prompts;
mod discord_race;
mod discord_robustness;
mod discord_round;
mod discord_series;
mod discord_series_score;
mod discord_spec;
mod discord_timeouts;
mod export_tamper;
mod fuzz_orders;
mod health;
mod hostile_names;
mod leaks;
mod metrics;
mod outage;
mod pictures;
mod postgres_tls;
mod quotas;
mod referee;
mod reliability;
mod rematch_seats;
mod secrets;
mod security_config;
mod shutdown;
mod soak;
mod store;
mod time;
mod upgrade;
