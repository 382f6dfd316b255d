//! The race's questions, answers and tasks in a few words, for the log.

use super::{Race, Task};
use crate::games::magical_athlete::decide::{Answer, Question, TurnChoice};
use crate::games::magical_athlete::racers::Rid;
use crate::games::magical_athlete::track::Special;

impl Race {
    /// A question in a few words, for the log.
    pub fn question_words(&self, q: &Question) -> String {
        let n = |r: Rid| self.who(r).kind.name();
        match q {
            Question::Order { only_one, .. } => {
                if *only_one {
                    "which racer moves this turn".into()
                } else {
                    "which racer goes first".into()
                }
            }
            Question::Turn { .. } => super::TURN_QUESTION.into(),
            Question::Predict { .. } => "which racer will win".into(),
            Question::Reroll { roll, power, .. } => {
                format!("reroll the {roll} ({})", power.name())
            }
            Question::Double { roll, .. } => format!("double the {roll}"),
            Question::Transmute { roll, .. } => format!("move 4 instead of {roll}"),
            Question::Ride { with, to, .. } => format!("ride with {} to {}", n(*with), to),
            Question::Duel { with, .. } => format!("duel {}", n(*with)),
            Question::Copy { .. } => "whom to copy".into(),
            Question::Egg { .. } => "which power to take".into(),
            Question::Twin { .. } => "which winner's power to take".into(),
        }
    }

    /// An answer in a few words.
    pub fn answer_words(&self, q: &Question, a: &Answer) -> String {
        let n = |r: Rid| self.who(r).kind.name().to_string();
        match a {
            Answer::Yes => "yes".into(),
            Answer::No => "no".into(),
            Answer::NoPower => "none".into(),
            Answer::Power(k) => match q {
                Question::Egg { .. } => "(hidden)".into(),
                _ => k.name().into(),
            },
            Answer::Racer(r) => n(*r),
            Answer::Turn(c) => match c {
                TurnChoice::Roll => "roll".into(),
                TurnChoice::Legs => "move 5 instead of rolling".into(),
                TurnChoice::Flip(r) => format!("swap with {}", n(*r)),
                TurnChoice::Guess(g) => format!("guess {g}, then roll"),
                TurnChoice::Hypnotize(r) => format!("warp {} here, then roll", n(*r)),
                TurnChoice::Warp(s) => format!("warp to space {s}, then roll"),
                TurnChoice::Cheer => "cheer, then roll".into(),
            },
        }
    }

    /// A swap or warp chosen for the turn, in a few words (when the loop rule stops it).
    pub(super) fn choice_words(&self, r: Rid, c: TurnChoice) -> String {
        let n = |r: Rid| self.who(r).kind.name();
        match c {
            TurnChoice::Flip(t) => format!("{} swapping with {} again", n(r), n(t)),
            TurnChoice::Hypnotize(t) => format!("{} warping {} to its space again", n(r), n(t)),
            TurnChoice::Warp(s) => format!("{} warping to space {s} again", n(r)),
            _ => n(r).to_string(),
        }
    }

    pub(super) fn task_words(&self, t: &Task) -> String {
        let n = |r: &Rid| self.who(*r).kind.name();
        match t {
            Task::Move { racer, by, .. } => format!("{} moving {by}", n(racer)),
            Task::Trip { racer, .. } => format!("{} tripping", n(racer)),
            Task::Star { racer } => format!("{} taking a star", n(racer)),
            Task::Space { racer, space } => match self.track.special(*space) {
                Some(Special::Arrow(by)) => format!("{} moving {by}", n(racer)),
                Some(Special::Rock) => format!("{} tripping", n(racer)),
                Some(Special::Star) => format!("{} taking a star", n(racer)),
                None => n(racer).to_string(),
            },
            Task::Eliminate { racer, .. } => format!("{} being eliminated", n(racer)),
            Task::Duel { duelist, with } => format!("{} dueling {}", n(duelist), n(with)),
            Task::Scooch { racer } => format!("{} scooching", n(racer)),
        }
    }
}
