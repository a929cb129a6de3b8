//! The one lock around the engine's state, and the way a single-threaded program avoids it.
//!
//! Under [`ThreadLevel::Single`] the state belongs to the thread that created the universe:
//! taking it costs a thread-identity comparison and a plain flag, no atomic read-modify-write.
//! Another thread is refused with an error instead of racing. The identity is the thread
//! pointer register, read in one instruction where the architecture has one (a thread-local's
//! address would cost a call into the dynamic linker from a shared library), else a
//! thread-local's address.
//!
//! Under [`ThreadLevel::Multiple`] the state has readers and writers: a reader counts itself
//! in one of [`READER_SLOTS`] slots, each on a cache line of its own, picked by its thread,
//! and checks that no writer is in; a writer raises a flag and waits until every count is
//! zero. Readers on different threads so touch no common line: reads scale with threads.
//! Writers are serialised by a mutex and cost a scan of the slots.
//!
//! Given a [`ProcessFence`] (the C and Fortran shells pass Linux's `membarrier`), a thread
//! takes a slot for its own at its first read (of the two its pointer picks, the first no
//! other thread holds; it gives it back when it ends) and from then on counts itself there
//! with plain stores: no atomic read-modify-write, no fence.
//! That is the asymmetric form of the handshake: the reader's store of its count and its load
//! of the writer's flag may pass each other in the processor, and the writer, after raising
//! the flag, makes every thread of the process execute a full fence before it reads the
//! counts (so it sees the count, or the reader sees the flag). The writer needs that fence
//! only while a slot is held by another thread than itself: a program that only calls from
//! one thread under MPI_THREAD_MULTIPLE never pays for it. A writer that fences also takes
//! the slots back from their holders, so the writes after it need no fence; a holder learns
//! that after the flag (it reads the slot's holder again after the flag, which the fenced
//! writer changed before lowering the flag) and counts itself with read-modify-writes from
//! then on, until [`RETAKE_AFTER`] reads were counted so in its slot without another writer
//! taking it back: a thread that reads often between writes gets its slot again (only that
//! thread: a slot's own count has one writer), and the writes between reads pay for a fence
//! at most once per that many reads. A thread whose two slots others hold counts itself with
//! atomic read-modify-writes in the slot's shared count, as every reader does without a
//! fence (and under valgrind, whose thread checkers know the lock as a reader-writer lock
//! and cannot follow the plain stores).
//!
//! In both modes a guard is only held for short critical sections: never while a user
//! callback runs.
//!
//! Under valgrind, Multiple mode describes itself to helgrind and drd as a reader-writer lock
//! ([`super::valgrind`]): neither tool can follow a futex-based mutex or atomic counters, and
//! would otherwise report every access to the state from two threads as a race. So a threaded
//! program is checked by both tools against the library as it is shipped (ci/check-memory).
//! Single mode needs no description: one thread owns the state.

use std::cell::{RefCell, UnsafeCell};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{compiler_fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use super::error::Error;
use super::valgrind;

/// The thread support a universe is created for.
///
/// Under `Multiple` any thread may call in at any time; under `Single` another thread than
/// the one that created the universe is refused with [`Error::WrongThread`].
///
/// ```
/// use mpiattr::{Comm, Error, ErrorClass, ThreadLevel, Universe};
///
/// let shared = Universe::new(ThreadLevel::Multiple);
/// let single = Universe::new(ThreadLevel::Single);
/// std::thread::scope(|s| {
///     let dups: Vec<_> = (0..4).map(|_| s.spawn(|| shared.comm_dup(Comm::WORLD))).collect();
///     for dup in dups {
///         assert!(dup.join().unwrap().is_ok());
///     }
///     let refused = s.spawn(|| single.comm_dup(Comm::WORLD)).join().unwrap();
///     assert_eq!(refused, Err(Error::WrongThread));
///     assert_eq!(refused.unwrap_err().class(), ErrorClass::Other);
/// });
/// assert!(single.is_main_thread());
/// assert!(single.comm_dup(Comm::WORLD).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadLevel {
    /// Only the creating thread may call in (MPI_THREAD_SINGLE): no locking at all.
    Single,
    /// Any thread may call at any time (MPI_THREAD_MULTIPLE).
    Multiple,
}

/// An identity for the calling thread, unique among live threads: its thread pointer.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn current_thread() -> usize {
    let pointer: usize;
    // SAFETY: on x86_64 Linux every thread's %fs base is its thread control block, whose
    // first word points at itself (glibc and musl alike); reading it touches nothing else.
    unsafe {
        std::arch::asm!(
            "mov {}, fs:0",
            out(reg) pointer,
            options(nostack, readonly, preserves_flags)
        );
    }
    pointer
}

