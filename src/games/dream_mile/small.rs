//! Fixed-capacity lists for the turn's hot path: a turn's plays, groups and records live
//! inline, so resolving a turn allocates nothing but the returned list of events.
//!
//! Each serialises exactly as the `Vec` it replaced (a sequence, or a sequence of
//! sequences for [`Groups`]), so stored states and events decode and encode unchanged.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::Seat;

/// The most runners in a race (the seat limit).
pub const MAX_RUNNERS: usize = 12;

/// A value that fills the unused slots of a [`Small`].
pub trait Filler: Copy {
    const FILL: Self;
}

impl Filler for Seat {
    const FILL: Self = Seat(0);
}
impl Filler for u8 {
    const FILL: Self = 0;
}
impl Filler for u32 {
    const FILL: Self = 0;
}
impl Filler for bool {
    const FILL: Self = false;
}

/// At most `N` items, inline.
#[derive(Clone, Copy)]
pub struct Small<T: Filler, const N: usize> {
    len: u8,
    items: [T; N],
}

/// The seats of one runner or tied group.
pub type Group = Small<Seat, MAX_RUNNERS>;

impl<T: Filler, const N: usize> Small<T, N> {
    pub const fn new() -> Self {
        Small {
            len: 0,
            items: [T::FILL; N],
        }
    }

    /// Appends `item`; says whether there was room.
    pub fn push(&mut self, item: T) -> bool {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = item;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// The items from a slice, as many as fit.
    pub fn from_slice(items: &[T]) -> Self {
        let mut out = Self::new();
        let n = items.len().min(N);
        if let (Some(dst), Some(src)) = (out.items.get_mut(..n), items.get(..n)) {
            dst.copy_from_slice(src);
            out.len = n as u8;
        }
        out
    }

    /// The first `len` items of `items` (all of them if `len` is larger): a list filled
    /// in place, as the turn fills its per-seat arrays.
    pub fn from_array(items: [T; N], len: usize) -> Self {
        Small {
            len: len.min(N) as u8,
            items,
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let len = usize::from(self.len);
        self.items.get_mut(..len).unwrap_or_default()
    }

    /// All `N` slots, to fill in place before [`Small::set_len`]. The turn writes its
    /// lists where they live: a list built aside and then copied is read back as wide
    /// words just after it was written byte by byte, which stalls the CPU (a failed
    /// store-to-load forward) more than the copy costs.
    pub(super) fn slots_mut(&mut self) -> &mut [T; N] {
        &mut self.items
    }

    /// Makes the first `len` slots (at most `N`) the list.
    pub(super) fn set_len(&mut self, len: usize) {
        self.len = len.min(N) as u8;
    }

    /// Appends a slot, to be filled in place (it holds whatever it held); `None` if full.
    pub(super) fn push_slot(&mut self) -> Option<&mut T> {
        let slot = self.items.get_mut(usize::from(self.len))?;
        self.len += 1;
        Some(slot)
    }
}

impl<'a, T: Filler, const N: usize> IntoIterator for &'a Small<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Filler, const N: usize> Default for Small<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Filler, const N: usize> Deref for Small<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or_default()
    }
}

impl<T: Filler + PartialEq, const N: usize> PartialEq for Small<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}
impl<T: Filler + Eq, const N: usize> Eq for Small<T, N> {}

impl<T: Filler + fmt::Debug, const N: usize> fmt::Debug for Small<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Filler + Serialize, const N: usize> Serialize for Small<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for item in self {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

struct SmallVisitor<T, const N: usize>(PhantomData<T>);

impl<'de, T: Filler + Deserialize<'de>, const N: usize> Visitor<'de> for SmallVisitor<T, N> {
    type Value = Small<T, N>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list of at most {N} items")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Small::new();
        while let Some(item) = seq.next_element()? {
            if !out.push(item) {
                return Err(de::Error::invalid_length(N + 1, &self));
            }
        }
        Ok(out)
    }
}

impl<'de, T: Filler + Deserialize<'de>, const N: usize> Deserialize<'de> for Small<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(SmallVisitor::<T, N>(PhantomData))
    }
}

/// Runners split into groups, in order (the field front to back, or the units passed):
/// the seats in one array and where each group ends. Serialises as a list of lists.
#[derive(Clone, Copy, Default)]
pub struct Groups {
    seats: Small<Seat, MAX_RUNNERS>,
    /// The end (exclusive, in `seats`) of each group.
    ends: Small<u8, MAX_RUNNERS>,
}

impl Groups {
    pub const fn new() -> Self {
        Groups {
            seats: Small::new(),
            ends: Small::new(),
        }
    }

    /// Appends a group; says whether there was room (an empty group is not added).
    pub fn push(&mut self, group: &[Seat]) -> bool {
        let start = usize::from(self.seats.len);
        let end = start + group.len();
        let Some(dst) = self.seats.items.get_mut(start..end) else {
            return false;
        };
        if group.is_empty() {
            return false;
        }
        dst.copy_from_slice(group);
        self.seats.len = end as u8;
        self.ends.push(end as u8)
    }

