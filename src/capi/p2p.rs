//! Point-to-point with oneself (MPI-4.1 chapter 3) and the request functions: the C shell
//! over src/engine/messages.rs and src/engine/requests.rs.
//!
//! Data moves as packed bytes: src/capi/buffer.rs reads a send buffer of any datatype into
//! them (the memory itself when the items lie back to back), and a receive keeps its
//! datatype's layout to unpack them at completion, even if the program frees the datatype
//! meanwhile.

use std::borrow::Cow;
use std::ffi::{c_int, c_void};

use super::buffer;
use super::handles::{self, decode, encode_handle, null};
use super::{universe, Out};
use crate::abi::{self, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Fint, MPI_Request, MPI_Status};
use crate::engine::typemap;
use crate::engine::{Completion, Envelope, Error, Request, Result, SendMode, Status, UserBuffer};
use crate::ffi::current;

/// Writes the status of a completion unless it is `MPI_STATUS_IGNORE`. `MPI_ERROR` is left
/// as it was (MPI-4.1 §3.2.5: only the calls that complete several requests set it, and only
/// when they fail with `MPI_ERR_IN_STATUS`, [`write_errors`]), except in an empty status,
/// whose error field the standard fixes as `MPI_SUCCESS` (§3.7.3). The packed byte count and
/// the cancelled flag live in the hidden fields.
///
/// # Safety
/// `status` is NULL or valid for writes.
pub(crate) unsafe fn write_status(status: *mut MPI_Status, from: &Status) {
    if status.is_null() {
        return;
    }
    // SAFETY: non-null and valid (the caller's contract).
    let status = unsafe { &mut *status };
    status.MPI_SOURCE = from.source;
    status.MPI_TAG = from.tag;
    if from.source == abi::MPI_ANY_SOURCE {
        status.MPI_ERROR = abi::MPI_SUCCESS as c_int;
    }
    status.MPI_internal[0] = from.bytes as u32 as c_int;
    status.MPI_internal[1] = (from.bytes >> 32) as u32 as c_int;
    status.MPI_internal[2] = from.cancelled as c_int;
}

/// Writes every field of a status, `MPI_ERROR` included: the setters and conversions, which
/// hand back the status they were given with one field changed.
///
/// # Safety
/// As for [`write_status`].
pub(crate) unsafe fn write_whole_status(status: *mut MPI_Status, from: &Status) {
    // SAFETY: the caller's contract.
    unsafe { write_status(status, from) };
    if !status.is_null() {
        // SAFETY: non-null and valid (the caller's contract).
        unsafe { (*status).MPI_ERROR = from.error };
    }
}

/// After a call that completes several requests failed with `MPI_ERR_IN_STATUS`: each
/// status's `MPI_ERROR` gets its operation's error (`MPI_SUCCESS` for those that succeeded),
/// MPI-4.1 §3.7.5. Nothing for `MPI_STATUSES_IGNORE`.
///
/// # Safety
/// `statuses` is NULL or valid for `errors.len()` statuses.
pub(super) unsafe fn write_errors(statuses: *mut MPI_Status, errors: &[c_int]) {
    if statuses.is_null() {
        return;
    }
    for (i, error) in errors.iter().enumerate() {
        // SAFETY: within the array (the caller's contract).
        unsafe { (*statuses.add(i)).MPI_ERROR = *error };
    }
}

/// The status a C program handed back.
pub(crate) fn read_status(status: &MPI_Status) -> Status {
    Status {
        source: status.MPI_SOURCE,
        tag: status.MPI_TAG,
        error: status.MPI_ERROR,
        bytes: u64::from(status.MPI_internal[0] as u32)
            | u64::from(status.MPI_internal[1] as u32) << 32,
        cancelled: status.MPI_internal[2] != 0,
    }
}

/// Delivers a completion's bytes and writes its status; its own error (a truncation) is the
/// call's.
///
/// # Safety
/// As for [`buffer::deliver`] and [`write_status`].
pub(super) unsafe fn finish(completion: Completion, status: *mut MPI_Status) -> Result<()> {
    if let Some(delivery) = &completion.delivery {
        let to = &delivery.buffer;
        // SAFETY: the receive buffer its call named (the caller's contract); checked when the
        // receive started, so this cannot fail.
        unsafe {
            buffer::deliver(
                to.address,
                to.layout.as_ref(),
                &delivery.bytes,
                "the receive buffer",
            )?
        };
    }
    // SAFETY: the caller's contract.
    unsafe { write_status(status, &completion.status) };
    completion.error.map_or(Ok(()), Err)
}

