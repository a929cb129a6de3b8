//! Checks the installed mpiattr the way a C, C++ or Fortran user meets it: the layout
//! `ci/install` leaves (headers, modules, the shared library with its soname and links, the
//! static library, the pkg-config files, the wrappers and the launcher), the wrappers' answers
//! to MPICH's and Open MPI's query options and their compiler overrides, and the C, C++ and
//! Fortran programs of `tests/install/` built and run with each method: the wrappers,
//! pkg-config, the static library, CMake's `find_package(MPI)` through `MPI_HOME` and through
//! `PATH`, Meson's `dependency('mpi')`, fpm's `mpi` dependency, autoconf-archive's
//! `AX_PROG_*_MPI`, and a copy of the prefix moved elsewhere.
//!
//! The build tools run with another MPI installed (Debian's Open MPI, from `ci/prereqs`):
//! each test that uses one first checks that the other MPI's wrappers are on `PATH`, then that
//! the tool chose mpiattr (the programs check `MPI_Get_library_version`). Meson, Ninja and fpm
//! come from `target/tools/bin`, where `ci/prereqs` installs them; a missing tool fails the
//! test that needs it, saying how to install it.
//!
//! The prefix is `MPIATTR_PREFIX`, or one installed for the tests (see `tests/common`); its
//! Fortran INTEGER configuration is the one this test binary was built for. Every program
//! must exit 0 and print `OK <name>`; the negative controls must fail.

mod common;

use std::collections::HashMap;
use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{repo, run_with_timeout, Output, COMPILE_TIMEOUT, RUN_TIMEOUT};

const INTEGER8: bool = cfg!(feature = "fortran-integer-8");

/// The Fortran flag of this configuration, as the wrappers add it.
const FORTRAN_FLAGS: &str = if INTEGER8 { "-fdefault-integer-8" } else { "" };

/// What the Fortran wrappers add for gfortran 10 and later, which otherwise reject the calls
/// of one `mpif.h` routine with buffers of different types.
const MISMATCH_FLAG: &str = "-fallow-argument-mismatch";

/// The C, C++ and Fortran programs of `tests/install/`: (name, source).
const PROGRAMS: &[(&str, &str)] = &[
    ("hello_c", "hello.c"),
    ("hello_cpp", "hello.cpp"),
    ("hello_f08", "hello_f08.f90"),
    ("hello_mpi", "hello_mpi.f90"),
    ("hello_mpif", "hello_mpif.f"),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Language {
    C,
    Cxx,
    Fortran,
}

/// The language of a source of `tests/install/`, by its extension.
fn language(source: &str) -> Language {
    if source.ends_with(".c") {
        Language::C
    } else if source.ends_with(".cpp") {
        Language::Cxx
    } else {
        Language::Fortran
    }
}

fn program_source(name: &str) -> &'static str {
    PROGRAMS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no program {name}"))
        .1
}

/// Environment variables that choose the wrappers' underlying compiler: removed from every
/// command, so a test sees only what it sets.
const COMPILER_VARIABLES: &[&str] = &[
    "MPIATTR_CC",
    "MPIATTR_CXX",
    "MPIATTR_FC",
    "MPICH_CC",
    "MPICH_CXX",
    "MPICH_FC",
    "MPICH_F90",
    "MPICH_F77",
    "OMPI_CC",
    "OMPI_CXX",
    "OMPI_FC",
    "OMPI_F77",
];

/// Environment variables through which build tools take a compiler, an MPI wrapper or flags
/// (CMake, Meson, fpm, autoconf, pkg-config): removed from the build tools' commands, so that
/// `PATH` (or what a test sets) alone decides which MPI they find.
const TOOL_VARIABLES: &[&str] = &[
    "CC",
    "CXX",
    "FC",
    "F77",
    "F90",
    "CFLAGS",
    "CXXFLAGS",
    "FFLAGS",
    "FCFLAGS",
    "LDFLAGS",
    "MPICC",
    "MPICXX",
    "MPIFC",
    "MPIF90",
    "MPIF77",
    "MPIf90",
    "MPIf77",
    "MPI_HOME",
    "FPM_FC",
    "FPM_CC",
    "FPM_CXX",
    "FPM_FFLAGS",
    "FPM_CFLAGS",
    "FPM_CXXFLAGS",
    "FPM_LDFLAGS",
    "PKG_CONFIG_PATH",
];

/// The installed prefix, as the wrappers see it (symbolic links resolved).
fn prefix() -> PathBuf {
    let prefix = common::prefix()
        .as_ref()
        .unwrap_or_else(|e| panic!("no installed mpiattr: {e}"));
    fs::canonicalize(prefix).unwrap_or_else(|e| panic!("{}: {e}", prefix.display()))
}

fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn source(file: &str) -> PathBuf {
    repo().join("tests").join("install").join(file)
}

/// An empty directory of its own for one test.
fn work_dir(name: &str) -> PathBuf {
    let config = if INTEGER8 { "integer8" } else { "integer4" };
    let dir = repo()
        .join("target")
        .join("install-tests")
        .join(config)
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// A command with a clean environment for compilers: no compiler overrides, no library
/// path pointing into the build tree.
fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    for variable in COMPILER_VARIABLES {
        cmd.env_remove(variable);
    }
    common::clean_library_path(&mut cmd);
    cmd
}

fn wrapper(name: &str) -> Command {
    command(prefix().join("bin").join(name))
}

/// A build tool's command: no compiler or MPI variables, and `PATH` with `first` before it.
fn tool_command(program: impl AsRef<std::ffi::OsStr>, first: &[PathBuf]) -> Command {
    let mut cmd = command(program);
    for variable in TOOL_VARIABLES {
        cmd.env_remove(variable);
    }
    cmd.env("PATH", path_with(first));
    cmd
}

/// `PATH` with `first` before it.
fn path_with(first: &[PathBuf]) -> OsString {
    let path = env::var_os("PATH").unwrap_or_default();
    let dirs = first.iter().cloned().chain(env::split_paths(&path));
    env::join_paths(dirs).expect("PATH")
}

/// Meson, Ninja or fpm, from the virtual environment `ci/prereqs` installs them into.
fn python_tool(name: &str) -> PathBuf {
    let path = repo().join("target").join("tools").join("bin").join(name);
    assert!(
        executable(&path),
        "{} is missing: ci/prereqs installs meson, ninja and fpm 0.11.0 from PyPI into \
         target/tools (ci/install runs it, and so does `cargo test` without MPIATTR_PREFIX)",
        path.display()
    );
    path
}

/// The other MPI whose presence the build-tool tests need: its `mpicc`, `mpicxx` and
/// `mpifort` on `PATH`, outside mpiattr's prefix. Panics if there is none: the tests prove
/// that the tools choose mpiattr over another MPI, which needs one installed.
fn another_mpi() -> String {
    let ours = prefix().join("bin");
    let path = env::var_os("PATH").unwrap_or_default();
    let mut found = Vec::new();
    for name in ["mpicc", "mpicxx", "mpifort"] {
        let other = env::split_paths(&path)
            .map(|dir| dir.join(name))
            .filter(|file| executable(file))
            .find(|file| fs::canonicalize(file).is_ok_and(|real| !real.starts_with(&ours)));
        match other {
            Some(file) => found.push(text(&file)),
            None => panic!(
                "no other MPI's {name} on PATH: these tests show that the build tools choose \
                 mpiattr over another MPI, so one must be installed (ci/prereqs installs \
                 Debian's Open MPI: openmpi-bin and libopenmpi-dev)"
            ),
        }
    }
    found.join(", ")
}

/// Whether the `gfortran` on `PATH` is version 10 or later, by its `-dumpversion`.
fn gfortran_10_or_later() -> bool {
    static ANSWER: OnceLock<bool> = OnceLock::new();
    *ANSWER.get_or_init(|| {
        let mut cmd = command("gfortran");
        cmd.arg("-dumpversion");
        let out = run("gfortran -dumpversion", &mut cmd, RUN_TIMEOUT);
        let major = out.stdout.trim().split('.').next().unwrap_or("");
        major
            .parse::<u32>()
            .unwrap_or_else(|_| panic!("gfortran -dumpversion: {:?}", out.stdout))
            >= 10
    })
}

