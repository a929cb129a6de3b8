//! Info objects (MPI-4.1 §10): ordered (key, value) pairs of strings, and MPI_INFO_ENV.

use std::ffi::{c_char, c_int};

use super::groups::string;
use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{universe, Out};
use crate::abi::{self, MPI_Fint, MPI_Info};
use crate::engine::{Error, InfoString, Result};
use crate::ffi::anytime;

/// Copies `bytes` and a terminating NUL to `buffer`.
///
/// # Safety
/// `buffer` is valid for writes of `bytes.len() + 1` bytes.
pub(crate) unsafe fn write_terminated(buffer: *mut c_char, bytes: &[u8]) {
    // SAFETY: room for the bytes and the NUL (the caller's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.cast::<u8>(), bytes.len());
        buffer.add(bytes.len()).write(0);
    }
}

/// The buffer protocol of MPI_Info_get_string and MPI_Session_get_nth_pset: `*buflen` is the
/// buffer's size; the leading bytes of `text` that fit are written with a NUL (none when
/// `*buflen` is 0), and `*buflen` becomes the length of `text` plus one.
///
/// # Safety
/// `buffer` is valid for writes of `*buflen` bytes, or NULL when `*buflen` is 0.
pub(crate) unsafe fn write_with_length(
    buffer: *mut c_char,
    buflen: &mut Out<c_int>,
    fitting: &[u8],
    needed: usize,
    name: &'static str,
) -> Result<()> {
    if buflen.get() > 0 {
        if buffer.is_null() {
            return Err(Error::NullArgument(name));
        }
        // SAFETY: `fitting` has fewer than `*buflen` bytes; the buffer has `*buflen`.
        unsafe { write_terminated(buffer, fitting) };
    }
    buflen.set(c_int::try_from(needed).unwrap_or(c_int::MAX));
    Ok(())
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// A new, empty info object.
pub(super) fn info_create(info: &mut Out<MPI_Info>) -> Result<()> {
    info.set(encode_handle(anytime()?.info_create()?));
    Ok(())
}

/// Sets or replaces the value of a key; a new key goes after the others.
pub(super) unsafe fn info_set(
    info: MPI_Info,
    key: *const c_char,
    value: *const c_char,
) -> Result<()> {
    let info = handles::info(info)?;
    // SAFETY: NUL-terminated strings (the caller's contract).
    let (key, value) = unsafe { (string(key, "key")?, string(value, "value")?) };
    anytime()?.info_set(info, key, value)
}

/// Removes a key and its value (MPI_ERR_INFO_NOKEY if it has none).
pub(super) unsafe fn info_delete(info: MPI_Info, key: *const c_char) -> Result<()> {
    let info = handles::info(info)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let key = unsafe { string(key, "key") }?;
    anytime()?.info_delete(info, key)
}

/// A key's value into a buffer of `*buflen` bytes, with its full length plus one back in
/// `*buflen`; `*flag` false (and `*buflen` unchanged) when the key has no value.
pub(super) unsafe fn info_get_string(
    info: MPI_Info,
    key: *const c_char,
    buflen: &mut Out<c_int>,
    value: *mut c_char,
    flag: &mut Out<c_int>,
) -> Result<()> {
    let info = handles::info(info)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let key = unsafe { string(key, "key") }?;
    let size =
        usize::try_from(buflen.get()).map_err(|_| Error::InvalidArgument("buflen is negative"))?;
    match anytime()?.info_get_string(info, key, size)? {
        InfoString::Missing => flag.set(0),
        InfoString::Found { bytes, needed } => {
            // SAFETY: `value` has `*buflen` bytes (the caller's contract).
            unsafe { write_with_length(value, buflen, &bytes, needed, "value") }?;
            flag.set(1);
        }
    }
    Ok(())
}

/// Deprecated: at most `valuelen` bytes of a key's value and a NUL; `*flag` false when the
/// key has no value.
pub(super) unsafe fn info_get(
    info: MPI_Info,
    key: *const c_char,
    valuelen: c_int,
    value: *mut c_char,
    flag: &mut Out<c_int>,
) -> Result<()> {
    let info = handles::info(info)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let key = unsafe { string(key, "key") }?;
    if value.is_null() {
        return Err(Error::NullArgument("value"));
    }
    match universe()?.info_get(info, key, valuelen)? {
        None => flag.set(0),
        Some(bytes) => {
            // SAFETY: `value` has `valuelen + 1` bytes (the caller's contract) and `bytes`
            // at most `valuelen`.
            unsafe { write_terminated(value, &bytes) };
            flag.set(1);
        }
    }
    Ok(())
}

/// Deprecated: the length of a key's value (without the NUL); `*flag` false when it has
/// none.
pub(super) unsafe fn info_get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: &mut Out<c_int>,
    flag: &mut Out<c_int>,
) -> Result<()> {
    let info = handles::info(info)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let key = unsafe { string(key, "key") }?;
    match universe()?.info_get_valuelen(info, key)? {
        None => flag.set(0),
        Some(length) => {
            valuelen.set(length as c_int);
            flag.set(1);
        }
    }
    Ok(())
}

/// The number of keys with a value.
pub(super) fn info_get_nkeys(info: MPI_Info, nkeys: &mut Out<c_int>) -> Result<()> {
    nkeys.set(anytime()?.info_get_nkeys(handles::info(info)?)? as c_int);
    Ok(())
}

/// The `n`th key (from 0, in the order keys were first set), into a buffer of
/// MPI_MAX_INFO_KEY bytes.
pub(super) unsafe fn info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> Result<()> {
    let info = handles::info(info)?;
    if key.is_null() {
        return Err(Error::NullArgument("key"));
    }
    let name = anytime()?.info_get_nthkey(info, n)?;
    // SAFETY: `key` has MPI_MAX_INFO_KEY bytes (the standard's requirement on the caller);
    // keys are shorter.
    unsafe { write_terminated(key, &name) };
    Ok(())
}

/// A new info object with the same pairs in the same order.
pub(super) fn info_dup(info: MPI_Info, newinfo: &mut Out<MPI_Info>) -> Result<()> {
    newinfo.set(encode_handle(anytime()?.info_dup(handles::info(info)?)?));
    Ok(())
}

/// Frees an info object and sets the handle to MPI_INFO_NULL (MPI_INFO_ENV cannot be
/// freed).
pub(super) fn info_free(info: &mut Out<MPI_Info>) -> Result<()> {
    anytime()?.info_free(handles::info(info.get())?)?;
    info.set(null());
    Ok(())
}

/// A new info object with MPI_INFO_ENV's pairs (the arguments are not read: the library
/// knows its command line already).
pub(super) fn info_create_env(
    argc: c_int,
    argv: *mut c_char,
    info: &mut Out<MPI_Info>,
) -> Result<()> {
    let _ = (argc, argv);
    info.set(encode_handle(crate::ffi::info_create_env()?));
    Ok(())
}

/// The Fortran integer of an info object.
pub(super) fn info_c2f(info: MPI_Info) -> MPI_Fint {
    to_fortran(info) as MPI_Fint
}

/// The info object of a Fortran integer (MPI_INFO_NULL if it names none).
pub(super) fn info_f2c(info: MPI_Fint) -> MPI_Info {
    from_fortran(info as i64)
}

/// MPI_MAX_INFO_KEY, for the checks above.
const _: () = assert!(abi::MPI_MAX_INFO_KEY as usize == crate::engine::MAX_INFO_KEY);
