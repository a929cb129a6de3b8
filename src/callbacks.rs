//! The calls of a program's C and Fortran copy and delete callbacks (attributes.md §4), for
//! every front end: the single-process shells (src/capi, src/fortran) and the layer over a
//! real MPI (src/layer). A callback gets the handle of the object, the keyval, its extra
//! state and the value, and its return code (C) or IERROR (Fortran) becomes the engine's
//! result. What differs between the front ends is a [`FrontEnd`]: the object's handle as
//! each language sees it, what is done around the call, and the MPI's success code.
//!
//! The callbacks are called with the "C-unwind" ABI: an exception thrown through one (by C++
//! code the callback calls) is then an unwind Rust can see, and stop, instead of undefined
//! behaviour.

use std::ffi::{c_int, c_void};
use std::marker::PhantomData;
use std::sync::atomic::AtomicIsize;
use std::sync::Arc;

use crate::engine::{AnyObject, CopyCallback, DeleteCallback, Keyval, Universe, Word};

/// A user callback being called: what a front end's wrapper around the call names if the
/// callback never returns.
#[derive(Clone, Copy)]
pub(crate) struct Call {
    /// "copy" or "delete".
    pub(crate) what: &'static str,
    /// The callback's address.
    pub(crate) function: usize,
    pub(crate) keyval: Keyval,
    pub(crate) object: AnyObject,
    /// A Fortran callback: it saw the object's Fortran handle.
    pub(crate) fortran: bool,
}

/// What a front end gives the calls of its programs' callbacks.
pub(crate) trait FrontEnd: 'static {
    /// The C handle of the objects: exactly the MPI's C type (an `int` in MPICH, a pointer in
    /// Open MPI, the standard ABI and the single-process library), a C callback's first
    /// argument.
    type Handle: Copy;
    /// The MPI's Fortran INTEGER (also its LOGICAL).
    type Fint: Width + From<c_int> + TryInto<c_int> + PartialEq;
    /// `MPI_SUCCESS`.
    fn success() -> c_int;
    /// The handle a C callback gets for `object`, or the code the call fails with.
    fn c_handle(object: AnyObject) -> Result<Self::Handle, i32>;
    /// The handle a Fortran callback gets for `object`, or the code the call fails with.
    fn fortran_handle(object: AnyObject) -> Result<Self::Fint, i32>;
    /// Runs `body`, the call of the user callback `call` describes.
    fn around<R>(call: Call, body: impl FnOnce() -> R) -> R;
}

/// The attribute word of a Fortran convention: a default INTEGER (MPI-1's
/// `MPI_KEYVAL_CREATE`, `MPI_ATTR_PUT`) or an address-sized one
/// (`INTEGER(KIND=MPI_ADDRESS_KIND)`, `MPI_*_CREATE_KEYVAL`, `MPI_*_SET_ATTR`). Which values a
/// callback is shown and how a copy's result is stored is the engine's business: it knows the
/// keyval's `Language`.
pub(crate) trait Width: Copy + Default + Send + Sync + 'static {
    /// The word as this width (the engine shows it already in the keyval's view).
    fn from_word(word: Word) -> Self;
    /// This width as a word, sign-extended.
    fn into_word(self) -> Word;
}

macro_rules! width {
    ($($integer:ty),*) => {$(
        impl Width for $integer {
            fn from_word(word: Word) -> $integer {
                word as $integer
            }
            fn into_word(self) -> Word {
                self as Word
            }
        }
    )*};
}

// Default INTEGERs of 4 and 8 bytes, and the address-sized word.
width!(i32, i64, Word);

/// IERROR as a C error code: a value that does not fit is no valid code either.
pub(crate) fn error_code<I: TryInto<c_int>>(ierror: I) -> c_int {
    ierror.try_into().unwrap_or(c_int::MAX)
}

/// A copy callback's result: the copy's value if it makes one, or the code the copy fails with.
type Copied = Result<Option<Word>, i32>;

/// A callback's result: done, or the code it fails with.
type Done = Result<(), i32>;

