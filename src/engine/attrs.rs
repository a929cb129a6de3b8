//! The attributes of one object, in one allocation of 16-byte entries.
//!
//! Up to [`SMALL`] entries are found by a linear scan; beyond that the same slice is an
//! open-addressing hash table (linear probing, at most 4/5 full, grown by half). A get is one
//! probe whatever the number of attributes (MPICH walks a list), an object that never had
//! attributes has no allocation (one whose last value went keeps a small slice, at most
//! [`SMALL`] entries, for the next), and no size needs more than 32 bytes of heap per
//! attribute.
//!
//! The order in which values were set (copies go oldest first, deletes newest first) is a
//! sequence number in each entry: a replaced value takes the next number, in place. Callers
//! that need the order sort by it ([`AttrSet::keyvals_by_age`]); bulk copies and frees
//! without user callbacks need no order at all.

use super::keyval::Keyval;
use super::value::Language;

/// Sets up to this size are scanned, not hashed.
const SMALL: usize = 8;
/// Entry metadata: bits 0-1 the tag, bit 2 "delete callback running", bits 3-4 what a copy
/// does ([`Copying`]), bit 5 "has a delete callback", bit 6 "a C reader has a cell of this
/// Fortran value", bit 7 "its keyval was freed" (no value can be set with it any more),
/// bits 8.. the sequence. What copies and deletes do is the keyval's and
/// never changes: keeping it here lets bulk copies and frees run without looking keyvals up.
const TAG_BITS: u32 = 0b11;
const DELETING: u32 = 0b100;
const COPY_SHIFT: u32 = 3;
const COPY_BITS: u32 = 0b11 << COPY_SHIFT;
const DELETE_CALLBACK: u32 = 0b10_0000;
const ACTION_BITS: u32 = COPY_BITS | DELETE_CALLBACK;
/// The action bits saying a user callback runs: a copy callback's, a delete callback's.
const CALLBACK_BITS: u32 = (Copying::Callback as u32) << COPY_SHIFT | DELETE_CALLBACK;
const CELL: u32 = 0b100_0000;
const KEYVAL_FREED: u32 = 0b1000_0000;
const SEQ_SHIFT: u32 = 8;
/// Sequence numbers stay below this; reaching it renumbers the set.
const SEQ_LIMIT: u32 = 1 << (32 - SEQ_SHIFT);

/// What duplicating the object does to an attribute (its keyval's copy action).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Copying {
    /// MPI_*_NULL_COPY_FN: the copy lacks it.
    Drop = 0,
    /// MPI_*_DUP_FN: the copy has the same word and tag.
    Duplicate = 1,
    /// A user callback decides.
    Callback = 2,
}

/// What a keyval's values do on copy and delete, as its entries keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Actions {
    pub(crate) copy: Copying,
    pub(crate) delete_callback: bool,
}

impl Actions {
    fn bits(self) -> u32 {
        (self.copy as u32) << COPY_SHIFT
            | if self.delete_callback {
                DELETE_CALLBACK
            } else {
                0
            }
    }
}

/// One attribute: its keyval, its tag, state, actions and age, and its word (a C pointer, or
/// the index of a Fortran value's cell). A keyval of 0 (MPI_KEYVAL_INVALID) marks an empty
/// slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) keyval: Keyval,
    meta: u32,
    pub(crate) word: usize,
}

impl Entry {
    pub(crate) fn tag(&self) -> Language {
        Language::from_bits(self.meta & TAG_BITS)
    }

    /// Its delete callback is running; the deletion under way decides its fate.
    pub(crate) fn deleting(&self) -> bool {
        self.meta & DELETING != 0
    }

    pub(crate) fn set_deleting(&mut self, deleting: bool) {
        if deleting {
            self.meta |= DELETING;
        } else {
            self.meta &= !DELETING;
        }
    }

    /// Whether a C reader was given a cell of this Fortran value ([`super::value::Cells`]).
    pub(crate) fn has_cell(&self) -> bool {
        self.meta & CELL != 0
    }

    pub(crate) fn set_cell(&mut self, cell: bool) {
        if cell {
            self.meta |= CELL;
        } else {
            self.meta &= !CELL;
        }
    }

    /// Whether its keyval was freed (it lives on for its values, and takes no new one).
    #[inline(always)]
    pub(crate) fn keyval_freed(&self) -> bool {
        self.meta & KEYVAL_FREED != 0
    }

