//! Windows and memory.

use std::ffi::{c_int, c_void};

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{universe, Out};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Fint, MPI_Info, MPI_Win};
use crate::engine::{Error, Result};

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// A window over memory the caller owns.
pub(super) fn win_create(
    base: *mut c_void,
    size: MPI_Aint,
    disp_unit: c_int,
    info: MPI_Info,
    comm: MPI_Comm,
    win: &mut Out<MPI_Win>,
) -> Result<()> {
    handles::check_info(info)?;
    let new = universe()?.win_create(handles::comm(comm)?, base as usize, size, disp_unit)?;
    win.set(encode_handle(new));
    Ok(())
}

/// A window over `size` bytes the library allocates; their address goes to `*baseptr`.
pub(super) fn win_allocate(
    size: MPI_Aint,
    disp_unit: c_int,
    info: MPI_Info,
    comm: MPI_Comm,
    baseptr: &mut Out<*mut c_void>,
    win: &mut Out<MPI_Win>,
) -> Result<()> {
    handles::check_info(info)?;
    let (new, base) = universe()?.win_allocate(handles::comm(comm)?, size, disp_unit)?;
    baseptr.set(base as *mut c_void);
    win.set(encode_handle(new));
    Ok(())
}

/// A window without memory (base MPI_BOTTOM, size 0).
pub(super) fn win_create_dynamic(
    info: MPI_Info,
    comm: MPI_Comm,
    win: &mut Out<MPI_Win>,
) -> Result<()> {
    handles::check_info(info)?;
    let new = universe()?.win_create_dynamic(handles::comm(comm)?)?;
    win.set(encode_handle(new));
    Ok(())
}

/// Frees a window after deleting its attributes; sets the handle to MPI_WIN_NULL. If a
/// delete callback fails the window stays valid.
pub(super) fn win_free(win: &mut Out<MPI_Win>) -> Result<()> {
    universe()?.win_free(handles::win(win.get())?)?;
    win.set(null());
    Ok(())
}

/// The address of a location, as an MPI_Aint (how Fortran programs compare addresses).
pub(super) fn get_address(location: *const c_void, address: &mut Out<MPI_Aint>) -> Result<()> {
    universe()?;
    address.set(location as MPI_Aint);
    Ok(())
}

/// `size` bytes of zeroed, 16-byte aligned memory; the address goes to `*baseptr`.
pub(super) fn alloc_mem(
    size: MPI_Aint,
    info: MPI_Info,
    baseptr: &mut Out<*mut c_void>,
) -> Result<()> {
    handles::check_info(info)?;
    let size = usize::try_from(size).map_err(|_| Error::InvalidSize)?;
    baseptr.set(universe()?.alloc_mem(size)? as *mut c_void);
    Ok(())
}

/// Frees memory from MPI_Alloc_mem (NULL is accepted and ignored).
pub(super) fn free_mem(base: *mut c_void) -> Result<()> {
    crate::ffi::free_mem(base as usize)
}

/// The Fortran integer of a window.
pub(super) fn win_c2f(win: MPI_Win) -> MPI_Fint {
    to_fortran(win) as MPI_Fint
}

/// The window of a Fortran integer (MPI_WIN_NULL if it names none).
pub(super) fn win_f2c(win: MPI_Fint) -> MPI_Win {
    from_fortran(win as i64)
}
