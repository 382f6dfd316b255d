//! Powers resolving: each task on the stack in turn (with the loop and budget guards), and
//! the "before my race" powers (Sisyphus, Egg, Twin).

use super::{Decider, R, Race, RaceEvent, Status, Task, TripWhy, Why};
use crate::games::magical_athlete::decide::{Answer, Question};
use crate::games::magical_athlete::racers::{Kind, Rid};
use crate::games::magical_athlete::track::Special;

impl Race {
    /// Resolves the stack.
    pub(super) fn drain(&mut self, d: &mut dyn Decider) -> R<()> {
        while let Some(t) = self.stack.pop() {
            if self.budget == 0 {
                self.stack.clear();
                if !self.quiet {
                    self.emit(RaceEvent::LoopEnded {
                        task: "too many powers in one turn".into(),
                    });
                }
                break;
            }
            self.budget -= 1;
            let sig = self.signature(&t);
            if self.seen.contains(&sig) || (self.looping && self.since_roll.contains(&sig)) {
                if !self.quiet {
                    let text = self.task_words(&t);
                    self.emit(RaceEvent::LoopEnded { task: text });
                }
                continue;
            }
            self.seen.push(sig);
            if !self.turn_starts.is_empty() {
                self.since_roll.push(sig);
            }
            self.exec(t, d)?;
        }
        Ok(())
    }

    pub(super) fn exec(&mut self, t: Task, d: &mut dyn Decider) -> R<()> {
        match t {
            Task::Move { racer, by, why } => {
                if !self.racing(racer) {
                    return Ok(());
                }
                if let Why::Power { racer: src, power } = why {
                    let Some(o) = self.find_who(src) else {
                        return Ok(());
                    };
                    if !self.has(o, power) {
                        return Ok(());
                    }
                    // The Dicemonger's move is part of the reroll, told already.
                    if power != Kind::Dicemonger {
                        let name = self.who(racer).kind.name();
                        self.power_happened(o, power, || {
                            if o == racer {
                                format!("moves {by}")
                            } else {
                                format!("{name} moves {by}")
                            }
                        });
                    }
                }
                self.do_moves(&[(racer, by)], why, d)
            }
            Task::Scooch { racer } => {
                if !self.has(racer, Kind::Scoocher) {
                    return Ok(());
                }
                let who = self.who(racer);
                self.power_happened(racer, Kind::Scoocher, || "scooches 1".to_string());
                self.do_moves(
                    &[(racer, 1)],
                    Why::Power {
                        racer: who,
                        power: Kind::Scoocher,
                    },
                    d,
                )
            }
            Task::Trip { racer, why } => {
                if !self.racing(racer) {
                    return Ok(());
                }
                if let TripWhy::Power { racer: src, power } = why {
                    let Some(o) = self.find_who(src) else {
                        return Ok(());
                    };
                    if !self.has(o, power) {
                        return Ok(());
                    }
                    let name = self.who(racer).kind.name();
                    self.power_happened(o, power, || format!("trips {name}"));
                }
                self.trip(racer, why);
                Ok(())
            }
            // A racer moved off the space meanwhile (it rode along with another
            // racer's arrow, say) has left its effect behind: the rulebook resolves
            // racetrack spaces first, for whoever stands on them.
            Task::Space { racer, space } => {
                if !self.racing(racer) || self.pos(racer) != space {
                    return Ok(());
                }
                match self.track.special(space) {
                    Some(Special::Arrow(by)) => self.exec(
                        Task::Move {
                            racer,
                            by,
                            why: Why::Arrow,
                        },
                        d,
                    ),
                    Some(Special::Rock) => self.exec(
                        Task::Trip {
                            racer,
                            why: TripWhy::Rock,
                        },
                        d,
                    ),
                    Some(Special::Star) => self.exec(Task::Star { racer }, d),
                    None => Ok(()),
                }
            }
            Task::Star { racer } => {
                if self.racing(racer) {
                    self.add_bronze(racer, 1, "stopped on a star");
                }
                Ok(())
            }
            Task::Eliminate { racer, by } => {
                if !self.racing(racer) || !self.has(by, Kind::Mouth) {
                    return Ok(());
                }
                let name = self.who(racer).kind.name();
                self.power_happened(by, Kind::Mouth, || format!("chomps {name}"));
                let order = self.eliminated.len() as u8 + 1;
                self.racers[racer].status = Status::Eliminated(order);
                self.eliminated.push(racer);
                let (w, b) = (self.who(racer), self.who(by));
                self.emit(RaceEvent::Eliminated { racer: w, by: b });
                self.check_over()?;
                self.refresh_copycats(d)
            }
            Task::Duel { duelist, with } => {
                if !self.has(duelist, Kind::Duelist)
                    || !self.racing(with)
                    || self.pos(duelist) != self.pos(with)
                {
                    return Ok(());
                }
                let q = Question::Duel {
                    racer: duelist,
                    with,
                };
                if self.ask(d, q)? != Answer::Yes {
                    return Ok(());
                }
                let name = self.who(with).kind.name();
                self.power_happened(duelist, Kind::Duelist, || format!("duels {name}"));
                let a = self.die()?;
                let b = self.die()?;
                let (wd, ww) = (self.who(duelist), self.who(with));
                self.emit(RaceEvent::DuelRolls {
                    duelist: wd,
                    duelist_roll: a,
                    other: ww,
                    other_roll: b,
                });
                let winner = if a >= b { duelist } else { with };
                self.do_moves(
                    &[(winner, 2)],
                    Why::Power {
                        racer: wd,
                        power: Kind::Duelist,
                    },
                    d,
                )
            }
        }
    }

