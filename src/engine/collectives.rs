//! Collective operations on a communicator of one process (MPI-4.1 chapter 6).
//!
//! Every communicator has one process, rank 0, so each collective is "check the arguments,
//! then move the send data to the receive data": no reduction ever combines two values (the
//! reduction of one contribution is that contribution), and the user function of a user op
//! is never called by a collective. Each engine function checks the arguments as the standard
//! states them for that process and returns a [`Transfer`] (or `None` when nothing moves):
//! the shell packs `send_count` elements of the send datatype found at `send_displacement`,
//! and unpacks them as `recv_count` elements of the receive datatype at `recv_displacement`
//! ([`Transfer::copy`] is the engine's part of that move, over packed bytes).
//!
//! Every buffer argument is a [`Side`] (or [`VSide`], [`WSide`] for the v and w forms), whose
//! `InPlace` stands for `MPI_IN_PLACE`; the engine refuses it where the standard does not
//! allow it ([`Error::InPlace`], `MPI_ERR_BUFFER`). When a side is in place, the arguments the
//! standard says are ignored are not passed at all.
//!
//! The nonblocking (`MPI_Ibcast` ...) and persistent (`MPI_Bcast_init` ...) forms check the
//! same arguments with the same function, do the move at once, and return a request that is
//! already complete (persistent ones: every `MPI_Start` does the move again).

use super::basic::{predefined_kind_at, signature_size, signatures_match, BasicKind};
use super::error::{Error, Result};
use super::ops::{Op, OpCall, PredefinedOp};
use super::requests::{Delivery, Kind, RequestData, UserBuffer};
use super::typemap::TypeMap;
use super::{Comm, Datatype, Detail, ObjectKind, Request, State, Universe};

/// One buffer argument with its count and datatype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side<'a> {
    /// `MPI_IN_PLACE`.
    InPlace,
    /// A buffer of `count` elements of `datatype`, whose signature is `signature`.
    Data {
        /// The count argument (a C `int` or `MPI_Count`).
        count: i64,
        /// The datatype argument.
        datatype: Datatype,
        /// The datatype's signature (see [`super::basic`]).
        signature: &'a [BasicKind],
    },
}

/// One buffer argument of a v form (`MPI_Gatherv` ...): counts and displacements per
/// process (one each here), in elements of the datatype's extent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VSide<'a> {
    /// `MPI_IN_PLACE`.
    InPlace,
    /// A buffer with a count and displacement per process.
    Data {
        /// The counts argument: one per process.
        counts: &'a [i64],
        /// The displacements argument: one per process.
        displs: &'a [i64],
        /// The datatype argument.
        datatype: Datatype,
        /// The datatype's signature.
        signature: &'a [BasicKind],
    },
}

/// One buffer argument of `MPI_Alltoallw`: counts, byte displacements and datatypes per
/// process (one each here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WSide<'a> {
    /// `MPI_IN_PLACE`.
    InPlace,
    /// A buffer with a count, a displacement in bytes and a datatype per process.
    Data {
        /// The counts argument.
        counts: &'a [i64],
        /// The displacements argument, in bytes.
        displs: &'a [i64],
        /// The datatypes argument.
        datatypes: &'a [Datatype],
        /// Each datatype's signature.
        signatures: &'a [&'a [BasicKind]],
    },
}

/// Whether a reduction's buffer is `MPI_IN_PLACE` (a reduction's send and receive buffers
/// share one count and datatype).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `MPI_IN_PLACE`.
    InPlace,
    /// A buffer.
    Buffer,
}

/// The data a collective moves on its one process: `send_count` elements of the send
/// datatype at `send_displacement` (in extents of the send datatype, or bytes for
/// `MPI_Alltoallw`) become `recv_count` elements of the receive datatype at
/// `recv_displacement`; `bytes` is their packed size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// Elements of the send datatype.
    pub send_count: usize,
    /// Where they start in the send buffer.
    pub send_displacement: i64,
    /// Elements of the receive datatype.
    pub recv_count: usize,
    /// Where they go in the receive buffer.
    pub recv_displacement: i64,
    /// Their packed size in bytes.
    pub bytes: usize,
}

