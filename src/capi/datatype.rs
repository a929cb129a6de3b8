//! Datatypes (MPI-4.1 chapter 5): every predefined datatype of the ABI, the constructors,
//! the layout queries, envelope and contents, names, and element counts in statuses; the C
//! shell over src/engine/type_api.rs. Packing is in pack.rs.
//!
//! Each constructor reads its C arrays, converts every count and displacement to `i64` and
//! hands them to the engine, which checks them and builds the type map; the `_c` forms pass
//! `large` so that MPI_Type_get_contents returns the arguments where the standard says.

use std::ffi::{c_char, c_int, CStr};

use super::handles::{self, encode_handle, from_fortran, null, to_fortran};
use super::{universe, Out};
use crate::abi::{self, MPI_Aint, MPI_Count, MPI_Datatype, MPI_Fint, MPI_Status};
use crate::engine::typemap::{self, Combiner, DarrayCodes, DarrayDim, Distribution, Order};
use crate::engine::{Datatype, Error, Result, TypeClass, Universe};

fn dup_into(oldtype: MPI_Datatype, newtype: &mut Out<MPI_Datatype>) -> Result<()> {
    let result = handles::datatype(oldtype).and_then(|old| universe()?.type_dup(old));
    newtype.set(result.as_ref().map_or(null(), |new| encode_handle(*new)));
    result.map(drop)
}

/// Writes a new datatype's handle.
fn made(newtype: &mut Out<MPI_Datatype>, new: Datatype) -> Result<()> {
    newtype.set(encode_handle(new));
    Ok(())
}

/// A count argument: negative is `MPI_ERR_COUNT`.
fn length(count: i64) -> Result<usize> {
    usize::try_from(count).map_err(|_| Error::InvalidCount)
}

/// The `len` entries of an input array argument, as `i64`; NULL with entries to read is
/// `MPI_ERR_ARG` naming it.
///
/// # Safety
/// `pointer` is NULL or valid for reads of `len` items (the caller's contract).
unsafe fn array<T: Copy + Into<i64>>(
    pointer: *const T,
    len: usize,
    name: &'static str,
) -> Result<Vec<i64>> {
    if len == 0 {
        return Ok(Vec::new());
    }
    if pointer.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: `len` readable items (the caller's contract).
    let items = unsafe { std::slice::from_raw_parts(pointer, len) };
    Ok(items.iter().map(|&v| v.into()).collect())
}

/// An array of `MPI_Aint` (an `isize`, which has no `Into<i64>`).
///
/// # Safety
/// As for [`array`].
unsafe fn addresses(pointer: *const MPI_Aint, len: usize, name: &'static str) -> Result<Vec<i64>> {
    if len == 0 {
        return Ok(Vec::new());
    }
    if pointer.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: `len` readable items (the caller's contract).
    let items = unsafe { std::slice::from_raw_parts(pointer, len) };
    Ok(items.iter().map(|&v| v as i64).collect())
}

/// The datatypes of MPI_Type_create_struct's `array_of_types`.
///
/// # Safety
/// As for [`array`].
unsafe fn datatypes(pointer: *const MPI_Datatype, len: usize) -> Result<Vec<Datatype>> {
    if len == 0 {
        return Ok(Vec::new());
    }
    if pointer.is_null() {
        return Err(Error::NullArgument("array_of_types"));
    }
    // SAFETY: `len` readable handles (the caller's contract).
    let items = unsafe { std::slice::from_raw_parts(pointer, len) };
    items.iter().map(|&t| handles::datatype(t)).collect()
}

fn order(code: c_int) -> Result<Order> {
    match code {
        c if c == abi::MPI_ORDER_C as c_int => Ok(Order::C),
        c if c == abi::MPI_ORDER_FORTRAN as c_int => Ok(Order::Fortran),
        _ => Err(Error::InvalidArgument(
            "order is not MPI_ORDER_C or MPI_ORDER_FORTRAN",
        )),
    }
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
    type_contiguous_any(count.into(), oldtype, newtype, false)
}

/// `count` copies of `oldtype` (a large count).
pub(super) fn type_contiguous_c(
    count: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    type_contiguous_any(count, oldtype, newtype, true)
}

fn type_contiguous_any(
    count: i64,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
    large: bool,
) -> Result<()> {
    let universe = universe()?;
    length(count)?;
    let new = universe.type_contiguous_c(count, handles::datatype(oldtype)?, large)?;
    made(newtype, new)
}

/// `count` blocks of `blocklength` copies of `oldtype`, block starts `stride` extents apart.
pub(super) fn type_vector(
    count: c_int,
    blocklength: c_int,
    stride: c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let old = handles::datatype(oldtype)?;
    let new = universe.type_vector(count.into(), blocklength.into(), stride.into(), old, false)?;
    made(newtype, new)
}

/// MPI_Type_vector with large counts.
pub(super) fn type_vector_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    stride: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let old = handles::datatype(oldtype)?;
    made(
        newtype,
        universe.type_vector(count, blocklength, stride, old, true)?,
    )
}

/// As MPI_Type_vector with the stride in bytes.
pub(super) fn type_create_hvector(
    count: c_int,
    blocklength: c_int,
    stride: MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let old = handles::datatype(oldtype)?;
    let new = universe.type_hvector(count.into(), blocklength.into(), stride as i64, old, false)?;
    made(newtype, new)
}

/// MPI_Type_create_hvector with large counts.
pub(super) fn type_create_hvector_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    stride: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let old = handles::datatype(oldtype)?;
    made(
        newtype,
        universe.type_hvector(count, blocklength, stride, old, true)?,
    )
}