/// A program's callback: its function (of one of the types below) and the extra state it was
/// created with, called through the front end `F`.
pub(crate) struct Callback<F, P, S> {
    function: P,
    extra_state: S,
    front_end: PhantomData<fn() -> F>,
}

impl<F, P, S> Callback<F, P, S> {
    pub(crate) fn new(function: P, extra_state: S) -> Callback<F, P, S> {
        Callback {
            function,
            extra_state,
            front_end: PhantomData,
        }
    }
}

/// A C copy callback: `(handle, keyval, extra_state, attribute_val_in, attribute_val_out,
/// flag)`.
pub(crate) type CCopyFn<H> = unsafe extern "C-unwind" fn(
    H,
    c_int,
    *mut c_void,
    *mut c_void,
    *mut c_void,
    *mut c_int,
) -> c_int;

/// A C delete callback: `(handle, keyval, attribute_val, extra_state)`.
pub(crate) type CDeleteFn<H> =
    unsafe extern "C-unwind" fn(H, c_int, *mut c_void, *mut c_void) -> c_int;

/// A C copy callback with its `extra_state` (the `void *` as an address).
pub(crate) type CCopy<F> = Callback<F, CCopyFn<<F as FrontEnd>::Handle>, usize>;

/// A C delete callback with its `extra_state`.
pub(crate) type CDelete<F> = Callback<F, CDeleteFn<<F as FrontEnd>::Handle>, usize>;

/// Calls a C callback, `body`, with the object's handle; its code as the result.
fn call_c<F: FrontEnd>(
    what: &'static str,
    function: usize,
    keyval: Keyval,
    object: AnyObject,
    body: impl FnOnce(F::Handle) -> c_int,
) -> Done {
    let handle = F::c_handle(object)?;
    let call = Call {
        what,
        function,
        keyval,
        object,
        fortran: false,
    };
    let code = F::around(call, || body(handle));
    if code != F::success() {
        return Err(code);
    }
    Ok(())
}

impl<F: FrontEnd> CopyCallback for CCopy<F> {
    fn copy(&self, _: &Universe, object: AnyObject, keyval: Keyval, value: Word) -> Copied {
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        call_c::<F>("copy", self.function as usize, keyval, object, |handle| {
            // SAFETY: the user's callback, called with the arguments the standard gives it;
            // the out-pointers point at locals that outlive the call.
            unsafe {
                (self.function)(
                    handle,
                    keyval.0,
                    self.extra_state as *mut c_void,
                    value as *mut c_void,
                    (&mut out as *mut *mut c_void).cast(),
                    &mut flag,
                )
            }
        })?;
        Ok((flag != 0).then_some(out as Word))
    }
}

impl<F: FrontEnd> DeleteCallback for CDelete<F> {
    fn delete(&self, _: &Universe, object: AnyObject, keyval: Keyval, value: Word) -> Done {
        call_c::<F>("delete", self.function as usize, keyval, object, |handle| {
            // SAFETY: the user's callback, called with the arguments the standard gives it.
            unsafe {
                (self.function)(
                    handle,
                    keyval.0,
                    value as *mut c_void,
                    self.extra_state as *mut c_void,
                )
            }
        })
    }
}

/// A Fortran procedure as a create call gets it, by reference: what the callback types below
/// are made from.
pub(crate) type Procedure = unsafe extern "C" fn();

/// A Fortran copy callback (`I` the Fortran INTEGER, `T` the width of the values): every
/// argument by reference, the object's Fortran handle, a LOGICAL flag and IERROR.
pub(crate) type FortranCopyFn<I, T> = unsafe extern "C-unwind" fn(
    oldobject: *mut I,
    keyval: *mut I,
    extra_state: *mut T,
    attribute_val_in: *mut T,
    attribute_val_out: *mut T,
    flag: *mut I,
    ierror: *mut I,
);

/// A Fortran delete callback (see [`FortranCopyFn`]).
pub(crate) type FortranDeleteFn<I, T> = unsafe extern "C-unwind" fn(
    object: *mut I,
    keyval: *mut I,
    attribute_val: *mut T,
    extra_state: *mut T,
    ierror: *mut I,
);

