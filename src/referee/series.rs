//! Series and rematches. A series is a channel's races under one name: a race
//! joins one with `/race new series:NAME`, and a rematch continues its race's series. A
//! host may open one ahead (`/race series new`) with a race count and a points table
//! ([`SeriesPoints`]); one named only by `/race new series:` runs open-ended on places
//! 10-6-4-3-2-1 (Formula 1's old table; tied seats share their rank's points). Its
//! standings add the points over the series' finished races; once as many races as
//! planned have finished, the series is complete and the last final post says so.
//!
//! A rematch is claimed in the store before its lobby is opened, so two presses of the
//! Rematch button (or two processes) open one lobby: the second is told where it is.

use super::error::RefereeError;
use super::machine::{Actor, NewRace, Referee};
use super::ratings::{Entrant, entrants};
use super::timing::describe_timing;
use crate::engine::BotLevel;
use crate::store::{Loaded, RematchClaim, SeatRow, SeriesDef};
use crate::vocab::{CampaignId, Phase, UserId};

/// Points by place: the winner 10, then 6, 4, 3, 2, 1; sixth and below 1, nothing below
/// sixth. The table is fixed so every series of a server reads alike.
pub const SERIES_POINTS: [u32; 6] = [10, 6, 4, 3, 2, 1];
/// The longest series name.
pub const MAX_SERIES_NAME: usize = 40;

/// Formula 1's table since 2010, the second preset.
pub const GRAND_PRIX_POINTS: [u32; 10] = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1];
/// The most races a series may plan.
pub const MAX_SERIES_RACES: u32 = 50;

/// Points for a final rank (1 is the winner).
pub fn points_for(rank: u32) -> u32 {
    by_place(&SERIES_POINTS, rank)
}

fn by_place(table: &[u32], rank: u32) -> u32 {
    usize::try_from(rank.saturating_sub(1))
        .ok()
        .and_then(|i| table.get(i))
        .copied()
        .unwrap_or(0)
}

/// How a series counts a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesPoints {
    /// By place: 10-6-4-3-2-1.
    Classic,
    /// By place: 25-18-15-12-10-8-6-4-2-1.
    GrandPrix,
    /// The game's own score (Magical Athlete's chips, the card races' points); a game
    /// that keeps no score counts by place, 10-6-4-3-2-1.
    Score,
}

impl SeriesPoints {
    pub const ALL: [SeriesPoints; 3] = [
        SeriesPoints::Classic,
        SeriesPoints::GrandPrix,
        SeriesPoints::Score,
    ];

    /// As the command offers it and the store keeps it.
    pub fn slug(self) -> &'static str {
        match self {
            SeriesPoints::Classic => "10-6-4-3-2-1",
            SeriesPoints::GrandPrix => "25-18-15-12-10-8-6-4-2-1",
            SeriesPoints::Score => "score",
        }
    }

    pub fn parse(text: &str) -> Option<SeriesPoints> {
        let t = text.trim().to_ascii_lowercase();
        SeriesPoints::ALL.into_iter().find(|p| p.slug() == t)
    }

    /// A seat's points for its rank, and its score where the game keeps one.
    pub fn points(self, rank: u32, score: Option<i64>) -> u32 {
        match (self, score) {
            (SeriesPoints::GrandPrix, _) => by_place(&GRAND_PRIX_POINTS, rank),
            (SeriesPoints::Score, Some(s)) => u32::try_from(s.max(0)).unwrap_or(u32::MAX),
            _ => points_for(rank),
        }
    }

    /// One line for the standings.
    pub fn describe(self) -> String {
        match self {
            SeriesPoints::Score => {
                "Points: each race's own score (by place, 10-6-4-3-2-1, where a game keeps none)."
                    .into()
            }
            p => format!("Points by place: {}.", p.slug()),
        }
    }
}

