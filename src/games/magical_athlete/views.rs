//! What players see: the public view of the board and the season, and a seat's own hand.

use super::decide::{Policy, Question};
use super::draft::Draft;
use super::race::Rid;
use super::racers::Kind;
use super::track;
use super::{MagicalAthlete, Phase, PlayerView, PrivateView, PublicView, QuestionView, RacerView};
use crate::engine::Seat;
use crate::games::words::{agree, possessive};

impl MagicalAthlete {
    pub(super) fn racer_views(&self) -> Vec<RacerView> {
        let Some(race) = &self.race else {
            return Vec::new();
        };
        if self.phase != Phase::Racing {
            return Vec::new();
        }
        race.racers
            .iter()
            .enumerate()
            .map(|(i, x)| RacerView {
                racer: x.kind,
                name: x.kind.name().to_string(),
                seat: x.seat,
                owner: self.name(x.seat).to_string(),
                space: x.pos.min(track::FINISH),
                tripped: x.tripped,
                status: x.status,
                power: race.power(i),
                copying: x.copying.and_then(|t| race.racers.get(t)).map(|t| t.kind),
                prediction: x
                    .prediction
                    .and_then(|t| race.racers.get(t))
                    .map(|t| t.kind),
            })
            .collect()
    }

    pub(super) fn waiting_text(&self) -> Option<String> {
        match &self.phase {
            Phase::Draft(d) => d.current().map(|s| match self.draft_roll_off(d) {
                Some(rolls) => format!(
                    "{} {} first, after the roll-off ({rolls})",
                    self.name(s),
                    agree(self.name(s), "drafts")
                ),
                None => format!("{} {} a racer", self.name(s), agree(self.name(s), "drafts")),
            }),
            Phase::Pick { race, .. } => Some(format!("everyone picks a racer for race {race}")),
            Phase::Racing => {
                let w = self.waiting.as_ref()?;
                let seat = w.base.asker(&w.question);
                let racer = w
                    .question
                    .racer()
                    .map(|r| self.racer_name(r))
                    .unwrap_or_default();
                let what = match &w.question {
                    Question::Turn { .. } => format!("{} turn", possessive(&racer)),
                    Question::Order { .. } => "which racer goes first".into(),
                    Question::Egg { .. } => "Egg's pick".into(),
                    q => self
                        .question_race()
                        .map(|race| format!("{racer}: {}", race.question_words(q)))
                        .unwrap_or_default(),
                };
                let who = self.name(seat);
                Some(format!("{who} {}: {what}", agree(who, "decides")))
            }
            Phase::Over => None,
        }
    }

    /// The draft's roll-off in words, until the first racer is drafted: "P1 4, P2 4, a
    /// tie; P1 5, P2 2".
    pub(super) fn draft_roll_off(&self, d: &Draft) -> Option<String> {
        if d.roll_off.is_empty() || self.players.iter().any(|p| !p.hand.is_empty()) {
            return None;
        }
        let tries: Vec<String> = d
            .roll_off
            .iter()
            .enumerate()
            .map(|(i, rolls)| {
                let parts: Vec<String> = rolls
                    .iter()
                    .map(|(s, r)| {
                        let n = self.name(*s);
                        format!("{n} {} {r}", agree(n, "rolled"))
                    })
                    .collect();
                let tie = if i + 1 < d.roll_off.len() {
                    ", a tie"
                } else {
                    ""
                };
                format!("{}{tie}", parts.join(", "))
            })
            .collect();
        Some(tries.join("; "))
    }

