//! Build script: bindgen reads `include/mpi.h`, so Rust uses the header's own types and
//! constants and the two can never disagree.
//!
//! Predefined handles are macros such as `((MPI_Comm)0x101)`, which bindgen does not
//! translate. For those, a generated wrapper names each one in an enum
//! (`MPIATTR_HANDLE_MPI_COMM_WORLD = (intptr_t)MPI_COMM_WORLD`), so clang evaluates the value
//! from the header itself; this script only lists the names.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

/// Names of the header's `#define NAME ((Type)value)` handle macros.
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

fn main() {
    let header = "include/mpi.h";
    println!("cargo:rerun-if-changed={header}");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let text = fs::read_to_string(header).expect("include/mpi.h is readable");

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
        let definition = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("#define {name} ")))
            .unwrap_or_default();
        let is_handle = definition.contains("((MPI_") && !definition.contains('*');
        if is_handle {
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

    let mut builder = bindgen::Builder::default()
        .header(wrapper_path.to_str().expect("OUT_DIR is UTF-8"))
        .clang_arg("-Iinclude")
        .clang_arg("-Wno-gnu-folding-constant")
        .blocklist_function("P?MPI_.*")
        .default_enum_style(bindgen::EnumVariation::Consts)
        .translate_enum_integer_types(true)
        .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()));
    if env::var_os("CARGO_FEATURE_FORTRAN_INTEGER_8").is_some() {
        builder = builder.clang_arg("-DMPIATTR_FORTRAN_INTEGER_8");
    }
    builder
        .generate()
        .expect("bindgen could not read include/mpi.h")
        .write_to_file(out.join("abi.rs"))
        .expect("cannot write abi.rs");
}
