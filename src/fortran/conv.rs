//! What the generated Fortran routines use to call the C bodies: every Fortran routine of a
//! function of bindings/functions.txt (not marked `fortran=hand`) reads its by-reference
//! arguments into the C API's types, calls the same body `crate::capi::<chapter>::<name>` the
//! C entry point calls, and writes what the body wrote back into the Fortran arguments (see
//! `bindings/generate_c.rs`, `fortran_entry_points`).
//!
//! - INTEGER to `int`: a value that does not fit (8-byte INTEGERs) is passed as `INT_MIN`,
//!   which no count, rank, tag, colour or code accepts, so the body refuses it with the
//!   argument's own error class.
//! - Handles: Fortran integers to C handles and back ([`FortranHandle`]); the null handles
//!   have the same value in both.
//! - Outputs are written back only if the body changed them, so a failed call leaves them
//!   as they were, as in C.
//! - The special variables (`MPI_BOTTOM`, `MPI_IN_PLACE`, `MPI_STATUS_IGNORE`, ...) are
//!   storage this library defines ([`SpecialVariable`]), the COMMON blocks of mpif.h and
//!   `use mpi` and the BIND(C) variables of `use mpi_f08`; their addresses stand for the C
//!   constants.
//! - Choice buffers: an address (mpif.h, `use mpi`), or a C descriptor (`use mpi_f08`'s
//!   `TYPE(*), DIMENSION(..)`): a non-contiguous array section is gathered into a contiguous
//!   copy for the call and scattered back after it, except for a buffer a nonblocking call
//!   writes later, which is refused with MPI_ERR_BUFFER.

// `Fint` is `i32` or `i64` by configuration: a conversion that is needed in one is an
// identity in the other.
#![allow(clippy::useless_conversion)]

use std::cell::UnsafeCell;
use std::ffi::{c_int, c_void};
use std::fmt::Write as _;

use super::{fill, trim_blanks, Status};
use crate::abi::{self, MPI_Status};
use crate::engine::{Error, Fint, Result};
use crate::ffi::handles::{self, CHandle};
use crate::ffi::Arg;

// ---- special variables ------------------------------------------------------------------

/// Storage a Fortran program names through mpif.h, `use mpi` or `use mpi_f08`: only its
/// address means something. Writable, since a program may pass it where a routine writes.
#[repr(transparent)]
pub struct SpecialVariable<T>(UnsafeCell<T>);

// SAFETY: the library never reads or writes the contents; only addresses are compared.
unsafe impl<T> Sync for SpecialVariable<T> {}

impl<T> SpecialVariable<T> {
    /// Its address.
    fn address(&'static self) -> usize {
        self.0.get() as usize
    }
}

const STATUS_SIZE: usize = abi::MPI_F_STATUS_SIZE as usize;

/// A COMMON block of 16 characters, aligned as gfortran aligns it (16 bytes), so that the
/// linker sees the program's block and the library's agree.
#[repr(C, align(16))]
pub struct Characters16([u8; 16]);

macro_rules! special_variables {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $init:expr;)*) => {$(
        $(#[$doc])*
        #[no_mangle]
        pub static $name: SpecialVariable<$ty> = SpecialVariable(UnsafeCell::new($init));
    )*};
}

// The symbols of the COMMON blocks of mpif.h and `use mpi` (gfortran names /NAME/ `name_`)
// and of the BIND(C) variables of `use mpi_f08`. Sizes as the Fortran declarations.
special_variables! {
    /// `COMMON /MPIATTR_BOTTOM/ MPI_BOTTOM` (mpif.h, `use mpi`).
    mpiattr_bottom_: Fint = 0;
    /// `COMMON /MPIATTR_IN_PLACE/ MPI_IN_PLACE`.
    mpiattr_in_place_: Fint = 0;
    /// `COMMON /MPIATTR_BUFFER_AUTOMATIC/ MPI_BUFFER_AUTOMATIC`.
    mpiattr_buffer_automatic_: Fint = 0;
    /// `COMMON /MPIATTR_STATUS_IGNORE/ MPI_STATUS_IGNORE(MPI_STATUS_SIZE)`.
    mpiattr_status_ignore_: Status = [0; STATUS_SIZE];
    /// `COMMON /MPIATTR_STATUSES_IGNORE/ MPI_STATUSES_IGNORE(MPI_STATUS_SIZE, 1)`.
    mpiattr_statuses_ignore_: Status = [0; STATUS_SIZE];
    /// `COMMON /MPIATTR_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE(1)`.
    mpiattr_errcodes_ignore_: Fint = 0;
    /// `COMMON /MPIATTR_ARGV_NULL/ MPI_ARGV_NULL(1)` (CHARACTER(LEN=16)).
    mpiattr_argv_null_: Characters16 = Characters16([b' '; 16]);
    /// `COMMON /MPIATTR_ARGVS_NULL/ MPI_ARGVS_NULL(1, 1)` (CHARACTER(LEN=16)).
    mpiattr_argvs_null_: Characters16 = Characters16([b' '; 16]);
    /// `COMMON /MPIATTR_UNWEIGHTED/ MPI_UNWEIGHTED(1)`.
    mpiattr_unweighted_: Fint = 0;
    /// `COMMON /MPIATTR_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY(1)`.
    mpiattr_weights_empty_: Fint = 0;
    /// `use mpi_f08`'s `MPI_BOTTOM` (BIND(C)).
    mpiattr_f08_bottom: Fint = 0;
    /// `use mpi_f08`'s `MPI_IN_PLACE`.
    mpiattr_f08_in_place: Fint = 0;
    /// `use mpi_f08`'s `MPI_BUFFER_AUTOMATIC`.
    mpiattr_f08_buffer_automatic: Fint = 0;
    /// `use mpi_f08`'s `MPI_STATUS_IGNORE` (TYPE(MPI_Status)).
    mpiattr_f08_status_ignore: Status = [0; STATUS_SIZE];
    /// `use mpi_f08`'s `MPI_STATUSES_IGNORE(1)`.
    mpiattr_f08_statuses_ignore: Status = [0; STATUS_SIZE];
    /// `use mpi_f08`'s `MPI_ERRCODES_IGNORE(1)`.
    mpiattr_f08_errcodes_ignore: Fint = 0;
    /// `use mpi_f08`'s `MPI_ARGV_NULL(1)`.
    mpiattr_f08_argv_null: [u8; 1] = [b' '];
    /// `use mpi_f08`'s `MPI_ARGVS_NULL(1, 1)`.
    mpiattr_f08_argvs_null: [u8; 1] = [b' '];
    /// `use mpi_f08`'s `MPI_UNWEIGHTED(1)`.
    mpiattr_f08_unweighted: Fint = 0;
    /// `use mpi_f08`'s `MPI_WEIGHTS_EMPTY(1)`.
    mpiattr_f08_weights_empty: Fint = 0;
}