/// Blocks of `array_of_blocklengths[i]` copies of `oldtype` at `array_of_displacements[i]`
/// extents.
pub(super) unsafe fn type_indexed(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count.into())?;
    // SAFETY: `count` entries each (the caller's contract).
    let (b, d) = unsafe {
        (
            array(array_of_blocklengths, n, "array_of_blocklengths")?,
            array(array_of_displacements, n, "array_of_displacements")?,
        )
    };
    let old = handles::datatype(oldtype)?;
    made(newtype, universe.type_indexed(&b, &d, old, false)?)
}

/// MPI_Type_indexed with large counts.
pub(super) unsafe fn type_indexed_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count)?;
    // SAFETY: `count` entries each (the caller's contract).
    let (b, d) = unsafe {
        (
            array(array_of_blocklengths, n, "array_of_blocklengths")?,
            array(array_of_displacements, n, "array_of_displacements")?,
        )
    };
    let old = handles::datatype(oldtype)?;
    made(newtype, universe.type_indexed(&b, &d, old, true)?)
}

/// As MPI_Type_indexed with the displacements in bytes.
pub(super) unsafe fn type_create_hindexed(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count.into())?;
    // SAFETY: `count` entries each (the caller's contract).
    let (b, d) = unsafe {
        (
            array(array_of_blocklengths, n, "array_of_blocklengths")?,
            addresses(array_of_displacements, n, "array_of_displacements")?,
        )
    };
    let old = handles::datatype(oldtype)?;
    made(newtype, universe.type_hindexed(&b, &d, old, false)?)
}

/// MPI_Type_create_hindexed with large counts.
pub(super) unsafe fn type_create_hindexed_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count)?;
    // SAFETY: `count` entries each (the caller's contract).
    let (b, d) = unsafe {
        (
            array(array_of_blocklengths, n, "array_of_blocklengths")?,
            array(array_of_displacements, n, "array_of_displacements")?,
        )
    };
    let old = handles::datatype(oldtype)?;
    made(newtype, universe.type_hindexed(&b, &d, old, true)?)
}

/// Blocks of `blocklength` copies of `oldtype` at displacements in extents.
pub(super) unsafe fn type_create_indexed_block(
    count: c_int,
    blocklength: c_int,
    array_of_displacements: *const c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count.into())?;
    // SAFETY: `count` entries (the caller's contract).
    let d = unsafe { array(array_of_displacements, n, "array_of_displacements")? };
    let old = handles::datatype(oldtype)?;
    let new = universe.type_indexed_block(blocklength.into(), &d, old, false)?;
    made(newtype, new)
}

/// MPI_Type_create_indexed_block with large counts.
pub(super) unsafe fn type_create_indexed_block_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count)?;
    // SAFETY: `count` entries (the caller's contract).
    let d = unsafe { array(array_of_displacements, n, "array_of_displacements")? };
    let old = handles::datatype(oldtype)?;
    made(
        newtype,
        universe.type_indexed_block(blocklength, &d, old, true)?,
    )
}

