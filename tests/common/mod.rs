//! What the harnesses of the C and the Fortran test programs share: finding the installed
//! library (or installing it), compiling with a bounded number of jobs, running a program
//! with a timeout, and judging its output.
//!
//! A program's leading comments may say (with `//` in C, `!` in Fortran):
//! - `expect-exit: N`: it must exit with N and print exactly one line on stderr, containing
//!   every `expect-stderr: TEXT`; `expect-exit: SIGABRT` for a program that must end by
//!   abort() (signal 6) after that one line;
//! - `expect-compile-error: TEXT`: it must fail to compile, with TEXT in the compiler's output;
//! - `expect-leaks: REASON`: under memcheck, leaked blocks are not errors (REASON says why the
//!   program must leak; every other error still counts).
//!
//! Otherwise it must exit 0 and print `OK <name>`; with an external MPI's compiler it may
//! print `SKIP <name>: reason` instead.

#![allow(dead_code)] // each harness uses its own part

use std::env;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Condvar, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);
/// The machine has 2 cores: never more than 2 compilers at once.
const MAX_COMPILE_JOBS: usize = 2;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The installation prefix of mpiattr the programs are built against: `MPIATTR_PREFIX`, or
/// `target/test-prefix` (`-integer8` in that configuration), installed once per test binary
/// with `ci/install` (built in `target/install-build`).
pub fn prefix() -> &'static Result<PathBuf, String> {
    static PREFIX: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PREFIX.get_or_init(
        || match env::var_os("MPIATTR_PREFIX").filter(|p| !p.is_empty()) {
            Some(p) => Ok(PathBuf::from(p)),
            None => install_once(),
        },
    )
}

fn install_once() -> Result<PathBuf, String> {
    let root = repo();
    let name = if cfg!(feature = "fortran-integer-8") {
        "test-prefix-integer8"
    } else {
        "test-prefix"
    };
    let prefix = root.join("target").join(name);
    let script = root.join("ci").join("install");
    let mut cmd = Command::new("bash");
    cmd.arg(&script).arg(&prefix);
    if cfg!(feature = "fortran-integer-8") {
        cmd.arg("--fortran-integer-8");
    }
    cmd.env(
        "CARGO_TARGET_DIR",
        root.join("target").join("install-build"),
    )
    .current_dir(&root)
    .stdin(Stdio::null());
    clean_library_path(&mut cmd);
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "ci/install failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
            describe(out.status),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(prefix)
}

/// A compiler command (program and leading arguments).
pub struct Compiler {
    pub argv: Vec<String>,
    /// Another MPI's compiler, not mpiattr's wrapper.
    pub external: bool,
}

/// `$VARIABLE` if set (an external compiler), else the installed wrapper `bin/WRAPPER`.
pub fn compiler(variable: &str, wrapper: &str) -> Result<Compiler, String> {
    if let Some(cmd) = env::var_os(variable).filter(|c| !c.is_empty()) {
        let argv = cmd
            .to_string_lossy()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        return Ok(Compiler {
            argv,
            external: true,
        });
    }
    let prefix = prefix().as_ref().map_err(Clone::clone)?;
    let path = prefix.join("bin").join(wrapper);
    if !path.exists() {
        return Err(format!("{} does not exist", path.display()));
    }
    Ok(Compiler {
        argv: vec![path.to_string_lossy().into_owned()],
        external: false,
    })
}

impl Compiler {
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.argv[0]);
        cmd.args(&self.argv[1..]);
        clean_library_path(&mut cmd);
        cmd
    }
}

/// A counting semaphore for compile jobs.
struct JobSlots {
    used: Mutex<usize>,
    freed: Condvar,
}

static SLOTS: JobSlots = JobSlots {
    used: Mutex::new(0),
    freed: Condvar::new(),
};

/// A compile job's place; taken before starting a compiler, given back when dropped.
pub struct Slot;

