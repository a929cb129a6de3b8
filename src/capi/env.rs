//! Environment: MPI_Init … MPI_Wtick.

use std::ffi::{c_char, c_double, c_int};

use super::{handles, mpi_functions, mpi_infallible, universe, Out, Target};
use crate::abi::{self, MPI_Comm};
use crate::engine::ThreadLevel;
use crate::ffi::{self, thread_level_value, LIBRARY_VERSION};

mpi_functions! {
    /// Initializes the library with MPI_THREAD_SINGLE: only this thread may call MPI.
    fn MPI_Init / PMPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) on Target::SelfComm => {
        let _ = (argc, argv);
        ffi::initialize(ThreadLevel::Single, None)
    }

    /// Initializes the library; always provides MPI_THREAD_MULTIPLE.
    fn MPI_Init_thread / PMPI_Init_thread(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        required: c_int,
        provided: *mut c_int,
    ) on Target::SelfComm => {
        let _ = (argc, argv);
        // SAFETY: an MPI output argument: NULL or valid.
        let mut provided = unsafe { Out::new(provided, "provided") }?;
        ffi::initialize(ThreadLevel::Multiple, Some(required))?;
        provided.set(thread_level_value(ThreadLevel::Multiple));
        Ok(())
    }

    /// The thread level provided at initialization.
    fn MPI_Query_thread / PMPI_Query_thread(provided: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut provided = unsafe { Out::new(provided, "provided") }?;
        provided.set(thread_level_value(universe()?.thread_level()));
        Ok(())
    }

    /// Whether the calling thread initialized MPI.
    fn MPI_Is_thread_main / PMPI_Is_thread_main(flag: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut flag = unsafe { Out::new(flag, "flag") }?;
        flag.set(universe()?.is_main_thread() as c_int);
        Ok(())
    }

    /// Deletes the attributes of MPI_COMM_SELF, MPI_COMM_WORLD and the predefined datatypes
    /// (in that order, with delete callbacks), then ends the library.
    fn MPI_Finalize / PMPI_Finalize() on Target::Comm(abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize as MPI_Comm) => {
        ffi::finalize()
    }

    /// Whether MPI_Init has been called (true after MPI_Finalize too).
    fn MPI_Initialized / PMPI_Initialized(flag: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut flag = unsafe { Out::new(flag, "flag") }?;
        flag.set(ffi::initialized() as c_int);
        Ok(())
    }

    /// Whether MPI_Finalize has completed.
    fn MPI_Finalized / PMPI_Finalized(flag: *mut c_int) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut flag = unsafe { Out::new(flag, "flag") }?;
        flag.set(ffi::finalized() as c_int);
        Ok(())
    }

    /// Prints one line and ends the process with status `errorcode & 255`.
    fn MPI_Abort / PMPI_Abort(comm: MPI_Comm, errorcode: c_int) on Target::SelfComm => {
        let name = handles::predefined_name(comm as usize)
            .map(str::to_string)
            .unwrap_or_else(|| format!("{:#x}", comm as usize));
        ffi::abort("MPI_Abort", &name, errorcode.into())
    }

    /// The MPI version: 5.0.
    fn MPI_Get_version / PMPI_Get_version(version: *mut c_int, subversion: *mut c_int) on Target::SelfComm => {
        // SAFETY: MPI output arguments: NULL or valid.
        let (mut version, mut subversion) = unsafe { (Out::new(version, "version")?, Out::new(subversion, "subversion")?) };
        version.set(abi::MPI_VERSION as c_int);
        subversion.set(abi::MPI_SUBVERSION as c_int);
        Ok(())
    }

    /// The library's name and version.
    fn MPI_Get_library_version / PMPI_Get_library_version(version: *mut c_char, resultlen: *mut c_int) on Target::SelfComm => {
        // SAFETY: `version` has room for MPI_MAX_LIBRARY_VERSION_STRING characters, as the
        // standard requires of the caller; `resultlen` is an output argument.
        unsafe {
            let mut resultlen = Out::new(resultlen, "resultlen")?;
            Out::new(version, "version")?;
            super::errors::write_string(version, abi::MPI_MAX_LIBRARY_VERSION_STRING as usize, LIBRARY_VERSION.as_bytes(), &mut resultlen);
        }
        Ok(())
    }
}

mpi_infallible! {
    /// Seconds since a fixed time in the past (the first call), from a monotonic clock.
    fn MPI_Wtime / PMPI_Wtime() -> c_double, or 0.0 => {
        ffi::wtime()
    }

    /// The resolution of MPI_Wtime: one nanosecond.
    fn MPI_Wtick / PMPI_Wtick() -> c_double, or ffi::WTICK => {
        ffi::WTICK
    }
}
