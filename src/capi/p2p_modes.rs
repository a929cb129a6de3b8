//! Buffered mode (MPI-4.1 §3.6), generalized requests (§13.2) and partitioned communication
//! (§4): the C shell over src/engine/messages.rs and src/engine/requests.rs.
//!
//! - Buffered sends hand their packed bytes to the engine, which accounts their length plus
//!   `MPI_BSEND_OVERHEAD` in the buffer attached to the communicator, else to the process
//!   (the memory itself is never written: the library keeps its own copy). Attach and detach
//!   hand the program's address and size through unchanged.
//! - A generalized request keeps the program's three C callbacks and its `extra_state`; the
//!   engine calls them with no lock held.
//! - A partitioned request keeps one partition's buffer (the address of partition 0, the
//!   count and the layout); partition `i` lies `i * count * extent` bytes further. `MPI_Pready`
//!   reads a partition's items when it is called, `MPI_Parrived` writes an arrived
//!   partition's items into the receive buffer when it says yes, and the wait that completes
//!   the receive writes all of them.

use std::borrow::Cow;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

use super::buffer::{self, Data};
use super::handles::{self, decode, encode_handle};
use super::p2p::{read_status, send_from, write_whole_status};
use super::{universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Request, MPI_Session};
use crate::engine::{
    AttachedBuffer, BufferScope, Envelope, Error, GeneralizedRequest, Request, Result, SendMode,
    Status, Universe, UserBuffer,
};

// ---- helpers ------------------------------------------------------------------------------

/// A request argument passed by value: `MPI_REQUEST_NULL` is `MPI_ERR_REQUEST`.
fn request_arg(raw: MPI_Request) -> Result<Request> {
    if raw as usize == abi::MPIATTR_HANDLE_MPI_REQUEST_NULL as usize {
        Err(Error::InvalidRequest)
    } else {
        decode(raw)
    }
}

/// `count` items at `buf` as the engine keeps them for a persistent request (checked: NULL
/// where there is data is `MPI_ERR_BUFFER`).
fn user_buffer(data: &Data, buf: usize, what: &'static str) -> Result<UserBuffer> {
    data.check_output(buf, what)?;
    Ok(UserBuffer {
        address: buf,
        count: data.count,
        datatype: data.datatype,
        bytes: data.bytes as u64,
        layout: data.layout(),
    })
}

/// The packed bytes of the items a [`UserBuffer`] describes, read now.
///
/// # Safety
/// The buffer's items are readable memory (the program's MPI contract for the buffer it named).
pub(super) unsafe fn read_user_buffer<'a>(
    buffer: &UserBuffer,
    what: &'static str,
) -> Result<Cow<'a, [u8]>> {
    if buffer.bytes == 0 {
        return Ok(Cow::Borrowed(&[]));
    }
    match &buffer.layout {
        None => {
            if buffer.address == 0 || buffer.address == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize {
                return Err(Error::InvalidBuffer(what));
            }
            // SAFETY: `bytes` contiguous readable bytes at the address (the caller's contract).
            Ok(Cow::Borrowed(unsafe {
                std::slice::from_raw_parts(buffer.address as *const u8, buffer.bytes as usize)
            }))
        }
        Some(layout) => {
            let data = Data {
                datatype: buffer.datatype,
                count: buffer.count,
                bytes: buffer.bytes as usize,
                map: layout.0.clone(),
            };
            // SAFETY: the caller's contract.
            unsafe { data.read(buffer.address, what) }
        }
    }
}

// ---- buffered mode ------------------------------------------------------------------------

/// A blocking buffered send.
///
/// # Safety
/// `buf` is NULL or valid for reads of the message.
unsafe fn buffered_send(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                                // SAFETY: the caller's contract.
    let (bytes, to) = unsafe { send_from(buf, count, datatype, dest, tag, comm)? };
    universe.send(SendMode::Buffered, &bytes, to)
}

/// A nonblocking buffered send (complete at once: the library holds the data).
///
/// # Safety
/// `buf` is NULL or valid for reads of the message.
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn buffered_isend(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                                // SAFETY: the caller's contract.
    let (bytes, to) = unsafe { send_from(buf, count, datatype, dest, tag, comm)? };
    let started = universe.isend(SendMode::Buffered, bytes.into_owned(), to)?;
    request.set(encode_handle(started));
    Ok(())
}

