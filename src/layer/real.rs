//! The real MPI underneath: its handle types (bindgen, from its own `mpi.h`), the values its
//! header defines (compiled C, see generate.rs), and its `PMPI_` functions, found with
//! `dlsym(RTLD_NEXT, ...)` so that our own `MPI_`/`PMPI_` symbols never call themselves.

#![allow(non_camel_case_types, non_upper_case_globals, dead_code)]

use std::ffi::{c_int, c_void, CStr};
use std::sync::OnceLock;

mod bindings {
    #![allow(
        non_camel_case_types,
        non_upper_case_globals,
        non_snake_case,
        dead_code
    )]
    #![allow(missing_docs, clippy::all)]
    include!(concat!(env!("OUT_DIR"), "/real_mpi.rs"));
}
pub(crate) use bindings::{
    MPI_Comm, MPI_Datatype, MPI_Errhandler, MPI_Info, MPI_Request, MPI_Status, MPI_Win,
};
/// The real MPI's Fortran INTEGER.
pub(crate) type MPI_Fint = bindings::mpiattr_real_fint;

include!(concat!(env!("OUT_DIR"), "/layer_values.rs"));

// SAFETY: the values are constants written once by the C compiler; the pointers in them are
// handles and function addresses, never dereferenced here.
unsafe impl Sync for Values {}

extern "C" {
    static mpiattr_layer_values: Values;
}

/// The real MPI's values.
pub(crate) fn values() -> &'static Values {
    // SAFETY: a constant C object of this layout (both sides are generated from one list).
    unsafe { &*std::ptr::addr_of!(mpiattr_layer_values) }
}

/// A handle of the real MPI: an `int` (MPICH) or a pointer (Open MPI, the standard ABI).
/// Its key is the handle's bits as C's `(intptr_t)` cast gives them, the same as the
/// predefined handles in [`Values`].
pub(crate) trait Handle: Copy {
    fn key(self) -> usize;
    fn from_key(key: usize) -> Self;
}

impl Handle for c_int {
    fn key(self) -> usize {
        self as isize as usize
    }
    fn from_key(key: usize) -> Self {
        key as c_int
    }
}

impl<T> Handle for *mut T {
    fn key(self) -> usize {
        self as usize
    }
    fn from_key(key: usize) -> Self {
        key as *mut T
    }
}

/// The key of a handle value in [`Values`].
pub(crate) fn key_of(value: *mut c_void) -> usize {
    value as usize
}

