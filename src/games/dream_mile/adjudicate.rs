//! Dream Mile's adjudication of one turn: ties first, then overtakes from the back.
//!
//! The field is a list of position groups, front to back; the runners of a group are tied.
//! Everything is on fixed arrays ([`Groups`], [`Small`]): a turn allocates nothing here.

use std::fmt;

use serde::de;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::small::{Group, GroupRange, Groups, MAX_RUNNERS, Small};
use crate::engine::Seat;

/// The turn's tie breaks: each tied group that the speeds played split apart, and what
/// it became. The groups are disjoint, so the groups and their parts are kept in two
/// shared seat lists (a few dozen bytes, not a fixed list of fixed lists). Serialises as
/// the list of [`TieBreak`]s it stands for.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct TieBreaks {
    /// Each tie break's group as it was, seats in order.
    group: Groups,
    /// Every tie break's parts, front to back, one tie break after another.
    into: Groups,
    /// The end (in `into`) of each tie break's parts.
    ends: Small<u8, MAX_RUNNERS>,
}

/// One tie break, read from [`TieBreaks`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TieBreak<'a> {
    /// The group as it was.
    pub group: &'a [Seat],
    /// What it became, front to back (runners with equal speeds stay tied).
    pub into: GroupRange<'a>,
}

/// The turn's overtakes, from the back: who passed whom, kept like [`TieBreaks`] in two
/// shared seat lists (the passers are disjoint, and so are the passed). Serialises as
/// the list of [`Overtake`]s it stands for.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Overtakes {
    /// Each overtake's passer (several runners when a tied group moves as a unit).
    by: Groups,
    /// Every overtake's passed units, in the order passed, one overtake after another.
    passed: Groups,
    /// The end (in `passed`) of each overtake's units.
    ends: Small<u8, MAX_RUNNERS>,
}

/// One runner (or tied group) passing others, read from [`Overtakes`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Overtake<'a> {
    /// Who passed (several when a tied group moves as a unit).
    pub by: &'a [Seat],
    /// Whom, in the order passed; each entry is a runner or a tied group.
    pub passed: GroupRange<'a>,
}

/// The lists' shared layout: a head group per entry, and each entry's groups.
macro_rules! entry_list {
    ($list:ident, $item:ident, $iter:ident, $head:ident, $groups:ident, $head_key:literal, $groups_key:literal) => {
        impl $list {
            pub const fn new() -> Self {
                $list {
                    $head: Groups::new(),
                    $groups: Groups::new(),
                    ends: Small::new(),
                }
            }

            pub fn len(&self) -> usize {
                self.ends.len()
            }

            pub fn is_empty(&self) -> bool {
                self.ends.is_empty()
            }

            /// Entry `i`.
            pub fn get(&self, i: usize) -> Option<$item<'_>> {
                let end = usize::from(*self.ends.get(i)?);
                let start = match i.checked_sub(1) {
                    Some(p) => usize::from(self.ends.get(p).copied().unwrap_or(0)),
                    None => 0,
                };
                Some($item {
                    $head: self.$head.get(i)?,
                    $groups: self.$groups.range(start, end),
                })
            }

            pub fn first(&self) -> Option<$item<'_>> {
                self.get(0)
            }

            /// The entries, in order.
            pub fn iter(&self) -> $iter<'_> {
                $iter {
                    list: self,
                    next: 0,
                }
            }

            /// Appends an entry; says whether there was room (the head group must not
            /// be empty).
            fn push_entry<'g>(
                &mut self,
                head: &[Seat],
                groups: impl IntoIterator<Item = &'g [Seat]>,
            ) -> bool {
                if self.ends.len() >= MAX_RUNNERS || !self.$head.push(head) {
                    return false;
                }
                for g in groups {
                    if !self.$groups.push(g) {
                        return false;
                    }
                }
                self.ends.push(self.$groups.len() as u8)
            }
        }

        /// The entries of a list, in order.
        pub struct $iter<'a> {
            list: &'a $list,
            next: usize,
        }

        impl<'a> Iterator for $iter<'a> {
            type Item = $item<'a>;
            fn next(&mut self) -> Option<$item<'a>> {
                let e = self.list.get(self.next)?;
                self.next += 1;
                Some(e)
            }
        }

        impl<'a> IntoIterator for &'a $list {
            type Item = $item<'a>;
            type IntoIter = $iter<'a>;
            fn into_iter(self) -> $iter<'a> {
                self.iter()
            }
        }

        impl fmt::Debug for $list {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl Serialize for $list {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.len()))?;
                for e in self.iter() {
                    seq.serialize_element(&e)?;
                }
                seq.end()
            }
        }

        impl<'de> Deserialize<'de> for $list {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(Deserialize)]
                struct Stored {
                    #[serde(rename = $head_key)]
                    head: Group,
                    #[serde(rename = $groups_key)]
                    groups: Groups,
                }
                let stored: Vec<Stored> = Vec::deserialize(d)?;
                let mut out = $list::new();
                for e in stored {
                    if !out.push_entry(&e.head, e.groups.iter()) {
                        return Err(de::Error::custom(concat!(
                            "too many runners in the turn's ",
                            stringify!($groups)
                        )));
                    }
                }
                Ok(out)
            }
        }
    };
}

