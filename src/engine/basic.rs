//! The basic element kinds that packed data is made of, as reductions and collectives see it.
//!
//! The datatype engine maps every predefined datatype onto one [`BasicKind`], and describes a
//! datatype by its *signature*: the kinds of one element's basic values, in order. Packed
//! data is a stream of those values with no gaps, each in its native little-endian memory
//! representation and [`BasicKind::size`] bytes long.
//!
//! Long double (`MPI_LONG_DOUBLE` and the C long double complex types) is the x86-64 x87
//! 80-bit extended format stored in 16 bytes: the value is in the first 10, the last 6 are
//! padding that packing copies unchanged. `MPI_REAL16` is IEEE binary128 and `MPI_REAL2` IEEE
//! binary16 (gfortran's `REAL(16)` and `REAL(2)` where they exist).

use std::ffi::{c_int, c_long, c_short};
use std::mem::size_of;
use std::sync::OnceLock;

use super::typemap::{Basic, IntFamily};
use super::value::Fint;

/// The groups of basic datatypes of MPI-4.1 §6.9.2, which decide which predefined operations
/// apply; [`TypeGroup::Other`] gathers the datatypes in none of them (`MPI_CHAR`, `MPI_WCHAR`,
/// `MPI_CHARACTER`, `MPI_PACKED`), which only `MPI_REPLACE` and `MPI_NO_OP` accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeGroup {
    /// C integer: `MPI_INT`, `MPI_UNSIGNED_LONG`, `MPI_INT8_T`, `MPI_SIGNED_CHAR`, ...
    CInteger,
    /// Fortran integer: `MPI_INTEGER`, `MPI_INTEGER1` ... `MPI_INTEGER16`.
    FortranInteger,
    /// Floating point: `MPI_FLOAT`, `MPI_DOUBLE`, `MPI_REAL`, `MPI_LONG_DOUBLE`, `MPI_REAL2` ...
    FloatingPoint,
    /// Logical: `MPI_LOGICAL`, `MPI_LOGICALn`, `MPI_C_BOOL`, `MPI_CXX_BOOL`.
    Logical,
    /// Complex: `MPI_COMPLEX`, `MPI_C_DOUBLE_COMPLEX`, `MPI_DOUBLE_COMPLEX`, ...
    Complex,
    /// Byte: `MPI_BYTE`.
    Byte,
    /// Multi-language types: `MPI_AINT`, `MPI_OFFSET`, `MPI_COUNT`.
    MultiLanguage,
    /// The value-and-index pairs of `MPI_MINLOC` and `MPI_MAXLOC`.
    Pair,
    /// In no group: only copied.
    Other,
}

