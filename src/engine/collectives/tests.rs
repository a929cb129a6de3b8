use std::sync::Arc;

use super::*;
use crate::engine::{ErrorClass, HandleProblem, PredefinedOp, ThreadLevel};
use BasicKind::*;

struct Fixture {
    universe: Universe,
    int: Datatype,
    double: Datatype,
    float_int: Datatype,
    /// A committed contiguous pair of ints.
    two_ints: Datatype,
    uncommitted: Datatype,
    freed: Datatype,
    freed_comm: Comm,
}

fn fixture() -> Fixture {
    let universe = Universe::new(ThreadLevel::Single);
    let named = |handle| Universe::predefined_datatype(handle as usize).unwrap();
    let int = named(crate::abi::MPIATTR_HANDLE_MPI_INT);
    let double = named(crate::abi::MPIATTR_HANDLE_MPI_DOUBLE);
    let float_int = named(crate::abi::MPIATTR_HANDLE_MPI_FLOAT_INT);
    let two_ints = universe.type_contiguous(2, int).unwrap();
    universe.type_commit(two_ints).unwrap();
    let uncommitted = universe.type_contiguous(2, int).unwrap();
    let freed = universe.type_contiguous(2, int).unwrap();
    universe.type_free(freed).unwrap();
    let freed_comm = universe.comm_dup(Comm::WORLD).unwrap();
    universe.comm_free(freed_comm).unwrap();
    Fixture {
        universe,
        int,
        double,
        float_int,
        two_ints,
        uncommitted,
        freed,
        freed_comm,
    }
}

fn side(count: i64, datatype: Datatype, signature: &[BasicKind]) -> Side<'_> {
    Side::Data {
        count,
        datatype,
        signature,
    }
}

fn class<T: std::fmt::Debug>(result: Result<T>) -> ErrorClass {
    result.unwrap_err().class()
}

#[test]
fn barrier_and_bcast() {
    let f = fixture();
    let u = &f.universe;
    u.barrier(Comm::WORLD).unwrap();
    u.barrier(Comm::SELF).unwrap();
    assert_eq!(
        u.barrier(f.freed_comm),
        Err(Error::InvalidHandle(ObjectKind::Comm, HandleProblem::Freed))
    );
    let ints = side(4, f.int, &[I32]);
    u.bcast(Comm::WORLD, ints, 0).unwrap();
    u.bcast(Comm::WORLD, side(0, f.int, &[I32]), 0).unwrap();
    assert_eq!(class(u.bcast(f.freed_comm, ints, 0)), ErrorClass::Comm);
    assert_eq!(u.bcast(Comm::WORLD, ints, 1), Err(Error::InvalidRoot(1)));
    assert_eq!(class(u.bcast(Comm::WORLD, ints, -1)), ErrorClass::Root);
    // MPI_ROOT and MPI_PROC_NULL belong to intercommunicators, which do not exist.
    assert_eq!(class(u.bcast(Comm::WORLD, ints, -4)), ErrorClass::Root);
    assert_eq!(
        class(u.bcast(Comm::WORLD, Side::InPlace, 0)),
        ErrorClass::Buffer
    );
    assert_eq!(
        u.bcast(Comm::WORLD, side(-1, f.int, &[I32]), 0),
        Err(Error::InvalidCount)
    );
    assert_eq!(
        class(u.bcast(Comm::WORLD, side(1, f.freed, &[I32, I32]), 0)),
        ErrorClass::Type
    );
    assert_eq!(
        u.bcast(Comm::WORLD, side(1, f.uncommitted, &[I32, I32]), 0),
        Err(Error::NotCommitted)
    );
    // The communicator is checked first, then the root, then the buffer.
    assert_eq!(
        class(u.bcast(f.freed_comm, Side::InPlace, 3)),
        ErrorClass::Comm
    );
    assert_eq!(
        class(u.bcast(Comm::WORLD, Side::InPlace, 3)),
        ErrorClass::Root
    );
}