/// An identity for the calling thread, unique among live threads: its thread pointer.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
pub(crate) fn current_thread() -> usize {
    let pointer: usize;
    // SAFETY: reading TPIDR_EL0, which every thread has, has no other effect.
    unsafe {
        std::arch::asm!(
            "mrs {}, tpidr_el0",
            out(reg) pointer,
            options(nomem, nostack, preserves_flags)
        );
    }
    pointer
}

/// An identity for the calling thread, unique among live threads: a thread-local's address.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) fn current_thread() -> usize {
    thread_local! {
        static MARK: u8 = const { 0 };
    }
    MARK.with(|mark| mark as *const u8 as usize)
}

/// Reader slots of [`ThreadLevel::Multiple`]. A thread's pointer hashes to two of them (see
/// [`Shared::slots`]): a thread takes the first free one of its two, so threads share one
/// only when both of a thread's are taken.
const READER_SLOTS: usize = 16;

/// A function that returns once every running thread of the process has executed a full
/// memory fence (Linux: `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`, registered). Given to
/// a universe ([`super::Universe::with_process_fence`]), it lets readers under
/// MPI_THREAD_MULTIPLE count themselves without atomic read-modify-writes (see the module's
/// documentation); writers call it while another thread holds a reader slot.
pub type ProcessFence = fn();

/// A reader slot, alone on its cache lines (two: adjacent-line prefetchers pair them).
#[repr(align(128))]
#[derive(Default)]
struct Counter {
    /// The thread pointer of the thread that holds the slot, with [`TAKEN_BACK`] set once a
    /// writer took the slot back; [`FREE`] until a thread takes it, and again once that
    /// thread has ended (see [`SlotsTaken`]). Only the holder takes a slot taken back again.
    owner: AtomicUsize,
    /// The holder's reads under way: written by the holder alone (the thread named by
    /// `owner`, taken back or not), with plain stores.
    own: AtomicUsize,
    /// In the low 32 bits, the reads under way of the threads that count themselves with
    /// read-modify-writes in this slot; in the high 32 bits, how many such reads began since
    /// a writer last took the slot back (wrapping).
    others: AtomicU64,
}

/// [`Counter::owner`] of a slot no thread has held.
const FREE: usize = 0;
/// The bit of [`Counter::owner`] that says a writer took the slot back from the thread the
/// rest names (thread pointers are aligned: their low bit is clear).
const TAKEN_BACK: usize = 1;
/// One read counted in [`Counter::others`]: under way, and begun since the slot was taken back.
const OTHER_READ: u64 = 1 | 1 << 32;
/// The reads under way in [`Counter::others`].
const UNDER_WAY: u64 = u32::MAX as u64;
/// The reads counted with read-modify-writes in a slot taken back after which a reader takes
/// it for its own again.
const RETAKE_AFTER: u64 = 256;

/// The readers and writers of [`ThreadLevel::Multiple`].
struct Shared {
    writers: Mutex<()>,
    writing: AtomicBool,
    readers: [Counter; READER_SLOTS],
    /// The process fence that lets threads hold slots; none under valgrind.
    fence: Option<ProcessFence>,
    /// Running under valgrind: describe each acquire and release to its thread checkers.
    annotate: bool,
    /// Under valgrind: the lock has been described at its address. That happens at its first
    /// use, not when it is made: a universe is moved into place after it is made (into the
    /// shells' static), and valgrind knows a lock by its address.
    registered: AtomicBool,
}

impl Shared {
    fn new() -> Shared {
        Shared {
            writers: Mutex::new(()),
            writing: AtomicBool::new(false),
            readers: Default::default(),
            fence: None,
            annotate: valgrind::running_on_valgrind(),
            registered: AtomicBool::new(false),
        }
    }

    /// The address valgrind knows the lock by.
    fn address(&self) -> usize {
        self as *const Shared as usize
    }

    /// Under valgrind: the calling thread has just acquired the lock.
    #[cold]
    #[inline(never)]
    fn acquired(&self, exclusive: bool) {
        if !self.registered.swap(true, Ordering::SeqCst) {
            // The lock's own words are raced on by design; the state it guards is not.
            valgrind::untracked(self.address(), std::mem::size_of::<Shared>());
            valgrind::rwlock_create(self.address());
        }
        valgrind::rwlock_acquired(self.address(), exclusive);
    }

    /// Under valgrind: the calling thread is about to release the lock.
    #[cold]
    #[inline(never)]
    fn released(&self, exclusive: bool) {
        valgrind::rwlock_released(self.address(), exclusive);
    }

