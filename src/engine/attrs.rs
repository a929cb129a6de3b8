//! The attributes of one object: a hash index over an array kept in the order the values
//! were set.
//!
//! Lookup is one hash probe, whatever the number of attributes (MPICH walks a list). The
//! array gives copy order (oldest first) and delete order (newest first) without sorting.
//! Removing leaves a hole that a later compaction closes; replacing a value removes it and
//! appends the new one, because a replaced value counts as newly set.

use super::keyval::Keyval;
use super::value::Stored;

/// One attribute.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) keyval: Keyval,
    /// Its delete callback is running; the deletion under way decides its fate.
    pub(crate) deleting: bool,
    pub(crate) value: Stored,
}

#[derive(Default, Debug)]
pub(crate) struct AttrSet {
    /// Entries in the order they were set; `None` is a hole left by a removal.
    entries: Vec<Option<Entry>>,
    /// Open addressing with linear probing: 0 is empty, else an index into `entries` plus 1.
    index: Vec<u32>,
    live: usize,
}

const EMPTY: u32 = 0;

fn hash(keyval: Keyval, mask: usize) -> usize {
    // Keyval numbers are consecutive integers: a multiplicative hash spreads them well.
    ((keyval.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

impl AttrSet {
    pub(crate) fn len(&self) -> usize {
        self.live
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The index slot holding `keyval`, or the empty slot where it would go.
    fn probe(&self, keyval: Keyval) -> (usize, bool) {
        let mask = self.index.len() - 1;
        let mut slot = hash(keyval, mask);
        loop {
            let at = self.index[slot];
            if at == EMPTY {
                return (slot, false);
            }
            let entry = self.entries[(at - 1) as usize]
                .as_ref()
                .expect("the index only points at live entries");
            if entry.keyval == keyval {
                return (slot, true);
            }
            slot = (slot + 1) & mask;
        }
    }

    pub(crate) fn get(&self, keyval: Keyval) -> Option<&Entry> {
        if self.live == 0 {
            return None;
        }
        let (slot, found) = self.probe(keyval);
        found.then(|| {
            self.entries[(self.index[slot] - 1) as usize]
                .as_ref()
                .expect("the index only points at live entries")
        })
    }

    pub(crate) fn get_mut(&mut self, keyval: Keyval) -> Option<&mut Entry> {
        if self.live == 0 {
            return None;
        }
        let (slot, found) = self.probe(keyval);
        if !found {
            return None;
        }
        let at = (self.index[slot] - 1) as usize;
        self.entries[at].as_mut()
    }

    /// Appends a value for a keyval that has none on this object.
    pub(crate) fn push(&mut self, keyval: Keyval, value: Stored) {
        if (self.live + 1) * 2 > self.index.len() {
            self.grow_index();
        }
        if self.entries.len() >= u32::MAX as usize - 1 {
            self.compact();
        }
        let (slot, found) = self.probe(keyval);
        debug_assert!(!found, "push of a keyval already present");
        self.entries.push(Some(Entry {
            keyval,
            deleting: false,
            value,
        }));
        self.index[slot] = self.entries.len() as u32;
        self.live += 1;
    }

    /// Removes and returns the entry for `keyval`.
    pub(crate) fn remove(&mut self, keyval: Keyval) -> Option<Entry> {
        if self.live == 0 {
            return None;
        }
        let (mut slot, found) = self.probe(keyval);
        if !found {
            return None;
        }
        let at = (self.index[slot] - 1) as usize;
        let entry = self.entries[at].take();
        self.live -= 1;
        // Backward-shift deletion keeps every probe sequence unbroken without tombstones.
        let mask = self.index.len() - 1;
        let mut next = (slot + 1) & mask;
        while self.index[next] != EMPTY {
            let moved = self.index[next];
            let home = hash(
                self.entries[(moved - 1) as usize]
                    .as_ref()
                    .expect("the index only points at live entries")
                    .keyval,
                mask,
            );
            // Move `moved` back into `slot` unless its home lies cyclically in (slot, next].
            let stays = if slot <= next {
                slot < home && home <= next
            } else {
                slot < home || home <= next
            };
            if !stays {
                self.index[slot] = moved;
                slot = next;
            }
            next = (next + 1) & mask;
        }
        self.index[slot] = EMPTY;
        let holes = self.entries.len() - self.live;
        if self.live == 0 {
            self.entries.clear();
        } else if holes > 16 && holes > self.live {
            self.compact();
        }
        entry
    }

    /// Keyvals in the order their values were set, oldest first.
    pub(crate) fn keyvals_oldest_first(&self) -> Vec<Keyval> {
        self.entries.iter().flatten().map(|e| e.keyval).collect()
    }

    /// Keyvals newest first: the order in which an object's attributes are deleted.
    pub(crate) fn keyvals_newest_first(&self) -> Vec<Keyval> {
        self.entries
            .iter()
            .rev()
            .flatten()
            .map(|e| e.keyval)
            .collect()
    }

    /// Entries in set order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().flatten()
    }

    fn grow_index(&mut self) {
        let size = (self.index.len() * 2).max(8);
        self.rebuild_index(size);
    }

    fn compact(&mut self) {
        self.entries.retain(Option::is_some);
        let size = self.index.len();
        self.rebuild_index(size);
    }

    fn rebuild_index(&mut self, size: usize) {
        self.index.clear();
        self.index.resize(size, EMPTY);
        let mask = size - 1;
        for (at, entry) in self.entries.iter().enumerate() {
            if let Some(entry) = entry {
                let mut slot = hash(entry.keyval, mask);
                while self.index[slot] != EMPTY {
                    slot = (slot + 1) & mask;
                }
                self.index[slot] = at as u32 + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::value::Language;

    fn c(word: isize) -> Stored {
        Stored::new(Language::C, word)
    }

    fn value(set: &AttrSet, k: i32) -> Option<isize> {
        set.get(Keyval(k)).map(|e| e.value.view(Language::C))
    }

    #[test]
    fn push_get_remove_keep_order() {
        let mut set = AttrSet::default();
        for k in 1..=100 {
            set.push(Keyval(k), c(k as isize * 10));
        }
        assert_eq!(set.len(), 100);
        for k in 1..=100 {
            assert_eq!(value(&set, k), Some(k as isize * 10));
        }
        for k in (1..=100).step_by(3) {
            assert!(set.remove(Keyval(k)).is_some());
        }
        assert!(set.remove(Keyval(1)).is_none());
        for k in 1..=100 {
            let expect = (k % 3 != 1).then_some(k as isize * 10);
            assert_eq!(value(&set, k), expect, "keyval {k}");
        }
        let order = set.keyvals_oldest_first();
        assert!(order.windows(2).all(|w| w[0].0 < w[1].0));
        let mut reversed = set.keyvals_newest_first();
        reversed.reverse();
        assert_eq!(order, reversed);
    }

    #[test]
    fn replace_moves_to_the_end() {
        let mut set = AttrSet::default();
        for k in 1..=3 {
            set.push(Keyval(k), c(k as isize));
        }
        set.remove(Keyval(1));
        set.push(Keyval(1), c(11));
        assert_eq!(
            set.keyvals_newest_first(),
            vec![Keyval(1), Keyval(3), Keyval(2)]
        );
    }

    #[test]
    fn heavy_churn_matches_a_simple_model() {
        let mut set = AttrSet::default();
        let mut model: Vec<(i32, isize)> = Vec::new();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for step in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % 300) as i32 + 1;
            if let Some(pos) = model.iter().position(|(mk, _)| *mk == k) {
                model.remove(pos);
                assert!(set.remove(Keyval(k)).is_some());
                if x % 2 == 0 {
                    set.push(Keyval(k), c(step));
                    model.push((k, step));
                }
            } else {
                set.push(Keyval(k), c(step));
                model.push((k, step));
            }
            assert_eq!(set.len(), model.len());
        }
        let order: Vec<i32> = set.keyvals_oldest_first().iter().map(|k| k.0).collect();
        let expect: Vec<i32> = model.iter().map(|(k, _)| *k).collect();
        assert_eq!(order, expect);
        for (k, v) in model {
            assert_eq!(value(&set, k), Some(v));
        }
    }
}
