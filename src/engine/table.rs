//! Object tables: slots addressed by index, with a generation so that a freed handle is
//! recognised instead of reaching whatever object took its slot.

use std::collections::VecDeque;
use std::fmt;

use super::HandleProblem;

/// The identity of an object in its table: the object's index in the low 32 bits of one
/// word, its slot's generation in the high 32.
///
/// One word, so that every copy of an id, and of a result that holds one, moves it whole. As
/// two numbers, a callee stored an id as two halves and a caller copying its `Result<Id>`
/// loaded it as one word, which the processor cannot forward from the two stores: the load
/// waited for them to reach the cache (it made MPI_Type_dup a fifth slower,
/// docs/performance.md).
/// Aligned as the two numbers were (4 bytes), so that the records holding an id beside a
/// 4-byte field (an error handler's) stay as small as they were.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, packed(4))]
pub struct Id(u64);

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Id")
            .field("index", &self.index())
            .field("generation", &self.generation())
            .finish()
    }
}

/// The generation of the predefined objects' slots (they are never freed): no other object
/// has it, and no encoded handle carries it — a C handle of generation 0 and a small index is
/// below 0x1000, where only predefined values live, and a Fortran integer's generation code is
/// never 0 — so only their ABI values name them, at no cost to any lookup.
pub(crate) const PREDEFINED_GENERATION: u32 = 0;

/// Generations stay below this, so that a C handle can hold one in 28 bits.
pub(crate) const GENERATION_LIMIT: u32 = 1 << 28;

impl Id {
    /// An id from its parts (the C layer decodes handles into these).
    #[inline(always)]
    pub(crate) const fn from_parts(index: u32, generation: u32) -> Id {
        Id(index as u64 | (generation as u64) << 32)
    }

    /// The generation of the slot when the object was made.
    #[inline(always)]
    pub(crate) const fn generation(self) -> u32 {
        (self.0 >> 32) as u32
    }

    /// The position of the object in its table: small, and unique among live objects of a kind.
    #[inline(always)]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }
}

/// The generation after `generation`: below [`GENERATION_LIMIT`], never 0, and never with
/// its low 5 bits all 0, so that the low bits alone can stand for it where only a few fit
/// (Fortran integer handles) without ever being 0.
fn next_generation(generation: u32) -> u32 {
    let mut next = generation + 1;
    if next >= GENERATION_LIMIT {
        next = 1;
    }
    if next % 32 == 0 {
        next += 1;
    }
    next
}

/// The most objects of one kind alive at once: as many as a Fortran INTEGER handle can name
/// (its index field: 22 bits with 4-byte INTEGERs), or, with 8-byte INTEGERs, as many as a
/// table index can count (2^32 - 1). A C handle has room for 2^32 indices.
#[cfg(not(feature = "fortran-integer-8"))]
pub const MAX_LIVE_OBJECTS: usize = 1 << 22;
/// The most objects of one kind alive at once: with 8-byte INTEGERs, as many as a table index
/// can count.
#[cfg(feature = "fortran-integer-8")]
pub const MAX_LIVE_OBJECTS: usize = u32::MAX as usize;

/// A freed slot is only reused once this many others are free too, so a stale handle (or a
/// stale Fortran integer, which has no generation) rarely meets a new object.
const REUSE_DELAY: usize = 1024;

#[derive(Debug)]
struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

#[derive(Debug)]
pub(crate) struct Table<T> {
    slots: Vec<Slot<T>>,
    free: VecDeque<u32>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            free: VecDeque::new(),
        }
    }
}

impl<T> Table<T> {
    /// Places a predefined object in a new slot, with [`PREDEFINED_GENERATION`].
    pub(crate) fn insert_predefined(&mut self, value: T) -> Id {
        let index = self.slots.len() as u32;
        self.slots.push(Slot {
            generation: PREDEFINED_GENERATION,
            value: Some(value),
        });
        Id::from_parts(index, PREDEFINED_GENERATION)
    }

    /// Takes a predefined object out of its slot, leaving the slot empty with its generation
    /// (handles to it then name nothing) and not reusable: [`Table::restore_predefined`]
    /// puts it back.
    pub(crate) fn vacate_predefined(&mut self, id: Id) -> Option<T> {
        let slot = self.slots.get_mut(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        slot.value.take()
    }

    /// Puts back what [`Table::vacate_predefined`] took out.
    pub(crate) fn restore_predefined(&mut self, id: Id, value: T) {
        if let Some(slot) = self.slots.get_mut(id.index() as usize) {
            if slot.generation == id.generation() && slot.value.is_none() {
                slot.value = Some(value);
            }
        }
    }

    /// Whether [`Table::insert`] has a slot for one more object.
    pub(crate) fn has_room(&self) -> bool {
        self.slots.len() < MAX_LIVE_OBJECTS || !self.free.is_empty()
    }

    /// Places `value` in a slot: a new one while fewer than [`REUSE_DELAY`] are free, else
    /// the oldest free one (at [`MAX_LIVE_OBJECTS`] slots, any free one). `None` when all
    /// [`MAX_LIVE_OBJECTS`] slots hold objects.
    #[inline]
    pub(crate) fn insert(&mut self, value: T) -> Option<Id> {
        if self.free.len() > REUSE_DELAY || self.slots.len() >= MAX_LIVE_OBJECTS {
            let index = self.free.pop_front()?;
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            return Some(Id::from_parts(index, slot.generation));
        }
        let index = self.slots.len() as u32;
        self.slots.push(Slot {
            generation: 1,
            value: Some(value),
        });
        Some(Id::from_parts(index, 1))
    }

    /// Every value in the table, mutably.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|slot| slot.value.as_mut())
    }

