//! The C entry points, generated from the standard's data and one annotation per function.
//!
//! `include/mpi-api.txt` (written by `ci/standard-api` from the MPI Forum's apis.json) gives
//! every procedure's parameters: name, kind, direction and C type. `bindings/functions.txt`
//! lists the functions the library implements, one line each: the chapter file under
//! `src/capi/` that holds the hand-written body, the argument whose object's error handler
//! reports a failure, and options. From the two this module writes, for each listed
//! function, `PMPI_X` (argument decoding, the panic boundary `ffi::call`, the error handler,
//! the optional lock-free fast path) and `MPI_X`, which forwards to it.
//!
//! Decoding is driven by the data: a pointer the standard marks `out` or `inout` (other than
//! a choice buffer) becomes an [`Out`](crate::ffi::Out) checked for NULL before the body runs,
//! in parameter order; a `C_BUFFER` output (`MPI_Alloc_mem`'s `baseptr`) is the address of a
//! pointer and becomes an `Out<*mut c_void>`; every other argument reaches the body as C
//! passed it. The body is `fn snake_name(args) -> Result<()>` in the chapter file, with the
//! documentation comment the generated entry points carry.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One parameter of a procedure, as `include/mpi-api.txt` gives it.
#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    pub kind: String,
    pub direction: String,
    /// The C type as the standard's binding writes it (`MPI_Datatype*`, `const int[]`).
    pub c_type: String,
    /// The large-count (`_c`) form's C type.
    pub c_large: String,
    /// The `use mpi_f08` type.
    pub f08: String,
    /// Not a parameter of the Fortran bindings (MPI_Init's `argc`, `argv`).
    pub fortran_suppressed: bool,
}

/// One procedure of the standard.
#[derive(Debug, Clone)]
pub struct Procedure {
    pub name: String,
    pub c_return: String,
    pub flags: Vec<String>,
    pub params: Vec<Param>,
}

impl Procedure {
    /// The parameters of the C binding (the data also lists Fortran's `ierror`). A C
    /// variadic tail (`MPI_Pcontrol(const int level, ...)`) is left out: the entry point
    /// takes the named parameters only, which every C ABI the library targets passes the
    /// same way to a variadic function (the extra arguments are never read).
    pub fn c_params(&self) -> impl Iterator<Item = &Param> {
        self.params
            .iter()
            .filter(|p| p.c_type != "-" && p.kind != "VARARGS")
    }
}

