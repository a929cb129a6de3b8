//! Point-to-point communication with oneself (MPI-4.1 chapter 3) and partitioned
//! communication (§4): every message goes from rank 0 to rank 0 of a communicator.
//!
//! Data travels packed: a send hands over its bytes (the shell packed them with the send
//! type), a receive names a [`UserBuffer`] with its capacity in bytes and gets the bytes back
//! at completion with that buffer, for the shell to unpack with the receive type.
//!
//! Matching is by communicator (each one, duplicates included, is its own context), source
//! and tag, in the order operations were posted (non-overtaking, §3.5): a send goes to the
//! oldest posted receive that matches it, else joins the queue of unreceived messages; a
//! receive takes the oldest queued message that matches it, else is posted.

use std::collections::{HashMap, VecDeque};

use super::collectives::collective_delivery;
use super::requests::{
    Completion, Delivery, Kind, Phase, RequestData, Status, UserBuffer, ANY_SOURCE, ANY_TAG,
    PROC_NULL,
};
use super::table::Table;
use super::{Comm, Datatype, Error, Id, ObjectKind, Request, Result, State, Universe};

/// `MPI_BSEND_OVERHEAD` of the standard ABI: the bytes a buffered send takes in the attached
/// buffer on top of its data.
pub const BSEND_OVERHEAD: usize = 512;

/// The largest tag (the value of the `MPI_TAG_UB` attribute).
pub const TAG_UB: i32 = i32::MAX;

/// The four send modes (MPI-4.1 §3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SendMode {
    /// `MPI_Send`: the library copies the message; it never waits for a receive.
    Standard,
    /// `MPI_Bsend`: copied, with the space accounted in the attached buffer.
    Buffered,
    /// `MPI_Ssend`: complete only once a receive has matched it.
    Synchronous,
    /// `MPI_Rsend`: a matching receive must be posted already.
    Ready,
}

/// Who a message goes to or comes from: rank, tag and communicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Envelope {
    /// 0, `MPI_PROC_NULL`, or for receives and probes `MPI_ANY_SOURCE`.
    pub rank: i32,
    /// 0 to [`TAG_UB`], or for receives and probes `MPI_ANY_TAG`.
    pub tag: i32,
    /// The communicator.
    pub comm: Comm,
}

/// A send as posted: what a persistent send repeats at each start.
#[derive(Clone, Debug)]
pub(crate) struct SendSpec {
    mode: SendMode,
    to: Envelope,
    buffer: Option<UserBuffer>,
}

/// A receive as posted.
#[derive(Clone, Debug)]
pub(crate) struct RecvSpec {
    from: Envelope,
    buffer: UserBuffer,
}

/// A message matched by `MPI_Mprobe`/`MPI_Improbe`, for `MPI_Mrecv`/`MPI_Imrecv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageHandle {
    /// `MPI_MESSAGE_NO_PROC`: what a probe of `MPI_PROC_NULL` matches.
    NoProc,
    /// A matched message.
    Message(Id),
}

/// Whose attached buffer (MPI-4.1 §3.6.1: the process's, a communicator's, a session's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferScope {
    /// `MPI_Buffer_attach`.
    Process,
    /// `MPI_Comm_attach_buffer`.
    Comm(Comm),
    /// `MPI_Session_attach_buffer`, with the session's table identity (the shell checks it).
    Session(Id),
}

/// An attached buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttachedBuffer {
    /// `MPI_BUFFER_AUTOMATIC`: the library finds the space itself, without limit.
    Automatic,
    /// The program's memory: its address (kept for detach) and size in bytes.
    Memory {
        /// Where it is.
        address: usize,
        /// Its size in bytes.
        size: usize,
    },
}

#[derive(Debug)]
struct Attached {
    buffer: AttachedBuffer,
    used: usize,
}

/// A message sent and not yet received.
#[derive(Debug)]
struct Message {
    id: u64,
    context: Id,
    tag: i32,
    data: Vec<u8>,
    /// The synchronous send waiting for this message to be matched.
    sync: Option<Id>,
    /// The request of a nonblocking send, whose cancellation removes this message.
    request: Option<Id>,
    /// The space it holds in an attached buffer.
    buffered: Option<(BufferScope, usize)>,
}

/// The state of point-to-point communication.
#[derive(Debug, Default)]
pub(crate) struct Queues {
    /// Unreceived messages, oldest first.
    messages: VecDeque<Message>,
    /// Active receive requests not yet matched, oldest first.
    posted: VecDeque<Id>,
    next_message: u64,
    /// Messages matched by a matching probe.
    matched: Table<Message>,
    buffers: HashMap<BufferScope, Attached>,
    /// Partitioned requests not yet bound to a partner, oldest first.
    unbound: Vec<Id>,
    /// Emptied message buffers the fast paths reuse (at most [`SPARE_BUFFERS`], none larger
    /// than [`SPARE_CAPACITY`]), so that a small message to oneself allocates nothing.
    spare: Vec<Vec<u8>>,
}

/// How many emptied message buffers are kept for reuse.
const SPARE_BUFFERS: usize = 8;

/// The largest capacity of a message buffer kept for reuse.
const SPARE_CAPACITY: usize = 1 << 16;

/// One side of a partitioned communication (MPI-4.1 §4).
#[derive(Debug)]
pub(crate) struct Partitioned {
    send: bool,
    envelope: Envelope,
    /// One partition's buffer (its bytes: one partition's packed size).
    buffer: UserBuffer,
    partitions: usize,
    /// The partner, once matched (in the order the init calls were made).
    peer: Option<Id>,
    /// Send: which partitions are ready. Receive: which of the sender's partitions arrived.
    flags: Vec<bool>,
    /// Send: the ready partitions' bytes. Receive: the bytes arrived.
    data: Vec<u8>,
    /// How many times it was started: the sides' rounds pair up by number.
    round: u64,
}

impl Partitioned {
    fn total(&self) -> usize {
        self.partitions * self.buffer.bytes as usize
    }

    /// A new round (at each start).
    fn reset(&mut self) {
        self.flags.iter_mut().for_each(|f| *f = false);
        self.round += 1;
    }
}

fn check_tag(tag: i32, wildcard: bool) -> Result<()> {
    if (0..=TAG_UB).contains(&tag) || (wildcard && tag == ANY_TAG) {
        Ok(())
    } else {
        Err(Error::InvalidTag(tag))
    }
}