/// The library's copy of a keyval's extra state, which both of its Fortran callbacks get a
/// reference to: what one callback stores there, the next one sees. An address-sized cell; a
/// default INTEGER callback's is its low-order part (the crate is little-endian only).
pub(crate) type ExtraState = Arc<AtomicIsize>;

/// A Fortran copy callback of values of width `T`, with the keyval's extra state cell.
pub(crate) type FortranCopy<F, T> =
    Callback<F, FortranCopyFn<<F as FrontEnd>::Fint, T>, ExtraState>;

/// A Fortran delete callback of values of width `T`, with the keyval's extra state cell.
pub(crate) type FortranDelete<F, T> =
    Callback<F, FortranDeleteFn<<F as FrontEnd>::Fint, T>, ExtraState>;

/// An attribute value as a Fortran callback gets it: `value` as width `T` (the engine shows it
/// already in the keyval's view), sign-extended into an address-sized cell. A default INTEGER
/// callback uses the cell's low-order part (the crate is little-endian only), as it does the
/// extra state's; one that takes INTEGER(KIND=MPI_ADDRESS_KIND) values anyway (Open MPI's
/// `use mpi_f08` `MPI_COMM_DUP_FN` given to `MPI_KEYVAL_CREATE`, which the layer does not
/// recognise) still reads and writes inside the cell, and sees the same value.
fn cell<T: Width>(value: Word) -> Word {
    T::from_word(value).into_word()
}

/// Calls a Fortran callback, `body`, with references to the object's Fortran handle, the
/// keyval and IERROR (each a local of this frame: whatever the callback writes through them
/// touches nothing of the library's); IERROR as the result.
fn call_fortran<F: FrontEnd>(
    what: &'static str,
    function: usize,
    keyval: Keyval,
    object: AnyObject,
    body: impl FnOnce(&mut F::Fint, &mut F::Fint, &mut F::Fint),
) -> Done {
    let mut handle = F::fortran_handle(object)?;
    let mut number = F::Fint::from(keyval.0);
    let success = F::Fint::from(F::success());
    let mut ierror = success;
    let call = Call {
        what,
        function,
        keyval,
        object,
        fortran: true,
    };
    F::around(call, || body(&mut handle, &mut number, &mut ierror));
    if ierror != success {
        return Err(error_code(ierror));
    }
    Ok(())
}

impl<F: FrontEnd, T: Width> CopyCallback for FortranCopy<F, T> {
    fn copy(&self, _: &Universe, object: AnyObject, keyval: Keyval, value: Word) -> Copied {
        let mut input = cell::<T>(value);
        let mut output: Word = 0;
        let mut flag = F::Fint::default(); // .FALSE.
        let extra_state = self.extra_state.as_ptr().cast::<T>();
        call_fortran::<F>(
            "copy",
            self.function as usize,
            keyval,
            object,
            |handle, number, ierror| {
                // SAFETY: the user's Fortran callback, called with the arguments of its
                // convention, each a valid reference that outlives the call; the value cells
                // and the extra state cell (which lives in `self`) are address-sized, at least
                // as wide as T.
                unsafe {
                    (self.function)(
                        handle,
                        number,
                        extra_state,
                        (&mut input as *mut Word).cast::<T>(),
                        (&mut output as *mut Word).cast::<T>(),
                        &mut flag,
                        ierror,
                    )
                }
            },
        )?;
        Ok((flag != F::Fint::default()).then(|| T::from_word(output).into_word()))
    }
}

impl<F: FrontEnd, T: Width> DeleteCallback for FortranDelete<F, T> {
    fn delete(&self, _: &Universe, object: AnyObject, keyval: Keyval, value: Word) -> Done {
        let mut value = cell::<T>(value);
        let value = (&mut value as *mut Word).cast::<T>();
        let extra_state = self.extra_state.as_ptr().cast::<T>();
        call_fortran::<F>(
            "delete",
            self.function as usize,
            keyval,
            object,
            |handle, number, ierror| {
                // SAFETY: as for the copy callback.
                unsafe { (self.function)(handle, number, value, extra_state, ierror) }
            },
        )
    }
}
