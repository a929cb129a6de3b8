//! The build-time half of the layer over a real MPI (src/layer/mod.rs), run by build.rs when
//! the feature `layer` is on. It reads that MPI's own `mpi.h`, found through the compiler
//! flags in `MPIATTR_LAYER_CFLAGS` (ci/install takes them from the MPI's `mpicc -show`):
//!
//! - bindgen gives the handle types (`int` in MPICH, pointers in Open MPI and the standard
//!   ABI), so the entry points take exactly what the MPI's programs pass;
//! - a small C file compiled against the header gives the values C evaluates there and
//!   bindgen cannot: predefined handles (in Open MPI, addresses of its globals), the
//!   predefined callbacks (functions of the MPI library), error classes, the predefined
//!   keyvals.

use std::env;
use std::fs;
use std::path::Path;

/// What `LayerValues` in src/layer/real.rs holds, in its order: (C type, field, C value).
pub const VALUES: &[(&str, &str, &str)] = &[
    ("void *", "comm_world", "H(MPI_COMM_WORLD)"),
    ("void *", "comm_self", "H(MPI_COMM_SELF)"),
    ("void *", "comm_null", "H(MPI_COMM_NULL)"),
    ("void *", "datatype_null", "H(MPI_DATATYPE_NULL)"),
    ("void *", "win_null", "H(MPI_WIN_NULL)"),
    ("void *", "errors_are_fatal", "H(MPI_ERRORS_ARE_FATAL)"),
    ("void *", "errors_abort", "ERRORS_ABORT"),
    ("void *", "comm_null_copy_fn", "F(MPI_COMM_NULL_COPY_FN)"),
    (
        "void *",
        "comm_null_delete_fn",
        "F(MPI_COMM_NULL_DELETE_FN)",
    ),
    ("void *", "comm_dup_fn", "F(MPI_COMM_DUP_FN)"),
    ("void *", "type_null_copy_fn", "F(MPI_TYPE_NULL_COPY_FN)"),
    (
        "void *",
        "type_null_delete_fn",
        "F(MPI_TYPE_NULL_DELETE_FN)",
    ),
    ("void *", "type_dup_fn", "F(MPI_TYPE_DUP_FN)"),
    ("void *", "win_null_copy_fn", "F(MPI_WIN_NULL_COPY_FN)"),
    ("void *", "win_null_delete_fn", "F(MPI_WIN_NULL_DELETE_FN)"),
    ("void *", "win_dup_fn", "F(MPI_WIN_DUP_FN)"),
    ("void *", "null_copy_fn", "F(MPI_NULL_COPY_FN)"),
    ("void *", "null_delete_fn", "F(MPI_NULL_DELETE_FN)"),
    ("void *", "dup_fn", "F(MPI_DUP_FN)"),
    ("int", "success", "MPI_SUCCESS"),
    ("int", "keyval_invalid", "MPI_KEYVAL_INVALID"),
    ("int", "err_arg", "MPI_ERR_ARG"),
    ("int", "err_comm", "MPI_ERR_COMM"),
    ("int", "err_type", "MPI_ERR_TYPE"),
    ("int", "err_win", "MPI_ERR_WIN"),
    ("int", "err_keyval", "MPI_ERR_KEYVAL"),
    ("int", "err_other", "MPI_ERR_OTHER"),
    ("int", "err_no_mem", "MPI_ERR_NO_MEM"),
    ("int", "err_intern", "MPI_ERR_INTERN"),
    ("int", "tag_ub", "MPI_TAG_UB"),
    ("int", "host", "MPI_HOST"),
    ("int", "io", "MPI_IO"),
    ("int", "wtime_is_global", "MPI_WTIME_IS_GLOBAL"),
    ("int", "universe_size", "MPI_UNIVERSE_SIZE"),
    ("int", "lastusedcode", "MPI_LASTUSEDCODE"),
    ("int", "appnum", "MPI_APPNUM"),
    ("int", "win_base", "MPI_WIN_BASE"),
    ("int", "win_size", "MPI_WIN_SIZE"),
    ("int", "win_disp_unit", "MPI_WIN_DISP_UNIT"),
    ("int", "win_create_flavor", "MPI_WIN_CREATE_FLAVOR"),
    ("int", "win_model", "MPI_WIN_MODEL"),
    ("int", "combiner_named", "MPI_COMBINER_NAMED"),
    ("int", "err_lastcode", "MPI_ERR_LASTCODE"),
];

