//! A seat's time bank (`clock=3d+12h`), pure: what a move is charged, what it earns,
//! and what happens when the bank runs out. The bank runs while its seat owes an order;
//! a move is charged the time from the bank's start to the order, but never more than
//! was left (time the calendar's rules added past the bank's end is free), then earns
//! the increment up to the cap. A bank that runs out is emptied, its seat's default
//! order plays, and it refills by the increment. docs/time.md has the rulings.

use crate::vocab::{Bank, CalendarOptions};

/// A race's clock, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockRules {
    /// Each seat's starting bank.
    pub bank_ms: i64,
    /// What each move adds.
    pub increment_ms: i64,
    /// The most a bank can hold (at least the starting bank).
    pub cap_ms: i64,
}

/// What became of a seat's bank in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The seat ordered in time: charged, then the increment.
    Moved,
    /// The bank ran out: the seat's default order plays.
    RanOut,
}

fn ms(secs: u64) -> i64 {
    i64::try_from(secs).unwrap_or(i64::MAX).saturating_mul(1000)
}

impl ClockRules {
    /// The race's clock, if it has one (`clock=`, `clock-cap=`).
    pub fn of(c: &CalendarOptions) -> Option<ClockRules> {
        let bank_ms = ms(c.clock_secs?);
        Some(ClockRules {
            bank_ms,
            increment_ms: ms(c.clock_increment_secs.unwrap_or(0)),
            cap_ms: c.clock_cap_secs.map_or(bank_ms, ms).max(bank_ms),
        })
    }

    /// A bank as a seat starts with it.
    pub fn fresh(&self) -> Bank {
        Bank {
            left_ms: self.bank_ms.max(0),
            ..Bank::default()
        }
    }
}

impl Bank {
    /// What is left after the bank has run `ran_ms` (never below zero).
    pub fn left_after(&self, ran_ms: i64) -> i64 {
        self.left_ms.saturating_sub(ran_ms.max(0)).max(0)
    }

    /// The seat moved after its bank ran `ran_ms`: charged at most what was left, then
    /// the increment up to the cap.
    pub fn moved(&mut self, ran_ms: i64, rules: &ClockRules) {
        let charge = ran_ms.clamp(0, self.left_ms.max(0));
        self.left_ms = self.left_ms.saturating_sub(charge);
        self.used_ms = self.used_ms.saturating_add(charge);
        self.earn(rules);
    }

    /// The bank ran out: all of it is used, and it refills by the increment.
    pub fn ran_out(&mut self, rules: &ClockRules) {
        self.used_ms = self.used_ms.saturating_add(self.left_ms.max(0));
        self.left_ms = 0;
        self.expiries = self.expiries.saturating_add(1);
        self.earn(rules);
    }

    /// One step: the seat ordered `order_ms` after its bank started (`None`: never),
    /// and the calendar's rules gave `grace_ms` past the bank's end. An order within
    /// the bank and its grace is a move; otherwise the bank ran out.
    pub fn settle(&mut self, order_ms: Option<i64>, grace_ms: i64, rules: &ClockRules) -> Settled {
        let end = self.left_ms.max(0).saturating_add(grace_ms.max(0));
        match order_ms {
            Some(t) if t <= end => {
                self.moved(t, rules);
                Settled::Moved
            }
            _ => {
                self.ran_out(rules);
                Settled::RanOut
            }
        }
    }

