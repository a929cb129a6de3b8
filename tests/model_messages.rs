//! Random programs of point-to-point operations with oneself through the Rust API, checked
//! after every operation against a naive reference model of message matching: random sends
//! (standard, buffered, synchronous; blocking, nonblocking or persistent), receives (blocking,
//! posted or persistent, with wildcards and small capacities), probes, matching probes,
//! cancels, starts, tests, waits, waitany and testsome on three communicators, with a small
//! attached buffer; every status, every delivered byte and every error is compared, and the
//! counts of pending messages, live requests and buffer bytes in use.
//!
//! `MODEL_SEED=S` runs only the program of seed S; `MODEL_PROGRAMS=N` sets how many programs
//! run (default 300); a failure names its seed and step.

use mpiattr::{
    AttachedBuffer, BufferScope, Comm, Completion, Envelope, Error, ErrorClass, MessageHandle,
    Request, SendMode, Status, ThreadLevel, Universe, UserBuffer, ANY_SOURCE, ANY_TAG,
    BSEND_OVERHEAD,
};

/// The attached buffer: room for two or three small buffered messages.
const BUFFER: usize = 2 * BSEND_OVERHEAD + 8;

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A message the model has queued.
#[derive(Clone, Debug)]
struct Msg {
    comm: usize,
    tag: i32,
    data: Vec<u8>,
    /// The model request of the nonblocking or persistent send that sent it.
    sender: Option<usize>,
    /// Bytes it holds in the attached buffer.
    buffered: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Expect {
    /// A persistent request not started.
    Inactive,
    Pending,
    Done(Status, Option<Vec<u8>>),
}

#[derive(Clone, Debug)]
enum What {
    Send {
        msg: Option<usize>,
        mode: SendMode,
        comm: usize,
        tag: i32,
    },
    Recv {
        comm: usize,
        tag: i32,
        cap: u64,
    },
}

#[derive(Clone, Debug)]
struct Req {
    handle: Request,
    what: What,
    expect: Expect,
    persistent: bool,
    live: bool,
}

/// The reference: plain vectors scanned front to back.
#[derive(Default)]
struct Model {
    queue: Vec<(usize, Msg)>,
    next_msg: usize,
    posted: Vec<usize>,
    reqs: Vec<Req>,
    buffer_used: usize,
}

fn received(tag: i32, data: &[u8], cap: u64) -> Expect {
    let n = data.len().min(cap as usize);
    let truncated = data.len() as u64 > cap;
    Expect::Done(
        Status {
            source: 0,
            tag,
            error: if truncated {
                ErrorClass::Truncate as i32
            } else {
                0
            },
            bytes: n as u64,
            cancelled: false,
        },
        Some(data[..n].to_vec()),
    )
}

fn tag_ok(want: i32, tag: i32) -> bool {
    want == ANY_TAG || want == tag
}

fn sent() -> Expect {
    Expect::Done(Status::empty(), None)
}

impl Model {
    fn matching_posted(&self, comm: usize, tag: i32) -> Option<usize> {
        (0..self.posted.len()).find(|&i| match self.reqs[self.posted[i]].what {
            What::Recv {
                comm: c, tag: t, ..
            } => c == comm && tag_ok(t, tag),
            _ => false,
        })
    }

    fn matching_msg(&self, comm: usize, tag: i32) -> Option<usize> {
        (0..self.queue.len())
            .find(|&i| self.queue[i].1.comm == comm && tag_ok(tag, self.queue[i].1.tag))
    }

