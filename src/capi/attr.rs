//! Keyvals and attributes for communicators, datatypes and windows, and the deprecated
//! MPI-1 forms. One generic implementation; each kind's named functions are thin bodies
//! over it, whose entry points bindings/functions.txt lists.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use super::handles::{decode, decode_made_first, CHandle};
use super::{universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Win};
use crate::callbacks::{CCopy, CCopyFn, CDelete, CDeleteFn};
use crate::engine::{
    CopyAction, DeleteAction, Error, Keyval, KeyvalSpec, Language, Object, ObjectKind, Result,
    Universe, Word,
};
use crate::ffi::args::KeyvalInOut;
use crate::ffi::current;
use crate::ffi::unwind::Shells;

/// A C copy callback of any kind. Handles are pointers, so the kinds' callback types differ
/// only in the pointee of the first argument and are ABI-compatible with this one.
type RawCopy = CCopyFn<*mut c_void>;
/// A C delete callback of any kind (see [`RawCopy`]).
type RawDelete = CDeleteFn<*mut c_void>;

/// Below this no function can live (the first page is never mapped): a callback argument
/// under it other than the predefined values is a mistake, not a function.
const FIRST_FUNCTION_ADDRESS: usize = 0x1000;

/// MPI_*_NULL_COPY_FN is 0 and MPI_*_DUP_FN is 1: recognised, never called.
fn copy_action(function: Option<RawCopy>, extra_state: *mut c_void) -> Result<CopyAction> {
    match function {
        None => Ok(CopyAction::Null),
        Some(f) if f as usize == 1 => Ok(CopyAction::Dup),
        Some(f) if (f as usize) < FIRST_FUNCTION_ADDRESS => Err(Error::InvalidArgument(
            "the copy callback is not a function address",
        )),
        Some(function) => Ok(CopyAction::Call(Arc::new(CCopy::<Shells>::new(
            function,
            extra_state as usize,
        )))),
    }
}

/// MPI_*_NULL_DELETE_FN is 0. MPI_*_DUP_FN (1) given as a delete callback is refused: it is
/// a copy function, and no delete callback can mean "copy".
fn delete_action(function: Option<RawDelete>, extra_state: *mut c_void) -> Result<DeleteAction> {
    match function {
        None => Ok(DeleteAction::Null),
        Some(f) if f as usize == 1 => Err(Error::InvalidArgument(
            "the delete callback is MPI_*_DUP_FN, a copy function",
        )),
        Some(f) if (f as usize) < FIRST_FUNCTION_ADDRESS => Err(Error::InvalidArgument(
            "the delete callback is not a function address",
        )),
        Some(function) => Ok(DeleteAction::Call(Arc::new(CDelete::<Shells>::new(
            function,
            extra_state as usize,
        )))),
    }
}

/// # Safety
/// The pointer arguments are NULL or valid (the C caller's contract).
unsafe fn create_keyval(
    kind: ObjectKind,
    copy: Option<RawCopy>,
    delete: Option<RawDelete>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    // SAFETY: an MPI output argument: NULL or valid.
    let mut keyval = unsafe { Out::new(keyval, "keyval") }?;
    let spec = KeyvalSpec {
        kind,
        language: Language::C,
        copy: copy_action(copy, extra_state)?,
        delete: delete_action(delete, extra_state)?,
    };
    keyval.set(universe()?.create_keyval(spec)?.0);
    Ok(())
}

/// # Safety
/// The pointer arguments are NULL or valid (the C caller's contract).
unsafe fn free_keyval(kind: ObjectKind, keyval: *mut c_int) -> Result<()> {
    // SAFETY: an MPI in-out argument: NULL or valid.
    let mut keyval = unsafe { Out::new(keyval, "keyval") }?;
    universe()?.free_keyval(kind, Keyval(keyval.get()))?;
    keyval.set(abi::MPI_KEYVAL_INVALID as c_int);
    Ok(())
}

