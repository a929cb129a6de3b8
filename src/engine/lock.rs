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
//! in one of [`READER_SLOTS`] counters, each on a cache line of its own, picked by its thread,
//! and checks that no writer is in; a writer raises a flag and waits until every counter is
//! zero. Readers on different threads so touch no common line: reads scale with threads.
//! Writers are serialised by a mutex and cost a scan of the counters.
//!
//! In both modes a guard is only held for short critical sections: never while a user
//! callback runs.
//!
//! Under valgrind, Multiple mode describes itself to helgrind and drd as a reader-writer lock
//! ([`super::valgrind`]): neither tool can follow a futex-based mutex or atomic counters, and
//! would otherwise report every access to the state from two threads as a race. So a threaded
//! program is checked by both tools against the library as it is shipped (ci/check-memory).
//! Single mode needs no description: one thread owns the state.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

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

/// Reader counters of [`ThreadLevel::Multiple`]: threads share one only when their thread
/// pointers hash alike.
const READER_SLOTS: usize = 16;

/// A counter alone on its cache lines (two: adjacent-line prefetchers pair them).
#[repr(align(128))]
#[derive(Default)]
struct Counter(AtomicUsize);

/// The readers and writers of [`ThreadLevel::Multiple`].
struct Shared {
    writers: Mutex<()>,
    writing: AtomicBool,
    readers: [Counter; READER_SLOTS],
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

    /// The counter of the calling thread.
    #[inline(always)]
    fn counter(&self) -> &AtomicUsize {
        // Thread pointers are far apart: hash the page number, keep the top bits.
        let hash = (current_thread() >> 12).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.readers[hash >> (usize::BITS - READER_SLOTS.trailing_zeros())].0
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
    shared: Option<Shared>,
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
            shared: (level == ThreadLevel::Multiple).then(Shared::new),
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
                for counter in &shared.readers {
                    let mut spins = 0;
                    while counter.0.load(Ordering::SeqCst) != 0 {
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
                let counter = shared.counter();
                loop {
                    counter.fetch_add(1, Ordering::SeqCst);
                    if !shared.writing.load(Ordering::SeqCst) {
                        if shared.annotate {
                            shared.acquired(false);
                        }
                        return Ok(ReadGuard {
                            lock: self,
                            counter: Some(counter),
                        });
                    }
                    counter.fetch_sub(1, Ordering::Release);
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
    /// The reader counter it is counted in (Multiple mode).
    counter: Option<&'a AtomicUsize>,
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
            (Some(counter), Some(shared)) => {
                if shared.annotate {
                    shared.released(false);
                }
                counter.fetch_sub(1, Ordering::Release);
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
        let lock = std::sync::Arc::new(StateLock::new([0u64; 8], ThreadLevel::Multiple));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let lock = lock.clone();
                std::thread::spawn(move || {
                    for i in 0..20_000u64 {
                        if t == 0 && i % 4 == 0 {
                            let mut guard = lock.lock().unwrap();
                            for word in guard.iter_mut() {
                                *word += 1;
                            }
                        } else {
                            let guard = lock.read().unwrap();
                            assert!(guard.iter().all(|w| *w == guard[0]), "a torn write");
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
