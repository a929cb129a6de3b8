//! The C API: every function of SPEC §1 as `MPI_*` and `PMPI_*`.
//!
//! A thin shell. Each entry point is described once, in a `mpi_functions!` block: the macro
//! emits `PMPI_X` (which checks arguments, calls the engine and maps errors) and `MPI_X`
//! (which forwards to `PMPI_X`, so a profiling library can interpose `MPI_X`). Every body runs
//! inside [`call`], the one panic boundary: a panic becomes `MPI_ERR_INTERN` and never
//! unwinds into C. Errors go to the error handler of the object concerned.

use std::ffi::c_int;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::abi::{self, MPI_Comm, MPI_Win};
use crate::engine::{Comm, Error, ErrorClass, ErrorHandler, Result, ThreadLevel, Universe};

pub(crate) mod args;
mod attr;
mod comm;
mod datatype;
mod env;
mod errors;
pub(crate) mod handles;
mod win;

pub(crate) use args::{Arg, Out};

/// Where the library is in its life: before MPI_Init, between Init and Finalize, after.
const BEFORE_INIT: u8 = 0;
const INITIALIZED: u8 = 1;
const FINALIZED: u8 = 2;

static PHASE: AtomicU8 = AtomicU8::new(BEFORE_INIT);
static UNIVERSE: OnceLock<Universe> = OnceLock::new();
static INIT_LOCK: Mutex<()> = Mutex::new(());

/// The error handlers of MPI_COMM_WORLD and MPI_COMM_SELF while there is no universe (before
/// MPI_Init and after MPI_Finalize): the "initial error handler" of MPI-4.1 §9.3.
static OUTSIDE_HANDLERS: [AtomicU8; 2] = [
    AtomicU8::new(ErrorHandler::Fatal as u8),
    AtomicU8::new(ErrorHandler::Fatal as u8),
];

fn handler_from_u8(value: u8) -> ErrorHandler {
    match value {
        v if v == ErrorHandler::Return as u8 => ErrorHandler::Return,
        v if v == ErrorHandler::Abort as u8 => ErrorHandler::Abort,
        _ => ErrorHandler::Fatal,
    }
}

/// The universe, if MPI is initialized and not finalized.
pub(crate) fn universe() -> Result<&'static Universe> {
    match PHASE.load(Ordering::Acquire) {
        INITIALIZED => UNIVERSE
            .get()
            .ok_or(Error::Internal("initialized without a universe")),
        BEFORE_INIT => Err(Error::NotInitialized),
        _ => Err(Error::Finalized),
    }
}

/// The slot of a predefined communicator's outside-of-init error handler.
fn outside_slot(comm: Comm) -> Option<&'static AtomicU8> {
    if comm == Comm::WORLD {
        Some(&OUTSIDE_HANDLERS[0])
    } else if comm == Comm::SELF {
        Some(&OUTSIDE_HANDLERS[1])
    } else {
        None
    }
}

/// What an error is raised on (MPI-4.1 §9.3; docs/semantics.md).
pub(crate) enum Target {
    /// A communicator argument: its handler, or MPI_COMM_SELF's if the handle is invalid.
    Comm(MPI_Comm),
    /// A window argument: its handler, or MPI_COMM_SELF's if the handle is invalid.
    Win(MPI_Win),
    /// No object: MPI_COMM_SELF's handler.
    SelfComm,
}

fn handler_for(target: Target) -> ErrorHandler {
    let Ok(universe) = universe() else {
        return handler_from_u8(OUTSIDE_HANDLERS[1].load(Ordering::Relaxed));
    };
    let own = match target {
        Target::Comm(comm) => handles::comm(comm)
            .ok()
            .and_then(|c| universe.errhandler(c).ok()),
        Target::Win(win) => handles::win(win)
            .ok()
            .and_then(|w| universe.errhandler(w).ok()),
        Target::SelfComm => None,
    };
    own.or_else(|| universe.errhandler(Comm::SELF).ok())
        .unwrap_or(ErrorHandler::Fatal)
}

/// Reports `error` from function `name` through the handler of `target`: returns the code
/// under MPI_ERRORS_RETURN, prints one line and exits otherwise.
#[cold]
fn raise(name: &str, target: Target, describe: impl FnOnce(&mut String), error: Error) -> c_int {
    let code = error.return_code();
    match handler_for(target) {
        ErrorHandler::Return => code,
        handler @ (ErrorHandler::Fatal | ErrorHandler::Abort) => {
            let mut line = format!("mpiattr: {name}(");
            describe(&mut line);
            let class = error.class();
            let _ = write!(line, ") failed: {}: {error}", class.name());
            if handler == ErrorHandler::Abort {
                line.push_str(" (MPI_ERRORS_ABORT)");
            }
            eprintln!("{line}");
            std::process::exit(class as i32)
        }
    }
}

