//! The trigger queue: what a batch of stops and passes (or a power taking effect) sets
//! off, sorted onto the resolution stack, and the signatures that detect loops.

use std::hash::{Hash, Hasher};

use super::{Race, RaceEvent, Status, Stop, Task, TripWhy, Why, bits};
use crate::games::magical_athlete::decide::TurnChoice;
use crate::games::magical_athlete::racers::{Kind, Rid};

/// A stable hasher, so loop detection never depends on the platform: every written value
/// is mixed in as one word (a SplitMix64 finaliser per word), which is quick for the few
/// small fields a signature has.
struct Mix(u64);

impl Mix {
    fn word(&mut self, w: u64) {
        let mut z = (self.0 ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }
}

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.word(u64::from(*b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
    fn write_i8(&mut self, i: i8) {
        self.word(u64::from(i as u8));
    }
    fn write_isize(&mut self, i: isize) {
        self.word(i as u64);
    }
}

/// Powers set off by racers meeting on a space.
const MEETING_POWERS: u64 = bits(&[Kind::Romantic, Kind::Mouth, Kind::BabaYaga, Kind::Duelist]);
/// Powers set off by passing.
pub(super) const PASS_POWERS: u64 = bits(&[Kind::Banana, Kind::Centaur]);

impl Race {
    /// Where a collection of triggers starts in the shared task buffer.
    pub(super) fn mark(&self) -> usize {
        self.scratch.tasks.len()
    }

    pub(super) fn add_task(&mut self, key: (usize, Rid), t: Task) {
        self.scratch.tasks.push((key, t));
    }

    fn add(&mut self, kt: ((usize, Rid), Task)) {
        self.scratch.tasks.push(kt);
    }

    /// Pushes the tasks collected since `mark` so the first in (priority, order) resolves
    /// first.
    pub(super) fn push_sorted(&mut self, mark: usize) {
        if let Some(seg) = self.scratch.tasks.get_mut(mark..) {
            // A stable sort keeps the order of tasks with equal keys.
            seg.sort_by_key(|(k, _)| *k);
        }
        while self.scratch.tasks.len() > mark {
            if let Some((_, t)) = self.scratch.tasks.pop() {
                self.stack.push(t);
            }
        }
    }

    pub(super) fn signature(&self, t: &Task) -> u64 {
        let mut h = self.board_hash();
        t.hash(&mut h);
        h.finish()
    }

    /// A turn starts for `r`: notes its board, and whether it repeats one since the last
    /// roll (the loop across turns has completed once).
    pub(super) fn note_turn_start(&mut self, r: Rid) {
        let mut h = self.board_hash();
        h.word(r as u64);
        let sig = h.finish();
        if self.turn_starts.contains(&sig) {
            self.looping = true;
        } else {
            self.turn_starts.push(sig);
        }
    }

    /// A die was rolled (or the race ended): no loop across turns goes on.
    pub(super) fn forget_since_roll(&mut self) {
        self.turn_starts.clear();
        self.since_roll.clear();
        self.looping = false;
    }

    /// The racers' board hashed: their places, trips, statuses and copy targets.
    fn board_hash(&self) -> Mix {
        let mut h = Mix(0xcbf2_9ce4_8422_2325);
        for x in &self.racers {
            // One word per racer: space, trip, status and copy target, each in its own bits.
            let status = match x.status {
                Status::Racing => 0u64,
                Status::Finished(n) => 0x100 | u64::from(n),
                Status::Eliminated(n) => 0x200 | u64::from(n),
            };
            let copying = x.copying.map_or(0, |c| (c as u64 & 0xffff_ffff) + 1);
            h.word(
                u64::from(x.pos)
                    | u64::from(x.tripped) << 8
                    | status << 16
                    | copying.min(0xffff_ffff) << 32,
            );
        }
        h
    }

    /// Where `actor`'s turn choice `c` puts the racers it warps (Flip Flop's swap,
    /// Hypnotist's and Third Wheel's warps), hashed with the actor: the racers and their new
    /// spaces, whatever the others do. `None` for a choice that warps nobody.
    pub(super) fn board_after(&self, actor: Rid, c: TurnChoice) -> Option<u64> {
        let me = self.pos(actor);
        let to: [(Rid, u8); 2] = match c {
            TurnChoice::Flip(t) => [(actor, self.pos(t)), (t, me)],
            TurnChoice::Hypnotize(t) => [(t, me), (t, me)],
            TurnChoice::Warp(s) => [(actor, s), (actor, s)],
            _ => return None,
        };
        let mut h = Mix(0x6a09_e667_f3bc_c908);
        h.word(actor as u64);
        for (r, s) in to {
            h.word((r as u64) << 8 | u64::from(s));
        }
        Some(h.finish())
    }

    /// Whether turn choice `c` would put racers where `actor`'s swap or warp already put
    /// them this race (the loop rule: it has completed once).
    pub(super) fn repeats_board(&self, actor: Rid, c: TurnChoice) -> bool {
        !self.warp_boards.is_empty()
            && self
                .board_after(actor, c)
                .is_some_and(|b| self.warp_boards.contains(&b))
    }

    /// Notes where `actor`'s swap or warp `c` puts racers, before it happens.
    pub(super) fn note_warp_board(&mut self, actor: Rid, c: TurnChoice) {
        if let Some(b) = self.board_after(actor, c) {
            self.warp_boards.push(b);
        }
    }

    /// A power took effect: tell it, and every Scoocher (but its owner) moves 1.
    pub(super) fn power_happened(
        &mut self,
        owner: Rid,
        power: Kind,
        detail: impl FnOnce() -> String,
    ) {
        if !self.quiet {
            let who = self.who(owner);
            self.emit(RaceEvent::Power {
                racer: who,
                power,
                detail: detail(),
            });
        }
        if !self.may_hold(Kind::Scoocher) {
            return;
        }
        let scoochers: Vec<Rid> = self.holders(Kind::Scoocher).collect();
        let mark = self.mark();
        for s in scoochers {
            if s != owner {
                self.add_task(self.priority(s), Task::Scooch { racer: s });
            }
        }
        self.push_sorted(mark);
    }

    /// Sorts what a batch of stops and passes sets off, and pushes it on the stack.
    pub(super) fn collect_triggers(&mut self, stops: &[Stop], passes: &[(Rid, Rid)]) {
        let mark = self.mark();
        // Nobody meets anybody when no racer holds a meeting power.
        let meetings = self.may_hold_any(MEETING_POWERS);
        for st in stops {
            let a = st.racer;
            if !self.racing(a) {
                continue;
            }
            let s = self.pos(a);
            self.space_triggers(a, s);
            if !meetings {
                continue;
            }
            // At most 12 racers: the racers on the space fit on the stack.
            let mut on = [0usize; 16];
            let mut count = 0;
            for r in self.on_space(s) {
                if let Some(slot) = on.get_mut(count) {
                    *slot = r;
                    count += 1;
                }
            }
            self.meeting_triggers(a, &on[..count]);
        }
        for &(m, y) in passes {
            self.pass_triggers(m, y);
        }
        self.push_sorted(mark);
    }

    /// What the space `s` that `a` stopped on does (arrow, rock, star), read when it
    /// resolves: a space acts on a racer still on it.
    fn space_triggers(&mut self, a: Rid, s: u8) {
        if self.track.special(s).is_some() {
            self.add(((0, a), Task::Space { racer: a, space: s }));
        }
    }

    /// What `a` stopping among the racers `here` (itself included) sets off: Romantic,
    /// M.O.U.T.H., Baba Yaga and Duelist, both ways.
    fn meeting_triggers(&mut self, a: Rid, here: &[Rid]) {
        if here.len() == 2 {
            let romantics: Vec<Rid> = self.holders(Kind::Romantic).collect();
            for rom in romantics {
                let w = self.who(rom);
                self.add((
                    self.priority(rom),
                    Task::Move {
                        racer: rom,
                        by: 2,
                        why: Why::Power {
                            racer: w,
                            power: Kind::Romantic,
                        },
                    },
                ));
            }
            if self.has(a, Kind::Mouth)
                && let Some(&o) = here.iter().find(|&&o| o != a)
            {
                self.add((self.priority(a), Task::Eliminate { racer: o, by: a }));
            }
        }
        let wa = self.who(a);
        if self.has(a, Kind::BabaYaga) {
            for &o in here {
                if o == a {
                    continue;
                }
                self.add((
                    self.priority(a),
                    Task::Trip {
                        racer: o,
                        why: TripWhy::Power {
                            racer: wa,
                            power: Kind::BabaYaga,
                        },
                    },
                ));
            }
        }
        for &b in here {
            if b == a || !self.has(b, Kind::BabaYaga) {
                continue;
            }
            let wb = self.who(b);
            self.add((
                self.priority(b),
                Task::Trip {
                    racer: a,
                    why: TripWhy::Power {
                        racer: wb,
                        power: Kind::BabaYaga,
                    },
                },
            ));
        }
        if self.has(a, Kind::Duelist) {
            for &o in here {
                if o == a {
                    continue;
                }
                self.add((
                    self.priority(a),
                    Task::Duel {
                        duelist: a,
                        with: o,
                    },
                ));
            }
        }
        for &dd in here {
            if dd == a || !self.has(dd, Kind::Duelist) {
                continue;
            }
            self.add((
                self.priority(dd),
                Task::Duel {
                    duelist: dd,
                    with: a,
                },
            ));
        }
    }

    /// What `m` passing `y` sets off (Banana, Centaur).
    fn pass_triggers(&mut self, m: Rid, y: Rid) {
        if self.has(y, Kind::Banana) {
            let wy = self.who(y);
            self.add((
                self.priority(y),
                Task::Trip {
                    racer: m,
                    why: TripWhy::Power {
                        racer: wy,
                        power: Kind::Banana,
                    },
                },
            ));
        }
        if self.has(m, Kind::Centaur) {
            let wm = self.who(m);
            self.add((
                self.priority(m),
                Task::Move {
                    racer: y,
                    by: -2,
                    why: Why::Power {
                        racer: wm,
                        power: Kind::Centaur,
                    },
                },
            ));
        }
    }
}