entry_list!(
    TieBreaks,
    TieBreak,
    TieBreakIter,
    group,
    into,
    "group",
    "into"
);
entry_list!(
    Overtakes,
    Overtake,
    OvertakeIter,
    by,
    passed,
    "by",
    "passed"
);

/// The result of one turn's adjudication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    pub tie_breaks: TieBreaks,
    pub overtakes: Overtakes,
    /// The new field, front to back.
    pub field: Groups,
}

/// The margin a unit of speed `s` needs to pass the next unit of `m` runners,
/// having passed `passed_so_far` runners already this turn.
pub fn margin_needed(passed_so_far: usize, m: usize) -> i64 {
    let group_extra = if m >= 2 { m } else { 0 };
    (passed_so_far + 1 + group_extra) as i64
}

/// Told each tie break and overtake as the adjudication finds them. The turn itself
/// tells nobody (`()`), so its hot path writes only the new field; the lists are made
/// when a turn's event is read ([`Moves`]).
pub trait Witness {
    /// `group` (as it was, in field order) split into `parts`, front to back.
    fn tie_break<'a>(&mut self, group: &[Seat], parts: impl Iterator<Item = &'a [Seat]>);
    /// `by` passed `passed`, in the order passed.
    fn overtake<'a>(&mut self, by: &[Seat], passed: impl Iterator<Item = &'a [Seat]>);
}

impl Witness for () {
    #[inline]
    fn tie_break<'a>(&mut self, _: &[Seat], _: impl Iterator<Item = &'a [Seat]>) {}
    #[inline]
    fn overtake<'a>(&mut self, _: &[Seat], _: impl Iterator<Item = &'a [Seat]>) {}
}

/// Writes the lists: a tie break's group by seat, as the events have always shown it.
impl Witness for (TieBreaks, Overtakes) {
    fn tie_break<'a>(&mut self, group: &[Seat], parts: impl Iterator<Item = &'a [Seat]>) {
        let mut sorted = Group::from_slice(group);
        sorted.as_mut_slice().sort_unstable();
        self.0.push_entry(&sorted, parts);
    }

    fn overtake<'a>(&mut self, by: &[Seat], passed: impl Iterator<Item = &'a [Seat]>) {
        self.1.push_entry(by, passed);
    }
}

/// Adjudicates a turn. `speed` gives each runner's played speed. On the first turn
/// (`ties_only`) only the tie step happens.
pub fn adjudicate(field: &Groups, speed: impl Fn(Seat) -> u32, ties_only: bool) -> Adjudication {
    let mut lists = (TieBreaks::new(), Overtakes::new());
    let mut out = Groups::new();
    adjudicate_into(field, speed, ties_only, &mut lists, &mut out);
    Adjudication {
        tie_breaks: lists.0,
        overtakes: lists.1,
        field: out,
    }
}

