//! Objects of another MPI. The layer over MPICH and Open MPI (src/layer) keeps the attributes
//! of that MPI's communicators, datatypes and windows here: each object of the real MPI that
//! carries an attribute has a *foreign* object in this universe, which holds its attributes
//! and nothing else. Keyvals, values, the three views, callbacks, copying at a duplication and
//! deleting at a free are the engine's own (attributes.md); what a foreign object stands for
//! (its handle in the real MPI) is the layer's business.

use super::keyval::Registry;
use super::lock::StateLock;
use super::{
    datatypes, requests, Detail, ErrorHandler, Object, ObjectData, ObjectKind, Result, State,
    ThreadLevel, Universe,
};

impl Universe {
    /// A universe for the layer over another MPI: no objects and no keyvals at all (the real
    /// MPI has the predefined ones), and keyval numbers in `[2^21, bound)`, `bound` a power of
    /// two from 2^22 to 2^31, so that they stay out of the ranges the real MPI gives a meaning.
    ///
    /// ```
    /// use mpiattr::{Comm, Language, ThreadLevel, Universe};
    /// use mpiattr::{CopyAction, DeleteAction, KeyvalSpec, ObjectKind};
    ///
    /// let universe = Universe::for_layer(ThreadLevel::Single, 1 << 29);
    /// let keyval = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Dup,
    ///     delete: DeleteAction::Null,
    /// })?;
    /// assert!(keyval.0 >= 1 << 21 && keyval.0 < 1 << 29);
    /// let comm: Comm = universe.foreign()?;
    /// universe.set_attr(comm, keyval, Language::C, 5)?;
    /// let copy = universe.foreign_dup(comm)?;
    /// assert_eq!(universe.get_attr(copy, keyval, Language::C)?, Some(5));
    /// universe.foreign_free(comm)?;
    /// assert!(!universe.is_valid(comm)?);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn for_layer(level: ThreadLevel, bound: u32) -> Universe {
        let mut keyvals = Registry::empty();
        keyvals.keep_numbers_below(bound);
        Universe {
            state: StateLock::new(State::empty(keyvals), level),
            callbacks: std::sync::atomic::AtomicBool::new(false),
            progress: requests::Progress::default(),
        }
    }

    /// A new foreign object of `O`'s kind, without attributes, whose errors go nowhere (the
    /// layer reports them through the real MPI).
    pub fn foreign<O: Object>(&self) -> Result<O> {
        let detail = match O::KIND {
            ObjectKind::Comm => Detail::Comm { name: Vec::new() },
            ObjectKind::Datatype => {
                Detail::datatype(datatypes::predefined_maps()[0].clone(), true, Vec::new())
            }
            ObjectKind::Win => Detail::Win { _memory: None },
        };
        let data = ObjectData::new(detail, ErrorHandler::Return);
        Ok(O::from_id(self.lock()?.insert(O::KIND, data)?))
    }

    /// A new foreign object with copies of `source`'s attributes, made as MPI_Comm_dup and
    /// MPI_Type_dup make them (copy callbacks, and on a failure the copies made so far
    /// deleted and the error returned).
    pub fn foreign_dup<O: Object>(&self, source: O) -> Result<O> {
        self.foreign_dup_then(source, |_| ())
    }

    /// [`Universe::foreign_dup`], calling `made` with the new object before any copy callback
    /// runs: the layer records which real object it stands for, so that the callbacks (the
    /// delete callbacks of copies undone after a failed copy among them) get its handle.
    pub fn foreign_dup_then<O: Object>(&self, source: O, made: impl FnOnce(O)) -> Result<O> {
        self.dup_object_then(O::KIND, source.id(), |id| made(O::from_id(id)))
            .map(O::from_id)
    }

    /// Deletes a foreign object's attributes as MPI_Comm_free does (newest first, each delete
    /// callback once) and then the object; if a delete callback fails, the object stays with
    /// the values not deleted and the error comes back.
    pub fn foreign_free<O: Object>(&self, object: O) -> Result<()> {
        self.free_object(O::KIND, object.id())
    }
}