    /// What a copy of the object does with it.
    pub(crate) fn copying(&self) -> Copying {
        match (self.meta & COPY_BITS) >> COPY_SHIFT {
            0 => Copying::Drop,
            1 => Copying::Duplicate,
            _ => Copying::Callback,
        }
    }

    /// Whether deleting it takes the entry away and nothing else: no delete callback, none
    /// running, no C reader's cell.
    #[inline(always)]
    pub(crate) fn deletes_quietly(&self) -> bool {
        self.meta & (DELETE_CALLBACK | DELETING | CELL) == 0
    }

    /// Whether deleting it runs a callback.
    pub(crate) fn has_delete_callback(&self) -> bool {
        self.meta & DELETE_CALLBACK != 0
    }

    /// Whether a copy or a delete of it runs a user callback.
    #[cfg(test)]
    fn has_callback(&self) -> bool {
        self.meta & CALLBACK_BITS != 0
    }

    fn seq(&self) -> u32 {
        self.meta >> SEQ_SHIFT
    }

    fn is_empty(&self) -> bool {
        self.keyval.0 == 0
    }
}

/// Spare slices for small sets (capacities 1, 2, 4, 8), kept for reuse so that giving an
/// object its first attributes, copying or freeing one with few does not go to the allocator
/// each time. At most [`SPARE_PER_SIZE`] of each: a few kilobytes at most.
#[derive(Debug, Default)]
pub(crate) struct Spare {
    slices: [Vec<Box<[Entry]>>; 4],
}

const SPARE_PER_SIZE: usize = 64;

impl Spare {
    fn class(capacity: usize) -> Option<usize> {
        match capacity {
            1 => Some(0),
            2 => Some(1),
            4 => Some(2),
            8 => Some(3),
            _ => None,
        }
    }

    /// A slice of `capacity` slots, with whatever they held (see [`Spare::take_empty`]).
    #[inline(always)]
    fn take(&mut self, capacity: usize) -> Box<[Entry]> {
        Self::class(capacity)
            .and_then(|class| self.slices[class].pop())
            .unwrap_or_else(|| vec![Entry::default(); capacity].into_boxed_slice())
    }

    /// An all-empty slice of `capacity` slots.
    #[inline]
    fn take_empty(&mut self, capacity: usize) -> Box<[Entry]> {
        let mut slice = self.take(capacity);
        slice.fill(Entry::default());
        slice
    }

    /// Keeps a slice for reuse, or lets it go.
    #[inline(always)]
    fn give(&mut self, slice: Box<[Entry]>) {
        if let Some(class) = Self::class(slice.len()) {
            if self.slices[class].len() < SPARE_PER_SIZE {
                self.slices[class].push(slice);
            }
        }
    }
}

/// The attributes of one object.
#[derive(Debug, Default)]
pub(crate) struct AttrSet {
    /// Capacity = length: at most SMALL slots scanned, holding the entries in the first
    /// `len` (an insert takes slot `len`, a removal moves the last entry into the hole), or
    /// a hash table.
    slots: Box<[Entry]>,
    len: u32,
    next_seq: u32,
    /// The callback bits of every entry set since the set was last empty: without any, a
    /// copy or free of the object knows without a pass over the slots that no callback is
    /// due. (Kept, not counted: a removal leaves them, an emptied set clears them.)
    callbacks: u32,
}

fn home(keyval: Keyval, capacity: usize) -> usize {
    // Keyval numbers differ in their low bits: a multiplicative hash spreads them, and the
    // high half of the product picks the slot without a division.
    let hash = (keyval.0 as u32).wrapping_mul(0x9E37_79B1);
    ((u64::from(hash) * capacity as u64) >> 32) as usize
}

