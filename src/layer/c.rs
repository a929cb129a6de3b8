//! The layer's C entry points, each as `MPI_X` and `PMPI_X`: the attribute routines, and the
//! routines that copy or delete attributes (duplication, free, `MPI_Finalize`), which call
//! the real MPI for the objects themselves. Everything else is the real MPI's own.

use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::real::{conversions, functions, key_of, values, Handle, MPI_Comm, MPI_Datatype};
use super::real::{MPI_Fint, MPI_Info};
use super::real::{MPI_Request, MPI_Status, MPI_Win};
use super::{report, shadows, universe, On};
use crate::callbacks::{CCopy, CCopyFn, CDelete, CDeleteFn, Call, FrontEnd};
use crate::engine::{
    AnyObject, Comm, CopyAction, Datatype, DeleteAction, Error, HandleProblem, Keyval, KeyvalSpec,
    Language, Object, ObjectKind, Universe, Win, Word,
};

/// What differs between communicators, datatypes and windows. (Visible in the crate: each
/// kind is a [`FrontEnd`] of the shared callback calls, whose handle type is its `H`.)
pub(crate) trait Kind: 'static {
    /// The real MPI's handle.
    type H: Handle + 'static;
    /// The engine's foreign object.
    type O: Object;
    const KIND: ObjectKind;
    /// The real null handle.
    fn null() -> *mut c_void;
    /// Where its errors go.
    fn on(handle: Self::H) -> On;
    /// Whether `keyval` is one of the real MPI's predefined keyvals of this kind.
    fn predefined(keyval: c_int) -> bool;
    /// The real MPI's get of its predefined attributes (datatypes have none).
    fn real_get() -> Option<RealGet<Self::H>>;
    /// The real MPI's predefined callbacks: no copy, no delete, copy the value.
    fn callbacks() -> [*mut c_void; 3];
    /// The real MPI's C handle of a Fortran handle, and back.
    fn f2c(handle: MPI_Fint) -> Self::H;
    fn c2f(handle: Self::H) -> MPI_Fint;
    /// The symbols of the real MPI's Fortran predefined callbacks of this kind: no copy, no
    /// delete, copy the value.
    const FORTRAN_CALLBACKS: [&'static str; 3];
}

/// The real MPI's `MPI_Comm_get_attr` or `MPI_Win_get_attr`.
pub(crate) type RealGet<H> = unsafe extern "C" fn(H, c_int, *mut c_void, *mut c_int) -> c_int;

/// The kinds, one row each: its struct, the real MPI's handle type, the engine's object type
/// (also its `ObjectKind`), its name in the real MPI's Fortran symbols, and the names of its
/// values in [`values()`] and of its functions in [`functions()`] and [`conversions()`].
macro_rules! kinds {
    ($($kind:ident: $h:ty, $o:ident, $fortran:literal, null $null:ident, on $on:expr,
        predefined [$($keyval:ident),*], get $real_get:expr, conversions [$f2c:ident, $c2f:ident],
        callbacks [$null_copy:ident, $null_delete:ident, $dup:ident];)*) => {$(
        pub(super) struct $kind;

        impl Kind for $kind {
            type H = $h;
            type O = $o;
            const KIND: ObjectKind = ObjectKind::$o;
            fn null() -> *mut c_void {
                values().$null
            }
            fn on(handle: $h) -> On {
                ($on)(handle)
            }
            fn predefined(keyval: c_int) -> bool {
                [$(values().$keyval),*].contains(&keyval)
            }
            fn real_get() -> Option<RealGet<$h>> {
                $real_get
            }
            fn callbacks() -> [*mut c_void; 3] {
                let v = values();
                [v.$null_copy, v.$null_delete, v.$dup]
            }
            fn f2c(handle: MPI_Fint) -> $h {
                // SAFETY: the real MPI's conversion, defined for every value.
                unsafe { (conversions().$f2c)(handle) }
            }
            fn c2f(handle: $h) -> MPI_Fint {
                // SAFETY: as above.
                unsafe { (conversions().$c2f)(handle) }
            }
            const FORTRAN_CALLBACKS: [&'static str; 3] = [
                concat!("mpi_", $fortran, "_null_copy_fn"),
                concat!("mpi_", $fortran, "_null_delete_fn"),
                concat!("mpi_", $fortran, "_dup_fn"),
            ];
        }
    )*};
}