macro_rules! functions {
    ($($(#[$meta:meta])* $field:ident = $symbol:literal: fn($($arg:ty),*);)*) => {
        /// The real MPI's functions the layer calls.
        pub(crate) struct Functions {
            $($(#[$meta])* pub(crate) $field: unsafe extern "C" fn($($arg),*) -> c_int,)*
        }

        fn resolve() -> Functions {
            Functions {
                $($(#[$meta])* $field: {
                    let address = next($symbol);
                    // SAFETY: the real MPI's function of this name, with the signature its
                    // mpi.h declares (the handle types come from that header).
                    unsafe {
                        std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) -> c_int>(
                            address,
                        )
                    }
                },)*
            }
        }
    };
}

functions! {
    comm_dup = c"PMPI_Comm_dup": fn(MPI_Comm, *mut MPI_Comm);
    comm_dup_with_info = c"PMPI_Comm_dup_with_info": fn(MPI_Comm, MPI_Info, *mut MPI_Comm);
    comm_idup = c"PMPI_Comm_idup": fn(MPI_Comm, *mut MPI_Comm, *mut MPI_Request);
    #[cfg(real_idup_with_info)]
    comm_idup_with_info = c"PMPI_Comm_idup_with_info":
        fn(MPI_Comm, MPI_Info, *mut MPI_Comm, *mut MPI_Request);
    wait = c"PMPI_Wait": fn(*mut MPI_Request, *mut MPI_Status);
    comm_free = c"PMPI_Comm_free": fn(*mut MPI_Comm);
    comm_disconnect = c"PMPI_Comm_disconnect": fn(*mut MPI_Comm);
    type_dup = c"PMPI_Type_dup": fn(MPI_Datatype, *mut MPI_Datatype);
    type_free = c"PMPI_Type_free": fn(*mut MPI_Datatype);
    win_free = c"PMPI_Win_free": fn(*mut MPI_Win);
    type_get_envelope = c"PMPI_Type_get_envelope":
        fn(MPI_Datatype, *mut c_int, *mut c_int, *mut c_int, *mut c_int);
    finalize = c"PMPI_Finalize": fn();
    comm_get_attr = c"PMPI_Comm_get_attr": fn(MPI_Comm, c_int, *mut c_void, *mut c_int);
    win_get_attr = c"PMPI_Win_get_attr": fn(MPI_Win, c_int, *mut c_void, *mut c_int);
    comm_call_errhandler = c"PMPI_Comm_call_errhandler": fn(MPI_Comm, c_int);
    win_call_errhandler = c"PMPI_Win_call_errhandler": fn(MPI_Win, c_int);
    comm_get_errhandler = c"PMPI_Comm_get_errhandler": fn(MPI_Comm, *mut MPI_Errhandler);
    win_get_errhandler = c"PMPI_Win_get_errhandler": fn(MPI_Win, *mut MPI_Errhandler);
    errhandler_free = c"PMPI_Errhandler_free": fn(*mut MPI_Errhandler);
    query_thread = c"PMPI_Query_thread": fn(*mut c_int);
    error_class = c"PMPI_Error_class": fn(c_int, *mut c_int);
    initialized = c"PMPI_Initialized": fn(*mut c_int);
    finalized = c"PMPI_Finalized": fn(*mut c_int);
}

/// The real MPI's conversions between Fortran and C handles.
pub(crate) struct Conversions {
    pub(crate) comm_f2c: unsafe extern "C" fn(MPI_Fint) -> MPI_Comm,
    pub(crate) comm_c2f: unsafe extern "C" fn(MPI_Comm) -> MPI_Fint,
    pub(crate) type_f2c: unsafe extern "C" fn(MPI_Fint) -> MPI_Datatype,
    pub(crate) type_c2f: unsafe extern "C" fn(MPI_Datatype) -> MPI_Fint,
    pub(crate) win_f2c: unsafe extern "C" fn(MPI_Fint) -> MPI_Win,
    pub(crate) win_c2f: unsafe extern "C" fn(MPI_Win) -> MPI_Fint,
}

/// The real MPI's conversions, found at the first use. MPICH has none to find (its `mpi.h`
/// makes them casts: its Fortran handle is the C one): then they are the identity.
pub(crate) fn conversions() -> &'static Conversions {
    static CONVERSIONS: OnceLock<Conversions> = OnceLock::new();
    CONVERSIONS.get_or_init(|| {
        unsafe extern "C" fn f2c<H: Handle>(handle: MPI_Fint) -> H {
            H::from_key(handle as isize as usize)
        }
        unsafe extern "C" fn c2f<H: Handle>(handle: H) -> MPI_Fint {
            handle.key() as MPI_Fint
        }
        macro_rules! found {
            ($symbol:literal, $identity:expr, $type:ty) => {
                match next_if_any($symbol) {
                    // SAFETY: the real MPI's function of this name, with the signature its
                    // mpi.h declares.
                    Some(address) => unsafe { std::mem::transmute::<*mut c_void, $type>(address) },
                    None => $identity,
                }
            };
        }
        Conversions {
            comm_f2c: found!(
                c"PMPI_Comm_f2c",
                f2c::<MPI_Comm>,
                unsafe extern "C" fn(MPI_Fint) -> MPI_Comm
            ),
            comm_c2f: found!(
                c"PMPI_Comm_c2f",
                c2f::<MPI_Comm>,
                unsafe extern "C" fn(MPI_Comm) -> MPI_Fint
            ),
            type_f2c: found!(
                c"PMPI_Type_f2c",
                f2c::<MPI_Datatype>,
                unsafe extern "C" fn(MPI_Fint) -> MPI_Datatype
            ),
            type_c2f: found!(
                c"PMPI_Type_c2f",
                c2f::<MPI_Datatype>,
                unsafe extern "C" fn(MPI_Datatype) -> MPI_Fint
            ),
            win_f2c: found!(
                c"PMPI_Win_f2c",
                f2c::<MPI_Win>,
                unsafe extern "C" fn(MPI_Fint) -> MPI_Win
            ),
            win_c2f: found!(
                c"PMPI_Win_c2f",
                c2f::<MPI_Win>,
                unsafe extern "C" fn(MPI_Win) -> MPI_Fint
            ),
        }
    })
}

/// The next definition of `symbol` after this library, if there is one.
fn next_if_any(symbol: &CStr) -> Option<*mut c_void> {
    // SAFETY: dlsym with a NUL-terminated name.
    let address = unsafe { libc::dlsym(libc::RTLD_NEXT, symbol.as_ptr()) };
    (!address.is_null()).then_some(address)
}

/// The address of a symbol as the program sees it (its canonical address), if defined.
pub(crate) fn address_of(symbol: &CStr) -> Option<usize> {
    // SAFETY: dlsym with a NUL-terminated name.
    let address = unsafe { libc::dlsym(libc::RTLD_DEFAULT, symbol.as_ptr()) };
    (!address.is_null()).then_some(address as usize)
}

/// The next definition of `symbol` after this library: the real MPI's. A real MPI without
/// it cannot run under the layer: the process stops with a message naming the function.
fn next(symbol: &CStr) -> *mut c_void {
    // SAFETY: dlsym with a NUL-terminated name; RTLD_NEXT searches the objects loaded after
    // this one.
    let address = unsafe { libc::dlsym(libc::RTLD_NEXT, symbol.as_ptr()) };
    if address.is_null() {
        eprintln!(
            "mpiattr layer: the MPI library underneath has no {} (is the layer loaded over \
             the MPI it was built for?)",
            symbol.to_string_lossy()
        );
        std::process::abort();
    }
    address
}

/// The real MPI's functions, found at the first call.
pub(crate) fn functions() -> &'static Functions {
    static FUNCTIONS: OnceLock<Functions> = OnceLock::new();
    FUNCTIONS.get_or_init(resolve)
}
