//! The exported C and Fortran functions as a [`Backend`]: what a C or gfortran program calls,
//! with the library's C error path (MPI_ERRORS_RETURN) and its callback conventions. C
//! callbacks get C handles and `void*` values; Fortran callbacks get everything by reference,
//! Fortran handles, a LOGICAL flag and IERROR, in the MPI-1 (default INTEGER) or
//! address-kind convention. One program per process: MPI_Init comes once.
//!
//! Which entry point an act uses: the call's language (C, `MPI_ATTR_PUT`/`GET` for Fortran
//! INTEGER values, `MPI_*_SET_ATTR`/`GET_ATTR` for address-kind ones), and `alt` picks the
//! deprecated C functions on communicators, the profiling (`PMPI_`/`pmpi_`) names, or Fortran.

use std::cell::RefCell;
use std::ffi::c_int;
use std::rc::Rc;

use mpiattr::{abi, Fint};

use super::harness::{Failure, Stats};
use super::ops::{CopyB, DeleteB, Kind, Lang, Op};
use super::reference::{window_params, Model, ERR_OTHER};
use super::run::{multiple_for, run_checked, Backend, Counts, Driver};

type Aint = isize;
/// A C handle (every handle type of the standard ABI is a pointer).
type H = usize;

/// A predefined C handle of the standard ABI.
macro_rules! handle {
    (COMM_WORLD) => {
        abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize
    };
    (COMM_SELF) => {
        abi::MPIATTR_HANDLE_MPI_COMM_SELF as usize
    };
    (COMM_NULL) => {
        abi::MPIATTR_HANDLE_MPI_COMM_NULL as usize
    };
    (DATATYPE_NULL) => {
        abi::MPIATTR_HANDLE_MPI_DATATYPE_NULL as usize
    };
    (WIN_NULL) => {
        abi::MPIATTR_HANDLE_MPI_WIN_NULL as usize
    };
    (INT) => {
        abi::MPIATTR_HANDLE_MPI_INT as usize
    };
    (DOUBLE) => {
        abi::MPIATTR_HANDLE_MPI_DOUBLE as usize
    };
    (INFO_NULL) => {
        abi::MPIATTR_HANDLE_MPI_INFO_NULL as usize
    };
    (ERRORS_RETURN) => {
        abi::MPIATTR_HANDLE_MPI_ERRORS_RETURN as usize
    };
}

type CCopy = extern "C" fn(H, c_int, usize, usize, *mut usize, *mut c_int) -> c_int;
type CDelete = extern "C" fn(H, c_int, usize, usize) -> c_int;
type FCopy<T> =
    extern "C" fn(*const Fint, *const Fint, *const T, *const T, *mut T, *mut Fint, *mut Fint);
type FDelete<T> = extern "C" fn(*const Fint, *const Fint, *const T, *const T, *mut Fint);

