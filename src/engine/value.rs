//! Attribute values and their three language tags (SPEC §3).
//!
//! A value remembers the language of the call that stored it. Each reader gets its own view:
//! C reads a pointer, Fortran's address-kind calls read an address-sized integer, Fortran's
//! MPI-1 calls read a default INTEGER. Fortran-tagged values live in their own heap cell so
//! that the pointer a C reader gets stays valid until the value is deleted or replaced.

use std::sync::Arc;

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

/// A stored attribute value with its tag.
#[derive(Clone, Debug)]
pub(crate) enum Stored {
    /// The `void*` a C caller stored.
    C(usize),
    /// An address-kind integer, in its own cell.
    FortranAddress(Arc<Word>),
    /// A default INTEGER sign-extended to address width, in its own cell.
    FortranInteger(Arc<Word>),
}

impl Stored {
    /// The value a call in `language` stores when it passes `word`.
    pub(crate) fn new(language: Language, word: Word) -> Stored {
        match language {
            Language::C => Stored::C(word as usize),
            Language::FortranAddress => Stored::FortranAddress(Arc::new(word)),
            Language::FortranInteger => Stored::FortranInteger(Arc::new(word as Fint as Word)),
        }
    }

    /// The tag of the value.
    #[cfg(test)]
    pub(crate) fn language(&self) -> Language {
        match self {
            Stored::C(_) => Language::C,
            Stored::FortranAddress(_) => Language::FortranAddress,
            Stored::FortranInteger(_) => Language::FortranInteger,
        }
    }

    /// A copy with the same word and tag in storage of its own.
    pub(crate) fn duplicate(&self) -> Stored {
        match self {
            Stored::C(p) => Stored::C(*p),
            Stored::FortranAddress(v) => Stored::FortranAddress(Arc::new(**v)),
            Stored::FortranInteger(v) => Stored::FortranInteger(Arc::new(**v)),
        }
    }

    /// What a reader in `language` sees (SPEC §3's table). The Fortran INTEGER view is
    /// returned sign-extended to a word.
    pub(crate) fn view(&self, language: Language) -> Word {
        match (self, language) {
            (Stored::C(p), Language::C) => *p as Word,
            (Stored::FortranAddress(v) | Stored::FortranInteger(v), Language::C) => {
                Arc::as_ptr(v) as Word
            }
            (Stored::C(p), Language::FortranAddress) => *p as Word,
            (Stored::FortranAddress(v) | Stored::FortranInteger(v), Language::FortranAddress) => {
                **v
            }
            (Stored::C(p), Language::FortranInteger) => *p as Fint as Word,
            (Stored::FortranAddress(v) | Stored::FortranInteger(v), Language::FortranInteger) => {
                **v as Fint as Word
            }
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
        let stored = Stored::new(Language::FortranAddress, v);
        assert_eq!(stored.view(Language::FortranAddress), v);
        assert_eq!(stored.view(Language::FortranInteger), v as Fint as Word);
        if std::mem::size_of::<Fint>() == 4 {
            assert_eq!(stored.view(Language::FortranInteger), 5);
        }
        let Stored::FortranAddress(cell) = &stored else {
            unreachable!()
        };
        assert_eq!(stored.view(Language::C), Arc::as_ptr(cell) as Word);
    }

    #[test]
    fn fortran_integers_are_sign_extended() {
        let stored = Stored::new(Language::FortranInteger, -7);
        assert_eq!(stored.view(Language::FortranAddress), -7);
        assert_eq!(stored.view(Language::FortranInteger), -7);
    }

    #[test]
    fn c_copy_returning_the_shown_pointer_copies_word_and_tag() {
        let stored = Stored::new(Language::FortranAddress, 42);
        let shown = stored.view(Language::C);
        let copy = stored.copied(Language::C, shown, shown);
        assert_eq!(copy.language(), Language::FortranAddress);
        assert_eq!(copy.view(Language::FortranAddress), 42);
        assert_ne!(
            copy.view(Language::C),
            shown,
            "the copy has storage of its own"
        );
        let other = stored.copied(Language::C, shown, 99);
        assert_eq!(other.language(), Language::C);
        assert_eq!(other.view(Language::C), 99);
    }
}
