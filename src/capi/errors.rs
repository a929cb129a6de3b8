//! Error classes, strings and handlers.

use std::ffi::{c_char, c_int};
use std::sync::atomic::Ordering;

use super::{class_of, handles, mpi_functions, outside_slot, universe, Out, Target};
use crate::abi::{self, MPI_Comm, MPI_Errhandler, MPI_Win};
use crate::engine::{Error, ErrorHandler, Result};

/// Copies `text` into a C buffer of `capacity` bytes (truncating, always NUL-terminated) and
/// stores its length.
///
/// # Safety
/// `buffer` is valid for writes of `capacity` bytes and `capacity` is at least 1.
pub(crate) unsafe fn write_string(
    buffer: *mut c_char,
    capacity: usize,
    text: &str,
    length: &mut Out<c_int>,
) {
    let bytes = &text.as_bytes()[..text.len().min(capacity - 1)];
    // SAFETY: `bytes.len() + 1 <= capacity`, within the buffer (the caller's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.cast::<u8>(), bytes.len());
        buffer.add(bytes.len()).write(0);
    }
    length.set(bytes.len() as c_int);
}

/// The engine's handler for a C error handler handle.
fn handler(errhandler: MPI_Errhandler) -> Result<ErrorHandler> {
    match errhandler as usize {
        v if v == abi::MPIATTR_HANDLE_MPI_ERRORS_ARE_FATAL as usize => Ok(ErrorHandler::Fatal),
        v if v == abi::MPIATTR_HANDLE_MPI_ERRORS_ABORT as usize => Ok(ErrorHandler::Abort),
        v if v == abi::MPIATTR_HANDLE_MPI_ERRORS_RETURN as usize => Ok(ErrorHandler::Return),
        _ => Err(Error::InvalidErrhandler),
    }
}

fn handler_handle(handler: ErrorHandler) -> MPI_Errhandler {
    (match handler {
        ErrorHandler::Fatal => abi::MPIATTR_HANDLE_MPI_ERRORS_ARE_FATAL,
        ErrorHandler::Abort => abi::MPIATTR_HANDLE_MPI_ERRORS_ABORT,
        ErrorHandler::Return => abi::MPIATTR_HANDLE_MPI_ERRORS_RETURN,
    }) as usize as MPI_Errhandler
}

/// Sets a communicator's handler; the predefined communicators' handlers can be set before
/// MPI_Init and after MPI_Finalize too (docs/semantics.md).
fn set_comm_handler(comm: MPI_Comm, errhandler: MPI_Errhandler) -> Result<()> {
    let comm = handles::comm(comm)?;
    let new = handler(errhandler)?;
    match (universe(), outside_slot(comm)) {
        (Ok(universe), _) => universe.set_errhandler(comm, new),
        (Err(_), Some(slot)) => {
            slot.store(new as u8, Ordering::Relaxed);
            Ok(())
        }
        (Err(error), None) => Err(error),
    }
}

fn comm_handler(comm: MPI_Comm) -> Result<ErrorHandler> {
    let comm = handles::comm(comm)?;
    match (universe(), outside_slot(comm)) {
        (Ok(universe), _) => universe.errhandler(comm),
        (Err(_), Some(slot)) => Ok(super::handler_from_u8(slot.load(Ordering::Relaxed))),
        (Err(error), None) => Err(error),
    }
}

mpi_functions! {
    /// The class of an error code (every valid code is a class).
    fn MPI_Error_class / PMPI_Error_class(errorcode: c_int, errorclass: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut errorclass = unsafe { Out::new(errorclass, "errorclass") }?;
        errorclass.set(class_of(errorcode)? as c_int);
        Ok(())
    }

    /// "MPI_ERR_KEYVAL: invalid attribute keyval" and so on.
    fn MPI_Error_string / PMPI_Error_string(errorcode: c_int, string: *mut c_char, resultlen: *mut c_int) on Target::SelfComm => {
        let class = class_of(errorcode)?;
        let text = format!("{}: {}", class.name(), class.description());
        // SAFETY: `string` has room for MPI_MAX_ERROR_STRING characters (the standard's
        // requirement on the caller); `resultlen` is an output argument.
        unsafe {
            let mut resultlen = Out::new(resultlen, "resultlen")?;
            Out::new(string, "string")?;
            write_string(string, abi::MPI_MAX_ERROR_STRING as usize, &text, &mut resultlen);
        }
        Ok(())
    }

    /// Sets a communicator's error handler.
    fn MPI_Comm_set_errhandler / PMPI_Comm_set_errhandler(comm: MPI_Comm, errhandler: MPI_Errhandler) on Target::Comm(comm) => {
        set_comm_handler(comm, errhandler)
    }

    /// A communicator's error handler.
    fn MPI_Comm_get_errhandler / PMPI_Comm_get_errhandler(comm: MPI_Comm, errhandler: *mut MPI_Errhandler) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut out = unsafe { Out::new(errhandler, "errhandler") }?;
        out.set(handler_handle(comm_handler(comm)?));
        Ok(())
    }

    /// Sets a window's error handler.
    fn MPI_Win_set_errhandler / PMPI_Win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) on Target::Win(win) => {
        let win = handles::win(win)?;
        universe()?.set_errhandler(win, handler(errhandler)?)
    }

    /// A window's error handler.
    fn MPI_Win_get_errhandler / PMPI_Win_get_errhandler(win: MPI_Win, errhandler: *mut MPI_Errhandler) on Target::Win(win) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut out = unsafe { Out::new(errhandler, "errhandler") }?;
        out.set(handler_handle(universe()?.errhandler(handles::win(win)?)?));
        Ok(())
    }

    /// Releases a handle to an error handler (all are predefined): sets it to
    /// MPI_ERRHANDLER_NULL.
    fn MPI_Errhandler_free / PMPI_Errhandler_free(errhandler: *mut MPI_Errhandler) on Target::SelfComm => {
        // SAFETY: an MPI in-out argument: NULL or valid.
        let mut errhandler = unsafe { Out::new(errhandler, "errhandler") }?;
        handler(errhandler.get())?;
        universe()?;
        errhandler.set(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize as MPI_Errhandler);
        Ok(())
    }
}
