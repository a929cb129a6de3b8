//! Typed attributes: the Rust API's keyvals for values of one Rust type.
//!
//! The engine stores a word per attribute, as MPI does; a typed keyval keeps its values in a
//! store of its own and gives the engine each value's number in that store. Its callbacks are
//! Rust closures: the copy callback makes the duplicate's value (by `Clone` or by a closure),
//! the delete callback takes the value out of the store, and the value is dropped when nothing
//! holds it any more. No `unsafe` and no [`Language`] for the user.
//!
//! A `Clone`, copy closure or `Drop` that panics unwinds out of the call that ran it
//! ([`Universe::comm_dup`], [`Universe::comm_free`], [`Universe::set_typed`], ...) after the
//! engine has ended that call as if the callback had failed: a duplicate being made is gone
//! with the values copied to it, a value whose `Drop` panicked is no longer the object's
//! value (it reads as none), and an object being freed stays with the values not yet dropped.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, PoisonError};

use super::{
    AnyObject, CopyAction, DeleteAction, Error, Keyval, KeyvalSpec, Language, Object, ObjectKind,
    Result, Universe, Word,
};

/// The values of one typed keyval, by their numbers.
struct Store<T> {
    values: Mutex<Values<T>>,
}

struct Values<T> {
    by_number: HashMap<Word, Arc<T>>,
    /// How many values were stored before.
    made: u64,
    /// Mixed into every number: the engine's word for a value is `made ^ key`, which no two
    /// values share and C or Fortran code setting words of its own on the keyval does not
    /// guess (such a word names no value here: the typed calls see none, copy none and
    /// delete none).
    key: u64,
}

impl<T> Store<T> {
    fn new() -> Store<T> {
        Store {
            values: Mutex::new(Values {
                by_number: HashMap::new(),
                made: 0,
                key: RandomState::new().build_hasher().finish(),
            }),
        }
    }

    fn values(&self) -> std::sync::MutexGuard<'_, Values<T>> {
        // A panic elsewhere cannot leave the map half-changed: each change is one call.
        self.values.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn insert(&self, value: Arc<T>) -> Word {
        let mut values = self.values();
        let number = (values.made ^ values.key) as Word;
        values.made += 1;
        values.by_number.insert(number, value);
        number
    }

    fn get(&self, number: Word) -> Option<Arc<T>> {
        self.values().by_number.get(&number).cloned()
    }

    /// Takes a value out; it is dropped by the caller, outside the store's lock (its `Drop`
    /// may use the same keyval).
    fn remove(&self, number: Word) -> Option<Arc<T>> {
        self.values().by_number.remove(&number)
    }
}

/// A value stored for a set not made yet: if the set fails (or the old value's `Drop`
/// panics), dropping this takes it out again.
struct Pending<'a, T> {
    store: &'a Store<T>,
    number: Word,
}

impl<T> Drop for Pending<'_, T> {
    fn drop(&mut self) {
        drop(self.store.remove(self.number));
    }
}

/// A closure making a duplicate's value from the original's (`None`: no value).
pub type MakeCopy<T> = Box<dyn Fn(&T) -> Option<T> + Send + Sync>;

/// What a typed keyval's value becomes when its object is duplicated.
pub enum TypedCopy<T> {
    /// The duplicate gets no value (MPI's null copy function).
    Never,
    /// The duplicate gets what the closure makes of the value; `None`: no value.
    With(MakeCopy<T>),
}

impl<T: Clone + 'static> TypedCopy<T> {
    /// The duplicate gets a clone of the value.
    pub fn by_clone() -> TypedCopy<T> {
        TypedCopy::With(Box::new(|value: &T| Some(value.clone())))
    }
}

impl<T> TypedCopy<T> {
    /// The duplicate gets what `copy` makes of the value (`None`: no value).
    pub fn with(copy: impl Fn(&T) -> Option<T> + Send + Sync + 'static) -> TypedCopy<T> {
        TypedCopy::With(Box::new(copy))
    }
}

