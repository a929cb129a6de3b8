//! Keyvals: numbers, callbacks, and the deferred free of attributes.md §4.

use std::fmt;
use std::sync::Arc;

use super::attrs::{Actions, Copying};
use super::error::{Error, Result};
use super::value::{Language, Word};
use super::{AnyObject, ObjectKind, Universe};

/// An attribute key. Its number is what C and Fortran programs hold; it is positive, never a
/// predefined keyval's number, and comes back only after 1,048,575 keyvals were freed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Keyval(pub i32);

impl Keyval {
    /// MPI_KEYVAL_INVALID.
    pub const INVALID: Keyval = Keyval(crate::abi::MPI_KEYVAL_INVALID as i32);
    /// MPI_TAG_UB.
    ///
    /// The predefined attributes are read with these keyvals like any other, and never set,
    /// deleted or freed. MPI_COMM_WORLD and its duplicates carry MPI_TAG_UB and the other
    /// communicator ones, stored as Fortran INTEGERs: C readers get a pointer to the value.
    ///
    /// ```
    /// use mpiattr::{Comm, Error, Keyval, Language, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let tag_ub = universe.get_attr(Comm::WORLD, Keyval::TAG_UB, Language::FortranInteger)?;
    /// assert_eq!(tag_ub, Some(2_147_483_647));
    /// let pointer = universe.get_attr(Comm::WORLD, Keyval::TAG_UB, Language::C)?.unwrap();
    /// // SAFETY: the C view of an INTEGER value points to it while the communicator lives.
    /// assert_eq!(unsafe { *(pointer as *const i32) }, 2_147_483_647);
    /// let copy = universe.comm_dup(Comm::WORLD)?;
    /// assert_eq!(universe.get_attr(copy, Keyval::TAG_UB, Language::FortranAddress)?, tag_ub);
    /// assert_eq!(universe.get_attr(Comm::SELF, Keyval::TAG_UB, Language::C)?, None);
    /// let refused = universe.set_attr(Comm::WORLD, Keyval::TAG_UB, Language::C, 1);
    /// assert_eq!(refused, Err(Error::PredefinedKeyval));
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub const TAG_UB: Keyval = Keyval(crate::abi::MPI_TAG_UB as i32);
    /// MPI_HOST.
    pub const HOST: Keyval = Keyval(crate::abi::MPI_HOST as i32);
    /// MPI_IO.
    pub const IO: Keyval = Keyval(crate::abi::MPI_IO as i32);
    /// MPI_WTIME_IS_GLOBAL.
    pub const WTIME_IS_GLOBAL: Keyval = Keyval(crate::abi::MPI_WTIME_IS_GLOBAL as i32);
    /// MPI_APPNUM.
    pub const APPNUM: Keyval = Keyval(crate::abi::MPI_APPNUM as i32);
    /// MPI_LASTUSEDCODE.
    pub const LASTUSEDCODE: Keyval = Keyval(crate::abi::MPI_LASTUSEDCODE as i32);
    /// MPI_UNIVERSE_SIZE.
    pub const UNIVERSE_SIZE: Keyval = Keyval(crate::abi::MPI_UNIVERSE_SIZE as i32);
    /// MPI_WIN_BASE.
    pub const WIN_BASE: Keyval = Keyval(crate::abi::MPI_WIN_BASE as i32);
    /// MPI_WIN_DISP_UNIT.
    pub const WIN_DISP_UNIT: Keyval = Keyval(crate::abi::MPI_WIN_DISP_UNIT as i32);
    /// MPI_WIN_SIZE.
    pub const WIN_SIZE: Keyval = Keyval(crate::abi::MPI_WIN_SIZE as i32);
    /// MPI_WIN_CREATE_FLAVOR.
    pub const WIN_CREATE_FLAVOR: Keyval = Keyval(crate::abi::MPI_WIN_CREATE_FLAVOR as i32);
    /// MPI_WIN_MODEL.
    pub const WIN_MODEL: Keyval = Keyval(crate::abi::MPI_WIN_MODEL as i32);

    /// Whether this is one of the predefined keyvals (MPI_TAG_UB, MPI_WIN_BASE, ...), whose
    /// values belong to the object: they are never deleted on their own, only with it.
    pub fn is_predefined(self) -> bool {
        self.0 > 0 && self.0 >> SLOT_BITS == 0
    }
}

/// A user copy callback, called when an object with a value for its keyval is duplicated.
///
/// `value` is the attribute as the keyval's [`Language`] reads it. Return `Ok(Some(word))` to
/// give the new object a value (stored as if set in that language), `Ok(None)` to leave the
/// new object without one, and `Err(code)` to make the duplication fail with `code`.
pub trait CopyCallback: Send + Sync {
    /// Called with no engine lock held: it may call anything on `universe`.
    fn copy(
        &self,
        universe: &Universe,
        object: AnyObject,
        keyval: Keyval,
        value: Word,
    ) -> std::result::Result<Option<Word>, i32>;
}

/// A user delete callback, called when a value for its keyval is deleted, replaced or freed
/// with its object. `Err(code)` keeps the value and makes the call fail with `code`.
pub trait DeleteCallback: Send + Sync {
    /// Called with no engine lock held: it may call anything on `universe`.
    fn delete(
        &self,
        universe: &Universe,
        object: AnyObject,
        keyval: Keyval,
        value: Word,
    ) -> std::result::Result<(), i32>;
}

impl<F> CopyCallback for F
where
    F: Fn(&Universe, AnyObject, Keyval, Word) -> std::result::Result<Option<Word>, i32>
        + Send
        + Sync,
{
    fn copy(
        &self,
        universe: &Universe,
        object: AnyObject,
        keyval: Keyval,
        value: Word,
    ) -> std::result::Result<Option<Word>, i32> {
        self(universe, object, keyval, value)
    }
}

