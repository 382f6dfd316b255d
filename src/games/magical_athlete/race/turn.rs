//! The turn loop: slots in order, a racer's turn from start to Heckler, and the main move
//! (choices, the roll and its rerolls, powers set off by the number, modifiers).

use super::{
    Decider, Halt, R, Race, RaceEvent, Slot, TASK_BUDGET, TURN_CAP, Task, TripWhy, Who, Why, bits,
};
use crate::engine::Seat;
use crate::games::magical_athlete::decide::{Answer, Question, TurnChoice};
use crate::games::magical_athlete::racers::{Kind, Rid};
use crate::games::magical_athlete::track::{FINISH, SECOND_CORNER};

/// Powers set off by the number rolled.
const ROLL_POWERS: u64 = bits(&[Kind::Sisyphus, Kind::Inchworm, Kind::Skipper, Kind::Lackey]);
/// Powers that change a main move.
const MAIN_MOVE_POWERS: u64 = bits(&[
    Kind::Gunk,
    Kind::Coach,
    Kind::Blimp,
    Kind::Hare,
    Kind::PartyAnimal,
]);

impl Race {
    /// Runs the current slot to its end, then moves on to the next slot.
    pub fn run_slot(&mut self, d: &mut dyn Decider) -> R<()> {
        if self.over {
            return Err(Halt::Over);
        }
        self.events.clear();
        self.note_powers();
        // The racers may have been set from outside since the last slot (replays, tests).
        match self.play_slot(d) {
            Ok(()) => {}
            Err(Halt::Over) => {}
            Err(h) => return Err(h),
        }
        self.stack.clear();
        self.seen.clear();
        self.scratch.tasks.clear();
        self.mover = None;
        if !self.over {
            self.next_slot();
        }
        if self.over { Err(Halt::Over) } else { Ok(()) }
    }

    /// Plays slots until the race ends (every question answered by `d`).
    pub fn run_to_end(&mut self, d: &mut dyn Decider) -> R<()> {
        loop {
            match self.run_slot(d) {
                Ok(()) => {}
                Err(Halt::Over) => return Ok(()),
                Err(h) => return Err(h),
            }
        }
    }

    pub(super) fn play_slot(&mut self, d: &mut dyn Decider) -> R<()> {
        match self.slot {
            Slot::BeforeRace => {
                for r in 0..self.racers.len() {
                    let k = self.racers[r].kind;
                    self.before_race(r, k, d)?;
                }
                Ok(())
            }
            Slot::Player { seat } => {
                let theirs: Vec<Rid> = (0..self.racers.len())
                    .filter(|&r| self.racing(r) && self.seat_of(r) == seat)
                    .collect();
                if theirs.len() == 1 {
                    // One racer (the usual game): nothing to ask.
                    if let Some(f) = self.first_turn_done.get_mut(seat.index()) {
                        *f = true;
                    }
                    for &r in &theirs {
                        self.racer_turn(r, None, d)?;
                    }
                    return Ok(());
                }
                let mut mine = theirs;
                if mine.len() > 1 {
                    let only_one = self.two_player
                        && !self
                            .first_turn_done
                            .get(seat.index())
                            .copied()
                            .unwrap_or(true);
                    let q = Question::Order {
                        seat,
                        racers: mine.clone(),
                        only_one,
                    };
                    if let Answer::Racer(first) = self.ask(d, q)? {
                        mine.retain(|&r| r != first);
                        mine.insert(0, first);
                    }
                    if only_one {
                        mine.truncate(1);
                    }
                }
                if let Some(f) = self.first_turn_done.get_mut(seat.index()) {
                    *f = true;
                }
                for r in mine {
                    if self.racing(r) {
                        self.racer_turn(r, None, d)?;
                    }
                }
                Ok(())
            }
            Slot::Extra { racer, power } => {
                if self.racing(racer) {
                    self.racer_turn(racer, Some(power), d)?;
                }
                Ok(())
            }
        }
    }

