//! Requests: the one table of nonblocking operations that every chapter shares (messages,
//! `MPI_Comm_idup`, generalized requests, partitioned communication; collectives and files
//! later), the status they complete with, and the wait/test family (MPI-4.1 §3.7).
//!
//! A request is *active* until its operation is done, then *complete* until a wait or test
//! reports it. Reporting frees an ordinary request (its handle becomes `MPI_REQUEST_NULL` in the
//! shells) and makes a persistent one *inactive* again. A blocking call whose request can never
//! complete fails at once (see [`Universe::wait`] and docs/semantics.md "Point-to-point").

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::messages::{Partitioned, RecvSpec, SendSpec};
use super::typemap::TypeMap;
use super::{Datatype, Error, Id, Request, Result, State, ThreadLevel, Universe};

/// `MPI_ANY_SOURCE`.
pub const ANY_SOURCE: i32 = crate::abi::MPI_ANY_SOURCE;
/// `MPI_ANY_TAG`.
pub const ANY_TAG: i32 = crate::abi::MPI_ANY_TAG;
/// `MPI_PROC_NULL`.
pub const PROC_NULL: i32 = crate::abi::MPI_PROC_NULL;
/// `MPI_UNDEFINED`.
pub const UNDEFINED: i32 = crate::abi::MPI_UNDEFINED;

/// What a completed operation reports: the fields of `MPI_Status`. The length of a message is
/// kept in bytes of its packed form; the shells turn it into elements of a datatype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// `MPI_SOURCE`.
    pub source: i32,
    /// `MPI_TAG`.
    pub tag: i32,
    /// `MPI_ERROR` (set by the calls that complete several requests, and by the setters).
    pub error: i32,
    /// The packed bytes received (what `MPI_Get_count` divides by the type's size).
    pub bytes: u64,
    /// Whether the operation was cancelled (`MPI_Test_cancelled`).
    pub cancelled: bool,
}

impl Status {
    /// The empty status of MPI-4.1 §3.7.3: source `MPI_ANY_SOURCE`, tag `MPI_ANY_TAG`, no
    /// error, nothing received, not cancelled (a null or inactive request, a send).
    pub const fn empty() -> Status {
        Status {
            source: ANY_SOURCE,
            tag: ANY_TAG,
            error: 0,
            bytes: 0,
            cancelled: false,
        }
    }

    /// What a receive from `MPI_PROC_NULL` reports: source `MPI_PROC_NULL`, tag
    /// `MPI_ANY_TAG`, nothing received.
    pub const fn proc_null() -> Status {
        Status {
            source: PROC_NULL,
            ..Status::empty()
        }
    }

    /// `MPI_Status_set_elements` (`_x`, `_c`): `count` elements of `element_size` bytes.
    /// A negative count, or one whose bytes overflow, is [`Error::InvalidCount`], and the
    /// status is unchanged.
    pub fn set_elements(&mut self, count: i64, element_size: u64) -> Result<()> {
        let count = u64::try_from(count).map_err(|_| Error::InvalidCount)?;
        self.bytes = count
            .checked_mul(element_size)
            .filter(|bytes| *bytes <= i64::MAX as u64)
            .ok_or(Error::InvalidCount)?;
        Ok(())
    }

    /// The number of whole elements of `element_size` bytes received: `None`
    /// (`MPI_UNDEFINED`) when the bytes are not a whole number of them. An element of size 0
    /// counts 0 of them.
    pub fn elements(&self, element_size: u64) -> Option<u64> {
        match element_size {
            0 => Some(0),
            size if self.bytes % size == 0 => Some(self.bytes / size),
            _ => None,
        }
    }
}

/// The layout of a buffer's elements when they are not one contiguous block: the datatype's
/// committed type map, kept with a receive so that its data can be unpacked at completion
/// even if the program freed the datatype meanwhile (MPI-4.1 §5.1.10: freeing a datatype does
/// not affect communication that uses it). Two layouts are equal when they are the same map.
#[derive(Clone, Debug)]
pub struct Layout(pub Arc<TypeMap>);

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Layout {}

