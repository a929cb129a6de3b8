//! The bodies of the Fortran routines, one per line of fortran/routines.txt, in its order.
//! Each gets its arguments already read (inputs as values, outputs as [`Out`], strings as
//! byte slices) and makes one call into the engine or into what `ffi` shares with C.

use std::ffi::c_int;

use super::callbacks::{errhandler_function, generalized_request, keyval_spec, user_function};
use super::{fill, logical, FortranProc};
use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Info, MPI_Win};
use crate::engine::{
    Comm, Datatype, ErrhandlerKind, Error, Fint, Keyval, Language, Object, ObjectKind, Result,
    ThreadLevel, Win, Word,
};
use crate::ffi::handles::{self, fortran_object, fortran_value, CHandle};
use crate::ffi::{self, universe, Out};

// ---- arguments --------------------------------------------------------------------------

fn comm(value: Fint) -> Result<Comm> {
    fortran_object::<MPI_Comm>(value.into())
}

fn datatype(value: Fint) -> Result<Datatype> {
    fortran_object::<MPI_Datatype>(value.into())
}

fn win(value: Fint) -> Result<Win> {
    fortran_object::<MPI_Win>(value.into())
}

fn info(value: Fint) -> Result<()> {
    handles::check_info(value as usize as MPI_Info)
}

/// A keyval number; one that does not fit an `int` names no keyval.
fn keyval(value: Fint) -> Keyval {
    Keyval(i32::try_from(value).unwrap_or(abi::MPI_KEYVAL_INVALID as i32))
}

/// An `int` argument of the C API given as a Fortran INTEGER (wider when INTEGER is 8 bytes).
fn int(value: Fint, error: Error) -> Result<c_int> {
    c_int::try_from(value).map_err(|_| error)
}

/// Stores a new object's Fortran integer, or the kind's null handle if making it failed.
fn store<H: CHandle>(output: &mut Out<Fint>, made: Result<H::Object>) -> Result<()> {
    let value = made.and_then(|object| fortran_value::<H>(object));
    output.set(value.as_ref().map_or(H::NULL as Fint, |v| *v as Fint));
    value.map(drop)
}

// ---- environment ------------------------------------------------------------------------

pub(super) fn init() -> Result<()> {
    ffi::initialize(ThreadLevel::Single, None)
}

pub(super) fn init_thread(required: Fint, mut provided: Out<Fint>) -> Result<()> {
    let required = c_int::try_from(required).unwrap_or(c_int::MIN);
    ffi::initialize(ThreadLevel::Multiple, Some(required))?;
    provided.set(ffi::thread_level_value(ThreadLevel::Multiple).into());
    Ok(())
}

pub(super) fn abort(comm: Fint, errorcode: Fint) -> Result<()> {
    let name = usize::try_from(comm)
        .ok()
        .and_then(handles::predefined_name)
        .map_or_else(|| comm.to_string(), str::to_string);
    ffi::abort("MPI_ABORT", &name, errorcode.into())
}

pub(super) fn get_library_version(version: &mut [u8], mut resultlen: Out<Fint>) -> Result<()> {
    resultlen.set(fill(version, ffi::LIBRARY_VERSION.as_bytes()));
    Ok(())
}

/// The values of `.TRUE.` and `.FALSE.` for a LOGICAL of LOGICAL_SIZE bytes (1, 2, 4 or 8,
/// else MPI_ERR_ARG, as in C): gfortran's 1 and 0 for every size, stored here as the default
/// LOGICALs the arguments are (never LOGICAL_SIZE bytes into them); IS_SET `.TRUE.`.
pub(super) fn abi_get_fortran_booleans(
    logical_size: Fint,
    mut logical_true: Out<Fint>,
    mut logical_false: Out<Fint>,
    mut is_set: Out<Fint>,
) -> Result<()> {
    if !matches!(logical_size, 1 | 2 | 4 | 8) {
        return Err(Error::InvalidArgument("logical_size is not 1, 2, 4 or 8"));
    }
    universe()?;
    logical_true.set(logical(true));
    logical_false.set(logical(false));
    is_set.set(logical(true));
    Ok(())
}

