//! What the C and the Fortran shells share: the library's life cycle (MPI_Init to
//! MPI_Finalize), the one panic boundary and error path of every entry point, handle
//! numbering, argument helpers, and the few rules of the MPI interface that are not the
//! engine's (error handler values, error strings, thread levels, names).
//!
//! Nothing here is exported: `capi` and `fortran` hold every `extern "C"` symbol.

use std::ffi::c_int;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::abi::{self, MPI_Comm, MPI_Win};
use crate::engine::{
    Comm, ErrhandlerObject, Error, ErrorClass, ErrorHandler, Id, ProcessFence, Result, ThreadLevel,
    Universe,
};

pub(crate) mod args;
pub(crate) mod handles;
pub(crate) mod unwind;

pub(crate) use args::{Arg, Out};

/// Where the world model is in its life: before MPI_Init, between Init and Finalize, after.
/// The universe itself is made by the first call that needs it (MPI_Init, MPI_Session_init
/// or a function MPI-4.1 §12.4.1 allows at any time) and lives as long as the process.
pub(crate) const BEFORE_INIT: u8 = 0;
const INITIALIZED: u8 = 1;
pub(crate) const FINALIZED: u8 = 2;

pub(crate) static PHASE: AtomicU8 = AtomicU8::new(BEFORE_INIT);
static UNIVERSE: OnceLock<Universe> = OnceLock::new();
static INIT_LOCK: Mutex<()> = Mutex::new(());

/// How many sessions are alive (changed under INIT_LOCK).
static SESSIONS: AtomicUsize = AtomicUsize::new(0);

/// The error handlers of MPI_COMM_WORLD and MPI_COMM_SELF, readable by any thread at any time
/// without the engine's lock: before MPI_Init and after MPI_Finalize they are the "initial
/// error handler" of MPI-4.1 §9.3; in between they mirror the engine's (every change goes to
/// both), so that the error path of a call the lock refused (a thread other than the
/// initializing one under MPI_THREAD_SINGLE) still finds a handler.
/// Each holds [`handler_word`]'s encoding, wide enough for a user handler's table id.
static PREDEFINED_HANDLERS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// A handler as one word: 0 fatal, 1 abort, 2 return, a user handler `3 | index << 2 |
/// generation << 34` (generations stay below 2^28).
fn handler_word(handler: ErrorHandler) -> u64 {
    match handler {
        ErrorHandler::Fatal => 0,
        ErrorHandler::Abort => 1,
        ErrorHandler::Return => 2,
        ErrorHandler::User(id) => 3 | u64::from(id.index()) << 2 | u64::from(id.generation()) << 34,
    }
}

/// The inverse of [`handler_word`].
fn handler_from_word(word: u64) -> ErrorHandler {
    match word & 3 {
        1 => ErrorHandler::Abort,
        2 => ErrorHandler::Return,
        3 => ErrorHandler::User(Id::from_parts((word >> 2) as u32, (word >> 34) as u32)),
        _ => ErrorHandler::Fatal,
    }
}

/// The universe while the world model is initialized and not finalized or a session is
/// alive, else null: what every call reads first, in one load (changed under INIT_LOCK).
/// MPI_COMM_WORLD and MPI_COMM_SELF are in the universe only while the world model is
/// initialized (src/engine: `Universe::new_without_world`), so calls on them fail by
/// themselves otherwise, and [`raise`] reports those failures as the world model's.
static CURRENT: AtomicPtr<Universe> = AtomicPtr::new(std::ptr::null_mut());

/// The universe, if the world model is initialized and not finalized or a session is alive.
#[inline]
pub(crate) fn universe() -> Result<&'static Universe> {
    current().ok_or_else(outside_error)
}

/// The universe for the functions MPI-4.1 §12.4.1 and its table allows at any time and for
/// MPI_Session_init: made now if no call has needed it yet (with MPI_THREAD_MULTIPLE:
/// those functions may be called by any thread; MPI_Init then finds it made, and provides
/// that level).
pub(crate) fn anytime() -> Result<&'static Universe> {
    Ok(UNIVERSE.get_or_init(|| made(ThreadLevel::Multiple)))
}