    /// A send: to a posted receive, else queued (a buffered one holding its space, or
    /// refused without it). `Ok(Some(id))`: queued as message `id`.
    fn send(
        &mut self,
        mode: SendMode,
        comm: usize,
        tag: i32,
        data: Vec<u8>,
        sender: Option<usize>,
    ) -> Result<Option<usize>, ()> {
        if let Some(i) = self.matching_posted(comm, tag) {
            let r = self.posted.remove(i);
            if let What::Recv { cap, .. } = self.reqs[r].what {
                self.reqs[r].expect = received(tag, &data, cap);
            }
            return Ok(None);
        }
        let buffered = if mode == SendMode::Buffered {
            let needed = data.len() + BSEND_OVERHEAD;
            if self.buffer_used + needed > BUFFER {
                return Err(());
            }
            self.buffer_used += needed;
            needed
        } else {
            0
        };
        let id = self.next_msg;
        self.next_msg += 1;
        self.queue.push((
            id,
            Msg {
                comm,
                tag,
                data,
                sender,
                buffered,
            },
        ));
        Ok(Some(id))
    }

    /// Takes the queued message at `i`: its space is free, its synchronous sender completes.
    fn take(&mut self, i: usize) -> Msg {
        let (id, msg) = self.queue.remove(i);
        self.buffer_used -= msg.buffered;
        if let Some(s) = msg.sender {
            if let What::Send { msg: m, mode, .. } = &mut self.reqs[s].what {
                if *m == Some(id) {
                    *m = None;
                    if *mode == SendMode::Synchronous {
                        self.reqs[s].expect = sent();
                    }
                }
            }
        }
        msg
    }
}

struct Program {
    u: Universe,
    comms: [Comm; 3],
    m: Model,
    rng: Rng,
}

fn check(c: &Completion, expect: &Expect, what: &str) -> Result<(), String> {
    let (status, data) = match expect {
        Expect::Done(status, data) => (*status, data.clone()),
        Expect::Inactive => (Status::empty(), None),
        Expect::Pending => return Err(format!("{what}: completed, the model says pending")),
    };
    if c.status != status {
        return Err(format!("{what}: status {:?}, model {:?}", c.status, status));
    }
    let got = c.delivery.as_ref().map(|d| d.bytes.clone());
    if got != data {
        return Err(format!("{what}: data {got:?}, model {data:?}"));
    }
    let class = c.error.as_ref().map_or(0, |e| e.class() as i32);
    if class != status.error {
        return Err(format!(
            "{what}: error {:?}, model class {}",
            c.error, status.error
        ));
    }
    Ok(())
}

impl Program {
    fn envelope(&mut self, comm: usize, tag: i32) -> Envelope {
        let any_source = tag == ANY_TAG && self.rng.below(2) == 0;
        Envelope {
            rank: if any_source { ANY_SOURCE } else { 0 },
            tag,
            comm: self.comms[comm],
        }
    }

    fn live(&self) -> Vec<usize> {
        (0..self.m.reqs.len())
            .filter(|&i| self.m.reqs[i].live)
            .collect()
    }

    fn pick_live(&mut self) -> Option<usize> {
        let live = self.live();
        (!live.is_empty()).then(|| live[self.rng.below(live.len() as u64) as usize])
    }

    /// A wait or test reported request `r` with `c`.
    fn report(&mut self, r: usize, c: &Completion, what: &str) -> Result<(), String> {
        check(c, &self.m.reqs[r].expect, what)?;
        let req = &mut self.m.reqs[r];
        if req.persistent {
            if c.freed {
                return Err(format!("{what}: a persistent request was freed"));
            }
            req.expect = Expect::Inactive;
            if let What::Send { msg, .. } = &mut req.what {
                *msg = None;
            }
        } else {
            if !c.freed {
                return Err(format!("{what}: a nonpersistent request was not freed"));
            }
            req.live = false;
        }
        Ok(())
    }

    /// Adds a request the engine made, as `expect` says, and returns its model number.
    fn add(&mut self, handle: Request, what: What, persistent: bool, expect: Expect) -> usize {
        self.m.reqs.push(Req {
            handle,
            what,
            expect,
            persistent,
            live: true,
        });
        self.m.reqs.len() - 1
    }