extern "C" {
    fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut i8) -> c_int;
    fn MPI_Init_thread(
        argc: *mut c_int,
        argv: *mut usize,
        required: c_int,
        provided: *mut c_int,
    ) -> c_int;
    fn MPI_Finalize() -> c_int;
    fn MPI_Error_class(code: c_int, class: *mut c_int) -> c_int;
    fn MPI_Comm_set_errhandler(comm: H, eh: H) -> c_int;
    fn MPI_Win_set_errhandler(win: H, eh: H) -> c_int;

    fn MPI_Comm_create_keyval(c: usize, d: usize, kv: *mut c_int, extra: usize) -> c_int;
    fn MPI_Type_create_keyval(c: usize, d: usize, kv: *mut c_int, extra: usize) -> c_int;
    fn MPI_Win_create_keyval(c: usize, d: usize, kv: *mut c_int, extra: usize) -> c_int;
    fn MPI_Keyval_create(c: usize, d: usize, kv: *mut c_int, extra: usize) -> c_int;
    fn MPI_Comm_free_keyval(kv: *mut c_int) -> c_int;
    fn MPI_Type_free_keyval(kv: *mut c_int) -> c_int;
    fn MPI_Win_free_keyval(kv: *mut c_int) -> c_int;
    fn PMPI_Keyval_free(kv: *mut c_int) -> c_int;

    fn MPI_Comm_set_attr(h: H, kv: c_int, v: usize) -> c_int;
    fn PMPI_Type_set_attr(h: H, kv: c_int, v: usize) -> c_int;
    fn MPI_Type_set_attr(h: H, kv: c_int, v: usize) -> c_int;
    fn MPI_Win_set_attr(h: H, kv: c_int, v: usize) -> c_int;
    fn PMPI_Win_set_attr(h: H, kv: c_int, v: usize) -> c_int;
    fn MPI_Attr_put(h: H, kv: c_int, v: usize) -> c_int;
    fn MPI_Comm_get_attr(h: H, kv: c_int, v: *mut usize, flag: *mut c_int) -> c_int;
    fn MPI_Type_get_attr(h: H, kv: c_int, v: *mut usize, flag: *mut c_int) -> c_int;
    fn PMPI_Type_get_attr(h: H, kv: c_int, v: *mut usize, flag: *mut c_int) -> c_int;
    fn MPI_Win_get_attr(h: H, kv: c_int, v: *mut usize, flag: *mut c_int) -> c_int;
    fn PMPI_Win_get_attr(h: H, kv: c_int, v: *mut usize, flag: *mut c_int) -> c_int;
    fn MPI_Attr_get(h: H, kv: c_int, v: *mut usize, flag: *mut c_int) -> c_int;
    fn MPI_Comm_delete_attr(h: H, kv: c_int) -> c_int;
    fn MPI_Type_delete_attr(h: H, kv: c_int) -> c_int;
    fn MPI_Win_delete_attr(h: H, kv: c_int) -> c_int;
    fn MPI_Attr_delete(h: H, kv: c_int) -> c_int;

    fn MPI_Comm_dup(h: H, new: *mut H) -> c_int;
    fn MPI_Comm_dup_with_info(h: H, info: H, new: *mut H) -> c_int;
    fn MPI_Comm_idup(h: H, new: *mut H, request: *mut H) -> c_int;
    fn MPI_Wait(request: *mut H, status: usize) -> c_int;
    fn MPI_Comm_split(h: H, color: c_int, key: c_int, new: *mut H) -> c_int;
    fn MPI_Comm_free(h: *mut H) -> c_int;
    fn MPI_Type_dup(h: H, new: *mut H) -> c_int;
    fn MPI_Type_contiguous(count: c_int, old: H, new: *mut H) -> c_int;
    fn MPI_Type_free(h: *mut H) -> c_int;
    fn MPI_Win_create(base: usize, size: Aint, disp: c_int, info: H, comm: H, win: *mut H)
        -> c_int;
    fn MPI_Win_create_dynamic(info: H, comm: H, win: *mut H) -> c_int;
    fn MPI_Win_free(h: *mut H) -> c_int;

    fn MPI_Comm_c2f(h: H) -> Fint;
    fn MPI_Comm_f2c(f: Fint) -> H;
    fn MPI_Type_c2f(h: H) -> Fint;
    fn MPI_Type_f2c(f: Fint) -> H;
    fn MPI_Win_c2f(h: H) -> Fint;
    fn MPI_Win_f2c(f: Fint) -> H;

    fn mpi_comm_create_keyval_(
        c: usize,
        d: usize,
        kv: *mut Fint,
        extra: *const Aint,
        ierr: *mut Fint,
    );
    fn mpi_type_create_keyval_(
        c: usize,
        d: usize,
        kv: *mut Fint,
        extra: *const Aint,
        ierr: *mut Fint,
    );
    fn pmpi_win_create_keyval_(
        c: usize,
        d: usize,
        kv: *mut Fint,
        extra: *const Aint,
        ierr: *mut Fint,
    );
    fn mpi_keyval_create_(c: usize, d: usize, kv: *mut Fint, extra: *const Fint, ierr: *mut Fint);
    fn mpi_comm_free_keyval_(kv: *mut Fint, ierr: *mut Fint);
    fn mpi_type_free_keyval_(kv: *mut Fint, ierr: *mut Fint);
    fn mpi_win_free_keyval_(kv: *mut Fint, ierr: *mut Fint);
    fn mpi_comm_set_attr_(h: *const Fint, kv: *const Fint, v: *const Aint, ierr: *mut Fint);
    fn mpi_type_set_attr_(h: *const Fint, kv: *const Fint, v: *const Aint, ierr: *mut Fint);
    fn mpi_win_set_attr_(h: *const Fint, kv: *const Fint, v: *const Aint, ierr: *mut Fint);
    fn mpi_attr_put_(h: *const Fint, kv: *const Fint, v: *const Fint, ierr: *mut Fint);
    fn pmpi_attr_put_(h: *const Fint, kv: *const Fint, v: *const Fint, ierr: *mut Fint);
    fn mpi_comm_get_attr_(
        h: *const Fint,
        kv: *const Fint,
        v: *mut Aint,
        flag: *mut Fint,
        ierr: *mut Fint,
    );
    fn pmpi_comm_get_attr_(
        h: *const Fint,
        kv: *const Fint,
        v: *mut Aint,
        flag: *mut Fint,
        ierr: *mut Fint,
    );
    fn mpi_type_get_attr_(
        h: *const Fint,
        kv: *const Fint,
        v: *mut Aint,
        flag: *mut Fint,
        ierr: *mut Fint,
    );
    fn mpi_win_get_attr_(
        h: *const Fint,
        kv: *const Fint,
        v: *mut Aint,
        flag: *mut Fint,
        ierr: *mut Fint,
    );
    fn mpi_attr_get_(
        h: *const Fint,
        kv: *const Fint,
        v: *mut Fint,
        flag: *mut Fint,
        ierr: *mut Fint,
    );
    fn pmpi_attr_get_(
        h: *const Fint,
        kv: *const Fint,
        v: *mut Fint,
        flag: *mut Fint,
        ierr: *mut Fint,
    );
    fn mpi_comm_delete_attr_(h: *const Fint, kv: *const Fint, ierr: *mut Fint);
    fn mpi_type_delete_attr_(h: *const Fint, kv: *const Fint, ierr: *mut Fint);
    fn mpi_win_delete_attr_(h: *const Fint, kv: *const Fint, ierr: *mut Fint);
    fn mpi_attr_delete_(h: *const Fint, kv: *const Fint, ierr: *mut Fint);
    fn mpi_comm_dup_(h: *const Fint, new: *mut Fint, ierr: *mut Fint);
    fn mpi_type_dup_(h: *const Fint, new: *mut Fint, ierr: *mut Fint);

    // The predefined Fortran callbacks, as a Fortran program passes them.
    fn mpi_comm_null_copy_fn_();
    fn mpi_comm_dup_fn_();
    fn mpi_comm_null_delete_fn_();
    fn mpi_type_null_copy_fn_();
    fn mpi_type_dup_fn_();
    fn mpi_type_null_delete_fn_();
    fn mpi_win_null_copy_fn_();
    fn mpi_win_dup_fn_();
    fn mpi_win_null_delete_fn_();
    fn mpi_null_copy_fn_();
    fn mpi_dup_fn_();
    fn mpi_null_delete_fn_();
}