/// The Fortran routines: (name in lower case, parameters, body), where the body's `NAME` is
/// the routine's upper-case name. Each is exported in every symbol form the real MPIs'
/// Fortran libraries use (`FORTRAN_FORMS`).
const FORTRAN: &[(&str, &str, &str)] = &[
    ("comm_create_keyval", CREATE_ADDRESS, "create_keyval::<CommKind, isize>(NAME, copy, delete, keyval, extra, ierror, Language::FortranAddress)"),
    ("type_create_keyval", CREATE_ADDRESS, "create_keyval::<TypeKind, isize>(NAME, copy, delete, keyval, extra, ierror, Language::FortranAddress)"),
    ("win_create_keyval", CREATE_ADDRESS, "create_keyval::<WinKind, isize>(NAME, copy, delete, keyval, extra, ierror, Language::FortranAddress)"),
    ("keyval_create", CREATE_INTEGER, "create_keyval::<CommKind, MPI_Fint>(NAME, copy, delete, keyval, extra, ierror, Language::FortranInteger)"),
    ("comm_free_keyval", FREE, "free_keyval::<CommKind>(NAME, keyval, ierror)"),
    ("type_free_keyval", FREE, "free_keyval::<TypeKind>(NAME, keyval, ierror)"),
    ("win_free_keyval", FREE, "free_keyval::<WinKind>(NAME, keyval, ierror)"),
    ("keyval_free", FREE, "free_keyval::<CommKind>(NAME, keyval, ierror)"),
    ("comm_set_attr", SET_ADDRESS, "set_attr::<CommKind, isize>(NAME, handle, keyval, value, ierror, Language::FortranAddress)"),
    ("type_set_attr", SET_ADDRESS, "set_attr::<TypeKind, isize>(NAME, handle, keyval, value, ierror, Language::FortranAddress)"),
    ("win_set_attr", SET_ADDRESS, "set_attr::<WinKind, isize>(NAME, handle, keyval, value, ierror, Language::FortranAddress)"),
    ("attr_put", SET_INTEGER, "set_attr::<CommKind, MPI_Fint>(NAME, handle, keyval, value, ierror, Language::FortranInteger)"),
    ("comm_get_attr", GET_ADDRESS, "get_attr::<CommKind, isize>(NAME, handle, keyval, value, flag, ierror, Language::FortranAddress)"),
    ("type_get_attr", GET_ADDRESS, "get_attr::<TypeKind, isize>(NAME, handle, keyval, value, flag, ierror, Language::FortranAddress)"),
    ("win_get_attr", GET_ADDRESS, "get_attr::<WinKind, isize>(NAME, handle, keyval, value, flag, ierror, Language::FortranAddress)"),
    ("attr_get", GET_INTEGER, "get_attr::<CommKind, MPI_Fint>(NAME, handle, keyval, value, flag, ierror, Language::FortranInteger)"),
    ("comm_delete_attr", DELETE, "delete_attr::<CommKind>(NAME, handle, keyval, ierror)"),
    ("type_delete_attr", DELETE, "delete_attr::<TypeKind>(NAME, handle, keyval, ierror)"),
    ("win_delete_attr", DELETE, "delete_attr::<WinKind>(NAME, handle, keyval, ierror)"),
    ("attr_delete", DELETE, "delete_attr::<CommKind>(NAME, handle, keyval, ierror)"),
];

const CREATE_ADDRESS: &str =
    "copy: FProc, delete: FProc, keyval: *mut MPI_Fint, extra: *const isize, ierror: *mut MPI_Fint";
const CREATE_INTEGER: &str = "copy: FProc, delete: FProc, keyval: *mut MPI_Fint, extra: *const MPI_Fint, ierror: *mut MPI_Fint";
const FREE: &str = "keyval: *mut MPI_Fint, ierror: *mut MPI_Fint";
const SET_ADDRESS: &str =
    "handle: *const MPI_Fint, keyval: *const MPI_Fint, value: *const isize, ierror: *mut MPI_Fint";
const SET_INTEGER: &str = "handle: *const MPI_Fint, keyval: *const MPI_Fint, value: *const MPI_Fint, ierror: *mut MPI_Fint";
const GET_ADDRESS: &str = "handle: *const MPI_Fint, keyval: *const MPI_Fint, value: *mut isize, flag: *mut MPI_Fint, ierror: *mut MPI_Fint";
const GET_INTEGER: &str = "handle: *const MPI_Fint, keyval: *const MPI_Fint, value: *mut MPI_Fint, flag: *mut MPI_Fint, ierror: *mut MPI_Fint";
const DELETE: &str = "handle: *const MPI_Fint, keyval: *const MPI_Fint, ierror: *mut MPI_Fint";