/// Reads `include/mpi-api.txt`.
pub fn parse_api(text: &str) -> BTreeMap<String, Procedure> {
    let mut procedures = BTreeMap::new();
    let mut current: Option<Procedure> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("proc ") {
            if let Some(done) = current.take() {
                procedures.insert(done.name.clone(), done);
            }
            let fields: Vec<&str> = rest.split('\t').collect();
            assert!(fields.len() == 3, "mpi-api.txt: bad line {line:?}");
            current = Some(Procedure {
                name: fields[0].to_string(),
                c_return: fields[1].to_string(),
                flags: fields[2].split(' ').map(str::to_string).collect(),
                params: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("arg ") {
            let fields: Vec<&str> = rest.split('\t').collect();
            assert!(fields.len() == 9, "mpi-api.txt: bad line {line:?}");
            current
                .as_mut()
                .expect("mpi-api.txt: an arg before any proc")
                .params
                .push(Param {
                    name: fields[0].to_string(),
                    kind: fields[1].to_string(),
                    direction: fields[2].to_string(),
                    c_type: fields[3].to_string(),
                    c_large: fields[4].to_string(),
                    f08: fields[7].to_string(),
                    fortran_suppressed: fields[8].split(' ').any(|f| f == "no-f90"),
                });
        }
    }
    if let Some(done) = current.take() {
        procedures.insert(done.name.clone(), done);
    }
    procedures
}

/// One line of `bindings/functions.txt`.
#[derive(Debug, Clone)]
pub struct Annotation {
    /// `MPI_Type_dup`.
    pub name: String,
    /// The chapter file under `src/capi/` (`datatype`).
    pub chapter: String,
    /// The argument whose object's error handler reports failures, or `None` for
    /// MPI_COMM_SELF's.
    pub on: Option<String>,
    /// Whether `<body>_fast` is tried first, without the panic boundary.
    pub fast: bool,
    /// Whether the large-count form `MPI_X_c` is implemented too (body `<body>_c`).
    pub large: bool,
    /// Output arguments the body decodes itself (to keep an order of checks).
    pub raw: Vec<String>,
    /// The `int` the function returns is a value, not an error code (`MPI_Comm_toint`).
    pub value: bool,
}

impl Annotation {
    /// The body's name: `MPI_Type_dup` gives `type_dup`.
    pub fn body(&self) -> String {
        self.name
            .strip_prefix("MPI_")
            .unwrap_or(&self.name)
            .to_lowercase()
    }
}

/// Reads `bindings/functions.txt`: `MPI_X chapter on=ARG|self|world [fast] [large]
/// [raw=ARG,...] [value]`, `#` comments.
pub fn parse_annotations(text: &str) -> Vec<Annotation> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let name = words.next().unwrap().to_string();
        let chapter = words
            .next()
            .unwrap_or_else(|| panic!("functions.txt: {name} has no chapter"))
            .to_string();
        let mut annotation = Annotation {
            name,
            chapter,
            on: None,
            fast: false,
            large: false,
            raw: Vec::new(),
            value: false,
        };
        for word in words {
            match word {
                "fast" => annotation.fast = true,
                "large" => annotation.large = true,
                "value" => annotation.value = true,
                "on=self" => annotation.on = None,
                other => match (other.strip_prefix("on="), other.strip_prefix("raw=")) {
                    (Some(arg), _) => annotation.on = Some(arg.to_string()),
                    (_, Some(args)) => {
                        annotation.raw = args.split(',').map(str::to_string).collect()
                    }
                    _ => panic!("functions.txt: {}: unknown option {other}", annotation.name),
                },
            }
        }
        out.push(annotation);
    }
    out
}

/// The Rust type of a C type of the standard's bindings.
pub fn rust_type(c: &str) -> String {
    let c = c.trim();
    let (constant, c) = match c.strip_prefix("const ") {
        Some(rest) => (true, rest.trim()),
        None => (false, c),
    };
    // A two-dimensional array of rows (`int ranges[][3]`): a pointer to the first row.
    if let Some((base, row)) = c.strip_suffix(']').and_then(|c| c.split_once("[][")) {
        let row: usize = row.parse().expect("a row length");
        let pointer = if constant { "*const" } else { "*mut" };
        return format!("{pointer} [{}; {row}]", rust_type(base));
    }
    let (base, pointers) = if let Some(base) = c.strip_suffix("[]") {
        (base.trim(), 1)
    } else {
        let base = c.trim_end_matches('*').trim();
        (base, c.len() - c.trim_end_matches('*').len())
    };
    let mut ty = match base {
        "int" => "std::ffi::c_int".to_string(),
        "double" => "std::ffi::c_double".to_string(),
        "char" => "std::ffi::c_char".to_string(),
        "void" => "std::ffi::c_void".to_string(),
        other => format!("crate::abi::{other}"),
    };
    for level in 0..pointers {
        let innermost = level == 0;
        ty = if constant && innermost {
            format!("*const {ty}")
        } else {
            format!("*mut {ty}")
        };
    }
    ty
}

/// The Rust type of a parameter: as [`rust_type`], except that a callback (`FUNCTION`,
/// `MPI_Comm_copy_attr_function*`) is bindgen's `Option<fn>` of the typedef, and an in-out
/// keyval (`MPI_Comm_free_keyval`) is `KeyvalInOut`, which error messages print as the
/// keyval's number.
fn param_type(param: &Param) -> String {
    if param.kind == "FUNCTION" || param.kind == "POLYFUNCTION" {
        return rust_type(param.c_type.trim_end_matches('*'));
    }
    if is_keyval_inout(param) {
        return "crate::ffi::args::KeyvalInOut".to_string();
    }
    rust_type(&param.c_type)
}

