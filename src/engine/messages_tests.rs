//! Point-to-point and requests with oneself: matching, wildcards, probes, cancellation,
//! truncation, persistence, the wait/test index rules, calls that can never complete,
//! buffered-mode space, generalized and partitioned requests.

use std::sync::{Arc, Mutex};

use super::super::requests::{Completion, GeneralizedRequest, Status, UserBuffer};
use super::super::{Comm, Error, ErrorClass, ThreadLevel, Universe};
use super::*;

fn me(tag: i32) -> Envelope {
    Envelope {
        rank: 0,
        tag,
        comm: Comm::WORLD,
    }
}

fn any() -> Envelope {
    Envelope {
        rank: ANY_SOURCE,
        tag: ANY_TAG,
        comm: Comm::WORLD,
    }
}

fn bytes(c: &Completion) -> &[u8] {
    &c.delivery.as_ref().expect("a receive delivers").bytes
}

fn cap(n: u64) -> UserBuffer {
    UserBuffer::bytes(n)
}

fn universe() -> Universe {
    Universe::new(ThreadLevel::Single)
}

#[test]
fn messages_arrive_in_the_order_sent_per_tag() {
    let u = universe();
    for (tag, data) in [(1, b"a1"), (2, b"b2"), (1, b"c1"), (2, b"d2")] {
        u.send(SendMode::Standard, data, me(tag)).unwrap();
    }
    assert_eq!(u.pending_messages().unwrap(), 4);
    assert_eq!(bytes(&u.recv(cap(8), me(2)).unwrap()), b"b2");
    let got = u.recv(cap(8), any()).unwrap();
    assert_eq!(
        (bytes(&got), got.status.tag, got.status.source),
        (&b"a1"[..], 1, 0)
    );
    assert_eq!(bytes(&u.recv(cap(8), me(2)).unwrap()), b"d2");
    assert_eq!(bytes(&u.recv(cap(8), me(ANY_TAG)).unwrap()), b"c1");
    assert_eq!(u.pending_messages().unwrap(), 0);
}

#[test]
fn a_send_goes_to_the_oldest_matching_posted_receive() {
    let u = universe();
    let tag5 = u.irecv(cap(8), me(5)).unwrap();
    let wild = u.irecv(cap(8), any()).unwrap();
    let tag5_again = u.irecv(cap(8), me(5)).unwrap();
    u.send(SendMode::Standard, b"x", me(7)).unwrap();
    u.send(SendMode::Standard, b"y", me(5)).unwrap();
    u.send(SendMode::Standard, b"z", me(5)).unwrap();
    assert_eq!(bytes(&u.wait(Some(wild)).unwrap()), b"x");
    assert_eq!(bytes(&u.wait(Some(tag5)).unwrap()), b"y");
    let last = u.wait(Some(tag5_again)).unwrap();
    assert_eq!((bytes(&last), last.status.tag), (&b"z"[..], 5));
    assert!(last.freed);
    assert_eq!(u.wait(Some(tag5)).unwrap_err(), Error::InvalidRequest);
}

#[test]
fn each_communicator_is_its_own_context() {
    let u = universe();
    let dup = u.comm_dup(Comm::WORLD).unwrap();
    let on_dup = Envelope {
        rank: 0,
        tag: 1,
        comm: dup,
    };
    u.send(SendMode::Standard, b"dup", on_dup).unwrap();
    assert_eq!(u.iprobe(any()).unwrap(), None);
    assert_eq!(u.iprobe(me(1)).unwrap(), None);
    let status = u.iprobe(on_dup).unwrap().unwrap();
    assert_eq!((status.bytes, status.tag), (3, 1));
    assert!(u
        .iprobe(Envelope {
            comm: Comm::SELF,
            ..on_dup
        })
        .unwrap()
        .is_none());
    assert_eq!(bytes(&u.recv(cap(3), on_dup).unwrap()), b"dup");
    u.comm_free(dup).unwrap();
    let error = u.send(SendMode::Standard, b"", on_dup).unwrap_err();
    assert_eq!(error.class(), ErrorClass::Comm);
}