pub(super) fn request_of(raw: MPI_Request) -> Result<Option<Request>> {
    if raw as usize == abi::MPIATTR_HANDLE_MPI_REQUEST_NULL as usize {
        Ok(None)
    } else {
        decode(raw).map(Some)
    }
}

/// The packed bytes of `count` elements at `buf` and their envelope, for any send.
///
/// # Safety
/// `buf` is NULL or valid for reads of the message.
pub(super) unsafe fn send_from<'a>(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<(Cow<'a, [u8]>, Envelope)> {
    let data = buffer::describe_large(count, datatype)?;
    let to = Envelope {
        rank: dest,
        tag,
        comm: handles::comm(comm)?,
    };
    // SAFETY: the caller's contract.
    let bytes = unsafe { data.read(buf as usize, "the send buffer")? };
    Ok((bytes, to))
}

/// The buffer of a receive of `count` elements at `buf`, and whom it is from.
pub(super) fn receive_into(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<(UserBuffer, Envelope)> {
    let from = Envelope {
        rank: source,
        tag,
        comm: handles::comm(comm)?,
    };
    Ok((
        user_buffer(buf, count, datatype, "the receive buffer")?,
        from,
    ))
}

/// `count` elements of `datatype` at `buf` as the engine keeps them (a receive's, or a
/// persistent send's, packed at each start).
pub(super) fn user_buffer(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    what: &'static str,
) -> Result<UserBuffer> {
    let data = buffer::describe_large(count, datatype)?;
    data.check_output(buf as usize, what)?;
    Ok(UserBuffer {
        address: buf as usize,
        count: data.count,
        datatype: data.datatype,
        bytes: data.bytes as u64,
        layout: data.layout(),
    })
}

/// A blocking send of `count` elements at `buf`.
///
/// # Safety
/// `buf` is NULL or valid for reads of the message.
#[allow(clippy::too_many_arguments)] // the standard's argument list, and the mode
unsafe fn blocking_send(
    mode: SendMode,
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `buf` holds the message (the caller's contract).
    let (bytes, to) = unsafe { send_from(buf, count, datatype, dest, tag, comm)? };
    universe()?.send(mode, &bytes, to)
}

/// A nonblocking send of `count` elements at `buf` (copied at once).
///
/// # Safety
/// `buf` is NULL or valid for reads of the message.
#[allow(clippy::too_many_arguments)] // the standard's argument list, and the mode
unsafe fn nonblocking_send(
    mode: SendMode,
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `buf` holds the message (the caller's contract).
    let (bytes, to) = unsafe { send_from(buf, count, datatype, dest, tag, comm)? };
    let started = universe()?.isend(mode, bytes.into_owned(), to)?;
    request.set(encode_handle(started));
    Ok(())
}

/// A blocking receive of `count` elements into `buf`.
///
/// # Safety
/// `buf` is NULL or valid for writes of the message; `status` NULL or valid.
unsafe fn recv_any(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let (buffer, from) = receive_into(buf, count, datatype, source, tag, comm)?;
    let done = universe()?.recv(buffer, from)?;
    // SAFETY: `buf` is the receive buffer; `status` NULL or valid.
    unsafe { finish(done, status) }
}

/// A nonblocking receive of `count` elements into `buf`.
fn irecv_any(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let (buffer, from) = receive_into(buf, count, datatype, source, tag, comm)?;
    request.set(encode_handle(universe()?.irecv(buffer, from)?));
    Ok(())
}

/// MPI_Sendrecv with counts of any width.
///
/// # Safety
/// As for [`sendrecv`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn sendrecv_any(
    sendbuf: *const c_void,
    sendcount: i64,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: i64,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `sendbuf` holds the message (the caller's contract).
    let (bytes, to) = unsafe { send_from(sendbuf, sendcount, sendtype, dest, sendtag, comm)? };
    let (buffer, from) = receive_into(recvbuf, recvcount, recvtype, source, recvtag, comm)?;
    let done = universe()?.sendrecv(bytes.into_owned(), to, buffer, from)?;
    // SAFETY: `recvbuf` is the receive buffer; `status` NULL or valid.
    unsafe { finish(done, status) }
}

/// MPI_Sendrecv_replace with a count of any width.
///
/// # Safety
/// As for [`sendrecv_replace`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn sendrecv_replace_any(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `buf` holds the message (the caller's contract).
    let (bytes, to) = unsafe { send_from(buf, count, datatype, dest, sendtag, comm)? };
    let copy = bytes.into_owned();
    let (buffer, from) = receive_into(buf, count, datatype, source, recvtag, comm)?;
    let done = universe()?.sendrecv(copy, to, buffer, from)?;
    // SAFETY: `buf` is the receive buffer; `status` NULL or valid.
    unsafe { finish(done, status) }
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Sends to oneself: the message is copied and the call returns.
pub(super) unsafe fn send(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        blocking_send(
            SendMode::Standard,
            buf,
            i64::from(count),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

/// MPI_Send with an `MPI_Count` count.
pub(super) unsafe fn send_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { blocking_send(SendMode::Standard, buf, count, datatype, dest, tag, comm) }
}

/// A synchronous send: returns once a receive has matched it (one posted before).
pub(super) unsafe fn ssend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        blocking_send(
            SendMode::Synchronous,
            buf,
            i64::from(count),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

/// MPI_Ssend with an `MPI_Count` count.
pub(super) unsafe fn ssend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { blocking_send(SendMode::Synchronous, buf, count, datatype, dest, tag, comm) }
}

/// A ready send: a matching receive must be posted.
pub(super) unsafe fn rsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        blocking_send(
            SendMode::Ready,
            buf,
            i64::from(count),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

/// MPI_Rsend with an `MPI_Count` count.
pub(super) unsafe fn rsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { blocking_send(SendMode::Ready, buf, count, datatype, dest, tag, comm) }
}

/// Starts a standard send to oneself (the message is copied at once).
pub(super) unsafe fn isend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        nonblocking_send(
            SendMode::Standard,
            buf,
            i64::from(count),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

/// MPI_Isend with an `MPI_Count` count.
pub(super) unsafe fn isend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        nonblocking_send(
            SendMode::Standard,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

/// Starts a synchronous send: complete once a receive matches it.
pub(super) unsafe fn issend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        nonblocking_send(
            SendMode::Synchronous,
            buf,
            i64::from(count),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

/// MPI_Issend with an `MPI_Count` count.
pub(super) unsafe fn issend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        nonblocking_send(
            SendMode::Synchronous,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

/// Starts a ready send.
pub(super) unsafe fn irsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        nonblocking_send(
            SendMode::Ready,
            buf,
            i64::from(count),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

/// MPI_Irsend with an `MPI_Count` count.
pub(super) unsafe fn irsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        nonblocking_send(
            SendMode::Ready,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

/// Receives a message sent to oneself; one that can never arrive is an error, not a hang.
pub(super) unsafe fn recv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { recv_any(buf, i64::from(count), datatype, source, tag, comm, status) }
}

/// MPI_Recv with an `MPI_Count` count.
pub(super) unsafe fn recv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { recv_any(buf, count, datatype, source, tag, comm, status) }
}

/// Starts a receive: the data arrives when the request completes.
pub(super) fn irecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    irecv_any(buf, i64::from(count), datatype, source, tag, comm, request)
}

/// MPI_Irecv with an `MPI_Count` count.
pub(super) fn irecv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    irecv_any(buf, count, datatype, source, tag, comm, request)
}

/// Sends and receives in one call (the two buffers must not overlap).
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn sendrecv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        sendrecv_any(
            sendbuf,
            i64::from(sendcount),
            sendtype,
            dest,
            sendtag,
            recvbuf,
            i64::from(recvcount),
            recvtype,
            source,
            recvtag,
            comm,
            status,
        )
    }
}

/// MPI_Sendrecv with `MPI_Count` counts.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn sendrecv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        sendrecv_any(
            sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
            recvtag, comm, status,
        )
    }
}

/// Sends the buffer and receives into it (the message is copied before it is overwritten).
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn sendrecv_replace(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        sendrecv_replace_any(
            buf,
            i64::from(count),
            datatype,
            dest,
            sendtag,
            source,
            recvtag,
            comm,
            status,
        )
    }
}

