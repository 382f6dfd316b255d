//! The export of a whole race as one JSON file ([`Export`], documented in docs/export.md):
//! its format, reading it back ([`read_export`]), and making it from the stored rows
//! ([`export_of`]).
//!
//! An export is only made of a race that is over: the seed of a running race is its
//! secret, and so are its unrevealed orders, so a running race is refused, never redacted.
//! The file carries what the offline check (`verify::verify_export`) needs and nothing
//! that names a person beyond the seats' names: no user ids, no channel.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use crate::engine::{BotLevel, Seat};
use crate::games::{AnyEvent, AnyOrder, GameKind};
use crate::store::{CampaignRow, OrderSource, PreferenceRow, SeatRow, StepLog};
use crate::vocab::{Millis, Phase};

/// The `format` every export names.
pub const EXPORT_FORMAT: &str = "photofinish-race";
/// The export format this binary writes, and the newest it reads (docs/export.md says
/// what changes bump it).
pub const EXPORT_VERSION: u32 = 1;
/// The largest export read: a long Magical Athlete race is a few hundred kilobytes.
pub const MAX_EXPORT_BYTES: u64 = 64 * 1024 * 1024;
/// A whole race, as `photofinish export` and `/race export` give it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Export {
    /// Always [`EXPORT_FORMAT`].
    pub format: String,
    /// [`EXPORT_VERSION`] when written.
    pub version: u32,
    /// The program that wrote it, e.g. `photofinish 0.1.0`.
    pub generator: String,
    /// The race's number (receipts hash it).
    pub race: i64,
    pub game: GameKind,
    /// The game's options as the engine reads them.
    pub options: Value,
    /// The same options as `key=value` text.
    pub options_text: String,
    /// `finished` or `cancelled`.
    pub phase: Phase,
    pub created_at: Millis,
    pub ended_at: Option<Millis>,
    /// False for a race cancelled in its lobby: no game was set up, nothing to replay.
    pub started: bool,
    pub seats: Vec<ExportSeat>,
    /// SHA-256 of the seed, posted at the start.
    pub commitment: String,
    /// The revealed seed, 64 hex digits.
    pub seed: String,
    /// Standing preferences in the order they were set (the replay applies them).
    pub preferences: Vec<ExportPreference>,
    pub steps: Vec<ExportStep>,
    /// Final placings, best first; `null` for a race that did not finish.
    pub result: Option<Vec<ExportPlacing>>,
}

/// A seat: its name, and whether a program played it at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportSeat {
    pub seat: Seat,
    pub name: String,
    /// The bot level playing the seat at the end, if a program did.
    pub bot: Option<BotLevel>,
    /// A person held the seat (a bot may have taken it over after they left).
    pub human: bool,
    /// The seat's pre-race choice (the game sets it up with it).
    pub choice: Option<String>,
}

/// A standing preference, as set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportPreference {
    /// The open step when it was set.
    pub step: u32,
    pub seat: Seat,
    pub text: String,
}

/// One resolved step: its orders and what they made happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportStep {
    /// From 0; the players' "turn N" is `step + 1`.
    pub step: u32,
    pub label: String,
    pub late: bool,
    pub opened_at: Millis,
    pub resolved_at: Option<Millis>,
    pub orders: Vec<ExportOrder>,
    /// The events the step's orders produced (dice, cards, moves), as the engine wrote them.
    pub events: Vec<AnyEvent>,
}

/// An order with what proves its receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportOrder {
    pub seat: Seat,
    /// The canonical text; the receipt hashes it.
    pub text: String,
    /// The order as the engine applies it.
    pub order: AnyOrder,
    pub source: OrderSource,
    pub nonce: String,
    pub receipt: String,
}

/// A final placing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportPlacing {
    pub seat: Seat,
    pub name: String,
    /// 1 + the seats strictly ahead; tied seats share it.
    pub rank: u32,
    pub score: Option<i64>,
}

/// Why a file is not an export this binary reads.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ExportError {
    #[error("the file is not JSON: {0}")]
    Json(String),
    #[error("the file is not a photofinish race export (its `format` is not `{EXPORT_FORMAT}`)")]
    NotAnExport,
    #[error(
        "the file is export version {0}; this version of photofinish reads up to {EXPORT_VERSION}: upgrade it"
    )]
    TooNew(u32),
    #[error("the export does not read: {0}")]
    Invalid(String),
}

