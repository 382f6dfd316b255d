//! Moving and warping: the steps a move takes (Leaptoad, Stickler), Suckerfish riding
//! along, Huge Baby's space, crossing the finish, then the stops and passes it leaves for
//! the trigger queue.

use super::queue::PASS_POWERS;
use super::{Decider, MoveLists, R, Race, RaceEvent, Status, Stop, Why};
use crate::games::magical_athlete::decide::{Answer, Question};
use crate::games::magical_athlete::racers::{Kind, Rid};
use crate::games::magical_athlete::track::FINISH;

impl Race {
    fn occupied_by_other(&self, s: u8, me: Rid, start: &[u8]) -> bool {
        (0..self.racers.len()).any(|x| x != me && self.racing(x) && start.get(x) == Some(&s))
    }

    /// The Stickler that holds back `r`'s overshoot. A Copycat's copy never holds back the
    /// Stickler it copies: where the two contradict, the original's power wins (as with
    /// Huge Baby), and else the two would block each other for ever.
    fn stickler_against(&self, r: Rid) -> Option<Rid> {
        self.holders(Kind::Stickler).find(|&s| {
            s != r
                && !(self.base_power(s) == Some(Kind::Copycat)
                    && self.racers.get(s).and_then(|x| x.copying) == Some(r))
        })
    }

    /// Moves racers at the same time, then resolves what the moves set off.
    pub(super) fn do_moves(&mut self, moves: &[(Rid, i8)], why: Why, d: &mut dyn Decider) -> R<()> {
        // Every racer's place before the move.
        let start: Vec<u8> = self.racers.iter().map(|x| x.pos).collect();
        let mut lists = MoveLists::default();
        let MoveLists {
            moved, // racer, from, to (raw)
            skip_owners,
            stops,
            passes,
            arrivals,
            riders,
            ..
        } = &mut lists;
        self.plan_moves(moves, &start, moved, skip_owners);
        if moved.is_empty() {
            return Ok(());
        }
        for &(m, _, to) in moved.iter() {
            self.racers[m].pos = to;
        }
        if !self.quiet {
            for &(m, from, to) in moved.iter() {
                let who = self.who(m);
                self.emit(RaceEvent::Moved {
                    racer: who,
                    from,
                    to: to.min(FINISH),
                    why,
                });
            }
        }
        for &m in skip_owners.iter() {
            self.power_happened(m, Kind::Leaptoad, || {
                "jumps over a space with a racer on it".to_string()
            });
        }
        for &(m, _, _) in moved.iter() {
            arrivals.push(m);
        }
        // Huge Baby before anything else: nobody stops on her space.
        self.baby_adjust(arrivals, stops);
        // Racers that crossed the finish, in order; a rider crosses after its racer.
        for &(m, _, _) in moved.iter() {
            if self.racing(m) && self.pos(m) >= FINISH {
                self.cross(m)?;
            }
        }
        // Suckerfish rides with racers that left its space.
        if self.may_hold(Kind::Suckerfish)
            && !matches!(
                why,
                Why::Power {
                    power: Kind::Suckerfish,
                    ..
                }
            )
        {
            self.ride_along(&start, moved, riders, arrivals, stops, d)?;
        }
        // Passing sets off nothing when no racer holds a passing power.
        if self.may_hold_any(PASS_POWERS) {
            self.find_passes(&start, moved, riders, passes);
        }
        for &m in arrivals.iter() {
            if self.racing(m) && !stops.iter().any(|s| s.racer == m) {
                stops.push(Stop { racer: m });
            }
        }
        self.refresh_copycats(d)?;
        self.collect_triggers(stops, passes);
        Ok(())
    }

