//! Handles. C handles: predefined ones have the ABI's small values; every other object's
//! handle encodes its kind, table index and generation, so that NULL, freed and wrong-kind
//! handles are all recognised. Fortran integers (what MPI_Comm_c2f returns and what every
//! Fortran binding takes): predefined handles keep their ABI values; every other object's
//! integer encodes the same three things in the bits a default INTEGER has (see
//! [`FortranBits`]), so Fortran handles are checked as strictly as C ones.

use crate::abi;
use crate::engine::{
    Comm, Datatype, Error, ErrorHandler, Group, HandleProblem, Id, Info, MessageHandle, ObjectKind,
    Op, OtherKind, PredefinedOp, Request, Result, Session, Universe, Win,
};

include!(concat!(env!("OUT_DIR"), "/handle_names.rs"));

/// The C name of a predefined handle value, if it is one.
pub(crate) fn predefined_name(value: usize) -> Option<&'static str> {
    PREDEFINED_HANDLES
        .iter()
        .find(|(v, _)| *v == value)
        .map(|(_, name)| *name)
}

/// Predefined handles are below this; encoded ones far above.
const PREDEFINED_LIMIT: usize = 0x1000;

/// A handle type of the C API and the engine object it names.
pub(crate) trait CHandle: Sized + Copy {
    /// The engine's handle.
    type Object: Copy;
    /// The low bits of an encoded handle of this kind.
    const TAG: usize;
    /// The null handle's value.
    const NULL: usize;
    /// The kind of object, for the engine's tables and error messages (`None`: requests).
    const KIND: Option<ObjectKind>;
    /// How many objects of the kind are predefined: they hold the first table indices with a
    /// generation no encoded handle carries, so only their ABI values name them; an encoded
    /// handle or integer of such an index is refused as never handed out.
    const PREDEFINED_SLOTS: u32;
    fn to_raw(self) -> usize;
    fn from_raw(raw: usize) -> Self;
    fn predefined(raw: usize) -> Option<Self::Object>;
    fn predefined_value(object: Self::Object) -> Option<usize>;
    fn id(object: Self::Object) -> Id;
    fn object(id: Id) -> Self::Object;
    /// The live object at a table index, whatever its generation.
    fn live_at(universe: &Universe, index: u32) -> Result<Option<Self::Object>>;
    /// The error for a handle of this kind that names nothing, and why.
    fn invalid(problem: HandleProblem) -> Error {
        match Self::KIND {
            Some(kind) => Error::InvalidHandle(kind, problem),
            None => Error::InvalidRequest,
        }
    }
    /// Why a Fortran integer of this kind with table index `index` names no live object.
    fn problem_at(universe: &Universe, index: u32) -> Result<HandleProblem> {
        match Self::KIND {
            Some(kind) => universe.problem_at(kind, index),
            None => Ok(HandleProblem::Unknown),
        }
    }
    /// Whether `object` is alive.
    fn is_live(universe: &Universe, object: Self::Object) -> bool;
}

fn encode(tag: usize, id: Id) -> usize {
    ((id.generation() as usize) << 36) | ((id.index() as usize) << 4) | tag
}

/// The error for a handle of kind `H` that names nothing, and why.
#[cold]
fn invalid<H: CHandle>(problem: HandleProblem) -> Error {
    H::invalid(problem)
}

/// What kind of object the low bits of an encoded handle (or of a Fortran integer) stand
/// for.
fn tag_kind(tag: usize) -> HandleProblem {
    match tag {
        1 => HandleProblem::OtherKind("communicator"),
        2 => HandleProblem::OtherKind("datatype"),
        3 => HandleProblem::OtherKind("window"),
        4 => HandleProblem::OtherKind("request"),
        5 => HandleProblem::OtherKind("group"),
        6 => HandleProblem::OtherKind("info"),
        7 => HandleProblem::OtherKind("session"),
        8 => HandleProblem::OtherKind("error handler"),
        9 => HandleProblem::OtherKind("operation"),
        10 => HandleProblem::OtherKind("message"),
        _ => HandleProblem::Unknown,
    }
}

