//! Collectives on a communicator of one process (MPI-4.1 chapter 6) and MPI_Reduce_local:
//! the C shell over src/engine/collectives.rs and src/engine/ops.rs.
//!
//! The engine checks the arguments and says what moves (a [`Transfer`]); this shell copies
//! it. As in src/capi/p2p.rs, every datatype so far is laid out contiguously, so a block of
//! elements is its bytes. A predefined datatype's signature is its basic kind; a derived
//! datatype's is taken as its bytes (`MPI_BYTE`), since the engine keeps only its size until
//! the datatype engine records type maps: reductions on derived datatypes are refused with
//! `MPI_ERR_OP` until then.

use std::ffi::{c_int, c_void};

use super::handles;
use super::p2p::{describe, input, output_address, Described};
use super::universe;
use crate::abi::{self, MPI_Comm, MPI_Datatype, MPI_Op};
use crate::engine::basic::predefined_kind;
use crate::engine::{
    BasicKind, Error, HandleProblem, Op, OpCall, Place, Result, Side, Transfer, Universe,
};

/// A buffer argument: `MPI_IN_PLACE` or an address.
fn in_place(buf: *const c_void) -> bool {
    buf as usize == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize
}

/// The signature of one element of a described datatype.
fn signature(handle: MPI_Datatype, described: &Described) -> Vec<BasicKind> {
    let size = if described.count == 0 {
        0
    } else {
        described.bytes / described.count as usize
    };
    match handles::predefined_name(handle as usize).and_then(predefined_kind) {
        Some(kind) => vec![kind],
        None => vec![BasicKind::Byte; size],
    }
}

/// A checked buffer argument with its signature (empty for `MPI_IN_PLACE`).
struct Arg {
    described: Option<Described>,
    signature: Vec<BasicKind>,
    address: usize,
}

impl Arg {
    fn new(buf: *const c_void, count: c_int, datatype: MPI_Datatype) -> Result<Arg> {
        if in_place(buf) {
            return Ok(Arg {
                described: None,
                signature: Vec::new(),
                address: buf as usize,
            });
        }
        let described = describe(count, datatype)?;
        let signature = signature(datatype, &described);
        Ok(Arg {
            described: Some(described),
            signature,
            address: buf as usize,
        })
    }

    fn side(&self) -> Side<'_> {
        match &self.described {
            None => Side::InPlace,
            Some(d) => Side::Data {
                count: d.count,
                datatype: d.datatype,
                signature: &self.signature,
            },
        }
    }

    /// The size of one element.
    fn element(&self) -> usize {
        self.signature.iter().map(|k| k.size()).sum()
    }
}

/// Copies what a collective moves from `send` to `recv`.
///
/// # Safety
/// The buffers hold what their counts and datatypes describe (the caller's MPI contract).
unsafe fn apply(moved: Option<Transfer>, send: &Arg, recv: &Arg) -> Result<()> {
    let Some(moved) = moved else {
        return Ok(());
    };
    let from = send.address + moved.send_displacement as usize * send.element();
    let to = recv.address + moved.recv_displacement as usize * recv.element();
    // SAFETY: the caller's contract; `moved.bytes` lie in both buffers.
    let bytes = unsafe { input(from as *const c_void, moved.bytes, "the send buffer")? };
    output_address(to as *mut c_void, moved.bytes, "the receive buffer")?;
    if !bytes.is_empty() && from != to {
        // SAFETY: valid for `moved.bytes` bytes each; `copy` allows overlap.
        unsafe { std::ptr::copy(bytes.as_ptr(), to as *mut u8, moved.bytes) };
    }
    Ok(())
}

fn op_of(op: MPI_Op) -> Result<Op> {
    Universe::predefined_op(op as usize).ok_or(Error::InvalidOp(HandleProblem::Unknown))
}

/// A reduction's two buffers: the send buffer may be `MPI_IN_PLACE`.
fn reduction(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> Result<(Place, Arg, Arg)> {
    let recv = Arg::new(recvbuf, count, datatype)?;
    if in_place(recvbuf) {
        return Err(Error::InPlace("the receive buffer"));
    }
    let (place, send) = if in_place(sendbuf) {
        (Place::InPlace, Arg::new(recvbuf, count, datatype)?)
    } else {
        (Place::Buffer, Arg::new(sendbuf, count, datatype)?)
    };
    Ok((place, send, recv))
}

/// Which reduction a body runs.
type ReductionFn = fn(
    &Universe,
    crate::engine::Comm,
    Place,
    Place,
    i64,
    crate::engine::Datatype,
    &[BasicKind],
    Op,
) -> Result<Option<Transfer>>;

/// The body of MPI_Allreduce, MPI_Scan and MPI_Exscan.
///
/// # Safety
/// The buffers hold what their counts and datatype describe.
unsafe fn rootless_reduction(
    method: ReductionFn,
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let (place, send, recv) = reduction(sendbuf, recvbuf, count, datatype)?;
    let datatype = recv
        .described
        .as_ref()
        .map(|d| d.datatype)
        .ok_or(Error::InPlace("the receive buffer"))?;
    let moved = method(
        universe,
        comm,
        place,
        Place::Buffer,
        i64::from(count),
        datatype,
        &recv.signature,
        op_of(op)?,
    )?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv) }
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Reduces across the one process: the receive buffer gets the send buffer's values.
pub(super) unsafe fn allreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        rootless_reduction(
            Universe::allreduce,
            sendbuf,
            recvbuf,
            count,
            datatype,
            op,
            comm,
        )
    }
}

