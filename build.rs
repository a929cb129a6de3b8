//! Build script.
//!
//! 1. bindgen reads `include/mpi.h`, so Rust uses the header's own types and constants and
//!    the two can never disagree. Predefined handles are macros such as `((MPI_Comm)0x101)`,
//!    which bindgen does not translate: a generated wrapper names each one in an enum
//!    (`MPIATTR_HANDLE_MPI_COMM_WORLD = (intptr_t)MPI_COMM_WORLD`), so clang evaluates the
//!    value from the header itself; this script only lists the names.
//! 2. The C entry points of the functions `bindings/functions.txt` lists are generated from
//!    the standard's data in `include/mpi-api.txt` (see `bindings/generate_c.rs`), and so
//!    are the bodies of its `runs=` lines (`OUT_DIR/<chapter>_bodies.rs`).
//! 3. The Fortran bindings are generated from `fortran/routines.txt` (the routines' names and
//!    options; their signatures come from `include/mpi-api.txt`) and the constants clang
//!    read (see `fortran/generate.rs`): the Rust symbols, `mpif.h`, and the `mpi` and
//!    `mpi_f08` modules, which gfortran compiles here (with the default feature
//!    `fortran-modules`) into `OUT_DIR/fortran/*.mod` for
//!    `ci/install` to install.

use std::collections::HashSet;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bindgen::callbacks::{EnumVariantValue, IntKind, ParseCallbacks};

#[path = "fortran/generate.rs"]
mod generate;
#[path = "bindings/generate_c.rs"]
mod generate_c;
#[path = "src/layer/generate.rs"]
mod generate_layer;

/// Names of the header's `#define NAME ((Type)value)` handle macros and aliases.
fn handle_macro_names(header: &str) -> Vec<String> {
    header
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix("#define ")?;
            let (name, value) = rest.split_once(char::is_whitespace)?;
            let value = value.trim_start();
            let is_cast = value.starts_with("((MPI_") || value.starts_with("((void");
            let is_alias = value.starts_with("MPI_") && !value.contains(' ');
            (name.starts_with("MPI_") && (is_cast || is_alias)).then(|| name.to_string())
        })
        .collect()
}

/// The definition of a macro.
fn definition<'a>(header: &'a str, name: &str) -> &'a str {
    header
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(&format!("#define {name} ")))
        .unwrap_or_default()
        .trim()
}

/// The handle types: `typedef struct MPI_ABI_Comm *MPI_Comm;` gives `MPI_Comm`.
fn handle_types(header: &str) -> Vec<String> {
    header
        .lines()
        .filter_map(|l| l.trim().strip_prefix("typedef struct MPI_ABI_"))
        .filter_map(|rest| rest.split_once('*'))
        .map(|(_, name)| name.trim_end_matches(';').trim().to_string())
        .collect()
}

/// The handle type of a predefined handle macro, following aliases; `None` for macros that
/// are addresses or callbacks (`((void *)0)`, `((MPI_Copy_function *)0x1)`).
fn handle_type(header: &str, types: &[String], name: &str) -> Option<String> {
    let value = definition(header, name);
    if let Some(cast) = value.strip_prefix("((") {
        let ty = cast.split(')').next()?;
        return types.iter().find(|t| *t == ty).cloned();
    }
    if value.starts_with("MPI_") && value != name {
        return handle_type(header, types, value);
    }
    None
}

/// Records the integer constants clang evaluates, in the order it meets them.
#[derive(Debug, Default)]
struct Constants(Arc<Mutex<Vec<(String, i64)>>>);

impl ParseCallbacks for Constants {
    fn int_macro(&self, name: &str, value: i64) -> Option<IntKind> {
        self.0.lock().unwrap().push((name.to_string(), value));
        None
    }

    fn enum_variant_name(
        &self,
        _enum_name: Option<&str>,
        name: &str,
        value: EnumVariantValue,
    ) -> Option<String> {
        let value = match value {
            EnumVariantValue::Signed(v) => v,
            EnumVariantValue::Unsigned(v) => v as i64,
            EnumVariantValue::Boolean(v) => v as i64,
        };
        self.0.lock().unwrap().push((name.to_string(), value));
        None
    }
}

/// The header's constants as Fortran needs them: every `MPI_` integer and every predefined
/// handle (by its own name, with its type), once each.
fn fortran_constants(header: &str, seen: &[(String, i64)]) -> Vec<generate::Constant> {
    let types = handle_types(header);
    let mut names = HashSet::new();
    let mut constants = Vec::new();
    for (name, value) in seen {
        let (name, handle_type) = match name.strip_prefix("MPIATTR_HANDLE_") {
            Some(handle) => match handle_type(header, &types, handle) {
                Some(ty) => (handle.to_string(), Some(ty)),
                None => continue,
            },
            None if name.starts_with("MPI_") => (name.clone(), None),
            None => continue,
        };
        if names.insert(name.clone()) {
            constants.push(generate::Constant {
                name,
                value: *value,
                handle_type,
            });
        }
    }
    constants
}

