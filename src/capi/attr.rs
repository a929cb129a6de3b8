//! Keyvals and attributes for communicators, datatypes and windows, and the deprecated
//! MPI-1 forms. One generic implementation; `attribute_functions!` stamps out the named
//! entry points of each kind.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use super::handles::{decode, CHandle};
use super::{mpi_functions, universe, Out, Target};
use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Win};
use crate::engine::{
    AnyObject, CopyAction, CopyCallback, DeleteAction, DeleteCallback, Error, Keyval, KeyvalSpec,
    Language, Object, ObjectKind, Result, Universe, Word,
};
use crate::ffi::args::KeyvalInOut;
use crate::ffi::current;
use crate::ffi::unwind::{c_handle, MustReturn};

/// A C copy callback of any kind. Handles are pointers, so the kinds' callback types differ
/// only in the pointee of the first argument and are ABI-compatible with this one. Called as
/// "C-unwind": a C++ exception thrown through it is then an unwind Rust can see (and stop,
/// with [`MustReturn`]) instead of undefined behaviour.
type RawCopy = unsafe extern "C-unwind" fn(
    *mut c_void,
    c_int,
    *mut c_void,
    *mut c_void,
    *mut c_void,
    *mut c_int,
) -> c_int;
/// A C delete callback of any kind (see [`RawCopy`]).
type RawDelete = unsafe extern "C-unwind" fn(*mut c_void, c_int, *mut c_void, *mut c_void) -> c_int;

/// A C copy callback with the `extra_state` it was created with.
struct CCopy {
    function: RawCopy,
    extra_state: usize,
}

impl CopyCallback for CCopy {
    fn copy(
        &self,
        _: &Universe,
        object: AnyObject,
        keyval: Keyval,
        value: Word,
    ) -> Result<Option<Word>, i32> {
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        let guard = MustReturn::new("copy", self.function as usize, keyval, object, false);
        // SAFETY: the user's callback, called with the arguments the standard gives it; the
        // out-pointers point at locals that outlive the call.
        let code = unsafe {
            (self.function)(
                c_handle(object),
                keyval.0,
                self.extra_state as *mut c_void,
                value as *mut c_void,
                (&mut out as *mut *mut c_void).cast(),
                &mut flag,
            )
        };
        guard.returned();
        if code != abi::MPI_SUCCESS as c_int {
            return Err(code);
        }
        Ok((flag != 0).then_some(out as Word))
    }
}

/// A C delete callback with its `extra_state`.
struct CDelete {
    function: RawDelete,
    extra_state: usize,
}

impl DeleteCallback for CDelete {
    fn delete(
        &self,
        _: &Universe,
        object: AnyObject,
        keyval: Keyval,
        value: Word,
    ) -> Result<(), i32> {
        let guard = MustReturn::new("delete", self.function as usize, keyval, object, false);
        // SAFETY: the user's callback, called with the arguments the standard gives it.
        let code = unsafe {
            (self.function)(
                c_handle(object),
                keyval.0,
                value as *mut c_void,
                self.extra_state as *mut c_void,
            )
        };
        guard.returned();
        if code == abi::MPI_SUCCESS as c_int {
            Ok(())
        } else {
            Err(code)
        }
    }
}

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
        Some(function) => Ok(CopyAction::Call(Arc::new(CCopy {
            function,
            extra_state: extra_state as usize,
        }))),
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
        Some(function) => Ok(DeleteAction::Call(Arc::new(CDelete {
            function,
            extra_state: extra_state as usize,
        }))),
    }
}

