//! The request functions of MPI-4.1 chapter 3 beyond MPI_Wait/Test/Waitall: persistent
//! sends and receives and MPI_Start/MPI_Startall (which start persistent collectives too),
//! the multiple-completion calls (§3.7.5), MPI_Request_get_status and its array forms,
//! matched probes and receives (§3.8.2, §3.8.3) and the status accessors: the C shell over
//! src/engine/messages.rs and src/engine/requests.rs.
//!
//! A start packs what the request sends ([`Universe::start_buffer`](crate::engine::Universe)
//! names it: a persistent send's buffer, a persistent collective's send block) at the start,
//! so every start sends what the buffer holds then.

use std::ffi::{c_int, c_void};

use super::handles::{self, decode, encode_handle, from_fortran, null, to_fortran};
use super::p2p::{
    finish, read_status, receive_into, request_of, user_buffer, write_errors, write_status,
    write_whole_status,
};
use super::{buffer, universe, Out};
use crate::abi::MPI_Status;
use crate::abi::{self, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Fint, MPI_Message, MPI_Request};
use crate::engine::{Completion, Envelope, Error, Request, Result, SendMode, Status};

// ---- helpers ------------------------------------------------------------------------------

/// A persistent send of `count` elements at `buf`.
#[allow(clippy::too_many_arguments)] // the standard's argument list, and the mode
fn send_init_any(
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
    let buffer = user_buffer(buf.cast_mut(), count, datatype, "the send buffer")?;
    let to = Envelope {
        rank: dest,
        tag,
        comm: handles::comm(comm)?,
    };
    let made = universe()?.send_init(mode, buffer, to)?;
    request.set(encode_handle(made));
    Ok(())
}

/// A persistent receive of `count` elements into `buf`.
fn recv_init_any(
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
    request.set(encode_handle(universe()?.recv_init(buffer, from)?));
    Ok(())
}

/// What a start of `request` passes to the engine: the packed bytes of the buffer it sends
/// (none for a receive).
///
/// # Safety
/// The buffer the request was made with is still readable (the program's contract).
unsafe fn start_data(request: Request) -> Result<Vec<u8>> {
    match universe()?.start_buffer(request)? {
        // SAFETY: the caller's contract.
        Some(kept) => unsafe { buffer::read_kept(&kept, "the send buffer") },
        None => Ok(Vec::new()),
    }
}

/// `count` requests at `array` as the engine's (`None` for `MPI_REQUEST_NULL`); a negative
/// count is `MPI_ERR_COUNT`, a NULL array with a positive count `MPI_ERR_ARG`.
///
/// # Safety
/// `array` is NULL or valid for reads of `count` requests.
unsafe fn requests_at(
    count: c_int,
    array: *const MPI_Request,
) -> Result<(usize, Vec<Option<Request>>)> {
    let count = usize::try_from(count).map_err(|_| Error::InvalidCount)?;
    if count == 0 {
        return Ok((0, Vec::new()));
    }
    if array.is_null() {
        return Err(Error::NullArgument("array_of_requests"));
    }
    // SAFETY: `count` requests (the caller's contract).
    let raw = unsafe { std::slice::from_raw_parts(array, count) };
    let requests = raw
        .iter()
        .map(|r| request_of(*r))
        .collect::<Result<Vec<_>>>()?;
    Ok((count, requests))
}

/// Element `i` of a status array, NULL for `MPI_STATUSES_IGNORE`.
///
/// # Safety
/// `statuses` is NULL or valid for `i + 1` statuses.
unsafe fn status_at(statuses: *mut MPI_Status, i: usize) -> *mut MPI_Status {
    if statuses.is_null() {
        std::ptr::null_mut()
    } else {
        // SAFETY: within the array (the caller's contract).
        unsafe { statuses.add(i) }
    }
}

