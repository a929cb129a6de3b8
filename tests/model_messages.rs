//! Random programs of point-to-point operations with oneself through the Rust API, checked
//! after every operation against a naive reference model of message matching: random sends
//! (standard, synchronous, blocking or not), receives (blocking or posted, with wildcards
//! and small capacities), probes, matching probes, cancels, tests, waits and testsome on three
//! communicators; every status, every delivered byte and every error is compared.
//!
//! `MODEL_SEED=S` runs only the program of seed S; `MODEL_PROGRAMS=N` sets how many programs
//! run (default 300); a failure names its seed and step.

use mpiattr::{
    Comm, Completion, Envelope, Error, ErrorClass, MessageHandle, Request, SendMode, Status,
    ThreadLevel, Universe, UserBuffer, ANY_SOURCE, ANY_TAG,
};

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
    /// The model request of the nonblocking send that sent it.
    sender: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
enum Expect {
    Pending,
    Done(Status, Option<Vec<u8>>),
}

#[derive(Clone, Debug)]
enum What {
    Send { msg: Option<usize>, sync: bool },
    Recv { comm: usize, tag: i32, cap: u64 },
}

#[derive(Clone, Debug)]
struct Req {
    handle: Request,
    what: What,
    expect: Expect,
    live: bool,
}

/// The reference: plain vectors scanned front to back.
#[derive(Default)]
struct Model {
    queue: Vec<(usize, Msg)>,
    next_msg: usize,
    posted: Vec<usize>,
    reqs: Vec<Req>,
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

    /// A send: to a posted receive, else queued; the model id of the queued message.
    fn send(
        &mut self,
        comm: usize,
        tag: i32,
        data: Vec<u8>,
        sender: Option<usize>,
    ) -> Option<usize> {
        if let Some(i) = self.matching_posted(comm, tag) {
            let r = self.posted.remove(i);
            if let What::Recv { cap, .. } = self.reqs[r].what {
                self.reqs[r].expect = received(tag, &data, cap);
            }
            return None;
        }
        let id = self.next_msg;
        self.next_msg += 1;
        self.queue.push((
            id,
            Msg {
                comm,
                tag,
                data,
                sender,
            },
        ));
        Some(id)
    }