/// Blocks of `blocklength` copies of `oldtype` at byte displacements.
pub(super) unsafe fn type_create_hindexed_block(
    count: c_int,
    blocklength: c_int,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count.into())?;
    // SAFETY: `count` entries (the caller's contract).
    let d = unsafe { addresses(array_of_displacements, n, "array_of_displacements")? };
    let old = handles::datatype(oldtype)?;
    let new = universe.type_hindexed_block(blocklength.into(), &d, old, false)?;
    made(newtype, new)
}

/// MPI_Type_create_hindexed_block with large counts.
pub(super) unsafe fn type_create_hindexed_block_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count)?;
    // SAFETY: `count` entries (the caller's contract).
    let d = unsafe { array(array_of_displacements, n, "array_of_displacements")? };
    let old = handles::datatype(oldtype)?;
    made(
        newtype,
        universe.type_hindexed_block(blocklength, &d, old, true)?,
    )
}

/// Blocks of different datatypes at byte displacements (absolute addresses with
/// `MPI_BOTTOM`); the extent is padded to the strictest member alignment.
pub(super) unsafe fn type_create_struct(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const MPI_Aint,
    array_of_types: *const MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count.into())?;
    // SAFETY: `count` entries each (the caller's contract).
    let (b, d, t) = unsafe {
        (
            array(array_of_blocklengths, n, "array_of_blocklengths")?,
            addresses(array_of_displacements, n, "array_of_displacements")?,
            datatypes(array_of_types, n)?,
        )
    };
    made(newtype, universe.type_struct(&b, &d, &t, false)?)
}

/// MPI_Type_create_struct with large counts.
pub(super) unsafe fn type_create_struct_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    array_of_types: *const MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = length(count)?;
    // SAFETY: `count` entries each (the caller's contract).
    let (b, d, t) = unsafe {
        (
            array(array_of_blocklengths, n, "array_of_blocklengths")?,
            array(array_of_displacements, n, "array_of_displacements")?,
            datatypes(array_of_types, n)?,
        )
    };
    made(newtype, universe.type_struct(&b, &d, &t, true)?)
}

/// The number of dimensions of subarray and darray: positive, else `MPI_ERR_ARG`.
fn dimensions(ndims: c_int) -> Result<usize> {
    usize::try_from(ndims)
        .ok()
        .filter(|&n| n > 0)
        .ok_or(Error::InvalidArgument("ndims is not positive"))
}

/// The `array_of_subsizes` block starting at `array_of_starts` of an `array_of_sizes`
/// array of `oldtype`; lb 0, extent the whole array.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn type_create_subarray(
    ndims: c_int,
    array_of_sizes: *const c_int,
    array_of_subsizes: *const c_int,
    array_of_starts: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = dimensions(ndims)?;
    // SAFETY: `ndims` entries each (the caller's contract).
    let (sizes, subsizes, starts) = unsafe {
        (
            array(array_of_sizes, n, "array_of_sizes")?,
            array(array_of_subsizes, n, "array_of_subsizes")?,
            array(array_of_starts, n, "array_of_starts")?,
        )
    };
    let o = self::order(order)?;
    let old = handles::datatype(oldtype)?;
    let new = universe.type_subarray(&sizes, &subsizes, &starts, o, order.into(), old, false)?;
    made(newtype, new)
}

/// MPI_Type_create_subarray with large counts.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn type_create_subarray_c(
    ndims: c_int,
    array_of_sizes: *const MPI_Count,
    array_of_subsizes: *const MPI_Count,
    array_of_starts: *const MPI_Count,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let n = dimensions(ndims)?;
    // SAFETY: `ndims` entries each (the caller's contract).
    let (sizes, subsizes, starts) = unsafe {
        (
            array(array_of_sizes, n, "array_of_sizes")?,
            array(array_of_subsizes, n, "array_of_subsizes")?,
            array(array_of_starts, n, "array_of_starts")?,
        )
    };
    let o = self::order(order)?;
    let old = handles::datatype(oldtype)?;
    let new = universe.type_subarray(&sizes, &subsizes, &starts, o, order.into(), old, true)?;
    made(newtype, new)
}

/// The arguments of MPI_Type_create_darray after `array_of_gsizes`.
struct Darray {
    size: c_int,
    rank: c_int,
    distribs: *const c_int,
    dargs: *const c_int,
    psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    large: bool,
}