/// The inclusive prefix reduction: on one process, the send buffer's values.
pub(super) unsafe fn scan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { rootless_reduction(Universe::scan, sendbuf, recvbuf, count, datatype, op, comm) }
}

/// The exclusive prefix reduction: on rank 0 the receive buffer is left as it is.
pub(super) unsafe fn exscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        rootless_reduction(
            Universe::exscan,
            sendbuf,
            recvbuf,
            count,
            datatype,
            op,
            comm,
        )
    }
}

/// Returns at once: the one process has arrived.
pub(super) fn barrier(comm: MPI_Comm) -> Result<()> {
    universe()?.barrier(handles::comm(comm)?)
}

/// The root is the only process: nothing moves, the arguments are checked.
pub(super) fn bcast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let buffer = Arg::new(buffer, count, datatype)?;
    universe.bcast(comm, buffer.side(), root)
}

/// Reduces to the root (rank 0): its receive buffer gets the send buffer's values.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let (place, send, recv) = reduction(sendbuf, recvbuf, count, datatype)?;
    let datatype = recv
        .described
        .as_ref()
        .map(|d| d.datatype)
        .ok_or(Error::InPlace("the receive buffer"))?;
    let moved = universe.reduce(
        comm,
        place,
        Place::Buffer,
        i64::from(count),
        datatype,
        &recv.signature,
        op_of(op)?,
        root,
    )?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv) }
}

/// The body of the collectives that move one block (gather, scatter, allgather, alltoall):
/// the engine checks the two sides and says what moves.
///
/// # Safety
/// The buffers hold what their counts and datatypes describe.
#[allow(clippy::too_many_arguments)] // the standard's argument list, and the engine call
unsafe fn one_block(
    moves: impl FnOnce(&Universe, crate::engine::Comm, Side<'_>, Side<'_>) -> Result<Option<Transfer>>,
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let send = Arg::new(sendbuf, sendcount, sendtype)?;
    let recv = Arg::new(recvbuf, recvcount, recvtype)?;
    let moved = moves(universe, comm, send.side(), recv.side())?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv) }
}

/// Gathers to the root: block 0 of its receive buffer gets the send data.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        one_block(
            |universe, comm, send, recv| universe.gather(comm, send, recv, root),
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            comm,
        )
    }
}

/// Scatters from the root: block 0 of its send buffer goes to its receive buffer.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        one_block(
            |universe, comm, send, recv| universe.scatter(comm, send, recv, root),
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            comm,
        )
    }
}

/// Gathers to every process: block 0 of the receive buffer gets the send data.
pub(super) unsafe fn allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        one_block(
            |universe, comm, send, recv| universe.allgather(comm, send, recv),
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            comm,
        )
    }
}

/// Every process sends a block to every other: on one process, block 0 to block 0.
pub(super) unsafe fn alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        one_block(
            |universe, comm, send, recv| universe.alltoall(comm, send, recv),
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            comm,
        )
    }
}

/// Applies a predefined op locally: `inoutbuf[i] = inbuf[i] op inoutbuf[i]`.
pub(super) unsafe fn reduce_local(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> Result<()> {
    let universe = universe()?;
    if in_place(inbuf) || in_place(inoutbuf) {
        return Err(Error::InPlace("a buffer of MPI_Reduce_local"));
    }
    let inout = Arg::new(inoutbuf, count, datatype)?;
    let described = inout
        .described
        .as_ref()
        .ok_or(Error::InPlace("a buffer of MPI_Reduce_local"))?;
    let call = universe.reduce_local(
        op_of(op)?,
        i64::from(count),
        described.datatype,
        &inout.signature,
    )?;
    let OpCall::Predefined(predefined) = call else {
        return Err(Error::Internal("user ops are not reachable from C yet"));
    };
    // SAFETY: the buffers the program named, `described.bytes` long each.
    let input = unsafe { input(inbuf, described.bytes, "inbuf")? }.to_vec();
    output_address(inoutbuf, described.bytes, "inoutbuf")?;
    if described.bytes == 0 {
        return Ok(());
    }
    // SAFETY: as above; `input` is a copy, so the two may overlap.
    let inout_bytes =
        unsafe { std::slice::from_raw_parts_mut(inoutbuf.cast::<u8>(), described.bytes) };
    predefined.apply(
        described.count as usize,
        &inout.signature,
        &input,
        inout_bytes,
    )
}