/// An inactive persistent buffered send: each `MPI_Start` packs the buffer then.
#[allow(clippy::too_many_arguments)] // the standard's argument list
fn buffered_send_init(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let data = buffer::describe_large(count, datatype)?;
    let to = Envelope {
        rank: dest,
        tag,
        comm: handles::comm(comm)?,
    };
    let buffer = user_buffer(&data, buf as usize, "the send buffer")?;
    request.set(encode_handle(universe.send_init(
        SendMode::Buffered,
        buffer,
        to,
    )?));
    Ok(())
}

/// The buffer an attach call names: `MPI_BUFFER_AUTOMATIC`, or `size` bytes at `buffer`
/// (a negative size is `MPI_ERR_ARG`, NULL with a positive size `MPI_ERR_BUFFER`).
fn attached(buffer: *mut c_void, size: i64) -> Result<AttachedBuffer> {
    if buffer as usize == abi::MPIATTR_HANDLE_MPI_BUFFER_AUTOMATIC as usize {
        return Ok(AttachedBuffer::Automatic);
    }
    let size = usize::try_from(size)
        .ok()
        .filter(|s| *s <= isize::MAX as usize)
        .ok_or(Error::InvalidArgument("size is negative"))?;
    if size > 0
        && (buffer.is_null() || buffer as usize == abi::MPIATTR_HANDLE_MPI_IN_PLACE as usize)
    {
        return Err(Error::InvalidBuffer("buffer"));
    }
    Ok(AttachedBuffer::Memory {
        address: buffer as usize,
        size,
    })
}

/// The scope of a communicator's buffer (the communicator checked).
fn comm_scope(comm: MPI_Comm) -> Result<BufferScope> {
    Ok(BufferScope::Comm(handles::comm(comm)?))
}

/// The scope of a session's buffer, the session checked live (`MPI_ERR_SESSION`).
fn session_scope(universe: &Universe, session: MPI_Session) -> Result<BufferScope> {
    let session = handles::session(session)?;
    universe.session_num_psets(session)?;
    Ok(BufferScope::Session(session.0))
}

fn attach(
    scope: impl FnOnce(&Universe) -> Result<BufferScope>,
    buffer: *mut c_void,
    size: i64,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let scope = scope(universe)?;
    universe.buffer_attach(scope, attached(buffer, size)?)
}

/// Detaches the buffer of a scope, writing its address to `*buffer_addr` (a `void *`) and its
/// size with `size_of`, which refuses a size its type cannot hold before anything changes.
/// With no buffer attached: NULL and 0. `MPI_BUFFER_AUTOMATIC`: itself and 0.
///
/// # Safety
/// `buffer_addr` is NULL or valid for writing a `void *`.
unsafe fn detach(
    scope: impl FnOnce(&Universe) -> Result<BufferScope>,
    buffer_addr: *mut c_void,
    set_size: impl FnOnce(usize) -> Result<()>,
    fits: impl Fn(usize) -> bool,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let scope = scope(universe)?;
    if buffer_addr.is_null() {
        return Err(Error::NullArgument("buffer_addr"));
    }
    if let Some((_, size)) = universe.buffer_usage(scope)? {
        if size != usize::MAX && !fits(size) {
            return Err(Error::InvalidArgument(
                "the attached buffer's size does not fit the size argument: use the _c form",
            ));
        }
    }
    let (address, size) = match universe.buffer_detach(scope)? {
        None => (std::ptr::null_mut(), 0),
        Some(AttachedBuffer::Automatic) => {
            (abi::MPIATTR_HANDLE_MPI_BUFFER_AUTOMATIC as *mut c_void, 0)
        }
        Some(AttachedBuffer::Memory { address, size }) => (address as *mut c_void, size),
    };
    // SAFETY: non-null, and the address of a `void *` (the caller's contract).
    unsafe { buffer_addr.cast::<*mut c_void>().write_unaligned(address) };
    set_size(size)
}

fn int_size(size: &mut Out<c_int>) -> impl FnOnce(usize) -> Result<()> + '_ {
    move |n| {
        size.set(n as c_int);
        Ok(())
    }
}