    /// Where each of `moves` ends from the places in `start` (Leaptoad jumps occupied
    /// spaces, a Stickler holds back an overshoot): the moves that go somewhere, and one
    /// entry in `skip_owners` per space Leaptoad jumped.
    fn plan_moves(
        &mut self,
        moves: &[(Rid, i8)],
        start: &[u8],
        moved: &mut Vec<(Rid, u8, u8)>,
        skip_owners: &mut Vec<Rid>,
    ) {
        for &(m, n) in moves {
            if n == 0 || !self.racing(m) {
                continue;
            }
            let p = start.get(m).copied().unwrap_or(0);
            let leap = self.has(m, Kind::Leaptoad);
            let mut pos = i32::from(p);
            let mut left = i32::from(n.unsigned_abs());
            let mut skips = 0;
            if n > 0 {
                while left > 0 {
                    pos += 1;
                    if pos >= i32::from(FINISH) {
                        left -= 1;
                        break;
                    }
                    if leap && self.occupied_by_other(pos as u8, m, start) {
                        skips += 1;
                        continue;
                    }
                    left -= 1;
                }
                if pos >= i32::from(FINISH) && left > 0 {
                    if let Some(s) = self.stickler_against(m) {
                        let name = self.who(m).kind.name();
                        self.power_happened(s, Kind::Stickler, || {
                            format!("{name} overshoots the finish and does not move")
                        });
                        continue;
                    }
                    pos += left;
                }
            } else {
                while left > 0 && pos > 0 {
                    pos -= 1;
                    if leap && pos > 0 && self.occupied_by_other(pos as u8, m, start) {
                        skips += 1;
                        continue;
                    }
                    left -= 1;
                }
            }
            let to = pos.clamp(0, 120) as u8;
            if to == p {
                continue;
            }
            for _ in 0..skips {
                skip_owners.push(m);
            }
            moved.push((m, p, to));
        }
    }

    /// Suckerfish on a space a mover left may ride along to where it ended.
    fn ride_along(
        &mut self,
        start: &[u8],
        moved: &[(Rid, u8, u8)],
        riders: &mut Vec<(Rid, u8, u8)>,
        arrivals: &mut Vec<Rid>,
        stops: &mut Vec<Stop>,
        d: &mut dyn Decider,
    ) -> R<()> {
        for &(m, from, _) in moved {
            let fish: Vec<Rid> = self
                .holders(Kind::Suckerfish)
                .filter(|&f| {
                    f != m
                        && start.get(f) == Some(&from)
                        && !moved.iter().any(|&(x, _, _)| x == f)
                        && !riders.iter().any(|&(x, _, _)| x == f)
                })
                .collect();
            for f in fish {
                if !self.racing(f) || self.pos(f) != from {
                    continue;
                }
                let dest = self.pos(m);
                let q = Question::Ride {
                    racer: f,
                    with: m,
                    to: dest.min(FINISH),
                };
                if self.ask(d, q)? != Answer::Yes {
                    continue;
                }
                if dest > FINISH
                    && let Some(s) = self.stickler_against(f)
                {
                    let name = self.who(f).kind.name();
                    self.power_happened(s, Kind::Stickler, || {
                        format!("{name} would overshoot the finish and does not move")
                    });
                    continue;
                }
                let name = self.who(m).kind.name();
                self.power_happened(f, Kind::Suckerfish, || format!("rides with {name}"));
                self.racers[f].pos = dest;
                let wf = self.who(f);
                self.emit(RaceEvent::Moved {
                    racer: wf,
                    from,
                    to: dest.min(FINISH),
                    why: Why::Power {
                        racer: wf,
                        power: Kind::Suckerfish,
                    },
                });
                riders.push((f, from, dest));
                arrivals.push(f);
                self.baby_adjust(&[f], stops);
                if dest >= FINISH {
                    self.cross(f)?;
                }
            }
        }
        Ok(())
    }

    /// Passing: started behind, ended ahead. (Only the first 16 racers can have been
    /// ahead: `start` holds 0 for any others. A race has at most 12.)
    fn find_passes(
        &self,
        start: &[u8],
        moved: &[(Rid, u8, u8)],
        riders: &[(Rid, u8, u8)],
        passes: &mut Vec<(Rid, Rid)>,
    ) {
        let mut now = [0u8; 16];
        let mut live = [false; 16];
        for ((p, l), x) in now.iter_mut().zip(live.iter_mut()).zip(self.racers.iter()) {
            *p = x.pos;
            *l = x.racing();
        }
        let n = self.racers.len().min(16);
        for &(m, from, _) in moved.iter().chain(riders.iter()) {
            let end_m = self.pos(m);
            for (y, ((&sy, &py), &ly)) in start.iter().zip(&now).zip(&live).enumerate().take(n) {
                if y != m && ly && from < sy && end_m > py {
                    passes.push((m, y));
                }
            }
        }
    }