/// [`create_keyval`] of a keyval without callbacks (the copy callback 0 or 1, the delete
/// callback 0: `extra_state` then serves nothing), without the panic boundary; `None` goes
/// the whole way.
///
/// # Safety
/// `keyval` is NULL or valid (the C caller's contract).
#[inline(always)]
unsafe fn create_keyval_fast(
    kind: ObjectKind,
    copy: usize,
    delete: usize,
    keyval: *mut c_int,
) -> Option<c_int> {
    // `copy > 1 || delete != 0` in one test.
    if (copy >> 1 | delete) != 0 || keyval.is_null() {
        return None;
    }
    // `copy` is 0 or 1 here: its low bit is the record's copy action as it stands (one
    // instruction; `copy == 1` took three).
    let created = current()?.create_keyval_fast(kind, Language::C, copy & 1 != 0)?;
    // SAFETY: a non-null (checked) output argument, valid for writes.
    unsafe { keyval.write(created.0) };
    Some(abi::MPI_SUCCESS as c_int)
}

/// [`free_keyval`] of a keyval no attribute holds, without the panic boundary; `None` goes
/// the whole way.
///
/// # Safety
/// `keyval` is NULL or valid (the C caller's contract).
#[inline(always)]
unsafe fn free_keyval_fast(kind: ObjectKind, keyval: *mut c_int) -> Option<c_int> {
    if keyval.is_null() {
        return None;
    }
    // SAFETY: a non-null (checked) in-out argument, valid for reads and writes.
    unsafe {
        current()?.free_keyval_fast(kind, Keyval(keyval.read()))?;
        keyval.write(abi::MPI_KEYVAL_INVALID as c_int);
    }
    Some(abi::MPI_SUCCESS as c_int)
}

#[inline(always)]
fn set_attr<H: CHandle>(handle: H, keyval: c_int, value: *mut c_void) -> Result<()>
where
    H::Object: Object,
{
    universe()?.set_attr(decode(handle)?, Keyval(keyval), Language::C, value as Word)
}

#[inline(always)]
/// # Safety
/// The pointer arguments are NULL or valid (the C caller's contract).
unsafe fn get_attr<H: CHandle>(
    handle: H,
    keyval: c_int,
    value: *mut c_void,
    flag: *mut c_int,
) -> Result<()>
where
    H::Object: Object,
{
    // SAFETY: MPI output arguments: NULL or valid; `attribute_val` is really a `void**`.
    let (mut value, mut flag) = unsafe {
        (
            Out::new(value.cast::<*mut c_void>(), "attribute_val")?,
            Out::new(flag, "flag")?,
        )
    };
    match universe()?.get_attr(decode(handle)?, Keyval(keyval), Language::C)? {
        Some(word) => {
            value.set(word as *mut c_void);
            flag.set(1);
        }
        None => flag.set(0),
    }
    Ok(())
}

#[inline(always)]
fn delete_attr<H: CHandle>(handle: H, keyval: c_int) -> Result<()>
where
    H::Object: Object,
{
    universe()?.delete_attr(decode(handle)?, Keyval(keyval))
}

#[inline(always)]
fn set_attr_fast<H: CHandle>(handle: H, keyval: c_int, value: *mut c_void) -> Option<c_int>
where
    H::Object: Object,
{
    let object = decode_made_first(handle)?;
    current()?.set_attr_fast(object, Keyval(keyval), Language::C, value as Word)?;
    Some(abi::MPI_SUCCESS as c_int)
}

/// A get's fast path in `universe`: the single-thread one, or with `threaded` the one under
/// MPI_THREAD_MULTIPLE (in the function of its own the entry point jumps to:
/// bindings/functions.txt, `threaded`); `None` for every case it does not take.
///
/// # Safety
/// The pointer arguments are NULL or valid (the C caller's contract).
#[inline(always)]
unsafe fn get_attr_fast<H: CHandle>(
    universe: &Universe,
    handle: H,
    keyval: c_int,
    value: *mut c_void,
    flag: *mut c_int,
    threaded: bool,
) -> Option<c_int>
where
    H::Object: Object,
{
    // The arguments are looked at once the universe lets the call in.
    let object = move || {
        if value.is_null() || flag.is_null() {
            return None;
        }
        decode_made_first(handle)
    };
    let found = universe.get_attr_fast(object, Keyval(keyval), Language::C, threaded)?;
    // SAFETY: both are non-null (checked) output arguments, valid for writes.
    unsafe {
        match found {
            // The flag first: the two ways then end differently, so that the compiler
            // gives each its own end (a way into a shared end costs a jump).
            Some(word) => {
                flag.write(1);
                value.cast::<*mut c_void>().write(word as *mut c_void);
            }
            None => flag.write(0),
        }
    }
    Some(abi::MPI_SUCCESS as c_int)
}