/// Reads a series name: trimmed, 1 to [`MAX_SERIES_NAME`] characters, one line.
pub fn series_name(text: &str) -> Result<String, RefereeError> {
    let name = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(RefereeError::Invalid(
            "a series needs a name, e.g. series:Autumn Cup".into(),
        ));
    }
    if name.chars().count() > MAX_SERIES_NAME || name.chars().any(char::is_control) {
        return Err(RefereeError::Invalid(format!(
            "a series name is one line of at most {MAX_SERIES_NAME} characters"
        )));
    }
    Ok(name)
}

/// One entrant's line in a series' standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesLine {
    /// As in ratings: `user:ID`, or `bot:LEVEL:NAME`.
    pub key: String,
    pub name: String,
    pub bot: bool,
    pub points: u32,
    pub races: u32,
    pub wins: u32,
    /// Their rank in each finished race of the series, oldest first (`None`: not in it).
    pub places: Vec<Option<u32>>,
    /// Their points from each finished race, oldest first.
    pub gained: Vec<u32>,
}

/// A series' standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesTable {
    pub name: String,
    /// Its finished races, oldest first: the ones that count.
    pub finished: Vec<CampaignId>,
    /// Every race of the series, finished or not.
    pub races: Vec<CampaignId>,
    /// Most points first; ties by wins, then by name.
    pub lines: Vec<SeriesLine>,
    pub points: SeriesPoints,
    /// How many races it runs, if opened ahead (`/race series new`).
    pub planned: Option<u32>,
}

impl SeriesTable {
    /// As many races as planned have finished: the standings are final.
    pub fn complete(&self) -> bool {
        self.planned
            .is_some_and(|n| u32::try_from(self.finished.len()).unwrap_or(u32::MAX) >= n)
    }
}

/// One seat of a finished race, as a series counts it: who, and the game's score if any.
pub type Scored = (Entrant, Option<i64>);

/// A finished race's entrants with their scores.
pub fn scored(loaded: &Loaded) -> Vec<Scored> {
    let scores: Vec<Option<i64>> = loaded
        .campaign
        .state
        .as_ref()
        .and_then(crate::games::AnyGame::outcome)
        .map(|o| {
            // The same placings, in the same order, as `entrants` keeps.
            o.placings
                .iter()
                .filter(|p| loaded.seats.iter().any(|s| s.seat == p.seat))
                .map(|p| p.score)
                .collect()
        })
        .unwrap_or_default();
    let mut scores = scores.into_iter();
    entrants(loaded)
        .into_iter()
        .map(|e| (e, scores.next().flatten()))
        .collect()
}

/// Standings from finished races' results, oldest first (pure, so tests hold it).
pub fn standings(
    name: &str,
    all: &[CampaignId],
    finished: &[(CampaignId, Vec<Scored>)],
    points: SeriesPoints,
    planned: Option<u32>,
) -> SeriesTable {
    let mut lines: Vec<SeriesLine> = Vec::new();
    for (i, (_, race)) in finished.iter().enumerate() {
        for (e, score) in race {
            let at = match lines.iter().position(|l| l.key == e.key) {
                Some(at) => at,
                None => {
                    lines.push(SeriesLine {
                        key: e.key.clone(),
                        name: e.name.clone(),
                        bot: e.bot,
                        points: 0,
                        races: 0,
                        wins: 0,
                        places: vec![None; finished.len()],
                        gained: vec![0; finished.len()],
                    });
                    lines.len().saturating_sub(1)
                }
            };
            let Some(line) = lines.get_mut(at) else {
                continue;
            };
            line.name.clone_from(&e.name);
            let got = points.points(e.rank, *score);
            line.points = line.points.saturating_add(got);
            if let Some(g) = line.gained.get_mut(i) {
                *g = got;
            }
            line.races = line.races.saturating_add(1);
            if e.rank == 1 {
                line.wins = line.wins.saturating_add(1);
            }
            if let Some(p) = line.places.get_mut(i) {
                *p = Some(e.rank);
            }
        }
    }
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.wins.cmp(&a.wins))
            .then(a.name.cmp(&b.name))
            .then(a.key.cmp(&b.key))
    });
    SeriesTable {
        name: name.to_string(),
        finished: finished.iter().map(|(id, _)| *id).collect(),
        races: all.to_vec(),
        lines,
        points,
        planned,
    }
}