    pub(super) fn player_views(&self) -> Vec<PlayerView> {
        self.players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                Seat::from_index(i).map(|seat| PlayerView {
                    seat,
                    name: p.name.clone(),
                    hand: p.hand.clone(),
                    used: p.used.clone(),
                    gold: p.gold.clone(),
                    silver: p.silver.clone(),
                    bronze: self
                        .race
                        .as_ref()
                        .filter(|_| self.phase == Phase::Racing)
                        .and_then(|r| r.bronze.get(i).copied())
                        .unwrap_or(p.bronze),
                    score: p.score()
                        + self
                            .race
                            .as_ref()
                            .filter(|_| self.phase == Phase::Racing)
                            .and_then(|r| r.bronze.get(i).copied())
                            .map(|b| i64::from(b - p.bronze))
                            .unwrap_or(0),
                })
            })
            .collect()
    }

    pub(super) fn racer_name_kind(&self, r: Rid) -> Kind {
        self.race
            .as_ref()
            .and_then(|race| race.racers.get(r))
            .map(|x| x.kind)
            .unwrap_or(Kind::Legs)
    }

    pub(super) fn view_public(&self) -> PublicView {
        let (draft_line, draft_round) = match &self.phase {
            Phase::Draft(d) => (d.line.clone(), d.round + 1),
            _ => (Vec::new(), 0),
        };
        let racing = self.phase == Phase::Racing;
        let race = self.race.as_ref().filter(|_| racing);
        let race_no = match &self.phase {
            Phase::Draft(_) => 0,
            Phase::Pick { race, .. } => *race,
            Phase::Racing => race.map(|r| r.number).unwrap_or(0),
            Phase::Over => self.races_done,
        };
        let track = race.map(|r| r.track);
        PublicView {
            phase: match &self.phase {
                Phase::Draft(_) => "draft",
                Phase::Pick { .. } => "pick",
                Phase::Racing => "race",
                Phase::Over => "over",
            }
            .into(),
            race: race_no,
            schedule: self.options.schedule(),
            track,
            specials: track.map(|t| t.specials().to_vec()).unwrap_or_default(),
            players: self.player_views(),
            draft_line,
            draft_round,
            racers: self.racer_views(),
            placings: race
                .map(|r| {
                    r.placings
                        .iter()
                        .filter_map(|&i| r.racers.get(i).map(|x| x.kind))
                        .collect()
                })
                .unwrap_or_default(),
            eliminated: race
                .map(|r| {
                    r.eliminated
                        .iter()
                        .filter_map(|&i| r.racers.get(i).map(|x| x.kind))
                        .collect()
                })
                .unwrap_or_default(),
            mover: race.and_then(|r| r.mover).map(|m| self.racer_name_kind(m)),
            waiting: self.waiting_text(),
            season: self.season.clone(),
            deck_size: race.map(|r| r.deck.len()).unwrap_or(self.deck.len()),
            winners: self.winners.clone(),
            finished: self.phase == Phase::Over,
        }
    }

    pub(super) fn view_private(&self, seat: Seat) -> PrivateView {
        let p = self.players.get(seat.index());
        let question = if self.pending_seats().contains(&seat) {
            let pr = self.seat_prompt(seat);
            Some(QuestionView {
                text: pr.text,
                choices: pr.choices.into_iter().map(|c| c.order).collect(),
            })
        } else {
            None
        };
        let racing = if self.phase == Phase::Racing {
            self.race
                .as_ref()
                .map(|r| {
                    r.racers
                        .iter()
                        .filter(|x| x.seat == seat)
                        .map(|x| x.kind)
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut egg_cards: Vec<Kind> = self
            .set_aside
            .iter()
            .chain(self.race.iter().flat_map(|r| r.set_aside.iter()))
            .filter(|(s, _)| *s == seat)
            .map(|(_, k)| *k)
            .collect();
        egg_cards.dedup();
        if let (Some(Question::Egg { drawn, .. }), Some(s)) = (self.question(), self.waiting_seat())
            && s == seat
        {
            egg_cards.extend(drawn.iter().copied());
        }
        PrivateView {
            seat,
            name: self.name(seat).to_string(),
            hand: p.map(|p| p.hand.clone()).unwrap_or_default(),
            unused: p.map(super::Player::unused).unwrap_or_default(),
            racing,
            policies: p
                .map(|p| p.policies.iter().map(Policy::text).collect())
                .unwrap_or_default(),
            question,
            egg_cards,
            score: p.map(super::Player::score).unwrap_or(0),
        }
    }
}