/// What a get's single-thread attempt gives the entry point: the call's code, or, declined,
/// the universe it found open (`None` if there is none), for the threaded attempt.
pub(super) type SingleAttempt = std::result::Result<c_int, Option<&'static Universe>>;

/// [`get_attr_fast`]'s single-thread attempt, as the entry points make it (see
/// bindings/functions.txt, `threaded`): what it declines goes on with the universe it found
/// open, or `None` if there is none.
///
/// # Safety
/// As for [`get_attr_fast`].
#[inline(always)]
unsafe fn get_attr_single<H: CHandle>(
    handle: H,
    keyval: c_int,
    value: *mut c_void,
    flag: *mut c_int,
) -> SingleAttempt
where
    H::Object: Object,
{
    let universe = current().ok_or(None)?;
    // SAFETY: this function's contract.
    unsafe { get_attr_fast(universe, handle, keyval, value, flag, false) }.ok_or(Some(universe))
}

/// The delete's fast path: the engine's first try in line (an object's only value, the
/// first of a small set, a hashed set's home slot, nothing to delete: no call, so no register
/// saved); any other value is searched for out of line, and there a miss goes the whole way
/// (`whole`, the entry point's whole function) without coming back, so that the entry point
/// keeps nothing across the call. `None`: the whole way.
#[inline(always)]
fn delete_attr_fast<H: CHandle>(
    handle: H,
    keyval: c_int,
    whole: unsafe extern "C" fn(H, c_int) -> c_int,
) -> Option<c_int>
where
    H::Object: Object,
{
    if current()?.delete_attr_first(decode_made_first(handle)?, Keyval(keyval))? {
        return Some(abi::MPI_SUCCESS as c_int);
    }
    Some(delete_attr_searching(handle, keyval, whole))
}

/// [`delete_attr_fast`] where the first try did not do: the engine's fast delete, which
/// searches the set, else the whole function.
#[inline(never)]
fn delete_attr_searching<H: CHandle>(
    handle: H,
    keyval: c_int,
    whole: unsafe extern "C" fn(H, c_int) -> c_int,
) -> c_int
where
    H::Object: Object,
{
    let done = || current()?.delete_attr_fast(decode_made_first(handle)?, Keyval(keyval));
    match done() {
        Some(()) => abi::MPI_SUCCESS as c_int,
        // SAFETY: `whole` is the entry point's whole function, called with the entry point's
        // own arguments: its contract is the entry point's, which the caller upholds.
        None => unsafe { whole(handle, keyval) },
    }
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies and fast paths, four kinds of five functions. The kinds' callback
// types differ only in the handle type of their first argument, a pointer: all are
// ABI-compatible with the raw types.

/// Creates a keyval; MPI_*_NULL_COPY_FN (0) and MPI_*_DUP_FN (1) are recognised.
pub(super) unsafe fn comm_create_keyval(
    comm_copy_attr_fn: abi::MPI_Comm_copy_attr_function,
    comm_delete_attr_fn: abi::MPI_Comm_delete_attr_function,
    comm_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    // SAFETY: ABI-compatible function pointer types (see above).
    let (copy, delete) = unsafe {
        (
            std::mem::transmute::<abi::MPI_Comm_copy_attr_function, Option<RawCopy>>(
                comm_copy_attr_fn,
            ),
            std::mem::transmute::<abi::MPI_Comm_delete_attr_function, Option<RawDelete>>(
                comm_delete_attr_fn,
            ),
        )
    };
    // SAFETY: this function's contract.
    unsafe { create_keyval(ObjectKind::Comm, copy, delete, comm_keyval, extra_state) }
}

#[inline(always)]
pub(super) unsafe fn comm_create_keyval_fast(
    comm_copy_attr_fn: abi::MPI_Comm_copy_attr_function,
    comm_delete_attr_fn: abi::MPI_Comm_delete_attr_function,
    comm_keyval: *mut c_int,
    _extra_state: *mut c_void,
) -> Option<c_int> {
    let copy = comm_copy_attr_fn.map_or(0, |f| f as usize);
    let delete = comm_delete_attr_fn.map_or(0, |f| f as usize);
    // SAFETY: this function's contract.
    unsafe { create_keyval_fast(ObjectKind::Comm, copy, delete, comm_keyval) }
}

/// Frees a keyval (at once, or when its last attribute goes) and sets the variable to
/// MPI_KEYVAL_INVALID.
pub(super) unsafe fn comm_free_keyval(comm_keyval: KeyvalInOut) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { free_keyval(ObjectKind::Comm, comm_keyval.0) }
}

