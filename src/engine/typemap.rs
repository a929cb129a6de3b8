//! Type maps (MPI-4.1 chapter 5): the layout of every datatype, the constructors that build
//! them, the flat block list a committed type compiles to, and the memory operations on it
//! (pack, unpack, typed copy, external32, element counts).
//!
//! A [`TypeMap`] is immutable and shared by [`Arc`]: a derived type holds its children, so a
//! child stays usable as long as a type built from it lives, whatever happens to the child's
//! handle.
//!
//! # Memory interface
//!
//! The engine has no pointers. Every function that reads or writes user memory takes the user
//! buffer as a byte slice plus `origin`, the offset inside that slice of the buffer address
//! the program passed. Item `i` of a type with extent `e` then starts at `origin + i * e`, and
//! its byte at displacement `d` (which may be negative) is `slice[origin + i * e + d]`. The
//! shell chooses a slice that covers the type's true span for `count` items
//! ([`TypeMap::span`]); with `MPI_BOTTOM` or absolute addresses it chooses the slice and
//! origin accordingly. Any access outside the slice is refused with `MPI_ERR_ARG` before
//! anything is read or written.

use std::sync::{Arc, OnceLock};

use super::error::{Error, Result};

/// The basic kind of a predefined datatype's elements: what the reduction engine and
/// external32 need to know about one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Basic {
    /// An integer of `bytes` native bytes, `external` bytes in external32.
    Int {
        /// Which language's integer: the predefined ops differ (MPI-4.1 §6.9.2), and type
        /// matching tells them apart.
        family: IntFamily,
        /// Native size.
        bytes: u8,
        /// Size in external32 (differs for C `long`: 8 here, 4 in external32).
        external: u8,
        /// Signed or not.
        signed: bool,
    },
    /// An IEEE binary floating-point number of that many bytes.
    Real(u8),
    /// C `long double` (x87 80-bit extended in 16 bytes on x86; binary128 elsewhere).
    LongDouble,
    /// A complex number: two reals of that many bytes each.
    Complex(u8),
    /// A complex number of two C `long double`.
    LongDoubleComplex,
    /// A Fortran LOGICAL of that many bytes.
    Logical(u8),
    /// C `bool` / C++ `bool`, one byte.
    Bool,
    /// A one-byte character (char, signed/unsigned char, Fortran CHARACTER).
    Char,
    /// `wchar_t`, 4 bytes.
    WChar,
    /// MPI_BYTE.
    Byte,
    /// MPI_PACKED.
    Packed,
}

/// The language family of an integer element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntFamily {
    /// A C integer (`MPI_INT`, `MPI_INT32_T`, ...).
    C,
    /// A Fortran integer (`MPI_INTEGER`, `MPI_INTEGERn`, `MPI_Type_create_f90_integer`).
    Fortran,
    /// `MPI_AINT`, `MPI_OFFSET`, `MPI_COUNT`.
    MultiLanguage,
}

impl Basic {
    /// Size in bytes in memory.
    pub fn size(self) -> u64 {
        match self {
            Basic::Int { bytes, .. } | Basic::Real(bytes) | Basic::Logical(bytes) => bytes as u64,
            Basic::Complex(bytes) => 2 * bytes as u64,
            Basic::LongDouble => 16,
            Basic::LongDoubleComplex => 32,
            Basic::WChar => 4,
            Basic::Bool | Basic::Char | Basic::Byte | Basic::Packed => 1,
        }
    }

    /// Size in bytes in the external32 representation (MPI-4.1 §19.1.16's table).
    pub fn external_size(self) -> u64 {
        match self {
            Basic::Int { external, .. } => external as u64,
            other => other.size(),
        }
    }

    /// Alignment used for the struct extent rule: the size of the scalar (of one component
    /// for complex numbers).
    pub fn alignment(self) -> u64 {
        match self {
            Basic::Complex(bytes) => bytes as u64,
            Basic::LongDoubleComplex => 16,
            other => other.size(),
        }
    }

    /// Writes one element in external32 (big-endian) form.
    fn write_external(self, native: &[u8], out: &mut [u8]) {
        match self {
            Basic::Int {
                bytes,
                external,
                signed,
                ..
            } if bytes != external => {
                let value = int_from_native(native, signed);
                let be = value.to_be_bytes();
                out.copy_from_slice(&be[16 - external as usize..]);
            }
            Basic::Complex(bytes) => {
                let half = bytes as usize;
                swap_into(&native[..half], &mut out[..half]);
                swap_into(&native[half..], &mut out[half..]);
            }
            Basic::LongDouble => long_double_to_external(native, out),
            Basic::LongDoubleComplex => {
                long_double_to_external(&native[..16], &mut out[..16]);
                long_double_to_external(&native[16..], &mut out[16..]);
            }
            _ => swap_into(native, out),
        }
    }

    /// Reads one element from external32 form.
    fn read_external(self, external: &[u8], native: &mut [u8]) {
        match self {
            Basic::Int {
                bytes,
                external: ext,
                signed,
                ..
            } if bytes != ext => {
                let mut be = [0u8; 16];
                let negative = signed && external[0] & 0x80 != 0;
                if negative {
                    be = [0xff; 16];
                }
                be[16 - ext as usize..].copy_from_slice(external);
                let value = i128::from_be_bytes(be);
                let ne = value.to_ne_bytes();
                if cfg!(target_endian = "little") {
                    native.copy_from_slice(&ne[..bytes as usize]);
                } else {
                    native.copy_from_slice(&ne[16 - bytes as usize..]);
                }
            }
            Basic::Complex(bytes) => {
                let half = bytes as usize;
                swap_into(&external[..half], &mut native[..half]);
                swap_into(&external[half..], &mut native[half..]);
            }
            Basic::LongDouble => long_double_from_external(external, native),
            Basic::LongDoubleComplex => {
                long_double_from_external(&external[..16], &mut native[..16]);
                long_double_from_external(&external[16..], &mut native[16..]);
            }
            _ => swap_into(external, native),
        }
    }
}

fn int_from_native(native: &[u8], signed: bool) -> i128 {
    let mut be = [0u8; 16];
    let n = native.len();
    for (i, byte) in native.iter().enumerate() {
        // Native order to big-endian order in the last n bytes.
        let pos = if cfg!(target_endian = "little") {
            15 - i
        } else {
            16 - n + i
        };
        be[pos] = *byte;
    }
    let top = be[16 - n];
    if signed && top & 0x80 != 0 {
        for byte in &mut be[..16 - n] {
            *byte = 0xff;
        }
    }
    i128::from_be_bytes(be)
}

/// Copies a native scalar to big-endian order (or back: the operation is its own inverse).
fn swap_into(from: &[u8], to: &mut [u8]) {
    if cfg!(target_endian = "little") {
        for (t, f) in to.iter_mut().zip(from.iter().rev()) {
            *t = *f;
        }
    } else {
        to.copy_from_slice(from);
    }
}

