//! Setting a race up: the runners on their drawn lanes and the robots' deck; and the
//! placements replay scripts and tests make before a round (docs/replay/1500m.md).

use std::sync::Arc;

use super::board::{Course, Spot};
use super::options::Options;
use super::rules::{BASE_PACE, MOVEMENT_CARDS};
use super::state::{FifteenHundred, Runner, Step};
use crate::engine::{GameRng, SeatSetup, Seed, SetupError};

impl FifteenHundred {
    /// [`crate::engine::Game::setup`]: one runner a lane, lanes drawn at random, the players
    /// first and then the robots.
    pub(super) fn new(
        options: &Options,
        seats: &[SeatSetup],
        seed: Seed,
    ) -> Result<Self, SetupError> {
        let course = Arc::new(Course::new(options.board()?, options.distance));
        let mut rng = GameRng::from_seed(seed);
        let total = seats.len() + usize::from(options.robots);
        if total > usize::from(course.lanes()) {
            return Err(SetupError::SeatCount {
                min: 1,
                max: usize::from(course.lanes()).saturating_sub(usize::from(options.robots)),
                got: seats.len(),
            });
        }
        // One runner per lane, lanes drawn at random.
        let mut starts = course.start_spots();
        rng.shuffle(&mut starts);
        let strength = options.start_strength();
        let mut runners = Vec::new();
        for (i, spot) in starts.into_iter().take(total).enumerate() {
            let robot = i >= seats.len();
            runners.push(Runner {
                name: seats
                    .get(i)
                    .map(|s| s.name.clone())
                    .unwrap_or_else(|| format!("Robot {}", i + 1 - seats.len())),
                robot,
                spot,
                strength: if robot { 0 } else { strength },
                pace: BASE_PACE,
                penalty: 0,
                hand: if robot {
                    Vec::new()
                } else {
                    MOVEMENT_CARDS.to_vec()
                },
                place: None,
                last_order: None,
            });
        }
        let mut robot_deck = MOVEMENT_CARDS.to_vec();
        rng.shuffle(&mut robot_deck);
        let mut game = FifteenHundred {
            laps_left: course.start().laps,
            options: options.clone(),
            course,
            runners,
            seats: seats.len(),
            round: 0,
            step: Step::Orders,
            turn: Box::default(),
            robot_deck,
            finish_order: Vec::new(),
            history: Vec::new(),
            rng,
        };
        let mut events = Vec::new();
        game.begin_round(&mut events);
        Ok(game)
    }

    /// Index of the runner called `name` (players and robots).
    pub fn runner_named(&self, name: &str) -> Option<usize> {
        self.runners.iter().position(|r| r.name == name)
    }

    /// Places a runner before a round (replays and tests): the space must exist and be free.
    pub fn place_runner(&mut self, i: usize, spot: Spot) -> Result<(), String> {
        if !self.course.is_valid(spot) || self.course.on_finish_straight(spot) {
            return Err("there is no such space on the track".into());
        }
        if self
            .occupied(i)
            .iter()
            .any(|&s| self.course.same_space(s, spot))
        {
            return Err(format!("{} is taken", self.course.describe(spot)));
        }
        let Some(r) = self.runners.get_mut(i) else {
            return Err("there is no such runner".into());
        };
        r.spot = spot;
        let start = self.course.start().laps;
        let most = self.runners.iter().map(|r| r.spot.lap).max().unwrap_or(0);
        self.laps_left = start - most.min(start);
        Ok(())
    }

    /// Lifts a runner out of the way (replays and tests place runners in two passes, so
    /// that they may swap spaces): onto the free space furthest along the outer lane on
    /// the last lap before the finish.
    pub fn park_runner(&mut self, i: usize) -> Result<(), String> {
        let lane = self.course.lanes();
        let lap = self.course.finish_lap().saturating_sub(1);
        let occupied = self.occupied(i);
        let park = (0..self.course.lap_len(lane))
            .rev()
            .map(|pos| Spot { lane, lap, pos })
            .find(|&s| !occupied.iter().any(|&o| self.course.same_space(o, s)))
            .ok_or("there is no free space to lift a runner to")?;
        self.place_runner(i, park)
    }

    /// Sets a player's mental strength, pace, penalty or hand before a round (replays and
    /// tests); `None` leaves a value as it is.
    pub fn set_runner(
        &mut self,
        i: usize,
        strength: Option<u16>,
        pace: Option<u8>,
        penalty: Option<u16>,
        hand: Option<Vec<u8>>,
    ) -> Result<(), String> {
        let top = self.options.top_pace();
        let robot = !self.is_player(i);
        let Some(r) = self.runners.get_mut(i) else {
            return Err("there is no such runner".into());
        };
        if let Some(p) = pace {
            if !(BASE_PACE..=top).contains(&p) {
                return Err(format!("pace runs from 5 to {top}"));
            }
            r.pace = p;
        }
        if robot && (strength.is_some() || penalty.is_some() || hand.is_some()) {
            return Err("robots have no mental strength, penalty or hand".into());
        }
        if let Some(s) = strength {
            let most = self.options.start_strength();
            if s > most {
                return Err(format!(
                    "strength {s} is above the top of the mental strength track, {most}"
                ));
            }
            r.strength = s;
        }
        if let Some(p) = penalty {
            r.penalty = p;
        }
        if let Some(h) = hand {
            let mut rest = MOVEMENT_CARDS.to_vec();
            for c in &h {
                match rest.iter().position(|x| x == c) {
                    Some(pos) => {
                        rest.remove(pos);
                    }
                    None => {
                        return Err(format!(
                            "a hand holds each of 8, 9, 10 and 11 at most once, not {c}"
                        ));
                    }
                }
            }
            if h.is_empty() {
                return Err("a hand holds at least one card".into());
            }
            r.hand = h;
        }
        Ok(())
    }

    /// Sets the robots' movement deck, top card first (replays and tests): the cards left
    /// of the four robot movement cards, 8 to 11, each at most once.
    pub fn set_robot_deck(&mut self, top_first: &[u8]) -> Result<(), String> {
        let mut rest = MOVEMENT_CARDS.to_vec();
        for &c in top_first {
            if !MOVEMENT_CARDS.contains(&c) {
                return Err(format!("robot movement cards run from 8 to 11, not {c}"));
            }
            let Some(pos) = rest.iter().position(|&x| x == c) else {
                return Err(format!(
                    "the robots' deck holds each of 8, 9, 10 and 11 at most once, not {c} twice"
                ));
            };
            rest.remove(pos);
        }
        self.robot_deck = top_first.iter().rev().copied().collect();
        Ok(())
    }
}
