//! Compiles and runs the Fortran and mixed C+Fortran test programs of `tests/fortran/` as
//! separate processes, one `#[test]` per program (tests/fortran/README.md says how a program
//! is made and what it must print; every program is linked with the shared
//! `tests/fortran/support/checks.f90`), plus one test that every constant has the same value
//! in `mpi.h`, `mpif.h`, `use mpi` and `use mpi_f08`.
//!
//! The compilers are `MPIATTR_MPIFORT` and `MPIATTR_MPICC` if set (another MPI's wrappers),
//! else the `mpifort` and `mpicc` of the installed mpiattr (see `tests/common`), whose
//! Fortran INTEGER configuration is the one this test binary was built for.

#[macro_use]
mod common;

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{compiler, repo, Compiler, Expectation};

const FFLAGS: &[&str] = &["-Wall", "-Werror"];
const CFLAGS: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const CXXFLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

fn mpifort() -> &'static Result<Compiler, String> {
    static MPIFORT: OnceLock<Result<Compiler, String>> = OnceLock::new();
    MPIFORT.get_or_init(|| compiler("MPIATTR_MPIFORT", "mpifort"))
}

fn mpicc() -> &'static Result<Compiler, String> {
    static MPICC: OnceLock<Result<Compiler, String>> = OnceLock::new();
    MPICC.get_or_init(|| compiler("MPIATTR_MPICC", "mpicc"))
}

/// The C++ compiler of a C++ companion (`MPIATTR_MPICXX`, else the installed `mpicxx`).
fn mpicxx() -> &'static Compiler {
    static MPICXX: OnceLock<Result<Compiler, String>> = OnceLock::new();
    MPICXX
        .get_or_init(|| compiler("MPIATTR_MPICXX", "mpicxx"))
        .as_ref()
        .unwrap_or_else(|e| panic!("no C++ compiler for the test programs: {e}"))
}

fn compilers() -> (&'static Compiler, &'static Compiler) {
    let fc = mpifort()
        .as_ref()
        .unwrap_or_else(|e| panic!("no Fortran compiler for the test programs: {e}"));
    let cc = mpicc()
        .as_ref()
        .unwrap_or_else(|e| panic!("no C compiler for the test programs: {e}"));
    (fc, cc)
}

