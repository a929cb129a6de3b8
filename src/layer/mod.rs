//! The layer over a real MPI (feature `layer`): this crate's attribute engine placed between
//! a program and MPICH, Open MPI or an MPI of the MPI-5.0 standard ABI. It takes over the
//! whole attribute chapter (keyvals, attributes, the callbacks at duplication and free, the
//! order at `MPI_Finalize`) and leaves everything else to the MPI underneath, whose `PMPI_`
//! functions it calls for the objects themselves. docs/layer.md says how to use it and what
//! it does.
//!
//! - [`real`]: the MPI underneath (its handle types, constants and functions);
//! - [`shadows`]: which foreign object of the engine holds which real object's attributes;
//! - [`c`]: the C entry points;
//! - [`fortran`]: the Fortran ones;
//! - here: the universe, and reporting errors through the real MPI's error handlers.

mod c;
mod fortran;
mod real;
mod shadows;

use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::OnceLock;

use crate::engine::{Error, ErrorClass, ThreadLevel, Universe};
use real::{functions, values, Handle, MPI_Comm, MPI_Win};

/// Keyval numbers stay below this: clear of MPICH's reserved numbers (`0x24000000` is its
/// `MPI_KEYVAL_INVALID`, `0x40000000` and up its built-in keyvals) and of Open MPI's (small
/// numbers and -1).
const KEYVAL_BOUND: u32 = 1 << 29;

/// The layer's universe, made at the first attribute call after the real `MPI_Init`, at the
/// thread level the real MPI granted. `Err` before `MPI_Init` and after `MPI_Finalize`.
fn universe(name: &str) -> Result<&'static Universe, c_int> {
    if let Some(universe) = ready() {
        return Ok(universe);
    }
    let real = functions();
    let (mut initialized, mut finalized) = (0, 0);
    // SAFETY: the real MPI's always-available queries, with valid out-pointers.
    unsafe {
        (real.initialized)(&mut initialized);
        (real.finalized)(&mut finalized);
    }
    if initialized == 0 || finalized != 0 {
        let when = if initialized == 0 {
            "before MPI_Init"
        } else {
            "after MPI_Finalize"
        };
        eprintln!("{name}: called {when} (MPI_ERR_OTHER)");
        return Err(values().err_other);
    }
    let universe = UNIVERSE.get_or_init(|| {
        let mut provided = 0;
        // SAFETY: as above; MPI is initialized.
        unsafe { (real.query_thread)(&mut provided) };
        // MPI_THREAD_SINGLE and _FUNNELED: one thread calls MPI, the one making the first
        // attribute call; _SERIALIZED and _MULTIPLE: any thread (the engine locks).
        let level = if provided <= 1 {
            ThreadLevel::Single
        } else {
            ThreadLevel::Multiple
        };
        Universe::for_layer(level, KEYVAL_BOUND)
    });
    if !FINALIZED.load(Ordering::Acquire) {
        READY.store(std::ptr::from_ref(universe).cast_mut(), Ordering::Release);
    }
    Ok(universe)
}

static UNIVERSE: OnceLock<Universe> = OnceLock::new();
/// The real `MPI_Finalize` has been called (through the layer's).
static FINALIZED: AtomicBool = AtomicBool::new(false);
/// [`UNIVERSE`] once made, while the real MPI is initialized and not finalized through the
/// layer: the one load the fast paths make to know that they may go on.
static READY: AtomicPtr<Universe> = AtomicPtr::new(std::ptr::null_mut());

/// The universe if it is made and the real MPI not finalized: nothing to ask.
#[inline(always)]
fn ready() -> Option<&'static Universe> {
    // SAFETY: null, or the address of UNIVERSE's value, which lives as long as the program.
    unsafe { READY.load(Ordering::Acquire).as_ref() }
}

/// Notes that the real MPI is finalized.
fn finalized() {
    FINALIZED.store(true, Ordering::Release);
    READY.store(std::ptr::null_mut(), Ordering::Release);
}

/// The layer's universe if an attribute call made it.
fn made() -> Option<&'static Universe> {
    UNIVERSE.get()
}

