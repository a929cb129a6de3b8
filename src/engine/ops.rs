//! Reduction operations (MPI-4.1 §6.9): the predefined ones applied to packed data, user
//! functions stored as callbacks, and the op table.
//!
//! A predefined op works on packed elements (see [`super::basic`]): `inout[i] = in[i] op
//! inout[i]`, element by element. A user function is never given packed data: it receives
//! the addresses of the user's own buffers, the count and the datatype handle, exactly as the
//! shell was given them, and is called with no lock held.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::basic::{signature_size, BasicKind, TypeGroup};
use super::error::{Error, Result};
use super::table::Table;
use super::{predefined_id, Datatype, Universe, PREDEFINED_GENERATION};

/// A reduction operation handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Op(pub super::Id);

/// The predefined operations, in the order of their table slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredefinedOp {
    /// MPI_MAX.
    Max,
    /// MPI_MIN.
    Min,
    /// MPI_SUM.
    Sum,
    /// MPI_PROD.
    Prod,
    /// MPI_LAND.
    Land,
    /// MPI_BAND.
    Band,
    /// MPI_LOR.
    Lor,
    /// MPI_BOR.
    Bor,
    /// MPI_LXOR.
    Lxor,
    /// MPI_BXOR.
    Bxor,
    /// MPI_MINLOC.
    Minloc,
    /// MPI_MAXLOC.
    Maxloc,
    /// MPI_REPLACE (accumulate functions only).
    Replace,
    /// MPI_NO_OP (accumulate functions only).
    NoOp,
}

use crate::abi as c;

impl PredefinedOp {
    /// Every predefined op, in table order.
    pub const ALL: [PredefinedOp; 14] = [
        PredefinedOp::Max,
        PredefinedOp::Min,
        PredefinedOp::Sum,
        PredefinedOp::Prod,
        PredefinedOp::Land,
        PredefinedOp::Band,
        PredefinedOp::Lor,
        PredefinedOp::Bor,
        PredefinedOp::Lxor,
        PredefinedOp::Bxor,
        PredefinedOp::Minloc,
        PredefinedOp::Maxloc,
        PredefinedOp::Replace,
        PredefinedOp::NoOp,
    ];

