//! The attribute engine: keyvals, per-object attribute sets, the three value tags, copy and
//! delete orchestration and the object tables. Safe Rust, no FFI: this is the Rust API, and
//! the C and Fortran layers are thin shells over it.
//!
//! Every method takes `&self` and locks the state only for short critical sections. User
//! callbacks run with no lock held, so they may call anything, on any object, from any
//! thread (attributes.md §4).
//!
//! ```
//! use mpiattr::{CopyAction, DeleteAction, KeyvalSpec, Language, ObjectKind, ThreadLevel, Universe, Comm};
//!
//! let universe = Universe::new(ThreadLevel::Multiple);
//! let keyval = universe.create_keyval(KeyvalSpec {
//!     kind: ObjectKind::Comm,
//!     language: Language::C,
//!     copy: CopyAction::Dup,
//!     delete: DeleteAction::Null,
//! })?;
//! universe.set_attr(Comm::WORLD, keyval, Language::C, 0x1000)?;
//! let copy = universe.comm_dup(Comm::WORLD)?;
//! assert_eq!(universe.get_attr(copy, keyval, Language::C)?, Some(0x1000));
//! universe.comm_free(copy)?;
//! # Ok::<(), mpiattr::Error>(())
//! ```

mod attrs;
pub mod basic;
mod collectives;
mod datatypes;
mod errclass;
mod errhandlers;
mod error;
mod foreign;
mod groups;
mod info;
mod keyval;
mod lock;
mod messages;
mod ops;
mod predefined;
mod requests;
mod sessions;
mod table;
mod type_api;
mod typed;
pub mod typemap;
pub(crate) mod valgrind;
mod value;

/// Marks the path it is on as rare, for the layout of the code around it: on the fast paths
/// of a few dozen instructions each jump the processor takes costs about a cycle, so the
/// common case runs straight through (docs/performance.md). `std::hint::cold_path` where the
/// compiler has it (Rust 1.95, build.rs), nothing on older ones.
#[inline(always)]
pub(crate) fn cold_path() {
    // Compiled only by compilers that have it (build.rs), so newer than the rust-version.
    #[cfg(mpiattr_cold_path)]
    #[allow(clippy::incompatible_msrv)]
    std::hint::cold_path();
}

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

pub use basic::{BasicKind, TypeGroup};
pub use collectives::{Place, Side, Transfer, VSide, WSide};
pub use errclass::{UserErrors, LAST_PREDEFINED_CODE, MAX_ERROR_STRING};
pub use errhandlers::{ErrhandlerFunction, ErrhandlerKind, ErrhandlerObject};
pub use error::{Error, ErrorClass, HandleProblem, Result};
pub use groups::{Comparison, Group, GroupData, SplitType, COMM_HINTS, MAX_STRINGTAG_LEN};
pub use info::{Info, InfoData, InfoString, MAX_INFO_KEY, MAX_INFO_VAL};
pub use keyval::{CopyAction, CopyCallback, DeleteAction, DeleteCallback, Keyval, KeyvalSpec};
pub use lock::{ProcessFence, ThreadLevel};
pub use messages::{
    AttachedBuffer, BufferScope, Envelope, MessageHandle, SendMode, BSEND_OVERHEAD, TAG_UB,
};
pub use ops::{Op, OpCall, PredefinedOp, UserFunction, UserOp};
pub use requests::{
    Completion, Delivery, GeneralizedRequest, Layout, Status, UserBuffer, ANY_SOURCE, ANY_TAG,
    PROC_NULL, UNDEFINED,
};
pub use sessions::{Session, SessionData, PSETS};
use table::PREDEFINED_GENERATION;
pub use table::{Id, MAX_LIVE_OBJECTS};
pub use type_api::{TypeClass, TypeContents, TypeEnvelope};
pub use typed::{TypedCopy, TypedKeyval};
pub use value::{Fint, Language, Word};

use attrs::{AttrSet, Copying, Entry, Spare};
use keyval::Registry;
use lock::StateLock;
use table::Table;
use value::{Cells, Stored};

/// The three kinds of object that carry attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// Communicators.
    Comm,
    /// Datatypes.
    Datatype,
    /// Windows.
    Win,
}

impl ObjectKind {
    /// The error class for an invalid handle of this kind.
    pub fn error_class(self) -> ErrorClass {
        match self {
            ObjectKind::Comm => ErrorClass::Comm,
            ObjectKind::Datatype => ErrorClass::Type,
            ObjectKind::Win => ErrorClass::Win,
        }
    }

    fn slot(self) -> usize {
        self as usize
    }

    /// A small number for the kind, never 0: 1 communicators, 2 datatypes, 3 windows (as in
    /// their C handles' low bits). A keyval's slot keeps its kind's.
    pub(crate) const fn code(self) -> u64 {
        self as u64 + 1
    }
}

impl ObjectKind {
    /// "communicator", "datatype" or "window".
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Comm => "communicator",
            ObjectKind::Datatype => "datatype",
            ObjectKind::Win => "window",
        }
    }
}

impl fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A communicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Comm(pub Id);
/// A datatype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Datatype(pub Id);
/// A window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Win(pub Id);
/// A request of a nonblocking or persistent operation (see src/engine/requests.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request(pub Id);

/// The id of a predefined object: always in its first generation.
const fn predefined_id(index: u32) -> Id {
    Id::from_parts(index, PREDEFINED_GENERATION)
}

impl Comm {
    /// MPI_COMM_WORLD.
    pub const WORLD: Comm = Comm(predefined_id(0));
    /// MPI_COMM_SELF.
    pub const SELF: Comm = Comm(predefined_id(1));
}

/// Any object that carries attributes; callbacks receive the object they act on as this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyObject {
    /// A communicator.
    Comm(Comm),
    /// A datatype.
    Datatype(Datatype),
    /// A window.
    Win(Win),
}

impl AnyObject {
    /// Its kind.
    pub fn kind(self) -> ObjectKind {
        match self {
            AnyObject::Comm(_) => ObjectKind::Comm,
            AnyObject::Datatype(_) => ObjectKind::Datatype,
            AnyObject::Win(_) => ObjectKind::Win,
        }
    }

    /// Its table identity.
    pub fn id(self) -> Id {
        match self {
            AnyObject::Comm(Comm(id))
            | AnyObject::Datatype(Datatype(id))
            | AnyObject::Win(Win(id)) => id,
        }
    }

    fn new(kind: ObjectKind, id: Id) -> AnyObject {
        match kind {
            ObjectKind::Comm => AnyObject::Comm(Comm(id)),
            ObjectKind::Datatype => AnyObject::Datatype(Datatype(id)),
            ObjectKind::Win => AnyObject::Win(Win(id)),
        }
    }
}

/// Object handles that carry attributes: [`Comm`], [`Datatype`] and [`Win`].
pub trait Object: Copy + Into<AnyObject> + private::Sealed {
    /// Which kind.
    const KIND: ObjectKind;
    /// Its table identity.
    fn id(self) -> Id;
    /// The handle for a table identity.
    fn from_id(id: Id) -> Self;
}

mod private {
    pub trait Sealed {}
}

macro_rules! object_kind {
    ($type:ident, $kind:ident) => {
        impl private::Sealed for $type {}
        impl Object for $type {
            const KIND: ObjectKind = ObjectKind::$kind;
            fn id(self) -> Id {
                self.0
            }
            fn from_id(id: Id) -> Self {
                $type(id)
            }
        }
        impl From<$type> for AnyObject {
            fn from(object: $type) -> AnyObject {
                AnyObject::$kind(object)
            }
        }
    };
}

object_kind!(Comm, Comm);
object_kind!(Datatype, Datatype);
object_kind!(Win, Win);

/// An error handler: one of the three predefined ones, or a user handler
/// ([`Universe::errhandler_create`], src/engine/errhandlers.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorHandler {
    /// MPI_ERRORS_ARE_FATAL: report and exit.
    Fatal,
    /// MPI_ERRORS_ABORT: report and exit.
    Abort,
    /// MPI_ERRORS_RETURN: return the error code.
    Return,
    /// A user handler: its record in the error handler table.
    User(Id),
}

/// The kinds of object kept outside the attribute-carrying tables, for
/// [`Universe::other_at`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OtherKind {
    /// Groups.
    Group,
    /// Info objects.
    Info,
    /// Sessions.
    Session,
    /// Reduction operations.
    Op,
}

/// How a window was made (the value of MPI_WIN_CREATE_FLAVOR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinFlavor {
    /// MPI_Win_create.
    Create,
    /// MPI_Win_allocate.
    Allocate,
    /// MPI_Win_create_dynamic.
    Dynamic,
}

impl WinFlavor {
    fn abi_value(self) -> Word {
        (match self {
            WinFlavor::Create => crate::abi::MPI_WIN_FLAVOR_CREATE,
            WinFlavor::Allocate => crate::abi::MPI_WIN_FLAVOR_ALLOCATE,
            WinFlavor::Dynamic => crate::abi::MPI_WIN_FLAVOR_DYNAMIC,
        }) as Word
    }
}

/// Memory owned by the library (MPI_Alloc_mem, MPI_Win_allocate): zeroed, 16-byte aligned,
/// at least one byte. It is allocated zeroed by the system allocator, which for large sizes
/// maps fresh pages that the kernel zeroes when they are first touched: a gigabyte costs
/// nothing until it is used, as with malloc.
#[derive(Debug)]
struct Memory {
    address: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
}

// SAFETY: the memory is owned by this value alone and only its address is handed out; the
// library never reads or writes it.
unsafe impl Send for Memory {}
// SAFETY: as for Send: nothing is accessed through a shared reference.
unsafe impl Sync for Memory {}

impl Memory {
    const ALIGN: usize = 16;

    /// `size` zeroed bytes, or [`Error::NoMemory`] when the size cannot be laid out or the
    /// system refuses.
    fn new(size: usize) -> Result<Memory> {
        let layout = std::alloc::Layout::from_size_align(size.max(1), Self::ALIGN)
            .map_err(|_| Error::NoMemory)?;
        // SAFETY: the layout has a non-zero size.
        let address = unsafe { std::alloc::alloc_zeroed(layout) };
        let address = std::ptr::NonNull::new(address).ok_or(Error::NoMemory)?;
        Ok(Memory { address, layout })
    }

    fn address(&mut self) -> usize {
        self.address.as_ptr() as usize
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        // SAFETY: allocated by `alloc_zeroed` with this layout, freed once (here).
        unsafe { std::alloc::dealloc(self.address.as_ptr(), self.layout) };
    }
}

#[derive(Debug)]
enum Detail {
    Comm {
        name: Vec<u8>,
    },
    Datatype {
        /// The layout. A duplicate (MPI_Type_dup) shares its original's map and counts the
        /// levels of duplication in `dups`, so that a dup allocates nothing: the handle stands
        /// for `map` under `dups` levels of MPI_Type_dup (combiner DUP, see
        /// [`Detail::datatype_map`]), with the same layout and compiled form.
        map: Arc<typemap::TypeMap>,
        /// Levels of MPI_Type_dup over `map` (0: `map` is the datatype's own type map).
        dups: u32,
        committed: bool,
        /// What the collectives' fast paths need, for a committed datatype whose items lie
        /// back to back (computed at commit).
        fast: Option<collectives::FastType>,
        /// MPI_Type_set_name's bytes; a predefined type starts with its own name.
        name: Vec<u8>,
    },
    Win {
        _memory: Option<Memory>,
    },
}

impl Detail {
    /// A datatype's detail; committing compiles the map and computes its fast-path facts.
    fn datatype(map: Arc<typemap::TypeMap>, committed: bool, name: Vec<u8>) -> Detail {
        let fast = if committed {
            map.flat();
            collectives::FastType::of(&map)
        } else {
            None
        };
        Detail::Datatype {
            map,
            dups: 0,
            committed,
            fast,
            name,
        }
    }

    /// A duplicate of a datatype's detail (MPI_Type_dup): the same shared map one level of
    /// duplication further, committed if the original is, without a name.
    fn datatype_dup(
        map: &Arc<typemap::TypeMap>,
        dups: u32,
        committed: bool,
        fast: Option<collectives::FastType>,
    ) -> Result<Detail> {
        let (map, dups) = match dups.checked_add(1) {
            Some(dups) => (Arc::clone(map), dups),
            // Beyond u32::MAX levels: the levels so far become a map of their own.
            None => (Detail::datatype_map(map, dups)?, 1),
        };
        Ok(Detail::Datatype {
            map,
            dups,
            committed,
            fast: fast.map(collectives::FastType::of_duplicate),
            name: Vec::new(),
        })
    }