impl<F> DeleteCallback for F
where
    F: Fn(&Universe, AnyObject, Keyval, Word) -> std::result::Result<(), i32> + Send + Sync,
{
    fn delete(
        &self,
        universe: &Universe,
        object: AnyObject,
        keyval: Keyval,
        value: Word,
    ) -> std::result::Result<(), i32> {
        self(universe, object, keyval, value)
    }
}

/// What happens to a value when its object is duplicated.
///
/// ```
/// use std::sync::Arc;
/// use mpiattr::{AnyObject, Comm, CopyAction, DeleteAction, Keyval, KeyvalSpec, Language};
/// use mpiattr::{ObjectKind, ThreadLevel, Universe, Word};
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let keyval = |copy| {
///     let kind = ObjectKind::Comm;
///     let delete = DeleteAction::Null;
///     universe.create_keyval(KeyvalSpec { kind, language: Language::C, copy, delete })
/// };
/// let dropped = keyval(CopyAction::Null)?;
/// let shared = keyval(CopyAction::Dup)?;
/// let doubled = keyval(CopyAction::Call(Arc::new(
///     |_: &Universe, _: AnyObject, _: Keyval, value: Word| Ok(Some(2 * value)),
/// )))?;
/// for k in [dropped, shared, doubled] {
///     universe.set_attr(Comm::WORLD, k, Language::C, 10)?;
/// }
/// let copy = universe.comm_dup(Comm::WORLD)?;
/// assert_eq!(universe.get_attr(copy, dropped, Language::C)?, None);
/// assert_eq!(universe.get_attr(copy, shared, Language::C)?, Some(10));
/// assert_eq!(universe.get_attr(copy, doubled, Language::C)?, Some(20));
/// # Ok::<(), mpiattr::Error>(())
/// ```
#[derive(Clone)]
pub enum CopyAction {
    /// `MPI_*_NULL_COPY_FN`: the new object gets no value.
    Null,
    /// `MPI_*_DUP_FN`: the new object gets the same word with the same tag.
    Dup,
    /// A user callback.
    Call(Arc<dyn CopyCallback>),
}

/// What runs when a value is deleted.
///
/// A delete callback that returns `Err(code)` keeps the value, and the call that deleted it
/// fails with [`Error::Callback`].
///
/// ```
/// use std::sync::Arc;
/// use mpiattr::{AnyObject, Comm, CopyAction, DeleteAction, Error, ErrorClass, Keyval};
/// use mpiattr::{KeyvalSpec, Language, ObjectKind, ThreadLevel, Universe, Word};
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let keyval = universe.create_keyval(KeyvalSpec {
///     kind: ObjectKind::Comm,
///     language: Language::C,
///     copy: CopyAction::Null,
///     // Refuses to delete odd values.
///     delete: DeleteAction::Call(Arc::new(
///         |_: &Universe, _: AnyObject, _: Keyval, value: Word| match value % 2 {
///             0 => Ok(()),
///             _ => Err(ErrorClass::Arg as i32),
///         },
///     )),
/// })?;
/// universe.set_attr(Comm::WORLD, keyval, Language::C, 3)?;
/// let error = universe.delete_attr(Comm::WORLD, keyval).unwrap_err();
/// assert_eq!(error, Error::Callback { kind: "delete", code: ErrorClass::Arg as i32 });
/// assert_eq!(error.class(), ErrorClass::Arg);
/// assert_eq!(universe.get_attr(Comm::WORLD, keyval, Language::C)?, Some(3));
/// # Ok::<(), mpiattr::Error>(())
/// ```
#[derive(Clone)]
pub enum DeleteAction {
    /// `MPI_*_NULL_DELETE_FN`: nothing.
    Null,
    /// A user callback.
    Call(Arc<dyn DeleteCallback>),
}

impl fmt::Debug for CopyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CopyAction::Null => "Null",
            CopyAction::Dup => "Dup",
            CopyAction::Call(_) => "Call",
        })
    }
}

impl fmt::Debug for DeleteAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeleteAction::Null => "Null",
            DeleteAction::Call(_) => "Call",
        })
    }
}

/// Everything a keyval is created with.
///
/// A keyval serves one kind of object; its language is the view its callbacks are shown.
///
/// ```
/// use mpiattr::{Comm, CopyAction, Datatype, DeleteAction, Error, KeyvalSpec, Language};
/// use mpiattr::{ObjectKind, ThreadLevel, Universe};
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let spec = KeyvalSpec {
///     kind: ObjectKind::Datatype,
///     language: Language::FortranAddress,
///     copy: CopyAction::Dup,
///     delete: DeleteAction::Null,
/// };
/// let keyval = universe.create_keyval(spec)?;
/// let byte: Datatype = Universe::predefined_datatype(0x247).unwrap(); // MPI_BYTE
/// universe.set_attr(byte, keyval, Language::FortranAddress, -1)?;
/// let wrong_kind = universe.get_attr(Comm::WORLD, keyval, Language::C);
/// let expected = ObjectKind::Comm;
/// assert_eq!(wrong_kind, Err(Error::WrongKindKeyval { found: ObjectKind::Datatype, expected }));
/// # Ok::<(), mpiattr::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct KeyvalSpec {
    /// The kind of object its values attach to.
    pub kind: ObjectKind,
    /// The calling convention of its callbacks, which is also the view they are shown and
    /// the tag a copy's result gets.
    pub language: Language,
    /// On duplication.
    pub copy: CopyAction,
    /// On deletion.
    pub delete: DeleteAction,
}

#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) spec: KeyvalSpec,
    pub(crate) predefined: bool,
    pub(crate) freed: bool,
}

impl Record {
    fn new(spec: KeyvalSpec, predefined: bool) -> Record {
        Record {
            spec,
            predefined,
            freed: false,
        }
    }

