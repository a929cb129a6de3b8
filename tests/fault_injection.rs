//! Fault injection (attributes.md §5): for objects with n attributes and every position k, a copy
//! callback failing at the k-th copy and a delete callback failing at the k-th deletion.
//! Each time: the right error class, nothing lost (the source keeps every value; a failed
//! free keeps exactly the value that failed), every removed value's delete callback run
//! exactly once, nothing leaked (no object, keyval or byte of memory left behind: repeated
//! failures do not grow the heap), and a retry that succeeds.
//!
//! The values are set in all three languages, so C callbacks are shown Fortran values
//! through the storage the library makes for them, which must go too.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::{Arc, Mutex};

use mpiattr::{
    AnyObject, Comm, CopyAction, Datatype, DeleteAction, ErrorClass, Keyval, KeyvalSpec, Language,
    ObjectKind, ThreadLevel, Universe, Word,
};

/// Counts the bytes each thread allocated and did not free (the tests run in threads of
/// their own, and free what they allocate in the same thread).
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn live() -> isize {
    LIVE.with(Cell::get)
}

// SAFETY: forwards to the system allocator, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.with(|l| l.set(l.get() + layout.size() as isize));
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.with(|l| l.set(l.get() - layout.size() as isize));
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What the callbacks did, and which call fails.
#[derive(Default)]
struct Script {
    /// The copy (counting from 0) that fails, if any, and with which code.
    copy_fails_at: Option<(usize, i32)>,
    /// The deletion (counting from 0) that fails, if any, and with which code.
    delete_fails_at: Option<(usize, i32)>,
    copies: usize,
    deletes: usize,
    /// (object, keyval, value as its callback saw it, read through the pointer for C
    /// callbacks of Fortran values)
    deleted: Vec<(AnyObject, Keyval, Word)>,
}

/// A value set in language `lang`, and what a C callback reads of it.
fn value_of(i: usize) -> (Language, Word) {
    let lang = [
        Language::C,
        Language::FortranAddress,
        Language::FortranInteger,
    ][i % 3];
    (lang, 1000 + i as Word)
}

struct Setup {
    universe: Universe,
    script: Arc<Mutex<Script>>,
    keyvals: Vec<Keyval>,
}

/// A universe with `n` keyvals of `kind` whose callbacks follow the script; the callbacks
/// use the C convention, so Fortran values reach them through the library's storage.
fn setup(kind: ObjectKind, n: usize) -> Setup {
    let universe = Universe::new(ThreadLevel::Single);
    let script = Arc::new(Mutex::new(Script::default()));
    let keyvals = (0..n)
        .map(|i| {
            let (s1, s2) = (script.clone(), script.clone());
            let (lang, _) = value_of(i);
            universe
                .create_keyval(KeyvalSpec {
                    kind,
                    language: Language::C,
                    copy: CopyAction::Call(Arc::new(
                        move |_: &Universe, _: AnyObject, _: Keyval, value: Word| {
                            let mut s = s1.lock().unwrap();
                            let at = s.copies;
                            s.copies += 1;
                            match s.copy_fails_at {
                                Some((k, code)) if k == at => Err(code),
                                _ => Ok(Some(value)),
                            }
                        },
                    )),
                    delete: DeleteAction::Call(Arc::new(
                        move |_: &Universe, obj: AnyObject, kv: Keyval, value: Word| {
                            let seen = if lang == Language::C {
                                value
                            } else {
                                // SAFETY: a C callback of a Fortran value gets a pointer to
                                // it, valid while the callback runs (attributes.md §3).
                                unsafe { *(value as *const Word) }
                            };
                            let mut s = s2.lock().unwrap();
                            let at = s.deletes;
                            s.deletes += 1;
                            match s.delete_fails_at {
                                Some((k, code)) if k == at => Err(code),
                                _ => {
                                    s.deleted.push((obj, kv, seen));
                                    Ok(())
                                }
                            }
                        },
                    )),
                })
                .unwrap()
        })
        .collect();
    Setup {
        universe,
        script,
        keyvals,
    }
}

/// The operations on one kind of object.
trait Kind: mpiattr::Object + std::fmt::Debug {
    fn make(u: &Universe) -> Self;
    fn dup(u: &Universe, o: Self) -> mpiattr::Result<Self>;
    fn free(u: &Universe, o: Self) -> mpiattr::Result<()>;
}

impl Kind for Comm {
    fn make(u: &Universe) -> Comm {
        u.comm_split(Comm::WORLD, true).unwrap().unwrap()
    }
    fn dup(u: &Universe, o: Comm) -> mpiattr::Result<Comm> {
        u.comm_dup(o)
    }
    fn free(u: &Universe, o: Comm) -> mpiattr::Result<()> {
        u.comm_free(o)
    }
}

