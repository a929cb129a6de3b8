//! The layer over real MPIs (docs/layer.md), in jobs of two processes: Debian's MPICH and
//! Open MPI (ci/prereqs installs both for ci/test), and MPICH 5's MPI-5.0 standard ABI from
//! PyPI (C only), each with the layer built for it by `ci/install PREFIX --layer NAME` (into
//! `target/layer-tests`).
//!
//! The programs are the multi-process tests of `tests/layer/`, the programs of `tests/c/`
//! that `tests/layer/from_c.txt` names and those of `tests/fortran/` (`mpif.h`, `use mpi`,
//! `use mpi_f08`, with their C halves) that `tests/layer/from_fortran.txt` names (those not
//! about the single-process library itself), built with that MPI's own wrappers and run with its `mpiexec -n 2`, the layer preloaded:
//! each must exit 0 with `OK name` from both ranks. A last test preloads a spy library
//! (`tests/layer/spy.c`) after the layer, which counts the calls that reach the real MPI's
//! attribute routines: under the layer none but reads of predefined attributes may.
//!
//! `side_by_side` (ignored: `ci/conformance layer` runs it) runs every program of the lists,
//! also those a list leaves out over some MPI, over each MPI natively (nothing preloaded) and
//! with the layer, and writes the results down for ci/conformance's table.
//!
//! The programs' C files do not depend on the Fortran INTEGER configuration: only the default
//! configuration runs them.
#![cfg(not(feature = "fortran-integer-8"))]

#[macro_use]
mod common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use common::{repo, run_with_timeout, show};

/// Two processes of MPICH busy-poll on two cores: a program gets a generous minute.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A real MPI the layer goes over.
struct Mpi {
    name: &'static str,
    mpicc: &'static [&'static str],
    mpifort: &'static str,
    mpiexec: &'static str,
}

const MPICH: Mpi = Mpi {
    name: "mpich",
    mpicc: &[
        "mpicc.mpich",
        // MPICH's handles are ints, which the tests print through pointers.
        "-Wno-int-to-pointer-cast",
        "-Wno-pointer-to-int-cast",
    ],
    mpifort: "mpifort.mpich",
    mpiexec: "mpiexec.mpich",
};

/// MPICH 5's MPI-5.0 standard ABI (`libmpi_abi.so.1`), from PyPI's mpich wheel, which
/// `ci/install --layer abi` fetches: C only (that ABI has no Fortran yet).
const ABI: Mpi = Mpi {
    name: "abi",
    mpicc: &["mpicc_abi"],
    mpifort: "",
    mpiexec: "mpiexec",
};

const OPEN_MPI: Mpi = Mpi {
    name: "openmpi",
    mpicc: &["mpicc.openmpi"],
    mpifort: "mpifort.openmpi",
    mpiexec: "mpiexec.openmpi",
};

impl Mpi {
    /// The installed layer for this MPI (installed once per test binary).
    fn layer(&self) -> PathBuf {
        static MPICH_LAYER: OnceLock<PathBuf> = OnceLock::new();
        static OPEN_MPI_LAYER: OnceLock<PathBuf> = OnceLock::new();
        static ABI_LAYER: OnceLock<PathBuf> = OnceLock::new();
        let cell = match self.name {
            "mpich" => &MPICH_LAYER,
            "openmpi" => &OPEN_MPI_LAYER,
            _ => &ABI_LAYER,
        };
        cell.get_or_init(|| {
            let target = repo().join("target").join("layer-tests");
            let prefix = target.join("prefix");
            let mut cmd = Command::new("bash");
            cmd.arg(repo().join("ci").join("install"))
                .arg(&prefix)
                .arg("--layer")
                .arg(self.name)
                .env("CARGO_TARGET_DIR", &target);
            let out = run_with_timeout(&mut cmd, Duration::from_secs(1200))
                .unwrap_or_else(|e| panic!("cannot run ci/install: {e}"));
            assert!(
                out.status.success(),
                "{}",
                common::report("ci/install --layer failed", &cmd, &out)
            );
            prefix
                .join("lib")
                .join(format!("libmpiattr-{}.so", self.name))
        })
        .clone()
    }