/// Whether `address` is one of two special variables (the mpif.h one, the mpi_f08 one).
fn is<T, U>(
    address: usize,
    old: &'static SpecialVariable<T>,
    f08: &'static SpecialVariable<U>,
) -> bool {
    address != 0 && (address == old.address() || address == f08.address())
}

/// A choice buffer's address as C sees it: `MPI_BOTTOM` is NULL, `MPI_IN_PLACE` and
/// `MPI_BUFFER_AUTOMATIC` are C's.
pub(crate) fn buffer_address(address: usize) -> *mut c_void {
    if is(address, &mpiattr_bottom_, &mpiattr_f08_bottom) {
        std::ptr::null_mut()
    } else if is(address, &mpiattr_in_place_, &mpiattr_f08_in_place) {
        abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize as *mut c_void
    } else if is(
        address,
        &mpiattr_buffer_automatic_,
        &mpiattr_f08_buffer_automatic,
    ) {
        abi::MPIATTR_HANDLE_MPI_BUFFER_AUTOMATIC as usize as *mut c_void
    } else {
        address as *mut c_void
    }
}

fn status_ignored(address: usize) -> bool {
    address == 0
        || is(address, &mpiattr_status_ignore_, &mpiattr_f08_status_ignore)
        || is(
            address,
            &mpiattr_statuses_ignore_,
            &mpiattr_f08_statuses_ignore,
        )
}

/// The entries of a per-process array (a v or w collective's counts, displacements and
/// datatypes): one, as every communicator holds this one process.
pub(crate) const PROCESSES: c_int = 1;

// ---- scalars and handles ----------------------------------------------------------------

/// A Fortran INTEGER as a C `int`: `INT_MIN` if it does not fit (see the module's comment).
pub(crate) fn c_int_of(value: Fint) -> c_int {
    c_int::try_from(value).unwrap_or(c_int::MIN)
}

/// A handle type of the C API, as Fortran integers name its objects.
pub(crate) trait FortranHandle: Copy + PartialEq {
    /// The C handle a Fortran integer names; an invalid handle error for one that names
    /// nothing (the null handle converts to the null handle).
    fn from_fint(value: i64) -> Result<Self>;
    /// The Fortran integer of a C handle the library handed out.
    fn to_fint(self) -> Result<i64>;
    /// A value no call writes: an output handle still holding it was not written.
    fn unset() -> Self;
}

impl<H: CHandle + PartialEq> FortranHandle for H {
    fn from_fint(value: i64) -> Result<H> {
        if value == H::NULL as i64 {
            return Ok(handles::null());
        }
        handles::fortran_object::<H>(value).map(handles::encode_handle)
    }

    fn to_fint(self) -> Result<i64> {
        if self.to_raw() == H::NULL {
            return Ok(H::NULL as i64);
        }
        handles::decode(self).and_then(handles::fortran_value::<H>)
    }

    fn unset() -> H {
        H::from_raw(usize::MAX)
    }
}

/// Handle kinds whose objects are all predefined so far: the Fortran integer is the C
/// handle's value. A kind that gets objects of its own gets a [`CHandle`] (and then the
/// conversion above); its line here must go then.
macro_rules! same_value_handles {
    ($($t:ty),*) => {$(
        impl FortranHandle for $t {
            fn from_fint(value: i64) -> Result<$t> {
                Ok(usize::try_from(value).unwrap_or(usize::MAX) as $t)
            }
            fn to_fint(self) -> Result<i64> {
                i64::try_from(self as usize).map_err(|_| Error::Internal("a handle beyond Fortran INTEGERs"))
            }
            fn unset() -> $t {
                usize::MAX as $t
            }
        }
    )*};
}
same_value_handles!(abi::MPI_File);

/// Error handlers: a predefined one's Fortran integer is its C value; a user handler's holds
/// its table index (src/ffi/handles.rs, `errhandler_to_fortran`). An integer that names
/// nothing becomes a C handle that names nothing, for the C body to refuse.
impl FortranHandle for abi::MPI_Errhandler {
    fn from_fint(value: i64) -> Result<abi::MPI_Errhandler> {
        Ok(
            crate::ffi::handles::errhandler_from_fortran(value).unwrap_or(usize::MAX)
                as abi::MPI_Errhandler,
        )
    }
    fn to_fint(self) -> Result<i64> {
        Ok(crate::ffi::handles::errhandler_to_fortran(self as usize))
    }
    fn unset() -> abi::MPI_Errhandler {
        usize::MAX as abi::MPI_Errhandler
    }
}

