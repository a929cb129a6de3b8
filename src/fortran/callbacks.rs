//! The Fortran callback conventions (attributes.md §4): every argument by reference, the object's
//! Fortran handle, a LOGICAL flag and IERROR. Two widths share one implementation:
//! MPI-1 callbacks (MPI_KEYVAL_CREATE) take default INTEGERs, address-kind callbacks
//! (MPI_*_CREATE_KEYVAL of mpif.h, `use mpi` and `use mpi_f08`) take
//! INTEGER(KIND=MPI_ADDRESS_KIND). Which values they are shown and how a copy's result is
//! stored is the engine's business: it knows the keyval's [`Language`]. The copy and delete
//! callbacks are called as the layer's are (src/callbacks.rs).

use std::ffi::c_void;
use std::mem::transmute;
use std::sync::atomic::AtomicIsize;
use std::sync::Arc;

use super::{conv, logical, FortranProc};
use crate::abi;
use crate::callbacks::{
    error_code, ExtraState, FortranCopy, FortranCopyFn, FortranDelete, FortranDeleteFn, Procedure,
    Width,
};
use crate::capi::{read_status, write_status};
use crate::engine::{
    CopyAction, Datatype, DeleteAction, ErrhandlerFunction, ErrhandlerObject, Error, Fint,
    GeneralizedRequest, KeyvalSpec, Language, ObjectKind, Result, Status, Universe, UserFunction,
    Word,
};
use crate::ffi::handles::fortran_value;
use crate::ffi::unwind::Shells;

/// What a predefined Fortran callback stands for when passed to a create call.
pub(crate) enum Predefined {
    /// MPI_*_NULL_COPY_FN, MPI_NULL_COPY_FN.
    NullCopy,
    /// MPI_*_DUP_FN, MPI_DUP_FN.
    Dup,
    /// MPI_*_NULL_DELETE_FN, MPI_NULL_DELETE_FN.
    NullDelete,
}

/// The body of MPI_*_NULL_COPY_FN: no copy.
///
/// # Safety
/// `flag` and `ierror` are valid for writes.
pub(super) unsafe fn null_copy<T>(_: *const T, _: *mut T, flag: *mut Fint, ierror: *mut Fint) {
    // SAFETY: valid for writes (the caller's contract).
    unsafe {
        flag.write(logical(false));
        ierror.write(abi::MPI_SUCCESS as Fint);
    }
}

/// The body of MPI_*_DUP_FN: the copy gets the value.
///
/// # Safety
/// `input` is valid for reads, the others for writes.
pub(super) unsafe fn dup<T: Copy>(
    input: *const T,
    output: *mut T,
    flag: *mut Fint,
    ierror: *mut Fint,
) {
    // SAFETY: valid for reads and writes (the caller's contract).
    unsafe {
        output.write(input.read());
        flag.write(logical(true));
        ierror.write(abi::MPI_SUCCESS as Fint);
    }
}

/// The body of MPI_*_NULL_DELETE_FN.
///
/// # Safety
/// `ierror` is valid for writes.
pub(super) unsafe fn null_delete(ierror: *mut Fint) {
    // SAFETY: valid for writes (the caller's contract).
    unsafe { ierror.write(abi::MPI_SUCCESS as Fint) };
}

fn predefined(function: FortranProc) -> Option<Predefined> {
    super::shells::predefined_callback(function.map_or(0, |f| f as usize))
}

fn actions<T: Width>(
    copy: FortranProc,
    delete: FortranProc,
    extra_state: Word,
) -> Result<(CopyAction, DeleteAction)> {
    let extra_state: ExtraState = Arc::new(AtomicIsize::new(extra_state));
    let copy = match (copy, predefined(copy)) {
        (None, _) | (_, Some(Predefined::NullCopy | Predefined::NullDelete)) => CopyAction::Null,
        (_, Some(Predefined::Dup)) => CopyAction::Dup,
        (Some(function), None) => {
            // SAFETY: a Fortran procedure passed as a copy callback has this convention
            // (the standard's interface for the create call's argument).
            let function = unsafe { transmute::<Procedure, FortranCopyFn<Fint, T>>(function) };
            CopyAction::Call(Arc::new(FortranCopy::<Shells, T>::new(
                function,
                extra_state.clone(),
            )))
        }
    };
    let delete = match (delete, predefined(delete)) {
        // A copy that copies cannot be a deletion (C's MPI_*_DUP_FN, 1, is refused too);
        // MPI_*_NULL_COPY_FN does nothing, as C's null function (0) does.
        (_, Some(Predefined::Dup)) => {
            return Err(Error::InvalidArgument(
                "the delete callback is MPI_*_DUP_FN, a copy function",
            ))
        }
        (None, _) | (_, Some(Predefined::NullCopy | Predefined::NullDelete)) => DeleteAction::Null,
        (Some(function), None) => {
            // SAFETY: as for the copy callback, with the delete convention.
            let function = unsafe { transmute::<Procedure, FortranDeleteFn<Fint, T>>(function) };
            DeleteAction::Call(Arc::new(FortranDelete::<Shells, T>::new(
                function,
                extra_state,
            )))
        }
    };
    Ok((copy, delete))
}

