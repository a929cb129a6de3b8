//! The nonblocking collectives (MPI-4.1 §6.12: MPI_Ibarrier, MPI_Ibcast, ... MPI_Iexscan) and
//! their large-count forms.
//!
//! On one process a collective needs no other process, so each call does all its work before
//! it returns, exactly as the blocking call does (same checks, same move), and hands back a
//! request that is already complete: MPI_Wait, MPI_Test and their array forms report it with
//! an empty status and free it (MPI_Request_free and MPI_Cancel on it are erroneous, MPI-4.1
//! §6.12; the first frees it, the second does nothing). docs/semantics.md
//! ("Nonblocking and persistent collectives") says why moving the data at the call is allowed. A call that
//! fails leaves `*request` and every buffer as they were, and no request behind.

use super::handles::encode_handle;
use super::{universe, Out};
use crate::abi::MPI_Request;
use crate::engine::Result;

/// Makes the complete request, runs the blocking form, and sets `*request` if it succeeds
/// (the request is dropped if it fails).
fn started(request: &mut Out<MPI_Request>, run: impl FnOnce() -> Result<()>) -> Result<()> {
    let universe = universe()?;
    let made = universe.collective_request()?;
    match run() {
        Ok(()) => {
            request.set(encode_handle(made));
            Ok(())
        }
        Err(error) => {
            universe.request_complete(made)?;
            Err(error)
        }
    }
}

// The bodies of the entry points are generated too, one per `runs=` line of
// bindings/functions.txt (see `forwarding_bodies` in bindings/generate_c.rs): each calls the
// helper above with the blocking function's body.
include!(concat!(env!("OUT_DIR"), "/coll_nonblocking_bodies.rs"));
