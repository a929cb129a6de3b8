//! The one lock around the engine's state, and the way a single-threaded program avoids it.
//!
//! Under [`ThreadLevel::Single`] the state belongs to the thread that created the universe:
//! taking it costs a thread-identity comparison and a plain flag, no atomic read-modify-write.
//! Another thread is refused with an error instead of racing. The identity is the thread
//! pointer register, read in one instruction where the architecture has one (a thread-local's
//! address would cost a call into the dynamic linker from a shared library), else a
//! thread-local's address. Under [`ThreadLevel::Multiple`] a mutex serialises every access.
//! In both modes the guard is only held for short critical sections: never while a user
//! callback runs.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::error::Error;

/// The thread support a universe is created for.
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

pub(crate) struct StateLock<T> {
    data: UnsafeCell<T>,
    mutex: Option<Mutex<()>>,
    owner: usize,
    busy: AtomicBool,
}

// SAFETY: every access to `data` goes through `lock`, which gives one guard at a time: under
// a mutex in Multiple mode, and in Single mode only to the owning thread (checked) while
// `busy` is clear (that flag is only ever touched by the owner thread).
unsafe impl<T: Send> Sync for StateLock<T> {}

impl<T> StateLock<T> {
    pub(crate) fn new(data: T, level: ThreadLevel) -> Self {
        StateLock {
            data: UnsafeCell::new(data),
            mutex: (level == ThreadLevel::Multiple).then(|| Mutex::new(())),
            owner: current_thread(),
            busy: AtomicBool::new(false),
        }
    }

    /// Whether the calling thread created the lock.
    #[inline(always)]
    pub(crate) fn is_owner(&self) -> bool {
        current_thread() == self.owner
    }

    pub(crate) fn level(&self) -> ThreadLevel {
        if self.mutex.is_some() {
            ThreadLevel::Multiple
        } else {
            ThreadLevel::Single
        }
    }

    #[inline(always)]
    pub(crate) fn lock(&self) -> Result<Guard<'_, T>, Error> {
        match &self.mutex {
            Some(mutex) => {
                let held = mutex
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                Ok(Guard {
                    lock: self,
                    _held: Some(held),
                })
            }
            None => {
                if !self.is_owner() {
                    return Err(Error::WrongThread);
                }
                // Only the owner thread reaches this point, so a relaxed load and store are
                // enough; the flag catches re-entry while a guard is alive.
                if self.busy.load(Ordering::Relaxed) {
                    return Err(Error::Internal("re-entrant use of the engine state"));
                }
                self.busy.store(true, Ordering::Relaxed);
                Ok(Guard {
                    lock: self,
                    _held: None,
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
        if self.mutex.is_some() || !self.is_owner() || self.busy.load(Ordering::Relaxed) {
            return None;
        }
        self.busy.store(true, Ordering::Relaxed);
        Some(SingleGuard { lock: self })
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
        self.lock.busy.store(false, Ordering::Relaxed);
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
        if self.lock.mutex.is_none() {
            self.lock.busy.store(false, Ordering::Relaxed);
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
