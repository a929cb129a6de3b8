//! Telling valgrind's thread checkers (helgrind, drd) what the engine's lock is.
//!
//! The lock of [`super::lock`] under `MPI_THREAD_MULTIPLE` is made of a futex-based mutex
//! (writers) and atomic counters (readers); neither tool can follow either, and without help
//! they would report every access to the engine's state from two threads as a race. Valgrind
//! lets a program describe its own synchronisation through "client requests": a fixed,
//! otherwise meaningless instruction sequence that the real CPU runs as a few no-ops and
//! valgrind's JIT recognises, handing the tool a request code and up to five arguments. Both
//! tools take the same reader-writer lock requests (helgrind's numbering, which drd also
//! accepts):
//!
//! - the lock exists (at an address), is about to go away;
//! - it has just been acquired, shared or exclusive;
//! - it is about to be released;
//!
//! and, one for each tool, a request to stop checking a range of memory, for the lock's own
//! words (its counters and flags are raced on by design, atomically).
//!
//! Outside valgrind each request costs those few register instructions; the lock issues them
//! only after asking once, when it is made, whether valgrind is running
//! ([`running_on_valgrind`]), so a program outside valgrind pays one predictable branch per
//! acquire and release under `MPI_THREAD_MULTIPLE`, and nothing under `MPI_THREAD_SINGLE`.
//! The lock describes itself at its first use, where it will stay.
//!
//! The few atomics read without the lock (the callback flag of [`super::Universe`], the
//! shells' copies of the predefined communicators' error handlers, `MPI_Wtime`'s start) go
//! unchecked under valgrind too ([`ignore_races_on`], asked just before their rare stores).

/// Valgrind's "am I running under valgrind" request: the answer is non-zero under valgrind.
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// Tool requests carry the tool's two letters in their top 16 bits: 'H', 'G' for helgrind.
const HELGRIND_BASE: usize = (b'H' as usize) << 24 | (b'G' as usize) << 16;
/// A reader-writer lock was initialised at an address.
const RWLOCK_CREATE: usize = HELGRIND_BASE + 0x10e;
/// A reader-writer lock is about to be destroyed.
const RWLOCK_DESTROY: usize = HELGRIND_BASE + 0x10f;
/// A reader-writer lock was acquired: address, and 1 for exclusive, 0 for shared.
const RWLOCK_ACQUIRED: usize = HELGRIND_BASE + 0x111;
/// A reader-writer lock is about to be released.
const RWLOCK_RELEASED: usize = HELGRIND_BASE + 0x112;
/// helgrind: stop checking accesses to a range of memory (address, length).
const MAKE_UNTRACKED: usize = HELGRIND_BASE + 0x127;
/// drd's requests carry 'D', 'R'.
const DRD_BASE: usize = (b'D' as usize) << 24 | (b'R' as usize) << 16;
/// drd: stop reporting races on a range of memory (address, length).
const DRD_SUPPRESS: usize = DRD_BASE + 2;

/// Issues a client request: `[code, arg1, ..., arg5]`; returns valgrind's answer, or 0 when
/// not running under valgrind (the sequence leaves the result register as it was).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn request(args: &[usize; 6]) -> usize {
    let mut result: usize = 0;
    // SAFETY: the four rotations of rdi add up to 128 bits (rdi ends as it began) and
    // `xchg rbx, rbx` changes nothing: on a real CPU the sequence has no effect but on the
    // flags. Under valgrind it reads the six words at rax (alive for the call) and writes rdx.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdi") 0usize => _,
            in("rax") args.as_ptr(),
            inout("rdx") result,
            options(nostack, readonly)
        );
    }
    result
}

/// Issues a client request (see the x86_64 version).
#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn request(args: &[usize; 6]) -> usize {
    let mut result: usize = 0;
    // SAFETY: the four rotations of x12 add up to 128 bits and `orr x10, x10, x10` changes
    // nothing: no effect on a real CPU. Under valgrind it reads the six words at x4 (alive for
    // the call) and writes x3.
    unsafe {
        std::arch::asm!(
            "ror x12, x12, #3",
            "ror x12, x12, #13",
            "ror x12, x12, #51",
            "ror x12, x12, #61",
            "orr x10, x10, x10",
            inout("x12") 0usize => _,
            in("x4") args.as_ptr(),
            inout("x3") result,
            options(nostack, readonly, preserves_flags)
        );
    }
    result
}

/// No client requests on other architectures.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn request(_args: &[usize; 6]) -> usize {
    0
}

/// Whether the program runs under valgrind.
pub(crate) fn running_on_valgrind() -> bool {
    request(&[RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) != 0
}

/// A reader-writer lock now lives at `lock`.
pub(crate) fn rwlock_create(lock: usize) {
    request(&[RWLOCK_CREATE, lock, 0, 0, 0, 0]);
}

/// The reader-writer lock at `lock` is about to go away.
pub(crate) fn rwlock_destroy(lock: usize) {
    request(&[RWLOCK_DESTROY, lock, 0, 0, 0, 0]);
}

/// The calling thread has just acquired the lock at `lock`, exclusively if `exclusive`.
pub(crate) fn rwlock_acquired(lock: usize, exclusive: bool) {
    request(&[RWLOCK_ACQUIRED, lock, usize::from(exclusive), 0, 0, 0]);
}

/// The calling thread is about to release the lock at `lock`.
pub(crate) fn rwlock_released(lock: usize, exclusive: bool) {
    request(&[RWLOCK_RELEASED, lock, usize::from(exclusive), 0, 0, 0]);
}

/// Accesses to `len` bytes at `start` are not to be checked (each tool has its request; the
/// other ignores it).
pub(crate) fn untracked(start: usize, len: usize) {
    request(&[MAKE_UNTRACKED, start, len, 0, 0, 0]);
    request(&[DRD_SUPPRESS, start, len, 0, 0, 0]);
}

/// Under valgrind: `value`, an atomic that threads race on by design, is not to be checked.
/// Neither tool knows what an atomic instruction promises, so each would report every
/// unordered pair of accesses to it. Outside valgrind this asks once and does nothing; it is
/// meant for paths that run once or rarely (a flag's first store, a one-time initialiser), and
/// kept out of line so that their callers stay as small as they were.
#[cold]
#[inline(never)]
pub(crate) fn ignore_races_on<T: ?Sized>(value: &T) {
    if running_on_valgrind() {
        untracked(
            value as *const T as *const u8 as usize,
            std::mem::size_of_val(value),
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn requests_do_nothing_outside_valgrind() {
        // The test runs outside valgrind (ci/check-memory runs C and Fortran programs, not
        // the engine's unit tests): every request answers 0 and changes nothing.
        assert!(!super::running_on_valgrind());
        let lock = 0usize;
        let address = &lock as *const usize as usize;
        super::rwlock_create(address);
        super::rwlock_acquired(address, true);
        super::rwlock_released(address, true);
        super::rwlock_destroy(address);
        super::untracked(address, 8);
        super::ignore_races_on(&lock);
        assert_eq!(lock, 0);
    }
}
