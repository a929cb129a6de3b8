//! The v and w forms of the collectives (MPI-4.1 §6.5-§6.8: MPI_Gatherv, MPI_Scatterv,
//! MPI_Allgatherv, MPI_Alltoallv, MPI_Alltoallw) and the reduce-scatters (§6.10), with their
//! large-count (`_c`) forms: the C shell over src/engine/collectives.rs.
//!
//! A per-process array (counts, displacements, datatypes) has one entry per process of the
//! communicator: one here, so the shell reads its first entry, and NULL where it must be read
//! is `MPI_ERR_ARG`. An array the standard says is ignored (the send side of an in-place
//! gather) is not read at all.

use std::ffi::{c_int, c_void};

use super::coll::{apply, apply_with, in_place, op_of, reduction, Arg};
use super::handles;
use super::universe;
use crate::abi::{MPI_Aint, MPI_Comm, MPI_Count, MPI_Datatype, MPI_Op};
use crate::engine::{Error, Result, VSide, WSide};

/// An entry of a per-process array: `int`, `MPI_Count` or `MPI_Aint`.
pub(super) trait Entry: Copy {
    fn wide(self) -> i64;
}

impl Entry for i32 {
    fn wide(self) -> i64 {
        i64::from(self)
    }
}

impl Entry for i64 {
    fn wide(self) -> i64 {
        self
    }
}

impl Entry for isize {
    fn wide(self) -> i64 {
        self as i64
    }
}

/// The one entry of a per-process array (`MPI_ERR_ARG` naming `what` if it is NULL).
///
/// # Safety
/// `array` is NULL or holds an entry per process (the caller's MPI contract).
pub(super) unsafe fn first<T: Copy>(array: *const T, what: &'static str) -> Result<T> {
    if array.is_null() {
        return Err(Error::InvalidArgument(what));
    }
    // SAFETY: non-null, with one entry per process: one.
    Ok(unsafe { array.read() })
}

/// A buffer argument of a v form: `MPI_IN_PLACE`, or its first count and displacement.
pub(super) struct VArg {
    pub(super) arg: Arg,
    counts: [i64; 1],
    displs: [i64; 1],
}

impl VArg {
    /// Reads the arrays unless `buf` is `MPI_IN_PLACE`.
    ///
    /// # Safety
    /// The arrays are NULL or hold an entry per process.
    pub(super) unsafe fn new<C: Entry, D: Entry>(
        buf: *const c_void,
        counts: *const C,
        displs: *const D,
        datatype: MPI_Datatype,
        names: (&'static str, &'static str),
    ) -> Result<VArg> {
        if in_place(buf) {
            return Ok(VArg {
                arg: Arg::large(buf, 0, datatype)?,
                counts: [0],
                displs: [0],
            });
        }
        // SAFETY: the caller's contract.
        let count = unsafe { first(counts, names.0) }?.wide();
        // SAFETY: as above.
        let displ = unsafe { first(displs, names.1) }?.wide();
        Ok(VArg {
            arg: Arg::large(buf, count, datatype)?,
            counts: [count],
            displs: [displ],
        })
    }

    pub(super) fn side(&self) -> VSide<'_> {
        match &self.arg.data {
            None => VSide::InPlace,
            Some(data) => VSide::Data {
                counts: &self.counts,
                displs: &self.displs,
                datatype: data.datatype,
                signature: &self.arg.signature,
            },
        }
    }
}

/// A buffer argument of MPI_Alltoallw: `MPI_IN_PLACE`, or its first count, byte
/// displacement and datatype.
pub(super) struct WArg {
    pub(super) arg: Arg,
    counts: [i64; 1],
    displs: [i64; 1],
}

