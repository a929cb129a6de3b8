//! The one-block collectives (MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Alltoall) and
//! MPI_Exscan with their large-count (`_c`) forms: the same checks and moves with `int` or
//! `MPI_Count` counts. (MPI_Bcast, MPI_Reduce, MPI_Allreduce and MPI_Scan, with their fast
//! paths, and their `_c` forms are in src/capi/coll.rs.)

use std::ffi::{c_int, c_void};

use super::coll::{one_block, rootless_reduction};
use crate::abi::{MPI_Comm, MPI_Count, MPI_Datatype, MPI_Op};
use crate::engine::{Result, Universe};

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// the documented ones below are their bodies.

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
            i64::from(sendcount),
            sendtype,
            recvbuf,
            i64::from(recvcount),
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
            i64::from(sendcount),
            sendtype,
            recvbuf,
            i64::from(recvcount),
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
            i64::from(sendcount),
            sendtype,
            recvbuf,
            i64::from(recvcount),
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
            i64::from(sendcount),
            sendtype,
            recvbuf,
            i64::from(recvcount),
            recvtype,
            comm,
        )
    }
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
            i64::from(count),
            datatype,
            op,
            comm,
        )
    }
}

/// MPI_Gather with `MPI_Count` counts.
///
/// # Safety
/// The buffers hold what their counts and datatypes describe.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
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

/// MPI_Scatter with `MPI_Count` counts.
///
/// # Safety
/// As for [`gather_c`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatter_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
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

/// MPI_Allgather with `MPI_Count` counts.
///
/// # Safety
/// As for [`gather_c`].
pub(super) unsafe fn allgather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
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

/// MPI_Alltoall with `MPI_Count` counts.
///
/// # Safety
/// As for [`gather_c`].
pub(super) unsafe fn alltoall_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the caller's contract.
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

/// MPI_Exscan with an `MPI_Count` count.
///
/// # Safety
/// As for [`gather_c`].
pub(super) unsafe fn exscan_c(
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