kinds! {
    CommKind: MPI_Comm, Comm, "comm", null comm_null, on On::Comm,
        predefined [tag_ub, host, io, wtime_is_global, universe_size, lastusedcode, appnum],
        get Some(functions().comm_get_attr), conversions [comm_f2c, comm_c2f],
        callbacks [comm_null_copy_fn, comm_null_delete_fn, comm_dup_fn];
    // A datatype's errors go to no object (MPI_COMM_SELF's handler); it has no predefined
    // attributes.
    TypeKind: MPI_Datatype, Datatype, "type", null datatype_null, on |_| On::NoObject,
        predefined [], get None, conversions [type_f2c, type_c2f],
        callbacks [type_null_copy_fn, type_null_delete_fn, type_dup_fn];
    WinKind: MPI_Win, Win, "win", null win_null, on On::Win,
        predefined [win_base, win_size, win_disp_unit, win_create_flavor, win_model],
        get Some(functions().win_get_attr), conversions [win_f2c, win_c2f],
        callbacks [win_null_copy_fn, win_null_delete_fn, win_dup_fn];
}

/// How many callbacks the thread has called that have not returned: those running, and those
/// left by `longjmp`, which never will. When the thread ends with one left, what its call
/// left half-done is finished then (as the single-process library's shells do).
struct Unreturned(std::cell::Cell<usize>);

impl Drop for Unreturned {
    fn drop(&mut self) {
        if self.0.get() != 0 {
            if let Some(universe) = super::made() {
                universe.thread_ends();
            }
        }
    }
}

thread_local! {
    static UNRETURNED: Unreturned = const { Unreturned(std::cell::Cell::new(0)) };
}

/// Each kind is the front end of its C and Fortran callbacks: the real MPI's handles of that
/// kind, and its Fortran INTEGER.
impl<K: Kind> FrontEnd for K {
    type Handle = K::H;
    type Fint = MPI_Fint;
    fn success() -> c_int {
        values().success
    }
    /// The real handle of the object; `MPI_ERR_INTERN` if the layer has none for it.
    fn c_handle(object: AnyObject) -> Result<K::H, i32> {
        let real = shadows::real_key(object).ok_or(values().err_intern)?;
        Ok(K::H::from_key(real))
    }
    fn fortran_handle(object: AnyObject) -> Result<MPI_Fint, i32> {
        Self::c_handle(object).map(K::c2f)
    }
    /// The call, counted in [`UNRETURNED`] until it returns. An exception thrown through the
    /// callback (called as "C-unwind") is not stopped here: the first `catch_unwind` above
    /// (the engine's, or [`guarded`]'s) meets it and Rust aborts the process ("Rust cannot
    /// catch foreign exceptions").
    fn around<R>(_: Call, body: impl FnOnce() -> R) -> R {
        UNRETURNED.with(|unreturned| unreturned.0.set(unreturned.0.get() + 1));
        let result = body();
        UNRETURNED.with(|unreturned| unreturned.0.set(unreturned.0.get() - 1));
        result
    }
}

/// Runs an entry point's body: a panic becomes `MPI_ERR_INTERN` and one line on stderr,
/// never an unwind into C.
/// Notes where the call enters, as the single-process library's shells do, so that a
/// callback left by `longjmp` is told from one still running (src/engine/mod.rs).
#[inline(always)]
pub(super) fn guarded(name: &'static str, body: impl FnOnce() -> c_int) -> c_int {
    let anchor = 0u8;
    let previous = super::made()
        .filter(|universe| universe.has_callbacks())
        .map(|_| crate::engine::note_call_entry(std::hint::black_box(&anchor), name));
    let outcome = catch_unwind(AssertUnwindSafe(body));
    if let Some(previous) = previous {
        crate::engine::note_call_return(previous);
    }
    match outcome {
        Ok(code) => code,
        Err(_) => {
            eprintln!("{name}: internal error in the mpiattr layer (MPI_ERR_INTERN)");
            values().err_intern
        }
    }
}

/// `MPI_X` and `PMPI_X` over one body, with the common case first where there is one
/// (`fast`, `None` for every other case): without the panic boundary, a lock or any call, as
/// the single-process library's fast paths (it runs no user code and cannot panic).
macro_rules! entry {
    ($($name:ident, $pname:ident ($($arg:ident: $ty:ty),*) $(fast $fast:expr,)? => $body:expr;)*) => {$(
        #[no_mangle]
        /// # Safety
        /// The MPI standard's contract for this function.
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> c_int {
            $(
                // SAFETY: the caller's arguments, as the standard lets it pass them.
                #[allow(unused_unsafe)]
                let fast = unsafe { $fast };
                if let Some(code) = fast {
                    return code;
                }
            )?
            /// Every other case, out of the fast path's line: it then saves no registers.
            /// `extern "C"` (it catches every panic), so that the jump to it is the entry
            /// point's last step.
            #[inline(never)]
            unsafe extern "C" fn whole($($arg: $ty),*) -> c_int {
                // SAFETY: the caller's arguments, as the standard lets it pass them.
                guarded(stringify!($name), || unsafe { $body })
            }
            // SAFETY: as above.
            unsafe { whole($($arg),*) }
        }
        #[no_mangle]
        /// # Safety
        /// The MPI standard's contract for this function.
        pub unsafe extern "C" fn $pname($($arg: $ty),*) -> c_int {
            $(
                // SAFETY: as above.
                #[allow(unused_unsafe)]
                let fast = unsafe { $fast };
                if let Some(code) = fast {
                    return code;
                }
            )?
            /// Every other case, out of the fast path's line: it then saves no registers.
            /// `extern "C"` (it catches every panic), so that the jump to it is the entry
            /// point's last step.
            #[inline(never)]
            unsafe extern "C" fn whole($($arg: $ty),*) -> c_int {
                // SAFETY: the caller's arguments, as the standard lets it pass them.
                guarded(stringify!($name), || unsafe { $body })
            }
            // SAFETY: as above.
            unsafe { whole($($arg),*) }
        }
    )*};
}