impl AttrSet {
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the set has no storage (no attribute was ever set, or its slice went back to
    /// the spares): then it holds no entry and there is nothing to release or recycle.
    #[inline(always)]
    pub(crate) fn holds_nothing(&self) -> bool {
        self.slots.is_empty()
    }

    fn hashed(&self) -> bool {
        self.slots.len() > SMALL
    }

    /// The slot holding `keyval`.
    #[inline(always)]
    fn find(&self, keyval: Keyval) -> Option<usize> {
        if keyval.0 == 0 {
            return None; // MPI_KEYVAL_INVALID: never stored, and it marks empty slots
        }
        if !self.hashed() {
            return self.slots.iter().position(|e| e.keyval == keyval);
        }
        let capacity = self.slots.len();
        let mut slot = home(keyval, capacity);
        // `get` rather than indexing: the slot is always in range, and no panic path means
        // no unwinding code around the callers' fast paths. The home slot is looked at
        // before the loop: most keyvals are found there, then without the loop's jumps.
        let mut entry = self.slots.get(slot)?;
        if entry.keyval == keyval {
            return Some(slot);
        }
        super::cold_path();
        // A table is never full (at most 4/5), so the probe meets an empty slot.
        while !entry.is_empty() {
            slot += 1;
            if slot == capacity {
                slot = 0;
            }
            entry = self.slots.get(slot)?;
            if entry.keyval == keyval {
                return Some(slot);
            }
        }
        None
    }

    /// Always inlined: the gets' fast paths must make no call.
    ///
    /// Laid out for the cases docs/performance.md measures: each jump the processor takes
    /// costs about a cycle on a path of a few dozen instructions, so an object with one
    /// attribute finds it without one and an unset keyval is one jump away; the probe of a
    /// hashed set goes after the rest ([`AttrSet::get_probing_in_line`] keeps it in line).
    #[inline(always)]
    pub(crate) fn get(&self, keyval: Keyval) -> Option<&Entry> {
        if self.len == 0 {
            return None;
        }
        if self.hashed() {
            super::cold_path();
            return self.probe(keyval);
        }
        self.get_small(keyval)
    }

    /// [`AttrSet::get`] with the probe of a hashed set in line: the layout of the threaded
    /// get (16 attributes in its benchmark), which measured faster so.
    #[inline(always)]
    pub(crate) fn get_probing_in_line(&self, keyval: Keyval) -> Option<&Entry> {
        if self.len == 0 {
            return None;
        }
        if self.hashed() {
            return self.probe(keyval);
        }
        self.get_small(keyval)
    }

    #[inline(always)]
    fn probe(&self, keyval: Keyval) -> Option<&Entry> {
        self.slots.get(self.find(keyval)?)
    }

    /// [`AttrSet::get`] of a small set that is not empty.
    #[inline(always)]
    fn get_small(&self, keyval: Keyval) -> Option<&Entry> {
        // The first slot holds an entry (the set is not empty, and a small set keeps its
        // entries first), so its key is never the empty slots' 0: an object with one
        // attribute finds it in one comparison.
        let (first, rest) = self.slots.split_first()?;
        if first.keyval == keyval {
            return Some(first);
        }
        super::cold_path();
        if keyval.0 == 0 {
            return None; // MPI_KEYVAL_INVALID: never stored, and it marks empty slots
        }
        rest.iter().find(|e| e.keyval == keyval)
    }

    pub(crate) fn get_mut(&mut self, keyval: Keyval) -> Option<&mut Entry> {
        if self.len == 0 {
            return None;
        }
        let slot = self.find(keyval)?;
        self.slots.get_mut(slot)
    }

    /// The next sequence number: this value is the newest.
    #[inline(always)]
    fn take_seq(&mut self) -> u32 {
        if self.next_seq == SEQ_LIMIT {
            self.renumber();
        }
        self.next_seq += 1;
        self.next_seq - 1
    }

    /// Numbers the entries 0.. in their order (after 2^24 sets on one object).
    #[cold]
    fn renumber(&mut self) {
        let order = self.keyvals_by_age();
        for (seq, keyval) in order.iter().enumerate() {
            let entry = self.get_mut(*keyval).expect("listed");
            entry.meta = (entry.meta & !(u32::MAX << SEQ_SHIFT)) | ((seq as u32) << SEQ_SHIFT);
        }
        self.next_seq = order.len() as u32;
    }

    /// Adds a value for a keyval the object has no value for; it is the newest.
    #[inline(always)]
    pub(crate) fn insert(
        &mut self,
        keyval: Keyval,
        actions: Actions,
        tag: Language,
        word: usize,
        spare: &mut Spare,
    ) {
        debug_assert!(
            self.get(keyval).is_none(),
            "insert of a keyval already present"
        );
        // A small set with room (one emptied by deletes, most often): the slot after its
        // entries. Everything else (growth, a renumbering) out of line, so that callers' fast
        // paths need no registers saved for a call.
        if self.next_seq != SEQ_LIMIT && !self.hashed() {
            if let Some(slot) = self.slots.get_mut(self.len as usize) {
                *slot = Entry {
                    keyval,
                    meta: tag.bits() | actions.bits() | (self.next_seq << SEQ_SHIFT),
                    word,
                };
                self.callbacks |= slot.meta & CALLBACK_BITS;
                self.next_seq += 1;
                self.len += 1;
                return;
            }
        }
        self.insert_growing(keyval, actions, tag, word, spare);
    }

    /// [`AttrSet::insert`] into a set without room, or a hashed one.
    #[inline(never)]
    fn insert_growing(
        &mut self,
        keyval: Keyval,
        actions: Actions,
        tag: Language,
        word: usize,
        spare: &mut Spare,
    ) {
        let seq = self.take_seq();
        let entry = Entry {
            keyval,
            meta: tag.bits() | actions.bits() | (seq << SEQ_SHIFT),
            word,
        };
        if self.slots.is_empty() {
            // The first value: a one-slot slice, whatever a spare one held, overwritten.
            let mut slots = spare.take(1);
            if let Some(slot) = slots.first_mut() {
                *slot = entry;
            }
            self.slots = slots;
            self.len = 1;
            self.callbacks = entry.meta & CALLBACK_BITS;
            return;
        }
        let needed = self.len as usize + 1;
        let fits = if self.hashed() {
            needed * 5 <= self.slots.len() * 4
        } else {
            needed <= self.slots.len()
        };
        if !fits {
            let capacity = if needed <= SMALL {
                needed.next_power_of_two()
            } else {
                (needed * 9 / 5 + 1).max(self.slots.len() * 3 / 2)
            };
            self.resize(capacity, spare);
        }
        self.place(entry);
        self.len += 1;
        self.callbacks |= entry.meta & CALLBACK_BITS;
    }

    /// Puts an entry into a free slot (there is one).
    fn place(&mut self, entry: Entry) {
        let capacity = self.slots.len();
        let mut slot = if self.hashed() {
            home(entry.keyval, capacity)
        } else {
            0
        };
        while !self.slots[slot].is_empty() {
            slot += 1;
            if slot == capacity {
                slot = 0;
            }
        }
        self.slots[slot] = entry;
    }

    fn resize(&mut self, capacity: usize, spare: &mut Spare) {
        let old = std::mem::replace(&mut self.slots, spare.take_empty(capacity));
        for entry in old.iter().filter(|e| !e.is_empty()) {
            self.place(*entry);
        }
        spare.give(old);
    }

    /// A copy of the set, in a slice from `spare` when it has one, each present entry as
    /// `adjust` leaves it. One pass of entry-by-entry copies (which the compiler cannot turn
    /// into a call of memcpy, as it does a copy of the slice, even of a fixed size).
    #[inline(always)]
    pub(crate) fn duplicate(
        &self,
        spare: &mut Spare,
        mut adjust: impl FnMut(&mut Entry),
    ) -> AttrSet {
        if self.len == 0 {
            return AttrSet::default();
        }
        let mut slots = spare.take(self.slots.len());
        for (to, from) in slots.iter_mut().zip(self.slots.iter()) {
            let mut entry = *from;
            if !entry.is_empty() {
                adjust(&mut entry);
            }
            *to = entry;
        }
        AttrSet {
            slots,
            len: self.len,
            next_seq: self.next_seq,
            callbacks: self.callbacks,
        }
    }

    /// Gives the set's slice to `spare`; the set is then empty.
    #[inline(always)]
    pub(crate) fn recycle(&mut self, spare: &mut Spare) {
        if self.slots.is_empty() {
            return;
        }
        spare.give(std::mem::take(&mut self.slots));
        self.len = 0;
        self.callbacks = 0;
        self.next_seq = 0;
    }

    /// Replaces the value of a present keyval in place; the new value is the newest. Returns
    /// the entry replaced.
    pub(crate) fn replace(&mut self, keyval: Keyval, tag: Language, word: usize) -> Entry {
        let slot = self.slot_of(keyval).expect("replace of a present keyval");
        let old = self.at(slot);
        self.replace_at(slot, tag, word);
        old
    }

    /// The slot holding `keyval`, for [`AttrSet::replace_at`].
    #[inline(always)]
    pub(crate) fn slot_of(&self, keyval: Keyval) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        if self.hashed() {
            super::cold_path();
            return self.find(keyval);
        }
        // Laid out as [`AttrSet::get_small`]: an object with one attribute finds it in one
        // comparison and without a taken jump (the first slot holds an entry, never the
        // empty slots' key).
        if self.slots.first()?.keyval == keyval {
            return Some(0);
        }
        super::cold_path();
        self.find(keyval)
    }

