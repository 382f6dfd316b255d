//! Dice and decisions: a die from the script or the RNG, a question put to the [`Decider`],
//! and the answers a standing policy or the documented default give on this board.

use super::{Decider, Defaults, Halt, R, Race, RaceEvent};
use crate::engine::Seat;
use crate::games::magical_athlete::decide::{
    Aim, Answer, Cheer, First, Given, How, Policy, Predict, Question, Ride, TurnChoice,
};
use crate::games::magical_athlete::racers::{Kind, Rid};

impl Race {
    /// One die for `r`.
    pub(super) fn die(&mut self) -> R<u8> {
        self.forget_since_roll();
        match &mut self.dice {
            Some(q) => match q.pop_front() {
                Some(v) => Ok(v.clamp(1, 6)),
                None => Err(Halt::OutOfDice),
            },
            None => Ok(self.rng.die(6)),
        }
    }

    pub(super) fn ask(&mut self, d: &mut dyn Decider, q: Question) -> R<Answer> {
        match self.answer(d, &q) {
            Some(a) => Ok(a),
            None => Err(Halt::Ask(q)),
        }
    }

    /// The answer to `q`, or `None` to wait for a live one.
    pub(super) fn answer(&mut self, d: &mut dyn Decider, q: &Question) -> Option<Answer> {
        let given = d.decide(self, q)?;
        let answer = if q.allows(&given.answer) {
            given.answer
        } else {
            default_answer(self, q)
        };
        if self.quiet {
            return Some(answer);
        }
        let racer = q.racer().unwrap_or(0);
        let e = RaceEvent::Decided {
            racer: self.who(racer),
            question: self.question_words(q),
            answer: self.answer_words(q, &answer),
            how: given.how,
        };
        self.emit(e);
        Some(answer)
    }
}

impl Race {
    /// The seat that answers `q`.
    pub fn asker(&self, q: &Question) -> Seat {
        match q {
            Question::Order { seat, .. } => *seat,
            _ => q
                .racer()
                .and_then(|r| self.racers.get(r))
                .map(|r| r.seat)
                .unwrap_or(Seat(0)),
        }
    }

    /// The answer a policy gives (the default policy when `policy` is `None`).
    pub fn policy_answer(&self, q: &Question, policy: Option<&Policy>) -> Answer {
        policy_answer(self, q, policy)
    }

    /// The documented default answer.
    pub fn default_answer(&self, q: &Question) -> Answer {
        default_answer(self, q)
    }
}

impl Decider for Defaults {
    fn decide(&mut self, race: &Race, q: &Question) -> Option<Given> {
        Some(Given {
            answer: default_answer(race, q),
            how: How::Default,
        })
    }

    fn rolls_unasked(&self) -> bool {
        true
    }
}

/// The answer a policy gives (the default policy when `policy` is `None`).
fn policy_answer(race: &Race, q: &Question, policy: Option<&Policy>) -> Answer {
    let topic = q.topic();
    let default;
    let policy = match (policy, topic) {
        (Some(p), Some(t)) if p.topic() == t => p,
        (_, Some(t)) => {
            default = Policy::default_for(t);
            &default
        }
        (_, None) => return first_answer(q),
    };
    let answer = answer_by(race, q, policy);
    if q.allows(&answer) {
        answer
    } else {
        first_answer(q)
    }
}

/// The documented default answer.
fn default_answer(race: &Race, q: &Question) -> Answer {
    policy_answer(race, q, None)
}

/// The first legal answer (without building the whole list: this runs every turn).
fn first_answer(q: &Question) -> Answer {
    let first = match q {
        Question::Order { racers, .. } => racers.first().map(|&r| Answer::Racer(r)),
        Question::Turn { choices, .. } => choices.first().map(|&c| Answer::Turn(c)),
        Question::Predict { candidates, .. } | Question::Copy { candidates, .. } => {
            candidates.first().map(|&r| Answer::Racer(r))
        }
        Question::Reroll { .. }
        | Question::Double { .. }
        | Question::Transmute { .. }
        | Question::Ride { .. }
        | Question::Duel { .. } => Some(Answer::Yes),
        Question::Egg { drawn, .. } => drawn.first().map(|&k| Answer::Power(k)),
        Question::Twin { winners, .. } => Some(
            winners
                .first()
                .map(|&k| Answer::Power(k))
                .unwrap_or(Answer::NoPower),
        ),
    };
    first.unwrap_or(Answer::No)
}

fn yes(b: bool) -> Answer {
    if b { Answer::Yes } else { Answer::No }
}

