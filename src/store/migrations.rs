//! The schema migrations of both databases, embedded in the binary.
//!
//! Listed by hand rather than through `sqlx::migrate!`: that macro pulls a second copy of
//! sqlx, SQLite and PostgreSQL into the build as a proc-macro (about a tenth of a fresh
//! clone's test build). A test checks this list against `migrations/` so no file is missed.

use sqlx::SqlSafeStr;
use sqlx::migrate::{Migration, MigrationType, Migrator};

/// One migration file: its version, its description (the file name's words) and its SQL.
pub(super) type Embedded = (i64, &'static str, &'static str);

pub(super) const SQLITE: &[Embedded] = &[
    (
        1,
        "campaigns",
        include_str!("../../migrations/sqlite/0001_campaigns.sql"),
    ),
    (
        2,
        "claims",
        include_str!("../../migrations/sqlite/0002_claims.sql"),
    ),
    (
        3,
        "hot paths",
        include_str!("../../migrations/sqlite/0003_hot_paths.sql"),
    ),
    (
        4,
        "reliability",
        include_str!("../../migrations/sqlite/0004_reliability.sql"),
    ),
    (
        5,
        "quotas",
        include_str!("../../migrations/sqlite/0005_quotas.sql"),
    ),
    (
        8,
        "time",
        include_str!("../../migrations/sqlite/0008_time.sql"),
    ),
    (
        9,
        "once",
        include_str!("../../migrations/sqlite/0009_once.sql"),
    ),
    (
        11,
        "clocks",
        include_str!("../../migrations/sqlite/0011_clocks.sql"),
    ),
    (
        12,
        "autopilot",
        include_str!("../../migrations/sqlite/0012_autopilot.sql"),
    ),
    (
        13,
        "archive",
        include_str!("../../migrations/sqlite/0013_archive.sql"),
    ),
    (
        14,
        "round",
        include_str!("../../migrations/sqlite/0014_round.sql"),
    ),
    (
        16,
        "series",
        include_str!("../../migrations/sqlite/0016_series.sql"),
    ),
    (
        19,
        "series defs",
        include_str!("../../migrations/sqlite/0019_series_defs.sql"),
    ),
    (
        20,
        "state row",
        include_str!("../../migrations/sqlite/0020_state_row.sql"),
    ),
    (
        21,
        "lean writes",
        include_str!("../../migrations/sqlite/0021_lean_writes.sql"),
    ),
    (
        22,
        "liveness",
        include_str!("../../migrations/sqlite/0022_liveness.sql"),
    ),
];

pub(super) const POSTGRES: &[Embedded] = &[
    (
        1,
        "campaigns",
        include_str!("../../migrations/postgres/0001_campaigns.sql"),
    ),
    (
        2,
        "claims",
        include_str!("../../migrations/postgres/0002_claims.sql"),
    ),
    (
        3,
        "hot paths",
        include_str!("../../migrations/postgres/0003_hot_paths.sql"),
    ),
    (
        4,
        "reliability",
        include_str!("../../migrations/postgres/0004_reliability.sql"),
    ),
    (
        5,
        "quotas",
        include_str!("../../migrations/postgres/0005_quotas.sql"),
    ),
    (
        8,
        "time",
        include_str!("../../migrations/postgres/0008_time.sql"),
    ),
    (
        9,
        "once",
        include_str!("../../migrations/postgres/0009_once.sql"),
    ),
    (
        11,
        "clocks",
        include_str!("../../migrations/postgres/0011_clocks.sql"),
    ),
    (
        12,
        "autopilot",
        include_str!("../../migrations/postgres/0012_autopilot.sql"),
    ),
    (
        13,
        "archive",
        include_str!("../../migrations/postgres/0013_archive.sql"),
    ),
    (
        14,
        "round",
        include_str!("../../migrations/postgres/0014_round.sql"),
    ),
    (
        16,
        "series",
        include_str!("../../migrations/postgres/0016_series.sql"),
    ),
    (
        19,
        "series defs",
        include_str!("../../migrations/postgres/0019_series_defs.sql"),
    ),
    (
        20,
        "state row",
        include_str!("../../migrations/postgres/0020_state_row.sql"),
    ),
    (
        21,
        "lean writes",
        include_str!("../../migrations/postgres/0021_lean_writes.sql"),
    ),
    (
        22,
        "liveness",
        include_str!("../../migrations/postgres/0022_liveness.sql"),
    ),
];

/// A migrator over `files`, with the same versions, descriptions and checksums that
/// `sqlx::migrate!` gave them, so databases it migrated stay valid.
pub(super) fn migrator(files: &[Embedded]) -> Migrator {
    let migrations = files
        .iter()
        .map(|&(version, description, sql)| {
            // The macro's own opt-out marker, read the same way.
            let no_tx = sql.starts_with("-- no-transaction");
            Migration::new(
                version,
                description.into(),
                MigrationType::Simple,
                sql.into_sql_str(),
                no_tx,
            )
        })
        .collect();
    Migrator::with_migrations(migrations)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `NNNN_words.sql` files of one folder, as (version, description).
    fn on_disk(folder: &str) -> Vec<(i64, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(folder);
        let mut found: Vec<(i64, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter_map(|name| {
                let stem = name.strip_suffix(".sql")?;
                let (version, words) = stem.split_once('_')?;
                Some((version.parse().unwrap(), words.replace('_', " ")))
            })
            .collect();
        found.sort();
        found
    }

    fn listed(files: &[Embedded]) -> Vec<(i64, String)> {
        files.iter().map(|&(v, d, _)| (v, d.to_string())).collect()
    }

    #[test]
    fn every_migration_file_is_listed() {
        assert_eq!(listed(SQLITE), on_disk("sqlite"));
        assert_eq!(listed(POSTGRES), on_disk("postgres"));
    }

    #[test]
    fn migrators_keep_every_file_in_order() {
        let m = migrator(SQLITE);
        let versions: Vec<i64> = m.iter().map(|m| m.version).collect();
        assert_eq!(
            versions,
            vec![1, 2, 3, 4, 5, 8, 9, 11, 12, 13, 14, 16, 19, 20, 21, 22]
        );
    }
}