// ---- communicators ----------------------------------------------------------------------

pub(super) fn comm_get_name(handle: Fint, name: &mut [u8], mut resultlen: Out<Fint>) -> Result<()> {
    let stored = universe()?.comm_name(comm(handle)?)?;
    resultlen.set(fill(name, &stored));
    Ok(())
}

// ---- keyvals and attributes -------------------------------------------------------------

fn create_keyval(
    kind: ObjectKind,
    language: Language,
    copy: FortranProc,
    delete: FortranProc,
    mut keyval: Out<Fint>,
    extra_state: Word,
) -> Result<()> {
    let spec = keyval_spec(kind, language, copy, delete, extra_state)?;
    keyval.set(universe()?.create_keyval(spec)?.0.into());
    Ok(())
}

fn free_keyval(kind: ObjectKind, mut handle: Out<Fint>) -> Result<()> {
    universe()?.free_keyval(kind, keyval(handle.get()))?;
    handle.set(abi::MPI_KEYVAL_INVALID as Fint);
    Ok(())
}

fn set_attr<O: Object>(object: Result<O>, key: Fint, language: Language, word: Word) -> Result<()> {
    universe()?.set_attr(object?, keyval(key), language, word)
}

/// Reads an attribute in `view` (attributes.md §3) and stores it as `T`: the INTEGER view of
/// MPI_ATTR_GET comes sign-extended from the engine and keeps its low-order bits.
fn get_attr<O: Object, T>(
    object: Result<O>,
    key: Fint,
    view: Language,
    mut value: Out<T>,
    mut flag: Out<Fint>,
    narrow: impl FnOnce(Word) -> T,
) -> Result<()> {
    match universe()?.get_attr(object?, keyval(key), view)? {
        Some(word) => {
            value.set(narrow(word));
            flag.set(logical(true));
        }
        None => flag.set(logical(false)),
    }
    Ok(())
}

fn delete_attr<O: Object>(object: Result<O>, key: Fint) -> Result<()> {
    universe()?.delete_attr(object?, keyval(key))
}

/// The five keyval and attribute routines of one object kind (address-kind values).
macro_rules! attribute_routines {
    ($kind:ident, $object:ident, $create:ident, $free:ident, $set:ident, $get:ident, $delete:ident) => {
        pub(super) fn $create(
            copy: FortranProc,
            delete: FortranProc,
            keyval: Out<Fint>,
            extra_state: Word,
        ) -> Result<()> {
            let language = Language::FortranAddress;
            create_keyval(
                ObjectKind::$kind,
                language,
                copy,
                delete,
                keyval,
                extra_state,
            )
        }

        pub(super) fn $free(keyval: Out<Fint>) -> Result<()> {
            free_keyval(ObjectKind::$kind, keyval)
        }

        pub(super) fn $set(handle: Fint, key: Fint, value: Word) -> Result<()> {
            set_attr($object(handle), key, Language::FortranAddress, value)
        }

        pub(super) fn $get(
            handle: Fint,
            key: Fint,
            value: Out<Word>,
            flag: Out<Fint>,
        ) -> Result<()> {
            get_attr(
                $object(handle),
                key,
                Language::FortranAddress,
                value,
                flag,
                |w| w,
            )
        }

        pub(super) fn $delete(handle: Fint, key: Fint) -> Result<()> {
            delete_attr($object(handle), key)
        }
    };
}