/// The symbol forms of routine `name` (lower case): gfortran's and other compilers' manglings
/// of `mpif.h` and `use mpi` calls, their `PMPI_` forms, Open MPI's internal and alias names
/// (its `use mpi_f08` routines call `ompi_NAME_f`), and the `use mpi_f08` symbols.
fn fortran_forms(name: &str) -> Vec<String> {
    let upper = name.to_uppercase();
    let mut capital = name.to_string();
    capital[..1].make_ascii_uppercase();
    let mut forms = Vec::new();
    for prefix in ["mpi", "pmpi"] {
        forms.push(format!("{prefix}_{name}_"));
        forms.push(format!("{prefix}_{name}__"));
        forms.push(format!("{prefix}_{name}"));
        forms.push(format!("{}_{upper}", prefix.to_uppercase()));
        forms.push(format!("{}_{capital}_f", prefix.to_uppercase()));
        forms.push(format!("{}_{capital}_f08", prefix.to_uppercase()));
        forms.push(format!("{prefix}_{name}_f08_"));
    }
    forms.push(format!("ompi_{name}_f"));
    forms.push(format!("pmpir_{name}_f08_"));
    forms
}

/// `OUT_DIR/layer_fortran.rs`: every form of every Fortran routine.
fn fortran_symbols() -> String {
    let mut out = String::from("// Generated by src/layer/generate.rs.\n");
    for (name, params, body) in FORTRAN {
        let upper = format!("\"MPI_{}\"", name.to_uppercase());
        let body = body.replace("NAME", &upper);
        for symbol in fortran_forms(name) {
            out.push_str(&format!(
                "\n#[no_mangle]\n/// # Safety\n/// The MPI standard's contract for this routine.\n\
                 pub unsafe extern \"C\" fn {symbol}({params}) {{\n    \
                 // SAFETY: the program's arguments, passed on.\n    unsafe {{ {body} }}\n}}\n"
            ));
        }
    }
    out
}

/// The Fortran numbers of the predefined keyvals, read from the real MPI's `mpif.h` (and the
/// files it includes) in the include directories: MPICH's differ from its C numbers (C's
/// plus one), Open MPI's do not. `OUT_DIR/layer_fortran_keyvals.rs` maps them to the C
/// numbers of [`VALUES`].
fn fortran_keyvals(flags: &[String]) -> String {
    let names = [
        "tag_ub",
        "host",
        "io",
        "wtime_is_global",
        "universe_size",
        "lastusedcode",
        "appnum",
        "win_base",
        "win_size",
        "win_disp_unit",
        "win_create_flavor",
        "win_model",
    ];
    let mut text = String::new();
    for dir in flags.iter().filter_map(|f| f.strip_prefix("-I")) {
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_lowercase();
            if name.starts_with("mpif") && name.ends_with(".h") {
                println!("cargo:rerun-if-changed={}", entry.path().display());
                text.push_str(&fs::read_to_string(entry.path()).unwrap_or_default());
            }
        }
    }
    let mut arms = String::new();
    for line in text.lines() {
        let lower = line.trim().to_lowercase();
        let Some(rest) = lower.strip_prefix("parameter") else {
            continue;
        };
        let inner = rest.trim().trim_start_matches('(').trim_end_matches(')');
        let Some((name, value)) = inner.split_once('=') else {
            continue;
        };
        let Some(field) = name.trim().strip_prefix("mpi_") else {
            continue;
        };
        if names.contains(&field) {
            if let Ok(number) = value.trim().parse::<i64>() {
                arms.push_str(&format!("        {number} => values().{field},\n"));
            }
        }
    }
    format!(
        "/// The C number of a keyval given by Fortran (the predefined ones differ in MPICH).\n\
         pub(crate) fn c_keyval(keyval: MPI_Fint) -> std::ffi::c_int {{\n    \
         #[allow(unreachable_patterns)]\n    match keyval as i64 {{\n{arms}        \
         _ => keyval as std::ffi::c_int,\n    }}\n}}\n"
    )
}