/// MPI_Type_create_darray's body for both forms, `gsizes` already read.
///
/// # Safety
/// The arrays hold `gsizes.len()` entries (the caller's contract).
unsafe fn darray(gsizes: Vec<i64>, a: Darray, newtype: &mut Out<MPI_Datatype>) -> Result<()> {
    let n = gsizes.len();
    // SAFETY: `ndims` entries each (the caller's contract).
    let (distribs, dargs, psizes) = unsafe {
        (
            array(a.distribs, n, "array_of_distribs")?,
            array(a.dargs, n, "array_of_dargs")?,
            array(a.psizes, n, "array_of_psizes")?,
        )
    };
    let mut dims = Vec::with_capacity(n);
    for i in 0..n {
        let distrib = match distribs[i] {
            d if d == abi::MPI_DISTRIBUTE_BLOCK as i64 => Distribution::Block,
            d if d == abi::MPI_DISTRIBUTE_CYCLIC as i64 => Distribution::Cyclic,
            d if d == abi::MPI_DISTRIBUTE_NONE as i64 => Distribution::None,
            _ => return Err(Error::InvalidArgument("an unknown distribution")),
        };
        dims.push(DarrayDim {
            gsize: gsizes[i],
            distrib,
            darg: (dargs[i] != abi::MPI_DISTRIBUTE_DFLT_DARG as i64).then_some(dargs[i]),
            psize: psizes[i],
        });
    }
    let o = order(a.order)?;
    let old = handles::datatype(a.oldtype)?;
    let codes = DarrayCodes {
        distribs,
        dargs,
        order: a.order.into(),
    };
    let new =
        universe()?.type_darray(a.size.into(), a.rank.into(), &dims, o, &codes, old, a.large)?;
    made(newtype, new)
}

/// Process `rank`'s part, on a row-major grid of `size` processes, of a global array
/// distributed by block, cyclic or not at all along each dimension.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn type_create_darray(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const c_int,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    universe()?;
    let n = dimensions(ndims)?;
    // SAFETY: `ndims` entries (the caller's contract).
    let gsizes = unsafe { array(array_of_gsizes, n, "array_of_gsizes")? };
    let rest = Darray {
        size,
        rank,
        distribs: array_of_distribs,
        dargs: array_of_dargs,
        psizes: array_of_psizes,
        order,
        oldtype,
        large: false,
    };
    // SAFETY: the caller's contract.
    unsafe { darray(gsizes, rest, newtype) }
}

/// MPI_Type_create_darray with large global sizes.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn type_create_darray_c(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const MPI_Count,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    universe()?;
    let n = dimensions(ndims)?;
    // SAFETY: `ndims` entries (the caller's contract).
    let gsizes = unsafe { array(array_of_gsizes, n, "array_of_gsizes")? };
    let rest = Darray {
        size,
        rank,
        distribs: array_of_distribs,
        dargs: array_of_dargs,
        psizes: array_of_psizes,
        order,
        oldtype,
        large: true,
    };
    // SAFETY: the caller's contract.
    unsafe { darray(gsizes, rest, newtype) }
}

/// The same entries with lower bound `lb` and extent `extent`.
pub(super) fn type_create_resized(
    oldtype: MPI_Datatype,
    lb: MPI_Aint,
    extent: MPI_Aint,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let old = handles::datatype(oldtype)?;
    made(
        newtype,
        universe.type_resized(old, lb as i64, extent as i64, false)?,
    )
}

