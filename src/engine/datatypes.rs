//! The predefined datatypes of the standard ABI, with their sizes on this platform.

use std::ffi::{c_int, c_long, c_longlong, c_short};
use std::mem::size_of;

use super::value::Fint;
use crate::abi as c;

/// A predefined datatype: its ABI handle value, C name and size in bytes.
pub(crate) struct Predefined {
    pub(crate) handle: usize,
    pub(crate) name: &'static str,
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
