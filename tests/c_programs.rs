//! Compiles and runs the C test programs of `tests/c/` as separate processes, one `#[test]`
//! per program.
//!
//! The compiler is `MPIATTR_MPICC` if set (for instance another MPI's standard-ABI wrapper,
//! to check the programs against a reference implementation), else the `mpicc` of the
//! installed mpiattr (`MPIATTR_PREFIX`, or one installed for the tests: see
//! `tests/common`). Each program is compiled with `-std=c11 -Wall -Wextra -Wpedantic
//! -Werror` into `target/c-tests/`, and run with a timeout; what it must print is described
//! in `tests/common`. Only with `MPIATTR_MPICC` may a program print `SKIP <name>: reason`
//! instead of `OK <name>` (for features another implementation's header lacks). A C++
//! program (`NAME.cpp`) is compiled the same way with `-std=c++17` by `mpicxx`
//! (`MPIATTR_MPICXX` beside `MPIATTR_MPICC`).

#[macro_use]
mod common;

use std::collections::hash_map::DefaultHasher;
use std::env;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::OnceLock;

use common::{compiler, repo, Compiler, Expectation};

const CFLAGS: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const CXXFLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

fn mpicc() -> &'static Result<Compiler, String> {
    static MPICC: OnceLock<Result<Compiler, String>> = OnceLock::new();
    MPICC.get_or_init(|| compiler("MPIATTR_MPICC", "mpicc"))
}

/// Where compiled programs go: one directory per compiler.
fn out_dir(cc: &Compiler) -> PathBuf {
    let mut h = DefaultHasher::new();
    cc.argv.hash(&mut h);
    common::prefix().as_ref().ok().hash(&mut h);
    repo()
        .join("target")
        .join("c-tests")
        .join(format!("{:016x}", h.finish()))
}

fn mpicxx() -> &'static Result<Compiler, String> {
    static MPICXX: OnceLock<Result<Compiler, String>> = OnceLock::new();
    MPICXX.get_or_init(|| compiler("MPIATTR_MPICXX", "mpicxx"))
}

fn run_program(name: &str) {
    let dir = repo().join("tests").join("c");
    // A C++ program (NAME.cpp) goes through mpicxx; with another MPI's mpicc
    // (MPIATTR_MPICC), MPIATTR_MPICXX names that MPI's C++ wrapper.
    let cpp = dir.join(format!("{name}.cpp")).exists();
    let cc = if cpp {
        if env::var_os("MPIATTR_MPICC").is_some() && env::var_os("MPIATTR_MPICXX").is_none() {
            panic!("{name}.cpp: MPIATTR_MPICC is set, so MPIATTR_MPICXX must name the same MPI's C++ wrapper");
        }
        mpicxx()
    } else {
        mpicc()
    };
    let cc = cc
        .as_ref()
        .unwrap_or_else(|e| panic!("no compiler for the test programs: {e}"));
    let source = dir.join(format!("{name}.{}", if cpp { "cpp" } else { "c" }));
    let text = fs::read_to_string(&source)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
    let mut exp = Expectation::default();
    exp.add(&text);
    let dir = out_dir(cc);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let exe = dir.join(name);
    let mut cmd = cc.command();
    cmd.args(if cpp { CXXFLAGS } else { CFLAGS })
        .arg("-I")
        .arg(source.parent().expect("tests/c"))
        .arg("-o")
        .arg(&exe)
        .arg(&source);
    if text.contains("#include <pthread.h>") {
        cmd.arg("-lpthread");
    }
    if let Err(report) = common::compile(name, &mut cmd) {
        panic!("{report}");
    }
    common::run_and_check(name, &exe, &dir, &exp, cc);
}

programs!(
    run_program,
    "c",
    ["c", "cpp"],
    after_finalize,
    alloc_mem,
    attr_values,
    badarg_comm,
    badarg_keyval,
    badarg_misc,
    badarg_type,
    badarg_win,
    callback_values,
    before_init,
    collectives_vw,
    comm_copy,
    copy_target,
    cxx_exception,
    datatypes_basic,
    datatypes_layout,
    datatypes_transfer,
    delete_order,
    deprecated_api,
    env_basics,
    errhandlers,
    errhandlers_user,
    fail_copy,
    fail_delete,
    fault_positions,
    fatal_abort,
    fatal_abort_badcomm,
    fatal_abort_mask,
    fatal_before_init,
    fatal_callback,
    fatal_coll,
    fatal_errors_abort,
    fatal_free_keyval,
    fatal_keyval,
    fatal_pack,
    fatal_type,
    fatal_win,
    groups_comms,
    info_errors,
    finalize_order,
    handle_aliases,
    handle_numbers,
    handle_reasons,
    handles_c2f,
    keyval_kinds,
    keyval_lifecycle,
    longjmp_callbacks,
    longjmp_nested,
    longjmp_thread,
    names,
    p2p_coll_basic,
    p2p_common,
    p2p_modes,
    p2p_never_completes,
    p2p_requests,
    predefined_attrs,
    profiling,
    reentrant,
    sessions_abi,
    sessions_only,
    threads,
    threads_wide,
    type_copy,
    user_ops,
    win_attrs,
    wrong_thread,
);