#[test]
fn ranks_and_tags_are_checked() {
    let u = universe();
    for (envelope, class) in [
        (Envelope { rank: 1, ..me(0) }, ErrorClass::Rank),
        (
            Envelope {
                rank: ANY_SOURCE,
                ..me(0)
            },
            ErrorClass::Rank,
        ),
        (me(-5), ErrorClass::Tag),
        (me(ANY_TAG), ErrorClass::Tag),
    ] {
        let error = u.send(SendMode::Standard, b"", envelope).unwrap_err();
        assert_eq!(error.class(), class, "{envelope:?}");
        assert_eq!(
            u.isend(SendMode::Standard, vec![], envelope)
                .unwrap_err()
                .class(),
            class
        );
    }
    assert_eq!(
        u.irecv(cap(1), me(-7)).unwrap_err().class(),
        ErrorClass::Tag
    );
    let error = u.irecv(cap(1), Envelope { rank: 2, ..me(0) }).unwrap_err();
    assert_eq!(error, Error::InvalidRank(2));
    let negative = UserBuffer {
        count: -1,
        ..cap(0)
    };
    assert_eq!(
        u.irecv(negative, me(0)).unwrap_err().class(),
        ErrorClass::Count
    );
    assert_eq!(u.pending_messages().unwrap(), 0);
    assert_eq!(u.request_count().unwrap(), 0);
    // The largest tag is MPI_TAG_UB's value.
    u.send(SendMode::Standard, b"", me(TAG_UB)).unwrap();
    assert_eq!(u.recv(cap(0), me(TAG_UB)).unwrap().status.tag, TAG_UB);
}

#[test]
fn proc_null_is_a_no_op_with_its_status() {
    let u = universe();
    let null = Envelope {
        rank: PROC_NULL,
        tag: -99,
        comm: Comm::WORLD,
    };
    u.send(SendMode::Synchronous, b"lost", null).unwrap();
    u.send(SendMode::Ready, b"lost", null).unwrap();
    let got = u.recv(cap(4), null).unwrap();
    assert_eq!(got.status, Status::proc_null());
    assert_eq!(
        (got.status.source, got.status.tag, got.status.bytes),
        (PROC_NULL, ANY_TAG, 0)
    );
    assert_eq!(u.probe(null).unwrap(), Status::proc_null());
    let (handle, _) = u.mprobe(null).unwrap();
    assert_eq!(handle, MessageHandle::NoProc);
    assert_eq!(u.mrecv(handle, cap(1)).unwrap().status, Status::proc_null());
    let receive = u.irecv(cap(1), null).unwrap();
    assert_eq!(u.wait(Some(receive)).unwrap().status, Status::proc_null());
    assert_eq!(u.pending_messages().unwrap(), 0);
}

#[test]
fn truncation_delivers_what_fits() {
    let u = universe();
    u.send(SendMode::Standard, b"hello", me(0)).unwrap();
    let got = u.recv(cap(3), me(0)).unwrap();
    assert_eq!(bytes(&got), b"hel");
    assert_eq!(got.status.bytes, 3);
    assert_eq!(got.status.error, ErrorClass::Truncate as i32);
    let error = got.error.unwrap();
    assert_eq!(error.class(), ErrorClass::Truncate);
    assert_eq!(
        error.to_string(),
        "5 bytes of data for 3 bytes of room: truncated"
    );
    // Posted first, truncated at the send.
    let receive = u.irecv(cap(2), me(0)).unwrap();
    u.send(SendMode::Standard, b"abc", me(0)).unwrap();
    let got = u.wait(Some(receive)).unwrap();
    assert_eq!(
        (bytes(&got), got.error.as_ref().map(|e| e.class())),
        (&b"ab"[..], Some(ErrorClass::Truncate))
    );
}