/// The working arrays' length: a power of two above [`MAX_RUNNERS`], so that an index
/// masked with `MASK` is always in bounds (no bounds check, no panic path).
const SLOTS: usize = 16;
const MASK: usize = SLOTS - 1;

/// [`adjudicate`], telling `witness` the tie breaks and overtakes and writing the new
/// field into `out` (whatever it held).
///
/// The work is on one array of the field's seats (`seat`, with `sp` alongside): each
/// runner's speed is read once, the tie step sorts each group in place, and the units
/// are ranges of that array (unit `u` is `seat[first[u]..end[u]]`, front to back).
pub fn adjudicate_into<W: Witness>(
    field: &Groups,
    speed: impl Fn(Seat) -> u32,
    ties_only: bool,
    witness: &mut W,
    out: &mut Groups,
) {
    let seats = field.seats();
    let n = seats.len().min(MAX_RUNNERS);
    let mut seat = [Seat(0); SLOTS];
    let mut sp = [0u32; SLOTS];
    for (i, &s) in seats.iter().take(n).enumerate() {
        seat[i & MASK] = s;
        sp[i & MASK] = speed(s);
    }
    // 1. Ties: split each group by speed, higher first; equal speeds stay tied.
    let mut first = [0u8; SLOTS];
    let mut end = [0u8; SLOTS];
    let mut units = 0usize;
    let mut start = 0usize;
    for &group_end in field.ends() {
        let group_end = usize::from(group_end).min(n);
        if group_end <= start {
            continue;
        }
        sort_by_speed(&mut seat, &mut sp, start, group_end);
        let group_units = units;
        let mut a = start;
        for i in start..group_end {
            if i + 1 == group_end || sp[(i + 1) & MASK] != sp[i & MASK] {
                first[units & MASK] = a as u8;
                end[units & MASK] = (i + 1) as u8;
                a = i + 1;
                units += 1;
            }
        }
        if units - group_units > 1 {
            witness.tie_break(
                seats.get(start..group_end).unwrap_or_default(),
                (group_units..units).map(|u| unit(&seat, &first, &end, u)),
            );
        }
        start = group_end;
    }
    // A unit's seats never exceed the field's, so `units <= n <= MAX_RUNNERS`.
    let units = units.min(MAX_RUNNERS);
    let mut order = [0u8; SLOTS];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u8;
    }
    if !ties_only {
        // 2. Overtakes, taking each unit in turn from the last position forward. A unit's
        // speed is its first runner's. A unit that nobody passed still stands where it
        // started, with the units ahead of it unmoved: so when unit `id` moves, the unit
        // at position `p < id` is unit `p`.
        let mut overtaken = 0u32;
        for id in (0..units).rev() {
            if overtaken & (1 << id) != 0 {
                continue;
            }
            let mine = i64::from(sp[usize::from(first[id & MASK]) & MASK]);
            let mut pos = id;
            let mut passed_so_far = 0usize;
            while pos > 0 {
                let ahead = (pos - 1) & MASK;
                let f = usize::from(first[ahead]);
                let m = usize::from(end[ahead]).saturating_sub(f);
                if mine - i64::from(sp[f & MASK]) < margin_needed(passed_so_far, m) {
                    break;
                }
                pos -= 1;
                passed_so_far += m;
                overtaken |= 1 << ahead;
            }
            if pos < id {
                witness.overtake(
                    unit(&seat, &first, &end, id),
                    (pos..id).rev().map(|u| unit(&seat, &first, &end, u)),
                );
                // `id` moves to `pos`; the units it passed each move back one place.
                for p in (pos + 1..=id).rev() {
                    order[p & MASK] = order[(p - 1) & MASK];
                }
                order[pos & MASK] = id as u8;
            }
        }
    }
    // The new field: the units in their new order, written where it lives.
    let (out_seats, out_ends) = out.parts_mut();
    let (seat_slots, end_slots) = (out_seats.slots_mut(), out_ends.slots_mut());
    let mut k = 0usize;
    for (&u, e) in order.iter().zip(end_slots.iter_mut()).take(units) {
        let u = usize::from(u) & MASK;
        for i in usize::from(first[u])..usize::from(end[u]) {
            if let Some(d) = seat_slots.get_mut(k) {
                *d = seat[i & MASK];
            }
            k += 1;
        }
        *e = k as u8;
    }
    out_seats.set_len(k);
    out_ends.set_len(units);
}