impl Transfer {
    fn plain(send_count: usize, recv_count: usize, bytes: usize) -> Transfer {
        Transfer {
            send_count,
            send_displacement: 0,
            recv_count,
            recv_displacement: 0,
            bytes,
        }
    }

    /// The move itself, over packed data: `recv` gets `send`. Both must be
    /// [`Transfer::bytes`] long ([`Error::Internal`] otherwise).
    pub fn copy(&self, send: &[u8], recv: &mut [u8]) -> Result<()> {
        if send.len() != self.bytes || recv.len() != self.bytes {
            return Err(Error::Internal("packed data of the wrong length"));
        }
        recv.copy_from_slice(send);
        Ok(())
    }
}

/// A count argument: non-negative ([`Error::InvalidCount`] otherwise).
pub(crate) fn count(count: i64) -> Result<usize> {
    usize::try_from(count).map_err(|_| Error::InvalidCount)
}

/// The one entry a per-process array has here: the array must have exactly one
/// ([`Error::InvalidArgument`]: the shell passes the communicator's size of them).
fn only<T: Copy>(array: &[T], what: &'static str) -> Result<T> {
    match array {
        [one] => Ok(*one),
        _ => Err(Error::InvalidArgument(what)),
    }
}

fn root(root: i32) -> Result<()> {
    if root == 0 {
        Ok(())
    } else {
        Err(Error::InvalidRoot(root))
    }
}

/// A datatype argument as a collective's fast path sees it
/// ([`Universe::collective_fast`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastType {
    /// The packed size of one item, which is also its extent: items lie back to back from
    /// the buffer address.
    pub(crate) size: u64,
    /// The predefined ops a reduction may apply to it, bit `i` for `PredefinedOp::ALL[i]`:
    /// those defined on a predefined datatype's kind, none for a derived datatype.
    pub(crate) ops: u16,
}

impl FastType {
    /// The facts of a committed datatype whose items lie back to back; `None` otherwise.
    pub(crate) fn of(map: &TypeMap) -> Option<FastType> {
        if map.true_lb() != 0 || !map.contiguous_items() {
            return None;
        }
        let kind = map.predefined_index().and_then(predefined_kind_at);
        let ops = kind.map_or(0, |kind| {
            PredefinedOp::ALL
                .iter()
                .enumerate()
                .filter(|(_, op)| op.check(&[kind], false).is_ok())
                .fold(0, |bits, (i, _)| bits | 1 << i)
        });
        Some(FastType {
            size: map.size(),
            ops,
        })
    }

    /// The same facts for a duplicate (MPI_Type_dup) of the datatype, which is a derived
    /// datatype: no predefined op applies on the fast path.
    pub(crate) fn of_duplicate(self) -> FastType {
        FastType { ops: 0, ..self }
    }

    /// Whether a reduction may apply `op` to it.
    #[inline(always)]
    pub(crate) fn allows(&self, op: PredefinedOp) -> bool {
        self.ops & (1 << op as u16) != 0
    }
}

impl Universe {
    /// The common case of a collective's checks, for the shells' fast paths: under
    /// `MPI_THREAD_SINGLE` on the owning thread, with no call and no lock, that `comm` is a
    /// live communicator and `datatype` (if any) a committed one whose items lie back to back
    /// from the buffer address. `None` in every other case, errors included, which the full
    /// call then handles and reports.
    #[inline(always)]
    pub(crate) fn collective_fast(
        &self,
        comm: Comm,
        datatype: Option<Datatype>,
    ) -> Option<Option<FastType>> {
        self.state
            .peek_single(|state| {
                state.object(ObjectKind::Comm, comm.0).ok()?;
                match datatype {
                    None => Some(None),
                    Some(datatype) => state.fast_type(datatype).map(Some),
                }
            })
            .flatten()
    }
}