impl Kind for Datatype {
    fn make(u: &Universe) -> Datatype {
        let int = Universe::predefined_datatype(mpiattr::abi::MPIATTR_HANDLE_MPI_INT as usize);
        u.type_contiguous(2, int.unwrap()).unwrap()
    }
    fn dup(u: &Universe, o: Datatype) -> mpiattr::Result<Datatype> {
        u.type_dup(o)
    }
    fn free(u: &Universe, o: Datatype) -> mpiattr::Result<()> {
        u.type_free(o)
    }
}

/// Makes and frees enough objects that the table reuses slots from now on (a freed slot
/// waits until 1024 others are free, so handles are not reused soon), and gives C views to
/// many Fortran values at once, so that the table of those has room for what a round needs
/// (a hash table grows when its random hashing says, which is no leak): from then on, the
/// heap holds still unless something leaks.
fn warm_up<O: Kind>(s: &Setup) {
    let objects: Vec<O> = (0..1100).map(|_| O::make(&s.universe)).collect();
    for &object in &objects[..16] {
        fill(s, object);
        for kv in &s.keyvals {
            s.universe.get_attr(object, *kv, Language::C).unwrap();
        }
    }
    for o in objects {
        O::free(&s.universe, o).unwrap();
    }
}

fn fill<O: Kind>(s: &Setup, object: O) {
    for (i, kv) in s.keyvals.iter().enumerate() {
        let (lang, word) = value_of(i);
        s.universe.set_attr(object, *kv, lang, word).unwrap();
    }
}

/// Every value of the source is there, as set.
fn assert_intact<O: Kind>(s: &Setup, object: O, what: &str) {
    assert_eq!(
        s.universe.attr_count(object).unwrap(),
        s.keyvals.len(),
        "{what}: count"
    );
    for (i, kv) in s.keyvals.iter().enumerate() {
        let (_, word) = value_of(i);
        let got = s
            .universe
            .get_attr(object, *kv, Language::FortranAddress)
            .unwrap();
        assert_eq!(got, Some(word), "{what}: value {i}");
    }
}

/// The code a failing callback returns at position k, and the class the call must fail with.
fn code_for(k: usize) -> (i32, ErrorClass) {
    if k % 2 == 0 {
        (ErrorClass::Arg as i32, ErrorClass::Arg)
    } else {
        (777, ErrorClass::Other)
    }
}

fn copy_failing_at<O: Kind>(n: usize, k: usize) {
    let s = setup(O::KIND, n);
    warm_up::<O>(&s);
    let source = O::make(&s.universe);
    fill(&s, source);
    let objects = s.universe.object_count(O::KIND).unwrap();
    let keyvals = s.universe.keyval_count().unwrap();
    let (code, class) = code_for(k);
    let what = format!("{:?}, {n} attributes, copy failing at {k}", O::KIND);
    let mut heap = Vec::new();
    for _ in 0..3 {
        *s.script.lock().unwrap() = Script {
            copy_fails_at: Some((k, code)),
            ..Script::default()
        };
        let error = O::dup(&s.universe, source).expect_err(&what);
        assert_eq!(error.class(), class, "{what}: the class");
        let script = s.script.lock().unwrap();
        assert_eq!(script.copies, k + 1, "{what}: copies tried");
        // The k copies made were deleted, newest first, each once, on the new object.
        let expected: Vec<(Keyval, Word)> = (0..k)
            .rev()
            .map(|i| (s.keyvals[i], value_of(i).1))
            .collect();
        let got: Vec<(Keyval, Word)> = script.deleted.iter().map(|d| (d.1, d.2)).collect();
        assert_eq!(got, expected, "{what}: the rollback's deletions");
        assert!(
            script.deleted.iter().all(|d| d.0 != source.into()),
            "{what}: a deletion on the source"
        );
        drop(script);
        assert_intact(&s, source, &what);
        assert_eq!(
            s.universe.object_count(O::KIND).unwrap(),
            objects,
            "{what}: objects"
        );
        assert_eq!(
            s.universe.keyval_count().unwrap(),
            keyvals,
            "{what}: keyvals"
        );
        heap.push(live());
    }
    assert_eq!(heap[1], heap[2], "{what}: the heap grows with each failure");
    // The retry succeeds and copies everything.
    *s.script.lock().unwrap() = Script::default();
    let copy = O::dup(&s.universe, source).expect(&what);
    assert_intact(&s, copy, &format!("{what}, the retry's copy"));
    O::free(&s.universe, copy).unwrap();
    O::free(&s.universe, source).unwrap();
}