    /// The entry for `keyval` if it is the first of a small set.
    #[inline(always)]
    pub(crate) fn first_small(&self, keyval: Keyval) -> Option<Entry> {
        if self.hashed() {
            return None;
        }
        self.slots
            .first()
            .copied()
            .filter(|e| e.keyval == keyval && self.len != 0)
    }

    /// The slot holding `keyval` if it is its home slot in a hashed set (where most keyvals
    /// are): found without the probe's loop.
    #[inline(always)]
    pub(crate) fn at_home(&self, keyval: Keyval) -> Option<usize> {
        if !self.hashed() || keyval.0 == 0 {
            return None;
        }
        let slot = home(keyval, self.slots.len());
        self.slots
            .get(slot)
            .filter(|e| e.keyval == keyval)
            .map(|_| slot)
    }

    /// Removes the entry in a small set's `slot`; `false` (and nothing done) if the set has
    /// no entry there. The last entry fills the hole (a small set's entries stay in its first
    /// `len` slots), copied field by field: moved as a whole through a temporary, it went
    /// through the stack and needed a frame. (`get`, not indexing: no panic path around the
    /// callers' fast paths.)
    #[inline(always)]
    pub(crate) fn remove_small(&mut self, slot: usize) -> bool {
        let last = (self.len as usize).wrapping_sub(1);
        match self.slots.get_mut(slot..=last) {
            Some([only]) => *only = Entry::default(),
            Some([hole, .., end]) => {
                *hole = *end;
                *end = Entry::default();
            }
            _ => return false,
        }
        self.len -= 1;
        if self.len == 0 {
            // A small slice stays, empty, for the next value (delete then set is common): at
            // most SMALL slots, as the object had.
            self.next_seq = 0;
            self.callbacks = 0;
        }
        true
    }