impl WArg {
    /// Reads the arrays unless `buf` is `MPI_IN_PLACE`.
    ///
    /// # Safety
    /// The arrays are NULL or hold an entry per process.
    pub(super) unsafe fn new<C: Entry, D: Entry>(
        buf: *const c_void,
        counts: *const C,
        displs: *const D,
        datatypes: *const MPI_Datatype,
        names: (&'static str, &'static str, &'static str),
    ) -> Result<WArg> {
        if in_place(buf) {
            return Ok(WArg {
                arg: Arg::large(buf, 0, handles::null())?,
                counts: [0],
                displs: [0],
            });
        }
        // SAFETY: the caller's contract.
        let count = unsafe { first(counts, names.0) }?.wide();
        // SAFETY: as above.
        let displ = unsafe { first(displs, names.1) }?.wide();
        // SAFETY: as above.
        let datatype = unsafe { first(datatypes, names.2) }?;
        Ok(WArg {
            arg: Arg::large(buf, count, datatype)?,
            counts: [count],
            displs: [displ],
        })
    }

    /// Calls `f` with the side (the signatures' array lives on the stack meanwhile).
    pub(super) fn with_side<R>(&self, f: impl FnOnce(WSide<'_>) -> R) -> R {
        match &self.arg.data {
            None => f(WSide::InPlace),
            Some(data) => {
                let datatypes = [data.datatype];
                let signatures = [self.arg.signature.as_slice()];
                f(WSide::Data {
                    counts: &self.counts,
                    displs: &self.displs,
                    datatypes: &datatypes,
                    signatures: &signatures,
                })
            }
        }
    }
}

// ---- the shared bodies ---------------------------------------------------------------------

/// MPI_Gatherv and MPI_Gatherv_c.
///
/// # Safety
/// The buffers and arrays hold what the standard says (the caller's MPI contract).
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn gatherv_any<C: Entry, D: Entry>(
    sendbuf: *const c_void,
    sendcount: i64,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    displs: *const D,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let send = Arg::large(sendbuf, sendcount, sendtype)?;
    // SAFETY: the caller's contract.
    let recv = unsafe {
        VArg::new(
            recvbuf,
            recvcounts,
            displs,
            recvtype,
            ("recvcounts is NULL", "displs is NULL"),
        )
    }?;
    let moved = universe.gatherv(comm, send.side(), recv.side(), root)?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv.arg) }
}

/// MPI_Scatterv and MPI_Scatterv_c.
///
/// # Safety
/// As for [`gatherv_any`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn scatterv_any<C: Entry, D: Entry>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    displs: *const D,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: i64,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    // SAFETY: the caller's contract.
    let send = unsafe {
        VArg::new(
            sendbuf,
            sendcounts,
            displs,
            sendtype,
            ("sendcounts is NULL", "displs is NULL"),
        )
    }?;
    let recv = Arg::large(recvbuf, recvcount, recvtype)?;
    let moved = universe.scatterv(comm, send.side(), recv.side(), root)?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send.arg, &recv) }
}

/// MPI_Allgatherv and MPI_Allgatherv_c.
///
/// # Safety
/// As for [`gatherv_any`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn allgatherv_any<C: Entry, D: Entry>(
    sendbuf: *const c_void,
    sendcount: i64,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    displs: *const D,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let send = Arg::large(sendbuf, sendcount, sendtype)?;
    // SAFETY: the caller's contract.
    let recv = unsafe {
        VArg::new(
            recvbuf,
            recvcounts,
            displs,
            recvtype,
            ("recvcounts is NULL", "displs is NULL"),
        )
    }?;
    let moved = universe.allgatherv(comm, send.side(), recv.side())?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv.arg) }
}

/// MPI_Alltoallv and MPI_Alltoallv_c.
///
/// # Safety
/// As for [`gatherv_any`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn alltoallv_any<C: Entry, D: Entry>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    sdispls: *const D,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    rdispls: *const D,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    // SAFETY: the caller's contract.
    let send = unsafe {
        VArg::new(
            sendbuf,
            sendcounts,
            sdispls,
            sendtype,
            ("sendcounts is NULL", "sdispls is NULL"),
        )
    }?;
    // SAFETY: as above.
    let recv = unsafe {
        VArg::new(
            recvbuf,
            recvcounts,
            rdispls,
            recvtype,
            ("recvcounts is NULL", "rdispls is NULL"),
        )
    }?;
    let moved = universe.alltoallv(comm, send.side(), recv.side())?;
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send.arg, &recv.arg) }
}

/// MPI_Alltoallw and MPI_Alltoallw_c.
///
/// # Safety
/// As for [`gatherv_any`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn alltoallw_any<C: Entry, D: Entry>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    sdispls: *const D,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    rdispls: *const D,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    // SAFETY: the caller's contract.
    let send = unsafe {
        WArg::new(
            sendbuf,
            sendcounts,
            sdispls,
            sendtypes,
            ("sendcounts is NULL", "sdispls is NULL", "sendtypes is NULL"),
        )
    }?;
    // SAFETY: as above.
    let recv = unsafe {
        WArg::new(
            recvbuf,
            recvcounts,
            rdispls,
            recvtypes,
            ("recvcounts is NULL", "rdispls is NULL", "recvtypes is NULL"),
        )
    }?;
    let moved = send.with_side(|s| recv.with_side(|r| universe.alltoallw(comm, s, r)))?;
    // SAFETY: the buffers the program named.
    unsafe { apply_with(moved, &send.arg, &recv.arg, true) }
}