/// What the Rematch button did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// A new lobby: the presser seated, the bots re-seated, the other players invited.
    Opened {
        race: CampaignId,
        invited: Vec<UserId>,
        bots: Vec<String>,
        series: Option<String>,
    },
    /// Someone pressed first: their lobby.
    Already(CampaignId),
}

impl Referee {
    /// Opens `channel`'s series `name` ahead (`/race series new`): `races` races, counted
    /// by `points`. A name already in use in the channel is refused.
    pub async fn open_series(
        &self,
        channel: &str,
        host: &Actor,
        name: &str,
        races: i64,
        points: SeriesPoints,
    ) -> Result<SeriesDef, RefereeError> {
        let name = series_name(name)?;
        let races = u32::try_from(races)
            .ok()
            .filter(|n| (1..=MAX_SERIES_RACES).contains(n))
            .ok_or_else(|| {
                RefereeError::Invalid(format!(
                    "a series runs 1 to {MAX_SERIES_RACES} races, e.g. races:4"
                ))
            })?;
        let taken = || {
            RefereeError::Invalid(format!(
                "this channel has a series named {name} already; /race series standings shows it"
            ))
        };
        if !self.store.series_races(channel, &name).await?.is_empty() {
            return Err(taken());
        }
        let def = SeriesDef {
            name: name.clone(),
            races,
            points: points.slug().into(),
            host: host.user.clone(),
        };
        if !self
            .store
            .open_series(channel, &def, self.clock.now())
            .await?
        {
            return Err(taken());
        }
        Ok(def)
    }

    /// Puts a race (in its lobby) in its channel's series `name`. A series opened ahead
    /// takes no more races than it planned.
    pub async fn set_series(&self, race: CampaignId, name: &str) -> Result<String, RefereeError> {
        let name = series_name(name)?;
        let w = self.read(race).await?;
        let channel = &w.campaign.channel;
        let def = self.store.series_def(channel, &name).await?;
        let races = self.store.series_races(channel, &name).await?;
        if let Some(d) = &def {
            let counted = races.iter().filter(|(id, _)| *id != race).count();
            if u32::try_from(counted).unwrap_or(u32::MAX) >= d.races {
                return Err(RefereeError::Invalid(format!(
                    "the series {} has its {} already",
                    d.name,
                    plural_races(d.races)
                )));
            }
        }
        // A series already there keeps its first spelling.
        let name = match (def, races.first()) {
            (Some(d), _) => d.name,
            (None, Some((_, first))) => first.clone(),
            (None, None) => name,
        };
        self.store.set_series(race, channel, &name).await?;
        Ok(name)
    }

    /// The standings of the series `race` counts toward, if it counts toward one.
    pub async fn series_of_race(
        &self,
        race: CampaignId,
    ) -> Result<Option<SeriesTable>, RefereeError> {
        let Some(name) = self.store.series_of(race).await? else {
            return Ok(None);
        };
        let w = self.read(race).await?;
        self.series_table(&w.campaign.channel, &name)
            .await
            .map(Some)
    }

