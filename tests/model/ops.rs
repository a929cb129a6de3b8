//! The operation language of the randomized tests and the fuzz target: what a program can do
//! to attributes, as data. An operation names objects and keyvals by small numbers that the
//! model resolves against what exists when it runs, so every sequence of operations is valid
//! (a failing sequence can be shrunk by dropping any of its operations) and every byte string
//! decodes to one.

use std::fmt;

/// The words programs store. Every one is odd or small, so a test can tell a stored C value
/// from a pointer to library storage (aligned, and far above 0x10000) without touching it.
pub const WORDS: [i64; 16] = [
    0,
    5,
    -7,
    3,
    (1 << 40) + 5,
    -(1 << 40) - 7,
    i32::MAX as i64,
    i32::MIN as i64 + 1,
    i64::MAX,
    -1,
    4095,
    0x1_0000_0001,
    -0x1_0000_0003,
    101,
    0x5555_5555_5555_5555,
    0x12345,
];

/// The codes failing callbacks return: two MPI error classes and a code that is none.
pub const CODES: [i32; 3] = [
    mpiattr::abi::MPI_ERR_ARG as i32,
    mpiattr::abi::MPI_ERR_OTHER as i32,
    12345,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Comm,
    Type,
    Win,
}

/// The language of a call (the tag of what it stores, the view it reads) or of a keyval's
/// callbacks: C, Fortran MPI-1 (default INTEGER), Fortran address-kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    C,
    FInt,
    FAddr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyB {
    /// MPI_*_NULL_COPY_FN.
    Null,
    /// MPI_*_DUP_FN.
    Dup,
    /// A user callback (its behaviour is the keyval's [`Behavior`]).
    Call,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteB {
    Null,
    Call,
}

/// What a user copy callback hands back when it succeeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Produce {
    /// The value it was shown (for a C callback: the very pointer).
    Same,
    /// The value it was shown plus 2 (C callbacks: as `Same`).
    Plus2,
    /// `WORDS[i]`.
    Const(u8),
    /// flag = false: the new object gets no value.
    NoCopy,
}

/// An object or keyval a callback acts on: its own (the object it was called for, its own
/// keyval) or one picked from what exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Own,
    Pick(u8),
}

/// What a callback does before it returns (re-entering the library).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reenter {
    Nothing,
    /// Reads a keyval on its object.
    Get(Target, Lang),
    /// Sets a keyval on its object to `WORDS[i]`.
    Set(Target, Lang, u8),
    /// Deletes a keyval's value on its object.
    Delete(Target),
    /// Frees a keyval.
    FreeKeyval(Target),
    /// Duplicates an object (its own or another).
    Dup(Target),
}

/// How a keyval's user callbacks behave. A callback fails on its n-th call (counting calls
/// of that keyval's copy, or delete, callback) when n is a multiple of the period (0: never).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Behavior {
    pub copy_fail: u8,
    pub delete_fail: u8,
    /// `CODES[i]`.
    pub code: u8,
    pub produce: Produce,
    pub on_copy: Reenter,
    pub on_delete: Reenter,
}

/// One operation of a program. `obj` and `kv` pick among what exists (see the model's
/// `resolve`); `alt` and `variant` choose among equivalent entry points.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    CreateKeyval {
        kind: Kind,
        conv: Lang,
        copy: CopyB,
        delete: DeleteB,
        behavior: Behavior,
        alt: bool,
    },
    FreeKeyval {
        kv: u8,
        alt: bool,
    },
    Set {
        obj: u8,
        kv: u8,
        lang: Lang,
        word: u8,
        alt: bool,
    },
    Get {
        obj: u8,
        kv: u8,
        lang: Lang,
        alt: bool,
    },
    Delete {
        obj: u8,
        kv: u8,
        alt: bool,
    },
    Dup {
        obj: u8,
        alt: u8,
    },
    Free {
        obj: u8,
    },
    Create {
        kind: Kind,
        variant: u8,
    },
    /// MPI_Finalize: always the last operation of a program.
    Finalize,
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Op::CreateKeyval {
                kind,
                conv,
                copy,
                delete,
                behavior,
                alt,
            } => write!(
                f,
                "CreateKeyval({kind:?}, {conv:?}, copy {copy:?}, delete {delete:?}, {behavior:?}{})",
                if alt { ", alt" } else { "" }
            ),
            Op::FreeKeyval { kv, alt } => write!(f, "FreeKeyval(kv {kv}, alt {alt})"),
            Op::Set {
                obj,
                kv,
                lang,
                word,
                alt,
            } => write!(
                f,
                "Set(obj {obj}, kv {kv}, {lang:?}, {:#x}, alt {alt})",
                WORDS[word as usize % WORDS.len()]
            ),
            Op::Get { obj, kv, lang, alt } => {
                write!(f, "Get(obj {obj}, kv {kv}, {lang:?}, alt {alt})")
            }
            Op::Delete { obj, kv, alt } => write!(f, "Delete(obj {obj}, kv {kv}, alt {alt})"),
            Op::Dup { obj, alt } => write!(f, "Dup(obj {obj}, alt {alt})"),
            Op::Free { obj } => write!(f, "Free(obj {obj})"),
            Op::Create { kind, variant } => write!(f, "Create({kind:?}, variant {variant})"),
            Op::Finalize => f.write_str("Finalize"),
        }
    }
}