/// The rules shared by Gather, Allgather and Alltoall (send may be in place, receive not),
/// and Scatter (the other way round), through one function each.
#[test]
fn gather_scatter_allgather_alltoall() {
    let f = fixture();
    let u = &f.universe;
    type Call<'a> = Box<dyn Fn(Side<'_>, Side<'_>) -> Result<Option<Transfer>> + 'a>;
    let with_root = |root: i32| -> Vec<(&str, Call<'_>, bool)> {
        vec![
            (
                "gather",
                Box::new(move |s, r| u.gather(Comm::WORLD, s, r, root)),
                true,
            ),
            (
                "scatter",
                Box::new(move |s, r| u.scatter(Comm::WORLD, s, r, root)),
                false,
            ),
        ]
    };
    let mut calls = with_root(0);
    calls.push((
        "allgather",
        Box::new(|s, r| u.allgather(Comm::SELF, s, r)),
        true,
    ));
    calls.push((
        "alltoall",
        Box::new(|s, r| u.alltoall(Comm::SELF, s, r)),
        true,
    ));
    let ints = |n| side(n, f.int, &[I32]);
    for (name, call, send_in_place) in &calls {
        // Data moves: 6 ints become 3 pairs of ints.
        let moved = call(ints(6), side(3, f.two_ints, &[I32, I32])).unwrap();
        assert_eq!(
            moved,
            Some(Transfer {
                send_count: 6,
                send_displacement: 0,
                recv_count: 3,
                recv_displacement: 0,
                bytes: 24
            }),
            "{name}"
        );
        assert_eq!(call(ints(0), ints(0)).unwrap().unwrap().bytes, 0);
        // A float-int pair matches a float followed by an int, not the other way.
        let pair = side(1, f.float_int, &[FloatInt]);
        assert!(call(pair, pair).unwrap().is_some());
        assert_eq!(class(call(pair, side(2, f.int, &[I32]))), ErrorClass::Type);
        // MPI_IN_PLACE on the side that allows it: nothing moves, the other side's
        // arguments are still checked.
        let (place_ok, place_bad) = if *send_in_place {
            (call(Side::InPlace, ints(5)), call(ints(5), Side::InPlace))
        } else {
            (call(ints(5), Side::InPlace), call(Side::InPlace, ints(5)))
        };
        assert_eq!(place_ok, Ok(None), "{name}");
        assert_eq!(class(place_bad), ErrorClass::Buffer, "{name}");
        assert_eq!(
            class(call(Side::InPlace, Side::InPlace)),
            ErrorClass::Buffer
        );
        let bad_other = if *send_in_place {
            call(Side::InPlace, ints(-2))
        } else {
            call(ints(-2), Side::InPlace)
        };
        assert_eq!(bad_other, Err(Error::InvalidCount), "{name}");
        // Counts, datatypes, amounts.
        assert_eq!(call(ints(-1), ints(1)), Err(Error::InvalidCount));
        assert_eq!(call(ints(1), ints(-1)), Err(Error::InvalidCount));
        assert_eq!(
            call(ints(4), ints(3)),
            Err(Error::Truncated {
                length: 16,
                capacity: 12
            }),
            "{name}"
        );
        assert_eq!(class(call(ints(4), ints(3))), ErrorClass::Truncate);
        assert_eq!(call(ints(3), ints(4)), Err(Error::SignatureMismatch));
        assert_eq!(
            call(side(2, f.double, &[F64]), side(4, f.int, &[I32])),
            Err(Error::SignatureMismatch)
        );
        assert_eq!(
            call(side(1, f.uncommitted, &[I32, I32]), ints(2)),
            Err(Error::NotCommitted)
        );
        assert_eq!(
            class(call(ints(2), side(1, f.freed, &[I32, I32]))),
            ErrorClass::Type
        );
    }
    for (name, call, _) in with_root(1) {
        assert_eq!(call(ints(1), ints(1)), Err(Error::InvalidRoot(1)), "{name}");
    }
    assert_eq!(
        class(u.allgather(f.freed_comm, ints(1), ints(1))),
        ErrorClass::Comm
    );
    assert_eq!(
        class(u.gather(f.freed_comm, ints(1), ints(1), 0)),
        ErrorClass::Comm
    );
}