/// True when the JSON text names itself an export (so `replay` and `render` take it).
pub fn is_export(value: &Value) -> bool {
    value.get("format").and_then(Value::as_str) == Some(EXPORT_FORMAT)
}

/// Reads an export's text: its format and version first, so that a newer file is refused
/// by name, not by a field it does not know.
pub fn read_export(text: &str) -> Result<Export, ExportError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ExportError::Json(e.to_string()))?;
    if !is_export(&value) {
        return Err(ExportError::NotAnExport);
    }
    let version = value
        .get("version")
        .and_then(Value::as_u64)
        .ok_or_else(|| ExportError::Invalid("`version` is missing".into()))?;
    let version = u32::try_from(version).unwrap_or(u32::MAX);
    if version > EXPORT_VERSION {
        return Err(ExportError::TooNew(version));
    }
    serde_json::from_value(value).map_err(|e| ExportError::Invalid(e.to_string()))
}

/// The export of a race from its stored rows. Only for a race that is over: the caller
/// refuses the others (the seed would be a secret still).
pub fn export_of(
    campaign: &CampaignRow,
    seats: &[SeatRow],
    log: &[StepLog],
    prefs: &[PreferenceRow],
) -> Export {
    let name_of = |seat: Seat| {
        seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    };
    let result = campaign
        .state
        .as_ref()
        .and_then(crate::games::AnyGame::outcome)
        .map(|o| {
            o.placings
                .iter()
                .map(|p| ExportPlacing {
                    seat: p.seat,
                    name: name_of(p.seat),
                    rank: p.rank,
                    score: p.score,
                })
                .collect()
        });
    Export {
        format: EXPORT_FORMAT.into(),
        version: EXPORT_VERSION,
        generator: format!("photofinish {}", env!("CARGO_PKG_VERSION")),
        race: campaign.id.0,
        game: campaign.kind,
        options: campaign.options.clone(),
        options_text: campaign.kind.describe_options(&campaign.options),
        phase: campaign.phase,
        created_at: campaign.created_at,
        ended_at: campaign.ended_at,
        started: campaign.state.is_some(),
        seats: seats
            .iter()
            .map(|s| ExportSeat {
                seat: s.seat,
                name: s.name.clone(),
                bot: s.bot,
                human: s.user.is_some(),
                choice: s.choice.clone(),
            })
            .collect(),
        commitment: campaign.commitment.clone(),
        seed: campaign.seed.clone(),
        preferences: prefs
            .iter()
            .map(|p| ExportPreference {
                step: p.step,
                seat: p.seat,
                text: p.text.clone(),
            })
            .collect(),
        steps: log
            .iter()
            .map(|s| ExportStep {
                step: s.turn.step,
                label: s.turn.label.clone(),
                late: s.turn.late,
                opened_at: s.turn.opened_at,
                resolved_at: s.turn.resolved_at,
                orders: s
                    .orders
                    .iter()
                    .map(|o| ExportOrder {
                        seat: o.seat,
                        text: o.text.clone(),
                        order: o.parsed.clone(),
                        source: o.source,
                        nonce: o.nonce.clone(),
                        receipt: o.receipt.clone(),
                    })
                    .collect(),
                events: s.events.clone(),
            })
            .collect(),
        result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_names_its_format_and_a_newer_version_is_refused_by_name() {
        assert_eq!(
            read_export("[1"),
            Err(ExportError::Json(
                "EOF while parsing a list at line 1 column 2".into()
            ))
        );
        assert_eq!(
            read_export(r#"{"game": "dream-mile"}"#),
            Err(ExportError::NotAnExport)
        );
        assert_eq!(
            read_export(r#"{"format": "photofinish-race", "version": 99}"#),
            Err(ExportError::TooNew(99))
        );
        assert!(matches!(
            read_export(r#"{"format": "photofinish-race", "version": 1}"#),
            Err(ExportError::Invalid(_))
        ));
    }
}
