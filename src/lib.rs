//! # mpiattr
//!
//! MPI attribute caching for programs that run as one MPI process: keyvals, attributes on
//! communicators, datatypes and windows, copy and delete callbacks, exactly as the MPI-4.1
//! standard specifies them, for C (through `include/mpi.h`, on the MPI-5.0 standard ABI),
//! Fortran and Rust.
//!
//! The crate has three layers, each in its own module:
//! - [`engine`] (re-exported at the top): the safe Rust API, with no FFI in it;
//! - `callbacks`: the calls of C and Fortran copy and delete callbacks, for every front end;
//! - `capi`: the C functions `MPI_*` and `PMPI_*`, a thin shell over the engine;
//! - the Fortran bindings, another thin shell (next);
//! - `layer` (with the feature `layer`, instead of the two shells): the attribute chapter on
//!   top of a real MPI (MPICH, Open MPI), the engine behind a third front end;
//! - [`mpi_universe`]: the universe the C and Fortran functions work on, for Rust code in the
//!   same program.
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
// The layer uses the engine's attribute chapter only: the shells' fast paths go unused.
#![cfg_attr(feature = "layer", allow(dead_code))]

#[cfg(not(target_pointer_width = "64"))]
compile_error!("mpiattr supports 64-bit targets only");
#[cfg(not(target_endian = "little"))]
compile_error!("mpiattr supports little-endian targets only (C views of Fortran INTEGERs)");

#[doc(hidden)]
pub mod abi;
mod callbacks;
#[cfg(not(feature = "layer"))]
mod capi;
pub mod engine;
#[cfg(not(feature = "layer"))]
mod ffi;
#[cfg(not(feature = "layer"))]
mod fortran;
#[cfg(feature = "layer")]
mod layer;

/// The README's Rust example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The datatype engine: type maps, their constructors and memory operations.
pub use engine::typemap;
pub use engine::{
    AnyObject, Comm, Comparison, CopyAction, CopyCallback, Datatype, DeleteAction, DeleteCallback,
    Error, ErrorClass, ErrorHandler, Fint, Group, GroupData, HandleProblem, Id, Info, InfoData,
    InfoString, Keyval, KeyvalSpec, Language, Object, ObjectKind, ProcessFence, Request, Result,
    SplitType, ThreadLevel, TypedCopy, TypedKeyval, Universe, Win, WinFlavor, Word,
    MAX_LIVE_OBJECTS, MAX_STRINGTAG_LEN,
};
pub use engine::{
    AttachedBuffer, BufferScope, Completion, Delivery, Envelope, GeneralizedRequest, MessageHandle,
    SendMode, Status, UserBuffer, ANY_SOURCE, ANY_TAG, BSEND_OVERHEAD, PROC_NULL, TAG_UB,
    UNDEFINED,
};

/// The universe the C and Fortran functions work on, from `MPI_Init` (or `MPI_Init_thread`)
/// to `MPI_Finalize`; `None` before and after. Keyvals made on it, typed ones too, are the C
/// and Fortran code's keyvals: their values are seen there by the keyval's number, and an
/// `MPI_Comm_dup` or `MPI_Comm_free` called from C runs their Rust copy and delete. C handles
/// and these objects convert with [`Comm::from_c_handle`] and [`Comm::c_handle`] (and the
/// same on [`Datatype`] and [`Win`]).
#[cfg(not(feature = "layer"))]
pub fn mpi_universe() -> Option<&'static Universe> {
    ffi::current()
}
pub use engine::{TypeClass, TypeContents, TypeEnvelope};

/// Linux's `membarrier` (expedited, private; the process is registered for it here) as a
/// [`ProcessFence`] for [`Universe::with_process_fence`], as the C and Fortran shells give
/// their universe; `None` if the kernel has none.
///
/// ```
/// use mpiattr::{Comm, ThreadLevel, Universe};
///
/// let mut universe = Universe::new(ThreadLevel::Multiple);
/// if let Some(fence) = mpiattr::membarrier_fence() {
///     universe = universe.with_process_fence(fence);
/// }
/// assert_eq!(universe.comm_name(Comm::WORLD)?, b"MPI_COMM_WORLD");
/// # Ok::<(), mpiattr::Error>(())
/// ```
#[cfg(not(feature = "layer"))]
pub fn membarrier_fence() -> Option<ProcessFence> {
    ffi::membarrier_fence()
}