/// MPI_Sendrecv_replace with an `MPI_Count` count.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn sendrecv_replace_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        sendrecv_replace_any(
            buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
        )
    }
}

/// Waits for a message and reports it without receiving it.
pub(super) unsafe fn probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let from = Envelope {
        rank: source,
        tag,
        comm: handles::comm(comm)?,
    };
    let found = universe()?.probe(from)?;
    // SAFETY: `status` NULL or valid.
    unsafe { write_status(status, &found) };
    Ok(())
}

/// Reports whether a message is there, without receiving it.
pub(super) unsafe fn iprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: &mut Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let from = Envelope {
        rank: source,
        tag,
        comm: handles::comm(comm)?,
    };
    let found = universe()?.iprobe(from)?;
    flag.set(found.is_some() as c_int);
    if let Some(found) = found {
        // SAFETY: `status` NULL or valid.
        unsafe { write_status(status, &found) };
    }
    Ok(())
}

/// The whole items of `datatype` in the data a status reports; None if not a whole number.
///
/// # Safety
/// `status` is NULL or valid for reads.
unsafe fn whole_items(status: *const MPI_Status, datatype: MPI_Datatype) -> Result<Option<u64>> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    if status.is_null() {
        return Err(Error::NullArgument("status"));
    }
    // SAFETY: non-null and valid for reads (the caller's contract).
    let status = read_status(unsafe { &*status });
    let map = universe()?.type_layout(handles::datatype(datatype)?)?;
    Ok(typemap::get_count(&map, status.bytes))
}

