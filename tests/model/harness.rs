//! Random programs, run in child processes (a crash is a failure like any other, and the
//! C API can be initialized once per process), with the seed printed on failure and the
//! failing program shrunk.
//!
//! A test binary built on this (`harness = false`) runs in one of these ways:
//! - plain: random programs from a fresh base seed until `MODEL_OPS` operations (default
//!   1 000 000 in an optimized build, 20 000 in a debug one) have run, two children at a
//!   time; on a failure, shrinks the program and prints it with the commands that replay it;
//! - `MODEL_SEED=S`: the one program of seed S, in this process;
//! - `MODEL_REPLAY=FILE`: the program in FILE (written on failure), in this process;
//! - `MODEL_CORPUS=DIR`: writes seed programs for the fuzz target (fuzz/) into DIR;
//! - `MODEL_CHILD=...`: as a child of the first.

use std::env;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::ops::{decode, encode, random_op, Op, Rng, Shape};
use super::reference::Model;

/// What running a program found wrong: at which operation, and what.
#[derive(Debug)]
pub struct Failure {
    pub step: usize,
    pub message: String,
}

/// What a program ran: operations, callbacks called, acts of callbacks (re-entering).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub ops: usize,
    pub callbacks: usize,
    pub reentries: usize,
}

impl Stats {
    fn add(&mut self, other: Stats) {
        self.ops += other.ops;
        self.callbacks += other.callbacks;
        self.reentries += other.reentries;
    }
}

/// Runs a program whose operations come one at a time (`next` gets the state so far).
pub type Runner = fn(&mut dyn FnMut(&Model) -> Option<Op>) -> Result<Stats, Failure>;

pub struct Mode {
    /// The test binary's name (for messages and replay commands).
    pub name: &'static str,
    pub run: Runner,
    /// Programs per child process.
    pub per_child: usize,
}

/// The random program of a seed, produced one operation at a time from the model's state.
pub struct Generator {
    rng: Rng,
    shape: Shape,
    left: usize,
    finalize: bool,
}

impl Generator {
    pub fn new(seed: u64) -> Generator {
        let mut rng = Rng::new(seed);
        let shape = match rng.below(20) {
            0 => Shape {
                keyvals: 24,
                objects: 4,
            },
            1..=5 => Shape {
                keyvals: 10,
                objects: 10,
            },
            _ => Shape {
                keyvals: 5,
                objects: 5,
            },
        };
        let left = 100 + rng.below(3800) as usize;
        let finalize = rng.chance(85);
        Generator {
            rng,
            shape,
            left,
            finalize,
        }
    }

    /// A program of `ops` operations without MPI_Finalize (the threads test's).
    pub fn endless(seed: u64, ops: usize) -> Generator {
        let mut g = Generator::new(seed);
        g.left = ops + 1;
        g.finalize = false;
        g
    }

    pub fn next(&mut self, model: &Model) -> Option<Op> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.left == 0 {
            return self.finalize.then_some(Op::Finalize);
        }
        Some(random_op(
            &mut self.rng,
            self.shape,
            model.live_keyvals(),
            model.live_objects(),
        ))
    }
}

/// The program of a seed, without running the library.
pub fn generate(seed: u64) -> Vec<Op> {
    let mut g = Generator::new(seed);
    let mut model = Model::new(false);
    let mut ops = Vec::new();
    while let Some(op) = g.next(&model) {
        model.apply(&op);
        ops.push(op);
    }
    ops
}

fn run_seed(mode: &Mode, seed: u64) -> Result<Stats, Failure> {
    let mut g = Generator::new(seed);
    (mode.run)(&mut |model: &Model| g.next(model))
}

pub fn run_ops(mode: &Mode, ops: &[Op]) -> Result<Stats, Failure> {
    let mut it = ops.iter().copied();
    (mode.run)(&mut |_: &Model| it.next())
}

fn failure_dir() -> PathBuf {
    let tmp = option_env!("CARGO_TARGET_TMPDIR").map_or_else(env::temp_dir, PathBuf::from);
    let dir = tmp.join("model-failures");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn features() -> &'static str {
    if cfg!(feature = "fortran-integer-8") {
        " --features fortran-integer-8"
    } else {
        ""
    }
}

fn parse_seed(s: &str) -> u64 {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|_| panic!("not a seed: {s}"))
}

/// How many operations to run when not told: `optimized` in an optimized build (ci/test
/// runs these tests with `--profile model`), a fiftieth of it in a debug build (`cargo test`).
pub fn default_ops(optimized: usize) -> usize {
    if option_env!("MPIATTR_OPT_LEVEL") == Some("0") {
        optimized / 50
    } else {
        optimized
    }
}

