//! Errors: one enum for everything the engine can refuse, one map onto MPI error classes, and
//! the class table that `MPI_Error_string` reads.

use thiserror::Error;

use super::ObjectKind;

/// Why a handle names no object of the kind a call wants, as far as the library can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleProblem {
    /// The kind's null handle (`MPI_COMM_NULL`, `MPI_DATATYPE_NULL`, `MPI_WIN_NULL`).
    Null,
    /// The object it named has been freed.
    Freed,
    /// A predefined handle of another kind, by its name (`MPI_INT` given as a communicator).
    Predefined(&'static str),
    /// A handle of another kind of object: "datatype", "window", "request" ...
    OtherKind(&'static str),
    /// Nothing the library handed out.
    Unknown,
}

impl std::fmt::Display for HandleProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandleProblem::Null => f.write_str("the null handle"),
            HandleProblem::Freed => f.write_str("freed"),
            HandleProblem::Predefined(name) => write!(f, "{name}, of another kind"),
            HandleProblem::OtherKind(kind) => write!(f, "a {kind} handle"),
            HandleProblem::Unknown => f.write_str("not a handle mpiattr handed out"),
        }
    }
}

/// Everything the engine can refuse or report.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A null, freed, unknown or wrong-kind object handle, and which of these it is.
    #[error("invalid {0} handle ({1})")]
    InvalidHandle(ObjectKind, HandleProblem),
    /// A predefined object cannot be freed.
    #[error("a predefined {0} cannot be freed")]
    PredefinedObject(ObjectKind),
    /// The object is already being freed by an enclosing call.
    #[error("the {0} is already being freed")]
    BeingFreed(ObjectKind),
    /// No keyval has this number (never created, or freed and no longer used).
    #[error("invalid attribute keyval")]
    InvalidKeyval,
    /// The keyval exists but belongs to another kind of object.
    #[error("the keyval is for {found} attributes, not {expected} attributes")]
    WrongKindKeyval {
        /// The kind the keyval was created for.
        found: ObjectKind,
        /// The kind of the call.
        expected: ObjectKind,
    },
    /// Predefined keyvals can be read but not set, deleted or freed.
    #[error("predefined keyvals cannot be set, deleted or freed")]
    PredefinedKeyval,
    /// The keyval was freed: existing values can be read and deleted, no new value set.
    #[error("the keyval has been freed: no new value can be set with it")]
    FreedKeyval,
    /// A required pointer argument was null.
    #[error("argument `{0}` is a null pointer")]
    NullArgument(&'static str),
    /// An argument outside its allowed values.
    #[error("invalid argument: {0}")]
    InvalidArgument(&'static str),
    /// A negative or too large count.
    #[error("invalid count")]
    InvalidCount,
    /// A datatype that cannot be used here (uncommitted, or no contents to return).
    #[error("invalid datatype: {0}")]
    InvalidType(&'static str),
    /// A negative size.
    #[error("invalid size")]
    InvalidSize,
    /// A displacement unit below 1.
    #[error("invalid displacement unit")]
    InvalidDisp,
    /// A null, freed or unknown info handle, or MPI_INFO_ENV given to a call that would
    /// change or free it.
    #[error("invalid info handle")]
    InvalidInfo,
    /// An unknown request handle.
    #[error("invalid request handle")]
    InvalidRequest,
    /// An unknown or null error handler.
    #[error("invalid error handler")]
    InvalidErrhandler,
    /// A file handle other than MPI_FILE_NULL (files are not implemented).
    #[error("invalid file handle: files are not implemented, only MPI_FILE_NULL exists")]
    InvalidFile,
    /// An address that MPI_Alloc_mem did not return.
    #[error("the address was not returned by MPI_Alloc_mem")]
    InvalidBase,
    /// Memory could not be allocated.
    #[error("out of memory")]
    NoMemory,
    /// An error code that is not a valid MPI error code.
    #[error("invalid error code")]
    InvalidErrorCode,
    /// The call needs MPI to be initialized.
    #[error("MPI is not initialized")]
    NotInitialized,
    /// The call came after MPI_Finalize.
    #[error("MPI has been finalized")]
    Finalized,
    /// MPI_Init or MPI_Init_thread was called a second time.
    #[error("MPI is already initialized")]
    AlreadyInitialized,
    /// Under MPI_THREAD_SINGLE only the initializing thread may call in.
    #[error("called from another thread than the one that initialized MPI with MPI_THREAD_SINGLE")]
    WrongThread,
    /// As many objects of a kind live as handles can name ([`super::MAX_LIVE_OBJECTS`]).
    #[error("{max} {0}s live, the most handles can name", max = super::MAX_LIVE_OBJECTS)]
    TooManyObjects(&'static str),
    /// A user copy or delete callback returned a non-zero code.
    #[error("a {kind} callback returned error code {code}")]
    Callback {
        /// "copy" or "delete".
        kind: &'static str,
        /// What the callback returned.
        code: i32,
    },
    /// A rank other than 0 (the only process), `MPI_PROC_NULL`, or where allowed
    /// `MPI_ANY_SOURCE`.
    #[error("invalid rank {0}: this process is rank 0 of every communicator")]
    InvalidRank(i32),
    /// A tag below 0 or above `MPI_TAG_UB` (other than `MPI_ANY_TAG` where allowed).
    #[error("invalid tag {0}")]
    InvalidTag(i32),
    /// Data longer than the buffer that takes it: a message longer than the receive buffer
    /// (what fits was delivered), a pack into too small a buffer, an unpack of more than the
    /// packed data holds.
    #[error("{length} bytes of data for {capacity} bytes of room: truncated")]
    Truncated {
        /// The data's packed length.
        length: u64,
        /// The room the buffer has.
        capacity: u64,
    },
    /// A blocking call that nothing in this process could ever complete (docs/semantics.md
    /// "Point-to-point"): what it was and why.
    #[error("{0}: it would wait forever")]
    NeverCompletes(&'static str),
    /// A ready-mode send with no matching receive posted (an erroneous program).
    #[error("ready-mode send with no matching receive posted")]
    ReadyNotPosted,
    /// A buffered send with no buffer attached.
    #[error("buffered send with no buffer attached")]
    NoBuffer,
    /// A buffered send that does not fit in what is left of the attached buffer.
    #[error("buffered send needs {needed} bytes of the attached buffer (MPI_BSEND_OVERHEAD included), {free} are free")]
    BufferSpace {
        /// The message's bytes plus the overhead.
        needed: usize,
        /// What the buffer has left.
        free: usize,
    },
    /// A buffer is attached already.
    #[error("a buffer is already attached")]
    BufferAttached,
    /// A request in the wrong state or of the wrong kind for the call.
    #[error("invalid request: {0}")]
    InvalidRequestState(&'static str),
    /// A message handle that names no matched message.
    #[error("invalid message handle")]
    InvalidMessage,
    /// A NULL (or `MPI_IN_PLACE`) buffer where data must be read or written (the argument).
    #[error("invalid buffer: {0} is NULL")]
    InvalidBuffer(&'static str),
    /// One of several completed operations failed: each status's `MPI_ERROR` says which.
    #[error("an operation failed: see the statuses' MPI_ERROR")]
    InStatus,
    /// A null, freed or unknown session handle.
    #[error("invalid session handle")]
    InvalidSession,
    /// A process set name the session does not know.
    #[error("unknown process set name")]
    UnknownPset,
    /// A null, freed or unknown group handle.
    #[error("invalid group handle ({0})")]
    InvalidGroup(HandleProblem),
    /// A rank outside a group, given twice where ranks must be distinct, or a range that
    /// leaves the group.
    #[error("invalid rank: {0}")]
    InvalidGroupRank(&'static str),
    /// An info key that is empty or longer than MPI_MAX_INFO_KEY - 1 characters.
    #[error("info key empty or longer than MPI_MAX_INFO_KEY - 1 characters")]
    InfoKey,
    /// An info value that is empty or longer than MPI_MAX_INFO_VAL - 1 characters.
    #[error("info value empty or longer than MPI_MAX_INFO_VAL - 1 characters")]
    InfoValue,
    /// The info object has no value for the key.
    #[error("the info object has no such key")]
    InfoNoKey,
    /// The info object has fewer keys than the index asked for.
    #[error("info key index out of range")]
    InfoIndex,
    /// A bug in mpiattr (including a caught panic).
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// A null, freed or unknown op handle.
    #[error("invalid op handle ({0})")]
    InvalidOp(HandleProblem),
    /// A predefined op cannot be freed (its name).
    #[error("{0} is predefined and cannot be freed")]
    PredefinedOp(&'static str),
    /// MPI_REPLACE and MPI_NO_OP belong to the accumulate functions only (MPI-4.1 §13.3.4).
    #[error("{0} is only for accumulate functions, not reductions")]
    OpOnlyForAccumulate(&'static str),
    /// A predefined op used on values outside its groups (MPI-4.1 §6.9.2).
    #[error("{} is not defined for {} values", op.name(), kind.name())]
    OpNotDefined {
        /// The op.
        op: super::ops::PredefinedOp,
        /// The kind of value.
        kind: super::basic::BasicKind,
    },
    /// A root that is not a rank of the communicator (every communicator has only rank 0).
    #[error("invalid root {0}: the communicator's only rank is 0")]
    InvalidRoot(i32),
    /// MPI_IN_PLACE where the standard does not allow it (the argument).
    #[error("MPI_IN_PLACE is not allowed as {0}")]
    InPlace(&'static str),
    /// Send and receive type signatures differ.
    #[error("the send and receive type signatures differ")]
    SignatureMismatch,
    /// A datatype used for communication before MPI_Type_commit.
    #[error("the datatype is not committed")]
    NotCommitted,
}

/// Result of engine calls.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The MPI error class this error belongs to.
    ///
    /// ```
    /// use mpiattr::{Comm, Error, ErrorClass, ObjectKind, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let error = universe.comm_free(Comm::WORLD).unwrap_err();
    /// assert_eq!(error, Error::PredefinedObject(ObjectKind::Comm));
    /// assert_eq!(error.class(), ErrorClass::Comm);
    /// assert_eq!(error.to_string(), "a predefined communicator cannot be freed");
    /// // A callback's code keeps its class if it is one, else it is MPI_ERR_OTHER.
    /// let refused = Error::Callback { kind: "delete", code: 12345 };
    /// assert_eq!(refused.class(), ErrorClass::Other);
    /// ```
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::InvalidHandle(kind, _)
            | Error::PredefinedObject(kind)
            | Error::BeingFreed(kind) => kind.error_class(),
            Error::InvalidKeyval
            | Error::WrongKindKeyval { .. }
            | Error::PredefinedKeyval
            | Error::FreedKeyval => ErrorClass::Keyval,
            Error::NullArgument(_) | Error::InvalidArgument(_) | Error::InvalidErrorCode => {
                ErrorClass::Arg
            }
            Error::InvalidCount => ErrorClass::Count,
            Error::InvalidType(_) => ErrorClass::Type,
            Error::InvalidSize => ErrorClass::Size,
            Error::InvalidDisp => ErrorClass::Disp,
            Error::InvalidInfo => ErrorClass::Info,
            Error::InvalidRequest | Error::InvalidRequestState(_) | Error::InvalidMessage => {
                ErrorClass::Request
            }
            Error::InvalidRank(_) => ErrorClass::Rank,
            Error::InvalidTag(_) => ErrorClass::Tag,
            Error::Truncated { .. } => ErrorClass::Truncate,
            Error::NeverCompletes(_) | Error::ReadyNotPosted => ErrorClass::Other,
            Error::NoBuffer | Error::BufferSpace { .. } | Error::BufferAttached => {
                ErrorClass::Buffer
            }
            Error::InvalidErrhandler => ErrorClass::Errhandler,
            Error::InvalidFile => ErrorClass::File,
            Error::InvalidBase => ErrorClass::Base,
            Error::NoMemory => ErrorClass::NoMem,
            Error::NotInitialized
            | Error::Finalized
            | Error::AlreadyInitialized
            | Error::WrongThread => ErrorClass::Other,
            // A failing callback that returned MPI_SUCCESS (a Rust callback's `Err(0)`) still
            // failed: that is no class either.
            Error::Callback { code, .. } => ErrorClass::from_code(*code)
                .filter(|class| *class != ErrorClass::Success)
                .unwrap_or(ErrorClass::Other),
            Error::InvalidGroupRank(_) => ErrorClass::Rank,
            Error::InvalidGroup(_) => ErrorClass::Group,
            Error::InvalidSession => ErrorClass::Session,
            Error::UnknownPset => ErrorClass::Arg,
            Error::InfoKey => ErrorClass::InfoKey,
            Error::InfoValue => ErrorClass::InfoValue,
            Error::InfoNoKey => ErrorClass::InfoNokey,
            Error::InfoIndex => ErrorClass::Arg,
            Error::Internal(_) => ErrorClass::Intern,
            Error::TooManyObjects(_) => ErrorClass::Other,
            Error::InvalidOp(_)
            | Error::PredefinedOp(_)
            | Error::OpOnlyForAccumulate(_)
            | Error::OpNotDefined { .. } => ErrorClass::Op,
            Error::InvalidRoot(_) => ErrorClass::Root,
            Error::InPlace(_) | Error::InvalidBuffer(_) => ErrorClass::Buffer,
            Error::InStatus => ErrorClass::InStatus,
            Error::SignatureMismatch | Error::NotCommitted => ErrorClass::Type,
        }
    }
}

macro_rules! error_classes {
    ($($variant:ident = $abi:ident, $text:literal;)*) => {
        /// The MPI error classes of the standard ABI; every valid error code is one of them.
        ///
        /// ```
        /// use mpiattr::ErrorClass;
        ///
        /// assert_eq!(ErrorClass::Keyval as i32, 36);
        /// assert_eq!(ErrorClass::from_code(36), Some(ErrorClass::Keyval));
        /// assert_eq!(ErrorClass::from_code(12345), None);
        /// assert_eq!(ErrorClass::Keyval.name(), "MPI_ERR_KEYVAL");
        /// assert_eq!(ErrorClass::Keyval.description(), "invalid attribute keyval");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(i32)]
        #[non_exhaustive]
        pub enum ErrorClass {
            /// No error.
            Success = crate::abi::MPI_SUCCESS as i32,
            $(
                #[doc = $text]
                $variant = crate::abi::$abi as i32,
            )*
        }

        impl ErrorClass {
            const ALL: &'static [ErrorClass] = &[ErrorClass::Success, $(ErrorClass::$variant,)*];

            /// The class whose value is `code`, if `code` is a valid MPI error code.
            pub fn from_code(code: i32) -> Option<ErrorClass> {
                Self::ALL.iter().copied().find(|class| *class as i32 == code)
            }

            /// The C name of the class, e.g. `MPI_ERR_KEYVAL`.
            pub fn name(self) -> &'static str {
                match self {
                    ErrorClass::Success => "MPI_SUCCESS",
                    $(ErrorClass::$variant => stringify!($abi),)*
                }
            }

            /// What the class means, as `MPI_Error_string` prints it after the name.
            pub fn description(self) -> &'static str {
                match self {
                    ErrorClass::Success => "no error",
                    $(ErrorClass::$variant => $text,)*
                }
            }
        }
    };
}

error_classes! {
    Buffer = MPI_ERR_BUFFER, "invalid buffer pointer";
    Count = MPI_ERR_COUNT, "invalid count argument";
    Type = MPI_ERR_TYPE, "invalid datatype";
    Tag = MPI_ERR_TAG, "invalid tag";
    Comm = MPI_ERR_COMM, "invalid communicator";
    Rank = MPI_ERR_RANK, "invalid rank";
    Request = MPI_ERR_REQUEST, "invalid request";
    Root = MPI_ERR_ROOT, "invalid root";
    Group = MPI_ERR_GROUP, "invalid group";
    Op = MPI_ERR_OP, "invalid operation";
    Topology = MPI_ERR_TOPOLOGY, "invalid topology";
    Dims = MPI_ERR_DIMS, "invalid dimension argument";
    Arg = MPI_ERR_ARG, "invalid argument of some other kind";
    Unknown = MPI_ERR_UNKNOWN, "unknown error";
    Truncate = MPI_ERR_TRUNCATE, "message truncated on receive";
    Other = MPI_ERR_OTHER, "known error not in this list";
    Intern = MPI_ERR_INTERN, "internal MPI (implementation) error";
    Pending = MPI_ERR_PENDING, "pending request";
    InStatus = MPI_ERR_IN_STATUS, "error code is in status";
    Access = MPI_ERR_ACCESS, "permission denied";
    Amode = MPI_ERR_AMODE, "error related to the amode passed to MPI_FILE_OPEN";
    Assert = MPI_ERR_ASSERT, "invalid assertion argument";
    BadFile = MPI_ERR_BAD_FILE, "invalid file name";
    Base = MPI_ERR_BASE, "invalid base address";
    Conversion = MPI_ERR_CONVERSION, "error in a user-supplied data conversion function";
    Disp = MPI_ERR_DISP, "invalid displacement argument";
    DupDatarep = MPI_ERR_DUP_DATAREP, "data representation identifier already registered";
    FileExists = MPI_ERR_FILE_EXISTS, "file exists";
    FileInUse = MPI_ERR_FILE_IN_USE, "file operation could not be completed: file in use";
    File = MPI_ERR_FILE, "invalid file handle";
    InfoKey = MPI_ERR_INFO_KEY, "info key longer than MPI_MAX_INFO_KEY";
    InfoNokey = MPI_ERR_INFO_NOKEY, "info key not defined";
    InfoValue = MPI_ERR_INFO_VALUE, "info value longer than MPI_MAX_INFO_VAL";
    Info = MPI_ERR_INFO, "invalid info object";
    Io = MPI_ERR_IO, "other I/O error";
    Keyval = MPI_ERR_KEYVAL, "invalid attribute keyval";
    Locktype = MPI_ERR_LOCKTYPE, "invalid locktype argument";
    Name = MPI_ERR_NAME, "invalid service name";
    NoMem = MPI_ERR_NO_MEM, "out of memory";
    NotSame = MPI_ERR_NOT_SAME, "collective argument not identical on all processes";
    NoSpace = MPI_ERR_NO_SPACE, "not enough space";
    NoSuchFile = MPI_ERR_NO_SUCH_FILE, "file does not exist";
    Port = MPI_ERR_PORT, "invalid port name";
    Quota = MPI_ERR_QUOTA, "quota exceeded";
    ReadOnly = MPI_ERR_READ_ONLY, "read-only file or file system";
    RmaAttach = MPI_ERR_RMA_ATTACH, "memory cannot be attached";
    RmaConflict = MPI_ERR_RMA_CONFLICT, "conflicting accesses to window";
    RmaRange = MPI_ERR_RMA_RANGE, "target memory is not part of the window";
    RmaShared = MPI_ERR_RMA_SHARED, "memory cannot be shared";
    RmaSync = MPI_ERR_RMA_SYNC, "wrong synchronization of RMA calls";
    Service = MPI_ERR_SERVICE, "invalid service name";
    Size = MPI_ERR_SIZE, "invalid size argument";
    Spawn = MPI_ERR_SPAWN, "error in spawning processes";
    UnsupportedDatarep = MPI_ERR_UNSUPPORTED_DATAREP, "unsupported data representation";
    UnsupportedOperation = MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation";
    Win = MPI_ERR_WIN, "invalid window";
    RmaFlavor = MPI_ERR_RMA_FLAVOR, "wrong window flavor";
    ProcAborted = MPI_ERR_PROC_ABORTED, "operation involved an aborted process";
    ValueTooLarge = MPI_ERR_VALUE_TOO_LARGE, "value is too large to store";
    Session = MPI_ERR_SESSION, "invalid session";
    Errhandler = MPI_ERR_ERRHANDLER, "invalid error handler";
    Abi = MPI_ERR_ABI, "ABI mismatch";
}

impl Error {
    /// The code to return for this error: its class (a callback's code, when that is a
    /// class, is its own class).
    pub fn return_code(&self) -> i32 {
        self.class() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_have_the_abi_values() {
        assert_eq!(ErrorClass::Keyval as i32, 36);
        assert_eq!(ErrorClass::Abi as i32, 62);
        assert_eq!(ErrorClass::from_code(36), Some(ErrorClass::Keyval));
        assert_eq!(ErrorClass::from_code(63), None);
        assert_eq!(ErrorClass::from_code(-1), None);
        assert_eq!(ErrorClass::Keyval.name(), "MPI_ERR_KEYVAL");
    }

    #[test]
    fn every_class_value_is_distinct_and_consecutive() {
        for (i, class) in ErrorClass::ALL.iter().enumerate() {
            assert_eq!(*class as i32, i as i32, "{}", class.name());
            assert!(!class.description().is_empty());
        }
    }

    #[test]
    fn callback_codes_pass_through_when_valid() {
        let valid = Error::Callback {
            kind: "copy",
            code: ErrorClass::Win as i32,
        };
        assert_eq!(valid.return_code(), 56);
        assert_eq!(valid.class(), ErrorClass::Win);
        let invalid = Error::Callback {
            kind: "delete",
            code: 12345,
        };
        assert_eq!(invalid.return_code(), ErrorClass::Other as i32);
        let success = Error::Callback {
            kind: "copy",
            code: 0,
        };
        assert_eq!(success.class(), ErrorClass::Other);
        assert_eq!(success.return_code(), ErrorClass::Other as i32);
        assert_eq!(Error::InvalidKeyval.return_code(), 36);
        assert_eq!(
            Error::InvalidHandle(ObjectKind::Win, HandleProblem::Null).class(),
            ErrorClass::Win
        );
    }
}

#[cfg(test)]
mod size {
    /// Every engine call returns `Result<_, Error>`: a larger error makes every call move more
    /// bytes (two `&'static str` fields in one variant, 40 bytes, cost keyval create+free 30 ns,
    /// +38%). Keep variants' data to 24 bytes.
    #[test]
    fn an_error_is_at_most_32_bytes() {
        assert!(std::mem::size_of::<super::Error>() <= 32);
    }
}
