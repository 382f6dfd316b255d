//! Dream Mile's adjudication of one turn, in the rulebook's order (*Adjudication*, rules 1
//! to 5): runners who are equal are dealt with first, then overtakes are worked out from
//! the last runner forward.
//!
//! The field is a list of position groups, front to back; the runners of a group are equal
//! (tied). After the ties, each group is one or more *units*: a runner, or runners who
//! played the same speed and stay equal, who pass and are passed together.

use std::cmp::Reverse;

use serde::{Deserialize, Serialize};

use crate::engine::Seat;

/// A group of equal runners that the speeds played this turn split apart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreak {
    /// The group as it was, in seat order.
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

/// Adjudicates a turn: `speed` gives each runner's speed played. On the first turn
/// (`ties_only`) only the ties are dealt with: "the final positions are set after tie
/// resolution, as overtakes are not possible."
pub fn adjudicate(
    field: &[Vec<Seat>],
    speed: impl Fn(Seat) -> u32,
    ties_only: bool,
) -> Adjudication {
    let (units, tie_breaks) = deal_with_ties(field, &speed);
    if ties_only {
        return Adjudication {
            tie_breaks,
            overtakes: Vec::new(),
            field: units,
        };
    }
    let (field, overtakes) = overtake(units, &speed);
    Adjudication {
        tie_breaks,
        overtakes,
        field,
    }
}

/// Rule 1: "Before any other moves are done, runners who are equal are dealt with. They
/// are ranked according to the Speed Points played that turn." Runners who played the same
/// stay equal. Being passed this way is not being overtaken. Returns the units, front to
/// back, and each group that split.
fn deal_with_ties(
    field: &[Vec<Seat>],
    speed: &impl Fn(Seat) -> u32,
) -> (Vec<Vec<Seat>>, Vec<TieBreak>) {
    let mut units = Vec::new();
    let mut tie_breaks = Vec::new();
    for group in field {
        // Higher speed first; equal speeds in seat order, so the field's order is fixed.
        let mut ranked = group.clone();
        ranked.sort_by_key(|&s| (Reverse(speed(s)), s));
        let parts: Vec<Vec<Seat>> = ranked
            .chunk_by(|&a, &b| speed(a) == speed(b))
            .map(<[Seat]>::to_vec)
            .collect();
        if parts.len() > 1 {
            let mut group = group.clone();
            group.sort_unstable();
            tie_breaks.push(TieBreak {
                group,
                into: parts.clone(),
            });
        }
        units.extend(parts);
    }
    (units, tie_breaks)
}

/// A unit in the overtaking step.
struct Unit {
    runners: Vec<Seat>,
    /// The speed its runners played (all the same).
    speed: i64,
    /// Passed by another unit this turn.
    overtaken: bool,
    /// Has had its go and moved up.
    moved: bool,
}

/// The overtaking rule, rules 2 to 5:
/// 2. "start with the last runner and move forward";
/// 3. "No runner who has already been overtaken in a turn is able to overtake anyone else";
/// 4. "A runner overtakes the runner in front if he has spent at least one more Speed Point
///    than him that turn. He may then overtake the next runner along in the same turn if he
///    has spent 2 more Speed Points than him, and so on";
/// 5. "Overtaking equal runners costs one extra for each runner who is equal".
///
/// A unit stops at the first unit it cannot pass; a tied group is passed whole or not at
/// all. Returns the new field and the overtakes, in the order they happened.
fn overtake(
    units: Vec<Vec<Seat>>,
    speed: &impl Fn(Seat) -> u32,
) -> (Vec<Vec<Seat>>, Vec<Overtake>) {
    let mut field: Vec<Unit> = units
        .into_iter()
        .map(|runners| Unit {
            speed: runners.first().map_or(0, |&s| i64::from(speed(s))),
            runners,
            overtaken: false,
            moved: false,
        })
        .collect();
    let mut overtakes = Vec::new();
    // Rule 2: from the last position forward. A unit that has moved up to a position
    // still to come has had its go; one moved back by being passed is overtaken.
    for start in (0..field.len()).rev() {
        if field[start].overtaken || field[start].moved {
            continue;
        }
        let mut at = start;
        let mut passed_so_far = 0;
        let mut passed = Vec::new();
        while at > 0 {
            let (mover, ahead) = (&field[at], &field[at - 1]);
            if mover.speed - ahead.speed < margin_needed(passed_so_far, ahead.runners.len()) {
                break;
            }
            passed_so_far += ahead.runners.len();
            passed.push(ahead.runners.clone());
            field[at - 1].overtaken = true;
            field.swap(at - 1, at);
            at -= 1;
        }
        if !passed.is_empty() {
            field[at].moved = true;
            overtakes.push(Overtake {
                by: field[at].runners.clone(),
                passed,
            });
        }
    }
    (field.into_iter().map(|u| u.runners).collect(), overtakes)
}

/// Rules 4 and 5: how many more speed points than the unit ahead, of `m` runners, a unit
/// must have played to pass it, having passed `passed_so_far` runners already this turn:
/// one more than the runners passed so far, and one extra for each runner of a tied group.
pub fn margin_needed(passed_so_far: usize, m: usize) -> i64 {
    let equal_runners = if m >= 2 { m } else { 0 };
    i64::try_from(passed_so_far + 1 + equal_runners).unwrap_or(i64::MAX)
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