    /// The slot that follows the current one, without playing anything (for read-outs).
    pub fn upcoming_slot(&self) -> Option<Slot> {
        let mut r = self.clone();
        r.quiet = true;
        r.next_slot();
        (!r.over).then_some(r.slot)
    }

    pub(super) fn next_slot(&mut self) {
        match self.slot {
            Slot::Player { seat } => self.base_seat = seat,
            // "After I go, turn order continues to my left."
            Slot::Extra {
                racer,
                power: Kind::Skipper,
            } => self.base_seat = self.seat_of(racer),
            _ => {}
        }
        while let Some(s) = self.extras.pop_front() {
            if let Slot::Extra { racer, .. } = s
                && self.racing(racer)
            {
                self.slot = s;
                return;
            }
        }
        let n = self.players.max(1);
        for step in 1..=n {
            let i = super::wrap(self.base_seat.index() + step, n);
            let Some(seat) = Seat::from_index(i) else {
                continue;
            };
            if self.racers.iter().any(|x| x.racing() && x.seat == seat) {
                self.slot = Slot::Player { seat };
                return;
            }
        }
        self.finish_race(false);
    }

    pub(super) fn racer_turn(&mut self, r: Rid, extra: Option<Kind>, d: &mut dyn Decider) -> R<()> {
        self.mover = Some(r);
        self.note_turn_start(r);
        self.seen.clear();
        self.stack.clear();
        self.scratch.tasks.clear();
        self.budget = TASK_BUDGET;
        self.turns_played += 1;
        if self.turns_played > TURN_CAP {
            self.finish_race(true);
            return Err(Halt::Over);
        }
        let start = self.pos(r);
        if let Some(x) = self.racers.get_mut(r) {
            x.turns = x.turns.saturating_add(1);
        }
        let first_turn = self.racers.get(r).is_some_and(|x| x.turns == 1);
        let who = self.who(r);
        if !self.quiet {
            self.emit(RaceEvent::TurnStarted {
                racer: who,
                space: start,
                extra,
            });
        }
        self.refresh_copycats(d)?;
        if first_turn && self.has(r, Kind::Mastermind) && self.racers[r].prediction.is_none() {
            let candidates: Vec<Rid> = (0..self.racers.len()).filter(|&x| self.racing(x)).collect();
            let q = Question::Predict {
                racer: r,
                candidates,
            };
            if let Answer::Racer(t) = self.ask(d, q)? {
                self.racers[r].prediction = Some(t);
            }
        }
        let mut main = true;
        if self.racers[r].tripped {
            self.racers[r].tripped = false;
            self.emit(RaceEvent::Recovered { racer: who });
            main = false;
        } else if self.has(r, Kind::Hare) && self.alone_in_lead(r) && self.racing_count() > 1 {
            self.power_happened(r, Kind::Hare, || {
                "is alone in the lead: skips the main move".to_string()
            });
            main = false;
        }
        self.drain(d)?;
        let mut genius_right = false;
        if main && self.racing(r) {
            let choice = if self.quiet && d.rolls_unasked() && !self.power_offers_choice(r) {
                TurnChoice::Roll
            } else {
                self.turn_question(r, d)?
            };
            self.before_main(r, choice, d)?;
            self.drain(d)?;
            if self.racing(r) {
                genius_right = self.main_move(r, choice, d)?;
                self.drain(d)?;
            }
        }
        // End of turn: Heckler.
        if self.racing(r) && self.pos(r).abs_diff(start) <= 1 {
            let hecklers: Vec<Rid> = self.holders(Kind::Heckler).collect();
            let mark = self.mark();
            for h in hecklers {
                self.add_task(
                    self.priority(h),
                    Task::Move {
                        racer: h,
                        by: 2,
                        why: Why::Power {
                            racer: self.who(h),
                            power: Kind::Heckler,
                        },
                    },
                );
            }
            self.push_sorted(mark);
            self.drain(d)?;
        }
        if genius_right && self.racing(r) {
            self.extras.push_front(Slot::Extra {
                racer: r,
                power: Kind::Genius,
            });
        }
        Ok(())
    }