/// Why a value below [`PREDEFINED_LIMIT`] that is no predefined handle of kind `H` names
/// nothing of it.
#[cold]
fn predefined_problem<H: CHandle>(raw: usize) -> Error {
    invalid::<H>(if raw == H::NULL {
        HandleProblem::Null
    } else {
        predefined_name(raw).map_or(HandleProblem::Unknown, HandleProblem::Predefined)
    })
}

/// The engine object a C handle names. Liveness is checked by the engine when it is used.
#[inline(always)]
pub(crate) fn decode<H: CHandle>(handle: H) -> Result<H::Object> {
    decode_fast(handle).ok_or_else(|| decode_problem(handle))
}

/// [`decode`] without the error: `None` where `decode` says why.
#[inline(always)]
fn decode_fast<H: CHandle>(handle: H) -> Option<H::Object> {
    let raw = handle.to_raw();
    if raw >= PREDEFINED_LIMIT {
        return made::<H>(raw);
    }
    H::predefined(raw)
}

/// [`decode_fast`] laid out for a handle the program made, the attribute calls' fast paths':
/// the objects attributes are cached on most often (duplicates) go without a jump, a
/// predefined one takes one. (Every other call decodes through [`decode`], whose handles are
/// most often predefined, `MPI_COMM_WORLD`, `MPI_DOUBLE`, `MPI_SUM`: laid out this way there,
/// a one-double `MPI_Allreduce` took 13.6 ns instead of 8.4.)
#[inline(always)]
pub(crate) fn decode_made_first<H: CHandle>(handle: H) -> Option<H::Object> {
    let raw = handle.to_raw();
    if raw >= PREDEFINED_LIMIT {
        return made::<H>(raw);
    }
    crate::engine::cold_path();
    H::predefined(raw)
}

/// The object of a handle the program made (a value from [`PREDEFINED_LIMIT`] up), if its
/// kind tag is `H`'s.
#[inline(always)]
fn made<H: CHandle>(raw: usize) -> Option<H::Object> {
    if raw & 0xf != H::TAG {
        return None;
    }
    let index = ((raw >> 4) & 0xffff_ffff) as u32;
    let generation = (raw >> 36) as u32;
    Some(H::object(Id::from_parts(index, generation)))
}

/// Why [`decode_fast`] found nothing in a C handle.
#[cold]
fn decode_problem<H: CHandle>(handle: H) -> Error {
    let raw = handle.to_raw();
    if raw >= PREDEFINED_LIMIT {
        invalid::<H>(tag_kind(raw & 0xf))
    } else {
        predefined_problem::<H>(raw)
    }
}

/// The C handle of an engine object.
pub(crate) fn encode_handle<H: CHandle>(object: H::Object) -> H {
    H::from_raw(H::predefined_value(object).unwrap_or_else(|| encode(H::TAG, H::id(object))))
}

/// The null handle of a kind.
pub(crate) fn null<H: CHandle>() -> H {
    H::from_raw(H::NULL)
}

macro_rules! c_handle {
    ($c:ty, $object:ident, tag $tag:expr, null $null:ident, kind $kind:expr,
     predefined slots $slots:expr,
     predefined($raw:ident) $from:block, value($obj:ident) $to:block,
     live_at($universe:ident, $index:ident) $live:expr,
     is_live($u:ident, $o:ident) $is_live:expr) => {
        impl CHandle for $c {
            type Object = $object;
            const TAG: usize = $tag;
            const NULL: usize = abi::$null as usize;
            const KIND: Option<ObjectKind> = $kind;
            const PREDEFINED_SLOTS: u32 = $slots;
            fn to_raw(self) -> usize {
                self as usize
            }
            fn from_raw(raw: usize) -> Self {
                raw as $c
            }
            fn predefined($raw: usize) -> Option<$object> $from
            fn predefined_value($obj: $object) -> Option<usize> $to
            fn id(object: $object) -> Id {
                object.0
            }
            fn object(id: Id) -> $object {
                $object(id)
            }
            fn live_at($universe: &Universe, $index: u32) -> Result<Option<$object>> {
                $live
            }
            fn is_live($u: &Universe, $o: $object) -> bool {
                $is_live
            }
        }
    };
}

