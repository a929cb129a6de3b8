//! Typed attributes from Rust: a solver's settings cached on a communicator, copied to its
//! duplicates by `Clone`, and a scratch buffer that duplicates do not inherit; every value is
//! dropped when deleted, replaced or freed with its communicator. No `unsafe`, no `Language`.
//!
//! Run with `cargo run --example typed_attributes` (`--no-default-features` needs no gfortran).

use mpiattr::{Comm, ObjectKind, ThreadLevel, TypedCopy, Universe};

#[derive(Clone, Debug, PartialEq)]
struct Settings {
    tolerance: f64,
    max_iterations: u32,
}

/// A buffer that says when it goes.
struct Scratch(Vec<f64>);

impl Drop for Scratch {
    fn drop(&mut self) {
        println!("scratch buffer of {} values dropped", self.0.len());
    }
}

fn main() -> Result<(), mpiattr::Error> {
    let universe = Universe::new(ThreadLevel::Single);
    let settings = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::by_clone())?;
    let scratch = universe.create_typed_keyval(ObjectKind::Comm, TypedCopy::<Scratch>::Never)?;

    let solver_comm = universe.comm_dup(Comm::WORLD)?;
    universe.set_typed(
        solver_comm,
        &settings,
        Settings {
            tolerance: 1e-10,
            max_iterations: 500,
        },
    )?;
    universe.set_typed(solver_comm, &scratch, Scratch(vec![0.0; 1024]))?;

    // A library duplicates the communicator: the settings come along, the scratch does not.
    let library_comm = universe.comm_dup(solver_comm)?;
    let inherited = universe.get_typed(library_comm, &settings)?;
    println!("the duplicate's settings: {inherited:?}");
    assert_eq!(inherited.as_deref().map(|s| s.max_iterations), Some(500));
    assert!(universe.get_typed(library_comm, &scratch)?.is_none());

    universe.comm_free(library_comm)?;
    universe.comm_free(solver_comm)?; // drops the scratch buffer
    universe.free_typed_keyval(settings)?;
    universe.free_typed_keyval(scratch)?;
    Ok(())
}
