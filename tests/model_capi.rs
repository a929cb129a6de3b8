//! Random programs through the exported C and Fortran functions (tests/model/c_api.rs),
//! checked against the reference model after every operation: one program per process.
//! See tests/model/harness.rs for seeds, replay and shrinking.

mod model;

use std::rc::Rc;

use model::c_api::{install, CBackend};
use model::harness::{self, Failure, Mode, Stats};
use model::ops::{encode, Op};
use model::reference::Model;
use model::run::{Checker, Driver};

/// One program: MPI_Init or, for a third of the programs (chosen by their first operation),
/// MPI_Init_thread with MPI_THREAD_MULTIPLE.
fn run(next: &mut dyn FnMut(&Model) -> Option<Op>) -> Result<Stats, Failure> {
    let mut model = Model::new(true);
    let Some(first) = next(&model) else {
        return Ok(Stats::default());
    };
    let multiple = encode(&[first]).iter().map(|&b| u32::from(b)).sum::<u32>() % 3 == 0;
    let driver = Rc::new(Driver::new(CBackend::init(multiple), &model));
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
        name: "model_capi",
        run,
        per_child: 1,
    });
}