    /// A tool of this MPI: Debian's are on PATH; the standard ABI's are in the wheel that
    /// `ci/install --layer abi` fetched (call [`Mpi::layer`] first).
    fn tool(&self, name: &str) -> PathBuf {
        if self.name == "abi" {
            let wheel = repo().join("target").join("layer-tests").join("peers");
            wheel.join("mpich").join("bin").join(name)
        } else {
            PathBuf::from(name)
        }
    }

    /// Compiles `source` into `target/layer-tests/NAME/`.
    fn compile(&self, source: &Path, extra: &[&str]) -> Result<PathBuf, String> {
        let dir = repo().join("target").join("layer-tests").join(self.name);
        fs::create_dir_all(&dir).expect("cannot create the programs' directory");
        let stem = source.file_stem().expect("a file name").to_string_lossy();
        let exe = dir.join(&*stem);
        let mut cmd = Command::new(self.tool(self.mpicc[0]));
        cmd.args(&self.mpicc[1..])
            .args([
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Wno-deprecated-declarations",
            ])
            .arg("-I")
            .arg(repo().join("tests").join("c"))
            .arg("-o")
            .arg(&exe)
            .arg(source)
            .args(extra);
        common::compile(&stem, &mut cmd)?;
        Ok(exe)
    }

    /// Compiles the Fortran program `name` of tests/fortran (its .f or .f90 source, its C
    /// half if it has one, and the checks module) into `target/layer-tests/NAME/fortran/`.
    fn compile_fortran(&self, name: &str) -> Result<PathBuf, String> {
        let sources = repo().join("tests").join("fortran");
        let dir = repo()
            .join("target")
            .join("layer-tests")
            .join(self.name)
            .join("fortran")
            .join(name);
        fs::create_dir_all(&dir).expect("cannot create the programs' directory");
        let mut objects = Vec::new();
        let support = sources.join("support").join("checks.f90");
        for source in std::iter::once(support).chain(
            ["f", "f90", "c"]
                .iter()
                .map(|ext| sources.join(format!("{name}.{ext}")))
                .filter(|p| p.exists()),
        ) {
            let c = source.extension().is_some_and(|e| e == "c");
            let object = dir.join(format!(
                "{}.{}.o",
                source.file_stem().expect("a name").to_string_lossy(),
                if c { "c" } else { "f" }
            ));
            let mut cmd = if c {
                let mut cmd = Command::new(self.tool(self.mpicc[0]));
                cmd.args(&self.mpicc[1..])
                    .args(["-std=c11", "-Wno-deprecated-declarations", "-I"])
                    .arg(repo().join("tests").join("c"));
                cmd
            } else {
                let mut cmd = Command::new(self.tool(self.mpifort));
                cmd.arg("-J").arg(&dir);
                cmd
            };
            cmd.arg("-c").arg(&source).arg("-o").arg(&object);
            common::compile(name, &mut cmd)?;
            objects.push(object);
        }
        let exe = dir.join(name);
        let mut link = Command::new(self.tool(self.mpifort));
        link.arg("-o").arg(&exe).args(&objects);
        common::compile(name, &mut link)?;
        Ok(exe)
    }

    /// `mpiexec -n 2` of `exe`, with `preload` in the processes' LD_PRELOAD if given (none:
    /// the program runs natively, LD_PRELOAD left as it is).
    fn run(&self, exe: &Path, preload: Option<&str>) -> (Command, common::Output) {
        let mut cmd = Command::new(self.tool(self.mpiexec));
        if self.name == "openmpi" {
            // Debian's Open MPI makes windows only with the pt2pt component; as root it
            // needs permission, and two processes may oversubscribe a small machine.
            cmd.args(["--allow-run-as-root", "--oversubscribe", "-n", "2"])
                .args(["-x", "OMPI_MCA_osc=pt2pt"]);
            if let Some(preload) = preload {
                cmd.args(["-x", &format!("LD_PRELOAD={preload}")]);
            }
        } else {
            cmd.args(["-n", "2"]);
            if let Some(preload) = preload {
                cmd.args(["env", &format!("LD_PRELOAD={preload}")]);
            }
        }
        cmd.arg(exe);
        common::clean_library_path(&mut cmd);
        let out = run_with_timeout(&mut cmd, TIMEOUT)
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", show(&cmd)));
        (cmd, out)
    }
}