    /// The two slots of a thread, by its pointer's page number. The first is five times the
    /// page number, modulo 16, with no hash (it is on every get's path under
    /// MPI_THREAD_MULTIPLE): distinct for threads whose stacks the C library places one after
    /// another (glibc: a stack and a guard page apart, so consecutive threads' page numbers
    /// differ by one), and five slots apart rather than neighbours (with neighbouring slots two
    /// threads' gets read slower at their best: 8.9 ns against 7.6). The second, looked at only
    /// when the first is not the thread's, is a multiplicative hash of the page number, for
    /// other layouts; it may be the first again.
    #[inline(always)]
    fn slots(&self, thread: usize) -> (&Counter, &Counter) {
        const BITS: u32 = READER_SLOTS.trailing_zeros();
        let page = thread >> 12;
        let hash = page.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (
            &self.readers[page.wrapping_mul(5) % READER_SLOTS],
            &self.readers[hash >> (usize::BITS - BITS)],
        )
    }

    /// The slot the calling thread, `me`, holds (counts itself in with plain stores), if
    /// either of its two is.
    #[inline(always)]
    fn held(&self, me: usize) -> Option<&Counter> {
        let (first, second) = self.slots(me);
        if first.owner.load(Ordering::Relaxed) == me {
            return Some(first);
        }
        (second.owner.load(Ordering::Relaxed) == me).then_some(second)
    }

    /// Where the calling thread, `me`, counts a read, and whether in the slot's `own` count:
    /// a slot of its two that it holds, or takes now (a fence is there, and the slot was
    /// taken back from this thread [`RETAKE_AFTER`] reads ago, or, if neither was taken back
    /// from it, is free); else the shared count of the one taken back from it, or of its
    /// first. A slot taken back from another thread stays so: `own` has one writer.
    #[inline(always)]
    fn choose(this: &Arc<Shared>, me: usize) -> (&Counter, bool) {
        if let Some(slot) = this.held(me) {
            return (slot, true);
        }
        Self::take_or_share(this, me)
    }

    #[cold]
    #[inline(never)]
    fn take_or_share(this: &Arc<Shared>, me: usize) -> (&Counter, bool) {
        let (first, second) = this.slots(me);
        let taken_back = [first, second]
            .into_iter()
            .find(|slot| slot.owner.load(Ordering::Relaxed) == me | TAKEN_BACK);
        if let Some(slot) = taken_back {
            let retake = this.fence.is_some()
                && slot.others.load(Ordering::Relaxed) >> 32 >= RETAKE_AFTER
                && Self::take(this, slot, me | TAKEN_BACK, me);
            return (slot, retake);
        }
        if this.fence.is_some() {
            for slot in [first, second] {
                if slot.owner.load(Ordering::Relaxed) == FREE && Self::take(this, slot, FREE, me) {
                    return (slot, true);
                }
            }
        }
        (first, false)
    }

    /// Takes a slot for the calling thread, which then gives it back when it ends. The
    /// exchange is sequentially consistent: a writer that raised its flag before it and did
    /// not see the holder (so made no fence) is seen by each of the holder's later reads
    /// (sequentially consistent loads). A thread already ending takes none.
    fn take(this: &Arc<Shared>, slot: &Counter, owner: usize, me: usize) -> bool {
        let noted = SLOTS_TAKEN.try_with(|taken| {
            let Ok(mut taken) = taken.0.try_borrow_mut() else {
                return false;
            };
            taken.retain(|shared| shared.strong_count() > 0);
            if !taken
                .iter()
                .any(|shared| shared.as_ptr() == Arc::as_ptr(this))
            {
                taken.push(Arc::downgrade(this));
            }
            true
        });
        noted == Ok(true)
            && slot
                .owner
                .compare_exchange(owner, me, Ordering::SeqCst, Ordering::Relaxed)
                .is_ok()
    }

    /// Frees the slots of a thread that ends, `me` (it reads no more), for other threads to
    /// take; under the writers' mutex, since writers change held slots too.
    fn give_back(&self, me: usize) {
        let _writers = self
            .writers
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for slot in &self.readers {
            let owner = slot.owner.load(Ordering::SeqCst);
            if owner & !TAKEN_BACK == me && slot.own.load(Ordering::SeqCst) == 0 {
                slot.owner.store(FREE, Ordering::SeqCst);
                slot.others.fetch_and(UNDER_WAY, Ordering::SeqCst);
            }
        }
    }

    /// The writer's side of the handshake with the holders (its flag raised): if another
    /// thread holds a slot, the process fence, after which every holder's count is seen or
    /// the holder sees the flag; then the slots are taken back, so that the next writers need
    /// no fence (until readers take them again).
    fn fence_holders(&self) {
        let Some(fence) = self.fence else { return };
        let me = current_thread();
        let foreign = |slot: &Counter| {
            let owner = slot.owner.load(Ordering::SeqCst);
            owner != FREE && owner & TAKEN_BACK == 0 && owner != me
        };
        if !self.readers.iter().any(foreign) {
            return;
        }
        fence();
        for slot in &self.readers {
            // Only a writer (under the mutex) changes a held slot's owner.
            if foreign(slot) {
                slot.owner.fetch_or(TAKEN_BACK, Ordering::SeqCst);
                slot.others.fetch_and(UNDER_WAY, Ordering::SeqCst);
            }
        }
    }
}