fn count_size(size: &mut Out<MPI_Count>) -> impl FnOnce(usize) -> Result<()> + '_ {
    move |n| {
        size.set(n as MPI_Count);
        Ok(())
    }
}

fn fits_int(n: usize) -> bool {
    n <= c_int::MAX as usize
}

fn fits_count(n: usize) -> bool {
    n <= MPI_Count::MAX as usize
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// A buffered send: the message is copied, its length plus MPI_BSEND_OVERHEAD held in the attached buffer until it is received.
pub(super) unsafe fn bsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { buffered_send(buf, count.into(), datatype, dest, tag, comm) }
}

/// MPI_Bsend with an MPI_Count count.
pub(super) unsafe fn bsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { buffered_send(buf, count, datatype, dest, tag, comm) }
}

/// Starts a buffered send (complete at once: the message is copied, its space held in the attached buffer).
pub(super) unsafe fn ibsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { buffered_isend(buf, count.into(), datatype, dest, tag, comm, request) }
}

/// MPI_Ibsend with an MPI_Count count.
pub(super) unsafe fn ibsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { buffered_isend(buf, count, datatype, dest, tag, comm, request) }
}

/// An inactive persistent buffered send; each MPI_Start sends what the buffer holds then.
pub(super) fn bsend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    buffered_send_init(buf, count.into(), datatype, dest, tag, comm, request)
}

/// MPI_Bsend_init with an MPI_Count count.
pub(super) fn bsend_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    buffered_send_init(buf, count, datatype, dest, tag, comm, request)
}

/// Attaches the process's buffer for buffered sends (or MPI_BUFFER_AUTOMATIC).
pub(super) fn buffer_attach(buffer: *mut c_void, size: c_int) -> Result<()> {
    attach(|_| Ok(BufferScope::Process), buffer, size.into())
}

/// MPI_Buffer_attach with an MPI_Count size.
pub(super) fn buffer_attach_c(buffer: *mut c_void, size: MPI_Count) -> Result<()> {
    attach(|_| Ok(BufferScope::Process), buffer, size)
}

/// Detaches the process's buffer: `*(void **)buffer_addr` and `*size` say what it was.
pub(super) unsafe fn buffer_detach(buffer_addr: *mut c_void, size: &mut Out<c_int>) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        detach(
            |_| Ok(BufferScope::Process),
            buffer_addr,
            int_size(size),
            fits_int,
        )
    }
}

/// MPI_Buffer_detach with an MPI_Count size.
pub(super) unsafe fn buffer_detach_c(
    buffer_addr: *mut c_void,
    size: &mut Out<MPI_Count>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        detach(
            |_| Ok(BufferScope::Process),
            buffer_addr,
            count_size(size),
            fits_count,
        )
    }
}

/// Hands every message buffered in the process's buffer over to the library: its space is free again.
pub(super) fn buffer_flush() -> Result<()> {
    universe()?.buffer_flush(BufferScope::Process)
}

/// MPI_Buffer_flush, with a request that is complete at once.
pub(super) fn buffer_iflush(request: &mut Out<MPI_Request>) -> Result<()> {
    request.set(encode_handle(
        universe()?.buffer_iflush(BufferScope::Process)?,
    ));
    Ok(())
}

/// Attaches a buffer to a communicator: its buffered sends use it rather than the process's.
pub(super) fn comm_attach_buffer(comm: MPI_Comm, buffer: *mut c_void, size: c_int) -> Result<()> {
    attach(|_| comm_scope(comm), buffer, size.into())
}

/// MPI_Comm_attach_buffer with an MPI_Count size.
pub(super) fn comm_attach_buffer_c(
    comm: MPI_Comm,
    buffer: *mut c_void,
    size: MPI_Count,
) -> Result<()> {
    attach(|_| comm_scope(comm), buffer, size)
}

/// Detaches a communicator's buffer: `*(void **)buffer_addr` and `*size` say what it was.
pub(super) unsafe fn comm_detach_buffer(
    comm: MPI_Comm,
    buffer_addr: *mut c_void,
    size: &mut Out<c_int>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { detach(|_| comm_scope(comm), buffer_addr, int_size(size), fits_int) }
}