/// Unit `u`'s seats.
#[inline]
fn unit<'a>(
    seat: &'a [Seat; SLOTS],
    first: &[u8; SLOTS],
    end: &[u8; SLOTS],
    u: usize,
) -> &'a [Seat] {
    let f = usize::from(first[u & MASK]);
    let e = usize::from(end[u & MASK]);
    seat.get(f..e).unwrap_or_default()
}

/// Sorts `seat[start..end]` (with `sp` alongside) by speed, higher first, then by seat:
/// an insertion sort, as a group holds at most 12.
fn sort_by_speed(seat: &mut [Seat; SLOTS], sp: &mut [u32; SLOTS], start: usize, end: usize) {
    for i in start + 1..end.min(MAX_RUNNERS) {
        let (s, v) = (seat[i & MASK], sp[i & MASK]);
        let mut j = i;
        while j > start
            && (sp[(j - 1) & MASK] < v || (sp[(j - 1) & MASK] == v && seat[(j - 1) & MASK] > s))
        {
            seat[j & MASK] = seat[(j - 1) & MASK];
            sp[j & MASK] = sp[(j - 1) & MASK];
            j -= 1;
        }
        seat[j & MASK] = s;
        sp[j & MASK] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn seats(ids: &[u8]) -> Vec<Seat> {
        ids.iter().map(|&i| Seat(i)).collect()
    }

    fn groups(field: &[Vec<Seat>]) -> Groups {
        let mut g = Groups::new();
        for group in field {
            assert!(g.push(group));
        }
        g
    }

    fn vecs(o: &Overtakes) -> Vec<(Vec<Seat>, Vec<Vec<Seat>>)> {
        o.iter()
            .map(|o| (o.by.to_vec(), o.passed.to_vecs()))
            .collect()
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
        let field = groups(&[seats(&[0]), seats(&[1]), seats(&[2]), seats(&[3])]);
        let speeds = [1u32, 9, 5, 10];
        let a = adjudicate(&field, |s| speeds[s.index()], false);
        assert_eq!(
            a.field.to_vecs(),
            vec![seats(&[1]), seats(&[0]), seats(&[3]), seats(&[2])]
        );
        assert_eq!(
            vecs(&a.overtakes),
            vec![
                (seats(&[3]), vec![seats(&[2])]),
                (seats(&[1]), vec![seats(&[0])]),
            ]
        );
    }

    #[test]
    fn equal_speeds_in_a_group_stay_tied_and_move_as_one() {
        let field = groups(&[seats(&[0]), seats(&[1, 2])]);
        let a = adjudicate(&field, |s| [1, 6, 6][s.index()], false);
        assert!(a.tie_breaks.is_empty());
        assert_eq!(a.field.to_vecs(), vec![seats(&[1, 2]), seats(&[0])]);
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
            let a = adjudicate(&groups(&field), |s| speeds[s.index()], first);
            let mut before: Vec<Seat> = field.concat();
            let mut after: Vec<Seat> = a.field.seats().to_vec();
            before.sort();
            after.sort();
            prop_assert_eq!(before, after);
            // Runners in a group after the turn were in one group before and played equally.
            for g in a.field.iter() {
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
            let a = adjudicate(&groups(&field), |s| speeds[s.index()], false);
            let mut passed_runners: Vec<Seat> = Vec::new();
            for o in &a.overtakes {
                // A unit that was passed before it moved cannot overtake.
                prop_assert!(o.by.iter().all(|s| !passed_runners.contains(s)));
                let mine = i64::from(speeds[o.by[0].index()]);
                let mut so_far = 0usize;
                for unit in o.passed.iter() {
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
            let a = adjudicate(&groups(&field), |_| v, false);
            prop_assert_eq!(a.field.to_vecs(), field);
            prop_assert!(a.overtakes.is_empty());
        }
    }
}
