//! A race's life under its host: opening the lobby, settings, the start, deadline
//! moves, pause and resume, cancelling.

use super::announce::{Announcement, Target};
use super::error::RefereeError;
use super::machine::{
    Actor, NewRace, Referee, Seeds, clean_text, require_host, require_in_play, require_lobby,
    require_open,
};
use super::timing;
use super::work::MAX_DEADLINE_AHEAD_MS;
use crate::engine::{SeatSetup, Seed};
use crate::store::{NewCampaign, StoreError};
use crate::vocab::{CampaignId, Millis, Phase};

/// How to move a deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadlineChange {
    /// To this moment.
    At(Millis),
    /// By this many seconds (negative brings it forward).
    Extend(i64),
}

/// A race's fresh secret seed, from the operating system (the engine draws none).
fn seed_from_os() -> Result<Seed, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(Seed(bytes))
}

impl Referee {
    /// Opens a lobby for a new race, with a fresh secret seed.
    pub async fn create(&self, req: NewRace) -> Result<CampaignId, RefereeError> {
        let mut timing = self.config.default_timing.clone();
        let game_text = timing::apply_timing_text(&mut timing, &req.options)?;
        self.config.limits.check_timing(&timing)?;
        let options = req.kind.apply_options(None, &game_text)?;
        self.check_lobby_quota(&req.host.user, req.guild.as_deref())
            .await?;
        let seed = match self.config.seeds {
            Seeds::Os => seed_from_os()
                .map_err(|e| RefereeError::Invalid(format!("no randomness for the dice: {e}")))?,
            Seeds::Fixed(seed) => seed,
        };
        let now = self.clock.now();
        let id = match self
            .store
            .create(NewCampaign {
                kind: req.kind,
                options,
                host: req.host.user.clone(),
                channel: req.channel,
                guild: req.guild,
                timing,
                seed: seed.to_hex(),
                commitment: seed.commitment(),
                now,
            })
            .await
        {
            Ok(id) => id,
            Err(StoreError::ChannelBusy) => return Err(RefereeError::ChannelBusy),
            Err(e) => return Err(e.into()),
        };
        tracing::info!(race = id.0, game = req.kind.slug(), "race created");
        self.mutate(id, |w| {
            w.touch();
            w.say_lobby();
            Ok(())
        })
        .await?;
        Ok(id)
    }