    /// Takes the queued message at `i`: its synchronous sender completes.
    fn take(&mut self, i: usize) -> Msg {
        let (_, msg) = self.queue.remove(i);
        if let Some(s) = msg.sender {
            if let What::Send { msg: m, sync } = &mut self.reqs[s].what {
                *m = None;
                if *sync {
                    self.reqs[s].expect = Expect::Done(Status::empty(), None);
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
    let Expect::Done(status, data) = expect else {
        return Err(format!("{what}: completed, the model says pending"));
    };
    if c.status != *status {
        return Err(format!("{what}: status {:?}, model {:?}", c.status, status));
    }
    let got = c.delivery.as_ref().map(|d| d.bytes.clone());
    if got != *data {
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
    fn envelope(&self, comm: usize, tag: i32) -> Envelope {
        Envelope {
            rank: if tag == ANY_TAG && self.rng.0 % 2 == 0 {
                ANY_SOURCE
            } else {
                0
            },
            tag,
            comm: self.comms[comm],
        }
    }

    fn pick_live(&mut self) -> Option<usize> {
        let live: Vec<usize> = (0..self.m.reqs.len())
            .filter(|&i| self.m.reqs[i].live)
            .collect();
        (!live.is_empty()).then(|| live[self.rng.below(live.len() as u64) as usize])
    }

    fn report(&mut self, r: usize, c: &Completion, what: &str) -> Result<(), String> {
        check(c, &self.m.reqs[r].expect, what)?;
        if !c.freed {
            return Err(format!("{what}: a nonpersistent request was not freed"));
        }
        self.m.reqs[r].live = false;
        Ok(())
    }

    fn step(&mut self) -> Result<String, String> {
        let comm = self.rng.below(3) as usize;
        let tag = self.rng.below(3) as i32;
        let wild_tag = if self.rng.below(3) == 0 { ANY_TAG } else { tag };
        let len = self.rng.below(6) as usize;
        let data: Vec<u8> = (0..len).map(|_| self.rng.next() as u8).collect();
        let cap = self.rng.below(6);
        match self.rng.below(11) {
            0 | 1 => {
                self.u
                    .send(SendMode::Standard, &data, self.envelope(comm, tag))
                    .map_err(|e| format!("send: {e}"))?;
                self.m.send(comm, tag, data, None);
                Ok("send".into())
            }
            2 => {
                let result = self
                    .u
                    .send(SendMode::Synchronous, &data, self.envelope(comm, tag));
                if self.m.matching_posted(comm, tag).is_some() {
                    result.map_err(|e| format!("ssend: {e}"))?;
                    self.m.send(comm, tag, data, None);
                } else if !matches!(result, Err(Error::NeverCompletes(_))) {
                    return Err(format!("ssend with no receive posted: {result:?}"));
                }
                Ok("ssend".into())
            }
            3 | 4 => {
                let sync = self.rng.below(3) == 0;
                let mode = if sync {
                    SendMode::Synchronous
                } else {
                    SendMode::Standard
                };
                let handle = self
                    .u
                    .isend(mode, data.clone(), self.envelope(comm, tag))
                    .map_err(|e| format!("isend: {e}"))?;
                let r = self.m.reqs.len();
                self.m.reqs.push(Req {
                    handle,
                    what: What::Send { msg: None, sync },
                    expect: if sync {
                        Expect::Pending
                    } else {
                        Expect::Done(Status::empty(), None)
                    },
                    live: true,
                });
                let msg = self.m.send(comm, tag, data, Some(r));
                if msg.is_none() {
                    self.m.reqs[r].expect = Expect::Done(Status::empty(), None);
                }
                self.m.reqs[r].what = What::Send { msg, sync };
                Ok(format!("isend sync={sync}"))
            }
            5 | 6 => {
                let env = self.envelope(comm, wild_tag);
                let handle = self
                    .u
                    .irecv(UserBuffer::bytes(cap), env)
                    .map_err(|e| format!("irecv: {e}"))?;
                let r = self.m.reqs.len();
                self.m.reqs.push(Req {
                    handle,
                    what: What::Recv {
                        comm,
                        tag: wild_tag,
                        cap,
                    },
                    expect: Expect::Pending,
                    live: true,
                });
                match self.m.matching_msg(comm, wild_tag) {
                    Some(i) => {
                        let msg = self.m.take(i);
                        self.m.reqs[r].expect = received(msg.tag, &msg.data, cap);
                    }
                    None => self.m.posted.push(r),
                }
                Ok("irecv".into())
            }
            7 => {
                let env = self.envelope(comm, wild_tag);
                let result = self.u.recv(UserBuffer::bytes(cap), env);
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
            8 => {
                let env = self.envelope(comm, wild_tag);
                let probed = self.u.iprobe(env).map_err(|e| format!("iprobe: {e}"))?;
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
                        .improbe(env)
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
            9 => {
                let Some(r) = self.pick_live() else {
                    return Ok("cancel: none".into());
                };
                self.u
                    .cancel(self.m.reqs[r].handle)
                    .map_err(|e| format!("cancel: {e}"))?;
                let cancelled = Status {
                    cancelled: true,
                    ..Status::empty()
                };
                match self.m.reqs[r].what.clone() {
                    What::Send {
                        msg: Some(id),
                        sync,
                    } => {
                        let i = self
                            .m
                            .queue
                            .iter()
                            .position(|(m, _)| *m == id)
                            .expect("queued");
                        self.m.queue.remove(i);
                        self.m.reqs[r].what = What::Send { msg: None, sync };
                        self.m.reqs[r].expect = Expect::Done(cancelled, None);
                    }
                    What::Recv { .. } if self.m.reqs[r].expect == Expect::Pending => {
                        self.m.posted.retain(|p| *p != r);
                        self.m.reqs[r].expect = Expect::Done(cancelled, None);
                    }
                    _ => {}
                }
                Ok("cancel".into())
            }
            _ => {
                if self.rng.below(2) == 0 {
                    let Some(r) = self.pick_live() else {
                        return Ok("wait: none".into());
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
                } else {
                    let live: Vec<usize> = (0..self.m.reqs.len())
                        .filter(|&i| self.m.reqs[i].live)
                        .collect();
                    let handles: Vec<Option<Request>> =
                        live.iter().map(|&i| Some(self.m.reqs[i].handle)).collect();
                    let done = self
                        .u
                        .testsome(&handles)
                        .map_err(|e| format!("testsome: {e}"))?;
                    let expected: Vec<usize> = (0..live.len())
                        .filter(|&k| self.m.reqs[live[k]].expect != Expect::Pending)
                        .collect();
                    match done {
                        None if live.is_empty() => {}
                        Some(list) => {
                            let indices: Vec<usize> = list.iter().map(|(k, _)| *k).collect();
                            if indices != expected {
                                return Err(format!("testsome: {indices:?}, model {expected:?}"));
                            }
                            for (k, c) in list {
                                self.report(live[k], &c, "testsome")?;
                            }
                        }
                        None => return Err("testsome: MPI_UNDEFINED with live requests".into()),
                    }
                    Ok("testsome".into())
                }
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
        Ok(())
    }
}

fn run(seed: u64, steps: usize) -> Result<(), String> {
    let u = Universe::new(ThreadLevel::Single);
    let dup = u.comm_dup(Comm::WORLD).map_err(|e| e.to_string())?;
    let mut program = Program {
        u,
        comms: [Comm::WORLD, Comm::SELF, dup],
        m: Model::default(),
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
    };
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
    // The programs exercise every kind of outcome: this fixed seed's program receives data,
    // truncates, cancels and meets calls that can never complete.
    let u = Universe::new(ThreadLevel::Single);
    let dup = u.comm_dup(Comm::SELF).unwrap();
    let mut program = Program {
        u,
        comms: [Comm::WORLD, Comm::SELF, dup],
        m: Model::default(),
        rng: Rng(0x1234_5678_9abc_def1),
    };
    let mut seen = std::collections::HashSet::new();
    for _ in 0..2000 {
        seen.insert(program.step().unwrap());
        program.invariants().unwrap();
    }
    for what in [
        "send",
        "ssend",
        "isend sync=true",
        "isend sync=false",
        "irecv",
        "recv",
        "iprobe",
        "cancel",
        "wait/test",
        "testsome",
    ] {
        assert!(seen.contains(what), "{what} never ran: {seen:?}");
    }
}