/// The keyval a Fortran create call asks for: `Language::FortranInteger` for
/// MPI_KEYVAL_CREATE, `Language::FortranAddress` for MPI_*_CREATE_KEYVAL. The predefined
/// callbacks are recognised and never called.
pub(super) fn keyval_spec(
    kind: ObjectKind,
    language: Language,
    copy: FortranProc,
    delete: FortranProc,
    extra_state: Word,
) -> Result<KeyvalSpec> {
    let (copy, delete) = match language {
        Language::FortranInteger => actions::<Fint>(copy, delete, extra_state)?,
        _ => actions::<Word>(copy, delete, extra_state)?,
    };
    Ok(KeyvalSpec {
        kind,
        language,
        copy,
        delete,
    })
}

/// A Fortran user function of MPI_OP_CREATE (`MPI_User_function`): the buffers' addresses,
/// then LEN and DATATYPE by reference (in `use mpi_f08` the buffers are TYPE(C_PTR), VALUE,
/// which is the same call).
type UserFn = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut Fint, *mut Fint);

/// A user op whose function is a Fortran procedure: MPI_Reduce_local calls it with the
/// datatype's Fortran integer.
struct FortranUserFunction(UserFn);

impl UserFunction for FortranUserFunction {
    fn call(&self, input: usize, inout: usize, count: usize, datatype: Datatype) {
        let mut len = Fint::try_from(count).unwrap_or(Fint::MAX);
        let mut datatype = fortran_value::<abi::MPI_Datatype>(datatype)
            .map_or(abi::MPIATTR_HANDLE_MPI_DATATYPE_NULL as Fint, |v| v as Fint);
        // SAFETY: the program's procedure, called in MPI_User_function's convention with the
        // buffers the program passed and references to locals for LEN and DATATYPE.
        unsafe {
            (self.0)(
                input as *mut c_void,
                inout as *mut c_void,
                &mut len,
                &mut datatype,
            )
        }
    }
}

/// The engine's user function for a Fortran procedure passed to MPI_OP_CREATE.
pub(super) fn user_function(function: FortranProc) -> Result<Arc<dyn UserFunction>> {
    let function = function.ok_or(Error::InvalidArgument("user_fn is no procedure"))?;
    // SAFETY: a procedure passed to MPI_OP_CREATE has MPI_User_function's interface.
    let function = unsafe { std::mem::transmute::<unsafe extern "C" fn(), UserFn>(function) };
    Ok(Arc::new(FortranUserFunction(function)))
}

/// A Fortran error handler procedure: the object's handle and the error code, by reference.
type ErrhandlerFn = unsafe extern "C" fn(*mut Fint, *mut Fint);

/// A user error handler whose function is a Fortran procedure: called with the Fortran
/// integer of the object (MPI_FILE_NULL's value for files) and the code.
struct FortranErrhandler(ErrhandlerFn);

impl ErrhandlerFunction for FortranErrhandler {
    fn call(&self, object: ErrhandlerObject, code: &mut i32) {
        let handle = match object {
            ErrhandlerObject::Comm(comm) => fortran_value::<abi::MPI_Comm>(comm),
            ErrhandlerObject::Win(win) => fortran_value::<abi::MPI_Win>(win),
            ErrhandlerObject::Session(session) => fortran_value::<abi::MPI_Session>(session),
            ErrhandlerObject::FileNull => Ok(abi::MPIATTR_HANDLE_MPI_FILE_NULL as i64),
        };
        let mut handle = handle.map_or(0, |v| v as Fint);
        let mut fortran_code = Fint::from(*code);
        // SAFETY: the program's procedure, called in its error handler convention with
        // references to locals.
        unsafe { (self.0)(&mut handle, &mut fortran_code) };
        *code = i32::try_from(fortran_code).unwrap_or(*code);
    }
}

/// The engine's error handler function for a Fortran procedure passed to
/// MPI_*_CREATE_ERRHANDLER.
pub(super) fn errhandler_function(function: FortranProc) -> Result<Arc<dyn ErrhandlerFunction>> {
    let function = function.ok_or(Error::InvalidArgument(
        "the handler function is no procedure",
    ))?;
    // SAFETY: a procedure passed to MPI_*_CREATE_ERRHANDLER has the error handler interface.
    let function = unsafe { std::mem::transmute::<unsafe extern "C" fn(), ErrhandlerFn>(function) };
    Ok(Arc::new(FortranErrhandler(function)))
}