    /// The model of a send request `r` started with `data`: `Err` when refused.
    fn start_send(&mut self, r: usize, data: Vec<u8>) -> Result<(), ()> {
        let What::Send {
            mode, comm, tag, ..
        } = self.m.reqs[r].what
        else {
            return Err(());
        };
        let msg = self.m.send(mode, comm, tag, data, Some(r))?;
        self.m.reqs[r].expect = if msg.is_some() && mode == SendMode::Synchronous {
            Expect::Pending
        } else {
            sent()
        };
        if let What::Send { msg: m, .. } = &mut self.m.reqs[r].what {
            *m = msg;
        }
        Ok(())
    }

    /// The model of a receive request `r` posted.
    fn start_recv(&mut self, r: usize) {
        let What::Recv { comm, tag, cap } = self.m.reqs[r].what else {
            return;
        };
        match self.m.matching_msg(comm, tag) {
            Some(i) => {
                let msg = self.m.take(i);
                self.m.reqs[r].expect = received(msg.tag, &msg.data, cap);
            }
            None => {
                self.m.reqs[r].expect = Expect::Pending;
                self.m.posted.push(r);
            }
        }
    }

    fn step(&mut self) -> Result<String, String> {
        let comm = self.rng.below(3) as usize;
        let tag = self.rng.below(3) as i32;
        let wild_tag = if self.rng.below(3) == 0 { ANY_TAG } else { tag };
        let len = self.rng.below(6) as usize;
        let data: Vec<u8> = (0..len).map(|_| self.rng.next() as u8).collect();
        let cap = self.rng.below(6);
        let mode = match self.rng.below(4) {
            0 => SendMode::Buffered,
            1 => SendMode::Synchronous,
            _ => SendMode::Standard,
        };
        match self.rng.below(14) {
            0 | 1 => {
                let to = self.envelope(comm, tag);
                let result = self.u.send(mode, &data, to);
                let name = format!("send {mode:?}");
                if mode == SendMode::Synchronous {
                    if self.m.matching_posted(comm, tag).is_some() {
                        result.map_err(|e| format!("{name}: {e}"))?;
                        let _ = self.m.send(mode, comm, tag, data, None);
                    } else if !matches!(result, Err(Error::NeverCompletes(_))) {
                        return Err(format!("{name} with no receive posted: {result:?}"));
                    }
                    return Ok(name);
                }
                match (self.m.send(mode, comm, tag, data, None), result) {
                    (Ok(_), Ok(())) => {}
                    (Err(()), Err(Error::BufferSpace { .. })) => {}
                    (model, engine) => {
                        return Err(format!("{name}: {engine:?}, model {model:?}"));
                    }
                }
                Ok(name)
            }
            2 | 3 => {
                let to = self.envelope(comm, tag);
                let result = self.u.isend(mode, data.clone(), to);
                let what = What::Send {
                    msg: None,
                    mode,
                    comm,
                    tag,
                };
                let name = format!("isend {mode:?}");
                match result {
                    Ok(handle) => {
                        let r = self.add(handle, what, false, Expect::Pending);
                        if self.start_send(r, data).is_err() {
                            return Err(format!("{name}: the engine took it, the model not"));
                        }
                    }
                    Err(Error::BufferSpace { .. }) => {
                        if self.m.send(mode, comm, tag, data, None).is_ok() {
                            return Err(format!("{name}: refused, the model had space"));
                        }
                    }
                    Err(e) => return Err(format!("{name}: {e}")),
                }
                Ok(name)
            }
            4 | 5 => {
                let from = self.envelope(comm, wild_tag);
                let handle = self
                    .u
                    .irecv(UserBuffer::bytes(cap), from)
                    .map_err(|e| format!("irecv: {e}"))?;
                let what = What::Recv {
                    comm,
                    tag: wild_tag,
                    cap,
                };
                let r = self.add(handle, what, false, Expect::Pending);
                self.start_recv(r);
                Ok("irecv".into())
            }
            6 => {
                let from = self.envelope(comm, wild_tag);
                let result = self.u.recv(UserBuffer::bytes(cap), from);
                match self.m.matching_msg(comm, wild_tag) {
                    Some(i) => {
                        let msg = self.m.take(i);
                        let c = result.map_err(|e| format!("recv: {e}"))?;
                        check(&c, &received(msg.tag, &msg.data, cap), "recv")?;
                    }
                    None if matches!(result, Err(Error::NeverCompletes(_))) => {}
                    None => return Err(format!("recv with no message: {result:?}")),
                }
                Ok("recv".into())
            }
            7 => {
                let from = self.envelope(comm, wild_tag);
                let probed = self.u.iprobe(from).map_err(|e| format!("iprobe: {e}"))?;
                let model = self.m.matching_msg(comm, wild_tag).map(|i| {
                    let msg = &self.m.queue[i].1;
                    Status {
                        source: 0,
                        tag: msg.tag,
                        bytes: msg.data.len() as u64,
                        ..Status::empty()
                    }
                });
                if probed != model {
                    return Err(format!("iprobe: {probed:?}, model {model:?}"));
                }
                if let (Some(_), true) = (model, self.rng.below(2) == 0) {
                    // Matching probe, then receive the handle.
                    let (handle, status) = self
                        .u
                        .improbe(from)
                        .map_err(|e| format!("improbe: {e}"))?
                        .ok_or("improbe found nothing")?;
                    if Some(status) != model || matches!(handle, MessageHandle::NoProc) {
                        return Err(format!("improbe: {status:?}, model {model:?}"));
                    }
                    let i = self.m.matching_msg(comm, wild_tag).unwrap();
                    let msg = self.m.take(i);
                    let c = self
                        .u
                        .mrecv(handle, UserBuffer::bytes(cap))
                        .map_err(|e| format!("mrecv: {e}"))?;
                    check(&c, &received(msg.tag, &msg.data, cap), "mrecv")?;
                }
                Ok("iprobe".into())
            }
            8 => {
                let Some(r) = self.pick_live() else {
                    return Ok("cancel: none".into());
                };
                self.u
                    .cancel(self.m.reqs[r].handle)
                    .map_err(|e| format!("cancel: {e}"))?;
                let cancelled = Expect::Done(
                    Status {
                        cancelled: true,
                        ..Status::empty()
                    },
                    None,
                );
                match self.m.reqs[r].what.clone() {
                    What::Send { msg: Some(id), .. } => {
                        let i = self.m.queue.iter().position(|(m, _)| *m == id).unwrap();
                        let (_, msg) = self.m.queue.remove(i);
                        self.m.buffer_used -= msg.buffered;
                        if let What::Send { msg, .. } = &mut self.m.reqs[r].what {
                            *msg = None;
                        }
                        self.m.reqs[r].expect = cancelled;
                    }
                    What::Recv { .. } if self.m.reqs[r].expect == Expect::Pending => {
                        self.m.posted.retain(|p| *p != r);
                        self.m.reqs[r].expect = cancelled;
                    }
                    _ => {}
                }
                Ok("cancel".into())
            }
            9 => {
                // A persistent request, made or started.
                let inactive: Vec<usize> = self
                    .live()
                    .into_iter()
                    .filter(|&r| self.m.reqs[r].expect == Expect::Inactive)
                    .collect();
                if inactive.is_empty() || self.rng.below(3) == 0 {
                    let mode = if mode == SendMode::Synchronous {
                        SendMode::Standard
                    } else {
                        mode
                    };
                    let (handle, what) = if self.rng.below(2) == 0 {
                        let to = self.envelope(comm, tag);
                        let handle = self.u.send_init(mode, UserBuffer::bytes(len as u64), to);
                        let what = What::Send {
                            msg: None,
                            mode,
                            comm,
                            tag,
                        };
                        (handle, what)
                    } else {
                        let from = self.envelope(comm, wild_tag);
                        let handle = self.u.recv_init(UserBuffer::bytes(cap), from);
                        let what = What::Recv {
                            comm,
                            tag: wild_tag,
                            cap,
                        };
                        (handle, what)
                    };
                    let handle = handle.map_err(|e| format!("init: {e}"))?;
                    self.add(handle, what, true, Expect::Inactive);
                    return Ok("init".into());
                }
                let r = inactive[self.rng.below(inactive.len() as u64) as usize];
                let handle = self.m.reqs[r].handle;
                match self.m.reqs[r].what {
                    What::Send { .. } => {
                        let result = self.u.start(handle, data.clone());
                        match (self.start_send(r, data), result) {
                            (Ok(()), Ok(())) => {}
                            (Err(()), Err(Error::BufferSpace { .. })) => {}
                            (model, engine) => {
                                return Err(format!("start send: {engine:?}, model {model:?}"));
                            }
                        }
                    }
                    What::Recv { .. } => {
                        self.u
                            .start(handle, vec![])
                            .map_err(|e| format!("start recv: {e}"))?;
                        self.start_recv(r);
                    }
                }
                Ok("start".into())
            }
            10 | 11 => {
                let Some(r) = self.pick_live() else {
                    return Ok("wait/test: none".into());
                };
                let handle = self.m.reqs[r].handle;
                if self.rng.below(2) == 0 {
                    match (self.u.wait(Some(handle)), &self.m.reqs[r].expect) {
                        (Err(Error::NeverCompletes(_)), Expect::Pending) => {}
                        (Ok(c), _) => self.report(r, &c, "wait")?,
                        (other, expect) => {
                            return Err(format!("wait: {other:?}, model {expect:?}"))
                        }
                    }
                } else {
                    match self
                        .u
                        .test(Some(handle))
                        .map_err(|e| format!("test: {e}"))?
                    {
                        None if self.m.reqs[r].expect == Expect::Pending => {}
                        Some(c) => self.report(r, &c, "test")?,
                        None => return Err("test: not complete, the model says done".into()),
                    }
                }
                Ok("wait/test".into())
            }
            12 => {
                // Waitany over the live requests (some as null ones, which it skips).
                let live = self.live();
                let handles: Vec<Option<Request>> = live
                    .iter()
                    .map(|&r| (self.rng.below(5) != 0).then_some(self.m.reqs[r].handle))
                    .collect();
                let counted: Vec<usize> = (0..live.len())
                    .filter(|&k| {
                        handles[k].is_some() && self.m.reqs[live[k]].expect != Expect::Inactive
                    })
                    .collect();
                let first = counted
                    .iter()
                    .copied()
                    .find(|&k| matches!(self.m.reqs[live[k]].expect, Expect::Done(..)));
                match (self.u.waitany(&handles), counted.is_empty(), first) {
                    (Ok(None), true, _) => {}
                    (Ok(Some((k, c))), false, Some(f)) if k == f => {
                        self.report(live[k], &c, "waitany")?
                    }
                    (Err(Error::NeverCompletes(_)), false, None) => {}
                    (other, undefined, first) => {
                        return Err(format!(
                            "waitany: {other:?}, model: undefined {undefined}, first {first:?}"
                        ))
                    }
                }
                Ok("waitany".into())
            }
            _ => {
                let live = self.live();
                let handles: Vec<Option<Request>> =
                    live.iter().map(|&i| Some(self.m.reqs[i].handle)).collect();
                let done = self
                    .u
                    .testsome(&handles)
                    .map_err(|e| format!("testsome: {e}"))?;
                let active = live
                    .iter()
                    .any(|&r| self.m.reqs[r].expect != Expect::Inactive);
                let expected: Vec<usize> = (0..live.len())
                    .filter(|&k| matches!(self.m.reqs[live[k]].expect, Expect::Done(..)))
                    .collect();
                match done {
                    None if !active => {}
                    Some(list) if active => {
                        let indices: Vec<usize> = list.iter().map(|(k, _)| *k).collect();
                        if indices != expected {
                            return Err(format!("testsome: {indices:?}, model {expected:?}"));
                        }
                        for (k, c) in list {
                            self.report(live[k], &c, "testsome")?;
                        }
                    }
                    other => return Err(format!("testsome: {other:?}, model active {active}")),
                }
                Ok("testsome".into())
            }
        }
    }

