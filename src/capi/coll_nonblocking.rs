//! The nonblocking collectives (MPI-4.1 §6.12: MPI_Ibarrier, MPI_Ibcast, ... MPI_Iexscan) and
//! their large-count forms.
//!
//! On one process a collective needs no other process, so each call does all its work before
//! it returns, exactly as the blocking call does (same checks, same move), and hands back a
//! request that is already complete: MPI_Wait, MPI_Test and their array forms report it with
//! an empty status and free it (MPI_Request_free and MPI_Cancel on it are erroneous, MPI-4.1
//! §6.12; the first frees it, the second does nothing). docs/semantics.md
//! ("Nonblocking and persistent collectives") says why moving the data at the call is allowed. A call that
//! fails leaves `*request` and every buffer as they were, and no request behind.

use std::ffi::{c_int, c_void};

use super::handles::encode_handle;
use super::{coll, coll_large, coll_v, universe, Out};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Op, MPI_Request};
use crate::engine::Result;

/// Makes the complete request, runs the blocking form, and sets `*request` if it succeeds
/// (the request is dropped if it fails).
fn started(request: &mut Out<MPI_Request>, run: impl FnOnce() -> Result<()>) -> Result<()> {
    let universe = universe()?;
    let made = universe.collective_request()?;
    match run() {
        Ok(()) => {
            request.set(encode_handle(made));
            Ok(())
        }
        Err(error) => {
            universe.request_complete(made)?;
            Err(error)
        }
    }
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Nonblocking MPI_Barrier: complete on return, with a complete request.
pub(super) fn ibarrier(comm: MPI_Comm, request: &mut Out<MPI_Request>) -> Result<()> {
    started(request, || coll::barrier(comm))
}

/// Nonblocking MPI_Bcast: checks the arguments (nothing moves); the request is complete.
pub(super) fn ibcast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || coll::bcast(buffer, count, datatype, root, comm))
}

/// MPI_Ibcast with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) fn ibcast_c(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        coll::bcast_c(buffer, count, datatype, root, comm)
    })
}

/// Nonblocking MPI_Gather: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn igather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::gather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Igather with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn igather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::gather_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// Nonblocking MPI_Gatherv: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn igatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::gatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Igatherv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn igatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::gatherv_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
            )
        }
    })
}

/// Nonblocking MPI_Scatter: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iscatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::scatter(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Iscatter with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iscatter_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::scatter_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// Nonblocking MPI_Scatterv: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iscatterv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::scatterv(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Iscatterv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iscatterv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::scatterv_c(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// Nonblocking MPI_Allgather: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iallgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::allgather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// MPI_Iallgather with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iallgather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::allgather_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// Nonblocking MPI_Allgatherv: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iallgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::allgatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
            )
        }
    })
}

/// MPI_Iallgatherv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn iallgatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::allgatherv_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
            )
        }
    })
}

/// Nonblocking MPI_Alltoall: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ialltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::alltoall(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// MPI_Ialltoall with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ialltoall_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_large::alltoall_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// Nonblocking MPI_Alltoallv: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ialltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::alltoallv(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm,
            )
        }
    })
}

/// MPI_Ialltoallv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ialltoallv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::alltoallv_c(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm,
            )
        }
    })
}

/// Nonblocking MPI_Alltoallw: the data moves during the call; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ialltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::alltoallw(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm,
            )
        }
    })
}

/// MPI_Ialltoallw with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ialltoallw_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe {
            coll_v::alltoallw_c(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm,
            )
        }
    })
}

/// Nonblocking MPI_Reduce: the result is in place when the call returns; the request is complete.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ireduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }
    })
}

/// MPI_Ireduce with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn ireduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll::reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm) }
    })
}

/// Nonblocking MPI_Allreduce: the result is in place when the call returns; the request is complete.
pub(super) unsafe fn iallreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// MPI_Iallreduce with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) unsafe fn iallreduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll::allreduce_c(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// Nonblocking MPI_Reduce_scatter: the result is in place when the call returns; the request is complete.
pub(super) unsafe fn ireduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll_v::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
    })
}

/// MPI_Ireduce_scatter with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) unsafe fn ireduce_scatter_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll_v::reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
    })
}

/// Nonblocking MPI_Reduce_scatter_block: the result is in place when the call returns; the request is complete.
pub(super) unsafe fn ireduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll_v::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

/// MPI_Ireduce_scatter_block with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) unsafe fn ireduce_scatter_block_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll_v::reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

/// Nonblocking MPI_Scan: the result is in place when the call returns; the request is complete.
pub(super) unsafe fn iscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll::scan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// MPI_Iscan with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) unsafe fn iscan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll::scan_c(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// Nonblocking MPI_Exscan: checks the arguments, moves nothing; the request is complete.
pub(super) unsafe fn iexscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll_large::exscan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// MPI_Iexscan with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) unsafe fn iexscan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    started(request, || {
        // SAFETY: the entry point's contract.
        unsafe { coll_large::exscan_c(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}