/// How a value crosses between a Fortran argument (`F`) and the C body's (`C`).
pub(crate) trait Conv {
    type C: Copy + PartialEq;
    type F: Copy;
    /// An input, refusing what names nothing (handles).
    fn input(f: Self::F) -> Result<Self::C>;
    /// An input read leniently (a per-process array, whose entries the body may ignore):
    /// what names nothing becomes [`Conv::unset`].
    fn lenient(f: Self::F) -> Self::C;
    /// The starting value of an output: one no body writes, so that an output still holding
    /// it was not written (and the Fortran variable, perhaps never set, is neither read nor
    /// changed).
    fn unset() -> Self::C;
    fn output(c: Self::C) -> Result<Self::F>;
}

/// INTEGER and `int`.
pub(crate) struct Int;

impl Conv for Int {
    type C = c_int;
    type F = Fint;
    fn input(f: Fint) -> Result<c_int> {
        Ok(c_int_of(f))
    }
    fn lenient(f: Fint) -> c_int {
        c_int_of(f)
    }
    fn unset() -> c_int {
        // No count, rank, size, class or flag is INT_MIN (MPI_UNDEFINED is -32766).
        c_int::MIN
    }
    fn output(c: c_int) -> Result<Fint> {
        Ok(Fint::from(c))
    }
}

/// The in-out length of a string result (MPI_INFO_GET_STRING's BUFLEN,
/// MPI_SESSION_GET_NTH_PSET's PSET_LEN): MPI-4.1 counts the terminating NUL in C only. In
/// Fortran the length given is the number of characters the routine may store (0: none) and
/// the length returned is the number of characters of the whole value; the C body gets and
/// gives the same lengths plus one.
pub(crate) struct StringLength;

impl Conv for StringLength {
    type C = c_int;
    type F = Fint;
    fn input(f: Fint) -> Result<c_int> {
        // 0 stays 0 (nothing is stored); a negative length stays negative, for the body to
        // refuse.
        let c = c_int_of(f);
        Ok(if c > 0 { c.saturating_add(1) } else { c })
    }
    fn lenient(f: Fint) -> c_int {
        Self::input(f).unwrap_or(c_int::MIN)
    }
    fn unset() -> c_int {
        c_int::MIN
    }
    fn output(c: c_int) -> Result<Fint> {
        // Bodies return the length with the NUL, at least 1.
        Ok(Fint::from(c.saturating_sub(1).max(0)))
    }
}

/// The index of a request in an array (MPI_Waitany's `index`, MPI_Waitsome's
/// `array_of_indices`): C counts from 0, Fortran from 1; `MPI_UNDEFINED` stays itself. Only
/// ever an output: the starting value is one no call writes, so that every index written
/// is stored back.
pub(crate) struct RequestIndex;

impl Conv for RequestIndex {
    type C = c_int;
    type F = Fint;
    fn input(f: Fint) -> Result<c_int> {
        Ok(c_int_of(f).wrapping_sub(1))
    }
    fn lenient(f: Fint) -> c_int {
        c_int_of(f).wrapping_sub(1)
    }
    fn unset() -> c_int {
        c_int::MIN
    }
    fn output(c: c_int) -> Result<Fint> {
        Ok(Fint::from(if c == abi::MPI_UNDEFINED { c } else { c + 1 }))
    }
}

/// LOGICAL and `int` (any non-zero LOGICAL is true; .TRUE. is written as 1).
pub(crate) struct Logical;

impl Conv for Logical {
    type C = c_int;
    type F = Fint;
    fn input(f: Fint) -> Result<c_int> {
        Ok(c_int::from(f != 0))
    }
    fn lenient(f: Fint) -> c_int {
        c_int::from(f != 0)
    }
    fn unset() -> c_int {
        // Bodies write 0 or 1.
        c_int::MIN
    }
    fn output(c: c_int) -> Result<Fint> {
        Ok(super::logical(c != 0))
    }
}

/// INTEGER(KIND=MPI_ADDRESS_KIND), MPI_OFFSET_KIND, MPI_COUNT_KIND (8 bytes) and the C
/// integer `T` of the same width.
#[allow(dead_code)] // for the first generated routine with such an argument
pub(crate) struct Wide<T>(std::marker::PhantomData<T>);

macro_rules! wide {
    ($($t:ty),*) => {$(
        impl Conv for Wide<$t> {
            type C = $t;
            type F = i64;
            fn input(f: i64) -> Result<$t> {
                Ok(f as $t)
            }
            fn lenient(f: i64) -> $t {
                f as $t
            }
            fn unset() -> $t {
                // No address, extent, size or count a body writes is the most negative.
                <$t>::MIN
            }
            fn output(c: $t) -> Result<i64> {
                Ok(c as i64)
            }
        }
    )*};
}
wide!(isize, i64);

/// A handle: a Fortran integer and a C handle.
pub(crate) struct Handle<H>(std::marker::PhantomData<H>);

impl<H: FortranHandle> Conv for Handle<H> {
    type C = H;
    type F = Fint;
    fn input(f: Fint) -> Result<H> {
        H::from_fint(f.into())
    }
    fn lenient(f: Fint) -> H {
        H::from_fint(f.into()).unwrap_or_else(|_| H::unset())
    }
    fn unset() -> H {
        H::unset()
    }
    fn output(c: H) -> Result<Fint> {
        let value = c.to_fint()?;
        Fint::try_from(value).map_err(|_| {
            Error::Internal("more live objects of a kind than Fortran INTEGERs can name")
        })
    }
}

/// Reads an input argument.
///
/// # Safety
/// `pointer` is NULL or valid for reads.
pub(crate) unsafe fn input<K: Conv>(pointer: *const K::F, name: &'static str) -> Result<K::C> {
    if pointer.is_null() {
        return Err(Error::NullArgument(name));
    }
    // SAFETY: non-null and valid (the caller's contract).
    K::input(unsafe { pointer.read() })
}