/// The Fortran flags the wrappers add with gfortran, and the pkg-config files carry: the
/// configuration's and, for gfortran 10 and later, the argument-mismatch one.
fn fortran_flags() -> Vec<&'static str> {
    let mut flags: Vec<&str> = FORTRAN_FLAGS.split_whitespace().collect();
    if gfortran_10_or_later() {
        flags.push(MISMATCH_FLAG);
    }
    flags
}

/// Runs a command that must succeed; its output.
fn run(what: &str, cmd: &mut Command, timeout: std::time::Duration) -> Output {
    let out = run_with_timeout(cmd, timeout)
        .unwrap_or_else(|e| panic!("{what}: cannot run `{}`: {e}", common::show(cmd)));
    if !out.status.success() || out.timed_out {
        panic!("{}", common::report(&format!("{what} failed"), cmd, &out));
    }
    out
}

/// What a wrapper prints for a query, without the final newline.
fn query(name: &str, args: &[&str]) -> String {
    let mut cmd = wrapper(name);
    cmd.args(args);
    let out = run(&format!("{name} {}", args.join(" ")), &mut cmd, RUN_TIMEOUT);
    out.stdout.trim_end_matches('\n').to_string()
}

/// Compiles with a command (holding a job slot); panics with the compiler's output if it fails.
fn compile(what: &str, cmd: &mut Command) {
    if let Err(report) = common::compile(what, cmd) {
        panic!("{report}");
    }
}

/// Runs a built program (through `launcher` if given) and checks it printed `OK name`.
fn check_program(name: &str, launcher: &[&str], exe: &Path) {
    let mut cmd = match launcher.split_first() {
        Some((first, rest)) => {
            let mut cmd = command(prefix().join("bin").join(first));
            cmd.args(rest).arg(exe);
            cmd
        }
        None => command(exe),
    };
    let out = run(name, &mut cmd, RUN_TIMEOUT);
    let ok = format!("OK {name}");
    assert!(
        out.stdout.lines().any(|l| l == ok),
        "{}",
        common::report(&format!("{name}: no line `{ok}`"), &cmd, &out)
    );
}

/// `readelf -d` of a binary.
fn dynamic_section(file: &Path) -> String {
    let mut cmd = Command::new("readelf");
    cmd.arg("-d").arg(file).env("LC_ALL", "C");
    run("readelf", &mut cmd, RUN_TIMEOUT).stdout
}

/// The program needs libmpiattr.so.0 and finds it in `libdir` through its run path.
fn assert_linked_to(exe: &Path, libdir: &Path) {
    let dynamic = dynamic_section(exe);
    assert!(
        dynamic.contains("Shared library: [libmpiattr.so.0]"),
        "{} does not need libmpiattr.so.0:\n{dynamic}",
        exe.display()
    );
    let runpath = format!("path: [{}]", text(libdir));
    assert!(
        dynamic.contains(&runpath),
        "{}: no run path {}:\n{dynamic}",
        exe.display(),
        libdir.display()
    );
}

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

// ---- the layout ----------------------------------------------------------------------------

#[test]
fn layout_is_complete() {
    let prefix = prefix();
    let version = env!("CARGO_PKG_VERSION");
    for file in [
        "include/mpi.h",
        "include/mpif.h",
        "include/mpi.mod",
        "include/mpi_f08.mod",
        "lib/libmpiattr.a",
        "lib/pkgconfig/mpiattr.pc",
        "lib/pkgconfig/mpi-c.pc",
        "lib/pkgconfig/mpi-cxx.pc",
        "lib/pkgconfig/mpi-fort.pc",
        "share/doc/mpiattr/README.md",
        "share/doc/mpiattr/CHANGELOG.md",
        "share/doc/mpiattr/docs/api.md",
        "share/doc/mpiattr/docs/errors.md",
    ] {
        assert!(prefix.join(file).is_file(), "{file} is not installed");
    }
    for program in [
        "mpicc", "mpicxx", "mpic++", "mpiCC", "mpifort", "mpif90", "mpif77", "mpiexec", "mpirun",
    ] {
        let path = prefix.join("bin").join(program);
        assert!(executable(&path), "bin/{program} is not an executable file");
    }

    // The shared library under its full version, and the two links.
    let lib = prefix.join("lib");
    let real = lib.join(format!("libmpiattr.so.{version}"));
    let meta = fs::symlink_metadata(&real).expect("the versioned shared library");
    assert!(
        meta.file_type().is_file(),
        "{} is not a file",
        real.display()
    );
    for (link, target) in [
        ("libmpiattr.so.0", format!("libmpiattr.so.{version}")),
        ("libmpiattr.so", "libmpiattr.so.0".to_string()),
    ] {
        let got = fs::read_link(lib.join(link)).unwrap_or_else(|e| panic!("lib/{link}: {e}"));
        assert_eq!(got, Path::new(&target), "lib/{link} points elsewhere");
    }
    let dynamic = dynamic_section(&real);
    assert!(
        dynamic.contains("Library soname: [libmpiattr.so.0]"),
        "the library's soname is not libmpiattr.so.0:\n{dynamic}"
    );

    // The header carries the configuration.
    let header = fs::read_to_string(prefix.join("include/mpi.h")).unwrap();
    assert_eq!(
        header.contains("#define MPIATTR_FORTRAN_INTEGER_8 1"),
        INTEGER8,
        "the installed mpi.h does not match the Fortran INTEGER configuration"
    );
}

// ---- the wrappers' queries -----------------------------------------------------------------

/// Every wrapper answers MPICH's queries and Open MPI's, the latter in both spellings
/// (`-showme:compile`, `--showme:compile`: Meson and fpm use the second), and MPICH's `-v`.
#[test]
fn wrappers_answer_mpich_and_open_mpi_queries() {
    let prefix = text(&prefix());
    let include = format!("-I{prefix}/include");
    let link = format!("-L{prefix}/lib -Wl,-rpath,{prefix}/lib -lmpiattr");
    let version = env!("CARGO_PKG_VERSION");
    let fortran = fortran_flags().join(" ");
    for name in [
        "mpicc", "mpicxx", "mpic++", "mpiCC", "mpifort", "mpif90", "mpif77",
    ] {
        let (compiler, language, flags) = match name {
            "mpicc" => ("cc", "C", ""),
            "mpicxx" | "mpic++" | "mpiCC" => ("c++", "C++", ""),
            _ => ("gfortran", "Fortran", fortran.as_str()),
        };
        // The compiler followed by the language's flags.
        let head = if flags.is_empty() {
            compiler.to_string()
        } else {
            format!("{compiler} {flags}")
        };
        let compile_flags = if flags.is_empty() {
            include.clone()
        } else {
            format!("{flags} {include}")
        };
        let expected: &[(&[&str], String)] = &[
            // MPICH
            (&["-show"], format!("{head} {include} {link}")),
            (&["-compile-info"], format!("{head} {include}")),
            (&["-compile_info"], format!("{head} {include}")),
            (&["-link-info"], format!("{head} {include} {link}")),
            (&["-link_info"], format!("{head} {include} {link}")),
            (
                &["-show", "prog.src", "-o", "prog"],
                format!("{head} prog.src -o prog {include} {link}"),
            ),
            (
                &["-show", "-c", "prog.src", "-o", "prog.o"],
                format!("{head} -c prog.src -o prog.o {include}"),
            ),
            (
                &["-show", "-DTEXT=two words", "-c", "x.src"],
                format!("{head} \"-DTEXT=two words\" -c x.src {include}"),
            ),
            // Open MPI
            (&["-showme"], format!("{head} {include} {link}")),
            (
                &["-showme", "-c", "prog.src"],
                format!("{head} -c prog.src {include}"),
            ),
            (&["-showme:compile"], compile_flags.clone()),
            (&["-showme:link"], link.clone()),
            (&["-showme:command"], compiler.to_string()),
            (&["-showme:incdirs"], format!("{prefix}/include")),
            (&["-showme:libdirs"], format!("{prefix}/lib")),
            (&["-showme:libs"], "mpiattr".to_string()),
            (
                &["-showme:version"],
                format!("{name}: mpiattr {version} (Language: {language})"),
            ),
        ];
        for (args, want) in expected {
            assert_eq!(&query(name, args), want, "{name} {}", args.join(" "));
            // Open MPI's double-dash spelling of the same query.
            if args[0].starts_with("-showme") {
                let mut double = args.to_vec();
                let spelled = format!("-{}", args[0]);
                double[0] = &spelled;
                assert_eq!(&query(name, &double), want, "{name} {}", double.join(" "));
            }
        }
        // MPICH's -v: the wrapper's version line on stdout, then the compiler's own -v (on
        // stderr); with no input, nothing is linked, so it succeeds.
        assert_eq!(
            query(name, &["-v"]),
            format!("{name} for mpiattr version {version}"),
            "{name} -v"
        );
    }
}