impl State {
    /// The fast paths' view of `datatype`: `None` unless it is a live, committed datatype
    /// whose items lie back to back from the buffer address.
    #[inline(always)]
    pub(crate) fn fast_type(&self, datatype: Datatype) -> Option<FastType> {
        match &self.object(ObjectKind::Datatype, datatype.0).ok()?.detail {
            Detail::Datatype { fast, .. } => *fast,
            _ => None,
        }
    }
}

/// The delivery a start of a persistent collective makes of `data`, the packed bytes of
/// `send` ([`Error::Internal`] if they are not its size).
pub(crate) fn collective_delivery(
    send: Option<&UserBuffer>,
    recv: Option<&UserBuffer>,
    data: Vec<u8>,
) -> Result<Option<Delivery>> {
    if data.len() as u64 != send.map_or(0, |b| b.bytes) {
        return Err(Error::Internal(
            "a persistent collective started with data of another size",
        ));
    }
    Ok(recv.map(|buffer| Delivery {
        buffer: buffer.clone(),
        bytes: data,
    }))
}

/// A described buffer: its element count, displacement and signature, checked.
struct Checked<'a> {
    count: usize,
    displacement: i64,
    signature: &'a [BasicKind],
}

impl Universe {
    /// Checks that `datatype` names a live, committed datatype whose size is that of
    /// `signature`. Errors: [`Error::InvalidHandle`], [`Error::NotCommitted`] (both
    /// `MPI_ERR_TYPE`), [`Error::Internal`] when the signature does not fit the datatype.
    pub fn check_datatype_signature(
        &self,
        datatype: Datatype,
        signature: &[BasicKind],
    ) -> Result<()> {
        if self.type_size_for_transfer(datatype)? != signature_size(signature) as u64 {
            return Err(Error::Internal(
                "a signature of another size than its datatype",
            ));
        }
        Ok(())
    }

    fn collective_comm(&self, comm: Comm) -> Result<()> {
        self.lock()?.object(ObjectKind::Comm, comm.0).map(|_| ())
    }

    /// A side that must hold data (`what` names it for [`Error::InPlace`]).
    fn collective_side<'a>(&self, side: Side<'a>, what: &'static str) -> Result<Checked<'a>> {
        match side {
            Side::InPlace => Err(Error::InPlace(what)),
            Side::Data {
                count: n,
                datatype,
                signature,
            } => {
                let n = count(n)?;
                self.check_datatype_signature(datatype, signature)?;
                Ok(Checked {
                    count: n,
                    displacement: 0,
                    signature,
                })
            }
        }
    }

    fn collective_vside<'a>(&self, side: VSide<'a>, what: &'static str) -> Result<Checked<'a>> {
        match side {
            VSide::InPlace => Err(Error::InPlace(what)),
            VSide::Data {
                counts,
                displs,
                datatype,
                signature,
            } => {
                let n = count(only(counts, "one count per process")?)?;
                let displacement = only(displs, "one displacement per process")?;
                self.check_datatype_signature(datatype, signature)?;
                Ok(Checked {
                    count: n,
                    displacement,
                    signature,
                })
            }
        }
    }

    fn collective_wside<'a>(&self, side: WSide<'a>, what: &'static str) -> Result<Checked<'a>> {
        match side {
            WSide::InPlace => Err(Error::InPlace(what)),
            WSide::Data {
                counts,
                displs,
                datatypes,
                signatures,
            } => {
                let n = count(only(counts, "one count per process")?)?;
                let displacement = only(displs, "one displacement per process")?;
                let datatype = only(datatypes, "one datatype per process")?;
                let signature = only(signatures, "one signature per process")?;
                self.check_datatype_signature(datatype, signature)?;
                Ok(Checked {
                    count: n,
                    displacement,
                    signature,
                })
            }
        }
    }

