//! Compiles and runs the C test programs of `tests/c/` as separate processes, one `#[test]`
//! per program.
//!
//! The compiler is chosen in this order:
//! - `MPIATTR_MPICC`: a compiler command (for instance another MPI's standard-ABI wrapper, to
//!   check the programs against a reference implementation);
//! - `MPIATTR_PREFIX`: `$MPIATTR_PREFIX/bin/mpicc` of an installed mpiattr;
//! - otherwise mpiattr is installed once per test binary with `ci/install` into
//!   `target/test-prefix` (built in `target/install-build`) and its `mpicc` is used.
//!
//! Each program is compiled with `-std=c11 -Wall -Wextra -Wpedantic -Werror` into
//! `target/c-tests/`, and run with a 120 s timeout. A normal program must exit 0 and print
//! `OK <name>`. A program whose leading comments say `// expect-exit: N` must exit with N and
//! print exactly one line to stderr, containing every `// expect-stderr: TEXT`.
//! Only with `MPIATTR_MPICC` may a program print `SKIP <name>: reason` instead (for features
//! another implementation's header lacks).

use std::collections::hash_map::DefaultHasher;
use std::env;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Condvar, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

const CFLAGS: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const RUN_TIMEOUT: Duration = Duration::from_secs(120);
/// The machine has 2 cores: never more than 2 compilers at once.
const MAX_COMPILE_JOBS: usize = 2;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The compiler command (program and leading arguments), and whether it is external.
struct Compiler {
    argv: Vec<String>,
    external: bool,
    /// Where compiled programs go: one directory per compiler.
    out_dir: PathBuf,
}

fn compiler() -> &'static Result<Compiler, String> {
    static COMPILER: OnceLock<Result<Compiler, String>> = OnceLock::new();
    COMPILER.get_or_init(find_compiler)
}

fn find_compiler() -> Result<Compiler, String> {
    let base = repo().join("target").join("c-tests");
    if let Some(cmd) = env::var_os("MPIATTR_MPICC").filter(|c| !c.is_empty()) {
        let cmd = cmd.to_string_lossy().into_owned();
        let argv: Vec<String> = cmd.split_whitespace().map(str::to_owned).collect();
        let mut h = DefaultHasher::new();
        cmd.hash(&mut h);
        return Ok(Compiler {
            argv,
            external: true,
            out_dir: base.join(format!("external-{:016x}", h.finish())),
        });
    }
    let prefix = match env::var_os("MPIATTR_PREFIX").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => install_once()?,
    };
    let mpicc = prefix.join("bin").join("mpicc");
    if !mpicc.exists() {
        return Err(format!("{} does not exist", mpicc.display()));
    }
    let mut h = DefaultHasher::new();
    prefix.hash(&mut h);
    Ok(Compiler {
        argv: vec![mpicc.to_string_lossy().into_owned()],
        external: false,
        out_dir: base.join(format!("mpiattr-{:016x}", h.finish())),
    })
}