c_handle!(abi::MPI_Comm, Comm, tag 1, null MPIATTR_HANDLE_MPI_COMM_NULL,
kind Some(ObjectKind::Comm), predefined slots 2,
predefined(raw) {
    match raw {
        r if r == abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize => Some(Comm::WORLD),
        r if r == abi::MPIATTR_HANDLE_MPI_COMM_SELF as usize => Some(Comm::SELF),
        _ => None,
    }
},
value(comm) {
    if comm == Comm::WORLD {
        Some(abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize)
    } else if comm == Comm::SELF {
        Some(abi::MPIATTR_HANDLE_MPI_COMM_SELF as usize)
    } else {
        None
    }
},
live_at(universe, index) universe.object_at(index),
    is_live(universe, object) universe.is_valid(object).unwrap_or(false));

c_handle!(abi::MPI_Datatype, Datatype, tag 2, null MPIATTR_HANDLE_MPI_DATATYPE_NULL,
    kind Some(ObjectKind::Datatype), predefined slots Universe::PREDEFINED_DATATYPES,
    predefined(raw) { Universe::predefined_datatype(raw) },
    value(datatype) { Universe::predefined_datatype_handle(datatype).map(|(value, _)| value) },
    live_at(universe, index) universe.object_at(index),
    is_live(universe, object) universe.is_valid(object).unwrap_or(false));

c_handle!(abi::MPI_Win, Win, tag 3, null MPIATTR_HANDLE_MPI_WIN_NULL,
    kind Some(ObjectKind::Win), predefined slots 0,
    predefined(_raw) { None },
    value(_win) { None },
    live_at(universe, index) universe.object_at(index),
    is_live(universe, object) universe.is_valid(object).unwrap_or(false));

c_handle!(abi::MPI_Request, Request, tag 4, null MPIATTR_HANDLE_MPI_REQUEST_NULL,
    kind None, predefined slots 0,
    predefined(_raw) { None },
    value(_request) { None },
    live_at(universe, index) universe.request_at(index),
    is_live(universe, request)
        universe.request_at(request.0.index()).ok().flatten() == Some(request));

/// The handle kinds kept in the engine's other tables (groups, info objects, sessions): the
/// same encoding, with the engine's own error for an invalid handle of each.
macro_rules! other_handle {
    ($c:ty, $object:ident, tag $tag:expr, null $null:ident, kind $kind:ident,
     error($problem:ident) $error:expr, predefined $predefined:expr) => {
        impl CHandle for $c {
            type Object = $object;
            const TAG: usize = $tag;
            const NULL: usize = abi::$null as usize;
            const KIND: Option<ObjectKind> = None;
            const PREDEFINED_SLOTS: u32 = {
                let predefined: &[(usize, $object)] = &$predefined;
                predefined.len() as u32
            };
            fn to_raw(self) -> usize {
                self as usize
            }
            fn from_raw(raw: usize) -> Self {
                raw as $c
            }
            fn predefined(raw: usize) -> Option<$object> {
                let predefined: &[(usize, $object)] = &$predefined;
                predefined.iter().find(|(v, _)| *v == raw).map(|(_, o)| *o)
            }
            fn predefined_value(object: $object) -> Option<usize> {
                let predefined: &[(usize, $object)] = &$predefined;
                predefined
                    .iter()
                    .find(|(_, o)| *o == object)
                    .map(|(v, _)| *v)
            }
            fn id(object: $object) -> Id {
                object.0
            }
            fn object(id: Id) -> $object {
                $object(id)
            }
            fn live_at(universe: &Universe, index: u32) -> Result<Option<$object>> {
                Ok(universe.other_at(OtherKind::$kind, index)?.0.map($object))
            }
            fn invalid($problem: HandleProblem) -> Error {
                $error
            }
            fn problem_at(universe: &Universe, index: u32) -> Result<HandleProblem> {
                Ok(universe.other_at(OtherKind::$kind, index)?.1)
            }
            fn is_live(universe: &Universe, object: $object) -> bool {
                universe
                    .other_at(OtherKind::$kind, object.0.index())
                    .is_ok_and(|(id, _)| id == Some(object.0))
            }
        }
    };
}