    fn invariants(&self) -> Result<(), String> {
        let pending = self.u.pending_messages().map_err(|e| e.to_string())?;
        if pending != self.m.queue.len() {
            return Err(format!(
                "{pending} messages pending, model {}",
                self.m.queue.len()
            ));
        }
        let live = self.m.reqs.iter().filter(|r| r.live).count();
        let count = self.u.request_count().map_err(|e| e.to_string())?;
        if count != live {
            return Err(format!("{count} requests, model {live}"));
        }
        let usage = self
            .u
            .buffer_usage(BufferScope::Process)
            .map_err(|e| e.to_string())?;
        if usage != Some((self.m.buffer_used, BUFFER)) {
            return Err(format!(
                "buffer usage {usage:?}, model {}",
                self.m.buffer_used
            ));
        }
        Ok(())
    }
}

fn program(seed: u64) -> Result<Program, String> {
    let u = Universe::new(ThreadLevel::Single);
    let dup = u.comm_dup(Comm::WORLD).map_err(|e| e.to_string())?;
    let buffer = AttachedBuffer::Memory {
        address: 0x1000,
        size: BUFFER,
    };
    u.buffer_attach(BufferScope::Process, buffer)
        .map_err(|e| e.to_string())?;
    Ok(Program {
        u,
        comms: [Comm::WORLD, Comm::SELF, dup],
        m: Model::default(),
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
    })
}

fn run(seed: u64, steps: usize) -> Result<(), String> {
    let mut program = program(seed)?;
    for step in 0..steps {
        let what = program
            .step()
            .map_err(|e| format!("seed {seed}, step {step}: {e}"))?;
        program
            .invariants()
            .map_err(|e| format!("seed {seed}, step {step} ({what}): {e}"))?;
    }
    Ok(())
}

#[test]
fn matching_agrees_with_the_reference_model() {
    if let Some(seed) = std::env::var("MODEL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        run(seed, 400).unwrap();
        return;
    }
    let programs = std::env::var("MODEL_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let base = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs());
    for i in 0..programs {
        let seed = base.wrapping_add(i);
        if let Err(message) = run(seed, 400) {
            panic!("{message}\nreplay: MODEL_SEED={seed} cargo test --test model_messages");
        }
    }
}

#[test]
fn the_model_is_not_vacuous() {
    // One fixed program runs every kind of operation, and meets truncation, cancellation,
    // a full buffer and calls that can never complete.
    let mut program = program(0x1234_5678).unwrap();
    let mut seen = std::collections::HashSet::new();
    let (mut truncated, mut cancelled, mut full, mut never) = (0, 0, 0, 0);
    for _ in 0..3000 {
        let before = program.m.reqs.clone();
        let what = program.step().unwrap();
        program.invariants().unwrap();
        for (old, new) in before.iter().zip(&program.m.reqs) {
            if let (Expect::Pending, Expect::Done(status, _)) = (&old.expect, &new.expect) {
                truncated += usize::from(status.error == ErrorClass::Truncate as i32);
                cancelled += usize::from(status.cancelled);
            }
        }
        full += usize::from(program.m.buffer_used + BSEND_OVERHEAD > BUFFER);
        let probe = Envelope {
            rank: 0,
            tag: 99,
            comm: Comm::WORLD,
        };
        never += usize::from(matches!(
            program.u.recv(UserBuffer::bytes(0), probe),
            Err(Error::NeverCompletes(_))
        ));
        seen.insert(what);
    }
    for what in [
        "send Standard",
        "send Buffered",
        "send Synchronous",
        "isend Standard",
        "isend Buffered",
        "isend Synchronous",
        "irecv",
        "recv",
        "iprobe",
        "cancel",
        "init",
        "start",
        "wait/test",
        "waitany",
        "testsome",
    ] {
        assert!(seen.contains(what), "{what} never ran: {seen:?}");
    }
    assert!(truncated > 0 && cancelled > 0 && full > 0 && never > 0);
}
