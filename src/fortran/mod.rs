//! The Fortran bindings: `mpif.h`, `use mpi` and `use mpi_f08` all call the same symbols,
//! `mpi_x_` (and `pmpi_x_`), in lower case with one trailing underscore as gfortran names
//! them. A thin shell over the engine, like the C one.
//!
//! Each routine is described once, in fortran/routines.txt. From that table build.rs
//! generates the exported symbols (`shells`), which read the by-reference arguments with the
//! helpers below, run the routine of [`routines`] inside [`crate::ffi::call`] (the panic
//! boundary and error path shared with C) and store the code in IERROR; it also generates
//! mpif.h and the two modules, so the three bindings cannot drift apart.
//!
//! What makes a binding Fortran lives here and in [`callbacks`]: Fortran integer handles,
//! blank-padded strings, LOGICALs, and the Fortran callback conventions. Attribute logic
//! does not: a routine passes its [`Language`](crate::engine::Language) to the engine.

// `Fint` is `i32` or `i64` by configuration: a conversion that is needed in one is an
// identity in the other.
#![allow(clippy::useless_conversion)]

use std::ffi::{c_int, c_void};
use std::fmt::{Display, Write as _};

use crate::abi::{self, MPI_Comm, MPI_Win};
use crate::engine::{Error, Fint, Result, Word};
use crate::ffi::args::describe_all;
use crate::ffi::{self, handles, Arg, Out, Target};

mod callbacks;
pub(crate) mod conv;
mod routines;

/// A Fortran procedure argument (a callback), as an untyped address.
pub(crate) type FortranProc = Option<unsafe extern "C" fn()>;

/// A Fortran status: `INTEGER STATUS(MPI_STATUS_SIZE)` or `TYPE(MPI_Status)`.
pub(crate) type Status = [Fint; abi::MPI_F_STATUS_SIZE as usize];

/// A Fortran LOGICAL: gfortran's .TRUE. is 1; any non-zero value reads as true.
pub(crate) fn logical(value: bool) -> Fint {
    Fint::from(value)
}

/// Reads an input argument.
///
/// # Safety
/// `pointer` is NULL or valid for reads.
unsafe fn read<T: Copy>(pointer: *const T, name: &'static str) -> Result<T> {
    if pointer.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: non-null and valid (the caller's contract).
    Ok(unsafe { pointer.read() })
}

/// A CHARACTER(LEN=*) input argument.
///
/// # Safety
/// `pointer` is NULL or valid for reads of `len` bytes that nothing writes while the
/// returned slice lives (the duration of the call).
pub(crate) unsafe fn text<'a>(
    pointer: *const u8,
    len: usize,
    name: &'static str,
) -> Result<&'a [u8]> {
    if pointer.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: non-null, valid for `len` bytes (the caller's contract).
    Ok(unsafe { std::slice::from_raw_parts(pointer, len) })
}

/// A CHARACTER(LEN=*) output argument.
///
/// # Safety
/// `pointer` is NULL or valid for reads and writes of `len` bytes that nothing else touches
/// while the returned slice lives (the duration of the call).
unsafe fn text_out<'a>(pointer: *mut u8, len: usize, name: &'static str) -> Result<&'a mut [u8]> {
    if pointer.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: non-null, valid and unaliased for `len` bytes (the caller's contract).
    Ok(unsafe { std::slice::from_raw_parts_mut(pointer, len) })
}

/// Stores the error code in IERROR, unless IERROR is absent (NULL: `use mpi_f08`).
///
/// # Safety
/// `ierror` is NULL or valid for writes.
#[inline(always)]
pub(crate) unsafe fn finish(ierror: *mut Fint, code: c_int) {
    if !ierror.is_null() {
        // SAFETY: non-null and valid (the caller's contract).
        unsafe { ierror.write(Fint::from(code)) };
    }
}

/// A Fortran handle argument for choosing the error handler: its value, or the null handle.
///
/// # Safety
/// `pointer` is NULL or valid for reads.
unsafe fn peek(pointer: *const Fint, null: usize) -> i64 {
    if pointer.is_null() {
        null as i64
    } else {
        // SAFETY: non-null and valid (the caller's contract).
        unsafe { pointer.read() }.into()
    }
}

/// Errors of a routine with a communicator argument go to that communicator's handler.
///
/// # Safety
/// As for [`peek`].
pub(crate) unsafe fn comm_target(comm: *const Fint) -> Target {
    // SAFETY: the caller's contract.
    let value = unsafe { peek(comm, abi::MPIATTR_HANDLE_MPI_COMM_NULL as usize) };
    Target::Comm(handles::from_fortran::<MPI_Comm>(value))
}