/// A program of a list of tests/layer (from_c.txt, from_fortran.txt): its name, and the
/// MPIs its line leaves it out over (`-NAME` words after the name).
struct Entry {
    name: String,
    left_out: Vec<String>,
}

/// The lines of a list of tests/layer.
fn entries(list: &str) -> Vec<Entry> {
    let path = repo().join("tests").join("layer").join(list);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut entries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let name = words.next().expect("a name").to_string();
        let left_out = words
            .map_while(|w| w.strip_prefix('-'))
            .map(str::to_string)
            .collect();
        entries.push(Entry { name, left_out });
    }
    entries
}

/// A program the layer runs: C (its source) or Fortran (its name in tests/fortran).
#[derive(Debug)]
enum Program {
    C(PathBuf),
    Fortran(String),
}

impl Program {
    fn name(&self) -> String {
        match self {
            Program::C(source) => source
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned(),
            Program::Fortran(name) => name.clone(),
        }
    }

    /// Where it comes from: `layer`, `c` or `fortran` (the directory of tests/).
    fn suite(&self) -> String {
        match self {
            Program::C(source) => source
                .parent()
                .and_then(Path::file_name)
                .expect("a directory")
                .to_string_lossy()
                .into_owned(),
            Program::Fortran(_) => "fortran".to_string(),
        }
    }

    /// Builds it with `mpi`'s wrappers: the executable, or the compiler's report.
    fn build(&self, mpi: &Mpi) -> Result<PathBuf, String> {
        match self {
            Program::C(source) => mpi.compile(source, &["-lpthread"]),
            Program::Fortran(name) => mpi.compile_fortran(name),
        }
    }
}

/// Every program for `mpi`, each with whether its list leaves it out over `mpi`:
/// `tests/layer/layer_*.c`, those of `tests/c/` named in from_c.txt and those of
/// `tests/fortran/` named in from_fortran.txt.
fn every_program(mpi: &Mpi) -> Vec<(Program, bool)> {
    let layer = repo().join("tests").join("layer");
    let mut found: Vec<PathBuf> = fs::read_dir(&layer)
        .expect("tests/layer")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| n.starts_with("layer_") && n.ends_with(".c"))
        })
        .collect();
    found.sort();
    let mut programs: Vec<(Program, bool)> =
        found.into_iter().map(|p| (Program::C(p), false)).collect();
    let left_out = |entry: &Entry| entry.left_out.iter().any(|m| m == mpi.name);
    for entry in entries("from_c.txt") {
        let source = repo()
            .join("tests")
            .join("c")
            .join(format!("{}.c", entry.name));
        programs.push((Program::C(source), left_out(&entry)));
    }
    // The standard ABI has no Fortran yet.
    if mpi.name != "abi" {
        for entry in entries("from_fortran.txt") {
            let out = left_out(&entry);
            programs.push((Program::Fortran(entry.name), out));
        }
    }
    programs
}

/// The programs for `mpi`: those of [`every_program`] not left out over it.
fn programs(mpi: &Mpi) -> Vec<Program> {
    every_program(mpi)
        .into_iter()
        .filter_map(|(program, left_out)| (!left_out).then_some(program))
        .collect()
}

/// A job's result: `pass` (exit 0 and `OK name` from both ranks), `skip` (exit 0 and
/// `SKIP name: reason` from both: a feature or property that MPI lacks), `fail: hangs`
/// (killed after [`TIMEOUT`]) or `fail: run`.
fn verdict(name: &str, out: &common::Output) -> &'static str {
    let lines = |prefix: &str| out.stdout.lines().filter(|l| l.starts_with(prefix)).count();
    let ok = out
        .stdout
        .lines()
        .filter(|l| *l == format!("OK {name}"))
        .count();
    if out.timed_out {
        "fail: hangs"
    } else if out.status.success() && ok == 2 {
        "pass"
    } else if out.status.success() && lines(&format!("SKIP {name}:")) == 2 {
        "skip"
    } else {
        "fail: run"
    }
}

