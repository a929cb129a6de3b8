//! Threads (attributes.md §6): 4 threads × 100 000 random operations on one universe under
//! MPI_THREAD_MULTIPLE, each thread checked against a model of its own after every
//! operation.
//!
//! Each thread has its keyvals and objects (what it creates and duplicates) to itself, and
//! shares MPI_COMM_WORLD, MPI_COMM_SELF, two datatypes and two communicators with the others:
//! on those it sets, reads and deletes values of its own keyvals (only values that are not
//! copied, so that another thread's duplicate never holds its keyvals) and duplicates them,
//! while the others do the same. Callbacks re-enter as in the single-threaded tests. The
//! threads' values on shared objects, and everything on their own, must be exactly what
//! their models say; at the end MPI_Finalize runs everyone's delete callbacks.

mod model;

use std::rc::Rc;
use std::sync::{Arc, Barrier};
use std::thread;

use model::harness::Generator;
use model::reference::{Model, DOUBLE, INT, SELF, WORLD};
use model::run::{Checker, Driver};
use model::rust_api::{install, RustBackend};
use mpiattr::{AnyObject, Comm, ThreadLevel, Universe};

const THREADS: usize = 4;

fn ops_per_thread() -> usize {
    std::env::var("MODEL_THREAD_OPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(model::harness::default_ops(100_000))
}

fn thread_program(
    universe: Arc<Universe>,
    shared: Vec<Comm>,
    seed: u64,
    ops: usize,
    start: Arc<Barrier>,
) -> Result<(usize, usize, usize), String> {
    let mut model = Model::new(false);
    model.share(&[WORLD, SELF, INT, DOUBLE]);
    let driver = Rc::new(Driver::new(RustBackend::new(universe, false), &model));
    for comm in &shared {
        model.add_shared_comm();
        driver.list(AnyObject::Comm(*comm), model::ops::Kind::Comm);
    }
    install(Some(driver.clone()));
    let mut generator = Generator::endless(seed, ops);
    let mut checker = Checker::new(256);
    let mut step = 0;
    start.wait();
    let result = loop {
        let Some(op) = generator.next(&model) else {
            break checker.full(&model, &driver);
        };
        if let Err(e) = checker.run(&mut model, &driver, &op, false) {
            break Err(format!("operation {step} ({op:?}): {e}"));
        }
        step += 1;
    };
    install(None);
    let (callbacks, reentries) = driver.counted();
    result.map(|_| (step, callbacks, reentries))
}

#[test]
fn four_threads_on_shared_and_private_objects() {
    four_threads(Universe::new(ThreadLevel::Multiple));
}

/// The same with the process fence the C and Fortran shells give their universe: readers
/// count themselves with plain stores, and writers fence the other threads and take their
/// reader slots back.
#[test]
fn four_threads_with_a_process_fence() {
    // A kernel without it (or a sandbox that refuses it) leaves the library on its
    // read-modify-write counting, which the test above covers.
    let Some(fence) = mpiattr::membarrier_fence() else {
        eprintln!("model_threads: skipped: this kernel gives no expedited membarrier");
        return;
    };
    four_threads(Universe::new(ThreadLevel::Multiple).with_process_fence(fence));
}

fn four_threads(universe: Universe) {
    let base: u64 = match std::env::var("MODEL_SEED") {
        Ok(s) => u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("a hex seed"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    };
    let ops = ops_per_thread();
    println!("model_threads: base seed {base:#x} (MODEL_SEED={base:x} runs the same programs)");
    let universe = Arc::new(universe);
    let shared: Vec<Comm> = (0..2)
        .map(|_| universe.comm_split(Comm::WORLD, true).unwrap().unwrap())
        .collect();
    let start = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (u, s, b) = (universe.clone(), shared.clone(), start.clone());
            let seed = base.wrapping_add(t as u64);
            thread::spawn(move || (seed, thread_program(u, s, seed, ops, b)))
        })
        .collect();
    let mut failures = Vec::new();
    let (mut total, mut callbacks, mut reentries) = (0, 0, 0);
    for h in handles {
        let (seed, result) = h.join().expect("a thread panicked");
        match result {
            Ok((n, c, r)) => {
                total += n;
                callbacks += c;
                reentries += r;
            }
            Err(e) => failures.push(format!("thread with seed {seed:#x}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for comm in shared {
        universe.comm_free(comm).expect("the shared communicators");
    }
    universe.finalize().expect("finalize");
    println!(
        "model_threads: {THREADS} threads, {total} operations, {callbacks} callbacks, \
         {reentries} acts of callbacks"
    );
    assert_eq!(total, THREADS * ops);
}