/// MPI_Comm_detach_buffer with an MPI_Count size.
pub(super) unsafe fn comm_detach_buffer_c(
    comm: MPI_Comm,
    buffer_addr: *mut c_void,
    size: &mut Out<MPI_Count>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        detach(
            |_| comm_scope(comm),
            buffer_addr,
            count_size(size),
            fits_count,
        )
    }
}

/// Hands every message buffered in a communicator's buffer over to the library.
pub(super) fn comm_flush_buffer(comm: MPI_Comm) -> Result<()> {
    let universe = universe()?;
    universe.buffer_flush(comm_scope(comm)?)
}

/// MPI_Comm_flush_buffer, with a request that is complete at once.
pub(super) fn comm_iflush_buffer(comm: MPI_Comm, request: &mut Out<MPI_Request>) -> Result<()> {
    let universe = universe()?;
    request.set(encode_handle(universe.buffer_iflush(comm_scope(comm)?)?));
    Ok(())
}

/// Attaches a buffer to a session.
pub(super) fn session_attach_buffer(
    session: MPI_Session,
    buffer: *mut c_void,
    size: c_int,
) -> Result<()> {
    attach(|u| session_scope(u, session), buffer, size.into())
}

/// MPI_Session_attach_buffer with an MPI_Count size.
pub(super) fn session_attach_buffer_c(
    session: MPI_Session,
    buffer: *mut c_void,
    size: MPI_Count,
) -> Result<()> {
    attach(|u| session_scope(u, session), buffer, size)
}

/// Detaches a session's buffer: `*(void **)buffer_addr` and `*size` say what it was.
pub(super) unsafe fn session_detach_buffer(
    session: MPI_Session,
    buffer_addr: *mut c_void,
    size: &mut Out<c_int>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        detach(
            |u| session_scope(u, session),
            buffer_addr,
            int_size(size),
            fits_int,
        )
    }
}

/// MPI_Session_detach_buffer with an MPI_Count size.
pub(super) unsafe fn session_detach_buffer_c(
    session: MPI_Session,
    buffer_addr: *mut c_void,
    size: &mut Out<MPI_Count>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        detach(
            |u| session_scope(u, session),
            buffer_addr,
            count_size(size),
            fits_count,
        )
    }
}

/// Hands every message buffered in a session's buffer over to the library.
pub(super) fn session_flush_buffer(session: MPI_Session) -> Result<()> {
    let universe = universe()?;
    universe.buffer_flush(session_scope(universe, session)?)
}

/// MPI_Session_flush_buffer, with a request that is complete at once.
pub(super) fn session_iflush_buffer(
    session: MPI_Session,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let universe = universe()?;
    let scope = session_scope(universe, session)?;
    request.set(encode_handle(universe.buffer_iflush(scope)?));
    Ok(())
}

// ---- generalized requests -----------------------------------------------------------------

/// The C callbacks of MPI_Grequest_start and their `extra_state` (an address, passed back
/// as it came). A NULL callback does nothing and succeeds (docs/semantics.md).
struct CGeneralized {
    query: abi::MPI_Grequest_query_function,
    free: abi::MPI_Grequest_free_function,
    cancel: abi::MPI_Grequest_cancel_function,
    extra_state: usize,
}

fn code(rc: c_int) -> std::result::Result<(), i32> {
    if rc == abi::MPI_SUCCESS as c_int {
        Ok(())
    } else {
        Err(rc)
    }
}

impl GeneralizedRequest for CGeneralized {
    fn query(&self, _: &Universe) -> std::result::Result<Status, i32> {
        let mut status: abi::MPI_Status = unsafe_zeroed_status();
        // SAFETY: writes a status we own.
        unsafe { write_whole_status(&mut status, &Status::empty()) };
        if let Some(query) = self.query {
            // SAFETY: the program's MPI_Grequest_query_function, called with its extra_state
            // and a status it may fill.
            code(unsafe { query(self.extra_state as *mut c_void, &mut status) })?;
        }
        Ok(read_status(&status))
    }

    fn free(&self, _: &Universe) -> std::result::Result<(), i32> {
        match self.free {
            // SAFETY: the program's MPI_Grequest_free_function with its extra_state.
            Some(free) => code(unsafe { free(self.extra_state as *mut c_void) }),
            None => Ok(()),
        }
    }