const X87: bool = cfg!(any(target_arch = "x86_64", target_arch = "x86"));

/// external32's long double is IEEE binary128, big-endian. On x86 the native form is the
/// 80-bit extended format (64-bit significand with an explicit integer bit, same exponent
/// bias); the extra 48 significand bits of binary128 are zero, so the conversion is exact
/// (and binary128 values with more precision are truncated when read back).
fn long_double_to_external(native: &[u8], out: &mut [u8]) {
    if !X87 {
        swap_into(native, out);
        return;
    }
    let mut mantissa = [0u8; 8];
    mantissa.copy_from_slice(&native[..8]);
    let mantissa = u64::from_le_bytes(mantissa);
    let sign_exp = u16::from_le_bytes([native[8], native[9]]) as u128;
    let fraction = (mantissa & !(1u64 << 63)) as u128;
    let quad = (sign_exp << 112) | (fraction << 49);
    out.copy_from_slice(&quad.to_be_bytes());
}

fn long_double_from_external(external: &[u8], native: &mut [u8]) {
    if !X87 {
        swap_into(external, native);
        return;
    }
    let mut be = [0u8; 16];
    be.copy_from_slice(external);
    let quad = u128::from_be_bytes(be);
    let sign_exp = (quad >> 112) as u16;
    let exponent = sign_exp & 0x7fff;
    let fraction = ((quad >> 49) as u64) & !(1u64 << 63);
    let integer_bit = if exponent != 0 { 1u64 << 63 } else { 0 };
    native[..8].copy_from_slice(&(fraction | integer_bit).to_le_bytes());
    native[8..10].copy_from_slice(&sign_exp.to_le_bytes());
    for byte in &mut native[10..16] {
        *byte = 0;
    }
}

/// How a datatype was made (MPI_COMBINER_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combiner {
    /// A predefined datatype.
    Named,
    /// MPI_Type_dup.
    Dup,
    /// MPI_Type_contiguous.
    Contiguous,
    /// MPI_Type_vector.
    Vector,
    /// MPI_Type_create_hvector.
    Hvector,
    /// MPI_Type_indexed.
    Indexed,
    /// MPI_Type_create_hindexed.
    Hindexed,
    /// MPI_Type_create_indexed_block.
    IndexedBlock,
    /// MPI_Type_create_hindexed_block.
    HindexedBlock,
    /// MPI_Type_create_struct.
    Struct,
    /// MPI_Type_create_subarray.
    Subarray,
    /// MPI_Type_create_darray.
    Darray,
    /// MPI_Type_create_resized.
    Resized,
    /// MPI_Type_create_f90_integer.
    F90Integer,
    /// MPI_Type_create_f90_real.
    F90Real,
    /// MPI_Type_create_f90_complex.
    F90Complex,
}

/// The arguments a derived datatype was made with, laid out as MPI_Type_get_contents returns
/// them (MPI-4.1 §5.1.13): `large` holds the counts and displacements of the `_c`
/// constructors, `integers` and `addresses` those of the others.
#[derive(Clone, Debug, Default)]
pub struct Contents {
    /// The int arguments.
    pub integers: Vec<i64>,
    /// The MPI_Aint arguments.
    pub addresses: Vec<i64>,
    /// The MPI_Count arguments (large-count constructors only).
    pub large: Vec<i64>,
    /// The datatype arguments.
    pub types: Vec<Arc<TypeMap>>,
}

/// One group of entries of a derived type: `repeat` times (each `stride` bytes further on),
/// `blocklength` copies of `child` placed one child extent apart, starting at `disp`.
#[derive(Clone, Debug)]
struct Part {
    disp: i64,
    repeat: u64,
    stride: i64,
    blocklength: u64,
    child: Arc<TypeMap>,
}

/// A run of `count` elements of one basic kind, contiguous in memory from `disp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Byte displacement of the first element.
    pub disp: i64,
    /// Their kind.
    pub kind: Basic,
    /// How many.
    pub count: u64,
}

/// A contiguous range of bytes of one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Byte displacement.
    pub disp: i64,
    /// Length in bytes.
    pub len: u64,
}

/// The compiled form of one item of a type: its elements in type-map order as runs, and the
/// same bytes as strided groups of blocks, adjacent blocks merged.
#[derive(Debug, Default)]
pub struct Flat {
    /// Runs of elements, in type-map order.
    pub runs: Vec<Run>,
    /// The bytes as strided groups, in type-map order: runs of blocks of one length at a
    /// constant distance (a vector is one group), which the copies walk without reading a
    /// block list. Adjacent blocks are merged before they are grouped, so no group holds
    /// two blocks that touch.
    pub strided: Vec<Strided>,
}

impl Flat {
    /// The byte blocks, in type-map order, adjacent ones merged.
    pub fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.strided.iter().flat_map(|group| {
            (0..group.count as i64).map(move |i| Block {
                disp: group.disp.wrapping_add(i.wrapping_mul(group.stride)),
                len: group.len,
            })
        })
    }
}

/// `count` blocks of `len` bytes, the first at `disp`, each `stride` bytes after the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strided {
    /// Displacement of the first block.
    pub disp: i64,
    /// Length of each block.
    pub len: u64,
    /// How many blocks.
    pub count: u64,
    /// From one block's start to the next's.
    pub stride: i64,
}

/// Appends `block` to the strided groups: to the last group if it has the same length and
/// lies one stride on (a group's second block sets its stride), else as a new group.
fn push_strided(groups: &mut Vec<Strided>, block: Block) {
    if let Some(group) = groups.last_mut() {
        if group.len == block.len {
            let last = group.disp + (group.count as i64 - 1) * group.stride;
            let step = block.disp.wrapping_sub(last);
            if group.count == 1 || step == group.stride {
                group.stride = step;
                group.count += 1;
                return;
            }
        }
    }
    groups.push(Strided {
        disp: block.disp,
        len: block.len,
        count: 1,
        stride: 0,
    });
}

/// The type map of a datatype: its layout, how it was made, and (once compiled) its blocks.
#[derive(Debug)]
pub struct TypeMap {
    combiner: Combiner,
    contents: Contents,
    /// Whether the contents hold the arguments of a large-count (`_c`) constructor.
    large_form: bool,
    /// The predefined index for predefined types.
    predefined: Option<u32>,
    basic: Option<Basic>,
    parts: Vec<Part>,
    size: u64,
    lb: i64,
    ub: i64,
    true_lb: i64,
    true_ub: i64,
    align: u64,
    /// Whether bounds were set explicitly (MPI_Type_create_resized, here or in a child): the
    /// struct alignment padding then does not apply.
    explicit_bounds: bool,
    /// Shared by a duplicate (MPI_Type_dup), whose type map is the same.
    flat: OnceLock<Arc<Flat>>,
}

fn overflow() -> Error {
    Error::InvalidArgument("displacement or extent out of range")
}

fn to_i64(value: i128) -> Result<i64> {
    i64::try_from(value).map_err(|_| overflow())
}