#[test]
fn probes_see_without_taking_and_matching_probes_take() {
    let u = universe();
    assert_eq!(u.iprobe(any()).unwrap(), None);
    u.send(SendMode::Standard, b"one", me(3)).unwrap();
    u.send(SendMode::Standard, b"two!", me(4)).unwrap();
    let status = u.probe(me(4)).unwrap();
    assert_eq!((status.tag, status.bytes, status.source), (4, 4, 0));
    assert_eq!(u.pending_messages().unwrap(), 2);
    let (handle, status) = u.mprobe(any()).unwrap();
    assert_eq!((status.tag, status.bytes), (3, 3));
    // The matched message is no longer in the queue: a receive gets the next one.
    assert_eq!(u.iprobe(any()).unwrap().unwrap().tag, 4);
    assert_eq!(bytes(&u.mrecv(handle, cap(8)).unwrap()), b"one");
    assert_eq!(u.mrecv(handle, cap(8)).unwrap_err(), Error::InvalidMessage);
    let (handle, _) = u.improbe(any()).unwrap().unwrap();
    let request = u.imrecv(handle, cap(2)).unwrap();
    let got = u.wait(Some(request)).unwrap();
    assert_eq!(
        (bytes(&got), got.error.as_ref().map(|e| e.class())),
        (&b"tw"[..], Some(ErrorClass::Truncate))
    );
    assert_eq!(u.improbe(any()).unwrap(), None);
}

#[test]
fn an_unmatched_send_can_be_cancelled_and_a_matched_one_cannot() {
    let u = universe();
    let first = u
        .isend(SendMode::Standard, b"first".to_vec(), me(1))
        .unwrap();
    let second = u
        .isend(SendMode::Standard, b"second".to_vec(), me(1))
        .unwrap();
    let _ = u.recv(cap(8), me(1)).unwrap();
    u.cancel(first).unwrap();
    u.cancel(second).unwrap();
    assert!(!u.wait(Some(first)).unwrap().status.cancelled);
    let cancelled = u.wait(Some(second)).unwrap();
    assert!(cancelled.status.cancelled && cancelled.freed);
    assert_eq!(u.pending_messages().unwrap(), 0);
    // A synchronous send is cancelled while active; a receive likewise.
    let sync = u
        .isend(SendMode::Synchronous, b"s".to_vec(), me(2))
        .unwrap();
    assert_eq!(u.test(Some(sync)).unwrap(), None);
    u.cancel(sync).unwrap();
    assert!(u.test(Some(sync)).unwrap().unwrap().status.cancelled);
    let receive = u.irecv(cap(1), me(2)).unwrap();
    u.cancel(receive).unwrap();
    u.send(SendMode::Standard, b"r", me(2)).unwrap();
    let got = u.wait(Some(receive)).unwrap();
    assert!(got.status.cancelled && got.delivery.is_none());
    assert_eq!(
        u.pending_messages().unwrap(),
        1,
        "the cancelled receive took nothing"
    );
}

#[test]
fn synchronous_sends_complete_when_matched() {
    let u = universe();
    let sync = u
        .isend(SendMode::Synchronous, b"s".to_vec(), me(0))
        .unwrap();
    assert_eq!(u.test(Some(sync)).unwrap(), None);
    assert!(matches!(u.wait(Some(sync)), Err(Error::NeverCompletes(_))));
    let (handle, _) = u.mprobe(me(0)).unwrap();
    let done = u.test(Some(sync)).unwrap().unwrap();
    assert!(done.freed && !done.status.cancelled);
    assert_eq!(bytes(&u.mrecv(handle, cap(1)).unwrap()), b"s");
    // A blocking synchronous send to a posted receive completes at once.
    let receive = u.irecv(cap(1), me(0)).unwrap();
    u.send(SendMode::Synchronous, b"t", me(0)).unwrap();
    assert_eq!(bytes(&u.wait(Some(receive)).unwrap()), b"t");
}

#[test]
fn ready_sends_need_a_posted_receive() {
    let u = universe();
    assert_eq!(
        u.send(SendMode::Ready, b"r", me(0)),
        Err(Error::ReadyNotPosted)
    );
    assert_eq!(
        u.isend(SendMode::Ready, b"r".to_vec(), me(0)),
        Err(Error::ReadyNotPosted)
    );
    assert_eq!(u.pending_messages().unwrap(), 0);
    assert_eq!(u.request_count().unwrap(), 0);
    let receive = u.irecv(cap(1), me(0)).unwrap();
    u.send(SendMode::Ready, b"r", me(0)).unwrap();
    assert_eq!(bytes(&u.wait(Some(receive)).unwrap()), b"r");
}

