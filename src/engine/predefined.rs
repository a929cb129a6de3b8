//! The predefined attributes (attributes.md §3): values an object carries from its creation — MPI_TAG_UB
//! and the others on MPI_COMM_WORLD and its duplicates, MPI_WIN_BASE and the others on every
//! window. They are read like any attribute and never set, deleted or freed.
//!
//! They are kept apart from user attributes, in storage of the object's own (a duplicate gets
//! a copy), so that a C reader's pointer to a Fortran-tagged value points into its object and
//! user attribute lookups never step over them.

use super::keyval::Keyval;
use super::value::{self, Language, Word};
use super::ObjectKind;
use crate::abi;

/// The predefined attributes of a communicator descended from MPI_COMM_WORLD, with their
/// tags and values (docs/semantics.md).
const COMM: [(Keyval, Language, Word); 7] = [
    (Keyval::TAG_UB, Language::FortranInteger, 2_147_483_647),
    (
        Keyval::HOST,
        Language::FortranInteger,
        abi::MPI_PROC_NULL as Word,
    ),
    (Keyval::IO, Language::FortranInteger, 0),
    (Keyval::WTIME_IS_GLOBAL, Language::FortranInteger, 1),
    (Keyval::UNIVERSE_SIZE, Language::FortranInteger, 1),
    (Keyval::APPNUM, Language::FortranInteger, 0),
    (
        Keyval::LASTUSEDCODE,
        Language::FortranInteger,
        abi::MPI_ERR_LASTCODE as Word,
    ),
];

/// The predefined attributes of a window, with their tags; the values are the window's.
const WIN: [(Keyval, Language); 5] = [
    (Keyval::WIN_BASE, Language::C),
    (Keyval::WIN_SIZE, Language::FortranAddress),
    (Keyval::WIN_DISP_UNIT, Language::FortranInteger),
    (Keyval::WIN_CREATE_FLAVOR, Language::FortranInteger),
    (Keyval::WIN_MODEL, Language::FortranInteger),
];

/// The predefined attribute values of one object, in the order of its kind's table. One
/// pointer (an object without them spends 8 bytes, which keeps a table slot at 128 bytes).
#[derive(Clone, Debug)]
pub(crate) struct Values(Box<Words>);

const _: () = assert!(WIN.len() <= COMM.len());

/// The values themselves: the first `len` of `words`.
#[derive(Clone, Debug)]
struct Words {
    len: usize,
    words: [Word; COMM.len()],
}

impl Values {
    /// MPI_COMM_WORLD's.
    pub(crate) fn world() -> Values {
        Values(Box::new(Words {
            len: COMM.len(),
            words: COMM.map(|(_, _, word)| word),
        }))
    }

    /// A window's: base, size, displacement unit, flavor, model.
    pub(crate) fn window(values: [Word; WIN.len()]) -> Values {
        let mut words = [0; COMM.len()];
        words[..WIN.len()].copy_from_slice(&values);
        Values(Box::new(Words {
            len: WIN.len(),
            words,
        }))
    }

    fn words(&self) -> &[Word] {
        &self.0.words[..self.0.len]
    }

    fn tags(kind: ObjectKind) -> impl Iterator<Item = (Keyval, Language)> {
        let comm = COMM.iter().map(|(keyval, tag, _)| (*keyval, *tag));
        let win = WIN.iter().copied();
        let (comm, win) = match kind {
            ObjectKind::Comm => (Some(comm), None),
            ObjectKind::Win => (None, Some(win)),
            ObjectKind::Datatype => (None, None),
        };
        comm.into_iter().flatten().chain(win.into_iter().flatten())
    }

    /// What a reader in `language` sees of the value of `keyval`, if the object has one.
    pub(crate) fn view(
        &self,
        kind: ObjectKind,
        keyval: Keyval,
        language: Language,
    ) -> Option<Word> {
        let (index, (_, tag)) = Self::tags(kind)
            .enumerate()
            .find(|(_, (k, _))| *k == keyval)?;
        let word = self.words().get(index)?;
        let cell = word as *const Word as usize;
        Some(value::view(tag, *word, cell, language))
    }

    /// Sets the MPI_LASTUSEDCODE value (of a communicator's values), in place, so that a
    /// pointer a C reader got earlier sees the new value.
    pub(crate) fn set_last_used_code(&mut self, code: Word) {
        if let Some(index) = COMM.iter().position(|(k, _, _)| *k == Keyval::LASTUSEDCODE) {
            if let Some(word) = self.0.words.get_mut(index) {
                *word = code;
            }
        }
    }

    /// How many there are.
    pub(crate) fn len(&self) -> usize {
        self.words().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_point_into_the_objects_own_storage() {
        let world = Values::world();
        let copy = world.clone();
        let tag_ub = |v: &Values, view| v.view(ObjectKind::Comm, Keyval::TAG_UB, view);
        assert_eq!(
            tag_ub(&world, Language::FortranInteger),
            Some(2_147_483_647)
        );
        assert_eq!(tag_ub(&copy, Language::FortranAddress), Some(2_147_483_647));
        assert_ne!(tag_ub(&world, Language::C), tag_ub(&copy, Language::C));
        assert_eq!(
            world.view(ObjectKind::Comm, Keyval::WIN_BASE, Language::C),
            None
        );

        let win = Values::window([0x1000, 64, 8, 312, 321]);
        assert_eq!(
            win.view(ObjectKind::Win, Keyval::WIN_BASE, Language::C),
            Some(0x1000)
        );
        assert_eq!(
            win.view(ObjectKind::Win, Keyval::WIN_SIZE, Language::FortranAddress),
            Some(64)
        );
        assert_eq!(win.view(ObjectKind::Win, Keyval::TAG_UB, Language::C), None);
    }
}