    fn earn(&mut self, rules: &ClockRules) {
        let cap = rules.cap_ms.max(rules.bank_ms).max(self.left_ms);
        let after = self
            .left_ms
            .saturating_add(rules.increment_ms.max(0))
            .min(cap);
        let earned = after.saturating_sub(self.left_ms).max(0);
        self.left_ms = self.left_ms.saturating_add(earned);
        self.earned_ms = self.earned_ms.saturating_add(earned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const H: i64 = 3_600_000;

    fn rules(bank_h: i64, inc_h: i64, cap_h: i64) -> ClockRules {
        ClockRules {
            bank_ms: bank_h * H,
            increment_ms: inc_h * H,
            cap_ms: cap_h * H,
        }
    }

    #[test]
    fn a_move_is_charged_then_earns_up_to_the_cap() {
        let r = rules(72, 12, 84);
        let mut b = r.fresh();
        b.moved(10 * H, &r);
        assert_eq!(b.left_ms, 74 * H);
        b.moved(0, &r);
        assert_eq!(b.left_ms, 84 * H, "capped");
        assert_eq!(b.earned_ms, 22 * H);
        // Past the bank's end (the calendar moved the deadline): at most all of it.
        b.moved(500 * H, &r);
        assert_eq!((b.left_ms, b.used_ms), (12 * H, 94 * H));
        b.ran_out(&r);
        assert_eq!((b.left_ms, b.expiries), (12 * H, 1));
        let none = ClockRules::of(&CalendarOptions::default());
        assert_eq!(none, None);
        let c = CalendarOptions {
            clock_secs: Some(3 * 86_400),
            clock_increment_secs: Some(43_200),
            ..CalendarOptions::default()
        };
        assert_eq!(ClockRules::of(&c), Some(rules(72, 12, 72)));
    }

    #[derive(Clone, Debug)]
    enum Op {
        Moved(i64),
        RanOut,
        Settle(Option<i64>, i64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (-H..400 * H).prop_map(Op::Moved),
            Just(Op::RanOut),
            (proptest::option::of(-H..400 * H), -H..48 * H).prop_map(|(o, g)| Op::Settle(o, g)),
        ]
    }

    fn clock() -> impl Strategy<Value = ClockRules> {
        (10_000..365 * 24 * H, 0..365 * 24 * H, 0..400 * 24 * H).prop_map(|(bank, inc, cap)| {
            ClockRules {
                bank_ms: bank,
                increment_ms: inc,
                cap_ms: cap.max(bank),
            }
        })
    }

    proptest! {
        /// A bank never goes negative nor past its cap, and what it started with plus
        /// what it earned is what it used plus what is left.
        #[test]
        fn a_bank_balances_and_never_goes_negative(
            r in clock(),
            ops in proptest::collection::vec(op(), 0..60),
        ) {
            let mut b = r.fresh();
            for op in ops {
                match op {
                    Op::Moved(t) => b.moved(t, &r),
                    Op::RanOut => b.ran_out(&r),
                    Op::Settle(o, g) => {
                        b.settle(o, g, &r);
                    }
                }
                prop_assert!(b.left_ms >= 0);
                prop_assert!(b.left_ms <= r.cap_ms);
                prop_assert!(b.used_ms >= 0 && b.earned_ms >= 0);
                prop_assert_eq!(r.bank_ms + b.earned_ms, b.used_ms + b.left_ms);
                prop_assert!(b.left_after(400 * H) >= 0);
            }
        }

        /// A seat that never answers is played (runs out) at every step, and its bank
        /// is then the increment (up to the cap) each time.
        #[test]
        fn a_seat_that_never_answers_is_played_on_every_expiry(
            r in clock(),
            graces in proptest::collection::vec(0..48 * H, 1..40),
        ) {
            let mut b = r.fresh();
            for (n, grace) in graces.iter().enumerate() {
                prop_assert_eq!(b.settle(None, *grace, &r), Settled::RanOut);
                prop_assert_eq!(b.expiries as usize, n + 1);
                prop_assert_eq!(b.left_ms, r.increment_ms.min(r.cap_ms));
            }
            prop_assert_eq!(r.bank_ms + b.earned_ms, b.used_ms + b.left_ms);
        }

        /// An order within the bank and the grace the calendar gave is never played by
        /// default, and is charged at most what was left.
        #[test]
        fn an_order_in_time_is_a_move(r in clock(), frac in 0.0f64..=1.0, grace in 0..48 * H) {
            let mut b = r.fresh();
            let left = b.left_ms;
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            let t = ((left + grace) as f64 * frac) as i64;
            prop_assert_eq!(b.settle(Some(t), grace, &r), Settled::Moved);
            prop_assert_eq!(b.used_ms, t.min(left));
            prop_assert_eq!(b.expiries, 0);
        }
    }
}