    /// The type map a datatype handle stands for: `map` under `dups` levels of MPI_Type_dup,
    /// each made here (only a datatype built from a duplicate, and the public
    /// [`Universe::type_map`], need them).
    fn datatype_map(map: &Arc<typemap::TypeMap>, dups: u32) -> Result<Arc<typemap::TypeMap>> {
        let mut map = Arc::clone(map);
        for _ in 0..dups {
            map = Arc::new(typemap::dup(&map)?);
        }
        Ok(map)
    }
}

#[derive(Debug)]
struct ObjectData {
    /// No allocation until the first attribute: an object without attributes spends nothing
    /// on them.
    attrs: AttrSet,
    /// The predefined attributes it carries (MPI_COMM_WORLD and its duplicates, windows).
    predefined_values: Option<predefined::Values>,
    errhandler: ErrorHandler,
    predefined: bool,
    freeing: bool,
    detail: Detail,
}

impl ObjectData {
    fn new(detail: Detail, errhandler: ErrorHandler) -> ObjectData {
        ObjectData {
            attrs: AttrSet::default(),
            predefined_values: None,
            errhandler,
            predefined: false,
            freeing: false,
            detail,
        }
    }

    /// Whether it has user attributes.
    fn has_user_attributes(&self) -> bool {
        self.attrs.len() > 0
    }
}

#[derive(Debug)]
struct State {
    objects: [Table<ObjectData>; 3],
    requests: Table<requests::RequestData>,
    /// Messages, posted receives and attached buffers (src/engine/messages.rs).
    p2p: messages::Queues,
    ops: Table<ops::OpData>,
    keyvals: Registry,
    cells: Cells,
    spare: Spare,
    memory: HashMap<usize, Memory>,
    /// Groups (groups.rs); slot 0 is MPI_GROUP_EMPTY.
    groups: Table<GroupData>,
    /// Info objects (info.rs); slot 0 is MPI_INFO_ENV.
    infos: Table<InfoData>,
    /// User error classes, codes and strings (errclass.rs).
    user_errors: UserErrors,
    /// Sessions (sessions.rs).
    sessions: Table<SessionData>,
    /// User error handlers (errhandlers.rs).
    errhandlers: Table<errhandlers::ErrhandlerData>,
    /// The info hints of communicators that have any (groups.rs).
    comm_hints: HashMap<Id, InfoData>,
    /// After [`Universe::finalize`]: nothing new may be made.
    finalized: bool,
    /// The user callbacks running now, each with what its call left half-done, so that a
    /// callback that never returns (it `longjmp`ed out) leaves nothing stuck.
    in_flight: Vec<InFlight>,
    /// MPI_COMM_WORLD and MPI_COMM_SELF while the world model is not initialized yet
    /// ([`Universe::new_without_world`]): out of their table slots, so that their handles
    /// name nothing, until [`Universe::open_world`] puts them back.
    world_aside: Vec<ObjectData>,
}

/// A user callback under way: the thread running it, the call from C or Fortran that ran it
/// (see [`CallEntry`]), an address in the library's frame that runs it (stacks grow down:
/// while the callback runs, every call it makes enters below), a number that tells it from
/// the others, and what that call left half-done.
#[derive(Debug)]
struct InFlight {
    thread: usize,
    call: CallEntry,
    frame: usize,
    number: u64,
    half_done: HalfDone,
}

/// What a call running a user callback has left half-done until the callback returns.
#[derive(Debug)]
enum HalfDone {
    /// A value marked as being deleted (its delete callback runs).
    Delete {
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
    },
    /// An object marked as being freed (its values' delete callbacks run).
    Free { kind: ObjectKind, id: Id },
    /// A new object getting its values by copy callbacks, with the keyvals pinned for it.
    Copy {
        kind: ObjectKind,
        target: Id,
        pinned: Vec<Keyval>,
    },
}

/// A user callback panicked: the panic, caught while the engine puts back what the call had
/// half-done, to go on unwinding once it has.
struct Unwound(Box<dyn Any + Send>);

/// Where a call from C or Fortran entered the library: an address in the entry point's frame
/// (stacks grow down), a number that tells the thread's calls apart, and the function's name
/// (for the message of a callback that unwinds). Zero and empty for a Rust program.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CallEntry {
    address: usize,
    count: u64,
    name: &'static str,
}

/// The thread's call from C or Fortran under way (the innermost, when a callback calls), and
/// how many the thread has made.
#[derive(Clone, Copy)]
struct Calls {
    current: CallEntry,
    made: u64,
}

thread_local! {
    static CALLS: std::cell::Cell<Calls> = const {
        std::cell::Cell::new(Calls {
            current: CallEntry { address: 0, count: 0, name: "" },
            made: 0,
        })
    };
}

/// The thread's call from C or Fortran under way.
fn current_call() -> CallEntry {
    CALLS.with(|calls| calls.get().current)
}

/// The name of the thread's call from C or Fortran under way (`MPI_Comm_free`), empty if
/// none was noted.
pub(crate) fn current_call_name() -> &'static str {
    current_call().name
}

/// Notes that the call `name` from C or Fortran enters the library, with `anchor` a local of
/// its entry point's frame: a callback left by `longjmp` is recognised by it (see
/// [`State::recover_callbacks`]). Returns what to give [`note_call_return`] when the call
/// returns (a call made by a callback returns into the call that ran the callback).
#[inline(always)]
pub(crate) fn note_call_entry(anchor: &u8, name: &'static str) -> CallEntry {
    CALLS.with(|calls| {
        let Calls { current, made } = calls.get();
        let made = made.wrapping_add(1);
        calls.set(Calls {
            current: CallEntry {
                address: anchor as *const u8 as usize,
                count: made,
                name,
            },
            made,
        });
        current
    })
}

/// Notes that the call noted by [`note_call_entry`] returns: `previous` is what that gave.
#[inline(always)]
pub(crate) fn note_call_return(previous: CallEntry) {
    CALLS.with(|calls| {
        let made = calls.get().made;
        calls.set(Calls {
            current: previous,
            made,
        });
    });
}

/// Runs a user callback for the thread's current call, which is again the current call when
/// the callback returns: a call made by the callback that never returned (its own callback
/// `longjmp`ed to a `setjmp` inside this callback) is no longer taken for the current one, so
/// the callbacks this call runs next are noted with the right call and are not taken for gone
/// when they call in.
#[inline(always)]
fn returning_to_this_call<T>(callback: impl FnOnce() -> T) -> T {
    let call = current_call();
    let outcome = callback();
    note_call_return(call);
    outcome
}

impl State {
    /// An object's attribute set with the keyval registry and the pool of spare slices, for
    /// the fast paths (each borrowed apart); `None` if `id` names no object of `kind`.
    #[inline(always)]
    fn attrs_of(
        &mut self,
        kind: ObjectKind,
        id: Id,
    ) -> Option<(&mut AttrSet, &mut Registry, &mut Spare)> {
        let State {
            objects,
            keyvals,
            spare,
            ..
        } = self;
        let attrs = &mut objects[kind.slot()].get_mut(id)?.attrs;
        Some((attrs, keyvals, spare))
    }

    fn empty(keyvals: Registry) -> State {
        State {
            objects: Default::default(),
            requests: Table::default(),
            p2p: messages::Queues::default(),
            ops: Table::default(),
            keyvals,
            cells: Cells::default(),
            spare: Spare::default(),
            memory: HashMap::new(),
            groups: groups::predefined(),
            infos: info::predefined(),
            user_errors: UserErrors::new(),
            sessions: Table::default(),
            errhandlers: Table::default(),
            comm_hints: HashMap::new(),
            finalized: false,
            in_flight: Vec::new(),
            world_aside: Vec::new(),
        }
    }

    /// The state of a new universe: the predefined communicators, datatypes, operations,
    /// keyvals, groups and MPI_INFO_ENV.
    fn predefined() -> State {
        let mut state = State::empty(Registry::new());
        state.ops = ops::op_table();
        for name in ["MPI_COMM_WORLD", "MPI_COMM_SELF"] {
            let mut world = ObjectData::new(
                Detail::Comm {
                    name: name.as_bytes().to_vec(),
                },
                ErrorHandler::Fatal,
            );
            world.predefined = true;
            state.table_mut(ObjectKind::Comm).insert_predefined(world);
        }
        for (map, predefined) in datatypes::predefined_maps()
            .iter()
            .zip(datatypes::PREDEFINED)
        {
            let name = predefined.c_name().as_bytes().to_vec();
            let mut datatype = ObjectData::new(
                Detail::datatype(map.clone(), true, name),
                ErrorHandler::Fatal,
            );
            datatype.predefined = true;
            state
                .table_mut(ObjectKind::Datatype)
                .insert_predefined(datatype);
        }
        state
            .object_mut(ObjectKind::Comm, Comm::WORLD.0)
            .expect("MPI_COMM_WORLD exists")
            .predefined_values = Some(predefined::Values::world());
        state
    }

    /// Takes MPI_COMM_WORLD and MPI_COMM_SELF out of the communicator table (their handles
    /// then name nothing), keeping them aside for [`State::open_world`] if `keep`.
    fn close_world(&mut self, keep: bool) {
        for comm in [Comm::WORLD, Comm::SELF] {
            let taken = self.table_mut(ObjectKind::Comm).vacate_predefined(comm.0);
            if let (true, Some(data)) = (keep, taken) {
                self.world_aside.push(data);
            }
        }
    }

    /// Takes over from `old` what outlives MPI_Finalize (MPI-4.1 §12.4.1): info objects,
    /// error handlers, user error classes, codes and strings, sessions.
    fn keep_from(&mut self, old: &mut State) {
        self.infos = std::mem::take(&mut old.infos);
        self.errhandlers = std::mem::take(&mut old.errhandlers);
        self.user_errors = std::mem::replace(&mut old.user_errors, UserErrors::new());
        self.sessions = std::mem::take(&mut old.sessions);
    }

    /// After MPI_Finalize: the predefined objects anew (MPI_COMM_WORLD and MPI_COMM_SELF
    /// left out) for a session, with what [`State::keep_from`] kept.
    pub(crate) fn reopen(&mut self) {
        if !self.finalized {
            return;
        }
        let mut fresh = State::predefined();
        fresh.keep_from(self);
        fresh.close_world(false);
        *self = fresh;
    }

    /// Puts back what [`State::close_world`] kept aside.
    fn open_world(&mut self) {
        let aside = std::mem::take(&mut self.world_aside);
        for (comm, data) in [Comm::WORLD, Comm::SELF].into_iter().zip(aside) {
            self.table_mut(ObjectKind::Comm)
                .restore_predefined(comm.0, data);
        }
        let last = self.user_errors.last_used() as Word;
        if let Ok(world) = self.object_mut(ObjectKind::Comm, Comm::WORLD.0) {
            if let Some(values) = world.predefined_values.as_mut() {
                values.set_last_used_code(last);
            }
        }
    }

    /// Notes that a user callback is about to run, leaving `half_done` until it returns; the
    /// number to give [`State::end_callback`].
    /// `frame` is a local of the library's frame that calls the callback (or calls down to
    /// it), alive until it returns.
    fn begin_callback(&mut self, half_done: HalfDone, frame: &u8) -> u64 {
        let number = self
            .in_flight
            .last()
            .map_or(0, |f| f.number.wrapping_add(1));
        self.in_flight.push(InFlight {
            thread: lock::current_thread(),
            call: current_call(),
            frame: frame as *const u8 as usize,
            number,
            half_done,
        });
        number
    }

    /// The callback noted as `number` returned: its call finishes as usual.
    fn end_callback(&mut self, number: u64) {
        if let Some(at) = self.in_flight.iter().rposition(|f| f.number == number) {
            self.in_flight.remove(at);
        }
    }