/// A keyval whose values are `T`, for objects of one kind. Made by
/// [`Universe::create_typed_keyval`]; freed by [`Universe::free_typed_keyval`] (or with the
/// universe).
///
/// ```
/// use std::sync::Arc;
/// use mpiattr::{Comm, ObjectKind, ThreadLevel, TypedCopy, Universe};
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Solver {
///     tolerance: f64,
///     name: String,
/// }
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let solver = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::<Solver>::by_clone())?;
/// let settings = Solver { tolerance: 1e-8, name: "cg".into() };
/// universe.set_typed(Comm::WORLD, &solver, settings.clone())?;
/// let copy = universe.comm_dup(Comm::WORLD)?;
/// assert_eq!(universe.get_typed(copy, &solver)?.as_deref(), Some(&settings));
/// universe.comm_free(copy)?;
/// universe.delete_typed(Comm::WORLD, &solver)?;
/// assert_eq!(universe.get_typed(Comm::WORLD, &solver)?, None);
/// universe.free_typed_keyval(solver)?;
/// # Ok::<(), mpiattr::Error>(())
/// ```
///
/// Made on [`crate::mpi_universe`], the keyval is also one of the C and Fortran code's: its
/// number ([`TypedKeyval::keyval`]) is what they name it by, their `MPI_Comm_dup` and
/// `MPI_Comm_free` copy and drop its values as Rust's do, and a word they set on it through
/// that number is no typed value (the typed calls read none, and copy or drop nothing for it)
/// unless it is a word read from another object's value: the two objects then share that
/// value until either deletes it.
///
/// Values must be `Send + Sync`: any thread may read them under `MPI_THREAD_MULTIPLE`.
///
/// ```compile_fail
/// use std::rc::Rc;
/// use mpiattr::{ObjectKind, ThreadLevel, TypedCopy, Universe};
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let shared = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::<Rc<i32>>::Never);
/// ```
///
/// `Send` alone is not enough: a `Cell` is not `Sync`.
///
/// ```compile_fail
/// use std::cell::Cell;
/// use mpiattr::{ObjectKind, ThreadLevel, TypedCopy, Universe};
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let counter = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::<Cell<i32>>::Never);
/// ```
///
/// (With `Arc<i32>` or `AtomicI32` in their place, both compile.)
///
/// ```
/// use std::sync::{atomic::AtomicI32, Arc};
/// use mpiattr::{ObjectKind, ThreadLevel, TypedCopy, Universe};
///
/// let universe = Universe::new(ThreadLevel::Single);
/// let shared = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::<Arc<i32>>::Never);
/// let counter = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::<AtomicI32>::Never);
/// assert!(shared.is_ok() && counter.is_ok());
/// ```
pub struct TypedKeyval<T> {
    keyval: Keyval,
    kind: ObjectKind,
    store: Arc<Store<T>>,
    _values: PhantomData<fn() -> T>,
}

impl<T> TypedKeyval<T> {
    /// The keyval's number, as C and Fortran see it.
    pub fn keyval(&self) -> Keyval {
        self.keyval
    }

    /// The kind of object it is for.
    pub fn kind(&self) -> ObjectKind {
        self.kind
    }

    /// The keyval, after checking that `O` is its kind (the engine would refuse it too, with
    /// the same error).
    fn for_kind<O: Object>(&self) -> Result<Keyval> {
        if O::KIND == self.kind {
            Ok(self.keyval)
        } else {
            Err(Error::WrongKindKeyval {
                found: self.kind,
                expected: O::KIND,
            })
        }
    }
}

