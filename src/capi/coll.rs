//! Collectives on a communicator of one process (MPI-4.1 chapter 6) and MPI_Reduce_local:
//! the C shell over src/engine/collectives.rs and src/engine/ops.rs.
//!
//! The engine checks the arguments and says what moves (a [`Transfer`]); this shell copies
//! it through src/capi/buffer.rs, which packs and unpacks any datatype's layout. A
//! datatype's signature, as the engine checks it, is its predefined kind, or for a derived
//! datatype the kinds of its elements in order (src/engine/basic.rs, `layout_kind`).

use std::cell::RefCell;
use std::ffi::{c_int, c_void};

use super::buffer::{self, Data};
use super::handles;
use super::universe;
use crate::abi::{self, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Op};
use crate::engine::basic::{layout_kind, predefined_kind};
use crate::engine::{
    BasicKind, Error, Op, OpCall, Place, PredefinedOp, Result, Side, Transfer, Universe, UserBuffer,
};
use crate::ffi::current;

/// A buffer argument: `MPI_IN_PLACE` or an address.
pub(super) fn in_place(buf: *const c_void) -> bool {
    buf as usize == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize
}

/// The signature of one item of a described datatype.
fn signature(data: &Data) -> Vec<BasicKind> {
    let predefined = Universe::predefined_datatype_handle(data.datatype)
        .and_then(|(_, name)| predefined_kind(name));
    if let Some(kind) = predefined {
        return vec![kind];
    }
    let mut kinds = Vec::new();
    for (basic, count) in data.map.signature() {
        let kind = layout_kind(basic);
        kinds.extend(std::iter::repeat(kind).take(count as usize));
    }
    kinds
}

/// A checked buffer argument with its signature (empty for `MPI_IN_PLACE`).
pub(super) struct Arg {
    pub(super) data: Option<Data>,
    pub(super) signature: Vec<BasicKind>,
    address: usize,
}

impl Arg {
    pub(super) fn new(buf: *const c_void, count: c_int, datatype: MPI_Datatype) -> Result<Arg> {
        Arg::large(buf, i64::from(count), datatype)
    }

    /// [`Arg::new`] with a large count (`MPI_Count`).
    pub(super) fn large(buf: *const c_void, count: i64, datatype: MPI_Datatype) -> Result<Arg> {
        if in_place(buf) {
            return Ok(Arg {
                data: None,
                signature: Vec::new(),
                address: buf as usize,
            });
        }
        let data = buffer::describe_large(count, datatype)?;
        let signature = signature(&data);
        Ok(Arg {
            data: Some(data),
            signature,
            address: buf as usize,
        })
    }

    pub(super) fn side(&self) -> Side<'_> {
        match &self.data {
            None => Side::InPlace,
            Some(d) => Side::Data {
                count: d.count,
                datatype: d.datatype,
                signature: &self.signature,
            },
        }
    }

    /// The described data, `count` items of it, and its address moved by `displacement`
    /// extents (bytes if `in_bytes`: `MPI_Alltoallw`).
    fn block(&self, count: usize, displacement: i64, in_bytes: bool) -> Result<(Data, usize)> {
        let data = self
            .data
            .as_ref()
            .ok_or(Error::Internal("a transfer from or to MPI_IN_PLACE"))?;
        let unit = if in_bytes {
            1
        } else {
            i128::from(data.map.extent())
        };
        let offset = i128::from(displacement) * unit;
        let address = usize::try_from(self.address as i128 + offset)
            .map_err(|_| Error::InvalidArgument("displacement out of the address space"))?;
        let count = i64::try_from(count).map_err(|_| Error::InvalidCount)?;
        Ok((data.with_count(count)?, address))
    }
}

/// Copies what a collective moves from `send` to `recv`.
///
/// # Safety
/// The buffers hold what their counts and datatypes describe (the caller's MPI contract).
pub(super) unsafe fn apply(moved: Option<Transfer>, send: &Arg, recv: &Arg) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { apply_with(moved, send, recv, false) }
}