/// What an error is reported on: the object whose error handler the standard names.
#[derive(Clone, Copy)]
pub(crate) enum On {
    Comm(MPI_Comm),
    Win(MPI_Win),
    /// Errors on no object, on a datatype or on an invalid handle: `MPI_COMM_SELF`'s handler
    /// (MPI-4.1 §9.3).
    NoObject,
}

/// The real MPI's code for an engine error: a callback's own code as it returned it, else
/// the real MPI's number for the class.
fn real_code(error: &Error) -> c_int {
    if let Error::Callback { code, .. } = error {
        return if valid_code(*code) {
            *code
        } else {
            values().err_other
        };
    }
    let v = values();
    match error.class() {
        ErrorClass::Arg => v.err_arg,
        ErrorClass::Comm => v.err_comm,
        ErrorClass::Type => v.err_type,
        ErrorClass::Win => v.err_win,
        ErrorClass::Keyval => v.err_keyval,
        ErrorClass::NoMem => v.err_no_mem,
        ErrorClass::Intern => v.err_intern,
        _ => v.err_other,
    }
}

/// Whether a callback's code is one the real MPI can interpret, to be returned as it is (the
/// single-process library returns `MPI_ERR_OTHER` for any other, semantics.md "Errors").
/// Open MPI (whose `MPI_ERR_LASTCODE` is small) checks its argument in `MPI_Error_class`:
/// its predefined classes and codes up to `MPI_ERR_LASTCODE`, and any code that function
/// accepts. MPICH reads a class from the low bits of any number: its classes (below 128), and
/// codes made by `MPI_Add_error_class` and `_code`, which set bit 30 and some of the bits
/// below it (its first is 0x40000001; 0x40000000, its `MPI_ERR_LASTCODE + 1`, is none, though
/// its `MPI_Error_class` takes it for one). Nothing else can be told valid there.
fn valid_code(code: c_int) -> bool {
    let checks = values().err_lastcode < 4096;
    if code <= 0 {
        return false;
    }
    if (checks && code <= values().err_lastcode) || (!checks && code < 128) {
        return true;
    }
    let mut class = -1;
    // SAFETY: the real MPI's always-valid query with an out-pointer to a local.
    let accepted = unsafe { (functions().error_class)(code, &mut class) } == values().success;
    accepted && class > 0 && (checks || (code & 0x4000_0000 != 0 && code & 0x3fff_ffff != 0))
}

/// Reports `error` of the call `name` (`arguments` describes its arguments, only when needed) as the real MPI would:
/// the object's error handler runs with the real MPI's code (under `MPI_ERRORS_ARE_FATAL` or
/// `MPI_ERRORS_ABORT` after one line on stderr naming the call), and the code comes back.
fn report(name: &str, arguments: &dyn Fn() -> String, on: On, error: &Error) -> c_int {
    let code = real_code(error);
    let real = functions();
    let comm = match on {
        On::Comm(comm) => comm,
        On::NoObject | On::Win(_) => Handle::from_key(real::key_of(values().comm_self)),
    };
    let mut handler = Handle::from_key(0);
    // SAFETY: the real MPI's functions on a live object with valid out-pointers.
    let fatal = unsafe {
        let found = match on {
            On::Win(win) => (real.win_get_errhandler)(win, &mut handler),
            _ => (real.comm_get_errhandler)(comm, &mut handler),
        };
        let key = Handle::key(handler);
        let fatal = found == values().success
            && (key == real::key_of(values().errors_are_fatal)
                || (!values().errors_abort.is_null()
                    && key == real::key_of(values().errors_abort)));
        if found == values().success {
            (real.errhandler_free)(&mut handler);
        }
        fatal
    };
    if fatal {
        eprintln!("{name}({}): {error}", arguments());
    }
    // SAFETY: as above.
    unsafe {
        match on {
            On::Win(win) => (real.win_call_errhandler)(win, code),
            _ => (real.comm_call_errhandler)(comm, code),
        };
    }
    code
}