    /// The C name, e.g. `MPI_SUM`.
    pub fn name(self) -> &'static str {
        match self {
            PredefinedOp::Max => "MPI_MAX",
            PredefinedOp::Min => "MPI_MIN",
            PredefinedOp::Sum => "MPI_SUM",
            PredefinedOp::Prod => "MPI_PROD",
            PredefinedOp::Land => "MPI_LAND",
            PredefinedOp::Band => "MPI_BAND",
            PredefinedOp::Lor => "MPI_LOR",
            PredefinedOp::Bor => "MPI_BOR",
            PredefinedOp::Lxor => "MPI_LXOR",
            PredefinedOp::Bxor => "MPI_BXOR",
            PredefinedOp::Minloc => "MPI_MINLOC",
            PredefinedOp::Maxloc => "MPI_MAXLOC",
            PredefinedOp::Replace => "MPI_REPLACE",
            PredefinedOp::NoOp => "MPI_NO_OP",
        }
    }

    /// The handle value of `include/mpi.h`.
    pub const fn abi_handle(self) -> usize {
        (match self {
            PredefinedOp::Max => c::MPIATTR_HANDLE_MPI_MAX,
            PredefinedOp::Min => c::MPIATTR_HANDLE_MPI_MIN,
            PredefinedOp::Sum => c::MPIATTR_HANDLE_MPI_SUM,
            PredefinedOp::Prod => c::MPIATTR_HANDLE_MPI_PROD,
            PredefinedOp::Land => c::MPIATTR_HANDLE_MPI_LAND,
            PredefinedOp::Band => c::MPIATTR_HANDLE_MPI_BAND,
            PredefinedOp::Lor => c::MPIATTR_HANDLE_MPI_LOR,
            PredefinedOp::Bor => c::MPIATTR_HANDLE_MPI_BOR,
            PredefinedOp::Lxor => c::MPIATTR_HANDLE_MPI_LXOR,
            PredefinedOp::Bxor => c::MPIATTR_HANDLE_MPI_BXOR,
            PredefinedOp::Minloc => c::MPIATTR_HANDLE_MPI_MINLOC,
            PredefinedOp::Maxloc => c::MPIATTR_HANDLE_MPI_MAXLOC,
            PredefinedOp::Replace => c::MPIATTR_HANDLE_MPI_REPLACE,
            PredefinedOp::NoOp => c::MPIATTR_HANDLE_MPI_NO_OP,
        }) as usize
    }

    /// The predefined op whose handle value is `handle`, if any: one look-up in a table
    /// built at compile time (the handles are small: below 0x40 in the standard ABI).
    #[inline(always)]
    pub fn from_handle(handle: usize) -> Option<PredefinedOp> {
        static BY_HANDLE: [Option<PredefinedOp>; 0x40] = {
            let mut table = [None; 0x40];
            let mut i = 0;
            while i < PredefinedOp::ALL.len() {
                let op = PredefinedOp::ALL[i];
                table[op.abi_handle()] = Some(op);
                i += 1;
            }
            table
        };
        BY_HANDLE.get(handle).copied().flatten()
    }

    /// Its handle.
    pub fn op(self) -> Op {
        Op(predefined_id(self as u32))
    }

    /// Whether MPI-4.1 §6.9.2 defines the op on values of `group` (`MPI_REPLACE` and
    /// `MPI_NO_OP`, MPI-4.1 §13.3.4, take any).
    pub fn is_defined_on(self, group: TypeGroup) -> bool {
        use TypeGroup::*;
        match self {
            PredefinedOp::Max | PredefinedOp::Min => {
                matches!(
                    group,
                    CInteger | FortranInteger | FloatingPoint | MultiLanguage
                )
            }
            PredefinedOp::Sum | PredefinedOp::Prod => matches!(
                group,
                CInteger | FortranInteger | FloatingPoint | Complex | MultiLanguage
            ),
            PredefinedOp::Land | PredefinedOp::Lor | PredefinedOp::Lxor => {
                matches!(group, CInteger | Logical)
            }
            PredefinedOp::Band | PredefinedOp::Bor | PredefinedOp::Bxor => {
                matches!(group, CInteger | FortranInteger | Byte | MultiLanguage)
            }
            PredefinedOp::Minloc | PredefinedOp::Maxloc => group == Pair,
            PredefinedOp::Replace | PredefinedOp::NoOp => true,
        }
    }

    /// Checks that the op can combine values of `signature` in a reduction (`accumulate`
    /// false: MPI_REPLACE and MPI_NO_OP are refused) or an accumulate function.
    ///
    /// Errors: [`Error::OpOnlyForAccumulate`], [`Error::OpNotDefined`] (both `MPI_ERR_OP`).
    pub fn check(self, signature: &[BasicKind], accumulate: bool) -> Result<()> {
        if !accumulate && matches!(self, PredefinedOp::Replace | PredefinedOp::NoOp) {
            return Err(Error::OpOnlyForAccumulate(self.name()));
        }
        for kind in signature {
            if !self.is_defined_on(kind.group()) {
                return Err(Error::OpNotDefined {
                    op: self,
                    kind: *kind,
                });
            }
        }
        Ok(())
    }

    /// `inout[i] = input[i] op inout[i]` for `count` elements of `signature`, packed. Checks
    /// the pair as [`PredefinedOp::check`] does for an accumulate function (MPI_REPLACE and
    /// MPI_NO_OP apply), and that both streams hold exactly `count` elements
    /// ([`Error::Internal`] otherwise: the shell packed them); on error nothing changes.
    ///
    /// ```
    /// use mpiattr::engine::{BasicKind, PredefinedOp};
    ///
    /// let input: Vec<u8> = [1.5f64, -2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    /// let mut inout: Vec<u8> = [0.5f64, 4.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    /// PredefinedOp::Sum.apply(2, &[BasicKind::F64], &input, &mut inout)?;
    /// assert_eq!(f64::from_le_bytes(inout[8..].try_into().unwrap()), 2.0);
    /// let refused = PredefinedOp::Band.apply(2, &[BasicKind::F64], &input, &mut inout);
    /// assert_eq!(refused.unwrap_err().class(), mpiattr::ErrorClass::Op);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn apply(
        self,
        count: usize,
        signature: &[BasicKind],
        input: &[u8],
        inout: &mut [u8],
    ) -> Result<()> {
        self.check(signature, true)?;
        let bytes = count
            .checked_mul(signature_size(signature))
            .ok_or(Error::InvalidCount)?;
        if input.len() != bytes || inout.len() != bytes {
            return Err(Error::Internal("packed data of the wrong length"));
        }
        if bytes == 0 || self == PredefinedOp::NoOp {
            return Ok(());
        }
        if self == PredefinedOp::Replace {
            inout.copy_from_slice(input);
            return Ok(());
        }
        let first = signature[0];
        if signature.iter().all(|kind| *kind == first) {
            // One kind throughout (the common case): one run over the whole stream.
            apply_kind(self, first, input, inout);
            return Ok(());
        }
        // Runs of equal kinds within one element, applied element after element.
        let mut runs: Vec<(BasicKind, usize, usize)> = Vec::new();
        let mut offset = 0;
        for kind in signature {
            match runs.last_mut() {
                Some((last, _, len)) if last == kind => *len += kind.size(),
                _ => runs.push((*kind, offset, kind.size())),
            }
            offset += kind.size();
        }
        let element = offset;
        for (a, b) in input
            .chunks_exact(element)
            .zip(inout.chunks_exact_mut(element))
        {
            for &(kind, at, len) in &runs {
                apply_kind(self, kind, &a[at..at + len], &mut b[at..at + len]);
            }
        }
        Ok(())
    }
}

