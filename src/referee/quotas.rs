//! The quota and pace checks a request makes, over the settings of `limits.rs`.

use super::error::RefereeError;
use super::limits::Pace;
use super::machine::{Actor, Referee};
use crate::vocab::{CampaignId, Phase, UserId};

/// Which quota a new lobby or a start would exceed.
fn over(limit: u32, have: u32) -> bool {
    limit > 0 && have >= limit
}

impl Referee {
    /// Refuses a new lobby for `host` in `guild` beyond the quotas.
    pub async fn check_lobby_quota(
        &self,
        host: &UserId,
        guild: Option<&str>,
    ) -> Result<(), RefereeError> {
        let l = &self.config.limits;
        if l.lobbies_per_user == 0 && l.lobbies_per_server == 0 {
            return Ok(());
        }
        let n = self.store.open_counts(host, guild).await?;
        if over(l.lobbies_per_user, n.user_lobbies) {
            return Err(RefereeError::Quota(format!(
                "you already have {} lobbies open, the most one person may; start or cancel one first",
                n.user_lobbies
            )));
        }
        if guild.is_some() && over(l.lobbies_per_server, n.server_lobbies) {
            return Err(RefereeError::Quota(format!(
                "this server already has {} lobbies open, the most it may; start or cancel one first",
                n.server_lobbies
            )));
        }
        Ok(())
    }

    /// Refuses to start a race for `host` in `guild` beyond the quotas.
    pub async fn check_running_quota(
        &self,
        host: &UserId,
        guild: Option<&str>,
    ) -> Result<(), RefereeError> {
        let l = &self.config.limits;
        if l.running_per_user == 0 && l.running_per_server == 0 {
            return Ok(());
        }
        let n = self.store.open_counts(host, guild).await?;
        if over(l.running_per_user, n.user_running) {
            return Err(RefereeError::Quota(format!(
                "you already host {} races under way, the most one person may; let one finish first",
                n.user_running
            )));
        }
        if guild.is_some() && over(l.running_per_server, n.server_running) {
            return Err(RefereeError::Quota(format!(
                "this server already has {} races under way, the most it may; let one finish first",
                n.server_running
            )));
        }
        Ok(())
    }

    /// Refuses to start race `id` when its host or server is at the running quota. Only
    /// for a lobby its host (or a manager) may start: other refusals come from `start`.
    pub(super) async fn check_start_quota(
        &self,
        id: CampaignId,
        actor: &Actor,
    ) -> Result<(), RefereeError> {
        let Some(loaded) = self.load(id).await? else {
            return Err(RefereeError::NoRace);
        };
        let c = &loaded.campaign;
        if c.phase != Phase::Lobby || !(actor.manage || c.host == actor.user) {
            return Ok(());
        }
        self.check_running_quota(&c.host, c.guild.as_deref()).await
    }

    /// Counts one order or preference of `user` against their rate.
    pub fn pace_action(&self, user: &UserId) -> Result<(), RefereeError> {
        let l = &self.config.limits;
        self.pacer.take(
            user,
            Pace::Action,
            (l.actions_burst, l.actions_per_minute),
            self.clock.now(),
        )
    }

    /// Counts one command or button of `user` against their rate (for adapters).
    pub fn pace_command(&self, user: &UserId) -> Result<(), RefereeError> {
        let l = &self.config.limits;
        self.pacer.take(
            user,
            Pace::Command,
            (l.commands_burst, l.commands_per_minute),
            self.clock.now(),
        )
    }
}
