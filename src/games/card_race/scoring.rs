//! The end of a round: its score line by line, the running totals, and whether the game
//! is over (and who won).

use super::{CardRace, Event, Line, Phase, RoundEnd, RoundResult, RoundScore, ScoreLine};

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

    /// Teams with the highest total.
    pub fn winning_teams(&self) -> Vec<u8> {
        let best = self.teams.iter().map(|t| t.total).max().unwrap_or(0);
        (0..self.teams.len())
            .filter(|&i| self.teams.get(i).is_some_and(|t| t.total == best))
            .map(|i| i as u8)
            .collect()
    }
}