/// An INTEGER(KIND=MPI_ADDRESS_KIND) argument of a function that reports no error
/// (MPI_AINT_ADD): its value as an `MPI_Aint`, 0 for an absent one.
///
/// # Safety
/// `pointer` is NULL or valid for reads.
pub(crate) unsafe fn address_in(pointer: *const i64) -> abi::MPI_Aint {
    if pointer.is_null() {
        0
    } else {
        // SAFETY: non-null and valid (the caller's contract).
        unsafe { pointer.read() as abi::MPI_Aint }
    }
}

/// Refuses a NULL output (what C's `Out` does before the body runs).
pub(crate) fn nonnull<T>(pointer: *const T, name: &'static str) -> Result<()> {
    if pointer.is_null() {
        Err(Error::NullArgument(name))
    } else {
        Ok(())
    }
}

/// An output or in-out argument: the C value the body writes, and where it goes back.
pub(crate) struct Slot<K: Conv> {
    fortran: *mut K::F,
    before: K::C,
    pub(crate) value: K::C,
}

impl<K: Conv> Slot<K> {
    /// An output: [`Conv::unset`] until the body writes it; `inout`: read as an input
    /// first, with its errors.
    ///
    /// # Safety
    /// `fortran` is NULL or valid for writes (and, for `inout`, reads) until
    /// [`Slot::store`].
    pub(crate) unsafe fn new(fortran: *mut K::F, inout: bool) -> Result<Slot<K>> {
        let value = if fortran.is_null() || !inout {
            K::unset()
        } else {
            // SAFETY: non-null and valid (the caller's contract).
            K::input(unsafe { fortran.read() })?
        };
        Ok(Slot {
            fortran,
            before: value,
            value,
        })
    }

    /// The C pointer a raw body argument gets: NULL if Fortran passed none.
    pub(crate) fn pointer(&mut self) -> *mut K::C {
        if self.fortran.is_null() {
            std::ptr::null_mut()
        } else {
            &mut self.value
        }
    }

    /// Writes the value back if the body changed it.
    ///
    /// # Safety
    /// As for [`Slot::new`].
    pub(crate) unsafe fn store(&self) -> Result<()> {
        if !self.fortran.is_null() && self.value != self.before {
            let f = K::output(self.value)?;
            // SAFETY: non-null and valid (the contract of `new`).
            unsafe { self.fortran.write(f) };
        }
        Ok(())
    }
}

/// How an array argument starts.
#[derive(Clone, Copy)]
pub(crate) enum Reading {
    /// An input or in-out array: every element must name something.
    Strict,
    /// A per-process input array: read, with what names nothing left for the body.
    Lenient,
    /// An output: not read.
    Output,
}

/// An array argument of `len` elements (a negative length reads none: the body refuses it).
pub(crate) struct ArraySlot<K: Conv> {
    fortran: *mut K::F,
    before: Vec<K::C>,
    pub(crate) values: Vec<K::C>,
}

impl<K: Conv> ArraySlot<K> {
    /// An array as `reading` says: inputs and in-out arrays are read, refusing elements
    /// that name nothing ([`Reading::Strict`]); outputs start [`Conv::unset`].
    ///
    /// # Safety
    /// `fortran` is NULL or valid for reads (unless [`Reading::Output`]) and, for outputs,
    /// writes of `len` elements until [`ArraySlot::store`].
    pub(crate) unsafe fn new(
        fortran: *mut K::F,
        len: impl Into<i64>,
        reading: Reading,
    ) -> Result<ArraySlot<K>> {
        // An `int` count, or an `MPI_Count` one (a large-count routine's).
        let len = usize::try_from(len.into()).unwrap_or(0);
        let mut values = Vec::with_capacity(len);
        if !fortran.is_null() {
            for i in 0..len {
                values.push(match reading {
                    Reading::Output => K::unset(),
                    // SAFETY: `len` elements (the caller's contract).
                    Reading::Strict => K::input(unsafe { fortran.add(i).read() })?,
                    // SAFETY: as above.
                    Reading::Lenient => K::lenient(unsafe { fortran.add(i).read() }),
                });
            }
        }
        Ok(ArraySlot {
            fortran,
            before: values.clone(),
            values,
        })
    }

    /// The C array: NULL if Fortran passed none.
    pub(crate) fn pointer(&mut self) -> *mut K::C {
        if self.fortran.is_null() {
            std::ptr::null_mut()
        } else {
            self.values.as_mut_ptr()
        }
    }

    /// Writes back the elements the body changed.
    ///
    /// # Safety
    /// As for [`ArraySlot::new`].
    pub(crate) unsafe fn store(&self) -> Result<()> {
        for (i, (value, before)) in self.values.iter().zip(&self.before).enumerate() {
            if value != before {
                let f = K::output(*value)?;
                // SAFETY: element `i` of the array (the contract of `new`).
                unsafe { self.fortran.add(i).write(f) };
            }
        }
        Ok(())
    }
}

// ---- statuses ---------------------------------------------------------------------------

/// A Fortran status as a C one.
pub(crate) fn status_from(f: &Status) -> MPI_Status {
    let int = |i: usize| f[i] as c_int;
    MPI_Status {
        MPI_SOURCE: int(abi::MPI_F_SOURCE as usize),
        MPI_TAG: int(abi::MPI_F_TAG as usize),
        MPI_ERROR: int(abi::MPI_F_ERROR as usize),
        MPI_internal: [int(3), int(4), int(5), int(6), int(7)],
    }
}