/// Where the data of a receive goes, as the shell described it: plain data that the engine
/// keeps with the request and hands back with the bytes at completion, so that the shell can
/// unpack them there (the receive buffer is undefined until then, MPI-4.1 §3.7.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserBuffer {
    /// The buffer's address in the program (0 for a Rust caller that needs none).
    pub address: usize,
    /// The count of elements the call named.
    pub count: i64,
    /// Their datatype.
    pub datatype: Datatype,
    /// The bytes `count` elements take packed: a receive's capacity, a send's length.
    pub bytes: u64,
    /// Their layout, unless they are `bytes` contiguous bytes at `address`.
    pub layout: Option<Layout>,
}

impl UserBuffer {
    /// A buffer of `bytes` packed bytes of `MPI_BYTE`, for Rust callers.
    pub fn bytes(bytes: u64) -> UserBuffer {
        UserBuffer {
            address: 0,
            count: bytes as i64,
            datatype: super::Universe::predefined_datatype(
                crate::abi::MPIATTR_HANDLE_MPI_BYTE as usize,
            )
            .unwrap_or(Datatype(super::predefined_id(0))),
            bytes,
            layout: None,
        }
    }

    pub(crate) fn check(&self) -> Result<()> {
        if self.count < 0 || self.bytes > i64::MAX as u64 {
            Err(Error::InvalidCount)
        } else {
            Ok(())
        }
    }
}

/// The bytes a receive delivers, with the buffer they go to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The receive's buffer, as the call described it.
    pub buffer: UserBuffer,
    /// The packed bytes to unpack there (at most its capacity).
    pub bytes: Vec<u8>,
}

/// What a wait or test reports for one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// Its status.
    pub status: Status,
    /// For a receive: the bytes to unpack, and where.
    pub delivery: Option<Delivery>,
    /// The operation's error (a truncated receive, a generalized request's query failing):
    /// the call reports it after the data is delivered; `status.error` holds its class.
    pub error: Option<Error>,
    /// Whether the request is gone (its handle becomes `MPI_REQUEST_NULL`); false for a
    /// persistent request, which is inactive again, and for a null or inactive one.
    pub freed: bool,
}

impl Completion {
    /// An empty status for a null or inactive request.
    pub(crate) fn empty() -> Completion {
        Completion {
            status: Status::empty(),
            delivery: None,
            error: None,
            freed: false,
        }
    }
}

/// The callbacks of a generalized request (`MPI_Grequest_start`), called with no engine lock
/// held: they may call anything on `universe`. An `Err(code)` is the call's error code.
pub trait GeneralizedRequest: Send + Sync {
    /// Fills the status when a wait, test or `MPI_Request_get_status` reports the request.
    fn query(&self, universe: &Universe) -> std::result::Result<Status, i32>;
    /// The request is freed (after its last query).
    fn free(&self, universe: &Universe) -> std::result::Result<(), i32>;
    /// `MPI_Cancel`; `complete` says whether `MPI_Grequest_complete` was called already.
    fn cancel(&self, universe: &Universe, complete: bool) -> std::result::Result<(), i32>;
}

/// What a request stands for.
pub(crate) enum Kind {
    /// Complete when made (`MPI_Comm_idup`, `MPI_Buffer_iflush`, a send to `MPI_PROC_NULL`).
    Plain,
    /// A send; `message` is its message while that waits unreceived (it can be cancelled).
    Send {
        spec: SendSpec,
        message: Option<u64>,
    },
    /// A receive.
    Recv { spec: RecvSpec },
    /// A generalized request.
    Generalized(Arc<dyn GeneralizedRequest>),
    /// One side of a partitioned communication.
    Partitioned(Box<Partitioned>),
    /// A persistent collective (`MPI_Bcast_init` ...) on one process: each start turns the
    /// packed bytes of `send` into a delivery into `recv` (`None` both when nothing moves:
    /// `MPI_IN_PLACE`, a broadcast, an exclusive scan).
    Collective {
        send: Option<UserBuffer>,
        recv: Option<UserBuffer>,
    },
}