    /// The move from `send` to `recv`: their signatures must be the same sequence
    /// ([`Error::Truncated`], `MPI_ERR_TRUNCATE`, when the receive side is smaller;
    /// [`Error::SignatureMismatch`], `MPI_ERR_TYPE`, for any other difference).
    fn collective_transfer(send: &Checked<'_>, recv: &Checked<'_>) -> Result<Transfer> {
        let send_bytes = send
            .count
            .checked_mul(signature_size(send.signature))
            .ok_or(Error::InvalidCount)?;
        let recv_bytes = recv
            .count
            .checked_mul(signature_size(recv.signature))
            .ok_or(Error::InvalidCount)?;
        if send_bytes > recv_bytes {
            return Err(Error::Truncated {
                length: send_bytes as u64,
                capacity: recv_bytes as u64,
            });
        }
        if !signatures_match(send.count, send.signature, recv.count, recv.signature) {
            return Err(Error::SignatureMismatch);
        }
        Ok(Transfer {
            send_count: send.count,
            send_displacement: send.displacement,
            recv_count: recv.count,
            recv_displacement: recv.displacement,
            bytes: send_bytes,
        })
    }

    /// The op of a reduction collective, checked for the signature (a user op takes any).
    fn collective_op(&self, op: Op, signature: &[BasicKind]) -> Result<()> {
        match self.op_call(op)? {
            OpCall::Predefined(p) => p.check(signature, false),
            OpCall::User(_) => Ok(()),
        }
    }