/// A default INTEGER as a C int (keyval numbers fit).
#[allow(clippy::unnecessary_cast)] // Fint is i64 with 8-byte INTEGERs
fn int(f: Fint) -> i32 {
    f as i32
}

/// The extra state every keyval is created with; callbacks check they get it back.
const EXTRA: usize = 0x5eed_0001;

thread_local! {
    static DRIVER: RefCell<Option<Rc<Driver<CBackend>>>> = const { RefCell::new(None) };
}

pub fn install(driver: Option<Rc<Driver<CBackend>>>) {
    DRIVER.with(|d| *d.borrow_mut() = driver);
}

fn current() -> Option<Rc<Driver<CBackend>>> {
    DRIVER.with(|d| d.borrow().clone())
}

const COMM: u8 = 0;
const TYPE: u8 = 1;
const WIN: u8 = 2;

fn kind_of(k: u8) -> Kind {
    match k {
        COMM => Kind::Comm,
        TYPE => Kind::Type,
        _ => Kind::Win,
    }
}

fn c2f(kind: Kind, h: H) -> Fint {
    // SAFETY: the conversions take any handle value.
    unsafe {
        match kind {
            Kind::Comm => MPI_Comm_c2f(h),
            Kind::Type => MPI_Type_c2f(h),
            Kind::Win => MPI_Win_c2f(h),
        }
    }
}