/// A directory of its own for one program's objects, modules and executable.
fn out_dir(fc: &Compiler, name: &str) -> PathBuf {
    let mut h = DefaultHasher::new();
    fc.argv.hash(&mut h);
    common::prefix().as_ref().ok().hash(&mut h);
    cfg!(feature = "fortran-integer-8").hash(&mut h);
    let dir = repo()
        .join("target")
        .join("fortran-tests")
        .join(format!("{:016x}", h.finish()))
        .join(name);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Compiles one source to an object in `dir`.
fn compile_object(name: &str, source: &Path, dir: &Path) -> Result<PathBuf, String> {
    let (fc, cc) = compilers();
    let stem = source.file_stem().and_then(|e| e.to_str()).unwrap_or("");
    let ext = source.extension().and_then(|e| e.to_str()).unwrap_or("");
    let object = dir.join(format!("{stem}.{ext}.o"));
    let mut cmd = if ext == "c" || ext == "cpp" {
        let mut cmd = if ext == "c" {
            let mut cmd = cc.command();
            cmd.args(CFLAGS);
            cmd
        } else {
            let mut cmd = mpicxx().command();
            cmd.args(CXXFLAGS);
            cmd
        };
        cmd.arg("-I").arg(repo().join("tests").join("c"));
        cmd
    } else {
        let mut cmd = fc.command();
        cmd.args(FFLAGS).arg("-J").arg(dir);
        cmd
    };
    cmd.arg("-c").arg(source).arg("-o").arg(&object);
    common::compile(name, &mut cmd).map(|()| object)
}

fn run_program(name: &str) {
    let (fc, _) = compilers();
    let sources: Vec<PathBuf> = ["f", "f90", "c", "cpp"]
        .iter()
        .map(|ext| {
            repo()
                .join("tests")
                .join("fortran")
                .join(format!("{name}.{ext}"))
        })
        .filter(|p| p.exists())
        .collect();
    assert!(!sources.is_empty(), "{name}: no source in tests/fortran");
    let mut exp = Expectation::default();
    for source in &sources {
        exp.add(&fs::read_to_string(source).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    let dir = out_dir(fc, name);
    let support = repo()
        .join("tests")
        .join("fortran")
        .join("support")
        .join("checks.f90");
    let compiled: Result<Vec<PathBuf>, String> = std::iter::once(&support)
        .chain(&sources)
        .map(|source| compile_object(name, source, &dir))
        .collect();
    match (&exp.compile_error, compiled) {
        (Some(text), Err(report)) if report.contains(text.as_str()) => {}
        (Some(text), Err(report)) => {
            panic!("{name}: the compiler's output lacks `{text}`:\n{report}")
        }
        (Some(_), Ok(_)) => panic!("{name}: compiled, but must be rejected by the compiler"),
        (None, Err(report)) => panic!("{report}"),
        (None, Ok(objects)) => {
            let exe = dir.join(name);
            let mut link = fc.command();
            link.arg("-o").arg(&exe).args(&objects);
            if sources
                .iter()
                .any(|s| s.extension().is_some_and(|e| e == "cpp"))
            {
                // A C++ companion needs the C++ runtime, which mpifort does not link.
                link.arg("-lstdc++");
            }
            if let Err(report) = common::compile(name, &mut link) {
                panic!("{report}");
            }
            common::run_and_check(name, &exe, &dir, &exp, fc);
        }
    }
}

programs!(
    run_program,
    "fortran",
    ["f", "f90", "c", "cpp"],
    abi_booleans_f,
    aint_f,
    badargs_f08,
    badargs_mpi,
    bsend_auto_f,
    coll_f08,
    cxx_exception_f,
    detach_f,
    envelope_f,
    errors_f,
    external32_f,
    external32_f08,
    f08_attrs,
    f08_mpi1_attrs,
    f77_fixed,
    f90_mpif,
    fatal_abort_f,
    fatal_callback_name_f,
    fatal_f,
    fatal_freed_comm_f,
    handle_range_f,
    info_env_f08,
    info_f,
    finalize_f,
    fmissing_fixed,
    grequest_f,
    kind_check,
    large_count_f08,
    mixed_copy,
    mixed_errors,
    mixed_keyvals,
    mixed_status,
    mixed_values,
    outside_f08,
    outside_mpi,
    p2p_fixed,
    p2p_modes_f08,
    p2p_requests_f08,
    p2p_usempi,
    sessions_f08,
    usempi_callbacks,
    usempi_predefined,
    user_callbacks_f08,
    user_callbacks_mpif,
);

// ---- constants ----------------------------------------------------------------------------

/// The C expression for a Fortran-only constant, from the C types and constants it mirrors.
fn c_expression(name: &str) -> Option<&'static str> {
    Some(match name {
        "MPI_ADDRESS_KIND" => "(long long)sizeof(MPI_Aint)",
        "MPI_OFFSET_KIND" => "(long long)sizeof(MPI_Offset)",
        "MPI_COUNT_KIND" => "(long long)sizeof(MPI_Count)",
        "MPI_INTEGER_KIND" => "(long long)sizeof(MPI_Fint)",
        "MPI_STATUS_SIZE" => "(long long)MPI_F_STATUS_SIZE",
        "MPI_SOURCE" => "(long long)MPI_F_SOURCE + 1",
        "MPI_TAG" => "(long long)MPI_F_TAG + 1",
        "MPI_ERROR" => "(long long)MPI_F_ERROR + 1",
        _ => return None,
    })
}

/// The status indices, which `use mpi_f08` has as components of TYPE(MPI_Status) instead.
fn status_index(name: &str) -> bool {
    matches!(name, "MPI_SOURCE" | "MPI_TAG" | "MPI_ERROR")
}

/// `(name, is_logical)` of every constant mpif.h declares.
fn mpif_constants(mpif: &str) -> Vec<(String, bool)> {
    let mut names = Vec::new();
    for line in mpif.lines() {
        let line = line.trim();
        for (prefix, logical) in [("INTEGER ", false), ("LOGICAL ", true)] {
            if let Some(name) = line.strip_prefix(prefix) {
                let parameter = format!("PARAMETER ({name}=");
                if mpif.contains(&parameter) {
                    names.push((name.to_string(), logical));
                }
            }
        }
    }
    names
}

/// The predefined handles of mpi.h: `#define NAME ((MPI_X)…)` and aliases of those.
fn handle_names(mpi_h: &str) -> Vec<String> {
    let types: Vec<&str> = mpi_h
        .lines()
        .filter_map(|l| l.trim().strip_prefix("typedef struct MPI_ABI_"))
        .filter_map(|rest| rest.split_once('*'))
        .map(|(_, name)| name.trim_end_matches(';').trim())
        .collect();
    let mut handles: Vec<String> = Vec::new();
    for line in mpi_h.lines() {
        let Some(rest) = line.trim().strip_prefix("#define ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(char::is_whitespace) else {
            continue;
        };
        let value = value.trim();
        let is_handle = value
            .strip_prefix("((")
            .and_then(|v| v.split(')').next())
            .is_some_and(|ty| types.contains(&ty));
        if is_handle || handles.iter().any(|h| h == value) {
            handles.push(name.to_string());
        }
    }
    handles
}

/// Builds a program from one source and returns what it prints as `NAME value` lines.
fn constants_of(dir: &Path, file: &str, source: &str) -> BTreeMap<String, String> {
    let path = dir.join(file);
    fs::write(&path, source).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    let exe = dir.join(file.replace('.', "_"));
    let (fc, cc) = compilers();
    let mut cmd: Command = if file.ends_with(".c") {
        let mut cmd = cc.command();
        cmd.args(CFLAGS);
        cmd
    } else {
        let mut cmd = fc.command();
        cmd.args(FFLAGS).arg("-J").arg(dir);
        cmd
    };
    cmd.arg(&path).arg("-o").arg(&exe);
    if let Err(report) = common::compile(file, &mut cmd) {
        panic!("{report}");
    }
    let mut run = Command::new(&exe);
    common::clean_library_path(&mut run);
    let out = common::run_with_timeout(&mut run, common::RUN_TIMEOUT)
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(out.status.success(), "{}", common::report(file, &run, &out));
    out.stdout
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// Every constant of mpif.h has one value in mpif.h, `use mpi`, `use mpi_f08` and mpi.h.
#[test]
fn constants_agree_across_bindings() {
    let (fc, _) = compilers();
    if fc.external {
        eprintln!("constants_agree_across_bindings: only for mpiattr's own headers");
        return;
    }
    let prefix = common::prefix().as_ref().expect("an installed mpiattr");
    let include = prefix.join("include");
    let read = |file: &str| fs::read_to_string(include.join(file)).expect("installed header");
    let constants = mpif_constants(&read("mpif.h"));
    let handles = handle_names(&read("mpi.h"));
    assert!(
        constants.len() > 200,
        "only {} constants in mpif.h",
        constants.len()
    );

    let mut fixed =
        String::from("      PROGRAM CONSTS\n      IMPLICIT NONE\n      INCLUDE 'mpif.h'\n");
    let mut mpi = String::from("program consts\n  use mpi\n  implicit none\n");
    let mut f08 = String::from("program consts\n  use mpi_f08\n  implicit none\n");
    let mut c = String::from(
        "#include <mpi.h>\n#include <stdint.h>\n#include <stdio.h>\nint main(void)\n{\n",
    );
    for (name, logical) in &constants {
        let format = if *logical { "(A,1X,L1)" } else { "(A,1X,I0)" };
        writeln_all(
            &mut fixed,
            &format!("      WRITE(*,'{format}') '{name}',\n     &  {name}"),
        );
        writeln_all(&mut mpi, &format!("  print '{format}', '{name}', {name}"));
        if !status_index(name) {
            let value = if handles.contains(name) {
                format!("{name}%MPI_VAL")
            } else {
                name.clone()
            };
            writeln_all(&mut f08, &format!("  print '{format}', '{name}', {value}"));
        }
        if !*logical {
            let value = match c_expression(name) {
                Some(expression) => expression.to_string(),
                None if handles.contains(name) => format!("(long long)(intptr_t){name}"),
                None => format!("(long long){name}"),
            };
            writeln_all(
                &mut c,
                &format!("    printf(\"%s %lld\\n\", \"{name}\", {value});"),
            );
        }
    }
    fixed.push_str("      END\n");
    mpi.push_str("end program consts\n");
    f08.push_str("end program consts\n");
    c.push_str("    return 0;\n}\n");

    let dir = out_dir(fc, "constants");
    let from_c = constants_of(&dir, "consts.c", &c);
    let bindings = [
        ("mpif.h", constants_of(&dir, "consts_mpif.f", &fixed)),
        ("use mpi", constants_of(&dir, "consts_mpi.f90", &mpi)),
        ("use mpi_f08", constants_of(&dir, "consts_f08.f90", &f08)),
    ];
    let mut problems = Vec::new();
    for (name, logical) in &constants {
        let expected = if *logical {
            "F".to_string()
        } else {
            from_c[name].clone()
        };
        for (binding, values) in &bindings {
            match values.get(name) {
                Some(value) if *value == expected => {}
                None if *binding == "use mpi_f08" && status_index(name) => {}
                other => problems.push(format!(
                    "{name}: mpi.h says {expected}, {binding} {other:?}"
                )),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "constants disagree:\n{}",
        problems.join("\n")
    );
}

fn writeln_all(out: &mut String, line: &str) {
    out.push_str(line);
    out.push('\n');
}