/// MPI_Type_create_resized with large bounds.
pub(super) fn type_create_resized_c(
    oldtype: MPI_Datatype,
    lb: MPI_Count,
    extent: MPI_Count,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let universe = universe()?;
    let old = handles::datatype(oldtype)?;
    made(newtype, universe.type_resized(old, lb, extent, true)?)
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

/// The size in bytes as an MPI_Count.
pub(super) fn type_size_c(datatype: MPI_Datatype, size: &mut Out<MPI_Count>) -> Result<()> {
    let bytes = universe()?.type_size(handles::datatype(datatype)?)?;
    size.set(bytes as MPI_Count);
    Ok(())
}

/// The size in bytes as an MPI_Count (the MPI-3 name of MPI_Type_size_c).
pub(super) fn type_size_x(datatype: MPI_Datatype, size: &mut Out<MPI_Count>) -> Result<()> {
    type_size_c(datatype, size)
}

/// The lower bound and extent.
pub(super) fn type_get_extent(
    datatype: MPI_Datatype,
    lb: &mut Out<MPI_Aint>,
    extent: &mut Out<MPI_Aint>,
) -> Result<()> {
    let (l, e) = universe()?.type_extent(handles::datatype(datatype)?)?;
    lb.set(l as MPI_Aint);
    extent.set(e as MPI_Aint);
    Ok(())
}

/// The lower bound and extent as MPI_Count.
pub(super) fn type_get_extent_c(
    datatype: MPI_Datatype,
    lb: &mut Out<MPI_Count>,
    extent: &mut Out<MPI_Count>,
) -> Result<()> {
    let (l, e) = universe()?.type_extent(handles::datatype(datatype)?)?;
    lb.set(l);
    extent.set(e);
    Ok(())
}

/// The lower bound and extent as MPI_Count (the MPI-3 name of MPI_Type_get_extent_c).
pub(super) fn type_get_extent_x(
    datatype: MPI_Datatype,
    lb: &mut Out<MPI_Count>,
    extent: &mut Out<MPI_Count>,
) -> Result<()> {
    type_get_extent_c(datatype, lb, extent)
}

/// The true lower bound and true extent: the bytes the data occupies, whatever the bounds.
pub(super) fn type_get_true_extent(
    datatype: MPI_Datatype,
    true_lb: &mut Out<MPI_Aint>,
    true_extent: &mut Out<MPI_Aint>,
) -> Result<()> {
    let (l, e) = universe()?.type_true_extent(handles::datatype(datatype)?)?;
    true_lb.set(l as MPI_Aint);
    true_extent.set(e as MPI_Aint);
    Ok(())
}

/// The true lower bound and true extent as MPI_Count.
pub(super) fn type_get_true_extent_c(
    datatype: MPI_Datatype,
    true_lb: &mut Out<MPI_Count>,
    true_extent: &mut Out<MPI_Count>,
) -> Result<()> {
    let (l, e) = universe()?.type_true_extent(handles::datatype(datatype)?)?;
    true_lb.set(l);
    true_extent.set(e);
    Ok(())
}

/// The true lower bound and true extent as MPI_Count (the MPI-3 name).
pub(super) fn type_get_true_extent_x(
    datatype: MPI_Datatype,
    true_lb: &mut Out<MPI_Count>,
    true_extent: &mut Out<MPI_Count>,
) -> Result<()> {
    type_get_true_extent_c(datatype, true_lb, true_extent)
}

/// The C value of a combiner.
fn combiner_value(combiner: Combiner) -> c_int {
    (match combiner {
        Combiner::Named => abi::MPI_COMBINER_NAMED,
        Combiner::Dup => abi::MPI_COMBINER_DUP,
        Combiner::Contiguous => abi::MPI_COMBINER_CONTIGUOUS,
        Combiner::Vector => abi::MPI_COMBINER_VECTOR,
        Combiner::Hvector => abi::MPI_COMBINER_HVECTOR,
        Combiner::Indexed => abi::MPI_COMBINER_INDEXED,
        Combiner::Hindexed => abi::MPI_COMBINER_HINDEXED,
        Combiner::IndexedBlock => abi::MPI_COMBINER_INDEXED_BLOCK,
        Combiner::HindexedBlock => abi::MPI_COMBINER_HINDEXED_BLOCK,
        Combiner::Struct => abi::MPI_COMBINER_STRUCT,
        Combiner::Subarray => abi::MPI_COMBINER_SUBARRAY,
        Combiner::Darray => abi::MPI_COMBINER_DARRAY,
        Combiner::Resized => abi::MPI_COMBINER_RESIZED,
        Combiner::F90Integer => abi::MPI_COMBINER_F90_INTEGER,
        Combiner::F90Real => abi::MPI_COMBINER_F90_REAL,
        Combiner::F90Complex => abi::MPI_COMBINER_F90_COMPLEX,
    }) as c_int
}

/// A type made by a `_c` constructor has MPI_Count arguments, which only the `_c` forms of
/// get_envelope and get_contents can return.
const LARGE_ONLY: Error = Error::InvalidType(
    "made by a large-count constructor: use MPI_Type_get_envelope_c/MPI_Type_get_contents_c",
);

fn int_count(n: usize) -> Result<c_int> {
    c_int::try_from(n).map_err(|_| Error::InvalidArgument("more arguments than an int counts"))
}

/// How many arguments of each kind made the datatype, and its combiner.
pub(super) fn type_get_envelope(
    datatype: MPI_Datatype,
    num_integers: &mut Out<c_int>,
    num_addresses: &mut Out<c_int>,
    num_datatypes: &mut Out<c_int>,
    combiner: &mut Out<c_int>,
) -> Result<()> {
    let e = universe()?.type_envelope(handles::datatype(datatype)?)?;
    if e.large > 0 {
        return Err(LARGE_ONLY);
    }
    let (i, a, d) = (
        int_count(e.integers)?,
        int_count(e.addresses)?,
        int_count(e.datatypes)?,
    );
    num_integers.set(i);
    num_addresses.set(a);
    num_datatypes.set(d);
    combiner.set(combiner_value(e.combiner));
    Ok(())
}

/// MPI_Type_get_envelope with MPI_Count numbers, large counts included.
pub(super) fn type_get_envelope_c(
    datatype: MPI_Datatype,
    num_integers: &mut Out<MPI_Count>,
    num_addresses: &mut Out<MPI_Count>,
    num_large_counts: &mut Out<MPI_Count>,
    num_datatypes: &mut Out<MPI_Count>,
    combiner: &mut Out<c_int>,
) -> Result<()> {
    let e = universe()?.type_envelope(handles::datatype(datatype)?)?;
    num_integers.set(e.integers as MPI_Count);
    num_addresses.set(e.addresses as MPI_Count);
    num_large_counts.set(e.large as MPI_Count);
    num_datatypes.set(e.datatypes as MPI_Count);
    combiner.set(combiner_value(e.combiner));
    Ok(())
}

/// Where MPI_Type_get_contents writes, and how much room each array has.
struct ContentsOut {
    max: [i64; 4],
    integers: *mut c_int,
    addresses: *mut MPI_Aint,
    large: *mut MPI_Count,
    datatypes: *mut MPI_Datatype,
}

/// MPI_Type_get_contents for both forms: checks every array's room and pointer against the
/// envelope before anything is made or written.
///
/// # Safety
/// Each array pointer is NULL or valid for writes of its `max` entries.
unsafe fn contents(datatype: MPI_Datatype, out: ContentsOut) -> Result<()> {
    let universe = universe()?;
    let datatype = handles::datatype(datatype)?;
    let e = universe.type_envelope(datatype)?;
    if e.combiner == Combiner::Named {
        return Err(Error::InvalidType("a predefined datatype has no contents"));
    }
    let needed = [e.integers, e.addresses, e.large, e.datatypes];
    let names = [
        ("max_integers", "array_of_integers"),
        ("max_addresses", "array_of_addresses"),
        ("max_large_counts", "array_of_large_counts"),
        ("max_datatypes", "array_of_datatypes"),
    ];
    let null = [
        out.integers.is_null(),
        out.addresses.is_null(),
        out.large.is_null(),
        out.datatypes.is_null(),
    ];
    for i in 0..4 {
        if out.max[i] < needed[i] as i64 {
            return Err(Error::InvalidArgument(match i {
                0 => "max_integers is below the envelope's count",
                1 => "max_addresses is below the envelope's count",
                2 => "max_large_counts is below the envelope's count",
                _ => "max_datatypes is below the envelope's count",
            }));
        }
        if needed[i] > 0 && null[i] {
            return Err(Error::NullArgument(names[i].1));
        }
    }
    let c = universe.type_contents(datatype)?;
    // SAFETY: each array has room for its envelope count (checked) and is non-null when
    // written (checked); the caller's contract for the rest.
    unsafe {
        for (i, v) in c.integers.iter().enumerate() {
            out.integers.add(i).write(*v as c_int);
        }
        for (i, v) in c.addresses.iter().enumerate() {
            out.addresses.add(i).write(*v as MPI_Aint);
        }
        for (i, v) in c.large.iter().enumerate() {
            out.large.add(i).write(*v);
        }
        for (i, t) in c.datatypes.iter().enumerate() {
            out.datatypes.add(i).write(encode_handle(*t));
        }
    }
    Ok(())
}

/// The arguments the datatype was made with; derived datatypes among them come back as new
/// handles for the caller to free, predefined ones as themselves.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn type_get_contents(
    datatype: MPI_Datatype,
    max_integers: c_int,
    max_addresses: c_int,
    max_datatypes: c_int,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_datatypes: *mut MPI_Datatype,
) -> Result<()> {
    let e = universe()?.type_envelope(handles::datatype(datatype)?)?;
    if e.large > 0 {
        return Err(LARGE_ONLY);
    }
    let out = ContentsOut {
        max: [
            max_integers.into(),
            max_addresses.into(),
            0,
            max_datatypes.into(),
        ],
        integers: array_of_integers,
        addresses: array_of_addresses,
        large: std::ptr::null_mut(),
        datatypes: array_of_datatypes,
    };
    // SAFETY: the caller's contract.
    unsafe { contents(datatype, out) }
}