/// Checks an envelope's rank and tag: `Ok(true)` for `MPI_PROC_NULL` (the tag is not looked
/// at then), `Ok(false)` for rank 0. `wildcard`: `MPI_ANY_SOURCE` and `MPI_ANY_TAG` allowed.
fn check_envelope(envelope: &Envelope, wildcard: bool) -> Result<bool> {
    match envelope.rank {
        PROC_NULL => Ok(true),
        0 => check_tag(envelope.tag, wildcard).map(|_| false),
        ANY_SOURCE if wildcard => check_tag(envelope.tag, wildcard).map(|_| false),
        rank => Err(Error::InvalidRank(rank)),
    }
}

fn tag_matches(wanted: i32, tag: i32) -> bool {
    wanted == ANY_TAG || wanted == tag
}

/// The completion of a receive into `buffer` of a message with `tag` and `data`: what fits,
/// and [`Error::Truncated`] if it did not all fit.
fn received(buffer: UserBuffer, tag: i32, mut data: Vec<u8>) -> Completion {
    let capacity = buffer.bytes;
    let error = (data.len() as u64 > capacity).then(|| {
        let error = Error::Truncated {
            length: data.len() as u64,
            capacity,
        };
        data.truncate(capacity as usize);
        error
    });
    Completion {
        status: Status {
            source: 0,
            tag,
            error: error.as_ref().map_or(0, Error::return_code),
            bytes: data.len() as u64,
            cancelled: false,
        },
        delivery: Some(Delivery {
            buffer,
            bytes: data,
        }),
        error,
        freed: false,
    }
}

fn proc_null_completion() -> Completion {
    Completion {
        status: Status::proc_null(),
        ..Completion::empty()
    }
}

fn cancelled() -> Completion {
    Completion {
        status: Status {
            cancelled: true,
            ..Status::empty()
        },
        ..Completion::empty()
    }
}

/// What happened to a send.
enum Sent {
    /// A posted receive took it.
    Delivered,
    /// It waits in the queue, with this message number.
    Queued(u64),
}

impl State {
    /// The communicator's matching context (its identity), if it is live.
    fn context(&self, comm: Comm) -> Result<Id> {
        self.object(ObjectKind::Comm, comm.0).map(|_| comm.0)
    }

    fn recv_spec(&self, id: Id) -> Option<RecvSpec> {
        match self.requests.get(id) {
            Some(RequestData {
                kind: Kind::Recv { spec },
                ..
            }) => Some(spec.clone()),
            _ => None,
        }
    }

    /// The oldest posted receive that a message with `tag` on `context` matches.
    fn find_posted(&self, context: Id, tag: i32) -> Option<usize> {
        self.p2p.posted.iter().position(|id| {
            self.recv_spec(*id)
                .is_some_and(|spec| spec.from.comm.0 == context && tag_matches(spec.from.tag, tag))
        })
    }

    /// The oldest queued message that a receive from `from` matches.
    fn find_message(&self, from: &Envelope) -> Option<usize> {
        let matches = |m: &Message| m.context == from.comm.0 && tag_matches(from.tag, m.tag);
        // Most receives take the oldest message.
        if self.p2p.messages.front().is_some_and(matches) {
            return Some(0);
        }
        // The queue's two halves as plain slices: a tighter loop than the queue's iterator.
        let (older, newer) = self.p2p.messages.as_slices();
        match older.iter().position(matches) {
            Some(index) => Some(index),
            None => newer
                .iter()
                .position(matches)
                .map(|index| older.len() + index),
        }
    }

    /// The attached buffer a buffered send on `comm` uses: the communicator's, else the
    /// process's.
    fn buffer_scope(&self, comm: Comm) -> Option<BufferScope> {
        [BufferScope::Comm(comm), BufferScope::Process]
            .into_iter()
            .find(|scope| self.p2p.buffers.contains_key(scope))
    }

    /// Reserves space for a buffered message of `length` bytes.
    fn reserve(&mut self, comm: Comm, length: usize) -> Result<(BufferScope, usize)> {
        let scope = self.buffer_scope(comm).ok_or(Error::NoBuffer)?;
        let needed = length
            .checked_add(BSEND_OVERHEAD)
            .ok_or(Error::BufferSpace {
                needed: usize::MAX,
                free: 0,
            })?;
        let attached = self
            .p2p
            .buffers
            .get_mut(&scope)
            .ok_or(Error::Internal("a buffer that was just found"))?;
        if let AttachedBuffer::Memory { size, .. } = attached.buffer {
            let free = size - attached.used;
            if needed > free {
                return Err(Error::BufferSpace { needed, free });
            }
        }
        attached.used += needed;
        Ok((scope, needed))
    }

    fn release(&mut self, buffered: Option<(BufferScope, usize)>) {
        if let Some((scope, bytes)) = buffered {
            if let Some(attached) = self.p2p.buffers.get_mut(&scope) {
                attached.used = attached.used.saturating_sub(bytes);
            }
        }
    }

    /// Delivers a message to the posted receive at `index` of the posted list.
    fn deliver_posted(&mut self, index: usize, tag: i32, data: Vec<u8>) {
        let Some(id) = self.p2p.posted.remove(index) else {
            return;
        };
        if let Some(spec) = self.recv_spec(id) {
            self.complete_request(id, received(spec.buffer, tag, data));
        }
    }

    /// Sends `data` (the envelope checked, not `MPI_PROC_NULL`): to the oldest matching
    /// posted receive, else into the queue. Refuses a ready-mode send with no posted receive
    /// and a buffered one without space, changing nothing.
    fn post_send(
        &mut self,
        mode: SendMode,
        data: Vec<u8>,
        to: &Envelope,
        request: Option<Id>,
    ) -> Result<Sent> {
        if let Some(index) = self.find_posted(to.comm.0, to.tag) {
            self.deliver_posted(index, to.tag, data);
            return Ok(Sent::Delivered);
        }
        let buffered = match mode {
            SendMode::Ready => return Err(Error::ReadyNotPosted),
            SendMode::Buffered => Some(self.reserve(to.comm, data.len())?),
            _ => None,
        };
        let id = self.p2p.next_message;
        self.p2p.next_message += 1;
        self.p2p.messages.push_back(Message {
            id,
            context: to.comm.0,
            tag: to.tag,
            data,
            sync: request.filter(|_| mode == SendMode::Synchronous),
            request,
            buffered,
        });
        Ok(Sent::Queued(id))
    }

    /// Takes the queued message at `index` out of the queue: its buffer space is free and its
    /// synchronous sender (if any) completes.
    fn take_message(&mut self, index: usize) -> Option<Message> {
        let message = if index == 0 {
            self.p2p.messages.pop_front()?
        } else {
            self.p2p.messages.remove(index)?
        };
        self.release(message.buffered);
        if let Some(request) = message.request {
            if let Some(RequestData {
                kind: Kind::Send { message: m, .. },
                ..
            }) = self.requests.get_mut(request)
            {
                // A persistent send started again since has a newer message of its own.
                if *m == Some(message.id) {
                    *m = None;
                }
            }
        }
        if let Some(sync) = message.sync {
            self.complete_request(sync, Completion::empty());
        }
        Some(message)
    }

