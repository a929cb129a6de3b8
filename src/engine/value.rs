//! Attribute values and their three language tags (attributes.md §3).
//!
//! A value remembers the language of the call that stored it. Each reader gets its own view:
//! C reads a pointer, Fortran's address-kind calls read an address-sized integer, Fortran's
//! MPI-1 calls read a default INTEGER. Both kinds of value are one word in the attribute.
//! A C reader of a Fortran value gets a pointer to a copy of the word that stays valid and
//! unchanged until the value is deleted or replaced: that cell ([`Cells`]) is made the first
//! time a C reader (or a C callback) asks, so Fortran values that only Fortran reads never
//! need one.

use std::collections::HashMap;
use std::sync::Arc;

use super::keyval::Keyval;
use super::table::Id;

/// Fortran's default INTEGER in this build (`-fdefault-integer-8` builds use 8 bytes).
#[cfg(not(feature = "fortran-integer-8"))]
pub type Fint = i32;
/// Fortran's default INTEGER in this build (`-fdefault-integer-8` builds use 8 bytes).
#[cfg(feature = "fortran-integer-8")]
pub type Fint = i64;

/// An address-sized word: `MPI_Aint`, `INTEGER(KIND=MPI_ADDRESS_KIND)`, or a C pointer.
pub type Word = isize;

/// The language of a call: the tag of a value it stores, the view it reads, and the calling
/// convention of callbacks a keyval was created with.
///
/// A value keeps the language that stored it, and each reader gets its own view of it: a C
/// reader of a Fortran value gets a pointer to a copy of the word (valid until the value is
/// deleted or replaced), a Fortran INTEGER reader the low-order [`Fint`] bits, sign-extended.
///
/// ```
/// use mpiattr::{Comm, Fint, Language, ThreadLevel, Universe, Word};
/// # use mpiattr::{CopyAction, DeleteAction, KeyvalSpec, ObjectKind};
/// # let spec = KeyvalSpec {
/// #     kind: ObjectKind::Comm,
/// #     language: Language::C,
/// #     copy: CopyAction::Null,
/// #     delete: DeleteAction::Null,
/// # };
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let keyval = universe.create_keyval(spec)?; // a communicator keyval without callbacks
/// let v: Word = (1 << 40) + 5;
/// universe.set_attr(Comm::WORLD, keyval, Language::FortranAddress, v)?; // MPI_COMM_SET_ATTR
/// let read = |view| universe.get_attr(Comm::WORLD, keyval, view);
/// assert_eq!(read(Language::FortranAddress)?, Some(v)); // MPI_COMM_GET_ATTR
/// assert_eq!(read(Language::FortranInteger)?, Some(v as Fint as Word)); // MPI_ATTR_GET
/// let pointer = read(Language::C)?.unwrap() as *const Word; // MPI_Comm_get_attr
/// // SAFETY: the pointer stays valid until the value is deleted or replaced.
/// assert_eq!(unsafe { *pointer }, v);
///
/// universe.set_attr(Comm::WORLD, keyval, Language::FortranInteger, -7)?; // MPI_ATTR_PUT
/// assert_eq!(read(Language::FortranAddress)?, Some(-7));
/// # Ok::<(), mpiattr::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// C: values are `void*`; callbacks get C handles and values.
    C,
    /// Fortran MPI-1 (`MPI_ATTR_PUT`, `MPI_KEYVAL_CREATE`): values are default INTEGERs.
    FortranInteger,
    /// Fortran address-kind (`MPI_*_SET_ATTR`, `MPI_*_CREATE_KEYVAL`): values are
    /// `INTEGER(KIND=MPI_ADDRESS_KIND)`.
    FortranAddress,
}

impl Language {
    /// Two bits, for packing into an attribute entry.
    pub(crate) fn bits(self) -> u32 {
        match self {
            Language::C => 0,
            Language::FortranAddress => 1,
            Language::FortranInteger => 2,
        }
    }

    pub(crate) fn from_bits(bits: u32) -> Language {
        match bits & 3 {
            0 => Language::C,
            1 => Language::FortranAddress,
            _ => Language::FortranInteger,
        }
    }

    /// The word a call in this language stores when it passes `word`: a default INTEGER is
    /// sign-extended to address width.
    pub(crate) fn stored_word(self, word: Word) -> Word {
        match self {
            Language::FortranInteger => word as Fint as Word,
            _ => word,
        }
    }
}

/// What a reader in `view` sees of a value stored by `tag` whose word is `word`, given the
/// address of its cell for Fortran values (attributes.md §3's table). The Fortran INTEGER view is
/// returned sign-extended to a word.
pub(crate) fn view(tag: Language, word: Word, cell: usize, view: Language) -> Word {
    match (tag, view) {
        (Language::C, Language::FortranInteger) => word as Fint as Word,
        (Language::C, _) => word,
        (_, Language::C) => cell as Word,
        (_, Language::FortranAddress) => word,
        (_, Language::FortranInteger) => word as Fint as Word,
    }
}

/// The attribute a cell belongs to: its object's kind (as a number), identity and keyval.
pub(crate) type CellKey = (u8, Id, Keyval);

/// The cells C readers of Fortran values got pointers to, by attribute: one `Arc` each, so a
/// callback shown one keeps it alive whatever happens to the attribute meanwhile.
#[derive(Debug, Default)]
pub(crate) struct Cells(HashMap<CellKey, Arc<Word>>);