// ---- bytes ------------------------------------------------------------------------------
//
// Every byte string decodes to a program (the fuzz target's input); `encode` writes the bytes
// a program decodes from (replay files).

/// Reads bytes; past the end, every read is `None`.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, at: 0 }
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.data.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn pick(&mut self, n: u8) -> Option<u8> {
        Some(self.byte()? % n)
    }
}

trait Code: Sized {
    fn encode(&self, out: &mut Vec<u8>);
    fn decode(r: &mut Bytes) -> Option<Self>;
}

/// Field-less enums: one byte, the variant's position.
macro_rules! unit_code {
    ($($t:ident { $($v:ident),* })*) => {$(
        impl Code for $t {
            fn encode(&self, out: &mut Vec<u8>) {
                const ALL: &[$t] = &[$($t::$v),*];
                out.push(ALL.iter().position(|v| v == self).unwrap() as u8);
            }
            fn decode(r: &mut Bytes) -> Option<$t> {
                const ALL: &[$t] = &[$($t::$v),*];
                Some(ALL[r.pick(ALL.len() as u8)? as usize])
            }
        }
    )*};
}

unit_code! {
    Kind { Comm, Type, Win }
    Lang { C, FInt, FAddr }
    CopyB { Null, Dup, Call }
    DeleteB { Null, Call }
}

impl Code for u8 {
    fn encode(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }
    fn decode(r: &mut Bytes) -> Option<u8> {
        r.byte()
    }
}

impl Code for bool {
    fn encode(&self, out: &mut Vec<u8>) {
        out.push(*self as u8);
    }
    fn decode(r: &mut Bytes) -> Option<bool> {
        Some(r.pick(2)? == 1)
    }
}

impl Code for Produce {
    fn encode(&self, out: &mut Vec<u8>) {
        match *self {
            Produce::Same => out.extend([0, 0]),
            Produce::Plus2 => out.extend([1, 0]),
            Produce::Const(i) => out.extend([2, i]),
            Produce::NoCopy => out.extend([3, 0]),
        }
    }
    fn decode(r: &mut Bytes) -> Option<Produce> {
        let (which, arg) = (r.pick(4)?, r.byte()?);
        Some(match which {
            0 => Produce::Same,
            1 => Produce::Plus2,
            2 => Produce::Const(arg % WORDS.len() as u8),
            _ => Produce::NoCopy,
        })
    }
}

impl Code for Target {
    fn encode(&self, out: &mut Vec<u8>) {
        match *self {
            Target::Own => out.extend([0, 0]),
            Target::Pick(p) => out.extend([1, p]),
        }
    }
    fn decode(r: &mut Bytes) -> Option<Target> {
        let (which, arg) = (r.pick(2)?, r.byte()?);
        Some(if which == 0 {
            Target::Own
        } else {
            Target::Pick(arg)
        })
    }
}

impl Code for Reenter {
    fn encode(&self, out: &mut Vec<u8>) {
        let (which, target, lang, word) = match *self {
            Reenter::Nothing => (0, Target::Own, Lang::C, 0),
            Reenter::Get(t, l) => (1, t, l, 0),
            Reenter::Set(t, l, w) => (2, t, l, w),
            Reenter::Delete(t) => (3, t, Lang::C, 0),
            Reenter::FreeKeyval(t) => (4, t, Lang::C, 0),
            Reenter::Dup(t) => (5, t, Lang::C, 0),
        };
        out.push(which);
        target.encode(out);
        lang.encode(out);
        out.push(word);
    }
    fn decode(r: &mut Bytes) -> Option<Reenter> {
        let which = r.pick(6)?;
        let target = Target::decode(r)?;
        let lang = Lang::decode(r)?;
        let word = r.byte()? % WORDS.len() as u8;
        Some(match which {
            0 => Reenter::Nothing,
            1 => Reenter::Get(target, lang),
            2 => Reenter::Set(target, lang, word),
            3 => Reenter::Delete(target),
            4 => Reenter::FreeKeyval(target),
            _ => Reenter::Dup(target),
        })
    }
}