other_handle!(abi::MPI_Group, Group, tag 5, null MPIATTR_HANDLE_MPI_GROUP_NULL, kind Group,
    error(problem) Error::InvalidGroup(problem),
    predefined [(abi::MPIATTR_HANDLE_MPI_GROUP_EMPTY as usize, Group::EMPTY)]);

other_handle!(abi::MPI_Info, Info, tag 6, null MPIATTR_HANDLE_MPI_INFO_NULL, kind Info,
    error(_problem) Error::InvalidInfo,
    predefined [(abi::MPIATTR_HANDLE_MPI_INFO_ENV as usize, Info::ENV)]);

other_handle!(abi::MPI_Session, Session, tag 7, null MPIATTR_HANDLE_MPI_SESSION_NULL,
    kind Session, error(_problem) Error::InvalidSession, predefined []);

/// Operations: the predefined ones are their ABI values (table slots in the order of
/// [`PredefinedOp::ALL`]); user ops (MPI_Op_create) are encoded with tag 9.
impl CHandle for abi::MPI_Op {
    type Object = Op;
    const TAG: usize = 9;
    const NULL: usize = abi::MPIATTR_HANDLE_MPI_OP_NULL as usize;
    const KIND: Option<ObjectKind> = None;
    const PREDEFINED_SLOTS: u32 = PredefinedOp::ALL.len() as u32;
    fn to_raw(self) -> usize {
        self as usize
    }
    fn from_raw(raw: usize) -> Self {
        raw as abi::MPI_Op
    }
    fn predefined(raw: usize) -> Option<Op> {
        Universe::predefined_op(raw)
    }
    fn predefined_value(object: Op) -> Option<usize> {
        Universe::predefined_op_kind(object).map(PredefinedOp::abi_handle)
    }
    fn id(object: Op) -> Id {
        object.0
    }
    fn object(id: Id) -> Op {
        Op(id)
    }
    fn live_at(universe: &Universe, index: u32) -> Result<Option<Op>> {
        Ok(universe.other_at(OtherKind::Op, index)?.0.map(Op))
    }
    fn invalid(problem: HandleProblem) -> Error {
        Error::InvalidOp(problem)
    }
    fn problem_at(universe: &Universe, index: u32) -> Result<HandleProblem> {
        Ok(universe.other_at(OtherKind::Op, index)?.1)
    }
    fn is_live(universe: &Universe, object: Op) -> bool {
        universe
            .other_at(OtherKind::Op, object.0.index())
            .is_ok_and(|(id, _)| id == Some(object.0))
    }
}

/// Messages matched by `MPI_Mprobe`/`MPI_Improbe`: `MPI_MESSAGE_NO_PROC` is predefined (a
/// probe of `MPI_PROC_NULL`); a matched message is encoded with tag 10 (its entry in the
/// engine's table of matched messages, gone once received).
impl CHandle for abi::MPI_Message {
    type Object = MessageHandle;
    const TAG: usize = 10;
    const NULL: usize = abi::MPIATTR_HANDLE_MPI_MESSAGE_NULL as usize;
    const KIND: Option<ObjectKind> = None;
    const PREDEFINED_SLOTS: u32 = 0;
    fn to_raw(self) -> usize {
        self as usize
    }
    fn from_raw(raw: usize) -> Self {
        raw as abi::MPI_Message
    }
    fn predefined(raw: usize) -> Option<MessageHandle> {
        (raw == abi::MPIATTR_HANDLE_MPI_MESSAGE_NO_PROC as usize).then_some(MessageHandle::NoProc)
    }
    fn predefined_value(object: MessageHandle) -> Option<usize> {
        match object {
            MessageHandle::NoProc => Some(abi::MPIATTR_HANDLE_MPI_MESSAGE_NO_PROC as usize),
            MessageHandle::Message(_) => None,
        }
    }
    fn id(object: MessageHandle) -> Id {
        match object {
            MessageHandle::Message(id) => id,
            // Predefined: never encoded.
            MessageHandle::NoProc => Id::from_parts(0, 0),
        }
    }
    fn object(id: Id) -> MessageHandle {
        MessageHandle::Message(id)
    }
    fn live_at(universe: &Universe, index: u32) -> Result<Option<MessageHandle>> {
        Ok(universe.message_at(index)?.map(MessageHandle::Message))
    }
    fn invalid(_problem: HandleProblem) -> Error {
        Error::InvalidMessage
    }
    fn is_live(universe: &Universe, object: MessageHandle) -> bool {
        match object {
            MessageHandle::NoProc => true,
            MessageHandle::Message(id) => {
                universe.message_at(id.index()).ok().flatten() == Some(id)
            }
        }
    }
}

