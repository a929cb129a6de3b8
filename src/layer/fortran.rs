//! The layer's Fortran routines (`mpif.h`, `use mpi`, and the `use mpi_f08` symbols whose
//! arguments have the same layout): the attribute routines, which neither MPI's Fortran
//! library sends through the C ones (MPICH calls its internals with the number of a keyval,
//! Open MPI its own attribute code). Their symbols, in every form either MPI's Fortran
//! libraries export, are generated from one table (src/layer/generate.rs). The routines that
//! copy or delete attributes need no Fortran form here: both MPIs' Fortran `MPI_COMM_DUP`,
//! `MPI_COMM_FREE`, `MPI_FINALIZE` ... call the C functions, which the layer has.
//!
//! Handles are the real MPI's Fortran INTEGERs, converted with its `MPI_*_f2c` and `_c2f`;
//! values are INTEGER(KIND=MPI_ADDRESS_KIND) (`MPI_*_SET_ATTR`) or default INTEGERs
//! (`MPI_ATTR_PUT`, `MPI_KEYVAL_CREATE`), and each reader sees the engine's view
//! (attributes.md §3). The copy and delete callbacks are called as the single-process
//! library's are (src/callbacks.rs), with the real MPI's Fortran handles and INTEGER.

use std::ffi::{c_int, CString};
use std::mem::transmute;
use std::sync::atomic::AtomicIsize;
use std::sync::Arc;

use super::c::{
    delete_fast, delete_value, get_fast, get_value, guarded, make_keyval, release_keyval, set_fast,
    set_value, CommKind, Kind, TypeKind, WinKind,
};
use super::real::{address_of, values, MPI_Fint};
use crate::callbacks::{
    ExtraState, FortranCopy, FortranCopyFn, FortranDelete, FortranDeleteFn, Procedure, Width,
};
use crate::engine::{CopyAction, DeleteAction, Error, Language, Word};

/// A Fortran procedure as passed by reference to a create routine.
type FProc = Option<Procedure>;

/// What a Fortran predefined callback stands for.
#[derive(PartialEq)]
enum Predefined {
    NullCopy,
    NullDelete,
    Dup,
}

/// Which of the real MPI's Fortran predefined callbacks `function` is, by the address the
/// program has for them.
fn predefined<K: Kind>(function: usize) -> Option<Predefined> {
    let [null_copy, null_delete, dup] = K::FORTRAN_CALLBACKS;
    let named = [
        (null_copy, Predefined::NullCopy),
        ("mpi_null_copy_fn", Predefined::NullCopy),
        (null_delete, Predefined::NullDelete),
        ("mpi_null_delete_fn", Predefined::NullDelete),
        (dup, Predefined::Dup),
        ("mpi_dup_fn", Predefined::Dup),
    ];
    named.into_iter().find_map(|(name, what)| {
        let symbol = CString::new(format!("{name}_")).ok()?;
        (address_of(&symbol) == Some(function)).then_some(what)
    })
}

/// The callbacks of a Fortran create routine.
fn actions<K: Kind, T: Width>(
    copy: FProc,
    delete: FProc,
    extra_state: Word,
) -> crate::engine::Result<(CopyAction, DeleteAction)> {
    let cell: ExtraState = Arc::new(AtomicIsize::new(extra_state));
    let copy_kind = copy.and_then(|f| predefined::<K>(f as usize));
    let delete_kind = delete.and_then(|f| predefined::<K>(f as usize));
    if delete_kind == Some(Predefined::Dup) || copy_kind == Some(Predefined::NullDelete) {
        return Err(Error::InvalidArgument(
            "a predefined callback in the other callback's place",
        ));
    }
    let copy = match (copy, copy_kind) {
        (_, Some(Predefined::Dup)) => CopyAction::Dup,
        (None, _) | (_, Some(_)) => CopyAction::Null,
        (Some(function), None) => {
            // SAFETY: a Fortran procedure passed as a copy callback has this convention.
            let function = unsafe { transmute::<Procedure, FortranCopyFn<MPI_Fint, T>>(function) };
            CopyAction::Call(Arc::new(FortranCopy::<K, T>::new(function, cell.clone())))
        }
    };
    let delete = match (delete, delete_kind) {
        (None, _) | (_, Some(_)) => DeleteAction::Null,
        (Some(function), None) => {
            // SAFETY: as above, with the delete convention.
            let function =
                unsafe { transmute::<Procedure, FortranDeleteFn<MPI_Fint, T>>(function) };
            DeleteAction::Call(Arc::new(FortranDelete::<K, T>::new(function, cell)))
        }
    };
    Ok((copy, delete))
}

/// Writes IERROR (absent in a `use mpi_f08` call that leaves it out).
fn answer(ierror: *mut MPI_Fint, code: c_int) {
    if !ierror.is_null() {
        // SAFETY: the program's INTEGER.
        unsafe { *ierror = code };
    }
}

