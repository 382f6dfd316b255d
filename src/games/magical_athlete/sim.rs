//! `photofinish sim magical-athlete`: races of random racers under the default policies,
//! and the balance table players use (each racer's win and second-place rates).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::Options;
use super::race::{Defaults, Race, Racer};
use super::racers::{ALL, Kind};
use super::track::Track;
use crate::engine::{GameRng, Seat, Seed, apply_option_text};
use crate::games::sim_args::SimArgs;

/// A race of `players` random racers (one each) on `track`, set up from `seed` but not run.
/// The race number is drawn from 1-4 and earlier winners are drawn from the racers left out,
/// so Twin has someone to copy.
pub fn random_race(seed: u64, players: usize, track: Track) -> Race {
    let mut rng = GameRng::from_seed(Seed::from_u64(seed));
    let mut deck = ALL.to_vec();
    rng.shuffle(&mut deck);
    let players = players.clamp(2, 12);
    let picked: Vec<Kind> = deck.drain(..players).collect();
    let first = Seat::from_index(rng.index(players)).unwrap_or(Seat(0));
    let mut racers = Vec::with_capacity(players);
    for step in 0..players {
        let i = (first.index() + step) % players;
        if let (Some(&k), Some(seat)) = (picked.get(i), Seat::from_index(i)) {
            racers.push(Racer::new(k, seat));
        }
    }
    let number = 1 + rng.below(4) as u8;
    let winners: Vec<Kind> = deck.drain(..usize::from(number - 1)).collect();
    let mut race = Race::new(number, track, players, racers, first, rng);
    race.deck = deck;
    race.winners = winners;
    race
}

/// Runs one random race to its end with the default policies.
pub fn play_random_race(seed: u64, players: usize, track: Track) -> Race {
    let mut race = random_race(seed, players, track);
    race.quiet = true;
    let _ = race.run_to_end(&mut Defaults);
    race
}

/// How one racer fared.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Tally {
    pub races: u64,
    pub wins: u64,
    pub seconds: u64,
}

impl Tally {
    fn rate(&self, n: u64) -> f64 {
        if self.races == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.races as f64
        }
    }
}

/// The summary `photofinish sim magical-athlete` prints.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub races: u64,
    pub players: usize,
    pub first_seed: u64,
    pub tracks: Vec<Track>,
    pub by_racer: BTreeMap<String, Tally>,
    pub capped: u64,
    pub no_second: u64,
}

/// Runs `args.count` races of random racers.
pub fn run(args: &SimArgs) -> Result<Summary, String> {
    let players = args.players.unwrap_or(4);
    if !(2..=12).contains(&players) {
        return Err("a simulated race takes 2 to 12 racers".into());
    }
    if (0..players).any(|i| args.bots.level(i) == Some(crate::engine::BotLevel::Random)) {
        return Err("this sim plays every racer by the default policies (the heuristic bot); --bots random is not available".into());
    }
    let options: Options =
        apply_option_text(&Options::default(), &args.options).map_err(|e| e.to_string())?;
    <super::MagicalAthlete as crate::engine::Game>::check_options(&options)
        .map_err(|e| e.to_string())?;
    let tracks: Vec<Track> = (1..=4).map(|n| options.track_of(n)).collect();
    let mut summary = Summary {
        races: 0,
        players,
        first_seed: args.seed,
        tracks: tracks.clone(),
        by_racer: BTreeMap::new(),
        capped: 0,
        no_second: 0,
    };
    for i in 0..args.count {
        let track = tracks[(i % 4) as usize];
        let race = play_random_race(args.seed.wrapping_add(i), players, track);
        for x in &race.racers {
            summary
                .by_racer
                .entry(x.kind.name().to_string())
                .or_default()
                .races += 1;
        }
        if let Some(k) = race.placings.first().and_then(|&r| race.racers.get(r)) {
            summary
                .by_racer
                .entry(k.kind.name().to_string())
                .or_default()
                .wins += 1;
        }
        match race.placings.get(1).and_then(|&r| race.racers.get(r)) {
            Some(k) => {
                summary
                    .by_racer
                    .entry(k.kind.name().to_string())
                    .or_default()
                    .seconds += 1;
            }
            None => summary.no_second += 1,
        }
        if race.capped {
            summary.capped += 1;
        }
        summary.races += 1;
    }
    Ok(summary)
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tracks: Vec<&str> = self.tracks.iter().map(|t| t.name()).collect();
        writeln!(
            f,
            "Magical Athlete: {} races of {} random racers, default policies (seeds from {}; tracks {})",
            self.races,
            self.players,
            self.first_seed,
            tracks.join(", ")
        )?;
        writeln!(
            f,
            "{:<18} {:>6} {:>6} {:>7} {:>8} {:>8}",
            "racer", "races", "wins", "win %", "seconds", "2nd %"
        )?;
        let mut rows: Vec<(&String, &Tally)> = self.by_racer.iter().collect();
        rows.sort_by(|a, b| {
            b.1.rate(b.1.wins)
                .partial_cmp(&a.1.rate(a.1.wins))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.0.cmp(b.0))
        });
        for (name, t) in rows {
            writeln!(
                f,
                "{:<18} {:>6} {:>6} {:>6.1}% {:>8} {:>7.1}%",
                name,
                t.races,
                t.wins,
                t.rate(t.wins),
                t.seconds,
                t.rate(t.seconds)
            )?;
        }
        write!(
            f,
            "races without a second place: {}; races ended by the turn limit: {}",
            self.no_second, self.capped
        )
    }
}