    /// What its values do on copy and delete, as their entries keep it.
    pub(crate) fn actions(&self) -> Actions {
        Actions {
            copy: match self.spec.copy {
                CopyAction::Null => Copying::Drop,
                CopyAction::Dup => Copying::Duplicate,
                CopyAction::Call(_) => Copying::Callback,
            },
            delete_callback: matches!(self.spec.delete, DeleteAction::Call(_)),
        }
    }
}

/// A user keyval's number is `generation << SLOT_BITS | slot`: the slot finds its record in
/// one step, and the generation (1 to 1023, advanced each time the slot is reused) tells a
/// stale number from the keyval that now has the slot. Every number is at least 2^21, far
/// above the predefined keyvals.
const SLOT_BITS: u32 = 21;
const SLOT_MASK: i32 = (1 << SLOT_BITS) - 1;
const GENERATIONS: u16 = 1 << (31 - SLOT_BITS);
/// At most this many keyvals live at once (2 097 152).
const SLOTS: usize = 1 << SLOT_BITS;
/// A freed slot is reused only once this many others are free too, oldest first: a number
/// comes back only after 1,048,575 keyvals have been freed (1,025 frees per reuse of its
/// slot, 1,023 generations).
const REUSE_DELAY: usize = 1024;

/// The bits of a slot's key that hold its number.
const NUMBER_BITS: u64 = u32::MAX as u64;
/// The bits of a slot's key that hold its keyval's kind ([`ObjectKind::code`]; 0 without a
/// keyval).
const KIND_SHIFT: u32 = 32;
/// The bit of a slot's key that says its keyval has no callback (copy and delete are the
/// predefined functions).
const PLAIN: u64 = 1 << 34;
/// The bit of a slot's key that says an attribute or an operation under way holds its keyval,
/// or held it: set by its first holder, cleared only when the keyval goes (its count in
/// [`Registry`]'s `users` says whether something holds it now). The fast free's one
/// comparison also says "never held": a keyval that was held goes the whole way, which asks
/// the count. Only a first holder changes it, so bulk copies of held keyvals touch the
/// counts alone, and a delete and a set of an object's only value that follow each other
/// store nothing to the key (clearing the bit on the delete made the pair at 1 attribute
/// 0.15 ns slower).
const HELD: u64 = 1 << 35;
/// The bit of a slot's key that says its keyval was freed and lives on for its holders (set
/// only while it is held; its slot's next keyval starts without it): deleting a value asks
/// "was that the freed keyval's last holder?" of the key it just unmarked.
const FREED: u64 = 1 << 36;
/// The bits of a slot's key that name its keyval (number and kind), callbacks or not.
const NAME_BITS: u64 = (HELD - 1) & !PLAIN;
/// Where a free slot's key holds the next free slot ([`FreeSlots`]): above every bit a
/// keyval's key has (a free slot's kind is 0, so no name matches it).
const NEXT_SHIFT: u32 = 40;

#[derive(Debug)]
struct Slot {
    /// The slot's number (its generation and index: the number of its keyval, or of the last
    /// one it had), its keyval's kind, whether the keyval is plain, held and freed: the
    /// number and kind a call names compare with it at once.
    key: u64,
    record: Option<Record>,
}

impl Slot {
    /// Slot `index`, never used: generation 0.
    fn new(index: usize) -> Slot {
        Slot {
            key: index as u64,
            record: None,
        }
    }

    fn generation(&self) -> u16 {
        (self.key as u32 >> SLOT_BITS) as u16
    }

    /// The key bits naming `keyval` of `kind`.
    #[inline(always)]
    fn name(keyval: Keyval, kind: ObjectKind) -> u64 {
        u64::from(keyval.0 as u32) | kind.code() << KIND_SHIFT
    }

    /// Whether the slot holds the live keyval `keyval` of `kind`.
    #[inline(always)]
    fn holds(&self, keyval: Keyval, kind: ObjectKind) -> bool {
        self.key & NAME_BITS == Self::name(keyval, kind)
    }

    /// Whether the slot holds the live keyval `keyval` of `kind`, one without callbacks that
    /// nothing ever held.
    #[inline(always)]
    fn holds_unheld_plain(&self, keyval: Keyval, kind: ObjectKind) -> bool {
        self.key == Self::name(keyval, kind) | PLAIN
    }

    /// Gives the slot its next keyval, with `record`; its number: the next generation's, from
    /// 1 up to below `limit` (a number bound), then 1 again. `key` is the slot's key, as the
    /// free list read it.
    #[inline(always)]
    fn take(&mut self, key: u64, limit: u32, record: Record) -> Keyval {
        let kind = record.spec.kind;
        let plain = !matches!(record.spec.copy, CopyAction::Call(_))
            && !matches!(record.spec.delete, DeleteAction::Call(_));
        let old = self.record.replace(record);
        // Slots in the free list have no record: a record here would be a bug, and forgetting
        // it (rather than dropping) only leaks; it skips the drop glue's call.
        debug_assert!(old.is_none(), "a slot taken holds no keyval");
        std::mem::forget(old);
        // The next generation is an addition to the number (which keeps the slot in its low
        // bits), and its limit a comparison with a bound.
        debug_assert_eq!(key, self.key);
        let mut number = (key as u32).wrapping_add(1 << SLOT_BITS);
        if number >= limit {
            number = (number & SLOT_MASK as u32) | 1 << SLOT_BITS;
        }
        self.key = u64::from(number) | kind.code() << KIND_SHIFT | if plain { PLAIN } else { 0 };
        Keyval(number as i32)
    }

    /// The slot's keyval goes (nothing holds it); its number stays for the next.
    #[inline(always)]
    fn vacate(&mut self) -> Option<Record> {
        self.key &= NUMBER_BITS;
        self.record.take()
    }
}

