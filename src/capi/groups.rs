//! Groups and the communicator constructors built on them (MPI-4.1 §7.3, §7.4), the
//! communicators' info hints, and the intercommunicator queries (there are none here).

use std::ffi::{c_char, c_int, CStr};

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Errhandler, MPI_Fint, MPI_Group, MPI_Info, MPI_Request};
use crate::engine::{Error, Result, SplitType};
use crate::ffi;

/// The `n` elements of a C array argument; `n` must not be negative and the array may be
/// NULL only when `n` is 0.
///
/// # Safety
/// `array` is NULL or valid for reads of `n` elements, for the lifetime `'a`.
pub(crate) unsafe fn array<'a, T>(
    array: *const T,
    n: c_int,
    name: &'static str,
) -> Result<&'a [T]> {
    let n = usize::try_from(n).map_err(|_| Error::InvalidArgument("a negative array length"))?;
    if n == 0 {
        return Ok(&[]);
    }
    if array.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: non-null and valid for `n` elements (the caller's contract).
    Ok(unsafe { std::slice::from_raw_parts(array, n) })
}

/// A NUL-terminated string argument's bytes.
///
/// # Safety
/// `string` is NULL or a valid NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn string<'a>(string: *const c_char, name: &'static str) -> Result<&'a [u8]> {
    if string.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: non-null and NUL-terminated (the caller's contract).
    Ok(unsafe { CStr::from_ptr(string) }.to_bytes())
}