/// The locks a thread took reader slots of: it gives them back when it ends (a thread-local's
/// destructor), so that the threads of later rounds, whose pointers may hash alike, can take
/// them.
struct SlotsTaken(RefCell<Vec<Weak<Shared>>>);

thread_local! {
    static SLOTS_TAKEN: SlotsTaken = const { SlotsTaken(RefCell::new(Vec::new())) };
}

impl Drop for SlotsTaken {
    fn drop(&mut self) {
        let me = current_thread();
        for shared in self
            .0
            .get_mut()
            .drain(..)
            .filter_map(|shared| shared.upgrade())
        {
            shared.give_back(me);
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        if self.annotate && *self.registered.get_mut() {
            valgrind::rwlock_destroy(self.address());
        }
    }
}

/// Waits a little for another thread's critical section to end.
fn pause(spins: &mut u32) {
    *spins += 1;
    if *spins < 64 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

pub(crate) struct StateLock<T> {
    data: UnsafeCell<T>,
    /// Multiple mode's readers and writers; shared with the threads that took its slots (they
    /// give them back when they end).
    shared: Option<Arc<Shared>>,
    owner: usize,
    /// Single mode's gate: the owner's thread pointer while nobody is in, that pointer with
    /// its low bit set while the owner is (thread pointers are aligned); 0 in Multiple mode.
    /// One load and compare tell the mode, the thread and the state apart.
    gate: AtomicUsize,
}

// SAFETY: every access to `data` goes through a guard. A `Guard` (`&mut T`) exists alone: in
// Multiple mode its writer holds the mutex, has raised `writing` and seen every reader counter
// at zero, and readers that count themselves afterwards see `writing` and step back (both
// sides use SeqCst: at least one sees the other); in Single mode only the owning thread
// (checked) gets one, while `gate` says nobody is in (only the owner changes it). `ReadGuard`s
// (`&T`) exist together only in Multiple mode, with no `Guard` (the same handshake).
unsafe impl<T: Send> Sync for StateLock<T> {}

impl<T> StateLock<T> {
    pub(crate) fn new(data: T, level: ThreadLevel) -> Self {
        StateLock {
            data: UnsafeCell::new(data),
            shared: (level == ThreadLevel::Multiple).then(|| Arc::new(Shared::new())),
            owner: current_thread(),
            gate: AtomicUsize::new(match level {
                ThreadLevel::Single => current_thread(),
                ThreadLevel::Multiple => 0,
            }),
        }
    }

    /// Whether the calling thread created the lock.
    #[inline(always)]
    pub(crate) fn is_owner(&self) -> bool {
        current_thread() == self.owner
    }

    pub(crate) fn level(&self) -> ThreadLevel {
        if self.shared.is_some() {
            ThreadLevel::Multiple
        } else {
            ThreadLevel::Single
        }
    }

    /// The Single mode's way in: the owner thread, not already in. Only the owner thread
    /// changes the gate, so relaxed loads and stores are enough; the low bit catches re-entry
    /// while a guard is alive.
    #[inline(always)]
    fn enter_single(&self) -> Result<(), Error> {
        let me = current_thread();
        let gate = self.gate.load(Ordering::Relaxed);
        if gate == me {
            self.gate.store(me | 1, Ordering::Relaxed);
            return Ok(());
        }
        if gate == me | 1 {
            return Err(Error::Internal("re-entrant use of the engine state"));
        }
        Err(Error::WrongThread)
    }

    /// Leaves what `enter_single` entered.
    #[inline(always)]
    fn leave_single(&self) {
        self.gate.store(self.owner, Ordering::Relaxed);
    }

    /// Exclusive access.
    #[inline(always)]
    pub(crate) fn lock(&self) -> Result<Guard<'_, T>, Error> {
        match &self.shared {
            Some(shared) => {
                let held = shared
                    .writers
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                shared.writing.store(true, Ordering::SeqCst);
                shared.fence_holders();
                for slot in &shared.readers {
                    let mut spins = 0;
                    while slot.own.load(Ordering::Acquire) != 0
                        || slot.others.load(Ordering::SeqCst) & UNDER_WAY != 0
                    {
                        pause(&mut spins);
                    }
                }
                if shared.annotate {
                    shared.acquired(true);
                }
                Ok(Guard {
                    lock: self,
                    _held: Some(held),
                })
            }
            None => {
                self.enter_single()?;
                Ok(Guard {
                    lock: self,
                    _held: None,
                })
            }
        }
    }

    /// Shared access: alongside other readers in Multiple mode, exclusive in Single mode.
    #[inline(always)]
    pub(crate) fn read(&self) -> Result<ReadGuard<'_, T>, Error> {
        match &self.shared {
            Some(shared) => {
                let me = current_thread();
                loop {
                    let (slot, held) = Shared::choose(shared, me);
                    if held {
                        // Only this thread writes `own`: a plain store (the fence is the
                        // writer's). Reads may nest.
                        let count = slot.own.load(Ordering::Relaxed);
                        slot.own.store(count + 1, Ordering::Relaxed);
                        compiler_fence(Ordering::SeqCst);
                    } else {
                        slot.others.fetch_add(OTHER_READ, Ordering::SeqCst);
                    }
                    // A holder reads its slot's holder again after the flag: a writer that
                    // took it back did so before lowering its flag.
                    if !shared.writing.load(Ordering::SeqCst)
                        && (!held || slot.owner.load(Ordering::Acquire) == me)
                    {
                        if shared.annotate {
                            shared.acquired(false);
                        }
                        return Ok(ReadGuard {
                            lock: self,
                            counter: Some((slot, held)),
                        });
                    }
                    ReadGuard::<T>::uncount(slot, held);
                    let mut spins = 0;
                    while shared.writing.load(Ordering::Relaxed) {
                        pause(&mut spins);
                    }
                }
            }
            None => {
                self.enter_single()?;
                Ok(ReadGuard {
                    lock: self,
                    counter: None,
                })
            }
        }
    }
}