/// The free slots, oldest first: a list threaded through their keys (a free slot's key holds
/// the next free slot above its number, [`NEXT_SHIFT`]), so taking the oldest reads the slot
/// the new keyval gets anyway, and freeing writes to the newest free slot, with no array of
/// its own to index and check. A take moves only `first` and `taken`, a free only `last`
/// and `put`: no count that both write (one shared count measured the same).
#[derive(Debug)]
struct FreeSlots {
    /// The oldest free slot (any value while none is free).
    first: u32,
    /// The newest free slot, or [`NO_SLOT`] while none is free.
    last: u32,
    /// Wrapping counts of the slots taken off and put on: `put - taken` are free.
    taken: usize,
    put: usize,
}

/// No slot: [`FreeSlots`]' `last` while the list is empty (past every slot, so looking it up
/// finds nothing).
const NO_SLOT: u32 = u32::MAX;

impl Default for FreeSlots {
    fn default() -> FreeSlots {
        FreeSlots {
            first: 0,
            last: NO_SLOT,
            taken: 0,
            put: 0,
        }
    }
}

impl FreeSlots {
    #[inline(always)]
    fn len(&self) -> usize {
        self.put.wrapping_sub(self.taken)
    }

    /// The oldest free slot, taken off, and its key.
    fn pop_front(&mut self, slots: &[Slot]) -> Option<(u32, u64)> {
        if self.len() == 0 {
            return None;
        }
        let taken = self.pop_front_of_many(slots)?;
        if self.len() == 0 {
            self.last = NO_SLOT;
        }
        Some(taken)
    }

    /// [`FreeSlots::pop_front`] where the caller knows that others stay free (`last` stays).
    #[inline(always)]
    fn pop_front_of_many(&mut self, slots: &[Slot]) -> Option<(u32, u64)> {
        debug_assert!(self.len() > 0, "a slot to take");
        let first = self.first;
        let key = slots.get(first as usize)?.key;
        self.first = (key >> NEXT_SHIFT) as u32;
        self.taken = self.taken.wrapping_add(1);
        Some((first, key))
    }

    /// Adds `slot`, vacated (its key only its number), as the newest free slot.
    #[inline(always)]
    fn push_back(&mut self, slots: &mut [Slot], slot: u32) {
        debug_assert!(
            slots.get(slot as usize).map(|s| s.key) <= Some(NUMBER_BITS),
            "a vacated slot"
        );
        match slots.get_mut(self.last as usize) {
            Some(newest) => newest.key |= u64::from(slot) << NEXT_SHIFT,
            None => {
                super::cold_path();
                self.first = slot;
            }
        }
        self.last = slot;
        self.put = self.put.wrapping_add(1);
    }
}

#[derive(Debug)]
pub(crate) struct Registry {
    /// The first `used` have been handed out; the rest are made ahead (no record, no user,
    /// not freed), so that taking a new slot is a count, not a push.
    slots: Vec<Slot>,
    used: usize,
    /// Per slot: the attributes holding its keyval, plus operations under way that pinned
    /// it. Apart from the records, so bulk copies and frees touch 4 bytes per keyval (the
    /// slot's key says [`HELD`] while this is not 0).
    users: Vec<u32>,
    free: FreeSlots,
    /// Numbers stay below this: generations run from 1 to `number_limit >> SLOT_BITS` - 1
    /// ([`GENERATIONS`] unless [`Registry::keep_numbers_below`] lowered it).
    number_limit: u32,
    /// MPI_TAG_UB ... and MPI_WIN_BASE ..., by number.
    predefined: Vec<(Keyval, Record)>,
}

impl Registry {
    /// A registry with no keyvals at all, not even the predefined ones.
    pub(crate) fn empty() -> Registry {
        Registry {
            slots: Vec::new(),
            used: 0,
            users: Vec::new(),
            free: FreeSlots::default(),
            number_limit: u32::from(GENERATIONS) << SLOT_BITS,
            predefined: Vec::new(),
        }
    }

    pub(crate) fn new() -> Registry {
        let mut registry = Registry::empty();
        let comm = |copy| KeyvalSpec {
            kind: ObjectKind::Comm,
            language: Language::FortranInteger,
            copy,
            delete: DeleteAction::Null,
        };
        for keyval in [
            Keyval::TAG_UB,
            Keyval::HOST,
            Keyval::IO,
            Keyval::WTIME_IS_GLOBAL,
            Keyval::APPNUM,
            Keyval::LASTUSEDCODE,
            Keyval::UNIVERSE_SIZE,
        ] {
            registry
                .predefined
                .push((keyval, Record::new(comm(CopyAction::Dup), true)));
        }
        for keyval in [
            Keyval::WIN_BASE,
            Keyval::WIN_DISP_UNIT,
            Keyval::WIN_SIZE,
            Keyval::WIN_CREATE_FLAVOR,
            Keyval::WIN_MODEL,
        ] {
            let mut spec = comm(CopyAction::Null);
            spec.kind = ObjectKind::Win;
            registry.predefined.push((keyval, Record::new(spec, true)));
        }
        registry
    }

    /// Keeps every number it gives below `bound`, a power of two from 2^22 to 2^31 (the layer
    /// over another MPI stays out of the numbers that MPI gives a meaning): fewer generations,
    /// so a number comes back sooner.
    pub(crate) fn keep_numbers_below(&mut self, bound: u32) {
        let generations = (bound >> SLOT_BITS).clamp(2, u32::from(GENERATIONS));
        self.number_limit = generations << SLOT_BITS;
    }

    /// Live keyvals, predefined ones included.
    pub(crate) fn len(&self) -> usize {
        // Every slot handed out has a record or waits in the free list.
        self.used - self.free.len() + self.predefined.len()
    }