/// The number of whole elements of `datatype` a status reports (MPI_UNDEFINED if the
/// bytes are not a whole number of them).
pub(super) unsafe fn get_count(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: &mut Out<c_int>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    let whole = unsafe { whole_items(status, datatype)? };
    count.set(
        whole
            .and_then(|n| c_int::try_from(n).ok())
            .unwrap_or(abi::MPI_UNDEFINED),
    );
    Ok(())
}

/// MPI_Get_count as an MPI_Count.
pub(super) unsafe fn get_count_c(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: &mut Out<abi::MPI_Count>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    let whole = unsafe { whole_items(status, datatype)? };
    count.set(whole.map_or(abi::MPI_UNDEFINED.into(), |n| n as abi::MPI_Count));
    Ok(())
}

/// Waits for a request; a receive's data arrives now. The handle becomes
/// MPI_REQUEST_NULL unless the request is persistent.
pub(super) unsafe fn wait(request: &mut Out<MPI_Request>, status: *mut MPI_Status) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let done = universe()?.wait(request_of(request.get())?)?;
    if done.freed {
        request.set(null());
    }
    // SAFETY: the request's receive buffer; `status` NULL or valid.
    unsafe { finish(done, status) }
}

/// Tests a request: `flag` says whether it completed (then as MPI_Wait).
pub(super) unsafe fn test(
    request: &mut Out<MPI_Request>,
    flag: &mut Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    match universe()?.test(request_of(request.get())?)? {
        None => {
            flag.set(0);
            Ok(())
        }
        Some(done) => {
            flag.set(1);
            if done.freed {
                request.set(null());
            }
            // SAFETY: the request's receive buffer; `status` NULL or valid.
            unsafe { finish(done, status) }
        }
    }
}

/// Waits for every request; a failed one makes the call return MPI_ERR_IN_STATUS with
/// each status's MPI_ERROR set.
pub(super) unsafe fn waitall(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let count = usize::try_from(count).map_err(|_| Error::InvalidCount)?;
    if count > 0 && array_of_requests.is_null() {
        return Err(Error::NullArgument("array_of_requests"));
    }
    let raw: &mut [MPI_Request] = if count == 0 {
        &mut []
    } else {
        // SAFETY: `count` requests (the caller's contract).
        unsafe { std::slice::from_raw_parts_mut(array_of_requests, count) }
    };
    let requests = raw
        .iter()
        .map(|r| request_of(*r))
        .collect::<Result<Vec<_>>>()?;
    let done = universe()?.waitall(&requests)?;
    let mut failed = false;
    let errors: Vec<c_int> = done.iter().map(|c| c.status.error).collect();
    for (i, completion) in done.into_iter().enumerate() {
        if completion.freed {
            raw[i] = null();
        }
        let status = if array_of_statuses.is_null() {
            std::ptr::null_mut()
        } else {
            // SAFETY: `count` statuses (the caller's contract).
            unsafe { array_of_statuses.add(i) }
        };
        // SAFETY: the request's receive buffer; `status` NULL or valid.
        failed |= unsafe { finish(completion, status) }.is_err();
    }
    if failed {
        // SAFETY: `count` statuses or MPI_STATUSES_IGNORE (the caller's contract).
        unsafe { write_errors(array_of_statuses, &errors) };
        Err(Error::InStatus)
    } else {
        Ok(())
    }
}

