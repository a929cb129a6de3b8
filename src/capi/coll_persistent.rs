//! The persistent collectives of MPI-4 (MPI-4.1 §6.13: MPI_Barrier_init, MPI_Bcast_init, ...
//! MPI_Exscan_init) and their large-count forms.
//!
//! An init call checks its arguments as the blocking form does (the same body runs with the
//! move recorded instead of done, [`coll::recording`]), and returns an inactive persistent
//! request of the engine ([`Universe::collective_init`](crate::engine::Universe)) that keeps
//! the two blocks the collective moves: the send block, packed at each `MPI_Start`
//! ([`Universe::start_buffer`](crate::engine::Universe) names it), and the receive block, into
//! which the wait that completes the start delivers it. So every start moves the data the send
//! buffer holds at that start, as on a real MPI. `MPI_Request_free` frees an inactive one.

use std::ffi::{c_int, c_void};

use super::handles::{self, encode_handle};
use super::{coll, coll_large, coll_v, universe, Out};
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Info, MPI_Op, MPI_Request};
use crate::engine::Result;

/// Checks `info`, runs the blocking body recording its move, and sets `*request` to an
/// inactive persistent request that redoes the move at each start.
fn planned(
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
    run: impl FnOnce() -> Result<()>,
) -> Result<()> {
    let universe = universe()?;
    let comm_handle = handles::comm(comm)?;
    handles::info_or_null(info)?;
    let (send, recv) = coll::recording(run)?.unzip();
    let made = universe.collective_init(comm_handle, send, recv)?;
    request.set(encode_handle(made));
    Ok(())
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Persistent MPI_Barrier: checks the arguments as MPI_Barrier does and returns an inactive request; each MPI_Start does the move again.
pub(super) fn barrier_init(
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || coll::barrier(comm))
}

/// Persistent MPI_Bcast: checks the arguments as MPI_Bcast does and returns an inactive request; each MPI_Start does the move again.
pub(super) fn bcast_init(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        coll::bcast(buffer, count, datatype, root, comm)
    })
}

/// MPI_Bcast_init with `MPI_Count` counts and `MPI_Aint` displacements.
pub(super) fn bcast_init_c(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        coll::bcast_c(buffer, count, datatype, root, comm)
    })
}

/// Persistent MPI_Gather: checks the arguments as MPI_Gather does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::gather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Gather_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gather_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::gather_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// Persistent MPI_Gatherv: checks the arguments as MPI_Gatherv does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::gatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Gatherv_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gatherv_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::gatherv_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
            )
        }
    })
}

/// Persistent MPI_Scatter: checks the arguments as MPI_Scatter does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatter_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::scatter(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Scatter_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatter_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::scatter_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// Persistent MPI_Scatterv: checks the arguments as MPI_Scatterv does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatterv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::scatterv(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// MPI_Scatterv_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatterv_init_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::scatterv_c(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

/// Persistent MPI_Allgather: checks the arguments as MPI_Allgather does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allgather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::allgather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// MPI_Allgather_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allgather_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::allgather_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// Persistent MPI_Allgatherv: checks the arguments as MPI_Allgatherv does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allgatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::allgatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
            )
        }
    })
}

/// MPI_Allgatherv_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allgatherv_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::allgatherv_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
            )
        }
    })
}

/// Persistent MPI_Alltoall: checks the arguments as MPI_Alltoall does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoall_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::alltoall(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// MPI_Alltoall_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoall_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_large::alltoall_c(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// Persistent MPI_Alltoallv: checks the arguments as MPI_Alltoallv does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::alltoallv(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm,
            )
        }
    })
}

/// MPI_Alltoallv_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallv_init_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::alltoallv_c(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm,
            )
        }
    })
}

/// Persistent MPI_Alltoallw: checks the arguments as MPI_Alltoallw does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallw_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::alltoallw(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm,
            )
        }
    })
}

/// MPI_Alltoallw_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallw_init_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe {
            coll_v::alltoallw_c(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm,
            )
        }
    })
}

/// Persistent MPI_Reduce: checks the arguments as MPI_Reduce does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }
    })
}

/// MPI_Reduce_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll::reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm) }
    })
}

/// Persistent MPI_Allreduce: checks the arguments as MPI_Allreduce does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allreduce_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// MPI_Allreduce_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allreduce_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll::allreduce_c(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// Persistent MPI_Reduce_scatter: checks the arguments as MPI_Reduce_scatter does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_scatter_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll_v::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
    })
}

/// MPI_Reduce_scatter_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_scatter_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll_v::reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
    })
}

/// Persistent MPI_Reduce_scatter_block: checks the arguments as MPI_Reduce_scatter_block does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_scatter_block_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll_v::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

/// MPI_Reduce_scatter_block_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn reduce_scatter_block_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll_v::reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

/// Persistent MPI_Scan: checks the arguments as MPI_Scan does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scan_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll::scan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// MPI_Scan_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scan_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll::scan_c(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// Persistent MPI_Exscan: checks the arguments as MPI_Exscan does and returns an inactive request; each MPI_Start does the move again.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn exscan_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll_large::exscan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// MPI_Exscan_init with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn exscan_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
) -> Result<()> {
    planned(comm, info, request, || {
        // SAFETY: the entry point's contract (nothing moves now).
        unsafe { coll_large::exscan_c(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}