    /// A channel's series by name (an unknown name is refused in one sentence).
    pub async fn series_table(
        &self,
        channel: &str,
        name: &str,
    ) -> Result<SeriesTable, RefereeError> {
        let asked = series_name(name)?;
        let found = self.store.series_races(channel, &asked).await?;
        let def = self.store.series_def(channel, &asked).await?;
        let name = match (&def, found.first()) {
            (Some(d), _) => d.name.clone(),
            (None, Some((_, n))) => n.clone(),
            (None, None) => {
                return Err(RefereeError::Invalid(format!(
                    "no race in this channel counts toward a series named {asked}; a race joins one with /race new series:"
                )));
            }
        };
        let points = def
            .as_ref()
            .and_then(|d| SeriesPoints::parse(&d.points))
            .unwrap_or(SeriesPoints::Classic);
        let planned = def.map(|d| d.races);
        let ids: Vec<CampaignId> = found.iter().map(|(id, _)| *id).collect();
        let mut finished = Vec::new();
        for &id in &ids {
            match self.load(id).await {
                Ok(Some(l)) if l.campaign.phase == Phase::Finished => {
                    finished.push((id, scored(&l)));
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(
                    race = id.0,
                    "series: race left out: {}",
                    e.operator_detail()
                ),
            }
        }
        Ok(standings(&name, &ids, &finished, points, planned))
    }

    /// The Rematch button: a new lobby in the same channel, with the same game, options
    /// and timing, in the same series. The presser hosts it and takes their seat back at
    /// once; bots re-seat at once; the other players are invited to press Join. Only the
    /// race's players (and its host) may open it, once: a second press says where it is.
    pub async fn rematch(&self, race: CampaignId, actor: &Actor) -> Result<Rematch, RefereeError> {
        let old = self.read(race).await?;
        if old.campaign.phase != Phase::Finished {
            return Err(RefereeError::Invalid(format!(
                "race {race} has not finished, so there is no rematch of it yet"
            )));
        }
        let own_seat = old
            .seats
            .iter()
            .find(|s| s.user.as_ref() == Some(&actor.user));
        if own_seat.is_none() && old.campaign.host != actor.user {
            return Err(RefereeError::Invalid(format!(
                "only race {race}'s players can open its rematch"
            )));
        }
        match self.store.claim_rematch(race, self.clock.now()).await? {
            RematchClaim::Taken(Some(new)) => return Ok(Rematch::Already(new)),
            RematchClaim::Taken(None) => {
                return Err(RefereeError::Invalid(format!(
                    "race {race}'s rematch is being opened right now; its lobby appears in a moment"
                )));
            }
            RematchClaim::Claimed => {}
        }
        let c = &old.campaign;
        let options = format!(
            "{} {}",
            c.kind.describe_options(&c.options),
            describe_timing(&c.timing)
        );
        let made = self
            .create(NewRace {
                kind: c.kind,
                options,
                channel: c.channel.clone(),
                guild: c.guild.clone(),
                host: actor.clone(),
            })
            .await;
        let new = match made {
            Ok(new) => new,
            Err(e) => {
                // Give the claim up, so a press after the cause is fixed opens it.
                if let Err(s) = self.store.settle_rematch(race, None).await {
                    tracing::warn!(race = race.0, "rematch claim not released: {s}");
                }
                return Err(e);
            }
        };
        self.store.settle_rematch(race, Some(new)).await?;
        // It continues the series, unless the series has all its races.
        let series = match self.store.series_of(race).await? {
            Some(name) => match self.set_series(new, &name).await {
                Ok(name) => Some(name),
                Err(RefereeError::Invalid(why)) => {
                    tracing::info!(race = new.0, "rematch: not in the series: {why}");
                    None
                }
                Err(e) => return Err(e),
            },
            None => None,
        };
        // `join` gives them back their seat's name, choice and autopilot.
        if own_seat.is_some()
            && let Err(e) = self.join(new, actor, None, None).await
        {
            tracing::info!(race = new.0, "rematch: the presser was not re-seated: {e}");
        }
        let mut bots = Vec::new();
        for s in old.seats.iter().filter(|s| s.user.is_none()) {
            let level = s.bot.unwrap_or(BotLevel::Heuristic);
            match self.add_bots(new, actor, 1, level).await {
                Ok(names) => bots.extend(names),
                Err(e) => tracing::info!(race = new.0, "rematch: a bot was not re-seated: {e}"),
            }
        }
        let mut invited: Vec<UserId> = Vec::new();
        for u in old.seats.iter().filter_map(|s| s.user.as_ref()) {
            if *u != actor.user && !invited.contains(u) {
                invited.push(u.clone());
            }
        }
        Ok(Rematch::Opened {
            race: new,
            invited,
            bots,
            series,
        })
    }
}

impl Referee {
    /// The seat `user` had in the race that lobby `race` is the rematch of, if any: their
    /// runner's name, pre-race choice and autopilot come back when they rejoin (their time
    /// zone is theirs, not the seat's, so it needs nothing). Standing plays stay with the
    /// race they were set in: they are part of its log, tied to its seat numbers.
    pub(super) async fn rematch_seat(
        &self,
        race: CampaignId,
        user: &UserId,
    ) -> Result<Option<SeatRow>, RefereeError> {
        let Some(old) = self.store.rematch_of(race).await? else {
            return Ok(None);
        };
        let w = self.read(old).await?;
        Ok(w.seats.into_iter().find(|s| s.user.as_ref() == Some(user)))
    }
}

fn plural_races(n: u32) -> String {
    format!("{n} race{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(key: &str, rank: u32) -> Scored {
        s(key, rank, None)
    }

    fn s(key: &str, rank: u32, score: Option<i64>) -> Scored {
        (
            Entrant {
                key: key.into(),
                name: key.into(),
                bot: false,
                rank,
            },
            score,
        )
    }

    #[test]
    fn points_by_place_add_up_over_the_finished_races_and_ties_share() {
        let t = standings(
            "Cup",
            &[CampaignId(1), CampaignId(2), CampaignId(3)],
            &[
                (CampaignId(1), vec![e("a", 1), e("b", 2), e("c", 3)]),
                (CampaignId(2), vec![e("b", 1), e("a", 1), e("c", 3)]),
            ],
            SeriesPoints::Classic,
            None,
        );
        let got: Vec<(&str, u32, u32)> = t
            .lines
            .iter()
            .map(|l| (l.key.as_str(), l.points, l.wins))
            .collect();
        assert_eq!(got, vec![("a", 20, 2), ("b", 16, 1), ("c", 8, 0)]);
        assert_eq!(t.lines[0].places, vec![Some(1), Some(1)]);
        assert_eq!(t.finished.len(), 2);
        assert_eq!(t.races.len(), 3);
        assert_eq!((points_for(6), points_for(7), points_for(0)), (1, 0, 10));
        assert_eq!(t.lines[1].gained, vec![6, 10]);
        assert!(!t.complete(), "open-ended");
    }

    #[test]
    fn the_presets_and_the_games_own_score() {
        let races = [
            (CampaignId(1), vec![s("a", 1, Some(7)), s("b", 2, Some(3))]),
            (CampaignId(2), vec![s("b", 1, Some(9)), s("a", 2, Some(-2))]),
        ];
        let ids = [CampaignId(1), CampaignId(2)];
        let got = |p, planned| {
            let t = standings("Cup", &ids, &races, p, planned);
            let lines: Vec<(String, u32)> =
                t.lines.iter().map(|l| (l.key.clone(), l.points)).collect();
            (lines, t.complete())
        };
        assert_eq!(
            got(SeriesPoints::GrandPrix, Some(2)),
            (vec![("a".into(), 43), ("b".into(), 43)], true)
        );
        assert_eq!(
            got(SeriesPoints::Score, Some(3)),
            (vec![("b".into(), 12), ("a".into(), 7)], false),
            "a negative score counts nothing"
        );
        // A game without a score counts by place.
        assert_eq!(SeriesPoints::Score.points(2, None), 6);
        assert_eq!(SeriesPoints::parse(" SCORE "), Some(SeriesPoints::Score));
        assert_eq!(SeriesPoints::parse("1-2-3"), None);
    }

    #[test]
    fn a_series_name_is_one_short_line() {
        assert_eq!(series_name("  Autumn   Cup ").unwrap(), "Autumn Cup");
        assert!(series_name("   ").is_err());
        assert!(series_name(&"x".repeat(41)).is_err());
    }
}