/// Reports one completion of the request at `array[index]`: its handle becomes
/// `MPI_REQUEST_NULL` if the request is gone, a receive delivers, the status is written.
/// `Err` is the operation's own error.
///
/// # Safety
/// `array` valid for `index + 1` requests; `status` NULL or valid; the receive buffer.
unsafe fn report(
    array: *mut MPI_Request,
    index: usize,
    completion: Completion,
    status: *mut MPI_Status,
) -> Result<()> {
    if completion.freed {
        // SAFETY: within the array (the caller's contract).
        unsafe { array.add(index).write(null()) };
    }
    // SAFETY: the caller's contract.
    unsafe { finish(completion, status) }
}

/// Reports several completions, each with its status at its position in the list; a failed
/// operation makes the result `MPI_ERR_IN_STATUS` (every status's `MPI_ERROR` says which).
///
/// # Safety
/// As for [`report`], `statuses` NULL or valid for `done.len()` statuses.
unsafe fn report_list(
    array: *mut MPI_Request,
    done: Vec<(usize, Completion)>,
    statuses: *mut MPI_Status,
) -> Result<()> {
    let mut failed = false;
    let errors: Vec<c_int> = done.iter().map(|(_, c)| c.status.error).collect();
    for (k, (index, completion)) in done.into_iter().enumerate() {
        // SAFETY: the caller's contract.
        failed |= unsafe { report(array, index, completion, status_at(statuses, k)) }.is_err();
    }
    if failed {
        // SAFETY: `done.len()` statuses or MPI_STATUSES_IGNORE (the caller's contract).
        unsafe { write_errors(statuses, &errors) };
        Err(Error::InStatus)
    } else {
        Ok(())
    }
}

/// Writes the indices of a completed list (`MPI_Waitsome`, `MPI_Testsome`,
/// `MPI_Request_get_status_some`).
///
/// # Safety
/// `indices` valid for `indices_of.len()` ints.
unsafe fn write_indices(indices: *mut c_int, indices_of: impl Iterator<Item = usize>) {
    for (k, index) in indices_of.enumerate() {
        // SAFETY: within the array (the caller's contract); an index below `incount`.
        unsafe { indices.add(k).write(index as c_int) };
    }
}

/// Makes the data of a receive that `MPI_Request_get_status` found complete visible in its
/// buffer now (the wait or test that frees the request later delivers nothing).
///
/// # Safety
/// The request's receive buffer is writable (the program's contract).
unsafe fn deliver_early(request: Option<Request>) -> Result<()> {
    let Some(request) = request else {
        return Ok(());
    };
    if let Some(delivery) = universe()?.take_delivery(request)? {
        let to = &delivery.buffer;
        // SAFETY: the receive buffer its call named (the caller's contract).
        unsafe {
            buffer::deliver(
                to.address,
                to.layout.as_ref(),
                &delivery.bytes,
                "the receive buffer",
            )?
        };
    }
    Ok(())
}

/// A status's fields as the engine reads them; NULL is `MPI_ERR_ARG`.
///
/// # Safety
/// `status` is NULL or valid for reads.
unsafe fn status_in(status: *const MPI_Status) -> Result<Status> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    if status.is_null() {
        return Err(Error::NullArgument("status"));
    }
    // SAFETY: non-null and valid (the caller's contract).
    Ok(read_status(unsafe { &*status }))
}

/// Changes a status with `change`; NULL is `MPI_ERR_ARG`.
///
/// # Safety
/// `status` is NULL or valid for reads and writes.
unsafe fn status_change(status: *mut MPI_Status, change: impl FnOnce(&mut Status)) -> Result<()> {
    // SAFETY: the caller's contract.
    let mut fields = unsafe { status_in(status)? };
    change(&mut fields);
    // SAFETY: non-null (checked above) and valid for writes.
    unsafe { write_whole_status(status, &fields) };
    Ok(())
}

fn envelope(source: c_int, tag: c_int, comm: MPI_Comm) -> Result<Envelope> {
    Ok(Envelope {
        rank: source,
        tag,
        comm: handles::comm(comm)?,
    })
}

/// A matched receive of `count` elements into `buf`; the message handle becomes
/// `MPI_MESSAGE_NULL`.
///
/// # Safety
/// `buf` is valid for writes of the message; `status` NULL or valid.
unsafe fn mrecv_any(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    message: &mut Out<MPI_Message>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let matched = decode(message.get())?;
    let buffer = user_buffer(buf, count, datatype, "the receive buffer")?;
    let done = universe()?.mrecv(matched, buffer)?;
    message.set(null());
    // SAFETY: `buf` is the receive buffer; `status` NULL or valid.
    unsafe { finish(done, status) }
}