impl fmt::Display for PredefinedOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---- element loops -----------------------------------------------------------------------

/// A fixed-size value read from and written to packed (little-endian, unaligned) bytes.
trait Elem: Copy {
    const SIZE: usize;
    fn load(bytes: &[u8]) -> Self;
    fn store(self, bytes: &mut [u8]);
}

macro_rules! elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("chunk of the element's size"))
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                bytes.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

elem!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, f32, f64);

/// `inout = f(input, inout)` value by value: a loop the compiler vectorises.
#[inline(always)]
fn zip<T: Elem>(input: &[u8], inout: &mut [u8], f: impl Fn(T, T) -> T) {
    for (a, b) in input
        .chunks_exact(T::SIZE)
        .zip(inout.chunks_exact_mut(T::SIZE))
    {
        f(T::load(a), T::load(b)).store(b);
    }
}

macro_rules! integer_op {
    ($t:ty, $op:expr, $input:expr, $inout:expr) => {{
        let (input, inout) = ($input, $inout);
        match $op {
            PredefinedOp::Max => zip::<$t>(input, inout, |a, b| if a > b { a } else { b }),
            PredefinedOp::Min => zip::<$t>(input, inout, |a, b| if a < b { a } else { b }),
            PredefinedOp::Sum => zip::<$t>(input, inout, |a, b| a.wrapping_add(b)),
            PredefinedOp::Prod => zip::<$t>(input, inout, |a, b| a.wrapping_mul(b)),
            PredefinedOp::Band => zip::<$t>(input, inout, |a, b| a & b),
            PredefinedOp::Bor => zip::<$t>(input, inout, |a, b| a | b),
            PredefinedOp::Bxor => zip::<$t>(input, inout, |a, b| a ^ b),
            PredefinedOp::Land => zip::<$t>(input, inout, |a, b| ((a != 0) & (b != 0)) as $t),
            PredefinedOp::Lor => zip::<$t>(input, inout, |a, b| ((a != 0) | (b != 0)) as $t),
            PredefinedOp::Lxor => zip::<$t>(input, inout, |a, b| ((a != 0) ^ (b != 0)) as $t),
            PredefinedOp::Minloc
            | PredefinedOp::Maxloc
            | PredefinedOp::Replace
            | PredefinedOp::NoOp => unreachable_op(),
        }
    }};
}