/// A wrapper, the environment variables set, its options, and what it must run.
type Override<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str], String);

/// The underlying compiler comes from the environment variables of MPICH and Open MPI (and
/// mpiattr's own), or from MPICH's -cc= / -fc= options.
#[test]
fn wrappers_honour_compiler_overrides() {
    let dir = work_dir("overrides");
    // A stand-in compiler that prints its name and arguments.
    let fake = dir.join("fake");
    fs::write(&fake, "#!/bin/sh\necho \"$(basename \"$0\")\" \"$@\"\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).unwrap();
    }
    for name in [
        "cc-a", "cc-b", "cc-c", "cc-d", "cxx-a", "cxx-b", "cxx-c", "cxx-d", "fc-a", "fc-b", "fc-c",
        "fc-d",
    ] {
        fs::copy(&fake, dir.join(name)).unwrap();
    }
    let tool = |n: &str| text(&dir.join(n));
    let prefix = text(&prefix());
    let include = format!("-I{prefix}/include");
    let flags = if INTEGER8 {
        format!("{FORTRAN_FLAGS} ")
    } else {
        String::new()
    };

    let cases: &[Override] = &[
        (
            "mpicc",
            &[("MPICH_CC", "cc-a")],
            &[],
            format!("cc-a -c x.c {include}"),
        ),
        (
            "mpicc",
            &[("OMPI_CC", "cc-b")],
            &[],
            format!("cc-b -c x.c {include}"),
        ),
        (
            "mpicc",
            &[("MPIATTR_CC", "cc-c"), ("MPICH_CC", "cc-a")],
            &[],
            format!("cc-c -c x.c {include}"),
        ),
        (
            "mpicc",
            &[("MPICH_CC", "cc-a")],
            &["-cc=CC-D"],
            format!("cc-d -c x.c {include}"),
        ),
        (
            "mpicxx",
            &[("MPICH_CXX", "cxx-a")],
            &[],
            format!("cxx-a -c x.c {include}"),
        ),
        (
            "mpic++",
            &[("OMPI_CXX", "cxx-b")],
            &[],
            format!("cxx-b -c x.c {include}"),
        ),
        (
            "mpiCC",
            &[("MPIATTR_CXX", "cxx-c"), ("MPICH_CXX", "cxx-a")],
            &[],
            format!("cxx-c -c x.c {include}"),
        ),
        (
            "mpicxx",
            &[("MPICH_CXX", "cxx-a")],
            &["-cxx=CXX-D"],
            format!("cxx-d -c x.c {include}"),
        ),
        (
            "mpifort",
            &[("MPICH_FC", "fc-a")],
            &[],
            format!("fc-a {flags}-c x.c {include}"),
        ),
        (
            "mpifort",
            &[("OMPI_FC", "fc-b")],
            &[],
            format!("fc-b {flags}-c x.c {include}"),
        ),
        (
            "mpifort",
            &[("MPIATTR_FC", "fc-c"), ("MPICH_FC", "fc-a")],
            &[],
            format!("fc-c {flags}-c x.c {include}"),
        ),
        (
            "mpif90",
            &[("MPICH_F90", "fc-d"), ("MPICH_FC", "fc-a")],
            &[],
            format!("fc-d {flags}-c x.c {include}"),
        ),
        (
            "mpif90",
            &[("MPICH_FC", "fc-a")],
            &[],
            format!("fc-a {flags}-c x.c {include}"),
        ),
        (
            "mpif77",
            &[("MPICH_F77", "fc-b"), ("MPICH_FC", "fc-a")],
            &[],
            format!("fc-b {flags}-c x.c {include}"),
        ),
        (
            "mpif77",
            &[("OMPI_F77", "fc-c")],
            &[],
            format!("fc-c {flags}-c x.c {include}"),
        ),
        (
            "mpifort",
            &[("MPICH_FC", "fc-a")],
            &["-fc=FC-D"],
            format!("fc-d {flags}-c x.c {include}"),
        ),
    ];
    for (name, vars, options, want) in cases {
        let mut cmd = wrapper(name);
        for (var, value) in *vars {
            cmd.env(var, tool(value));
        }
        for option in *options {
            // -cc=CC-D names the stand-in cc-d by its path.
            let (flag, value) = option.split_once('=').unwrap();
            cmd.arg(format!("{flag}={}", tool(&value.to_lowercase())));
        }
        cmd.args(["-c", "x.c"]);
        let out = run(&format!("{name} with {vars:?}"), &mut cmd, RUN_TIMEOUT);
        assert_eq!(
            out.stdout.trim_end(),
            want,
            "{name} with {vars:?} {options:?}"
        );
    }
    // -show tells which compiler would run, without running it.
    let mut cmd = wrapper("mpicc");
    cmd.env("MPICH_CC", tool("cc-a"))
        .args(["-show", "-c", "x.c"]);
    let out = run("mpicc -show with MPICH_CC", &mut cmd, RUN_TIMEOUT);
    assert_eq!(
        out.stdout.trim_end(),
        format!("{} -c x.c {include}", tool("cc-a"))
    );

    // MPICH's -v: the wrapper's line, then the compiler gets -v; alone (or with only
    // --version) it links nothing, with input it compiles and links as usual. --version
    // alone goes to the compiler, which says what it is.
    let version = env!("CARGO_PKG_VERSION");
    let link = format!("-L{prefix}/lib -Wl,-rpath,{prefix}/lib -lmpiattr");
    let verbose: &[(&str, &[&str], String)] = &[
        (
            "mpicc",
            &["-v"],
            format!("mpicc for mpiattr version {version}\ncc-a -v {include}"),
        ),
        (
            "mpicc",
            &["-v", "x.c"],
            format!("mpicc for mpiattr version {version}\ncc-a -v x.c {include} {link}"),
        ),
        ("mpicc", &["--version"], format!("cc-a --version {include}")),
        (
            "mpicc",
            &["-v", "--version"],
            format!("mpicc for mpiattr version {version}\ncc-a -v --version {include}"),
        ),
        ("mpicc", &["x.c"], format!("cc-a x.c {include} {link}")),
    ];
    for (name, args, want) in verbose {
        let mut cmd = wrapper(name);
        cmd.env("MPICH_CC", tool("cc-a")).args(*args);
        let out = run(&format!("{name} {args:?}"), &mut cmd, RUN_TIMEOUT);
        assert_eq!(out.stdout.trim_end(), want, "{name} {args:?}");
    }

    // -fallow-argument-mismatch goes to gfortran 10 and later only: stand-ins that answer
    // --version and -dumpversion as gfortran 9 and 10 do, and one that is not GNU Fortran.
    let stand_in = |file: &str, identity: &str, major: &str| {
        let script = format!(
            "#!/bin/sh\ncase $1 in\n    --version) echo '{identity}'; exit 0 ;;\n    \
             -dumpversion) echo {major}; exit 0 ;;\nesac\necho \"$(basename \"$0\")\" \"$@\"\n"
        );
        let path = dir.join(file);
        fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    };
    stand_in("gfortran-9", "GNU Fortran (stand-in) 9.5.0", "9");
    stand_in("gfortran-10", "GNU Fortran (stand-in) 10.1.0", "10");
    stand_in("gfortran-14", "GNU Fortran (stand-in) 14.2.0", "14.2.0");
    stand_in("flang-17", "flang-new version 17.0.6", "17");
    let mismatch = format!("{MISMATCH_FLAG} ");
    for (compiler, added) in [
        ("gfortran-9", ""),
        ("gfortran-10", mismatch.as_str()),
        ("gfortran-14", mismatch.as_str()),
        ("flang-17", ""),
    ] {
        for name in ["mpifort", "mpif90", "mpif77"] {
            let mut cmd = wrapper(name);
            cmd.env("MPIATTR_FC", tool(compiler)).args(["-c", "x.f"]);
            let out = run(&format!("{name} with {compiler}"), &mut cmd, RUN_TIMEOUT);
            assert_eq!(
                out.stdout.trim_end(),
                format!("{compiler} {flags}{added}-c x.f {include}"),
                "{name} with {compiler}"
            );
            let mut cmd = wrapper(name);
            cmd.env("MPIATTR_FC", tool(compiler))
                .arg("--showme:compile");
            let out = run(&format!("{name} --showme:compile"), &mut cmd, RUN_TIMEOUT);
            assert_eq!(
                out.stdout.trim_end(),
                format!("{flags}{added}{include}"),
                "{name} --showme:compile with {compiler}"
            );
        }
    }
}