    /// The seat list and the group ends, to fill in place (see [`Small::slots_mut`]).
    /// The ends must rise and stay within the seats.
    pub(super) fn parts_mut(
        &mut self,
    ) -> (&mut Small<Seat, MAX_RUNNERS>, &mut Small<u8, MAX_RUNNERS>) {
        (&mut self.seats, &mut self.ends)
    }

    /// The number of groups.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Group `i`.
    pub fn get(&self, i: usize) -> Option<&[Seat]> {
        let end = usize::from(*self.ends.get(i)?);
        let start = match i.checked_sub(1) {
            Some(p) => usize::from(self.ends.get(p).copied().unwrap_or(0)),
            None => 0,
        };
        self.seats.get(start..end)
    }

    pub fn first(&self) -> Option<&[Seat]> {
        self.get(0)
    }

    /// The groups, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &[Seat]> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// Every seat, group after group.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Where each group ends in [`Groups::seats`] (exclusive).
    pub fn ends(&self) -> &[u8] {
        &self.ends
    }

    /// The groups as lists (for comparisons and tests).
    pub fn to_vecs(&self) -> Vec<Vec<Seat>> {
        self.iter().map(<[Seat]>::to_vec).collect()
    }

    /// Groups `start..end`, as a list of their own.
    pub fn range(&self, start: usize, end: usize) -> GroupRange<'_> {
        let end = end.min(self.len());
        GroupRange {
            groups: self,
            start: start.min(end),
            end,
        }
    }
}

/// Some consecutive groups of a [`Groups`]: one entry's list of groups in the turn's
/// shared lists (a tie break's `into`, an overtake's `passed`). Serialises as a list of
/// lists.
#[derive(Clone, Copy)]
pub struct GroupRange<'a> {
    groups: &'a Groups,
    start: usize,
    end: usize,
}

impl<'a> GroupRange<'a> {
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// Group `i` of the range.
    pub fn get(&self, i: usize) -> Option<&'a [Seat]> {
        if i < self.len() {
            self.groups.get(self.start + i)
        } else {
            None
        }
    }

    pub fn first(&self) -> Option<&'a [Seat]> {
        self.get(0)
    }

    /// The groups, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &'a [Seat]> + 'a {
        let groups = self.groups;
        (self.start..self.end).filter_map(move |i| groups.get(i))
    }

    /// The groups as lists (for comparisons and tests).
    pub fn to_vecs(&self) -> Vec<Vec<Seat>> {
        self.iter().map(<[Seat]>::to_vec).collect()
    }
}

impl PartialEq for GroupRange<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for GroupRange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for GroupRange<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for g in self.iter() {
            seq.serialize_element(g)?;
        }
        seq.end()
    }
}

impl PartialEq for Groups {
    fn eq(&self, other: &Self) -> bool {
        self.seats == other.seats && self.ends == other.ends
    }
}
impl Eq for Groups {}

impl fmt::Debug for Groups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Groups {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for g in self.iter() {
            seq.serialize_element(g)?;
        }
        seq.end()
    }
}

struct GroupsVisitor;

impl<'de> Visitor<'de> for GroupsVisitor {
    type Value = Groups;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list of groups of at most {MAX_RUNNERS} seats in all")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Groups, A::Error> {
        let mut out = Groups::new();
        while let Some(g) = seq.next_element::<Group>()? {
            // An empty group never occurs; keeping it would change the encoding.
            if g.is_empty() || !out.push(&g) {
                return Err(de::Error::invalid_value(
                    de::Unexpected::Seq,
                    &"non-empty groups of at most 12 seats in all",
                ));
            }
        }
        Ok(out)
    }
}

impl<'de> Deserialize<'de> for Groups {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(GroupsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_lists_encode_as_vecs() {
        let v = vec![Seat(3), Seat(1)];
        let s = Group::from_slice(&v);
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            serde_json::to_string(&v).unwrap()
        );
        let back: Group = serde_json::from_str("[3,1]").unwrap();
        assert_eq!(&*back, &v[..]);
        assert!(serde_json::from_str::<Small<u8, 2>>("[1,2,3]").is_err());
    }

    #[test]
    fn groups_encode_as_lists_of_lists() {
        let v = vec![vec![Seat(2)], vec![Seat(0), Seat(1)]];
        let g: Groups = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(g.to_vecs(), v);
        assert_eq!(g.get(1), Some(&[Seat(0), Seat(1)][..]));
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            serde_json::to_string(&v).unwrap()
        );
        let empty: Groups = serde_json::from_str("[]").unwrap();
        assert!(empty.is_empty());
        assert!(serde_json::from_str::<Groups>("[[0],[]]").is_err());
        let thirteen: Vec<Vec<u8>> = (0..13).map(|i| vec![i]).collect();
        let text = serde_json::to_string(&thirteen).unwrap();
        assert!(serde_json::from_str::<Groups>(&text).is_err());
    }
}