entry! {
    MPI_Comm_create_keyval, PMPI_Comm_create_keyval(copy: *mut c_void, delete: *mut c_void, keyval: *mut c_int, extra: *mut c_void)
        => create_keyval::<CommKind>("MPI_Comm_create_keyval", copy, delete, keyval, extra);
    MPI_Type_create_keyval, PMPI_Type_create_keyval(copy: *mut c_void, delete: *mut c_void, keyval: *mut c_int, extra: *mut c_void)
        => create_keyval::<TypeKind>("MPI_Type_create_keyval", copy, delete, keyval, extra);
    MPI_Win_create_keyval, PMPI_Win_create_keyval(copy: *mut c_void, delete: *mut c_void, keyval: *mut c_int, extra: *mut c_void)
        => create_keyval::<WinKind>("MPI_Win_create_keyval", copy, delete, keyval, extra);
    MPI_Keyval_create, PMPI_Keyval_create(copy: *mut c_void, delete: *mut c_void, keyval: *mut c_int, extra: *mut c_void)
        => create_keyval::<CommKind>("MPI_Keyval_create", copy, delete, keyval, extra);
    MPI_Comm_free_keyval, PMPI_Comm_free_keyval(keyval: *mut c_int)
        => free_keyval::<CommKind>("MPI_Comm_free_keyval", keyval);
    MPI_Type_free_keyval, PMPI_Type_free_keyval(keyval: *mut c_int)
        => free_keyval::<TypeKind>("MPI_Type_free_keyval", keyval);
    MPI_Win_free_keyval, PMPI_Win_free_keyval(keyval: *mut c_int)
        => free_keyval::<WinKind>("MPI_Win_free_keyval", keyval);
    MPI_Keyval_free, PMPI_Keyval_free(keyval: *mut c_int)
        => free_keyval::<CommKind>("MPI_Keyval_free", keyval);
    MPI_Comm_set_attr, PMPI_Comm_set_attr(comm: MPI_Comm, keyval: c_int, value: *mut c_void)
        fast set_attr_fast::<CommKind>(comm, keyval, value),
        => set_attr::<CommKind>("MPI_Comm_set_attr", comm, keyval, value);
    MPI_Type_set_attr, PMPI_Type_set_attr(datatype: MPI_Datatype, keyval: c_int, value: *mut c_void)
        fast set_attr_fast::<TypeKind>(datatype, keyval, value),
        => set_attr::<TypeKind>("MPI_Type_set_attr", datatype, keyval, value);
    MPI_Win_set_attr, PMPI_Win_set_attr(win: MPI_Win, keyval: c_int, value: *mut c_void)
        fast set_attr_fast::<WinKind>(win, keyval, value),
        => set_attr::<WinKind>("MPI_Win_set_attr", win, keyval, value);
    MPI_Attr_put, PMPI_Attr_put(comm: MPI_Comm, keyval: c_int, value: *mut c_void)
        fast set_attr_fast::<CommKind>(comm, keyval, value),
        => set_attr::<CommKind>("MPI_Attr_put", comm, keyval, value);
    MPI_Comm_get_attr, PMPI_Comm_get_attr(comm: MPI_Comm, keyval: c_int, value: *mut c_void, flag: *mut c_int)
        fast get_attr_fast::<CommKind>(comm, keyval, value, flag),
        => get_attr::<CommKind>("MPI_Comm_get_attr", comm, keyval, value, flag);
    MPI_Type_get_attr, PMPI_Type_get_attr(datatype: MPI_Datatype, keyval: c_int, value: *mut c_void, flag: *mut c_int)
        fast get_attr_fast::<TypeKind>(datatype, keyval, value, flag),
        => get_attr::<TypeKind>("MPI_Type_get_attr", datatype, keyval, value, flag);
    MPI_Win_get_attr, PMPI_Win_get_attr(win: MPI_Win, keyval: c_int, value: *mut c_void, flag: *mut c_int)
        fast get_attr_fast::<WinKind>(win, keyval, value, flag),
        => get_attr::<WinKind>("MPI_Win_get_attr", win, keyval, value, flag);
    MPI_Attr_get, PMPI_Attr_get(comm: MPI_Comm, keyval: c_int, value: *mut c_void, flag: *mut c_int)
        fast get_attr_fast::<CommKind>(comm, keyval, value, flag),
        => get_attr::<CommKind>("MPI_Attr_get", comm, keyval, value, flag);
    MPI_Comm_delete_attr, PMPI_Comm_delete_attr(comm: MPI_Comm, keyval: c_int)
        fast delete_attr_fast::<CommKind>(comm, keyval),
        => delete_attr::<CommKind>("MPI_Comm_delete_attr", comm, keyval);
    MPI_Type_delete_attr, PMPI_Type_delete_attr(datatype: MPI_Datatype, keyval: c_int)
        fast delete_attr_fast::<TypeKind>(datatype, keyval),
        => delete_attr::<TypeKind>("MPI_Type_delete_attr", datatype, keyval);
    MPI_Win_delete_attr, PMPI_Win_delete_attr(win: MPI_Win, keyval: c_int)
        fast delete_attr_fast::<WinKind>(win, keyval),
        => delete_attr::<WinKind>("MPI_Win_delete_attr", win, keyval);
    MPI_Attr_delete, PMPI_Attr_delete(comm: MPI_Comm, keyval: c_int)
        fast delete_attr_fast::<CommKind>(comm, keyval),
        => delete_attr::<CommKind>("MPI_Attr_delete", comm, keyval);
    MPI_Comm_dup, PMPI_Comm_dup(comm: MPI_Comm, new: *mut MPI_Comm)
        => dup::<CommKind>("MPI_Comm_dup", comm, new, || (functions().comm_dup)(comm, new), || ());
    MPI_Comm_dup_with_info, PMPI_Comm_dup_with_info(comm: MPI_Comm, info: MPI_Info, new: *mut MPI_Comm)
        => dup::<CommKind>("MPI_Comm_dup_with_info", comm, new, || (functions().comm_dup_with_info)(comm, info, new), || ());
    MPI_Comm_idup, PMPI_Comm_idup(comm: MPI_Comm, new: *mut MPI_Comm, request: *mut MPI_Request)
        => dup::<CommKind>("MPI_Comm_idup", comm, new, || (functions().comm_idup)(comm, new, request), || complete(request));
    MPI_Type_dup, PMPI_Type_dup(datatype: MPI_Datatype, new: *mut MPI_Datatype)
        => dup::<TypeKind>("MPI_Type_dup", datatype, new, || (functions().type_dup)(datatype, new), || ());
    MPI_Comm_free, PMPI_Comm_free(comm: *mut MPI_Comm)
        => free::<CommKind>("MPI_Comm_free", comm, || (functions().comm_free)(comm));
    MPI_Comm_disconnect, PMPI_Comm_disconnect(comm: *mut MPI_Comm)
        => free::<CommKind>("MPI_Comm_disconnect", comm, || (functions().comm_disconnect)(comm));
    MPI_Type_free, PMPI_Type_free(datatype: *mut MPI_Datatype)
        => free::<TypeKind>("MPI_Type_free", datatype, || (functions().type_free)(datatype));
    MPI_Win_free, PMPI_Win_free(win: *mut MPI_Win)
        => free::<WinKind>("MPI_Win_free", win, || (functions().win_free)(win));
    MPI_Finalize, PMPI_Finalize() => finalize();
}