/// One basic value of packed data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BasicKind {
    /// C `int8_t`, `signed char`.
    I8,
    /// C `int16_t`, `short`.
    I16,
    /// C `int32_t`, `int`.
    I32,
    /// C `int64_t`, `long`, `long long`.
    I64,
    /// C `uint8_t`, `unsigned char`.
    U8,
    /// C `uint16_t`, `unsigned short`.
    U16,
    /// C `uint32_t`, `unsigned`.
    U32,
    /// C `uint64_t`, `unsigned long`, `unsigned long long`.
    U64,
    /// Fortran `INTEGER(1)`.
    FInt1,
    /// Fortran `INTEGER(2)`.
    FInt2,
    /// Fortran `INTEGER(4)` (and `INTEGER` with 4-byte INTEGERs).
    FInt4,
    /// Fortran `INTEGER(8)` (and `INTEGER` with 8-byte INTEGERs).
    FInt8,
    /// Fortran `INTEGER(16)`.
    FInt16,
    /// `MPI_AINT` (signed, 8 bytes).
    Aint,
    /// `MPI_OFFSET` (signed, 8 bytes).
    Offset,
    /// `MPI_COUNT` (signed, 8 bytes).
    Count,
    /// IEEE binary16 (`MPI_REAL2`).
    F16,
    /// IEEE binary32 (`MPI_FLOAT`, `MPI_REAL`, `MPI_REAL4`).
    F32,
    /// IEEE binary64 (`MPI_DOUBLE`, `MPI_DOUBLE_PRECISION`, `MPI_REAL8`).
    F64,
    /// x87 80-bit extended in 16 bytes (`MPI_LONG_DOUBLE`).
    LongDouble,
    /// IEEE binary128 (`MPI_REAL16`).
    F128,
    /// Two binary16 (`MPI_COMPLEX4`).
    ComplexF16,
    /// Two binary32 (`MPI_C_FLOAT_COMPLEX`, `MPI_COMPLEX`, `MPI_COMPLEX8`).
    ComplexF32,
    /// Two binary64 (`MPI_C_DOUBLE_COMPLEX`, `MPI_DOUBLE_COMPLEX`, `MPI_COMPLEX16`).
    ComplexF64,
    /// Two long doubles (`MPI_C_LONG_DOUBLE_COMPLEX`).
    ComplexLongDouble,
    /// Two binary128 (`MPI_COMPLEX32`).
    ComplexF128,
    /// C `bool` (`MPI_C_BOOL`, `MPI_CXX_BOOL`): 1 byte, 0 or 1.
    CBool,
    /// Fortran `LOGICAL(1)`.
    Logical1,
    /// Fortran `LOGICAL(2)`.
    Logical2,
    /// Fortran `LOGICAL(4)` (and `LOGICAL` with 4-byte INTEGERs).
    Logical4,
    /// Fortran `LOGICAL(8)` (and `LOGICAL` with 8-byte INTEGERs).
    Logical8,
    /// Fortran `LOGICAL(16)`.
    Logical16,
    /// `MPI_BYTE`.
    Byte,
    /// `MPI_CHAR`, `MPI_CHARACTER`: characters, in no reduction group.
    Char,
    /// `MPI_WCHAR` (4 bytes), in no reduction group.
    WChar,
    /// `MPI_PACKED`: packed bytes, which match any signature.
    Packed,
    /// `MPI_FLOAT_INT`: float then int.
    FloatInt,
    /// `MPI_DOUBLE_INT`: double then int.
    DoubleInt,
    /// `MPI_LONG_INT`: long then int.
    LongInt,
    /// `MPI_2INT`.
    TwoInt,
    /// `MPI_SHORT_INT`: short then int.
    ShortInt,
    /// `MPI_LONG_DOUBLE_INT`: long double (16 bytes) then int.
    LongDoubleInt,
    /// `MPI_2REAL`.
    TwoReal,
    /// `MPI_2DOUBLE_PRECISION`.
    TwoDoublePrecision,
    /// `MPI_2INTEGER` (two default INTEGERs).
    TwoInteger,
}

/// The kind of a default Fortran INTEGER.
const FINT: BasicKind = if size_of::<Fint>() == 8 {
    BasicKind::FInt8
} else {
    BasicKind::FInt4
};

const _: () = assert!(size_of::<c_int>() == 4 && size_of::<c_long>() == 8);
const _: () = assert!(size_of::<c_short>() == 2);

