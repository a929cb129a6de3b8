//! Communicators and the requests of MPI_Comm_idup.

use std::ffi::{c_char, c_int, CStr};

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Fint, MPI_Info, MPI_Request};
use crate::engine::{Error, Result};
use crate::ffi;

/// Duplicates `comm` into `*newcomm`, which is MPI_COMM_NULL if the duplication fails.
fn dup_into(comm: MPI_Comm, newcomm: &mut Out<MPI_Comm>) -> Result<()> {
    let result = handles::comm(comm).and_then(|comm| universe()?.comm_dup(comm));
    newcomm.set(result.as_ref().map_or(null(), |new| encode_handle(*new)));
    result.map(drop)
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Duplicates a communicator with its attributes (copy callbacks run in set order).
pub(super) fn comm_dup(comm: MPI_Comm, newcomm: &mut Out<MPI_Comm>) -> Result<()> {
    dup_into(comm, newcomm)
}

/// MPI_Comm_dup with the hints of `info` (those a communicator keeps) instead of the
/// parent's.
pub(super) fn comm_dup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: &mut Out<MPI_Comm>,
) -> Result<()> {
    let result = handles::info_or_null(info)
        .and_then(|info| universe()?.comm_dup_with_hints(handles::comm(comm)?, info));
    newcomm.set(result.as_ref().map_or(null(), |new| encode_handle(*new)));
    result.map(drop)
}

/// Nonblocking MPI_Comm_dup: complete on return, with a complete request.
pub(super) fn comm_idup(
    comm: MPI_Comm,
    newcomm: &mut Out<MPI_Comm>,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let result = handles::comm(comm).and_then(|comm| universe()?.comm_idup(comm));
    match result {
        Ok((new, done)) => {
            newcomm.set(encode_handle(new));
            request.set(encode_handle(done));
            Ok(())
        }
        Err(error) => {
            newcomm.set(null());
            Err(error)
        }
    }
}

/// Splits a communicator: MPI_UNDEFINED gives MPI_COMM_NULL, any other colour a new
/// communicator without attributes.
pub(super) fn comm_split(
    comm: MPI_Comm,
    color: c_int,
    key: c_int,
    newcomm: &mut Out<MPI_Comm>,
) -> Result<()> {
    let _ = key;
    let new = ffi::comm_split(handles::comm(comm), color.into())?;
    newcomm.set(new.map_or(null(), encode_handle));
    Ok(())
}

/// Frees a communicator after deleting its attributes (newest first); sets the handle to
/// MPI_COMM_NULL. If a delete callback fails the communicator stays valid.
pub(super) fn comm_free(comm: &mut Out<MPI_Comm>) -> Result<()> {
    universe()?.comm_free(handles::comm(comm.get())?)?;
    comm.set(null());
    Ok(())
}

/// The rank of the process: 0.
pub(super) fn comm_rank(comm: MPI_Comm, rank: &mut Out<c_int>) -> Result<()> {
    ffi::live_comm(handles::comm(comm))?;
    rank.set(0);
    Ok(())
}

/// The size of every communicator: 1.
pub(super) fn comm_size(comm: MPI_Comm, size: &mut Out<c_int>) -> Result<()> {
    ffi::live_comm(handles::comm(comm))?;
    size.set(1);
    Ok(())
}

/// MPI_IDENT for the same communicator, MPI_CONGRUENT for two (each holds the one process).
pub(super) fn comm_compare(
    comm1: MPI_Comm,
    comm2: MPI_Comm,
    result: &mut Out<c_int>,
) -> Result<()> {
    result.set(ffi::comm_compare(
        handles::comm(comm1),
        handles::comm(comm2),
    )?);
    Ok(())
}

/// Names a communicator (at most MPI_MAX_OBJECT_NAME - 1 bytes are kept).
pub(super) unsafe fn comm_set_name(comm: MPI_Comm, comm_name: *const c_char) -> Result<()> {
    if comm_name.is_null() {
        return Err(Error::NullArgument("comm_name"));
    }
    // SAFETY: a non-null pointer to a NUL-terminated string (the caller's contract).
    let name = ffi::object_name(unsafe { CStr::from_ptr(comm_name) }.to_bytes());
    universe()?.set_comm_name(handles::comm(comm)?, name)
}

/// A communicator's name.
pub(super) unsafe fn comm_get_name(
    comm: MPI_Comm,
    comm_name: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    let name = universe()?.comm_name(handles::comm(comm)?)?;
    // SAFETY: `comm_name` has room for MPI_MAX_OBJECT_NAME characters (the standard's
    // requirement on the caller); `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(comm_name, "comm_name")?;
        super::errors::write_string(
            comm_name,
            abi::MPI_MAX_OBJECT_NAME as usize,
            &name,
            &mut resultlen,
        );
    }
    Ok(())
}

/// The Fortran integer of a communicator.
pub(super) fn comm_c2f(comm: MPI_Comm) -> MPI_Fint {
    to_fortran(comm) as MPI_Fint
}

/// The communicator of a Fortran integer (MPI_COMM_NULL if it names none).
pub(super) fn comm_f2c(comm: MPI_Fint) -> MPI_Comm {
    from_fortran(comm as i64)
}