    /// Posts a receive request (active, its envelope checked): matched at once against the
    /// queue, else added to the posted list.
    fn post_recv(&mut self, id: Id, spec: RecvSpec) {
        match self.find_message(&spec.from) {
            Some(index) => {
                if let Some(message) = self.take_message(index) {
                    self.complete_request(id, received(spec.buffer, message.tag, message.data));
                }
            }
            None => self.p2p.posted.push_back(id),
        }
    }

    /// Starts an inactive request with `data` (a send's packed bytes).
    fn start_request(&mut self, request: Request, data: Vec<u8>) -> Result<()> {
        let entry = self.request_mut(request)?;
        if !matches!(entry.phase, Phase::Inactive) {
            return Err(Error::InvalidRequestState(
                "only an inactive persistent request can be started",
            ));
        }
        match &entry.kind {
            Kind::Send { spec, .. } => {
                let spec = spec.clone();
                if spec.to.rank == PROC_NULL {
                    entry.phase = Phase::Sent;
                    return Ok(());
                }
                self.context(spec.to.comm)?;
                entry_phase(self, request, Phase::Active);
                match self.post_send(spec.mode, data, &spec.to, Some(request.0)) {
                    Err(error) => {
                        entry_phase(self, request, Phase::Inactive);
                        Err(error)
                    }
                    Ok(sent) => {
                        self.after_send(request.0, spec.mode, sent);
                        Ok(())
                    }
                }
            }
            Kind::Recv { spec } => {
                let spec = spec.clone();
                if spec.from.rank == PROC_NULL {
                    entry.phase = Phase::Done(Box::new(proc_null_completion()));
                    return Ok(());
                }
                self.context(spec.from.comm)?;
                entry_phase(self, request, Phase::Active);
                self.post_recv(request.0, spec);
                Ok(())
            }
            Kind::Partitioned(_) => self.start_partitioned(request.0),
            Kind::Collective { send, recv } => {
                // The move of a persistent collective (src/engine/collectives.rs).
                let delivery = collective_delivery(send.as_ref(), recv.as_ref(), data)?;
                entry.phase = Phase::Done(Box::new(Completion {
                    delivery,
                    ..Completion::empty()
                }));
                Ok(())
            }
            _ => Err(Error::InvalidRequestState("not a persistent request")),
        }
    }

    /// A nonblocking or persistent send request's state after its send: a synchronous one
    /// stays active until matched; the others are complete (the library holds the data), and
    /// remember their queued message for `MPI_Cancel`.
    fn after_send(&mut self, id: Id, mode: SendMode, sent: Sent) {
        let Some(entry) = self.requests.get_mut(id) else {
            return;
        };
        match sent {
            Sent::Delivered => {
                entry.phase = Phase::Sent;
            }
            Sent::Queued(number) => {
                if let Kind::Send { message, .. } = &mut entry.kind {
                    *message = Some(number);
                }
                if mode != SendMode::Synchronous {
                    entry.phase = Phase::Sent;
                }
            }
        }
    }