/// Frees a request; an active one completes on its own.
pub(super) fn request_free(request: &mut Out<MPI_Request>) -> Result<()> {
    let universe = universe()?;
    let pending = request_of(request.get())?.ok_or(Error::InvalidRequest)?;
    universe.request_free(pending)?;
    request.set(null());
    Ok(())
}

/// Cancels a request (a send not yet received can be cancelled).
pub(super) unsafe fn cancel(request: *mut MPI_Request) -> Result<()> {
    let universe = universe()?;
    // SAFETY: an MPI input argument passed by address: NULL or valid.
    let request = unsafe { Out::new(request, "request") }?;
    let pending = request_of(request.get())?.ok_or(Error::InvalidRequest)?;
    universe.cancel(pending)
}

/// Whether the operation a status reports was cancelled.
pub(super) unsafe fn test_cancelled(
    status: *const MPI_Status,
    flag: &mut Out<c_int>,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    if status.is_null() {
        return Err(Error::NullArgument("status"));
    }
    // SAFETY: non-null and valid for reads (the caller's contract).
    flag.set(read_status(unsafe { &*status }).cancelled as c_int);
    Ok(())
}

/// Copies a C status into a Fortran one (`MPI_STATUS_SIZE` INTEGERs: `MPI_SOURCE`, `MPI_TAG`,
/// `MPI_ERROR`, then the hidden fields, each an `MPI_Fint`). Callable at any time.
pub(super) unsafe fn status_c2f(
    c_status: *const MPI_Status,
    f_status: *mut MPI_Fint,
) -> Result<()> {
    if c_status.is_null() {
        return Err(Error::NullArgument("c_status"));
    }
    if f_status.is_null() {
        return Err(Error::NullArgument("f_status"));
    }
    // SAFETY: non-null and valid: a C status, and room for a Fortran one (the caller's
    // contract).
    unsafe {
        f_status
            .cast::<crate::fortran::Status>()
            .write(crate::fortran::conv::status_to(&*c_status))
    };
    Ok(())
}

/// Copies a Fortran status into a C one; the inverse of `MPI_Status_c2f`. Callable at any
/// time.
pub(super) unsafe fn status_f2c(
    f_status: *const MPI_Fint,
    c_status: *mut MPI_Status,
) -> Result<()> {
    if f_status.is_null() {
        return Err(Error::NullArgument("f_status"));
    }
    if c_status.is_null() {
        return Err(Error::NullArgument("c_status"));
    }
    // SAFETY: non-null and valid: a Fortran status, and room for a C one (the caller's
    // contract).
    unsafe {
        c_status.write(crate::fortran::conv::status_from(
            &*f_status.cast::<crate::fortran::Status>(),
        ))
    };
    Ok(())
}

// ---- fast paths ---------------------------------------------------------------------------
//
// The common case of MPI_Send, MPI_Isend, MPI_Recv, MPI_Sendrecv and MPI_Wait with oneself
// (src/engine/messages.rs, `send_fast` and the others): contiguous items, rank 0, nothing
// unusual. `None` sends the call the whole way, which checks and reports everything.

/// The bytes of a send buffer for [`Universe::send_fast`](crate::engine::Universe).
///
/// # Safety
/// `buf` is NULL or valid for reads of `length` bytes.
unsafe fn message_bytes<'a>(buf: *const c_void, length: usize) -> Option<&'a [u8]> {
    if length == 0 {
        return Some(&[]);
    }
    if !super::coll::usable(buf, length) {
        return None;
    }
    // SAFETY: a usable buffer holds the message (the caller's contract).
    Some(unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), length) })
}