impl BasicKind {
    /// Every kind.
    pub const ALL: &'static [BasicKind] = &[
        BasicKind::I8,
        BasicKind::I16,
        BasicKind::I32,
        BasicKind::I64,
        BasicKind::U8,
        BasicKind::U16,
        BasicKind::U32,
        BasicKind::U64,
        BasicKind::FInt1,
        BasicKind::FInt2,
        BasicKind::FInt4,
        BasicKind::FInt8,
        BasicKind::FInt16,
        BasicKind::Aint,
        BasicKind::Offset,
        BasicKind::Count,
        BasicKind::F16,
        BasicKind::F32,
        BasicKind::F64,
        BasicKind::LongDouble,
        BasicKind::F128,
        BasicKind::ComplexF16,
        BasicKind::ComplexF32,
        BasicKind::ComplexF64,
        BasicKind::ComplexLongDouble,
        BasicKind::ComplexF128,
        BasicKind::CBool,
        BasicKind::Logical1,
        BasicKind::Logical2,
        BasicKind::Logical4,
        BasicKind::Logical8,
        BasicKind::Logical16,
        BasicKind::Byte,
        BasicKind::Char,
        BasicKind::WChar,
        BasicKind::Packed,
        BasicKind::FloatInt,
        BasicKind::DoubleInt,
        BasicKind::LongInt,
        BasicKind::TwoInt,
        BasicKind::ShortInt,
        BasicKind::LongDoubleInt,
        BasicKind::TwoReal,
        BasicKind::TwoDoublePrecision,
        BasicKind::TwoInteger,
    ];

    /// Bytes of one value in packed data.
    pub const fn size(self) -> usize {
        use BasicKind::*;
        match self {
            I8 | U8 | FInt1 | CBool | Logical1 | Byte | Char | Packed => 1,
            I16 | U16 | FInt2 | F16 | Logical2 => 2,
            I32 | U32 | FInt4 | F32 | Logical4 | WChar | ComplexF16 => 4,
            I64 | U64 | FInt8 | Aint | Offset | Count | F64 | Logical8 | ComplexF32 => 8,
            FInt16 | LongDouble | F128 | Logical16 | ComplexF64 => 16,
            ComplexLongDouble | ComplexF128 => 32,
            FloatInt | TwoInt | TwoReal => 8,
            DoubleInt | LongInt => 12,
            ShortInt => 6,
            LongDoubleInt => 20,
            TwoDoublePrecision => 16,
            TwoInteger => 2 * size_of::<Fint>(),
        }
    }

    /// The group of MPI-4.1 §6.9.2 it belongs to.
    pub const fn group(self) -> TypeGroup {
        use BasicKind::*;
        match self {
            I8 | I16 | I32 | I64 | U8 | U16 | U32 | U64 => TypeGroup::CInteger,
            FInt1 | FInt2 | FInt4 | FInt8 | FInt16 => TypeGroup::FortranInteger,
            Aint | Offset | Count => TypeGroup::MultiLanguage,
            F16 | F32 | F64 | LongDouble | F128 => TypeGroup::FloatingPoint,
            ComplexF16 | ComplexF32 | ComplexF64 | ComplexLongDouble | ComplexF128 => {
                TypeGroup::Complex
            }
            CBool | Logical1 | Logical2 | Logical4 | Logical8 | Logical16 => TypeGroup::Logical,
            Byte => TypeGroup::Byte,
            Char | WChar | Packed => TypeGroup::Other,
            FloatInt | DoubleInt | LongInt | TwoInt | ShortInt | LongDoubleInt | TwoReal
            | TwoDoublePrecision | TwoInteger => TypeGroup::Pair,
        }
    }

    /// The basic values it is made of, as type signatures compare them: a pair is its value
    /// then its index (`MPI_FLOAT_INT` matches a float followed by an int), a complex number
    /// is itself, everything else is itself.
    pub fn parts(self) -> &'static [BasicKind] {
        use BasicKind::*;
        match self {
            FloatInt => &[F32, I32],
            DoubleInt => &[F64, I32],
            LongInt => &[I64, I32],
            TwoInt => &[I32, I32],
            ShortInt => &[I16, I32],
            LongDoubleInt => &[LongDouble, I32],
            TwoReal => &[F32, F32],
            TwoDoublePrecision => &[F64, F64],
            TwoInteger => {
                if size_of::<Fint>() == 8 {
                    &[FInt8, FInt8]
                } else {
                    &[FInt4, FInt4]
                }
            }
            _ => std::slice::from_ref(&Self::ALL[self as usize]),
        }
    }

    /// What `MPI_Op` error messages call it.
    pub fn name(self) -> &'static str {
        use BasicKind::*;
        match self {
            I8 => "8-bit integer",
            I16 => "16-bit integer",
            I32 => "32-bit integer",
            I64 => "64-bit integer",
            U8 => "8-bit unsigned integer",
            U16 => "16-bit unsigned integer",
            U32 => "32-bit unsigned integer",
            U64 => "64-bit unsigned integer",
            FInt1 => "INTEGER(1)",
            FInt2 => "INTEGER(2)",
            FInt4 => "INTEGER(4)",
            FInt8 => "INTEGER(8)",
            FInt16 => "INTEGER(16)",
            Aint => "MPI_AINT",
            Offset => "MPI_OFFSET",
            Count => "MPI_COUNT",
            F16 => "binary16 real",
            F32 => "float",
            F64 => "double",
            LongDouble => "long double",
            F128 => "binary128 real",
            ComplexF16 => "binary16 complex",
            ComplexF32 => "float complex",
            ComplexF64 => "double complex",
            ComplexLongDouble => "long double complex",
            ComplexF128 => "binary128 complex",
            CBool => "C bool",
            Logical1 => "LOGICAL(1)",
            Logical2 => "LOGICAL(2)",
            Logical4 => "LOGICAL(4)",
            Logical8 => "LOGICAL(8)",
            Logical16 => "LOGICAL(16)",
            Byte => "MPI_BYTE",
            Char => "character",
            WChar => "wide character",
            Packed => "MPI_PACKED",
            FloatInt => "MPI_FLOAT_INT",
            DoubleInt => "MPI_DOUBLE_INT",
            LongInt => "MPI_LONG_INT",
            TwoInt => "MPI_2INT",
            ShortInt => "MPI_SHORT_INT",
            LongDoubleInt => "MPI_LONG_DOUBLE_INT",
            TwoReal => "MPI_2REAL",
            TwoDoublePrecision => "MPI_2DOUBLE_PRECISION",
            TwoInteger => "MPI_2INTEGER",
        }
    }

    /// The kind of a default Fortran INTEGER in this build (`FInt4`, or `FInt8` with the
    /// `fortran-integer-8` feature); default LOGICAL has the same size.
    pub const fn fortran_integer() -> BasicKind {
        FINT
    }

    /// The kind of a default Fortran LOGICAL in this build.
    pub const fn fortran_logical() -> BasicKind {
        if size_of::<Fint>() == 8 {
            BasicKind::Logical8
        } else {
            BasicKind::Logical4
        }
    }
}