    pub(crate) fn create(&mut self, spec: KeyvalSpec) -> Result<Keyval> {
        let (slot, key) = match self.take_slot() {
            Some(taken) => taken,
            None => self.grow_or_reuse().ok_or(Error::NoMemory)?,
        };
        let limit = self.number_limit;
        Ok(self.slots[slot as usize].take(key, limit, Record::new(spec, false)))
    }

    /// The slot a new keyval gets: the oldest free one once [`REUSE_DELAY`] others are free
    /// too, else the next one made ahead; `None` if there is none of those either. With it,
    /// its key, read once for both the free list and [`Slot::take`].
    #[inline(always)]
    fn take_slot(&mut self) -> Option<(u32, u64)> {
        if self.free.len() > REUSE_DELAY {
            return self.free.pop_front_of_many(&self.slots);
        }
        // Laid out after the reuse: a program that creates and frees keyvals over and over
        // takes fresh slots only for its first REUSE_DELAY + 1 creates.
        super::cold_path();
        let slot = self.slots.get(self.used)?;
        self.used += 1;
        Some(((self.used - 1) as u32, slot.key))
    }

    /// Makes more slots ahead (twice as many, at least 64) and takes the first; at
    /// [`SLOTS`], takes the oldest free one instead, if any.
    #[cold]
    #[inline(never)]
    fn grow_or_reuse(&mut self) -> Option<(u32, u64)> {
        if self.used >= SLOTS {
            return self.free.pop_front(&self.slots);
        }
        let len = (2 * self.slots.len()).clamp(64, SLOTS);
        let made = self.slots.len();
        self.slots.extend((made..len).map(Slot::new));
        self.users.resize(len, 0);
        self.take_slot()
    }

    /// [`Registry::create`] of a keyval without callbacks, for the fast paths: inlined,
    /// without any call. `None` when more slots must be made first, which
    /// [`Registry::create`] then does.
    #[inline(always)]
    pub(crate) fn create_plain(
        &mut self,
        kind: ObjectKind,
        language: Language,
        copy: Copying,
    ) -> Option<Keyval> {
        let (slot, key) = self.take_slot()?;
        let limit = self.number_limit;
        let entry = self.slots.get_mut(slot as usize)?;
        let copy = match copy {
            Copying::Duplicate => CopyAction::Dup,
            _ => CopyAction::Null,
        };
        let spec = KeyvalSpec {
            kind,
            language,
            copy,
            delete: DeleteAction::Null,
        };
        Some(entry.take(key, limit, Record::new(spec, false)))
    }

    fn record(&self, keyval: Keyval) -> Option<&Record> {
        if keyval.0 >> SLOT_BITS == 0 {
            return self
                .predefined
                .iter()
                .find(|(k, _)| *k == keyval)
                .map(|(_, r)| r);
        }
        let slot = self.slots.get((keyval.0 & SLOT_MASK) as usize)?;
        if i32::from(slot.generation()) != keyval.0 >> SLOT_BITS {
            return None;
        }
        slot.record.as_ref()
    }

    /// The record of a user keyval, mutably (predefined keyvals are never counted or freed).
    fn user_record_mut(&mut self, keyval: Keyval) -> Option<&mut Record> {
        let slot = self.slots.get_mut((keyval.0 & SLOT_MASK) as usize)?;
        if keyval.0 >> SLOT_BITS == 0 || i32::from(slot.generation()) != keyval.0 >> SLOT_BITS {
            return None;
        }
        slot.record.as_mut()
    }

    /// Whether a keyval an attribute holds (so live, a user keyval) was freed: no value can
    /// be set with it any more.
    #[inline(always)]
    pub(crate) fn held_is_freed(&self, keyval: Keyval) -> bool {
        self.slots
            .get((keyval.0 & SLOT_MASK) as usize)
            .map_or(true, |slot| slot.key & FREED != 0)
    }

    /// The record of a live user keyval of `kind` that may take new values, or `None`.
    #[inline(always)]
    pub(crate) fn settable(&self, keyval: Keyval, kind: ObjectKind) -> Option<&Record> {
        self.live_user(keyval, kind).filter(|record| !record.freed)
    }

    /// The record of a live user keyval of `kind` (freed or not), or `None`.
    #[inline(always)]
    pub(crate) fn live_user(&self, keyval: Keyval, kind: ObjectKind) -> Option<&Record> {
        let slot = self.slots.get((keyval.0 & SLOT_MASK) as usize)?;
        let record = slot.record.as_ref()?;
        slot.holds(keyval, kind).then_some(record)
    }

    /// Whether `keyval` is a live user keyval of `kind` (freed or not).
    #[inline(always)]
    pub(crate) fn is_live_user(&self, keyval: Keyval, kind: ObjectKind) -> bool {
        self.slots
            .get((keyval.0 & SLOT_MASK) as usize)
            .is_some_and(|slot| slot.holds(keyval, kind))
    }

    /// The record of a keyval of `kind`; fails for unknown numbers and other kinds.
    pub(crate) fn lookup(&self, keyval: Keyval, kind: ObjectKind) -> Result<&Record> {
        let record = self.record(keyval).ok_or(Error::InvalidKeyval)?;
        if record.spec.kind != kind {
            return Err(Error::WrongKindKeyval {
                found: record.spec.kind,
                expected: kind,
            });
        }
        Ok(record)
    }

    /// Like `lookup`, and refuses predefined keyvals (for set, delete and free).
    pub(crate) fn lookup_user(&self, keyval: Keyval, kind: ObjectKind) -> Result<&Record> {
        let record = self.lookup(keyval, kind)?;
        if record.predefined {
            return Err(Error::PredefinedKeyval);
        }
        Ok(record)
    }

    /// The record of a keyval an attribute holds (always live).
    pub(crate) fn held(&self, keyval: Keyval) -> &Record {
        self.record(keyval)
            .expect("a keyval lives while an attribute holds it")
    }