// MPI-4.0's, where the real MPI has it (MPICH 4; not Open MPI 4.1).
#[cfg(real_idup_with_info)]
entry! {
    MPI_Comm_idup_with_info, PMPI_Comm_idup_with_info(comm: MPI_Comm, info: MPI_Info, new: *mut MPI_Comm, request: *mut MPI_Request)
        => dup::<CommKind>("MPI_Comm_idup_with_info", comm, new, || (functions().comm_idup_with_info)(comm, info, new, request), || complete(request));
}

/// Completes the real `MPI_Comm_idup` whose copies failed, so that its new communicator can
/// be freed (MPICH frees a communicator still being made twice). The other processes' idups
/// progress in whatever MPI call they make, as nonblocking collectives do.
unsafe fn complete(request: *mut MPI_Request) {
    if request.is_null() {
        return;
    }
    // SAFETY: an MPI_Status of the real MPI's layout, written by its MPI_Wait.
    let mut status: MPI_Status = unsafe { std::mem::zeroed() };
    // SAFETY: the request the real MPI_Comm_idup just returned.
    unsafe { (functions().wait)(request, &mut status) };
}

/// The engine's view of a handle the program passed: `Err(code)` once reported if it is the
/// null handle.
pub(super) fn live<K: Kind>(
    name: &str,
    arguments: &dyn Fn() -> String,
    handle: K::H,
) -> Result<usize, c_int> {
    let key = handle.key();
    if key == key_of(K::null()) {
        let error = Error::InvalidHandle(K::KIND, HandleProblem::Null);
        return Err(report(name, arguments, On::NoObject, &error));
    }
    Ok(key)
}