/// The kind of a predefined datatype, by its C name (`"MPI_INT"`): the mapping the datatype
/// engine is expected to use. `None` for names that are not predefined datatypes.
pub fn predefined_kind(name: &str) -> Option<BasicKind> {
    use BasicKind::*;
    Some(match name {
        "MPI_INT8_T" | "MPI_SIGNED_CHAR" => I8,
        "MPI_INT16_T" | "MPI_SHORT" => I16,
        "MPI_INT32_T" | "MPI_INT" => I32,
        "MPI_INT64_T" | "MPI_LONG" | "MPI_LONG_LONG" | "MPI_LONG_LONG_INT" => I64,
        "MPI_UINT8_T" | "MPI_UNSIGNED_CHAR" => U8,
        "MPI_UINT16_T" | "MPI_UNSIGNED_SHORT" => U16,
        "MPI_UINT32_T" | "MPI_UNSIGNED" => U32,
        "MPI_UINT64_T" | "MPI_UNSIGNED_LONG" | "MPI_UNSIGNED_LONG_LONG" => U64,
        "MPI_INTEGER1" => FInt1,
        "MPI_INTEGER2" => FInt2,
        "MPI_INTEGER4" => FInt4,
        "MPI_INTEGER8" => FInt8,
        "MPI_INTEGER16" => FInt16,
        "MPI_INTEGER" => FINT,
        "MPI_AINT" => Aint,
        "MPI_OFFSET" => Offset,
        "MPI_COUNT" => Count,
        "MPI_REAL2" => F16,
        "MPI_FLOAT" | "MPI_REAL" | "MPI_REAL4" => F32,
        "MPI_DOUBLE" | "MPI_DOUBLE_PRECISION" | "MPI_REAL8" => F64,
        "MPI_LONG_DOUBLE" => LongDouble,
        "MPI_REAL16" => F128,
        "MPI_COMPLEX4" => ComplexF16,
        "MPI_C_FLOAT_COMPLEX"
        | "MPI_C_COMPLEX"
        | "MPI_CXX_FLOAT_COMPLEX"
        | "MPI_COMPLEX"
        | "MPI_COMPLEX8" => ComplexF32,
        "MPI_C_DOUBLE_COMPLEX"
        | "MPI_CXX_DOUBLE_COMPLEX"
        | "MPI_DOUBLE_COMPLEX"
        | "MPI_COMPLEX16" => ComplexF64,
        "MPI_C_LONG_DOUBLE_COMPLEX" | "MPI_CXX_LONG_DOUBLE_COMPLEX" => ComplexLongDouble,
        "MPI_COMPLEX32" => ComplexF128,
        "MPI_C_BOOL" | "MPI_CXX_BOOL" => CBool,
        "MPI_LOGICAL1" => Logical1,
        "MPI_LOGICAL2" => Logical2,
        "MPI_LOGICAL4" => Logical4,
        "MPI_LOGICAL8" => Logical8,
        "MPI_LOGICAL16" => Logical16,
        "MPI_LOGICAL" => BasicKind::fortran_logical(),
        "MPI_BYTE" => Byte,
        "MPI_CHAR" | "MPI_CHARACTER" => Char,
        "MPI_WCHAR" => WChar,
        "MPI_PACKED" => Packed,
        "MPI_FLOAT_INT" => FloatInt,
        "MPI_DOUBLE_INT" => DoubleInt,
        "MPI_LONG_INT" => LongInt,
        "MPI_2INT" => TwoInt,
        "MPI_SHORT_INT" => ShortInt,
        "MPI_LONG_DOUBLE_INT" => LongDoubleInt,
        "MPI_2REAL" => TwoReal,
        "MPI_2DOUBLE_PRECISION" => TwoDoublePrecision,
        "MPI_2INTEGER" => TwoInteger,
        _ => return None,
    })
}