/// Compiles the two modules; `mpi.mod` and `mpi_f08.mod` land in `dir`.
fn compile_modules(dir: &Path, sources: &[PathBuf], integer8: bool) {
    let mut build = cc::Build::new();
    build
        .compiler("gfortran")
        .cargo_metadata(false)
        .warnings(false)
        .flag("-Wall")
        .flag("-J")
        .flag(dir.to_str().expect("OUT_DIR is UTF-8"))
        .out_dir(dir);
    if integer8 {
        build.flag("-fdefault-integer-8");
    }
    for source in sources {
        build.file(source);
    }
    if let Err(error) = build.try_compile_intermediates() {
        panic!(
            "gfortran could not compile the Fortran modules ({error}); ci/prereqs installs gfortran"
        );
    }
}

/// Stops the build with what to do when the Fortran modules are wanted and no gfortran runs.
fn require_gfortran() {
    let found = std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        panic!(
            "the feature `fortran-modules` (on by default) compiles the Fortran modules with \
             gfortran, which is not installed: install gfortran (ci/prereqs does), or build \
             with `--no-default-features` for the Rust API and the C library without the \
             Fortran modules"
        );
    }
}

/// The minor version of the compiler cargo builds with (`rustc 1.95.0 ...` gives 95).
fn rustc_minor() -> Option<u32> {
    let rustc = env::var_os("RUSTC")?;
    let output = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    text.split_whitespace()
        .nth(1)?
        .split('.')
        .nth(1)?
        .parse()
        .ok()
}