/// [`apply`], with displacements in bytes if `in_bytes` (`MPI_Alltoallw`).
///
/// # Safety
/// As for [`apply`].
pub(super) unsafe fn apply_with(
    moved: Option<Transfer>,
    send: &Arg,
    recv: &Arg,
    in_bytes: bool,
) -> Result<()> {
    let Some(moved) = moved else {
        return Ok(());
    };
    let (from_data, from) = send.block(moved.send_count, moved.send_displacement, in_bytes)?;
    let (to_data, to) = recv.block(moved.recv_count, moved.recv_displacement, in_bytes)?;
    if RECORDING.with(|r| r.borrow().is_some()) {
        // A persistent collective's init: check the two blocks as the copy would, and keep
        // them for MPI_Start.
        from_data.check_output(from, "the send buffer")?;
        to_data.check_output(to, "the receive buffer")?;
        let blocks = (user_buffer(&from_data, from), user_buffer(&to_data, to));
        RECORDING.with(|r| *r.borrow_mut() = Some(Some(blocks)));
        return Ok(());
    }
    // SAFETY: the caller's contract.
    unsafe {
        buffer::copy(
            &from_data,
            from,
            &to_data,
            to,
            ("the send buffer", "the receive buffer"),
        )
    }
}

thread_local! {
    /// While a persistent collective's init runs the blocking form's body ([`recording`]):
    /// `Some(None)` until the body reaches its move, then the two blocks it would copy.
    static RECORDING: RefCell<Option<Option<(UserBuffer, UserBuffer)>>> =
        const { RefCell::new(None) };
}

/// A block of data as the engine keeps it for a later move.
fn user_buffer(data: &Data, address: usize) -> UserBuffer {
    UserBuffer {
        address,
        count: data.count,
        datatype: data.datatype,
        bytes: data.bytes as u64,
        layout: data.layout(),
    }
}

/// Runs a collective's body without moving anything: the blocks it would copy (send, then
/// receive), `None` if nothing would move. The body runs on this thread and calls no user
/// code, so the recording cannot be seen by any other call.
pub(super) fn recording(
    body: impl FnOnce() -> Result<()>,
) -> Result<Option<(UserBuffer, UserBuffer)>> {
    RECORDING.with(|r| *r.borrow_mut() = Some(None));
    let result = body();
    let blocks = RECORDING.with(|r| r.borrow_mut().take()).flatten();
    result.map(|()| blocks)
}

pub(super) fn op_of(op: MPI_Op) -> Result<Op> {
    handles::op(op)
}

/// A reduction's two buffers: the send buffer may be `MPI_IN_PLACE`.
pub(super) fn reduction(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
) -> Result<(Place, Arg, Arg)> {
    let recv = Arg::large(recvbuf, count, datatype)?;
    if in_place(recvbuf) {
        return Err(Error::InPlace("the receive buffer"));
    }
    let (place, send) = if in_place(sendbuf) {
        (Place::InPlace, Arg::large(recvbuf, count, datatype)?)
    } else {
        (Place::Buffer, Arg::large(sendbuf, count, datatype)?)
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
pub(super) unsafe fn rootless_reduction(
    method: ReductionFn,
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let (place, send, recv) = reduction(sendbuf, recvbuf, count, datatype)?;
    let datatype = recv
        .data
        .as_ref()
        .map(|d| d.datatype)
        .ok_or(Error::InPlace("the receive buffer"))?;
    let moved = method(
        universe,
        comm,
        place,
        Place::Buffer,
        count,
        datatype,
        &recv.signature,
        op_of(op)?,
    )?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv) }
}

// ---- fast paths ----------------------------------------------------------------------------
//
// The common case of the everyday collectives, tried before the full call (`fast` in
// bindings/functions.txt): under MPI_THREAD_SINGLE on the owning thread, valid arguments,
// a datatype whose items lie back to back. They check what the full call checks, with no
// call and no lock ([`Universe::collective_fast`]), and return `None` for anything else,
// errors included, which the full call then reports.

