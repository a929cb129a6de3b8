//! Environment: MPI_Init … MPI_Wtick.

use std::ffi::{c_char, c_double, c_int};

use super::{handles, universe, Out};
use crate::abi::{self, MPI_Comm};
use crate::engine::{Result, ThreadLevel};
use crate::ffi::{self, thread_level_value, LIBRARY_VERSION};

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Initializes the library with MPI_THREAD_SINGLE: only this thread may call MPI.
pub(super) fn init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> Result<()> {
    let _ = (argc, argv);
    ffi::initialize(ThreadLevel::Single, None)
}

/// Initializes the library; always provides MPI_THREAD_MULTIPLE.
pub(super) fn init_thread(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    required: c_int,
    provided: &mut Out<c_int>,
) -> Result<()> {
    let _ = (argc, argv);
    ffi::initialize(ThreadLevel::Multiple, Some(required))?;
    provided.set(thread_level_value(ThreadLevel::Multiple));
    Ok(())
}

/// The thread level provided at initialization.
pub(super) fn query_thread(provided: &mut Out<c_int>) -> Result<()> {
    provided.set(thread_level_value(universe()?.thread_level()));
    Ok(())
}

/// Whether the calling thread initialized MPI.
pub(super) fn is_thread_main(flag: &mut Out<c_int>) -> Result<()> {
    flag.set(universe()?.is_main_thread() as c_int);
    Ok(())
}

/// Deletes the attributes of MPI_COMM_SELF, MPI_COMM_WORLD and the predefined datatypes
/// (in that order, with delete callbacks), then ends the library.
pub(super) fn finalize() -> Result<()> {
    ffi::finalize()
}

/// Whether MPI_Init has been called (true after MPI_Finalize too).
pub(super) fn initialized(flag: &mut Out<c_int>) -> Result<()> {
    flag.set(ffi::initialized() as c_int);
    Ok(())
}

/// Whether MPI_Finalize has completed.
pub(super) fn finalized(flag: &mut Out<c_int>) -> Result<()> {
    flag.set(ffi::finalized() as c_int);
    Ok(())
}

/// Prints one line and ends the process with status `errorcode & 255`.
pub(super) fn abort(comm: MPI_Comm, errorcode: c_int) -> Result<()> {
    let name = handles::predefined_name(comm as usize)
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:#x}", comm as usize));
    ffi::abort("MPI_Abort", &name, errorcode.into())
}

/// The MPI version: 5.0.
pub(super) fn get_version(version: &mut Out<c_int>, subversion: &mut Out<c_int>) -> Result<()> {
    version.set(abi::MPI_VERSION as c_int);
    subversion.set(abi::MPI_SUBVERSION as c_int);
    Ok(())
}

/// The library's name and version.
pub(super) unsafe fn get_library_version(
    version: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    // SAFETY: `version` has room for MPI_MAX_LIBRARY_VERSION_STRING characters, as the
    // standard requires of the caller; `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(version, "version")?;
        super::errors::write_string(
            version,
            abi::MPI_MAX_LIBRARY_VERSION_STRING as usize,
            LIBRARY_VERSION.as_bytes(),
            &mut resultlen,
        );
    }
    Ok(())
}

/// Seconds since a fixed time in the past (the first call), from a monotonic clock.
pub(super) fn wtime() -> c_double {
    ffi::wtime()
}

/// The resolution of MPI_Wtime: one nanosecond.
pub(super) fn wtick() -> c_double {
    ffi::WTICK
}