/// A C status as a Fortran one.
pub(crate) fn status_to(c: &MPI_Status) -> Status {
    let mut f: Status = [0; STATUS_SIZE];
    f[abi::MPI_F_SOURCE as usize] = Fint::from(c.MPI_SOURCE);
    f[abi::MPI_F_TAG as usize] = Fint::from(c.MPI_TAG);
    f[abi::MPI_F_ERROR as usize] = Fint::from(c.MPI_ERROR);
    for (i, value) in c.MPI_internal.iter().enumerate() {
        f[3 + i] = Fint::from(*value);
    }
    f
}

// The Fortran status is the C one field by field: the three public fields first, then the
// hidden ones, in both configurations.
const _: () = assert!(
    abi::MPI_F_SOURCE == 0 && abi::MPI_F_TAG == 1 && abi::MPI_F_ERROR == 2 && STATUS_SIZE == 8
);

/// What an output status holds until a body writes it: no body writes a status whose
/// public fields are all INT_MIN.
const UNSET_STATUS: MPI_Status = MPI_Status {
    MPI_SOURCE: c_int::MIN,
    MPI_TAG: c_int::MIN,
    MPI_ERROR: c_int::MIN,
    MPI_internal: [0; 5],
};

/// Whether two C statuses hold the same fields.
fn same_status(a: &MPI_Status, b: &MPI_Status) -> bool {
    (a.MPI_SOURCE, a.MPI_TAG, a.MPI_ERROR, a.MPI_internal)
        == (b.MPI_SOURCE, b.MPI_TAG, b.MPI_ERROR, b.MPI_internal)
}

/// A status argument, or statuses: `count` of them (one for a single status), or none for
/// `MPI_STATUS_IGNORE` and `MPI_STATUSES_IGNORE`.
pub(crate) struct StatusSlot {
    fortran: *mut Fint,
    values: Option<Vec<MPI_Status>>,
    /// What each status held before the body ran.
    before: Vec<MPI_Status>,
}

impl StatusSlot {
    /// Output statuses start [`UNSET_STATUS`] (the Fortran ones are not read); input and
    /// in-out ones (MPI_Get_count's, the setters') are `read`.
    ///
    /// # Safety
    /// `fortran` is NULL, a status-ignore variable, or valid for reads (if `read`) and, for
    /// outputs, writes of `count` Fortran statuses until [`StatusSlot::store`].
    pub(crate) unsafe fn new(fortran: *mut Fint, count: c_int, read: bool) -> StatusSlot {
        if status_ignored(fortran as usize) {
            return StatusSlot {
                fortran,
                values: None,
                before: Vec::new(),
            };
        }
        let count = usize::try_from(count).unwrap_or(0);
        let values: Vec<MPI_Status> = (0..count)
            .map(|i| {
                if read {
                    // SAFETY: `count` statuses (the caller's contract).
                    status_from(unsafe { &*fortran.add(i * STATUS_SIZE).cast::<Status>() })
                } else {
                    UNSET_STATUS
                }
            })
            .collect();
        StatusSlot {
            fortran,
            before: values.clone(),
            values: Some(values),
        }
    }

    /// The C status (array): NULL for an ignored one.
    pub(crate) fn pointer(&mut self) -> *mut MPI_Status {
        self.values
            .as_mut()
            .map_or(std::ptr::null_mut(), |v| v.as_mut_ptr())
    }

    /// Writes back the statuses the body wrote, field by field: `MPI_ERROR` only if the
    /// body set it (a single completion leaves it as it was, MPI-4.1 §3.2.5).
    ///
    /// # Safety
    /// As for [`StatusSlot::new`].
    pub(crate) unsafe fn store(&self) {
        for (i, (status, before)) in self.values.iter().flatten().zip(&self.before).enumerate() {
            if !same_status(status, before) {
                let after = status_to(status);
                for (field, value) in after.iter().enumerate() {
                    if field == abi::MPI_F_ERROR as usize && status.MPI_ERROR == before.MPI_ERROR {
                        continue;
                    }
                    // SAFETY: field `field` of status `i` (the contract of `new`).
                    unsafe { self.fortran.add(i * STATUS_SIZE + field).write(*value) };
                }
            }
        }
    }
}

// ---- strings ----------------------------------------------------------------------------

/// A CHARACTER(LEN=*) input as a C string: without its trailing blanks, NUL-terminated.
///
/// # Safety
/// `pointer` is NULL or valid for reads of `len` bytes.
pub(crate) unsafe fn string_in(
    pointer: *const u8,
    len: usize,
    name: &'static str,
) -> Result<Vec<u8>> {
    // SAFETY: the caller's contract.
    let bytes = unsafe { super::text(pointer, len, name) }?;
    let mut text = trim_blanks(bytes).to_vec();
    text.push(0);
    Ok(text)
}

#[allow(dead_code)] // for the first generated routine with a CHARACTER output
/// Room for any string a body writes: the longest the standard defines
/// (MPI_MAX_LIBRARY_VERSION_STRING), or the Fortran length if longer.
const STRING_ROOM: usize = abi::MPI_MAX_LIBRARY_VERSION_STRING as usize;

#[allow(dead_code)] // as STRING_ROOM
/// A CHARACTER(LEN=*) output: the C body writes a NUL-terminated string, which goes back
/// blank-padded (cut at the Fortran length).
/// The byte an output string's C buffer starts as ([`StringSlot::new`]).
const UNWRITTEN: u8 = 0xFF;

pub(crate) struct StringSlot {
    fortran: *mut u8,
    len: usize,
    buffer: Vec<u8>,
}