impl Slot {
    pub fn take() -> Slot {
        let mut used = SLOTS.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used >= MAX_COMPILE_JOBS {
            used = SLOTS.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut used = SLOTS.used.lock().unwrap_or_else(|e| e.into_inner());
        *used -= 1;
        SLOTS.freed.notify_one();
    }
}

pub fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => format!("{status}"),
    }
}

/// SIGABRT's number (6 on every Linux architecture).
fn libc_sigabrt() -> i32 {
    6
}

/// What a program's leading comments expect.
#[derive(Default)]
pub struct Expectation {
    pub exit: Option<i32>,
    pub stderr: Vec<String>,
    pub compile_error: Option<String>,
    pub leaks: Option<String>,
}

impl Expectation {
    /// Reads the `expect-…` comments of a source (`//` for C, `!` for Fortran).
    pub fn add(&mut self, source: &str) {
        for line in source.lines() {
            let line = line.trim();
            let Some(rest) = line.strip_prefix("//").or_else(|| line.strip_prefix('!')) else {
                continue;
            };
            let rest = rest.trim();
            if let Some(v) = rest.strip_prefix("expect-exit:") {
                // A signal is kept as its negated number.
                self.exit = Some(match v.trim() {
                    "SIGABRT" => -libc_sigabrt(),
                    v => v
                        .parse()
                        .unwrap_or_else(|_| panic!("bad expect-exit line: {line}")),
                });
            } else if let Some(v) = rest.strip_prefix("expect-stderr:") {
                self.stderr.push(v.trim().to_owned());
            } else if let Some(v) = rest.strip_prefix("expect-compile-error:") {
                self.compile_error = Some(v.trim().to_owned());
            } else if let Some(v) = rest.strip_prefix("expect-leaks:") {
                self.leaks = Some(v.trim().to_owned());
            }
        }
    }
}

pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
}