/// MPI_Type_get_contents with MPI_Count sizes and the large-count arguments.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn type_get_contents_c(
    datatype: MPI_Datatype,
    max_integers: MPI_Count,
    max_addresses: MPI_Count,
    max_large_counts: MPI_Count,
    max_datatypes: MPI_Count,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_large_counts: *mut MPI_Count,
    array_of_datatypes: *mut MPI_Datatype,
) -> Result<()> {
    let out = ContentsOut {
        max: [max_integers, max_addresses, max_large_counts, max_datatypes],
        integers: array_of_integers,
        addresses: array_of_addresses,
        large: array_of_large_counts,
        datatypes: array_of_datatypes,
    };
    // SAFETY: the caller's contract.
    unsafe { contents(datatype, out) }
}

/// Names a datatype (at most MPI_MAX_OBJECT_NAME - 1 bytes are kept); predefined ones too.
pub(super) unsafe fn type_set_name(datatype: MPI_Datatype, type_name: *const c_char) -> Result<()> {
    let universe = universe()?;
    let datatype = handles::datatype(datatype)?;
    if type_name.is_null() {
        return Err(Error::NullArgument("type_name"));
    }
    // SAFETY: a non-null pointer to a NUL-terminated string (the caller's contract).
    let name = crate::ffi::object_name(unsafe { CStr::from_ptr(type_name) }.to_bytes());
    universe.set_type_name(datatype, name)
}

