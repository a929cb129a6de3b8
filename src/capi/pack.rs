//! Packing (MPI-4.1 §5.2): MPI_Pack/Unpack into the program's own buffers, and the
//! portable "external32" form, through src/capi/buffer.rs (which reads and writes the items
//! of any datatype at an address).
//!
//! The packed form of MPI_Pack is the items' bytes in type-map order with nothing added:
//! MPI_Pack_size is exactly the data's size, and a buffer packed with one datatype unpacks
//! with any datatype of the same type signature.

use std::ffi::{c_char, c_int, c_void, CStr};

use super::buffer::{self, Representation};
use super::handles;
use super::{universe, Out};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype};
use crate::engine::typemap;
use crate::engine::{Error, Result};

/// Checks the communicator argument of MPI_Pack, MPI_Unpack and MPI_Pack_size.
fn check_comm(comm: MPI_Comm) -> Result<()> {
    universe()?.check(handles::comm(comm)?)
}

/// Checks MPI_Pack_external's `datarep`: only "external32" exists (MPI_ERR_ARG otherwise).
///
/// # Safety
/// `datarep` is NULL or a NUL-terminated string.
unsafe fn check_datarep(datarep: *const c_char) -> Result<()> {
    if datarep.is_null() {
        return Err(Error::NullArgument("datarep"));
    }
    // SAFETY: non-null and NUL-terminated (the caller's contract).
    match unsafe { CStr::from_ptr(datarep) }.to_bytes() {
        b"external32" => Ok(()),
        _ => Err(Error::InvalidArgument("datarep is not \"external32\"")),
    }
}

/// The packed size of `count` items of `datatype`, committed or not (the size functions
/// only ask).
fn packed_size(count: i64, datatype: MPI_Datatype, representation: Representation) -> Result<u64> {
    let universe = universe()?;
    let count = u64::try_from(count).map_err(|_| Error::InvalidCount)?;
    let map = universe.type_layout(handles::datatype(datatype)?)?;
    match representation {
        Representation::Native => typemap::pack_size(&map, count),
        Representation::External32 => typemap::pack_external_size(&map, count),
    }
}

/// Where the packed data goes or comes from: `position` bytes into a buffer of `size` bytes
/// that must hold `length` more; `MPI_ERR_ARG` for a negative size or a position outside the
/// buffer, `MPI_ERR_TRUNCATE` when the rest is too short.
fn room(size: i64, position: i64, length: u64, name: &'static str) -> Result<usize> {
    if size < 0 {
        return Err(Error::InvalidArgument(name));
    }
    if position < 0 || position > size {
        return Err(Error::InvalidArgument("position is outside the buffer"));
    }
    let left = (size - position) as u64;
    if length > left {
        return Err(Error::Truncated {
            length,
            capacity: left,
        });
    }
    Ok(position as usize)
}

/// MPI_Pack and its forms: packs `incount` items at `inbuf` into `outbuf` at `*position`;
/// returns the new position.
///
/// # Safety
/// The caller's MPI contract on the buffers.
unsafe fn pack_any(
    inbuf: *const c_void,
    incount: i64,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: i64,
    position: i64,
    representation: Representation,
) -> Result<i64> {
    let data = buffer::describe_large(incount, datatype)?;
    let length = data.packed_size(representation)?;
    let at = room(outsize, position, length, "outsize is negative")?;
    // SAFETY: the caller's contract; `at + length` bytes lie within `outbuf`.
    unsafe {
        data.pack_into(
            inbuf as usize,
            ("inbuf", "outbuf"),
            (outbuf as usize).wrapping_add(at),
            representation,
        )?
    };
    Ok(position + length as i64)
}

/// MPI_Unpack and its forms: unpacks `outcount` items from `inbuf` at `*position` into
/// `outbuf`; returns the new position.
///
/// # Safety
/// The caller's MPI contract on the buffers.
unsafe fn unpack_any(
    inbuf: *const c_void,
    insize: i64,
    position: i64,
    outbuf: *mut c_void,
    outcount: i64,
    datatype: MPI_Datatype,
    representation: Representation,
) -> Result<i64> {
    let data = buffer::describe_large(outcount, datatype)?;
    let length = data.packed_size(representation)?;
    let at = room(insize, position, length, "insize is negative")?;
    // SAFETY: the caller's contract; `at + length` bytes lie within `inbuf`.
    unsafe {
        data.unpack_from(
            (inbuf as usize).wrapping_add(at),
            outbuf as usize,
            ("inbuf", "outbuf"),
            representation,
        )?
    };
    Ok(position + length as i64)
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Packs `incount` items of `datatype` at `inbuf` into `outbuf` from byte `*position`, and
/// advances the position by their packed size.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn pack(
    inbuf: *const c_void,
    incount: c_int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: c_int,
    position: &mut Out<c_int>,
    comm: MPI_Comm,
) -> Result<()> {
    check_comm(comm)?;
    let at = position.get().into();
    // SAFETY: the entry point's contract.
    let end = unsafe {
        pack_any(
            inbuf,
            incount.into(),
            datatype,
            outbuf,
            outsize.into(),
            at,
            Representation::Native,
        )?
    };
    position.set(end as c_int);
    Ok(())
}