    /// Undoes what callbacks of this thread that can no longer return left half-done. A
    /// callback still running can only call into the library from below its own frames, so
    /// every call it makes enters below the library's frame that runs it. A callback noted
    /// by an earlier call whose running frame is at or below where the current call entered
    /// is gone: the stack was unwound past it (by `longjmp`). (A program that calls in again
    /// from deeper than that frame is recovered at a later call made from higher up, or when
    /// the thread ends: see [`Universe::thread_ends`].)
    /// Each half-done call then ends as if its callback had failed: a value being deleted
    /// stays (its delete callback runs again when it is next deleted), an object being freed
    /// stays valid with the values not yet deleted, and a new object being copied into is
    /// dropped with the values copied so far, without callbacks. No user code runs here.
    #[cold]
    #[inline(never)]
    fn recover_callbacks(&mut self) {
        let here = current_call();
        let thread = lock::current_thread();
        self.recover_where(|f| {
            f.thread == thread && f.call.count != here.count && f.frame <= here.address
        });
    }

    /// Ends, as [`State::recover_callbacks`] does, the calls of `gone` callbacks.
    fn recover_where(&mut self, gone: impl Fn(&InFlight) -> bool) {
        while let Some(at) = self.in_flight.iter().rposition(&gone) {
            let stuck = self.in_flight.remove(at);
            match stuck.half_done {
                HalfDone::Delete { kind, id, keyval } => {
                    if let Some(entry) = self
                        .table_mut(kind)
                        .get_mut(id)
                        .and_then(|data| data.attrs.get_mut(keyval))
                    {
                        entry.set_deleting(false);
                    }
                }
                HalfDone::Free { kind, id } => {
                    if let Some(data) = self.table_mut(kind).get_mut(id) {
                        data.freeing = false;
                    }
                }
                HalfDone::Copy {
                    kind,
                    target,
                    pinned,
                } => {
                    for keyval in pinned {
                        self.keyvals.release(keyval);
                    }
                    self.discard(kind, target);
                }
            }
        }
    }

    /// Refuses to make anything after MPI_Finalize (calls on handles fail by themselves:
    /// every table is empty).
    fn check_live(&self) -> Result<()> {
        if self.finalized {
            Err(Error::Finalized)
        } else {
            Ok(())
        }
    }

    fn table(&self, kind: ObjectKind) -> &Table<ObjectData> {
        &self.objects[kind.slot()]
    }

    fn table_mut(&mut self, kind: ObjectKind) -> &mut Table<ObjectData> {
        &mut self.objects[kind.slot()]
    }

    fn object(&self, kind: ObjectKind, id: Id) -> Result<&ObjectData> {
        let table = self.table(kind);
        table
            .get(id)
            .ok_or_else(|| Error::InvalidHandle(kind, table.problem(id)))
    }

    fn object_mut(&mut self, kind: ObjectKind, id: Id) -> Result<&mut ObjectData> {
        self.table_mut(kind)
            .get_mut_or_problem(id)
            .map_err(|problem| Error::InvalidHandle(kind, problem))
    }

    /// Ok if a new object of the kind has a slot; [`Error::TooManyObjects`] if
    /// [`MAX_LIVE_OBJECTS`] of them live.
    fn room(&self, kind: ObjectKind) -> Result<()> {
        if self.table(kind).has_room() {
            Ok(())
        } else {
            Err(Error::TooManyObjects(kind.name()))
        }
    }

    /// Places a new object in its table.
    #[inline]
    fn insert(&mut self, kind: ObjectKind, data: ObjectData) -> Result<Id> {
        self.table_mut(kind)
            .insert(data)
            .ok_or(Error::TooManyObjects(kind.name()))
    }

    /// What a reader in `language` sees of an attribute, unless it needs a cell not made
    /// yet (a C reader of a Fortran value read by no C reader before): `None`.
    #[inline(always)]
    fn peek(&self, kind: ObjectKind, id: Id, entry: &Entry, language: Language) -> Option<Word> {
        match (entry.tag(), language) {
            (Language::C, _) => Some(value::view(Language::C, entry.word as Word, 0, language)),
            (_, Language::C) => self
                .cells
                .get(&(kind.slot() as u8, id, entry.keyval))
                .map(|cell| Arc::as_ptr(cell) as Word),
            (tag, _) => Some(value::view(tag, entry.word as Word, 0, language)),
        }
    }

    /// The cell a C reader of a Fortran value gets, made if it has none yet.
    fn cell(&mut self, kind: ObjectKind, id: Id, keyval: Keyval) -> Result<Arc<Word>> {
        let entry = self
            .object_mut(kind, id)?
            .attrs
            .get_mut(keyval)
            .ok_or(Error::Internal("a cell for a value that is gone"))?;
        entry.set_cell(true);
        let word = entry.word as Word;
        Ok(self
            .cells
            .get_or_make((kind.slot() as u8, id, keyval), word)
            .clone())
    }

    /// What a reader in `language` sees of the value `keyval` has on an object, if any.
    fn read(
        &mut self,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        language: Language,
    ) -> Result<Option<Word>> {
        let Some(entry) = self.object(kind, id)?.attrs.get(keyval).copied() else {
            return Ok(None);
        };
        if let Some(word) = self.peek(kind, id, &entry, language) {
            return Ok(Some(word));
        }
        Ok(Some(Arc::as_ptr(&self.cell(kind, id, keyval)?) as Word))
    }

    /// An attribute's value, owned, as a callback of `language` is to see it: a C callback
    /// shown a Fortran value gets the attribute's cell, kept alive with the value.
    fn held(
        &mut self,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        language: Language,
    ) -> Result<Stored> {
        let entry = *self
            .object(kind, id)?
            .attrs
            .get(keyval)
            .ok_or(Error::Internal("a held value that is gone"))?;
        Ok(match entry.tag() {
            Language::C => Stored::C(entry.word),
            tag => Stored::Fortran {
                tag,
                word: entry.word as Word,
                cell: if language == Language::C {
                    Some(self.cell(kind, id, keyval)?)
                } else {
                    None
                },
            },
        })
    }

    /// The tag and word an entry keeps for a value.
    fn store(value: &Stored) -> (Language, usize) {
        match value {
            Stored::C(p) => (Language::C, *p),
            Stored::Fortran { tag, word, .. } => (*tag, *word as usize),
        }
    }

    /// Releases what an entry of an object that is gone or replaced kept: its cell, if a C
    /// reader had one.
    fn unstore(&mut self, kind: ObjectKind, id: Id, entry: &Entry) {
        if entry.has_cell() {
            self.cells.remove(&(kind.slot() as u8, id, entry.keyval));
        }
    }

    /// Attaches a new value for a keyval (live, of the object's kind) the object has no value
    /// for.
    fn attach(&mut self, kind: ObjectKind, id: Id, keyval: Keyval, value: Stored) -> Result<()> {
        let actions = self.keyvals.held(keyval).actions();
        let (tag, word) = Self::store(&value);
        let State { objects, spare, .. } = self;
        let data = objects[kind.slot()]
            .get_mut_or_problem(id)
            .map_err(|problem| Error::InvalidHandle(kind, problem))?;
        data.attrs.insert(keyval, actions, tag, word, spare);
        if self.keyvals.held_is_freed(keyval) {
            // A copy (by a callback) of a value whose keyval was freed: it says so too.
            data.attrs.mark_keyval_freed(keyval);
        }
        self.keyvals.acquire(keyval);
        Ok(())
    }

    /// Replaces a present value in place; the new one counts as newest.
    fn replace(&mut self, kind: ObjectKind, id: Id, keyval: Keyval, value: Stored) -> Result<()> {
        let (tag, word) = Self::store(&value);
        let old = self.object_mut(kind, id)?.attrs.replace(keyval, tag, word);
        self.unstore(kind, id, &old);
        Ok(())
    }

    /// Removes a value and releases its keyval.
    fn detach(&mut self, kind: ObjectKind, id: Id, keyval: Keyval) {
        let State { objects, spare, .. } = self;
        let removed = objects[kind.slot()]
            .get_mut(id)
            .and_then(|data| data.attrs.remove(keyval, spare));
        if let Some(entry) = removed {
            self.unstore(kind, id, &entry);
            self.keyvals.release(keyval);
        }
    }

    /// Removes a value whose delete callback succeeded (or that has none), or replaces it.
    fn finish_delete(
        &mut self,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        replacement: Option<Stored>,
    ) -> Deleted {
        if self.object(kind, id).is_err() {
            return Deleted::Nothing;
        }
        match replacement {
            Some(value) => match self.replace(kind, id, keyval, value) {
                Ok(()) => Deleted::Replaced,
                Err(_) => Deleted::Nothing,
            },
            None => {
                self.detach(kind, id, keyval);
                Deleted::Removed
            }
        }
    }

    /// Drops an object's attributes without callbacks and the object itself.
    fn discard(&mut self, kind: ObjectKind, id: Id) {
        let table = self.table_mut(kind);
        if table
            .get(id)
            .is_some_and(|object| object.attrs.holds_nothing())
        {
            // Nothing to release: the object is dropped where it lies.
            table.discard(id);
            return;
        }
        if let Some(object) = table.get_mut(id) {
            // Its attributes out (an empty set in their place), released and recycled; the
            // object then dropped where it lies too, not moved out of the table first.
            let attrs = std::mem::take(&mut object.attrs);
            self.release_and_recycle(kind, id, attrs);
            self.table_mut(kind).discard(id);
        }
    }

    /// The attribute half of [`State::discard`], out of its line.
    #[inline(never)]
    fn release_and_recycle(&mut self, kind: ObjectKind, id: Id, mut attrs: AttrSet) {
        self.release_all(kind, id, &attrs);
        attrs.recycle(&mut self.spare);
    }

    /// Releases what every entry of an object's set that is gone kept: cells and keyvals.
    fn release_all(&mut self, kind: ObjectKind, id: Id, attrs: &AttrSet) {
        for entry in attrs.iter() {
            self.unstore(kind, id, entry);
            self.keyvals.release(entry.keyval);
        }
    }

    /// Whether deleting the object's attributes runs any user callback.
    fn has_delete_callbacks(&self, kind: ObjectKind, id: Id) -> Result<bool> {
        let attrs = &self.object(kind, id)?.attrs;
        Ok(attrs.may_have_callbacks() && attrs.iter().any(Entry::has_delete_callback))
    }

    /// The copies of an object's attributes when no copy callback is involved, in one pass:
    /// every value whose keyval copies with MPI_*_DUP_FN, with its word, tag and age, in
    /// storage of its own. `None` if a copy callback is involved.
    fn duplicate_attributes(&mut self, kind: ObjectKind, id: Id) -> Result<Option<AttrSet>> {
        let State {
            objects,
            keyvals,
            spare,
            ..
        } = self;
        let table = &objects[kind.slot()];
        let source = &table
            .get(id)
            .ok_or_else(|| Error::InvalidHandle(kind, table.problem(id)))?
            .attrs;
        if source.may_have_callbacks() && source.iter().any(|e| e.copying() == Copying::Callback) {
            return Ok(None);
        }
        let mut dropped = false;
        let mut copy = source.duplicate(spare, |entry| {
            if entry.copying() == Copying::Drop {
                dropped = true;
                return;
            }
            entry.set_deleting(false);
            entry.set_cell(false); // a C reader of the copy gets a cell of the copy's own
            keyvals.acquire(entry.keyval);
        });
        if dropped {
            copy.retain(|entry| entry.copying() != Copying::Drop, spare);
        }
        Ok(Some(copy))
    }

    /// Drops the user attributes of an object, without callbacks (none is needed).
    fn drop_user_attributes(&mut self, kind: ObjectKind, id: Id) {
        if let Ok(data) = self.object_mut(kind, id) {
            let mut gone = std::mem::take(&mut data.attrs);
            self.release_all(kind, id, &gone);
            gone.recycle(&mut self.spare);
        }
    }
}

/// What one attempt to delete a value did.
enum Deleted {
    /// There was no value (or its deletion was already under way elsewhere, or it was
    /// replaced while its callback ran).
    Nothing,
    /// The value was removed, after its delete callback succeeded.
    Removed,
    /// The value was replaced by the new one, after its delete callback succeeded.
    Replaced,
}

