//! The end of a round: its score line by line, the running totals, and whether the game
//! is over (and who won).

use super::state::{CardRace, Event, Line, Phase, RoundEnd, RoundResult, RoundScore, ScoreLine};
use crate::engine::Seat;

impl CardRace {
    /// The round's score for each team, line by line.
    pub fn score_round(&self) -> Vec<RoundScore> {
        let s = self.rules().scoring;
        let finisher = self.finish.map(|f| f.team);
        (0..self.teams.len())
            .filter_map(|i| {
                let t = self.teams.get(i)?;
                let ti = i as u8;
                let won = finisher == Some(ti);
                let mut lines = vec![ScoreLine {
                    line: Line::Distance,
                    points: i64::from(t.distance),
                }];
                let mut add = |line: Line, points: i64| {
                    if points != 0 {
                        lines.push(ScoreLine { line, points });
                    }
                };
                add(Line::Safeties, s.per_safety * t.safeties.len() as i64);
                if t.safeties.len() == 4 && (won || !s.all_safeties_needs_trip) {
                    add(Line::AllSafeties, s.all_safeties);
                }
                let tricks = t.safeties.iter().filter(|p| p.dirty_trick).count() as i64;
                add(Line::DirtyTricks, s.dirty_trick * tricks);
                if won {
                    add(Line::Trip, s.trip);
                    if self.finish.is_some_and(|f| f.deck_empty) {
                        add(Line::Delayed, s.delayed);
                    }
                    if t.two_hundreds() == 0 {
                        add(Line::SafeTrip, s.safe_trip);
                    }
                    if self.extended_by == Some(ti) {
                        add(Line::Extension, s.extension);
                    }
                    let others_idle = self
                        .teams
                        .iter()
                        .enumerate()
                        .all(|(j, o)| j == i || o.distance == 0);
                    if others_idle {
                        add(Line::Shutout, s.shutout);
                    }
                }
                let total = lines.iter().map(|l| l.points).sum();
                Some(RoundScore {
                    team: ti,
                    lines,
                    total,
                })
            })
            .collect()
    }

    pub(super) fn end_round(&mut self, ended: RoundEnd, ev: &mut Vec<Event>) {
        self.mark(self.table_turn.max(1));
        let scores = self.score_round();
        for sc in &scores {
            if let Some(t) = self.team_mut(sc.team) {
                t.total += sc.total;
            }
        }
        let result = RoundResult {
            round: self.round,
            ended,
            scores,
        };
        self.history.push(result.clone());
        let totals: Vec<i64> = self.teams.iter().map(|t| t.total).collect();
        ev.push(Event::RoundEnded {
            result,
            totals: totals.clone(),
        });
        let o = &self.options;
        let by_rounds = o.rounds > 0 && self.round >= o.rounds;
        let by_score = o.target_score > 0 && totals.iter().any(|&t| t >= i64::from(o.target_score));
        if by_rounds || by_score {
            *self.phase = Phase::Over;
            ev.push(Event::GameEnded {
                winners: self.winning_teams(),
                totals,
            });
        } else {
            self.start_round(self.round + 1, ev);
        }
    }

    /// `seat`'s chance of winning the game judged from the totals alone, for the expert
    /// bot's playouts that stop at the end of a hand: a logistic in the lead over the best
    /// other team, whose spread grows with the hands likely left. The constants are fitted
    /// to 12,163 hand ends of 4,000 heuristic games (log loss 0.534, the first guess's
    /// 0.575; docs/balance.md, "1000 miles expert, second pass"): hands swing more than
    /// their mean suggests, so even a big lead near the end is far from safe.
    pub fn win_chance(&self, seat: Seat) -> f64 {
        let own = usize::from(self.team_index(seat));
        let mine = self.teams.get(own).map_or(0, |t| t.total);
        let other = self
            .teams
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != own)
            .map(|(_, t)| t.total)
            .max()
            .unwrap_or(0);
        let o = &self.options;
        let leader = mine.max(other);
        let by_score = (o.target_score > 0)
            .then(|| (i64::from(o.target_score) - leader).max(0) as f64 / 800.0);
        let by_rounds =
            (o.rounds > 0).then(|| f64::from(o.rounds.saturating_sub(self.round)) + 1.0);
        let hands_left = match (by_score, by_rounds) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => 4.0,
        }
        .ceil()
        .max(1.0);
        let lead = (mine - other) as f64;
        1.0 / (1.0 + (-lead / (800.0 * hands_left.powf(0.3))).exp())
    }

    /// Teams with the highest total.
    pub fn winning_teams(&self) -> Vec<u8> {
        let best = self.teams.iter().map(|t| t.total).max().unwrap_or(0);
        (0..self.teams.len())
            .filter(|&i| self.teams.get(i).is_some_and(|t| t.total == best))
            .map(|i| i as u8)
            .collect()
    }
}