    /// Changes options (lobby) or timing (any time before the end); returns the settings.
    pub async fn settings(
        &self,
        id: CampaignId,
        actor: &Actor,
        text: &str,
    ) -> Result<String, RefereeError> {
        let text = clean_text(text);
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            let mut timing = w.campaign.timing.clone();
            let game_text = timing::apply_timing_text(&mut timing, &text)?;
            self.config.limits.check_timing(&timing)?;
            if !game_text.trim().is_empty() {
                require_lobby(w).map_err(|_| {
                    RefereeError::Invalid("game options can only change in the lobby; timing (turn, reminders, resolve) can change at any time".into())
                })?;
                w.campaign.options = w.campaign.kind.apply_options(Some(&w.campaign.options), &game_text)?;
                // Seats' choices must still fit the new options.
                for s in &w.seats {
                    if let Some(c) = &s.choice {
                        w.campaign.kind.check_seat_choice(&w.campaign.options, c).map_err(|e| RefereeError::Invalid(format!("{}: {e}", s.name)))?;
                    }
                }
            }
            w.campaign.timing = timing;
            w.touch();
            if w.campaign.phase == Phase::Lobby {
                w.say_lobby();
            }
            Ok(format!(
                "{} | {}",
                w.campaign.kind.describe_options(&w.campaign.options),
                timing::describe_timing(&w.campaign.timing)
            ))
        })
        .await
    }

    /// Starts the race: the game is set up from the seed, whose commitment is published.
    pub async fn start(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        let prefs = self.store.preferences(id).await?;
        self.check_start_quota(id, actor).await?;
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_lobby(w)?;
            let (min, _) = w.campaign.kind.seat_limits(&w.campaign.options)?;
            if w.seats.len() < min {
                return Err(RefereeError::TooFew {
                    min,
                    have: w.seats.len(),
                });
            }
            let setups: Vec<SeatSetup> = w
                .seats
                .iter()
                .map(|s| SeatSetup {
                    name: s.name.clone(),
                    choice: s.choice.clone(),
                })
                .collect();
            let mut game = w
                .campaign
                .kind
                .setup(&w.campaign.options, &setups, w.seed()?)?;
            for p in prefs.iter().filter(|p| p.step == 0) {
                if let Err(e) = game.set_preference(p.seat, &p.text) {
                    tracing::debug!(race = id.0, "a lobby preference no longer applies: {e}");
                }
            }
            w.campaign.state = Some(game);
            w.touch_state();
            w.campaign.phase = Phase::Running;
            w.campaign.step = 0;
            w.campaign.step_open = false;
            w.touch();
            w.say_lobby();
            let race = w.campaign.id;
            let announcement = Announcement::Started {
                race,
                game: w.campaign.kind,
                seats: w.seats.iter().map(|s| s.name.clone()).collect(),
                commitment: w.campaign.commitment.clone(),
            };
            w.say(Target::Channel, announcement);
            w.advance()
        })
        .await?;
        tracing::info!(race = id.0, "race started");
        Ok(())
    }

    /// Moves the open step's deadline.
    pub async fn move_deadline(
        &self,
        id: CampaignId,
        actor: &Actor,
        change: DeadlineChange,
    ) -> Result<Millis, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_in_play(w)?;
            if w.campaign.phase == Phase::Paused {
                return Err(RefereeError::Paused);
            }
            let current = w.campaign.deadline_at.ok_or(RefereeError::NotStarted)?;
            let at = match change {
                DeadlineChange::At(t) => t,
                DeadlineChange::Extend(secs) => current.saturating_add(secs.saturating_mul(1000)),
            };
            if at <= w.now {
                return Err(RefereeError::Invalid(
                    "the new deadline must be in the future".into(),
                ));
            }
            if at.saturating_sub(w.now) > MAX_DEADLINE_AHEAD_MS {
                return Err(RefereeError::Invalid(
                    "the new deadline must be within a year".into(),
                ));
            }
            w.schedule(at);
            w.notice("The deadline moved to {at}.".to_string(), Some(at), None);
            w.say_status();
            Ok(at)
        })
        .await
    }

    /// Stops the clock; the time left is kept.
    pub async fn pause(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_in_play(w)?;
            if w.campaign.phase == Phase::Paused {
                return Err(RefereeError::Paused);
            }
            let left = w
                .campaign
                .deadline_at
                .map(|d| d.saturating_sub(w.now).max(0));
            w.campaign.paused_left_ms = left;
            w.campaign.phase = Phase::Paused;
            w.unschedule();
            w.notice(
                "The race is paused; the clock has stopped.".to_string(),
                None,
                None,
            );
            w.say_status();
            Ok(())
        })
        .await
    }

    /// The race's channel is gone (`gone`: deleted) or the bot may no longer post in it:
    /// no one could follow the race, so it pauses, and its host is told by DM. Only a
    /// running race pauses, so the host is told once, not at every post that fails.
    pub async fn channel_lost(&self, id: CampaignId, gone: bool) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            if w.campaign.phase != Phase::Running {
                return Ok(());
            }
            let left = w
                .campaign
                .deadline_at
                .map(|d| d.saturating_sub(w.now).max(0));
            w.campaign.paused_left_ms = left;
            w.campaign.phase = Phase::Paused;
            w.unschedule();
            w.say_status();
            let race = w.campaign.id;
            let host = w.campaign.host.clone();
            let Some(seat) = w
                .seats
                .iter()
                .find(|s| s.user.as_ref() == Some(&host))
                .map(|s| s.seat)
            else {
                tracing::warn!(race = race.0, "the race's channel is lost and its host has no seat to DM");
                return Ok(());
            };
            let text = if gone {
                format!("I can't find the channel of race #{} any more (was it deleted?), so I paused the race. Nothing is lost.", race.0)
            } else {
                format!("I may no longer post in the channel of race #{} (a permission was taken from me), so I paused the race. Nothing is lost: give the permission back, then resume the race.", race.0)
            };
            w.say(
                Target::Dm { user: host, seat },
                Announcement::Notice {
                    race,
                    text,
                    at: None,
                    user: None,
                },
            );
            Ok(())
        })
        .await
    }

    /// Restarts the clock with the time that was left.
    pub async fn resume(&self, id: CampaignId, actor: &Actor) -> Result<Millis, RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            if w.campaign.phase != Phase::Paused {
                require_in_play(w)?;
                return Err(RefereeError::NotPaused);
            }
            w.campaign.phase = Phase::Running;
            // Checked: a stored time left beyond a year (an older row, a bad edit) is cut
            // to a year, never added so that it wraps.
            let left = w
                .campaign
                .paused_left_ms
                .take()
                .unwrap_or(60_000)
                .clamp(60_000, MAX_DEADLINE_AHEAD_MS);
            let at = w
                .now
                .checked_add(left)
                .ok_or(RefereeError::OutOfRange("the deadline"))?;
            if w.campaign.step_open {
                w.schedule(at);
            }
            w.touch();
            w.notice(
                "The race resumes; the deadline is {at}.".to_string(),
                Some(at),
                None,
            );
            w.say_status();
            w.advance()?;
            Ok(at)
        })
        .await
    }

    /// Ends the race without a result.
    pub async fn cancel(&self, id: CampaignId, actor: &Actor) -> Result<(), RefereeError> {
        self.mutate(id, |w| {
            require_host(w, actor)?;
            require_open(w)?;
            w.campaign.phase = Phase::Cancelled;
            w.campaign.ended_at = Some(w.now);
            w.unschedule();
            // The steps of an open round are told, not lost (`round.rs`).
            w.tell_open_round()?;
            let race = w.campaign.id;
            w.say(Target::Channel, Announcement::Cancelled { race });
            w.say_status();
            Ok(())
        })
        .await
    }
}