fn count(value: i64) -> Result<u64> {
    u64::try_from(value).map_err(|_| Error::InvalidCount)
}

impl TypeMap {
    /// A predefined type of one basic element.
    pub fn basic(kind: Basic, predefined: Option<u32>) -> TypeMap {
        let size = kind.size();
        TypeMap {
            combiner: Combiner::Named,
            contents: Contents::default(),
            large_form: false,
            predefined,
            basic: Some(kind),
            parts: Vec::new(),
            size,
            lb: 0,
            ub: size as i64,
            true_lb: 0,
            true_ub: size as i64,
            align: kind.alignment(),
            explicit_bounds: false,
            flat: OnceLock::new(),
        }
    }

    /// A predefined pair type (MPI_FLOAT_INT and the like): `first` at 0, `second` at
    /// `second_disp`, with the extent of the C struct holding them.
    pub fn pair(first: Basic, second: Basic, second_disp: i64, predefined: Option<u32>) -> TypeMap {
        let align = first.alignment().max(second.alignment());
        let end = second_disp + second.size() as i64;
        let extent = (end + align as i64 - 1) / align as i64 * align as i64;
        let part = |disp, kind| Part {
            disp,
            repeat: 1,
            stride: 0,
            blocklength: 1,
            child: Arc::new(TypeMap::basic(kind, None)),
        };
        TypeMap {
            combiner: Combiner::Named,
            contents: Contents::default(),
            large_form: false,
            predefined,
            basic: None,
            parts: vec![part(0, first), part(second_disp, second)],
            size: first.size() + second.size(),
            lb: 0,
            ub: extent,
            true_lb: 0,
            true_ub: end,
            align,
            explicit_bounds: false,
            flat: OnceLock::new(),
        }
    }

    /// Builds a derived type from its parts, computing its layout (MPI-4.1 §5.1.1: lb is the
    /// lowest entry's start, ub the highest entry's end, over every entry).
    fn derived(
        combiner: Combiner,
        contents: Contents,
        large_form: bool,
        parts: Vec<Part>,
        pad: bool,
    ) -> Result<TypeMap> {
        let mut size: u128 = 0;
        let (mut lb, mut ub, mut true_lb, mut true_ub) =
            (i128::MAX, i128::MIN, i128::MAX, i128::MIN);
        let mut align = 1;
        let mut explicit_bounds = false;
        let mut any = false;
        let mut true_any = false;
        for part in &parts {
            let n = part.repeat as u128 * part.blocklength as u128;
            if n == 0 {
                continue;
            }
            let child = &part.child;
            size += n * child.size as u128;
            explicit_bounds |= child.explicit_bounds;
            align = align.max(child.align);
            // The lowest and highest starting points of the copies.
            let ext = child.extent() as i128;
            let span_blocks = (part.blocklength as i128 - 1) * ext;
            let span_repeat = (part.repeat as i128 - 1) * part.stride as i128;
            let low = part.disp as i128 + span_blocks.min(0) + span_repeat.min(0);
            let high = part.disp as i128 + span_blocks.max(0) + span_repeat.max(0);
            any = true;
            lb = lb.min(low + child.lb as i128);
            ub = ub.max(high + child.ub as i128);
            if child.size > 0 {
                true_any = true;
                true_lb = true_lb.min(low + child.true_lb as i128);
                true_ub = true_ub.max(high + child.true_ub as i128);
            }
        }
        if !any {
            (lb, ub) = (0, 0);
        }
        if !true_any {
            (true_lb, true_ub) = (0, 0);
        }
        // The struct rule (MPI-4.1 §5.1.6): the extent is rounded up to a multiple of the
        // largest alignment among the basic members, unless bounds were set explicitly.
        if pad && !explicit_bounds && any {
            let extent = ub - lb;
            let a = align as i128;
            if extent >= 0 && extent % a != 0 {
                ub += a - extent % a;
            }
        }
        Ok(TypeMap {
            combiner,
            contents,
            large_form,
            predefined: None,
            basic: None,
            parts,
            size: u64::try_from(size).map_err(|_| Error::InvalidCount)?,
            lb: to_i64(lb)?,
            ub: to_i64(ub)?,
            true_lb: to_i64(true_lb)?,
            true_ub: to_i64(true_ub)?,
            align,
            explicit_bounds,
            flat: OnceLock::new(),
        })
    }

    pub(crate) fn with_contents(
        mut self,
        combiner: Combiner,
        contents: Contents,
        large: bool,
    ) -> TypeMap {
        self.combiner = combiner;
        self.contents = contents;
        self.large_form = large;
        self
    }

    /// Size in bytes of one item (MPI_Type_size).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Lower bound (MPI_Type_get_extent).
    pub fn lb(&self) -> i64 {
        self.lb
    }

    /// Extent: ub - lb (MPI_Type_get_extent).
    pub fn extent(&self) -> i64 {
        self.ub - self.lb
    }

    /// True lower bound: the lowest byte any element occupies.
    pub fn true_lb(&self) -> i64 {
        self.true_lb
    }

    /// True extent: from the lowest to past the highest byte any element occupies.
    pub fn true_extent(&self) -> i64 {
        self.true_ub - self.true_lb
    }

    /// The combiner.
    pub fn combiner(&self) -> Combiner {
        self.combiner
    }

    /// The constructor's arguments (empty for predefined types).
    pub fn contents(&self) -> &Contents {
        &self.contents
    }

    /// Whether the contents come from a large-count (`_c`) constructor.
    pub fn large_form(&self) -> bool {
        self.large_form
    }

    /// The predefined table index of a predefined type.
    pub fn predefined_index(&self) -> Option<u32> {
        self.predefined
    }

    /// The basic kind of a predefined type of one element.
    pub fn basic_kind(&self) -> Option<Basic> {
        self.basic
    }

    /// The byte range `(low, high)` relative to the buffer address that `count` items touch,
    /// or None when they touch nothing.
    pub fn span(&self, count: u64) -> Option<(i128, i128)> {
        if count == 0 || self.size == 0 {
            return None;
        }
        let reach = (count as i128 - 1) * self.extent() as i128;
        Some((
            self.true_lb as i128 + reach.min(0),
            self.true_ub as i128 + reach.max(0),
        ))
    }

    /// The compiled item (MPI_Type_commit compiles it; later calls reuse it). Linear in the
    /// number of entries of the type map.
    pub fn flat(&self) -> &Flat {
        self.flat.get_or_init(|| Arc::new(self.compile()))
    }