    /// The entry in a slot [`AttrSet::slot_of`] gave.
    #[inline(always)]
    pub(crate) fn at(&self, slot: usize) -> Entry {
        self.slots.get(slot).copied().unwrap_or_default()
    }

    /// Replaces the value in a slot [`AttrSet::slot_of`] gave; it becomes the newest. It
    /// returns nothing (the caller read the entry with [`AttrSet::at`] if it needs it), so
    /// that a fast path keeps no entry in memory.
    #[inline(always)]
    pub(crate) fn replace_at(&mut self, slot: usize, tag: Language, word: usize) {
        if self.next_seq == SEQ_LIMIT {
            return self.replace_renumbered(slot, tag, word);
        }
        let Some(entry) = self.slots.get_mut(slot) else {
            return;
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        entry.meta = tag.bits() | (entry.meta & (ACTION_BITS | KEYVAL_FREED)) | (seq << SEQ_SHIFT);
        entry.word = word;
    }

    /// [`AttrSet::replace_at`] when the sequence numbers ran out: renumbered first.
    #[cold]
    #[inline(never)]
    fn replace_renumbered(&mut self, slot: usize, tag: Language, word: usize) {
        self.renumber();
        self.replace_at(slot, tag, word)
    }

    /// Removes and returns the entry for `keyval`. The last one going gives the slice back.
    pub(crate) fn remove(&mut self, keyval: Keyval, spare: &mut Spare) -> Option<Entry> {
        let slot = self.slot_of(keyval)?;
        let entry = self.at(slot);
        self.remove_at(slot, spare, || ());
        Some(entry)
    }

    /// Removes the entry in a slot [`AttrSet::slot_of`] gave, then runs `then`. A hashed
    /// set's removal is out of line, and `then` with it: a caller keeps nothing across a call
    /// (its fast path then needs no registers saved).
    #[inline(always)]
    pub(crate) fn remove_at(&mut self, slot: usize, spare: &mut Spare, then: impl FnOnce()) {
        if self.hashed() {
            return self.remove_hashed(slot, spare, then);
        }
        if self.remove_small(slot) {
            then();
        }
    }

    /// [`AttrSet::remove_at`] in a hashed set.
    #[inline(never)]
    pub(crate) fn remove_hashed(&mut self, slot: usize, spare: &mut Spare, then: impl FnOnce()) {
        if self.take_hashed(slot, spare) {
            then();
        }
    }

    /// Empties a hashed set's slot and closes the gap; `false` if it held nothing.
    fn take_hashed(&mut self, mut slot: usize, spare: &mut Spare) -> bool {
        if !self.slots.get(slot).is_some_and(|e| !e.is_empty()) {
            return false;
        }
        self.slots[slot] = Entry::default();
        self.len -= 1;
        if self.len == 0 {
            self.recycle(spare);
            return true;
        }
        // Backward-shift deletion keeps every probe sequence unbroken without tombstones.
        // Wrapping by comparison, not `%`: a division costs tens of cycles.
        let capacity = self.slots.len();
        let wrap = |i: usize| if i + 1 == capacity { 0 } else { i + 1 };
        let mut next = wrap(slot);
        while !self.slots[next].is_empty() {
            let at = home(self.slots[next].keyval, capacity);
            // Move the entry back into `slot` unless its home lies cyclically in
            // (slot, next].
            let stays = if slot <= next {
                slot < at && at <= next
            } else {
                slot < at || at <= next
            };
            if !stays {
                self.slots[slot] = std::mem::take(&mut self.slots[next]);
                slot = next;
            }
            next = wrap(next);
        }
        true
    }

    /// Marks the entry for `keyval`, if there is one, as of a freed keyval.
    pub(crate) fn mark_keyval_freed(&mut self, keyval: Keyval) {
        if let Some(entry) = self.get_mut(keyval) {
            entry.meta |= KEYVAL_FREED;
        }
    }

    /// Whether any entry may have a copy or delete callback (`false`: none has; `true`: one
    /// has, or had since the set was last empty).
    #[inline(always)]
    pub(crate) fn may_have_callbacks(&self) -> bool {
        self.callbacks != 0
    }

    /// The entries, in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.slots.iter().filter(|e| !e.is_empty())
    }