impl Code for Behavior {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend([self.copy_fail, self.delete_fail, self.code]);
        self.produce.encode(out);
        self.on_copy.encode(out);
        self.on_delete.encode(out);
    }
    fn decode(r: &mut Bytes) -> Option<Behavior> {
        Some(Behavior {
            copy_fail: r.pick(8)?,
            delete_fail: r.pick(8)?,
            code: r.pick(CODES.len() as u8)?,
            produce: Produce::decode(r)?,
            on_copy: Reenter::decode(r)?,
            on_delete: Reenter::decode(r)?,
        })
    }
}

impl Code for Op {
    fn encode(&self, out: &mut Vec<u8>) {
        match *self {
            Op::CreateKeyval {
                kind,
                conv,
                copy,
                delete,
                behavior,
                alt,
            } => {
                out.push(0);
                kind.encode(out);
                conv.encode(out);
                copy.encode(out);
                delete.encode(out);
                behavior.encode(out);
                alt.encode(out);
            }
            Op::FreeKeyval { kv, alt } => out.extend([1, kv, alt as u8]),
            Op::Set {
                obj,
                kv,
                lang,
                word,
                alt,
            } => {
                out.extend([2, obj, kv]);
                lang.encode(out);
                out.extend([word, alt as u8]);
            }
            Op::Get { obj, kv, lang, alt } => {
                out.extend([3, obj, kv]);
                lang.encode(out);
                out.push(alt as u8);
            }
            Op::Delete { obj, kv, alt } => out.extend([4, obj, kv, alt as u8]),
            Op::Dup { obj, alt } => out.extend([5, obj, alt]),
            Op::Free { obj } => out.extend([6, obj]),
            Op::Create { kind, variant } => {
                out.push(7);
                kind.encode(out);
                out.push(variant);
            }
            Op::Finalize => out.push(8),
        }
    }

    fn decode(r: &mut Bytes) -> Option<Op> {
        Some(match r.pick(9)? {
            0 => {
                let kind = Kind::decode(r)?;
                let conv = Lang::decode(r)?;
                Op::CreateKeyval {
                    // MPI-1 keyvals (MPI_KEYVAL_CREATE) are communicator keyvals.
                    kind: if conv == Lang::FInt { Kind::Comm } else { kind },
                    conv,
                    copy: CopyB::decode(r)?,
                    delete: DeleteB::decode(r)?,
                    behavior: Behavior::decode(r)?,
                    alt: bool::decode(r)?,
                }
            }
            1 => Op::FreeKeyval {
                kv: r.byte()?,
                alt: bool::decode(r)?,
            },
            2 => Op::Set {
                obj: r.byte()?,
                kv: r.byte()?,
                lang: Lang::decode(r)?,
                word: r.byte()? % WORDS.len() as u8,
                alt: bool::decode(r)?,
            },
            3 => Op::Get {
                obj: r.byte()?,
                kv: r.byte()?,
                lang: Lang::decode(r)?,
                alt: bool::decode(r)?,
            },
            4 => Op::Delete {
                obj: r.byte()?,
                kv: r.byte()?,
                alt: bool::decode(r)?,
            },
            5 => Op::Dup {
                obj: r.byte()?,
                alt: r.byte()?,
            },
            6 => Op::Free { obj: r.byte()? },
            7 => Op::Create {
                kind: Kind::decode(r)?,
                variant: r.byte()?,
            },
            _ => Op::Finalize,
        })
    }
}

/// The program a byte string holds: operations up to the first incomplete one, or up to and
/// including the first Finalize.
pub fn decode(data: &[u8]) -> Vec<Op> {
    let mut r = Bytes::new(data);
    let mut ops = Vec::new();
    while let Some(op) = Op::decode(&mut r) {
        ops.push(op);
        if op == Op::Finalize {
            break;
        }
    }
    ops
}