fn answer_by(race: &Race, q: &Question, policy: &Policy) -> Answer {
    match (q, policy) {
        (Question::Reroll { roll, .. }, Policy::Magician(n) | Policy::Dicemonger(n)) => {
            yes(roll < n)
        }
        (Question::Double { roll, .. }, Policy::Rocket(n)) => yes(roll >= n),
        (Question::Transmute { .. }, Policy::Alchemist(b)) => yes(*b),
        (Question::Ride { racer, to, .. }, Policy::Suckerfish(r)) => {
            let from = race.racers.get(*racer).map(|x| x.pos).unwrap_or(0);
            yes(match r {
                Ride::Always => true,
                Ride::Never => false,
                Ride::Forward => *to > from,
            })
        }
        (Question::Duel { .. }, Policy::Duelist(b)) => yes(*b),
        (Question::Copy { candidates, .. }, Policy::Copycat(prefs)) => {
            pick_preferred(race, candidates, prefs)
        }
        (Question::Predict { racer, candidates }, Policy::Mastermind(p)) => {
            let target = match p {
                Predict::Me => Some(*racer),
                Predict::Leader => race.leaders().first().copied(),
                Predict::Racer(k) => race.find(*k),
            };
            match target.filter(|t| candidates.contains(t)) {
                Some(t) => Answer::Racer(t),
                None => Answer::Racer(*racer),
            }
        }
        (Question::Egg { drawn, .. }, Policy::Egg(prefs)) => prefs
            .iter()
            .find(|k| drawn.contains(k))
            .or(drawn.first())
            .map(|&k| Answer::Power(k))
            .unwrap_or(Answer::NoPower),
        (Question::Twin { winners, .. }, Policy::Twin(prefs)) => match prefs {
            None => Answer::NoPower,
            Some(prefs) => prefs
                .iter()
                .find(|k| winners.contains(k))
                .or(winners.last())
                .map(|&k| Answer::Power(k))
                .unwrap_or(Answer::NoPower),
        },
        (Question::Order { racers, .. }, Policy::Order(first)) => {
            let pos = |r: &Rid| race.racers.get(*r).map(|x| x.pos).unwrap_or(0);
            let pick = match first {
                First::Back => racers.iter().min_by_key(|r| pos(r)),
                First::Front => racers.iter().max_by_key(|r| pos(r)),
            };
            pick.map(|&r| Answer::Racer(r))
                .unwrap_or_else(|| first_answer(q))
        }
        (Question::Turn { racer, choices }, p) => {
            Answer::Turn(turn_choice(race, *racer, choices, p))
        }
        _ => first_answer(q),
    }
}

fn pick_preferred(race: &Race, candidates: &[Rid], prefs: &[Kind]) -> Answer {
    for k in prefs {
        if let Some(&r) = candidates
            .iter()
            .find(|&&r| race.racers.get(r).is_some_and(|x| x.kind == *k))
        {
            return Answer::Racer(r);
        }
    }
    candidates
        .first()
        .map(|&r| Answer::Racer(r))
        .unwrap_or(Answer::No)
}

fn turn_choice(race: &Race, me: Rid, choices: &[TurnChoice], policy: &Policy) -> TurnChoice {
    let my_pos = race.racers.get(me).map(|r| r.pos).unwrap_or(0);
    let pos = |r: Rid| race.racers.get(r).map(|x| x.pos).unwrap_or(0);
    let targets = |f: fn(Rid) -> TurnChoice| -> Vec<Rid> {
        choices
            .iter()
            .filter_map(|c| match (*c, f(0)) {
                (TurnChoice::Flip(r), TurnChoice::Flip(_)) => Some(r),
                (TurnChoice::Hypnotize(r), TurnChoice::Hypnotize(_)) => Some(r),
                _ => None,
            })
            .collect()
    };
    let aim = |aim: &Aim, ts: Vec<Rid>| -> Option<Rid> {
        match aim {
            Aim::Never => None,
            Aim::Leader(gain) => {
                let best = ts
                    .iter()
                    .copied()
                    .max_by_key(|&r| (pos(r), std::cmp::Reverse(r)))?;
                (pos(best) >= my_pos.saturating_add(*gain)).then_some(best)
            }
            Aim::Racer(k) => ts
                .iter()
                .copied()
                .find(|&r| race.racers.get(r).is_some_and(|x| x.kind == *k) && pos(r) > my_pos),
        }
    };
    let chosen = match policy {
        Policy::Legs(true) => Some(TurnChoice::Legs),
        Policy::Genius(Some(n)) => Some(TurnChoice::Guess(*n)),
        Policy::FlipFlop(a) => aim(a, targets(TurnChoice::Flip)).map(TurnChoice::Flip),
        Policy::Hypnotist(a) => aim(a, targets(TurnChoice::Hypnotize)).map(TurnChoice::Hypnotize),
        Policy::ThirdWheel(true) => choices
            .iter()
            .filter_map(|c| match c {
                TurnChoice::Warp(s) if *s > my_pos => Some(*s),
                _ => None,
            })
            .max()
            .map(TurnChoice::Warp),
        Policy::Cheerleader(c) => {
            let last = race.last_place();
            let cheer = match c {
                Cheer::Always => true,
                Cheer::Never => false,
                Cheer::WhenLast => last.contains(&me),
            };
            cheer.then_some(TurnChoice::Cheer)
        }
        _ => None,
    };
    chosen
        .filter(|c| choices.contains(c))
        .unwrap_or(TurnChoice::Roll)
}
