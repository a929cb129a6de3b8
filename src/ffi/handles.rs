//! C handles: predefined ones have the ABI's small values; every other object's handle
//! encodes its kind, table index and generation, so that NULL, freed and wrong-kind handles
//! are all recognised. Fortran integers: predefined handles keep their ABI values, other
//! objects are their table index plus [`FORTRAN_BASE`].

use crate::abi;
use crate::engine::{Comm, Datatype, Error, Id, Object, Request, Result, Universe, Win};

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
/// Fortran integers of non-predefined objects start here.
pub(crate) const FORTRAN_BASE: i64 = 0x1000;

/// A handle type of the C API and the engine object it names.
pub(crate) trait CHandle: Sized + Copy {
    /// The engine's handle.
    type Object: Copy;
    /// The low bits of an encoded handle of this kind.
    const TAG: usize;
    /// The null handle's value.
    const NULL: usize;
    /// The error for a handle that names nothing of this kind.
    const INVALID: Error;
    fn to_raw(self) -> usize;
    fn from_raw(raw: usize) -> Self;
    fn predefined(raw: usize) -> Option<Self::Object>;
    fn predefined_value(object: Self::Object) -> Option<usize>;
    fn id(object: Self::Object) -> Id;
    fn object(id: Id) -> Self::Object;
}

fn encode(tag: usize, id: Id) -> usize {
    ((id.generation() as usize) << 36) | ((id.index() as usize) << 4) | tag
}

/// The engine object a C handle names. Liveness is checked by the engine when it is used.
pub(crate) fn decode<H: CHandle>(handle: H) -> Result<H::Object> {
    let raw = handle.to_raw();
    if let Some(object) = H::predefined(raw) {
        return Ok(object);
    }
    if raw < PREDEFINED_LIMIT || raw & 0xf != H::TAG {
        return Err(H::INVALID);
    }
    let index = ((raw >> 4) & 0xffff_ffff) as u32;
    let generation = (raw >> 36) as u32;
    Ok(H::object(Id::from_parts(index, generation)))
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
    ($c:ty, $object:ident, tag $tag:expr, null $null:ident, $invalid:expr,
     predefined($raw:ident) $from:block, value($obj:ident) $to:block) => {
        impl CHandle for $c {
            type Object = $object;
            const TAG: usize = $tag;
            const NULL: usize = abi::$null as usize;
            const INVALID: Error = $invalid;
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
        }
    };
}

c_handle!(abi::MPI_Comm, Comm, tag 1, null MPIATTR_HANDLE_MPI_COMM_NULL,
Error::InvalidHandle(crate::engine::ObjectKind::Comm),
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
});

c_handle!(abi::MPI_Datatype, Datatype, tag 2, null MPIATTR_HANDLE_MPI_DATATYPE_NULL,
    Error::InvalidHandle(crate::engine::ObjectKind::Datatype),
    predefined(raw) { Universe::predefined_datatype(raw) },
    value(datatype) { Universe::predefined_datatype_handle(datatype).map(|(value, _)| value) });

c_handle!(abi::MPI_Win, Win, tag 3, null MPIATTR_HANDLE_MPI_WIN_NULL,
    Error::InvalidHandle(crate::engine::ObjectKind::Win),
    predefined(_raw) { None },
    value(_win) { None });

c_handle!(abi::MPI_Request, Request, tag 4, null MPIATTR_HANDLE_MPI_REQUEST_NULL,
    Error::InvalidRequest,
    predefined(_raw) { None },
    value(_request) { None });

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

/// MPI_*_c2f: a predefined handle's ABI value, an object's index plus FORTRAN_BASE, or the
/// null handle's value for anything that names no live object.
pub(crate) fn to_fortran<H>(handle: H) -> i64
where
    H: CHandle,
    H::Object: Object,
{
    let raw = handle.to_raw();
    if H::predefined(raw).is_some() {
        return raw as i64;
    }
    let live = decode(handle)
        .ok()
        .filter(|object| super::universe().is_ok_and(|u| u.is_valid(*object).unwrap_or(false)));
    match live {
        Some(object) => FORTRAN_BASE + H::id(object).index() as i64,
        None => H::NULL as i64,
    }
}

/// MPI_*_f2c: the inverse of [`to_fortran`]; the null handle for unknown integers.
pub(crate) fn from_fortran<H>(value: i64) -> H
where
    H: CHandle,
    H::Object: Object,
{
    if let Ok(raw) = usize::try_from(value) {
        if raw < PREDEFINED_LIMIT && H::predefined(raw).is_some() {
            return H::from_raw(raw);
        }
    }
    let object = u32::try_from(value - FORTRAN_BASE)
        .ok()
        .and_then(|index| super::universe().ok()?.object_at::<H::Object>(index).ok()?);
    match object {
        Some(object) => encode_handle(object),
        None => null(),
    }
}

/// An info argument: only the predefined MPI_INFO_NULL and MPI_INFO_ENV exist.
pub(crate) fn check_info(info: abi::MPI_Info) -> Result<()> {
    let raw = info as usize;
    if raw == abi::MPIATTR_HANDLE_MPI_INFO_NULL as usize
        || raw == abi::MPIATTR_HANDLE_MPI_INFO_ENV as usize
    {
        Ok(())
    } else {
        Err(Error::InvalidInfo)
    }
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
}