    /// Builds the compiled form (see [`TypeMap::flat`]).
    fn compile(&self) -> Flat {
        let mut flat = Flat::default();
        self.flatten_into(0, &mut flat.runs);
        // The runs' bytes as blocks, adjacent ones merged (`pending` grows until the
        // next run does not touch it), grouped as they come: no block list is kept.
        let mut pending: Option<Block> = None;
        for run in &flat.runs {
            let block = Block {
                disp: run.disp,
                len: run.count * run.kind.size(),
            };
            match &mut pending {
                Some(last) if last.disp.wrapping_add(last.len as i64) == block.disp => {
                    last.len += block.len;
                }
                _ => {
                    if let Some(done) = pending.replace(block) {
                        push_strided(&mut flat.strided, done);
                    }
                }
            }
        }
        if let Some(done) = pending {
            push_strided(&mut flat.strided, done);
        }
        // A committed type keeps only what it uses: no growth slack.
        flat.runs.shrink_to_fit();
        flat.strided.shrink_to_fit();
        flat
    }

    fn flatten_into(&self, base: i64, runs: &mut Vec<Run>) {
        if let Some(kind) = self.basic {
            push_run(
                runs,
                Run {
                    disp: base,
                    kind,
                    count: 1,
                },
            );
            return;
        }
        for part in &self.parts {
            let child = part.child.flat();
            let ext = part.child.extent();
            for r in 0..part.repeat as i64 {
                for b in 0..part.blocklength as i64 {
                    let at = base
                        .wrapping_add(part.disp)
                        .wrapping_add(r.wrapping_mul(part.stride))
                        .wrapping_add(b.wrapping_mul(ext));
                    for run in &child.runs {
                        push_run(
                            runs,
                            Run {
                                disp: at.wrapping_add(run.disp),
                                ..*run
                            },
                        );
                    }
                }
            }
        }
    }

    /// The type signature as a run-length sequence of basic kinds.
    pub fn signature(&self) -> Vec<(Basic, u64)> {
        let mut out: Vec<(Basic, u64)> = Vec::new();
        for run in &self.flat().runs {
            match out.last_mut() {
                Some((kind, n)) if *kind == run.kind => *n += run.count,
                _ => out.push((run.kind, run.count)),
            }
        }
        out
    }

    /// Number of basic elements in one item.
    pub fn elements(&self) -> u64 {
        self.flat().runs.iter().map(|run| run.count).sum()
    }

    /// Whether items lie back to back as one contiguous byte range starting at true_lb:
    /// `count` items are then `count * size` bytes from there.
    pub fn contiguous_items(&self) -> bool {
        let flat = self.flat();
        matches!(flat.strided.as_slice(), [group] if group.count == 1
            && group.disp == self.true_lb
            && group.len == self.size)
            && self.extent() == self.size as i64
    }
}

fn push_run(runs: &mut Vec<Run>, run: Run) {
    if let Some(last) = runs.last_mut() {
        if last.kind == run.kind
            && last
                .disp
                .wrapping_add((last.count * last.kind.size()) as i64)
                == run.disp
        {
            last.count += run.count;
            return;
        }
    }
    runs.push(run);
}

// ---- constructors ------------------------------------------------------------------------

fn part(disp: i64, blocklength: u64, child: &Arc<TypeMap>) -> Part {
    Part {
        disp,
        repeat: 1,
        stride: 0,
        blocklength,
        child: child.clone(),
    }
}

fn bytes(n: i64, old: &TypeMap) -> Result<i64> {
    to_i64(n as i128 * old.extent() as i128)
}

/// MPI_Type_contiguous(_c): `count` copies of `old`, one extent apart.
pub fn contiguous(count_: i64, old: &Arc<TypeMap>, large: bool) -> Result<TypeMap> {
    let n = count(count_)?;
    let contents = contents_of(large, vec![count_], vec![], vec![], &[old]);
    TypeMap::derived(
        Combiner::Contiguous,
        contents,
        large,
        vec![part(0, n, old)],
        false,
    )
}

/// The lists one after the other, in a vector of exactly their length (a type of 10^6 blocks
/// keeps its arguments without growth slack).
fn joined(lists: &[&[i64]]) -> Vec<i64> {
    let mut all = Vec::with_capacity(lists.iter().map(|list| list.len()).sum());
    for list in lists {
        all.extend_from_slice(list);
    }
    all
}

fn contents_of(
    large: bool,
    counts: Vec<i64>,
    ints: Vec<i64>,
    addresses: Vec<i64>,
    types: &[&Arc<TypeMap>],
) -> Contents {
    let types = types.iter().map(|t| (*t).clone()).collect();
    if large {
        let all = joined(&[&counts, &addresses]);
        Contents {
            integers: ints,
            addresses: Vec::new(),
            large: all,
            types,
        }
    } else {
        let mut all = counts;
        all.extend(ints);
        Contents {
            integers: all,
            addresses,
            large: Vec::new(),
            types,
        }
    }
}

fn hvector_parts(count_: i64, blocklength: i64, stride: i64, old: &Arc<TypeMap>) -> Result<Part> {
    Ok(Part {
        disp: 0,
        repeat: count(count_)?,
        stride,
        blocklength: count(blocklength)?,
        child: old.clone(),
    })
}

/// MPI_Type_vector(_c): `count` blocks of `blocklength` copies, block starts `stride`
/// extents of `old` apart.
pub fn vector(
    count_: i64,
    blocklength: i64,
    stride: i64,
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    let part = hvector_parts(count_, blocklength, bytes(stride, old)?, old)?;
    let contents = contents_of(
        large,
        vec![count_, blocklength, stride],
        vec![],
        vec![],
        &[old],
    );
    TypeMap::derived(Combiner::Vector, contents, large, vec![part], false)
}

/// MPI_Type_create_hvector(_c): as vector with the stride in bytes.
pub fn hvector(
    count_: i64,
    blocklength: i64,
    stride: i64,
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    let part = hvector_parts(count_, blocklength, stride, old)?;
    let contents = contents_of(
        large,
        vec![count_, blocklength],
        vec![],
        vec![stride],
        &[old],
    );
    TypeMap::derived(Combiner::Hvector, contents, large, vec![part], false)
}

fn check_lengths(blocklengths: &[i64], displacements: &[i64]) -> Result<()> {
    if blocklengths.len() != displacements.len() {
        return Err(Error::InvalidArgument("array lengths differ"));
    }
    for &b in blocklengths {
        count(b)?;
    }
    Ok(())
}

/// MPI_Type_indexed(_c): blocks of `blocklengths[i]` copies at `displacements[i]` extents.
pub fn indexed(
    blocklengths: &[i64],
    displacements: &[i64],
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    check_lengths(blocklengths, displacements)?;
    let parts = blocklengths
        .iter()
        .zip(displacements)
        .map(|(&b, &d)| Ok(part(bytes(d, old)?, b as u64, old)))
        .collect::<Result<Vec<_>>>()?;
    let counts = joined(&[&[blocklengths.len() as i64], blocklengths, displacements]);
    let contents = contents_of(large, counts, vec![], vec![], &[old]);
    TypeMap::derived(Combiner::Indexed, contents, large, parts, false)
}