/// The kind of the predefined datatype at `index` of the predefined table (what
/// [`predefined_kind`] says of its name), looked up once.
#[inline]
pub fn predefined_kind_at(index: u32) -> Option<BasicKind> {
    static KINDS: OnceLock<Vec<Option<BasicKind>>> = OnceLock::new();
    KINDS
        .get_or_init(|| {
            super::datatypes::PREDEFINED
                .iter()
                .map(|p| predefined_kind(p.c_name()))
                .collect()
        })
        .get(index as usize)
        .copied()
        .flatten()
}

/// The kind of an element of a derived datatype, from the layout the datatype engine keeps
/// for it ([`Basic`]): its size, signedness and language family. `MPI_AINT`, `MPI_OFFSET`
/// and `MPI_COUNT` all map to `Aint` (the three are one group with the same ops, MPI-4.1
/// §6.9.2). A predefined datatype's own kind comes from [`predefined_kind`].
pub fn layout_kind(basic: Basic) -> BasicKind {
    use BasicKind::*;
    match basic {
        Basic::Int {
            family: IntFamily::MultiLanguage,
            ..
        } => Aint,
        Basic::Int {
            family: IntFamily::Fortran,
            bytes,
            ..
        } => match bytes {
            1 => FInt1,
            2 => FInt2,
            4 => FInt4,
            8 => FInt8,
            _ => FInt16,
        },
        Basic::Int {
            bytes,
            signed: true,
            ..
        } => match bytes {
            1 => I8,
            2 => I16,
            4 => I32,
            // No predefined C integer is wider than 8 bytes.
            _ => I64,
        },
        Basic::Int { bytes, .. } => match bytes {
            1 => U8,
            2 => U16,
            4 => U32,
            _ => U64,
        },
        Basic::Real(2) => F16,
        Basic::Real(4) => F32,
        Basic::Real(8) => F64,
        Basic::Real(_) => F128,
        Basic::LongDouble => LongDouble,
        Basic::Complex(2) => ComplexF16,
        Basic::Complex(4) => ComplexF32,
        Basic::Complex(8) => ComplexF64,
        Basic::Complex(_) => ComplexF128,
        Basic::LongDoubleComplex => ComplexLongDouble,
        Basic::Logical(1) => Logical1,
        Basic::Logical(2) => Logical2,
        Basic::Logical(4) => Logical4,
        Basic::Logical(8) => Logical8,
        Basic::Logical(_) => Logical16,
        Basic::Bool => CBool,
        Basic::Char => Char,
        Basic::WChar => WChar,
        Basic::Byte => Byte,
        Basic::Packed => Packed,
    }
}

/// Bytes of one element of a datatype whose signature is `signature`.
pub fn signature_size(signature: &[BasicKind]) -> usize {
    signature.iter().map(|kind| kind.size()).sum()
}

