//! Fuzzing the engine with programs of the randomized tests' operation language: libFuzzer's
//! bytes decode to operations (tests/model/ops.rs), which run through the Rust API on a
//! universe of their own and against the reference model; a difference panics with what the
//! model expected.
#![no_main]

#[path = "../../tests/model/mod.rs"]
mod model;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ops = model::ops::decode(data);
    if let Err(f) = model::harness::run_ops(
        &model::harness::Mode {
            name: "fuzz",
            run: model::rust_api::run_program,
            per_child: 1,
        },
        &ops,
    ) {
        panic!(
            "operation {} of {}: {:?}\n{}",
            f.step,
            ops.len(),
            ops.get(f.step),
            f.message
        );
    }
});