/// Runs `ci/install <repo>/target/test-prefix` with its own cargo target directory.
fn install_once() -> Result<PathBuf, String> {
    let root = repo();
    let prefix = root.join("target").join("test-prefix");
    let script = root.join("ci").join("install");
    let mut cmd = Command::new("bash");
    cmd.arg(&script)
        .arg(&prefix)
        .env(
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

/// A counting semaphore for compile jobs.
struct JobSlots {
    used: Mutex<usize>,
    freed: Condvar,
}

static SLOTS: JobSlots = JobSlots {
    used: Mutex::new(0),
    freed: Condvar::new(),
};

struct Slot;

impl Slot {
    fn take() -> Slot {
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

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => format!("{status}"),
    }
}

/// What a program's leading comments expect.
struct Expectation {
    exit: Option<i32>,
    stderr: Vec<String>,
}

fn expectation(source: &str) -> Expectation {
    let mut exp = Expectation {
        exit: None,
        stderr: Vec::new(),
    };
    for line in source.lines() {
        let line = line.trim();
        if let Some(v) = line.strip_prefix("// expect-exit:") {
            exp.exit = Some(
                v.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("bad expect-exit line: {line}")),
            );
        } else if let Some(v) = line.strip_prefix("// expect-stderr:") {
            exp.stderr.push(v.trim().to_owned());
        }
    }
    exp
}

struct Output {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    timed_out: bool,
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
fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> Result<Output, String> {
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
fn clean_library_path(cmd: &mut Command) {
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

fn show(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

fn report(what: &str, cmd: &Command, out: &Output) -> String {
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

fn compile(cc: &Compiler, name: &str, source: &Path, exe: &Path, threads: bool) {
    let mut cmd = Command::new(&cc.argv[0]);
    cmd.args(&cc.argv[1..])
        .args(CFLAGS)
        .arg("-I")
        .arg(source.parent().expect("tests/c"))
        .arg("-o")
        .arg(exe)
        .arg(source);
    if threads {
        cmd.arg("-lpthread");
    }
    clean_library_path(&mut cmd);
    let _slot = Slot::take();
    let out = run_with_timeout(&mut cmd, Duration::from_secs(300))
        .unwrap_or_else(|e| panic!("{name}: cannot run the compiler `{}`: {e}", show(&cmd)));
    if !out.status.success() {
        panic!(
            "{}",
            report(&format!("{name}: compilation failed"), &cmd, &out)
        );
    }
}

fn run_program(name: &str) {
    let cc = match compiler() {
        Ok(cc) => cc,
        Err(e) => panic!("no C compiler for the test programs: {e}"),
    };
    let source = repo().join("tests").join("c").join(format!("{name}.c"));
    let text = fs::read_to_string(&source)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
    let exp = expectation(&text);
    fs::create_dir_all(&cc.out_dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", cc.out_dir.display()));
    let exe = cc.out_dir.join(name);
    let threads = text.contains("#include <pthread.h>");
    compile(cc, name, &source, &exe, threads);

    let mut cmd = Command::new(&exe);
    cmd.current_dir(&cc.out_dir);
    clean_library_path(&mut cmd);
    // An external MPI's singleton init may look for its launcher beside its compiler.
    if cc.external {
        if let Some(dir) = Path::new(&cc.argv[0]).parent().filter(|d| d.is_dir()) {
            let path = env::var_os("PATH").unwrap_or_default();
            let mut dirs = vec![dir.to_path_buf()];
            dirs.extend(env::split_paths(&path));
            if let Ok(joined) = env::join_paths(dirs) {
                cmd.env("PATH", joined);
            }
        }
    }
    let out = run_with_timeout(&mut cmd, RUN_TIMEOUT)
        .unwrap_or_else(|e| panic!("{name}: cannot run {}: {e}", exe.display()));

    match exp.exit {
        None => {
            let ok_line = format!("OK {name}");
            let skip_prefix = format!("SKIP {name}:");
            let ok = out.stdout.lines().any(|l| l.trim_end() == ok_line);
            let skipped = out.stdout.lines().any(|l| l.starts_with(&skip_prefix));
            if out.status.code() == Some(0) && ok && !out.timed_out {
                return;
            }
            if out.status.code() == Some(0) && skipped && cc.external && !out.timed_out {
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
            if out.timed_out || out.status.code() != Some(code) {
                problems.push(format!("expected exit status {code}"));
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

macro_rules! c_programs {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_program(stringify!($name));
            }
        )*

        /// Every `tests/c/*.c` has a test above, and every test has its program.
        #[test]
        fn every_program_is_listed() {
            let listed: &[&str] = &[$(stringify!($name)),*];
            let dir = repo().join("tests").join("c");
            let mut found: Vec<String> = fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(".c").map(str::to_owned)
                })
                .collect();
            found.sort();
            let mut want: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
            want.sort();
            assert_eq!(found, want, "tests/c/*.c and the list in tests/c_programs.rs differ");
        }
    };
}

c_programs!(
    after_finalize,
    attr_values,
    badarg_comm,
    badarg_keyval,
    badarg_misc,
    badarg_type,
    badarg_win,
    before_init,
    comm_copy,
    datatypes_basic,
    delete_order,
    deprecated_api,
    env_basics,
    errhandlers,
    fail_copy,
    fail_delete,
    fatal_abort,
    fatal_abort_mask,
    fatal_before_init,
    fatal_callback,
    fatal_errors_abort,
    fatal_keyval,
    fatal_type,
    fatal_win,
    finalize_order,
    handles_c2f,
    keyval_kinds,
    keyval_lifecycle,
    predefined_attrs,
    profiling,
    reentrant,
    threads,
    type_copy,
    win_attrs,
);