    #[inline]
    pub(crate) fn get(&self, id: Id) -> Option<&T> {
        let slot = self.slots.get(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        slot.value.as_ref()
    }

    pub(crate) fn get_mut(&mut self, id: Id) -> Option<&mut T> {
        let slot = self.slots.get_mut(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        slot.value.as_mut()
    }

    /// [`Table::get_mut`], or why `id` names nothing.
    #[inline]
    pub(crate) fn get_mut_or_problem(&mut self, id: Id) -> Result<&mut T, HandleProblem> {
        match self.slots.get(id.index() as usize) {
            Some(slot) if slot.generation == id.generation() && slot.value.is_some() => {}
            _ => return Err(self.problem(id)),
        }
        Ok(self.slots[id.index() as usize]
            .value
            .as_mut()
            .expect("checked just above"))
    }

    /// [`Table::remove`] without handing the value back (it is dropped where it lies);
    /// whether `id` named an object.
    #[inline]
    pub(crate) fn discard(&mut self, id: Id) -> bool {
        let Some(slot) = self.slots.get_mut(id.index() as usize) else {
            return false;
        };
        if slot.generation != id.generation() || slot.value.is_none() {
            return false;
        }
        slot.value = None;
        slot.generation = next_generation(slot.generation);
        self.free.push_back(id.index());
        true
    }

    pub(crate) fn remove(&mut self, id: Id) -> Option<T> {
        let slot = self.slots.get_mut(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        let value = slot.value.take()?;
        slot.generation = next_generation(slot.generation);
        self.free.push_back(id.index());
        Some(value)
    }

    /// The live object at `index`, whatever its generation.
    #[inline(always)]
    pub(crate) fn id_at(&self, index: u32) -> Option<Id> {
        let slot = self.slots.get(index as usize)?;
        slot.value
            .as_ref()
            .map(|_| Id::from_parts(index, slot.generation))
    }

    /// Why `id` names nothing here: its slot was used by an object since freed, or it was
    /// never handed out (a slot not made yet, or a generation the slot has not reached).
    #[cold]
    pub(crate) fn problem(&self, id: Id) -> HandleProblem {
        match self.slots.get(id.index() as usize) {
            Some(slot)
                if id.generation() < slot.generation
                    || (id.generation() == slot.generation && slot.value.is_none()) =>
            {
                HandleProblem::Freed
            }
            _ => HandleProblem::Unknown,
        }
    }

    /// Whether an object ever lived at `index`.
    pub(crate) fn was_used(&self, index: u32) -> bool {
        (index as usize) < self.slots.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An object's slot (generation and data) stays at 128 bytes: a handle lookup finds it
    /// with a shift, not a multiply.
    #[test]
    fn an_object_slot_is_128_bytes() {
        assert_eq!(std::mem::size_of::<Slot<crate::engine::ObjectData>>(), 128);
    }

    #[test]
    fn stale_ids_are_refused() {
        let mut table = Table::default();
        let a = table.insert("a").unwrap();
        assert_eq!(table.get(a), Some(&"a"));
        assert_eq!(table.remove(a), Some("a"));
        assert_eq!(table.get(a), None);
        assert_eq!(table.remove(a), None);
        let mut ids = Vec::new();
        for _ in 0..REUSE_DELAY + 2 {
            let id = table.insert("x").unwrap();
            ids.push(id);
        }
        for id in ids {
            table.remove(id);
        }
        let reused = table.insert("b").unwrap();
        assert_eq!(
            reused.index(),
            a.index(),
            "the oldest free slot is reused first"
        );
        assert_ne!(reused.generation(), a.generation());
        assert_eq!(table.get(a), None);
        assert_eq!(table.get(reused), Some(&"b"));
        assert_eq!(table.id_at(a.index()), Some(reused));
    }

    #[test]
    fn generations_never_have_their_low_five_bits_zero() {
        let mut generation = 1;
        for _ in 0..100_000 {
            generation = next_generation(generation);
            assert!(generation % 32 != 0 && generation < GENERATION_LIMIT);
        }
        assert_eq!(next_generation(GENERATION_LIMIT - 1), 1);
        assert_eq!(next_generation(31), 33);
    }
}
