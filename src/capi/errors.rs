//! Error classes, strings and handlers.

use std::ffi::{c_char, c_int};

use super::{handles, universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Errhandler, MPI_Win};
use crate::engine::{ErrhandlerFunction, ErrhandlerKind, ErrhandlerObject, Error, Result};
use crate::ffi::{self, errhandler_from_value, errhandler_value};
use std::sync::Arc;

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

/// The class of an error code: a predefined code is its own class, an added code has the
/// class it was added to.
pub(super) fn error_class(errorcode: c_int, errorclass: &mut Out<c_int>) -> Result<()> {
    // Predefined codes need no lock (any thread may ask, even one the lock refuses).
    errorclass.set(match ffi::class_of(errorcode) {
        Ok(class) => class as c_int,
        Err(error) => match ffi::existing() {
            Ok(universe) => universe.error_class(errorcode)?,
            Err(_) => return Err(error),
        },
    });
    Ok(())
}

/// "MPI_ERR_KEYVAL: invalid attribute keyval" and so on.
pub(super) unsafe fn error_string(
    errorcode: c_int,
    string: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    let text = match ffi::error_string(errorcode) {
        Ok(text) => text.into_bytes(),
        Err(error) => match ffi::existing() {
            Ok(universe) => universe.error_string(errorcode)?,
            Err(_) => return Err(error),
        },
    };
    // SAFETY: `string` has room for MPI_MAX_ERROR_STRING characters (the standard's
    // requirement on the caller); `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(string, "string")?;
        write_string(
            string,
            abi::MPI_MAX_ERROR_STRING as usize,
            &text,
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
    errhandler.set(handle(ffi::errhandler_get(ffi::comm_errhandler(
        handles::comm(comm),
    )?)?));
    Ok(())
}

/// Sets a window's error handler.
pub(super) fn win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) -> Result<()> {
    let win = handles::win(win)?;
    universe()?.set_errhandler(win, errhandler_from_value(errhandler as usize)?)
}

/// A window's error handler.
pub(super) fn win_get_errhandler(win: MPI_Win, errhandler: &mut Out<MPI_Errhandler>) -> Result<()> {
    errhandler.set(handle(ffi::errhandler_get(
        universe()?.errhandler(handles::win(win)?)?,
    )?));
    Ok(())
}

/// Releases a handle to an error handler and sets it to MPI_ERRHANDLER_NULL; a user handler
/// stays with the objects it is set on.
pub(super) fn errhandler_free(errhandler: &mut Out<MPI_Errhandler>) -> Result<()> {
    ffi::errhandler_free(errhandler.get() as usize)?;
    errhandler.set(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize as MPI_Errhandler);
    Ok(())
}

/// Runs a communicator's error handler on `errorcode`: returns MPI_SUCCESS after
/// MPI_ERRORS_RETURN, reports and exits under the others.
pub(super) fn comm_call_errhandler(comm: MPI_Comm, errorcode: c_int) -> Result<()> {
    let name = handles::predefined_name(comm as usize)
        .map_or_else(|| format!("{:#x}", comm as usize), str::to_string);
    let comm = ffi::live_comm(handles::comm(comm))?;
    let handler = ffi::comm_errhandler(Ok(comm))?;
    ffi::call_handler(
        "MPI_Comm_call_errhandler",
        &format!("comm={name}"),
        ErrhandlerObject::Comm(comm),
        handler,
        errorcode,
    )
}

/// Runs a window's error handler on `errorcode`, as MPI_Comm_call_errhandler.
pub(super) fn win_call_errhandler(win: MPI_Win, errorcode: c_int) -> Result<()> {
    let handle = win;
    let win = handles::win(win)?;
    let handler = universe()?.errhandler(win)?;
    ffi::call_handler(
        "MPI_Win_call_errhandler",
        &format!("win={:#x}", handle as usize),
        ErrhandlerObject::Win(win),
        handler,
        errorcode,
    )
}

/// A new error class, above MPI_ERR_LASTCODE and every value handed out before;
/// MPI_LASTUSEDCODE follows.
pub(super) fn add_error_class(errorclass: &mut Out<c_int>) -> Result<()> {
    errorclass.set(ffi::anytime()?.add_error_class()?);
    Ok(())
}

/// A new error code of class `errorclass` (predefined or added).
pub(super) fn add_error_code(errorclass: c_int, errorcode: &mut Out<c_int>) -> Result<()> {
    errorcode.set(ffi::anytime()?.add_error_code(errorclass)?);
    Ok(())
}

/// Sets or replaces the text MPI_Error_string gives for an added class or code.
pub(super) unsafe fn add_error_string(errorcode: c_int, string: *const c_char) -> Result<()> {
    // SAFETY: a NUL-terminated string (the caller's contract).
    let text = unsafe { super::groups::string(string, "string") }?;
    ffi::anytime()?.add_error_string(errorcode, text)
}

/// Removes an added class that has no codes and no string left.
pub(super) fn remove_error_class(errorclass: c_int) -> Result<()> {
    ffi::anytime()?.remove_error_class(errorclass)
}

/// Removes an added code whose string was removed.
pub(super) fn remove_error_code(errorcode: c_int) -> Result<()> {
    ffi::anytime()?.remove_error_code(errorcode)
}

/// Removes the string of an added class or code.
pub(super) fn remove_error_string(errorcode: c_int) -> Result<()> {
    ffi::anytime()?.remove_error_string(errorcode)
}

