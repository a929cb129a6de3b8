//! Random programs through the Rust API, checked against the reference model after every
//! operation (tests/model). See tests/model/harness.rs for seeds, replay and shrinking.

mod model;

use std::rc::Rc;
use std::sync::Arc;

use model::harness::{self, Failure, Mode, Stats};
use model::ops::{encode, Op};
use model::reference::Model;
use model::run::{Checker, Driver};
use model::rust_api::{install, RustBackend};
use mpiattr::{ThreadLevel, Universe};

/// One program on a universe of its own: MPI_THREAD_SINGLE or, for a third of the programs
/// (chosen by their first operation), MPI_THREAD_MULTIPLE.
fn run(next: &mut dyn FnMut(&Model) -> Option<Op>) -> Result<Stats, Failure> {
    let mut model = Model::new(false);
    let Some(first) = next(&model) else {
        return Ok(Stats::default());
    };
    let level = if encode(&[first]).iter().map(|&b| u32::from(b)).sum::<u32>() % 3 == 0 {
        ThreadLevel::Multiple
    } else {
        ThreadLevel::Single
    };
    let universe = Arc::new(Universe::new(level));
    let driver = Rc::new(Driver::new(RustBackend::new(universe, true), &model));
    install(Some(driver.clone()));
    let mut checker = Checker::new(64);
    let mut step = 0;
    let mut op = Some(first);
    let result = loop {
        let Some(o) = op else {
            let (callbacks, reentries) = driver.counted();
            break checker.full(&model, &driver).map(|_| Stats {
                ops: step,
                callbacks,
                reentries,
            });
        };
        if let Err(e) = checker.run(&mut model, &driver, &o, false) {
            break Err(e);
        }
        step += 1;
        op = next(&model);
    };
    install(None);
    result.map_err(|message| Failure { step, message })
}

fn main() {
    harness::main(Mode {
        name: "model_rust",
        run,
        per_child: 25,
    });
}