    /// Cancels the message operation of a request if nothing has matched it yet; whether it
    /// did.
    pub(crate) fn cancel_message_request(&mut self, request: Request) -> Result<bool> {
        let entry = self.request(request)?;
        match (&entry.kind, &entry.phase) {
            (
                Kind::Send {
                    message: Some(number),
                    ..
                },
                _,
            ) => {
                let number = *number;
                let Some(index) = self.p2p.messages.iter().position(|m| m.id == number) else {
                    return Ok(false);
                };
                if let Some(message) = self.p2p.messages.remove(index) {
                    self.release(message.buffered);
                }
                let entry = self.request_mut(request)?;
                if let Kind::Send { message, .. } = &mut entry.kind {
                    *message = None;
                }
                match &mut entry.phase {
                    Phase::Done(completion) => completion.status.cancelled = true,
                    _ => self.complete_request(request.0, cancelled()),
                }
                Ok(true)
            }
            (Kind::Recv { .. }, Phase::Active) => {
                let Some(index) = self.p2p.posted.iter().position(|id| *id == request.0) else {
                    return Ok(false);
                };
                self.p2p.posted.remove(index);
                self.complete_request(request.0, cancelled());
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Drops what the message queues keep of a request that is gone.
    pub(crate) fn forget_request(&mut self, id: Id, kind: &Kind) {
        self.p2p.posted.retain(|posted| *posted != id);
        self.p2p.unbound.retain(|unbound| *unbound != id);
        if let Kind::Partitioned(p) = kind {
            if let Some(Kind::Partitioned(peer)) = p
                .peer
                .and_then(|peer| self.requests.get_mut(peer))
                .map(|d| &mut d.kind)
            {
                peer.peer = None;
            }
        }
    }

    fn partitioned_mut(&mut self, id: Id) -> Result<&mut Partitioned> {
        match self.requests.get_mut(id).map(|d| &mut d.kind) {
            Some(Kind::Partitioned(p)) => Ok(p),
            Some(_) => Err(Error::InvalidRequestState("not a partitioned request")),
            None => Err(Error::InvalidRequest),
        }
    }

    fn is_active(&self, id: Id) -> bool {
        matches!(self.requests.get(id).map(|d| &d.phase), Some(Phase::Active))
    }

    fn start_partitioned(&mut self, id: Id) -> Result<()> {
        let p = self.partitioned_mut(id)?;
        let proc_null = p.envelope.rank == PROC_NULL;
        p.reset();
        let total = p.total();
        if p.send {
            p.data = vec![0; total];
        }
        let send = p.send;
        let peer = p.peer;
        let round = p.round;
        let empty =
            (p.partitions == 0).then(|| received(p.buffer.clone(), p.envelope.tag, Vec::new()));
        let entry = self.requests.get_mut(id).ok_or(Error::InvalidRequest)?;
        if proc_null {
            entry.phase = Phase::Done(Box::new(proc_null_completion()));
            return Ok(());
        }
        if let Some(received) = empty {
            // No partitions: nothing to wait for on either side.
            entry.phase = Phase::Done(Box::new(if send { Completion::empty() } else { received }));
            return Ok(());
        }
        entry.phase = Phase::Active;
        if let (false, Some(peer)) = (send, peer) {
            // A receive started after its sender readied partitions (in the sender's round
            // under way or just completed): they arrive now.
            let ready: Vec<usize> = match self.partitioned_mut(peer) {
                Ok(sender) if sender.round == round => (0..sender.partitions)
                    .filter(|i| sender.flags[*i])
                    .collect(),
                _ => Vec::new(),
            };
            for partition in ready {
                self.transfer(peer, id, partition)?;
            }
        }
        Ok(())
    }

    /// Copies partition `partition` of the sender `from` into the receiver `to`, completing
    /// the receive when everything has arrived.
    fn transfer(&mut self, from: Id, to: Id, partition: usize) -> Result<()> {
        let sender = self.partitioned_mut(from)?;
        let size = sender.buffer.bytes as usize;
        let partitions = sender.partitions;
        let bytes = sender.data[partition * size..(partition + 1) * size].to_vec();
        let receiver = self.partitioned_mut(to)?;
        if receiver.flags.len() != partitions {
            receiver.flags = vec![false; partitions];
        }
        let start = partition * size;
        if receiver.data.len() < start + size {
            receiver.data.resize(start + size, 0);
        }
        receiver.data[start..start + size].copy_from_slice(&bytes);
        receiver.flags[partition] = true;
        if receiver.flags.iter().all(|f| *f) {
            let buffer = UserBuffer {
                count: receiver.buffer.count * receiver.partitions as i64,
                bytes: receiver.total() as u64,
                ..receiver.buffer.clone()
            };
            let data = receiver.data.clone();
            let tag = receiver.envelope.tag;
            self.complete_request(to, received(buffer, tag, data));
        }
        Ok(())
    }
}

/// Sets a request's phase (it exists: checked by the caller).
fn entry_phase(state: &mut State, request: Request, phase: Phase) {
    if let Some(entry) = state.requests.get_mut(request.0) {
        entry.phase = phase;
    }
}

impl Universe {
    /// `MPI_Send`, `MPI_Bsend`, `MPI_Ssend`, `MPI_Rsend`: sends `data` (packed bytes) to rank 0
    /// or `MPI_PROC_NULL` of `to.comm`.
    ///
    /// - Standard: delivered to the oldest matching posted receive, else copied into the
    ///   queue; it returns at once.
    /// - Buffered: as standard, the queued copy holding its length plus [`BSEND_OVERHEAD`] in
    ///   the attached buffer until received ([`Error::NoBuffer`], [`Error::BufferSpace`]).
    /// - Synchronous: returns once a receive matched it; with no receive posted, it could
    ///   only wait for another thread, else fails with [`Error::NeverCompletes`].
    /// - Ready: with no matching receive posted, [`Error::ReadyNotPosted`].
    ///
    /// Every refusal changes nothing.
    ///
    /// ```
    /// use mpiattr::{Comm, Envelope, Error, SendMode, ThreadLevel, Universe, UserBuffer};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let to_me = Envelope { rank: 0, tag: 1, comm: Comm::WORLD };
    /// universe.send(SendMode::Standard, b"first", to_me)?;
    /// universe.send(SendMode::Standard, b"second", to_me)?;
    /// assert!(matches!(
    ///     universe.send(SendMode::Synchronous, b"x", to_me),
    ///     Err(Error::NeverCompletes(_))
    /// ));
    /// // Non-overtaking: the first message sent is received first.
    /// let got = universe.recv(UserBuffer::bytes(16), to_me)?;
    /// assert_eq!(got.delivery.unwrap().bytes, b"first");
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn send(&self, mode: SendMode, data: &[u8], to: Envelope) -> Result<()> {
        {
            let mut state = self.lock()?;
            state.context(to.comm)?;
            if check_envelope(&to, false)? {
                return Ok(());
            }
            let posted = state.find_posted(to.comm.0, to.tag).is_some();
            if mode != SendMode::Synchronous || posted {
                state.post_send(mode, data.to_vec(), &to, None)?;
                self.progressed();
                return Ok(());
            }
            if !self.may_wait(false) {
                return Err(Error::NeverCompletes(
                    "MPI_Ssend: no receive matches it, and nothing else in this process can post one",
                ));
            }
        }
        // A synchronous send that another thread may yet receive.
        let request = self.isend(mode, data.to_vec(), to)?;
        self.wait_or_withdraw(request).map(drop)
    }

    /// Waits for a request a blocking call made for itself; if the wait fails (nothing can
    /// complete it any more), withdraws it, so that the call leaves nothing behind.
    fn wait_or_withdraw(&self, request: Request) -> Result<Completion> {
        self.wait(Some(request)).inspect_err(|_| {
            let _ = self.cancel(request);
            let _ = self.request_complete(request);
        })
    }

    /// `MPI_Isend`, `MPI_Ibsend`, `MPI_Issend`, `MPI_Irsend`: as [`Universe::send`], returning
    /// a request. Standard, buffered and ready sends are complete at once (the library holds
    /// the data); a synchronous one completes when a receive matches it. Until a receive
    /// matches it, the message can be cancelled.
    pub fn isend(&self, mode: SendMode, data: Vec<u8>, to: Envelope) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        state.context(to.comm)?;
        let spec = SendSpec {
            mode,
            to,
            buffer: None,
        };
        if check_envelope(&to, false)? {
            return state.new_request(RequestData::done(
                Kind::Send {
                    spec,
                    message: None,
                },
                Status::empty(),
            ));
        }
        let request = state.new_request(RequestData::active(
            Kind::Send {
                spec,
                message: None,
            },
            false,
        ))?;
        match state.post_send(mode, data, &to, Some(request.0)) {
            Ok(sent) => {
                state.after_send(request.0, mode, sent);
                self.progressed();
                Ok(request)
            }
            Err(error) => {
                state.requests.remove(request.0);
                Err(error)
            }
        }
    }

    /// `MPI_Recv`: receives the oldest queued message matching `from` into `buffer`. A
    /// message longer than the buffer's capacity delivers what fits and reports
    /// [`Error::Truncated`] in [`Completion::error`]. From `MPI_PROC_NULL`: at once, with
    /// source `MPI_PROC_NULL`, tag `MPI_ANY_TAG` and nothing received. With no matching
    /// message, fails with [`Error::NeverCompletes`] unless another thread may send one
    /// (docs/semantics.md "Point-to-point").
    pub fn recv(&self, buffer: UserBuffer, from: Envelope) -> Result<Completion> {
        {
            let mut state = self.lock()?;
            state.context(from.comm)?;
            if check_envelope(&from, true)? {
                return Ok(proc_null_completion());
            }
            buffer.check()?;
            if let Some(index) = state.find_message(&from) {
                let message = state
                    .take_message(index)
                    .ok_or(Error::Internal("a message that was just found"))?;
                self.progressed();
                return Ok(received(buffer, message.tag, message.data));
            }
            if !self.may_wait(false) {
                return Err(Error::NeverCompletes(
                    "MPI_Recv: no message matches it, and nothing else in this process can send one",
                ));
            }
        }
        let request = self.irecv(buffer, from)?;
        self.wait_or_withdraw(request)
    }

    /// `MPI_Irecv`: posts a receive (matched at once if a queued message matches).
    pub fn irecv(&self, buffer: UserBuffer, from: Envelope) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        state.context(from.comm)?;
        let proc_null = check_envelope(&from, true)?;
        if !proc_null {
            buffer.check()?;
        }
        let spec = RecvSpec { from, buffer };
        if proc_null {
            let mut data = RequestData::done(Kind::Recv { spec }, Status::proc_null());
            data.phase = Phase::Done(Box::new(proc_null_completion()));
            return state.new_request(data);
        }
        let request = state.new_request(RequestData::active(
            Kind::Recv { spec: spec.clone() },
            false,
        ))?;
        state.post_recv(request.0, spec);
        self.progressed();
        Ok(request)
    }

    /// `MPI_Sendrecv` (and `MPI_Sendrecv_replace`, whose shell packs the buffer before and
    /// unpacks it after): a standard send of `data` to `to`, then a receive from `from`. If
    /// the receive could never complete, fails before sending anything.
    pub fn sendrecv(
        &self,
        data: Vec<u8>,
        to: Envelope,
        buffer: UserBuffer,
        from: Envelope,
    ) -> Result<Completion> {
        {
            let mut state = self.lock()?;
            state.context(to.comm)?;
            state.context(from.comm)?;
            let send_null = check_envelope(&to, false)?;
            let recv_null = check_envelope(&from, true)?;
            buffer.check()?;
            // Whether the receive finds a message once the send is done.
            let feasible = recv_null
                || state.find_message(&from).is_some()
                || (!send_null
                    && state.find_posted(to.comm.0, to.tag).is_none()
                    && to.comm == from.comm
                    && tag_matches(from.tag, to.tag));
            if feasible || !self.may_wait(false) {
                if !feasible {
                    return Err(Error::NeverCompletes(
                        "MPI_Sendrecv: no message matches its receive, and nothing else in this process can send one",
                    ));
                }
                if !send_null {
                    state.post_send(SendMode::Standard, data, &to, None)?;
                }
                self.progressed();
                if recv_null {
                    return Ok(proc_null_completion());
                }
                let index = state
                    .find_message(&from)
                    .ok_or(Error::Internal("a feasible receive found no message"))?;
                let message = state
                    .take_message(index)
                    .ok_or(Error::Internal("a message that was just found"))?;
                return Ok(received(buffer, message.tag, message.data));
            }
        }
        let receive = self.irecv(buffer, from)?;
        if let Err(error) = self.send(SendMode::Standard, &data, to) {
            let _ = self.cancel(receive);
            let _ = self.request_complete(receive);
            return Err(error);
        }
        self.wait_or_withdraw(receive)
    }

    /// `MPI_Probe`: the status of the oldest queued message matching `from` (its length in
    /// bytes), leaving it queued. With none, fails with [`Error::NeverCompletes`] unless
    /// another thread may send one.
    pub fn probe(&self, from: Envelope) -> Result<Status> {
        self.block(
            "MPI_Probe: no message matches it, and nothing else in this process can send one",
            |state| state.iprobe(&from),
        )
    }

    /// `MPI_Iprobe`: as [`Universe::probe`], `None` when no message matches.
    pub fn iprobe(&self, from: Envelope) -> Result<Option<Status>> {
        self.lock()?.iprobe(&from)
    }

    /// `MPI_Mprobe`: as [`Universe::probe`], and the message leaves the queue: only
    /// `MPI_Mrecv`/`MPI_Imrecv` of its handle receives it (a synchronous sender completes
    /// now). From `MPI_PROC_NULL`: [`MessageHandle::NoProc`].
    pub fn mprobe(&self, from: Envelope) -> Result<(MessageHandle, Status)> {
        self.block(
            "MPI_Mprobe: no message matches it, and nothing else in this process can send one",
            |state| {
                let found = state.improbe(&from)?;
                if found.is_some() {
                    self.progressed();
                }
                Ok(found)
            },
        )
    }

    /// `MPI_Improbe`: as [`Universe::mprobe`], `None` when no message matches.
    pub fn improbe(&self, from: Envelope) -> Result<Option<(MessageHandle, Status)>> {
        let mut state = self.lock()?;
        let found = state.improbe(&from)?;
        if found.is_some() {
            self.progressed();
        }
        Ok(found)
    }

    /// `MPI_Mrecv`: receives a message matched by a matching probe; the handle is used up.
    pub fn mrecv(&self, message: MessageHandle, buffer: UserBuffer) -> Result<Completion> {
        let mut state = self.lock()?;
        let id = match message {
            MessageHandle::NoProc => return Ok(proc_null_completion()),
            MessageHandle::Message(id) => id,
        };
        buffer.check()?;
        let message = state.p2p.matched.remove(id).ok_or(Error::InvalidMessage)?;
        Ok(received(buffer, message.tag, message.data))
    }

    /// `MPI_Imrecv`: as [`Universe::mrecv`], returning a complete request.
    pub fn imrecv(&self, message: MessageHandle, buffer: UserBuffer) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        buffer.check()?;
        let completion = match message {
            MessageHandle::NoProc => proc_null_completion(),
            MessageHandle::Message(id) => {
                if state.p2p.matched.get(id).is_none() {
                    return Err(Error::InvalidMessage);
                }
                if !state.requests.has_room() {
                    return Err(Error::TooManyObjects("request"));
                }
                let message = state.p2p.matched.remove(id).ok_or(Error::InvalidMessage)?;
                received(buffer, message.tag, message.data)
            }
        };
        let mut data = RequestData::plain();
        data.phase = Phase::Done(Box::new(completion));
        state.new_request(data)
    }