    pub(super) fn before_race(&mut self, r: Rid, k: Kind, d: &mut dyn Decider) -> R<()> {
        let who = self.who(r);
        if matches!(k, Kind::Egg | Kind::Twin) && self.racers[r].kind == k {
            // A power already chosen (a scripted scenario) is not chosen again.
            if let Some(p) = self.racers[r].picked {
                if matches!(p, Kind::Egg | Kind::Twin) {
                    return Ok(());
                }
                return self.before_race(r, p, d);
            }
        }
        match k {
            Kind::Sisyphus => {
                self.add_bronze(r, 4, "Sisyphus takes 4 bronze chips before the race");
            }
            Kind::Egg => {
                let n = self.deck.len().min(2);
                let drawn: Vec<Kind> = self.deck.drain(..n).collect();
                if drawn.is_empty() {
                    return Ok(());
                }
                self.emit(RaceEvent::EggDrew {
                    racer: who,
                    cards: drawn.clone(),
                });
                let q = Question::Egg {
                    racer: r,
                    drawn: drawn.clone(),
                };
                let pick = match self.ask(d, q)? {
                    Answer::Power(p) => p,
                    _ => drawn[0],
                };
                for c in drawn {
                    if c != pick {
                        self.set_aside.push((who.seat, c));
                    }
                }
                self.racers[r].picked = Some(pick);
                self.note_powers();
                self.emit(RaceEvent::Power {
                    racer: who,
                    power: Kind::Egg,
                    detail: format!("takes the power of {}", pick.name()),
                });
                return self.before_race(r, pick, d);
            }
            Kind::Twin => {
                let winners: Vec<Kind> = self
                    .winners
                    .iter()
                    .copied()
                    .filter(|&w| w != Kind::Twin)
                    .collect();
                if winners.is_empty() {
                    return Ok(());
                }
                let q = Question::Twin { racer: r, winners };
                if let Answer::Power(p) = self.ask(d, q)? {
                    self.racers[r].picked = Some(p);
                    self.note_powers();
                    self.emit(RaceEvent::Power {
                        racer: who,
                        power: Kind::Twin,
                        detail: format!("races with the power of {}", p.name()),
                    });
                    return self.before_race(r, p, d);
                }
            }
            _ => {}
        }
        Ok(())
    }
}