unsafe fn create_keyval<K: Kind>(
    name: &str,
    copy: *mut c_void,
    delete: *mut c_void,
    keyval: *mut c_int,
    extra: *mut c_void,
) -> c_int {
    let arguments =
        || format!("copy={copy:p}, delete={delete:p}, keyval={keyval:p}, extra_state={extra:p}");
    let actions = || {
        let [null_copy, null_delete, dup] = K::callbacks();
        let v = values();
        // What no callback can be: an address in the first page, a predefined copy function
        // as the delete callback, a predefined delete function as the copy callback.
        let copies = [null_copy, dup, v.null_copy_fn, v.dup_fn];
        let deletes = [null_delete, v.null_delete_fn];
        // (The standard ABI's predefined callbacks are small numbers themselves.)
        let known = |f: *mut c_void| copies.contains(&f) || deletes.contains(&f);
        let low = |f: *mut c_void| !f.is_null() && (f as usize) < 4096 && !known(f);
        let misplaced =
            |f: *mut c_void, others: &[*mut c_void]| !f.is_null() && others.contains(&f);
        if low(copy) || low(delete) || misplaced(delete, &copies) || misplaced(copy, &deletes) {
            return Err(Error::InvalidArgument(
                "a callback that is no function of its kind",
            ));
        }
        let copy = if copy.is_null() || copy == null_copy || copy == v.null_copy_fn {
            CopyAction::Null
        } else if copy == dup || copy == v.dup_fn {
            CopyAction::Dup
        } else {
            // SAFETY: the program passed a copy callback of its kind's type.
            let function = unsafe { std::mem::transmute::<*mut c_void, CCopyFn<K::H>>(copy) };
            CopyAction::Call(std::sync::Arc::new(CCopy::<K>::new(
                function,
                extra as usize,
            )))
        };
        let delete = if delete.is_null() || delete == null_delete || delete == v.null_delete_fn {
            DeleteAction::Null
        } else {
            // SAFETY: the program passed a delete callback of its kind's type.
            let function = unsafe { std::mem::transmute::<*mut c_void, CDeleteFn<K::H>>(delete) };
            DeleteAction::Call(std::sync::Arc::new(CDelete::<K>::new(
                function,
                extra as usize,
            )))
        };
        Ok((copy, delete))
    };
    if keyval.is_null() {
        let error = Error::NullArgument("keyval");
        return report(name, &arguments, On::NoObject, &error);
    }
    match make_keyval::<K>(name, &arguments, Language::C, actions) {
        Ok(made) => {
            // SAFETY: checked non-null above; the program's int.
            unsafe { *keyval = made };
            values().success
        }
        Err(code) => code,
    }
}

/// A keyval of kind `K` whose callbacks follow `language`'s convention: its number, or the
/// code of the error reported.
pub(super) fn make_keyval<K: Kind>(
    name: &str,
    arguments: &dyn Fn() -> String,
    language: Language,
    actions: impl FnOnce() -> crate::engine::Result<(CopyAction, DeleteAction)>,
) -> Result<c_int, c_int> {
    let universe = universe(name)?;
    let made = actions().and_then(|(copy, delete)| {
        universe.create_keyval(KeyvalSpec {
            kind: K::KIND,
            language,
            copy,
            delete,
        })
    });
    made.map(|keyval| keyval.0)
        .map_err(|error| report(name, arguments, On::NoObject, &error))
}

unsafe fn free_keyval<K: Kind>(name: &str, keyval: *mut c_int) -> c_int {
    if keyval.is_null() {
        let error = Error::NullArgument("keyval");
        return report(name, &|| "keyval=NULL".to_string(), On::NoObject, &error);
    }
    // SAFETY: checked non-null; the program's int.
    let code = release_keyval::<K>(name, unsafe { *keyval });
    if code == values().success {
        // SAFETY: as above.
        unsafe { *keyval = values().keyval_invalid };
    }
    code
}

