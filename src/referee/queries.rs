//! Read-only questions: which race a channel or user has, a race at a glance, a past
//! step, the seed check, and when the next deadline falls.

use super::announce::{self, StatusSeat};
use super::error::RefereeError;
use super::machine::Referee;
use super::verify;
use crate::engine::Seat;
use crate::games::{AnyPublicView, GameKind};
use crate::store::StepLog;
use crate::vocab::{CampaignId, Millis, Phase, Timing, UserId};

/// A race at a glance.
#[derive(Clone, Debug, PartialEq)]
pub struct Overview {
    pub race: CampaignId,
    pub kind: GameKind,
    pub phase: Phase,
    pub host: UserId,
    pub channel: String,
    /// The race's server, if it has one.
    pub guild: Option<String>,
    pub label: String,
    pub deadline: Option<Millis>,
    pub paused_left_ms: Option<i64>,
    pub seats: Vec<StatusSeat>,
    pub users: Vec<(Seat, Option<UserId>)>,
    pub view: Option<AnyPublicView>,
    pub options: String,
    pub timing: Timing,
    pub commitment: String,
    /// The seed, once the race is over.
    pub seed: Option<String>,
}

/// One past step, for `/race history`.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub number: u32,
    pub label: String,
    pub late: bool,
    pub narration: Vec<String>,
    pub orders: Vec<announce::RevealedOrder>,
}

impl Referee {
    /// The race in play in a channel.
    pub async fn race_in(&self, channel: &str) -> Result<CampaignId, RefereeError> {
        self.store
            .active_in_channel(channel)
            .await?
            .ok_or(RefereeError::NoRace)
    }

    /// The race in play in a channel, or else the channel's last one (finished races keep
    /// their history and their check).
    pub async fn race_in_or_last(&self, channel: &str) -> Result<CampaignId, RefereeError> {
        match self.store.active_in_channel(channel).await? {
            Some(id) => Ok(id),
            None => self
                .store
                .latest_in_channel(channel)
                .await?
                .ok_or(RefereeError::NoRace),
        }
    }

    /// Races (running or paused) in which a user holds a seat.
    pub async fn races_of(&self, user: &UserId) -> Result<Vec<CampaignId>, RefereeError> {
        Ok(self.store.campaigns_of_user(user).await?)
    }

    /// The race at a glance: standings, the open step, who has ordered (never what).
    pub async fn overview(&self, id: CampaignId) -> Result<Overview, RefereeError> {
        let w = self.read(id).await?;
        let (label, pending) = match &w.campaign.state {
            Some(g) => {
                let p = g.pending();
                (p.label.clone(), p)
            }
            None => (String::from("Lobby"), crate::engine::Pending::none()),
        };
        let seats = w
            .seats
            .iter()
            .map(|s| {
                let live = w.orders.iter().find(|o| o.seat == s.seat);
                StatusSeat {
                    name: s.name.clone(),
                    state: if !pending.includes(s.seat) {
                        announce::SeatState::Idle
                    } else if live.is_some() {
                        announce::SeatState::Ordered
                    } else {
                        announce::SeatState::Waiting
                    },
                    bot: s.bot.is_some(),
                    receipt: live.map(|o| o.receipt.clone()),
                    bank: w.bank_shown(s.seat),
                }
            })
            .collect();
        let over = matches!(w.campaign.phase, Phase::Finished | Phase::Cancelled);
        Ok(Overview {
            race: id,
            kind: w.campaign.kind,
            phase: w.campaign.phase,
            host: w.campaign.host.clone(),
            channel: w.campaign.channel.clone(),
            guild: w.campaign.guild.clone(),
            label,
            deadline: w.campaign.deadline_at,
            paused_left_ms: w.campaign.paused_left_ms,
            seats,
            users: w.seats.iter().map(|s| (s.seat, s.user.clone())).collect(),
            view: w
                .campaign
                .state
                .as_ref()
                .map(crate::games::AnyGame::public_view),
            options: w.campaign.kind.describe_options(&w.campaign.options),
            timing: w.campaign.timing.clone(),
            commitment: w.campaign.commitment.clone(),
            seed: over.then(|| w.campaign.seed.clone()),
        })
    }

    /// A past step's result.
    pub async fn history(&self, id: CampaignId, number: u32) -> Result<HistoryEntry, RefereeError> {
        let index = number.checked_sub(1).ok_or(RefereeError::NoSuchTurn)?;
        let w = self.read(id).await?;
        if index >= w.campaign.step {
            return Err(RefereeError::NoSuchTurn);
        }
        // That one step, not the whole log: a long race's history costs the same.
        let StepLog {
            turn,
            orders,
            events,
        } = self
            .store
            .log_steps(id, index, index.saturating_add(1))
            .await?
            .into_iter()
            .next()
            .ok_or(RefereeError::NoSuchTurn)?;
        let game = w.game()?;
        let narration = game
            .narrate_all(&events)
            .into_iter()
            .filter(|n| n.audience == crate::engine::Audience::Public && !n.text.is_empty())
            .map(|n| n.text)
            .collect();
        let orders = orders
            .iter()
            .map(|o| announce::RevealedOrder {
                step: o.step,
                name: w.seat_name(o.seat),
                order: o.text.clone(),
                nonce: o.nonce.clone(),
                receipt: o.receipt.clone(),
                source: o.source,
            })
            .collect();
        Ok(HistoryEntry {
            number,
            label: turn.label,
            late: turn.late,
            narration,
            orders,
        })
    }

    /// Checks a finished race's dice against its revealed seed.
    pub async fn verify(&self, id: CampaignId) -> Result<verify::VerifyReport, RefereeError> {
        let w = self.read(id).await?;
        if !matches!(w.campaign.phase, Phase::Finished | Phase::Cancelled) {
            return Err(RefereeError::NotOver);
        }
        let log = self.store.log(id).await?;
        let prefs = self.store.preferences(id).await?;
        Ok(verify::verify(&w.campaign, &w.seats, &log, &prefs))
    }

    /// When the next deadline or reminder falls.
    pub async fn next_due(&self) -> Result<Option<Millis>, RefereeError> {
        Ok(self.store.next_due().await?)
    }
}