/// The library's universe, made at its first use: without the world model, and with the
/// process fence where the kernel has one.
fn made(level: ThreadLevel) -> Universe {
    let universe = Universe::new_without_world(level);
    if level != ThreadLevel::Multiple {
        return universe;
    }
    match membarrier_fence() {
        Some(fence) => universe.with_process_fence(fence),
        None => universe,
    }
}

/// Linux's membarrier as the engine's process fence, once the process is registered for it;
/// `None` if the kernel has none.
pub(crate) fn membarrier_fence() -> Option<ProcessFence> {
    membarrier_registered().then_some(membarrier as ProcessFence)
}

/// Linux's membarrier commands (linux/membarrier.h).
const MEMBARRIER_CMD_PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
const MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;

/// Registers the process for expedited private membarriers: whether the kernel has them.
fn membarrier_registered() -> bool {
    // SAFETY: membarrier takes two integer arguments and touches no memory of ours; a kernel
    // without it answers ENOSYS or EINVAL.
    unsafe {
        libc::syscall(
            libc::SYS_membarrier,
            MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
            0 as libc::c_long,
        ) == 0
    }
}

/// The engine's process fence (src/engine/lock.rs): every running thread of the process
/// executes a full memory barrier before this returns.
fn membarrier() {
    // SAFETY: as in membarrier_registered; registered before the universe was given it.
    let done = unsafe {
        libc::syscall(
            libc::SYS_membarrier,
            MEMBARRIER_CMD_PRIVATE_EXPEDITED,
            0 as libc::c_long,
        )
    };
    // Registered commands do not fail; if one did, no barrier was made, and going on could
    // let a writer change what a reader reads.
    if done != 0 {
        eprintln!("mpiattr: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed: aborting");
        std::process::abort();
    }
}

/// The universe if a call has made it, without making it: for look-ups (user error codes,
/// handles), which find nothing before it exists.
pub(crate) fn existing() -> Result<&'static Universe> {
    UNIVERSE.get().ok_or(Error::NotInitialized)
}

/// Whether the world model is initialized and not finalized.
#[inline]
pub(crate) fn world_open() -> bool {
    PHASE.load(Ordering::Acquire) == INITIALIZED
}

/// Sets CURRENT from PHASE and SESSIONS; under INIT_LOCK.
fn update_current(universe: &'static Universe) {
    let open = world_open() || SESSIONS.load(Ordering::Relaxed) > 0;
    let pointer = if open {
        std::ptr::from_ref(universe).cast_mut()
    } else {
        std::ptr::null_mut()
    };
    CURRENT.store(pointer, Ordering::Release);
}

/// The universe, if it is open (the fast paths' test: no error is made when it is not).
#[inline(always)]
pub(crate) fn current() -> Option<&'static Universe> {
    let current = CURRENT.load(Ordering::Acquire);
    // SAFETY: a non-null CURRENT points at the value of the static UNIVERSE, which is never
    // dropped or moved.
    (!current.is_null()).then(|| unsafe { &*current })
}

#[cold]
fn outside_error() -> Error {
    match PHASE.load(Ordering::Acquire) {
        BEFORE_INIT => Error::NotInitialized,
        INITIALIZED => Error::Internal("initialized without a universe"),
        _ => Error::Finalized,
    }
}

/// Whether MPI_Init has been called (true after MPI_Finalize too).
pub(crate) fn initialized() -> bool {
    PHASE.load(Ordering::Acquire) != BEFORE_INIT
}

/// Whether MPI_Finalize has completed.
pub(crate) fn finalized() -> bool {
    PHASE.load(Ordering::Acquire) == FINALIZED
}

/// The lock-free copy of a predefined communicator's error handler.
fn predefined_slot(comm: Comm) -> Option<&'static AtomicU64> {
    if comm == Comm::WORLD {
        Some(&PREDEFINED_HANDLERS[0])
    } else if comm == Comm::SELF {
        Some(&PREDEFINED_HANDLERS[1])
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
    /// A session argument: its handler, or MPI_COMM_SELF's if the handle is invalid.
    Session(abi::MPI_Session),
    /// No object: MPI_COMM_SELF's handler.
    SelfComm,
}