#[allow(dead_code)] // as STRING_ROOM
impl StringSlot {
    /// # Safety
    /// `fortran` is NULL or valid for writes of `len` bytes until [`StringSlot::store`].
    pub(crate) unsafe fn new(fortran: *mut u8, len: usize) -> StringSlot {
        // Marked unwritten: a C string never starts with 0xFF (no UTF-8 text does), so a
        // body that wrote nothing (MPI_Info_get of a missing key) leaves the variable alone.
        let mut buffer = vec![UNWRITTEN; len.max(STRING_ROOM) + 1];
        if let Some(last) = buffer.last_mut() {
            *last = 0;
        }
        StringSlot {
            fortran,
            len,
            buffer,
        }
    }

    pub(crate) fn pointer(&mut self) -> *mut std::ffi::c_char {
        if self.fortran.is_null() {
            std::ptr::null_mut()
        } else {
            self.buffer.as_mut_ptr().cast()
        }
    }

    /// Copies the string back if the body wrote one.
    ///
    /// # Safety
    /// As for [`StringSlot::new`].
    pub(crate) unsafe fn store(&self, written: bool) {
        if self.fortran.is_null() || !written || self.buffer.first() == Some(&UNWRITTEN) {
            return;
        }
        let end = self
            .buffer
            .iter()
            .position(|b| *b == 0)
            .unwrap_or(self.buffer.len());
        // SAFETY: `len` bytes (the contract of `new`).
        let target = unsafe { std::slice::from_raw_parts_mut(self.fortran, self.len) };
        fill(target, &self.buffer[..end]);
    }
}

// ---- detached buffers -------------------------------------------------------------------

/// The `buffer_addr` argument of MPI_BUFFER_DETACH, MPI_COMM_DETACH_BUFFER and
/// MPI_SESSION_DETACH_BUFFER as the Fortran routine got it.
#[derive(Clone, Copy)]
pub(crate) enum BufferAddr {
    /// mpif.h and `use mpi`: `<type> BUFFER_ADDR(*)`, "wrongly defined and therefore unused"
    /// (MPI-4.1 §3.6.1): nothing is written there, whatever the program passed.
    Unused,
    /// `use mpi_f08`: the address of a TYPE(C_PTR), which gets the buffer's address.
    CPtr(*mut c_void),
}

impl BufferAddr {
    /// The mpif.h and `use mpi` form (the argument's address is not needed).
    pub(crate) fn unused(_: *mut c_void) -> BufferAddr {
        BufferAddr::Unused
    }
}

/// Where the C body writes the detached address (a `void *` of this slot); [`store`]
/// (`BufferAddrSlot::store`) hands it on to a TYPE(C_PTR), `MPI_BUFFER_AUTOMATIC` as the
/// address of `use mpi_f08`'s `MPI_BUFFER_AUTOMATIC` (what `C_LOC(MPI_BUFFER_AUTOMATIC)`
/// gives the program).
pub(crate) struct BufferAddrSlot {
    target: BufferAddr,
    value: *mut c_void,
}

impl BufferAddrSlot {
    pub(crate) fn new(target: BufferAddr) -> BufferAddrSlot {
        BufferAddrSlot {
            target,
            value: std::ptr::null_mut(),
        }
    }

    /// What the body gets: this slot's `void *`, or NULL for a NULL TYPE(C_PTR) reference
    /// (which the body refuses, as C's NULL).
    pub(crate) fn pointer(&mut self) -> *mut c_void {
        match self.target {
            BufferAddr::CPtr(pointer) if pointer.is_null() => std::ptr::null_mut(),
            _ => (&mut self.value as *mut *mut c_void).cast(),
        }
    }

    /// Writes the address to the TYPE(C_PTR) if the body succeeded.
    ///
    /// # Safety
    /// A `CPtr` target is NULL or valid for writing a pointer.
    pub(crate) unsafe fn store(&self, written: bool) {
        let BufferAddr::CPtr(pointer) = self.target else {
            return;
        };
        if pointer.is_null() || !written {
            return;
        }
        let address = if self.value as usize == abi::MPIATTR_HANDLE_MPI_BUFFER_AUTOMATIC as usize {
            mpiattr_f08_buffer_automatic.address() as *mut c_void
        } else {
            self.value
        };
        // SAFETY: non-null, valid for a pointer (the caller's contract).
        unsafe { pointer.cast::<*mut c_void>().write_unaligned(address) };
    }
}

// ---- choice buffers ---------------------------------------------------------------------

/// One dimension of a C descriptor (ISO_Fortran_binding.h's `CFI_dim_t`).
#[repr(C)]
pub struct CfiDim {
    lower_bound: isize,
    extent: isize,
    sm: isize,
}

/// The C descriptor gfortran passes for a `TYPE(*), DIMENSION(..)` dummy of a BIND(C)
/// interface (ISO_Fortran_binding.h's `CFI_cdesc_t`).
#[repr(C)]
pub struct CfiDesc {
    base_addr: *mut c_void,
    elem_len: usize,
    version: c_int,
    rank: i8,
    attribute: i8,
    type_: i16,
    dim: [CfiDim; 0],
}

/// The characters of a CHARACTER(LEN=*) argument a BIND(C) interface passed as a C
/// descriptor (NULL for none).
///
/// # Safety
/// `desc` is NULL or a valid descriptor.
pub(crate) unsafe fn text_address(desc: *const CfiDesc) -> *mut u8 {
    // SAFETY: NULL or valid (the caller's contract).
    unsafe { desc.as_ref() }.map_or(std::ptr::null_mut(), |d| d.base_addr.cast())
}

/// The length of such a string: its element length.
///
/// # Safety
/// As for [`text_address`].
pub(crate) unsafe fn text_length(desc: *const CfiDesc) -> usize {
    // SAFETY: NULL or valid (the caller's contract).
    unsafe { desc.as_ref() }.map_or(0, |d| d.elem_len)
}