/// Frees the keyval `number` of kind `K` (C's number): success, or the code of the error
/// reported. The caller sets the program's variable to `MPI_KEYVAL_INVALID` on success.
pub(super) fn release_keyval<K: Kind>(name: &str, number: c_int) -> c_int {
    let universe = match universe(name) {
        Ok(universe) => universe,
        Err(code) => return code,
    };
    let arguments = || format!("keyval={number}");
    if K::predefined(number) {
        return report(name, &arguments, On::NoObject, &Error::PredefinedKeyval);
    }
    match universe.free_keyval(K::KIND, Keyval(number)) {
        Ok(()) => values().success,
        Err(error) => report(name, &arguments, On::NoObject, &error),
    }
}

/// The common case of a set, for C and Fortran: an object with attributes that a recent
/// lookup found, and no delete callback due; `None` for every other case. The real MPI's
/// predefined keyvals are no keyvals of the engine (its numbers stay clear of theirs): they
/// go the whole way too.
#[inline(always)]
pub(super) fn set_fast<K: Kind>(
    handle: K::H,
    keyval: c_int,
    language: Language,
    word: Word,
) -> Option<()> {
    let object = shadows::recently_found::<K::O>(handle.key())?;
    super::ready()?.set_attr_fast(object, Keyval(keyval), language, word)
}

/// The common case of a get, for C and Fortran (see [`set_fast`]).
#[inline(always)]
pub(super) fn get_fast<K: Kind>(
    handle: K::H,
    keyval: c_int,
    view: Language,
) -> Option<Option<Word>> {
    let object = shadows::recently_found::<K::O>(handle.key())?;
    super::ready()?.get_attr_fast(move || Some(object), Keyval(keyval), view, false)
}

/// The common case of a delete, for C and Fortran: no delete callback due (see
/// [`set_fast`]).
#[inline(always)]
pub(super) fn delete_fast<K: Kind>(handle: K::H, keyval: c_int) -> Option<()> {
    let object = shadows::recently_found::<K::O>(handle.key())?;
    super::ready()?.delete_attr_fast(object, Keyval(keyval))
}

#[inline(always)]
fn set_attr_fast<K: Kind>(handle: K::H, keyval: c_int, value: *mut c_void) -> Option<c_int> {
    set_fast::<K>(handle, keyval, Language::C, value as Word)?;
    Some(values().success)
}

/// # Safety
/// The pointer arguments are NULL or valid (the C caller's contract).
#[inline(always)]
unsafe fn get_attr_fast<K: Kind>(
    handle: K::H,
    keyval: c_int,
    value: *mut c_void,
    flag: *mut c_int,
) -> Option<c_int> {
    if value.is_null() || flag.is_null() {
        return None;
    }
    let found = get_fast::<K>(handle, keyval, Language::C)?;
    // SAFETY: both are non-null (checked) output arguments, valid for writes.
    unsafe {
        if let Some(word) = found {
            value.cast::<*mut c_void>().write(word as *mut c_void);
        }
        flag.write(c_int::from(found.is_some()));
    }
    Some(values().success)
}

#[inline(always)]
fn delete_attr_fast<K: Kind>(handle: K::H, keyval: c_int) -> Option<c_int> {
    delete_fast::<K>(handle, keyval)?;
    Some(values().success)
}

unsafe fn set_attr<K: Kind>(name: &str, handle: K::H, keyval: c_int, value: *mut c_void) -> c_int {
    let arguments = || {
        format!(
            "handle={:#x}, keyval={keyval}, value={value:p}",
            handle.key()
        )
    };
    set_value::<K>(name, &arguments, handle, keyval, Language::C, value as Word)
}

/// Sets a value given in `language`'s view.
pub(super) fn set_value<K: Kind>(
    name: &str,
    arguments: &dyn Fn() -> String,
    handle: K::H,
    keyval: c_int,
    language: Language,
    word: Word,
) -> c_int {
    let universe = match universe(name) {
        Ok(universe) => universe,
        Err(code) => return code,
    };
    let key = match live::<K>(name, arguments, handle) {
        Ok(key) => key,
        Err(code) => return code,
    };
    if K::predefined(keyval) {
        return report(name, arguments, K::on(handle), &Error::PredefinedKeyval);
    }
    let done = shadows::find_or_make::<K::O>(universe, key).and_then(|object| {
        // The common case without a lock or a delete callback, else the full set.
        match universe.set_attr_fast(object, Keyval(keyval), language, word) {
            Some(()) => Ok(()),
            None => universe.set_attr(object, Keyval(keyval), language, word),
        }
    });
    match done {
        Ok(()) => values().success,
        Err(error) => report(name, arguments, K::on(handle), &error),
    }
}