impl std::fmt::Debug for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Kind::Plain => f.write_str("Plain"),
            Kind::Send { spec, message } => write!(f, "Send({spec:?}, {message:?})"),
            Kind::Recv { spec } => write!(f, "Recv({spec:?})"),
            Kind::Generalized(_) => f.write_str("Generalized"),
            Kind::Partitioned(p) => write!(f, "Partitioned({p:?})"),
            Kind::Collective { send, recv } => write!(f, "Collective({send:?}, {recv:?})"),
        }
    }
}

/// Where a request is in its life.
#[derive(Debug)]
pub(crate) enum Phase {
    /// A persistent request not started (or reported since).
    Inactive,
    /// Started, not done.
    Active,
    /// Done, not yet reported.
    Done(Box<Completion>),
    /// Done with an empty completion, not yet reported: a send whose data the library holds
    /// or a receive took (the common case, kept without an allocation).
    Sent,
}

/// A request's entry in the table.
#[derive(Debug)]
pub(crate) struct RequestData {
    pub(crate) kind: Kind,
    pub(crate) phase: Phase,
    pub(crate) persistent: bool,
    /// `MPI_Request_free` was called while it was active: it goes when it completes.
    pub(crate) freed: bool,
}

impl RequestData {
    /// A request complete at birth with an empty status.
    pub(crate) fn plain() -> RequestData {
        RequestData::done(Kind::Plain, Status::empty())
    }

    pub(crate) fn done(kind: Kind, status: Status) -> RequestData {
        RequestData {
            kind,
            phase: Phase::Done(Box::new(Completion {
                status,
                ..Completion::empty()
            })),
            persistent: false,
            freed: false,
        }
    }

    pub(crate) fn active(kind: Kind, persistent: bool) -> RequestData {
        RequestData {
            kind,
            phase: if persistent {
                Phase::Inactive
            } else {
                Phase::Active
            },
            persistent,
            freed: false,
        }
    }

    fn is_inactive(&self) -> bool {
        matches!(self.phase, Phase::Inactive)
    }

    fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done(_) | Phase::Sent)
    }
}

/// What taking a completed request out of the table leaves to do with no lock held.
enum Finished {
    Ready(Completion),
    /// A generalized request: its query and then its free callback run.
    Generalized(Arc<dyn GeneralizedRequest>),
}

/// What a peek at a request without reporting it gives.
enum Peeked {
    Pending,
    Ready(Status),
    Query(Arc<dyn GeneralizedRequest>),
}

/// How blocked threads learn that something changed: a counter bumped under the state lock
/// after every change that can complete a request, and a condition variable. Only
/// [`ThreadLevel::Multiple`] ever waits.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    epoch: Mutex<u64>,
    changed: Condvar,
    waiting: AtomicUsize,
}

impl Progress {
    fn epoch(&self) -> u64 {
        *self.epoch.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes every waiter (called with the state lock held).
    pub(crate) fn bump(&self) {
        let mut epoch = self.epoch.lock().unwrap_or_else(|e| e.into_inner());
        *epoch = epoch.wrapping_add(1);
        self.changed.notify_all();
    }

    /// Waits until the counter moves past `seen`, or a short while (so that a waiter notices
    /// when it is the last thread that could act).
    fn wait_past(&self, seen: u64) {
        let epoch = self.epoch.lock().unwrap_or_else(|e| e.into_inner());
        if *epoch == seen {
            let _ = self
                .changed
                .wait_timeout(epoch, Duration::from_millis(50))
                .map(drop);
        }
    }
}

/// The number of threads of this process, if the system says (Linux's /proc).
fn process_threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}

impl State {
    pub(crate) fn request(&self, request: Request) -> Result<&RequestData> {
        self.requests.get(request.0).ok_or(Error::InvalidRequest)
    }

    pub(crate) fn request_mut(&mut self, request: Request) -> Result<&mut RequestData> {
        self.requests
            .get_mut(request.0)
            .ok_or(Error::InvalidRequest)
    }

    /// A new request in the table.
    pub(crate) fn new_request(&mut self, data: RequestData) -> Result<Request> {
        self.requests
            .insert(data)
            .map(Request)
            .ok_or(Error::TooManyObjects("request"))
    }