impl Universe {
    /// A keyval for values of type `T` on objects of `kind`, copied on duplication as `copy`
    /// says and dropped when deleted, replaced, or freed with their object.
    pub fn create_typed_keyval<T: Send + Sync + 'static>(
        &self,
        kind: ObjectKind,
        copy: TypedCopy<T>,
    ) -> Result<TypedKeyval<T>> {
        let store = Arc::new(Store::<T>::new());
        let copy = match copy {
            TypedCopy::Never => CopyAction::Null,
            TypedCopy::With(make) => {
                let store = store.clone();
                CopyAction::Call(Arc::new(
                    move |_: &Universe, _: AnyObject, _: Keyval, number: Word| {
                        // A value set through the keyval's number from C is not ours: no copy.
                        let Some(value) = store.get(number) else {
                            return Ok(None);
                        };
                        Ok(make(&value).map(|made| store.insert(Arc::new(made))))
                    },
                ))
            }
        };
        let delete = {
            let store = store.clone();
            DeleteAction::Call(Arc::new(
                move |_: &Universe, _: AnyObject, _: Keyval, number: Word| {
                    drop(store.remove(number));
                    Ok(())
                },
            ))
        };
        let keyval = self.create_keyval(KeyvalSpec {
            kind,
            language: Language::C,
            copy,
            delete,
        })?;
        Ok(TypedKeyval {
            keyval,
            kind,
            store,
            _values: PhantomData,
        })
    }

    /// Sets `object`'s value for `keyval`; a value it had is deleted first (dropped).
    pub fn set_typed<T, O: Object>(
        &self,
        object: O,
        keyval: &TypedKeyval<T>,
        value: T,
    ) -> Result<()> {
        let keyval_number = keyval.for_kind::<O>()?;
        let pending = Pending {
            store: &keyval.store,
            number: keyval.store.insert(Arc::new(value)),
        };
        self.set_attr(object, keyval_number, Language::C, pending.number)?;
        std::mem::forget(pending);
        Ok(())
    }

    /// `object`'s value for `keyval`, shared: it stays alive while the `Arc` is held, even if
    /// the attribute is deleted meanwhile. `None` if it has none (or only a value set through
    /// the keyval's number from C).
    pub fn get_typed<T, O: Object>(
        &self,
        object: O,
        keyval: &TypedKeyval<T>,
    ) -> Result<Option<Arc<T>>> {
        let number = self.get_attr(object, keyval.for_kind::<O>()?, Language::C)?;
        Ok(number.and_then(|number| keyval.store.get(number)))
    }

    /// Deletes `object`'s value for `keyval` (it is dropped); nothing if it has none.
    pub fn delete_typed<T, O: Object>(&self, object: O, keyval: &TypedKeyval<T>) -> Result<()> {
        self.delete_attr(object, keyval.for_kind::<O>()?)
    }

    /// Frees the keyval: values still set stay until deleted or freed with their objects.
    pub fn free_typed_keyval<T>(&self, keyval: TypedKeyval<T>) -> Result<()> {
        self.free_keyval(keyval.kind, keyval.keyval)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::engine::{Comm, Datatype, ThreadLevel};

    /// A value that counts its drops.
    #[derive(Debug)]
    struct Counted {
        value: i32,
        drops: Arc<AtomicUsize>,
    }

    impl Clone for Counted {
        fn clone(&self) -> Self {
            Counted {
                value: self.value,
                drops: self.drops.clone(),
            }
        }
    }

    impl Drop for Counted {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counted(value: i32) -> (Counted, Arc<AtomicUsize>) {
        let drops = Arc::new(AtomicUsize::new(0));
        (
            Counted {
                value,
                drops: drops.clone(),
            },
            drops,
        )
    }

    #[test]
    fn values_drop_once_when_deleted_replaced_or_freed() {
        let u = Universe::new(ThreadLevel::Single);
        let kv = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::Never)
            .unwrap();
        let comm = u.comm_dup(Comm::WORLD).unwrap();

        let (first, first_drops) = counted(1);
        u.set_typed(comm, &kv, first).unwrap();
        assert_eq!(u.get_typed(comm, &kv).unwrap().unwrap().value, 1);
        let (second, second_drops) = counted(2);
        u.set_typed(comm, &kv, second).unwrap();
        assert_eq!(first_drops.load(Ordering::SeqCst), 1, "replaced: dropped");
        u.delete_typed(comm, &kv).unwrap();
        assert_eq!(second_drops.load(Ordering::SeqCst), 1, "deleted: dropped");
        assert!(u.get_typed(comm, &kv).unwrap().is_none());

        let (third, third_drops) = counted(3);
        u.set_typed(comm, &kv, third).unwrap();
        let held = u.get_typed(comm, &kv).unwrap().unwrap();
        u.comm_free(comm).unwrap();
        assert_eq!(
            third_drops.load(Ordering::SeqCst),
            0,
            "still held by the caller"
        );
        drop(held);
        assert_eq!(
            third_drops.load(Ordering::SeqCst),
            1,
            "freed with its object"
        );
        assert_eq!(first_drops.load(Ordering::SeqCst), 1);
        assert_eq!(second_drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn copies_by_clone_by_closure_or_not_at_all() {
        let u = Universe::new(ThreadLevel::Single);
        let cloned = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::by_clone())
            .unwrap();
        let doubled = u
            .create_typed_keyval(
                ObjectKind::Comm,
                TypedCopy::with(|v: &i64| (*v < 100).then_some(v * 2)),
            )
            .unwrap();
        let never = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<String>::Never)
            .unwrap();
        let (value, drops) = counted(7);
        u.set_typed(Comm::WORLD, &cloned, value).unwrap();
        u.set_typed(Comm::WORLD, &doubled, 21).unwrap();
        u.set_typed(Comm::WORLD, &never, "only here".to_string())
            .unwrap();
        let copy = u.comm_dup(Comm::WORLD).unwrap();
        assert_eq!(u.get_typed(copy, &cloned).unwrap().unwrap().value, 7);
        assert_eq!(u.get_typed(copy, &doubled).unwrap().as_deref(), Some(&42));
        assert_eq!(u.get_typed(copy, &never).unwrap(), None);
        let copy_of_copy = u.comm_dup(copy).unwrap();
        assert_eq!(
            u.get_typed(copy_of_copy, &doubled).unwrap().as_deref(),
            Some(&84)
        );
        u.set_typed(copy, &doubled, 500).unwrap();
        let no_copy = u.comm_dup(copy).unwrap();
        assert_eq!(
            u.get_typed(no_copy, &doubled).unwrap(),
            None,
            "the closure said None"
        );
        u.comm_free(copy).unwrap();
        assert_eq!(
            drops.load(Ordering::SeqCst),
            1,
            "the clone went with the copy"
        );
        u.delete_typed(Comm::WORLD, &cloned).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 2);
        u.free_typed_keyval(cloned).unwrap();
        u.free_typed_keyval(doubled).unwrap();
        u.free_typed_keyval(never).unwrap();
    }

    #[test]
    fn a_keyval_of_another_kind_is_refused_and_nothing_is_kept() {
        let u = Universe::new(ThreadLevel::Single);
        let kv = u
            .create_typed_keyval(ObjectKind::Datatype, TypedCopy::<Counted>::Never)
            .unwrap();
        let (value, drops) = counted(1);
        let refused = u.set_typed(Comm::WORLD, &kv, value);
        assert_eq!(
            refused,
            Err(Error::WrongKindKeyval {
                found: ObjectKind::Datatype,
                expected: ObjectKind::Comm
            })
        );
        assert_eq!(
            drops.load(Ordering::SeqCst),
            1,
            "the refused value is dropped"
        );
        let double = Universe::predefined_datatype(0x214).unwrap();
        let pair: Datatype = u.type_contiguous(2, double).unwrap();
        let (value, drops) = counted(2);
        u.set_typed(pair, &kv, value).unwrap();
        u.type_free(pair).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn values_left_go_with_the_universe() {
        let (value, drops) = counted(1);
        {
            let u = Universe::new(ThreadLevel::Single);
            let kv = u
                .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::Never)
                .unwrap();
            let comm = u.comm_dup(Comm::WORLD).unwrap();
            u.set_typed(comm, &kv, value).unwrap();
            u.free_typed_keyval(kv).unwrap();
        }
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn windows_and_finalize() {
        let u = Universe::new(ThreadLevel::Single);
        let kv = u
            .create_typed_keyval(ObjectKind::Win, TypedCopy::<Counted>::by_clone())
            .unwrap();
        let (value, win_drops) = counted(1);
        let win = u.win_create_dynamic(Comm::WORLD).unwrap();
        u.set_typed(win, &kv, value).unwrap();
        assert_eq!(u.get_typed(win, &kv).unwrap().unwrap().value, 1);
        u.win_free(win).unwrap();
        assert_eq!(win_drops.load(Ordering::SeqCst), 1, "freed with its window");

        let on_comms = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::Never)
            .unwrap();
        let (self_value, self_drops) = counted(2);
        let (world_value, world_drops) = counted(3);
        u.set_typed(Comm::SELF, &on_comms, self_value).unwrap();
        u.set_typed(Comm::WORLD, &on_comms, world_value).unwrap();
        u.finalize().unwrap();
        // The keyvals are still held here: the values went with MPI_Finalize all the same.
        assert_eq!(self_drops.load(Ordering::SeqCst), 1);
        assert_eq!(world_drops.load(Ordering::SeqCst), 1);
        drop((kv, on_comms, u));
        assert_eq!(self_drops.load(Ordering::SeqCst), 1);
        assert_eq!(world_drops.load(Ordering::SeqCst), 1);
    }

    /// A value that panics when cloned or dropped, as told.
    struct Fragile {
        clone_panics: bool,
        drop_panics: bool,
        drops: Arc<AtomicUsize>,
    }

    impl Clone for Fragile {
        fn clone(&self) -> Self {
            assert!(!self.clone_panics, "clone refused");
            Fragile {
                drops: self.drops.clone(),
                ..*self
            }
        }
    }

    impl Drop for Fragile {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Ordering::SeqCst);
            if self.drop_panics && !std::thread::panicking() {
                panic!("drop refused");
            }
        }
    }

    #[test]
    fn a_panicking_clone_or_drop_leaves_nothing_half_done() {
        use std::panic::{catch_unwind, AssertUnwindSafe};

        let u = Universe::new(ThreadLevel::Single);
        let kv = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Fragile>::by_clone())
            .unwrap();
        let sturdy = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::by_clone())
            .unwrap();
        let drops = Arc::new(AtomicUsize::new(0));
        let fragile = |clone_panics, drop_panics| Fragile {
            clone_panics,
            drop_panics,
            drops: drops.clone(),
        };
        let (value, counted_drops) = counted(1);
        let comm = u.comm_dup(Comm::WORLD).unwrap();
        // Set first, so copied first: its clone is made before the other one panics.
        u.set_typed(comm, &sturdy, value).unwrap();
        u.set_typed(comm, &kv, fragile(true, false)).unwrap();

        let dup = catch_unwind(AssertUnwindSafe(|| u.comm_dup(comm)));
        assert!(dup.is_err(), "the panic reaches the caller");
        assert_eq!(
            u.object_count(ObjectKind::Comm).unwrap(),
            3,
            "no half-made copy"
        );
        assert_eq!(
            counted_drops.load(Ordering::SeqCst),
            1,
            "the clone made before the panic went with the half-made copy"
        );
        assert_eq!(kv.store.values().by_number.len(), 1);

        // A Drop that panics when its value is replaced: the new value is not kept either.
        u.set_typed(comm, &kv, fragile(false, true)).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        let replaced = catch_unwind(AssertUnwindSafe(|| {
            u.set_typed(comm, &kv, fragile(false, false))
        }));
        assert!(replaced.is_err());
        assert_eq!(drops.load(Ordering::SeqCst), 3, "the old and the new value");
        assert!(u.get_typed(comm, &kv).unwrap().is_none());
        assert_eq!(kv.store.values().by_number.len(), 0);

        // A Drop that panics while its communicator is freed: the communicator stays, with
        // the values not yet dropped, and can be freed again.
        u.set_typed(comm, &kv, fragile(false, true)).unwrap();
        let freed = catch_unwind(AssertUnwindSafe(|| u.comm_free(comm)));
        assert!(freed.is_err());
        assert_eq!(drops.load(Ordering::SeqCst), 4);
        assert!(u.is_valid(comm).unwrap());
        assert_eq!(
            counted_drops.load(Ordering::SeqCst),
            1,
            "older: not dropped yet"
        );
        u.comm_free(comm).unwrap();
        assert_eq!(counted_drops.load(Ordering::SeqCst), 2);
        assert_eq!(drops.load(Ordering::SeqCst), 4, "dropped once");
        assert_eq!(u.object_count(ObjectKind::Comm).unwrap(), 2);
        u.free_typed_keyval(kv).unwrap();
        u.free_typed_keyval(sturdy).unwrap();
        assert_eq!(u.keyval_count().unwrap(), 12, "nothing left pinned");
    }

    #[test]
    fn a_drop_that_panics_in_finalize_still_finalizes() {
        use std::panic::{catch_unwind, AssertUnwindSafe};

        let u = Universe::new(ThreadLevel::Single);
        let kv = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Fragile>::Never)
            .unwrap();
        let plain = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::Never)
            .unwrap();
        let drops = Arc::new(AtomicUsize::new(0));
        let fragile = Fragile {
            clone_panics: false,
            drop_panics: true,
            drops: drops.clone(),
        };
        let (value, world_drops) = counted(1);
        u.set_typed(Comm::SELF, &kv, fragile).unwrap();
        u.set_typed(Comm::WORLD, &plain, value).unwrap();
        let finalized = catch_unwind(AssertUnwindSafe(|| u.finalize()));
        assert!(finalized.is_err(), "the panic reaches the caller");
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(
            world_drops.load(Ordering::SeqCst),
            1,
            "MPI_COMM_WORLD's went too"
        );
        let after = u.create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::Never);
        assert_eq!(
            after.err(),
            Some(Error::Finalized),
            "finalized all the same"
        );
    }

    #[test]
    fn words_set_through_the_number_are_no_typed_values() {
        let u = Universe::new(ThreadLevel::Single);
        let kv = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::by_clone())
            .unwrap();
        let (value, drops) = counted(1);
        u.set_typed(Comm::WORLD, &kv, value).unwrap();
        let other = u.comm_dup(Comm::SELF).unwrap();
        // Words C code could set through the keyval's number.
        for word in [0, 1, 2, 3, -1, Word::MAX] {
            u.set_attr(other, kv.keyval(), Language::C, word).unwrap();
            assert!(u.get_typed(other, &kv).unwrap().is_none(), "word {word}");
            let copy = u.comm_dup(other).unwrap();
            assert!(u.get_typed(copy, &kv).unwrap().is_none());
            u.comm_free(copy).unwrap();
            u.delete_typed(other, &kv).unwrap();
        }
        assert_eq!(
            drops.load(Ordering::SeqCst),
            0,
            "another object's value stays"
        );
        assert_eq!(u.get_typed(Comm::WORLD, &kv).unwrap().unwrap().value, 1);
        u.comm_free(other).unwrap();
        u.delete_typed(Comm::WORLD, &kv).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn threads_share_a_typed_keyval() {
        let u = Universe::new(ThreadLevel::Multiple);
        let kv = u
            .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Vec<usize>>::by_clone())
            .unwrap();
        std::thread::scope(|s| {
            for t in 0..4 {
                let (u, kv) = (&u, &kv);
                s.spawn(move || {
                    for i in 0..200 {
                        let comm = u.comm_dup(Comm::WORLD).unwrap();
                        u.set_typed(comm, kv, vec![t, i]).unwrap();
                        let copy = u.comm_dup(comm).unwrap();
                        assert_eq!(*u.get_typed(copy, kv).unwrap().unwrap(), vec![t, i]);
                        u.comm_free(copy).unwrap();
                        u.comm_free(comm).unwrap();
                    }
                });
            }
        });
        assert_eq!(kv.store.values().by_number.len(), 0, "every value went");
    }
}