#[test]
fn v_and_w_forms_take_one_count_and_displacement() {
    let f = fixture();
    let u = &f.universe;
    let ints = |n| side(n, f.int, &[I32]);
    let v = |counts: &'static [i64], displs: &'static [i64]| VSide::Data {
        counts,
        displs,
        datatype: f.int,
        signature: &[I32],
    };
    let expected = |send_displacement, recv_displacement| {
        Some(Transfer {
            send_count: 3,
            send_displacement,
            recv_count: 3,
            recv_displacement,
            bytes: 12,
        })
    };
    assert_eq!(
        u.gatherv(Comm::WORLD, ints(3), v(&[3], &[5]), 0).unwrap(),
        expected(0, 5)
    );
    assert_eq!(
        u.scatterv(Comm::WORLD, v(&[3], &[-2]), ints(3), 0).unwrap(),
        expected(-2, 0)
    );
    assert_eq!(
        u.allgatherv(Comm::WORLD, ints(3), v(&[3], &[1])).unwrap(),
        expected(0, 1)
    );
    assert_eq!(
        u.alltoallv(Comm::WORLD, v(&[3], &[4]), v(&[3], &[7]))
            .unwrap(),
        expected(4, 7)
    );
    // In place where allowed.
    assert_eq!(
        u.gatherv(Comm::WORLD, Side::InPlace, v(&[3], &[0]), 0),
        Ok(None)
    );
    assert_eq!(
        u.scatterv(Comm::WORLD, v(&[3], &[0]), Side::InPlace, 0),
        Ok(None)
    );
    assert_eq!(
        u.allgatherv(Comm::WORLD, Side::InPlace, v(&[3], &[0])),
        Ok(None)
    );
    assert_eq!(
        u.alltoallv(Comm::WORLD, VSide::InPlace, v(&[3], &[0])),
        Ok(None)
    );
    // And not where it is not.
    for result in [
        u.gatherv(Comm::WORLD, ints(3), VSide::InPlace, 0),
        u.scatterv(Comm::WORLD, VSide::InPlace, ints(3), 0),
        u.allgatherv(Comm::WORLD, ints(3), VSide::InPlace),
        u.alltoallv(Comm::WORLD, v(&[3], &[0]), VSide::InPlace),
    ] {
        assert_eq!(class(result), ErrorClass::Buffer);
    }
    // One entry per process: exactly one.
    for (counts, displs) in [(&[][..], &[0][..]), (&[3, 3], &[0]), (&[3], &[])] {
        let bad = VSide::Data {
            counts,
            displs,
            datatype: f.int,
            signature: &[I32],
        };
        assert_eq!(
            class(u.gatherv(Comm::WORLD, ints(3), bad, 0)),
            ErrorClass::Arg
        );
    }
    assert_eq!(
        u.gatherv(Comm::WORLD, ints(3), v(&[-3], &[0]), 0),
        Err(Error::InvalidCount)
    );
    assert_eq!(
        u.scatterv(Comm::WORLD, v(&[2], &[0]), ints(3), 0),
        Err(Error::SignatureMismatch)
    );
    assert_eq!(
        class(u.gatherv(Comm::WORLD, ints(3), v(&[3], &[0]), 2)),
        ErrorClass::Root
    );

    // Alltoallw: a datatype per process, displacements in bytes.
    let sig_int: &[&[BasicKind]] = &[&[I32]];
    let sig_pair: &[&[BasicKind]] = &[&[I32, I32]];
    let send = WSide::Data {
        counts: &[4],
        displs: &[8],
        datatypes: &[f.int],
        signatures: sig_int,
    };
    let recv = WSide::Data {
        counts: &[2],
        displs: &[16],
        datatypes: &[f.two_ints],
        signatures: sig_pair,
    };
    assert_eq!(
        u.alltoallw(Comm::WORLD, send, recv).unwrap(),
        Some(Transfer {
            send_count: 4,
            send_displacement: 8,
            recv_count: 2,
            recv_displacement: 16,
            bytes: 16
        })
    );
    assert_eq!(u.alltoallw(Comm::WORLD, WSide::InPlace, recv), Ok(None));
    assert_eq!(
        class(u.alltoallw(Comm::WORLD, send, WSide::InPlace)),
        ErrorClass::Buffer
    );
    let two_types = WSide::Data {
        counts: &[4],
        displs: &[8],
        datatypes: &[f.int, f.int],
        signatures: sig_int,
    };
    assert_eq!(
        class(u.alltoallw(Comm::WORLD, two_types, recv)),
        ErrorClass::Arg
    );
    let uncommitted = WSide::Data {
        counts: &[1],
        displs: &[0],
        datatypes: &[f.uncommitted],
        signatures: sig_pair,
    };
    assert_eq!(
        u.alltoallw(Comm::WORLD, uncommitted, recv),
        Err(Error::NotCommitted)
    );
}