/// Stores a new group's handle.
fn new_group(result: Result<crate::engine::Group>, newgroup: &mut Out<MPI_Group>) -> Result<()> {
    newgroup.set(encode_handle(result?));
    Ok(())
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// A new group of the communicator's processes: the one process.
pub(super) fn comm_group(comm: MPI_Comm, group: &mut Out<MPI_Group>) -> Result<()> {
    let comm = handles::comm(comm)?;
    new_group(universe()?.comm_group(comm), group)
}

/// The number of processes in a group: 1, or 0 for MPI_GROUP_EMPTY.
pub(super) fn group_size(group: MPI_Group, size: &mut Out<c_int>) -> Result<()> {
    size.set(universe()?.group_size(handles::group(group)?)?);
    Ok(())
}

/// The calling process's rank in a group: 0, or MPI_UNDEFINED when it is not a member.
pub(super) fn group_rank(group: MPI_Group, rank: &mut Out<c_int>) -> Result<()> {
    rank.set(universe()?.group_rank(handles::group(group)?)?);
    Ok(())
}

/// The ranks in `group2` of the processes with ranks `ranks1` in `group1`.
pub(super) unsafe fn group_translate_ranks(
    group1: MPI_Group,
    n: c_int,
    ranks1: *const c_int,
    group2: MPI_Group,
    ranks2: *mut c_int,
) -> Result<()> {
    let (group1, group2) = (handles::group(group1)?, handles::group(group2)?);
    // SAFETY: `ranks1` holds `n` ranks (the caller's contract).
    let ranks = unsafe { array(ranks1, n, "ranks1") }?;
    if n > 0 && ranks2.is_null() {
        return Err(Error::NullArgument("ranks2"));
    }
    let translated = universe()?.group_translate_ranks(group1, ranks, group2)?;
    // SAFETY: `ranks2` has room for `n` ranks (the caller's contract); `ranks1` may be the
    // same array, and has been read already.
    unsafe { std::ptr::copy(translated.as_ptr(), ranks2, translated.len()) };
    Ok(())
}

/// MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL.
pub(super) fn group_compare(
    group1: MPI_Group,
    group2: MPI_Group,
    result: &mut Out<c_int>,
) -> Result<()> {
    let (group1, group2) = (handles::group(group1)?, handles::group(group2)?);
    result.set(universe()?.group_compare(group1, group2)?.abi());
    Ok(())
}

/// The members of `group1`, then those of `group2` not in `group1`.
pub(super) fn group_union(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let (group1, group2) = (handles::group(group1)?, handles::group(group2)?);
    new_group(universe()?.group_union(group1, group2), newgroup)
}

/// The members of `group1` that are also in `group2`, in `group1`'s order.
pub(super) fn group_intersection(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let (group1, group2) = (handles::group(group1)?, handles::group(group2)?);
    new_group(universe()?.group_intersection(group1, group2), newgroup)
}

/// The members of `group1` that are not in `group2`, in `group1`'s order.
pub(super) fn group_difference(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let (group1, group2) = (handles::group(group1)?, handles::group(group2)?);
    new_group(universe()?.group_difference(group1, group2), newgroup)
}

/// The members of ranks `ranks`, in that order.
pub(super) unsafe fn group_incl(
    group: MPI_Group,
    n: c_int,
    ranks: *const c_int,
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let group = handles::group(group)?;
    // SAFETY: `ranks` holds `n` ranks (the caller's contract).
    let ranks = unsafe { array(ranks, n, "ranks") }?;
    new_group(universe()?.group_incl(group, ranks), newgroup)
}

/// The members other than those of ranks `ranks`, in the group's order.
pub(super) unsafe fn group_excl(
    group: MPI_Group,
    n: c_int,
    ranks: *const c_int,
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let group = handles::group(group)?;
    // SAFETY: `ranks` holds `n` ranks (the caller's contract).
    let ranks = unsafe { array(ranks, n, "ranks") }?;
    new_group(universe()?.group_excl(group, ranks), newgroup)
}

/// The members of the ranks the `n` (first, last, stride) triplets give, in that order.
pub(super) unsafe fn group_range_incl(
    group: MPI_Group,
    n: c_int,
    ranges: *mut [c_int; 3],
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let group = handles::group(group)?;
    // SAFETY: `ranges` holds `n` triplets (the caller's contract).
    let ranges = unsafe { array(ranges.cast_const(), n, "ranges") }?;
    new_group(universe()?.group_range_incl(group, ranges), newgroup)
}

/// The members other than those of the ranks the `n` triplets give.
pub(super) unsafe fn group_range_excl(
    group: MPI_Group,
    n: c_int,
    ranges: *mut [c_int; 3],
    newgroup: &mut Out<MPI_Group>,
) -> Result<()> {
    let group = handles::group(group)?;
    // SAFETY: `ranges` holds `n` triplets (the caller's contract).
    let ranges = unsafe { array(ranges.cast_const(), n, "ranges") }?;
    new_group(universe()?.group_range_excl(group, ranges), newgroup)
}

/// Frees a group and sets the handle to MPI_GROUP_NULL (MPI_GROUP_EMPTY is accepted and
/// stays valid).
pub(super) fn group_free(group: &mut Out<MPI_Group>) -> Result<()> {
    universe()?.group_free(handles::group(group.get())?)?;
    group.set(null());
    Ok(())
}

/// The Fortran integer of a group.
pub(super) fn group_c2f(group: MPI_Group) -> MPI_Fint {
    to_fortran(group) as MPI_Fint
}

/// The group of a Fortran integer (MPI_GROUP_NULL if it names none).
pub(super) fn group_f2c(group: MPI_Fint) -> MPI_Group {
    from_fortran(group as i64)
}

/// A new communicator of `group` (a subgroup of `comm`'s), without attributes;
/// MPI_COMM_NULL for MPI_GROUP_EMPTY.
pub(super) fn comm_create(
    comm: MPI_Comm,
    group: MPI_Group,
    newcomm: &mut Out<MPI_Comm>,
) -> Result<()> {
    let (comm, group) = (handles::comm(comm)?, handles::group(group)?);
    let new = universe()?.comm_create(comm, group)?;
    newcomm.set(new.map_or(null(), encode_handle));
    Ok(())
}

/// As MPI_Comm_create, called by the group's members only, with a tag.
pub(super) fn comm_create_group(
    comm: MPI_Comm,
    group: MPI_Group,
    tag: c_int,
    newcomm: &mut Out<MPI_Comm>,
) -> Result<()> {
    let (comm, group) = (handles::comm(comm)?, handles::group(group)?);
    let new = universe()?.comm_create_group(comm, group, tag)?;
    newcomm.set(new.map_or(null(), encode_handle));
    Ok(())
}

/// The value of an info key, if the info object has it.
fn info_value(info: Option<crate::engine::Info>, key: &[u8]) -> Result<Option<Vec<u8>>> {
    match info {
        Some(info) => universe()?.info_get(info, key, abi::MPI_MAX_INFO_VAL as i32),
        None => Ok(None),
    }
}

/// Splits by the kind of resource processes share: MPI_COMM_TYPE_SHARED gives a
/// communicator of the one process; the guided types one when the info names a resource the
/// process has (see docs/api.md), else MPI_COMM_NULL; MPI_UNDEFINED gives MPI_COMM_NULL.
pub(super) fn comm_split_type(
    comm: MPI_Comm,
    split_type: c_int,
    key: c_int,
    info: MPI_Info,
    newcomm: &mut Out<MPI_Comm>,
) -> Result<()> {
    let comm = handles::comm(comm)?;
    let info = handles::info_or_null(info)?;
    let split = match split_type {
        t if t == abi::MPI_UNDEFINED => None,
        t if t == abi::MPI_COMM_TYPE_SHARED as c_int => Some(SplitType::Shared),
        t if t == abi::MPI_COMM_TYPE_HW_UNGUIDED as c_int => Some(SplitType::HwUnguided),
        t if t == abi::MPI_COMM_TYPE_HW_GUIDED as c_int => Some(SplitType::HwGuided),
        t if t == abi::MPI_COMM_TYPE_RESOURCE_GUIDED as c_int => Some(SplitType::ResourceGuided),
        _ => return Err(Error::InvalidArgument("split_type is not a split type")),
    };
    let resource = match split {
        Some(SplitType::HwGuided) => info_value(info, b"mpi_hw_resource_type")?,
        Some(SplitType::ResourceGuided) => match info_value(info, b"mpi_pset_name")? {
            Some(name) => Some(name),
            None => info_value(info, b"mpi_hw_resource_type")?,
        },
        _ => {
            if let Some(info) = info {
                universe()?.info_get_nkeys(info)?;
            }
            None
        }
    };
    let universe = universe()?;
    // The key orders nothing with one process.
    let _ = key;
    let new = universe.comm_split_type(comm, split, resource.as_deref())?;
    newcomm.set(new.map_or(null(), encode_handle));
    Ok(())
}

/// A communicator of `group`, which must hold the calling process, with the error handler
/// given, made without a parent communicator (the sessions model).
pub(super) unsafe fn comm_create_from_group(
    group: MPI_Group,
    stringtag: *const c_char,
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    newcomm: &mut Out<MPI_Comm>,
) -> Result<()> {
    let group = handles::group(group)?;
    // SAFETY: a NUL-terminated string (the caller's contract).
    let tag = unsafe { string(stringtag, "stringtag") }?;
    handles::check_info(info)?;
    let handler = ffi::errhandler_from_value(errhandler as usize)?;
    let new = universe()?.comm_create_from_group(group, tag, handler)?;
    newcomm.set(encode_handle(new));
    Ok(())
}

/// MPI_Comm_idup with the hints of `info` instead of the parent's: complete on return.
pub(super) fn comm_idup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: &mut Out<MPI_Comm>,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let comm = handles::comm(comm)?;
    let info = handles::info_or_null(info)?;
    let (new, done) = universe()?.comm_idup_with_info(comm, info)?;
    newcomm.set(encode_handle(new));
    request.set(encode_handle(done));
    Ok(())
}