    /// The common part of the reductions: comm, places, count, datatype, op.
    #[allow(clippy::too_many_arguments)]
    fn collective_reduction(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        n: i64,
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
        what: &'static str,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        if recv == Place::InPlace {
            return Err(Error::InPlace(what));
        }
        let n = count(n)?;
        self.check_datatype_signature(datatype, signature)?;
        self.collective_op(op, signature)?;
        let bytes = n
            .checked_mul(signature_size(signature))
            .ok_or(Error::InvalidCount)?;
        Ok(match send {
            Place::InPlace => None,
            Place::Buffer => Some(Transfer::plain(n, n, bytes)),
        })
    }

    /// The request a nonblocking collective (`MPI_Ibcast` ...) returns: on one process the
    /// operation is done when the call returns, so the request is complete at birth; a wait or
    /// test reports it with an empty status and frees it. A shell makes it before doing the
    /// move and drops it ([`Universe::request_complete`]) if the call then fails, so that a
    /// failed call leaves nothing behind. Errors: [`Error::TooManyObjects`] when the request
    /// table is full.
    ///
    /// ```
    /// use mpiattr::{ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let request = universe.collective_request()?;
    /// assert!(universe.wait(Some(request))?.freed);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn collective_request(&self) -> Result<Request> {
        self.lock()?
            .requests
            .insert(RequestData::plain())
            .map(Request)
            .ok_or(Error::TooManyObjects("request"))
    }

    /// A persistent collective's request (`MPI_Bcast_init` ...), inactive: the shell checks
    /// the arguments as the blocking form does ([`Universe::gather`] ...), then passes the
    /// blocks of the [`Transfer`] it got (`None` both when nothing moves). Each
    /// [`Universe::start`] takes the packed bytes of `send` ([`Universe::start_buffer`] names
    /// it) and completes at once; the wait that reports it delivers them into `recv`. Errors:
    /// an invalid communicator (`MPI_ERR_COMM`), [`Error::TooManyObjects`].
    ///
    /// ```
    /// use mpiattr::engine::UserBuffer;
    /// use mpiattr::{Comm, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let (send, recv) = (UserBuffer::bytes(4), UserBuffer::bytes(4));
    /// let request = universe.collective_init(Comm::WORLD, Some(send), Some(recv))?;
    /// for round in 0..2u8 {
    ///     assert!(universe.start_buffer(request)?.is_some());
    ///     universe.start(request, vec![round; 4])?;
    ///     let done = universe.wait(Some(request))?;
    ///     assert!(!done.freed); // persistent: inactive again
    ///     assert_eq!(done.delivery.unwrap().bytes, vec![round; 4]);
    /// }
    /// universe.request_free(request)?;
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn collective_init(
        &self,
        comm: Comm,
        send: Option<UserBuffer>,
        recv: Option<UserBuffer>,
    ) -> Result<Request> {
        let mut state = self.lock()?;
        state.object(ObjectKind::Comm, comm.0)?;
        if send.as_ref().map(|b| b.bytes) != recv.as_ref().map(|b| b.bytes) {
            return Err(Error::Internal("a collective's blocks of different sizes"));
        }
        state.new_request(RequestData::active(Kind::Collective { send, recv }, true))
    }

    /// MPI_Barrier: returns at once. Errors: an invalid communicator (`MPI_ERR_COMM`).
    pub fn barrier(&self, comm: Comm) -> Result<()> {
        self.collective_comm(comm)
    }

    /// MPI_Bcast: nothing moves (the root is the only process). The buffer cannot be
    /// `MPI_IN_PLACE`. Errors: `MPI_ERR_COMM`, [`Error::InvalidRoot`], [`Error::InPlace`],
    /// [`Error::InvalidCount`], `MPI_ERR_TYPE`.
    pub fn bcast(&self, comm: Comm, buffer: Side<'_>, root_rank: i32) -> Result<()> {
        self.collective_comm(comm)?;
        root(root_rank)?;
        self.collective_side(buffer, "the buffer of MPI_Bcast")
            .map(|_| ())
    }

    /// MPI_Gather: the root's send data lands in block 0 of its receive buffer. The send
    /// buffer may be `MPI_IN_PLACE` at the root (then nothing moves: `None`); the receive
    /// buffer may not.
    ///
    /// ```
    /// use mpiattr::engine::{BasicKind, Side, Transfer};
    /// use mpiattr::{Comm, ErrorClass, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let int = Universe::predefined_datatype(0x209).unwrap(); // MPI_INT
    /// let ints = |count| Side::Data { count, datatype: int, signature: &[BasicKind::I32] };
    /// let moved = universe.gather(Comm::WORLD, ints(3), ints(3), 0)?.unwrap();
    /// assert_eq!((moved.send_count, moved.recv_count, moved.bytes), (3, 3, 12));
    /// assert_eq!(universe.gather(Comm::WORLD, Side::InPlace, ints(3), 0)?, None);
    /// let wrong_root = universe.gather(Comm::WORLD, ints(3), ints(3), 1).unwrap_err();
    /// assert_eq!(wrong_root.class(), ErrorClass::Root);
    /// let short = universe.gather(Comm::WORLD, ints(3), ints(2), 0).unwrap_err();
    /// assert_eq!(short.class(), ErrorClass::Truncate);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn gather(
        &self,
        comm: Comm,
        send: Side<'_>,
        recv: Side<'_>,
        root_rank: i32,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        root(root_rank)?;
        let recv = self.collective_side(recv, "the receive buffer of MPI_Gather")?;
        if send == Side::InPlace {
            return Ok(None);
        }
        let send = self.collective_side(send, "the send buffer of MPI_Gather")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Gatherv: as [`Universe::gather`], into block `displs[0]` of `recvcounts[0]`
    /// elements.
    pub fn gatherv(
        &self,
        comm: Comm,
        send: Side<'_>,
        recv: VSide<'_>,
        root_rank: i32,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        root(root_rank)?;
        let recv = self.collective_vside(recv, "the receive buffer of MPI_Gatherv")?;
        if send == Side::InPlace {
            return Ok(None);
        }
        let send = self.collective_side(send, "the send buffer of MPI_Gatherv")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Scatter: block 0 of the root's send buffer lands in its receive buffer. The
    /// receive buffer may be `MPI_IN_PLACE` at the root (nothing moves); the send buffer may
    /// not.
    pub fn scatter(
        &self,
        comm: Comm,
        send: Side<'_>,
        recv: Side<'_>,
        root_rank: i32,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        root(root_rank)?;
        let send = self.collective_side(send, "the send buffer of MPI_Scatter")?;
        if recv == Side::InPlace {
            return Ok(None);
        }
        let recv = self.collective_side(recv, "the receive buffer of MPI_Scatter")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Scatterv: as [`Universe::scatter`], from block `displs[0]` of `sendcounts[0]`
    /// elements.
    pub fn scatterv(
        &self,
        comm: Comm,
        send: VSide<'_>,
        recv: Side<'_>,
        root_rank: i32,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        root(root_rank)?;
        let send = self.collective_vside(send, "the send buffer of MPI_Scatterv")?;
        if recv == Side::InPlace {
            return Ok(None);
        }
        let recv = self.collective_side(recv, "the receive buffer of MPI_Scatterv")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Allgather: the send data lands in block 0 of the receive buffer. The send buffer
    /// may be `MPI_IN_PLACE` (nothing moves); the receive buffer may not.
    pub fn allgather(
        &self,
        comm: Comm,
        send: Side<'_>,
        recv: Side<'_>,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        let recv = self.collective_side(recv, "the receive buffer of MPI_Allgather")?;
        if send == Side::InPlace {
            return Ok(None);
        }
        let send = self.collective_side(send, "the send buffer of MPI_Allgather")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Allgatherv: as [`Universe::allgather`], into block `displs[0]`.
    pub fn allgatherv(
        &self,
        comm: Comm,
        send: Side<'_>,
        recv: VSide<'_>,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        let recv = self.collective_vside(recv, "the receive buffer of MPI_Allgatherv")?;
        if send == Side::InPlace {
            return Ok(None);
        }
        let send = self.collective_side(send, "the send buffer of MPI_Allgatherv")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Alltoall: block 0 of the send buffer lands in block 0 of the receive buffer. The
    /// send buffer may be `MPI_IN_PLACE` (nothing moves); the receive buffer may not.
    pub fn alltoall(&self, comm: Comm, send: Side<'_>, recv: Side<'_>) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        let recv = self.collective_side(recv, "the receive buffer of MPI_Alltoall")?;
        if send == Side::InPlace {
            return Ok(None);
        }
        let send = self.collective_side(send, "the send buffer of MPI_Alltoall")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Alltoallv: block `sdispls[0]` of `sendcounts[0]` elements lands in block
    /// `rdispls[0]` of `recvcounts[0]`. In-place rules as [`Universe::alltoall`].
    pub fn alltoallv(
        &self,
        comm: Comm,
        send: VSide<'_>,
        recv: VSide<'_>,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        let recv = self.collective_vside(recv, "the receive buffer of MPI_Alltoallv")?;
        if send == VSide::InPlace {
            return Ok(None);
        }
        let send = self.collective_vside(send, "the send buffer of MPI_Alltoallv")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Alltoallw: as [`Universe::alltoallv`] with a datatype per process and
    /// displacements in bytes.
    pub fn alltoallw(
        &self,
        comm: Comm,
        send: WSide<'_>,
        recv: WSide<'_>,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        let recv = self.collective_wside(recv, "the receive buffer of MPI_Alltoallw")?;
        if send == WSide::InPlace {
            return Ok(None);
        }
        let send = self.collective_wside(send, "the send buffer of MPI_Alltoallw")?;
        Self::collective_transfer(&send, &recv).map(Some)
    }

    /// MPI_Reduce: the root's send data is the result (nothing is combined). The send buffer
    /// may be `MPI_IN_PLACE` at the root (nothing moves); the receive buffer may not. The op
    /// must be defined on the datatype (a predefined op: [`super::PredefinedOp::check`]; a
    /// user op takes any datatype and is not called).
    ///
    /// ```
    /// use mpiattr::engine::{BasicKind, Place, PredefinedOp};
    /// use mpiattr::{Comm, ErrorClass, ThreadLevel, Universe};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let double = Universe::predefined_datatype(0x214).unwrap(); // MPI_DOUBLE
    /// let f64s = &[BasicKind::F64];
    /// let (buffer, in_place) = (Place::Buffer, Place::InPlace);
    /// let sum = PredefinedOp::Sum.op();
    /// let moved = universe.reduce(Comm::WORLD, buffer, buffer, 4, double, f64s, sum, 0)?;
    /// assert_eq!(moved.unwrap().bytes, 32);
    /// assert_eq!(universe.reduce(Comm::WORLD, in_place, buffer, 4, double, f64s, sum, 0)?, None);
    /// let band = PredefinedOp::Band.op();
    /// let refused = universe.reduce(Comm::WORLD, buffer, buffer, 4, double, f64s, band, 0);
    /// assert_eq!(refused.unwrap_err().class(), ErrorClass::Op);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn reduce(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        count: i64,
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
        root_rank: i32,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        root(root_rank)?;
        self.collective_reduction(
            comm,
            send,
            recv,
            count,
            datatype,
            signature,
            op,
            "the receive buffer of MPI_Reduce",
        )
    }

    /// MPI_Allreduce: as [`Universe::reduce`] without a root; the send buffer may be
    /// `MPI_IN_PLACE`.
    #[allow(clippy::too_many_arguments)]
    pub fn allreduce(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        count: i64,
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
    ) -> Result<Option<Transfer>> {
        self.collective_reduction(
            comm,
            send,
            recv,
            count,
            datatype,
            signature,
            op,
            "the receive buffer of MPI_Allreduce",
        )
    }

    /// MPI_Reduce_scatter_block: the process's block of `recvcount` elements is the whole
    /// send buffer. The send buffer may be `MPI_IN_PLACE` (the result is already at the start
    /// of the receive buffer: nothing moves).
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_scatter_block(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        recvcount: i64,
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
    ) -> Result<Option<Transfer>> {
        self.collective_reduction(
            comm,
            send,
            recv,
            recvcount,
            datatype,
            signature,
            op,
            "the receive buffer of MPI_Reduce_scatter_block",
        )
    }

    /// MPI_Reduce_scatter: as [`Universe::reduce_scatter_block`] with `recvcounts[0]`.
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_scatter(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        recvcounts: &[i64],
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
    ) -> Result<Option<Transfer>> {
        self.collective_comm(comm)?;
        let n = only(recvcounts, "one count per process")?;
        self.collective_reduction(
            comm,
            send,
            recv,
            n,
            datatype,
            signature,
            op,
            "the receive buffer of MPI_Reduce_scatter",
        )
    }

    /// MPI_Scan: rank 0's prefix is its own data. As [`Universe::allreduce`].
    #[allow(clippy::too_many_arguments)]
    pub fn scan(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        count: i64,
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
    ) -> Result<Option<Transfer>> {
        self.collective_reduction(
            comm,
            send,
            recv,
            count,
            datatype,
            signature,
            op,
            "the receive buffer of MPI_Scan",
        )
    }

    /// MPI_Exscan: the standard leaves rank 0's receive buffer undefined; here it is left
    /// untouched, so this always returns `None` once the arguments pass the checks of
    /// [`Universe::allreduce`] (the send buffer may be `MPI_IN_PLACE`).
    #[allow(clippy::too_many_arguments)]
    pub fn exscan(
        &self,
        comm: Comm,
        send: Place,
        recv: Place,
        count: i64,
        datatype: Datatype,
        signature: &[BasicKind],
        op: Op,
    ) -> Result<Option<Transfer>> {
        self.collective_reduction(
            comm,
            send,
            recv,
            count,
            datatype,
            signature,
            op,
            "the receive buffer of MPI_Exscan",
        )
        .map(|_| None)
    }
}

#[cfg(test)]
mod tests;
