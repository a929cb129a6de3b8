//! Datatypes: every predefined datatype of the ABI, duplicates and contiguous types.

use std::ffi::c_int;

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{mpi_functions, mpi_infallible, universe, Out, Target};
use crate::abi::{self, MPI_Datatype, MPI_Fint};
use crate::engine::{Error, Result};

fn dup_into(oldtype: MPI_Datatype, newtype: &mut Out<MPI_Datatype>) -> Result<()> {
    let result = handles::datatype(oldtype).and_then(|old| universe()?.type_dup(old));
    newtype.set(result.as_ref().map_or(null(), |new| encode_handle(*new)));
    result.map(drop)
}

mpi_functions! {
    /// Duplicates a datatype with its attributes (copy callbacks run in set order).
    fn MPI_Type_dup / PMPI_Type_dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut newtype = unsafe { Out::new(newtype, "newtype") }?;
        dup_into(oldtype, &mut newtype)
    }

    /// `count` copies of `oldtype`, without attributes.
    fn MPI_Type_contiguous / PMPI_Type_contiguous(count: c_int, oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut newtype = unsafe { Out::new(newtype, "newtype") }?;
        let count = usize::try_from(count).map_err(|_| Error::InvalidCount)?;
        let new = universe()?.type_contiguous(count, handles::datatype(oldtype)?)?;
        newtype.set(encode_handle(new));
        Ok(())
    }

    /// Commits a datatype.
    fn MPI_Type_commit / PMPI_Type_commit(datatype: *mut MPI_Datatype) on Target::SelfComm => {
        // SAFETY: an MPI in-out argument: NULL or valid.
        let datatype = unsafe { Out::new(datatype, "datatype") }?;
        universe()?.type_commit(handles::datatype(datatype.get())?)
    }

    /// Frees a datatype after deleting its attributes; sets the handle to MPI_DATATYPE_NULL.
    fn MPI_Type_free / PMPI_Type_free(datatype: *mut MPI_Datatype) on Target::SelfComm => {
        // SAFETY: an MPI in-out argument: NULL or valid.
        let mut datatype = unsafe { Out::new(datatype, "datatype") }?;
        universe()?.type_free(handles::datatype(datatype.get())?)?;
        datatype.set(null());
        Ok(())
    }

    /// The size in bytes (MPI_UNDEFINED if it does not fit an int).
    fn MPI_Type_size / PMPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut size = unsafe { Out::new(size, "size") }?;
        let bytes = universe()?.type_size(handles::datatype(datatype)?)?;
        size.set(c_int::try_from(bytes).unwrap_or(abi::MPI_UNDEFINED));
        Ok(())
    }
}

mpi_infallible! {
    /// The Fortran integer of a datatype.
    fn MPI_Type_c2f / PMPI_Type_c2f(datatype: MPI_Datatype) -> MPI_Fint, or abi::MPIATTR_HANDLE_MPI_DATATYPE_NULL as MPI_Fint => {
        to_fortran(datatype) as MPI_Fint
    }

    /// The datatype of a Fortran integer (MPI_DATATYPE_NULL if it names none).
    fn MPI_Type_f2c / PMPI_Type_f2c(datatype: MPI_Fint) -> MPI_Datatype, or null() => {
        from_fortran(datatype as i64)
    }
}
