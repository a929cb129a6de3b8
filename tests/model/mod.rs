//! The reference model and what runs it against the library: shared by the randomized tests
//! (`model_rust`, `model_capi`, `model_threads`) and the fuzz target (`fuzz/`).
#![allow(dead_code)] // each user takes its own part

pub mod c_api;
pub mod harness;
pub mod ops;
pub mod reference;
pub mod run;
pub mod rust_api;