type Reduction<'a> =
    Box<dyn Fn(Place, Place, i64, Datatype, &[BasicKind], Op) -> Result<Option<Transfer>> + 'a>;

#[test]
fn reductions_check_op_count_type_and_places() {
    let f = fixture();
    let u = &f.universe;
    let user = u
        .op_create(
            Arc::new(|_: usize, _: usize, _: usize, _: Datatype| {}),
            false,
        )
        .unwrap();
    let calls: Vec<(&str, Reduction<'_>)> = vec![
        (
            "reduce",
            Box::new(|s, r, n, t, sig, op| u.reduce(Comm::WORLD, s, r, n, t, sig, op, 0)),
        ),
        (
            "allreduce",
            Box::new(|s, r, n, t, sig, op| u.allreduce(Comm::WORLD, s, r, n, t, sig, op)),
        ),
        (
            "reduce_scatter_block",
            Box::new(|s, r, n, t, sig, op| {
                u.reduce_scatter_block(Comm::WORLD, s, r, n, t, sig, op)
            }),
        ),
        (
            "reduce_scatter",
            Box::new(|s, r, n, t, sig, op| u.reduce_scatter(Comm::WORLD, s, r, &[n], t, sig, op)),
        ),
        (
            "scan",
            Box::new(|s, r, n, t, sig, op| u.scan(Comm::WORLD, s, r, n, t, sig, op)),
        ),
        (
            "exscan",
            Box::new(|s, r, n, t, sig, op| u.exscan(Comm::WORLD, s, r, n, t, sig, op)),
        ),
    ];
    let (b, p) = (Place::Buffer, Place::InPlace);
    let sum = PredefinedOp::Sum.op();
    for (name, call) in &calls {
        let moved = call(b, b, 5, f.double, &[F64], sum).unwrap();
        if *name == "exscan" {
            // Rank 0's receive buffer is left as it is.
            assert_eq!(moved, None);
        } else {
            assert_eq!(moved, Some(Transfer::plain(5, 5, 40)), "{name}");
        }
        assert_eq!(call(p, b, 5, f.double, &[F64], sum), Ok(None), "{name}");
        assert_eq!(
            class(call(b, p, 5, f.double, &[F64], sum)),
            ErrorClass::Buffer
        );
        assert_eq!(
            class(call(p, p, 5, f.double, &[F64], sum)),
            ErrorClass::Buffer
        );
        assert_eq!(
            call(b, b, -1, f.double, &[F64], sum),
            Err(Error::InvalidCount)
        );
        assert_eq!(
            call(b, b, 1, f.uncommitted, &[I32, I32], sum),
            Err(Error::NotCommitted)
        );
        assert_eq!(
            class(call(b, b, 1, f.freed, &[I32, I32], sum)),
            ErrorClass::Type
        );
        // The op must be defined on the datatype; MINLOC on pairs; a user op on anything.
        for op in [
            PredefinedOp::Band,
            PredefinedOp::Minloc,
            PredefinedOp::Replace,
        ] {
            assert_eq!(
                class(call(b, b, 5, f.double, &[F64], op.op())),
                ErrorClass::Op,
                "{name} {op}"
            );
        }
        call(b, b, 2, f.float_int, &[FloatInt], PredefinedOp::Maxloc.op()).unwrap();
        call(b, b, 2, f.float_int, &[FloatInt], user).unwrap();
        call(b, b, 2, f.two_ints, &[I32, I32], PredefinedOp::Lxor.op()).unwrap();
        let null = Op(crate::engine::Id::from_parts(9999, 1));
        assert_eq!(
            call(b, b, 2, f.int, &[I32], null),
            Err(Error::InvalidOp(HandleProblem::Unknown))
        );
    }
    u.op_free(user).unwrap();
    for (_, call) in &calls {
        assert_eq!(class(call(b, b, 2, f.int, &[I32], user)), ErrorClass::Op);
    }
    assert_eq!(
        u.reduce(Comm::WORLD, b, b, 1, f.int, &[I32], sum, 1),
        Err(Error::InvalidRoot(1))
    );
    assert_eq!(
        class(u.allreduce(f.freed_comm, b, b, 1, f.int, &[I32], sum)),
        ErrorClass::Comm
    );
    for counts in [&[][..], &[1, 1]] {
        assert_eq!(
            class(u.reduce_scatter(Comm::WORLD, b, b, counts, f.int, &[I32], sum)),
            ErrorClass::Arg
        );
    }
}

