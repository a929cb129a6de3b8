//! What the C and the Fortran shells do around a call of a user callback: the object's handle
//! as the callback sees it, and [`MustReturn`], which stops an unwind coming out of the
//! callback; together the shells' [`FrontEnd`] (the calls themselves are in
//! src/callbacks.rs).

use std::cell::Cell;
use std::ffi::{c_int, c_void};

use super::handles::{encode_handle, fortran_value, CHandle};
use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Win};
use crate::callbacks::{Call, FrontEnd};
use crate::engine::{AnyObject, Fint};

/// The single-process library as the front end of its programs' C and Fortran callbacks.
pub(crate) struct Shells;

impl FrontEnd for Shells {
    /// Handles are pointers, so the kinds' C callback types differ only in the pointee of the
    /// first argument and are ABI-compatible with this one.
    type Handle = *mut c_void;
    type Fint = Fint;
    fn success() -> c_int {
        abi::MPI_SUCCESS as c_int
    }
    fn c_handle(object: AnyObject) -> Result<*mut c_void, i32> {
        Ok(c_handle(object))
    }
    fn fortran_handle(object: AnyObject) -> Result<Fint, i32> {
        Ok(fortran_handle(object))
    }
    #[inline(always)]
    fn around<R>(call: Call, body: impl FnOnce() -> R) -> R {
        let guard = MustReturn::new(call);
        let result = body();
        guard.returned();
        result
    }
}

/// The C handle of an object, as a C callback's first argument.
pub(crate) fn c_handle(object: AnyObject) -> *mut c_void {
    match object {
        AnyObject::Comm(comm) => encode_handle::<MPI_Comm>(comm).cast(),
        AnyObject::Datatype(datatype) => encode_handle::<MPI_Datatype>(datatype).cast(),
        AnyObject::Win(win) => encode_handle::<MPI_Win>(win).cast(),
    }
}

/// The Fortran integer a Fortran callback gets for the object it acts on.
pub(crate) fn fortran_handle(object: AnyObject) -> Fint {
    fn value<H: CHandle>(object: H::Object) -> Fint {
        fortran_value::<H>(object).map_or(H::NULL as Fint, |v| v as Fint)
    }
    match object {
        AnyObject::Comm(comm) => value::<MPI_Comm>(comm),
        AnyObject::Datatype(datatype) => value::<MPI_Datatype>(datatype),
        AnyObject::Win(win) => value::<MPI_Win>(win),
    }
}

/// Armed around a call of a user callback (called with the "C-unwind" ABI): if the callback
/// neither returns nor `longjmp`s but unwinds (a C++ exception, thrown by the callback or by
/// code it calls, or any other foreign unwind), this is dropped during the unwind, prints one
/// line naming the MPI function, the callback, its keyval and object, and aborts the process.
/// MPI callbacks must return; the library cannot be left with its call half-done on the way to
/// some catch block. A Fortran callback's object is named by its Fortran integer, as the
/// callback saw it.
pub(crate) struct MustReturn(Call);

impl MustReturn {
    /// Arms the guard as the callback is called.
    #[inline(always)]
    pub(crate) fn new(call: Call) -> MustReturn {
        UNRETURNED.with(|unreturned| unreturned.0.set(unreturned.0.get() + 1));
        MustReturn(call)
    }

    /// The callback returned.
    #[inline(always)]
    pub(crate) fn returned(self) {
        UNRETURNED.with(|unreturned| unreturned.0.set(unreturned.0.get() - 1));
        std::mem::forget(self);
    }
}

/// How many callbacks the thread has called that have not returned: those running, and those
/// left by `longjmp`, which never return.
struct Unreturned(Cell<usize>);

impl Drop for Unreturned {
    /// The thread ends: a callback of it that has not returned never will (it was left by
    /// `longjmp`); what its call left half-done is finished now, or it would stay so for the
    /// rest of the program (the library finishes it at the thread's next call otherwise).
    fn drop(&mut self) {
        if self.0.get() != 0 {
            if let Some(universe) = super::current() {
                universe.thread_ends();
            }
        }
    }
}

thread_local! {
    static UNRETURNED: Unreturned = const { Unreturned(Cell::new(0)) };
}

impl Drop for MustReturn {
    #[cold]
    fn drop(&mut self) {
        let function = crate::engine::current_call_name();
        let during = if function.is_empty() {
            String::new()
        } else {
            format!("{function}: ")
        };
        let call = &self.0;
        let handle = if call.fortran {
            fortran_handle(call.object).to_string()
        } else {
            format!("{:#x}", c_handle(call.object) as usize)
        };
        eprintln!(
            "mpiattr: {during}the {} callback {:#x} (keyval {}, {} {handle}) ended by an \
             exception or another unwind, which MPI callbacks may not do: aborting",
            call.what,
            call.function,
            call.keyval.0,
            call.object.kind(),
        );
        std::process::abort();
    }
}
