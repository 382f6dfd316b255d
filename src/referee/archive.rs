//! Races after their end: the export of a whole race (the format is `export.rs`), the
//! server's archive of races, and the picture of any past turn, redrawn from the log.

use super::error::RefereeError;
use super::export::{Export, export_of};
use super::machine::Referee;
use super::verify;
use crate::games::{AnyPublicView, GameKind};
use crate::vocab::{CampaignId, Millis, Phase};

/// The most races one page of `/race archive` lists.
pub const ARCHIVE_PAGE: u32 = 15;

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
    pub entry: super::queries::HistoryEntry,
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
        let Some(loaded) = self.load(race).await? else {
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
            let loaded = match self.load(id).await {
                Ok(Some(l)) => l,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(
                        race = id.0,
                        "archive: race left out: {}",
                        e.operator_detail()
                    );
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