    /// Asks `r`'s owner the turn question.
    fn turn_question(&mut self, r: Rid, d: &mut dyn Decider) -> R<TurnChoice> {
        let mut choices = Vec::new();
        self.fill_turn_choices(r, &mut choices);
        self.drop_repeats(r, &mut choices);
        let q = Question::Turn { racer: r, choices };
        let Some(answer) = self.answer(d, &q) else {
            return Err(Halt::Ask(q));
        };
        Ok(match answer {
            Answer::Turn(c) => c,
            _ => TurnChoice::Roll,
        })
    }

    /// Whether `r`'s power may offer a turn choice other than rolling (as
    /// [`Race::fill_turn_choices`] lists them).
    fn power_offers_choice(&self, r: Rid) -> bool {
        matches!(
            self.power(r),
            Some(
                Kind::Legs
                    | Kind::FlipFlop
                    | Kind::Genius
                    | Kind::Hypnotist
                    | Kind::ThirdWheel
                    | Kind::Cheerleader
            )
        )
    }

    pub(super) fn alone_in_lead(&self, r: Rid) -> bool {
        self.leaders() == [r]
    }

    /// The turn prompt's choices for `r`'s power now.
    pub fn turn_choices(&self, r: Rid) -> Vec<TurnChoice> {
        let mut v = Vec::new();
        self.fill_turn_choices(r, &mut v);
        if !self.warp_boards.is_empty() {
            v.retain(|&c| !self.repeats_board(r, c));
        }
        v
    }

    /// Takes out the swaps and warps that would repeat a board this racer's swap or warp
    /// already gave (the loop has completed once), and says so.
    fn drop_repeats(&mut self, r: Rid, choices: &mut Vec<TurnChoice>) {
        if self.warp_boards.is_empty() {
            return;
        }
        let mut i = 0;
        while let Some(&c) = choices.get(i) {
            if !self.repeats_board(r, c) {
                i += 1;
                continue;
            }
            choices.remove(i);
            if !self.quiet {
                let task = self.choice_words(r, c);
                self.emit(RaceEvent::LoopEnded { task });
            }
        }
    }

    pub(super) fn fill_turn_choices(&self, r: Rid, v: &mut Vec<TurnChoice>) {
        v.push(TurnChoice::Roll);
        let me = self.pos(r);
        let others = || {
            (0..self.racers.len()).filter(move |&x| x != r && self.racing(x) && self.pos(x) != me)
        };
        match self.power(r) {
            Some(Kind::Legs) => v.push(TurnChoice::Legs),
            Some(Kind::FlipFlop) => v.extend(others().map(TurnChoice::Flip)),
            Some(Kind::Genius) => v.extend((1..=6).map(TurnChoice::Guess)),
            Some(Kind::Hypnotist) => v.extend(others().map(TurnChoice::Hypnotize)),
            Some(Kind::ThirdWheel) => {
                // Racers per space in one pass (not a scan of the racers per space).
                let mut on = [0u8; FINISH as usize];
                for x in (0..self.racers.len()).filter(|&x| self.racing(x)) {
                    if let Some(c) = on.get_mut(usize::from(self.pos(x))) {
                        *c = c.saturating_add(1);
                    }
                }
                v.extend(
                    (0..FINISH)
                        .filter(|&s| s != me && on.get(usize::from(s)) == Some(&2))
                        .map(TurnChoice::Warp),
                );
            }
            Some(Kind::Cheerleader) => v.push(TurnChoice::Cheer),
            _ => {}
        }
    }