fn f2c(kind: Kind, f: Fint) -> H {
    // SAFETY: the conversions take any integer.
    unsafe {
        match kind {
            Kind::Comm => MPI_Comm_f2c(f),
            Kind::Type => MPI_Type_f2c(f),
            Kind::Win => MPI_Win_f2c(f),
        }
    }
}

/// A wrong extra state is a failure of the library: report it through the driver.
fn check_extra(ok: bool) -> Result<(), i32> {
    if ok {
        Ok(())
    } else {
        if let Some(d) = current() {
            d.note("a callback got the wrong extra state".into());
        }
        Err(ERR_OTHER)
    }
}

fn report(copy: bool, kind: Kind, number: i32, obj: H, raw: i64) -> Result<Option<i64>, i32> {
    match current() {
        Some(d) => d.callback(copy, number, obj, kind, raw),
        None => Ok(copy.then_some(raw)),
    }
}

extern "C" fn c_copy<const K: u8>(
    obj: H,
    kv: c_int,
    extra: usize,
    input: usize,
    out: *mut usize,
    flag: *mut c_int,
) -> c_int {
    let result =
        check_extra(extra == EXTRA).and_then(|_| report(true, kind_of(K), kv, obj, input as i64));
    match result {
        Err(code) => code,
        Ok(produced) => {
            // SAFETY: the library passes valid output pointers.
            unsafe {
                *flag = c_int::from(produced.is_some());
                if let Some(w) = produced {
                    *out = w as usize;
                }
            }
            0
        }
    }
}

extern "C" fn c_delete<const K: u8>(obj: H, kv: c_int, value: usize, extra: usize) -> c_int {
    match check_extra(extra == EXTRA).and_then(|_| report(false, kind_of(K), kv, obj, value as i64))
    {
        Ok(_) => 0,
        Err(code) => code,
    }
}

/// A Fortran callback's value width: INTEGER (MPI-1) or INTEGER(KIND=MPI_ADDRESS_KIND).
trait Width: Copy {
    fn word(self) -> i64;
    fn from_word(w: i64) -> Self;
}
impl Width for Aint {
    fn word(self) -> i64 {
        self as i64
    }
    fn from_word(w: i64) -> Aint {
        w as Aint
    }
}
impl Width for Fint {
    #[allow(clippy::unnecessary_cast)] // Fint is i64 with 8-byte INTEGERs
    fn word(self) -> i64 {
        self as i64
    }
    fn from_word(w: i64) -> Fint {
        w as Fint
    }
}

extern "C" fn f_copy<const K: u8, T: Width>(
    obj: *const Fint,
    kv: *const Fint,
    extra: *const T,
    input: *const T,
    out: *mut T,
    flag: *mut Fint,
    ierr: *mut Fint,
) {
    // SAFETY: Fortran passes every argument by reference; the library passes valid ones.
    unsafe {
        let kind = kind_of(K);
        let result = check_extra((*extra).word() == EXTRA as i64)
            .and_then(|_| report(true, kind, int(*kv), f2c(kind, *obj), (*input).word()));
        match result {
            Err(code) => *ierr = code as Fint,
            Ok(produced) => {
                *flag = Fint::from(produced.is_some());
                if let Some(w) = produced {
                    *out = T::from_word(w);
                }
                *ierr = 0;
            }
        }
    }
}

extern "C" fn f_delete<const K: u8, T: Width>(
    obj: *const Fint,
    kv: *const Fint,
    value: *const T,
    extra: *const T,
    ierr: *mut Fint,
) {
    // SAFETY: as f_copy.
    unsafe {
        let kind = kind_of(K);
        let result = check_extra((*extra).word() == EXTRA as i64)
            .and_then(|_| report(false, kind, int(*kv), f2c(kind, *obj), (*value).word()));
        *ierr = match result {
            Ok(_) => 0,
            Err(code) => code as Fint,
        };
    }
}

pub struct CBackend;

/// The class of a return code (MPI_SUCCESS: none).
fn check(code: c_int) -> Result<(), i32> {
    if code == 0 {
        return Ok(());
    }
    let mut class = -1;
    // SAFETY: MPI_Error_class may be called at any time.
    let rc = unsafe { MPI_Error_class(code, &mut class) };
    if rc != 0 {
        return Err(-code); // no class: shows as a mismatch
    }
    Err(class)
}