/// The operation a C handle names (liveness is checked when it is used).
pub(crate) fn op(handle: abi::MPI_Op) -> Result<Op> {
    decode(handle)
}

/// The C handle of a user error handler: tag 8 (predefined handlers keep their ABI values).
pub(crate) fn errhandler_handle(id: Id) -> usize {
    encode(8, id)
}

/// The table id a user error handler's C handle encodes, if it is one (its liveness is the
/// engine's to check).
pub(crate) fn errhandler_id(value: usize) -> Option<Id> {
    (value >= PREDEFINED_LIMIT && value & 0xf == 8)
        .then(|| Id::from_parts(((value >> 4) & 0xffff_ffff) as u32, (value >> 36) as u32))
}

/// The Fortran integer of an error handler's C handle: a predefined handler's ABI value,
/// a user handler's table index and generation code with tag 8 (as [`fortran_value`] lays
/// out other objects), MPI_ERRHANDLER_NULL's value for anything else.
pub(crate) fn errhandler_to_fortran(value: usize) -> i64 {
    match errhandler_id(value) {
        Some(id) => FORTRAN_BITS
            .encode(8, id)
            .unwrap_or(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as i64),
        None => i64::try_from(value)
            .ok()
            .filter(|v| *v < PREDEFINED_LIMIT as i64)
            .unwrap_or(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as i64),
    }
}

/// The C handle of an error handler's Fortran integer ([`errhandler_to_fortran`]'s
/// inverse); `None` for an integer that names no user handler and is no small value (a
/// predefined handler's, or one the C function will refuse itself).
pub(crate) fn errhandler_from_fortran(value: i64) -> Option<usize> {
    if let Ok(raw) = usize::try_from(value) {
        if raw < PREDEFINED_LIMIT {
            return Some(raw);
        }
    }
    let (tag, index, code) = FORTRAN_BITS.decode(value)?;
    if tag != 8 {
        return None;
    }
    match super::existing().ok()?.errhandler_at(index).ok()? {
        Some(ErrorHandler::User(id)) if FORTRAN_BITS.code(id.generation()) == code => {
            Some(errhandler_handle(id))
        }
        _ => None,
    }
}

/// The universe where handles of a kind are looked up: info objects can be used at any time
/// (MPI-4.1 §12.4.1: none exists before the universe is made), the other kinds while the
/// universe is open.
fn universe_for<H: CHandle>() -> Result<&'static Universe> {
    if H::TAG == <abi::MPI_Info as CHandle>::TAG {
        super::existing()
    } else {
        super::universe()
    }
}

/// The communicator a C handle names.
pub(crate) fn comm(handle: abi::MPI_Comm) -> Result<Comm> {
    decode(handle)
}

/// The window a C handle names.
pub(crate) fn win(handle: abi::MPI_Win) -> Result<Win> {
    decode(handle)
}

/// The datatype a C handle names.
pub(crate) fn datatype(handle: abi::MPI_Datatype) -> Result<Datatype> {
    decode(handle)
}

/// How a default INTEGER holds a non-predefined object: `code << (index_bits + 4) |
/// index << 4 | kind`, where `kind` is the C handle's tag (1 to 15) and `code` the low bits
/// of the slot's generation (never 0: the tables skip generations whose low 5 bits are 0),
/// so the integer is always far above the predefined values (below 0x1000) and positive. A
/// freed handle is caught until its slot has been reused 2^code_bits - 1 times.
struct FortranBits {
    index: u32,
    code: u32,
}

