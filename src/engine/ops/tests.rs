use std::sync::{Arc, Mutex};

use super::*;
use crate::engine::{ErrorClass, HandleProblem, ThreadLevel};
use BasicKind::*;

const C_INTEGER: &[BasicKind] = &[I8, I16, I32, I64, U8, U16, U32, U64];
const FORTRAN_INTEGER: &[BasicKind] = &[FInt1, FInt2, FInt4, FInt8, FInt16];
const MULTI_LANGUAGE: &[BasicKind] = &[Aint, Offset, Count];
const FLOATING: &[BasicKind] = &[F16, F32, F64, LongDouble, F128];
const LOGICAL: &[BasicKind] = &[CBool, Logical1, Logical2, Logical4, Logical8, Logical16];
const COMPLEX: &[BasicKind] = &[
    ComplexF16,
    ComplexF32,
    ComplexF64,
    ComplexLongDouble,
    ComplexF128,
];
const PAIRS: &[BasicKind] = &[
    FloatInt,
    DoubleInt,
    LongInt,
    TwoInt,
    ShortInt,
    LongDoubleInt,
    TwoReal,
    TwoDoublePrecision,
    TwoInteger,
];

/// The table of MPI-4.1 §6.9.2, written out kind by kind.
fn defined(op: PredefinedOp, kind: BasicKind) -> bool {
    let any = |groups: &[&[BasicKind]]| groups.iter().any(|g| g.contains(&kind));
    match op {
        PredefinedOp::Max | PredefinedOp::Min => {
            any(&[C_INTEGER, FORTRAN_INTEGER, FLOATING, MULTI_LANGUAGE])
        }
        PredefinedOp::Sum | PredefinedOp::Prod => any(&[
            C_INTEGER,
            FORTRAN_INTEGER,
            FLOATING,
            COMPLEX,
            MULTI_LANGUAGE,
        ]),
        PredefinedOp::Land | PredefinedOp::Lor | PredefinedOp::Lxor => any(&[C_INTEGER, LOGICAL]),
        PredefinedOp::Band | PredefinedOp::Bor | PredefinedOp::Bxor => {
            any(&[C_INTEGER, FORTRAN_INTEGER, &[Byte], MULTI_LANGUAGE])
        }
        PredefinedOp::Minloc | PredefinedOp::Maxloc => PAIRS.contains(&kind),
        PredefinedOp::Replace | PredefinedOp::NoOp => true,
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// x87 extended encoding of a normal (or zero) f64, with `padding` in the 6 unused bytes.
fn x87(x: f64, padding: u8) -> Vec<u8> {
    let bits = x.to_bits();
    let sign = (bits >> 63) as u16;
    let (exponent, significand) = if x == 0.0 {
        (0u16, 0u64)
    } else {
        let e = ((bits >> 52) & 0x7ff) as i32 - 1023 + 16383;
        (e as u16, (1u64 << 63) | ((bits & ((1 << 52) - 1)) << 11))
    };
    let mut out = significand.to_le_bytes().to_vec();
    out.extend_from_slice(&((sign << 15) | exponent).to_le_bytes());
    out.extend_from_slice(&[padding; 6]);
    out
}

/// binary128 encoding of a normal (or zero) f64.
fn quad(x: f64) -> Vec<u8> {
    let bits = x.to_bits();
    let sign = (bits >> 63) as u128;
    let value = if x == 0.0 {
        0
    } else {
        let e = (((bits >> 52) & 0x7ff) as i64 - 1023 + 16383) as u128;
        (e << 112) | (((bits & ((1 << 52) - 1)) as u128) << 60)
    };
    ((sign << 127) | value).to_le_bytes().to_vec()
}

/// binary16 encoding of an integer of magnitude at most 2048.
fn half(n: i32) -> Vec<u8> {
    let sign = if n < 0 { 0x8000u16 } else { 0 };
    let m = n.unsigned_abs();
    if m == 0 {
        return sign.to_le_bytes().to_vec();
    }
    let e = 31 - m.leading_zeros();
    let fraction = if e <= 10 {
        m << (10 - e)
    } else {
        m >> (e - 10)
    } & 0x3ff;
    (sign | ((e as u16 + 15) << 10) | fraction as u16)
        .to_le_bytes()
        .to_vec()
}

/// One random value of `kind` and, for the floating kinds, the number it stands for.
fn value(rng: &mut Rng, kind: BasicKind) -> (Vec<u8>, f64) {
    let small = |rng: &mut Rng| rng.below(9) as f64 - 4.0;
    match kind {
        F32 => {
            let x = small(rng) * 0.75;
            ((x as f32).to_le_bytes().to_vec(), x)
        }
        F64 => {
            let x = small(rng) / 3.0;
            (x.to_le_bytes().to_vec(), x)
        }
        F16 => {
            let n = rng.below(4097) as i32 - 2048;
            (half(n), n as f64)
        }
        LongDouble => {
            let x = small(rng) * 1.5e300;
            (x87(x, rng.next() as u8), x)
        }
        F128 => {
            let x = small(rng) * 3.0e-300;
            (quad(x), x)
        }
        ComplexF32 | ComplexF64 | TwoReal | TwoDoublePrecision | FloatInt | DoubleInt => {
            let mut out = Vec::new();
            let mut first = 0.0;
            for (i, part) in kind.parts().iter().enumerate() {
                let part = match (kind, part) {
                    (ComplexF32, _) => F32,
                    (ComplexF64, _) => F64,
                    (_, p) => *p,
                };
                let (bytes, x) = if part == I32 {
                    ((rng.below(5) as i32).to_le_bytes().to_vec(), 0.0)
                } else {
                    value(rng, part)
                };
                if i == 0 {
                    first = x;
                }
                out.extend(bytes);
            }
            if matches!(kind, ComplexF32 | ComplexF64) {
                let (more, _) = value(rng, if kind == ComplexF32 { F32 } else { F64 });
                out.extend(more);
            }
            (out, first)
        }
        ComplexF16 | ComplexLongDouble | ComplexF128 => {
            let part = match kind {
                ComplexF16 => F16,
                ComplexF128 => F128,
                _ => LongDouble,
            };
            let (mut out, x) = value(rng, part);
            out.extend(value(rng, part).0);
            (out, x)
        }
        LongDoubleInt => {
            let (mut out, x) = value(rng, LongDouble);
            out.extend((rng.below(5) as i32).to_le_bytes());
            (out, x)
        }
        LongInt | TwoInt | ShortInt | TwoInteger => {
            // Few values and few indices: ties are common.
            let mut out = Vec::new();
            for part in kind.parts() {
                let v = rng.below(4) as i64 - 2;
                out.extend_from_slice(&v.to_le_bytes()[..part.size()]);
            }
            (out, 0.0)
        }
        CBool | Logical1 | Logical2 | Logical4 | Logical8 | Logical16 => {
            let mut out = vec![0; kind.size()];
            out[0] = [0, 1, 1, 2][rng.below(4) as usize];
            (out, 0.0)
        }
        _ => {
            let mut out = rng.bytes(kind.size());
            if rng.below(4) == 0 {
                out.iter_mut().for_each(|b| *b = 0);
            }
            (out, 0.0)
        }
    }
}

fn int_of(kind: BasicKind, bytes: &[u8]) -> i128 {
    let mut wide = [0u8; 16];
    wide[..bytes.len()].copy_from_slice(bytes);
    let raw = u128::from_le_bytes(wide);
    let bits = 8 * bytes.len() as u32;
    let signed = !matches!(
        kind,
        U8 | U16 | U32 | U64 | Byte | CBool | Logical1 | Logical2 | Logical4 | Logical8 | Logical16
    );
    if signed && bits < 128 && raw >> (bits - 1) & 1 == 1 {
        (raw | (u128::MAX << bits)) as i128
    } else {
        raw as i128
    }
}

fn f64_of(kind: BasicKind, bytes: &[u8]) -> f64 {
    match kind {
        F32 => f32::from_le_bytes(bytes.try_into().unwrap()) as f64,
        _ => f64::from_le_bytes(bytes.try_into().unwrap()),
    }
}

/// The reference: one element of `a op b`, computed the plain way.
fn reference(op: PredefinedOp, kind: BasicKind, a: (&[u8], f64), b: (&[u8], f64)) -> Vec<u8> {
    let (ab, af) = a;
    let (bb, bf) = b;
    match op {
        PredefinedOp::Replace => return ab.to_vec(),
        PredefinedOp::NoOp => return bb.to_vec(),
        _ => {}
    }
    let soft_kinds = [
        F16,
        LongDouble,
        F128,
        ComplexF16,
        ComplexLongDouble,
        ComplexF128,
    ];
    if matches!(op, PredefinedOp::Sum | PredefinedOp::Prod) && soft_kinds.contains(&kind) {
        // The arithmetic is checked against the hardware in ops::soft; here, that each value
        // of the stream gets it and that only the value's bytes are written.
        let (format, size, width) = match kind {
            F16 | ComplexF16 => (super::soft::HALF, 2, 2),
            F128 | ComplexF128 => (super::soft::QUAD, 16, 16),
            _ => (super::soft::X87, 16, 10),
        };
        let get = |bytes: &[u8], at: usize| {
            let mut wide = [0u8; 16];
            wide[..width].copy_from_slice(&bytes[at..at + width]);
            u128::from_le_bytes(wide)
        };
        let mut out = bb.to_vec();
        let mut put = |at: usize, value: u128| {
            out[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        };
        let sum = op == PredefinedOp::Sum;
        if matches!(kind, F16 | LongDouble | F128) {
            let (x, y) = (get(ab, 0), get(bb, 0));
            put(
                0,
                if sum {
                    format.add(x, y)
                } else {
                    format.mul(x, y)
                },
            );
        } else {
            let (ar, ai, br, bi) = (get(ab, 0), get(ab, size), get(bb, 0), get(bb, size));
            if sum {
                put(0, format.add(ar, br));
                put(size, format.add(ai, bi));
            } else {
                let minus = format.negate(format.mul(ai, bi));
                put(0, format.add(format.mul(ar, br), minus));
                put(size, format.add(format.mul(ar, bi), format.mul(ai, br)));
            }
        }
        return out;
    }
    if [F16, LongDouble, F128].contains(&kind) {
        let take_a = match op {
            PredefinedOp::Max => af > bf,
            _ => af < bf,
        };
        return if take_a { ab.to_vec() } else { bb.to_vec() };
    }
    if PAIRS.contains(&kind) {
        let value_size = kind.parts()[0].size();
        let (va, vb) = (&ab[..value_size], &bb[..value_size]);
        let (ia, ib) = (&ab[value_size..], &bb[value_size..]);
        let index_kind = kind.parts()[1];
        let (x, y) = match kind.parts()[0] {
            F32 | F64 | LongDouble => (af, bf),
            p => (int_of(p, va) as f64, int_of(p, vb) as f64),
        };
        let (i, j) = match index_kind {
            F32 | F64 => (f64_of(index_kind, ia), f64_of(index_kind, ib)),
            _ => (int_of(index_kind, ia) as f64, int_of(index_kind, ib) as f64),
        };
        let a_better = if op == PredefinedOp::Minloc {
            x < y
        } else {
            x > y
        };
        return if a_better || (x == y && i < j) {
            if a_better {
                ab.to_vec()
            } else {
                [vb, ia].concat()
            }
        } else {
            bb.to_vec()
        };
    }
    if matches!(kind, F32 | F64) {
        let r = match op {
            PredefinedOp::Max => {
                if af > bf {
                    af
                } else {
                    bf
                }
            }
            PredefinedOp::Min => {
                if af < bf {
                    af
                } else {
                    bf
                }
            }
            PredefinedOp::Sum => {
                if kind == F32 {
                    (af as f32 + bf as f32) as f64
                } else {
                    af + bf
                }
            }
            _ => {
                if kind == F32 {
                    (af as f32 * bf as f32) as f64
                } else {
                    af * bf
                }
            }
        };
        return if kind == F32 {
            (r as f32).to_le_bytes().to_vec()
        } else {
            r.to_le_bytes().to_vec()
        };
    }
    if matches!(kind, ComplexF32 | ComplexF64) {
        let part = if kind == ComplexF32 { F32 } else { F64 };
        let n = part.size();
        let (ar, ai) = (f64_of(part, &ab[..n]), f64_of(part, &ab[n..]));
        let (br, bi) = (f64_of(part, &bb[..n]), f64_of(part, &bb[n..]));
        let (r, i) = if op == PredefinedOp::Sum {
            (ar + br, ai + bi)
        } else {
            (ar * br - ai * bi, ar * bi + ai * br)
        };
        // The small values used are exact in either precision.
        return if part == F32 {
            [(r as f32).to_le_bytes(), (i as f32).to_le_bytes()].concat()
        } else {
            [r.to_le_bytes(), i.to_le_bytes()].concat()
        };
    }
    // Integers, logicals and bytes.
    let (x, y) = (int_of(kind, ab), int_of(kind, bb));
    let r = match op {
        PredefinedOp::Max => x.max(y),
        PredefinedOp::Min => x.min(y),
        PredefinedOp::Sum => x.wrapping_add(y),
        PredefinedOp::Prod => x.wrapping_mul(y),
        PredefinedOp::Band => x & y,
        PredefinedOp::Bor => x | y,
        PredefinedOp::Bxor => x ^ y,
        PredefinedOp::Land => (x != 0 && y != 0) as i128,
        PredefinedOp::Lor => (x != 0 || y != 0) as i128,
        PredefinedOp::Lxor => ((x != 0) != (y != 0)) as i128,
        _ => unreachable!(),
    };
    r.to_le_bytes()[..kind.size()].to_vec()
}

/// Every op on every kind: the defined pairs compute what the reference computes, over
/// random streams of random lengths; the others fail with their class and change nothing.
#[test]
fn every_op_on_every_kind_against_a_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for op in PredefinedOp::ALL {
        for &kind in BasicKind::ALL {
            for round in 0..8 {
                let count = if round == 0 {
                    0
                } else {
                    rng.below(70) as usize
                };
                let a: Vec<_> = (0..count).map(|_| value(&mut rng, kind)).collect();
                let b: Vec<_> = (0..count).map(|_| value(&mut rng, kind)).collect();
                let input: Vec<u8> = a.iter().flat_map(|(v, _)| v.clone()).collect();
                let mut inout: Vec<u8> = b.iter().flat_map(|(v, _)| v.clone()).collect();
                let before = inout.clone();
                let result = op.apply(count, &[kind], &input, &mut inout);
                if !defined(op, kind) {
                    let error = result.unwrap_err();
                    assert_eq!(error.class(), ErrorClass::Op, "{op} on {kind:?}");
                    assert_eq!(inout, before);
                    assert_eq!(
                        op.check(&[kind], false).unwrap_err().class(),
                        ErrorClass::Op
                    );
                    continue;
                }
                result.unwrap();
                let expected: Vec<u8> = a
                    .iter()
                    .zip(&b)
                    .flat_map(|((x, xf), (y, yf))| reference(op, kind, (x, *xf), (y, *yf)))
                    .collect();
                assert_eq!(inout, expected, "{op} on {kind:?}, {count} values");
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn replace_and_no_op_are_for_accumulate_only() {
    for op in [PredefinedOp::Replace, PredefinedOp::NoOp] {
        let error = op.check(&[I32], false).unwrap_err();
        assert_eq!(error, Error::OpOnlyForAccumulate(op.name()));
        assert_eq!(error.class(), ErrorClass::Op);
        op.check(&[Char, Packed, LongDoubleInt], true).unwrap();
    }
    // Characters are in no group: only the accumulate-only ops take them.
    for op in PredefinedOp::ALL {
        let accepted = op.check(&[Char], true).is_ok();
        assert_eq!(
            accepted,
            matches!(op, PredefinedOp::Replace | PredefinedOp::NoOp)
        );
    }
}

#[test]
fn minloc_and_maxloc_keep_the_smaller_index_on_ties() {
    let pair = |v: f64, i: i32| [v.to_le_bytes().to_vec(), i.to_le_bytes().to_vec()].concat();
    let input = [pair(1.0, 7), pair(1.0, 2), pair(3.0, 9), pair(f64::NAN, 0)].concat();
    let inout = [pair(1.0, 3), pair(1.0, 5), pair(3.0, 4), pair(2.0, 8)].concat();
    let mut min = inout.clone();
    PredefinedOp::Minloc
        .apply(4, &[DoubleInt], &input, &mut min)
        .unwrap();
    // A tie takes the smaller index from either side; a NaN leaves inout alone.
    assert_eq!(
        min,
        [pair(1.0, 3), pair(1.0, 2), pair(3.0, 4), pair(2.0, 8)].concat()
    );
    let mut max = inout.clone();
    PredefinedOp::Maxloc
        .apply(4, &[DoubleInt], &input, &mut max)
        .unwrap();
    assert_eq!(
        max,
        [pair(1.0, 3), pair(1.0, 2), pair(3.0, 4), pair(2.0, 8)].concat()
    );
    let two_int = |v: i32, i: i32| [v.to_le_bytes(), i.to_le_bytes()].concat();
    let mut inout = [two_int(5, 1), two_int(-5, 1)].concat();
    PredefinedOp::Maxloc
        .apply(
            2,
            &[TwoInt],
            &[two_int(6, 9), two_int(-5, 0)].concat(),
            &mut inout,
        )
        .unwrap();
    assert_eq!(inout, [two_int(6, 9), two_int(-5, 0)].concat());
}

#[test]
fn long_double_compares_the_80_bit_value_and_copies_the_padding() {
    let a = [x87(1.0, 0xaa), x87(-2.0, 0xbb), x87(1.0e-300, 0xcc)].concat();
    let b = [x87(2.0, 0x11), x87(-1.0, 0x22), x87(-0.0, 0x33)].concat();
    let mut max = b.clone();
    PredefinedOp::Max
        .apply(3, &[LongDouble], &a, &mut max)
        .unwrap();
    assert_eq!(
        max,
        [x87(2.0, 0x11), x87(-1.0, 0x22), x87(1.0e-300, 0xcc)].concat()
    );
    let mut min = b.clone();
    PredefinedOp::Min
        .apply(3, &[LongDouble], &a, &mut min)
        .unwrap();
    assert_eq!(
        min,
        [x87(1.0, 0xaa), x87(-2.0, 0xbb), x87(-0.0, 0x33)].concat()
    );
    // A NaN (exponent all ones, non-zero fraction) compares with nothing.
    let mut nan = x87(1.0, 0);
    nan[8] = 0xff;
    nan[9] = 0x7f;
    nan[0] = 1;
    let mut inout = x87(5.0, 0);
    PredefinedOp::Max
        .apply(1, &[LongDouble], &nan, &mut inout)
        .unwrap();
    assert_eq!(inout, x87(5.0, 0));
    let mut inout = nan.clone();
    PredefinedOp::Min
        .apply(1, &[LongDouble], &x87(5.0, 0), &mut inout)
        .unwrap();
    assert_eq!(inout, nan);
    // Zeros of both signs are equal: inout stays.
    let mut inout = x87(0.0, 1);
    PredefinedOp::Min
        .apply(1, &[LongDouble], &x87(-0.0, 2), &mut inout)
        .unwrap();
    assert_eq!(inout, x87(0.0, 1));
}

#[test]
fn logical_results_are_one_or_zero() {
    let input = [2u32, 0, 7, 0].map(u32::to_le_bytes).concat();
    let inout = [1u32, 0, 0, 3].map(u32::to_le_bytes).concat();
    for (op, expected) in [
        (PredefinedOp::Land, [1u32, 0, 0, 0]),
        (PredefinedOp::Lor, [1, 0, 1, 1]),
        (PredefinedOp::Lxor, [0, 0, 1, 1]),
    ] {
        let mut out = inout.clone();
        op.apply(4, &[Logical4], &input, &mut out).unwrap();
        assert_eq!(out, expected.map(u32::to_le_bytes).concat(), "{op}");
    }
}

#[test]
fn mixed_signatures_apply_kind_by_kind() {
    // An element of {int32, double, double}: three of them.
    let element = |i: i32, x: f64, y: f64| {
        [
            i.to_le_bytes().to_vec(),
            x.to_le_bytes().to_vec(),
            y.to_le_bytes().to_vec(),
        ]
        .concat()
    };
    let signature = [I32, F64, F64];
    let input = [
        element(1, 0.5, 1.0),
        element(-4, 2.0, 3.0),
        element(0, 0.0, 0.0),
    ]
    .concat();
    let mut inout = [
        element(2, 0.25, 1.0),
        element(4, 1.0, 1.0),
        element(9, 1.5, 2.5),
    ]
    .concat();
    PredefinedOp::Sum
        .apply(3, &signature, &input, &mut inout)
        .unwrap();
    assert_eq!(
        inout,
        [
            element(3, 0.75, 2.0),
            element(0, 3.0, 4.0),
            element(9, 1.5, 2.5)
        ]
        .concat()
    );
    // One kind of the signature outside the op's groups refuses the whole call.
    let before = inout.clone();
    let error = PredefinedOp::Band
        .apply(3, &signature, &input, &mut inout)
        .unwrap_err();
    assert_eq!(
        error,
        Error::OpNotDefined {
            op: PredefinedOp::Band,
            kind: BasicKind::F64
        }
    );
    assert_eq!(inout, before);
}

#[test]
fn packed_lengths_must_hold_the_count() {
    let mut inout = vec![0u8; 16];
    for (count, input_len) in [(2, 8), (1, 16), (3, 16)] {
        let error = PredefinedOp::Sum
            .apply(count, &[F64], &vec![0; input_len], &mut inout)
            .unwrap_err();
        assert_eq!(error.class(), ErrorClass::Intern);
    }
    let error = PredefinedOp::Sum
        .apply(usize::MAX, &[F64], &[], &mut [])
        .unwrap_err();
    assert_eq!(error, Error::InvalidCount);
}

#[test]
fn predefined_op_handles_round_trip() {
    assert_eq!(Universe::predefined_op(0x21), Some(PredefinedOp::Sum.op()));
    assert_eq!(Universe::predefined_op(0x20), None, "MPI_OP_NULL");
    assert_eq!(Universe::predefined_op(0x101), None);
    for op in PredefinedOp::ALL {
        let handle = Universe::predefined_op(op.abi_handle()).unwrap();
        assert_eq!(Universe::predefined_op_kind(handle), Some(op));
    }
    let universe = Universe::new(ThreadLevel::Single);
    assert_eq!(universe.op_count().unwrap(), 14);
    for op in PredefinedOp::ALL {
        assert!(universe.op_commutative(op.op()).unwrap());
        assert_eq!(
            universe.op_free(op.op()),
            Err(Error::PredefinedOp(op.name()))
        );
        assert!(matches!(universe.op_call(op.op()), Ok(OpCall::Predefined(p)) if p == op));
    }
    assert_eq!(
        Error::PredefinedOp("MPI_SUM").class(),
        ErrorClass::Op,
        "MPI_Op_free of a predefined op"
    );
}

type Calls = Arc<Mutex<Vec<(usize, usize, usize, Datatype)>>>;

fn recording() -> (Arc<dyn UserFunction>, Calls) {
    let calls: Calls = Arc::default();
    let seen = calls.clone();
    let function = Arc::new(
        move |input: usize, inout: usize, count: usize, datatype: Datatype| {
            seen.lock().unwrap().push((input, inout, count, datatype));
        },
    );
    (function, calls)
}

#[test]
fn user_ops_are_created_called_and_freed() {
    let universe = Universe::new(ThreadLevel::Single);
    let (function, calls) = recording();
    let commutative = universe.op_create(function.clone(), true).unwrap();
    let ordered = universe.op_create(function, false).unwrap();
    assert_ne!(commutative, ordered);
    assert!(universe.op_commutative(commutative).unwrap());
    assert!(!universe.op_commutative(ordered).unwrap());
    assert_eq!(Universe::predefined_op_kind(ordered), None);
    assert_eq!(universe.op_count().unwrap(), 16);

    // MPI_Reduce_local with a user op, on any datatype: the function gets the user's
    // buffers, the count and the datatype.
    let char_type =
        Universe::predefined_datatype(crate::abi::MPIATTR_HANDLE_MPI_CHAR as usize).unwrap();
    let OpCall::User(user) = universe
        .reduce_local(ordered, 5, char_type, &[Char])
        .unwrap()
    else {
        panic!("a user op")
    };
    assert!(!user.commutative);
    user.call(0x1000, 0x2000, 5, char_type);
    assert_eq!(*calls.lock().unwrap(), [(0x1000, 0x2000, 5, char_type)]);

    universe.op_free(ordered).unwrap();
    assert_eq!(
        universe.op_free(ordered),
        Err(Error::InvalidOp(HandleProblem::Freed))
    );
    assert_eq!(
        universe.op_commutative(ordered).unwrap_err().class(),
        ErrorClass::Op
    );
    // A call already holding the op may still run it.
    user.call(1, 2, 3, char_type);
    assert_eq!(calls.lock().unwrap().len(), 2);
    let unknown = Op(crate::engine::Id::from_parts(4000, 1));
    assert_eq!(
        universe.op_call(unknown).unwrap_err(),
        Error::InvalidOp(HandleProblem::Unknown)
    );
    assert_eq!(universe.op_count().unwrap(), 15);
    universe.op_free(commutative).unwrap();
}

#[test]
fn user_functions_run_with_no_lock_held() {
    let universe = Arc::new(Universe::new(ThreadLevel::Multiple));
    let weak = Arc::downgrade(&universe);
    let made = Arc::new(Mutex::new(None));
    let record = made.clone();
    let function = Arc::new(move |_: usize, _: usize, _: usize, _: Datatype| {
        // The function makes and frees an op of its own: it would deadlock under the lock.
        let universe = weak.upgrade().unwrap();
        let inner = universe
            .op_create(
                Arc::new(|_: usize, _: usize, _: usize, _: Datatype| {}),
                true,
            )
            .unwrap();
        *record.lock().unwrap() = Some(universe.op_count().unwrap());
        universe.op_free(inner).unwrap();
    });
    let op = universe.op_create(function, true).unwrap();
    let int = Universe::predefined_datatype(0x209).unwrap();
    let OpCall::User(user) = universe.reduce_local(op, 1, int, &[I32]).unwrap() else {
        panic!("a user op")
    };
    user.call(0, 0, 1, int);
    assert_eq!(*made.lock().unwrap(), Some(16));
    universe.op_free(op).unwrap();
}

#[test]
fn reduce_local_checks_its_arguments() {
    let universe = Universe::new(ThreadLevel::Single);
    let int = Universe::predefined_datatype(0x209).unwrap();
    let sum = PredefinedOp::Sum.op();
    assert!(matches!(
        universe.reduce_local(sum, 3, int, &[I32]),
        Ok(OpCall::Predefined(PredefinedOp::Sum))
    ));
    assert_eq!(
        universe.reduce_local(sum, -1, int, &[I32]).unwrap_err(),
        Error::InvalidCount
    );
    let freed = universe.type_contiguous(2, int).unwrap();
    let uncommitted = universe.type_contiguous(2, int).unwrap();
    universe.type_free(freed).unwrap();
    let error = universe
        .reduce_local(sum, 1, freed, &[I32, I32])
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::Type);
    let error = universe
        .reduce_local(sum, 1, uncommitted, &[I32, I32])
        .unwrap_err();
    assert_eq!(error, Error::NotCommitted);
    universe.type_commit(uncommitted).unwrap();
    universe
        .reduce_local(sum, 1, uncommitted, &[I32, I32])
        .unwrap();
    let error = universe
        .reduce_local(PredefinedOp::Lor.op(), 1, int, &[F32])
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::Op);
    let error = universe
        .reduce_local(PredefinedOp::Maxloc.op(), 1, int, &[I32])
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::Op);
    let null = Error::InvalidOp(HandleProblem::Null);
    assert_eq!(null.class(), ErrorClass::Op);
}

#[test]
fn no_op_is_valid_after_finalize() {
    let universe = Universe::new(ThreadLevel::Single);
    let (function, _) = recording();
    let user = universe.op_create(function.clone(), true).unwrap();
    universe.finalize().unwrap();
    for op in [PredefinedOp::Sum.op(), user] {
        assert_eq!(universe.op_call(op).unwrap_err().class(), ErrorClass::Op);
    }
    assert_eq!(
        universe.op_create(function, true).unwrap_err(),
        Error::Finalized
    );
}

#[test]
fn all_is_in_declaration_order() {
    // The collectives' fast paths index op bit masks by the discriminant.
    for (i, op) in PredefinedOp::ALL.iter().enumerate() {
        assert_eq!(*op as usize, i, "{op:?}");
    }
}