#[test]
fn calls_that_can_never_complete_fail_at_once_and_change_nothing() {
    let u = universe();
    for error in [
        u.recv(cap(1), any()).unwrap_err(),
        u.send(SendMode::Synchronous, b"x", me(0)).unwrap_err(),
        u.probe(any()).map(drop).unwrap_err(),
        u.mprobe(any()).map(drop).unwrap_err(),
        u.sendrecv(b"x".to_vec(), me(1), cap(1), me(2))
            .map(drop)
            .unwrap_err(),
    ] {
        assert!(matches!(error, Error::NeverCompletes(_)), "{error}");
        assert_eq!(error.class(), ErrorClass::Other);
        assert!(
            error.to_string().ends_with("it would wait forever"),
            "{error}"
        );
    }
    assert_eq!(u.pending_messages().unwrap(), 0);
    let pending = u.irecv(cap(1), me(9)).unwrap();
    u.send(SendMode::Standard, b"a", me(1)).unwrap();
    let sent = u.isend(SendMode::Standard, b"b".to_vec(), me(1)).unwrap();
    let error = u.waitall(&[Some(sent), Some(pending)]).unwrap_err();
    assert!(matches!(error, Error::NeverCompletes(_)));
    // Nothing was reported: the send's request is still there.
    assert!(u.test(Some(sent)).unwrap().unwrap().freed);
    assert!(matches!(
        u.waitany(&[Some(pending)]),
        Err(Error::NeverCompletes(_))
    ));
    assert!(matches!(
        u.waitsome(&[Some(pending)]),
        Err(Error::NeverCompletes(_))
    ));
    // A sendrecv whose receive takes its own message works.
    let got = u.sendrecv(b"self".to_vec(), me(4), cap(4), me(4)).unwrap();
    assert_eq!(bytes(&got), b"self");
}

#[test]
fn persistent_requests_restart() {
    let u = universe();
    let send = u.send_init(SendMode::Standard, cap(2), me(6)).unwrap();
    let receive = u.recv_init(cap(2), me(6)).unwrap();
    assert_eq!(u.request_buffer(send).unwrap(), Some(cap(2)));
    // Inactive: a wait returns an empty status at once and nothing changes.
    assert_eq!(u.wait(Some(receive)).unwrap(), Completion::empty());
    assert!(!u.request_is_active(receive).unwrap());
    for round in 0..3u8 {
        u.startall(vec![(receive, vec![]), (send, vec![round, round])])
            .unwrap();
        assert!(
            u.start(send, vec![]).is_err(),
            "an active request cannot start"
        );
        let all = u.waitall(&[Some(send), Some(receive)]).unwrap();
        assert_eq!(bytes(&all[1]), [round, round]);
        assert!(!all[0].freed && !all[1].freed);
    }
    u.request_free(send).unwrap();
    u.request_free(receive).unwrap();
    assert_eq!(u.request_count().unwrap(), 0);
    assert_eq!(u.start(send, vec![]), Err(Error::InvalidRequest));
    // A persistent ready send with no receive stays inactive.
    let ready = u.send_init(SendMode::Ready, cap(0), me(0)).unwrap();
    assert_eq!(u.start(ready, vec![]), Err(Error::ReadyNotPosted));
    assert!(!u.request_is_active(ready).unwrap());
}