/// A datatype's name: a predefined one's own (`MPI_INT`) unless renamed, else empty.
pub(super) unsafe fn type_get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    let name = universe()?.type_name(handles::datatype(datatype)?)?;
    // SAFETY: `type_name` has room for MPI_MAX_OBJECT_NAME characters (the standard's
    // requirement on the caller); `resultlen` is an output argument.
    unsafe {
        let mut resultlen = Out::new(resultlen, "resultlen")?;
        Out::new(type_name, "type_name")?;
        super::errors::write_string(
            type_name,
            abi::MPI_MAX_OBJECT_NAME as usize,
            &name,
            &mut resultlen,
        );
    }
    Ok(())
}

/// The predefined Fortran datatype of a type class and size in bytes (MPI_INTEGER4, ...).
pub(super) fn type_match_size(
    typeclass: c_int,
    size: c_int,
    datatype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    universe()?;
    let class = match typeclass {
        c if c == abi::MPI_TYPECLASS_INTEGER as c_int => TypeClass::Integer,
        c if c == abi::MPI_TYPECLASS_REAL as c_int => TypeClass::Real,
        c if c == abi::MPI_TYPECLASS_COMPLEX as c_int => TypeClass::Complex,
        _ => return Err(Error::InvalidArgument("typeclass is no MPI_TYPECLASS_")),
    };
    made(datatype, Universe::type_match_size(class, size.into())?)
}

/// A datatype for the smallest Fortran INTEGER kind with `r` decimal digits.
pub(super) fn type_create_f90_integer(r: c_int, newtype: &mut Out<MPI_Datatype>) -> Result<()> {
    made(newtype, universe()?.type_f90_integer(r.into())?)
}

fn undefined_or(value: c_int) -> Option<i64> {
    (value != abi::MPI_UNDEFINED).then_some(value.into())
}

/// A datatype for the smallest REAL kind with precision `p` and range `r` (either may be
/// MPI_UNDEFINED).
pub(super) fn type_create_f90_real(
    p: c_int,
    r: c_int,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let new = universe()?.type_f90_real(
        undefined_or(p),
        undefined_or(r),
        (p.into(), r.into()),
        false,
    )?;
    made(newtype, new)
}

/// A datatype for the smallest COMPLEX kind with precision `p` and range `r`.
pub(super) fn type_create_f90_complex(
    p: c_int,
    r: c_int,
    newtype: &mut Out<MPI_Datatype>,
) -> Result<()> {
    let new =
        universe()?.type_f90_real(undefined_or(p), undefined_or(r), (p.into(), r.into()), true)?;
    made(newtype, new)
}

