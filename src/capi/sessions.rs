//! Sessions (MPI-4.1 §12.3): the process sets "mpi://WORLD" and "mpi://SELF" (both the one
//! process), groups made from them, and each session's info and error handler.

use std::ffi::{c_char, c_int};

use super::groups::string;
use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::info::write_with_length;
use super::{universe, Out};
use crate::abi::{MPI_Errhandler, MPI_Fint, MPI_Group, MPI_Info, MPI_Session};
use crate::engine::{Error, Result};
use crate::ffi::{self, errhandler_from_value};

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Starts a session with the hints of `info` and the error handler given.
pub(super) fn session_init(
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    session: &mut Out<MPI_Session>,
) -> Result<()> {
    let info = handles::info_or_null(info)?;
    let handler = errhandler_from_value(errhandler as usize)?;
    session.set(encode_handle(ffi::session_init(info, handler)?));
    Ok(())
}

/// Ends a session and sets the handle to MPI_SESSION_NULL.
pub(super) fn session_finalize(session: &mut Out<MPI_Session>) -> Result<()> {
    ffi::session_finalize(handles::session(session.get())?)?;
    session.set(null());
    Ok(())
}

/// The number of process sets the session sees: 2.
pub(super) fn session_get_num_psets(
    session: MPI_Session,
    info: MPI_Info,
    npset_names: &mut Out<c_int>,
) -> Result<()> {
    let session = handles::session(session)?;
    handles::check_info(info)?;
    npset_names.set(universe()?.session_num_psets(session)? as c_int);
    Ok(())
}

/// The name of process set `n` (from 0), with the buffer protocol of MPI_Info_get_string:
/// `*pset_len` 0 asks for the length (plus one) only.
pub(super) unsafe fn session_get_nth_pset(
    session: MPI_Session,
    info: MPI_Info,
    n: c_int,
    pset_len: &mut Out<c_int>,
    pset_name: *mut c_char,
) -> Result<()> {
    let session = handles::session(session)?;
    handles::check_info(info)?;
    let size =
        usize::try_from(pset_len.get()).map_err(|_| Error::InvalidArgument("pset_len < 0"))?;
    let name = universe()?.session_nth_pset(session, n)?.as_bytes();
    let fitting = &name[..name.len().min(size.saturating_sub(1))];
    // SAFETY: `pset_name` has `*pset_len` bytes (the caller's contract).
    unsafe { write_with_length(pset_name, pset_len, fitting, name.len() + 1, "pset_name") }
}

/// A new info object describing a process set: its `mpi_size`, "1".
pub(super) unsafe fn session_get_pset_info(
    session: MPI_Session,
    pset_name: *const c_char,
    info: &mut Out<MPI_Info>,
) -> Result<()> {
    let session = handles::session(session)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let name = unsafe { string(pset_name, "pset_name") }?;
    info.set(encode_handle(universe()?.session_pset_info(session, name)?));
    Ok(())
}

/// A new info object with the hints the session was started with.
pub(super) fn session_get_info(session: MPI_Session, info_used: &mut Out<MPI_Info>) -> Result<()> {
    let session = handles::session(session)?;
    info_used.set(encode_handle(universe()?.session_get_info(session)?));
    Ok(())
}

/// A new group of a process set's processes (the one process).
pub(super) unsafe fn group_from_session_pset(
    session: MPI_Session,
    pset_name: *const c_char,
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let session = handles::session(session)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let name = unsafe { string(pset_name, "pset_name") }?;
    newgroup.set(encode_handle(
        universe()?.group_from_session_pset(session, name)?,
    ));
    Ok(())
}

/// Sets a session's error handler.
pub(super) fn session_set_errhandler(
    session: MPI_Session,
    errhandler: MPI_Errhandler,
) -> Result<()> {
    let session = handles::session(session)?;
    let handler = errhandler_from_value(errhandler as usize)?;
    universe()?.session_set_errhandler(session, handler)
}

/// A session's error handler.
pub(super) fn session_get_errhandler(
    session: MPI_Session,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    let session = handles::session(session)?;
    let handler = universe()?.session_errhandler(session)?;
    errhandler.set(ffi::errhandler_get(handler)? as MPI_Errhandler);
    Ok(())
}

/// Runs a session's error handler on `errorcode`: returns MPI_SUCCESS after
/// MPI_ERRORS_RETURN, reports and exits under the others.
pub(super) fn session_call_errhandler(session: MPI_Session, errorcode: c_int) -> Result<()> {
    let handle = session;
    let session = handles::session(session)?;
    // At any time (MPI-4.1 §12.4.1): the session is alive or the handle is invalid.
    let handler = ffi::anytime()?.session_errhandler(session)?;
    ffi::call_handler(
        "MPI_Session_call_errhandler",
        &format!("session={:#x}", handle as usize),
        crate::engine::ErrhandlerObject::Session(session),
        handler,
        errorcode,
    )
}

/// The Fortran integer of a session.
pub(super) fn session_c2f(session: MPI_Session) -> MPI_Fint {
    to_fortran(session) as MPI_Fint
}

/// The session of a Fortran integer (MPI_SESSION_NULL if it names none).
pub(super) fn session_f2c(session: MPI_Fint) -> MPI_Session {
    from_fortran(session as i64)
}
