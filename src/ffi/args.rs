//! Arguments at the C boundary: how each is described in a fatal error's message, and the
//! checked output pointer every entry point writes its results through.

use std::ffi::{c_char, c_double, c_int, c_void};
use std::fmt::Write as _;

use super::handles;
use crate::abi;
use crate::engine::{Error, Result};

/// How an argument appears in the one-line report of a fatal error.
pub(crate) trait Arg {
    fn describe(&self, line: &mut String);
}

/// `name=value, name=value` for a fatal error's message.
pub(crate) fn describe_all(line: &mut String, args: &[(&str, &dyn Arg)]) {
    for (i, (name, value)) in args.iter().enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        line.push_str(name);
        line.push('=');
        value.describe(line);
    }
}

fn address(line: &mut String, address: usize) {
    if address == 0 {
        line.push_str("NULL");
    } else {
        let _ = write!(line, "{address:#x}");
    }
}

macro_rules! integer_args {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn describe(&self, line: &mut String) {
                let _ = write!(line, "{self}");
            }
        }
    )*};
}
integer_args!(i32, i64, isize, c_double);

/// Pointers to data print as addresses.
macro_rules! pointer_args {
    ($($t:ty),*) => {$(
        impl Arg for *mut $t {
            fn describe(&self, line: &mut String) {
                address(line, *self as usize);
            }
        }
        impl Arg for *const $t {
            fn describe(&self, line: &mut String) {
                address(line, *self as usize);
            }
        }
    )*};
}
pointer_args!(
    c_void,
    c_int,
    i64,
    isize,
    c_char,
    *mut c_char,
    *mut *mut c_char,
    abi::MPI_Status,
    abi::MPI_Comm,
    abi::MPI_Datatype,
    abi::MPI_Win,
    abi::MPI_Request,
    abi::MPI_Errhandler,
    abi::MPI_Group,
    abi::MPI_Info,
    abi::MPI_Session,
    abi::MPI_Op,
    abi::MPI_Message,
    [c_int; 3]
);

/// Handles print as their predefined name (MPI_COMM_WORLD) or as a number.
macro_rules! handle_args {
    ($($t:ty => $name:path),*) => {$(
        impl Arg for *mut $t {
            fn describe(&self, line: &mut String) {
                match $name(*self as usize) {
                    Some(name) => line.push_str(name),
                    None => address(line, *self as usize),
                }
            }
        }
    )*};
}
handle_args!(
    abi::MPI_ABI_Comm => handles::predefined_name,
    abi::MPI_ABI_Datatype => handles::predefined_name,
    abi::MPI_ABI_Win => handles::predefined_name,
    abi::MPI_ABI_Info => handles::predefined_name,
    abi::MPI_ABI_Errhandler => handles::predefined_name,
    abi::MPI_ABI_Request => handles::predefined_name,
    abi::MPI_ABI_Group => handles::predefined_name,
    abi::MPI_ABI_Session => handles::predefined_name,
    abi::MPI_ABI_Op => handles::predefined_name,
    abi::MPI_ABI_File => handles::predefined_name,
    abi::MPI_ABI_Message => handles::predefined_name
);

/// Callback arguments print as the predefined function they stand for, or an address.
macro_rules! callback_args {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn describe(&self, line: &mut String) {
                match (*self).map_or(0, |f| f as usize) {
                    0 => line.push_str("NULL_FN"),
                    1 => line.push_str("DUP_FN"),
                    other => address(line, other),
                }
            }
        }
    )*};
}
// MPI_Copy_function and MPI_Delete_function are the same Rust types as the Comm ones.
callback_args!(
    abi::MPI_Comm_copy_attr_function,
    abi::MPI_Comm_delete_attr_function,
    abi::MPI_Type_copy_attr_function,
    abi::MPI_Type_delete_attr_function,
    abi::MPI_Win_copy_attr_function,
    abi::MPI_Win_delete_attr_function
);

/// User functions (MPI_Op_create, MPI_*_create_errhandler) print as an address or NULL.
macro_rules! function_args {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn describe(&self, line: &mut String) {
                address(line, (*self).map_or(0, |f| f as usize));
            }
        }
    )*};
}
function_args!(
    abi::MPI_User_function,
    abi::MPI_User_function_c,
    abi::MPI_Comm_errhandler_function,
    abi::MPI_Win_errhandler_function,
    abi::MPI_Session_errhandler_function,
    abi::MPI_File_errhandler_function,
    abi::MPI_Grequest_query_function,
    abi::MPI_Grequest_free_function,
    abi::MPI_Grequest_cancel_function
);

/// An in-out keyval argument (`MPI_Comm_free_keyval(&keyval)`): a pointer to an `int` the
/// function reads and then writes. It has a pointer's ABI; a fatal error's message shows the
/// keyval it points at, as the Fortran routines' messages do (the number, not an address).
#[repr(transparent)]
#[derive(Clone, Copy)]
pub(crate) struct KeyvalInOut(pub(crate) *mut c_int);

impl Arg for KeyvalInOut {
    fn describe(&self, line: &mut String) {
        if self.0.is_null() {
            return line.push_str("NULL");
        }
        // SAFETY: an in-out argument of the function being reported: non-NULL (checked) and
        // valid for reads (the caller's contract).
        let _ = write!(line, "{}", unsafe { self.0.read() });
    }
}

/// An output argument: a pointer the caller passed for the library to write a result into,
/// checked for NULL once.
pub(crate) struct Out<T> {
    pointer: *mut T,
}

impl<T> Out<T> {
    /// Refuses NULL with `MPI_ERR_ARG` naming the argument.
    ///
    /// # Safety
    /// `pointer` is NULL or valid for reads and writes of a `T` for as long as the `Out`
    /// lives (the contract of every MPI output argument).
    pub(crate) unsafe fn new(pointer: *mut T, name: &'static str) -> Result<Out<T>> {
        if pointer.is_null() {
            Err(Error::NullArgument(name))
        } else {
            Ok(Out { pointer })
        }
    }

    /// Writes the result.
    pub(crate) fn set(&mut self, value: T) {
        // SAFETY: non-null (checked in `new`) and valid for writes (the contract of `new`).
        unsafe { self.pointer.write(value) }
    }

    /// Reads the current value (for in-out arguments such as `MPI_Comm *comm` of
    /// MPI_Comm_free).
    pub(crate) fn get(&self) -> T
    where
        T: Copy,
    {
        // SAFETY: as in `set`, for reads.
        unsafe { self.pointer.read() }
    }
}
