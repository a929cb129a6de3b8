//! Error classes, strings and handlers.

use std::ffi::{c_char, c_int};

use super::{handles, mpi_functions, universe, Out, Target};
use crate::abi::{self, MPI_Comm, MPI_Errhandler, MPI_Win};
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

mpi_functions! {
    /// The class of an error code (every valid code is a class).
    fn MPI_Error_class / PMPI_Error_class(errorcode: c_int, errorclass: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut errorclass = unsafe { Out::new(errorclass, "errorclass") }?;
        errorclass.set(ffi::class_of(errorcode)? as c_int);
        Ok(())
    }

    /// "MPI_ERR_KEYVAL: invalid attribute keyval" and so on.
    fn MPI_Error_string / PMPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) on Target::SelfComm => {
        let text = ffi::error_string(errorcode)?;
        // SAFETY: `string` has room for MPI_MAX_ERROR_STRING characters (the standard's
        // requirement on the caller); `resultlen` is an output argument.
        unsafe {
            let mut resultlen = Out::new(resultlen, "resultlen")?;
            Out::new(string, "string")?;
            write_string(string, abi::MPI_MAX_ERROR_STRING as usize, text.as_bytes(), &mut resultlen);
        }
        Ok(())
    }

    /// Sets a communicator's error handler.
    fn MPI_Comm_set_errhandler / PMPI_Comm_set_errhandler(comm: MPI_Comm, errhandler: MPI_Errhandler) on Target::Comm(comm) => {
        ffi::set_comm_errhandler(handles::comm(comm), errhandler as usize)
    }

    /// A communicator's error handler.
    fn MPI_Comm_get_errhandler / PMPI_Comm_get_errhandler(comm: MPI_Comm, errhandler: *mut MPI_Errhandler) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut out = unsafe { Out::new(errhandler, "errhandler") }?;
        out.set(handle(errhandler_value(ffi::comm_errhandler(handles::comm(comm))?)));
        Ok(())
    }

    /// Sets a window's error handler.
    fn MPI_Win_set_errhandler / PMPI_Win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) on Target::Win(win) => {
        let win = handles::win(win)?;
        universe()?.set_errhandler(win, errhandler_from_value(errhandler as usize)?)
    }

    /// A window's error handler.
    fn MPI_Win_get_errhandler / PMPI_Win_get_errhandler(win: MPI_Win, errhandler: *mut MPI_Errhandler) on Target::Win(win) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut out = unsafe { Out::new(errhandler, "errhandler") }?;
        out.set(handle(errhandler_value(universe()?.errhandler(handles::win(win)?)?)));
        Ok(())
    }

    /// Releases a handle to an error handler (all are predefined): sets it to
    /// MPI_ERRHANDLER_NULL.
    fn MPI_Errhandler_free / PMPI_Errhandler_free(errhandler: *mut MPI_Errhandler) on Target::SelfComm => {
        // SAFETY: an MPI in-out argument: NULL or valid.
        let mut errhandler = unsafe { Out::new(errhandler, "errhandler") }?;
        ffi::errhandler_free(errhandler.get() as usize)?;
        errhandler.set(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize as MPI_Errhandler);
        Ok(())
    }
}