fn main() {
    let header = "include/mpi.h";
    println!("cargo:rerun-if-changed={header}");
    println!("cargo:rerun-if-changed=build.rs");
    // The randomized tests size their default runs by it (tests/model/harness.rs).
    println!(
        "cargo:rustc-env=MPIATTR_OPT_LEVEL={}",
        env::var("OPT_LEVEL").unwrap_or_default()
    );
    // `std::hint::cold_path` (Rust 1.95) lays the fast paths' code out (src/engine,
    // `cold_path`); older compilers, down to the rust-version, build without it.
    println!("cargo:rustc-check-cfg=cfg(mpiattr_cold_path)");
    if rustc_minor().is_some_and(|minor| minor >= 95) {
        println!("cargo:rustc-cfg=mpiattr_cold_path");
    }
    println!("cargo:rerun-if-changed=fortran/routines.txt");
    println!("cargo:rerun-if-changed=fortran/generate.rs");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    // The shared library's soname: ci/install installs libmpiattr.so.0.x.y with the links
    // libmpiattr.so.0 and libmpiattr.so, so programs record the major version only. The
    // layer over a real MPI (feature `layer`) is libmpiattr-NAME.so, NAME from MPIATTR_LAYER.
    println!("cargo:rerun-if-env-changed=MPIATTR_LAYER");
    if env::var_os("CARGO_FEATURE_LAYER").is_some() {
        let name = env::var("MPIATTR_LAYER")
            .expect("the feature `layer` needs MPIATTR_LAYER: mpich, openmpi or abi");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmpiattr-{name}.so");
        generate_layer::build(&out);
    } else {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmpiattr.so.0");
    }
    let text = fs::read_to_string(header).expect("include/mpi.h is readable");
    let integer8 = env::var_os("CARGO_FEATURE_FORTRAN_INTEGER_8").is_some();

    let mut wrapper = String::from("#include \"mpi.h\"\nenum {\n");
    for name in handle_macro_names(&text) {
        writeln!(wrapper, "    MPIATTR_HANDLE_{name} = (intptr_t){name},").unwrap();
    }
    wrapper.push_str("};\n");
    let wrapper_path = out.join("mpiattr_wrapper.h");

    // The names of predefined handles (`((MPI_Comm)0x101)`, not callbacks or buffer
    // addresses), for error messages; aliases such as MPI_LONG_LONG_INT come after the
    // name they alias, so a lookup finds the primary name first.
    let mut names = String::from("/// Predefined handle values and their C names.\n");
    names.push_str("pub(crate) const PREDEFINED_HANDLES: &[(usize, &str)] = &[\n");
    for name in handle_macro_names(&text) {
        let value = definition(&text, &name);
        if value.starts_with("((MPI_") && !value.contains('*') {
            writeln!(
                names,
                "    (crate::abi::MPIATTR_HANDLE_{name} as usize, \"{name}\"),"
            )
            .unwrap();
        }
    }
    names.push_str("];\n");
    fs::write(out.join("handle_names.rs"), names).expect("cannot write handle_names.rs");
    fs::write(&wrapper_path, wrapper).expect("cannot write the bindgen wrapper");

    let seen = Constants::default();
    let record = Constants(seen.0.clone());
    let mut builder = bindgen::Builder::default()
        .header(wrapper_path.to_str().expect("OUT_DIR is UTF-8"))
        .clang_arg("-Iinclude")
        .clang_arg("-Wno-gnu-folding-constant")
        .blocklist_function("P?MPI_.*")
        .default_enum_style(bindgen::EnumVariation::Consts)
        .translate_enum_integer_types(true)
        .parse_callbacks(Box::new(record))
        .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()));
    if integer8 {
        builder = builder.clang_arg("-DMPIATTR_FORTRAN_INTEGER_8");
    }
    builder
        .generate()
        .expect("bindgen could not read include/mpi.h")
        .write_to_file(out.join("abi.rs"))
        .expect("cannot write abi.rs");

    // The C entry points of the implemented functions.
    println!("cargo:rerun-if-changed=include/mpi-api.txt");
    println!("cargo:rerun-if-changed=bindings/functions.txt");
    println!("cargo:rerun-if-changed=bindings/generate_c.rs");
    let api = generate_c::parse_api(
        &fs::read_to_string("include/mpi-api.txt").expect("include/mpi-api.txt is readable"),
    );
    let annotations = generate_c::parse_annotations(
        &fs::read_to_string("bindings/functions.txt").expect("bindings/functions.txt"),
    );
    let mut sources = std::collections::BTreeMap::new();
    for annotation in &annotations {
        let path = format!("src/capi/{}.rs", annotation.chapter);
        if !sources.contains_key(&annotation.chapter) {
            println!("cargo:rerun-if-changed={path}");
            let text = fs::read_to_string(&path).unwrap_or_else(|_| panic!("{path} is readable"));
            sources.insert(annotation.chapter.clone(), text);
        }
    }
    // The bodies of the `runs=` lines (nonblocking and persistent collectives), which their
    // chapter includes; the entry points below read them as part of the chapter.
    for (chapter, bodies) in generate_c::forwarding_bodies(&api, &annotations, &sources) {
        let file = generate_c::bodies_file(&chapter);
        let text = sources
            .get_mut(&chapter)
            .expect("a chapter of functions.txt");
        assert!(
            text.contains(&format!(
                "include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));"
            )),
            "src/capi/{chapter}.rs has `runs=` functions: it must include their bodies with \
             `include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));`"
        );
        fs::write(out.join(&file), &bodies).unwrap_or_else(|_| panic!("cannot write {file}"));
        text.push_str(&bodies);
    }
    fs::write(
        out.join("capi_functions.rs"),
        generate_c::c_entry_points(&api, &annotations, &sources),
    )
    .expect("cannot write capi_functions.rs");

    // The Fortran bindings.
    let constants = fortran_constants(&text, &seen.0.lock().unwrap());
    let types = handle_types(&text);
    let fint_bytes = if integer8 { 8 } else { 4 };
    // fortran/routines.txt names the routines; their signatures come from the data.
    let table = generate_c::fortran_routines(
        &api,
        &fs::read_to_string("fortran/routines.txt").expect("fortran/routines.txt"),
        &annotations,
    );
    // The routines of functions.txt not written by hand: generated over the C bodies.
    fs::write(
        out.join("fortran_functions.rs"),
        generate_c::fortran_entry_points(&api, &annotations, &sources),
    )
    .expect("cannot write fortran_functions.rs");
    fs::write(out.join("routines.txt"), &table).expect("cannot write routines.txt");
    let routines = generate::parse_routines(&table);
    fs::write(
        out.join("fortran_shells.rs"),
        generate::rust_shells(&routines, &types),
    )
    .expect("cannot write fortran_shells.rs");
    let dir = out.join("fortran");
    fs::create_dir_all(&dir).expect("cannot create OUT_DIR/fortran");
    fs::write(dir.join("mpif.h"), generate::mpif_h(&constants, fint_bytes))
        .expect("cannot write mpif.h");
    let mpi = dir.join("mpi.f90");
    let mpi_f08 = dir.join("mpi_f08.f90");
    fs::write(
        &mpi,
        generate::mpi_module(&routines, &constants, fint_bytes),
    )
    .expect("cannot write mpi.f90");
    fs::write(
        &mpi_f08,
        generate::mpi_f08_module(&routines, &constants, &types, fint_bytes),
    )
    .expect("cannot write mpi_f08.f90");
    if env::var_os("CARGO_FEATURE_FORTRAN_MODULES").is_some() {
        require_gfortran();
        compile_modules(&dir, &[mpi, mpi_f08], integer8);
    }
}
