//! Calls that can never complete under `ThreadLevel::Multiple` (docs/semantics.md
//! "Point-to-point"): they fail at once while the calling thread is the process's only one,
//! and when every other thread is itself waiting in such a call; they wait while another
//! thread can still send. Its own `main` (harness = false), so that no test runner's threads
//! count as threads that could send.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mpiattr::{Comm, Envelope, Error, SendMode, ThreadLevel, Universe, UserBuffer};

fn me(tag: i32) -> Envelope {
    Envelope {
        rank: 0,
        tag,
        comm: Comm::WORLD,
    }
}

fn main() {
    let universe = Arc::new(Universe::new(ThreadLevel::Multiple));
    // Alone: at once.
    let started = Instant::now();
    let alone = universe.recv(UserBuffer::bytes(1), me(1));
    assert!(matches!(alone, Err(Error::NeverCompletes(_))), "{alone:?}");
    let alone = universe.send(SendMode::Synchronous, b"x", me(1));
    assert!(matches!(alone, Err(Error::NeverCompletes(_))), "{alone:?}");
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(universe.pending_messages().unwrap(), 0);
    assert_eq!(universe.request_count().unwrap(), 0, "nothing left behind");

    // A second thread waits for a message while this one can still send it.
    let waiter = {
        let universe = universe.clone();
        std::thread::spawn(move || universe.recv(UserBuffer::bytes(8), me(2)))
    };
    // Once the other thread waits, this one is the last that is not waiting: its own
    // receive that nothing matches fails at once.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        std::thread::sleep(Duration::from_millis(20));
        let mine = universe.recv(UserBuffer::bytes(1), me(3));
        if matches!(mine, Err(Error::NeverCompletes(_))) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the last thread waited: {mine:?}"
        );
    }
    universe
        .send(SendMode::Standard, b"wake up", me(2))
        .unwrap();
    let got = waiter.join().unwrap().unwrap();
    assert_eq!(got.delivery.unwrap().bytes, b"wake up");

    // Two threads waiting for messages nobody sends, and this one waiting too: the last of
    // the three to wait fails; when it then sends one of them their message, the other
    // still waits (this thread can act again), until it is sent its own.
    let threads: Vec<_> = (0..2)
        .map(|i| {
            let universe = universe.clone();
            std::thread::spawn(move || universe.recv(UserBuffer::bytes(1), me(10 + i)))
        })
        .collect();
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(200));
    loop {
        std::thread::sleep(Duration::from_millis(20));
        if matches!(
            universe.recv(UserBuffer::bytes(1), me(3)),
            Err(Error::NeverCompletes(_))
        ) {
            break;
        }
        assert!(Instant::now() < deadline + Duration::from_secs(10));
    }
    for (i, thread) in threads.into_iter().enumerate() {
        universe
            .send(SendMode::Standard, b"!", me(10 + i as i32))
            .unwrap();
        assert_eq!(thread.join().unwrap().unwrap().status.tag, 10 + i as i32);
    }
    println!(
        "never_completes_threads: OK (the last of three threads failed after {:?})",
        started.elapsed()
    );
}