/// The entry point of a model test binary.
pub fn main(mode: Mode) {
    if let Ok(spec) = env::var("MODEL_CHILD") {
        child(&mode, &spec);
    }
    if let Ok(dir) = env::var("MODEL_CORPUS") {
        // Seeds for the fuzz target: 64 random programs, cut to 300 operations.
        std::fs::create_dir_all(&dir).expect("the corpus directory");
        for seed in 0..64u64 {
            let mut ops = generate(seed);
            ops.truncate(300);
            ops.push(Op::Finalize);
            let file = PathBuf::from(&dir).join(format!("seed-{seed}"));
            std::fs::write(file, encode(&ops)).expect("a corpus file");
        }
        println!("{}: 64 programs written to {dir}", mode.name);
        std::process::exit(0);
    }
    if let Ok(path) = env::var("MODEL_REPLAY") {
        let ops = decode(&std::fs::read(&path).expect("a replay file"));
        println!(
            "{}: replaying {} operations from {path}",
            mode.name,
            ops.len()
        );
        report_in_process(&mode, &ops, run_ops(&mode, &ops));
    }
    if let Ok(seed) = env::var("MODEL_SEED") {
        let seed = parse_seed(&seed);
        let ops = generate(seed);
        println!(
            "{}: program of seed {seed:#x}: {} operations",
            mode.name,
            ops.len()
        );
        report_in_process(&mode, &ops, run_seed(&mode, seed));
    }
    parent(&mode);
}

fn report_in_process(mode: &Mode, ops: &[Op], result: Result<Stats, Failure>) -> ! {
    match result {
        Ok(n) => {
            println!("{}: OK, {n:?}", mode.name);
            std::process::exit(0)
        }
        Err(f) => {
            println!(
                "{}: FAILED at operation {}: {:?}\n{}",
                mode.name,
                f.step,
                ops.get(f.step),
                f.message
            );
            std::process::exit(1)
        }
    }
}

/// A child: runs programs of seeds (`seeds:START:COUNT`) or a file (`replay:PATH`) and
/// reports on stdout: `CASE seed` before each program, `DONE ops` after it, `FAIL seed step`
/// and the message on a failure (then exit status 1).
fn child(mode: &Mode, spec: &str) -> ! {
    let out = std::io::stdout();
    if let Some(path) = spec.strip_prefix("replay:") {
        let ops = decode(&std::fs::read(path).expect("a replay file"));
        match run_ops(mode, &ops) {
            Ok(_) => std::process::exit(0),
            Err(f) => {
                println!("FAIL 0 {}\n{}", f.step, f.message);
                std::process::exit(1)
            }
        }
    }
    let mut parts = spec
        .strip_prefix("seeds:")
        .expect("seeds:START:COUNT")
        .split(':');
    let start = parse_seed(parts.next().unwrap());
    let count: u64 = parts.next().unwrap().parse().unwrap();
    for seed in start..start + count {
        writeln!(out.lock(), "CASE {seed:#x}").unwrap();
        match run_seed(mode, seed) {
            Ok(n) => {
                writeln!(out.lock(), "DONE {} {} {}", n.ops, n.callbacks, n.reentries).unwrap()
            }
            Err(f) => {
                println!("FAIL {seed:#x} {}\n{}", f.step, f.message);
                std::process::exit(1)
            }
        }
    }
    std::process::exit(0)
}

struct ChildRun {
    ok: bool,
    stats: Stats,
    programs: usize,
    /// The program that failed (or was running when the child died), and what it said.
    failed_seed: Option<u64>,
    output: String,
}

fn spawn(mode: &Mode, spec: &str) -> ChildRun {
    let exe = env::current_exe().expect("the test binary");
    let mut child = Command::new(exe)
        .env("MODEL_CHILD", spec)
        .env_remove("MODEL_SEED")
        .env_remove("MODEL_REPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: cannot start a child: {e}", mode.name));
    let stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut s);
        s
    });
    let mut run = ChildRun {
        ok: false,
        stats: Stats::default(),
        programs: 0,
        failed_seed: None,
        output: String::new(),
    };
    let mut last_case = None;
    let mut failing = false;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap_or_default();
        if failing {
            run.output.push_str(&line);
            run.output.push('\n');
        } else if let Some(seed) = line.strip_prefix("CASE ") {
            last_case = Some(parse_seed(seed));
        } else if let Some(n) = line.strip_prefix("DONE ") {
            let n: Vec<usize> = n.split(' ').map(|x| x.parse().unwrap_or(0)).collect();
            run.stats.add(Stats {
                ops: n[0],
                callbacks: n[1],
                reentries: n[2],
            });
            run.programs += 1;
            last_case = None;
        } else if line.starts_with("FAIL ") {
            failing = true;
            run.output.push_str(&line);
            run.output.push('\n');
        } else {
            run.output.push_str(&line);
            run.output.push('\n');
        }
    }
    let status = child.wait().expect("the child's status");
    let stderr = err_reader.join().unwrap_or_default();
    if !stderr.is_empty() {
        run.output.push_str(&stderr);
    }
    run.ok = status.success();
    if !run.ok {
        run.failed_seed = last_case;
        run.output.push_str(&format!("(child exited: {status})\n"));
    }
    run
}