macro_rules! float_op {
    ($t:ty, $op:expr, $input:expr, $inout:expr) => {{
        let (input, inout) = ($input, $inout);
        match $op {
            // As C's `a > b ? a : b`: a NaN in either keeps inout's value.
            PredefinedOp::Max => zip::<$t>(input, inout, |a, b| if a > b { a } else { b }),
            PredefinedOp::Min => zip::<$t>(input, inout, |a, b| if a < b { a } else { b }),
            PredefinedOp::Sum => zip::<$t>(input, inout, |a, b| a + b),
            PredefinedOp::Prod => zip::<$t>(input, inout, |a, b| a * b),
            _ => unreachable_op(),
        }
    }};
}

macro_rules! complex_op {
    ($t:ty, $op:expr, $input:expr, $inout:expr) => {{
        let (input, inout) = ($input, $inout);
        match $op {
            PredefinedOp::Sum => zip::<$t>(input, inout, |a, b| a + b),
            PredefinedOp::Prod => {
                const N: usize = std::mem::size_of::<$t>();
                for (a, b) in input.chunks_exact(2 * N).zip(inout.chunks_exact_mut(2 * N)) {
                    let (ar, ai) = (<$t>::load(&a[..N]), <$t>::load(&a[N..]));
                    let (br, bi) = (<$t>::load(&b[..N]), <$t>::load(&b[N..]));
                    (ar * br - ai * bi).store(&mut b[..N]);
                    (ar * bi + ai * br).store(&mut b[N..]);
                }
            }
            _ => unreachable_op(),
        }
    }};
}

/// Checked before any loop runs: [`PredefinedOp::check`] refuses every other pair.
#[cold]
fn unreachable_op() {
    debug_assert!(false, "an op applied to a kind it was not checked for");
}

/// Applies a checked op to a run of values of one kind.
fn apply_kind(op: PredefinedOp, kind: BasicKind, input: &[u8], inout: &mut [u8]) {
    use BasicKind::*;
    match kind {
        I8 => integer_op!(i8, op, input, inout),
        I16 => integer_op!(i16, op, input, inout),
        I32 => integer_op!(i32, op, input, inout),
        I64 | Aint | Offset | Count => integer_op!(i64, op, input, inout),
        U8 | Byte => integer_op!(u8, op, input, inout),
        U16 => integer_op!(u16, op, input, inout),
        U32 => integer_op!(u32, op, input, inout),
        U64 => integer_op!(u64, op, input, inout),
        FInt1 => integer_op!(i8, op, input, inout),
        FInt2 => integer_op!(i16, op, input, inout),
        FInt4 => integer_op!(i32, op, input, inout),
        FInt8 => integer_op!(i64, op, input, inout),
        FInt16 => integer_op!(i128, op, input, inout),
        // Logical values: any non-zero value is true, results are 1 or 0 (gfortran's .TRUE.
        // and .FALSE.; C's true and false).
        CBool | Logical1 => integer_op!(u8, op, input, inout),
        Logical2 => integer_op!(u16, op, input, inout),
        Logical4 => integer_op!(u32, op, input, inout),
        Logical8 => integer_op!(u64, op, input, inout),
        Logical16 => integer_op!(u128, op, input, inout),
        F32 => float_op!(f32, op, input, inout),
        F64 => float_op!(f64, op, input, inout),
        F16 | LongDouble | F128 if matches!(op, PredefinedOp::Sum | PredefinedOp::Prod) => {
            soft_op(op, kind, input, inout)
        }
        F16 | LongDouble | F128 => wide_float_op(op, kind, input, inout),
        ComplexF16 | ComplexLongDouble | ComplexF128 => soft_op(op, kind, input, inout),
        ComplexF32 => complex_op!(f32, op, input, inout),
        ComplexF64 => complex_op!(f64, op, input, inout),
        FloatInt => loc(op, 4, 4, input, inout, cmp_f32, cmp_i32),
        DoubleInt => loc(op, 8, 4, input, inout, cmp_f64, cmp_i32),
        LongInt => loc(op, 8, 4, input, inout, cmp_int::<i64>, cmp_i32),
        TwoInt => loc(op, 4, 4, input, inout, cmp_i32, cmp_i32),
        ShortInt => loc(op, 2, 4, input, inout, cmp_int::<i16>, cmp_i32),
        LongDoubleInt => loc(op, 16, 4, input, inout, cmp_long_double, cmp_i32),
        TwoReal => loc(op, 4, 4, input, inout, cmp_f32, cmp_f32),
        TwoDoublePrecision => loc(op, 8, 8, input, inout, cmp_f64, cmp_f64),
        TwoInteger => {
            let half = kind.size() / 2;
            if half == 8 {
                loc(op, 8, 8, input, inout, cmp_int::<i64>, cmp_int::<i64>)
            } else {
                loc(op, 4, 4, input, inout, cmp_i32, cmp_i32)
            }
        }
        Char | WChar | Packed => unreachable_op(),
    }
}

