//! The predefined datatypes of the standard ABI, with their sizes on this platform.

use std::ffi::{c_int, c_long, c_longlong, c_short};
use std::mem::size_of;
use std::sync::{Arc, OnceLock};

use super::typemap::{Basic, IntFamily, TypeMap};
use super::value::Fint;
use crate::abi as c;

/// A predefined datatype: its ABI handle value, C name and size in bytes.
pub(crate) struct Predefined {
    pub(crate) handle: usize,
    pub(crate) name: &'static str,
    // Read by the test that checks every type map against it.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) size: u64,
}

macro_rules! predefined {
    ($($handle:ident = $size:expr;)*) => {
        /// Every predefined datatype, in the order of their table slots.
        pub(crate) const PREDEFINED: &[Predefined] = &[
            $(Predefined {
                handle: c::$handle as usize,
                // "MPIATTR_HANDLE_MPI_INT" names MPI_INT.
                name: stringify!($handle),
                size: $size as u64,
            },)*
        ];
    };
}

const LONG_DOUBLE: usize = 16;
const FINT: usize = size_of::<Fint>();

impl Predefined {
    /// The C name, e.g. `MPI_INT`.
    pub(crate) fn c_name(&self) -> &'static str {
        self.name.trim_start_matches("MPIATTR_HANDLE_")
    }
}

