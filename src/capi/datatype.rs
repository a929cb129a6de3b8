//! Datatypes: every predefined datatype of the ABI, duplicates and contiguous types.

use std::ffi::c_int;

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{universe, Out};
use crate::abi::{self, MPI_Datatype, MPI_Fint};
use crate::engine::{Error, Result};

fn dup_into(oldtype: MPI_Datatype, newtype: &mut Out<MPI_Datatype>) -> Result<()> {
    let result = handles::datatype(oldtype).and_then(|old| universe()?.type_dup(old));
    newtype.set(result.as_ref().map_or(null(), |new| encode_handle(*new)));
    result.map(drop)
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Duplicates a datatype with its attributes (copy callbacks run in set order).
pub(super) fn type_dup(oldtype: MPI_Datatype, newtype: &mut Out<MPI_Datatype>) -> Result<()> {
    dup_into(oldtype, newtype)
}

/// `count` copies of `oldtype`, without attributes.
pub(super) fn type_contiguous(
    count: c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let count = usize::try_from(count).map_err(|_| Error::InvalidCount)?;
    let new = universe()?.type_contiguous(count, handles::datatype(oldtype)?)?;
    newtype.set(encode_handle(new));
    Ok(())
}

/// Commits a datatype.
pub(super) fn type_commit(datatype: &mut Out<MPI_Datatype>) -> Result<()> {
    universe()?.type_commit(handles::datatype(datatype.get())?)
}

/// Frees a datatype after deleting its attributes; sets the handle to MPI_DATATYPE_NULL.
pub(super) fn type_free(datatype: &mut Out<MPI_Datatype>) -> Result<()> {
    universe()?.type_free(handles::datatype(datatype.get())?)?;
    datatype.set(null());
    Ok(())
}

/// The size in bytes (MPI_UNDEFINED if it does not fit an int).
pub(super) fn type_size(datatype: MPI_Datatype, size: &mut Out<c_int>) -> Result<()> {
    let bytes = universe()?.type_size(handles::datatype(datatype)?)?;
    size.set(c_int::try_from(bytes).unwrap_or(abi::MPI_UNDEFINED));
    Ok(())
}

/// The Fortran integer of a datatype.
pub(super) fn type_c2f(datatype: MPI_Datatype) -> MPI_Fint {
    to_fortran(datatype) as MPI_Fint
}

/// The datatype of a Fortran integer (MPI_DATATYPE_NULL if it names none).
pub(super) fn type_f2c(datatype: MPI_Fint) -> MPI_Datatype {
    from_fortran(datatype as i64)
}