fn checkf(ierr: Fint) -> Result<(), i32> {
    check(ierr as c_int)
}

impl CBackend {
    /// Initializes MPI (`multiple`: MPI_Init_thread with MPI_THREAD_MULTIPLE) and makes the
    /// predefined communicators return errors.
    pub fn init(multiple: bool) -> CBackend {
        // SAFETY: called once per process, before anything else.
        unsafe {
            let rc = if multiple {
                let mut provided = 0;
                MPI_Init_thread(
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    abi::MPI_THREAD_MULTIPLE as c_int,
                    &mut provided,
                )
            } else {
                MPI_Init(std::ptr::null_mut(), std::ptr::null_mut())
            };
            assert_eq!(rc, 0, "MPI_Init");
            for comm in [handle!(COMM_WORLD), handle!(COMM_SELF)] {
                assert_eq!(MPI_Comm_set_errhandler(comm, handle!(ERRORS_RETURN)), 0);
            }
        }
        CBackend
    }
}

impl Backend for CBackend {
    type Obj = H;

    fn predefined(&self) -> [H; 4] {
        [
            handle!(COMM_WORLD),
            handle!(COMM_SELF),
            handle!(INT),
            handle!(DOUBLE),
        ]
    }

    fn create_keyval(
        &self,
        kind: Kind,
        conv: Lang,
        copy: CopyB,
        delete: DeleteB,
        alt: bool,
    ) -> Result<i32, i32> {
        // SAFETY: valid arguments; the callbacks have the convention the call expects.
        unsafe {
            match conv {
                Lang::C => {
                    let (c, d): (CCopy, CDelete) = match kind {
                        Kind::Comm => (c_copy::<COMM>, c_delete::<COMM>),
                        Kind::Type => (c_copy::<TYPE>, c_delete::<TYPE>),
                        Kind::Win => (c_copy::<WIN>, c_delete::<WIN>),
                    };
                    let c = match copy {
                        CopyB::Null => 0,
                        CopyB::Dup => 1,
                        CopyB::Call => c as usize,
                    };
                    let d = match delete {
                        DeleteB::Null => 0,
                        DeleteB::Call => d as usize,
                    };
                    let mut kv = -1;
                    let rc = match kind {
                        Kind::Comm if alt => MPI_Keyval_create(c, d, &mut kv, EXTRA),
                        Kind::Comm => MPI_Comm_create_keyval(c, d, &mut kv, EXTRA),
                        Kind::Type => MPI_Type_create_keyval(c, d, &mut kv, EXTRA),
                        Kind::Win => MPI_Win_create_keyval(c, d, &mut kv, EXTRA),
                    };
                    check(rc).map(|_| kv)
                }
                Lang::FAddr => {
                    let (c, d): (FCopy<Aint>, FDelete<Aint>) = match kind {
                        Kind::Comm => (f_copy::<COMM, Aint>, f_delete::<COMM, Aint>),
                        Kind::Type => (f_copy::<TYPE, Aint>, f_delete::<TYPE, Aint>),
                        Kind::Win => (f_copy::<WIN, Aint>, f_delete::<WIN, Aint>),
                    };
                    let (null_copy, dup, null_delete): (usize, usize, usize) = match kind {
                        Kind::Comm => (
                            mpi_comm_null_copy_fn_ as *const () as usize,
                            mpi_comm_dup_fn_ as *const () as usize,
                            mpi_comm_null_delete_fn_ as *const () as usize,
                        ),
                        Kind::Type => (
                            mpi_type_null_copy_fn_ as *const () as usize,
                            mpi_type_dup_fn_ as *const () as usize,
                            mpi_type_null_delete_fn_ as *const () as usize,
                        ),
                        Kind::Win => (
                            mpi_win_null_copy_fn_ as *const () as usize,
                            mpi_win_dup_fn_ as *const () as usize,
                            mpi_win_null_delete_fn_ as *const () as usize,
                        ),
                    };
                    let c = match copy {
                        CopyB::Null => null_copy,
                        CopyB::Dup => dup,
                        CopyB::Call => c as usize,
                    };
                    let d = match delete {
                        DeleteB::Null => null_delete,
                        DeleteB::Call => d as usize,
                    };
                    let (mut kv, mut ierr, extra): (Fint, Fint, Aint) = (-1, -1, EXTRA as Aint);
                    match kind {
                        Kind::Comm => mpi_comm_create_keyval_(c, d, &mut kv, &extra, &mut ierr),
                        Kind::Type => mpi_type_create_keyval_(c, d, &mut kv, &extra, &mut ierr),
                        Kind::Win => pmpi_win_create_keyval_(c, d, &mut kv, &extra, &mut ierr),
                    }
                    checkf(ierr).map(|_| int(kv))
                }
                Lang::FInt => {
                    let (c, d): (FCopy<Fint>, FDelete<Fint>) =
                        (f_copy::<COMM, Fint>, f_delete::<COMM, Fint>);
                    let c = match copy {
                        CopyB::Null => mpi_null_copy_fn_ as *const () as usize,
                        CopyB::Dup => mpi_dup_fn_ as *const () as usize,
                        CopyB::Call => c as usize,
                    };
                    let d = match delete {
                        DeleteB::Null => mpi_null_delete_fn_ as *const () as usize,
                        DeleteB::Call => d as usize,
                    };
                    let (mut kv, mut ierr, extra): (Fint, Fint, Fint) = (-1, -1, EXTRA as Fint);
                    mpi_keyval_create_(c, d, &mut kv, &extra, &mut ierr);
                    checkf(ierr).map(|_| int(kv))
                }
            }
        }
    }