#[inline(always)]
pub(super) fn success() -> Option<c_int> {
    Some(abi::MPI_SUCCESS as c_int)
}

/// Whether a buffer of `bytes` bytes can be read or written: not NULL or `MPI_IN_PLACE` if
/// it holds data.
pub(super) fn usable(buf: *const c_void, bytes: usize) -> bool {
    bytes == 0 || !(buf.is_null() || in_place(buf))
}

#[inline(always)]
pub(super) fn barrier_fast(comm: MPI_Comm) -> Option<c_int> {
    current()?.collective_fast(handles::comm(comm).ok()?, None)?;
    success()
}

#[inline(always)]
pub(super) fn bcast_fast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    bcast_fast_any(buffer, i64::from(count), datatype, root, comm)
}

#[inline(always)]
pub(super) fn bcast_c_fast(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    bcast_fast_any(buffer, count, datatype, root, comm)
}

#[inline(always)]
fn bcast_fast_any(
    buffer: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    let count = usize::try_from(count).ok()?;
    if root != 0 {
        return None;
    }
    let datatype = handles::datatype(datatype).ok()?;
    let fast = current()?.collective_fast(handles::comm(comm).ok()?, Some(datatype))??;
    usable(buffer, (fast.size as usize).checked_mul(count)?).then(success)?
}

/// A reduction on one process (MPI_Reduce at root 0, MPI_Allreduce, MPI_Scan): the receive
/// buffer gets the send buffer's values.
///
/// # Safety
/// The buffers hold what their count and datatype describe (the caller's MPI contract).
#[inline(always)]
unsafe fn reduction_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Option<c_int> {
    let count = usize::try_from(count).ok()?;
    let op = PredefinedOp::from_handle(op as usize)?;
    let datatype = handles::datatype(datatype).ok()?;
    let fast = current()?.collective_fast(handles::comm(comm).ok()?, Some(datatype))??;
    if !fast.allows(op) {
        return None;
    }
    let bytes = (fast.size as usize).checked_mul(count)?;
    if in_place(recvbuf) || !usable(recvbuf, bytes) {
        return None;
    }
    if !in_place(sendbuf) {
        if !usable(sendbuf, bytes) {
            return None;
        }
        // SAFETY: both hold `bytes` bytes (the caller's contract).
        unsafe { copy_small_first(sendbuf.cast::<u8>(), recvbuf.cast::<u8>(), bytes) };
    }
    success()
}

/// Copies `bytes` bytes from `from` to `to`, which may overlap; a single item of 4 or 8
/// bytes (the everyday reduction of one value) without a call.
///
/// # Safety
/// `from` is valid for `bytes` bytes of reads and `to` for as many of writes.
#[inline(always)]
unsafe fn copy_small_first(from: *const u8, to: *mut u8, bytes: usize) {
    // SAFETY (all three): the caller's contract; each reads all before it writes, so
    // overlap is allowed.
    match bytes {
        0 => {}
        8 => unsafe {
            to.cast::<u64>()
                .write_unaligned(from.cast::<u64>().read_unaligned())
        },
        4 => unsafe {
            to.cast::<u32>()
                .write_unaligned(from.cast::<u32>().read_unaligned())
        },
        _ => unsafe { std::ptr::copy(from, to, bytes) },
    }
}

#[inline(always)]
pub(super) unsafe fn allreduce_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { reduction_fast(sendbuf, recvbuf, i64::from(count), datatype, op, comm) }
}

#[inline(always)]
pub(super) unsafe fn scan_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { reduction_fast(sendbuf, recvbuf, i64::from(count), datatype, op, comm) }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    if root != 0 {
        return None;
    }
    // SAFETY: the entry point's contract.
    unsafe { reduction_fast(sendbuf, recvbuf, i64::from(count), datatype, op, comm) }
}

#[inline(always)]
pub(super) unsafe fn allreduce_c_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { reduction_fast(sendbuf, recvbuf, count, datatype, op, comm) }
}