/// MPI_Type_create_hindexed(_c): as indexed with displacements in bytes.
pub fn hindexed(
    blocklengths: &[i64],
    displacements: &[i64],
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    check_lengths(blocklengths, displacements)?;
    let parts = blocklengths
        .iter()
        .zip(displacements)
        .map(|(&b, &d)| part(d, b as u64, old))
        .collect();
    let counts = joined(&[&[blocklengths.len() as i64], blocklengths]);
    let contents = contents_of(large, counts, vec![], displacements.to_vec(), &[old]);
    TypeMap::derived(Combiner::Hindexed, contents, large, parts, false)
}

/// MPI_Type_create_indexed_block(_c): blocks of one length at displacements in extents.
pub fn indexed_block(
    blocklength: i64,
    displacements: &[i64],
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    let n = count(blocklength)?;
    let parts = displacements
        .iter()
        .map(|&d| Ok(part(bytes(d, old)?, n, old)))
        .collect::<Result<Vec<_>>>()?;
    let counts = joined(&[&[displacements.len() as i64, blocklength], displacements]);
    let contents = contents_of(large, counts, vec![], vec![], &[old]);
    TypeMap::derived(Combiner::IndexedBlock, contents, large, parts, false)
}

/// MPI_Type_create_hindexed_block(_c): blocks of one length at byte displacements.
pub fn hindexed_block(
    blocklength: i64,
    displacements: &[i64],
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    let n = count(blocklength)?;
    let parts = displacements.iter().map(|&d| part(d, n, old)).collect();
    let counts = vec![displacements.len() as i64, blocklength];
    let contents = contents_of(large, counts, vec![], displacements.to_vec(), &[old]);
    TypeMap::derived(Combiner::HindexedBlock, contents, large, parts, false)
}

/// MPI_Type_create_struct(_c): blocks of different types at byte displacements; the extent
/// is padded to the largest member alignment (see [`TypeMap::derived`]).
pub fn create_struct(
    blocklengths: &[i64],
    displacements: &[i64],
    types: &[Arc<TypeMap>],
    large: bool,
) -> Result<TypeMap> {
    check_lengths(blocklengths, displacements)?;
    if types.len() != blocklengths.len() {
        return Err(Error::InvalidArgument("array lengths differ"));
    }
    let parts = blocklengths
        .iter()
        .zip(displacements)
        .zip(types)
        .map(|((&b, &d), t)| part(d, b as u64, t))
        .collect();
    let counts = joined(&[&[blocklengths.len() as i64], blocklengths]);
    let refs: Vec<&Arc<TypeMap>> = types.iter().collect();
    let contents = contents_of(large, counts, vec![], displacements.to_vec(), &refs);
    TypeMap::derived(Combiner::Struct, contents, large, parts, true)
}

/// MPI_Type_create_resized(_c): the same entries with lower bound `lb` and extent `extent`.
pub fn resized(old: &Arc<TypeMap>, lb: i64, extent: i64, large: bool) -> Result<TypeMap> {
    let contents = contents_of(large, vec![], vec![], vec![lb, extent], &[old]);
    let mut map = TypeMap::derived(
        Combiner::Resized,
        contents,
        large,
        vec![part(0, 1, old)],
        false,
    )?;
    map.lb = lb;
    map.ub = to_i64(lb as i128 + extent as i128)?;
    map.explicit_bounds = true;
    Ok(map)
}

/// MPI_Type_dup's type map: the same entries, combiner DUP. A duplicate's handle does not
/// hold one (it shares its original's map and counts the levels of duplication); the engine
/// makes one when a duplicate's own type map is asked for (`Universe::type_map`, a datatype
/// built from a duplicate).
pub fn dup(old: &Arc<TypeMap>) -> Result<TypeMap> {
    // One copy of `old` at displacement 0: its size, bounds and alignment, as
    // TypeMap::derived would compute them, without computing.
    let (true_lb, true_ub) = if old.size > 0 {
        (old.true_lb, old.true_ub)
    } else {
        (0, 0)
    };
    Ok(TypeMap {
        combiner: Combiner::Dup,
        contents: Contents {
            types: vec![Arc::clone(old)],
            ..Contents::default()
        },
        large_form: false,
        predefined: None,
        basic: None,
        parts: vec![part(0, 1, old)],
        size: old.size,
        lb: old.lb,
        ub: old.ub,
        true_lb,
        true_ub,
        align: old.align.max(1),
        explicit_bounds: old.explicit_bounds,
        // The same type map: the duplicate of a committed type shares its compiled form.
        flat: old
            .flat
            .get()
            .map_or_else(OnceLock::new, |flat| OnceLock::from(Arc::clone(flat))),
    })
}

/// Array storage order for subarray and darray.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Row-major: the last dimension varies fastest (MPI_ORDER_C).
    C,
    /// Column-major: the first dimension varies fastest (MPI_ORDER_FORTRAN).
    Fortran,
}

/// MPI_Type_create_subarray(_c): the `subsizes` block starting at `starts` of an array of
/// `sizes` elements of `old`; lb 0 and extent the whole array (MPI-4.1 §5.1.3).
pub fn subarray(
    sizes: &[i64],
    subsizes: &[i64],
    starts: &[i64],
    order: Order,
    order_code: i64,
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    let n = sizes.len();
    if n == 0 || subsizes.len() != n || starts.len() != n {
        return Err(Error::InvalidArgument("subarray dimensions"));
    }
    for i in 0..n {
        if sizes[i] < 1 || subsizes[i] < 0 || starts[i] < 0 || starts[i] + subsizes[i] > sizes[i] {
            return Err(Error::InvalidArgument("subarray sizes, subsizes or starts"));
        }
    }
    // Dimensions from the fastest-varying one outward.
    let dims: Vec<usize> = match order {
        Order::C => (0..n).rev().collect(),
        Order::Fortran => (0..n).collect(),
    };
    let ext = old.extent() as i128;
    let mut t = Arc::new(TypeMap::derived(
        Combiner::Contiguous,
        Contents::default(),
        false,
        vec![part(0, subsizes[dims[0]] as u64, old)],
        false,
    )?);
    let mut stride = ext * sizes[dims[0]] as i128;
    let mut disp = starts[dims[0]] as i128 * ext;
    let mut total = ext * sizes[dims[0]] as i128;
    for &d in &dims[1..] {
        let p = Part {
            disp: 0,
            repeat: subsizes[d] as u64,
            stride: to_i64(stride)?,
            blocklength: 1,
            child: t.clone(),
        };
        t = Arc::new(TypeMap::derived(
            Combiner::Hvector,
            Contents::default(),
            false,
            vec![p],
            false,
        )?);
        disp += starts[d] as i128 * stride;
        stride *= sizes[d] as i128;
        total *= sizes[d] as i128;
    }
    let placed = Arc::new(TypeMap::derived(
        Combiner::Hindexed,
        Contents::default(),
        false,
        vec![part(to_i64(disp)?, 1, &t)],
        false,
    )?);
    let mut map = resized(&placed, 0, to_i64(total)?, false)?;
    let contents = if large {
        let mut l = sizes.to_vec();
        l.extend(subsizes);
        l.extend(starts);
        Contents {
            integers: vec![n as i64, order_code],
            addresses: vec![],
            large: l,
            types: vec![old.clone()],
        }
    } else {
        let mut i = vec![n as i64];
        i.extend(sizes);
        i.extend(subsizes);
        i.extend(starts);
        i.push(order_code);
        Contents {
            integers: i,
            addresses: vec![],
            large: vec![],
            types: vec![old.clone()],
        }
    };
    map = map.with_contents(Combiner::Subarray, contents, large);
    Ok(map)
}