attribute_routines!(
    Comm,
    comm,
    comm_create_keyval,
    comm_free_keyval,
    comm_set_attr,
    comm_get_attr,
    comm_delete_attr
);
attribute_routines!(
    Datatype,
    datatype,
    type_create_keyval,
    type_free_keyval,
    type_set_attr,
    type_get_attr,
    type_delete_attr
);
attribute_routines!(
    Win,
    win,
    win_create_keyval,
    win_free_keyval,
    win_set_attr,
    win_get_attr,
    win_delete_attr
);

pub(super) fn keyval_create(
    copy: FortranProc,
    delete: FortranProc,
    keyval: Out<Fint>,
    extra_state: Fint,
) -> Result<()> {
    let language = Language::FortranInteger;
    create_keyval(
        ObjectKind::Comm,
        language,
        copy,
        delete,
        keyval,
        extra_state as Word,
    )
}

pub(super) fn keyval_free(keyval: Out<Fint>) -> Result<()> {
    free_keyval(ObjectKind::Comm, keyval)
}

pub(super) fn attr_put(handle: Fint, key: Fint, value: Fint) -> Result<()> {
    set_attr(comm(handle), key, Language::FortranInteger, value as Word)
}

pub(super) fn attr_get(handle: Fint, key: Fint, value: Out<Fint>, flag: Out<Fint>) -> Result<()> {
    get_attr(
        comm(handle),
        key,
        Language::FortranInteger,
        value,
        flag,
        |w| w as Fint,
    )
}

pub(super) fn attr_delete(handle: Fint, key: Fint) -> Result<()> {
    delete_attr(comm(handle), key)
}

// ---- datatypes --------------------------------------------------------------------------

// ---- datatypes --------------------------------------------------------------------------
// By hand: with 8-byte INTEGERs a Fortran count or size may exceed a C `int`, which the C
// bodies take.

pub(super) fn type_contiguous(count: Fint, old: Fint, mut newtype: Out<Fint>) -> Result<()> {
    let count = usize::try_from(count).map_err(|_| Error::InvalidCount)?;
    let new = universe()?.type_contiguous(count, datatype(old)?)?;
    store::<MPI_Datatype>(&mut newtype, Ok(new))
}

pub(super) fn type_size(handle: Fint, mut size: Out<Fint>) -> Result<()> {
    let bytes = universe()?.type_size(datatype(handle)?)?;
    size.set(Fint::try_from(bytes).unwrap_or(abi::MPI_UNDEFINED as Fint));
    Ok(())
}

// ---- windows and memory -----------------------------------------------------------------

pub(super) fn win_create(
    base: usize,
    size: Word,
    disp_unit: Fint,
    hints: Fint,
    handle: Fint,
    mut new: Out<Fint>,
) -> Result<()> {
    info(hints)?;
    let disp_unit = int(disp_unit, Error::InvalidDisp)?;
    let made = universe()?.win_create(comm(handle)?, base, size, disp_unit)?;
    store::<MPI_Win>(&mut new, Ok(made))
}

pub(super) fn win_allocate(
    size: Word,
    disp_unit: Fint,
    hints: Fint,
    handle: Fint,
    mut baseptr: Out<Word>,
    mut new: Out<Fint>,
) -> Result<()> {
    info(hints)?;
    let disp_unit = int(disp_unit, Error::InvalidDisp)?;
    let (made, base) = universe()?.win_allocate(comm(handle)?, size, disp_unit)?;
    baseptr.set(base as Word);
    store::<MPI_Win>(&mut new, Ok(made))
}

pub(super) fn get_address(location: usize, mut address: Out<Word>) -> Result<()> {
    universe()?;
    address.set(location as Word);
    Ok(())
}

pub(super) fn alloc_mem(size: Word, hints: Fint, mut baseptr: Out<Word>) -> Result<()> {
    info(hints)?;
    let size = usize::try_from(size).map_err(|_| Error::InvalidSize)?;
    baseptr.set(universe()?.alloc_mem(size)? as Word);
    Ok(())
}

pub(super) fn free_mem(base: usize) -> Result<()> {
    ffi::free_mem(base)
}

