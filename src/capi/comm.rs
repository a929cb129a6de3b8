//! Communicators and the requests of MPI_Comm_idup.

use std::ffi::{c_char, c_int, CStr};

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{mpi_functions, mpi_infallible, universe, Out, Target};
use crate::abi::{self, MPI_Comm, MPI_Fint, MPI_Info, MPI_Request};
use crate::engine::{Error, Result};
use crate::ffi;

/// Duplicates `comm` into `*newcomm`, which is MPI_COMM_NULL if the duplication fails.
fn dup_into(comm: MPI_Comm, newcomm: &mut Out<MPI_Comm>) -> Result<()> {
    let result = handles::comm(comm).and_then(|comm| universe()?.comm_dup(comm));
    newcomm.set(result.as_ref().map_or(null(), |new| encode_handle(*new)));
    result.map(drop)
}

mpi_functions! {
    /// Duplicates a communicator with its attributes (copy callbacks run in set order).
    fn MPI_Comm_dup / PMPI_Comm_dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut newcomm = unsafe { Out::new(newcomm, "newcomm") }?;
        dup_into(comm, &mut newcomm)
    }

    /// MPI_Comm_dup with info hints (MPI_INFO_NULL or MPI_INFO_ENV).
    fn MPI_Comm_dup_with_info / PMPI_Comm_dup_with_info(comm: MPI_Comm, info: MPI_Info, newcomm: *mut MPI_Comm) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut newcomm = unsafe { Out::new(newcomm, "newcomm") }?;
        handles::check_info(info)?;
        dup_into(comm, &mut newcomm)
    }

    /// Nonblocking MPI_Comm_dup: complete on return, with a complete request.
    fn MPI_Comm_idup / PMPI_Comm_idup(comm: MPI_Comm, newcomm: *mut MPI_Comm, request: *mut MPI_Request) on Target::Comm(comm) => {
        // SAFETY: MPI output arguments: NULL or valid.
        let (mut newcomm, mut request) = unsafe { (Out::new(newcomm, "newcomm")?, Out::new(request, "request")?) };
        let result = handles::comm(comm).and_then(|comm| universe()?.comm_idup(comm));
        match result {
            Ok((new, done)) => {
                newcomm.set(encode_handle(new));
                request.set(encode_handle(done));
                Ok(())
            }
            Err(error) => {
                newcomm.set(null());
                Err(error)
            }
        }
    }

    /// Splits a communicator: MPI_UNDEFINED gives MPI_COMM_NULL, any other colour a new
    /// communicator without attributes.
    fn MPI_Comm_split / PMPI_Comm_split(comm: MPI_Comm, color: c_int, key: c_int, newcomm: *mut MPI_Comm) on Target::Comm(comm) => {
        let _ = key;
        // SAFETY: an MPI output argument: NULL or valid.
        let mut newcomm = unsafe { Out::new(newcomm, "newcomm") }?;
        let new = ffi::comm_split(handles::comm(comm), color.into())?;
        newcomm.set(new.map_or(null(), encode_handle));
        Ok(())
    }

    /// Frees a communicator after deleting its attributes (newest first); sets the handle to
    /// MPI_COMM_NULL. If a delete callback fails the communicator stays valid.
    fn MPI_Comm_free / PMPI_Comm_free(comm: *mut MPI_Comm) on Target::Comm(if comm.is_null() { null() } else {
        // SAFETY: non-null, and valid (the caller's contract).
        unsafe { comm.read() }
    }) => {
        // SAFETY: an MPI in-out argument: NULL or valid.
        let mut comm = unsafe { Out::new(comm, "comm") }?;
        universe()?.comm_free(handles::comm(comm.get())?)?;
        comm.set(null());
        Ok(())
    }

    /// The rank of the process: 0.
    fn MPI_Comm_rank / PMPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut rank = unsafe { Out::new(rank, "rank") }?;
        ffi::live_comm(handles::comm(comm))?;
        rank.set(0);
        Ok(())
    }

    /// The size of every communicator: 1.
    fn MPI_Comm_size / PMPI_Comm_size(comm: MPI_Comm, size: *mut c_int) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut size = unsafe { Out::new(size, "size") }?;
        ffi::live_comm(handles::comm(comm))?;
        size.set(1);
        Ok(())
    }

    /// MPI_IDENT for the same communicator, MPI_CONGRUENT for two (each holds the one process).
    fn MPI_Comm_compare / PMPI_Comm_compare(comm1: MPI_Comm, comm2: MPI_Comm, result: *mut c_int) on Target::Comm(comm1) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut result = unsafe { Out::new(result, "result") }?;
        result.set(ffi::comm_compare(handles::comm(comm1), handles::comm(comm2))?);
        Ok(())
    }

    /// Names a communicator (at most MPI_MAX_OBJECT_NAME - 1 bytes are kept).
    fn MPI_Comm_set_name / PMPI_Comm_set_name(comm: MPI_Comm, comm_name: *const c_char) on Target::Comm(comm) => {
        if comm_name.is_null() {
            return Err(Error::NullArgument("comm_name"));
        }
        // SAFETY: a non-null pointer to a NUL-terminated string (the caller's contract).
        let name = ffi::object_name(unsafe { CStr::from_ptr(comm_name) }.to_bytes());
        universe()?.set_comm_name(handles::comm(comm)?, name)
    }

    /// A communicator's name.
    fn MPI_Comm_get_name / PMPI_Comm_get_name(comm: MPI_Comm, comm_name: *mut c_char, resultlen: *mut c_int) on Target::Comm(comm) => {
        let name = universe()?.comm_name(handles::comm(comm)?)?;
        // SAFETY: `comm_name` has room for MPI_MAX_OBJECT_NAME characters (the standard's
        // requirement on the caller); `resultlen` is an output argument.
        unsafe {
            let mut resultlen = Out::new(resultlen, "resultlen")?;
            Out::new(comm_name, "comm_name")?;
            super::errors::write_string(comm_name, abi::MPI_MAX_OBJECT_NAME as usize, &name, &mut resultlen);
        }
        Ok(())
    }
}

mpi_infallible! {
    /// The Fortran integer of a communicator.
    fn MPI_Comm_c2f / PMPI_Comm_c2f(comm: MPI_Comm) -> MPI_Fint, or abi::MPIATTR_HANDLE_MPI_COMM_NULL as MPI_Fint => {
        to_fortran(comm) as MPI_Fint
    }

    /// The communicator of a Fortran integer (MPI_COMM_NULL if it names none).
    fn MPI_Comm_f2c / PMPI_Comm_f2c(comm: MPI_Fint) -> MPI_Comm, or null() => {
        from_fortran(comm as i64)
    }
}