#[test]
fn any_and_some_skip_null_and_inactive_requests() {
    let u = universe();
    let inactive = u.recv_init(cap(1), me(0)).unwrap();
    assert_eq!(u.waitany(&[None, Some(inactive)]).unwrap(), None);
    assert_eq!(u.testany(&[None, Some(inactive)]).unwrap(), (true, None));
    assert_eq!(u.waitsome(&[None, Some(inactive)]).unwrap(), None);
    assert_eq!(u.testsome(&[]).unwrap(), None);
    assert_eq!(u.request_get_status_any(&[None]).unwrap(), (true, None));
    let a = u.irecv(cap(1), me(1)).unwrap();
    let b = u.irecv(cap(1), me(2)).unwrap();
    let c = u.irecv(cap(1), me(3)).unwrap();
    let list = [None, Some(a), Some(inactive), Some(b), Some(c)];
    assert_eq!(u.testany(&list).unwrap(), (false, None));
    assert_eq!(u.testsome(&list).unwrap(), Some(vec![]));
    assert_eq!(u.testall(&list).unwrap(), None);
    u.send(SendMode::Standard, b"c", me(3)).unwrap();
    u.send(SendMode::Standard, b"b", me(2)).unwrap();
    let statuses = u.request_get_status_some(&list).unwrap().unwrap();
    assert_eq!(statuses.iter().map(|s| s.0).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(u.request_get_status(Some(b)).unwrap().unwrap().tag, 2);
    let (index, first) = u.waitany(&list).unwrap().unwrap();
    assert_eq!((index, bytes(&first)), (3, &b"b"[..]));
    let list = [None, Some(a), Some(inactive), None, Some(c)];
    let some = u.waitsome(&list).unwrap().unwrap();
    assert_eq!(some.len(), 1);
    assert_eq!((some[0].0, bytes(&some[0].1)), (4, &b"c"[..]));
    u.send(SendMode::Standard, b"a", me(1)).unwrap();
    let all = u
        .testall(&[None, Some(a), Some(inactive)])
        .unwrap()
        .unwrap();
    assert_eq!(all[0], Completion::empty());
    assert_eq!(bytes(&all[1]), b"a");
    assert_eq!(all[2], Completion::empty());
}

#[test]
fn freed_active_requests_complete_later() {
    let u = universe();
    let receive = u.irecv(cap(4), me(0)).unwrap();
    u.request_free(receive).unwrap();
    assert_eq!(u.request_count().unwrap(), 1);
    u.send(SendMode::Standard, b"gone", me(0)).unwrap();
    assert_eq!(u.request_count().unwrap(), 0);
    assert_eq!(
        u.pending_messages().unwrap(),
        0,
        "the freed receive took the message"
    );
    let send = u
        .isend(SendMode::Standard, b"kept".to_vec(), me(0))
        .unwrap();
    u.request_free(send).unwrap();
    assert_eq!(bytes(&u.recv(cap(4), me(0)).unwrap()), b"kept");
}

#[test]
fn buffered_sends_account_their_space() {
    let u = universe();
    assert_eq!(
        u.send(SendMode::Buffered, b"x", me(0)),
        Err(Error::NoBuffer)
    );
    assert_eq!(Error::NoBuffer.class(), ErrorClass::Buffer);
    let size = 2 * BSEND_OVERHEAD + 150;
    let memory = AttachedBuffer::Memory {
        address: 0x1000,
        size,
    };
    u.buffer_attach(BufferScope::Process, memory).unwrap();
    assert_eq!(
        u.buffer_attach(BufferScope::Process, memory),
        Err(Error::BufferAttached)
    );
    u.send(SendMode::Buffered, &[1; 100], me(0)).unwrap();
    assert_eq!(
        u.buffer_usage(BufferScope::Process).unwrap(),
        Some((100 + BSEND_OVERHEAD, size))
    );
    let error = u.send(SendMode::Buffered, &[2; 100], me(0)).unwrap_err();
    assert_eq!(
        error,
        Error::BufferSpace {
            needed: 100 + BSEND_OVERHEAD,
            free: 50 + BSEND_OVERHEAD
        }
    );
    assert_eq!(error.class(), ErrorClass::Buffer);
    let small = u.isend(SendMode::Buffered, vec![3; 50], me(0)).unwrap();
    assert_eq!(
        u.buffer_usage(BufferScope::Process).unwrap(),
        Some((size, size))
    );
    // Cancelling frees its space; receiving frees the other's.
    u.cancel(small).unwrap();
    assert!(u.wait(Some(small)).unwrap().status.cancelled);
    let _ = u.recv(cap(100), me(0)).unwrap();
    assert_eq!(
        u.buffer_usage(BufferScope::Process).unwrap(),
        Some((0, size))
    );
    // A communicator's own buffer comes first; detach hands pending messages over.
    let dup = u.comm_dup(Comm::WORLD).unwrap();
    let on_dup = Envelope { comm: dup, ..me(0) };
    u.buffer_attach(BufferScope::Comm(dup), AttachedBuffer::Automatic)
        .unwrap();
    u.send(SendMode::Buffered, &[0; 10_000], on_dup).unwrap();
    u.send(SendMode::Buffered, &[4; 10], me(0)).unwrap();
    assert_eq!(
        u.buffer_usage(BufferScope::Process).unwrap(),
        Some((10 + BSEND_OVERHEAD, size))
    );
    assert_eq!(u.buffer_detach(BufferScope::Process).unwrap(), Some(memory));
    assert_eq!(u.buffer_detach(BufferScope::Process).unwrap(), None);
    assert_eq!(bytes(&u.recv(cap(10), me(0)).unwrap()), [4; 10]);
    u.buffer_flush(BufferScope::Comm(dup)).unwrap();
    assert_eq!(
        u.buffer_usage(BufferScope::Comm(dup)).unwrap(),
        Some((0, usize::MAX))
    );
    let flushed = u.buffer_iflush(BufferScope::Comm(dup)).unwrap();
    assert!(u.test(Some(flushed)).unwrap().unwrap().freed);
    assert_eq!(u.recv(cap(10_000), on_dup).unwrap().status.bytes, 10_000);
}

#[derive(Default)]
struct Log(Mutex<Vec<String>>);

struct Callbacks {
    log: Arc<Log>,
    query_code: i32,
}

impl GeneralizedRequest for Callbacks {
    fn query(&self, _: &Universe) -> std::result::Result<Status, i32> {
        self.log.0.lock().unwrap().push("query".into());
        if self.query_code != 0 {
            return Err(self.query_code);
        }
        Ok(Status {
            source: 0,
            tag: 42,
            bytes: 8,
            ..Status::empty()
        })
    }
    fn free(&self, _: &Universe) -> std::result::Result<(), i32> {
        self.log.0.lock().unwrap().push("free".into());
        Ok(())
    }
    fn cancel(&self, _: &Universe, complete: bool) -> std::result::Result<(), i32> {
        self.log
            .0
            .lock()
            .unwrap()
            .push(format!("cancel {complete}"));
        Ok(())
    }
}

#[test]
fn generalized_requests_call_their_callbacks() {
    let u = universe();
    let log = Arc::new(Log::default());
    let start = |code| {
        u.grequest_start(Arc::new(Callbacks {
            log: log.clone(),
            query_code: code,
        }))
        .unwrap()
    };
    let request = start(0);
    assert_eq!(u.test(Some(request)).unwrap(), None);
    assert!(matches!(
        u.wait(Some(request)),
        Err(Error::NeverCompletes(_))
    ));
    u.cancel(request).unwrap();
    u.grequest_complete(request).unwrap();
    assert_eq!(
        u.request_get_status(Some(request)).unwrap().unwrap().tag,
        42
    );
    let done = u.wait(Some(request)).unwrap();
    assert_eq!(
        (done.status.tag, done.status.bytes, done.freed),
        (42, 8, true)
    );
    assert_eq!(
        *log.0.lock().unwrap(),
        ["cancel false", "query", "query", "free"]
    );
    log.0.lock().unwrap().clear();
    // Freed before completion: its free callback runs at completion, no query.
    let request = start(0);
    u.request_free(request).unwrap();
    assert!(log.0.lock().unwrap().is_empty());
    u.grequest_complete(request).unwrap();
    assert_eq!(*log.0.lock().unwrap(), ["free"]);
    assert_eq!(u.request_count().unwrap(), 0);
    // A failing query is the wait's error, in the status too.
    let request = start(ErrorClass::Io as i32);
    u.grequest_complete(request).unwrap();
    assert!(u.grequest_complete(request).is_err());
    let done = u.wait(Some(request)).unwrap();
    assert_eq!(done.error.unwrap().class(), ErrorClass::Io);
    assert_eq!(done.status.error, ErrorClass::Io as i32);
    // Only generalized requests can be completed by the program.
    let receive = u.irecv(cap(1), me(0)).unwrap();
    assert_eq!(
        u.grequest_complete(receive).unwrap_err().class(),
        ErrorClass::Request
    );
}

#[test]
fn partitioned_communication() {
    let u = universe();
    // Four partitions of 2 bytes sent, two of 4 received.
    let send = u.psend_init(4, cap(2), me(8)).unwrap();
    let receive = u.precv_init(2, cap(4), me(8)).unwrap();
    for round in 0..2u8 {
        u.startall(vec![(send, vec![]), (receive, vec![])]).unwrap();
        assert!(!u.parrived(receive, 0).unwrap());
        u.pready(send, &[(1, &[round, 1]), (0, &[round, 0])])
            .unwrap();
        assert!(u.parrived(receive, 0).unwrap());
        assert_eq!(
            u.partition_data(receive, 0).unwrap().unwrap(),
            [round, 0, round, 1]
        );
        assert!(!u.parrived(receive, 1).unwrap());
        assert_eq!(u.test(Some(send)).unwrap(), None);
        assert!(u.pready(send, &[(1, &[0, 0])]).is_err(), "ready twice");
        assert!(u.pready(send, &[(4, &[0, 0])]).is_err(), "out of range");
        assert!(u.pready(send, &[(2, &[0])]).is_err(), "wrong size");
        u.pready(send, &[(2, &[round, 2]), (3, &[round, 3])])
            .unwrap();
        let done = u.waitall(&[Some(send), Some(receive)]).unwrap();
        assert_eq!(bytes(&done[1]), [round, 0, round, 1, round, 2, round, 3]);
    }
    // A receive started after its sender readied everything gets it all at its start.
    u.start(send, vec![]).unwrap();
    u.pready(
        send,
        &[(0, &[9; 2]), (1, &[9; 2]), (2, &[9; 2]), (3, &[9; 2])],
    )
    .unwrap();
    u.start(receive, vec![]).unwrap();
    assert_eq!(bytes(&u.wait(Some(receive)).unwrap()), [9; 8]);
    assert!(!u.wait(Some(send)).unwrap().freed);
    // Rounds pair up by number: a receive started before its sender's next round does not
    // see the last round's partitions.
    u.start(receive, vec![]).unwrap();
    assert!(!u.parrived(receive, 0).unwrap());
    u.start(send, vec![]).unwrap();
    u.pready(
        send,
        &[(0, &[7; 2]), (1, &[7; 2]), (2, &[7; 2]), (3, &[7; 2])],
    )
    .unwrap();
    assert_eq!(bytes(&u.wait(Some(receive)).unwrap()), [7; 8]);
    u.request_free(send).unwrap();
    u.request_free(receive).unwrap();
    assert_eq!(u.request_count().unwrap(), 0);
}

#[test]
fn comm_idup_requests_complete_at_once() {
    let u = universe();
    let (dup, request) = u.comm_idup(Comm::WORLD).unwrap();
    assert!(u.is_valid(dup).unwrap());
    let done = u.wait(Some(request)).unwrap();
    assert_eq!((done.status, done.freed), (Status::empty(), true));
}

#[test]
fn status_setters() {
    let mut status = Status::empty();
    status.set_elements(3, 8).unwrap();
    assert_eq!(
        (status.bytes, status.elements(8), status.elements(16)),
        (24, Some(3), None)
    );
    assert_eq!(status.set_elements(-1, 8), Err(Error::InvalidCount));
    assert_eq!(status.set_elements(i64::MAX, 8), Err(Error::InvalidCount));
    assert_eq!(status.bytes, 24, "a refused count changes nothing");
}

#[test]
fn under_thread_multiple_a_blocked_receive_waits_for_another_thread() {
    let u = Arc::new(Universe::new(ThreadLevel::Multiple));
    let sender = {
        let u = u.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            u.send(SendMode::Synchronous, b"late", me(0)).unwrap();
        })
    };
    let got = u.recv(cap(4), me(0)).unwrap();
    assert_eq!(bytes(&got), b"late");
    sender.join().unwrap();
}