fn cmp_int<T: Elem + Ord>(a: &[u8], b: &[u8]) -> Option<Ordering> {
    Some(T::load(a).cmp(&T::load(b)))
}

fn cmp_i32(a: &[u8], b: &[u8]) -> Option<Ordering> {
    cmp_int::<i32>(a, b)
}

fn cmp_f32(a: &[u8], b: &[u8]) -> Option<Ordering> {
    f32::load(a).partial_cmp(&f32::load(b))
}

fn cmp_f64(a: &[u8], b: &[u8]) -> Option<Ordering> {
    f64::load(a).partial_cmp(&f64::load(b))
}

fn cmp_long_double(a: &[u8], b: &[u8]) -> Option<Ordering> {
    let (a, b) = (
        wide_key(BasicKind::LongDouble, a)?,
        wide_key(BasicKind::LongDouble, b)?,
    );
    Some(a.cmp(&b))
}

/// MINLOC / MAXLOC over (value, index) pairs of `value_size` and `index_size` bytes: the
/// better value wins with its index; equal values keep the smaller index (MPI-4.1 §6.9.4).
/// A value that compares with nothing (NaN) leaves inout as it is.
fn loc(
    op: PredefinedOp,
    value_size: usize,
    index_size: usize,
    input: &[u8],
    inout: &mut [u8],
    value: fn(&[u8], &[u8]) -> Option<Ordering>,
    index: fn(&[u8], &[u8]) -> Option<Ordering>,
) {
    let better = if op == PredefinedOp::Minloc {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    let size = value_size + index_size;
    for (a, b) in input.chunks_exact(size).zip(inout.chunks_exact_mut(size)) {
        let (av, ai) = a.split_at(value_size);
        match value(av, &b[..value_size]) {
            Some(order) if order == better => b.copy_from_slice(a),
            Some(Ordering::Equal) if index(ai, &b[value_size..]) == Some(Ordering::Less) => {
                b[value_size..].copy_from_slice(ai)
            }
            _ => {}
        }
    }
}

// ---- binary16, x87 long double, binary128: compared exactly ------------------------------

/// An integer that orders like the value, or `None` for a NaN. Both zeros give 0.
fn wide_key(kind: BasicKind, bytes: &[u8]) -> Option<i128> {
    let (negative, magnitude, nan) = match kind {
        BasicKind::F16 => {
            let bits = u16::load(&bytes[..2]);
            let magnitude = bits & 0x7fff;
            (bits >> 15 == 1, magnitude as u128, magnitude > 0x7c00)
        }
        BasicKind::LongDouble => {
            // 64-bit significand (explicit integer bit), 15-bit exponent, sign: 10 bytes.
            let significand = u64::load(&bytes[..8]);
            let top = u16::load(&bytes[8..10]);
            let exponent = top & 0x7fff;
            let magnitude = ((exponent as u128) << 64) | significand as u128;
            let nan = exponent == 0x7fff && significand << 1 != 0;
            (top >> 15 == 1, magnitude, nan)
        }
        _ => {
            let bits = u128::load(&bytes[..16]);
            let magnitude = bits & !(1u128 << 127);
            (bits >> 127 == 1, magnitude, magnitude > 0x7fff_u128 << 112)
        }
    };
    if nan {
        return None;
    }
    let magnitude = magnitude as i128;
    Some(if negative { -magnitude } else { magnitude })
}

/// MAX and MIN on binary16, long double and binary128 (SUM and PROD go to [`soft_op`]): the
/// chosen operand's bytes are copied whole, padding included.
fn wide_float_op(op: PredefinedOp, kind: BasicKind, input: &[u8], inout: &mut [u8]) {
    let size = kind.size();
    let better = match op {
        PredefinedOp::Max => Ordering::Greater,
        PredefinedOp::Min => Ordering::Less,
        _ => return unreachable_op(),
    };
    for (a, b) in input.chunks_exact(size).zip(inout.chunks_exact_mut(size)) {
        if let (Some(x), Some(y)) = (wide_key(kind, a), wide_key(kind, b)) {
            if x.cmp(&y) == better {
                b.copy_from_slice(a);
            }
        }
    }
}

/// MPI_SUM and MPI_PROD on binary16, long double and binary128 values, real or complex, in
/// software
/// ([`soft`]): each operation rounds once, as the hardware's; a complex product is
/// `(ar*br - ai*bi, ar*bi + ai*br)` with every step rounded (no fused steps, no special
/// recovery of infinities). Only the value's bytes are written: inout keeps its padding.
fn soft_op(op: PredefinedOp, kind: BasicKind, input: &[u8], inout: &mut [u8]) {
    let (format, size, width) = match kind {
        BasicKind::F16 | BasicKind::ComplexF16 => (soft::HALF, 2, 2),
        BasicKind::F128 | BasicKind::ComplexF128 => (soft::QUAD, 16, 16),
        _ => (soft::X87, 16, 10),
    };
    let load = |bytes: &[u8]| {
        let mut wide = [0u8; 16];
        wide[..width].copy_from_slice(&bytes[..width]);
        u128::from_le_bytes(wide)
    };
    let store = |value: u128, bytes: &mut [u8]| {
        bytes[..width].copy_from_slice(&value.to_le_bytes()[..width]);
    };
    let complex = matches!(
        kind,
        BasicKind::ComplexF16 | BasicKind::ComplexLongDouble | BasicKind::ComplexF128
    );
    let element = if complex { 2 * size } else { size };
    for (a, b) in input
        .chunks_exact(element)
        .zip(inout.chunks_exact_mut(element))
    {
        match (op, complex) {
            (PredefinedOp::Sum, false) => store(format.add(load(a), load(b)), b),
            (PredefinedOp::Prod, false) => store(format.mul(load(a), load(b)), b),
            (PredefinedOp::Sum, true) => {
                let re = format.add(load(a), load(b));
                let im = format.add(load(&a[size..]), load(&b[size..]));
                store(re, b);
                store(im, &mut b[size..]);
            }
            (PredefinedOp::Prod, true) => {
                let (ar, ai) = (load(a), load(&a[size..]));
                let (br, bi) = (load(b), load(&b[size..]));
                let re = format.add(format.mul(ar, br), format.negate(format.mul(ai, bi)));
                let im = format.add(format.mul(ar, bi), format.mul(ai, br));
                store(re, b);
                store(im, &mut b[size..]);
            }
            _ => return unreachable_op(),
        }
    }
}

// ---- user functions and the op table -----------------------------------------------------

/// A user reduction function (MPI_Op_create): combines `count` elements of `datatype` as
/// `inout[i] = input[i] op inout[i]`. `input` and `inout` are the addresses of the user's own
/// buffers, as the shell received them; the engine never reads them. Called with no engine
/// lock held.
pub trait UserFunction: Send + Sync {
    /// Runs the function.
    fn call(&self, input: usize, inout: usize, count: usize, datatype: Datatype);
}

impl<F> UserFunction for F
where
    F: Fn(usize, usize, usize, Datatype) + Send + Sync,
{
    fn call(&self, input: usize, inout: usize, count: usize, datatype: Datatype) {
        self(input, inout, count, datatype)
    }
}

/// What an op handle names.
#[derive(Clone)]
pub(crate) enum OpData {
    Predefined(PredefinedOp),
    User {
        function: Arc<dyn UserFunction>,
        commutative: bool,
    },
}

impl fmt::Debug for OpData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpData::Predefined(op) => write!(f, "{op}"),
            OpData::User { commutative, .. } => f
                .debug_struct("User")
                .field("commutative", commutative)
                .finish_non_exhaustive(),
        }
    }
}