/// MPI_Pack with large counts.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn pack_c(
    inbuf: *const c_void,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    position: &mut Out<MPI_Count>,
    comm: MPI_Comm,
) -> Result<()> {
    check_comm(comm)?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        pack_any(
            inbuf,
            incount,
            datatype,
            outbuf,
            outsize,
            position.get(),
            Representation::Native,
        )?
    };
    position.set(end);
    Ok(())
}

/// Unpacks `outcount` items of `datatype` into `outbuf` from the packed `inbuf` at byte
/// `*position`, and advances the position.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn unpack(
    inbuf: *const c_void,
    insize: c_int,
    position: &mut Out<c_int>,
    outbuf: *mut c_void,
    outcount: c_int,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    check_comm(comm)?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        unpack_any(
            inbuf,
            insize.into(),
            position.get().into(),
            outbuf,
            outcount.into(),
            datatype,
            Representation::Native,
        )?
    };
    position.set(end as c_int);
    Ok(())
}

/// MPI_Unpack with large counts.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn unpack_c(
    inbuf: *const c_void,
    insize: MPI_Count,
    position: &mut Out<MPI_Count>,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    check_comm(comm)?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        unpack_any(
            inbuf,
            insize,
            position.get(),
            outbuf,
            outcount,
            datatype,
            Representation::Native,
        )?
    };
    position.set(end);
    Ok(())
}

/// The bytes MPI_Pack needs for `incount` items of `datatype` (exactly their size here).
pub(super) fn pack_size(
    incount: c_int,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: &mut Out<c_int>,
) -> Result<()> {
    check_comm(comm)?;
    let bytes = packed_size(incount.into(), datatype, Representation::Native)?;
    size.set(c_int::try_from(bytes).map_err(|_| Error::InvalidCount)?);
    Ok(())
}

/// MPI_Pack_size with large counts.
pub(super) fn pack_size_c(
    incount: MPI_Count,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: &mut Out<MPI_Count>,
) -> Result<()> {
    check_comm(comm)?;
    let bytes = packed_size(incount, datatype, Representation::Native)?;
    size.set(MPI_Count::try_from(bytes).map_err(|_| Error::InvalidCount)?);
    Ok(())
}

/// Packs `incount` items into the portable "external32" form: big-endian, the standard's
/// sizes (a C `long` takes 4 bytes), at `outbuf` from byte `*position`.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn pack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: c_int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Aint,
    position: &mut Out<MPI_Aint>,
) -> Result<()> {
    universe()?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        check_datarep(datarep)?;
        pack_any(
            inbuf,
            incount.into(),
            datatype,
            outbuf,
            outsize as i64,
            position.get() as i64,
            Representation::External32,
        )?
    };
    position.set(end as MPI_Aint);
    Ok(())
}

/// MPI_Pack_external with large counts.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn pack_external_c(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    position: &mut Out<MPI_Count>,
) -> Result<()> {
    universe()?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        check_datarep(datarep)?;
        pack_any(
            inbuf,
            incount,
            datatype,
            outbuf,
            outsize,
            position.get(),
            Representation::External32,
        )?
    };
    position.set(end);
    Ok(())
}

/// Unpacks `outcount` items from the "external32" form at `inbuf`, byte `*position`.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn unpack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Aint,
    position: &mut Out<MPI_Aint>,
    outbuf: *mut c_void,
    outcount: c_int,
    datatype: MPI_Datatype,
) -> Result<()> {
    universe()?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        check_datarep(datarep)?;
        unpack_any(
            inbuf,
            insize as i64,
            position.get() as i64,
            outbuf,
            outcount.into(),
            datatype,
            Representation::External32,
        )?
    };
    position.set(end as MPI_Aint);
    Ok(())
}

/// MPI_Unpack_external with large counts.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn unpack_external_c(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Count,
    position: &mut Out<MPI_Count>,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    datatype: MPI_Datatype,
) -> Result<()> {
    universe()?;
    // SAFETY: the entry point's contract.
    let end = unsafe {
        check_datarep(datarep)?;
        unpack_any(
            inbuf,
            insize,
            position.get(),
            outbuf,
            outcount,
            datatype,
            Representation::External32,
        )?
    };
    position.set(end);
    Ok(())
}

/// The bytes `incount` items of `datatype` take in "external32".
pub(super) unsafe fn pack_external_size(
    datarep: *const c_char,
    incount: c_int,
    datatype: MPI_Datatype,
    size: &mut Out<MPI_Aint>,
) -> Result<()> {
    universe()?;
    // SAFETY: the entry point's contract.
    unsafe { check_datarep(datarep)? };
    let bytes = packed_size(incount.into(), datatype, Representation::External32)?;
    size.set(MPI_Aint::try_from(bytes).map_err(|_| Error::InvalidCount)?);
    Ok(())
}

/// MPI_Pack_external_size with large counts.
pub(super) unsafe fn pack_external_size_c(
    datarep: *const c_char,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    size: &mut Out<MPI_Count>,
) -> Result<()> {
    universe()?;
    // SAFETY: the entry point's contract.
    unsafe { check_datarep(datarep)? };
    let bytes = packed_size(incount, datatype, Representation::External32)?;
    size.set(MPI_Count::try_from(bytes).map_err(|_| Error::InvalidCount)?);
    Ok(())
}