/// A nonblocking matched receive; the message handle becomes `MPI_MESSAGE_NULL`.
fn imrecv_any(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    message: &mut Out<MPI_Message>,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let matched = decode(message.get())?;
    let buffer = user_buffer(buf, count, datatype, "the receive buffer")?;
    let made = universe()?.imrecv(matched, buffer)?;
    message.set(null());
    request.set(encode_handle(made));
    Ok(())
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

// ---- persistent requests ------------------------------------------------------------------

/// Makes an inactive persistent standard send; each MPI_Start sends what the buffer holds then.
pub(super) fn send_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    send_init_any(
        SendMode::Standard,
        buf,
        count.into(),
        datatype,
        dest,
        tag,
        comm,
        request,
    )
}

/// MPI_Send_init with an `MPI_Count` count.
pub(super) fn send_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    send_init_any(
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

/// Makes an inactive persistent synchronous send: each start completes once a receive matches it.
pub(super) fn ssend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    send_init_any(
        SendMode::Synchronous,
        buf,
        count.into(),
        datatype,
        dest,
        tag,
        comm,
        request,
    )
}

/// MPI_Ssend_init with an `MPI_Count` count.
pub(super) fn ssend_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    send_init_any(
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

/// Makes an inactive persistent ready send: each start needs a matching receive posted.
pub(super) fn rsend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    send_init_any(
        SendMode::Ready,
        buf,
        count.into(),
        datatype,
        dest,
        tag,
        comm,
        request,
    )
}

/// MPI_Rsend_init with an `MPI_Count` count.
pub(super) fn rsend_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    send_init_any(
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

/// Makes an inactive persistent receive; each start posts it again.
pub(super) fn recv_init(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    recv_init_any(buf, count.into(), datatype, source, tag, comm, request)
}

/// MPI_Recv_init with an `MPI_Count` count.
pub(super) fn recv_init_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    recv_init_any(buf, count, datatype, source, tag, comm, request)
}

/// Starts an inactive persistent request (a send, a receive, a persistent collective).
pub(super) unsafe fn start(request: &mut Out<MPI_Request>) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let started = request_of(request.get())?.ok_or(Error::InvalidRequest)?;
    // SAFETY: the request's send buffer (the caller's contract).
    let data = unsafe { start_data(started)? };
    universe()?.start(started, data)
}

/// Starts every request of the array, after checking that each is an inactive persistent one.
pub(super) unsafe fn startall(count: c_int, array_of_requests: *mut MPI_Request) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `count` requests (the caller's contract).
    let (_, requests) = unsafe { requests_at(count, array_of_requests)? };
    let starts = requests
        .into_iter()
        .map(|r| {
            let r = r.ok_or(Error::InvalidRequest)?;
            // SAFETY: the request's send buffer (the caller's contract).
            Ok((r, unsafe { start_data(r)? }))
        })
        .collect::<Result<Vec<_>>>()?;
    universe()?.startall(starts)
}

// ---- completion ---------------------------------------------------------------------------

