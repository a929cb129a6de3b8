//! User reduction operations (MPI-4.1 §6.9.5): MPI_Op_create (and its large-count form),
//! MPI_Op_free, MPI_Op_commutative, MPI_Op_c2f and MPI_Op_f2c; the C shell over
//! src/engine/ops.rs.
//!
//! The engine keeps a user op as an opaque [`UserFunction`]: here, a closure around the C
//! function pointer that calls it with the C calling convention (`(invec, inoutvec, &len,
//! &datatype)`, the datatype as its C handle). The Fortran bindings wrap their own
//! convention the same way.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use super::handles::{self, encode_handle, from_fortran, to_fortran};
use super::{universe, Out};
use crate::abi::{self, MPI_Datatype, MPI_Fint, MPI_Op};
use crate::engine::{Datatype, Error, Result, UserFunction};

/// The C function of MPI_Op_create.
type CFunction = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Datatype);
/// The C function of MPI_Op_create_c.
type CFunctionLarge =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut abi::MPI_Count, *mut MPI_Datatype);

/// A C user function of MPI_Op_create. MPI_Reduce_local calls it once with the program's
/// own buffers; `count` comes from an `int` argument, so it fits an `int`.
struct CUserFunction(CFunction);

impl UserFunction for CUserFunction {
    fn call(&self, input: usize, inout: usize, count: usize, datatype: Datatype) {
        let mut len = c_int::try_from(count).unwrap_or(c_int::MAX);
        let mut datatype: MPI_Datatype = encode_handle(datatype);
        // SAFETY: the program's function, called as MPI_User_function with the buffers the
        // program passed and pointers to locals for the count and the datatype.
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

/// A C user function of MPI_Op_create_c (an `MPI_Count` length).
struct CUserFunctionLarge(CFunctionLarge);

impl UserFunction for CUserFunctionLarge {
    fn call(&self, input: usize, inout: usize, count: usize, datatype: Datatype) {
        let mut len = abi::MPI_Count::try_from(count).unwrap_or(abi::MPI_Count::MAX);
        let mut datatype: MPI_Datatype = encode_handle(datatype);
        // SAFETY: as for CUserFunction, with MPI_User_function_c's signature.
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

fn create(function: Arc<dyn UserFunction>, commute: c_int, op: &mut Out<MPI_Op>) -> Result<()> {
    op.set(encode_handle(
        universe()?.op_create(function, commute != 0)?,
    ));
    Ok(())
}

/// A user op calling `user_fn` (MPI_User_function); `commute` non-zero says it is
/// commutative. A NULL function is MPI_ERR_ARG.
pub(super) fn op_create(
    user_fn: abi::MPI_User_function,
    commute: c_int,
    op: &mut Out<MPI_Op>,
) -> Result<()> {
    let function = user_fn.ok_or(Error::InvalidArgument("user_fn is NULL"))?;
    create(Arc::new(CUserFunction(function)), commute, op)
}

/// MPI_Op_create_c: as [`op_create`], with a function taking an `MPI_Count` length.
pub(super) fn op_create_c(
    user_fn: abi::MPI_User_function_c,
    commute: c_int,
    op: &mut Out<MPI_Op>,
) -> Result<()> {
    let function = user_fn.ok_or(Error::InvalidArgument("user_fn is NULL"))?;
    create(Arc::new(CUserFunctionLarge(function)), commute, op)
}

/// Frees a user op and sets the handle to MPI_OP_NULL; a predefined, null or freed op is
/// MPI_ERR_OP.
pub(super) fn op_free(op: &mut Out<MPI_Op>) -> Result<()> {
    universe()?.op_free(handles::op(op.get())?)?;
    op.set(handles::null());
    Ok(())
}

/// Whether an op is commutative: 1 for the predefined ones, what MPI_Op_create was told for
/// a user op.
pub(super) fn op_commutative(op: MPI_Op, commute: &mut Out<c_int>) -> Result<()> {
    let commutative = universe()?.op_commutative(handles::op(op)?)?;
    commute.set(c_int::from(commutative));
    Ok(())
}

/// The Fortran integer of an op.
pub(super) fn op_c2f(op: MPI_Op) -> MPI_Fint {
    to_fortran(op) as MPI_Fint
}

/// The op of a Fortran integer (MPI_OP_NULL if it names none).
pub(super) fn op_f2c(op: MPI_Fint) -> MPI_Op {
    from_fortran(i64::from(op))
}