#[inline(always)]
pub(super) unsafe fn scan_c_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { reduction_fast(sendbuf, recvbuf, count, datatype, op, comm) }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_c_fast(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    if root != 0 {
        return None;
    }
    // SAFETY: the entry point's contract.
    unsafe { reduction_fast(sendbuf, recvbuf, count, datatype, op, comm) }
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
            i64::from(count),
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
    unsafe {
        rootless_reduction(
            Universe::scan,
            sendbuf,
            recvbuf,
            i64::from(count),
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
    bcast_any(buffer, i64::from(count), datatype, root, comm)
}

/// MPI_Bcast with any count (`int` or `MPI_Count`).
pub(super) fn bcast_any(
    buffer: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let buffer = Arg::large(buffer, count, datatype)?;
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
    // SAFETY: the entry point's contract.
    unsafe { reduce_any(sendbuf, recvbuf, i64::from(count), datatype, op, root, comm) }
}

/// MPI_Reduce with any count.
///
/// # Safety
/// The buffers hold what their count and datatype describe.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_any(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let (place, send, recv) = reduction(sendbuf, recvbuf, count, datatype)?;
    let datatype = recv
        .data
        .as_ref()
        .map(|d| d.datatype)
        .ok_or(Error::InPlace("the receive buffer"))?;
    let moved = universe.reduce(
        comm,
        place,
        Place::Buffer,
        count,
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
pub(super) unsafe fn one_block(
    moves: impl FnOnce(&Universe, crate::engine::Comm, Side<'_>, Side<'_>) -> Result<Option<Transfer>>,
    sendbuf: *const c_void,
    sendcount: i64,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: i64,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let send = Arg::large(sendbuf, sendcount, sendtype)?;
    let recv = Arg::large(recvbuf, recvcount, recvtype)?;
    let moved = moves(universe, comm, send.side(), recv.side())?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv) }
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
    let data = inout
        .data
        .as_ref()
        .ok_or(Error::InPlace("a buffer of MPI_Reduce_local"))?;
    let call = universe.reduce_local(
        op_of(op)?,
        i64::from(count),
        data.datatype,
        &inout.signature,
    )?;
    let predefined = match call {
        OpCall::Predefined(predefined) => predefined,
        OpCall::User(user) => {
            // The program's function works on its own buffers: only NULL where there is data
            // is refused (MPI_ERR_BUFFER) before it runs, with no lock held.
            data.span(inbuf as usize, "inbuf")?;
            data.span(inoutbuf as usize, "inoutbuf")?;
            let count = usize::try_from(data.count).map_err(|_| Error::InvalidCount)?;
            if count == 0 {
                return Ok(());
            }
            user.call(inbuf as usize, inoutbuf as usize, count, data.datatype);
            return Ok(());
        }
    };
    // SAFETY: the buffers the program named; both are read into packed copies before the
    // result is written back, so they may overlap.
    let input = unsafe { data.read(inbuf as usize, "inbuf")? }.into_owned();
    // SAFETY: as above.
    let mut result = unsafe { data.read(inoutbuf as usize, "inoutbuf")? }.into_owned();
    predefined.apply(data.count as usize, &inout.signature, &input, &mut result)?;
    let layout = data.layout();
    // SAFETY: as above; no reference to the program's memory is live.
    unsafe { buffer::deliver(inoutbuf as usize, layout.as_ref(), &result, "inoutbuf") }
}

/// MPI_Bcast with an `MPI_Count` count.
pub(super) fn bcast_c(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    bcast_any(buffer, count, datatype, root, comm)
}

/// MPI_Reduce with an `MPI_Count` count.
///
/// # Safety
/// As for [`gather_c`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { reduce_any(sendbuf, recvbuf, count, datatype, op, root, comm) }
}

/// MPI_Allreduce with an `MPI_Count` count.
///
/// # Safety
/// As for [`gather_c`].
pub(super) unsafe fn allreduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
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

/// MPI_Scan with an `MPI_Count` count.
///
/// # Safety
/// As for [`gather_c`].
pub(super) unsafe fn scan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { rootless_reduction(Universe::scan, sendbuf, recvbuf, count, datatype, op, comm) }
}