/// Errors of a routine with a window argument go to that window's handler.
///
/// # Safety
/// As for [`peek`].
pub(crate) unsafe fn win_target(win: *const Fint) -> Target {
    // SAFETY: the caller's contract.
    let value = unsafe { peek(win, abi::MPIATTR_HANDLE_MPI_WIN_NULL as usize) };
    Target::Win(handles::from_fortran::<MPI_Win>(value))
}

/// Errors of a routine with a session argument go to that session's handler.
///
/// # Safety
/// As for [`peek`].
pub(crate) unsafe fn session_target(session: *const Fint) -> Target {
    // SAFETY: the caller's contract.
    let value = unsafe { peek(session, abi::MPIATTR_HANDLE_MPI_SESSION_NULL as usize) };
    Target::Session(handles::from_fortran::<abi::MPI_Session>(value))
}

/// An input argument in a fatal error's message: its value.
pub(crate) struct Value<T>(pub(crate) *const T);

impl<T: Copy + Display> Arg for Value<T> {
    fn describe(&self, line: &mut String) {
        if self.0.is_null() {
            line.push_str("NULL");
        } else {
            // SAFETY: a `Value` only wraps an argument of the routine being reported, which
            // is NULL (checked) or valid for reads (the shell's contract).
            let _ = write!(line, "{}", unsafe { self.0.read() });
        }
    }
}

/// A handle argument in a fatal error's message: its predefined name, or its integer.
pub(crate) struct HandleArg(pub(crate) *const Fint);

impl Arg for HandleArg {
    fn describe(&self, line: &mut String) {
        if self.0.is_null() {
            return line.push_str("NULL");
        }
        // SAFETY: as for `Value`.
        let value = unsafe { self.0.read() };
        match usize::try_from(value)
            .ok()
            .and_then(handles::predefined_name)
        {
            Some(name) => line.push_str(name),
            None => {
                let _ = write!(line, "{value}");
            }
        }
    }
}

/// A CHARACTER argument in a fatal error's message, quoted, without trailing blanks.
pub(crate) struct Text(pub(crate) *const u8, pub(crate) usize);

impl Arg for Text {
    fn describe(&self, line: &mut String) {
        if self.0.is_null() {
            return line.push_str("NULL");
        }
        // SAFETY: as for `Value`, for `self.1` bytes.
        let bytes = unsafe { std::slice::from_raw_parts(self.0, self.1) };
        let _ = write!(line, "'{}'", String::from_utf8_lossy(trim_blanks(bytes)));
    }
}

/// A callback argument in a fatal error's message: the name of a predefined callback
/// (`MPI_COMM_DUP_FN`), as C's messages name theirs, else its address.
struct Callback(FortranProc);

impl Arg for Callback {
    fn describe(&self, line: &mut String) {
        let address = self.0.map_or(0, |f| f as usize);
        match shells::predefined_callback_name(address) {
            Some(name) => line.push_str(name),
            None => Address(address).describe(line),
        }
    }
}

/// A buffer argument in a fatal error's message: its address.
pub(crate) struct Address(pub(crate) usize);

impl Arg for Address {
    fn describe(&self, line: &mut String) {
        let _ = write!(line, "{:#x}", self.0);
    }
}

/// A Fortran string without its trailing blanks.
fn trim_blanks(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|b| *b != b' ').map_or(0, |i| i + 1);
    &bytes[..end]
}

/// Copies `text` into a CHARACTER(LEN=*) output, blank-padded or cut at its length, and
/// returns the number of characters stored (RESULTLEN).
fn fill(buffer: &mut [u8], text: &[u8]) -> Fint {
    let bytes = &text[..text.len().min(buffer.len())];
    buffer[..bytes.len()].copy_from_slice(bytes);
    buffer[bytes.len()..].fill(b' ');
    bytes.len() as Fint
}

/// The generated symbols.
mod shells {
    use super::*;

    include!(concat!(env!("OUT_DIR"), "/fortran_shells.rs"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_blank_padded_and_trimmed() {
        let mut buffer = [b'x'; 8];
        assert_eq!(fill(&mut buffer, b"abc"), 3);
        assert_eq!(&buffer, b"abc     ");
        assert_eq!(fill(&mut buffer, b"0123456789"), 8);
        assert_eq!(&buffer, b"01234567");
        assert_eq!(trim_blanks(b"name   "), b"name");
        assert_eq!(trim_blanks(b"   "), b"");
        assert_eq!(trim_blanks(b" a b "), b" a b");
    }
}