/// The bytes `decode` turns into `ops`.
pub fn encode(ops: &[Op]) -> Vec<u8> {
    let mut out = Vec::new();
    for op in ops {
        op.encode(&mut out);
    }
    out
}

// ---- random programs ----------------------------------------------------------------------

/// splitmix64: small, fast, and the same everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn byte(&mut self) -> u8 {
        self.next() as u8
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn kind(&mut self) -> Kind {
        [Kind::Comm, Kind::Comm, Kind::Type, Kind::Win][self.below(4) as usize]
    }

    fn lang(&mut self) -> Lang {
        [Lang::C, Lang::FInt, Lang::FAddr][self.below(3) as usize]
    }

    fn target(&mut self) -> Target {
        if self.chance(50) {
            Target::Own
        } else {
            Target::Pick(self.byte())
        }
    }

    fn reenter(&mut self) -> Reenter {
        if self.chance(60) {
            return Reenter::Nothing;
        }
        let word = self.below(WORDS.len() as u64) as u8;
        match self.below(6) {
            0 | 1 => Reenter::Get(self.target(), self.lang()),
            2 => Reenter::Set(self.target(), self.lang(), word),
            3 => Reenter::Delete(self.target()),
            4 => Reenter::FreeKeyval(self.target()),
            _ => Reenter::Dup(self.target()),
        }
    }

    fn period(&mut self) -> u8 {
        if self.chance(65) {
            0
        } else {
            [2, 3, 4, 5, 7][self.below(5) as usize]
        }
    }

    pub fn behavior(&mut self) -> Behavior {
        Behavior {
            copy_fail: self.period(),
            delete_fail: self.period(),
            code: self.below(CODES.len() as u64) as u8,
            produce: match self.below(6) {
                0 | 1 => Produce::Same,
                2 | 3 => Produce::Plus2,
                4 => Produce::Const(self.below(WORDS.len() as u64) as u8),
                _ => Produce::NoCopy,
            },
            on_copy: self.reenter(),
            on_delete: self.reenter(),
        }
    }
}

/// How big the programs of a case get: the most keyvals and objects alive at once that the
/// generator aims for.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub keyvals: usize,
    pub objects: usize,
}

/// A random operation for a program whose state has `keyvals` user keyvals and `objects`
/// objects alive (predefined ones included).
pub fn random_op(rng: &mut Rng, shape: Shape, keyvals: usize, objects: usize) -> Op {
    // Callbacks duplicate objects too (and a free can fail): past the shape, more frees.
    let crowded = objects * 10 / (shape.objects + 4);
    if crowded >= 10 && rng.chance(((crowded - 9) * 25).min(90) as u64) {
        return Op::Free { obj: rng.byte() };
    }
    let alt = rng.chance(30);
    let pressure_kv = keyvals >= shape.keyvals;
    let pressure_obj = objects >= shape.objects + 4;
    let roll = rng.below(100);
    match roll {
        _ if keyvals == 0 || (roll < 8 && !pressure_kv) => {
            let conv = rng.lang();
            Op::CreateKeyval {
                kind: if conv == Lang::FInt {
                    Kind::Comm
                } else {
                    rng.kind()
                },
                conv,
                copy: [CopyB::Null, CopyB::Dup, CopyB::Call, CopyB::Call][rng.below(4) as usize],
                delete: [DeleteB::Null, DeleteB::Call, DeleteB::Call][rng.below(3) as usize],
                behavior: rng.behavior(),
                alt,
            }
        }
        0..=11 => Op::FreeKeyval {
            kv: rng.byte(),
            alt,
        },
        _ if pressure_kv && roll < 20 => Op::FreeKeyval {
            kv: rng.byte(),
            alt,
        },
        12..=41 => Op::Set {
            obj: rng.byte(),
            kv: rng.byte(),
            lang: rng.lang(),
            word: rng.below(WORDS.len() as u64) as u8,
            alt,
        },
        42..=56 => Op::Get {
            obj: rng.byte(),
            kv: rng.byte(),
            lang: rng.lang(),
            alt,
        },
        57..=68 => Op::Delete {
            obj: rng.byte(),
            kv: rng.byte(),
            alt,
        },
        _ if pressure_obj => Op::Free { obj: rng.byte() },
        69..=80 => Op::Dup {
            obj: rng.byte(),
            alt: rng.byte(),
        },
        81..=90 => Op::Free { obj: rng.byte() },
        _ => Op::Create {
            kind: rng.kind(),
            variant: rng.byte(),
        },
    }
}