/// The handler an error is raised on: the object's, from the engine; when that fails (an
/// invalid handle, no universe, or a lock that refuses this thread) a predefined
/// communicator's from its lock-free copy, and any other object's is MPI_COMM_SELF's: the
/// error path never depends on the lock that may have refused the call. (The engine comes
/// first for the predefined communicators too: Rust code may have set their handlers on
/// [`crate::mpi_universe`], which leaves the copies as they were.)
fn handler_for(target: Target) -> (ErrorHandler, ErrhandlerObject) {
    let predefined = |comm: Comm| {
        predefined_slot(comm).map(|slot| handler_from_word(slot.load(Ordering::Relaxed)))
    };
    let own = match target {
        Target::Comm(comm) => handles::comm(comm).ok().and_then(|comm| {
            let engine = universe().ok().and_then(|u| u.errhandler(comm).ok());
            engine
                .or_else(|| predefined(comm))
                .map(|h| (h, ErrhandlerObject::Comm(comm)))
        }),
        Target::Win(win) => handles::win(win).ok().and_then(|win| {
            let handler = universe().ok()?.errhandler(win).ok()?;
            Some((handler, ErrhandlerObject::Win(win)))
        }),
        Target::Session(session) => handles::session(session).ok().and_then(|session| {
            let handler = universe().ok()?.session_errhandler(session).ok()?;
            Some((handler, ErrhandlerObject::Session(session)))
        }),
        Target::SelfComm => None,
    };
    own.or_else(|| predefined(Comm::SELF).map(|h| (h, ErrhandlerObject::Comm(Comm::SELF))))
        .unwrap_or((ErrorHandler::Fatal, ErrhandlerObject::Comm(Comm::SELF)))
}

/// Runs a user handler's function on `object` and `code`, with no lock held and inside a
/// panic boundary of its own (a Rust handler's panic stops there). A C handler that leaves by
/// `longjmp` skips the rest of the call that raised the error: by then the body has finished
/// and nothing is held or half-done (the same rule as for attribute callbacks,
/// src/ffi/unwind.rs). `false` when the handler cannot be found (the lock refuses this
/// thread): the caller then treats the error as fatal.
fn run_user_handler(handler: ErrorHandler, object: ErrhandlerObject, code: c_int) -> bool {
    // The universe outlives MPI_Finalize with its handler records: a user handler set on
    // MPI_COMM_SELF or MPI_COMM_WORLD still runs for errors after it.
    let function = UNIVERSE
        .get()
        .and_then(|u| u.errhandler_function(handler).ok().flatten());
    let Some(function) = function else {
        return false;
    };
    // The handler's own reference lives in this thread's list of running handlers, not on
    // this frame: a handler that leaves by `longjmp` skips the drop below, and a reference
    // left on a skipped frame would keep the handler's memory forever with nothing pointing
    // at it. Left in the list, it stays reachable and goes with the thread.
    let pointer = std::sync::Arc::as_ptr(&function);
    RUNNING_HANDLERS.with(|running| running.borrow_mut().push(function));
    let mut code = code;
    // SAFETY: the Arc just moved into this thread's list keeps the function alive until the
    // pop below, which only this thread does, after the call.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        unsafe { &*pointer }.call(object, &mut code)
    }));
    RUNNING_HANDLERS.with(|running| running.borrow_mut().pop());
    true
}