/// The Fortran integer of an error handler: the ABI value of a predefined one, a user
/// handler's own integer, the value of MPI_ERRHANDLER_NULL for anything else.
pub(super) fn errhandler_c2f(errhandler: MPI_Errhandler) -> abi::MPI_Fint {
    match errhandler_from_value(errhandler as usize) {
        Ok(_) => handles::errhandler_to_fortran(errhandler as usize) as abi::MPI_Fint,
        Err(_) => abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as abi::MPI_Fint,
    }
}

/// The error handler of a Fortran integer (MPI_ERRHANDLER_NULL if it names none).
pub(super) fn errhandler_f2c(errhandler: abi::MPI_Fint) -> MPI_Errhandler {
    match handles::errhandler_from_fortran(i64::from(errhandler)) {
        Some(value) if errhandler_from_value(value).is_ok() => handle(value),
        _ => handle(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize),
    }
}

/// The program's function of a C error handler, by kind.
enum CErrhandler {
    Comm(unsafe extern "C" fn(*mut MPI_Comm, *mut c_int, ...)),
    Win(unsafe extern "C" fn(*mut MPI_Win, *mut c_int, ...)),
    Session(unsafe extern "C" fn(*mut abi::MPI_Session, *mut c_int, ...)),
    File(unsafe extern "C" fn(*mut abi::MPI_File, *mut c_int, ...)),
}

impl ErrhandlerFunction for CErrhandler {
    fn call(&self, object: ErrhandlerObject, code: &mut i32) {
        // SAFETY (every arm): the program's function of its kind's prototype, called with
        // a pointer to a copy of the object's handle and a pointer to the code.
        match (self, object) {
            (CErrhandler::Comm(function), ErrhandlerObject::Comm(comm)) => unsafe {
                let mut handle: MPI_Comm = handles::encode_handle(comm);
                function(&mut handle, code)
            },
            (CErrhandler::Win(function), ErrhandlerObject::Win(win)) => unsafe {
                let mut handle: MPI_Win = handles::encode_handle(win);
                function(&mut handle, code)
            },
            (CErrhandler::Session(function), ErrhandlerObject::Session(session)) => unsafe {
                let mut handle: abi::MPI_Session = handles::encode_handle(session);
                function(&mut handle, code)
            },
            (CErrhandler::File(function), ErrhandlerObject::FileNull) => unsafe {
                let mut handle = abi::MPIATTR_HANDLE_MPI_FILE_NULL as usize as abi::MPI_File;
                function(&mut handle, code)
            },
            // A handler is only ever set on objects of its kind (the engine checks).
            _ => {}
        }
    }
}

fn create_errhandler(
    kind: ErrhandlerKind,
    function: Option<CErrhandler>,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    let function = function.ok_or(Error::InvalidArgument("the handler function is NULL"))?;
    // Session handlers can be made at any time (MPI-4.1 §12.4.1), the others while the
    // universe is open.
    let universe = if kind == ErrhandlerKind::Session {
        ffi::anytime()?
    } else {
        universe()?
    };
    let handler = universe.errhandler_create(kind, Arc::new(function))?;
    errhandler.set(handle(errhandler_value(handler)));
    Ok(())
}

/// A user error handler for communicators.
pub(super) fn comm_create_errhandler(
    comm_errhandler_fn: abi::MPI_Comm_errhandler_function,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    let function = comm_errhandler_fn.map(CErrhandler::Comm);
    create_errhandler(ErrhandlerKind::Comm, function, errhandler)
}

/// A user error handler for windows.
pub(super) fn win_create_errhandler(
    win_errhandler_fn: abi::MPI_Win_errhandler_function,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    let function = win_errhandler_fn.map(CErrhandler::Win);
    create_errhandler(ErrhandlerKind::Win, function, errhandler)
}

/// A user error handler for sessions.
pub(super) fn session_create_errhandler(
    session_errhandler_fn: abi::MPI_Session_errhandler_function,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    let function = session_errhandler_fn.map(CErrhandler::Session);
    create_errhandler(ErrhandlerKind::Session, function, errhandler)
}

/// Sets MPI_FILE_NULL's error handler (the only file: other handles are MPI_ERR_FILE).
pub(super) fn file_set_errhandler(file: abi::MPI_File, errhandler: MPI_Errhandler) -> Result<()> {
    ffi::file_set_errhandler(file, errhandler as usize)
}

/// MPI_FILE_NULL's error handler: MPI_ERRORS_RETURN until set.
pub(super) fn file_get_errhandler(
    file: abi::MPI_File,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    errhandler.set(handle(ffi::errhandler_get(ffi::file_errhandler(file)?)?));
    Ok(())
}

/// Runs MPI_FILE_NULL's error handler on `errorcode`, as MPI_Comm_call_errhandler.
pub(super) fn file_call_errhandler(fh: abi::MPI_File, errorcode: c_int) -> Result<()> {
    let handler = ffi::file_errhandler(fh)?;
    ffi::call_handler(
        "MPI_File_call_errhandler",
        "fh=MPI_FILE_NULL",
        ErrhandlerObject::FileNull,
        handler,
        errorcode,
    )
}

/// A user error handler for files, for MPI_FILE_NULL (files are not implemented).
pub(super) fn file_create_errhandler(
    file_errhandler_fn: abi::MPI_File_errhandler_function,
    errhandler: &mut Out<MPI_Errhandler>,
) -> Result<()> {
    let function = file_errhandler_fn.map(CErrhandler::File);
    create_errhandler(ErrhandlerKind::File, function, errhandler)
}
