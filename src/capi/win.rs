//! Windows and memory.

use std::ffi::{c_int, c_void};

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{mpi_functions, mpi_infallible, universe, Out, Target};
use crate::abi::{self, MPI_Aint, MPI_Comm, MPI_Fint, MPI_Info, MPI_Win};
use crate::engine::Error;

mpi_functions! {
    /// A window over memory the caller owns.
    fn MPI_Win_create / PMPI_Win_create(base: *mut c_void, size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm, win: *mut MPI_Win) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut win = unsafe { Out::new(win, "win") }?;
        handles::check_info(info)?;
        let new = universe()?.win_create(handles::comm(comm)?, base as usize, size, disp_unit)?;
        win.set(encode_handle(new));
        Ok(())
    }

    /// A window over `size` bytes the library allocates; their address goes to `*baseptr`.
    fn MPI_Win_allocate / PMPI_Win_allocate(size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) on Target::Comm(comm) => {
        // SAFETY: MPI output arguments: NULL or valid; `baseptr` is really a `void**`.
        let (mut baseptr, mut win) = unsafe { (Out::new(baseptr.cast::<*mut c_void>(), "baseptr")?, Out::new(win, "win")?) };
        handles::check_info(info)?;
        let (new, base) = universe()?.win_allocate(handles::comm(comm)?, size, disp_unit)?;
        baseptr.set(base as *mut c_void);
        win.set(encode_handle(new));
        Ok(())
    }

    /// A window without memory (base MPI_BOTTOM, size 0).
    fn MPI_Win_create_dynamic / PMPI_Win_create_dynamic(info: MPI_Info, comm: MPI_Comm, win: *mut MPI_Win) on Target::Comm(comm) => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut win = unsafe { Out::new(win, "win") }?;
        handles::check_info(info)?;
        let new = universe()?.win_create_dynamic(handles::comm(comm)?)?;
        win.set(encode_handle(new));
        Ok(())
    }

    /// Frees a window after deleting its attributes; sets the handle to MPI_WIN_NULL. If a
    /// delete callback fails the window stays valid.
    fn MPI_Win_free / PMPI_Win_free(win: *mut MPI_Win) on Target::Win(if win.is_null() { null() } else {
        // SAFETY: non-null, and valid (the caller's contract).
        unsafe { win.read() }
    }) => {
        // SAFETY: an MPI in-out argument: NULL or valid.
        let mut win = unsafe { Out::new(win, "win") }?;
        universe()?.win_free(handles::win(win.get())?)?;
        win.set(null());
        Ok(())
    }

    /// The address of a location, as an MPI_Aint (how Fortran programs compare addresses).
    fn MPI_Get_address / PMPI_Get_address(location: *const c_void, address: *mut MPI_Aint) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid.
        let mut address = unsafe { Out::new(address, "address") }?;
        universe()?;
        address.set(location as MPI_Aint);
        Ok(())
    }

    /// `size` bytes of zeroed, 16-byte aligned memory; the address goes to `*baseptr`.
    fn MPI_Alloc_mem / PMPI_Alloc_mem(size: MPI_Aint, info: MPI_Info, baseptr: *mut c_void) on Target::SelfComm => {
        // SAFETY: an MPI output argument: NULL or valid; `baseptr` is really a `void**`.
        let mut baseptr = unsafe { Out::new(baseptr.cast::<*mut c_void>(), "baseptr") }?;
        handles::check_info(info)?;
        let size = usize::try_from(size).map_err(|_| Error::InvalidSize)?;
        baseptr.set(universe()?.alloc_mem(size)? as *mut c_void);
        Ok(())
    }

    /// Frees memory from MPI_Alloc_mem (NULL is accepted and ignored).
    fn MPI_Free_mem / PMPI_Free_mem(base: *mut c_void) on Target::SelfComm => {
        crate::ffi::free_mem(base as usize)
    }
}

mpi_infallible! {
    /// The Fortran integer of a window.
    fn MPI_Win_c2f / PMPI_Win_c2f(win: MPI_Win) -> MPI_Fint, or abi::MPIATTR_HANDLE_MPI_WIN_NULL as MPI_Fint => {
        to_fortran(win) as MPI_Fint
    }

    /// The window of a Fortran integer (MPI_WIN_NULL if it names none).
    fn MPI_Win_f2c / PMPI_Win_f2c(win: MPI_Fint) -> MPI_Win, or null() => {
        from_fortran(win as i64)
    }
}