/// The panic boundary and error path of every entry point that returns an error code.
#[inline(always)]
pub(crate) fn call(
    name: &str,
    target: impl FnOnce() -> Target,
    describe: impl FnOnce(&mut String),
    body: impl FnOnce() -> Result<()>,
) -> c_int {
    let outcome = catch_unwind(AssertUnwindSafe(body))
        .unwrap_or(Err(Error::Internal("a panic was caught at the C boundary")));
    match outcome {
        Ok(()) => abi::MPI_SUCCESS as c_int,
        Err(error) => raise(name, target(), describe, error),
    }
}

/// The panic boundary of entry points that cannot report errors (c2f, f2c, Wtime).
#[inline(always)]
pub(crate) fn call_infallible<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Starts the library: MPI_Init and MPI_Init_thread.
fn initialize(level: ThreadLevel) -> Result<()> {
    let _serialised = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    match PHASE.load(Ordering::Acquire) {
        BEFORE_INIT => {}
        INITIALIZED => return Err(Error::AlreadyInitialized),
        _ => return Err(Error::Finalized),
    }
    let universe = UNIVERSE.get_or_init(|| Universe::new(level));
    for comm in [Comm::WORLD, Comm::SELF] {
        let slot = outside_slot(comm).expect("a predefined communicator");
        universe.set_errhandler(comm, handler_from_u8(slot.load(Ordering::Relaxed)))?;
    }
    PHASE.store(INITIALIZED, Ordering::Release);
    Ok(())
}

/// Ends the library: MPI_Finalize. The teardown runs while MPI_Finalized is still false.
fn finalize() -> Result<()> {
    let universe = universe()?;
    for comm in [Comm::WORLD, Comm::SELF] {
        let slot = outside_slot(comm).expect("a predefined communicator");
        slot.store(universe.errhandler(comm)? as u8, Ordering::Relaxed);
    }
    let teardown = universe.finalize();
    PHASE.store(FINALIZED, Ordering::Release);
    teardown
}

/// Describes a group of C entry points, each once: `fn MPI_X / PMPI_X (args) on TARGET { body }`.
/// The body returns `Result<()>`; the target names the object whose error handler reports
/// a failure.
macro_rules! mpi_functions {
    ($(
        $(#[doc = $doc:literal])*
        fn $mpi:ident / $pmpi:ident ($($arg:ident: $ty:ty),* $(,)?) on $target:expr => $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Every pointer argument is NULL or valid for the accesses the MPI standard describes.
        #[no_mangle]
        pub unsafe extern "C" fn $pmpi($($arg: $ty),*) -> std::ffi::c_int {
            $crate::capi::call(
                stringify!($mpi),
                || $target,
                |line: &mut String| {
                    let args: &[(&str, &dyn $crate::capi::Arg)] = &[$((stringify!($arg), &$arg)),*];
                    $crate::capi::args::describe_all(line, args);
                },
                || -> $crate::engine::Result<()> { $body },
            )
        }

        $(#[doc = $doc])*
        ///
        /// # Safety
        /// As for the `PMPI_` entry point it forwards to.
        #[no_mangle]
        pub unsafe extern "C" fn $mpi($($arg: $ty),*) -> std::ffi::c_int {
            // SAFETY: the same contract as the PMPI_ function, which the caller upholds.
            unsafe { $pmpi($($arg),*) }
        }
    )*};
}
pub(crate) use mpi_functions;

/// Like `mpi_functions!`, for entry points that return a value and cannot report errors.
macro_rules! mpi_infallible {
    ($(
        $(#[doc = $doc:literal])*
        fn $mpi:ident / $pmpi:ident ($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty, or $fallback:expr => $body:block
    )*) => {$(
        $(#[doc = $doc])*
        #[no_mangle]
        pub extern "C" fn $pmpi($($arg: $ty),*) -> $ret {
            $crate::capi::call_infallible($fallback, || $body)
        }

        $(#[doc = $doc])*
        #[no_mangle]
        pub extern "C" fn $mpi($($arg: $ty),*) -> $ret {
            $pmpi($($arg),*)
        }
    )*};
}
pub(crate) use mpi_infallible;

/// The class of an error code, for the error functions.
pub(crate) fn class_of(code: c_int) -> Result<ErrorClass> {
    ErrorClass::from_code(code).ok_or(Error::InvalidErrorCode)
}