impl Cells {
    /// The cell of an attribute, made to hold `word` if it has none yet.
    pub(crate) fn get_or_make(&mut self, key: CellKey, word: Word) -> &Arc<Word> {
        self.0.entry(key).or_insert_with(|| Arc::new(word))
    }

    pub(crate) fn get(&self, key: &CellKey) -> Option<&Arc<Word>> {
        self.0.get(key)
    }

    /// Releases an attribute's cell; a callback holding a clone of it keeps it alive.
    pub(crate) fn remove(&mut self, key: &CellKey) {
        self.0.remove(key);
    }

    /// Cells in use (for tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// A value taken out of an attribute, owning what it needs: what callbacks are shown while
/// no lock is held, and what a replacement or a copy brings in.
#[derive(Clone, Debug)]
pub(crate) enum Stored {
    /// The `void*` a C caller stored.
    C(usize),
    /// A Fortran value (address-kind or INTEGER, by the tag), with the attribute's cell when
    /// a C reader is to see it.
    Fortran {
        tag: Language,
        word: Word,
        cell: Option<Arc<Word>>,
    },
}

impl Stored {
    /// The value a call in `language` stores when it passes `word`.
    pub(crate) fn new(language: Language, word: Word) -> Stored {
        match language {
            Language::C => Stored::C(word as usize),
            tag => Stored::Fortran {
                tag,
                word: tag.stored_word(word),
                cell: None,
            },
        }
    }

    /// The tag of the value.
    #[cfg(test)]
    pub(crate) fn language(&self) -> Language {
        match self {
            Stored::C(_) => Language::C,
            Stored::Fortran { tag, .. } => *tag,
        }
    }

    /// What a reader in `language` sees. A C reader of a Fortran value sees its cell, which
    /// the value holds when one was asked for ([`Stored::new`]'s values have none: 0).
    pub(crate) fn view(&self, language: Language) -> Word {
        match self {
            Stored::C(p) => view(Language::C, *p as Word, 0, language),
            Stored::Fortran { tag, word, cell } => {
                let cell = cell.as_ref().map_or(0, |c| Arc::as_ptr(c) as usize);
                view(*tag, *word, cell, language)
            }
        }
    }

    /// A copy with the same word and tag, and no cell: a C reader of the copy gets a cell of
    /// the copy's own.
    pub(crate) fn duplicate(&self) -> Stored {
        match self {
            Stored::C(p) => Stored::C(*p),
            Stored::Fortran { tag, word, .. } => Stored::Fortran {
                tag: *tag,
                word: *word,
                cell: None,
            },
        }
    }

    /// The value a copy callback of `language` produced, given that it was shown `shown`.
    /// A C callback that hands back the very pointer it was shown for a Fortran-tagged value
    /// copies word and tag, so that no attribute points into another object's storage.
    pub(crate) fn copied(&self, language: Language, shown: Word, produced: Word) -> Stored {
        let fortran_tagged = !matches!(self, Stored::C(_));
        if language == Language::C && fortran_tagged && produced == shown {
            self.duplicate()
        } else {
            Stored::new(language, produced)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_values_in_every_view() {
        let p: Word = 0x1234_5678_9abc;
        let stored = Stored::new(Language::C, p);
        assert_eq!(stored.view(Language::C), p);
        assert_eq!(stored.view(Language::FortranAddress), p);
        assert_eq!(stored.view(Language::FortranInteger), p as Fint as Word);
    }

    #[test]
    fn fortran_address_values_in_every_view() {
        let v: Word = (1 << 40) + 5;
        let cell = Arc::new(v);
        let stored = Stored::Fortran {
            tag: Language::FortranAddress,
            word: v,
            cell: Some(cell.clone()),
        };
        assert_eq!(stored.view(Language::FortranAddress), v);
        assert_eq!(stored.view(Language::FortranInteger), v as Fint as Word);
        if std::mem::size_of::<Fint>() == 4 {
            assert_eq!(stored.view(Language::FortranInteger), 5);
        }
        assert_eq!(stored.view(Language::C), Arc::as_ptr(&cell) as Word);
    }

    #[test]
    fn fortran_integers_are_sign_extended() {
        let stored = Stored::new(Language::FortranInteger, -7);
        assert_eq!(stored.view(Language::FortranAddress), -7);
        assert_eq!(stored.view(Language::FortranInteger), -7);
    }

    #[test]
    fn c_copy_returning_the_shown_pointer_copies_word_and_tag() {
        let stored = Stored::Fortran {
            tag: Language::FortranAddress,
            word: 42,
            cell: Some(Arc::new(42)),
        };
        let shown = stored.view(Language::C);
        let copy = stored.copied(Language::C, shown, shown);
        assert_eq!(copy.language(), Language::FortranAddress);
        assert_eq!(copy.view(Language::FortranAddress), 42);
        assert!(
            matches!(copy, Stored::Fortran { cell: None, .. }),
            "the copy shares no storage: a C reader of it gets a cell of its own"
        );
        let other = stored.copied(Language::C, shown, 99);
        assert_eq!(other.language(), Language::C);
        assert_eq!(other.view(Language::C), 99);
    }

    #[test]
    fn tags_pack_into_two_bits() {
        for language in [
            Language::C,
            Language::FortranAddress,
            Language::FortranInteger,
        ] {
            assert_eq!(Language::from_bits(language.bits()), language);
        }
    }
}