    /// The identity of the message matched by a probe at a table index, if one is there (for
    /// the shells' handle checks: `MPI_Message_c2f`, Fortran message integers).
    pub(crate) fn message_at(&self, index: u32) -> Result<Option<Id>> {
        Ok(self.lock()?.p2p.matched.id_at(index))
    }

    /// The number of messages sent and not yet received (queued or matched by a probe).
    pub fn pending_messages(&self) -> Result<usize> {
        let state = self.lock()?;
        Ok(state.p2p.messages.len() + state.p2p.matched.len())
    }

    // ---- persistent requests ----------------------------------------------------------

    /// `MPI_Send_init`, `MPI_Bsend_init`, `MPI_Ssend_init`, `MPI_Rsend_init`: an inactive
    /// persistent send. `buffer` is what the shell packs at each start
    /// ([`Universe::request_buffer`]).
    pub fn send_init(&self, mode: SendMode, buffer: UserBuffer, to: Envelope) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        state.context(to.comm)?;
        check_envelope(&to, false)?;
        buffer.check()?;
        let spec = SendSpec {
            mode,
            to,
            buffer: Some(buffer),
        };
        state.new_request(RequestData::active(
            Kind::Send {
                spec,
                message: None,
            },
            true,
        ))
    }

    /// `MPI_Recv_init`: an inactive persistent receive.
    pub fn recv_init(&self, buffer: UserBuffer, from: Envelope) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        state.context(from.comm)?;
        check_envelope(&from, true)?;
        buffer.check()?;
        let spec = RecvSpec { from, buffer };
        state.new_request(RequestData::active(Kind::Recv { spec }, true))
    }

    /// The buffer a persistent send or receive (or a partitioned one) was made with.
    pub fn request_buffer(&self, request: Request) -> Result<Option<UserBuffer>> {
        Ok(match &self.lock()?.request(request)?.kind {
            Kind::Send { spec, .. } => spec.buffer.clone(),
            Kind::Recv { spec } => Some(spec.buffer.clone()),
            Kind::Partitioned(p) => Some(p.buffer.clone()),
            _ => None,
        })
    }

    /// The buffer whose packed bytes the shell's `MPI_Start` passes to [`Universe::start`]:
    /// a persistent send's buffer or a persistent collective's send block
    /// ([`Universe::collective_init`]); `None` for any other request (which starts with no
    /// data).
    pub fn start_buffer(&self, request: Request) -> Result<Option<UserBuffer>> {
        Ok(match &self.lock()?.request(request)?.kind {
            Kind::Send { spec, .. } => spec.buffer.clone(),
            Kind::Collective { send, .. } => send.clone(),
            _ => None,
        })
    }

    /// `MPI_Start`: starts an inactive persistent request; `data` is a send's packed bytes
    /// (empty for the others). A ready send with no receive posted is refused and stays
    /// inactive.
    pub fn start(&self, request: Request, data: Vec<u8>) -> Result<()> {
        let mut state = self.lock()?;
        state.start_request(request, data)?;
        self.progressed();
        Ok(())
    }

    /// `MPI_Startall`: starts each request in order, after checking that every one is an
    /// inactive persistent request; stops at the first that fails (the ones before stay
    /// started).
    pub fn startall(&self, starts: Vec<(Request, Vec<u8>)>) -> Result<()> {
        let mut state = self.lock()?;
        for (request, _) in &starts {
            if !matches!(state.request(*request)?.phase, Phase::Inactive) {
                return Err(Error::InvalidRequestState(
                    "only inactive persistent requests can be started",
                ));
            }
        }
        let result = starts
            .into_iter()
            .try_for_each(|(request, data)| state.start_request(request, data));
        self.progressed();
        result
    }

    // ---- buffered mode ----------------------------------------------------------------

    /// `MPI_Buffer_attach`, `MPI_Comm_attach_buffer`, `MPI_Session_attach_buffer`: one
    /// buffer per scope at a time ([`Error::BufferAttached`]).
    pub fn buffer_attach(&self, scope: BufferScope, buffer: AttachedBuffer) -> Result<()> {
        let mut state = self.lock()?;
        state.check_live()?;
        if let BufferScope::Comm(comm) = scope {
            state.context(comm)?;
        }
        if state.p2p.buffers.contains_key(&scope) {
            return Err(Error::BufferAttached);
        }
        state
            .p2p
            .buffers
            .insert(scope, Attached { buffer, used: 0 });
        Ok(())
    }

    /// `MPI_Buffer_detach` and the communicator and session forms: the buffer attached
    /// (`None` if none). Messages still holding space in it are handed over to the library's
    /// own memory first (they already are there: the space was only accounted), so detach
    /// never waits.
    pub fn buffer_detach(&self, scope: BufferScope) -> Result<Option<AttachedBuffer>> {
        let mut state = self.lock()?;
        if let BufferScope::Comm(comm) = scope {
            state.context(comm)?;
        }
        state.flush(scope);
        Ok(state.p2p.buffers.remove(&scope).map(|a| a.buffer))
    }

    /// `MPI_Buffer_flush` and its communicator and session forms: every buffered message of
    /// the scope is handed over (see [`Universe::buffer_detach`]), its space free again.
    pub fn buffer_flush(&self, scope: BufferScope) -> Result<()> {
        let mut state = self.lock()?;
        if let BufferScope::Comm(comm) = scope {
            state.context(comm)?;
        }
        state.flush(scope);
        Ok(())
    }

    /// `MPI_Buffer_iflush` and its forms: as [`Universe::buffer_flush`], with a request
    /// complete at once.
    pub fn buffer_iflush(&self, scope: BufferScope) -> Result<Request> {
        self.buffer_flush(scope)?;
        self.lock()?.new_request(RequestData::plain())
    }

    /// The bytes in use and the size of the buffer attached to a scope (`usize::MAX` for
    /// `MPI_BUFFER_AUTOMATIC`); `None` if none is attached.
    pub fn buffer_usage(&self, scope: BufferScope) -> Result<Option<(usize, usize)>> {
        Ok(self.lock()?.p2p.buffers.get(&scope).map(|a| {
            let size = match a.buffer {
                AttachedBuffer::Automatic => usize::MAX,
                AttachedBuffer::Memory { size, .. } => size,
            };
            (a.used, size)
        }))
    }

    // ---- partitioned communication ----------------------------------------------------

    /// `MPI_Psend_init`: an inactive persistent partitioned send of `partitions` partitions
    /// of `buffer` each (`buffer.bytes`: one partition's packed size). It is matched with a
    /// `MPI_Precv_init` of the same communicator and tag, in the order of the init calls.
    pub fn psend_init(
        &self,
        partitions: usize,
        buffer: UserBuffer,
        to: Envelope,
    ) -> Result<Request> {
        self.partitioned_init(true, partitions, buffer, to)
    }

    /// `MPI_Precv_init`: the receiving side (no wildcards).
    pub fn precv_init(
        &self,
        partitions: usize,
        buffer: UserBuffer,
        from: Envelope,
    ) -> Result<Request> {
        self.partitioned_init(false, partitions, buffer, from)
    }

    fn partitioned_init(
        &self,
        send: bool,
        partitions: usize,
        buffer: UserBuffer,
        envelope: Envelope,
    ) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        state.context(envelope.comm)?;
        let proc_null = check_envelope(&envelope, false)?;
        buffer.check()?;
        if partitions > i32::MAX as usize {
            return Err(Error::InvalidCount);
        }
        let total = (buffer.bytes as usize)
            .checked_mul(partitions)
            .filter(|t| *t <= isize::MAX as usize)
            .ok_or(Error::InvalidCount)?;
        // The oldest unbound partner of the other side with the same envelope.
        let partner = if proc_null {
            None
        } else {
            state.p2p.unbound.iter().position(|id| {
                matches!(
                    state.requests.get(*id).map(|d| &d.kind),
                    Some(Kind::Partitioned(p))
                        if p.send != send
                            && p.envelope.comm == envelope.comm
                            && p.envelope.tag == envelope.tag
                            && p.total() == total
                )
            })
        };
        let request = state.new_request(RequestData::active(
            Kind::Partitioned(Box::new(Partitioned {
                send,
                envelope,
                buffer,
                partitions,
                peer: None,
                flags: vec![false; if send { partitions } else { 0 }],
                data: vec![0; total],
                round: 0,
            })),
            true,
        ))?;
        match partner {
            Some(index) => {
                let peer = state.p2p.unbound.remove(index);
                state.partitioned_mut(peer)?.peer = Some(request.0);
                state.partitioned_mut(request.0)?.peer = Some(peer);
            }
            None if !proc_null => state.p2p.unbound.push(request.0),
            None => {}
        }
        Ok(request)
    }

    /// `MPI_Pready`, `MPI_Pready_range`, `MPI_Pready_list`: the listed partitions of an active
    /// partitioned send are ready, with their packed bytes. All are checked before any is
    /// taken: each in range, of one partition's size, and not ready already this round.
    pub fn pready(&self, request: Request, partitions: &[(usize, &[u8])]) -> Result<()> {
        let mut state = self.lock()?;
        let active = state.is_active(request.0);
        let p = state.partitioned_mut(request.0)?;
        if p.send && p.envelope.rank == PROC_NULL && p.round > 0 {
            // Started towards MPI_PROC_NULL: complete already, nothing goes anywhere.
            return Ok(());
        }
        if !p.send || !active {
            return Err(Error::InvalidRequestState(
                "MPI_Pready needs an active partitioned send request",
            ));
        }
        let size = p.buffer.bytes as usize;
        let mut seen = p.flags.clone();
        for (partition, bytes) in partitions {
            if *partition >= p.partitions || seen[*partition] {
                return Err(Error::InvalidArgument(
                    "a partition out of range, or ready already",
                ));
            }
            if bytes.len() != size {
                return Err(Error::InvalidCount);
            }
            seen[*partition] = true;
        }
        for (partition, bytes) in partitions {
            p.data[partition * size..(partition + 1) * size].copy_from_slice(bytes);
            p.flags[*partition] = true;
        }
        let all = p.flags.iter().all(|f| *f);
        let (peer, round) = (p.peer, p.round);
        let same_round = |state: &mut State, peer: Id| {
            state.is_active(peer)
                && state
                    .partitioned_mut(peer)
                    .is_ok_and(|receiver| receiver.round == round)
        };
        if let Some(peer) = peer.filter(|peer| same_round(&mut state, *peer)) {
            for (partition, _) in partitions {
                state.transfer(request.0, peer, *partition)?;
            }
        }
        if all {
            state.complete_request(request.0, Completion::empty());
        }
        self.progressed();
        Ok(())
    }

    /// `MPI_Parrived`: whether partition `partition` of a partitioned receive has arrived
    /// (all of it, when the two sides partition differently). A complete request: true.
    pub fn parrived(&self, request: Request, partition: usize) -> Result<bool> {
        let mut state = self.lock()?;
        let done = !state.is_active(request.0);
        let p = state.partitioned_mut(request.0)?;
        if p.send || partition >= p.partitions {
            return Err(Error::InvalidArgument(
                "MPI_Parrived needs a partitioned receive and a partition in range",
            ));
        }
        if done || p.envelope.rank == PROC_NULL {
            return Ok(true);
        }
        if p.flags.is_empty() {
            return Ok(false);
        }
        let size = p.buffer.bytes as usize;
        if size == 0 {
            return Ok(p.flags.iter().all(|f| *f));
        }
        let sender_size = p.total() / p.flags.len();
        let (start, end) = (partition * size, (partition + 1) * size);
        Ok((start / sender_size..end.div_ceil(sender_size)).all(|i| p.flags[i]))
    }

    /// What the shells need to read or write a partition of a partitioned request: whether
    /// it is the sending side, its number of partitions and one partition's buffer (its
    /// address that of partition 0). [`Error::InvalidRequestState`] for another kind of
    /// request.
    pub fn partitioned_shape(&self, request: Request) -> Result<(bool, usize, UserBuffer)> {
        let mut state = self.lock()?;
        let p = state.partitioned_mut(request.0)?;
        Ok((p.send, p.partitions, p.buffer.clone()))
    }

    /// The bytes of an arrived partition of a partitioned receive, for the shell to unpack
    /// after `MPI_Parrived` said yes (`None` if it has not arrived, or nothing was received:
    /// `MPI_PROC_NULL`, no round started).
    pub fn partition_data(&self, request: Request, partition: usize) -> Result<Option<Vec<u8>>> {
        if !self.parrived(request, partition)? {
            return Ok(None);
        }
        let mut state = self.lock()?;
        let p = state.partitioned_mut(request.0)?;
        if p.envelope.rank == PROC_NULL || p.flags.is_empty() {
            // Nothing was received: MPI_PROC_NULL, or no round has moved data.
            return Ok(None);
        }
        let size = p.buffer.bytes as usize;
        Ok(p.data
            .get(partition * size..(partition + 1) * size)
            .map(<[u8]>::to_vec))
    }
}