/// How one dimension of a darray is spread over the process grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// MPI_DISTRIBUTE_BLOCK: one block of `darg` indices per process (default
    /// ceil(gsize / psize)).
    Block,
    /// MPI_DISTRIBUTE_CYCLIC: blocks of `darg` indices dealt round-robin (default 1).
    Cyclic,
    /// MPI_DISTRIBUTE_NONE: not distributed (psize must be 1).
    None,
}

/// One dimension of MPI_Type_create_darray: global size, distribution, distribution
/// argument (None for MPI_DISTRIBUTE_DFLT_DARG) and process-grid size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DarrayDim {
    /// Global size in elements.
    pub gsize: i64,
    /// Distribution.
    pub distrib: Distribution,
    /// Distribution argument; None for the default.
    pub darg: Option<i64>,
    /// Processes along this dimension.
    pub psize: i64,
}

/// The program's constants for a darray, kept for get_contents: the distribution codes, the
/// darg values as passed (MPI_DISTRIBUTE_DFLT_DARG included) and the order code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DarrayCodes {
    /// One distribution code per dimension.
    pub distribs: Vec<i64>,
    /// One darg per dimension, as passed.
    pub dargs: Vec<i64>,
    /// MPI_ORDER_C or MPI_ORDER_FORTRAN as passed.
    pub order: i64,
}

/// MPI_Type_create_darray(_c): the part of a global array that process `rank` of `size`
/// owns on a row-major process grid of `psizes` (MPI-4.1 §5.1.4). Its lb is 0 and its
/// extent the whole global array.
pub fn darray(
    size: i64,
    rank: i64,
    dims: &[DarrayDim],
    order: Order,
    codes: &DarrayCodes,
    old: &Arc<TypeMap>,
    large: bool,
) -> Result<TypeMap> {
    let n = dims.len();
    if n == 0 || codes.distribs.len() != n || codes.dargs.len() != n {
        return Err(Error::InvalidArgument("darray dimensions"));
    }
    if size < 1 || rank < 0 || rank >= size {
        return Err(Error::InvalidArgument("darray size or rank"));
    }
    let mut procs: i128 = 1;
    for d in dims {
        if d.gsize < 1 || d.psize < 1 {
            return Err(Error::InvalidArgument("darray gsizes or psizes"));
        }
        procs *= d.psize as i128;
        if procs > size as i128 {
            break;
        }
    }
    if procs != size as i128 {
        return Err(Error::InvalidArgument("psizes do not multiply to size"));
    }
    // Row-major process coordinates, whatever the array order.
    let mut coords = vec![0i64; n];
    let mut left = rank;
    for i in (0..n).rev() {
        coords[i] = left % dims[i].psize;
        left /= dims[i].psize;
    }
    let order_dims: Vec<usize> = match order {
        Order::C => (0..n).rev().collect(),
        Order::Fortran => (0..n).collect(),
    };
    let mut t = old.clone();
    let mut unit = old.extent() as i128;
    for &i in &order_dims {
        let d = dims[i];
        let (g, p, r) = (d.gsize, d.psize, coords[i]);
        let stride = to_i64(unit)?;
        let run = |first: i64, len: i64| -> Result<Part> {
            Ok(Part {
                disp: to_i64(first as i128 * unit)?,
                repeat: len.max(0) as u64,
                stride,
                blocklength: 1,
                child: t.clone(),
            })
        };
        let parts = match d.distrib {
            Distribution::None => {
                if p != 1 {
                    return Err(Error::InvalidArgument("MPI_DISTRIBUTE_NONE needs psize 1"));
                }
                vec![run(0, g)?]
            }
            Distribution::Block => {
                let b = d.darg.unwrap_or((g + p - 1) / p);
                if b < 1 || (b as i128) * (p as i128) < g as i128 {
                    return Err(Error::InvalidArgument("block darg too small"));
                }
                let first = (r as i128 * b as i128).min(g as i128) as i64;
                vec![run(first, b.min(g - first))?]
            }
            Distribution::Cyclic => {
                let b = d.darg.unwrap_or(1);
                if b < 1 {
                    return Err(Error::InvalidArgument("cyclic darg below 1"));
                }
                let mut parts = Vec::new();
                let mut first = r as i128 * b as i128;
                while first < g as i128 {
                    let f = first as i64;
                    parts.push(run(f, b.min(g - f))?);
                    first += p as i128 * b as i128;
                }
                parts
            }
        };
        t = Arc::new(TypeMap::derived(
            Combiner::Hindexed,
            Contents::default(),
            false,
            parts,
            false,
        )?);
        unit *= g as i128;
    }
    let map = resized(&t, 0, to_i64(unit)?, false)?;
    let gsizes: Vec<i64> = dims.iter().map(|d| d.gsize).collect();
    let psizes: Vec<i64> = dims.iter().map(|d| d.psize).collect();
    let mut integers = vec![size, rank, n as i64];
    if !large {
        integers.extend(&gsizes);
    }
    integers.extend(&codes.distribs);
    integers.extend(&codes.dargs);
    integers.extend(&psizes);
    integers.push(codes.order);
    let contents = Contents {
        integers,
        addresses: vec![],
        large: if large { gsizes } else { vec![] },
        types: vec![old.clone()],
    };
    Ok(map.with_contents(Combiner::Darray, contents, large))
}

// ---- memory operations -------------------------------------------------------------------

fn check_span(map: &TypeMap, count: u64, len: usize, origin: isize) -> Result<()> {
    if let Some((low, high)) = map.span(count) {
        let origin = origin as i128;
        if origin + low < 0 || origin + high > len as i128 {
            return Err(Error::InvalidArgument(
                "buffer does not cover the datatype's span",
            ));
        }
    }
    Ok(())
}

fn at(origin: isize, item: u64, extent: i64, disp: i64) -> usize {
    (origin as i128 + item as i128 * extent as i128 + disp as i128) as usize
}

/// MPI_Pack_size: the bytes `count` items take packed (our packed form is the raw bytes).
pub fn pack_size(map: &TypeMap, count: u64) -> Result<u64> {
    map.size.checked_mul(count).ok_or(Error::InvalidCount)
}