    /// One more attribute or operation holds `keyval` (a live user keyval).
    #[inline(always)]
    pub(crate) fn acquire(&mut self, keyval: Keyval) {
        let index = (keyval.0 & SLOT_MASK) as usize;
        if let Some(users) = self.users.get_mut(index) {
            debug_assert!(
                keyval.0 >> SLOT_BITS != 0,
                "predefined keyvals are not counted"
            );
            *users += 1;
            if *users == 1 {
                if let Some(slot) = self
                    .slots
                    .get_mut(index)
                    .filter(|slot| slot.key & HELD == 0)
                {
                    // A keyval's first holder ever: after it, the mark stays.
                    super::cold_path();
                    slot.key |= HELD;
                }
            }
        }
    }

    /// One holder fewer (none stays none); when none is left, the slot's key (still marked
    /// [`HELD`]).
    #[inline(always)]
    fn one_user_fewer(&mut self, keyval: Keyval) -> Option<u64> {
        let index = (keyval.0 & SLOT_MASK) as usize;
        let users = self.users.get_mut(index)?;
        *users = users.saturating_sub(1);
        if *users != 0 {
            return None;
        }
        Some(self.slots.get(index)?.key)
    }

    /// One holder fewer, of a keyval that was not freed (so it stays when its last holder
    /// goes): the count alone.
    #[inline(always)]
    pub(crate) fn release_unfreed(&mut self, keyval: Keyval) {
        if let Some(users) = self.users.get_mut((keyval.0 & SLOT_MASK) as usize) {
            *users = users.saturating_sub(1);
        }
    }

    /// One holder fewer; a freed keyval goes when its last holder does.
    #[inline(always)]
    pub(crate) fn release(&mut self, keyval: Keyval) {
        if self.one_user_fewer(keyval).is_some() {
            self.release_last(keyval);
        }
    }

    /// [`Registry::release`] for a value deleted on its own (the delete fast path): the key's
    /// [`FREED`] answers "was it freed?" without a call, since an object's only value of a
    /// live keyval going is common (delete, then set again). The bulk loops (frees, failed
    /// dups) keep `release`: there the extra test moved their loops' code, and freeing 1024
    /// attributes took 45 % longer.
    #[inline(always)]
    pub(crate) fn release_one(&mut self, keyval: Keyval) {
        if self
            .one_user_fewer(keyval)
            .is_some_and(|key| key & FREED != 0)
        {
            self.release_last(keyval);
        }
    }

    /// The last holder of a keyval went: it goes too if it was freed.
    #[cold]
    fn release_last(&mut self, keyval: Keyval) {
        if self
            .user_record_mut(keyval)
            .is_some_and(|record| record.freed)
        {
            self.vacate(keyval);
        }
    }

    /// The keyval's number becomes invalid and its slot waits for reuse.
    fn vacate(&mut self, keyval: Keyval) {
        let slot = (keyval.0 & SLOT_MASK) as u32;
        debug_assert_eq!(
            self.users[slot as usize], 0,
            "a keyval goes when nothing holds it"
        );
        self.slots[slot as usize].vacate();
        self.free.push_back(&mut self.slots, slot);
    }

    /// [`Registry::free`] of a live user keyval of `kind` without callbacks that no
    /// attribute or operation holds, for the fast paths: inlined, without any call, it goes
    /// now (its slot joins the free list). `None` (and nothing done) otherwise.
    #[inline(always)]
    pub(crate) fn free_plain(&mut self, keyval: Keyval, kind: ObjectKind) -> Option<()> {
        let index = (keyval.0 & SLOT_MASK) as usize;
        let slot = self.slots.get_mut(index)?;
        // One comparison: the number (a slot with a keyval has a generation of at least 1, so
        // this also refuses the predefined keyvals and negative numbers), the kind, a keyval
        // (a slot without one has kind 0), no callback and never a holder. Never held, it is
        // not marked freed either (a keyval is marked only while held, and unmarked when
        // vacated).
        if !slot.holds_unheld_plain(keyval, kind) {
            return None;
        }
        // No callback, so no `Arc` in it: forgetting it leaks nothing and skips the drop
        // glue's call.
        std::mem::forget(slot.vacate());
        self.free.push_back(&mut self.slots, index as u32);
        Some(())
    }