fn create_keyval(
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

fn free_keyval(kind: ObjectKind, keyval: *mut c_int) -> Result<()> {
    // SAFETY: an MPI in-out argument: NULL or valid.
    let mut keyval = unsafe { Out::new(keyval, "keyval") }?;
    universe()?.free_keyval(kind, Keyval(keyval.get()))?;
    keyval.set(abi::MPI_KEYVAL_INVALID as c_int);
    Ok(())
}

#[inline(always)]
fn set_attr<H: CHandle>(handle: H, keyval: c_int, value: *mut c_void) -> Result<()>
where
    H::Object: Object,
{
    universe()?.set_attr(decode(handle)?, Keyval(keyval), Language::C, value as Word)
}

#[inline(always)]
fn get_attr<H: CHandle>(
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

/// The five keyval and attribute functions of one object kind, each described once.
macro_rules! attribute_functions {
    (
        $kind:ident, $handle:ty, $target:expr, $obj:ident, $keyval:ident,
        $copy:ident: $copy_ty:ty, $delete:ident: $delete_ty:ty,
        $create:ident / $pcreate:ident, $free:ident / $pfree:ident,
        $set:ident / $pset:ident, $get:ident / $pget:ident, $del:ident / $pdel:ident
    ) => {
        mpi_functions! {
            /// Creates a keyval; MPI_*_NULL_COPY_FN (0) and MPI_*_DUP_FN (1) are recognised.
            fn $create / $pcreate($copy: $copy_ty, $delete: $delete_ty, $keyval: *mut c_int, extra_state: *mut c_void) on Target::SelfComm => {
                // SAFETY: the kinds' callback types differ only in the handle type of their
                // first argument, a pointer; all are ABI-compatible with the raw types.
                let (copy, delete) = unsafe {
                    (
                        std::mem::transmute::<$copy_ty, Option<RawCopy>>($copy),
                        std::mem::transmute::<$delete_ty, Option<RawDelete>>($delete),
                    )
                };
                create_keyval(ObjectKind::$kind, copy, delete, $keyval, extra_state)
            }

            /// Frees a keyval (at once, or when its last attribute goes) and sets the variable
            /// to MPI_KEYVAL_INVALID.
            fn $free / $pfree($keyval: KeyvalInOut) on Target::SelfComm => {
                free_keyval(ObjectKind::$kind, $keyval.0)
            }

            /// Stores a C pointer; an existing value is deleted first.
            fn $set / $pset($obj: $handle, $keyval: c_int, attribute_val: *mut c_void) on $target, fast {
                let object = decode($obj).ok()?;
                current()?.set_attr_fast(object, Keyval($keyval), Language::C, attribute_val as Word)?;
                Some(abi::MPI_SUCCESS as c_int)
            } => {
                set_attr($obj, $keyval, attribute_val)
            }

            /// Reads the attribute as C sees it (attributes.md §3).
            fn $get / $pget($obj: $handle, $keyval: c_int, attribute_val: *mut c_void, flag: *mut c_int) on $target, fast {
                if attribute_val.is_null() || flag.is_null() {
                    return None;
                }
                let object = decode($obj).ok()?;
                let value = current()?.get_attr_fast(object, Keyval($keyval), Language::C)?;
                // SAFETY: both are non-null (checked) output arguments, valid for writes.
                unsafe {
                    if let Some(word) = value {
                        attribute_val.cast::<*mut c_void>().write(word as *mut c_void);
                    }
                    flag.write(c_int::from(value.is_some()));
                }
                Some(abi::MPI_SUCCESS as c_int)
            } => {
                get_attr($obj, $keyval, attribute_val, flag)
            }

            /// Deletes the attribute, running its delete callback.
            fn $del / $pdel($obj: $handle, $keyval: c_int) on $target, fast {
                current()?.delete_attr_fast(decode($obj).ok()?, Keyval($keyval))?;
                Some(abi::MPI_SUCCESS as c_int)
            } => {
                delete_attr($obj, $keyval)
            }
        }
    };
}

attribute_functions!(
    Comm, MPI_Comm, Target::Comm(comm), comm, comm_keyval,
    comm_copy_attr_fn: abi::MPI_Comm_copy_attr_function,
    comm_delete_attr_fn: abi::MPI_Comm_delete_attr_function,
    MPI_Comm_create_keyval / PMPI_Comm_create_keyval,
    MPI_Comm_free_keyval / PMPI_Comm_free_keyval,
    MPI_Comm_set_attr / PMPI_Comm_set_attr,
    MPI_Comm_get_attr / PMPI_Comm_get_attr,
    MPI_Comm_delete_attr / PMPI_Comm_delete_attr
);

attribute_functions!(
    Datatype, MPI_Datatype, Target::SelfComm, datatype, type_keyval,
    type_copy_attr_fn: abi::MPI_Type_copy_attr_function,
    type_delete_attr_fn: abi::MPI_Type_delete_attr_function,
    MPI_Type_create_keyval / PMPI_Type_create_keyval,
    MPI_Type_free_keyval / PMPI_Type_free_keyval,
    MPI_Type_set_attr / PMPI_Type_set_attr,
    MPI_Type_get_attr / PMPI_Type_get_attr,
    MPI_Type_delete_attr / PMPI_Type_delete_attr
);

attribute_functions!(
    Win, MPI_Win, Target::Win(win), win, win_keyval,
    win_copy_attr_fn: abi::MPI_Win_copy_attr_function,
    win_delete_attr_fn: abi::MPI_Win_delete_attr_function,
    MPI_Win_create_keyval / PMPI_Win_create_keyval,
    MPI_Win_free_keyval / PMPI_Win_free_keyval,
    MPI_Win_set_attr / PMPI_Win_set_attr,
    MPI_Win_get_attr / PMPI_Win_get_attr,
    MPI_Win_delete_attr / PMPI_Win_delete_attr
);

// The deprecated MPI-1 names: communicator keyvals with C callbacks.
attribute_functions!(
    Comm, MPI_Comm, Target::Comm(comm), comm, keyval,
    copy_fn: abi::MPI_Copy_function,
    delete_fn: abi::MPI_Delete_function,
    MPI_Keyval_create / PMPI_Keyval_create,
    MPI_Keyval_free / PMPI_Keyval_free,
    MPI_Attr_put / PMPI_Attr_put,
    MPI_Attr_get / PMPI_Attr_get,
    MPI_Attr_delete / PMPI_Attr_delete
);