/// Waits for one of the requests; `index` is its position (MPI_UNDEFINED, with an empty
/// status, when every request is null or inactive).
pub(super) unsafe fn waitany(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    index: &mut Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `count` requests (the caller's contract).
    let (_, requests) = unsafe { requests_at(count, array_of_requests)? };
    match universe()?.waitany(&requests)? {
        None => {
            index.set(abi::MPI_UNDEFINED);
            // SAFETY: `status` NULL or valid.
            unsafe { write_status(status, &Status::empty()) };
            Ok(())
        }
        Some((i, done)) => {
            index.set(i as c_int);
            // SAFETY: within the array; the request's receive buffer; `status` NULL or valid.
            unsafe { report(array_of_requests, i, done, status) }
        }
    }
}

/// Tests the requests for one that is complete: `flag` and `index` say which, as MPI_Waitany.
pub(super) unsafe fn testany(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    index: &mut Out<c_int>,
    flag: &mut Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `count` requests (the caller's contract).
    let (_, requests) = unsafe { requests_at(count, array_of_requests)? };
    match universe()?.testany(&requests)? {
        (done, None) => {
            index.set(abi::MPI_UNDEFINED);
            flag.set(done as c_int);
            if done {
                // SAFETY: `status` NULL or valid.
                unsafe { write_status(status, &Status::empty()) };
            }
            Ok(())
        }
        (_, Some((i, done))) => {
            index.set(i as c_int);
            flag.set(1);
            // SAFETY: within the array; the request's receive buffer; `status` NULL or valid.
            unsafe { report(array_of_requests, i, done, status) }
        }
    }
}

/// Completes every request if all are complete (`flag` true, as MPI_Waitall); else changes nothing.
pub(super) unsafe fn testall(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    flag: &mut Out<c_int>,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `count` requests (the caller's contract).
    let (_, requests) = unsafe { requests_at(count, array_of_requests)? };
    match universe()?.testall(&requests)? {
        None => {
            flag.set(0);
            Ok(())
        }
        Some(done) => {
            flag.set(1);
            // SAFETY: `count` requests and statuses; the receive buffers.
            unsafe {
                report_list(
                    array_of_requests,
                    done.into_iter().enumerate().collect(),
                    array_of_statuses,
                )
            }
        }
    }
}

/// The body of MPI_Waitsome and MPI_Testsome.
///
/// # Safety
/// As for [`waitsome`].
unsafe fn some(
    wait: bool,
    incount: c_int,
    array_of_requests: *mut MPI_Request,
    outcount: &mut Out<c_int>,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `incount` requests (the caller's contract).
    let (count, requests) = unsafe { requests_at(incount, array_of_requests)? };
    if count > 0 && array_of_indices.is_null() {
        return Err(Error::NullArgument("array_of_indices"));
    }
    let found = if wait {
        universe()?.waitsome(&requests)?
    } else {
        universe()?.testsome(&requests)?
    };
    let Some(done) = found else {
        outcount.set(abi::MPI_UNDEFINED);
        return Ok(());
    };
    outcount.set(done.len() as c_int);
    // SAFETY: at most `incount` indices.
    unsafe { write_indices(array_of_indices, done.iter().map(|(i, _)| *i)) };
    // SAFETY: `incount` requests and statuses; the receive buffers.
    unsafe { report_list(array_of_requests, done, array_of_statuses) }
}

/// Waits until at least one request completes and completes every one that has, by
/// increasing index (`outcount` MPI_UNDEFINED when every request is null or inactive).
pub(super) unsafe fn waitsome(
    incount: c_int,
    array_of_requests: *mut MPI_Request,
    outcount: &mut Out<c_int>,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        some(
            true,
            incount,
            array_of_requests,
            outcount,
            array_of_indices,
            array_of_statuses,
        )
    }
}

/// Completes every request that is complete now, as MPI_Waitsome without waiting (`outcount` 0 if none).
pub(super) unsafe fn testsome(
    incount: c_int,
    array_of_requests: *mut MPI_Request,
    outcount: &mut Out<c_int>,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        some(
            false,
            incount,
            array_of_requests,
            outcount,
            array_of_indices,
            array_of_statuses,
        )
    }
}

/// Whether a request is complete, with its status, leaving it as it is (no handle changes).
pub(super) unsafe fn request_get_status(
    request: MPI_Request,
    flag: &mut Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let request = request_of(request)?;
    match universe()?.request_get_status(request)? {
        None => flag.set(0),
        Some(found) => {
            // SAFETY: the request's receive buffer.
            unsafe { deliver_early(request)? };
            flag.set(1);
            // SAFETY: `status` NULL or valid.
            unsafe { write_status(status, &found) };
        }
    }
    Ok(())
}

/// MPI_Testany without completing anything: the first complete request's index and status.
pub(super) unsafe fn request_get_status_any(
    count: c_int,
    array_of_requests: *const MPI_Request,
    index: &mut Out<c_int>,
    flag: &mut Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `count` requests (the caller's contract).
    let (_, requests) = unsafe { requests_at(count, array_of_requests)? };
    match universe()?.request_get_status_any(&requests)? {
        (done, None) => {
            index.set(abi::MPI_UNDEFINED);
            flag.set(done as c_int);
            if done {
                // SAFETY: `status` NULL or valid.
                unsafe { write_status(status, &Status::empty()) };
            }
        }
        (_, Some((i, found))) => {
            // SAFETY: the request's receive buffer.
            unsafe { deliver_early(requests[i])? };
            index.set(i as c_int);
            flag.set(1);
            // SAFETY: `status` NULL or valid.
            unsafe { write_status(status, &found) };
        }
    }
    Ok(())
}

/// MPI_Testall without completing anything: `flag` true with every status if all are complete.
pub(super) unsafe fn request_get_status_all(
    count: c_int,
    array_of_requests: *const MPI_Request,
    flag: &mut Out<c_int>,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `count` requests (the caller's contract).
    let (_, requests) = unsafe { requests_at(count, array_of_requests)? };
    let Some(found) = universe()?.request_get_status_all(&requests)? else {
        flag.set(0);
        return Ok(());
    };
    flag.set(1);
    let mut failed = false;
    for (i, fields) in found.iter().enumerate() {
        // SAFETY: the request's receive buffer; `count` statuses.
        unsafe {
            deliver_early(requests[i])?;
            write_status(status_at(array_of_statuses, i), fields);
        }
        failed |= fields.error != abi::MPI_SUCCESS as c_int;
    }
    if failed {
        let errors: Vec<c_int> = found.iter().map(|f| f.error).collect();
        // SAFETY: one status per found request, or MPI_STATUSES_IGNORE.
        unsafe { write_errors(array_of_statuses, &errors) };
        Err(Error::InStatus)
    } else {
        Ok(())
    }
}

/// MPI_Testsome without completing anything: the complete requests' indices and statuses.
pub(super) unsafe fn request_get_status_some(
    incount: c_int,
    array_of_requests: *const MPI_Request,
    outcount: &mut Out<c_int>,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
                 // SAFETY: `incount` requests (the caller's contract).
    let (count, requests) = unsafe { requests_at(incount, array_of_requests)? };
    if count > 0 && array_of_indices.is_null() {
        return Err(Error::NullArgument("array_of_indices"));
    }
    let Some(found) = universe()?.request_get_status_some(&requests)? else {
        outcount.set(abi::MPI_UNDEFINED);
        return Ok(());
    };
    outcount.set(found.len() as c_int);
    // SAFETY: at most `incount` indices.
    unsafe { write_indices(array_of_indices, found.iter().map(|(i, _)| *i)) };
    let mut failed = false;
    for (k, (i, fields)) in found.iter().enumerate() {
        // SAFETY: the request's receive buffer; `incount` statuses.
        unsafe {
            deliver_early(requests[*i])?;
            write_status(status_at(array_of_statuses, k), fields);
        }
        failed |= fields.error != abi::MPI_SUCCESS as c_int;
    }
    if failed {
        let errors: Vec<c_int> = found.iter().map(|(_, f)| f.error).collect();
        // SAFETY: one status per found request, or MPI_STATUSES_IGNORE.
        unsafe { write_errors(array_of_statuses, &errors) };
        Err(Error::InStatus)
    } else {
        Ok(())
    }
}

// ---- matched probes and receives ------------------------------------------------------------

/// Waits for a matching message and takes it off the queue: only MPI_Mrecv or MPI_Imrecv
/// of the returned handle receives it (MPI_MESSAGE_NO_PROC for MPI_PROC_NULL).
pub(super) unsafe fn mprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    message: &mut Out<MPI_Message>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    let (matched, found) = universe()?.mprobe(envelope(source, tag, comm)?)?;
    message.set(encode_handle(matched));
    // SAFETY: `status` NULL or valid.
    unsafe { write_status(status, &found) };
    Ok(())
}

/// As MPI_Mprobe if a message matches (`flag` true); else `flag` false and nothing else changes.
pub(super) unsafe fn improbe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: &mut Out<c_int>,
    message: &mut Out<MPI_Message>,
    status: *mut MPI_Status,
) -> Result<()> {
    universe()?; // first: outside MPI_Init and MPI_Finalize, MPI_ERR_OTHER
    match universe()?.improbe(envelope(source, tag, comm)?)? {
        None => flag.set(0),
        Some((matched, found)) => {
            flag.set(1);
            message.set(encode_handle(matched));
            // SAFETY: `status` NULL or valid.
            unsafe { write_status(status, &found) };
        }
    }
    Ok(())
}

/// Receives the message a matched probe returned; the handle becomes MPI_MESSAGE_NULL.
pub(super) unsafe fn mrecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    message: &mut Out<MPI_Message>,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { mrecv_any(buf, count.into(), datatype, message, status) }
}

/// MPI_Mrecv with an `MPI_Count` count.
pub(super) unsafe fn mrecv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    message: &mut Out<MPI_Message>,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { mrecv_any(buf, count, datatype, message, status) }
}