#[test]
fn under_thread_multiple_two_threads_ping_pong_in_order() {
    let u = Arc::new(Universe::new(ThreadLevel::Multiple));
    const ROUNDS: u32 = 300;
    let dup = u.comm_dup(Comm::WORLD).unwrap();
    let pong = Envelope { comm: dup, ..me(0) };
    let partner = {
        let u = u.clone();
        std::thread::spawn(move || {
            for round in 0..ROUNDS {
                let got = u.recv(cap(4), me(0)).unwrap();
                assert_eq!(bytes(&got), round.to_le_bytes());
                u.send(SendMode::Synchronous, &round.to_le_bytes(), pong)
                    .unwrap();
            }
        })
    };
    for round in 0..ROUNDS {
        // Alternately a synchronous send the partner's receive completes, and a standard one.
        let mode = if round % 2 == 0 {
            SendMode::Synchronous
        } else {
            SendMode::Standard
        };
        u.send(mode, &round.to_le_bytes(), me(0)).unwrap();
        let back = u.irecv(cap(4), pong).unwrap();
        let got = u.waitany(&[None, Some(back)]).unwrap().unwrap();
        assert_eq!((got.0, bytes(&got.1)), (1, &round.to_le_bytes()[..]));
    }
    partner.join().unwrap();
    assert_eq!(u.pending_messages().unwrap(), 0);
    assert_eq!(u.request_count().unwrap(), 0);
}