    fn free_keyval(&self, kind: Kind, number: i32, alt: bool) -> Result<(), i32> {
        // SAFETY: valid pointers.
        let (result, after) = unsafe {
            if alt {
                let (mut kv, mut ierr) = (number as Fint, -1);
                match kind {
                    Kind::Comm => mpi_comm_free_keyval_(&mut kv, &mut ierr),
                    Kind::Type => mpi_type_free_keyval_(&mut kv, &mut ierr),
                    Kind::Win => mpi_win_free_keyval_(&mut kv, &mut ierr),
                }
                (checkf(ierr), int(kv))
            } else {
                let mut kv = number;
                let rc = match kind {
                    Kind::Comm if number % 2 == 0 => PMPI_Keyval_free(&mut kv),
                    Kind::Comm => MPI_Comm_free_keyval(&mut kv),
                    Kind::Type => MPI_Type_free_keyval(&mut kv),
                    Kind::Win => MPI_Win_free_keyval(&mut kv),
                };
                (check(rc), kv)
            }
        };
        // Freeing sets the variable to MPI_KEYVAL_INVALID; a failure leaves it.
        let expected = if result.is_ok() {
            abi::MPI_KEYVAL_INVALID as i32
        } else {
            number
        };
        if after != expected {
            return Err(-1000 - after);
        }
        result
    }

    fn set(
        &self,
        obj: H,
        kind: Kind,
        number: i32,
        lang: Lang,
        word: i64,
        alt: bool,
    ) -> Result<(), i32> {
        // SAFETY: valid arguments.
        unsafe {
            match lang {
                Lang::C => {
                    let v = word as usize;
                    check(match kind {
                        Kind::Comm if alt => MPI_Attr_put(obj, number, v),
                        Kind::Comm => MPI_Comm_set_attr(obj, number, v),
                        Kind::Type if alt => PMPI_Type_set_attr(obj, number, v),
                        Kind::Type => MPI_Type_set_attr(obj, number, v),
                        Kind::Win if alt => PMPI_Win_set_attr(obj, number, v),
                        Kind::Win => MPI_Win_set_attr(obj, number, v),
                    })
                }
                Lang::FAddr => {
                    let (f, kv, v, mut ierr) = (c2f(kind, obj), number as Fint, word as Aint, -1);
                    match kind {
                        Kind::Comm => mpi_comm_set_attr_(&f, &kv, &v, &mut ierr),
                        Kind::Type => mpi_type_set_attr_(&f, &kv, &v, &mut ierr),
                        Kind::Win => mpi_win_set_attr_(&f, &kv, &v, &mut ierr),
                    }
                    checkf(ierr)
                }
                Lang::FInt => {
                    let (f, kv, v, mut ierr) = (c2f(kind, obj), number as Fint, word as Fint, -1);
                    if alt {
                        pmpi_attr_put_(&f, &kv, &v, &mut ierr);
                    } else {
                        mpi_attr_put_(&f, &kv, &v, &mut ierr);
                    }
                    checkf(ierr)
                }
            }
        }
    }