// ---- errors -----------------------------------------------------------------------------

pub(super) fn error_string(code: Fint, string: &mut [u8], mut resultlen: Out<Fint>) -> Result<()> {
    let code = int(code, Error::InvalidErrorCode)?;
    let text = match ffi::error_string(code) {
        Ok(text) => text.into_bytes(),
        Err(error) => ffi::existing()
            .and_then(|universe| universe.error_string(code))
            .map_err(|_| error)?,
    };
    resultlen.set(fill(string, &text));
    Ok(())
}

/// A user error handler of `kind` calling a Fortran procedure; its Fortran integer.
fn create_errhandler(
    kind: ErrhandlerKind,
    function: FortranProc,
    mut errhandler: Out<Fint>,
) -> Result<()> {
    // Session handlers can be made at any time (MPI-4.1 §12.4.1), the others while the
    // universe is open.
    let universe = if kind == ErrhandlerKind::Session {
        ffi::anytime()?
    } else {
        universe()?
    };
    let handler = universe.errhandler_create(kind, errhandler_function(function)?)?;
    let value = handles::errhandler_to_fortran(ffi::errhandler_value(handler));
    errhandler.set(value as Fint);
    Ok(())
}

pub(super) fn comm_create_errhandler(function: FortranProc, errhandler: Out<Fint>) -> Result<()> {
    create_errhandler(ErrhandlerKind::Comm, function, errhandler)
}

pub(super) fn win_create_errhandler(function: FortranProc, errhandler: Out<Fint>) -> Result<()> {
    create_errhandler(ErrhandlerKind::Win, function, errhandler)
}

pub(super) fn session_create_errhandler(
    function: FortranProc,
    errhandler: Out<Fint>,
) -> Result<()> {
    create_errhandler(ErrhandlerKind::Session, function, errhandler)
}

pub(super) fn file_create_errhandler(function: FortranProc, errhandler: Out<Fint>) -> Result<()> {
    create_errhandler(ErrhandlerKind::File, function, errhandler)
}

// ---- reduction operations -----------------------------------------------------------------

/// A user op calling a Fortran procedure; COMMUTE is a LOGICAL.
pub(super) fn op_create(function: FortranProc, commute: Fint, mut op: Out<Fint>) -> Result<()> {
    let made = universe()?.op_create(user_function(function)?, commute != 0);
    store::<abi::MPI_Op>(&mut op, made)
}

// ---- generalized requests -----------------------------------------------------------------

/// A generalized request whose callbacks are Fortran procedures.
pub(super) fn grequest_start(
    query: FortranProc,
    free: FortranProc,
    cancel: FortranProc,
    extra_state: Word,
    mut request: Out<Fint>,
) -> Result<()> {
    let universe = universe()?;
    let made = universe.grequest_start(generalized_request(query, free, cancel, extra_state))?;
    store::<abi::MPI_Request>(&mut request, Ok(made))
}

/// The common cases of the attribute routines, on the raw arguments and without any call:
/// `None` sends the routine the whole way (which also reports every error).
pub(super) mod fast {
    use std::ffi::c_int;