/// MPI_*_CREATE_KEYVAL and MPI_KEYVAL_CREATE.
unsafe fn create_keyval<K: Kind, T: Width>(
    name: &'static str,
    copy: FProc,
    delete: FProc,
    keyval: *mut MPI_Fint,
    extra_state: *const T,
    ierror: *mut MPI_Fint,
    language: Language,
) {
    let code = guarded(name, || {
        // SAFETY: the program's INTEGER.
        let extra = unsafe { *extra_state }.into_word();
        let arguments = || format!("extra_state={extra}");
        match make_keyval::<K>(name, &arguments, language, || {
            actions::<K, T>(copy, delete, extra)
        }) {
            Ok(made) => {
                // SAFETY: the program's INTEGER.
                unsafe { *keyval = made };
                values().success
            }
            Err(code) => code,
        }
    });
    answer(ierror, code);
}

/// MPI_*_FREE_KEYVAL and MPI_KEYVAL_FREE.
unsafe fn free_keyval<K: Kind>(name: &'static str, keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    let code = guarded(name, || {
        // SAFETY: the program's INTEGER.
        let code = release_keyval::<K>(name, c_keyval(unsafe { *keyval }));
        if code == values().success {
            // SAFETY: as above.
            unsafe { *keyval = values().keyval_invalid };
        }
        code
    });
    answer(ierror, code);
}

/// MPI_*_SET_ATTR and MPI_ATTR_PUT.
unsafe fn set_attr<K: Kind, T: Width>(
    name: &'static str,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *const T,
    ierror: *mut MPI_Fint,
    language: Language,
) {
    // The common case first (src/layer/c.rs): a keyval of the engine is its own C number.
    // SAFETY: the program's INTEGERs.
    let (fast_handle, fast_keyval, word) = unsafe { (*handle, *keyval, (*value).into_word()) };
    if set_fast::<K>(K::f2c(fast_handle), fast_keyval as c_int, language, word).is_some() {
        return answer(ierror, values().success);
    }
    let code = guarded(name, || {
        // SAFETY: the program's INTEGERs.
        let (handle, keyval, value) = unsafe { (*handle, c_keyval(*keyval), (*value).into_word()) };
        let arguments = || format!("handle={handle}, keyval={keyval}, value={value}");
        set_value::<K>(name, &arguments, K::f2c(handle), keyval, language, value)
    });
    answer(ierror, code);
}

/// MPI_*_GET_ATTR and MPI_ATTR_GET.
unsafe fn get_attr<K: Kind, T: Width>(
    name: &'static str,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: *mut T,
    flag: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    view: Language,
) {
    // The common case first (see set_attr).
    // SAFETY: the program's INTEGERs.
    let (fast_handle, fast_keyval) = unsafe { (*handle, *keyval) };
    if let Some(found) = get_fast::<K>(K::f2c(fast_handle), fast_keyval as c_int, view) {
        // SAFETY: the program's INTEGER and LOGICAL.
        unsafe {
            if let Some(word) = found {
                *value = T::from_word(word);
            }
            *flag = MPI_Fint::from(found.is_some());
        }
        return answer(ierror, values().success);
    }
    let code = guarded(name, || {
        // SAFETY: the program's INTEGERs.
        let (handle, keyval) = unsafe { (*handle, c_keyval(*keyval)) };
        let arguments = || format!("handle={handle}, keyval={keyval}");
        match get_value::<K>(name, &arguments, K::f2c(handle), keyval, view) {
            Ok(found) => {
                // SAFETY: the program's INTEGER and LOGICAL.
                unsafe {
                    if let Some(word) = found {
                        *value = T::from_word(word);
                    }
                    *flag = MPI_Fint::from(found.is_some());
                }
                values().success
            }
            Err(code) => code,
        }
    });
    answer(ierror, code);
}

/// MPI_*_DELETE_ATTR and MPI_ATTR_DELETE.
unsafe fn delete_attr<K: Kind>(
    name: &'static str,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // The common case first (see set_attr).
    // SAFETY: the program's INTEGERs.
    let (fast_handle, fast_keyval) = unsafe { (*handle, *keyval) };
    if delete_fast::<K>(K::f2c(fast_handle), fast_keyval as c_int).is_some() {
        return answer(ierror, values().success);
    }
    let code = guarded(name, || {
        // SAFETY: the program's INTEGERs.
        let (handle, keyval) = unsafe { (*handle, c_keyval(*keyval)) };
        let arguments = || format!("handle={handle}, keyval={keyval}");
        delete_value::<K>(name, &arguments, K::f2c(handle), keyval)
    });
    answer(ierror, code);
}

// The predefined keyvals' Fortran numbers (src/layer/generate.rs).
include!(concat!(env!("OUT_DIR"), "/layer_fortran_keyvals.rs"));

// The exported symbols (src/layer/generate.rs).
include!(concat!(env!("OUT_DIR"), "/layer_fortran.rs"));