unsafe fn get_attr<K: Kind>(
    name: &str,
    handle: K::H,
    keyval: c_int,
    value: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let arguments = || {
        format!(
            "handle={:#x}, keyval={keyval}, value={value:p}, flag={flag:p}",
            handle.key()
        )
    };
    for (pointer, what) in [(value.is_null(), "attribute_val"), (flag.is_null(), "flag")] {
        if pointer {
            let on = if handle.key() == key_of(K::null()) {
                On::NoObject
            } else {
                K::on(handle)
            };
            return report(name, &arguments, on, &Error::NullArgument(what));
        }
    }
    match get_value::<K>(name, &arguments, handle, keyval, Language::C) {
        Ok(found) => {
            // SAFETY: checked non-null; the program passed a `void **` as `value` and an int.
            unsafe {
                if let Some(word) = found {
                    *value.cast::<*mut c_void>() = word as *mut c_void;
                }
                *flag = c_int::from(found.is_some());
            }
            values().success
        }
        Err(code) => code,
    }
}

/// The value an object has for `keyval` in `view`, or the code of the error reported. The
/// real MPI's predefined attributes come from it: C's view is what it gives (a pointer to
/// the value, `MPI_WIN_BASE` the address itself), Fortran's the value.
pub(super) fn get_value<K: Kind>(
    name: &str,
    arguments: &dyn Fn() -> String,
    handle: K::H,
    keyval: c_int,
    view: Language,
) -> Result<Option<Word>, c_int> {
    let universe = universe(name)?;
    let key = live::<K>(name, arguments, handle)?;
    if K::predefined(keyval) {
        let mut pointer: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        let code = match K::real_get() {
            // SAFETY: the real MPI's read of its own attribute into locals.
            Some(real_get) => unsafe {
                real_get(
                    handle,
                    keyval,
                    (&mut pointer as *mut *mut c_void).cast(),
                    &mut flag,
                )
            },
            None => values().err_keyval,
        };
        if code != values().success {
            return Err(code);
        }
        if flag == 0 {
            return Ok(None);
        }
        let v = values();
        let word = if view == Language::C || keyval == v.win_base {
            pointer as Word
        } else if keyval == v.win_size {
            // SAFETY: the real MPI's pointer to its window's size, an MPI_Aint.
            unsafe { *pointer.cast::<isize>() as Word }
        } else {
            // SAFETY: the real MPI's pointer to an int value.
            unsafe { *pointer.cast::<c_int>() as Word }
        };
        return Ok(Some(word));
    }
    let object = match shadows::find::<K::O>(key) {
        Some(object) => Ok(object),
        None => shadows::empty::<K::O>(universe),
    };
    object
        .and_then(|object| {
            // The common case without a lock, else the full get.
            match universe.get_attr_fast(move || Some(object), Keyval(keyval), view, false) {
                Some(found) => Ok(found),
                None => universe.get_attr(object, Keyval(keyval), view),
            }
        })
        .map_err(|error| report(name, arguments, K::on(handle), &error))
}

unsafe fn delete_attr<K: Kind>(name: &str, handle: K::H, keyval: c_int) -> c_int {
    let arguments = || format!("handle={:#x}, keyval={keyval}", handle.key());
    delete_value::<K>(name, &arguments, handle, keyval)
}

/// Deletes an object's value for `keyval`.
pub(super) fn delete_value<K: Kind>(
    name: &str,
    arguments: &dyn Fn() -> String,
    handle: K::H,
    keyval: c_int,
) -> c_int {
    let universe = match universe(name) {
        Ok(universe) => universe,
        Err(code) => return code,
    };
    let key = match live::<K>(name, arguments, handle) {
        Ok(key) => key,
        Err(code) => return code,
    };
    if K::predefined(keyval) {
        return report(name, arguments, K::on(handle), &Error::PredefinedKeyval);
    }
    let object = match shadows::find::<K::O>(key) {
        Some(object) => Ok(object),
        None => shadows::empty::<K::O>(universe),
    };
    match object.and_then(|object| universe.delete_attr(object, Keyval(keyval))) {
        Ok(()) => values().success,
        Err(error) => report(name, arguments, K::on(handle), &error),
    }
}

/// A duplication: the real one first, then copies of the attributes onto the new handle's
/// foreign object. A copy that fails deletes the copies made, completes the real call
/// (`complete`: an idup's request), frees the new object and reports the error.
unsafe fn dup<K: Kind>(
    name: &str,
    old: K::H,
    new: *mut K::H,
    real_dup: impl FnOnce() -> c_int,
    complete: impl FnOnce(),
) -> c_int {
    let code = real_dup();
    if code != values().success || new.is_null() {
        return code;
    }
    let Some(source) = shadows::find::<K::O>(old.key()) else {
        return code;
    };
    let universe = match universe(name) {
        Ok(universe) => universe,
        Err(code) => return code,
    };
    // SAFETY: non-null, and the real MPI just wrote the new handle there.
    let made = unsafe { *new };
    match universe.foreign_dup_then(source, |copy| shadows::bind(universe, made.key(), copy)) {
        Ok(_) => code,
        Err(error) => {
            // The engine freed the copy, deleting what was copied.
            shadows::forget::<K::O>(made.key());
            complete();
            let mut doomed = made;
            // SAFETY: the real MPI's free of the object it just made.
            unsafe { real_free::<K>(&mut doomed) };
            // SAFETY: as above.
            unsafe { *new = K::H::from_key(key_of(K::null())) };
            let arguments = || format!("handle={:#x}", old.key());
            report(name, &arguments, K::on(old), &error)
        }
    }
}