    use super::{keyval, logical};
    use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Win};
    use crate::engine::{Fint, Language, Object, Word};
    use crate::ffi::current;
    use crate::ffi::handles::{fortran_index, generation_matches, CHandle};

    /// A get: the object's value in `view`, narrowed to the output's width.
    ///
    /// # Safety
    /// Every pointer is NULL or a valid Fortran reference.
    #[inline(always)]
    unsafe fn get<H: CHandle, T>(
        handle: *const Fint,
        key: *const Fint,
        value: *mut T,
        flag: *mut Fint,
        view: Language,
        narrow: fn(Word) -> T,
    ) -> Option<c_int>
    where
        H::Object: Object,
    {
        // Each reference checked where it is used, not all four at once (which compilers
        // vectorize into more instructions than the checks).
        if handle.is_null() || key.is_null() {
            return None;
        }
        // SAFETY: non-null references (checked), valid (the caller's contract).
        let (handle, key) = unsafe { (handle.read(), key.read()) };
        let (index, code) = fortran_index::<H>(handle.into())?;
        let found = current()?.get_attr_fast_at::<H::Object>(
            index,
            |id| generation_matches(code, id),
            keyval(key),
            view,
        )?;
        if value.is_null() || flag.is_null() {
            return None;
        }
        // SAFETY: as above, for writes.
        unsafe {
            if let Some(word) = found {
                value.write(narrow(word));
            }
            flag.write(logical(found.is_some()));
        }
        Some(abi::MPI_SUCCESS as c_int)
    }

    /// A set of a value the engine's fast path takes (a new value, or one replacing a value
    /// without delete callback) in `language`.
    ///
    /// # Safety
    /// As for [`get`].
    #[inline(always)]
    unsafe fn set<H: CHandle, T: Copy + Into<i64>>(
        handle: *const Fint,
        key: *const Fint,
        value: *const T,
        language: Language,
    ) -> Option<c_int>
    where
        H::Object: Object,
    {
        if handle.is_null() || key.is_null() || value.is_null() {
            return None;
        }
        // SAFETY: non-null references (checked), valid (the caller's contract).
        let (handle, key, value) = unsafe { (handle.read(), key.read(), value.read()) };
        let (universe, key, word) = (current()?, keyval(key), value.into() as Word);
        let (index, code) = fortran_index::<H>(handle.into())?;
        universe.set_attr_fast_at::<H::Object>(
            index,
            |id| generation_matches(code, id),
            key,
            language,
            word,
        )?;
        Some(abi::MPI_SUCCESS as c_int)
    }

    macro_rules! fast_attribute_routines {
        ($($handle:ty: $get:ident, $set:ident;)*) => {$(
            /// # Safety
            /// Fortran references, as for the routine.
            #[inline(always)]
            pub(in super::super) unsafe fn $get(
                handle: *const Fint,
                key: *const Fint,
                value: *mut Word,
                flag: *mut Fint,
            ) -> Option<c_int> {
                // SAFETY: the caller's contract.
                unsafe { get::<$handle, Word>(handle, key, value, flag, Language::FortranAddress, |w| w) }
            }

            /// # Safety
            /// Fortran references, as for the routine.
            #[inline(always)]
            pub(in super::super) unsafe fn $set(
                handle: *const Fint,
                key: *const Fint,
                value: *const Word,
            ) -> Option<c_int> {
                // SAFETY: the caller's contract.
                unsafe { set::<$handle, i64>(handle, key, value.cast(), Language::FortranAddress) }
            }
        )*};
    }

    fast_attribute_routines! {
        MPI_Comm: comm_get_attr, comm_set_attr;
        MPI_Datatype: type_get_attr, type_set_attr;
        MPI_Win: win_get_attr, win_set_attr;
    }

    /// # Safety
    /// Fortran references, as for MPI_ATTR_GET.
    #[inline(always)]
    pub(in super::super) unsafe fn attr_get(
        handle: *const Fint,
        key: *const Fint,
        value: *mut Fint,
        flag: *mut Fint,
    ) -> Option<c_int> {
        // SAFETY: the caller's contract.
        unsafe {
            get::<MPI_Comm, Fint>(handle, key, value, flag, Language::FortranInteger, |w| {
                w as Fint
            })
        }
    }

    /// # Safety
    /// Fortran references, as for MPI_ATTR_PUT.
    #[inline(always)]
    pub(in super::super) unsafe fn attr_put(
        handle: *const Fint,
        key: *const Fint,
        value: *const Fint,
    ) -> Option<c_int> {
        // SAFETY: the caller's contract.
        unsafe { set::<MPI_Comm, Fint>(handle, key, value, Language::FortranInteger) }
    }
}
