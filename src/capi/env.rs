//! Environment: MPI_Init … MPI_Wtick.

use std::ffi::{c_char, c_double, c_int, c_void};

use super::handles::{self, encode_handle};
use super::{universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Info};
use crate::engine::{Error, Result, ThreadLevel};
use crate::ffi::{self, thread_level_value, LIBRARY_VERSION};

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Initializes the library with MPI_THREAD_SINGLE: only this thread may call MPI.
pub(super) fn init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> Result<()> {
    let _ = (argc, argv);
    ffi::initialize(ThreadLevel::Single, None)
}

/// Initializes the library; always provides MPI_THREAD_MULTIPLE.
pub(super) fn init_thread(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    required: c_int,
    provided: &mut Out<c_int>,
) -> Result<()> {
    let _ = (argc, argv);
    ffi::initialize(ThreadLevel::Multiple, Some(required))?;
    provided.set(thread_level_value(ThreadLevel::Multiple));
    Ok(())
}

/// The thread level provided at initialization.
pub(super) fn query_thread(provided: &mut Out<c_int>) -> Result<()> {
    provided.set(thread_level_value(universe()?.thread_level()));
    Ok(())
}

/// Whether the calling thread initialized MPI.
pub(super) fn is_thread_main(flag: &mut Out<c_int>) -> Result<()> {
    flag.set(universe()?.is_main_thread() as c_int);
    Ok(())
}

/// Deletes the attributes of MPI_COMM_SELF, MPI_COMM_WORLD and the predefined datatypes
/// (in that order, with delete callbacks), then ends the library.
pub(super) fn finalize() -> Result<()> {
    ffi::finalize()
}

/// Whether MPI_Init has been called (true after MPI_Finalize too).
pub(super) fn initialized(flag: &mut Out<c_int>) -> Result<()> {
    flag.set(ffi::initialized() as c_int);
    Ok(())
}

/// Whether MPI_Finalize has completed.
pub(super) fn finalized(flag: &mut Out<c_int>) -> Result<()> {
    flag.set(ffi::finalized() as c_int);
    Ok(())
}

/// Prints one line and ends the process with status `errorcode & 255`.
pub(super) fn abort(comm: MPI_Comm, errorcode: c_int) -> Result<()> {
    let name = handles::predefined_name(comm as usize)
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:#x}", comm as usize));
    ffi::abort("MPI_Abort", &name, errorcode.into())
}

/// The MPI version: 5.0.
pub(super) fn get_version(version: &mut Out<c_int>, subversion: &mut Out<c_int>) -> Result<()> {
    version.set(abi::MPI_VERSION as c_int);
    subversion.set(abi::MPI_SUBVERSION as c_int);
    Ok(())
}

/// The library's name and version.
pub(super) unsafe fn get_library_version(
    version: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    // SAFETY: `version` has room for MPI_MAX_LIBRARY_VERSION_STRING characters, as the
    // standard requires of the caller; `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(version, "version")?;
        super::errors::write_string(
            version,
            abi::MPI_MAX_LIBRARY_VERSION_STRING as usize,
            LIBRARY_VERSION.as_bytes(),
            &mut resultlen,
        );
    }
    Ok(())
}

/// Seconds since a fixed time in the past (the first call), from a monotonic clock.
pub(super) fn wtime() -> c_double {
    ffi::wtime()
}

/// The resolution of MPI_Wtime: one nanosecond.
pub(super) fn wtick() -> c_double {
    ffi::WTICK
}

/// The name of the machine: the kernel's host name (`/proc/sys/kernel/hostname`), else
/// `$HOSTNAME`, else `/etc/hostname`, else "localhost"; at most MPI_MAX_PROCESSOR_NAME - 1
/// bytes.
fn processor_name() -> Vec<u8> {
    let read = |path: &str| std::fs::read(path).ok();
    let name = read("/proc/sys/kernel/hostname")
        .or_else(|| std::env::var("HOSTNAME").ok().map(String::into_bytes))
        .or_else(|| read("/etc/hostname"))
        .map(|bytes| bytes.trim_ascii().to_vec())
        .filter(|name| !name.is_empty() && !name.contains(&0))
        .unwrap_or_else(|| b"localhost".to_vec());
    name
}

/// The name of the machine the process runs on (its host name).
pub(super) unsafe fn get_processor_name(name: *mut c_char, resultlen: *mut c_int) -> Result<()> {
    // SAFETY: `name` has room for MPI_MAX_PROCESSOR_NAME characters (the standard's
    // requirement on the caller); `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(name, "name")?;
        universe()?;
        super::errors::write_string(
            name,
            abi::MPI_MAX_PROCESSOR_NAME as usize,
            &processor_name(),
            &mut resultlen,
        );
    }
    Ok(())
}

