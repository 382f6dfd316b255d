//! What a restart reads across every race: the players who owe an order (for the DM
//! catch-up), from one read of the store instead of a load of every open race. With due
//! deadlines claimed in batches by `tick`, a restart's cost grows with the races that
//! have work due, not with all races.

use std::collections::BTreeSet;

use super::announce::SeatState;
use super::error::RefereeError;
use super::machine::Referee;
use crate::vocab::{Phase, UserId};

impl Referee {
    /// The users who owe an order now in a running race, each once, in order: the
    /// human seats of open steps without a live order, and the waiting seats of the few
    /// races between two steps (read whole, as their status shows them).
    pub async fn owing_players(&self) -> Result<Vec<UserId>, RefereeError> {
        let owing = self.store.owing().await?;
        let mut users: BTreeSet<UserId> = owing.seats.into_iter().map(|(_, _, u)| u).collect();
        for race in owing.between_steps {
            let Ok(o) = self.overview(race).await else {
                continue; // a quarantined race is told elsewhere
            };
            if o.phase != Phase::Running {
                continue;
            }
            for (seat, (_, user)) in o.seats.iter().zip(o.users.iter()) {
                if seat.state == SeatState::Waiting
                    && !seat.bot
                    && let Some(user) = user
                {
                    users.insert(user.clone());
                }
            }
        }
        Ok(users.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::GameKind;
    use crate::referee::clock::TestClock;
    use crate::referee::machine::{Actor, Config, NewRace};
    use crate::store::{SqliteStore, Store};
    use crate::vocab::{CampaignId, Timing};

    fn config(turn_secs: u64) -> Config {
        Config {
            default_timing: Timing {
                turn_secs,
                reminders: Vec::new(),
                resolve_early: true,
                calendar: Default::default(),
            },
            limits: crate::referee::limits::Limits::off(),
            ..Config::default()
        }
    }

    /// A Dream Mile race of two humans and a bot, started; its turn lasts `turn_secs`.
    async fn race(r: &Referee, i: usize) -> (CampaignId, Actor, Actor) {
        let a = Actor::new(format!("a{i}"), "A");
        let b = Actor::new(format!("b{i}"), "B");
        let id = r
            .create(NewRace {
                kind: GameKind::DreamMile,
                options: String::new(),
                channel: format!("c{i}"),
                guild: None,
                host: a.clone(),
            })
            .await
            .unwrap();
        r.join(id, &a, None, None).await.unwrap();
        r.join(id, &b, None, None).await.unwrap();
        r.add_bots(id, &a, 1, crate::engine::BotLevel::Heuristic)
            .await
            .unwrap();
        r.start(id, &a).await.unwrap();
        (id, a, b)
    }

    /// The old way: every open race loaded whole.
    async fn owing_by_loading_all(r: &Referee) -> Vec<UserId> {
        let mut users = BTreeSet::new();
        for race in r.store().open_campaigns().await.unwrap() {
            let o = r.overview(race).await.unwrap();
            if o.phase != Phase::Running {
                continue;
            }
            for (seat, (_, user)) in o.seats.iter().zip(o.users.iter()) {
                if seat.state == SeatState::Waiting && !seat.bot {
                    users.extend(user.clone());
                }
            }
        }
        users.into_iter().collect()
    }

    #[tokio::test]
    async fn the_owing_players_from_one_read_are_those_of_every_race_loaded() {
        let store = Arc::new(SqliteStore::in_memory().await.unwrap());
        let clock = Arc::new(TestClock::at_epoch());
        let r = Referee::new(store.clone(), clock.clone(), config(3600));
        let mut races = Vec::new();
        for i in 0..5 {
            races.push(race(&r, i).await);
        }
        // Race 0: A ordered; race 1: both ordered (the step resolved); race 2 cancelled;
        // race 3 paused; a lobby too.
        r.submit(races[0].0, &races[0].1.user, "3").await.unwrap();
        r.submit(races[1].0, &races[1].1.user, "3").await.unwrap();
        r.submit(races[1].0, &races[1].2.user, "3").await.unwrap();
        r.cancel(races[2].0, &races[2].1).await.unwrap();
        r.pause(races[3].0, &races[3].1).await.unwrap();
        r.create(NewRace {
            kind: GameKind::DreamMile,
            options: String::new(),
            channel: "lobby".into(),
            guild: None,
            host: Actor::new("h", "H"),
        })
        .await
        .unwrap();
        let owing = r.owing_players().await.unwrap();
        assert_eq!(owing, owing_by_loading_all(&r).await);
        assert!(owing.contains(&UserId::new("b0")) && !owing.contains(&UserId::new("a0")));
        assert!(!owing.contains(&UserId::new("a2")));
    }

    #[tokio::test]
    async fn a_restart_touches_only_the_races_with_work_due() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.unwrap());
        let clock = Arc::new(TestClock::at_epoch());
        let mut races = Vec::new();
        // Turns of 1, 2, ... 6 hours.
        for i in 0..6 {
            let r = Referee::new(store.clone(), clock.clone(), config(3600 * (i as u64 + 1)));
            races.push(race(&r, i).await.0);
        }
        let mut before = Vec::new();
        for id in &races {
            before.push(store.version(*id).await.unwrap());
        }
        // A restart 2.5 hours on: the 1- and 2-hour turns are due, no others.
        clock.advance_secs(9000);
        let restarted = Referee::new(store.clone(), clock.clone(), Config::default());
        restarted.tick().await.unwrap();
        let mut touched = Vec::new();
        for (i, id) in races.iter().enumerate() {
            if store.version(*id).await.unwrap() != before[i] {
                touched.push(i);
            }
        }
        assert_eq!(touched, [0, 1]);
    }
}