fn is_keyval_inout(param: &Param) -> bool {
    param.kind == "KEYVAL" && param.direction == "inout" && param.c_type == "int*"
}

/// How the generated code hands a parameter to the body.
enum Decoded {
    /// As C passed it.
    Raw,
    /// An output or in-out pointer, as `&mut Out<T>` (T is the pointee's Rust type).
    Out(String),
}

/// Kinds whose pointers are not single outputs: strings are buffers, a status may be
/// MPI_STATUS_IGNORE, MPI_Init's `argc` and `argv` may be NULL.
const UNDECODED_KINDS: &[&str] = &["STRING", "STATUS", "ARGUMENT_COUNT", "ARGUMENT_LIST"];

fn decoding(param: &Param, raw: &[String]) -> Decoded {
    let written = matches!(param.direction.as_str(), "out" | "inout");
    if !written
        || param.c_type.ends_with("[]")
        || param.c_type.starts_with("const ")
        || UNDECODED_KINDS.contains(&param.kind.as_str())
        || is_keyval_inout(param)
        || raw.contains(&param.name)
    {
        return Decoded::Raw;
    }
    if param.kind == "C_BUFFER" {
        return Decoded::Out("*mut std::ffi::c_void".to_string());
    }
    match param.c_type.strip_suffix('*') {
        Some(pointee) if pointee.trim() != "void" => Decoded::Out(rust_type(pointee)),
        _ => Decoded::Raw,
    }
}

/// Whether `fn <body>` is declared `unsafe fn` in a chapter's source: a body that reads or
/// writes through a raw pointer argument is, and its call is then an `unsafe` block under
/// the entry point's own contract.
pub fn is_unsafe(source: &str, body: &str) -> bool {
    let head = format!("unsafe fn {body}(");
    source.lines().any(|l| l.contains(&head))
}