/// Every program, with the layer, on both ranks.
fn run_all(mpi: &Mpi) {
    let layer = mpi.layer();
    let mut failures = Vec::new();
    let programs = programs(mpi);
    assert!(programs.len() >= 10, "too few programs: {programs:?}");
    for program in &programs {
        let name = program.name();
        let exe = match program.build(mpi) {
            Ok(exe) => exe,
            Err(report) => {
                failures.push(report);
                continue;
            }
        };
        let (cmd, out) = mpi.run(&exe, Some(&layer.to_string_lossy()));
        if verdict(&name, &out) != "pass" {
            failures.push(common::report(
                &format!("{name}: expected exit 0 and `OK {name}` from both ranks"),
                &cmd,
                &out,
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs failed over {} with the layer:\n{}",
        failures.len(),
        programs.len(),
        mpi.name,
        failures.join("\n")
    );
}

#[test]
fn programs_over_mpich() {
    run_all(&MPICH);
}

#[test]
fn programs_over_open_mpi() {
    run_all(&OPEN_MPI);
}

#[test]
fn programs_over_the_standard_abi() {
    run_all(&ABI);
}

/// Every program of the lists, also those left out over an MPI, in jobs of two processes
/// over each MPI natively (nothing preloaded) and with the layer preloaded: ci/conformance's
/// second table. One line per job goes to the file `MPIATTR_LAYER_TABLE` names (default
/// `target/layer-tests/side_by_side.tsv`), tab-separated: MPI, suite, program, `native` or
/// `layer`, the result ([`verdict`], or `fail: compile`), `listed` or `excluded`; the report
/// of every failure goes to stdout. `MPIATTR_LAYER_MPIS` (say `mpich openmpi`) runs only
/// those MPIs. The test fails only when it cannot run the jobs; ci/conformance judges them.
#[test]
#[ignore = "ci/conformance runs it (several minutes)"]
fn side_by_side() {
    let table = std::env::var_os("MPIATTR_LAYER_TABLE")
        .filter(|t| !t.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let dir = repo().join("target").join("layer-tests");
            fs::create_dir_all(&dir).expect("target/layer-tests");
            dir.join("side_by_side.tsv")
        });
    let only = std::env::var("MPIATTR_LAYER_MPIS").unwrap_or_default();
    let mut file = fs::File::create(&table)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", table.display()));
    for mpi in [&MPICH, &OPEN_MPI, &ABI] {
        if !only.trim().is_empty() && !only.split_whitespace().any(|m| m == mpi.name) {
            continue;
        }
        let layer = mpi.layer().to_string_lossy().into_owned();
        for (program, left_out) in every_program(mpi) {
            let name = program.name();
            let results: Vec<(&str, &str)> = match program.build(mpi) {
                Ok(exe) => [("native", None), ("layer", Some(layer.as_str()))]
                    .into_iter()
                    .map(|(mode, preload)| {
                        let (cmd, out) = mpi.run(&exe, preload);
                        let result = verdict(&name, &out);
                        if result != "pass" {
                            let mut what = format!("{}, {mode}: {name}: {result}", mpi.name);
                            if out.timed_out {
                                what += &format!(" (no exit within {} s)", TIMEOUT.as_secs());
                            }
                            println!("{}", common::report(&what, &cmd, &out));
                        }
                        (mode, result)
                    })
                    .collect(),
                Err(report) => {
                    println!("{}, native and layer: {report}", mpi.name);
                    vec![("native", "fail: compile"), ("layer", "fail: compile")]
                }
            };
            for (mode, result) in &results {
                writeln!(
                    file,
                    "{}\t{}\t{name}\t{mode}\t{result}\t{}",
                    mpi.name,
                    program.suite(),
                    if left_out { "excluded" } else { "listed" }
                )
                .and_then(|()| file.flush())
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", table.display()));
            }
            let summary: Vec<String> = results.iter().map(|(m, r)| format!("{m} {r}")).collect();
            eprintln!("side_by_side: {} {name}: {}", mpi.name, summary.join(", "));
        }
    }
}

/// The spy's line: (calls, calls other than reads of predefined attributes), per rank.
fn spy_counts(stderr: &str) -> Vec<(u32, u32)> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("spy: "))
        .filter_map(|rest| {
            let (calls, rest) = rest.split_once(" calls, ")?;
            let others = rest.split_whitespace().next()?;
            Some((calls.parse().ok()?, others.parse().ok()?))
        })
        .collect()
}