fn delete_failing_at<O: Kind>(n: usize, k: usize) {
    let s = setup(O::KIND, n);
    warm_up::<O>(&s);
    let (code, class) = code_for(k);
    let what = format!("{:?}, {n} attributes, delete failing at {k}", O::KIND);
    let mut heap = Vec::new();
    for _ in 0..3 {
        let object = O::make(&s.universe);
        fill(&s, object);
        *s.script.lock().unwrap() = Script {
            delete_fails_at: Some((k, code)),
            ..Script::default()
        };
        let error = O::free(&s.universe, object).expect_err(&what);
        assert_eq!(error.class(), class, "{what}: the class");
        let failed = n - 1 - k; // deletions go newest first
        {
            let script = s.script.lock().unwrap();
            assert_eq!(script.deletes, n, "{what}: every value tried once");
            let expected: Vec<(Keyval, Word)> = (0..n)
                .rev()
                .filter(|&i| i != failed)
                .map(|i| (s.keyvals[i], value_of(i).1))
                .collect();
            let got: Vec<(Keyval, Word)> = script.deleted.iter().map(|d| (d.1, d.2)).collect();
            assert_eq!(got, expected, "{what}: the deletions");
        }
        // The object stays, with exactly the value that failed.
        assert!(
            s.universe.is_valid(object).unwrap(),
            "{what}: the object went"
        );
        assert_eq!(
            s.universe.attr_count(object).unwrap(),
            1,
            "{what}: values left"
        );
        let kv = s.keyvals[failed];
        assert_eq!(
            s.universe
                .get_attr(object, kv, Language::FortranAddress)
                .unwrap(),
            Some(value_of(failed).1),
            "{what}: the value that failed"
        );
        // The retry frees it, running that one callback once more.
        *s.script.lock().unwrap() = Script::default();
        O::free(&s.universe, object).expect(&what);
        let script = s.script.lock().unwrap();
        assert_eq!(script.deleted.len(), 1, "{what}: the retry's deletions");
        assert_eq!(
            script.deleted[0].1, kv,
            "{what}: the retry deleted another value"
        );
        drop(script);
        assert!(!s.universe.is_valid(object).unwrap(), "{what}: still there");
        heap.push(live());
    }
    assert_eq!(heap[1], heap[2], "{what}: the heap grows with each failure");
}

/// A failed dup whose rollback also fails: the dup's error, the other copies deleted, and
/// still nothing left behind.
fn copy_and_rollback_failing<O: Kind>(n: usize, k: usize, j: usize) {
    let s = setup(O::KIND, n);
    warm_up::<O>(&s);
    let source = O::make(&s.universe);
    fill(&s, source);
    let objects = s.universe.object_count(O::KIND).unwrap();
    let what = format!(
        "{:?}, {n} attributes, copy failing at {k}, rollback at {j}",
        O::KIND
    );
    let mut heap = Vec::new();
    for _ in 0..3 {
        *s.script.lock().unwrap() = Script {
            copy_fails_at: Some((k, ErrorClass::Arg as i32)),
            delete_fails_at: Some((j, ErrorClass::Other as i32)),
            ..Script::default()
        };
        let error = O::dup(&s.universe, source).expect_err(&what);
        assert_eq!(error.class(), ErrorClass::Arg, "{what}: the copy's class");
        let script = s.script.lock().unwrap();
        assert_eq!(script.deletes, k, "{what}: every copy's deletion tried");
        assert_eq!(script.deleted.len(), k - 1, "{what}: deletions done");
        drop(script);
        assert_intact(&s, source, &what);
        assert_eq!(
            s.universe.object_count(O::KIND).unwrap(),
            objects,
            "{what}: objects"
        );
        heap.push(live());
    }
    assert_eq!(heap[1], heap[2], "{what}: the heap grows with each failure");
}

/// Sizes around the attribute set's changes of layout (linear up to 8, hashed beyond).
const SIZES: &[usize] = &[1, 2, 3, 7, 8, 9, 16, 17, 33];

#[test]
fn copy_callbacks_failing_at_every_position() {
    for &n in SIZES {
        for k in 0..n {
            copy_failing_at::<Comm>(n, k);
            copy_failing_at::<Datatype>(n, k);
        }
    }
}

#[test]
fn delete_callbacks_failing_at_every_position() {
    for &n in SIZES {
        for k in 0..n {
            delete_failing_at::<Comm>(n, k);
            delete_failing_at::<Datatype>(n, k);
        }
    }
}

#[test]
fn rollbacks_failing_at_every_position() {
    for &n in &[3, 9, 17] {
        for k in 1..n {
            for j in 0..k {
                copy_and_rollback_failing::<Comm>(n, k, j);
            }
        }
    }
}