/// Starts receiving the message a matched probe returned (the request is complete at once);
/// the handle becomes MPI_MESSAGE_NULL.
pub(super) fn imrecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    message: &mut Out<MPI_Message>,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    imrecv_any(buf, count.into(), datatype, message, request)
}

/// MPI_Imrecv with an `MPI_Count` count.
pub(super) fn imrecv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    message: &mut Out<MPI_Message>,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    imrecv_any(buf, count, datatype, message, request)
}

/// The Fortran integer of a message handle (MPI_MESSAGE_NULL's for one that names nothing).
pub(super) fn message_c2f(message: MPI_Message) -> MPI_Fint {
    to_fortran(message) as MPI_Fint
}

/// The message handle of a Fortran integer (MPI_MESSAGE_NULL if it names none).
pub(super) fn message_f2c(message: MPI_Fint) -> MPI_Message {
    from_fortran(message as i64)
}

/// The Fortran integer of a request handle: `MPI_REQUEST_NULL`'s value for the null request
/// and for a handle that names no live request.
pub(super) fn request_c2f(request: MPI_Request) -> MPI_Fint {
    to_fortran(request) as MPI_Fint
}

/// The request handle of a Fortran integer (MPI_REQUEST_NULL if it names none).
pub(super) fn request_f2c(request: MPI_Fint) -> MPI_Request {
    from_fortran(request as i64)
}