impl State {
    fn iprobe(&self, from: &Envelope) -> Result<Option<Status>> {
        self.context(from.comm)?;
        if check_envelope(from, true)? {
            return Ok(Some(Status::proc_null()));
        }
        Ok(self.find_message(from).map(|index| {
            let message = &self.p2p.messages[index];
            Status {
                source: 0,
                tag: message.tag,
                bytes: message.data.len() as u64,
                ..Status::empty()
            }
        }))
    }

    fn improbe(&mut self, from: &Envelope) -> Result<Option<(MessageHandle, Status)>> {
        self.context(from.comm)?;
        if check_envelope(from, true)? {
            return Ok(Some((MessageHandle::NoProc, Status::proc_null())));
        }
        let Some(index) = self.find_message(from) else {
            return Ok(None);
        };
        if !self.p2p.matched.has_room() {
            return Err(Error::TooManyObjects("message"));
        }
        let message = self
            .take_message(index)
            .ok_or(Error::Internal("a message that was just found"))?;
        let status = Status {
            source: 0,
            tag: message.tag,
            bytes: message.data.len() as u64,
            ..Status::empty()
        };
        let id = self
            .p2p
            .matched
            .insert(message)
            .ok_or(Error::TooManyObjects("message"))?;
        Ok(Some((MessageHandle::Message(id), status)))
    }