    fn get(
        &self,
        obj: H,
        kind: Kind,
        number: i32,
        lang: Lang,
        alt: bool,
    ) -> Result<Option<i64>, i32> {
        // SAFETY: valid arguments.
        unsafe {
            match lang {
                Lang::C => {
                    let (mut v, mut flag) = (0usize, -1);
                    let rc = match kind {
                        Kind::Comm if alt => MPI_Attr_get(obj, number, &mut v, &mut flag),
                        Kind::Comm => MPI_Comm_get_attr(obj, number, &mut v, &mut flag),
                        Kind::Type if alt => PMPI_Type_get_attr(obj, number, &mut v, &mut flag),
                        Kind::Type => MPI_Type_get_attr(obj, number, &mut v, &mut flag),
                        Kind::Win if alt => PMPI_Win_get_attr(obj, number, &mut v, &mut flag),
                        Kind::Win => MPI_Win_get_attr(obj, number, &mut v, &mut flag),
                    };
                    check(rc)?;
                    Ok((flag != 0).then_some(v as i64))
                }
                Lang::FAddr => {
                    let (f, kv) = (c2f(kind, obj), number as Fint);
                    let (mut v, mut flag, mut ierr): (Aint, Fint, Fint) = (0, -1, -1);
                    match kind {
                        Kind::Comm if alt => {
                            pmpi_comm_get_attr_(&f, &kv, &mut v, &mut flag, &mut ierr)
                        }
                        Kind::Comm => mpi_comm_get_attr_(&f, &kv, &mut v, &mut flag, &mut ierr),
                        Kind::Type => mpi_type_get_attr_(&f, &kv, &mut v, &mut flag, &mut ierr),
                        Kind::Win => mpi_win_get_attr_(&f, &kv, &mut v, &mut flag, &mut ierr),
                    }
                    checkf(ierr)?;
                    Ok((flag != 0).then_some(v as i64))
                }
                Lang::FInt => {
                    let (f, kv) = (c2f(kind, obj), number as Fint);
                    let (mut v, mut flag, mut ierr): (Fint, Fint, Fint) = (0, -1, -1);
                    if alt {
                        pmpi_attr_get_(&f, &kv, &mut v, &mut flag, &mut ierr);
                    } else {
                        mpi_attr_get_(&f, &kv, &mut v, &mut flag, &mut ierr);
                    }
                    checkf(ierr)?;
                    Ok((flag != 0).then_some(v.word()))
                }
            }
        }
    }

    fn delete(&self, obj: H, kind: Kind, number: i32, alt: bool) -> Result<(), i32> {
        // SAFETY: valid arguments.
        unsafe {
            if alt {
                let (f, kv, mut ierr) = (c2f(kind, obj), number as Fint, -1);
                match kind {
                    Kind::Comm if number % 2 == 0 => mpi_attr_delete_(&f, &kv, &mut ierr),
                    Kind::Comm => mpi_comm_delete_attr_(&f, &kv, &mut ierr),
                    Kind::Type => mpi_type_delete_attr_(&f, &kv, &mut ierr),
                    Kind::Win => mpi_win_delete_attr_(&f, &kv, &mut ierr),
                }
                return checkf(ierr);
            }
            check(match kind {
                Kind::Comm if number % 2 == 0 => MPI_Attr_delete(obj, number),
                Kind::Comm => MPI_Comm_delete_attr(obj, number),
                Kind::Type => MPI_Type_delete_attr(obj, number),
                Kind::Win => MPI_Win_delete_attr(obj, number),
            })
        }
    }