/// The op table with the predefined ops in their slots.
pub(crate) fn op_table() -> Table<OpData> {
    let mut table = Table::default();
    for op in PredefinedOp::ALL {
        table.insert_predefined(OpData::Predefined(op));
    }
    table
}

/// How an op is to be applied, taken out of the table so that it runs with no lock held.
#[derive(Clone)]
pub enum OpCall {
    /// A predefined op: the shell packs the operands and calls [`PredefinedOp::apply`].
    Predefined(PredefinedOp),
    /// A user function: the shell calls [`UserOp::call`] with the user's buffers.
    User(UserOp),
}

impl fmt::Debug for OpCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpCall::Predefined(op) => write!(f, "Predefined({op})"),
            OpCall::User(user) => write!(f, "User(commutative: {})", user.commutative),
        }
    }
}

/// A user op, ready to call.
#[derive(Clone)]
pub struct UserOp {
    function: Arc<dyn UserFunction>,
    /// What MPI_Op_create was told.
    pub commutative: bool,
}

impl UserOp {
    /// Calls the user function on the user's buffers (see [`UserFunction`]).
    pub fn call(&self, input: usize, inout: usize, count: usize, datatype: Datatype) {
        self.function.call(input, inout, count, datatype)
    }
}

impl Universe {
    /// The predefined op whose C handle value is `handle` (not MPI_OP_NULL), if any.
    #[inline(always)]
    pub fn predefined_op(handle: usize) -> Option<Op> {
        PredefinedOp::from_handle(handle).map(PredefinedOp::op)
    }