thread_local! {
    /// The user error handlers running on this thread, innermost last ([`run_user_handler`]).
    static RUNNING_HANDLERS: std::cell::RefCell<Vec<std::sync::Arc<dyn crate::engine::ErrhandlerFunction>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Reports `error` from function `name` through the handler of `target`: returns the code
/// under MPI_ERRORS_RETURN, prints one line and exits otherwise.
#[cold]
fn raise(name: &str, target: Target, describe: impl FnOnce(&mut String), error: Error) -> c_int {
    // MPI_COMM_WORLD or MPI_COMM_SELF while the world model is not initialized (while a
    // session keeps the universe open): refused as outside MPI_Init .. MPI_Finalize.
    let error = match &target {
        Target::Comm(comm)
            if !world_open()
                && error.class() == ErrorClass::Comm
                && handles::comm(*comm).is_ok_and(|c| c == Comm::WORLD || c == Comm::SELF) =>
        {
            outside_error()
        }
        _ => error,
    };
    let code = error.return_code();
    let (handler, object) = handler_for(target);
    let handler = match handler {
        ErrorHandler::User(_) if run_user_handler(handler, object, code) => return code,
        ErrorHandler::User(_) => ErrorHandler::Fatal,
        other => other,
    };
    match handler {
        ErrorHandler::Return => code,
        handler => {
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
    name: &'static str,
    target: impl FnOnce() -> Target,
    describe: impl FnOnce(&mut String),
    body: impl FnOnce() -> Result<()>,
) -> c_int {
    // Where the call enters, for telling a callback left by longjmp from one still running.
    let anchor = 0u8;
    // Only once a keyval with a callback exists can a call run user code (a thread-local
    // costs a few nanoseconds).
    let previous = current()
        .filter(|universe| universe.has_callbacks())
        .map(|_| crate::engine::note_call_entry(std::hint::black_box(&anchor), name));
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or(Err(Error::Internal(
        "a panic was caught at the library boundary",
    )));
    if let Some(previous) = previous {
        crate::engine::note_call_return(previous);
    }
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

/// Starts the library: MPI_Init (`Single`) and MPI_Init_thread (`Multiple`, after checking
/// that `required` is a thread level).
pub(crate) fn initialize(level: ThreadLevel, required: Option<c_int>) -> Result<()> {
    if let Some(required) = required {
        let levels = [
            abi::MPI_THREAD_SINGLE,
            abi::MPI_THREAD_FUNNELED,
            abi::MPI_THREAD_SERIALIZED,
            abi::MPI_THREAD_MULTIPLE,
        ];
        if !levels.iter().any(|level| *level as c_int == required) {
            return Err(Error::InvalidArgument(
                "required is not a thread support level",
            ));
        }
    }
    let _serialised = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    match PHASE.load(Ordering::Acquire) {
        BEFORE_INIT => {}
        INITIALIZED => return Err(Error::AlreadyInitialized),
        _ => return Err(Error::Finalized),
    }
    // Made already if a session or a function callable at any time came first.
    let universe = UNIVERSE.get_or_init(|| made(level));
    universe.open_world()?;
    for comm in [Comm::WORLD, Comm::SELF] {
        let slot = predefined_slot(comm).expect("a predefined communicator");
        universe.set_errhandler(comm, handler_from_word(slot.load(Ordering::Relaxed)))?;
    }
    PHASE.store(INITIALIZED, Ordering::Release);
    update_current(universe);
    Ok(())
}

/// MPI_Session_init: at any time, MPI_Init or not (MPI-4.1 §12.3); the universe stays open
/// while the session lives.
pub(crate) fn session_init(
    info: Option<crate::engine::Info>,
    handler: ErrorHandler,
) -> Result<crate::engine::Session> {
    let universe = anytime()?;
    let _serialised = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let session = universe.session_init(info, handler)?;
    SESSIONS.fetch_add(1, Ordering::Relaxed);
    update_current(universe);
    Ok(session)
}

/// MPI_Session_finalize: the universe closes with the last session if the world model is
/// not initialized.
pub(crate) fn session_finalize(session: crate::engine::Session) -> Result<()> {
    let universe = universe()?;
    let _serialised = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    universe.session_finalize(session)?;
    SESSIONS.fetch_sub(1, Ordering::Relaxed);
    update_current(universe);
    Ok(())
}

/// MPI_Info_create_env, which the standard allows at any time (MPI-4.1 §12.4.1): a new
/// info object with MPI_INFO_ENV's pairs.
pub(crate) fn info_create_env() -> Result<crate::engine::Info> {
    anytime()?.info_create_env()
}

/// Ends the world model: MPI_Finalize (sessions alive go on, MPI-4.1 §12.2). The teardown
/// runs while MPI_Finalized is still false.
pub(crate) fn finalize() -> Result<()> {
    if !world_open() {
        return Err(outside_error());
    }
    let universe = universe()?;
    let teardown = catch_unwind(AssertUnwindSafe(|| universe.finalize()));
    {
        let _serialised = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        PHASE.store(FINALIZED, Ordering::Release);
        update_current(universe);
    }
    // A Rust delete callback's panic: finalized all the same, then to the panic boundary.
    teardown.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The value MPI_Query_thread and MPI_Init_thread report for a level.
pub(crate) fn thread_level_value(level: ThreadLevel) -> c_int {
    (match level {
        ThreadLevel::Single => abi::MPI_THREAD_SINGLE,
        ThreadLevel::Multiple => abi::MPI_THREAD_MULTIPLE,
    }) as c_int
}

/// The text of MPI_Get_library_version.
pub(crate) const LIBRARY_VERSION: &str = concat!(
    "mpiattr ",
    env!("CARGO_PKG_VERSION"),
    ": MPI attribute caching for single-process programs (MPI-5.0 standard ABI)"
);

/// MPI_Abort: one line naming the communicator, then exit with status `errorcode & 255`.
pub(crate) fn abort(function: &str, comm: &str, errorcode: i64) -> ! {
    let status = (errorcode & 255) as i32;
    eprintln!(
        "mpiattr: {function}(comm={comm}, errorcode={errorcode}) called: exiting with status {status}"
    );
    std::process::exit(status)
}

/// The class of an error code, for the error functions.
pub(crate) fn class_of(code: c_int) -> Result<ErrorClass> {
    ErrorClass::from_code(code).ok_or(Error::InvalidErrorCode)
}

/// The text of MPI_Error_string: "MPI_ERR_KEYVAL: invalid attribute keyval".
pub(crate) fn error_string(code: c_int) -> Result<String> {
    let class = class_of(code)?;
    Ok(format!("{}: {}", class.name(), class.description()))
}

/// The engine's handler for an error handler handle value: a predefined one's ABI value, or
/// a user handler's C handle (tag 8 in src/ffi/handles.rs's encoding; whether it is live is
/// the engine's to check).
pub(crate) fn errhandler_from_value(value: usize) -> Result<ErrorHandler> {
    match value {
        v if v == abi::MPIATTR_HANDLE_MPI_ERRORS_ARE_FATAL as usize => Ok(ErrorHandler::Fatal),
        v if v == abi::MPIATTR_HANDLE_MPI_ERRORS_ABORT as usize => Ok(ErrorHandler::Abort),
        v if v == abi::MPIATTR_HANDLE_MPI_ERRORS_RETURN as usize => Ok(ErrorHandler::Return),
        v => handles::errhandler_id(v)
            .map(ErrorHandler::User)
            .ok_or(Error::InvalidErrhandler),
    }
}

/// The C handle value of an error handler (a predefined one's is the same in Fortran).
pub(crate) fn errhandler_value(handler: ErrorHandler) -> usize {
    (match handler {
        ErrorHandler::Fatal => abi::MPIATTR_HANDLE_MPI_ERRORS_ARE_FATAL,
        ErrorHandler::Abort => abi::MPIATTR_HANDLE_MPI_ERRORS_ABORT,
        ErrorHandler::Return => abi::MPIATTR_HANDLE_MPI_ERRORS_RETURN,
        ErrorHandler::User(id) => return handles::errhandler_handle(id),
    }) as usize
}

/// MPI_Errhandler_free: releases the handle; the caller then sets it to
/// MPI_ERRHANDLER_NULL. A predefined handler needs nothing, so freeing one works at any
/// time, like MPI_Comm_get_errhandler on the predefined communicators, which returns the
/// handles it releases; a user handler's handle is released in the engine (MPI-4.1 §9.3.4:
/// objects that use it keep it).
pub(crate) fn errhandler_free(value: usize) -> Result<()> {
    match errhandler_from_value(value)? {
        handler @ ErrorHandler::User(_) => anytime()?.errhandler_free(handler),
        _ => Ok(()),
    }
}

/// MPI_FILE_NULL's error handler (MPI-4.1 §14.7: MPI_ERRORS_RETURN until set), as a
/// [`handler_word`]. Files are not implemented: nothing raises errors on it, only
/// MPI_File_call_errhandler runs it.
static FILE_NULL_HANDLER: AtomicU64 = AtomicU64::new(2);

/// The file a handle names: only MPI_FILE_NULL exists.
fn file_null(file: abi::MPI_File) -> Result<()> {
    if file as usize == abi::MPIATTR_HANDLE_MPI_FILE_NULL as usize {
        Ok(())
    } else {
        Err(Error::InvalidFile)
    }
}

/// MPI_File_set_errhandler: on MPI_FILE_NULL, a predefined handler or a file handler.
pub(crate) fn file_set_errhandler(file: abi::MPI_File, value: usize) -> Result<()> {
    file_null(file)?;
    let handler = errhandler_from_value(value)?;
    universe()?.errhandler_check(handler, crate::engine::ErrhandlerKind::File)?;
    FILE_NULL_HANDLER.store(handler_word(handler), Ordering::Relaxed);
    Ok(())
}

/// MPI_FILE_NULL's handler (MPI_File_get_errhandler and _call_errhandler).
pub(crate) fn file_errhandler(file: abi::MPI_File) -> Result<ErrorHandler> {
    file_null(file)?;
    universe()?;
    Ok(handler_from_word(FILE_NULL_HANDLER.load(Ordering::Relaxed)))
}

/// What MPI_*_get_errhandler returns: the handler's handle, a new one for a user handler
/// (MPI_Errhandler_free releases it).
pub(crate) fn errhandler_get(handler: ErrorHandler) -> Result<usize> {
    if let ErrorHandler::User(_) = handler {
        universe()?.errhandler_acquire(handler)?;
    }
    Ok(errhandler_value(handler))
}

/// MPI_*_call_errhandler with a predefined handler: MPI_ERRORS_RETURN returns (the call then
/// returns MPI_SUCCESS); the others print one line naming the call and the code's text, and
/// end the process with the code's class as status.
pub(crate) fn call_handler(
    function: &str,
    object: &str,
    target: ErrhandlerObject,
    handler: ErrorHandler,
    errorcode: c_int,
) -> Result<()> {
    if handler == ErrorHandler::Return {
        return Ok(());
    }
    if let ErrorHandler::User(_) = handler {
        if run_user_handler(handler, target, errorcode) {
            return Ok(());
        }
        return Err(Error::InvalidErrhandler);
    }
    let universe = anytime()?;
    let text = universe
        .error_string(errorcode)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_else(|_| "not an error code or class".to_string());
    let class = universe
        .error_class(errorcode)
        .unwrap_or(ErrorClass::Other as i32);
    let name = if handler == ErrorHandler::Abort {
        "MPI_ERRORS_ABORT"
    } else {
        "MPI_ERRORS_ARE_FATAL"
    };
    eprintln!("mpiattr: {function}({object}, errorcode={errorcode}) called {name}: {text}");
    std::process::exit(class & 255)
}

/// Sets a communicator's handler; the predefined communicators' handlers can be set before
/// MPI_Init and after MPI_Finalize too (docs/semantics.md).
#[inline]
pub(crate) fn set_comm_errhandler(comm: Result<Comm>, handler_value: usize) -> Result<()> {
    let comm = comm?;
    let new = errhandler_from_value(handler_value)?;
    match (universe_unless_closed(comm), predefined_slot(comm)) {
        (Ok(universe), slot) => {
            universe.set_errhandler(comm, new)?;
            if let Some(slot) = slot {
                store_predefined_handler(slot, new);
            }
            Ok(())
        }
        (Err(_), Some(slot)) => {
            store_predefined_handler(slot, new);
            Ok(())
        }
        (Err(error), None) => Err(error),
    }
}

/// The universe for a call on `comm`, but an error for MPI_COMM_WORLD and MPI_COMM_SELF
/// while the world model is not initialized (a session may keep the universe open).
fn universe_unless_closed(comm: Comm) -> Result<&'static Universe> {
    if (comm == Comm::WORLD || comm == Comm::SELF) && !world_open() {
        return Err(outside_error());
    }
    universe()
}

/// Changes a lock-free copy of a predefined communicator's handler. Any thread's error path
/// may read it meanwhile: under valgrind, helgrind and drd are first told not to check it (they
/// cannot see that it is atomic, and would report the reads as races with this store). Setting
/// the handler it already holds stores nothing and asks valgrind nothing.
#[inline(always)]
fn store_predefined_handler(slot: &AtomicU64, handler: ErrorHandler) {
    let word = handler_word(handler);
    if slot.load(Ordering::Relaxed) != word {
        crate::engine::valgrind::ignore_races_on(slot);
        slot.store(word, Ordering::Relaxed);
    }
}

/// A communicator's handler, also before MPI_Init and after MPI_Finalize for the predefined
/// communicators.
pub(crate) fn comm_errhandler(comm: Result<Comm>) -> Result<ErrorHandler> {
    let comm = comm?;
    match (universe_unless_closed(comm), predefined_slot(comm)) {
        (Ok(universe), _) => universe.errhandler(comm),
        (Err(_), Some(slot)) => Ok(handler_from_word(slot.load(Ordering::Relaxed))),
        (Err(error), None) => Err(error),
    }
}

/// The live communicator a handle names (rank, size and compare need it alive).
pub(crate) fn live_comm(comm: Result<Comm>) -> Result<Comm> {
    let comm = comm?;
    universe()?.check(comm)?;
    Ok(comm)
}

/// MPI_Comm_compare of two communicators: every communicator holds the one process.
pub(crate) fn comm_compare(first: Result<Comm>, second: Result<Comm>) -> Result<c_int> {
    let (first, second) = (live_comm(first)?, live_comm(second)?);
    Ok(if first == second {
        abi::MPI_IDENT
    } else {
        abi::MPI_CONGRUENT
    } as c_int)
}

/// MPI_Comm_split: MPI_UNDEFINED gives no communicator, another negative colour is an error.
pub(crate) fn comm_split(comm: Result<Comm>, color: i64) -> Result<Option<Comm>> {
    let undefined = color == abi::MPI_UNDEFINED as i64;
    if color < 0 && !undefined {
        return Err(Error::InvalidArgument(
            "color must be non-negative or MPI_UNDEFINED",
        ));
    }
    universe()?.comm_split(comm?, !undefined)
}

/// The name to store: its first MPI_MAX_OBJECT_NAME - 1 bytes, whatever they are (names are
/// bytes, not text: nothing is decoded or replaced).
pub(crate) fn object_name(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(abi::MPI_MAX_OBJECT_NAME as usize - 1)]
}

/// MPI_Wtime: seconds since a fixed time in the past (the first call), from a monotonic clock.
pub(crate) fn wtime() -> f64 {
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START
        .get_or_init(|| {
            // Under valgrind: the once-cell's synchronisation (a futex and atomics) is
            // invisible to helgrind and drd, which would report every other thread's first
            // read of the time stored here as a race with its store. Told before the store.
            crate::engine::valgrind::ignore_races_on(&START);
            std::time::Instant::now()
        })
        .elapsed()
        .as_secs_f64()
}

/// MPI_Wtick: the resolution of [`wtime`], one nanosecond.
pub(crate) const WTICK: f64 = 1e-9;

/// MPI_Free_mem: MPI_BOTTOM (0) is accepted and ignored.
pub(crate) fn free_mem(base: usize) -> Result<()> {
    let universe = universe()?;
    if base == 0 {
        return Ok(());
    }
    universe.free_mem(base)
}