fn read_pipe<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Runs a command with a timeout, capturing its output.
pub fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> Result<Output, String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot start: {e}"))?;
    let out = read_pipe(child.stdout.take());
    let err = read_pipe(child.stderr.take());
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > timeout => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().map_err(|e| format!("wait failed: {e}"))?;
            }
            Ok(None) => thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("wait failed: {e}")),
        }
    };
    Ok(Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// `cargo test` puts `target/debug` and `target/debug/deps` on `LD_LIBRARY_PATH`, where a
/// stale or debug `libmpiattr.so` may lie; that would win over the installed library's rpath.
/// The programs must run against what their compiler linked, so those entries go.
pub fn clean_library_path(cmd: &mut Command) {
    let Some(paths) = env::var_os("LD_LIBRARY_PATH") else {
        return;
    };
    let target = repo().join("target");
    let kept: Vec<PathBuf> = env::split_paths(&paths)
        .filter(|p| !p.starts_with(&target))
        .collect();
    if kept.is_empty() {
        cmd.env_remove("LD_LIBRARY_PATH");
    } else if let Ok(joined) = env::join_paths(kept) {
        cmd.env("LD_LIBRARY_PATH", joined);
    }
}

pub fn show(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

pub fn report(what: &str, cmd: &Command, out: &Output) -> String {
    format!(
        "{what}\ncommand: {}\n{}{}\n--- stdout\n{}--- stderr\n{}",
        show(cmd),
        describe(out.status),
        if out.timed_out {
            format!(" (killed after the {} s timeout)", RUN_TIMEOUT.as_secs())
        } else {
            String::new()
        },
        out.stdout,
        out.stderr
    )
}

/// Runs a compiler command (holding a job slot); `Err` with a report if it fails.
pub fn compile(name: &str, cmd: &mut Command) -> Result<(), String> {
    let _slot = Slot::take();
    let out = run_with_timeout(cmd, COMPILE_TIMEOUT)
        .unwrap_or_else(|e| panic!("{name}: cannot run the compiler `{}`: {e}", show(cmd)));
    if out.status.success() {
        Ok(())
    } else {
        Err(report(&format!("{name}: compilation failed"), cmd, &out))
    }
}

/// A valgrind tool every program runs under (`MPIATTR_CHECK_MEMORY`: memcheck, helgrind or
/// drd; ci/check-memory sets it), and the file it reports to. A program that must abort, or
/// says it must leak (`expect-leaks`), is not checked for leaks: what it held when it aborted
/// (a C++ exception object, say) is unreachable by design.
fn valgrind(name: &str, dir: &Path, no_leak_check: bool) -> Option<(Command, PathBuf)> {
    let tool = env::var("MPIATTR_CHECK_MEMORY")
        .ok()
        .filter(|t| !t.is_empty())?;
    let log = dir.join(format!("{name}.{tool}.log"));
    let _ = std::fs::remove_file(&log);
    let mut cmd = Command::new("valgrind");
    cmd.arg(format!("--tool={tool}"))
        .arg("-q")
        .arg(format!("--log-file={}", log.display()));
    match tool.as_str() {
        "memcheck" if no_leak_check => {
            cmd.args(["--leak-check=no", "--track-origins=yes"]);
        }
        "memcheck" => {
            cmd.args([
                "--leak-check=full",
                "--show-leak-kinds=definite",
                "--errors-for-leak-kinds=definite",
                "--track-origins=yes",
            ]);
        }
        "helgrind" | "drd" => {}
        other => panic!("MPIATTR_CHECK_MEMORY={other}: not memcheck, helgrind or drd"),
    }
    Some((cmd, log))
}

/// Runs a built test program from `dir` and checks what it printed against `exp` (under
/// valgrind if `MPIATTR_CHECK_MEMORY` names a tool: then anything valgrind reports fails).
pub fn run_and_check(name: &str, exe: &Path, dir: &Path, exp: &Expectation, cc: &Compiler) {
    let external = cc.external;
    let no_leak_check = exp.exit.is_some_and(|code| code < 0) || exp.leaks.is_some();
    let checked = valgrind(name, dir, no_leak_check);
    let (mut cmd, timeout) = match &checked {
        Some((vg, _)) => {
            let mut cmd = Command::new(vg.get_program());
            cmd.args(vg.get_args()).arg(exe);
            (cmd, RUN_TIMEOUT * 10)
        }
        None => (Command::new(exe), RUN_TIMEOUT),
    };
    cmd.current_dir(dir);
    clean_library_path(&mut cmd);
    // An external MPI's singleton init may look for its launcher beside its compiler.
    if external {
        if let Some(bin) = Path::new(&cc.argv[0]).parent().filter(|d| d.is_dir()) {
            let path = env::var_os("PATH").unwrap_or_default();
            let dirs = std::iter::once(bin.to_path_buf()).chain(env::split_paths(&path));
            if let Ok(joined) = env::join_paths(dirs) {
                cmd.env("PATH", joined);
            }
        }
    }
    let out = run_with_timeout(&mut cmd, timeout)
        .unwrap_or_else(|e| panic!("{name}: cannot run {}: {e}", exe.display()));
    if let Some((_, log)) = &checked {
        let report = std::fs::read_to_string(log)
            .unwrap_or_else(|e| format!("valgrind wrote no report to {}: {e}", log.display()));
        if !report.trim().is_empty() {
            panic!("{name}: valgrind reports ({}):\n{report}", log.display());
        }
    }
    match exp.exit {
        None => {
            let ok_line = format!("OK {name}");
            let skip_prefix = format!("SKIP {name}:");
            let ok = out.stdout.lines().any(|l| l.trim_end() == ok_line);
            let skipped = out.stdout.lines().any(|l| l.starts_with(&skip_prefix));
            if out.status.code() == Some(0) && ok && !out.timed_out {
                return;
            }
            if out.status.code() == Some(0) && skipped && external && !out.timed_out {
                eprintln!(
                    "{name}: skipped with the external compiler: {}",
                    out.stdout.trim()
                );
                return;
            }
            panic!(
                "{}",
                report(
                    &format!("{name}: expected exit status 0 and the line `{ok_line}`"),
                    &cmd,
                    &out
                )
            );
        }
        Some(code) => {
            let mut problems = Vec::new();
            let ended = if code < 0 {
                out.status.signal() == Some(-code)
            } else {
                out.status.code() == Some(code)
            };
            if out.timed_out || !ended {
                problems.push(if code < 0 {
                    format!("expected to end by signal {}", -code)
                } else {
                    format!("expected exit status {code}")
                });
            }
            let lines = out.stderr.lines().count();
            if lines != 1 {
                problems.push(format!("expected exactly one line on stderr, got {lines}"));
            }
            for s in &exp.stderr {
                if !out.stderr.contains(s.as_str()) {
                    problems.push(format!("stderr lacks `{s}`"));
                }
            }
            if !problems.is_empty() {
                panic!(
                    "{}",
                    report(&format!("{name}: {}", problems.join("; ")), &cmd, &out)
                );
            }
        }
    }
}

/// The names `NAME` of the files `dir/NAME.EXT` for the given extensions, sorted, once each.
pub fn program_names(dir: &Path, extensions: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let path = e.path();
            let ext = path.extension()?.to_str()?;
            extensions
                .contains(&ext)
                .then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Declares one `#[test]` per program name, calling `$run(name)`, and a test that the list
/// and the programs of `$dir` (files with the extensions `$ext`) are the same.
#[macro_export]
macro_rules! programs {
    ($run:ident, $dir:literal, [$($ext:literal),*], $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $run(stringify!($name));
            }
        )*

        /// Every program of the directory has a test above, and every test its program.
        #[test]
        fn every_program_is_listed() {
            let listed: &[&str] = &[$(stringify!($name)),*];
            let mut listed: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
            listed.sort();
            let dir = common::repo().join("tests").join($dir);
            let found = common::program_names(&dir, &[$($ext),*]);
            assert_eq!(found, listed, "tests/{}/ and the list of programs differ", $dir);
        }
    };
}

/// The MPI-5.0 standard's bindings (`include/mpi-standard.txt`, written by ci/standard-api):
/// each C prototype by its function's name (`MPI_X`, `PMPI_X`, `MPI_X_c` ...), and each
/// procedure's Fortran 90 and Fortran 2008 lines by its upper-case name.
pub struct Standard {
    pub c: std::collections::HashMap<String, String>,
    pub f90: std::collections::HashMap<String, Vec<String>>,
    pub f08: std::collections::HashMap<String, Vec<String>>,
}

pub fn standard() -> Standard {
    let path = repo().join("include").join("mpi-standard.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut standard = Standard {
        c: Default::default(),
        f90: Default::default(),
        f08: Default::default(),
    };
    let mut current = String::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("== ") {
            current = name.to_uppercase();
        } else if let Some(prototype) = line.strip_prefix("C ") {
            let name = prototype.split('(').next().unwrap_or("");
            let name = name
                .split_whitespace()
                .last()
                .unwrap_or("")
                .trim_start_matches('*');
            standard.c.insert(name.to_owned(), prototype.to_owned());
        } else if let Some(binding) = line.strip_prefix("F90 ") {
            standard
                .f90
                .entry(current.clone())
                .or_default()
                .push(binding.to_owned());
        } else if let Some(binding) = line.strip_prefix("F08 ") {
            standard
                .f08
                .entry(current.clone())
                .or_default()
                .push(binding.to_owned());
        }
    }
    standard
}

/// A C prototype with the spacing around `*` and the final `;` taken out, for comparing.
pub fn normalize_prototype(prototype: &str) -> String {
    prototype
        .trim_end_matches(';')
        // The standard's LaTeX for a C variadic tail (MPI_Pcontrol).
        .replace("\\ldots varargs", "...")
        .replace("\\ldots", "...")
        // An erratum of the data: MPI_Info_create_env's `argv` is an array of strings, as
        // the standard's printed binding and every mpi.h have it.
        .replace("char argv[]", "char *argv[]")
        .replace(" *", "*")
        .replace("* ", "*")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