    /// MPI_*_free_keyval: the keyval goes now, or when its last attribute does.
    pub(crate) fn free(&mut self, keyval: Keyval, kind: ObjectKind) -> Result<()> {
        self.lookup_user(keyval, kind)?;
        if self.users[(keyval.0 & SLOT_MASK) as usize] == 0 {
            self.vacate(keyval);
        } else {
            self.user_record_mut(keyval).expect("looked up").freed = true;
            self.slots[(keyval.0 & SLOT_MASK) as usize].key |= FREED;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> KeyvalSpec {
        KeyvalSpec {
            kind: ObjectKind::Comm,
            language: Language::C,
            copy: CopyAction::Null,
            delete: DeleteAction::Null,
        }
    }

    #[test]
    fn numbers_are_positive_distinct_and_far_from_the_predefined() {
        let mut registry = Registry::new();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100_000 {
            let keyval = registry.create(spec()).unwrap();
            assert!(keyval.0 >= 1 << SLOT_BITS && !keyval.is_predefined());
            assert!(seen.insert(keyval), "{keyval:?} handed out twice");
            registry.free(keyval, ObjectKind::Comm).unwrap();
            assert!(registry.lookup(keyval, ObjectKind::Comm).is_err());
        }
        assert!(registry.used <= REUSE_DELAY + 2);
    }

    #[test]
    fn a_bounded_registry_keeps_its_numbers_below_the_bound() {
        let mut registry = Registry::empty();
        registry.keep_numbers_below(1 << 29);
        let mut generations = std::collections::HashSet::new();
        // Enough creates and frees that one slot goes through all its generations twice.
        for _ in 0..(REUSE_DELAY + 1) * 600 {
            let keyval = registry.create(spec()).unwrap();
            assert!((1 << SLOT_BITS..1 << 29).contains(&keyval.0), "{keyval:?}");
            if keyval.0 & SLOT_MASK == 0 {
                generations.insert(keyval.0 >> SLOT_BITS);
            }
            registry.free(keyval, ObjectKind::Comm).unwrap();
        }
        assert_eq!(generations.len(), (1 << (29 - SLOT_BITS)) - 1);
    }

    #[test]
    fn a_stale_number_never_names_the_slots_next_keyval() {
        let mut registry = Registry::new();
        let first = registry.create(spec()).unwrap();
        registry.free(first, ObjectKind::Comm).unwrap();
        let mut reused = None;
        for _ in 0..REUSE_DELAY + 2 {
            let keyval = registry.create(spec()).unwrap();
            if keyval.0 & SLOT_MASK == first.0 & SLOT_MASK {
                reused = Some(keyval);
            }
            registry.free(keyval, ObjectKind::Comm).unwrap();
        }
        let reused = reused.expect("the slot came back");
        assert_ne!(reused, first);
        let live = registry.create(spec()).unwrap();
        assert!(registry.lookup(first, ObjectKind::Comm).is_err());
        assert!(registry.lookup(live, ObjectKind::Comm).is_ok());
    }

    /// The fast paths' create and free against the full ones: the same numbers in the same
    /// order (oldest free slot first, next generation), whichever way each call went.
    #[test]
    fn plain_create_and_free_give_what_create_and_free_give() {
        let mut full = Registry::new();
        let mut plain = Registry::new();
        let mut live_full = std::collections::VecDeque::new();
        let mut live_plain = std::collections::VecDeque::new();
        let mut went_plain = (0, 0);
        // A pattern of bursts: up to 40 keyvals live, over enough creates that slots are
        // reused through several generations.
        for step in 0..200_000u32 {
            let create = step % 7 != 3 && (live_full.len() < 40 || step % 2 == 0);
            if create || live_full.is_empty() {
                let keyval = full.create(spec()).unwrap();
                let fast = plain.create_plain(ObjectKind::Comm, Language::C, Copying::Drop);
                went_plain.0 += usize::from(fast.is_some());
                let other = fast.unwrap_or_else(|| plain.create(spec()).unwrap());
                assert_eq!(keyval, other, "step {step}");
                live_full.push_back(keyval);
                live_plain.push_back(other);
            } else {
                // Free the oldest or the newest, by turns.
                let (a, b) = if step % 3 == 0 {
                    (live_full.pop_front(), live_plain.pop_front())
                } else {
                    (live_full.pop_back(), live_plain.pop_back())
                };
                let (a, b) = (a.unwrap(), b.unwrap());
                full.free(a, ObjectKind::Comm).unwrap();
                if plain.free_plain(b, ObjectKind::Comm).is_some() {
                    went_plain.1 += 1;
                } else {
                    plain.free(b, ObjectKind::Comm).unwrap();
                }
                assert!(plain.lookup(b, ObjectKind::Comm).is_err());
                assert!(plain.free_plain(b, ObjectKind::Comm).is_none());
            }
            assert_eq!(full.len(), plain.len());
        }
        assert!(
            went_plain.0 > 90_000 && went_plain.1 > 90_000,
            "{went_plain:?}"
        );
        assert_eq!(full.free.len(), plain.free.len());
    }

    /// The fast free takes only a live, unheld keyval of its kind without callbacks, and
    /// leaves everything as it was when it refuses.
    #[test]
    fn plain_free_refuses_what_the_full_free_must_handle() {
        let mut registry = Registry::new();
        // Enough freed slots that two creates reuse one.
        let kept: Vec<Keyval> = (0..REUSE_DELAY + 2)
            .map(|_| registry.create(spec()).unwrap())
            .collect();
        for keyval in kept {
            registry.free(keyval, ObjectKind::Comm).unwrap();
        }
        let callback: Arc<dyn DeleteCallback> =
            Arc::new(|_: &Universe, _: AnyObject, _: Keyval, _: Word| Ok(()));
        let with_callback = registry
            .create(KeyvalSpec {
                delete: DeleteAction::Call(callback),
                ..spec()
            })
            .unwrap();
        let copier: Arc<dyn CopyCallback> =
            Arc::new(|_: &Universe, _: AnyObject, _: Keyval, w: Word| Ok(Some(w)));
        let with_copier = registry
            .create(KeyvalSpec {
                copy: CopyAction::Call(copier),
                ..spec()
            })
            .unwrap();
        let plain = registry
            .create_plain(ObjectKind::Comm, Language::C, Copying::Duplicate)
            .expect("a slot is due for reuse");
        assert!(matches!(
            registry.record(plain).unwrap().spec.copy,
            CopyAction::Dup
        ));
        let stale = Keyval(plain.0 ^ 1 << SLOT_BITS);
        let (len, free) = (registry.len(), registry.free.len());
        for (keyval, kind) in [
            (plain, ObjectKind::Datatype),
            (plain, ObjectKind::Win),
            (stale, ObjectKind::Comm),
            (Keyval::TAG_UB, ObjectKind::Comm),
            (Keyval::WIN_BASE, ObjectKind::Win),
            (Keyval::INVALID, ObjectKind::Comm),
            (Keyval(-1), ObjectKind::Comm),
            (Keyval(i32::MIN | plain.0), ObjectKind::Comm),
            (with_callback, ObjectKind::Comm),
            (with_copier, ObjectKind::Comm),
        ] {
            assert_eq!(
                registry.free_plain(keyval, kind),
                None,
                "{keyval:?} {kind:?}"
            );
            assert_eq!((registry.len(), registry.free.len()), (len, free));
            // Live user keyvals of their kind, with or without callbacks; nothing else.
            let live = kind == ObjectKind::Comm && [with_callback, with_copier].contains(&keyval);
            assert_eq!(
                registry.is_live_user(keyval, kind),
                live,
                "{keyval:?} {kind:?}"
            );
        }
        assert!(registry.is_live_user(plain, ObjectKind::Comm));
        // Held, it is only marked freed, by the full free.
        registry.acquire(plain);
        assert_eq!(registry.free_plain(plain, ObjectKind::Comm), None);
        registry.free(plain, ObjectKind::Comm).unwrap();
        assert!(registry.held_is_freed(plain));
        assert_eq!(registry.free_plain(plain, ObjectKind::Comm), None);
        registry.release(plain);
        assert!(registry.lookup(plain, ObjectKind::Comm).is_err());
        assert!(
            !registry.held_is_freed(plain),
            "a vacated slot is not marked freed"
        );
        assert!(!registry.is_live_user(plain, ObjectKind::Comm), "vacated");
        registry.free(with_callback, ObjectKind::Comm).unwrap();
        registry.free(with_copier, ObjectKind::Comm).unwrap();
        assert_eq!(registry.len(), len - 3);
    }

    #[test]
    fn plain_free_takes_only_keyvals_never_held() {
        let mut registry = Registry::new();
        let keyval = registry.create(spec()).unwrap();
        registry.acquire(keyval);
        registry.acquire(keyval);
        registry.release_one(keyval);
        assert_eq!(
            registry.free_plain(keyval, ObjectKind::Comm),
            None,
            "one holder left"
        );
        registry.release(keyval);
        assert!(
            registry.is_live_user(keyval, ObjectKind::Comm),
            "not freed, so its last holder going leaves it"
        );
        // The mark stays after the last holder goes: a keyval once held takes the whole way,
        // which asks the count.
        registry.acquire(keyval);
        assert_eq!(registry.free_plain(keyval, ObjectKind::Comm), None);
        registry.release_one(keyval);
        assert_eq!(registry.free_plain(keyval, ObjectKind::Comm), None);
        assert!(registry.is_live_user(keyval, ObjectKind::Comm));
        registry.free(keyval, ObjectKind::Comm).unwrap();
        assert!(!registry.is_live_user(keyval, ObjectKind::Comm));
        assert!(registry.lookup(keyval, ObjectKind::Comm).is_err());
    }

    #[test]
    fn a_freed_keyval_goes_when_its_last_value_is_deleted() {
        let mut registry = Registry::new();
        let keyval = registry.create(spec()).unwrap();
        let other = registry.create(spec()).unwrap();
        registry.acquire(keyval);
        registry.acquire(keyval);
        registry.acquire(other);
        registry.free(keyval, ObjectKind::Comm).unwrap();
        assert!(registry.held_is_freed(keyval));
        assert!(!registry.held_is_freed(other));
        registry.release_one(keyval);
        assert!(
            registry.is_live_user(keyval, ObjectKind::Comm),
            "one holder left"
        );
        registry.release_one(keyval);
        assert!(!registry.is_live_user(keyval, ObjectKind::Comm));
        assert!(
            !registry.held_is_freed(keyval),
            "a vacated slot is not marked freed"
        );
        // Not freed: its last value going leaves it.
        registry.release_one(other);
        assert!(registry.is_live_user(other, ObjectKind::Comm));
        assert_eq!(registry.len(), 12 + 1);
    }

    #[test]
    fn free_slots_keep_their_order_through_emptying_and_refilling() {
        let mut slots: Vec<Slot> = (0..5000).map(Slot::new).collect();
        let mut free = FreeSlots::default();
        assert_eq!(free.pop_front(&slots), None);
        let mut model = std::collections::VecDeque::new();
        let mut next = 0u32;
        let mut emptied = 0;
        for round in 0..50 {
            for _ in 0..(round * 13) % 97 + 1 {
                free.push_back(&mut slots, next);
                model.push_back(next);
                next += 1;
            }
            for _ in 0..(round * 37) % 101 {
                let taken = free.pop_front(&slots).map(|(slot, _)| slot);
                assert_eq!(taken, model.pop_front());
                // A slot taken gets a keyval: its key is rewritten.
                if let Some(slot) = taken {
                    slots[slot as usize].key &= NUMBER_BITS;
                }
            }
            assert_eq!(free.len(), model.len());
            emptied += usize::from(model.is_empty());
        }
        assert!(
            emptied > 5,
            "the list emptied and filled again {emptied} times"
        );
        while let Some(slot) = model.pop_front() {
            assert_eq!(free.pop_front(&slots).map(|(slot, _)| slot), Some(slot));
        }
        assert_eq!(free.pop_front(&slots), None);
        assert_eq!(free.last, NO_SLOT);
    }

    #[test]
    fn free_slots_keep_their_order_as_the_slots_grow() {
        let mut registry = Registry::new();
        let keyvals: Vec<Keyval> = (0..100).map(|_| registry.create(spec()).unwrap()).collect();
        // 50 slots wait in the list while the slots grow from 128 to 4096: they stay in the
        // order they were freed.
        let freed: Vec<u32> = keyvals[..50]
            .iter()
            .rev()
            .map(|keyval| {
                registry.free(*keyval, ObjectKind::Comm).unwrap();
                (keyval.0 & SLOT_MASK) as u32
            })
            .collect();
        for _ in 0..3000 {
            registry.create(spec()).unwrap();
        }
        assert_eq!(registry.slots.len(), 4096);
        let mut waiting = Vec::new();
        while let Some((slot, _)) = registry.free.pop_front(&registry.slots) {
            waiting.push(slot);
        }
        assert_eq!(waiting, freed);
    }
}