/// The address `disp` bytes past `base` (plain arithmetic: addresses are numbers here).
pub(super) fn aint_add(base: MPI_Aint, disp: MPI_Aint) -> MPI_Aint {
    base.wrapping_add(disp)
}

/// The distance in bytes from `addr2` to `addr1`.
pub(super) fn aint_diff(addr1: MPI_Aint, addr2: MPI_Aint) -> MPI_Aint {
    addr1.wrapping_sub(addr2)
}

/// The bytes a status reports.
///
/// # Safety
/// `status` is NULL or valid for reads.
unsafe fn status_bytes(status: *const MPI_Status) -> Result<u64> {
    if status.is_null() {
        return Err(Error::NullArgument("status"));
    }
    // SAFETY: non-null and valid for reads (the caller's contract).
    Ok(super::p2p::read_status(unsafe { &*status }).bytes)
}

/// The basic elements of `datatype` in the data a status reports; None if it ends inside
/// an element.
///
/// # Safety
/// As for [`status_bytes`].
unsafe fn elements(status: *const MPI_Status, datatype: MPI_Datatype) -> Result<Option<u64>> {
    let universe = universe()?;
    // SAFETY: the caller's contract.
    let bytes = unsafe { status_bytes(status)? };
    let map = universe.type_layout(handles::datatype(datatype)?)?;
    Ok(typemap::get_elements(&map, bytes))
}

/// The number of basic elements of `datatype` a status reports, partial items included
/// (MPI_UNDEFINED if the data ends inside an element or the number exceeds an int).
pub(super) unsafe fn get_elements(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: &mut Out<c_int>,
) -> Result<()> {
    // SAFETY: the caller's contract.
    let n = unsafe { elements(status, datatype)? };
    count.set(
        n.and_then(|n| c_int::try_from(n).ok())
            .unwrap_or(abi::MPI_UNDEFINED),
    );
    Ok(())
}

/// MPI_Get_elements as an MPI_Count.
pub(super) unsafe fn get_elements_c(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: &mut Out<MPI_Count>,
) -> Result<()> {
    // SAFETY: the caller's contract.
    let n = unsafe { elements(status, datatype)? };
    count.set(n.map_or(abi::MPI_UNDEFINED.into(), |n| n as MPI_Count));
    Ok(())
}

/// MPI_Get_elements as an MPI_Count (the MPI-3 name of MPI_Get_elements_c).
pub(super) unsafe fn get_elements_x(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: &mut Out<MPI_Count>,
) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { get_elements_c(status, datatype, count) }
}

/// Sets the data a status reports to `count` basic elements of `datatype`, so that
/// MPI_Get_elements gives `count` back (and MPI_Get_count the whole items).
///
/// # Safety
/// `status` is NULL or valid for reads and writes.
unsafe fn set_elements(status: *mut MPI_Status, datatype: MPI_Datatype, count: i64) -> Result<()> {
    let universe = universe()?;
    if status.is_null() {
        return Err(Error::NullArgument("status"));
    }
    let map = universe.type_layout(handles::datatype(datatype)?)?;
    let count = u64::try_from(count).map_err(|_| Error::InvalidCount)?;
    let bytes = typemap::elements_bytes(&map, count).ok_or(Error::InvalidCount)?;
    // SAFETY: non-null and valid (the caller's contract).
    let mut now = super::p2p::read_status(unsafe { &*status });
    now.bytes = bytes;
    // SAFETY: as above.
    unsafe { super::p2p::write_whole_status(status, &now) };
    Ok(())
}

/// Sets a status to report `count` basic elements of `datatype` (for generalized requests).
pub(super) unsafe fn status_set_elements(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: c_int,
) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { set_elements(status, datatype, count.into()) }
}

/// MPI_Status_set_elements with an MPI_Count.
pub(super) unsafe fn status_set_elements_c(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: MPI_Count,
) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { set_elements(status, datatype, count) }
}

/// MPI_Status_set_elements with an MPI_Count (the MPI-3 name).
pub(super) unsafe fn status_set_elements_x(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: MPI_Count,
) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { set_elements(status, datatype, count) }
}

/// The Fortran integer of a datatype.
pub(super) fn type_c2f(datatype: MPI_Datatype) -> MPI_Fint {
    to_fortran(datatype) as MPI_Fint
}

/// The datatype of a Fortran integer (MPI_DATATYPE_NULL if it names none).
pub(super) fn type_f2c(datatype: MPI_Fint) -> MPI_Datatype {
    from_fortran(datatype as i64)
}
