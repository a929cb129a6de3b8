//! Random programs through the Rust API, checked against the reference model after every
//! operation (tests/model). See tests/model/harness.rs for seeds, replay and shrinking.

mod model;

use model::harness::{self, Mode};

fn main() {
    harness::main(Mode {
        name: "model_rust",
        run: model::rust_api::run_program,
        per_child: 25,
    });
}