impl<T> StateLock<T> {
    /// The guard without any call, in the one case that needs none: MPI_THREAD_SINGLE, on the
    /// owning thread, not already held. `None` in every other case, where the caller goes
    /// [`StateLock::lock`]'s way (which reports why).
    #[inline(always)]
    pub(crate) fn try_single(&self) -> Option<SingleGuard<'_, T>> {
        let me = current_thread();
        if self.gate.load(Ordering::Relaxed) != me {
            return None;
        }
        self.gate.store(me | 1, Ordering::Relaxed);
        Some(SingleGuard { lock: self })
    }
}

impl<T> StateLock<T> {
    /// A look at the state without any call or write, in the case [`StateLock::try_single`]
    /// takes (MPI_THREAD_SINGLE, on the owning thread, not already held); `None` otherwise.
    /// The gate is left as it is: `f` gets the state and nothing else, so it cannot call
    /// back into the library or run user code, and another thread is refused by the gate.
    /// For fast paths that only read.
    #[inline(always)]
    pub(crate) fn peek_single<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        if self.gate.load(Ordering::Relaxed) != current_thread() {
            return None;
        }
        // SAFETY: the owner thread, no guard alive (the gate is not marked held), in the mode
        // where only the owner may enter; `f` cannot reach the lock, so no guard is taken
        // while this shared borrow lives.
        Some(f(unsafe { &*self.data.get() }))
    }

    /// [`StateLock::peek_single`] of a function and its arguments instead of a closure: a
    /// function marked `#[inline(always)]` is then inlined into the caller wherever it is
    /// used (a closure is a function of its own, which LLVM may leave out of line).
    #[inline(always)]
    pub(crate) fn peek_single_with<A, R>(&self, f: fn(&T, A) -> R, arguments: A) -> Option<R> {
        if self.gate.load(Ordering::Relaxed) != current_thread() {
            return None;
        }
        // SAFETY: as in peek_single: `f` gets the state and `arguments`, none of which reach
        // the lock, so no guard is taken while this shared borrow lives.
        Some(f(unsafe { &*self.data.get() }, arguments))
    }

    /// [`StateLock::peek_single_with`] under MPI_THREAD_MULTIPLE: the look of a thread that
    /// holds its reader slot (see the module's documentation), counted there with plain
    /// stores, while no writer is in. `None` in every other case (no slot held, a writer in,
    /// a read of the thread's under way, another mode).
    #[inline(always)]
    pub(crate) fn peek_held_with<A, R>(&self, f: fn(&T, A) -> R, arguments: A) -> Option<R> {
        let me = current_thread();
        let shared = self.shared.as_ref()?;
        let slot = shared.held(me)?;
        if slot.own.load(Ordering::Relaxed) != 0 {
            return None;
        }
        slot.own.store(1, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        // As in `read`: the holder again after the flag.
        if shared.writing.load(Ordering::SeqCst) || slot.owner.load(Ordering::Acquire) != me {
            slot.own.store(0, Ordering::Release);
            return None;
        }
        // SAFETY: counted as a reader with no writer in (the handshake of `read`), so no
        // `Guard` exists while this shared borrow lives; `f` cannot reach the lock.
        let result = f(unsafe { &*self.data.get() }, arguments);
        slot.own.store(0, Ordering::Release);
        Some(result)
    }

    /// Lets readers hold their slots with `fence` for writers (Multiple mode, not under
    /// valgrind: its thread checkers know the lock as a reader-writer lock and could not
    /// follow the plain stores). Before any thread read: a fence given once threads hold
    /// slots is not taken.
    pub(crate) fn set_process_fence(&mut self, fence: ProcessFence) {
        if let Some(shared) = self.shared.as_mut().and_then(Arc::get_mut) {
            if !shared.annotate {
                shared.fence = Some(fence);
            }
        }
    }

    /// [`StateLock::peek_single_with`] with exclusive access, for fast paths that write but
    /// call nothing: `f` gets the state and `arguments`, none of which reach the lock or run
    /// user code, so the gate need not be marked held while it runs (and is not).
    #[inline(always)]
    pub(crate) fn poke_single_with<A, R>(&self, f: fn(&mut T, A) -> R, arguments: A) -> Option<R> {
        if self.gate.load(Ordering::Relaxed) != current_thread() {
            return None;
        }
        // SAFETY: the owner thread with no guard alive (the gate is not marked held), in the
        // mode where only the owner may enter; `f` cannot reach the lock, so no other access
        // to the data is made while this unique borrow lives.
        Some(f(unsafe { &mut *self.data.get() }, arguments))
    }
}