    /// The operation of an active request is done: it completes, or goes if it was freed.
    pub(crate) fn complete_request(&mut self, id: Id, completion: Completion) {
        let Some(data) = self.requests.get_mut(id) else {
            return;
        };
        if data.freed && !data.persistent {
            self.requests.remove(id);
            return;
        }
        data.phase = Phase::Done(Box::new(completion));
    }

    /// Whether a wait on the request would return now.
    fn ready(&self, request: Option<Request>) -> Result<bool> {
        match request {
            None => Ok(true),
            Some(r) => {
                let data = self.request(r)?;
                Ok(data.is_inactive() || data.is_done())
            }
        }
    }

    /// Whether the request takes part in the any/some calls (neither null nor inactive).
    fn counts(&self, request: Option<Request>) -> Result<bool> {
        match request {
            None => Ok(false),
            Some(r) => Ok(!self.request(r)?.is_inactive()),
        }
    }

    /// Reports a request that [`State::ready`] says is ready: frees it or makes it inactive.
    fn take(&mut self, request: Option<Request>) -> Result<Finished> {
        let Some(request) = request else {
            return Ok(Finished::Ready(Completion::empty()));
        };
        let data = self.request_mut(request)?;
        let completion = match std::mem::replace(&mut data.phase, Phase::Inactive) {
            Phase::Inactive => return Ok(Finished::Ready(Completion::empty())),
            Phase::Active => {
                data.phase = Phase::Active;
                return Err(Error::Internal("a request taken before it completed"));
            }
            Phase::Done(completion) => *completion,
            Phase::Sent => Completion::empty(),
        };
        if let Kind::Send { message, .. } = &mut data.kind {
            if data.persistent {
                *message = None;
            }
        }
        if data.persistent {
            return Ok(Finished::Ready(completion));
        }
        let data = self
            .requests
            .remove(request.0)
            .ok_or(Error::InvalidRequest)?;
        Ok(match data.kind {
            Kind::Generalized(callbacks) => Finished::Generalized(callbacks),
            _ => Finished::Ready(Completion {
                freed: true,
                ..completion
            }),
        })
    }

    fn peek_request(&self, request: Option<Request>) -> Result<Peeked> {
        let Some(request) = request else {
            return Ok(Peeked::Ready(Status::empty()));
        };
        let data = self.request(request)?;
        Ok(match (&data.phase, &data.kind) {
            (Phase::Inactive, _) => Peeked::Ready(Status::empty()),
            (Phase::Active, _) => Peeked::Pending,
            (Phase::Done(_), Kind::Generalized(callbacks)) => Peeked::Query(callbacks.clone()),
            (Phase::Done(completion), _) => Peeked::Ready(completion.status),
            (Phase::Sent, _) => Peeked::Ready(Status::empty()),
        })
    }
}

impl Universe {
    /// Whether a blocking call that cannot complete now may wait for another thread: only
    /// under [`ThreadLevel::Multiple`] (at the other levels no other thread may call while
    /// this one is inside), and only while the process has a thread that is not itself
    /// waiting here (docs/semantics.md "Point-to-point"). `counted`: the caller is among the
    /// waiters counted already.
    pub(crate) fn may_wait(&self, counted: bool) -> bool {
        if self.thread_level() != ThreadLevel::Multiple {
            return false;
        }
        let others = self.progress.waiting.load(Ordering::SeqCst) - usize::from(counted);
        match process_threads() {
            Some(threads) => threads > others + 1,
            None => true,
        }
    }

    /// Tells waiting threads that something changed (with the state lock held). A thread
    /// counts itself among the waiters and reads the counter under the state lock, so with
    /// none counted there is no one to wake.
    pub(crate) fn progressed(&self) {
        if self.progress.waiting.load(Ordering::SeqCst) > 0 {
            self.progress.bump();
        }
    }

