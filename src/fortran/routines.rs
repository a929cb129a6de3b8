//! The bodies of the Fortran routines, one per line of fortran/routines.txt, in its order.
//! Each gets its arguments already read (inputs as values, outputs as [`Out`], strings as
//! byte slices) and makes one call into the engine or into what `ffi` shares with C.

use std::ffi::c_int;

use super::callbacks::keyval_spec;
use super::{fill, logical, trim_blanks, FortranProc, Status};
use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Info, MPI_Request, MPI_Win};
use crate::engine::{
    Comm, Datatype, Error, Fint, Keyval, Language, Object, ObjectKind, Request, Result,
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

fn request(value: Fint) -> Result<Request> {
    fortran_object::<MPI_Request>(value.into())
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

fn null<H: CHandle>() -> Fint {
    H::NULL as Fint
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

pub(super) fn query_thread(mut provided: Out<Fint>) -> Result<()> {
    provided.set(ffi::thread_level_value(universe()?.thread_level()).into());
    Ok(())
}

pub(super) fn is_thread_main(mut flag: Out<Fint>) -> Result<()> {
    flag.set(logical(universe()?.is_main_thread()));
    Ok(())
}

pub(super) fn finalize() -> Result<()> {
    ffi::finalize()
}

pub(super) fn initialized(mut flag: Out<Fint>) -> Result<()> {
    flag.set(logical(ffi::initialized()));
    Ok(())
}

pub(super) fn finalized(mut flag: Out<Fint>) -> Result<()> {
    flag.set(logical(ffi::finalized()));
    Ok(())
}

pub(super) fn abort(comm: Fint, errorcode: Fint) -> Result<()> {
    let name = usize::try_from(comm)
        .ok()
        .and_then(handles::predefined_name)
        .map_or_else(|| comm.to_string(), str::to_string);
    ffi::abort("MPI_ABORT", &name, errorcode.into())
}

pub(super) fn get_version(mut version: Out<Fint>, mut subversion: Out<Fint>) -> Result<()> {
    version.set(abi::MPI_VERSION as Fint);
    subversion.set(abi::MPI_SUBVERSION as Fint);
    Ok(())
}

pub(super) fn get_library_version(version: &mut [u8], mut resultlen: Out<Fint>) -> Result<()> {
    resultlen.set(fill(version, ffi::LIBRARY_VERSION.as_bytes()));
    Ok(())
}

pub(super) fn wtime() -> f64 {
    ffi::wtime()
}

pub(super) fn wtick() -> f64 {
    ffi::WTICK
}

// ---- communicators ----------------------------------------------------------------------

pub(super) fn comm_dup(old: Fint, mut newcomm: Out<Fint>) -> Result<()> {
    store::<MPI_Comm>(
        &mut newcomm,
        comm(old).and_then(|c| universe()?.comm_dup(c)),
    )
}

pub(super) fn comm_dup_with_info(old: Fint, hints: Fint, mut newcomm: Out<Fint>) -> Result<()> {
    info(hints)?;
    store::<MPI_Comm>(
        &mut newcomm,
        comm(old).and_then(|c| universe()?.comm_dup(c)),
    )
}

pub(super) fn comm_idup(old: Fint, mut newcomm: Out<Fint>, mut done: Out<Fint>) -> Result<()> {
    let made = comm(old).and_then(|c| universe()?.comm_idup(c));
    let request = made
        .as_ref()
        .map(|(_, request)| *request)
        .map_err(Clone::clone);
    store::<MPI_Comm>(&mut newcomm, made.map(|(new, _)| new))?;
    store::<MPI_Request>(&mut done, request)
}

/// MPI_WAIT and MPI_TEST: the request is complete; it becomes MPI_REQUEST_NULL and the
/// status is empty.
fn complete(mut handle: Out<Fint>, mut status: Out<Status>) -> Result<()> {
    let value = handle.get();
    let pending = (value != null::<MPI_Request>()).then(|| request(value));
    ffi::complete_request(pending)?;
    handle.set(null::<MPI_Request>());
    let mut empty: Status = Default::default();
    empty[abi::MPI_F_SOURCE as usize] = abi::MPI_ANY_SOURCE as Fint;
    empty[abi::MPI_F_TAG as usize] = abi::MPI_ANY_TAG as Fint;
    empty[abi::MPI_F_ERROR as usize] = abi::MPI_SUCCESS as Fint;
    status.set(empty);
    Ok(())
}

pub(super) fn wait(handle: Out<Fint>, status: Out<Status>) -> Result<()> {
    complete(handle, status)
}

pub(super) fn test(handle: Out<Fint>, mut flag: Out<Fint>, status: Out<Status>) -> Result<()> {
    complete(handle, status)?;
    flag.set(logical(true));
    Ok(())
}

pub(super) fn request_free(mut handle: Out<Fint>) -> Result<()> {
    universe()?.request_complete(request(handle.get())?)?;
    handle.set(null::<MPI_Request>());
    Ok(())
}

pub(super) fn comm_split(old: Fint, color: Fint, key: Fint, mut newcomm: Out<Fint>) -> Result<()> {
    let _ = key;
    match ffi::comm_split(comm(old), color.into())? {
        Some(new) => store::<MPI_Comm>(&mut newcomm, Ok(new)),
        None => {
            newcomm.set(null::<MPI_Comm>());
            Ok(())
        }
    }
}

pub(super) fn comm_free(mut handle: Out<Fint>) -> Result<()> {
    universe()?.comm_free(comm(handle.get())?)?;
    handle.set(null::<MPI_Comm>());
    Ok(())
}

pub(super) fn comm_rank(handle: Fint, mut rank: Out<Fint>) -> Result<()> {
    ffi::live_comm(comm(handle))?;
    rank.set(0);
    Ok(())
}

pub(super) fn comm_size(handle: Fint, mut size: Out<Fint>) -> Result<()> {
    ffi::live_comm(comm(handle))?;
    size.set(1);
    Ok(())
}

pub(super) fn comm_compare(first: Fint, second: Fint, mut result: Out<Fint>) -> Result<()> {
    result.set(ffi::comm_compare(comm(first), comm(second))?.into());
    Ok(())
}

pub(super) fn comm_set_name(handle: Fint, name: &[u8]) -> Result<()> {
    let name = ffi::object_name(trim_blanks(name));
    universe()?.set_comm_name(comm(handle)?, name)
}

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

pub(super) fn type_dup(old: Fint, mut newtype: Out<Fint>) -> Result<()> {
    store::<MPI_Datatype>(
        &mut newtype,
        datatype(old).and_then(|d| universe()?.type_dup(d)),
    )
}

pub(super) fn type_contiguous(count: Fint, old: Fint, mut newtype: Out<Fint>) -> Result<()> {
    let count = usize::try_from(count).map_err(|_| Error::InvalidCount)?;
    let new = universe()?.type_contiguous(count, datatype(old)?)?;
    store::<MPI_Datatype>(&mut newtype, Ok(new))
}

pub(super) fn type_commit(handle: Out<Fint>) -> Result<()> {
    universe()?.type_commit(datatype(handle.get())?)
}

pub(super) fn type_free(mut handle: Out<Fint>) -> Result<()> {
    universe()?.type_free(datatype(handle.get())?)?;
    handle.set(null::<MPI_Datatype>());
    Ok(())
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

pub(super) fn win_create_dynamic(hints: Fint, handle: Fint, mut new: Out<Fint>) -> Result<()> {
    info(hints)?;
    let made = universe()?.win_create_dynamic(comm(handle)?)?;
    store::<MPI_Win>(&mut new, Ok(made))
}

pub(super) fn win_free(mut handle: Out<Fint>) -> Result<()> {
    universe()?.win_free(win(handle.get())?)?;
    handle.set(null::<MPI_Win>());
    Ok(())
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

pub(super) fn error_class(code: Fint, mut class: Out<Fint>) -> Result<()> {
    let code = int(code, Error::InvalidErrorCode)?;
    class.set(ffi::class_of(code)? as Fint);
    Ok(())
}

pub(super) fn error_string(code: Fint, string: &mut [u8], mut resultlen: Out<Fint>) -> Result<()> {
    let text = ffi::error_string(int(code, Error::InvalidErrorCode)?)?;
    resultlen.set(fill(string, text.as_bytes()));
    Ok(())
}

/// An error handler integer: the same value as the C handle.
fn handler_value(value: Fint) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

pub(super) fn comm_set_errhandler(handle: Fint, errhandler: Fint) -> Result<()> {
    ffi::set_comm_errhandler(comm(handle), handler_value(errhandler))
}

pub(super) fn comm_get_errhandler(handle: Fint, mut errhandler: Out<Fint>) -> Result<()> {
    let handler = ffi::comm_errhandler(comm(handle))?;
    errhandler.set(ffi::errhandler_value(handler) as Fint);
    Ok(())
}

pub(super) fn win_set_errhandler(handle: Fint, errhandler: Fint) -> Result<()> {
    let handler = ffi::errhandler_from_value(handler_value(errhandler))?;
    universe()?.set_errhandler(win(handle)?, handler)
}

pub(super) fn win_get_errhandler(handle: Fint, mut errhandler: Out<Fint>) -> Result<()> {
    let handler = universe()?.errhandler(win(handle)?)?;
    errhandler.set(ffi::errhandler_value(handler) as Fint);
    Ok(())
}

pub(super) fn errhandler_free(mut errhandler: Out<Fint>) -> Result<()> {
    ffi::errhandler_free(handler_value(errhandler.get()))?;
    errhandler.set(abi::MPIATTR_HANDLE_MPI_ERRHANDLER_NULL as Fint);
    Ok(())
}

/// The common cases of the attribute routines, on the raw arguments and without any call:
/// `None` sends the routine the whole way (which also reports every error).
pub(super) mod fast {
    use std::ffi::c_int;

    use super::{keyval, logical};
    use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Win};
    use crate::engine::{Fint, Language, Object, Word};
    use crate::ffi::current;
    use crate::ffi::handles::{fortran_ref, generation_matches, CHandle, FortranRef};

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
        if handle.is_null() || key.is_null() || value.is_null() || flag.is_null() {
            return None;
        }
        // SAFETY: non-null references (checked), valid (the caller's contract).
        let (handle, key) = unsafe { (handle.read(), key.read()) };
        let universe = current()?;
        let found = match fortran_ref::<H>(handle.into())? {
            FortranRef::Object(object) => universe.get_attr_fast(object, keyval(key), view)?,
            FortranRef::Index { index, code } => universe.get_attr_fast_at::<H::Object>(
                index,
                |id| generation_matches(code, id),
                keyval(key),
                view,
            )?,
        };
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
        match fortran_ref::<H>(handle.into())? {
            FortranRef::Object(object) => universe.set_attr_fast(object, key, language, word)?,
            FortranRef::Index { index, code } => universe.set_attr_fast_at::<H::Object>(
                index,
                |id| generation_matches(code, id),
                key,
                language,
                word,
            )?,
        }
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