#[inline(always)]
unsafe fn send_fast_any(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Option<c_int> {
    if dest != 0 || request.is_some_and(|r| r.is_null()) {
        return None;
    }
    let made = current()?.send_fast(
        handles::comm(comm).ok()?,
        tag,
        handles::datatype(datatype).ok()?,
        usize::try_from(count).ok()?,
        // SAFETY: the send buffer holds the message (the entry point's contract).
        |length| unsafe { message_bytes(buf, length) },
        request.is_some(),
    )?;
    if let (Some(out), Some(made)) = (request, made) {
        // SAFETY: non-null, and valid for writes (the entry point's contract).
        unsafe { out.write(encode_handle(made)) };
    }
    super::coll::success()
}

#[inline(always)]
pub(super) unsafe fn send_fast(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { send_fast_any(buf, count.into(), datatype, dest, tag, comm, None) }
}

#[inline(always)]
pub(super) unsafe fn send_c_fast(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { send_fast_any(buf, count, datatype, dest, tag, comm, None) }
}

#[inline(always)]
pub(super) unsafe fn isend_fast(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { send_fast_any(buf, count.into(), datatype, dest, tag, comm, Some(request)) }
}

#[inline(always)]
pub(super) unsafe fn isend_c_fast(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { send_fast_any(buf, count, datatype, dest, tag, comm, Some(request)) }
}

#[inline(always)]
pub(super) unsafe fn recv_fast(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { recv_fast_any(buf, count.into(), datatype, source, tag, comm, status) }
}

#[inline(always)]
pub(super) unsafe fn recv_c_fast(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe { recv_fast_any(buf, count, datatype, source, tag, comm, status) }
}

#[inline(always)]
unsafe fn recv_fast_any(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Option<c_int> {
    if count != 0 && !super::coll::usable(buf, 1) {
        return None;
    }
    let done = current()?.recv_fast(
        handles::comm(comm).ok()?,
        source,
        tag,
        handles::datatype(datatype).ok()?,
        usize::try_from(count).ok()?,
        |bytes| {
            if !bytes.is_empty() {
                // SAFETY: the receive buffer holds `count` items, at least these bytes (the
                // entry point's contract), and is neither NULL nor MPI_IN_PLACE (checked
                // above: a non-empty message needs a non-zero count).
                unsafe {
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), bytes.len())
                };
            }
        },
    )?;
    // SAFETY: NULL (MPI_STATUS_IGNORE) or valid (the entry point's contract).
    unsafe { write_status(status, &done) };
    super::coll::success()
}

#[inline(always)]
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn sendrecv_fast(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe {
        sendrecv_fast_any(
            sendbuf,
            sendcount.into(),
            sendtype,
            dest,
            sendtag,
            recvbuf,
            recvcount.into(),
            recvtype,
            source,
            recvtag,
            comm,
            status,
        )
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn sendrecv_c_fast(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Option<c_int> {
    // SAFETY: the entry point's contract.
    unsafe {
        sendrecv_fast_any(
            sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
            recvtag, comm, status,
        )
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn sendrecv_fast_any(
    sendbuf: *const c_void,
    sendcount: i64,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: i64,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Option<c_int> {
    let mut readable = true;
    let done = current()?.sendrecv_fast(
        handles::comm(comm).ok()?,
        (
            dest,
            sendtag,
            handles::datatype(sendtype).ok()?,
            usize::try_from(sendcount).ok()?,
        ),
        (
            source,
            recvtag,
            handles::datatype(recvtype).ok()?,
            usize::try_from(recvcount).ok()?,
        ),
        |length| {
            readable = super::coll::usable(sendbuf, length) && super::coll::usable(recvbuf, length);
            if readable && length > 0 {
                // SAFETY: both buffers hold at least `length` bytes (the entry point's
                // contract; the receive's capacity is at least the message), neither NULL nor
                // MPI_IN_PLACE; `copy` allows them to overlap, which the standard forbids.
                unsafe { std::ptr::copy(sendbuf.cast::<u8>(), recvbuf.cast::<u8>(), length) };
            }
        },
    )?;
    if !readable {
        return None;
    }
    // SAFETY: NULL (MPI_STATUS_IGNORE) or valid (the entry point's contract).
    unsafe { write_status(status, &done) };
    super::coll::success()
}

#[inline(always)]
pub(super) unsafe fn wait_fast(
    request: *mut MPI_Request,
    status: *mut MPI_Status,
) -> Option<c_int> {
    if request.is_null() {
        return None;
    }
    // SAFETY: non-null, and valid for reads and writes (the entry point's contract).
    let raw = unsafe { request.read() };
    current()?.wait_fast(request_of(raw).ok()??)?;
    // SAFETY: as above; NULL (MPI_STATUS_IGNORE) or valid (the entry point's contract).
    unsafe {
        request.write(null());
        write_status(status, &Status::empty());
    }
    super::coll::success()
}