    fn cancel(&self, _: &Universe, complete: bool) -> std::result::Result<(), i32> {
        match self.cancel {
            // SAFETY: the program's MPI_Grequest_cancel_function with its extra_state.
            Some(cancel) => {
                code(unsafe { cancel(self.extra_state as *mut c_void, complete as c_int) })
            }
            None => Ok(()),
        }
    }
}

fn unsafe_zeroed_status() -> abi::MPI_Status {
    abi::MPI_Status {
        MPI_SOURCE: 0,
        MPI_TAG: 0,
        MPI_ERROR: 0,
        MPI_internal: [0; 5],
    }
}

/// Starts a generalized request: the program does the work and calls MPI_Grequest_complete; a wait then calls query_fn (which fills the status) and free_fn.
pub(super) fn grequest_start(
    query_fn: abi::MPI_Grequest_query_function,
    free_fn: abi::MPI_Grequest_free_function,
    cancel_fn: abi::MPI_Grequest_cancel_function,
    extra_state: *mut c_void,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let callbacks = Arc::new(CGeneralized {
        query: query_fn,
        free: free_fn,
        cancel: cancel_fn,
        extra_state: extra_state as usize,
    });
    request.set(encode_handle(universe.grequest_start(callbacks)?));
    Ok(())
}

/// Tells the library that the operation of a generalized request is done: a wait or test can now complete it.
pub(super) fn grequest_complete(request: MPI_Request) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    universe.grequest_complete(request_arg(request)?)
}

// ---- partitioned communication ------------------------------------------------------------

/// Checks the arguments common to MPI_Psend_init and MPI_Precv_init: the number of
/// partitions (negative: `MPI_ERR_ARG`), the count and datatype, the communicator, the info,
/// and that the whole buffer (`partitions * count` items) can be named at `buf`.
#[allow(clippy::too_many_arguments)] // the standard's argument list
fn partitioned(
    buf: usize,
    partitions: c_int,
    count: MPI_Count,
    datatype: MPI_Datatype,
    rank: c_int,
    tag: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    what: &'static str,
) -> Result<(usize, UserBuffer, Envelope)> {
    let partitions = usize::try_from(partitions)
        .map_err(|_| Error::InvalidArgument("partitions is negative"))?;
    let data = buffer::describe_large(count, datatype)?;
    let envelope = Envelope {
        rank,
        tag,
        comm: handles::comm(comm)?,
    };
    handles::info_or_null(info)?;
    let total = i64::try_from(partitions)
        .ok()
        .and_then(|p| p.checked_mul(count))
        .ok_or(Error::InvalidCount)?;
    data.with_count(total)?.check_output(buf, what)?;
    let partition = UserBuffer {
        address: buf,
        count: data.count,
        datatype: data.datatype,
        bytes: data.bytes as u64,
        layout: data.layout(),
    };
    Ok((partitions, partition, envelope))
}

/// An inactive persistent partitioned send of `partitions` partitions of `count` items each; MPI_Start begins a round, MPI_Pready sends each partition.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) fn psend_init(
    buf: *const c_void,
    partitions: c_int,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let (partitions, buffer, to) = partitioned(
        buf as usize,
        partitions,
        count,
        datatype,
        dest,
        tag,
        comm,
        info,
        "the send buffer",
    )?;
    request.set(encode_handle(universe.psend_init(partitions, buffer, to)?));
    Ok(())
}

/// An inactive persistent partitioned receive, matched with the oldest unmatched MPI_Psend_init of the same communicator, tag and total size.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) fn precv_init(
    buf: *mut c_void,
    partitions: c_int,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let (partitions, buffer, from) = partitioned(
        buf as usize,
        partitions,
        count,
        datatype,
        source,
        tag,
        comm,
        info,
        "the receive buffer",
    )?;
    request.set(encode_handle(
        universe.precv_init(partitions, buffer, from)?,
    ));
    Ok(())
}

/// Partition `partition`'s buffer: the one of partition 0 moved by `partition` times its
/// items' extent.
fn partition_buffer(partition0: &UserBuffer, partition: usize) -> UserBuffer {
    let stride = match &partition0.layout {
        None => partition0.bytes as i128,
        Some(layout) => layout.0.extent() as i128 * partition0.count as i128,
    };
    let address = partition0.address as i128 + stride * partition as i128;
    UserBuffer {
        address: usize::try_from(address).unwrap_or(0),
        ..partition0.clone()
    }
}

