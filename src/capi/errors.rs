//! Error classes, strings and handlers.

use std::ffi::{c_char, c_int};

use super::{handles, universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Errhandler, MPI_Win};
use crate::engine::Result;
use crate::ffi::{self, errhandler_from_value, errhandler_value};

/// Copies `text` into a C buffer of `capacity` bytes (truncating, always NUL-terminated) and
/// stores its length.
///
/// # Safety
/// `buffer` is valid for writes of `capacity` bytes and `capacity` is at least 1.
pub(crate) unsafe fn write_string(
    buffer: *mut c_char,
    capacity: usize,
    text: &[u8],
    length: &mut Out<c_int>,
) {
    let bytes = &text[..text.len().min(capacity - 1)];
    // SAFETY: `bytes.len() + 1 <= capacity`, within the buffer (the caller's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.cast::<u8>(), bytes.len());
        buffer.add(bytes.len()).write(0);
    }
    length.set(bytes.len() as c_int);
}

fn handle(value: usize) -> MPI_Errhandler {
    value as MPI_Errhandler
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// The class of an error code (every valid code is a class).
pub(super) fn error_class(errorcode: c_int, errorclass: &mut Out<c_int>) -> Result<()> {
    errorclass.set(ffi::class_of(errorcode)? as c_int);
    Ok(())
}

/// "MPI_ERR_KEYVAL: invalid attribute keyval" and so on.
pub(super) unsafe fn error_string(
    errorcode: c_int,
    string: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    let text = ffi::error_string(errorcode)?;
    // SAFETY: `string` has room for MPI_MAX_ERROR_STRING characters (the standard's
    // requirement on the caller); `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(string, "string")?;
        write_string(
            string,
            abi::MPI_MAX_ERROR_STRING as usize,
            text.as_bytes(),
            &mut resultlen,
        );
    }
    Ok(())
}

/// Sets a communicator's error handler.
pub(super) fn comm_set_errhandler(comm: MPI_Comm, errhandler: MPI_Errhandler) -> Result<()> {
    ffi::set_comm_errhandler(handles::comm(comm), errhandler as usize)
}

/// A communicator's error handler.
pub(super) fn comm_get_errhandler(
    comm: MPI_Comm,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    errhandler.set(handle(errhandler_value(ffi::comm_errhandler(
        handles::comm(comm),
    )?)));
    Ok(())
}

/// Sets a window's error handler.
pub(super) fn win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) -> Result<()> {
    let win = handles::win(win)?;
    universe()?.set_errhandler(win, errhandler_from_value(errhandler as usize)?)
}

/// A window's error handler.
pub(super) fn win_get_errhandler(win: MPI_Win, errhandler: &mut Out<MPI_Errhandler>) -> Result<()> {
    errhandler.set(handle(errhandler_value(
        universe()?.errhandler(handles::win(win)?)?,
    )));
    Ok(())
}

/// Releases a handle to an error handler (all are predefined): sets it to
/// MPI_ERRHANDLER_NULL.
pub(super) fn errhandler_free(errhandler: &mut Out<MPI_Errhandler>) -> Result<()> {
    ffi::errhandler_free(errhandler.get() as usize)?;
    errhandler.set(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize as MPI_Errhandler);
    Ok(())
}