#[test]
fn partitioned_with_proc_null_completes_at_start() {
    let u = universe();
    let null = Envelope {
        rank: PROC_NULL,
        ..me(0)
    };
    let send = u.psend_init(2, cap(1), null).unwrap();
    let receive = u.precv_init(2, cap(1), null).unwrap();
    assert!(u.pready(send, &[(0, &[1])]).is_err(), "not started");
    u.startall(vec![(send, vec![]), (receive, vec![])]).unwrap();
    u.pready(send, &[(0, &[1]), (1, &[2])]).unwrap();
    assert!(u.parrived(receive, 1).unwrap());
    let done = u.waitall(&[Some(send), Some(receive)]).unwrap();
    assert_eq!(done[1].status, Status::proc_null());
}

#[test]
fn freeing_a_communicator_leaves_its_operations_to_complete() {
    let u = universe();
    let dup = u.comm_dup(Comm::WORLD).unwrap();
    let on_dup = Envelope { comm: dup, ..me(0) };
    u.send(SendMode::Standard, b"old", on_dup).unwrap();
    let receive = u.irecv(cap(3), Envelope { tag: 1, ..on_dup }).unwrap();
    u.comm_free(dup).unwrap();
    // The posted receive and the message stay; no new operation can name the communicator.
    assert_eq!(u.pending_messages().unwrap(), 1);
    assert_eq!(u.test(Some(receive)).unwrap(), None);
    assert_eq!(u.iprobe(on_dup).unwrap_err().class(), ErrorClass::Comm);
    // A new communicator is a new context, even in the freed one's slot.
    let other = u.comm_dup(Comm::WORLD).unwrap();
    assert_eq!(
        u.iprobe(Envelope {
            comm: other,
            ..on_dup
        })
        .unwrap(),
        None
    );
    u.cancel(receive).unwrap();
    assert!(u.wait(Some(receive)).unwrap().status.cancelled);
}

#[test]
fn partitioned_with_no_partitions_completes_at_start() {
    let u = universe();
    let send = u.psend_init(0, cap(4), me(5)).unwrap();
    let receive = u.precv_init(0, cap(4), me(5)).unwrap();
    u.startall(vec![(receive, vec![]), (send, vec![])]).unwrap();
    let done = u.waitall(&[Some(send), Some(receive)]).unwrap();
    assert_eq!((done[1].status.tag, done[1].status.bytes), (5, 0));
    assert_eq!(bytes(&done[1]), b"");
    assert!(u.parrived(receive, 0).is_err(), "no partition 0");
}