/// The `///` lines just above `fn <body>` in a chapter's source.
pub fn doc_of(source: &str, body: &str) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let head = format!("fn {body}(");
    let Some(at) = lines.iter().position(|l| l.contains(&head)) else {
        return Vec::new();
    };
    let mut docs: Vec<String> = lines[..at]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("///") || l.starts_with("#["))
        .filter_map(|l| l.strip_prefix("///"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect();
    docs.reverse();
    docs
}

/// The Rust source of every annotated function's `PMPI_X` and `MPI_X`; `sources` maps a
/// chapter to its file's text (for the bodies' documentation).
pub fn c_entry_points(
    api: &BTreeMap<String, Procedure>,
    annotations: &[Annotation],
    sources: &BTreeMap<String, String>,
) -> String {
    let mut out = String::from("// Generated by build.rs (bindings/generate_c.rs): do not edit.\n");
    for annotation in annotations {
        let name = &annotation.name;
        let procedure = api
            .get(name)
            .unwrap_or_else(|| panic!("functions.txt: {name} is not in include/mpi-api.txt"));
        if procedure.c_return != "int" || annotation.value {
            infallible(&mut out, annotation, procedure, sources);
            continue;
        }
        assert!(
            !annotation.large || procedure.flags.iter().any(|f| f == "large"),
            "functions.txt: {name} has no large-count form"
        );
        let forms: &[bool] = if annotation.large {
            &[false, true]
        } else {
            &[false]
        };
        for &large in forms {
            entry_point(&mut out, annotation, procedure, sources, large);
        }
    }
    out
}

/// The value an entry point without an error code returns if its body panics: the null
/// handle of the argument's kind for `c2f`, the null handle for `f2c`, 0.0 for a double.
fn fallback(procedure: &Procedure) -> String {
    let null_of = |kind: &str| match kind {
        "COMMUNICATOR" => "MPI_COMM_NULL",
        "DATATYPE" => "MPI_DATATYPE_NULL",
        "WINDOW" => "MPI_WIN_NULL",
        "GROUP" => "MPI_GROUP_NULL",
        "REQUEST" => "MPI_REQUEST_NULL",
        "INFO" => "MPI_INFO_NULL",
        "ERRHANDLER" => "MPI_ERRHANDLER_NULL",
        "OPERATION" => "MPI_OP_NULL",
        "SESSION" => "MPI_SESSION_NULL",
        "MESSAGE" => "MPI_MESSAGE_NULL",
        "FILE" => "MPI_FILE_NULL",
        other => panic!("{}: no null handle of kind {other}", procedure.name),
    };
    match procedure.c_return.as_str() {
        "double" => "0.0".to_string(),
        "int" => {
            let kind = &procedure
                .c_params()
                .next()
                .expect("toint has an argument")
                .kind;
            format!(
                "crate::abi::MPIATTR_HANDLE_{} as std::ffi::c_int",
                null_of(kind)
            )
        }
        "MPI_Fint" => {
            let kind = &procedure
                .c_params()
                .next()
                .expect("c2f has an argument")
                .kind;
            format!(
                "crate::abi::MPIATTR_HANDLE_{} as crate::abi::MPI_Fint",
                null_of(kind)
            )
        }
        handle => {
            let kind = match handle {
                "MPI_Comm" => "COMMUNICATOR",
                "MPI_Datatype" => "DATATYPE",
                "MPI_Win" => "WINDOW",
                "MPI_Group" => "GROUP",
                "MPI_Request" => "REQUEST",
                "MPI_Info" => "INFO",
                "MPI_Errhandler" => "ERRHANDLER",
                "MPI_Op" => "OPERATION",
                "MPI_Session" => "SESSION",
                "MPI_Message" => "MESSAGE",
                "MPI_File" => "FILE",
                other => panic!("{}: no null handle of type {other}", procedure.name),
            };
            format!(
                "crate::abi::MPIATTR_HANDLE_{} as usize as crate::abi::{handle}",
                null_of(kind)
            )
        }
    }
}

/// Writes `PMPI_X` and `MPI_X` for a function that returns a value and reports no errors
/// (`c2f`, `f2c`, `MPI_Wtime`): the body `fn x(args) -> T` runs inside the panic boundary.
fn infallible(
    out: &mut String,
    annotation: &Annotation,
    procedure: &Procedure,
    sources: &BTreeMap<String, String>,
) {
    let name = &annotation.name;
    assert!(
        !annotation.fast
            && !annotation.large
            && annotation.raw.is_empty()
            && annotation.on.is_none(),
        "functions.txt: {name} returns a value: no options apply"
    );
    let body = annotation.body();
    let chapter = &annotation.chapter;
    let params: Vec<&Param> = procedure.c_params().collect();
    let typed: Vec<String> = params
        .iter()
        .map(|p| format!("{}: {}", p.name, param_type(p)))
        .collect();
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let docs = doc_of(
        sources.get(chapter).map(String::as_str).unwrap_or_default(),
        &body,
    );
    assert!(
        !docs.is_empty(),
        "{name}: src/capi/{chapter}.rs has no documented `fn {body}(`"
    );
    let doc: String = docs.iter().map(|l| format!("/// {l}\n")).collect();
    write!(
        out,
        r#"
{doc}#[no_mangle]
pub extern "C" fn P{name}({typed}) -> {ret} {{
    crate::ffi::call_infallible({fallback}, {call})
}}

{doc}#[no_mangle]
pub extern "C" fn {name}({typed}) -> {ret} {{
    P{name}({names})
}}
"#,
        typed = typed.join(", "),
        ret = rust_type(&procedure.c_return),
        fallback = fallback(procedure),
        call = if names.is_empty() {
            format!("{chapter}::{body}")
        } else {
            format!("|| {chapter}::{body}({})", names.join(", "))
        },
        names = names.join(", "),
    )
    .unwrap();
}

/// Writes `PMPI_X` and `MPI_X` (`PMPI_X_c` and `MPI_X_c` if `large`).
fn entry_point(
    out: &mut String,
    annotation: &Annotation,
    procedure: &Procedure,
    sources: &BTreeMap<String, String>,
    large: bool,
) {
    {
        let suffix = if large { "_c" } else { "" };
        let name = &format!("{}{suffix}", annotation.name);
        let pmpi = format!("P{name}");
        let body = format!("{}{suffix}", annotation.body());
        let chapter = &annotation.chapter;
        for arg in &annotation.raw {
            assert!(
                procedure.c_params().any(|p| &p.name == arg),
                "functions.txt: {name} has no argument {arg}"
            );
        }
        let mut params: Vec<Param> = procedure.c_params().cloned().collect();
        if large {
            for param in &mut params {
                param.c_type = param.c_large.clone();
            }
        }
        let params: Vec<&Param> = params.iter().collect();
        let typed: Vec<String> = params
            .iter()
            .map(|p| format!("{}: {}", p.name, param_type(p)))
            .collect();
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let target = match &annotation.on {
            None => "crate::ffi::Target::SelfComm".to_string(),
            Some(world) if world == "world" => {
                "crate::ffi::Target::Comm(crate::abi::MPIATTR_HANDLE_MPI_COMM_WORLD as usize as crate::abi::MPI_Comm)".to_string()
            }
            Some(arg) => {
                let param = params
                    .iter()
                    .find(|p| &p.name == arg)
                    .unwrap_or_else(|| panic!("functions.txt: {name} has no argument {arg}"));
                let variant = match param.kind.as_str() {
                    "COMMUNICATOR" => "Comm",
                    "WINDOW" => "Win",
                    "SESSION" => "Session",
                    other => panic!("functions.txt: {name}: no error handler on a {other}"),
                };
                if param.c_type.ends_with('*') {
                    format!(
                        "crate::ffi::Target::{variant}(if {arg}.is_null() {{ crate::ffi::handles::null() }} else {{\n                    // SAFETY: non-null, and valid (the caller's contract).\n                    unsafe {{ {arg}.read() }}\n                }})"
                    )
                } else {
                    format!("crate::ffi::Target::{variant}({arg})")
                }
            }
        };
        let source = sources.get(chapter).map(String::as_str).unwrap_or_default();
        let docs = doc_of(source, &body);
        assert!(
            !docs.is_empty(),
            "{name}: src/capi/{chapter}.rs has no documented `fn {body}(`"
        );
        let doc: String = docs.iter().map(|l| format!("/// {l}\n")).collect();
        let mut decode = String::new();
        let mut call_args = Vec::new();
        for param in &params {
            match decoding(param, &annotation.raw) {
                Decoded::Raw => call_args.push(param.name.clone()),
                Decoded::Out(ty) => {
                    let p = &param.name;
                    let (pointer, note) = if param.kind == "C_BUFFER" {
                        (
                            format!("{p}.cast::<{ty}>()"),
                            format!("; `{p}` is really a `void**`"),
                        )
                    } else {
                        (p.clone(), String::new())
                    };
                    writeln!(
                        decode,
                        "                // SAFETY: an MPI {} argument: NULL or valid{note}.\n                let mut {p} = unsafe {{ crate::ffi::Out::new({pointer}, \"{p}\") }}?;",
                        param.direction
                    )
                    .unwrap();
                    call_args.push(format!("&mut {p}"));
                }
            }
        }
        let fast_unsafe = is_unsafe(source, &format!("{body}_fast"));
        let fast = if annotation.fast {
            format!(
                "    // The common case first, without any call; `None` goes the whole way.\n    {safety}if let Some(code) = {open}{chapter}::{body}_fast({}){close} {{\n        return code;\n    }}\n",
                names.join(", "),
                safety = if fast_unsafe { "// SAFETY: the fast path's contract is this function's.\n    " } else { "" },
                open = if fast_unsafe { "unsafe { " } else { "" },
                close = if fast_unsafe { " }" } else { "" },
            )
        } else {
            String::new()
        };
        write!(
            out,
            r#"
{doc}///
/// # Safety
/// Every pointer argument is NULL or valid for the accesses the MPI standard describes.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the standard's argument list
pub unsafe extern "C" fn {pmpi}({typed}) -> std::ffi::c_int {{
    /// The function whole: argument checks, the engine, the error handler.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn whole({typed}) -> std::ffi::c_int {{
        crate::ffi::call(
            "{name}",
            move || {target},
            move |line: &mut String| {{
                let args: &[(&str, &dyn crate::ffi::Arg)] = &[{describe}];
                crate::ffi::args::describe_all(line, args);
            }},
            || -> crate::engine::Result<()> {{
{decode}                {body_call}
            }},
        )
    }}
{fast}    // SAFETY: the same contract as this function's.
    unsafe {{ whole({names}) }}
}}

{doc}///
/// # Safety
/// As for the `PMPI_` entry point it forwards to.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn {name}({typed}) -> std::ffi::c_int {{
    // SAFETY: the same contract as the PMPI_ function, which the caller upholds.
    unsafe {{ {pmpi}({names}) }}
}}
"#,
            typed = typed.join(", "),
            describe = names
                .iter()
                .map(|n| format!("(\"{n}\", &{n})"))
                .collect::<Vec<_>>()
                .join(", "),
            body_call = if is_unsafe(source, &body) {
                format!(
                    "// SAFETY: the body's contract is this function's.\n                unsafe {{ {chapter}::{body}({}) }}",
                    call_args.join(", ")
                )
            } else {
                format!("{chapter}::{body}({})", call_args.join(", "))
            },
            names = names.join(", "),
        )
        .unwrap();
    }
}

