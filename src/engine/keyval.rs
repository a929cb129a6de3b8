//! Keyvals: numbers, callbacks, and the deferred free of SPEC §4.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use super::error::{Error, Result};
use super::value::{Language, Word};
use super::{AnyObject, ObjectKind, Universe};

/// An attribute key. Its number is what C and Fortran programs hold; it is positive, never a
/// predefined keyval's number, and not reused while the universe lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Keyval(pub i32);

impl Keyval {
    /// MPI_KEYVAL_INVALID.
    pub const INVALID: Keyval = Keyval(crate::abi::MPI_KEYVAL_INVALID as i32);
    /// MPI_TAG_UB.
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
        self.0 > 0 && self.0 < FIRST_NUMBER
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
    /// Attributes holding it, plus operations under way that pinned it.
    pub(crate) users: usize,
}

/// The first number handed out; everything below is reserved for predefined keyvals.
const FIRST_NUMBER: i32 = 4096;

/// Keyval numbers are small consecutive integers: a multiplicative hash spreads them, with
/// none of SipHash's cost (numbers come from the library, not from an attacker).
#[derive(Default)]
pub(crate) struct NumberHasher(u64);

impl Hasher for NumberHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_i32(&mut self, value: i32) {
        self.0 = (value as u32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type NumberMap<V> = HashMap<Keyval, V, BuildHasherDefault<NumberHasher>>;

#[derive(Debug)]
pub(crate) struct Registry {
    records: NumberMap<Record>,
    next: i32,
}

impl Registry {
    /// A registry with no keyvals at all, not even the predefined ones.
    pub(crate) fn empty() -> Registry {
        Registry {
            records: NumberMap::default(),
            next: FIRST_NUMBER,
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
            registry.insert_predefined(keyval, comm(CopyAction::Dup));
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
            registry.insert_predefined(keyval, spec);
        }
        registry
    }

    fn insert_predefined(&mut self, keyval: Keyval, spec: KeyvalSpec) {
        self.records.insert(
            keyval,
            Record {
                spec,
                predefined: true,
                freed: false,
                users: 0,
            },
        );
    }

    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    pub(crate) fn create(&mut self, spec: KeyvalSpec) -> Result<Keyval> {
        if self.records.len() >= (i32::MAX - FIRST_NUMBER) as usize {
            return Err(Error::NoMemory);
        }
        loop {
            let keyval = Keyval(self.next);
            self.next = if self.next == i32::MAX {
                FIRST_NUMBER
            } else {
                self.next + 1
            };
            if let std::collections::hash_map::Entry::Vacant(slot) = self.records.entry(keyval) {
                slot.insert(Record {
                    spec,
                    predefined: false,
                    freed: false,
                    users: 0,
                });
                return Ok(keyval);
            }
        }
    }

    /// The record of a keyval of `kind`; fails for unknown numbers and other kinds.
    pub(crate) fn lookup(&self, keyval: Keyval, kind: ObjectKind) -> Result<&Record> {
        let record = self.records.get(&keyval).ok_or(Error::InvalidKeyval)?;
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

    /// One more attribute or operation holds `keyval`.
    pub(crate) fn acquire(&mut self, keyval: Keyval) {
        if let Some(record) = self.records.get_mut(&keyval) {
            record.users += 1;
        }
    }

    /// One holder fewer; a freed keyval goes when its last holder does.
    pub(crate) fn release(&mut self, keyval: Keyval) {
        if let Some(record) = self.records.get_mut(&keyval) {
            record.users = record.users.saturating_sub(1);
            if record.freed && record.users == 0 {
                self.records.remove(&keyval);
            }
        }
    }

    /// MPI_*_free_keyval: the keyval goes now, or when its last attribute does.
    pub(crate) fn free(&mut self, keyval: Keyval, kind: ObjectKind) -> Result<()> {
        let record = self.lookup_user(keyval, kind)?;
        if record.users == 0 {
            self.records.remove(&keyval);
        } else if let Some(record) = self.records.get_mut(&keyval) {
            record.freed = true;
        }
        Ok(())
    }
}