fn no_attribute_call_reaches(mpi: &Mpi) {
    let layer = mpi.layer();
    let dir = repo().join("tests").join("layer");
    let spy_source = dir.join("spy.c");
    let spy = repo()
        .join("target")
        .join("layer-tests")
        .join(mpi.name)
        .join("libspy.so");
    fs::create_dir_all(spy.parent().expect("a directory")).expect("target/layer-tests");
    let mut cmd = Command::new(mpi.tool(mpi.mpicc[0]));
    cmd.args(["-shared", "-fPIC", "-o"])
        .arg(&spy)
        .arg(&spy_source)
        .arg("-ldl");
    common::compile("spy", &mut cmd).unwrap_or_else(|report| panic!("{report}"));

    // The spy sees calls that reach the real MPI: a program calling its PMPI_ routines.
    let direct = mpi
        .compile(&dir.join("spy_direct.c"), &[])
        .unwrap_or_else(|report| panic!("{report}"));
    let (cmd, out) = mpi.run(&direct, Some(&spy.to_string_lossy()));
    let counts = spy_counts(&out.stderr);
    assert!(
        out.status.success() && counts.len() == 2 && counts.iter().all(|&(_, o)| o >= 4),
        "{}",
        common::report("the spy did not see the direct calls", &cmd, &out)
    );

    // And the calls of the real MPI's Fortran attribute routines into its internals (the
    // standard ABI has no Fortran).
    if mpi.name != "abi" {
        no_fortran_call_reaches(mpi, &layer, &spy);
    }

    // Under the layer, programs full of attribute calls reach none of them.
    for (suite, name) in [
        ("c", "keyval_lifecycle"),
        ("c", "attr_values"),
        ("c", "win_attrs"),
        ("layer", "layer_finalize"),
    ] {
        let source = repo().join("tests").join(suite).join(format!("{name}.c"));
        let exe = mpi
            .compile(&source, &[])
            .unwrap_or_else(|report| panic!("{report}"));
        none_reaches(mpi, &exe, name, &layer, &spy);
    }
}

/// Runs `exe` (the program `name`) with the layer and the spy after it: it must pass, and no
/// attribute call but reads of predefined attributes may reach the real MPI.
fn none_reaches(mpi: &Mpi, exe: &Path, name: &str, layer: &Path, spy: &Path) {
    let preload = format!("{} {}", layer.display(), spy.display());
    let (cmd, out) = mpi.run(exe, Some(&preload));
    let counts = spy_counts(&out.stderr);
    assert!(
        out.status.success() && counts.len() == 2 && counts.iter().all(|&(_, o)| o == 0),
        "{}",
        common::report(
            &format!("{name}: an attribute call reached {}'s own code", mpi.name),
            &cmd,
            &out
        )
    );
}

/// The spy sees the real MPI's Fortran attribute routines reach its internals natively, and
/// nothing of the kind under the layer.
fn no_fortran_call_reaches(mpi: &Mpi, layer: &Path, spy: &Path) {
    let fortran = mpi
        .compile_fortran("mixed_values")
        .unwrap_or_else(|report| panic!("{report}"));
    let (cmd, out) = mpi.run(&fortran, Some(&spy.to_string_lossy()));
    let counts = spy_counts(&out.stderr);
    assert!(
        counts.len() == 2 && counts.iter().all(|&(_, o)| o >= 1),
        "{}",
        common::report("the spy did not see the Fortran calls", &cmd, &out)
    );
    none_reaches(mpi, &fortran, "mixed_values", layer, spy);
}

#[test]
fn no_attribute_call_reaches_mpich() {
    no_attribute_call_reaches(&MPICH);
}

#[test]
fn no_attribute_call_reaches_open_mpi() {
    no_attribute_call_reaches(&OPEN_MPI);
}

#[test]
fn no_attribute_call_reaches_the_standard_abi() {
    no_attribute_call_reaches(&ABI);
}