    fn dup(&self, obj: H, kind: Kind, alt: u8) -> Result<H, i32> {
        let null = match kind {
            Kind::Comm => handle!(COMM_NULL),
            _ => handle!(DATATYPE_NULL),
        };
        // SAFETY: valid arguments.
        let (result, new) = unsafe {
            if alt >= 192 {
                let (f, mut new, mut ierr) = (c2f(kind, obj), -1 as Fint, -1);
                if kind == Kind::Comm {
                    mpi_comm_dup_(&f, &mut new, &mut ierr);
                } else {
                    mpi_type_dup_(&f, &mut new, &mut ierr);
                }
                (checkf(ierr), f2c(kind, new))
            } else {
                let mut new: H = 0xdead;
                let rc = match (kind, alt % 3) {
                    (Kind::Comm, 0) => MPI_Comm_dup(obj, &mut new),
                    (Kind::Comm, 1) => MPI_Comm_dup_with_info(obj, handle!(INFO_NULL), &mut new),
                    (Kind::Comm, _) => {
                        let mut request: H = 0;
                        let rc = MPI_Comm_idup(obj, &mut new, &mut request);
                        if rc == 0 {
                            let rc = MPI_Wait(&mut request, 0);
                            if rc != 0 {
                                return check(rc).map(|_| 0);
                            }
                        }
                        rc
                    }
                    _ => MPI_Type_dup(obj, &mut new),
                };
                (check(rc), new)
            }
        };
        match result {
            Ok(()) => Ok(new),
            // A failed dup leaves the null handle (attributes.md §5); a bad handle leaves the output.
            Err(class) if new == null || new == 0xdead || alt >= 192 => Err(class),
            Err(_) => Err(-2000),
        }
    }

    fn free(&self, obj: H, kind: Kind) -> Result<(), i32> {
        let mut h = obj;
        // SAFETY: valid pointer.
        let rc = unsafe {
            match kind {
                Kind::Comm => MPI_Comm_free(&mut h),
                Kind::Type => MPI_Type_free(&mut h),
                Kind::Win => MPI_Win_free(&mut h),
            }
        };
        let null = match kind {
            Kind::Comm => handle!(COMM_NULL),
            Kind::Type => handle!(DATATYPE_NULL),
            Kind::Win => handle!(WIN_NULL),
        };
        // Freed: the variable is the null handle; not freed: unchanged.
        match check(rc) {
            Ok(()) if h == null => Ok(()),
            Err(class) if h == obj => Err(class),
            _ => Err(-3000),
        }
    }

    fn create(&self, kind: Kind, variant: u8) -> Result<H, i32> {
        let mut new: H = 0;
        // SAFETY: valid arguments.
        unsafe {
            match kind {
                Kind::Comm => check(MPI_Comm_split(handle!(COMM_WORLD), 0, 0, &mut new))?,
                Kind::Type => check(MPI_Type_contiguous(
                    c_int::from(variant % 4) + 1,
                    handle!(INT),
                    &mut new,
                ))?,
                Kind::Win => {
                    let (base, size, disp, dynamic) = window_params(variant);
                    if dynamic {
                        check(MPI_Win_create_dynamic(
                            handle!(INFO_NULL),
                            handle!(COMM_WORLD),
                            &mut new,
                        ))?;
                    } else {
                        check(MPI_Win_create(
                            base as usize,
                            size as Aint,
                            disp as c_int,
                            handle!(INFO_NULL),
                            handle!(COMM_WORLD),
                            &mut new,
                        ))?;
                    }
                    check(MPI_Win_set_errhandler(new, handle!(ERRORS_RETURN)))?;
                }
            }
        }
        Ok(new)
    }

    fn finalize(&self) -> Result<(), i32> {
        // SAFETY: once, at the end of the program.
        check(unsafe { MPI_Finalize() })
    }

    fn counts(&self, _: &[(H, Kind)]) -> Option<Counts> {
        None
    }
}

/// One program: MPI_Init or, for a third of the programs (chosen by their first operation),
/// MPI_Init_thread with MPI_THREAD_MULTIPLE.
pub fn run_program(next: &mut dyn FnMut(&Model) -> Option<Op>) -> Result<Stats, Failure> {
    let mut model = Model::new(true);
    let Some(first) = next(&model) else {
        return Ok(Stats::default());
    };
    let multiple = multiple_for(first);
    let driver = Rc::new(Driver::new(CBackend::init(multiple), &model));
    install(Some(driver.clone()));
    let result = run_checked(&mut model, &driver, first, next);
    install(None);
    result
}