/// Whether `count_a` elements of signature `a` are the same sequence of basic values as
/// `count_b` elements of `b` (MPI-4.1 §3.3.1 type matching, at the granularity of
/// [`BasicKind`]: pairs compare as their parts). A side made only of `MPI_PACKED` matches
/// anything of the same size in bytes.
pub fn signatures_match(count_a: usize, a: &[BasicKind], count_b: usize, b: &[BasicKind]) -> bool {
    let bytes_a = count_a.checked_mul(signature_size(a));
    let bytes_b = count_b.checked_mul(signature_size(b));
    if bytes_a.is_none() || bytes_a != bytes_b {
        return false;
    }
    if bytes_a == Some(0) {
        return true;
    }
    let packed = |s: &[BasicKind]| s.iter().all(|kind| *kind == BasicKind::Packed);
    if packed(a) || packed(b) {
        return true;
    }
    if a == b {
        return count_a == count_b;
    }
    let mut left = std::iter::repeat(a)
        .take(count_a)
        .flatten()
        .flat_map(|kind| kind.parts().iter().copied());
    let mut right = std::iter::repeat(b)
        .take(count_b)
        .flatten()
        .flat_map(|kind| kind.parts().iter().copied());
    loop {
        match (left.next(), right.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_parts_agree() {
        for (i, kind) in BasicKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, i, "ALL is in declaration order");
            let parts: usize = kind.parts().iter().map(|p| p.size()).sum();
            assert_eq!(parts, kind.size(), "{kind:?}");
        }
        assert_eq!(BasicKind::LongDoubleInt.size(), 20);
        assert_eq!(BasicKind::TwoInteger.size(), 2 * size_of::<Fint>());
    }

    /// Every predefined datatype of the table has a kind of its own size.
    #[test]
    fn every_predefined_datatype_has_a_kind_of_its_size() {
        for predefined in crate::engine::datatypes::PREDEFINED {
            let kind = predefined_kind(predefined.c_name())
                .unwrap_or_else(|| panic!("{} has no kind", predefined.c_name()));
            assert_eq!(
                kind.size() as u64,
                predefined.size,
                "{}",
                predefined.c_name()
            );
        }
        assert_eq!(predefined_kind("MPI_COMM_WORLD"), None);
        assert_eq!(
            predefined_kind("MPI_INTEGER"),
            Some(BasicKind::fortran_integer())
        );
    }

    /// Random signatures and counts against the plain way: expand both into their basic
    /// values and compare the vectors.
    #[test]
    fn signature_matching_against_expansion() {
        use BasicKind::*;
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let pool = [I32, F32, F64, I16, FloatInt, TwoInt, ShortInt, DoubleInt];
        let mut matched = 0;
        for _ in 0..20_000 {
            let signature = |next: &mut dyn FnMut(u64) -> u64| -> Vec<BasicKind> {
                (0..1 + next(3))
                    .map(|_| pool[next(pool.len() as u64) as usize])
                    .collect()
            };
            let a = signature(&mut next);
            let b = if next(3) == 0 {
                a.clone()
            } else {
                signature(&mut next)
            };
            let (count_a, count_b) = (next(4) as usize, next(4) as usize);
            let expand = |count: usize, s: &[BasicKind]| -> Vec<BasicKind> {
                (0..count)
                    .flat_map(|_| s.iter().flat_map(|k| k.parts().iter().copied()))
                    .collect()
            };
            let expected = expand(count_a, &a) == expand(count_b, &b);
            assert_eq!(
                signatures_match(count_a, &a, count_b, &b),
                expected,
                "{count_a} x {a:?} against {count_b} x {b:?}"
            );
            matched += expected as usize;
        }
        assert!(matched > 2000, "{matched}");
    }

    #[test]
    fn signatures_compare_as_sequences_of_basic_values() {
        use BasicKind::*;
        assert!(signatures_match(3, &[F64], 3, &[F64]));
        assert!(!signatures_match(3, &[F64], 2, &[F64]));
        assert!(signatures_match(2, &[F64, F64], 4, &[F64]));
        assert!(signatures_match(1, &[FloatInt], 1, &[F32, I32]));
        assert!(!signatures_match(1, &[FloatInt], 1, &[I32, F32]));
        assert!(!signatures_match(1, &[I64], 1, &[F64]));
        assert!(signatures_match(8, &[Packed], 1, &[F64]));
        assert!(signatures_match(1, &[F64], 8, &[Packed]));
        assert!(!signatures_match(7, &[Packed], 1, &[F64]));
        assert!(signatures_match(0, &[F64], 0, &[I8]));
        assert!(!signatures_match(usize::MAX, &[F64], 1, &[F64]));
    }
}