/// 4-byte INTEGERs: 22 bits of index (4 194 304 live objects of a kind), 5 of generation,
/// 4 of kind.
#[cfg(not(feature = "fortran-integer-8"))]
const FORTRAN_BITS: FortranBits = FortranBits { index: 22, code: 5 };
/// 8-byte INTEGERs: the whole table index, 27 bits of generation, 4 of kind.
#[cfg(feature = "fortran-integer-8")]
const FORTRAN_BITS: FortranBits = FortranBits {
    index: 32,
    code: 27,
};

impl FortranBits {
    #[inline(always)]
    fn code(&self, generation: u32) -> i64 {
        i64::from(generation & ((1u32 << self.code) - 1))
    }

    fn encode(&self, kind: usize, id: Id) -> Result<i64> {
        if u64::from(id.index()) >= 1u64 << self.index {
            return Err(Error::Internal(
                "more live objects of a kind than Fortran INTEGERs can name",
            ));
        }
        Ok(self.code(id.generation()) << (self.index + 4)
            | i64::from(id.index()) << 4
            | kind as i64)
    }

    /// The kind tag, table index and generation code of an encoded integer.
    #[inline(always)]
    fn decode(&self, value: i64) -> Option<(usize, u32, i64)> {
        let code = value >> (self.index + 4);
        if !(1..1 << self.code).contains(&code) {
            return None;
        }
        let index = ((value >> 4) & ((1 << self.index) - 1)) as u32;
        Some(((value & 0xf) as usize, index, code))
    }
}

/// The `int` of the standard ABI's `MPI_<Handle>_toint` and `MPI_<Handle>_fromint`: the
/// layout of a 4-byte Fortran INTEGER whatever the library's INTEGER configuration, so that
/// it always fits a C `int`.
const INT_BITS: FortranBits = FortranBits { index: 22, code: 5 };

/// The Fortran integer of an engine object: its ABI value if predefined.
pub(crate) fn fortran_value<H: CHandle>(object: H::Object) -> Result<i64> {
    value_with::<H>(&FORTRAN_BITS, object)
}

fn value_with<H: CHandle>(bits: &FortranBits, object: H::Object) -> Result<i64> {
    match H::predefined_value(object) {
        Some(value) => Ok(value as i64),
        None => bits.encode(H::TAG, H::id(object)),
    }
}

/// The live engine object a Fortran integer names; an invalid handle error saying why for
/// anything else (null, freed, of another kind, or never handed out).
pub(crate) fn fortran_object<H: CHandle>(value: i64) -> Result<H::Object> {
    object_with::<H>(&FORTRAN_BITS, value)
}

fn object_with<H: CHandle>(bits: &FortranBits, value: i64) -> Result<H::Object> {
    if let Some(object) = usize::try_from(value).ok().and_then(H::predefined) {
        return Ok(object);
    }
    let Some((tag, index, code)) = bits.decode(value) else {
        return Err(match usize::try_from(value) {
            Ok(raw) if raw < PREDEFINED_LIMIT => predefined_problem::<H>(raw),
            _ => invalid::<H>(HandleProblem::Unknown),
        });
    };
    if tag != H::TAG {
        return Err(invalid::<H>(tag_kind(tag)));
    }
    if index < H::PREDEFINED_SLOTS {
        return Err(invalid::<H>(HandleProblem::Unknown));
    }
    let universe = universe_for::<H>()?;
    match H::live_at(universe, index)? {
        Some(object) if bits.code(H::id(object).generation()) == code => Ok(object),
        _ => Err(invalid::<H>(H::problem_at(universe, index)?)),
    }
}

/// Whether the object with identity `id` is the one a Fortran integer with generation code
/// `code` names.
#[inline(always)]
pub(crate) fn generation_matches(code: i64, id: Id) -> bool {
    FORTRAN_BITS.code(id.generation()) == code
}