predefined! {
    MPIATTR_HANDLE_MPI_AINT = size_of::<isize>();
    MPIATTR_HANDLE_MPI_COUNT = 8;
    MPIATTR_HANDLE_MPI_OFFSET = 8;
    MPIATTR_HANDLE_MPI_PACKED = 1;
    MPIATTR_HANDLE_MPI_SHORT = size_of::<c_short>();
    MPIATTR_HANDLE_MPI_INT = size_of::<c_int>();
    MPIATTR_HANDLE_MPI_LONG = size_of::<c_long>();
    MPIATTR_HANDLE_MPI_LONG_LONG = size_of::<c_longlong>();
    MPIATTR_HANDLE_MPI_UNSIGNED_SHORT = size_of::<c_short>();
    MPIATTR_HANDLE_MPI_UNSIGNED = size_of::<c_int>();
    MPIATTR_HANDLE_MPI_UNSIGNED_LONG = size_of::<c_long>();
    MPIATTR_HANDLE_MPI_UNSIGNED_LONG_LONG = size_of::<c_longlong>();
    MPIATTR_HANDLE_MPI_FLOAT = 4;
    MPIATTR_HANDLE_MPI_C_FLOAT_COMPLEX = 8;
    MPIATTR_HANDLE_MPI_CXX_FLOAT_COMPLEX = 8;
    MPIATTR_HANDLE_MPI_DOUBLE = 8;
    MPIATTR_HANDLE_MPI_C_DOUBLE_COMPLEX = 16;
    MPIATTR_HANDLE_MPI_CXX_DOUBLE_COMPLEX = 16;
    MPIATTR_HANDLE_MPI_LOGICAL = FINT;
    MPIATTR_HANDLE_MPI_INTEGER = FINT;
    MPIATTR_HANDLE_MPI_REAL = 4;
    MPIATTR_HANDLE_MPI_COMPLEX = 8;
    MPIATTR_HANDLE_MPI_DOUBLE_PRECISION = 8;
    MPIATTR_HANDLE_MPI_DOUBLE_COMPLEX = 16;
    MPIATTR_HANDLE_MPI_CHARACTER = 1;
    MPIATTR_HANDLE_MPI_LONG_DOUBLE = LONG_DOUBLE;
    MPIATTR_HANDLE_MPI_C_LONG_DOUBLE_COMPLEX = 2 * LONG_DOUBLE;
    MPIATTR_HANDLE_MPI_CXX_LONG_DOUBLE_COMPLEX = 2 * LONG_DOUBLE;
    MPIATTR_HANDLE_MPI_FLOAT_INT = 4 + size_of::<c_int>();
    MPIATTR_HANDLE_MPI_DOUBLE_INT = 8 + size_of::<c_int>();
    MPIATTR_HANDLE_MPI_LONG_INT = size_of::<c_long>() + size_of::<c_int>();
    MPIATTR_HANDLE_MPI_2INT = 2 * size_of::<c_int>();
    MPIATTR_HANDLE_MPI_SHORT_INT = size_of::<c_short>() + size_of::<c_int>();
    MPIATTR_HANDLE_MPI_LONG_DOUBLE_INT = LONG_DOUBLE + size_of::<c_int>();
    MPIATTR_HANDLE_MPI_2REAL = 8;
    MPIATTR_HANDLE_MPI_2DOUBLE_PRECISION = 16;
    MPIATTR_HANDLE_MPI_2INTEGER = 2 * FINT;
    MPIATTR_HANDLE_MPI_C_BOOL = 1;
    MPIATTR_HANDLE_MPI_CXX_BOOL = 1;
    MPIATTR_HANDLE_MPI_WCHAR = 4;
    MPIATTR_HANDLE_MPI_INT8_T = 1;
    MPIATTR_HANDLE_MPI_UINT8_T = 1;
    MPIATTR_HANDLE_MPI_CHAR = 1;
    MPIATTR_HANDLE_MPI_SIGNED_CHAR = 1;
    MPIATTR_HANDLE_MPI_UNSIGNED_CHAR = 1;
    MPIATTR_HANDLE_MPI_BYTE = 1;
    MPIATTR_HANDLE_MPI_INT16_T = 2;
    MPIATTR_HANDLE_MPI_UINT16_T = 2;
    MPIATTR_HANDLE_MPI_INT32_T = 4;
    MPIATTR_HANDLE_MPI_UINT32_T = 4;
    MPIATTR_HANDLE_MPI_INT64_T = 8;
    MPIATTR_HANDLE_MPI_UINT64_T = 8;
    MPIATTR_HANDLE_MPI_LOGICAL1 = 1;
    MPIATTR_HANDLE_MPI_INTEGER1 = 1;
    MPIATTR_HANDLE_MPI_LOGICAL2 = 2;
    MPIATTR_HANDLE_MPI_INTEGER2 = 2;
    MPIATTR_HANDLE_MPI_REAL2 = 2;
    MPIATTR_HANDLE_MPI_LOGICAL4 = 4;
    MPIATTR_HANDLE_MPI_INTEGER4 = 4;
    MPIATTR_HANDLE_MPI_REAL4 = 4;
    MPIATTR_HANDLE_MPI_COMPLEX4 = 4;
    MPIATTR_HANDLE_MPI_LOGICAL8 = 8;
    MPIATTR_HANDLE_MPI_INTEGER8 = 8;
    MPIATTR_HANDLE_MPI_REAL8 = 8;
    MPIATTR_HANDLE_MPI_COMPLEX8 = 8;
    MPIATTR_HANDLE_MPI_LOGICAL16 = 16;
    MPIATTR_HANDLE_MPI_INTEGER16 = 16;
    MPIATTR_HANDLE_MPI_REAL16 = 16;
    MPIATTR_HANDLE_MPI_COMPLEX16 = 16;
    MPIATTR_HANDLE_MPI_COMPLEX32 = 32;
}

/// Predefined datatype handles are below this value (the standard ABI's 0x200..0x2ff).
const HANDLE_SPACE: usize = 0x400;

/// For each handle value below [`HANDLE_SPACE`], one more than its index in [`PREDEFINED`]
/// (0: not a predefined datatype); built at compile time so that decoding a predefined
/// datatype is one load.
static INDEX_BY_HANDLE: [u8; HANDLE_SPACE] = {
    let mut table = [0u8; HANDLE_SPACE];
    let mut i = 0;
    while i < PREDEFINED.len() {
        assert!(PREDEFINED[i].handle < HANDLE_SPACE && i < u8::MAX as usize);
        table[PREDEFINED[i].handle] = (i + 1) as u8;
        i += 1;
    }
    table
};

/// The index in [`PREDEFINED`] of the predefined datatype whose handle value is `handle`.
#[inline(always)]
pub(crate) fn index_of_handle(handle: usize) -> Option<u32> {
    match INDEX_BY_HANDLE.get(handle) {
        Some(&plus_one) if plus_one != 0 => Some(u32::from(plus_one) - 1),
        _ => None,
    }
}

