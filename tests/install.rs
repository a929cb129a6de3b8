//! Checks the installed mpiattr the way a C or Fortran user meets it: the layout `ci/install`
//! leaves (headers, modules, the shared library with its soname and links, the static library,
//! the pkg-config files, the wrappers and the launcher), the wrappers' answers to MPICH's and
//! Open MPI's query options and their compiler overrides, and a C and a Fortran program
//! (`tests/install/`) built and run with each method: the wrappers, pkg-config, the static
//! library, CMake's `find_package(MPI)` through `MPI_HOME` and through `PATH`, and a copy of
//! the prefix moved elsewhere.
//!
//! The prefix is `MPIATTR_PREFIX`, or one installed for the tests (see `tests/common`); its
//! Fortran INTEGER configuration is the one this test binary was built for. Every program
//! must exit 0 and print `OK <name>`; the negative controls must fail.

mod common;

use std::env;
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

/// The C and Fortran programs of `tests/install/`: (name, source).
const PROGRAMS: &[(&str, &str)] = &[
    ("hello_c", "hello.c"),
    ("hello_f08", "hello_f08.f90"),
    ("hello_mpi", "hello_mpi.f90"),
    ("hello_mpif", "hello_mpif.f"),
];

/// Environment variables that choose the wrappers' underlying compiler: removed from every
/// command, so a test sees only what it sets.
const COMPILER_VARIABLES: &[&str] = &[
    "MPIATTR_CC",
    "MPIATTR_FC",
    "MPICH_CC",
    "MPICH_FC",
    "MPICH_F90",
    "MPICH_F77",
    "OMPI_CC",
    "OMPI_FC",
    "OMPI_F77",
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
        "lib/pkgconfig/mpi-fort.pc",
        "share/doc/mpiattr/README.md",
        "share/doc/mpiattr/CHANGELOG.md",
        "share/doc/mpiattr/docs/api.md",
        "share/doc/mpiattr/docs/errors.md",
    ] {
        assert!(prefix.join(file).is_file(), "{file} is not installed");
    }
    for program in ["mpicc", "mpifort", "mpif90", "mpif77", "mpiexec", "mpirun"] {
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

#[test]
fn wrappers_answer_mpich_and_open_mpi_queries() {
    let prefix = text(&prefix());
    let include = format!("-I{prefix}/include");
    let link = format!("-L{prefix}/lib -Wl,-rpath,{prefix}/lib -lmpiattr");
    let fortran = fortran_flags().join(" ");
    for name in ["mpicc", "mpifort", "mpif90", "mpif77"] {
        let c = name == "mpicc";
        let (compiler, language) = if c {
            ("cc", "C")
        } else {
            ("gfortran", "Fortran")
        };
        // The compiler followed by the language's flags.
        let head = if c || fortran.is_empty() {
            compiler.to_string()
        } else {
            format!("{compiler} {fortran}")
        };
        let compile_flags = if c || fortran.is_empty() {
            include.clone()
        } else {
            format!("{fortran} {include}")
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
            (&["-showme:compile"], compile_flags.clone()),
            (&["-showme:link"], link.clone()),
            (&["-showme:command"], compiler.to_string()),
            (&["-showme:incdirs"], format!("{prefix}/include")),
            (&["-showme:libdirs"], format!("{prefix}/lib")),
            (&["-showme:libs"], "mpiattr".to_string()),
            (
                &["-showme:version"],
                format!(
                    "{name}: mpiattr {} (Language: {language})",
                    env!("CARGO_PKG_VERSION")
                ),
            ),
        ];
        for (args, want) in expected {
            assert_eq!(&query(name, args), want, "{name} {}", args.join(" "));
        }
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
        "cc-a", "cc-b", "cc-c", "cc-d", "fc-a", "fc-b", "fc-c", "fc-d",
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
fn wrappers_build_and_run_c_and_fortran() {
    let dir = work_dir("wrappers");
    let libdir = prefix().join("lib");
    // Fortran sources with each Fortran wrapper name.
    let builds: &[(&str, &str)] = &[
        ("hello_c", "mpicc"),
        ("hello_f08", "mpifort"),
        ("hello_mpi", "mpif90"),
        ("hello_mpif", "mpif77"),
    ];
    for (name, tool) in builds {
        let src = PROGRAMS.iter().find(|(n, _)| n == name).unwrap().1;
        let exe = dir.join(name);
        let mut cmd = wrapper(tool);
        if *tool == "mpicc" {
            cmd.args(["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]);
        } else {
            cmd.args(["-Wall", "-Werror", "-J"]).arg(&dir);
        }
        cmd.arg(source(src)).arg("-o").arg(&exe);
        compile(name, &mut cmd);
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

#[test]
fn pkg_config_builds_and_runs_c_and_fortran() {
    let dir = work_dir("pkg-config");
    let pc = prefix().join("lib").join("pkgconfig");
    assert_eq!(
        pkg_config(&pc, &["--modversion", "mpiattr", "mpi-c", "mpi-fort"]),
        vec![env!("CARGO_PKG_VERSION"); 3]
    );
    let fortran = fortran_flags();
    let fortran_flags = pkg_config(&pc, &["--variable=fortran_flags", "mpiattr"]);
    assert_eq!(fortran_flags, fortran);
    let libdir = prefix().join("lib");
    for (name, src) in PROGRAMS {
        let c = src.ends_with(".c");
        let packages: &[&str] = if c {
            &["mpiattr", "mpi-c"]
        } else {
            &["mpiattr", "mpi-fort"]
        };
        for package in packages {
            let exe = dir.join(format!("{name}-{package}"));
            let mut cmd = command(if c { "cc" } else { "gfortran" });
            if !c {
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
fn static_library_links_c_and_fortran() {
    let dir = work_dir("static");
    let pc = prefix().join("lib").join("pkgconfig");
    let archive = text(&prefix().join("lib").join("libmpiattr.a"));
    // The system libraries the archive needs, from pkg-config's Libs.private.
    let system: Vec<String> = pkg_config(&pc, &["--static", "--libs-only-l", "mpiattr"])
        .into_iter()
        .filter(|l| l != "-lmpiattr")
        .collect();
    for (name, src) in [PROGRAMS[0], PROGRAMS[1]] {
        let c = src.ends_with(".c");
        let exe = dir.join(name);
        let mut cmd = command(if c { "cc" } else { "gfortran" });
        if !c {
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

fn cmake(finder: Finder) {
    let prefix = prefix();
    let dir = work_dir(match finder {
        Finder::MpiHome => "cmake-mpi-home",
        Finder::Path => "cmake-path",
    });
    let build = dir.join("build");
    let path = env::var_os("PATH").unwrap_or_default();
    let configure = |cmd: &mut Command| {
        match finder {
            // PATH keeps whatever other MPI the machine has (Debian's mpicc in /usr/bin):
            // MPI_HOME must win over it.
            Finder::MpiHome => {
                cmd.env("MPI_HOME", &prefix);
            }
            Finder::Path => {
                let dirs = std::iter::once(prefix.join("bin")).chain(env::split_paths(&path));
                cmd.env("PATH", env::join_paths(dirs).unwrap())
                    .env_remove("MPI_HOME");
            }
        }
    };
    let mut cmd = command("cmake");
    configure(&mut cmd);
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
        ("MPI_Fortran_FOUND", "TRUE".to_string()),
        ("MPI_C_COMPILER", format!("{p}/bin/mpicc")),
        ("MPI_C_VERSION", "5.0".to_string()),
        ("MPI_Fortran_VERSION", "5.0".to_string()),
        ("MPI_C_LIBRARIES", format!("{p}/lib/libmpiattr.so")),
        ("MPI_Fortran_LIBRARIES", format!("{p}/lib/libmpiattr.so")),
        ("MPI_C_INCLUDE_DIRS", format!("{p}/include")),
        ("MPI_Fortran_INCLUDE_DIRS", format!("{p}/include")),
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
    let mut cmd = command("cmake");
    configure(&mut cmd);
    cmd.arg("--build").arg(&build).arg("--parallel").arg("1");
    {
        let _slot = common::Slot::take();
        run("cmake --build", &mut cmd, COMPILE_TIMEOUT);
    }
    let mut cmd = command("ctest");
    configure(&mut cmd);
    cmd.arg("--output-on-failure").current_dir(&build);
    let out = run("ctest", &mut cmd, RUN_TIMEOUT);
    assert!(
        out.stdout
            .contains("100% tests passed, 0 tests failed out of 4"),
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
