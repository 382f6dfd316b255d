//! Races after their end (issue 19): the export of a whole race as one JSON file
//! ([`Export`], documented in docs/export.md), the server's archive of races, and the
//! picture of any past turn, redrawn from the log.
//!
//! An export is only made of a race that is over: the seed of a running race is its
//! secret, and so are its unrevealed orders, so a running race is refused, never redacted.
//! The file carries what the offline check (`verify::verify_export`) needs and nothing
//! that names a person beyond the seats' names: no user ids, no channel.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use super::{Referee, RefereeError, verify};
use crate::engine::{BotLevel, Seat};
use crate::games::{AnyEvent, AnyOrder, AnyPublicView, GameKind};
use crate::store::{CampaignRow, OrderSource, PreferenceRow, SeatRow, StepLog};
use crate::vocab::{CampaignId, Millis, Phase};

/// The `format` every export names.
pub const EXPORT_FORMAT: &str = "photofinish-race";
/// The export format this binary writes, and the newest it reads (docs/export.md says
/// what changes bump it).
pub const EXPORT_VERSION: u32 = 1;
/// The largest export read: a long Magical Athlete race is a few hundred kilobytes.
pub const MAX_EXPORT_BYTES: u64 = 64 * 1024 * 1024;
/// The most races one page of `/race archive` lists.
pub const ARCHIVE_PAGE: u32 = 15;

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

/// One race in a server's archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveEntry {
    pub race: CampaignId,
    pub game: GameKind,
    pub phase: Phase,
    pub channel: String,
    pub created_at: Millis,
    pub ended_at: Option<Millis>,
    /// The winners' names (several on a tie); empty until the race finishes.
    pub winners: Vec<String>,
    /// The series it counts toward, if any.
    pub series: Option<String>,
}

/// A past turn with what the channel saw after it: the public view it is drawn from.
#[derive(Clone, Debug, PartialEq)]
pub struct PastTurn {
    pub entry: super::HistoryEntry,
    pub view: Option<AnyPublicView>,
}

impl Referee {
    /// The race, if it belongs to `guild` (`None`: asked outside a server, where only a
    /// race its user held a seat in is shown). Refused in one sentence otherwise.
    pub async fn race_of_server(
        &self,
        race: CampaignId,
        guild: Option<&str>,
        user: &crate::vocab::UserId,
    ) -> Result<CampaignId, RefereeError> {
        let Some(loaded) = self.store.load(race).await? else {
            return Err(RefereeError::Invalid(format!("there is no race {race}")));
        };
        let c = &loaded.campaign;
        let ours = match guild {
            Some(g) => c.guild.as_deref() == Some(g),
            None => loaded.seats.iter().any(|s| s.user.as_ref() == Some(user)),
        };
        if ours {
            Ok(race)
        } else if guild.is_some() {
            Err(RefereeError::Invalid(format!(
                "race {race} was not run on this server, so it can't be shown here"
            )))
        } else {
            Err(RefereeError::Invalid(format!(
                "you had no seat in race {race}; ask for it in its server"
            )))
        }
    }

    /// A race that is over, as one file. A race in its lobby or under way is refused: its
    /// seed and unrevealed orders are still secret.
    pub async fn export(&self, id: CampaignId) -> Result<Export, RefereeError> {
        let w = self.read(id).await?;
        if !matches!(w.campaign.phase, Phase::Finished | Phase::Cancelled) {
            return Err(RefereeError::Invalid(format!(
                "race {id} is not over yet; it can be exported once it has finished or been cancelled"
            )));
        }
        let log = self.store.log(id).await?;
        let prefs = self.store.preferences(id).await?;
        Ok(export_of(&w.campaign, &w.seats, &log, &prefs))
    }

    /// A server's races, newest first: at most [`ARCHIVE_PAGE`], older than `before`
    /// when given. A race whose rows no longer read is left out (and logged).
    pub async fn archive(
        &self,
        guild: &str,
        before: Option<CampaignId>,
    ) -> Result<Vec<ArchiveEntry>, RefereeError> {
        let ids = self
            .store
            .races_of_guild(guild, before, ARCHIVE_PAGE)
            .await?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let loaded = match self.store.load(id).await {
                Ok(Some(l)) => l,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(race = id.0, "archive: race left out: {e}");
                    continue;
                }
            };
            let c = &loaded.campaign;
            let winners = c
                .state
                .as_ref()
                .and_then(crate::games::AnyGame::outcome)
                .map(|o| {
                    o.winners()
                        .into_iter()
                        .map(|seat| {
                            loaded
                                .seats
                                .iter()
                                .find(|s| s.seat == seat)
                                .map_or_else(|| seat.to_string(), |s| s.name.clone())
                        })
                        .collect()
                })
                .unwrap_or_default();
            let series = self.store.series_of(id).await.unwrap_or_else(|e| {
                tracing::warn!(race = id.0, "archive: series not read: {e}");
                None
            });
            out.push(ArchiveEntry {
                race: id,
                game: c.kind,
                phase: c.phase,
                channel: c.channel.clone(),
                created_at: c.created_at,
                ended_at: c.ended_at,
                winners,
                series,
            });
        }
        Ok(out)
    }

    /// A past turn with the public view after it, replayed from the log (a running race
    /// too: the view is what the channel was shown then, and the seed stays inside).
    pub async fn past_turn(&self, id: CampaignId, number: u32) -> Result<PastTurn, RefereeError> {
        let entry = self.history(id, number).await?;
        let w = self.read(id).await?;
        let log = self.store.log_steps(id, 0, number).await?;
        let prefs = self.store.preferences(id).await?;
        let mut x = export_of(&w.campaign, &w.seats, &log, &prefs);
        x.result = None;
        let mut view = None;
        verify::replay_export(&x, |_, game, _| view = Some(game.public_view()));
        Ok(PastTurn { entry, view })
    }
}

impl Referee {
    /// The public view after every step of a finished race, replayed from its log: the
    /// frames of the final post's animation. Nothing for a race that is not over (its seed
    /// is still secret) or that never started.
    pub async fn views_of_race(&self, id: CampaignId) -> Result<Vec<AnyPublicView>, RefereeError> {
        let x = self.export(id).await?;
        let mut views = Vec::with_capacity(x.steps.len());
        verify::replay_export(&x, |_, game, _| views.push(game.public_view()));
        Ok(views)
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