// ---- statuses -----------------------------------------------------------------------------

/// Sets whether a status says its operation was cancelled (what MPI_Test_cancelled reads).
pub(super) unsafe fn status_set_cancelled(status: *mut MPI_Status, flag: c_int) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { status_change(status, |s| s.cancelled = flag != 0) }
}

/// The `MPI_SOURCE` field of a status.
pub(super) unsafe fn status_get_source(
    status: *const MPI_Status,
    source: &mut Out<c_int>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    source.set(unsafe { status_in(status)? }.source);
    Ok(())
}

/// The `MPI_TAG` field of a status.
pub(super) unsafe fn status_get_tag(status: *const MPI_Status, tag: &mut Out<c_int>) -> Result<()> {
    // SAFETY: the entry point's contract.
    tag.set(unsafe { status_in(status)? }.tag);
    Ok(())
}

/// The `MPI_ERROR` field of a status.
pub(super) unsafe fn status_get_error(
    status: *const MPI_Status,
    err: &mut Out<c_int>,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    err.set(unsafe { status_in(status)? }.error);
    Ok(())
}

/// Sets the `MPI_SOURCE` field of a status.
pub(super) unsafe fn status_set_source(status: *mut MPI_Status, source: c_int) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { status_change(status, |s| s.source = source) }
}

/// Sets the `MPI_TAG` field of a status.
pub(super) unsafe fn status_set_tag(status: *mut MPI_Status, tag: c_int) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { status_change(status, |s| s.tag = tag) }
}

/// Sets the `MPI_ERROR` field of a status.
pub(super) unsafe fn status_set_error(status: *mut MPI_Status, err: c_int) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { status_change(status, |s| s.error = err) }
}
