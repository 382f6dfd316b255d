//! Copycat: which leader each Copycat copies, asked again whenever the lead changes.

use super::{Decider, R, Race, RaceEvent};
use crate::games::magical_athlete::decide::{Answer, Question};
use crate::games::magical_athlete::racers::{Kind, Rid};

impl Race {
    pub(super) fn refresh_copycats(&mut self, d: &mut dyn Decider) -> R<()> {
        if !self.may_hold(Kind::Copycat) {
            return Ok(());
        }
        for c in 0..self.racers.len() {
            if !self.racing(c) || self.base_power(c) != Some(Kind::Copycat) {
                continue;
            }
            // The leaders, in index order.
            let candidates: Vec<Rid> = self
                .leaders()
                .into_iter()
                .filter(|&x| x != c && self.base_power(x).is_some_and(|p| p != Kind::Copycat))
                .collect();
            let current = self.racers[c].copying;
            let first = candidates.first().copied();
            let next = if candidates.is_empty() {
                None
            } else if let Some(cur) = current.filter(|cur| candidates.contains(cur)) {
                Some(cur)
            } else if candidates.len() == 1 {
                first
            } else {
                match self.ask(
                    d,
                    Question::Copy {
                        racer: c,
                        candidates,
                    },
                )? {
                    Answer::Racer(t) => Some(t),
                    _ => first,
                }
            };
            if next != current {
                self.racers[c].copying = next;
                if self.quiet {
                    continue;
                }
                let who = self.who(c);
                let detail = match next.and_then(|t| self.base_power(t).map(|p| (t, p))) {
                    Some((t, p)) if self.who(t).kind == p => format!("copies {}", p.name()),
                    Some((t, p)) => {
                        format!("copies {} ({}'s power)", self.who(t).kind.name(), p.name())
                    }
                    None => "copies nobody".to_string(),
                };
                self.emit(RaceEvent::Power {
                    racer: who,
                    power: Kind::Copycat,
                    detail,
                });
            }
        }
        Ok(())
    }
}