/// Replaces a communicator's hints by those of `info` it keeps (the assertions of MPI-4.1
/// §7.4.4 with "true" or "false"); other keys are ignored.
pub(super) fn comm_set_info(comm: MPI_Comm, info: MPI_Info) -> Result<()> {
    let (comm, info) = (handles::comm(comm)?, handles::info(info)?);
    universe()?.comm_set_info(comm, info)
}

/// A new info object with the hints the communicator keeps.
pub(super) fn comm_get_info(comm: MPI_Comm, info_used: &mut Out<MPI_Info>) -> Result<()> {
    let comm = handles::comm(comm)?;
    info_used.set(encode_handle(universe()?.comm_get_info(comm)?));
    Ok(())
}

/// Whether a communicator is an intercommunicator: never here.
pub(super) fn comm_test_inter(comm: MPI_Comm, flag: &mut Out<c_int>) -> Result<()> {
    let comm = handles::comm(comm)?;
    flag.set(universe()?.comm_test_inter(comm)? as c_int);
    Ok(())
}

/// The size of an intercommunicator's remote group: every communicator here is an
/// intracommunicator, so MPI_ERR_COMM.
pub(super) fn comm_remote_size(comm: MPI_Comm, size: &mut Out<c_int>) -> Result<()> {
    let comm = handles::comm(comm)?;
    size.set(universe()?.comm_remote_size(comm)?);
    Ok(())
}

/// An intercommunicator's remote group: MPI_ERR_COMM, as for MPI_Comm_remote_size.
pub(super) fn comm_remote_group(comm: MPI_Comm, group: &mut Out<MPI_Group>) -> Result<()> {
    let comm = handles::comm(comm)?;
    new_group(universe()?.comm_remote_group(comm), group)
}

/// The communicator to the parent of a spawned process: MPI_COMM_NULL (nothing spawned
/// this one).
pub(super) fn comm_get_parent(parent: &mut Out<MPI_Comm>) -> Result<()> {
    parent.set(universe()?.comm_get_parent()?.map_or(null(), encode_handle));
    Ok(())
}