/// Marks the listed partitions of an active partitioned send ready: each is read from the
/// buffer now. All are checked first (in range, not ready already), so a refusal changes
/// nothing.
fn ready(request: MPI_Request, partitions: &[c_int]) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let request = request_arg(request)?;
    let (send, count, partition0) = universe.partitioned_shape(request)?;
    if !send {
        return Err(Error::InvalidRequestState(
            "MPI_Pready needs a partitioned send request (MPI_Psend_init)",
        ));
    }
    let mut indices = Vec::with_capacity(partitions.len());
    for &p in partitions {
        match usize::try_from(p) {
            Ok(p) if p < count => indices.push(p),
            _ => {
                return Err(Error::InvalidArgument(
                    "a partition is negative or not below the request's number of partitions",
                ))
            }
        }
    }
    let mut bytes = Vec::with_capacity(indices.len());
    for &p in &indices {
        // SAFETY: a partition of the send buffer the program named at MPI_Psend_init, in range
        // (checked above): readable by its MPI contract.
        bytes.push(unsafe {
            read_user_buffer(&partition_buffer(&partition0, p), "the send buffer")?
        });
    }
    let list: Vec<(usize, &[u8])> = indices
        .iter()
        .zip(bytes.iter())
        .map(|(p, b)| (*p, b.as_ref()))
        .collect();
    universe.pready(request, &list)
}

/// Partition `partition` of an active partitioned send is ready: its data is taken now.
pub(super) fn pready(partition: c_int, request: MPI_Request) -> Result<()> {
    ready(request, &[partition])
}

/// Partitions `partition_low` to `partition_high` (inclusive) are ready.
pub(super) fn pready_range(
    partition_low: c_int,
    partition_high: c_int,
    request: MPI_Request,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    if partition_low > partition_high {
        request_arg(request)?;
        return Err(Error::InvalidArgument(
            "partition_low is greater than partition_high",
        ));
    }
    let list: Vec<c_int> = (partition_low..=partition_high).collect();
    ready(request, &list)
}

/// The `length` partitions of `array_of_partitions` are ready.
pub(super) unsafe fn pready_list(
    length: c_int,
    array_of_partitions: *const c_int,
    request: MPI_Request,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let length =
        usize::try_from(length).map_err(|_| Error::InvalidArgument("length is negative"))?;
    if length > 0 && array_of_partitions.is_null() {
        return Err(Error::NullArgument("array_of_partitions"));
    }
    let list: &[c_int] = if length == 0 {
        &[]
    } else {
        // SAFETY: `length` ints (the caller's contract).
        unsafe { std::slice::from_raw_parts(array_of_partitions, length) }
    };
    ready(request, list)
}

/// Whether partition `partition` of a partitioned receive has arrived; if so its items are in the receive buffer now.
pub(super) fn parrived(
    request: MPI_Request,
    partition: c_int,
    flag: &mut Out<c_int>,
) -> Result<()> {
    let universe = universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let request = request_arg(request)?;
    let (send, count, partition0) = universe.partitioned_shape(request)?;
    if send {
        return Err(Error::InvalidRequestState(
            "MPI_Parrived needs a partitioned receive request (MPI_Precv_init)",
        ));
    }
    let index = usize::try_from(partition)
        .ok()
        .filter(|p| *p < count)
        .ok_or(Error::InvalidArgument(
            "partition is negative or not below the request's number of partitions",
        ))?;
    let arrived = universe.parrived(request, index)?;
    // An inactive request's data went to the buffer when its round completed.
    if arrived && universe.request_is_active(request)? {
        if let Some(bytes) = universe.partition_data(request, index)? {
            let to = partition_buffer(&partition0, index);
            // SAFETY: partition `index` of the receive buffer the program named at
            // MPI_Precv_init, in range: writable by its MPI contract.
            unsafe {
                buffer::deliver(to.address, to.layout.as_ref(), &bytes, "the receive buffer")?
            };
        }
    }
    flag.set(arrived as c_int);
    Ok(())
}
