//! Dream Mile's adjudication of one turn: ties first, then overtakes from the back.
//!
//! The field is a list of position groups, front to back; the runners of a group are tied.

use serde::{Deserialize, Serialize};

use crate::engine::Seat;

/// A tied group that the speeds played this turn split apart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreak {
    /// The group as it was.
    pub group: Vec<Seat>,
    /// What it became, front to back (runners with equal speeds stay tied).
    pub into: Vec<Vec<Seat>>,
}

/// One runner (or tied group) passing others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overtake {
    /// Who passed (several when a tied group moves as a unit).
    pub by: Vec<Seat>,
    /// Whom, in the order passed; each entry is a runner or a tied group.
    pub passed: Vec<Vec<Seat>>,
}

/// The result of one turn's adjudication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    pub tie_breaks: Vec<TieBreak>,
    pub overtakes: Vec<Overtake>,
    /// The new field, front to back.
    pub field: Vec<Vec<Seat>>,
}

/// The margin a unit of speed `s` needs to pass the next unit of `m` runners,
/// having passed `passed_so_far` runners already this turn.
pub fn margin_needed(passed_so_far: usize, m: usize) -> i64 {
    let group_extra = if m >= 2 { m } else { 0 };
    (passed_so_far + 1 + group_extra) as i64
}

/// Adjudicates a turn. `speed` gives each runner's played speed. On the first turn
/// (`ties_only`) only the tie step happens.
pub fn adjudicate(
    field: &[Vec<Seat>],
    speed: impl Fn(Seat) -> u32,
    ties_only: bool,
) -> Adjudication {
    // 1. Ties: split each group by speed, higher first; equal speeds stay tied.
    let mut tie_breaks = Vec::new();
    let mut units: Vec<Vec<Seat>> = Vec::new();
    for group in field {
        let mut members = group.clone();
        members.sort_by_key(|&s| (std::cmp::Reverse(speed(s)), s));
        let mut parts: Vec<Vec<Seat>> = Vec::new();
        for s in members {
            match parts.last_mut() {
                Some(last) if last.first().map(|&f| speed(f)) == Some(speed(s)) => last.push(s),
                _ => parts.push(vec![s]),
            }
        }
        if parts.len() > 1 {
            tie_breaks.push(TieBreak {
                group: sorted(group.clone()),
                into: parts.clone(),
            });
        }
        units.extend(parts);
    }
    if ties_only {
        return Adjudication {
            tie_breaks,
            overtakes: Vec::new(),
            field: units,
        };
    }

    // 2. Overtakes, taking each unit in turn from the last position forward.
    let unit_speed: Vec<i64> = units
        .iter()
        .map(|u| u.first().map(|&s| i64::from(speed(s))).unwrap_or(0))
        .collect();
    let mut order: Vec<usize> = (0..units.len()).collect();
    let mut overtaken = vec![false; units.len()];
    let mut overtakes = Vec::new();
    for id in (0..units.len()).rev() {
        if overtaken[id] {
            continue;
        }
        let Some(mut pos) = order.iter().position(|&u| u == id) else {
            continue;
        };
        let mut passed_so_far = 0usize;
        let mut passed = Vec::new();
        while pos > 0 {
            let ahead = order[pos - 1];
            let m = units[ahead].len();
            if unit_speed[id] - unit_speed[ahead] < margin_needed(passed_so_far, m) {
                break;
            }
            order.swap(pos - 1, pos);
            pos -= 1;
            passed_so_far += m;
            overtaken[ahead] = true;
            passed.push(units[ahead].clone());
        }
        if !passed.is_empty() {
            overtakes.push(Overtake {
                by: units[id].clone(),
                passed,
            });
        }
    }
    Adjudication {
        tie_breaks,
        overtakes,
        field: order.into_iter().map(|u| units[u].clone()).collect(),
    }
}