/// One MPI process's worth of objects and keyvals.
///
/// It starts on a 64-byte line (a cache line), so that which of its fields share a line does
/// not depend on where the linker puts it. Unaligned (its static 16 bytes into a line), a
/// change that reordered its fields (the communicators' table moved from byte 40 to byte 8)
/// made the get under `MPI_THREAD_MULTIPLE` read 5.51 ns instead of 5.03 (`bench/threads.c`,
/// 1 thread, AMD EPYC), with the same instructions; aligned, it reads 4.97.
#[repr(align(64))]
pub struct Universe {
    state: StateLock<State>,
    /// A keyval with a copy or delete callback has been made: from then on, calls from C and
    /// Fortran note where they enter (see [`note_call_entry`]); before, no callback can run.
    callbacks: std::sync::atomic::AtomicBool,
    /// Wakes threads blocked in a wait under `MPI_THREAD_MULTIPLE` (src/engine/requests.rs).
    progress: requests::Progress,
}

impl fmt::Debug for Universe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Universe")
            .field("thread_level", &self.thread_level())
            .finish_non_exhaustive()
    }
}

impl Universe {
    /// A new universe: MPI_COMM_WORLD and MPI_COMM_SELF, every predefined datatype, and the
    /// predefined attributes. Under [`ThreadLevel::Single`] only the calling thread may use it.
    ///
    /// ```
    /// use mpiattr::{Comm, ObjectKind, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// assert_eq!(universe.thread_level(), ThreadLevel::Single);
    /// assert!(universe.is_valid(Comm::WORLD)? && universe.is_valid(Comm::SELF)?);
    /// assert_eq!(universe.comm_name(Comm::WORLD)?, b"MPI_COMM_WORLD");
    /// assert_eq!(universe.object_count(ObjectKind::Comm)?, 2);
    /// // The predefined keyvals: 7 for communicators (MPI_TAG_UB ...), 5 for windows.
    /// assert_eq!(universe.keyval_count()?, 12);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn new(level: ThreadLevel) -> Universe {
        let state = State::predefined();
        Universe {
            state: StateLock::new(state, level),
            callbacks: std::sync::atomic::AtomicBool::new(false),
            progress: requests::Progress::default(),
        }
    }

    /// The universe with a process fence for its lock under [`ThreadLevel::Multiple`]: a
    /// thread's gets then count it as a reader with plain stores, and only a write made while
    /// another thread holds a reader slot pays for `fence` (and takes the slots back for a
    /// while: see [`ProcessFence`] and src/engine/lock.rs). No effect under
    /// [`ThreadLevel::Single`] or valgrind. The C and Fortran shells give Linux's
    /// `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` where the kernel has it; a fence that
    /// only fences the calling thread (`std::sync::atomic::fence`) is not one. Give it before
    /// any thread reads: once threads hold reader slots, a fence given is not taken (the
    /// universe keeps the one it has, or none).
    pub fn with_process_fence(mut self, fence: ProcessFence) -> Universe {
        self.state.set_process_fence(fence);
        self
    }

    /// A universe for the sessions model and the functions callable at any time (MPI-4.1
    /// §12.4.1), made before MPI_Init: as [`Universe::new`], but MPI_COMM_WORLD and
    /// MPI_COMM_SELF are not there (their handles name nothing) until
    /// [`Universe::open_world`].
    ///
    /// ```
    /// use mpiattr::{Comm, ErrorClass, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new_without_world(ThreadLevel::Multiple);
    /// assert_eq!(universe.check(Comm::WORLD).unwrap_err().class(), ErrorClass::Comm);
    /// universe.open_world()?;
    /// assert_eq!(universe.comm_name(Comm::SELF)?, b"MPI_COMM_SELF");
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn new_without_world(level: ThreadLevel) -> Universe {
        let mut state = State::predefined();
        state.close_world(true);
        Universe {
            state: StateLock::new(state, level),
            callbacks: std::sync::atomic::AtomicBool::new(false),
            progress: requests::Progress::default(),
        }
    }

    /// Puts MPI_COMM_WORLD and MPI_COMM_SELF in a universe made by
    /// [`Universe::new_without_world`] (MPI_Init); nothing to do in any other.
    pub fn open_world(&self) -> Result<()> {
        let mut state = self.lock()?;
        if !state.world_aside.is_empty() {
            state.open_world();
        }
        Ok(())
    }

    /// The thread level the universe was created with.
    pub fn thread_level(&self) -> ThreadLevel {
        self.state.level()
    }

    /// Whether the calling thread created the universe.
    pub fn is_main_thread(&self) -> bool {
        self.state.is_owner()
    }

    #[inline(always)]
    fn lock(&self) -> Result<lock::Guard<'_, State>> {
        let mut state = self.state.lock()?;
        if !state.in_flight.is_empty() {
            state.recover_callbacks();
        }
        Ok(state)
    }

    // ---- keyvals ------------------------------------------------------------------------

    /// Creates a keyval (MPI_*_create_keyval, MPI_Keyval_create).
    ///
    /// ```
    /// use mpiattr::{CopyAction, DeleteAction, KeyvalSpec, Language, ObjectKind};
    /// use mpiattr::{ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let spec = KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Null,
    ///     delete: DeleteAction::Null,
    /// };
    /// let first = universe.create_keyval(spec.clone())?;
    /// let second = universe.create_keyval(spec)?;
    /// assert_ne!(first, second);
    /// assert!(first.0 > 0 && !first.is_predefined());
    /// assert_eq!(universe.keyval_count()?, 12 + 2);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn create_keyval(&self, spec: KeyvalSpec) -> Result<Keyval> {
        if (matches!(spec.copy, CopyAction::Call(_))
            || matches!(spec.delete, DeleteAction::Call(_)))
            && !self.has_callbacks()
        {
            // Every call reads the flag without the lock: under valgrind, the tools are told
            // not to check it before its one change (it only ever goes from false to true).
            valgrind::ignore_races_on(&self.callbacks);
            self.callbacks
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let mut state = self.lock()?;
        state.check_live()?;
        state.keyvals.create(spec)
    }

    /// [`Universe::create_keyval`] of a keyval without callbacks (copy `MPI_*_NULL_COPY_FN`,
    /// or `MPI_*_DUP_FN` if `dup`; delete `MPI_*_NULL_DELETE_FN`), for the C shell: under
    /// ThreadLevel::Single, on the owning thread, without any call in the common case.
    /// `None` for every other case (errors included), which the full operation then handles.
    /// (A call left half-done by a callback that never returned is recovered by the next
    /// call that takes the lock: a new keyval changes nothing of it.)
    #[inline(always)]
    pub(crate) fn create_keyval_fast(
        &self,
        kind: ObjectKind,
        language: Language,
        dup: bool,
    ) -> Option<Keyval> {
        let copy = if dup {
            Copying::Duplicate
        } else {
            Copying::Drop
        };
        // It calls nothing that could reach the lock: the gate need not be marked held.
        self.state
            .poke_single_with(Self::create_keyval_in, (kind, language, copy))?
    }

    #[inline(always)]
    fn create_keyval_in(
        state: &mut State,
        (kind, language, copy): (ObjectKind, Language, Copying),
    ) -> Option<Keyval> {
        // No test of `finalized`: a finalized state's registry is empty (Universe::finalize),
        // without a slot to take, so this gives `None` and the whole way refuses the call.
        state.keyvals.create_plain(kind, language, copy)
    }

    /// [`Universe::free_keyval`] of a keyval without callbacks that no attribute holds (it
    /// goes at once), for the C shell, in the case [`Universe::create_keyval_fast`] takes;
    /// `None` otherwise. (A half-done call that pinned the keyval holds it, so that case
    /// goes the whole way, which recovers the call first.)
    #[inline(always)]
    pub(crate) fn free_keyval_fast(&self, kind: ObjectKind, keyval: Keyval) -> Option<()> {
        self.state
            .poke_single_with(Self::free_keyval_in, (kind, keyval))?
    }

    #[inline(always)]
    fn free_keyval_in(state: &mut State, (kind, keyval): (ObjectKind, Keyval)) -> Option<()> {
        state.keyvals.free_plain(keyval, kind)
    }

    /// The calling thread ends: a callback it ran that never returned (it `longjmp`ed out)
    /// is gone, and its call ends as [`State::recover_callbacks`] ends it, instead of waiting
    /// for a later call of the thread that will never come. (The C and Fortran shells call
    /// this from a thread-local's destructor, only on threads where a callback did not
    /// return.)
    pub(crate) fn thread_ends(&self) {
        let thread = lock::current_thread();
        if let Ok(mut state) = self.state.lock() {
            state.recover_where(|f| f.thread == thread);
        }
    }

    /// Whether a keyval with a callback has ever been made: only then can a call run user
    /// code, and need [`note_call_entry`].
    #[inline(always)]
    pub(crate) fn has_callbacks(&self) -> bool {
        self.callbacks.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Frees a keyval of `kind`: now if no attribute uses it, else when the last one goes.
    /// Freeing a freed keyval that attributes still use succeeds and does nothing.
    ///
    /// ```
    /// use mpiattr::{Comm, Error, ErrorClass, Language, ObjectKind, ThreadLevel, Universe};
    /// # use mpiattr::{CopyAction, DeleteAction, KeyvalSpec};
    /// # let spec = KeyvalSpec {
    /// #     kind: ObjectKind::Comm,
    /// #     language: Language::C,
    /// #     copy: CopyAction::Null,
    /// #     delete: DeleteAction::Null,
    /// # };
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let keyval = universe.create_keyval(spec)?; // a communicator keyval without callbacks
    /// universe.set_attr(Comm::WORLD, keyval, Language::C, 7)?;
    /// universe.free_keyval(ObjectKind::Comm, keyval)?;
    /// // Still in use: the value can be read (and deleted), no new value set.
    /// assert_eq!(universe.get_attr(Comm::WORLD, keyval, Language::C)?, Some(7));
    /// assert_eq!(universe.set_attr(Comm::WORLD, keyval, Language::C, 8), Err(Error::FreedKeyval));
    /// // Its last value goes, and the keyval with it: every use now fails.
    /// universe.delete_attr(Comm::WORLD, keyval)?;
    /// let error = universe.get_attr(Comm::WORLD, keyval, Language::C).unwrap_err();
    /// assert_eq!(error.class(), ErrorClass::Keyval);
    /// assert_eq!(universe.free_keyval(ObjectKind::Comm, keyval), Err(Error::InvalidKeyval));
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn free_keyval(&self, kind: ObjectKind, keyval: Keyval) -> Result<()> {
        let mut state = self.lock()?;
        state.keyvals.free(keyval, kind)?;
        if state.keyvals.held_is_freed(keyval) {
            // Its values live on, and none may be set with it any more: each of its entries
            // says so itself, so that a set over a value needs no look at the keyval.
            for object in state.objects[kind.slot()].values_mut() {
                object.attrs.mark_keyval_freed(keyval);
            }
        }
        Ok(())
    }

    /// The number of keyvals alive (predefined ones included).
    pub fn keyval_count(&self) -> Result<usize> {
        Ok(self.lock()?.keyvals.len())
    }

    // ---- attributes ---------------------------------------------------------------------

    /// Reads the value `keyval` has on `object`, as a reader in `view` sees it (attributes.md §3).
    /// `Ok(None)` when there is none. The Fortran INTEGER view comes sign-extended.
    ///
    /// ```
    /// use mpiattr::{Comm, Language, ThreadLevel, Universe};
    /// # use mpiattr::{CopyAction, DeleteAction, KeyvalSpec, ObjectKind};
    /// # let spec = KeyvalSpec {
    /// #     kind: ObjectKind::Comm,
    /// #     language: Language::C,
    /// #     copy: CopyAction::Null,
    /// #     delete: DeleteAction::Null,
    /// # };
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let keyval = universe.create_keyval(spec)?; // a communicator keyval without callbacks
    /// assert_eq!(universe.get_attr(Comm::WORLD, keyval, Language::C)?, None);
    /// universe.set_attr(Comm::WORLD, keyval, Language::C, 0x1000)?;
    /// assert_eq!(universe.get_attr(Comm::WORLD, keyval, Language::C)?, Some(0x1000));
    /// // Values belong to one object: MPI_COMM_SELF has none.
    /// assert_eq!(universe.get_attr(Comm::SELF, keyval, Language::C)?, None);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    #[inline(always)]
    pub fn get_attr<O: Object>(
        &self,
        object: O,
        keyval: Keyval,
        view: Language,
    ) -> Result<Option<Word>> {
        let (kind, id) = (O::KIND, object.id());
        {
            // A value the object has, as readers see it without a new cell: shared access.
            let state = self.state.read()?;
            let seen = state
                .table(kind)
                .get(id)
                .and_then(|data| data.attrs.get(keyval))
                .and_then(|entry| state.peek(kind, id, entry, view));
            if let Some(word) = seen {
                return Ok(Some(word));
            }
        }
        let mut state = self.lock()?;
        let seen = state
            .table(kind)
            .get(id)
            .and_then(|data| data.attrs.get(keyval))
            .map(|entry| state.peek(kind, id, entry, view));
        match seen {
            Some(Some(word)) => Ok(Some(word)),
            Some(None) => state.read(kind, id, keyval, view),
            None => Self::get_attr_otherwise(&state, kind, id, keyval, view),
        }
    }

    // The common cases of get, set and delete, for the C and Fortran shells: under
    // ThreadLevel::Single, on the owning thread, without any call. Each returns `None` for
    // every other case (errors included), which the full operation then handles.

    /// [`Universe::get_attr`] of a user keyval: `Some(None)` if the object has no value.
    /// `object` names the object, or declines (`None`); it runs after the gate, so that a
    /// call the gate turns away spends nothing on it. With `threaded`, the same under
    /// [`ThreadLevel::Multiple`], from a thread that holds its reader slot (see
    /// [`Universe::with_process_fence`]).
    #[inline(always)]
    pub(crate) fn get_attr_fast<O: Object>(
        &self,
        object: impl FnOnce() -> Option<O>,
        keyval: Keyval,
        view: Language,
        threaded: bool,
    ) -> Option<Option<Word>> {
        // A read: a look that does not mark the gate held (nothing in it can re-enter).
        let arguments = (object, keyval, view);
        if threaded {
            self.state
                .peek_held_with(Self::get_in_named::<O, true>, arguments)?
        } else {
            self.state
                .peek_single_with(Self::get_in_named::<O, false>, arguments)?
        }
    }

    #[inline(always)]
    fn get_in_named<O: Object, const PROBE_IN_LINE: bool>(
        state: &State,
        (object, keyval, view): (impl FnOnce() -> Option<O>, Keyval, Language),
    ) -> Option<Option<Word>> {
        Self::get_in::<PROBE_IN_LINE>(state, O::KIND, object()?.id(), keyval, view)
    }

    /// [`Universe::get_attr_fast`] of the object at a table index, if `accept` takes its
    /// identity (how Fortran integers, which keep only a few bits of the generation, name
    /// objects).
    #[inline(always)]
    pub(crate) fn get_attr_fast_at<O: Object>(
        &self,
        index: u32,
        accept: impl FnOnce(Id) -> bool,
        keyval: Keyval,
        view: Language,
    ) -> Option<Option<Word>> {
        self.state
            .peek_single_with(Self::get_in_index, (O::KIND, index, accept, keyval, view))?
    }

    #[inline(always)]
    fn get_in_index(
        state: &State,
        (kind, index, accept, keyval, view): (
            ObjectKind,
            u32,
            impl FnOnce(Id) -> bool,
            Keyval,
            Language,
        ),
    ) -> Option<Option<Word>> {
        let id = state.table(kind).id_at(index).filter(|id| accept(*id))?;
        // The probe after the rest, as C's: the Fortran gets measured up to 8 % faster so,
        // and nowhere slower, at 1 to 1024 attributes than with it in line (performance.md).
        Self::get_in::<false>(state, kind, id, keyval, view)
    }

    /// The get under the gate; with `PROBE_IN_LINE`, a hashed set's probe is laid out in line
    /// ([`AttrSet::get_probing_in_line`]), else after the rest ([`AttrSet::get`]).
    #[inline(always)]
    fn get_in<const PROBE_IN_LINE: bool>(
        state: &State,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        view: Language,
    ) -> Option<Option<Word>> {
        let data = state.table(kind).get(id)?;
        let found = if PROBE_IN_LINE {
            data.attrs.get_probing_in_line(keyval)
        } else {
            data.attrs.get(keyval)
        };
        match found {
            // A C reader of a Fortran value gets its cell: found the whole way, so that the
            // fast path makes no call (and needs no registers saved for one).
            Some(entry) if entry.tag() != Language::C && view == Language::C => None,
            Some(entry) => Some(Some(value::view(entry.tag(), entry.word as Word, 0, view))),
            None => state.keyvals.is_live_user(keyval, kind).then_some(None),
        }
    }

    /// [`Universe::set_attr`] where no delete callback is due: a new value, or one replacing
    /// a value whose keyval has no delete callback. (A Fortran value allocates its cell.)
    /// Like the get, it calls nothing that could reach the lock, so the gate is not marked.
    #[inline(always)]
    pub(crate) fn set_attr_fast<O: Object>(
        &self,
        object: O,
        keyval: Keyval,
        language: Language,
        word: Word,
    ) -> Option<()> {
        self.state.poke_single_with(
            Self::set_in_at,
            (O::KIND, object.id(), keyval, language, word),
        )?
    }

    #[inline(always)]
    fn set_in_at(
        state: &mut State,
        (kind, id, keyval, language, word): (ObjectKind, Id, Keyval, Language, Word),
    ) -> Option<()> {
        Self::set_in(state, kind, id, keyval, language, word)
    }

    /// [`Universe::set_attr_fast`] of the object at a table index, if `accept` takes its
    /// identity (see [`Universe::get_attr_fast_at`]).
    #[inline(always)]
    pub(crate) fn set_attr_fast_at<O: Object>(
        &self,
        index: u32,
        accept: impl FnOnce(Id) -> bool,
        keyval: Keyval,
        language: Language,
        word: Word,
    ) -> Option<()> {
        self.state.poke_single_with(
            Self::set_in_index,
            (O::KIND, index, accept, keyval, language, word),
        )?
    }

    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn set_in_index(
        state: &mut State,
        (kind, index, accept, keyval, language, word): (
            ObjectKind,
            u32,
            impl FnOnce(Id) -> bool,
            Keyval,
            Language,
            Word,
        ),
    ) -> Option<()> {
        let id = state.table(kind).id_at(index).filter(|id| accept(*id))?;
        Self::set_in(state, kind, id, keyval, language, word)
    }

    #[inline(always)]
    fn set_in(
        state: &mut State,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        language: Language,
        word: Word,
    ) -> Option<()> {
        let (attrs, keyvals, spare) = state.attrs_of(kind, id)?;
        let stored = language.stored_word(word) as usize;
        // The entry vouches for the keyval (live, of this kind) and knows its actions.
        let Some(slot) = attrs.slot_of(keyval) else {
            // A new value: the keyval's record says whether it may take one, and its actions.
            let actions = keyvals.settable(keyval, kind)?.actions();
            keyvals.acquire(keyval);
            attrs.insert(keyval, actions, language, stored, spare);
            return Some(());
        };
        let present = attrs.at(slot);
        if present.has_delete_callback()
            || present.deleting()
            || present.has_cell()
            || present.keyval_freed()
        {
            return None;
        }
        attrs.replace_at(slot, language, stored);
        Some(())
    }

    /// [`Universe::delete_attr`] where no delete callback is due (calling nothing, as the
    /// set).
    #[inline(always)]
    pub(crate) fn delete_attr_fast<O: Object>(&self, object: O, keyval: Keyval) -> Option<()> {
        self.state
            .poke_single_with(Self::delete_in, (O::KIND, object.id(), keyval))?
    }

    /// [`Universe::delete_attr_fast`]'s cases that need no search: nothing to delete, the
    /// value the first of a small set (its keyval not freed: the release then only counts),
    /// or in its home slot in a hashed set. `Some(true)`: done; `Some(false)`: nothing done,
    /// search ([`Universe::delete_attr_fast`]); `None`: the whole way. Inlined into the C
    /// shells' entry points with nothing else in line that needs a register saved (a hashed
    /// set's removal is a call, after which nothing is kept).
    #[inline(always)]
    pub(crate) fn delete_attr_first<O: Object>(&self, object: O, keyval: Keyval) -> Option<bool> {
        self.state
            .poke_single_with(Self::delete_first_in, (O::KIND, object.id(), keyval))?
    }

    #[inline(always)]
    fn delete_first_in(
        state: &mut State,
        (kind, id, keyval): (ObjectKind, Id, Keyval),
    ) -> Option<bool> {
        let (attrs, keyvals, spare) = state.attrs_of(kind, id)?;
        if attrs.len() == 0 {
            return keyvals.is_live_user(keyval, kind).then_some(true);
        }
        let Some(e) = attrs.first_small(keyval) else {
            // A hashed set's entry in its home slot goes out of line, with its release; any
            // other is searched for.
            let Some(slot) = attrs.at_home(keyval) else {
                return Some(false);
            };
            if !attrs.at(slot).deletes_quietly() {
                return None;
            }
            attrs.remove_hashed(slot, spare, move || keyvals.release_one(keyval));
            return Some(true);
        };
        if !e.deletes_quietly() {
            return None;
        }
        if e.keyval_freed() {
            // Its last value may take the keyval with it: the search path's release.
            return Some(false);
        }
        attrs.remove_small(0);
        keyvals.release_unfreed(keyval);
        Some(true)
    }

    #[inline(always)]
    fn delete_in(state: &mut State, (kind, id, keyval): (ObjectKind, Id, Keyval)) -> Option<()> {
        let (attrs, keyvals, spare) = state.attrs_of(kind, id)?;
        let Some(slot) = attrs.slot_of(keyval) else {
            // Nothing to delete: done if the keyval is a live one of this kind.
            return keyvals.is_live_user(keyval, kind).then_some(());
        };
        // The entry vouches for the keyval (live, of this kind).
        let e = attrs.at(slot);
        if !e.deletes_quietly() {
            return None;
        }
        attrs.remove_at(
            slot,
            spare,
            #[inline(always)]
            move || keyvals.release_one(keyval),
        );
        Some(())
    }

    /// `get_attr` when the object has no user attribute for the keyval: a predefined value,
    /// none, or an error.
    #[cold]
    #[inline(never)]
    fn get_attr_otherwise(
        state: &State,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        view: Language,
    ) -> Result<Option<Word>> {
        let data = state.object(kind, id)?;
        if keyval.is_predefined() {
            let values = data.predefined_values.as_ref();
            if let Some(word) = values.and_then(|v| v.view(kind, keyval, view)) {
                return Ok(Some(word));
            }
        }
        state.keyvals.lookup(keyval, kind)?;
        Ok(None)
    }

    /// Sets a value as a call in `language` would; an existing value is deleted first (its
    /// delete callback runs, and if that fails the old value stays).
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use mpiattr::{AnyObject, Comm, CopyAction, DeleteAction, Keyval, KeyvalSpec, Language};
    /// use mpiattr::{ObjectKind, ThreadLevel, Universe, Word};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let deleted = Arc::new(Mutex::new(Vec::new()));
    /// let log = deleted.clone();
    /// let keyval = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Null,
    ///     delete: DeleteAction::Call(Arc::new(
    ///         move |_: &Universe, _: AnyObject, _: Keyval, value: Word| {
    ///             log.lock().unwrap().push(value);
    ///             Ok(())
    ///         },
    ///     )),
    /// })?;
    /// universe.set_attr(Comm::WORLD, keyval, Language::C, 1)?;
    /// universe.set_attr(Comm::WORLD, keyval, Language::C, 2)?; // 1 is deleted first
    /// assert_eq!(universe.get_attr(Comm::WORLD, keyval, Language::C)?, Some(2));
    /// assert_eq!(*deleted.lock().unwrap(), [1]);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn set_attr<O: Object>(
        &self,
        object: O,
        keyval: Keyval,
        language: Language,
        word: Word,
    ) -> Result<()> {
        let (kind, id) = (O::KIND, object.id());
        loop {
            {
                let mut state = self.lock()?;
                // The object first, then the keyval, as every call checks them.
                let data = state.object(kind, id)?;
                let record = state.keyvals.lookup_user(keyval, kind)?;
                if record.freed {
                    return Err(Error::FreedKeyval);
                }
                let silent = matches!(record.spec.delete, DeleteAction::Null);
                match data.attrs.get(keyval).map(Entry::deleting) {
                    None => {
                        return state.attach(kind, id, keyval, Stored::new(language, word));
                    }
                    Some(deleting) if silent || deleting => {
                        // No callback to run, or the deletion under way counts as the old
                        // value's one call: replace it, as newest.
                        return state.replace(kind, id, keyval, Stored::new(language, word));
                    }
                    Some(_) => {}
                }
            }
            // The old value's delete callback runs unlocked; if it succeeds, the new value
            // takes its place in the same critical section, so no reader ever sees neither.
            let replacement = Stored::new(language, word);
            if let Deleted::Replaced = self.delete_value(kind, id, keyval, Some(replacement))? {
                return Ok(());
            }
            // The attribute changed while the callback ran: start over with what is there.
        }
    }

    /// Deletes the value `keyval` has on `object`, running its delete callback. Succeeds and
    /// does nothing if there is none.
    ///
    /// ```
    /// use mpiattr::{Comm, Error, Keyval, Language, ThreadLevel, Universe};
    /// # use mpiattr::{CopyAction, DeleteAction, KeyvalSpec, ObjectKind};
    /// # let spec = KeyvalSpec {
    /// #     kind: ObjectKind::Comm,
    /// #     language: Language::C,
    /// #     copy: CopyAction::Null,
    /// #     delete: DeleteAction::Null,
    /// # };
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let keyval = universe.create_keyval(spec)?; // a communicator keyval without callbacks
    /// universe.set_attr(Comm::WORLD, keyval, Language::C, 42)?;
    /// universe.delete_attr(Comm::WORLD, keyval)?;
    /// assert_eq!(universe.get_attr(Comm::WORLD, keyval, Language::C)?, None);
    /// universe.delete_attr(Comm::WORLD, keyval)?; // nothing left to delete: no error
    /// // Predefined values are never deleted on their own.
    /// assert_eq!(universe.delete_attr(Comm::WORLD, Keyval::TAG_UB), Err(Error::PredefinedKeyval));
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn delete_attr<O: Object>(&self, object: O, keyval: Keyval) -> Result<()> {
        {
            let state = self.lock()?;
            state.object(O::KIND, object.id())?;
            state.keyvals.lookup_user(keyval, O::KIND)?;
        }
        self.delete_value(O::KIND, object.id(), keyval, None)
            .map(|_| ())
    }

    /// Runs the delete callback of one value, with no lock held, and if it succeeds removes
    /// the value, or puts `replacement` in its place (as newest) in the same critical
    /// section. A failure keeps the value.
    fn delete_value(
        &self,
        kind: ObjectKind,
        id: Id,
        keyval: Keyval,
        replacement: Option<Stored>,
    ) -> Result<Deleted> {
        // In this frame, which runs the callback (see `InFlight`).
        let frame = 0u8;
        let (callback, language, value, marker) = {
            let mut state = self.lock()?;
            let data = state.object(kind, id)?;
            // Gone already (a callback deleted it; its keyval may be gone too), or being
            // deleted by an enclosing call.
            let Some(entry) = data.attrs.get(keyval) else {
                return Ok(Deleted::Nothing);
            };
            if entry.deleting() {
                return Ok(Deleted::Nothing);
            }
            let record = state.keyvals.held(keyval);
            let action = record.spec.delete.clone();
            let language = record.spec.language;
            match action {
                DeleteAction::Null => {
                    return Ok(state.finish_delete(kind, id, keyval, replacement))
                }
                DeleteAction::Call(callback) => {
                    // The held value keeps a Fortran value's cell alive while the callback
                    // looks at it, whatever the callback does to the attribute.
                    let value = state.held(kind, id, keyval, language)?;
                    let entry = state.object_mut(kind, id)?.attrs.get_mut(keyval);
                    entry.expect("just found").set_deleting(true);
                    let marker = state.begin_callback(
                        HalfDone::Delete { kind, id, keyval },
                        std::hint::black_box(&frame),
                    );
                    (callback, language, value, marker)
                }
            }
        };
        let outcome = returning_to_this_call(|| {
            catch_unwind(AssertUnwindSafe(|| {
                callback.delete(self, AnyObject::new(kind, id), keyval, value.view(language))
            }))
        });
        let mut state = self.lock()?;
        state.end_callback(marker);
        let outcome = match outcome {
            Ok(outcome) => outcome,
            // A callback that panicked ends as one that failed (the value stays), then the
            // panic goes on to the caller.
            Err(panic) => {
                let entry = state
                    .object_mut(kind, id)
                    .ok()
                    .and_then(|data| data.attrs.get_mut(keyval));
                if let Some(entry) = entry.filter(|entry| entry.deleting()) {
                    entry.set_deleting(false);
                }
                drop(state);
                resume_unwind(panic)
            }
        };
        let Ok(data) = state.object_mut(kind, id) else {
            return Ok(Deleted::Nothing);
        };
        let ours = data.attrs.get(keyval).is_some_and(Entry::deleting);
        match outcome {
            Ok(()) if ours => Ok(state.finish_delete(kind, id, keyval, replacement)),
            // Replaced inside the callback: that value is not ours to touch.
            Ok(()) => Ok(Deleted::Nothing),
            Err(code) => {
                if ours {
                    if let Some(entry) = data.attrs.get_mut(keyval) {
                        entry.set_deleting(false);
                    }
                }
                Err(Error::Callback {
                    kind: "delete",
                    code,
                })
            }
        }
    }

    /// Deletes every user attribute of an object, newest first, until none is left or a
    /// callback fails; every value is tried once. Returns the first failure. Predefined
    /// values stay: they go with the object.
    fn delete_all(&self, kind: ObjectKind, id: Id) -> Result<()> {
        {
            // Without delete callbacks nothing is observable: every value goes at once.
            let mut state = self.lock()?;
            if !state.has_delete_callbacks(kind, id)? {
                state.drop_user_attributes(kind, id);
                return Ok(());
            }
        }
        let mut failed: Vec<Keyval> = Vec::new();
        let mut first_error = None;
        loop {
            let pending: Vec<Keyval> = {
                let state = self.lock()?;
                let attrs = &state.object(kind, id)?.attrs;
                let mut pending = attrs.keyvals_by_age();
                pending.reverse();
                pending.retain(|k| {
                    !failed.contains(k) && attrs.get(*k).is_some_and(|e| !e.deleting())
                });
                pending
            };
            if pending.is_empty() {
                break;
            }
            for keyval in pending {
                if let Err(error) = self.delete_value(kind, id, keyval, None) {
                    failed.push(keyval);
                    first_error.get_or_insert(error);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    // ---- duplication and free ---------------------------------------------------------------

    /// Copies the attributes of `source` onto the new object `target`, in the order they were
    /// set, calling copy callbacks with no lock held. On failure the caller discards `target`;
    /// a callback that panicked fails the copy, with nothing left pinned, and leaves its panic
    /// in `unwound` for the caller to go on unwinding once `target` is gone.
    fn copy_attributes(
        &self,
        kind: ObjectKind,
        source: Id,
        target: Id,
        unwound: &mut Option<Unwound>,
    ) -> Result<()> {
        // In this frame, which calls down to the callbacks (see `InFlight`).
        let frame = 0u8;
        let (order, marker) = {
            let mut state = self.lock()?;
            let order = state.object(kind, source)?.attrs.keyvals_by_age();
            // Pinned: a callback freeing a keyval cannot make it vanish under the copy.
            for keyval in &order {
                state.keyvals.acquire(*keyval);
            }
            let pinned = order.clone();
            let marker = state.begin_callback(
                HalfDone::Copy {
                    kind,
                    target,
                    pinned,
                },
                std::hint::black_box(&frame),
            );
            (order, marker)
        };
        let copied = catch_unwind(AssertUnwindSafe(|| {
            order
                .iter()
                .try_for_each(|&keyval| self.copy_one(kind, source, target, keyval))
        }));
        let mut state = self.lock()?;
        state.end_callback(marker);
        for keyval in order {
            state.keyvals.release(keyval);
        }
        copied.unwrap_or_else(|panic| {
            *unwound = Some(Unwound(panic));
            Err(Error::Internal("a copy callback panicked"))
        })
    }

    /// Copies one value onto the new object. If the new object already holds a value for the
    /// keyval when the copy lands (a callback set one through the new object's handle), the
    /// copy replaces it as a set would: that value's delete callback runs first. An object
    /// never holds two values for one keyval.
    fn copy_one(&self, kind: ObjectKind, source: Id, target: Id, keyval: Keyval) -> Result<()> {
        let copy = {
            let mut state = self.lock()?;
            let Ok(data) = state.object(kind, source) else {
                return Ok(());
            };
            if data.attrs.get(keyval).is_none() {
                return Ok(());
            }
            let record = state.keyvals.lookup(keyval, kind)?;
            let (copy, language) = (record.spec.copy.clone(), record.spec.language);
            let value = state.held(kind, source, keyval, language)?;
            match copy {
                CopyAction::Null => return Ok(()),
                CopyAction::Dup => {
                    let copy = value.duplicate();
                    if state.object(kind, target)?.attrs.get(keyval).is_none() {
                        return state.attach(kind, target, keyval, copy);
                    }
                    copy
                }
                CopyAction::Call(callback) => {
                    drop(state);
                    let shown = value.view(language);
                    let copied = returning_to_this_call(|| {
                        callback.copy(self, AnyObject::new(kind, source), keyval, shown)
                    });
                    match copied {
                        Err(code) => return Err(Error::Callback { kind: "copy", code }),
                        Ok(None) => return Ok(()),
                        Ok(Some(produced)) => value.copied(language, shown, produced),
                    }
                }
            }
        };
        {
            let mut state = self.lock()?;
            if state.object(kind, target)?.attrs.get(keyval).is_none() {
                return state.attach(kind, target, keyval, copy);
            }
        }
        self.delete_value(kind, target, keyval, Some(copy))
            .map(drop)
    }

    /// Duplicates an object: a new one of the same detail, with attributes copied by their
    /// keyvals' copy actions. Without copy callbacks the copies are made in the same critical
    /// section as the object, in one pass; otherwise one by one, in the order they were set.
    /// On failure every copy made so far is deleted with its delete callback and nothing is
    /// left behind.
    fn dup_object(&self, kind: ObjectKind, source: Id) -> Result<Id> {
        self.dup_object_then(kind, source, |_| ())
    }

    /// [`Universe::dup_object`], calling `made` with the new object as soon as it exists,
    /// before any copy callback runs (and with no lock held).
    pub(crate) fn dup_object_then(
        &self,
        kind: ObjectKind,
        source: Id,
        made: impl FnOnce(Id),
    ) -> Result<Id> {
        let target = {
            let mut state = self.lock()?;
            let data = state.object(kind, source)?;
            state.room(kind)?;
            let detail = match &data.detail {
                Detail::Comm { .. } => Detail::Comm { name: Vec::new() },
                Detail::Datatype {
                    map,
                    dups,
                    committed,
                    fast,
                    ..
                } => Detail::datatype_dup(map, *dups, *committed, *fast)?,
                Detail::Win { .. } => return Err(Error::Internal("windows cannot be duplicated")),
            };
            let mut copy = ObjectData::new(detail, data.errhandler);
            // MPI_COMM_WORLD's predefined attributes copy as with MPI_COMM_DUP_FN.
            copy.predefined_values = data.predefined_values.clone();
            // Without attributes there is nothing to copy (and no second lookup).
            let attrs = if data.attrs.holds_nothing() {
                Some(AttrSet::default())
            } else {
                state.duplicate_attributes(kind, source)?
            };
            if let Some(attrs) = attrs {
                copy.attrs = attrs;
                let target = state.insert(kind, copy)?;
                drop(state);
                made(target);
                return Ok(target);
            }
            state.insert(kind, copy)?
        };
        made(target);
        let mut unwound = None;
        let Err(error) = self.copy_attributes(kind, source, target, &mut unwound) else {
            return Ok(target);
        };
        // The copies made so far are deleted with their callbacks; if one refuses (or
        // panics), the half-made object still goes, without it.
        let freed = catch_unwind(AssertUnwindSafe(|| self.free_object(kind, target)));
        if !matches!(freed, Ok(Ok(()))) {
            self.lock()?.discard(kind, target);
        }
        if let Some(Unwound(panic)) = unwound {
            resume_unwind(panic);
        }
        if let Err(panic) = freed {
            resume_unwind(panic);
        }
        Err(error)
    }

    /// Frees an object after deleting its attributes newest first. Without delete callbacks
    /// it all happens in one critical section. If a delete callback fails, the others are
    /// still tried, the failed values stay, and the object stays valid.
    fn free_object(&self, kind: ObjectKind, id: Id) -> Result<()> {
        // In this frame, which calls down to the callbacks (see `InFlight`).
        let frame = 0u8;
        let marker = {
            let mut state = self.lock()?;
            let data = state.object_mut(kind, id)?;
            if data.predefined {
                return Err(Error::PredefinedObject(kind));
            }
            if data.freeing {
                return Err(Error::BeingFreed(kind));
            }
            if data.attrs.holds_nothing() || !state.has_delete_callbacks(kind, id)? {
                state.discard(kind, id);
                return Ok(());
            }
            state.object_mut(kind, id)?.freeing = true;
            state.begin_callback(HalfDone::Free { kind, id }, std::hint::black_box(&frame))
        };
        let deleted = catch_unwind(AssertUnwindSafe(|| self.delete_all(kind, id)));
        let mut state = self.lock()?;
        state.end_callback(marker);
        // After a callback panicked, the object stays valid with the values not yet deleted,
        // as after one that failed, and the panic goes on to the caller.
        let data = match (state.object_mut(kind, id), deleted) {
            (Ok(data), Ok(deleted)) => {
                data.freeing = false;
                deleted?;
                data
            }
            (Ok(data), Err(panic)) => {
                data.freeing = false;
                drop(state);
                resume_unwind(panic)
            }
            (Err(error), Ok(_)) => return Err(error),
            (Err(_), Err(panic)) => {
                drop(state);
                resume_unwind(panic)
            }
        };
        if data.has_user_attributes() {
            // A value whose deletion is under way in an enclosing call.
            return Err(Error::BeingFreed(kind));
        }
        state.discard(kind, id);
        Ok(())
    }

    // ---- communicators ----------------------------------------------------------------------

    /// MPI_Comm_dup (also _dup_with_info and _idup).
    ///
    /// Each attribute is copied as its keyval's [`CopyAction`] says; a copy callback returns
    /// the new object's value, or `None` for no value.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mpiattr::{AnyObject, Comm, CopyAction, DeleteAction, Keyval, KeyvalSpec, Language};
    /// use mpiattr::{ObjectKind, ThreadLevel, Universe, Word};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let generation = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Call(Arc::new(
    ///         |_: &Universe, _: AnyObject, _: Keyval, value: Word| Ok(Some(value + 1)),
    ///     )),
    ///     delete: DeleteAction::Null,
    /// })?;
    /// universe.set_attr(Comm::WORLD, generation, Language::C, 1)?;
    /// let child = universe.comm_dup(Comm::WORLD)?;
    /// let grandchild = universe.comm_dup(child)?;
    /// assert_eq!(universe.get_attr(child, generation, Language::C)?, Some(2));
    /// assert_eq!(universe.get_attr(grandchild, generation, Language::C)?, Some(3));
    /// assert_eq!(universe.get_attr(Comm::WORLD, generation, Language::C)?, Some(1));
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn comm_dup(&self, comm: Comm) -> Result<Comm> {
        let new = self.dup_object(ObjectKind::Comm, comm.0).map(Comm)?;
        self.copy_comm_hints(comm, new)?;
        Ok(new)
    }

    /// MPI_Comm_idup: the duplicate is complete on return; the request is complete too.
    pub fn comm_idup(&self, comm: Comm) -> Result<(Comm, Request)> {
        if !self.lock()?.requests.has_room() {
            return Err(Error::TooManyObjects("request"));
        }
        let new = self.comm_dup(comm)?;
        match self.lock()?.requests.insert(requests::RequestData::plain()) {
            Some(request) => Ok((new, Request(request))),
            None => {
                // Another thread took the last slot meanwhile.
                self.comm_free(new)?;
                Err(Error::TooManyObjects("request"))
            }
        }
    }

    /// Frees a request whatever its state, without reporting it (what the shells' MPI_Wait,
    /// MPI_Test and MPI_Request_free did for `MPI_Comm_idup`'s requests; see
    /// [`Universe::wait`] and [`Universe::request_free`] for the full ones).
    pub fn request_complete(&self, request: Request) -> Result<()> {
        let mut state = self.lock()?;
        let data = state
            .requests
            .remove(request.0)
            .ok_or(Error::InvalidRequest)?;
        state.forget_request(request.0, &data.kind);
        Ok(())
    }

    /// MPI_Comm_split: `None` for a process that does not take part (colour MPI_UNDEFINED).
    /// The new communicator has no attributes.
    pub fn comm_split(&self, comm: Comm, participate: bool) -> Result<Option<Comm>> {
        let mut state = self.lock()?;
        let errhandler = state.object(ObjectKind::Comm, comm.0)?.errhandler;
        if !participate {
            return Ok(None);
        }
        let data = ObjectData::new(Detail::Comm { name: Vec::new() }, errhandler);
        Ok(Some(Comm(state.insert(ObjectKind::Comm, data)?)))
    }

    /// MPI_Comm_free.
    ///
    /// The communicator's attributes are deleted first, newest first, each delete callback
    /// running once; if one fails, the call fails and the communicator stays.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use mpiattr::{AnyObject, Comm, CopyAction, DeleteAction, Keyval, KeyvalSpec, Language};
    /// use mpiattr::{ObjectKind, ThreadLevel, Universe, Word};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let log = Arc::new(Mutex::new(Vec::new()));
    /// let seen = log.clone();
    /// let keyval = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Null,
    ///     delete: DeleteAction::Call(Arc::new(
    ///         move |_: &Universe, object: AnyObject, _: Keyval, value: Word| {
    ///             seen.lock().unwrap().push((object, value));
    ///             Ok(())
    ///         },
    ///     )),
    /// })?;
    /// let comm = universe.comm_dup(Comm::WORLD)?;
    /// universe.set_attr(comm, keyval, Language::C, 7)?;
    /// universe.comm_free(comm)?;
    /// assert_eq!(*log.lock().unwrap(), [(AnyObject::Comm(comm), 7)]);
    /// assert!(!universe.is_valid(comm)?);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn comm_free(&self, comm: Comm) -> Result<()> {
        self.free_object(ObjectKind::Comm, comm.0)?;
        let mut state = self.lock()?;
        // Most programs set no hints: no hashing then.
        if !state.comm_hints.is_empty() {
            state.comm_hints.remove(&comm.0);
        }
        Ok(())
    }

    /// Whether a handle names a live object.
    pub fn is_valid<O: Object>(&self, object: O) -> Result<bool> {
        Ok(self.lock()?.object(O::KIND, object.id()).is_ok())
    }

    /// The communicator's name, the bytes it was given (empty if never set).
    pub fn comm_name(&self, comm: Comm) -> Result<Vec<u8>> {
        match &self.lock()?.object(ObjectKind::Comm, comm.0)?.detail {
            Detail::Comm { name } => Ok(name.clone()),
            _ => Err(Error::InvalidHandle(
                ObjectKind::Comm,
                HandleProblem::Unknown,
            )),
        }
    }

    /// Sets the communicator's name: any bytes, kept as they are (the shells cut them to
    /// MPI_MAX_OBJECT_NAME - 1).
    pub fn set_comm_name(&self, comm: Comm, new_name: &[u8]) -> Result<()> {
        match &mut self.lock()?.object_mut(ObjectKind::Comm, comm.0)?.detail {
            Detail::Comm { name } => {
                *name = new_name.to_vec();
                Ok(())
            }
            _ => Err(Error::InvalidHandle(
                ObjectKind::Comm,
                HandleProblem::Unknown,
            )),
        }
    }

    // ---- datatypes ----------------------------------------------------------------------------

    /// How many datatypes are predefined: they hold the first indices of the datatype table.
    pub(crate) const PREDEFINED_DATATYPES: u32 = datatypes::PREDEFINED.len() as u32;

    /// The predefined datatype whose C handle value is `handle`, if any.
    #[inline(always)]
    pub fn predefined_datatype(handle: usize) -> Option<Datatype> {
        datatypes::index_of_handle(handle).map(|index| Datatype(predefined_id(index)))
    }

    /// The committed type map of the predefined datatype whose C handle value is `handle`,
    /// without a lock (predefined maps never change).
    #[inline(always)]
    pub fn predefined_datatype_map(handle: usize) -> Option<&'static Arc<typemap::TypeMap>> {
        datatypes::index_of_handle(handle)
            .map(|index| &datatypes::predefined_maps()[index as usize])
    }

    /// The C handle value and name of a predefined datatype.
    pub fn predefined_datatype_handle(datatype: Datatype) -> Option<(usize, &'static str)> {
        if datatype.0.generation() != PREDEFINED_GENERATION {
            return None;
        }
        datatypes::PREDEFINED
            .get(datatype.0.index() as usize)
            .map(|p| (p.handle, p.c_name()))
    }

    /// MPI_Type_dup.
    ///
    /// The Rust API names predefined datatypes by their C handle values
    /// ([`Universe::predefined_datatype`]).
    ///
    /// ```
    /// use mpiattr::{CopyAction, Datatype, DeleteAction, KeyvalSpec, Language, ObjectKind};
    /// use mpiattr::{ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let int: Datatype = Universe::predefined_datatype(0x209).unwrap(); // MPI_INT
    /// assert_eq!(Universe::predefined_datatype_handle(int), Some((0x209, "MPI_INT")));
    /// let keyval = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Datatype,
    ///     language: Language::C,
    ///     copy: CopyAction::Dup,
    ///     delete: DeleteAction::Null,
    /// })?;
    /// universe.set_attr(int, keyval, Language::C, 5)?;
    /// let copy = universe.type_dup(int)?;
    /// assert_eq!(universe.type_size(copy)?, 4);
    /// assert_eq!(universe.get_attr(copy, keyval, Language::C)?, Some(5));
    /// assert_eq!(Universe::predefined_datatype_handle(copy), None);
    /// universe.type_free(copy)?;
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn type_dup(&self, datatype: Datatype) -> Result<Datatype> {
        self.dup_object(ObjectKind::Datatype, datatype.0)
            .map(Datatype)
    }

    /// MPI_Type_contiguous: a new, uncommitted datatype without attributes.
    pub fn type_contiguous(&self, count: usize, old: Datatype) -> Result<Datatype> {
        let count = i64::try_from(count).map_err(|_| Error::InvalidCount)?;
        self.type_build(&[old], |maps| typemap::contiguous(count, &maps[0], false))
    }

    /// MPI_Type_commit: compiles the type map to its flat block list (once).
    pub fn type_commit(&self, datatype: Datatype) -> Result<()> {
        let mut state = self.lock()?;
        if let Detail::Datatype {
            map,
            dups,
            committed,
            fast,
            ..
        } = &mut state.object_mut(ObjectKind::Datatype, datatype.0)?.detail
        {
            map.flat();
            *committed = true;
            *fast = collectives::FastType::of(map);
            if *dups > 0 {
                *fast = fast.map(collectives::FastType::of_duplicate);
            }
        }
        Ok(())
    }

    /// The size in bytes of a datatype a message or collective may use: it must be committed
    /// (predefined datatypes are). Errors: an invalid handle, [`Error::NotCommitted`] (both
    /// `MPI_ERR_TYPE`).
    pub fn type_size_for_transfer(&self, datatype: Datatype) -> Result<u64> {
        Ok(self.type_committed_layout(datatype)?.size())
    }

    /// MPI_Type_size, in bytes.
    pub fn type_size(&self, datatype: Datatype) -> Result<u64> {
        Ok(self.type_layout(datatype)?.size())
    }

    /// MPI_Type_free.
    ///
    /// ```
    /// use mpiattr::{Datatype, Error, ErrorClass, HandleProblem, ObjectKind, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let double: Datatype = Universe::predefined_datatype(0x214).unwrap(); // MPI_DOUBLE
    /// let pair = universe.type_contiguous(2, double)?;
    /// universe.type_free(pair)?;
    /// assert_eq!(
    ///     universe.type_size(pair),
    ///     Err(Error::InvalidHandle(ObjectKind::Datatype, HandleProblem::Freed))
    /// );
    /// // Predefined datatypes cannot be freed.
    /// assert_eq!(universe.type_free(double).unwrap_err().class(), ErrorClass::Type);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn type_free(&self, datatype: Datatype) -> Result<()> {
        self.free_object(ObjectKind::Datatype, datatype.0)
    }

    // ---- windows ------------------------------------------------------------------------------

    fn new_window(
        &self,
        comm: Comm,
        base: usize,
        size: usize,
        disp_unit: u32,
        flavor: WinFlavor,
        memory: Option<Memory>,
    ) -> Result<Win> {
        let mut state = self.lock()?;
        state.object(ObjectKind::Comm, comm.0)?;
        // A new window's handler is MPI_ERRORS_ARE_FATAL, whatever its communicator's.
        let mut data = ObjectData::new(Detail::Win { _memory: memory }, ErrorHandler::Fatal);
        data.predefined_values = Some(predefined::Values::window([
            base as Word,
            size as Word,
            disp_unit as Word,
            flavor.abi_value(),
            crate::abi::MPI_WIN_UNIFIED as Word,
        ]));
        Ok(Win(state.insert(ObjectKind::Win, data)?))
    }

    fn check_window_args(size: isize, disp_unit: i32) -> Result<(usize, u32)> {
        let size = usize::try_from(size).map_err(|_| Error::InvalidSize)?;
        let disp_unit = u32::try_from(disp_unit)
            .ok()
            .filter(|d| *d > 0)
            .ok_or(Error::InvalidDisp)?;
        Ok((size, disp_unit))
    }

    /// MPI_Win_create over memory the caller owns.
    ///
    /// ```
    /// use mpiattr::{Comm, Keyval, Language, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let mut buffer = [0u64; 8];
    /// let base = buffer.as_mut_ptr() as usize;
    /// let win = universe.win_create(Comm::WORLD, base, 64, 8)?;
    /// // The predefined window attributes: MPI_WIN_BASE is a C pointer.
    /// assert_eq!(universe.get_attr(win, Keyval::WIN_BASE, Language::C)?, Some(base as isize));
    /// let disp_unit = universe.get_attr(win, Keyval::WIN_DISP_UNIT, Language::FortranInteger)?;
    /// assert_eq!(disp_unit, Some(8));
    /// universe.win_free(win)?;
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn win_create(&self, comm: Comm, base: usize, size: isize, disp_unit: i32) -> Result<Win> {
        let (size, disp_unit) = Self::check_window_args(size, disp_unit)?;
        self.new_window(comm, base, size, disp_unit, WinFlavor::Create, None)
    }

    /// MPI_Win_allocate: the library allocates `size` zeroed bytes and returns their address
    /// with the window; they are released by [`Universe::win_free`].
    ///
    /// ```
    /// use mpiattr::{Comm, CopyAction, DeleteAction, Keyval, KeyvalSpec, Language, ObjectKind};
    /// use mpiattr::{ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let (win, base) = universe.win_allocate(Comm::WORLD, 100, 4)?;
    /// assert_eq!(base % 16, 0);
    /// let size = universe.get_attr(win, Keyval::WIN_SIZE, Language::FortranAddress)?;
    /// assert_eq!(size, Some(100));
    /// let keyval = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Win,
    ///     language: Language::C,
    ///     copy: CopyAction::Null,
    ///     delete: DeleteAction::Null,
    /// })?;
    /// universe.set_attr(win, keyval, Language::C, 3)?;
    /// assert_eq!(universe.get_attr(win, keyval, Language::C)?, Some(3));
    /// universe.win_free(win)?; // the window, its attribute and its memory go
    /// assert!(!universe.is_valid(win)?);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn win_allocate(&self, comm: Comm, size: isize, disp_unit: i32) -> Result<(Win, usize)> {
        let (size, disp_unit) = Self::check_window_args(size, disp_unit)?;
        let mut memory = Memory::new(size)?;
        let base = memory.address();
        let win = self.new_window(
            comm,
            base,
            size,
            disp_unit,
            WinFlavor::Allocate,
            Some(memory),
        )?;
        Ok((win, base))
    }

    /// MPI_Win_create_dynamic: base MPI_BOTTOM, size 0, displacement unit 1.
    pub fn win_create_dynamic(&self, comm: Comm) -> Result<Win> {
        self.new_window(comm, 0, 0, 1, WinFlavor::Dynamic, None)
    }

    /// MPI_Win_free.
    pub fn win_free(&self, win: Win) -> Result<()> {
        self.free_object(ObjectKind::Win, win.0)
    }

    /// MPI_Alloc_mem: `size` zeroed bytes, 16-byte aligned, never null.
    pub fn alloc_mem(&self, size: usize) -> Result<usize> {
        let mut memory = Memory::new(size)?;
        let address = memory.address();
        let mut state = self.lock()?;
        state.check_live()?;
        state.memory.insert(address, memory);
        Ok(address)
    }

    /// MPI_Free_mem of an address from [`Universe::alloc_mem`].
    pub fn free_mem(&self, address: usize) -> Result<()> {
        self.lock()?
            .memory
            .remove(&address)
            .map(drop)
            .ok_or(Error::InvalidBase)
    }

    // ---- error handlers ---------------------------------------------------------------------

    /// The error handler of a communicator or window.
    pub fn errhandler<O: Object>(&self, object: O) -> Result<ErrorHandler> {
        Ok(self.lock()?.object(O::KIND, object.id())?.errhandler)
    }

    /// Sets the error handler of a communicator or window. A user handler must be live and
    /// of the object's kind (`MPI_ERR_ERRHANDLER`, `MPI_ERR_ARG`); the object is checked
    /// first.
    pub fn set_errhandler<O: Object>(&self, object: O, handler: ErrorHandler) -> Result<()> {
        let mut state = self.lock()?;
        state.object(O::KIND, object.id())?;
        if let ErrorHandler::User(id) = handler {
            let kind = match O::KIND {
                ObjectKind::Win => errhandlers::ErrhandlerKind::Win,
                _ => errhandlers::ErrhandlerKind::Comm,
            };
            state.check_errhandler(id, kind)?;
        }
        state.object_mut(O::KIND, object.id())?.errhandler = handler;
        Ok(())
    }

    // ---- Fortran integers ---------------------------------------------------------------------

    /// The live object at table index `index` (how Fortran integer handles are resolved).
    pub(crate) fn object_at<O: Object>(&self, index: u32) -> Result<Option<O>> {
        Ok(self.lock()?.table(O::KIND).id_at(index).map(O::from_id))
    }

    /// Why a Fortran integer of a kind whose table index is `index` names no live object
    /// (the index is right, the generation is not, or no object is there): freed if an object
    /// ever lived at the index, else unknown.
    pub(crate) fn problem_at(&self, kind: ObjectKind, index: u32) -> Result<HandleProblem> {
        Ok(if self.lock()?.table(kind).was_used(index) {
            HandleProblem::Freed
        } else {
            HandleProblem::Unknown
        })
    }

    /// Ok if `object` is live; else the error saying why not.
    pub fn check<O: Object>(&self, object: O) -> Result<()> {
        self.lock()?.object(O::KIND, object.id()).map(|_| ())
    }

    /// The live group, info object or session at table index `index` (how Fortran integer
    /// handles of those kinds are resolved), and why none is there.
    pub(crate) fn other_at(
        &self,
        kind: OtherKind,
        index: u32,
    ) -> Result<(Option<Id>, HandleProblem)> {
        let state = self.lock()?;
        let (id, used) = match kind {
            OtherKind::Group => (state.groups.id_at(index), state.groups.was_used(index)),
            OtherKind::Info => (state.infos.id_at(index), state.infos.was_used(index)),
            OtherKind::Session => (state.sessions.id_at(index), state.sessions.was_used(index)),
            OtherKind::Op => (state.ops.id_at(index), state.ops.was_used(index)),
        };
        let problem = if used {
            HandleProblem::Freed
        } else {
            HandleProblem::Unknown
        };
        Ok((id, problem))
    }

    /// The live request at table index `index`.
    pub(crate) fn request_at(&self, index: u32) -> Result<Option<Request>> {
        Ok(self.lock()?.requests.id_at(index).map(Request))
    }

    // ---- finalize -----------------------------------------------------------------------------

    /// MPI_Finalize's teardown: deletes MPI_COMM_SELF's attributes newest first, then
    /// MPI_COMM_WORLD's, then those of the predefined datatypes, running delete callbacks;
    /// then releases every object and keyval left, without callbacks. The universe holds
    /// nothing afterwards: every later call fails, with an invalid handle or keyval, or with
    /// [`Error::Finalized`] where it would make something new (a keyval, memory). Reports
    /// the first callback failure, but finishes the teardown regardless.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use mpiattr::{AnyObject, Comm, CopyAction, DeleteAction, Keyval, KeyvalSpec, Language};
    /// use mpiattr::{ErrorClass, ObjectKind, ThreadLevel, Universe, Word};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let log = Arc::new(Mutex::new(Vec::new()));
    /// let seen = log.clone();
    /// let keyval = universe.create_keyval(KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Null,
    ///     delete: DeleteAction::Call(Arc::new(
    ///         move |_: &Universe, object: AnyObject, _: Keyval, value: Word| {
    ///             seen.lock().unwrap().push((object, value));
    ///             Ok(())
    ///         },
    ///     )),
    /// })?;
    /// universe.set_attr(Comm::WORLD, keyval, Language::C, 1)?;
    /// universe.set_attr(Comm::SELF, keyval, Language::C, 2)?;
    /// universe.finalize()?;
    /// let world = AnyObject::Comm(Comm::WORLD);
    /// assert_eq!(*log.lock().unwrap(), [(AnyObject::Comm(Comm::SELF), 2), (world, 1)]);
    /// let after = universe.get_attr(Comm::WORLD, keyval, Language::C).unwrap_err();
    /// assert_eq!(after.class(), ErrorClass::Comm);
    /// let spec = KeyvalSpec {
    ///     kind: ObjectKind::Comm,
    ///     language: Language::C,
    ///     copy: CopyAction::Null,
    ///     delete: DeleteAction::Null,
    /// };
    /// assert_eq!(universe.create_keyval(spec).unwrap_err(), mpiattr::Error::Finalized);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn finalize(&self) -> Result<()> {
        let mut first_error = None;
        let mut order = vec![
            (ObjectKind::Comm, Comm::SELF.0),
            (ObjectKind::Comm, Comm::WORLD.0),
        ];
        order.extend(
            (0..datatypes::PREDEFINED.len() as u32)
                .map(|i| (ObjectKind::Datatype, predefined_id(i))),
        );
        // A callback that panics ends its object's deletions as one that failed would; the
        // others still run, and the panic goes on once the universe is finalized.
        let mut first_panic = None;
        for (kind, id) in order {
            match catch_unwind(AssertUnwindSafe(|| self.delete_all(kind, id))) {
                Ok(Ok(())) => {}
                Ok(Err(error)) => {
                    first_error.get_or_insert(error);
                }
                Err(panic) => {
                    first_panic.get_or_insert(panic);
                }
            }
        }
        // While a session lives, its objects stay (we do not track what comes from where):
        // only MPI_COMM_WORLD and MPI_COMM_SELF go. Else everything else goes without
        // callbacks, and the tables' memory with it (the universe itself may live on in a
        // static after MPI_Finalize), but for what MPI-4.1 §12.4.1 lets a program use at any
        // time: info objects, error handlers, user error classes, codes and strings. A
        // session started later gets the predefined objects anew (State::reopen).
        let mut state = self.lock()?;
        if state.sessions.len() > 0 {
            state.close_world(false);
        } else {
            let mut after = State::empty(Registry::empty());
            after.finalized = true;
            after.keep_from(&mut state);
            let released = std::mem::replace(&mut *state, after);
            drop(state);
            drop(released);
        }
        if let Some(panic) = first_panic {
            resume_unwind(panic);
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Live objects of a kind (predefined ones included).
    pub fn object_count(&self, kind: ObjectKind) -> Result<usize> {
        Ok(self.lock()?.table(kind).len())
    }

    /// How many attributes an object has.
    pub fn attr_count<O: Object>(&self, object: O) -> Result<usize> {
        self.lock()?
            .object(O::KIND, object.id())
            .map(|data| data.attrs.len() + data.predefined_values.as_ref().map_or(0, |v| v.len()))
    }
}

#[cfg(test)]
mod tests;
