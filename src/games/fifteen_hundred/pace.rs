//! The pace phase (keep, up one, or down any number of levels, paying the level's cost)
//! and the extra costs phase (the leader's, and the advanced rules' wear and medal costs).

use super::board::Distance;
use super::order::PaceIntent;
use super::path::Intent;
use super::round::Leg;
use super::rules::BASE_PACE;
use super::state::{CostReason, Event, FifteenHundred, Phase, Step};

/// Wear bands of the advanced rules: (lowest, highest, cost) by mental strength.
const WEAR_1500: [(u16, u16, u16); 2] = [(25, 49, 1), (0, 24, 2)];
const WEAR_800: [(u16, u16, u16); 2] = [(13, 24, 1), (0, 12, 2)];

impl FifteenHundred {
    pub(super) fn pace_runner(
        &mut self,
        i: usize,
        pace: PaceIntent,
        intent: &Intent,
        events: &mut Vec<Event>,
    ) {
        let Some(r) = self.runners.get(i) else {
            self.turn.next += 1;
            return;
        };
        let from = r.pace;
        let (level, intent) = if r.robot {
            // Robots run at the highest player's level at the moment they move.
            let racing: Vec<u8> = (0..self.seats)
                .filter(|&p| self.racing(p))
                .filter_map(|p| self.runners.get(p).map(|r| r.pace))
                .collect();
            let all: Vec<u8> = self
                .runners
                .iter()
                .take(self.seats)
                .map(|r| r.pace)
                .collect();
            let level = racing
                .iter()
                .max()
                .or(all.iter().max())
                .copied()
                .unwrap_or(BASE_PACE);
            (level, Intent::farthest())
        } else {
            (self.pace_level_now(i, pace), intent.clone())
        };
        if let Some(r) = self.runners.get_mut(i) {
            r.pace = level;
            if !r.robot {
                let cost = self.options.pace_change_cost(from, level);
                let paid = cost.min(r.strength);
                r.strength -= paid;
                r.penalty += cost - paid;
                events.push(Event::PaceSet {
                    runner: i,
                    from,
                    to: level,
                    cost,
                    paid,
                });
            }
        }
        let leg = Leg {
            points: level,
            penalty: 0,
            pass: false,
            phase: Phase::Pace,
        };
        self.move_to(i, leg, &intent, events);
        self.turn.next += 1;
    }

    pub(super) fn start_pace(&mut self) {
        self.turn.order = self.standings();
        self.turn.next = 0;
        self.step = Step::Pace;
    }

    pub(super) fn pay(&mut self, i: usize, cost: u16, reason: CostReason, events: &mut Vec<Event>) {
        if cost == 0 {
            return;
        }
        if let Some(r) = self.runners.get_mut(i) {
            let paid = cost.min(r.strength);
            r.strength -= paid;
            r.penalty += cost - paid;
            events.push(Event::ExtraCost {
                runner: i,
                reason,
                cost,
                paid,
            });
        }
    }

    /// The extra costs phase: wear (advanced), then the leader's (or the top three's) cost.
    pub(super) fn extra_costs(&mut self, events: &mut Vec<Event>) {
        let standings = self.standings();
        if self.options.advanced {
            let bands = match self.options.distance {
                Distance::M1500 => WEAR_1500,
                Distance::M800 => WEAR_800,
            };
            for &i in &standings {
                if !self.is_player(i) {
                    continue;
                }
                let s = self.runners.get(i).map_or(0, |r| r.strength);
                if let Some(&(_, _, cost)) =
                    bands.iter().find(|(lo, hi, _)| (*lo..=*hi).contains(&s))
                {
                    self.pay(i, cost, CostReason::Wear, events);
                }
            }
        }
        let costs: &[u16] = if self.options.advanced && self.laps_left == 0 {
            &[3, 2, 1]
        } else {
            &[2]
        };
        for (n, (&i, &cost)) in standings.iter().zip(costs).enumerate() {
            if self.is_player(i) {
                let reason = if costs.len() > 1 {
                    CostReason::Medal(u8::try_from(n + 1).unwrap_or(1))
                } else {
                    CostReason::Leader
                };
                self.pay(i, cost, reason, events);
            }
        }
    }
}
