//! The C API: every function of attributes.md §1 as `MPI_*` and `PMPI_*`.
//!
//! A thin shell. Each entry point is described once, in a `mpi_functions!` block: the macro
//! emits `PMPI_X` (which checks arguments, calls the engine and maps errors) and `MPI_X`
//! (which forwards to `PMPI_X`, so a profiling library can interpose `MPI_X`). Every body runs
//! inside [`crate::ffi::call`], the one panic boundary: a panic becomes `MPI_ERR_INTERN` and
//! never unwinds into C. Errors go to the error handler of the object concerned.

pub(crate) use crate::ffi::{handles, universe, Out, Target};

mod attr;
mod coll;
mod comm;
mod datatype;
mod env;
mod errors;
mod p2p;
mod win;

/// Describes a group of C entry points, each once: `fn MPI_X / PMPI_X (args) on TARGET { body }`.
/// The body returns `Result<()>`; the target names the object whose error handler reports
/// a failure.
macro_rules! mpi_functions {
    ($(
        $(#[doc = $doc:literal])*
        fn $mpi:ident / $pmpi:ident ($($arg:ident: $ty:ty),* $(,)?) on $target:expr
            $(, fast $fast:block)? => $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Every pointer argument is NULL or valid for the accesses the MPI standard describes.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)] // the standard's argument lists
        pub unsafe extern "C" fn $pmpi($($arg: $ty),*) -> std::ffi::c_int {
            /// The function whole: argument checks, the engine, the error handler.
            #[inline(never)]
            #[allow(clippy::too_many_arguments)] // the standard's argument lists
            unsafe fn whole($($arg: $ty),*) -> std::ffi::c_int {
                $crate::ffi::call(
                    stringify!($mpi),
                    move || $target,
                    move |line: &mut String| {
                        let args: &[(&str, &dyn $crate::ffi::Arg)] = &[$((stringify!($arg), &$arg)),*];
                        $crate::ffi::args::describe_all(line, args);
                    },
                    || -> $crate::engine::Result<()> { $body },
                )
            }
            $(
                // The common case first, without any call; `None` goes the whole way.
                let fast = || -> Option<std::ffi::c_int> { $fast };
                if let Some(code) = fast() {
                    return code;
                }
            )?
            // SAFETY: the same contract as this function's.
            unsafe { whole($($arg),*) }
        }

        $(#[doc = $doc])*
        ///
        /// # Safety
        /// As for the `PMPI_` entry point it forwards to.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)] // the standard's argument lists
        pub unsafe extern "C" fn $mpi($($arg: $ty),*) -> std::ffi::c_int {
            // SAFETY: the same contract as the PMPI_ function, which the caller upholds.
            unsafe { $pmpi($($arg),*) }
        }
    )*};
}
pub(crate) use mpi_functions;

/// Like `mpi_functions!`, for entry points that return a value and cannot report errors.
macro_rules! mpi_infallible {
    ($(
        $(#[doc = $doc:literal])*
        fn $mpi:ident / $pmpi:ident ($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty, or $fallback:expr => $body:block
    )*) => {$(
        $(#[doc = $doc])*
        #[no_mangle]
        pub extern "C" fn $pmpi($($arg: $ty),*) -> $ret {
            $crate::ffi::call_infallible($fallback, || $body)
        }

        $(#[doc = $doc])*
        #[no_mangle]
        pub extern "C" fn $mpi($($arg: $ty),*) -> $ret {
            $pmpi($($arg),*)
        }
    )*};
}
pub(crate) use mpi_infallible;