/// The real MPI's free of an object of kind `K`.
unsafe fn real_free<K: Kind>(handle: *mut K::H) -> c_int {
    let real = functions();
    // SAFETY: the kinds' handle types are the real MPI's, one per kind.
    unsafe {
        match K::KIND {
            ObjectKind::Comm => (real.comm_free)(handle.cast()),
            ObjectKind::Datatype => (real.type_free)(handle.cast()),
            ObjectKind::Win => (real.win_free)(handle.cast()),
        }
    }
}

/// A free: the attributes' deletes first (newest first), then the real free. If a delete
/// callback fails, the object stays, as the standard has it (the real free is not called)
/// and the error is reported. Neither MPI waits for the other processes in `MPI_Comm_free`
/// or `MPI_Type_free`; `MPI_Win_free` does, so a window whose delete callback fails on some
/// processes only leaves the others waiting unless the error handler ends the job, as the
/// default `MPI_ERRORS_ARE_FATAL` does (docs/layer.md).
unsafe fn free<K: Kind>(name: &str, handle: *mut K::H, real: impl FnOnce() -> c_int) -> c_int {
    if handle.is_null() {
        return real();
    }
    // SAFETY: non-null: the program's handle.
    let current = unsafe { *handle };
    let key = current.key();
    // The predefined communicators are the real MPI's to refuse.
    let predefined = [key_of(values().comm_world), key_of(values().comm_self)];
    if K::KIND == ObjectKind::Comm && predefined.contains(&key) {
        return real();
    }
    let Some(object) = shadows::find::<K::O>(key) else {
        return real();
    };
    let universe = match universe(name) {
        Ok(universe) => universe,
        Err(code) => return code,
    };
    if let Err(error) = universe.foreign_free(object) {
        let arguments = || format!("handle={key:#x}");
        return report(name, &arguments, K::on(current), &error);
    }
    shadows::forget::<K::O>(key);
    real()
}

/// Frees the foreign object of the real object `key`, if it has one.
fn free_foreign<O: Object>(universe: &Universe, key: usize) -> Option<crate::engine::Result<()>> {
    let object = shadows::find::<O>(key)?;
    let freed = universe.foreign_free(object);
    if freed.is_ok() {
        shadows::forget::<O>(key);
    }
    Some(freed)
}

/// Whether a datatype is one of the real MPI's predefined ones.
fn predefined_datatype(key: usize) -> bool {
    let (mut integers, mut addresses, mut datatypes, mut combiner) = (0, 0, 0, -1);
    // SAFETY: a live datatype (its foreign object exists) and valid out-pointers.
    let code = unsafe {
        (functions().type_get_envelope)(
            MPI_Datatype::from_key(key),
            &mut integers,
            &mut addresses,
            &mut datatypes,
            &mut combiner,
        )
    };
    code == values().success && combiner == values().combiner_named
}

/// MPI_Finalize, in the single-process library's order (attributes.md §4): while the real
/// MPI is still initialized, the attributes of `MPI_COMM_SELF` (newest first), then of
/// `MPI_COMM_WORLD`, then of the predefined datatypes in handle order; then the real MPI
/// finalizes.
unsafe fn finalize() -> c_int {
    let v = values();
    let mut failed = None;
    if let Some(universe) = super::made() {
        let comms = [key_of(v.comm_self), key_of(v.comm_world)];
        let datatypes = shadows::keys::<Datatype>().into_iter();
        let order = comms.into_iter().map(|key| (ObjectKind::Comm, key)).chain(
            datatypes
                .filter(|key| predefined_datatype(*key))
                .map(|key| (ObjectKind::Datatype, key)),
        );
        for (kind, key) in order.collect::<Vec<_>>() {
            let freed = match kind {
                ObjectKind::Comm => free_foreign::<Comm>(universe, key),
                _ => free_foreign::<Datatype>(universe, key),
            };
            if let Some(Err(error)) = freed {
                failed.get_or_insert(error);
            }
        }
    }
    // SAFETY: the real MPI_Finalize.
    let code = unsafe { (functions().finalize)() };
    if code == v.success {
        super::finalized();
    }
    match failed {
        Some(error) if code == v.success => {
            eprintln!("MPI_Finalize: {error}");
            super::real_code(&error)
        }
        _ => code,
    }
}