fn sorted(mut v: Vec<Seat>) -> Vec<Seat> {
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn seats(ids: &[u8]) -> Vec<Seat> {
        ids.iter().map(|&i| Seat(i)).collect()
    }

    #[test]
    fn margins_follow_the_rulings() {
        assert_eq!(margin_needed(0, 1), 1);
        assert_eq!(margin_needed(1, 2), 4); // the rulebook's "2+2=4"
        assert_eq!(margin_needed(3, 1), 4); // "then needs to beat Carol by 4 (not 3)"
    }

    #[test]
    fn a_unit_stops_at_the_first_it_cannot_pass() {
        // The back runner (10) passes 5 by 5, then needs 2 against 9 and has only 1.
        // The 9 then passes the leader (1) by 8.
        let field = vec![seats(&[0]), seats(&[1]), seats(&[2]), seats(&[3])];
        let speeds = [1u32, 9, 5, 10];
        let a = adjudicate(&field, |s| speeds[s.index()], false);
        assert_eq!(
            a.field,
            vec![seats(&[1]), seats(&[0]), seats(&[3]), seats(&[2])]
        );
        assert_eq!(
            a.overtakes,
            vec![
                Overtake {
                    by: seats(&[3]),
                    passed: vec![seats(&[2])]
                },
                Overtake {
                    by: seats(&[1]),
                    passed: vec![seats(&[0])]
                },
            ]
        );
    }

    #[test]
    fn equal_speeds_in_a_group_stay_tied_and_move_as_one() {
        let field = vec![seats(&[0]), seats(&[1, 2])];
        let a = adjudicate(&field, |s| [1, 6, 6][s.index()], false);
        assert!(a.tie_breaks.is_empty());
        assert_eq!(a.field, vec![seats(&[1, 2]), seats(&[0])]);
    }

    fn arb_case() -> impl Strategy<Value = (Vec<Vec<Seat>>, Vec<u32>)> {
        (2usize..12).prop_flat_map(|n| {
            (
                proptest::collection::vec(0u8..4, n),
                proptest::collection::vec(0u32..16, n),
            )
                .prop_map(move |(cuts, speeds)| {
                    // Build a field by cutting 0..n into groups.
                    let mut field: Vec<Vec<Seat>> = Vec::new();
                    for (i, c) in cuts.iter().enumerate() {
                        let s = Seat(i as u8);
                        match field.last_mut() {
                            Some(last) if *c == 0 => last.push(s),
                            _ => field.push(vec![s]),
                        }
                    }
                    (field, speeds)
                })
        })
    }

    proptest! {
        #[test]
        fn the_field_is_a_permutation_and_ties_only_split((field, speeds) in arb_case(), first in any::<bool>()) {
            let a = adjudicate(&field, |s| speeds[s.index()], first);
            let mut before: Vec<Seat> = field.concat();
            let mut after: Vec<Seat> = a.field.concat();
            before.sort();
            after.sort();
            prop_assert_eq!(before, after);
            // Runners in a group after the turn were in one group before and played equally.
            for g in &a.field {
                let sp = speeds[g[0].index()];
                prop_assert!(g.iter().all(|s| speeds[s.index()] == sp));
                prop_assert!(field.iter().any(|old| g.iter().all(|s| old.contains(s))));
            }
            if first {
                prop_assert!(a.overtakes.is_empty());
            }
        }

        #[test]
        fn every_pass_meets_its_margin_and_the_passed_cannot_pass((field, speeds) in arb_case()) {
            let a = adjudicate(&field, |s| speeds[s.index()], false);
            let mut passed_runners: Vec<Seat> = Vec::new();
            for o in &a.overtakes {
                // A unit that was passed before it moved cannot overtake.
                prop_assert!(o.by.iter().all(|s| !passed_runners.contains(s)));
                let mine = i64::from(speeds[o.by[0].index()]);
                let mut so_far = 0usize;
                for unit in &o.passed {
                    let theirs = i64::from(speeds[unit[0].index()]);
                    prop_assert!(mine - theirs >= margin_needed(so_far, unit.len()));
                    so_far += unit.len();
                    passed_runners.extend(unit.iter().copied());
                }
            }
            // Nobody who could not have passed moved ahead of a runner it started behind,
            // unless it was an overtaker.
            let start_pos = |s: Seat| field.iter().position(|g| g.contains(&s)).unwrap_or(0);
            let end_pos = |s: Seat| a.field.iter().position(|g| g.contains(&s)).unwrap_or(0);
            for g in &field {
                for &s in g {
                    let overtook = a.overtakes.iter().any(|o| o.by.contains(&s));
                    if !overtook {
                        for &t in &field.concat() {
                            if start_pos(t) < start_pos(s) {
                                prop_assert!(end_pos(s) > end_pos(t));
                            }
                        }
                    }
                }
            }
        }

        #[test]
        fn equal_speeds_change_nothing((field, _speeds) in arb_case(), v in 0u32..16) {
            let a = adjudicate(&field, |_| v, false);
            prop_assert_eq!(a.field, field);
            prop_assert!(a.overtakes.is_empty());
        }
    }
}