    /// Keyvals in the order their values were set, oldest first.
    pub(crate) fn keyvals_by_age(&self) -> Vec<Keyval> {
        let mut entries: Vec<(u32, Keyval)> = self.iter().map(|e| (e.seq(), e.keyval)).collect();
        entries.sort_unstable();
        entries.into_iter().map(|(_, keyval)| keyval).collect()
    }

    /// Keeps the entries `keep` says stay (each is passed to it once) and removes the others.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Entry) -> bool, spare: &mut Spare) {
        let gone: Vec<Keyval> = self.iter().filter(|e| !keep(e)).map(|e| e.keyval).collect();
        for keyval in gone {
            self.remove(keyval, spare);
        }
    }

    /// Heap bytes held (for tests of the memory bound).
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Actions = Actions {
        copy: Copying::Duplicate,
        delete_callback: false,
    };

    /// `insert` and `remove` with a spare pool of their own.
    impl AttrSet {
        fn put(&mut self, keyval: Keyval, tag: Language, word: usize) {
            self.insert(keyval, PLAIN, tag, word, &mut Spare::default());
        }

        fn take(&mut self, keyval: Keyval) -> Option<Entry> {
            self.remove(keyval, &mut Spare::default())
        }
    }

    fn word(set: &AttrSet, k: i32) -> Option<usize> {
        set.get(Keyval(k)).map(|e| e.word)
    }

    #[test]
    fn insert_get_remove_keep_order() {
        let mut set = AttrSet::default();
        for k in 1..=100 {
            set.put(Keyval(k), Language::C, k as usize * 10);
        }
        assert_eq!(set.len(), 100);
        for k in 1..=100 {
            assert_eq!(word(&set, k), Some(k as usize * 10));
        }
        for k in (1..=100).step_by(3) {
            assert!(set.take(Keyval(k)).is_some());
        }
        assert!(set.take(Keyval(1)).is_none());
        for k in 1..=100 {
            let expect = (k % 3 != 1).then_some(k as usize * 10);
            assert_eq!(word(&set, k), expect, "keyval {k}");
        }
        let order = set.keyvals_by_age();
        assert!(order.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(order.len(), set.len());
    }

    #[test]
    fn replace_counts_as_newest() {
        let mut set = AttrSet::default();
        for k in 1..=3 {
            set.put(Keyval(k), Language::C, k as usize);
        }
        let old = set.replace(Keyval(1), Language::FortranAddress, 11);
        assert_eq!(old.word, 1);
        let entry = set.get(Keyval(1)).unwrap();
        assert_eq!(entry.tag(), Language::FortranAddress);
        assert_eq!(
            entry.copying(),
            Copying::Duplicate,
            "the keyval's actions stay"
        );
        assert!(!entry.has_delete_callback());
        assert_eq!(set.keyvals_by_age(), vec![Keyval(2), Keyval(3), Keyval(1)]);
    }

    #[test]
    fn the_last_removal_keeps_a_small_slice_and_frees_a_table() {
        let mut set = AttrSet::default();
        assert_eq!(set.heap_bytes(), 0);
        set.put(Keyval(7), Language::C, 1);
        assert_eq!(set.heap_bytes(), 16, "one attribute, one 16-byte entry");
        set.take(Keyval(7));
        assert_eq!(set.heap_bytes(), 16, "kept, empty, for the next value");
        assert_eq!(set.get(Keyval(7)), None);
        let mut spare = Spare::default();
        set.insert(Keyval(8), PLAIN, Language::C, 2, &mut spare);
        assert_eq!(set.heap_bytes(), 16, "the kept slot took it");
        assert_eq!(set.get(Keyval(8)).map(|e| e.word), Some(2));
        assert_eq!(set.keyvals_by_age(), vec![Keyval(8)]);
        // The object's free gives the slice back for the next object's first attribute.
        set.recycle(&mut spare);
        assert_eq!((set.heap_bytes(), spare.slices[0].len()), (0, 1));
        // A hashed set's last removal frees its table (to the allocator: not a small size).
        for k in 1..=20 {
            set.insert(Keyval(k), PLAIN, Language::C, 0, &mut spare);
        }
        assert!(set.hashed());
        for k in 1..=20 {
            assert!(set.remove(Keyval(k), &mut spare).is_some());
        }
        assert_eq!(set.heap_bytes(), 0);
    }

    #[test]
    fn both_gets_and_the_slot_lookup_find_every_entry_and_never_an_empty_slot() {
        // Small sets with empty slots after their entries (removals leave them), and a
        // hashed one: the first slot, the rest, the probe; MPI_KEYVAL_INVALID (0, the empty
        // slots' key) and an absent keyval find nothing.
        for (made, kept) in [(4, 0), (3, 1), (8, 2), (8, 7), (40, 25)] {
            let mut set = AttrSet::default();
            for k in 1..=made {
                set.put(Keyval(k), Language::C, k as usize * 10);
            }
            for k in kept + 1..=made {
                assert!(set.take(Keyval(k)).is_some());
            }
            assert!(
                set.slots.len() > set.len(),
                "{made}/{kept}: empty slots left"
            );
            for k in 0..=made + 1 {
                let expect = (1..=kept).contains(&k).then_some(k as usize * 10);
                let inline = set.get_probing_in_line(Keyval(k)).map(|e| e.word);
                let slot = set.slot_of(Keyval(k)).map(|slot| set.at(slot).word);
                assert_eq!(
                    (word(&set, k), inline, slot),
                    (expect, expect, expect),
                    "{made}/{kept}: {k}"
                );
            }
        }
    }

    #[test]
    fn at_most_32_heap_bytes_per_attribute_at_every_size() {
        let mut set = AttrSet::default();
        for n in 1..=5000 {
            set.put(Keyval(n), Language::C, 0);
            // Entries, plus the allocator's 16-byte header of the one allocation.
            let bytes = set.heap_bytes() + 16;
            assert!(bytes <= 32 * n as usize, "{bytes} bytes for {n} attributes");
        }
    }

    #[test]
    fn renumbering_keeps_the_order() {
        let mut set = AttrSet::default();
        for k in 1..=20 {
            set.put(Keyval(k), Language::C, 0);
        }
        set.next_seq = SEQ_LIMIT;
        set.replace(Keyval(5), Language::C, 1);
        let mut expect: Vec<Keyval> = (1..=20).filter(|k| *k != 5).map(Keyval).collect();
        expect.push(Keyval(5));
        assert_eq!(set.keyvals_by_age(), expect);
        assert_eq!(
            set.next_seq, 21,
            "renumbered 0..20, then the replace took 20"
        );
    }

    #[test]
    fn heavy_churn_matches_a_simple_model() {
        let mut set = AttrSet::default();
        let mut model: Vec<(i32, usize)> = Vec::new();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for step in 0..50_000usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % 300) as i32 + 1;
            match model.iter().position(|(mk, _)| *mk == k) {
                Some(pos) if x % 3 == 0 => {
                    model.remove(pos);
                    model.push((k, step));
                    set.replace(Keyval(k), Language::C, step);
                }
                Some(pos) => {
                    model.remove(pos);
                    assert!(set.take(Keyval(k)).is_some());
                }
                None => {
                    set.put(Keyval(k), Language::C, step);
                    model.push((k, step));
                }
            }
            assert_eq!(set.len(), model.len());
        }
        let order: Vec<i32> = set.keyvals_by_age().iter().map(|k| k.0).collect();
        let expect: Vec<i32> = model.iter().map(|(k, _)| *k).collect();
        assert_eq!(order, expect);
        for (k, v) in model {
            assert_eq!(word(&set, k), Some(v));
        }
    }

    /// The callback bits never miss an entry with a callback, through every insert, replace,
    /// remove, growth, shrink to nothing and copy, and clear when the set empties (keyval
    /// k's actions depend on k % 4, as a keyval's do).
    #[test]
    fn the_callback_bits_never_miss_an_entry() {
        let actions = |k: i32| match k % 4 {
            0 => PLAIN,
            1 => Actions {
                copy: Copying::Callback,
                delete_callback: false,
            },
            2 => Actions {
                copy: Copying::Drop,
                delete_callback: true,
            },
            _ => Actions {
                copy: Copying::Callback,
                delete_callback: true,
            },
        };
        let counted = |set: &AttrSet| set.iter().filter(|e| e.has_callback()).count() as u32;
        let mut spare = Spare::default();
        let mut set = AttrSet::default();
        // Each way in: the first value, a small set's free slot, a hashed set.
        set.insert(Keyval(1), actions(1), Language::C, 0, &mut spare);
        assert!(set.may_have_callbacks());
        set.remove(Keyval(1), &mut spare);
        for k in 1..=10 {
            set.insert(Keyval(4 * k), PLAIN, Language::C, 0, &mut spare);
            assert!(!set.may_have_callbacks());
        }
        set.insert(Keyval(2), actions(2), Language::C, 0, &mut spare);
        assert!(set.may_have_callbacks());
        for k in [2, 4, 8, 12, 16, 20, 24, 28, 32] {
            set.remove(Keyval(k), &mut spare);
        }
        set.insert(Keyval(3), actions(3), Language::C, 0, &mut spare);
        assert!(set.may_have_callbacks());
        for k in [3, 36, 40] {
            set.remove(Keyval(k), &mut spare);
        }
        assert!(!set.may_have_callbacks());
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for step in 0..40_000usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // A hashed set, then (emptied) a small one, and again.
            let range = if (step / 5000) % 2 == 0 { 40 } else { 3 };
            if step % 5000 == 0 {
                for k in 1..=40 {
                    if let Some(slot) = set.slot_of(Keyval(k)) {
                        set.remove_at(slot, &mut spare, || ());
                    }
                }
                assert_eq!((set.len(), set.callbacks), (0, 0));
            }
            let k = (x % range) as i32 + 1;
            match set.slot_of(Keyval(k)) {
                Some(slot) if x % 3 == 0 => set.replace_at(slot, Language::C, step),
                Some(slot) => {
                    let mut removed = false;
                    set.remove_at(slot, &mut spare, || removed = true);
                    assert!(removed && set.slot_of(Keyval(k)).is_none());
                }
                None => set.insert(Keyval(k), actions(k), Language::C, step, &mut spare),
            }
            assert!(
                set.may_have_callbacks() || counted(&set) == 0,
                "step {step}"
            );
            if !set.hashed() {
                let len = set.len();
                let filled = set.slots.iter().take_while(|e| !e.is_empty()).count();
                assert_eq!((filled, set.iter().count()), (len, len), "step {step}");
            }
            if set.len() == 0 {
                assert!(!set.may_have_callbacks(), "step {step}");
            }
            if step % 1000 == 0 {
                let copy = set.duplicate(&mut spare, |_| {});
                assert_eq!(copy.may_have_callbacks(), set.may_have_callbacks());
            }
        }
        set.recycle(&mut spare);
        assert!(!set.may_have_callbacks());
    }
}