    /// Puts racers that would share Huge Baby's space on the space behind her.
    fn baby_adjust(&mut self, arrivals: &[Rid], stops: &mut Vec<Stop>) {
        if !self.may_hold(Kind::HugeBaby) {
            return;
        }
        for &a in arrivals {
            if !self.racing(a) {
                continue;
            }
            let s = self.pos(a);
            if s == 0 || s >= FINISH {
                continue;
            }
            let original = |race: &Race, r: Rid| race.base_power(r) == Some(Kind::HugeBaby);
            // A baby on the space whose power beats the arrival's.
            let blocker = self.on_space(s).find(|&b| {
                b != a
                    && self.has(b, Kind::HugeBaby)
                    && !(self.has(a, Kind::HugeBaby) && original(self, a) && !original(self, b))
            });
            if let Some(b) = blocker {
                let name = self.who(a).kind.name();
                self.power_happened(b, Kind::HugeBaby, || {
                    format!("puts {name} on the space behind")
                });
                self.put_behind(a, s, b, stops);
                continue;
            }
            if self.has(a, Kind::HugeBaby) {
                let others: Vec<Rid> = self.on_space(s).filter(|&o| o != a).collect();
                for o in others {
                    let name = self.who(o).kind.name();
                    self.power_happened(a, Kind::HugeBaby, || {
                        format!("puts {name} on the space behind")
                    });
                    self.put_behind(o, s, a, stops);
                }
            }
        }
    }

    fn put_behind(&mut self, r: Rid, s: u8, baby: Rid, stops: &mut Vec<Stop>) {
        let mut to = s.saturating_sub(1);
        while to > 0
            && self
                .on_space(to)
                .any(|b| b != r && b != baby && self.has(b, Kind::HugeBaby))
        {
            to -= 1;
        }
        let from = self.pos(r);
        self.racers[r].pos = to;
        let (w, wb) = (self.who(r), self.who(baby));
        self.emit(RaceEvent::Warped {
            racer: w,
            from,
            to,
            why: Why::Baby { racer: wb },
        });
        if !stops.iter().any(|x| x.racer == r) {
            stops.push(Stop { racer: r });
        }
    }

    /// Warps racers at the same time (no passing), then resolves their stops.
    pub(super) fn do_warps(&mut self, warps: &[(Rid, u8)], why: Why, d: &mut dyn Decider) -> R<()> {
        let mut lists = MoveLists::default();
        let MoveLists {
            warps: arrivals,
            froms,
            arrivals: ids,
            stops,
            ..
        } = &mut lists;
        for &(r, to) in warps {
            if self.racing(r) && self.pos(r) != to {
                froms.push(self.pos(r));
                arrivals.push((r, to));
            }
        }
        for &(r, to) in arrivals.iter() {
            self.racers[r].pos = to;
        }
        if !self.quiet {
            for (&(r, to), &from) in arrivals.iter().zip(froms.iter()) {
                let w = self.who(r);
                self.emit(RaceEvent::Warped {
                    racer: w,
                    from,
                    to,
                    why,
                });
            }
        }
        ids.extend(arrivals.iter().map(|&(r, _)| r));
        self.baby_adjust(ids, stops);
        for &r in ids.iter() {
            if !stops.iter().any(|s: &Stop| s.racer == r) {
                stops.push(Stop { racer: r });
            }
        }
        self.refresh_copycats(d)?;
        self.collect_triggers(stops, &[]);
        Ok(())
    }

    /// A racer crosses the finish line.
    fn cross(&mut self, r: Rid) -> R<()> {
        self.placings.push(r);
        let place = self.placings.len() as u8;
        self.racers[r].status = Status::Finished(place);
        let w = self.who(r);
        self.emit(RaceEvent::Finished { racer: w, place });
        if place == 1 {
            // Mastermind: a right prediction ends the race with Mastermind 2nd.
            for m in self.in_priority_order() {
                let x = &self.racers[m];
                if x.prediction == Some(r) && (x.racing() || m == r) {
                    let wm = self.who(m);
                    self.emit(RaceEvent::Power {
                        racer: wm,
                        power: Kind::Mastermind,
                        detail: format!(
                            "predicted {}: the race ends and Mastermind is 2nd",
                            w.kind.name()
                        ),
                    });
                    self.placings.push(m);
                    if m != r {
                        self.racers[m].status = Status::Finished(2);
                    }
                    self.emit(RaceEvent::Finished {
                        racer: wm,
                        place: 2,
                    });
                    break;
                }
            }
        }
        self.check_over()
    }
}