/// A choice argument as the Fortran routine got it.
#[derive(Clone, Copy)]
pub(crate) enum Choice {
    /// mpif.h and `use mpi`: the address of the first element (gfortran copies a
    /// non-contiguous section into a temporary for the call).
    Address(*mut c_void),
    /// `use mpi_f08`: a C descriptor.
    Descriptor(*const CfiDesc),
}

impl Arg for Choice {
    fn describe(&self, line: &mut String) {
        let address = match *self {
            Choice::Address(a) => a as usize,
            Choice::Descriptor(d) if d.is_null() => 0,
            // SAFETY: a descriptor argument of the routine being reported (valid).
            Choice::Descriptor(d) => unsafe { (*d).base_addr as usize },
        };
        let _ = write!(line, "{address:#x}");
    }
}

/// The address, element size and each dimension's (extent, byte stride) of a descriptor.
struct Layout {
    base: usize,
    elem_len: usize,
    dims: Vec<(isize, isize)>,
}

impl Layout {
    /// Whether the elements lie one after the other.
    fn contiguous(&self) -> bool {
        let mut expected = self.elem_len as isize;
        for &(extent, sm) in &self.dims {
            if extent > 1 && sm != expected {
                return false;
            }
            expected = expected.saturating_mul(extent.max(0));
        }
        true
    }

    /// Every element's address, first dimension fastest (each later dimension repeats the
    /// addresses so far at its strides).
    fn elements(&self) -> Vec<usize> {
        let mut addresses = vec![self.base];
        for &(extent, sm) in &self.dims {
            let extent = extent.max(0);
            let mut next = Vec::with_capacity(addresses.len() * extent as usize);
            for i in 0..extent {
                next.extend(addresses.iter().map(|a| a.wrapping_add_signed(i * sm)));
            }
            addresses = next;
        }
        addresses
    }
}

/// A choice buffer prepared for the C body: its address, or a contiguous copy.
pub(crate) struct Staged {
    address: *mut c_void,
    /// A gathered copy and the elements' addresses, for a non-contiguous section.
    copy: Option<(Vec<u8>, Vec<usize>, usize)>,
}

impl Staged {
    /// Prepares a choice argument. `writes`: the body writes it; `later`: a nonblocking
    /// call writes it after returning (a non-contiguous section is then refused).
    ///
    /// # Safety
    /// The choice is a valid address or descriptor of the program's buffer.
    pub(crate) unsafe fn new(choice: Choice, writes: bool, later: bool) -> Result<Staged> {
        let descriptor = match choice {
            Choice::Address(address) => {
                return Ok(Staged {
                    address: buffer_address(address as usize),
                    copy: None,
                })
            }
            Choice::Descriptor(d) if d.is_null() => {
                return Ok(Staged {
                    address: std::ptr::null_mut(),
                    copy: None,
                })
            }
            Choice::Descriptor(d) => d,
        };
        // SAFETY: a valid descriptor (the caller's contract) with `rank` dimensions.
        let layout = unsafe {
            let d = &*descriptor;
            let rank = usize::try_from(d.rank).unwrap_or(0);
            let dims = std::ptr::addr_of!(d.dim).cast::<CfiDim>();
            Layout {
                base: d.base_addr as usize,
                elem_len: d.elem_len,
                dims: (0..rank)
                    .map(|i| {
                        let dim = &*dims.add(i);
                        (dim.extent, dim.sm)
                    })
                    .collect(),
            }
        };
        if layout.contiguous() || layout.dims.iter().any(|&(extent, _)| extent < 0) {
            return Ok(Staged {
                address: buffer_address(layout.base),
                copy: None,
            });
        }
        if writes && later {
            return Err(Error::InvalidBuffer(
                "a non-contiguous array section that a nonblocking call writes later",
            ));
        }
        let elements = layout.elements();
        let mut copy = vec![0u8; elements.len() * layout.elem_len];
        for (chunk, &address) in copy.chunks_mut(layout.elem_len.max(1)).zip(&elements) {
            // SAFETY: each element of the program's array section (the caller's contract).
            unsafe {
                std::ptr::copy_nonoverlapping(address as *const u8, chunk.as_mut_ptr(), chunk.len())
            };
        }
        let mut staged = Staged {
            address: std::ptr::null_mut(),
            copy: Some((copy, elements, layout.elem_len)),
        };
        if let Some((copy, _, _)) = staged.copy.as_mut() {
            staged.address = copy.as_mut_ptr().cast();
        }
        Ok(staged)
    }

    /// The address the C body gets.
    pub(crate) fn address(&self) -> *mut c_void {
        self.address
    }