// ---- building and running with each method -------------------------------------------------

#[test]
fn wrappers_build_and_run_c_cpp_and_fortran() {
    let dir = work_dir("wrappers");
    let libdir = prefix().join("lib");
    // The C++ program with each C++ wrapper name, Fortran sources with each Fortran one.
    let builds: &[(&str, &str)] = &[
        ("hello_c", "mpicc"),
        ("hello_cpp", "mpicxx"),
        ("hello_cpp", "mpic++"),
        ("hello_cpp", "mpiCC"),
        ("hello_f08", "mpifort"),
        ("hello_mpi", "mpif90"),
        ("hello_mpif", "mpif77"),
    ];
    for (name, tool) in builds {
        let src = program_source(name);
        let exe = dir.join(format!("{name}-{tool}"));
        let mut cmd = wrapper(tool);
        match language(src) {
            Language::C => {
                cmd.args(["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]);
            }
            Language::Cxx => {
                cmd.args(["-std=c++98", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]);
            }
            Language::Fortran => {
                cmd.args(["-Wall", "-Werror", "-J"]).arg(&dir);
            }
        }
        cmd.arg(source(src)).arg("-o").arg(&exe);
        compile(&format!("{name} with {tool}"), &mut cmd);
        assert_linked_to(&exe, &libdir);
        check_program(name, &["mpiexec", "-n", "1"], &exe);
        check_program(name, &["mpirun", "-np", "1"], &exe);
        check_program(name, &[], &exe);
    }

    // Separate compile and link steps, and a C object linked by the Fortran wrapper.
    let object = dir.join("hello_c.o");
    let mut cmd = wrapper("mpicc");
    cmd.arg("-c").arg(source("hello.c")).arg("-o").arg(&object);
    compile("hello_c -c", &mut cmd);
    let exe = dir.join("hello_c_linked_by_mpifort");
    let mut cmd = wrapper("mpifort");
    cmd.arg(&object).arg("-o").arg(&exe);
    compile("hello_c linked by mpifort", &mut cmd);
    check_program("hello_c", &["mpiexec"], &exe);
}

/// The bundled examples a user would try first: an ordinary parallel solver (conjugate
/// gradients with the everyday collectives, point-to-point, a group, a vector datatype and a
/// cached workspace) builds with the wrapper unchanged and runs as one process, directly and
/// through mpiexec; it checks its own solution and prints `OK serial_solver`. Its Fortran
/// version (`use mpi`) builds with mpifort and prints `OK serial_solver_f`.
#[test]
fn bundled_solver_builds_and_runs() {
    let dir = work_dir("examples");
    let exe = dir.join("serial_solver");
    let mut cmd = wrapper("mpicc");
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"])
        .arg(repo().join("examples").join("serial_solver.c"))
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    compile("examples/serial_solver.c", &mut cmd);
    check_program("serial_solver", &[], &exe);
    check_program("serial_solver", &["mpiexec", "-n", "1"], &exe);
    let exe = dir.join("serial_solver_f");
    let mut cmd = wrapper("mpifort");
    // A callback's unused dummy arguments are part of its interface.
    cmd.args(["-Wall", "-Werror", "-Wno-unused-dummy-argument", "-O2"])
        .arg(repo().join("examples").join("serial_solver.f90"))
        .arg("-o")
        .arg(&exe);
    compile("examples/serial_solver.f90", &mut cmd);
    check_program("serial_solver_f", &[], &exe);
}

/// Negative control: a Fortran program compiled without the wrapper's INTEGER flag (or with
/// the other configuration's) is caught by the program's own kind check. This proves the
/// wrappers' flag is what makes the programs above pass.
#[test]
fn fortran_kind_check_catches_the_wrong_integer_flag() {
    let dir = work_dir("wrong-integer");
    let exe = dir.join("hello_mpif");
    let mut cmd = command("gfortran");
    if !INTEGER8 {
        cmd.arg("-fdefault-integer-8");
    }
    cmd.arg(format!("-I{}", text(&prefix().join("include"))))
        .arg(source("hello_mpif.f"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", text(&prefix().join("lib"))))
        .arg(format!("-Wl,-rpath,{}", text(&prefix().join("lib"))))
        .arg("-lmpiattr");
    compile("hello_mpif with the wrong INTEGER flag", &mut cmd);
    let mut run_cmd = command(&exe);
    let out = run_with_timeout(&mut run_cmd, RUN_TIMEOUT).unwrap();
    assert!(
        !out.status.success()
            && out
                .stdout
                .contains("FAILED: default INTEGER is not MPI_INTEGER_KIND"),
        "{}",
        common::report(
            "hello_mpif built with the wrong INTEGER flag must fail its kind check",
            &run_cmd,
            &out
        )
    );
}

/// `mpi.h` is also a C++ header: every object-like macro it defines (the constants, the
/// predefined handles and callbacks) compiles as an expression through mpicxx from C++98 to
/// C++20 with every warning an error. That its functions are declared `extern "C"` shows in
/// hello.cpp linking.
#[test]
fn mpi_h_compiles_as_cpp_with_every_constant() {
    let dir = work_dir("cpp-header");
    let header = fs::read_to_string(prefix().join("include").join("mpi.h")).unwrap();
    let names: Vec<&str> = header
        .lines()
        .filter_map(|line| line.strip_prefix("#define "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|name| name.starts_with("MPI_") && !name.contains('('))
        .collect();
    assert!(names.len() > 100, "mpi.h defines only {names:?}");
    let mut program =
        String::from("#include <mpi.h>\ntemplate <class T> static void use(T) {}\nint main()\n{\n");
    for name in &names {
        program.push_str(&format!("    use({name});\n"));
    }
    program.push_str("    return 0;\n}\n");
    let src = dir.join("constants.cpp");
    fs::write(&src, program).unwrap();
    for standard in ["c++98", "c++11", "c++17", "c++20"] {
        let mut cmd = wrapper("mpicxx");
        cmd.arg(format!("-std={standard}"))
            .args(["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c"])
            .arg(&src)
            .arg("-o")
            .arg(dir.join(format!("constants-{standard}.o")));
        compile(&format!("every mpi.h constant as {standard}"), &mut cmd);
    }
}

/// An old fixed-form program passes a REAL and then an INTEGER array to the same `mpif.h`
/// routines (MPI_GET_ADDRESS, MPI_WIN_CREATE). The Fortran wrappers and `mpi-fort.pc` build it
/// (they add `-fallow-argument-mismatch` for gfortran 10 and later) and it runs; gfortran
/// without the flag, or with the wrapper's flag undone, rejects it.
#[test]
fn fortran_wrappers_allow_argument_mismatch() {
    let dir = work_dir("mismatch");
    let src = source("mismatch_mpif.f");
    let include = format!("-I{}", text(&prefix().join("include")));
    for tool in ["mpif77", "mpif90", "mpifort"] {
        let exe = dir.join(format!("mismatch_mpif-{tool}"));
        let mut cmd = wrapper(tool);
        cmd.arg(&src).arg("-o").arg(&exe);
        compile(&format!("mismatch_mpif with {tool}"), &mut cmd);
        check_program("mismatch_mpif", &["mpiexec", "-n", "1"], &exe);
    }
    let pc = prefix().join("lib").join("pkgconfig");
    let exe = dir.join("mismatch_mpif-pkg-config");
    let mut cmd = command("gfortran");
    cmd.args(pkg_config(&pc, &["--cflags", "mpi-fort"]))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .args(pkg_config(&pc, &["--libs", "mpi-fort"]));
    compile("mismatch_mpif with pkg-config mpi-fort", &mut cmd);
    check_program("mismatch_mpif", &[], &exe);

    // The controls: what the flag is for. gfortran before 10 neither needs nor knows it.
    if !gfortran_10_or_later() {
        let compile_flags = query("mpifort", &["-showme:compile"]);
        assert!(
            !compile_flags.contains(MISMATCH_FLAG),
            "mpifort adds {MISMATCH_FLAG} for a gfortran before 10: {compile_flags}"
        );
        return;
    }
    let mut plain = command("gfortran");
    plain
        .args(FORTRAN_FLAGS.split_whitespace())
        .arg(&include)
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("plain.o"));
    let mut undone = wrapper("mpifort");
    undone
        .arg("-fno-allow-argument-mismatch")
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("undone.o"));
    for (what, cmd) in [
        ("gfortran without the flag", &mut plain),
        ("mpifort -fno-allow-argument-mismatch", &mut undone),
    ] {
        let out = {
            let _slot = common::Slot::take();
            run_with_timeout(cmd, COMPILE_TIMEOUT).unwrap()
        };
        assert!(
            !out.status.success() && out.stderr.contains("Type mismatch"),
            "{}",
            common::report(&format!("{what} must reject mismatch_mpif.f"), cmd, &out)
        );
    }
}

fn pkg_config(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut cmd = command("pkg-config");
    cmd.env("PKG_CONFIG_PATH", dir).args(args);
    let out = run(
        &format!("pkg-config {}", args.join(" ")),
        &mut cmd,
        RUN_TIMEOUT,
    );
    out.stdout.split_whitespace().map(str::to_owned).collect()
}

/// pkg-config finds mpiattr's `mpi-c`, `mpi-cxx` and `mpi-fort` first through
/// `PKG_CONFIG_PATH`, though another MPI's files of those names are on its default path, and
/// the programs built with each of them run.
#[test]
fn pkg_config_builds_and_runs_c_cpp_and_fortran() {
    let dir = work_dir("pkg-config");
    let pc = prefix().join("lib").join("pkgconfig");
    assert_eq!(
        pkg_config(
            &pc,
            &["--modversion", "mpiattr", "mpi-c", "mpi-cxx", "mpi-fort"]
        ),
        vec![env!("CARGO_PKG_VERSION"); 4]
    );
    let fortran = fortran_flags();
    let fortran_flags = pkg_config(&pc, &["--variable=fortran_flags", "mpiattr"]);
    assert_eq!(fortran_flags, fortran);
    assert_eq!(
        pkg_config(&pc, &["--cflags", "mpi-fort"]),
        fortran
            .iter()
            .map(|f| f.to_string())
            .chain([format!("-I{}", text(&pc.join("../../include")))])
            .collect::<Vec<_>>()
    );

    // Another MPI's files, found without PKG_CONFIG_PATH.
    let other = another_mpi();
    for package in ["mpi-c", "mpi-cxx", "mpi-fort"] {
        let mut cmd = tool_command("pkg-config", &[]);
        cmd.args(["--cflags", package]);
        let out = run_with_timeout(&mut cmd, RUN_TIMEOUT).unwrap();
        assert!(
            out.status.success() && !out.stdout.contains(&text(&prefix())),
            "{}",
            common::report(
                &format!(
                    "another MPI ({other}) must have its own {package}.pc on pkg-config's \
                     default path (Debian's Open MPI has)"
                ),
                &cmd,
                &out
            )
        );
    }

    let libdir = prefix().join("lib");
    for (name, src) in PROGRAMS {
        let (compiler, packages): (&str, &[&str]) = match language(src) {
            Language::C => ("cc", &["mpiattr", "mpi-c"]),
            Language::Cxx => ("c++", &["mpiattr", "mpi-cxx"]),
            Language::Fortran => ("gfortran", &["mpiattr", "mpi-fort"]),
        };
        for package in packages {
            let exe = dir.join(format!("{name}-{package}"));
            let mut cmd = command(compiler);
            if language(src) == Language::Fortran {
                cmd.arg("-J").arg(&dir);
                if *package == "mpiattr" {
                    cmd.args(&fortran_flags);
                }
            }
            cmd.args(pkg_config(&pc, &["--cflags", package]))
                .arg(source(src))
                .arg("-o")
                .arg(&exe)
                .args(pkg_config(&pc, &["--libs", package]));
            compile(&format!("{name} with pkg-config {package}"), &mut cmd);
            assert_linked_to(&exe, &libdir.join("pkgconfig/../../lib"));
            check_program(name, &[], &exe);
        }
    }
}

#[test]
fn static_library_links_c_cpp_and_fortran() {
    let dir = work_dir("static");
    let pc = prefix().join("lib").join("pkgconfig");
    let archive = text(&prefix().join("lib").join("libmpiattr.a"));
    // The system libraries the archive needs, from pkg-config's Libs.private.
    let system: Vec<String> = pkg_config(&pc, &["--static", "--libs-only-l", "mpiattr"])
        .into_iter()
        .filter(|l| l != "-lmpiattr")
        .collect();
    for name in ["hello_c", "hello_cpp", "hello_f08"] {
        let src = program_source(name);
        let exe = dir.join(name);
        let mut cmd = command(match language(src) {
            Language::C => "cc",
            Language::Cxx => "c++",
            Language::Fortran => "gfortran",
        });
        if language(src) == Language::Fortran {
            cmd.arg("-J")
                .arg(&dir)
                .args(FORTRAN_FLAGS.split_whitespace());
        }
        cmd.arg(format!("-I{}", text(&prefix().join("include"))))
            .arg(source(src))
            .arg("-o")
            .arg(&exe)
            .arg(&archive)
            .args(&system);
        compile(&format!("{name} with libmpiattr.a"), &mut cmd);
        let dynamic = dynamic_section(&exe);
        assert!(
            !dynamic.contains("libmpiattr"),
            "{name} linked with libmpiattr.a still needs the shared library:\n{dynamic}"
        );
        check_program(name, &[], &exe);
    }
}

/// How a CMake test finds the installation.
enum Finder {
    MpiHome,
    Path,
}

/// CMake's FindMPI with `COMPONENTS C CXX Fortran` finds only mpiattr, with another MPI
/// installed, and builds and runs the five programs.
fn cmake(finder: Finder) {
    another_mpi();
    let prefix = prefix();
    let dir = work_dir(match finder {
        Finder::MpiHome => "cmake-mpi-home",
        Finder::Path => "cmake-path",
    });
    let build = dir.join("build");
    let configure = |program: &str| -> Command {
        match finder {
            // PATH keeps the other MPI (Debian's mpicc in /usr/bin): MPI_HOME must win over it.
            Finder::MpiHome => {
                let mut cmd = tool_command(program, &[]);
                cmd.env("MPI_HOME", &prefix);
                cmd
            }
            Finder::Path => tool_command(program, &[prefix.join("bin")]),
        }
    };
    let mut cmd = configure("cmake");
    cmd.arg("-S")
        .arg(repo().join("tests").join("install"))
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_BUILD_TYPE=Release");
    {
        let _slot = common::Slot::take();
        run(
            "cmake configure (ci/prereqs installs cmake)",
            &mut cmd,
            COMPILE_TIMEOUT,
        );
    }

    // What FindMPI found.
    let found = fs::read_to_string(build.join("mpi_found.txt")).expect("mpi_found.txt");
    let value = |name: &str| -> String {
        found
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("{name} missing from mpi_found.txt:\n{found}"))
            .to_string()
    };
    let p = text(&prefix);
    let expect = [
        ("MPI_C_FOUND", "TRUE".to_string()),
        ("MPI_CXX_FOUND", "TRUE".to_string()),
        ("MPI_Fortran_FOUND", "TRUE".to_string()),
        ("MPI_C_COMPILER", format!("{p}/bin/mpicc")),
        ("MPI_CXX_COMPILER", format!("{p}/bin/mpicxx")),
        ("MPI_C_VERSION", "5.0".to_string()),
        ("MPI_CXX_VERSION", "5.0".to_string()),
        ("MPI_Fortran_VERSION", "5.0".to_string()),
        ("MPI_C_LIBRARIES", format!("{p}/lib/libmpiattr.so")),
        ("MPI_CXX_LIBRARIES", format!("{p}/lib/libmpiattr.so")),
        ("MPI_Fortran_LIBRARIES", format!("{p}/lib/libmpiattr.so")),
        ("MPI_C_INCLUDE_DIRS", format!("{p}/include")),
        ("MPI_CXX_INCLUDE_DIRS", format!("{p}/include")),
        ("MPI_Fortran_INCLUDE_DIRS", format!("{p}/include")),
        ("MPI_C_COMPILE_OPTIONS", String::new()),
        ("MPI_CXX_COMPILE_OPTIONS", String::new()),
        // A CMake list.
        ("MPI_Fortran_COMPILE_OPTIONS", fortran_flags().join(";")),
        ("MPI_Fortran_HAVE_F77_HEADER", "TRUE".to_string()),
        ("MPI_Fortran_HAVE_F90_MODULE", "TRUE".to_string()),
        ("MPI_Fortran_HAVE_F08_MODULE", "TRUE".to_string()),
        ("MPIEXEC_EXECUTABLE", format!("{p}/bin/mpiexec")),
    ];
    for (name, want) in expect {
        assert_eq!(value(name), want, "FindMPI's {name}:\n{found}");
    }
    assert!(
        value("MPI_Fortran_COMPILER").starts_with(&format!("{p}/bin/mpif")),
        "FindMPI's MPI_Fortran_COMPILER:\n{found}"
    );

    // Build the four programs and run them through ctest (mpiexec -n 1 PROGRAM).
    let mut cmd = configure("cmake");
    cmd.arg("--build").arg(&build).arg("--parallel").arg("1");
    {
        let _slot = common::Slot::take();
        run("cmake --build", &mut cmd, COMPILE_TIMEOUT);
    }
    let mut cmd = configure("ctest");
    cmd.arg("--output-on-failure").current_dir(&build);
    let out = run("ctest", &mut cmd, RUN_TIMEOUT);
    assert!(
        out.stdout
            .contains("100% tests passed, 0 tests failed out of 5"),
        "{}",
        common::report("ctest", &cmd, &out)
    );
    for (name, _) in PROGRAMS {
        let exe = build.join(name);
        assert_linked_to(&exe, &prefix.join("lib"));
        check_program(name, &[], &exe);
    }
}

#[test]
fn cmake_finds_mpi_through_mpi_home() {
    cmake(Finder::MpiHome);
}

#[test]
fn cmake_finds_mpi_through_path() {
    cmake(Finder::Path);
}

// ---- Meson, fpm and autotools, with another MPI installed ------------------------------------

/// What `tests/install/meson.build` wrote in `mpi_found.h`: `#define NAME VALUE` lines.
fn meson_found(build: &Path) -> HashMap<String, String> {
    let file = build.join("mpi_found.h");
    let found = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    found
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .filter_map(|l| l.split_once(' '))
        .map(|(name, value)| (name.to_string(), value.trim().to_string()))
        .collect()
}

/// Meson's `dependency('mpi')` found mpiattr's wrapper for C, C++ and Fortran: their version
/// and the include directory they report (`--showme:incdirs`).
fn assert_meson_found_mpiattr(build: &Path, other: &str) {
    let found = meson_found(build);
    let include = text(&prefix().join("include"));
    for language in ["c", "cpp", "fortran"] {
        for (key, want) in [
            ("type", "config-tool"),
            ("version", env!("CARGO_PKG_VERSION")),
            ("incdirs", include.as_str()),
        ] {
            assert_eq!(
                found.get(&format!("{language}_{key}")).map(String::as_str),
                Some(want),
                "Meson's dependency('mpi', language: '{language}') is not mpiattr's \
                 (another MPI: {other}): {found:?}"
            );
        }
    }
}

/// Meson's `dependency('mpi', language: ...)` for C, C++ and Fortran finds mpiattr's wrappers
/// first on PATH, though another MPI's are on PATH too, and the five programs build and run.
/// Without mpiattr on PATH, a native file that names its wrappers does the same.
#[test]
fn meson_builds_c_cpp_and_fortran_with_another_mpi_installed() {
    let other = another_mpi();
    let prefix = prefix();
    let dir = work_dir("meson");
    let meson = python_tool("meson");
    let tools = meson.parent().unwrap().to_path_buf();
    python_tool("ninja");
    let build = dir.join("build");
    let mut cmd = tool_command(&meson, &[prefix.join("bin"), tools.clone()]);
    cmd.arg("setup")
        .arg(&build)
        .arg(repo().join("tests").join("install"));
    {
        let _slot = common::Slot::take();
        run("meson setup", &mut cmd, COMPILE_TIMEOUT);
    }
    assert_meson_found_mpiattr(&build, &other);
    let mut cmd = tool_command(&meson, &[prefix.join("bin"), tools.clone()]);
    cmd.arg("compile").arg("-C").arg(&build).args(["-j", "1"]);
    {
        let _slot = common::Slot::take();
        run("meson compile", &mut cmd, COMPILE_TIMEOUT);
    }
    for (name, _) in PROGRAMS {
        let exe = build.join(name);
        assert_linked_to(&exe, &prefix.join("lib"));
        check_program(name, &["mpiexec", "-n", "1"], &exe);
    }

    // mpiattr not on PATH: a native file names its wrappers, which Meson then uses alone.
    let native = dir.join("mpiattr.ini");
    let bin = text(&prefix.join("bin"));
    fs::write(
        &native,
        format!(
            "[binaries]\nmpicc = '{bin}/mpicc'\nmpic++ = '{bin}/mpic++'\n\
             mpifort = '{bin}/mpifort'\n"
        ),
    )
    .unwrap();
    let build = dir.join("build-native");
    let mut cmd = tool_command(&meson, &[tools]);
    cmd.arg("setup")
        .arg("--native-file")
        .arg(&native)
        .arg(&build)
        .arg(repo().join("tests").join("install"));
    {
        let _slot = common::Slot::take();
        run("meson setup --native-file", &mut cmd, COMPILE_TIMEOUT);
    }
    assert_meson_found_mpiattr(&build, &other);
}

/// fpm 0.11's `mpi` dependency takes mpiattr's wrappers first on PATH for its compiler, flags
/// and `mpiexec`, though another MPI's are on PATH too: a `use mpi_f08` and an `mpif.h`
/// program build and run.
#[test]
fn fpm_builds_and_runs_fortran_with_another_mpi_installed() {
    let other = another_mpi();
    let prefix = prefix();
    let dir = work_dir("fpm");
    let fpm = python_tool("fpm");
    fs::copy(source("fpm/fpm.toml"), dir.join("fpm.toml")).unwrap();
    fs::create_dir_all(dir.join("app")).unwrap();
    for file in ["hello_f08.f90", "hello_mpif.f"] {
        fs::copy(source(file), dir.join("app").join(file)).unwrap();
    }
    let mut cmd = tool_command(&fpm, &[prefix.join("bin")]);
    cmd.args(["build", "--verbose"]).current_dir(&dir);
    let out = {
        let _slot = common::Slot::take();
        run("fpm build", &mut cmd, COMPILE_TIMEOUT)
    };
    // fpm prints the flags its MPI dependency got from the wrappers.
    let printed = format!("{}{}", out.stdout, out.stderr);
    let options = |label: &str| -> String {
        printed
            .lines()
            .find(|l| l.contains(&format!("<INFO> {label}:")))
            .unwrap_or_else(|| panic!("fpm build printed no {label}:\n{printed}"))
            .to_string()
    };
    let p = text(&prefix);
    let compiler = options("COMPILER OPTIONS");
    let linker = options("LINKER OPTIONS");
    assert!(
        compiler.contains(&format!("-I{p}/include"))
            && linker.contains(&format!("-L{p}/lib"))
            && linker.contains("-lmpiattr"),
        "fpm did not take mpiattr's flags (another MPI: {other}):\n{compiler}\n{linker}"
    );
    let mut cmd = tool_command(&fpm, &[prefix.join("bin")]);
    cmd.args(["run", "--verbose"]).current_dir(&dir);
    let out = run("fpm run", &mut cmd, RUN_TIMEOUT);
    for name in ["hello_f08", "hello_mpif"] {
        assert!(
            out.stdout.lines().any(|l| l == format!("OK {name}")),
            "{}",
            common::report(&format!("fpm run: no line `OK {name}`"), &cmd, &out)
        );
    }
    assert!(
        out.stdout.lines().any(|l| l.starts_with(" + ")
            && l.contains(&format!("{p}/bin/"))
            && l.contains("mpiexec")),
        "{}",
        common::report("fpm run did not use mpiattr's mpiexec", &cmd, &out)
    );
}

/// autoconf-archive's AX_PROG_CC_MPI, AX_PROG_CXX_MPI, AX_PROG_FC_MPI and AX_PROG_F77_MPI
/// find mpiattr's wrappers first on PATH, though another MPI's are on PATH too, and the
/// programs build with automake's Makefile and run.
#[test]
fn autotools_build_c_cpp_and_fortran_with_another_mpi_installed() {
    let other = another_mpi();
    let prefix = prefix();
    let dir = work_dir("autotools");
    for file in ["autotools/configure.ac", "autotools/Makefile.am"] {
        let name = Path::new(file).file_name().unwrap();
        fs::copy(source(file), dir.join(name)).unwrap();
    }
    let programs = ["hello_c", "hello_cpp", "hello_f08", "hello_mpif"];
    for name in programs {
        let file = program_source(name);
        fs::copy(source(file), dir.join(file)).unwrap();
    }
    let step = |what: &str, program: &str, args: &[&str]| -> Output {
        let mut cmd = tool_command(program, &[prefix.join("bin")]);
        cmd.args(args).current_dir(&dir);
        let _slot = common::Slot::take();
        run(
            &format!("{what} (ci/prereqs installs autoconf, automake, autoconf-archive, make)"),
            &mut cmd,
            COMPILE_TIMEOUT,
        )
    };
    step("autoreconf", "autoreconf", &["-fi"]);
    let configure = step("configure", "./configure", &[]);
    step("make", "make", &[]);
    // configure chose the wrappers by name; PATH made them mpiattr's.
    let makefile = fs::read_to_string(dir.join("Makefile")).unwrap();
    for (variable, wrapper) in [
        ("CC", "mpicc"),
        ("CXX", "mpic++"),
        ("FC", "mpif90"),
        ("F77", "mpif77"),
    ] {
        assert!(
            makefile
                .lines()
                .any(|l| l == format!("{variable} = {wrapper}")),
            "configure did not choose {wrapper} as {variable} (another MPI: {other}):\n{}",
            configure.stdout
        );
    }
    for name in programs {
        let exe = dir.join(name);
        assert_linked_to(&exe, &prefix.join("lib"));
        check_program(name, &["mpiexec", "-n", "1"], &exe);
    }
}

// ---- the launcher ----------------------------------------------------------------------------

#[test]
fn mpiexec_runs_one_process_and_refuses_more() {
    for launcher in ["mpiexec", "mpirun"] {
        let launch = |args: &[&str]| -> Output {
            let mut cmd = wrapper(launcher);
            cmd.args(args);
            run_with_timeout(&mut cmd, RUN_TIMEOUT).unwrap()
        };
        for args in [
            &["-n", "1"][..],
            &["-np", "1"],
            &["--np", "1"],
            &["-n=1"],
            &[],
            &["--"],
        ] {
            let mut all = args.to_vec();
            all.extend(["sh", "-c", "echo ran \"$@\"; exit 3", "sh", "a b", "c"]);
            let out = launch(&all);
            assert_eq!(
                (out.status.code(), out.stdout.as_str()),
                (Some(3), "ran a b c\n"),
                "{launcher} {args:?}: stderr {}",
                out.stderr
            );
        }
        // Environment options of MPICH and Open MPI.
        let out = launch(&[
            "-n",
            "1",
            "-env",
            "MPIATTR_T1",
            "one",
            "-genv",
            "MPIATTR_T2",
            "two words",
            "-x",
            "MPIATTR_T3=three",
            "sh",
            "-c",
            "echo \"$MPIATTR_T1/$MPIATTR_T2/$MPIATTR_T3\"",
        ]);
        assert_eq!(
            out.stdout, "one/two words/three\n",
            "{launcher}: {}",
            out.stderr
        );

        for (args, message) in [
            (
                &["-n", "2", "sh", "-c", "echo ran"][..],
                "single MPI process",
            ),
            (&["-np", "4", "sh", "-c", "echo ran"], "-n 4 asks for 4"),
            (&["-n", "0", "sh", "-c", "echo ran"], "single MPI process"),
            (&["-n", "x", "sh", "-c", "echo ran"], "positive integer"),
            (
                &["--bogus", "sh", "-c", "echo ran"],
                "unknown option '--bogus'",
            ),
            (&["-n", "1"], "no program to run"),
        ] {
            let out = launch(args);
            assert!(
                out.status.code() == Some(1)
                    && out.stdout.is_empty()
                    && out.stderr.starts_with(&format!("{launcher}: "))
                    && out.stderr.contains(message),
                "{launcher} {args:?} must refuse with `{message}`: status {:?}, stdout {:?}, stderr {:?}",
                out.status.code(),
                out.stdout,
                out.stderr
            );
        }
    }
}

// ---- relocation ------------------------------------------------------------------------------

/// A copy of the prefix in another place (whose name has a space) works from there: the
/// wrappers and pkg-config find the copy, and programs built with it use its library.
#[test]
fn a_moved_prefix_works_where_it_is() {
    let dir = work_dir("moved");
    let moved = dir.join("moved prefix");
    let mut cmd = command("cp");
    cmd.arg("-a").arg(prefix()).arg(&moved);
    run("cp -a PREFIX", &mut cmd, COMPILE_TIMEOUT);
    let libdir = moved.join("lib");

    for (name, src, tool) in [
        ("hello_c", "hello.c", "mpicc"),
        ("hello_f08", "hello_f08.f90", "mpifort"),
    ] {
        let exe = dir.join(name);
        let mut cmd = command(moved.join("bin").join(tool));
        if tool != "mpicc" {
            cmd.arg("-J").arg(&dir);
        }
        cmd.arg(source(src)).arg("-o").arg(&exe);
        compile(&format!("{name} with the moved {tool}"), &mut cmd);
        assert_linked_to(&exe, &libdir);
        let mut launcher = command(moved.join("bin").join("mpiexec"));
        launcher.args(["-n", "1"]).arg(&exe);
        let out = run(name, &mut launcher, RUN_TIMEOUT);
        assert!(out.stdout.contains(&format!("OK {name}")), "{}", out.stdout);
    }
    let mut cmd = command(moved.join("bin").join("mpicc"));
    cmd.arg("-showme:incdirs");
    let out = run("moved mpicc -showme:incdirs", &mut cmd, RUN_TIMEOUT);
    assert_eq!(
        out.stdout.trim_end(),
        format!("\"{}\"", text(&moved.join("include")))
    );

    // pkg-config reads the copy's own paths. Its output is split at spaces, so this copy
    // lives at a path without one.
    let plain = dir.join("moved-prefix");
    fs::rename(&moved, &plain).unwrap();
    let cflags = pkg_config(&plain.join("lib/pkgconfig"), &["--cflags", "mpiattr"]);
    assert_eq!(
        cflags,
        vec![format!(
            "-I{}",
            text(&plain.join("lib/pkgconfig/../../include"))
        )]
    );
    let exe = dir.join("hello_c_pkg_config");
    let mut cmd = command("cc");
    cmd.args(&cflags)
        .arg(source("hello.c"))
        .arg("-o")
        .arg(&exe)
        .args(pkg_config(
            &plain.join("lib/pkgconfig"),
            &["--libs", "mpiattr"],
        ));
    compile("hello_c with the moved pkg-config file", &mut cmd);
    assert_linked_to(&exe, &plain.join("lib/pkgconfig/../../lib"));
    check_program("hello_c", &[], &exe);
}

// ---- the man pages ---------------------------------------------------------------------------

/// `share/man/man3` has a page for every function of docs/api.md: `man` finds each through
/// `MANPATH` and renders it without a warning (`groff -Tascii` too, for ASCII terminals), with
/// its parts; the attribute pages (`*_set_attr`, `*_get_attr`, `*_delete_attr`, `MPI_Attr_*`)
/// hold the interoperability table of docs/attributes.md §3 as a table, row for row.
#[test]
fn man_pages_for_every_function() {
    /// Inline Markdown as text: no code marks, bold marks or escapes.
    fn markdown_text(cell: &str) -> String {
        let cell = cell.replace('`', "").replace("**", "");
        let mut out = String::new();
        let mut chars = cell.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.extend(chars.next()),
                c => out.push(c),
            }
        }
        out
    }
    /// The rows of every tbl table of a page, each cell as its text (fonts, escapes, the
    /// requests inside text blocks and the rules removed).
    fn roff_tables(page: &str) -> Vec<Vec<Vec<String>>> {
        let unescape = |text: &str| {
            let mut text = text.to_string();
            for (escape, plain) in [
                ("\\fB", ""),
                ("\\fI", ""),
                ("\\fR", ""),
                ("\\%", ""),
                ("\\&", ""),
                ("\\-", "-"),
                ("\\~", " "),
                ("\\e", "\\"),
            ] {
                text = text.replace(escape, plain);
            }
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let mut tables = Vec::new();
        let mut lines = page.lines();
        while lines.by_ref().any(|l| l == ".TS") {
            // The options and format lines end with the one ending in `.`.
            if !lines.by_ref().any(|l| l.trim_end().ends_with('.')) {
                break;
            }
            let (mut rows, mut row, mut cell) = (Vec::new(), Vec::new(), String::new());
            let mut in_block = false;
            for line in lines.by_ref() {
                if line == ".TE" {
                    break;
                }
                let mut rest = line;
                if in_block {
                    match line.strip_prefix("T}") {
                        Some(after) => {
                            in_block = false;
                            row.push(unescape(&cell));
                            cell.clear();
                            match after.strip_prefix('|') {
                                Some(after) => rest = after,
                                None => {
                                    rows.push(std::mem::take(&mut row));
                                    continue;
                                }
                            }
                        }
                        None => {
                            if !line.starts_with('.') {
                                cell.push_str(line);
                                cell.push(' ');
                            }
                            continue;
                        }
                    }
                }
                if rest == "_" {
                    continue;
                }
                for piece in rest.split('|') {
                    if piece == "T{" {
                        in_block = true;
                    } else {
                        row.push(unescape(piece));
                    }
                }
                if !in_block {
                    rows.push(std::mem::take(&mut row));
                }
            }
            tables.push(rows);
        }
        tables
    }

    let prefix = prefix();
    let man = prefix.join("share").join("man");
    let api = fs::read_to_string(repo().join("docs/api.md")).unwrap();
    let functions: Vec<&str> = api
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .filter(|name| name.starts_with("MPI_"))
        .collect();
    assert!(functions.len() > 60, "docs/api.md: {functions:?}");
    // The interoperability table: the rows of docs/attributes.md's table headed `stored as`.
    let attributes = fs::read_to_string(repo().join("docs/attributes.md")).unwrap();
    let interoperability: Vec<Vec<String>> = attributes
        .lines()
        .skip_while(|l| !l.starts_with("| stored as |"))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|cell| markdown_text(cell.trim()))
                .collect()
        })
        .collect();
    assert!(
        interoperability.len() >= 4,
        "docs/attributes.md has no table headed `stored as`"
    );

    // `man -w` finds every page through MANPATH, in the prefix.
    let mut cmd = command("man");
    cmd.arg("-w").args(&functions).env("MANPATH", &man);
    let found = run("man -w", &mut cmd, RUN_TIMEOUT).stdout;
    let expected: Vec<String> = functions
        .iter()
        .map(|f| text(&man.join("man3").join(format!("{f}.3"))))
        .collect();
    assert_eq!(found.lines().collect::<Vec<_>>(), expected, "man -w");

    let mut problems = Vec::new();
    let mut attribute_pages = 0;
    for name in &functions {
        let page = man.join("man3").join(format!("{name}.3"));
        let source = fs::read_to_string(&page).unwrap();
        let mut cmd = command("man");
        cmd.args(["--warnings=w", "-l", "-P", "cat"])
            .arg(&page)
            .env("MANWIDTH", "80")
            .env("LC_ALL", "C.UTF-8")
            .env_remove("MANPAGER")
            .env_remove("MANOPT")
            .env_remove("MAN_KEEP_FORMATTING");
        let out = run(&format!("man -l {name}.3"), &mut cmd, RUN_TIMEOUT);
        if !out.stderr.is_empty() {
            problems.push(format!("{name}: man warns:\n{}", out.stderr));
        }
        let mut cmd = command("groff");
        cmd.args(["-t", "-man", "-Tascii", "-ww"]).arg(&page);
        let ascii = run(&format!("groff -Tascii {name}.3"), &mut cmd, RUN_TIMEOUT);
        if !ascii.stderr.is_empty() {
            problems.push(format!("{name}: groff -Tascii warns:\n{}", ascii.stderr));
        }
        let rendered = out.stdout;
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "ERRORS", "SEE ALSO"] {
            if !rendered.lines().any(|l| l == heading) {
                problems.push(format!("{name}: no {heading} in\n{rendered}"));
            }
        }
        let words = rendered.split_whitespace().collect::<Vec<_>>().join(" ");
        if !words.contains(&format!("NAME {name} - ")) {
            problems.push(format!("{name}: NAME does not begin with `{name} - `"));
        }
        if name.ends_with("_attr") || name.starts_with("MPI_Attr_") {
            attribute_pages += 1;
            if !roff_tables(&source).contains(&interoperability) {
                problems.push(format!(
                    "{name}: no table {interoperability:?}; its tables: {:?}",
                    roff_tables(&source)
                ));
            }
        }
    }
    assert_eq!(
        attribute_pages, 12,
        "set, get and delete for 3 kinds, MPI_Attr_*"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The library exports the MPI-5.0 standard's C names only, each function of mpi.h both as
/// `MPI_X` and as `PMPI_X` (include/mpi-standard.txt, written by ci/standard-api).
#[test]
fn exported_symbols_are_the_standards() {
    let standard = common::standard();
    let library = prefix().join("lib").join("libmpiattr.so");
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&library)
        .output()
        .expect("nm runs (binutils)");
    assert!(out.status.success(), "nm {} failed", library.display());
    let exported: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
        .filter(|s| s.starts_with("MPI_") || s.starts_with("PMPI_"))
        .collect();
    let header = fs::read_to_string(repo().join("include/mpi.h")).expect("mpi.h");
    let declared: Vec<String> = header
        .lines()
        .filter_map(|l| l.strip_prefix("MPIATTR_DECLARE("))
        .filter_map(|l| {
            l.split(',')
                .nth(1)
                .map(|name| format!("MPI_{}", name.trim()))
        })
        .collect();
    assert!(
        declared.len() > 60,
        "only {} functions in mpi.h",
        declared.len()
    );
    let mut problems = Vec::new();
    for symbol in &exported {
        if !standard.c.contains_key(symbol) {
            problems.push(format!(
                "{symbol} is exported but is no C function of MPI-5.0"
            ));
        }
    }
    for name in &declared {
        for symbol in [name.clone(), format!("P{name}")] {
            if !exported.contains(&symbol) {
                problems.push(format!("{symbol} is declared in mpi.h but not exported"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}:\n{}",
        library.display(),
        problems.join("\n")
    );
}