/// The type maps of the predefined datatypes, by index, made once: every universe's table
/// shares them, and the shells read them without a lock (they never change).
pub(crate) fn predefined_maps() -> &'static [Arc<TypeMap>] {
    static MAPS: OnceLock<Vec<Arc<TypeMap>>> = OnceLock::new();
    MAPS.get_or_init(|| {
        PREDEFINED
            .iter()
            .enumerate()
            .map(|(index, predefined)| {
                let map = type_map(index as u32, predefined);
                map.flat();
                Arc::new(map)
            })
            .collect()
    })
}

/// The type map of a predefined datatype: its basic kind, or its two members for the pair
/// types of MINLOC/MAXLOC.
pub(crate) fn type_map(index: u32, predefined: &Predefined) -> TypeMap {
    use Basic::*;
    let sized = |family: IntFamily, bytes: usize, signed: bool| Int {
        family,
        bytes: bytes as u8,
        external: bytes as u8,
        signed,
    };
    let int = |bytes: usize, signed: bool| sized(IntFamily::C, bytes, signed);
    let fortran = |bytes: usize| sized(IntFamily::Fortran, bytes, true);
    let multi = |bytes: usize| sized(IntFamily::MultiLanguage, bytes, true);
    // external32 gives C long 4 bytes whatever its native size.
    let long = |signed: bool| Int {
        family: IntFamily::C,
        bytes: size_of::<c_long>() as u8,
        external: 4,
        signed,
    };
    let c_int = int(size_of::<c_int>(), true);
    let fint = fortran(FINT);
    let index = Some(index);
    let pair = |first: Basic, second: Basic| {
        let align = second.alignment().max(1) as i64;
        let disp = (first.size() as i64 + align - 1) / align * align;
        TypeMap::pair(first, second, disp, index)
    };
    let kind = match predefined.c_name() {
        "MPI_FLOAT_INT" => return pair(Real(4), c_int),
        "MPI_DOUBLE_INT" => return pair(Real(8), c_int),
        "MPI_LONG_INT" => return pair(long(true), c_int),
        "MPI_2INT" => return pair(c_int, c_int),
        "MPI_SHORT_INT" => return pair(int(size_of::<c_short>(), true), c_int),
        "MPI_LONG_DOUBLE_INT" => return pair(LongDouble, c_int),
        "MPI_2REAL" => return pair(Real(4), Real(4)),
        "MPI_2DOUBLE_PRECISION" => return pair(Real(8), Real(8)),
        "MPI_2INTEGER" => return pair(fint, fint),
        "MPI_AINT" => multi(size_of::<isize>()),
        "MPI_COUNT" | "MPI_OFFSET" => multi(8),
        "MPI_INT64_T" => int(8, true),
        "MPI_INTEGER8" => fortran(8),
        "MPI_PACKED" => Packed,
        "MPI_SHORT" => int(size_of::<c_short>(), true),
        "MPI_UNSIGNED_SHORT" => int(size_of::<c_short>(), false),
        "MPI_INT" => c_int,
        "MPI_UNSIGNED" => int(size_of::<c_int>(), false),
        "MPI_LONG" => long(true),
        "MPI_UNSIGNED_LONG" => long(false),
        "MPI_LONG_LONG" => int(size_of::<c_longlong>(), true),
        "MPI_UNSIGNED_LONG_LONG" => int(size_of::<c_longlong>(), false),
        "MPI_FLOAT" | "MPI_REAL" | "MPI_REAL4" => Real(4),
        "MPI_DOUBLE" | "MPI_DOUBLE_PRECISION" | "MPI_REAL8" => Real(8),
        "MPI_REAL2" => Real(2),
        "MPI_REAL16" => Real(16),
        "MPI_COMPLEX4" => Complex(2),
        "MPI_C_FLOAT_COMPLEX" | "MPI_CXX_FLOAT_COMPLEX" | "MPI_COMPLEX" | "MPI_COMPLEX8" => {
            Complex(4)
        }
        "MPI_C_DOUBLE_COMPLEX"
        | "MPI_CXX_DOUBLE_COMPLEX"
        | "MPI_DOUBLE_COMPLEX"
        | "MPI_COMPLEX16" => Complex(8),
        "MPI_COMPLEX32" => Complex(16),
        "MPI_LONG_DOUBLE" => LongDouble,
        "MPI_C_LONG_DOUBLE_COMPLEX" | "MPI_CXX_LONG_DOUBLE_COMPLEX" => LongDoubleComplex,
        "MPI_LOGICAL" => Logical(FINT as u8),
        "MPI_INTEGER" => fint,
        "MPI_CHARACTER" | "MPI_CHAR" => Char,
        "MPI_C_BOOL" | "MPI_CXX_BOOL" => Bool,
        "MPI_WCHAR" => WChar,
        "MPI_INT8_T" | "MPI_SIGNED_CHAR" => int(1, true),
        "MPI_INTEGER1" => fortran(1),
        "MPI_UINT8_T" | "MPI_UNSIGNED_CHAR" => int(1, false),
        "MPI_BYTE" => Byte,
        "MPI_INT16_T" => int(2, true),
        "MPI_INTEGER2" => fortran(2),
        "MPI_UINT16_T" => int(2, false),
        "MPI_INT32_T" => int(4, true),
        "MPI_INTEGER4" => fortran(4),
        "MPI_UINT32_T" => int(4, false),
        "MPI_UINT64_T" => int(8, false),
        "MPI_INTEGER16" => fortran(16),
        "MPI_LOGICAL1" => Logical(1),
        "MPI_LOGICAL2" => Logical(2),
        "MPI_LOGICAL4" => Logical(4),
        "MPI_LOGICAL8" => Logical(8),
        "MPI_LOGICAL16" => Logical(16),
        // Every row of PREDEFINED is named above (a test checks it); a byte otherwise.
        _ => Byte,
    };
    TypeMap::basic(kind, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::basic::{layout_kind, predefined_kind, BasicKind};
    use crate::engine::PredefinedOp;

    #[test]
    fn every_predefined_type_has_a_kind_of_its_size() {
        for (i, p) in PREDEFINED.iter().enumerate() {
            let map = type_map(i as u32, p);
            assert_eq!(map.size(), p.size, "{}", p.c_name());
            assert!(
                map.basic_kind() != Some(Basic::Byte) || p.c_name() == "MPI_BYTE",
                "{} has no kind",
                p.c_name()
            );
            assert_eq!(map.predefined_index(), Some(i as u32));
        }
        // A derived datatype's elements get their kind from the layout alone: of the same
        // size and in the same op group as the predefined type's own kind (C and Fortran
        // integers, and the multi-language types, share their ops).
        for (i, p) in PREDEFINED.iter().enumerate() {
            let map = type_map(i as u32, p);
            let (Some(basic), Some(own)) = (map.basic_kind(), predefined_kind(p.c_name())) else {
                continue;
            };
            let kind = layout_kind(basic);
            assert_eq!(kind.size(), own.size(), "{}", p.c_name());
            let same_ops = |k: BasicKind| {
                PredefinedOp::ALL
                    .iter()
                    .map(|op| op.check(&[k], true).is_ok())
                    .collect::<Vec<_>>()
            };
            assert_eq!(same_ops(kind), same_ops(own), "{}", p.c_name());
        }
        let by_name = |name: &str| {
            let i = PREDEFINED.iter().position(|p| p.c_name() == name).unwrap();
            type_map(i as u32, &PREDEFINED[i])
        };
        // The pairs' C struct layouts.
        assert_eq!(by_name("MPI_DOUBLE_INT").extent(), 16);
        assert_eq!(by_name("MPI_SHORT_INT").extent(), 8);
        assert_eq!(by_name("MPI_LONG_DOUBLE_INT").extent(), 32);
        assert_eq!(by_name("MPI_2INT").signature().len(), 1);
        assert_eq!(by_name("MPI_2INT").elements(), 2);
    }
}