/// The profiling control: does nothing (a profiling library that interposes MPI_Pcontrol
/// sees the level); any level is accepted.
pub(super) fn pcontrol(level: c_int) -> Result<()> {
    let _ = level;
    universe()?;
    Ok(())
}

/// A new info object on the hardware the process runs on: `mpi_hw_resource_type`
/// "mpi_shared_memory", the one resource MPI_Comm_split_type knows.
pub(super) fn get_hw_resource_info(hw_info: &mut Out<MPI_Info>) -> Result<()> {
    hw_info.set(encode_handle(new_info(&[(
        "mpi_hw_resource_type",
        "mpi_shared_memory".to_string(),
    )])?));
    Ok(())
}

/// A new info object with these pairs.
fn new_info(pairs: &[(&str, String)]) -> Result<crate::engine::Info> {
    let universe = universe()?;
    let info = universe.info_create()?;
    for (key, value) in pairs {
        if let Err(error) = universe.info_set(info, key.as_bytes(), value.as_bytes()) {
            let _ = universe.info_free(info);
            return Err(error);
        }
    }
    Ok(info)
}

/// The version of the standard ABI the library implements: 1.0.
pub(super) fn abi_get_version(
    abi_major: &mut Out<c_int>,
    abi_minor: &mut Out<c_int>,
) -> Result<()> {
    abi_major.set(abi::MPI_ABI_VERSION as c_int);
    abi_minor.set(abi::MPI_ABI_SUBVERSION as c_int);
    Ok(())
}

/// A new info object with the sizes of the ABI's integer types: `mpi_aint_size`,
/// `mpi_count_size`, `mpi_offset_size` (bytes, in decimal).
pub(super) fn abi_get_info(info: &mut Out<MPI_Info>) -> Result<()> {
    info.set(encode_handle(new_info(&[
        ("mpi_aint_size", size_of::<abi::MPI_Aint>().to_string()),
        ("mpi_count_size", size_of::<abi::MPI_Count>().to_string()),
        ("mpi_offset_size", size_of::<abi::MPI_Offset>().to_string()),
    ])?));
    Ok(())
}

/// A new info object on the Fortran configuration: `mpi_integer_size` (4, or 8 with 8-byte
/// INTEGERs), `mpi_logical_size` (the same), `mpi_real_size` "4",
/// `mpi_double_precision_size` "8" (gfortran's defaults).
pub(super) fn abi_get_fortran_info(info: &mut Out<MPI_Info>) -> Result<()> {
    let integer = size_of::<abi::MPI_Fint>().to_string();
    info.set(encode_handle(new_info(&[
        ("mpi_integer_size", integer.clone()),
        ("mpi_logical_size", integer),
        ("mpi_real_size", "4".to_string()),
        ("mpi_double_precision_size", "8".to_string()),
    ])?));
    Ok(())
}

/// The values of `.TRUE.` and `.FALSE.` for a LOGICAL of `logical_size` bytes (1, 2, 4 or
/// 8): gfortran's 1 and 0; `*is_set` true. Other sizes: MPI_ERR_ARG.
pub(super) unsafe fn abi_get_fortran_booleans(
    logical_size: c_int,
    logical_true: *mut c_void,
    logical_false: *mut c_void,
    is_set: &mut Out<c_int>,
) -> Result<()> {
    let size = match logical_size {
        1 | 2 | 4 | 8 => logical_size as usize,
        _ => return Err(Error::InvalidArgument("logical_size is not 1, 2, 4 or 8")),
    };
    if logical_true.is_null() {
        return Err(Error::NullArgument("logical_true"));
    }
    if logical_false.is_null() {
        return Err(Error::NullArgument("logical_false"));
    }
    universe()?;
    let one = 1u64.to_ne_bytes();
    let (one, zero) = if cfg!(target_endian = "little") {
        (&one[..size], &[0u8; 8][..size])
    } else {
        (&one[8 - size..], &[0u8; 8][..size])
    };
    // SAFETY: each points at a LOGICAL of `logical_size` bytes (the caller's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(one.as_ptr(), logical_true.cast::<u8>(), size);
        std::ptr::copy_nonoverlapping(zero.as_ptr(), logical_false.cast::<u8>(), size);
    }
    is_set.set(1);
    Ok(())
}

/// The `int` of a communicator handle (docs/api.md "Handle conversions").
pub(super) fn comm_toint(comm: abi::MPI_Comm) -> c_int {
    handles::to_int(comm)
}

/// The communicator handle of an `int` from `MPI_Comm_toint` (the null handle if it
/// names nothing alive).
pub(super) fn comm_fromint(comm: c_int) -> abi::MPI_Comm {
    handles::from_int(comm)
}

