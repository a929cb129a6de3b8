//! The persistent collectives of MPI-4 (MPI-4.1 §6.13: MPI_Barrier_init, MPI_Bcast_init, ...
//! MPI_Exscan_init) and their large-count forms.
//!
//! An init call checks its arguments as the blocking form does (the same body runs with the
//! move recorded instead of done, [`coll::recording`]), and returns an inactive persistent
//! request of the engine ([`Universe::collective_init`](crate::engine::Universe)) that keeps
//! the two blocks the collective moves: the send block, packed at each `MPI_Start`
//! ([`Universe::start_buffer`](crate::engine::Universe) names it), and the receive block, into
//! which the wait that completes the start delivers it. So every start moves the data the send
//! buffer holds at that start, as on a real MPI. `MPI_Request_free` frees an inactive one.

use super::handles::{self, encode_handle};
use super::{coll, universe, Out};
use crate::abi::{MPI_Comm, MPI_Info, MPI_Request};
use crate::engine::Result;

/// Checks `info`, runs the blocking body recording its move, and sets `*request` to an
/// inactive persistent request that redoes the move at each start.
fn planned(
    comm: MPI_Comm,
    info: MPI_Info,
    request: &mut Out<MPI_Request>,
    run: impl FnOnce() -> Result<()>,
) -> Result<()> {
    let universe = universe()?;
    let comm_handle = handles::comm(comm)?;
    handles::info_or_null(info)?;
    let (send, recv) = coll::recording(run)?.unzip();
    let made = universe.collective_init(comm_handle, send, recv)?;
    request.set(encode_handle(made));
    Ok(())
}

// The bodies of the entry points are generated too, one per `runs=` line of
// bindings/functions.txt (see `forwarding_bodies` in bindings/generate_c.rs): each calls the
// helper above with the blocking function's body.
include!(concat!(env!("OUT_DIR"), "/coll_persistent_bodies.rs"));