#[test]
fn transfers_copy_packed_data() {
    let f = fixture();
    let u = &f.universe;
    let send: Vec<u8> = (1..=24).collect();
    let moved = u
        .allgather(
            Comm::WORLD,
            side(6, f.int, &[I32]),
            side(3, f.two_ints, &[I32, I32]),
        )
        .unwrap()
        .unwrap();
    let mut recv = vec![0u8; moved.bytes];
    moved.copy(&send, &mut recv).unwrap();
    assert_eq!(recv, send);
    let mut short = vec![0u8; 8];
    assert_eq!(class(moved.copy(&send, &mut short)), ErrorClass::Intern);
    assert_eq!(short, [0; 8]);
    assert_eq!(class(moved.copy(&send[..8], &mut recv)), ErrorClass::Intern);
}

#[test]
fn signatures_must_fit_their_datatypes() {
    let f = fixture();
    // A signature of another size than the datatype is a shell bug: MPI_ERR_INTERN.
    let error = f
        .universe
        .bcast(Comm::WORLD, side(1, f.int, &[F64]), 0)
        .unwrap_err();
    assert_eq!(error.class(), ErrorClass::Intern);
}

#[test]
fn nonblocking_requests_are_complete_at_birth() {
    let f = fixture();
    let u = &f.universe;
    let before = u.request_count().unwrap();
    let request = u.collective_request().unwrap();
    assert_eq!(u.request_count().unwrap(), before + 1);
    let done = u.test(Some(request)).unwrap().expect("complete at once");
    assert!(done.freed);
    assert!(done.delivery.is_none());
    assert_eq!(u.request_count().unwrap(), before);
    // A shell that fails after making one drops it: nothing is left behind.
    let dropped = u.collective_request().unwrap();
    u.request_complete(dropped).unwrap();
    assert_eq!(u.request_count().unwrap(), before);
}

#[test]
fn persistent_collectives_move_at_each_start() {
    let f = fixture();
    let u = &f.universe;
    let before = u.request_count().unwrap();
    let block = |bytes| UserBuffer {
        address: 0x1000,
        count: 2,
        datatype: f.int,
        bytes,
        layout: None,
    };
    // A bad communicator, or blocks of different sizes (a shell bug), make nothing.
    assert_eq!(
        class(u.collective_init(f.freed_comm, Some(block(8)), Some(block(8)))),
        ErrorClass::Comm
    );
    assert_eq!(
        class(u.collective_init(Comm::WORLD, Some(block(8)), Some(block(4)))),
        ErrorClass::Intern
    );
    assert_eq!(u.request_count().unwrap(), before);

    let request = u
        .collective_init(Comm::WORLD, Some(block(8)), Some(block(8)))
        .unwrap();
    assert_eq!(u.start_buffer(request).unwrap(), Some(block(8)));
    // Inactive until started: a wait reports an empty status and keeps it.
    let idle = u.wait(Some(request)).unwrap();
    assert!(!idle.freed && idle.delivery.is_none());
    for round in 1..=2u8 {
        u.start(request, vec![round; 8]).unwrap();
        // Started twice without completing: refused, still the first start's data.
        assert_eq!(class(u.start(request, vec![9; 8])), ErrorClass::Request);
        let done = u.wait(Some(request)).unwrap();
        assert!(!done.freed);
        let delivery = done.delivery.expect("the receive block gets the data");
        assert_eq!(delivery.buffer, block(8));
        assert_eq!(delivery.bytes, vec![round; 8]);
    }
    // Data of another size than the send block is a shell bug, and starts nothing.
    assert_eq!(class(u.start(request, vec![0; 3])), ErrorClass::Intern);
    assert!(u.wait(Some(request)).unwrap().delivery.is_none());
    u.request_free(request).unwrap();
    assert_eq!(u.request_count().unwrap(), before);

    // Nothing moves (in place, a broadcast): starts with no data, completes with no delivery.
    let empty = u.collective_init(Comm::WORLD, None, None).unwrap();
    assert_eq!(u.start_buffer(empty).unwrap(), None);
    u.startall(vec![(empty, Vec::new())]).unwrap();
    let done = u.wait(Some(empty)).unwrap();
    assert!(!done.freed && done.delivery.is_none());
    u.request_free(empty).unwrap();
    assert_eq!(u.request_count().unwrap(), before);
}