#[inline(always)]
pub(super) unsafe fn comm_free_keyval_fast(comm_keyval: KeyvalInOut) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { free_keyval_fast(ObjectKind::Comm, comm_keyval.0) }
}

/// Stores a C pointer; an existing value is deleted first.
pub(super) fn comm_set_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
) -> Result<()> {
    set_attr(comm, comm_keyval, attribute_val)
}

#[inline(always)]
pub(super) fn comm_set_attr_fast(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
) -> Option<c_int> {
    set_attr_fast(comm, comm_keyval, attribute_val)
}

/// Reads the attribute as C sees it (attributes.md §3).
pub(super) unsafe fn comm_get_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { get_attr(comm, comm_keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn comm_get_attr_fast(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> SingleAttempt {
    // SAFETY: this function's contract.
    unsafe { get_attr_single(comm, comm_keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn comm_get_attr_threaded(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
    universe: Option<&Universe>,
) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { get_attr_fast(universe?, comm, comm_keyval, attribute_val, flag, true) }
}

/// Deletes the attribute, running its delete callback.
pub(super) fn comm_delete_attr(comm: MPI_Comm, comm_keyval: c_int) -> Result<()> {
    delete_attr(comm, comm_keyval)
}

#[inline(always)]
pub(super) fn comm_delete_attr_fast(comm: MPI_Comm, comm_keyval: c_int) -> Option<c_int> {
    delete_attr_fast(comm, comm_keyval, super::whole_MPI_Comm_delete_attr)
}

/// Creates a keyval; MPI_*_NULL_COPY_FN (0) and MPI_*_DUP_FN (1) are recognised.
pub(super) unsafe fn type_create_keyval(
    type_copy_attr_fn: abi::MPI_Type_copy_attr_function,
    type_delete_attr_fn: abi::MPI_Type_delete_attr_function,
    type_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    // SAFETY: ABI-compatible function pointer types (see above).
    let (copy, delete) = unsafe {
        (
            std::mem::transmute::<abi::MPI_Type_copy_attr_function, Option<RawCopy>>(
                type_copy_attr_fn,
            ),
            std::mem::transmute::<abi::MPI_Type_delete_attr_function, Option<RawDelete>>(
                type_delete_attr_fn,
            ),
        )
    };
    // SAFETY: this function's contract.
    unsafe { create_keyval(ObjectKind::Datatype, copy, delete, type_keyval, extra_state) }
}

#[inline(always)]
pub(super) unsafe fn type_create_keyval_fast(
    type_copy_attr_fn: abi::MPI_Type_copy_attr_function,
    type_delete_attr_fn: abi::MPI_Type_delete_attr_function,
    type_keyval: *mut c_int,
    _extra_state: *mut c_void,
) -> Option<c_int> {
    let copy = type_copy_attr_fn.map_or(0, |f| f as usize);
    let delete = type_delete_attr_fn.map_or(0, |f| f as usize);
    // SAFETY: this function's contract.
    unsafe { create_keyval_fast(ObjectKind::Datatype, copy, delete, type_keyval) }
}

/// Frees a keyval (at once, or when its last attribute goes) and sets the variable to
/// MPI_KEYVAL_INVALID.
pub(super) unsafe fn type_free_keyval(type_keyval: KeyvalInOut) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { free_keyval(ObjectKind::Datatype, type_keyval.0) }
}

#[inline(always)]
pub(super) unsafe fn type_free_keyval_fast(type_keyval: KeyvalInOut) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { free_keyval_fast(ObjectKind::Datatype, type_keyval.0) }
}

/// Stores a C pointer; an existing value is deleted first.
pub(super) fn type_set_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> Result<()> {
    set_attr(datatype, type_keyval, attribute_val)
}

#[inline(always)]
pub(super) fn type_set_attr_fast(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> Option<c_int> {
    set_attr_fast(datatype, type_keyval, attribute_val)
}

/// Reads the attribute as C sees it (attributes.md §3).
pub(super) unsafe fn type_get_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { get_attr(datatype, type_keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn type_get_attr_fast(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> SingleAttempt {
    // SAFETY: this function's contract.
    unsafe { get_attr_single(datatype, type_keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn type_get_attr_threaded(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
    universe: Option<&Universe>,
) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { get_attr_fast(universe?, datatype, type_keyval, attribute_val, flag, true) }
}

/// Deletes the attribute, running its delete callback.
pub(super) fn type_delete_attr(datatype: MPI_Datatype, type_keyval: c_int) -> Result<()> {
    delete_attr(datatype, type_keyval)
}

#[inline(always)]
pub(super) fn type_delete_attr_fast(datatype: MPI_Datatype, type_keyval: c_int) -> Option<c_int> {
    delete_attr_fast(datatype, type_keyval, super::whole_MPI_Type_delete_attr)
}

/// Creates a keyval; MPI_*_NULL_COPY_FN (0) and MPI_*_DUP_FN (1) are recognised.
pub(super) unsafe fn win_create_keyval(
    win_copy_attr_fn: abi::MPI_Win_copy_attr_function,
    win_delete_attr_fn: abi::MPI_Win_delete_attr_function,
    win_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    // SAFETY: ABI-compatible function pointer types (see above).
    let (copy, delete) = unsafe {
        (
            std::mem::transmute::<abi::MPI_Win_copy_attr_function, Option<RawCopy>>(
                win_copy_attr_fn,
            ),
            std::mem::transmute::<abi::MPI_Win_delete_attr_function, Option<RawDelete>>(
                win_delete_attr_fn,
            ),
        )
    };
    // SAFETY: this function's contract.
    unsafe { create_keyval(ObjectKind::Win, copy, delete, win_keyval, extra_state) }
}

#[inline(always)]
pub(super) unsafe fn win_create_keyval_fast(
    win_copy_attr_fn: abi::MPI_Win_copy_attr_function,
    win_delete_attr_fn: abi::MPI_Win_delete_attr_function,
    win_keyval: *mut c_int,
    _extra_state: *mut c_void,
) -> Option<c_int> {
    let copy = win_copy_attr_fn.map_or(0, |f| f as usize);
    let delete = win_delete_attr_fn.map_or(0, |f| f as usize);
    // SAFETY: this function's contract.
    unsafe { create_keyval_fast(ObjectKind::Win, copy, delete, win_keyval) }
}

/// Frees a keyval (at once, or when its last attribute goes) and sets the variable to
/// MPI_KEYVAL_INVALID.
pub(super) unsafe fn win_free_keyval(win_keyval: KeyvalInOut) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { free_keyval(ObjectKind::Win, win_keyval.0) }
}

#[inline(always)]
pub(super) unsafe fn win_free_keyval_fast(win_keyval: KeyvalInOut) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { free_keyval_fast(ObjectKind::Win, win_keyval.0) }
}

/// Stores a C pointer; an existing value is deleted first.
pub(super) fn win_set_attr(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
) -> Result<()> {
    set_attr(win, win_keyval, attribute_val)
}

#[inline(always)]
pub(super) fn win_set_attr_fast(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
) -> Option<c_int> {
    set_attr_fast(win, win_keyval, attribute_val)
}

/// Reads the attribute as C sees it (attributes.md §3).
pub(super) unsafe fn win_get_attr(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { get_attr(win, win_keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn win_get_attr_fast(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> SingleAttempt {
    // SAFETY: this function's contract.
    unsafe { get_attr_single(win, win_keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn win_get_attr_threaded(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
    universe: Option<&Universe>,
) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { get_attr_fast(universe?, win, win_keyval, attribute_val, flag, true) }
}

/// Deletes the attribute, running its delete callback.
pub(super) fn win_delete_attr(win: MPI_Win, win_keyval: c_int) -> Result<()> {
    delete_attr(win, win_keyval)
}

#[inline(always)]
pub(super) fn win_delete_attr_fast(win: MPI_Win, win_keyval: c_int) -> Option<c_int> {
    delete_attr_fast(win, win_keyval, super::whole_MPI_Win_delete_attr)
}

/// Creates a keyval; MPI_*_NULL_COPY_FN (0) and MPI_*_DUP_FN (1) are recognised.
pub(super) unsafe fn keyval_create(
    copy_fn: abi::MPI_Copy_function,
    delete_fn: abi::MPI_Delete_function,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    // SAFETY: ABI-compatible function pointer types (see above).
    let (copy, delete) = unsafe {
        (
            std::mem::transmute::<abi::MPI_Copy_function, Option<RawCopy>>(copy_fn),
            std::mem::transmute::<abi::MPI_Delete_function, Option<RawDelete>>(delete_fn),
        )
    };
    // SAFETY: this function's contract.
    unsafe { create_keyval(ObjectKind::Comm, copy, delete, keyval, extra_state) }
}

#[inline(always)]
pub(super) unsafe fn keyval_create_fast(
    copy_fn: abi::MPI_Copy_function,
    delete_fn: abi::MPI_Delete_function,
    keyval: *mut c_int,
    _extra_state: *mut c_void,
) -> Option<c_int> {
    let copy = copy_fn.map_or(0, |f| f as usize);
    let delete = delete_fn.map_or(0, |f| f as usize);
    // SAFETY: this function's contract.
    unsafe { create_keyval_fast(ObjectKind::Comm, copy, delete, keyval) }
}

/// Frees a keyval (at once, or when its last attribute goes) and sets the variable to
/// MPI_KEYVAL_INVALID.
pub(super) unsafe fn keyval_free(keyval: KeyvalInOut) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { free_keyval(ObjectKind::Comm, keyval.0) }
}

#[inline(always)]
pub(super) unsafe fn keyval_free_fast(keyval: KeyvalInOut) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { free_keyval_fast(ObjectKind::Comm, keyval.0) }
}

/// Stores a C pointer; an existing value is deleted first.
pub(super) fn attr_put(comm: MPI_Comm, keyval: c_int, attribute_val: *mut c_void) -> Result<()> {
    set_attr(comm, keyval, attribute_val)
}

#[inline(always)]
pub(super) fn attr_put_fast(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> Option<c_int> {
    set_attr_fast(comm, keyval, attribute_val)
}

/// Reads the attribute as C sees it (attributes.md §3).
pub(super) unsafe fn attr_get(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    // SAFETY: this function's contract.
    unsafe { get_attr(comm, keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn attr_get_fast(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> SingleAttempt {
    // SAFETY: this function's contract.
    unsafe { get_attr_single(comm, keyval, attribute_val, flag) }
}

#[inline(always)]
pub(super) unsafe fn attr_get_threaded(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
    universe: Option<&Universe>,
) -> Option<c_int> {
    // SAFETY: this function's contract.
    unsafe { get_attr_fast(universe?, comm, keyval, attribute_val, flag, true) }
}

/// Deletes the attribute, running its delete callback.
pub(super) fn attr_delete(comm: MPI_Comm, keyval: c_int) -> Result<()> {
    delete_attr(comm, keyval)
}

#[inline(always)]
pub(super) fn attr_delete_fast(comm: MPI_Comm, keyval: c_int) -> Option<c_int> {
    delete_attr_fast(comm, keyval, super::whole_MPI_Attr_delete)
}