/// Generates `OUT_DIR/real_mpi.rs` (the real MPI's handle types) and compiles
/// `OUT_DIR/layer_values.c` into the library.
pub fn build(out: &Path) {
    println!("cargo:rerun-if-env-changed=MPIATTR_LAYER_CFLAGS");
    println!("cargo:rerun-if-changed=src/layer/generate.rs");
    let flags: Vec<String> = env::var("MPIATTR_LAYER_CFLAGS")
        .expect(
            "the feature `layer` needs MPIATTR_LAYER_CFLAGS: the real MPI's compiler flags \
             (ci/install --layer sets them)",
        )
        .split_whitespace()
        .map(str::to_string)
        .collect();

    let mut c = String::from(
        "/* Generated by src/layer/generate.rs: values the real MPI's mpi.h defines. */\n\
         #include <mpi.h>\n#include <stdint.h>\n\
         #define H(x) ((void *)(intptr_t)(x))\n#define F(x) ((void *)(x))\n\
         #ifdef MPI_ERRORS_ABORT\n#define ERRORS_ABORT H(MPI_ERRORS_ABORT)\n\
         #else\n#define ERRORS_ABORT ((void *)0)\n#endif\n\
         const struct {\n",
    );
    for (ty, field, _) in VALUES {
        c.push_str(&format!("    {ty} {field};\n"));
    }
    c.push_str("} mpiattr_layer_values = {\n");
    for (_, _, value) in VALUES {
        c.push_str(&format!("    {value},\n"));
    }
    c.push_str("};\n");
    let mut rust = String::from(
        "/// The values of the real MPI's `mpi.h` (src/layer/generate.rs's `VALUES`).\n\
         #[repr(C)]\npub(crate) struct Values {\n",
    );
    for (ty, field, value) in VALUES {
        let ty = if *ty == "int" {
            "std::ffi::c_int"
        } else {
            "*mut std::ffi::c_void"
        };
        rust.push_str(&format!(
            "    /// `{value}`\n    pub(crate) {field}: {ty},\n"
        ));
    }
    rust.push_str("}\n");
    fs::write(out.join("layer_values.rs"), rust).expect("cannot write layer_values.rs");
    fs::write(out.join("layer_fortran.rs"), fortran_symbols())
        .expect("cannot write layer_fortran.rs");
    fs::write(
        out.join("layer_fortran_keyvals.rs"),
        fortran_keyvals(&flags),
    )
    .expect("cannot write layer_fortran_keyvals.rs");
    let source = out.join("layer_values.c");
    fs::write(&source, c).expect("cannot write layer_values.c");
    let mut build = cc::Build::new();
    build.file(&source).warnings(false);
    for flag in flags
        .iter()
        .filter(|f| f.starts_with("-I") || f.starts_with("-D"))
    {
        build.flag(flag);
    }
    build.compile("mpiattr_layer_values");
    // Linked to the real MPI's library: the values name its symbols, and a program linked
    // with the layer ahead of that library finds it whatever the link order.
    for flag in &flags {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        }
    }

    let header = out.join("layer_real.h");
    // MPI_Fint is a macro in Open MPI: a typedef gives bindgen something to read. The
    // standard ABI has no Fortran yet, and no MPI_Fint: an int stands in (no Fortran routine
    // of the layer is called there).
    let fint = if env::var("MPIATTR_LAYER").as_deref() == Ok("abi") {
        "int"
    } else {
        "MPI_Fint"
    };
    fs::write(
        &header,
        format!("#include <mpi.h>\ntypedef {fint} mpiattr_real_fint;\n"),
    )
    .expect("cannot write layer_real.h");
    let bindings = bindgen::Builder::default()
        .header(header.to_str().expect("OUT_DIR is UTF-8"))
        .clang_args(
            flags
                .iter()
                .filter(|f| f.starts_with("-I") || f.starts_with("-D")),
        )
        .allowlist_type("MPI_(Comm|Datatype|Win|Request|Info|Errhandler|Status)|mpiattr_real_fint")
        // Only to learn whether the real MPI has it (MPI-4.0; not Open MPI 4.1).
        .allowlist_function("MPI_Comm_idup_with_info")
        .generate()
        .expect("bindgen could not read the real MPI's mpi.h");
    println!("cargo:rustc-check-cfg=cfg(real_idup_with_info)");
    if bindings.to_string().contains("fn MPI_Comm_idup_with_info") {
        println!("cargo:rustc-cfg=real_idup_with_info");
    }
    bindings
        .write_to_file(out.join("real_mpi.rs"))
        .expect("cannot write real_mpi.rs");
}