    /// The predefined op `op` names, if it is one.
    pub fn predefined_op_kind(op: Op) -> Option<PredefinedOp> {
        if op.0.generation() != PREDEFINED_GENERATION {
            return None;
        }
        PredefinedOp::ALL.get(op.0.index() as usize).copied()
    }

    /// MPI_Op_create: a user op. Errors: [`Error::Finalized`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mpiattr::engine::{Op, OpCall};
    /// use mpiattr::{ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let op = universe.op_create(Arc::new(|_input, _inout, _count, _datatype| {}), false)?;
    /// assert!(!universe.op_commutative(op)?);
    /// assert!(matches!(universe.op_call(op)?, OpCall::User(_)));
    /// universe.op_free(op)?;
    /// assert_eq!(universe.op_commutative(op).unwrap_err().class(), mpiattr::ErrorClass::Op);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn op_create(&self, function: Arc<dyn UserFunction>, commutative: bool) -> Result<Op> {
        let mut state = self.lock()?;
        state.check_live()?;
        state
            .ops
            .insert(OpData::User {
                function,
                commutative,
            })
            .map(Op)
            .ok_or(Error::TooManyObjects("op"))
    }

    /// MPI_Op_free. Errors: [`Error::InvalidOp`], [`Error::PredefinedOp`] (both
    /// `MPI_ERR_OP`).
    pub fn op_free(&self, op: Op) -> Result<()> {
        let mut state = self.lock()?;
        match state.ops.get(op.0) {
            None => Err(Error::InvalidOp(state.ops.problem(op.0))),
            Some(OpData::Predefined(p)) => Err(Error::PredefinedOp(p.name())),
            Some(OpData::User { .. }) => {
                let gone = state.ops.remove(op.0);
                drop(state);
                // The function (and whatever it holds) goes with no lock held.
                drop(gone);
                Ok(())
            }
        }
    }

    /// MPI_Op_commutative: true for every predefined op. Errors: [`Error::InvalidOp`].
    pub fn op_commutative(&self, op: Op) -> Result<bool> {
        Ok(match self.op_call(op)? {
            OpCall::Predefined(_) => true,
            OpCall::User(user) => user.commutative,
        })
    }

    /// What `op` is, to apply it with no lock held. Errors: [`Error::InvalidOp`].
    pub fn op_call(&self, op: Op) -> Result<OpCall> {
        let state = self.lock()?;
        match state.ops.get(op.0) {
            None => Err(Error::InvalidOp(state.ops.problem(op.0))),
            Some(OpData::Predefined(p)) => Ok(OpCall::Predefined(*p)),
            Some(OpData::User {
                function,
                commutative,
            }) => Ok(OpCall::User(UserOp {
                function: function.clone(),
                commutative: *commutative,
            })),
        }
    }

    /// How many ops live (the 14 predefined ones included).
    pub fn op_count(&self) -> Result<usize> {
        Ok(self.lock()?.ops.len())
    }

    /// MPI_Reduce_local, checked: `count` elements of `datatype` (whose signature is
    /// `signature`) combined by `op`. For a predefined op the shell then packs both buffers,
    /// calls [`PredefinedOp::apply`] and unpacks inout; for a user op it calls
    /// [`UserOp::call`] with its own buffers, `count` and `datatype`.
    ///
    /// Errors: [`Error::InvalidOp`], [`Error::InvalidCount`], an invalid or uncommitted
    /// datatype (`MPI_ERR_TYPE`), and for a predefined op those of [`PredefinedOp::check`]
    /// (MPI_REPLACE and MPI_NO_OP are refused: they belong to accumulate functions).
    ///
    /// ```
    /// use mpiattr::engine::{BasicKind, OpCall, PredefinedOp};
    /// use mpiattr::{ErrorClass, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let int = Universe::predefined_datatype(0x209).unwrap(); // MPI_INT
    /// let sum = PredefinedOp::Sum.op();
    /// let OpCall::Predefined(op) = universe.reduce_local(sum, 2, int, &[BasicKind::I32])? else {
    ///     unreachable!()
    /// };
    /// let input: Vec<u8> = [1i32, 2].iter().flat_map(|x| x.to_le_bytes()).collect();
    /// let mut inout: Vec<u8> = [10i32, 20].iter().flat_map(|x| x.to_le_bytes()).collect();
    /// op.apply(2, &[BasicKind::I32], &input, &mut inout)?;
    /// assert_eq!(inout[4], 22);
    /// let replace = PredefinedOp::Replace.op();
    /// let refused = universe.reduce_local(replace, 2, int, &[BasicKind::I32]).unwrap_err();
    /// assert_eq!(refused.class(), ErrorClass::Op);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn reduce_local(
        &self,
        op: Op,
        count: i64,
        datatype: Datatype,
        signature: &[BasicKind],
    ) -> Result<OpCall> {
        let call = self.op_call(op)?;
        let _ = super::collectives::count(count)?;
        self.check_datatype_signature(datatype, signature)?;
        if let OpCall::Predefined(p) = &call {
            p.check(signature, false)?;
        }
        Ok(call)
    }
}

mod soft;
#[cfg(test)]
mod tests;