/// The guard of [`StateLock::try_single`]: the owner thread's, in MPI_THREAD_SINGLE.
pub(crate) struct SingleGuard<'a, T> {
    lock: &'a StateLock<T>,
}

impl<T> Deref for SingleGuard<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: the guard is the only live access to the data (see `try_single`: the owner
        // thread, with no other guard alive, in the mode where only the owner may enter).
        unsafe { &*self.lock.data.get() }
    }
}

impl<T> DerefMut for SingleGuard<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; `&mut self` makes this borrow unique.
        unsafe { &mut *self.lock.data.get() }
    }
}

impl<T> Drop for SingleGuard<'_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        self.lock.leave_single();
    }
}

pub(crate) struct Guard<'a, T> {
    lock: &'a StateLock<T>,
    _held: Option<MutexGuard<'a, ()>>,
}

impl<T> Deref for Guard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard is the only live access to the data (see `StateLock::lock`).
        unsafe { &*self.lock.data.get() }
    }
}

impl<T> DerefMut for Guard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; `&mut self` makes this borrow unique.
        unsafe { &mut *self.lock.data.get() }
    }
}

impl<T> Drop for Guard<'_, T> {
    fn drop(&mut self) {
        match &self.lock.shared {
            // The mutex (`_held`) is released after this, with the other fields.
            Some(shared) => {
                if shared.annotate {
                    shared.released(true);
                }
                shared.writing.store(false, Ordering::SeqCst)
            }
            None => self.lock.leave_single(),
        }
    }
}

/// Shared access to the state (see [`StateLock::read`]).
pub(crate) struct ReadGuard<'a, T> {
    lock: &'a StateLock<T>,
    /// The reader slot it is counted in, and whether in the slot's own count (Multiple mode).
    counter: Option<(&'a Counter, bool)>,
}

impl<T> ReadGuard<'_, T> {
    /// Takes a read out of its slot's count.
    #[inline(always)]
    fn uncount(slot: &Counter, held: bool) {
        if held {
            let count = slot.own.load(Ordering::Relaxed);
            slot.own.store(count - 1, Ordering::Release);
        } else {
            slot.others.fetch_sub(1, Ordering::Release);
        }
    }
}

impl<T> Deref for ReadGuard<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: no `Guard` exists while a `ReadGuard` does (see `StateLock`'s Sync), so
        // nothing mutates the data.
        unsafe { &*self.lock.data.get() }
    }
}