    /// Scatters a copy the body wrote back into the section.
    ///
    /// # Safety
    /// As for [`Staged::new`].
    pub(crate) unsafe fn store(&self) {
        if let Some((copy, elements, elem_len)) = &self.copy {
            for (chunk, &address) in copy.chunks(*elem_len.max(&1)).zip(elements) {
                // SAFETY: each element of the program's array section.
                unsafe {
                    std::ptr::copy_nonoverlapping(chunk.as_ptr(), address as *mut u8, chunk.len())
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_contiguous_only_when_their_strides_say_so() {
        // A 4x5 matrix of doubles: a whole column, a row, a 2x3 block.
        let column = Layout {
            base: 1000,
            elem_len: 8,
            dims: vec![(4, 8)],
        };
        assert!(column.contiguous());
        let row = Layout {
            base: 1000,
            elem_len: 8,
            dims: vec![(5, 32)],
        };
        assert!(!row.contiguous());
        assert_eq!(row.elements(), vec![1000, 1032, 1064, 1096, 1128]);
        let block = Layout {
            base: 1008,
            elem_len: 8,
            dims: vec![(2, 8), (3, 32)],
        };
        assert!(!block.contiguous());
        // First dimension fastest: (2,2) (3,2) (2,3) (3,3) (2,4) (3,4).
        assert_eq!(block.elements(), vec![1008, 1016, 1040, 1048, 1072, 1080]);
        let whole = Layout {
            base: 1000,
            elem_len: 8,
            dims: vec![(4, 8), (5, 32)],
        };
        assert!(whole.contiguous());
        // One element along a strided dimension is contiguous; an empty section too.
        let single = Layout {
            base: 1000,
            elem_len: 8,
            dims: vec![(1, 32), (0, 8)],
        };
        assert!(single.contiguous());
        assert!(single.elements().is_empty());
    }

    #[test]
    fn a_non_contiguous_section_is_gathered_and_scattered() {
        let mut matrix: Vec<f64> = (0..20).map(f64::from).collect();
        let base = matrix.as_mut_ptr();
        // The second row of a 4x5 matrix: elements 1, 5, 9, 13, 17.
        /// A rank-1 descriptor: the header and its one dimension, as C lays them out.
        #[repr(C)]
        struct Rank1 {
            header: CfiDesc,
            dim: [CfiDim; 1],
        }
        let mut descriptor = Rank1 {
            header: CfiDesc {
                base_addr: base.wrapping_add(1).cast(),
                elem_len: 8,
                version: 1,
                rank: 1,
                attribute: 0,
                type_: 0,
                dim: [],
            },
            dim: [CfiDim {
                lower_bound: 0,
                extent: 5,
                sm: 32,
            }],
        };
        let d = std::ptr::addr_of_mut!(descriptor.header);
        // SAFETY: a descriptor of a live section, its dimension right after the header.
        let staged = unsafe { Staged::new(Choice::Descriptor(d), true, false) }.unwrap();
        let copy = staged.address().cast::<f64>();
        // SAFETY: the gathered copy holds the five elements.
        unsafe {
            assert_eq!(
                std::slice::from_raw_parts(copy, 5),
                &[1.0, 5.0, 9.0, 13.0, 17.0]
            );
            for i in 0..5 {
                *copy.add(i) = -(i as f64);
            }
            staged.store();
        }
        assert_eq!(&matrix[..6], &[0.0, -0.0, 2.0, 3.0, 4.0, -1.0]);
        assert_eq!(matrix[17], -4.0);
        // A nonblocking call that writes it later is refused.
        // SAFETY: as above.
        let refused = unsafe { Staged::new(Choice::Descriptor(d), true, true) };
        assert!(matches!(refused, Err(Error::InvalidBuffer(_))));
    }

    #[test]
    fn statuses_cross_field_by_field_and_integers_saturate() {
        let c = MPI_Status {
            MPI_SOURCE: 0,
            MPI_TAG: 7,
            MPI_ERROR: 15,
            MPI_internal: [40, 0, 1, -3, 9],
        };
        let f = status_to(&c);
        assert_eq!(f, [0, 7, 15, 40, 0, 1, -3, 9]);
        let back = status_from(&f);
        assert_eq!(
            (
                back.MPI_SOURCE,
                back.MPI_TAG,
                back.MPI_ERROR,
                back.MPI_internal
            ),
            (0, 7, 15, [40, 0, 1, -3, 9])
        );
        assert_eq!(c_int_of(-2), -2);
        assert_eq!(
            c_int_of(Fint::MAX),
            if Fint::BITS > 32 {
                c_int::MIN
            } else {
                c_int::MAX
            }
        );
    }

    #[test]
    fn strings_and_wide_integers_cross() {
        let mut fortran = [b'x'; 6];
        // SAFETY: six writable bytes, alive until `store`.
        let mut slot = unsafe { StringSlot::new(fortran.as_mut_ptr(), fortran.len()) };
        let c = slot.pointer().cast::<u8>();
        // SAFETY: the slot's buffer holds at least STRING_ROOM + 1 bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(c"abc".as_ptr().cast::<u8>(), c, 4);
            slot.store(false);
        }
        assert_eq!(&fortran, b"xxxxxx", "a failed call writes no string");
        // SAFETY: as above.
        unsafe { slot.store(true) };
        assert_eq!(&fortran, b"abc   ");
        let mut text = *b"name  ";
        // SAFETY: six readable bytes.
        let c_string = unsafe { string_in(text.as_mut_ptr(), 6, "name") }.unwrap();
        assert_eq!(c_string, b"name\0");
        let big: i64 = (1 << 40) + 5;
        assert_eq!(Wide::<isize>::input(big).unwrap(), big as isize);
        assert_eq!(Wide::<i64>::output(-big).unwrap(), -big);
    }

    #[test]
    fn special_addresses_stand_for_the_c_constants() {
        assert!(buffer_address(mpiattr_bottom_.address()).is_null());
        assert!(buffer_address(mpiattr_f08_bottom.address()).is_null());
        assert_eq!(
            buffer_address(mpiattr_in_place_.address()) as usize,
            abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize
        );
        assert_eq!(
            buffer_address(mpiattr_f08_in_place.address()) as usize,
            abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize
        );
        for automatic in [
            mpiattr_buffer_automatic_.address(),
            mpiattr_f08_buffer_automatic.address(),
        ] {
            assert_eq!(
                buffer_address(automatic) as usize,
                abi::MPIATTR_HANDLE_MPI_BUFFER_AUTOMATIC as usize
            );
        }
        assert_eq!(buffer_address(0x1234) as usize, 0x1234);
        assert!(status_ignored(mpiattr_status_ignore_.address()));
        assert!(status_ignored(mpiattr_f08_statuses_ignore.address()));
        assert!(!status_ignored(mpiattr_bottom_.address()));
    }
}