    /// Hands the buffered messages of a scope over to the library: their space is free.
    fn flush(&mut self, scope: BufferScope) {
        for message in self.p2p.messages.iter_mut() {
            if matches!(message.buffered, Some((s, _)) if s == scope) {
                message.buffered = None;
            }
        }
        if let Some(attached) = self.p2p.buffers.get_mut(&scope) {
            attached.used = 0;
        }
    }
}

/// The shells' fast paths of point-to-point with oneself (MPI_Send, MPI_Isend, MPI_Recv,
/// MPI_Sendrecv, MPI_Wait): under `MPI_THREAD_SINGLE` on the owning thread, with no lock, for
/// a live communicator, rank 0, valid tags and datatypes whose items lie back to back. Each
/// does what the full call does in its most common case; in every other case (errors
/// included) it gives `None` and changes nothing, and the full call runs and reports.
impl Universe {
    /// A standard-mode send of `count` items of `datatype` to rank 0 with `tag` on `comm`
    /// while no receive is posted: the message joins the queue. `message` gets the packed
    /// length and gives the bytes (`None` if the buffer cannot be read). With `request`, as
    /// MPI_Isend: the send's request, complete at once.
    #[inline(always)]
    pub(crate) fn send_fast<'a>(
        &self,
        comm: Comm,
        tag: i32,
        datatype: Datatype,
        count: usize,
        message: impl FnOnce(usize) -> Option<&'a [u8]>,
        request: bool,
    ) -> Option<Option<Request>> {
        let mut state = self.state.try_single()?;
        if !(0..=TAG_UB).contains(&tag) || !state.p2p.posted.is_empty() {
            return None;
        }
        state.check_live().ok()?;
        state.object(ObjectKind::Comm, comm.0).ok()?;
        let length = state.fast_type(datatype)?.size.checked_mul(count as u64)?;
        let bytes = message(usize::try_from(length).ok()?)?;
        let number = state.p2p.next_message;
        let made = if request {
            let spec = SendSpec {
                mode: SendMode::Standard,
                to: Envelope { rank: 0, tag, comm },
                buffer: None,
            };
            let data = RequestData {
                kind: Kind::Send {
                    spec,
                    message: Some(number),
                },
                phase: Phase::Sent,
                persistent: false,
                freed: false,
            };
            Some(state.new_request(data).ok()?)
        } else {
            None
        };
        let mut data = state.p2p.spare.pop().unwrap_or_default();
        data.extend_from_slice(bytes);
        state.p2p.next_message += 1;
        state.p2p.messages.push_back(Message {
            id: number,
            context: comm.0,
            tag,
            data,
            sync: None,
            request: made.map(|r| r.0),
            buffered: None,
        });
        Some(made)
    }

    /// A blocking receive from `source` (0 or `MPI_ANY_SOURCE`) with `tag` on `comm` into
    /// `count` items of `datatype` when a queued message matches and fits: `deliver` gets its
    /// bytes, and the status comes back.
    #[inline(always)]
    pub(crate) fn recv_fast(
        &self,
        comm: Comm,
        source: i32,
        tag: i32,
        datatype: Datatype,
        count: usize,
        deliver: impl FnOnce(&[u8]),
    ) -> Option<Status> {
        let mut state = self.state.try_single()?;
        if !(source == 0 || source == ANY_SOURCE) || check_tag(tag, true).is_err() {
            return None;
        }
        state.object(ObjectKind::Comm, comm.0).ok()?;
        let capacity = state.fast_type(datatype)?.size.checked_mul(count as u64)?;
        let from = Envelope {
            rank: source,
            tag,
            comm,
        };
        let index = state.find_message(&from)?;
        if state.p2p.messages[index].data.len() as u64 > capacity {
            return None;
        }
        let message = state.take_message(index)?;
        deliver(&message.data);
        let status = Status {
            source: 0,
            tag: message.tag,
            bytes: message.data.len() as u64,
            ..Status::empty()
        };
        state.recycle(message.data);
        Some(status)
    }

    /// MPI_Sendrecv to and from oneself on one communicator when its send is the message its
    /// receive takes (no queued message matches the receive, no posted receive the send) and
    /// fits: `copy` gets the packed length and moves the bytes; nothing else changes.
    #[inline(always)]
    pub(crate) fn sendrecv_fast(
        &self,
        comm: Comm,
        (dest, sendtag, sendtype, sendcount): (i32, i32, Datatype, usize),
        (source, recvtag, recvtype, recvcount): (i32, i32, Datatype, usize),
        copy: impl FnOnce(usize),
    ) -> Option<Status> {
        let state = self.state.try_single()?;
        if dest != 0
            || !(source == 0 || source == ANY_SOURCE)
            || check_tag(sendtag, false).is_err()
            || check_tag(recvtag, true).is_err()
            || !tag_matches(recvtag, sendtag)
        {
            return None;
        }
        state.object(ObjectKind::Comm, comm.0).ok()?;
        let length = state
            .fast_type(sendtype)?
            .size
            .checked_mul(sendcount as u64)?;
        let capacity = state
            .fast_type(recvtype)?
            .size
            .checked_mul(recvcount as u64)?;
        let from = Envelope {
            rank: source,
            tag: recvtag,
            comm,
        };
        if length > capacity
            || state.find_message(&from).is_some()
            || state.find_posted(comm.0, sendtag).is_some()
        {
            return None;
        }
        copy(usize::try_from(length).ok()?);
        Some(Status {
            source: 0,
            tag: sendtag,
            bytes: length,
            ..Status::empty()
        })
    }

    /// MPI_Wait on a complete nonblocking send: the request goes.
    #[inline(always)]
    pub(crate) fn wait_fast(&self, request: Request) -> Option<()> {
        let mut state = self.state.try_single()?;
        let data = state.requests.get(request.0)?;
        if data.persistent || !matches!(data.phase, Phase::Sent) {
            return None;
        }
        state.requests.discard(request.0);
        Some(())
    }
}

impl State {
    /// Keeps an emptied message buffer for the next fast send.
    #[inline(always)]
    fn recycle(&mut self, mut data: Vec<u8>) {
        if self.p2p.spare.len() < SPARE_BUFFERS && data.capacity() <= SPARE_CAPACITY {
            data.clear();
            self.p2p.spare.push(data);
        }
    }
}

#[cfg(test)]
#[path = "messages_tests.rs"]
mod tests;