/// [`fortran_object`] without any call, for the fast paths: the table index a predefined
/// handle or a well-formed integer of the kind names, with the generation code the object
/// there must match ([`generation_matches`]); `None` for anything else (the whole way reports
/// errors). A predefined object's slot keeps generation 0 for ever (code 0, which no integer
/// carries), so both forms take the same path. An encoded integer is decoded first (the
/// common case, laid out without a jump); a predefined value, which never decodes (its code
/// is 0), is looked up after.
#[inline(always)]
pub(crate) fn fortran_index<H: CHandle>(value: i64) -> Option<(u32, i64)> {
    if let Some((tag, index, code)) = FORTRAN_BITS.decode(value) {
        return (tag == H::TAG).then_some((index, code));
    }
    crate::engine::cold_path();
    let id = H::id(usize::try_from(value).ok().and_then(H::predefined)?);
    Some((id.index(), FORTRAN_BITS.code(id.generation())))
}

/// MPI_*_c2f: a predefined handle's ABI value, a live object's Fortran integer, or the null
/// handle's value for anything that names no live object.
pub(crate) fn to_fortran<H: CHandle>(handle: H) -> i64 {
    let raw = handle.to_raw();
    if H::predefined(raw).is_some() {
        return raw as i64;
    }
    decode(handle)
        .ok()
        .filter(|object| universe_for::<H>().is_ok_and(|u| H::is_live(u, *object)))
        .and_then(|object| fortran_value::<H>(object).ok())
        .unwrap_or(H::NULL as i64)
}

/// MPI_*_f2c: the inverse of [`to_fortran`]; the null handle for integers that name nothing.
pub(crate) fn from_fortran<H: CHandle>(value: i64) -> H {
    match fortran_object::<H>(value) {
        Ok(object) => encode_handle(object),
        Err(_) => null(),
    }
}

/// MPI_*_toint: as [`to_fortran`], in the layout of a 4-byte INTEGER whatever the
/// configuration (the null handle's value for an object whose table index does not fit).
pub(crate) fn to_int<H: CHandle>(handle: H) -> i32 {
    let raw = handle.to_raw();
    if H::predefined(raw).is_some() {
        return raw as i32;
    }
    decode(handle)
        .ok()
        .filter(|object| universe_for::<H>().is_ok_and(|u| H::is_live(u, *object)))
        .and_then(|object| value_with::<H>(&INT_BITS, object).ok())
        .map_or(H::NULL as i32, |value| value as i32)
}

/// MPI_*_fromint: the inverse of [`to_int`]; the null handle for integers that name nothing.
pub(crate) fn from_int<H: CHandle>(value: i32) -> H {
    match object_with::<H>(&INT_BITS, value.into()) {
        Ok(object) => encode_handle(object),
        Err(_) => null(),
    }
}

/// MPI_*_toint and MPI_*_fromint of the kinds that have predefined handles only (error
/// handlers, operations, files, messages): a predefined handle of the kind (its value in
/// `range`) is its ABI value and back; anything else the null handle's value.
pub(crate) fn predefined_int(value: usize, range: std::ops::RangeInclusive<usize>) -> usize {
    if range.contains(&value) && predefined_name(value).is_some() {
        value
    } else {
        *range.start()
    }
}

/// An info argument that may be MPI_INFO_NULL: `None` for it, else the info object it names
/// (alive or not: the engine checks when it reads it).
pub(crate) fn info_or_null(info: abi::MPI_Info) -> Result<Option<Info>> {
    if info as usize == abi::MPIATTR_HANDLE_MPI_INFO_NULL as usize {
        Ok(None)
    } else {
        decode(info).map(Some)
    }
}

/// An info argument the call only checks (MPI_INFO_NULL or a live info object).
pub(crate) fn check_info(info: abi::MPI_Info) -> Result<()> {
    match info_or_null(info)? {
        Some(info) => super::universe()?.info_get_nkeys(info).map(drop),
        None => Ok(()),
    }
}

/// The group a C handle names.
pub(crate) fn group(handle: abi::MPI_Group) -> Result<Group> {
    decode(handle)
}

/// The info object a C handle names.
pub(crate) fn info(handle: abi::MPI_Info) -> Result<Info> {
    decode(handle)
}