/// MPI_GREQUEST_START's query callback: EXTRA_STATE, STATUS (INTEGER(MPI_STATUS_SIZE) or
/// TYPE(MPI_Status), the same storage), IERROR, all by reference.
type GrequestQueryFn = unsafe extern "C" fn(*mut Word, *mut Fint, *mut Fint);
/// The free callback: EXTRA_STATE, IERROR.
type GrequestFreeFn = unsafe extern "C" fn(*mut Word, *mut Fint);
/// The cancel callback: EXTRA_STATE, COMPLETE (a LOGICAL), IERROR.
type GrequestCancelFn = unsafe extern "C" fn(*mut Word, *mut Fint, *mut Fint);

/// A generalized request whose callbacks are Fortran procedures. The three get a reference
/// to one library-held copy of EXTRA_STATE: what one callback stores there, the next sees.
struct FortranGeneralized {
    query: Option<GrequestQueryFn>,
    free: Option<GrequestFreeFn>,
    cancel: Option<GrequestCancelFn>,
    extra_state: AtomicIsize,
}

/// IERROR as the result of a callback.
fn callback_result(ierror: Fint) -> std::result::Result<(), i32> {
    if ierror == abi::MPI_SUCCESS as Fint {
        Ok(())
    } else {
        Err(error_code(ierror))
    }
}

impl GeneralizedRequest for FortranGeneralized {
    fn query(&self, _: &Universe) -> std::result::Result<Status, i32> {
        // The callback starts from the empty status (as C's) and may set any field of it,
        // through the status routines or directly.
        let mut c_status = abi::MPI_Status {
            MPI_SOURCE: 0,
            MPI_TAG: 0,
            MPI_ERROR: 0,
            MPI_internal: [0; 5],
        };
        // SAFETY: a status we own.
        unsafe { write_status(&mut c_status, &Status::empty()) };
        let mut status = conv::status_to(&c_status);
        if let Some(query) = self.query {
            let mut ierror = abi::MPI_SUCCESS as Fint;
            // SAFETY: the program's procedure in MPI_Grequest_query_function's convention:
            // references to the extra state cell (address-sized, in `self`), to a local
            // status of MPI_STATUS_SIZE INTEGERs and to a local IERROR.
            unsafe { query(self.extra_state.as_ptr(), status.as_mut_ptr(), &mut ierror) };
            callback_result(ierror)?;
        }
        Ok(read_status(&conv::status_from(&status)))
    }

    fn free(&self, _: &Universe) -> std::result::Result<(), i32> {
        let Some(free) = self.free else {
            return Ok(());
        };
        let mut ierror = abi::MPI_SUCCESS as Fint;
        // SAFETY: as for `query`, in MPI_Grequest_free_function's convention.
        unsafe { free(self.extra_state.as_ptr(), &mut ierror) };
        callback_result(ierror)
    }

    fn cancel(&self, _: &Universe, complete: bool) -> std::result::Result<(), i32> {
        let Some(cancel) = self.cancel else {
            return Ok(());
        };
        let mut complete = logical(complete);
        let mut ierror = abi::MPI_SUCCESS as Fint;
        // SAFETY: as for `query`, in MPI_Grequest_cancel_function's convention (COMPLETE a
        // LOGICAL local).
        unsafe { cancel(self.extra_state.as_ptr(), &mut complete, &mut ierror) };
        callback_result(ierror)
    }
}

/// The engine's callbacks for the Fortran procedures passed to MPI_GREQUEST_START.
pub(super) fn generalized_request(
    query: FortranProc,
    free: FortranProc,
    cancel: FortranProc,
    extra_state: Word,
) -> Arc<dyn GeneralizedRequest> {
    // SAFETY (each): a procedure passed to MPI_GREQUEST_START as that callback has the
    // standard's interface for it (MPI_Grequest_query_function ...).
    Arc::new(FortranGeneralized {
        query: query
            .map(|f| unsafe { std::mem::transmute::<unsafe extern "C" fn(), GrequestQueryFn>(f) }),
        free: free
            .map(|f| unsafe { std::mem::transmute::<unsafe extern "C" fn(), GrequestFreeFn>(f) }),
        cancel: cancel
            .map(|f| unsafe { std::mem::transmute::<unsafe extern "C" fn(), GrequestCancelFn>(f) }),
        extra_state: AtomicIsize::new(extra_state),
    })
}