/// The `int` of a datatype handle (docs/api.md "Handle conversions").
pub(super) fn type_toint(datatype: abi::MPI_Datatype) -> c_int {
    handles::to_int(datatype)
}

/// The datatype handle of an `int` from `MPI_Type_toint` (the null handle if it
/// names nothing alive).
pub(super) fn type_fromint(datatype: c_int) -> abi::MPI_Datatype {
    handles::from_int(datatype)
}

/// The `int` of a window handle (docs/api.md "Handle conversions").
pub(super) fn win_toint(win: abi::MPI_Win) -> c_int {
    handles::to_int(win)
}

/// The window handle of an `int` from `MPI_Win_toint` (the null handle if it
/// names nothing alive).
pub(super) fn win_fromint(win: c_int) -> abi::MPI_Win {
    handles::from_int(win)
}

/// The `int` of a request handle (docs/api.md "Handle conversions").
pub(super) fn request_toint(request: abi::MPI_Request) -> c_int {
    handles::to_int(request)
}

/// The request handle of an `int` from `MPI_Request_toint` (the null handle if it
/// names nothing alive).
pub(super) fn request_fromint(request: c_int) -> abi::MPI_Request {
    handles::from_int(request)
}

/// The `int` of a group handle (docs/api.md "Handle conversions").
pub(super) fn group_toint(group: abi::MPI_Group) -> c_int {
    handles::to_int(group)
}

/// The group handle of an `int` from `MPI_Group_toint` (the null handle if it
/// names nothing alive).
pub(super) fn group_fromint(group: c_int) -> abi::MPI_Group {
    handles::from_int(group)
}

/// The `int` of a info object handle (docs/api.md "Handle conversions").
pub(super) fn info_toint(info: abi::MPI_Info) -> c_int {
    handles::to_int(info)
}

/// The info object handle of an `int` from `MPI_Info_toint` (the null handle if it
/// names nothing alive).
pub(super) fn info_fromint(info: c_int) -> abi::MPI_Info {
    handles::from_int(info)
}

/// The `int` of a session handle (docs/api.md "Handle conversions").
pub(super) fn session_toint(session: abi::MPI_Session) -> c_int {
    handles::to_int(session)
}

/// The session handle of an `int` from `MPI_Session_toint` (the null handle if it
/// names nothing alive).
pub(super) fn session_fromint(session: c_int) -> abi::MPI_Session {
    handles::from_int(session)
}

/// The `int` of an error handler handle: a predefined one's ABI value, the null handle's for
/// anything else.
pub(super) fn errhandler_toint(errhandler: abi::MPI_Errhandler) -> c_int {
    let first = abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize;
    handles::predefined_int(errhandler as usize, first..=first + 7) as c_int
}

/// The error handler handle of an `int` from `MPI_Errhandler_toint` (the null handle if
/// it names no predefined one).
pub(super) fn errhandler_fromint(errhandler: c_int) -> abi::MPI_Errhandler {
    let first = abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as usize;
    let value = usize::try_from(errhandler).unwrap_or(first);
    handles::predefined_int(value, first..=first + 7) as abi::MPI_Errhandler
}

/// The `int` of an operation handle: a predefined one's ABI value, a user op's as its
/// Fortran integer with 4-byte INTEGERs, the null handle's for anything else.
pub(super) fn op_toint(op: abi::MPI_Op) -> c_int {
    handles::to_int(op)
}

/// The operation handle of an `int` from `MPI_Op_toint` (the null handle if
/// it names no predefined one).
pub(super) fn op_fromint(op: c_int) -> abi::MPI_Op {
    handles::from_int(op)
}

/// The `int` of a file handle: a predefined one's ABI value, the null handle's for
/// anything else.
pub(super) fn file_toint(file: abi::MPI_File) -> c_int {
    let first = abi::MPIATTR_HANDLE_MPI_FILE_NULL as usize;
    handles::predefined_int(file as usize, first..=first + 7) as c_int
}

/// The file handle of an `int` from `MPI_File_toint` (the null handle if
/// it names no predefined one).
pub(super) fn file_fromint(file: c_int) -> abi::MPI_File {
    let first = abi::MPIATTR_HANDLE_MPI_FILE_NULL as usize;
    let value = usize::try_from(file).unwrap_or(first);
    handles::predefined_int(value, first..=first + 7) as abi::MPI_File
}

/// The `int` of a message handle: `MPI_MESSAGE_NO_PROC`'s ABI value, a matched message's
/// as its Fortran integer with 4-byte INTEGERs, the null handle's for anything else.
pub(super) fn message_toint(message: abi::MPI_Message) -> c_int {
    handles::to_int(message)
}

/// The message handle of an `int` from `MPI_Message_toint` (the null handle if
/// it names no message).
pub(super) fn message_fromint(message: c_int) -> abi::MPI_Message {
    handles::from_int(message)
}