/// MPI_Pack: appends `count` items of `map` from `src` (item 0 at `origin`, see the module's
/// memory interface) to `out` at `*position`, advancing it. MPI_ERR_TRUNCATE if `out` is too
/// short; nothing is written then.
pub fn pack(
    map: &TypeMap,
    count: u64,
    src: &[u8],
    origin: isize,
    out: &mut [u8],
    position: &mut usize,
) -> Result<()> {
    check_span(map, count, src.len(), origin)?;
    let total = pack_size(map, count)?;
    let end = (*position as u128 + total as u128).min(usize::MAX as u128) as usize;
    if *position > out.len() || end as u128 != *position as u128 + total as u128 || end > out.len()
    {
        return Err(Error::Truncated {
            length: total as u64,
            capacity: out.len().saturating_sub(*position) as u64,
        });
    }
    let mut pos = *position;
    if total == 0 {
        return Ok(());
    }
    if map.contiguous_items() {
        let start = at(origin, 0, 0, map.true_lb);
        out[pos..end].copy_from_slice(&src[start..start + total as usize]);
    } else {
        let flat = map.flat();
        let one = map.size as usize;
        for item in 0..count {
            let base = at(origin, item, map.extent(), 0) as isize;
            gather(flat, base, src, &mut out[pos..pos + one]);
            pos += one;
        }
    }
    *position = end;
    Ok(())
}

/// MPI_Unpack: reads `count` items of `map` from `input` at `*position` into `dst` (item 0 at
/// `origin`), advancing the position. MPI_ERR_TRUNCATE if `input` holds too few bytes.
pub fn unpack(
    input: &[u8],
    position: &mut usize,
    map: &TypeMap,
    count: u64,
    dst: &mut [u8],
    origin: isize,
) -> Result<()> {
    check_span(map, count, dst.len(), origin)?;
    let total = pack_size(map, count)?;
    if *position as u128 + total as u128 > input.len() as u128 {
        return Err(Error::Truncated {
            length: total as u64,
            capacity: input.len().saturating_sub(*position) as u64,
        });
    }
    let mut pos = *position;
    if total == 0 {
        return Ok(());
    }
    if map.contiguous_items() {
        let start = at(origin, 0, 0, map.true_lb);
        dst[start..start + total as usize].copy_from_slice(&input[pos..pos + total as usize]);
        pos += total as usize;
    } else {
        let flat = map.flat();
        let one = map.size as usize;
        for item in 0..count {
            let base = at(origin, item, map.extent(), 0) as isize;
            spread(flat, base, &input[pos..pos + one], dst);
            pos += one;
        }
    }
    *position = pos;
    Ok(())
}

/// The typed copy of a message to oneself: `src_count` items of `src_map` from `src` into at
/// most `dst_count` items of `dst_map` in `dst` (both by the memory interface). The type
/// signatures must match (MPI-4.1 §3.3); only the byte counts are checked. Returns the bytes
/// copied; MPI_ERR_TRUNCATE (nothing copied) if the message is longer than the receive
/// buffer. Contiguous on both sides it is one memcpy.
#[allow(clippy::too_many_arguments)]
pub fn copy(
    src_map: &TypeMap,
    src_count: u64,
    src: &[u8],
    src_origin: isize,
    dst_map: &TypeMap,
    dst_count: u64,
    dst: &mut [u8],
    dst_origin: isize,
) -> Result<u64> {
    let total = pack_size(src_map, src_count)?;
    let room = pack_size(dst_map, dst_count)?;
    if total > room {
        return Err(Error::Truncated {
            length: total as u64,
            capacity: room as u64,
        });
    }
    check_span(src_map, src_count, src.len(), src_origin)?;
    if total == 0 {
        return Ok(0);
    }
    // The receive side fills whole items first, then part of the last one.
    let dst_items = total.div_ceil(dst_map.size.max(1));
    check_span(dst_map, dst_items, dst.len(), dst_origin)?;
    if src_map.contiguous_items() {
        let start = at(src_origin, 0, 0, src_map.true_lb);
        scatter(
            &src[start..start + total as usize],
            dst_map,
            dst,
            dst_origin,
        );
    } else {
        let mut staged = vec![0u8; total as usize];
        let mut pos = 0;
        pack(src_map, src_count, src, src_origin, &mut staged, &mut pos)?;
        scatter(&staged, dst_map, dst, dst_origin);
    }
    Ok(total)
}

/// Delivers a received message: writes the packed bytes `data` into the items of `map` in
/// `dst` (item 0 at `origin`), whole items first and then part of the last one if the data
/// ends inside it (a truncated receive delivers what fits). MPI_ERR_ARG, nothing written, if
/// `dst` does not cover the items the data reaches.
pub fn deliver(data: &[u8], map: &TypeMap, dst: &mut [u8], origin: isize) -> Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    let items = (data.len() as u64).div_ceil(map.size.max(1));
    check_span(map, items, dst.len(), origin)?;
    scatter(data, map, dst, origin);
    Ok(())
}

/// Writes the packed bytes `data` into items of `map`, stopping when the data ends.
fn scatter(data: &[u8], map: &TypeMap, dst: &mut [u8], origin: isize) {
    if map.contiguous_items() {
        let start = at(origin, 0, 0, map.true_lb);
        dst[start..start + data.len()].copy_from_slice(data);
        return;
    }
    let flat = map.flat();
    let one = map.size as usize;
    let whole = data.len() / one.max(1);
    for (item, chunk) in data.chunks_exact(one.max(1)).enumerate() {
        spread(
            flat,
            at(origin, item as u64, map.extent(), 0) as isize,
            chunk,
            dst,
        );
    }
    // The part of one more item the data ends in.
    let rest = &data[whole * one..];
    let base = at(origin, whole as u64, map.extent(), 0) as isize;
    let mut pos = 0;
    for block in flat.blocks() {
        if pos == rest.len() {
            return;
        }
        let d = (base + block.disp as isize) as usize;
        let len = (block.len as usize).min(rest.len() - pos);
        dst[d..d + len].copy_from_slice(&rest[pos..pos + len]);
        pos += len;
    }
}

// ---- block copies ----------------------------------------------------------------------
//
// One item's blocks, from memory into packed bytes (gather) and back (spread), walking the
// strided groups. `base` is the item's address inside the slice; the caller checked that
// every block lies inside it. A group of a small common length moves each block with a copy
// of fixed size, a load and a store instead of a call.

fn gather(flat: &Flat, base: isize, src: &[u8], out: &mut [u8]) {
    let mut pos = 0;
    for group in &flat.strided {
        let bytes = (group.len * group.count) as usize;
        let out = &mut out[pos..pos + bytes];
        let first = base + group.disp as isize;
        let stride = group.stride as isize;
        match group.len {
            1 => gather_fixed::<1>(first, stride, src, out),
            2 => gather_fixed::<2>(first, stride, src, out),
            4 => gather_fixed::<4>(first, stride, src, out),
            8 => gather_fixed::<8>(first, stride, src, out),
            16 => gather_fixed::<16>(first, stride, src, out),
            len => {
                let len = len as usize;
                for (i, chunk) in out.chunks_exact_mut(len).enumerate() {
                    let s = (first + i as isize * stride) as usize;
                    chunk.copy_from_slice(&src[s..s + len]);
                }
            }
        }
        pos += bytes;
    }
}