/// The routine type of `fortran/generate.rs` for a parameter of the data, from its `use
/// mpi_f08` type: `comm`, `out int`, `copy_fn comm`...; `procedure` names the callbacks' kind.
fn fortran_type(procedure: &Procedure, param: &Param, f08: &str) -> String {
    let base = match f08 {
        "INTEGER" => "int".to_string(),
        "INTEGER(KIND=MPI_ADDRESS_KIND)" => "aint".to_string(),
        "LOGICAL" => "logical".to_string(),
        "CHARACTER" => "string".to_string(),
        "TYPE(*), DIMENSION(..)" => "choice".to_string(),
        "TYPE(C_PTR)" => "baseptr".to_string(),
        "PROCEDURE" => {
            let role = if param.name.contains("copy") {
                "copy_fn"
            } else {
                "delete_fn"
            };
            let lower = procedure.name.to_lowercase();
            let kind = ["comm", "type", "win"]
                .into_iter()
                .find(|k| lower.starts_with(&format!("mpi_{k}_")))
                .unwrap_or("mpi1");
            format!("{role} {kind}")
        }
        other => match other
            .strip_prefix("TYPE(MPI_")
            .and_then(|t| t.strip_suffix(')'))
        {
            Some(handle) => handle.to_lowercase(),
            None => panic!("{}: no Fortran routine type for {other}", procedure.name),
        },
    };
    match param.direction.as_str() {
        "in" => base,
        direction => format!("{direction} {base}"),
    }
}

/// Expands `fortran/routines.txt` (one routine per line: `MPI_X [on world] [fast]`) into
/// the signatures `fortran/generate.rs` reads (`MPI_X(arg: [out|inout] type, ...) [-> double]
/// [on world] [fast]`), every argument and type taken from the data.
pub fn fortran_routines(api: &BTreeMap<String, Procedure>, annotations: &str) -> String {
    let mut out = String::new();
    for line in annotations.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, options) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let procedure = api
            .values()
            .find(|p| p.name.eq_ignore_ascii_case(name) && !p.flags.iter().any(|f| f == "no-f90"))
            .unwrap_or_else(|| panic!("fortran/routines.txt: {name} has no Fortran binding"));
        let args: Vec<String> = procedure
            .params
            .iter()
            .filter(|p| p.name != "ierror" && !p.fortran_suppressed)
            .map(|p| format!("{}: {}", p.name, fortran_type(procedure, p, &p.f08)))
            .collect();
        let returns = if procedure.c_return == "double" {
            " -> double"
        } else {
            ""
        };
        let options = options.trim();
        let space = if options.is_empty() { "" } else { " " };
        writeln!(out, "{name}({}){returns}{space}{options}", args.join(", ")).unwrap();
    }
    out
}
