//! # mpiattr
//!
//! MPI attribute caching for programs that run as one MPI process: keyvals, attributes on
//! communicators, datatypes and windows, copy and delete callbacks, exactly as the MPI-4.1
//! standard specifies them, for C (through `include/mpi.h`, on the MPI-5.0 standard ABI),
//! Fortran and Rust.
//!
//! The crate has three layers, each in its own module:
//! - [`engine`] (re-exported at the top): the safe Rust API, with no FFI in it;
//! - `capi`: the C functions `MPI_*` and `PMPI_*`, a thin shell over the engine;
//! - the Fortran bindings, another thin shell (next).
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(not(target_pointer_width = "64"))]
compile_error!("mpiattr supports 64-bit targets only");
#[cfg(not(target_endian = "little"))]
compile_error!("mpiattr supports little-endian targets only (C views of Fortran INTEGERs)");

#[doc(hidden)]
pub mod abi;
mod capi;
pub mod engine;
mod ffi;
mod fortran;

/// The README's Rust example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The datatype engine: type maps, their constructors and memory operations.
pub use engine::typemap;
pub use engine::{
    AnyObject, Comm, CopyAction, CopyCallback, Datatype, DeleteAction, DeleteCallback, Error,
    ErrorClass, ErrorHandler, Fint, HandleProblem, Id, Keyval, KeyvalSpec, Language, Object,
    ObjectKind, Request, Result, ThreadLevel, TypedCopy, TypedKeyval, Universe, Win, WinFlavor,
    Word, MAX_LIVE_OBJECTS,
};
pub use engine::{Envelope, TypeClass, TypeContents};