/// MPI_Reduce_scatter_block and MPI_Reduce_scatter (`counts` is `None` for the block form)
/// and their `_c` forms.
///
/// # Safety
/// As for [`gatherv_any`].
#[allow(clippy::too_many_arguments)] // the standard's argument list
unsafe fn reduce_scatter_any(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: impl FnOnce() -> Result<i64>,
    block: bool,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    let universe = universe()?;
    let comm = handles::comm(comm)?;
    let recvcount = recvcount()?;
    let (place, send, recv) = reduction(sendbuf, recvbuf, recvcount, datatype)?;
    let data = recv
        .data
        .as_ref()
        .ok_or(Error::InPlace("the receive buffer"))?;
    let moved = if block {
        universe.reduce_scatter_block(
            comm,
            place,
            crate::engine::Place::Buffer,
            recvcount,
            data.datatype,
            &recv.signature,
            op_of(op)?,
        )?
    } else {
        universe.reduce_scatter(
            comm,
            place,
            crate::engine::Place::Buffer,
            &[recvcount],
            data.datatype,
            &recv.signature,
            op_of(op)?,
        )?
    };
    // SAFETY: the buffers the program named.
    unsafe { apply(moved, &send, &recv) }
}

// The entry points are generated from bindings/functions.txt (see bindings/generate_c.rs);
// these are their bodies.

/// Gathers to the root (rank 0): the send data lands at block `displs[0]` of its receive
/// buffer, at most `recvcounts[0]` items; `MPI_IN_PLACE` as `sendbuf` moves nothing.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        gatherv_any(
            sendbuf,
            i64::from(sendcount),
            sendtype,
            recvbuf,
            recvcounts,
            displs,
            recvtype,
            root,
            comm,
        )
    }
}

/// MPI_Gatherv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn gatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        gatherv_any(
            sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
        )
    }
}

/// Scatters from the root (rank 0): `sendcounts[0]` items at block `displs[0]` of its send
/// buffer go to its receive buffer; `MPI_IN_PLACE` as `recvbuf` moves nothing.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatterv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        scatterv_any(
            sendbuf,
            sendcounts,
            displs,
            sendtype,
            recvbuf,
            i64::from(recvcount),
            recvtype,
            root,
            comm,
        )
    }
}

/// MPI_Scatterv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn scatterv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        scatterv_any(
            sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
        )
    }
}

/// Gathers to every process: the send data lands at block `displs[0]` of the receive
/// buffer; `MPI_IN_PLACE` as `sendbuf` moves nothing.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        allgatherv_any(
            sendbuf,
            i64::from(sendcount),
            sendtype,
            recvbuf,
            recvcounts,
            displs,
            recvtype,
            comm,
        )
    }
}

/// MPI_Allgatherv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn allgatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        allgatherv_any(
            sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
        )
    }
}

/// Every process sends to every other: `sendcounts[0]` items at block `sdispls[0]` land at
/// block `rdispls[0]`; `MPI_IN_PLACE` as `sendbuf` moves nothing.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        alltoallv_any(
            sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
        )
    }
}

/// MPI_Alltoallv with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        alltoallv_any(
            sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
        )
    }
}

/// As MPI_Alltoallv with a datatype per process and displacements in bytes.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        alltoallw_any(
            sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
        )
    }
}

/// MPI_Alltoallw with `MPI_Count` counts and `MPI_Aint` displacements.
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub(super) unsafe fn alltoallw_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        alltoallw_any(
            sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
        )
    }
}

/// Reduces and scatters equal blocks: the one process's block of `recvcount` items is the
/// send data; `MPI_IN_PLACE` as `sendbuf` moves nothing.
pub(super) unsafe fn reduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        reduce_scatter_any(
            sendbuf,
            recvbuf,
            || Ok(i64::from(recvcount)),
            true,
            datatype,
            op,
            comm,
        )
    }
}

/// MPI_Reduce_scatter_block with an `MPI_Count` count.
pub(super) unsafe fn reduce_scatter_block_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe { reduce_scatter_any(sendbuf, recvbuf, || Ok(recvcount), true, datatype, op, comm) }
}

/// Reduces and scatters blocks of `recvcounts[i]` items: the one process's block is the
/// first `recvcounts[0]` items of the send data; `MPI_IN_PLACE` as `sendbuf` moves nothing.
pub(super) unsafe fn reduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract (the array is read once the communicator is
    // checked).
    unsafe {
        reduce_scatter_any(
            sendbuf,
            recvbuf,
            || first(recvcounts, "recvcounts is NULL").map(i64::from),
            false,
            datatype,
            op,
            comm,
        )
    }
}

/// MPI_Reduce_scatter with `MPI_Count` counts.
pub(super) unsafe fn reduce_scatter_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the entry point's contract.
    unsafe {
        reduce_scatter_any(
            sendbuf,
            recvbuf,
            || first(recvcounts, "recvcounts is NULL"),
            false,
            datatype,
            op,
            comm,
        )
    }
}