    /// Runs `attempt` under the lock until it gives a value; when it gives none and no other
    /// thread can change that, fails with [`Error::NeverCompletes`] naming `what`.
    pub(super) fn block<T>(
        &self,
        what: &'static str,
        mut attempt: impl FnMut(&mut State) -> Result<Option<T>>,
    ) -> Result<T> {
        // Whether this thread counts among the waiters (from its first wait to its return).
        let mut counted = false;
        let result = loop {
            let mut state = match self.lock() {
                Ok(state) => state,
                Err(error) => break Err(error),
            };
            match attempt(&mut state) {
                Ok(Some(value)) => break Ok(value),
                Ok(None) => {}
                Err(error) => break Err(error),
            }
            if !self.may_wait(counted) {
                break Err(Error::NeverCompletes(what));
            }
            if !counted {
                self.progress.waiting.fetch_add(1, Ordering::SeqCst);
                counted = true;
            }
            let seen = self.progress.epoch();
            drop(state);
            self.progress.wait_past(seen);
        };
        if counted {
            self.progress.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        result
    }

    /// Runs what a reported request leaves to do with no lock held.
    fn finish(&self, finished: Finished) -> Completion {
        match finished {
            Finished::Ready(completion) => completion,
            Finished::Generalized(callbacks) => {
                let (status, error) = match callbacks.query(self) {
                    Ok(status) => (status, None),
                    Err(code) => (
                        Status {
                            error: code,
                            ..Status::empty()
                        },
                        Some(Error::Callback {
                            kind: "query",
                            code,
                        }),
                    ),
                };
                let error = match callbacks.free(self) {
                    Err(code) if error.is_none() => Some(Error::Callback { kind: "free", code }),
                    _ => error,
                };
                let status = Status {
                    error: error.as_ref().map_or(status.error, Error::return_code),
                    ..status
                };
                Completion {
                    status,
                    delivery: None,
                    error,
                    freed: true,
                }
            }
        }
    }

    fn finish_peek(&self, peeked: Peeked) -> Result<Option<Status>> {
        match peeked {
            Peeked::Pending => Ok(None),
            Peeked::Ready(status) => Ok(Some(status)),
            Peeked::Query(callbacks) => {
                callbacks
                    .query(self)
                    .map(Some)
                    .map_err(|code| Error::Callback {
                        kind: "query",
                        code,
                    })
            }
        }
    }

    /// `MPI_Wait`: blocks until the request completes and reports it. `None` (the null
    /// request) and an inactive persistent request give an empty status at once. A request
    /// that nothing can complete (a receive no message matches, a synchronous send no
    /// receive matches, a generalized request not completed) fails with
    /// [`Error::NeverCompletes`] instead of waiting forever, and stays as it was.
    ///
    /// ```
    /// use mpiattr::{Comm, Envelope, Error, SendMode, ThreadLevel, Universe, UserBuffer};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let from_me = Envelope { rank: 0, tag: 7, comm: Comm::WORLD };
    /// let receive = universe.irecv(UserBuffer::bytes(8), from_me)?;
    /// assert_eq!(universe.test(Some(receive))?, None);
    /// assert!(matches!(universe.wait(Some(receive)), Err(Error::NeverCompletes(_))));
    /// universe.send(SendMode::Standard, b"hello", from_me)?;
    /// let done = universe.wait(Some(receive))?;
    /// assert_eq!(done.delivery.unwrap().bytes, b"hello");
    /// assert_eq!((done.status.source, done.status.tag, done.status.bytes), (0, 7, 5));
    /// assert!(done.freed);
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn wait(&self, request: Option<Request>) -> Result<Completion> {
        let finished = self.block("MPI_Wait on a request that nothing can complete", |state| {
            if state.ready(request)? {
                state.take(request).map(Some)
            } else {
                Ok(None)
            }
        })?;
        Ok(self.finish(finished))
    }

    /// `MPI_Test`: reports the request if it is complete (`None` if not, changing nothing).
    pub fn test(&self, request: Option<Request>) -> Result<Option<Completion>> {
        let finished = {
            let mut state = self.lock()?;
            if !state.ready(request)? {
                return Ok(None);
            }
            state.take(request)?
        };
        Ok(Some(self.finish(finished)))
    }

    /// `MPI_Waitall`: waits for every request and reports each (null and inactive ones with
    /// an empty status). If one of them can never complete, fails first, reporting none.
    /// Each completion carries its own error: the shells return `MPI_ERR_IN_STATUS` if any.
    pub fn waitall(&self, requests: &[Option<Request>]) -> Result<Vec<Completion>> {
        let finished = self.block(
            "MPI_Waitall on a request that nothing can complete",
            |state| {
                for request in requests {
                    if !state.ready(*request)? {
                        return Ok(None);
                    }
                }
                requests
                    .iter()
                    .map(|request| state.take(*request))
                    .collect::<Result<Vec<_>>>()
                    .map(Some)
            },
        )?;
        Ok(finished.into_iter().map(|f| self.finish(f)).collect())
    }

    /// `MPI_Testall`: all reported if all are complete, else `None` and nothing changes.
    pub fn testall(&self, requests: &[Option<Request>]) -> Result<Option<Vec<Completion>>> {
        let finished = {
            let mut state = self.lock()?;
            for request in requests {
                if !state.ready(*request)? {
                    return Ok(None);
                }
            }
            requests
                .iter()
                .map(|request| state.take(*request))
                .collect::<Result<Vec<_>>>()?
        };
        Ok(Some(finished.into_iter().map(|f| self.finish(f)).collect()))
    }

    /// The first request (by index) among those neither null nor inactive that is complete;
    /// `Ok(Err(()))` when every request is null or inactive.
    fn first_done(
        state: &State,
        requests: &[Option<Request>],
    ) -> Result<std::result::Result<Option<usize>, ()>> {
        let mut any = false;
        for (index, request) in requests.iter().enumerate() {
            if state.counts(*request)? {
                any = true;
                if state.ready(*request)? {
                    return Ok(Ok(Some(index)));
                }
            }
        }
        Ok(if any { Ok(None) } else { Err(()) })
    }

    /// `MPI_Waitany`: waits for one request and reports it with its index (the first complete
    /// one by index). `None` (index `MPI_UNDEFINED`) when every request is null or inactive.
    pub fn waitany(&self, requests: &[Option<Request>]) -> Result<Option<(usize, Completion)>> {
        let found = self.block(
            "MPI_Waitany on requests that nothing can complete",
            |state| match Self::first_done(state, requests)? {
                Err(()) => Ok(Some(None)),
                Ok(None) => Ok(None),
                Ok(Some(index)) => Ok(Some(Some((index, state.take(requests[index])?)))),
            },
        )?;
        Ok(found.map(|(index, finished)| (index, self.finish(finished))))
    }

    /// `MPI_Testany`: `(flag, reported)`. Every request null or inactive: `(true, None)`
    /// (index `MPI_UNDEFINED`); none complete: `(false, None)`.
    pub fn testany(
        &self,
        requests: &[Option<Request>],
    ) -> Result<(bool, Option<(usize, Completion)>)> {
        let (index, finished) = {
            let mut state = self.lock()?;
            match Self::first_done(&state, requests)? {
                Err(()) => return Ok((true, None)),
                Ok(None) => return Ok((false, None)),
                Ok(Some(index)) => (index, state.take(requests[index])?),
            }
        };
        Ok((true, Some((index, self.finish(finished)))))
    }

    /// Takes every complete request that is neither null nor inactive; `None` when every one
    /// is null or inactive.
    fn take_some(
        state: &mut State,
        requests: &[Option<Request>],
    ) -> Result<Option<Vec<(usize, Finished)>>> {
        let mut any = false;
        let mut done = Vec::new();
        for (index, request) in requests.iter().enumerate() {
            if state.counts(*request)? {
                any = true;
                if state.ready(*request)? {
                    done.push(index);
                }
            }
        }
        if !any {
            return Ok(None);
        }
        done.into_iter()
            .map(|index| Ok((index, state.take(requests[index])?)))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// `MPI_Waitsome`: waits until at least one request completes and reports every complete
    /// one, by increasing index. `None` (outcount `MPI_UNDEFINED`) when every request is null
    /// or inactive.
    pub fn waitsome(
        &self,
        requests: &[Option<Request>],
    ) -> Result<Option<Vec<(usize, Completion)>>> {
        let found = self.block(
            "MPI_Waitsome on requests that nothing can complete",
            |state| match Self::first_done(state, requests)? {
                Ok(None) => Ok(None),
                _ => Self::take_some(state, requests).map(Some),
            },
        )?;
        Ok(found.map(|list| self.finish_list(list)))
    }

    /// `MPI_Testsome`: as [`Universe::waitsome`], with an empty list when none is complete.
    pub fn testsome(
        &self,
        requests: &[Option<Request>],
    ) -> Result<Option<Vec<(usize, Completion)>>> {
        let found = Self::take_some(&mut *self.lock()?, requests)?;
        Ok(found.map(|list| self.finish_list(list)))
    }

    fn finish_list(&self, list: Vec<(usize, Finished)>) -> Vec<(usize, Completion)> {
        list.into_iter()
            .map(|(index, finished)| (index, self.finish(finished)))
            .collect()
    }

    /// `MPI_Request_get_status`: the status if the request is complete, without reporting it
    /// (it stays as it is). Null and inactive requests give an empty status. A generalized
    /// request's query callback runs.
    pub fn request_get_status(&self, request: Option<Request>) -> Result<Option<Status>> {
        let peeked = self.lock()?.peek_request(request)?;
        self.finish_peek(peeked)
    }

    /// The data of a complete receive, handed out once, before a wait or test reports the
    /// request: for a shell whose `MPI_Request_get_status` (or `_any`, `_all`, `_some`) just
    /// said the receive is complete, so that the buffer holds the message from then on, as
    /// the standard says. The later report carries no delivery. `None` if the request is not
    /// complete or has nothing (more) to deliver.
    ///
    /// ```
    /// use mpiattr::{Comm, Envelope, SendMode, ThreadLevel, Universe, UserBuffer};
    ///
    /// let universe = Universe::new(ThreadLevel::Single);
    /// let me = Envelope { rank: 0, tag: 0, comm: Comm::WORLD };
    /// let request = universe.irecv(UserBuffer::bytes(2), me)?;
    /// universe.send(SendMode::Standard, b"hi", me)?;
    /// assert!(universe.request_get_status(Some(request))?.is_some());
    /// assert_eq!(universe.take_delivery(request)?.unwrap().bytes, b"hi");
    /// assert_eq!(universe.take_delivery(request)?, None);
    /// let done = universe.wait(Some(request))?;
    /// assert_eq!((done.status.bytes, done.delivery), (2, None));
    /// # Ok::<(), mpiattr::Error>(())
    /// ```
    pub fn take_delivery(&self, request: Request) -> Result<Option<Delivery>> {
        let mut state = self.lock()?;
        Ok(match &mut state.request_mut(request)?.phase {
            Phase::Done(completion) => completion.delivery.take(),
            _ => None,
        })
    }

    /// `MPI_Request_get_status_any`: `(flag, (index, status))` as [`Universe::testany`],
    /// reporting nothing.
    pub fn request_get_status_any(
        &self,
        requests: &[Option<Request>],
    ) -> Result<(bool, Option<(usize, Status)>)> {
        let index = match Self::first_done(&*self.lock()?, requests)? {
            Err(()) => return Ok((true, None)),
            Ok(None) => return Ok((false, None)),
            Ok(Some(index)) => index,
        };
        let status = self.request_get_status(requests[index])?;
        Ok((true, status.map(|status| (index, status))))
    }

    /// `MPI_Request_get_status_all`: every status if all are complete, reporting nothing.
    pub fn request_get_status_all(
        &self,
        requests: &[Option<Request>],
    ) -> Result<Option<Vec<Status>>> {
        let peeked = {
            let state = self.lock()?;
            for request in requests {
                if !state.ready(*request)? {
                    return Ok(None);
                }
            }
            requests
                .iter()
                .map(|r| state.peek_request(*r))
                .collect::<Result<Vec<_>>>()?
        };
        peeked
            .into_iter()
            .map(|p| self.finish_peek(p).map(|s| s.unwrap_or(Status::empty())))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// `MPI_Request_get_status_some`: the complete ones with their indices, reporting nothing;
    /// `None` when every request is null or inactive.
    pub fn request_get_status_some(
        &self,
        requests: &[Option<Request>],
    ) -> Result<Option<Vec<(usize, Status)>>> {
        let peeked = {
            let state = self.lock()?;
            let mut any = false;
            let mut list = Vec::new();
            for (index, request) in requests.iter().enumerate() {
                if state.counts(*request)? {
                    any = true;
                    if state.ready(*request)? {
                        list.push((index, state.peek_request(*request)?));
                    }
                }
            }
            if !any {
                return Ok(None);
            }
            list
        };
        peeked
            .into_iter()
            .map(|(i, p)| Ok((i, self.finish_peek(p)?.unwrap_or(Status::empty()))))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// `MPI_Request_free`: the handle goes now. An inactive or complete request goes at once;
    /// an active one completes later as if nothing had happened, then goes (a generalized
    /// request's free callback runs then).
    pub fn request_free(&self, request: Request) -> Result<()> {
        let callbacks = {
            let mut state = self.lock()?;
            let data = state.request_mut(request)?;
            if matches!(data.phase, Phase::Active) {
                data.freed = true;
                if data.persistent {
                    // Its handle is gone: nothing can start it again.
                    data.persistent = false;
                }
                return Ok(());
            }
            let data = state
                .requests
                .remove(request.0)
                .ok_or(Error::InvalidRequest)?;
            state.forget_request(request.0, &data.kind);
            match data.kind {
                Kind::Generalized(callbacks) => callbacks,
                _ => return Ok(()),
            }
        };
        callbacks
            .free(self)
            .map_err(|code| Error::Callback { kind: "free", code })
    }

    /// `MPI_Cancel`. A send whose message no receive has matched yet is cancelled (its
    /// status says so, and its message is gone); a receive not matched yet likewise; a
    /// generalized request's cancel callback runs. Anything matched already completes
    /// normally. The request must still be completed by a wait or test (or freed).
    pub fn cancel(&self, request: Request) -> Result<()> {
        let callbacks = {
            let mut state = self.lock()?;
            let cancelled = state.cancel_message_request(request)?;
            if cancelled {
                self.progressed();
            }
            match &state.request(request)?.kind {
                Kind::Generalized(callbacks) => {
                    Some((callbacks.clone(), state.request(request)?.is_done()))
                }
                _ => None,
            }
        };
        match callbacks {
            Some((callbacks, complete)) => {
                callbacks
                    .cancel(self, complete)
                    .map_err(|code| Error::Callback {
                        kind: "cancel",
                        code,
                    })
            }
            None => Ok(()),
        }
    }

    /// `MPI_Grequest_start`: a new active request whose operation the program carries out,
    /// with its callbacks.
    pub fn grequest_start(&self, callbacks: Arc<dyn GeneralizedRequest>) -> Result<Request> {
        let mut state = self.lock()?;
        state.check_live()?;
        state.new_request(RequestData::active(Kind::Generalized(callbacks), false))
    }

    /// `MPI_Grequest_complete`: the operation is done; a wait or test can now report it. On a
    /// request already freed by `MPI_Request_free`, the free callback runs now.
    pub fn grequest_complete(&self, request: Request) -> Result<()> {
        let callbacks = {
            let mut state = self.lock()?;
            let data = state.request_mut(request)?;
            let Kind::Generalized(callbacks) = &data.kind else {
                return Err(Error::InvalidRequestState(
                    "not a generalized request (MPI_Grequest_start)",
                ));
            };
            if !matches!(data.phase, Phase::Active) {
                return Err(Error::InvalidRequestState(
                    "the generalized request is already complete",
                ));
            }
            let callbacks = callbacks.clone();
            let freed = data.freed;
            state.complete_request(request.0, Completion::empty());
            self.progressed();
            if !freed {
                return Ok(());
            }
            callbacks
        };
        callbacks
            .free(self)
            .map_err(|code| Error::Callback { kind: "free", code })
    }

    /// Whether a request is active or complete, not an inactive persistent one (for shells
    /// and tests); [`Error::InvalidRequest`] for a request that does not exist.
    pub fn request_is_active(&self, request: Request) -> Result<bool> {
        Ok(!self.lock()?.request(request)?.is_inactive())
    }

    /// The number of live requests.
    pub fn request_count(&self) -> Result<usize> {
        Ok(self.lock()?.requests.len())
    }
}