/// The session a C handle names.
pub(crate) fn session(handle: abi::MPI_Session) -> Result<Session> {
    decode(handle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_handles_round_trip_and_keep_their_kind() {
        let id = Id::from_parts(77, 5);
        let comm: abi::MPI_Comm = encode_handle(Comm(id));
        assert!(comm as usize >= PREDEFINED_LIMIT);
        assert_eq!(decode::<abi::MPI_Comm>(comm), Ok(Comm(id)));
        let as_win = comm as usize as abi::MPI_Win;
        assert!(decode::<abi::MPI_Win>(as_win).is_err());
        assert_eq!(
            decode::<abi::MPI_Comm>(abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize as abi::MPI_Comm),
            Ok(Comm::WORLD)
        );
        assert!(decode::<abi::MPI_Comm>(null()).is_err());
        assert_eq!(predefined_name(0x101), Some("MPI_COMM_WORLD"));
        assert_eq!(predefined_name(0x20b), Some("MPI_LONG_LONG"));
    }

    #[test]
    fn fortran_integers_keep_kind_index_and_generation() {
        for generation in [1, 2, 126, 127, 129, (1 << 20) + 1] {
            let id = Id::from_parts(4_000_000, generation);
            let value = FORTRAN_BITS.encode(2, id).unwrap();
            assert!(value >= 0x1000, "above every predefined value");
            assert!(
                crate::engine::Fint::try_from(value).is_ok(),
                "fits a default INTEGER"
            );
            let (kind, index, code) = FORTRAN_BITS.decode(value).unwrap();
            assert_eq!(
                (kind, index, code),
                (2, 4_000_000, FORTRAN_BITS.code(generation))
            );
        }
        let next = FORTRAN_BITS.encode(1, Id::from_parts(7, 2)).unwrap();
        let stale = FORTRAN_BITS.encode(1, Id::from_parts(7, 1)).unwrap();
        assert_ne!(next, stale, "a reused slot gives another integer");
        for predefined in [0, 0x100, 0x101, 0x219, 0xfff] {
            assert!(FORTRAN_BITS.decode(predefined).is_none());
        }
        assert!(FORTRAN_BITS.decode(-5).is_none());
    }

    #[test]
    fn the_fast_paths_index_takes_encoded_and_predefined_integers_of_the_kind_only() {
        type H = abi::MPI_Comm;
        let world = H::id(Comm::WORLD);
        let predefined = abi::MPIATTR_HANDLE_MPI_COMM_WORLD as i64;
        assert_eq!(fortran_index::<H>(predefined), Some((world.index(), 0)));
        let id = Id::from_parts(77, 5);
        let encoded = FORTRAN_BITS.encode(H::TAG, id).unwrap();
        let code = FORTRAN_BITS.code(5);
        assert_eq!(fortran_index::<H>(encoded), Some((77, code)));
        let window = FORTRAN_BITS
            .encode(<abi::MPI_Win as CHandle>::TAG, id)
            .unwrap();
        // Another kind's integer, a predefined value of another kind, the code-0 forms of the
        // kind's tag, negative values: none names a communicator.
        for other in [window, 0x20b, H::TAG as i64, 0x11, 0x3f1, -1, -encoded] {
            assert_eq!(fortran_index::<H>(other), None, "{other:#x}");
        }
    }
}

macro_rules! public_c_handle {
    ($object:ident, $c:ty, $name:literal) => {
        impl $object {
            #[doc = concat!("The ", $name, " a C `", stringify!($c), "` names, given as its value")]
            #[doc = concat!("(`handle as usize`): for Rust code handed handles by C code that")]
            /// works on [`crate::mpi_universe`]. Null and malformed handles are refused; whether
            /// the object is alive is checked when it is used.
            pub fn from_c_handle(handle: usize) -> Result<$object> {
                decode(<$c as CHandle>::from_raw(handle))
            }

            #[doc = concat!("The value of the C `", stringify!($c), "` that names the ", $name, ".")]
            pub fn c_handle(self) -> usize {
                encode_handle::<$c>(self).to_raw()
            }
        }
    };
}

public_c_handle!(Comm, abi::MPI_Comm, "communicator");
public_c_handle!(Datatype, abi::MPI_Datatype, "datatype");
public_c_handle!(Win, abi::MPI_Win, "window");
