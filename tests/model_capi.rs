//! Random programs through the exported C and Fortran functions (tests/model/c_api.rs),
//! checked against the reference model after every operation: one program per process.
//! See tests/model/harness.rs for seeds, replay and shrinking.

mod model;

use model::harness::{self, Mode};

fn main() {
    harness::main(Mode {
        name: "model_capi",
        run: model::c_api::run_program,
        per_child: 1,
    });
}