    pub(super) fn before_main(&mut self, r: Rid, choice: TurnChoice, d: &mut dyn Decider) -> R<()> {
        let who = self.who(r);
        match (self.power(r), choice) {
            (Some(Kind::PartyAnimal), _) => {
                let me = self.pos(r);
                let moves: Vec<(Rid, i8)> = (0..self.racers.len())
                    .filter(|&x| x != r && self.racing(x) && self.pos(x) != me)
                    .map(|x| (x, if self.pos(x) > me { -1 } else { 1 }))
                    .collect();
                if !moves.is_empty() {
                    self.power_happened(r, Kind::PartyAnimal, || {
                        "pulls every racer a space closer".to_string()
                    });
                    let why = Why::Power {
                        racer: who,
                        power: Kind::PartyAnimal,
                    };
                    self.do_moves(&moves, why, d)?;
                }
            }
            (Some(Kind::LovableLoser), _) => {
                let last = self.last_place();
                if last.len() == 1 && last[0] == r && self.racing_count() > 1 {
                    self.power_happened(r, Kind::LovableLoser, || {
                        "is alone in last place".to_string()
                    });
                    self.add_bronze(r, 1, "Lovable Loser is alone in last place");
                }
            }
            (Some(Kind::Cheerleader), TurnChoice::Cheer) => {
                let last = self.last_place();
                self.power_happened(r, Kind::Cheerleader, || {
                    "cheers for the racers in last place".to_string()
                });
                let why = Why::Power {
                    racer: who,
                    power: Kind::Cheerleader,
                };
                let moves: Vec<(Rid, i8)> = last.iter().map(|&x| (x, 2)).collect();
                self.do_moves(&moves, why, d)?;
                self.drain(d)?;
                if self.racing(r) {
                    self.do_moves(&[(r, 1)], why, d)?;
                }
            }
            (Some(Kind::Hypnotist), TurnChoice::Hypnotize(t))
                if t != r && self.racing(t) && self.pos(t) != self.pos(r) =>
            {
                self.note_warp_board(r, choice);
                let name = self.who(t).kind.name();
                self.power_happened(r, Kind::Hypnotist, || format!("warps {name} to its space"));
                let to = self.pos(r);
                self.do_warps(
                    &[(t, to)],
                    Why::Power {
                        racer: who,
                        power: Kind::Hypnotist,
                    },
                    d,
                )?;
            }
            (Some(Kind::ThirdWheel), TurnChoice::Warp(s))
                if s < FINISH && s != self.pos(r) && self.count_on(s) == 2 =>
            {
                self.note_warp_board(r, choice);
                self.power_happened(r, Kind::ThirdWheel, || format!("warps to space {s}"));
                self.do_warps(
                    &[(r, s)],
                    Why::Power {
                        racer: who,
                        power: Kind::ThirdWheel,
                    },
                    d,
                )?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The main move. Returns whether Genius guessed right.
    pub(super) fn main_move(&mut self, r: Rid, choice: TurnChoice, d: &mut dyn Decider) -> R<bool> {
        let who = self.who(r);
        let start = self.pos(r);
        let mut genius_right = false;
        let base = match (self.power(r), choice) {
            (Some(Kind::Legs), TurnChoice::Legs) => {
                self.power_happened(r, Kind::Legs, || "moves 5 instead of rolling".to_string());
                5
            }
            (Some(Kind::FlipFlop), TurnChoice::Flip(t))
                if t != r && self.racing(t) && self.pos(t) != self.pos(r) =>
            {
                self.note_warp_board(r, choice);
                let name = self.who(t).kind.name();
                self.power_happened(r, Kind::FlipFlop, || format!("swaps spaces with {name}"));
                let (a, b) = (self.pos(r), self.pos(t));
                self.do_warps(
                    &[(r, b), (t, a)],
                    Why::Power {
                        racer: who,
                        power: Kind::FlipFlop,
                    },
                    d,
                )?;
                return Ok(false);
            }
            _ => {
                let guess = match (self.power(r), choice) {
                    (Some(Kind::Genius), TurnChoice::Guess(g)) => Some(g),
                    _ => None,
                };
                let v = self.roll_main(r, d)?;
                if let Some(g) = guess
                    && g == v
                {
                    genius_right = true;
                    self.power_happened(r, Kind::Genius, || {
                        format!("guessed {g} right: another turn follows")
                    });
                }
                let amount = self.roll_amount(r, v, d)?;
                self.drain(d)?;
                let cancel = self.roll_powers(r, v, d)?;
                self.drain(d)?;
                if cancel || !self.racing(r) {
                    return Ok(genius_right);
                }
                amount
            }
        };
        let amount = self.modify_main(r, start, base);
        self.drain(d)?;
        let amount = amount.clamp(0, 60) as i8;
        if amount > 0 && self.racing(r) {
            self.do_moves(&[(r, amount)], Why::MainMove, d)?;
        }
        Ok(genius_right)
    }

    /// The roll for the main move, after Magician's and the Dicemongers' rerolls.
    fn roll_main(&mut self, r: Rid, d: &mut dyn Decider) -> R<u8> {
        let who = self.who(r);
        let mut v = self.die()?;
        if !self.quiet {
            self.emit(RaceEvent::Rolled {
                racer: who,
                value: v,
                reroll: None,
            });
        }
        let mut magic = 2;
        while magic > 0 && self.has(r, Kind::Magician) {
            let q = Question::Reroll {
                racer: r,
                roll: v,
                power: Kind::Magician,
            };
            if self.ask(d, q)? != Answer::Yes {
                break;
            }
            magic -= 1;
            self.power_happened(r, Kind::Magician, || "rerolls".to_string());
            v = self.die()?;
            self.emit(RaceEvent::Rolled {
                racer: who,
                value: v,
                reroll: Some(Kind::Magician),
            });
        }
        let mongers: Vec<Rid> = self.holders(Kind::Dicemonger).collect();
        if !mongers.is_empty() {
            let q = Question::Reroll {
                racer: r,
                roll: v,
                power: Kind::Dicemonger,
            };
            if self.ask(d, q)? == Answer::Yes {
                if let Some(&m) = mongers.first() {
                    self.power_happened(m, Kind::Dicemonger, || {
                        "lets the roll be rerolled".to_string()
                    });
                }
                v = self.die()?;
                self.emit(RaceEvent::Rolled {
                    racer: who,
                    value: v,
                    reroll: Some(Kind::Dicemonger),
                });
                let mark = self.mark();
                for &m in &mongers {
                    if m != r {
                        self.add_task(
                            self.priority(m),
                            Task::Move {
                                racer: m,
                                by: 1,
                                why: Why::Power {
                                    racer: self.who(m),
                                    power: Kind::Dicemonger,
                                },
                            },
                        );
                    }
                }
                self.push_sorted(mark);
            }
        }
        Ok(v)
    }

    /// How far roll `v` takes the mover: doubled by Rocket Scientist (who trips), or 4 by
    /// the Alchemist.
    fn roll_amount(&mut self, r: Rid, v: u8, d: &mut dyn Decider) -> R<i32> {
        let who = self.who(r);
        let mut amount = i32::from(v);
        if self.has(r, Kind::RocketScientist) {
            let q = Question::Double { racer: r, roll: v };
            if self.ask(d, q)? == Answer::Yes {
                amount *= 2;
                self.power_happened(r, Kind::RocketScientist, || {
                    format!("doubles the {v} and trips")
                });
                self.trip(
                    r,
                    TripWhy::Power {
                        racer: who,
                        power: Kind::RocketScientist,
                    },
                );
            }
        }
        if v <= 2 && self.has(r, Kind::Alchemist) {
            let q = Question::Transmute { racer: r, roll: v };
            if self.ask(d, q)? == Answer::Yes {
                amount = 4;
                self.power_happened(r, Kind::Alchemist, || format!("moves 4 instead of {v}"));
            }
        }
        Ok(amount)
    }

    /// Powers set off by the number rolled, in turn order from the mover, pushed on the
    /// stack. Returns whether the main move is cancelled (Sisyphus, Inchworm).
    fn roll_powers(&mut self, r: Rid, v: u8, d: &mut dyn Decider) -> R<bool> {
        let who = self.who(r);
        let mut cancel = false;
        let mark = self.mark();
        let roll_powers = if self.may_hold_any(ROLL_POWERS) {
            self.racers.len()
        } else {
            0
        };
        for x in self.in_priority_order().take(roll_powers) {
            match self.power(x) {
                Some(Kind::Sisyphus) if x == r && v == 6 => {
                    cancel = true;
                    self.power_happened(x, Kind::Sisyphus, || {
                        "rolled a 6: back to the Start".to_string()
                    });
                    self.add_bronze(x, -1, "Sisyphus loses a chip");
                    self.do_warps(
                        &[(x, 0)],
                        Why::Power {
                            racer: who,
                            power: Kind::Sisyphus,
                        },
                        d,
                    )?;
                }
                Some(Kind::Inchworm) if x != r && v == 1 => {
                    cancel = true;
                    let wx = self.who(x);
                    self.add_task(
                        self.priority(x),
                        Task::Move {
                            racer: x,
                            by: 1,
                            why: Why::Power {
                                racer: wx,
                                power: Kind::Inchworm,
                            },
                        },
                    );
                }
                Some(Kind::Skipper) if v == 1 => {
                    self.power_happened(x, Kind::Skipper, || "goes next".to_string());
                    let slot = Slot::Extra {
                        racer: x,
                        power: Kind::Skipper,
                    };
                    if !self.extras.contains(&slot) {
                        self.extras.push_back(slot);
                    }
                }
                Some(Kind::Lackey) if x != r && v == 6 => {
                    let wx = self.who(x);
                    self.add_task(
                        self.priority(x),
                        Task::Move {
                            racer: x,
                            by: 2,
                            why: Why::Power {
                                racer: wx,
                                power: Kind::Lackey,
                            },
                        },
                    );
                }
                _ => {}
            }
        }
        self.tell_inchworm(mark, who);
        self.push_sorted(mark);
        Ok(cancel)
    }

    /// Tells an Inchworm's skip (queued since `mark`) before it resolves.
    fn tell_inchworm(&mut self, mark: usize, mover: Who) {
        let worm = self
            .scratch
            .tasks
            .get(mark..)
            .unwrap_or(&[])
            .iter()
            .find_map(|(_, t)| match t {
                Task::Move {
                    why:
                        Why::Power {
                            racer: w,
                            power: Kind::Inchworm,
                        },
                    ..
                } => Some(*w),
                _ => None,
            });
        if let Some(w) = worm {
            self.emit(RaceEvent::Power {
                racer: w,
                power: Kind::Inchworm,
                detail: format!("{} rolled a 1: that move is skipped", mover.kind.name()),
            });
        }
    }

    /// The main move `base` after the modifiers, in turn order from the mover.
    fn modify_main(&mut self, r: Rid, start: u8, base: i32) -> i32 {
        let who = self.who(r);
        let mut amount = base;
        let here = self.pos(r);
        let modifiers = if self.may_hold_any(MAIN_MOVE_POWERS) {
            self.racers.len()
        } else {
            0
        };
        for x in self.in_priority_order().take(modifiers) {
            match self.power(x) {
                Some(Kind::Gunk) if x != r => {
                    amount -= 1;
                    self.power_happened(x, Kind::Gunk, || {
                        format!("-1 to {}'s main move", who.kind.name())
                    });
                }
                Some(Kind::Coach) if self.pos(x) == here => {
                    amount += 1;
                    self.power_happened(x, Kind::Coach, || {
                        format!("+1 to {}'s main move", who.kind.name())
                    });
                }
                Some(Kind::Blimp) if x == r => {
                    if start < SECOND_CORNER {
                        amount += 3;
                        self.power_happened(x, Kind::Blimp, || {
                            "+3 before the second corner".to_string()
                        });
                    } else {
                        amount -= 1;
                        self.power_happened(x, Kind::Blimp, || {
                            "-1 past the second corner".to_string()
                        });
                    }
                }
                Some(Kind::Hare) if x == r => {
                    amount += 2;
                    self.power_happened(x, Kind::Hare, || "+2 to the main move".to_string());
                }
                Some(Kind::PartyAnimal) if x == r => {
                    let k = self.count_on(here).saturating_sub(1) as i32;
                    if k > 0 {
                        amount += k;
                        self.power_happened(x, Kind::PartyAnimal, || {
                            format!("+{k} from the party on its space")
                        });
                    }
                }
                _ => {}
            }
        }
        amount
    }
}