#[inline(always)]
fn gather_fixed<const N: usize>(first: isize, stride: isize, src: &[u8], out: &mut [u8]) {
    let count = out.len() / N;
    if count == 0 {
        return;
    }
    if stride >= N as isize {
        // Blocks in increasing order that do not overlap: one range check for all of them,
        // then a walk whose steps the compiler knows stay inside it.
        let (first, stride) = (first as usize, stride as usize);
        let span = &src[first..first + (count - 1) * stride + N];
        let (whole, last) = out.split_at_mut((count - 1) * N);
        for (o, s) in whole.chunks_exact_mut(N).zip(span.chunks_exact(stride)) {
            o.copy_from_slice(&s[..N]);
        }
        last.copy_from_slice(&span[(count - 1) * stride..]);
        return;
    }
    let mut s = first;
    for chunk in out.chunks_exact_mut(N) {
        let at = s as usize;
        chunk.copy_from_slice(&src[at..at + N]);
        s += stride;
    }
}

fn spread(flat: &Flat, base: isize, data: &[u8], dst: &mut [u8]) {
    let mut pos = 0;
    for group in &flat.strided {
        let bytes = (group.len * group.count) as usize;
        let data = &data[pos..pos + bytes];
        let first = base + group.disp as isize;
        let stride = group.stride as isize;
        match group.len {
            1 => spread_fixed::<1>(first, stride, data, dst),
            2 => spread_fixed::<2>(first, stride, data, dst),
            4 => spread_fixed::<4>(first, stride, data, dst),
            8 => spread_fixed::<8>(first, stride, data, dst),
            16 => spread_fixed::<16>(first, stride, data, dst),
            len => {
                let len = len as usize;
                for (i, chunk) in data.chunks_exact(len).enumerate() {
                    let d = (first + i as isize * stride) as usize;
                    dst[d..d + len].copy_from_slice(chunk);
                }
            }
        }
        pos += bytes;
    }
}

#[inline(always)]
fn spread_fixed<const N: usize>(first: isize, stride: isize, data: &[u8], dst: &mut [u8]) {
    let count = data.len() / N;
    if count == 0 {
        return;
    }
    if stride >= N as isize {
        // As in `gather_fixed`: one range check, then a walk inside it.
        let (first, stride) = (first as usize, stride as usize);
        let span = &mut dst[first..first + (count - 1) * stride + N];
        let (whole, last) = data.split_at((count - 1) * N);
        for (d, s) in span.chunks_exact_mut(stride).zip(whole.chunks_exact(N)) {
            d[..N].copy_from_slice(s);
        }
        span[(count - 1) * stride..].copy_from_slice(last);
        return;
    }
    let mut d = first;
    for chunk in data.chunks_exact(N) {
        let at = d as usize;
        dst[at..at + N].copy_from_slice(chunk);
        d += stride;
    }
}

/// MPI_Pack_external_size for "external32".
pub fn pack_external_size(map: &TypeMap, count: u64) -> Result<u64> {
    let one: u64 = map
        .flat()
        .runs
        .iter()
        .map(|run| run.count * run.kind.external_size())
        .sum();
    one.checked_mul(count).ok_or(Error::InvalidCount)
}

/// MPI_Pack_external("external32"): as [`pack`], each element converted to the big-endian
/// external32 form.
pub fn pack_external(
    map: &TypeMap,
    count: u64,
    src: &[u8],
    origin: isize,
    out: &mut [u8],
    position: &mut usize,
) -> Result<()> {
    check_span(map, count, src.len(), origin)?;
    let total = pack_external_size(map, count)?;
    if *position as u128 + total as u128 > out.len() as u128 {
        return Err(Error::Truncated {
            length: total as u64,
            capacity: out.len().saturating_sub(*position) as u64,
        });
    }
    let mut pos = *position;
    for item in 0..count {
        for run in &map.flat().runs {
            let (size, ext) = (run.kind.size() as usize, run.kind.external_size() as usize);
            let mut s = at(origin, item, map.extent(), run.disp);
            for _ in 0..run.count {
                run.kind
                    .write_external(&src[s..s + size], &mut out[pos..pos + ext]);
                s += size;
                pos += ext;
            }
        }
    }
    *position = pos;
    Ok(())
}

/// MPI_Unpack_external("external32"): the inverse of [`pack_external`].
pub fn unpack_external(
    input: &[u8],
    position: &mut usize,
    map: &TypeMap,
    count: u64,
    dst: &mut [u8],
    origin: isize,
) -> Result<()> {
    check_span(map, count, dst.len(), origin)?;
    let total = pack_external_size(map, count)?;
    if *position as u128 + total as u128 > input.len() as u128 {
        return Err(Error::Truncated {
            length: total as u64,
            capacity: input.len().saturating_sub(*position) as u64,
        });
    }
    let mut pos = *position;
    for item in 0..count {
        for run in &map.flat().runs {
            let (size, ext) = (run.kind.size() as usize, run.kind.external_size() as usize);
            let mut d = at(origin, item, map.extent(), run.disp);
            for _ in 0..run.count {
                run.kind
                    .read_external(&input[pos..pos + ext], &mut dst[d..d + size]);
                d += size;
                pos += ext;
            }
        }
    }
    *position = pos;
    Ok(())
}

/// MPI_Get_count: whole items in `bytes` received bytes; None (MPI_UNDEFINED) if not whole.
pub fn get_count(map: &TypeMap, bytes: u64) -> Option<u64> {
    if map.size == 0 {
        return Some(0);
    }
    (bytes % map.size == 0).then_some(bytes / map.size)
}

/// MPI_Get_elements: basic elements in `bytes` received bytes; None (MPI_UNDEFINED) if the
/// bytes end inside an element.
pub fn get_elements(map: &TypeMap, bytes: u64) -> Option<u64> {
    if map.size == 0 {
        return (bytes == 0).then_some(0);
    }
    let whole = bytes / map.size;
    let mut left = bytes % map.size;
    let mut elements = whole * map.elements();
    for (kind, n) in map.signature() {
        if left == 0 {
            break;
        }
        let size = kind.size();
        let take = (left / size).min(n);
        elements += take;
        left -= take * size;
        if take < n {
            break;
        }
    }
    (left == 0).then_some(elements)
}

/// MPI_Status_set_elements: the bytes that hold the first `elements` basic elements of
/// items of `map` (whole items, then the leading elements of one more), so that
/// [`get_elements`] gives `elements` back. None if a type without elements is asked for some.
pub fn elements_bytes(map: &TypeMap, elements: u64) -> Option<u64> {
    let per_item = map.elements();
    if per_item == 0 {
        return (elements == 0).then_some(0);
    }
    let mut bytes = (elements / per_item).checked_mul(map.size)?;
    let mut left = elements % per_item;
    for (kind, n) in map.signature() {
        if left == 0 {
            break;
        }
        let take = left.min(n);
        bytes = bytes.checked_add(take * kind.size())?;
        left -= take;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests;