fn parent(mode: &Mode) -> ! {
    let target: usize = env::var("MODEL_OPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_ops(1_000_000));
    let base = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let base = base & 0xffff_ffff_ffff_0000;
    println!(
        "{}: base seed {base:#x}, at least {target} operations, {} program(s) per child",
        mode.name, mode.per_child
    );
    let started = Instant::now();
    let next = AtomicU64::new(base);
    let ops = AtomicUsize::new(0);
    let total = Mutex::new(Stats::default());
    let programs = AtomicUsize::new(0);
    let failure: Mutex<Option<ChildRun>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                if ops.load(Ordering::Relaxed) >= target || failure.lock().unwrap().is_some() {
                    return;
                }
                let start = next.fetch_add(mode.per_child as u64, Ordering::Relaxed);
                let run = spawn(mode, &format!("seeds:{start:#x}:{}", mode.per_child));
                ops.fetch_add(run.stats.ops, Ordering::Relaxed);
                total.lock().unwrap().add(run.stats);
                programs.fetch_add(run.programs, Ordering::Relaxed);
                if !run.ok {
                    failure.lock().unwrap().get_or_insert(run);
                    return;
                }
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let Some(run) = failure.into_inner().unwrap() else {
        let t = total.into_inner().unwrap();
        println!(
            "{}: OK: {} programs, {} operations, {} callbacks, {} acts of callbacks, \
             seeds {base:#x}.., {seconds:.1} s",
            mode.name,
            programs.into_inner(),
            t.ops,
            t.callbacks,
            t.reentries
        );
        std::process::exit(0)
    };
    println!(
        "{}: FAILED after {} operations\n{}",
        mode.name,
        ops.into_inner(),
        run.output
    );
    let Some(seed) = run.failed_seed else {
        println!("(no program to blame: the child failed outside one)");
        std::process::exit(1)
    };
    let program = generate(seed);
    println!(
        "{}: the program of seed {seed:#x} ({} operations) fails; shrinking it...",
        mode.name,
        program.len()
    );
    let dir = failure_dir();
    let candidate_file = dir.join(format!("{}-{seed:x}-candidate.ops", mode.name));
    let fails = |ops: &[Op]| {
        std::fs::write(&candidate_file, encode(ops)).expect("a candidate file");
        !spawn(mode, &format!("replay:{}", candidate_file.display())).ok
    };
    let shrunk = shrink(program, fails, Duration::from_secs(180));
    let file = dir.join(format!("{}-{seed:x}.ops", mode.name));
    std::fs::write(&file, encode(&shrunk)).expect("the failure file");
    let _ = std::fs::remove_file(&candidate_file);
    let last = spawn(mode, &format!("replay:{}", file.display()));
    println!(
        "{}: shrunk to {} operations:\n{}\nwhich fails so:\n{}",
        mode.name,
        shrunk.len(),
        shrunk
            .iter()
            .enumerate()
            .map(|(i, op)| format!("  {i:4}: {op:?}"))
            .collect::<Vec<_>>()
            .join("\n"),
        last.output
    );
    println!(
        "replay: MODEL_SEED={seed:#x} cargo test{f} --test {n}\n        \
         MODEL_REPLAY={} cargo test{f} --test {n}",
        file.display(),
        f = features(),
        n = mode.name
    );
    std::process::exit(1)
}

/// Delta debugging: drops chunks of the program while it still fails, until no single
/// operation can go (or time is up).
pub fn shrink(mut ops: Vec<Op>, fails: impl Fn(&[Op]) -> bool, time: Duration) -> Vec<Op> {
    let deadline = Instant::now() + time;
    let mut parts = 2;
    while ops.len() >= 2 && Instant::now() < deadline {
        let chunk = ops.len().div_ceil(parts);
        let mut reduced = false;
        let mut start = 0;
        while start < ops.len() && Instant::now() < deadline {
            let mut candidate = ops[..start].to_vec();
            candidate.extend_from_slice(&ops[(start + chunk).min(ops.len())..]);
            if fails(&candidate) {
                ops = candidate;
                reduced = true;
            } else {
                start += chunk;
            }
        }
        if reduced {
            parts = parts.saturating_sub(1).max(2);
        } else if chunk == 1 {
            break;
        } else {
            parts = (parts * 2).min(ops.len());
        }
    }
    ops
}