impl<T> Drop for ReadGuard<'_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        match (self.counter, &self.lock.shared) {
            (Some((slot, held)), Some(shared)) => {
                if shared.annotate {
                    shared.released(false);
                }
                Self::uncount(slot, held);
            }
            _ => self.lock.leave_single(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_mode_refuses_other_threads_and_reentry() {
        let lock = std::sync::Arc::new(StateLock::new(5u32, ThreadLevel::Single));
        {
            let guard = lock.lock().unwrap();
            assert_eq!(*guard, 5);
            assert!(matches!(lock.lock(), Err(Error::Internal(_))));
        }
        assert!(lock.lock().is_ok());
        let other = lock.clone();
        let refused = std::thread::spawn(move || matches!(other.lock(), Err(Error::WrongThread)))
            .join()
            .unwrap();
        assert!(refused);
    }

    #[test]
    fn readers_see_whole_writes_and_writers_wait_for_readers() {
        race_readers_and_a_writer(StateLock::new([0u64; 8], ThreadLevel::Multiple));
    }

    /// Three threads read (half of their reads, with a fence, the held look) while a fourth
    /// writes every fourth step: no read sees a write half-made.
    fn race_readers_and_a_writer(lock: StateLock<[u64; 8]>) {
        let lock = std::sync::Arc::new(lock);
        let whole = |state: &[u64; 8], (): ()| state.iter().all(|w| *w == state[0]);
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let lock = lock.clone();
                std::thread::spawn(move || {
                    for i in 0..20_000u64 {
                        if t == 0 && i % 4 == 0 {
                            for word in lock.lock().unwrap().iter_mut() {
                                *word += 1;
                            }
                        } else if i % 2 == 0 {
                            let guard = lock.read().unwrap();
                            assert!(guard.iter().all(|w| *w == guard[0]), "a torn write");
                        } else {
                            let seen = lock.peek_held_with(whole, ());
                            assert_ne!(seen, Some(false), "a torn write");
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(lock.read().unwrap()[7], 5_000);
    }

    /// Process fences made by [`counted_fence`].
    static FENCES: AtomicUsize = AtomicUsize::new(0);

    /// A fence for the test below, counted. Not a process fence (that takes a system call,
    /// the shells' business): the test orders its threads by joins, sleeps and channels.
    fn counted_fence() {
        FENCES.fetch_add(1, Ordering::SeqCst);
        std::sync::atomic::fence(Ordering::SeqCst);
    }

    #[test]
    fn a_thread_holds_its_slot_and_writers_wait_for_it_fence_it_and_take_it_back() {
        let mut lock = StateLock::new(1u64, ThreadLevel::Multiple);
        lock.set_process_fence(counted_fence);
        let lock = std::sync::Arc::new(lock);
        let look = |state: &u64, add: u64| *state + add;
        let write_elsewhere = |value: u64| {
            let writer = lock.clone();
            std::thread::spawn(move || *writer.lock().unwrap() = value)
                .join()
                .unwrap();
        };
        // No slot yet: the held look declines; a read takes the slot.
        assert_eq!(lock.peek_held_with(look, 1), None);
        let me = current_thread();
        let shared = lock.shared.as_ref().unwrap();
        let slot = shared.slots(me).0;
        {
            let guard = lock.read().unwrap();
            assert_eq!(*guard, 1);
            assert_eq!(slot.owner.load(Ordering::SeqCst), me);
            assert_eq!(slot.own.load(Ordering::SeqCst), 1);
            assert_eq!(slot.others.load(Ordering::SeqCst), 0);
            // A read under way: the held look declines (it does not nest).
            assert_eq!(lock.peek_held_with(look, 1), None);
            // A writer on another thread waits for the held read, and fences this thread.
            let before = FENCES.load(Ordering::SeqCst);
            let (done, writer) = (std::sync::mpsc::channel(), lock.clone());
            let sender = done.0;
            let handle = std::thread::spawn(move || {
                *writer.lock().unwrap() = 2;
                sender.send(()).unwrap();
            });
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert!(
                done.1.try_recv().is_err(),
                "the writer went in under a held read"
            );
            drop(guard);
            done.1.recv().unwrap();
            handle.join().unwrap();
            assert_eq!(
                FENCES.load(Ordering::SeqCst),
                before + 1,
                "one fence for a held slot"
            );
        }
        // The writer took the slot back: this thread's reads count themselves in the shared
        // count, and the next writer needs no fence.
        assert_eq!(slot.owner.load(Ordering::SeqCst), me | TAKEN_BACK);
        assert_eq!(slot.own.load(Ordering::SeqCst), 0);
        assert_eq!(lock.peek_held_with(look, 1), None);
        let before = FENCES.load(Ordering::SeqCst);
        write_elsewhere(3);
        assert_eq!(FENCES.load(Ordering::SeqCst), before);
        // After RETAKE_AFTER reads so, the thread takes its slot again.
        for _ in 0..RETAKE_AFTER {
            assert_eq!(*lock.read().unwrap(), 3);
            assert_eq!(slot.owner.load(Ordering::SeqCst), me | TAKEN_BACK);
        }
        assert_eq!(slot.others.load(Ordering::SeqCst) & UNDER_WAY, 0);
        assert_eq!(*lock.read().unwrap(), 3);
        assert_eq!(slot.owner.load(Ordering::SeqCst), me);
        assert_eq!(lock.peek_held_with(look, 1), Some(4));
        // This thread's own writes need no fence: no other thread holds a slot.
        let before = FENCES.load(Ordering::SeqCst);
        *lock.lock().unwrap() = 5;
        assert_eq!(FENCES.load(Ordering::SeqCst), before);
        assert_eq!(lock.peek_held_with(look, 0), Some(5));
        // Another thread's does.
        write_elsewhere(6);
        assert_eq!(FENCES.load(Ordering::SeqCst), before + 1);
    }

    /// A fence for the tests that do not count them (the test above counts them all).
    fn uncounted_fence() {
        std::sync::atomic::fence(Ordering::SeqCst);
    }

    #[test]
    fn threads_stacked_one_after_another_get_distinct_first_slots_not_neighbours() {
        let lock = StateLock::new(0u64, ThreadLevel::Multiple);
        let shared = lock.shared.clone().unwrap();
        let at = |slot: &Counter| {
            let index = shared.readers.iter().position(|s| std::ptr::eq(s, slot));
            index.unwrap()
        };
        // glibc's layout: 8 MiB stacks a guard page apart, the thread pointer near each top.
        let top = 0x7fb2_f8ee_76c0usize;
        let firsts: Vec<usize> = (0..READER_SLOTS)
            .map(|i| at(shared.slots(top - i * 0x80_1000).0))
            .collect();
        let distinct: std::collections::HashSet<_> = firsts.iter().collect();
        assert_eq!(distinct.len(), READER_SLOTS);
        for pair in firsts.windows(2) {
            assert!(
                pair[0].abs_diff(pair[1]) > 1,
                "neighbouring slots: {pair:?}"
            );
        }
    }

    #[test]
    fn a_thread_whose_first_slot_is_held_takes_its_second() {
        let mut lock = StateLock::new(0u64, ThreadLevel::Multiple);
        lock.set_process_fence(uncounted_fence);
        let shared = lock.shared.clone().unwrap();
        // Made-up thread pointers (pages): b and c share a's first slot, c also b's second.
        let a = 1usize << 30;
        let first = shared.slots(a).0;
        let alike = |b: usize| (1..).map(move |page| b + (page << 12));
        let b = alike(a)
            .find(|&b| {
                let (f, s) = shared.slots(b);
                std::ptr::eq(f, first) && !std::ptr::eq(s, first)
            })
            .unwrap();
        let second = shared.slots(b).1;
        let at = |slot: &Counter| shared.readers.iter().position(|s| std::ptr::eq(s, slot));
        let c = alike(b)
            .find(|&c| {
                let (f, s) = shared.slots(c);
                (at(f), at(s)) == (at(first), at(second))
            })
            .unwrap();
        let chosen = |me| {
            let (slot, held) = Shared::choose(&shared, me);
            (at(slot), held)
        };
        assert_eq!(chosen(a), (at(first), true));
        assert_eq!(chosen(b), (at(second), true));
        assert_eq!(shared.held(b).map(at), Some(at(second)));
        // Both of c's are held: it counts itself in its first's shared count.
        assert_eq!(chosen(c), (at(first), false));
        assert_eq!(shared.held(c).map(at), None);
        assert_eq!(first.owner.load(Ordering::SeqCst), a);
        assert_eq!(second.owner.load(Ordering::SeqCst), b);
    }

    #[test]
    fn a_thread_that_ends_gives_its_slot_back() {
        let mut lock = StateLock::new(1u64, ThreadLevel::Multiple);
        lock.set_process_fence(uncounted_fence);
        let lock = std::sync::Arc::new(lock);
        let shared = lock.shared.clone().unwrap();
        let (told, told_me) = std::sync::mpsc::channel();
        let (end, ended) = std::sync::mpsc::channel::<()>();
        let reader = lock.clone();
        let thread = std::thread::spawn(move || {
            assert_eq!(*reader.read().unwrap(), 1);
            told.send(current_thread()).unwrap();
            ended.recv().unwrap();
        });
        let them = told_me.recv().unwrap();
        let slot = shared.held(them).expect("the reader holds a slot");
        // Taken back by a write of this thread's, the slot is still the reader's alone.
        *lock.lock().unwrap() = 2;
        assert_eq!(slot.owner.load(Ordering::SeqCst), them | TAKEN_BACK);
        end.send(()).unwrap();
        thread.join().unwrap();
        assert_eq!(slot.owner.load(Ordering::SeqCst), FREE);
        // Another thread takes it (this one, if one of its slots is that one).
        assert_eq!(*lock.read().unwrap(), 2);
        assert!(shared.held(current_thread()).is_some());
    }

    /// Readers racing with a writer, with a real process fence (the shells' membarrier).
    #[cfg(not(feature = "layer"))]
    #[test]
    fn readers_with_a_fence_see_whole_writes() {
        // A kernel without it (or a sandbox that refuses it) leaves the library on its
        // read-modify-write counting, which the unfenced test covers.
        let Some(fence) = crate::membarrier_fence() else {
            eprintln!("skipped: this kernel gives no expedited membarrier");
            return;
        };
        let mut lock = StateLock::new([0u64; 8], ThreadLevel::Multiple);
        lock.set_process_fence(fence);
        race_readers_and_a_writer(lock);
    }

    #[test]
    fn multiple_mode_serialises_threads() {
        let lock = std::sync::Arc::new(StateLock::new(0u64, ThreadLevel::Multiple));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let lock = lock.clone();
                std::thread::spawn(move || {
                    for _ in 0..10_000 {
                        *lock.lock().unwrap() += 1;
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(*lock.lock().unwrap(), 40_000);
    }
}
