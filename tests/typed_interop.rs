//! Typed attributes made from Rust on the universe the C functions work on
//! ([`mpiattr::mpi_universe`]): C's `MPI_Comm_dup` runs their Rust copy (`Clone`), C's
//! `MPI_Comm_free` and `MPI_Finalize` their `Drop`, exactly once each; C reads them by the
//! keyval's number; and a copy closure that panics under C's `MPI_Comm_dup` gives C an error
//! code, with no half-made communicator left.
//!
//! One test in its own program: `MPI_Init` and `MPI_Finalize` happen once per process.

use std::ffi::{c_int, c_void};
use std::ptr::{null_mut, NonNull};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mpiattr::{mpi_universe, Comm, ErrorHandler, ObjectKind, TypedCopy};

type Handle = *mut c_void;

extern "C" {
    fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut i8) -> c_int;
    fn MPI_Finalize() -> c_int;
    fn MPI_Comm_dup(comm: Handle, newcomm: *mut Handle) -> c_int;
    fn MPI_Comm_free(comm: *mut Handle) -> c_int;
    fn MPI_Comm_get_attr(
        comm: Handle,
        keyval: c_int,
        value: *mut c_void,
        flag: *mut c_int,
    ) -> c_int;
}

/// A value that counts its clones and drops.
struct Counted {
    value: u32,
    clones: Arc<AtomicUsize>,
    drops: Arc<AtomicUsize>,
}

impl Clone for Counted {
    fn clone(&self) -> Self {
        self.clones.fetch_add(1, Ordering::SeqCst);
        Counted {
            value: self.value + 1,
            clones: self.clones.clone(),
            drops: self.drops.clone(),
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

fn dup(comm: Handle) -> (c_int, Handle) {
    let mut new: Handle = null_mut();
    // SAFETY: MPI_Comm_dup reads a handle and writes one to the valid pointer it is given.
    let rc = unsafe { MPI_Comm_dup(comm, &mut new) };
    (rc, new)
}

#[test]
fn c_duplicates_and_frees_run_the_rust_copy_and_drop() {
    assert!(mpi_universe().is_none(), "no universe before MPI_Init");
    // SAFETY: MPI_Init accepts null argc and argv.
    assert_eq!(unsafe { MPI_Init(null_mut(), null_mut()) }, 0);
    let universe = mpi_universe().expect("the universe after MPI_Init");
    universe
        .set_errhandler(Comm::WORLD, ErrorHandler::Return)
        .unwrap();
    let world = Comm::WORLD.c_handle() as Handle;

    let (clones, drops) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let keyval = universe
        .create_typed_keyval(ObjectKind::Comm, TypedCopy::<Counted>::by_clone())
        .unwrap();
    let value = Counted {
        value: 1,
        clones: clones.clone(),
        drops: drops.clone(),
    };
    universe.set_typed(Comm::WORLD, &keyval, value).unwrap();

    // C duplicates MPI_COMM_WORLD: the Rust clone is the copy's value.
    let (rc, copy) = dup(world);
    assert_eq!(rc, 0);
    assert_eq!(clones.load(Ordering::SeqCst), 1);
    let copy_comm = Comm::from_c_handle(copy as usize).unwrap();
    assert_eq!(copy_comm.c_handle(), copy as usize);
    let seen = universe.get_typed(copy_comm, &keyval).unwrap().unwrap();
    assert_eq!(seen.value, 2);
    drop(seen);
    // C sees that the copy has a value for the keyval, by its number.
    let (mut word, mut flag) = (0usize, 0 as c_int);
    let keyval_number = keyval.keyval().0;
    // SAFETY: MPI_Comm_get_attr writes a pointer-sized word and a flag to valid pointers.
    let rc = unsafe {
        MPI_Comm_get_attr(
            copy,
            keyval_number,
            NonNull::from(&mut word).cast().as_ptr(),
            &mut flag,
        )
    };
    assert_eq!((rc, flag), (0, 1));

    // C frees the copy: its value is dropped, once.
    let mut freed = copy;
    // SAFETY: MPI_Comm_free takes a pointer to a valid handle variable.
    assert_eq!(unsafe { MPI_Comm_free(&mut freed) }, 0);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    assert!(Comm::from_c_handle(0).is_err(), "a null handle is refused");

    // A copy closure that panics under C's MPI_Comm_dup: C gets an error code, the panic
    // stops at the library's boundary, and no half-made communicator stays.
    let refusing = universe
        .create_typed_keyval(
            ObjectKind::Comm,
            TypedCopy::with(|_: &String| -> Option<String> { panic!("no copies") }),
        )
        .unwrap();
    universe
        .set_typed(Comm::WORLD, &refusing, "only here".to_string())
        .unwrap();
    let before = universe.object_count(ObjectKind::Comm).unwrap();
    let (rc, _) = dup(world);
    assert_ne!(rc, 0, "the panic is an error for C");
    assert_eq!(universe.object_count(ObjectKind::Comm).unwrap(), before);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        2,
        "the Counted clone made before the panic went with the half-made copy"
    );
    assert_eq!(clones.load(Ordering::SeqCst), 2);

    // MPI_Finalize drops MPI_COMM_WORLD's value, once.
    // SAFETY: no arguments.
    assert_eq!(unsafe { MPI_Finalize() }, 0);
    assert_eq!(drops.load(Ordering::SeqCst), 3);
    assert!(mpi_universe().is_none(), "no universe after MPI_Finalize");
    drop((keyval, refusing));
    assert_eq!(drops.load(Ordering::SeqCst), 3);
}
